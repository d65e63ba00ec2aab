"""Hand-written torch.autograd.functional and torch.func programs (session 12), run with minigrad and with PyTorch.

Written as users write them, not generated: torch.autograd.functional's jacobian / hessian / vjp / jvp / hvp / vhp
(create_graph, strict=True and its exact errors, vectorize=True, strategy='forward-mode', tuple inputs and outputs,
outputs independent of the inputs, non-Tensor outputs), and the PyTorch tutorials "Jacobians, Hessians, hvp, vhp,
and more: composing function transforms" (jacrev, jacfwd, hessian, hvp as jvp of grad, vmap of jacrev, chunk_size,
argnums), "Neural Tangent Kernels" (functional_call + vmap(jacrev) + einsum, the 'full' / 'trace' / 'diagonal'
variants, the NTK-vector-products way), "Forward-mode Automatic Differentiation" (dual_level, make_dual,
unpack_dual and its namedtuple, a module with dual parameters directly and through functional_call, a custom
Function with jvp, torch.func.jvp, jacfwd) and "Per-sample gradients" (vmap(grad(compute_loss)), in_dims), with the
errors students hit on the way (wrong argnums, has_aux misuse, in_dims mismatches, vmap over Python numbers, jvp
tangents of the wrong shape or dtype, nested dual levels). Both stdouts must be identical once object addresses
are masked. The models are small and float64 where PyTorch's batched kernels may differ from its unbatched ones
in the last bits (there a program prints allclose's boolean).
"""
# ruff: noqa: E501  (the programs are stored as users write them: a line is one statement, not reflowed)
from __future__ import annotations

import re
import warnings

import pytest
from parity import run_both

PROGRAMS: dict[str, str] = {}

