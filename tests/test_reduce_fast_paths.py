"""The fast paths of minigrad/_reduce.py add in PyTorch's order: the same bits as PyTorch.

``_reduce._fast`` builds one function per input shape, strides and dtype from kernels that are themselves
built once per size (``_inner_fn``, ``_outer_fn``, ``_row_sum_fn``, ``_cascade_fn``), each with its own
branches: one line, a few lines, many lines; fewer than 4 vectors, one cascade level, several; columns in
whole groups of lanes, fewer, both. These tests run the benchmark's shapes and a shape for each branch
through ``sum``/``mean`` and compare bits with PyTorch at 1 and 2 threads, so a fast path that adds in
another order fails here.
"""
from __future__ import annotations

import numpy as np
import pytest
from parity import torch_or_skip

import minigrad as mg
from minigrad import _reduce


@pytest.fixture(params=[1, 2], ids=["1thread", "2threads"])
def torch(request):
    """PyTorch, with minigrad and PyTorch set to the same thread count for the test."""
    torch = torch_or_skip()
    before = torch.get_num_threads(), mg.get_num_threads()
    torch.set_num_threads(request.param)
    mg.set_num_threads(request.param)
    yield torch
    torch.set_num_threads(before[0])
    mg.set_num_threads(before[1])


def _spread(rng, shape) -> np.ndarray:
    """Values over many magnitudes, so that a different order of additions shows in the last bits."""
    return (rng.standard_normal(shape) * np.exp(rng.uniform(-6, 6, shape))).astype(np.float32)


def _bits(t) -> np.ndarray:
    """A tensor's values as raw bytes (signed zeros compare exactly)."""
    arr = t.detach().float().numpy() if str(t.dtype).endswith("bfloat16") else t.detach().numpy()
    return np.ascontiguousarray(arr).reshape(-1).view(np.uint8)


def _pair(torch, values: np.ndarray, dtype: str):
    """The same values as a torch and a minigrad tensor of ``dtype``."""
    return torch.from_numpy(values.copy()).to(getattr(torch, dtype)), mg.tensor(values).to(getattr(mg, dtype))


def _compare_all_reductions(torch, t, m, label):
    """sum and mean over every dim (keepdim both ways), every pair of dims and all dims: the same bits."""
    ndim = t.dim()
    dims = [(d,) for d in range(ndim)] + [(a, b) for a in range(ndim) for b in range(a + 1, ndim)]
    for op in ("sum", "mean"):
        theirs, mine = getattr(t, op)(), getattr(m, op)()
        assert np.array_equal(_bits(mine), _bits(theirs)), (label, op, "all dims")
        for dim in dims:
            for keepdim in (False, True):
                theirs, mine = getattr(t, op)(dim, keepdim=keepdim), getattr(m, op)(dim, keepdim=keepdim)
                assert tuple(mine.shape) == tuple(theirs.shape), (label, op, dim, keepdim)
                assert np.array_equal(_bits(mine), _bits(theirs)), (label, op, dim, keepdim)


# The benchmark's reductions (bench/workloads.py): bias gradients, losses, broadcast gradients.
BENCH_SHAPES = [(100, 16), (100, 1), (256, 256), (128, 256), (128, 10), (128,), (256, 1), (1, 256), (4,)]


@pytest.mark.parametrize("shape", BENCH_SHAPES)
def test_benchmark_shapes_float32(torch, shape):
    t, m = _pair(torch, _spread(np.random.default_rng(len(shape) * 1000 + shape[0]), shape), "float32")
    _compare_all_reductions(torch, t, m, shape)
    if len(shape) == 2:  # the same data, column-major
        _compare_all_reductions(torch, t.t(), m.t(), ("transposed", shape))


# A shape for each branch of the kernels (float32 counts: 8 lanes, so 32 values make 4 vectors).
BRANCH_SHAPES = [
    (20,), (31,), (100,), (511,), (513,), (4100,), (70001,),  # one line: < 4 vectors, no flush, 1 and 2+ levels
    (3, 33), (5, 100), (8, 600), (2, 20000),                   # a few lines: tail, extra vectors, long lines
    (9, 100), (300, 17), (64, 1000), (200, 520),               # many lines: < 4 vectors, one level, two levels
    (33, 70), (1000, 40), (20, 7), (600, 47), (3, 300),        # columns: whole groups and the rest, scalars
    (4, 100, 16), (6, 5, 70), (2, 3, 50000),                   # batches of blocks; threads split a kept dim
]


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("shape", BRANCH_SHAPES)
def test_kernel_branches(torch, shape, dtype):
    t, m = _pair(torch, _spread(np.random.default_rng(sum(shape)), shape), dtype)
    _compare_all_reductions(torch, t, m, (shape, dtype))


