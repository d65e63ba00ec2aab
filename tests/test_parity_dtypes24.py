"""Session 24: the dtypes minigrad lacked. PyTorch's barebones unsigned types torch.uint16 / uint32 / uint64 (the dtype
objects, iinfo, creation, casts, printing, NumPy interop, promotion only with themselves and floating types, the
kernels that run them and the NotImplementedError of those that do not), uint64 Scalars saved by autograd nodes, and
torch.complex32 / torch.chalf (promotion, float16 with complex numbers).

Each test runs one program under minigrad and under PyTorch and compares the printed output.
"""
from __future__ import annotations

from parity import same_as_torch


def test_unsigned_dtype_objects():
    # PyTorch: torch.uint16/32/64 are dtypes (unsigned, not floating, 2/4/8 bytes) with iinfo limits and no complex
    # counterpart; minigrad had no such attributes (AttributeError)
    same_as_torch("""
import pickle, copy
for d in (torch.uint16, torch.uint32, torch.uint64):
    print(d, repr(d), d.is_floating_point, d.is_complex, d.is_signed, d.itemsize, d.to_real())
    print(torch.iinfo(d), torch.iinfo(d).bits, torch.iinfo(d).min, torch.iinfo(d).max)
    print(pickle.loads(pickle.dumps(d)) is d, copy.deepcopy(d) is d, d == torch.int16)
    E(lambda: d.to_complex())
    E(lambda: torch.finfo(d))
    E(lambda: torch.set_default_dtype(d))
""")


def test_complex32_dtype_object():
    # PyTorch: torch.complex32 (alias torch.chalf) is ComplexHalf, 4 bytes, its real counterpart float16 and finfo
    # float16's; minigrad had no such attributes
    same_as_torch("""
d = torch.complex32
print(d, torch.chalf is d, d.is_complex, d.is_floating_point, d.is_signed, d.itemsize, d.to_real(), d.to_complex())
print(torch.finfo(d), torch.float16.to_complex())
E(lambda: torch.iinfo(d))
E(lambda: torch.set_default_dtype(d))
""")


def test_promote_types_with_the_new_dtypes():
    # PyTorch: a barebones unsigned type promotes only with itself and with floating types (which win); complex32
    # with float16 or an integer type stays complex32, with a wider float it widens
    same_as_torch("""
names = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
         "complex32", "complex64", "complex128", "uint16", "uint32", "uint64"]
for a in names:
    for b in names:
        print(a, b, end=" ")
        E(lambda: torch.promote_types(getattr(torch, a), getattr(torch, b)))
""")


def test_result_type_with_unsigned_operands():
    # PyTorch: a dim > 0 uint tensor beside a 0-dim integer tensor or an int keeps its dtype (a lower priority only
    # counts by category); beside a 0-dim or dimensioned tensor of another integer type it is the promotion error;
    # float16 with a complex number is complex32; an int beyond int64 is a uint64 Scalar
    same_as_torch("""
u, u0 = torch.zeros(2, dtype=torch.uint16), torch.tensor(1, dtype=torch.uint16)
for other in (True, 1, 1.5, 1j, 2**63, torch.tensor(1), torch.tensor(True), torch.tensor(1.5, dtype=torch.float64),
              torch.tensor(1j), torch.zeros(2, dtype=torch.float16), torch.zeros(2, dtype=torch.uint16)):
    E(lambda: torch.result_type(u, other))
for other in (torch.zeros(2), torch.zeros(2, dtype=torch.int8), torch.zeros(2, dtype=torch.bool)):
    E(lambda: torch.result_type(u0, other))
E(lambda: torch.result_type(torch.zeros(2, dtype=torch.float16), 1j))
E(lambda: torch.result_type(torch.zeros(2, dtype=torch.float16), torch.tensor(1j)))
E(lambda: torch.result_type(torch.tensor(1.5, dtype=torch.float16), 1j))
E(lambda: torch.result_type(torch.zeros(2, dtype=torch.bfloat16), 1j))
E(lambda: torch.result_type(2**63, 1))
E(lambda: torch.result_type(2**63, 1.5))
E(lambda: torch.result_type(torch.zeros(2, dtype=torch.int8), 2**63))
""")