PROGRAMS['autograd_functional'] = r'''
import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
def exp_reducer(x):
    return x.exp().sum(dim=1)
x = torch.tensor([[0.5, -1.0], [2.0, 0.25]], dtype=torch.float64)
print(jacobian(exp_reducer, x))
print(jacobian(exp_reducer, x, create_graph=True))
print(jacobian(exp_reducer, x, vectorize=True))
print(jacobian(exp_reducer, x, vectorize=True, strategy='forward-mode'))
E(lambda: jacobian(exp_reducer, x, strategy='forward-mode'))
E(lambda: jacobian(exp_reducer, x, strategy='sideways'))
E(lambda: jacobian(exp_reducer, x, create_graph=True, strategy='forward-mode', vectorize=True))
def exp_adder(x, y):
    return 2 * x.exp() + 3 * y
a = torch.tensor([0.1, -0.2], dtype=torch.float64)
b = torch.tensor([1.5, 0.3], dtype=torch.float64)
J = jacobian(exp_adder, (a, b))
print(type(J), len(J), J)
def two_out(x, y):
    return x * y, x.sin()
J2 = jacobian(two_out, (a, b))
print(type(J2), type(J2[0]), J2)
print(jacobian(two_out, a * 1, vectorize=True) if False else jacobian(lambda x: (x * 2, x.cos()), a))
# outputs independent of the inputs
def indep(x):
    return torch.ones(2, dtype=torch.float64)
print(jacobian(indep, a))
E(lambda: jacobian(indep, a, strict=True))
E(lambda: jacobian(indep, a, strict=True, vectorize=True))
def half_indep(x, y):
    return x * 2
print(jacobian(half_indep, (a, b)))
E(lambda: jacobian(half_indep, (a, b), strict=True))
# non-Tensor outputs
E(lambda: jacobian(lambda x: 3.0, a))
E(lambda: jacobian(lambda x: [x, 2], a))
E(lambda: jacobian(lambda x: x, 3.0))
E(lambda: jacobian(lambda x: x.detach(), a, strict=True))
print(jacobian(lambda x: x.detach(), a))
# hessian
def pow_reducer(x):
    return x.pow(3).sum()
print(hessian(pow_reducer, a))
print(hessian(pow_reducer, a, create_graph=True))
print(hessian(pow_reducer, a, vectorize=True))
print(hessian(pow_reducer, a, vectorize=True, outer_jacobian_strategy='forward-mode'))
def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()
print(hessian(pow_adder_reducer, (a, b)))
E(lambda: hessian(lambda x: x.pow(2), a))
E(lambda: hessian(lambda x: (x * 2).sum(), a, strict=True))
print(hessian(lambda x: (x * 2).sum(), a))
E(lambda: hessian(pow_reducer, a, outer_jacobian_strategy='forward-mode'))
E(lambda: hessian(lambda x: (x.sum(), x.sum()), a))
# vjp / jvp
v = torch.ones(2, dtype=torch.float64)
print(vjp(exp_reducer, x, v))
print(vjp(exp_reducer, x, v, create_graph=True))
print(vjp(lambda x: x.sum(), a))
E(lambda: vjp(exp_reducer, x))
E(lambda: vjp(exp_reducer, x, torch.ones(3, dtype=torch.float64)))
print(vjp(exp_adder, (a, b), v))
print(vjp(indep, a, v))
E(lambda: vjp(indep, a, v, strict=True))
E(lambda: vjp(indep, a, v, strict=True, create_graph=True))
print(jvp(exp_reducer, x, torch.ones(2, 2, dtype=torch.float64)))
print(jvp(exp_reducer, x, torch.ones(2, 2, dtype=torch.float64), create_graph=True))
print(jvp(exp_adder, (a, b), (v, v)))
E(lambda: jvp(exp_reducer, x))
E(lambda: jvp(exp_adder, (a, b), (v,)))
E(lambda: jvp(exp_adder, (a, b), (v, torch.ones(3, dtype=torch.float64))))
print(jvp(indep, a, v))
E(lambda: jvp(indep, a, v, strict=True))
print(jvp(lambda x: x.sum(), torch.tensor(2.0, dtype=torch.float64)))
# hvp / vhp
print(hvp(pow_reducer, a, v))
print(vhp(pow_reducer, a, v))
print(hvp(pow_reducer, a, v, create_graph=True))
print(vhp(pow_adder_reducer, (a, b), (v, v)))
print(hvp(pow_adder_reducer, (a, b), (v, v)))
E(lambda: hvp(pow_reducer, a))
E(lambda: vhp(lambda x: x * 2, a, v))
E(lambda: hvp(lambda x: (x * 2).sum(), a, v, strict=True))
E(lambda: vhp(lambda x: (x * 2).sum(), a, v, strict=True))
print(hvp(lambda x: (x * 2).sum(), a, v))
print(vhp(lambda x: (x * 2).sum(), a, v))
E(lambda: vhp(pow_reducer, a, torch.ones(3, dtype=torch.float64)))
E(lambda: hvp(lambda x: 2.0, a, v))
# float32 and gradient bits
xf = torch.tensor([0.3, -1.7, 2.2])
print(jacobian(lambda t: t.tanh() * t, xf))
print(hessian(lambda t: (t.sin() * t).sum(), xf))
print(jacobian(lambda t: t.tanh() * t, xf, vectorize=True))
print(jacobian(lambda t: t.tanh() * t, xf).dtype, jacobian(lambda t: t.tanh() * t, xf).requires_grad)
r = jacobian(lambda t: t.tanh() * t, xf, create_graph=True)
print(r.requires_grad, r.grad_fn)
xg = xf.clone().requires_grad_()
r = jacobian(lambda t: t.tanh() * t, xg, create_graph=True)
print(r.requires_grad, type(r.grad_fn).__name__)
r.sum().backward()
print(xg.grad)
'''

