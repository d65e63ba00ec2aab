"""Linear and bilinear resizing (``F.interpolate(mode="linear" | "bilinear")``) with PyTorch's last bits.

PyTorch's CPU kernels (aten/src/ATen/native/cpu/UpSampleKernel.cpp), in the input's float type (half:
float32 arithmetic, the linear weights rounded to half); the orders below were found by experiment:
- each output index o reads the source position ``scale * (o + 0.5) - 0.5`` (one fused multiply-add,
  clamped at 0; ``align_corners``: ``scale * o``), splits it into an index i0 and a weight l1 (i1 = i0 + 1
  unless at the edge, l0 = 1 - l1) — ``area_pixel_compute_source_index`` / ``compute_source_index_and_lambda``;
- linear: ``x0*l0 + x1*l1`` contracted to ``fma(x0, l0, x1*l1)``;
- bilinear, small outputs (H_out + W_out <= 128): one pass with the four products' weights
  ``w = lh * lw``, summed in the order the compiler left (different for the 8-channel vector blocks and
  the scalar tail); larger outputs: one linear pass along the width, rounded, then one along the height;
- backward: each output gradient added into the 1, 2 or 4 input cells it read, in output order,
  ``cell = fma(weight, grad, cell)`` (``round_scatter`` replays that order on whole arrays).
Antialiased bilinear/bicubic (``antialias=True``), nearest and bicubic have sections of their own below.
The functions here work on NumPy arrays; their table rows are in ``derivatives.py``.
"""
from __future__ import annotations

import math

import numpy as np

from ._fused import fma64
from ._reduce import THREADS


def _fma(a, b, c, dtype) -> np.ndarray:
    """a * b + c rounded once to ``dtype`` (float32: the product is exact in float64)."""
    if dtype == np.float64:
        return fma64(a, b, c)
    return (np.multiply(a, b, dtype=np.float64) + c).astype(dtype)


def source_weights(in_size: int, out_size: int, align_corners: bool, scale, dtype, stored=None) -> tuple:
    """(i0, i1, l0, l1) per output index: the two input indices read and their weights.

    ``stored``: the forward kernels keep the weights in the tensor's dtype (half: rounded, then used in float32).
    """
    if out_size == in_size:                      # the kernel copies: weight 1 on the same index
        i = np.arange(out_size)
        return i, i, np.ones(out_size, dtype), np.zeros(out_size, dtype)
    o = np.arange(out_size).astype(dtype)
    if align_corners:
        ratio = dtype(in_size - 1) / dtype(out_size - 1) if out_size > 1 else dtype(0)
        real = (ratio * o).astype(dtype)
    else:
        ratio = dtype(1.0 / scale) if scale is not None and scale > 0 else dtype(in_size) / dtype(out_size)
        real = _fma(ratio, o + dtype(0.5), -0.5, dtype)
        real = np.where(real < 0, dtype(0), real).astype(dtype)
    # (PyTorch's guard_index_and_lambda floors with floorf: a float64 index just below an integer rounds up to it
    # in float32, and its weight l1 = real - i0 < 0 is clamped to 0)
    i0 = np.minimum(np.floor(real.astype(np.float32)).astype(np.int64), in_size - 1)
    l1 = np.clip(real - i0.astype(dtype), dtype(0), dtype(1)).astype(dtype)
    i1 = i0 + (i0 < in_size - 1)
    if stored is not None and stored != dtype:
        l1 = l1.astype(stored).astype(dtype)
        return i0, i1, (dtype(1) - l1).astype(stored).astype(dtype), l1
    return i0, i1, (dtype(1) - l1).astype(dtype), l1


def _opmath(dtype) -> type:
    """The type PyTorch's kernels compute in: float32 for half and bfloat16, else the dtype itself."""
    dtype = np.dtype(dtype)
    return np.float32 if dtype.itemsize == 2 and dtype.kind in "fV" else dtype.type