def test_creating_unsigned_tensors():
    # PyTorch: the factories take the dtypes; a negative int wraps into uint16/uint32 (a float truncates), but uint64
    # unpacks a C unsigned long long: any float is "an integer is required", a negative int an OverflowError, and
    # ints up to 2**64 - 1 fit; arange/linspace/logspace/eye have no kernel for them, randperm neither. (uint8 too
    # takes each element of a list as itself: a negative int among floats wraps, where minigrad refused it)
    same_as_torch("""
for d in (torch.uint16, torch.uint32, torch.uint64):
    print(torch.zeros(2, dtype=d), torch.ones(2, 2, dtype=d), torch.full((2,), 7, dtype=d), torch.empty(0, dtype=d))
    print(torch.tensor(5, dtype=d), torch.tensor([], dtype=d), torch.zeros_like(torch.ones(2, dtype=d)))
    print(torch.tensor([0, torch.iinfo(d).max], dtype=d), torch.tensor([[1, 2], [3, True]], dtype=d))
    o = torch.ones(2, dtype=d)
    print(torch.zeros(3).new_full((2,), 5, dtype=d), o.new_tensor([3]), o.new_zeros(2))
    for v in ([-1], [-70000], [2.7], [-1.5], [2**63], [2**64], [1, 2**64], [2.5, -1], [-1, 2.5], [1j], [float("nan")],
              [[2.5, -1], [-70000, 1.5]], [1.5, -1.5]):
        E(lambda: torch.tensor(v, dtype=d))
    for f in (lambda: print(torch.tensor([[2.5, -1], [-255, 1.5]], dtype=torch.uint8)),
              lambda: torch.tensor([-256, 1.5], dtype=torch.uint8),
              lambda: torch.arange(3, dtype=d), lambda: torch.linspace(0, 1, 3, dtype=d),
              lambda: torch.logspace(0, 1, 3, dtype=d), lambda: torch.eye(2, dtype=d),
              lambda: torch.randperm(3, dtype=d)):
        E(f)
""")


def test_fill_and_full_of_unsigned_tensors():
    # PyTorch: fill_ and full convert the number with checked_convert: a negative int wraps when -value fits (into
    # uint32, -70000 does; into uint16 it does not), a negative float or NaN does not; minigrad had no names for them
    same_as_torch("""
for d in (torch.uint16, torch.uint32, torch.uint64):
    for v in (-1, 70000, -70000, 2**32, 2**63, 2**64 - 1, 1.5, -1.5, 1e10, float("inf"), float("nan"), 1j, True):
        E(lambda: torch.zeros(2, dtype=d).fill_(v))
        E(lambda: torch.full((2,), v, dtype=d))
        E(lambda: torch.zeros(2, dtype=d) == v)
""")


def test_printing_and_python_values_of_unsigned_tensors():
    # PyTorch: printed as integer tensors with their dtype (uint64 beyond int64 too, wrapping its line); tolist() and
    # item() give Python ints, but int() of a uint64 beyond int64 goes through int64_t and overflows
    same_as_torch("""
print(torch.tensor([3000000000, 65535, 0], dtype=torch.uint32))
print(torch.tensor([2**64 - 1, 2**63 + 5, 1], dtype=torch.uint64))
print(torch.tensor([[1, 2, 3]], dtype=torch.uint16).t(), torch.zeros(2000, dtype=torch.uint16))
b = torch.tensor([1, 2**64 - 1], dtype=torch.uint64)
print(b.tolist(), b[1].item(), type(b[0].item()), float(b[1]), bool(b[0]), int(b[0]))
E(lambda: int(b[1]))
u = torch.tensor([1, 2], dtype=torch.uint16)
print(u.type(), u.element_size(), u.is_signed(), u.is_floating_point(), u.is_complex(), u.dtype, u.nbytes)
print(torch.is_floating_point(u), torch.zeros(1).type(torch.uint32), torch.zeros(1).type("torch.UInt16Tensor"))
""")


def test_casts_and_numpy_interop_of_unsigned_tensors():
    # PyTorch: .to() converts both ways (an int64 wraps into uint16, a uint64 beyond int64 into -1), and NumPy's
    # uint16/32/64 arrays come in and go out as these dtypes; minigrad refused NumPy's unsigned arrays
    same_as_torch("""
import numpy as np
u = torch.tensor([5, 2, 65535], dtype=torch.uint16)
print(u.float(), u.double(), u.long(), u.to(torch.uint8), u.to(torch.uint32), u.bool(), u.half(), u.bfloat16())
print(u.cfloat())
print(torch.tensor([70000, -1]).to(torch.uint16), torch.tensor([True, False]).to(torch.uint32))
print(torch.tensor([2**64 - 1], dtype=torch.uint64).long(), torch.tensor([2**64 - 1], dtype=torch.uint64).double())
print(torch.tensor([3, 1], dtype=torch.uint32).view(torch.int32))
print(torch.tensor([-1], dtype=torch.int32).view(torch.uint32))
for name in ("uint16", "uint32", "uint64"):
    a = np.array([1, 2], dtype=name)
    print(torch.from_numpy(a), torch.tensor(a), torch.as_tensor(np.array(3, dtype=name)))
    E(lambda: print(torch.tensor([a[0]])))
    print(torch.ones(2, dtype=getattr(torch, name)).numpy().dtype)
""")


