"""The fast path of #8 round 21 (bench/PROFILE.md): ``_matmul.addmm`` (``torch.addmm``, ``nn.Linear`` and
``F.linear`` with a bias) makes its gemm call from mm's per-layout plan (round 20's ``_mm_plan``).

addmm copies the bias into a fresh row-major result and then makes the same gemm call as ``mm`` with β and α;
the flags and leading dimensions depend only on the operands' shapes, strides and dtypes, so the plan serves it
too. Layouts that need a copy of an operand, k = 1, empty products, non-MKL dtypes and a bias of another dtype
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


def _torch_addmm(torch, bias, a, b, beta, alpha) -> np.ndarray:
    t = [torch.from_numpy(x if x.flags.writeable else x.copy()) for x in (bias, a, b)]
    return torch.addmm(*t, beta=beta, alpha=alpha).numpy()


def _same(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape and got.strides == want.strides
    assert got.tobytes() == want.tobytes()


_SHAPES = [(100, 16, 16), (1, 7, 5), (6, 7, 1), (4, 2, 9), (33, 100, 10), (128, 64, 3)]
_SCALARS = [(1, 1), (0, 1), (0.5, 2), (1, 0.3), (-1.5, 1e-3)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("la,lb", [("C", "C"), ("C", "F"), ("F", "C"), ("F", "F"), ("R", "F"), ("C", "R")])
def test_addmm_planned_bits(dtype, la, lb):
    """The planned addmm equals torch.addmm bit for bit: first call (plan made) and second (plan used)."""
    torch = torch_or_skip()
    rng = np.random.default_rng(21)
    for (m, k, n), (beta, alpha) in itertools.product(_SHAPES, _SCALARS):
        a = _laid_out(rng.standard_normal((m, k)).astype(dtype), la)
        b = _laid_out(rng.standard_normal((k, n)).astype(dtype), lb)
        for bias in (rng.standard_normal(n).astype(dtype), rng.standard_normal((m, n)).astype(dtype),
                     rng.standard_normal((m, 1)).astype(dtype)):
            want = _torch_addmm(torch, bias, a, b, beta, alpha)
            for _ in range(2):
                _same(_matmul.addmm(bias, a, b, beta, alpha), want)


def test_addmm_takes_the_plan(monkeypatch):
    """A planned layout makes no _addmm_into call; a declined one (copied operand) makes one."""
    rng = np.random.default_rng(1)
    a = rng.standard_normal((10, 6)).astype(np.float32)
    b = rng.standard_normal((6, 4)).astype(np.float32)
    bias = rng.standard_normal(4).astype(np.float32)
    _matmul.addmm(bias, a, b, 1, 1)   # (sets MKL's thread count)
    calls = []
    real = _matmul._addmm_into
    monkeypatch.setattr(_matmul, "_addmm_into", lambda *args: calls.append(1) or real(*args))
    _matmul.addmm(bias, a, b, 1, 1)
    assert calls == []
    _matmul.addmm(bias, _laid_out(a, "S"), b, 1, 1)
    assert calls == [1]


@pytest.mark.parametrize("case", ["strided", "k1", "empty_m", "empty_k", "int64", "float16", "complex64",
                                  "bias_f64"])
def test_addmm_declined_cases(case):
    """Cases without a plan give PyTorch's results (bits where MKL runs; values for NumPy's kernels)."""
    torch = torch_or_skip()
    rng = np.random.default_rng(2)
    m, k, n = 5, 4, 3
    dt = np.float32
    if case == "k1":
        k = 1
    if case == "empty_m":
        m = 0
    if case == "empty_k":
        k = 0
    if case in ("int64", "float16", "complex64"):
        dt = {"int64": np.int64, "float16": np.float16, "complex64": np.complex64}[case]
    a = (rng.standard_normal((m, k)) * 4).astype(dt)
    b = (rng.standard_normal((k, n)) * 4).astype(dt)
    bias = (rng.standard_normal(n) * 4).astype(dt)
    if case == "strided":
        a = _laid_out(a, "S")
    beta, alpha = (1, 1) if case in ("int64", "bias_f64") else (0.5, 2)
    if case == "bias_f64":   # (torch.addmm refuses mixed dtypes; the array kernel promotes)
        got = _matmul.addmm(bias.astype(np.float64), a, b, beta, alpha)
        want = bias.astype(np.float64) + (a @ b).astype(np.float64)
        np.testing.assert_allclose(got, want, rtol=1e-6)
        assert got.dtype == np.float64
        return
    want = _torch_addmm(torch, bias, a, b, beta, alpha)
    got = _matmul.addmm(bias, a, b, beta, alpha)
    if case == "float16":
        np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float32), rtol=2e-3, atol=2e-2)
        assert got.dtype == want.dtype
    else:
        _same(got, want)


def test_addmm_nan_bias_unread_with_beta_zero():
    """β = 0: the bias is not read (its NaNs do not reach the result), with and without a plan."""
    torch = torch_or_skip()
    a = np.arange(12, dtype=np.float32).reshape(4, 3) / 7
    b = np.arange(6, dtype=np.float32).reshape(3, 2) / 3
    bias = np.full(2, np.nan, np.float32)
    for _ in range(2):
        _same(_matmul.addmm(bias, a, b, 0, 1), _torch_addmm(torch, bias, a, b, 0, 1))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_linear_mlp_gradients(dtype):
    """nn.Linear forward (AddmmBackward0) and backward over two steps equal PyTorch's bits."""
    torch = torch_or_skip()
    rng = np.random.default_rng(3)
    x = rng.standard_normal((64, 20))
    weights = [rng.standard_normal((16, 20)) / 5, rng.standard_normal(16), rng.standard_normal((10, 16)) / 4,
               rng.standard_normal(10)]
    results = []
    for lib in (torch, minigrad):
        lib.manual_seed(0)
        net = lib.nn.Sequential(lib.nn.Linear(20, 16), lib.nn.Tanh(), lib.nn.Linear(16, 10)).to(getattr(lib, dtype))
        with lib.no_grad():
            for p, w in zip(net.parameters(), weights):
                p.copy_(lib.tensor(w))
        out = []
        xt = lib.tensor(x, dtype=getattr(lib, dtype))
        for _ in range(2):
            net.zero_grad()
            y = net(xt)
            (y * y).sum().backward()
            out.append(y.detach().numpy().tobytes())
            out.extend(p.grad.numpy().tobytes() for p in net.parameters())
        results.append(out)
    assert results[0] == results[1]