def _linear_along(x: np.ndarray, axis: int, out_size: int, align_corners: bool, scale, stored) -> np.ndarray:
    """One linear pass along ``axis``: fma(x0, l0, x1*l1) in x's dtype (half: float32, weights ``stored``)."""
    dt = _opmath(stored)
    i0, i1, l0, l1 = source_weights(x.shape[axis], out_size, align_corners, scale, dt, stored)
    shape = [1] * x.ndim
    shape[axis] = out_size
    x0, x1 = np.take(x, i0, axis=axis), np.take(x, i1, axis=axis)
    return _fma(x0.astype(dt, copy=False), l0.reshape(shape), x1 * l1.reshape(shape), dt)


def upsample_linear1d(x: np.ndarray, output_size, align_corners: bool, scales) -> np.ndarray:
    """(N, C, W) -> (N, C, W_out)."""
    return _linear_along(x, 2, output_size[0], align_corners, scales, x.dtype).astype(x.dtype, copy=False)


def upsample_bilinear2d(x: np.ndarray, output_size, align_corners: bool, scales_h, scales_w) -> np.ndarray:
    """(N, C, H, W) -> (N, C, H_out, W_out), choosing PyTorch's kernel as it does."""
    (oh, ow), (c, h, w) = output_size, x.shape[1:]
    # PyTorch's test: small outputs, or a channels-last input with C > 3 (a 1x1 image is one), or C == 3 on 1 thread
    if oh + ow <= 128 or (h == 1 and w == 1 and c > 3) or (THREADS[0] == 1 and c == 3):
        return _bilinear_one_pass(x, oh, ow, align_corners, scales_h, scales_w)
    y = x                                        # separable: width first, then height (equal sizes skipped)
    if ow != w:
        y = _linear_along(y, 3, ow, align_corners, scales_w, x.dtype)
    if oh != h:
        y = _linear_along(y, 2, oh, align_corners, scales_h, x.dtype)
    return np.ascontiguousarray(y.astype(x.dtype, copy=False))


def _bilinear_one_pass(x, oh, ow, align_corners, scales_h, scales_w) -> np.ndarray:
    """The channels-last kernel: four weighted corners; vector blocks of 8 channels and a scalar tail."""
    dtype, dt = x.dtype, _opmath(x.dtype)
    x = x.astype(dt, copy=False)
    h0, h1, lh0, lh1 = source_weights(x.shape[2], oh, align_corners, scales_h, dt)   # (weights in float32)
    w0, w1, lw0, lw1 = source_weights(x.shape[3], ow, align_corners, scales_w, dt)
    lh0, lh1, h0, h1 = lh0[:, None], lh1[:, None], h0[:, None], h1[:, None]
    w00, w01, w10, w11 = lh0 * lw0, lh0 * lw1, lh1 * lw0, lh1 * lw1
    x00, x01, x10, x11 = x[..., h0, w0], x[..., h0, w1], x[..., h1, w0], x[..., h1, w1]
    out = np.empty(x.shape[:2] + (oh, ow), x.dtype)
    lanes = 32 // x.dtype.itemsize               # 256-bit blocks: 8 float32 / 4 float64 (found by experiment)
    vec = x.shape[1] - x.shape[1] % lanes
    if vec:   # x00*w00 + (x01*w01 + (x10*w10 + x11*w11)), contracted innermost-last
        b = slice(0, vec)
        out[:, b] = _fma(x00[:, b], w00, _fma(x01[:, b], w01, _fma(x11[:, b], w11, x10[:, b] * w10, dt), dt), dt)
    if vec < x.shape[1]:   # ((x00*w00 + x01*w01) + x10*w10) + x11*w11, contracted left to right
        t = slice(vec, None)
        out[:, t] = _fma(x11[:, t], w11, _fma(x10[:, t], w10, _fma(x00[:, t], w00, x01[:, t] * w01, dt), dt), dt)
    return out.astype(dtype, copy=False)