def test_unsigned_kernels_that_run():
    # PyTorch: copies, views, indexing, cat/stack, mul, eq/ne, and/or/xor, sort, unique, any/all, and sum/prod/cumsum
    # (in int64) run the dtypes; true division, sqrt, exp ... compute in float
    same_as_torch("""
t = torch.tensor([3, 1, 2], dtype=torch.uint32)
m = torch.tensor([True, False, True])
print(t * 2, t * t, t * True, t == t, t != 1, t & 1, t | t, t ^ t, t.sum(), t.prod(), t.cumsum(0), t.sum(0).dtype)
print(t.sort(), t.argsort(), t.unique(), t.any(), t.all(), t.nansum(), t.cumprod(0))
print(t[1:], t[m], t[torch.tensor([0, 2])], t.view(3, 1), torch.cat([t, t]), torch.stack([t, t]), t.roll(1))
print(torch.where(m, t, t), t.clone().fill_(3), t.clone().zero_(), t.clone().copy_(torch.tensor([4, 5, 6])))
print(t / 2, t / t, t.sqrt(), t.exp(), t + 1.5, t * 2.5, t * 1j, t.isnan(), t.isfinite(), torch.equal(t, t))
print(t.float().requires_grad_(), torch.ones(3, dtype=torch.float64) + t, t.floor(), t.round(), +t)
x = torch.ones(3, requires_grad=True)
y = x * t
print(y, y.grad_fn._saved_other)
y.sum().backward()
print(x.grad)
""")


def test_unsigned_kernels_that_refuse():
    # PyTorch: most CPU kernels do not dispatch them: "add_stub" not implemented for 'UInt16' ...; a uint tensor with
    # another integer type is the promotion error; minigrad ran NumPy's ufuncs on them
    same_as_torch("""
for d in (torch.uint16, torch.uint64):
    t, m = torch.tensor([1, 2, 3], dtype=d), torch.tensor([[1, 2], [3, 4]], dtype=d)
    mask, i = torch.tensor([True, False, True]), torch.tensor([0])
    for f in (lambda: t + t, lambda: t + 1, lambda: 1 + t, lambda: t - 1, lambda: 3 - t, lambda: t.clone().add_(1),
              lambda: t.add(t, alpha=2), lambda: -t, lambda: t.abs(), lambda: t.sign(), lambda: t.sgn(),
              lambda: t.pow(2),
              lambda: t ** t, lambda: 2 ** t, lambda: t.square(), lambda: t % 2, lambda: t.fmod(2), lambda: t // 2,
              lambda: t.div(t, rounding_mode="trunc"), lambda: t < 2, lambda: t <= t, lambda: t > 1, lambda: t >= t,
              lambda: t.logical_and(t), lambda: t.logical_not(), lambda: ~t, lambda: t << 1, lambda: t >> t,
              lambda: t.max(), lambda: t.min(), lambda: t.max(0), lambda: t.amax(), lambda: t.amin(0),
              lambda: t.aminmax(),
              lambda: t.argmax(), lambda: t.argmin(0), lambda: t.maximum(t), lambda: t.fmin(t), lambda: t.clamp(0, 2),
              lambda: t.clamp(min=1), lambda: t.clamp(max=2), lambda: t.clamp(t, t), lambda: t.clamp(min=t),
              lambda: t.clamp_max(t), lambda: t.relu(), lambda: torch.nn.functional.hardtanh(t),
              lambda: torch.threshold(t, 1, 0), lambda: t.nonzero(), lambda: t.count_nonzero(), lambda: t.topk(1),
              lambda: t.kthvalue(1), lambda: t.median(), lambda: t.median(0), lambda: t.mode(), lambda: t.cummax(0),
              lambda: t.flip(0), lambda: m.fliplr(), lambda: m.rot90(), lambda: m.tril(), lambda: m.triu(),
              lambda: t.gather(0, i), lambda: t.scatter(0, i, 7), lambda: t.scatter(0, i, t[:1]),
              lambda: t.index_put((i,), t[:1]), lambda: t.masked_fill(mask, 0), lambda: t.clone().__setitem__(mask, 5),
              lambda: t.clone().__setitem__(i, t[:1]), lambda: t.masked_select(mask), lambda: t.index_select(0, i),
              lambda: t.take(i), lambda: t.index_fill(0, i, 5), lambda: t.index_add(0, i, t[:1]), lambda: t.dot(t),
              lambda: m @ m, lambda: m @ t[:2], lambda: m.trace(), lambda: t.addcmul(t, t), lambda: t.histc(),
              lambda: t.bincount(), lambda: t.gcd(t), lambda: t.heaviside(t), lambda: t.sum(dtype=d),
              lambda: torch.searchsorted(t, t), lambda: t.index_reduce(0, i, t[:1], "prod"),
              lambda: t.cumsum(0, dtype=d), lambda: t.prod(dtype=d), lambda: torch.tensor([1, 2]).sum(dtype=d),
              lambda: t.mean(), lambda: t.std(), lambda: t.norm(), lambda: t + torch.tensor([1, 2, 3]),
              lambda: t == torch.tensor([1, 2, 3], dtype=torch.uint8), lambda: torch.cat([t, t.long()]),
              lambda: t.mul_(2.5), lambda: torch.tensor([1.0], dtype=d, requires_grad=True),
              lambda: torch.ones(2, dtype=d, requires_grad=True), lambda: t.requires_grad_()):
        E(f)
""")


