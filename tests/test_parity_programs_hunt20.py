"""Parity programs from a twentieth hunt: programs a student writes from PyTorch's autograd tutorials and notes.

"A Gentle Introduction to torch.autograd", "Automatic Differentiation with torch.autograd", "Understanding
requires_grad, retain_grad, Leaf, and non-leaf Tensors", the autograd mechanics notes (saved tensors, in-place
correctness checks, multithreading, complex autograd, hooks on saved tensors, backward hooks' order), "Extending
PyTorch" (custom Function, setup_context, once_differentiable, mark_non_differentiable, set_materialize_grads,
forward-mode AD and vmap of a Function), "Double Backward with Custom Functions", "Forward-mode Automatic
Differentiation", torch.func's jacobians, hessians, per-sample gradients, model ensembling and neural tangent kernels,
torch.autograd.graph, the profiler and anomaly detection, torch.utils.checkpoint, and the Chinese notes in
/work/shared/seeds, each varied as a student does: other dtypes (float64, half, integer inputs, complex), 0-dim and
empty shapes, broadcasting, non-contiguous views, printing (tensors, grad_fn, next_functions, _saved_* attributes,
metadata, _version), mistakes and their errors, calls made twice, grad modes mixed, and small training loops.
Each program must print exactly what PyTorch prints (hunt14's harness: ``parity.run_both`` with hunt13's
``E``/``W`` helpers, every warning also printed on stdout). Programs marked "fixed:" printed something different from
PyTorch before this hunt's fix.
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE

PROGRAMS: dict[str, str] = {}

# ---- tutorials: "A Gentle Introduction", "Automatic Differentiation", requires_grad / retain_grad / leaves

PROGRAMS['gi_finetune_frozen_backbone'] = PRE + r'''
torch.manual_seed(1)
model = torch.nn.Sequential(torch.nn.Linear(6, 5), torch.nn.ReLU(), torch.nn.Linear(5, 4))
for param in model.parameters():
    param.requires_grad = False
model[2] = torch.nn.Linear(5, 3)
print([(n, p.requires_grad, p.is_leaf) for n, p in model.named_parameters()])
optimizer = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
x = torch.randn(8, 6)
out = model(x)
print(out.grad_fn, out.grad_fn.next_functions)
print(model[1](model[0](x)).requires_grad, model[0](x).grad_fn)
loss = out.pow(2).mean()
loss.backward()
print([(n, None if p.grad is None else tuple(p.grad.shape)) for n, p in model.named_parameters()])
optimizer.step()
print(f"{loss.item():.6f}", f"{model(x).pow(2).mean().item():.6f}")
print(optimizer.state_dict()['state'].keys(), len(optimizer.state))
optimizer.zero_grad(set_to_none=False)
print(model[2].bias.grad, model[0].bias.grad)
E(lambda: model[0].weight.grad.zero_())
'''

PROGRAMS['ad_eye_jacobian_product_float64_and_views'] = PRE + r'''
inp = torch.eye(3, 4, dtype=torch.float64, requires_grad=True)
out = (inp + 1).pow(2).t()
print(out.is_contiguous(), out.grad_fn, out.grad_fn.next_functions[0][0]._saved_self.shape)
out.backward(torch.ones_like(out), retain_graph=True)
print(inp.grad)
out.backward(torch.arange(12.).view(4, 3), retain_graph=True)
print(inp.grad, inp.grad.dtype)
inp.grad = None
out[1:3].backward(torch.ones(2, 3), retain_graph=True)
print(inp.grad)
inp.grad.zero_()
v = torch.ones(3, dtype=torch.float64)
out.backward(torch.ones(4, 1).expand(4, 3), retain_graph=True)
print(inp.grad, inp.grad.is_contiguous())
E(lambda: out.backward(torch.ones(3, 4)))
E(lambda: out.backward(v))
E(lambda: out.backward(torch.ones(4, 3, dtype=torch.complex128)))
out.backward(torch.ones(4, 3, dtype=torch.float32))
print(inp.grad.dtype, inp.grad.sum())
'''

PROGRAMS['rg_retain_grad_views_and_inplace_chain'] = PRE + r'''
x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
y = x * 2
row = y[0]
row.retain_grad()
col = y[:, 1]
col.retain_grad()
y.retain_grad()
z = row.sum() * 3 + col.prod()
print(row.is_leaf, row._is_view(), row._base is y, col.retains_grad, y.retains_grad)
z.backward()
print(row.grad, col.grad, y.grad)
print(x.grad)
a = x.detach().clone().requires_grad_()
b = a.exp()
b.retain_grad()
b.mul_(2)
print(b.grad_fn, b.retains_grad, b._version)
E(lambda: b.sum().backward())
b = a.sin()
b.retain_grad()
b.mul_(2)
b.sum().backward()
print(b.grad, a.grad)
c = a[0].clone()
c.retain_grad()
c.add_(1).mul_(2)
c.retain_grad()
c.pow(2).sum().backward()
print(c.grad, c._version, c.grad_fn)
'''

PROGRAMS['sv_saved_tensor_identities_and_dtypes'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.pow(2)
print(y.grad_fn._saved_self is x, y.grad_fn._saved_self.equal(x), type(y.grad_fn._saved_exponent))
y3 = x.pow(2.5)
print(y3.grad_fn._saved_exponent, type(y3.grad_fn._saved_exponent))
y4 = x.pow(torch.tensor(2))
print(y4.grad_fn.name(), y4.grad_fn._saved_exponent, y4.grad_fn._saved_self is x)
e = x.exp()
print(e.grad_fn._saved_result is e, e.grad_fn._saved_result.equal(e))
s = x.sigmoid()
print(s.grad_fn._saved_result.equal(s), s.grad_fn._saved_result is s)
d = x.double()
m = d * d
print(m.grad_fn._saved_self is d, m.grad_fn._saved_other is d, d.grad_fn, d.grad_fn._saved_self_dtype if hasattr(d.grad_fn, '_saved_self_dtype') else '-')
t = x.tanh()
print(t.grad_fn._saved_result.equal(t))
i = torch.tensor([1, 2, 3])
p = x * i
print(p.grad_fn._saved_self, p.grad_fn._saved_other, p.dtype)
q = x * 2
print(q.grad_fn._saved_other, type(q.grad_fn._saved_other), q.grad_fn._saved_self)
r = x / 3
print(r.grad_fn.name(), r.grad_fn._saved_other)
h = x.half()
k = h * h
print(k.grad_fn._saved_self.dtype, k.dtype)
'''

PROGRAMS['ip_inplace_checks_variants'] = PRE + r'''
x = torch.tensor([0.5, 1.0, 1.5], requires_grad=True)
a = x.sin()
b = a.exp()
b.add_(1)
E(lambda: b.sum().backward())
x.grad = None
a = x.sigmoid()
a.mul_(2)
E(lambda: a.sum().backward())
a = x.tanh()
c = a * 2
a.zero_()
E(lambda: c.sum().backward())
print(x.grad)
a = x * 1
d = a[1:]
e = d.exp()
a[0] = 5.
print(a._version, d._version, e.grad_fn._saved_result._version)
e.sum().backward()
print(x.grad)
a = x * 1
d = a[1:]
e = d.exp()
d.mul_(2)
E(lambda: e.sum().backward())
w = torch.ones(3, requires_grad=True)
v = w * x
w2 = w.detach()
w2.add_(1)
E(lambda: v.sum().backward())
print(w._version, w2._version)
'''

PROGRAMS['cx_complex_abs_angle_polar_grads'] = PRE + r'''
z = torch.tensor([1+1j, -2+0.5j, 3-4j], requires_grad=True)
a = z.abs()
print(a, a.grad_fn, a.dtype)
a.sum().backward()
print(z.grad)
z.grad = None
z.angle().sum().backward()
print(z.grad)
z.grad = None
(z.real * 2 + z.imag * 3).sum().backward()
print(z.grad)
z.grad = None
(z * z.conj()).real.sum().backward()
print(z.grad)
r = torch.tensor([1., 2.], requires_grad=True)
th = torch.tensor([0.5, -1.], requires_grad=True)
p = torch.polar(r, th)
print(p, p.grad_fn)
p.abs().pow(2).sum().backward()
print(r.grad, th.grad)
c = torch.complex(r, th)
print(c.grad_fn, c.grad_fn.next_functions)
g, = torch.autograd.grad(c.abs().sum(), r)
print(g)
E(lambda: z.abs().backward())
E(lambda: (z * 2).sum().backward())
'''

# fixed: pack hooks see a node's saved inputs sorted by name, then its outputs (PyTorch's generated save order):
# addmm's mat1 before mat2.
PROGRAMS['sh_pack_unpack_log_small_mlp'] = PRE + r'''
torch.manual_seed(0)
lin = torch.nn.Linear(3, 2)
x = torch.randn(4, 3, requires_grad=True)
log = []
def pack(t):
    log.append(('pack', tuple(t.shape), t.dtype, t.requires_grad))
    return t
def unpack(t):
    log.append(('unpack', tuple(t.shape)))
    return t
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = torch.tanh(lin(x))
    l = (y * y).sum()
for e in log:
    print(e)
log.clear()
l.backward()
for e in log:
    print(e)
print(x.grad.sum().item(), lin.weight.grad.sum().item())
with torch.autograd.graph.saved_tensors_hooks(lambda t: t.shape, lambda s: torch.zeros(s)):
    u = x.exp()
    v = u.sum()
v.backward()
print(x.grad)
'''

PROGRAMS['ho_hook_order_tensor_node_retain'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
def th(name):
    def f(g):
        print('tensor hook', name, g)
    return f
y.register_hook(th('first'))
y.retain_grad()
y.register_hook(lambda g: g * 10)
y.register_hook(th('after x10'))
y.grad_fn.register_prehook(lambda gi: print('node prehook', gi))
y.grad_fn.register_hook(lambda gi, go: print('node posthook', gi, go))
x.register_hook(th('leaf'))
x.register_post_accumulate_grad_hook(lambda p: print('post acc', p.grad))
z = y.sum()
z.grad_fn.register_prehook(lambda gi: print('sum prehook', gi))
z.backward()
print(y.grad, x.grad)
'''

PROGRAMS['cf_setup_context_sort_nondiff_indices'] = PRE + r'''
class SortF(torch.autograd.Function):
    @staticmethod
    def forward(x, dim, descending=False):
        v, i = torch.sort(x, dim=dim, descending=descending)
        return v, i
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim = inputs[:2]
        v, i = output
        ctx.mark_non_differentiable(i)
        ctx.save_for_backward(i)
        ctx.dim = dim
        ctx.shape = x.shape
    @staticmethod
    def backward(ctx, gv, gi):
        i, = ctx.saved_tensors
        print('backward', gi, ctx.needs_input_grad)
        return torch.zeros(ctx.shape).scatter(ctx.dim, i, gv), None, None
x = torch.tensor([[3., 1., 2.], [0., 5., 4.]], requires_grad=True)
v, i = SortF.apply(x, 1, True)
print(v, i, v.grad_fn, i.requires_grad, i.grad_fn)
(v * torch.tensor([1., 2., 3.])).sum().backward()
print(x.grad)
v, i = SortF.apply(x, dim=0)
print(v, i)
v.sum().backward()
print(x.grad)
E(lambda: i.sum().backward())
'''

PROGRAMS['cf_once_differentiable_create_graph_errors'] = PRE + r'''
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
        print('in backward', g.requires_grad, x.requires_grad, torch.is_grad_enabled())
        return 3 * x ** 2 * g
x = torch.tensor([1., 2.], requires_grad=True)
y = Cube.apply(x)
print(y, y.grad_fn)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.requires_grad, g.grad_fn)
E(lambda: g.sum().backward())
y = Cube.apply(x)
y.sum().backward(create_graph=True)
print(x.grad, x.grad.requires_grad, x.grad.grad_fn)
x.grad = None
y = Cube.apply(x * 1)
g, = torch.autograd.grad(y.sum(), x)
print(g, g.requires_grad)
'''

PROGRAMS['cf_materialize_grads_false_multi_output'] = PRE + r'''
class Split(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3, x.sum()
    @staticmethod
    def backward(ctx, g1, g2, g3):
        print('grads None?', g1 is None, g2 is None, g3 is None)
        out = torch.zeros(2)
        if g1 is not None:
            out = out + 2 * g1
        if g2 is not None:
            out = out + 3 * g2
        if g3 is not None:
            out = out + g3
        return out
x = torch.tensor([1., 2.], requires_grad=True)
a, b, c = Split.apply(x)
a.sum().backward()
print(x.grad)
a, b, c = Split.apply(x)
(b + c).sum().backward()
print(x.grad)
a, b, c = Split.apply(x)
torch.autograd.backward([a, c], [torch.ones(2), None])
print(x.grad)
class Mat(Split):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3, x.sum()
a, b, c = Mat.apply(x)
b.sum().backward()
print(x.grad)
'''

PROGRAMS['fw_custom_function_jvp_and_backward'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
class MySin(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x.sin()
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x.cos()
    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return t * x.cos()
x = torch.tensor([0., 1., 2.], dtype=torch.float64)
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.ones(3, dtype=torch.float64))
    y = MySin.apply(d)
    p, t = fwAD.unpack_dual(y)
    print(p, t, y.grad_fn)
    y2 = MySin.apply(y)
    print(fwAD.unpack_dual(y2).tangent)
    z = MySin.apply(x)
    print(fwAD.unpack_dual(z).tangent)
class OldSin(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.sin()
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: torch.func.jvp(OldSin.apply, (x,), (x,)))
xr = x.clone().requires_grad_()
MySin.apply(xr).sum().backward()
print(xr.grad)
print(torch.func.jvp(MySin.apply, (x,), (torch.full((3,), 2., dtype=torch.float64),)))
E(lambda: torch.func.jacfwd(MySin.apply)(x))
'''

# ---- torch.func: jacobians, hessians, hvp, per-sample gradients, ensembling, NTK

PROGRAMS['fn_jacrev_jacfwd_dtypes_and_shapes'] = PRE + r'''
from torch.func import jacrev, jacfwd, hessian, vmap
def f(x):
    return x.sin() * x.sum()
x = torch.tensor([0.5, 1.0, -0.25], dtype=torch.float64)
jr = jacrev(f)(x)
jf = jacfwd(f)(x)
print(jr, jf.dtype, torch.allclose(jr, jf))
print(jacrev(lambda t: t.pow(2).sum())(torch.tensor(3.)))
print(jacfwd(lambda t: t * 2)(torch.tensor(3.)))
print(jacrev(lambda t: t.reshape(2, 2).t())(torch.arange(4.)).shape)
print(jacrev(f)(torch.zeros(0)).shape)

h = hessian(lambda t: (t ** 3).sum())(x)
print(h)
print(vmap(jacrev(f))(torch.tensor([[1., 2., 3.], [0., 0., 1.]])))
E(lambda: jacrev(f)(torch.tensor([1, 2])))
E(lambda: jacfwd(f)(torch.tensor([1, 2])))
def g(a, b):
    return (a * b).sum(), a - b
print(jacrev(g, argnums=(0, 1))(torch.ones(2), torch.tensor([2., 3.])))
print(jacfwd(g, argnums=1)(torch.ones(2), torch.tensor([2., 3.])))
print(jacrev(lambda t: {'s': t.sum(), 'p': t.prod()})(torch.tensor([2., 5.])))
'''

PROGRAMS['fn_hvp_vhp_three_ways'] = PRE + r'''
from torch.func import jvp, grad, vjp
from torch.autograd.functional import hvp, vhp, hessian
def f(x):
    return (x.sin() * x.cos().sum()).sum()
x = torch.tensor([0.3, -0.7, 1.1], dtype=torch.float64)
v = torch.tensor([1., 0.5, -2.], dtype=torch.float64)
a = jvp(grad(f), (x,), (v,))[1]
_, vjp_fn = vjp(grad(f), x)
b = vjp_fn(v)[0]
c = hvp(f, x, v)
d = vhp(f, x, v)
H = hessian(f, x)
print(a)
print(b)
print(c[0].item(), c[1])
print(d[1])
print(H @ v)
print(torch.allclose(a, b), torch.allclose(a, c[1]), torch.allclose(b, d[1]))
print(hvp(f, x, v, create_graph=True)[1].requires_grad)
E(lambda: hvp(lambda t: t * 2, x, v))
E(lambda: vhp(f, x, v[:2]))
xs = (torch.ones(2), torch.ones(3))
print(hvp(lambda p, q: (p.sum() * q ** 2).sum(), xs, (torch.ones(2), torch.zeros(3))))
'''

PROGRAMS['ps_per_sample_grads_linear_float64'] = PRE + r'''
from torch.func import functional_call, vmap, grad
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2)).double()
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
def loss_fn(params, buffers, sample, target):
    out = functional_call(model, (params, buffers), (sample.unsqueeze(0),))
    return torch.nn.functional.cross_entropy(out, target.unsqueeze(0))
data = torch.randn(5, 3, dtype=torch.float64)
targets = torch.tensor([0, 1, 1, 0, 1])
ps = vmap(grad(loss_fn), in_dims=(None, None, 0, 0))(params, buffers, data, targets)
for k, g in ps.items():
    print(k, tuple(g.shape), g.dtype)
manual = []
for i in range(5):
    model.zero_grad()
    loss_fn(dict(model.named_parameters()), buffers, data[i], targets[i]).backward()
    manual.append(model[0].weight.grad.clone())
print(torch.allclose(torch.stack(manual), ps['0.weight']))
print(ps['2.bias'])
E(lambda: vmap(grad(loss_fn), in_dims=(None, None, 0, 0))(params, buffers, data, targets[:4]))
E(lambda: vmap(grad(loss_fn), in_dims=(None, 0, 0))(params, buffers, data, targets))
print(vmap(grad(loss_fn), in_dims=(None, None, 0, 0))(params, buffers, data[:0], targets[:0])['2.bias'].shape)
'''

PROGRAMS['fn_model_ensembling_stack_state'] = PRE + r'''
from torch.func import stack_module_state, functional_call, vmap
import copy
torch.manual_seed(0)
models = [torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Linear(3, 2)) for _ in range(3)]
params, buffers = stack_module_state(models)
print({k: (tuple(v.shape), v.requires_grad, v.is_leaf) for k, v in params.items()}, buffers)
base = copy.deepcopy(models[0]).to('meta')
print(base[0].weight.shape)
def fmodel(params, buffers, x):
    return functional_call(base, (params, buffers), (x,))
x = torch.randn(5, 4)
out = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, x)
print(out.shape, torch.allclose(out[1], models[1](x)))
minibatches = torch.randn(3, 5, 4)
out2 = vmap(fmodel)(params, buffers, minibatches)
print(out2.shape, torch.allclose(out2[2], models[2](minibatches[2])))
out2.sum().backward()
print(params['0.weight'].grad.shape, models[0][0].weight.grad)
E(lambda: vmap(fmodel)(params, buffers, torch.randn(2, 5, 4)))
E(lambda: stack_module_state([]))
E(lambda: stack_module_state([models[0], torch.nn.Linear(4, 3)]))
'''

PROGRAMS['fn_empirical_ntk_two_ways'] = PRE + r'''
from torch.func import functional_call, vmap, vjp, jvp, jacrev
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(3, 5), torch.nn.Tanh(), torch.nn.Linear(5, 2)).double()
params = {k: v.detach() for k, v in net.named_parameters()}
def fnet_single(params, x):
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)
def ntk_jac(params, x1, x2):
    j1 = vmap(jacrev(fnet_single), (None, 0))(params, x1)
    j1 = [j.flatten(2) for j in j1.values()]
    j2 = vmap(jacrev(fnet_single), (None, 0))(params, x2)
    j2 = [j.flatten(2) for j in j2.values()]
    return torch.stack([torch.einsum('Naf,Mbf->NMab', a, b) for a, b in zip(j1, j2)]).sum(0)
def ntk_vps(params, x1, x2):
    def get_ntk(x1, x2):
        def f1(p):
            return fnet_single(p, x1)
        def f2(p):
            return fnet_single(p, x2)
        _, vjp_fn = vjp(f1, params)
        def get_ntk_slice(vec):
            v = vjp_fn(vec)
            return jvp(f2, (params,), v)[1]
        return vmap(get_ntk_slice)(torch.eye(2, dtype=torch.float64))
    return vmap(vmap(get_ntk, (None, 0)), (0, None))(x1, x2)
x1 = torch.randn(3, 3, dtype=torch.float64)
x2 = torch.randn(2, 3, dtype=torch.float64)
a = ntk_jac(params, x1, x2)
b = ntk_vps(params, x1, x2)
print(a.shape, b.shape, torch.allclose(a, b))
print(a[0, 0])
print(torch.einsum('NMaa->NM', a).shape)
'''

PROGRAMS['fn_grad_and_value_has_aux_student'] = PRE + r'''
from torch.func import grad, grad_and_value, vmap
def loss(w, x, y):
    pred = x @ w
    l = ((pred - y) ** 2).mean()
    return l, {'pred': pred, 'n': x.shape[0]}
def loss2(w, x, y):
    l, aux = loss(w, x, y)
    return l, {'pred': aux['pred']}
w = torch.tensor([0.5, -1.0])
x = torch.tensor([[1., 2.], [3., 4.], [5., 6.]])
y = torch.tensor([1., 0., 2.])
g, aux = grad(loss2, has_aux=True)(w, x, y)
print(g, aux)
E(lambda: grad(loss, has_aux=True)(w, x, y))
(g2, (v, aux2)) = grad_and_value(lambda *a: (loss(*a)[0], (loss(*a)[1]['pred'],)), has_aux=True)(w, x, y)
print(g2, v, aux2)
E(lambda: grad(loss)(w, x, y))
E(lambda: grad(lambda w: (w * 2, 1), has_aux=True)(w))
E(lambda: grad(lambda w: w * 2)(w))
print(grad(lambda w: (w ** 2).sum(), argnums=0)(torch.tensor(3.)))
lr = 0.1
for step in range(3):
    g, l = grad_and_value(lambda w: loss(w, x, y)[0])(w)
    w = w - lr * g / 10
    print(step, f"{l.item():.5f}", w)
print(vmap(grad(lambda w, xi: (xi @ w) ** 2), in_dims=(None, 0))(w, x))
'''

# ---- torch.autograd.graph: multi-grad hooks, mutation on saved tensors, node prehooks, gradient edges, versions

PROGRAMS['gr_multi_grad_hook_partial_outputs'] = PRE + r'''
from torch.autograd.graph import register_multi_grad_hook
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3.], requires_grad=True)
c = torch.tensor(4., requires_grad=True)
calls = []
def hook(grads):
    calls.append(len(grads))
    print('all:', [None if g is None else g.tolist() for g in grads])
h = register_multi_grad_hook((a, b, c), hook)
(a * 2).sum().backward()
(a.sum() * b * c).backward()
E(lambda: torch.autograd.grad((b * c).sum(), (b, c)))
print(calls)
h.remove()
(a.sum() * b).backward()
print(calls, a.grad, b.grad, c.grad)
seen = []
h2 = register_multi_grad_hook((a, b), lambda g: seen.append(g.tolist()), mode="any")
(a.sum() * b).backward()
(a * 3).sum().backward()
print(seen)
x = a * 1
y = b * 1
register_multi_grad_hook((x, y), lambda gs: print('nonleaf grads', gs))
(x.sum() + y.sum()).backward(inputs=[a])
print(a.grad)
E(lambda: register_multi_grad_hook((a, torch.ones(2)), print))
'''

PROGRAMS['gr_allow_mutation_on_saved_tensors_student'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
with torch.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
    y = x.clone()
    out = y.pow(2)
    y.mul_(10)
    out.sum().backward()
    print(x.grad, y, y._version)
    z = x * 1
    w = z.exp()
    z.zero_()
    w.sum().backward()
    print(x.grad)
    print(type(ctx).__name__)
x.grad = None
y = x.clone()
out = y.pow(2)
y.mul_(10)
E(lambda: out.sum().backward())
with torch.autograd.graph.allow_mutation_on_saved_tensors():
    y = x.clone()
    out = y.sin()
E(lambda: out.sum().backward())
with torch.autograd.graph.allow_mutation_on_saved_tensors():
    E(lambda: x.add_(1))
    with torch.no_grad():
        v = x * 1
        v.add_(1)
    print(v)
'''

PROGRAMS['gr_node_prehook_posthook_return_values'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
z = y * 3
def pre(grad_outputs):
    print('pre', grad_outputs)
    return (grad_outputs[0] * 2,)
def post(grad_inputs, grad_outputs):
    print('post', grad_inputs, grad_outputs)
    return (grad_inputs[0] + 1,)
h1 = y.grad_fn.register_prehook(pre)
h2 = y.grad_fn.register_hook(post)
z.sum().backward(retain_graph=True)
print(x.grad)
h1.remove()
x.grad = None
z.sum().backward(retain_graph=True)
print(x.grad)
h2.remove()
y.grad_fn.register_prehook(lambda go: None)
y.grad_fn.register_hook(lambda gi, go: None)
x.grad = None
z.sum().backward(retain_graph=True)
print(x.grad)
y.grad_fn.register_prehook(lambda go: (go[0], go[0]))
E(lambda: z.sum().backward(retain_graph=True))
acc = x.grad_fn
print(acc)
acc_node = y.grad_fn.next_functions[0][0]
acc_node.register_prehook(lambda go: print('acc pre', go))
acc_node.register_hook(lambda gi, go: print('acc post', gi, go))
x.grad = None
(x * 2).sum().backward()
print(x.grad)
'''

PROGRAMS['gr_gradient_edge_partial_backward'] = PRE + r'''
from torch.autograd.graph import get_gradient_edge
x = torch.tensor([1., 2., 3.], requires_grad=True)
h = x.sin()
out = (h * h).sum()
edge = get_gradient_edge(h)
print(edge.node, edge.output_nr, type(edge).__name__)
gh, = torch.autograd.grad(out, edge, retain_graph=True)
print(gh, torch.allclose(gh, 2 * x.sin()))
gx, = torch.autograd.grad(h, x, grad_outputs=gh, retain_graph=True)
print(gx)
ge = get_gradient_edge(x)
print(ge.node, ge.output_nr)
print(torch.autograd.grad(out, ge, retain_graph=True))
a, b = x.split([1, 2])
e2 = get_gradient_edge(b)
print(e2.node, e2.output_nr)
print(torch.autograd.grad((b ** 2).sum(), e2))
E(lambda: get_gradient_edge(x.detach()))
'''

PROGRAMS['gr_increment_version_custom_inplace'] = PRE + r'''
from torch.autograd.graph import increment_version
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 1
z = y.exp()
print(y._version, z._version)
increment_version(y)
print(y._version)
E(lambda: z.sum().backward())
y2 = x * 1
w = y2 * y2
with torch.no_grad():
    y2.numpy()[0] = 100.
print(y2._version)
w.sum().backward()
print(x.grad)
v = y2[0]
increment_version(v)
print(y2._version, v._version)
increment_version((y2, v))
print(y2._version)
t = torch.zeros(2)
with torch.inference_mode():
    i = torch.ones(2)
E(lambda: increment_version(i))
print(t._version)
'''

# ---- checkpointing, profiler, anomaly detection

PROGRAMS['ck_checkpoint_recompute_counts_and_grads'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
calls = {'n': 0}
def block(x, w):
    calls['n'] += 1
    return torch.tanh(x @ w).pow(2)
x = torch.tensor([[0.1, 0.2], [0.3, -0.4]], requires_grad=True)
w = torch.tensor([[1., -1.], [0.5, 2.]], requires_grad=True)
y = checkpoint(block, x, w, use_reentrant=False)
print(calls, y.grad_fn, y.requires_grad)
y.sum().backward()
print(calls, x.grad, w.grad)
gx, gw = x.grad.clone(), w.grad.clone()
x.grad = w.grad = None
block(x, w).sum().backward()
print(torch.equal(gx, x.grad), torch.equal(gw, w.grad))
calls['n'] = 0
y = checkpoint(block, x, w, use_reentrant=True)
print(calls, y.grad_fn.name(), y.requires_grad)
y.sum().backward()
print(calls)
with torch.no_grad():
    y = checkpoint(block, x, w, use_reentrant=False)
print(y.requires_grad, calls)
y = checkpoint(block, x.detach(), w.detach(), use_reentrant=False)
print(y.requires_grad, y.grad_fn)
E(lambda: checkpoint(block, x, w))
'''

PROGRAMS['an_detect_anomaly_student_nan_sqrt'] = PRE + r'''
x = torch.tensor([4., 0., 9.], requires_grad=True)
with torch.autograd.detect_anomaly(check_nan=True):
    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    y = x.sqrt()
    z = (y * 0).sum()
    E(lambda: z.backward())
print(torch.is_anomaly_enabled())
x.grad = None
with torch.autograd.set_detect_anomaly(True, check_nan=False):
    y = x.sqrt()
    (y * 0).sum().backward()
print(x.grad)
x.grad = None
y = x.log()
(y * 0).sum().backward()
print(x.grad)
torch.autograd.set_detect_anomaly(True)
print(torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(False)
E(lambda: torch.autograd.detect_anomaly(check_nan='yes'))
'''

# fixed: a profile entered with enabled=False binds None; an unfinished profile's events read as an empty list
# (PyTorch processes them lazily) instead of raising; FunctionEventAvg's repr is PyTorch's.
PROGRAMS['pf_profiler_function_events_student'] = PRE + r'''
from torch.autograd.profiler import profile, record_function
x = torch.randn(3, 3, requires_grad=True)
with profile() as prof:
    with record_function("my_block"):
        y = (x * 2).sin().sum()
    y.backward()
names = [e.name for e in prof.function_events]
print('my_block' in names, 'aten::mul' in names, 'aten::sin' in names, 'aten::sum' in names)
print(type(prof.function_events).__name__)
mine = [e for e in prof.function_events if e.name == 'my_block']
print(len(mine), mine[0].count if hasattr(mine[0], 'count') else '-')
with profile(enabled=False) as p2:
    z = x * 3
print(p2)
p3 = profile()
print(repr(p3), str(p3))
E(lambda: p3.function_events)
print(repr(p3), p3.key_averages(), p3.total_average(), p3.self_cpu_time_total)
with profile() as p4:
    print(repr(p4.key_averages()), repr(p4))
    w = x.exp()
print(len(p4.function_events) > 0)
E(lambda: torch.profiler.profile().events())
'''

# ---- multithreading

PROGRAMS['mt_threads_separate_graphs_same_leaf'] = PRE + r'''
import threading
w = torch.tensor([1., 2., 3.], requires_grad=True)
results = {}
def train(i):
    x = torch.full((3,), float(i + 1))
    y = (w * x).pow(2).sum()
    g, = torch.autograd.grad(y, w)
    results[i] = g
threads = [threading.Thread(target=train, args=(i,)) for i in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
for i in range(4):
    print(i, results[i])
def bw(i):
    ((w * (i + 1)) ** 2).sum().backward()
threads = [threading.Thread(target=bw, args=(i,)) for i in range(3)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(w.grad)
def mode():
    print('thread grad enabled', torch.is_grad_enabled())
with torch.no_grad():
    t = threading.Thread(target=mode)
    t.start()
    t.join()
'''

# ---- training loops a student writes (fixed precision)

PROGRAMS['tl_sgd_nesterov_steplr_regression'] = PRE + r'''
torch.manual_seed(0)
X = torch.linspace(-1, 1, 16).unsqueeze(1)
Y = 3 * X ** 2 - X + 0.5
model = torch.nn.Sequential(torch.nn.Linear(1, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-4)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=5, gamma=0.5)
for epoch in range(12):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(X), Y)
    loss.backward()
    opt.step()
    sched.step()
    if epoch % 3 == 0:
        print(epoch, f"{loss.item():.5f}", sched.get_last_lr(), opt.param_groups[0]['lr'])
print(list(opt.state_dict()['state'][0].keys()), opt.state_dict()['param_groups'][0]['nesterov'])
print(sched.state_dict())
E(lambda: torch.optim.SGD(model.parameters(), lr=0.1, nesterov=True))
'''

PROGRAMS['tl_adam_amsgrad_exponential_lr_float64'] = PRE + r'''
torch.manual_seed(1)
w = torch.randn(3, dtype=torch.float64, requires_grad=True)
target = torch.tensor([1., -2., 0.5], dtype=torch.float64)
opt = torch.optim.Adam([w], lr=0.2, betas=(0.8, 0.95), amsgrad=True)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
for step in range(8):
    opt.zero_grad()
    loss = ((w - target) ** 2).sum() + 0.1 * w.abs().sum()
    loss.backward()
    opt.step()
    sched.step()
    print(step, f"{loss.item():.6f}", f"{sched.get_last_lr()[0]:.6f}")
st = opt.state[w]
print(sorted(st.keys()), st['step'], st['exp_avg'].dtype, st['max_exp_avg_sq'].shape)
print(w)
'''

PROGRAMS['tl_adamw_cosine_and_grad_clipping'] = PRE + r'''
torch.manual_seed(2)
model = torch.nn.Linear(4, 2)
opt = torch.optim.AdamW(model.parameters(), lr=0.05, weight_decay=0.1)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=6, eta_min=0.001)
x = torch.randn(10, 4)
y = torch.randint(0, 2, (10,))
for step in range(6):
    opt.zero_grad(set_to_none=True)
    loss = torch.nn.functional.cross_entropy(model(x), y)
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.1)
    opt.step()
    sched.step()
    print(step, f"{loss.item():.5f}", f"{norm.item():.5f}", f"{sched.get_last_lr()[0]:.6f}")
print(model.weight.grad.norm() <= 0.1 + 1e-6)
acc = (model(x).argmax(1) == y).float().mean()
print(acc.requires_grad, acc.grad_fn, f"{acc.item():.2f}")
'''

PROGRAMS['tl_rmsprop_adagrad_manual_vs_optimizer'] = PRE + r'''
w1 = torch.tensor([1.0, -1.0], requires_grad=True)
w2 = torch.tensor([1.0, -1.0], requires_grad=True)
o1 = torch.optim.RMSprop([w1], lr=0.01, alpha=0.9, momentum=0.5, centered=True)
o2 = torch.optim.Adagrad([w2], lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1)
for i in range(5):
    for w, o in ((w1, o1), (w2, o2)):
        o.zero_grad()
        l = (w ** 4).sum() + w.prod()
        l.backward()
        o.step()
    print(i, w1.tolist(), w2.tolist())
print(sorted(o1.state[w1].keys()), sorted(o2.state[w2].keys()))
print(o1)
manual = torch.tensor([1.0, -1.0], requires_grad=True)
for i in range(3):
    l = (manual ** 2).sum()
    g, = torch.autograd.grad(l, manual)
    with torch.no_grad():
        manual -= 0.1 * g
print(manual, manual.requires_grad, manual.is_leaf, manual._version)
'''

PROGRAMS['tl_logistic_regression_by_hand'] = PRE + r'''
torch.manual_seed(3)
X = torch.randn(20, 2)
y = (X[:, 0] + 2 * X[:, 1] > 0).float()
w = torch.zeros(2, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.5
for epoch in range(5):
    logits = X @ w + b
    loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, y)
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
        w.grad.zero_()
        b.grad.zero_()
    print(epoch, f"{loss.item():.6f}", w.grad, b._version)
p = torch.sigmoid(X @ w + b)
print(p.grad_fn, p.grad_fn.next_functions[0][0])
with torch.no_grad():
    acc = ((p > 0.5).float() == y).float().mean()
print(f"{acc.item():.2f}", acc.requires_grad)
E(lambda: w.sub_(1))
'''

# ---- Chinese notes (seeds): the mean(x * x) example, backward arguments, set_grad_enabled, MultiplyAdd

PROGRAMS['sd_mean_x_squared_variants'] = PRE + r'''
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = torch.mean(x * x)
print(y, y.grad_fn, y.grad_fn.next_functions)
y.backward()
print(x.grad)
x.grad.zero_()
y = torch.mean(x * x, dim=0)
y.backward(torch.tensor([1., 0.5]))
print(x.grad)
x.grad = None
y = (x * x).mean(dtype=torch.float64)
print(y.dtype, y.grad_fn)
y.backward()
print(x.grad, x.grad.dtype)
xd = x.detach()
print(xd.requires_grad, xd.data_ptr() == x.data_ptr())
xd[0, 0] = 10.
print(x)
E(lambda: torch.mean(torch.tensor([1, 2]) * 1))
print(torch.mean(torch.tensor([1, 2]) * 1.))
'''

PROGRAMS['sd_multiply_add_ctx_variants'] = PRE + r'''
class MultiplyAdd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, w, x, b):
        ctx.save_for_backward(w, x)
        output = w * x + b
        return output
    @staticmethod
    def backward(ctx, grad_output):
        w, x = ctx.saved_tensors
        print('needs_input_grad', ctx.needs_input_grad)
        grad_w = grad_output * x if ctx.needs_input_grad[0] else None
        grad_x = grad_output * w if ctx.needs_input_grad[1] else None
        grad_b = grad_output * 1 if ctx.needs_input_grad[2] else None
        return grad_w, grad_x, grad_b
x = torch.ones(1)
w = torch.rand(1, requires_grad=True)
b = torch.rand(1, requires_grad=True)
torch.manual_seed(0)
w = torch.rand(1, requires_grad=True)
b = torch.rand(1, requires_grad=True)
z = MultiplyAdd.apply(w, x, b)
print(z.grad_fn, z.grad_fn.next_functions)
z.backward()
print(x.grad, w.grad, b.grad)
z = MultiplyAdd.apply(w, torch.tensor([2., 3.]), b)
z.sum().backward()
print(w.grad, b.grad)
z = MultiplyAdd.apply(w.double(), x.double(), 1.0)
print(z.dtype, z.grad_fn.next_functions)
z.backward()
print(w.grad)
E(lambda: MultiplyAdd.apply(w, x))
E(lambda: MultiplyAdd()(w, x, b))
print(torch.autograd.grad(MultiplyAdd.apply(w, x, b), [w, b]))
'''

PROGRAMS['sd_set_grad_enabled_forms'] = PRE + r'''
x = torch.tensor([1.], requires_grad=True)
is_train = False
with torch.set_grad_enabled(is_train):
    y = x * 2
print(y.requires_grad)
torch.set_grad_enabled(True)
y = x * 2
print(y.requires_grad)
torch.set_grad_enabled(False)
y = x * 2
print(y.requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(True)
@torch.set_grad_enabled(False)
def f(t):
    return t * 3, torch.is_grad_enabled()
print(f(x), torch.is_grad_enabled())
@torch.no_grad()
def g(t):
    with torch.enable_grad():
        return t * 4
print(g(x).requires_grad)
with torch.no_grad():
    with torch.set_grad_enabled(True):
        print((x * 5).requires_grad)
    print((x * 5).requires_grad)
E(lambda: torch.set_grad_enabled())
E(lambda: torch.set_grad_enabled('yes'))
print(torch.set_grad_enabled(False).__class__.__name__, torch.is_grad_enabled())
torch.set_grad_enabled(True)
'''

PROGRAMS['sd_backward_gradient_argument_shapes'] = PRE + r'''
x = torch.arange(1., 7.).view(2, 3).requires_grad_()
y = x ** 2
y.backward(torch.ones(2, 3), retain_graph=True)
print(x.grad)
y.backward(torch.tensor([[1., 0., 0.], [0., 0., 1.]]), retain_graph=True)
print(x.grad)
E(lambda: y.backward(torch.ones(3)))
E(lambda: y.backward(torch.ones(6)))
E(lambda: y.backward(1.0))
E(lambda: y.backward([[1., 1., 1.], [1., 1., 1.]]))
s = y.sum()
s.backward(torch.tensor(0.5), retain_graph=True)
print(x.grad)
E(lambda: s.backward(torch.tensor([1.])))
s.backward(torch.tensor(2.), retain_graph=True, inputs=[x])
print(x.grad)
torch.autograd.backward([y, s], [torch.ones(2, 3), torch.tensor(1.)])
print(x.grad)
'''

# ---- saved tensor hooks: save_on_cpu, disable_saved_tensors_hooks, nesting, hooks on a custom Function

PROGRAMS['sh_save_on_cpu_and_disable_messages'] = PRE + r'''
from torch.autograd.graph import save_on_cpu, disable_saved_tensors_hooks, saved_tensors_hooks
x = torch.tensor([1., 2., 3.], requires_grad=True)
with save_on_cpu(pin_memory=False):
    y = x.sin() * x.cos()
y.sum().backward()
print(x.grad)
@disable_saved_tensors_hooks("no hooks in this block, please")
def f(t):
    return t.exp()
E(lambda: f(x))
with disable_saved_tensors_hooks("outer off"):
    E(lambda: saved_tensors_hooks(lambda t: t, lambda t: t).__enter__())
    print((x * 2).sum().item())
with saved_tensors_hooks(lambda t: t, lambda t: t):
    E(lambda: f(x))
    E(lambda: disable_saved_tensors_hooks("inner off").__enter__())
print(f(x).grad_fn)
'''

PROGRAMS['sh_hooks_on_custom_function_saved'] = PRE + r'''
from torch.autograd.graph import saved_tensors_hooks
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y, x + y)
        return x * x * y
    @staticmethod
    def backward(ctx, g):
        x, y, s = ctx.saved_tensors
        print('unpacked', x.shape, y.shape, s)
        return 2 * x * y * g, x * x * g
def pack(t):
    print('pack', t.shape, t.requires_grad, t.grad_fn)
    return t * 1
def unpack(t):
    print('unpack', t.shape)
    return t
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.])
with saved_tensors_hooks(pack, unpack):
    out = Square.apply(a, b)
print(out.grad_fn._raw_saved_tensors if hasattr(out.grad_fn, '_raw_saved_tensors') else '-')
out.sum().backward()
print(a.grad)
E(lambda: out.grad_fn.saved_tensors)
'''

PROGRAMS['sh_nested_hooks_innermost_and_counts'] = PRE + r'''
from torch.autograd.graph import saved_tensors_hooks
log = []
def mk(tag):
    return (lambda t: (log.append(('pack', tag)), t)[1], lambda t: (log.append(('unpack', tag)), t)[1])
x = torch.tensor([0.5, 1.5], requires_grad=True)
with saved_tensors_hooks(*mk('outer')):
    a = x.exp()
    with saved_tensors_hooks(*mk('inner')):
        b = a * x
    c = b.tanh()
print(log)
log.clear()
c.sum().backward()
print(log)
print(x.grad)
with saved_tensors_hooks(lambda t: None, lambda p: x):
    d = x.pow(2)
print(d.grad_fn._saved_self)
d.sum().backward()
print(x.grad)
'''

# ---- custom Functions under torch.func: generate_vmap_rule, vmap staticmethod, jvp with setup_context

PROGRAMS['cf_generate_vmap_rule_and_vmap_staticmethod'] = PRE + r'''
from torch.func import vmap, grad, jacrev
class Cube(torch.autograd.Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x):
        return x ** 3, 3 * x ** 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0], output[1])
    @staticmethod
    def backward(ctx, g, g2):
        x, d = ctx.saved_tensors
        return g * d + g2 * 6 * x
x = torch.tensor([1., 2., 3.])
print(vmap(Cube.apply)(x))
print(grad(lambda t: Cube.apply(t)[0])(torch.tensor(2.)))
print(vmap(grad(lambda t: Cube.apply(t)[0]))(x))
print(jacrev(lambda t: Cube.apply(t)[0])(x))
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(x, k):
        return x * k
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.k = inputs[1]
    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None
    @staticmethod
    def vmap(info, in_dims, x, k):
        print('vmap rule', info.batch_size, info.randomness, in_dims)
        return x * k, in_dims[0]
print(vmap(Scale.apply, in_dims=(0, None))(torch.ones(2, 3), 5.))
E(lambda: vmap(Scale.apply)(torch.ones(2), torch.ones(2)))
class NoRule(Scale):
    vmap = torch.autograd.Function.vmap
E(lambda: vmap(NoRule.apply, in_dims=(0, None))(torch.ones(2), 2.))
'''

PROGRAMS['cf_mark_dirty_inplace_function_student'] = PRE + r'''
class AddOne_(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
a = torch.tensor([1., 2.], requires_grad=True)
b = a * 2
v0 = b._version
c = AddOne_.apply(b)
print(c is b, b._version - v0, c.grad_fn, b.grad_fn)
c.sum().backward()
print(a.grad)
E(lambda: AddOne_.apply(a))
with torch.no_grad():
    d = a * 1
e = AddOne_.apply(d)
print(e.requires_grad, e.grad_fn, d._version)
class Forgot(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
f = a * 2
E(lambda: Forgot.apply(f))
leaf = torch.tensor([1.], requires_grad=True)
view = (leaf * 1)[0:1]
r = AddOne_.apply(view)
print(r.grad_fn, view._base.grad_fn)
'''

PROGRAMS['cf_double_backward_custom_tanh_gradcheck'] = PRE + r'''
class MyTanh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = torch.tanh(x)
        ctx.save_for_backward(y)
        return y
    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * (1 - y ** 2)
x = torch.tensor([0.2, -0.4, 1.3], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(MyTanh.apply, x))
print(torch.autograd.gradgradcheck(MyTanh.apply, x))
y = MyTanh.apply(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.grad_fn)
gg, = torch.autograd.grad(g.sum(), x)
print(gg, torch.allclose(gg, -2 * torch.tanh(x) * (1 - torch.tanh(x) ** 2)))
class BadTanh(MyTanh):
    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * (1 - y.detach() ** 2)
print(torch.autograd.gradcheck(BadTanh.apply, x))
E(lambda: torch.autograd.gradgradcheck(BadTanh.apply, x))
print(torch.autograd.gradgradcheck(BadTanh.apply, x, raise_exception=False))
'''

# ---- forward-mode AD

PROGRAMS['fw_dual_views_inplace_and_tangent_dtypes'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
p = torch.tensor([[1., 2.], [3., 4.]])
t = torch.tensor([[1., 0.], [0., 1.]])
with fwAD.dual_level():
    d = fwAD.make_dual(p, t)
    row = d[0]
    print(fwAD.unpack_dual(row).tangent, row._base is d)
    d.mul_(2)
    print(fwAD.unpack_dual(row).tangent)
    tt = d.t()
    print(fwAD.unpack_dual(tt).tangent, tt.is_contiguous())
    s = (d * d).sum()
    print(fwAD.unpack_dual(s))
    q = fwAD.make_dual(torch.tensor(2.), torch.tensor(1.))
    print(fwAD.unpack_dual(q ** 3).tangent, fwAD.unpack_dual(torch.exp(q)).tangent)
    E(lambda: fwAD.make_dual(p, torch.ones(3)))
    E(lambda: fwAD.make_dual(torch.tensor([1, 2]), torch.tensor([1, 2])))
    E(lambda: fwAD.make_dual(p, t.double()))
    h = fwAD.make_dual(p.half(), t.half())
    print(fwAD.unpack_dual(h.sin()).tangent.dtype)
    plain = torch.ones(2)
    plain.copy_(fwAD.make_dual(torch.ones(2), torch.full((2,), 3.)))
    print(fwAD.unpack_dual(plain).tangent)
print(fwAD.unpack_dual(d).tangent)
'''

PROGRAMS['fw_jvp_of_nn_module_functional_call'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
from torch.func import functional_call
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.Sigmoid(), torch.nn.Linear(3, 1))
x = torch.randn(2, 3)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.ones_like(p) for name, p in params.items()}
with fwAD.dual_level():
    dual_params = {name: fwAD.make_dual(p, tangents[name]) for name, p in params.items()}
    out = functional_call(model, dual_params, (x,))
    jvp_out = fwAD.unpack_dual(out).tangent
print(jvp_out)
print(torch.func.jvp(lambda p: functional_call(model, p, (x,)), (params,), (tangents,))[1])
with fwAD.dual_level():
    dx = fwAD.make_dual(x, torch.ones_like(x))
    y = model(dx)
    print(fwAD.unpack_dual(y).tangent, y.requires_grad)
'''

# ---- internals a student prints: node classes, metadata, sequence numbers, freed saved tensors

PROGRAMS['nd_node_class_mro_and_metadata'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * 2).relu()
fn = y.grad_fn
print(isinstance(fn, torch.autograd.graph.Node), type(fn).__name__, fn.name())
print(issubclass(type(fn), torch.autograd.graph.Node), type(fn).__module__)
fn.metadata['tag'] = 'relu'
print(fn.metadata, y.grad_fn.metadata is fn.metadata)
print(fn._sequence_nr() > fn.next_functions[0][0]._sequence_nr())
acc = fn.next_functions[0][0].next_functions[0][0]
print(acc, acc.variable is x, acc.next_functions, acc.name())
print(acc.metadata, type(acc).__name__)
print(fn == y.grad_fn, fn is y.grad_fn, hash(fn) == hash(y.grad_fn))
E(lambda: fn(torch.ones(2)))
E(lambda: fn.next_functions[0][0](torch.ones(2), torch.ones(2)))
print(fn._saved_result, fn.next_functions[0][0]._saved_other, fn.next_functions[0][0]._saved_self)
y.sum().backward()
E(lambda: fn._saved_result)
E(lambda: fn._raw_saved_result)
E(lambda: fn.next_functions[0][0]._saved_other)
'''

PROGRAMS['nd_freed_saved_and_retain_graph_messages'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
y = x * w
z = y.sin()
s = z.sum()
s.backward()
E(lambda: s.backward())
E(lambda: z.grad_fn._saved_self)
E(lambda: y.grad_fn._saved_other)
print(s.grad_fn, s.grad_fn._saved_self_sym_sizes)
print(x.grad, w.grad)
y = x * w
out = y.exp().sum()
g = torch.autograd.grad(out, x, retain_graph=True)
print(g)
print(y.grad_fn.next_functions[0][0] is x.grad_fn)
g2 = torch.autograd.grad(out, w)
print(g2)
E(lambda: torch.autograd.grad(out, x))
E(lambda: torch.autograd.grad(out, w, retain_graph=True))
'''

PROGRAMS['nd_next_functions_of_shape_ops'] = PRE + r'''
x = torch.arange(6., requires_grad=True)
v = x.view(2, 3)
t = v.t()
c = t.contiguous()
p = c.permute(1, 0).reshape(6)
e = x.unsqueeze(0).expand(3, 6)
out = (p + e.sum(0)).unbind()
for q in (v, t, c, p, e, out[0], out[5]):
    print(q.grad_fn, q._is_view(), q.is_contiguous(), q.grad_fn.next_functions)
print(v.grad_fn._saved_self_sym_sizes, t.grad_fn.name(), e.grad_fn._saved_self_sym_sizes)
print(p.grad_fn._saved_self_sym_sizes if hasattr(p.grad_fn, '_saved_self_sym_sizes') else '-')
print(out[0].grad_fn._saved_dim, out[3].grad_fn.name(), out[3].grad_fn is out[0].grad_fn, out[3].output_nr)
sum(out).backward()
print(x.grad)
'''

PROGRAMS['ir_inference_mode_student_mix'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
with torch.inference_mode():
    y = x * 2
    print(y.requires_grad, y.is_inference(), torch.is_inference_mode_enabled(), torch.is_grad_enabled())
print(y.is_inference(), y.requires_grad)
E(lambda: (y * x).sum().backward())
z = y.clone()
print(z.is_inference(), (z * x).requires_grad)
E(lambda: y.add_(1))
E(lambda: y.requires_grad_())
with torch.inference_mode(False):
    print(torch.is_inference_mode_enabled(), (x * 1).requires_grad)
with torch.inference_mode():
    with torch.inference_mode(False):
        a = x * 3
    print(a.requires_grad, a.is_inference())
@torch.inference_mode()
def predict(t):
    return t * 10
r = predict(x)
print(r, r.is_inference())
with torch.no_grad():
    n = x * 2
print(n.is_inference(), n.requires_grad)
n.add_(1)
print(n, n._version)
E(lambda: y._version)
'''

PROGRAMS['cx_complex_view_as_real_matmul_grads'] = PRE + r'''
a = torch.tensor([[1+2j, 0.5-1j], [2j, -1+0j]], requires_grad=True)
b = torch.tensor([1-1j, 2+0.5j], requires_grad=True)
y = a @ b
print(y, y.grad_fn)
l = y.abs().pow(2).sum()
l.backward()
print(a.grad)
print(b.grad)
r = torch.view_as_real(a)
print(r.shape, r.grad_fn, r._base is a)
a.grad = None
(r[..., 1] * torch.tensor([[1., 2.], [3., 4.]])).sum().backward()
print(a.grad)
c = torch.view_as_complex(torch.tensor([[1., 2.], [3., -4.]], requires_grad=True))
print(c, c.grad_fn)
c.real.sum().backward()
s = torch.sgn(b)
print(s, s.grad_fn)
E(lambda: b.sum().backward())
z = torch.zeros(2, dtype=torch.complex64, requires_grad=True)
z.abs().sum().backward()
print(z.grad)
'''

PROGRAMS['af_functional_jacobian_strategies_vectorize'] = PRE + r'''
from torch.autograd.functional import jacobian, hessian
def f(x, y):
    return x.exp() * y.sum(), (x * y[:2]).sum()
x = torch.tensor([0.1, 0.2], dtype=torch.float64)
y = torch.tensor([1., 2., 3.], dtype=torch.float64)
j1 = jacobian(f, (x, y))
j2 = jacobian(f, (x, y), vectorize=True)
j3 = jacobian(f, (x, y), vectorize=True, strategy='forward-mode')
print(j1[0][0], j1[1][1])
print(all(torch.allclose(a, b) for ra, rb in zip(j1, j2) for a, b in zip(ra, rb)))
print(all(torch.allclose(a, b) for ra, rb in zip(j1, j3) for a, b in zip(ra, rb)))
E(lambda: jacobian(f, (x, y), strategy='forward-mode'))
E(lambda: jacobian(f, (x, y), strategy='sideways'))
h = hessian(lambda x, y: (x ** 2).sum() * (y ** 3).sum(), (x, y))
print(h[0][1], h[1][1])
h2 = hessian(lambda x: (x ** 4).sum(), x, vectorize=True, outer_jacobian_strategy='forward-mode')
print(h2)
print(jacobian(lambda t: t.sum(), x, create_graph=True).requires_grad)
'''

PROGRAMS['tl_schedulers_sweep_printed_lrs'] = PRE + r'''
torch.manual_seed(0)
model = torch.nn.Linear(3, 2)
for name, mk in [('onecycle', lambda o: torch.optim.lr_scheduler.OneCycleLR(o, max_lr=1.0, total_steps=10)),
                 ('lambda', lambda o: torch.optim.lr_scheduler.LambdaLR(o, lambda e: 0.9 ** e)),
                 ('multistep', lambda o: torch.optim.lr_scheduler.MultiStepLR(o, [2, 4], 0.5)),
                 ('linear', lambda o: torch.optim.lr_scheduler.LinearLR(o, 0.25, 1.0, 4)),
                 ('poly', lambda o: torch.optim.lr_scheduler.PolynomialLR(o, 5, 2.0)),
                 ('cyclic', lambda o: torch.optim.lr_scheduler.CyclicLR(o, 0.01, 0.1, step_size_up=2)),
                 ('warm', lambda o: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, 3, 2)),
                 ('seq', lambda o: torch.optim.lr_scheduler.SequentialLR(o, [torch.optim.lr_scheduler.ConstantLR(o, 0.5, 2),
                                                                            torch.optim.lr_scheduler.ExponentialLR(o, 0.9)], [2])),
                 ('mult', lambda o: torch.optim.lr_scheduler.MultiplicativeLR(o, lambda e: 0.95))]:
    o = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    s = mk(o)
    lrs = []
    for i in range(7):
        o.step()
        s.step()
        lrs.append(round(s.get_last_lr()[0], 6))
    print(name, lrs, o.param_groups[0].get('momentum'))
o = torch.optim.SGD(model.parameters(), lr=0.1)
p = torch.optim.lr_scheduler.ReduceLROnPlateau(o, patience=1, factor=0.5)
for l in [1.0, 0.9, 0.95, 0.96, 0.97, 0.5, 0.6, 0.7]:
    p.step(l)
    print(o.param_groups[0]['lr'], p.num_bad_epochs, p.get_last_lr())
print(sorted(p.state_dict().keys()))
'''

PROGRAMS['tl_optimizer_hooks_groups_and_errors'] = PRE + r'''
torch.manual_seed(0)
model = torch.nn.Linear(3, 2)
o = torch.optim.SGD(model.parameters(), lr=0.1)
h = o.register_step_pre_hook(lambda opt, args, kwargs: print('pre step', type(opt).__name__, args, kwargs))
h2 = o.register_step_post_hook(lambda opt, args, kwargs: print('post step'))
o.step()
h.remove()
h2.remove()
o.step()
o2 = torch.optim.SGD(model.parameters(), lr=0.1, maximize=True, foreach=False)
model(torch.ones(1, 3)).sum().backward()
o2.step()
print(model.bias)
print(o2.state_dict()['param_groups'])
torch.nn.utils.clip_grad_value_(model.parameters(), 0.1)
print(model.weight.grad)
E(lambda: torch.optim.Adam([torch.ones(2)], lr=-1))
E(lambda: torch.optim.Adam([], lr=1))
E(lambda: torch.optim.SGD(model.parameters()))
E(lambda: torch.optim.SGD([{'params': model.weight}, {'params': model.weight}], lr=1))
E(lambda: torch.optim.SGD(model.weight, lr=1))
o3 = torch.optim.Adam([{'params': model.weight, 'lr': 0.5}, {'params': [model.bias]}], lr=0.01)
print(o3)
o3.add_param_group({'params': torch.nn.Parameter(torch.ones(2)), 'betas': (0.5, 0.6)})
print([g['lr'] for g in o3.param_groups], o3.param_groups[2]['betas'])
print(o3.state_dict()['param_groups'][0]['params'], o3.state_dict()['param_groups'][2])
'''

PROGRAMS['tl_optimizer_step_in_backward_hooks'] = PRE + r'''
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1))
optimizer_dict = {p: torch.optim.Adam([p], lr=0.05, foreach=False) for p in model.parameters()}
order = []
def optimizer_hook(parameter) -> None:
    order.append(tuple(parameter.shape))
    optimizer_dict[parameter].step()
    optimizer_dict[parameter].zero_grad()
for p in model.parameters():
    p.register_post_accumulate_grad_hook(optimizer_hook)
x = torch.randn(6, 4)
y = torch.randn(6, 1)
for step in range(4):
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    print(step, f"{loss.item():.6f}", [p.grad for p in model.parameters()][0])
print(order[:4])
print(optimizer_dict[model[0].weight].state[model[0].weight]['step'])
E(lambda: torch.ones(2).register_post_accumulate_grad_hook(print))
E(lambda: (model[0].weight * 1).register_post_accumulate_grad_hook(print))
'''

# ---- quick sweeps a student writes while learning an API (each line a variation, errors printed)

PROGRAMS['cf_function_outputs_and_backward_mistakes'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, n):
        print('ctx type', type(ctx).__name__, ctx.needs_input_grad, hasattr(ctx, 'saved_tensors'))
        ctx.n = n
        ctx.save_for_backward(x, None)
        ctx.mark_non_differentiable()
        return x * n
    @staticmethod
    def backward(ctx, g):
        x, none = ctx.saved_tensors
        print('saved', x, none, ctx.n, type(ctx).__name__, ctx.needs_input_grad)
        return g * ctx.n, None
x = torch.tensor([1., 2.], requires_grad=True)
y = F.apply(x, 3)
print(y.grad_fn, type(y.grad_fn).__name__, type(y.grad_fn).__mro__[1].__name__)
print(y.grad_fn.saved_tensors, y.grad_fn.n, y.grad_fn.needs_input_grad)
print(y.grad_fn.next_functions, y.grad_fn._raw_saved_tensors)
y.sum().backward()
print(x.grad)
E(lambda: y.grad_fn.saved_tensors)
E(lambda: y.grad_fn.apply(torch.ones(2)))
E(lambda: y.grad_fn.to_save)
E(lambda: F.forward(None, x, 2))
E(lambda: F.backward(None, x))
E(lambda: F.apply(x, n=2))
E(lambda: F.apply(x))
print(F.apply(x.detach(), 2).requires_grad, F.apply(x.detach(), 2).grad_fn)
with torch.no_grad():
    r = F.apply(x, 2)
print(r.requires_grad, r.grad_fn)
class G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view(-1), x.clone()
    @staticmethod
    def backward(ctx, a, b):
        return a.view(2, 2) + b
z = torch.ones(2, 2, requires_grad=True)
a, b = G.apply(z)
print(a._is_view(), a.grad_fn, b.grad_fn, a._base is z)
E(lambda: a.add_(1))
E(lambda: b.add_(1))
(a.sum() + b.sum()).backward()
print(z.grad)
class H(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 2
o = H.apply(z)
print(o is z, o.grad_fn, o._base is z, o.is_leaf)
o.sum().backward()
print(z.grad)
class K(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return 5
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: K.apply(z))
class L(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, [1, 2], 'name'
    @staticmethod
    def backward(ctx, g, g2, g3):
        print('L back', g2, g3)
        return g
r = L.apply(z)
print(r[1:], type(r))
r[0].sum().backward()
class M(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g, g
E(lambda: M.apply(z).sum().backward())
class N(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g[:1]
E(lambda: N.apply(z).sum().backward())
class P(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g.double()
z.grad = None
E(lambda: P.apply(z).sum().backward())
print(z.grad.dtype)
class Q(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return 1.0
E(lambda: Q.apply(z).sum().backward())
'''

PROGRAMS['ck_checkpoint_sequential_and_options'] = PRE + r'''
from torch.utils.checkpoint import checkpoint, checkpoint_sequential
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU(), torch.nn.Dropout(0.5), torch.nn.Linear(3, 1))
x = torch.randn(4, 3, requires_grad=True)
out = checkpoint_sequential(m, 2, x, use_reentrant=False)
out.sum().backward()
print(x.grad)
E(lambda: checkpoint_sequential(m, 2, x))
E(lambda: checkpoint_sequential(m, 5, x, use_reentrant=False))
E(lambda: checkpoint(m, x, use_reentrant=False, preserve_rng_state=False).shape)
E(lambda: checkpoint(m, x, use_reentrant=False, determinism_check='none').shape)
E(lambda: checkpoint(m, x, use_reentrant=False, determinism_check='bogus'))
E(lambda: checkpoint(m, x, use_reentrant=True, debug=True))
E(lambda: checkpoint(m, x, use_reentrant=False, bad_kwarg=1))
E(lambda: checkpoint(m, x, use_reentrant=True, context_fn=lambda: None))
def f(a, b=2):
    return a * b
E(lambda: checkpoint(f, x, b=3, use_reentrant=False).sum())
E(lambda: checkpoint(f, x, b=3, use_reentrant=True))
m.eval()
y = checkpoint(m, x, use_reentrant=True)
print(y.grad_fn.name(), y.grad_fn.next_functions)
z = torch.randn(2, requires_grad=True)
def g(t):
    return t.sin()
r = checkpoint(g, z.detach(), use_reentrant=True)
print(r.requires_grad)
E(lambda: r.sum().backward())
def h(t, flag):
    return t * 2 if flag else t
print(checkpoint(h, z, True, use_reentrant=False).grad_fn)
print(checkpoint(h, z, False, use_reentrant=False).grad_fn)
print(checkpoint(h, z, False, use_reentrant=True).grad_fn)
'''

PROGRAMS['fn_vmap_dims_and_python_escapes'] = PRE + r'''
from torch.func import vmap
x = torch.arange(6.).view(2, 3)
E(lambda: vmap(lambda t: (t, t.sum()), out_dims=(1, 0))(x))
E(lambda: vmap(lambda t: t * 2, out_dims=None)(x))
E(lambda: vmap(lambda t: t.sum(), chunk_size=1)(x))
E(lambda: vmap(lambda d: d['a'] + d['b'], in_dims=({'a': 0, 'b': None},))({'a': x, 'b': torch.ones(3)}))
E(lambda: vmap(lambda t: t.item())(x))
E(lambda: vmap(lambda t: t.tolist())(x))
E(lambda: vmap(lambda t: t.numpy())(x))
E(lambda: vmap(lambda t: t.shape)(x))
E(lambda: vmap(lambda t: t.dim())(x))
E(lambda: vmap(lambda t: t.size(0))(x))
E(lambda: vmap(lambda t: t + 1, in_dims=2)(x))
E(lambda: vmap(lambda t: t + 1, in_dims=-1)(x))
E(lambda: vmap(lambda t: t + 1, out_dims=2)(x))
E(lambda: vmap(lambda t, s: t + s)(x, torch.ones(3)))
E(lambda: vmap(lambda t: t if t.sum() > 0 else -t)(x))
E(lambda: vmap(lambda t: torch.where(t.sum() > 0, t, -t))(x))
E(lambda: vmap(lambda t: t.new_ones(2))(x))
E(lambda: vmap(lambda t: torch.ones(2) + t[0])(x))
E(lambda: vmap(lambda t: t.view(3, 1))(x))
E(lambda: vmap(lambda t: t.reshape(-1, 1).t())(x))
E(lambda: vmap(lambda t: torch.dot(t, t))(x))
E(lambda: vmap(lambda t: t @ torch.ones(3, 2))(x))
E(lambda: vmap(torch.outer)(x, x))
E(lambda: vmap(vmap(lambda a: a * 2))(torch.ones(2, 3, 4)).shape)
E(lambda: vmap(lambda t: t.sum(0), in_dims=1)(x))
'''

PROGRAMS['fn_grad_jac_linearize_functional_call_errors'] = PRE + r'''
from torch.func import grad, jacrev, jacfwd, hessian, functional_call, vjp, jvp
E(lambda: grad(lambda t: t.sum())(torch.tensor([1, 2])))
E(lambda: grad(lambda t: t)(torch.tensor(1.)))
E(lambda: grad(lambda t: t.sum(), argnums=1)(torch.ones(2)))
E(lambda: grad(lambda t, u: (t * u).sum(), argnums=(0, 1))(torch.ones(2), torch.ones(2) * 3))
E(lambda: grad(lambda t: (t * 2).sum())(torch.ones(2, requires_grad=True)))
E(lambda: jacrev(lambda t: t ** 2, chunk_size=1)(torch.tensor([1., 2.])))
E(lambda: jacrev(lambda t: t ** 2, chunk_size=0)(torch.tensor([1., 2.])))
E(lambda: jacfwd(lambda t: t ** 2, randomness='same')(torch.tensor([1., 2.])))
E(lambda: jacrev(lambda t: (t ** 2, t.sum()), has_aux=True)(torch.tensor([1., 2.])))
E(lambda: hessian(lambda t: t.pow(3).sum(), argnums=0)(torch.tensor([1., 2.])))
E(lambda: vjp(lambda t: t * 2, torch.ones(2))[1](torch.ones(3)))
E(lambda: vjp(lambda t: t * 2, torch.ones(2))[1](torch.ones(2), torch.ones(2)))
E(lambda: jvp(lambda t: t * 2, (torch.ones(2),), (torch.ones(3),)))
E(lambda: jvp(lambda t: t * 2, torch.ones(2), torch.ones(2)))
E(lambda: jvp(lambda t: t * 2, (torch.ones(2),), (torch.ones(2, dtype=torch.float64),)))
torch.manual_seed(0)
m = torch.nn.Linear(2, 2)
E(lambda: functional_call(m, {'weight': torch.zeros(2, 2)}, torch.ones(1, 2)))
E(lambda: functional_call(m, {'weight': torch.zeros(2, 2), 'bogus': torch.ones(1)}, (torch.ones(1, 2),), strict=True))
E(lambda: functional_call(m, {'weight': torch.zeros(2, 2)}, (torch.ones(1, 2),), strict=True))
E(lambda: functional_call(m, ({'weight': torch.zeros(2, 2)}, {'weight': torch.ones(2, 2)}), (torch.ones(1, 2),)))
E(lambda: functional_call(m, {'weight': torch.zeros(2, 2)}, (), {'input': torch.ones(1, 2)}))
'''

PROGRAMS['er_legacy_and_loss_shape_mistakes'] = PRE + r'''
torch.manual_seed(0)
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
E(lambda: y.grad)
E(lambda: torch.tensor(x))
E(lambda: torch.tensor(y))
E(lambda: torch.as_tensor(y).grad_fn)
E(lambda: torch.autograd.Variable(torch.ones(2), volatile=True))
E(lambda: torch.autograd.Variable(torch.ones(2), requires_grad=True).grad_fn)
E(lambda: x.data.add_(1))
E(lambda: x.type(torch.float64).grad_fn)
E(lambda: x.new_tensor([1., 2.]).requires_grad)
E(lambda: x.new_tensor(x).requires_grad)
E(lambda: torch.from_numpy(x.detach().numpy()).requires_grad)
E(lambda: x.numpy())
E(lambda: x.detach().numpy())
E(lambda: torch.nn.functional.softmax(x))
E(lambda: torch.nn.functional.log_softmax(x))
E(lambda: torch.nn.functional.sigmoid(x))
E(lambda: torch.nn.functional.tanh(x))
E(lambda: torch.nn.functional.mse_loss(x, torch.ones(1)))
E(lambda: torch.nn.functional.l1_loss(x, torch.ones(3)))
E(lambda: torch.nn.functional.binary_cross_entropy(x.sigmoid(), torch.ones(2, 1)))
E(lambda: torch.nn.functional.cross_entropy(torch.randn(2, 3), torch.tensor([0, 3])))
E(lambda: torch.nn.functional.nll_loss(torch.randn(2, 3), torch.tensor([0., 1.])))
E(lambda: torch.nn.functional.cross_entropy(torch.randn(2, 3), torch.tensor([0, 1]), reduce=False))
E(lambda: torch.nn.functional.cross_entropy(torch.randn(2, 3), torch.tensor([0, 1]), size_average=True))
E(lambda: x.grad.zero_())
'''

PROGRAMS['er_leaf_inplace_init_and_grad_arguments'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
z = torch.zeros(2, requires_grad=True)
E(lambda: z.normal_())
E(lambda: z.uniform_())
E(lambda: z.fill_(1))
E(lambda: z.zero_())
E(lambda: z.copy_(x))
E(lambda: z[0].fill_(1))
with torch.no_grad():
    z[0] = 5
print(z, z._version, z.is_leaf, z.grad_fn)
E(lambda: z.resize_(3))
E(lambda: z.set_(torch.ones(2)))
E(lambda: z.untyped_storage().nbytes())
E(lambda: torch.autograd.backward(y, grad_tensors=torch.ones(2)))
E(lambda: torch.autograd.grad(y, x, torch.ones(2), only_inputs=False))
E(lambda: torch.autograd.grad(y.sum(), x, allow_unused=True, materialize_grads=True, create_graph=True))
E(lambda: y.sum().backward(retain_variables=True))
E(lambda: torch.autograd.grad(outputs=y.sum(), inputs=x, grad_outputs=None, retain_graph=None))
'''

# ---- dtypes and shapes a student varies: half, empty, 0-dim, broadcasting, non-contiguous

PROGRAMS['dt_half_bfloat16_small_model_grads'] = PRE + r'''
torch.manual_seed(0)
for dt in (torch.float16, torch.bfloat16):
    lin = torch.nn.Linear(4, 2).to(dt)
    x = torch.randn(3, 4).to(dt)
    y = lin(x).relu().sum()
    y.backward()
    print(dt, y, y.dtype, lin.weight.grad.dtype)
    print(lin.bias.grad, lin.weight.grad.sum().item())
    a = torch.tensor([1000., 0.001, -3.5], dtype=dt, requires_grad=True)
    (a * a).sum().backward()
    print(a.grad, (a.exp()).dtype)
h = torch.tensor([60000.], dtype=torch.float16, requires_grad=True)
(h * 2).backward()
print(h.grad, (h * 2))
'''

PROGRAMS['bc_empty_zero_dim_broadcast_noncontiguous'] = PRE + r'''
e = torch.zeros(0, 3, requires_grad=True)
s = (e * 2).sum()
s.backward()
print(s, e.grad, e.grad.shape)
m = e.mean()
print(m)
m.backward()
print(e.grad)
z = torch.tensor(3., requires_grad=True)
v = torch.tensor([1., 2., 3.], requires_grad=True)
(z * v).sum().backward()
print(z.grad, v.grad)
a = torch.ones(2, 1, 3, requires_grad=True)
b = torch.ones(4, 1, requires_grad=True)
(a + b).sum().backward()
print(a.grad.shape, a.grad.sum(), b.grad)
base = torch.arange(12., requires_grad=True)
nc = base.view(3, 4).t()[::2]
print(nc.is_contiguous(), nc.shape, nc.stride())
(nc * torch.arange(6.).view(2, 3)).sum().backward()
print(base.grad)
x = torch.randn(3, 4).t().requires_grad_()
(x.exp() * 1).sum().backward()
print(x.grad.stride(), x.stride(), x.grad.is_contiguous())
'''

PROGRAMS['cx_wirtinger_real_loss_and_grad_conj'] = PRE + r'''
z = torch.tensor([1+1j, 2-1j], requires_grad=True)
loss = (z.conj() * z).real.sum()
loss.backward()
print(z.grad, torch.allclose(z.grad, 2 * z))
z.grad = None
f = (z ** 2).abs().sum()
f.backward()
print(z.grad)
w = torch.tensor([0.5+0.5j], dtype=torch.complex128, requires_grad=True)
g, = torch.autograd.grad(w.exp().real.sum(), w)
print(g, g.dtype)
r = torch.tensor([1., 2.], requires_grad=True)
c = r * (1 + 2j)
print(c.dtype, c.grad_fn)
c.abs().sum().backward()
print(r.grad, r.grad.dtype)
print(torch.autograd.grad((z * 1j).imag.sum(), z))
E(lambda: torch.autograd.grad(z * 2, z, torch.ones(2)))
print(torch.autograd.grad(z * 2, z, torch.ones(2, dtype=torch.complex64)))
'''

# fixed: a tensor printed inside torch.func.grad/vjp/jvp (an input's stand-in, anything made inside the call) prints as
# PyTorch's wrapper of the level, GradTrackingTensor(lvl=1, value=...); the caller's arguments and the tensors the
# function captured print as they are.
PROGRAMS['fn_printing_inside_grad_vjp_jvp'] = PRE + r'''
from torch.func import grad, vjp, jvp, grad_and_value
c = torch.tensor([5., 6.])
def f(t):
    print('in', t)
    u = t * 2
    print('u', u, u.shape, u.dtype)
    print('c', c, c * 1, c[0])
    k = torch.ones(2)
    print('k', k, k + c, t.detach())
    with torch.no_grad():
        print('no_grad', t * 3)
    v = (u * c).sum()
    print('v', repr(v), v.requires_grad, v.grad_fn.name())
    print([t[0], t.view(2, 1)])
    return v
print(grad(f)(torch.ones(2)))
print(grad_and_value(f)(torch.tensor([0.5, -1.], dtype=torch.float64)))
out, fn = vjp(lambda t: print('vjp in', t) or t.exp(), torch.zeros(2, 2))
print(out, fn(torch.ones(2, 2)))
print(jvp(lambda t: print('jvp in', t, t.sin()) or t * 2, (torch.ones(2),), (torch.ones(2),)))
def loss(w, x):
    pred = x @ w
    print('pred', pred)
    return pred.pow(2).mean()
print(grad(loss)(torch.tensor([1., -1.]), torch.tensor([[1., 2.], [3., 4.]])))
print(grad(loss, argnums=1)(torch.tensor([1., -1.]), torch.tensor([[1., 2.], [3., 4.]])))
'''

PROGRAMS['rg_understanding_requires_grad_tutorial'] = PRE + r'''
x = torch.tensor(2.0)
W = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(1.0, requires_grad=True)
y = W * x + b
z = y ** 2
loss = z - 1.0
for name, t in [('x', x), ('W', W), ('b', b), ('y', y), ('z', z), ('loss', loss)]:
    print(f"{name}: requires_grad={t.requires_grad}, is_leaf={t.is_leaf}, grad_fn={t.grad_fn}")
y.retain_grad()
z.retain_grad()
loss.backward()
for name, t in [('W', W), ('b', b), ('y', y), ('z', z)]:
    print(name, t.grad, t.retains_grad)
print(loss.grad)
x2 = torch.tensor([1., 2.], requires_grad=True)
c = x2.detach()
c.requires_grad_()
print(c.is_leaf, c.grad_fn, x2.grad_fn)
d = x2 + 0
E(lambda: d.requires_grad_(False))
print(d.detach().requires_grad_(False).requires_grad)
m = torch.nn.Linear(2, 1)
print([(n, p.is_leaf, p.requires_grad, p.grad) for n, p in m.named_parameters()])
m.requires_grad_(False)
print([p.requires_grad for p in m.parameters()], m(x2).requires_grad, m(x2).grad_fn)
'''

PROGRAMS['tl_gradient_penalty_create_graph'] = PRE + r'''
torch.manual_seed(0)
critic = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
opt = torch.optim.Adam(critic.parameters(), lr=1e-2, betas=(0.5, 0.9))
real = torch.randn(6, 2) + 1
fake = torch.randn(6, 2)
for step in range(3):
    alpha = torch.rand(6, 1)
    inter = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    out = critic(inter)
    grads, = torch.autograd.grad(out, inter, grad_outputs=torch.ones_like(out), create_graph=True)
    gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()
    loss = critic(fake).mean() - critic(real).mean() + 10 * gp
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{gp.item():.6f}", f"{loss.item():.6f}", grads.requires_grad, grads.grad_fn.name())
print(inter.grad, critic[0].weight.grad.shape)
'''

# fixed: the order pack hooks see saved tensors in, op by op: inputs sorted by name (mul's other before self, lerp's
# end, self, weight, clamp's max, min, self), then outputs (hypot's result, layer_norm's mean and rstd).
PROGRAMS['sh_pack_order_sweep_ops'] = PRE + r'''
def pack(t):
    print(' pack', tuple(t.shape))
    return t
torch.manual_seed(0)
a = torch.randn(4, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
w = torch.randn(1, 3, requires_grad=True)
cases = [('mul', lambda: a * b), ('mul2', lambda: b * a), ('lerp', lambda: torch.lerp(a, b, w)),
         ('addcmul', lambda: torch.addcmul(a, b, w)), ('addcdiv', lambda: torch.addcdiv(a, b, w)),
         ('addmm', lambda: torch.addmm(b, a.t(), torch.randn(4, 3, requires_grad=True))),
         ('atan2', lambda: torch.atan2(a, b)), ('pow', lambda: a.abs().pow(b)), ('hypot', lambda: torch.hypot(a, w)),
         ('maximum', lambda: torch.maximum(a, w)), ('bmm', lambda: torch.bmm(a.expand(2, 4, 3), torch.randn(2, 3, 5))),
         ('dot', lambda: torch.dot(b, w[0])), ('layer_norm', lambda: torch.nn.functional.layer_norm(a, (3,), b, w[0])),
         ('clamp', lambda: a.clamp(w, b)), ('div', lambda: b / a), ('fmod', lambda: torch.fmod(a, w)),
         ('xlogy', lambda: torch.xlogy(a, w)), ('prelu', lambda: torch.nn.functional.prelu(a, torch.ones(1, requires_grad=True))),
         ('conv1d', lambda: torch.nn.functional.conv1d(a.view(1, 4, 3), torch.randn(2, 4, 2, requires_grad=True))),
         ('linear', lambda: torch.nn.functional.linear(a, torch.randn(5, 3, requires_grad=True), torch.randn(5)))]
for name, f in cases:
    print(name)
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        f()
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
