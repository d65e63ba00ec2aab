"""Parity programs from a twenty-first hunt: programs a student writes around autograd's less travelled corners.

torch.utils.checkpoint (use_reentrant True/False, checkpoint_sequential, hooks and no_grad inside, recomputation that
differs, saved-tensor hooks around it), register_multi_grad_hook in modes "all" and "any", Node.register_prehook and
register_hook on AccumulateGrad, retain_grad on views and after in-place ops, torch.autograd.graph.increment_version,
GradientEdge with torch.autograd.grad, allow_mutation_on_saved_tensors, nn.Module full backward hooks, backward
pre-hooks and forward pre-hooks, torch.autograd.functional (jacobian/hessian with vectorize, strategy, create_graph
and strict; vjp/jvp/hvp/vhp outputs' requires_grad), complex autograd (Wirtinger gradients of abs, angle, real, imag,
conj, sgn), integer and bool tensors mixed into graphs, and detach versus .data in training loops.
Each program must print exactly what PyTorch prints (hunt14's harness: ``parity.run_both`` with hunt13's
``E``/``W`` helpers, every warning also printed on stdout).
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE

PROGRAMS: dict[str, str] = {}

PROGRAMS['ckpt_reentrant_false_hooks'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
w = torch.tensor([1.5, 2.0, -0.5], requires_grad=True)
def f(a, b):
    h = a * b
    h.register_hook(lambda g: print('inner hook', g))
    return h.sin().sum()
y = checkpoint(f, x, w, use_reentrant=False)
print(y, y.grad_fn)
y.backward()
print(x.grad, w.grad)
'''

PROGRAMS['ckpt_reentrant_true_grad'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
def f(a):
    return (a.exp() * 2).tanh()
y = checkpoint(f, x, use_reentrant=True)
print(y.grad_fn.name(), y.requires_grad)
y.sum().backward()
print(x.grad)
z = checkpoint(f, x.detach(), use_reentrant=False)
print(z.requires_grad, z.grad_fn)
'''

PROGRAMS['ckpt_no_grad_inside'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
def f(a):
    with torch.no_grad():
        s = a.sum()
    return a * s
y = checkpoint(f, x, use_reentrant=False)
y.sum().backward()
print(y, x.grad)
x.grad = None
y2 = f(x)
y2.sum().backward()
print(x.grad)
'''

PROGRAMS['multi_grad_hook_all'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
c = torch.tensor([5., 6.], requires_grad=True)
def hook(grads):
    print('all', [None if g is None else g.tolist() for g in grads])
h = torch.autograd.graph.register_multi_grad_hook((a, b, c), hook)
(a * b).sum().backward()
(a * b * c).sum().backward()
h.remove()
(a * c).sum().backward()
print(a.grad, b.grad, c.grad)
'''

PROGRAMS['multi_grad_hook_any'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
seen = []
def hook(g):
    seen.append(g.tolist())
h = torch.autograd.graph.register_multi_grad_hook((a, b), hook, mode="any")
(a * b).sum().backward()
print(seen)
(a * 3).sum().backward()
print(seen)
E(lambda: torch.autograd.graph.register_multi_grad_hook((a, b), hook, mode="some"))
'''

PROGRAMS['prehook_on_accumulate_grad'] = PRE + r'''
w = torch.tensor([1., 2., 3.], requires_grad=True)
y = w * w
acc = y.grad_fn.next_functions[0][0]
print(acc, acc.variable is w)
def pre(grad_outputs):
    print('pre', grad_outputs)
    return (grad_outputs[0] * 10,)
hd = acc.register_prehook(pre)
y.sum().backward()
print(w.grad)
hd.remove()
(w * w).sum().backward()
print(w.grad)
'''

PROGRAMS['retain_grad_view_then_inplace'] = PRE + r'''
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
y = x * 1
v = y[1:3]
v.retain_grad()
v.mul_(2)
print(v.grad_fn, y.grad_fn, y._version)
y.sum().backward()
print(v.grad, x.grad)
z = x.clone()
z.retain_grad()
z.add_(1)
(z * z).sum().backward()
print(z.grad)
'''

PROGRAMS['increment_version_saved'] = PRE + r'''
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a * 1
c = b.exp()
print(b._version)
torch.autograd.graph.increment_version(b)
print(b._version)
E(lambda: c.sum().backward())
d = a.sin()
torch.autograd.graph.increment_version(d)
d.sum().backward()
print(a.grad)
'''

PROGRAMS['gradient_edge_grad'] = PRE + r'''
from torch.autograd.graph import get_gradient_edge
x = torch.tensor([1., 2., 3.], requires_grad=True)
h = x.exp()
out = (h * 2).sum()
edge = get_gradient_edge(h)
print(edge.node, edge.output_nr)
g, = torch.autograd.grad(out, edge, retain_graph=True)
print(g)
gx, gh = torch.autograd.grad(out, (x, edge))
print(gx, gh)
'''

PROGRAMS['allow_mutation_on_saved'] = PRE + r'''
import torch.autograd.graph as G
with G.allow_mutation_on_saved_tensors():
    a = torch.tensor([1., 2., 3.], requires_grad=True)
    b = a.clone()
    out = (b ** 2).sum()
    b.sin_()
    out.backward()
    print(a.grad, b)
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a.clone()
out = (b ** 2).sum()
b.sin_()
E(lambda: out.backward())
'''

PROGRAMS['module_full_backward_hook'] = PRE + r'''
torch.manual_seed(0)
lin = torch.nn.Linear(3, 2)
def bh(mod, gin, gout):
    print(type(mod).__name__, [None if g is None else g.shape for g in gin], [g.shape for g in gout])
    print('gout', gout[0])
lin.register_full_backward_hook(bh)
x = torch.ones(4, 3, requires_grad=True)
lin(x).sum().backward()
print(x.grad.sum())
x2 = torch.ones(4, 3)
lin(x2).pow(2).sum().backward()
'''

PROGRAMS['module_forward_pre_hook_grads'] = PRE + r'''
torch.manual_seed(0)
m = torch.nn.Linear(2, 1)
def pre(mod, args):
    print('pre', args[0].requires_grad)
    return (args[0] * 2,)
def pre_kw(mod, args, kwargs):
    print('pre_kw', len(args), kwargs)
    return None
h1 = m.register_forward_pre_hook(pre)
h2 = m.register_forward_pre_hook(pre_kw, with_kwargs=True)
x = torch.tensor([[1., 2.]], requires_grad=True)
y = m(x)
y.backward()
print(x.grad, m.weight.grad)
h1.remove()
print(m(x).grad_fn)
'''

PROGRAMS['jacobian_vectorize_strategy'] = PRE + r'''
from torch.autograd.functional import jacobian
def f(x):
    return x.pow(3) * x.sum()
x = torch.tensor([1., 2., 3.], dtype=torch.float64)
J1 = jacobian(f, x)
J2 = jacobian(f, x, vectorize=True)
J3 = jacobian(f, x, vectorize=True, strategy="forward-mode")
print(J1, torch.equal(J1, J2), torch.allclose(J1, J3))
E(lambda: jacobian(f, x, strategy="forward-mode"))
J4 = jacobian(f, x, create_graph=True)
print(J4.requires_grad, J4.grad_fn is None)
'''

PROGRAMS['hessian_create_graph'] = PRE + r'''
from torch.autograd.functional import hessian
def f(x, y):
    return (x * x * y).sum() + y.pow(3).sum()
x = torch.tensor([1., 2.])
y = torch.tensor([3., -1.])
H = hessian(f, (x, y))
print(H)
H2 = hessian(lambda t: t.pow(4).sum(), x, create_graph=True)
print(H2, H2.requires_grad)
H3 = hessian(lambda t: t.pow(4).sum(), x, vectorize=True, outer_jacobian_strategy="forward-mode")
print(H3)
'''

PROGRAMS['vjp_jvp_requires_grad'] = PRE + r'''
from torch.autograd.functional import vjp, jvp, hvp, vhp
def f(x):
    return x.sin() * 2
x = torch.tensor([0.5, 1.0])
v = torch.tensor([1.0, -1.0])
o, g = vjp(f, x, v)
print(o, g, o.requires_grad, g.requires_grad)
o, g = jvp(f, x, v, create_graph=True)
print(o.requires_grad, g.requires_grad, g)
o, g = hvp(lambda t: t.pow(3).sum(), x, v)
print(o, g)
o, g = vhp(lambda t: t.pow(3).sum(), x, v, create_graph=True)
print(o, g, g.requires_grad)
'''

PROGRAMS['complex_abs_angle_grad'] = PRE + r'''
z = torch.tensor([1+2j, -3+0.5j], requires_grad=True)
y = (z * z).abs().sum()
y.backward()
print(z.grad)
z.grad = None
torch.angle(z).sum().backward()
print(z.grad)
z.grad = None
(z.real * 2 + z.imag * 3).sum().backward()
print(z.grad)
z.grad = None
(z.conj() * z).real.sum().backward()
print(z.grad)
'''

PROGRAMS['complex_grad_fn_names'] = PRE + r'''
z = torch.tensor([1+1j, 2-1j], dtype=torch.complex128, requires_grad=True)
w = z.exp()
print(w.abs().grad_fn, w.real.grad_fn, w.imag.grad_fn, w.conj().grad_fn, torch.angle(w).grad_fn)
r = w.real
print(r.dtype, r.is_leaf)
E(lambda: w.sum().backward())
(w.abs() ** 2).sum().backward()
print(z.grad)
'''

PROGRAMS['int_bool_in_graph'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
mask = x > 1.5
print(mask.dtype, mask.requires_grad, mask.grad_fn)
y = x * mask
idx = torch.tensor([2, 0])
z = y[idx] + torch.arange(2)
print(y, z)
z.sum().backward()
print(x.grad)
n = torch.tensor([1, 2, 3])
E(lambda: n.requires_grad_())
print((x + n).dtype, (x * True).grad_fn)
cnt = (x > 0).sum()
print(cnt, cnt.dtype, cnt.requires_grad)
'''

PROGRAMS['detach_vs_data_training'] = PRE + r'''
w = torch.tensor([1.0, -2.0], requires_grad=True)
xs = torch.tensor([[1., 2.], [3., 4.], [0.5, -1.]])
ys = torch.tensor([1., 2., 0.])
for step in range(3):
    loss = ((xs @ w - ys) ** 2).mean()
    loss.backward()
    w.data -= 0.01 * w.grad
    w.grad.zero_()
    print(step, f"{loss.item():.6f}", w, w._version)
d = w.detach()
d.add_(1)
print(w, w._version, d._version)
y = w * 2
w.detach().mul_(1)
E(lambda: y.sum().backward())
'''

PROGRAMS['data_mutation_silent'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = a.sigmoid()
b.data.mul_(0)
print(b._version)
b.sum().backward()
print(a.grad)
c = a.sigmoid()
c.detach().zero_()
E(lambda: c.sum().backward())
'''

PROGRAMS['ckpt_twice_backward'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
x = torch.tensor([0.1, 0.2], requires_grad=True)
lin_w = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = checkpoint(lambda a: (lin_w @ a).relu(), x, use_reentrant=False)
y.sum().backward(retain_graph=True)
print(x.grad, lin_w.grad)
y.sum().backward()
print(x.grad, lin_w.grad)
'''

PROGRAMS['multi_grad_hook_partial_graph'] = PRE + r'''
a = torch.tensor(2., requires_grad=True)
b = torch.tensor(3., requires_grad=True)
out = []
torch.autograd.graph.register_multi_grad_hook([a, b], lambda gs: out.append([g is None for g in gs]))
E(lambda: torch.autograd.grad(a * b, a))
print(out)
(a * b).backward()
print(out, a.grad, b.grad)
'''

PROGRAMS['node_hook_and_prehook_order'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
z = y.sum()
y.grad_fn.register_prehook(lambda go: print('pre', go))
y.grad_fn.register_hook(lambda gi, go: print('post', gi, go))
y.register_hook(lambda g: print('tensor hook', g))
z.backward()
print(x.grad)
'''

PROGRAMS['retain_grad_view_of_leaf'] = PRE + r'''
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
v = x[0]
v.retain_grad()
t = x.t()
t.retain_grad()
(v.sum() * 2 + (t * t).sum()).backward()
print(v.grad, t.grad, x.grad)
print(v.retains_grad, x.retains_grad, v.is_leaf)
'''

PROGRAMS['complex_wirtinger_fn'] = PRE + r'''
z = torch.tensor([0.5+0.5j, -1+2j], requires_grad=True)
f = (z.sin() * z.conj()).imag.sum()
f.backward()
print(z.grad)
z.grad = None
g = torch.view_as_real(z * 2j).pow(2).sum()
g.backward()
print(z.grad)
gz, = torch.autograd.grad((z.abs() ** 2).sum(), z)
print(gz)
'''

PROGRAMS['functional_jacobian_tuple_outputs'] = PRE + r'''
from torch.autograd.functional import jacobian
def f(a, b):
    return a * b, (a + b).sum()
a = torch.tensor([1., 2.])
b = torch.tensor([3., 4.])
J = jacobian(f, (a, b))
print(len(J), len(J[0]), J[0][0], J[1][1])
J = jacobian(lambda a: a.int().float() * a, a)
print(J)
'''

PROGRAMS['ckpt_module_seq'] = PRE + r'''
from torch.utils.checkpoint import checkpoint_sequential
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.Tanh(), torch.nn.Linear(3, 1))
x = torch.randn(2, 3, requires_grad=True)
y = checkpoint_sequential(model, 2, x, use_reentrant=False)
y.sum().backward()
print(y.shape, x.grad.shape, model[0].weight.grad.shape, model[2].bias.grad)
'''

PROGRAMS['integer_index_and_gather_grads'] = PRE + r'''
x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
i = torch.tensor([[0, 0], [2, 1]])
g = x.gather(1, i)
print(g, g.grad_fn)
(g * torch.tensor([[1, 2], [3, 4]])).sum().backward()
print(x.grad)
E(lambda: torch.autograd.grad(g.sum(), i))
'''

PROGRAMS['ckpt_reentrant_errors'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
x = torch.tensor([1., 2.], requires_grad=True)
def f(a):
    return a * 3
y = checkpoint(f, x, use_reentrant=True)
E(lambda: torch.autograd.grad(y.sum(), x))
E(lambda: checkpoint(f, x))
E(lambda: checkpoint(f, x, use_reentrant=False, bogus=1))
y2 = checkpoint(f, x, use_reentrant=True, preserve_rng_state=False)
print(y2.grad_fn.next_functions)
'''

PROGRAMS['multi_grad_hook_any_grad_call'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
h = torch.autograd.graph.register_multi_grad_hook((a, b), lambda g: print('any', g), mode="any")
ga, = torch.autograd.grad((a * b).sum(), a)
print(ga)
print(type(h).__name__)
h.remove()
h.remove()
'''

PROGRAMS['accumulate_grad_prehook_and_post_hook'] = PRE + r'''
w = torch.tensor([1., 2.], requires_grad=True)
y = (w * 3).sum()
acc = y.grad_fn.next_functions[0][0].next_functions[0][0]
print(acc.name(), acc.next_functions, acc.metadata)
acc.register_prehook(lambda go: print('pre', go))
acc.register_hook(lambda gi, go: print('post', gi, go))
w.register_post_accumulate_grad_hook(lambda p: print('post acc', p.grad))
y.backward()
print(w.grad)
'''

PROGRAMS['increment_version_inference_and_tuple'] = PRE + r'''
a = torch.ones(2)
b = torch.ones(3)
torch.autograd.graph.increment_version((a, b))
print(a._version, b._version)
torch.autograd.graph.increment_version([a])
print(a._version)
with torch.inference_mode():
    c = torch.ones(2)
torch.autograd.graph.increment_version(c)
print(c.is_inference())
'''

PROGRAMS['complex_hooks_and_grad_dtype'] = PRE + r'''
z = torch.tensor([1+1j, 2+0j], requires_grad=True)
z.register_hook(lambda g: print('hook', g, g.dtype))
x = torch.tensor([1., 2.], requires_grad=True)
w = z * x
loss = w.abs().sum()
loss.backward()
print(x.grad, x.grad.dtype, z.grad)
r = torch.tensor([3., 4.], requires_grad=True)
c = torch.complex(r, r * 2)
c.abs().sum().backward()
print(r.grad, c.grad_fn)
'''

PROGRAMS['nn_module_backward_pre_hook'] = PRE + r'''
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU())
def bpre(mod, gout):
    print('bpre', type(mod).__name__, gout)
    return (gout[0] * 0.5,)
m[1].register_full_backward_pre_hook(bpre)
m[0].register_full_backward_hook(lambda mod, gi, go: print('full', gi[0], go[0]))
x = torch.tensor([[1., -1.]], requires_grad=True)
m(x).sum().backward()
print(x.grad, m[0].bias.grad)
'''

PROGRAMS['gradient_edge_errors'] = PRE + r'''
from torch.autograd.graph import get_gradient_edge
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: get_gradient_edge(torch.ones(2)))
e = get_gradient_edge(x)
print(e.node.name(), e.output_nr)
y = (x * 2).sum()
g, = torch.autograd.grad(y, e)
print(g)
a, b = x.unbind()
print(get_gradient_edge(b).output_nr, get_gradient_edge(b).node)
'''

PROGRAMS['allow_mutation_errors_and_views'] = PRE + r'''
import torch.autograd.graph as G
with G.allow_mutation_on_saved_tensors() as ctx:
    a = torch.tensor([1., 2., 3.], requires_grad=True)
    b = a * 1
    v = b[:2]
    out = (b.exp()).sum()
    v.mul_(3)
    out.backward()
    print(a.grad, b, type(ctx).__name__)
E(lambda: G.allow_mutation_on_saved_tensors().__enter__() and G.allow_mutation_on_saved_tensors().__enter__())
'''

PROGRAMS['hvp_vhp_tuple_inputs'] = PRE + r'''
from torch.autograd.functional import hvp, vhp, jvp
def f(x, y):
    return (x.pow(2) * y).sum()
x = torch.tensor([1., 2.], dtype=torch.float64)
y = torch.tensor([3., 4.], dtype=torch.float64)
v = (torch.ones(2, dtype=torch.float64), torch.zeros(2, dtype=torch.float64))
o, h = hvp(f, (x, y), v)
print(o, h)
o, h = vhp(f, (x, y), v)
print(h)
E(lambda: hvp(lambda t: t * 2, x, x))
E(lambda: jvp(lambda t: t * 2, x, torch.ones(3, dtype=torch.float64)))
E(lambda: jvp(lambda t: t * 2, x, strict=True))
'''

PROGRAMS['jacobian_strict_independent'] = PRE + r'''
from torch.autograd.functional import jacobian, hessian
x = torch.tensor([1., 2.])
print(jacobian(lambda t: torch.ones(3), x))
E(lambda: jacobian(lambda t: torch.ones(3), x, strict=True))
E(lambda: jacobian(lambda t: t, x, strict=True, vectorize=True))
print(hessian(lambda t: t.sum(), x))
E(lambda: hessian(lambda t: t * 2, x))
'''

PROGRAMS['complex_angle_zero_and_sgn'] = PRE + r'''
z = torch.tensor([0j, 1+0j, -2+0j, 1j], requires_grad=True)
torch.angle(z).sum().backward()
print(z.grad)
z.grad = None
z.abs().sum().backward()
print(z.grad)
z.grad = None
torch.sgn(z).real.sum().backward()
print(z.grad)
x = torch.tensor([-1., 0., 2.], requires_grad=True)
torch.angle(x).sum().backward()
print(x.grad, torch.angle(x))
'''

PROGRAMS['bool_float_mix_where_grad'] = PRE + r'''
x = torch.tensor([-1., 0.5, 2.], requires_grad=True)
m = (x > 0)
y = torch.where(m, x * 2, torch.zeros(()))
z = y + m
print(z, z.grad_fn, (m.float() * x).grad_fn)
z.sum().backward()
print(x.grad)
E(lambda: torch.autograd.grad(m.sum(), x))
print(x.long().requires_grad, x.round().requires_grad, x.argmax().requires_grad)
'''

PROGRAMS['ckpt_nondeterministic_recompute'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
x = torch.tensor([1., 2.], requires_grad=True)
calls = [0]
def f(a):
    calls[0] += 1
    return a * 2 if calls[0] == 1 else (a * 2).view(1, 2)
y = checkpoint(f, x, use_reentrant=False)
E(lambda: y.sum().backward())
print(calls)
'''

PROGRAMS['ckpt_saved_tensor_hooks_inside'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
x = torch.tensor([1., 2.], requires_grad=True)
def pack(t):
    print('pack', tuple(t.shape))
    return t
def f(a):
    return a.sin().exp()
with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
    y = checkpoint(f, x, use_reentrant=False)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['retain_grad_base_inplace_through_view'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
b = x.clone()
b.retain_grad()
v = b[1:]
v.retain_grad()
b.mul_(2)
print(v.grad_fn, v._version, b._version)
(v * v).sum().backward()
print(b.grad, v.grad, x.grad)
'''

PROGRAMS['detach_shares_version_and_requires_grad'] = PRE + r'''
w = torch.tensor([1., 2.], requires_grad=True)
d = w.detach()
d2 = w.data
print(d.requires_grad, d2.requires_grad, d.is_leaf, d2._version)
d2.add_(1)
print(w._version, d._version, d2._version, w)
y = w.pow(2)
d.add_(1)
E(lambda: y.sum().backward())
y = w.pow(2)
d2.add_(1)
y.sum().backward()
print(w.grad)
'''

PROGRAMS['full_backward_hook_inplace_relu'] = PRE + r'''
m = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU(inplace=True))
torch.manual_seed(0)
m[1].register_full_backward_hook(lambda mod, gi, go: print('hook', gi, go))
x = torch.tensor([[1., -1.]], requires_grad=True)
E(lambda: m(x))
r = torch.nn.ReLU()
r.register_full_backward_hook(lambda mod, gi, go: None)
y = r(x)
E(lambda: y.add_(1))
print(y.grad_fn)
'''

PROGRAMS['full_backward_hook_multi_inputs'] = PRE + r'''
class Mul(torch.nn.Module):
    def forward(self, a, b, scale):
        return a * b * scale, a - b
m = Mul()
m.register_full_backward_hook(lambda mod, gi, go: print([None if g is None else g.tolist() for g in gi], [None if g is None else g.tolist() for g in go]))
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.])
p, q = m(a, b, 2.0)
print(p.grad_fn, q.grad_fn)
(p.sum() + q.sum()).backward()
print(a.grad)
p, q = m(a, b, 2.0)
p.sum().backward()
'''

PROGRAMS['ckpt_kwargs_and_debug_flags'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
x = torch.tensor([1., 2.], requires_grad=True)
def f(a, k=1.0):
    return (a * k).cos()
y = checkpoint(f, x, k=3.0, use_reentrant=False, determinism_check="none")
y.sum().backward()
print(x.grad)
E(lambda: checkpoint(f, x, use_reentrant=True, k=3.0))
E(lambda: checkpoint(f, x, use_reentrant=False, determinism_check="bad"))
'''

PROGRAMS['ckpt_non_tensor_outputs'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
x = torch.tensor([1., 2.], requires_grad=True)
def f(a):
    return a.exp(), 3, None, a.detach()
out = checkpoint(f, x, use_reentrant=False)
print([type(o).__name__ for o in out], out[0].grad_fn, out[3].requires_grad)
out[0].sum().backward()
print(x.grad)
out2 = checkpoint(f, x, use_reentrant=True)
print(out2[1], out2[2], out2[3].requires_grad, out2[0].grad_fn.name())
out2[0].sum().backward()
print(x.grad)
'''

PROGRAMS['jacobian_vectorize_tuple_outputs'] = PRE + r'''
from torch.autograd.functional import jacobian
def f(a, b):
    return a * b, (a + b).sum()
a = torch.tensor([1., 2.])
b = torch.tensor([3., 4.])
J = jacobian(f, (a, b), vectorize=True)
print(J)
J = jacobian(f, (a, b), vectorize=True, strategy="forward-mode")
print(J[1])
J = jacobian(lambda t: t.sum(), torch.tensor(2.))
print(J, J.shape)
'''

PROGRAMS['complex_abs_zero_and_pow'] = PRE + r'''
z = torch.tensor([0j, 3+4j], requires_grad=True)
z.abs().sum().backward()
print(z.grad)
z.grad = None
(z.abs() ** 2).sum().backward()
print(z.grad)
z.grad = None
(z * z.conj()).real.sqrt().sum().backward()
print(z.grad)
z.grad = None
torch.view_as_real(z).sum().backward()
print(z.grad)
'''

PROGRAMS['complex_real_input_complex_grad'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
z = x * (1 + 2j)
print(z.dtype, z.grad_fn)
z.abs().sum().backward()
print(x.grad)
x.grad = None
z = torch.polar(x, torch.tensor([0.5, 1.0]))
z.real.sum().backward()
print(x.grad, z.grad_fn)
E(lambda: z.sum().backward())
'''

PROGRAMS['int_tensor_ops_in_graph'] = PRE + r'''
x = torch.tensor([1.5, 2.5, -0.5], requires_grad=True)
k = torch.tensor([2, 3, 4])
y = x ** k
print(y, y.grad_fn)
y.sum().backward()
print(x.grad)
x.grad = None
z = (x * k).floor() + x
z.sum().backward()
print(x.grad)
x.grad = None
s = torch.tensor([1, 0, 1], dtype=torch.bool)
(x[s] * 2).sum().backward()
print(x.grad)
print((k / 2).dtype, (k // 2).dtype, (x // 1).grad_fn)
'''

PROGRAMS['multi_grad_hook_retain_and_tensor_hooks'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
y = a * 2
y.retain_grad()
z = y.exp()
order = []
y.register_hook(lambda g: order.append('y hook'))
torch.autograd.graph.register_multi_grad_hook((y, z), lambda gs: order.append(('multi', [g.tolist() for g in gs])))
(z.sum() + y.sum()).backward()
print(order, y.grad)
'''

PROGRAMS['multi_grad_hook_all_with_none'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
def hook(grads):
    print([None if g is None else g.tolist() for g in grads])
    return None
torch.autograd.graph.register_multi_grad_hook((a, b), hook)
(a.sum() * 2).backward()
E(lambda: torch.autograd.grad((a * b).sum(), (a, b)))
c = torch.tensor(1.)
E(lambda: torch.autograd.graph.register_multi_grad_hook((a, c), hook))
'''

PROGRAMS['post_accumulate_grad_sgd_step'] = PRE + r'''
params = [torch.tensor([1., 2.], requires_grad=True), torch.tensor([3.], requires_grad=True)]
def step(p):
    with torch.no_grad():
        p.sub_(0.1 * p.grad)
    p.grad = None
for p in params:
    p.register_post_accumulate_grad_hook(step)
for i in range(2):
    loss = (params[0] ** 2).sum() + params[1].exp().sum()
    loss.backward()
    print(i, params[0], params[1], params[0].grad)
y = params[0] * 2
E(lambda: y.register_post_accumulate_grad_hook(step))
'''

PROGRAMS['checkpoint_in_training_loop'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
torch.manual_seed(0)
lin1 = torch.nn.Linear(3, 4)
lin2 = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(list(lin1.parameters()) + list(lin2.parameters()), lr=0.1)
x = torch.randn(5, 3)
t = torch.randn(5, 1)
for i in range(3):
    h = checkpoint(lambda v: lin1(v).tanh(), x, use_reentrant=False)
    loss = ((lin2(h) - t) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(i, f"{loss.item():.6f}", lin1.bias.grad.shape)
'''

PROGRAMS['allow_mutation_backward_outside'] = PRE + r'''
import torch.autograd.graph as G
with G.allow_mutation_on_saved_tensors():
    a = torch.tensor([1., 2.], requires_grad=True)
    b = a.clone()
    out = (b * b).sum()
    b.add_(1)
E(lambda: out.backward())
with G.allow_mutation_on_saved_tensors():
    E(lambda: G.allow_mutation_on_saved_tensors().__enter__())
'''

PROGRAMS['ckpt_early_stop_and_grad_mode'] = PRE + r'''
from torch.utils.checkpoint import checkpoint, set_checkpoint_early_stop
x = torch.tensor([1., 2.], requires_grad=True)
def f(a):
    b = a.sin()
    c = b.cos()
    return c * b
with set_checkpoint_early_stop(False):
    y = checkpoint(f, x, use_reentrant=False)
y.sum().backward()
print(x.grad)
with torch.no_grad():
    y = checkpoint(f, x, use_reentrant=False)
print(y.requires_grad, y)
with torch.no_grad():
    y = checkpoint(f, x, use_reentrant=True)
print(y.requires_grad)
'''

PROGRAMS['node_prehook_modifies_grad'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.pow(2)
z = y.mul(3)
z.grad_fn.register_prehook(lambda go: (go[0] * 0 + 1,))
y.grad_fn.register_hook(lambda gi, go: (gi[0] * 2,))
z.backward(torch.full((3,), 5.))
print(x.grad)
E(lambda: z.grad_fn.register_prehook(lambda go: (1, 2)) and None)
z2 = x.exp()
z2.grad_fn.register_prehook(lambda go: (go[0], go[0]))
E(lambda: z2.sum().backward())
'''

PROGRAMS['jvp_vjp_create_graph_double'] = PRE + r'''
from torch.autograd.functional import vjp, jvp
x = torch.tensor([0.3, 0.7], requires_grad=True)
def f(t):
    return t.exp() * t
o, g = vjp(f, x, torch.ones(2), create_graph=True)
print(g.requires_grad, g.grad_fn is not None)
g.sum().backward()
print(x.grad)
o, g = jvp(f, x, torch.ones(2))
print(o.requires_grad, g.requires_grad, o.grad_fn)
o, g = vjp(lambda t: t.sum(), x)
print(o, g)
'''


PROGRAMS['hessian_vectorize_create_graph_tuple'] = PRE + r'''
from torch.autograd.functional import hessian
def f(x, y):
    return (x.exp() * y).sum()
x = torch.tensor([0.1, 0.2], dtype=torch.float64, requires_grad=True)
y = torch.tensor([1.0, 2.0], dtype=torch.float64)
H = hessian(f, (x, y), create_graph=True, vectorize=True)
print(H[0][0], H[0][1].requires_grad, H[1][1])
H[0][0].sum().backward()
print(x.grad)
'''

PROGRAMS['complex_grad_of_real_fn_printing'] = PRE + r'''
z = torch.tensor([1+2j, 3-1j, -0.5+0.25j], dtype=torch.complex64, requires_grad=True)
f = (z.abs() * torch.angle(z)).sum() + z.real.pow(2).sum() - z.imag.exp().sum()
f.backward()
print(z.grad)
print(f.grad_fn, f.grad_fn.next_functions[0][0])
w = torch.tensor([1+1j], requires_grad=True)
g, = torch.autograd.grad(w.conj().imag.sum(), w, create_graph=True)
print(g, g.requires_grad)
'''

PROGRAMS['grad_edge_intermediate_two'] = PRE + r'''
from torch.autograd.graph import get_gradient_edge
x = torch.tensor([1., 2.], requires_grad=True)
a, b = (x * 3).split(1)
e = get_gradient_edge(b)
out = (a * b).sum() + b.sum()
g = torch.autograd.grad(out, [e, x], retain_graph=True)
print(g)
g = torch.autograd.grad(out, e, grad_outputs=torch.tensor(2.))
print(g)
'''

PROGRAMS['retain_grad_unbind_inplace'] = PRE + r'''
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = x * 1
r0, r1 = y.unbind()
r0.retain_grad()
E(lambda: r0.mul_(2))
r = y.narrow(0, 1, 1)
r.retain_grad()
r.add_(1)
print(r.grad_fn, r.retains_grad)
y.sum().backward()
print(r.grad, x.grad, r0.grad)
'''

PROGRAMS['module_hooks_all_kinds'] = PRE + r'''
torch.manual_seed(0)
m = torch.nn.Linear(2, 2)
log = []
m.register_forward_pre_hook(lambda mod, a: log.append('fpre'))
m.register_forward_hook(lambda mod, a, o: log.append('fwd'))
m.register_full_backward_pre_hook(lambda mod, go: log.append('bpre'))
m.register_full_backward_hook(lambda mod, gi, go: log.append(('bwd', gi[0] is None)))
m.weight.register_hook(lambda g: log.append('w'))
y = m(torch.ones(1, 2))
y.sum().backward()
print(log)
print(m._backward_hooks.keys().__len__(), len(m._forward_pre_hooks))
'''

PROGRAMS['ckpt_rng_dropout'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
torch.manual_seed(0)
x = torch.ones(6, requires_grad=True)
def f(a):
    return torch.nn.functional.dropout(a, 0.5, training=True) * 2
y = checkpoint(f, x, use_reentrant=False)
y.sum().backward()
print(y, x.grad)
'''

PROGRAMS['ckpt_reentrant_inputs_no_grad'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
w = torch.tensor([2.], requires_grad=True)
x = torch.tensor([1., 3.])
y = checkpoint(lambda a: a * w, x, use_reentrant=True)
print(y.requires_grad)
y = checkpoint(lambda a: a * w, x, use_reentrant=False)
print(y.requires_grad, y.grad_fn)
y.sum().backward()
print(w.grad)
'''

PROGRAMS['increment_version_custom_fn'] = PRE + r'''
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 2
x = torch.tensor([1., 2.], requires_grad=True)
h = x * 1
y = Scale.apply(h)
with torch.no_grad():
    h.data.add_(0)
torch.autograd.graph.increment_version(h)
E(lambda: y.sum().backward())
print(h._version)
'''

PROGRAMS['detach_inplace_errors'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.view(2)
d = y.detach()
print(d._base is None, d.is_leaf, y._base is x)
E(lambda: x.add_(1))
with torch.no_grad():
    x.add_(1)
print(x, x._version, y._version, d._version)
z = x.detach().requires_grad_()
(z * 2).sum().backward()
print(z.grad, x.grad)
'''

PROGRAMS['int_sum_mean_errors'] = PRE + r'''
n = torch.tensor([1, 2, 3])
x = torch.tensor([1., 2., 3.], requires_grad=True)
E(lambda: n.mean())
print(n.sum().dtype, (n * x).sum())
E(lambda: torch.tensor([1, 2], requires_grad=True))
E(lambda: torch.zeros(2, dtype=torch.int64).requires_grad_(True))
b = torch.tensor([True, False])
print((b + x[:2]).grad_fn, (b & b).dtype, torch.tensor(True) * 2.5)
'''

PROGRAMS['complex32_64_mix'] = PRE + r'''
z = torch.tensor([1+1j, 2-2j], dtype=torch.complex64, requires_grad=True)
r = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
y = z * r
print(y.dtype, y.grad_fn)
y.abs().sum().backward()
print(z.grad, r.grad, r.grad.dtype)
'''

PROGRAMS['jacobian_errors_shapes'] = PRE + r'''
from torch.autograd.functional import jacobian
E(lambda: jacobian(lambda t: t, [1., 2.]))
E(lambda: jacobian(lambda t: 3.0, torch.ones(2)))
E(lambda: jacobian(lambda t: t, torch.ones(2), strategy="sideways"))
J = jacobian(lambda t: t.t() @ t, torch.tensor([[1., 2.], [3., 4.]]))
print(J.shape, J[0, 1])
'''

PROGRAMS['ckpt_grad_call_reentrant'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
x = torch.tensor([1., 2.], requires_grad=True)
y = checkpoint(lambda a: a.pow(3), x, use_reentrant=False)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.requires_grad)
g2, = torch.autograd.grad(g.sum(), x)
print(g2)
'''

PROGRAMS['hooks_on_view_retain'] = PRE + r'''
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
y = x.exp()
v = y.view(2, 2)
v.retain_grad()
v.register_hook(lambda g: g * 2)
t = v.t()
t.retain_grad()
(t * torch.tensor([[1., 2.], [3., 4.]])).sum().backward()
print(v.grad, t.grad, x.grad)
'''

PROGRAMS['grad_materialize_allow_unused'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
u = torch.tensor([3.], requires_grad=True)
y = (x * 2).sum()
print(torch.autograd.grad(y, (x, u), allow_unused=True, retain_graph=True))
print(torch.autograd.grad(y, (x, u), materialize_grads=True, retain_graph=True))
E(lambda: torch.autograd.grad(y, (x, u), allow_unused=False, materialize_grads=True))
E(lambda: torch.autograd.grad(y, (x, u)))
'''

PROGRAMS['is_grads_batched'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.sin() * 2
g, = torch.autograd.grad(y, x, torch.eye(3), is_grads_batched=True)
print(g)
E(lambda: torch.autograd.grad(y, x, torch.ones(2, 2), is_grads_batched=True))
'''

PROGRAMS['raw_saved_and_hooks'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
raw = y.grad_fn._raw_saved_result
print(type(raw).__name__)
raw.register_hooks(lambda t: t * 1, lambda t: t * 10)
y.sum().backward()
print(x.grad)
E(lambda: raw.register_hooks(lambda t: t, lambda t: t))
'''

PROGRAMS['functional_complex'] = PRE + r'''
from torch.autograd.functional import jacobian, vjp
z = torch.tensor([1+1j, 2j])
E(lambda: jacobian(lambda t: t * t, z))
o, g = vjp(lambda t: (t * t).abs(), z, torch.ones(2))
print(o, g)
'''

PROGRAMS['global_module_hooks'] = PRE + r'''
from torch.nn.modules.module import register_module_full_backward_hook, register_module_forward_pre_hook
torch.manual_seed(0)
seen = []
h1 = register_module_full_backward_hook(lambda m, gi, go: seen.append(type(m).__name__))
h2 = register_module_forward_pre_hook(lambda m, a: seen.append('pre ' + type(m).__name__))
net = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Tanh())
net(torch.ones(1, 2, requires_grad=True)).sum().backward()
h1.remove(); h2.remove()
print(seen)
net(torch.ones(1, 2)).sum().backward()
print(len(seen))
'''

PROGRAMS['backward_hook_tuple_output_nontensor'] = PRE + r'''
class Two(torch.nn.Module):
    def forward(self, x):
        return x * 2, 5
m = Two()
m.register_full_backward_hook(lambda mod, gi, go: print('hook', gi, go))
x = torch.tensor([1., 2.], requires_grad=True)
a, b = m(x)
print(b, a.grad_fn)
a.sum().backward()
print(x.grad)
'''

PROGRAMS['data_assign_and_detach_inplace'] = PRE + r'''
w = torch.tensor([1., 2.], requires_grad=True)
w.data = torch.tensor([5., 6., 7.])
print(w, w.shape, w.requires_grad, w._version)
E(lambda: setattr(w, 'data', [1., 2.]))
y = w * 2
E(lambda: y.requires_grad_(False))
y.detach_()
print(y.requires_grad, y.grad_fn, y.is_leaf)
v = (w * 1)[:2]
E(lambda: v.detach_())
E(lambda: setattr(w, 'data', torch.tensor([1, 2])))
print(w.dtype, w.requires_grad)
'''

PROGRAMS['leaf_inplace_under_no_grad_loop'] = PRE + r'''
w = torch.tensor([0.5], requires_grad=True)
for i in range(3):
    y = (w * 3 - 1) ** 2
    y.backward()
    with torch.no_grad():
        w -= 0.05 * w.grad
    print(i, w, w.grad, w.is_leaf, w.grad_fn)
    w.grad = None
E(lambda: w.sub_(1))
w2 = w - 0
print(w2.is_leaf)
'''

PROGRAMS['ckpt_batchnorm_stats'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
torch.manual_seed(0)
bn = torch.nn.BatchNorm1d(2)
x = torch.randn(4, 2, requires_grad=True)
y = checkpoint(bn, x, use_reentrant=False)
print(bn.num_batches_tracked, bn.running_mean)
y.pow(2).sum().backward()
print(bn.num_batches_tracked, bn.running_mean)
print(x.grad.abs().sum() < 1e-4)
'''

PROGRAMS['ckpt_context_fn'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
import contextlib
log = []
@contextlib.contextmanager
def tag(name):
    log.append('enter ' + name)
    yield
    log.append('exit ' + name)
x = torch.tensor([1., 2.], requires_grad=True)
y = checkpoint(lambda a: a.exp(), x, use_reentrant=False, context_fn=lambda: (tag('fwd'), tag('recomp')))
y.sum().backward()
print(log, x.grad)
E(lambda: checkpoint(lambda a: a, x, use_reentrant=True, context_fn=lambda: (tag('a'), tag('b'))))
'''

PROGRAMS['jacobian_unrelated_vectorize'] = PRE + r'''
from torch.autograd.functional import jacobian, hessian
x = torch.tensor([1., 2.])
print(jacobian(lambda t: torch.ones(2) * 3, x, vectorize=True))
print(hessian(lambda t: torch.tensor(1.), x))
print(jacobian(lambda t: (t.round() * t), x, vectorize=True))
'''

PROGRAMS['fwad_through_checkpoint'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
from torch.utils.checkpoint import checkpoint
x = torch.tensor([0.5, 1.0])
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.ones(2))
    y = checkpoint(lambda a: a.sin() * a, d, use_reentrant=False)
    print(fwAD.unpack_dual(y).tangent)
'''

PROGRAMS['complex_mul_grads_half_steps'] = PRE + r'''
z = torch.tensor([1+2j, 3+4j], requires_grad=True)
w = torch.tensor([0.5-1j, 2+0j], requires_grad=True)
loss = (z * w.conj()).abs().pow(2).sum() + (z / w).real.sum()
loss.backward()
print(z.grad, w.grad)
with torch.no_grad():
    z -= 0.1 * z.grad.conj()
print(z)
'''

PROGRAMS['multi_grad_hook_with_checkpoint'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
torch.autograd.graph.register_multi_grad_hook((a, b), lambda gs: print('multi', [g.tolist() for g in gs]))
y = checkpoint(lambda p, q: p * q, a, b, use_reentrant=False)
y.sum().backward()
y = checkpoint(lambda p, q: p * q, a, b, use_reentrant=True)
y.sum().backward()
print(a.grad, b.grad)
'''

@pytest.fixture(autouse=True, scope="module")
def _forward_ad_warmed_up():
    """PyTorch's first forward-AD op imports modules that warn (``torch.jit.script`` is deprecated) once per process:
    done here, silently, so that no program's output depends on whether it is the first to use forward AD."""
    torch = pytest.importorskip("torch")
    import torch.autograd.forward_ad as fwAD
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with fwAD.dual_level():
            fwAD.make_dual(torch.ones(1), torch.ones(1)).sin()


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    # (catch_warnings restores the filters and showwarning the prelude replaces; fresh_warn_once: the warnings
    # given once per process are given whatever ran before in this process)
    with warnings.catch_warnings(), fresh_warn_once():
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
