"""torch.func (grad, vjp, jvp, jacrev, jacfwd, hessian, linearize, vmap, functional_call, stack_module_state).

Hand-computed checks run without PyTorch; the parity programs run once with minigrad and once with PyTorch and
must print the same (values, reprs, exception types and messages).
"""
from __future__ import annotations

import numpy as np
import pytest
from parity import requires_torch, run_both, same_as_torch

import minigrad
from minigrad import nn
from minigrad.func import (
    functional_call,
    grad,
    grad_and_value,
    hessian,
    jacfwd,
    jacrev,
    jvp,
    linearize,
    stack_module_state,
    vjp,
    vmap,
)


def _np(t):
    return t.detach().numpy()


# ---- hand-computed values (no torch needed) -------------------------------------------------------------

def test_grad_and_higher_derivatives_of_x_cubed():
    x = minigrad.tensor(2.0)
    cube = lambda x: x ** 3  # noqa: E731
    assert grad(cube)(x).item() == 12.0                 # 3x²
    assert grad(grad(cube))(x).item() == 12.0           # 6x
    assert grad(grad(grad(cube)))(x).item() == 6.0     # 6
    g, v = grad_and_value(cube)(x)
    assert (g.item(), v.item()) == (12.0, 8.0)


def test_nested_grad_with_a_captured_outer_input():
    x = minigrad.tensor([1.0, 2.0, 3.0])

    def f(x):
        return grad(lambda y: (x * y).sum())(x).sum()      # inner gradient is x (captured): f(x) = Σx
    assert grad(f)(x).tolist() == [1.0, 1.0, 1.0]
    # inner: d/dy Σ x·y² at y = 2x is 4x², so the outer gradient is 8x
    assert grad(lambda x: grad(lambda y: (x * y * y).sum())(x * 2).sum())(x).tolist() == [8.0, 16.0, 24.0]


def test_results_detached_unless_something_outside_requires_grad():
    x = minigrad.tensor([1.0, 2.0])
    g = grad(lambda x: (x ** 2).sum())(x)
    assert g.grad_fn is None and not g.requires_grad
    xr = minigrad.tensor([1.0, 2.0], requires_grad=True)
    g = grad(lambda x: (x ** 3).sum())(xr)              # 3x², still differentiable w.r.t. xr
    g.sum().backward()
    np.testing.assert_allclose(xr.grad.numpy(), [6.0, 12.0])  # 6x
    w = minigrad.tensor(3.0, requires_grad=True)        # a captured tensor that requires grad
    g = grad(lambda x: (w * x ** 2).sum())(x)           # 2wx
    assert g.grad_fn is not None
    g.sum().backward()
    assert w.grad.item() == 6.0                          # Σ 2x


def test_grad_argnums_pytrees_and_aux():
    x, y = minigrad.tensor([1.0, 2.0]), minigrad.tensor([3.0, 4.0])
    gx, gy = grad(lambda x, y: (x * y).sum(), argnums=(0, 1))(x, y)
    np.testing.assert_array_equal(gx.numpy(), [3.0, 4.0])
    np.testing.assert_array_equal(gy.numpy(), [1.0, 2.0])
    assert grad(lambda x, y: (x * y).sum(), argnums=-1)(x, y).tolist() == [1.0, 2.0]
    g = grad(lambda d: (d["a"] * d["b"][0]).sum())({"a": x, "b": [y]})
    assert g["a"].tolist() == [3.0, 4.0] and g["b"][0].tolist() == [1.0, 2.0]
    g, aux = grad(lambda x: ((x ** 2).sum(), {"twice": x * 2}), has_aux=True)(x)
    assert g.tolist() == [2.0, 4.0] and aux["twice"].tolist() == [2.0, 4.0]


def test_grad_errors():
    x = minigrad.tensor([1.0, 2.0])
    with pytest.raises(RuntimeError, match="Expected f\\(\\*args\\) to return a scalar Tensor, got tensor with 1 dims"):
        grad(lambda x: x)(x)
    with pytest.raises(RuntimeError, match="Got argnum=1, but only 1 positional inputs"):
        grad(lambda x: x.sum(), argnums=1)(x)
    with pytest.raises(ValueError, match="Thing passed to transform API must be Tensor"):
        grad(lambda x: x.sum())(1.0)


