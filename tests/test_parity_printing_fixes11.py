"""Session 11: printing against PyTorch, widened: torch.Size and torch.return_types built by hand (their entries,
their errors), a fuzz of format specs / tolist / item / int / float / %-formatting of small tensors of every
dtype, and print-heavy programs (print options with dtypes and autograd suffixes, dual tensors, return types,
sizes, dtypes and devices)."""
from __future__ import annotations

import enum
import random
import warnings

import numpy as np
import pytest
from parity import same_as_torch, torch_or_skip
from test_parity_printing_fuzz import DTYPES, _pair

import minigrad as mg


class _Three(enum.IntEnum):
    A = 3


def _both(torch, f) -> list:
    """f(torch), f(minigrad): the repr of the result and the type names of a sequence's items, or the error."""
    out = []
    for lib in (torch, mg):
        try:
            r = f(lib)
            out.append((repr(r), [type(v).__name__ for v in r] if isinstance(r, tuple) else None))
        except Exception as e:  # noqa: BLE001 - the error itself is compared
            out.append(f"{type(e).__name__}: {e}")
    return out


# fixed: torch.Size took anything (printed torch.Size([tensor(2), 3]), torch.Size([1.5])); PyTorch keeps ints
# (NumPy integers and int subclasses as they are), turns one-element integer tensors and bools into ints through
# __index__, refuses anything else with a TypeError naming the item, and ints beyond int64 with a ValueError
@pytest.mark.parametrize("make", [
    lambda t: t.Size([t.tensor(2), 3]),
    lambda t: t.Size([t.tensor([[4]])]),
    lambda t: t.Size([t.tensor(2, dtype=t.uint8), t.tensor(-5)]),
    lambda t: t.Size([t.tensor([2, 3])]),
    lambda t: t.Size([t.tensor(2.0)]),
    lambda t: t.Size([True, t.tensor(True)]),
    lambda t: t.Size([np.int64(2), np.int32(3)]),
    lambda t: t.Size([np.bool_(True)]),
    lambda t: t.Size([np.float64(2)]),
    lambda t: t.Size([np.uint64(2**64 - 1)]),
    lambda t: t.Size([_Three.A]),
    lambda t: t.Size([2**63]),
    lambda t: t.Size([-2**63, 2**63 - 1]),
    lambda t: t.Size([1.5]),
    lambda t: t.Size(["a"]),
    lambda t: t.Size([None]),
    lambda t: t.Size(5),
    lambda t: t.Size(),
    lambda t: t.Size(x for x in (1, 2)),
    lambda t: t.Size([2]) + (2.5,),
    lambda t: (2.5,) + t.Size([2]),
    lambda t: t.Size([2, 3])[::-1] + t.Size([np.int64(4)]),
    lambda t: str(t.Size([np.int64(2), _Three.A])),
    lambda t: t.zeros(2, 3).shape + (t.tensor(4),),
])
def test_size_constructor_matches_pytorch(make) -> None:
    torch = torch_or_skip()
    theirs, mine = _both(torch, make)
    assert mine == theirs


# fixed: torch.return_types.max((a,)) raised ValueError (tuple unpacking) and max(seq, {}) a TypeError from
# __new__; PyTorch's structseq takes any iterable of exactly n_fields items and an optional dict
@pytest.mark.parametrize("make", [
    lambda t: t.return_types.max((t.tensor([1.0]),)),
    lambda t: t.return_types.max((1, 2, 3)),
    lambda t: t.return_types.max([1, 2], {}),
    lambda t: t.return_types.max([1, 2], {"a": 1}),
    lambda t: t.return_types.max([1, 2], None),
    lambda t: t.return_types.max([1, 2], dict={}),
    lambda t: t.return_types.max(sequence=[1, 2]),
    lambda t: t.return_types.max(),
    lambda t: t.return_types.max(1),
    lambda t: t.return_types.sort("ab"),
    lambda t: t.return_types.topk(x for x in (t.tensor(1.0), t.tensor(0))),
    lambda t: t.return_types.aminmax({1: 2, 3: 4}),
    lambda t: t.return_types.linalg_qr([1]),
    lambda t: t.return_types.linalg_svd([1, 2, 3]),
    lambda t: t.return_types.linalg_lstsq([1, 2, 3, 4, 5]),
    lambda t: t.return_types.max(t.tensor([1, 2])),
    lambda t: t.return_types.max(t.max(t.tensor([[1.0, 5.0], [3.0, 2.0]]), 1)),
])
def test_return_types_constructor_matches_pytorch(make) -> None:
    torch = torch_or_skip()
    theirs, mine = _both(torch, make)
    assert mine == theirs


# ---- a fuzz of the Python-level conversions of small tensors ---------------------------------------------------

