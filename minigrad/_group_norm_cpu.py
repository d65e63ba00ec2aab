"""PyTorch's CPU group norm forward on float32/float64 NumPy data, with the same bits.

GroupNormKernelImplInternal (contiguous input): each (sample, group) row of ``D·HxW`` values gets its
mean and biased variance from RowwiseMoments (layer norm's, ``_layer_norm_cpu.moments``);
``rstd = 1/√(max(var, 0) + eps)`` is computed in double (``eps`` is a double) and rounded once; without
weight and bias ``y = (x - mean)·rstd``, otherwise per channel ``scale = rstd·w``,
``shift = fma(-scale, mean, b)`` and ``y = fma(scale, x, shift)`` (the compiler fuses both).
"""
from __future__ import annotations

import numpy as np

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
