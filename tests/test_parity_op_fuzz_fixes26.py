"""Session 26's op-level fuzz fixes (test_parity_op_fuzz*.py with new seeds, and test_parity_op_fuzz5.py's new
family of wrongly typed arguments): PyTorch's parser checks each argument's declared type before any code runs
(minigrad parsed a call only once its code had failed), split's and im2col's int arguments, a bool later in an int
list, nan_to_num(nan=None), unsafe_chunk of an empty dim, heaviside_'s node, conv_transpose3d's dilation message.

Each test runs one program under minigrad and under PyTorch and compares the printed output.
"""
from __future__ import annotations

from parity import same_as_torch


def test_methods_parse_their_arguments_first():
    # PyTorch: every declared type is checked before the kernel (a float or bool for an int, a str for a float, a
    # tuple of bools as dims); minigrad's code took these calls (renorm with dim 0., mean over (True,) ...)
    same_as_torch("""
x = torch.ones(2, 3)
E(lambda: x.renorm(2, 0., 1))
E(lambda: x.renorm_(2, 0., 1))
E(lambda: x.mean(dim=(True,)))
E(lambda: x.sum(dim=(True,)))
E(lambda: x.count_nonzero(True))
E(lambda: x.count_nonzero(dim=(1.,)))
E(lambda: x.nan_to_num('0'))
E(lambda: x.std(1., True))
E(lambda: x.amax((1.,)))
""")


def test_methods_refuse_with_the_parser_words():
    # PyTorch: the parser's TypeError; minigrad's code failed with Python's "tuple indices must be integers"
    same_as_torch("""
x, i, s = torch.ones(2, 3), torch.zeros(2, 3, dtype=torch.int64), torch.ones(2, 3)
E(lambda: x.scatter(1., i, s))
E(lambda: x.index_add(1., torch.tensor([0, 1]), torch.ones(2, 2)))
E(lambda: x.diff(dim=1.))
E(lambda: x.index_fill(1., torch.tensor([0]), 1))
""")


def test_functions_parse_their_arguments_first():
    # PyTorch: torch.renorm / conv2d / pairwise_distance refuse a float dim, a float groups, a str p
    same_as_torch("""
x = torch.ones(2, 3)
E(lambda: torch.renorm(x, 2, 0., 1))
E(lambda: torch.nn.functional.conv2d(torch.ones(1, 1, 3, 3), torch.ones(1, 1, 1, 1), groups=1.))
E(lambda: torch.nn.functional.pairwise_distance(x, x, p='2'))
E(lambda: torch.nn.functional.softplus(x, beta='1'))
E(lambda: torch.cumsum(x, True))
""")


def test_python_functionals_parse_the_c_call():
    # PyTorch: F.elu / threshold / leaky_relu / celu are Python code calling a C function (the in-place one for
    # inplace=True) whose parser refuses a str; minigrad computed with it (or failed in NumPy)
    same_as_torch("""
x = torch.ones(2, 3)
E(lambda: torch.nn.functional.elu(x, alpha='1'))
E(lambda: torch.nn.functional.elu(x.clone(), alpha='1', inplace=True))
E(lambda: torch.nn.functional.threshold(x, '0.5', 1.))
E(lambda: torch.nn.functional.threshold(x, 0.5, '1', inplace=True))
E(lambda: torch.nn.functional.leaky_relu(x.clone(), '1', inplace=True))
E(lambda: torch.nn.functional.celu(x, '1'))
E(lambda: torch.nn.functional.kl_div(x, x, reduction='x', log_target='a'))
""")


def test_split_reads_its_dim_as_an_int():
    # PyTorch: Tensor.split hands an int size to _VF.split (its overloads listed), a list to split_with_sizes
    same_as_torch("""
x = torch.ones(2, 3)
E(lambda: x.split(1, 1.))
E(lambda: x.split([1, 1], 1.))
E(lambda: torch.split(x, 1, 1.))
print([p.shape for p in x.split(1, 1)])
""")


