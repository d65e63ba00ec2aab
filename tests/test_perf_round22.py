"""The fast path of #8 round 22 (bench/PROFILE.md): ``_matmul.addmv`` (``torch.mv``, ``torch.addmv``, ``matmul`` of
a matrix and a vector, MvBackward0's Aᵀ·g) makes its gemv call from a plan kept per layout, as mm and addmm do
since rounds 20-21.

The transpose flag, leading dimension and increment depend only on the operands' shapes, strides and dtypes; the
plan holds them and MKL's gemv without ctypes' argument conversion. A matrix that addmv copies (neither row- nor
column-major), a vector of stride 0, empty products, dtypes other than float32/float64 and a bias of another dtype
decline the plan and take the general path as before. Every result is compared with PyTorch's bytes.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from parity import torch_or_skip

import minigrad
from minigrad import _matmul


@pytest.fixture(autouse=True)
def _one_thread(one_thread):
    """(tests/conftest.py: one intra-op thread for minigrad and PyTorch)"""


def _matrix(x: np.ndarray, kind: str) -> np.ndarray:
    """x as a row-major ("C"), column-major ("F"), every-other-column ("S"), row-sliced row-major ("W": lda above
    the row length) or read-only row-major ("R") array."""
    if kind == "C":
        return np.ascontiguousarray(x)
    if kind == "F":
        return np.asfortranarray(x)
    if kind == "S":
        big = np.zeros((x.shape[0], 2 * x.shape[1]), x.dtype)
        big[:, ::2] = x
        return big[:, ::2]
    if kind == "W":
        big = np.zeros((x.shape[0], x.shape[1] + 3), x.dtype)
        big[:, :x.shape[1]] = x
        return big[:, :x.shape[1]]
    y = np.ascontiguousarray(x)
    y.flags.writeable = False
    return y


def _vector(v: np.ndarray, kind: str) -> np.ndarray:
    """v contiguous ("c"), every third element ("s") or read-only ("r")."""
    if kind == "c":
        return v.copy()
    if kind == "s":
        big = np.zeros(3 * v.shape[0], v.dtype)
        big[::3] = v
        return big[::3]
    y = v.copy()
    y.flags.writeable = False
    return y


def _t(torch, x: np.ndarray):
    """x as a PyTorch tensor of the same layout (a read-only array as a row-major copy, which it is already)."""
    return torch.from_numpy(x if x.flags.writeable else x.copy())


def _same(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape and got.strides == want.strides
    assert got.tobytes() == want.tobytes()


_SHAPES = [(100, 16), (16, 100), (1, 7), (7, 1), (1, 1), (33, 100), (5, 2)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_mv_planned_bits(dtype):
    """mv of every layout pair equals torch.mv's bytes, on the call that makes the plan and the one that uses it."""
    torch = torch_or_skip()
    rng = np.random.default_rng(0)
    for (m, n), mk, vk in itertools.product(_SHAPES, "CFSWR", "csr"):
        a = _matrix(rng.standard_normal((m, n)).astype(dtype), mk)
        v = _vector(rng.standard_normal(n).astype(dtype), vk)
        want = torch.mv(_t(torch, a), _t(torch, v)).numpy()
        for _ in range(2):
            _same(_matmul.mv(a, v), want)


