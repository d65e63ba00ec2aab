"""Session 28's argument-parsing leftovers and op-level fuzz fixes (test_parity_op_fuzz*.py with new seeds): None for
std/var's unbiased and keepdim, loose ints for a method's one int list (x.squeeze(0, 1)), unsqueeze's and the
deprecated scalar-first forms' counts and keywords, lerp's out= cast check, nn.functional's Python checks that
stand (eps < 0, c // None), unfold/fold's arguments parsed before their sizes are checked, instance_norm's one
running statistic of another dtype, and a few kernels' check orders.

Each test runs one program under minigrad and under PyTorch and compares the printed output.
"""
from __future__ import annotations

from parity import same_as_torch


def test_std_var_refuse_none_for_unbiased_and_keepdim():
    # PyTorch: no overload of std/var takes None for unbiased or keepdim (its parser lists them); minigrad took None
    # as the default (None is its own default for unbiased)
    same_as_torch("""
x = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
E(lambda: x.std(1, keepdim=None))
E(lambda: x.std(None, None))
E(lambda: x.var(1, None))
E(lambda: x.var(keepdim=None))
E(lambda: x.var(unbiased=None))
E(lambda: torch.std(x, None, None))
E(lambda: torch.std_mean(x, 1, keepdim=None))
E(lambda: torch.var_mean(x, 1, unbiased=None))
E(lambda: torch.tensor([1, 2]).var(1, keepdim=None))
print(x.std(None), x.var(dim=None), x.var(None, True, True), x.std(1, correction=None), x.var(True), x.var(False))
print(torch.var_mean(x, None, False), torch.std_mean(x, 1, True, True))
""")


def test_loose_ints_for_a_methods_int_list():
    # PyTorch: a method whose overload takes one int list positionally takes loose ints for it (x.squeeze(0, 1));
    # its function form does not. minigrad refused the method call
    same_as_torch("""
x = torch.ones(1, 1, 4)
print(x.squeeze(0, 1).shape, x.clone().squeeze_(0, 1).shape, x.squeeze(torch.tensor(0), 1).shape)
E(lambda: x.squeeze(0, 1.5))
E(lambda: x.squeeze(0, None))
E(lambda: x.squeeze(0, 0))
E(lambda: x.squeeze(0, 5))
E(lambda: x.squeeze(0, 1, dim=2))
E(lambda: x.squeeze(None, 1))
E(lambda: torch.squeeze(x, 0, 1))
y = torch.tensor([[0., 2., 3.], [4., 0., 6.]])
print(y.count_nonzero(0, 1), y.count_nonzero(1, 0))
E(lambda: y.count_nonzero(1, 1))
E(lambda: y.count_nonzero(1, 1.5))
E(lambda: torch.count_nonzero(y, 0, 1))
z = torch.arange(64.).reshape(4, 4, 4)
print([t.shape for t in z.hsplit(1, 2)], [t.shape for t in z.vsplit(1, 2)], [t.shape for t in z.dsplit(1, 2)])
E(lambda: z.hsplit(1, 2.5))
""")


def test_unsqueeze_counts_without_self():
    # PyTorch's method counts its arguments without self, and words a missing dim as its parser does; minigrad gave
    # Python's own TypeErrors
    same_as_torch("""
x = torch.ones(2, 3)
E(lambda: x.unsqueeze(0, 1))
E(lambda: x.unsqueeze(0, 1, 2))
E(lambda: x.unsqueeze())
E(lambda: torch.unsqueeze(x, 0, 1))
E(lambda: torch.unsqueeze(x))
E(lambda: x.unsqueeze(1.5))
print(x.unsqueeze(dim=0).shape, torch.unsqueeze(x, 1).shape, x.unsqueeze(torch.tensor(1)).shape)
""")


def test_scalar_first_forms_take_no_keywords():
    # PyTorch's deprecated x.add(alpha, other) / x.addcmul(value, t1, t2) forms take no keyword, and more positional
    # arguments than theirs fit no form: the parser's one listed overload, "got unrecognized keyword arguments".
    # minigrad ran them (alpha given twice) or gave Python's count
    same_as_torch("""
import warnings
warnings.simplefilter("ignore")
x = torch.ones(2, 3)
E(lambda: x.add(2, x, alpha=3))
E(lambda: x.add(x, x, alpha=2))
E(lambda: x.sub(2, x, alpha=3))
E(lambda: x.clone().add_(2, x, alpha=3))
E(lambda: x.clone().sub_(2, x, alpha=3))
E(lambda: x.addcmul(0.5, x, x, value=2))
E(lambda: x.addcdiv(0.5, x, x, value=2))
E(lambda: x.clone().addcmul_(0.5, x, x, value=2))
E(lambda: x.clone().addcdiv_(0.5, x, x, value=2))
E(lambda: x.addcmul(x, x, value=2, foo=3))
E(lambda: torch.add(x, 2, x, alpha=3))
E(lambda: torch.sub(x, 2, x, alpha=3))
E(lambda: torch.addcmul(x, 0.5, x, x, value=2))
E(lambda: torch.addcdiv(x, 0.5, x, x, value=2))
E(lambda: x.add(1, 2, 3))
E(lambda: x.sub(1, 2, 3))
E(lambda: x.clone().add_(1, 2, 3))
E(lambda: x.add(1, 2, 3, 4))
E(lambda: torch.add(x, 1, 2, 3))
E(lambda: x.add(x, x))
print(x.add(2, x), x.addcmul(0.5, x, x), torch.add(x, 2, x))
""")


