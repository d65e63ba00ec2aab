"""Parity programs for corners of torch.autograd that the other program suites leave untested.

Each program runs twice through ``parity.run_both`` (``import torch`` resolving to minigrad, then to PyTorch)
and both stdouts must be identical once object addresses are masked. Modelled on the PyTorch docs pages
"Autograd mechanics", the torch.autograd API reference (backward/grad options, ``is_grads_batched``, the
torch.autograd.graph Node API, saved-tensor hooks, ``allow_mutation_on_saved_tensors``, GradientEdge,
multi-grad hooks), "Extending torch.autograd" (``setup_context``, ``mark_dirty`` on views, keyword
arguments to ``apply``, materialized grads, ``once_differentiable``, ``jvp``), forward-mode AD, the
functional API (including the forward-over-reverse Hessian), grad-mode decorators, tensor printing and
the error and warning messages of common mistakes. Programs print only values that do not depend on
the random stream.
"""
from __future__ import annotations

import re
import warnings

import pytest
from parity import run_both

PROGRAMS: dict[str, str] = {}

PROGRAMS['node_prehook_docs'] = r'''
import torch
a = torch.tensor([0., 0., 0.], requires_grad=True)
b = a.clone()
print(isinstance(b.grad_fn, torch.autograd.graph.Node))
print(b.grad_fn.name())
handle = b.grad_fn.register_prehook(lambda gI: (gI[0] * 2,))
b.sum().backward(retain_graph=True)
print(a.grad)
handle.remove()
a.grad = None
b.sum().backward(retain_graph=True)
print(a.grad)
h2 = b.grad_fn.register_hook(lambda gI, gO: (gO[0] * 3,))
a.grad = None
b.sum().backward(retain_graph=True)
print(a.grad)
h2.remove()
print(type(h2).__name__)
print(b.grad_fn.metadata, type(b.grad_fn.metadata))
b.grad_fn.metadata['k'] = 1
print(b.grad_fn.metadata)
print(b.grad_fn.next_functions)
acc = b.grad_fn.next_functions[0][0]
print(acc.name(), acc.variable is a, acc.next_functions)
'''

PROGRAMS['backward_grad_tensors'] = r'''
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = torch.tensor([4., 5.], requires_grad=True)
a = x * 2
b = y ** 2
torch.autograd.backward([a, b], grad_tensors=[torch.tensor([1., 0., 1.]), torch.tensor([0.5, 2.])])
print(x.grad, y.grad)
s = (x * y.sum()).sum()
torch.autograd.backward(s, inputs=[y])
print(x.grad, y.grad)
def E(f):
    try:
        f(); print('no error')
    except Exception as e:
        print(type(e).__name__, e)
E(lambda: torch.autograd.backward([x * 2], grad_tensors=[torch.ones(2)]))
E(lambda: torch.autograd.backward([x * 2, y * 2], grad_tensors=[torch.ones(3)]))
E(lambda: torch.autograd.backward(x * 2))
E(lambda: torch.autograd.backward([x.sum()], grad_tensors=[torch.ones(1)]))
E(lambda: torch.autograd.backward(torch.ones(2)))
E(lambda: torch.autograd.backward(x.sum(), inputs=[]))
E(lambda: torch.autograd.backward(x.sum(), grad_tensors=torch.tensor(2.)))
print(x.grad)
'''

PROGRAMS['grad_allow_unused_materialize'] = r'''
import torch
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.], requires_grad=True)
z = (x ** 2).sum()
E(lambda: torch.autograd.grad(z, [x, y], retain_graph=True))
E(lambda: torch.autograd.grad(z, [x, y], allow_unused=True, retain_graph=True))
E(lambda: torch.autograd.grad(z, [x, y], materialize_grads=True, retain_graph=True))
E(lambda: torch.autograd.grad(z, [x, y], allow_unused=False, materialize_grads=True, retain_graph=True))
E(lambda: torch.autograd.grad(z, y, allow_unused=True, retain_graph=True))
E(lambda: torch.autograd.grad(z, x, grad_outputs=torch.tensor(3.), retain_graph=True))
E(lambda: torch.autograd.grad([z, (y*3).sum()], [x, y], grad_outputs=[None, torch.tensor(2.)], retain_graph=True))
E(lambda: torch.autograd.grad(z, x, only_inputs=False, retain_graph=True))
E(lambda: torch.autograd.grad(z, [], retain_graph=True))
E(lambda: torch.autograd.grad(z, x.detach(), retain_graph=True))
E(lambda: torch.autograd.grad(x * 2, x))
E(lambda: torch.autograd.grad(torch.tensor(1.), x))
'''

PROGRAMS['is_grads_batched'] = r'''
import torch
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
out = x.sum()
batched = torch.arange(3.)
E(lambda: torch.autograd.grad(out, (x,), (batched,), is_grads_batched=True, retain_graph=True))
y = x * torch.tensor([1., 10.])
v = torch.eye(2).reshape(2, 1, 2).expand(2, 2, 2)
E(lambda: torch.autograd.grad(y, x, v, is_grads_batched=True, retain_graph=True))
E(lambda: torch.autograd.grad(y, x, torch.ones(3, 5), is_grads_batched=True, retain_graph=True))
E(lambda: torch.autograd.grad(y, x, torch.ones(2, 2), is_grads_batched=True, retain_graph=True))
x = torch.tensor([1., 2.], requires_grad=True)
y = x*2; z = x*3
E(lambda: torch.autograd.grad([y, z], x, [torch.ones(3, 2), torch.ones(2, 2)], is_grads_batched=True, retain_graph=True))
E(lambda: torch.autograd.grad([y, z], x, [torch.ones(3, 2), torch.ones(3, 2)], is_grads_batched=True, retain_graph=True))
E(lambda: torch.autograd.grad([y, z], [x, torch.ones(2, requires_grad=True)], [torch.ones(3, 2), torch.ones(3, 2)], is_grads_batched=True, retain_graph=True, allow_unused=True))
E(lambda: torch.autograd.grad([y, z], [x, torch.ones(2, requires_grad=True)], [torch.ones(3, 2), torch.ones(3, 2)], is_grads_batched=True, retain_graph=True, materialize_grads=True))
E(lambda: torch.autograd.grad(y.sum(), x, is_grads_batched=True, retain_graph=True))
E(lambda: torch.autograd.grad(y, x, torch.ones(0, 2), is_grads_batched=True, retain_graph=True))
w = torch.tensor([1., 2.], requires_grad=True)
g, = torch.autograd.grad((w**3).sum(), w, create_graph=True)
h = torch.autograd.grad(g, w, torch.eye(2), is_grads_batched=True)
print(h)
y2 = x*2
print(torch.autograd.grad(y2, x, torch.eye(2), is_grads_batched=True))
E(lambda: torch.autograd.grad(y2, x, torch.eye(2), is_grads_batched=True))
'''

PROGRAMS['saved_hooks_pack_unpack_print'] = r'''
import torch
def pack_hook(x):
    print("Packing", x)
    return x
def unpack_hook(x):
    print("Unpacking", x)
    return x
a = torch.ones(5, requires_grad=True)
b = torch.ones(5, requires_grad=True) * 2
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b
y.sum().backward()
print(a.grad)
x = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t.tolist(), lambda l: torch.tensor(l) * 10):
    z = x.pow(2)
print(z.grad_fn._saved_self)
print(z.grad_fn._saved_exponent)
z.sum().backward()
print(x.grad)
'''

PROGRAMS['disable_saved_hooks'] = r'''
import torch
def E(f):
    try:
        f(); print('no error')
    except Exception as e:
        print(type(e).__name__, e)
x = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.graph.disable_saved_tensors_hooks("not supported here"):
    y = x * x
    def f():
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            pass
    E(f)
    E(lambda: torch.autograd.graph.save_on_cpu().__enter__())
y.sum().backward()
print(x.grad)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
    def g():
        with torch.autograd.graph.disable_saved_tensors_hooks("blocked"):
            pass
    E(g)
@torch.autograd.graph.disable_saved_tensors_hooks("deco")
def h():
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        pass
E(h)
E(lambda: x * 2)
'''

PROGRAMS['save_on_cpu'] = r'''
import torch
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = torch.tensor([4., 5., 6.], requires_grad=True)
c = torch.tensor([7., 8., 9.], requires_grad=True)
def f(a, b, c):
    prod_1 = a * b
    with torch.autograd.graph.save_on_cpu():
        prod_2 = prod_1 * c
    y = prod_2 * a
    return y
y = f(a, b, c)
del a, b, c
print(y)
y.sum().backward()
x = torch.tensor([2.], requires_grad=True)
with torch.autograd.graph.save_on_cpu(pin_memory=False):
    z = x.exp()
print(z.grad_fn._saved_result, z.grad_fn._saved_result.device)
z.backward()
print(x.grad)
'''

PROGRAMS['increment_version'] = r'''
import torch
def E(f):
    try:
        f(); print('no error')
    except Exception as e:
        print(type(e).__name__, e)
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.sin()
print(y._version)
torch.autograd.graph.increment_version(y)
print(y._version)
z = y.exp()
torch.autograd.graph.increment_version(z)
E(lambda: z.sum().backward())
w = x * 2
u = w ** 2
torch.autograd.graph.increment_version([w])
print(w._version)
E(lambda: u.sum().backward())
v = x.view(3)
print(x._version, v._version)
torch.autograd.graph.increment_version(v)
print(x._version, v._version)
'''

PROGRAMS['gradient_edge'] = r'''
import torch
from torch.autograd.graph import get_gradient_edge, GradientEdge
x = torch.tensor([1., 2.], requires_grad=True)
a = x * 3
b = a.exp()
edge = get_gradient_edge(a)
print(type(edge).__name__, edge.node.name(), edge.output_nr)
print(isinstance(edge, tuple), edge[1])
g, = torch.autograd.grad(b.sum(), edge, retain_graph=True)
print(g)
gx, = torch.autograd.grad(b.sum(), get_gradient_edge(x), retain_graph=True)
print(gx)
ea = get_gradient_edge(a)
gg = torch.autograd.grad(a, x, grad_outputs=torch.ones(2), retain_graph=True)
print(gg)
u, v = x.unbind()
e2 = get_gradient_edge(v)
print(e2.node.name(), e2.output_nr)
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
E(lambda: get_gradient_edge(torch.ones(2)))
E(lambda: torch.autograd.grad(b.sum(), [edge, x], retain_graph=True))
'''

PROGRAMS['multi_grad_hook_any'] = r'''
import torch
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
c = a * b
def hook(grads):
    print([g is None for g in grads], [g for g in grads if g is not None])
h = torch.autograd.graph.register_multi_grad_hook((a, b, c), hook)
c.sum().backward(retain_graph=True)
(a * 2).sum().backward(retain_graph=True)
h.remove()
c.sum().backward(retain_graph=True)
print('removed')
def hook_any(grad):
    print('any', grad)
h2 = torch.autograd.graph.register_multi_grad_hook((a, b), hook_any, mode="any")
(b * 5).sum().backward()
c.sum().backward()
h2.remove()
'''

