"""Round 15's kernel fast paths (bench/PROFILE.md) add in PyTorch's order: the same bits as before, and as PyTorch.

``_reduce._inner_fn``'s one-line path (every full sum of a contiguous tensor and every short 1-D sum: W4's mean
and bias gradients, W5's forward sum) was rewritten with fewer NumPy calls. Here it is checked against a
literal port of PyTorch's loops (SumKernel.cpp: ``multi_row_sum``, ``row_sum``, ``vectorized_inner_sum``,
``vectorized_outer_sum``), written one vector at a time without any of ``_reduce``'s kernels, on every length
from 0 to a few hundred and some large ones, and against PyTorch itself on contiguous, transposed, sliced and
expanded inputs of every floating dtype. Values span many magnitudes, so another order of additions shows in
the last bits; sums of negative zeros check that every sum starts from +0.0.
"""
from __future__ import annotations

import numpy as np
import pytest
from parity import torch_or_skip

import minigrad as mg
from minigrad import _reduce

_LENGTHS = list(range(0, 300)) + [511, 512, 513, 1023, 1024, 2047, 2048, 4096, 8191, 65536, 65543, 100003]


@pytest.fixture
def one_thread():
    """minigrad's sums with one intra-op thread (the port below has no thread split)."""
    saved = _reduce.THREADS[0]
    _reduce.THREADS[0] = 1
    yield
    _reduce.THREADS[0] = saved


def _spread(rng, shape, dtype) -> np.ndarray:
    """Values over many magnitudes, so that a different order of additions shows in the last bits."""
    return (rng.standard_normal(shape) * np.exp(rng.uniform(-8, 8, shape))).astype(dtype)


# ---- PyTorch's loops, one vector at a time (aten/src/ATen/native/cpu/SumKernel.cpp) -----------------