def test_lerp_out_cast_checked_before_the_weight():
    # PyTorch: TensorIterator checks that input's dtype casts into out= before the kernel reads a number weight;
    # minigrad converted the weight first ("value cannot be converted")
    same_as_torch("""
u8 = lambda: torch.empty(2, dtype=torch.uint8)
E(lambda: torch.lerp(torch.ones(2), torch.ones(2), 1+2j, out=u8()))
E(lambda: torch.lerp(torch.ones(2), torch.ones(2), weight=1+2j, out=u8()))
E(lambda: torch.lerp(torch.ones(2), torch.ones(3), 1+2j, out=u8()))
E(lambda: torch.lerp(torch.ones(2), torch.ones(2, dtype=torch.float64), 1+2j, out=u8()))
E(lambda: torch.lerp(torch.ones(2, dtype=torch.int64), torch.ones(2, dtype=torch.int64), 0.5, out=u8()))
E(lambda: torch.lerp(torch.ones(2), torch.ones(2), 1+2j, out=torch.empty(2, dtype=torch.float64)))
E(lambda: torch.lerp(torch.ones(2), torch.ones(2), 2**70, out=u8()))
c = torch.ones(2, dtype=torch.complex64)
E(lambda: torch.lerp(c, c, 0.5, out=torch.empty(2)))
print(torch.lerp(torch.ones(2), torch.zeros(2), 0.25, out=torch.empty(2, dtype=torch.float64)))
""")


def test_functional_python_checks_stand():
    # PyTorch's F.batch_norm compares eps in Python (eps=None: '<' not supported; eps=-1 with momentum=None: its
    # ValueError) and F.group_norm divides by num_groups before torch.group_norm's parser reads eps; minigrad
    # reported the C function's parser error instead (or Python's error from deeper in its code)
    same_as_torch("""
F = torch.nn.functional
x = torch.ones(2, 3, 4)
E(lambda: F.batch_norm(x, None, None, eps=None))
E(lambda: F.batch_norm(x, None, None, training=True, eps=None))
E(lambda: F.batch_norm(x, torch.zeros(3), torch.ones(3), momentum=None, eps=-1.0))
E(lambda: F.batch_norm(x, None, None, momentum=None))
E(lambda: F.group_norm(torch.ones(2, 4, 3), 2, eps=None))
E(lambda: F.group_norm(torch.ones(2, 4, 3), 2, eps="a"))
E(lambda: F.group_norm(torch.ones(2, 4, 3), None))
E(lambda: F.group_norm(torch.ones(2, 4, 3), 2.0))
E(lambda: F.group_norm(torch.ones(1, 4, 1), 4, eps=None))
E(lambda: F.instance_norm(torch.ones(2, 3, 4), eps=None))
print(F.group_norm(torch.arange(24.).reshape(2, 4, 3), 2, eps=2))
""")


def test_unfold_fold_parse_every_argument_before_sizes():
    # PyTorch's parser of im2col/col2im reads every argument (a float dilation refused) before the C++ code checks
    # that each has two values; minigrad checked kernel_size's length before parsing dilation
    same_as_torch("""
F = torch.nn.functional
E(lambda: F.unfold(torch.ones(1, 1, 4, 4), (2, 2, 2), 1.))
E(lambda: F.unfold(torch.ones(1, 1, 4, 4), (2, 2, 2), 1))
E(lambda: F.unfold(torch.ones(1, 1, 4, 4), 2, (1., 1.)))
E(lambda: F.unfold(torch.ones(1, 1, 4, 4), 2, 1, 0, 1.))
E(lambda: F.fold(torch.ones(1, 4, 4), (3, 3), (2, 2, 2), 1.))
E(lambda: F.fold(torch.ones(1, 4, 4), (3, 3, 3), 2, 1.))
E(lambda: F.fold(torch.ones(1, 4, 4), (3, 3, 3), 2, 1))
print(F.unfold(torch.arange(16.).reshape(1, 1, 4, 4), 2, stride=2))
""")


