"""float32 and float64 softmax and log_softmax, and their gradients, rounded as PyTorch's CPU kernels round them.

Over the last dim, PyTorch's SoftMaxKernel.cpp (``_vec_softmax_lastdim``, ``_vec_log_softmax_lastdim`` and
``_vec_host_softmax_backward_lastdim``) works on each row with AVX-512 vectors (16 floats, or 8 doubles):

- a row shorter than a vector is reduced one element after another, left to right (``vec_reduce_all`` with a
  size);
- a longer row accumulates lane-wise, one vector after another (the last, partial one only into its first
  lanes), then the lanes are combined: for float32 as a tree (AVX-512's specialisation: lane i with lane i+8,
  then i+4, i+2 and i+1), for float64 one lane after another, left to right (the generic ``vec_reduce_all``);
- exp is SLEEF's vector exp (``_float_math.sleef_expf`` / ``sleef_exp64``) on every element, partial vectors
  included, and log Σ is SLEEF's log (``sleef_logf`` / ``sleef_log64``), which is not correctly rounded;
- softmax multiplies by 1/Σ (it does not divide by Σ); log_softmax subtracts the max, then log Σ;
- softmax's backward sums g·y with ``map2_reduce_all``: for float32 the compiler fuses the partial last
  vector's product into its addition (one rounding), not the whole vectors', except in the copy of the loop
  that runs on several threads (several rows, more than one thread), which fuses none; for float64 it fuses
  none.
  log_softmax's backward fuses g - e^y·Σ g everywhere (both dtypes).

Rows are independent, so threads do not change the result there.

Speed: rows shorter than a vector (class scores, say) are handled transposed, one row per column: NumPy then
works along the long axis (a call per op instead of a call per row), and ``np.add.reduce`` over axis 0 of
a C-contiguous array adds the slices one after another (its pairwise summation runs only along the
contiguous axis), which is the left-to-right order wanted.

Other dims: see the section at the end.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from . import _float_math, _strides

_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)


class _Kernel(NamedTuple):
    """What differs between PyTorch's float32 and float64 softmax kernels."""
    lanes: int                 # elements in an AVX-512 vector
    vector_exp: Callable       # Vectorized<T>::exp: SLEEF's
    scalar_exp: Callable       # std::exp (the scalar tails of the other-dim kernels): glibc's
    log: Callable              # Vectorized<T>::log (SLEEF's) of row sums
    fma: Callable              # a·b + c rounded once
    tree: bool                 # lanes combined as a tree (else one after another)
    fused_tail: bool           # map2_reduce_all fuses the partial last vector's product into its sum (and the
    #                            loops' inline copies treat that vector apart: see _nan_sum)
    own_nan_tail: bool         # softmax's e · (1/Σ) of two NaNs gives e's (else 1/Σ's) in a row's partial last vector


