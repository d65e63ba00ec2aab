"""Bit-for-bit parity with PyTorch's float32 CPU kernels for softmax, log_softmax, cross_entropy and the
silu family's gradients, on seeded samples of shapes and values.

What each part reproduces (``minigrad/_softmax_cpu.py``, ``minigrad/_float_math.py``):
- log_softmax takes log Σ with SLEEF's logf_u10 (``sleef_logf``), which is not correctly rounded;
- softmax's backward adds the partial last vector of Σ g·y with a fused multiply-add (map2_reduce_all);
- silu, mish and elu have gradient kernels of their own (``silu_backward`` ...): SLEEF's expf on whole
  vectors of 32 floats, glibc's expf (``glibc_expf``) on the rest and on strided tensors, and the fused
  multiply-adds that the compiler makes of ``1 + x·(1 - σ)``.
Rows of 1..70 and a few hundred, 1..300 rows, small to large values, -inf entries; every comparison is of
the float32 bits (nan's sign included).
"""
from __future__ import annotations

import ctypes
import ctypes.util

import numpy as np
import pytest

import minigrad
from minigrad import _float_math
from tests.parity import torch_or_skip

F32 = np.float32
SCALES = [0.01, 1.0, 5.0, 30.0, 200.0]


def _assert_bits(actual, expected, what="") -> None:
    actual, expected = np.asarray(actual, F32), np.asarray(expected, F32)
    assert actual.shape == expected.shape, what
    differ = actual.view(np.uint32) != expected.view(np.uint32)
    assert not differ.any(), f"{what}: {differ.sum()} of {differ.size} differ, e.g. " \
                             f"{actual[differ][:3]} vs {expected[differ][:3]}"


def _torch():
    torch = torch_or_skip()
    torch.set_num_threads(1)   # (bigger tensors split across threads, each part with its own scalar tail)
    minigrad.set_num_threads(1)   # (minigrad follows: softmax's backward rounds differently on 2 threads)
    return torch


def _shapes(seed: int, count: int) -> list:
    """Row lengths 1..70 each once and a few long ones, with random row counts."""
    rng = np.random.default_rng(seed)
    lengths = list(range(1, 71)) + [100, 129, 257, 1000]
    lengths += [int(n) for n in rng.integers(1, 71, count - len(lengths))]
    return [(int(rng.integers(1, 301 if n < 300 else 30)), n) for n in lengths]


def _values(rng, shape, with_inf: bool) -> np.ndarray:
    x = (rng.standard_normal(shape) * rng.choice(SCALES)).astype(F32)
    if with_inf:
        x[rng.random(shape) < 0.1] = -np.inf
    return x


@pytest.mark.parametrize("with_inf", [False, True], ids=["finite", "minus-inf"])
def test_log_softmax_softmax_and_their_backwards(with_inf):
    torch = _torch()
    rng = np.random.default_rng(1 + with_inf)
    for shape in _shapes(3 + with_inf, 90):
        x, g = _values(rng, shape, with_inf), rng.standard_normal(shape).astype(F32)
        for name in ("log_softmax", "softmax"):
            tx, mx = torch.tensor(x, requires_grad=True), minigrad.tensor(x, requires_grad=True)
            ty, my = getattr(torch, name)(tx, -1), getattr(minigrad, name)(mx, -1)
            _assert_bits(my.detach().numpy(), ty.detach().numpy(), f"{name} {shape}")
            ty.backward(torch.tensor(g))
            my.backward(minigrad.tensor(g))
            _assert_bits(mx.grad.numpy(), tx.grad.numpy(), f"{name} backward {shape}")


def test_log_softmax_over_the_last_dim_of_3d_input():
    torch = _torch()
    x = (np.random.default_rng(5).standard_normal((4, 7, 45)) * 8).astype(F32)
    _assert_bits(minigrad.log_softmax(minigrad.tensor(x), -1).numpy(), torch.log_softmax(torch.tensor(x), -1).numpy())


def test_sleef_logf_on_the_sums_of_rows():
    """Rows [a, 0, ..., 0] (a <= 0): log_softmax's second entry is -log(e^a + k), k zeros after a."""
    torch = _torch()
    rng = np.random.default_rng(6)
    for k in (1, 2, 3, 7, 15):
        a = -(rng.random(20_000) * rng.choice([1, 5, 20, 100], 20_000)).astype(F32)
        rows = np.zeros((a.size, k + 1), F32)
        rows[:, 0] = a
        total = _float_math.sleef_expf(a)
        for _ in range(k):   # (left to right, as the kernel adds a row shorter than 16)
            total = total + F32(1)
        expected = F32(0) - torch.log_softmax(torch.tensor(rows), -1).numpy()[:, 1]   # (0 - 0 is +0)
        _assert_bits(_float_math.sleef_logf(total), expected, f"{k} zeros")