PROGRAMS['jacobians_hessians_tutorial'] = r'''
import torch
import torch.nn.functional as F
from functools import partial
from torch.func import jacrev, jacfwd, vmap, vjp, jvp, grad, hessian
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
torch.manual_seed(0)
def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()
D = 4
weight = torch.randn(D, D, dtype=torch.float64)
bias = torch.randn(D, dtype=torch.float64)
x = torch.randn(D, dtype=torch.float64)
xp = x.clone().requires_grad_()
unit_vectors = torch.eye(D, dtype=torch.float64)
def compute_jac(xp):
    jacobian_rows = [torch.autograd.grad(predict(weight, bias, xp), xp, vec)[0] for vec in unit_vectors]
    return torch.stack(jacobian_rows)
jacobian = compute_jac(xp)
print(jacobian.shape)
print(jacobian[0])
ft_jacobian = jacrev(predict, argnums=2)(weight, bias, x)
print(torch.allclose(ft_jacobian, jacobian), (ft_jacobian - jacobian).abs().max())
ft_jac_weight, ft_jac_bias = jacrev(predict, argnums=(0, 1))(weight, bias, x)
print(ft_jac_weight.shape, ft_jac_bias.shape)
print(ft_jac_bias)
jf = jacfwd(predict, argnums=2)(weight, bias, x)
print(torch.allclose(jf, ft_jacobian))
print(jacfwd(predict, argnums=(0, 1))(weight, bias, x)[1])
# hessians
print(hessian(predict, argnums=2)(weight, bias, x).shape)
hess_api = hessian(predict, argnums=2)(weight, bias, x)
hess_fwdfwd = jacfwd(jacfwd(predict, argnums=2), argnums=2)(weight, bias, x)
hess_revrev = jacrev(jacrev(predict, argnums=2), argnums=2)(weight, bias, x)
print(torch.allclose(hess_api, hess_fwdfwd), torch.allclose(hess_api, hess_revrev))
print(hess_api[0])
# batch jacobian
batch_size = 3
xb = torch.randn(batch_size, D, dtype=torch.float64)
compute_batch_jacobian = vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))
batch_jacobian0 = compute_batch_jacobian(weight, bias, xb)
print(batch_jacobian0.shape)
def predict_with_output_summed(weight, bias, x):
    return predict(weight, bias, x).sum(0)
batch_jacobian1 = jacrev(predict_with_output_summed, argnums=2)(weight, bias, xb).movedim(1, 0)
print(batch_jacobian1.shape, torch.allclose(batch_jacobian0, batch_jacobian1))
compute_batch_hessian = vmap(hessian(predict, argnums=2), in_dims=(None, None, 0))
print(compute_batch_hessian(weight, bias, xb).shape)
# hvp
def hvp(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]
def f(x):
    return x.sin().sum()
xh = torch.randn(5, dtype=torch.float64)
th = torch.randn(5, dtype=torch.float64)
print(hvp(f, (xh,), (th,)))
print(torch.allclose(hvp(f, (xh,), (th,)), -xh.sin() * th))
def hvp_revrev(f, primals, tangents):
    _, vjp_fn = vjp(grad(f), *primals)
    return vjp_fn(*tangents)
print(hvp_revrev(f, (xh,), (th,)))
# chunk_size
big = torch.randn(7, dtype=torch.float64)
def g(t):
    return t.sin() * t.cumsum(0)
j_full = jacrev(g)(big)
for cs in (1, 2, 3, 7, 100):
    print(cs, torch.equal(jacrev(g, chunk_size=cs)(big), j_full))
E(lambda: jacrev(g, chunk_size=0)(big))
E(lambda: jacrev(g, chunk_size=-1)(big))
print(jacrev(g, chunk_size=None)(big)[2])
# argnums errors students hit
E(lambda: jacrev(predict, argnums=3)(weight, bias, x))
E(lambda: jacrev(predict, argnums=-4)(weight, bias, x))
E(lambda: jacrev(predict, argnums=(0, 0))(weight, bias, x))
E(lambda: jacrev(predict, argnums=())(weight, bias, x))
E(lambda: jacrev(predict, argnums=1.0)(weight, bias, x))
E(lambda: jacfwd(predict, argnums=5)(weight, bias, x))
E(lambda: jacfwd(predict, argnums=[0, 1])(weight, bias, x))
E(lambda: jacrev(predict, argnums=-1)(weight, bias, x).shape)
E(lambda: jacfwd(predict, argnums=-1)(weight, bias, x).shape)
# has_aux misuse
def with_aux(t):
    y = t.sin()
    return y, {'mean': y.mean()}
j, aux = jacrev(with_aux, has_aux=True)(x)
print(j.shape, aux)
j, aux = jacfwd(with_aux, has_aux=True)(x)
print(j.shape, aux)
E(lambda: jacrev(with_aux)(x))
E(lambda: jacrev(lambda t: t.sin(), has_aux=True)(x))
E(lambda: jacfwd(lambda t: t.sin(), has_aux=True)(x))
E(lambda: jacrev(lambda t: (t.sin(), t, t), has_aux=True)(x))
E(lambda: grad(lambda t: t.sin().sum(), has_aux=True)(x))
E(lambda: grad(lambda t: (t.sin().sum(), 3), has_aux=True)(x))
E(lambda: grad(lambda t: (t.sin().sum(), [t, 3.0]), has_aux=True)(x))
E(lambda: grad(lambda t: t.sin())(x))
E(lambda: grad(lambda t: 3.0)(x))
E(lambda: jacrev(lambda t: 3.0)(x))
E(lambda: jacfwd(lambda t: 3.0)(x))
E(lambda: jacrev(lambda t: t.sin())(3.0))
E(lambda: jacfwd(lambda t: t.sin())(3.0))
E(lambda: jacrev(lambda t: t.sin())(torch.arange(3)))
E(lambda: jacfwd(lambda t: t.sin())(torch.arange(3)))
E(lambda: hessian(lambda t: t.pow(3).sum())(x))
E(lambda: jacrev(lambda a, b: {'s': a + b, 'p': a * b})(x, x))
E(lambda: jacfwd(lambda a, b: [a + b, a * b], argnums=1)(x, x))
E(lambda: jacrev(lambda d: d['a'] * 2)({'a': x[:2]}))
'''