def test_flip_of_unsigned_tensors_moves_rows_only():
    # PyTorch: flipping outer dims copies whole rows (any dtype); reversing the innermost dim in memory takes the typed
    # kernel, which refuses them (a 1-D flip, a flip of a transposed matrix's dim 0, rot90 by 1 or 2)
    same_as_torch("""
u = torch.uint16
for shape, dims in [((2, 2, 2), (1,)), ((2, 3, 4), (0, 1)), ((2, 3, 4), (2,)), ((3, 4, 1), (1,)), ((3, 4, 1), (0,)),
                    ((1, 3), (0,)), ((3,), ()), ((1,), (0,)), ((0,), (0,))]:
    E(lambda: torch.arange(int(torch.tensor(shape).prod())).to(u).view(shape).flip(dims))
m = torch.tensor([[1, 2], [3, 4]], dtype=u)
for f in (lambda: m.t().flip(0), lambda: m[:, :1].flip(0), lambda: m.flipud(), lambda: m.rot90(0), lambda: m.rot90(-1),
          lambda: m.rot90(2), lambda: m.rot90(1, (1, 0))):
    E(f)
""")


def test_saved_uint64_scalars():
    # PyTorch: an int in [2**63, 2**64) is a uint64 Scalar, which a node saves as a 0-dim uint64 tensor; minigrad's
    # _saved_other raised NumPy's "Python int too large to convert to C long"
    same_as_torch("""
x = torch.ones(2, requires_grad=True)
for y in (x * 2**63, 2**63 * x, x.mul(2**64 - 1), x / 2**63, x.div(2**63, rounding_mode=None),
          torch.ones(2, dtype=torch.float16, requires_grad=True) * 2**63):
    print(y, y.grad_fn._saved_other, y.grad_fn._saved_other.dtype)
y = x * 2**63
y.sum().backward()
print(x.grad)
y = x.clamp(0, 2**63)
print(y)
E(lambda: y.grad_fn._saved_max)
E(lambda: (2**63 - x).grad_fn._saved_alpha)
E(lambda: x.add(1, alpha=2**63).grad_fn._saved_alpha)
""")


def test_float16_with_complex_numbers_is_complex32():
    # PyTorch: float16 beside a complex number (a Python complex, a 0-dim complex tensor) promotes to complex32;
    # minigrad used complex64, NumPy having no complex32
    same_as_torch("""
h = torch.ones(2, dtype=torch.half)
print(torch.result_type(h, 1j), torch.result_type(h, torch.tensor(1j, dtype=torch.complex128)))
print(torch.promote_types(torch.float16, torch.complex64), torch.promote_types(torch.complex32, torch.bfloat16))
print(torch.promote_types(torch.complex32, torch.int64), torch.promote_types(torch.complex32, torch.float64))
""")


