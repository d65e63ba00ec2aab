"""Parity programs from a forty-first hunt: torch.autograd.functional and gradcheck, as a student uses them.

A student computes Jacobians and Hessians with ``torch.autograd.functional`` (``jacobian``, ``hessian``, ``vjp``,
``jvp``, ``hvp``, ``vhp``) argument by argument: single tensors and tuples in and out, ``create_graph``, ``strict``,
``vectorize``, ``strategy='forward-mode'``, ``outer_jacobian_strategy``, ``v=None``, wrong ``v`` shapes, functions
returning non-tensors, integer and 0-d inputs, closures over tensors that require grad, grad modes, and double
backward through a Jacobian. Then checks gradients with ``gradcheck``/``gradgradcheck`` (passing and failing
functions, their messages and False returns, ``fast_mode``, the ``check_*`` flags, tolerances, float32 inputs, custom
Functions with a wrong backward, complex inputs), and looks at ``torch.autograd.forward_ad``'s duals. Every warning is
printed on stdout (hunt14's prelude). Programs marked "fixed:" printed something different from PyTorch before this
hunt's fixes.
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE as _PRE

# hunt14's prelude plus the short names a student imports.
PRE = _PRE + r'''
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp
from torch.autograd import gradcheck, gradgradcheck
import torch.autograd.forward_ad as fwAD
def show(r, depth=0):
    """Print a (nested) result: tuple structure, then each tensor's values, requires_grad and grad_fn."""
    if isinstance(r, (tuple, list)):
        print(' ' * depth + type(r).__name__, len(r))
        for e in r:
            show(e, depth + 1)
    elif isinstance(r, torch.Tensor):
        print(' ' * depth + repr(r), r.requires_grad, type(r.grad_fn).__name__ if r.grad_fn is not None else None)
    else:
        print(' ' * depth + type(r).__name__, r)
'''

PROGRAMS: dict[str, str] = {}

# ---- jacobian

PROGRAMS['jac_single_in_single_out'] = PRE + r'''
x = torch.tensor([1., 2., 3.])
show(jacobian(lambda x: x ** 2, x))
show(jacobian(lambda x: x.sum(), x))
show(jacobian(lambda x: x.exp() * x.sin(), x))
show(jacobian(lambda x: torch.outer(x, x), x))
'''

PROGRAMS['jac_tuple_in_tuple_out'] = PRE + r'''
a = torch.tensor([1., 2.])
b = torch.tensor([3., 4., 5.])
show(jacobian(lambda a, b: (a * 2, b.sum() * a), (a, b)))
show(jacobian(lambda a, b: a.sum() + b.sum(), (a, b)))
show(jacobian(lambda a: (a, a * a), a))
show(jacobian(lambda a: (a,), a))
show(jacobian(lambda a: a, (a,)))
'''

PROGRAMS['jac_0d_inputs_and_outputs'] = PRE + r'''
x = torch.tensor(2.)
show(jacobian(lambda x: x ** 3, x))
show(jacobian(lambda x: x.reshape(1) * 2, x))
show(jacobian(lambda x: x.expand(2, 2), x))
y = torch.tensor([1., 2.])
show(jacobian(lambda x, y: x * y, (x, y)))
'''

PROGRAMS['jac_create_graph_results'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
J = jacobian(lambda x: x ** 3, x, create_graph=True)
show(J)
J.sum().backward()
print(x.grad)
J2 = jacobian(lambda x: x ** 3, x)
show(J2)
x2 = torch.tensor([1., 2.])
J3 = jacobian(lambda x: x ** 3, x2, create_graph=True)
show(J3)
'''

PROGRAMS['jac_double_backward_through_jacobian'] = PRE + r'''
w = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
x = torch.tensor([0.5, -0.5], requires_grad=True)
J = jacobian(lambda x: torch.tanh(w @ x), x, create_graph=True)
show(J)
loss = J.pow(2).sum()
g = torch.autograd.grad(loss, (w, x), create_graph=True)
show(g)
gg = torch.autograd.grad(g[1].sum(), x)
show(gg)
'''

PROGRAMS['jac_strict_independent_output'] = PRE + r'''
x = torch.tensor([1., 2.])
y = torch.tensor([3., 4.])
E(lambda: jacobian(lambda x, y: x * 2, (x, y), strict=True))
E(lambda: jacobian(lambda x: torch.ones(2), x, strict=True))
E(lambda: jacobian(lambda x: x.detach(), x, strict=True))
show(jacobian(lambda x, y: x * 2, (x, y)))
show(jacobian(lambda x: torch.ones(2), x))
E(lambda: jacobian(lambda x: x * 2, x, strict=True, create_graph=True))
E(lambda: jacobian(lambda x: x ** 2, x, strict=True, create_graph=True))
'''

PROGRAMS['jac_vectorize'] = PRE + r'''
x = torch.tensor([1., 2., 3.])
y = torch.tensor([[1., 0.], [2., 1.]])
show(jacobian(lambda x: x.cumsum(0), x, vectorize=True))
show(jacobian(lambda x, y: (x.sum() * y, y.t()), (x, y), vectorize=True))
E(lambda: jacobian(lambda x: x * 2, x, vectorize=True, strict=True))
show(jacobian(lambda x: torch.ones(2), x, vectorize=True))
show(jacobian(lambda x: x ** 2, x, vectorize=True, create_graph=True))
'''

PROGRAMS['jac_forward_mode'] = PRE + r'''
x = torch.tensor([1., 2., 3.])
show(jacobian(lambda x: x.sin(), x, strategy='forward-mode', vectorize=True))
E(lambda: jacobian(lambda x: x.sin(), x, strategy='forward-mode'))
E(lambda: jacobian(lambda x: x.sin(), x, strategy='forward-mode', vectorize=True, create_graph=True))
E(lambda: jacobian(lambda x: x.sin(), x, strategy='forward-mode', vectorize=True, strict=True))
E(lambda: jacobian(lambda x: x.sin(), x, strategy='forward'))
E(lambda: jacobian(lambda x: x.sin(), x, strategy='Reverse-mode'))
show(jacobian(lambda x, y: (x * y, y.sum()), (x, x.flip(0)), strategy='forward-mode', vectorize=True))
'''

PROGRAMS['jac_non_tensor_outputs_and_inputs'] = PRE + r'''
x = torch.tensor([1., 2.])
E(lambda: jacobian(lambda x: 3.0, x))
E(lambda: jacobian(lambda x: [x, x], x))
E(lambda: jacobian(lambda x: (x, 2), x))
E(lambda: jacobian(lambda x: None, x))
E(lambda: jacobian(lambda x: x, [x, x]))
E(lambda: jacobian(lambda x: x, 3.0))
E(lambda: jacobian(lambda x, y: x, (x, 2.0)))
E(lambda: jacobian(lambda x: x.tolist(), x))
'''

PROGRAMS['jac_integer_inputs'] = PRE + r'''
x = torch.tensor([1, 2, 3])
E(lambda: jacobian(lambda x: x * 2, x))
E(lambda: jacobian(lambda x: x.float() * 2, x))
E(lambda: jacobian(lambda x: x.sum(), torch.tensor(True)))
E(lambda: vjp(lambda x: x * 2, x, torch.ones(3)))
E(lambda: hessian(lambda x: x.float().sum(), x))
'''

PROGRAMS['jac_closure_over_requires_grad'] = PRE + r'''
w = torch.tensor([2., 3.], requires_grad=True)
x = torch.tensor([1., 1.])
J = jacobian(lambda x: w * x, x)
show(J)
J = jacobian(lambda x: w * x, x, create_graph=True)
show(J)
J.sum().backward()
print(w.grad)
o, r = vjp(lambda x: w * x, x, torch.ones(2))
show((o, r))
o, r = vjp(lambda x: w * x, x, torch.ones(2), create_graph=True)
show((o, r))
'''

PROGRAMS['jac_no_grad_and_inference_mode'] = PRE + r'''
x = torch.tensor([1., 2.])
with torch.no_grad():
    show(jacobian(lambda x: x ** 2, x))
    show(jacobian(lambda x: x ** 2, x, create_graph=True))
    show(vjp(lambda x: x ** 2, x, torch.ones(2)))
    show(vjp(lambda x: x ** 2, x, torch.ones(2), create_graph=True))
    show(hessian(lambda x: (x ** 3).sum(), x))
with torch.inference_mode():
    xi = torch.tensor([1., 2.])
E(lambda: jacobian(lambda x: x ** 2, xi))
with torch.inference_mode():
    E(lambda: jacobian(lambda x: x ** 2, x))
'''

PROGRAMS['jac_output_empty_and_input_empty'] = PRE + r'''
x = torch.tensor([1., 2.])
e = torch.zeros(0)
E(lambda: show(jacobian(lambda x: x[:0], x)))
E(lambda: show(jacobian(lambda x: x[:0], x, vectorize=True)))
E(lambda: show(jacobian(lambda e: e.sum(), e)))
E(lambda: show(jacobian(lambda e: e * 2, e)))
E(lambda: show(jacobian(lambda x, e: (x * 2, e), (x, e))))
'''

# ---- hessian

PROGRAMS['hess_basic'] = PRE + r'''
x = torch.tensor([1., 2., 3.])
show(hessian(lambda x: (x ** 3).sum(), x))
show(hessian(lambda x: x.prod(), x))
a, b = torch.tensor([1., 2.]), torch.tensor(3.)
show(hessian(lambda a, b: (a * b).sum() ** 2, (a, b)))
show(hessian(lambda x: x ** 4, torch.tensor(2.)))
'''

PROGRAMS['hess_errors'] = PRE + r'''
x = torch.tensor([1., 2.])
E(lambda: hessian(lambda x: x ** 2, x))
E(lambda: hessian(lambda x: (x.sum(), x.sum()), x))
E(lambda: hessian(lambda x: 3.0, x))
E(lambda: hessian(lambda x: (x.sum(),), x))
E(lambda: hessian(lambda x: x.sum(), x, outer_jacobian_strategy='forward'))
E(lambda: hessian(lambda x: x.sum().reshape(1, 1), x))
show(hessian(lambda x: x.sum().reshape(1, 1), x))
'''

PROGRAMS['hess_strict'] = PRE + r'''
x = torch.tensor([1., 2.])
y = torch.tensor([3., 4.])
E(lambda: hessian(lambda x: x.sum(), x, strict=True))
E(lambda: hessian(lambda x: (x * 2).sum(), x, strict=True))
E(lambda: hessian(lambda x, y: (x ** 2).sum(), (x, y), strict=True))
E(lambda: hessian(lambda x: torch.tensor(1.), x, strict=True))
show(hessian(lambda x: x.sum(), x))
show(hessian(lambda x, y: (x ** 2).sum(), (x, y)))
E(lambda: hessian(lambda x: (x ** 3).sum(), x, strict=True, vectorize=True))
'''