def round_scatter(grad: np.ndarray, cells: np.ndarray, weights: np.ndarray, n_cells: int) -> np.ndarray:
    """Σ weights[k] * grad[..., k] into ``cells[k]``, each cell updated by fma in the order k runs."""
    acc = np.zeros(grad.shape[:-1] + (n_cells,), grad.dtype)
    for k in _update_rounds(cells):
        acc[..., cells[k]] = _fma(weights[k], grad[..., k], acc[..., cells[k]], grad.dtype)
    return acc


def _update_rounds(cells: np.ndarray):
    """The positions k in rounds where each cell appears at most once, each cell's updates in the order k runs."""
    order = np.argsort(cells, kind="stable")
    sorted_cells = cells[order]
    rank = np.arange(len(order)) - np.searchsorted(sorted_cells, sorted_cells, side="left")  # its cell's how-manieth
    for r in range(int(rank.max()) + 1 if len(rank) else 0):
        yield order[rank == r]


def upsample_linear1d_backward(g: np.ndarray, input_size, align_corners: bool, scales) -> np.ndarray:
    """Gradient of upsample_linear1d: per output w, cell i0 += l0*g then i1 += l1*g."""
    dt = _opmath(g.dtype)
    i0, i1, l0, l1 = source_weights(input_size[2], g.shape[2], align_corners, scales, dt)
    cells = np.stack([i0, i1], 1).reshape(-1)
    weights = np.stack([l0, l1], 1).reshape(-1)
    flat = np.repeat(g.astype(dt, copy=False), 2, axis=2)
    return round_scatter(flat, cells, weights, input_size[2]).astype(g.dtype, copy=False)


def upsample_bilinear2d_backward(g: np.ndarray, input_size, align_corners: bool, scales_h, scales_w) -> np.ndarray:
    """Gradient of upsample_bilinear2d: per output (h, w) the four corners, weights lh*lw, in that order."""
    dt = _opmath(g.dtype)
    (oh, ow), (h, w) = g.shape[2:], input_size[2:]
    h0, h1, lh0, lh1 = source_weights(h, oh, align_corners, scales_h, dt)
    w0, w1, lw0, lw1 = source_weights(w, ow, align_corners, scales_w, dt)
    h0, h1, lh0, lh1 = h0[:, None], h1[:, None], lh0[:, None], lh1[:, None]
    cells = np.stack([h0 * w + w0, h0 * w + w1, h1 * w + w0, h1 * w + w1], -1).reshape(-1)
    weights = np.stack([lh0 * lw0, lh0 * lw1, lh1 * lw0, lh1 * lw1], -1).reshape(-1)
    flat = np.repeat(g.astype(dt, copy=False).reshape(g.shape[:2] + (oh * ow,)), 4, axis=2)
    return round_scatter(flat, cells, weights, h * w).reshape(tuple(input_size)).astype(g.dtype, copy=False)


def upsample_trilinear3d(x: np.ndarray, output_size, align_corners: bool, scales_d, scales_h, scales_w) -> np.ndarray:
    """(N, C, D, H, W) -> (N, C, D_out, H_out, W_out) as PyTorch's generic kernel nests it: the linear sum along
    W (``fma(x0, l0, x1*l1)``) of the two H rows, along H of the two D planes, then along D (float32 bit for bit;
    float64 too)."""
    dt = _opmath(x.dtype)
    xs = x.astype(dt, copy=False)
    (od, oh, ow), (d, h, w) = output_size, x.shape[2:]
    d0, d1, ld0, ld1 = source_weights(d, od, align_corners, scales_d, dt, x.dtype)
    h0, h1, lh0, lh1 = source_weights(h, oh, align_corners, scales_h, dt, x.dtype)
    w0, w1, lw0, lw1 = source_weights(w, ow, align_corners, scales_w, dt, x.dtype)
    ld0, ld1, lh0, lh1 = ld0[:, None, None], ld1[:, None, None], lh0[:, None], lh1[:, None]

    def along_w(di, hi):   # (N, C, od, oh, ow) from the planes di and rows hi
        return _fma(xs[:, :, di[:, None, None], hi[:, None], w0], lw0, xs[:, :, di[:, None, None], hi[:, None], w1]
                    * lw1, dt)

    def along_h(di):
        return _fma(along_w(di, h0), lh0, along_w(di, h1) * lh1, dt)
    out = _fma(along_h(d0), ld0, along_h(d1) * ld1, dt)
    return np.ascontiguousarray(out.astype(x.dtype, copy=False))


