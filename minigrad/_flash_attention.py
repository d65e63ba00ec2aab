"""float32 scaled-dot-product attention with the bits of PyTorch's CPU flash kernel.

PyTorch's ``cpu_flash_attention`` / ``cpu_flash_attention_backward`` (aten/src/ATen/native/cpu/
FlashAttentionKernel.cpp) walk each (batch, head) in blocks of query rows (32, 64 or 256 of them) and key
columns (512), with MKL gemm calls (``cpublas::gemm``) in between small loops. Emulated here, op for op:

- forward: S = k·qᵀ by one gemm, then S·scale (or S·scale + mask, a fused multiply-add), the row max, e^(S - max)
  (``exp_u20`` over whole vectors of 16, glibc's ``expf`` over the rest) and its float32 sum, out = (e·v by one
  gemm) · (1 / sum), logsumexp = max + log(sum);
- backward: rowsum(g ⊙ out), P = SLEEF's e^(scale·k·qᵀ (+ mask) - logsumexp), then four gemm calls
  (dV += Pᵀ·g, dP = g·vᵀ, dS = P ⊙ (dP - rowsum), dQ += scale·dS·k, dK += scale·dSᵀ·q) into zeroed gradients
  laid out (B, L, H, E).

MKL's results depend on the operands' alignment and on its thread count, so the kernel's per-thread buffers,
PyTorch's 64-byte aligned allocations and one MKL thread inside its parallel loop are reproduced too. Checked
on AVX-512 with 2 threads: exact without a mask and with boolean, causal and padding masks on the shapes tried;
with masks a few rows were seen one bit off (not tracked down). Taken for float32, no dropout, as many
key/value heads as query heads, a float32 mask or none; anything else returns None and the caller computes
the attention with NumPy (close, not the same bits).
"""
from __future__ import annotations

import math

import numpy as np

from . import _float_math, _matmul, _reduce

_F32 = np.dtype(np.float32)
_VEC = 16   # float32 lanes of PyTorch's AVX-512 Vectorized: rows this long take the vector paths


_MAX_TASKS = 1024   # (batch, head, query block) tasks up to which the loops run here (a few ms each at most)


