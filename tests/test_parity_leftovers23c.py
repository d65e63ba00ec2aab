"""Session 23 leftovers, third round: arange / range / linspace with Python ints beyond int64 (the parser's
OverflowError, Scalar::to<int64_t>'s refusal, PyTorch's size checks in doubles and int64 arithmetic);
index_copy into a 0-dim tensor at a repeated index; a saved uint64 Scalar read through ``_saved_*``; dtypes
pickled by name.

Each test runs one program under minigrad and under PyTorch and compares the printed output.
"""
from __future__ import annotations

from parity import same_as_torch


def test_arange_ints_beyond_int64():
    # PyTorch: the parser refuses an int beyond uint64 (OverflowError); an int64 arange reads its ends and step
    # as int64s; minigrad's np.isfinite raised a TypeError, or it counted with exact Python ints
    same_as_torch("""
for f in (lambda: torch.arange(10**40), lambda: torch.arange(-2**63 - 1), lambda: torch.arange(0, 10, 10**40),
          lambda: torch.arange(0, 2**64), lambda: torch.arange(0, 10**40, dtype=torch.float32),
          lambda: torch.arange(0, 2**63), lambda: torch.arange(2**63), lambda: torch.arange(0, 5, 2**63),
          lambda: torch.arange(0, 1e20, dtype=torch.int64), lambda: torch.arange(0, 9.3e18, 1e18, dtype=torch.int64),
          lambda: torch.arange(2**63, 2**63, dtype=torch.int32), lambda: torch.arange(0, 2**63, 1.)):
    E(f)
""")


def test_arange_sizes_as_pytorch_counts_them():
    # PyTorch: an int64 range's length in wrapping int64 arithmetic, any other's in doubles; a negative length or
    # one beyond int64 is "invalid size", and 2**63 itself wraps to -2**63, which the shape refuses
    same_as_torch("""
for f in (lambda: torch.arange(0, 2**63 - 1, 2**62), lambda: torch.arange(0, 3, 2**63 - 1),
          lambda: torch.arange(0, 9.223372036854775807e18, dtype=torch.int64),
          lambda: torch.arange(0, 2**63, dtype=torch.float32), lambda: torch.arange(0, 2**63, dtype=torch.int32),
          lambda: torch.arange(0, 1e300), lambda: torch.arange(1e300, 0, -1e-300),
          lambda: torch.arange(0, 1e20, dtype=torch.int32)):
    E(f)
print(torch.arange(-2**63, 2**63 - 1, 2**62), torch.arange(2**63 - 1, -2**63, -2**62))
print(torch.arange(2**63, 2**63 + 2, dtype=torch.float64), torch.arange(2**63 - 2, 2**63, dtype=torch.int32))
print(torch.arange(-2**63, -2**63 + 3), torch.arange(2**63 - 3, 2**63 - 1))
print(torch.arange(0, 2**63, 2**61, dtype=torch.float64), torch.arange(2**63, 0, -2**61, dtype=torch.float64))
""")


def test_range_ints_beyond_int64():
    # PyTorch: torch.range warns, then the parser's OverflowError, the int64 conversion for an integer dtype, or
    # a size past int64 cast to -2**63; minigrad tried to allocate, or counted past int64
    same_as_torch("""
import warnings
warnings.simplefilter("ignore")
for f in (lambda: torch.range(0, 10**40), lambda: torch.range(0, 2**63), lambda: torch.range(0, 1e300),
          lambda: torch.range(0, 2**63, dtype=torch.int32), lambda: torch.range(0, 2**63, 2**62, dtype=torch.int64),
          lambda: torch.range(0, 1e19, 3e18, dtype=torch.int64)):
    E(f)
print(torch.range(2**63, 2**63), torch.range(0, 3, 2**63), torch.range(0, 9e18, 3e18, dtype=torch.int64))
""")


def test_range_counts_integer_dtypes_in_int64():
    # PyTorch: an integer dtype's range truncates its ends and step to int64s and counts (end - start) / step + 1
    # with them; infinite ends are refused, printed as C++ prints doubles; minigrad counted in doubles
    same_as_torch("""
import warnings
warnings.simplefilter("ignore")
print(torch.range(0, 2**63 - 1, 2**62, dtype=torch.int64), torch.range(-0.5, 2.5, dtype=torch.int32),
      torch.range(0.5, 3.7, dtype=torch.int64), torch.range(5, 1, -2, dtype=torch.uint8),
      torch.range(0, 300, 100, dtype=torch.uint8), torch.range(-3, 3, 2, dtype=torch.int8))
for f in (lambda: torch.range(0, float("inf")), lambda: torch.range(0.5, float("inf")),
          lambda: torch.range(0, float("inf"), dtype=torch.int64), lambda: torch.range(1e-300, 1e300),
          lambda: torch.arange(0., float("inf")), lambda: torch.arange(2**62, float("-inf"), -1),
          lambda: torch.arange(0, float("nan"), dtype=torch.int64)):
    E(f)
""")