def test_instance_norm_one_running_statistic_of_another_dtype():
    # PyTorch's instance_norm casts both running statistics to the weight's (or input's) dtype first: with only
    # running_mean given, of another dtype, the missing running_var fails there (before any size check); of the
    # same dtype, batch_norm's ValueError. minigrad gave the ValueError (or a size error) every time
    same_as_torch("""
F = torch.nn.functional
h = torch.ones(2, 3, 4, dtype=torch.float16)
E(lambda: F.instance_norm(h, torch.zeros(3), None))
E(lambda: F.instance_norm(h, torch.zeros(2), None))
E(lambda: F.instance_norm(h, torch.zeros(3), None, bias=torch.ones(2)))
E(lambda: F.instance_norm(h, torch.zeros(3), None, weight=torch.ones(3)))
E(lambda: F.instance_norm(h, torch.zeros(3), None, weight=torch.ones(2, dtype=torch.float16)))
E(lambda: F.instance_norm(h, None, torch.zeros(3)))
E(lambda: F.instance_norm(h, torch.zeros(3, dtype=torch.float16), None))
E(lambda: F.instance_norm(torch.ones(2, 3, 4, dtype=torch.int64), torch.zeros(3), None))
E(lambda: F.instance_norm(torch.ones(0, 3, 4), torch.zeros(3, dtype=torch.float64), None))
E(lambda: F.instance_norm(torch.ones(2, 3, 4), torch.zeros(3), None, use_input_stats=False))
print(F.instance_norm(torch.arange(24.).reshape(2, 3, 4), torch.zeros(3), torch.ones(3)))
""")


def test_kernel_check_orders_from_fuzz():
    # PyTorch's order of checks, where minigrad had another: fill_diagonal_'s equal sides before the value's
    # conversion; masked_scatter_'s expand of the mask from the last dim; a pool's kernel size of 0 (C++'s division
    # rounds toward zero in the padding check); native_group_norm's sizes before reading a parameter of another
    # dtype; conv_transpose3d's zero dilation (oneDNN's 3-d error); an empty dim of vector_norm before repeated dims
    same_as_torch("""
F = torch.nn.functional
E(lambda: torch.zeros(2, 1, 3, dtype=torch.uint8).fill_diagonal_(-1.5j))
E(lambda: torch.zeros(2, 1, 3, dtype=torch.int8).fill_diagonal_(1+2j, wrap=True))
E(lambda: torch.zeros(3, 1, dtype=torch.int32).masked_scatter_(torch.zeros(0, 3, dtype=torch.bool),
                                                              torch.ones(1, dtype=torch.int32)))
E(lambda: F.max_pool3d(torch.ones(2, 2, 2, 2), 0, stride=(1, 1, 1), dilation=2))
E(lambda: F.max_pool2d(torch.ones(2, 2, 2), 0, stride=1, dilation=3))
E(lambda: torch.native_group_norm(torch.ones(1, 2, 1, dtype=torch.float64), torch.ones(2, dtype=torch.float64),
                                  torch.ones(2, dtype=torch.float16), 2, 2, 1, 1, 1e-05))
E(lambda: torch.native_group_norm(torch.ones(2, 2, 1, dtype=torch.float64), torch.ones(2, dtype=torch.float64),
                                  torch.ones(2, dtype=torch.float16), 2, 2, 1, 1, 1e-05))
E(lambda: F.conv_transpose3d(torch.ones(2, 4, 3, 3, 3), torch.ones(4, 4, 3, 3, 3), dilation=0))
E(lambda: F.conv_transpose2d(torch.ones(2, 4, 3, 3), torch.ones(4, 4, 3, 3), dilation=0))
inf = float('inf')
E(lambda: torch.linalg.vector_norm(torch.ones(0, dtype=torch.bfloat16), ord=inf, dim=[-1, 0]))
E(lambda: torch.linalg.vector_norm(torch.ones(0, 3), ord=inf, dim=[1, 1]))
E(lambda: torch.linalg.vector_norm(torch.ones(0, 3), ord=-1, dim=[1, 0]))
E(lambda: torch.linalg.vector_norm(torch.ones(0, 3), ord=-1, dim=torch.tensor(0)))
print(torch.linalg.vector_norm(torch.ones(0, 3), ord=inf, dim=1))
""")


def test_select_and_slice_copy_refuse_complex_autograd():
    # PyTorch: select_copy and slice_copy (of the *_copy functions, only they) refuse to differentiate a complex
    # result, after the view's own checks; minigrad recorded their nodes
    same_as_torch("""
z = torch.ones(2, 3, dtype=torch.complex64, requires_grad=True)
E(lambda: torch.select_copy(z, -2, -3))
E(lambda: torch.select_copy(z, 0, 1))
E(lambda: torch.slice_copy(z, 0, 0, 1))
E(lambda: torch.slice_copy(z, -2, -1, None, 2))
print(torch.narrow_copy(z, 0, 0, 1).grad_fn, torch.diagonal_copy(z).grad_fn, torch.select_copy(z.detach(), 0, 1))
with torch.no_grad():
    print(torch.slice_copy(z, 0, 0, 1))
""")


