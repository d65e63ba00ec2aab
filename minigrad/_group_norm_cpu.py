"""PyTorch's CPU group norm forward and backward on float32/float64 NumPy data, with the same bits.

GroupNormKernelImplInternal (contiguous input): each (sample, group) row of ``D·HxW`` values gets its
mean and biased variance from RowwiseMoments (layer norm's, ``_layer_norm_cpu.moments``);
``rstd = 1/√(max(var, 0) + eps)`` is computed in double (``eps`` is a double) and rounded once; without
weight and bias ``y = (x - mean)·rstd``, otherwise per channel ``scale = rstd·w``,
``shift = fma(-scale, mean, b)`` and ``y = fma(scale, x, shift)`` (the compiler fuses both).
"""
from __future__ import annotations

import numpy as np

from ._batch_norm_cpu import _lanes, _reduce_all, _tree
from ._fused import fma
from ._layer_norm_cpu import moments


def forward(x: np.ndarray, weight: np.ndarray | None, bias: np.ndarray | None, n: int, c: int, group: int,
            eps: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(y, mean, rstd) of group norm of x (N, C, *) in ``group`` groups (mean, rstd: (N, group))."""
    dt = x.dtype
    d = c // group
    rows = np.ascontiguousarray(x).reshape(n * group, -1)
    mean, var = moments(rows)
    rstd = (1.0 / np.sqrt(np.maximum(var, dt.type(0)).astype(np.float64) + eps)).astype(dt)
    if weight is None and bias is None:
        y = (rows - mean[:, None]) * rstd[:, None]
    else:
        w = (weight if weight is not None else np.ones(c, dt)).reshape(1, group, d)
        b = (bias if bias is not None else np.zeros(c, dt)).reshape(1, group, d)
        scale = rstd.reshape(n, group, 1) * w                                            # (N, G, D)
        shift = fma(-scale, np.broadcast_to(mean.reshape(n, group, 1), scale.shape),
                    np.broadcast_to(b, scale.shape), dt)                                # fused
        xs = rows.reshape(n, group, d, -1)
        y = fma(np.broadcast_to(scale[..., None], xs.shape), xs, np.broadcast_to(shift[..., None], xs.shape),
                dt)                                                                      # fused
    return y.reshape(x.shape).astype(dt, copy=False), mean.reshape(n, group), rstd.reshape(n, group)


# ---- backward: GroupNormBackwardKernelImplInternal (contiguous input, float32/float64) ---------------------------
#
# Per (sample, channel) row of HxW values: ds = Σ dy·x (vec::map2_reduce_all) and db = Σ dy (vec::reduce_all).
# Per (sample, group), with D = C/group channels, s = 1/(D·HxW) and γ the weight (1 without):
#   Σds·γ and Σdb·γ: lane-wise over blocks of the vector width, the lanes added in order, then the tail;
#   c2 = (Σdb·γ · mean - Σds·γ)·rstd³·s,   c3 = -c2·mean - Σdb·γ · rstd·s,
#   dx = rstd·γ_c · dy + c2·x + c3;
# dγ_c = Σ_n (ds - db·mean)·rstd and dβ_c = Σ_n db, sample after sample. Which multiply-adds the compiler fused
# was found by comparing with PyTorch on many shapes; each place is marked "fused".

def _dot_rows(a: np.ndarray, b: np.ndarray, lanes: int) -> np.ndarray:
    """vec::map2_reduce_all of a·b along the last axis."""
    size = a.shape[-1]
    if size < lanes:   # one partial vector: its lanes added into lane 0 one by one
        prod = a * b
        acc = prod[..., 0]
        for i in range(1, size):
            acc = acc + prod[..., i]
        return acc
    acc = a[..., :lanes] * b[..., :lanes]
    d = lanes
    while d + lanes <= size:
        acc = acc + a[..., d:d + lanes] * b[..., d:d + lanes]
        d += lanes
    if d < size:   # the tail: the first size - d lanes take the products (fused for doubles)
        acc = acc.copy()
        if a.dtype == np.float64:
            acc[..., :size - d] = fma(a[..., d:], b[..., d:], acc[..., :size - d], a.dtype)   # fused
        else:
            acc[..., :size - d] += a[..., d:] * b[..., d:]
    return _tree(acc)


def backward(dy: np.ndarray, x: np.ndarray, mean: np.ndarray, rstd: np.ndarray, weight: np.ndarray | None,
             n: int, c: int, group: int, mask) -> tuple:
    """(dx, dweight, dbias) of native_group_norm_backward for x (N, C, *) (None where ``mask`` says not wanted)."""
    dt = x.dtype
    lanes = _lanes(dt)
    d = c // group
    hxw = x.size // (n * c)
    s = dt.type(1) / dt.type(d * hxw)
    rows_dy, rows_x = np.ascontiguousarray(dy).reshape(n * c, hxw), np.ascontiguousarray(x).reshape(n * c, hxw)
    ds = _dot_rows(rows_dy, rows_x, lanes).reshape(n, group, d)
    db = _reduce_all(rows_dy, None, lanes).reshape(n, group, d)
    m, r = mean.reshape(n, group), rstd.reshape(n, group)
    gamma = (weight if weight is not None else np.ones(c, dt)).reshape(1, group, d)
    dx = dgamma = dbeta = None
    if mask[0]:
        ds_acc = np.zeros((n, group, lanes), dt)
        db_acc = np.zeros((n, group, lanes), dt)
        body = d // lanes * lanes
        for j in range(0, body, lanes):   # CalcDsDb
            g = np.broadcast_to(gamma[..., j:j + lanes], ds_acc.shape)
            ds_acc = fma(ds[..., j:j + lanes], g, ds_acc, dt)                                # fused
            db_acc = fma(db[..., j:j + lanes], g, db_acc, dt)                                # fused
        ds_val, db_val = np.zeros((n, group), dt), np.zeros((n, group), dt)
        for lane in range(lanes):   # std::accumulate over the stored lanes
            ds_val, db_val = ds_val + ds_acc[..., lane], db_val + db_acc[..., lane]
        for j in range(body, d):
            g = np.broadcast_to(gamma[..., j], ds_val.shape)
            ds_val, db_val = fma(ds[..., j], g, ds_val, dt), fma(db[..., j], g, db_val, dt)   # fused
        c2 = fma(db_val, m, -ds_val, dt) * r * r * r * s                                    # fused
        c3 = fma(-(db_val * r), s, -c2 * m, dt)                                              # fused
        xs, dys = rows_x.reshape(n, group, d, hxw), rows_dy.reshape(n, group, d, hxw)
        c1 = np.broadcast_to((r[:, :, None] * gamma)[..., None], xs.shape)
        c2, c3 = (np.broadcast_to(v[:, :, None, None], xs.shape) for v in (c2, c3))
        dx = (fma(c1, dys, c2 * xs, dt) + c3).reshape(x.shape)                               # fused
    if mask[1]:
        acc = np.zeros((group, d), dt)
        for k in range(n):   # GammaBackward: sample after sample
            mk, rk = (np.broadcast_to(v[k][:, None], acc.shape) for v in (m, r))
            acc = fma(fma(-db[k], mk, ds[k], dt), rk, acc, dt)                              # fused
        dgamma = acc.reshape(c)
    if mask[2]:
        dbeta = np.zeros(c, dt)
        for k in range(n):   # BetaBackward
            dbeta = dbeta + db[k].reshape(c)
    return dx, dgamma, dbeta