def test_unfold_and_fold_sizes_are_int_lists():
    # PyTorch: F.unfold / fold pair the sizes and im2col / col2im's parser refuses a float element
    same_as_torch("""
F = torch.nn.functional
x = torch.ones(1, 1, 3, 3)
E(lambda: F.unfold(x, 2.))
E(lambda: F.unfold(x, 2, 1.))
E(lambda: F.fold(torch.ones(1, 4, 4), 3., 2))
E(lambda: F.fold(torch.ones(1, 4, 4), (3, 3), [2, 2.]))
print(F.unfold(x, 2, stride=(1, True)).shape)
""")


def test_a_later_bool_in_an_int_list_is_an_index():
    # PyTorch's parser type-checks an int list's first element only; a later bool unpacks as 0 or 1
    same_as_torch("""
x = torch.ones(2, 3)
print(x.flip((0, True)).shape, x.permute((0, True)).shape)
E(lambda: x.flip((True, 0)))
E(lambda: x.flip((0, 1.)))
print(torch.nn.functional.conv2d(torch.ones(1, 1, 3, 3), torch.ones(1, 1, 1, 1), stride=(1, True)).shape)
""")


def test_nan_to_num_takes_none():
    # PyTorch: nan is a float? (None: 0); minigrad called float(None)
    same_as_torch("""
x = torch.tensor([float('nan'), float('inf'), 1.])
print(x.nan_to_num(None), torch.nan_to_num(x, nan=None, posinf=None))
""")


def test_unsafe_chunk_of_an_empty_dim():
    # PyTorch: as chunk, an empty dim gives `chunks` empty pieces (unsafe_split_with_sizes); minigrad gave one
    same_as_torch("""
x = torch.zeros(0, 2, requires_grad=True)
print(torch.unsafe_chunk(x, 3, 0))
print(x.unsafe_chunk(1, 0))
""")


def test_heaviside_inplace_node_names_itself():
    # PyTorch: x.heaviside_(v) records NotImplemented for aten::heaviside_; minigrad named heaviside
    same_as_torch("""
v = torch.tensor(1., dtype=torch.float64, requires_grad=True)
r = torch.zeros(2, 3, dtype=torch.float64).heaviside_(v)
E(lambda: r.sum().backward())
""")


def test_conv_transpose3d_zero_dilation_message():
    # PyTorch: slow_conv_transpose3d names the depth's dilation too
    same_as_torch("""
w = torch.ones(3, 2, 5, 5, 5, dtype=torch.float64)
E(lambda: torch.nn.functional.conv_transpose3d(torch.ones(3, 3, 3, 3, dtype=torch.float64), w, None, padding=1,
                                               dilation=0))
""")


def test_constant_pad_crops_past_the_size_refused():
    # PyTorch: constant_pad_nd narrows by each negative pad in turn (left first) and narrow refuses a negative
    # length; minigrad's slicing clipped to an empty result
    same_as_torch("""
x = torch.ones(1, 2, 3, requires_grad=True)
for p in [(-2, -2), (-4, 1), (1, -4), (-3, 0), (-2, 1), (0, 0, -3, 1), (-1, -1, -1, -1)]:
    E(lambda: print(torch.nn.functional.pad(x, p).shape))
    E(lambda: print(torch.constant_pad_nd(x, p, 1.5).shape))
""")


def test_slice_copy_of_a_0_dim_tensor():
    # PyTorch: slice() refuses a 0-dim tensor before it reads dim or step
    same_as_torch("""
x = torch.tensor(1.)
E(lambda: torch.slice_copy(x, 0, 1, 2, 1))
E(lambda: torch.slice_copy(x, -1, -1, 10, 0))
E(lambda: torch.slice_copy(x, 5))
""")


def test_complex_scalars_of_renorm_and_correction():
    # PyTorch: renorm refuses a complex p or maxnorm (even with no imaginary part); var/std read correction as a
    # double (an imaginary part overflows); minigrad compared complex numbers (Python's TypeError)
    same_as_torch("""
x = torch.ones(2, 3)
E(lambda: x.renorm(1j, 0, 1.))
E(lambda: x.renorm(2, 0, 1j))
E(lambda: x.renorm(2.5 + 0j, 0, 1.))
E(lambda: print(x.std(1, correction=1 + 0j)))
E(lambda: x.std(1, correction=1j))
E(lambda: x.var(correction=0.5j))
""")