PROGRAMS['neural_tangent_kernels'] = r'''
import torch
import torch.nn as nn
from torch.func import functional_call, vmap, vjp, jvp, jacrev
torch.manual_seed(0)
class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 4, (3, 3))
        self.conv2 = nn.Conv2d(4, 4, (3, 3))
        self.fc = nn.Linear(4, 3)
    def forward(self, x):
        x = self.conv1(x)
        x = x.relu()
        x = self.conv2(x)
        x = x.relu()
        x = x.mean((-1, -2))
        x = self.fc(x)
        return x
x_train = torch.randn(3, 3, 6, 6, dtype=torch.float64)
x_test = torch.randn(2, 3, 6, 6, dtype=torch.float64)
net = CNN().double()
params = {k: v.detach() for k, v in net.named_parameters()}
print({k: tuple(v.shape) for k, v in params.items()})
def fnet_single(params, x):
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)
def empirical_ntk_jacobian_contraction(fnet_single, params, x1, x2, compute='full'):
    jac1 = vmap(jacrev(fnet_single), (None, 0))(params, x1)
    jac1 = jac1.values()
    jac1 = [j.flatten(2) for j in jac1]
    jac2 = vmap(jacrev(fnet_single), (None, 0))(params, x2)
    jac2 = jac2.values()
    jac2 = [j.flatten(2) for j in jac2]
    if compute == 'full':
        einsum_expr = 'Naf,Mbf->NMab'
    elif compute == 'trace':
        einsum_expr = 'Naf,Maf->NM'
    elif compute == 'diagonal':
        einsum_expr = 'Naf,Maf->NMa'
    else:
        assert False
    result = torch.stack([torch.einsum(einsum_expr, j1, j2) for j1, j2 in zip(jac1, jac2)])
    result = result.sum(0)
    return result
jac = vmap(jacrev(fnet_single), (None, 0))(params, x_train)
print(type(jac).__name__, {k: tuple(v.shape) for k, v in jac.items()})
full = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, 'full')
print(full.shape, full.dtype)
print(full[0, 0])
trace = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, 'trace')
diag = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, 'diagonal')
print(trace.shape, diag.shape)
print(torch.allclose(trace, full.diagonal(dim1=-2, dim2=-1).sum(-1)), torch.allclose(diag, full.diagonal(dim1=-2, dim2=-1)))
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
res_vps = empirical_ntk_ntk_vps(fnet_single, params, x_train, x_test)
print(res_vps.shape, torch.allclose(res_vps, full, atol=1e-10))
print(torch.allclose(empirical_ntk_ntk_vps(fnet_single, params, x_train, x_test, 'trace'), trace))
# float32 shapes and a mismatched einsum the way students write it
net32 = CNN()
p32 = {k: v.detach() for k, v in net32.named_parameters()}
def f32(params, x):
    return functional_call(net32, params, (x.unsqueeze(0),)).squeeze(0)
j32 = vmap(jacrev(f32), (None, 0))(p32, x_train.float())
print({k: (tuple(v.shape), v.dtype) for k, v in j32.items()})
try:
    torch.einsum('Naf,Mbf->NMab', j32['fc.weight'], j32['conv1.weight'])
except Exception as e:
    print(type(e).__name__, e)
try:
    vmap(jacrev(f32), (None, 0))(p32, x_train)
except Exception as e:
    print(type(e).__name__, e)
'''