def test_native_group_norm_mixed_type_statistics_in_float32():
    # PyTorch's mixed-type kernel (a float16/bfloat16 input with a float32 weight or bias) keeps mean and rstd in
    # float32; minigrad rounded them to the input's dtype
    same_as_torch("""
x = (torch.arange(24.).reshape(2, 4, 3) / 7).half().requires_grad_()
w = torch.linspace(0.5, 2, 4).requires_grad_()
b = torch.linspace(-1, 1, 4).requires_grad_()
for args in [(x, w, b), (x, w, None), (x, w.half().detach().requires_grad_(), None)]:
    y, m, r = torch.native_group_norm(*args, 2, 4, 3, 2, 1e-5)
    print(y.dtype, m.dtype, r.dtype, m, r)
    (y.float().sum() + m.sum() + r.sum()).backward()
    print(x.grad, w.grad, b.grad)
    x.grad = w.grad = b.grad = None
y, m, r = torch.native_group_norm(x.detach().bfloat16(), None, b.detach(), 2, 4, 3, 2, 1e-5)
print(y.dtype, m.dtype, r.dtype)
""")


def test_xlog1py_gradient_of_an_unsigned_other():
    # PyTorch's formula holds the gradient at 0 where self == 0 and other <= -1. (a float): an uint8 other is never
    # there; minigrad compared it with the integer -1, which an uint8 tensor reads as 255
    same_as_torch("""
x = torch.tensor([[1.5, 0., -2.], [0., 3., 0.]], requires_grad=True)
for y in (torch.tensor([2, 0, 7], dtype=torch.uint8), torch.tensor([2., -1., -3.]), torch.tensor([2, -1, -3])):
    x.grad = None
    torch.special.xlog1py(x, y).backward(torch.ones(2, 3))
    print(x.grad)
""")


def test_product_out_checks_in_pytorchs_order():
    # PyTorch's addbmm_out expands input and checks the batches' sizes before any dtype, and resizes out= without a
    # warning (resize_as_); addmm's meta function checks its factors before out='s dtype; mv's out= is addmv_out
    # into out= with a new "input" of out='s dtype. minigrad checked dtypes first (and warned)
    same_as_torch("""
import warnings
warnings.simplefilter("always")
i64 = lambda *s: torch.ones(*s, dtype=torch.int64)
E(lambda: torch.addbmm(i64(3, 2), i64(2, 2, 3), i64(2, 3, 2), alpha=0, out=torch.empty(4, dtype=torch.bool)))
E(lambda: torch.addbmm(torch.ones((), dtype=torch.bfloat16), torch.ones(2, 2, 2, dtype=torch.float64), i64(2, 3, 2),
                       beta=False, out=torch.empty(2, 1, dtype=torch.complex64)))
E(lambda: torch.addbmm(i64(2, 2), i64(2, 2, 3), i64(2, 3, 2), out=torch.empty(2, 2)))
with warnings.catch_warnings(record=True) as w:
    print(torch.addbmm(torch.ones((), dtype=torch.int8), torch.ones(2, 2, 3, dtype=torch.int8),
                       torch.ones(2, 3, 2, dtype=torch.int8), out=torch.ones(1, 3, dtype=torch.int8)), len(w))
b = lambda *s: torch.ones(*s, dtype=torch.bool)
E(lambda: torch.addmm(b(2), b(2, 3), b(2), out=torch.empty(3, 1, dtype=torch.int64)))
E(lambda: torch.addmm(b(2), b(2, 3), b(2, 2), out=torch.empty(3, 1, dtype=torch.int64)))
E(lambda: torch.addmm(b(2), b(2, 3), b(3, 2), out=torch.empty(3, 1, dtype=torch.int64)))
E(lambda: torch.mv(b(4, 3), b(3), out=torch.empty((), dtype=torch.int32)))
E(lambda: torch.mv(b(4, 3), b(3), out=torch.empty(4, dtype=torch.bool)))
E(lambda: torch.mv(torch.ones(4, 3), torch.ones(3), out=torch.empty(4, dtype=torch.float64)))
E(lambda: torch.mv(torch.ones(4, 3), torch.ones(2), out=torch.empty(4, dtype=torch.int32)))
E(lambda: torch.mv(i64(4, 3), i64(3), out=torch.empty(4)))
E(lambda: torch.mv(torch.ones(2, 4, 3), torch.ones(3), out=torch.empty(4)))
E(lambda: torch.mv(torch.tensor(1.), torch.ones(3), out=torch.empty(4)))
warnings.simplefilter("ignore")
print(torch.mv(torch.ones(4, 3), torch.ones(3), out=torch.empty(2, 2)))
""")


