"""float32 var / std / var_mean / std_mean with PyTorch's bits: its Welford kernel accumulates in double and
rounds once (std takes the square root in double too), so NumPy's float32 var differs in about half the
results while the float64 computation rounded once agrees."""
from __future__ import annotations

import numpy as np
import pytest
from parity import torch_or_skip

import minigrad

CASES = [((50, 40), 1), ((50, 40), 0), ((1000,), 0), ((7, 3, 9), (0, 2)), ((3, 5), None), ((2, 64, 33), -1)]


@pytest.mark.parametrize("correction", [1, 0])
@pytest.mark.parametrize("fn", ["var", "std", "var_mean", "std_mean"])
def test_float32_bits_match_pytorch(fn: str, correction: int) -> None:
    torch = torch_or_skip()
    rng = np.random.default_rng(correction)
    for shape, dim in CASES:
        x = (rng.standard_normal(shape) * 5 + 3).astype(np.float32)
        ours = getattr(minigrad, fn)(minigrad.tensor(x), dim=dim, correction=correction)
        theirs = getattr(torch, fn)(torch.tensor(x), dim=dim, correction=correction)
        pairs = zip(ours, theirs) if isinstance(ours, tuple) else [(ours, theirs)]
        for a, b in pairs:
            assert np.array_equal(a.numpy(), b.numpy()), (fn, shape, dim)


def test_a_known_value() -> None:
    # var([1.5, 2.5, 4]) = 19/12: NumPy's float32 var gives 1.5833333, PyTorch 19/12 rounded once (1.5833334)
    assert minigrad.tensor([1.5, 2.5, 4.0]).var().item() == np.float32(19 / 12).item()