def upsample_trilinear3d_backward(g: np.ndarray, input_size, align_corners: bool, scales_d, scales_h,
                                  scales_w) -> np.ndarray:
    """Gradient of upsample_trilinear3d: per output (d, h, w) its eight input cells, (d0|d1, h0|h1, w0|w1) in that
    order, each ``cell = fma(ld·lh·lw, g, cell)``."""
    dt = _opmath(g.dtype)
    (od, oh, ow), (d, h, w) = g.shape[2:], input_size[2:]
    d0, d1, ld0, ld1 = source_weights(d, od, align_corners, scales_d, dt)
    h0, h1, lh0, lh1 = source_weights(h, oh, align_corners, scales_h, dt)
    w0, w1, lw0, lw1 = source_weights(w, ow, align_corners, scales_w, dt)
    cells, weights = [], []
    for di, ld in ((d0, ld0), (d1, ld1)):
        for hi, lh in ((h0, lh0), (h1, lh1)):
            for wi, lw in ((w0, lw0), (w1, lw1)):
                cells.append((di[:, None, None] * h + hi[:, None]) * w + wi)
                weights.append(ld[:, None, None] * lh[:, None] * lw)
    shape = (od, oh, ow)
    cells = np.stack([np.broadcast_to(c, shape) for c in cells], -1).reshape(-1)
    weights = np.stack([np.broadcast_to(c, shape) for c in weights], -1).reshape(-1)
    flat = np.repeat(g.astype(dt, copy=False).reshape(g.shape[:2] + (od * oh * ow,)), 8, axis=2)
    return round_scatter(flat, cells, weights, d * h * w).reshape(tuple(input_size)).astype(g.dtype, copy=False)


# ---- nearest (F.interpolate's default mode) -------------------------------------------------------

def nearest_source(out_size: int, in_size: int, scale, opmath=None) -> np.ndarray:
    """PyTorch's nearest_idx: the input index each output index reads (float32 arithmetic, as its kernel).

    ``opmath`` (float32 or float64, the op's math type): the index of PyTorch's 1d/3d forward kernel instead
    (upsample_generic_Nd_kernel_impl), without nearest_idx's shortcuts for sizes kept or doubled:
    floorf(i · scale), scale and product in ``opmath``."""
    if opmath is None:
        if out_size == in_size:
            return np.arange(out_size)
        if out_size == 2 * in_size:
            return np.arange(out_size) >> 1
        opmath = np.float32
    ratio = opmath(1.0 / scale) if scale is not None else opmath(in_size) / opmath(out_size)
    index = (np.arange(out_size, dtype=opmath) * ratio).astype(np.float32)   # (floorf's argument is a float)
    return np.minimum(np.floor(index).astype(np.int64), in_size - 1)


def nearest_exact_source(out_size: int, in_size: int, scale, opmath=None) -> np.ndarray:
    """PyTorch's nearest_exact_idx ("nearest-exact"): floorf((i + 0.5) · scale), the pixel centres' rule
    (``opmath``: the math type of scale and product, float64 in the 1d/3d forward kernels of float64 inputs)."""
    opmath = opmath or np.float32
    ratio = opmath(1.0 / scale) if scale is not None else opmath(in_size) / opmath(out_size)
    centres = ((np.arange(out_size, dtype=np.float64) + 0.5) * np.float64(ratio)).astype(np.float32)
    return np.minimum(np.floor(centres).astype(np.int64), in_size - 1)