PROGRAMS['hess_vectorize_and_forward_outer'] = PRE + r'''
x = torch.tensor([1., 2., 3.])
f = lambda x: (x.sin() * x.exp()).sum()
show(hessian(f, x, vectorize=True))
show(hessian(f, x, vectorize=True, outer_jacobian_strategy='forward-mode'))
E(lambda: hessian(f, x, outer_jacobian_strategy='forward-mode'))
E(lambda: hessian(f, x, outer_jacobian_strategy='forward-mode', vectorize=True, create_graph=True))
show(hessian(lambda a, b: (a * b.sum()).sum() ** 2, (x, x[:2]), vectorize=True, outer_jacobian_strategy='forward-mode'))
'''

PROGRAMS['hess_create_graph'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
H = hessian(lambda x: (x ** 4).sum(), x, create_graph=True)
show(H)
H.trace().backward()
print(x.grad)
H2 = hessian(lambda x: (x ** 4).sum(), x)
show(H2)
'''

# ---- vjp

PROGRAMS['vjp_basic'] = PRE + r'''
x = torch.tensor([1., 2., 3.])
show(vjp(lambda x: x ** 2, x, torch.tensor([1., 0., 2.])))
show(vjp(lambda x: x.sum(), x))
show(vjp(lambda x: x.sum(), x, torch.tensor(2.)))
show(vjp(lambda a, b: a * b, (x, x * 2), torch.ones(3)))
show(vjp(lambda a, b: (a * b, a.sum()), (x, x * 2), (torch.ones(3), torch.tensor(5.))))
'''

PROGRAMS['vjp_v_errors'] = PRE + r'''
x = torch.tensor([1., 2., 3.])
E(lambda: vjp(lambda x: x ** 2, x))
E(lambda: vjp(lambda x: x ** 2, x, torch.ones(2)))
E(lambda: vjp(lambda x: x ** 2, x, torch.ones(3, 1)))
E(lambda: vjp(lambda x: (x, x), x, torch.ones(3)))
E(lambda: vjp(lambda x: (x, x), x, (torch.ones(3),)))
E(lambda: vjp(lambda x: (x, x.sum()), x, (torch.ones(3), torch.ones(3))))
E(lambda: vjp(lambda x: x, x, (torch.ones(3), torch.ones(3))))
E(lambda: vjp(lambda x: x, x, [torch.ones(3)]))
E(lambda: vjp(lambda x: x, x, 1.0))
E(lambda: vjp(lambda x: (x, x), x))
E(lambda: vjp(lambda x: x.sum().reshape(1, 1), x))
show(vjp(lambda x: x.sum().reshape(1, 1), x))
'''

PROGRAMS['vjp_strict'] = PRE + r'''
x = torch.tensor([1., 2.])
y = torch.tensor([3., 4.])
E(lambda: vjp(lambda x, y: x * 2, (x, y), torch.ones(2), strict=True))
E(lambda: vjp(lambda x: torch.ones(2), x, torch.ones(2), strict=True))
E(lambda: vjp(lambda x: x * 2, x, torch.ones(2), strict=True, create_graph=True))
show(vjp(lambda x: x * 2, x, torch.ones(2), strict=True))
show(vjp(lambda x, y: x * 2, (x, y), torch.ones(2)))
show(vjp(lambda x: torch.ones(2), x, torch.ones(2)))
'''

PROGRAMS['vjp_v_requires_grad_create_graph'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
v = torch.tensor([1., -1.], requires_grad=True)
o, r = vjp(lambda x: x ** 2, x, v, create_graph=True)
show((o, r))
r.sum().backward()
print(x.grad, v.grad)
o, r = vjp(lambda x: x ** 2, x, v)
show((o, r))
'''

# ---- jvp

PROGRAMS['jvp_basic'] = PRE + r'''
x = torch.tensor([1., 2., 3.])
show(jvp(lambda x: x ** 2, x, torch.tensor([1., 0., 2.])))
show(jvp(lambda x: x.sum(), x, torch.ones(3)))
show(jvp(lambda a, b: a * b, (x, x * 2), (torch.ones(3), torch.zeros(3))))
show(jvp(lambda a, b: (a * b, a.sum()), (x, x * 2), (torch.ones(3), torch.ones(3))))
show(jvp(lambda x: x ** 2, torch.tensor(3.)))
'''

PROGRAMS['jvp_v_errors'] = PRE + r'''
x = torch.tensor([1., 2., 3.])
E(lambda: jvp(lambda x: x ** 2, x))
E(lambda: jvp(lambda x: x ** 2, x, torch.ones(2)))
E(lambda: jvp(lambda a, b: a * b, (x, x), torch.ones(3)))
E(lambda: jvp(lambda a, b: a * b, (x, x), (torch.ones(3),)))
E(lambda: jvp(lambda a, b: a * b, (x, x), (torch.ones(3), torch.ones(2))))
E(lambda: jvp(lambda x: x, x, (torch.ones(3), torch.ones(3))))
E(lambda: jvp(lambda x: 2, x, torch.ones(3)))
'''

PROGRAMS['jvp_strict'] = PRE + r'''
x = torch.tensor([1., 2.])
y = torch.tensor([3., 4.])
E(lambda: jvp(lambda x, y: x * 2, (x, y), (torch.ones(2), torch.ones(2)), strict=True))
E(lambda: jvp(lambda x: torch.ones(2), x, torch.ones(2), strict=True))
E(lambda: jvp(lambda x: x * 2, x, torch.ones(2), strict=True))
E(lambda: jvp(lambda x: x * 2, x, torch.ones(2), strict=True, create_graph=True))
E(lambda: jvp(lambda x: (x * 2, torch.zeros(2)), x, torch.ones(2), strict=True))
show(jvp(lambda x, y: x * 2, (x, y), (torch.ones(2), torch.ones(2))))
show(jvp(lambda x: (x * 2, torch.zeros(2)), x, torch.ones(2)))
'''

PROGRAMS['jvp_create_graph'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
v = torch.tensor([1., 1.], requires_grad=True)
o, r = jvp(lambda x: x ** 3, x, v, create_graph=True)
show((o, r))
r.sum().backward()
print(x.grad, v.grad)
o, r = jvp(lambda x: x ** 3, x, v)
show((o, r))
'''

# ---- hvp / vhp

PROGRAMS['hvp_vhp_basic'] = PRE + r'''
x = torch.tensor([1., 2.])
v = torch.tensor([1., -1.])
f = lambda x: (x ** 3).sum() + x[0] * x[1]
show(hvp(f, x, v))
show(vhp(f, x, v))
a, b = torch.tensor([1., 2.]), torch.tensor(3.)
g = lambda a, b: (a * b).pow(2).sum()
show(hvp(g, (a, b), (torch.ones(2), torch.tensor(1.))))
show(vhp(g, (a, b), (torch.ones(2), torch.tensor(1.))))
show(hvp(lambda x: x ** 3, torch.tensor(2.)))
show(vhp(lambda x: x ** 3, torch.tensor(2.)))
'''

PROGRAMS['hvp_vhp_errors'] = PRE + r'''
x = torch.tensor([1., 2.])
for fn in (hvp, vhp):
    E(lambda: fn(lambda x: (x ** 3).sum(), x))
    E(lambda: fn(lambda x: x ** 3, x, torch.ones(2)))
    E(lambda: fn(lambda x: ((x ** 3).sum(), x.sum()), x, torch.ones(2)))
    E(lambda: fn(lambda x: (x ** 3).sum(), x, torch.ones(3)))
    E(lambda: fn(lambda x: 1.0, x, torch.ones(2)))
    E(lambda: fn(lambda x: ((x ** 3).sum(),), x, torch.ones(2)))
    E(lambda: fn(lambda x, y: (x * y).sum(), (x, x), torch.ones(2)))
'''

PROGRAMS['hvp_vhp_strict'] = PRE + r'''
x = torch.tensor([1., 2.])
y = torch.tensor([3., 4.])
for fn in (hvp, vhp):
    E(lambda: fn(lambda x: x.sum(), x, torch.ones(2), strict=True))
    E(lambda: fn(lambda x: (x * 2).sum(), x, torch.ones(2), strict=True))
    E(lambda: fn(lambda x, y: (x ** 2).sum(), (x, y), (torch.ones(2), torch.ones(2)), strict=True))
    E(lambda: fn(lambda x: torch.tensor(1.), x, torch.ones(2), strict=True))
    E(lambda: fn(lambda x: (x ** 2).sum(), x, torch.ones(2), strict=True, create_graph=True))
    show(fn(lambda x: x.sum(), x, torch.ones(2)))
    show(fn(lambda x, y: (x ** 2).sum(), (x, y), (torch.ones(2), torch.ones(2))))
'''

PROGRAMS['hvp_vhp_create_graph'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
v = torch.tensor([1., 0.5], requires_grad=True)
for fn in (hvp, vhp):
    o, r = fn(lambda x: (x ** 4).sum(), x, v, create_graph=True)
    show((o, r))
    r.sum().backward()
    print(x.grad, v.grad)
    x.grad = v.grad = None
'''

# ---- gradcheck / gradgradcheck

PROGRAMS['gc_passing_functions'] = PRE + r'''
x = torch.tensor([0.5, 1.5, -0.3], dtype=torch.double, requires_grad=True)
y = torch.tensor([[1., 2.], [3., 4.]], dtype=torch.double, requires_grad=True)
print(gradcheck(torch.sin, (x,)))
print(gradcheck(lambda x: x.exp().sum(), x))
print(gradcheck(lambda a, b: (a[:2] @ b, b.sum()), (x, y)))
E(lambda: gradcheck(torch.mm, (y, y.t())))
E(lambda: gradcheck(torch.mm, (y, y.t().contiguous())))
print(gradcheck(torch.mm, (y, y.detach().t().contiguous().requires_grad_())))
print(gradgradcheck(torch.tanh, (x,)))
print(gradgradcheck(lambda a, b: a[:2] @ b, (x, y)))
print(gradcheck(torch.sin, x, fast_mode=True))
print(gradgradcheck(torch.sin, x, fast_mode=True))
'''

PROGRAMS['gc_failing_custom_function_raise'] = PRE + r'''
class BadSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x * 3
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
E(lambda: gradcheck(BadSquare.apply, (x,)))
print(gradcheck(BadSquare.apply, (x,), raise_exception=False))
try:
    gradcheck(BadSquare.apply, (x,))
except Exception as e:
    print(type(e).__mro__[1].__name__, isinstance(e, RuntimeError))
'''

PROGRAMS['gc_failing_fast_mode'] = PRE + r'''
torch.manual_seed(0)
class BadExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y
    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * y * 2
x = torch.tensor([0.1, 0.2, 0.3], dtype=torch.double, requires_grad=True)
E(lambda: gradcheck(BadExp.apply, (x,), fast_mode=True))
print(gradcheck(BadExp.apply, (x,), fast_mode=True, raise_exception=False))
'''

PROGRAMS['gc_backward_wrong_shape_and_type'] = PRE + r'''
class WrongShape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g.sum()
class WrongNumber(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2, g
class ReturnsFloat32(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return (g * 2).float()
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
E(lambda: gradcheck(WrongShape.apply, (x,)))
E(lambda: gradcheck(WrongNumber.apply, (x,)))
E(lambda: gradcheck(ReturnsFloat32.apply, (x,)))
E(lambda: gradcheck(ReturnsFloat32.apply, (x,), check_grad_dtypes=True))
'''

PROGRAMS['gc_undefined_grad'] = PRE + r'''
class NoNone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, g1, g2):
        return g1 * 2 + g2 * 3
class Handles(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, g1, g2):
        r = None
        if g1 is not None:
            r = g1 * 2
        if g2 is not None:
            r = g2 * 3 if r is None else r + g2 * 3
        return r
class NotMaterialized(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, g1, g2):
        return g1 * 2 + g2 * 3
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
print(gradcheck(NoNone.apply, (x,)))
print(gradcheck(Handles.apply, (x,)))
E(lambda: gradcheck(NotMaterialized.apply, (x,)))
E(lambda: gradcheck(NotMaterialized.apply, (x,), check_undefined_grad=False))
E(lambda: gradcheck(NotMaterialized.apply, (x,), raise_exception=False))
'''

PROGRAMS['gc_float32_inputs_warning'] = PRE + r'''
x = torch.tensor([0.5, 1.5], requires_grad=True)
E(lambda: gradcheck(torch.sin, (x,)))
E(lambda: gradcheck(torch.exp, (x,)))
print(gradcheck(torch.exp, (x,), raise_exception=False))
E(lambda: gradcheck(torch.sin, (x,), eps=1e-3, atol=1e-2))
E(lambda: gradcheck(lambda x: x * 2, (x.half(),)))
'''

PROGRAMS['gc_inputs_not_requiring_grad'] = PRE + r'''
x = torch.tensor([0.5, 1.5], dtype=torch.double)
E(lambda: gradcheck(torch.sin, (x,)))
E(lambda: gradcheck(torch.sin, x))
E(lambda: gradcheck(lambda: torch.ones(2), ()))
y = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
print(gradcheck(lambda a, b: a * b, (x, y)))
print(gradcheck(lambda a, k: a * k, (y, 3)))
print(gradcheck(lambda a, k: a * k, (y, 3.5), fast_mode=True))
E(lambda: gradcheck(lambda a: a.detach() * 2, (y,)))
print(gradcheck(lambda a: a.detach() * 2, (y,), raise_exception=False))
'''

PROGRAMS['gc_non_leaf_inputs'] = PRE + r'''
a = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
b = a * 2
print(gradcheck(torch.sin, (b,)))
print(gradcheck(torch.sin, (a[0],)))
c = a.expand(3, 2)
E(lambda: gradcheck(torch.sin, (c,)))
print(gradcheck(torch.sin, (c.contiguous(),)))
print(a.grad)
'''

PROGRAMS['gc_tolerances'] = PRE + r'''
class Off(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2.001
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
print(gradcheck(Off.apply, (x,), raise_exception=False))
print(gradcheck(Off.apply, (x,), atol=1e-2, raise_exception=False))
print(gradcheck(Off.apply, (x,), rtol=1e-2, raise_exception=False))
print(gradcheck(Off.apply, (x,), rtol=0, atol=0, raise_exception=False))
E(lambda: gradcheck(Off.apply, (x,), atol=1e-4, rtol=1e-4))
print(gradcheck(torch.exp, (x,), eps=1e-2, raise_exception=False))
print(gradcheck(torch.exp, (x,), eps=1e-2, atol=1e-1, raise_exception=False))
print(gradcheck(torch.exp, (x,), eps=1e-2, fast_mode=True, raise_exception=False))
'''

PROGRAMS['gc_nondet_tol'] = PRE + r'''
calls = [0]
class Noisy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        calls[0] += 1
        return g * (2 + 1e-7 * calls[0])
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
E(lambda: gradcheck(Noisy.apply, (x,)))
calls[0] = 0
print(gradcheck(Noisy.apply, (x,), nondet_tol=1e-5))
calls[0] = 0
print(gradcheck(Noisy.apply, (x,), raise_exception=False))
'''

PROGRAMS['gc_check_forward_ad'] = PRE + r'''
x = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
print(gradcheck(torch.sin, (x,), check_forward_ad=True))
print(gradcheck(torch.sin, (x,), check_forward_ad=True, check_backward_ad=False))
E(lambda: gradcheck(torch.sin, (x,), check_forward_ad=False, check_backward_ad=False))
E(lambda: gradcheck(torch.sin, (x,), check_batched_grad=True, check_backward_ad=False, check_forward_ad=True))
E(lambda: gradcheck(torch.sin, (x,), check_batched_forward_grad=True))
print(gradcheck(torch.sin, (x,), check_forward_ad=True, check_batched_forward_grad=True))
class NoJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
E(lambda: gradcheck(NoJvp.apply, (x,), check_forward_ad=True))
E(lambda: gradcheck(NoJvp.apply, (x,), check_forward_ad=True, raise_exception=False))
E(lambda: gradcheck(NoJvp.apply, (x,), check_forward_ad=True, check_backward_ad=False))
'''

# fixed: with both modes, a wrong backward is reported before a wrong jvp (PyTorch checks reverse mode first).
PROGRAMS['gc_wrong_jvp'] = PRE + r'''
class BadJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        return g * 0
    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return t * x
x = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
E(lambda: gradcheck(BadJvp.apply, (x,), check_forward_ad=True, check_backward_ad=False))
E(lambda: gradcheck(BadJvp.apply, (x,), check_forward_ad=True, check_backward_ad=False, fast_mode=True))
E(lambda: gradcheck(BadJvp.apply, (x,), check_forward_ad=True))
'''

PROGRAMS['gc_check_batched_grad'] = PRE + r'''
x = torch.tensor([0.5, 1.5, 2.], dtype=torch.double, requires_grad=True)
print(gradcheck(torch.sin, (x,), check_batched_grad=True))
print(gradcheck(lambda x: x.cumsum(0), (x,), check_batched_grad=True))
print(gradgradcheck(torch.sin, (x,), check_batched_grad=True))
class Custom(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
E(lambda: gradcheck(Custom.apply, (x,), check_batched_grad=True))
'''

PROGRAMS['gc_complex_inputs'] = PRE + r'''
z = torch.tensor([1 + 2j, -0.5 + 0.3j], dtype=torch.cdouble, requires_grad=True)
print(gradcheck(lambda z: z * z, (z,)))
print(gradcheck(lambda z: z.abs(), (z,)))
print(gradcheck(lambda z: (z.conj() * z).real.sum(), (z,)))
print(gradcheck(torch.exp, (z,), fast_mode=True))
print(gradcheck(torch.exp, (z,), check_forward_ad=True))
print(gradgradcheck(lambda z: z * z, (z,)))
class BadConj(torch.autograd.Function):
    @staticmethod
    def forward(ctx, z):
        ctx.save_for_backward(z)
        return z * z
    @staticmethod
    def backward(ctx, g):
        z, = ctx.saved_tensors
        return g * 2 * z
E(lambda: gradcheck(BadConj.apply, (z,)))
'''

PROGRAMS['gc_gradgradcheck_failing'] = PRE + r'''
class NoDoubleBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 3 * x.detach() ** 2
x = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
print(gradcheck(NoDoubleBackward.apply, (x,)))
torch.manual_seed(0)
E(lambda: gradgradcheck(NoDoubleBackward.apply, (x,)))
print(gradgradcheck(NoDoubleBackward.apply, (x,), raise_exception=False))
E(lambda: gradgradcheck(NoDoubleBackward.apply, (x,), check_undefined_grad=False))
print(torch.rand(2))
print(gradgradcheck(torch.sin, (x,), grad_outputs=(torch.tensor([1., -1.], dtype=torch.double),)))
E(lambda: gradgradcheck(torch.sin, (x,), grad_outputs=(torch.tensor([1., -1.]),)))
print(gradgradcheck(torch.sin, (x,), gen_non_contig_grad_outputs=True))
'''


# ---- functional: what the user's function sees, dtypes, complex, in-place, nesting

PROGRAMS['fn_inputs_seen_by_the_function'] = PRE + r"""
def f(x):
    print('inside', x.requires_grad, x.is_leaf, x.grad_fn, torch.is_grad_enabled())
    return x * 2
x = torch.tensor([1., 2.])
xr = torch.tensor([1., 2.], requires_grad=True)
jacobian(f, x)
jacobian(f, xr)
jacobian(f, x, create_graph=True)
jacobian(f, xr, create_graph=True)
vjp(f, xr, torch.ones(2))
jvp(f, xr, torch.ones(2))
hessian(lambda x: f(x).sum(), xr)
with torch.no_grad():
    jacobian(f, x)
"""

PROGRAMS['fn_inplace_on_input'] = PRE + r"""
x = torch.tensor([1., 2.])
xr = torch.tensor([1., 2.], requires_grad=True)
E(lambda: jacobian(lambda x: x.mul_(2), x))
E(lambda: show(jacobian(lambda x: x.clone().mul_(2), x)))
E(lambda: show(jacobian(lambda x: x.mul_(2), xr, create_graph=True)))
print(xr)
E(lambda: vjp(lambda x: x.add_(1), x, torch.ones(2)))
print(x)
"""

PROGRAMS['fn_dtypes_mixed'] = PRE + r"""
x = torch.tensor([1., 2.])
show(jacobian(lambda x: x.double() * 2, x))
show(jacobian(lambda x: x.half() * 2, x))
show(vjp(lambda x: x.double() * 2, x, torch.ones(2, dtype=torch.double)))
E(lambda: vjp(lambda x: x * 2, x, torch.ones(2, dtype=torch.double)))
E(lambda: vjp(lambda x: x * 2, x, torch.ones(2, dtype=torch.long)))
E(lambda: jvp(lambda x: x * 2, x, torch.ones(2, dtype=torch.double)))
E(lambda: hvp(lambda x: (x ** 3).sum(), x, torch.ones(2, dtype=torch.double)))
show(jacobian(lambda x: x * 2, x.double()))
"""

PROGRAMS['fn_complex'] = PRE + r"""
z = torch.tensor([1 + 1j, 2 - 1j])
E(lambda: show(jacobian(lambda z: z * z, z)))
E(lambda: show(jacobian(lambda z: z * z, z, vectorize=True)))
E(lambda: show(jacobian(lambda z: (z * z.conj()).real, z)))
E(lambda: show(vjp(lambda z: z * 2, z, torch.ones(2, dtype=torch.cfloat))))
E(lambda: show(vjp(lambda z: z.abs().sum(), z)))
E(lambda: show(jvp(lambda z: z * 2, z, torch.ones(2, dtype=torch.cfloat))))
E(lambda: show(hessian(lambda z: z.abs().pow(2).sum(), z)))
"""

PROGRAMS['fn_nested_jacobians'] = PRE + r"""
x = torch.tensor([1., 2.])
f = lambda x: (x ** 3).sum()
g = lambda x: jacobian(f, x, create_graph=True)
show(jacobian(g, x))
show(hessian(f, x))
h = lambda x: jacobian(f, x)
show(jacobian(h, x))
E(lambda: jacobian(h, x, strict=True))
"""

PROGRAMS['fn_partial_outputs_requiring_grad'] = PRE + r"""
x = torch.tensor([1., 2.])
f = lambda x: (x * 2, torch.arange(3.), x.sum())
show(jacobian(f, x))
show(jacobian(f, x, vectorize=True))
show(vjp(f, x, (torch.ones(2), torch.ones(3), torch.tensor(1.))))
show(jvp(f, x, torch.ones(2)))
E(lambda: vjp(f, x, (torch.ones(2), torch.ones(3), torch.tensor(1.)), strict=True))
E(lambda: jvp(f, x, torch.ones(2), strict=True))
"""

PROGRAMS['fn_no_grad_inside_the_function'] = PRE + r"""
x = torch.tensor([1., 2.])
def f(x):
    with torch.no_grad():
        y = x * 2
    return y + x
show(jacobian(f, x))
def g(x):
    with torch.no_grad():
        return x * 2
show(jacobian(g, x))
E(lambda: jacobian(g, x, strict=True))
show(vjp(g, x, torch.ones(2)))
show(jvp(g, x, torch.ones(2)))
E(lambda: hvp(lambda x: g(x).sum(), x, torch.ones(2)))
"""

PROGRAMS['fn_v_requires_grad_without_create_graph'] = PRE + r"""
x = torch.tensor([1., 2.])
v = torch.tensor([1., 3.], requires_grad=True)
for fn in (vjp, jvp):
    show(fn(lambda x: x ** 2, x, v))
for fn in (vhp, hvp):
    show(fn(lambda x: (x ** 3).sum(), x, v))
    show(fn(lambda x: (x ** 3).sum(), x, v, create_graph=True))
"""

PROGRAMS['fn_results_are_fresh_tensors'] = PRE + r"""
x = torch.tensor([1., 2.])
out, r = vjp(lambda x: x, x, torch.ones(2))
print(out is x, out.data_ptr() == x.data_ptr(), out._version, r)
out[0] = 5.
print(x)
J = jacobian(lambda x: x, x)
print(J, J.is_contiguous(), J.stride())
J = jacobian(lambda x: x.t(), torch.ones(2, 3))
print(J.shape, J.is_contiguous(), J.stride())
J = jacobian(lambda x: x.t(), torch.ones(2, 3), vectorize=True)
print(J.shape)
"""

PROGRAMS['fn_positional_and_keyword_arguments'] = PRE + r"""
x = torch.tensor([1., 2.])
show(jacobian(lambda x: x ** 2, x, True))
show(jacobian(func=lambda x: x ** 2, inputs=x))
E(lambda: jacobian(lambda x: x ** 2))
E(lambda: jacobian(lambda x: x ** 2, x, foo=1))
E(lambda: vjp(lambda x: x ** 2, x, torch.ones(2), False, False, 3))
E(lambda: hessian(lambda x: (x ** 2).sum(), x, strategy='forward-mode'))
show(hvp(lambda x: (x ** 2).sum(), inputs=x, v=torch.ones(2)))
"""

PROGRAMS['fn_jacobian_of_nn_module'] = PRE + r"""
torch.manual_seed(0)
lin = torch.nn.Linear(3, 2)
x = torch.randn(3)
J = jacobian(lin, x)
show(J)
print(torch.allclose(J, lin.weight))
params = tuple(lin.parameters())
def f(w, b):
    return x @ w.t() + b
Jw, Jb = jacobian(f, params)
print(Jw.shape, Jb.shape, Jw.requires_grad)
H = hessian(lambda w, b: f(w, b).pow(2).sum(), params)
print([[h.shape for h in row] for row in H])
print(lin.weight.grad)
"""


# ---- forward_ad: the duals jvp is built on

PROGRAMS['fwad_make_unpack_print'] = PRE + r"""
x = torch.tensor([1., 2.])
t = torch.tensor([0.5, -1.])
with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    print(d)
    print(repr(d))
    u = fwAD.unpack_dual(d)
    print(u)
    print(type(u).__name__, u._fields, u.primal, u.tangent)
    p, tt = fwAD.unpack_dual(d)
    print(p is x, tt is t, p._version, tt.data_ptr() == t.data_ptr())
    y = d.sin() * 2
    print(y)
    print(fwAD.unpack_dual(y))
    print(fwAD.unpack_dual(x))
    print(fwAD.unpack_dual(y).tangent.grad_fn, y.grad_fn)
print(y)
print(fwAD.unpack_dual(y))
print(fwAD.unpack_dual(d).tangent)
"""

PROGRAMS['fwad_errors'] = PRE + r"""
x = torch.tensor([1., 2.])
E(lambda: fwAD.make_dual(x, torch.ones(2)))
with fwAD.dual_level():
    E(lambda: fwAD.make_dual(x, torch.ones(3)))
    E(lambda: fwAD.make_dual(x, torch.ones(2, dtype=torch.double)))
    E(lambda: fwAD.make_dual(x, torch.ones(2, dtype=torch.long)))
    E(lambda: fwAD.make_dual(torch.tensor([1, 2]), torch.tensor([1, 1])))
    E(lambda: fwAD.make_dual(x, 1.0))
    E(lambda: fwAD.make_dual(2.0, x))
    E(lambda: fwAD.make_dual(x, torch.ones(2), level=5))
    E(lambda: fwAD.unpack_dual(3.0))
    def nested():
        with fwAD.dual_level():
            pass
    E(nested)
    d = fwAD.make_dual(x, torch.ones(2))
    E(lambda: fwAD.make_dual(d, torch.ones(2)))
"""

PROGRAMS['fwad_jvp_by_hand_vs_functional'] = PRE + r"""
f = lambda x: (x ** 3).sum() + x.prod()
x = torch.tensor([1., 2., 3.])
v = torch.tensor([1., 0., -1.])
with fwAD.dual_level():
    out = f(fwAD.make_dual(x, v))
    p, t = fwAD.unpack_dual(out)
print(p, t)
print(jvp(f, x, v))
print(torch.func.jvp(f, (x,), (v,)))
show(jacobian(f, x, strategy='forward-mode', vectorize=True))
"""

PROGRAMS['fwad_requires_grad_primal'] = PRE + r"""
x = torch.tensor([1., 2.], requires_grad=True)
t = torch.tensor([1., 1.], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    print(d.requires_grad, d.grad_fn, d.is_leaf)
    y = (d * d).sum()
    p, tan = fwAD.unpack_dual(y)
    print(p, tan)
    tan.backward()
    print(x.grad, t.grad)
"""

PROGRAMS['fwad_enter_exit_level'] = PRE + r"""
lvl = fwAD.enter_dual_level()
print(lvl)
x = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([3., 4.]))
print(fwAD.unpack_dual(x * x))
fwAD.exit_dual_level()
print(fwAD.unpack_dual(x).tangent)
E(lambda: fwAD.exit_dual_level())
with fwAD.dual_level() as l2:
    print(l2)
E(lambda: fwAD.exit_dual_level(level=3))
"""

PROGRAMS['fwad_inplace_and_views'] = PRE + r"""
x = torch.tensor([1., 2., 3.])
with fwAD.dual_level():
    d = fwAD.make_dual(x.clone(), torch.tensor([1., 0., 0.]))
    v = d[1:]
    print(fwAD.unpack_dual(v))
    d.mul_(2)
    print(fwAD.unpack_dual(d))
    print(fwAD.unpack_dual(v))
    base = torch.zeros(3)
    base[0] = d[0]
    print(fwAD.unpack_dual(base))
    base.copy_(d)
    print(fwAD.unpack_dual(base))
"""


# ---- gradcheck: what a student checks, and how it goes wrong

PROGRAMS['gc_keyword_only_and_bad_arguments'] = PRE + r"""
x = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
E(lambda: gradcheck(torch.sin, (x,), 1e-6))
E(lambda: gradcheck(torch.sin))
E(lambda: gradcheck(torch.sin, (x,), foo=1))
E(lambda: gradgradcheck(torch.sin, (x,), None, 1e-6))
E(lambda: gradcheck(torch.sin, [x]))
E(lambda: gradcheck(torch.sin, (x,), atol=-1.))
E(lambda: gradcheck(torch.sin, (x,), rtol=-1.))
E(lambda: gradcheck(torch.sin, (x,), eps=0.))
"""

# fixed: sqrt at 0 (inf and NaN gradients) is a Jacobian mismatch, not a non-reentrant backward (PyTorch compares
# max |a - b| with nondet_tol, which NaN passes).
PROGRAMS['gc_nondifferentiable_points'] = PRE + r"""
x = torch.tensor([0., 1.], dtype=torch.double, requires_grad=True)
E(lambda: gradcheck(torch.relu, (x,)))
E(lambda: gradcheck(torch.abs, (x,)))
E(lambda: gradcheck(lambda x: x.clamp(min=0.), (x,)))
E(lambda: gradcheck(torch.sqrt, (x,)))
E(lambda: gradcheck(lambda x: x.max(), (torch.tensor([1., 1.], dtype=torch.double, requires_grad=True),)))
E(lambda: gradcheck(torch.floor, (x + 0.3,)))
E(lambda: gradcheck(torch.sign, (x + 0.3,)))
"""

# fixed: a bool output fails with PyTorch's RuntimeError of bool subtraction (NumPy's TypeError came out).
PROGRAMS['gc_integer_and_non_tensor_outputs'] = PRE + r"""
x = torch.tensor([0.5, 1.5, 0.2], dtype=torch.double, requires_grad=True)
E(lambda: gradcheck(lambda x: x.argmax(), (x,)))
E(lambda: gradcheck(lambda x: (x.sin(), x.argmax()), (x,)))
E(lambda: gradcheck(lambda x: x.sum().item(), (x,)))
E(lambda: gradcheck(lambda x: (x.sin(), 3), (x,)))
E(lambda: gradcheck(lambda x: None, (x,)))
E(lambda: gradcheck(lambda x: [x.sin(), x.cos()], (x,)))
E(lambda: gradcheck(lambda x: x.sort(), (x,)))
E(lambda: gradcheck(lambda x: x.sort().values, (x,)))
E(lambda: gradcheck(lambda x: x > 1, (x,)))
"""

PROGRAMS['gc_zero_dim_and_empty_inputs'] = PRE + r"""
a = torch.tensor(0.7, dtype=torch.double, requires_grad=True)
print(gradcheck(torch.exp, (a,)))
print(gradcheck(torch.exp, (a,), fast_mode=True))
print(gradgradcheck(torch.exp, (a,)))
e = torch.zeros(0, dtype=torch.double, requires_grad=True)
E(lambda: gradcheck(torch.exp, (e,)))
E(lambda: gradcheck(torch.exp, (e,), fast_mode=True))
E(lambda: gradcheck(lambda e, a: e.sum() * a, (e, a)))
E(lambda: gradgradcheck(torch.exp, (e,)))
"""

PROGRAMS['gc_random_function_fails'] = PRE + r"""
torch.manual_seed(0)
x = torch.rand(4, dtype=torch.double, requires_grad=True)
E(lambda: gradcheck(lambda x: torch.nn.functional.dropout(x, 0.5), (x,)))
torch.manual_seed(0)
print(gradcheck(lambda x: torch.nn.functional.dropout(x, 0.5, training=False), (x,)))
torch.manual_seed(1)
E(lambda: gradcheck(lambda x: x * torch.rand(4, dtype=torch.double), (x,)))
print(torch.rand(1))
"""

PROGRAMS['gc_backward_not_using_grad_output'] = PRE + r"""
class IgnoresGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.sum()
    @staticmethod
    def backward(ctx, g):
        return torch.ones(2, dtype=torch.double)
class ScalarGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 3
    @staticmethod
    def backward(ctx, g):
        return g * 3 + 1
x = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
E(lambda: gradcheck(IgnoresGrad.apply, (x,)))
E(lambda: gradcheck(ScalarGrad.apply, (x,)))
E(lambda: gradcheck(ScalarGrad.apply, (x,), fast_mode=True))
print(gradcheck(ScalarGrad.apply, (x,), raise_exception=False))
"""

PROGRAMS['gc_backward_returns_none_for_input'] = PRE + r"""
class DropsGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x * y
    @staticmethod
    def backward(ctx, g):
        return g * 2, None
class RightGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        return x * k
    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None
x = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
y = torch.tensor([2., 2.], dtype=torch.double, requires_grad=True)
E(lambda: gradcheck(DropsGrad.apply, (x, y)))
E(lambda: gradcheck(DropsGrad.apply, (x, y.detach())))
print(gradcheck(RightGrad.apply, (x, 2.0)))
print(gradcheck(RightGrad.apply, (x, 2.0), check_forward_ad=False, fast_mode=True))
"""

PROGRAMS['gc_nn_module_and_functional_layers'] = PRE + r"""
torch.manual_seed(0)
lin = torch.nn.Linear(3, 2).double()
x = torch.randn(4, 3, dtype=torch.double, requires_grad=True)
print(gradcheck(lin, (x,)))
print(gradcheck(lambda x, w, b: torch.nn.functional.linear(x, w, b), (x, lin.weight, lin.bias)))
print(gradcheck(lambda x: torch.nn.functional.softmax(x, -1), (x,)))
print(gradcheck(lambda x: torch.nn.functional.log_softmax(x, 0), (x,), fast_mode=True))
t = torch.tensor([0, 1, 1, 0])
print(gradcheck(lambda x: torch.nn.functional.cross_entropy(x, t), (x,)))
print(gradgradcheck(lambda x: torch.nn.functional.mse_loss(x, torch.zeros_like(x)), (x,)))
print(lin.weight.grad)
lin32 = torch.nn.Linear(3, 2)
E(lambda: gradcheck(lin32, (x,)))
E(lambda: gradcheck(lin32, (x.float(),)))
"""

PROGRAMS['gc_error_object'] = PRE + r"""
from torch.autograd.gradcheck import GradcheckError
print(GradcheckError.__mro__[1].__name__, GradcheckError.__name__)
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
try:
    gradcheck(Bad.apply, (x,))
except GradcheckError as e:
    print(type(e).__name__, len(e.args), e.args[0].splitlines()[0])
try:
    gradcheck(Bad.apply, (x,))
except RuntimeError as e:
    print('caught as RuntimeError')
print(callable(torch.autograd.gradcheck))
"""

PROGRAMS['gc_multiple_outputs_and_inputs'] = PRE + r"""
a = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
b = torch.tensor([[1., 2.], [3., 4.]], dtype=torch.double, requires_grad=True)
f = lambda a, b: (a @ b, b * a, (a.sum() * b).sum())
print(gradcheck(f, (a, b)))
print(gradcheck(f, (a, b), fast_mode=True))
print(gradgradcheck(f, (a, b)))
print(gradcheck(f, (a, b), check_forward_ad=True, check_batched_grad=True))
class Swap(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a * 2, b * 3
    @staticmethod
    def backward(ctx, ga, gb):
        return gb.sum() * 0 + ga * 2, gb * 2
E(lambda: gradcheck(Swap.apply, (a, b)))
E(lambda: gradcheck(Swap.apply, (a, b), fast_mode=True))
"""

PROGRAMS['gc_float32_with_loose_tolerances'] = PRE + r"""
x = torch.tensor([0.5, 1.5], requires_grad=True)
print(W(lambda: gradcheck(torch.sin, (x,), eps=1e-3, atol=1e-3, rtol=1e-2)))
print(W(lambda: gradcheck(torch.sin, (x,), eps=1e-3, atol=1e-3, rtol=1e-2, fast_mode=True)))
y = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
print(W(lambda: gradcheck(lambda x, y: x.double() * y, (x, y), eps=1e-3, atol=1e-3)))
print(W(lambda: gradcheck(lambda x, y: x * y, (x.detach(), y))))
print(W(lambda: gradcheck(torch.sin, (torch.tensor([0.5 + 1j], requires_grad=True),), eps=1e-3, atol=1e-2, rtol=1e-2)))
"""

PROGRAMS['gc_gradgradcheck_options'] = PRE + r"""
x = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
torch.manual_seed(0)
print(gradgradcheck(torch.tanh, (x,), check_fwd_over_rev=True))
E(lambda: gradgradcheck(torch.tanh, (x,), check_fwd_over_rev=True, check_rev_over_rev=False))
print(gradgradcheck(torch.tanh, (x,), check_fwd_over_rev=True, check_rev_over_rev=False, check_undefined_grad=False))
E(lambda: gradgradcheck(torch.tanh, (x,), check_fwd_over_rev=False, check_rev_over_rev=False))
E(lambda: gradgradcheck(torch.tanh, (x,), check_rev_over_rev=False, check_fwd_over_rev=True, check_undefined_grad=True))
print(gradgradcheck(torch.tanh, (x,), fast_mode=True, check_batched_grad=True))
E(lambda: gradgradcheck(torch.tanh, (x,), grad_outputs=torch.ones(2, dtype=torch.double)))
E(lambda: gradgradcheck(torch.tanh, (x,), grad_outputs=(torch.ones(3, dtype=torch.double),)))
E(lambda: gradgradcheck(torch.tanh, (x,), grad_outputs=(torch.ones(2, dtype=torch.double, requires_grad=True),)))
print(torch.rand(2))
"""

PROGRAMS['gc_gradgradcheck_linear_function'] = PRE + r"""
x = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
torch.manual_seed(0)
print(gradgradcheck(lambda x: x * 3, (x,)))
print(gradgradcheck(lambda x: x.sum(), (x,)))
E(lambda: gradgradcheck(lambda x: x.detach() * 1, (x,), raise_exception=False))
E(lambda: gradgradcheck(lambda x: x.detach() * 1, (x,)))
print(gradgradcheck(lambda x: x.reshape(2, 1).expand(2, 3), (x,)))
"""


# ---- more argument combinations

PROGRAMS['fwd_mode_jacobian_corner_cases'] = PRE + r"""
x = torch.tensor([1., 2.])
kw = dict(strategy='forward-mode', vectorize=True)
show(jacobian(lambda x: torch.ones(3), x, **kw))
show(jacobian(lambda x: (x * 2, x.sum(), x.outer(x)), x, **kw))
show(jacobian(lambda x: x ** 2, torch.tensor(3.), **kw))
E(lambda: jacobian(lambda x: x * 2, torch.tensor([1, 2]), **kw))
E(lambda: jacobian(lambda x: 3.0, x, **kw))
E(lambda: jacobian(lambda x: [x], x, **kw))
E(lambda: jacobian(lambda x: x * torch.rand(2), x, **kw))
E(lambda: jacobian(lambda x: x, [x], **kw))
show(jacobian(lambda a, b: a * b, (x, x), **kw))
xr = torch.tensor([1., 2.], requires_grad=True)
show(jacobian(lambda x: x ** 2, xr, **kw))
"""

PROGRAMS['same_tensor_twice_in_inputs'] = PRE + r"""
x = torch.tensor([1., 2.])
show(jacobian(lambda a, b: a * b, (x, x)))
show(jacobian(lambda a, b: a * b, (x, x), vectorize=True))
show(vjp(lambda a, b: a * b, (x, x), torch.ones(2)))
show(hessian(lambda a, b: (a * b).sum(), (x, x)))
xr = torch.tensor([1., 2.], requires_grad=True)
show(jacobian(lambda a, b: a * b, (xr, xr), create_graph=True))
"""

PROGRAMS['hess_vectorize_create_graph_and_unused'] = PRE + r"""
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3.], requires_grad=True)
H = hessian(lambda x, y: (x ** 3).sum(), (x, y), vectorize=True, create_graph=True)
show(H)
H[0][0].sum().backward()
print(x.grad, y.grad)
show(hessian(lambda x: (x ** 3).sum(), x, vectorize=True, create_graph=True))
show(hessian(lambda x, y: (x ** 2).sum() * y.sum(), (x, y), vectorize=True))
"""

PROGRAMS['hess_output_shapes'] = PRE + r"""
x = torch.tensor([1., 2.])
show(hessian(lambda x: (x ** 3).sum().reshape(1), x))
show(hessian(lambda x: (x ** 3).sum().reshape(1, 1, 1), x))
m = torch.tensor([[1., 2.], [3., 4.]])
H = hessian(lambda m: (m @ m).trace(), m)
print(H.shape)
show(H)
show(hessian(lambda m: m.det(), m))
"""

PROGRAMS['vjp_jvp_zero_dim_and_scalar_v'] = PRE + r"""
x = torch.tensor(2.)
show(vjp(lambda x: x ** 2, x))
show(vjp(lambda x: x ** 2, x, torch.tensor(3.)))
E(lambda: vjp(lambda x: x ** 2, x, torch.tensor([3.])))
show(jvp(lambda x: x ** 2, x))
E(lambda: jvp(lambda x: x ** 2, x, torch.tensor([3.])))
show(jvp(lambda x: x * torch.ones(3), x))
show(vjp(lambda x: x * torch.ones(3), x, torch.ones(3)))
y = torch.tensor([5.])
show(vjp(lambda y: y * 2, y))
show(jvp(lambda y: y * 2, y))
show(hvp(lambda y: (y ** 3).sum(), y))
"""

PROGRAMS['functional_in_a_training_loop'] = PRE + r"""
torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
X = torch.randn(5, 3)
t = torch.randn(5)
opt = torch.optim.SGD([w], lr=0.1)
def loss_fn(w):
    return ((X @ w - t) ** 2).mean()
for step in range(3):
    opt.zero_grad()
    g = jacobian(loss_fn, w, create_graph=True)
    penalty = g.pow(2).sum()
    (loss_fn(w) + 0.1 * penalty).backward()
    opt.step()
    print(step, loss_fn(w).item(), w.grad)
H = hessian(loss_fn, w)
print(H)
print(torch.linalg.eigvalsh(H))
"""

PROGRAMS['newton_step_with_hessian'] = PRE + r"""
f = lambda x: (x[0] - 1) ** 4 + (x[1] + 2) ** 2 + x[0] * x[1]
x = torch.tensor([0., 0.], dtype=torch.double)
for i in range(4):
    g = jacobian(f, x)
    H = hessian(f, x)
    x = x - torch.linalg.solve(H, g)
    print(i, x, f(x))
print(vhp(f, x, torch.ones(2, dtype=torch.double)))
print(hvp(f, x, torch.ones(2, dtype=torch.double)))
"""

PROGRAMS['gc_undefined_grad_bad_zero_handling'] = PRE + r"""
class ZerosForUndefined(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        if g is None:
            return torch.ones_like(ctx.saved_x) if hasattr(ctx, 'saved_x') else None
        return g * 2
class OnesForUndefined(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.shape = x.shape
        return x * 2
    @staticmethod
    def backward(ctx, g):
        if g is None:
            return torch.ones(ctx.shape, dtype=torch.double)
        return g * 2
x = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
print(gradcheck(ZerosForUndefined.apply, (x,)))
E(lambda: gradcheck(OnesForUndefined.apply, (x,)))
print(gradcheck(OnesForUndefined.apply, (x,), raise_exception=False))
"""

PROGRAMS['gc_complex_outputs_of_real_inputs'] = PRE + r"""
x = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
print(gradcheck(lambda x: x * (1 + 2j), (x,)))
print(gradcheck(lambda x: torch.polar(x, x), (x,)))
print(gradcheck(lambda x: torch.view_as_complex(torch.stack([x, x * 2], -1)), (x,)))
print(gradcheck(lambda x: x * (1 + 2j), (x,), fast_mode=True))
print(gradcheck(lambda x: x * (1 + 2j), (x,), check_forward_ad=True))
class BadComplex(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * (1 + 2j)
    @staticmethod
    def backward(ctx, g):
        return g.real
E(lambda: gradcheck(BadComplex.apply, (x,)))
E(lambda: gradcheck(BadComplex.apply, (x,), fast_mode=True))
"""

PROGRAMS['gc_inplace_inside_function'] = PRE + r"""
x = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
print(gradcheck(lambda x: x.clone().mul_(2), (x,)))
E(lambda: gradcheck(lambda x: x.mul_(2), (x,)))
print(x)
y = x.detach().clone().requires_grad_()
E(lambda: gradcheck(lambda x: x.exp().exp_(), (y,)))
E(lambda: gradcheck(lambda x: x.sin().sin_(), (y,), check_forward_ad=True))
E(lambda: gradcheck(lambda x: x[0], (y,)))
E(lambda: gradcheck(lambda x: x.view(2, 1).t(), (y,), check_batched_grad=True))
"""

PROGRAMS['gc_masked_and_grad_dtypes'] = PRE + r"""
x = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
print(gradcheck(torch.sin, (x,), masked=True))
print(gradcheck(torch.sin, (x,), masked=False, check_grad_dtypes=True))
print(gradcheck(torch.sin, (x,), masked=True, fast_mode=True))
"""

# fixed: check_batched_forward_grad batches with PyTorch's legacy vmap, which runs custom Functions without
# setup_context (torch.func.vmap's refusal came out).
PROGRAMS['gc_batched_forward_grad_custom_function'] = PRE + r"""
class WithJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x)
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * g * x
    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return 2 * t * x
x = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
print(gradcheck(WithJvp.apply, (x,), check_forward_ad=True))
E(lambda: gradcheck(WithJvp.apply, (x,), check_forward_ad=True, check_batched_forward_grad=True))
E(lambda: gradcheck(WithJvp.apply, (x,), check_batched_grad=True))
"""


# fixed: the batched forward-grad failure message keeps PyTorch's blank lines around its explanation.
PROGRAMS['gc_batched_forward_grad_what_vmap_refuses'] = PRE + r"""
x = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
kw = dict(check_forward_ad=True, check_batched_forward_grad=True)
class ItemInJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
    @staticmethod
    def jvp(ctx, t):
        return t * 2 + 0 * t.sum().item()
class NumpyInJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
    @staticmethod
    def jvp(ctx, t):
        return torch.from_numpy(t.detach().numpy() * 2)
class RandomInJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
    @staticmethod
    def jvp(ctx, t):
        return t * 2 + 0 * torch.rand_like(t)
class BatchDependent(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
    @staticmethod
    def jvp(ctx, t):
        return t * 2 if t.dim() == 1 else t * 3
torch.manual_seed(0)
for F in (ItemInJvp, NumpyInJvp, RandomInJvp, BatchDependent):
    E(lambda: gradcheck(F.apply, (x,), check_forward_ad=True))
    E(lambda: gradcheck(F.apply, (x,), **kw))
    print(torch.rand(1))
E(lambda: gradcheck(lambda x: (x * 2, None), (x,), **kw))
E(lambda: gradcheck(lambda x: (x * 2, torch.ones(2)), (x,), **kw))
print(torch.rand(2))
"""

PROGRAMS['fwd_mode_jacobian_custom_function'] = PRE + r"""
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x)
        return x ** 3
    @staticmethod
    def backward(ctx, g):
        raise RuntimeError('no backward here')
    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return 3 * x ** 2 * t
x = torch.tensor([1., 2.])
show(jacobian(Cube.apply, x, strategy='forward-mode', vectorize=True))
E(lambda: jacobian(Cube.apply, x))
class NoJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
E(lambda: jacobian(NoJvp.apply, x, strategy='forward-mode', vectorize=True))
show(jacobian(NoJvp.apply, x, vectorize=True))
show(hessian(lambda x: NoJvp.apply(x).pow(3).sum(), x))
E(lambda: hessian(lambda x: NoJvp.apply(x).pow(3).sum(), x, vectorize=True, outer_jacobian_strategy='forward-mode'))
"""


# fixed: with ctx.set_materialize_grads(False), a custom Function's jvp gets None for an input without a tangent (it
# got zeros); gradcheck(check_forward_ad=True) makes every input a dual (only the one being checked was), then runs
# PyTorch's undefined-tangent check (each input once with a zero tangent, once with none: it was missing).
PROGRAMS['fwad_custom_jvp_without_materialized_tangents'] = PRE + r"""
class Mul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.set_materialize_grads(False)
        ctx.save_for_forward(a, b)
        return a * b
    @staticmethod
    def backward(ctx, g):
        return None, None
    @staticmethod
    def jvp(ctx, ta, tb):
        print('jvp got', ta, tb)
        a, b = ctx.saved_tensors
        return (0 if ta is None else ta * b) + (0 if tb is None else a * tb)
a = torch.tensor([0.5, 1.5], dtype=torch.double)
b = torch.tensor([2., 3.], dtype=torch.double)
with fwAD.dual_level():
    y = Mul.apply(fwAD.make_dual(a, torch.ones(2, dtype=torch.double)), b)
    print(fwAD.unpack_dual(y))
    y = Mul.apply(fwAD.make_dual(a, torch.ones(2, dtype=torch.double)), fwAD.make_dual(b, torch.zeros(2, dtype=torch.double)))
    print(fwAD.unpack_dual(y))
ar = a.clone().requires_grad_()
with fwAD.dual_level():
    y = Mul.apply(fwAD.make_dual(a, torch.ones(2, dtype=torch.double)), ar)
    print(fwAD.unpack_dual(y))
"""

PROGRAMS['gc_forward_undefined_tangent_check'] = PRE + r"""
class Mul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.set_materialize_grads(False)
        ctx.save_for_forward(a, b)
        return a * b
    @staticmethod
    def backward(ctx, g):
        return None, None
    @staticmethod
    def jvp(ctx, ta, tb):
        a, b = ctx.saved_tensors
        if tb is None:
            return ta * b + 1
        return ta * b + a * tb
class MulCrash(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.set_materialize_grads(False)
        ctx.save_for_forward(a, b)
        return a * b
    @staticmethod
    def backward(ctx, g):
        return None, None
    @staticmethod
    def jvp(ctx, ta, tb):
        a, b = ctx.saved_tensors
        return ta * b + a * tb
a = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
b = torch.tensor([2., 3.], dtype=torch.double, requires_grad=True)
kw = dict(check_forward_ad=True, check_backward_ad=False)
E(lambda: gradcheck(Mul.apply, (a, b), **kw))
E(lambda: gradcheck(Mul.apply, (a, b), check_undefined_grad=False, **kw))
E(lambda: gradcheck(Mul.apply, (a, b), raise_exception=False, **kw))
E(lambda: gradcheck(MulCrash.apply, (a, b), **kw))
E(lambda: gradcheck(MulCrash.apply, (a, b), fast_mode=True, **kw))
E(lambda: gradcheck(MulCrash.apply, (a, b), check_undefined_grad=False, **kw))
z = torch.tensor([0.5 + 1j, 1.5 - 2j], dtype=torch.cdouble, requires_grad=True)
E(lambda: gradcheck(Mul.apply, (z, z * 2), **kw))
E(lambda: gradcheck(MulCrash.apply, (z, z.detach() * 2), **kw))
class WrongForUndefined(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.set_materialize_grads(False)
        ctx.save_for_forward(a, b)
        return a * b, a + b
    @staticmethod
    def backward(ctx, g1, g2):
        return None, None
    @staticmethod
    def jvp(ctx, ta, tb):
        a, b = ctx.saved_tensors
        ta_ = torch.zeros_like(a) if ta is None else ta
        tb_ = torch.ones_like(b) if tb is None else tb
        return ta_ * b + a * tb_, ta_ + tb_
E(lambda: gradcheck(WrongForUndefined.apply, (a, b), **kw))
print(gradcheck(WrongForUndefined.apply, (a, b), raise_exception=False, **kw))
E(lambda: gradcheck(WrongForUndefined.apply, (a, b), check_undefined_grad=False, **kw))
E(lambda: gradcheck(WrongForUndefined.apply, (a, b.detach()), **kw))
E(lambda: gradcheck(WrongForUndefined.apply, (a, b), fast_mode=True, **kw))
calls = [0]
def counted(x):
    calls[0] += 1
    return x.sin()
print(gradcheck(counted, (a,), check_forward_ad=True), calls)
calls[0] = 0
print(gradcheck(counted, (a,), check_forward_ad=True, fast_mode=True), calls)
calls[0] = 0
print(gradcheck(counted, (a,), check_forward_ad=True, check_undefined_grad=False), calls)
calls[0] = 0
print(gradcheck(counted, (z,), check_forward_ad=True, check_backward_ad=False), calls)
"""


# fixed: forward mode checks a complex input by its imaginary, then its real part (as PyTorch: the messages say which,
# the analytical Jacobian of tangents with a history prints its CopySlices / CopyBackwards node); it checked the complex
# input directly.
PROGRAMS['gc_complex_input_forward_mode'] = PRE + r"""
class BadCJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, z):
        ctx.save_for_forward(z)
        return z * z
    @staticmethod
    def backward(ctx, g):
        return None
    @staticmethod
    def jvp(ctx, t):
        z, = ctx.saved_tensors
        return 2 * t * z.conj()
z = torch.tensor([0.5 + 1j, 1.5 - 2j], dtype=torch.cdouble, requires_grad=True)
E(lambda: gradcheck(BadCJvp.apply, (z,), check_forward_ad=True, check_backward_ad=False))
E(lambda: gradcheck(BadCJvp.apply, (z,), check_forward_ad=True, check_backward_ad=False, fast_mode=True))
E(lambda: gradcheck(lambda z: z * z, (z,), check_forward_ad=True, check_backward_ad=False))
x = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
E(lambda: gradcheck(lambda z, x: BadCJvp.apply(z) * x, (z, x), check_forward_ad=True, check_backward_ad=False))
"""

# fixed: gradcheck calls the function as often as PyTorch (reverse and forward mode each compute their numerical
# Jacobian; no extra call for complex outputs), which a function with side effects (a counter, random draws) shows.
PROGRAMS['gc_how_often_the_function_runs'] = PRE + r"""
calls = [0]
def counted(f):
    def g(*args):
        calls[0] += 1
        return f(*args)
    return g
x = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
z = torch.tensor([0.5 + 1j, 1.5 - 2j], dtype=torch.cdouble, requires_grad=True)
cases = [
    ('real', torch.sin, (x,)),
    ('real to complex', lambda x: x * (1 + 1j), (x,)),
    ('complex to real', lambda z: z.abs(), (z,)),
    ('complex', lambda z: z * z, (z,)),
    ('two outputs', lambda x: (x.sin(), x.cos()), (x,)),
    ('mixed inputs', lambda z, x: z * x, (z, x)),
]
for name, f, inp in cases:
    for kw in ({}, dict(fast_mode=True), dict(check_forward_ad=True), dict(check_forward_ad=True, fast_mode=True),
               dict(check_forward_ad=True, check_backward_ad=False), dict(check_undefined_grad=False),
               dict(check_batched_grad=True)):
        calls[0] = 0
        r = gradcheck(counted(f), inp, **kw)
        print(name, kw, r, calls[0])
    calls[0] = 0
    torch.manual_seed(0)
    print(name, 'gradgradcheck', gradgradcheck(counted(f), inp), calls[0])
"""


# ---- a few more student programs

PROGRAMS['fn_backward_through_results_without_create_graph'] = PRE + r"""
x = torch.tensor([1., 2.], requires_grad=True)
J = jacobian(lambda x: x ** 3, x)
E(lambda: J.sum().backward())
J = jacobian(lambda x: x ** 3, x.detach(), create_graph=True)
E(lambda: J.sum().backward())
print(J.requires_grad, J.grad_fn)
o, r = vjp(lambda x: x ** 3, x, torch.ones(2))
E(lambda: r.sum().backward())
H = hessian(lambda x: (x ** 3).sum(), x, create_graph=True)
E(lambda: H.sum().backward())
print(x.grad)
"""

PROGRAMS['fn_strict_with_closure_only_outputs'] = PRE + r"""
w = torch.tensor([1., 2.], requires_grad=True)
x = torch.tensor([3., 4.])
E(lambda: jacobian(lambda x: w * 2, x, strict=True))
show(jacobian(lambda x: w * 2, x))
E(lambda: vjp(lambda x: w * 2, x, torch.ones(2), strict=True))
E(lambda: jvp(lambda x: w * 2, x, torch.ones(2), strict=True))
E(lambda: hessian(lambda x: (w * x).sum(), x, strict=True))
E(lambda: hvp(lambda x: (w * x).sum(), x, torch.ones(2), strict=True))
E(lambda: vhp(lambda x: (w * x * x).sum(), x, torch.ones(2), strict=True))
show(vhp(lambda x: (w * x * x).sum(), x, torch.ones(2)))
"""

PROGRAMS['fn_v_tuple_for_single_input'] = PRE + r"""
x = torch.tensor([1., 2.])
f = lambda x: (x ** 3).sum()
for fn in (hvp, vhp, jvp):
    E(lambda: fn(f, x, (torch.ones(2), torch.ones(2))))
    E(lambda: fn(f, x, (torch.ones(2),)))
    E(lambda: fn(f, (x,), torch.ones(2)))
    E(lambda: fn(f, x, [torch.ones(2)]))
E(lambda: vjp(f, x, (torch.tensor(1.),)))
E(lambda: vjp(lambda x: (x.sum(),), x, torch.tensor(1.)))
"""

PROGRAMS['gc_nested_list_inputs'] = PRE + r"""
a = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
b = torch.tensor([2., 3.], dtype=torch.double, requires_grad=True)
E(lambda: gradcheck(lambda l: l[0] * l[1], ([a, b],)))
E(lambda: gradcheck(lambda l: l[0] * l[1], ([a, b],), fast_mode=True))
E(lambda: gradcheck(lambda d: d['a'] * 2, ({'a': a},)))
E(lambda: gradcheck(lambda t, k: t * k, (a, None)))
E(lambda: gradcheck(lambda t, s: t * len(s), (a, 'abc')))
"""

PROGRAMS['gc_parameter_and_views_as_inputs'] = PRE + r"""
p = torch.nn.Parameter(torch.tensor([0.5, 1.5], dtype=torch.double))
print(gradcheck(torch.sin, (p,)))
m = torch.tensor([[1., 2.], [3., 4.]], dtype=torch.double, requires_grad=True)
print(gradcheck(lambda t: t @ t, (m.t(),)))
print(gradcheck(lambda t: t.exp(), (m[:, 0],)))
print(gradcheck(lambda t: t.exp(), (m[:, 0],), fast_mode=True))
print(m, p.grad, m.grad)
"""

PROGRAMS['gc_gradgradcheck_extra_arguments'] = PRE + r"""
x = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
torch.manual_seed(0)
print(gradgradcheck(lambda t, k: (t * k).sin(), (x, 3)))
print(gradgradcheck(lambda t, k: (t * k).sin(), (x, 3.5), fast_mode=True))
z = torch.tensor([0.5 + 1j, 1.5 - 2j], dtype=torch.cdouble, requires_grad=True)
print(gradgradcheck(lambda z: z * z.sin(), (z,)))
print(gradgradcheck(lambda z: z * z.sin(), (z,), fast_mode=True))
print(gradgradcheck(lambda z: (z * z).abs(), (z,)))
print(torch.rand(2))
"""

PROGRAMS['fwad_tangent_layout_and_identity'] = PRE + r"""
x = torch.arange(6.).reshape(2, 3)
t = torch.ones(3, 2).t()
with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    u = fwAD.unpack_dual(d)
    print(u.tangent is t, u.tangent.stride(), u.tangent.is_contiguous(), u.primal.stride())
    t2 = torch.ones(2, 3)
    d2 = fwAD.make_dual(x, t2)
    print(fwAD.unpack_dual(d2).tangent is t2)
    e = torch.empty_strided((2, 3), (1, 2)).fill_(1.)
    d3 = fwAD.make_dual(x, e)
    print(fwAD.unpack_dual(d3).tangent.stride())
    d4 = fwAD.make_dual(x.t(), torch.ones(3, 2))
    print(fwAD.unpack_dual(d4).tangent.stride())
"""

PROGRAMS['fwad_no_grad_and_levels'] = PRE + r"""
x = torch.tensor([1., 2.])
with torch.no_grad():
    with fwAD.dual_level():
        y = fwAD.make_dual(x, torch.ones(2)) ** 2
        print(fwAD.unpack_dual(y))
with torch.inference_mode():
    with fwAD.dual_level():
        E(lambda: print(fwAD.unpack_dual(fwAD.make_dual(x, torch.ones(2)) * 3)))
for _ in range(2):
    with fwAD.dual_level() as lvl:
        d = fwAD.make_dual(x, torch.ones(2))
        print(lvl, fwAD.unpack_dual(d, level=lvl).tangent)
        E(lambda: print(fwAD.unpack_dual(d, level=lvl + 1)))
        E(lambda: print(fwAD.unpack_dual(d, level=-1)))
        E(lambda: print(fwAD.make_dual(x, torch.ones(2), level=1)))
E(lambda: print(fwAD.unpack_dual(d, level=0)))
E(lambda: print(fwAD.unpack_dual(d)))
"""

PROGRAMS['fwad_dual_requires_grad_and_backward'] = PRE + r"""
x = torch.tensor([1., 2.], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.tensor([1., 0.]))
    print(d.requires_grad, d.is_leaf, type(d.grad_fn).__name__ if d.grad_fn else None)
    y = (d.exp() * d).sum()
    y.backward()
    print(x.grad, fwAD.unpack_dual(y).tangent)
    print(d.grad)
"""


# fixed: the fast-mode max difference is the tensor PyTorch formats (complex abs bits), a complex tangent of a real
# output warns as copy_ does, and check_grad_dtypes=True checks forward-mode tangents' dtypes.
PROGRAMS['gc_failing_forward_mode_variants'] = PRE + r"""
class BadJvp2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_forward(a, b)
        return a * b, (a + b) * (1 + 1j)
    @staticmethod
    def backward(ctx, g1, g2):
        return None, None
    @staticmethod
    def jvp(ctx, ta, tb):
        a, b = ctx.saved_tensors
        return ta * b + a * tb, (ta + 2 * tb) * (1 + 1j)
a = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
b = torch.tensor([2., 3.], dtype=torch.double, requires_grad=True)
kw = dict(check_forward_ad=True, check_backward_ad=False)
E(lambda: gradcheck(BadJvp2.apply, (a, b), **kw))
E(lambda: gradcheck(BadJvp2.apply, (a, b), fast_mode=True, **kw))
E(lambda: gradcheck(BadJvp2.apply, (a, b.detach()), fast_mode=True, **kw))
E(lambda: gradcheck(BadJvp2.apply, (a.detach(), b), **kw))
class ComplexTangentOfReal(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
    @staticmethod
    def jvp(ctx, t):
        return (t * 2).to(torch.cdouble)
E(lambda: gradcheck(ComplexTangentOfReal.apply, (a,), **kw))
E(lambda: gradcheck(ComplexTangentOfReal.apply, (a,), check_grad_dtypes=True, **kw))
"""

PROGRAMS['gc_outputs_of_other_dtypes'] = PRE + r"""
x = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
print(W(lambda: gradcheck(lambda x: x.float().sin(), (x,), raise_exception=False)))
print(W(lambda: gradcheck(lambda x: x.float().sin(), (x,), atol=1e-2, rtol=1e-2, eps=1e-3)))
print(W(lambda: gradcheck(lambda x: (x.sin(), x.float()), (x,), atol=1e-2, rtol=1e-2, eps=1e-3)))
print(W(lambda: gradcheck(lambda x: (x.sin(), x.long()), (x,))))
print(W(lambda: gradcheck(lambda x: (x.sin(), x.detach() * 3), (x,))))
print(W(lambda: gradcheck(lambda x: x.sin().to(torch.cfloat), (x,), atol=1e-2, rtol=1e-2, eps=1e-3)))
"""


PROGRAMS['gc_extending_pytorch_linear_function'] = PRE + r"""
from torch.autograd import Function
class LinearFunction(Function):
    @staticmethod
    def forward(input, weight, bias):
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output
    @staticmethod
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs
        ctx.save_for_backward(input, weight, bias)
    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias
linear = LinearFunction.apply
torch.manual_seed(0)
input = (torch.randn(4, 3, dtype=torch.double, requires_grad=True),
         torch.randn(2, 3, dtype=torch.double, requires_grad=True))
print(gradcheck(linear, input + (None,), eps=1e-6, atol=1e-4))
b = torch.randn(2, dtype=torch.double, requires_grad=True)
print(gradcheck(linear, input + (b,), eps=1e-6, atol=1e-4))
print(gradcheck(linear, input + (b,), check_batched_grad=True))
print(gradcheck(linear, input + (b,), fast_mode=True))
E(lambda: gradcheck(linear, input + (b,), check_forward_ad=True))
E(lambda: gradgradcheck(linear, input + (b,)))
print(gradcheck(linear, (input[0].detach(), input[1], b)))
print(gradcheck(linear, (input[0].float(), input[1].float(), b.float()), raise_exception=False))
print(torch.rand(2))
"""

PROGRAMS['gc_extending_pytorch_mul_constant'] = PRE + r"""
class MulConstant(torch.autograd.Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant
    @staticmethod
    def setup_context(ctx, inputs, output):
        tensor, constant = inputs
        ctx.constant = constant
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None
    @staticmethod
    def jvp(ctx, t, _):
        return t * ctx.constant
    @staticmethod
    def vmap(info, in_dims, tensor, constant):
        return tensor * constant, in_dims[0]
x = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
print(gradcheck(MulConstant.apply, (x, 3.0)))
print(gradcheck(MulConstant.apply, (x, 3.0), check_forward_ad=True, check_batched_grad=True,
                check_batched_forward_grad=True))
print(gradgradcheck(MulConstant.apply, (x, 3.0)))
print(gradgradcheck(MulConstant.apply, (x, 3.0), check_fwd_over_rev=True))
show(jacobian(lambda x: MulConstant.apply(x, 2.0), x))
show(jacobian(lambda x: MulConstant.apply(x, 2.0), x, vectorize=True))
show(jacobian(lambda x: MulConstant.apply(x, 2.0), x, strategy='forward-mode', vectorize=True))
show(torch.func.jacfwd(lambda x: MulConstant.apply(x, 2.0))(x))
show(torch.func.jacrev(lambda x: MulConstant.apply(x, 2.0))(x))
"""

# fixed: vectorize=True batches the backward as PyTorch's legacy vmap does (is_grads_batched): what it refuses in a
# custom backward (.item()) raises its error; it ran one plain backward per row.
PROGRAMS['hess_vectorize_custom_function_backward'] = PRE + r"""
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * g * x
class ItemSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * g * x + 0 * g.sum().item()
x = torch.tensor([1., 2., 3.])
show(hessian(lambda x: Square.apply(x).sum() * x.sum(), x))
show(hessian(lambda x: Square.apply(x).sum() * x.sum(), x, vectorize=True))
show(jacobian(Square.apply, x, vectorize=True))
E(lambda: jacobian(ItemSquare.apply, x, vectorize=True))
show(jacobian(ItemSquare.apply, x))
E(lambda: hessian(lambda x: ItemSquare.apply(x).sum() * x.sum(), x, vectorize=True))
"""


# fixed: with vectorize=True, the block of an input no output depends on is PyTorch's expanded zeros (stride 0).
PROGRAMS['jac_vectorize_unused_input_blocks'] = PRE + r"""
x = torch.tensor([1., 2., 3.])
y = torch.tensor([[1., 2.], [3., 4.]])
J = jacobian(lambda x, y: x * 2, (x, y), vectorize=True)
for j in J:
    print(j.shape, j.stride(), j.is_contiguous())
J = jacobian(lambda x, y: (x * 2, torch.ones(2)), (x, y), vectorize=True)
for row in J:
    for j in row:
        print(j.shape, j.stride(), j.is_contiguous())
J = jacobian(lambda x: x.exp(), x, vectorize=True)
print(J.stride())
J = jacobian(lambda x: torch.ones(3), x, vectorize=True)
print(J.stride(), J)
"""


# fixed: the forward-mode jacobian marks its basis tangents batched at a legacy vmap level, as PyTorch's _vmap does:
# .item() of a tangent in a custom jvp raises that vmap's error (it ran).
PROGRAMS['fwd_mode_jacobian_what_legacy_vmap_refuses'] = PRE + r"""
class ItemJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
    @staticmethod
    def jvp(ctx, t):
        return t * 2 + 0 * t.sum().item()
x = torch.tensor([1., 2.])
kw = dict(strategy='forward-mode', vectorize=True)
E(lambda: jacobian(ItemJvp.apply, x, **kw))
E(lambda: jacobian(lambda x: x * x.sum().item(), x, **kw))
E(lambda: jacobian(lambda x: x * float(x.sum()), x, **kw))
E(lambda: jacobian(lambda x: x.numpy(), x, **kw))
E(lambda: jacobian(lambda x: torch.tensor(x.tolist()), x, **kw))
E(lambda: hessian(lambda x: (x * x.sum().item()).sum(), x, vectorize=True, outer_jacobian_strategy='forward-mode'))
E(lambda: hessian(lambda x: (x ** 3).sum(), x, vectorize=True, outer_jacobian_strategy='forward-mode'))
"""


PROGRAMS['gc_fwd_over_rev_custom_functions_and_views'] = PRE + r"""
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * g * x
    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return 2 * t * x
class SqNoJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * g * x
x = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
torch.manual_seed(0)
print(gradgradcheck(Sq.apply, (x,), check_fwd_over_rev=True))
E(lambda: gradgradcheck(SqNoJvp.apply, (x,), check_fwd_over_rev=True))
print(gradgradcheck(SqNoJvp.apply, (x,)))
kw = dict(check_forward_ad=True)
print(gradcheck(lambda x: x[0], (x,), **kw))
print(gradcheck(lambda x: x.view(2, 1).t(), (x,), **kw))
print(gradcheck(lambda x: x.unsqueeze(0).expand(3, 2), (x,), **kw))
print(gradcheck(lambda x: (x.clone().mul_(2), x.detach()), (x,), **kw))
print(gradcheck(lambda x: x.clone().unsqueeze_(0).transpose_(0, 1), (x,), fast_mode=True, **kw))
print(torch.rand(2))
"""


# fixed: what runs under PyTorch's legacy vmap (a forward-mode jacobian's function, a vectorized jacobian's or
# is_grads_batched's backward, gradcheck's batched checks) runs once there: its prints and warnings show once (they
# showed once per basis row).
PROGRAMS['legacy_vmap_prints_and_warnings_once'] = PRE + r"""
class Loud(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x)
        ctx.save_for_backward(x)
        print('forward', x.shape)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        print('backward', g.shape)
        warnings.warn('from backward')
        return 2 * g * x
    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        print('jvp', t.shape)
        warnings.warn('from jvp')
        return 2 * t * x
x = torch.tensor([1., 2., 3.])
show(jacobian(Loud.apply, x))
show(jacobian(Loud.apply, x, vectorize=True))
show(jacobian(Loud.apply, x, strategy='forward-mode', vectorize=True))
def f(x):
    print('f called')
    warnings.warn('from f')
    return x.sin()
show(jacobian(f, x, strategy='forward-mode', vectorize=True))
show(hessian(lambda x: Loud.apply(x).sum() * x.sum(), x, vectorize=True))
xd = x.double().requires_grad_()
torch.manual_seed(0)
print(gradcheck(Loud.apply, (xd,), check_batched_grad=True, check_forward_ad=True, check_batched_forward_grad=True))
g = torch.autograd.grad(Loud.apply(xd), xd, torch.eye(3, dtype=torch.double), is_grads_batched=True)
print(g)
"""


PROGRAMS['gc_complex_modes_grid'] = PRE + r"""
z = torch.tensor([0.5 + 1j, 1.5 - 2j], dtype=torch.cdouble, requires_grad=True)
x = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
torch.manual_seed(0)
for f, inp in ((lambda z: z * z.sin(), (z,)), (lambda z: z.abs() ** 2, (z,)), (lambda x: x * (1 + 2j), (x,)),
               (lambda z, x: (z * x).exp(), (z, x))):
    for kw in ({}, dict(fast_mode=True), dict(check_fwd_over_rev=True), dict(check_fwd_over_rev=True, fast_mode=True)):
        E(lambda: gradgradcheck(f, inp, **kw))
    for kw in (dict(check_forward_ad=True, fast_mode=True), dict(check_forward_ad=True, check_batched_forward_grad=True),
               dict(check_forward_ad=True, check_backward_ad=False, fast_mode=True)):
        E(lambda: gradcheck(f, inp, **kw))
print(torch.rand(3))
"""


@pytest.fixture(autouse=True, scope="module")
def _warmed_up():
    """PyTorch's first vmap (forward-mode jacobian, hessian's forward outer strategy, batched gradchecks) imports
    modules that warn about torch.jit.script: done here, so that no program's output depends on whether it is the
    first."""
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.autograd.functional.jacobian(torch.sin, torch.ones(2), strategy="forward-mode", vectorize=True)
        run_both("import torch\n")


# Each program runs as in a fresh process (``parity.fresh_warn_once``: the warnings given once per process are given
# whatever ran before in this process).
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    # (catch_warnings restores the filters and showwarning the prelude replaces)
    with warnings.catch_warnings(), fresh_warn_once():
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
