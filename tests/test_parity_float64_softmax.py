"""float64 softmax / log_softmax (last dim and other dims), their gradients, and cross_entropy / nll_loss, bit for
bit as PyTorch's CPU kernels (``minigrad/_softmax_cpu.py``): vectors of 8 doubles, lanes of a row summed one after
another, SLEEF's exp and log (``sleef_exp64``, ``sleef_log64``) on vectors and glibc's exp on scalar tails, the
fused multiply-adds of the gradients, and softmax's split of positions across threads over another dim.
Every comparison is of the float64 bits (nan compared as nan: PyTorch's max leaves a nan with another payload).
"""
from __future__ import annotations

import numpy as np
import pytest
from parity import torch_or_skip

import minigrad
from minigrad import _float_math

# rows around the vector sizes (7, 8, 9, 15, 16, 17 ...), many rows, one row, 1-D, dims of size 1
LAST_DIM = [(4, 10), (64, 100), (3, 7), (5, 8), (6, 9), (2, 15), (7, 16), (3, 17), (5, 33), (2, 3, 129),
            (40, 1000), (1, 5), (1, 64), (13,), (300,), (7, 1), (2, 1, 3)]
OTHER_DIM = [((300, 50), 0), ((4, 64, 333), 1), ((2, 1000, 3), 1), ((8, 3, 5), 1), ((3, 5), 0), ((6, 40, 17), 1),
             ((5, 2, 3, 4), 1), ((3, 7, 9, 11), 0), ((2, 3, 4), -2), ((33, 17), 0), ((9, 200, 7), 1),
             ((2, 5, 20, 20), 1), ((16, 8), 0), ((5, 24), 0), ((1, 7), 0), ((4, 1, 9), 1), ((7, 3, 2), 0)]


def _bits(a) -> np.ndarray:
    a = np.ascontiguousarray(a, np.float64)
    return np.where(np.isnan(a), np.nan, a).view(np.int64)   # (every nan as the same bits)


def _assert_bits(actual, expected, what) -> None:
    actual, expected = _bits(actual), _bits(expected)
    bad = np.flatnonzero(actual != expected)
    assert bad.size == 0, f"{what}: {bad.size} of {actual.size} differ, first at {bad[:5]}"


def _run_both(torch, which: str, x: np.ndarray, dim: int, g: np.ndarray):
    tx = torch.tensor(x, requires_grad=True)
    ty = getattr(tx, which)(dim)
    ty.backward(torch.tensor(g))
    mx = minigrad.tensor(x, requires_grad=True)
    my = getattr(mx, which)(dim)
    my.backward(minigrad.tensor(g))
    return (my.detach().numpy(), mx.grad.numpy()), (ty.detach().numpy(), tx.grad.numpy())


def _with_threads(torch, threads: int, body) -> None:
    saved = torch.get_num_threads(), minigrad.get_num_threads()
    torch.set_num_threads(threads)
    minigrad.set_num_threads(threads)
    try:
        body()
    finally:
        torch.set_num_threads(saved[0])
        minigrad.set_num_threads(saved[1])


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("which", ["softmax", "log_softmax"])
def test_last_dim_bits(which: str, threads: int) -> None:
    torch = torch_or_skip()

    def body():
        gen = np.random.default_rng(threads)
        for shape in LAST_DIM:
            for scale in (0.1, 3.0, 40.0):
                x = gen.standard_normal(shape) * scale
                g = gen.standard_normal(shape)
                (y, dx), (ty, tdx) = _run_both(torch, which, x, -1, g)
                _assert_bits(y, ty, f"{which}{shape} x{scale}")
                _assert_bits(dx, tdx, f"d {which}{shape} x{scale}")
    _with_threads(torch, threads, body)


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("which", ["softmax", "log_softmax"])
def test_other_dim_bits(which: str, threads: int) -> None:
    torch = torch_or_skip()

    def body():
        gen = np.random.default_rng(10 + threads)
        for shape, dim in OTHER_DIM:
            x = gen.standard_normal(shape) * 3
            g = gen.standard_normal(shape)
            (y, dx), (ty, tdx) = _run_both(torch, which, x, dim, g)
            _assert_bits(y, ty, f"{which}{shape} dim {dim}")
            _assert_bits(dx, tdx, f"d {which}{shape} dim {dim}")
    _with_threads(torch, threads, body)


