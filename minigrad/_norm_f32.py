"""float32 and float64 vector norms (p = 1 and 2) summed in PyTorch's CPU order, so that they round as
PyTorch's do.

PyTorch's ``norm_stub`` (ATen/native/cpu/ReduceOpsKernel.cpp, its AVX2 build: this kernel has no AVX-512
one) takes one of two loops, measured bit for bit against PyTorch 2.13:

- p = 2 over one contiguous run of the input (``dim=None`` on a contiguous tensor, the last dim of a
  contiguous matrix ...): ``binary_kernel_reduce_lastdim``. Eight lanes add the squares of each block of 8
  (``acc += x * x``, products rounded), then ``lane0 + lane1 + ... + lane7`` in order, then the last
  ``n % 8`` values one by one: the first 4 of them (when there are 4) as rounded squares (the compiler
  vectorizes those products), the rest as fused multiply-adds ``fma(x, x, acc)``. Then sqrt. float64 runs
  the same loop with four lanes (Vectorized<double>::size()), so its tail of at most 3 values is all FMAs.
- anything else (p = 1, a strided input, a reduction over the first dim ...): ``binary_kernel_reduce``,
  ``0 + f(x0) + f(x1) + ...`` in the iterator's order (f(x) = x·x rounded, or |x|), one value at a time;
  a single output of at least GRAIN_SIZE values is split into one part per thread, then ``0 + part0 + ...``.
"""
from __future__ import annotations

import numpy as np

from . import _reduce
from ._float_math import libm_double, libm_float
from ._fused import fma

_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
_LANES = {_F32: 8, _F64: 4}   # Vectorized<float>::size(), Vectorized<double>::size() in the AVX2 kernel


def vector_norm(a: np.ndarray, ord: float, axes, single: bool = True) -> np.ndarray:
    """The p-norm (p other than 0 and ±inf) of a non-empty float32 / float64 ``a`` over ``axes`` (None: all),
    reduced dims dropped. ``single=False``: one element per result still goes through the kernel (x^p, root)."""
    if a.ndim == 1 and a.size > 1:   # (the usual x.norm(): no dims to sort)
        x = a.reshape(1, -1)
        if ord == 2 and a.strides[0] == a.itemsize:
            return np.sqrt(_lastdim_sum_of_squares(x)).reshape(())
        return _finish(_serial(_terms(x, ord)), ord).reshape(())
    nd = a.ndim
    red = tuple(range(nd)) if axes is None else tuple(sorted({int(d) % nd for d in (
        (axes,) if isinstance(axes, (int, np.integer)) else axes)}))
    out_shape = tuple(a.shape[d] for d in range(nd) if d not in red)
    big = [d for d in red if a.shape[d] > 1]
    if not big and single:   # every reduced dim has size 1: PyTorch returns |x| itself (no x·x to overflow)
        return np.abs(a).reshape(out_shape)
    # The reduced dims in the iterator's order: the smallest stride innermost.
    big.sort(key=lambda d: -abs(a.strides[d]))
    kept = [d for d in range(nd) if d not in red]
    lines = a.transpose(kept + [d for d in red if a.shape[d] == 1] + big)
    length = int(np.prod([a.shape[d] for d in big]))
    if ord == 2 and _one_run(a, big):
        x = lines.reshape(-1, length)
        return np.sqrt(_lastdim_sum_of_squares(x)).reshape(out_shape)
    x = lines.reshape(-1, length)
    return _finish(_serial(_terms(x, ord)), ord).reshape(out_shape)


# glibc's pow and powf: NormOps (SharedReduceOps.h) calls std::pow in the accumulate type (float for float32)
_POW = {_F32: libm_float("powf", np.power, 2), _F64: libm_double("pow", np.power, 2)}


def _terms(x: np.ndarray, ord: float) -> np.ndarray:
    """What the kernel adds up: |x| (p = 1, NormOneOps), x·x rounded (p = 2, NormTwoOps), else NormOps'
    ``std::pow(|x|, p)`` with p in x's dtype."""
    if ord == 1:
        return np.abs(x)
    if ord == 2:
        return x * x
    return _POW[x.dtype](np.abs(x), x.dtype.type(ord))


def _finish(total: np.ndarray, ord: float) -> np.ndarray:
    """NormOps' project: the sum itself (p = 1), its sqrt (p = 2), else ``std::pow(sum, 1 / p)`` (1/p rounded to
    the dtype first: ``acc_t(1.0) / norm_``)."""
    if ord == 1:
        return total
    if ord == 2:
        return np.sqrt(total)
    dt = total.dtype
    return _POW[dt](total, dt.type(1) / dt.type(ord)).astype(dt, copy=False)


def _one_run(a: np.ndarray, big: list) -> bool:
    """Whether the reduced dims (size > 1, by stride, largest first) coalesce into one contiguous run with the
    smallest stride of all: PyTorch's ``is_reduce_lastdim`` (a kept dim of stride 0, an expanded one, is
    ordered by the output's strides: outside the run)."""
    step = a.itemsize
    for d in reversed(big):
        if a.strides[d] != step:
            return False
        step *= a.shape[d]
    return all(a.strides[d] >= step or a.strides[d] == 0 or a.shape[d] == 1 for d in range(a.ndim) if d not in big)


def _lastdim_sum_of_squares(x: np.ndarray) -> np.ndarray:
    """``binary_kernel_reduce_lastdim``'s Σx² of each row of x (rows, n): 8 lanes (float64: 4), their sum,
    then the tail."""
    n, dt = x.shape[1], x.dtype
    width = _LANES[dt]
    body = n - n % width
    if body:
        sq = x[:, :body] * x[:, :body]
        lanes = np.cumsum(sq.reshape(len(x), -1, width), axis=1, dtype=dt)[:, -1]   # lane by lane, in order
        acc = np.cumsum(lanes, axis=1, dtype=dt)[:, -1]                              # lane0 + lane1 + ...
    else:
        acc = np.zeros(len(x), dt)
    d = body
    if n - d >= 4:   # four rounded squares, added in order (float32 only: float64's tail is shorter)
        for k in range(d, d + 4):
            acc = acc + x[:, k] * x[:, k]
        d += 4
    for k in range(d, n):   # fma(x, x, acc), rounded once
        acc = fma(x[:, k], x[:, k], acc, dt)
    return acc


def _serial(terms: np.ndarray) -> np.ndarray:
    """``binary_kernel_reduce``: 0 + t0 + t1 + ... along the last axis of terms (outputs, n), in their dtype."""
    outputs, n = terms.shape
    dt = terms.dtype
    threads = _reduce.THREADS[0]
    if outputs == 1 and n >= _reduce.GRAIN_SIZE and threads > 1:
        tasks = min(threads, -(-n // _reduce.GRAIN_SIZE))
        chunk = -(-n // tasks)
        total = dt.type(0)
        for begin in range(0, n, chunk):
            total = total + np.cumsum(terms[0, begin:begin + chunk], dtype=dt)[-1]
        return np.array([total], dt)
    # (cumsum adds in order; sum would pair up. The last column is copied out: a view of it would make the
    # running sums' whole buffer the result's storage, with the column's storage_offset: p = 1 returns it as is)
    return np.cumsum(terms, axis=1, dtype=dt)[:, -1].copy()
