"""float32 softmax and log_softmax over the last dim, rounded as PyTorch's CPU kernels round them.

PyTorch's SoftMaxKernel.cpp (``_vec_softmax_lastdim``, ``_vec_log_softmax_lastdim`` and
``_vec_host_softmax_backward_lastdim``) works on each row with AVX-512 vectors of 16 floats:

- a row shorter than 16 is reduced one element after another, left to right (``vec_reduce_all`` with a size);
- a longer row accumulates lane-wise, one vector of 16 after another (the last, partial one only into its
  first lanes), then the 16 lanes are combined as a tree: lane i with lane i+8, then i+4, i+2 and i+1;
- exp is SLEEF's vector expf (``_float_math.sleef_expf``) on every element, partial vectors included, and
  log Σ is SLEEF's logf (``_float_math.sleef_logf``), which is not correctly rounded;
- softmax multiplies by 1/Σ (it does not divide by Σ); log_softmax subtracts the max, then log Σ;
- softmax's backward sums g·y with ``map2_reduce_all``: the compiler fuses the partial last vector's
  product into its addition (one rounding), not the whole vectors' (log_softmax's backward fuses
  g - e^y·Σ g everywhere).

Only the last dim is done here (PyTorch runs other kernels for the other dims); rows are independent, so
threads do not change the result.

Speed: rows shorter than 16 (class scores, say) are handled transposed, one row per column: NumPy then
works along the long axis (a call per op instead of a call per row), and ``np.add.reduce`` over axis 0 of
a C-contiguous array adds the slices one after another (its pairwise summation runs only along the
contiguous axis), which is the left-to-right order wanted.
"""
from __future__ import annotations

import numpy as np

from . import _float_math

_F32 = np.float32
_F64 = np.float64
_LANES = 16


def _rows(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x).reshape(-1, x.shape[-1]) if x.ndim else x.reshape(1, 1)


def _transposed(rows: np.ndarray) -> bool:
    """Whether to work on the transpose: short rows, and at least 2 of them (a single column would be
    reduced along its contiguous axis, pairwise)."""
    return rows.shape[1] < _LANES and rows.shape[0] > 1


def _sum_columns(columns: np.ndarray) -> np.ndarray:
    """Σ of each column of a C-contiguous (n, R) float32 array (R > 1), row 0 first, then row 1, ...

    Starting from -0 leaves the first row as it is (-0 + v = v), so this is v0 + v1 + ... + v(n-1).
    """
    return np.add.reduce(columns, axis=0, initial=-0.0)


def _reduce_rows(values: np.ndarray, factors: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """``vec::reduce_all`` (``map_reduce_all`` on mapped values) of each row of a 2-D float32 array: Σ.

    ``factors`` (a, b), when ``values`` is a·b: ``map2_reduce_all``, whose partial last vector is added as
    one fused multiply-add, acc + a·b rounded once (the compiler contracts it there, not in the main loop).
    """
    n = values.shape[1]
    if n < _LANES:   # one element after another, left to right
        if _transposed(values):
            return _sum_columns(values.T.copy())
        return np.add.accumulate(values, axis=1)[:, -1]   # (accumulate runs strictly in order)
    full = n - n % _LANES
    blocks = values[:, :full].reshape(values.shape[0], full // _LANES, _LANES)
    acc = np.add.reduce(blocks, axis=1, initial=-0.0)   # lane-wise, one vector after another (as above)
    if full < n:   # the partial vector: only its first lanes take part
        rest = n - full
        if factors is None:
            acc[:, :rest] += values[:, full:]
        else:
            acc[:, :rest] = _float_math._fma(factors[0][:, full:], factors[1][:, full:], acc[:, :rest])
    # AVX-512 ``vec_reduce_all``: lane i combined with lane i^8, then i^4, i^2, i^1; lane 0 is the result
    # (only lanes below the shift matter next, and for them i^shift is i + shift)
    for shift in (8, 4, 2):
        acc = acc[:, :shift] + acc[:, shift:2 * shift]
    return acc[:, 0] + acc[:, 1]


def _max_rows(rows: np.ndarray) -> np.ndarray:
    """The max of each row, (R, 1) (a max is exact in any order)."""
    if _transposed(rows):   # (np.max along short rows calls its loop once per row)
        return np.maximum.reduce(rows.T.copy(), axis=0)[:, None]
    return np.maximum.reduce(rows, axis=1, keepdims=True)


def _log(total: np.ndarray) -> np.ndarray:
    """log of the row sums: SLEEF's logf_u10 (``vec::map`` with ``Vectorized::log`` over them), step for step."""
    return _float_math.sleef_logf(total, positive=True)   # (Σ >= 1: e^0 = 1 is one of its terms; or nan)


def softmax(x: np.ndarray) -> np.ndarray:
    """softmax over the last dim: e^(x - max) · (1 / Σ e^(x - max))."""
    rows = _rows(x)
    if _transposed(rows):
        columns = rows.T.copy()
        np.subtract(columns, np.maximum.reduce(columns, axis=0), out=columns)
        e = _float_math.sleef_expf(columns)
        np.multiply(e, _F32(1) / _sum_columns(e), out=e)
        return e.T.copy().reshape(x.shape)
    e = _float_math.sleef_expf(rows - _max_rows(rows))
    np.multiply(e, (_F32(1) / _reduce_rows(e))[:, None], out=e)
    return e.reshape(x.shape)


def log_softmax(x: np.ndarray) -> np.ndarray:
    """log_softmax over the last dim: x - max - log Σ e^(x - max)."""
    rows = _rows(x)
    if _transposed(rows):
        columns = rows.T.copy()
        np.subtract(columns, np.maximum.reduce(columns, axis=0), out=columns)
        np.subtract(columns, _log(_sum_columns(_float_math.sleef_expf(columns))), out=columns)
        return columns.T.copy().reshape(x.shape)
    shifted = rows - _max_rows(rows)
    np.subtract(shifted, _log(_reduce_rows(_float_math.sleef_expf(shifted)))[:, None], out=shifted)
    return shifted.reshape(x.shape)


def softmax_backward(g: np.ndarray, y: np.ndarray) -> np.ndarray:
    """d softmax: (g - Σ g·y) · y, per row."""
    g2, y2 = _rows(g), _rows(y)
    if _transposed(y2):
        gt, yt = g2.T.copy(), y2.T.copy()
        total = _sum_columns(gt * yt)
        np.subtract(gt, total, out=gt)
        np.multiply(gt, yt, out=gt)
        return gt.T.copy().reshape(y.shape)
    return ((g2 - _reduce_rows(g2 * y2, (g2, y2))[:, None]) * y2).reshape(y.shape)


def log_softmax_backward(g: np.ndarray, y: np.ndarray) -> np.ndarray:
    """d log_softmax: g - e^y · Σ g, the product fused into the subtraction (float64 product and sum,
    rounded once). (g minus the product, not minus e^y plus g: a nan e^y keeps its sign, as in the fused
    multiply-add.)"""
    g2, y2 = _rows(g), _rows(y)
    product = np.multiply(_float_math.sleef_expf(y2), _reduce_rows(g2).astype(_F64)[:, None])
    return np.subtract(g2, product, out=np.empty(g2.shape, _F32)).reshape(y.shape)   # (rounded as stored)