PROGRAMS['allow_mutation'] = r'''
import torch
def E(f):
    try:
        f(); print('no error')
    except Exception as e:
        print(type(e).__name__, e)
with torch.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
    a = torch.ones(3, requires_grad=True)
    b = a.clone()
    out = (b**2).sum()
    b.sin_()
    out.sum().backward()
    print(a.grad)
    print(b)
    c = a * 1
    d = c.exp()
    c.mul_(0)
    d.sum().backward()
    print(a.grad)
    w = a.clone()
    p = (w * w).sum()
    with torch.no_grad():
        w.zero_()
    p.backward()
    print(a.grad)
    def nested():
        with torch.autograd.graph.allow_mutation_on_saved_tensors():
            pass
    E(nested)
print(type(ctx).__name__)
with torch.autograd.graph.allow_mutation_on_saved_tensors():
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x.clone()
    z = y.exp()
E(lambda: z.sum().backward())
a = torch.ones(3, requires_grad=True)
b = a.clone()
out = (b**2).sum()
b.sin_()
E(lambda: out.backward())
'''

PROGRAMS['node_hooks_more'] = r'''
import torch
x = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)
y = x * 2
z = y.exp()
s = z.sum()
order = []
def pre(gO):
    order.append(('pre', z.grad_fn.name()))
    print('pre gO', gO)
def post(gI, gO):
    order.append(('post', z.grad_fn.name()))
    print('post gI', gI, 'gO', gO)
h1 = z.grad_fn.register_prehook(pre)
h2 = z.grad_fn.register_hook(post)
y.register_hook(lambda g: order.append(('tensor y', None)))
s.backward(retain_graph=True)
print(order)
print(y.grad_fn.next_functions[0][0].name())
acc = y.grad_fn.next_functions[0][0]
acc.register_prehook(lambda gO: print('acc pre', gO))
acc.register_hook(lambda gI, gO: print('acc post', gI, gO))
x.grad = None
s.backward()
print(x.grad)
m = (x * 1).mul(3)
print(m.grad_fn._saved_other, m.grad_fn._saved_self)
mn = (x * 1).sum(0, keepdim=True)
print(mn.grad_fn._saved_dim, mn.grad_fn._saved_keepdim, mn.grad_fn._saved_self_sym_sizes)
'''

PROGRAMS['function_setup_context_jvp'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
class MySquare(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x ** 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)
    @staticmethod
    def backward(ctx, gO):
        x, = ctx.saved_tensors
        return 2 * x * gO
    @staticmethod
    def jvp(ctx, x_t):
        x, = ctx.saved_tensors
        return 2 * x * x_t
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = MySquare.apply(x)
print(y, y.grad_fn.name(), type(y.grad_fn).__name__)
y.sum().backward()
print(x.grad)
with fwAD.dual_level():
    dual = fwAD.make_dual(torch.tensor([1., 2., 3.]), torch.tensor([1., 0., 1.]))
    out = MySquare.apply(dual)
    p, t = fwAD.unpack_dual(out)
    print(p, t)
    print(type(fwAD.unpack_dual(out)).__name__, fwAD.unpack_dual(out).tangent)
print(torch.autograd.gradcheck(MySquare.apply, (torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True),), check_forward_ad=True))
'''

PROGRAMS['function_mark_dirty_views'] = r'''
import torch
def E(f):
    try:
        f(); print('no error')
    except Exception as e:
        print(type(e).__name__, e)
class Inplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 2
a = torch.tensor([1., 2.], requires_grad=True)
b = a.clone()
c = Inplace.apply(b)
print(c is b, c, c._version, c.grad_fn.name())
c.sum().backward()
print(a.grad)
E(lambda: Inplace.apply(a))
class Forgot(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
d = a.clone()
E(lambda: Forgot.apply(d))
class NoDirtyRet(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_dirty(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: NoDirtyRet.apply(a.clone()))
v = a.clone()[:1]
class Dirty2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
w = a.clone()
vv = w[1:]
r = Dirty2.apply(vv)
print(r, w, w.grad_fn.name(), r.grad_fn.name())
'''

PROGRAMS['materialize_grads_false'] = r'''
import torch
class TwoOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x.clone(), x.clone()
    @staticmethod
    def backward(ctx, g1, g2):
        print('g1', g1, 'g2', g2)
        x = None
        if g1 is not None:
            x = g1
        if g2 is not None:
            x = g2 if x is None else x + g2
        return x
class TwoOutMat(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone(), x.clone()
    @staticmethod
    def backward(ctx, g1, g2):
        print('g1', g1, 'g2', g2)
        return g1 + g2
x = torch.tensor([1., 2.], requires_grad=True)
a, b = TwoOut.apply(x)
a.sum().backward()
print(x.grad)
a, b = TwoOutMat.apply(x)
(b * 3).sum().backward()
print(x.grad)
'''

PROGRAMS['forward_ad_views'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
primal = torch.arange(6.).reshape(2, 3)
tangent = torch.ones(2, 3)
with fwAD.dual_level():
    dual = fwAD.make_dual(primal, tangent)
    v = dual[0]
    print(fwAD.unpack_dual(v).tangent)
    t = dual.t()
    print(fwAD.unpack_dual(t).tangent.shape, fwAD.unpack_dual(t).tangent.is_contiguous())
    out = (dual * dual).sum(dim=1)
    print(fwAD.unpack_dual(out))
    y = dual.exp().mean()
    print(fwAD.unpack_dual(y).tangent)
    plain = torch.ones(3)
    print(fwAD.unpack_dual(plain).tangent)
    base = torch.zeros(4)
    view = base[1:3]
    dv = fwAD.make_dual(view, torch.tensor([5., 6.]))
    print(fwAD.unpack_dual(dv).tangent, dv._base is None)
    z = torch.zeros(3)
    z.copy_(fwAD.make_dual(torch.ones(3), torch.tensor([1., 2., 3.])))
    print(fwAD.unpack_dual(z).tangent)
print(fwAD.unpack_dual(dual).tangent)
'''

PROGRAMS['forward_ad_errors'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
E(lambda: fwAD.make_dual(torch.ones(2), torch.ones(2)))
with fwAD.dual_level():
    E(lambda: fwAD.make_dual(torch.ones(2), torch.ones(3)))
    E(lambda: fwAD.make_dual(torch.ones(2, dtype=torch.long), torch.ones(2, dtype=torch.long)))
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 1.]))
    E(lambda: fwAD.make_dual(d, torch.ones(2)))
    def nest():
        with fwAD.dual_level():
            pass
    E(nest)
    up = fwAD.unpack_dual(d)
    print(up.primal, up.tangent, up[0] is up.primal)
    print(d)
E(lambda: fwAD.exit_dual_level())
lvl = fwAD.enter_dual_level()
print(lvl)
fwAD.exit_dual_level()
'''

PROGRAMS['functional_api_options'] = r'''
import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp
def f(x):
    return x ** 2 * torch.tensor([1., 2.])
x = torch.tensor([1., 3.])
print(jacobian(f, x))
print(jacobian(f, x, vectorize=True))
print(jacobian(f, x, create_graph=True))
print(jacobian(f, x, strategy="forward-mode", vectorize=True))
def g(a, b):
    return (a * b).sum(), a - b
print(jacobian(g, (x, torch.tensor([2., 5.]))))
def s(x):
    return (x ** 3).sum()
print(hessian(s, x))
print(hessian(s, x, vectorize=True, outer_jacobian_strategy="forward-mode"))
print(vjp(f, x, torch.ones(2)))
print(jvp(f, x, torch.ones(2)))
print(hvp(s, x, torch.tensor([1., 0.])))
print(vhp(s, x, torch.tensor([0., 1.])))
print(vjp(s, x))
out = vjp(f, x, torch.ones(2), create_graph=True)
print(out[0].requires_grad, out[1].requires_grad)
'''

PROGRAMS['functional_strict'] = r'''
import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
x = torch.tensor([1., 2.])
E(lambda: jacobian(lambda t: torch.ones(2), x))
E(lambda: jacobian(lambda t: torch.ones(2), x, strict=True))
E(lambda: jacobian(lambda t: t.detach() * 2, x, strict=True))
E(lambda: vjp(lambda t: t.detach(), x, torch.ones(2), strict=True))
E(lambda: jvp(lambda t: t.sum() * 0 + 1, x, torch.ones(2), strict=True))
E(lambda: hessian(lambda t: t.sum(), x, strict=True))
E(lambda: hessian(lambda t: t.sum(), x))
E(lambda: hvp(lambda t: (t * 2).sum(), x, torch.ones(2), strict=True))
E(lambda: jacobian(lambda t: t, x, strict=True, vectorize=True))
E(lambda: jacobian(lambda t: t, x, strategy="forward-mode"))
E(lambda: jacobian(lambda t: t, x, strategy="sideways"))
E(lambda: vjp(lambda t: t, x))
E(lambda: vjp(lambda t: (t, t), x, torch.ones(2)))
E(lambda: jvp(lambda t: t, x, torch.ones(3)))
E(lambda: jacobian(lambda t: 3.0, x))
E(lambda: hessian(lambda t: t * 2, x))
'''

PROGRAMS['grad_mode_decorators'] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
@torch.no_grad()
def f1(t):
    return t * 2
@torch.no_grad
def f1b(t):
    return t * 2
@torch.enable_grad()
def f2(t):
    return t * 2
@torch.inference_mode()
def f3(t):
    return t * 2
@torch.inference_mode
def f3b(t):
    return t * 2
@torch.inference_mode(False)
def f4(t):
    return t * 2
@torch.set_grad_enabled(False)
def f5(t):
    return t * 2
print(f1(x).requires_grad, f1b(x).requires_grad)
with torch.no_grad():
    print(f2(x).requires_grad, torch.is_grad_enabled())
r = f3(x)
print(r.requires_grad, r.is_inference(), torch.is_inference_mode_enabled())
print(f3b(x).is_inference())
with torch.inference_mode():
    print(f4(x).is_inference(), f4(x).requires_grad, torch.is_inference_mode_enabled())
print(f5(x).requires_grad, torch.is_grad_enabled())
g = torch.set_grad_enabled(False)
print(torch.is_grad_enabled(), type(g).__name__)
torch.set_grad_enabled(True)
print(torch.is_grad_enabled())
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
@torch.no_grad()
def gen():
    yield torch.is_grad_enabled()
    yield (x * 2).requires_grad
print(list(gen()), torch.is_grad_enabled())
class M:
    @torch.no_grad()
    def method(self, t):
        return t + 1
print(M().method(x).requires_grad)
print(f1.__name__, f3.__name__)
'''

PROGRAMS['hessian_forward_over_reverse'] = r'''
import torch
from torch.autograd.functional import hessian, jacobian
x = torch.tensor([1., 3.])
def s2(x):
    return x.exp().sum() * x.sin().prod()
print(hessian(s2, x, vectorize=True, outer_jacobian_strategy='forward-mode'))
def s3(x, y):
    return (x.tanh() * y.sigmoid()).sum() + (x / y).log().sum() + (x * y).softmax(0)[0] + torch.nn.functional.relu(x).pow(3).mean()
print(hessian(s3, (x, torch.tensor([2., 0.5])), vectorize=True, outer_jacobian_strategy='forward-mode'))
print(jacobian(lambda a: a.exp(), x, vectorize=True, strategy='forward-mode'))
xr = torch.tensor([1., 3.], requires_grad=True)
J = jacobian(lambda a: a.exp() * 2, xr, vectorize=True, strategy='forward-mode')
print(J)
J.sum().backward()
print(xr.grad)
try:
    hessian(s2, x, outer_jacobian_strategy='forward-mode')
except Exception as e:
    print(type(e).__name__, e)
'''

PROGRAMS['print_grads_dtypes'] = r'''
import torch
x = torch.tensor([1.5, -2.25, 3.0], dtype=torch.float64, requires_grad=True)
y = (x * x).sum()
print(y)
y.backward()
print(x.grad)
print(repr(x))
h = torch.tensor([0.5, 1.5], dtype=torch.float16, requires_grad=True)
print(h * 2)
print((h * 2).sum())
b = torch.tensor([1., 2.], dtype=torch.bfloat16, requires_grad=True)
print(b.exp())
c = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
print(c * c)
print((c.abs() ** 2).sum())
i = torch.tensor([1, 2, 3])
print(i, i.dtype, i.float().mean())
print(torch.tensor(3.5, requires_grad=True) * 2)
print(torch.tensor([], requires_grad=True).sum())
print(torch.zeros(2, 0, requires_grad=True) * 2)
print(torch.tensor([[1e-5, 1.0], [100., 3.]], requires_grad=True) + 0)
print(torch.tensor([1e10, 1.0], requires_grad=True).mul(1))
'''

PROGRAMS['print_large_summarized'] = r'''
import torch
x = torch.arange(2000., requires_grad=True)
y = x * 0.5
print(y)
w = torch.linspace(-1, 1, 1200).reshape(30, 40).requires_grad_()
z = w.tanh()
print(z)
z.sum().backward()
print(w.grad)
torch.set_printoptions(threshold=5, edgeitems=2)
print(y)
print(torch.arange(10.))
torch.set_printoptions(profile="default")
print(torch.arange(10.) / 3)
'''

PROGRAMS['print_precision'] = r'''
import torch
x = torch.tensor([1 / 3, 2 / 3, 1.0], requires_grad=True)
torch.set_printoptions(precision=2)
print(x * 3.14159)
torch.set_printoptions(precision=8)
print(x / 7)
torch.set_printoptions(sci_mode=True)
print(x + 0)
torch.set_printoptions(sci_mode=False, precision=4)
print(x * 1e6)
torch.set_printoptions(linewidth=30)
print(torch.arange(12.).requires_grad_() * 1.5)
torch.set_printoptions(profile="short")
print(torch.tensor([1.23456789, 9.87654321], requires_grad=True) * 1)
torch.set_printoptions(profile="full")
print(torch.arange(1005.)[1000:] * 1)
torch.set_printoptions(profile="default")
print(torch.tensor([float('nan'), float('inf'), -float('inf'), 1.5], requires_grad=True) * 1)
'''

PROGRAMS['error_backward_twice'] = r'''
import torch
def E(f):
    try:
        f(); print('no error')
    except Exception as e:
        print(type(e).__name__, e)
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
z = (y * y).sum()
z.backward()
E(lambda: z.backward())
E(lambda: y.grad_fn._saved_result)
E(lambda: z.grad_fn.next_functions[0][0]._saved_self)
a = x * 3
b = a.sum()
b.backward()
E(lambda: b.backward())
c = (x + 1).sum()
c.backward()
E(lambda: c.backward())
print(x.grad)
s = x.sigmoid().sum()
torch.autograd.grad(s, x)
E(lambda: torch.autograd.grad(s, x))
'''

PROGRAMS['error_inplace_version'] = r'''
import torch
def E(f):
    try:
        f(); print('no error')
    except Exception as e:
        print(type(e).__name__, e)
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a * 2
c = b ** 2
b.add_(1)
E(lambda: c.sum().backward())
d = a.tanh()
e = d * 3
d.mul_(2)
E(lambda: e.sum().backward())
f = a.clone()
g = f[0:2]
h = f.exp()
g.zero_()
E(lambda: h.sum().backward())
m = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True).mm(torch.eye(2))
n = m.t()
o = n @ n
m.div_(2)
E(lambda: o.sum().backward())
p = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True) * 1
q = p.pow(3)
p.sub_(1)
p.sub_(1)
E(lambda: q.sum().backward())
r = torch.tensor([1, 2]).float().requires_grad_()
s = r.sin()
r2 = r.detach()
r2.add_(1)
E(lambda: s.sum().backward())
'''

PROGRAMS['error_leaf_view_inplace'] = r'''
import torch
def E(f):
    try:
        f(); print('no error')
    except Exception as e:
        print(type(e).__name__, e)
x = torch.tensor([1., 2., 3.], requires_grad=True)
E(lambda: x.add_(1))
E(lambda: x[0].mul_(2))
E(lambda: x.view(3).fill_(0))
def set_item():
    x[1] = 5.
E(set_item)
E(lambda: x.unsqueeze(0).zero_())
with torch.no_grad():
    x.add_(1)
print(x)
w = x.clone()
parts = w.split(1)
E(lambda: parts[0].mul_(2))
u = w.unbind()
E(lambda: u[1].add_(1))
with torch.no_grad():
    v = w[:2]
E(lambda: v.mul_(2))
det = x.detach()
det.add_(10)
print(x, det)
ch = w.chunk(3)
E(lambda: ch[2].sub_(1))
'''

PROGRAMS['error_nonscalar_int_requires_grad'] = r'''
import torch
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: (x * 2).backward())
E(lambda: torch.autograd.grad(x * 2, x))
E(lambda: torch.tensor([1, 2], requires_grad=True))
E(lambda: torch.tensor([1, 2]).requires_grad_())
E(lambda: torch.ones(2, dtype=torch.int32, requires_grad=True))
E(lambda: torch.arange(3, requires_grad=True))
E(lambda: torch.tensor([True], requires_grad=True))
def set_rg():
    t = torch.tensor([1, 2])
    t.requires_grad = True
E(set_rg)
E(lambda: torch.tensor([1., 2.]).backward())
E(lambda: (x * 2).sum().backward(torch.ones(2)))
E(lambda: (x > 1).sum().backward())
E(lambda: x.long().requires_grad)
E(lambda: (x * 2).requires_grad_(False))
E(lambda: torch.zeros(2, dtype=torch.complex64, requires_grad=True).sum().backward())
E(lambda: torch.tensor([1., 2.], requires_grad=True).sum().backward(torch.tensor(2.0)))
E(lambda: (x * 2).sum().backward(torch.tensor([2.0])))
'''

PROGRAMS['raw_saved_register_hooks'] = r'''
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.pow(2)
print(type(y.grad_fn._raw_saved_self).__name__)
y.grad_fn._raw_saved_self.register_hooks(lambda t: t * 10, lambda t: t + 1)
print(y.grad_fn._saved_self)
y.sum().backward()
print(x.grad)
def E(f):
    try:
        f(); print('no error')
    except Exception as e:
        print(type(e).__name__, e)
z = x.sin()
raw = z.grad_fn._raw_saved_self
raw.register_hooks(lambda t: t, lambda t: t)
E(lambda: raw.register_hooks(lambda t: t, lambda t: t))
z.sum().backward()
E(lambda: raw.register_hooks(lambda t: t, lambda t: t))
w = x.exp()
w.grad_fn._raw_saved_result.register_hooks(lambda t: None, lambda p: torch.ones(3))
print(w.grad_fn._saved_result)
q = x * 2
q2 = q.cos()
q2.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: 'oops')
E(lambda: q2.grad_fn._saved_self)
'''

PROGRAMS['hook_order_autograd_notes'] = r'''
import torch
log = []
a = torch.tensor([1., 2.], requires_grad=True)
b = a * 2
c = b * 3
b.retain_grad()
b.register_hook(lambda g: log.append('tensor hook 1') or g * 2)
b.register_hook(lambda g: log.append('tensor hook 2'))
b.grad_fn.register_prehook(lambda gO: log.append('node prehook'))
b.grad_fn.register_hook(lambda gI, gO: log.append('node posthook'))
a.register_hook(lambda g: log.append('leaf tensor hook'))
a.register_post_accumulate_grad_hook(lambda p: log.append(f'post accumulate {p.grad}'))
c.sum().backward()
print(log)
print(b.grad, a.grad)
log.clear()
d = torch.tensor([1., 2.], requires_grad=True) * 1
d.register_hook(lambda g: log.append('before inplace') or g)
d.mul_(3)
d.register_hook(lambda g: log.append('after inplace') or g)
d.sum().backward()
print(log)
'''

PROGRAMS['function_once_diff_errors'] = r'''
import torch
from torch.autograd.function import once_differentiable
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        print('backward grad mode', torch.is_grad_enabled(), g.requires_grad)
        return 3 * x ** 2 * g
x = torch.tensor([1., 2.], requires_grad=True)
y = Cube.apply(x)
gx, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(gx, gx.requires_grad, gx.grad_fn)
E(lambda: gx.sum().backward())
y2 = Cube.apply(x)
g2, = torch.autograd.grad(y2.sum(), x)
print(g2)
'''

PROGRAMS['function_bad_grads'] = r'''
import torch
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
def make(ret):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * y
        @staticmethod
        def backward(ctx, g):
            return ret(g)
    return F
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.], requires_grad=True)
E(lambda: make(lambda g: (g,)).apply(x, y).sum().backward())
E(lambda: make(lambda g: (g, g, g)).apply(x, y).sum().backward())
E(lambda: make(lambda g: (g, None, None)).apply(x, y).sum().backward())
E(lambda: make(lambda g: (torch.ones(3), g)).apply(x, y).sum().backward())
E(lambda: make(lambda g: (g.double(), g)).apply(x, y).sum().backward())
print(x.grad)
E(lambda: make(lambda g: (g, 1.0)).apply(x, y).sum().backward())
E(lambda: make(lambda g: [g, g]).apply(x, y).sum().backward())
E(lambda: make(lambda g: g).apply(x, y).sum().backward())
E(lambda: make(lambda g: (g.sum(), g)).apply(x, y).sum().backward())
E(lambda: make(lambda g: (torch.ones(1), g)).apply(x, y).sum().backward())
print(x.grad, y.grad)
'''

PROGRAMS['function_nontensor_io'] = r'''
import torch
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, factor, name="s", *, shift=None):
        ctx.factor = factor
        ctx.name = name
        return x * factor, factor * 2, name
    @staticmethod
    def backward(ctx, g, g_num, g_name):
        print('grads', g, g_num, g_name, ctx.needs_input_grad)
        return g * ctx.factor, None, None
x = torch.tensor([1., 2.], requires_grad=True)
out, num, name = Scale.apply(x, 3.0, "hello")
print(out, num, name, out.grad_fn.next_functions)
out.sum().backward()
print(x.grad)
try:
    Scale.apply(x, 2.0, shift=1)
except Exception as e:
    print(type(e).__name__, e)
class Noop(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 5
y = Noop.apply(x)
print(y is x, y._base is x, y.grad_fn.name(), y.is_leaf)
y.sum().backward()
print(x.grad)
class Detached(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_non_differentiable(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
z = Detached.apply(x * 1)
print(z.requires_grad, z.grad_fn)
'''

PROGRAMS['grad_dict_inputs'] = r'''
import torch
lin = torch.nn.Linear(2, 1)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.5, -1.]]))
    lin.bias.fill_(0.25)
x = torch.tensor([[1., 2.], [3., 4.]])
loss = lin(x).pow(2).mean()
grads = torch.autograd.grad(loss, dict(lin.named_parameters()), retain_graph=True)
print(type(grads).__name__, list(grads.keys()))
print(grads['weight'], grads['bias'])
torch.autograd.backward(loss, inputs=dict(lin.named_parameters()))
print(lin.weight.grad, lin.bias.grad)
from collections import OrderedDict
try:
    torch.autograd.grad(loss, OrderedDict(lin.named_parameters()))
except Exception as e:
    print(type(e).__name__, e)
'''

PROGRAMS['function_kwargs_apply'] = r'''
import torch
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k=1, j=2, *rest, s=None):
        print('fwd', k, j, rest, s)
        return x * k
    @staticmethod
    def backward(ctx, g):
        print('needs', ctx.needs_input_grad)
        return (g,) + (None,) * (len(ctx.needs_input_grad) - 1)
x = torch.ones(2, requires_grad=True)
y = torch.ones(2, requires_grad=True)
E(lambda: F.apply(x, j=3))
E(lambda: F.apply(x, 2, k=3))
E(lambda: F.apply(x=x))
E(lambda: F.apply(x, 1, 2, 3, 4))
E(lambda: F.apply(x, foo=1))
E(lambda: F.apply(x, s=1))
E(lambda: F.apply(k=2, x=x))
E(lambda: F.apply(x, 2, 3))
class G(torch.autograd.Function):
    @staticmethod
    def forward(x, k=1, *, scale=1.0):
        return x * k * scale
    @staticmethod
    def setup_context(ctx, inputs, output):
        print('inputs', inputs)
        ctx.k = inputs[1]
    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None
E(lambda: G.apply(x))
E(lambda: G.apply(x, 3))
E(lambda: G.apply(x, k=4))
E(lambda: G.apply(x, scale=2.0))
E(lambda: G.apply(x, 1, 2))
class H(torch.autograd.Function):
    @staticmethod
    def forward(x, k=1):
        return x * k
    @staticmethod
    def setup_context(ctx, inputs, output):
        print('inputs', inputs)
        ctx.k = inputs[1]
    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None
E(lambda: H.apply(x))
out = H.apply(x, k=5)
out.sum().backward()
print(x.grad)
'''

PROGRAMS['saved_tensor_identity_notes'] = r'''
import torch
x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(x.equal(y.grad_fn._saved_self))
print(x is y.grad_fn._saved_self)
y = x.exp()
print(y.equal(y.grad_fn._saved_result))
print(y is y.grad_fn._saved_result)
print(y.grad_fn._saved_result.grad_fn is y.grad_fn)
a = torch.tensor([1., 2.], requires_grad=True)
b = a.detach().requires_grad_()
z = a * b
print(z.grad_fn._saved_self is a, z.grad_fn._saved_other is b)
w = a.sum()
print(w.grad_fn._saved_self_sym_sizes, [n for n in dir(w.grad_fn) if n.startswith('_saved')])
m = a.mean()
print([n for n in dir(m.grad_fn) if n.startswith('_saved')], m.grad_fn._saved_self_sym_numel)
'''

PROGRAMS['nondiff_points'] = r'''
import torch
x = torch.tensor([0., 1., -1.], requires_grad=True)
torch.relu(x).sum().backward()
print(x.grad)
x.grad = None
x.abs().sum().backward()
print(x.grad)
x.grad = None
x.sqrt().sum().backward()
print(x.grad)
x.grad = None
x.norm().backward()
print(x.grad)
z = torch.zeros(3, requires_grad=True)
z.norm().backward()
print(z.grad)
t = torch.tensor([2., 5., 5., 1.], requires_grad=True)
t.max().backward()
print(t.grad)
t.grad = None
t.amax().backward()
print(t.grad)
t.grad = None
t.max(dim=0).values.backward()
print(t.grad)
t.grad = None
t.median().backward()
print(t.grad)
t.grad = None
torch.clamp(t, 2, 5).sum().backward()
print(t.grad)
t.grad = None
t.sign().sum().backward()
print(t.grad)
t.grad = None
t.round().sum().backward()
print(t.grad)
u = torch.tensor([0., 4.], requires_grad=True)
(u ** 0.5).sum().backward()
print(u.grad)
v = torch.tensor([0., 2.], requires_grad=True)
(v ** 0).sum().backward()
print(v.grad)
v.grad = None
torch.pow(0., v).sum().backward()
print(v.grad)
'''

PROGRAMS['grad_layout_strides'] = r'''
import torch
w = torch.zeros(3, 2).t().requires_grad_()
print(w.is_contiguous(), w.stride())
(w * torch.arange(6.).reshape(2, 3)).sum().backward()
print(w.grad, w.grad.stride(), w.grad.is_contiguous())
e = torch.tensor([1., 2., 3.]).expand(2, 3)
p = e.clone().requires_grad_()
(p * 2).sum().backward()
print(p.grad.stride())
q = torch.ones(2, 3, requires_grad=True)
q.sum().backward()
print(q.grad.stride(), q.grad)
q.grad = torch.zeros(3, 2).t()
q.sum().backward()
print(q.grad.stride(), q.grad)
q2 = torch.ones(2, 3, requires_grad=True)
(q2.t() * 1).sum().backward()
print(q2.grad.stride())
w2 = torch.zeros(3, 2).t().requires_grad_()
(w2.t() * 1).sum().backward()
print(w2.grad.stride())
w3 = torch.zeros(3, 2).t().requires_grad_()
gx, = torch.autograd.grad((w3 * 1).sum(), w3)
print(gx.stride())
p3 = torch.zeros(4, 6)[:, ::2].requires_grad_()
(p3 * 1).sum().backward()
print(p3.stride(), p3.grad.stride())
w4 = torch.zeros(3, 1, 2).permute(2, 1, 0).requires_grad_()
(w4 * 2).sum().backward()
print(w4.stride(), w4.grad.stride())
w5 = torch.zeros(3, 2, dtype=torch.float64).t().requires_grad_()
(w5 * 2).sum().backward()
print(w5.grad.stride(), w5.grad.dtype)
w5.grad = None
(w5 * 2).sum().backward(create_graph=True)
print(w5.grad.stride(), w5.grad.grad_fn)
'''

PROGRAMS['next_functions_none_edges'] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
c = torch.tensor([3., 4.])
y = x * c
print([(None if f is None else f.name(), n) for f, n in y.grad_fn.next_functions])
z = c * x
print([(None if f is None else f.name(), n) for f, n in z.grad_fn.next_functions])
s = torch.stack([x, c, x * 2])
print([(None if f is None else f.name(), n) for f, n in s.grad_fn.next_functions])
a, b = (x * 1).split(1)
print(a.grad_fn.name(), a.grad_fn is b.grad_fn, a.output_nr if hasattr(a, 'output_nr') else '', b._version)
q = torch.cat([a, b, c[:1]])
print([(None if f is None else f.name(), n) for f, n in q.grad_fn.next_functions])
acc = x.grad_fn
print(acc)
node = y.grad_fn.next_functions[0][0]
print(isinstance(node, torch.autograd.graph.Node), issubclass(type(y.grad_fn), torch.autograd.graph.Node))
print(type(node).__name__, node.variable is x)
w = x.addcmul(c, c, value=2)
print([(None if f is None else f.name(), n) for f, n in w.grad_fn.next_functions])
m = x.max(dim=0)
print(m.values.grad_fn.name(), m.indices.grad_fn, m.indices.requires_grad)
'''

PROGRAMS['complex_wirtinger'] = r'''
import torch
z = torch.tensor([1 + 2j, -1 + 0.5j], requires_grad=True)
y = (z * z.conj()).real.sum()
y.backward()
print(z.grad)
z.grad = None
(z.abs() ** 2).sum().backward()
print(z.grad)
z.grad = None
w = z * (2 - 1j)
w.real.sum().backward()
print(z.grad)
z.grad = None
z.angle().sum().backward()
print(z.grad)
c = torch.tensor([1 + 1j], requires_grad=True)
o = c.exp()
o.backward(torch.tensor([1 + 0j]))
print(c.grad)
print(torch.view_as_real(z.detach()))
r = torch.tensor([1., 2.], requires_grad=True)
cc = r * (1 + 2j)
cc.abs().sum().backward()
print(r.grad)
try:
    (z * 2).sum().backward()
except Exception as e:
    print(type(e).__name__, e)
'''

PROGRAMS['anomaly_custom_nan'] = r'''
import torch
class BadSqrt(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sqrt()
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g / (2 * x.sqrt()) * 0 * float('inf')
x = torch.tensor([0., 4.], requires_grad=True)
with torch.autograd.detect_anomaly(check_nan=True):
    y = BadSqrt.apply(x)
    try:
        y.sum().backward()
    except Exception as e:
        print(type(e).__name__, e)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
with torch.autograd.set_detect_anomaly(True, check_nan=False):
    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    y = BadSqrt.apply(x)
    y.sum().backward()
    print(x.grad)
with torch.autograd.detect_anomaly():
    z = torch.tensor([-1.], requires_grad=True)
    try:
        z.sqrt().log().sum().backward()
        print(z.grad)
    except Exception as e:
        print(type(e).__name__, e)
'''

PROGRAMS['inference_mode_errors'] = r'''
import torch
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
with torch.inference_mode():
    inf = torch.ones(2)
    inf2 = inf * 2
print(inf.is_inference(), inf2.requires_grad)
w = torch.tensor([1., 2.], requires_grad=True)
E(lambda: w * inf)
E(lambda: (w * 1).mul(inf))
E(lambda: w.exp() + inf)
E(lambda: inf.add_(1))
E(lambda: inf.requires_grad_())
E(lambda: inf.view(2))
E(lambda: inf.clone().is_inference())
E(lambda: torch.ones(2).is_inference())
with torch.inference_mode():
    E(lambda: inf.add_(1))
    E(lambda: w * 2)
    E(lambda: torch.ones(2, requires_grad=True) * 2)
    t = torch.ones(2, requires_grad=True)
    print(t.requires_grad, t.is_leaf, t.is_inference())
with torch.inference_mode(mode=False):
    print(torch.is_inference_mode_enabled(), (w * 2).requires_grad)
normal = torch.ones(2)
with torch.inference_mode():
    E(lambda: normal.add_(1))
    v = normal.view(2)
    print(v.is_inference())
E(lambda: v.add_(1))
'''

PROGRAMS['hook_registration_errors'] = r'''
import torch
def E(f):
    try:
        r = f(); print('ok', type(r).__name__)
    except Exception as e:
        print(type(e).__name__, e)
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: torch.ones(2).register_hook(lambda g: g))
E(lambda: (x * 2).register_post_accumulate_grad_hook(lambda p: None))
E(lambda: torch.ones(2).register_post_accumulate_grad_hook(lambda p: None))
E(lambda: x.register_post_accumulate_grad_hook(lambda p: None))
E(lambda: torch.autograd.graph.register_multi_grad_hook((x,), lambda g: None, mode="some"))
E(lambda: torch.autograd.graph.register_multi_grad_hook((x, torch.ones(2)), lambda g: None))
def set_grad_wrong():
    x.grad = torch.ones(3)
E(set_grad_wrong)
def set_grad_dtype():
    x.grad = torch.ones(2, dtype=torch.float64)
E(set_grad_dtype)
def set_grad_int():
    x.grad = torch.ones(2, dtype=torch.long)
E(set_grad_int)
def set_grad_list():
    x.grad = [1., 2.]
E(set_grad_list)
def set_grad_ok():
    x.grad = torch.ones(2) * 3
E(set_grad_ok)
print(x.grad)
with torch.no_grad():
    h = x.register_hook(lambda g: g * 2)
(x * 1).sum().backward()
print(x.grad)
h.remove()
h.remove()
print('removed twice fine')
'''

PROGRAMS['warnings_texts'] = r'''
import torch
import warnings
def W(f):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        r = f()
    for w in ws:
        print(w.category.__name__, str(w.message))
    return r
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
W(lambda: y.grad)
W(lambda: torch.autograd.grad(y.sum(), x, only_inputs=False))
z = x.sin()
W(lambda: z.retain_grad())
W(lambda: z.grad)
W(lambda: torch.tensor(x))
W(lambda: torch.tensor([1., 2.], requires_grad=True).grad)
W(lambda: torch.autograd.Variable(torch.ones(2), requires_grad=True))
W(lambda: torch.nn.functional.softmax(torch.ones(2, 2)))
W(lambda: x.data.requires_grad)
'''

PROGRAMS['forward_ad_backward_mix'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
w = torch.tensor([1., 2.], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(w * 1, torch.tensor([1., 0.]))
    out = (d ** 2).sum()
    p, t = fwAD.unpack_dual(out)
    print(p, t)
    print(d)
    t.backward()
    print(w.grad)
    e = fwAD.make_dual(torch.tensor([0.5, -0.5]), torch.ones(2))
    r = torch.nn.functional.relu(e)
    print(fwAD.unpack_dual(r).tangent)
    s = torch.nn.functional.softmax(e, dim=0)
    print(fwAD.unpack_dual(s).tangent)
    l = torch.nn.functional.mse_loss(e, torch.zeros(2))
    print(fwAD.unpack_dual(l).tangent)
    class NoJvp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2
        @staticmethod
        def backward(ctx, g):
            return g * 2
    try:
        NoJvp.apply(e)
    except Exception as ex:
        print(type(ex).__name__, ex)
'''

PROGRAMS['functional_tuple_create_graph'] = r'''
import torch
from torch.autograd.functional import vjp, jvp, hvp, vhp, jacobian
def f(a, b):
    return a * b, (a + b).sum()
a = torch.tensor([1., 2.])
b = torch.tensor([3., 4.])
out, grads = vjp(f, (a, b), (torch.ones(2), torch.tensor(2.)))
print(out, grads)
out, tang = jvp(f, (a, b), (torch.ones(2), torch.zeros(2)))
print(out, tang)
def s(a, b):
    return (a ** 2 * b).sum()
print(hvp(s, (a, b), (torch.ones(2), torch.ones(2))))
print(vhp(s, (a, b), (torch.ones(2), torch.zeros(2))))
out, g = vjp(s, (a, b), create_graph=True)
print(g[0].requires_grad, g[0].grad_fn is not None)
ar = a.clone().requires_grad_()
out, g = vjp(s, (ar, b), create_graph=True)
print(g)
g[0].sum().backward()
print(ar.grad)
print(jacobian(f, (a, b)))
'''

PROGRAMS['grad_outputs_errors'] = r'''
import torch
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
c = torch.ones(2)
E(lambda: torch.autograd.grad([y.sum(), c.sum()], x, retain_graph=True))
E(lambda: torch.autograd.grad([y.sum(), c], x, grad_outputs=[None, torch.ones(2)], retain_graph=True))
E(lambda: torch.autograd.grad([y.sum(), c.sum()], x, grad_outputs=[None, None], retain_graph=True))
E(lambda: torch.autograd.grad(y, x, grad_outputs=[1.0], retain_graph=True))
E(lambda: torch.autograd.grad(y, x, grad_outputs=torch.ones(2, dtype=torch.complex64), retain_graph=True))
E(lambda: torch.autograd.grad(y, x, grad_outputs=torch.ones(2, dtype=torch.float64), retain_graph=True))
E(lambda: torch.autograd.grad(y, x, grad_outputs=torch.ones(2, dtype=torch.long), retain_graph=True))
E(lambda: torch.autograd.grad(y, x, grad_outputs=(torch.ones(2), torch.ones(2)), retain_graph=True))
E(lambda: torch.autograd.grad((y, y), x, grad_outputs=(torch.ones(2),), retain_graph=True))
E(lambda: torch.autograd.grad(y, [x, x], grad_outputs=torch.ones(2), retain_graph=True))
E(lambda: torch.autograd.grad(y, x, torch.ones(1, 2), retain_graph=True))
E(lambda: torch.autograd.grad(y.sum(), 3.0))
'''

PROGRAMS['backward_inputs_nonleaf'] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
h = x * 3
out = (h ** 2).sum()
out.backward(inputs=[h], retain_graph=True)
print(h.grad, x.grad, h.retains_grad)
out.backward(inputs=[x, h], retain_graph=True)
print(h.grad, x.grad)
out.backward(inputs=x)
print(x.grad)
y = torch.tensor([1., 1.], requires_grad=True)
z = (x * y).sum()
z.backward(inputs=(y,))
print(x.grad, y.grad)
w = torch.tensor([2.], requires_grad=True)
u = w * 2
u.retain_grad()
v = u.exp()
v.backward(inputs=[u])
print(u.grad, w.grad)
'''

PROGRAMS['custom_function_node_hooks'] = r'''
import torch
class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        print('backward got', g)
        return g * 2
x = torch.tensor([1., 2.], requires_grad=True)
y = Double.apply(x)
node = y.grad_fn
print(type(node).__name__, node.name(), isinstance(node, torch.autograd.graph.Node))
print(node.next_functions, node.needs_input_grad)
node.metadata['tag'] = 'mine'
node.register_prehook(lambda gO: (gO[0] + 100,))
node.register_hook(lambda gI, gO: print('post', gI, gO, node.metadata))
y.sum().backward()
print(x.grad)
print(torch.autograd.Function.__name__, issubclass(type(node), torch.autograd.function.BackwardCFunction))
print(type(node).__mro__[1].__name__)
'''

PROGRAMS['function_ctx_saved_variants'] = r'''
import torch
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        tmp = x + y
        ctx.save_for_backward(x, None, tmp)
        return tmp * y
    @staticmethod
    def backward(ctx, g):
        x, none, tmp = ctx.saved_tensors
        x2, _, _ = ctx.saved_tensors
        print(none, x2 is x, tmp.requires_grad, tmp.grad_fn)
        return g * x, g * tmp
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.], requires_grad=True)
out = F.apply(x, y)
out.sum().backward(retain_graph=True)
print(x.grad, y.grad)
print(len(out.grad_fn.saved_tensors), out.grad_fn.saved_tensors[1])
out.sum().backward()
E(lambda: out.grad_fn.saved_tensors)
E(lambda: out.sum().backward())
class G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, 3)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: G.apply(x))
class H(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        return ctx.saved_tensors
E(lambda: H.apply(x).sum().backward())
'''

PROGRAMS['function_output_view_inplace'] = r'''
import torch
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
class ViewOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x[0]
    @staticmethod
    def backward(ctx, g):
        r = torch.zeros(2)
        r[0] = g
        return r
x = torch.tensor([1., 2.], requires_grad=True)
a = x * 1
v = ViewOut.apply(a)
print(v, v._base is a, v.grad_fn.name())
E(lambda: v.mul_(2))
class Same(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x
    @staticmethod
    def backward(ctx, g):
        return g
s = Same.apply(a)
E(lambda: s.add_(1))
s2 = Same.apply(x)
E(lambda: s2.add_(1))
class Legacy(torch.autograd.Function):
    def forward(self, x):
        return x
E(lambda: Legacy()(x))
class Part(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x[:1]
    @staticmethod
    def backward(ctx, g):
        return torch.cat([g, torch.zeros(1)])
b = torch.tensor([1., 2.], requires_grad=True) * 1
p = Part.apply(b)
b.add_(1)
print(p)
E(lambda: p.grad_fn)
with torch.no_grad():
    p.mul_(2)
print(b)
c = torch.tensor([1., 2.])
q = Part.apply(c)
q.add_(1)
print(q, c)
'''

PROGRAMS['view_grad_fn_names'] = r'''
import torch
x = torch.arange(12., requires_grad=True).reshape(3, 4)
print(x.grad_fn)
views = {
    'select': x[0], 'slice': x[:, 1:3], 'T': x.T, 't': x.t(), 'mT': x.mT, 'unsqueeze': x.unsqueeze(0),
    'expand': x[:1].expand(2, 4), 'narrow': x.narrow(1, 0, 2), 'diagonal': x.diagonal(),
    'as_strided': x.as_strided((2, 2), (1, 2)), 'view': x.view(-1), 'flatten': x.flatten(), 'squeeze': x[None].squeeze(0),
    'permute': x.permute(1, 0), 'transpose': x.transpose(0, 1), 'movedim': x.movedim(0, 1), 'real': x.real,
    'view_as': x.view_as(x), 'index_int_list': x[[0, 2]], 'bool_mask': x[x > 5], 'ellipsis': x[..., 0],
    'none_idx': x[None, 0], 'alias_detach': x.detach(),
}
for k, v in views.items():
    print(k, v.grad_fn.name() if v.grad_fn is not None else None, v._base is not None, v.shape)
x.T.sum().backward() if False else None
print(x.unbind(1)[2].grad_fn.name(), x.split([1, 3], dim=1)[1].grad_fn.name(), x.chunk(2)[0].grad_fn.name())
'''

PROGRAMS['version_counter_ops'] = r'''
import torch
x = torch.zeros(3)
v = x[1:]
print(x._version, v._version)
x.add_(1); print(x._version, v._version)
x[0] = 5; print(x._version)
x[torch.tensor([0, 1])] = 2.; print(x._version)
x.copy_(torch.ones(3)); print(x._version)
x.zero_(); x.fill_(2); print(x._version)
v.mul_(3); print(x._version, v._version, x)
torch.add(x, 1, out=x); print(x._version)
y = x.clone(); print(y._version)
d = x.detach(); d.add_(1); print(x._version, d._version)
x.data.add_(1); print(x._version)
x.resize_(3); print(x._version)
x.t_(); print(x._version)
with torch.no_grad():
    x.sub_(1)
print(x._version)
n = torch.zeros(2)
n.index_add_(0, torch.tensor([0]), torch.ones(1)); print(n._version)
n.clamp_(0, 0.5); print(n._version)
n.scatter_(0, torch.tensor([1]), torch.ones(1)); print(n._version)
'''

PROGRAMS['inference_vs_enable_grad'] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
with torch.inference_mode():
    with torch.enable_grad():
        y = x * 2
        print(torch.is_grad_enabled(), torch.is_inference_mode_enabled(), y.requires_grad, y.is_inference())
    with torch.no_grad():
        print(torch.is_grad_enabled())
print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
with torch.no_grad():
    with torch.inference_mode(False):
        print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
    with torch.inference_mode():
        z = x * 2
    print(z.is_inference(), torch.is_grad_enabled())
with torch.enable_grad():
    with torch.no_grad():
        with torch.set_grad_enabled(True):
            k = x * 3
print(k.requires_grad, k.grad_fn)
g = torch.inference_mode()
print(type(g).__name__)
with g:
    print(torch.is_inference_mode_enabled())
print(torch.is_inference_mode_enabled())
print(torch.no_grad().__class__.__name__, torch.enable_grad().__class__.__name__)
'''

PROGRAMS['vjp_staticmethod_alias'] = r'''
import torch
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def vjp(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
x = torch.tensor([3., 4.], requires_grad=True)
Sq.apply(x).sum().backward()
print(x.grad)
class Nothing(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 1
y = Nothing.apply(x)
print(y.grad_fn.name())
try:
    y.sum().backward()
except Exception as e:
    print(type(e).__name__, e)
class Both(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x + 1
    @staticmethod
    def backward(ctx, g):
        return g
    @staticmethod
    def vjp(ctx, g):
        return g * 10
try:
    Both.apply(x).sum().backward()
except Exception as e:
    print(type(e).__name__, e)
print(x.grad)
'''

PROGRAMS['grad_attr_properties'] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
(x * 3).sum().backward()
g = x.grad
print(g.requires_grad, g.is_leaf, g.grad_fn, g._version)
(x * 3).sum().backward()
print(g is x.grad, g, g._version)
x.grad.zero_()
print(x.grad, x.grad._version)
x.grad.data.fill_(7)
print(x.grad)
(x ** 2).sum().backward(create_graph=True)
print(x.grad, x.grad.requires_grad, x.grad.is_leaf)
x.grad = None
(x ** 2).sum().backward(create_graph=True)
print(x.grad, x.grad.grad_fn)
x.grad.sum().backward()
print(x.grad)
'''

PROGRAMS['print_suffix_wrapping'] = r'''
import torch
base = torch.tensor([1.234567, -2.5, 3.75, 100.125, -0.0625, 7.0, 8.5, 9.25, 10.5, 11.0], requires_grad=True)
for n in range(1, 11):
    print(base[:n] * 1)
for n in (5, 7, 9):
    print((base[:n] * 1).double())
    print((base[:n] * 1).half())
print(torch.ones(2, 3, dtype=torch.float64, requires_grad=True) * 1)
print(torch.ones(6, dtype=torch.float16, requires_grad=True).sum())
print(torch.full((2, 2), 1e-8, requires_grad=True) * 3)
print(torch.tensor([1e-8, 1.0, 1e8], requires_grad=True) * 1)
print(torch.tensor([0.1, 123456.7], dtype=torch.float64, requires_grad=True).exp2() if hasattr(torch, 'exp2') else '')
print(torch.tensor([[1, 2], [3, 4]]).float().requires_grad_().sum(0, keepdim=True))
print(torch.tensor([-0.0, 0.0], requires_grad=True) * -1)
'''

PROGRAMS['print_containers_nodes'] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
print([x, y])
print({'a': y.sum()})
print((y.max(0),))
print(y.max(0))
print(torch.sort(y, descending=True))
print(y.grad_fn, str(y.grad_fn).startswith('<MulBackward0 object at'))
print(repr(x.grad))
print(f"{y.sum():.3f}", f"{y.sum().item():.2f}")
print(str(y), y.__repr__() == str(y))
print(x.shape, y.size(), y.dim(), y.ndim, y.numel(), y.dtype, y.device, y.layout)
print(y.is_leaf, y.requires_grad, y.output_nr if hasattr(y, 'output_nr') else '', y._version)
'''

PROGRAMS['set_materialize_grads_multi'] = r'''
import torch
class Split3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x[0:1].clone(), x[1:2].clone(), x[2:3].clone()
    @staticmethod
    def backward(ctx, a, b, c):
        print('got', [None if g is None else g.tolist() for g in (a, b, c)])
        parts = [torch.zeros(1) if g is None else g for g in (a, b, c)]
        return torch.cat(parts)
x = torch.tensor([1., 2., 3.], requires_grad=True)
a, b, c = Split3.apply(x)
(b * 5).sum().backward()
print(x.grad)
x.grad = None
a, b, c = Split3.apply(x)
(a + c).sum().backward()
print(x.grad)
class Mat(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone(), x.clone()
    @staticmethod
    def backward(ctx, a, b):
        print('mat', a, b)
        return a + b
x.grad = None
p, q = Mat.apply(x)
q.sum().backward()
print(x.grad)
'''

PROGRAMS['autograd_mechanics_requires_grad_table'] = r'''
import torch
import torch.nn as nn
model = nn.Linear(3, 2)
for p in model.parameters():
    p.requires_grad_(False)
model.bias.requires_grad_(True)
x = torch.tensor([[1., 2., 3.]])
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.1, 0.2, 0.3], [-0.1, 0.0, 0.5]]))
    model.bias.zero_()
out = model(x)
print(out, out.requires_grad, out.grad_fn.name())
out.sum().backward()
print(model.weight.grad, model.bias.grad)
model.eval()
out2 = model(x)
print(out2.requires_grad, model.training)
model.requires_grad_(False)
out3 = model(x)
print(out3.requires_grad, out3.grad_fn)
print([(n, p.requires_grad) for n, p in model.named_parameters()])
a = torch.ones(2, requires_grad=True)
b = a.detach()
c = a.data
print(b.requires_grad, c.requires_grad, b.is_leaf, c.is_leaf, (a + 1).is_leaf)
d = torch.ones(2) + a
print(d.requires_grad, torch.ones(2, requires_grad=True).is_leaf, (torch.ones(2) * 2).is_leaf)
'''

PROGRAMS['multithread_backward_docs'] = r'''
import threading
import torch
results = {}
def train_fn(i):
    x = torch.ones(5, 5, requires_grad=True)
    y = (x + 3) * (x + 4) * 0.5 * (i + 1)
    y.sum().backward()
    results[i] = x.grad.sum().item()
threads = [threading.Thread(target=train_fn, args=(i,)) for i in range(3)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(sorted(results.items()))
shared = torch.tensor([1., 2.], requires_grad=True)
out = (shared ** 2).sum()
grads = {}
def bw(i):
    grads[i] = torch.autograd.grad(out, shared, retain_graph=True)[0]
ts = [threading.Thread(target=bw, args=(i,)) for i in range(2)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print(grads[0], grads[1], shared.grad)
def grad_mode_in_thread():
    results['thread_grad'] = torch.is_grad_enabled()
with torch.no_grad():
    t = threading.Thread(target=grad_mode_in_thread)
    t.start(); t.join()
print(results['thread_grad'])
'''

PROGRAMS['once_diff_delayed_error'] = r'''
import torch
from torch.autograd.function import once_differentiable
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x ** 2 * g
x = torch.tensor([1., 2.], requires_grad=True)
v = torch.ones(2, requires_grad=True)
y = Cube.apply(x)
gx, = torch.autograd.grad(y, x, grad_outputs=v, create_graph=True)
print(gx, gx.requires_grad)
print(gx.grad_fn.name() if gx.grad_fn is not None else None)
try:
    gx.sum().backward()
except Exception as e:
    print(type(e).__name__, e)
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x ** 3, y * 2
    @staticmethod
    @once_differentiable
    def backward(ctx, g, h):
        return 3 * g, None
a, b = Two.apply(x, x)
gx = torch.autograd.grad((a, b), x, grad_outputs=(v, torch.ones(2)), create_graph=True)
print(gx, [(None if f is None else f.name(), n) for f, n in gx[0].grad_fn.next_functions])
print(gx[0].is_leaf, gx[0]._base)
a, b = Two.apply(x, x)
gx = torch.autograd.grad((a, b), x, grad_outputs=(torch.ones(2), torch.ones(2)), create_graph=True)
print(gx)
'''

PROGRAMS['accumulate_grad_node_hooks'] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
acc = y.grad_fn.next_functions[0][0]
print(acc.name(), acc.metadata, acc.next_functions)
def pre(gO):
    print('acc pre', gO)
    return (gO[0] * 10,)
h = acc.register_prehook(pre)
y.sum().backward(retain_graph=True)
print(x.grad)
h.remove()
def post(gI, gO):
    print('acc post', gI, gO)
acc.register_hook(post)
x.grad = None
y.sum().backward(retain_graph=True)
print(x.grad)
x.register_hook(lambda g: g + 1)
x.grad = None
y.sum().backward()
print(x.grad)
z = torch.tensor([3.], requires_grad=True)
e = torch.autograd.graph.get_gradient_edge(z)
print(e.node.name(), e.node is torch.autograd.graph.get_gradient_edge(z).node)
w = z * 1
print(w.grad_fn.next_functions[0][0] is e.node)
'''

PROGRAMS['grad_wrt_gradient_edge_outputs'] = r'''
import torch
from torch.autograd.graph import get_gradient_edge
x = torch.tensor([1., 2.], requires_grad=True)
h = x * 3
out = h.sin().sum()
edge_h = get_gradient_edge(h)
gh, = torch.autograd.grad(out, edge_h, retain_graph=True)
print(gh)
gx, = torch.autograd.grad(edge_h, x, grad_outputs=gh, retain_graph=True)
print(gx)
gx2, = torch.autograd.grad(h, x, grad_outputs=gh)
print(gx2)
try:
    torch.autograd.grad(edge_h, x)
except Exception as e:
    print(type(e).__name__, e)
s = torch.tensor([2.], requires_grad=True)
print(torch.autograd.grad(get_gradient_edge(s), s))
'''

PROGRAMS['custom_function_saved_version_error'] = r'''
import torch
class Mul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y
    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return g * y, g * x
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
x = a * 1
out = Mul.apply(x, b)
x.add_(1)
try:
    out.sum().backward()
except Exception as e:
    print(type(e).__name__, e)
class SaveOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y
    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * y
o = SaveOut.apply(a)
o.mul_(2)
try:
    o.sum().backward()
except Exception as e:
    print(type(e).__name__, e)
o2 = SaveOut.apply(a)
print(o2.grad_fn.saved_tensors[0] is o2, o2.grad_fn.saved_tensors[0].grad_fn is o2.grad_fn)
'''

PROGRAMS['copyslices_graph'] = r'''
import torch
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
y = x.clone()
y[1:3] *= torch.tensor([10., 20.])
print(y, y.grad_fn.name())
print([(f.name() if f else None, n) for f, n in y.grad_fn.next_functions])
y[0] = 0.
print([(f.name() if f else None, n) for f, n in y.grad_fn.next_functions])
y.sum().backward()
print(x.grad)
z = x.clone().view(2, 2)
z[:, 0].exp_()
print(z.grad_fn.name(), z._base.grad_fn.name())
z.sum().backward()
print(x.grad)
w = x.clone()
w.unsqueeze(0)[0, 1:].mul_(3)
w.sum().backward()
print(x.grad)
'''

PROGRAMS['functional_jacobian_modules'] = r'''
import torch
from torch.autograd.functional import jacobian, hessian
lin = torch.nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1., 0., -1.], [0.5, 0.5, 0.5]]))
    lin.bias.fill_(0.1)