def upsample_nearest(x: np.ndarray, output_size, scales, exact: bool = False) -> np.ndarray:
    """Each output element copies the input element nearest_source picks along every spatial dim."""
    source = nearest_exact_source if exact else nearest_source
    # PyTorch's 2d forward kernel picks with nearest_idx (as every backward does); its 1d and 3d ones with the
    # generic kernel's indices, in the op's math type
    opmath = None if len(output_size) == 2 else np.float64 if x.dtype == np.float64 else np.float32
    for d, (out, scale) in enumerate(zip(output_size, scales)):
        x = np.take(x, source(out, x.shape[2 + d], scale, opmath), axis=2 + d)
    return x


def upsample_nearest_backward(g: np.ndarray, input_size, scales, exact: bool = False) -> np.ndarray:
    """Each output gradient added into the input cell it copied, in output order (as PyTorch's kernel)."""
    spatial = tuple(input_size[2:])
    source = nearest_exact_source if exact else nearest_source
    picks = [source(out, size, scale) for out, size, scale in zip(g.shape[2:], spatial, scales)]
    cells = np.ravel_multi_index(np.meshgrid(*picks, indexing="ij"), spatial).reshape(-1)
    rows = int(np.prod(g.shape[:2]))
    # float16 / bfloat16 gradients add up in float32 and are rounded once at the end (PyTorch's opmath buffer)
    acc = np.float32 if g.dtype.itemsize == 2 else g.dtype
    out = np.zeros((rows, int(np.prod(spatial))), dtype=acc)
    # (the column count spelled out, not -1: an empty batch's reshape must be told it)
    np.add.at(out, (slice(None), cells), g.reshape(rows, cells.size).astype(acc, copy=False))
    return out.reshape(tuple(input_size)).astype(g.dtype, copy=False)


# ---- bicubic (F.interpolate(mode="bicubic")): PyTorch's cubic convolution, A = -0.75 ------------------------

def cubic_weights(in_size: int, out_size: int, align_corners: bool, scale, dt, fused: bool = True) -> tuple:
    """(index (out, 4), weight (out, 4)): the four clamped input indices each output reads and their weights.

    PyTorch's HelperInterpCubic: the source index is not clamped at 0 (cubic=True), t = real - floor(real),
    and the weights are get_cubic_upsample_coefficients(t), all in ``dt`` (the kernel's opmath type).
    ``fused``: the forward kernel (built with FMA) contracts some steps; the backward kernel's build does not.
    """
    fma = _fma if fused else _no_fma
    o = np.arange(out_size).astype(dt)
    if align_corners:
        ratio = dt(in_size - 1) / dt(out_size - 1) if out_size > 1 else dt(0)
        real = (ratio * o).astype(dt)
    else:
        ratio = dt(1.0 / scale) if scale is not None and scale > 0 else dt(in_size) / dt(out_size)
        real = fma(ratio, (o + dt(0.5)).astype(dt), -0.5, dt)
    i0 = np.minimum(np.floor(real.astype(np.float32)).astype(np.int64), in_size - 1)  # (floorf, as source_weights)
    t = np.clip(real - i0.astype(dt), dt(0), dt(1)).astype(dt)
    a = dt(-0.75)

    # (which steps the compiled kernel fuses into an fma was found by experiment: all but the last one)
    def conv1(x):   # ((A + 2)·x - (A + 3))·x·x + 1, for |x| <= 1
        return (fma(a + dt(2), x, -(a + dt(3)), dt) * x * x + dt(1)).astype(dt)

    def conv2(x):   # ((A·x - 5A)·x + 8A)·x - 4A, for 1 < |x| < 2
        return (fma(fma(a, x, dt(-5) * a, dt), x, dt(8) * a, dt) * x - dt(4) * a).astype(dt)

    one = dt(1)
    weights = np.stack([conv2((t + one).astype(dt)), conv1(t), conv1((one - t).astype(dt)),
                        conv2((one - t + one).astype(dt))], 1).astype(dt)
    index = np.clip(i0[:, None] - 1 + np.arange(4), 0, in_size - 1)
    return index, weights