def test_vjp_and_jvp_values():
    x = minigrad.tensor([1.0, 2.0, 3.0])
    out, vjp_fn = vjp(lambda x: x ** 2, x)
    assert out.tolist() == [1.0, 4.0, 9.0]
    (ct,) = vjp_fn(minigrad.tensor([1.0, 0.0, 2.0]))
    assert ct.tolist() == [2.0, 0.0, 12.0]              # v · 2x
    out, tangent = jvp(lambda x: x ** 2, (x,), (minigrad.ones(3),))
    assert tangent.tolist() == [2.0, 4.0, 6.0]
    # cumprod has no forward formula in minigrad: jvp falls back to the double-vjp trick
    _, tangent = jvp(lambda x: minigrad.cumprod(x, 0), (x,), (minigrad.ones(3),))
    assert tangent.tolist() == [1.0, 3.0, 11.0]         # d(x0, x0x1, x0x1x2) along (1, 1, 1)
    out, jvp_fn = linearize(lambda x: x ** 2, x)
    assert jvp_fn(minigrad.tensor([1.0, 1.0, 0.0])).tolist() == [2.0, 4.0, 0.0]


def test_jacobians_and_hessian():
    x = minigrad.tensor([0.5, 1.0, 2.0])
    expected = np.diag(np.cos([0.5, 1.0, 2.0]))
    np.testing.assert_allclose(_np(jacrev(minigrad.sin)(x)), expected, rtol=1e-6)
    np.testing.assert_allclose(_np(jacfwd(minigrad.sin)(x)), expected, rtol=1e-6)
    cubes = lambda x: (x ** 3).sum()  # noqa: E731
    for h in (hessian(cubes)(x), jacrev(jacrev(cubes))(x), jacfwd(jacfwd(cubes))(x)):
        np.testing.assert_allclose(_np(h), np.diag([3.0, 6.0, 12.0]), rtol=1e-6)  # diag(6x)
    jx, jy = jacrev(lambda x, y: x * y, argnums=(0, 1))(x, minigrad.tensor(2.0))
    assert jx.shape == (3, 3) and jy.tolist() == [0.5, 1.0, 2.0]


def test_vmap_shapes_dims_and_gradients():
    a = minigrad.arange(6.0).reshape(2, 3)
    assert vmap(minigrad.sum)(a).tolist() == [3.0, 12.0]
    assert vmap(minigrad.sum, in_dims=1)(a).tolist() == [3.0, 5.0, 7.0]
    assert vmap(lambda r, s: r * s, in_dims=(0, None))(a, minigrad.tensor(2.0)).shape == (2, 3)
    assert vmap(lambda r: r * 2, out_dims=1)(a).shape == (3, 2)
    assert vmap(vmap(lambda e: e + 1))(a).tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    per_row = vmap(grad(lambda r: (r ** 2).sum()))(a)  # per-sample gradients: 2r
    assert per_row.tolist() == [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]
    w = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    vmap(lambda r: (r * w).sum())(a).sum().backward()   # gradients flow through the loop
    assert w.grad.tolist() == [3.0, 5.0, 7.0]
    with pytest.raises(ValueError, match=r"got sizes \[2, 3\] for the mapped dimension"):
        vmap(minigrad.add)(a, minigrad.ones(3))


def test_vmap_of_autograd_grad_reuses_a_graph_made_outside():
    x = minigrad.tensor([1.0, -2.0, 3.0], requires_grad=True)
    y = x ** 2
    (jacobian,) = vmap(lambda v: minigrad.autograd.grad(y, x, v))(minigrad.eye(3))  # every slice's call needs y's graph
    np.testing.assert_array_equal(jacobian.numpy(), np.diag([2.0, -4.0, 6.0]))
    assert minigrad.autograd._vmap_calls_ahead == [0]
    # the last slice's call freed the graph, as PyTorch's one batched call does
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        minigrad.autograd.grad(y, x, minigrad.ones(3))


def test_vmap_randomness_modes():
    z = minigrad.zeros(3, 2)
    with pytest.raises(RuntimeError, match="called random operation while in randomness error mode"):
        vmap(lambda r: r + minigrad.rand(2))(z)
    same = vmap(lambda r: r + minigrad.rand(2), randomness="same")(z)
    assert same[0].tolist() == same[1].tolist() == same[2].tolist()
    different = vmap(lambda r: r + minigrad.rand(2), randomness="different")(z)
    assert different[0].tolist() != different[1].tolist()


