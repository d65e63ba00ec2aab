"""Session 29's argument-parsing leftovers: methods count their positional arguments without self (x.mul(1, 0),
x.flatten(1, 0, 2, 3), x.mm(y, 1)) or list their overloads (x.div(1, 0)), the deprecated scalar-first forms take
no keywords (but a function's out=), random_'s plausible overload, polygamma's method table, split_with_sizes'
position in the function form, Tensor's Python-written methods named "Tensor.norm()", and the sparse/quantized
accessors bound without arguments.

Each test runs one program under minigrad and under PyTorch and compares the printed output.
"""
from __future__ import annotations

from parity import same_as_torch


def test_hot_methods_count_without_self():
    # PyTorch: "mul() takes 1 positional argument but 2 were given"; minigrad's shared functions let Python count
    # self ("takes 2 ... but 3"), or named their own function ("_where_method()")
    same_as_torch("""
x, m = torch.ones(2, 3), torch.ones(3, 2)
for f in (lambda: x.mul(1, 0), lambda: x.mul_(1, 0), lambda: x.clone(1, 0), lambda: x.expand_as(x, 0),
          lambda: x.view_as(x, 0), lambda: x.reshape_as(x, 0), lambda: x.type_as(x, 0), lambda: x.matmul(m, 0),
          lambda: x.transpose(0, 1, 2), lambda: x.div(1, 0), lambda: x.pow(1, 0), lambda: x.narrow(0, 1, 1, 1),
          lambda: x.masked_fill(x > 0, 1, 2), lambda: x.where(x > 0, x, 1), lambda: x.clamp_min(0, 1),
          lambda: x.mul(x, 1, out=None), lambda: x.div(x, 1, rounding_mode="floor"),
          lambda: x.clone(1, memory_format=torch.contiguous_format), lambda: x.nonzero(1, 0)):
    E(f)
""")


def test_hot_functions_keep_their_own_count():
    # the same functions called as torch.* count their first tensor, as PyTorch's functions do
    same_as_torch("""
x = torch.ones(2, 3)
for f in (lambda: torch.mul(x, x, 1), lambda: torch.clone(x, 1, 0), lambda: torch.matmul(x, x, 0),
          lambda: torch.div(x, 1, 0), lambda: torch.pow(x, 1, 0), lambda: torch.transpose(x, 0, 1, 2),
          lambda: torch.narrow(x, 0, 1, 1, 1), lambda: torch.masked_fill(x, x > 0, 1, 2),
          lambda: torch.clamp_min(x, 0, 1), lambda: torch.mul(x, 1, 2, out=None)):
    E(f)
print(x.mul(2).sum(), x.clone().sum(), x.div(2, rounding_mode="floor").sum(), x.pow(2).sum())
""")


def test_wrapped_methods_count_without_self():
    # PyTorch: x.flatten(1, 0, 2, 3) "takes from 0 to 2"; x.masked_fill_(m, 1, 2) lists the overloads; x.mm(y, 1)
    # takes 1 (the out_dtype overload is the function's only); minigrad's wrappers passed Python's count on
    same_as_torch("""
x, m = torch.ones(2, 2), torch.ones(2, 2, 2)
for f in (lambda: x.flatten(1, 0, 2, 3), lambda: x.masked_fill_(x > 0, 1, 2), lambda: x.masked_fill_(x > 0),
          lambda: x.mm(x, 1), lambda: m.bmm(m, 1), lambda: x.mm(), lambda: x.mm(mat2=1), lambda: m.bmm("a"),
          lambda: x.mm("a"), lambda: torch.mm(), lambda: torch.mm(x, x, 1), lambda: torch.bmm(m, m, 1)):
    E(f)
print(x.mm(x), m.bmm(m).shape)
""")


def test_deprecated_forms_take_no_keywords():
    # PyTorch: x.addcmul(2, a, b, value=1) has no overload (the deprecated form takes no keyword; the current one
    # two tensors); torch.add(x, 2, y, alpha=1) counts positionals against the current form; minigrad could not
    # tell value=1 from its default
    same_as_torch("""
x = torch.ones(2, 3)
for f in (lambda: torch.add(x, 2, x, alpha=1), lambda: torch.sub(x, 2, x, alpha=1),
          lambda: torch.addcmul(x, 2, x, x, value=1), lambda: torch.addcdiv(x, 2, x, x, value=1),
          lambda: x.addcmul(2, x, x, value=1), lambda: x.addcmul_(2, x, x, value=1),
          lambda: x.addcmul_(2, x, x, out=None), lambda: x.addcdiv(2, x, x, value=1),
          lambda: x.addcdiv_(2, x, x, value=1)):
    E(f)
print(torch.add(x, 2, alpha=3), torch.add(x, 2, x, out=None), x.addcmul(x, x, value=2))
""")


