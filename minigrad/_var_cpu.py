"""float32 / float64 variance in PyTorch's CPU order (ATen/native/ReduceOps.cpp std_var_out), so that it rounds
as PyTorch's does. Measured bit for bit against PyTorch 2.13:

- one result (every element reduced): ``std_var_all_cpu``, two passes: the mean ``x.mean()`` (in x's dtype,
  PyTorch's sum order), then ``0 + dx0² + dx1² + ...`` in double in memory order (dx = x - mean, in double),
  divided by max(0, N - correction).
- otherwise ``WelfordOps`` (SharedReduceOps.h) over each result's values in the iterator's order (the reduced
  dims by stride, smallest innermost), in double: δ = x - mean; mean += δ / n; m2 += δ·(x - mean) (no fused
  multiply-add); var = m2 / (n - correction) (0 divisor when n <= correction).

Complex inputs are the sum of the variances of the real and imaginary parts (done by the caller).
Large reductions (>= GRAIN_SIZE values, several threads) split across threads in PyTorch, and Welford runs over
more than _WELFORD_MAX values would be slow here: NumPy's two-pass variance stands in there (``None`` returned).
"""
from __future__ import annotations

import numpy as np

from . import _reduce

_F64 = np.dtype(np.float64)
_WELFORD_MAX = 4096   # longest reduction run step by step (beyond: NumPy's two-pass variance)


def var(a: np.ndarray, axes, ddof: float, with_mean: bool = False):
    """The variance (float64, unrounded) of a non-empty float32/float64 ``a`` over ``axes`` (None: all),
    reduced dims dropped; None where PyTorch would use several threads. ``with_mean``: (variance, mean), both
    from Welford's pass (var_mean / std_mean never take the two-pass route)."""
    nd = a.ndim
    red = tuple(range(nd)) if axes is None else tuple(sorted({int(d) % nd for d in (
        (axes,) if isinstance(axes, (int, np.integer)) else axes)}))
    kept = [d for d in range(nd) if d not in red]
    out_shape = tuple(a.shape[d] for d in kept)
    n = int(np.prod([a.shape[d] for d in red]))
    if a.size >= _reduce.GRAIN_SIZE and _reduce.THREADS[0] > 1:
        return None
    if int(np.prod(out_shape)) == 1 and not with_mean:   # std_var_all_cpu: two passes
        mean = float(_reduce.mean(a))
        dx = np.ravel(a, order="K").astype(_F64) - mean
        total = np.cumsum(dx * dx)[-1]   # (cumsum adds in order)
        return np.full(out_shape, total / max(0.0, a.size - ddof))
    if n > _WELFORD_MAX:   # (a Python loop per reduced value: a long one costs more than a last bit is worth)
        return None
    # Welford: the reduced dims ordered as the iterator walks them (the smallest stride innermost)
    order = sorted(red, key=lambda d: -abs(a.strides[d]))
    x = a.transpose(kept + order).reshape(-1, n).astype(_F64)
    mean = np.zeros(len(x))
    m2 = np.zeros(len(x))
    for k in range(n):
        v = x[:, k]
        delta = v - mean
        mean = mean + delta / np.float64(k + 1)
        m2 = m2 + delta * (v - mean)
    divisor = np.float64(n - ddof) if n > ddof else np.float64(0)
    with np.errstate(divide="ignore", invalid="ignore"):
        variance = (m2 / divisor).reshape(out_shape)
    return (variance, mean.reshape(out_shape)) if with_mean else variance
