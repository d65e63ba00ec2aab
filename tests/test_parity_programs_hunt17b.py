"""Parity programs from hunt 17b: more of PyTorch's autograd tests turned into student programs.

PyTorch's test/autograd/test_functional.py (``torch.autograd.functional``: jacobian / hessian / vjp / jvp / hvp /
vhp results and their shapes for Tensor, tuple and list inputs and outputs, ``vectorize``, ``create_graph``,
``strategy`` / ``outer_jacobian_strategy``, ``strict`` with unused inputs, grad mode inside and outside) and
test/autograd/test_complex.py (views of complex tensors and in-place changes, multi-output views, complex grads
and tangents). Each program prints what the assertions check and must print exactly what PyTorch prints (hunt14's
harness: ``parity.run_both`` with hunt13's ``E``/``W`` helpers). Programs marked "fixed:" printed something
different from PyTorch before this hunt's fix.
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both, torch_or_skip
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE

PROGRAMS: dict[str, str] = {}

PROGRAMS['tf_jacobian_output_shapes_tuples'] = PRE + r'''
import torch.autograd.functional as autogradF
torch.manual_seed(0)
x = torch.rand(4, 3, dtype=torch.double)
y = torch.rand(2, dtype=torch.double)
for vec in (False, True):
    print('vectorize', vec)
    r = autogradF.jacobian(lambda a: a.exp().sum(1), x, vectorize=vec)
    print(type(r).__name__, r.shape)
    r = autogradF.jacobian(lambda a, b: (a.sum(1) * b.sum(), b ** 2), (x, y), vectorize=vec)
    print(type(r).__name__, len(r), [type(t).__name__ for t in r], [[u.shape for u in t] for t in r])
    print(r[1][1])
    r = autogradF.jacobian(lambda a: (a.sum(), a * 2), x, vectorize=vec)
    print(type(r).__name__, [t.shape for t in r])
    r = autogradF.jacobian(lambda a, b: a.sum() * b, (x, y), vectorize=vec)
    print(type(r).__name__, [t.shape for t in r])
    r = autogradF.jacobian(lambda a: a, torch.tensor(2., dtype=torch.double), vectorize=vec)
    print(r, r.shape)
    r = autogradF.jacobian(lambda a: a * 3, (torch.tensor(2.),), vectorize=vec)
    print(type(r).__name__, r)
    r = autogradF.jacobian(lambda a: (a * 3,), torch.ones(2), vectorize=vec)
    print(type(r).__name__, r)
    E(lambda: autogradF.jacobian(lambda a: [a * 3], [torch.ones(2)], vectorize=vec))
'''
PROGRAMS['tf_jacobian_strict_and_unused_inputs'] = PRE + r'''
import torch.autograd.functional as autogradF
torch.manual_seed(0)
x = torch.rand(3)
y = torch.rand(2)
def f(a, b):
    return a * 2, torch.zeros(4)
r = autogradF.jacobian(f, (x, y))
print(r)
E(lambda: autogradF.jacobian(f, (x, y), strict=True))
def g(a, b):
    return a * 2
print(autogradF.jacobian(g, (x, y)))
E(lambda: autogradF.jacobian(g, (x, y), strict=True))
print(autogradF.jacobian(g, (x, y), vectorize=True))
print(autogradF.jacobian(g, (x, y), vectorize=True, strategy='forward-mode'))
r = autogradF.jacobian(lambda a: a.sum() * torch.ones(2), x, create_graph=True)
print(r, r.requires_grad)
xr = torch.rand(3, requires_grad=True)
r = autogradF.jacobian(lambda a: a ** 3, xr, create_graph=True)
print(r.grad_fn is not None, r.requires_grad)
r.sum().backward()
print(xr.grad)
r = autogradF.jacobian(lambda a: a ** 3, xr)
print(r.requires_grad, r.grad_fn)
'''
# fixed: a forward-over-reverse hessian of a 0-d input ended in ReshapeAliasBackward0 (PyTorch's: ViewBackward0).
PROGRAMS['tf_hessian_output_shapes'] = PRE + r'''
import torch.autograd.functional as autogradF
torch.manual_seed(0)
x = torch.rand(2, 2, dtype=torch.double)
y = torch.rand(3, dtype=torch.double)
for vec in (False, True):
    for strat in ('reverse-mode', 'forward-mode'):
        if strat == 'forward-mode' and not vec:
            continue
        print(vec, strat)
        r = autogradF.hessian(lambda a: (a ** 3).sum(), x, vectorize=vec, outer_jacobian_strategy=strat)
        print(r.shape, r[1, 0])
        r = autogradF.hessian(lambda a, b: (a.sum() * b ** 2).sum(), (x, y), vectorize=vec, outer_jacobian_strategy=strat)
        print(type(r).__name__, [[u.shape for u in t] for t in r])
        print(r[1][1], r[0][1])
        r = autogradF.hessian(lambda a: a.pow(3).sum(), (y,), vectorize=vec, outer_jacobian_strategy=strat)
        print(type(r).__name__, type(r[0]).__name__, r[0][0].shape)
        r = autogradF.hessian(lambda a: a ** 3, torch.tensor(2., dtype=torch.double), vectorize=vec, outer_jacobian_strategy=strat)
        print(r)
print(autogradF.hessian(lambda a, b: (a * 2).sum(), (x, y)))
E(lambda: autogradF.hessian(lambda a, b: (a * 2).sum(), (x, y), strict=True))
xr = torch.rand(3, requires_grad=True)
h = autogradF.hessian(lambda a: (a ** 4).sum(), xr, create_graph=True)
print(h.requires_grad, h.grad_fn is not None)
h.trace().backward()
print(xr.grad)
'''
PROGRAMS['tf_vjp_jvp_hvp_vhp_outputs'] = PRE + r'''
import torch.autograd.functional as autogradF
torch.manual_seed(0)
x = torch.rand(3, dtype=torch.double)
y = torch.rand(2, 2, dtype=torch.double)
def f(a, b):
    return a.sum() * b, a ** 2
v = (torch.ones(2, 2, dtype=torch.double), torch.ones(3, dtype=torch.double))
out, vjp = autogradF.vjp(f, (x, y), v)
print(type(out).__name__, type(vjp).__name__, vjp)
out, jvp = autogradF.jvp(f, (x, y), (torch.ones(3, dtype=torch.double), torch.ones(2, 2, dtype=torch.double)))
print(type(out).__name__, type(jvp).__name__, jvp)
out, jvp = autogradF.jvp(lambda a: a ** 2, (x,), (torch.ones(3, dtype=torch.double),))
print(type(out).__name__, type(jvp).__name__)
out, vjp = autogradF.vjp(lambda a: (a ** 2,), x, (torch.ones(3, dtype=torch.double),))
print(type(out).__name__, type(vjp).__name__)
def s(a, b):
    return (a ** 3).sum() + (b ** 2).sum() * a.sum()
vv = (torch.ones(3, dtype=torch.double), torch.ones(2, 2, dtype=torch.double))
for api in (autogradF.vhp, autogradF.hvp):
    o, r = api(s, (x, y), vv)
    print(api.__name__, o, type(r).__name__, r)
    o, r = api(lambda a: (a ** 3).sum(), x, torch.ones(3, dtype=torch.double))
    print(o, r)
    o, r = api(lambda a: (a ** 3).sum(), (x,), (torch.ones(3, dtype=torch.double),))
    print(type(r).__name__)
    o, r = api(lambda a: (a ** 3).sum(), torch.tensor(2.), None)
    print(o, r)
    xr = x.clone().requires_grad_()
    o, r = api(lambda a: (a ** 3).sum(), xr, torch.ones(3, dtype=torch.double), create_graph=True)
    print(o.requires_grad, r.requires_grad)
    r.sum().backward()
    print(xr.grad)
    E(lambda: api(lambda a: (a ** 3).sum(), torch.ones(2), torch.ones(2, dtype=torch.double)))
E(lambda: autogradF.vjp(lambda a: a * 2, torch.ones(2), torch.ones(2, dtype=torch.double)))
print(autogradF.vjp(lambda a: a * 2, torch.ones(2, dtype=torch.double), torch.ones(2)))
print(autogradF.jvp(lambda a: a * 2, torch.ones(2, dtype=torch.double), torch.ones(2)))
'''
PROGRAMS['tf_functional_no_grad_and_create_graph_inside'] = PRE + r'''
import torch.autograd.functional as autogradF
torch.manual_seed(0)
def reducer(x):
    return x.sum(dim=1)
inputs = torch.rand(4, 4)
v = torch.ones(4)
with torch.no_grad():
    res = autogradF.jvp(reducer, inputs, torch.ones(4, 4))
print(res[0].grad_fn, res[1].grad_fn, res[1])
with torch.no_grad():
    r = autogradF.jacobian(reducer, inputs)
print(r.grad_fn, r.shape)
with torch.no_grad():
    r = autogradF.hessian(lambda a: (a ** 3).sum(), inputs)
print(r.grad_fn, r.shape)
with torch.no_grad():
    o, r = autogradF.hvp(lambda a: (a ** 3).sum(), inputs, torch.ones(4, 4))
print(o.grad_fn, r.grad_fn)
inputs.requires_grad_()
with torch.no_grad():
    o, r = autogradF.vhp(lambda a: (a ** 3).sum(), inputs, torch.ones(4, 4), create_graph=True)
print(o.grad_fn is not None, r.grad_fn is not None)
with torch.no_grad():
    r = autogradF.jacobian(reducer, inputs, create_graph=True)
print(r.grad_fn is not None)
def check_grad_enabled(a):
    print('inside', torch.is_grad_enabled(), a.requires_grad)
    return a * 2
autogradF.vjp(check_grad_enabled, torch.ones(2), torch.ones(2))
autogradF.jvp(check_grad_enabled, torch.ones(2), torch.ones(2))
autogradF.jacobian(check_grad_enabled, torch.ones(2))
autogradF.jacobian(check_grad_enabled, torch.ones(2), vectorize=True)
with torch.no_grad():
    autogradF.vjp(check_grad_enabled, torch.ones(2), torch.ones(2))
'''
PROGRAMS['tf_jacobian_forward_mode_and_scalar_output'] = PRE + r'''
import torch.autograd.functional as autogradF
torch.manual_seed(0)
x = torch.rand(3, dtype=torch.double)
y = torch.rand(2, dtype=torch.double)
for strat in ('reverse-mode', 'forward-mode'):
    r = autogradF.jacobian(lambda a, b: (a.sin().sum() * b, b.exp()), (x, y), vectorize=True, strategy=strat)
    print(strat, r[0][0], r[1][1])
    r = autogradF.jacobian(lambda a: a.sum(), x, vectorize=True, strategy=strat)
    print(r.shape, r)
    r = autogradF.jacobian(lambda a: a.sum(), torch.tensor(1.), vectorize=True, strategy=strat)
    print(r.shape, r)
    r = autogradF.jacobian(lambda a: a.unsqueeze(0).expand(3, 2), y, vectorize=True, strategy=strat)
    print(r.shape)
r = autogradF.jacobian(lambda a: a.new_zeros(()) + 1, x)
print(r)
r = autogradF.jacobian(lambda a: a.new_zeros(()) + 1, x, vectorize=True)
print(r)
'''
PROGRAMS['tc_view_funcs_cases_2_3_and_multi_output'] = PRE + r'''
torch.manual_seed(0)
def fn(a):
    b = a.clone()
    b1 = torch.view_as_complex(b)
    return b1.reshape(b1.numel())
x = torch.randn(2, 2, 2, dtype=torch.double, requires_grad=True)
y = x.detach().requires_grad_(True)
y0 = fn(y)
y1 = y0.mul(2)
y1.sum().abs().backward()
print(y.grad)
def fn3(a, dim0_size=5):
    b = a.clone()
    b1 = b.reshape(dim0_size, 2)
    return torch.view_as_real(b1)
x = torch.randn(10, dtype=torch.cdouble, requires_grad=True)
y = x.detach().requires_grad_(True)
x0 = fn3(x)
x0.mul_(2)
print(x0.grad_fn, x0._base is not None, x0.is_leaf)
x0.sum().backward()
y0 = fn3(y)
y0.mul(2).sum().backward()
print(torch.equal(x.grad, y.grad), x.grad[:2])
x = torch.randn(2, 2, 2, dtype=torch.double)
x1 = torch.view_as_complex(x)
res = x1.unbind(0)
def add_():
    r = res[0]
    r += torch.rand(2, requires_grad=True)
E(add_)
x.requires_grad_(True)
x1 = torch.view_as_complex(x)
res = x1.unbind(0)
E(add_)
z = torch.randn(10, 2, 2, dtype=torch.double, requires_grad=True)
def func(z):
    z_ = torch.view_as_complex(z)
    z_select = torch.select(z_, z_.dim() - 1, 0)
    return torch.view_as_real(z_select).sum()
print(torch.autograd.gradcheck(func, [z]))
func(z).backward()
z1 = z.clone().detach().requires_grad_(True)
torch.select(z1, z1.dim() - 2, 0).sum().backward()
print(torch.equal(z.grad, z1.grad))
w = torch.view_as_complex(z)
print(w.grad_fn, w._base is z, w.is_leaf, w.requires_grad)
'''
# fixed: jacobian(vectorize=True) of a complex output raised (PyTorch's grad_outputs are a one-hot basis).
PROGRAMS['tc_complex_functional_jacobian_and_grads'] = PRE + r'''
import torch.autograd.functional as autogradF
torch.manual_seed(0)
z = torch.randn(3, dtype=torch.cdouble)
E(lambda: autogradF.jacobian(lambda a: a * 2, z))
E(lambda: autogradF.jacobian(lambda a: a.real * 2, z))
E(lambda: autogradF.jacobian(lambda a: (a * a.conj()).real, z))
E(lambda: autogradF.jacobian(lambda a: a * 2, z, vectorize=True))
E(lambda: autogradF.jacobian(lambda a: a * 2, z, vectorize=True, strategy='forward-mode'))
E(lambda: autogradF.vjp(lambda a: (a * a).real.sum(), z))
print(autogradF.vjp(lambda a: a * (1 + 2j), z, torch.ones(3, dtype=torch.cdouble)))
print(autogradF.jvp(lambda a: a * (1 + 2j), z, torch.ones(3, dtype=torch.cdouble)))
E(lambda: autogradF.jvp(lambda a: a * (1 + 2j), z, torch.ones(3)))
E(lambda: autogradF.vjp(lambda a: a * (1 + 2j), z, torch.ones(3)))
E(lambda: autogradF.hessian(lambda a: (a * a).sum(), z))
E(lambda: autogradF.hessian(lambda a: (a * a.conj()).real.sum(), z))
zr = z.clone().requires_grad_()
E(lambda: (zr * 2).sum().backward())
(zr * 2).abs().sum().backward()
print(zr.grad)
zr.grad = None
out = zr * (1 - 1j)
out.backward(torch.ones(3, dtype=torch.cdouble))
print(zr.grad)
zr.grad = None
E(lambda: (zr * 2).backward(torch.ones(3)))
g, = torch.autograd.grad((zr ** 2).abs().sum(), zr, create_graph=True)
print(g.grad_fn is not None, g.dtype)
gg, = torch.autograd.grad(g.abs().sum(), zr)
print(gg)
'''
# fixed: complex tangents of mul had -0 imaginary parts (a conj round trip); vectorized jacobians of several
# outputs had -0 where PyTorch's sum with the other outputs' zero rows gives +0.
PROGRAMS['tc_forward_ad_complex_mul_tangents'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
import torch.autograd.functional as autogradF
torch.manual_seed(0)
z = torch.randn(3, dtype=torch.cdouble)
x = torch.randn(3, dtype=torch.double)
t = torch.tensor([1 + 0j, 0j, 2j], dtype=torch.cdouble)
with fwAD.dual_level():
    d = fwAD.make_dual(z, t)
    print(fwAD.unpack_dual(d * 2).tangent)
    print(fwAD.unpack_dual(2 * d).tangent)
    print(fwAD.unpack_dual(d * 2.5).tangent)
    print(fwAD.unpack_dual(d * (1 - 1j)).tangent)
    print(fwAD.unpack_dual(d * x).tangent)
    print(fwAD.unpack_dual(x * d).tangent)
    print(fwAD.unpack_dual(d * z).tangent)
    print(fwAD.unpack_dual(d * d).tangent)
    print(fwAD.unpack_dual(torch.mul(d, 3)).tangent)
    print(fwAD.unpack_dual(d.mul(torch.tensor(2.))).tangent)
    dx = fwAD.make_dual(x, torch.ones(3, dtype=torch.double))
    print(fwAD.unpack_dual(dx * z).tangent)
    print(fwAD.unpack_dual(dx * (1 + 1j)).tangent)
    print(fwAD.unpack_dual(dx * d).tangent)
    e = d.clone()
    e.mul_(2)
    print(fwAD.unpack_dual(e).tangent)
print(autogradF.jacobian(lambda a: a * 2, z, vectorize=True, strategy='forward-mode'))
print(autogradF.jacobian(lambda a: a * (2 - 1j), z, vectorize=True, strategy='forward-mode'))
print(autogradF.jacobian(lambda a: a * 2, z, vectorize=True))
print(autogradF.jacobian(lambda a: a * (2 - 1j), z, vectorize=True))
print(autogradF.jacobian(lambda a, b: (a * b, b * 3), (z, x), vectorize=True))
'''


@pytest.fixture(scope="module", autouse=True)
def _torch_vmap_loaded() -> None:
    """PyTorch's first vectorized jacobian loads its vmap machinery, which warns (``torch.jit.script`` is
    deprecated) that one time only: load it before the programs run, so that their output does not depend on
    what ran before in the process."""
    torch = torch_or_skip()
    import torch.autograd.functional as autogradF
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for dtype in (torch.double, torch.cdouble):
            autogradF.jacobian(lambda a: a * 2, torch.ones(2, dtype=dtype), vectorize=True)
            autogradF.jacobian(lambda a: a * 2, torch.ones(2, dtype=dtype), vectorize=True, strategy="forward-mode")


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    # (catch_warnings restores the filters and showwarning the prelude replaces; fresh_warn_once: the warnings
    # given once per process are given whatever ran before in this process)
    with warnings.catch_warnings(), fresh_warn_once():
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