def test_random_parses_its_plausible_overload():
    # PyTorch: x.random_(1, 2, 3) fits one overload by count, whose own error stands; minigrad listed them all
    same_as_torch("""
x = torch.zeros(3)
for f in (lambda: x.random_(1, 2, 3), lambda: x.random_("a", "b", "c"), lambda: x.random_(1.5),
          lambda: x.random_(1, 2.5), lambda: x.random_(foo=1), lambda: x.random_(1, 2, generator=1),
          lambda: x.random_(1, generator=1), lambda: x.random_(generator=1), lambda: x.random_(None),
          lambda: x.random_(1, 2, foo=3), lambda: x.random_(1, 2, 3, generator=1)):
    E(f)
torch.manual_seed(0)
print(x.random_(1, None).dtype, x.random_(0, 5).shape)
""")


def test_polygamma_method_table():
    # PyTorch: the method is (int n), self the function's second argument; minigrad's lambda let Python bind it
    # ("Tensor.polygamma() takes 2 positional arguments") and checked nothing ("'<' not supported")
    same_as_torch("""
x = torch.ones(3)
for f in (lambda: x.polygamma(1, 0), lambda: x.polygamma(), lambda: x.polygamma("a"), lambda: x.polygamma(n=1.5),
          lambda: x.polygamma(True), lambda: x.polygamma(n=1, foo=2), lambda: x.polygamma_(1, 0),
          lambda: x.polygamma_("a"), lambda: x.polygamma_(), lambda: torch.polygamma(1, x, 0),
          lambda: torch.polygamma(x, 1), lambda: torch.polygamma("a", x), lambda: torch.polygamma(1)):
    E(f)
print(x.polygamma(1), x.polygamma(n=2), torch.polygamma(1, input=x))
""")


def test_split_with_sizes_function_position():
    # PyTorch: the function counts its input ("(position 2)"), a keyword has no position; minigrad said 1
    same_as_torch("""
x = torch.ones(4)
for f in (lambda: torch.split_with_sizes(x, 2), lambda: torch.split_with_sizes(x, 2, 0),
          lambda: torch.split_with_sizes(x, split_sizes=2), lambda: x.split_with_sizes(2),
          lambda: x.split_with_sizes(split_sizes=2), lambda: torch.split_with_sizes(x, [2, 2], 0.5)):
    E(f)
""")


def test_python_methods_and_no_argument_accessors():
    # PyTorch: Tensor.norm is Python code ("Tensor.norm() takes from 1 to 5"); x.crow_indices is METH_NOARGS
    # ("takes no arguments (1 given)"); minigrad named norm() and counted self
    same_as_torch("""
x = torch.ones(2, 2)
for f in (lambda: x.norm(1, 1, 1, 1, 1, 1, 1), lambda: x.norm(2, p=1), lambda: x.split(1, 1, 1, 1),
          lambda: x.unique(1, 1, 1, 1, 1, 1), lambda: x.is_shared(1), lambda: x.dim_order(1, 2),
          lambda: x.crow_indices(1), lambda: x.col_indices(foo=1), lambda: x.q_scale(1), lambda: x.int_repr(1),
          lambda: x.qscheme(1), lambda: x.dequantize(1)):
    E(f)
print(torch.norm(x), x.norm(), x.split(1)[0], x.dequantize().dtype)
""")


def test_median_of_empty_complex_refuses_autograd():
    # PyTorch (op fuzz seed 2544): no kernel runs for an empty input, autograd refuses the complex result; minigrad
    # returned NaN
    same_as_torch("""
for f in (lambda: torch.ones(0, dtype=torch.complex64, requires_grad=True).nanmedian(),
          lambda: torch.median(torch.ones(0, dtype=torch.complex64, requires_grad=True)),
          lambda: torch.ones(3, dtype=torch.complex64, requires_grad=True).median(),
          lambda: torch.ones((), dtype=torch.complex64, requires_grad=True).mode(0),
          lambda: torch.ones((), dtype=torch.complex64, requires_grad=True).kthvalue(1)):
    E(f)
print(torch.ones(0, dtype=torch.complex64).median())
""")


def test_matrix_norm_dim_is_a_list():
    # PyTorch (op fuzz seed 2543): matrix_norm's dim is an int[], one int fits no overload, and the error lists the
    # keywords as given (ord='fro' too); minigrad's parser took the int and its own error left out ord
    same_as_torch("""
A = torch.ones(2, 2, 3)
for f in (lambda: torch.linalg.matrix_norm(A, ord='fro', dim=-1), lambda: torch.linalg.matrix_norm(A, 'fro', -1),
          lambda: torch.linalg.matrix_norm(A, dim=-1), lambda: torch.linalg.matrix_norm(A, ord=2, dim=-1)):
    E(f)
print(torch.linalg.matrix_norm(A, dim=[0, 1]), torch.linalg.vector_norm(A, dim=-1))
""")


