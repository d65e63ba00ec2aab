"""``torch.pdist`` and its gradient, rounded as PyTorch's CPU kernels (DistanceOpsKernel.cpp) round them.

The kernel is registered without an AVX-512 variant: it runs on AVX2 vectors (8 floats, 4 doubles).

- forward (``run_parallel_pdist``): each pair's Σ map(|x_i - x_j|) is a ``vec::map2_reduce_all``: fewer features
  than a vector are added one after another, left to right; else lane-wise one vector after another (the last,
  partial one only into its first lanes), then the lanes combined: for float32 as a tree (lane i with lane i+4,
  then i+2, i+1), for float64 one after another (the generic ``vec_reduce_all``). No multiply-add is fused.
  map is |d| (p = 1), d² (p = 2) or SLEEF's vector pow |d|^p; the root is std::pow(Σ, 1.0 / p) in double.
- backward (``run_backward_parallel_pdist``): row r's gradient starts at 0, is decreased by the pair terms
  (i, r) for i < r in order, then increased by the terms (r, j) for j > r in order; a term is
  g·d/dist (p = 2), g·sign(d) (p = 1), sign(d)·|d|^(p-1)·g/dist^(p-1) (p < 2),
  d·|d|^(p-2)·g/dist^(p-1) (p > 2), g·sign(d)·[|d| = dist] (p = ∞), 0 where dist = 0 (p ≥ 1, p ≠ ∞).
"""
from __future__ import annotations

import math

import numpy as np

from . import _float_math

_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}
_glibc_pow = _float_math.libm_double("pow", np.power, 2)


def _pow(x: np.ndarray, p) -> np.ndarray:
    """Vectorized<T>::pow: SLEEF's vector pow."""
    if x.dtype == np.float32:
        return _float_math.sleef_powf(x, np.float32(p))
    return _float_math.sleef_pow64(x, np.float64(p))


def _reduce_all(values: np.ndarray, lanes: int, combine) -> np.ndarray:
    """vec::map2_reduce_all of already mapped ``values`` (pairs, m) along the last axis with ``combine``."""
    m = values.shape[-1]
    if m < lanes:   # one partial vector: its lanes combined into lane 0 one by one
        acc = values[:, 0]
        for k in range(1, m):
            acc = combine(acc, values[:, k])
        return acc
    acc = values[:, :lanes]
    d = lanes
    while d + lanes <= m:
        acc = combine(acc, values[:, d:d + lanes])
        d += lanes
    if d < m:   # the partial last vector: only the first m - d lanes take part
        acc = acc.copy()
        acc[:, :m - d] = combine(acc[:, :m - d], values[:, d:])
    if values.dtype == np.float64:   # the generic vec_reduce_all: lane 0, then lane 1, 2 ...
        total = acc[:, 0]
        for k in range(1, lanes):
            total = combine(total, acc[:, k])
        return total
    half = lanes // 2   # AVX2's float specialization: the shuffle tree
    while half:
        acc = combine(acc[:, :half], acc[:, half:2 * half])
        half //= 2
    return acc[:, 0]


def pdist(x: np.ndarray, p: float) -> np.ndarray:
    """‖x[i] - x[j]‖_p for every pair of rows i < j (x contiguous, 2-D), in row-major order of the pairs."""
    n, m = x.shape
    rows, cols = np.triu_indices(n, 1)
    if not rows.size or not m:
        return np.zeros(rows.size, x.dtype)
    lanes = _LANES.get(x.dtype)
    diff = np.abs(x[rows] - x[cols])
    with np.errstate(all="ignore"):
        if p == 0:
            return (diff != 0).sum(-1).astype(x.dtype)   # (a count: exact in any order)
        if p == math.inf:   # (max from 0: NaN differences are skipped, as std::max's)
            return np.fmax.reduce(diff, axis=-1, initial=0).astype(x.dtype, copy=False)
        if lanes is None:   # (half types: no such kernel in PyTorch's CPU build; NumPy's sums)
            return (np.sum(diff ** p, -1) ** (1 / p)).astype(x.dtype, copy=False)
        if p == 1:
            return _reduce_all(diff, lanes, np.add)
        if p == 2:
            return np.sqrt(_reduce_all(diff * diff, lanes, np.add))
        total = _reduce_all(_pow(diff, x.dtype.type(p)), lanes, np.add)
        # std::pow(agg, 1.0 / p) with p in x's dtype: a double pow, rounded back
        root = 1.0 / float(x.dtype.type(p))
        return _glibc_pow(total.astype(np.float64), np.float64(root)).astype(x.dtype)


def pdist_backward(grad: np.ndarray, x: np.ndarray, dist: np.ndarray, p: float) -> np.ndarray:
    """The gradient of pdist with respect to x (PyTorch's _pdist_backward, accumulated in its order)."""
    n, m = x.shape
    out = np.zeros_like(x)
    if p == 0 or n < 2 or not m:
        return out
    dt = x.dtype.type
    pf = dt(p)
    with np.errstate(all="ignore"):
        k = 0
        for i in range(n - 1):
            d = x[i] - x[i + 1:]                       # (n - i - 1, m): the pairs (i, j), j > i
            g = grad[k:k + n - i - 1, None]
            r = dist[k:k + n - i - 1, None]
            k += n - i - 1
            if p == 1:
                term = g * np.sign(d)
            elif p == math.inf:
                term = g * np.sign(d) * (dt(1) - np.minimum(dt(1), np.ceil(np.abs(np.abs(d) - r))))
            elif p == 2:
                term = np.where(r == 0, dt(0), g * d / r)
            elif p < 2:
                root = _pow(np.broadcast_to(r, d.shape), pf - dt(1))
                term = np.where(r == 0, dt(0), np.sign(d) * _pow(np.abs(d), pf - dt(1)) * g / root)
                if p < 1:   # (lttdist_calc's blendv: a zero difference gives 0, not 0 · 0^(p-1) = nan)
                    term = np.where(d == 0, dt(0), term)
            else:
                term = np.where(r == 0, dt(0),
                                d * _pow(np.abs(d), pf - dt(2)) * g / _pow(np.broadcast_to(r, d.shape), pf - dt(1)))
            term = term.astype(x.dtype, copy=False)
            # row i: its running value, then + each term in order (accumulate runs strictly in order)
            out[i] = np.add.accumulate(np.concatenate([out[i:i + 1], term]), axis=0)[-1]
            out[i + 1:] -= term
    return out
