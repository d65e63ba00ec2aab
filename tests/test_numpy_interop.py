"""NumPy next to minigrad as next to PyTorch: ``axis=`` / ``keepdims=`` names, ndarray operands and NumPy functions."""
import warnings

import numpy as np
import pytest
from parity import torch_or_skip

import minigrad as torch

AXIS_CALLS = [
    "t.sum(axis=0)", "t.sum(axis=1, keepdims=True)", "t.mean(axis=0)", "torch.sum(t, axis=1)", "t.max(axis=1)",
    "t.argmax(axis=1)", "torch.cat([t, t], axis=0)", "torch.stack([t, t], axis=1).shape", "t.std(axis=0)",
    "t.var(axis=1, keepdims=True)", "t.softmax(axis=1)", "torch.softmax(t, axis=1)", "t.cumsum(axis=0)",
    "t.squeeze(axis=0)", "t.unsqueeze(axis=0).shape", "t.prod(axis=0)", "t.any(axis=0)", "t.all(axis=1)",
    "t.amax(axis=0)", "t.logsumexp(axis=1)", "t.min(axis=0)", "t.median(axis=0)", "t.sort(axis=1)",
    "t.argsort(axis=1)", "t.sum(dim=0, keepdims=True)", "t.nansum(axis=0)", "t.topk(2, axis=1)",
    "t.index_select(axis=0, index=torch.tensor([1]))", "t.chunk(2, axis=1)", "t.size(axis=0)",
    "torch.mean(t, axis=(0, 1))", "t.log_softmax(axis=1)", "t.sum(axis=0, dim=0)", "t.norm(axis=1)",
    "torch.split(t, 1, axis=0)", "t.unique(axis=0)",
    "t.sum(keepdims=True)", "t.mean(keepdims=True)", "torch.sum(t, keepdims=True)",  # (errors name keepdims)
]
OPERAND_CALLS = [
    "t * a", "a * t", "t + a", "a + t", "t - a", "a - t", "t / a", "a / t", "t * a64", "a64 * t", "t * s0", "s0 * t",
    "x * s0", "x + a", "a + x", "t @ a", "a @ t", "ti * a", "t == a", "a == t", "t != a", "t < a", "t ** a",
    "a ** t", "a % ti", "a // ti", "torch.add(t, a)", "torch.mul(x, a)", "torch.pow(t, a)", "t.pow_(a)",
    "x == a", "np.exp(t)", "np.exp(x)", "np.add(ti, ti)", "np.equal(t, t)", "np.sqrt(torch.tensor(4.))",
    "np.float32(3) + t", "torch.tensor(None)", "torch.tensor({1, 2})", "torch.tensor(b'ab')",
]
INPLACE = ["+=", "-=", "*=", "/=", "**=", "@=", "//=", "%="]


def _outcome(lib, call: str) -> str:
    env = {"torch": lib, "np": np, "t": lib.arange(6.0).reshape(2, 3)[:, :2].contiguous(),
           "x": lib.tensor([1.0, 2.0], requires_grad=True), "ti": lib.tensor([1, 2]),
           "a": np.array([3.0, 4.0], dtype=np.float32), "a64": np.array([3.0, 4.0]), "s0": np.array(2.0)}
    if call.startswith("t") and "axis" not in call and "dim" not in call:
        env["t"] = lib.tensor([1.0, 2.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result = eval(call, env)
            return f"{type(result).__name__} {result!r}"
        except Exception as e:  # noqa: BLE001 - the error is what is compared
            return f"{type(e).__name__}: {e}".replace("Tensor.", "")  # (PyTorch's Python methods' qualname)


@pytest.mark.parametrize("call", AXIS_CALLS + OPERAND_CALLS)
def test_matches_pytorch(call):
    real = torch_or_skip()
    assert _outcome(torch, call) == _outcome(real, call)


def _inplace(lib, op: str) -> str:
    t = lib.tensor([1.0, 2.0])
    before = t
    env = {"t": t, "a": np.array([3.0, 4.0], dtype=np.float32)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(f"t {op} a", env)
    return f"{env['t']!r} same object: {env['t'] is before}"


@pytest.mark.parametrize("op", INPLACE)
def test_inplace_operator_with_ndarray_falls_back_as_pytorch(op):
    real = torch_or_skip()
    assert _inplace(torch, op) == _inplace(real, op)


def test_numpy_names_without_torch():
    t = torch.arange(6.0).reshape(2, 3)
    assert t.sum(axis=0).tolist() == [3.0, 5.0, 7.0]
    assert t.mean(axis=1, keepdims=True).shape == (2, 1)
    assert torch.cat([t, t], axis=1).shape == (2, 6)
    with pytest.raises(TypeError, match="got an unexpected keyword argument 'axis'"):
        t.sum(axis=0, dim=0)
    with pytest.raises(TypeError):
        t.norm(axis=1)  # (written in Python in PyTorch: no NumPy names)


def test_ndarray_operands_without_torch():
    t, a = torch.tensor([1.0, 2.0]), np.array([3.0, 4.0])
    r = t * a  # NumPy's product (float64, as NumPy promotes), wrapped back into a tensor
    assert isinstance(r, torch.Tensor) and r.dtype == torch.float64 and r.tolist() == [3.0, 8.0]
    with pytest.raises(TypeError, match="unsupported operand"):
        a - t
    with pytest.raises(RuntimeError, match="Can't call numpy\\(\\) on Tensor that requires grad"):
        torch.tensor([1.0], requires_grad=True) * a
    with pytest.raises(TypeError, match="argument 'other' \\(position 2\\) must be Tensor, not numpy.ndarray"):
        torch.mul(t, a)
    assert (t == np.array([1.0, 5.0])).tolist() == [True, False]
    assert isinstance(np.exp(t), torch.Tensor)
    assert 2.0 in t and 3.0 not in t
    with pytest.raises(RuntimeError, match="only supports Tensor or scalar"):
        t.__contains__("a")