class _Affine(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.weight = nn.Parameter(minigrad.tensor([2.0]))
        self.register_buffer("shift", minigrad.tensor([1.0]))

    def forward(self, x):
        if x.sum().item() < 0:
            raise ValueError("negative input")
        return x * self.weight + self.shift


def test_functional_call_swaps_and_restores():
    m = _Affine()
    weight, shift = m.weight, m.shift
    out = functional_call(m, {"weight": minigrad.tensor([10.0])}, (minigrad.tensor([1.0]),))
    assert out.tolist() == [11.0]
    out = functional_call(m, ({"weight": minigrad.tensor([10.0])}, {"shift": minigrad.tensor([0.0])}),
                          minigrad.tensor([1.0]))
    assert out.tolist() == [10.0]
    with pytest.raises(ValueError, match="negative input"):
        functional_call(m, {"weight": minigrad.tensor([10.0])}, (minigrad.tensor([-1.0]),))
    assert m.weight is weight and m.shift is shift         # restored, also after the exception
    with pytest.raises(RuntimeError, match="Missing key\\(s\\): 'shift'"):
        functional_call(m, {"weight": minigrad.tensor([1.0])}, (minigrad.tensor([1.0]),), strict=True)


def test_stack_module_state_and_ensemble_vmap():
    models = [_Affine(), _Affine()]
    models[1].weight.data.fill_(5.0)
    params, buffers = stack_module_state(models)
    assert params["weight"].tolist() == [[2.0], [5.0]] and params["weight"].is_leaf
    assert params["weight"].requires_grad and buffers["shift"].shape == (2, 1)
    out = vmap(lambda p, b, x: functional_call(models[0], (p, b), (x,)), in_dims=(0, 0, None))(
        params, buffers, minigrad.tensor([1.0]))
    assert out.tolist() == [[3.0], [6.0]]


# ---- parity with PyTorch ----------------------------------------------------------------------------------

@requires_torch
def test_values_and_reprs_match_torch():
    same_as_torch("""
from torch.func import grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, vmap, linearize
x = torch.tensor([1., 2., 3.])
f = lambda x: (x ** 2).sum()
print(grad(f)(x)); print(grad_and_value(f)(x))
print(grad(f)(torch.tensor([1., 2., 3.], requires_grad=True)))
w = torch.tensor(2., requires_grad=True)
print(grad(lambda x: (w * x ** 2).sum())(x))
print(grad(grad(lambda x: x.sin()))(torch.tensor(1.)))
print(grad(lambda x: x.sum())(torch.tensor([1., 2.], dtype=torch.float64)))
with torch.no_grad():
    print(grad(f)(x))
with torch.inference_mode():
    print(grad(f)(torch.ones(2)), vjp(torch.sin, torch.ones(2))[1](torch.ones(2)))
print(grad(lambda x: x.detach().sum())(x))
print(hessian(lambda x: x.sin().sum())(x), jacfwd(lambda x: x * torch.tensor([1., -2., 3.]))(x))
print(grad(lambda x: x['a'].sum() * 2)({'a': x, 'b': x}))
print(grad(lambda x: (x.sum(), {'k': x * 2}), has_aux=True)(x))
print(jacrev(torch.sin)(x)); print(jacfwd(torch.sin)(x)); print(jacrev(torch.sin, chunk_size=2)(x))
print(hessian(f)(x))
print(jacrev(lambda x, y: (x * y, x + y), argnums=(0, 1))(x, x))
print(jacfwd(lambda x, y: (x * y, x + y), argnums=(0, 1))(x, x))
print(jacrev(lambda d: {'a': d['p'].sum(), 'b': d['p'][:2] * d['q']})({'p': x, 'q': x[1:]}))
print(jacfwd(lambda d: {'a': d['p'].sum(), 'b': d['p'][:2] * d['q']})({'p': x, 'q': x[1:]}))
print(jacrev(jacrev(lambda x: x.sin().sum()))(x)); print(jacfwd(jacfwd(lambda x: x.sin().sum()))(x))
print(jacfwd(lambda x: (x.sum(), x * 2), has_aux=True)(x)); print(jacrev(lambda x: (x.sum(), x * 2), has_aux=True)(x))
print(hessian(lambda x, y: (x * y * y).sum(), argnums=(0, 1))(x, torch.tensor(2.)))
print(jacrev(lambda x: x.double())(x).dtype, jacfwd(lambda x: x.double())(x).dtype)
o, fn = vjp(torch.sin, x); print(o, fn(torch.ones(3)))
y, fn = vjp(lambda x, y: (x * y, {'s': x.sum()}), x, x + 1)
print(y, fn((torch.ones(3), {'s': torch.tensor(2.)})))
print(jvp(torch.sin, (x,), (torch.ones(3),)))
print(jvp(lambda x, y: x * y, (x, x), (torch.ones(3), torch.zeros(3))))
print(jvp(lambda x: (x.sin(), x), (x,), (torch.ones(3),), has_aux=True))
print(jvp(lambda x: torch.ones(2), (x,), (x,)))
print(jvp(lambda x: torch.cumprod(x, 0), (x,), (torch.ones(3),)))
out, jfn = linearize(torch.sin, x); print(out, jfn(torch.ones(3)))
print(vmap(torch.sin)(x))
print(vmap(grad(lambda x: (x ** 3).sum()))(torch.arange(6.).reshape(3, 2)))
print(vmap(lambda a, b: a @ b, in_dims=(0, None))(torch.ones(4, 2, 3), torch.arange(3.)))
print(vmap(vmap(lambda a, b: a * b), in_dims=(1, None))(torch.arange(6.).reshape(2, 3), torch.tensor([1., 2.])))
print(vmap(lambda x: (x, x.sum()), out_dims=(1, 0))(torch.arange(6.).reshape(2, 3)))
print(vmap(torch.sin, out_dims=(-1,))(torch.ones(2, 3)))
print(vmap(lambda x: (x, 3), out_dims=(0, None))(x))
print(vmap(lambda d: d['a'] * d['b'], in_dims=({'a': 0, 'b': None},))({'a': x, 'b': torch.ones(2, 1)}))
print(vmap(torch.mul, in_dims=(0, None))(x, 3))
print(vmap(jacrev(torch.sin))(torch.ones(4, 5)).shape)
torch.manual_seed(0)
print(vmap(lambda x: x + torch.rand(2), randomness='same')(torch.zeros(3, 2)))
torch.manual_seed(0)
print(vmap(lambda x: x + torch.rand(2), randomness='different')(torch.zeros(3, 2)))
print(torch.vmap is torch.func.vmap, [hasattr(torch.func, n) for n in ('grad', 'grad_and_value', 'vjp', 'jvp', 'jacrev',
      'jacfwd', 'hessian', 'linearize', 'vmap', 'functional_call', 'stack_module_state')])
""")


@requires_torch
def test_errors_match_torch():
    same_as_torch("""
from torch.func import grad, vjp, jvp, jacrev, jacfwd, vmap
x = torch.tensor([1., 2., 3.])
E(lambda: grad(lambda x: x)(x))
E(lambda: grad(lambda x: 1.0)(x))
E(lambda: grad(lambda x: (x.sum(),))(x))
E(lambda: grad(lambda x: x.sum(), argnums=1)(x))
E(lambda: grad(lambda x: x.sum(), argnums=-2)(x))
E(lambda: grad(lambda x: x.sum(), argnums=(0, 0))(x))
E(lambda: grad(lambda x: x.sum(), argnums=())(x))
E(lambda: grad(lambda x: x.sum(), argnums=[0])(x))
E(lambda: grad(lambda x: x.sum(), argnums=0.5)(x))
E(lambda: grad(lambda x: x.sum(), argnums=(0, 'a'))(x))
E(lambda: grad(lambda x: x.sum(), has_aux=True)(x))
E(lambda: grad(lambda x: (x.sum(), 1, 2), has_aux=True)(x))
E(lambda: grad(lambda x: (x.sum(), 1), has_aux=True)(x))
E(lambda: grad(lambda x: (x.sum(), [x, 1]), has_aux=True)(x))
E(lambda: grad(lambda x: x.sum())(3.0))
E(lambda: grad(lambda x: x.sum())(torch.tensor([1, 2])))
E(lambda: grad(lambda x, y: x.sum())(x, 3))
E(lambda: grad(lambda x: x.sum(), argnums=1)(x, 3))
E(lambda: grad(lambda x: x.sum())())
E(lambda: vmap(torch.sin)(x, x))
E(lambda: vmap(torch.add)(x, torch.ones(4)))
E(lambda: vmap(torch.add, in_dims=(0, 1))(x, torch.ones(4)))
E(lambda: vmap(torch.add, in_dims=(0,))(x, torch.ones(4)))
E(lambda: vmap(torch.add, in_dims=[0, 0])(x, torch.ones(3)))
E(lambda: vmap(torch.add, in_dims=(0, 'a'))(x, torch.ones(3)))
E(lambda: vmap(torch.add, in_dims=(0, 0))(x, 3))
E(lambda: vmap(torch.add, in_dims=(None, None))(x, x))
E(lambda: vmap(torch.sin)())
E(lambda: vmap(torch.sin, out_dims='a')(x))
E(lambda: vmap(torch.sin, out_dims=(0, 1))(x))
E(lambda: vmap(torch.sin, out_dims=2)(x))
E(lambda: vmap(lambda x: 3)(x))
E(lambda: vmap(lambda x: x, out_dims=None)(x))
E(lambda: vmap(lambda x: (x, x), out_dims=(0, 0, 0))(x))
E(lambda: vmap(lambda x: (x, x), out_dims=[0, 0])(x))
E(lambda: vmap(torch.sin, randomness='foo')(x))
E(lambda: vmap(torch.sin, chunk_size=0)(x))
E(lambda: vmap(lambda x: x + torch.rand(1))(x))
def named(a): return a
E(lambda: vmap(named, in_dims=(2,))(x))
E(lambda: vmap(named, in_dims=({'a': 0},))(x))
E(lambda: vmap(named, in_dims=({'a': 0, 'b': None},))({'a': x, 'b': 1}))
E(lambda: vjp(torch.sin, x)[1](torch.ones(2)))
E(lambda: vjp(torch.sin, x)[1]((torch.ones(3),)))
E(lambda: vjp(lambda x: (x, [x]), x)[1]((x, x)))
E(lambda: vjp(lambda x: {'a': x}, x)[1]({'b': x}))
E(lambda: vjp(lambda x: 3, x))
E(lambda: vjp(lambda x: None, x))
E(lambda: vjp(lambda x: (x > 0), x))
E(lambda: vjp(lambda x: x, x, has_aux=True))
E(lambda: vjp(torch.sin, 3.0))
E(lambda: jvp(torch.sin, x, x))
E(lambda: jvp(torch.sin, (x,), (x, x)))
E(lambda: jvp(torch.sin, (x,), (torch.ones(2),)))
E(lambda: jvp(lambda x: 3, (x,), (x,)))
E(lambda: jvp(lambda x: x, (x,), (x,), has_aux=True))
E(lambda: jvp(torch.sin, (), ()))
E(lambda: jvp(torch.sin, (3.,), (3.,)))
E(lambda: jvp(torch.sin, (torch.tensor([1, 2]),), (torch.tensor([1, 2]),)))
E(lambda: jvp(lambda x: torch.ones(2), (x,), (x,), strict=True))
E(lambda: jacrev(torch.sin, chunk_size=0))
E(lambda: jacrev(torch.sin)(torch.tensor([1j])))
E(lambda: jacfwd(torch.sin)(torch.tensor([1j])))
E(lambda: jacrev(lambda x: x.abs())(torch.tensor([1j, 2])))
""")


@requires_torch
def test_functional_call_and_stack_module_state_match_torch():
    same_as_torch("""
from torch.func import functional_call, stack_module_state, vmap, grad
torch.manual_seed(0)
m = torch.nn.Linear(3, 2)
x = torch.randn(4, 3)
w = torch.ones(2, 3)
print(functional_call(m, {'weight': w}, (x,)))
print(functional_call(m, ({'weight': w}, {'bias': torch.zeros(2)}), x))
print(functional_call(m, {'weight': w, 'bias': torch.zeros(2)}, args=(), kwargs={'input': x}))
print(m.weight.shape, type(m.weight).__name__)
E(lambda: functional_call(m, {'weight': w}, (x,), strict=True))
E(lambda: functional_call(m, {'weight': w, 'extra': w}, (x,), strict=True))
E(lambda: functional_call(m, ({'weight': w}, {'weight': w}), (x,)))
E(lambda: functional_call(m, ({'weight': w}, 3), (x,)))
E(lambda: functional_call(m, 3, (x,)))
E(lambda: functional_call(m, {'weight': w}, (torch.ones(4, 5),)))
print(m.weight.shape, type(m.weight).__name__)
class Tied(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(2, 2, bias=False)
        self.b = torch.nn.Linear(2, 2, bias=False)
        self.b.weight = self.a.weight
    def forward(self, x):
        return self.b(self.a(x))
t = Tied()
print(functional_call(t, {'a.weight': torch.eye(2) * 2}, (torch.ones(1, 2),)))
print(functional_call(t, {'a.weight': torch.eye(2) * 2}, (torch.ones(1, 2),), tie_weights=False).shape)
E(lambda: functional_call(t, {'a.weight': torch.eye(2), 'b.weight': torch.eye(2) * 3}, (torch.ones(1, 2),)))
models = [torch.nn.Linear(3, 2) for _ in range(3)]
params, buffers = stack_module_state(models)
print({k: (tuple(v.shape), v.requires_grad, v.is_leaf) for k, v in params.items()}, buffers)
print(vmap(lambda p, b, x: functional_call(models[0], (p, b), (x,)), in_dims=(0, 0, None))(params, buffers, x).shape)
E(lambda: stack_module_state([]))
E(lambda: stack_module_state([torch.nn.Linear(3, 2), torch.nn.ReLU()]))
E(lambda: stack_module_state([torch.nn.Linear(3, 2), torch.nn.Linear(3, 2).eval()]))
bn = torch.nn.BatchNorm1d(3)
print(functional_call(bn, {'running_mean': torch.ones(3)}, (torch.randn(5, 3),)).shape, bn.running_mean)
from torch.func import functionalize, debug_unwrap, replace_all_batch_norm_modules_
def f(a):
    b = a + 1
    b.view(-1).add_(1)
    return b
print(functionalize(f)(x[0]), functionalize(f, remove='mutations_and_views')(x[0]), debug_unwrap(x[1]))
E(lambda: functionalize(f, remove='x'))
seq = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.BatchNorm1d(3))
print(replace_all_batch_norm_modules_(seq) is seq, seq[1].running_mean, seq[1].track_running_stats)
print(dict(seq.named_buffers()))
print(vmap(seq)(torch.randn(4, 2, 3)).shape)
""")


@requires_torch
def test_vmap_docstring_examples_match_torch():
    same_as_torch("""
torch.manual_seed(0)
batched_dot = torch.func.vmap(torch.dot)
x, y = torch.randn(2, 5), torch.randn(2, 5)
print(batched_dot(x, y))
batch_size, feature_size = 3, 5
weights = torch.randn(feature_size, requires_grad=True)
def model(feature_vec):
    return feature_vec.dot(weights).relu()
examples = torch.randn(batch_size, feature_size)
result = torch.vmap(model)(examples)
print(result.detach(), result.requires_grad)
N = 5
f = lambda x: x**2
x = torch.randn(N, requires_grad=True)
y = f(x)
I_N = torch.eye(N)
jacobian_rows = [torch.autograd.grad(y, x, v, retain_graph=True)[0] for v in I_N.unbind()]
jacobian = torch.stack(jacobian_rows)
def get_vjp(v):
    return torch.autograd.grad(y, x, v)
print(torch.vmap(get_vjp)(I_N))
batched_dot = torch.vmap(torch.vmap(torch.dot))
x, y = torch.randn(2, 3, 5), torch.randn(2, 3, 5)
print(batched_dot(x, y))
batched_dot = torch.vmap(torch.dot, in_dims=1)
x, y = torch.randn(2, 5), torch.randn(2, 5)
print(batched_dot(x, y))
batched_dot = torch.vmap(torch.dot, in_dims=(0, None))
x, y = torch.randn(2, 5), torch.randn(5)
print(batched_dot(x, y))
f = lambda dict: torch.dot(dict["x"], dict["y"])
x, y = torch.randn(2, 5), torch.randn(5)
input = {"x": x, "y": y}
batched_dot = torch.vmap(f, in_dims=({"x": 0, "y": None},))
print(batched_dot(input))
f = lambda x: x**2
x = torch.randn(2, 5)
print(torch.vmap(f, out_dims=1)(x))
def fn(x, scale=4.):
    return x * scale
batched_pow = torch.vmap(fn)
print(torch.allclose(batched_pow(x), x * 4), batched_pow(x, scale=x).shape)
""")


_JACOBIANS_TUTORIAL = '''
import torch
import torch.nn.functional as F
from functools import partial
_ = torch.manual_seed(0)

def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()

D = 16
weight = torch.randn(D, D)
bias = torch.randn(D)
x = torch.randn(D)

def compute_jac(xp):
    jacobian_rows = [torch.autograd.grad(predict(weight, bias, xp), xp, vec)[0]
                     for vec in unit_vectors]
    return torch.stack(jacobian_rows)

xp = x.clone().requires_grad_()
unit_vectors = torch.eye(D)
jacobian = compute_jac(xp)
print(jacobian.shape)
print(jacobian[0])

from torch.func import vmap, vjp
_, vjp_fn = vjp(partial(predict, weight, bias), x)
ft_jacobian, = vmap(vjp_fn)(unit_vectors)
assert torch.allclose(ft_jacobian, jacobian)

from torch.func import jacrev
ft_jacobian = jacrev(predict, argnums=2)(weight, bias, x)
assert torch.allclose(ft_jacobian, jacobian)
print(ft_jacobian[0])
ft_jac_weight, ft_jac_bias = jacrev(predict, argnums=(0, 1))(weight, bias, x)
print(ft_jac_weight.shape, ft_jac_bias.shape)

from torch.func import jacrev, jacfwd
Din = 8
Dout = 32
weight = torch.randn(Dout, Din)
bias = torch.randn(Dout)
x = torch.randn(Din)
using_fwd = jacfwd(predict, argnums=2)(weight, bias, x)
using_bwd = jacrev(predict, argnums=2)(weight, bias, x)
print(f'jacfwd: {using_fwd.shape}, jacrev: {using_bwd.shape}')
print(torch.allclose(using_fwd, using_bwd, atol=1e-6))

from torch.func import hessian
Din = 6
Dout = 4
weight = torch.randn(Dout, Din)
bias = torch.randn(Dout)
x = torch.randn(Din)
hess_api = hessian(predict, argnums=2)(weight, bias, x)
hess_fwdfwd = jacfwd(jacfwd(predict, argnums=2), argnums=2)(weight, bias, x)
hess_revrev = jacrev(jacrev(predict, argnums=2), argnums=2)(weight, bias, x)
print(hess_api.shape, torch.allclose(hess_api, hess_fwdfwd, atol=1e-6),
      torch.allclose(hess_api, hess_revrev, atol=1e-6))
print(hess_api[0, :2, :3])

batch_size = 4
Din = 5
Dout = 6
weight = torch.randn(Dout, Din)
bias = torch.randn(Dout)
x = torch.randn(batch_size, Din)
compute_batch_jacobian = vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))
batch_jacobian0 = compute_batch_jacobian(weight, bias, x)
print(batch_jacobian0.shape)

def predict_with_output_summed(weight, bias, x):
    return predict(weight, bias, x).sum(0)

batch_jacobian1 = jacrev(predict_with_output_summed, argnums=2)(weight, bias, x).movedim(1, 0)
assert torch.allclose(batch_jacobian0, batch_jacobian1)
compute_batch_hessian = vmap(hessian(predict, argnums=2), in_dims=(None, None, 0))
batch_hess = compute_batch_hessian(weight, bias, x)
print(batch_hess.shape)

from torch.func import jvp, grad, vjp

def hvp(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]

def f(x):
    return x.sin().sum()

x = torch.randn(2048)
tangent = torch.randn(2048)
result = hvp(f, (x,), (tangent,))

def hvp_revrev(f, primals, tangents):
    _, vjp_fn = vjp(grad(f), *primals)
    return vjp_fn(*tangents)

result_hvp_revrev = hvp_revrev(f, (x,), (tangent,))
assert torch.allclose(result, result_hvp_revrev[0])
print(result[:4])
'''


@requires_torch
def test_jacobians_hessians_tutorial_prints_the_same():
    mine, theirs = run_both(_JACOBIANS_TUTORIAL)
    assert mine == theirs and "torch.Size([4, 6, 5, 5])" in mine


_PER_SAMPLE_GRADIENTS_TUTORIAL = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)