x = torch.tensor([0.2, -0.3, 0.4])
print(jacobian(lin, x))
print(jacobian(lambda t: torch.tanh(lin(t)), x, vectorize=True))
print(hessian(lambda t: lin(t).pow(2).sum(), x))
def loss_wrt_w(w):
    return torch.nn.functional.linear(x, w, lin.bias).sum()
print(jacobian(loss_wrt_w, lin.weight.detach()))
J = jacobian(lambda t: (t.sin(), t.cos().sum()), x)
print(type(J).__name__, [j.shape for j in J])
print(jacobian(lambda a, b: a @ b, (torch.eye(2), torch.tensor([1., 2.]))))
'''

PROGRAMS['saved_hooks_custom_function'] = r'''
import torch
log = []
def pack(t):
    log.append(('pack', tuple(t.shape), t.requires_grad))
    return t.clone()
def unpack(t):
    log.append(('unpack', tuple(t.shape)))
    return t
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.sin()
        ctx.save_for_backward(x, y)
        return y
    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return g * x.cos()
x = torch.tensor([0., 1.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = F.apply(x)
    z = (y * x).sum()
z.backward()
for entry in log:
    print(entry)
print(x.grad)
'''

PROGRAMS['split_node_hooks'] = r'''
import torch
x = torch.arange(6., requires_grad=True)
a, b, c = (x * 1).split(2)
node = a.grad_fn
print(node.name(), a.grad_fn is c.grad_fn, [t.grad_fn is node for t in (a, b, c)])
node.register_prehook(lambda gO: print('pre', gO))
node.register_hook(lambda gI, gO: print('post', gI, gO))
(b * 2).sum().backward(retain_graph=True)
print(x.grad)
x.grad = None
(a.sum() + c.sum() * 3).backward()
print(x.grad)
u = x.unbind()
print(u[0].grad_fn.name(), len(u))
s = torch.stack(u[:3]).sum()
s.backward()
print(x.grad)
'''

PROGRAMS['mixed_dtype_leaf_grads'] = r'''
import torch
w16 = torch.tensor([1., 2.], dtype=torch.float16, requires_grad=True)
w64 = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
x = torch.tensor([0.1, 0.2])
out = (w16.float() * x).sum() + (w64 * x).sum()
print(out, out.dtype)
out.backward()
print(w16.grad, w64.grad)
c = torch.tensor([1 + 1j, 2 - 1j], requires_grad=True)
try:
    (c * 2).sum().backward()
except Exception as e:
    print(type(e).__name__, e)
r = torch.tensor([1., 2.], requires_grad=True)
m = (r * torch.tensor([1j, 2j])).abs().sum()
m.backward()
print(r.grad)
b = torch.tensor([1., 2.], dtype=torch.bfloat16, requires_grad=True)
(b * b).sum().backward()
print(b.grad)
i = torch.tensor([1., 2.], requires_grad=True)
(i * torch.tensor([3, 4])).sum().backward()
print(i.grad, (i * torch.tensor([3, 4])).dtype)
'''

PROGRAMS['hook_exceptions_and_prehook_returns'] = r'''
import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
def bad(g):
    raise ValueError("hook failed")
h = y.register_hook(bad)
try:
    y.sum().backward(retain_graph=True)
except ValueError as e:
    print('caught', e)
h.remove()
y.sum().backward(retain_graph=True)
print(x.grad)
z = x * 3
z.grad_fn.register_prehook(lambda gO: None)
z.sum().backward()
print(x.grad)
q = x.exp()
q.grad_fn.register_prehook(lambda gO: (None,))
x.grad = None
q.sum().backward()
print(x.grad)
def remove_during(g):
    hh.remove()
    print('removing during backward')
    return g
p = x * 4
hh = p.register_hook(remove_during)
p.sum().backward(retain_graph=True)
p.sum().backward()
print('done', x.grad)
'''

PROGRAMS['jacobian_independent_outputs'] = r'''
import torch
from torch.autograd.functional import jacobian, vjp, jvp
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
x = torch.tensor([1., 2.])
E(lambda: jacobian(lambda t: (t * 2, torch.ones(3)), x))
E(lambda: jacobian(lambda a, b: a * 2, (x, torch.ones(3))))
E(lambda: jacobian(lambda a, b: a * 2, (x, torch.ones(3)), strict=True))
E(lambda: jacobian(lambda t: t.sum(), x, create_graph=True))
E(lambda: vjp(lambda a, b: a * 2, (x, torch.ones(2)), torch.ones(2)))
E(lambda: jvp(lambda a, b: torch.ones(2), (x, torch.ones(2)), (torch.ones(2), torch.ones(2))))
E(lambda: jacobian(lambda t: t.int(), x))
E(lambda: jacobian(lambda t: t, [x]))
E(lambda: jacobian(lambda t: t, 3.0))
'''

PROGRAMS['saved_hooks_inplace_no_version_check'] = r'''
import torch
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
x = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
    a = x * 1
    b = a ** 2
a.add_(10)
E(lambda: b.sum().backward())
print(x.grad)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t.clone(), lambda t: t):
    a = x * 1
    b = a ** 2
a.add_(10)
x.grad = None
E(lambda: b.sum().backward())
print(x.grad)
with torch.autograd.graph.save_on_cpu():
    a = x * 1
    b = a.exp()
a.mul_(0)
x.grad = None
E(lambda: b.sum().backward())
print(x.grad)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
    a = x * 1
    b = a.exp()
b.mul_(0) if False else None
b2 = b * 1
b.add_(1)
E(lambda: b2.sum().backward())
E(lambda: b.grad_fn)
'''

PROGRAMS['node_call_directly'] = r'''
import torch
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
E(lambda: y.grad_fn(torch.ones(2)))
z = x * torch.tensor([3., 4.])
E(lambda: z.grad_fn(torch.ones(2)))
w = x.split(1)
E(lambda: w[0].grad_fn(torch.ones(1), None))
E(lambda: w[0].grad_fn(torch.ones(1), torch.ones(1)))
acc = z.grad_fn.next_functions[0][0]
E(lambda: acc(torch.ones(2)))
print(x.grad)
E(lambda: y.grad_fn(torch.ones(3)))
E(lambda: y.grad_fn())
m = x.sum()
E(lambda: m.grad_fn(torch.tensor(2.)))
q = x * 2
q.grad_fn.register_hook(lambda gI, gO: (gI[0], gI[0]))
E(lambda: q.sum().backward())
q2 = x * 2
q2.grad_fn.register_prehook(lambda gO: (gO[0], gO[0]))
E(lambda: q2.sum().backward())
q3 = x * 2
q3.grad_fn.register_hook(lambda gI, gO: [gI[0]])
E(lambda: q3.sum().backward())
q4 = x * 2
q4.grad_fn.register_hook(lambda gI, gO: (torch.ones(3),))
E(lambda: q4.sum().backward())
'''

PROGRAMS['forward_ad_selecting_ops_and_losses'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F
x0 = torch.tensor([[0.5, -1.0, 2.0, 0.5], [1.5, 0.25, -0.75, 3.0]])
t0 = torch.tensor([[1.0, 0.5, -1.0, 4.0], [0.0, 2.0, 1.0, -3.0]])
ops = {
 'sort': lambda x: x.sort(1).values, 'sort0_desc': lambda x: x.sort(0, descending=True).values, 'topk': lambda x: x.topk(2).values,
 'topk_dim0': lambda x: x.topk(1, dim=0, largest=False).values, 'median': lambda x: x.median(1).values, 'median_keep': lambda x: x.median(1, keepdim=True).values,
 'median_all': lambda x: x.median(), 'kthvalue': lambda x: x.kthvalue(2, 1).values, 'kth_keep': lambda x: x.kthvalue(1, 0, keepdim=True).values,
 'mode': lambda x: x.mode(1).values, 'nanmedian': lambda x: x.nanmedian(1).values, 'nanmedian_all': lambda x: x.nanmedian(),
 'cummax': lambda x: x.cummax(1).values, 'cummin': lambda x: x.cummin(0).values,
 'smooth_l1': lambda x: F.smooth_l1_loss(x, torch.zeros(2, 4)), 'smooth_l1_none': lambda x: F.smooth_l1_loss(x, torch.ones(2, 4), reduction='none', beta=0.5),
 'huber': lambda x: F.huber_loss(x, torch.zeros(2, 4), delta=0.8), 'huber_sum': lambda x: F.huber_loss(x, x.detach() * 2, reduction='sum'),
 'sort_1d': lambda x: x[0].sort().values, 'median_1d': lambda x: x[1].median(),
}
with fwAD.dual_level():
    for k, f in ops.items():
        d = fwAD.make_dual(x0, t0)
        try:
            out = f(d)
            print(k, fwAD.unpack_dual(out).tangent)
        except Exception as e:
            print(k, type(e).__name__, e)
    d = fwAD.make_dual(x0, t0)
    tgt = fwAD.make_dual(torch.zeros(2, 4), torch.ones(2, 4))
    print(fwAD.unpack_dual(F.smooth_l1_loss(d, tgt)).tangent, fwAD.unpack_dual(F.huber_loss(d, tgt)).tangent)
'''

PROGRAMS['whether_hooks_fire'] = r'''
import torch
log = []
x = torch.tensor([1., 2.], requires_grad=True)
h = x * 2
h.register_hook(lambda g: log.append(('tensor hook on h', g.tolist())))
h.grad_fn.register_prehook(lambda gO: log.append('prehook h.grad_fn'))
h.grad_fn.register_hook(lambda gI, gO: log.append('posthook h.grad_fn'))
h.retain_grad()
out = (h ** 2).sum()
out.grad_fn.register_hook(lambda gI, gO: log.append('posthook out.grad_fn'))
g, = torch.autograd.grad(out, h, retain_graph=True)
print(g, log, h.grad)
log.clear()
out.backward(inputs=[h], retain_graph=True)
print(log, h.grad, x.grad)
log.clear()
out.backward(retain_graph=True)
print(log, h.grad, x.grad)
log.clear()
y = torch.tensor([3.], requires_grad=True)
other = (y * 5).sum()
other.grad_fn.register_hook(lambda gI, gO: log.append('unrelated'))
out.backward()
print(log)
a = torch.tensor([1.], requires_grad=True)
b = a * 2
c = b * 3
b.grad_fn.register_prehook(lambda gO: log.append('b prehook'))
b.register_hook(lambda g: log.append('b tensor hook'))
torch.autograd.grad(c, a)
print(log)
'''

PROGRAMS['function_jvp_save_for_forward'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_forward(x, y)
        return x * y, x + y
    @staticmethod
    def jvp(ctx, xt, yt):
        x, y = ctx.saved_tensors
        print('jvp got', xt, yt)
        return xt * y + x * yt, xt + yt
    @staticmethod
    def backward(ctx, g1, g2):
        return g1, g2
with fwAD.dual_level():
    a = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 0.]))
    b = torch.tensor([3., 4.])
    p, s = F.apply(a, b)
    print(fwAD.unpack_dual(p).tangent, fwAD.unpack_dual(s).tangent)
    class BadJvp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2
        @staticmethod
        def jvp(ctx, xt):
            return xt.sum()
        @staticmethod
        def backward(ctx, g):
            return g
    E(lambda: BadJvp.apply(a))
    class NoneJvp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2
        @staticmethod
        def jvp(ctx, xt):
            return None
        @staticmethod
        def backward(ctx, g):
            return g
    class TwoJvp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2
        @staticmethod
        def jvp(ctx, xt):
            return xt, xt
        @staticmethod
        def backward(ctx, g):
            return g
    E(lambda: TwoJvp.apply(a))
    class DirtyJvp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x
        @staticmethod
        def jvp(ctx, xt):
            xt.mul_(2)
            return xt
        @staticmethod
        def backward(ctx, g):
            return g * 2
    c = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 1.]))
    r = DirtyJvp.apply(c)
    print(r, fwAD.unpack_dual(r).tangent, r is c)
