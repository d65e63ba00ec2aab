"""The float64 fused multiply-add (``_fused.fma64``) stays finite for huge operands and keeps infinities."""
import numpy as np
from parity import torch_or_skip

import minigrad as torch
from minigrad import _fused


def test_fma64_huge_and_infinite_operands():
    assert _fused.fma64(1e300, 3.0, 1e300) == 4e300           # (Dekker's split of 1e300 overflows)
    assert _fused.fma64(np.inf, 1.0, 2.0) == np.inf
    assert np.isnan(_fused.fma64(np.nan, 1.0, 2.0))
    assert _fused.fma64(0.1, 10.0, -1.0) == 5.551115123125783e-17  # one rounding: 0.1·10 - 1 exactly


def test_float64_huge_ranges_match_pytorch():
    real = torch_or_skip()
    for lib in (torch, real):
        lib.manual_seed(0)
    mine = torch.empty(6, dtype=torch.float64).uniform_(-8.5e307, 8.5e307)
    theirs = real.empty(6, dtype=real.float64).uniform_(-8.5e307, 8.5e307)
    assert mine.tolist() == theirs.tolist()
    assert torch.linspace(-1e307, 1e307, 5, dtype=torch.float64).tolist() == \
        real.linspace(-1e307, 1e307, 5, dtype=real.float64).tolist()
    a = [1e300, np.inf, -2.0]
    for lib in (torch, real):
        x = lib.tensor(a, dtype=lib.float64)
        a_result = lib.add(x, x, alpha=3.0).tolist()
        if lib is torch:
            mine = a_result
    assert mine == a_result
