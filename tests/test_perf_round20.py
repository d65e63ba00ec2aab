"""The fast path of #8 round 20 (bench/PROFILE.md): ``_matmul.mm``'s MKL call from a plan kept per layout.

``_matmul.mm`` (every ``mm`` / ``matmul`` of two matrices and MmBackward0's two products) worked out, for each
product, which operand is MKL's first matrix, the CBLAS transpose flags and the leading dimensions
(``_addmm_into``, ``_as_blas_matrix``, ``_gemm``). All of it depends only on the operands' shapes, strides and
dtypes, so round 20 works it out once per layout (``_mm_plan``) and makes the same gemm call from the plan.
Layouts that need a copy of an operand, empty products and non-MKL dtypes get no plan (False) and take
the general path as before (k = 1 did too until round 23). Every product is compared with ``torch.mm`` on the
same layout (bytes, strides, dtype); spies check which products take the plan.
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


def _laid_out(x: np.ndarray, kind: str) -> np.ndarray:
    """x as a row-major ("C"), column-major ("F"), every-other-column ("S") or read-only row-major ("R") array."""
    if kind == "C":
        return np.ascontiguousarray(x)
    if kind == "F":
        return np.asfortranarray(x)
    if kind == "S":
        big = np.zeros((x.shape[0], 2 * x.shape[1]), x.dtype)
        big[:, ::2] = x
        return big[:, ::2]
    y = np.ascontiguousarray(x)
    y.flags.writeable = False
    return y


def _torch_mm(torch, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``torch.mm`` on tensors of the same layouts (a read-only array is copied: from_numpy warns on it)."""
    t = [torch.from_numpy(x if x.flags.writeable else x.copy()) for x in (a, b)]
    return torch.mm(*t).numpy()