SPECS = ["", ".3f", ".2e", "g", ">12", "+.1f", "d", "x", ".0%", "10.4g", "<8", "^9.2f", ",", "_", "e", "n", "#x",
         "08.3f", " .2f", "s", "r", ".1", "c", "b", "o", "X", "E", "G", "%"]


def _convert(x, what: str, spec: str) -> str:
    try:
        if what == "format":
            return format(x, spec)
        if what == "tolist":
            return repr(x.tolist())
        if what == "item":
            return repr(x.item())
        if what == "int":
            return repr(int(x))
        if what == "float":
            return repr(float(x))
        if what == "complex":
            return repr(complex(x))
        if what == "round":
            return repr(round(x))
        return "%.2f %s %r" % (x, x, x) if x.dim() == 0 else "%s" % (x,)  # noqa: UP031 - (what is under test)
    except Exception as e:  # noqa: BLE001 - the error itself is compared
        return f"{type(e).__name__}: {e}"


@pytest.mark.parametrize("seed", range(2))
def test_fuzz_conversions_match_pytorch(seed: int) -> None:
    """format(t, spec) (0-d tensors, one-element and empty ones: the errors), tolist(), item(), int(), float(),
    complex(), round() and %-formatting of tensors of every dtype, with and without requires_grad / a grad_fn."""
    torch = torch_or_skip()
    rng = random.Random(1000 + seed)
    failures = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for case in range(300):
            dt = rng.choice(DTYPES)
            shape = rng.choice([(), (), (), (1,), (1, 1), (2,), (0,), (2, 3)])
            t, m = _pair(torch, rng, dt, shape)
            if rng.random() < 0.3 and (t.dtype.is_floating_point or t.dtype.is_complex):
                t, m = t.detach().requires_grad_(), m.detach().requires_grad_()
                if rng.random() < 0.5:
                    t, m = t * 1, m * 1
            what = rng.choice(["format", "format", "tolist", "item", "int", "float", "complex", "round", "pct"])
            spec = rng.choice(SPECS)
            theirs, ours = _convert(t, what, spec), _convert(m, what, spec)
            if ours != theirs:
                failures.append(f"case {case}: {dt} {shape} requires_grad={t.requires_grad} {what}({spec!r})\n"
                                f"torch:    {theirs}\nminigrad: {ours}")
    assert not failures, f"{len(failures)} differences; first:\n" + failures[0]


# ---- whole programs -----------------------------------------------------------------------------------------------

PROGRAMS: dict[str, str] = {}

PROGRAMS["options_with_dtypes_and_autograd"] = r"""
torch.set_printoptions(precision=3, sci_mode=True)
print(torch.tensor([1.5, float('nan'), float('inf')]), torch.tensor([0.0]), torch.tensor([1.5+2j, float('nan')]))
print(torch.tensor([1, 2], dtype=torch.int16), torch.tensor([True]), torch.tensor(-0.0, dtype=torch.bfloat16))
torch.set_printoptions(profile="default", threshold=3, edgeitems=1)
print(torch.arange(6.).reshape(3, 2) + 1j, torch.zeros(2, 5, dtype=torch.bool), torch.arange(5, dtype=torch.uint8))
print(torch.ones(4, requires_grad=True) * 2, torch.nn.Parameter(torch.arange(8.)), torch.arange(9, dtype=torch.int8))
torch.set_printoptions(profile="default", linewidth=40)
print(torch.nn.Parameter(torch.arange(20.)), torch.arange(20., requires_grad=True) * 1)
print(torch.arange(20., dtype=torch.float64, requires_grad=True) * 1)
print(torch.arange(10.).half().reshape(2, 5) * 1e4, torch.arange(12, dtype=torch.int16).reshape(3, 4) * 1000)
torch.set_printoptions(profile="short", sci_mode=False)
print(torch.tensor([1e-8, 1e8, 1.0]), torch.tensor([1/3], dtype=torch.float64),
      torch.tensor([2/3], dtype=torch.float16))
torch.set_printoptions(profile="default", precision=1)
print(torch.tensor([0.05, 0.15, 0.25, 0.35]), torch.tensor([0.05, 0.15, 0.25, 0.35], dtype=torch.float64))
print(torch.tensor([1.25+0.35j]), torch.tensor([1/3], dtype=torch.bfloat16), torch.nn.Parameter(torch.tensor(2.25)))
torch.set_printoptions(profile="full")
print(torch.arange(1100) % 7)
torch.set_printoptions(profile="default")
torch.set_default_dtype(torch.float64)
print(torch.tensor([1.5]), torch.tensor([1.5], dtype=torch.float32), torch.tensor([1j]),
      torch.tensor([1j]).to(torch.complex64))
print(torch.nn.Parameter(torch.ones(2)), torch.nn.Parameter(torch.ones(2, dtype=torch.float32)), torch.zeros(0, 2))
print(torch.tensor([1.5], dtype=torch.float32, requires_grad=True) * 2, torch.tensor(3.0, requires_grad=True).exp())
"""