def _emulated(q, k, v, attn_mask) -> bool:
    tasks = q.shape[0] * q.shape[1] * -(-q.shape[2] // _q_split(q.shape[2])) * -(-k.shape[2] // 512)
    return (q.dtype == k.dtype == v.dtype == _F32 and tasks <= _MAX_TASKS
            and q.shape[-3] == k.shape[-3] == v.shape[-3] and _matmul._LIB is not None
            and (attn_mask is None or attn_mask.dtype == _F32)
            and all(min(x.strides) >= 0 for x in (q, k, v)))


_U20 = tuple(np.float32(c) for c in (0.00828929059, 0.0418978221, 0.166676521, 0.499991506, 0.999999701, 1.0))
_LOG2E, _LN2, _LN_MIN, _LN_MAX = np.array([0x3fb8aa3b, 0x3f317218, 0xc2aeac50, 0x42b17218], np.uint32).view(_F32)


def exp_u20(x: np.ndarray) -> np.ndarray:
    """Vectorized<float>::exp_u20 (AVX-512): e^x = 2^n·p(r), n = floor(x·log2e + 1/2), r = x - n·ln2, p a
    degree-5 polynomial by fused multiply-adds; 0 below ln(FLT_MIN)."""
    fma = _float_math._fma
    src = np.maximum(np.minimum(x, _LN_MAX), _LN_MIN)
    n = np.floor(fma(src, _LOG2E, np.float32(0.5)))
    r = fma(-n, _LN2, src)
    p = fma(r, _U20[0], _U20[1])
    for coefficient in _U20[2:]:
        p = fma(r, p, coefficient)
    power = ((n.astype(np.int32) - 1 + 127) << 23).view(_F32)   # 2^(n-1)
    power = np.where(x < _LN_MIN, np.float32(0), power)
    return p * power * np.float32(2)


def _lanes_sum(acc: np.ndarray) -> np.ndarray:
    """vec_reduce_all's sum of 16 lanes (AVX-512 shuffles): halves, then quarters, pairs, neighbours."""
    while acc.shape[-1] > 1:
        half = acc.shape[-1] // 2
        acc = acc[..., :half] + acc[..., half:]
    return acc[..., 0]


def _exp_sum(x: np.ndarray) -> tuple:
    """_exp_reduce_sum_fusion_kernel on rows: e^x by exp_u20 over whole vectors of 16 (summed lane by lane,
    then across the lanes), by glibc's expf over the rest (added one after the other)."""
    whole = x.shape[-1] - x.shape[-1] % _VEC
    p = np.empty_like(x)
    acc = np.zeros(x.shape[:-1] + (_VEC,), _F32)
    for j in range(0, whole, _VEC):
        p[..., j:j + _VEC] = exp_u20(x[..., j:j + _VEC])
        acc = acc + p[..., j:j + _VEC]
    total = _lanes_sum(acc)
    p[..., whole:] = _float_math.glibc_expf(x[..., whole:])
    for j in range(whole, x.shape[-1]):
        total = total + p[..., j]
    return p, total


def _dot_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """vec::map2_reduce_all(x·y, x + y) on rows: fewer than 16 products added lane after lane; else added
    vector by vector (a last partial one into its first lanes), then across the lanes."""
    prods = (a * b).astype(_F32)
    size = prods.shape[-1]
    if size < _VEC:
        total = prods[..., 0].copy()
        for j in range(1, size):
            total = total + prods[..., j]
        return total
    acc = prods[..., :_VEC].copy()
    for j in range(_VEC, size, _VEC):
        chunk = prods[..., j:j + _VEC]
        acc[..., :chunk.shape[-1]] = acc[..., :chunk.shape[-1]] + chunk
    return _lanes_sum(acc)


def _q_split(q_len: int) -> int:
    """The query block size PyTorch's dispatch picks by the query length."""
    return 256 if q_len >= 768 else 64 if q_len >= 192 else 32


def _st(x: np.ndarray, dim: int) -> int:
    return x.strides[dim] // x.itemsize


def _mask4d(attn_mask, b: int, h: int, q_len: int, kv_len: int):
    """The mask broadcast to (B, H, L, S) as reshape_attn_mask_to_4d views it (None: no mask)."""
    if attn_mask is None or attn_mask.size == 0:
        return None
    m = attn_mask
    if m.ndim == 2:
        m = m.reshape(1, 1, *m.shape)
    return np.broadcast_to(m, (b, h, q_len, kv_len))


def _aligned(count: int) -> np.ndarray:
    """A float32 buffer starting on 64 bytes (PyTorch's CPU allocator's alignment)."""
    raw = np.empty(count + 16, _F32)
    start = (-raw.ctypes.data % 64) // 4
    return raw[start:start + count]


def _like_torch(a: np.ndarray) -> np.ndarray:
    """A copy of ``a`` whose first element sits, modulo 64 bytes, where PyTorch's does: its allocation starts on
    64 bytes and a view keeps its offset into it (MKL's gemm rounds some shapes differently by alignment)."""
    owner = a
    while isinstance(owner.base, np.ndarray):
        owner = owner.base
    shift = (a.ctypes.data - owner.ctypes.data) % 64
    span = sum((n - 1) * st for n, st in zip(a.shape, a.strides)) + a.itemsize if a.size else 0
    raw = np.empty(span + shift + 64, np.uint8)
    copy = np.ndarray(a.shape, a.dtype, raw, (-raw.ctypes.data % 64) + shift, a.strides)
    copy[...] = a
    return copy


def _thread_buffers(tasks: int, per_thread: int):
    """(buffer, task -> its thread's offset, MKL's thread count): ``at::empty({num_thread, size_per_thread})``
    and the thread at::parallel_for gives a task (contiguous chunks of the tasks; inline on thread 0 for a single
    task). Inside its parallel region MKL's gemm runs on one thread (and rounds some shapes differently)."""
    threads = _matmul._vml.num_threads()
    used = min(threads, tasks)
    chunk = -(-tasks // used)
    return _aligned(threads * per_thread), (lambda z: (z // chunk) * per_thread), 1 if used > 1 else threads


class _mkl_threads:
    """MKL's thread count for the gemm calls inside the block (PyTorch's intra-op count, which _matmul follows)."""

    def __init__(self, threads: int) -> None:
        self.threads = threads

    def __enter__(self) -> None:
        self.inner = _reduce.inner_threads(self.threads)   # (this thread's count only)
        self.inner.__enter__()

    def __exit__(self, *exc_info) -> None:
        self.inner.__exit__()


def _scale(q, scale) -> np.float32:
    """calculate_scale: 1/√E in double unless given, as float."""
    return np.float32(1 / math.sqrt(q.shape[-1]) if scale is None else scale)


def forward(q, k, v, is_causal: bool, attn_mask, scale):
    """(out, logsumexp) of cpu_flash_attention on (B, H, L, E) arrays, or None where not emulated."""
    if not _emulated(q, k, v, attn_mask):
        return None
    b_size, heads, q_len, e = q.shape
    kv_len = k.shape[-2]
    mask = _mask4d(attn_mask, b_size, heads, q_len, kv_len)
    c = _scale(q, scale)
    q_split, kv_split = min(_q_split(q_len), q_len), min(512, kv_len)
    # the output as PyTorch allocates it (empty_like(query)), filled row block by row block; lse (B, L, H)
    order = sorted(range(4), key=lambda d: -q.strides[d])
    out = np.empty(tuple(q.shape[d] for d in order), _F32).transpose(np.argsort(order))
    lse = np.empty((b_size, q_len, heads), _F32).transpose(0, 2, 1)
    q, k, v = (_like_torch(x) for x in (q, k, v))
    # each thread's buffer: S (q_split x kv_split), the row maxima and sums, then the output rows (q_split x E)
    q_slices = -(-q_len // q_split)
    per_thread = q_split * kv_split + 2 * q_split + q_split * e
    buf, offset, threads = _thread_buffers(b_size * heads * q_slices, per_thread)
    with _mkl_threads(threads):
        _forward_tasks(q, k, v, is_causal, mask, c, q_split, kv_split, buf, offset, out, lse)
    return out, lse


def _forward_tasks(q, k, v, is_causal, mask, c, q_split, kv_split, buf, offset, out, lse) -> None:
    """cpu_flash_attention's loop over (batch, head, query block), writing out and lse."""
    b_size, heads, q_len, e = q.shape
    kv_len = k.shape[-2]
    q_ld, k_ld, v_ld = _st(q, 2), _st(k, 2), _st(v, 2)
    task = 0
    for b in range(b_size):
        for h in range(heads):
            for m in range(0, q_len, q_split):
                rows = min(q_split, q_len - m)
                top = np.full(rows, -np.inf, _F32)
                total = np.zeros(rows, _F32)
                base = offset(task)
                task += 1
                dst_at = base + q_split * kv_split + 2 * q_split
                dst = buf[dst_at:dst_at + rows * e].reshape(rows, e)
                keys = min(m + rows, kv_len) if is_causal else kv_len
                for n in range(0, keys, kv_split):
                    cols = min(kv_split, kv_len - n)
                    qk = buf[base:base + rows * cols].reshape(rows, cols)   # column-major (cols x rows): S = k·qᵀ
                    _matmul._gemm(True, False, cols, rows, e, 1.0, k[b, h, n:], k_ld, q[b, h, m:], q_ld, 0.0, qk, cols)
                    if is_causal and keys - n <= kv_split:
                        for row in range(rows):
                            qk[row, m + row - n + 1:] = -np.inf
                    if mask is not None:   # S·scale + mask (one rounding), then the row max
                        qk = _float_math._fma(qk, c, mask[b, h, m:m + rows, n:n + cols])
                    else:
                        qk = qk * c
                    row_max = np.maximum(top, qk.max(1))
                    dead = row_max == -np.inf
                    with np.errstate(invalid="ignore", over="ignore"):
                        p, run = _exp_sum(qk - row_max[:, None])
                        rescale = _float_math.glibc_expf(top - row_max)
                    p[dead] = 0
                    total = np.where(dead, total, _float_math._fma(rescale, total, run))
                    if n > 0:
                        dst = np.where(dead[:, None], dst, dst * rescale[:, None])
                    top = np.where(dead, top, row_max)
                    qk[...] = p
                    _matmul._gemm(False, False, e, rows, cols, 1.0, v[b, h, n:], v_ld, qk, cols,
                                  0.0 if n == 0 else 1.0, dst, e)
                top = np.where(top == -np.inf, np.float32(0), top)
                total = np.where(total == 0, np.float32(1), total)
                out[b, h, m:m + rows] = dst * (np.float32(1) / total)[:, None]
                lse[b, h, m:m + rows] = top + _float_math._logf(total)


def backward(g, q, k, v, out, lse, is_causal: bool, attn_mask, scale):
    """(dq, dk, dv) of cpu_flash_attention_backward, each laid out (B, L, H, E), or None where not emulated."""
    if not _emulated(q, k, v, attn_mask) or g.dtype != _F32:
        return None
    b_size, heads, q_len, e = q.shape
    kv_len = k.shape[-2]
    mask = _mask4d(attn_mask, b_size, heads, q_len, kv_len)
    c = _scale(q, scale)
    q_split, kv_split = min(_q_split(q_len), q_len), min(512, kv_len)
    q, k, v = (_like_torch(x) for x in (q, k, v))
    g = _like_torch(np.ascontiguousarray(g.transpose(0, 2, 1, 3))).transpose(0, 2, 1, 3)   # (grad_out_t.contiguous())
    dq, dk, dv = (_aligned(x.size).reshape(x.shape[0], x.shape[2], x.shape[1], x.shape[3]).transpose(0, 2, 1, 3)
                  for x in (q, k, v))
    for x in (dq, dk, dv):
        x[...] = 0
    # each thread's buffer: P, then dS (q_split x kv_split each); one task per (batch, head)
    per_thread = 2 * q_split * kv_split
    buf, offset, threads = _thread_buffers(b_size * heads, per_thread)
    with _mkl_threads(threads):
        _backward_tasks(g, q, k, v, out, lse, is_causal, mask, c, q_split, kv_split, buf, offset, dq, dk, dv)
    return dq, dk, dv


def _backward_tasks(g, q, k, v, out, lse, is_causal, mask, c, q_split, kv_split, buf, offset, dq, dk, dv) -> None:
    """cpu_flash_attention_backward's loop over (batch, head), accumulating into dq, dk, dv."""
    b_size, heads, q_len, e = q.shape
    kv_len = k.shape[-2]
    q_ld, k_ld, v_ld, g_ld = _st(q, 2), _st(k, 2), _st(v, 2), _st(g, 2)
    for b in range(b_size):
        for h in range(heads):
            base = offset(b * heads + h)
            for m in range(0, q_len, q_split):
                rows = min(q_split, q_len - m)
                dsum = _dot_rows(g[b, h, m:m + rows], out[b, h, m:m + rows])
                keys = min(m + rows, kv_len) if is_causal else kv_len
                for n in range(0, keys, kv_split):
                    cols = min(kv_split, kv_len - n)
                    attn = buf[base:base + rows * cols].reshape(rows, cols)
                    _matmul._gemm(True, False, cols, rows, e, c, k[b, h, n:], k_ld, q[b, h, m:], q_ld, 0.0, attn,
                                  cols)
                    if mask is not None:
                        attn += mask[b, h, m:m + rows, n:n + cols]
                    with np.errstate(invalid="ignore", over="ignore"):
                        attn[...] = _float_math.sleef_expf(attn - lse[b, h, m:m + rows, None])
                    if is_causal and keys - n <= kv_split:
                        for row in range(rows):
                            attn[row, m + row - n + 1:] = 0
                    _matmul._gemm(False, True, e, cols, rows, 1.0, g[b, h, m:], g_ld, attn, cols, 1.0, dv[b, h, n:],
                                  _st(dv, 2))
                    at = base + q_split * kv_split
                    grad_attn = buf[at:at + rows * cols].reshape(rows, cols)
                    _matmul._gemm(True, False, cols, rows, e, 1.0, v[b, h, n:], v_ld, g[b, h, m:], g_ld, 0.0,
                                  grad_attn, cols)
                    grad_attn[...] = attn * (grad_attn - dsum[:, None])
                    _matmul._gemm(False, False, e, rows, cols, c, k[b, h, n:], k_ld, grad_attn, cols, 1.0,
                                  dq[b, h, m:], _st(dq, 2))
                    _matmul._gemm(False, True, e, cols, rows, c, q[b, h, m:], q_ld, grad_attn, cols, 1.0,
                                  dk[b, h, n:], _st(dk, 2))