class SimpleCNN(nn.Module):
    def __init__(self):
        super(SimpleCNN, self).__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.conv2 = nn.Conv2d(4, 8, 3, 1)
        self.fc1 = nn.Linear(72, 16)
        self.fc2 = nn.Linear(16, 10)

    def forward(self, x):
        x = self.conv1(x)
        x = F.relu(x)
        x = self.conv2(x)
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.fc2(x)
        output = F.log_softmax(x, dim=1)
        return output

def loss_fn(predictions, targets):
    return F.nll_loss(predictions, targets)

device = 'cpu'
batch_size = 6
data = torch.randn(batch_size, 1, 10, 10, device=device)
targets = torch.randint(10, (batch_size,), device=device)
model = SimpleCNN().to(device=device)
predictions = model(data)
loss = loss_fn(predictions, targets)

def compute_grad(sample, target):
    sample = sample.unsqueeze(0)
    target = target.unsqueeze(0)
    prediction = model(sample)
    loss = loss_fn(prediction, target)
    return torch.autograd.grad(loss, list(model.parameters()))

def compute_sample_grads(data, targets):
    sample_grads = [compute_grad(data[i], targets[i]) for i in range(batch_size)]
    sample_grads = zip(*sample_grads)
    sample_grads = [torch.stack(shards) for shards in sample_grads]
    return sample_grads

