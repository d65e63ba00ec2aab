"""PyTorch's CPU floating-point sum, in PyTorch's own order of additions: the same bits.

Float addition is not associative, so the last bits of a sum depend on the order of its additions.
NumPy adds pairwise; PyTorch's CPU sum adds in another fixed order, reproduced here with vectorized
NumPy (no per-element Python loops). The pieces, named after their PyTorch sources:

- the kernel (aten/src/ATen/native/cpu/SumKernel.cpp, ``cascade_sum``) is called on 2-D blocks of the
  input and sums each line of a block with ``row_sum`` (4 interleaved accumulators, each one a cascade)
  or ``multi_row_sum`` (one cascade: runs of 16 or more values added one by one, whose sums are added in
  runs again, on 4 levels), on SIMD lanes where memory is contiguous (``vectorized_inner_sum``,
  ``vectorized_outer_sum``; half and bfloat16 are loaded into float32 lanes);
- the iteration (aten/src/ATen/TensorIterator.cpp) puts the reduced dims first, orders dims by stride and
  merges the ones memory allows (``reorder_dimensions``, ``coalesce_dimensions``), then walks 2-D blocks
  (``DimCounter``);
- the threads (aten/src/ATen/native/TensorIteratorReduce.cpp, ``parallel_reduce``): from 32768 elements on,
  a full reduction is cut into one range per thread (``two_pass_reduction``) and other reductions split a
  kept dim between threads (``parallel_dim_reduction``), which changes the blocks;
- the op (aten/src/ATen/native/ReduceOps.cpp): ``sum_out`` sums half/bfloat16 over two or more reduced
  dims in float32 (``should_use_acc_buffer``); ``mean_out`` divides that sum by the count.

The SIMD width is 32 bytes on x86 (AVX2's, also on AVX-512 CPUs: see ``_vector_bytes``); the thread
count is minigrad's ``get_num_threads()``, which starts at PyTorch's default (the physical cores).
"""
from __future__ import annotations

import functools
import math
import os
import platform
import threading

import ml_dtypes
import numpy as np

try:  # einsum's C core (its Python wrapper only parses ``optimize``)
    from numpy._core.multiarray import c_einsum as _einsum
except ImportError:  # pragma: no cover - NumPy 1.x
    from numpy.core.multiarray import c_einsum as _einsum

GRAIN_SIZE = 32768  # at::internal::GRAIN_SIZE: smaller reductions run on one thread
_BF16 = np.dtype(ml_dtypes.bfloat16)
_HALVES = (np.dtype(np.float16), _BF16)


def _vector_bytes() -> int:
    """Bytes in one SIMD vector of PyTorch's sum kernel on this machine."""
    # SumKernel.cpp registers with REGISTER_DISPATCH, which leaves the AVX-512 slot empty: an AVX-512 CPU
    # runs the AVX2 kernel (aten/src/ATen/native/DispatchStub.h), and the scalar build's generic vectors
    # are 32 bytes as well (VECTOR_WIDTH in vec_base.h). ARM builds use 16-byte NEON vectors (not verified).
    return 16 if platform.machine().lower() in ("aarch64", "arm64") else 32


def default_num_threads() -> int:
    """PyTorch's default intra-op thread count: MKL_NUM_THREADS / OMP_NUM_THREADS, else the physical cores."""
    for var in ("MKL_NUM_THREADS", "OMP_NUM_THREADS"):
        value = os.environ.get(var, "")
        if value.isdigit() and int(value) > 0:
            return int(value)
    cores = set()
    try:
        for cpu in sorted(os.sched_getaffinity(0)):
            topology = f"/sys/devices/system/cpu/cpu{cpu}/topology/"
            with open(topology + "physical_package_id") as package, open(topology + "core_id") as core:
                cores.add((package.read().strip(), core.read().strip()))
    except (OSError, AttributeError):
        pass
    return len(cores) or os.cpu_count() or 1


VECTOR_BYTES = _vector_bytes()
class _Threads(list):
    """[intra-op, inter-op] thread counts: torch.set_num_threads sets [0] for every thread, as PyTorch's."""

    __slots__ = ()


class _Inner(threading.local):
    count = None   # this thread's intra-op count inside ``inner_threads`` (None: the process's)


_INNER = _Inner()


class _ThreadsInside(_Threads):
    """THREADS once some thread has entered ``inner_threads``: [0] is the calling thread's count."""

    __slots__ = ()

    def __getitem__(self, index):
        count = _INNER.count
        return list.__getitem__(self, index) if count is None or index != 0 else count


class inner_threads:
    """Context manager: the calling thread's ops see ``count`` intra-op threads inside (a kernel running its inner
    ops as one of PyTorch's parallel loops would: a gemm there runs on one thread). Per thread, as PyTorch's
    in_parallel_region: another thread's ops meanwhile, and its set_num_threads, keep the process's count."""

    def __init__(self, count: int) -> None:
        self.count = count

    def __enter__(self) -> None:
        THREADS.__class__ = _ThreadsInside   # (a plain list's read until then: see _per_thread.py)
        self.saved, _INNER.count = _INNER.count, self.count

    def __exit__(self, *exc_info) -> None:
        _INNER.count = self.saved