PROGRAMS['forward_mode_tutorial'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn as nn
from torch.func import functional_call
import torch.func as ft
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
primal = torch.tensor([[0.5, -1.2, 2.0], [0.3, 0.1, -0.7]], dtype=torch.float64)
tangent = torch.tensor([[1.0, 0.5, -0.25], [2.0, -1.0, 0.0]], dtype=torch.float64)
def fn(x, y):
    return x ** 2 + y ** 2
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    print(dual_input)
    print(fwAD.unpack_dual(dual_input).tangent is tangent)
    print(fwAD.unpack_dual(dual_input).tangent._base is None)
    plain_tensor = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=torch.float64)
    dual_output = fn(dual_input, plain_tensor)
    print(dual_output)
    jvp = fwAD.unpack_dual(dual_output).tangent
    print(jvp)
    u = fwAD.unpack_dual(dual_output)
    print(type(u).__name__, u._fields, len(u))
    print(u)
    p, t = u
    print(p.grad_fn, t.grad_fn, p.requires_grad)
    print(fwAD.unpack_dual(plain_tensor))
    print(fwAD.unpack_dual(plain_tensor).tangent)
print(fwAD.unpack_dual(dual_output))
E(lambda: fwAD.make_dual(primal, tangent))
# nested dual_level, tangent mismatches
with fwAD.dual_level():
    E(lambda: fwAD.make_dual(primal, torch.ones(3, dtype=torch.float64)))
    E(lambda: fwAD.make_dual(primal, torch.ones(2, 3)))
    E(lambda: fwAD.make_dual(primal, torch.ones(2, 3, dtype=torch.complex128)))
    E(lambda: fwAD.make_dual(torch.arange(3), torch.arange(3)))
    E(lambda: fwAD.make_dual(primal, tangent, level=5))
    E(lambda: fwAD.make_dual(3.0, tangent))
    d = fwAD.make_dual(primal, tangent)
    E(lambda: fwAD.make_dual(d, tangent))
    try:
        with fwAD.dual_level():
            print('inner')
    except Exception as e:
        print(type(e).__name__, e)
    print(fwAD.unpack_dual(d).tangent.sum())