class SB(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x)
        ctx.save_for_forward(y)
        return x * y
    @staticmethod
    def jvp(ctx, xt, yt):
        print('jvp saved', ctx.saved_tensors)
        return xt
    @staticmethod
    def backward(ctx, g):
        print('bw saved', ctx.saved_tensors)
        return g, g
xx = torch.tensor([1., 2.], requires_grad=True)
with fwAD.dual_level():
    q = fwAD.make_dual(xx * 1, torch.tensor([1., 0.]))
    o = SB.apply(q, torch.tensor([5., 6.]))
    print(o.grad_fn.saved_tensors)
    o.sum().backward()
'''

PROGRAMS['function_output_kinds'] = r'''
import torch
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
x = torch.tensor([1., 2.], requires_grad=True)
class Both(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: Both.apply(x))
class IntOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.long(), x * 2, (x > 1)
    @staticmethod
    def backward(ctx, a, b, c):
        print('int grads', a, b, c)
        return b
r = IntOut.apply(x)
print([t.requires_grad for t in r], [t.grad_fn is not None for t in r])
r[1].sum().backward()
print(x.grad)
class MarkNonOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_non_differentiable(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: MarkNonOut.apply(x).requires_grad)
with torch.no_grad():
    o = Both.apply(x) if False else IntOut.apply(x)[1]