def test_more_check_orders_and_conversions_from_fuzz():
    # PyTorch reads hardtanh's bounds of an uint8 input as int64 (-0.5 is 0, no error); cumulative_trapezoid's dx
    # path refuses bool before reading any dim; new_zeros is empty(...).zero_() (empty's message for a negative
    # size); index_add's alpha is no 1 when it is True (the loop's message), and an unsigned input takes a negative
    # alpha that fits, wrapped (c10's overflow rule). minigrad raised, or raised another error
    same_as_torch("""
F = torch.nn.functional
u8 = torch.tensor([[0, 1, 200]], dtype=torch.uint8)
print(F.hardtanh(u8, -0.5, 1.0), F.hardtanh(u8, -0.99, 0.5), F.hardtanh(u8, 0.5, 3.7))
E(lambda: F.hardtanh(u8, -1, 1.0))
E(lambda: F.hardtanh(u8, -1.5, 3.7))
E(lambda: torch.cumulative_trapezoid(torch.tensor(True)))
E(lambda: torch.cumulative_trapezoid(torch.tensor([True]), dim=3))
E(lambda: torch.cumulative_trapezoid(torch.tensor(1), dim=3))
E(lambda: torch.ones(2, 3).new_zeros((-1,)))
E(lambda: torch.ones(2, 3).new_zeros(2, -1))
E(lambda: torch.ones(2, 3).new_ones((2, -1)))
f64 = lambda *s: torch.ones(*s, dtype=torch.float64)
E(lambda: f64(3, 1).index_add_(1, torch.tensor([0, 1]), f64(3, 2), alpha=True))
E(lambda: f64(3, 1).index_add_(1, torch.tensor([0, 1]), f64(3, 2), alpha=1))
u = lambda *s: torch.ones(*s, dtype=torch.uint8)
i = torch.tensor([0, 0])
print(u(3, 1).index_add_(1, i, u(3, 2), alpha=-2), u(3).index_add(0, i, u(2), alpha=-2))
print(u(3, 1).index_add(1, i, u(3, 2), alpha=-255), u(3, 2).index_add(0, i, u(2, 2), alpha=-3))
E(lambda: u(3, 1).index_add(1, torch.tensor([0, 0]), u(3, 2), alpha=300))
E(lambda: u(3, 1).index_add(1, torch.tensor([0, 0]), u(3, 2), alpha=-256))
E(lambda: u(3).index_add(0, torch.tensor([0, 0]), u(2), alpha=-2.5))
""")


def test_unfold_of_a_0_dim_tensor_has_size_elements():
    # PyTorch: a 0-dim tensor unfolds into one window of `size` elements (0 or 1); minigrad always gave one element
    same_as_torch("""
for size in (0, 1):
    x = torch.tensor(5., requires_grad=True)
    y = x.unfold(-1, size, 2)
    print(y, y.shape, y.stride(), y._base is x)
    y.sum().backward()
    print(x.grad)
    x = torch.tensor(5., requires_grad=True)
    g, = torch.autograd.grad((x.unfold(0, size, 1) * 2).sum(), x, create_graph=True)
    print(g, torch.unfold_copy(torch.tensor(3), 0, size, 1))
""")


def test_abs_of_complex_into_out():
    # PyTorch's abs_out of a complex input: into a real out= the complex kernel's real part, copied (cast, resized);
    # into a complex out=, the iterator wants the input's dtype. minigrad wanted out= of the real result's dtype
    same_as_torch("""
import warnings
warnings.simplefilter("always")
z = torch.tensor([[3+4j, -1j, 2]], dtype=torch.complex64)
for dt, shape in ((torch.float64, (1, 3)), (torch.float16, (1, 3)), (torch.float64, (2, 1)), (torch.complex64, (1, 3)),
                  (torch.complex128, (1, 3)), (torch.int64, (1, 3)), (torch.float32, (1, 3))):
    o = torch.zeros(shape, dtype=dt)
    with warnings.catch_warnings(record=True) as w:
        E(lambda: torch.abs(z, out=o))
        E(lambda: torch.absolute(z.to(torch.complex128), out=o))
    print(o, len(w))
""")


def test_matmul_out_of_a_batched_product_of_two_dtypes():
    # PyTorch: a batched matmul(out=) of two dtypes checks sizes, then out='s dtype (bmm's: other's; a folded mm's:
    # input's; a folded mv: addmv's check of out, input, other), resizes out=, then its kernel refuses bool, then
    # the mismatch. minigrad ran the kernel first ("expected scalar type ...")
    same_as_torch("""
import warnings
warnings.simplefilter("always")
for a, b, o in [(torch.bool, torch.float32, torch.float32), (torch.float32, torch.bool, torch.bool),
                (torch.int32, torch.bfloat16, torch.float64), (torch.int32, torch.bfloat16, torch.bfloat16),
                (torch.float64, torch.float32, torch.float32), (torch.float64, torch.float32, torch.float64)]:
    for sa, sb in [((1, 3, 2), (2, 2, 3)), ((3, 2), (2, 2, 3)), ((2,), (2, 2, 3)), ((1, 3, 2), (2, 4, 3))]:
        out = torch.empty(2, 3, 3, dtype=o)
        with warnings.catch_warnings(record=True) as w:
            E(lambda: torch.matmul(torch.ones(*sa, dtype=a), torch.ones(*sb, dtype=b), out=out))
        print(out.shape, len(w))
    E(lambda: torch.matmul(torch.ones(2, 3, 2, dtype=a), torch.ones(2, dtype=b), out=torch.empty(2, 3, dtype=o)))
""")


