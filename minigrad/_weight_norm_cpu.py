"""PyTorch's CPU weight-norm kernels (aten/src/ATen/native/cpu/WeightNormKernel.cpp), rounded as they round.

``dim`` is 0 or the last dim (the only two the fused kernel handles). With rows = the slices of ``dim``:

- first dim: each row's Σv² is a ``vec::map_reduce_all`` (SIMD lanes, then a shuffle tree), norm = √Σ,
  w = v·(g/norm); backward: s = Σ grad·v per row, dg = s/norm, dv = a·grad - b·v with a = g/norm, b = a·dg/norm;
- last dim: per column, Σv² (and Σ grad·v) is added row after row into a buffer per thread, the threads'
  buffers then added in order (``at::parallel_for`` over the rows, grain 1).
"""
from __future__ import annotations

import numpy as np

from . import _reduce
from ._fused import fma
from ._layer_norm_cpu import _reduce_rows


def _column_sums(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Σ x·y over axis 0 of (M, N), as the last-dim kernel adds: buffer = fma(x, y, buffer) row after row in
    each thread's block of rows, then the threads' buffers added in order."""
    m = x.shape[0]
    tasks = max(1, min(_reduce.default_num_threads(), m))
    chunk = -(-m // tasks)
    total = np.zeros(x.shape[1:], x.dtype)
    for start in range(0, m, chunk):
        part = np.zeros(x.shape[1:], x.dtype)
        for i in range(start, min(m, start + chunk)):
            part = fma(x[i], y[i], part, x.dtype)
        total = total + part
    return total


def _reduced(a: np.ndarray) -> bool:
    """float16 / bfloat16: the kernels compute in float32 (the norms stay float32)."""
    return a.dtype.itemsize < 4


def forward(v: np.ndarray, g: np.ndarray, dim: int) -> tuple[np.ndarray, np.ndarray]:
    """(w, norms): w = v·(g/‖v‖) with the norms shaped like g."""
    if _reduced(v):
        w, norms = forward(v.astype(np.float32), g.astype(np.float32), dim)
        return w.astype(v.dtype), norms
    dt = v.dtype
    if dim == 0:
        rows = v.reshape(v.shape[0], -1)
        norms = np.sqrt(_reduce_rows([rows * rows])).astype(dt)   # (x·x mapped first: no fused tail)
        a = g.reshape(-1).astype(dt) / norms
        return (rows * a[:, None]).reshape(v.shape), norms.reshape(g.shape)
    rows = v.reshape(-1, v.shape[-1])
    norms = np.sqrt(_column_sums(rows, rows)).astype(dt)
    a = g.reshape(-1).astype(dt) / norms
    return (rows * a).reshape(v.shape), norms.reshape(g.shape)


def backward(grad: np.ndarray, v: np.ndarray, g: np.ndarray, norms: np.ndarray,
             dim: int) -> tuple[np.ndarray, np.ndarray]:
    """(dv, dg) of the fused weight norm."""
    if _reduced(v):
        dv, dg = backward(grad.astype(np.float32), v.astype(np.float32), g.astype(np.float32), norms, dim)
        return dv.astype(v.dtype), dg.astype(g.dtype)
    dt = v.dtype
    if dim == 0:
        rows, grad_rows = v.reshape(v.shape[0], -1), grad.reshape(v.shape[0], -1)
        sums = _reduce_rows([grad_rows * rows])
        n, gg = norms.reshape(-1, 1), g.reshape(-1, 1).astype(dt)
        sums = sums.reshape(-1, 1)
    else:
        rows, grad_rows = v.reshape(-1, v.shape[-1]), grad.reshape(-1, v.shape[-1])
        sums = _column_sums(grad_rows, rows)
        n, gg = norms.reshape(-1), g.reshape(-1).astype(dt)
    grad_g = (sums / n).astype(dt)
    a = gg / n
    b = a * grad_g / n
    grad_v = fma(-b, rows, a * grad_rows, dt)   # (fused: a·grad - b·v with one rounding of b·v)
    return grad_v.reshape(v.shape), grad_g.reshape(g.shape)