def test_linspace_logspace_steps_beyond_int64():
    # PyTorch: steps is an int64 argument ("Overflow when unpacking long long"); minigrad tried to allocate,
    # returned an empty tensor, or said "number of steps must be non-negative"
    same_as_torch("""
for f in (lambda: torch.linspace(0, 10, 10**40), lambda: torch.linspace(0, 10, 2**63),
          lambda: torch.logspace(0, 10, 2**63), lambda: torch.linspace(0, 10, -2**63 - 1),
          lambda: torch.linspace(0, 10**40, 3), lambda: torch.scalar_tensor(10**40),
          lambda: torch.full((2,), 2**63, dtype=torch.int64)):
    E(f)
""")


def test_index_copy_into_0dim_at_a_repeated_index():
    # PyTorch: each index in turn, so the last copy stays; its backward's index_select refuses several indices
    # into a scalar; minigrad's reshape of the source to () raised a ValueError
    same_as_torch("""
print(torch.ones(()).index_copy(0, torch.tensor([0, 0]), torch.full((2,), 2.)))
print(torch.ones(()).index_copy(0, torch.tensor([0, 0]), torch.tensor([2., 3.])),
      torch.ones(()).index_copy_(0, torch.tensor([0, 0, 0]), torch.tensor([2., 3., 4.])),
      torch.ones(()).index_copy(0, torch.tensor([], dtype=torch.int64), torch.tensor([])))
a, s = torch.ones((), requires_grad=True), torch.tensor([2., 3.], requires_grad=True)
y = a.index_copy(0, torch.tensor([0, 0]), s)
print(y)
E(lambda: y.backward())
b = torch.ones((), requires_grad=True)
print(torch.autograd.grad(a.index_copy(0, torch.tensor([0]), b.reshape(1)), (a, b)))
""")


def test_saved_uint64_scalar_refused_by_its_getter():
    # PyTorch: a saved Scalar is read back as an int64 (toLong()), which refuses 2**63 and beyond; minigrad
    # returned the Python int
    same_as_torch("""
x = torch.ones(2, dtype=torch.float64, requires_grad=True)
for f in (lambda: x.pow(2**63).grad_fn._saved_exponent, lambda: x.pow(2**64 - 1).grad_fn._saved_exponent,
          lambda: x.add(x, alpha=2**63).grad_fn._saved_alpha, lambda: x.clamp(2**63).grad_fn._saved_min,
          lambda: x.clamp(max=2**63).grad_fn._saved_max, lambda: torch.pow(2**63, x).grad_fn._saved_self,
          lambda: x.lerp(x, 2**63).grad_fn._saved_weight, lambda: x.addcmul(x, x, value=2**63).grad_fn._saved_value):
    E(f)
print(x.pow(2**63 - 1).grad_fn._saved_exponent, x.pow(-2**63).grad_fn._saved_exponent,
      x.float_power(2**63).grad_fn._saved_exponent)
""")


def test_dtypes_pickle_by_name():
    # PyTorch: a dtype's __reduce__ is its name, so pickle stores torch.float32 as a global and loads (and
    # copies) the very object; minigrad's gave a (function, args) pair
    same_as_torch("""
import copy, pickle
print(torch.float32.__reduce__(), torch.int64.__reduce__(), torch.bool.__reduce__(), torch.cfloat.__reduce__())
print([pickle.loads(pickle.dumps(d)) is d for d in (torch.float16, torch.bfloat16, torch.bool, torch.complex128,
                                                     torch.uint8)])
print(copy.deepcopy(torch.float32) is torch.float32, copy.copy(torch.int8) is torch.int8,
      pickle.loads(pickle.dumps([torch.float16, torch.complex64, torch.bool])))
print(pickle.loads(pickle.dumps(torch.ones(2, dtype=torch.float16))), copy.deepcopy({torch.double: 1}))
import io
buf = io.BytesIO()
torch.save({"w": torch.ones(2, dtype=torch.bfloat16), "dtypes": [torch.int8, torch.bool, torch.complex128]}, buf)
buf.seek(0)
print(torch.load(buf, weights_only=True))
""")