def test_lerp_backward_of_a_bool_weight():
    # PyTorch's formula for self, grad * (1 - weight), makes the 1 as empty_like(weight).fill_(1): two bool tensors
    # for a bool weight (sub's other message); minigrad's 1 was an int64 tensor
    same_as_torch("""
x = torch.ones(2, 1, dtype=torch.bfloat16, requires_grad=True)
y = torch.lerp(x, torch.zeros(1, 3, dtype=torch.bfloat16), torch.tensor(True))
print(y)
E(lambda: y.sum().backward())
x = torch.ones(3, requires_grad=True)
torch.lerp(x, torch.zeros(3), torch.tensor(0.25)).sum().backward()
print(x.grad)
""")


def test_mm_bmm_out_dtype_before_the_operands_dtypes():
    # PyTorch's mm / bmm meta functions check the ranks and sizes, then out='s dtype (mm's: mat1's; bmm's: batch2's),
    # before their kernels compare the operands' dtypes (or refuse bool); minigrad's kernels ran first
    same_as_torch("""
import warnings
warnings.simplefilter("ignore")   # (out= resized before the kernel's error, in both)
i64, bf = torch.int64, torch.bfloat16
o = lambda dt: torch.empty((), dtype=dt)
E(lambda: torch.mm(torch.ones(2, 3, dtype=i64), torch.ones(3, 2, dtype=bf), out=o(torch.float64)))
E(lambda: torch.mm(torch.ones(2, 3, dtype=i64), torch.ones(3, 2, dtype=bf), out=o(i64)))
E(lambda: torch.mm(torch.ones(2, 3, dtype=i64), torch.ones(4, 2, dtype=bf), out=o(torch.float64)))
E(lambda: torch.mm(torch.ones(2, 3, dtype=i64), torch.ones(3, dtype=bf), out=o(torch.float64)))
E(lambda: torch.mm(torch.ones(2, 3, dtype=torch.bool), torch.ones(3, 2, dtype=torch.bool), out=o(torch.float64)))
E(lambda: torch.mm(torch.ones(2, 3, dtype=torch.bool), torch.ones(3, 2), out=o(torch.float32)))
E(lambda: torch.bmm(torch.ones(1, 2, 3, dtype=i64), torch.ones(1, 3, 2, dtype=bf), out=o(torch.float64)))
E(lambda: torch.bmm(torch.ones(1, 2, 3, dtype=i64), torch.ones(1, 3, 2, dtype=bf), out=o(bf)))
E(lambda: torch.bmm(torch.ones(1, 2, 3), torch.ones(2, 3, 2), out=o(torch.float64)))
E(lambda: torch.bmm(torch.ones(1, 2, 3), torch.ones(1, 4, 2), out=o(torch.float64)))
E(lambda: torch.bmm(torch.ones(1, 2, 3), torch.ones(1, 3, 2), out=o(torch.float64)))
print(torch.mm(torch.ones(2, 3), torch.ones(3, 2), out=torch.empty(2, 2)))
""")


def test_new_zeros_takes_size_by_keyword():
    # PyTorch: new_zeros / new_ones / new_empty take size= by keyword; minigrad said "missing ... size"
    same_as_torch("""
x = torch.ones(2, 3)
print(x.new_zeros(size=(2,)), x.new_ones(size=[1, 2], dtype=torch.int64), x.new_empty(size=()).shape)
print(x.new_zeros(()), x.new_zeros([]), x.new_zeros(torch.Size([2])))
E(lambda: x.new_zeros(size=(-2,)))
E(lambda: x.new_zeros())
""")


def test_bool_bmm_and_0_dim_kthvalue():
    # PyTorch's bmm kernel dispatches on batch1's dtype before comparing the operands' (bool is refused first);
    # kthvalue of a 0-dim tensor is a copy (no kernel: bool and complex taken; complex refuses autograd).
    # minigrad compared the dtypes first, and refused bool/complex at 0-dim
    same_as_torch("""
E(lambda: torch.matmul(torch.ones(2, 2, 3, dtype=torch.bool), torch.ones(2, 3, 2, dtype=torch.complex64)))
E(lambda: torch.matmul(torch.ones(2, 3, dtype=torch.bool), torch.ones(2, 3, 2)))
E(lambda: torch.matmul(torch.ones(3, dtype=torch.bool), torch.ones(2, 3, 2)))
E(lambda: torch.matmul(torch.ones(2, 2, 3), torch.ones(2, 3, 2, dtype=torch.bool)))
E(lambda: torch.bmm(torch.ones(2, 2, 3, dtype=torch.bool), torch.ones(2, 3, 2)))
E(lambda: torch.bmm(torch.ones(2, 2, 3, dtype=torch.bool), torch.ones(2, 3, 2, dtype=torch.bool)))
for x in (torch.tensor(True), torch.tensor(3+1j), torch.tensor([True]), torch.tensor(2., requires_grad=True),
          torch.tensor(3+1j, requires_grad=True), torch.tensor([3+1j], requires_grad=True)):
    E(lambda: print(x.kthvalue(1), x.kthvalue(1, 0, keepdim=True).values.grad_fn))
E(lambda: torch.tensor(True).kthvalue(2))
""")