def test_complex32_tensors():
    # PyTorch: complex32 tensors are made, printed, cast and indexed, and add/sub/mul/neg/abs/conj/sgn run on them
    # (each part rounded to float16); float16 times a complex number is one; minigrad had no such dtype
    same_as_torch("""
import warnings
warnings.simplefilter("ignore")   # (PyTorch's once-per-process ComplexHalf warning: see the test below)
h = torch.tensor([1.5, -2.0], dtype=torch.half)
z = h * 1j
print(z, z.dtype, h + 1j, h * torch.tensor(1j), h + torch.tensor([1j, 2j]))
t = torch.tensor([1 + 2j, 3.3 - 1j], dtype=torch.complex32)
print(t, torch.zeros(2, dtype=torch.chalf), torch.ones(2, dtype=torch.chalf), torch.full((2,), 1j, dtype=torch.chalf))
print(torch.tensor(1e-3j, dtype=torch.chalf), torch.tensor([1e4 + 2.25j, 1e-3j], dtype=torch.chalf))
print(torch.tensor([[1j, 2]], dtype=torch.chalf), torch.tensor([1.0, 2.0], dtype=torch.chalf))
print(torch.empty(0, dtype=torch.chalf))
print(t + t, t - 1, t * t, t * 2.5, -t, t.abs(), t.conj(), t.conj().resolve_conj(), t.sgn(), t.real, t.imag)
print(t.to(torch.complex64), t.cfloat(), t.half(), t.double(), t.long(), torch.tensor([1j]).to(torch.chalf))
print(t == t, t != 1, t == 1 + 2j, t.isfinite(), t.isnan(), t[0], t[0].item(), t.tolist(), t.type(), t.element_size())
print(torch.view_as_real(t), torch.view_as_complex(torch.ones(2, 2, dtype=torch.half)), torch.complex(h, h))
print(torch.cat([t, t]), torch.stack([t, t]), t.view(2, 1).t(), t.clone().fill_(2j))
print(t.clone().copy_(torch.tensor([5j, 6])))
print(t + torch.tensor([1j, 2j]), torch.where(torch.tensor([True, False]), t, t), t[torch.tensor([True, False])])
for f in (lambda: t / t, lambda: t.exp(), lambda: t.sqrt(), lambda: t.sum(), lambda: t.mean(), lambda: t.prod(),
          lambda: t.cumsum(0), lambda: t @ t, lambda: t ** 2, lambda: t.square(), lambda: t.sin(), lambda: t.log(),
          lambda: t.reciprocal(), lambda: t.angle(), lambda: t.flip(0), lambda: torch.equal(t, t), lambda: t.numpy()):
    E(f)
""")


def test_complex32_experimental_warning():
    # PyTorch: allocating a complex32 tensor warns (once per process) that ComplexHalf support is experimental
    from parity import fresh_warn_once
    with fresh_warn_once():
        same_as_torch("""
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    torch.zeros(2, dtype=torch.complex32)
    torch.ones(2, dtype=torch.half) * 1j
    torch.tensor([1j], dtype=torch.chalf)
print([(x.category.__name__, str(x.message)) for x in w])
""")


def test_function_base_members_at_class_level():
    # PyTorch: torch._C._FunctionBase defines ctx's attributes (getset descriptors) and the node methods (method
    # descriptors), so Function and its subclasses show them at class level and in dir(); minigrad had no
    # needs_input_grad there (AttributeError) and showed FunctionCtx's properties
    same_as_torch("""
F = torch.autograd.Function
for name in ("needs_input_grad", "saved_tensors", "saved_variables", "_raw_saved_tensors", "next_functions", "to_save",
             "non_differentiable", "dirty_tensors", "saved_for_forward", "requires_grad", "metadata", "_input_metadata",
             "materialize_grads", "name", "register_hook", "register_prehook", "_sequence_nr", "_register_hook_dict"):
    print(getattr(F, name))
print([n for n in dir(F) if n in ("needs_input_grad", "next_functions", "metadata", "register_hook", "name")])

class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.save_for_backward(x)
        print(ctx.needs_input_grad, ctx.to_save is not None, ctx.dirty_tensors)
        return x * x * k

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        print(ctx.needs_input_grad, ctx.name, type(ctx).name(ctx), len(ctx.next_functions), ctx.metadata)
        return 2 * x * g, None

print(Square.needs_input_grad)
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Square.apply(x, 3.0)
y.grad_fn.name = "renamed"
print(y, y.grad_fn.name, type(y.grad_fn).name(y.grad_fn), y.grad_fn.needs_input_grad)
y.sum().backward()
print(x.grad)
""")
