"""EmbeddingBag kernels on NumPy arrays, in PyTorch's CPU order (EmbeddingBag.cpp), so float32 rounds alike.

A bag is a run of ``indices`` starting at an offset; its output row is the sum, mean or max of the weight rows
the run picks (entries equal to ``padding_idx`` are skipped). Besides the rows PyTorch's ``_embedding_bag``
returns three integer tensors, which its node saves and its backward reads:
``offset2bag`` (each index's bag), ``bag_size`` (non-padding entries per bag) and ``max_indices``.
Sums run bag by bag in index order (one vectorized step per position within the bags). The weight's gradient
adds each row's entries in the order of PyTorch's (unstable) sort of the indices (``sort_order``), and the
per-sample weights' gradients are MKL dot products (``_matmul.dot``), so the bits match PyTorch's.
"""
from __future__ import annotations

import numpy as np

from . import _matmul
from ._fused import fma

SUM, MEAN, MAX = 0, 1, 2
_REDUCED = ("float16", "bfloat16")


def offset2bag(indices: np.ndarray, offsets: np.ndarray, include_last_offset: bool) -> np.ndarray:
    """The bag of each index: ones added at the bag starts, then a running sum (PyTorch's make_offset2bag)."""
    n = indices.shape[0]
    num_bags = offsets.shape[0] - int(include_last_offset)
    marks = np.zeros(n + 1, np.int64)
    np.add.at(marks, offsets[:num_bags], 1)
    marks[0] -= 1
    return np.cumsum(marks)[:n].astype(offsets.dtype)


def _fast_sum(weight: np.ndarray, mode: int, padding_idx: int, psw=None) -> bool:
    """PyTorch's fbgemm path (float32/16-bit sums, no padding index, rows and per-sample weights each contiguous:
    is_fast_path_index_select(_scale)): it never computes offset2bag."""
    return (mode == SUM and padding_idx < 0 and (weight.dtype == np.float32 or weight.dtype.name in _REDUCED)
            and (weight.shape[1] < 2 or weight.strides[1] == weight.itemsize)
            and (psw is None or psw.shape[0] < 2 or psw.strides[0] == psw.itemsize))


