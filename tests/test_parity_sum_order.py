"""Floating-point sums add in PyTorch's CPU order (minigrad/_reduce.py): the same bits as PyTorch.

PyTorch's ``cascade_sum`` (aten/src/ATen/native/cpu/SumKernel.cpp) adds in a fixed order that depends on
the dtype, the shape, the strides, the summed dims and the thread count; NumPy adds pairwise. These tests
compare bits: ``sum``/``mean``/``nansum`` forward, the gradients that undo broadcasting (the engine's
``sum_to``), and whole training loops whose printed losses would drift otherwise.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from parity import run_both, torch_or_skip

import minigrad as mg


@pytest.fixture(autouse=True)
def _same_thread_count():
    """PyTorch's thread count as minigrad's (other tests, e.g. the benchmark smoke test, set it to 1)."""
    try:
        import torch
    except ImportError:
        yield
        return
    saved = torch.get_num_threads()
    torch.set_num_threads(mg.get_num_threads())
    yield
    torch.set_num_threads(saved)

DTYPES = ("float32", "float64", "float16", "bfloat16")


# ---- the order itself, without PyTorch: a literal port of SumKernel.cpp on small inputs ------------------

def _multi_row_sum(load, nrows: int, size: int, zero):
    """SumKernel.cpp's multi_row_sum, line for line (``load(i, k)``: row i, column k)."""
    level_power = max(4, (1 if size <= 2 else (size - 1).bit_length()) // 4)
    step, mask = 1 << level_power, (1 << level_power) - 1
    acc = [[zero for _ in range(nrows)] for _ in range(4)]
    i = 0
    while i + step <= size:
        for _ in range(step):
            for k in range(nrows):
                acc[0][k] = acc[0][k] + load(i, k)
            i += 1
        for j in range(1, 4):
            for k in range(nrows):
                acc[j][k] = acc[j][k] + acc[j - 1][k]
                acc[j - 1][k] = zero
            if i & (mask << (j * level_power)):
                break
    for rest in range(i, size):
        for k in range(nrows):
            acc[0][k] = acc[0][k] + load(rest, k)
    for j in range(1, 4):
        for k in range(nrows):
            acc[0][k] = acc[0][k] + acc[j][k]
    return acc[0]


def _row_sum(load, size: int, zero):
    """SumKernel.cpp's row_sum: 4 interleaved multi_row_sum accumulators, the rest into the first."""
    partial = _multi_row_sum(lambda i, k: load(4 * i + k), 4, size // 4, zero)
    for i in range(size // 4 * 4, size):
        partial[0] = partial[0] + load(i)
    return ((partial[0] + partial[1]) + partial[2]) + partial[3]


def _literal_sum_1d(x: np.ndarray) -> np.float32:
    """vectorized_inner_sum of one contiguous float32 row with 8-lane (AVX2) vectors, element by element."""
    lanes, n = 8, len(x)
    vectors = n // lanes
    acc = _row_sum(lambda t: x[t * lanes:(t + 1) * lanes], vectors, np.zeros(lanes, np.float32))
    total = np.float32(0)
    for k in range(vectors * lanes, n):
        total = total + x[k]
    for k in range(lanes):
        total = total + acc[k]
    return total


def _literal_sum_dim0(x: np.ndarray) -> np.ndarray:
    """vectorized_outer_sum of a contiguous float32 (n, k) array over dim 0: groups of 4 vectors, vectors, scalars."""
    n, k = x.shape
    out = np.zeros(k, np.float32)
    j = 0
    while j + 32 <= k:  # 4 vectors of 8 lanes: one cascade per column
        block = x[:, j:j + 32].reshape(n, 4, 8)
        out[j:j + 32] = np.concatenate(_multi_row_sum(lambda i, r, b=block: b[i, r], 4, n, np.zeros(8, np.float32)))
        j += 32
    while j + 8 <= k:  # one vector: row_sum down the rows
        out[j:j + 8] = _row_sum(lambda i, v=x[:, j:j + 8]: v[i], n, np.zeros(8, np.float32))
        j += 8
    for c in range(j, k):  # scalar columns
        out[c] = _row_sum(lambda i, v=x[:, c]: v[i], n, np.float32(0))
    return out


def _spread(rng, shape) -> np.ndarray:
    """Values over many magnitudes, so that a different order of additions shows in the last bits."""
    return (rng.standard_normal(shape) * np.exp(rng.uniform(-6, 6, shape))).astype(np.float32)


@pytest.mark.parametrize("n", [1, 7, 8, 9, 31, 32, 33, 100, 257, 511, 512, 513, 1000, 2000, 4099])
def test_full_sum_adds_in_the_kernels_order(n):
    x = _spread(np.random.default_rng(n), n)
    assert mg.tensor(x).sum().item() == float(_literal_sum_1d(x))


@pytest.mark.parametrize("shape", [(100, 32), (257, 64), (33, 40), (600, 47), (20, 7), (3, 100)])
def test_sum_over_dim_0_adds_in_the_kernels_order(shape):
    x = _spread(np.random.default_rng(sum(shape)), shape)
    np.testing.assert_array_equal(mg.tensor(x).sum(0).numpy(), _literal_sum_dim0(x))


def test_the_order_is_not_numpys():
    # (the point of the module: NumPy's pairwise sum rounds differently)
    x = _spread(np.random.default_rng(0), 2000)
    assert np.float32(mg.tensor(x).sum().item()) != np.add.reduce(x)


def test_a_sum_of_negative_zeros_is_positive_zero():
    for shape, dim in [((5,), None), ((3, 4), 0), ((3, 4), 1), ((4, 1), 1), ((40000,), None)]:
        s = mg.zeros(shape).neg().sum() if dim is None else mg.zeros(shape).neg().sum(dim)
        assert not np.signbit(s.numpy()).any()


# ---- against PyTorch ---------------------------------------------------------------------------------------

def _pair(torch, rng, shape, dtype: str, *, nan=False, zeros=False):
    """The same data as a contiguous torch and minigrad tensor of ``dtype``."""
    base = _spread(rng, shape)
    if nan:
        base[rng.random(shape) < 0.1] = np.nan
    if zeros:
        base[rng.random(shape) < 0.5] = -0.0
    return torch.from_numpy(base.copy()).to(getattr(torch, dtype)), mg.tensor(base).to(getattr(mg, dtype))


def _bits(t) -> np.ndarray:
    """A tensor's values as raw bytes (NaNs and signed zeros compare exactly)."""
    arr = t.detach().float().numpy() if str(t.dtype).endswith("bfloat16") else t.detach().numpy()
    return np.ascontiguousarray(arr).reshape(-1).view(np.uint8)


def _random_case(torch, rng, big: bool, op: str):
    """A random view (permuted, sliced, expanded, with size-1 dims) of random data, and a random reduction."""
    ndim = int(rng.integers(1, 5))
    limit = (100000, 1000, 60, 25) if big else (3000, 200, 30, 12)
    shape = [int(rng.integers(1, limit[ndim - 1] + 1)) if rng.random() < 0.8 else int(rng.integers(1, 4))
             for _ in range(ndim)]
    dtype = str(rng.choice(("float32", "float64", "float16") if op == "nansum" else DTYPES))
    t, base = _pair(torch, rng, shape, dtype, nan=op == "nansum", zeros=rng.random() < 0.1)
    if rng.random() < 0.4:  # permuted
        t = t.permute(*[int(p) for p in rng.permutation(ndim)])
    if rng.random() < 0.3:  # every other element of one dim
        d = int(rng.integers(ndim))
        t = t[(slice(None),) * d + (slice(int(rng.integers(0, 2)) if t.shape[d] > 1 else 0, None, 2),)]
    if rng.random() < 0.15:  # a broadcast dim (stride 0)
        d, k = int(rng.integers(0, ndim + 1)), int(rng.integers(1, 40))
        t = t.unsqueeze(d)
        t = t.expand(*(k if i == d else n for i, n in enumerate(t.shape)))
        ndim += 1
    if rng.random() < 0.1:  # a size-1 dim
        t = t.unsqueeze(int(rng.integers(0, ndim + 1)))
        ndim += 1
    # the same view of the same data (PyTorch's strides exactly, those of size-1 dims included)
    m = base.as_strided(tuple(t.shape), t.stride(), t.storage_offset())
    if rng.random() < 0.3:
        return t, m, (), False
    dims = tuple(int(d) for d in rng.choice(ndim, int(rng.integers(1, ndim + 1)), replace=False))
    if rng.random() < 0.3:
        dims = tuple(d - ndim for d in dims)
    return t, m, dims[0] if len(dims) == 1 and rng.random() < 0.5 else dims, bool(rng.random() < 0.3)


def _check_random_cases(count: int, big: bool, seed: int):
    torch = torch_or_skip()
    rng = np.random.default_rng(seed)
    failures = []
    for i in range(count):
        op = ("sum", "mean", "nansum")[i % 3]
        t, m, dims, keepdim = _random_case(torch, rng, big, op)
        if dims == ():
            theirs, mine = getattr(torch, op)(t), getattr(mg, op)(m)
        else:
            theirs, mine = getattr(torch, op)(t, dims, keepdim=keepdim), getattr(mg, op)(m, dims, keepdim=keepdim)
        assert tuple(mine.shape) == tuple(theirs.shape) and str(mine.dtype) == str(theirs.dtype)
        if not np.array_equal(_bits(mine), _bits(theirs)):
            failures.append((op, str(t.dtype), tuple(t.shape), t.stride(), dims, keepdim))
    assert not failures, f"{len(failures)} of {count} differ, e.g. {failures[:5]}"


def test_random_views_and_reductions_bit_for_bit():
    _check_random_cases(2400, big=False, seed=1)


def test_random_large_views_and_reductions_bit_for_bit():
    # from 32768 elements on, PyTorch's threads each sum a part (minigrad adds in the same order)
    _check_random_cases(150, big=True, seed=2)


@pytest.mark.parametrize("dtype", DTYPES)
def test_full_sums_and_means_of_every_length(dtype):
    torch = torch_or_skip()
    rng = np.random.default_rng(3)
    for n in (1, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65, 255, 256, 257, 4095, 4096, 4097,
              32767, 32768, 32769, 65537, 100003, 10 ** 6):
        t, m = _pair(torch, rng, n, dtype)
        assert np.array_equal(_bits(m.sum()), _bits(t.sum())), (dtype, n, "sum")
        assert np.array_equal(_bits(m.mean()), _bits(t.mean())), (dtype, n, "mean")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(256, 256), (128, 256), (1000, 100), (100, 1000), (3, 40000), (40000, 3),
                                   (17, 33), (64, 10), (2, 3, 50000), (50, 60, 70)])
def test_sums_over_each_dim_and_transposed(dtype, shape):
    torch = torch_or_skip()
    t, m = _pair(torch, np.random.default_rng(4), shape, dtype)
    for tt, mm in ((t, m), (t.transpose(0, -1), m.transpose(0, -1))):
        for dim in range(len(shape)):
            assert np.array_equal(_bits(mm.sum(dim)), _bits(tt.sum(dim))), (dtype, shape, tt.stride(), dim)
            assert np.array_equal(_bits(mm.mean(dim)), _bits(tt.mean(dim))), (dtype, shape, tt.stride(), dim)
        assert np.array_equal(_bits(mm.sum()), _bits(tt.sum()))


@pytest.mark.parametrize("threads", [1, 3, 4])
def test_other_thread_counts_split_as_pytorch_does(threads):
    torch = torch_or_skip()
    before = torch.get_num_threads(), mg.get_num_threads()
    torch.set_num_threads(threads)
    mg.set_num_threads(threads)
    try:
        rng = np.random.default_rng(threads)
        for shape, dim in [((100003,), None), ((300, 200), 0), ((200, 300), 1), ((37, 1000), 0), ((9, 9000), 0),
                           ((60, 70, 80), 1), ((60, 70, 80), (0, 2))]:
            t, m = _pair(torch, rng, shape, "float32")
            theirs, mine = (t.sum(), m.sum()) if dim is None else (t.sum(dim), m.sum(dim))
            assert np.array_equal(_bits(mine), _bits(theirs)), (threads, shape, dim)
    finally:
        torch.set_num_threads(before[0])
        mg.set_num_threads(before[1])


def test_default_thread_count_is_pytorchs():
    torch = torch_or_skip()
    assert mg.get_num_threads() == torch.get_num_threads()


def test_sum_with_dtype_argument():
    torch = torch_or_skip()
    t, m = _pair(torch, np.random.default_rng(5), (300, 70), "float16")
    for dim in (None, 0, 1):
        args = () if dim is None else (dim,)
        assert np.array_equal(_bits(m.sum(*args, dtype=mg.float32)), _bits(t.sum(*args, dtype=torch.float32)))
        assert np.array_equal(_bits(m.float().sum(*args, dtype=mg.float64)),
                              _bits(t.float().sum(*args, dtype=torch.float64)))


def test_complex_sums():
    torch = torch_or_skip()
    rng = np.random.default_rng(6)
    for shape, dim in [((5000,), None), ((300, 70), 0), ((70, 300), 1), ((40000,), None)]:
        z = (_spread(rng, shape) + 1j * _spread(rng, shape)).astype(np.complex64)
        t, m = torch.from_numpy(z.copy()), mg.tensor(z)
        theirs, mine = (t.sum(), m.sum()) if dim is None else (t.sum(dim), m.sum(dim))
        assert np.array_equal(mine.numpy(), theirs.numpy()), (shape, dim)


def test_half_precision_store_then_round():
    # nansum of float16 over two dims adds each line's float32 sum, rounded to half, into a half output
    torch = torch_or_skip()
    t, m = _pair(torch, np.random.default_rng(7), (200, 90), "float16", nan=True)
    t, m = t[:, ::2], m[:, ::2]
    assert np.array_equal(_bits(m.nansum()), _bits(t.nansum()))
    assert np.array_equal(_bits(m.nansum((0, 1))), _bits(t.nansum((0, 1))))


# ---- gradients: the engine sums broadcast gradients back (PyTorch's sum_to) ------------------------------------

@pytest.mark.parametrize("x_shape,p_shape", [((128, 256), (256,)), ((256, 256), (256, 1)), ((256, 256), (1, 256)),
                                             ((2000,), ()), ((64, 10), (10,)), ((4, 300, 50), (300, 1)),
                                             ((4, 300, 50), (1, 50)), ((70000,), (1,)), ((3, 5, 7000), ())])
def test_gradients_of_broadcast_parameters(x_shape, p_shape):
    torch = torch_or_skip()
    rng = np.random.default_rng(len(x_shape) + len(p_shape))
    x, p, w = _spread(rng, x_shape), _spread(rng, p_shape), _spread(rng, x_shape)
    grads = []
    for lib in (torch, mg):
        xt = lib.tensor(x)
        pt = lib.tensor(p, requires_grad=True)
        ((xt + pt) * lib.tensor(w)).sum().backward()
        grads.append(pt.grad)
    assert np.array_equal(_bits(grads[1]), _bits(grads[0]))


def test_gradients_with_create_graph_use_the_same_sums():
    torch = torch_or_skip()
    rng = np.random.default_rng(8)
    x, b, w = _spread(rng, (300, 40)), _spread(rng, (40,)), _spread(rng, (300, 40))
    grads = []
    for lib in (torch, mg):
        bt = lib.tensor(b, requires_grad=True)
        (g,) = lib.autograd.grad(((lib.tensor(x) + bt) * lib.tensor(w)).sum(), bt, create_graph=True)
        grads.append(g)
    assert np.array_equal(_bits(grads[1]), _bits(grads[0]))


def test_mse_loss_sum_and_mean():
    torch = torch_or_skip()
    rng = np.random.default_rng(9)
    a, b = _spread(rng, (3000,)), _spread(rng, (3000,))
    for reduction in ("sum", "mean"):
        theirs = torch.nn.functional.mse_loss(torch.tensor(a), torch.tensor(b), reduction=reduction)
        mine = mg.nn.functional.mse_loss(mg.tensor(a), mg.tensor(b), reduction=reduction)
        assert mine.item() == theirs.item()


# ---- whole programs ----------------------------------------------------------------------------------------

# PyTorch's tutorial "polynomial fit" (tensors and autograd), losses and weights at full precision. One
# change: y is sin in float64 rounded to float32. PyTorch's float32 sin (Intel MKL) and minigrad's differ
# in the last bit for 92 of these 2000 inputs, which shows in the weights from step ~300 on; the sums
# agree on equal inputs (the test below), and with equal inputs all 2000 steps print the same.
POLYNOMIAL_FIT = r'''
import math
import torch
torch.manual_seed(0)
dtype = torch.float
device = torch.device("cpu")
x = torch.linspace(-math.pi, math.pi, 2000, device=device, dtype=dtype)
y = torch.sin(x.double()).float()
a = torch.randn((), device=device, dtype=dtype, requires_grad=True)
b = torch.randn((), device=device, dtype=dtype, requires_grad=True)
c = torch.randn((), device=device, dtype=dtype, requires_grad=True)
d = torch.randn((), device=device, dtype=dtype, requires_grad=True)
learning_rate = 1e-6
for t in range(300):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, repr(loss.item()))
    if t < 20:
        print(repr(loss.item()))
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None
print(repr(a.item()), repr(b.item()), repr(c.item()), repr(d.item()))
'''

# The same fit with a target that needs no transcendental function (NumPy's float32 sin and PyTorch's
# MKL one differ in the last bit for a few inputs), every loss printed, by mean and by sum.
POLYNOMIAL_FIT_EVERY_STEP = r'''
import torch
torch.manual_seed(1)
x = torch.linspace(-3.0, 3.0, 3001)
y = 0.5 * x - x * x * x / 6 + x ** 5 / 120
w = torch.randn(4, requires_grad=True)
bias = torch.zeros(3001, requires_grad=True)
for t in range(60):
    y_pred = w[0] + w[1] * x + w[2] * x ** 2 + w[3] * x ** 3 + bias
    loss = (y_pred - y).pow(2).mean() if t % 2 else (y_pred - y).pow(2).sum() / 3001
    print(t, repr(loss.item()))
    loss.backward()
    with torch.no_grad():
        w -= 1e-3 * w.grad
        bias -= 1e-1 * bias.grad
        w.grad = None
        bias.grad = None
print([repr(v) for v in w.tolist()], repr(bias.sum().item()))
'''

# Linear regression written with broadcasting and sums (no matrix product: PyTorch's MKL one rounds
# differently from NumPy's): the weight gradient sums (512, 13) over dim 0, the bias one (512, 1) to (1,).
LINEAR_REGRESSION = r'''
import torch
torch.manual_seed(2)
X = torch.randn(512, 13)
true_w = torch.randn(13)
Y = (X * true_w).sum(1, keepdim=True) + 0.1 * torch.randn(512, 1)
w = torch.zeros(13, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
for t in range(40):
    pred = (X * w).sum(1, keepdim=True) + b
    loss = torch.nn.functional.mse_loss(pred, Y) if t % 2 else ((pred - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        b -= 0.1 * b.grad
        print(t, repr(loss.item()), repr(b.grad.item()), [repr(v) for v in w.grad.tolist()])
        w.grad = None
        b.grad = None
'''


@pytest.mark.parametrize("program", [POLYNOMIAL_FIT, POLYNOMIAL_FIT_EVERY_STEP, LINEAR_REGRESSION],
                         ids=["tutorial_polynomial_fit", "polynomial_every_step", "linear_regression"])
def test_programs_print_pytorchs_numbers(program):
    mine, theirs = run_both(program)
    assert theirs.strip()
    assert mine == theirs


def test_tutorial_sum_of_sines_on_the_same_values():
    # torch.sin(torch.linspace(-pi, pi, 2000)).sum() is 3.7159770727157593e-06 (NumPy's order: -6.1e-05)
    torch = torch_or_skip()
    y = torch.sin(torch.linspace(-math.pi, math.pi, 2000))
    assert mg.tensor(y.numpy()).sum().item() == y.sum().item() == 3.7159770727157593e-06