# modules with dual parameters
torch.manual_seed(0)
model = nn.Linear(5, 5).double()
inp = torch.randn(16, 5, dtype=torch.float64)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))
    out = model(inp)
    jvp = fwAD.unpack_dual(out).tangent
print(jvp[0], jvp.shape)
model = nn.Linear(5, 5).double()
params = {name: p for name, p in model.named_parameters()}
dual_params = {}
with fwAD.dual_level():
    for name, p in params.items():
        dual_params[name] = fwAD.make_dual(p, tangents[name])
    out = functional_call(model, dual_params, inp)
    jvp2 = fwAD.unpack_dual(out).tangent
print(jvp2[0])
print(torch.allclose(jvp, jvp2))
# custom Function with jvp
class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        return result
    @staticmethod
    def jvp(ctx, gI):
        gO = gI * ctx.result
        del ctx.result
        return gO
fn2 = Fn.apply
primal = torch.randn(10, 10, dtype=torch.double, requires_grad=True)
tangent = torch.randn(10, 10, dtype=torch.double)
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn2(dual_input)
    jvp = fwAD.unpack_dual(dual_output).tangent
    print(dual_output.grad_fn, jvp.grad_fn)
print(torch.allclose(jvp, tangent * primal.exp()))
print(torch.autograd.gradcheck(Fn.apply, (primal,), check_forward_ad=True, check_backward_ad=False, check_undefined_grad=False, check_batched_grad=False))
class NoJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
with fwAD.dual_level():
    E(lambda: NoJvp.apply(fwAD.make_dual(primal, tangent)))
# torch.func.jvp
x = torch.randn(5, dtype=torch.float64)
t = torch.randn(5, dtype=torch.float64)
def f(x):
    return x * torch.tensor([1., 2., 3, 4, 5], dtype=torch.float64)
_, jvp_out = ft.jvp(f, (x,), (t,))
print(torch.allclose(jvp_out, t * torch.tensor([1., 2., 3, 4, 5], dtype=torch.float64)))
model = nn.Linear(5, 5).double()
func, params = ft.functional_call, dict(model.named_parameters())
def func_params_only(p):
    return ft.functional_call(model, p, (inp,))
model_output, jvp_out = ft.jvp(func_params_only, (params,), (tangents,))
print(model_output.shape, jvp_out[0])
E(lambda: ft.jvp(f, (x,), (t.float(),)))
E(lambda: ft.jvp(f, (x,), (torch.randn(4, dtype=torch.float64),)))
E(lambda: ft.jvp(f, x, t))
E(lambda: ft.jvp(f, (x,), t))
E(lambda: ft.jvp(f, (x,), (t, t)))
E(lambda: ft.jvp(f, (x,), ()))
E(lambda: ft.jvp(f, (3.0,), (1.0,)))
E(lambda: ft.jvp(lambda a: a.sum().item(), (x,), (t,)))
E(lambda: ft.jvp(lambda a: (a, 3), (x,), (t,)))
E(lambda: ft.jvp(f, (x,), (t,), has_aux=True))
print(ft.jvp(lambda a: (a.sin(), a.cos()), (x,), (t,), has_aux=True)[2])
print(ft.jacfwd(f)(x))
print(ft.jacfwd(lambda a, b: a * b.sin(), argnums=(0, 1))(x, t)[1].diagonal())
# forward-mode on float32 scalars
s = torch.tensor(1.5)
print(ft.jvp(lambda a: a * 2.5, (s,), (torch.tensor(1.0),)))
print(ft.jvp(lambda a: (a * 0.1).exp(), (s,), (torch.tensor(0.3),)))
with fwAD.dual_level():
    d = fwAD.make_dual(s, torch.tensor(0.3))
    o = d * 2.5 + 1
    print(o, fwAD.unpack_dual(o).tangent.dtype)