print(o.requires_grad, o.grad_fn)
class Outer(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        w = torch.ones(2, requires_grad=True)
        print('inside forward grad enabled', torch.is_grad_enabled(), (x * w).requires_grad)
        return x * w
    @staticmethod
    def backward(ctx, g):
        return g
o = Outer.apply(x)
print(o.grad_fn.name())
class SavedInForward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        return g
o = SavedInForward.apply(x)
print(len(o.grad_fn.saved_tensors), o.grad_fn.saved_tensors[0] is x)
class NonTensorOnly(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return 5
    @staticmethod
    def backward(ctx, g):
        return None
E(lambda: NonTensorOnly.apply(x))
class ReturnsList(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return [x * 2, x * 3]
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: ReturnsList.apply(x))
class ReturnsNone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return None
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: ReturnsNone.apply(x))
'''

PROGRAMS['print_value_ranges'] = r'''
import torch
vals = [[0.001234, 123.5, -7.0], [1e-4, 5e5, 3.14159], [0.0, -0.5, 2.0]]
t = torch.tensor(vals, requires_grad=True)
print(t * 1)
print((t * 1).double())
print((t * 1).half())
print((t * 1).bfloat16())
print(t[2] * 1)
print(t[1] * 1000)
print(t[0, :2] * 1e-5)
c = torch.tensor([1.5 + 2j, -0.001 - 1000j], requires_grad=True)
print(c * 1)
print(c.abs())
print(torch.tensor([1e-10, 1e10], dtype=torch.float64, requires_grad=True) * 1)
print(torch.tensor([123456789.0], requires_grad=True) * 1)
print(torch.tensor([1.0, 2.0, 3.0], requires_grad=True) * 1e20)
print(torch.tensor([0.1, 0.25], requires_grad=True).sum() * 3)
torch.set_printoptions(precision=3, sci_mode=False)
print(t * 1)
torch.set_printoptions(precision=6)
print(t[1] * 1)
torch.set_printoptions(profile='default')
print(torch.arange(30.).reshape(5, 6).requires_grad_() * 1.5)
print(torch.arange(1200.).reshape(3, 400).requires_grad_().sum(0))
print(torch.ones(1, 1, 1, requires_grad=True) * 2)
print(torch.ones(2, 1, 3, requires_grad=True).double() * 2)
'''

PROGRAMS['saved_attribute_names'] = r'''
import torch
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
x = torch.tensor([1., 2.], requires_grad=True)
y = x.pow(2)
print(y.grad_fn._saved_exponent, y.grad_fn._saved_self)
a = torch.add(x, x, alpha=2)
print(a.grad_fn._saved_alpha)
s = x.sum(-1)
print(s.grad_fn._saved_dim, s.grad_fn._saved_keepdim)
c = x.clamp(min=0.5)
print([n for n in dir(c.grad_fn) if n.startswith('_saved')])
m = torch.mean(x.view(1, 2), dim=(0, 1))
print(m.grad_fn._saved_dim)
e = x.expand(3, 2)
print(e.grad_fn._saved_self_sym_sizes if hasattr(e.grad_fn, '_saved_self_sym_sizes') else [n for n in dir(e.grad_fn) if n.startswith('_saved')])
i = x[torch.tensor([1, 0])]
print([n for n in dir(i.grad_fn) if n.startswith('_saved')], i.grad_fn._saved_indices)
v = x.view(2, 1)
print([n for n in dir(v.grad_fn) if n.startswith('_saved')])
t = x.view(1, 2).transpose(0, 1)
print(t.grad_fn._saved_dim0, t.grad_fn._saved_dim1)
d = x / 3
print([n for n in dir(d.grad_fn) if n.startswith('_saved')], d.grad_fn._saved_other)
mm = x.view(1, 2) @ x.view(2, 1)
print(mm.grad_fn.name(), [n for n in dir(mm.grad_fn) if n.startswith('_saved')])
sm = torch.softmax(x, 0)
print(sm.grad_fn.name(), [n for n in dir(sm.grad_fn) if n.startswith('_saved')])
ls = torch.nn.functional.log_softmax(x, 0)
print(ls.grad_fn.name(), [n for n in dir(ls.grad_fn) if n.startswith('_saved')], ls.grad_fn._saved_dim)
'''

PROGRAMS['extending_mycube_double_backward'] = r'''
import torch
class MyCube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        result = x ** 3
        dx = 3 * x ** 2
        return result, dx
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        result, dx = output
        ctx.save_for_backward(x, dx)
    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        result = grad_output * dx + grad_dx * 6 * x
        return result
def my_cube(x):
    result, dx = MyCube.apply(x)
    return result
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = my_cube(x)
print(y)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g)
gg, = torch.autograd.grad(g.sum(), x)
print(gg)
r, dx = MyCube.apply(x)
print(dx.grad_fn.name(), r.grad_fn is dx.grad_fn, dx.requires_grad)
(r.sum() + dx.sum()).backward()
print(x.grad)
print(torch.autograd.gradcheck(my_cube, (torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True),)))
print(torch.autograd.gradgradcheck(my_cube, (torch.tensor([0.5, 1.5], dtype=torch.double, requires_grad=True),)))
'''

PROGRAMS['node_types_printed'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
from torch.autograd.function import once_differentiable
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
print(type(y.grad_fn), type(y.grad_fn).__name__, type(y.grad_fn).__module__)
acc = y.grad_fn.next_functions[0][0]
print(type(acc), type(acc).__name__)
c = x.clone()
c[0] = 5
print(type(c.grad_fn), c.grad_fn.name())
v = c[:1]
c.mul_(2)
print(type(v.grad_fn), v.grad_fn.name())
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 3
    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        return g * 3
o = F.apply(x)
print(type(o.grad_fn), type(o.grad_fn).__name__, type(o.grad_fn).__module__, type(o.grad_fn).__qualname__)
gx, = torch.autograd.grad(o, x, torch.ones(2, requires_grad=True), create_graph=True)
print(type(gx.grad_fn).__name__, gx.grad_fn.name())
with fwAD.dual_level():
    d = fwAD.make_dual(x * 1, torch.ones(2))
    p = fwAD.unpack_dual(d).primal
    print(type(p.grad_fn).__name__, p.grad_fn.name(), p.grad_fn)
'''

