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


def _from_zero(values: np.ndarray, zero):
    """0 + v0 + v1 + ... of a 1-D array: v0 + v1 + ..., then + 0 (which only turns a -0 into +0)."""
    return np.add.accumulate(values)[-1] + zero if values.size else zero


def _group_sums(values: np.ndarray, zero) -> np.ndarray:
    """0 + v0 + ... + v15 for each group of 16 consecutive values (the length is a multiple of 16)."""
    groups = values.reshape(-1, _GROUP)
    if groups.shape[0] < 2:   # (a single column would be reduced along its contiguous axis, pairwise)
        return np.add.accumulate(groups, axis=1)[:, -1] + zero
    # over axis 0 of a C-contiguous array np.add.reduce adds one slice after another, from the initial value
    return np.add.reduce(np.ascontiguousarray(groups.T), axis=0, initial=zero)


def cascade_sum(terms: np.ndarray, skipped: np.ndarray | None = None):
    """Σ terms as nll_loss_out_frame adds them; ``skipped`` marks samples left out (ignore_index)."""
    zero = np.zeros((), terms.dtype)[()]
    if terms.size == 0:
        return zero
    if skipped is not None and skipped.any():
        return _cascade_loop(terms, skipped)
    # The result is 0 + level 0 + level 1 + ... + level 7. A level left at +0 is not added: no partial sum
    # of a series starting at +0 is -0, so adding +0 would change nothing.
    total = zero
    rest = terms[1:]
    for _level in range(_LEVELS - 1):
        if rest.size == 0:
            break
        full = rest.size // _GROUP * _GROUP
        total = total + _from_zero(rest[full:], zero)   # the group still open at the end
        rest = _group_sums(rest[:full], zero)            # closed groups, flushed upward
    top = zero + terms[0]   # sample 0 flushes every level: it ends at the top
    return np.asarray(total + (_sequential(rest, top) if rest.size else top))   # (a 0-d array)


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