def _same(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape and got.strides == want.strides
    assert got.tobytes() == want.tobytes()


def _plan_of(a, b):
    return _matmul._MM_PLANS.get((a.shape, a.strides, b.shape, b.strides, a.dtype, b.dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(1, 2, 1), (1, 5, 16), (3, 2, 1), (17, 16, 33), (100, 2, 16), (100, 16, 16),
                                   (16, 100, 16), (100, 16, 1), (2, 100, 3)])
def test_plan_gives_torch_bits(shape, dtype):
    """Every layout pair, first product (plan made) and second (plan used), equals torch.mm."""
    torch = torch_or_skip()
    m, k, n = shape
    rng = np.random.default_rng(m * 10_000 + k * 100 + n)
    for ka, kb in itertools.product("CFSR", repeat=2):
        a = _laid_out(rng.standard_normal((m, k)).astype(dtype), ka)
        b = _laid_out(rng.standard_normal((k, n)).astype(dtype), kb)
        _matmul._MM_PLANS.clear()
        want = _torch_mm(torch, a, b)
        _same(_matmul.mm(a, b), want)
        _same(_matmul.mm(a, b), want)


def test_which_layouts_get_a_plan():
    """Row- and column-major operands get one (k = 1 too since round 23); a copied (every-other-column) operand,
    empty products, integer, float16 and complex operands do not (False: the general path)."""
    rng = np.random.default_rng(0)
    f32 = rng.standard_normal((6, 4)).astype(np.float32)
    w = rng.standard_normal((4, 3)).astype(np.float32)
    _matmul._MM_PLANS.clear()
    for a, b in [(f32, w), (f32.T.copy().T, w), (f32, np.asfortranarray(w)), (w.T, f32.T), (f32[:, :1], w[:1])]:
        _matmul.mm(a, b)
        assert _plan_of(a, b), (a.strides, b.strides)
    declined = [(_laid_out(f32, "S"), w), (f32[:0], w), (f32[:, :0], w[:0]),
                (f32.astype(np.int64), w.astype(np.int64)), (f32.astype(np.float16), w.astype(np.float16)),
                (f32.astype(np.complex64), w.astype(np.complex64)), (f32, w.astype(np.float64))]
    for a, b in declined:
        _matmul.mm(a, b)
        assert _plan_of(a, b) is False, (a.dtype, b.dtype, a.shape, b.shape, a.strides, b.strides)


def test_declined_products_keep_their_results():
    """The products without a plan give PyTorch's results as before (dtype, shape, strides, bytes)."""
    torch = torch_or_skip()
    rng = np.random.default_rng(1)
    f32 = rng.standard_normal((6, 4)).astype(np.float32)
    w = rng.standard_normal((4, 3)).astype(np.float32)
    cases = [(_laid_out(f32, "S"), w), (f32[:, :1].copy(), w[:1].copy()), (f32[:0], w), (f32[:, :0], w[:0]),
             (f32.astype(np.float64), w.astype(np.float64)), (f32.astype(np.complex64), w.astype(np.complex64))]
    for a, b in cases:
        _matmul._MM_PLANS.clear()
        for _ in range(2):
            _same(_matmul.mm(a, b), _torch_mm(torch, a, b))


def test_plan_makes_no_general_call(monkeypatch):
    """With a plan, mm calls neither _addmm_into nor _as_blas_matrix; without one (a copied operand), it does."""
    rng = np.random.default_rng(2)
    a = rng.standard_normal((100, 16)).astype(np.float32)
    b = rng.standard_normal((16, 16)).astype(np.float32)
    _matmul.mm(a, b)   # (makes the plan, and syncs MKL's thread count)
    calls = []
    real = _matmul._addmm_into
    monkeypatch.setattr(_matmul, "_addmm_into", lambda *args: calls.append(1) or real(*args))
    _matmul.mm(a, b)
    _matmul.mm(a.T, a)
    _matmul.mm(a.T, a)
    assert calls == []
    s = _laid_out(a, "S")
    _matmul.mm(s, b)
    assert calls == [1]


def test_thread_count_change_takes_the_general_path(monkeypatch):
    """A new intra-op thread count is set in MKL by the general path before the plan is used again."""
    torch = torch_or_skip()
    rng = np.random.default_rng(3)
    a = rng.standard_normal((64, 48)).astype(np.float32)
    b = rng.standard_normal((48, 40)).astype(np.float32)
    _matmul.mm(a, b)
    minigrad.set_num_threads(2)
    torch.set_num_threads(2)
    synced = []
    real = _matmul._sync_threads
    monkeypatch.setattr(_matmul, "_sync_threads", lambda: synced.append(1) or real())
    _same(_matmul.mm(a, b), _torch_mm(torch, a, b))
    assert synced == [1] and _matmul._mkl_threads[0] == 2
    _same(_matmul.mm(a, b), _torch_mm(torch, a, b))
    assert synced == [1]


def test_mlp_gradients_equal_torch():
    """A W4-style MLP (forward products, MmBackward0's transposed products): gradients equal PyTorch's bits."""
    torch = torch_or_skip()
    rng = np.random.default_rng(4)
    data = {"x": rng.standard_normal((100, 2)), "y": rng.standard_normal((100, 1))}
    dims = [2, 16, 16, 1]
    for i in range(3):
        data[f"W{i}"] = rng.standard_normal((dims[i], dims[i + 1])) / np.sqrt(dims[i])
        data[f"b{i}"] = rng.standard_normal(dims[i + 1]) * 0.1
    for dtype in (np.float32, np.float64):
        grads = []
        for lib in (minigrad, torch):
            t = {k: lib.from_numpy(v.astype(dtype)) for k, v in data.items()}
            for k in t:
                if k[0] in "Wb":
                    t[k].requires_grad_()
            for _ in range(2):   # (the second step runs from the plans)
                h = (t["x"].matmul(t["W0"]) + t["b0"]).tanh()
                h = (h.mm(t["W1"]) + t["b1"]).tanh()
                loss = ((h @ t["W2"] + t["b2"] - t["y"]) ** 2).mean()
                loss.backward()
            grads.append({k: v.grad.numpy() for k, v in t.items() if k[0] in "Wb"})
        for k, g in grads[0].items():
            _same(g, grads[1][k])


def test_double_backward_through_mm_equals_torch():
    """create_graph: MmBackward0's products are recorded ops (mm on tensors), the second gradients equal PyTorch's."""
    torch = torch_or_skip()
    rng = np.random.default_rng(5)
    a0, b0 = rng.standard_normal((5, 4)).astype(np.float32), rng.standard_normal((4, 3)).astype(np.float32)
    out = []
    for lib in (minigrad, torch):
        a, b = lib.from_numpy(a0.copy()).requires_grad_(), lib.from_numpy(b0.copy()).requires_grad_()
        (ga,) = lib.autograd.grad((a.mm(b) ** 2).sum(), a, create_graph=True)
        (ga * ga).sum().backward()
        out.append((ga.detach().numpy(), a.grad.numpy(), b.grad.numpy()))
    for got, want in zip(*out):
        _same(got, want)
