"""Session 23 leftovers, second round: Python ints beyond int64 as scalar operands (PyTorch's parser reads a uint64,
beyond that its OverflowError); set_anomaly_enabled's keyword arguments; index_reduce / index_add / index_select of
a 0-dim tensor; a disabled autograd profile's missing attributes and the MTIA device; ``_base`` is read-only.

Each test runs one program under minigrad and under PyTorch and compares the printed output.
"""
from __future__ import annotations

from parity import same_as_torch


def test_ints_beyond_int64_as_operands():
    # PyTorch: a Python int in [2**63, 2**64) is a uint64 Scalar, cast to the op's dtype as C casts (an int64 tensor
    # wraps to -2**63); minigrad's conversion to int64 raised NumPy's "Python int too large to convert to C long"
    same_as_torch("""
f, i = torch.ones(2), torch.ones(2, dtype=torch.int64)
print(f * 2**63, f.mul(2**63), 2**63 * f, f - 2**63, 2**63 / f, f // 2**63, f.mul_(2**63))
print(i + 2**63, i.add(2**63), i * 2**63, i // 2**63, i / 2**63, i.eq(2**63), i.bitwise_and(2**63))
print(torch.ones(2, dtype=torch.int32) * 2**63, torch.ones(2, dtype=torch.uint8) * 2**63)
print(torch.ones(2, dtype=torch.float64) * (2**64 - 1), torch.ones(2, dtype=torch.float16) * (2**64 - 1))
print(torch.ones(2).sub(2**63, alpha=2), torch.rsub(torch.ones(2), 2**63), torch.ones(2).ne(2**63))
print(torch.ones(2).where(torch.tensor([True, False]), 2**63), torch.ones(2).clamp(2**63))
print(torch.full((2,), 2**63, dtype=torch.float32), torch.ones(2).fill_(2**63), torch.ones(2).pow(2**63))
b = torch.tensor([True, False])
print(b.add(b, alpha=2**63), b.clone().fill_(2**63))
x = torch.ones(2, dtype=torch.float64, requires_grad=True)
y = x * 2**63
y.sum().backward()
print(y, x.grad)
""")


def test_ints_beyond_uint64_refused_by_the_parser():
    # PyTorch: PyLong_AsUnsignedLongLong's OverflowError ("int too big to convert", "can't convert negative int to
    # unsigned") before any other check; minigrad said "Python int too large to convert to C long", "value cannot
    # be converted to type float without overflow", or computed (x.pow(10**40), x == 10**40)
    same_as_torch("""
x = torch.ones(2)
big, low = 10**40, -2**63 - 1
for f in (lambda: x * big, lambda: x.mul(2**64), lambda: x.mul(low), lambda: x + big, lambda: big - x,
          lambda: x / big, lambda: x.clamp(big), lambda: x.clamp(low), lambda: x.clamp(max=big),
          lambda: torch.full((2,), big), lambda: torch.full((2,), low), lambda: torch.full((2,), 2**64),
          lambda: x.pow(big), lambda: x ** 2**64, lambda: x.pow_(big), lambda: torch.pow(big, x),
          lambda: torch.pow(low, x), lambda: torch.ones(2, dtype=torch.int64) + big, lambda: x == big,
          lambda: x < big, lambda: x.eq(big), lambda: x.remainder(big), lambda: torch.remainder(big, x),
          lambda: x.fmod(big), lambda: x.add(1, alpha=big), lambda: x.masked_fill(torch.tensor([True, False]), big),
          lambda: x.new_full((2,), big), lambda: torch.full_like(x, big), lambda: x.fill_(low),
          lambda: x.index_fill(0, torch.tensor([0]), big), lambda: torch.nn.functional.hardtanh(x, 0, big),
          lambda: torch.nn.functional.hardtanh(x, low, 2), lambda: x.lerp(x, big), lambda: x.xlogy(big),
          lambda: torch.xlogy(big, x), lambda: x.copysign(big), lambda: x.float_power(big),
          lambda: torch.ones(2, dtype=torch.int64).bitwise_xor(big), lambda: x.addcmul(x, x, value=big),
          lambda: torch.where(torch.tensor([True, False]), x, big)):
    E(f)
""")


