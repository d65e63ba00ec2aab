"""The NumPy arithmetic of 3-d pooling (max, average, adaptive max and average) over the last k dims, any k.

The same steps as ``_conv``'s 2-d pooling kernels, with the window offsets and flat indices written for k
dims: ``windows`` gives every window as a strided view, the maximum's position in its window becomes a flat
index ``(d·H + h)·W + w`` into the input volume, and average pooling adds the window's elements one kernel
offset at a time (PyTorch's order, so float32 sums round the same). The derivative table (``derivatives.py``,
section "missing-nn pass 4") wraps these functions in ops; nothing here records a graph.
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from ._conv import _adaptive_windows, out_size, pad, windows


def _layout(shape, kernel, stride, padding, dilation, ceil_mode: bool) -> tuple:
    """(output sizes, right padding): the right side gets what ceil_mode's last window needs."""
    k = len(kernel)
    out = tuple(out_size(n, kk, s, p, d, ceil_mode)
                for n, kk, s, p, d in zip(shape[-k:], kernel, stride, padding, dilation))
    right = tuple(max(0, (o - 1) * s + d * (kk - 1) + 1 - n - p)
                  for o, n, kk, s, p, d in zip(out, shape[-k:], kernel, stride, padding, dilation))
    return out, right


def _along(values: np.ndarray, d: int, k: int) -> np.ndarray:
    """A 1-d array shaped to broadcast along output dim d of k."""
    return values.reshape((-1,) + (1,) * (k - 1 - d))


