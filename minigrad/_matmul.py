"""float32 matrix products (mm, addmm, mv, dot, bmm) with the bits of PyTorch's CPU build.

PyTorch hands float32 products to MKL: ``mm``/``addmm``/``matmul`` go through ``addmm_impl_cpu_``
(aten/src/ATen/native/LinearAlgebra.cpp) to ``sgemm_`` (CPUBlas.cpp), ``mv`` to ``sgemv_`` and ``dot`` to
``sdot_`` (BlasKernel.cpp); ``bmm`` runs its own loop below 400 multiply-adds per matrix, else MKL's batch
gemm. Float addition is not associative and MKL picks a kernel per shape and memory layout, each with its
own order of additions, with or without fused multiply-adds (FMA); NumPy's OpenBLAS has other kernels, so
about half the elements of a small NumPy product differ from PyTorch's in the last bit.

The kernels below were read off PyTorch 2.13 (MKL 2024.2, x86-64 with AVX-512) by probing: with terms
1e8, -1e8 and 1 at three positions of a sum, the result tells which two are added first, which gives the
whole tree of additions; pairs of random terms tell whether a step is fused. Then every rule was checked
on random matrices of many shapes, layouts and thread counts (tests/test_parity_matmul_bits.py). Layouts
are PyTorch's reading of the operands (``addmm_impl_cpu_``): "N" row-major, "T" column-major (a ``.t()``
view); ``ab`` names (a's, b's) layout, e.g. "NT" for ``x @ W.t()`` in ``nn.Linear``.

- **big** (m >= 4 rows, n >= 12 columns, any layout): each element is a chain of FMAs over k from +0, in
  k-blocks: one up to 192 terms, two halves up to 384 (an odd last term is a block of its own), else
  blocks of 192 and the rest; the block sums are added in order, to the bias first (addmm).
  With 2 threads MKL splits the rows; a 5..11-row product then leaves its m % 4 last rows to the small
  kernels (``_split_rows``; checked with 1 and 2 threads: more threads may split otherwise).
- **small**, no FMA (products rounded, then added):

  - NN, TN: one running sum per element, from +0 or the bias. Where an output row does not start on a
    16-byte boundary, its first elements up to the boundary (if 4 or more follow) add each 8 terms as
    4 one by one, then 4 summed apart (``_aligned_head``).
  - TT: the running sum, then + bias.
  - NT: dot products on 4 lanes (8 lanes for the n % 4 last columns); the terms before a's row reaches
    a 16-byte boundary go first into lane 0; lanes added pairwise (halving); leftover terms one by one;
    then + bias.
  - gemv (n == 1 with a row-major, m == 1 with b column-major, ``mv`` of a row-major matrix): per output
    a dot product: the first ((k-1) % 4) + 1 terms into lane 0, then 4 lanes; past the last multiple of
    4 outputs, alternately 8 lanes and 4 lanes (an even number of rounds) after 4 head terms; + bias.
  - m == n == 1 with b column-major (``nn.Linear`` on one sample): gemv's dot product, then + bias.
  - the running sum from the bias: other m == n == 1, n == 1 with a column-major, m == 1 with b row-major,
    ``mv`` of a column-major matrix.
- **dot**: 4 accumulators of 4 lanes over blocks of 16 terms, then blocks of 8 and 4, leftover terms into
  lane 0; accumulators added in order, lanes pairwise.
- **bmm** (batch >= 2, row-major items): below 400 multiply-adds the running sum; else per matrix the big
  kernel or the NN small one (with its row alignment counted from the whole output).

An emulated product costs 10 us to about 1 ms (NumPy's: about 1 us), so products larger than ``LIMIT``
multiply-adds use NumPy (fast; about half their elements may then differ in the last bit): the limit takes in
the layers of small networks (a 20-64-3 MLP on a batch of 128; benchmark W4's), and leaves MNIST-sized ones
(benchmark W1's 784-256 layer) on BLAS. Other dtypes, ``addmm`` with beta or alpha != 1 and batched products of
transposed matrices use NumPy too. The probing was done on one machine: another CPU (or MKL version) may
pick other kernels.
"""
from __future__ import annotations

