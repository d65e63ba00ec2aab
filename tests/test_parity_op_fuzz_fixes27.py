"""Session 27's op-level fuzz fixes (test_parity_op_fuzz*.py with new seeds) and argument parsing: None where a
one-overload function wants a number (the generated signatures now say which parameters take None), None in the
hot methods' overloads, the method's position in errors of calls made of tensors and ints, nn.functional's in-place
activations parsed before they write, hardtanh_ and rrelu's bounds, the products' calls with too many arguments,
addr's promotion, matmul's out= checks, and a few kernels' check orders (index_fill, histc, xlogy, dropout3d).

Each test runs one program under minigrad and under PyTorch and compares the printed output.
"""
from __future__ import annotations

from parity import same_as_torch


def test_one_overload_functions_refuse_none_for_a_number():
    # PyTorch: a Scalar parameter takes no None ("must be Number, not NoneType"); a Tensor? or int? does.
    # minigrad's parse let None through to its code (float(None): Python's own TypeError)
    same_as_torch("""
x = torch.ones(2, 3)
F = torch.nn.functional
E(lambda: x.hardshrink(None))
E(lambda: torch.hardshrink(x, None))
E(lambda: F.softplus(x, None))
E(lambda: F.softplus(x, 1, None))
E(lambda: F.softshrink(x, None))
E(lambda: x.renorm(None, 0, 1))
E(lambda: x.addcmul(x, x, value=None))
E(lambda: F.threshold_(x.clone(), None, 0.))
print(torch.amax(x, None), F.linear(x, torch.ones(2, 3), None).shape, torch.softmax(x, 1, None).dtype)
""")


def test_methods_with_overloads_refuse_none():
    # PyTorch: no overload of fill_ / masked_fill / where takes None there; minigrad filled nan (or failed in NumPy)
    same_as_torch("""
x, m = torch.ones(2, 3), torch.tensor([[True, False, True], [False, True, False]])
E(lambda: x.clone().fill_(None))
E(lambda: x.masked_fill(m, None))
E(lambda: torch.masked_fill(x, m, None))
E(lambda: x.clone().masked_fill_(m, None))
E(lambda: x.clone().masked_fill_(m, 'a'))
E(lambda: x.where(m, None))
print(x)
""")


def test_method_errors_count_without_self():
    # PyTorch: x.hardshrink(t) and x.matmul(None) name their argument at position 1 (the function's at 2)
    same_as_torch("""
x = torch.ones(2, 3)
E(lambda: x.hardshrink(torch.tensor([0.5, 0.2])))
E(lambda: torch.hardshrink(x, torch.tensor([0.5, 0.2])))
E(lambda: x.matmul(None))
E(lambda: torch.matmul(x, None))
""")


def test_inplace_functionals_parse_before_they_write():
    # PyTorch: F.elu / threshold / leaky_relu / celu / rrelu call their C function's parser before anything is
    # written (and before the leaf's refusal); minigrad wrote x, then refused
    same_as_torch("""
F = torch.nn.functional
x = torch.tensor([[1., -2., 0.5], [-0.3, 3., -1.]])
y = x.clone(); E(lambda: F.elu(y, '1', inplace=True)); print(y)
y = x.clone(); E(lambda: F.threshold(y, 0.1, '1', True)); print(y)
y = x.clone(); E(lambda: F.leaky_relu(y, '1', True)); print(y)
y = x.clone(); E(lambda: F.rrelu(y, '1', 0.3, False, True)); print(y)
y = x.clone(); E(lambda: F.rrelu(y, None)); print(y)
y = x.clone(); E(lambda: F.rrelu(y, torch.tensor([0.5, 0.2]))); print(y)
E(lambda: F.elu(torch.ones(2, requires_grad=True), '1', inplace=True))
""")


def test_rrelu_reads_its_bounds_as_doubles():
    # PyTorch: the kernel converts the bounds (a 0-dim tensor's item; 1j cannot be a double) before comparing them
    same_as_torch("""
F = torch.nn.functional
x = torch.tensor([[1., -2., 0.5], [-0.3, 3., -1.]])
E(lambda: F.rrelu_(x.clone(), 0.1, 1j))
print(F.rrelu_(x.clone(), 0.1, torch.tensor(0.5)))
E(lambda: F.rrelu(x, 0.5, 0.1))
""")


def test_hardtanh_bounds():
    # PyTorch: a 0-dim tensor bound is a number; F.hardtanh_ is the C function, which does not compare the bounds
    # (min_val > max_val clamps to max_val), and its parser refuses None
    same_as_torch("""
F = torch.nn.functional
x = torch.tensor([[1., -2., 0.5], [-0.3, 3., -1.]])
print(F.hardtanh(x, torch.tensor(0.5)), F.hardtanh(x, -1., torch.tensor(0.5)))
print(F.hardtanh_(x.clone(), 2.5, 1.), F.hardtanh_(x.clone(), torch.tensor(0.5)))
E(lambda: F.hardtanh_(x.clone(), 1j, 1.))
E(lambda: F.hardtanh_(x.clone(), None, 1.))
E(lambda: F.hardtanh(x, 2.5, 1.))
""")