PROGRAMS["values_at_the_edges"] = r"""
print(torch.tensor([1e-320, 1.0], dtype=torch.float64), torch.tensor([5e-324], dtype=torch.float64))
print(torch.tensor([65504., 6e-8, -65504.], dtype=torch.float16),
      torch.tensor([1e38, 1e-38, -3e38], dtype=torch.bfloat16))
print(torch.tensor([3.4028e38, -3.4028e38]), torch.tensor([1.17549e-38]), torch.tensor([1.4e-45]),
      torch.tensor([1e-39, 1.]))
print(torch.tensor([1e15, 1.0]), torch.tensor([1e16]), torch.tensor([123456789.0]), torch.tensor([1e8 - 1]))
print(torch.tensor([0.0001, 1.0]), torch.tensor([0.00009999, 1.0]), torch.tensor([1000.0, 1.0]),
      torch.tensor([1000.5, 1.0]))
print(torch.tensor([[float('nan'), 1e-5], [1e5, float('-inf')]]), torch.tensor([[0.1, 0.22], [0.333, 0.4444]]).t())
print(torch.tensor([-0.0, -0.0]), torch.tensor([0.0, -0.0]) * -1, torch.tensor([-0.0+0.0j, 0.0-0.0j]),
      torch.tensor(-0.0).neg())
print(torch.tensor([complex(float('nan'), 1), complex(1, float('inf')), complex(1e10, 1e-10)]))
print(torch.tensor([-128, 127], dtype=torch.int8), torch.tensor([0, 255], dtype=torch.uint8),
      torch.tensor([-2**63, 2**63 - 1]))
print(torch.zeros(3, 0, 2), torch.zeros(0, 0), torch.tensor([[]]), torch.tensor([[], []], dtype=torch.int8))
print(torch.tensor([], dtype=torch.float16), torch.tensor([], dtype=torch.complex128),
      torch.zeros(0, 2, requires_grad=True) * 2)
print(torch.nn.Parameter(torch.zeros(0, dtype=torch.float64)), torch.nn.Parameter(torch.ones(3, dtype=torch.float16)))
print(torch.nn.Parameter(torch.ones(2, 2) * 1e10), torch.nn.Parameter(torch.tensor([1+1j])),
      torch.nn.Parameter(torch.arange(2000.)))
"""

PROGRAMS["dual_tensors_sizes_dtypes_devices"] = r"""
fwAD = torch.autograd.forward_ad
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([3., 4.]))
    print(d); print(repr(d * 2)); print(fwAD.unpack_dual(d))
    e = fwAD.make_dual(torch.tensor(1.5, requires_grad=True), torch.tensor(3.))
    print(e.exp()); print(e)
    f = fwAD.make_dual(torch.tensor([1., 2.], dtype=torch.float64), torch.tensor([3., 4.], dtype=torch.float64))
    print(f); print(fwAD.unpack_dual(f).tangent)
print(torch.Size([2, 3]), str(torch.Size([])), repr(torch.Size([1])), torch.Size([2, 3]) + (4,),
      torch.Size((2, 3))[::-1])
print(torch.Size([torch.tensor(2), 3]), torch.Size([torch.tensor([[4]])]).numel(), torch.ones(2, 3).shape[1:])
print(torch.float32, repr(torch.bfloat16), str(torch.int8), torch.cfloat, torch.half, torch.long, torch.double)
print(torch.device('cpu'), repr(torch.device('cpu', 0)), str(torch.device('cpu:0')), torch.device('cpu').index)
x = torch.tensor([[3., 1., 2.], [0., 5., 4.]], requires_grad=True)
print(torch.max(x, 1)); print(str(torch.min(x, 0))); print(torch.var_mean(x, 1)); print(torch.aminmax(x, dim=1))
print(torch.return_types.max((torch.tensor(1.), torch.tensor(0))), torch.return_types.max([1, 2], {}))
E(lambda: torch.return_types.max((1, 2, 3)))
E(lambda: torch.return_types.topk(5))
print(f"{torch.tensor(3.14159):.3f}", f"{torch.tensor(2):04d}", f"{torch.tensor(1.5, dtype=torch.float16):.2f}")
E(lambda: f"{torch.tensor([1., 2.]):.3f}")
E(lambda: f"{torch.tensor([1.]):.3f}")
E(lambda: f"{torch.tensor(2.5, requires_grad=True):.2f}")
print(torch.tensor([1.1], dtype=torch.float16).tolist(), torch.tensor([0.1], dtype=torch.bfloat16).tolist(),
      torch.zeros(2, 0).tolist())
print(torch.tensor([[1+2j]], dtype=torch.complex64).tolist(), torch.tensor([True, False]).tolist(),
      torch.tensor(7).tolist())
"""


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # warnings go to stderr; only stdout is compared
        same_as_torch(PROGRAMS[name])