PROGRAMS['requires_grad_factories'] = r'''
import torch
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
E(lambda: torch.zeros(2, dtype=torch.long, requires_grad=True))
E(lambda: torch.full((2,), 1, requires_grad=True))
E(lambda: torch.full((2,), 1.5, requires_grad=True))
E(lambda: torch.arange(3., requires_grad=True))
E(lambda: torch.linspace(0, 1, 3, requires_grad=True))
E(lambda: torch.empty(0, requires_grad=True))
E(lambda: torch.eye(2, requires_grad=True))
E(lambda: torch.ones_like(torch.tensor([1, 2]), requires_grad=True))
E(lambda: torch.zeros_like(torch.tensor([1., 2.]), requires_grad=True))
E(lambda: torch.tensor(3, requires_grad=True))
E(lambda: torch.tensor(3., requires_grad=True))
E(lambda: torch.tensor([1., 2.], dtype=torch.int32, requires_grad=True))
E(lambda: torch.tensor([[1, 2]], dtype=torch.float16, requires_grad=True))
E(lambda: torch.as_tensor([1., 2.]).requires_grad_())
E(lambda: torch.nn.Parameter(torch.tensor([1, 2])))
E(lambda: torch.nn.Parameter(torch.tensor([1., 2.]).long(), requires_grad=False))
E(lambda: torch.randn(2, dtype=torch.long))
E(lambda: torch.tensor([1.5]).new_tensor([2], requires_grad=True))
E(lambda: torch.tensor([1.5]).new_ones(2, requires_grad=True))
E(lambda: torch.tensor([1]).new_zeros(2, requires_grad=True))
E(lambda: torch.complex64)
E(lambda: torch.ones(2, dtype=torch.complex64, requires_grad=True).abs().sum())
'''