THREADS = _Threads([default_num_threads(), default_num_threads()])  # [intra-op, inter-op]


class _Lanes:
    """The kernel's vector shapes for one dtype: Vectorized<scalar_t> and Vectorized<acc_t> sizes."""

    def __init__(self, dtype: np.dtype):
        real = np.dtype(dtype.char.lower()) if dtype.kind == "c" else dtype  # complex: per component
        self.acc = np.dtype(np.float32) if dtype in _HALVES else real        # at::acc_type<scalar_t, true>
        self.vec = VECTOR_BYTES // dtype.itemsize     # elements per vector load (vec_t::size())
        self.lanes = VECTOR_BYTES // (self.acc.itemsize * (2 if dtype.kind == "c" else 1))  # vacc_t::size()
        # half and bfloat16: a vector load holds two float32 vectors' worth; lane i adds element i and
        # element i + lanes (the register's two halves: InnerSumCastLoadPolicy's specializations)
        self.pairs = dtype in _HALVES


@functools.lru_cache(maxsize=64)
def _lanes(dtype: np.dtype) -> _Lanes:
    return _Lanes(dtype)


# ---- the kernel: SumKernel.cpp ------------------------------------------------------------------
#
# The kernels below take 3-D arrays (B, n, L): B batches of lines of n values, summed along axis 1,
# with L lines side by side along the last axis (like SIMD lanes). Every sum starts from 0 and adds
# one value after another. NumPy's add.reduce and einsum add pairwise where the summed axis is their
# innermost loop; with the lane axis of smaller stride innermost they add one slice after another.
# einsum does so with less overhead per slice and starts from 0; add.reduce starts from the first
# slice (x[0] + x[1] + ...), as PyTorch does where it adds up row_sum's 4 accumulators. np.add.accumulate
# adds in order along any axis. Each kernel is built once per size (the cached ``_..._fn`` factories) as
# a function of the array, so that little Python runs between NumPy's calls.
#
# NaN: the sums are NaN where PyTorch's are, but the sign and payload of a NaN depend on which of two
# NaNs an addition keeps, which differs between NumPy's loops (and PyTorch's): those are not reproduced.

def _ceil_log2(x: int) -> int:
    # aten/src/ATen/native/cpu/utils.h: CeilLog2 (1 for x <= 2)
    return 1 if x <= 2 else (x - 1).bit_length()


def _ordered(x: np.ndarray) -> np.ndarray:
    """x (B, n, L) itself if its lane axis has the smaller stride (then sums go in order), else a copy."""
    if 0 < x.strides[2] < x.strides[1]:
        return x
    return np.ascontiguousarray(x)


def _seq_lines(x: np.ndarray) -> np.ndarray:
    """0 + x[0] + x[1] + ... of x (n, K) along axis 0, for any layout of x."""
    if x.shape[1] > 1:
        return _einsum("ab->b", np.ascontiguousarray(x))
    return np.add.accumulate(x[:, 0])[-1:] + x.dtype.type(0)  # one line: a running sum (0 + -0.0 is +0.0)


def _sum_rows(x: np.ndarray) -> np.ndarray:
    """0 + x[:, 0] + x[:, 1] + ... of x (B, m, L): (B, L)."""
    return _einsum("abc->ac", x)


def _cascade(x: np.ndarray) -> np.ndarray:
    """``multi_row_sum`` of x (B, m, L) along axis 1: (B, L)."""
    return _cascade_fn(x.shape[1])(x)


