"""grid_sample kernels on NumPy arrays (F.grid_sample), following PyTorch's CPU kernels so float32 rounds
alike where the order is known: 4-D inputs as the vectorized GridSamplerKernel.cpp (AVX2 chunks, fused
multiply-adds), 5-D inputs as the scalar GridSampler.cpp (plain rounding, its own reflection formula).

Each output position (n, [d,] h, w) reads the input at a source point: the grid's (x, y[, z]) in [-1, 1] mapped to
pixel coordinates ("unnormalize"), then kept inside by the padding mode (border: clipped; reflection:
mirrored, then clipped; zeros: taps outside read 0). The value there mixes a few input pixels, the *taps*:
bilinear 2×2 (weights (1-f, f) per axis, f the fractional part), bicubic 4×4 (Keys' cubic, A = -0.75),
nearest 1 (the rounded point). A tap's weight is wx(fx)·wy(fy)[·wz(fz)], so its derivatives in the grid are the
1-D weights' derivatives times d(pixel coordinate)/d(grid), a constant (±scale or 0) piecewise: that is all
the gradients and second derivatives need.
"""
from __future__ import annotations

import itertools

import numpy as np

from ._fused import fma

BILINEAR, NEAREST, BICUBIC = 0, 1, 2
ZEROS, BORDER, REFLECTION = 0, 1, 2
_A = -0.75   # Keys' cubic convolution parameter, as PyTorch's (and OpenCV's)


def _scale(size: int, align_corners: bool, dtype):
    """d(pixel coordinate)/d(grid coordinate): (size - 1)/2 with align_corners, else size/2."""
    return dtype.type(size - 1) / dtype.type(2) if align_corners else dtype.type(size) / dtype.type(2)


def _unnormalize(coord, size, align_corners):
    """[-1, 1] → pixel coordinates: -1 and 1 are the corner pixels' centres (align_corners) or outer edges.
    (c + 1)·scale [- 0.5], the subtraction fused into the product as PyTorch's compiled kernel does."""
    t = coord.dtype.type
    if align_corners:
        return (coord + t(1)) * _scale(size, True, coord.dtype)
    return fma(coord + t(1), _scale(size, False, coord.dtype), t(-0.5), coord.dtype)


def _clip(x, size):
    """Clamp into [0, size - 1]; the gradient passes only strictly inside (PyTorch counts borders as outside)."""
    high = x.dtype.type(size - 1)
    low = np.maximum(x, x.dtype.type(0))
    out = np.minimum(low, high)
    return out, ((low != 0) & (out != high)).astype(x.dtype)


def _reflect(x, size, align_corners):
    """Mirror into range: about the corner pixels' centres (align_corners) or the outer edges; sign of the slope."""
    t = x.dtype.type
    span = t(2 * (size - 1)) if align_corners else t(2 * size)
    if span == 0:
        return np.zeros_like(x), np.zeros_like(x)
    shifted = x if align_corners else x + t(0.5)
    flips = np.trunc(np.abs(shifted) / span)
    extra = np.abs(shifted) - flips * span
    mirrored = span - extra
    more = extra > mirrored
    out = np.where(more, mirrored, extra)
    sign = np.where(more ^ (shifted < 0), t(-1), t(1))
    return (out if align_corners else out - t(0.5)), sign


def source_coordinates(coord, size, padding_mode, align_corners, mode):
    """The pixel coordinate each grid value reads and its derivative in the grid value (bicubic pads each tap
    instead, so its point is only unnormalized)."""
    x = _unnormalize(coord, size, align_corners)
    slope = np.full_like(x, _scale(size, align_corners, x.dtype))
    if mode == BICUBIC or padding_mode == ZEROS:
        return x, slope
    if padding_mode == REFLECTION:
        x, sign = _reflect(x, size, align_corners)
        slope = slope * sign
    x, inside = _clip(x, size)
    return x, np.where(inside != 0, slope, x.dtype.type(0))   # (PyTorch masks bits: its zeros are +0)