_SCALARS = [(1, 1), (0, 1), (0.5, 2), (1, 0.3), (-1.5, 1e-3)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_addmv_planned_bits(dtype):
    """addmv with β and α (bias of shape (m,), (1,) and (), as derivatives' broadcast view) equals torch.addmv's."""
    torch = torch_or_skip()
    rng = np.random.default_rng(1)
    for (m, n), mk, (beta, alpha), bshape in itertools.product([(100, 16), (1, 7), (6, 1), (33, 100)], "CFR",
                                                               _SCALARS, ["m", "1", ""]):
        a = _matrix(rng.standard_normal((m, n)).astype(dtype), mk)
        v = rng.standard_normal(n).astype(dtype)
        bias = rng.standard_normal({"m": (m,), "1": (1,), "": ()}[bshape]).astype(dtype)
        want = torch.addmv(torch.from_numpy(bias), _t(torch, a), torch.from_numpy(v), beta=beta, alpha=alpha).numpy()
        for _ in range(2):
            _same(_matmul.addmv(np.broadcast_to(bias, (m,)), a, v, beta, alpha), want)


def test_plans_per_layout():
    """Which layouts get a plan: row- or column-major matrices and positive vector strides, float32/float64 only."""
    f = np.float32
    assert _matmul._mv_plan(np.zeros((4, 3), f), np.zeros(3, f))
    assert _matmul._mv_plan(np.zeros((4, 3), f).T, np.zeros(4, f))
    assert _matmul._mv_plan(np.zeros((4, 8), f)[:, :3], np.zeros(9, f)[::3])
    assert _matmul._mv_plan(np.zeros((4, 3)), np.zeros(3))
    assert not _matmul._mv_plan(np.zeros((4, 6), f)[:, ::2], np.zeros(3, f))   # (copied by addmv)
    assert not _matmul._mv_plan(np.zeros((4, 3), f), np.broadcast_to(np.zeros(1, f), (3,)))   # (stride 0)
    assert not _matmul._mv_plan(np.zeros((0, 3), f), np.zeros(3, f))
    assert not _matmul._mv_plan(np.zeros((4, 0), f), np.zeros(0, f))
    assert not _matmul._mv_plan(np.zeros((4, 3), np.complex64), np.zeros(3, np.complex64))
    assert not _matmul._mv_plan(np.zeros((4, 3), np.float16), np.zeros(3, np.float16))
    assert not _matmul._mv_plan(np.zeros((4, 3), f), np.zeros(3))


def test_planned_path_makes_one_unchecked_call(monkeypatch):
    """With a plan, addmv neither converts arguments through ctypes (the checked ``_GEMV``) nor syncs threads."""
    rng = np.random.default_rng(2)
    a, v = rng.standard_normal((9, 5)).astype(np.float32), rng.standard_normal(5).astype(np.float32)
    _matmul.mv(a, v)   # (the plan, and MKL's thread count set)
    calls = []
    checked = dict(_matmul._GEMV)
    monkeypatch.setattr(_matmul, "_GEMV", {k: (lambda *args, f=f: calls.append(1) or f(*args))
                                           for k, f in checked.items()})
    _matmul.mv(a, v)
    assert calls == []
    _matmul.mv(a[:, ::2], v[::2])   # (copied matrix: the general path, the checked gemv)
    assert calls == [1]


@pytest.mark.parametrize("case", ["strided", "stride0", "empty_m", "empty_n", "int64", "float16", "complex64",
                                  "bias_float64"])
def test_declined_cases_match_pytorch(case):
    """The cases the plan declines give PyTorch's results through the general path."""
    torch = torch_or_skip()
    rng = np.random.default_rng(3)
    f = np.float32
    a, v, bias = rng.standard_normal((6, 4)).astype(f), rng.standard_normal(4).astype(f), np.zeros(6, f)
    if case == "strided":
        a = _matrix(rng.standard_normal((6, 4)).astype(f), "S")
    elif case == "stride0":
        v = np.broadcast_to(rng.standard_normal(1).astype(f), (4,))
    elif case == "empty_m":
        a, bias = np.zeros((0, 4), f), np.zeros(0, f)
    elif case == "empty_n":
        a, v = np.zeros((6, 0), f), np.zeros(0, f)
    elif case == "int64":
        a, v, bias = (x.astype(np.int64) * 0 + np.arange(x.size).reshape(x.shape) for x in (a, v, bias))
    elif case in ("float16", "complex64"):
        a, v, bias = (x.astype(case) for x in (a, v, bias))
    if case == "bias_float64":
        # (PyTorch's addmv refuses mixed dtypes; internal callers may pass one: the promoting general path)
        got = _matmul.addmv(np.broadcast_to(np.ones(6), (6,)), a, v, 1, 1)
        want = torch.mv(torch.from_numpy(a), torch.from_numpy(v)).double() + 1
        assert got.dtype == np.float64
        np.testing.assert_allclose(got, want.numpy(), rtol=1e-6)
        return
    tv = torch.from_numpy(v[:1].copy()).expand(4) if case == "stride0" else _t(torch, v)
    want = torch.mv(_t(torch, a), tv).numpy()
    got = _matmul.mv(a, v)
    assert got.dtype == want.dtype and got.shape == want.shape
    if case == "complex64":   # (PyTorch's own complex gemv loop rounds otherwise than NumPy's: close, as before)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    else:
        assert got.tobytes() == want.tobytes()


def test_beta_zero_leaves_nan_bias_unread():
    torch = torch_or_skip()
    a, v = np.ones((3, 2), np.float32), np.ones(2, np.float32)
    bias = np.full(3, np.nan, np.float32)
    got = _matmul.addmv(bias, a, v, 0, 2)
    want = torch.addmv(torch.from_numpy(bias), torch.from_numpy(a), torch.from_numpy(v), beta=0, alpha=2).numpy()
    _same(got, want)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_mv_gradients_equal_pytorch(dtype):
    """mv, matmul of a matrix and a vector, and addmv through a real backward (MvBackward0's Aᵀ·g, a column-major
    matrix) and a double backward give PyTorch's gradients, bit for bit."""
    torch = torch_or_skip()
    rng = np.random.default_rng(4)
    a0, v0, b0 = rng.standard_normal((20, 7)), rng.standard_normal(7), rng.standard_normal(20)
    grads = []
    for lib in (minigrad, torch):
        dt = getattr(lib, dtype)
        a, v, b = (lib.tensor(x, dtype=dt, requires_grad=True) for x in (a0, v0, b0))
        y = (lib.mv(a, v).tanh() * lib.matmul(a, v)).sum() + lib.addmv(b, a, v, beta=0.5, alpha=2.0).pow(2).sum()
        ga, gv = lib.autograd.grad(y, (a, v), create_graph=True)
        (ga.sum() + (gv * gv).sum()).backward()
        grads.append([t.detach().numpy() for t in (y, ga, gv, a.grad, v.grad, b.grad)])
    for got, want in zip(*grads):
        _same(got, want)
