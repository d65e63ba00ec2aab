"""PyTorch's CPU layer norm on float32/float64 NumPy data, with the same bits (forward and backward).

The input is seen as M rows of N normalized values. The order and precision of each step follow
aten/src/ATen/native/cpu/layer_norm_kernel.cpp and moments_utils.h, with vectors of 8 floats (the AVX2
kernel, which AVX-512 CPUs run too; 4 doubles) and the fused multiply-adds the compiler makes (found by comparing
with PyTorch on many shapes; marked "fused"):

- ``RowwiseMoments``: per row, Welford updates on 8 lanes in chunks of 16 vectors (mean += δ/(j+1), fused;
  m2 += δ·(x - mean), fused), each chunk merged into a cascade of partial results (``AddMomentsVec``), the
  values after the last whole vector by plain scalar Welford steps, then the 8 lanes merged one by one
  (``AddMoments``); ``rstd = 1 / sqrt(var + eps)`` in the input's dtype;
- output ``fma((x - mean)·rstd, weight, bias)``;
- backward per row: ``ds = Σ dy·x·w`` and ``db = Σ dy·w`` as
  ``vec::map*_reduce_all`` (vector lanes, the last partial vector fused, a shuffle tree),
  ``b = (db·mean - ds)·rstd³/N``, ``c = -b·mean - db·rstd/N``, ``dx = rstd·dy·w + b·x + c``; dweight and dbias
  summed row after row in one buffer per thread.
"""
from __future__ import annotations

import numpy as np

from . import _reduce
from ._batch_norm_cpu import _tree  # vec_reduce_all's lane tree, shared with batch norm
from ._fused import fma

_CHUNK = 16  # kChunkSize: vectors per Welford chunk


def _ceil_log2(x: int) -> int:
    return 1 if x <= 2 else (x - 1).bit_length()