@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_cross_entropy_loss_and_gradient(reduction):
    torch = _torch()
    rng = np.random.default_rng(7)
    for rows, classes in [(128, 10), (64, 100), (300, 17), (5, 3), (33, 1000), (1, 70)]:
        x = (rng.standard_normal((rows, classes)) * rng.choice(SCALES[1:4])).astype(F32)
        target = rng.integers(0, classes, rows)
        tx, mx = torch.tensor(x, requires_grad=True), minigrad.tensor(x, requires_grad=True)
        tl = torch.nn.functional.cross_entropy(tx, torch.tensor(target), reduction=reduction)
        ml = minigrad.nn.functional.cross_entropy(mx, minigrad.tensor(target), reduction=reduction)
        assert repr(ml.item()) == repr(tl.item()), (rows, classes)   # what a program prints
        tl.backward()
        ml.backward()
        _assert_bits(mx.grad.numpy(), tx.grad.numpy(), f"cross_entropy grad {(rows, classes)}")


# ---- silu, sigmoid, mish, elu, softplus gradients ----------------------------------------------------------

def _layouts(rng):
    """(name, input array, slicer): whole blocks of 32 and tails, a strided view (all scalar code)."""
    for n in (5, 31, 32, 33, 64 * 37 + 7, 1000):
        yield f"contiguous {n}", (rng.standard_normal(n) * rng.choice(SCALES[1:])).astype(F32), None
    x = (rng.standard_normal((60, 90)) * 4).astype(F32)
    yield "2-d", x, None
    yield "strided", x, (slice(None), slice(None, None, 2))


ACTIVATIONS = {
    "silu": lambda lib, t: lib.nn.functional.silu(t),
    "sigmoid": lambda lib, t: lib.sigmoid(t),
    "elu": lambda lib, t: lib.nn.functional.elu(t),
    "selu": lambda lib, t: lib.nn.functional.selu(t),
    "celu": lambda lib, t: lib.nn.functional.celu(t, alpha=0.3),
    "softplus": lambda lib, t: lib.nn.functional.softplus(t, beta=2.0, threshold=5.0),
}


@pytest.mark.parametrize("name", list(ACTIVATIONS))
def test_activation_gradients(name):
    """Given gradients, and a sum's gradient (one number expanded: the vector code reads it as one)."""
    torch = _torch()
    rng = np.random.default_rng(8)
    fn = ACTIVATIONS[name]
    for layout, x, part in _layouts(rng):
        for given in (True, False):
            results = []
            for lib in (torch, minigrad):
                t = lib.tensor(x, requires_grad=True)
                y = fn(lib, t if part is None else t[part])
                if given:
                    y.backward(lib.tensor(np.random.default_rng(9).standard_normal(y.shape).astype(F32)))
                else:
                    y.sum().backward()
                results.append(t.grad.numpy())
            _assert_bits(results[1], results[0], f"{name} {layout} {'given' if given else 'sum'}")


def test_mish_gradient_on_the_scalar_path():
    """A strided input runs PyTorch's scalar code on every element: glibc's expf, log1pf and tanhf, all
    reproduced. (Its vector code uses SLEEF's log1pf and tanhf, for which correctly rounded values stand in.)"""
    torch = _torch()
    x = (np.random.default_rng(10).standard_normal((50, 80)) * 3).astype(F32)
    g = np.random.default_rng(11).standard_normal((50, 40)).astype(F32)
    results = []
    for lib in (torch, minigrad):
        t = lib.tensor(x, requires_grad=True)
        lib.nn.functional.mish(t[:, ::2]).backward(lib.tensor(g))
        results.append(t.grad.numpy())
    _assert_bits(results[1], results[0], "mish strided")


def test_silu_gradient_with_create_graph():
    """create_graph: PyTorch's infinitely_differentiable_silu_backward, in tensor ops (same values, and a
    second derivative)."""
    torch = _torch()
    x = np.random.default_rng(12).standard_normal(40).astype(F32)
    grads = []
    for lib in (torch, minigrad):
        t = lib.tensor(x, requires_grad=True)
        (g,) = lib.autograd.grad(lib.nn.functional.silu(t).sum(), t, create_graph=True)
        (h,) = lib.autograd.grad(g.sum(), t)
        grads.append((g.detach().numpy(), h.numpy(), type(g.grad_fn).__name__))
    np.testing.assert_allclose(grads[1][0], grads[0][0], rtol=2e-7, atol=0)
    np.testing.assert_allclose(grads[1][1], grads[0][1], rtol=1e-6, atol=1e-7)
    assert grads[1][2] == grads[0][2] == "MulBackward0"


_LIBM = ctypes.util.find_library("m")


@pytest.mark.skipif(_LIBM is None or "libm.so.6" not in str(_LIBM), reason="glibc's libm not found")
def test_glibc_expf_is_the_c_librarys():
    lib = ctypes.CDLL(_LIBM)
    expf = lib.expf
    expf.restype, expf.argtypes = ctypes.c_float, [ctypes.c_float]
    rng = np.random.default_rng(13)
    x = np.concatenate([rng.uniform(-105, 90, 30_000), rng.standard_normal(20_000) * 3,
                        [np.inf, -np.inf, np.nan, 0.0, -0.0, -103.97, -103.98, 88.72, 88.73, 1e-30]]).astype(F32)
    expected = np.array([expf(float(v)) for v in x], F32)
    _assert_bits(_float_math.glibc_expf(x), expected, "expf")