def _multi_row_sum(load, nrows: int, size: int, zero):
    """``multi_row_sum``: ``load(i, k)`` is row i's k-th value (a vector); 4 levels of accumulators."""
    level_power = max(4, (1 if size <= 2 else (size - 1).bit_length()) // 4)
    step = 1 << level_power
    mask = step - 1
    acc = [[zero.copy() for _ in range(nrows)] for _ in range(4)]
    i = 0
    while i + step <= size:
        for _ in range(step):
            for k in range(nrows):
                acc[0][k] = acc[0][k] + load(i, k)
            i += 1
        for j in range(1, 4):
            for k in range(nrows):
                acc[j][k] = acc[j][k] + acc[j - 1][k]
                acc[j - 1][k] = zero.copy()
            if i & (mask << (j * level_power)):
                break
    while i < size:
        for k in range(nrows):
            acc[0][k] = acc[0][k] + load(i, k)
        i += 1
    for j in range(1, 4):
        for k in range(nrows):
            acc[0][k] = acc[0][k] + acc[j][k]
    return acc[0]


def _row_sum(load, size: int, zero):
    """``row_sum``: 4 interleaved accumulators (``load(i)``: value i), the rest into the first, then combined."""
    ilp = size // 4
    partial = _multi_row_sum(lambda i, k: load(4 * i + k), 4, ilp, zero)
    for i in range(4 * ilp, size):
        partial[0] = partial[0] + load(i)
    for k in range(1, 4):
        partial[0] = partial[0] + partial[k]
    return partial[0]


def _inner_line(line: np.ndarray) -> np.ndarray:
    """``vectorized_inner_sum`` of one contiguous float32/float64 line: vectors, then 0 + tail + lanes."""
    v = 32 // line.itemsize
    if line.size < v:  # (cascade_sum: shorter than a vector, scalar_inner_sum: row_sum of the values)
        return _row_sum(lambda i: line[i], line.size, line.dtype.type(0))
    vectors = line.size // v
    lanes = _row_sum(lambda i: line[i * v:(i + 1) * v], vectors, np.zeros(v, line.dtype))
    total = line.dtype.type(0)
    for value in line[vectors * v:]:
        total = total + value
    for value in lanes:
        total = total + value
    return total


def _outer_columns(block: np.ndarray) -> np.ndarray:
    """``vectorized_outer_sum`` of a C-contiguous (rows, cols) float32/float64 block over its rows."""
    rows, cols = block.shape
    v = 32 // block.itemsize
    out = np.zeros(cols, block.dtype)
    j = 0
    while j + 4 * v <= cols:
        sums = _multi_row_sum(lambda i, k, j=j: block[i, j + k * v:j + (k + 1) * v], 4, rows, np.zeros(v, block.dtype))
        for k in range(4):
            out[j + k * v:j + (k + 1) * v] = out[j + k * v:j + (k + 1) * v] + sums[k]
        j += 4 * v
    while j + v <= cols:
        out[j:j + v] = out[j:j + v] + _row_sum(lambda i, j=j: block[i, j:j + v], rows, np.zeros(v, block.dtype))
        j += v
    while j < cols:
        out[j] = out[j] + _row_sum(lambda i, j=j: block[i, j], rows, block.dtype.type(0))
        j += 1
    return out


def _same_bits(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


# ---- against the port ------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_full_sum_of_a_line_is_pytorchs_loop(one_thread, dtype):
    rng = np.random.default_rng(15)
    for n in _LENGTHS:
        x = _spread(rng, n, dtype)
        expected = _inner_line(x)
        assert _same_bits(_reduce.sum(x), np.array(expected, dtype)), (dtype, n)
        # the same line as a (n, 1) column and a (1, n) row: one line after coalescing
        assert _same_bits(_reduce.sum(x.reshape(n, 1)), np.array(expected, dtype)), (dtype, n)
        assert _same_bits(_reduce.mean(x.reshape(1, n)), np.true_divide(np.array(expected, dtype), dtype(n))) \
            or n == 0, (dtype, n)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sums_of_negative_zeros_and_a_negative_zero_tail(one_thread, dtype):
    for n in (1, 3, 7, 8, 9, 31, 32, 33, 35, 100, 127, 128, 129, 515, 2048, 2051):
        zeros = np.full(n, -0.0, dtype)
        assert _same_bits(_reduce.sum(zeros), np.array(0.0, dtype)), n  # +0.0, as every sum starts from +0.0
        x = zeros.copy()
        x[:(n // (32 // x.itemsize)) * (32 // x.itemsize)] = 0.0  # +0.0 vectors, a -0.0 tail
        assert _same_bits(_reduce.sum(x), np.array(_inner_line(x), dtype)), n
        assert not np.signbit(_reduce.sum(x)), n


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(100, 16), (100, 1), (256, 256), (7, 40), (300, 9), (33, 64), (1000, 3)])
def test_dim_sums_are_pytorchs_loops(one_thread, dtype, shape):
    rng = np.random.default_rng(sum(shape))
    x = _spread(rng, shape, dtype)
    rows = np.array([_inner_line(line) for line in x], dtype)
    assert _same_bits(_reduce.sum(x, (1,)), rows)
    assert _same_bits(_reduce.sum(x, (1,), True), rows.reshape(-1, 1))
    if shape[1] > 1:
        assert _same_bits(_reduce.sum(x, (0,)), _outer_columns(x))
        assert _same_bits(_reduce.sum(x, (0,), True), _outer_columns(x).reshape(1, -1))


def test_the_port_tells_orders_apart():
    """The check above can fail: NumPy's pairwise sum and a plain left-to-right sum differ from the port."""
    rng = np.random.default_rng(0)
    x = _spread(rng, 4096, np.float32)
    expected = _inner_line(x)
    running = np.float32(0)
    for value in x:
        running = running + value
    assert x.sum() != expected or running != expected
    assert np.add.accumulate(x)[-1] != expected


# ---- against PyTorch ------------------------------------------------------------------------------

_LAYOUTS = {  # (shape of the base array, the view of it summed): as PyTorch sees a line
    "contiguous": (lambda n: (n,), lambda t, n: t),
    "sliced": (lambda n: (2 * n,), lambda t, n: t[::2]),
    "row of a transposed matrix": (lambda n: (n, 3), lambda t, n: t.T[1]),
    "expanded": (lambda n: (1,), lambda t, n: t.expand(n)),
    "column": (lambda n: (n, 1), lambda t, n: t),
}


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "complex64", "complex128"])
def test_short_and_long_sums_match_pytorch(threads, dtype):
    torch = torch_or_skip()
    rng = np.random.default_rng(len(dtype))
    for n in list(range(0, 70)) + [100, 127, 128, 129, 255, 256, 257, 511, 1000, 4099, 40000]:
        for layout, (shape, view) in _LAYOUTS.items():
            base = _spread(rng, shape(n), np.float32)
            if dtype.startswith("complex"):
                base = base + 1j * _spread(rng, shape(n), np.float32)
            t = view(torch.from_numpy(base).to(getattr(torch, dtype)), n)
            x = view(mg.from_numpy(base).to(getattr(mg, dtype)), n)
            assert n < 2 or tuple(x.stride()) == tuple(t.stride()), (dtype, n, layout)
            got, want = x.sum(), t.sum()
            if dtype == "bfloat16":
                got, want = got.float(), want.float()
            assert got.numpy().tobytes() == want.numpy().tobytes(), (dtype, n, layout, got, want)


@pytest.mark.parametrize("shape,dim", [((100, 16), 0), ((100, 1), 0), ((100, 16), 1), ((256, 256), 0),
                                       ((256, 256), 1), ((5, 37), 1), ((37, 5), 0), ((3, 300), 1)])
@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
def test_dim_sums_match_pytorch(threads, shape, dim, layout):
    torch = torch_or_skip()
    rng = np.random.default_rng(dim)
    base = _spread(rng, shape if layout == "contiguous" else shape[::-1], np.float32)
    t = torch.from_numpy(base) if layout == "contiguous" else torch.from_numpy(base).T
    x = mg.from_numpy(base) if layout == "contiguous" else mg.from_numpy(base).T
    for keepdim in (False, True):
        assert x.sum(dim, keepdim).numpy().tobytes() == t.sum(dim, keepdim).numpy().tobytes()
        assert x.mean(dim, keepdim).numpy().tobytes() == t.mean(dim, keepdim).numpy().tobytes()