def _cubic1(x):   # weight of the two nearer taps: ((A + 2)x - (A + 3))x² + 1, for |x| <= 1
    t = x.dtype.type
    return ((t(_A + 2) * x - t(_A + 3)) * x) * x + t(1)


def _cubic2(x):   # weight of the two farther taps: ((Ax - 5A)x + 8A)x - 4A, for 1 < |x| < 2
    t = x.dtype.type
    return ((t(_A) * x - t(5 * _A)) * x + t(8 * _A)) * x - t(4 * _A)


def cubic_weights(t):
    """The four taps' weights at fractional offset t (taps at -1, 0, 1, 2), with first and second derivatives in t."""
    one = t.dtype.type(1)
    w = [_cubic2(t + one), _cubic1(t), _cubic1(one - t), _cubic2((one - t) + one)]
    d1 = [(3 * _A * (t + 1) - 10 * _A) * (t + 1) + 8 * _A,
          (3 * (_A + 2) * t - 2 * (_A + 3)) * t,
          -(3 * (_A + 2) * (1 - t) - 2 * (_A + 3)) * (1 - t),
          -((3 * _A * (2 - t) - 10 * _A) * (2 - t) + 8 * _A)]
    d2 = [6 * _A * (t + 1) - 10 * _A, 6 * (_A + 2) * t - 2 * (_A + 3),
          6 * (_A + 2) * (1 - t) - 2 * (_A + 3), 6 * _A * (2 - t) - 10 * _A]
    return w, d1, d2


def _bounded(i, size, padding_mode, align_corners):
    """A bicubic tap's integer coordinate after padding, and whether it reads the input (zeros: inside only)."""
    if padding_mode == ZEROS:
        return np.clip(i, 0, size - 1), (i >= 0) & (i < size)
    f = i.astype(np.float64)
    if padding_mode == REFLECTION:
        f, _ = _reflect(f, size, align_corners)
    f, _ = _clip(f, size)
    return f.astype(np.int64), np.ones(i.shape, bool)


# ---- the scalar kernel's coordinates (GridSampler.h; 5-D inputs): plain rounding, no fused multiply-adds

def _unnormalize_scalar(coord, size, align_corners):
    t = coord.dtype.type
    if align_corners:
        return ((coord + t(1)) / t(2)) * t(size - 1)
    return ((coord + t(1)) * t(size) - t(1)) / t(2)


def _reflect_scalar(x, twice_low, twice_high):
    """reflect_coordinates_set_grad: fmod into the span, mirrored on odd flips; the slope's sign."""
    t = x.dtype.type
    if twice_low == twice_high:
        return np.zeros_like(x), np.zeros_like(x)
    low, span = t(twice_low) / t(2), t(twice_high - twice_low) / t(2)
    shifted = x - low
    sign = np.where(shifted < 0, t(-1), t(1))
    shifted = np.abs(shifted)
    extra = np.fmod(shifted, span)
    odd = np.floor(shifted / span) % 2 == 1
    return np.where(odd, (span - extra) + low, extra + low), np.where(odd, -sign, sign)


def _clip_scalar(x, size):
    """clip_coordinates_set_grad: the borders count as outside (slope 0 there)."""
    t = x.dtype.type
    high = t(size - 1)
    out = np.where(x <= 0, t(0), np.where(x >= high, high, x))
    return out, ((x > 0) & (x < high)).astype(x.dtype)


def source_coordinates_scalar(coord, size, padding_mode, align_corners):
    """grid_sampler_compute_source_index_set_grad: the pixel coordinate and its slope in the grid value."""
    x = _unnormalize_scalar(coord, size, align_corners)
    slope = np.full_like(x, _scale(size, align_corners, x.dtype))
    if padding_mode == BORDER:
        x, inside = _clip_scalar(x, size)
        slope = slope * inside
    elif padding_mode == REFLECTION:
        x, sign = _reflect_scalar(x, 0, 2 * (size - 1)) if align_corners else _reflect_scalar(x, -1, 2 * size - 1)
        x, inside = _clip_scalar(x, size)
        slope = slope * sign * inside
    return x, slope


