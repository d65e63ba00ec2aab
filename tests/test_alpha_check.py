"""add / sub / rsub (and add_ / sub_) refuse an alpha that does not fit the result dtype (PyTorch's alpha_check);
mm / bmm / addmm / baddbmm raise PyTorch's TypeErrors for arguments of the wrong type."""
import itertools

import numpy as np
import pytest
from parity import torch_or_skip

import minigrad as torch

OPERANDS = ["torch.tensor([True])", "torch.tensor([1])", "torch.tensor([1.])", "torch.tensor([1j])", "2", "2.5", "True"]
ALPHAS = ["True", "0.5", "1j", "2", "False", "1.0"]


def _outcome(lib, fn: str, a: str, b: str, alpha: str) -> str:
    env = {"torch": lib}
    try:
        if fn.endswith("_"):
            result = getattr(eval(a, env), fn)(eval(b, env), alpha=eval(alpha))
        else:
            result = getattr(lib, fn)(eval(a, env), eval(b, env), alpha=eval(alpha))
        return repr(result)
    except Exception as e:  # noqa: BLE001 - the error itself is what is compared
        return f"{type(e).__name__}: {e}"


@pytest.mark.parametrize("fn", ["add", "sub", "rsub", "add_", "sub_"])
def test_alpha_errors_match_pytorch(fn):
    real = torch_or_skip()
    for a, b, alpha in itertools.product(OPERANDS[:4], OPERANDS, ALPHAS):
        assert _outcome(torch, fn, a, b, alpha) == _outcome(real, fn, a, b, alpha), (fn, a, b, alpha)


def test_alpha_errors_without_torch():
    with pytest.raises(RuntimeError, match="For integral input tensors, argument alpha must not be a floating point"):
        torch.add(torch.tensor([1, 2]), torch.tensor([3, 4]), alpha=0.5)
    with pytest.raises(RuntimeError, match="Boolean alpha only supported for Boolean results."):
        torch.sub(torch.tensor([1.0]), 2, alpha=True)
    with pytest.raises(RuntimeError, match="For non-complex input tensors, argument alpha must not be a complex"):
        torch.tensor([1.0]).add_(1, alpha=1j)
    # a float result takes any real alpha; an int result an int one
    assert torch.add(torch.tensor([1]), torch.tensor([1.0]), alpha=0.5).tolist() == [1.5]
    assert torch.sub(torch.tensor([5]), torch.tensor([1]), alpha=2).tolist() == [3]


PRODUCT_CALLS = ["torch.bmm(B, 3)", "torch.bmm(3, B)", "torch.mm(A, 3)", "torch.mm(3, A)", "A.mm(3)", "B.bmm(3)",
                 "torch.addmm(A, A, A, beta='a')", "torch.addmm(A, A, 3)", "torch.addmm(A, A, A, alpha=None)",
                 "torch.baddbmm(B, B, B, alpha='x')", "torch.baddbmm(B, B, 3)", "torch.addmm(A, A, A, beta=0.5)"]


def _product_outcome(lib, call: str) -> str:
    env = {"torch": lib, "A": lib.ones(2, 2), "B": lib.ones(1, 2, 2)}
    try:
        return repr(eval(call, env))
    except Exception as e:  # noqa: BLE001 - the error itself is what is compared
        return f"{type(e).__name__}: {e}"


@pytest.mark.parametrize("call", PRODUCT_CALLS)
def test_matrix_product_type_errors_match_pytorch(call):
    real = torch_or_skip()
    assert _product_outcome(torch, call) == _product_outcome(real, call)


def test_matrix_product_type_errors_without_torch():
    assert _product_outcome(torch, "torch.mm(A, 3)") == (
        "TypeError: mm(): argument 'mat2' (position 2) must be Tensor, not int")
    assert _product_outcome(torch, "A.mm(3)") == "TypeError: mm(): argument 'mat2' (position 1) must be Tensor, not int"
    assert _product_outcome(torch, "torch.baddbmm(B, B, 3)") == (
        "TypeError: baddbmm(): argument 'batch2' (position 3) must be Tensor, not int")
    assert _product_outcome(torch, "torch.addmm(A, A, A, beta='a')").startswith(
        "TypeError: addmm() received an invalid combination of arguments - got (Tensor, Tensor, Tensor, beta=str)")


COMPLEX_SCALED_PRODUCTS = [
    ("addmm", lambda T, a, b, c: T.addmm(c, a, b, beta=1j, alpha=2 + 1j), (2, 2)),
    ("baddbmm", lambda T, a, b, c: T.baddbmm(c, a, b, beta=1 - 1j, alpha=0.5j), (1, 2, 2)),
]


@pytest.mark.parametrize("name, fn, shape", COMPLEX_SCALED_PRODUCTS, ids=[c[0] for c in COMPLEX_SCALED_PRODUCTS])
def test_complex_alpha_beta_gradients_are_conjugated(name, fn, shape):
    """d/d self = conj(beta), d/d mat1 = conj(alpha) G Bᴴ (PyTorch's maybe_multiply(..., alpha.conj()))."""
    real = torch_or_skip()
    rng = np.random.default_rng(0)
    data = [(rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(np.complex64) for _ in range(3)]
    grads = []
    for T in (torch, real):
        ts = [T.tensor(d, requires_grad=True) for d in data]
        fn(T, *ts).abs().sum().backward()
        grads.append([t.grad.detach().numpy() for t in ts])
    for mine, theirs in zip(*grads):
        np.testing.assert_allclose(mine, theirs, rtol=1e-5, atol=1e-6)


def test_complex_beta_gradient_without_torch():
    c = torch.zeros(1, 1, dtype=torch.complex64, requires_grad=True)
    a, b = torch.ones(1, 1, dtype=torch.complex64), torch.ones(1, 1, dtype=torch.complex64)
    torch.addmm(c, a, b, beta=1j).real.sum().backward()
    assert c.grad.tolist() == [[-1j]]  # Re(beta·c): the gradient is conj(beta) = -i