def test_uint64_operand_with_bool_and_integer_powers():
    # PyTorch: a uint64 wrapped number meets a bool tensor in promote_types, which has no rule for it; an integer
    # tensor's pow reads the exponent as an int64 first
    same_as_torch("""
b = torch.tensor([True, False])
for f in (lambda: b + 2**63, lambda: 2**63 * b, lambda: b / 2**63, lambda: b == 2**63, lambda: b.remainder(2**63),
          lambda: b & 2**63, lambda: b.clamp(2**63), lambda: torch.where(b, b, 2**63), lambda: b.mul_(2**63),
          lambda: torch.tensor(True) * 2**63, lambda: b.pow(2**63), lambda: torch.ones(2, dtype=torch.int64) ** 2**63,
          lambda: torch.tensor([3], dtype=torch.uint8) ** (2**63 + 1)):
    E(f)
""")


def test_set_anomaly_enabled_keyword_arguments():
    # PyTorch: its C parser names a keyword argument without a position, and words a missing one its way; minigrad
    # said "(position 2)" for check_nan=0
    same_as_torch("""
E(lambda: torch.set_anomaly_enabled(True, check_nan=0))
E(lambda: torch.set_anomaly_enabled(enabled=0))
E(lambda: torch.set_anomaly_enabled(True, check_nan=None))
E(lambda: torch.set_anomaly_enabled(True, 0))
E(lambda: torch.set_anomaly_enabled())
E(lambda: torch.set_anomaly_enabled(True, True, 3))
E(lambda: torch.set_anomaly_enabled(True, foo=1))
E(lambda: torch.autograd.set_detect_anomaly(True, check_nan=0))
torch.set_anomaly_enabled(enabled=True, check_nan=False)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
torch.set_anomaly_enabled(False)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
torch.set_anomaly_enabled(False, True)
""")


def test_index_reduce_and_index_add_of_a_zero_dim_tensor():
    # PyTorch: the count check's message reads source.size(dim), which a 0-dim source refuses: "Dimension specified
    # as 0 but tensor has no dimensions" (minigrad reduced, or named the count); index_select of a scalar takes
    # index 0 only
    same_as_torch("""
import warnings
warnings.simplefilter('ignore')
s = torch.ones(())
for idx in ([3, -1], [0, 0], [0]):
    i = torch.tensor(idx)
    for red in ('prod', 'amax'):
        for inc in (True, False):
            E(lambda: s.index_reduce(0, i, torch.tensor(2.), red, include_self=inc))
    E(lambda: s.index_add(0, i, torch.tensor(2.)))
    E(lambda: s.index_add(-1, i, torch.tensor(2.)))
    E(lambda: torch.ones(3).index_add(0, i, torch.tensor(2.)))
    E(lambda: torch.ones(3).index_reduce(0, i, torch.tensor(2.), 'mean'))
for idx in (0, -1, 1, [-2], [0]):
    E(lambda: s.index_select(0, torch.tensor(idx)))
""")


def test_disabled_profile_and_mtia_device():
    # PyTorch: a disabled profile keeps only ``enabled``, so reading its events fails on the first attribute its
    # code reads (minigrad gave empty events and tables); use_device='mtia' needs Kineto's MTIA activity
    same_as_torch("""
from torch.autograd import profiler
p = profiler.profile(enabled=False)
for f in (lambda: p.function_events, lambda: p.key_averages(), lambda: p.table(), lambda: p.total_average(),
          lambda: p.self_cpu_time_total, lambda: str(p), lambda: repr(p), lambda: p.entered, lambda: p.use_device,
          lambda: p.export_chrome_trace('unused.json'), lambda: vars(p)):
    E(f)
with p as bound:
    torch.ones(2) * 2
print(bound, p.enabled)
E(lambda: p.function_events)
E(lambda: profiler.profile(use_device='mtia'))
E(lambda: profiler.profile(use_device='mtia', use_kineto=True))
E(lambda: profiler.profile(use_device='mtia', use_cpu=False))
E(lambda: profiler.profile(enabled=False, use_device='mtia').enabled)
""")


def test_base_is_read_only():
    # PyTorch: ``_base`` is a C attribute of TensorBase without a setter (minigrad's plain slot took the assignment,
    # leaving a tensor that called itself its own base)
    same_as_torch("""
y = torch.ones(2, requires_grad=True) * 2
v = y[:1]
def assign(t, value):
    t._base = value
def delete(t):
    del t._base
E(lambda: assign(y, y))
E(lambda: assign(v, None))
E(lambda: delete(v))
print(y._base, v._base is y, v._is_view(), y._is_view())
class P(torch.Tensor):
    pass
p = torch.ones(2).as_subclass(P)
E(lambda: assign(p, None))
x = torch.ones(3, requires_grad=True) * 1
z = x.view(3)
z.mul_(2)
print(z._base is x, z.grad_fn.name(), x.grad_fn.name())
""")
