"""Parity programs from a twenty-ninth hunt: the torch.autograd API reference, every function tried as a student does.

Each reference page's own example run and printed, then changed: other arguments, every keyword, defaults against
explicit values, wrong types and misuse (their errors printed), the reprs of what comes back (nodes, handles,
GradientEdge, UnpackedDualTensor, context managers and their state after exceptions) and interactions (hooks with
retain_graph, anomaly mode with NaN, inference tensors in autograd). Covered: the grad modes (no_grad, enable_grad,
set_grad_enabled, inference_mode, set_multithreading_enabled), forward_ad, autograd.functional, gradcheck (every
keyword, check_batched_forward_grad), anomaly mode, torch.autograd.graph (Node methods and their C argument checks,
GradientEdge, increment_version, saved-tensor hooks, multi-grad hooks, the stream flags, the memory budget),
Function / ctx (setup_context, mark_dirty, mark_non_differentiable, set_materialize_grads, once_differentiable,
save_for_forward, vmap rules, InplaceFunction, NestedIOFunction), node attributes that refuse assignment,
Tensor.grad / register_hook / retain_grad / requires_grad_ / detach_ / is_leaf / register_post_accumulate_grad_hook,
Variable and the autograd profiler (emit_itt, emit_nvtx and profile's options). Each program must print exactly
what PyTorch prints (hunt14's harness: ``parity.run_both`` with hunt13's ``E``/``W`` helpers, every warning also
printed on stdout).
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE

PROGRAMS: dict[str, str] = {}

# ---- grad modes: no_grad, enable_grad, set_grad_enabled, inference_mode, set_multithreading_enabled, decorators

PROGRAMS['gm_no_grad_repr_and_clone'] = PRE + r'''
ng = torch.no_grad()
print(type(ng).__name__, torch.is_grad_enabled())
with ng:
    print(torch.is_grad_enabled())
    with ng:
        print(torch.is_grad_enabled())
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
c = ng.clone()
print(type(c).__name__, c is ng)
E(lambda: torch.no_grad(True))
@torch.no_grad
def g(t):
    return t * 2
x = torch.ones(2, requires_grad=True)
print(g(x).requires_grad, g.__name__)
@torch.no_grad()
def h(t):
    return t * 2
print(h(x).requires_grad, h.__name__)
class K:
    @torch.no_grad()
    def m(self, t):
        return t + 1
print(K().m(x).requires_grad)
'''

PROGRAMS['gm_enable_grad_inside_no_grad_decorator'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
@torch.enable_grad()
def f(t):
    return t * t
with torch.no_grad():
    y = f(x)
    z = x * x
print(y.requires_grad, y.grad_fn, z.requires_grad)
y.sum().backward()
print(x.grad)
@torch.enable_grad
def g(t):
    return t.exp()
with torch.no_grad():
    print(g(x).grad_fn)
print(torch.enable_grad().clone().__class__.__name__)
E(lambda: torch.enable_grad(1))
def gen():
    for i in range(3):
        yield torch.is_grad_enabled()
with torch.no_grad():
    print(list(torch.enable_grad()(gen)()))
print(list(torch.no_grad()(gen)()))
'''

PROGRAMS['gm_set_grad_enabled_forms'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
print(torch.is_grad_enabled())
s = torch.set_grad_enabled(False)
print(torch.is_grad_enabled(), type(s).__name__)
y = x * 2
print(y.requires_grad)
torch.set_grad_enabled(True)
print(torch.is_grad_enabled())
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled())
    with torch.set_grad_enabled(True):
        print((x * 2).requires_grad)
print(torch.is_grad_enabled())
E(lambda: torch.set_grad_enabled())
E(lambda: torch.set_grad_enabled('no'))
E(lambda: torch.set_grad_enabled(None))
E(lambda: torch.set_grad_enabled(0))
print(torch.is_grad_enabled())
E(lambda: torch.set_grad_enabled(1))
print(torch.is_grad_enabled())
@torch.set_grad_enabled(False)
def f(t):
    return t * 3
print(f(x).requires_grad, torch.is_grad_enabled())
sg = torch.set_grad_enabled(False)
print(torch.is_grad_enabled())
c = sg.clone()
print(torch.is_grad_enabled(), type(c).__name__)
torch.set_grad_enabled(True)
'''

PROGRAMS['gm_inference_mode_forms'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
im = torch.inference_mode()
print(type(im).__name__, torch.is_inference_mode_enabled())
with im:
    y = x * 2
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
print(y.is_inference(), y.requires_grad, x.is_inference())
with torch.inference_mode(False):
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    z = x * 2
print(z.is_inference(), z.requires_grad)
with torch.inference_mode(mode=True):
    with torch.inference_mode(False):
        w = torch.ones(1)
        print(torch.is_inference_mode_enabled(), w.is_inference())
    print(torch.is_inference_mode_enabled())
@torch.inference_mode
def f(t):
    return t + 1
print(f(x).is_inference())
@torch.inference_mode(False)
def g(t):
    return t + 1
print(g(x).is_inference())
c = im.clone()
print(type(c).__name__)
E(lambda: torch.inference_mode('x'))
E(lambda: torch.inference_mode(mode=None))
'''

PROGRAMS['gm_state_after_exception'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
for cm in (torch.no_grad(), torch.enable_grad(), torch.inference_mode(), torch.set_grad_enabled(False)):
    try:
        with cm:
            raise ValueError('boom')
    except ValueError as e:
        print(type(cm).__name__, e, torch.is_grad_enabled(), torch.is_inference_mode_enabled())
@torch.no_grad()
def bad(t):
    raise RuntimeError('inside')
E(lambda: bad(x))
print(torch.is_grad_enabled())
with torch.no_grad():
    @torch.enable_grad()
    def bad2():
        raise KeyError('k')
    E(bad2)
    print(torch.is_grad_enabled())
print((x * 2).requires_grad)
'''

# ---- torch.autograd.forward_ad: dual_level, make_dual, unpack_dual, levels, tangents

PROGRAMS['fwad_make_dual_misuse'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
x = torch.tensor([1., 2.])
E(lambda: fwAD.make_dual(x, torch.ones(2)))
with fwAD.dual_level() as lvl:
    print(lvl)
    E(lambda: fwAD.make_dual(x, torch.ones(3)))
    E(lambda: fwAD.make_dual(x, torch.ones(2, dtype=torch.float64)))
    E(lambda: fwAD.make_dual(x, torch.ones(2, dtype=torch.int64)))
    E(lambda: fwAD.make_dual(torch.tensor([1, 2]), torch.ones(2)))
    E(lambda: fwAD.make_dual(x, 1.0))
    E(lambda: fwAD.make_dual(1.0, x))
    E(lambda: fwAD.make_dual(x, torch.ones(2), level=5))
    d = fwAD.make_dual(x, torch.ones(2))
    E(lambda: fwAD.make_dual(d, torch.ones(2)))
    print(fwAD.unpack_dual(d, level=lvl).tangent)
    E(lambda: fwAD.unpack_dual(d, level=3))
    E(lambda: fwAD.unpack_dual(3.0))
E(lambda: fwAD.unpack_dual(x, level=0))
'''

PROGRAMS['fwad_levels_enter_exit'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
l = fwAD.enter_dual_level()
print(l)
E(lambda: fwAD.enter_dual_level())
x = fwAD.make_dual(torch.tensor(2.), torch.tensor(3.))
print(x, fwAD.unpack_dual(x * x).tangent)
fwAD.exit_dual_level()
print(fwAD.unpack_dual(x).tangent)
E(lambda: fwAD.exit_dual_level())
E(lambda: fwAD.exit_dual_level(level=0))
with fwAD.dual_level():
        E(lambda: fwAD.exit_dual_level(level=1))
with fwAD.dual_level():
    E(lambda: fwAD.dual_level().__enter__())
print(fwAD.enter_dual_level())
fwAD.exit_dual_level(level=0)
'''

PROGRAMS['fwad_dual_level_decorator_and_exc'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
@fwAD.dual_level()
def f(p):
    d = fwAD.make_dual(p, torch.ones_like(p))
    return fwAD.unpack_dual(d.sin()).tangent
print(f(torch.tensor([0., 1.])))
try:
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor(1.), torch.tensor(1.))
        raise ValueError('x')
except ValueError as e:
    print('caught', e)
print(fwAD.unpack_dual(d).tangent, d)
print(type(fwAD.dual_level()).__mro__[1].__name__)
'''

PROGRAMS['fwad_tangent_views_and_ops'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    x = fwAD.make_dual(torch.arange(6.).reshape(2, 3), torch.arange(6.).reshape(2, 3) / 10)
    for name, f in [('t', lambda a: a.t()), ('sum0', lambda a: a.sum(0)), ('mm', lambda a: a @ a.t()),
                    ('softmax', lambda a: a.softmax(-1)), ('norm', lambda a: a.norm()),
                    ('cumsum', lambda a: a.cumsum(1)), ('max', lambda a: a.max(dim=1).values),
                    ('idx', lambda a: a[:, [0, 2]]),
                    ('expand', lambda a: a[:1].expand(3, 3)), ('clamp', lambda a: a.clamp(1, 4))]:
        y = f(x)
        p, t = fwAD.unpack_dual(y)
        print(name, t, y.grad_fn)
    print(fwAD.unpack_dual(x).tangent._base is None, fwAD.unpack_dual(x[0]).tangent._base is not None)
'''

PROGRAMS['fwad_requires_grad_and_backward'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
p = torch.tensor([1., 2., 3.], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(p, torch.tensor([1., 0., 0.]))
    print(d.requires_grad, d.grad_fn, d.is_leaf)
    y = (d ** 3).sum()
    pr, tg = fwAD.unpack_dual(y)
    print(pr, tg, pr.grad_fn, tg.grad_fn)
    y.backward()
    print(p.grad)
    g, = torch.autograd.grad(tg, p)
    print(g)
'''

PROGRAMS['fwad_dual_reprs_dtypes_shapes'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    for p, t in [(torch.tensor(1.5), torch.tensor(2.)), (torch.tensor([1., 2.], dtype=torch.float64), torch.tensor([0.5, 0.25], dtype=torch.float64)),
                 (torch.zeros(2, 2), torch.eye(2)), (torch.tensor([1 + 1j]), torch.tensor([2j])), (torch.empty(0), torch.empty(0)),
                 (torch.tensor([1., 2.], dtype=torch.float16), torch.tensor([1., 1.], dtype=torch.float16))]:
        d = fwAD.make_dual(p, t)
        print(d)
        print(repr(d * 2), d.dtype, d.shape, d.is_leaf, d.requires_grad)
    d = fwAD.make_dual(torch.tensor([1., 2.], requires_grad=True), torch.tensor([3., 4.]))
    print(d)
    print(d.sum())
    print(d.detach(), fwAD.unpack_dual(d.detach()).tangent)
    print(d.clone(), d[0], d.t() if d.dim() == 2 else d.unsqueeze(0))
'''

PROGRAMS['fwad_tangent_requires_grad_and_double'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
x = torch.tensor([1., 2.])
v = torch.tensor([1., 1.], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(x, v)
    y = d.sin()
    p, t = fwAD.unpack_dual(y)
    print(p.requires_grad, t.requires_grad, t.grad_fn)
    t.sum().backward()
    print(v.grad)
    print(fwAD.unpack_dual(d).tangent is v, fwAD.unpack_dual(d).tangent._base is v)
    E(lambda: fwAD.make_dual(x, v.expand(2, 2)))
    e = fwAD.make_dual(torch.ones(2, 2), torch.ones(1, 2).expand(2, 2))
    print(fwAD.unpack_dual(e).tangent.stride())
    f = fwAD.make_dual(torch.ones(2, 2).t(), torch.ones(2, 2))
    print(fwAD.unpack_dual(f).tangent.stride(), f.stride())
'''

PROGRAMS['fwad_inside_no_grad_inference_and_detach'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
x = torch.tensor([1., 2.])
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.ones(2))
    with torch.no_grad():
        print(fwAD.unpack_dual(d * 2).tangent)
    with torch.inference_mode():
        r = d * 2
        print(fwAD.unpack_dual(r).tangent)
    print(fwAD.unpack_dual(d.detach()).tangent, fwAD.unpack_dual(d.data).tangent if False else '')
    with torch.autograd.forward_ad._set_fwd_grad_enabled(False) if hasattr(torch.autograd.forward_ad, '_set_fwd_grad_enabled') else torch.no_grad():
        print(fwAD.unpack_dual(d * 3).tangent)
    print(fwAD.unpack_dual(d.new_zeros(2)).tangent, fwAD.unpack_dual(torch.zeros_like(d)).tangent)
    print(fwAD.unpack_dual(d.long()).tangent, fwAD.unpack_dual(d.double()).tangent)
    print(fwAD.unpack_dual(d > 1).tangent, fwAD.unpack_dual(d.argmax()).tangent)
'''

# ---- torch.autograd.functional: jacobian, hessian, vjp, jvp, vhp, hvp and their arguments

PROGRAMS['func_jacobian_doc_examples'] = PRE + r'''
from torch.autograd.functional import jacobian
def exp_reducer(x):
    return x.exp().sum(dim=1)
inputs = torch.arange(4.).reshape(2, 2) / 4
print(jacobian(exp_reducer, inputs))
print(jacobian(exp_reducer, inputs, create_graph=True))
def exp_adder(x, y):
    return 2 * x.exp() + 3 * y
inputs = (torch.tensor([0.5, 1.]), torch.tensor([2., -1.]))
print(jacobian(exp_adder, inputs))
print(jacobian(exp_adder, inputs, vectorize=True))
print(jacobian(exp_adder, inputs, vectorize=True, strategy='forward-mode'))
E(lambda: jacobian(exp_adder, inputs, strategy='forward-mode'))
E(lambda: jacobian(exp_adder, inputs, strategy='backward'))
E(lambda: jacobian(exp_adder, [inputs[0], inputs[1]]))
E(lambda: jacobian(exp_adder, inputs, create_graph=True, strict=True))
E(lambda: jacobian(lambda x: x, 3.0))
E(lambda: jacobian(lambda x: 3.0, torch.ones(2)))
print(jacobian(lambda x: x.sum(), torch.ones(2, 2)))
print(jacobian(lambda x: (x, x * 2), torch.ones(2)))
'''

PROGRAMS['func_hessian_doc_examples'] = PRE + r'''
from torch.autograd.functional import hessian
def pow_reducer(x):
    return x.pow(3).sum()
inputs = torch.tensor([[1., 2.], [-1., 0.5]])
print(hessian(pow_reducer, inputs))
print(hessian(pow_reducer, inputs, create_graph=True).grad_fn)
def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()
inputs = (torch.tensor([1., 2.]), torch.tensor([3., -1.]))
h = hessian(pow_adder_reducer, inputs)
print(type(h).__name__, len(h), type(h[0]).__name__, h)
print(hessian(pow_adder_reducer, inputs, vectorize=True, outer_jacobian_strategy='forward-mode'))
E(lambda: hessian(pow_adder_reducer, inputs, outer_jacobian_strategy='forward-mode'))
E(lambda: hessian(lambda x: x ** 2, torch.ones(2)))
E(lambda: hessian(lambda x: (x ** 2).sum(), torch.ones(2), strict=True, vectorize=True))
print(hessian(lambda x: x.sum(), torch.ones(2)))
E(lambda: hessian(lambda x: x.sum(), torch.ones(2), strict=True))
E(lambda: hessian(lambda x: (x.sum(), x.sum()), torch.ones(2)))
'''

PROGRAMS['func_vjp_jvp_doc_examples'] = PRE + r'''
from torch.autograd.functional import vjp, jvp
def exp_reducer(x):
    return x.exp().sum(dim=1)
inputs = torch.tensor([[0., 1., 2., 3.], [1., 1., 1., 1.], [-1., 0., 0.5, 0.25], [2., 2., 2., 2.]])
v = torch.ones(4)
out = vjp(exp_reducer, inputs, v)
print(type(out).__name__, out)
def adder(x, y):
    return 2 * x + 3 * y
inputs = (torch.tensor([1., 2.]), torch.tensor([3., 4.]))
v = torch.ones(2)
print(vjp(adder, inputs, v))
print(vjp(lambda x: x.sum(), torch.ones(3)))
E(lambda: vjp(lambda x: x * 2, torch.ones(3)))
E(lambda: vjp(adder, inputs, torch.ones(3)))
E(lambda: vjp(adder, inputs, (torch.ones(2), torch.ones(2))))
print(jvp(exp_reducer, inputs[0].unsqueeze(0).expand(4, 2).contiguous(), torch.ones(4, 2)))
print(jvp(adder, inputs, (torch.ones(2), torch.zeros(2))))
print(jvp(lambda x: x.sum(), torch.ones(3), torch.arange(3.)))
E(lambda: jvp(lambda x: x * 2, torch.ones(3)))
print(jvp(lambda x: x.sum(), torch.tensor(2.)))
E(lambda: jvp(adder, inputs, torch.ones(2)))
E(lambda: jvp(adder, inputs, (torch.ones(3), torch.ones(2))))
'''

PROGRAMS['func_vhp_hvp_doc_examples'] = PRE + r'''
from torch.autograd.functional import vhp, hvp
def pow_reducer(x):
    return x.pow(3).sum()
inputs = torch.tensor([[1., 2.], [0.5, -1.]])
v = torch.ones(2, 2)
print(vhp(pow_reducer, inputs, v))
print(vhp(pow_reducer, inputs, v, create_graph=True))
def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()
inputs = (torch.tensor([1., 2.]), torch.tensor([3., 4.]))
v = (torch.zeros(2), torch.ones(2))
print(vhp(pow_adder_reducer, inputs, v))
print(hvp(pow_adder_reducer, inputs, v))
print(hvp(pow_reducer, torch.tensor(2.)))
E(lambda: hvp(pow_reducer, torch.ones(2)))
E(lambda: vhp(lambda x: x ** 2, torch.ones(2), torch.ones(2)))
E(lambda: hvp(lambda x: x.sum(), torch.ones(2), torch.ones(2), strict=True))
print(hvp(lambda x: x.sum(), torch.ones(2), torch.ones(2)))
E(lambda: vhp(pow_reducer, torch.ones(2), torch.ones(3)))
'''

PROGRAMS['func_functional_nontensor_and_kwargs'] = PRE + r'''
import torch.autograd.functional as F
E(lambda: F.jacobian(lambda x: x, [1., 2.]))
E(lambda: F.vjp(lambda x: x.sum(), torch.ones(2), v=1.0))
E(lambda: F.jvp(lambda x: [x], torch.ones(2), torch.ones(2)))
E(lambda: F.jvp(lambda x: [x, x], torch.ones(2), torch.ones(2)))
E(lambda: F.vjp(lambda x: [x.sum()], torch.ones(2)))
E(lambda: F.jacobian(lambda x: x.long(), torch.ones(2)))
E(lambda: F.jacobian(lambda x: x, torch.ones(2, dtype=torch.long)))
print(F.jacobian(lambda x, y: x * y, (torch.ones(2), torch.tensor(3.))))
print(F.jacobian(lambda x: x * 2, torch.ones(2), strict=False, create_graph=False, vectorize=False, strategy='reverse-mode'))
E(lambda: F.jacobian(lambda x: x * 2, torch.ones(2), strategy='reverse'))
x = torch.ones(2, requires_grad=True)
j = F.jacobian(lambda t: t * x, torch.ones(2))
print(j, j.requires_grad)
j = F.jacobian(lambda t: t * x, torch.ones(2), create_graph=True)
print(j, j.requires_grad)
'''

PROGRAMS['func_transforms_over_custom_fn_doc'] = PRE + r'''
from torch.func import grad, vmap, jacrev, jacfwd
class NumpySort(torch.autograd.Function):
    @staticmethod
    def forward(x, dim):
        ind = x.argsort(dim=dim)
        ind_inv = ind.argsort(dim=dim)
        return x.gather(dim, ind), ind, ind_inv
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim = inputs
        _, ind, ind_inv = output
        ctx.mark_non_differentiable(ind, ind_inv)
        ctx.save_for_backward(ind, ind_inv)
        ctx.dim = dim
    @staticmethod
    def backward(ctx, grad_output, _0, _1):
        ind, ind_inv = ctx.saved_tensors
        return grad_output.gather(ctx.dim, ind_inv), None
    @staticmethod
    def vmap(info, in_dims, x, dim):
        x_bdim, _ = in_dims
        x = x.movedim(x_bdim, 0)
        dim = dim if dim >= 0 else dim + x.dim() - 1
        result = NumpySort.apply(x, dim + 1)
        return result, (0, 0, 0)
x = torch.tensor([[3., 1., 2.], [0., 5., -1.]], requires_grad=True)
s, i, ii = NumpySort.apply(x, 1)
print(s, i, ii, s.grad_fn.name(), i.requires_grad)
(s * torch.tensor([1., 10., 100.])).sum().backward()
print(x.grad)
print(vmap(NumpySort.apply, in_dims=(0, None))(x.detach(), 0))
print(grad(lambda t: (NumpySort.apply(t, 0)[0] * torch.tensor([1., 2., 3.])).sum())(torch.tensor([2., 0., 1.])))
print(jacrev(lambda t: NumpySort.apply(t, 0)[0])(torch.tensor([2., 0., 1.])))
E(lambda: jacfwd(lambda t: NumpySort.apply(t, 0)[0])(torch.tensor([2., 0., 1.])))
'''

# ---- gradcheck / gradgradcheck

PROGRAMS['gradcheck_error_type_and_float32'] = PRE + r'''
from torch.autograd import gradcheck
from torch.autograd.gradcheck import GradcheckError
print(GradcheckError.__mro__[1].__name__, GradcheckError.__name__)
x32 = torch.tensor([0.5, 1.5], requires_grad=True)
W_ = []
import warnings
with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter('always')
    r = gradcheck(lambda t: t * 2, (x32,), raise_exception=False)
print(r, [str(w.message)[:60] for w in ws])
x = torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True)
class Wrong(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t * 2
    @staticmethod
    def backward(ctx, g):
        return g * 3
try:
    gradcheck(Wrong.apply, (x,))
except GradcheckError as e:
    print('GradcheckError', str(e).splitlines()[0])
except RuntimeError as e:
    print('RuntimeError', e)
print(gradcheck(Wrong.apply, (x,), raise_exception=False))
try:
    gradcheck(Wrong.apply, (x,), fast_mode=True)
except RuntimeError as e:
    print(type(e).__name__, str(e).splitlines()[0])
E(lambda: gradcheck(lambda t: t * 2, (torch.tensor([1., 2.], dtype=torch.double),)))
E(lambda: gradcheck(lambda t: t.detach(), (x,)))
print(gradcheck(lambda t, s: t * s, (x, 3.0)))
print(gradcheck(lambda t: t.long(), (x,)) if False else 'skip')
'''

# ---- anomaly mode

PROGRAMS['anomaly_check_nan_false_vs_true'] = PRE + r'''
x = torch.tensor([0., 1.], requires_grad=True)
y = (x.sqrt() * 0).sum()
with torch.autograd.detect_anomaly(check_nan=False):
    y2 = (x.sqrt() * 0).sum()
    y2.backward()
print(x.grad)
x.grad = None
with torch.autograd.detect_anomaly():
    y3 = (x.sqrt() * 0).sum()
    E(lambda: y3.backward())
print(x.grad)
with torch.autograd.set_detect_anomaly(True, check_nan=True):
    z = (x / x).sum()
    E(lambda: z.backward())
with torch.autograd.set_detect_anomaly(True, check_nan=False):
    z = (x / x).sum()
    z.backward()
print(x.grad)
torch.autograd.set_detect_anomaly(False)
'''

PROGRAMS['anomaly_custom_fn_backward_nan_metadata'] = PRE + r'''
import warnings
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 1
    @staticmethod
    def backward(ctx, g):
        return g * float('nan')
x = torch.tensor([1., 2.], requires_grad=True)
with warnings.catch_warnings(record=True):
    warnings.simplefilter('always')
    with torch.autograd.detect_anomaly():
        y = Bad.apply(x)
        z = (y * 2).sum()
        print(sorted(y.grad_fn.metadata.keys()))
        try:
            z.backward()
        except RuntimeError as e:
            print('RuntimeError', e)
print(x.grad)
with torch.autograd.detect_anomaly(check_nan=False):
    y = Bad.apply(x)
    y.sum().backward()
print(x.grad)
'''

PROGRAMS['anomaly_nan_in_forward_only_and_inf'] = PRE + r'''
with torch.autograd.detect_anomaly():
    x = torch.tensor([-1., 0., 4.], requires_grad=True)
    y = x.sqrt()
    print(y)
    E(lambda: y.sum().backward())
    print(x.grad)
    x2 = torch.tensor([0., 1.], requires_grad=True)
    (1 / x2).sum().backward()
    print(x2.grad)
    x3 = torch.tensor([0.], requires_grad=True)
    E(lambda: (x3 / x3).backward())
    x4 = torch.tensor([2.], requires_grad=True)
    w = torch.tensor([float('nan')])
    E(lambda: (x4 * w).backward())
    E(lambda: (x4 + w).backward())
    print(x4.grad)
'''

# ---- torch.autograd.graph, Function / ctx, Tensor autograd methods, grad / backward arguments, profiler

PROGRAMS['node_api_doc_examples'] = PRE + r'''
a = torch.tensor([0., 0., 0.], requires_grad=True)
b = a.clone()
print(isinstance(b.grad_fn, torch.autograd.graph.Node))
print(issubclass(type(b.grad_fn), torch.autograd.graph.Node))
print(b.grad_fn.name(), type(b.grad_fn).__name__)
print(b.grad_fn.next_functions, b.grad_fn.next_functions[0][0].name())
print(b.grad_fn.metadata, type(b.grad_fn.metadata).__name__)
b.grad_fn.metadata['k'] = 1
print(b.grad_fn.metadata)
handle = b.grad_fn.register_hook(lambda gI, gO: (gO[0] * 2,))
print(type(handle).__name__)
b.sum().backward(retain_graph=True)
print(a.grad)
handle.remove()
a.grad = None
b.sum().backward(retain_graph=True)
print(a.grad)
def fn(g):
    return (g[0] * 3,)
h2 = b.grad_fn.register_prehook(fn)
a.grad = None
b.sum().backward()
print(a.grad)
h2.remove()
print(b.grad_fn._input_metadata if hasattr(b.grad_fn, '_input_metadata') else None)
E(lambda: torch.autograd.graph.Node())
print(sorted(torch.autograd.graph.Node.__abstractmethods__))
'''

PROGRAMS['gradient_edge_api'] = PRE + r'''
from torch.autograd.graph import get_gradient_edge, GradientEdge
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
z = y * 2
ge = get_gradient_edge(y)
print(type(ge).__name__, ge._fields, ge.node.name(), ge.output_nr)
print(GradientEdge.__mro__[1].__name__, len(ge))
gx = get_gradient_edge(x)
print(gx.node.name(), gx.output_nr, gx.node is x.grad_fn)
g = torch.autograd.grad(z.sum(), ge, retain_graph=True)
print(g)
print(torch.autograd.grad(z.sum(), (ge, x), retain_graph=True))
print(torch.autograd.grad(z.sum(), [gx]))
E(lambda: get_gradient_edge(torch.ones(2)))
E(lambda: get_gradient_edge(1.0))
print(GradientEdge(ge.node, 0) == ge, GradientEdge(ge.node, 0))
a, b, c = (torch.ones(3, requires_grad=True) * 1).unbind()
print(get_gradient_edge(b).output_nr, get_gradient_edge(b).node.name())
'''

PROGRAMS['increment_version_api'] = PRE + r'''
from torch.autograd.graph import increment_version
x = torch.ones(3, requires_grad=True)
y = x.clone()
print(y._version)
increment_version(y)
print(y._version)
increment_version([y, y])
print(y._version)
increment_version((y,))
print(y._version, x._version)
z = y.sigmoid()
increment_version(z)
E(lambda: z.sum().backward())
E(lambda: increment_version(1))
E(lambda: increment_version([1]))
v = y[1:]
increment_version(v)
print(y._version, v._version)
with torch.inference_mode():
    t = torch.ones(2)
increment_version(t)
print('inference ok')
'''

PROGRAMS['saved_tensors_hooks_doc_example'] = PRE + r'''
def pack_hook(x):
    print("Packing", x)
    return x.detach()
def unpack_hook(x):
    print("Unpacking", x)
    return x
a = torch.ones(5, requires_grad=True)
b = torch.ones(5, requires_grad=True) * 2
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b
y.sum().backward()
print(a.grad, b.grad)
cm = torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook)
print(type(cm).__name__, cm.pack_hook is pack_hook, cm.unpack_hook is unpack_hook)
with cm as r:
    print(r)
    z = (a * 3).exp()
z.sum().backward()
E(lambda: torch.autograd.graph.saved_tensors_hooks(pack_hook))
E(lambda: torch.autograd.graph.saved_tensors_hooks(1, 2).__enter__())
'''

PROGRAMS['save_on_cpu_and_disable'] = PRE + r'''
from torch.autograd.graph import save_on_cpu, disable_saved_tensors_hooks, saved_tensors_hooks
a = torch.randn(3, requires_grad=True) if False else torch.tensor([1., 2., 3.], requires_grad=True)
with save_on_cpu(pin_memory=False) as s:
    print(type(s).__name__ if s is not None else s)
    y = (a * a).exp()
y.sum().backward()
print(a.grad)
print(isinstance(save_on_cpu(), saved_tensors_hooks))
with disable_saved_tensors_hooks("no hooks here") as d:
    print(d)
    E(lambda: saved_tensors_hooks(lambda x: x, lambda x: x).__enter__())
    E(lambda: save_on_cpu().__enter__())
with saved_tensors_hooks(lambda x: x, lambda x: x):
    E(lambda: disable_saved_tensors_hooks("msg").__enter__())
@disable_saved_tensors_hooks("decorated")
def f():
    with saved_tensors_hooks(lambda x: x, lambda x: x):
        pass
E(f)
with disable_saved_tensors_hooks("outer"):
    with disable_saved_tensors_hooks("inner"):
        E(lambda: save_on_cpu().__enter__())
    E(lambda: save_on_cpu().__enter__())
with save_on_cpu():
    pass
print('ok')
'''

PROGRAMS['fn_doc_exp_and_apply_misuse'] = PRE + r'''
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result
    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result
x = torch.tensor([0., 1.], requires_grad=True)
out = Exp.apply(x)
print(out, out.grad_fn.name(), type(out.grad_fn).__mro__[1:3])
out.sum().backward()
print(x.grad)
E(lambda: Exp(x))
E(lambda: Exp()(x))
E(lambda: Exp.forward(None, x))
E(lambda: Exp.apply())
E(lambda: Exp.apply(x, x))
E(lambda: Exp.apply(i=x))
print(Exp.apply(torch.tensor(0.)).requires_grad)
E(lambda: torch.autograd.Function.apply(x))
E(lambda: torch.autograd.Function.forward(None, x))
E(lambda: torch.autograd.Function.backward(None, x))
E(lambda: torch.autograd.Function.jvp(None, x))
E(lambda: torch.autograd.Function.setup_context(None, (x,), x))
E(lambda: torch.autograd.Function.vmap(None, (0,), x))
print(Exp.generate_vmap_rule, torch.autograd.Function.generate_vmap_rule)
'''

PROGRAMS['fn_setup_context_style_doc'] = PRE + r'''
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(i):
        return i.exp()
    @staticmethod
    def setup_context(ctx, inputs, output):
        print('setup', type(inputs).__name__, len(inputs), output.requires_grad)
        ctx.save_for_backward(output)
    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result
x = torch.tensor([0., 1.], requires_grad=True)
y = Exp.apply(x)
print(y, y.grad_fn)
y.backward(torch.ones(2))
print(x.grad)
with torch.no_grad():
    z = Exp.apply(x)
print(z.requires_grad, z.grad_fn)
print(Exp.apply(torch.ones(1)).grad_fn)
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        return i * 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
E(lambda: Bad.apply(x))
'''

PROGRAMS['fn_mark_non_differentiable_doc'] = PRE + r'''
class Func(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        sorted, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(x, idx)
        return sorted, idx
    @staticmethod
    def backward(ctx, g1, g2):
        print('g2', g2)
        x, idx = ctx.saved_tensors
        grad_input = torch.zeros_like(x)
        grad_input.index_add_(0, idx, g1)
        return grad_input
x = torch.tensor([3., 1., 2.], requires_grad=True)
s, i = Func.apply(x)
print(s, i, s.requires_grad, i.requires_grad, i.grad_fn)
(s * torch.tensor([1., 10., 100.])).sum().backward()
print(x.grad)
E(lambda: i.sum().backward())
class F2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x * 2
        ctx.mark_non_differentiable(y)
        return y
    @staticmethod
    def backward(ctx, g):
        return g
y = F2.apply(x)
print(y.requires_grad, y.grad_fn, y.is_leaf)
E(lambda: y.sum().backward())
E(lambda: torch.autograd.grad(y.sum(), x))
'''

PROGRAMS['fn_set_materialize_grads_doc'] = PRE + r'''
class SimpleFunc(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(x)
        return x.clone(), x.clone()
    @staticmethod
    def backward(ctx, g1, g2):
        print('grads', g1, g2)
        x, = ctx.saved_tensors
        grad_input = torch.zeros_like(x)
        if g1 is not None:
            grad_input += g1
        if g2 is not None:
            grad_input += g2
        return grad_input
a = torch.tensor(1., requires_grad=True)
b, _ = SimpleFunc.apply(a)
b.backward()
print(a.grad)
class M(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone(), x.clone()
    @staticmethod
    def backward(ctx, g1, g2):
        print('grads', g1, g2)
        return g1 + g2
a.grad = None
b, _ = M.apply(a)
b.backward()
print(a.grad)
class N(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(value=False)
        E(lambda: ctx.set_materialize_grads())
        E(lambda: ctx.set_materialize_grads('no'))
        return x * 1
    @staticmethod
    def backward(ctx, g):
        return g
print(N.apply(a))
'''

PROGRAMS['fn_once_differentiable_doc'] = PRE + r'''
from torch.autograd.function import once_differentiable
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        print('in backward', torch.is_grad_enabled(), g.requires_grad, x.requires_grad)
        return 2 * x * g
x = torch.tensor([1., 3.], requires_grad=True)
y = Square.apply(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.requires_grad, g.grad_fn)
E(lambda: g.sum().backward())
y2 = Square.apply(x)
g2, = torch.autograd.grad(y2.sum(), x)
print(g2, g2.requires_grad)
print(Square.backward.__name__, Square.backward.__wrapped__.__name__)
'''

PROGRAMS['fn_mark_dirty_doc'] = PRE + r'''
class Inplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x_npy = x.numpy()
        x_npy += 1
        ctx.mark_dirty(x)
        return x
    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, grad_output):
        return grad_output
a = torch.tensor(1., requires_grad=True, dtype=torch.double).clone()
b = a * a
Inplace.apply(a)
E(lambda: b.backward())
print(a, a._version)
a2 = torch.tensor([1., 2.], requires_grad=True).clone()
r = Inplace.apply(a2)
print(r is a2, r, r.grad_fn)
r.sum().backward()
leaf = torch.tensor([1.], requires_grad=True)
E(lambda: Inplace.apply(leaf))
class NotDirty(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
c = torch.tensor([1., 2.], requires_grad=True).clone()
E(lambda: NotDirty.apply(c))
print(c._version)
'''

PROGRAMS['tensor_grad_attr_doc'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
print(x.grad)
(x * x).sum().backward()
print(x.grad, x.grad.requires_grad, x.grad.is_leaf, x.grad.grad_fn)
x.grad = torch.tensor([5., 5.])
print(x.grad)
E(lambda: setattr(x, 'grad', torch.tensor([1., 2., 3.])))
E(lambda: setattr(x, 'grad', torch.tensor([1, 2])))
E(lambda: setattr(x, 'grad', torch.tensor([1., 2.], dtype=torch.float64)))
E(lambda: setattr(x, 'grad', [1., 2.]))
E(lambda: setattr(x, 'grad', x))
x.grad = None
print(x.grad)
del x.grad
print(x.grad)
y = x * 2
import warnings
with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter('always')
    print(y.grad)
print(len(ws), str(ws[0].message)[:80] if ws else '')
y.retain_grad()
print(y.retains_grad, y.grad)
y.sum().backward()
print(y.grad, x.grad)
y.grad = torch.zeros(2)
print(y.grad)
'''

PROGRAMS['tensor_register_hook_doc'] = PRE + r'''
v = torch.tensor([0., 0., 0.], requires_grad=True)
h = v.register_hook(lambda grad: grad * 2)
print(type(h).__name__, h.id >= 0)
v.backward(torch.tensor([1., 2., 3.]))
print(v.grad)
h.remove()
h.remove()
v.backward(torch.tensor([1., 2., 3.]))
print(v.grad)
E(lambda: torch.ones(2).register_hook(lambda g: g))
E(lambda: v.register_hook())
E(lambda: v.register_hook(lambda g: g, 1))
v2 = torch.tensor([1.], requires_grad=True)
print(type(v2.register_hook(hook=1)).__name__)
E(lambda: (v2 * 2).backward())
w = v * 1
hh = w.register_hook(print)
w.sum().backward()
with hh:
    print('in handle ctx')
w2 = v * 1
w2.register_hook(lambda g: 'x')
E(lambda: w2.sum().backward())
w3 = v * 1
w3.register_hook(lambda g: g[:1])
E(lambda: w3.sum().backward())
'''

PROGRAMS['tensor_retain_grad_doc'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
print(a.retains_grad, a.is_leaf)
a.retain_grad()
print(a.retains_grad)
b = a * 3
print(b.retains_grad)
b.retain_grad()
b.retain_grad()
print(b.retains_grad)
c = b ** 2
c.sum().backward(retain_graph=True)
print(b.grad, a.grad)
c.sum().backward()
print(b.grad, a.grad)
E(lambda: torch.ones(2).retain_grad())
E(lambda: b.retain_grad(True))
E(lambda: setattr(b, 'retains_grad', False))
with torch.no_grad():
    d = a * 2
E(lambda: d.retain_grad())
e = (a * 2).detach()
E(lambda: e.retain_grad())
f = a[0]
f.retain_grad()
(f * 5).backward()
print(f.grad, f.retains_grad)
'''

PROGRAMS['tensor_detach__and_is_leaf_doc'] = PRE + r'''
a = torch.rand(10, requires_grad=True) if False else torch.ones(10, requires_grad=True)
print(a.is_leaf)
b = torch.ones(10, requires_grad=True).double()
print(b.is_leaf)
c = torch.ones(10, requires_grad=True) + 2
print(c.is_leaf)
d = torch.ones(10).double()
print(d.is_leaf)
e = torch.ones(10).requires_grad_()
print(e.is_leaf)
x = a * 2
r = x.detach_()
print(r is x, x.requires_grad, x.is_leaf, x.grad_fn)
v = (a * 2)[2:5]
E(lambda: v.detach_())
base = a * 2
vv = base.view(2, 5)
E(lambda: vv.detach_())
E(lambda: a.detach_())
print(a.detach_() is a if False else 'skip')
w = torch.ones(3)
print(w.detach_() is w, w.is_leaf)
E(lambda: setattr(c, 'is_leaf', True))
E(lambda: x.detach_(1))
'''

PROGRAMS['post_accumulate_grad_hook_api'] = PRE + r'''
p = torch.tensor([1., 2.], requires_grad=True)
calls = []
def hook(t):
    calls.append(t.grad.clone())
    print('hook', t is p, t.grad)
h = p.register_post_accumulate_grad_hook(hook)
print(type(h).__name__)
(p * 3).sum().backward()
(p * 4).sum().backward()
print(len(calls), p.grad)
h.remove()
(p * 1).sum().backward()
print(len(calls))
nl = p * 2
E(lambda: nl.register_post_accumulate_grad_hook(hook))
E(lambda: torch.ones(2).register_post_accumulate_grad_hook(hook))
q = torch.tensor([1.], requires_grad=True)
hq = q.register_post_accumulate_grad_hook(lambda t: 5)
E(lambda: (q * 2).sum().backward())
print(q.grad)
hq.remove()
q.register_post_accumulate_grad_hook(lambda t: print("mul", t.grad.mul_(10)))
(q * 2).sum().backward()
print(q.grad)
'''

PROGRAMS['multi_grad_hook_doc_and_errors'] = PRE + r'''
from torch.autograd.graph import register_multi_grad_hook
a = torch.rand(2, 3, requires_grad=True) if False else torch.ones(2, 3, requires_grad=True)
b = torch.ones(2, 3, requires_grad=True) * 2
c = a * b
d = a * b
def fn(grads):
    print([g is not None for g in grads], [None if g is None else g.shape for g in grads])
h = register_multi_grad_hook((a, b, c, d), fn)
print(type(h).__name__)
c.sum().backward(retain_graph=True)
c.sum().backward(inputs=(a,), retain_graph=True)
h.remove()
c.sum().backward(retain_graph=True)
h2 = register_multi_grad_hook([a, c], lambda g: print('any', g.shape), mode="any")
d.sum().backward(retain_graph=True)
c.sum().backward()
h2.remove()
E(lambda: register_multi_grad_hook((a,), fn, mode="some"))
E(lambda: register_multi_grad_hook((torch.ones(2),), fn))
E(lambda: register_multi_grad_hook((), fn))
E(lambda: register_multi_grad_hook((a, 1), fn))
E(lambda: register_multi_grad_hook(a, fn))
def bad(grads):
    return grads
hb = register_multi_grad_hook((a,), bad)
E(lambda: (a * 2).sum().backward())
hb.remove()
'''

PROGRAMS['multi_grad_hook_any_return_value'] = PRE + r'''
from torch.autograd.graph import register_multi_grad_hook
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.], requires_grad=True)
out = []
h = register_multi_grad_hook((x, y), lambda g: g * 10, mode="any")
(x * y).sum().backward()
print(x.grad, y.grad)
h.remove()
h = register_multi_grad_hook((x, y), lambda gs: out.append(len(gs)), mode="all")
(x * 2).sum().backward()
print(out, x.grad)
x.grad = None
(x * y).sum().backward()
print(out)
with h:
    pass
(x * y).sum().backward()
print(out)
'''

PROGRAMS['allow_mutation_on_saved_doc'] = PRE + r'''
import torch.autograd.graph as G
with G.allow_mutation_on_saved_tensors() as ctx:
    print(type(ctx).__name__)
    a = torch.ones(3, requires_grad=True)
    b = a.clone()
    out = (b ** 2).sum()
    b.sin_()
    out.sum().backward()
    print(a.grad)
    c = a.clone()
    s = c.exp()
    c.mul_(10)
    s.sum().backward()
    print(a.grad, c)
E(lambda: G.allow_mutation_on_saved_tensors().__enter__() or G.allow_mutation_on_saved_tensors().__enter__())
def nested():
    with G.allow_mutation_on_saved_tensors():
        with G.allow_mutation_on_saved_tensors():
            pass
E(nested)
x = torch.ones(2, requires_grad=True).clone()
y = x.exp()
x.add_(1)
E(lambda: y.sum().backward())
'''

PROGRAMS['variable_legacy_api'] = PRE + r'''
from torch.autograd import Variable
v = Variable(torch.tensor([1., 2.]), requires_grad=True)
print(v, type(v).__name__, v.is_leaf, v.requires_grad)
w = Variable(torch.tensor([3.]))
print(w.requires_grad, isinstance(w, torch.Tensor), isinstance(v, Variable))
print(isinstance(torch.ones(1), Variable))
(v * 2).sum().backward()
print(v.grad, v.data)
E(lambda: Variable([1., 2.]))
E(lambda: Variable())
E(lambda: Variable(torch.tensor([1, 2]), requires_grad=True))
u = Variable(v)
print(u.requires_grad, u.is_leaf, u is v)
print(Variable(torch.tensor([1.]), volatile=True) if False else 'skip')
print(Variable._execution_engine is not None)
'''

PROGRAMS['inplace_function_and_nested_io'] = PRE + r'''
from torch.autograd.function import InplaceFunction, NestedIOFunction
class AddOne(InplaceFunction):
    @staticmethod
    def forward(ctx, x, inplace=False):
        if inplace:
            ctx.mark_dirty(x)
            return x.add_(1)
        return x + 1
    @staticmethod
    def backward(ctx, g):
        return g, None
print(AddOne.__mro__[1].__name__)
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 1
z = AddOne.apply(y, True)
print(z is y, z, z.grad_fn)
z2 = AddOne.apply(x)
print(z2, z2.grad_fn)
(z.sum() + z2.sum()).backward()
print(x.grad)
print(InplaceFunction().inplace if hasattr(InplaceFunction(), 'inplace') else None)
print(InplaceFunction(inplace=True).inplace)
print(NestedIOFunction.__mro__[1].__name__)
'''

PROGRAMS['function_vmap_staticmethod'] = PRE + r'''
from torch.func import vmap
class NumpyMul(torch.autograd.Function):
    @staticmethod
    def forward(x, y):
        return x * y
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)
    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return g * y, g * x
    @staticmethod
    def vmap(info, in_dims, x, y):
        print('vmap rule', info.batch_size, in_dims, info.randomness)
        xd, yd = in_dims
        x = x if xd is not None else x.unsqueeze(0).expand(info.batch_size, *x.shape)
        y = y if yd is not None else y.unsqueeze(0).expand(info.batch_size, *y.shape)
        x = x.movedim(xd, 0) if xd is not None else x
        y = y.movedim(yd, 0) if yd is not None else y
        return x * y, 0
a = torch.arange(6.).reshape(2, 3)
b = torch.tensor([1., 2., 3.])
print(vmap(NumpyMul.apply)(a, a))
print(vmap(NumpyMul.apply, in_dims=(0, None))(a, b))
print(vmap(NumpyMul.apply, in_dims=(1, None))(a, torch.tensor([5., 7.])))
print(vmap(NumpyMul.apply, randomness='same')(a, a))
class NoRule(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x * 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: vmap(NoRule.apply)(a))
class Gen(NoRule):
    generate_vmap_rule = True
print(vmap(Gen.apply)(a))
'''

PROGRAMS['grad_outputs_as_gradient_edge'] = PRE + r'''
from torch.autograd.graph import get_gradient_edge
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
z = (y ** 2).sum()
ey = get_gradient_edge(y)
print(torch.autograd.grad(z, ey, retain_graph=True))
E(lambda: torch.autograd.grad(ey, x, grad_outputs=torch.ones(2), retain_graph=True))
E(lambda: torch.autograd.grad(ey, x, retain_graph=True))
E(lambda: torch.autograd.backward(ey, grad_tensors=torch.ones(2), inputs=[x]))
print(x.grad)
E(lambda: torch.autograd.backward(z, inputs=ey))
print(x.grad)
E(lambda: z.backward(inputs=[ey]))
'''

PROGRAMS['backward_inputs_forms'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
y = (x * w).sum()
y.backward(inputs=x, retain_graph=True)
print(x.grad, w.grad)
y.backward(inputs=[w], retain_graph=True)
print(x.grad, w.grad)
E(lambda: y.backward(inputs=[], retain_graph=True))
E(lambda: y.backward(inputs=(), retain_graph=True))
E(lambda: y.backward(inputs=[torch.ones(2)], retain_graph=True))
E(lambda: y.backward(inputs=[x, 1], retain_graph=True))
E(lambda: y.backward(inputs=1, retain_graph=True))
torch.autograd.backward([y], inputs=(x, w), retain_graph=True)
print(x.grad, w.grad)
torch.autograd.backward(y, None, True, False, inputs=[x])
print(x.grad)
'''

PROGRAMS['autograd_grad_forms'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x ** 2
print(torch.autograd.grad(y, x, torch.ones(2), retain_graph=True))
print(torch.autograd.grad([y], [x], [torch.ones(2)], retain_graph=True))
print(torch.autograd.grad(y.sum(), [x], None, retain_graph=True))
E(lambda: torch.autograd.grad(y, x, retain_graph=True))
E(lambda: torch.autograd.grad(y.sum(), x, only_inputs=False, retain_graph=True))
import warnings
with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter('always')
    r = torch.autograd.grad(y.sum(), x, only_inputs=True, retain_graph=True)
print(r, [str(w.message)[:70] for w in ws])
E(lambda: torch.autograd.grad(y.sum(), x, allow_unused=False, materialize_grads=True, retain_graph=True))
u = torch.tensor([1.], requires_grad=True)
print(torch.autograd.grad(y.sum(), (x, u), materialize_grads=True, retain_graph=True))
print(torch.autograd.grad(y.sum(), (x, u), allow_unused=True, retain_graph=True))
E(lambda: torch.autograd.grad(y.sum(), (x, u), retain_graph=True))
E(lambda: torch.autograd.grad(y.sum(), [], retain_graph=True))
E(lambda: torch.autograd.grad([], x))
E(lambda: torch.autograd.grad(y.sum(), x, grad_outputs=[torch.ones(1), torch.ones(1)], retain_graph=True))
E(lambda: torch.autograd.grad((y.sum(), y.sum()), x, grad_outputs=[None], retain_graph=True))
print(torch.autograd.grad((y[0], y[1]), x, grad_outputs=[None, torch.tensor(2.)], retain_graph=True))
print(torch.autograd.grad((y[0], y[1]), x, grad_outputs=(torch.tensor(1.), 3.) if False else None))
'''

PROGRAMS['inference_tensors_in_autograd'] = PRE + r'''
with torch.inference_mode():
    t = torch.ones(3)
    tv = t[:2]
print(t.is_inference(), tv.is_inference(), t.requires_grad)
E(lambda: t._version)
E(lambda: t.add_(1))
E(lambda: t.requires_grad_())
w = torch.ones(3, requires_grad=True)
E(lambda: w * t)
y = w + t
print(y.requires_grad, y.grad_fn, y.is_inference())
y.sum().backward()
print(w.grad)
E(lambda: (w * t).exp().sum().backward() or 'ok')
E(lambda: torch.exp(t).requires_grad_())
z = t.clone()
print(z.is_inference(), z.requires_grad_().requires_grad)
with torch.inference_mode():
    q = w * 2
    print(q.requires_grad, q.grad_fn, q.is_inference())
    t.add_(1)
print(t)
E(lambda: w.mul(t).mul_(2).sum().backward())
E(lambda: (w * 1).mul_(t))
print(t.detach().is_inference(), torch.ones(1).is_inference())
'''

PROGRAMS['inference_mode_with_enable_grad_and_no_grad'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
with torch.inference_mode():
    with torch.enable_grad():
        print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
        y = x * 2
        print(y.requires_grad, y.is_inference())
    with torch.no_grad():
        print(torch.is_grad_enabled())
    with torch.inference_mode(False):
        z = x * 2
        print(z.requires_grad, z.is_inference(), torch.is_grad_enabled())
with torch.no_grad():
    with torch.inference_mode(False):
        print(torch.is_grad_enabled(), (x * 2).requires_grad)
    with torch.inference_mode():
        print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
E(lambda: torch.inference_mode()(5))
print(torch.inference_mode.__mro__[1].__name__)
'''

PROGRAMS['ctx_attributes_in_forward_and_backward'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k, y=None):
        print('nig', ctx.needs_input_grad)
        print('dir', [n for n in ('saved_tensors', 'needs_input_grad', 'to_save', 'dirty_tensors', 'non_differentiable', 'materialize_grads') if hasattr(ctx, n)])
        ctx.k = k
        ctx.save_for_backward(x, None, y)
        E(lambda: ctx.saved_tensors)
        return x * k
    @staticmethod
    def backward(ctx, g):
        x, none, y = ctx.saved_tensors
        print('bw', none, y, ctx.k, ctx.needs_input_grad, type(ctx).__name__)
        E(lambda: ctx.save_for_backward(x))
        E(lambda: setattr(ctx, 'needs_input_grad', (True,)))
        import warnings
        with warnings.catch_warnings(record=True) as ws:
            warnings.simplefilter('always')
            sv = ctx.saved_variables
        print(len(sv), [str(w.message)[:60] for w in ws])
        return g * ctx.k, None, None
x = torch.tensor([1., 2.], requires_grad=True)
out = F.apply(x, 3)
out.sum().backward()
print(x.grad)
out2 = F.apply(x, 2, torch.ones(1))
out2.sum().backward()
print(out2.grad_fn.k, out2.grad_fn.needs_input_grad)
E(lambda: out2.grad_fn.saved_tensors)
'''

PROGRAMS['ctx_save_for_backward_misuse'] = PRE + r'''
class S(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, mode):
        if mode == 'int':
            ctx.save_for_backward(1)
        elif mode == 'list':
            ctx.save_for_backward([x])
        elif mode == 'twice':
            ctx.save_for_backward(x)
            ctx.save_for_backward(x, x)
        elif mode == 'kw':
            ctx.save_for_backward(t=x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        print('saved', len(ctx.saved_tensors))
        return g, None
x = torch.tensor([1.], requires_grad=True)
for m in ('int', 'list', 'kw'):
    E(lambda: S.apply(x, m))
y = S.apply(x, 'twice')
y.backward()
print(x.grad)
'''

PROGRAMS['backward_node_reprs_and_classes'] = PRE + r'''
class MyFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.ones(2, requires_grad=True)
y = MyFn.apply(x)
n = y.grad_fn
print(type(n).__name__, n.name())
print(isinstance(n, torch.autograd.graph.Node), isinstance(n, torch.autograd.function.BackwardCFunction))
print(n._forward_cls is MyFn, n.next_functions)
print(n.metadata, n._sequence_nr() >= 0)
print(MyFn._backward_cls.__name__)
E(lambda: n.apply(torch.ones(2)))
E(lambda: n(torch.ones(2)))
print(torch.autograd.function.FunctionCtx, torch.autograd.function.BackwardCFunction)
print(torch.autograd.Function.__mro__)
'''

PROGRAMS['function_instance_and_legacy_errors'] = PRE + r'''
class Old(torch.autograd.Function):
    def forward(self, x):
        return x * 2
    def backward(self, g):
        return g
x = torch.ones(2, requires_grad=True)
E(lambda: Old.apply(x))
E(lambda: Old()(x))
import warnings
with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter('always')
    try:
        Old()
        print('constructed')
    except Exception as e:
        print(type(e).__name__, e)
print([str(w.message)[:90] for w in ws])
class NoBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
y = NoBackward.apply(x)
print(y.grad_fn.name())
E(lambda: y.sum().backward())
class NoForward(torch.autograd.Function):
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: NoForward.apply(x))
'''

PROGRAMS['grad_mode_class_reprs_and_docs'] = PRE + r'''
for cls in (torch.no_grad, torch.enable_grad, torch.set_grad_enabled, torch.inference_mode,
            torch.autograd.set_multithreading_enabled, torch.autograd.detect_anomaly,
            torch.autograd.set_detect_anomaly, torch.autograd.graph.saved_tensors_hooks,
            torch.autograd.graph.save_on_cpu, torch.autograd.graph.disable_saved_tensors_hooks,
            torch.autograd.graph.allow_mutation_on_saved_tensors, torch.autograd.forward_ad.dual_level):
    print(cls, cls.__name__, cls.__qualname__)
print(repr(torch.set_grad_enabled(True)))
print(torch.autograd.grad_mode.no_grad, torch.no_grad is torch.autograd.no_grad)
'''

PROGRAMS['hooks_retain_graph_repeat'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * x
z = y.sum()
log = []
hy = y.register_hook(lambda g: log.append(('y', g.tolist())))
hn = z.grad_fn.register_prehook(lambda go: log.append(('pre', go[0].item())))
hp = z.grad_fn.register_hook(lambda gi, go: log.append(('post', gi[0].tolist())))
ha = x.register_post_accumulate_grad_hook(lambda t: log.append(('acc', t.grad.tolist())))
z.backward(retain_graph=True)
z.backward(retain_graph=True)
print(log)
log.clear()
hy.remove(); hn.remove()
z.backward(torch.tensor(3.), retain_graph=True)
print(log, x.grad)
log.clear()
g, = torch.autograd.grad(z, x, retain_graph=True)
print(log, g)
log.clear()
hp.remove(); ha.remove()
z.backward()
print(log, x.grad)
E(lambda: z.backward())
'''

PROGRAMS['hook_removes_itself_and_adds'] = PRE + r'''
x = torch.tensor([1.], requires_grad=True)
y = x * 2
handles = {}
def h1(g):
    print('h1', g)
    handles['h1'].remove()
    y.register_hook(lambda g: print('late', g))
    return g * 10
handles['h1'] = y.register_hook(h1)
y.register_hook(lambda g: print('h2', g))
y.backward(retain_graph=True)
print(x.grad)
y.backward()
print(x.grad)
'''

PROGRAMS['grad_identity_and_stealing'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
g = torch.tensor([3., 4.])
x.backward(g)
print(x.grad is g, x.grad.data_ptr() == g.data_ptr(), x.grad)
g.mul_(2)
print(x.grad)
x.backward(g)
print(x.grad, g)
y = torch.tensor([1., 2.], requires_grad=True)
h = torch.ones(2)
torch.autograd.backward(y, h)
print(y.grad is h)
gg, = torch.autograd.grad(y, y, h)
print(gg is h, gg.data_ptr() == h.data_ptr())
z = torch.tensor([1., 2.], requires_grad=True)
(z * 1).backward(h)
print(z.grad.data_ptr() == h.data_ptr())
q = torch.tensor([1., 2.], requires_grad=True)
q.sum().backward()
print(q.grad.stride(), q.grad.is_contiguous(), q.grad)
q.grad.add_(1)
print(q.grad)
'''

PROGRAMS['grad_layout_after_accumulate'] = PRE + r'''
x = torch.ones(2, 3, requires_grad=True)
g = torch.arange(6.).reshape(3, 2).t()
print(g.is_contiguous())
x.backward(g)
print(x.grad.stride(), x.grad is g)
x.backward(g)
print(x.grad.stride(), x.grad)
y = torch.ones(3, 2, requires_grad=True).t()
print(y.is_leaf, y.grad_fn)
w = torch.ones(3, 2).t().requires_grad_()
w.backward(torch.ones(2, 3))
print(w.grad.stride(), w.stride())
e = torch.ones(2, 2, requires_grad=True)
e.backward(torch.tensor(1.).expand(2, 2))
print(e.grad.stride(), e.grad)
'''

PROGRAMS['fn_save_for_forward_jvp'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
class MyExp(torch.autograd.Function):
    @staticmethod
    def forward(x, k):
        return x.exp() * k
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, k = inputs
        ctx.k = k
        ctx.save_for_forward(output)
        ctx.save_for_backward(output)
    @staticmethod
    def backward(ctx, g):
        out, = ctx.saved_tensors
        return g * out, None
    @staticmethod
    def jvp(ctx, xt, kt):
        out, = ctx.saved_tensors
        print('jvp', kt, ctx.k)
        return xt * out
x = torch.tensor([0., 1.])
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.tensor([1., 2.]))
    y = MyExp.apply(d, 2.)
    print(fwAD.unpack_dual(y).tangent)
print(torch.func.jvp(lambda t: MyExp.apply(t, 3.), (x,), (torch.ones(2),)))
E(lambda: torch.func.jacfwd(lambda t: MyExp.apply(t, 1.))(x))
print(torch.func.grad(lambda t: MyExp.apply(t, 1.).sum())(x))
class TwoSaves(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x)
        E(lambda: ctx.save_for_forward(x, 1))
        return x * 2
    @staticmethod
    def jvp(ctx, t):
        return t * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.ones(2))
    print(fwAD.unpack_dual(TwoSaves.apply(d)).tangent)
'''

PROGRAMS['mark_non_diff_input_returned_and_ints'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, n):
        ctx.mark_non_differentiable(x)
        return x, n * 2, x.argmax()
    @staticmethod
    def backward(ctx, g, gn, ga):
        print('bw', g, gn, ga)
        return g, None
x = torch.tensor([1., 2.], requires_grad=True)
n = torch.tensor([1, 2])
y, m, am = F.apply(x, n)
print(y is x, y.requires_grad, y.grad_fn, m.requires_grad, m.grad_fn, am.requires_grad)
print(y._version, y.is_leaf)
E(lambda: y.sum().backward())
class G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 2
z = G.apply(x)
print(z is x, z.grad_fn, z.is_leaf, z._base is x)
z.sum().backward()
print(x.grad)
'''

PROGRAMS['backward_gradient_odd_types'] = PRE + r'''
import numpy as np
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
for g in (2.0, 1, [1., 1.], np.ones(2), torch.ones(2, dtype=torch.float64), torch.ones(2, dtype=torch.int64), torch.ones(1), torch.ones(2, 1), torch.tensor(1.), None, True):
    E(lambda: y.backward(g, retain_graph=True))
print(x.grad)
s = x.sum()
for g in (2.0, torch.tensor(2.), torch.tensor([2.]), torch.ones(1, 1), torch.tensor(2, dtype=torch.int32), torch.tensor(2., dtype=torch.float64)):
    E(lambda: s.backward(g, retain_graph=True))
print(x.grad)
E(lambda: torch.autograd.backward(s, grad_tensors=2.0))
E(lambda: torch.autograd.backward([s, s], grad_tensors=[None, torch.tensor(3.)]))
print(x.grad)
E(lambda: torch.autograd.grad(s, x, grad_outputs=2.0))
'''

PROGRAMS['grad_outputs_mixed_requires_grad'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
c = torch.tensor([5., 6.])
outs = [x * 2, c * 3, (x * c).sum()]
E(lambda: torch.autograd.grad(outs, x, grad_outputs=[torch.ones(2), torch.ones(2), None]))
print(torch.autograd.grad([outs[0], outs[2]], x, grad_outputs=[torch.ones(2), None], retain_graph=True))
E(lambda: torch.autograd.backward(outs, grad_tensors=[torch.ones(2), torch.ones(2), None]))
print(x.grad)
E(lambda: torch.autograd.grad(c * 2, c, torch.ones(2)))
E(lambda: torch.autograd.grad(x * 2, c, torch.ones(2)))
E(lambda: torch.autograd.grad(x.sum(), x.detach()))
y = x * 2
y.detach_()
E(lambda: torch.autograd.grad(y.sum(), x))
'''

PROGRAMS['create_graph_grad_fn_names_unary_sweep'] = PRE + r'''
x = torch.tensor([0.3, 0.7], requires_grad=True)
ops = ['sin', 'cos', 'tan', 'exp', 'expm1', 'log', 'log1p', 'log2', 'log10', 'sqrt', 'rsqrt', 'tanh', 'sigmoid',
       'asin', 'acos', 'atan', 'sinh', 'cosh', 'asinh', 'atanh', 'erf', 'erfc', 'erfinv', 'reciprocal', 'square',
       'abs', 'neg', 'lgamma', 'digamma', 'sinc', 'logit', 'exp2', 'relu', 'frac', 'trunc', 'deg2rad', 'i0']
def walk(n, depth=0, out=None):
    out = [] if out is None else out
    if n is None or depth > 3:
        return out
    out.append(n.name())
    for m, _ in n.next_functions:
        walk(m, depth + 1, out)
    return out
for op in ops:
    y = getattr(torch, op)(x)
    g, = torch.autograd.grad(y.sum(), x, create_graph=True)
    names = walk(g.grad_fn)
    h = torch.autograd.grad(g.sum(), x, allow_unused=True)[0] if g.requires_grad else None
    print(op, g.requires_grad, names[:6])
    E(lambda: None if h is None else h.tolist())
'''

PROGRAMS['create_graph_grad_fn_names_binary_and_nn'] = PRE + r'''
import torch.nn.functional as F
x = torch.tensor([0.3, -0.7], requires_grad=True)
w = torch.tensor([1.5, 2.0], requires_grad=True)
cases = {
    'mul': lambda: x * w, 'div': lambda: x / w, 'pow': lambda: x.abs() ** w, 'atan2': lambda: torch.atan2(x, w),
    'hypot': lambda: torch.hypot(x, w), 'maximum': lambda: torch.maximum(x, w), 'xlogy': lambda: torch.xlogy(w, w),
    'softplus': lambda: F.softplus(x * w), 'gelu': lambda: F.gelu(x * w), 'silu': lambda: F.silu(x * w),
    'elu': lambda: F.elu(x * w), 'leaky_relu': lambda: F.leaky_relu(x * w, 0.1), 'mish': lambda: F.mish(x * w),
    'logsigmoid': lambda: F.logsigmoid(x * w), 'softmax': lambda: F.softmax(x * w, 0),
    'log_softmax': lambda: F.log_softmax(x * w, 0), 'mse': lambda: F.mse_loss(x, w),
    'l1': lambda: F.l1_loss(x, w), 'smooth_l1': lambda: F.smooth_l1_loss(x, w), 'huber': lambda: F.huber_loss(x, w),
    'bce_logits': lambda: F.binary_cross_entropy_with_logits(x, torch.tensor([1., 0.])),
    'hardtanh': lambda: F.hardtanh(x * w), 'celu': lambda: F.celu(x * w), 'selu': lambda: F.selu(x * w),
}
for name, f in cases.items():
    y = f()
    gx, gw = torch.autograd.grad(y.sum(), (x, w), create_graph=True, allow_unused=True, materialize_grads=True)
    print(name, gx.grad_fn.name() if gx.grad_fn else None, gw.grad_fn.name() if gw.grad_fn else None,
          [n.name() if n else None for n, _ in (gx.grad_fn.next_functions if gx.grad_fn else ())])
'''

PROGRAMS['is_grads_batched_custom_functions'] = PRE + r'''
class Plain(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
class Modern(torch.autograd.Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x):
        return x ** 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
x = torch.tensor([1., 2., 3.], requires_grad=True)
eye = torch.eye(3)
for F in (Plain, Modern):
    y = F.apply(x)
    try:
        print(F.__name__, torch.autograd.grad(y, x, eye, is_grads_batched=True))
    except Exception as e:
        print(F.__name__, type(e).__name__, str(e)[:150])
y = x.exp()
print(torch.autograd.grad(y, x, eye[:2], is_grads_batched=True))
E(lambda: torch.autograd.grad(y, x, torch.ones(3), is_grads_batched=True))
E(lambda: torch.autograd.grad(y, x, torch.ones(2, 2), is_grads_batched=True))
E(lambda: torch.autograd.grad(y, x, None, is_grads_batched=True))
E(lambda: torch.autograd.backward(y, eye, is_grads_batched=True) if False else y.backward(eye, is_grads_batched=True))
'''

PROGRAMS['saved_hooks_modes_and_what_is_packed'] = PRE + r'''
import torch.autograd.graph as G
packed = []
def pack(t):
    packed.append((tuple(t.shape), t.dtype, t.requires_grad, t.grad_fn is not None))
    return t
x = torch.tensor([1., 2.], requires_grad=True)
with G.saved_tensors_hooks(pack, lambda t: t):
    with torch.no_grad():
        a = x.exp()
    print('no_grad', packed); packed.clear()
    with torch.inference_mode():
        b = x.exp()
    print('inference', packed); packed.clear()
    c = x.exp()
    print('exp', packed); packed.clear()
    d = x * x
    print('mul', packed); packed.clear()
    e = x * 2
    print('mul scalar', packed); packed.clear()
    f = torch.ones(2) * x.detach()
    print('no grad inputs', packed); packed.clear()
    g = x.sigmoid().sum()
    print('sigmoid', packed); packed.clear()
    h = x.pow(3)
    print('pow', packed); packed.clear()
    i = x[0]
    print('select', packed); packed.clear()
    j = x.matmul(x)
    print('dot', packed); packed.clear()
(c.sum() + d.sum() + g + h.sum() + i + j).backward()
print(x.grad)
'''

PROGRAMS['disable_saved_hooks_as_decorator_and_nested'] = PRE + r'''
import torch.autograd.graph as G
@G.disable_saved_tensors_hooks("decorated: no hooks")
def f(x):
    return x * x
x = torch.ones(2, requires_grad=True)
print(f(x))
with G.saved_tensors_hooks(lambda t: t, lambda t: t):
    E(lambda: f(x))
with G.disable_saved_tensors_hooks("outer msg"):
    print(f(x).sum())
    E(lambda: G.saved_tensors_hooks(lambda t: t, lambda t: t).__enter__())
print(f.__name__)
with G.saved_tensors_hooks(lambda t: t * 2, lambda t: t):
    y = x * x
y.sum().backward()
print(x.grad)
'''

PROGRAMS['misuse_rapid_fire_autograd'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * x).sum()
E(lambda: torch.autograd.grad(None, x))
E(lambda: torch.autograd.grad(y, None))
E(lambda: torch.autograd.grad(y, 'x'))
E(lambda: torch.autograd.grad(y, [x, 'x']))
E(lambda: torch.autograd.grad('y', x))
E(lambda: torch.autograd.grad(y, x, retain_graph='yes'))
E(lambda: torch.autograd.grad(y, x, create_graph=None, retain_graph=True))
E(lambda: torch.autograd.grad(y, x, allow_unused='no', retain_graph=True))
E(lambda: torch.autograd.grad(y, x, True, retain_graph=True))
E(lambda: torch.autograd.backward(None))
E(lambda: torch.autograd.backward('y'))
E(lambda: torch.autograd.backward([y, 1]))
E(lambda: torch.autograd.backward(y, retain_graph=True, inputs='x'))
E(lambda: y.backward(retain_graph=True, create_graph='x'))
E(lambda: y.backward(1, 2, 3, 4, 5))
E(lambda: y.backward(foo=1))
E(lambda: torch.autograd.grad(y, x, foo=1))
print(x.grad)
'''

PROGRAMS['misuse_rapid_fire_functional_and_fwad'] = PRE + r'''
import torch.autograd.functional as AF
import torch.autograd.forward_ad as fwAD
f = lambda t: t.exp()
x = torch.tensor([1., 2.])
E(lambda: AF.jacobian(f, x, strategy='Forward-mode', vectorize=True))
E(lambda: AF.jacobian(f, x, vectorize='yes'))
E(lambda: AF.jacobian(None, x))
E(lambda: AF.jacobian(f, x, foo=1))
E(lambda: AF.hessian(lambda t: t.sum(), x, outer_jacobian_strategy='nope'))
E(lambda: AF.vjp(f, x, torch.ones(2, dtype=torch.float64)))
E(lambda: AF.jvp(f, x, torch.ones(2, dtype=torch.int64)))
E(lambda: AF.hvp(lambda t: t.pow(2).sum(), x, torch.ones(2), create_graph=1))
with fwAD.dual_level():
    E(lambda: fwAD.make_dual(x, torch.ones(2), level='0'))
    E(lambda: fwAD.make_dual(x, torch.ones(2), 0))
    E(lambda: fwAD.unpack_dual(x, 0))
    E(lambda: fwAD.make_dual(x, torch.ones(2), level=-1))
    E(lambda: fwAD.make_dual(x, tangent=torch.ones(2)))
    E(lambda: fwAD.make_dual(tensor=x, tangent=torch.ones(2)))
E(lambda: fwAD.exit_dual_level(0))
E(lambda: fwAD.enter_dual_level(0))
'''

PROGRAMS['grad_and_backward_inputs_as_dict'] = PRE + r'''
from collections import OrderedDict
import types
lin = torch.nn.Linear(2, 1)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.5, -1.]]))
    lin.bias.fill_(0.25)
x = torch.tensor([[1., 2.], [3., 4.]])
loss = lin(x).pow(2).mean()
g = torch.autograd.grad(loss, dict(lin.named_parameters()), retain_graph=True)
print(type(g).__name__, list(g), g)
E(lambda: torch.autograd.grad(loss, OrderedDict(lin.named_parameters()), retain_graph=True))
E(lambda: torch.autograd.grad(loss, types.MappingProxyType(dict(lin.named_parameters())), retain_graph=True))
E(lambda: torch.autograd.grad(loss, {}, retain_graph=True))
u = torch.ones(1, requires_grad=True)
print(torch.autograd.grad(loss, {'w': lin.weight, 'u': u}, allow_unused=True, retain_graph=True))
print(torch.autograd.grad(loss, {'w': lin.weight, 'u': u}, materialize_grads=True, retain_graph=True))
print(torch.autograd.grad(loss, {'b': lin.bias}, create_graph=True)['b'].grad_fn is not None)
loss2 = lin(x).sum()
loss2.backward(inputs={'weight': lin.weight}, retain_graph=True)
print(lin.weight.grad, lin.bias.grad)
torch.autograd.backward(loss2, inputs=dict(lin.named_parameters()), retain_graph=True)
print(lin.weight.grad, lin.bias.grad)
E(lambda: loss2.backward(inputs=OrderedDict(w=lin.weight), retain_graph=True))
E(lambda: loss2.backward(inputs={}, retain_graph=True))
E(lambda: torch.autograd.grad(loss2, {'a': lin.weight, 'b': 3}))
'''

PROGRAMS['grad_mode_decorating_classes_and_generators'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
@torch.no_grad()
class Model:
    def __init__(self, t):
        print('init grad enabled', torch.is_grad_enabled())
        self.y = t * 2
m = Model(x)
print(type(m).__name__, m.y.requires_grad, Model.__name__)
@torch.no_grad()
def gen(n):
    for i in range(n):
        got = yield (x * i).requires_grad, torch.is_grad_enabled()
        print('got', got, torch.is_grad_enabled())
g = gen(3)
print(next(g))
print(g.send('a'))
print(torch.is_grad_enabled())
E(lambda: g.throw(ValueError('thrown')))
print(torch.is_grad_enabled())
@torch.inference_mode()
def gen2():
    yield torch.is_inference_mode_enabled()
    yield (x * 2).is_inference()
print(list(gen2()), torch.is_inference_mode_enabled())
class K:
    @staticmethod
    @torch.no_grad()
    def s(t):
        return t * 2
    @classmethod
    @torch.enable_grad()
    def c(cls, t):
        return t * 2
print(K.s(x).requires_grad)
with torch.no_grad():
    print(K.c(x).requires_grad)
E(lambda: torch.no_grad()(1))
E(lambda: torch.no_grad()(x))
'''

PROGRAMS['grad_mode_decorated_function_metadata'] = PRE + r'''
import inspect
@torch.no_grad()
def f(a, b=2, *, c=3):
    """Doc of f."""
    return a
print(f.__name__, f.__doc__, f.__qualname__.split('.')[-1], inspect.signature(f), f.__wrapped__.__name__)
@torch.enable_grad
def g():
    """G doc."""
    return torch.is_grad_enabled()
print(g.__name__, g.__doc__, g())
@torch.set_grad_enabled(False)
def h():
    return torch.is_grad_enabled()
print(h.__name__, h(), torch.is_grad_enabled())
@torch.inference_mode
def i():
    return torch.is_inference_mode_enabled()
print(i.__name__, i())
import asyncio
@torch.no_grad()
async def co():
    return torch.is_grad_enabled()
E(lambda: asyncio.run(co()))
'''

PROGRAMS['gradgradcheck_kwargs_sweep'] = PRE + r'''
from torch.autograd import gradgradcheck
torch.manual_seed(0)
x = torch.tensor([0.5, -1.5, 2.], dtype=torch.double, requires_grad=True)
f = lambda t: (t.sin() * t.exp())
print(gradgradcheck(f, (x,)))
print(torch.rand(2))
print(gradgradcheck(f, (x,), check_fwd_over_rev=True))
E(lambda: gradgradcheck(f, (x,), check_fwd_over_rev=True, check_rev_over_rev=False))
print(gradgradcheck(f, (x,), check_fwd_over_rev=True, check_rev_over_rev=False, check_undefined_grad=False))
print(gradgradcheck(f, (x,), check_batched_grad=True))
print(torch.rand(2))
print(gradgradcheck(f, (x,), gen_non_contig_grad_outputs=True, raise_exception=False))
print(gradgradcheck(f, (x,), grad_outputs=torch.ones(3, dtype=torch.double)))
E(lambda: gradgradcheck(f, (x,), grad_outputs=torch.ones(2, dtype=torch.double)))
E(lambda: gradgradcheck(f, (x,), check_fwd_over_rev=False, check_rev_over_rev=False))
print(gradgradcheck(f, (x,), nondet_tol=1e-9, check_undefined_grad=False, check_grad_dtypes=True, fast_mode=True))
print(torch.rand(2))
class Once(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return t ** 2
    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, g):
        t, = ctx.saved_tensors
        return 2 * t * g
E(lambda: gradgradcheck(Once.apply, (x,)))
print(gradgradcheck(Once.apply, (x,), raise_exception=False) if False else 'skip')
'''

PROGRAMS['function_vmap_rule_errors'] = PRE + r'''
from torch.func import vmap
def make(rule, gen=False):
    class F(torch.autograd.Function):
        generate_vmap_rule = gen
        @staticmethod
        def forward(x):
            return x * 2
        @staticmethod
        def setup_context(ctx, inputs, output):
            pass
        @staticmethod
        def backward(ctx, g):
            return g * 2
    if rule is not None:
        F.vmap = staticmethod(rule)
    return F
x = torch.arange(6.).reshape(2, 3)
E(lambda: vmap(make(lambda info, d, t: (t * 2, 0), gen=True).apply)(x))
E(lambda: vmap(make(lambda info, d, t: t * 2).apply)(x))
E(lambda: vmap(make(lambda info, d, t: (t * 2,)).apply)(x))
E(lambda: vmap(make(lambda info, d, t: (t * 2, None)).apply)(x))
E(lambda: vmap(make(lambda info, d, t: (t * 2, (0,))).apply)(x))
print(vmap(make(lambda info, d, t: (t.t() * 2, 1)).apply)(x))
print(vmap(make(lambda info, d, t: (t * 2, d[0])).apply, in_dims=1)(x))
print(vmap(make(None, gen=True).apply, in_dims=1, out_dims=1)(x))
'''

PROGRAMS['node_hook_grad_inputs_none_slots'] = PRE + r'''
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
c = torch.tensor([[0.5, 1.], [1.5, 2.]])
def show(tag):
    def hook(gi, go):
        print(tag, [None if g is None else g.tolist() for g in gi], [None if g is None else g.shape for g in go])
    return hook
cases = {
    'mul': lambda: x * c, 'mul_rev': lambda: c * x, 'addmm': lambda: torch.addmm(c, x, c),
    'addmm_bias_grad': lambda: torch.addmm(x, c, c), 'where': lambda: torch.where(c > 1, x, c),
    'cat': lambda: torch.cat([c, x, c]), 'stack': lambda: torch.stack([x, c]), 'lerp': lambda: torch.lerp(c, x, 0.3),
    'matmul': lambda: c @ x, 'clamp_t': lambda: x.clamp(min=c), 'max_bin': lambda: torch.maximum(c, x),
    'index_put': lambda: c.index_put((torch.tensor([0]),), x[0]), 'masked_fill': lambda: x.masked_fill(c > 1, 0.),
}
for name, f in cases.items():
    y = f()
    y.grad_fn.register_hook(show(name + ' ' + y.grad_fn.name()))
    y.sum().backward()
print(x.grad)
'''

PROGRAMS['context_state_after_exceptions'] = PRE + r'''
import torch.autograd.graph as G
import torch.autograd.forward_ad as fwAD
x = torch.ones(2, requires_grad=True)
def boom(t):
    raise ValueError('pack failed')
try:
    with G.saved_tensors_hooks(boom, lambda t: t):
        y = x * x
except ValueError as e:
    print('caught', e)
z = x * x
z.sum().backward()
print('hooks gone', x.grad)
try:
    with G.disable_saved_tensors_hooks('msg'):
        raise KeyError('k')
except KeyError:
    pass
with G.saved_tensors_hooks(lambda t: t, lambda t: t):
    print('hooks allowed again')
try:
    with G.allow_mutation_on_saved_tensors():
        raise RuntimeError('inside')
except RuntimeError as e:
    print(e)
with G.allow_mutation_on_saved_tensors():
    print('allow again ok')
try:
    with fwAD.dual_level():
        raise IndexError('i')
except IndexError:
    pass
with fwAD.dual_level():
    print('level again ok')
try:
    with torch.autograd.profiler.profile() as p:
        raise ValueError('prof')
except ValueError:
    pass
with torch.autograd.profiler.profile() as p2:
    x * 2
print('profile again', len(p2.function_events) > 0)
try:
    with torch.autograd.set_detect_anomaly(True):
        raise ValueError
except ValueError:
    print(torch.is_anomaly_enabled())
def unpack_boom(t):
    raise TypeError('unpack failed')
with G.saved_tensors_hooks(lambda t: t, unpack_boom):
    w = x.exp()
E(lambda: w.sum().backward())
print(x.grad)
'''

PROGRAMS['fn_under_grad_modes_and_needs_input_grad'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        print('fwd', ctx.needs_input_grad, torch.is_grad_enabled(), torch.is_inference_mode_enabled())
        return x * y
    @staticmethod
    def backward(ctx, g):
        print('bwd', ctx.needs_input_grad, torch.is_grad_enabled())
        return g, g
x = torch.tensor([1., 2.], requires_grad=True)
c = torch.tensor([3., 4.])
with torch.no_grad():
    r = F.apply(x, c)
print(r.requires_grad, r.grad_fn)
with torch.inference_mode():
    r = F.apply(x, c)
print(r.requires_grad, r.is_inference())
r = F.apply(c, c)
print(r.requires_grad, r.grad_fn)
r = F.apply(x, c)
r.sum().backward()
g, = torch.autograd.grad(F.apply(x, x).sum(), x, create_graph=True)
print(g, g.requires_grad)
with torch.enable_grad():
    r = F.apply(x.detach(), c)
print(r.requires_grad)
'''

# ---- the fixes (each printed something else before this hunt; the comment says what PyTorch does)

# set_multithreading_enabled takes a real bool only (PyTorch's C binding)
PROGRAMS['gm_set_multithreading_enabled'] = PRE + r'''
import threading
print(torch.autograd.set_multithreading_enabled)
m = torch.autograd.set_multithreading_enabled(False)
print(type(m).__name__, m.mode if hasattr(m, 'mode') else None)
x = torch.ones(3, requires_grad=True)
(x * 2).sum().backward()
print(x.grad)
m2 = m.clone()
print(type(m2).__name__)
with torch.autograd.set_multithreading_enabled(True):
    (x * 3).sum().backward()
print(x.grad)
E(lambda: torch.autograd.set_multithreading_enabled())
E(lambda: torch.autograd.set_multithreading_enabled('yes'))
torch.autograd.set_multithreading_enabled(True)
@torch.autograd.set_multithreading_enabled(False)
def f(t):
    return (t ** 2).sum()
E(lambda: f)
torch.autograd.set_multithreading_enabled(True)
'''

# UnpackedDualTensor's __mro__ is (UnpackedDualTensor, tuple, object)
PROGRAMS['fwad_doc_example_and_unpacked'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
primal = torch.randn(10, 10) if False else torch.arange(6.).reshape(2, 3)
tangent = torch.ones(2, 3) * 0.5
def fn(x, y):
    return x ** 2 + y ** 2
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    print(dual_input)
    dual_input_alt = fwAD.make_dual(primal, tangent)
    dual_output = fn(dual_input, dual_input_alt)
    jvp = fwAD.unpack_dual(dual_output).tangent
    print(jvp)
    u = fwAD.unpack_dual(dual_output)
    print(type(u).__name__, u._fields, len(u))
    print(u.primal is u[0], u.tangent is u[1])
    p, t = u
    print(p, t)
    print(repr(u)[:30])
    print(fwAD.unpack_dual(primal))
    print(fwAD.unpack_dual(dual_output, level=0).tangent is not None)
print(fwAD.unpack_dual(dual_output))
print(fwAD.UnpackedDualTensor)
print(fwAD.UnpackedDualTensor.__mro__)
print(fwAD.UnpackedDualTensor(1, 2))
'''

# Node methods refuse keywords and other argument counts as C methods do
PROGRAMS['node_hook_errors_and_kwargs'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
y = x * 2
n = y.grad_fn
n0 = (x * 7).grad_fn
print(type(n0.register_hook(1)).__name__)
E(lambda: n0(torch.ones(2)))
t = x * 7
t.grad_fn.register_prehook(None)
E(lambda: t.sum().backward())
E(lambda: n.register_hook(lambda a, b: None, prepend=True))
E(lambda: n.register_prehook(lambda g: None, prepend=True))
E(lambda: n.register_hook())
E(lambda: n.name(1))
E(lambda: n.register_hook(lambda *a: None, 5))
order = []
n.register_hook(lambda gi, go: order.append('h1'))
n.register_prehook(lambda go: order.append('p1'))
n.register_prehook(lambda go: order.append('p2'))
y.sum().backward()
print(order, x.grad)
z = x * 3
z.grad_fn.register_hook(lambda gi, go: (gi[0] * 0, gi[0]))
E(lambda: z.sum().backward())
w = x * 4
w.grad_fn.register_prehook(lambda go: (go[0], go[0]))
E(lambda: w.sum().backward())
v = x * 5
v.grad_fn.register_prehook(lambda go: go[0])
E(lambda: v.sum().backward())
u = x * 6
u.grad_fn.register_hook(lambda gi, go: gi[0])
E(lambda: u.sum().backward())
'''

# check_batched_forward_grad=True runs (vmap over forward AD)
PROGRAMS['gradcheck_kwargs_sweep'] = PRE + r'''
from torch.autograd import gradcheck, gradgradcheck
x = torch.tensor([0.5, -1.5, 2.], dtype=torch.double, requires_grad=True)
f = lambda t: (t.sin() * t).sum()
print(gradcheck(f, (x,)))
print(gradcheck(f, x))
print(gradcheck(f, (x,), eps=1e-4, atol=1e-4, rtol=1e-2))
print(gradcheck(f, (x,), raise_exception=False))
print(gradcheck(f, (x,), nondet_tol=0.1))
print(gradcheck(f, (x,), check_undefined_grad=False))
print(gradcheck(f, (x,), check_grad_dtypes=True))
print(gradcheck(f, (x,), check_batched_grad=True))
print(gradcheck(f, (x,), check_forward_ad=True))
print(gradcheck(f, (x,), check_forward_ad=True, check_backward_ad=False))
print(gradcheck(f, (x,), fast_mode=True))
print(gradcheck(f, (x,), check_batched_forward_grad=True, check_forward_ad=True))
E(lambda: gradcheck(f, (x,), check_batched_forward_grad=True))
E(lambda: gradcheck(f, (x,), check_forward_ad=False, check_backward_ad=False))
E(lambda: gradcheck(f, (x,), masked=True))
print(gradgradcheck(f, (x,)))
print(gradgradcheck(f, (x,), gen_non_contig_grad_outputs=True))
print(gradgradcheck(f, (x,), grad_outputs=(torch.tensor(2., dtype=torch.double),)))
print(gradgradcheck(f, (x,), fast_mode=True))
'''

# set_detect_anomaly('x') is refused before anomaly mode changes
PROGRAMS['anomaly_api_states'] = PRE + r'''
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
with torch.autograd.detect_anomaly(check_nan=False) as d:
    print(d, torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
s = torch.autograd.set_detect_anomaly(True)
print(type(s).__name__, torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
torch.autograd.set_detect_anomaly(False)
print(torch.is_anomaly_enabled())
with torch.autograd.set_detect_anomaly(True, check_nan=False):
    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    with torch.autograd.set_detect_anomaly(False):
        print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
E(lambda: torch.autograd.set_detect_anomaly())
E(lambda: torch.autograd.set_detect_anomaly('x'))
E(lambda: torch.autograd.detect_anomaly(True))
def f():
    return torch.is_anomaly_enabled()
E(lambda: torch.autograd.detect_anomaly()(f))
print(torch.is_anomaly_enabled())
print(torch.autograd.anomaly_mode.detect_anomaly.__mro__[1].__name__)
try:
    with torch.autograd.detect_anomaly():
        raise ValueError('inside')
except ValueError:
    print('after exc', torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(False)
'''

# set_anomaly_enabled checks both flags are bools
PROGRAMS['anomaly_bad_args_leave_state'] = PRE + r'''
E(lambda: torch.autograd.set_detect_anomaly(1))
E(lambda: torch.autograd.set_detect_anomaly(True, 'y'))
E(lambda: torch.autograd.set_detect_anomaly(None))
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
def enter_bad():
    with torch.autograd.detect_anomaly(check_nan=1):
        print('inside')
E(enter_bad)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
E(lambda: torch.set_anomaly_enabled(0))
torch.set_anomaly_enabled(True, False)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
torch.set_anomaly_enabled(False)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
'''

# check_batched_forward_grad draws two tangents per input
PROGRAMS['gradcheck_batched_forward_rng_and_inputs'] = PRE + r'''
from torch.autograd import gradcheck
torch.manual_seed(0)
a = torch.tensor([0.5, -1.], dtype=torch.double, requires_grad=True)
b = torch.tensor([[1., 2.], [3., 4.]], dtype=torch.double, requires_grad=True)
n = torch.tensor([1, 2])
def f(x, m, k, s):
    return (m * x).sum(1) * s + k, x.exp()
print(gradcheck(f, (a, b, n, 2.0), check_forward_ad=True, check_batched_forward_grad=True))
print(torch.rand(3))
print(gradcheck(f, (a, b, n, 2.0), check_forward_ad=True, check_batched_forward_grad=True, check_batched_grad=True))
print(torch.rand(3))
print(gradcheck(f, (a, b.detach(), n, 2.0), check_forward_ad=True, check_batched_forward_grad=True, fast_mode=True))
print(torch.rand(3))
c = torch.tensor([[1., 2.], [0.5, -1.]], dtype=torch.double, requires_grad=True)
print(gradcheck(lambda z: z.t().tanh(), (c,), check_forward_ad=True, check_batched_forward_grad=True))
print(torch.rand(2))
'''

# requires_grad_'s argument errors come from PyTorch's parser
PROGRAMS['tensor_requires_grad__doc'] = PRE + r'''
saved_weights = [0.1, 0.2, 0.3, 0.25]
loaded_weights = torch.tensor(saved_weights)
weights = torch.nn.functional.softmax(loaded_weights, dim=0) if False else loaded_weights * 2
weights.requires_grad_()
out = weights.pow(2).sum()
out.backward()
print(weights.grad)
r = weights.requires_grad_(False)
print(r is weights, weights.requires_grad, weights.grad)
E(lambda: weights.requires_grad_('yes'))
E(lambda: weights.requires_grad_(1))
E(lambda: weights.requires_grad_(requires_grad=True))
print(weights.requires_grad)
E(lambda: torch.tensor([1, 2]).requires_grad_())
E(lambda: torch.tensor([1, 2]).requires_grad_(False))
nl = weights * 2
E(lambda: nl.requires_grad_(False))
print(nl.requires_grad_(True) is nl)
E(lambda: weights.requires_grad_(True, False))
E(lambda: weights.requires_grad_(x=True))
E(lambda: setattr(nl, 'requires_grad', False))
E(lambda: setattr(weights, 'requires_grad', 1))
'''

# torch.autograd.graph's stream flags and region_activation_memory_budget
PROGRAMS['graph_stream_flags_and_memory_budget'] = PRE + r'''
import torch.autograd.graph as G
for f in (G.set_warn_on_accumulate_grad_stream_mismatch, G.set_override_stale_capture_stream):
    print(f.__name__, f(True), f(False), f(enabled=True))
    E(lambda: f('x'))
    E(lambda: f(1))
    E(lambda: f())
for b in (0.5, 0, 1, True, 'x', 2, -0.1, None):
    E(lambda: G.region_activation_memory_budget(b))
x = torch.ones(2, requires_grad=True)
(x * 2).sum().backward()
print(x.grad)
from torch.autograd.graph import region_activation_memory_budget, set_warn_on_accumulate_grad_stream_mismatch
print(callable(region_activation_memory_budget))
'''

# profile keeps its options as attributes
PROGRAMS['profiler_profile_kwargs_doc'] = PRE + r'''
from torch.autograd import profiler
x = torch.randn(3, 3, requires_grad=True) if False else torch.ones(3, 3, requires_grad=True)
with profiler.profile(record_shapes=True) as prof:
    for _ in range(2):
        y = x ** 2
        y.backward(torch.ones(3, 3))
names = [e.name for e in prof.function_events]
print(names.count('aten::pow'), 'aten::pow' in names)
print(sorted({e.name for e in prof.function_events if e.name.startswith('aten::pow')}))
ka = prof.key_averages()
print(type(ka).__name__, [k.count for k in ka if k.key == 'aten::pow'])
print(type(prof).__name__, prof.enabled, prof.record_shapes, prof.profile_memory, prof.with_stack)
E(lambda: profiler.profile(enabled=True, use_cuda=True))
p2 = profiler.profile(enabled=False)
with p2:
    x * 2
E(lambda: profiler.profile().key_averages())
print(prof.self_cpu_time_total >= 0)
print(type(prof.total_average()).__name__)
'''

# profile's device options warn and fall back as PyTorch's
PROGRAMS['profiler_profile_options_and_devices'] = PRE + r'''
from torch.autograd import profiler
for kw in (dict(), dict(use_cuda=True), dict(use_device='cuda'), dict(use_device='xpu'), dict(use_device='cpu'),
           dict(with_flops=True), dict(record_shapes=True, profile_memory=True, with_stack=True, with_modules=True),
           dict(use_cpu=False), dict(acc_events=True), dict(post_processing_timeout_s=2.5, activity_filters={'a': {'b'}})):
    try:
        p = profiler.profile(**kw)
        print(kw, p.use_cuda, p.use_device, p.record_shapes, p.with_flops, p.profile_memory, p.with_stack,
              p.with_modules, p.use_cpu, p.acc_events, p.entered, p.post_processing_timeout_s, p.activity_filters)
    except Exception as e:
        print(kw, type(e).__name__, e)
p = profiler.profile(enabled=False)
print(p.enabled, hasattr(p, 'record_shapes'))
with profiler.profile() as q:
    print(q.entered)
    E(lambda: q.__enter__())
print(q.entered)
'''

# emit_itt / emit_nvtx exist (emit_nvtx needs CUDA)
PROGRAMS['profiler_emit_itt_nvtx'] = PRE + r'''
from torch.autograd import profiler
x = torch.ones(2, requires_grad=True)
for make in (lambda: profiler.emit_nvtx(), lambda: profiler.emit_itt(), lambda: profiler.emit_nvtx(enabled=False),
             lambda: profiler.emit_itt(enabled=False, record_shapes=True), lambda: profiler.emit_itt(record_shapes=True)):
    cm = make()
    print(repr(cm).split(' at ')[0], cm.enabled, cm.record_shapes, cm.entered)
    try:
        with cm as r:
            y = (x * 2).sum()
            y.backward()
            print('inside', r is cm, r is None, x.grad)
    except Exception as e:
        print(type(e).__name__, e)
    print(cm.entered)
    E(lambda: cm.__enter__())
E(lambda: profiler.emit_itt(True, True, True))
E(lambda: profiler.emit_nvtx(enabled=True, shapes=True))
'''

# an open emit_itt holds the profiler: a profile inside it is refused
PROGRAMS['profiler_emit_itt_nesting'] = PRE + r'''
from torch.autograd import profiler
x = torch.ones(2, requires_grad=True)
with profiler.emit_itt() as itt:
    E(lambda: profiler.profile().__enter__())
    E(lambda: profiler.emit_itt().__enter__())
    with profiler.record_function('a'):
        y = x * 2
    print(y, itt.entered)
with profiler.profile() as prof:
    E(lambda: profiler.emit_itt().__enter__())
    z = x * 2
print([e.name for e in prof.function_events][:1])
with profiler.emit_itt():
    pass
with profiler.profile() as prof2:
    w = x + 1
print([e.name for e in prof2.function_events][:1])
'''

# NestedIOFunction fails as PyTorch 2's does ('super' object has no '_do_forward')
PROGRAMS['nested_io_function_legacy'] = PRE + r'''
from torch.autograd.function import NestedIOFunction
class Nested(NestedIOFunction):
    def forward_extended(self, a, b):
        self.save_for_backward(a, b)
        return a * b, a + b
    def backward_extended(self, g1, g2):
        a, b = self.saved_tensors
        return g1 * b + g2, g1 * a + g2
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
f = Nested()
try:
    out = f(a, b)
    print(type(out).__name__, out)
    (out[0].sum() + out[1].sum()).backward()
    print(a.grad, b.grad)
except Exception as e:
    print(type(e).__name__, e)
'''

# NestedIOFunction checks its nested inputs before failing
PROGRAMS['nested_io_function_inputs'] = PRE + r'''
from torch.autograd.function import NestedIOFunction
import warnings
class N(NestedIOFunction):
    pass
with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    n = N()
for args in [(torch.ones(1), 3), (torch.ones(1), None), ([torch.ones(1), (torch.ones(2),)],), ({'a': 1.5},), ('s',)]:
    E(lambda: n(*args))
print(n._nested_input)
E(lambda: n.forward_extended(1))
E(lambda: n.backward_extended(1))
print(issubclass(N, torch.autograd.Function))
'''

# torch.autograd.profiler.EnforceUnique
PROGRAMS['profiler_enforce_unique'] = PRE + r'''
from torch.autograd.profiler import EnforceUnique
u = EnforceUnique()
u.see('a')
u.see('a', 1)
u.see(1, 'a')
E(lambda: u.see('a'))
E(lambda: u.see('a', 1))
u.see()
E(lambda: u.see())
print(sorted(map(str, u.seen)))
print(repr(u).split(' at ')[0])
'''

# AccumulateGrad.variable is read-only
PROGRAMS['node_class_relations'] = PRE + r'''
from torch.autograd.graph import Node
from torch.autograd.function import BackwardCFunction
x = torch.ones(2, requires_grad=True)
y = x * 2
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t + 1
    @staticmethod
    def backward(ctx, g):
        return g
z = F.apply(x)
acc = y.grad_fn.next_functions[0][0]
for n in (y.grad_fn, z.grad_fn, acc, None, x, 3):
    print(type(n).__name__, isinstance(n, Node))
print(issubclass(BackwardCFunction, Node), issubclass(type(y.grad_fn), Node), issubclass(int, Node))
print(issubclass(type(acc), Node), issubclass(F, Node), issubclass(torch.autograd.Function, Node))
print(type(y.grad_fn).__name__, type(acc).__name__, type(z.grad_fn).__name__)
print(type(y.grad_fn) is type((x * 3).grad_fn), type(y.grad_fn) is type((x * x).grad_fn))
print(y.grad_fn == y.grad_fn, y.grad_fn != (x * 2).grad_fn, hash(y.grad_fn) == hash(y.grad_fn))
print(bool(y.grad_fn), y.grad_fn.requires_grad if hasattr(y.grad_fn, 'requires_grad') else None)
E(lambda: y.grad_fn.foo)
E(lambda: setattr(y.grad_fn, 'foo', 1))
z.grad_fn.foo = 1
print(z.grad_fn.foo)
E(lambda: acc.variable.add_(1))
print(acc.variable is x)
E(lambda: setattr(acc, 'variable', x))
'''

# node getters refuse assignment and deletion with PyTorch's message
PROGRAMS['node_read_only_attributes'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
y = x * x
acc = y.grad_fn.next_functions[0][0]
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return t + 1
    @staticmethod
    def backward(ctx, g):
        return g
z = F.apply(x).grad_fn
for node, names in ((acc, ('variable', 'next_functions', 'metadata', 'requires_grad', '_input_metadata')),
                    (y.grad_fn, ('_saved_self', '_saved_other', '_raw_saved_self', '_raw_saved_other', 'next_functions', 'metadata', 'requires_grad')),
                    (z, ('next_functions', 'metadata', 'requires_grad', '_input_metadata', 'saved_tensors'))):
    for n in names:
        E(lambda: setattr(node, n, (1,)))
        E(lambda: delattr(node, n))
E(lambda: delattr(z, 'saved_variables'))
print(acc.variable is x, len(y.grad_fn.next_functions), z.metadata, y.grad_fn._saved_self)
y.sum().backward()
print(x.grad)
'''

# GradientEdge is a NamedTuple: _asdict, _replace, the token's default
PROGRAMS['gradient_edge_materialize_and_unused'] = PRE + r'''
from torch.autograd.graph import get_gradient_edge, GradientEdge
x = torch.tensor([1., 2.], requires_grad=True)
u = torch.tensor([3.], requires_grad=True)
y = (x * 2).sum()
eu = get_gradient_edge(u)
E(lambda: torch.autograd.grad(y, [x, eu], materialize_grads=True, retain_graph=True))
print(torch.autograd.grad(y, [x, eu], allow_unused=True, retain_graph=True))
E(lambda: torch.autograd.grad(y, [eu], retain_graph=True))
m = u * 3
em = get_gradient_edge(m)
print(torch.autograd.grad(y, [em, x], allow_unused=True, retain_graph=True))
E(lambda: torch.autograd.grad(y, [em], materialize_grads=True, retain_graph=True))
print(torch.autograd.grad(y, GradientEdge(y.grad_fn, 0), retain_graph=True))
E(lambda: GradientEdge(y.grad_fn))
print(GradientEdge(y.grad_fn, 0, None)._asdict().keys())
'''

# GradientEdge and UnpackedDualTensor are NamedTuples over tuple only
PROGRAMS['namedtuples_gradient_edge_unpacked_dual'] = PRE + r'''
from torch.autograd.graph import GradientEdge, get_gradient_edge
from torch.autograd.forward_ad import UnpackedDualTensor
x = torch.ones(2, requires_grad=True)
e = get_gradient_edge(x * 2)
print(e._fields, e._field_defaults, e._asdict()['output_nr'], e._replace(output_nr=1).output_nr)
print(GradientEdge._make([None, 3, None]), GradientEdge.__mro__, GradientEdge.__bases__)
E(lambda: setattr(e, 'output_nr', 2))
E(lambda: GradientEdge(None, 1, None, 4))
print(e == (e.node, 0, None), e.count(0), e.index(0), e[1:])
u = UnpackedDualTensor(x, None)
print(u._asdict().keys(), u._replace(tangent=1).tangent, UnpackedDualTensor._make([1, 2]), UnpackedDualTensor.__mro__)
print(UnpackedDualTensor._field_defaults, UnpackedDualTensor.__bases__, isinstance(u, tuple))
E(lambda: UnpackedDualTensor(1, 2, 3))
'''

# a dirty input marked non-differentiable comes back as a detached alias, its history kept (no leaf error, no rebase)
PROGRAMS['fn_dirty_and_nondiff_same_output'] = PRE + r'''
class D(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        ctx.mark_non_differentiable(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
a0 = torch.tensor([1., 2.], requires_grad=True)
a = a0.clone()
r = D.apply(a)
print(r is a, r.requires_grad, r.grad_fn, a._version, r._version, a.grad_fn.name(), r.data_ptr() == a.data_ptr())
a.sum().backward()
print(a0.grad)
p = torch.tensor([1., 2.])
rp = D.apply(p)
print(rp is p, rp.requires_grad, p._version)
leaf = torch.tensor([1., 2.], requires_grad=True)
rl = D.apply(leaf)
print(rl is leaf, rl.requires_grad, leaf, leaf._version)
v0 = torch.tensor([1., 2., 3.], requires_grad=True).clone()
v = v0[:2]
rv = D.apply(v)
print(rv is v, rv.requires_grad, v.grad_fn.name(), v0.grad_fn.name(), v0)
class DI(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, n):
        n.add_(1)
        ctx.mark_dirty(n)
        return x * 2, n
    @staticmethod
    def backward(ctx, g, gn):
        return g * 2, None
n = torch.tensor([1, 2])
y, m = DI.apply(leaf, n)
print(m is n, m, m.requires_grad, y.grad_fn.name())
class S(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        ctx.save_for_backward(x)
        return x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x
b = torch.tensor([1., 2.], requires_grad=True)
b2 = b * 1
r2 = S.apply(b2)
print(r2, r2.grad_fn.name(), b2._version)
r2.sum().backward()
print(b.grad)
'''


@pytest.fixture(autouse=True, scope="module")
def _pytorch_warmed_up():
    """PyTorch's first backward(gradient), forward-AD unpack, vmap, torch.func call and mutation of a saved tensor
    import modules (seconds, and
    once-per-process DeprecationWarnings): done here, so that no program's time or output depends on running first."""
    torch = pytest.importorskip("torch")
    from torch.autograd import forward_ad, functional
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        (torch.ones(2, requires_grad=True) * 2).backward(torch.ones(2))
        with forward_ad.dual_level():
            d = forward_ad.make_dual(torch.ones(2), torch.ones(2))
            forward_ad.unpack_dual(torch.where(d > 0, d, d))
        functional.jacobian(lambda t: t.exp(), torch.ones(2), vectorize=True)
        torch.func.jacfwd(torch.sin)(torch.ones(2))
        torch.autograd.gradcheck(torch.sin, torch.ones(2, dtype=torch.double, requires_grad=True),
                                 check_forward_ad=True, check_batched_forward_grad=True, check_batched_grad=True)
        with torch.autograd.graph.allow_mutation_on_saved_tensors():
            a = torch.ones(2, requires_grad=True).clone()
            y = a.sin()
            a.mul_(2)
            y.sum().backward()


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    # (catch_warnings restores the filters and showwarning the prelude replaces; fresh_warn_once: the warnings
    # given once per process are given whatever ran before in this process)
    with warnings.catch_warnings(), fresh_warn_once():
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
