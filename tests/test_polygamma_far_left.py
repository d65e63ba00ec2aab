"""polygamma far left of zero: PyTorch's reflection formulas (finite values, no ~|x|-step recurrence), and
PyTorch's zeta series for n >= 2 there (see minigrad/_polygamma.py)."""
from __future__ import annotations

import math
import time

import pytest

import minigrad as mg
from tests.parity import torch_or_skip


@pytest.mark.parametrize("value", [-1e30, -1e7 - 0.5, -2.0**60, -123456.75])
def test_digamma_backward_far_left_is_finite_and_fast(value):
    x = mg.tensor(value, dtype=mg.float64, requires_grad=True)
    start = time.perf_counter()
    mg.digamma(x).backward()  # trigamma: the reflection, then six steps (it used to hang, then give nan)
    assert time.perf_counter() - start < 1.0
    assert math.isfinite(x.grad.item())


@pytest.mark.parametrize("value", [-1e30, -1e7 - 0.5, -2.0**60, -123456.75, -1e5 - 0.5])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_digamma_and_trigamma_far_left_match_torch(value, dtype):
    torch = torch_or_skip()
    for n in (0, 1):
        mine = mg.polygamma(n, mg.tensor(value, dtype=getattr(mg, dtype))).item()
        theirs = torch.polygamma(n, torch.tensor(value, dtype=getattr(torch, dtype))).item()
        assert mine == theirs or (math.isnan(mine) and math.isnan(theirs)), (n, mine, theirs)


@pytest.mark.parametrize("value", [-3.5, -9999.75, -20.25, 0.3, 2.5, -1e5 - 0.5])
@pytest.mark.parametrize("n", [1, 2, 3])
def test_polygamma_near_the_limit_still_matches_torch(value, n):
    torch = torch_or_skip()
    mine = mg.polygamma(n, mg.tensor(value, dtype=mg.float64)).item()
    theirs = torch.polygamma(n, torch.tensor(value, dtype=torch.float64)).item()
    assert mine == theirs, (mine, theirs)


def test_polygamma_series_far_left_is_given_up_beyond_its_limit():
    # PyTorch's zeta series for n >= 2 takes ~|x| steps: 1e12 of them here (hours). minigrad answers nan.
    assert math.isnan(mg.polygamma(2, mg.tensor(-1e12 - 0.5, dtype=mg.float64)).item())
    assert mg.polygamma(3, mg.tensor(-1e30, dtype=mg.float64)).item() == math.inf  # (an integer: a pole)
