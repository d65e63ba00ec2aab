"""The NumPy arithmetic of 3-d pooling (max, average, adaptive max) over the last k dims, any k.

The same steps as ``_conv``'s 2-d pooling kernels, with the window offsets and flat indices written for k
dims: ``windows`` gives every window as a strided view, the maximum's position in its window becomes a flat
index ``(d·H + h)·W + w`` into the input volume, and average pooling adds the window's elements one kernel
offset at a time (PyTorch's order, so float32 sums round the same). The derivative table (``derivatives.py``,
section "missing-nn pass 4") wraps these functions in ops; nothing here records a graph.
"""
from __future__ import annotations

import itertools

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
    floating = x.dtype.kind == "f"
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
    flat = (indices.reshape(planes, -1) + (np.arange(planes) * volume)[:, None]).reshape(-1)
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