def max_pool(x, kernel, stride, padding, dilation, ceil_mode: bool) -> tuple:
    """(max of each window, its flat index in the input volume), as PyTorch's max_pool3d_with_indices."""
    k = len(kernel)
    out, right = _layout(x.shape, kernel, stride, padding, dilation, ceil_mode)
    floating = x.dtype.kind not in "iub"  # (bfloat16's NumPy kind is "V")
    cols = windows(pad(x, padding, right, -np.inf if floating else np.iinfo(x.dtype).min), kernel, stride, dilation,
                   out)
    flat = cols.reshape(cols.shape[:-k] + (int(np.prod(kernel)),))
    pick = flat.argmax(axis=-1)   # the first maximum, as PyTorch's ``val > maxval`` scan
    if floating:
        nan = np.isnan(flat)
        if nan.any():  # PyTorch's scan takes every NaN it meets: the last one wins
            last = flat.shape[-1] - 1 - nan[..., ::-1].argmax(axis=-1)
            pick = np.where(nan.any(axis=-1), last, pick)
    values = np.take_along_axis(flat, pick[..., None], axis=-1)[..., 0]
    index = np.zeros(pick.shape, np.int64)
    for d, offset in enumerate(np.unravel_index(pick, kernel)):
        size = x.shape[-k + d]
        start = _along(np.arange(out[d]) * stride[d] - padding[d], d, k)
        coord = start + offset * dilation[d]
        # a window whose real elements all equal the padding value (-inf): its first element inside the input
        first = start + dilation[d] * np.maximum(0, (dilation[d] - 1 - start) // dilation[d])
        index = index * size + np.where((coord < 0) | (coord >= size), first, coord)
    return np.ascontiguousarray(values), index


def max_pool_backward(g, x_shape, indices, k: int) -> np.ndarray:
    """Each window's gradient added to the element that was its maximum, in output order (PyTorch's kernel)."""
    volume = int(np.prod(x_shape[-k:]))
    planes = int(np.prod(g.shape[:-k]))
    flat = (indices.reshape(planes, math.prod(g.shape[-k:])) + (np.arange(planes) * volume)[:, None]).reshape(-1)
    total = np.zeros(planes * volume, g.dtype)
    np.add.at(total, flat, g.reshape(-1))
    return total.reshape(x_shape)


def _divisors(shape, kernel, stride, padding, out, count_include_pad: bool, divisor_override) -> np.ndarray:
    """The divisor of each window: its size (padding included or not), or the override."""
    if divisor_override is not None:
        return np.full(out, divisor_override)
    k = len(kernel)
    total = np.ones((1,) * k, np.int64)
    for d, (n, kk, s, p, o) in enumerate(zip(shape[-k:], kernel, stride, padding, out)):
        start = np.arange(o) * s - p
        end = np.minimum(start + kk, n + p)   # a ceil_mode window may reach past the padding: cut there
        count = end - start if count_include_pad else np.minimum(end, n) - np.maximum(start, 0)
        total = total * _along(count, d, k)
    return total


def _offset_slices(offset, stride, out) -> tuple:
    return (...,) + tuple(slice(o, o + s * (n - 1) + 1, s) for o, s, n in zip(offset, stride, out))


def avg_pool(x, kernel, stride, padding, ceil_mode: bool, count_include_pad: bool, divisor_override) -> np.ndarray:
    """The sum of each window (its elements added one kernel offset at a time) over the window's divisor."""
    k = len(kernel)
    out, right = _layout(x.shape, kernel, stride, padding, (1,) * k, ceil_mode)
    padded = pad(x, padding, right)
    total = np.zeros(x.shape[:-k] + out, x.dtype)
    if 0 not in out:
        for offset in itertools.product(*(range(kk) for kk in kernel)):
            total = total + padded[_offset_slices(offset, stride, out)]
    div = _divisors(x.shape, kernel, stride, padding, out, count_include_pad, divisor_override)
    if x.dtype.kind != "f":   # integer inputs: C++'s integer division, which truncates toward zero
        return (total / div).astype(x.dtype)
    return np.ascontiguousarray(total / div.astype(x.dtype), dtype=x.dtype)


def avg_pool_backward(g, x_shape, kernel, stride, padding, ceil_mode: bool, count_include_pad: bool,
                      divisor_override) -> np.ndarray:
    """Each window's gradient over its divisor, spread over the window (offsets reversed: PyTorch's order)."""
    k = len(kernel)
    out, right = _layout(x_shape, kernel, stride, padding, (1,) * k, ceil_mode)
    share = g / _divisors(x_shape, kernel, stride, padding, out, count_include_pad, divisor_override).astype(g.dtype)
    padded = np.zeros(x_shape[:-k] + tuple(n + p + r for n, p, r in zip(x_shape[-k:], padding, right)), g.dtype)
    if 0 not in out:
        for offset in itertools.product(*(range(kk - 1, -1, -1) for kk in kernel)):
            padded[_offset_slices(offset, stride, out)] += share
    return np.ascontiguousarray(padded[(...,) + tuple(slice(p, p + n) for p, n in zip(padding, x_shape[-k:]))])


def adaptive_max_pool(x, output_size) -> tuple:
    """(max of each adaptive window, its flat index in the input volume): the first maximum of each window in
    row-major order, or its last NaN (PyTorch's ``val > max || isnan(val)`` scan)."""
    k = len(output_size)
    sizes = x.shape[-k:]
    values = np.empty(x.shape[:-k] + tuple(output_size), x.dtype)
    indices = np.empty(values.shape, np.int64)
    spans = [list(enumerate(_adaptive_windows(n, o))) for n, o in zip(sizes, output_size)]
    for cell in itertools.product(*spans):
        box = tuple(slice(a, b) for _, (a, b) in cell)
        shape = tuple(b - a for _, (a, b) in cell)
        flat = x[(...,) + box].reshape(x.shape[:-k] + (int(np.prod(shape)),))
        pick = flat.argmax(axis=-1)
        if x.dtype.kind == "f":
            nan = np.isnan(flat)
            last = flat.shape[-1] - 1 - nan[..., ::-1].argmax(axis=-1)
            pick = np.where(nan.any(axis=-1), last, pick)
        where = (...,) + tuple(i for i, _ in cell)
        values[where] = np.take_along_axis(flat, pick[..., None], axis=-1)[..., 0]
        index = np.zeros(pick.shape, np.int64)
        for (_, (a, _b)), offset, n in zip(cell, np.unravel_index(pick, shape), sizes):
            index = index * n + a + offset
        indices[where] = index
    return values, indices


def adaptive_avg_pool(x, output_size) -> np.ndarray:
    """Each output the mean of its adaptive window over the last k dims, as PyTorch's CPU kernel: the window's
    elements added one by one in row-major order in the input's dtype (halves too), then divided by each size."""
    k = len(output_size)
    out = np.empty(x.shape[:-k] + tuple(output_size), x.dtype)
    spans = [list(enumerate(_adaptive_windows(n, o))) for n, o in zip(x.shape[-k:], output_size)]
    for cell in itertools.product(*spans):
        box = tuple(slice(a, b) for _, (a, b) in cell)
        size = math.prod(b - a for _, (a, b) in cell)   # (spelled out, not -1: the batch may be empty)
        flat = x[(...,) + box].reshape(x.shape[:-k] + (size,))
        total = np.add.accumulate(flat, axis=-1)[..., -1]
        for _, (a, b) in cell:
            total = total / x.dtype.type(b - a)
        out[(...,) + tuple(i for i, _ in cell)] = total
    return out


def adaptive_avg_pool_backward(g, x_shape) -> np.ndarray:
    """Each output's gradient divided by its window's sizes, added to the window's elements (outputs in order)."""
    k = 3
    grad = np.zeros(x_shape, g.dtype)
    spans = [list(enumerate(_adaptive_windows(n, o))) for n, o in zip(x_shape[-k:], g.shape[-k:])]
    for cell in itertools.product(*spans):
        share = g[(...,) + tuple(i for i, _ in cell)]
        for _, (a, b) in cell:
            share = share / g.dtype.type(b - a)
        grad[(...,) + tuple(slice(a, b) for _, (a, b) in cell)] += share[(...,) + (None,) * k]
    return grad


def _fractional_starts(sample, size: int, out: int, pool: int) -> np.ndarray:
    """PyTorch's generate_intervals: window i starts at ⌊(i + u)·α⌋ - ⌊u·α⌋, α = (size - pool)/(out - 1), in the
    sample's dtype; the last window ends at the input's end."""
    t = type(sample)
    starts = np.zeros(out, np.int64)
    if out > 1:
        alpha = t(size - pool) / t(out - 1)
        starts = np.array([int(t(t(i) + sample) * alpha) - int(t(sample * alpha)) for i in range(out)], np.int64)
    if out > 0:
        starts[-1] = size - pool
    return starts


def fractional_max_pool(x, kernel_size, output_size, samples) -> tuple:
    """(max of each pseudo-random window, its flat index in the plane/volume) over the last k = len(kernel_size)
    dims: along dim d, windows start where ``_fractional_starts`` puts them with u = samples[n, c, d]; the first
    maximum in row-major order wins, or the last NaN (PyTorch's ``val > max || isnan(val)`` scan)."""
    k = len(kernel_size)
    batched = x.ndim == k + 2
    xb = x if batched else x[None]
    n, c, sizes = xb.shape[0], xb.shape[1], xb.shape[2:]
    values = np.empty((n, c, *output_size), x.dtype)
    indices = np.empty((n, c, *output_size), np.int64)
    if values.size:
        volume_strides = [int(np.prod(sizes[d + 1:])) for d in range(k)]
        offsets = sum(np.arange(p).reshape((1,) * k + tuple(-1 if e == d else 1 for e in range(k))) * st
                      for d, (p, st) in enumerate(zip(kernel_size, volume_strides)))
        for b in range(n):
            for p in range(c):
                starts = [_fractional_starts(samples[b, p, d], sizes[d], output_size[d], kernel_size[d])
                          for d in range(k)]
                base = sum(s.reshape(tuple(-1 if e == d else 1 for e in range(k))) * st
                           for d, (s, st) in enumerate(zip(starts, volume_strides)))
                flat = (base.reshape(base.shape + (1,) * k) + offsets).reshape(*output_size, -1)
                if flat.shape[-1] == 0:   # a zero kernel: PyTorch's scan keeps its start (-inf at the window's origin)
                    values[b, p], indices[b, p] = -np.inf, base
                    continue
                window = xb[b, p].reshape(-1)[flat]
                pick = window.argmax(axis=-1)
                if x.dtype.kind == "f":
                    nan = np.isnan(window)
                    last = window.shape[-1] - 1 - nan[..., ::-1].argmax(axis=-1)
                    pick = np.where(nan.any(axis=-1), last, pick)
                values[b, p] = np.take_along_axis(window, pick[..., None], axis=-1)[..., 0]
                indices[b, p] = np.take_along_axis(flat, pick[..., None], axis=-1)[..., 0]
    return (values, indices) if batched else (values[0], indices[0])


def fractional_max_pool2d(x, kernel_size, output_size, samples) -> tuple:
    """The 2-d case: PyTorch's samples[n, c] hold (u for W, u for H), the reverse of the dims' order."""
    return fractional_max_pool(x, kernel_size, output_size, samples[..., ::-1])
