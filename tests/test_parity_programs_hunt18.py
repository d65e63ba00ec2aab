"""Parity programs from an eighteenth hunt: small autograd programs a teacher or student writes from PyTorch's docs.

The autograd mechanics notes (in-place correctness checks and version counters, multithreaded backward, complex
autograd), ``torch.autograd.functional`` (jacobian / hessian / vjp / jvp / hvp / vhp with create_graph, strict and
vectorize), ``torch.func`` (grad, vjp, jacrev, jacfwd, hessian, vmap, functional_call) on small nn modules, custom
``autograd.Function`` with setup_context / vmap / jvp, gradcheck and gradgradcheck on wrong gradients, tensor and
module hooks, grad modes as decorators, anomaly detection, saved tensor hooks, optimizers' zero_grad and
param_groups, ``nn.utils`` gradient clipping and parameter vectors, and the printing of tensors, grads, modules and
state_dicts. Each program prints values, reprs, grad_fn names and errors and must print exactly what PyTorch prints
(hunt14's harness: ``parity.run_both`` with hunt13's ``E``/``W`` helpers, every warning also printed on stdout).
Programs marked "fixed:" printed something different from PyTorch before this hunt's fix.
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE

PROGRAMS: dict[str, str] = {}

# ---- autograd mechanics: in-place correctness checks, version counters

PROGRAMS['mx_version_counter_views_and_saved'] = PRE + r'''
torch.manual_seed(0)
a = torch.randn(4, requires_grad=True)
b = a * 2
print(b._version, b.is_leaf, b.grad_fn.name())
v = b[1:3]
print(v._version, v._base is b, v.grad_fn)
v.mul_(3)
print(b._version, v._version, b.grad_fn, v.grad_fn)
c = b.exp()
b.add_(1)
print(b._version, c.grad_fn.next_functions)
E(lambda: c.sum().backward())
d = a.sigmoid()
e = d.clone()
d2 = d.view(2, 2)
d2.zero_()
print(d._version, d2._version, d.grad_fn.name(), d2.grad_fn.name())
E(lambda: d.sum().backward())
x = torch.ones(3, requires_grad=True)
y = x.tanh()
z = y * 1
y[0] = 5.
E(lambda: z.sum().backward())
print(x.grad)
'''

PROGRAMS['mx_leaf_inplace_errors_and_no_grad'] = PRE + r'''
torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
E(lambda: w.add_(1))
E(lambda: w[0].mul_(2))
E(lambda: w.view(3).zero_())
with torch.no_grad():
    w.add_(1)
    w[0] = 0.
print(w, w._version, w.requires_grad, w.is_leaf, w.grad_fn)
E(lambda: w.data.add_(1))
print(w._version)
w.detach().add_(1)
print(w._version, w)
p = torch.nn.Parameter(torch.ones(2))
E(lambda: p.relu_())
E(lambda: torch.relu_(p))
E(lambda: p.copy_(torch.zeros(2)))
with torch.no_grad():
    p.copy_(torch.tensor([3., 4.]))
print(p)
'''

PROGRAMS['mx_multithreaded_shared_leaf'] = PRE + r'''
import threading
torch.manual_seed(0)
x = torch.ones(5, 5, requires_grad=True)
results = []
def train_fn():
    y = (x + 3) * (x + 4) * 0.5
    y.sum().backward()
    results.append(threading.current_thread().name is not None)
threads = [threading.Thread(target=train_fn) for _ in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(len(results), x.grad[0], x.grad.sum())
x.grad = None
y = x.pow(2).sum()
done = []
def bw():
    try:
        torch.autograd.grad(y, x, retain_graph=True)
        done.append('ok')
    except RuntimeError as e:
        done.append(str(e)[:40])
ts = [threading.Thread(target=bw) for _ in range(3)]
[t.start() for t in ts]
[t.join() for t in ts]
print(sorted(done), x.grad)
'''

PROGRAMS['mx_complex_autograd_basics'] = PRE + r'''
z = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
print(z, z.dtype, z.requires_grad)
r = z.abs().sum()
r.backward()
print(r, r.grad_fn, z.grad)
z.grad = None
s = (z * z.conj()).real.sum()
print(s.grad_fn, s.grad_fn.next_functions)
s.backward()
print(z.grad)
w = z * (2 + 1j)
E(lambda: w.sum().backward())
E(lambda: torch.autograd.grad(w.sum(), z))
g, = torch.autograd.grad(w.sum(), z, grad_outputs=torch.tensor(1 + 0j))
print(g)
vr = torch.view_as_real(z)
print(vr, vr.grad_fn)
t = vr.pow(2).sum()
print(torch.autograd.grad(t, z))
a = torch.tensor(2 + 1j, requires_grad=True)
print(torch.autograd.grad(a.angle(), a), torch.autograd.grad(a.real * a.imag, a))
'''

# ---- torch.autograd.functional

PROGRAMS['af_jacobian_hessian_student'] = PRE + r'''
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp
torch.manual_seed(0)
def exp_reducer(x):
    return x.exp().sum(dim=1)
inputs = torch.rand(2, 2)
print(jacobian(exp_reducer, inputs))
J = jacobian(exp_reducer, inputs, create_graph=True)
print(J.grad_fn, J.requires_grad)
def exp_adder(x, y):
    return 2 * x.exp() + 3 * y
print(jacobian(exp_adder, (torch.rand(2), torch.rand(2))))
print(jacobian(exp_adder, (torch.rand(2), torch.rand(2)), vectorize=True))
def pow_reducer(x):
    return x.pow(3).sum()
H = hessian(pow_reducer, torch.tensor([[1., 2.], [3., 4.]]))
print(H.shape, H[1, 0])
def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()
print(hessian(pow_adder_reducer, (torch.ones(2), torch.ones(2))))
print(hessian(pow_adder_reducer, (torch.ones(2), torch.ones(2)), vectorize=True, outer_jacobian_strategy="forward-mode"))
E(lambda: hessian(pow_adder_reducer, (torch.ones(2), torch.ones(2)), outer_jacobian_strategy="forward-mode"))
E(lambda: hessian(lambda x: x * 2, torch.ones(2)))
E(lambda: jacobian(lambda x: x * 2, torch.ones(2), strategy="sideways"))
E(lambda: jacobian(lambda x: x.detach(), torch.ones(2), strict=True))
E(lambda: jacobian(lambda x: x.detach(), torch.ones(2), strict=True, vectorize=True))
print(jacobian(lambda x: x.detach(), torch.ones(2)))
'''

PROGRAMS['af_vjp_jvp_hvp_vhp_student'] = PRE + r'''
from torch.autograd.functional import vjp, jvp, hvp, vhp
torch.manual_seed(0)
def exp_reducer(x):
    return x.exp().sum(dim=1)
inputs = torch.tensor([[0., 1.], [2., 0.5]])
v = torch.ones(2)
out, g = vjp(exp_reducer, inputs, v)
print(out, g)
out, g = vjp(exp_reducer, inputs, v, create_graph=True)
print(out.grad_fn, g.grad_fn)
def adder(x, y):
    return 2 * x + 3 * y
print(vjp(adder, (torch.ones(2), torch.ones(2)), torch.ones(2)))
print(jvp(exp_reducer, inputs, torch.ones(2, 2)))
print(jvp(adder, (torch.ones(2), torch.ones(2)), (torch.ones(2), torch.ones(2))))
def pow_reducer(x):
    return x.pow(3).sum()
x = torch.tensor([[1., 2.], [3., 4.]])
print(hvp(pow_reducer, x, torch.ones(2, 2)))
print(vhp(pow_reducer, x, torch.ones(2, 2)))
E(lambda: vjp(exp_reducer, inputs))
E(lambda: vjp(exp_reducer, inputs, torch.ones(3)))
E(lambda: jvp(exp_reducer, inputs))
E(lambda: hvp(exp_reducer, inputs, torch.ones(2, 2)))
E(lambda: vhp(pow_reducer, x, torch.ones(3)))
E(lambda: vjp(lambda x: x.detach().sum(), inputs, strict=True))
print(vjp(lambda x: x.detach().sum(), inputs))
E(lambda: jvp(lambda x: torch.ones(2), torch.ones(2), torch.ones(2), strict=True))
print(jvp(lambda x: torch.ones(2), torch.ones(2), torch.ones(2)))
E(lambda: vjp(lambda x: [x * 2], inputs, torch.ones(2, 2)))
E(lambda: vjp(lambda x: 3, inputs))
'''

# ---- torch.func on small modules

PROGRAMS['fn_functional_call_grad_linear'] = PRE + r'''
from torch.func import functional_call, grad, vmap, jacrev, jacfwd, hessian
torch.manual_seed(0)
model = torch.nn.Linear(3, 2)
params = {k: v.detach() for k, v in model.named_parameters()}
x = torch.randn(4, 3)
t = torch.randn(4, 2)
def loss_fn(params, x, t):
    y = functional_call(model, params, (x,))
    return torch.nn.functional.mse_loss(y, t)
g = grad(loss_fn)(params, x, t)
print(sorted(g), g['weight'].shape, g['bias'])
loss = loss_fn(dict(model.named_parameters()), x, t)
loss.backward()
print(torch.allclose(model.weight.grad, g['weight']), torch.allclose(model.bias.grad, g['bias']))
def per_sample(params, xi, ti):
    return loss_fn(params, xi.unsqueeze(0), ti.unsqueeze(0))
ps = vmap(grad(per_sample), in_dims=(None, 0, 0))(params, x, t)
print(ps['weight'].shape, ps['bias'].shape, torch.allclose(ps['bias'].mean(0), g['bias']))
jr = jacrev(lambda p: functional_call(model, p, (x[0],)))(params)
jf = jacfwd(lambda p: functional_call(model, p, (x[0],)))(params)
print(jr['weight'].shape, jr['bias'], torch.allclose(jr['weight'], jf['weight']))
print(hessian(lambda xx: model(xx).pow(2).sum())(x[0]).shape)
g2, aux = grad(loss_fn, has_aux=False)(params, x, t), None
E(lambda: grad(lambda p: functional_call(model, p, (x,)))(params))
gl, val = torch.func.grad_and_value(loss_fn)(params, x, t)
print(val, val.grad_fn)
'''

PROGRAMS['fn_grad_argnums_aux_errors'] = PRE + r'''
from torch.func import grad, grad_and_value, vjp
def f(x, y):
    return (x * y).sum(), {'p': x * 2}
x = torch.tensor([1., 2.])
y = torch.tensor([3., 4.])
print(grad(f, argnums=(0, 1), has_aux=True)(x, y))
print(grad(f, argnums=1, has_aux=True)(x, y))
E(lambda: grad(f)(x, y))
E(lambda: grad(lambda x: x, argnums=2)(x))
E(lambda: grad(lambda x: x.sum(), argnums=())(x))
E(lambda: grad(lambda x: x.sum(), argnums=1.0)(x))
E(lambda: grad(lambda x: (x.sum(), 1, 2), has_aux=True)(x))
E(lambda: grad(lambda x: x.sum())(3.0))
print(grad(lambda x: x.sin().sum())(torch.tensor([0., 1.])))
print(grad(grad(lambda x: x.sin()))(torch.tensor(0.5)))
out, fn = vjp(lambda x: x ** 2, x)
print(out, fn(torch.ones(2)))
E(lambda: fn(torch.ones(3)))
E(lambda: fn(torch.ones(2), torch.ones(2)))
out, fn, aux = vjp(lambda x: (x * 3, x.sum()), x, has_aux=True)
print(out, fn(torch.ones(2)), aux)
print(grad_and_value(lambda a, b: (a * b).sum(), argnums=1)(x, y))
'''

PROGRAMS['fn_vmap_basics_student'] = PRE + r'''
from torch.func import vmap
torch.manual_seed(0)
batch = torch.randn(3, 4)
w = torch.randn(4)
print(vmap(torch.dot, in_dims=(0, None))(batch, w))
print(vmap(lambda r: r.sum())(batch))
print(vmap(lambda a, b: a * b, in_dims=(1, None), out_dims=1)(batch, torch.tensor(2.)).shape)
E(lambda: vmap(torch.dot)(batch, w))
E(lambda: vmap(lambda x: x, in_dims=2)(batch))
E(lambda: vmap(lambda x: x.item())(batch))
E(lambda: vmap(lambda a, b: a + b)(torch.ones(2), torch.ones(3)))
E(lambda: vmap(lambda x: x, in_dims=(0, 0))(batch))
print(vmap(lambda x: (x, x.sum()), out_dims=(0, None) if False else 0)(batch)[1])
E(lambda: vmap(lambda x: torch.ones(2), out_dims=0)(batch))
print(vmap(lambda x: torch.ones(2) * x.sum())(batch).shape)
print(vmap(vmap(torch.outer))(torch.ones(2, 3, 4), torch.ones(2, 3, 5)).shape)
print(vmap(lambda d: d['a'] + d['b'])({'a': torch.ones(2, 3), 'b': torch.arange(3.)}) if False else vmap(lambda d: d['a'] + d['b'], in_dims=({'a': 0, 'b': None},))({'a': torch.ones(2, 3), 'b': torch.arange(3.)}))
print(vmap(torch.sum, in_dims=1)(batch))
print(vmap(torch.trace)(torch.eye(3).expand(2, 3, 3)))
E(lambda: vmap(lambda x: x, randomness='bad')(batch))
E(lambda: vmap(lambda x: torch.rand(2))(batch))
print(vmap(lambda x: torch.rand(2), randomness='same')(batch).shape)
'''

# ---- custom autograd.Function

PROGRAMS['cf_setup_context_vmap_jvp'] = PRE + r'''
from torch.func import vmap, grad, jacfwd, jacrev
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
    def backward(ctx, gy):
        x, = ctx.saved_tensors
        return 2 * x * gy
    @staticmethod
    def jvp(ctx, gx):
        x, = ctx.saved_tensors
        return 2 * x * gx
    @staticmethod
    def vmap(info, in_dims, x):
        print('vmap rule', info.batch_size, info.randomness, in_dims)
        return MySquare.apply(x), in_dims[0]
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = MySquare.apply(x)
print(y, y.grad_fn.name(), type(y.grad_fn).__name__)
y.sum().backward()
print(x.grad)
print(vmap(MySquare.apply)(torch.arange(6.).view(2, 3)))
print(grad(lambda t: MySquare.apply(t).sum())(torch.tensor([1., 2.])))
print(jacfwd(MySquare.apply)(torch.tensor([1., 2.])))
print(jacrev(MySquare.apply)(torch.tensor([1., 2.])))
print(vmap(grad(lambda t: MySquare.apply(t)))(torch.tensor([1., 2.])))
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 1.]))
    print(fwAD.unpack_dual(MySquare.apply(d)).tangent)
'''

PROGRAMS['cf_forward_with_ctx_errors_under_func'] = PRE + r'''
from torch.func import vmap, grad
class Old(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.exp()
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x.exp()
x = torch.tensor([0., 1.], requires_grad=True)
print(Old.apply(x))
E(lambda: vmap(Old.apply)(torch.ones(2, 2)))
E(lambda: grad(lambda t: Old.apply(t).sum())(torch.ones(2)))
class NoVmap(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x * 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g * 2
E(lambda: vmap(NoVmap.apply)(torch.ones(2, 2)))
print(grad(lambda t: NoVmap.apply(t).sum())(torch.ones(2)))
class Gen(torch.autograd.Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x):
        return x * 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g * 2
print(vmap(Gen.apply)(torch.ones(2, 2)))
class Both(Gen):
    @staticmethod
    def vmap(info, in_dims, x):
        return x * 2, 0
E(lambda: vmap(Both.apply)(torch.ones(2, 2)))
class BadVmap(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x * 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g * 2
    @staticmethod
    def vmap(info, in_dims, x):
        return x * 2
E(lambda: vmap(BadVmap.apply)(torch.ones(2, 2)))
'''

PROGRAMS['cf_gradcheck_wrong_gradients'] = PRE + r'''
from torch.autograd import gradcheck, gradgradcheck
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
x = torch.tensor([0.5, 1.0], dtype=torch.double, requires_grad=True)
E(lambda: gradcheck(BadExp.apply, (x,)))
print(gradcheck(BadExp.apply, (x,), raise_exception=False))
E(lambda: gradcheck(BadExp.apply, (x,), fast_mode=True))
class Good(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 3 * x.detach() ** 2
print(gradcheck(Good.apply, (x,)))
E(lambda: gradgradcheck(Good.apply, (x,)))
print(gradgradcheck(lambda t: t ** 3, (x,)))
E(lambda: gradcheck(lambda t: t ** 2, (torch.tensor([1., 2.], requires_grad=True),)))
E(lambda: gradcheck(lambda t: t ** 2, (torch.tensor([1., 2.], dtype=torch.double),)))
E(lambda: gradcheck(lambda t: t.detach() * 2, (x,)))
print(gradcheck(lambda t: t.detach() * 2, (x,), raise_exception=False))
'''

# ---- hooks

PROGRAMS['hk_module_hooks_full_backward'] = PRE + r'''
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU(), torch.nn.Linear(2, 1))
def fwd_pre(mod, args):
    print('pre', type(mod).__name__, [a.shape for a in args])
def fwd(mod, args, out):
    print('fwd', type(mod).__name__, out.shape, out.grad_fn.name())
def bwd(mod, gin, gout):
    print('bwd', type(mod).__name__, [None if g is None else tuple(g.shape) for g in gin], [tuple(g.shape) for g in gout])
def bwd_pre(mod, gout):
    print('bwd_pre', type(mod).__name__, [tuple(g.shape) for g in gout])
hs = []
for m in net:
    hs += [m.register_forward_pre_hook(fwd_pre), m.register_forward_hook(fwd),
           m.register_full_backward_hook(bwd), m.register_full_backward_pre_hook(bwd_pre)]
x = torch.randn(4, 3)
y = net(x)
print(y.grad_fn.name())
y.sum().backward()
x2 = torch.randn(4, 3, requires_grad=True)
net(x2).sum().backward()
for h in hs:
    h.remove()
print(net(x).grad_fn.name())
print(net._forward_hooks, net[0]._forward_hooks, net[0]._backward_hooks)
'''

PROGRAMS['hk_module_hooks_modify_and_kwargs'] = PRE + r'''
torch.manual_seed(0)
lin = torch.nn.Linear(2, 2)
h1 = lin.register_forward_pre_hook(lambda m, args: (args[0] * 0,))
print(lin(torch.ones(1, 2)))
h1.remove()
h2 = lin.register_forward_hook(lambda m, args, out: out + 100)
print(lin(torch.ones(1, 2)))
h2.remove()
def pre_kw(m, args, kwargs):
    print('kw', sorted(kwargs))
    return args, kwargs
class M(torch.nn.Module):
    def forward(self, x, scale=1.0):
        return x * scale
m = M()
m.register_forward_pre_hook(pre_kw, with_kwargs=True)
m.register_forward_hook(lambda mod, args, kwargs, out: out + kwargs.get('scale', 0), with_kwargs=True)
print(m(torch.ones(2), scale=3.0))
print(m(torch.ones(2)))
E(lambda: m.register_forward_pre_hook(lambda m, a: None, prepend=True, bogus=1))
def bad_pre(m, gout):
    return (gout[0] * 10,)
lin2 = torch.nn.Linear(2, 1)
lin2.register_full_backward_pre_hook(bad_pre)
x = torch.ones(1, 2, requires_grad=True)
lin2(x).sum().backward()
print(x.grad, lin2.weight.grad)
def bwd_hook(m, gin, gout):
    return (gin[0] * 0 + 7,)
lin3 = torch.nn.Linear(2, 1)
lin3.register_full_backward_hook(bwd_hook)
x = torch.ones(1, 2, requires_grad=True)
lin3(x).sum().backward()
print(x.grad)
def wrong_count(m, gin, gout):
    return (gin[0], gin[0])
lin4 = torch.nn.Linear(2, 1)
lin4.register_full_backward_hook(wrong_count)
x = torch.ones(1, 2, requires_grad=True)
E(lambda: lin4(x).sum().backward())
'''

PROGRAMS['hk_tensor_hooks_student'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
h = y.register_hook(lambda g: print('grad of y', g))
y.register_hook(lambda g: g * 10)
z = y.sum()
z.backward()
print(x.grad)
h.remove()
x.grad = None
(x * 2).register_hook(lambda g: None)
w = x.exp()
w.retain_grad()
w.register_hook(lambda g: g + 1)
w.sum().backward()
print(w.grad, x.grad)
E(lambda: torch.ones(2).register_hook(lambda g: g))
leaf = torch.ones(2, requires_grad=True)
leaf.register_hook(lambda g: g * 3)
(leaf * leaf).sum().backward()
print(leaf.grad)
print(list(leaf._backward_hooks.values()) if getattr(leaf, '_backward_hooks', None) is not None else None)
x2 = torch.ones(2, requires_grad=True)
y2 = x2 + 1
y2.register_hook(lambda g: g.zero_())
E(lambda: y2.sum().backward())
print(x2.grad)
'''

# ---- grad modes as decorators

PROGRAMS['gm_decorators_student'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
@torch.no_grad()
def f(t):
    return t * 2
@torch.no_grad
def f2(t):
    return t * 2
@torch.enable_grad()
def g(t):
    return t * 2
@torch.inference_mode()
def h(t):
    return t * 2
@torch.inference_mode
def h2(t):
    return t * 2
@torch.inference_mode(False)
def h3(t):
    return t * 2
@torch.set_grad_enabled(False)
def k(t):
    return t * 2
print(f(x).requires_grad, f2(x).requires_grad, f.__name__)
with torch.no_grad():
    print(g(x).requires_grad, g(x).grad_fn)
r = h(x)
print(r.requires_grad, r.is_inference(), h2(x).is_inference(), h3(x).is_inference(), h3(x).requires_grad)
print(k(x).requires_grad, torch.is_grad_enabled())
E(lambda: r.add_(1))
E(lambda: r.requires_grad_())
print(r * 2)
E(lambda: r * x)
E(lambda: torch.autograd.grad((r * x.detach()).sum(), x))
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
torch.set_grad_enabled(False)
print((x * 2).requires_grad)
torch.set_grad_enabled(True)
print(torch.no_grad(), type(torch.inference_mode()).__name__)
E(lambda: torch.no_grad(lambda t: t))
E(lambda: torch.set_grad_enabled())
'''

PROGRAMS['gm_detect_anomaly_nan'] = PRE + r'''
import warnings
warnings.simplefilter("ignore")
class MyFunc(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        return g / 0 * 0
x = torch.ones(2, requires_grad=True)
with torch.autograd.detect_anomaly():
    out = MyFunc.apply(x)
    E(lambda: out.sum().backward())
a = torch.tensor([0.], requires_grad=True)
with torch.autograd.detect_anomaly():
    b = a.sqrt()
    E(lambda: (b * 0).sum().backward())
    c = torch.tensor([-1.], requires_grad=True)
    E(lambda: c.log().sum().backward())
    d = torch.tensor([0.], requires_grad=True)
    E(lambda: (d / d).sum().backward())
    print(torch.is_anomaly_enabled())
print(torch.is_anomaly_enabled())
print(torch.autograd.detect_anomaly.__name__)
'''

PROGRAMS['sh_saved_tensors_hooks_student'] = PRE + r'''
torch.manual_seed(0)
log = []
def pack(t):
    log.append(('pack', tuple(t.shape), t.requires_grad))
    return t.clone()
def unpack(t):
    log.append(('unpack', tuple(t.shape)))
    return t
a = torch.ones(3, requires_grad=True)
b = torch.ones(3, requires_grad=True) * 2
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = a * b
    z = y.exp()
print(log)
z.sum().backward()
print(log[-2:], a.grad)
log.clear()
with torch.autograd.graph.saved_tensors_hooks(lambda t: t.shape, lambda s: torch.zeros(s)):
    q = a.pow(2)
q.sum().backward()
print(a.grad)
with torch.autograd.graph.save_on_cpu():
    w = (a * 3).sin()
w.sum().backward()
print(a.grad)
with torch.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
    E(lambda: torch.autograd.graph.saved_tensors_hooks(pack, unpack).__enter__())
def bad_unpack(t):
    return torch.zeros(2)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, bad_unpack):
    r = a * b
E(lambda: r.sum().backward())
'''

# ---- optimizers

PROGRAMS['op_zero_grad_param_groups'] = PRE + r'''
torch.manual_seed(0)
model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
print(opt)
loss = model(torch.ones(3, 2)).sum()
loss.backward()
print(model.weight.grad, model.bias.grad)
opt.step()
print(model.weight, model.bias)
opt.zero_grad(set_to_none=False)
print(model.weight.grad, model.bias.grad)
opt.zero_grad()
print(model.weight.grad)
print(len(opt.param_groups), sorted(opt.param_groups[0]))
print(opt.state_dict()['param_groups'])
print(opt.state_dict()['state'])
opt2 = torch.optim.Adam([{'params': [model.weight]}, {'params': [model.bias], 'lr': 1.0}], lr=0.01)
print(opt2)
for g in opt2.param_groups:
    g['lr'] *= 0.5
print([g['lr'] for g in opt2.param_groups])
E(lambda: opt2.add_param_group({'params': [model.bias]}))
E(lambda: torch.optim.SGD([], lr=0.1))
E(lambda: torch.optim.SGD(model.parameters(), lr=-1))
E(lambda: torch.optim.SGD(model.weight, lr=0.1))
E(lambda: torch.optim.Adam(model.parameters(), betas=(1.0, 0.9)))
'''

PROGRAMS['op_adam_state_and_load'] = PRE + r'''
torch.manual_seed(0)
w = torch.nn.Parameter(torch.tensor([1., -2.]))
opt = torch.optim.Adam([w], lr=0.1)
for i in range(3):
    opt.zero_grad()
    loss = (w ** 2).sum()
    loss.backward()
    opt.step()
    print(i, loss.item(), w.data)
sd = opt.state_dict()
print(sd['state'][0]['step'], sd['state'][0]['exp_avg'], sd['state'][0]['exp_avg_sq'])
print(sd['param_groups'])
opt2 = torch.optim.Adam([w], lr=0.5)
opt2.load_state_dict(sd)
print(opt2.param_groups[0]['lr'], opt2.state[w]['step'])
E(lambda: opt2.load_state_dict({'state': {}, 'param_groups': []}))
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.1)
for i in range(4):
    opt.step()
    sched.step()
    print(sched.get_last_lr())
print(sched.state_dict())
'''

# ---- nn.utils

PROGRAMS['nu_clip_grad_and_vectors'] = PRE + r'''
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.Linear(2, 1))
model(torch.randn(5, 3)).sum().backward()
grads = [p.grad.clone() for p in model.parameters()]
total = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5)
print(total, total.dtype, total.grad_fn)
print(torch.linalg.vector_norm(torch.stack([g.norm() for g in model.parameters() for g in [g.grad]])))
for p, g in zip(model.parameters(), grads):
    p.grad.copy_(g)
print(torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, norm_type='inf'))
print(torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, norm_type=1))
torch.nn.utils.clip_grad_value_(model.parameters(), clip_value=0.1)
print([p.grad for p in model.parameters()])
vec = torch.nn.utils.parameters_to_vector(model.parameters())
print(vec.shape, vec.grad_fn)
torch.nn.utils.vector_to_parameters(torch.arange(11.), model.parameters())
print(model[0].weight, model[1].bias)
E(lambda: torch.nn.utils.vector_to_parameters(torch.arange(11.).view(1, 11), model.parameters()))
E(lambda: torch.nn.utils.vector_to_parameters([1.], model.parameters()))
t = torch.ones(2, requires_grad=True)
t.grad = torch.tensor([float('nan'), 1.])
E(lambda: torch.nn.utils.clip_grad_norm_([t], 1.0, error_if_nonfinite=True))
print(torch.nn.utils.clip_grad_norm_([t], 1.0))
print(torch.nn.utils.clip_grad_norm_([], 1.0))
u = torch.ones(2, requires_grad=True)
print(torch.nn.utils.clip_grad_norm_(u, 1.0), u.grad)
'''

# ---- printing

PROGRAMS['pr_tensors_grads_modules_state_dict'] = PRE + r'''
torch.manual_seed(0)
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(2, 3)
        self.bn = torch.nn.BatchNorm1d(3)
        self.register_buffer('steps', torch.zeros((), dtype=torch.long))
        self.scale = torch.nn.Parameter(torch.ones(1))
    def forward(self, x):
        return self.bn(self.fc(x)) * self.scale
net = Net()
print(net)
sd = net.state_dict()
print(list(sd.keys()))
print(sd['bn.num_batches_tracked'], sd['steps'], sd['scale'])
print(type(sd).__name__)
out = net(torch.randn(4, 2))
print(out.grad_fn, out.grad_fn.next_functions)
out.sum().backward()
print(net.scale.grad, net.fc.bias.grad)
print(net.fc.weight)
print(dict(net.named_buffers()))
print([n for n, _ in net.named_modules()])
print(net.bn.running_mean)
print(net.bn.weight.grad)
print(net.scale, repr(net.scale.data))
print(torch.nn.ParameterList([torch.nn.Parameter(torch.ones(2)), torch.nn.Parameter(torch.zeros(3, 2))]))
print(torch.nn.ParameterDict({'a': torch.nn.Parameter(torch.ones(2))}))
print(torch.nn.ModuleDict({'act': torch.nn.ReLU(), 'lin': torch.nn.Linear(1, 1, bias=False)}))
'''

PROGRAMS['fn_model_ensembling_stack_module_state'] = PRE + r'''
import copy
from torch.func import stack_module_state, functional_call, vmap
torch.manual_seed(0)
class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(4, 3)
        self.fc2 = torch.nn.Linear(3, 2)
    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))
models = [MLP() for _ in range(3)]
params, buffers = stack_module_state(models)
print(sorted(params), params['fc1.weight'].shape, params['fc1.weight'].requires_grad, params['fc1.weight'].is_leaf, buffers)
base = copy.deepcopy(models[0])
def fmodel(params, buffers, x):
    return functional_call(base, (params, buffers), (x,))
x = torch.randn(5, 4)
out = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, x)
print(out.shape, torch.allclose(out[1], models[1](x)))
mb = torch.randn(3, 5, 4)
out2 = vmap(fmodel)(params, buffers, mb)
print(out2.shape, torch.allclose(out2[2], models[2](mb[2])))
E(lambda: stack_module_state([]))
E(lambda: stack_module_state([MLP(), torch.nn.Linear(4, 3)]))
E(lambda: functional_call(models[0], {'fc1.weight': torch.ones(3, 4)}, (x,), strict=True))
print(functional_call(models[0], {'fc1.weight': torch.zeros(3, 4), 'fc1.bias': torch.zeros(3)}, x).shape)
E(lambda: functional_call(models[0], ({'fc1.weight': torch.ones(3, 4)}, {'fc1.weight': torch.ones(3, 4)}), (x,)))
'''

PROGRAMS['fn_jacrev_jacfwd_options'] = PRE + r'''
from torch.func import jacrev, jacfwd, hessian, jvp
torch.manual_seed(0)
def f(x, y):
    return x.sin() * y, (x * y).sum()
x = torch.tensor([0.1, 0.2, 0.3])
y = torch.tensor([1., 2., 3.])
j = jacrev(f, argnums=(0, 1))(x, y)
print(type(j).__name__, len(j), j[0][0], j[1][1])
print(jacrev(f, chunk_size=1)(x, y)[0])
E(lambda: jacrev(f, chunk_size=0)(x, y))
print(jacfwd(lambda a: a ** 2, randomness='same')(x))
E(lambda: jacfwd(lambda a: a + torch.rand(3))(x))
print(jacfwd(lambda a: a + torch.rand(3), randomness='same')(x))
def g(a):
    return a.sin(), a.cos().sum()
print(jacrev(g, has_aux=True)(x)[1])
print(hessian(lambda a: (a ** 3).sum())(x))
out, tan = jvp(lambda a: a.exp(), (torch.zeros(2),), (torch.ones(2),))
print(out, tan)
E(lambda: jvp(lambda a: a.exp(), torch.zeros(2), torch.ones(2)))
E(lambda: jvp(lambda a: a.exp(), (torch.zeros(2),), (torch.ones(3),)))
o, t, aux = jvp(lambda a: (a * 2, a.sum()), (x,), (y,), has_aux=True)
print(o, t, aux)
print(jacrev(jacrev(lambda a: a.pow(3).sum()))(x))
print(jacfwd(jacrev(lambda a: (a.sin() * a).sum()))(torch.tensor([1.])))
'''

PROGRAMS['cf_once_differentiable_and_double_backward'] = PRE + r'''
from torch.autograd.function import once_differentiable
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        print('in backward', g.requires_grad, torch.is_grad_enabled())
        return 2 * x * g
x = torch.tensor([1., 2.], requires_grad=True)
y = Sq.apply(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.requires_grad, g.grad_fn)
E(lambda: g.sum().backward())
y = Sq.apply(x)
g, = torch.autograd.grad(y.sum(), x)
print(g, g.requires_grad)
class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x ** 2 * g
y = Twice.apply(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.grad_fn)
g2, = torch.autograd.grad(g.sum(), x)
print(g2)
print(torch.autograd.gradgradcheck(Twice.apply, (x.double().detach().requires_grad_(),)))
print(torch.autograd.gradcheck(Sq.apply, (x.double().detach().requires_grad_(),)))
E(lambda: torch.autograd.gradgradcheck(Sq.apply, (x.double().detach().requires_grad_(),)))
'''

PROGRAMS['cf_gradcheck_options_messages'] = PRE + r'''
from torch.autograd import gradcheck
x = torch.tensor([0.3, 0.7], dtype=torch.double, requires_grad=True)
print(gradcheck(torch.sin, (x,), check_forward_ad=True))
print(gradcheck(torch.sin, (x,), check_batched_grad=True))
print(gradcheck(torch.sin, (x,), check_backward_ad=False, check_forward_ad=True))
print(gradcheck(torch.sin, x))
class NoFwd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
E(lambda: gradcheck(NoFwd.apply, (x,), check_forward_ad=True))
class WrongFwd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g * 2
    @staticmethod
    def jvp(ctx, t):
        return t * 3
E(lambda: gradcheck(WrongFwd.apply, (x,), check_forward_ad=True))
E(lambda: gradcheck(WrongFwd.apply, (x,), check_forward_ad=True, check_backward_ad=False, fast_mode=True))
z = torch.tensor([0.3 + 0.1j], dtype=torch.cdouble, requires_grad=True)
print(gradcheck(torch.exp, (z,)))
class BadC(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * x
    @staticmethod
    def backward(ctx, g):
        return g * 2
E(lambda: gradcheck(BadC.apply, (z,)))
E(lambda: gradcheck(lambda a: a.sum(), (torch.ones(2, dtype=torch.double, requires_grad=True),), atol=-1))
print(gradcheck(lambda a, b: a * b, (x, 2.0)))
E(lambda: gradcheck(lambda a: (a, a.detach().requires_grad_()), (x,)))
print(gradcheck(lambda a: a.sum(), (torch.ones(2, dtype=torch.double, requires_grad=True),), eps=1e-3, atol=1e-4, rtol=1e-2))
'''

PROGRAMS['pr_module_utilities_student'] = PRE + r'''
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Tanh(), torch.nn.Linear(2, 1))
r = net.load_state_dict({'0.weight': torch.ones(2, 2), 'extra': torch.ones(1)}, strict=False)
print(r)
print(r.missing_keys, r.unexpected_keys)
E(lambda: net.load_state_dict({'0.weight': torch.ones(2, 2)}))
E(lambda: net.load_state_dict({**net.state_dict(), '0.weight': torch.ones(3, 2)}))
E(lambda: net.load_state_dict({**net.state_dict(), 'foo': torch.ones(1)}))
print(net.load_state_dict(net.state_dict()))
net.requires_grad_(False)
print([p.requires_grad for p in net.parameters()])
net[2].requires_grad_()
print([n for n, p in net.named_parameters() if p.requires_grad])
print(list(dict(net.named_parameters(prefix='model')).keys()))
net.apply(lambda m: torch.nn.init.zeros_(m.bias) if isinstance(m, torch.nn.Linear) else None)
print(net[0].bias, net[2].bias)
net.double()
print(net[0].weight.dtype, net(torch.ones(1, 2, dtype=torch.double)))
print(net.training, net.eval().training, net[1].training)
E(lambda: net(torch.ones(1, 2)))
print(sum(p.numel() for p in net.parameters()))
net.zero_grad()
print(net[2].weight.grad)
net[2].weight.grad = torch.ones(1, 2, dtype=torch.double)
net.zero_grad(set_to_none=False)
print(net[2].weight.grad)
E(lambda: setattr(net[0], 'weight', torch.ones(2, 2)))
E(lambda: net.get_submodule('5'))
E(lambda: net.get_parameter('0.nope'))
print(net.get_parameter('2.bias'))
'''

PROGRAMS['op_various_optimizers_steps'] = PRE + r'''
torch.manual_seed(0)
def run(cls, **kw):
    w = torch.nn.Parameter(torch.tensor([1.0, -1.5, 0.5]))
    opt = cls([w], **kw)
    for _ in range(3):
        opt.zero_grad()
        loss = (w ** 2 * torch.tensor([1., 2., 3.])).sum()
        loss.backward()
        opt.step()
    print(cls.__name__, w.data)
run(torch.optim.SGD, lr=0.1)
run(torch.optim.SGD, lr=0.1, momentum=0.9, nesterov=True)
run(torch.optim.SGD, lr=0.1, weight_decay=0.1, maximize=True)
run(torch.optim.Adam, lr=0.1, amsgrad=True)
run(torch.optim.AdamW, lr=0.1)
run(torch.optim.RMSprop, lr=0.01, momentum=0.5, centered=True)
run(torch.optim.Adagrad, lr=0.1)
run(torch.optim.Adadelta)
run(torch.optim.Adamax, lr=0.1)
run(torch.optim.NAdam, lr=0.1)
run(torch.optim.RAdam, lr=0.1)
run(torch.optim.Rprop, lr=0.1)
run(torch.optim.ASGD, lr=0.1)
E(lambda: torch.optim.SGD([torch.nn.Parameter(torch.ones(1))], lr=0.1, nesterov=True))
E(lambda: torch.optim.Adam([torch.nn.Parameter(torch.ones(1))], lr=0.1, weight_decay=-1))
E(lambda: torch.optim.Adam([torch.ones(1)], lr=0.1))
w = torch.nn.Parameter(torch.ones(2))
opt = torch.optim.SGD([w], lr=1.0)
print(opt.step())
def closure():
    opt.zero_grad()
    l = (w * 3).sum()
    l.backward()
    return l
print(opt.step(closure), w)
print(torch.optim.LBFGS([w]).state_dict()['param_groups'])
'''

PROGRAMS['op_lr_schedulers_student'] = PRE + r'''
torch.manual_seed(0)
w = torch.nn.Parameter(torch.ones(1))
def mk():
    return torch.optim.SGD([w], lr=1.0)
opt = mk()
s = torch.optim.lr_scheduler.LambdaLR(opt, lambda e: 0.5 ** e)
lrs = []
for _ in range(4):
    opt.step(); s.step(); lrs.append(s.get_last_lr()[0])
print(lrs)
opt = mk()
s = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4)
lrs = []
for _ in range(5):
    opt.step(); s.step(); lrs.append(round(s.get_last_lr()[0], 6))
print(lrs)
opt = mk()
s = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
opt.step(); s.step()
print(s.get_last_lr(), opt.param_groups[0]['lr'], opt.param_groups[0]['initial_lr'])
opt = mk()
s = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[1, 3], gamma=0.1)
lrs = []
for _ in range(4):
    opt.step(); s.step(); lrs.append(s.get_last_lr()[0])
print(lrs)
opt = mk()
s = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=1, factor=0.5)
for loss in [1.0, 1.0, 1.0, 1.0, 0.5, 0.5, 0.5]:
    opt.step(); s.step(loss)
    print(opt.param_groups[0]['lr'], end=' ')
print()
opt = mk()
s = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=5)
lrs = []
for _ in range(4):
    opt.step(); s.step(); lrs.append(round(s.get_last_lr()[0], 6))
print(lrs)
opt = mk()
s = torch.optim.lr_scheduler.StepLR(opt, step_size=1)
s.step()
print(opt.param_groups[0]['lr'])
E(lambda: torch.optim.lr_scheduler.StepLR(torch.ones(1), 1))
opt = mk()
sch = torch.optim.lr_scheduler.SequentialLR(opt, [torch.optim.lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=2), torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)], milestones=[2])
lrs = []
for _ in range(5):
    opt.step(); sch.step(); lrs.append(sch.get_last_lr()[0])
print(lrs)
'''

PROGRAMS['pr_tensor_printing_grad_variants'] = PRE + r'''
torch.manual_seed(0)
x = torch.tensor([1.5, -2.25, 1e-5], requires_grad=True)
print(x)
print(x * 2)
print(x.double() * 1)
print((x * 1).half())
print(x.sum(), x.mean(), x.max(), x.argmax())
print(x[0], x[1:], x[None])
print(x.detach(), x.data)
y = (x ** 2).sum()
y.backward()
print(x.grad, x.grad.requires_grad)
print(repr(torch.nn.Parameter(torch.tensor([1., 2.], dtype=torch.float64))))
print(torch.nn.Parameter(torch.ones(2, dtype=torch.half), requires_grad=False))
print(torch.zeros(2, 0, requires_grad=True))
print(torch.randn(2, 3, requires_grad=True).t())
print(torch.tensor(3., requires_grad=True) * 2)
print(torch.tensor([1 + 1j], requires_grad=True) * 2)
print(torch.arange(1200.).requires_grad_() + 0)
torch.set_printoptions(precision=2)
print(torch.tensor([1.23456, 1e-8], requires_grad=True))
torch.set_printoptions(sci_mode=False)
print(torch.tensor([1.23456, 1e-8], requires_grad=True))
torch.set_printoptions(profile='default')
print(x.grad_fn, (x * 1).grad_fn.next_functions[0][0].variable is x)
a = torch.ones(2, requires_grad=True)
b, c = a.unbind()
print(b, c, a.split(1), a.chunk(2))
print(a.view(2, 1).expand(2, 3), a.unsqueeze(0).transpose(0, 1))
print(torch.max(torch.tensor([[1., 5.], [3., 2.]], requires_grad=True), dim=1))
print(torch.sort(torch.tensor([3., 1., 2.], requires_grad=True)))
'''

PROGRAMS['mx_grad_accumulation_and_retain'] = PRE + r'''
torch.manual_seed(0)
w = torch.randn(2, requires_grad=True)
for i in range(3):
    loss = (w * (i + 1)).sum()
    loss.backward()
print(w.grad)
x = torch.ones(2, requires_grad=True)
y = x * 3
y.retain_grad()
print(y.retains_grad, x.retains_grad)
z = y * y
z.sum().backward(retain_graph=True)
print(y.grad, x.grad)
z.sum().backward()
print(y.grad, x.grad)
E(lambda: x.retain_grad() or print('leaf ok'))
E(lambda: torch.ones(2).retain_grad())
print(z.grad)
a = torch.ones(3, requires_grad=True)
b = a * 2
c = b.sum()
c.backward(inputs=[b])
print(a.grad, b.grad)
E(lambda: c.backward(inputs=[]))
d = (a * 4).sum()
d.backward(inputs=a)
print(a.grad)
e = torch.ones(2, requires_grad=True)
out = e * 2
E(lambda: out.backward())
out.backward(torch.tensor([1., 0.5]))
print(e.grad)
E(lambda: out.backward(torch.ones(3), retain_graph=True))
E(lambda: out.backward(torch.ones(2, dtype=torch.long)))
'''

PROGRAMS['fw_forward_ad_tutorial_modules'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
from torch.func import functional_call
torch.manual_seed(0)
primal = torch.randn(10, 10)
tangent = torch.randn(10, 10)
def fn(x, y):
    return x ** 2 + y ** 2
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    print(fwAD.unpack_dual(dual_input).tangent is tangent)
    plain_tensor = torch.randn(10, 10)
    dual_output = fn(dual_input, plain_tensor)
    jvp = fwAD.unpack_dual(dual_output).tangent
    print(torch.allclose(jvp, 2 * primal * tangent), type(fwAD.unpack_dual(dual_output)).__name__)
    print(fwAD.unpack_dual(dual_output)._fields)
print(fwAD.unpack_dual(dual_output).tangent)
model = torch.nn.Linear(5, 5)
input = torch.randn(16, 5)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))
    out = model(input)
    jvp = fwAD.unpack_dual(out).tangent
    print(jvp.shape, torch.allclose(jvp, input @ tangents['weight'].t() + tangents['bias']))
model2 = torch.nn.Linear(5, 5)
with fwAD.dual_level():
    dual_params = {}
    for name, p in params.items():
        dual_params[name] = fwAD.make_dual(p, tangents[name])
    out = functional_call(model2, dual_params, input)
    jvp2 = fwAD.unpack_dual(out).tangent
print(torch.allclose(jvp, jvp2))
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
fn = Fn.apply
primal = torch.randn(10, 10, dtype=torch.double, requires_grad=True)
tangent = torch.randn(10, 10)
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn(dual_input)
    jvp = fwAD.unpack_dual(dual_output).tangent
print(jvp.dtype, torch.allclose(jvp, tangent * primal.exp()))
print(torch.autograd.gradcheck(Fn.apply, (primal,), check_forward_ad=True, check_backward_ad=False, check_undefined_grad=False, check_batched_grad=False))
E(lambda: fwAD.make_dual(primal, tangent))
with fwAD.dual_level():
    E(lambda: fwAD.make_dual(primal, torch.randn(3)))
    E(lambda: fwAD.make_dual(primal, torch.randn(10, 10, dtype=torch.long)))
    E(lambda: fwAD.make_dual(torch.arange(3), torch.arange(3)))
'''

PROGRAMS['fn_per_sample_grads_cnn'] = PRE + r'''
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, vmap, grad
torch.manual_seed(0)
class SimpleCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 2, 3, 1)
        self.fc1 = nn.Linear(2 * 3 * 3, 4)
    def forward(self, x):
        x = self.conv1(x)
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        return F.log_softmax(x, dim=1)
def loss_fn(predictions, targets):
    return F.nll_loss(predictions, targets)
model = SimpleCNN()
data = torch.randn(3, 1, 8, 8)
targets = torch.tensor([0, 3, 1])
def compute_grad(sample, target):
    sample = sample.unsqueeze(0)
    target = target.unsqueeze(0)
    loss = loss_fn(model(sample), target)
    return torch.autograd.grad(loss, list(model.parameters()))
per_sample_grads = [compute_grad(data[i], targets[i]) for i in range(3)]
per_sample_grads = zip(*per_sample_grads)
per_sample_grads = [torch.stack(shards) for shards in per_sample_grads]
print([g.shape for g in per_sample_grads])
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
    print(ft_per_sample_grad.shape, torch.allclose(per_sample_grad, ft_per_sample_grad, atol=3e-3, rtol=1e-5))
model.train()
class WithDropout(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 2)
        self.drop = nn.Dropout(0.5)
    def forward(self, x):
        return self.drop(self.lin(x))
wd = WithDropout()
p2 = {k: v.detach() for k, v in wd.named_parameters()}
E(lambda: vmap(grad(lambda p, x: functional_call(wd, p, (x,)).sum()), in_dims=(None, 0))(p2, torch.randn(4, 3)))
print(vmap(grad(lambda p, x: functional_call(wd, p, (x,)).sum()), in_dims=(None, 0), randomness='different')(p2, torch.randn(4, 3))['lin.bias'].shape)
wd.eval()
print(vmap(grad(lambda p, x: functional_call(wd, p, (x,)).sum()), in_dims=(None, 0))(p2, torch.randn(4, 3))['lin.bias'])
'''

PROGRAMS['fn_vmap_batchnorm_errors_and_replace'] = PRE + r'''
from torch.func import vmap, functional_call, replace_all_batch_norm_modules_
torch.manual_seed(0)
bn = torch.nn.BatchNorm1d(3)
x = torch.randn(2, 4, 3)
E(lambda: vmap(bn)(x))
bn.eval()
print(vmap(bn)(x).shape)
bn.train()
net = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.BatchNorm1d(3))
replace_all_batch_norm_modules_(net)
print(net[1].running_mean, net[1].running_var, net[1].track_running_stats, net[1].num_batches_tracked)
print(vmap(net)(x).shape)
print(net)
bn2 = torch.nn.BatchNorm1d(3, track_running_stats=False)
print(vmap(bn2)(x).shape)
bn3 = torch.nn.BatchNorm1d(3)
E(lambda: vmap(lambda t: functional_call(bn3, dict(bn3.named_parameters()), (t,)))(x))
'''

PROGRAMS['gf_grad_fn_saved_attrs_student'] = PRE + r'''
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = x.pow(3)
print(y.grad_fn.name(), y.grad_fn._saved_exponent, y.grad_fn._saved_self is not None)
s = x.sum(dim=1, keepdim=True)
print(s.grad_fn.name(), s.grad_fn._saved_dim, s.grad_fn._saved_keepdim, s.grad_fn._saved_self_sym_sizes)
m = x.mean()
print(m.grad_fn.name(), m.grad_fn._saved_self_sym_sizes, m.grad_fn._saved_self_sym_numel)
v = x.var(dim=0)
print(v.grad_fn.name(), v.grad_fn._saved_dim, v.grad_fn._saved_correction, v.grad_fn._saved_keepdim)
t = x.t()
print(t.grad_fn.name(), t.grad_fn.next_functions)
c = torch.cat([x, x * 2], dim=1)
print(c.grad_fn.name(), c.grad_fn._saved_dim, c.grad_fn.next_functions)
i = x[0, 1:]
print(i.grad_fn.name(), i.grad_fn.next_functions[0][0].name())
print(i.grad_fn._saved_dim, i.grad_fn._saved_start, i.grad_fn._saved_end, i.grad_fn._saved_step)
r = x.reshape(4)
print(r.grad_fn.name(), r.grad_fn._saved_self_sym_sizes)
l = torch.nn.functional.cross_entropy(x, torch.tensor([0, 1]))
print(l.grad_fn.name(), l.grad_fn._saved_reduction, l.grad_fn._saved_ignore_index, l.grad_fn.next_functions[0][0].name())
print(l.grad_fn.next_functions[0][0]._saved_dim, l.grad_fn.next_functions[0][0]._saved_result.shape)
l2 = torch.nn.functional.cross_entropy(x, torch.tensor([0, 1]), label_smoothing=0.1)
print(l2.grad_fn.name(), l2.grad_fn.next_functions)
mx = x.max(dim=1)
print(mx.values.grad_fn.name(), mx.values.grad_fn._saved_dim, mx.values.grad_fn._saved_indices)
e = torch.einsum('ij,jk->ik', x, x)
print(e.grad_fn.name(), e.grad_fn.next_functions[0][0].name())
lin = torch.nn.functional.linear(x, x, torch.ones(2))
print(lin.grad_fn.name(), lin.grad_fn._saved_alpha, lin.grad_fn._saved_beta, lin.grad_fn._saved_mat1_sym_sizes)
E(lambda: lin.grad_fn._saved_nope)
print(isinstance(lin.grad_fn, torch.autograd.graph.Node), lin.grad_fn.metadata)
print(x.grad_fn, (x * 1).grad_fn.next_functions[0][0].name())
'''

PROGRAMS['mx_set_materialize_and_needs_input_grad'] = PRE + r'''
class Split(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.set_materialize_grads(False)
        ctx.scale = scale
        print('needs', ctx.needs_input_grad)
        return x * scale, x * 2
    @staticmethod
    def backward(ctx, g1, g2):
        print('grads', g1, g2)
        gx = None
        if g1 is not None:
            gx = g1 * ctx.scale
        if g2 is not None:
            gx = g2 * 2 if gx is None else gx + g2 * 2
        return gx, None
x = torch.ones(2, requires_grad=True)
a, b = Split.apply(x, 3.0)
a.sum().backward()
print(x.grad)
x.grad = None
a, b = Split.apply(x, 3.0)
(a.sum() + b.sum()).backward()
print(x.grad)
class Mat(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 1, x * 2
    @staticmethod
    def backward(ctx, g1, g2):
        print('mat grads', g1, g2)
        return g1 + g2
x.grad = None
a, b = Mat.apply(x)
b.sum().backward()
print(x.grad)
y = torch.ones(2)
a, b = Split.apply(y, 2.0)
print(a.requires_grad, a.grad_fn)
class BadReturn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, s):
        return x * s
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: BadReturn.apply(x, 2.0).sum().backward())
class ThreeReturn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g, None, None
E(lambda: ThreeReturn.apply(x).sum().backward())
class ShapeWrong(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.sum()
    @staticmethod
    def backward(ctx, g):
        return torch.ones(3)
E(lambda: ShapeWrong.apply(x).backward())
class DtypeWrong(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g.double()
DtypeWrong.apply(x).sum().backward()
print(x.grad, x.grad.dtype)
'''

PROGRAMS['fn_functional_call_tied_and_buffers'] = PRE + r'''
from torch.func import functional_call, grad
torch.manual_seed(0)
class Tied(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(2, 2, bias=False)
        self.b = torch.nn.Linear(2, 2, bias=False)
        self.b.weight = self.a.weight
        self.register_buffer('offset', torch.ones(2))
    def forward(self, x):
        return self.b(self.a(x)) + self.offset
m = Tied()
print([n for n, _ in m.named_parameters()], [n for n, _ in m.named_parameters(remove_duplicate=False)])
x = torch.ones(1, 2)
w = torch.eye(2)
print(functional_call(m, {'a.weight': w}, (x,)))
print(functional_call(m, {'a.weight': w}, (x,), tie_weights=False))
print(functional_call(m, {'a.weight': w, 'offset': torch.zeros(2)}, (x,)))
E(lambda: functional_call(m, {'a.weight': w, 'b.weight': w * 2}, (x,)))
print(functional_call(m, {'a.weight': w, 'b.weight': w * 2}, (x,), tie_weights=False))
print(m.a.weight is m.b.weight, m.offset)
g = grad(lambda p: functional_call(m, p, (x,)).sum())({'a.weight': w})
print(g)
print(functional_call(m, {}, x))
print(functional_call(m, {'a.weight': w}, args=(), kwargs={'x': x}))
E(lambda: functional_call(m, {'nope': w}, (x,), strict=True))
'''

PROGRAMS['mx_no_grad_vs_detach_vs_inference_views'] = PRE + r'''
x = torch.ones(2, 2, requires_grad=True)
with torch.no_grad():
    v = x[0]
print(v.requires_grad, v._base is x, v.grad_fn, v._is_view())
E(lambda: v.mul_(2))
with torch.inference_mode():
    i = torch.ones(2)
    iv = i.view(2)
    print(i.is_inference(), iv.is_inference(), iv._is_view(), torch.is_inference_mode_enabled())
    j = x * 2
    print(j.requires_grad, j.is_inference(), j.grad_fn)
print(torch.is_inference_mode_enabled())
k = x.detach()
print(k._base is None, k.requires_grad, k._version == x._version)
k.add_(1)
print(x._version, x)
with torch.no_grad():
    with torch.enable_grad():
        e = x * 2
print(e.requires_grad, e.grad_fn.name())
with torch.inference_mode():
    with torch.inference_mode(False):
        n = torch.ones(1)
        print(n.is_inference(), torch.is_inference_mode_enabled(), torch.is_grad_enabled())
with torch.inference_mode():
    with torch.enable_grad():
        q = torch.ones(1, requires_grad=True) * 2
        print(q.requires_grad, q.is_inference())
E(lambda: torch.inference_mode(mode=3))
print(torch.inference_mode(False).mode if hasattr(torch.inference_mode(False), 'mode') else None)
'''

PROGRAMS['hk_old_backward_hook_and_global_hooks'] = PRE + r'''
torch.manual_seed(0)
lin = torch.nn.Linear(2, 2)
def old(m, gin, gout):
    print('old', len(gin), [None if g is None else tuple(g.shape) for g in gin], [tuple(g.shape) for g in gout])
h = lin.register_backward_hook(old)
x = torch.ones(1, 2, requires_grad=True)
lin(x).sum().backward()
h.remove()
seq = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU())
seq.register_backward_hook(old)
seq(x).sum().backward()
E(lambda: lin.register_full_backward_hook(old) and lin.register_backward_hook(old))
from torch.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook, register_module_full_backward_hook
calls = []
g1 = register_module_forward_pre_hook(lambda m, a: calls.append(('pre', type(m).__name__)))
g2 = register_module_forward_hook(lambda m, a, o: calls.append(('fwd', type(m).__name__)))
g3 = register_module_full_backward_hook(lambda m, gi, go: calls.append(('bwd', type(m).__name__)))
net = torch.nn.Sequential(torch.nn.Linear(2, 1), torch.nn.Sigmoid())
net(x).sum().backward()
g1.remove(); g2.remove(); g3.remove()
print(calls)
net(x)
print(len(calls))
'''

PROGRAMS['hk_full_backward_hook_no_grad_inputs'] = PRE + r'''
torch.manual_seed(0)
seen = []
class TwoIn(torch.nn.Module):
    def forward(self, a, b):
        return a * b, a + b
m = TwoIn()
m.register_full_backward_hook(lambda mod, gi, go: seen.append(([None if g is None else g.tolist() for g in gi], [None if g is None else g.tolist() for g in go])))
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.])
p, q = m(a, b)
p.sum().backward()
print(seen)
seen.clear()
p, q = m(a, b)
(p.sum() + q.sum()).backward()
print(seen)
seen.clear()
with torch.no_grad():
    out = m(a, b)
print(seen, out[0].requires_grad)
r = m(torch.ones(2), torch.ones(2))
print(r[0].requires_grad, seen)
lin = torch.nn.Linear(2, 2)
lin.register_full_backward_hook(lambda mod, gi, go: print('lin hook', gi, go[0].shape))
lin(torch.ones(1, 2)).sum().backward()
class InPlace(torch.nn.Module):
    def forward(self, x):
        return x.relu_()
ip = InPlace()
ip.register_full_backward_hook(lambda mod, gi, go: None)
E(lambda: ip(torch.ones(2, requires_grad=True) * 1))
'''

PROGRAMS['nu_parametrize_weight_norm_spectral'] = PRE + r'''
import torch.nn.utils.parametrize as P
from torch.nn.utils.parametrizations import weight_norm, orthogonal, spectral_norm
torch.manual_seed(0)
class Symmetric(torch.nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)
layer = torch.nn.Linear(3, 3)
P.register_parametrization(layer, "weight", Symmetric())
print(layer)
print(P.is_parametrized(layer), P.is_parametrized(layer, 'bias'), sorted(layer.state_dict()))
A = layer.weight
print(torch.allclose(A, A.T), A.grad_fn.name())
layer(torch.ones(1, 3)).sum().backward()
print(layer.parametrizations.weight.original.grad)
E(lambda: setattr(layer, 'weight', torch.eye(3)))
P.remove_parametrizations(layer, 'weight')
print(type(layer.weight).__name__, P.is_parametrized(layer))
E(lambda: P.remove_parametrizations(layer, 'weight'))
wn = weight_norm(torch.nn.Linear(2, 3))
print(wn)
print(sorted(wn.state_dict()), wn.parametrizations.weight.original0.shape)
wn(torch.ones(1, 2)).sum().backward()
print(wn.parametrizations.weight.original0.grad.shape)
with P.cached():
    w1 = wn.weight
    w2 = wn.weight
print(w1 is w2)
sn = spectral_norm(torch.nn.Linear(4, 4))
print(sorted(sn.state_dict()))
print(torch.linalg.matrix_norm(sn.weight, 2) < 1.01)
'''

PROGRAMS['mx_requires_grad_dtype_rules'] = PRE + r'''
E(lambda: torch.tensor([1, 2], requires_grad=True))
E(lambda: torch.ones(2, dtype=torch.long).requires_grad_())
E(lambda: torch.nn.Parameter(torch.ones(2, dtype=torch.long)))
print(torch.nn.Parameter(torch.ones(2, dtype=torch.long), requires_grad=False))
x = torch.tensor([1., -2., 3.], requires_grad=True)
print(x.argmax().requires_grad, (x > 0).requires_grad, x.long().requires_grad, x.sign().requires_grad)
print(x.round().requires_grad, x.floor().grad_fn, torch.where(x > 0, x, 0.).grad_fn)
print(x.nonzero().requires_grad, x.sort().indices.requires_grad, x.to(torch.int32).grad_fn)
y = x.double()
print(y.grad_fn, y.grad_fn.next_functions)
y.sum().backward()
print(x.grad, x.grad.dtype)
z = x.to(torch.complex64)
print(z.grad_fn)
E(lambda: z.abs().sum().backward() or print(x.grad))
w = torch.ones(2, requires_grad=True)
E(lambda: w.int().sum().backward())
E(lambda: (w > 0).float().sum().backward())
print(torch.ones(2).requires_grad_(False).requires_grad, w.requires_grad_(True) is w)
u = w * 2
E(lambda: u.requires_grad_(False))
print(u.detach().requires_grad_().is_leaf)
from torch.autograd import Variable
v = Variable(torch.ones(2), requires_grad=True)
print(type(v).__name__, v.requires_grad)
E(lambda: Variable(torch.ones(2), volatile=True))
'''

PROGRAMS['cx_complex_func_and_gradcheck'] = PRE + r'''
from torch.func import grad, jacrev, jacfwd, vjp
z = torch.tensor([1 + 1j, 2 - 1j])
E(lambda: grad(lambda t: t.abs().sum())(z))
E(lambda: jacrev(lambda t: t * 2)(z))
E(lambda: jacfwd(lambda t: t * 2)(z))
E(lambda: jacrev(lambda t: (t * 2j).real)(torch.ones(2)))
E(lambda: jacrev(lambda t: t * 2j)(torch.ones(2)))
out, fn = vjp(lambda t: t * 2, z)
print(out, fn(torch.ones(2, dtype=torch.cfloat)))
E(lambda: fn(torch.ones(2)))
zz = z.clone().requires_grad_()
print(torch.autograd.gradcheck(lambda t: t.abs(), (zz.detach().to(torch.cdouble).requires_grad_(),)))
print(torch.autograd.gradcheck(lambda t: t * t.conj(), (zz.detach().to(torch.cdouble).requires_grad_(),)))
E(lambda: torch.autograd.functional.jacobian(lambda t: t * 2, zz))
E(lambda: torch.autograd.functional.jacobian(lambda t: t.abs(), zz))
E(lambda: torch.autograd.functional.hessian(lambda t: t.abs().sum(), zz))
r = torch.tensor([1., 2.], requires_grad=True)
c = torch.complex(r, r * 2)
print(c, c.grad_fn)
c.abs().sum().backward()
print(r.grad)
p = torch.polar(torch.ones(2, requires_grad=True), torch.tensor([0., 1.], requires_grad=True))
print(p.grad_fn, p.grad_fn.next_functions)
vc = torch.view_as_complex(torch.tensor([[1., 2.], [3., 4.]], requires_grad=True))
print(vc.grad_fn, (vc * vc).real.sum().grad_fn)
'''

PROGRAMS['fn_vmap_errors_more'] = PRE + r'''
from torch.func import vmap
torch.manual_seed(0)
x = torch.randn(3, 2)
E(lambda: vmap(lambda t: t)(torch.tensor(1.)))
E(lambda: vmap(lambda t: t, in_dims=None)(x))
E(lambda: vmap(lambda t: 3)(x))
E(lambda: vmap(lambda t: (t, 3))(x))
E(lambda: vmap(lambda t: t, out_dims=(0, 0))(x))
E(lambda: vmap(lambda t: t, out_dims=5)(x))
E(lambda: vmap(lambda a, b: a + b, in_dims=(0, 0))(x, 1.0))
E(lambda: vmap(lambda a: a)())
E(lambda: vmap(lambda t: t.add_(torch.ones(3, 2)[0].expand(2)) if False else torch.ones(2).add_(t))(x))
print(vmap(lambda t: t.add_(1))(x.clone()).shape)
print(vmap(lambda t, s: t * s, in_dims=(0, None))(x, 2.0).shape)
print(vmap(lambda t, *, scale: t * scale)(x, scale=torch.ones(2)).shape)
print(vmap(lambda t: t.sum(0), chunk_size=2)(x))
E(lambda: vmap(lambda t: t, chunk_size=0)(x))
print(vmap(lambda t: {'a': t, 'b': [t * 2]})(x)['b'][0].shape)
print(vmap(torch.add, in_dims=(0, 1))(torch.ones(3, 2), torch.ones(2, 3)).shape)
print(vmap(lambda t: t.view(2, 1))(x).shape, vmap(lambda t: t.T)(torch.ones(4, 2, 3)).shape)
E(lambda: vmap(lambda t: t.item())(x))
E(lambda: vmap(lambda t: bool(t.sum() > 0))(x))
E(lambda: vmap(lambda t: t.tolist())(x))
print(vmap(lambda t: torch.where(t > 0, t, 0.))(x).shape)
'''

PROGRAMS['op_optimizer_hooks_and_state_printing'] = PRE + r'''
torch.manual_seed(0)
w = torch.nn.Parameter(torch.tensor([1., 2.]))
b = torch.nn.Parameter(torch.tensor([0.5]))
opt = torch.optim.SGD([w, b], lr=0.1, momentum=0.5)
h1 = opt.register_step_pre_hook(lambda o, args, kwargs: print('pre step', type(o).__name__, args, kwargs))
h2 = opt.register_step_post_hook(lambda o, args, kwargs: print('post step', len(o.state)))
(w.sum() + b.sum() * 2).backward()
opt.step()
print(opt.state[w], opt.state[b])
h1.remove(); h2.remove()
opt.step()
print(opt.state_dict())
opt.zero_grad()
print(w.grad, b.grad)
print(opt.defaults)
opt2 = torch.optim.Adam([{'params': w, 'lr': 0.5}, {'params': [b]}])
print(opt2.param_groups[0]['lr'], opt2.param_groups[1]['lr'], opt2.param_groups[0]['betas'])
print(opt2)
E(lambda: torch.optim.Adam([{'params': w}, {'params': w}]))
E(lambda: torch.optim.SGD([w, w], lr=0.1))
E(lambda: torch.optim.SGD({w, b}, lr=0.1))
E(lambda: opt2.add_param_group([b]))
'''

PROGRAMS['nu_total_norm_foreach_and_swa'] = PRE + r'''
from torch.optim.swa_utils import AveragedModel, SWALR, get_ema_multi_avg_fn
torch.manual_seed(0)
ps = [torch.nn.Parameter(torch.ones(2)), torch.nn.Parameter(torch.ones(3))]
ps[0].grad = torch.tensor([3., 4.])
ps[1].grad = torch.tensor([0., 0., 12.])
print(torch.nn.utils.get_total_norm([p.grad for p in ps]))
print(torch.nn.utils.get_total_norm([p.grad for p in ps], norm_type=1.0))
print(torch.nn.utils.clip_grad_norm_(ps, 6.5, foreach=True), ps[0].grad, ps[1].grad)
torch.nn.utils.clip_grads_with_norm_(ps, 1.0, torch.tensor(6.5))
print(ps[0].grad)
torch.nn.utils.clip_grad_value_(ps, 0.05, foreach=True)
print(ps[1].grad)
model = torch.nn.Linear(2, 1)
swa = AveragedModel(model)
print(swa)
print(swa.n_averaged, sorted(swa.state_dict()))
with torch.no_grad():
    model.weight.fill_(1.); model.bias.fill_(0.)
swa.update_parameters(model)
with torch.no_grad():
    model.weight.fill_(3.); model.bias.fill_(2.)
swa.update_parameters(model)
print(swa.module.weight, swa.module.bias, swa.n_averaged)
ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
with torch.no_grad():
    model.weight.fill_(0.)
ema.update_parameters(model)
print(ema.module.weight)
opt = torch.optim.SGD(model.parameters(), lr=1.0)
sched = SWALR(opt, swa_lr=0.1, anneal_epochs=2)
lrs = []
for _ in range(3):
    opt.step(); sched.step(); lrs.append(round(opt.param_groups[0]['lr'], 6))
print(lrs)
'''

PROGRAMS['rn_random_ops_grads'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 6, requires_grad=True)
y = F.dropout(x, 0.5)
print(y, y.grad_fn.name())
y.sum().backward()
print(x.grad)
x.grad = None
r = F.rrelu(x, training=True)
print(r, r.grad_fn.name())
r.sum().backward()
print(x.grad)
x.grad = None
g = F.gumbel_softmax(x, tau=0.5, hard=True)
print(g, g.grad_fn.name())
(g * torch.arange(6.)).sum().backward()
print(x.grad)
x.grad = None
a = F.alpha_dropout(x, 0.3, training=True)
print(a, a.grad_fn.name())
d2 = F.dropout2d(torch.ones(1, 4, 2, 2, requires_grad=True), 0.5)
print(d2.flatten(), d2.grad_fn.name())
d1 = F.dropout1d(torch.ones(3, 5, requires_grad=True), 0.5)
print(d1, d1.grad_fn.name())
fa = F.feature_alpha_dropout(torch.ones(1, 3, 2, requires_grad=True), 0.5, training=True)
print(fa, fa.grad_fn.name())
b = torch.bernoulli(torch.full((5,), 0.5, requires_grad=True))
print(b, b.requires_grad, b.grad_fn)
n = torch.normal(torch.zeros(3, requires_grad=True), torch.ones(3, requires_grad=True))
print(n, n.grad_fn)
'''

PROGRAMS['rn_distributions_rsample_grads'] = PRE + r'''
from torch.distributions import Normal, Categorical, Bernoulli, RelaxedBernoulli, Uniform, MultivariateNormal
torch.manual_seed(0)
mu = torch.tensor([0., 1.], requires_grad=True)
sigma = torch.tensor([1., 0.5], requires_grad=True)
d = Normal(mu, sigma)
s = d.rsample()
print(s, s.grad_fn.name())
s.sum().backward()
print(mu.grad, sigma.grad)
print(d.sample((2,)), d.sample().requires_grad)
lp = d.log_prob(torch.tensor([0.5, 0.5]))
print(lp, lp.grad_fn.name())
logits = torch.tensor([0.1, 0.5, -1.], requires_grad=True)
c = Categorical(logits=logits)
a = c.sample((4,))
print(a, c.log_prob(a), c.entropy())
(-c.log_prob(a).sum()).backward()
print(logits.grad)
print(c, d)
E(lambda: Bernoulli(probs=torch.tensor([1.5])))
E(lambda: Normal(mu, torch.tensor([-1., 1.])))
E(lambda: c.log_prob(torch.tensor([5])))
E(lambda: Bernoulli(torch.tensor([0.3])).rsample())
rb = RelaxedBernoulli(torch.tensor([0.5]), probs=torch.tensor([0.3], requires_grad=True))
print(rb.rsample((2,)))
u = Uniform(torch.tensor([0.], requires_grad=True), torch.tensor([2.]))
print(u.rsample((3,)).squeeze(-1), u.entropy())
mvn = MultivariateNormal(torch.zeros(2), scale_tril=torch.tensor([[1., 0.], [0.5, 1.]], requires_grad=True))
x = mvn.rsample()
print(x, x.grad_fn.name(), mvn.log_prob(x))
'''

PROGRAMS['pr_state_dict_full_print'] = PRE + r'''
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.BatchNorm1d(2), torch.nn.Linear(2, 1))
print(net.state_dict())
print(net.state_dict()._metadata)
print(net.state_dict(keep_vars=True)['0.weight'])
print(net[1].state_dict(prefix='bn.'))
print(list(net.parameters())[0])
print(dict(net.named_children()))
print(net[0:2])
print(net[-1].weight.grad)
sd = net.state_dict()
sd['0.weight'].add_(1)
print(net[0].weight)
net2 = torch.nn.Sequential(torch.nn.Linear(2, 2))
print(net2.load_state_dict({'0.weight': torch.zeros(2, 2), '0.bias': torch.zeros(2)}, assign=True))
print(net2[0].weight, type(net2[0].weight).__name__)
class Odd(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.ones(2))
        self.register_buffer('tmp', torch.zeros(2), persistent=False)
        self.register_parameter('none_param', None)
        self.register_buffer('none_buf', None)
    def extra_repr(self):
        return 'custom=1,\nsecond line'
o = Odd()
print(o)
print(o.state_dict(), list(o.named_buffers()), list(o.named_parameters()))
print(torch.nn.Sequential(o, torch.nn.ReLU()))
'''

PROGRAMS['in_init_functions_seeded'] = PRE + r'''
torch.manual_seed(0)
w = torch.empty(3, 4)
print(torch.nn.init.kaiming_uniform_(w, a=5 ** 0.5))
print(torch.nn.init.kaiming_normal_(w, mode='fan_out', nonlinearity='relu'))
print(torch.nn.init.xavier_uniform_(w, gain=torch.nn.init.calculate_gain('tanh')))
print(torch.nn.init.xavier_normal_(w))
print(torch.nn.init.orthogonal_(w))
print(torch.nn.init.trunc_normal_(w, std=0.02))
print(torch.nn.init.sparse_(w, sparsity=0.5))
print(torch.nn.init.uniform_(w, -0.1, 0.1), torch.nn.init.normal_(w, 0, 0.01))
print(torch.nn.init.eye_(torch.empty(2, 3)), torch.nn.init.dirac_(torch.empty(2, 2, 3)))
print(torch.nn.init.constant_(w, 0.3).requires_grad)
print([torch.nn.init.calculate_gain(n) for n in ['linear', 'sigmoid', 'relu', 'selu']], torch.nn.init.calculate_gain('leaky_relu', 0.2))
E(lambda: torch.nn.init.calculate_gain('foo'))
E(lambda: torch.nn.init.kaiming_uniform_(torch.empty(0, 3)))
E(lambda: torch.nn.init.xavier_uniform_(torch.empty(3)))
p = torch.nn.Parameter(torch.empty(2, 2))
torch.nn.init.ones_(p)
print(p, p.grad_fn, p.is_leaf)
lin = torch.nn.Linear(3, 2)
print(lin.weight, lin.bias)
'''

PROGRAMS['tl_small_training_loop_prints'] = PRE + r'''
torch.manual_seed(0)
X = torch.linspace(-1, 1, 20).unsqueeze(1)
Y = 3 * X ** 2 - 0.5 + 0.1 * torch.randn(20, 1)
model = torch.nn.Sequential(torch.nn.Linear(1, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
opt = torch.optim.Adam(model.parameters(), lr=0.05)
loss_fn = torch.nn.MSELoss()
for epoch in range(30):
    opt.zero_grad()
    loss = loss_fn(model(X), Y)
    loss.backward()
    opt.step()
    if epoch % 10 == 0:
        print(epoch, f'{loss.item():.4f}', loss)
print(model[0].weight.grad.norm())
with torch.no_grad():
    print(model(torch.tensor([[0.5]])))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for epoch in range(10):
    opt.zero_grad()
    loss = loss_fn(model(X), Y)
    loss.backward()
    opt.step()
print(f'{loss.item():.4f}')
w = torch.tensor([0.], requires_grad=True)
for i in range(5):
    loss = (w - 2) ** 2
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        w.grad.zero_()
    print(w.item(), end=' ')
print()
print(w, w.grad)
'''

PROGRAMS['fn_jacobians_hessians_tutorial'] = PRE + r'''
from functools import partial
import torch.nn.functional as F
from torch.func import jacrev, jacfwd, vmap, hessian, vjp, jvp, grad
torch.manual_seed(0)
def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()
D = 4
weight = torch.randn(D, D)
bias = torch.randn(D)
x = torch.randn(D)
xp = x.clone().requires_grad_()
unit_vectors = torch.eye(D)
def compute_jac(xp):
    jacobian_rows = [torch.autograd.grad(predict(weight, bias, xp), xp, vec)[0] for vec in unit_vectors]
    return torch.stack(jacobian_rows)
jacobian = compute_jac(xp)
print(jacobian.shape, jacobian[0])
jacobian2 = jacrev(predict, argnums=2)(weight, bias, x)
print(torch.allclose(jacobian, jacobian2))
ft_jac_weight, ft_jac_bias = jacrev(predict, argnums=(0, 1))(weight, bias, x)
print(ft_jac_weight.shape, ft_jac_bias.shape)
print(torch.allclose(jacfwd(predict, argnums=2)(weight, bias, x), jacobian2))
batch_size = 3
x = torch.randn(batch_size, D)
compute_batch_jacobian = vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))
batch_jacobian0 = compute_batch_jacobian(weight, bias, x)
def predict_with_output_summed(weight, bias, x):
    return predict(weight, bias, x).sum(0)
batch_jacobian1 = jacrev(predict_with_output_summed, argnums=2)(weight, bias, x).movedim(1, 0)
print(batch_jacobian0.shape, torch.allclose(batch_jacobian0, batch_jacobian1))
hess_api = hessian(predict, argnums=2)(weight, bias, x[0])
hess_fwdfwd = jacfwd(jacfwd(predict, argnums=2), argnums=2)(weight, bias, x[0])
hess_revrev = jacrev(jacrev(predict, argnums=2), argnums=2)(weight, bias, x[0])
print(hess_api.shape, torch.allclose(hess_api, hess_fwdfwd), torch.allclose(hess_api, hess_revrev, atol=1e-6))
compute_batch_hessian = vmap(hessian(predict, argnums=2), in_dims=(None, None, 0))
print(compute_batch_hessian(weight, bias, x).shape)
def hvp(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]
def f(x):
    return x.sin().sum()
x = torch.randn(2048)
tangent = torch.randn(2048)
result = hvp(f, (x,), (tangent,))
print(result.shape, torch.allclose(result, -x.sin() * tangent))
def hvp_revrev(f, primals, tangents):
    _, vjp_fn = vjp(grad(f), *primals)
    return vjp_fn(*tangents)
print(torch.allclose(hvp_revrev(f, (x,), (tangent,))[0], result))
'''

PROGRAMS['fn_neural_tangent_kernel'] = PRE + r'''
import torch.nn as nn
from torch.func import functional_call, vmap, vjp, jvp, jacrev
torch.manual_seed(0)
class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 4, (3, 3))
        self.conv2 = nn.Conv2d(4, 4, (3, 3))
        self.fc = nn.Linear(4, 2)
    def forward(self, x):
        x = self.conv1(x)
        x = x.relu()
        x = self.conv2(x)
        x = x.relu()
        x = x.mean((2, 3))
        x = self.fc(x)
        return x
x_train = torch.randn(3, 3, 6, 6)
x_test = torch.randn(2, 3, 6, 6)
net = CNN()
params = {k: v.detach() for k, v in net.named_parameters()}
def fnet_single(params, x):
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)
def empirical_ntk_jacobian_contraction(fnet_single, params, x1, x2):
    jac1 = vmap(jacrev(fnet_single), (None, 0))(params, x1)
    jac1 = jac1.values()
    jac1 = [j.flatten(2) for j in jac1]
    jac2 = vmap(jacrev(fnet_single), (None, 0))(params, x2)
    jac2 = jac2.values()
    jac2 = [j.flatten(2) for j in jac2]
    result = torch.stack([torch.einsum('Naf,Mbf->NMab', j1, j2) for j1, j2 in zip(jac1, jac2)])
    result = result.sum(0)
    return result
result = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test)
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
result_from_ntk_vps = empirical_ntk_ntk_vps(fnet_single, params, x_train, x_test)
result_from_jacobian_contraction = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test)
print(result_from_ntk_vps.shape, torch.allclose(result_from_ntk_vps, result_from_jacobian_contraction, atol=1e-5))
print(empirical_ntk_ntk_vps(fnet_single, params, x_train, x_test, 'trace').shape)
'''

PROGRAMS['cf_function_apply_variants'] = PRE + r'''
class Mul(torch.autograd.Function):
    @staticmethod
    def forward(x, y, scale=1.0):
        return x * y * scale
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y, scale = inputs
        ctx.save_for_backward(x, y)
        ctx.scale = scale
    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return g * y * ctx.scale, g * x * ctx.scale, None
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
E(lambda: Mul.apply(a, b))
print(Mul.apply(a, b, 2.0))
E(lambda: Mul.apply(a, b, scale=2.0))
E(lambda: Mul(a, b, 2.0))
E(lambda: Mul()(a, b, 2.0))
print(type(Mul.apply(a, b, 1.0).grad_fn).__name__, Mul.apply(a, b, 1.0).grad_fn.name())
class BothBw(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
    @staticmethod
    def vjp(ctx, g):
        return g
E(lambda: BothBw.apply(a).sum().backward())
class NoBw(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
E(lambda: NoBw.apply(a).sum().backward())
class NoFw(torch.autograd.Function):
    pass
E(lambda: NoFw.apply(a))
class CtxPrint(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        print(type(ctx).__name__, ctx.needs_input_grad, hasattr(ctx, 'saved_tensors'))
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        print('bw ctx', type(ctx).__name__, ctx.saved_tensors)
        return g
CtxPrint.apply(a).sum().backward()
class VjpOnly(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 5
    @staticmethod
    def vjp(ctx, g):
        return g * 5
a.grad = None
VjpOnly.apply(a).sum().backward()
print(a.grad)
'''

PROGRAMS['ag_grad_misc_student'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.], requires_grad=True)
z = (x * 2).sum()
print(torch.autograd.grad(z, [x, y], allow_unused=True, retain_graph=True))
print(torch.autograd.grad(z, [x, y], allow_unused=True, materialize_grads=True, retain_graph=True))
E(lambda: torch.autograd.grad(z, [x, y], retain_graph=True))
E(lambda: torch.autograd.grad(z, [x, y], allow_unused=False, materialize_grads=True, retain_graph=True))
print(torch.autograd.grad(z, x, only_inputs=True, retain_graph=True))
print(torch.autograd.grad([z, (y * y).sum()], [x, y], retain_graph=True))
print(torch.autograd.grad([z, (x * y).sum()], [x], grad_outputs=[torch.tensor(2.), None], retain_graph=True))
torch.autograd.backward([z, (y ** 2).sum()], grad_tensors=[torch.tensor(1.), torch.tensor(0.5)])
print(x.grad, y.grad)
E(lambda: torch.autograd.backward(z))
E(lambda: torch.autograd.grad(z, torch.ones(2)))
E(lambda: torch.autograd.grad(torch.ones(1), x))
E(lambda: torch.autograd.grad((x * 2), x))
E(lambda: torch.autograd.grad((x * 2).sum(), x, grad_outputs=torch.ones(2)))
E(lambda: torch.autograd.grad([(x * 2).sum()], x, grad_outputs=[torch.tensor(1.), torch.tensor(1.)]))
n = (x * 2).sum()
print(n.grad_fn(torch.tensor(1.)))
mul = (x * y).grad_fn
print(mul(torch.ones(2)))
print(mul.next_functions[0][0].variable is x, mul.next_functions[1][0].variable is y)
print(torch.autograd.grad(x.sum(), x))
'''

# fixed: fast mode runs backward twice and checks it is reentrant (nondet_tol), as the slow mode does
PROGRAMS['cf_gradcheck_failure_messages_more'] = PRE + r'''
from torch.autograd import gradcheck, gradgradcheck
torch.manual_seed(0)
a = torch.randn(2, 2, dtype=torch.double, requires_grad=True)
b = torch.randn(2, 2, dtype=torch.double, requires_grad=True)
E(lambda: gradcheck(lambda a, b: a * b + a.detach() * 0.5, (a, b)))
E(lambda: gradcheck(lambda a, b: (a * b, b.detach() * a.detach()), (a, b)))
class R(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2 + torch.rand_like(g) * 1e-3
E(lambda: gradcheck(R.apply, (a,)))
E(lambda: gradcheck(R.apply, (a,), nondet_tol=1e-2))
E(lambda: gradcheck(R.apply, (a,), fast_mode=True))
class Cbad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.abs()
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x / x.abs()
z = torch.tensor([1 + 1j, 0.5 - 2j], dtype=torch.cdouble, requires_grad=True)
E(lambda: gradcheck(Cbad.apply, (z,)))
E(lambda: gradcheck(Cbad.apply, (z,), fast_mode=True))
class Cbad2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g.conj() * 2
E(lambda: gradcheck(Cbad2.apply, (z,)))
E(lambda: gradcheck(Cbad2.apply, (z,), fast_mode=True))
E(lambda: gradcheck(lambda t: t.exp(), (z.real.float().detach().requires_grad_(),)))
class BadGG(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 2 * x * x / x.detach()
E(lambda: gradgradcheck(BadGG.apply, (a,)))
E(lambda: gradgradcheck(BadGG.apply, (a,), fast_mode=True))
E(lambda: gradcheck(lambda t: t[0], (a,), check_undefined_grad=True))
class UndefBad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g.mul(2)
E(lambda: gradcheck(UndefBad.apply, (a,)))
E(lambda: gradcheck(lambda t: t.sum(0), (torch.randn(0, 2, dtype=torch.double, requires_grad=True),)))
E(lambda: gradcheck(lambda t: t * 2, (torch.randn(2, dtype=torch.double, requires_grad=True).expand(3, 2),)))
'''

# fixed: the undefined-gradient check warns before it fails; eps=0 gives no NumPy warning
PROGRAMS['cf_gradcheck_undefined_dtypes_gradgrad'] = PRE + r'''
from torch.autograd import gradcheck, gradgradcheck
torch.manual_seed(0)
a = torch.randn(3, dtype=torch.double, requires_grad=True)
class NoUndef(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, g1, g2):
        return g1 * 2 + g2 * 3
E(lambda: gradcheck(NoUndef.apply, (a,)))
class NoUndef2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
E(lambda: gradcheck(NoUndef2.apply, (a,)))
class Ones(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        if g is None:
            return torch.ones(3, dtype=torch.double)
        return g * 2
E(lambda: gradcheck(Ones.apply, (a,)))
class DT(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return (g * 2).float()
E(lambda: gradcheck(DT.apply, (a,)))
E(lambda: gradcheck(DT.apply, (a,), check_grad_dtypes=True))
E(lambda: gradcheck(lambda t: (t * 2).long(), (a,)))
E(lambda: gradcheck(lambda t: 3.0, (a,)))
E(lambda: gradcheck(lambda t: [t * 2], (a,)))
E(lambda: gradcheck(lambda t: (t * 2, 5), (a,)))
print(gradgradcheck(lambda t: t.sin(), (a,), gen_non_contig_grad_outputs=True))
print(gradgradcheck(lambda t: t.sin(), (a,), grad_outputs=torch.ones(3, dtype=torch.double)))
E(lambda: gradgradcheck(lambda t: t.sin(), (a,), grad_outputs=torch.ones(3, dtype=torch.double, requires_grad=True)))
print(gradgradcheck(lambda t: t.sin(), (a,), check_fwd_over_rev=True, check_rev_over_rev=True))
print(gradgradcheck(lambda t: t.sin(), (a,), check_batched_grad=True))
E(lambda: gradgradcheck(lambda t: t * 2, (a,), check_rev_over_rev=False, check_fwd_over_rev=False))
print(gradcheck(torch.nn.functional.linear, (torch.randn(2, 3, dtype=torch.double, requires_grad=True), torch.randn(4, 3, dtype=torch.double, requires_grad=True))))
print(gradcheck(lambda t: t.sum(), (torch.randn(2, dtype=torch.double, requires_grad=True),), fast_mode=True))
r = gradcheck(lambda t: t * 3 + t.detach(), (a,), raise_exception=False, fast_mode=True)
print(r)
E(lambda: gradcheck(lambda t: t, (a,), eps=0))
E(lambda: gradcheck(lambda t: t.abs(), (torch.tensor([0.], dtype=torch.double, requires_grad=True),)))
from torch.autograd.gradcheck import GradcheckError; print(GradcheckError.__mro__[1].__name__)
'''

PROGRAMS['nu_rnn_packing_prune_skip_init'] = PRE + r'''
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence, pack_sequence
import torch.nn.utils.prune as prune
torch.manual_seed(0)
seqs = [torch.randn(3, 2, requires_grad=True), torch.randn(1, 2, requires_grad=True), torch.randn(2, 2, requires_grad=True)]
padded = pad_sequence(seqs, batch_first=True)
print(padded.shape, padded.grad_fn)
packed = pack_padded_sequence(padded, torch.tensor([3, 1, 2]), batch_first=True, enforce_sorted=False)
print(packed)
rnn = torch.nn.GRU(2, 3, batch_first=True)
out, h = rnn(packed)
unpacked, lens = pad_packed_sequence(out, batch_first=True)
print(unpacked.shape, lens, unpacked.grad_fn, h.grad_fn)
unpacked.sum().backward()
print(seqs[1].grad)
E(lambda: pack_padded_sequence(padded, torch.tensor([3, 1, 2]), batch_first=True))
ps = pack_sequence([torch.ones(2), torch.ones(3)], enforce_sorted=False)
print(ps.data, ps.batch_sizes, ps.sorted_indices, ps.unsorted_indices)
lin = torch.nn.Linear(4, 2)
prune.l1_unstructured(lin, 'weight', amount=0.5)
print(sorted(n for n, _ in lin.named_parameters()), sorted(n for n, _ in lin.named_buffers()))
print(lin.weight_mask, lin.weight.grad_fn)
print(list(lin._forward_pre_hooks.values()))   # (keys: a process-wide handle counter)
lin(torch.ones(1, 4)).sum().backward()
print(lin.weight_orig.grad)
prune.remove(lin, 'weight')
print(sorted(n for n, _ in lin.named_parameters()), prune.is_pruned(lin))
m = torch.nn.Linear(3, 3)
prune.random_unstructured(m, 'weight', amount=0.3)
print(m.weight_mask.sum())
prune.ln_structured(m, 'weight', amount=1, n=2, dim=0)
print(m.weight_mask)
print(list(m._forward_pre_hooks.values())[0])
E(lambda: prune.l1_unstructured(m, 'weight', amount=1.5))
E(lambda: prune.l1_unstructured(m, 'nope', amount=0.5))
from torch.nn.utils import skip_init
s = skip_init(torch.nn.Linear, 2, 2)
print(s.weight.shape)
from torch.nn.utils.stateless import functional_call
print(functional_call(torch.nn.Linear(2, 1), {'weight': torch.ones(1, 2), 'bias': torch.zeros(1)}, torch.ones(1, 2)))
'''

PROGRAMS['cx_complex_op_grads_sweep'] = PRE + r'''
torch.manual_seed(0)
z0 = torch.tensor([1 + 2j, -0.5 + 0.3j, 0j, 2 - 1j], dtype=torch.cfloat)
ops = {
 'sqrt': lambda z: z.sqrt(), 'log': lambda z: z.log(), 'exp': lambda z: z.exp(), 'sin': lambda z: z.sin(),
 'tanh': lambda z: z.tanh(), 'reciprocal': lambda z: z.reciprocal(), 'pow2': lambda z: z ** 2,
 'powc': lambda z: z ** (1 + 1j), 'abs': lambda z: z.abs(), 'angle': lambda z: z.angle(),
 'sgn': lambda z: z.sgn(), 'conj': lambda z: z.conj() * 1, 'real': lambda z: z.real, 'imag': lambda z: z.imag,
 'rsqrt': lambda z: z.rsqrt(), 'sigmoid': lambda z: z.sigmoid(), 'asin': lambda z: z.asin(), 'atan': lambda z: z.atan(),
 'log1p': lambda z: z.log1p(), 'expm1': lambda z: z.expm1(), 'cumsum': lambda z: z.cumsum(0), 'cumprod': lambda z: z.cumprod(0),
 'prod': lambda z: z.prod(), 'mean': lambda z: z.mean(), 'norm': lambda z: z.norm(), 'vdot': lambda z: torch.vdot(z, z),
 'fft': lambda z: torch.fft.fft(z), 'ifft': lambda z: torch.fft.ifft(z), 'rfft_of_real': lambda z: torch.fft.rfft(z.real),
 'outer': lambda z: torch.outer(z, z), 'div': lambda z: z / (z + 1), 'mul_i': lambda z: z * 1j, 'polar_abs': lambda z: torch.polar(z.abs(), z.angle()),
 'square': lambda z: z.square(), 'log10': lambda z: z.log10(), 'acos': lambda z: z.acos(), 'cosh': lambda z: z.cosh(),
}
for name, f in ops.items():
    z = z0.clone().requires_grad_()
    try:
        out = f(z)
        loss = (out * out.conj()).real.sum() if out.is_complex() else out.sum()
        loss.backward()
        print(name, out.grad_fn.name(), z.grad)
    except Exception as e:
        print(name, type(e).__name__, e)
A = torch.tensor([[2 + 0j, 1 - 1j], [1 + 1j, 3 + 0j]], requires_grad=True)
w, v = torch.linalg.eigh(A)
print(torch.autograd.grad(w.sum(), A))
d = torch.linalg.det(A)
print(d, torch.autograd.grad(d.abs(), A))
s = torch.linalg.svdvals(A)
print(torch.autograd.grad(s.sum(), A))
inv = torch.linalg.inv(A)
print(torch.autograd.grad(inv.abs().sum(), A))
'''

PROGRAMS['gf_walk_graphs_of_small_models'] = PRE + r'''
torch.manual_seed(0)
def walk(fn, depth=0, seen=None):
    seen = set() if seen is None else seen
    if fn is None:
        print('  ' * depth + 'None'); return
    print('  ' * depth + fn.name() + ('' if id(fn) not in seen else ' (seen)'))
    if id(fn) in seen:
        return
    seen.add(id(fn))
    for nxt, idx in fn.next_functions:
        if nxt is not None and idx:
            print('  ' * (depth + 1) + f'[{idx}]')
        walk(nxt, depth + 1, seen)
nn = torch.nn
cnn = nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.ReLU(), nn.MaxPool2d(2), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.1), nn.Linear(2, 3), nn.LogSoftmax(1))
out = cnn(torch.randn(2, 1, 6, 6))
loss = nn.functional.nll_loss(out, torch.tensor([0, 2]))
walk(loss.grad_fn)
cnn.eval()
walk(cnn(torch.randn(2, 1, 6, 6)).grad_fn)
emb = nn.Embedding(5, 3)
ln = nn.LayerNorm(3)
walk(ln(emb(torch.tensor([[1, 2]]))).sum().grad_fn)
lstm = nn.LSTM(3, 2, batch_first=True)
o, (h, c) = lstm(torch.randn(1, 2, 3))
walk(o.grad_fn)
print(h.grad_fn.name(), c.grad_fn.name())
mha = nn.MultiheadAttention(4, 2, batch_first=True)
q = torch.randn(1, 3, 4)
a, w = mha(q, q, q)
print(a.grad_fn.name(), w.grad_fn.name())
walk(a.grad_fn)
gn = nn.GroupNorm(1, 2)
walk(gn(torch.randn(1, 2, 3)).grad_fn)
walk(nn.functional.gelu(torch.randn(2, requires_grad=True), approximate='tanh').grad_fn)
walk(nn.functional.silu(torch.randn(2, requires_grad=True)).grad_fn)
walk(nn.functional.binary_cross_entropy_with_logits(torch.randn(2, requires_grad=True), torch.ones(2)).grad_fn)
walk(nn.functional.smooth_l1_loss(torch.randn(2, requires_grad=True), torch.ones(2)).grad_fn)
walk(nn.functional.kl_div(torch.randn(2, requires_grad=True), torch.ones(2) / 2, reduction='batchmean').grad_fn)
walk(nn.functional.cosine_similarity(torch.randn(1, 3, requires_grad=True), torch.ones(1, 3)).grad_fn)
walk(nn.functional.normalize(torch.randn(2, 3, requires_grad=True)).grad_fn)
walk(nn.functional.interpolate(torch.randn(1, 1, 2, 2, requires_grad=True), scale_factor=2, mode='bilinear').grad_fn)
walk(nn.functional.pad(torch.randn(1, 2, requires_grad=True), (1, 1), mode='constant').grad_fn)
walk(nn.functional.embedding_bag(torch.tensor([0, 1]), torch.randn(3, 2, requires_grad=True), torch.tensor([0])).grad_fn)
'''

PROGRAMS['cf_func_transforms_over_custom_rules'] = PRE + r'''
# torch.func transforms over custom functions and modules: more corners
from torch.func import vmap, grad, jacrev, jacfwd, hessian, functional_call, vjp, jvp
torch.manual_seed(0)
class Clamp(torch.autograd.Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x, lo, hi):
        return x.clamp(lo, hi)
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, lo, hi = inputs
        ctx.save_for_backward(x)
        ctx.lo, ctx.hi = lo, hi
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * ((x >= ctx.lo) & (x <= ctx.hi)), None, None
    @staticmethod
    def jvp(ctx, t, _lo, _hi):
        return t
x = torch.linspace(-2, 2, 5)
print(grad(lambda t: Clamp.apply(t, -1., 1.).sum())(x))
print(vmap(grad(lambda t: Clamp.apply(t, -1., 1.)))(x))
print(jacrev(lambda t: Clamp.apply(t, -1., 1.))(x))
print(jacfwd(lambda t: Clamp.apply(t, -1., 1.))(x))
E(lambda: hessian(lambda t: Clamp.apply(t, -1., 1.).sum())(x))
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(x, s):
        return x * s
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.s = inputs[1]
    @staticmethod
    def backward(ctx, g):
        return g * ctx.s, None
    @staticmethod
    def vmap(info, in_dims, x, s):
        print('rule', in_dims, info.batch_size)
        return Scale.apply(x, s), in_dims[0]
print(vmap(Scale.apply, in_dims=(0, None))(torch.ones(3, 2), 2.0))
print(grad(lambda t: Scale.apply(t, 4.0).sum())(torch.ones(2)))
E(lambda: jacfwd(lambda t: Scale.apply(t, 4.0))(torch.ones(2)))
class Info(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x.clone()
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g
    @staticmethod
    def vmap(info, in_dims, x):
        print(type(info).__name__, info.batch_size, info.randomness)
        return x.clone(), in_dims[0]
vmap(Info.apply, randomness='same')(torch.ones(2, 3))
vmap(Info.apply, in_dims=1)(torch.ones(2, 3))
class BadOutDims(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x.clone(), x.clone()
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g1, g2):
        return g1
    @staticmethod
    def vmap(info, in_dims, x):
        return (x, x), 0
print([t.shape for t in vmap(BadOutDims.apply)(torch.ones(2, 3))])
class BadOutDims2(BadOutDims):
    @staticmethod
    def vmap(info, in_dims, x):
        return (x, x), (0,)
E(lambda: vmap(BadOutDims2.apply)(torch.ones(2, 3)))
class BadOutDims3(BadOutDims):
    @staticmethod
    def vmap(info, in_dims, x):
        return (x, x), (0, 'a')
E(lambda: vmap(BadOutDims3.apply)(torch.ones(2, 3)))
'''

# fixed: an error in a node's hooks (tensor, pre, post, leaf hooks) shows the node's forward trace in anomaly mode;
# a leaf's AccumulateGrad made in anomaly mode keeps its forward trace
PROGRAMS['gm_anomaly_errors_in_hooks'] = PRE + r'''
import warnings
def run(label, f):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        try:
            f()
        except Exception as e:
            print(label, 'err', type(e).__name__, str(e)[:80])
    for w in ws:
        m = str(w.message)
        print('  ', w.category.__name__, m.splitlines()[0] if m.strip() else repr(m), 'forward line' if 'run(' in m or 'lambda' in m else '')
def boom(*a):
    raise ValueError('boom')
with torch.autograd.detect_anomaly():
    a = torch.tensor([1.], requires_grad=True)
    b = a * 2
    b.register_hook(boom)
    run('tensor hook', lambda: b.sum().backward())
    a2 = torch.tensor([1.], requires_grad=True)
    a2.register_hook(boom)
    run('leaf hook', lambda: (a2 * 2).sum().backward())
    c = a * 3
    c.grad_fn.register_hook(boom)
    run('post hook', lambda: c.sum().backward())
    d = a * 4
    d.grad_fn.register_prehook(boom)
    run('pre hook', lambda: d.sum().backward())
    class Bad(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2
        @staticmethod
        def backward(ctx, g):
            return torch.ones(3)
    run('bad shape', lambda: Bad.apply(a).sum().backward())
    a3 = torch.tensor([1.], requires_grad=True)
    a3.register_post_accumulate_grad_hook(boom)
    run('post acc', lambda: (a3 * 2).sum().backward())
    e = a * 5
    e.register_hook(lambda g: torch.ones(2))
    run('hook shape', lambda: e.sum().backward())
    run('retain twice', lambda: [f := (a * 6).sum(), f.backward(), f.backward()])
'''

PROGRAMS['op_every_optimizer_repr_and_state'] = PRE + r'''
torch.manual_seed(0)
import torch.optim as O
classes = [O.SGD, O.Adam, O.AdamW, O.Adagrad, O.Adadelta, O.Adamax, O.ASGD, O.NAdam, O.RAdam, O.RMSprop, O.Rprop, O.LBFGS, O.SparseAdam]
for cls in classes:
    w = torch.nn.Parameter(torch.tensor([1., -2.]))
    kw = {'lr': 0.01} if cls is O.SGD else {}
    opt = cls([w], **kw)
    print(opt)
    if cls is O.SparseAdam:
        continue
    def closure():
        opt.zero_grad()
        l = (w ** 2).sum()
        l.backward()
        return l
    opt.step(closure)
    sd = opt.state_dict()
    print({k: (v if not isinstance(v, torch.Tensor) else v) for k, v in sd['state'].get(0, {}).items()})
    print(sd['param_groups'])
E(lambda: O.Adam([torch.nn.Parameter(torch.ones(1))], lr=torch.tensor([0.1, 0.2])))
print(O.Adam([torch.nn.Parameter(torch.ones(1))], lr=torch.tensor(0.1)))
print(O.SGD([torch.nn.Parameter(torch.ones(1))], lr=0.1, foreach=True).defaults)
'''

PROGRAMS['sh_saved_hooks_nested_and_bad_unpack'] = PRE + r'''
torch.manual_seed(0)
from torch.autograd.graph import saved_tensors_hooks
x = torch.tensor([1., 2.], requires_grad=True)
def show(tag):
    return lambda t: (print(tag, 'pack', tuple(t.shape), t.dtype, t.grad_fn is not None, t.requires_grad) or t)
with saved_tensors_hooks(show('outer'), lambda t: t):
    with saved_tensors_hooks(show('inner'), lambda t: t):
        y = x.exp()
    z = y * x
print(y.grad_fn._raw_saved_result, z.grad_fn._raw_saved_self)
(z.sum()).backward()
print(x.grad)
with saved_tensors_hooks(lambda t: None, lambda p: x * 0 + 1):
    w = x.sin()
w.sum().backward()
print(x.grad)
with saved_tensors_hooks(lambda t: 0, lambda p: torch.ones(3)):
    q = x.cos()
E(lambda: q.sum().backward())
with saved_tensors_hooks(lambda t: 0, lambda p: torch.ones(2, dtype=torch.double)):
    q = x.cos()
E(lambda: q.sum().backward())
with saved_tensors_hooks(lambda t: 0, lambda p: 5):
    q = x.cos()
E(lambda: q.sum().backward())
with saved_tensors_hooks(lambda t: t, lambda p: p):
    q = x.cos()
x2 = x.detach()
E(lambda: q.grad_fn._saved_self)
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a, a * 2)
        return a * 3
    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        print('bw saved', a.shape, b.tolist())
        return g * 3
with saved_tensors_hooks(show('fn'), lambda t: t):
    r = F.apply(x)
r.sum().backward()
with torch.autograd.graph.save_on_cpu(pin_memory=False):
    s = x.tanh()
print(s.grad_fn._raw_saved_result)
'''

# fixed: a module the transformed function reaches (or is) has captured parameters and buffers: BatchNorm's
# num_batches_tracked.add_ under grad is refused as in PyTorch
PROGRAMS['fn_grad_over_module_with_batchnorm_buffers'] = PRE + r'''
from torch.func import grad, vmap, functional_call, jacrev
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
params = {k: v.detach() for k, v in net.named_parameters()}
buffers = {k: v.detach().clone() for k, v in net.named_buffers()}
x = torch.randn(5, 3)
def loss(p, b, x):
    return functional_call(net, (p, b), (x,)).pow(2).mean()
g = grad(loss)(params, buffers, x)
print(sorted(g), g['1.weight'])
print(buffers['1.running_mean'], buffers['1.num_batches_tracked'])
print(net[1].running_mean, net[1].num_batches_tracked)
E(lambda: vmap(loss, in_dims=(None, None, 0))(params, buffers, x.unsqueeze(1).expand(5, 2, 3)))
net.eval()
print(vmap(loss, in_dims=(None, None, 0))(params, buffers, x.unsqueeze(1).expand(5, 2, 3)))
h = net[0].register_forward_hook(lambda m, a, o: print('hook saw', o.shape, type(o).__name__))
print(grad(loss)(params, buffers, x)['0.bias'])
h.remove()
net.train()
def loss_noret(p, x):
    return functional_call(net, p, (x,)).sum()
E(lambda: jacrev(loss_noret)(params, x))
print(net[1].num_batches_tracked)
E(lambda: grad(loss)(params, buffers, x[:1]))
'''

# fixed: a module the transformed function reaches (or is) has captured parameters and buffers: BatchNorm's
# num_batches_tracked.add_ under grad is refused as in PyTorch
PROGRAMS['fn_grad_transforms_mutating_module_buffers'] = PRE + r'''
from torch.func import grad, vjp, jvp, jacfwd, jacrev, vmap, functional_call
torch.manual_seed(0)
bn = torch.nn.BatchNorm1d(2)
x = torch.randn(4, 2)
E(lambda: grad(lambda t: bn(t).sum())(x))
E(lambda: vjp(bn, x)[0].shape)
E(lambda: jvp(bn, (x,), (torch.ones(4, 2),))[1].shape)
E(lambda: jacfwd(bn.forward)(x).shape)
print(bn.num_batches_tracked, bn.running_mean)
bn.eval()
print(grad(lambda t: bn(t).sum())(x))
bn.train()
bn2 = torch.nn.BatchNorm1d(2, track_running_stats=False)
print(grad(lambda t: bn2(t).pow(2).sum())(x))
lin = torch.nn.Linear(2, 2)
def bad2(t):
    with torch.no_grad():
        lin.bias.add_(1)
    return lin(t).sum()
E(lambda: grad(bad2)(x))
print(lin.bias)
def ok(p, t):
    return functional_call(lin, p, (t,)).sum()
print(grad(ok)({k: v.detach() for k, v in lin.named_parameters()}, x)['bias'])
def upd(p, b, t):
    b.add_(1)
    return functional_call(lin, p, (t,)).sum()
buf = torch.zeros(1)
print(grad(upd)({k: v.detach() for k, v in lin.named_parameters()}, buf, x)['bias'], buf)
E(lambda: vmap(lambda t: bn(t.unsqueeze(0).expand(2, 2)).sum())(x))
'''

PROGRAMS['hk_module_hooks_always_call_state_dict_hooks'] = PRE + r'''
torch.manual_seed(0)
class Boom(torch.nn.Module):
    def forward(self, x):
        raise ValueError('in forward')
b = Boom()
b.register_forward_hook(lambda m, a, o: print('always hook', o), always_call=True)
b.register_forward_hook(lambda m, a, o: print('normal hook'))
E(lambda: b(torch.ones(1)))
lin = torch.nn.Linear(2, 1)
lin.register_state_dict_post_hook(lambda m, sd, prefix, local_metadata: print('sd post', sorted(sd), prefix))
print(sorted(lin.state_dict(prefix='p.')))
lin.register_load_state_dict_pre_hook(lambda m, sd, prefix, lm, strict, missing, unexpected, errors: print('load pre', sorted(sd), prefix, strict))
lin.register_load_state_dict_post_hook(lambda m, keys: print('load post', keys))
print(lin.load_state_dict({'weight': torch.ones(1, 2), 'bias': torch.zeros(1)}))
print(lin.load_state_dict({'weight': torch.ones(1, 2)}, strict=False))
class DictOut(torch.nn.Module):
    def forward(self, x):
        return {'a': x * 2}
d = DictOut()
d.register_full_backward_hook(lambda m, gi, go: print('dict bw', gi, go))
x = torch.ones(2, requires_grad=True)
E(lambda: d(x)['a'].sum().backward())
class ListIn(torch.nn.Module):
    def forward(self, xs):
        return xs[0] + xs[1]
li = ListIn()
li.register_full_backward_hook(lambda m, gi, go: print('list bw', gi, go))
out = li([x, x * 3])
out.sum().backward()
print(x.grad)
m = torch.nn.Linear(1, 1)
m.register_forward_pre_hook(lambda mod, args, kwargs: (args, {**kwargs}), with_kwargs=True)
E(lambda: m(torch.ones(1), extra=1))
m2 = torch.nn.Linear(1, 1)
m2.register_forward_pre_hook(lambda mod, args: 5)
E(lambda: m2(torch.ones(1)))
m3 = torch.nn.Linear(1, 1)
m3.register_forward_pre_hook(lambda mod, args, kwargs: None, with_kwargs=True)
print(m3(torch.ones(1)).shape)
m4 = torch.nn.Linear(1, 1)
m4.register_forward_pre_hook(lambda mod, args, kwargs: args, with_kwargs=True)
E(lambda: m4(torch.ones(1)))
h = m4.register_forward_hook(lambda *a: None)
print(type(h).__name__, h.id >= 0)
h.remove(); h.remove()
with h:
    pass
'''

# fixed: saved_tensors_hooks (and disable_saved_tensors_hooks) are per thread, as PyTorch's
PROGRAMS['mx_thread_local_grad_modes_and_saved_hooks'] = PRE + r'''
import threading
res = {}
def worker(name):
    res[name] = (torch.is_grad_enabled(), torch.is_inference_mode_enabled(), torch.is_anomaly_enabled(),
                 (torch.ones(1, requires_grad=True) * 2).requires_grad)
with torch.no_grad():
    t = threading.Thread(target=worker, args=('no_grad',)); t.start(); t.join()
with torch.inference_mode():
    t = threading.Thread(target=worker, args=('inference',)); t.start(); t.join()
torch.set_grad_enabled(False)
t = threading.Thread(target=worker, args=('set_false',)); t.start(); t.join()
torch.set_grad_enabled(True)
with torch.autograd.set_detect_anomaly(True):
    t = threading.Thread(target=worker, args=('anomaly',)); t.start(); t.join()
print(sorted(res.items()))
def in_thread():
    with torch.no_grad():
        ev.wait()
        res['inner'] = torch.is_grad_enabled()
ev = threading.Event()
t = threading.Thread(target=in_thread); t.start()
res['main_during'] = torch.is_grad_enabled()
ev.set(); t.join()
print(res['inner'], res['main_during'])
from torch.autograd.graph import saved_tensors_hooks
with saved_tensors_hooks(lambda t: print('packed in main') or t, lambda t: t):
    def w2():
        x = torch.ones(2, requires_grad=True)
        y = x.exp()
        res['w2'] = 'done'
    t = threading.Thread(target=w2); t.start(); t.join()
print(res['w2'])
x = torch.ones(3, requires_grad=True)
y = x * 2
def bw():
    y.sum().backward()
t = threading.Thread(target=bw); t.start(); t.join()
print(x.grad)
def hook_thread(g):
    res['hook_thread_grad_mode'] = torch.is_grad_enabled()
    return g
z = x * 3
z.register_hook(hook_thread)
z.sum().backward()
print(res['hook_thread_grad_mode'])
'''

PROGRAMS['gf_node_introspection_student'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * 2).sum()
fn = y.grad_fn
print(type(fn), type(fn).__module__, type(fn).__qualname__)
print(fn._sequence_nr() - fn.next_functions[0][0]._sequence_nr())
print(isinstance(fn, torch.autograd.graph.Node), issubclass(type(fn), torch.autograd.graph.Node))
print(fn.next_functions[0][0].next_functions[0][0].variable is x)
acc = fn.next_functions[0][0].next_functions[0][0]
print(type(acc), acc.name(), acc.next_functions, acc.metadata)
print(callable(fn.name), callable(fn))
E(lambda: fn())
E(lambda: fn(torch.ones(1), torch.ones(1)))
print(fn(torch.tensor(3.)))
class MyFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
o = MyFn.apply(x)
print(type(o.grad_fn), type(o.grad_fn).__mro__[1], o.grad_fn._forward_cls is MyFn if hasattr(o.grad_fn, '_forward_cls') else None)
print(o.grad_fn.needs_input_grad, o.grad_fn.to_save if hasattr(o.grad_fn, 'to_save') else None, o.grad_fn.saved_tensors)
print(isinstance(o.grad_fn, torch.autograd.function.BackwardCFunction), isinstance(o.grad_fn, torch.autograd.graph.Node))
print(o.grad_fn.apply(torch.ones(2)))
print(torch.autograd.graph.Node.__subclasshook__ is not None)
print(x.grad_fn is None, x.is_leaf, x.output_nr if hasattr(x, 'output_nr') else None, (x * 1).output_nr)
a, b = x.unbind()
print(a.output_nr, b.output_nr, a.grad_fn is b.grad_fn, a._version)
'''

PROGRAMS['nu_clip_and_vector_dtypes_errors'] = PRE + r'''
torch.manual_seed(0)
from torch.nn.utils import clip_grad_norm_, clip_grad_value_, parameters_to_vector, vector_to_parameters
a = torch.nn.Parameter(torch.ones(2, dtype=torch.double))
b = torch.nn.Parameter(torch.ones(3))
a.grad = torch.tensor([3., 4.], dtype=torch.double)
b.grad = torch.tensor([1., 2., 2.])
print(clip_grad_norm_([a, b], 1.0), a.grad, b.grad)
h = torch.nn.Parameter(torch.ones(2, dtype=torch.half))
h.grad = torch.tensor([300., 400.], dtype=torch.half)
print(clip_grad_norm_(h, 10.0), h.grad)
print(clip_grad_norm_([h], 10.0, norm_type=0))
E(lambda: clip_grad_norm_([a], 1.0, norm_type='fro'))
E(lambda: clip_grad_norm_([a], 1.0, norm_type=-1))
print(clip_grad_norm_([a], 1.0, norm_type=3.5))
E(lambda: clip_grad_value_([a], -1.0))
print(clip_grad_value_(a, 0.1), a.grad)
p = torch.nn.Parameter(torch.arange(6.).view(2, 3).t())
print(p.is_contiguous())
E(lambda: parameters_to_vector([p]))
E(lambda: parameters_to_vector([a, b]))
v = torch.zeros(5)
E(lambda: vector_to_parameters(v, [a, b]))
vector_to_parameters(torch.arange(6.), [p])
print(p)
E(lambda: vector_to_parameters(torch.arange(5.), [p]))
print(torch.nn.utils.parameters_to_vector([torch.nn.Parameter(torch.ones(2))]).requires_grad)
model = torch.nn.Linear(2, 2)
vec = parameters_to_vector(model.parameters())
print(vec.requires_grad, vec.grad_fn)
vec.sum().backward()
print(model.weight.grad)
E(lambda: clip_grad_norm_(model.parameters(), float('nan')))
print(clip_grad_norm_(model.parameters(), float('inf')))
'''

PROGRAMS['af_functional_api_on_small_model'] = PRE + r'''
# autograd.functional on nn modules, create_graph names, strict with module params
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Tanh(), torch.nn.Linear(3, 1))
x = torch.randn(4, 2)
J = jacobian(model, x)
print(J.shape, J.requires_grad)
J = jacobian(model, x, create_graph=True)
print(J.shape, J.requires_grad, J.grad_fn.name())
H = hessian(lambda t: model(t).sum(), x[0])
print(H)
H2 = hessian(lambda t: model(t).sum(), x[0], create_graph=True)
print(H2.grad_fn.name() if H2.grad_fn else None)
o, v = vjp(lambda t: model(t), x, torch.ones(4, 1))
print(o.grad_fn, v.shape)
o, v = jvp(lambda t: model(t), x, torch.ones(4, 2), create_graph=True)
print(o.grad_fn.name(), v.grad_fn.name())
print(hvp(lambda t: model(t).sum(), x[0], torch.ones(2)))
print(vhp(lambda t: model(t).sum(), x[0], torch.ones(2), create_graph=True)[1].grad_fn.name())
def loss_wrt_w(w):
    return torch.nn.functional.linear(x, w).pow(2).sum()
print(hessian(loss_wrt_w, torch.ones(1, 2)).shape)
print(jacobian(lambda a, b: (a * b, a + b), (torch.ones(2), torch.ones(2)), vectorize=True, strategy='forward-mode'))
E(lambda: jacobian(lambda a: a, torch.ones(2), strategy='forward-mode'))
E(lambda: jacobian(lambda a: a, torch.ones(2), strategy='forward-mode', vectorize=True, create_graph=True))
E(lambda: jacobian(lambda a: a.sum(), torch.ones(2), strict=True, vectorize=True))
E(lambda: jacobian(lambda a: torch.ones(2), torch.ones(2), strict=True))
E(lambda: hessian(lambda a: (a ** 2).sum(), torch.ones(2), strict=True, vectorize=True))
print(hessian(lambda a: a.sum(), torch.ones(2)))
E(lambda: hessian(lambda a: a.sum(), torch.ones(2), strict=True))
'''

PROGRAMS['mx_inplace_on_saved_outputs_sweep'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(4, requires_grad=True)
for name, f in [('relu', torch.relu), ('sigmoid', torch.sigmoid), ('tanh', torch.tanh), ('exp', torch.exp),
                ('sqrt', lambda t: t.abs().sqrt()), ('softmax', lambda t: t.softmax(0)), ('pow', lambda t: t.pow(2)),
                ('elu', torch.nn.functional.elu), ('silu', torch.nn.functional.silu), ('log_softmax', lambda t: t.log_softmax(0)),
                ('cumprod', lambda t: t.cumprod(0)), ('norm', lambda t: t.norm().expand(4)), ('prod', lambda t: t.prod().expand(4) * 1),
                ('div', lambda t: 1 / t), ('max', lambda t: t.max(0, keepdim=True).values.expand(4))]:
    y = f(x)
    try:
        y.add_(1) if y._base is None else y.mul_(1)
        y.sum().backward()
        print(name, 'ok', x.grad is not None)
    except RuntimeError as e:
        print(name, str(e).split('Hint')[0])
    x.grad = None
a, *b = (x * 1).unbind()
E(lambda: a.mul_(2))
c, d = (x * 1).split(2)
E(lambda: c.mul_(2))
with torch.no_grad():
    v = x[:2]
E(lambda: v.mul_(2))
w = x * 1
with torch.no_grad():
    wv = w[:2]
E(lambda: wv.mul_(2))
y = x.detach().requires_grad_()
z = y.view(2, 2)
E(lambda: z.add_(1))
q = (x * 1).view(2, 2)
q[0] = 5
print(q.grad_fn.name(), q._base.grad_fn.name())
q.sum().backward()
print(x.grad)
r = (x * 1)
r.t_() if r.dim() == 2 else r.unsqueeze_(0)
print(r.shape, r.grad_fn.name())
'''

PROGRAMS['pr_module_reprs_sweep'] = PRE + r'''
nn = torch.nn
mods = [nn.Conv2d(3, 8, 3, stride=2, padding=1, padding_mode='reflect', bias=False), nn.Conv1d(2, 4, 5, dilation=2, groups=2),
        nn.ConvTranspose2d(4, 2, 3, output_padding=1, stride=2), nn.LSTM(10, 20, num_layers=2, dropout=0.1, bidirectional=True),
        nn.GRU(3, 4, batch_first=True), nn.RNN(3, 4, nonlinearity='relu'), nn.Embedding(10, 3, padding_idx=0, max_norm=1.0),
        nn.EmbeddingBag(10, 3, mode='max'), nn.TransformerEncoderLayer(8, 2, dim_feedforward=16), nn.MultiheadAttention(8, 2, kdim=4, vdim=4),
        nn.BatchNorm2d(3, momentum=None, affine=False), nn.LayerNorm([2, 3], elementwise_affine=False), nn.GroupNorm(2, 4),
        nn.InstanceNorm1d(3, affine=True), nn.Dropout(p=0.2, inplace=True), nn.LeakyReLU(0.1, inplace=True), nn.PReLU(3),
        nn.Softmax(dim=1), nn.LogSoftmax(), nn.MaxPool2d(2, ceil_mode=True, return_indices=True), nn.AvgPool2d(3, stride=1, count_include_pad=False),
        nn.AdaptiveMaxPool1d(4), nn.Upsample(scale_factor=2, mode='nearest'), nn.Flatten(0, -1), nn.Unflatten(1, (2, 2)),
        nn.Identity(54, unused='x'), nn.Bilinear(2, 3, 4), nn.CrossEntropyLoss(label_smoothing=0.1, ignore_index=3), nn.MSELoss(reduction='sum'),
        nn.Hardtanh(-2, 2), nn.Threshold(0.1, 20), nn.PixelShuffle(2), nn.ZeroPad2d((1, 1, 2, 0)), nn.CosineSimilarity(), nn.Softplus(beta=2),
        nn.GELU(approximate='tanh'), nn.ELU(alpha=0.5), nn.CELU(), nn.Mish(), nn.RReLU(), nn.Fold((4, 5), (2, 2)), nn.Unfold(2, padding=1),
        nn.LazyLinear(3), nn.SiLU(inplace=True), nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=8)]
for m in mods:
    print(m)
'''

PROGRAMS['sh_raw_saved_register_hooks'] = PRE + r'''
x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(y.grad_fn._saved_self.equal(x), type(y.grad_fn._raw_saved_self).__name__)
def pack(t):
    print('pack', t.shape)
    return t.tolist()
def unpack(l):
    print('unpack', len(l))
    return torch.tensor(l)
y.grad_fn._raw_saved_self.register_hooks(pack, unpack)
E(lambda: y.grad_fn._raw_saved_self.register_hooks(pack, unpack))
print(y.grad_fn._saved_self.shape)
y.sum().backward()
print(x.grad.shape)
E(lambda: y.grad_fn._raw_saved_self.register_hooks(pack, unpack))
E(lambda: y.grad_fn._saved_self)
z = x.exp()
E(lambda: z.grad_fn._raw_saved_result.register_hooks(lambda t: t))
E(lambda: z.grad_fn._raw_saved_result.register_hooks(1, 2))
w = x.sin()
w.grad_fn._raw_saved_self.register_hooks(lambda t: None, lambda p: None)
E(lambda: w.sum().backward())
u = x * 2
print(u.grad_fn._raw_saved_self, u.grad_fn._saved_self, u.grad_fn._saved_other)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
    k = x.cos()
E(lambda: k.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t))
'''

# fixed: data_ptr() of a batched tensor raises as .numpy() does
PROGRAMS['fn_vmap_inplace_and_storage_access'] = PRE + r'''
from torch.func import vmap, grad
torch.manual_seed(0)
x = torch.randn(3, 2)
buf = torch.zeros(2)
def f(row):
    buf.add_(row)
    return buf
E(lambda: vmap(f)(x))
def g(row):
    out = torch.zeros(2)
    out.add_(row)
    return out
E(lambda: vmap(g)(x))
def h(row):
    row.add_(torch.ones(2))
    return row
xc = x.clone()
print(vmap(h)(xc), torch.equal(xc, x + 1))
def k(row, other):
    row.mul_(other)
    return row
E(lambda: vmap(k, in_dims=(None, 0))(torch.ones(2), x))
print(vmap(lambda r: r.clone().copy_(r))(x).shape)
E(lambda: vmap(lambda r: torch.ones(2).copy_(r))(x))
print(vmap(lambda r: r.new_zeros(3))(x).shape)
print(vmap(lambda r: torch.zeros_like(r).add_(1))(x)[0])
E(lambda: vmap(lambda r: r.data_ptr())(x))
E(lambda: vmap(lambda r: r.numpy())(x))
print(vmap(lambda r: r.shape[0] * r)(x).shape, vmap(lambda r: r.dim() * r)(x).shape)
print(vmap(lambda r: r.sum().item() if False else r.size())(x) if False else vmap(lambda r: torch.tensor(r.size()) + 0 * r.sum().long())(x))
'''

# fixed: .data, .untyped_storage(), .storage() of a batched tensor raise as in PyTorch
PROGRAMS['fn_vmap_data_and_storage_of_batched'] = PRE + r'''
from torch.func import vmap, grad
x = torch.ones(3, 2); w = torch.ones(2)
for name, f in [('unbatched data', lambda: vmap(lambda t: t * w.data)(x)), ('batched data', lambda: vmap(lambda t: t.data)(x)),
  ('grad data', lambda: grad(lambda t: (t.data * t).sum())(w)), ('nested', lambda: vmap(vmap(lambda t: t.data))(torch.ones(2, 3, 4))),
  ('storage', lambda: vmap(lambda t: t.untyped_storage() and t)(x)), ('unbatched storage', lambda: vmap(lambda t: w.untyped_storage() and t)(x)),
  ('typed storage', lambda: vmap(lambda t: t.storage() and t)(x)),
  ('data_ptr', lambda: vmap(lambda t: t.data_ptr())(x)), ('data_ptr unbatched', lambda: vmap(lambda t: w.data_ptr() and t)(x)),
  ('inner unbatched data', lambda: vmap(lambda t: vmap(lambda u: u * t.data.sum())(torch.ones(4)))(x))]:
    try:
        r = f(); print(name, 'ok', r.shape)
    except Exception as e:
        print(name, type(e).__name__, e)
'''

PROGRAMS['op_zero_grad_create_graph_grads'] = PRE + r'''
w = torch.nn.Parameter(torch.tensor([1., 2.]))
opt = torch.optim.SGD([w], lr=0.1)
loss = (w ** 3).sum()
loss.backward(create_graph=True)
print(w.grad, w.grad.requires_grad, w.grad.grad_fn)
g = w.grad
opt.zero_grad(set_to_none=False)
print(w.grad, w.grad is g, w.grad.requires_grad, w.grad.grad_fn)
loss = (w ** 3).sum()
loss.backward(create_graph=True)
print(w.grad.grad_fn, w.grad is g)
opt.zero_grad()
print(w.grad)
m = torch.nn.Linear(2, 1)
m(torch.ones(1, 2)).sum().backward(create_graph=True)
m.zero_grad(set_to_none=False)
print(m.weight.grad, m.weight.grad.requires_grad)
v = torch.nn.Parameter(torch.ones(4))
v.grad = torch.ones(8)[::2]
print(v.grad.is_contiguous())
opt2 = torch.optim.SGD([v], lr=1.0)
opt2.zero_grad(set_to_none=False)
print(v.grad, v.grad.stride())
v.grad = torch.ones(4)
opt2.step()
print(v)
E(lambda: setattr(v, 'grad', torch.ones(3)))
E(lambda: setattr(v, 'grad', torch.ones(4, dtype=torch.double)))
E(lambda: setattr(v, 'grad', [1.]))
v.grad = None
print(opt2.step(), v)
'''

PROGRAMS['cf_jvp_staticmethod_mark_dirty_student'] = PRE + r'''
# custom Function with jvp + setup_context + save_for_forward under jacfwd/forward AD; mark_dirty; views
import torch.autograd.forward_ad as fwAD
from torch.func import jacfwd, jvp, vmap
class MulAdd(torch.autograd.Function):
    @staticmethod
    def forward(x, y, alpha):
        return x * y + alpha
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y, alpha = inputs
        ctx.save_for_forward(x, y)
        ctx.save_for_backward(x, y)
    @staticmethod
    def jvp(ctx, tx, ty, _):
        x, y = ctx.saved_tensors
        print('jvp got', None if tx is None else tx.shape, None if ty is None else ty.shape)
        return (0 if tx is None else tx * y) + (0 if ty is None else ty * x)
    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return g * y, g * x, None
x = torch.tensor([1., 2.])
y = torch.tensor([3., 4.])
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.ones(2))
    out = MulAdd.apply(d, y, 1.0)
    print(fwAD.unpack_dual(out))
E(lambda: jacfwd(MulAdd.apply, argnums=(0, 1))(x, y, 1.0))
print(jvp(lambda a: MulAdd.apply(a, a, 0.0), (x,), (torch.ones(2),)))
class Inplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 2
    @staticmethod
    def jvp(ctx, t):
        t.mul_(2)
        return t
a = torch.ones(2, requires_grad=True)
b = a * 1
c = Inplace.apply(b)
print(c is b, c.grad_fn.name(), b._version)
c.sum().backward()
print(a.grad)
E(lambda: Inplace.apply(a))
with fwAD.dual_level():
    d = fwAD.make_dual(torch.ones(2), torch.ones(2))
    r = Inplace.apply(d)
    print(r is d, fwAD.unpack_dual(r).tangent)
class BadJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
    @staticmethod
    def jvp(ctx, t):
        return t[:1]
with fwAD.dual_level():
    E(lambda: BadJvp.apply(fwAD.make_dual(torch.ones(2), torch.ones(2))))
class NoneJvp(BadJvp):
    @staticmethod
    def jvp(ctx, t):
        return None
with fwAD.dual_level():
    E(lambda: print(fwAD.unpack_dual(NoneJvp.apply(fwAD.make_dual(torch.ones(2), torch.ones(2))))))
'''

# fixed: a jvp returning None for a differentiable output raises PyTorch's errors (was: no tangent)
PROGRAMS['cf_jvp_returning_none'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
def mk(fwd, jvp, setup=None):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return fwd(ctx, x)
        @staticmethod
        def backward(ctx, *g):
            return g[0]
    F.jvp = staticmethod(jvp)
    return F
cases = {
 'plain': mk(lambda ctx, x: x * 2, lambda ctx, t: None),
 'nondiff': mk(lambda ctx, x: (lambda o: (ctx.mark_non_differentiable(o), o)[1])(x * 2), lambda ctx, t: None),
 'two_one_none': mk(lambda ctx, x: (x * 2, x * 3), lambda ctx, t: (t * 2, None)),
 'int_out': mk(lambda ctx, x: (x * 2).long(), lambda ctx, t: None),
 'view': mk(lambda ctx, x: x.view(2), lambda ctx, t: None),
 'input': mk(lambda ctx, x: x, lambda ctx, t: None),
}
for name, F in cases.items():
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.ones(2), torch.ones(2))
        try:
            out = F.apply(d)
            outs = out if isinstance(out, tuple) else (out,)
            print(name, [fwAD.unpack_dual(o).tangent for o in outs])
        except Exception as e:
            print(name, type(e).__name__, str(e)[:200])
class H(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2); ctx.mark_dirty(x); return x
    @staticmethod
    def backward(ctx, g):
        return g
    @staticmethod
    def jvp(ctx, t):
        return None
with fwAD.dual_level():
    E(lambda: H.apply(fwAD.make_dual(torch.ones(2), torch.ones(2))))
    print(fwAD.unpack_dual(cases['plain'].apply(torch.ones(2))).tangent)
'''

PROGRAMS['tt_autograd_tutorial_teacher_demo'] = PRE + r'''
# a teacher's "autograd from the tensor tutorial" demo with prints of every intermediate
torch.manual_seed(0)
x = torch.ones(5)
y = torch.zeros(3)
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print(f"Gradient function for z = {z.grad_fn}")
print(f"Gradient function for loss = {loss.grad_fn}")
loss.backward()
print(w.grad)
print(b.grad)
z = torch.matmul(x, w) + b
print(z.requires_grad)
with torch.no_grad():
    z = torch.matmul(x, w) + b
print(z.requires_grad)
z = torch.matmul(x, w) + b
z_det = z.detach()
print(z_det.requires_grad)
inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3 * a ** 3 - b ** 2
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)
print(9 * a ** 2 == a.grad)
print(-2 * b == b.grad)
print(Q, Q.grad_fn, Q.grad_fn.next_functions, Q.grad_fn.next_functions[0][0].next_functions)
x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand((5, 5), requires_grad=True)
a = x + y
print(f"Does `a` require gradients?: {a.requires_grad}")
b = x + z
print(f"Does `b` require gradients?: {b.requires_grad}")
from torch import nn, optim
model = nn.Linear(4, 2)
for param in model.parameters():
    param.requires_grad = False
model.weight.requires_grad = True
optimizer = optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
model(torch.ones(1, 4)).sum().backward()
optimizer.step()
print(model.bias.grad, model.weight.grad, optimizer.state_dict()['state'])
'''

PROGRAMS['cx_func_transforms_through_complex'] = PRE + r'''
from torch.func import grad, jacrev, jacfwd, hessian, vmap, vjp, jvp
torch.manual_seed(0)
def f(x):
    z = torch.complex(x[0], x[1])
    return (z * z.conj() + (z ** 2).real).real.sum() + torch.fft.fft(x).abs().sum()
x = torch.tensor([0.3, -0.7])
print(grad(f)(x))
print(jacrev(f)(x), jacfwd(f)(x))
print(hessian(f)(x))
print(vmap(grad(f))(torch.randn(3, 2)))
def g(x):
    return torch.view_as_real(torch.polar(x.abs() + 1, x)).sum(-1)
print(jacrev(g)(x))
print(jacfwd(g)(x))
z = torch.tensor([1 + 2j, 3 - 1j])
out, fn = vjp(lambda t: t.exp() * 2, z)
print(out, fn(torch.tensor([1 + 0j, 0 + 1j])))
print(jvp(lambda t: t.exp() * 2, (z,), (torch.tensor([1 + 0j, 0j]),)))
print(vmap(lambda t: t.conj() * t)(z.view(2, 1)))
print(vmap(torch.vdot)(z.view(1, 2), z.view(1, 2)))
print(grad(lambda r: torch.view_as_complex(r).abs().sum())(torch.tensor([[3., 4.], [1., 0.]])))
'''

PROGRAMS['hk_checkpoint_module_hooks_training_step'] = PRE + r'''
# gradient checkpointing + hooks + no_grad decorators combined in a tiny training step
from torch.utils.checkpoint import checkpoint
torch.manual_seed(0)
class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 3)
    def forward(self, x):
        return torch.relu(self.lin(x))
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = torch.nn.ModuleList([Block() for _ in range(2)])
    def forward(self, x):
        for b in self.blocks:
            x = checkpoint(b, x, use_reentrant=False)
        return x.sum()
net = Net()
calls = []
for i, b in enumerate(net.blocks):
    b.register_forward_hook(lambda m, a, o, i=i: calls.append(('fwd', i, torch.is_grad_enabled())))
    b.register_full_backward_hook(lambda m, gi, go, i=i: calls.append(('bwd', i)))
x = torch.randn(2, 3, requires_grad=True)
loss = net(x)
print(loss.grad_fn.name())
loss.backward()
print(calls)
print(x.grad)
calls.clear()
y = torch.randn(2, 3, requires_grad=True)
l2 = checkpoint(net.blocks[0], y, use_reentrant=True)
l2.sum().backward()
print(calls, y.grad is not None)
@torch.no_grad()
def evaluate(m, x):
    return m(x)
print(evaluate(net, x), evaluate(net, x).requires_grad)
E(lambda: checkpoint(net.blocks[0], y))
'''

PROGRAMS['op_lr_scheduler_errors_and_cycles'] = PRE + r'''
torch.manual_seed(0)
w = torch.nn.Parameter(torch.ones(1))
opt = torch.optim.SGD([w], lr=1.0)
s = torch.optim.lr_scheduler.StepLR(opt, 1, gamma=0.5)
s.step()
print(opt.param_groups[0]['lr'])
opt.step(); s.step()
print(s.get_last_lr(), s.last_epoch)
E(lambda: s.step(5))
print(s.get_lr())
s2 = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode='max', threshold_mode='abs', cooldown=1, min_lr=0.1)
print(s2.get_last_lr() if hasattr(s2, 'get_last_lr') else None)
E(lambda: torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode='sideways'))
E(lambda: torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=1.0))
E(lambda: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=0))
E(lambda: torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0))
E(lambda: torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[3, 1]).get_last_lr())
opt2 = torch.optim.SGD([torch.nn.Parameter(torch.ones(1))], lr=0.1)
E(lambda: torch.optim.lr_scheduler.StepLR(opt2, 1, last_epoch=3))
c = torch.optim.lr_scheduler.CyclicLR(opt2, base_lr=0.01, max_lr=0.1, step_size_up=2)
lrs = []
for _ in range(5):
    opt2.step(); c.step(); lrs.append(round(c.get_last_lr()[0], 6))
print(lrs, opt2.param_groups[0]['momentum'])
p = torch.optim.lr_scheduler.PolynomialLR(opt2, total_iters=3, power=2.0)
print(p.get_last_lr())
lin = torch.optim.lr_scheduler.LinearLR(opt2, start_factor=0.5, total_iters=2)
print(lin.get_last_lr(), lin.state_dict()['start_factor'])
ch = torch.optim.lr_scheduler.ChainedScheduler([torch.optim.lr_scheduler.ConstantLR(opt2, factor=0.1, total_iters=1)])
print(ch.get_last_lr())
'''

PROGRAMS['op_custom_optimizer_subclass'] = PRE + r'''
torch.manual_seed(0)
class MySGD(torch.optim.Optimizer):
    def __init__(self, params, lr=0.1, momentum=0.0):
        if lr < 0:
            raise ValueError(f"Invalid lr {lr}")
        super().__init__(params, dict(lr=lr, momentum=momentum))
    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is None:
                    continue
                state = self.state[p]
                buf = state.get('buf')
                if buf is None:
                    buf = state['buf'] = p.grad.clone()
                else:
                    buf.mul_(group['momentum']).add_(p.grad)
                p.add_(buf, alpha=-group['lr'])
        return loss
model = torch.nn.Linear(2, 1)
opt = MySGD(model.parameters(), lr=0.1, momentum=0.5)
print(opt)
for _ in range(3):
    def closure():
        opt.zero_grad()
        l = model(torch.ones(4, 2)).pow(2).mean()
        l.backward()
        return l
    print(opt.step(closure).item())
print(opt.state_dict())
print(type(opt.state).__name__, len(opt.state))
opt2 = MySGD(model.parameters())
opt2.load_state_dict(opt.state_dict())
print(opt2.param_groups[0]['momentum'], list(opt2.state.values())[0]['buf'])
E(lambda: MySGD(model.parameters(), lr=-1))
E(lambda: MySGD(3))
class Bad(torch.optim.Optimizer):
    def __init__(self, params):
        super().__init__(params, {})
E(lambda: Bad(model.parameters()).step())
print(Bad(model.parameters()))
'''

PROGRAMS['gm_anomaly_not_a_decorator_and_nested_errors'] = PRE + r'''
# detect_anomaly as a decorator, set_detect_anomaly, nested backward error in custom Function with anomaly
import warnings
E(lambda: torch.autograd.detect_anomaly()(lambda: 1))
def run():
    x = torch.tensor([-1.], requires_grad=True)
    y = x.sqrt()
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        try:
            y.backward()
        except RuntimeError as e:
            print('err', e)
    print([str(w.message).splitlines()[0] for w in ws])
    return torch.is_anomaly_enabled()
with torch.autograd.detect_anomaly():
    print(run(), torch.is_anomaly_enabled())
E(lambda: torch.autograd.set_detect_anomaly(False)(lambda: 1))
class Inner(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        with torch.enable_grad():
            y = x.detach().requires_grad_() * 0
            gy, = torch.autograd.grad((y / y).sum(), y)
        return g * 2 + gy
with torch.autograd.detect_anomaly():
    a = torch.tensor([1.], requires_grad=True)
    out = Inner.apply(a)
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        E(lambda: out.sum().backward())
    print([str(w.message).splitlines()[0] for w in ws])
with torch.autograd.detect_anomaly(check_nan=False):
    a = torch.tensor([0.], requires_grad=True)
    (a / a).sum().backward()
    print(a.grad)
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