def _axis_taps(x, slope, mode, x0=None):
    """The taps along one axis: [(pixel coordinate, (weight, d weight/d grid, d² weight/d grid²))]."""
    zero = np.zeros_like(x)
    if mode == NEAREST:
        return [(np.rint(x), (np.ones_like(x), zero, zero))]   # (round half to even, as nearbyint)
    x0 = np.floor(x) if x0 is None else x0
    if mode == BILINEAR:
        return [(x0, ((x0 + 1) - x, -slope, zero)), (x0 + 1, (x - x0, slope, zero))]
    w, d1, d2 = cubic_weights(x - x0)
    return [(x0 + k - 1, (w[k], d1[k] * slope, d2[k] * slope * slope)) for k in range(4)]


def taps(in_sizes, grid, mode, padding_mode, align_corners):
    """Every tap of every output position: a list of (indices, valid, weights), indices one array per spatial
    axis (D, H, W order), weights one (w, dw, d2w) per axis, each shaped like grid[..., 0]; the derivatives are
    in the grid values (slopes included). Grid component k is the k-th axis from the last (x: W, y: H, z: D)."""
    nd = len(in_sizes)
    axes = []
    for axis, size in enumerate(in_sizes):
        coord = grid[..., nd - 1 - axis]
        if nd == 3:
            x, slope = source_coordinates_scalar(coord, size, padding_mode, align_corners)
        else:
            x, slope = source_coordinates(coord, size, padding_mode, align_corners, mode)
        axes.append(_axis_taps(x, slope, mode))
    out = []
    for combo in itertools.product(*axes):
        idx, valid = [], np.ones(grid.shape[:-1], bool)
        for (c, _), size in zip(combo, in_sizes):
            ic = np.nan_to_num(c, nan=-2.0, posinf=-2.0, neginf=-2.0).astype(np.int64)
            if mode == BICUBIC:
                ic, ok = _bounded(ic, size, padding_mode, align_corners)
            else:
                ok = (ic >= 0) & (ic < size)
            idx.append(np.clip(ic, 0, size - 1))
            valid &= ok
        out.append((tuple(idx), valid, tuple(ws for _, ws in combo)))
    return out


def _weight(tap, derivative=None):
    """Π over axes of the tap's weights; with ``derivative`` = axis a, that axis's first derivative instead,
    or with (a, b) the second derivative in axes a and b."""
    ws = tap[2]
    orders = [0] * len(ws)
    for a in (() if derivative is None else derivative if isinstance(derivative, tuple) else (derivative,)):
        orders[a] += 1
    out = ws[0][orders[0]]
    for w, k in zip(ws[1:], orders[1:]):
        out = out * w[k]
    return out


def _weight_xyz(tap):
    """A 3-D tap's weight multiplied as the scalar kernel does: (wx · wy) · wz."""
    (wz, _, _), (wy, _, _), (wx, _, _) = tap[2]
    return (wx * wy) * wz


def _read(x, tap):
    """x[n, :, *indices] for each output position: (N, C, *out), 0 where the tap is outside."""
    idx, valid = tap[0], tap[1]
    n = np.arange(x.shape[0]).reshape((-1,) + (1,) * (valid.ndim - 1))
    vals = x[(n, slice(None)) + idx]                     # (N, *out, C)
    return np.moveaxis(np.where(valid[..., None], vals, 0), -1, 1)


def _flat_index(tap, in_sizes):
    flat = tap[0][0]
    for i, size in zip(tap[0][1:], in_sizes[1:]):
        flat = flat * size + i
    return flat