import functools

import numpy as np

from . import _reduce  # its THREADS[0]: PyTorch's intra-op thread count (MKL's too)

_F32 = np.dtype(np.float32)
LIMIT = 2 ** 18   # multiply-adds (m·k·n) up to which products are emulated (about 1 ms at most)
_DOT_LIMIT = 4096  # terms of a ``dot`` (checked up to here)
_KC = 192      # the big kernel's k-block
IN_VMAP = [0]  # > 0 while torch.func.vmap calls its function (see mm)


# =============================================================================================
# The pieces: running sums, FMA chains, lane sums
# =============================================================================================

def _running_sum(terms: np.ndarray, axis: int, start=None) -> np.ndarray:
    """sum(terms) along ``axis`` added one by one in float32, from +0 (or ``start``), as a loop would."""
    shape = list(terms.shape)
    shape[axis] = 1
    head = np.zeros(shape, _F32)
    if start is not None:
        head[...] = np.expand_dims(start, axis)
    # accumulate is a running sum by definition (reduce may add pairwise)
    return np.add.accumulate(np.concatenate([head, terms], axis=axis), axis=axis).take(-1, axis=axis)


def _fma_chain(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Σ a[:, p]·b[p, :] over p as a chain of float32 fused multiply-adds from +0."""
    # A float32 product is exact in float64, so each step is one float64 addition rounded to float32
    # (a double rounding, which differs from a true FMA in about one case in 2^29).
    terms = a.T.astype(np.float64)[:, :, None] * b.astype(np.float64)[:, None, :]   # (k, m, n)
    acc = np.zeros(terms.shape[1:], _F32)
    for t in terms:
        np.add(acc, t, out=acc, dtype=np.float64, casting="unsafe")
    return acc


def _k_blocks(k: int) -> list:
    """The big kernel's k-blocks (start, stop)."""
    if k <= _KC:
        return [(0, k)]
    if k <= 2 * _KC:
        h = k // 2
        return [(0, h), (h, 2 * h)] + ([(2 * h, k)] if k % 2 else [])
    starts = list(range(0, k - _KC, _KC))
    return [(s, s + _KC) for s in starts] + [(starts[-1] + _KC, k)]


def _big(a, b, bias):
    """The big kernel: FMA chains per k-block, block sums added in order (to the bias first)."""
    out = None if bias is None else bias.copy()
    for start, stop in _k_blocks(a.shape[1]):
        part = _fma_chain(a[:, start:stop], b[start:stop])
        out = part if out is None else np.add(out, part, out=out)
    return out


def _halving(lanes: np.ndarray) -> np.ndarray:
    """Lanes (last axis) added pairwise: lane i + lane i+L/2, repeatedly (a SIMD register's reduction)."""
    while lanes.shape[-1] > 1:
        half = lanes.shape[-1] // 2
        lanes = lanes[..., :half] + lanes[..., half:]
    return lanes[..., 0]


@functools.lru_cache(maxsize=512)
def _schedule(k: int, heads: tuple, lanes: int, even: bool) -> tuple:
    """Where each term of a lane sum goes: (table, steps, leftovers); ``table[h]`` for a head of h terms.

    A table row lists term positions as ``steps`` rows of ``lanes`` (the head terms one per step in lane 0,
    then the rounds), then the leftover terms; position k is a zero term (adding +0 changes nothing), which
    pads the shorter heads, rounds and leftovers.
    """
    plans = {}
    for h in heads:
        used = min(h, k)
        rounds = (k - used) // lanes
        rounds -= rounds % 2 if even else 0
        body = used + lanes * rounds
        plans[h] = (used, rounds, list(range(body, k)))
    head = max(p[0] for p in plans.values())
    rounds = max(p[1] for p in plans.values())
    rest = max(len(p[2]) for p in plans.values())
    steps = max(head + rounds, 1)
    table = np.full((max(heads) + 1, steps * lanes + rest), k, np.intp)
    for h, (used, nround, left) in plans.items():
        grid = table[h, :steps * lanes].reshape(steps, lanes)
        grid[:used, 0] = np.arange(used)
        grid[head:head + nround] = np.arange(used, used + lanes * nround).reshape(nround, lanes)
        table[h, steps * lanes:steps * lanes + len(left)] = left
    return table, steps, rest


def _lane_dot(terms: np.ndarray, heads, lanes: int, even: bool = False) -> np.ndarray:
    """Each row of ``terms`` summed on ``lanes`` SIMD lanes: its first ``heads`` terms one by one into lane 0,
    then rounds of ``lanes`` terms (an even number if ``even``), lanes halved, leftover terms one by one."""
    rows, k = terms.shape
    padded = np.zeros((rows, k + 1), _F32)
    padded[:, :k] = terms
    if isinstance(heads, int):
        table, steps, rest = _schedule(k, (heads,), lanes, even)
        ordered = padded[:, table[heads]]
    else:   # one head per row
        table, steps, rest = _schedule(k, tuple(sorted(set(heads.tolist()))), lanes, even)
        ordered = padded[np.arange(rows)[:, None], table[heads]]
    out = _halving(np.add.accumulate(ordered[:, :steps * lanes].reshape(rows, steps, lanes), axis=1)[:, -1])
    for t in range(steps * lanes, steps * lanes + rest):
        out = out + ordered[:, t]
    return out


def _gemv(terms: np.ndarray) -> np.ndarray:
    """MKL's matrix-vector dot products, one per row of ``terms`` (n, k)."""
    n, k = terms.shape
    full = 4 * (n // 4)
    out = np.empty(n, _F32)
    if full:
        out[:full] = _lane_dot(terms[:full], (k - 1) % 4 + 1, 4)
    # the last n % 4 outputs: 4 head terms, then alternately 8 lanes and 4 lanes (an even number of rounds)
    if n > full:
        out[full::2] = _lane_dot(terms[full::2], 4, 8)
    if n > full + 1:
        out[full + 1::2] = _lane_dot(terms[full + 1::2], 4, 4, even=True)
    return out


def _row_offsets(x: np.ndarray) -> np.ndarray:
    """Each row's start in float32 elements modulo 4 (its place within 16 bytes)."""
    base = x.__array_interface__["data"][0] // 4
    return (base + np.arange(x.shape[0]) * (x.strides[0] // 4)) % 4


# =============================================================================================
# The small kernels
# =============================================================================================

def _aligned_head(out, a, b, start, row0: int) -> None:
    """NN/TN: redo the elements before each output row's first 16-byte boundary (4 + (4 apart) per 8)."""
    m, k = a.shape
    n = b.shape[1]
    before = (-(np.arange(row0, row0 + m) * n)) % 4   # the output is fresh, so 16-byte aligned
    rows = np.flatnonzero((before > 0) & (n - before >= 4))
    if not rows.size:
        return
    i = np.repeat(rows, before[rows])
    j = np.concatenate([np.arange(c) for c in before[rows]])
    terms = a[i] * b[:, j].T                                   # (elements, k)
    s = np.zeros(i.size, _F32) if start is None else start[i, j].astype(_F32)
    t = 0
    while k - t >= 8:
        for u in range(t, t + 4):
            s = s + terms[:, u]
        s = s + _running_sum(terms[:, t + 4:t + 8], 1)
        t += 8
    for u in range(t, k):
        s = s + terms[:, u]
    out[i, j] = s


def _rows(a, b, bias, layout: str, row0: int = 0):
    """The small kernels of a product with 2 or more rows and columns (``row0``: the rows' place in it)."""
    m, k = a.shape
    n = b.shape[1]
    start = None if bias is None else np.broadcast_to(bias, (m, n))
    if layout in ("NN", "TN"):
        out = _running_sum(a[:, :, None] * b[None], 1, start)
        _aligned_head(out, a, b, start, row0)
        return out
    if layout == "TT":
        out = _running_sum(a[:, :, None] * b[None], 1)
    else:  # NT: dot products on lanes; a's rows are PyTorch's copy (16-byte aligned) unless row-major
        s0, s1 = a.strides[0] // 4, a.strides[1] // 4
        offset = _row_offsets(a) if s1 == 1 and s0 >= k else (np.arange(row0, row0 + m) * k) % 4
        head = (-offset) % 4
        terms = a[:, None, :] * b.T[None, :, :]                # (m, n, k)
        full = 4 * (n // 4)
        out = np.empty((m, n), _F32)
        for lo, hi, lanes in ((0, full, 4), (full, n, 8)):   # 8 lanes for the last n % 4 columns
            if hi > lo:
                sums = _lane_dot(terms[:, lo:hi].reshape(-1, k), np.repeat(head, hi - lo), lanes)
                out[:, lo:hi] = sums.reshape(m, hi - lo)
    return out if bias is None else out + start


def _small(a, b, bias, layout: str):
    """The small kernels for ``a @ b (+ bias)``, by shape and layout."""
    m, k = a.shape
    n = b.shape[1]
    if n == 1 < m and layout[0] == "N" or m == 1 < n and layout[1] == "T":   # MKL's gemv
        out = (_gemv(a * b.T) if n == 1 else _gemv(b.T * a)).reshape(m, n)
        return out if bias is None else out + bias
    if m == n == 1 and layout[1] == "T":   # a single dot product (nn.Linear on one sample): gemv, then + bias
        out = _gemv(a * b.T).reshape(1, 1)
        return out if bias is None else out + bias
    if m == 1 or n == 1:   # the running sum, from the bias
        start = None if bias is None else np.broadcast_to(bias, (m, n))
        return _running_sum(a[:, :, None] * b[None], 1, start)
    return _rows(a, b, bias, layout)


# =============================================================================================
# The ops
# =============================================================================================

def _layout(x: np.ndarray, first: str) -> str:
    """PyTorch's reading of a matrix operand: "N" row-major, "T" column-major (``first`` is tried first)."""
    rows, cols = x.shape
    s0, s1 = x.strides[0] // x.itemsize, x.strides[1] // x.itemsize
    row_major = s1 == 1 and s0 >= max(1, cols)
    col_major = s0 == 1 and s1 >= max(1, rows)
    if first == "T":  # a one-column result: addmm_impl_cpu_ keeps it column-major and tests that first
        return "T" if col_major else "N"
    return "N" if row_major else ("T" if col_major else "N")   # neither: PyTorch copies it row-major


def _split_rows(m: int, k: int, n: int) -> int:
    """Rows the big kernel computes when MKL runs on 2 or more threads (the rest go to the small kernels)."""
    if 4 < m < 12 and m % 4 and (k > 16 or n > 16 and k > 4 or n > 100 and k > 1):
        if _reduce.THREADS[0] > 1:
            return 4 * (m // 4)
    return m


def _mm(a, b, bias=None):
    """``a @ b (+ bias)`` in MKL's order (float32, no empty dims)."""
    m = a.shape[0]
    n = b.shape[1]
    first = "T" if n == 1 else "N"
    layout = _layout(a, first) + _layout(b, first)
    if m < 4 or n < 12:
        return _small(a, b, bias, layout)
    full = None if bias is None else np.broadcast_to(bias, (m, n))
    top = _split_rows(m, a.shape[1], n)
    out = _big(a[:top], b, None if full is None else full[:top].astype(_F32))
    if top == m:
        return out
    return np.concatenate([out, _rows(a[top:], b, None if full is None else full[top:], layout, top)])


def _in_dtype(out: np.ndarray, a: np.ndarray) -> np.ndarray:
    """A product in its operands' dtype: ml_dtypes' bfloat16 matmul returns float32 (PyTorch accumulates in
    float32 too, then rounds once to bfloat16)."""
    return out if out.dtype == a.dtype else out.astype(a.dtype)


def mm(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` of two matrices, with PyTorch's float32 bits for small products."""
    if a.dtype == np.bool_ and a.size and b.size:  # (PyTorch's BLAS kernels have no bool; an empty product
        raise NotImplementedError("\"addmm_impl_cpu_\" not implemented for 'Bool'")  # runs none)
    m, k = a.shape
    n = b.shape[1]
    if k == 1 and m and n:
        # a k = 1 product is an outer product in PyTorch: 0·(-x) stays -0 (a gemm starting from +0 would
        # print 0.), which shows in printed gradients. Under vmap PyTorch runs a batched product (bmm, a sum
        # from +0) where minigrad loops: per-sample weight gradients (k = the slice's batch of 1) print 0.
        return a * b if not IN_VMAP[0] else a * b + _F32.type(0)
    if m * k * n <= LIMIT and a.dtype == _F32 and b.dtype == _F32 and m and n and k:   # (sizes first: cheap)
        return _mm(a, b)
    return _in_dtype(np.matmul(a, b), a)


def addmm(bias: np.ndarray, a: np.ndarray, b: np.ndarray, beta, alpha) -> np.ndarray:
    """``beta·bias + alpha·(a @ b)`` (bias broadcast), with PyTorch's float32 bits for small products."""
    m, k = a.shape
    n = b.shape[1]
    if m * k * n <= LIMIT and m and n and k and beta == 1 and alpha == 1 and a.dtype == b.dtype == bias.dtype == _F32:
        return _mm(a, b, bias)   # PyTorch copies the bias into the result, then gemm adds to it (β = 1)
    return (beta * bias + alpha * (a @ b)).astype(np.result_type(bias, a, b), copy=False)


def mv(a: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Matrix @ vector, with PyTorch's float32 bits (MKL's gemv) for small products."""
    if a.dtype == np.bool_:  # (PyTorch's BLAS kernels have no bool)
        raise NotImplementedError("\"addmv_impl_cpu\" not implemented for 'Bool'")
    if not (a.dtype == _F32 and v.dtype == _F32 and 0 < a.size <= LIMIT):
        return _in_dtype(np.matmul(a, v), a)
    if _layout(a, "T") == "T":  # column-major: y += a[:, p]·v[p], one column after the other
        return _running_sum(a * v, 1)
    return _gemv(a * v)


def dot(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The inner product of two vectors, with PyTorch's float32 bits (MKL's sdot) up to 4096 terms."""
    if x.dtype == np.bool_:  # (PyTorch's BLAS kernels have no bool)
        raise NotImplementedError("\"dot\" not implemented for 'Bool'")
    k = x.shape[0]
    if not (x.dtype == _F32 and y.dtype == _F32 and k <= _DOT_LIMIT and x.strides[0] == 4 == y.strides[0]):
        return np.asarray(np.dot(x, y) + 0)   # + 0: a sum from +0 (no -0)
    terms = x * y
    if k < 4:
        return np.asarray(_running_sum(terms[None], 1)[0])
    acc = np.zeros((1, 4, 4), _F32)                       # 4 accumulators of 4 lanes
    sixteen = 16 * (k // 16)
    acc = np.add.accumulate(np.concatenate([acc, terms[:sixteen].reshape(-1, 4, 4)]), axis=0)[-1]
    t = sixteen
    if k - t >= 8:   # then a block of 8 into the first two accumulators, one of 4 into the first
        acc[0] += terms[t:t + 4]
        acc[1] += terms[t + 4:t + 8]
        t += 8
    if k - t >= 4:
        acc[0] += terms[t:t + 4]
        t += 4
    for u in range(t, k):   # leftover terms into lane 0
        acc[0, 0] += terms[u]
    lanes = ((acc[0] + acc[1]) + acc[2]) + acc[3]
    return np.asarray((lanes[0] + lanes[2]) + (lanes[1] + lanes[3]))


def bmm(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Batched matrix product, with PyTorch's float32 bits for small row-major batches."""
    if a.dtype == np.bool_:  # (PyTorch's BLAS kernels have no bool)
        raise NotImplementedError("\"bmm\" not implemented for 'Bool'")
    batch, m, k = a.shape
    n = b.shape[2]
    if not (a.dtype == _F32 and b.dtype == _F32 and m * k * n <= LIMIT and a.size and b.size):
        return _in_dtype(np.matmul(a, b), a)
    if m * k * n < 400:  # PyTorch's own loop (baddbmm_cpu_kernel): a running sum, any layout
        return _running_sum(a[:, :, :, None] * b[:, None], 2)
    if batch == 1:
        return mm(a[0], b[0])[None]
    if not all(x.strides[2] == 4 and x.strides[1] == 4 * x.shape[2] for x in (a, b)):
        return np.matmul(a, b)   # MKL's batch gemm on transposed items: not probed
    # MKL's batch gemm: no gemv for one row or column; the row alignment counts from the whole output
    out = np.empty((batch, m, n), _F32)
    for i in range(batch):
        if m >= 4 and n >= 12:
            out[i] = _big(a[i], b[i], None)
        else:
            out[i] = _running_sum(a[i][:, :, None] * b[i][None], 1)
            _aligned_head(out[i], a[i], b[i], None, i * m)
    return out


def baddbmm(bias: np.ndarray, a: np.ndarray, b: np.ndarray, beta, alpha) -> np.ndarray:
    """``beta·bias + alpha·(a @ b)`` per batch (bias broadcast); β = 0 ignores bias (even its NaNs), as PyTorch."""
    dtype = np.result_type(bias, a, b)
    if dtype.kind in "iub":   # integer inputs: PyTorch reads β and α in the tensor's integer type
        beta, alpha = int(beta), int(alpha)
    opmath = np.dtype(np.float32) if dtype.itemsize <= 2 and dtype.kind in "fV" else dtype   # half: float32
    if dtype.kind in "fcV" and a.shape[1] * a.shape[2] * b.shape[2] < 400:
        # PyTorch's own loop (baddbmm_cpu_kernel) in the "opmath" type: each element a running sum from 0
        # over k, then self·β + α·sum (β = 0: α·sum), β and α read in that type
        terms = a.astype(opmath)[:, :, :, None] * b.astype(opmath)[:, None]
        zero = np.zeros(terms.shape[:2] + (1,) + terms.shape[3:], opmath)
        acc = np.add.accumulate(np.concatenate([zero, terms], axis=2), axis=2)[:, :, -1]
        beta, alpha = opmath.type(beta), opmath.type(alpha)
        out = alpha * acc if beta == 0 else np.broadcast_to(bias, acc.shape).astype(opmath) * beta + alpha * acc
        return out.astype(dtype)
    if beta == 1 and alpha == 1 and dtype == _F32 and 400 <= a.shape[1] * a.shape[2] * b.shape[2] <= LIMIT:
        onto = _bmm_onto(np.broadcast_to(bias, (a.shape[0], a.shape[1], b.shape[2])), a, b)
        if onto is not None:
            return onto
    if dtype.kind in "fcV":
        beta, alpha = opmath.type(beta), opmath.type(alpha)
    prod = bmm(a, b)   # (MKL's gemm with β ≠ 1 or α ≠ 1, or non-float32: close, not always the same bits)
    out = alpha * prod if beta == 0 else np.broadcast_to(bias, prod.shape) * beta + alpha * prod
    return np.asarray(out).astype(dtype, copy=False)


def _bmm_onto(bias, a, b):
    """MKL's batch gemm adding onto a copy of the bias (β = α = 1), as ``bmm`` without one; None if not probed."""
    batch, m, _ = a.shape
    n = b.shape[2]
    if not all(x.strides[2] == 4 and x.strides[1] == 4 * x.shape[2] for x in (a, b)):
        return None
    out = np.array(bias, _F32)
    for i in range(batch):
        if m >= 4 and n >= 12:
            out[i] = _big(a[i], b[i], out[i])
        else:
            start = out[i].copy()
            out[i] = _running_sum(a[i][:, :, None] * b[i][None], 1, start=start)
            _aligned_head(out[i], a[i], b[i], start, i * m)
    return out