def _fma64(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """float64 a·b + c rounded once; where the emulation gives nan (inf or nan operands), c + a·b."""
    out = _float_math._fma64(a, b, c)
    bad = np.isnan(out)
    if bad.any():
        out = np.where(bad, c + a * b, out)
    return out


_KERNELS = {
    _F32: _Kernel(16, _float_math.sleef_expf, _float_math.glibc_expf,
                  lambda t: _float_math.sleef_logf(t, positive=True),   # (Σ >= 1: e^0 = 1 is a term; or nan)
                  _float_math._fma, tree=True, fused_tail=True, own_nan_tail=False),
    _F64: _Kernel(8, _float_math.sleef_exp64, _float_math._exp64,
                  lambda t: _float_math.sleef_log64(t, positive=True),
                  _fma64, tree=False, fused_tail=False, own_nan_tail=True),
}


def supports(x: np.ndarray) -> bool:
    """Whether these kernels cover x's dtype (float32, float64)."""
    return x.dtype in _KERNELS


def _rows(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x).reshape(-1, x.shape[-1]) if x.ndim else x.reshape(1, 1)


def _transposed(rows: np.ndarray) -> bool:
    """Whether to work on the transpose: short rows, and at least 2 of them (a single column would be
    reduced along its contiguous axis, pairwise)."""
    return rows.shape[1] < _KERNELS[rows.dtype].lanes and rows.shape[0] > 1


def _sum_columns(columns: np.ndarray) -> np.ndarray:
    """Σ of each column of a C-contiguous (n, R) array (R > 1), row 0 first, then row 1, ...

    Starting from -0 leaves the first row as it is (-0 + v = v), so this is v0 + v1 + ... + v(n-1).
    """
    return np.add.reduce(columns, axis=0, initial=-0.0)


def _reduce_rows(values: np.ndarray, factors: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """``vec::reduce_all`` (``map_reduce_all`` on mapped values) of each row of a 2-D array: Σ.

    ``factors`` (a, b), when ``values`` is a·b: ``map2_reduce_all``, whose partial last vector the float32
    build adds as one fused multiply-add, acc + a·b rounded once (the compiler contracts it there, not in the
    main loop).
    """
    kernel = _KERNELS[values.dtype]
    lanes, n = kernel.lanes, values.shape[1]
    if n < lanes:   # one element after another, left to right
        if _transposed(values):
            return _sum_columns(values.T.copy())
        return np.add.accumulate(values, axis=1)[:, -1]   # (accumulate runs strictly in order)
    full = n - n % lanes
    blocks = values[:, :full].reshape(values.shape[0], full // lanes, lanes)
    acc = np.add.reduce(blocks, axis=1, initial=-0.0)   # lane-wise, one vector after another (as above)
    if full < n:   # the partial vector: only its first lanes take part
        rest = n - full
        if factors is None or not kernel.fused_tail:
            acc[:, :rest] += values[:, full:]
        else:
            acc[:, :rest] = kernel.fma(factors[0][:, full:], factors[1][:, full:], acc[:, :rest])
    if not kernel.tree:   # lane 0 + lane 1 + ... in order
        return np.add.accumulate(acc, axis=1)[:, -1]
    # AVX-512 ``vec_reduce_all`` of floats: lane i combined with lane i^8, then i^4, i^2, i^1; lane 0 is the
    # result (only lanes below the shift matter next, and for them i^shift is i + shift)
    for shift in (8, 4, 2):
        acc = acc[:, :shift] + acc[:, shift:2 * shift]
    return acc[:, 0] + acc[:, 1]


def _max_rows(rows: np.ndarray) -> np.ndarray:
    """The max of each row, (R, 1) (a max is exact in any order)."""
    if _transposed(rows):   # (np.max along short rows calls its loop once per row)
        return _vector_max(rows.T.copy(), 0)[:, None]
    return _vector_max(rows, 1, keepdims=True)


def _vector_max(a: np.ndarray, axis: int, keepdims: bool = False) -> np.ndarray:
    """The max along ``axis``, a row with a NaN giving the NaN with every bit set, as Vectorized<T>::maximum
    (it ORs the unordered-compare mask into the result); x - max then carries that NaN, except where x is a NaN."""
    m = np.maximum.reduce(a, axis=axis, keepdims=keepdims)
    nan = np.isnan(m)
    if nan.any():
        m = np.where(nan, np.array(-1, np.int32 if m.dtype == _F32 else np.int64).view(m.dtype), m)
    return m


def _minus_product(g: np.ndarray, e: np.ndarray, total: np.ndarray) -> np.ndarray:
    """g - e·total rounded once (the fused multiply-add the compiler makes of it). (g minus the product, not
    minus e plus g: a nan e keeps its sign, as in the fused multiply-add.)"""
    if g.dtype == _F32:   # (the product of two floats is exact in float64)
        product = np.multiply(e, total.astype(_F64))
        return np.subtract(g, product, out=np.empty(g.shape, _F32))   # (rounded as stored)
    out = _float_math._fma64(-e, total, g)
    bad = np.isnan(out)
    if bad.any():   # (nan or inf operands, which the emulated fma turns into nan: the plain formula's value)
        out = np.where(bad, g - e * total, out)
    return out


def softmax(x: np.ndarray, threads: int = 1) -> np.ndarray:
    """softmax over the last dim: e^(x - max) · (1 / Σ e^(x - max)) (``threads``: torch's intra-op thread count)."""
    rows = _rows(x)
    exp, one = _KERNELS[rows.dtype].vector_exp, rows.dtype.type(1)
    if _transposed(rows):
        columns = rows.T.copy()
        np.subtract(columns, _vector_max(columns, 0), out=columns)
        e = exp(columns)
        total = _sum_columns(e)
        nan = np.isnan(total)
        if nan.any():
            total[nan] = _nan_sum(e[:, nan].T)
        return _times_inverse(e, one / total).T.copy().reshape(x.shape)
    e = exp(rows - _max_rows(rows))
    total = _reduce_rows(e)
    nan = np.isnan(total)
    if nan.any():   # (several rows and threads: the OpenMP-outlined copy of the loop, see softmax_backward)
        total[nan] = _nan_sum(e[nan], outlined=len(e) > 1 and threads > 1)
    return _times_inverse(e.T, one / total).T.reshape(x.shape)


def _nan_sum(rows: np.ndarray, outlined: bool = False) -> np.ndarray:
    """Which NaN ``vec::reduce_all`` gives for rows of values with NaNs (NumPy's sums may give another).

    Where two NaNs meet, the compiled additions keep the accumulator's in a row shorter than a vector, in the
    whole vectors and when float64 lanes are combined one after another; but the partial last vector's (except in
    the ``outlined`` copy of float32's loop, as for ``fused_tail``), and in float32's tree the other half's, except
    at the 4-lane step (measured on PyTorch 2.13's build)."""
    kernel = _KERNELS[rows.dtype]
    lanes, n = kernel.lanes, rows.shape[1]
    if n < lanes:
        return _first_nan(rows)
    full = n - n % lanes
    acc = _first_nan(rows[:, :full].reshape(len(rows), -1, lanes).transpose(0, 2, 1))
    if full < n:
        tail_first = not (outlined and kernel.fused_tail)
        acc[:, :n - full] = _nan_of(acc[:, :n - full], rows[:, full:], second_first=tail_first)
    if not kernel.tree:
        return _first_nan(acc)
    for shift, second_first in ((8, True), (4, False), (2, True), (1, True)):
        acc = _nan_of(acc[:, :shift], acc[:, shift:2 * shift], second_first)
    return acc[:, 0]


def _first_nan(values: np.ndarray) -> np.ndarray:
    """The first NaN along the last axis (the first value where there is none)."""
    return np.take_along_axis(values, np.isnan(values).argmax(-1)[..., None], -1)[..., 0]


def _nan_of(a: np.ndarray, b: np.ndarray, second_first: bool) -> np.ndarray:
    """a + b's NaN: the NaN operand's, and where both are NaNs, b's if ``second_first`` else a's."""
    return np.where(np.isnan(b) & (second_first | ~np.isnan(a)), b, a)


def _times_inverse(e: np.ndarray, inverse: np.ndarray) -> np.ndarray:
    """e · (1/Σ) in place, column j of e (a row of the input) by inverse[j].

    A row with a NaN has a NaN Σ, and every output of it is a NaN: 1/Σ's, except where e is a NaN in the row's
    partial last vector of float64s, which keeps its own (the compiled product orders its operands so; NumPy's
    picks either, by its loop)."""
    nan = np.isnan(inverse)
    if nan.any():   # the NaN rows' outputs, bits included
        nans = np.broadcast_to(inverse[nan], (e.shape[0], int(nan.sum()))).copy()
        kernel = _KERNELS[e.dtype]
        if kernel.own_nan_tail:
            tail = slice(e.shape[0] - e.shape[0] % kernel.lanes, None)
            own = e[tail][:, nan]
            nans[tail] = np.where(np.isnan(own), own, nans[tail])
    np.multiply(e, inverse, out=e)
    if nan.any():
        e[:, nan] = nans
    return e


def log_softmax(x: np.ndarray) -> np.ndarray:
    """log_softmax over the last dim: x - max - log Σ e^(x - max)."""
    rows = _rows(x)
    kernel = _KERNELS[rows.dtype]
    if _transposed(rows):
        columns = rows.T.copy()
        np.subtract(columns, _vector_max(columns, 0), out=columns)
        np.subtract(columns, kernel.log(_sum_columns(kernel.vector_exp(columns))), out=columns)
        return columns.T.copy().reshape(x.shape)
    shifted = rows - _max_rows(rows)
    np.subtract(shifted, kernel.log(_reduce_rows(kernel.vector_exp(shifted)))[:, None], out=shifted)
    return shifted.reshape(x.shape)


def softmax_backward(g: np.ndarray, y: np.ndarray, threads: int = 1) -> np.ndarray:
    """d softmax: (g - Σ g·y) · y, per row (``threads``: torch's intra-op thread count)."""
    g2, y2 = _rows(g), _rows(y)
    if _transposed(y2):
        gt, yt = g2.T.copy(), y2.T.copy()
        total = _sum_columns(gt * yt)
        np.subtract(gt, total, out=gt)
        np.multiply(gt, yt, out=gt)
        return gt.T.copy().reshape(y.shape)
    # (the kernel's parallel_for has grain 0: several rows and threads run the OpenMP-outlined copy of the
    # loop, which rounds g·y before adding it; one row or one thread runs the inline copy, which fuses the
    # partial last vector's product: measured on PyTorch 2.13's build)
    factors = (g2, y2) if g2.shape[0] == 1 or threads == 1 else None
    return ((g2 - _reduce_rows(g2 * y2, factors)[:, None]) * y2).reshape(y.shape)


def log_softmax_backward(g: np.ndarray, y: np.ndarray) -> np.ndarray:
    """d log_softmax: g - e^y · Σ g, the product fused into the subtraction."""
    g2, y2 = _rows(g), _rows(y)
    e = _KERNELS[y2.dtype].vector_exp(y2)
    return _minus_product(g2, e, _reduce_rows(g2)[:, None]).reshape(y.shape)


# ---- over another dim -------------------------------------------------------------------------------------
# PyTorch's kernels for a dim that is not the last (``_vec_softmax``, ``_vec_log_softmax``,
# ``_vec_softmax_backward``, ``_vec_log_softmax_backward`` in SoftMaxKernel.cpp) see the contiguous tensor as
# (outer, dim, inner) and work on a vector of inner positions at a time, walking along dim one slice after
# another: every Σ runs over dim in order (g·y fused into it in softmax's backward). Inner positions that do not
# fill a whole vector take the scalar code, whose exp is glibc's (std::exp); whole vectors use SLEEF's. log Σ
# is SLEEF's everywhere (``vec::map`` over the sums).

def _slices(x: np.ndarray, dim: int) -> np.ndarray:
    """x as (dim, outer, inner): slice k along dim is [k] (a view of the contiguous array)."""
    x = np.ascontiguousarray(x)
    inner = int(np.prod(x.shape[dim + 1:]))
    return x.reshape(-1, x.shape[dim], inner).transpose(1, 0, 2)


def _unslice(values: np.ndarray, shape: tuple) -> np.ndarray:
    # (contiguous strides for size-1 dims too: NumPy's C-contiguous flag ignores theirs, which later views show)
    return _strides.contiguous(values.transpose(1, 0, 2).reshape(shape))


def _in_order(values: np.ndarray) -> np.ndarray:
    """Σ over axis 0, slice 0 first, then slice 1, ... (_sum_columns: NumPy adds whole slices in order)."""
    columns = values.reshape(values.shape[0], -1)
    # (np.add.reduce sums pairwise along a contiguous axis: a single column, or the slices' view when inner is 1)
    if columns.shape[1] == 1:
        return np.add.accumulate(columns[:, 0])[-1:].reshape(values.shape[1:])
    return np.add.reduce(np.ascontiguousarray(columns), axis=0, initial=-0.0).reshape(values.shape[1:])


def _two_paths(kernel: _Kernel, x: np.ndarray) -> np.ndarray:
    """e^x, SLEEF's on the leading inner positions that fill whole vectors, glibc's on the rest (x: (..., inner))."""
    inner = x.shape[-1]
    k = inner - inner % kernel.lanes
    if k == 0:
        return kernel.scalar_exp(x)
    out = kernel.vector_exp(x)
    if k < inner:
        out[..., k:] = kernel.scalar_exp(x[..., k:])
    return out


def _softmax_vector_positions(outer: int, inner: int, threads: int, lanes: int = 16) -> np.ndarray:
    """Which (outer, inner) positions ``_vec_softmax`` takes as vectors. It splits the outer·inner positions
    evenly across threads; a thread's range takes whole vectors of ``lanes`` while they fit both in the row and
    in the range, and the scalar code for the rest of each row (or of the range)."""
    n = outer * inner
    chunk = -(-n // threads) if threads > 1 and n > 1 else n   # (at::parallel_for, OpenMP)
    vector = np.zeros(n, bool)
    for begin in range(0, n, chunk):
        idx, end = begin, min(n, begin + chunk)
        while idx < end:
            column = idx % inner
            blocks = min(inner - column, end - idx) // lanes
            if blocks:
                vector[idx:idx + blocks * lanes] = True
                idx += blocks * lanes
            else:
                idx += min(end - idx, inner - column)   # the scalar tail (of the range, or of the row)
    return vector.reshape(outer, inner)


def softmax_dim(x: np.ndarray, dim: int, threads: int) -> np.ndarray:
    """softmax over a dim that is not the last: e^(x - max) / Σ e^(x - max), Σ over dim in order."""
    kernel = _KERNELS[x.dtype]
    s = _slices(x, dim)
    vector = _softmax_vector_positions(s.shape[1], s.shape[2], threads, kernel.lanes)
    m = np.maximum.reduce(s, axis=0)
    nan = np.isnan(m)
    if nan.any():   # the vector code's maximum gives the NaN with every bit set; the scalar code's std::max fold
        # keeps a NaN first value and skips the later ones
        m[nan & vector] = _vector_max(s[:, nan & vector], 0) if len(s) > 1 else s[0, nan & vector]
        scalar = nan & ~vector
        m[scalar] = np.where(np.isnan(s[0, scalar]), s[0, scalar], np.fmax.reduce(s[:, scalar], axis=0))
    shifted = s - m
    if vector.all():
        e = kernel.vector_exp(shifted)
    elif not vector.any():
        e = kernel.scalar_exp(shifted)
    else:
        e = kernel.vector_exp(shifted)
        e[:, ~vector] = kernel.scalar_exp(shifted[:, ~vector])
    np.divide(e, _in_order(e), out=e)   # (divides; the last-dim kernel multiplies by 1/Σ)
    return _unslice(e, x.shape)


def log_softmax_dim(x: np.ndarray, dim: int) -> np.ndarray:
    """log_softmax over a dim that is not the last: (x - max) - log Σ e^(x - max)."""
    kernel = _KERNELS[x.dtype]
    s = _slices(x, dim)
    m = np.maximum.reduce(s, axis=0)
    nan = np.isnan(m)
    if nan.any():   # the kernel's max skips NaNs (it takes x where x > max), from -inf
        m[nan] = np.fmax.reduce(s[:, nan], axis=0, initial=-np.inf)
    shifted = s - m
    e = _two_paths(kernel, shifted)
    total = _in_order(e)
    nan = np.isnan(total)
    if nan.any():   # where two NaNs meet, the compiled sum += e^(x - max) keeps the new term's: the last NaN
        total[nan] = _first_nan(e[::-1, nan].T)
    np.subtract(shifted, kernel.log(total), out=shifted)
    return _unslice(shifted, x.shape)


def softmax_backward_dim(g: np.ndarray, y: np.ndarray, dim: int) -> np.ndarray:
    """d softmax over another dim: y · (g - Σ g·y), Σ over dim in order, each g·y fused into the sum."""
    fma = _KERNELS[y.dtype].fma
    gs, ys = _slices(g, dim), _slices(y, dim)
    total = np.zeros(gs.shape[1:], y.dtype)
    for k in range(gs.shape[0]):
        total = fma(gs[k], ys[k], total)
    return _unslice(ys * (gs - total), g.shape)


def log_softmax_backward_dim(g: np.ndarray, y: np.ndarray, dim: int) -> np.ndarray:
    """d log_softmax over another dim: g - e^y · Σ g, Σ over dim in order, the product fused (rounded once)."""
    gs, ys = _slices(g, dim), _slices(y, dim)
    return _unslice(_minus_product(gs, _two_paths(_KERNELS[y.dtype], ys), _in_order(gs)), g.shape)