'''

PROGRAMS['per_sample_grads'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, vmap, grad, jacrev, jvp
def E(f):
    try:
        r = f()
        print('ok', r if not isinstance(r, torch.Tensor) else (r.shape, r.dtype))
    except Exception as e:
        print(type(e).__name__, e)
torch.manual_seed(0)
class SimpleCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.fc1 = nn.Linear(4 * 3 * 3, 5)
    def forward(self, x):
        x = self.conv1(x)
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        return F.log_softmax(x, dim=1)
def loss_fn(predictions, targets):
    return F.nll_loss(predictions, targets)
model = SimpleCNN().double()
batch_size = 4
data = torch.randn(batch_size, 1, 8, 8, dtype=torch.float64)
targets = torch.randint(5, (batch_size,))
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
print(per_sample_grads[1][0])
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
print(type(ft_per_sample_grads).__name__, list(ft_per_sample_grads))
for per_sample_grad, ft_per_sample_grad in zip(per_sample_grads, ft_per_sample_grads.values()):
    print(per_sample_grad.shape, torch.allclose(per_sample_grad, ft_per_sample_grad, atol=1e-10, rtol=1e-8))
print(ft_per_sample_grads['fc1.bias'])
# the errors students hit
E(lambda: vmap(ft_compute_grad, in_dims=(None, None, 0))(params, buffers, data, targets))
E(lambda: vmap(ft_compute_grad, in_dims=(None, 0, 0, 0))(params, buffers, data, targets))
E(lambda: vmap(ft_compute_grad, in_dims=(None, None, 0, 0))(params, buffers, data, targets[:3]))
E(lambda: vmap(ft_compute_grad, in_dims=(None, None, 4, 0))(params, buffers, data, targets))
E(lambda: vmap(ft_compute_grad, in_dims=(None, None, 0, 0.5))(params, buffers, data, targets))
E(lambda: vmap(ft_compute_grad, in_dims=[None, None, 0, 0])(params, buffers, data, targets))
E(lambda: vmap(ft_compute_grad)(params, buffers, data, targets))
E(lambda: vmap(lambda x, s: x * s, in_dims=(0, 0))(data, 2.0))
E(lambda: vmap(lambda x, s: x * s, in_dims=(0, None))(data, 2.0))
E(lambda: vmap(lambda s: s * 2)(3.0))
E(lambda: vmap(lambda s: s * 2)([1.0, 2.0]))
E(lambda: vmap(lambda x: x.sum(), in_dims=1)(torch.randn(2, 3)))
E(lambda: vmap(lambda x: x.sum(), out_dims=1)(torch.randn(2, 3)))
E(lambda: vmap(lambda x: x.item())(torch.randn(3)))
E(lambda: vmap(lambda x: x if x.sum() > 0 else -x)(torch.randn(3, 2)))
E(lambda: vmap(lambda x: (x, 3.0))(torch.randn(3)))
E(lambda: vmap(lambda x: None)(torch.randn(3)))
E(lambda: vmap(lambda x: x)(torch.tensor(1.0)))
E(lambda: vmap(lambda x: torch.randn(2) + x)(torch.randn(3, 2)))
E(lambda: vmap(lambda x: torch.randn(2) + x, randomness='different')(torch.randn(3, 2)))
E(lambda: vmap(lambda x: torch.randn(2) + x, randomness='sometimes')(torch.randn(3, 2)))
E(lambda: vmap(lambda x, y: x + y)(torch.randn(3), torch.randn(4)))
E(lambda: vmap(lambda x, y: x + y, in_dims=(0, None))(torch.randn(3), torch.randn(4)))
E(lambda: vmap(lambda x: x.mul_(2), in_dims=0)(torch.randn(3)))
E(lambda: vmap(lambda x, y: x.add_(y), in_dims=(None, 0))(torch.zeros(2), torch.randn(3, 2)))
E(lambda: grad(compute_loss, argnums=4)(params, buffers, data[0], targets[0]))
E(lambda: grad(lambda p: functional_call(model, p, (data,)).sum())(params))
E(lambda: grad(lambda p: functional_call(model, p, (data,)))(params))
E(lambda: grad(compute_loss)(params, buffers, data[0], targets[0].float()))
# per-sample grads with the sum trick compared to vmap(grad)
lin = nn.Linear(3, 2).double()
x = torch.randn(6, 3, dtype=torch.float64)
y = torch.randn(6, 2, dtype=torch.float64)
p = {k: v.detach() for k, v in lin.named_parameters()}
def l(p, xi, yi):
    return F.mse_loss(functional_call(lin, p, (xi,)), yi)
g = vmap(grad(l), in_dims=(None, 0, 0))(p, x, y)
print(g['weight'][0], g['bias'].sum(0))
w = p['weight'].clone().requires_grad_()
loss = F.mse_loss(x @ w.T + p['bias'], y, reduction='none').mean(1).sum()
loss.backward()
print(torch.allclose(w.grad, g['weight'].sum(0)))
g2 = vmap(grad(l), in_dims=(None, 0, 0), chunk_size=4)(p, x, y)
print(torch.equal(g2['weight'], g['weight']))
'''