def test_products_refuse_calls_of_no_form():
    # PyTorch: a method call with more arguments than any form lists the method's overload (the arguments marked);
    # torch.addmm(x, 0.5, m, m) is none of the function's forms (its deprecated ones start with beta)
    same_as_torch("""
M = torch.ones(2, 2)
E(lambda: M.addmm(0.5, M, M, M, M))
E(lambda: M.addmm(0.5, M, 0.5, M, M))
E(lambda: M.clone().addmm_(0.5, M, M, M, M))
E(lambda: M.addr(0.5, M[0], M[0], M[0], M[0]))
E(lambda: M.addmm(M, M, M, M, M))
E(lambda: M.addcmul(M, M, M, M))
E(lambda: torch.addmm(M, 0.5, M, M))
E(lambda: torch.addmm(M, 0.5, 0.5, M, M))
E(lambda: torch.addmv(M[0], 0.5, M, M[0]))
E(lambda: torch.baddbmm(M[None], 0.5, M[None], M[None]))
E(lambda: torch.addmm(M, 0.5, M, M, out=M.clone()))
""")


def test_addr_promotes_its_input_as_a_full_tensor():
    # PyTorch: input is expanded to the product's shape before the TensorIterator, so a 0-dim input's dtype counts
    same_as_torch("""
s = torch.tensor(1.5, dtype=torch.float64)
v1, v2 = torch.ones(2, dtype=torch.bfloat16), torch.ones(3, dtype=torch.bool)
print(s.addr(v1, v2).dtype, torch.addr(s, v1, torch.ones(3)).dtype, torch.addr(s.half(), v1, v2).dtype)
print(torch.addr(s, v1, v2, out=torch.empty(2, 3, dtype=torch.float64)).dtype)
""")


def test_matmul_out_checks_the_sizes_first():
    # PyTorch: mv / mm check the sizes before out='s dtype; dot checks the dtype before the sizes (minigrad: the
    # dtype first, or the operands' dtypes)
    same_as_torch("""
u8 = torch.uint8
E(lambda: torch.matmul(torch.ones(3, 2, dtype=u8), torch.ones(3, dtype=u8), out=torch.ones(2, 1, dtype=torch.float64)))
E(lambda: torch.matmul(torch.ones(3, dtype=u8), torch.ones(2, 3, dtype=u8), out=torch.ones(2, 1, dtype=torch.float64)))
E(lambda: torch.matmul(torch.ones(3, 2), torch.ones(3, 2), out=torch.ones(2, 1, dtype=torch.float64)))
E(lambda: torch.matmul(torch.ones(3), torch.ones(2), out=torch.ones(0, dtype=torch.float64)))
E(lambda: torch.matmul(torch.ones(3, 2, dtype=u8), torch.ones(2, dtype=u8), out=torch.ones(2, 1, dtype=torch.float64)))
# (and out='s dtype before the operands' mismatch, for mm and dot)
E(lambda: torch.matmul(torch.ones(4, 3, dtype=torch.int32), torch.ones(3, 0, dtype=u8), out=torch.ones(2, 3, dtype=u8)))
E(lambda: torch.matmul(torch.ones(3), torch.ones(3, 2, dtype=torch.float64), out=torch.ones(2, dtype=torch.int32)))
E(lambda: torch.matmul(torch.ones(3), torch.ones(3, dtype=u8), out=torch.ones(0, dtype=torch.bool)))
E(lambda: torch.matmul(torch.ones(4, 3), torch.ones(3, dtype=u8), out=torch.ones(4, dtype=torch.int32)))
""")


def test_dropout3d_of_an_unbatched_vector():
    # PyTorch: dropout3d unsqueezes a 1-D input (warning), and feature dropout takes the 2-D result
    same_as_torch("""
import warnings
warnings.simplefilter("ignore")
torch.manual_seed(0)
print(torch.nn.functional.dropout3d(torch.arange(1., 4., dtype=torch.float64), 0.5, True))
""")


def test_functionals_parse_their_c_call():
    # PyTorch: F.instance_norm's C function refuses None and a str for its float / bool arguments; F.batch_norm's
    # own check of eps comes before the parse of momentum
    same_as_torch("""
F = torch.nn.functional
x = torch.ones(2, 3, 2, 2)
E(lambda: F.instance_norm(x, momentum=None, use_input_stats=False))
E(lambda: F.instance_norm(x, torch.ones(3), torch.ones(3), momentum=None, use_input_stats=False))
E(lambda: F.instance_norm(x, eps=None))
E(lambda: F.instance_norm(x, use_input_stats=None))
E(lambda: F.instance_norm(x, use_input_stats='a'))
E(lambda: F.batch_norm(torch.ones(2, 3), torch.zeros(3), torch.ones(3), training=True, momentum=None, eps=0.0))
""")