def _no_fma(a, b, c, dtype) -> np.ndarray:
    """a * b + c with two roundings to ``dtype``."""
    return ((np.asarray(a, dtype) * np.asarray(b, dtype)).astype(dtype) + np.asarray(c, dtype)).astype(dtype)


def upsample_bicubic2d(x: np.ndarray, output_size, align_corners: bool, scales_h, scales_w) -> np.ndarray:
    """(N, C, H, W) -> (N, C, H_out, W_out): Σ_h (Σ_w x·w_w)·w_h, each sum left to right, as PyTorch's kernel."""
    dtype, dt = x.dtype, _opmath(x.dtype)
    (oh, ow), (h, w) = output_size, x.shape[2:]
    hi, hw = cubic_weights(h, oh, align_corners, scales_h, dt)
    wi, ww = cubic_weights(w, ow, align_corners, scales_w, dt)
    if dt is not dtype.type:   # (half: the kernel keeps the weights in the tensor's dtype, rounded, as the linear's)
        hw, ww = hw.astype(dtype).astype(dt), ww.astype(dtype).astype(dt)
    x = x.astype(dt, copy=False)

    def tap_sum(v, wt):   # t0·w0 + t1·w1 + t2·w2 + t3·w3: fma(t0, w0, t1·w1), then fma with t2, t3 (compiled so)
        acc = _fma(v(0), wt[0], v(1) * wt[1], dt)
        return _fma(v(3), wt[3], _fma(v(2), wt[2], acc, dt), dt)

    def row(j):           # the width sum of height tap j: (N, C, oh, ow)
        rows = x[:, :, hi[:, j], :]
        return tap_sum(lambda i: rows[..., wi[:, i]], ww.T)

    out = tap_sum(row, hw.T[:, :, None])
    return np.ascontiguousarray(out.astype(dtype, copy=False))


def upsample_bicubic2d_backward(g: np.ndarray, input_size, align_corners: bool, scales_h, scales_w) -> np.ndarray:
    """Gradient of upsample_bicubic2d: per output (h, w), cell (y_j, x_i) += (g·wy_j)·wx_i, i outer, j inner.

    PyTorch's backward kernel is built without FMA: every product and sum is rounded on its own.
    """
    dtype, dt = g.dtype, _opmath(g.dtype)
    (oh, ow), (h, w) = g.shape[2:], input_size[2:]
    hi, hw = cubic_weights(h, oh, align_corners, scales_h, dt, fused=False)
    wi, ww = cubic_weights(w, ow, align_corners, scales_w, dt, fused=False)
    g = g.astype(dt, copy=False).reshape(g.shape[:2] + (oh * ow,))
    # (oh, ow, i, j) in the kernel's loop order
    cells = (hi[:, None, None, :] * w + wi[None, :, :, None]).reshape(-1)
    wy = np.broadcast_to(hw[:, None, None, :], (oh, ow, 4, 4)).reshape(-1)
    wx = np.broadcast_to(ww[None, :, :, None], (oh, ow, 4, 4)).reshape(-1)
    terms = ((np.repeat(g, 16, axis=2) * wy).astype(dt) * wx).astype(dt)
    return scatter_in_order(terms, cells, h * w).reshape(tuple(input_size)).astype(dtype, copy=False)


def scatter_in_order(terms: np.ndarray, cells: np.ndarray, n_cells: int) -> np.ndarray:
    """Σ terms[..., k] into ``cells[k]``, each cell a plain rounded sum in the order k runs."""
    acc = np.zeros(terms.shape[:-1] + (n_cells,), terms.dtype)
    for k in _update_rounds(cells):
        acc[..., cells[k]] += terms[..., k]
    return acc