PROGRAMS['autograd_functional_modules'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd.functional import jacobian, hessian, vhp, hvp
from torch.func import functional_call
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2)).double()
x = torch.randn(5, 3, dtype=torch.float64)
y = torch.randn(5, 2, dtype=torch.float64)
J = jacobian(model, x[0])
print(J.shape, J.dtype, J.requires_grad)
print(J)
Jb = jacobian(model, x)
print(Jb.shape, torch.allclose(Jb.diagonal(dim1=0, dim2=2).permute(2, 0, 1), torch.stack([jacobian(model, xi) for xi in x])))
names = [n for n, _ in model.named_parameters()]
params = tuple(p.detach() for p in model.parameters())
def loss_of_params(*ps):
    out = functional_call(model, dict(zip(names, ps)), (x,))
    return F.mse_loss(out, y)
H = hessian(loss_of_params, params)
print(type(H).__name__, len(H), type(H[0]).__name__, [tuple(h.shape) for h in H[0]])
print(H[3][3])
print(torch.allclose(H[0][1], H[1][0].transpose(0, 1).reshape(H[0][1].shape) if False else H[0][1]))
v = tuple(torch.ones_like(p) for p in params)
out, hv = hvp(loss_of_params, params, v)
out2, vh = vhp(loss_of_params, params, v)
print(out, torch.allclose(out, out2), [torch.allclose(a, b) for a, b in zip(hv, vh)])
print(hv[3])
g = jacobian(loss_of_params, params, create_graph=True)
print([t.requires_grad for t in g], type(g[3].grad_fn).__name__)
s = sum(t.pow(2).sum() for t in g)
print(s)
w = model[0].weight
print(w.grad)
J2 = jacobian(lambda inp: model(inp).sum(0), x, vectorize=True)
print(J2.shape, torch.allclose(J2, jacobian(lambda inp: model(inp).sum(0), x)))
J3 = jacobian(lambda inp: model(inp).sum(0), x, vectorize=True, strategy='forward-mode')
print(torch.allclose(J3, J2))
m32 = nn.Linear(3, 2)
print(jacobian(m32, torch.tensor([1.0, 2.0, 3.0])))
print(jacobian(m32, torch.tensor([1.0, 2.0, 3.0])).equal(m32.weight.detach()))
print(hessian(lambda t: m32(t).pow(2).sum(), torch.tensor([1.0, 2.0, 3.0])))
'''


def _mask(text: str) -> str:
    return re.sub(r"0x[0-9a-fA-F]+", "0xADDR", text)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # warnings go to stderr; only stdout is compared
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