@pytest.mark.parametrize("which", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dim", [0, 1])
def test_extreme_values_and_masks(which: str, dim: int) -> None:
    # -inf entries (masked scores), a fully masked row, an inf, a nan, huge and tiny scales; inf and nan
    # gradients
    torch = torch_or_skip()
    gen = np.random.default_rng(7)
    for n in (5, 20):
        x = gen.standard_normal((6, n))
        x[1, 3] = -np.inf
        x[2, :] = -np.inf
        x[3, 2] = np.nan
        x[4, 1] = np.inf
        g = gen.standard_normal(x.shape)
        g[5, 0], g[0, 1] = np.inf, np.nan
        for case, values in (("specials", x), ("huge", gen.standard_normal((7, n)) * 1e300),
                             ("tiny", gen.standard_normal((7, n)) * 1e-300),
                             ("wide", gen.standard_normal((7, n)) * 800)):
            grad = g if case == "specials" else gen.standard_normal(values.shape)
            (y, dx), (ty, tdx) = _run_both(torch, which, values, dim, grad)
            _assert_bits(y, ty, f"{which} {case} n={n}")
            _assert_bits(dx, tdx, f"d {which} {case} n={n}")


@pytest.mark.parametrize("which", ["softmax", "log_softmax"])
def test_strided_input_and_double_backward(which: str) -> None:
    torch = torch_or_skip()
    x = np.random.default_rng(3).standard_normal((30, 20))
    for dim in (0, 1):
        expected = getattr(torch.tensor(x).t(), which)(dim).numpy()
        _assert_bits(getattr(minigrad.tensor(x).t(), which)(dim).numpy(), expected, f"{which} of a transpose")
    results = []
    for lib in (torch, minigrad):
        t = lib.tensor(x[:4, :11], requires_grad=True)
        y = getattr(t, which)(1)
        (g,) = lib.autograd.grad((y * lib.tensor(x[:4, :11])).sum(), t, create_graph=True)
        (gg,) = lib.autograd.grad((g * g).sum(), t)
        results.append(gg.detach().numpy())
    _assert_bits(results[1], results[0], f"double backward of {which}")


CROSS_ENTROPY = [((4, 10), {}), ((64, 100), {}), ((128, 10), {}), ((300, 7), {}), ((5, 33), {"reduction": "sum"}),
                 ((16, 5, 3), {}), ((8, 4, 6, 6), {}), ((32, 10), {"label_smoothing": 0.1}),
                 ((32, 10), {"weight": True}), ((50, 10), {"ignore_index": 3}), ((40, 9), {"reduction": "none"}),
                 ((1000, 10), {}),
                 # more than 2 dims (nll_loss2d): the cascade of partial sums over the targets in C order
                 ((8, 4, 6, 6), {"weight": True}), ((4, 3, 10, 10), {"ignore_index": 1}),
                 ((4, 5, 7), {"reduction": "sum"}), ((2, 6, 30, 40), {}), ((3, 4, 5, 6, 7), {"label_smoothing": 0.2})]


@pytest.mark.parametrize("threads", [1, 2])
def test_cross_entropy_and_nll_loss_bits(threads: int) -> None:
    torch = torch_or_skip()

    def body():
        gen = np.random.default_rng(5 + threads)
        for shape, kwargs in CROSS_ENTROPY:
            x = gen.standard_normal(shape) * 2
            target = gen.integers(0, shape[1], (shape[0],) + shape[2:])
            weight = gen.random(shape[1]) if kwargs.get("weight") else None
            results = []
            for lib in (torch, minigrad):
                F = lib.nn.functional
                kw = dict(kwargs, weight=None if weight is None else lib.tensor(weight))
                a = lib.tensor(x, requires_grad=True)
                loss = F.cross_entropy(a, lib.tensor(target), **kw)
                loss.sum().backward()
                b = lib.tensor(x, requires_grad=True)
                nll = F.nll_loss(F.log_softmax(b, 1), lib.tensor(target))
                nll.backward()
                results.append([v.detach().numpy() for v in (loss, a.grad, nll, b.grad)])
            for name, mine, theirs in zip(("loss", "grad", "nll", "nll grad"), results[1], results[0]):
                _assert_bits(mine, theirs, f"cross_entropy {shape} {kwargs}: {name}")
    _with_threads(torch, threads, body)


def test_sleef_log64_special_values_and_accuracy() -> None:
    d = np.array([0.0, -0.0, -1.0, np.inf, np.nan, 1.0, 2.0, 0.5, 5e-324, 1.7e308])
    r = _float_math.sleef_log64(d)
    assert r[0] == -np.inf and r[1] == -np.inf and np.isnan(r[2]) and r[3] == np.inf and np.isnan(r[4])
    assert r[5] == 0.0 and r[6] == np.log(2.0) and r[7] == -np.log(2.0)
    assert r[8] == np.log(5e-324) and r[9] == np.log(1.7e308)
    x = np.random.default_rng(0).random(10000) * 1000 + 1
    ulps = np.abs(_float_math.sleef_log64(x) - np.log(x)) / np.spacing(np.log(x))
    assert ulps.max() <= 1 and 0.9 < np.mean(ulps == 0) < 1   # (within 1 ulp; not correctly rounded)
