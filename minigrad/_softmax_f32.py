"""float32 softmax and log_softmax over the last dim, rounded as PyTorch's CPU kernels round them.

PyTorch's SoftMaxKernel.cpp (``_vec_softmax_lastdim``, ``_vec_log_softmax_lastdim`` and
``_vec_host_softmax_backward_lastdim``) works on each row with AVX-512 vectors of 16 floats:

- a row shorter than 16 is reduced one element after another, left to right (``vec_reduce_all`` with a size);
- a longer row accumulates lane-wise, one vector of 16 after another (the last, partial one only into its
  first lanes), then the 16 lanes are combined as a tree: lane i with lane i+8, then i+4, i+2 and i+1;
- exp is SLEEF's vector expf (``_float_math.sleef_expf``) on every element, partial vectors included;
- softmax multiplies by 1/Σ (it does not divide by Σ); log_softmax subtracts the max, then log Σ.

Only the last dim is done here (PyTorch runs other kernels for the other dims); rows are independent, so
threads do not change the result.
"""
from __future__ import annotations

import numpy as np

from . import _float_math
from ._fused import fma

_F32 = np.float32
_LANES = 16


def _lane_tree(acc: np.ndarray, op) -> np.ndarray:
    """AVX-512 ``vec_reduce_all``: lanes combined with lane i^8, then i^4, i^2, i^1; lane 0 is the result."""
    for shift in (8, 4, 2, 1):
        acc = op(acc, acc[:, np.arange(_LANES) ^ shift])
    return acc[:, 0]


def _reduce_rows(values: np.ndarray, op) -> np.ndarray:
    """``vec::reduce_all`` (``map_reduce_all`` on mapped values) of each row of a 2-D float32 array."""
    n = values.shape[1]
    if n < _LANES:   # one element after another, left to right (accumulate runs strictly in order)
        return op.accumulate(values, axis=1)[:, -1]
    full = n - n % _LANES
    blocks = values[:, :full].reshape(values.shape[0], full // _LANES, _LANES)
    acc = op.accumulate(blocks, axis=1)[:, -1]   # lane-wise, one vector after another
    if full < n:   # the partial vector: only its first lanes take part
        rest = n - full
        acc = acc.copy()
        acc[:, :rest] = op(acc[:, :rest], values[:, full:])
    return _lane_tree(acc, op)


def _rows(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x).reshape(-1, x.shape[-1]) if x.ndim else x.reshape(1, 1)


def softmax(x: np.ndarray) -> np.ndarray:
    """softmax over the last dim: e^(x - max) · (1 / Σ e^(x - max))."""
    rows = _rows(x)
    e = _float_math.sleef_expf(rows - np.max(rows, axis=1, keepdims=True))   # (a max is exact in any order)
    inverse = _F32(1) / _reduce_rows(e, np.add)
    return (e * inverse[:, None]).reshape(x.shape)


def log_softmax(x: np.ndarray) -> np.ndarray:
    """log_softmax over the last dim: x - max - log Σ e^(x - max)."""
    rows = _rows(x)
    top = np.max(rows, axis=1, keepdims=True)
    total = _reduce_rows(_float_math.sleef_expf(rows - top), np.add)
    log_total = np.log(total.astype(np.float64)).astype(_F32)   # (SLEEF's logf: its correctly rounded value)
    return (rows - top - log_total[:, None]).reshape(x.shape)


def softmax_backward(g: np.ndarray, y: np.ndarray) -> np.ndarray:
    """d softmax: (g - Σ g·y) · y, per row."""
    g2, y2 = _rows(g), _rows(y)
    return ((g2 - _reduce_rows(g2 * y2, np.add)[:, None]) * y2).reshape(y.shape)


def log_softmax_backward(g: np.ndarray, y: np.ndarray) -> np.ndarray:
    """d log_softmax: g - e^y · Σ g, the product fused into the subtraction."""
    g2, y2 = _rows(g), _rows(y)
    total = _reduce_rows(g2, np.add)
    return fma(-_float_math.sleef_expf(y2), total[:, None], g2, _F32).reshape(y.shape)
