"""float32 convolutions (conv1d/conv2d, groups = 1; depthwise conv2d) with the bits of PyTorch's CPU build.

PyTorch picks a backend per call (``select_conv_backend`` / ``use_mkldnn`` in
aten/src/ATen/native/Convolution.cpp; ``backend`` below is its float32 CPU rule, 1d convolutions being
2d ones of height 1):

- **oneDNN** (``mkldnn_convolution``) for a batch of 2 or more, a kernel larger than 3x3 in both dims, or
  an input of more than 20480 elements: its JIT "direct" kernels (jit:avx512_core). Read off by probing
  (terms 1e8, -1e8, 1 and random ones, as in ``_matmul``) and checked on random shapes
  (tests/test_parity_conv_bits.py):

  - forward: per block of 16 input channels, a chain of fused multiply-adds (FMA) from +0 over
    (kernel row, kernel column, channel); the first block's sum + bias, then + each next block's sum.
  - grad_input: the same per block of 16 output channels, over (kernel row, kernel column, output
    channel), taps falling outside the output skipped; block sums added in order.
  - grad_weight and grad_bias: each thread chains over (sample, output row, output column) (FMAs for
    the weight, plain additions for the bias), then the threads' sums are added in order. How oneDNN
    splits the work between threads (``_thread_rows``) was read off with 2 threads; its cost model
    (``balance``) is not reproduced, so some shapes with 32 or more output channels differ.
  - 1x1 kernels (oneDNN's jit_1x1 kernels): forward, one FMA chain over all the input channels (no
    blocks) from the bias, when unpadded and each size is a multiple of its stride (otherwise unpadded ones
    run the direct kernel above); grad_input, one chain over all the output channels from +0; grad_bias, the
    running sums (``_bias_1x1``). Their weight gradients, padded 1x1 forwards and strided gradients of the
    input with kernels of other shapes (its brgconv_strided kernel) are not emulated or not exact.
- **slow2d** (``slow_conv2d``, aten/src/ATen/native/ConvolutionMM2d.cpp) otherwise (one sample, small
  kernel, small input): per sample, im2col (rows (channel, kernel row, kernel column)) and one MKL gemm,
  run by ``_matmul._mm`` (MKL's gemm, as PyTorch): output = bias + weight (C_out, K) @ columns (K, H_out·W_out);
  grad columns = weightᵀ @ grad_output, added back onto the input pixels tap after tap (col2im);
  grad_weight += grad_output @ columnsᵀ sample after sample; grad_bias = sum over (0, 2, 3). A dilated one
  (``slow_conv_dilated2d``, one sample) takes the same steps.
- transposed convolutions on oneDNN (its deconvolution runs the kernels above with the roles swapped);
  their one-sample slow path (slow_conv_transpose2d) is not emulated.
- depthwise 2d convolutions (groups = channels, one output channel each) on oneDNN's jit_dw kernels: forward,
  one FMA chain from the bias over the kernel taps; grad_input, one from +0 over the taps reading each input
  pixel; weight and bias gradients (kernels up to 3x3, padding up to 1) chained over (sample, row, column),
  the samples split between threads (``_dw_backward_params``).

An FMA is emulated as one float64 addition of the exact float64 product, rounded to float32 (a double
rounding: it differs from a true FMA in about one case in 2^29). Anything else (other dtypes, other groups, 3d,
work above ``LIMIT`` multiply-adds) returns None: the caller then uses NumPy (close, not the same bits). The
probing was done with 1 and 2 threads on an AVX-512 machine (PyTorch 2.13); another CPU may get other kernels.
The emulation costs about 2x NumPy's time (a LeNet step on 64 images).
"""
from __future__ import annotations

import itertools

import numpy as np

from . import _matmul, _reduce

_F32 = np.dtype(np.float32)
LIMIT = 2 ** 23     # multiply-adds up to which a convolution is emulated (about 0.1 s at most)
_MAX_STEPS = 16384  # sequential steps of one FMA chain (each a NumPy call) up to which it is emulated
_BLOCK = 16         # oneDNN's channel block (one AVX-512 register of float32)