def test_vdot_takes_out():
    # PyTorch: vdot_out checks out='s dtype against the input's, resizes it, refuses autograd; minigrad took no out=
    same_as_torch("""
a, b = torch.ones(3), torch.arange(3.)
for o in (torch.zeros(()), torch.zeros(0), torch.zeros((), dtype=torch.float64), torch.zeros((), dtype=torch.int64)):
    E(lambda: print(torch.vdot(a, b, out=o), o))
E(lambda: torch.vdot(torch.ones(3, dtype=torch.float64), b, out=torch.zeros(())))
E(lambda: torch.vdot(torch.ones(3, requires_grad=True), b, out=torch.zeros(())))
""")


def test_python_functionals_pass_none_numbers_on():
    # PyTorch: F.elu / leaky_relu / layer_norm / cross_entropy pass a None number on to the C function, whose
    # parser refuses it (only a pool's stride=None is the Python code's default); minigrad failed in float(None)
    same_as_torch("""
F = torch.nn.functional
x, t = torch.ones(2, 3), torch.tensor([0, 1])
E(lambda: F.elu(x, alpha=None))
E(lambda: F.leaky_relu(x, None))
E(lambda: F.celu(x, None))
E(lambda: F.layer_norm(x, (3,), eps=None))
E(lambda: F.cross_entropy(x, t, label_smoothing=None))
E(lambda: F.glu(torch.ones(2, 4), None))
print(F.max_pool1d(x.unsqueeze(0), 2, stride=None).shape)
""")


def test_integer_tensor_times_an_out_of_range_int():
    # PyTorch: the Scalar is cast to the integer tensor's type as C++ casts (uint8 · -2 is · 254), also inside
    # addcmul's backward (value · tensor1 of uint8); minigrad's NumPy product raised OverflowError
    same_as_torch("""
i8 = torch.ones(2, dtype=torch.int8)
print(torch.ones(2, dtype=torch.uint8) * -2, i8 * 300, i8 * 200, torch.mul(i8, -129))
a, t1 = torch.ones(2, 1), torch.ones(2, 1, dtype=torch.uint8)
t2 = torch.ones(4, dtype=torch.float64, requires_grad=True)
a.addcmul(t1, t2 * 1, value=-2).sum().backward()
print(t2.grad)
""")


def test_nll_loss_1d_target_size_after_its_dtype():
    # PyTorch: nll_loss's meta function checks the target's dtype before a 1-D input's 1-D target size
    same_as_torch("""
f64 = torch.float64
for t in (torch.ones(3, dtype=f64), torch.ones(3, dtype=torch.int64), torch.zeros(1, dtype=torch.int64)):
    E(lambda: print(torch.nn.functional.nll_loss(torch.ones(2, dtype=f64), t)))
    E(lambda: torch.nn.functional.nll_loss(torch.ones(2, dtype=f64), t, torch.ones(4, dtype=f64)))
""")


def test_scalar_first_forms_not_parsed_first():
    # PyTorch: the deprecated scalar-first overloads (deprecated.yaml) still run, with one warning per process;
    # parsing first against the listed overloads refused them ("addcdiv_() takes 2 positional arguments ...")
    same_as_torch("""
import warnings
warnings.simplefilter("ignore")
a, b = torch.ones(2), torch.full((2,), 4.)
print(torch.ones(2).addcdiv_(0.5, a, b), torch.ones(2).addcmul(0.5, a, b), torch.ones(2).sub_(1., a))
print(torch.addcmul(torch.ones(2), 0.5, a, b), torch.addcdiv(torch.ones(2), 2, a, b))
""")


def test_hot_methods_refuse_float_dims_and_bool_narrow():
    # PyTorch's parser refuses a float in a dims tuple/list (x.sum((1.,))) and a bool dim or length of narrow;
    # these methods stay out of the parse-first wrapper (hot paths): minigrad took them as 1 and 0/1
    same_as_torch("""
x = torch.ones(2, 3)
for f in (lambda: x.sum((1.,)), lambda: x.sum([1.]), lambda: x.mean((0, 1.)), lambda: torch.sum(x, (1.,)),
          lambda: x.sum(dim=[1.], dtype=torch.float64), lambda: x.narrow(True, 0, 1), lambda: x.narrow(0, 0, True),
          lambda: torch.narrow(x, 1, 0, False), lambda: x.narrow(0, True, 1)):
    E(lambda: print(f()))
""")