per_sample_grads = compute_sample_grads(data, targets)
print(per_sample_grads[1].shape)

from torch.func import functional_call, vmap, grad

params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}

def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    targets = target.unsqueeze(0)
    predictions = functional_call(model, (params, buffers), (batch,))
    loss = loss_fn(predictions, targets)
    return loss

ft_compute_grad = grad(compute_loss)
ft_compute_sample_grad = vmap(ft_compute_grad, in_dims=(None, None, 0, 0))
ft_per_sample_grads = ft_compute_sample_grad(params, buffers, data, targets)
for per_sample_grad, ft_per_sample_grad in zip(per_sample_grads, ft_per_sample_grads.values()):
    assert torch.allclose(per_sample_grad, ft_per_sample_grad, atol=3e-3, rtol=1e-5)
print({k: tuple(v.shape) for k, v in ft_per_sample_grads.items()})
print(ft_per_sample_grads['fc2.bias'][:2])
print(ft_per_sample_grads['fc2.bias'].grad_fn, type(model.fc2.weight).__name__)
'''


@requires_torch
def test_per_sample_gradients_tutorial_prints_the_same():
    mine, theirs = run_both(_PER_SAMPLE_GRADIENTS_TUTORIAL)
    assert mine == theirs and "'conv1.weight': (6, 4, 1, 3, 3)" in mine


_ENSEMBLING_TUTORIAL = '''
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import vmap
from torch.func import functional_call, stack_module_state
torch.manual_seed(0)