def backend(x_shape, w_shape, stride, dilation, groups: int):
    """"onednn", "slow2d", or None (not emulated) for a float32 convolution, as PyTorch's use_mkldnn picks."""
    if len(w_shape) not in (3, 4) or groups != 1 or 0 in x_shape or 0 in w_shape:
        return None
    n, c = x_shape[:2]
    height, width = (1, x_shape[2]) if len(x_shape) == 3 else x_shape[2:]
    kh, kw = (1, w_shape[2]) if len(w_shape) == 3 else w_shape[2:]
    strided, dilated = any(s != 1 for s in stride), any(d != 1 for d in dilation)
    if ((strided or dilated or n >= 16 or kw != 1 or kh != 1 or _reduce.THREADS[0] > 1)
            and ((kw > 3 and kh > 3) or n > 1 or n * c * height * width > 20480)):
        return "onednn"
    return "slow2d"   # (dilated too: slow_conv_dilated2d, the same steps sample after sample)


def _padded(x, padding):
    from ._conv import pad
    return pad(x, padding, padding)


def _windows(x, kernel, stride, padding, dilation, out):
    """(N, C, *out, *kernel) windows of the zero-padded x."""
    from ._conv import windows
    return windows(_padded(x, padding), kernel, stride, dilation, out)


def _fma(acc, a, b) -> None:
    """acc ← round32(acc + a·b) in place (the exact product in float64)."""
    np.add(acc, np.multiply(a, b, dtype=np.float64), out=acc, dtype=np.float64, casting="unsafe")


def _blocks(count: int) -> list:
    return [(s, min(s + _BLOCK, count)) for s in range(0, count, _BLOCK)]


def _cheap(macs: int, steps: int) -> bool:
    return macs <= LIMIT and steps <= _MAX_STEPS


def _thread_rows(n: int, rows: int, c_in: int, c_out: int, bias: bool = False) -> list:
    """The ranges of the batch's n·rows output rows (sample, output row) that oneDNN's weight-gradient
    threads sum apart (added in order at the end), as read off with 2 threads: with more than 9 rows (its
    "2d reduction") the rows are split when the input channels make one block; else whole samples are
    split when the channels make one block each (for the bias: the output channels). With 4 to 15 input
    channels oneDNN runs its AVX2 kernel instead (blocks of 8 channels): it splits whole samples by the
    same rule (e.g. nn.Conv1d(8, 8, 3) on a batch) but was seen to sum more than 9 rows in one range
    (some 2d shapes with more than 9 rows still differ)."""
    threads = _reduce.THREADS[0]
    avx2 = 4 <= c_in < _BLOCK   # oneDNN's AVX2 kernel: 8-channel blocks, no split of the rows seen
    one_in, one_out = (c_in <= 8, c_out <= 8) if avx2 else (c_in <= _BLOCK, c_out <= _BLOCK)
    if threads > 1 and rows > 9 and one_in and not avx2:
        return _balance211(n * rows, threads)
    if threads > 1 and rows <= 9 and one_out and (one_in or bias):
        return [(start * rows, stop * rows) for start, stop in _balance211(n, threads)]
    return [(0, n * rows)]


