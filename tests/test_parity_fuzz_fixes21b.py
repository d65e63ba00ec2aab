"""Regressions of differences the graph fuzzer (tests/fuzz_graphs.py: tensor family ``_Gen.s14`` and the nn family)
found in session 21b.

Each program prints what a user sees (values, bits, errors, warnings) and runs once with minigrad and once with
PyTorch (``parity.same_as_torch``); each is a short explicit form of the seed that found it.
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

PROGRAMS = {
    # fixed: softmax over a dim that is not the last returns a contiguous tensor with PyTorch's strides for size-1
    # dims too (empty_like of a contiguous input), which unsqueeze and broadcasting ops then show (seed 202182)
    "softmax_other_dim_size1_strides": """
F = torch.nn.functional
for shape, d in (((4, 3, 1), 1), ((3, 1, 2, 1), 2), ((3, 1, 2, 1), 0), ((2, 20, 1), 1)):
    for dt in (torch.float32, torch.float64):
        x = torch.rand(*shape, dtype=dt, requires_grad=True)
        for f in (F.softmax, F.log_softmax, F.softmin):
            y = f(x, d)
            y.backward(torch.ones(shape, dtype=dt))
            print(shape, d, y.stride(), y.unsqueeze(1).stride(), x.grad.stride())
            print(torch.fmin(y.unsqueeze(1), torch.rand(shape, dtype=torch.float64)).stride())
            x.grad = None
""",
    # fixed: _unsafe_view gives size-1 dims view's strides (computeStride), not NumPy's reshape's: kron's product of
    # a transposed column then takes a layout its final _unsafe_view cannot view, and PyTorch refuses (seed 203519)
    "kron_unsafe_view_strides": """
def P(f):
    try:
        r = f()
        print(tuple(r.shape), r.stride())
    except Exception as e:
        print(type(e).__name__, e)
c = torch.rand(1, 3, requires_grad=True)
for x in (c.t(), torch.rand(3, 1), torch.rand(2, 1, 3).transpose(0, 2), torch.rand(3, 2).t()):
    for y in (torch.rand(2, 3), torch.rand(1, 3), torch.rand(3), torch.rand(2, 1, 1).expand(2, 1, 3)):
        P(lambda: torch.kron(x, y))
        P(lambda: torch.kron(y, x))
P(lambda: torch.matmul(torch.rand(3, 2, 1).permute(2, 1, 0), torch.rand(3, 4)).unsqueeze(1))
""",
    # fixed: c10's complex log1p returns log(u) as it is only when u - 1 == z, which is false when an imaginary part
    # is nan: log1p(inf + nan j) is log(u)·(z / (u - 1)) = nan + nan j, not inf + nan j (seed 204146)
    "complex_log1p_nan_imaginary": """
inf, nan = float('inf'), float('nan')
vals = [inf, -inf, nan, 0.0, -0.0, 1.0, -1.0, 2.5]
zs = [complex(a, b) for a in vals for b in vals]
for dt in (torch.complex64, torch.complex128):
    t = torch.tensor(zs, dtype=dt, requires_grad=True)
    r = t.log1p()
    print([str(v) for v in r.tolist()])
    r.abs().sum().backward()
    print([str(v) for v in t.grad.tolist()])
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    same_as_torch(PROGRAMS[name])