class SimpleMLP(nn.Module):
    def __init__(self):
        super(SimpleMLP, self).__init__()
        self.fc1 = nn.Linear(16, 8)
        self.fc2 = nn.Linear(8, 4)

    def forward(self, x):
        x = x.flatten(1)
        x = F.relu(self.fc1(x))
        return self.fc2(x)

num_models = 3
data = torch.randn(5, 6, 1, 4, 4)
models = [SimpleMLP() for _ in range(num_models)]
minibatches = data[:num_models]
predictions_diff_minibatch_loop = [model(minibatch) for model, minibatch in zip(models, minibatches)]
minibatch = data[0]
predictions2 = [model(minibatch) for model in models]
params, buffers = stack_module_state(models)
base_model = copy.deepcopy(models[0])
base_model = base_model.to('meta')

def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))

print([p.size(0) for p in params.values()])
predictions1_vmap = vmap(fmodel)(params, buffers, minibatches)
assert torch.allclose(predictions1_vmap, torch.stack(predictions_diff_minibatch_loop), atol=1e-3, rtol=1e-5)
predictions2_vmap = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
assert torch.allclose(predictions2_vmap, torch.stack(predictions2), atol=1e-3, rtol=1e-5)
print(predictions2_vmap.shape, predictions2_vmap[0, 0, :3])
'''


@requires_torch
def test_model_ensembling_tutorial_prints_the_same():
    mine, theirs = run_both(_ENSEMBLING_TUTORIAL)
    assert mine == theirs and "torch.Size([3, 6, 4])" in mine


_NEURAL_TANGENT_KERNELS_TUTORIAL = '''
import torch
import torch.nn as nn
from torch.func import functional_call, vmap, vjp, jvp, jacrev
torch.manual_seed(0)
device = 'cpu'