def test_linear_3d_input_and_double_backward():
    """F.linear on a 3-D input (folded into one addmm) and a double backward through addmm equal PyTorch's."""
    torch = torch_or_skip()
    rng = np.random.default_rng(4)
    x, w, bias = rng.standard_normal((3, 5, 8)), rng.standard_normal((6, 8)), rng.standard_normal(6)
    results = []
    for lib in (torch, minigrad):
        xt = lib.tensor(x, dtype=lib.float32, requires_grad=True)
        wt = lib.tensor(w, dtype=lib.float32, requires_grad=True)
        bt = lib.tensor(bias, dtype=lib.float32, requires_grad=True)
        y = lib.nn.functional.linear(xt, wt, bt)
        gx, = lib.autograd.grad((y * y).sum(), xt, create_graph=True)
        gw, = lib.autograd.grad((gx * gx).sum(), wt)
        z = lib.addmm(bt, xt[0], wt.t(), beta=0.5, alpha=3)
        results.append([y.detach().numpy().tobytes(), gx.detach().numpy().tobytes(), gw.numpy().tobytes(),
                        z.detach().numpy().tobytes()])
    assert results[0] == results[1]


def test_tensor_attribute_assignment_keeps_cpythons_fast_slot():
    # A class defining __delattr__ (or __setattr__) gets CPython's slot_tp_setattro for *every* assignment:
    # session 14's `del t.data` refusal written as Tensor.__delattr__ cost W4 +28% instructions per step.
    # The refusals live in the properties' deleters instead; the slots stay deletable (a known gap).
    import minigrad
    from minigrad._tensor import Tensor
    for cls in Tensor.__mro__[:-1]:
        assert "__delattr__" not in vars(cls) and "__setattr__" not in vars(cls), cls
    torch = pytest.importorskip("torch")
    for T in (torch, minigrad):
        x = T.ones(2, requires_grad=True)
        for name in ("data", "requires_grad"):
            with pytest.raises(RuntimeError) as err:
                delattr(x, name)
            assert str(err.value) == {"data": "Deleting tensor data is not allowed. Delete tensor instead!",
                                      "requires_grad": "requires_grad must be a bool"}[name]