# ---- antialiased bilinear / bicubic (F.interpolate(..., antialias=True)): PIL's separable filters ----------------
# PyTorch's _upsample_bilinear2d_aa / _upsample_bicubic2d_aa (UpSampleKernel.cpp, after Pillow's Resample.c), in the
# tensor's dtype (float32 or float64) throughout. Along each resized dim, output index o reads the inputs
# xmin .. xmin + xsize - 1 around its centre c = scale·(o + 0.5), with the filter (triangle for bilinear, Keys'
# cubic with a = -0.5 for bicubic) widened by the scale when downsampling, and its weights normalised to sum 1.
# The forward is two passes, the width first (each rounded to the dtype); the backward adds wx·wy·g into every
# input cell an output read, outputs in order.

def _aa_filter(x: np.ndarray, cubic: bool, dt) -> np.ndarray:
    """The filter at the (dtype) points x: 1 - |x| on |x| < 1, or Keys' cubic convolution with a = -0.5 on |x| < 2
    (every step contracted into an fma, as the compiled kernel does: found by experiment)."""
    x = np.abs(x)
    if not cubic:
        return np.where(x < 1, (1 - x.astype(np.float64)).astype(dt), dt(0))
    a = dt(-0.5)
    near = _fma((_fma(a + dt(2), x, -(a + dt(3)), dt) * x).astype(dt), x, dt(1), dt)   # ((a+2)x - (a+3))x² + 1
    far = _fma(_fma(_fma(a, x, dt(-5) * a, dt), x, dt(8) * a, dt), x, dt(-4) * a, dt)  # ((ax - 5a)x + 8a)x - 4a
    return np.where(x < 1, near, np.where(x < 2, far, dt(0))).astype(dt)


def aa_weights(in_size: int, out_size: int, align_corners: bool, scale_opt, dt, cubic: bool) -> tuple:
    """(xmin (out,), xsize (out,), weights (out, taps)): PyTorch's _compute_indices_min_size_weights_aa per output,
    with C++'s mix of dtype and double arithmetic."""
    if align_corners:
        scale = dt(in_size - 1) / dt(out_size - 1) if out_size > 1 else dt(0)
    elif scale_opt is not None and scale_opt > 0:
        scale = dt(1.0 / scale_opt)
    else:
        scale = dt(in_size) / dt(out_size)
    half = 2.0 if cubic else 1.0                                  # interp_size * 0.5
    support = dt(half * float(scale)) if scale >= 1 else dt(half)
    taps = int(math.ceil(support)) * 2 + 1
    o = np.arange(out_size)
    centre = (float(scale) * (o + 0.5)).astype(dt)
    invscale = dt(1.0 / float(scale)) if scale >= 1 else dt(1)
    xmin = np.maximum(((centre - support).astype(dt).astype(np.float64) + 0.5).astype(np.int64), 0)
    xmax = ((centre + support).astype(dt).astype(np.float64) + 0.5).astype(np.int64)
    xsize = np.clip(np.minimum(xmax, in_size) - xmin, 0, taps)
    j = np.arange(taps)
    used = j[None, :] < xsize[:, None]
    offset = ((j[None, :] + xmin[:, None]).astype(dt) - centre[:, None]).astype(dt)
    w = _aa_filter(((offset.astype(np.float64) + 0.5) * float(invscale)).astype(dt), cubic, dt)
    w = np.where(used, w, dt(0)).astype(dt)
    total = np.zeros(out_size, dt)
    for k in range(taps):                                        # (summed in order, in the dtype)
        total = (total + w[:, k]).astype(dt)
    w = np.where(total[:, None] != 0, (w / np.where(total == 0, dt(1), total)[:, None]).astype(dt), w).astype(dt)
    return xmin, xsize, w


