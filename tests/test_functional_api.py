"""torch.autograd.functional: jacobian, hessian, vjp, jvp, hvp, vhp — values, structure and errors."""
import pytest

import minigrad as torch
from minigrad.autograd import functional as F
from tests.parity import assert_close, run_both


def _d(values):
    return torch.tensor(values, dtype=torch.float64)


def test_jacobian_of_elementwise_function_is_diagonal():
    jac = F.jacobian(lambda x: x ** 2 * 3, _d([1.0, 2.0]))
    assert jac.tolist() == [[6.0, 0.0], [0.0, 12.0]]
    assert not jac.requires_grad


def test_structure_follows_tuples():
    x, y = _d([1.0, 2.0]), _d([3.0, 4.0])
    jac = F.jacobian(lambda a, b: (a * b, (a * b).sum()), (x, y))
    assert isinstance(jac, tuple) and len(jac) == 2 and all(isinstance(r, tuple) and len(r) == 2 for r in jac)
    assert jac[0][0].tolist() == [[3.0, 0.0], [0.0, 4.0]]
    assert jac[1][1].shape == torch.Size([2])
    single_out = F.jacobian(lambda a, b: a * b, (x, y))
    assert isinstance(single_out, tuple) and single_out[1].tolist() == [[1.0, 0.0], [0.0, 2.0]]
    assert F.jacobian(lambda a: a.sum(), torch.ones(2, 3)).shape == torch.Size([2, 3])


def test_hessian_hvp_vhp():
    x, v = _d([1.0, 2.0]), _d([1.0, -1.0])
    assert F.hessian(lambda a: (a ** 3).sum(), x).tolist() == [[6.0, 0.0], [0.0, 12.0]]
    out, hv = F.hvp(lambda a: (a ** 3).sum(), x, v)
    assert (out.item(), hv.tolist()) == (9.0, [6.0, -12.0])
    out, vh = F.vhp(lambda a, b: (a ** 2 * b).sum(), (x, _d([3.0, 4.0])), (v, v))
    assert [t.tolist() for t in vh] == [[8.0, -12.0], [2.0, -4.0]]


def test_vjp_and_jvp():
    x, v = _d([1.0, 2.0]), _d([1.0, -1.0])
    out, vj = F.vjp(lambda a: a ** 2 * 3, x, v)
    assert (out.tolist(), vj.tolist()) == ([3.0, 12.0], [6.0, -12.0])
    out, jv = F.jvp(lambda a: a ** 2 * 3, x, v)
    assert jv.tolist() == [6.0, -12.0]
    out, jv = F.jvp(lambda a: a.sum(), x, v, create_graph=True)
    assert jv.item() == 0.0


def test_create_graph_keeps_results_differentiable():
    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    jac = F.jacobian(lambda a: a ** 3, x, create_graph=True)
    assert jac.requires_grad
    jac.sum().backward()
    assert x.grad.tolist() == [6.0, 12.0]   # d/dx Σ 3x² = 6x


def test_forward_mode_jacobian_matches_reverse_mode():
    x, y = _d([1.0, 2.0]), _d([3.0, 4.0])
    f = lambda a, b: (a * b, a.exp().sum() * b)  # noqa: E731
    fwd = F.jacobian(f, (x, y), vectorize=True, strategy="forward-mode")
    rev = F.jacobian(f, (x, y))
    for i in range(2):
        for j in range(2):
            assert_close(fwd[i][j], rev[i][j])


def test_errors():
    x, v = _d([1.0, 2.0]), _d([1.0, -1.0])
    with pytest.raises(RuntimeError, match="The vector v can only be None if the user-provided function returns"):
        F.vjp(lambda a: a * 2, x)
    with pytest.raises(RuntimeError, match=r"v has invalid size: should be torch.Size\(\[2\]\) but got"):
        F.vjp(lambda a: a * 2, x, torch.ones(3))
    with pytest.raises(TypeError, match="must be either a Tensor or a tuple of Tensors"):
        F.jvp(lambda a: a, [x], v)
    with pytest.raises(RuntimeError, match="should contain a single element"):
        F.hessian(lambda a: a * 2, x)
    with pytest.raises(RuntimeError, match="independent of input 1. This is not allowed in strict mode"):
        F.jacobian(lambda a, b: a * 2, (x, v), strict=True)


def test_outputs_print_like_pytorch():
    program = """
import torch
F = torch.autograd.functional
x = torch.tensor([1.0, 2.0], dtype=torch.float64)
y = torch.tensor([3.0, 4.0], dtype=torch.float64)
v = torch.tensor([1.0, -1.0], dtype=torch.float64)
def g(a, b): return (a * b, a.exp().sum() * b)
def s2(a, b): return (a ** 2 * b).sum()
print(F.jacobian(g, (x, y)))
print(F.jacobian(g, (x, y), vectorize=True, strategy="forward-mode"))
print(F.hessian(s2, (x, y)))
print(F.vjp(g, (x, y), (v, v)))
print(F.jvp(g, (x, y), (v, v)))
print(F.hvp(s2, (x, y), (v, v), create_graph=True))
print(F.jacobian(lambda a, b: a * 2, (x, y)))
for call in [lambda: F.vjp(g, (x, y), (v,)), lambda: F.jvp(lambda a: a, 3.0, v),
             lambda: F.hvp(lambda a: a * 2, x, v),
             lambda: F.vjp(lambda a: torch.ones(2), x, v, strict=True),
             lambda: F.jacobian(lambda a: a * 2, x, strict=True, vectorize=True),
             lambda: F.hessian(lambda a: (a * 2).sum(), x, strict=True),
             lambda: F.jacobian(lambda a: a * 2, x, strategy="forward-mode")]:
    try:
        print(call())
    except Exception as e:
        print(type(e).__name__, e)
"""
    ours, theirs = run_both(program)
    assert ours == theirs