def forward(x, grid, mode, padding_mode, align_corners):
    """The sampled (N, C, *out) output."""
    t = taps(x.shape[2:], grid, mode, padding_mode, align_corners)
    if mode == BICUBIC:   # rows first: Σ_j wy_j (Σ_i wx_i v_ji), as PyTorch's kernel (its exact rounding not matched)
        rows = [sum((_read(x, t[4 * j + i]) * t[4 * j + i][2][1][0][:, None] for i in range(1, 4)),
                    _read(x, t[4 * j]) * t[4 * j][2][1][0][:, None]) for j in range(4)]
        return np.ascontiguousarray(sum((rows[j] * t[4 * j][2][0][0][:, None] for j in range(1, 4)),
                                        rows[0] * t[0][2][0][0][:, None]))
    if x.ndim == 5:   # the scalar kernel: from 0, each tap's value · ((wx · wy) · wz) added in turn (tnw ... bse)
        out = np.zeros((x.shape[0], x.shape[1]) + grid.shape[1:-1], x.dtype)
        for tap in t:
            out = out + _read(x, tap) * _weight_xyz(tap)[:, None]
        return out
    # nw, ne, sw, se: value · (wy · wx), added in that order
    return np.ascontiguousarray(_fused_sum([_read(x, tap) for tap in t], [_weight(tap)[:, None] for tap in t]))


def _fused_sum(values, weights):
    """v0·w0 + v1·w1 + ..., each later product fused into the running sum (the compiled kernel's FMAs)."""
    out = values[0] * weights[0]
    for v, w in zip(values[1:], weights[1:]):
        out = fma(v, w, out, out.dtype)
    return out


def _lanes(dtype) -> int:
    """Elements per vector of PyTorch's grid sampler kernel (AVX2: 8 floats, 4 doubles): it scatters in such chunks."""
    return 32 // np.dtype(dtype).itemsize


def _scatter(shape, t, weights, g, lanes=1):
    """Σ over taps of g · weight added into each tap's input pixel (the adjoint of reading the taps), in the
    kernels' order: per chunk of ``lanes`` output positions (4-D: a vector; 5-D: one position), each tap's
    rounded products added position by position, the taps one after the other."""
    n_, c_ = shape[:2]
    in_sizes = shape[2:]
    out = np.zeros((n_, c_, int(np.prod(in_sizes))), g.dtype)
    positions = t[0][1][0].size
    order = []   # (tap, positions) pairs in the kernel's order
    for s in range(0, positions, lanes):
        span = np.arange(s, min(s + lanes, positions))
        order += [(k, span) for k in range(len(t))]
    flats = [_flat_index(tap, in_sizes) for tap in t]
    for b in range(n_):
        gb = g[b].reshape(c_, -1)
        idx = np.concatenate([flats[k][b].reshape(-1)[span] for k, span in order])
        ok = np.concatenate([t[k][1][b].reshape(-1)[span] for k, span in order])
        vals = np.concatenate([gb[:, span] * weights[k][b].reshape(-1)[span].astype(g.dtype) for k, span in order], 1)
        np.add.at(out[b], (np.arange(c_)[:, None], idx[ok][None, :]), vals[:, ok])
    return out.reshape(shape)


