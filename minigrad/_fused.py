"""Fused multiply-add on NumPy data: ``a * b + c`` rounded once, as PyTorch's CPU kernels compute it.

PyTorch's compiled kernels use FMA instructions (explicitly, or by the compiler contracting ``a * b + c``):
arange/linspace, ``add(x, y, alpha=a)``, ``addcmul``, ``lerp``. NumPy rounds the product first, so the last
bit can differ; these helpers reproduce the single rounding, which keeps results bit-identical.
"""
from __future__ import annotations

import numpy as np


def _split(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Dekker's split of doubles into two 26-bit halves, hi + lo = x exactly. Values above 2**996 are split
    scaled down by 2**-28 (a power of two: exact), where 2**27 + 1 times them would overflow."""
    scale = np.where(np.abs(x) > 2.0 ** 996, 2.0 ** -28, 1.0)
    xs = x * scale
    t = 134217729.0 * xs  # 2**27 + 1
    hi = t - (t - xs)
    return hi / scale, (xs - hi) / scale


def fma64(a, b, c) -> np.ndarray:
    """a * b + c (float64) with one rounding: the product's and the sum's exact errors added back."""
    a, b, c = np.asarray(a, np.float64), np.asarray(b, np.float64), np.asarray(c, np.float64)
    with np.errstate(over="ignore", invalid="ignore"):  # (infinities: see below)
        p = a * b
        (ah, al), (bh, bl) = _split(a), _split(b)
        err = ((ah * bh - p) + ah * bl + al * bh) + al * bl
        s = p + c
        z = s - p
        out = s + (((p - (s - z)) + (c - z)) + err)
    # an infinite operand makes the error terms nan (inf - inf): the sum itself is then the answer
    bad = np.isnan(out) & ~np.isnan(s)
    if bad.any():
        out = np.where(bad, s, out)
    # A zero result takes its sign as the hardware's: -0 only for (-0) + (-0), which the rounded sum s gets right
    # (the error terms above add +0 to it); an exact cancellation of nonzero terms is +0.
    zero = out == 0
    if zero.any():
        fixed = np.where(zero, np.where(s == 0, s, 0.0), out)
        out = fixed if isinstance(out, np.ndarray) else fixed[()]   # (a NumPy scalar stays a scalar)
    return out


def fma(a, b, c, dtype) -> np.ndarray:
    """a * b + c rounded once to ``dtype`` (the operands are values of that dtype)."""
    dtype = np.dtype(dtype)
    if dtype == np.float64:
        return fma64(a, b, c)
    # A float32 (or half) product is exact in float64, so only the final rounding remains.
    r = np.multiply(a, b, dtype=np.float64)
    if isinstance(r, np.ndarray) and r.shape == np.broadcast_shapes(r.shape, np.shape(c)):
        np.add(r, c, out=r, dtype=np.float64)  # (in place: no second temporary)
    else:
        r = np.add(r, c, dtype=np.float64)
    return np.asarray(r).astype(dtype)