def test_pairwise_distance_eps_is_a_double():
    # PyTorch (op fuzz seed 2543): eps is a C++ double, so eps=False or 0 still makes an integer difference float
    same_as_torch("""
a = torch.tensor([[1, 2, 3], [4, 5, 6]])
for eps in (False, 0, True, 1e-6):
    r = torch.nn.functional.pairwise_distance(a, a.flip(0), eps=eps)
    print(r.dtype, r)
""")


def test_method_only_refusals_worded_as_the_parser():
    # PyTorch (op fuzz 3, seed 2541): x.new_full((2,)) is 'missing 1 required positional arguments: "fill_value"',
    # counts without self and says "from 0 to 1 positional arguments"; minigrad gave Python's words and counts
    same_as_torch("""
x = torch.ones(2, 2)
for f in (lambda: x.new_full((2,), 1, 2), lambda: x.new_full((2,)), lambda: x.new_full(),
          lambda: x.new_empty_strided((2,), (1,), 1), lambda: x.new_empty_strided(), lambda: x.is_set_to(x, 1),
          lambda: x.is_set_to(), lambda: x.is_pinned(1, 2), lambda: x.fill_diagonal_(1, False, 3),
          lambda: x.fill_diagonal_(), lambda: x.to_dense(1, 2), lambda: x.amax(1, True, 3)):
    E(f)
print(x.new_full((2,), 1), x.is_pinned(), x.to_dense().shape)
""")


def test_split_method_names_split_size():
    # PyTorch: Tensor.split(self, split_size, dim=0) is Python code whose parameter is split_size (torch.split's is
    # split_size_or_sections); minigrad's method was torch.split itself
    same_as_torch("""
x = torch.arange(6.).view(2, 3)
print(x.split(split_size=1), x.split(split_size=[1, 2], dim=1))
for f in (lambda: x.split(split_size_or_sections=1), lambda: x.split(), lambda: x.split(1, 1, 1),
          lambda: torch.split(x, split_size=1)):
    E(f)
print(torch.split(x, split_size_or_sections=1))
""")


def test_numpy_keyword_names_are_no_parameter_names_in_errors():
    # PyTorch: its extra_kwargs finds parameters by their own names only, so the first unexpected keyword of
    # x.mean(axis=None, dtype=None, out=None) (np.mean(x)) is 'axis'; minigrad's reparse named 'out'
    same_as_torch("""
import numpy as np
t = torch.tensor([1., 2., 3.])
for f in (lambda: t.mean(axis=None, dtype=None, out=None), lambda: np.mean(t), lambda: t.mean(axis=0, foo=1),
          lambda: t.mean(foo=1, axis=0), lambda: t.prod(axis=0, out=None), lambda: t.mean(dim=0, out=None),
          lambda: torch.mean(t, 0, foo=1, axis=0), lambda: t.sum(0, keepdims=True, keepdim=True),
          lambda: t.sum(0, axis=0), lambda: torch.sum(t, 0, axis=0), lambda: t.argmax(0, axis=0)):
    E(f)
print(t.mean(axis=0), t.sum(axis=0, keepdims=True))
""")


def test_out_refused_before_the_kernels_warnings():
    # PyTorch (op fuzz 2, seed 2547): ldexp with out= of an input requiring grad is refused before its kernel, which
    # would warn about resizing its intermediate; minigrad's trial call (for argument TypeErrors) warned
    same_as_torch("""
import warnings
warnings.simplefilter("always")
a = torch.tensor([1., 2., 3., 4.], requires_grad=True) * 1
b = torch.tensor([[1], [2], [3]], dtype=torch.uint8)
with warnings.catch_warnings(record=True) as w:
    E(lambda: torch.ldexp(a, b, out=torch.zeros(2, 3)))
print([str(x.message)[:40] for x in w])
with warnings.catch_warnings(record=True) as w:
    print(torch.ldexp(a.detach(), b).shape)
print([str(x.message)[:40] for x in w])
""")


def test_another_methods_error_keeps_its_position():
    # PyTorch (op fuzz 3, seed 2540): F.lp_pool1d's x.mul(kernel_size) refuses a tuple at position 1; minigrad's
    # function wrapper counted it as lp_pool1d's own method error and added one
    same_as_torch("""
E(lambda: torch.nn.functional.lp_pool1d(torch.ones(2, 2, 4), 2, (2,), stride=1))
print(torch.nn.functional.lp_pool1d(torch.ones(2, 2, 4), 2, 2))
""")
