"""The NumPy arithmetic of convolution and pooling: every window of the input as one strided view.

A convolution's output element is the dot product of the kernel with one window of the zero-padded
input. ``sliding_window_view`` gives all the windows at once, as a view of shape
(N, C, *out, *kernel) ("im2col" without a copy); one ``np.tensordot`` then computes every dot product
in a single BLAS call. The gradient with respect to the input sends each window's gradient back to
the pixels it came from ("col2im"): one slice addition per kernel offset (25 for a 5x5 kernel), never
a Python loop over pixels.

Shapes: input (N, C_in, *spatial), weight (C_out, C_in / groups, *kernel), with k spatial dims (1, 2
or 3). ``stride``, ``padding`` and ``dilation`` are tuples of k ints here (the callers expand them).
The derivative table (``derivatives.py``, section "Convolution, pooling, normalization") wraps these
functions in ops; nothing here records a graph.
"""
from __future__ import annotations

import functools
import itertools
import math

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from . import _conv_bits  # float32 convolutions in PyTorch's order


def out_size(size: int, kernel: int, stride: int, padding: int, dilation: int = 1, ceil_mode: bool = False) -> int:
    """How many windows fit along one dim (PyTorch's formula; ceil_mode as its pooling layers)."""
    span = size + 2 * padding - dilation * (kernel - 1) - 1
    if not ceil_mode:
        return span // stride + 1
    out = -(-span // stride) + 1
    if (out - 1) * stride >= size + padding:  # the last window must start inside the input or its left padding
        out -= 1
    return out


def pad(x: np.ndarray, before, after, value=0) -> np.ndarray:
    """``x`` with its last len(before) dims padded by ``value`` (``before``/``after`` elements on each side)."""
    if not any(before) and not any(after):
        return x
    k = len(before)
    shape = x.shape[:-k] + tuple(n + b + a for n, b, a in zip(x.shape[-k:], before, after))
    out = np.full(shape, value, dtype=x.dtype)
    out[(...,) + tuple(slice(b, b + n) for b, n in zip(before, x.shape[-k:]))] = x
    return out


def windows(x: np.ndarray, kernel, stride, dilation, out) -> np.ndarray:
    """Every window over the last k dims of ``x``, as a view of shape x.shape[:-k] + out + kernel."""
    k = len(kernel)
    extent = tuple(d * (n - 1) + 1 for n, d in zip(kernel, dilation))
    view = sliding_window_view(x, extent, axis=tuple(range(x.ndim - k, x.ndim)))
    starts = tuple(slice(0, s * (o - 1) + 1 if o else 0, s) for s, o in zip(stride, out))
    taps = tuple(slice(None, None, d) for d in dilation)  # a dilated kernel reads every d-th element
    return view[(...,) + starts + taps]


def _output_shape(x_shape, kernel, stride, padding, dilation) -> tuple:
    return tuple(out_size(n, kk, s, p, d) for n, kk, s, p, d in zip(x_shape[2:], kernel, stride, padding, dilation))


# ---- convolution ------------------------------------------------------------------------------
# The windows are copied once into the im2col matrix: one row per (input channel, kernel tap), one
# column per (sample, output position). Every product below is then a single matrix product whose
# long dimension is the columns (the layout BLAS is fastest with: (6, 75) @ (75, 3136), not the reverse).

def _im2col(x, kernel, stride, padding, dilation, out) -> np.ndarray:
    """The (C·Πkernel, N·Πout) matrix of every window of the zero-padded x."""
    k = len(kernel)
    cols = windows(pad(x, padding, padding), kernel, stride, dilation, out)          # (N, C, *out, *kernel)
    order = (1, *range(2 + k, 2 + 2 * k), 0, *range(2, 2 + k))                        # (C, *kernel, N, *out)
    # (sizes spelled out, not -1: a reshape of an empty array must be told them)
    return np.ascontiguousarray(cols.transpose(order)).reshape(x.shape[1] * math.prod(kernel),
                                                               x.shape[0] * math.prod(out))


def _channels_first(g) -> np.ndarray:
    """(N, C, *out) as the (C, N·Πout) matrix."""
    return np.ascontiguousarray(np.moveaxis(g, 1, 0)).reshape(g.shape[1], g.shape[0] * math.prod(g.shape[2:]))


def _float32_sums(kernel=None, *, float16: bool = True):
    """``kernel`` computing bfloat16 (and float16) operands in float32 and rounding once at the end, as PyTorch's
    CPU convolutions accumulate them (NumPy would round after every addition). PyTorch's float16 backward
    (slow_conv2d: col2im and per-sample gemms in float16) rounds more often: ``float16=False`` leaves it be."""
    if kernel is None:
        return functools.partial(_float32_sums, float16=float16)
    kinds = "fV" if float16 else "V"   # (bfloat16's NumPy kind is "V")

    @functools.wraps(kernel)
    def wrapped(a, b, *rest, **kwargs):
        if a.dtype.itemsize != 2 or a.dtype.kind not in kinds:
            return kernel(a, b, *rest, **kwargs)
        rest = tuple(r.astype(np.float32) if isinstance(r, np.ndarray) and r.dtype == a.dtype else r for r in rest)
        return kernel(a.astype(np.float32), b.astype(np.float32), *rest, **kwargs).astype(a.dtype)
    return wrapped


@_float32_sums
def conv_forward(x, w, b, stride, padding, dilation, groups: int, bits: bool = False) -> np.ndarray:
    """y[n, o, *p] = b[o] + Σ_{c, *q} x_padded[n, c, p·stride + q·dilation] · w[o, c, *q], per group.

    ``bits``: a convolution (not a transposed one's piece) in PyTorch's float32 order where ``_conv_bits`` can."""
    k = w.ndim - 2
    out = _output_shape(x.shape, w.shape[2:], stride, padding, dilation)
    exact = _conv_bits.forward(x, w, b, stride, padding, dilation, groups, out) if bits else None
    if exact is not None:
        return exact
    cg, og = x.shape[1] // groups, w.shape[0] // groups
    parts = [w[g * og:(g + 1) * og].reshape(og, math.prod(w.shape[1:]))
             @ _im2col(x[:, g * cg:(g + 1) * cg], w.shape[2:], stride, padding, dilation, out)
             for g in range(groups)]                                                 # each (C_out/groups, N·Πout)
    y = (parts[0] if groups == 1 else np.concatenate(parts)).reshape((w.shape[0], x.shape[0]) + out)
    if b is not None:
        y = y + b.reshape((-1,) + (1,) * (k + 1))
    return np.ascontiguousarray(np.moveaxis(y, 0, 1), dtype=np.result_type(x, w))


@_float32_sums(float16=False)
def conv_backward_input(g, w, input_shape, stride, padding, dilation, groups: int, bits: bool = False) -> np.ndarray:
    """dL/dx: each output gradient times the kernel, added back over the window it came from (col2im)."""
    exact = _conv_bits.backward_input(g, w, input_shape, stride, padding, dilation, groups) if bits else None
    if exact is not None:
        return exact
    n, c = input_shape[:2]
    out = g.shape[2:]
    kernel = w.shape[2:]
    padded = np.zeros((n, c) + tuple(s + 2 * p for s, p in zip(input_shape[2:], padding)), dtype=np.result_type(g, w))
    cg, og = c // groups, w.shape[0] // groups
    if 0 not in out:
        for grp in range(groups):
            # cols[c, *kernel, n, *out] = Σ_o w[o, c, *kernel] · g[n, o, *out]
            taps = w[grp * og:(grp + 1) * og].reshape(og, math.prod(w.shape[1:]))
            cols = taps.T @ _channels_first(g[:, grp * og:(grp + 1) * og])
            cols = cols.reshape((cg, *kernel, n, *out))
            target = padded[:, grp * cg:(grp + 1) * cg]
            for offset in itertools.product(*(range(m) for m in kernel)):
                rows = tuple(slice(q * d, q * d + s * (o - 1) + 1, s)
                             for q, d, s, o in zip(offset, dilation, stride, out))
                target[(slice(None), slice(None)) + rows] += np.moveaxis(cols[(slice(None),) + offset], 0, 1)
    crop = tuple(slice(p, p + s) for p, s in zip(padding, input_shape[2:]))
    return np.ascontiguousarray(padded[(slice(None), slice(None)) + crop])


@_float32_sums(float16=False)
def conv_backward_weight(g, x, weight_shape, stride, padding, dilation, groups: int, bits: bool = False) -> np.ndarray:
    """dL/dw[o, c, *q] = Σ_{n, *p} g[n, o, *p] · x_padded[n, c, p·stride + q·dilation] (the windows again)."""
    if g.dtype == np.float16:  # PyTorch's slow_conv2d: one float32 product per sample, added to a float16 total
        total = np.zeros(weight_shape, np.float16)
        for i in range(g.shape[0]):
            part = conv_backward_weight(g[i:i + 1].astype(np.float32), x[i:i + 1].astype(np.float32), weight_shape,
                                        stride, padding, dilation, groups)
            total = (total.astype(np.float32) + part).astype(np.float16)
        return total
    exact = _conv_bits.backward_weight(g, x, weight_shape, stride, padding, dilation, groups) if bits else None
    if exact is not None:
        return exact
    out = g.shape[2:]
    cg, og = x.shape[1] // groups, weight_shape[0] // groups
    # each part: (C_out/groups, C/groups·Πkernel)
    parts = [_channels_first(g[:, grp * og:(grp + 1) * og])
             @ _im2col(x[:, grp * cg:(grp + 1) * cg], weight_shape[2:], stride, padding, dilation, out).T
             for grp in range(groups)]
    gw = parts[0] if groups == 1 else np.concatenate(parts)
    return np.ascontiguousarray(gw.reshape(weight_shape), dtype=np.result_type(g, x))


def conv_backward_bias(g, geometry=None, transposed: bool = False) -> np.ndarray:
    """dL/db[o] = Σ_{n, *p} g[n, o, *p]; ``geometry`` (x_shape, w_shape, stride, dilation, groups, and a
    convolution's padding): PyTorch's float32 order for a convolution (or a transposed one) where ``_conv_bits`` can."""
    exact = None
    if geometry is not None:
        exact = (_conv_bits.transpose_backward_bias if transposed else _conv_bits.backward_bias)(g, *geometry)
    if exact is not None:
        return exact
    if g.dtype.itemsize == 2:  # float16, bfloat16: PyTorch sums in float32 and rounds once
        return g.sum(axis=(0, *range(2, g.ndim)), dtype=np.float32).astype(g.dtype)
    return g.sum(axis=(0, *range(2, g.ndim)), dtype=g.dtype)


# ---- pooling (over the last two dims; any leading dims: (C, H, W) or (N, C, H, W)) -------------------

def _pool_layout(shape, kernel, stride, padding, dilation, ceil_mode):
    """(output sizes, right padding) of a 2-d pooling: the right side gets what ceil_mode's last window needs."""
    out = tuple(out_size(n, kk, s, p, d, ceil_mode) for n, kk, s, p, d in zip(shape[-2:], kernel, stride, padding,
                                                                               dilation))
    right = tuple(max(0, (o - 1) * s + d * (kk - 1) + 1 - n - p)
                  for o, n, kk, s, p, d in zip(out, shape[-2:], kernel, stride, padding, dilation))
    return out, right


def max_pool2d(x, kernel, stride, padding, dilation, ceil_mode: bool):
    """(max of each window, its flat index h·W + w in the input plane), as PyTorch's max_pool2d_with_indices."""
    out, right = _pool_layout(x.shape, kernel, stride, padding, dilation, ceil_mode)
    floating = x.dtype.kind not in "iub"  # (bfloat16's NumPy kind is "V")
    fill = -np.inf if floating else np.iinfo(x.dtype).min
    cols = windows(pad(x, padding, right, fill), kernel, stride, dilation, out)
    flat = cols.reshape(cols.shape[:-2] + (kernel[0] * kernel[1],))
    pick = flat.argmax(axis=-1)   # the first maximum, as PyTorch's ``val > maxval`` scan
    if floating:
        nan = np.isnan(flat)
        if nan.any():  # PyTorch's scan takes every NaN it meets (``|| isnan(val)``): the last one wins
            last = flat.shape[-1] - 1 - nan[..., ::-1].argmax(axis=-1)
            pick = np.where(nan.any(axis=-1), last, pick)
    values = np.take_along_axis(flat, pick[..., None], axis=-1)[..., 0]
    kh, kw = np.divmod(pick, kernel[1])
    start_h = np.arange(out[0]) * stride[0] - padding[0]
    start_w = np.arange(out[1]) * stride[1] - padding[1]
    rows = start_h[:, None] + kh * dilation[0]
    cols_ = start_w[None, :] + kw * dilation[1]
    height, width = x.shape[-2:]
    outside = (rows < 0) | (rows >= height) | (cols_ < 0) | (cols_ >= width)
    if outside.any():
        # only when every real element of the window equals the padding value (all -inf): PyTorch then
        # reports the window's first element inside the input
        first_h = start_h + dilation[0] * np.maximum(0, (dilation[0] - 1 - start_h) // dilation[0])
        first_w = start_w + dilation[1] * np.maximum(0, (dilation[1] - 1 - start_w) // dilation[1])
        rows = np.where(outside, first_h[:, None], rows)
        cols_ = np.where(outside, first_w[None, :], cols_)
    return np.ascontiguousarray(values), (rows * width + cols_).astype(np.int64)


def max_pool2d_backward(g, x_shape, indices) -> np.ndarray:
    """Each window's gradient goes to the element that was its maximum (summed where windows share it).

    As PyTorch's kernel: the outputs in order, each adding its gradient in the gradient's dtype (np.add.at adds
    one after another, so an element shared by 3+ windows gets the same bits)."""
    plane = x_shape[-2] * x_shape[-1]
    planes = int(np.prod(g.shape[:-2]))
    flat = (indices.reshape(planes, g.shape[-2] * g.shape[-1]) + (np.arange(planes) * plane)[:, None]).reshape(-1)
    total = np.zeros(planes * plane, g.dtype)
    np.add.at(total, flat, g.reshape(-1))
    return total.reshape(x_shape)


def _avg_divisors(shape, kernel, stride, padding, out, count_include_pad: bool, divisor_override):
    """The (out_h, out_w) divisor of each window: its size (padding included or not), or the override."""
    if divisor_override is not None:
        return np.full(out, divisor_override)
    counts = []
    for n, kk, s, p, o in zip(shape[-2:], kernel, stride, padding, out):
        start = np.arange(o) * s - p
        end = np.minimum(start + kk, n + p)   # a ceil_mode window may reach past the padding: cut there
        counts.append(end - start if count_include_pad else np.minimum(end, n) - np.maximum(start, 0))
    return counts[0][:, None] * counts[1][None, :]


def avg_pool2d(x, kernel, stride, padding, ceil_mode: bool, count_include_pad: bool, divisor_override):
    """The sum of each window divided by its divisor (PyTorch's avg_pool2d)."""
    if x.dtype.itemsize == 2 and x.dtype.kind in "fV":   # float16/bfloat16: the kernel sums and divides in float32
        return avg_pool2d(x.astype(np.float32), kernel, stride, padding, ceil_mode, count_include_pad,
                          divisor_override).astype(x.dtype)   # (opmath), rounding once
    out, right = _pool_layout(x.shape, kernel, stride, padding, (1, 1), ceil_mode)
    padded = pad(x, padding, right)
    # PyTorch's kernel adds each window's elements one by one, row after row, in the input's dtype (from 0;
    # the padding's zeros change no sum)
    total = np.zeros(x.shape[:-2] + tuple(out), x.dtype)
    if 0 not in out:
        for i, j in itertools.product(range(kernel[0]), range(kernel[1])):
            total = total + padded[..., i:i + stride[0] * (out[0] - 1) + 1:stride[0],
                                   j:j + stride[1] * (out[1] - 1) + 1:stride[1]]
    div = _avg_divisors(x.shape, kernel, stride, padding, out, count_include_pad, divisor_override)
    if x.dtype.kind != "f":   # integer inputs: C++'s integer division, which truncates toward zero
        return (total / div).astype(x.dtype)
    return np.ascontiguousarray(total / div.astype(x.dtype), dtype=x.dtype)


def avg_pool2d_backward(g, x_shape, kernel, stride, padding, ceil_mode: bool, count_include_pad: bool,
                        divisor_override) -> np.ndarray:
    """Each window's gradient, divided by the window's divisor, spread evenly over the window."""
    out, right = _pool_layout(x_shape, kernel, stride, padding, (1, 1), ceil_mode)
    share = g / _avg_divisors(x_shape, kernel, stride, padding, out, count_include_pad,
                              divisor_override).astype(g.dtype)
    padded = np.zeros(x_shape[:-2] + tuple(n + p + r for n, p, r in zip(x_shape[-2:], padding, right)), g.dtype)
    if 0 not in out:
        # PyTorch adds the outputs' shares in output order: an element gets them from the last kernel offset
        # to the first (the offsets reversed), which gives the same bits where 3+ windows overlap
        for i, j in itertools.product(range(kernel[0] - 1, -1, -1), range(kernel[1] - 1, -1, -1)):
            padded[..., i:i + stride[0] * (out[0] - 1) + 1:stride[0], j:j + stride[1] * (out[1] - 1) + 1:stride[1]] \
                += share
    return np.ascontiguousarray(padded[..., padding[0]:padding[0] + x_shape[-2], padding[1]:padding[1] + x_shape[-1]])


def adaptive_matrix(size: int, out: int, dtype) -> np.ndarray:
    """The (out, size) averaging matrix of adaptive pooling: row i averages [⌊i·size/out⌋, ⌈(i+1)·size/out⌉)."""
    i = np.arange(out)
    start = (i * size) // out
    end = -(-(i + 1) * size // out)
    j = np.arange(size)
    inside = (j >= start[:, None]) & (j < end[:, None])
    return (inside / (end - start)[:, None]).astype(dtype)


def _adaptive_windows(size: int, out: int) -> list:
    """[start, end) of each output's window: [⌊i·size/out⌋, ⌈(i+1)·size/out⌉)."""
    return [((i * size) // out, -(-(i + 1) * size // out)) for i in range(out)]


def adaptive_avg_pool2d(x, output_size) -> np.ndarray:
    """Each output the mean of its window over the last two dims, as PyTorch's kernel: the window's elements
    added one by one in the input's dtype, then divided by its height, then by its width."""
    if x.dtype.itemsize == 2 and x.dtype.kind in "fV":   # float16/bfloat16: all of it in float32 (opmath), rounded
        return adaptive_avg_pool2d(x.astype(np.float32), output_size).astype(x.dtype)
    if x.dtype.kind != "f":
        a_h = adaptive_matrix(x.shape[-2], output_size[0], x.dtype)
        a_w = adaptive_matrix(x.shape[-1], output_size[1], x.dtype)
        # (bfloat16, whose NumPy kind is not "f": the products come out in float32)
        return np.ascontiguousarray(np.matmul(np.matmul(a_h, x), a_w.T), dtype=x.dtype)
    out = np.empty(x.shape[:-2] + tuple(output_size), x.dtype)
    for i, (h0, h1) in enumerate(_adaptive_windows(x.shape[-2], output_size[0])):
        for j, (w0, w1) in enumerate(_adaptive_windows(x.shape[-1], output_size[1])):
            block = x[..., h0:h1, w0:w1].reshape(x.shape[:-2] + ((h1 - h0) * (w1 - w0),))
            total = np.add.accumulate(block, axis=-1)[..., -1] if block.size else np.zeros(x.shape[:-2], x.dtype)
            out[..., i, j] = total / x.dtype.type(h1 - h0) / x.dtype.type(w1 - w0)
    return out


def _check_adaptive_grad(g, name: str) -> None:
    """PyTorch's adaptive pooling backward refuses a gradient with an empty non-batch dim."""
    for i in range(1, g.ndim):
        if g.shape[i] == 0:
            raise RuntimeError(f"{name}(): Expected grad_output to have non-zero size for non-batch dimensions, "
                               f"but grad_output has sizes {list(g.shape)} with dimension {i} being empty")


def adaptive_avg_pool2d_backward(g, x_shape) -> np.ndarray:
    """Each output's gradient, divided by its window's height then width, added to the window's elements
    (outputs in order, as PyTorch's kernel: overlapping windows give the same bits)."""
    _check_adaptive_grad(g, "adaptive_avg_pool2d_backward")
    if g.dtype.kind not in "fV":   # (bfloat16's NumPy kind is "V": it steps in its own type like float16)
        a_h = adaptive_matrix(x_shape[-2], g.shape[-2], g.dtype)
        a_w = adaptive_matrix(x_shape[-1], g.shape[-1], g.dtype)
        return np.ascontiguousarray(np.matmul(np.matmul(a_h.T, g), a_w))
    grad = np.zeros(x_shape, g.dtype)
    for i, (h0, h1) in enumerate(_adaptive_windows(x_shape[-2], g.shape[-2])):
        for j, (w0, w1) in enumerate(_adaptive_windows(x_shape[-1], g.shape[-1])):
            share = g[..., i, j] / g.dtype.type(h1 - h0) / g.dtype.type(w1 - w0)
            grad[..., h0:h1, w0:w1] += share[..., None, None]
    return grad


# ---- transposed convolution ---------------------------------------------------------------------
# conv_transpose(x, w) is the gradient of conv(·, w) with respect to its input, applied to x: each input
# element scatters its kernel-weighted copy into the output (col2im), and its two gradients are the
# plain convolution (d/dx) and the weight gradient of a convolution with x and g swapped (d/dw).
# Weight layout: (C_in, C_out / groups, *kernel), the transpose of a convolution's.

def conv_transpose_output_shape(x_shape, kernel, stride, padding, dilation, output_padding) -> tuple:
    """PyTorch's output size per spatial dim: (n - 1)·s - 2p + d·(k - 1) + output_padding + 1."""
    return tuple((n - 1) * s - 2 * p + d * (kk - 1) + op + 1
                 for n, kk, s, p, d, op in zip(x_shape[2:], kernel, stride, padding, dilation, output_padding))


@_float32_sums(float16=False)  # (float16: PyTorch's slow_conv_transpose2d adds up its columns in float16)
def conv_transpose_forward(x, w, b, stride, padding, dilation, output_padding, groups: int,
                           bits: bool = False) -> np.ndarray:
    """y = Jᵀx for J the convolution with weight w (col2im of x·w), plus bias (``bits``: as conv_forward)."""
    k = w.ndim - 2
    spatial = conv_transpose_output_shape(x.shape, w.shape[2:], stride, padding, dilation, output_padding)
    y_shape = (x.shape[0], w.shape[1] * groups) + spatial
    exact = _conv_bits.transpose_forward(x, w, b, stride, padding, dilation, groups, y_shape) if bits else None
    if exact is not None:
        return exact
    y = conv_backward_input(x, w, (x.shape[0], w.shape[1] * groups) + spatial, stride, padding, dilation, groups)
    if b is not None:
        y = y + b.reshape((-1,) + (1,) * k)
    return np.ascontiguousarray(y, dtype=np.result_type(x, w))


def conv_transpose_backward_input(g, w, input_shape, stride, padding, dilation, groups: int,
                                  bits: bool = False) -> np.ndarray:
    """dL/dx = conv(g, w): a convolution undoes the scatter (cut to x's size when output_padding ≥ stride)."""
    exact = _conv_bits.transpose_backward_input(g, w, input_shape, stride, padding, dilation, groups) if bits else None
    if exact is not None:
        return exact
    gx = conv_forward(g, w, None, stride, padding, dilation, groups)
    return np.ascontiguousarray(gx[(slice(None), slice(None)) + tuple(slice(0, n) for n in input_shape[2:])])


def conv_transpose_backward_weight(g, x, weight_shape, stride, padding, dilation, groups: int,
                                   bits: bool = False) -> np.ndarray:
    """dL/dw[c, o, *q] = Σ_{n, *p} x[n, c, *p] · g_padded[n, o, p·stride + q·dilation] (a convolution's
    weight gradient with the roles of x and g swapped)."""
    exact = None if not bits else _conv_bits.transpose_backward_weight(g, x, weight_shape, stride, padding, dilation,
                                                                       groups)
    if exact is not None:
        return exact
    return conv_backward_weight(x, g, weight_shape, stride, padding, dilation, groups)


def adaptive_max_pool2d(x, output_size) -> tuple:
    """(max of each adaptive window, its flat index h·W + w in the input plane), as PyTorch's kernel: the first
    maximum of each window in row-major order, or its last NaN (PyTorch's scan takes ``val > max || isnan(val)``)."""
    height, width = x.shape[-2:]
    values = np.empty(x.shape[:-2] + tuple(output_size), x.dtype)
    indices = np.empty(values.shape, np.int64)
    for i, (h0, h1) in enumerate(_adaptive_windows(height, output_size[0])):
        for j, (w0, w1) in enumerate(_adaptive_windows(width, output_size[1])):
            flat = x[..., h0:h1, w0:w1].reshape(x.shape[:-2] + ((h1 - h0) * (w1 - w0),))
            pick = flat.argmax(axis=-1)
            if x.dtype.kind == "f":
                nan = np.isnan(flat)
                last = flat.shape[-1] - 1 - nan[..., ::-1].argmax(axis=-1)
                pick = np.where(nan.any(axis=-1), last, pick)
            values[..., i, j] = np.take_along_axis(flat, pick[..., None], axis=-1)[..., 0]
            kh, kw = np.divmod(pick, w1 - w0)
            indices[..., i, j] = (h0 + kh) * width + w0 + kw
    return values, indices