def _ranks(bags: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """Each kept entry's position among the kept entries of its bag (0 for the first)."""
    ranks = np.zeros(bags.shape[0], np.int64)
    kept = np.flatnonzero(keep)
    order = np.argsort(bags[kept], kind="stable")   # kept entries grouped by bag, in index order within each
    grouped = bags[kept][order]
    ranks[kept[order]] = np.arange(grouped.shape[0]) - np.searchsorted(grouped, grouped, side="left")
    return ranks


def forward(weight, indices, offsets, per_sample_weights, mode, include_last_offset, padding_idx):
    """(output, offset2bag, bag_size, max_indices) as PyTorch's _embedding_bag returns them."""
    num_bags = max(offsets.shape[0] - int(include_last_offset), 0)
    dim = weight.shape[1]
    bags = offset2bag(indices, offsets, include_last_offset)
    keep = (indices != padding_idx) & (bags >= 0)   # (no offsets: no bags)
    fast = _fast_sum(weight, mode, padding_idx, per_sample_weights)
    if fast and include_last_offset and num_bags:
        keep &= np.arange(indices.shape[0]) < offsets[-1]   # fbgemm stops at the last offset
    work = np.float32 if weight.dtype.name in _REDUCED else weight.dtype   # 16-bit rows add in float32
    out = np.zeros((num_bags, dim), work)
    ranks = _ranks(bags, keep)
    psw = per_sample_weights if per_sample_weights is not None and per_sample_weights.size else None
    taken = np.zeros((num_bags, dim), bool)
    max_indices = np.zeros((num_bags, dim), offsets.dtype)
    for r in range(int(ranks.max(initial=-1)) + 1):
        sel = np.flatnonzero(keep & (ranks == r))
        b, rows = bags[sel], weight[indices[sel]].astype(work)
        if mode == MAX:
            better = (rows > out[b]) | (r == 0)
            out[b] = np.where(better, rows, out[b])
            max_indices[b] = np.where(better, indices[sel, None], max_indices[b])
            taken[b] = True
        elif psw is None:
            out[b] += rows
        elif fast:   # fbgemm's weighted sum: one fused multiply-add per entry
            out[b] = fma(psw[sel, None].astype(work), rows, out[b], work)
        else:
            out[b] += rows * psw[sel, None].astype(work)
    if mode == SUM:
        bag_size = np.zeros(num_bags, offsets.dtype)
    else:
        bag_size = np.bincount(bags[keep], minlength=num_bags)[:num_bags].astype(offsets.dtype)
    if mode == MEAN:
        if work != weight.dtype:   # (16-bit: PyTorch stores the sum, rounded, then divides that: apply_bag_size)
            out = out.astype(weight.dtype).astype(work)
        out /= np.maximum(bag_size, 1).astype(work)[:, None]
    if mode != MAX:
        max_indices = bag_size.copy()
    saved_bags = np.zeros(0, offsets.dtype) if fast else bags
    return out.astype(weight.dtype, copy=False), saved_bags, bag_size, max_indices


def dense_backward(grad, indices, offsets, bags, bag_size, max_indices, num_weights, scale_grad_by_freq, mode,
                   per_sample_weights, padding_idx):
    """The weight's gradient: each entry's bag gradient added to its row (PyTorch's
    _embedding_bag_dense_backward_cpu: entries sorted by index, each added as an axpy with its scale)."""
    out = np.zeros((num_weights, grad.shape[1]), grad.dtype)
    if mode == MAX:
        full = np.flatnonzero(bag_size != 0)
        cols = np.broadcast_to(np.arange(grad.shape[1]), (full.shape[0], grad.shape[1]))
        np.add.at(out, (max_indices[full], cols), grad[full])
        return out
    if bags.size == 0 and indices.size:   # the fast sum path left offset2bag out (a last offset adds nothing)
        bags = offset2bag(indices, offsets, False)
    order = sort_order(indices)   # (PyTorch's unstable sort: ties in std::sort's order)
    sorted_idx = indices[order]
    # each entry's scale, worked out in double and then rounded (as the kernel does): weight / count / bag size
    scale = np.ones(indices.shape[0])
    if per_sample_weights is not None and per_sample_weights.size:
        scale = per_sample_weights.astype(np.float64)
    if scale_grad_by_freq:
        # PyTorch's kernel divides the g-th distinct index's entries by the count of sorted_idx[g], not of
        # that index itself (counts[indices_data[i]] with i the group's number): kept, for the same gradients
        counts = np.bincount(indices, minlength=num_weights)
        group = np.searchsorted(np.unique(sorted_idx), sorted_idx)
        scale[order] = scale[order] / counts[sorted_idx[group]]
    if mode == MEAN:
        sizes = bag_size[bags]
        scale = np.where(sizes != 0, scale / np.maximum(sizes, 1), scale)
    scale = scale.astype(grad.dtype)
    # each row's entries in order: the k-th entry of every row is added in one step
    starts = np.searchsorted(sorted_idx, sorted_idx, side="left")
    rank = np.arange(sorted_idx.shape[0]) - starts
    for r in range(int(rank.max(initial=-1)) + 1):
        src = order[rank == r]
        src = src[indices[src] != padding_idx]
        rows, g = indices[src], grad[bags[src]]
        out[rows] = fma(scale[src, None], g, out[rows], grad.dtype) if grad.dtype.char in "fd" else \
            out[rows] + scale[src, None] * g
    return out


def per_sample_weights_backward(grad, weight, indices, offsets, bags, padding_idx):
    """Each entry's weight gradient: its bag's gradient · its weight row (0 for the padding index)."""
    if bags.size == 0 and indices.size:
        bags = offset2bag(indices, offsets, False)
    out = np.zeros(indices.shape[0], grad.dtype)
    keep = np.flatnonzero(indices != padding_idx)
    g, w = grad[bags[keep]], np.ascontiguousarray(weight[indices[keep]])
    for k in range(keep.shape[0]):   # BLAS dot products (MKL's, as PyTorch)
        out[keep[k]] = _matmul.dot(g[k], w[k])
    return out


# ---- PyTorch's CPU sort of the indices (values only compared; ties end up where libstdc++'s std::sort puts
# them). The backward adds each row's gradients in that order, so it decides the float rounding.

_THRESHOLD = 16   # libstdc++'s _S_threshold: shorter runs are left to the final insertion sort


def sort_order(keys: np.ndarray) -> np.ndarray:
    """The permutation ``torch.sort(keys)`` returns on the CPU: std::sort (introsort) below 32768 elements,
    a stable radix sort from there on."""
    n = keys.shape[0]
    if n <= _THRESHOLD or n >= 32768:   # insertion sort / radix sort: both keep ties in order
        return np.argsort(keys, kind="stable")
    k = [int(v) for v in keys]
    p = list(range(n))

    def swap(i, j):
        k[i], k[j] = k[j], k[i]
        p[i], p[j] = p[j], p[i]

    def median_to_first(result, a, b, c):
        if k[a] < k[b]:
            if k[b] < k[c]:
                swap(result, b)
            elif k[a] < k[c]:
                swap(result, c)
            else:
                swap(result, a)
        elif k[a] < k[c]:
            swap(result, a)
        elif k[b] < k[c]:
            swap(result, c)
        else:
            swap(result, b)

    def partition(first, last, pivot):
        while True:
            while k[first] < k[pivot]:
                first += 1
            last -= 1
            while k[pivot] < k[last]:
                last -= 1
            if not first < last:
                return first
            swap(first, last)
            first += 1

    def heap_sort(first, last):   # (the depth limit's fallback: a heap sort of the range)
        order = sorted(range(first, last), key=lambda i: k[i])   # (tie order here is not libstdc++'s)
        k[first:last], p[first:last] = [k[i] for i in order], [p[i] for i in order]

    stack = [(0, n, 2 * (n.bit_length() - 1))]
    while stack:
        first, last, depth = stack.pop()
        while last - first > _THRESHOLD:
            if depth == 0:
                heap_sort(first, last)
                break
            depth -= 1
            median_to_first(first, first + 1, first + (last - first) // 2, last - 1)
            cut = partition(first + 1, last, first)
            stack.append((cut, last, depth))   # (the right part, done before the left as the recursion does)
            last = cut
    # the final insertion sort: guarded over the first 16, unguarded after
    for i in range(1, n):
        key, pos = k[i], p[i]
        j = i
        if i < _THRESHOLD and key < k[0]:
            k[1:i + 1], p[1:i + 1] = k[0:i], p[0:i]
            k[0], p[0] = key, pos
            continue
        while key < k[j - 1]:
            k[j], p[j] = k[j - 1], p[j - 1]
            j -= 1
        k[j], p[j] = key, pos
    return np.asarray(p, np.int64)