def _balance211(count: int, parts: int) -> list:
    """oneDNN's split of ``count`` items between ``parts`` threads: the first ones take one more."""
    big = -(-count // parts)
    first = count - (big - 1) * parts
    ranges, start = [], 0
    for t in range(parts):
        size = big if t < first else big - 1
        if size > 0:
            ranges.append((start, start + size))
        start += size
    return ranges


# =============================================================================================
# oneDNN's direct kernels
# =============================================================================================

def _onednn_forward(x, w, b, stride, padding, dilation, out):
    n, c = x.shape[:2]
    o = w.shape[0]
    kernel = w.shape[2:]
    cols = _windows(x, kernel, stride, padding, dilation, out)            # (N, C, *out, *kernel)
    cols = np.moveaxis(cols.reshape(n, c, -1, int(np.prod(kernel))), 0, 1).reshape(c, n * int(np.prod(out)), -1)
    cols = cols.astype(np.float64)   # (cast once: every step multiplies in float64)
    taps = w.reshape(o, c, -1).astype(np.float64)
    y = None
    for lo, hi in _blocks(c):
        acc = np.zeros((o, cols.shape[1]), _F32)
        for tap in range(taps.shape[2]):
            for ch in range(lo, hi):
                _fma(acc, taps[:, ch, tap, None], cols[ch, None, :, tap])
        if y is None:
            y = acc if b is None else acc + b[:, None]
        else:
            y += acc
    return np.ascontiguousarray(np.moveaxis(y.reshape((o, n) + tuple(out)), 0, 1))


def _onednn_backward_input(g, w, input_shape, stride, padding, dilation):
    n, c = input_shape[:2]
    o = w.shape[0]
    kernel, out = w.shape[2:], g.shape[2:]
    padded_shape = (n, c) + tuple(s + 2 * p for s, p in zip(input_shape[2:], padding))
    g = g.astype(np.float64)   # (cast once: every step multiplies in float64)
    total = None
    for lo, hi in _blocks(o):
        acc = np.zeros(padded_shape, _F32)
        for offset in itertools.product(*(range(m) for m in kernel)):
            rows = tuple(slice(q * d, q * d + s * (m - 1) + 1, s) for q, d, s, m in zip(offset, dilation, stride, out))
            view = acc[(slice(None), slice(None)) + rows]                    # (N, C, *out)
            for ch in range(lo, hi):
                _fma(view, g[:, ch, None], w[(ch, slice(None)) + offset].reshape((1, c) + (1,) * len(out)))
        total = acc if total is None else total + acc
    crop = tuple(slice(p, p + s) for p, s in zip(padding, input_shape[2:]))
    return np.ascontiguousarray(total[(slice(None), slice(None)) + crop])


def _onednn_backward_weight(g, x, weight_shape, stride, padding, dilation):
    n, c = x.shape[:2]
    o = weight_shape[0]
    out = tuple(g.shape[2:])
    height, width = (1,) * (2 - len(out)) + out                              # (1d: one row)
    cols = _windows(x, weight_shape[2:], stride, padding, dilation, out)     # (N, C, *out, *kernel)
    cols = np.moveaxis(cols.reshape(n, c, height * width, -1), 0, 1).reshape(c, n * height * width, -1)
    cols = np.ascontiguousarray(np.moveaxis(cols, 1, 0), dtype=np.float64)   # (N·P, C, taps), cast once
    grads = np.moveaxis(g.reshape(n, o, -1), 0, 1).reshape(o, -1).astype(np.float64)   # (O, N·P)
    total = None
    for start, stop in _thread_rows(n, height, c, o):
        acc = np.zeros((o, c, cols.shape[2]), _F32)
        for p in range(start * width, stop * width):                         # (sample, row, column)
            _fma(acc, grads[:, p, None, None], cols[p])
        total = acc if total is None else total + acc
    return total.reshape(weight_shape)


def _onednn_backward_bias(g, c_in: int):
    n, o = g.shape[:2]
    out = tuple(g.shape[2:])
    height, width = (1,) * (2 - len(out)) + out
    grads = np.moveaxis(g.reshape(n, o, -1), 0, 1).reshape(o, -1)            # (O, N·P)
    ranges = _thread_rows(n, height, c_in, o, bias=True)
    total = None
    for start, stop in ranges:
        part = _matmul._running_sum(grads[:, start * width:stop * width], 1)
        total = part if total is None else total + part
    return total


def _onednn_1x1_forward(x, w, b, stride, out):
    """oneDNN's jit_1x1 forward (no padding; each size a multiple of its stride): per output position, one FMA
    chain over all the input channels (no blocks of 16) from the bias (or +0)."""
    n, c, o = x.shape[0], x.shape[1], w.shape[0]
    picked = x[(slice(None), slice(None)) + tuple(slice(None, None, s) for s in stride)]   # (N, C, *out)
    cols = picked.reshape(n, c, -1).astype(np.float64)     # (cast once: every step multiplies in float64)
    taps = w.reshape(o, c).astype(np.float64)
    acc = np.zeros((n, o, cols.shape[2]), _F32)
    if b is not None:
        acc += b[:, None]
    for ch in range(c):
        _fma(acc, taps[None, :, ch, None], cols[:, None, ch])
    return acc.reshape((n, o) + tuple(out))


def _onednn_1x1_backward_bias(g):
    """oneDNN's jit_1x1 bias gradient: a running sum per channel over (sample, position); with one 16-channel
    block of them the threads split the samples (balance211), their sums added in order."""
    n, o = g.shape[:2]
    grads = np.moveaxis(g.reshape(n, o, -1), 0, 1).reshape(o, -1)            # (O, N·P)
    width = grads.shape[1] // n
    ranges = _balance211(n, _reduce.THREADS[0]) if len(_blocks(o)) == 1 else [(0, n)]
    total = None
    for start, stop in ranges:
        part = _matmul._running_sum(grads[:, start * width:stop * width], 1)
        total = part if total is None else total + part
    return total


def _onednn_1x1_backward_input(g, w, input_shape, stride, padding):
    """oneDNN's jit_1x1 grad_input: at each input position a kernel tap reads, one FMA chain from +0 over all the
    output channels (no blocks); +0 at the positions a stride skips (read off with and without padding)."""
    n, c = input_shape[:2]
    o, out = w.shape[0], g.shape[2:]
    acc = np.zeros((n, c) + tuple(s + 2 * p for s, p in zip(input_shape[2:], padding)), _F32)
    view = acc[(slice(None), slice(None)) + tuple(slice(0, s * (m - 1) + 1, s) for s, m in zip(stride, out))]
    grads = g.astype(np.float64)
    taps = w.reshape(o, c).astype(np.float64)
    for k in range(o):
        _fma(view, grads[:, k, None], taps[k].reshape((1, c) + (1,) * len(out)))
    crop = tuple(slice(p, p + s) for p, s in zip(padding, input_shape[2:]))
    return np.ascontiguousarray(acc[(slice(None), slice(None)) + crop])


# =============================================================================================
# slow_conv2d: im2col + MKL gemm per sample
# =============================================================================================

def _columns(x1, kernel, stride, padding, dilation, out):
    """One sample's im2col matrix (C·Πkernel, Πout), row-major (PyTorch's finput)."""
    cols = _windows(x1[None], kernel, stride, padding, dilation, out)[0]    # (C, *out, *kernel)
    k = len(kernel)
    order = (0, *range(1 + k, 1 + 2 * k), *range(1, 1 + k))
    return np.ascontiguousarray(cols.transpose(order)).reshape(x1.shape[0] * int(np.prod(kernel)), -1)


def _slow_forward(x, w, b, stride, padding, dilation, out):
    o = w.shape[0]
    w2 = np.ascontiguousarray(w).reshape(o, -1)
    start = np.broadcast_to((np.zeros(o, _F32) if b is None else b)[:, None], (o, int(np.prod(out))))
    threads = None if x.shape[0] == 1 else 1   # (samples in parallel: MKL runs on one thread in each)
    ys = [_matmul._mm(w2, _columns(x1, w.shape[2:], stride, padding, dilation, out), start, threads) for x1 in x]
    return np.stack(ys).reshape((x.shape[0], o) + tuple(out))


def _slow_backward_input(g, w, input_shape, stride, padding, dilation, parallel: bool = True):
    o = w.shape[0]
    w2t = np.ascontiguousarray(w).reshape(o, -1).T                            # column-major: gemm(N, T)
    kernel, out = w.shape[2:], g.shape[2:]
    c = input_shape[1]
    padded = np.zeros((input_shape[0], c) + tuple(s + 2 * p for s, p in zip(input_shape[2:], padding)), g.dtype)
    for i, g1 in enumerate(g):
        threads = None if len(g) == 1 or not parallel else 1   # (slow_conv2d: samples in parallel, MKL on one thread)
        cols = _matmul._mm(w2t, np.ascontiguousarray(g1).reshape(o, -1), None, threads)
        cols = cols.reshape((c, *kernel, *out))
        for offset in itertools.product(*(range(m) for m in kernel)):      # col2im: tap after tap
            rows = tuple(slice(q * d, q * d + s * (m - 1) + 1, s) for q, d, s, m in zip(offset, dilation, stride, out))
            padded[(i, slice(None)) + rows] += cols[(slice(None),) + offset]
    crop = tuple(slice(p, p + s) for p, s in zip(padding, input_shape[2:]))
    return np.ascontiguousarray(padded[(slice(None), slice(None)) + crop])


def _aligned_contiguous(a: np.ndarray) -> np.ndarray:
    """``a`` itself if C-contiguous, else a C-contiguous copy starting on a 64-byte boundary (PyTorch's
    ``contiguous()`` allocates so: MKL's dgemm rounds according to where each sample's frame starts)."""
    if a.flags.c_contiguous:
        return a
    raw = np.empty(a.size + 64 // a.itemsize, a.dtype)
    start = (-raw.ctypes.data % 64) // a.itemsize
    out = raw[start:start + a.size].reshape(a.shape)
    out[...] = a
    return out


def _slow_backward_weight(g, x, weight_shape, stride, padding, dilation):
    o = weight_shape[0]
    gw = np.zeros((o, int(np.prod(weight_shape[1:]))), g.dtype)
    g = _aligned_contiguous(g)
    for g1, x1 in zip(g, x):    # grad_weight += grad_output @ columnsᵀ (gemm with β = 1), sample after sample
        cols = _columns(x1, weight_shape[2:], stride, padding, dilation, g.shape[2:])
        gw = _matmul._mm(np.ascontiguousarray(g1).reshape(o, -1), cols.T, gw)
    return gw.reshape(weight_shape)


# =============================================================================================
# oneDNN's depthwise kernels (jit_dw): groups = input channels = output channels
# =============================================================================================

def _depthwise(x_shape, w_shape, stride, padding, dilation, groups, out, weights: bool = False) -> bool:
    """Whether a float32 convolution runs oneDNN's depthwise kernels as read off (2d kernels of 2 to 5 taps a
    side, undilated; PyTorch picks oneDNN for every grouped convolution but a 1x1 one on one thread). Its weight
    and bias gradients (``weights``) only with kernels up to 3x3 and padding up to 1: larger ones block the
    output rows otherwise (not read off)."""
    if not (len(w_shape) == 4 and 1 < groups == x_shape[1] == w_shape[0] and w_shape[1] == 1
            and all(2 <= k <= 5 for k in w_shape[2:]) and all(d == 1 for d in dilation) and 0 not in x_shape):
        return False
    macs, steps = int(np.prod(x_shape[:2])) * int(np.prod(w_shape[2:])) * int(np.prod(out)), x_shape[0] * int(
        np.prod(out))
    if weights and (max(w_shape[2:]) > 3 or max(padding) > 1):
        return False
    return _cheap(macs, steps if weights else 1)


def _dw_forward(x, w, b, stride, padding, out):
    """Per output pixel, one FMA chain from the bias over the kernel taps (row by row)."""
    n, c = x.shape[:2]
    xp = _padded(x, padding)
    acc = np.zeros((n, c) + tuple(out), _F32)
    if b is not None:
        acc[...] = b[:, None, None]
    taps = w[:, 0].astype(np.float64)
    for i, j in itertools.product(*(range(k) for k in w.shape[2:])):
        window = xp[:, :, i:i + stride[0] * (out[0] - 1) + 1:stride[0], j:j + stride[1] * (out[1] - 1) + 1:stride[1]]
        _fma(acc, window, taps[None, :, i, j, None, None])
    return acc


def _dw_backward_input(g, w, input_shape, stride, padding):
    """Per input pixel, one FMA chain from +0 over the kernel taps that read it (row by row)."""
    out = g.shape[2:]
    acc = np.zeros(tuple(input_shape[:2]) + tuple(s + 2 * p for s, p in zip(input_shape[2:], padding)), _F32)
    taps = w[:, 0].astype(np.float64)
    for i, j in itertools.product(*(range(k) for k in w.shape[2:])):
        view = acc[:, :, i:i + stride[0] * (out[0] - 1) + 1:stride[0], j:j + stride[1] * (out[1] - 1) + 1:stride[1]]
        _fma(view, g, taps[None, :, i, j, None, None])
    crop = tuple(slice(p, p + s) for p, s in zip(padding, input_shape[2:]))
    return np.ascontiguousarray(acc[(slice(None), slice(None)) + crop])


def _dw_backward_params(g, x, kernel, stride, padding) -> tuple:
    """(weight gradient, or None without ``x``; bias gradient). Threads split the channel blocks, then the samples
    (the rest of the threads, at most one per sample); each chains over (sample, output row, output column)
    (FMAs for the weight, additions for the bias), and the threads' sums are added in order."""
    n, c = g.shape[:2]
    out = g.shape[2:]
    xp = None if x is None else _padded(x, padding).astype(np.float64)
    threads_g = min(len(_blocks(c)), _reduce.THREADS[0])
    threads_mb = min(max(1, _reduce.THREADS[0] // threads_g), n)
    base, extra = divmod(n, threads_mb)
    gw = gb = None
    start = 0
    for t in range(threads_mb):
        samples = range(start, start + base + (t < extra))
        start = samples.stop
        acc, acc_b = np.zeros((c,) + tuple(kernel), _F32), np.zeros(c, _F32)
        for i, oh, ow in itertools.product(samples, range(out[0]), range(out[1])):
            if xp is not None:
                rows, cols = oh * stride[0], ow * stride[1]
                _fma(acc, g[i, :, oh, ow, None, None], xp[i, :, rows:rows + kernel[0], cols:cols + kernel[1]])
            acc_b += g[i, :, oh, ow]
        gw, gb = (acc, acc_b) if gb is None else (gw + acc, gb + acc_b)
    return (None if x is None else gw[:, None]), gb


# =============================================================================================
# The entry points (None: not emulated)
# =============================================================================================

def _which(x_shape, w_shape, stride, dilation, groups, dtypes, out, steps: str, kind=None):
    """The backend to emulate (``kind`` if given), or None; ``steps`` names the FMA chain's length ("c", "o"
    or "p": input channels, output channels or output positions, times kernel taps for the first two)."""
    if any(d != _F32 for d in dtypes):
        return None
    transposed = kind is not None
    kind = kind or backend(x_shape, w_shape, stride, dilation, groups)
    if kind is None:
        return None
    n, c = x_shape[:2]
    o, taps, p = w_shape[0], int(np.prod(w_shape[2:])), int(np.prod(out))
    macs = n * o * c * taps * p
    if macs == 0 or macs > LIMIT:
        return None
    if kind == "onednn":
        if taps == 1:   # 1x1 kernels: oneDNN's jit_1x1 kernels (forward and grad_input read off, not the rest)
            kind = "onednn1x1" if not transposed and steps != "p" else None
        return kind if {"c": c * taps, "o": o * taps, "p": n * p}[steps] <= _MAX_STEPS else None
    return kind


def _double_forward(x, w, b, stride, padding, dilation, out, parallel: bool = True):
    """A float64 convolution (groups = 1) as PyTorch's: oneDNN has no float64 kernels, so every one runs
    slow_conv2d (slow_conv_dilated2d when dilated): per sample, output frame = bias, then += weight @ im2col
    columns by MKL's dgemm. MKL's kernel depends on where the frame starts in memory, so the frames are written
    into one 64-byte-aligned output as PyTorch's allocator gives. slow_conv2d runs the samples of a batch in a
    parallel loop (MKL on one thread in each), slow_conv_dilated2d one after the other (MKL on all threads).
    Checked on random shapes (padding='same' included: PyTorch pads with the convolution's own padding, or
    F.pad then convolves when it is uneven, which gives the same bits)."""
    n, o, positions = x.shape[0], w.shape[0], int(np.prod(out))
    dilated = any(d != 1 for d in dilation)
    raw = np.empty(n * o * positions + 8, np.float64)          # (8 spare float64s: room to align to 64 bytes)
    start = (-raw.ctypes.data % 64) // 8
    y = raw[start:start + n * o * positions].reshape(n, o, positions)
    y[...] = 0.0 if b is None else b[:, None]
    w2 = np.ascontiguousarray(w).reshape(o, -1)
    with _reduce.inner_threads(_reduce.THREADS[0] if n == 1 or dilated or not parallel else 1):
        for y1, x1 in zip(y, x):
            _matmul._addmm_into(y1, w2, _columns(x1, w.shape[2:], stride, padding, dilation, out), 1, 1)
    return y.reshape((n, o) + tuple(out))


def forward(x, w, b, stride, padding, dilation, groups, out):
    """y = conv(x, w) + b with PyTorch's float32 (or float64) bits, or None."""
    dtypes = (x.dtype, w.dtype) + (() if b is None else (b.dtype,))
    if all(d == np.float64 for d in dtypes):
        macs = x.shape[0] * w.size * int(np.prod(out))
        # (one output position: PyTorch's gemm then has one column, another MKL path, not emulated)
        if (groups != 1 or len(w.shape) not in (3, 4) or macs == 0 or macs > LIMIT or _matmul._LIB is None
                or np.prod(out) == 1):
            return None
        return _double_forward(x, w, b, stride, padding, dilation, out)
    if all(d == _F32 for d in dtypes) and _depthwise(x.shape, w.shape, stride, padding, dilation, groups, out):
        return _dw_forward(x, w, b, stride, padding, out)
    kind = _which(x.shape, w.shape, stride, dilation, groups, dtypes, out, "c")
    if kind == "onednn1x1":
        if any(padding):   # (a padded 1x1 kernel: neither kernel's order, not read off)
            return None
        if all(size % s == 0 for size, s in zip(x.shape[2:], stride)):
            return _onednn_1x1_forward(x, w, b, stride, out)
        kind = "onednn"   # (strided, a size not a multiple of the stride: the direct kernel)
    if kind == "onednn":
        return _onednn_forward(x, w, b, stride, padding, dilation, out)
    if kind == "slow2d":
        return _slow_forward(x, w, b, stride, padding, dilation, out)
    return None


def _double_slow(x_shape, w_shape, dilation, groups, dtypes, out) -> bool:
    """A float64 convolution whose gradients run slow_conv2d's backward (oneDNN has no float64 kernels):
    per sample, columns = weightᵀ @ grad_output then col2im, and grad_weight += grad_output @ columnsᵀ, by MKL's
    dgemm as for float32 (dilated ones run slow_conv_dilated2d: the same steps, the samples one after the other;
    transposed ones slow_conv_transpose2d, the samples one after the other too; not emulated: one output position)."""
    if not all(d == np.float64 for d in dtypes):
        return False
    macs = x_shape[0] * int(np.prod(w_shape)) * int(np.prod(out))
    return (groups == 1 and len(w_shape) in (3, 4) and 0 < macs <= LIMIT and _matmul._LIB is not None
            and np.prod(out) != 1)


def backward_input(g, w, input_shape, stride, padding, dilation, groups):
    """dL/dx with PyTorch's float32 (or float64) bits, or None."""
    if _double_slow(input_shape, w.shape, dilation, groups, (g.dtype, w.dtype), g.shape[2:]):
        return _slow_backward_input(g, w, input_shape, stride, padding, dilation,
                                    parallel=all(d == 1 for d in dilation))
    if g.dtype == w.dtype == _F32 and _depthwise(input_shape, w.shape, stride, padding, dilation, groups, g.shape[2:]):
        return _dw_backward_input(g, w, input_shape, stride, padding)
    kind = _which(input_shape, w.shape, stride, dilation, groups, (g.dtype, w.dtype), g.shape[2:], "o")
    if kind == "onednn1x1":
        return _onednn_1x1_backward_input(g, w, input_shape, stride, padding)
    if kind == "onednn":
        return _onednn_backward_input(g, w, input_shape, stride, padding, dilation)
    if kind == "slow2d":
        return _slow_backward_input(g, w, input_shape, stride, padding, dilation)
    return None


def backward_weight(g, x, weight_shape, stride, padding, dilation, groups):
    """dL/dw with PyTorch's float32 (or float64) bits, or None."""
    if _double_slow(x.shape, weight_shape, dilation, groups, (g.dtype, x.dtype), g.shape[2:]):
        return _slow_backward_weight(g, x, weight_shape, stride, padding, dilation)
    if g.dtype == x.dtype == _F32 and _depthwise(x.shape, weight_shape, stride, padding, dilation, groups,
                                                 g.shape[2:], weights=True):
        return _dw_backward_params(g, x, weight_shape[2:], stride, padding)[0]
    kind = _which(x.shape, weight_shape, stride, dilation, groups, (g.dtype, x.dtype), g.shape[2:], "p")
    if kind == "onednn":
        return _onednn_backward_weight(g, x, weight_shape, stride, padding, dilation)
    if kind == "slow2d":
        return _slow_backward_weight(g, x, weight_shape, stride, padding, dilation)
    return None


def _bias_1x1(g, x_shape, weight_shape, stride, dilation, groups) -> bool:
    """Whether ``_onednn_1x1_backward_bias`` is oneDNN's jit_1x1 bias gradient (unstrided, unpadded, up to 9 rows;
    read off with 1 and 2 threads): not with 2 threads and an odd number (3, 5 ...) of 16-channel blocks, which its
    cost model splits one way or the other."""
    if g.dtype != _F32 or any(k != 1 for k in weight_shape[2:]) or any(s != 1 for s in stride) or \
            tuple(g.shape[2:]) != tuple(x_shape[2:]) or len(x_shape) == 4 and x_shape[2] > 9:
        return False
    if backend(x_shape, weight_shape, stride, dilation, groups) != "onednn" or g.size > LIMIT:
        return False
    blocks = len(_blocks(weight_shape[0]))
    return _reduce.THREADS[0] == 1 or _reduce.THREADS[0] == 2 and (blocks == 1 or blocks % 2 == 0)


def backward_bias(g, x_shape, weight_shape, stride, dilation, groups, padding=None):
    """dL/db with PyTorch's float32 (or float64) bits, or None (``padding``: needed for depthwise ones)."""
    if _double_slow(x_shape, weight_shape, dilation, groups, (g.dtype,), g.shape[2:]):
        return _reduce.sum(g, axis=(0, *range(2, g.ndim)))
    if g.dtype == _F32 and padding is not None and _depthwise(x_shape, weight_shape, stride, padding, dilation,
                                                               groups, g.shape[2:], weights=True):
        return _dw_backward_params(g, None, weight_shape[2:], stride, padding)[1]
    kind = _which(x_shape, weight_shape, stride, dilation, groups, (g.dtype,), g.shape[2:], "p")
    if kind is None and _bias_1x1(g, x_shape, weight_shape, stride, dilation, groups):
        return _onednn_1x1_backward_bias(g)
    if kind == "onednn":
        return _onednn_backward_bias(g, x_shape[1])
    if kind == "slow2d":
        return _reduce.sum(g, axis=(0, *range(2, g.ndim)))
    return None


# =============================================================================================
# Transposed convolutions (oneDNN's deconvolution runs the convolution kernels above with the roles
# swapped: its forward is a convolution's grad_input, its grad_input a convolution's forward, its
# grad_weight a convolution's with x as the output gradient; the one-sample slow path is not emulated)
# =============================================================================================

def _which_transposed(x_shape, w_shape, y_shape, stride, dilation, groups, dtypes, steps: str):
    """"onednn" when PyTorch runs this transposed convolution on oneDNN and it is emulated, else None."""
    if backend(x_shape, w_shape, stride, dilation, groups) != "onednn":
        return None
    # as a convolution: input y (N, C_out, ...), weight (C_in, C_out, ...), output x
    return _which(y_shape, w_shape, stride, dilation, groups, dtypes, x_shape[2:], steps, kind="onednn")


def transpose_forward(x, w, b, stride, padding, dilation, groups, y_shape):
    """conv_transpose(x, w) + b with PyTorch's float32 (or float64) bits, or None."""
    dtypes = (x.dtype, w.dtype) + (() if b is None else (b.dtype,))
    if _double_slow(y_shape, w.shape, dilation, groups, dtypes, x.shape[2:]):
        # (slow_conv_transpose2d: per sample, one after the other, columns = weightᵀ @ x, col2im, then the bias)
        y = _slow_backward_input(x, w, y_shape, stride, padding, dilation, parallel=False)
        return y if b is None else y + b.reshape((-1,) + (1,) * (y.ndim - 2))
    if _which_transposed(x.shape, w.shape, y_shape, stride, dilation, groups, dtypes, "o") is None:
        return None
    y = _onednn_backward_input(x, w, y_shape, stride, padding, dilation)
    return y if b is None else y + b.reshape((-1,) + (1,) * (y.ndim - 2))


def transpose_backward_input(g, w, x_shape, stride, padding, dilation, groups):
    """dL/dx of a transposed convolution with PyTorch's float32 (or float64) bits, or None."""
    if _double_slow(g.shape, w.shape, dilation, groups, (g.dtype, w.dtype), x_shape[2:]):
        # (slow_conv_transpose2d's backward: per sample, one after the other, x = weight @ im2col(g): a convolution)
        return _double_forward(g, w, None, stride, padding, dilation, tuple(x_shape[2:]), parallel=False)
    if _which_transposed(x_shape, w.shape, g.shape, stride, dilation, groups, (g.dtype, w.dtype), "c") is None:
        return None
    return _onednn_forward(g, w, None, stride, padding, dilation, tuple(x_shape[2:]))


def transpose_backward_weight(g, x, weight_shape, stride, padding, dilation, groups):
    """dL/dw of a transposed convolution with PyTorch's float32 (or float64) bits, or None."""
    if _double_slow(g.shape, weight_shape, dilation, groups, (g.dtype, x.dtype), x.shape[2:]):
        # (per sample: grad_weight += x @ im2col(g)ᵀ, a convolution's weight gradient with x and g swapped)
        return _slow_backward_weight(x, g, weight_shape, stride, padding, dilation)
    if _which_transposed(x.shape, weight_shape, g.shape, stride, dilation, groups, (g.dtype, x.dtype), "p") is None:
        return None
    return _onednn_backward_weight(x, g, weight_shape, stride, padding, dilation)


def transpose_backward_bias(g, x_shape, weight_shape, stride, dilation, groups):
    """dL/db of a transposed convolution with PyTorch's float32 bits, or None: with 4 or more output
    channels (oneDNN's blocked layout) one running sum per channel over (sample, position); with fewer
    its plain layout's vectorized sum (not read off)."""
    if _double_slow(g.shape, weight_shape, dilation, groups, (g.dtype,), x_shape[2:]):
        return _reduce.sum(g, axis=(0, *range(2, g.ndim)))   # (float64: the sum over samples and positions)
    if weight_shape[1] < 4 or _which_transposed(x_shape, weight_shape, g.shape, stride, dilation, groups,
                                                (g.dtype,), "p") is None:
        return None
    return _matmul._running_sum(np.moveaxis(g, 1, 0).reshape(g.shape[1], -1), 1)
