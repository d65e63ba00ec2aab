"""Session 29's second round of argument-parsing leftovers: NumPy's names of a function's tensors (torch.sum(x=t),
torch.add(x1=a, x2=b)), ATen's torch.celu/selu/threshold (no inplace; threshold's out=), CPython's wording for the
C functions that take no arguments (torch.get_default_dtype(1)).

Each test runs one program under minigrad and under PyTorch and compares the printed output.
"""
from __future__ import annotations

from parity import same_as_torch


def test_numpy_names_of_input_and_other():
    # PyTorch's parser takes x, a, x1 for input and x2 for other (numpy_compatibility_arg_names); minigrad's
    # functions refused them as unexpected keywords
    same_as_torch("""
x = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
print(torch.sum(x=x, dim=0), torch.sum(a=x), torch.sum(x1=x, axis=1), torch.mean(x=x))
print(torch.add(x1=x, x2=x), torch.mul(x, x2=x), torch.exp(x=x).sum(), torch.add(x, x2=x, alpha=2))
for f in (lambda: torch.sum(x, x=x), lambda: torch.sum(input=x, x=x), lambda: torch.sum(x=x, foo=1),
          lambda: torch.sum(y=x), lambda: torch.sum(x=1), lambda: torch.sum(x=x, dim="a"), lambda: torch.exp(x=1),
          lambda: torch.mul(x, x3=x), lambda: torch.mul(x, other=x, x2=x)):
    E(f)
""")


def test_aten_celu_selu_threshold():
    # PyTorch: torch.celu/selu/threshold are ATen's (no inplace; threshold takes out=); minigrad's were F's
    same_as_torch("""
x = torch.tensor([-1., 0.5, 2.])
t = torch.zeros(3)
print(torch.celu(x, 2.), torch.celu(input=x, alpha=0.5), torch.selu(x), torch.threshold(x, 0.5, 2.))
print(torch.threshold(x, threshold=0.5, value=-1), torch.threshold(x, 0.5, 2., out=t), t)
print(torch.celu(x.requires_grad_(), 2.).grad_fn, torch.nn.functional.celu(x.detach(), 1., False))
for f in (lambda: torch.celu(x, 1., 2), lambda: torch.selu(x, 1), lambda: torch.threshold(x, 1, 2, 3),
          lambda: torch.celu(x, 1., False, 3), lambda: torch.threshold(x, 1, 2, False, 3),
          lambda: torch.celu(x, inplace=True), lambda: torch.selu(x, inplace=True),
          lambda: torch.threshold(x, 1, 2, inplace=True), lambda: torch.celu(x, "a"), lambda: torch.celu(x, out=t),
          lambda: torch.threshold(x, 0.5, 2., out=torch.zeros(3, dtype=torch.int64))):
    E(f)
""")


def test_c_functions_without_arguments():
    # PyTorch: "torch.get_default_dtype() takes no arguments (1 given)" (CPython's METH_NOARGS words); minigrad's
    # were Python's ("takes 0 positional arguments but 1 was given")
    same_as_torch("""
x = torch.ones(2)
print(torch.get_default_dtype(), torch.get_num_threads() > 0)
for f in (lambda: torch.get_default_dtype(1), lambda: torch.get_default_dtype(1, 2),
          lambda: torch.get_default_dtype(a=1), lambda: torch.get_default_dtype(1, a=1),
          lambda: torch.get_num_threads(1), lambda: x.detach(1), lambda: x.detach(a=1)):
    E(f)
""")


def test_deprecated_function_form_takes_out():
    # PyTorch: torch.add(x, 2, y, out=t) is the deprecated (input, alpha, other, *, out) form; its method form takes no
    # out=; a failed computation keeps its own error. minigrad refused out= in both, and reworded any failure of the
    # deprecated form as "add() takes 2 positional arguments but 3 were given"
    same_as_torch("""
x, t = torch.ones(2, 3), torch.zeros(2, 3)
print(torch.add(x, 2, x, out=t), t, torch.sub(x, 2, x, out=t), t)
for f in (lambda: torch.add(x, 2, x, alpha=2, out=t), lambda: x.add(2, x, out=t), lambda: x.sub(2, x, out=t),
          lambda: torch.add(x, 2, x, out=torch.zeros(2, 3, dtype=torch.int64)), lambda: torch.add(x, 2, x, x, out=t),
          lambda: torch.add(x, "a", x, out=t), lambda: torch.add(x, 2, torch.ones(5)),
          lambda: torch.sub(x, 2, torch.ones(3, dtype=torch.bool)), lambda: torch.addcmul(x, 2, x, torch.ones(5)),
          lambda: torch.addcmul(x, 2, x, x, out=torch.zeros(2, 3, dtype=torch.int64)),
          lambda: torch.add(x.requires_grad_(), 2, x, out=t)):
    E(f)
""")