def test_conv_zero_dilation_by_kernel():
    # PyTorch's oneDNN kernel (float32 convolutions it picks, 3-d ones with a kernel wider than 3 too, and every
    # bfloat16 one) says "non-positive dilation"; its slow kernels name the dilation. minigrad's choice of kernel
    # read a 3-d weight's sizes wrongly and never took oneDNN for bfloat16
    same_as_torch("""
F = torch.nn.functional
for d in [torch.float32, torch.float64, torch.bfloat16, torch.float16]:
    for k in [1, 2, 3]:
        for n, ks, dil in [(1, 5, 0), (1, 3, 0), (2, 3, 0), (1, 5, (0,) + (1,) * (k - 1))]:
            f = getattr(F, "conv%dd" % k)
            E(lambda: f(torch.ones((n, 3) + (3,) * k, dtype=d), torch.ones((4, 3) + (ks,) * k, dtype=d), None,
                        padding=2, dilation=dil))
""")


def test_fill_diagonal_leaf_bce_pos_weight_and_embedding_renorm_orders():
    # PyTorch: fill_diagonal_ of a leaf requiring grad is refused (on its diagonal view) before the value's
    # conversion; binary_cross_entropy_with_logits broadcasts pos_weight with target before it writes (1 - target)
    # in target's dtype; embedding's max_norm renorm takes the norm of an integer row (norm()'s error).
    # minigrad checked the value, the target's dtype, and linalg.vector_norm's dtype first
    same_as_torch("""
F = torch.nn.functional
E(lambda: torch.ones(3, 1, requires_grad=True).fill_diagonal_(1+2j, wrap=True))
E(lambda: torch.ones(3, 1).fill_diagonal_(1+2j, wrap=True))
E(lambda: torch.ones(0, 1).fill_diagonal_(1+2j))
print(torch.ones(2, 2).fill_diagonal_(3), torch.ones(2, 2, dtype=torch.complex64).fill_diagonal_(1+2j))
i64 = torch.ones(2, 3, dtype=torch.int64)
E(lambda: F.binary_cross_entropy_with_logits(torch.ones(2, 3), i64, pos_weight=torch.ones(2)))
E(lambda: F.binary_cross_entropy_with_logits(torch.ones(2, 3), i64, pos_weight=torch.ones(3)))
E(lambda: F.binary_cross_entropy_with_logits(torch.ones(2, 3), i64, weight=torch.ones(2)))
E(lambda: F.binary_cross_entropy_with_logits(torch.ones(2, 3), i64.bool(), pos_weight=torch.ones(2)))
for w in (torch.ones(4, 3, dtype=torch.int64), torch.ones(4, 3, dtype=torch.bool), torch.ones(4, 3) * 3):
    for idx in (torch.tensor([0, 1]), torch.tensor([], dtype=torch.int64), torch.tensor([5])):
        E(lambda: F.embedding(idx, w.clone(), max_norm=1.0))
""")