@functools.lru_cache(maxsize=1024)
def _cascade_fn(n: int):
    """``multi_row_sum`` along axis 1 of x (B, n, L), as a function of x.

    Values are added one by one into level 0; every ``step`` values level 0 is added into level 1 (and
    cleared), every ``step`` of those level 1 into level 2, every ``step`` of those level 2 into level 3.
    The values left over at the end are added into level 0, then levels 1, 2, 3 into it, in that order.
    """
    if n < 16:  # (step is 16 or more) no flush: 0 + each value in turn
        return _sum_rows
    step = 1 << max(4, _ceil_log2(n) // 4)  # 2^level_power
    groups = n // step
    cut = groups * step
    if groups == 1:  # one run: level 1 holds 0 + its sum, which is its sum (a sum from +0.0 is never -0.0)
        if cut == n:
            return _sum_rows
        return lambda x: _einsum("abc->ac", x[:, cut:]) + _einsum("abc->ac", x[:, :cut])  # 0 + the rest + level 1
    if groups <= step:  # (the usual case: one level of runs) 0 + the last values + 0 + the runs' sums
        def one_level(x: np.ndarray) -> np.ndarray:
            b, _, lanes = x.shape
            runs = _einsum("abc->ac", _einsum("abcd->abd", (x[:, :cut] if cut < n else x).reshape(b, groups, step,
                                                                                                 lanes)))
            return _einsum("abc->ac", x[:, cut:]) + runs if cut < n else runs
        return one_level

    def levels(x: np.ndarray) -> np.ndarray:
        b, m, lanes = x.shape
        acc = None
        for level in range(4):
            groups = m // step if level < 3 else 0  # (level 3 is never flushed)
            cut = groups * step
            if cut < m:  # what the level holds at the end: the values since its last flush
                if m - cut == 1 and level:
                    rest = x[:, cut]  # (0 + one sum: that sum)
                else:
                    rest = _einsum("abc->ac", x[:, cut:] if cut else x)
                acc = rest if acc is None else acc + rest
            if not groups:
                break
            x = _einsum("abcd->abd", (x[:, :cut] if cut < m else x).reshape(b, groups, step, lanes))  # the flushes
            m = groups
        return np.zeros((b, lanes), x.dtype) if acc is None else acc
    return levels


def _four(part: np.ndarray, lanes: int) -> np.ndarray:
    """((first + second) + third) + fourth of ``row_sum``'s 4 accumulators, part (B, 4 * lanes): (B, lanes)."""
    if lanes == 1:  # (add.reduce would add along its innermost axis: pairwise) first + second + ...
        return ((part[:, :1] + part[:, 1:2]) + part[:, 2:3]) + part[:, 3:]
    if part.shape[0] == 1:  # (a 2-D reduce: less set-up)
        return np.add.reduce(part.reshape(4, lanes), 0, None, None, True)
    return np.add.reduce(part.reshape(-1, 4, lanes), 1)


def _row_sum(x: np.ndarray) -> np.ndarray:
    """``row_sum`` of x (B, n, L) along axis 1: value i goes to accumulator i % 4, the last n % 4 to the first."""
    return _row_sum_fn(x.shape[1], x.shape[2])(x)


@functools.lru_cache(maxsize=1024)
def _row_sum_fn(n: int, lanes: int):
    """``row_sum`` along axis 1 of x (B, n, lanes), as a function of x: (B, lanes), a fresh array."""
    full = n // 4
    if not full:
        def few(x: np.ndarray) -> np.ndarray:
            first = np.zeros((x.shape[0], lanes), x.dtype)
            for i in range(n):
                first = first + x[:, i]
            return first
        return few
    cascade = _cascade_fn(full)

    def row_sum(x: np.ndarray) -> np.ndarray:  # the 4 accumulators side by side: one cascade of 4 * lanes
        part = cascade(_ordered((x[:, :4 * full] if 4 * full < n else x).reshape(x.shape[0], full, 4 * lanes)))
        for i in range(4 * full, n):  # (part is a fresh array: never x itself)
            part[:, :lanes] += x[:, i]
        return _four(part, lanes)
    return row_sum


def _outer(x: np.ndarray, group: int) -> np.ndarray:
    """``vectorized_outer_sum`` (group = 4 vectors) / ``scalar_outer_sum`` (group = 4) of blocks (B, n1, n0)."""
    columns = _ordered(x.transpose(0, 2, 1))  # (B, n0, n1): the lines are columns, side by side
    return _outer_fn(columns.shape[1], columns.shape[2], group)(columns)


@functools.lru_cache(maxsize=1024)
def _outer_fn(n0: int, n1: int, group: int):
    """``_outer`` of columns (B, n0, n1), lane axis of the smaller stride, as a function of the columns.

    Each line sums down the n0 axis; the first lines in whole groups as single cascades (``multi_row_sum``
    of 4 rows of lanes), the remaining lines with ``row_sum``.
    """
    whole = n1 // group * group
    cascade = _cascade_fn(n0)
    if whole == n1:
        return cascade
    row_sum = _row_sum_fn(n0, n1 - whole)
    if not whole:
        return row_sum
    return lambda x: np.concatenate((cascade(x[:, :, :whole]), row_sum(x[:, :, whole:])), axis=1)


def _inner(x: np.ndarray, lanes: _Lanes) -> np.ndarray:
    """``vectorized_inner_sum`` of blocks (B, n1, n0), lines contiguous: vectors of lanes, then one scalar."""
    b, n1, n0 = x.shape
    return _inner_fn(b * n1, n0, lanes)(x.reshape(b * n1, n0)).reshape(b, n1)


@functools.lru_cache(maxsize=256)
def _inner_fn(lines: int, n0: int, lanes: _Lanes):
    """``vectorized_inner_sum`` of x (lines, n0), lines contiguous, as a function of x: the (lines,) sums.

    Each line is read as vectors (``row_sum`` over them, lane by lane) and a tail of fewer than one
    vector; the line's total is 0 + the tail's values + the lanes' sums, one by one in that order.
    """
    v, width, acc = lanes.lanes, lanes.vec, lanes.acc
    vectors = n0 // width
    full, end = vectors // 4, vectors * width
    tail = n0 - end
    cascade = _cascade_fn(full)
    # (einsum over a batch of long lines cut short before their last values is slower than line by line)
    by_line = 1 < lines <= 8 and full >= 2048 and full % (1 << max(4, _ceil_log2(full) // 4))

    def vectors_of(x: np.ndarray) -> np.ndarray:
        """The lines' vectors (lines, vectors, v), in the accumulation dtype."""
        if lanes.pairs:  # (lane i of a half/bfloat16 load: element i + element i + lanes, in float32)
            body = x[:, :end].reshape(lines, vectors, 2, v).astype(np.float32)
            return body[:, :, 0] + body[:, :, 1]
        return x[:, :end].reshape(lines, vectors, v)

    def accumulators(x: np.ndarray) -> np.ndarray:
        """row_sum's accumulators over each line's vectors: (lines, 4 * v), or (lines, v) below 4 vectors."""
        body = vectors_of(x)
        if not full:
            part = np.zeros((lines, v), acc)
        elif by_line:
            part = np.concatenate([cascade(body[i:i + 1, :4 * full].reshape(1, full, 4 * v)) for i in range(lines)])
        else:
            part = cascade(body[:, :4 * full].reshape(lines, full, 4 * v))
        for i in range(4 * full, vectors):  # the last vectors: into the first accumulator (part is fresh)
            part[:, :v] += body[:, i]
        return part

    # The lanes' sums are ((first + second) + third) + fourth accumulator (with fewer than 4 vectors only
    # the first: x + 0 is x, as no sum is -0.0); then 0 + the tail + the lanes' sums are added in order:
    # one line: a running sum of a buffer [tail, lanes]; a few lines: the same along the buffer's rows;
    # many lines: einsum down the buffer's columns (tail + v, lines), one slice after another.
    if lines == 1 and not lanes.pairs and full:  # (one line: 1-D and 2-D arrays, NumPy's cheapest calls)
        body = 4 * full * v
        whole = body == n0  # (no vector or value past the 4 accumulators' vectors: the line itself)
        main = (full, 4 * v) if full < 16 else (1, full, 4 * v)
        last = [slice(i * v, (i + 1) * v) for i in range(4 * full, vectors)]  # into the first accumulator
        flat = (n0,)

        def one(x: np.ndarray) -> np.ndarray:
            row = x.reshape(flat)
            part = row.reshape(main) if whole else row[:body].reshape(main)
            # the accumulators (4 * v): 0 + each vector in turn (below 16, no flush), else the cascade
            part = _einsum("ab->b", part) if full < 16 else cascade(part)[0]
            for s in last:  # (part is fresh: never x itself)
                part[:v] += row[s]
            # ((first + second) + third) + fourth accumulator, then 0 + the tail's values + the lanes' sums
            # in turn: a running sum whose first term needs no 0 + (a lanes' sum, from +0.0, is never -0.0,
            # so the running sum turns a -0.0 tail into +0.0 as 0 + would)
            lanes_sum = np.add.reduce(part.reshape(4, v), 0)
            if tail:
                return np.add.accumulate(np.concatenate((row[end:], lanes_sum)))[-1:]
            return np.add.accumulate(lanes_sum)[-1:]
        return one
    if lines == 1 and not lanes.pairs:  # (below 4 vectors: the first accumulator only)
        def short(x: np.ndarray) -> np.ndarray:
            part = np.zeros(v, acc)
            for i in range(vectors):
                part += x[0, i * v:(i + 1) * v]
            buf = np.empty(tail + v, acc)
            if tail:
                buf[:tail] = x[0, end:]
            buf[tail:] = part
            return np.add.accumulate(buf)[-1:]
        return short
    if lines <= 8:
        def few(x: np.ndarray) -> np.ndarray:
            part = accumulators(x)
            buf = np.empty((lines, tail + v), acc)
            if tail:
                buf[:, :tail] = x[:, end:]
            if full:
                np.add.reduce(part.reshape(lines, 4, v), 1, None, buf[:, tail:])
            else:
                buf[:, tail:] = part
            return np.add.accumulate(buf, 1)[:, -1]
        return few

    def many(x: np.ndarray) -> np.ndarray:
        buf = np.empty((tail + v, lines), acc)
        if tail:
            buf[:tail] = x[:, end:].T
        if full:  # (in the transposed layout (4, v, lines), add.reduce adds the 4 slices in order)
            np.add.reduce(np.ascontiguousarray(accumulators(x).T).reshape(4, v, lines), 0, None, buf[tail:])
        else:  # (below 4 vectors) the first accumulator without its leading 0 +, which only turns a -0.0
            # into +0.0: the einsum below, from +0.0, does that anyway
            body = vectors_of(x)
            buf[tail:] = body[:, 0].T
            for i in range(1, vectors):
                buf[tail:] += body[:, i].T
        return _einsum("ab->b", buf)
    return many


def _kernel(s0: int, s1: int, n0: int, n1: int, lanes: _Lanes) -> tuple:
    """Which loop ``cascade_sum`` runs on a block of n1 lines of n0 values, given the input strides."""
    if s0 == 1 and n0 >= lanes.vec:
        return ("inner", 0)
    if s1 == 1 and n1 >= lanes.vec:
        return ("outer", 4 * lanes.lanes)
    if s0 < s1:
        return ("scalar_inner", 0)
    return ("outer", 4)  # scalar_outer_sum


def _lines(x: np.ndarray, kernel: tuple, lanes: _Lanes) -> np.ndarray:
    """The value ``cascade_sum``'s ``kernel`` computes for each line of blocks x (B, n1, n0): (B, n1).

    No value is -0.0: every sum starts from +0.0, as PyTorch's accumulators do.
    """
    kind, group = kernel
    if kind == "inner":
        return _inner(x, lanes)
    if x.dtype != lanes.acc:
        x = x.astype(lanes.acc)
    if kind == "outer":
        return _outer(x, group)
    b, n1, n0 = x.shape  # scalar_inner_sum: row_sum of each line
    return _row_sum(x.reshape(b * n1, n0, 1)).reshape(b, n1)


def _block_lines(x: np.ndarray, s0: int, s1: int, lanes: _Lanes) -> np.ndarray:
    """``_lines`` of blocks x (B, n1, n0) whose input strides are s0, s1."""
    return _lines(x, _kernel(s0, s1, x.shape[2], x.shape[1], lanes), lanes)


def _store(lines: np.ndarray, out: np.dtype, acc: np.dtype) -> np.ndarray:
    """``out += line`` for the lines (K, M) of each output, in order, from 0, in the output's dtype."""
    if lines.shape[1] == 1:
        return lines[:, 0].astype(out, copy=False)
    if out == acc:
        return _seq_lines(lines.T)
    total = np.zeros(lines.shape[0], out)
    for j in range(lines.shape[1]):  # (half nansum only) Half += float: the float rounds to half first
        total = (total.astype(acc) + lines[:, j].astype(out)).astype(out)
    return total


# ---- the iteration: TensorIterator.cpp, TensorIteratorReduce.cpp ---------------------------------

def _iterator(shape: tuple, strides: tuple, axes: tuple, keepdim: bool) -> tuple:
    """TensorIterator's dims for a reduction: (perm, dims, reduced), dims = [size, in stride, out stride].

    ``perm``: the input's dims, fastest first; ``dims``: them merged (coalesce_dimensions); ``reduced``:
    how many of them (the first ones) are summed.
    """
    ndim = len(shape)
    # The output's strides: contiguous; 0 along reduced dims (review_reduce_result, compute_strides). With
    # keepdim the output keeps its size-1 dims, with strides of their own: such a dim of the input that
    # is 1 long too counts as kept when the dims are ordered.
    out = [0] * ndim
    step = 1
    for d in reversed(range(ndim)):
        if d in axes and not keepdim:
            continue
        out[d] = step
        step *= 1 if d in axes else max(shape[d], 1)
    for d in axes:
        if shape[d] != 1 or not keepdim:
            out[d] = 0

    def should_swap(d0: int, d1: int) -> int:  # reorder_dimensions: 1 = d0 after d1, -1 before, 0 unsure
        for operand in (out, strides):
            a, b = operand[d0], operand[d1]
            if operand is out and (a == 0) != (b == 0):
                return 1 if b == 0 else -1  # reduced dims first
            if a == 0 or b == 0:
                continue
            if a != b:
                return -1 if a < b else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    perm = list(reversed(range(ndim)))
    _reorder(perm, should_swap)

    # coalesce_dimensions: merge neighbours whose strides chain (or of size 1)
    dims = []
    for d in perm:
        size, s_in, s_out = shape[d], strides[d], out[d]
        if dims:
            last = dims[-1]
            if last[0] == 1 or size == 1 or (last[0] * last[1] == s_in and last[0] * last[2] == s_out):
                if last[0] == 1:
                    last[1], last[2] = s_in, s_out
                last[0] *= size
                continue
        dims.append([size, s_in, s_out])
    reduced = 0
    for d in dims:
        if d[2] != 0:
            break
        reduced += 1
    return perm, dims, reduced


@functools.lru_cache(maxsize=4096)
def _plan(shape: tuple, strides: tuple, axes: tuple, keepdim: bool, threads: int, dtype: np.dtype) -> tuple:
    """How PyTorch iterates a sum of an input (``strides`` in elements) over ``axes``.

    Returns (transpose, shape, s0, s1, reduced, mode, ranges): the input transposed and reshaped to the
    iterator's dims (NumPy order: the fastest dim last), the first two dims' strides, the number of
    reduced dims (they come first), and how threads split it: "serial" (ranges: the kernel every block
    runs), "two_pass" (ranges of the flat index, one per thread) or "columns" (ranges of dim 1).
    """
    perm, dims, reduced = _iterator(shape, strides, axes, keepdim)
    sizes = [d[0] for d in dims]
    numel = math.prod(sizes)
    mode, ranges = "serial", ()
    if numel >= GRAIN_SIZE and threads > 1 and reduced:
        if reduced == len(dims):  # two_pass_reduction: at::parallel_for over the flat index
            tasks = min(threads, -(-numel // GRAIN_SIZE)) if numel > GRAIN_SIZE else 1
            chunk = -(-numel // tasks)
            mode = "two_pass"
            ranges = tuple((b, min(numel, b + chunk)) for b in range(0, numel, chunk))
            # Each thread iterates anew, into its slot of a buffer shaped like the output with its dims
            # kept (size 1, strides 1): as a sum with keepdim, where input dims of size 1 come last.
            perm, dims, reduced = _iterator(shape, strides, axes, True)
            sizes = [d[0] for d in dims]
        else:  # parallel_dim_reduction: the outer-most kept dim with a column per thread, else the largest
            split = best = len(dims) - 1
            while split >= reduced:
                if sizes[split] >= threads:
                    break
                if sizes[split] > sizes[best]:
                    best = split
                split -= 1
            else:
                split = best
            if split == 1:  # (a split further out leaves every block as it was)
                cols = sizes[1]
                tasks = min(threads, cols)
                chunk = -(-cols // tasks)
                multiple = 128 // dtype.itemsize if dims[1][1] == 1 else 1  # round_columns to 128 bytes
                cut = []
                for b in range(0, cols, chunk):
                    e = min(cols, b + chunk)
                    b -= b % multiple
                    if e != cols:
                        e -= e % multiple
                    if b != e:
                        cut.append((b, e))
                # The split only matters where it moves lines between the kernel's groups.
                lanes = _lanes(dtype)
                whole = _kernel(dims[0][1], dims[1][1], sizes[0], cols, lanes)
                if whole[0] == "outer" and any(_kernel(dims[0][1], dims[1][1], sizes[0], e - b, lanes) != whole
                                               or b % whole[1] for b, e in cut):
                    mode, ranges = "columns", tuple(cut)
    s0, s1 = dims[0][1], dims[1][1] if len(dims) > 1 else 0
    if mode == "serial":  # every block is the same: its kernel
        ranges = _kernel(s0, s1, sizes[0], sizes[1] if len(dims) > 1 else 1, _lanes(dtype))
    return tuple(reversed(perm)), tuple(reversed(sizes)), s0, s1, reduced, mode, ranges


def _range_lines(view: np.ndarray, begin: int, end: int, s0: int, s1: int, lanes: _Lanes) -> np.ndarray:
    """The line values of the blocks ``serial_for_each`` visits for the flat range [begin, end), in order."""
    n0 = view.shape[-1]
    if view.ndim == 1:
        return _block_lines(view[begin:end].reshape(1, 1, -1), s0, s1, lanes).ravel()
    n1 = view.shape[-2]
    slabs = view.reshape(-1, n1, n0)
    out = []
    offset = begin
    while offset < end:  # DimCounter::max_2d_step
        v0, row = offset % n0, offset // n0
        v1, slab = row % n1, row // n1
        step0 = min(n0 - v0, end - offset)
        if step0 < n0:  # part of a row
            block = slabs[slab:slab + 1, v1:v1 + 1, v0:v0 + step0]
            offset += step0
        elif v1 == 0 and end - offset >= n0 * n1:  # whole slabs (each one block), summed together
            count = (end - offset) // (n0 * n1)
            block = slabs[slab:slab + count]
            offset += count * n0 * n1
        else:  # whole rows of one slab
            step1 = min(n1 - v1, (end - offset) // n0)
            block = slabs[slab:slab + 1, v1:v1 + step1]
            offset += n0 * step1
        out.append(_block_lines(block, s0, s1, lanes).ravel())
    return out[0] if len(out) == 1 else np.concatenate(out)


def _run(a: np.ndarray, plan: tuple, lanes: _Lanes, nan: bool, out: np.dtype, threads: int) -> np.ndarray:
    """The sums of one real array following ``plan``: the output's values in C order."""
    transpose, shape, s0, s1, reduced, mode, ranges = plan
    view = a.transpose(transpose).reshape(shape)
    if nan:  # (NanSumLoadPolicy: a NaN loads as 0)
        view = np.where(np.isnan(view), view.dtype.type(0), view)
    if not reduced:  # no dim to sum (sizes 1): out = 0 + x
        return (view.astype(lanes.acc) + lanes.acc.type(0)).astype(out).ravel()
    if mode == "two_pass":  # one output per thread, then their sum
        partial = np.zeros(threads, out)
        size = ranges[0][1]
        if view.ndim == 1 and ranges[-1][1] - ranges[-1][0] == size:  # equal ranges of a line: together
            lines = _block_lines(view.reshape(1, len(ranges), size), s0, s1, lanes)
            partial[:len(ranges)] = lines.ravel()
        else:
            for t, (begin, end) in enumerate(ranges):
                partial[t] = _store(_range_lines(view, begin, end, s0, s1, lanes)[None], out, lanes.acc)[0]
        if nan:  # the second pass is a nansum as well: a thread's NaN (from inf - inf) loads as 0
            partial[np.isnan(partial)] = 0
        if threads < 4:  # row_sum of fewer than 4 values: 0 + each in turn
            total = lanes.acc.type(0)
            for value in partial:
                total = total + lanes.acc.type(value)
            return np.array([total], out)
        return _store(_block_lines(partial.reshape(1, 1, -1), 1, 0, lanes), out, lanes.acc)
    n0 = shape[-1]
    n1 = shape[-2] if len(shape) > 1 else 1
    blocks = view.reshape(-1, n1, n0)
    if mode == "columns":
        lines = np.concatenate([_block_lines(blocks[:, b:e], s0, s1, lanes) for b, e in ranges], axis=1)
    else:
        lines = _lines(blocks, ranges, lanes)  # (a serial plan's ranges: its kernel)
    if reduced == 1:  # one line per output
        return lines.reshape(-1).astype(out, copy=False)
    return _store(lines.reshape(math.prod(shape[:len(shape) - reduced]), -1), out, lanes.acc)


# ---- the ops: ReduceOps.cpp ---------------------------------------------------------------------

def _dense(shape: tuple, strides: tuple) -> bool:
    """c10's is_non_overlapping_and_dense: the elements fill their memory exactly, in some dim order."""
    need = 1
    for stride, size in sorted((abs(s), m) for m, s in zip(shape, strides) if m > 1):
        if stride != need:
            return False
        need *= size
    return True


def _dense_strides(shape: tuple, strides: tuple) -> list:
    """ATen's infer_dense_strides: packed strides in the order of the given ones (dims of stride 0 stay)."""
    ndim = len(shape)
    perm = list(reversed(range(ndim)))

    def should_swap(d0: int, d1: int) -> int:
        a, b = strides[d0], strides[d1]
        if a == 0 or b == 0:
            return 0
        if a != b:
            return -1 if a < b else 1
        return 1 if shape[d0] > shape[d1] else 0

    _reorder(perm, should_swap)
    out, step = [0] * ndim, 1
    for d in perm:
        out[d] = step
        step *= max(shape[d], 1)
    return out


def to_float32(a: np.ndarray) -> np.ndarray:
    """``a.to(torch.float32)``, strides included: the same ones if a is dense, else packed in a's order."""
    strides = tuple(s // a.itemsize for s in a.strides)
    if any(s < 0 for s in strides):  # (NumPy only; PyTorch's strides are never negative): a C-order copy
        return np.ascontiguousarray(a, np.float32)
    if not _dense(a.shape, strides):
        strides = _dense_strides(a.shape, strides)
    out = np.lib.stride_tricks.as_strided(np.empty(a.size, np.float32), a.shape, [4 * s for s in strides])
    out[...] = a
    return out


@functools.lru_cache(maxsize=4096)
def _executor(shape: tuple, strides: tuple, dt: np.dtype, axis, keepdims: bool, threads: int, nan: bool):
    """``sum`` for inputs of this shape, strides (bytes) and dtype: a function of the input array."""
    ndim = len(shape)
    axes = tuple(range(ndim)) if axis is None or axis == () else \
        tuple(sorted({int(d) % ndim for d in ((axis,) if isinstance(axis, (int, np.integer)) else axis)})) \
        if ndim else (0,)
    shape_out = tuple(1 if d in axes else m for d, m in enumerate(shape) if keepdims or d not in axes)
    if not ndim:
        return lambda a: sum(a.reshape(1), 0, nan=nan).reshape(())
    if 0 in shape:
        return lambda a: np.zeros(shape_out, dt)
    if any(s < 0 for s in strides):  # (PyTorch's strides are never negative)
        return lambda a: sum(np.ascontiguousarray(a), axis, keepdims, nan=nan)
    plan = _plan(shape, tuple(s // dt.itemsize for s in strides), axes, keepdims, threads, dt)
    if dt in _HALVES and plan[4] >= 2 and not nan:
        # should_use_acc_buffer: over two reduced dims the line sums would add in half precision
        return lambda a: sum(to_float32(a), axis, keepdims).astype(dt)
    lanes = _lanes(dt)
    if dt.kind == "c":
        def complex_sum(a):
            result = np.empty(shape_out, dt)
            result.real = _run(a.real, plan, lanes, nan, lanes.acc, threads).reshape(shape_out)
            result.imag = _run(a.imag, plan, lanes, nan, lanes.acc, threads).reshape(shape_out)
            return result
        return complex_sum
    if nan:
        return lambda a: _run(a, plan, lanes, True, dt, threads).reshape(shape_out)
    return _fast(plan, lanes, dt, shape_out, threads)


def _fast(plan: tuple, lanes: _Lanes, dt: np.dtype, shape_out: tuple, threads: int):
    """``_run`` for the usual plans, with less Python between NumPy's calls: the same steps."""
    transpose, shape, s0, s1, reduced, mode, ranges = plan
    n0, n1 = shape[-1], shape[-2] if len(shape) > 1 else 1
    blocks = (-1, n1, n0)
    acc = lanes.acc
    ordered = tuple(range(len(transpose)))
    moved = transpose != ordered  # (a.transpose costs a call)
    if mode == "serial" and reduced == 1 and ranges[0] == "outer":
        kernel = _outer_fn(n0, n1, ranges[1])  # (the columns of the blocks: see _outer)
        # The columns (B, n0, n1) are the blocks with their last two axes swapped: when no dims were merged,
        # one transpose of the input (often none: the sum of a matrix over its rows) and one reshape.
        swap = transpose[:-2] + (transpose[-1], transpose[-2]) if len(shape) == len(transpose) > 1 else None
        columns_shape = (-1, n0, n1)

        def outer_sum(a):
            if swap is None:
                columns = a.transpose(transpose).reshape(blocks).transpose(0, 2, 1)
            else:
                columns = (a.transpose(swap) if swap != ordered else a).reshape(columns_shape)
            if columns.dtype != acc:
                columns = columns.astype(acc)
            if not 0 < columns.strides[2] < columns.strides[1]:  # (_ordered)
                columns = np.ascontiguousarray(columns)
            out = _shaped(kernel(columns), shape_out)
            return out if out.dtype == dt else out.astype(dt)
        return outer_sum
    if mode == "serial" and reduced == 1 and ranges[0] == "inner":
        flat = (math.prod(shape) // n0, n0)
        inner = _inner_fn(flat[0], n0, lanes)

        def inner_sum(a):
            out = _shaped(inner((a.transpose(transpose) if moved else a).reshape(flat)), shape_out)
            return out if out.dtype == dt else out.astype(dt)
        return inner_sum
    if mode == "two_pass" and len(shape) == 1 and ranges[-1][1] - ranges[-1][0] == ranges[0][1] \
            and _kernel(s0, s1, ranges[0][1], 1, lanes)[0] == "inner" and threads < 4:
        parts = (len(ranges), ranges[0][1])
        inner = _inner_fn(parts[0], parts[1], lanes)
        zero = acc.type(0)

        def two_pass_sum(a):  # each thread's part one line; then 0 + each part, rounded as stored
            total = zero
            for part in inner((a.transpose(transpose) if moved else a).reshape(parts)).astype(dt, copy=False):
                total = total + part
            return np.array(total, dt).reshape(shape_out)
        return two_pass_sum
    return lambda a: _shaped(_run(a, plan, lanes, False, dt, threads), shape_out)


def _shaped(x: np.ndarray, shape: tuple) -> np.ndarray:
    """``x.reshape(shape)``, in place when x is a fresh array: the result owns its memory, so AccumulateGrad
    may keep a summed gradient without copying it (engine._sole_owner refuses views)."""
    if x.base is None and x.flags.c_contiguous:
        x.shape = shape
        return x
    return x.reshape(shape)


def _reorder(perm: list, should_swap) -> None:
    """TensorIterator's reorder_dimensions: an insertion sort of ``perm`` that steps over unsure comparisons
    (``should_swap`` returns 1: swap, -1: stop, 0: unsure, look further left)."""
    for i in range(1, len(perm)):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break


def sum(a: np.ndarray, axis=None, keepdims: bool = False, *, nan: bool = False) -> np.ndarray:
    """PyTorch's CPU ``sum`` (``nan=True``: ``nansum``) of ``a`` over ``axis`` (None: all), in a's dtype."""
    dt = a.dtype
    if dt.kind not in "fc" and dt != _BF16:  # integers and bools: exact in any order (C order, as below)
        out = np.asarray(np.add.reduce(a, axis=axis, keepdims=keepdims))
        return out if out.flags.c_contiguous else np.ascontiguousarray(out)
    if type(axis) is list:
        axis = tuple(axis)
    out = _executor(a.shape, a.strides, dt, axis, bool(keepdims), THREADS[0], nan)(a)
    # PyTorch's result is a fresh contiguous tensor (its strides decide later view / reshape nodes) with a
    # storage of its own (a full sum can be one lane of the executor's accumulators: its storage_offset() and
    # storage size would show it)
    if not out.flags.c_contiguous:
        return np.ascontiguousarray(out)
    owner = out
    while isinstance(owner.base, np.ndarray):
        owner = owner.base
    return out if owner is out or owner.nbytes == out.nbytes else out.copy()


def mean(a: np.ndarray, axis=None, keepdims: bool = False) -> np.ndarray:
    """PyTorch's CPU ``mean``: the sum (in float32 for half/bfloat16) divided by the count, in a's dtype."""
    if a.dtype in _HALVES:
        return mean(to_float32(a), axis, keepdims).astype(a.dtype)
    if type(axis) is list:
        axis = tuple(axis)
    if not a.ndim or axis is None or axis == ():
        count = a.size
    else:
        count = math.prod(a.shape[d] for d in ((axis,) if isinstance(axis, (int, np.integer)) else set(
            int(d) % a.ndim for d in axis)))
    total = sum(a, axis, keepdims)
    return np.true_divide(total, total.dtype.type(count))