@pytest.mark.parametrize("shape", [(100,), (4100,), (5, 100), (300, 17), (64, 1000), (100, 16), (1000, 40)])
def test_sums_of_negative_zeros_are_positive_zero_like_pytorchs(torch, shape):
    t, m = _pair(torch, np.full(shape, -0.0, np.float32), "float32")
    _compare_all_reductions(torch, t, m, shape)
    assert not np.signbit(m.sum(0).numpy()).any()


@pytest.mark.parametrize("shape", [(100,), (4100,), (5, 100), (300, 17), (100, 16), (1000, 40)])
def test_infinities_and_nan_where_pytorchs_are(torch, shape):
    # (a NaN's sign and payload depend on which of two NaNs an addition keeps: not compared)
    rng = np.random.default_rng(len(shape))
    values = _spread(rng, shape)
    values[rng.random(shape) < 0.02] = np.inf
    values[rng.random(shape) < 0.01] = -np.inf
    values[rng.random(shape) < 0.005] = np.nan
    t, m = _pair(torch, values, "float32")
    for dim in [None] + list(range(len(shape))):
        theirs, mine = (t.sum(), m.sum()) if dim is None else (t.sum(dim), m.sum(dim))
        theirs, mine = theirs.numpy(), mine.numpy()
        assert np.array_equal(np.isnan(mine), np.isnan(theirs)), (shape, dim)
        assert np.array_equal(mine[~np.isnan(mine)].view(np.uint32), theirs[~np.isnan(theirs)].view(np.uint32))


def test_two_pass_nansum_drops_a_threads_nan_like_pytorch():
    # From 32768 elements on, each thread sums a part; PyTorch's second pass is a nansum as well, so a part
    # that is NaN (inf - inf) counts as 0 there. With one thread the same sum is NaN.
    torch = torch_or_skip()
    before = torch.get_num_threads(), mg.get_num_threads()
    try:
        for threads, expected in ((2, 20000.0), (1, None)):
            torch.set_num_threads(threads)
            mg.set_num_threads(threads)
            x = np.ones(40000, np.float32)
            x[10], x[11] = np.inf, -np.inf
            theirs, mine = torch.from_numpy(x).nansum().item(), mg.tensor(x).nansum().item()
            if expected is None:
                assert np.isnan(theirs) and np.isnan(mine)
            else:
                assert theirs == mine == expected
    finally:
        torch.set_num_threads(before[0])
        mg.set_num_threads(before[1])


@pytest.mark.parametrize("shape, axis", [((100, 16), 0), ((128, 256), 0), ((256, 256), 1), ((300, 17), 1),
                                         ((1000, 40), 0)])
def test_sums_along_a_dim_own_their_memory(shape, axis):
    # AccumulateGrad keeps a gradient summed by the engine without copying it only if it owns its memory
    x = _spread(np.random.default_rng(0), shape)
    for threads in (1, 2):
        before = _reduce.THREADS[0]
        _reduce.THREADS[0] = threads
        try:
            for keepdims in (False, True):
                out = _reduce.sum(x, axis, keepdims)
                assert out.base is None and out.flags.c_contiguous, (shape, axis, keepdims, threads)
        finally:
            _reduce.THREADS[0] = before


def test_negative_strides_are_summed_as_a_copy():
    # (NumPy only: PyTorch has no negative strides) half means convert to float32 first; that copy used to
    # write past its buffer for a reversed array
    x = _spread(np.random.default_rng(1), (300, 7)).astype(np.float16)
    for view in (x[::-1], x[:, ::-1], x[::-2, ::-1]):
        for axis in (None, 0, 1):
            copy = np.ascontiguousarray(view)
            assert np.array_equal(_reduce.mean(view, axis), _reduce.mean(copy, axis))
            assert np.array_equal(_reduce.sum(view, axis), _reduce.sum(copy, axis))