def test_float_power_of_zero_by_a_complex_exponent():
    # PyTorch: the gradient of 0 ** y is 0 where y is real and non-negative (a complex y: its imaginary part 0)
    same_as_torch("""
for e in (1 + 0j, -1 + 0j, 2 + 1j):
    y = torch.tensor(e, requires_grad=True)
    r = torch.float_power(0, y)
    r.real.sum().backward()
    print(r, y.grad)
""")


def test_fill_diagonal_names_the_fill_type():
    # PyTorch: the fill converts the value to the tensor's type (a one-element half diagonal: as a double)
    same_as_torch("""
for shape in ((2, 3), (1, 1), (0, 3)):
    for dt in (torch.float32, torch.float16, torch.bfloat16, torch.int32):
        E(lambda: torch.ones(shape, dtype=dt).fill_diagonal_(-1.5j))
""")


def test_index_fill_wraps_dim_before_the_value():
    # PyTorch: index_fill wraps dim (and checks the index's rank) before its kernel converts the value
    same_as_torch("""
u = torch.ones(3, 1, dtype=torch.uint8)
E(lambda: u.index_fill(-3, torch.tensor([0, 1]), -300.))
E(lambda: u.index_fill(-3, torch.tensor([0, 1]), torch.tensor(2.5, dtype=torch.float16, requires_grad=True)))
E(lambda: u.index_fill(0, torch.tensor([[0, 1]]), -300.))
E(lambda: u.index_fill(0, torch.tensor([0, 1]), -300.))
""")


def test_histc_bins_in_the_input_type():
    # PyTorch: bin ⌊(x - min)·bins/(max - min)⌋ computed in float32 for a float32 input (one value v: the range
    # v - 1 .. v + 1 rounds, and v may fall in bin 49)
    same_as_torch("""
for v in (-0.656374990940094, 3.9453113079071045, 0.25):
    for dt in (torch.float32, torch.float64):
        print(torch.histc(torch.tensor(v, dtype=dt)).argmax().item(), end=" ")
x = torch.linspace(-3, 3, 101)
print(torch.histc(x, bins=7).tolist(), torch.histc(x.double(), bins=13, min=-0.5, max=0.7).tolist())
""")


def test_xlogy_of_a_number_and_xlog1py_broadcast():
    # PyTorch: a number first is a wrapped number (-2 with a uint8 tensor: a float result); xlog1py's broadcast
    # error comes before its kernel's refusal of complex operands
    same_as_torch("""
u = torch.ones(3, 1, dtype=torch.uint8)
print(torch.xlogy(-2, u), torch.special.xlogy(300, u))
E(lambda: torch.special.xlog1py(torch.ones(4), torch.ones(2, 3, dtype=torch.complex64)))
E(lambda: torch.special.xlog1py(torch.ones(3), torch.ones(2, 3, dtype=torch.complex64)))
""")


def test_split_by_a_bool_size():
    # PyTorch: Tensor.split takes a bool for an int (isinstance) and _VF.split's parser refuses it
    same_as_torch("""
x = torch.ones(2, 3)
E(lambda: x.split(True, 1))
E(lambda: torch.split(x, False))
""")


def test_matrix_norm_checks_its_dtype():
    # PyTorch: linalg.matrix_norm checks dtype itself (after the dims), before the SVD or vector norm it computes
    same_as_torch("""
x = torch.ones(2, 3, dtype=torch.complex64)
for p in ('nuc', 2, 1, float('inf')):
    E(lambda: torch.linalg.matrix_norm(x, p, dtype=torch.int32))
    E(lambda: torch.linalg.matrix_norm(x.real, p, dtype=torch.complex64))
    E(lambda: torch.linalg.matrix_norm(x.real.double(), p, dtype=torch.float32))
E(lambda: torch.norm(x, p='nuc', dtype=torch.int32))
""")


def test_scalar_first_methods_with_a_wrong_count():
    # PyTorch: x.addcmul(0.5, a, b, c) is none of its forms (the listed overload, marked); x.addcmul(0.5, a) is the
    # listed overload's refusal of 0.5; minigrad gave Python's count, or failed in its code
    same_as_torch("""
x = torch.ones(2, 3)
E(lambda: x.addcmul(0.5, x, x, x))
E(lambda: x.clone().addcdiv_(0.5, x, x, x))
E(lambda: x.addcdiv(0.5, x, x, x, x))
E(lambda: x.addcmul(0.5, x))
""")