def _aa_pass(x: np.ndarray, axis: int, out_size: int, align_corners: bool, scale, cubic: bool) -> np.ndarray:
    """One resampling pass along ``axis``: Σ_j x[xmin + j]·w_j, left to right, in x's dtype."""
    dt = x.dtype.type
    xmin, xsize, w = aa_weights(x.shape[axis], out_size, align_corners, scale, dt, cubic)
    shape = [1] * x.ndim
    shape[axis] = out_size
    # (the compiled loop, found by experiment: the products of the terms 1 .. n-1 in 16-byte vector blocks, added
    # one by one; the terms left over after the last block contracted into fmas)
    blocked = ((xsize - 1) // (16 // x.itemsize) * (16 // x.itemsize)).reshape(shape)
    acc = None
    for j in range(w.shape[1]):
        term_x = np.take(x, np.minimum(xmin + j, x.shape[axis] - 1), axis=axis)
        wj = w[:, j].reshape(shape)
        if acc is None:
            acc = (term_x * wj).astype(dt)
        else:
            added = np.where(j <= blocked, (acc + (term_x * wj).astype(dt)).astype(dt), _fma(term_x, wj, acc, dt))
            acc = np.where((j < xsize).reshape(shape), added, acc)
    return acc


def upsample_aa2d(x: np.ndarray, output_size, align_corners: bool, scales_h, scales_w, cubic: bool) -> np.ndarray:
    """(N, C, H, W) -> (N, C, H_out, W_out), antialiased: the width pass, then the height pass (equal sizes skipped)."""
    (oh, ow), (h, w) = output_size, x.shape[2:]
    y = x
    if ow != w:
        y = _aa_pass(y, 3, ow, align_corners, scales_w, cubic)
    if oh != h:
        y = _aa_pass(y, 2, oh, align_corners, scales_h, cubic)
        if ow == 1:
            # PyTorch 2.x's height pass over a width-1 image gives every output row the value of row 0 (its
            # TensorIterator folds the size-1 width into the height dim and then reads the first row's indices
            # and weights for all of them: [1, 5.71] comes out [1, 1] for a 4x1 -> 2x1 resize). The backward is
            # unaffected (a kernel of its own), so only this forward copies the quirk.
            y = np.broadcast_to(y[:, :, :1], y.shape)
    return np.ascontiguousarray(y if y is not x else x.copy())


def upsample_aa2d_backward(g: np.ndarray, input_size, align_corners: bool, scales_h, scales_w,
                           cubic: bool) -> np.ndarray:
    """Gradient of upsample_aa2d: per output (oh, ow), cell (ymin + y, xmin + x) += (wx·wy)·g, outputs in order."""
    dt = g.dtype.type
    (oh, ow), (h, w) = g.shape[2:], input_size[2:]
    ymin, ysize, wy = aa_weights(h, oh, align_corners, scales_h, dt, cubic)
    xmin, xsize, wx = aa_weights(w, ow, align_corners, scales_w, dt, cubic)
    ty, tx = wy.shape[1], wx.shape[1]
    # (oh, ow, y, x) in the kernel's loop order; the taps past an output's size are dropped
    rows = np.broadcast_to((ymin[:, None] + np.arange(ty))[:, None, :, None], (oh, ow, ty, tx))
    cols = np.broadcast_to((xmin[:, None] + np.arange(tx))[None, :, None, :], (oh, ow, ty, tx))
    keep = ((np.arange(ty)[None, :] < ysize[:, None])[:, None, :, None]
            & (np.arange(tx)[None, :] < xsize[:, None])[None, :, None, :])
    weight = (wx[None, :, None, :] * wy[:, None, :, None]).astype(dt)
    cells = (rows * w + cols)[keep]
    weights = np.broadcast_to(weight, (oh, ow, ty, tx))[keep]
    flat = g.reshape(g.shape[:2] + (oh * ow,))
    per_output = keep.reshape(oh * ow, ty * tx).sum(1)   # (the cells each output adds into)
    grads = np.repeat(flat, per_output, axis=2)
    # (cell = fma(wx·wy, g, cell), contracted so in the compiled kernel: found by experiment)
    return round_scatter(grads, cells, weights, h * w).reshape(tuple(input_size)).astype(g.dtype, copy=False)
