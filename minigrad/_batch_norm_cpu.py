"""PyTorch's CPU batch norm forward on float32/float64 NumPy data, with the same bits.

The order and precision of each step follow aten/src/ATen/native/cpu/batch_norm_kernel.cpp and
Normalization.cpp (``batch_norm_cpu_update_stats_template``):

- statistics, input ``(N, C, *)`` with more than one value per (sample, channel): per channel, a double
  running sum of the values, ``mean = float(sum / n)``, then a double running sum of the float squares
  ``(x - mean)²`` (``batch_norm_cpu_collect_stats_contiguous_impl``);
- statistics, input ``(N, C)`` (one value per sample and channel, treated as channels-last): the rows are
  cut into one range per thread; each range is summed row after row in the input's dtype (the squares with
  a fused multiply-add), the ranges' sums added in double. With no more rows than threads, the mean is a
  double sum and the squares a fused sum in the input's dtype (``..._channels_last_impl``);
- ``invstd = 1 / sqrt(var_sum / n + eps)`` in double (training) or ``1 / sqrt(running_var + eps)`` in the
  input's dtype (eval); the running statistics in the input's dtype:
  ``m·mean + (1 - m)·running_mean`` and ``fma(m, var_sum / (n - 1), (1 - m)·running_var)`` (float32;
  float64 rounds the product first). float64 sums of squares can still differ in the last bit;
- output ``x·alpha + beta`` with ``alpha = invstd·weight`` and ``beta = bias - mean·alpha``, each a fused
  multiply-add (``batch_norm_cpu_collect_linear_and_constant_terms``, the compiler contracts them).

The thread count is PyTorch's (``_reduce.THREADS``, minigrad's get_num_threads()).
"""
from __future__ import annotations

import numpy as np

from . import _reduce, _vml
from ._fused import fma


def _row_sums(rows: np.ndarray) -> np.ndarray:
    """0 + rows[0] + rows[1] + ... (rows (k, C)), in rows' dtype, one row after another."""
    return np.add.accumulate(rows, axis=0)[-1] if len(rows) else np.zeros(rows.shape[1:], rows.dtype)


def _fused_square_sums(d: np.ndarray) -> np.ndarray:
    """acc = fma(d[i], d[i], acc) over the rows of d (k, C), from 0, in d's dtype."""
    acc = np.zeros(d.shape[1:], d.dtype)
    if d.dtype == np.float32:  # the exact float64 squares first, then one rounding per step (as _fused.fma)
        squares = np.multiply(d, d, dtype=np.float64)
        for row in squares:
            acc = (row + acc).astype(np.float32)
        return acc
    for row in d:
        acc = fma(row, row, acc, d.dtype)
    return acc


def channels_last_layout(x: np.ndarray) -> bool:
    """Whether x (4-d or 5-d) is laid out channels-last and not C-contiguous: PyTorch's kernels treat it as (n, C)
    rows, as they do a 2-d input."""
    return x.ndim in (4, 5) and not x.flags.c_contiguous and np.moveaxis(x, 1, -1).flags.c_contiguous