def backward(g, x, grid, mode, padding_mode, align_corners, need_input):
    """(d/d input, d/d grid) of <g, grid_sample(x, grid)>."""
    t = taps(x.shape[2:], grid, mode, padding_mode, align_corners)
    nd = x.ndim - 2
    d = g.dtype
    lanes = _lanes(d) if nd == 2 else 1
    gi = _scatter(x.shape, t, [_weight_xyz(tap) if nd == 3 else _weight(tap) for tap in t], g, lanes) \
        if need_input else None
    if mode == BILINEAR and nd == 2:
        nw, ne, sw, se = (_read(x, tap) for tap in t)
        fy, fx = t[3][2][0][0], t[3][2][1][0]    # the south and east weights: n and w in PyTorch's names
        sy, sx = t[3][2][0][1], t[3][2][1][1]    # d(pixel coordinate)/d(grid) along y and x
        gx = np.zeros(grid.shape[:-1], d)
        gy = np.zeros(grid.shape[:-1], d)
        for c in range(x.shape[1]):   # Σ_c g·((ne - nw)·s + (se - sw)·n), fused as PyTorch's kernel
            gc = g[:, c]
            gx = fma(fma(se[:, c] - sw[:, c], fy, (ne[:, c] - nw[:, c]) * (1 - fy), d), gc, gx, d)
            gy = fma(fma(se[:, c] - ne[:, c], fx, (sw[:, c] - nw[:, c]) * (1 - fx), d), gc, gy, d)
        return gi, np.stack([gx * sx.astype(d), gy * sy.astype(d)], -1)
    if mode == BILINEAR:   # the scalar 3-D kernel: per channel and tap, ± ((value · w_a) · w_b) · g per axis
        gs = [np.zeros(grid.shape[:-1], d) for _ in range(nd)]
        values = [_read(x, tap) for tap in t]
        for c in range(x.shape[1]):
            gc = g[:, c]
            for corner, (tap, v) in enumerate(zip(t, values)):
                for k in range(nd):   # grid component k moves axis nd - 1 - k; the others in x, y, z order
                    axis = nd - 1 - k
                    w1, w2 = (tap[2][a][0] for a in range(nd - 1, -1, -1) if a != axis)
                    term = ((v[:, c] * w1) * w2) * gc
                    far = (corner >> k) & 1   # the tap at floor + 1 along this axis: its weight grows
                    gs[k] = gs[k] + term if far else gs[k] - term
        mults = [t[-1][2][nd - 1 - k][1] for k in range(nd)]   # the far corner's slopes: +d(pixel)/d(grid)
        return gi, np.stack([m * gk for m, gk in zip(mults, gs)], -1)
    grads = [np.zeros(grid.shape[:-1], d) for _ in range(nd)]
    for tap in t:
        v = (_read(x, tap) * g).sum(1)
        for k in range(nd):
            grads[k] = grads[k] + v * _weight(tap, nd - 1 - k)
    return gi, np.stack(grads, -1).astype(d)


def double_backward(a, b, g, x, grid, mode, padding_mode, align_corners):
    """Given cotangents a (of d/d input) and b (of d/d grid): the gradients of <a, gi> + <b, gg> in
    (g, x, grid), where (gi, gg) = backward(g, x, grid). With L = <g, y>: <a, gi> + <b, gg> = <g, J_x a + J_grid b>."""
    t = taps(x.shape[2:], grid, mode, padding_mode, align_corners)
    nd = x.ndim - 2
    bs = [np.zeros(grid.shape[:-1]) if b is None else b[..., k] for k in range(nd)]   # b along grid component k
    axis_of = [nd - 1 - k for k in range(nd)]
    # the directional derivative of each tap weight along b
    dirs = [sum(bs[k] * _weight(tap, axis_of[k]) for k in range(nd)) for tap in t]
    g_out = np.zeros(g.shape, g.dtype)
    g_in = _scatter(x.shape, t, dirs, g)
    hs = [np.zeros(grid.shape[:-1], g.dtype) for _ in range(nd)]
    for tap, dr in zip(t, dirs):
        xv = _read(x, tap)
        g_out = g_out + xv * dr[:, None].astype(g.dtype)
        v = (xv * g).sum(1)
        for k in range(nd):   # the Hessian of the weight times b, paired with g·x
            hs[k] = hs[k] + v * sum(bs[m] * _weight(tap, (axis_of[k], axis_of[m])) for m in range(nd))
        if a is not None:
            av = _read(a, tap)
            g_out = g_out + av * _weight(tap)[:, None].astype(g.dtype)
            va = (av * g).sum(1)
            for k in range(nd):
                hs[k] = hs[k] + va * _weight(tap, axis_of[k])
    return g_out, g_in, np.stack(hs, -1).astype(g.dtype)
