"""Regressions of differences the graph fuzzer (tests/fuzz_graphs.py: tensor family, ``_Gen.s14``) found in
session 20b.

Each program prints what a user sees (values, layouts, graphs) and runs once with minigrad and once with PyTorch
(``parity.same_as_torch``); each is a short explicit form of the seed that found it.
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

PROGRAMS = {
    # fixed: the gradient through an empty view replayed after its base changed in place (AsStridedBackward0) was a
    # view of a scratch storage; PyTorch's as_strided_backward returns fresh zeros when the view has no elements
    # (seed 197626)
    "empty_view_as_strided_backward_is_fresh_zeros": """
for dt in (torch.float64, torch.float32):
    a = torch.ones(3, 5, dtype=dt, requires_grad=True)
    v = a.narrow(1, 4, 0)
    with torch.no_grad():
        a.mul_(0.5)
    print(v.grad_fn.name())
    g, = torch.autograd.grad(v.sum(), a, retain_graph=True)
    print(g._is_view(), g._base is None, g.stride(), g.dtype, g.tolist())
    b = torch.ones(2, 3, 4, requires_grad=True)
    w = b.transpose(0, 2)[1:1]
    with torch.no_grad():
        b.add_(1)
    g, = torch.autograd.grad(w.sum(), b)
    print(w.grad_fn.name(), g._is_view(), g.stride(), g.sum().item())
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    same_as_torch(PROGRAMS[name])