def _chunk_moments(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Welford over the vectors of chunks x (M, chunks, k, lanes): (mean, m2) per chunk and lane."""
    dt = x.dtype
    f = dt.type
    m1 = np.zeros(x.shape[:2] + x.shape[3:], dt)
    m2 = np.zeros_like(m1)
    for j in range(x.shape[2]):
        v = x[:, :, j]
        delta = v - m1
        m1 = fma(delta, f(f(1) / f(j + 1)), m1, dt)          # fused
        m2 = fma(delta, v - m1, m2, dt)                        # fused
    return m1, m2


def _add_moments_vec(count_add, m1_add, m2_add, count, m1, m2):
    """AddMomentsVec: the moments of count_add more values merged into (count, m1, m2)."""
    dt = m1.dtype
    f = dt.type
    n = count + count_add
    c = f(0) if n == 0 else f(f(count_add) / f(n))
    delta = m1_add - m1
    m1 = m1 + c * delta
    m2 = fma(delta, delta * c * f(count), m2 + m2_add, dt)     # fused (as the compiler ordered it)
    return n, m1, m2


def moments(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(mean, biased variance) of each row of x (M, N) float32/float64, as PyTorch's RowwiseMoments."""
    dt = x.dtype
    f = dt.type
    lanes = _reduce.VECTOR_BYTES // dt.itemsize
    rows, size = x.shape
    nvec = size // lanes
    chunks = -(-nvec // _CHUNK)
    depth = _ceil_log2(chunks) if chunks else 1
    counts = [0] * depth
    m1s = [np.zeros((rows, lanes), dt) for _ in range(depth)]
    m2s = [np.zeros((rows, lanes), dt) for _ in range(depth)]
    whole = nvec // _CHUNK
    vectors = x[:, :nvec * lanes].reshape(rows, nvec, lanes)
    if whole:
        cm1, cm2 = _chunk_moments(vectors[:, :whole * _CHUNK].reshape(rows, whole, _CHUNK, lanes))
    if chunks > whole:
        pm1, pm2 = _chunk_moments(vectors[:, whole * _CHUNK:].reshape(rows, 1, -1, lanes))
    for i in range(chunks):
        size_i = min(_CHUNK, nvec - i * _CHUNK)
        m1_i, m2_i = (cm1[:, i], cm2[:, i]) if i < whole else (pm1[:, 0], pm2[:, 0])
        counts[0], m1s[0], m2s[0] = _add_moments_vec(size_i, m1_i, m2_i, counts[0], m1s[0], m2s[0])
        mask, j = i + 1, 1
        while j < depth and (mask & 1) == 0:   # the cascade: a full level moves up one
            counts[j], m1s[j], m2s[j] = _add_moments_vec(counts[j - 1], m1s[j - 1], m2s[j - 1], counts[j], m1s[j],
                                                         m2s[j])
            counts[j - 1], m1s[j - 1], m2s[j - 1] = 0, np.zeros_like(m1s[0]), np.zeros_like(m2s[0])
            mask >>= 1
            j += 1
    for j in range(1, depth):
        counts[0], m1s[0], m2s[0] = _add_moments_vec(counts[j], m1s[j], m2s[j], counts[0], m1s[0], m2s[0])
    count, m1, m2 = 0, np.zeros(rows, dt), np.zeros(rows, dt)
    for i in range(nvec * lanes, size):   # the values after the last whole vector: scalar Welford
        v = x[:, i]
        delta = v - m1
        count += 1
        m1 = m1 + delta / f(count)
        m2 = m2 + delta * (v - m1)
    for lane in range(lanes):              # AddMoments of each lane (its ``nvec`` values)
        n = count + nvec
        c = f(0) if n == 0 else f(f(nvec) / f(n))
        delta = m1s[0][:, lane] - m1
        m1 = fma(c, delta, m1, dt)                                               # fused
        m2 = m2 + fma(delta * delta * c, f(count), m2s[0][:, lane], dt)           # fused
        count = n
    return m1, m2 / f(size)


def forward(x: np.ndarray, weight: np.ndarray | None, bias: np.ndarray | None, eps: float):
    """(y, mean, rstd) of layer norm over the last axis of x (M, N) (mean, rstd: (M,))."""
    dt = x.dtype
    mean, var = moments(x)
    rstd = (dt.type(1) / np.sqrt(var + dt.type(eps))).astype(dt)
    y = (x - mean[:, None]) * rstd[:, None]
    if weight is not None or bias is not None:
        w = weight if weight is not None else dt.type(1)
        b = bias if bias is not None else dt.type(0)
        y = fma(y, np.broadcast_to(w, y.shape), np.broadcast_to(b, y.shape), dt)   # fused
    return y, mean, rstd


def _reduce_rows(factors: list) -> np.ndarray:
    """vec::map*_reduce_all of the product of ``factors`` (each (M, N)) along each row: (M,)."""
    size = factors[0].shape[-1]
    dt = factors[0].dtype
    lanes = _reduce.VECTOR_BYTES // dt.itemsize
    product = factors[0]
    for f in factors[1:]:
        product = product * f
    if size < lanes:   # one partial vector: its lanes added into lane 0 one by one
        acc = product[:, 0]
        for i in range(1, size):
            acc = acc + product[:, i]
        return acc
    full = size // lanes
    blocks = product[:, :full * lanes].reshape(-1, full, lanes)
    acc = np.add.accumulate(blocks, axis=1)[:, -1] if full > 1 else blocks[:, 0]   # vector after vector
    rest = size - full * lanes
    if rest:   # the last partial vector: its lanes take the sum (fused for a product)
        acc = acc.copy()
        tail = slice(full * lanes, size)
        if len(factors) == 1:
            acc[:, :rest] += factors[0][:, tail]
        else:
            head = factors[0][:, tail]
            for f in factors[1:-1]:
                head = head * f[:, tail]
            acc[:, :rest] = fma(head, factors[-1][:, tail], acc[:, :rest], dt)
    return _tree(acc)


def backward(dy: np.ndarray, x: np.ndarray, mean: np.ndarray, rstd: np.ndarray, weight: np.ndarray | None,
             output_mask) -> tuple:
    """(dx, dweight, dbias) of layer norm over the last axis of x (M, N) (None where not asked)."""
    dt = x.dtype
    f = dt.type
    rows, size = x.shape
    scale = f(1) / f(size)
    dx = dweight = dbias = None
    if output_mask[0]:
        if weight is None:
            ds, db = _reduce_rows([dy, x]), _reduce_rows([dy])
        else:
            w = np.broadcast_to(weight, x.shape)
            ds, db = _reduce_rows([dy, x, w]), _reduce_rows([dy, w])
        a = rstd
        b = fma(db, mean, -ds, dt) * a * a * a * scale                  # fused
        c = fma(-b, mean, -(db * a * scale), dt)                        # fused
        t = a[:, None] * dy
        if weight is not None:
            t = t * weight
        dx = fma(np.broadcast_to(b[:, None], x.shape), x, t, dt) + c[:, None]   # fused
    if output_mask[1] or output_mask[2]:
        threads = min(_reduce.THREADS[0], rows) if rows else 1
        chunk = -(-rows // threads) if rows else 1
        dweight = np.zeros(size, dt)
        dbias = np.zeros(size, dt)
        shift = -rstd * mean
        xhat = fma(np.broadcast_to(rstd[:, None], x.shape), x, np.broadcast_to(shift[:, None], x.shape), dt)
        # gbuf = fma(dy[i], xhat[i], gbuf) row after row: the exact products first (what _fused.fma computes)
        products = np.multiply(dy, xhat, dtype=np.float64) if dt == np.float32 else None
        for start in range(0, rows, chunk):   # one buffer per thread, rows added one after another
            gbuf = np.zeros(size, dt)
            for i in range(start, min(rows, start + chunk)):
                if products is not None:
                    gbuf = (products[i] + gbuf).astype(dt)              # fused
                else:
                    gbuf = fma(dy[i], xhat[i], gbuf, dt)                # fused
            bbuf = np.add.accumulate(dy[start:start + chunk], axis=0)[-1]
            dweight, dbias = dweight + gbuf, dbias + bbuf
    return dx, dweight, dbias