class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 4, (3, 3))
        self.conv2 = nn.Conv2d(4, 4, (3, 3))
        self.fc = nn.Linear(64, 3)

    def forward(self, x):
        x = self.conv1(x)
        x = x.relu()
        x = self.conv2(x)
        x = x.flatten(1)
        x = self.fc(x)
        return x

x_train = torch.randn(4, 3, 8, 8, device=device)
x_test = torch.randn(2, 3, 8, 8, device=device)
net = CNN().to(device)
net.eval()
params = {k: v.detach() for k, v in net.named_parameters()}

def fnet_single(params, x):
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)

def empirical_ntk_jacobian_contraction(fnet_single, params, x1, x2, compute='full'):
    jac1 = vmap(jacrev(fnet_single), (None, 0))(params, x1)
    jac1 = jac1.values()
    jac1 = [j.flatten(2) for j in jac1]
    jac2 = vmap(jacrev(fnet_single), (None, 0))(params, x2)
    jac2 = jac2.values()
    jac2 = [j.flatten(2) for j in jac2]
    einsum_expr = None
    if compute == 'full':
        einsum_expr = 'Naf,Mbf->NMab'
    elif compute == 'trace':
        einsum_expr = 'Naf,Maf->NM'
    elif compute == 'diagonal':
        einsum_expr = 'Naf,Maf->NMa'
    result = torch.stack([torch.einsum(einsum_expr, j1, j2) for j1, j2 in zip(jac1, jac2)])
    result = result.sum(0)
    return result

result = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test)
print(result.shape)
result = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, 'trace')
print(result.shape)

def empirical_ntk_ntk_vps(func, params, x1, x2, compute='full'):
    def get_ntk(x1, x2):
        def func_x1(params):
            return func(params, x1)

        def func_x2(params):
            return func(params, x2)

        output, vjp_fn = vjp(func_x1, params)

        def get_ntk_slice(vec):
            vjps = vjp_fn(vec)
            _, jvps = jvp(func_x2, (params,), vjps)
            return jvps

        basis = torch.eye(output.numel(), dtype=output.dtype, device=output.device).view(output.numel(), -1)
        return vmap(get_ntk_slice)(basis)

    result = vmap(vmap(get_ntk, (None, 0)), (0, None))(x1, x2)
    if compute == 'full':
        return result
    if compute == 'trace':
        return torch.einsum('NMKK->NM', result)
    if compute == 'diagonal':
        return torch.einsum('NMKK->NMK', result)

result_from_jacobian_contraction = empirical_ntk_jacobian_contraction(fnet_single, params, x_test, x_train)
result_from_ntk_vps = empirical_ntk_ntk_vps(fnet_single, params, x_test, x_train)
assert torch.allclose(result_from_jacobian_contraction, result_from_ntk_vps, atol=1e-5)
print(result_from_ntk_vps.shape, result_from_ntk_vps[0, 0])
'''


@requires_torch
def test_neural_tangent_kernels_tutorial_prints_the_same():
    mine, theirs = run_both(_NEURAL_TANGENT_KERNELS_TUTORIAL)
    assert mine == theirs and "torch.Size([2, 4, 3, 3])" in mine