def test_size_stride_is_contiguous_counts():
    # PyTorch: x.size(1, 2) "takes from 0 to 1 positional arguments but 2 were given" (self not counted);
    # is_contiguous's memory_format is keyword-only and not None. minigrad let Python count self
    # ("Tensor.size() takes from 1 to 2 ... but 3") and took a positional or None memory_format
    same_as_torch("""
x = torch.ones(2, 3)
print(x.size(), x.size(1), x.size(dim=-1), x.stride(), x.stride(0), x.is_contiguous(),
      x.is_contiguous(memory_format=torch.channels_last), x.t().is_contiguous())
for f in (lambda: x.size(1, 2), lambda: x.size(None, 2), lambda: x.size(1, 2, 3), lambda: x.size("a", 2),
          lambda: x.size("a"), lambda: x.stride(1, 2), lambda: x.stride(None, 2), lambda: x.is_contiguous(1, 2),
          lambda: x.is_contiguous(1), lambda: x.is_contiguous(torch.channels_last), lambda: x.is_contiguous(None),
          lambda: x.is_contiguous(memory_format=None), lambda: x.is_contiguous(memory_format=torch.strided),
          lambda: torch.Tensor.size(x, 1, 2), lambda: (lambda f: f(1, 2))(x.stride)):
    E(f)
""")


def test_binary_methods_without_their_operand():
    # PyTorch: x.mul() 'mul() missing 1 required positional arguments: "other"', x.add() / x.div() / x.pow() list
    # their overloads; minigrad's shared functions let Python word it ("missing 1 required positional argument:
    # 'other'"). The function forms keep their own errors
    same_as_torch("""
x = torch.ones(2, 3)
for f in (lambda: x.mul(), lambda: x.mul_(), lambda: x.add(), lambda: x.add_(), lambda: x.sub(), lambda: x.sub_(),
          lambda: x.div(), lambda: x.div_(), lambda: x.pow(), lambda: x.pow_(), lambda: x.add(alpha=2),
          lambda: x.sub_(alpha=2), lambda: x.div(rounding_mode="floor"), lambda: x.div_(rounding_mode="floor"),
          lambda: x.div(rounding_mode=None), lambda: x.mul(out=None), lambda: torch.mul(x), lambda: torch.add(x),
          lambda: torch.div(x), lambda: torch.sub(x, alpha=2), lambda: torch.div(x, rounding_mode="trunc"),
          lambda: torch.mul(x, out=x), lambda: torch.mul(input=x), lambda: torch.pow(x), lambda: torch.pow(input=x),
          lambda: x.multiply(), lambda: x.divide(), lambda: x.true_divide(), lambda: x.subtract(),
          lambda: torch.subtract(x), lambda: torch.true_divide(x), lambda: x.mul(None), lambda: x.pow("a")):
    E(f)
print(x.mul(other=2).sum(), x.add(other=x, alpha=2).sum(), torch.mul(x, other=3).sum(), x.pow(exponent=2).sum())
""")


def test_tensor_methods_without_their_operands():
    # PyTorch: x.view_as() 'view_as() missing 1 required positional arguments: "other"', x.transpose(0) the same for
    # "dim1", x.unfold(0) 'missing 2 required positional argument: "size", "step"'; minigrad's were Python's words
    same_as_torch("""
x = torch.ones(2, 3)
for f in (lambda: x.view_as(), lambda: x.reshape_as(), lambda: x.expand_as(), lambda: x.type_as(), lambda: x.view_as(1),
          lambda: x.expand_as(1), lambda: x.type_as(1), lambda: x.transpose(0), lambda: x.transpose(),
          lambda: x.transpose(dim1=1), lambda: x.transpose(dim0=1), lambda: x.transpose(0, "a"),
          lambda: torch.transpose(x, 0), lambda: x.swapaxes(0), lambda: x.select(0), lambda: x.select(),
          lambda: x.select(index=0), lambda: x.logsumexp(), lambda: x.unfold(0), lambda: x.unfold(),
          lambda: x.select(0, 0, 0), lambda: x.tril(0, 1), lambda: x.diagonal(foo=1), lambda: x.narrow(0),
          lambda: x.narrow(), lambda: x.narrow(0, 1), lambda: x.narrow(0, length=1), lambda: torch.narrow(x, 0),
          lambda: torch.tensor(1.).narrow(0), lambda: x.narrow(0, "a", 1)):
    E(f)
print(x.view_as(x).shape, x.expand_as(x).shape, x.type_as(x).dtype, x.transpose(dim0=0, dim1=1).shape,
      x.view_as(other=x).shape, x.select(0, 1).shape, x.unfold(1, 2, 1).shape, x.narrow(dim=1, start=0, length=2).shape)
""")


def test_expand_refuses_other_keywords():
    # PyTorch: x.expand(2, 3, out=None) "got an unexpected keyword argument 'out'" (its parser's extra_kwargs: the
    # first keyword in order it does not take, or "multiple values" for implicit after loose ints); minigrad's
    # expand took any keyword and ignored it
    same_as_torch("""
x = torch.ones(1, 3)
for f in (lambda: x.expand(2, 3, out=None), lambda: x.expand(2, 3, foo=1),
          lambda: x.expand(2, 3, implicit=False, foo=1), lambda: x.expand(size=(2, 3), foo=1),
          lambda: x.expand(2, 3, foo=1, bar=2), lambda: x.expand(foo=1),
          lambda: x.expand(foo=1, size=(2, 3), implicit=True), lambda: x.expand((2, 3), foo=1),
          lambda: x.expand((2, 3), implicit=False, foo=1), lambda: x.matmul(), lambda: torch.matmul(x),
          lambda: torch.matmul(x, out=x)):
    E(f)
print(x.expand(2, 3, implicit=True).shape, x.expand(size=(2, 3)).shape, x.expand((2, 3), implicit=False).shape)
""")
