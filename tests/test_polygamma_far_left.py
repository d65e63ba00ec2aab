"""polygamma's recurrence must not run ~|x| steps for hugely negative x (it used to hang)."""
from __future__ import annotations

import math

import pytest

import minigrad as mg
from tests.parity import torch_or_skip


@pytest.mark.parametrize("value", [-1e30, -1e7 - 0.5, -2.0**60])
def test_digamma_backward_far_left_returns(value):
    x = mg.tensor(value, dtype=mg.float64, requires_grad=True)
    mg.digamma(x).backward()  # trigamma: finished at all is the point
    g = x.grad.item()
    assert math.isinf(g) if float(value).is_integer() else math.isnan(g)


@pytest.mark.parametrize("value", [-3.5, -9999.75, -20.25, 0.3, 2.5])
@pytest.mark.parametrize("n", [1, 2, 3])
def test_polygamma_near_the_limit_still_matches_torch(value, n):
    torch = torch_or_skip()
    mine = mg.polygamma(n, mg.tensor(value, dtype=mg.float64)).item()
    theirs = torch.polygamma(n, torch.tensor(value, dtype=torch.float64)).item()
    assert math.isclose(mine, theirs, rel_tol=1e-8), (mine, theirs)
