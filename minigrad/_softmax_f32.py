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


# ---- over another dim -------------------------------------------------------------------------------------
# PyTorch's kernels for a dim that is not the last (``_vec_softmax``, ``_vec_log_softmax``,
# ``_vec_softmax_backward``, ``_vec_log_softmax_backward`` in SoftMaxKernel.cpp) see the contiguous tensor as
# (outer, dim, inner) and work on 16 inner positions at a time, walking along dim one slice after another:
# every Σ runs over dim in order. Inner positions that do not fill a whole vector take the scalar code, whose
# exp and log are glibc's (std::exp, std::log); whole vectors use SLEEF's.

_glibc_logf = _float_math.libm_float("logf", np.log)


def _slices(x: np.ndarray, dim: int) -> np.ndarray:
    """x as (dim, outer, inner): slice k along dim is [k] (a view of the contiguous array)."""
    x = np.ascontiguousarray(x)
    inner = int(np.prod(x.shape[dim + 1:]))
    return x.reshape(-1, x.shape[dim], inner).transpose(1, 0, 2)


def _unslice(values: np.ndarray, shape: tuple) -> np.ndarray:
    return np.ascontiguousarray(values.transpose(1, 0, 2)).reshape(shape)


def _in_order(values: np.ndarray) -> np.ndarray:
    """Σ over axis 0, slice 0 first, then slice 1, ... (_sum_columns: NumPy adds whole slices in order)."""
    return np.add.reduce(values.reshape(values.shape[0], -1), axis=0, initial=-0.0).reshape(values.shape[1:])


def _vector_columns(inner: int) -> int:
    """How many leading inner positions the vector code takes (the rest: the scalar code)."""
    return inner - inner % _LANES


def _two_paths(vector, scalar, x: np.ndarray) -> np.ndarray:
    """``vector`` on the inner positions of whole vectors, ``scalar`` on the rest (x: (..., inner))."""
    k = _vector_columns(x.shape[-1])
    if k == 0:
        return scalar(x)
    out = vector(x)
    if k < x.shape[-1]:
        out[..., k:] = scalar(x[..., k:])
    return out


def _softmax_vector_positions(outer: int, inner: int, threads: int) -> np.ndarray:
    """Which (outer, inner) positions ``_vec_softmax`` takes as vectors. It splits the outer·inner positions
    evenly across threads; a thread's range takes whole vectors of 16 while they fit both in the row and in
    the range, and the scalar code for the rest of each row (or of the range)."""
    n = outer * inner
    chunk = -(-n // threads) if threads > 1 and n > 1 else n   # (at::parallel_for, OpenMP)
    vector = np.zeros(n, bool)
    for begin in range(0, n, chunk):
        idx, end = begin, min(n, begin + chunk)
        while idx < end:
            column = idx % inner
            blocks = min(inner - column, end - idx) // _LANES
            if blocks:
                vector[idx:idx + blocks * _LANES] = True
                idx += blocks * _LANES
            else:
                idx += min(end - idx, inner - column)   # the scalar tail (of the range, or of the row)
    return vector.reshape(outer, inner)


def softmax_dim(x: np.ndarray, dim: int, threads: int) -> np.ndarray:
    """softmax over a dim that is not the last: e^(x - max) / Σ e^(x - max), Σ over dim in order."""
    s = _slices(x, dim)
    shifted = s - np.maximum.reduce(s, axis=0)
    vector = _softmax_vector_positions(s.shape[1], s.shape[2], threads)
    e = _float_math.glibc_expf(shifted)
    if vector.any():
        e = np.where(vector, _float_math.sleef_expf(shifted), e)
    np.divide(e, _in_order(e), out=e)   # (divides; the last-dim kernel multiplies by 1/Σ)
    return _unslice(e, x.shape)


def log_softmax_dim(x: np.ndarray, dim: int) -> np.ndarray:
    """log_softmax over a dim that is not the last: (x - max) - log Σ e^(x - max)."""
    s = _slices(x, dim)
    shifted = s - np.maximum.reduce(s, axis=0)
    total = _in_order(_two_paths(_float_math.sleef_expf, _float_math.glibc_expf, shifted))
    np.subtract(shifted, _log(total), out=shifted)   # (SLEEF's log on every Σ: vec::map over them)
    return _unslice(shifted, x.shape)


def softmax_backward_dim(g: np.ndarray, y: np.ndarray, dim: int) -> np.ndarray:
    """d softmax over another dim: y · (g - Σ g·y), Σ over dim in order, each g·y fused into the sum."""
    gs, ys = _slices(g, dim), _slices(y, dim)
    total = np.zeros(gs.shape[1:], _F32)
    for k in range(gs.shape[0]):
        total = _float_math._fma(gs[k], ys[k], total)
    return _unslice(ys * (gs - total), g.shape)


def log_softmax_backward_dim(g: np.ndarray, y: np.ndarray, dim: int) -> np.ndarray:
    """d log_softmax over another dim: g - e^y · Σ g, Σ over dim in order, the product fused (rounded once)."""
    gs, ys = _slices(g, dim), _slices(y, dim)
    product = np.multiply(_two_paths(_float_math.sleef_expf, _float_math.glibc_expf, ys),
                          _in_order(gs).astype(_F64))
    return _unslice(np.subtract(gs, product, out=np.empty(gs.shape, _F32)), g.shape)