def _stats(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """(mean, sum of squared deviations, values per channel) of x (N, C, *) per channel, as PyTorch's kernels."""
    dt = x.dtype
    channels = x.shape[1]
    n = x.size // channels
    channels_last = channels_last_layout(x)
    if n == x.shape[0] or channels_last:  # one value per (sample, channel), or channels-last: that kernel on rows
        rows = np.moveaxis(x, 1, -1).reshape(n, channels) if channels_last else x.reshape(n, channels)
        threads = _reduce.THREADS[0]
        if n > threads:
            chunk = -(-n // threads)  # at::parallel_for's split of the rows between the threads
            parts = [rows[t:t + chunk] for t in range(0, n, chunk)]
            total = np.zeros(channels, np.float64)
            for part in parts:
                total = total + _row_sums(part)
            mean = (total / n).astype(dt)
            var_sum = np.zeros(channels, np.float64)
            for part in parts:
                var_sum = var_sum + _fused_square_sums(part - mean)
            return mean, var_sum.astype(dt), n
        mean = (_row_sums(rows.astype(np.float64)) / n).astype(dt)
        return mean, _fused_square_sums(rows - mean), n
    # (C, n) per channel: the values of sample 0, then sample 1 ...; double running sums along axis 1
    per_channel = np.moveaxis(x.reshape(x.shape[0], channels, -1), 1, 0).reshape(channels, n)
    mean = (_row_sums(per_channel.T.astype(np.float64)) / n).astype(dt)
    dev = per_channel - mean[:, None]
    return mean, _row_sums((dev * dev).T.astype(np.float64)).astype(dt), n


def forward(x: np.ndarray, weight: np.ndarray | None, bias: np.ndarray | None, running_mean, running_var,
            training: bool, momentum: float, eps: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(output, save_mean, save_invstd) of native_batch_norm; updates the running statistics' data in place."""
    dt = x.dtype
    if not _vectorized(x):
        return _forward_strided(x, weight, bias, running_mean, running_var, training, momentum, eps)
    one = dt.type(1)
    if training:
        mean, var_sum, n = _stats(x)
        invstd = (1 / np.sqrt((var_sum / dt.type(n)).astype(np.float64) + eps)).astype(dt)
        m = dt.type(momentum)
        if running_mean is not None:
            running_mean._data[...] = m * mean + (one - m) * running_mean._data
        if running_var is not None:
            unbiased = var_sum / dt.type(n - 1)
            if dt == np.float32:  # (the float32 build contracts this line into an fma; the double one does not)
                running_var._data[...] = fma(m, unbiased, (one - m) * running_var._data, dt)
            else:
                running_var._data[...] = m * unbiased + (one - m) * running_var._data
        saved = mean, invstd
    else:
        mean = running_mean._data
        invstd = (one / np.sqrt(running_var._data + dt.type(eps))).astype(dt)
        saved = np.empty(0, dt), np.empty(0, dt)   # PyTorch saves empty statistics in eval mode
    alpha = invstd * weight if weight is not None else invstd
    beta = fma(-mean, alpha, bias if bias is not None else np.zeros_like(alpha), dt)
    shape = (1, -1) + (1,) * (x.ndim - 2)
    out = fma(x, alpha.reshape(shape), beta.reshape(shape), dt)
    return out, saved[0], saved[1]


def _vectorized(x: np.ndarray) -> bool:
    """Whether PyTorch's vectorized kernels take x: contiguous, or channels-last (Normalization.cpp's is_contiguous)."""
    return x.flags.c_contiguous or (x.ndim in (4, 5) and np.moveaxis(x, 1, -1).flags.c_contiguous)


def _channel_rows(a: np.ndarray, strides: tuple) -> np.ndarray:
    """a (N, C, *) as (C, n): each channel's values in the memory order of an array of these ``strides`` (PyTorch's
    serial loops over a TensorIterator, which walks the dims innermost-first by stride)."""
    rest = sorted((d for d in range(a.ndim) if d != 1), key=lambda d: -abs(strides[d]))
    return a.transpose([1] + rest).reshape(a.shape[1], -1)


def _forward_strided(x: np.ndarray, weight, bias, running_mean, running_var, training: bool, momentum: float,
                     eps: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``forward`` for any other layout (a transposed or expanded input): PyTorch's generic path
    (``batch_norm_cpu_update_stats_template``'s serial loops, ``batch_norm_cpu_transform_input_template``'s
    TensorIterator), no fused multiply-adds.

    The mean is ``at::mean``'s; per channel, in memory order, a double sum of the squares ``(x - mean)²`` (in
    double), ``invstd = 1 / sqrt(var_sum / n + eps)`` in double; the running statistics in double (momentum is a
    double there); ``out = ((x - mean)·invstd)·w + b`` in the input's dtype (eval: ``invstd = 1 / sqrt(running_var
    + eps)`` as tensor ops, in the input's dtype).
    """
    dt = x.dtype
    channels = x.shape[1]
    n = x.size // channels
    shape = (1, -1) + (1,) * (x.ndim - 2)
    if training:
        mean = _reduce.mean(x, axis=(0, *range(2, x.ndim)))
        dev = _channel_rows(x, x.strides).astype(np.float64) - mean.astype(np.float64)[:, None]
        var_sum = _row_sums((dev * dev).T)
        invstd = (1 / np.sqrt(var_sum / n + eps)).astype(dt)
        if running_mean is not None:
            running_mean._data[...] = momentum * mean.astype(np.float64) + (1 - momentum) * running_mean._data.astype(
                np.float64)
        if running_var is not None:
            running_var._data[...] = momentum * (var_sum / (n - 1)) + (1 - momentum) * running_var._data.astype(
                np.float64)
        saved = mean, invstd
    else:
        mean = running_mean._data
        invstd = (dt.type(1) / _vml.unary("sqrt", np.sqrt)(running_var._data + dt.type(eps))).astype(dt)
        saved = np.empty(0, dt), np.empty(0, dt)   # PyTorch saves empty statistics in eval mode
    out = np.subtract(x, mean.reshape(shape), order="C") * invstd.reshape(shape)   # (PyTorch's output is contiguous)
    if weight is not None:
        out = out * weight.reshape(shape)
    if bias is not None:
        out = out + bias.reshape(shape)
    return out.astype(dt, copy=False), saved[0], saved[1]


# ---- backward: batch_norm_cpu_backward_{contiguous,channels_last}_impl --------------------------------------
#
# Both kernels work with SIMD vectors of 32 bytes (AVX2: 8 floats, 4 doubles). Per channel they need
# sum(dy) and dotp = sum((x - mean)·dy), then (training) dx = (dy - sum/n - (x - mean)·k)·invstd·w with
# k = dotp·invstd²/n; in eval dx = dy·invstd·w. Which multiply-adds the compiler fused was found by
# comparing with PyTorch on many shapes; each place is marked "fused".

def _lanes(dt: np.dtype) -> int:
    return _reduce.VECTOR_BYTES // dt.itemsize


def _tree(acc: np.ndarray) -> np.ndarray:
    """vec_reduce_all of full vectors (..., W): lane i += lane i + W/2, then + W/4 ... (the shuffles)."""
    if acc.dtype == np.float64:
        # (the shuffle tree is vec_reduce_all's float specialization; doubles take the generic loop, which
        # adds lane 1, 2, ... into lane 0 one after another)
        total = acc[..., 0]
        for i in range(1, acc.shape[-1]):
            total = total + acc[..., i]
        return total
    half = acc.shape[-1] // 2
    while half:
        acc = acc[..., :half] + acc[..., half:2 * half]
        half //= 2
    return acc[..., 0]


def _reduce_all(a: np.ndarray, b: np.ndarray | None, lanes: int) -> np.ndarray:
    """vec::reduce_all of a (b None) or vec::map2_reduce_all of a·b, along the last axis of (..., S)."""
    size = a.shape[-1]
    first = a[..., :min(size, lanes)] if b is None else a[..., :lanes] * b[..., :lanes]
    if size < lanes:  # one partial vector, its lanes added into lane 0 one by one
        acc = first[..., 0]
        for i in range(1, size):
            acc = acc + first[..., i]
        return acc
    acc = first
    d = lanes
    while d + lanes <= size:
        acc = acc + (a[..., d:d + lanes] if b is None else a[..., d:d + lanes] * b[..., d:d + lanes])
        d += lanes
    if d < size:  # the tail: the first size - d lanes take the sum (fused for the dot product)
        r = size - d
        acc = acc.copy()
        if b is None:
            acc[..., :r] += a[..., d:]
        else:
            acc[..., :r] = fma(a[..., d:], b[..., d:], acc[..., :r], a.dtype)
    return _tree(acc)


def _eval_invstd(running_var: np.ndarray, eps: float, dt: np.dtype) -> np.ndarray:
    return (1 / np.sqrt(running_var.astype(np.float64) + eps)).astype(dt)


def backward(g: np.ndarray, x: np.ndarray, weight: np.ndarray | None, mean: np.ndarray, invstd: np.ndarray,
             train: bool, output_mask) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(grad_input, grad_weight, grad_bias) of native_batch_norm_backward for g and x both contiguous (or both
    channels-last).

    ``mean``/``invstd``: the saved batch statistics (training) or running_mean and _eval_invstd (eval).
    """
    dt = x.dtype
    lanes = _lanes(dt)
    batch, channels = x.shape[0], x.shape[1]
    n = x.size // channels
    w = weight if weight is not None else np.ones(channels, dt)
    channels_last = channels_last_layout(x)
    if n == batch or channels_last:  # (N, C) or channels-last: the rows cut into one range per thread
        rows_of = (lambda a: np.moveaxis(a, 1, -1).reshape(n, channels)) if channels_last else (
            lambda a: a.reshape(n, channels))
        rows, dy = rows_of(x), rows_of(g)
        # (back to x's shape, keeping the rows' channels-last layout)
        shaped = (lambda r: np.moveaxis(r.reshape(np.moveaxis(x, 1, -1).shape), -1, 1)) if channels_last else (
            lambda r: r.reshape(x.shape))
        threads = min(_reduce.THREADS[0], n)
        chunk = -(-n // threads)
        total = np.zeros(channels, np.float64)
        dot = np.zeros(channels, np.float64)
        for start in range(0, n, chunk):
            s = np.zeros(channels, dt)
            p = np.zeros(channels, dt)
            for i in range(start, min(n, start + chunk)):
                s = s + dy[i]
                p = fma(rows[i] - mean, dy[i], p, dt)   # fused
            total, dot = total + s, dot + p
        total, dot = total.astype(dt), dot.astype(dt)
        grad_input = np.empty(0, dt)
        if output_mask[0]:
            if train:
                k = dot * invstd * invstd / dt.type(n)
                centered = rows - mean
                t = dy - total / dt.type(n) - centered * k
                full = channels - channels % lanes
                if full:  # fused in the full vectors, not in the tail
                    t[:, :full] = fma(-centered[:, :full], k[:full], (dy - total / dt.type(n))[:, :full], dt)
                grad_input = shaped(t * invstd * w)
            else:
                grad_input = shaped(dy * invstd * w)
        return grad_input, dot * invstd, total
    xs, dy = x.reshape(batch, channels, -1), g.reshape(batch, channels, -1)
    centered = xs - mean[:, None]
    per_sample_sums = _reduce_all(dy, None, lanes)            # (N, C), then double running sums over N
    per_sample_dots = _reduce_all(centered, dy, lanes)
    total = np.add.accumulate(per_sample_sums.astype(np.float64), axis=0)[-1]
    dot = np.add.accumulate(per_sample_dots.astype(np.float64), axis=0)[-1]
    grad_input = np.empty(0, dt)
    if output_mask[0]:
        inv = invstd[:, None]
        if train:
            k = (dot.astype(dt) * invstd * invstd / dt.type(n))[:, None]
            grad_mean = (total / n).astype(dt)[:, None]
            t = fma(-centered, np.broadcast_to(k, centered.shape), dy - grad_mean, dt)   # fused
            grad_input = (t * inv * w[:, None]).reshape(x.shape)
        else:
            grad_input = (dy * inv * w[:, None]).reshape(x.shape)
    return grad_input, (dot * invstd).astype(dt), total.astype(dt)


def backward_strided(g: np.ndarray, x: np.ndarray, weight: np.ndarray | None, mean: np.ndarray,
                     invstd: np.ndarray, train: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """native_batch_norm_backward when g or x is not contiguous (an expanded gradient, from sum or mean).

    PyTorch's generic path (``batch_norm_backward_cpu_template``): sum(dy) is at::sum's; dotp a double running
    sum over the values of each channel in x's memory order; no fused multiply-adds.
    """
    dt = x.dtype
    channels = x.shape[1]
    n = x.size // channels
    total = _reduce.sum(g, (0, *range(2, x.ndim)))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    dot = _row_sums(_channel_rows((x - mean.reshape(shape)) * g, x.strides).T.astype(np.float64))
    w = weight if weight is not None else np.ones(channels, dt)
    if train:
        k = dot.astype(dt) * invstd * invstd / dt.type(n)
        grad_input = (g - (total / dt.type(n)).reshape(shape) - (x - mean.reshape(shape)) * k.reshape(shape))
    else:
        grad_input = g
    grad_input = grad_input * invstd.reshape(shape) * w.reshape(shape)
    return grad_input, (dot * invstd).astype(dt), total