def test_addcmul_addcdiv_cast_into_out_before_value_and_permute_dims_keyword():
    # PyTorch's iterator refuses a result type that out= (or self, in place) cannot hold before the kernel reads
    # value (a complex value into a float computation); x.permute(dims=...) takes its one list by keyword.
    # minigrad converted value first, and refused the keyword
    same_as_torch("""
i8, bf = torch.int8, torch.bfloat16
E(lambda: torch.ones(3, dtype=i8).addcdiv_(torch.ones(3, dtype=bf), torch.tensor(2., dtype=bf), value=-1.5j))
E(lambda: torch.ones(3, dtype=i8).addcmul_(torch.ones(3, dtype=bf), torch.tensor(2., dtype=bf), value=-1.5j))
E(lambda: torch.ones(3, dtype=i8).addcmul_(torch.ones(2, dtype=bf), torch.tensor(2., dtype=bf), value=-1.5j))
E(lambda: torch.ones(1, dtype=i8).addcmul_(torch.ones(3, dtype=bf), torch.tensor(2., dtype=bf), value=-1.5j))
E(lambda: torch.ones(3).addcmul_(torch.ones(3, dtype=torch.float64), torch.tensor(2.), value=-1.5j))
o = lambda dt: torch.empty(3, dtype=dt)
E(lambda: torch.addcdiv(torch.ones(3, dtype=i8), torch.ones(3, dtype=bf), torch.tensor(2., dtype=bf), value=-1.5j,
                        out=o(i8)))
E(lambda: torch.addcmul(torch.ones(3, dtype=i8), torch.ones(3, dtype=bf), torch.tensor(2., dtype=bf), value=-1.5j,
                        out=o(i8)))
E(lambda: torch.addcdiv(torch.ones(3, dtype=i8), torch.ones(3, dtype=i8), torch.tensor(2, dtype=i8), out=o(torch.bool)))
E(lambda: torch.addcmul(torch.ones(3, dtype=i8), torch.ones(2, dtype=bf), torch.tensor(2., dtype=bf), out=o(i8)))
E(lambda: torch.addcmul(torch.ones(3), torch.ones(3), torch.ones(3), value=2, out=o(torch.int64)))
print(torch.addcmul(torch.ones(3), torch.ones(3), torch.ones(3), value=2, out=o(torch.float64)))
x = torch.ones(2, 3)
print(x.permute(dims=(1, 0)).shape, x.permute(dims=[1, 0]).shape, torch.permute(x, dims=(1, 0)).shape)
E(lambda: torch.tensor(True).permute(dims=(1, 0)))
E(lambda: x.permute(1, dims=0))
E(lambda: x.permute())
""")


def test_acosh_complex_gradient_on_the_real_axis():
    # PyTorch's formula (self + 1).rsqrt() * (self - 1).rsqrt() computes self - 1 with sub's kernel, whose zero
    # imaginary part is +0 (for -0 in self too): the branch of the rsqrt. minigrad's internal subtraction gave -0
    same_as_torch("""
vals = [0.5+0j, complex(0.5, -0.0), complex(-0.5, -0.0), complex(-2, -0.0), complex(-0.0, -0.0), 0.3+0.2j]
z = torch.tensor(vals, dtype=torch.complex64, requires_grad=True)
z.acosh().backward(torch.ones(len(vals), dtype=torch.complex64))
print(z.grad)
g, = torch.autograd.grad(z.acosh(), z, torch.ones(len(vals), dtype=torch.complex64), create_graph=True)
print(g, torch.autograd.grad(g.abs().sum(), z)[0])
""")


def test_conv_transpose_string_padding_is_split_into_letters():
    # PyTorch's ConvTranspose modules pass padding through _single/_pair/_triple, which make any iterable a tuple:
    # a str becomes its letters; minigrad repeated the whole str
    same_as_torch("""
for cls in (torch.nn.ConvTranspose1d, torch.nn.ConvTranspose2d, torch.nn.ConvTranspose3d):
    for p in ('valid', 'same', 'ab'):
        print(cls(3, 4, 2, padding=p))
print(torch.nn.Conv2d(3, 4, 2, padding='valid'), torch.nn.Conv2d(3, 4, 2, padding='same'))
""")


def test_transpose_in_place_takes_two_dims_only():
    # PyTorch: x.transpose_(1, 0, 2) is its parser's count error; minigrad took the third argument as its private
    # op-name parameter and transposed
    same_as_torch("""
x = torch.ones(2, 3)
E(lambda: x.transpose_(1, 0, 2))
E(lambda: x.swapaxes_(1, 0, 2))
E(lambda: x.swapdims_(1, 0, 2))
E(lambda: x.transpose_(1))
print(x.shape, x.transpose_(1, 0).shape, x.swapdims_(1, 0).shape)
""")


def test_binary_cross_entropy_weight_shape_checked_after_the_kernel():
    # PyTorch's kernel dispatches on the dtype and checks each element's range, then multiplies the loss by the
    # weight in place: a weight of more dims is refused last. minigrad refused it first
    same_as_torch("""
F = torch.nn.functional
E(lambda: F.binary_cross_entropy(torch.tensor(True), torch.tensor(True), weight=torch.ones(3, dtype=torch.bool)))
E(lambda: F.binary_cross_entropy(torch.tensor(0.5), torch.tensor(1.), weight=torch.ones(3)))
E(lambda: F.binary_cross_entropy(torch.tensor(1.5), torch.tensor(1.), weight=torch.ones(3)))
E(lambda: F.binary_cross_entropy(torch.tensor(0.5), torch.tensor(1.5), weight=torch.ones(3)))
E(lambda: F.binary_cross_entropy(torch.tensor(0.5), torch.tensor(1., dtype=torch.float64), weight=torch.ones(3)))
E(lambda: F.binary_cross_entropy(torch.tensor([0.5, 0.2]), torch.tensor([1., 0.]), weight=torch.ones(2, 2)))
print(F.binary_cross_entropy(torch.tensor([0.5, 0.2]), torch.tensor([1., 0.]), weight=torch.ones(1), reduction='none'))
""")
