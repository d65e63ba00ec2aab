"""The order in which PyTorch's CPU loss kernels add up per-sample losses, so sums round as theirs do.

``nll_loss`` (aten/src/ATen/native/LossNLL.cpp, ``nll_loss_out_frame``) sums the losses of an (N, C)
input with a cascade of 8 partial sums: sample b is added to level 0; whenever the low bits of b are
zero (every 16 samples at level 0, every 256 at level 1, ...) a level is added into the next one and
cleared. Sample 0 therefore climbs to the top level at once and is added last; the levels are finally
added from level 0 up. Skipped (ignored) samples do not flush, so those runs take the loop below.
"""
from __future__ import annotations

import numpy as np

_LEVELS = 8
_GROUP = 16   # 2^level_power: PyTorch's level_power is max(4, ceil(log2 N) / 8), 4 below 2^40 samples


def _sequential(values: np.ndarray, start) -> np.ndarray:
    """start + v0 + v1 + ... rounded after each addition (the rows of a 2-D array side by side)."""
    first = np.full(values.shape[:-1] + (1,), start, values.dtype)
    # np.add.accumulate adds strictly left to right, in the array's dtype
    return np.add.accumulate(np.concatenate([first, values], axis=-1), axis=-1)[..., -1]


def cascade_sum(terms: np.ndarray, skipped: np.ndarray | None = None):
    """Σ terms as nll_loss_out_frame adds them; ``skipped`` marks samples left out (ignore_index)."""
    zero = np.zeros((), terms.dtype)[()]
    if terms.size == 0:
        return zero
    if skipped is not None and skipped.any():
        return _cascade_loop(terms, skipped)
    levels = [zero] * _LEVELS
    levels[-1] = zero + terms[0]   # sample 0 flushes every level: it ends at the top
    rest = terms[1:]
    for level in range(_LEVELS - 1):
        if rest.size == 0:
            break
        full = rest.size // _GROUP
        levels[level] = _sequential(rest[full * _GROUP:], zero)   # the group still open at the end
        rest = _sequential(rest[:full * _GROUP].reshape(full, _GROUP), zero)   # closed groups, flushed upward
    levels[-1] = _sequential(rest, levels[-1])
    return _sequential(np.array(levels, terms.dtype), zero)


def _cascade_loop(terms: np.ndarray, skipped: np.ndarray):
    """The kernel's loop, sample by sample (a skipped sample is not added and does not flush)."""
    zero = np.zeros((), terms.dtype)[()]
    levels = [zero] * _LEVELS
    mask = _GROUP - 1
    for b, (term, skip) in enumerate(zip(terms, skipped)):
        if skip:
            continue
        levels[0] = levels[0] + term
        for j in range(_LEVELS - 1):
            if b & (mask << (j * 4)):
                break
            levels[j + 1] = levels[j + 1] + levels[j]
            levels[j] = zero
    return _sequential(np.array(levels, terms.dtype), zero)