PROGRAMS['multithreading_flag_preserve_version'] = r'''
import torch
print(torch.autograd.is_multithreading_enabled())
with torch.autograd.set_multithreading_enabled(False):
    print(torch.autograd.is_multithreading_enabled())
    x = torch.tensor([1., 2.], requires_grad=True)
    (x * x).sum().backward()
    print(x.grad)
print(torch.autograd.is_multithreading_enabled())
torch.autograd.set_multithreading_enabled(False)
print(torch.autograd.is_multithreading_enabled())
torch.autograd.set_multithreading_enabled(True)
@torch.autograd.set_multithreading_enabled(False)
def f():
    return torch.autograd.is_multithreading_enabled()
print(f(), torch.autograd.is_multithreading_enabled())
a = torch.tensor([1., 2.], requires_grad=True)
b = a * 1
c = b ** 2
print(b._version)
with torch.autograd.grad_mode._unsafe_preserve_version_counter(b):
    b.data.mul_(1)
    b.add_(0)
    print(b._version)
print(b._version)
c.sum().backward()
print(a.grad)
'''

PROGRAMS['saved_hooks_save_to_buffer_docs'] = r'''
import io
import torch
store = {}
def pack_to_buffer(t):
    buf = io.BytesIO()
    torch.save(t, buf)
    key = len(store)
    store[key] = buf
    print('packed', key, t.shape, t.dtype)
    return key
def unpack_from_buffer(key):
    buf = store[key]
    buf.seek(0)
    t = torch.load(buf)
    print('unpacked', key, t)
    return t
x = torch.tensor([1., 2., 3.], requires_grad=True)
w = torch.tensor([[0.5], [1.0], [-1.0]], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_to_buffer, unpack_from_buffer):
    y = (x.unsqueeze(0) @ w).tanh()
y.sum().backward()
print(x.grad, w.grad)
class SelfDeletingTempFile:
    count = 0
    def __init__(self):
        SelfDeletingTempFile.count += 1
        self.name = SelfDeletingTempFile.count
def pack_hook(tensor):
    temp = SelfDeletingTempFile()
    store[('tmp', temp.name)] = tensor.clone()
    return temp
def unpack_hook(temp):
    return store[('tmp', temp.name)]
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    z = x.pow(2).sum()
x.grad = None
z.backward()
print(x.grad, SelfDeletingTempFile.count)
'''

PROGRAMS['functional_create_graph_prints'] = r'''
import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp
x = torch.tensor([1., 2.], requires_grad=True)
f = lambda t: t.exp() * t
s = lambda t: (t ** 3).sum()
print(jacobian(f, x, create_graph=True))
print(jacobian(f, x))
print(jacobian(f, x, vectorize=True, create_graph=True))
print(hessian(s, x, create_graph=True))
print(hessian(s, x))
print(vjp(f, x, torch.ones(2), create_graph=True))
print(jvp(f, x, torch.ones(2), create_graph=True))
print(hvp(s, x, torch.ones(2), create_graph=True))
print(vhp(s, x, torch.ones(2), create_graph=True))
print(vjp(f, x, torch.ones(2)))
print(jvp(f, x, torch.ones(2)))
print(hvp(s, x, torch.ones(2)))
print(jacobian(lambda a, b: (a * b, a + b), (x, x * 2), create_graph=True))
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
