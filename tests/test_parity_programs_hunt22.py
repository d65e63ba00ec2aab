"""Parity programs from a twenty-second hunt: what a student writes while reading the Chinese notes on torch.autograd.

Each chapter's own examples changed (other values, float64/half/complex/integer inputs, 0-dim, empty, broadcast and
non-contiguous shapes) and printed in full (tensors, grads, grad_fn, next_functions, every ``_saved_*`` attribute,
is_leaf, requires_grad, _version, output_nr, reprs); the mistakes a student makes and their errors; backward twice
and retain_graph; no_grad / inference_mode / set_grad_enabled mixes, also across threads; in-place ops on leaves,
views and plain tensors; hooks (tensor, node pre/post, leaf, post-accumulate, saved-tensor) and their order; custom
Functions (setup_context, once_differentiable, mark_dirty, mark_non_differentiable, saved outputs, double backward,
the MROs of chapter 2's package tour); autograd.grad (allow_unused, materialize_grads, is_grads_batched, GradientEdge);
forward-mode AD (in-place ops on duals whose primal requires grad, duals of views, inference mode); autograd.functional;
anomaly mode; gradients at non-differentiable points. Each program must print exactly what PyTorch prints (hunt14's
harness: ``parity.run_both`` with hunt13's ``E``/``W`` helpers, every warning also printed on stdout).
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE

PROGRAMS: dict[str, str] = {}

# ---- chapter 0/1 examples modified: one-layer network, eye(4, 5), Exp and MultiplyAdd Functions, saved attributes,
# grad modes, autograd.grad arguments, forward AD, anomaly mode

PROGRAMS['bce_logits_f64_pos_weight_saved'] = PRE + r'''
x = torch.ones(5, dtype=torch.float64)
y = torch.tensor([0., 1., 0.], dtype=torch.float64)
w = torch.linspace(-1, 1, 15, dtype=torch.float64).reshape(5, 3).requires_grad_()
b = torch.tensor([0.1, -0.2, 0.3], dtype=torch.float64, requires_grad=True)
z = torch.matmul(x, w) + b
pw = torch.tensor([2., 1., 0.5], dtype=torch.float64)
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y, pos_weight=pw, reduction='sum')
print(loss, loss.grad_fn)
fn = loss.grad_fn
print(fn._saved_reduction, fn._saved_pos_weight, fn._saved_weight)
print(fn._saved_self, fn._saved_target)
print(fn.next_functions)
print(z.grad_fn.next_functions[0][0].next_functions)
loss.backward()
print(w.grad, b.grad)
'''

PROGRAMS['eye45_transposed_out_nc_grad'] = PRE + r'''
inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
print(out.shape, out.is_contiguous(), out.grad_fn, out.grad_fn.next_functions)
g = torch.arange(20.).reshape(4, 5).t()
print(g.is_contiguous())
out.backward(g, retain_graph=True)
print(inp.grad)
out.backward(g.contiguous() * 0 + 1, retain_graph=True)
print(inp.grad)
inp.grad.zero_()
E(lambda: out.backward(torch.ones(4, 5)))
out.backward(torch.ones_like(out))
print(inp.grad, inp.grad.stride())
'''

PROGRAMS['exp_fn_complex_and_int_inputs'] = PRE + r'''
from torch.autograd import Function
class Exp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result
    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result.conj()
z = torch.tensor([1+1j, 0.5-2j], requires_grad=True)
out = Exp.apply(z)
print(out, out.grad_fn.name(), out.dtype)
out.abs().sum().backward()
print(z.grad)
i = torch.tensor([1, 2])
r = Exp.apply(i)
print(r, r.requires_grad, r.grad_fn)
h = torch.tensor(0.5, dtype=torch.float16, requires_grad=True)
o = Exp.apply(h)
o.backward()
print(o, h.grad, h.grad.dtype)
'''

PROGRAMS['multiply_add_int_and_broadcast'] = PRE + r'''
from torch.autograd import Function
class MultiplyAdd(Function):
    @staticmethod
    def forward(ctx, w, x, b):
        ctx.save_for_backward(w, x)
        return w * x + b
    @staticmethod
    def backward(ctx, grad_output):
        w, x = ctx.saved_tensors
        print('needs', ctx.needs_input_grad)
        return grad_output * x, grad_output * w, grad_output * 1
x = torch.ones(3)
w = torch.tensor([0.5], requires_grad=True)
b = torch.tensor([1., 2., 3.], requires_grad=True)
z = MultiplyAdd.apply(w, x, b)
print(z, z.grad_fn)
E(lambda: z.sum().backward())
print(w.grad, b.grad)
E(lambda: MultiplyAdd.apply(torch.tensor([1, 2], requires_grad=True), x, b))
z2 = MultiplyAdd.apply(w, x, 2.0)
print(z2)
E(lambda: z2.sum().backward())
print(w.grad)
'''

PROGRAMS['saved_attrs_scalar_ops'] = PRE + r'''
x = torch.tensor([1.5, -2.0, 3.0], requires_grad=True)
y = x * 2
print(y.grad_fn, y.grad_fn._saved_other, y.grad_fn._saved_self if hasattr(y.grad_fn, '_saved_self') else 'no self')
p = x ** 3
print(p.grad_fn, p.grad_fn._saved_exponent, p.grad_fn._saved_self)
q = 2 ** x
print(q.grad_fn, q.grad_fn._saved_self, q.grad_fn._saved_result)
d = x / 4
print(d.grad_fn, d.grad_fn._saved_other)
r = 1 / x
print(r.grad_fn, r.grad_fn._saved_self)
s = x - 3
print(s.grad_fn, s.grad_fn._saved_alpha)
t = torch.sub(x, x, alpha=2)
print(t.grad_fn, t.grad_fn._saved_alpha)
a = torch.add(x, 1, alpha=3)
print(a.grad_fn, a.grad_fn._saved_alpha)
'''

PROGRAMS['saved_attrs_reductions_dims'] = PRE + r'''
x = torch.arange(24., requires_grad=True).reshape(2, 3, 4)
s = x.sum((0, 2), keepdim=True)
f = s.grad_fn
print(f, f._saved_dim, f._saved_keepdim, f._saved_self_sym_sizes)
m = x.mean(-1)
print(m.grad_fn, m.grad_fn._saved_dim, m.grad_fn._saved_keepdim, m.grad_fn._saved_self_sym_numel)
mx = x.amax(1)
print(mx.grad_fn, mx.grad_fn._saved_dim, mx.grad_fn._saved_keepdim)
v, i = x.max(2)
print(v.grad_fn, v.grad_fn._saved_dim, v.grad_fn._saved_keepdim, v.grad_fn._saved_indices)
pr = x.prod(1)
print(pr.grad_fn, pr.grad_fn._saved_dim, pr.grad_fn._saved_keepdim)
st = x.std(0, correction=0)
print(st.grad_fn, st.grad_fn._saved_dim, st.grad_fn._saved_correction, st.grad_fn._saved_keepdim)
ls = x.logsumexp(1)
print(ls.grad_fn, ls.grad_fn._saved_dim, ls.grad_fn._saved_keepdim)
'''

PROGRAMS['set_grad_enabled_function_and_decorator'] = PRE + r'''
x = torch.tensor([1.], requires_grad=True)
r = torch.set_grad_enabled(False)
print(type(r).__name__, torch.is_grad_enabled())
y = x * 2
print(y.requires_grad)
E(lambda: y.backward())
torch.set_grad_enabled(True)
@torch.set_grad_enabled(False)
def f(t):
    return t * 3
z = f(x)
print(z.requires_grad, torch.is_grad_enabled())
with torch.no_grad():
    @torch.enable_grad()
    def g(t):
        return t * 4
    w = g(x)
print(w.requires_grad, w.grad_fn)
with torch.set_grad_enabled(False):
    torch.set_grad_enabled(True)
    u = x * 5
print(u.requires_grad, torch.is_grad_enabled())
'''

PROGRAMS['no_grad_generator_decorated'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
@torch.no_grad()
def gen(n):
    for k in range(n):
        print('inside', torch.is_grad_enabled())
        yield x * k
for t in gen(2):
    print(t.requires_grad, torch.is_grad_enabled())
    q = t * x
    print(q.requires_grad)
@torch.inference_mode()
def inf(t):
    return t * 2
r = inf(x)
print(r.requires_grad, r.is_inference())
E(lambda: (r * x).sum().backward())
print(x.grad)
'''

PROGRAMS['inference_tensor_misuse'] = PRE + r'''
with torch.inference_mode():
    a = torch.ones(3)
    b = a.view(3)
print(a.is_inference(), b.is_inference(), a._version if False else 'skip')
x = torch.tensor([1., 2., 3.], requires_grad=True)
E(lambda: a.add_(1))
E(lambda: (x * a).sum().backward())
print(x.grad)
c = a.clone()
print(c.is_inference())
c.add_(1)
print(c)
E(lambda: a.requires_grad_())
E(lambda: a._version)
with torch.inference_mode(False):
    d = x * 2
print(d.requires_grad, d.is_inference())
'''

PROGRAMS['autograd_grad_only_inputs_false'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.], requires_grad=True)
out = (x * y).sum()
g = W(lambda: torch.autograd.grad(out, x, only_inputs=False, retain_graph=True))
print(g, x.grad, y.grad)
g2 = torch.autograd.grad([out, out], [x, y], grad_outputs=[torch.tensor(1.), torch.tensor(2.)])
print(g2)
E(lambda: torch.autograd.grad(out, x))
'''

PROGRAMS['materialize_grads_allow_unused_false'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
u = torch.tensor(5., requires_grad=True)
y = (x ** 2).sum()
E(lambda: torch.autograd.grad(y, [x, u], materialize_grads=True, allow_unused=False, retain_graph=True))
g = torch.autograd.grad(y, [x, u], materialize_grads=True, retain_graph=True)
print(g)
g = torch.autograd.grad(y, [u, x], allow_unused=True, retain_graph=True)
print(g)
E(lambda: torch.autograd.grad(y, [u], retain_graph=True))
z = x.detach() * 2
E(lambda: torch.autograd.grad(z.sum(), x))
'''

PROGRAMS['is_grads_batched_jacobian_rows'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.sin() * x
eye = torch.eye(3)
(j,) = torch.autograd.grad(y, x, eye, is_grads_batched=True, retain_graph=True)
print(j)
(j2,) = torch.autograd.grad(y, x, torch.ones(2, 3), is_grads_batched=True, retain_graph=True)
print(j2)
E(lambda: torch.autograd.grad(y, x, torch.ones(3), is_grads_batched=True, retain_graph=True))
s = (x ** 2).sum()
(h,) = torch.autograd.grad(s, x, torch.tensor([1., 2.]), is_grads_batched=True)
print(h)
'''

PROGRAMS['fwad_make_dual_on_view_and_unpack'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
base = torch.arange(6.).reshape(2, 3)
with fwAD.dual_level():
    v = base[:, 1]
    d = fwAD.make_dual(v, torch.tensor([10., 20.]))
    print(fwAD.unpack_dual(d))
    print(fwAD.unpack_dual(base).tangent)
    y = d.exp() * 2
    p, t = fwAD.unpack_dual(y)
    print(p, t)
    u = fwAD.unpack_dual(y)
    print(type(u).__name__, u._fields)
    E(lambda: fwAD.make_dual(base, torch.ones(3)))
    E(lambda: fwAD.make_dual(base, torch.ones(2, 3, dtype=torch.float64)))
    E(lambda: fwAD.make_dual(torch.tensor([1, 2]), torch.tensor([1, 1])))
print(fwAD.unpack_dual(y).tangent)
'''

PROGRAMS['anomaly_nan_in_backward_div'] = PRE + r'''
x = torch.tensor([0., 1.], requires_grad=True)
with torch.autograd.detect_anomaly(check_nan=True):
    y = x / x
    E(lambda: y.sum().backward())
print(x.grad)
with torch.autograd.set_detect_anomaly(True):
    z = x.sqrt()
    E(lambda: (z * 0).sum().backward())
print(x.grad, torch.is_anomaly_enabled())
'''


# ---- custom Functions (views, wrong gradients, materialize_grads, non-differentiable outputs, once_differentiable,
# setup_context), hooks, .grad setter, versions, complex and half gradients

PROGRAMS['fn_returns_view_inplace_later'] = PRE + r'''
class View(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view(-1)[:2]
    @staticmethod
    def backward(ctx, g):
        out = torch.zeros(2, 2)
        out.view(-1)[:2] = g
        return out
x = torch.ones(2, 2, requires_grad=True)
y = View.apply(x)
print(y, y.grad_fn, y._is_view(), y._base is x)
E(lambda: y.mul_(2))
z = View.apply(x.clone())
E(lambda: z.add_(1))
w = y * 3
w.sum().backward()
print(x.grad)
'''

PROGRAMS['fn_wrong_grad_count_shape_dtype'] = PRE + r'''
class Bad(torch.autograd.Function):
    mode = 0
    @staticmethod
    def forward(ctx, a, b):
        return a * b
    @staticmethod
    def backward(ctx, g):
        if Bad.mode == 0:
            return (g,)
        if Bad.mode == 1:
            return g.sum().reshape(1), g
        if Bad.mode == 2:
            return g.double(), g.half()
        return g, g, g
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = torch.tensor([4., 5., 6.], requires_grad=True)
for m in range(4):
    Bad.mode = m
    a.grad = b.grad = None
    E(lambda: Bad.apply(a, b).sum().backward())
    print(m, a.grad, b.grad)
'''

PROGRAMS['fn_set_materialize_grads_false_two_outputs'] = PRE + r'''
class Split(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, g1, g2):
        print('got', g1, g2)
        r = torch.zeros(2)
        if g1 is not None:
            r = r + 2 * g1
        if g2 is not None:
            r = r + 3 * g2
        return r
x = torch.tensor([1., 2.], requires_grad=True)
a, b = Split.apply(x)
a.sum().backward()
print(x.grad)
class Split2(Split):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3
a, b = Split2.apply(x)
b.sum().backward()
print(x.grad)
'''

PROGRAMS['fn_mark_non_diff_argsort'] = PRE + r'''
class SortFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        v, i = x.sort()
        ctx.mark_non_differentiable(i)
        ctx.save_for_backward(i)
        return v, i
    @staticmethod
    def backward(ctx, gv, gi):
        i, = ctx.saved_tensors
        print('gi', gi)
        r = torch.zeros_like(gv)
        r[i] = gv
        return r
x = torch.tensor([3., 1., 2.], requires_grad=True)
v, i = SortFn.apply(x)
print(v, i, v.requires_grad, i.requires_grad, i.grad_fn)
(v * torch.tensor([1., 10., 100.])).sum().backward()
print(x.grad)
E(lambda: i.float().sum().backward())
v2, i2 = SortFn.apply(x * 1)
print(v2.grad_fn.next_functions)
'''

PROGRAMS['fn_once_diff_double_backward'] = PRE + r'''
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
        print('requires', g.requires_grad, x.requires_grad, torch.is_grad_enabled())
        return 3 * x ** 2 * g
x = torch.tensor([1., 2.], requires_grad=True)
y = Cube.apply(x).sum()
(gx,) = torch.autograd.grad(y, x, create_graph=True)
print(gx, gx.requires_grad, gx.grad_fn)
E(lambda: gx.sum().backward())
y = Cube.apply(x).sum()
(gx,) = torch.autograd.grad(y, x)
print(gx, gx.requires_grad)
'''

PROGRAMS['fn_setup_context_double_backward'] = PRE + r'''
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(x, k):
        return x * x * k
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, k = inputs
        ctx.k = k
        ctx.save_for_backward(x)
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g * ctx.k, None
x = torch.tensor([1.5, -0.5], dtype=torch.float64, requires_grad=True)
y = Sq.apply(x, 3)
print(y, y.grad_fn)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.grad_fn)
(h,) = torch.autograd.grad(g.sum(), x)
print(h)
E(lambda: Sq.apply(x, k=3))
'''

PROGRAMS['fn_save_output_and_intermediate'] = PRE + r'''
class Sig(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        e = torch.exp(-x)
        y = 1 / (1 + e)
        ctx.save_for_backward(y, e)
        return y
    @staticmethod
    def backward(ctx, g):
        y, e = ctx.saved_tensors
        return g * y * (1 - y)
x = torch.tensor([0., 1., -2.], requires_grad=True)
y = Sig.apply(x)
print(y.grad_fn.saved_tensors if hasattr(y.grad_fn, 'saved_tensors') else None)
y.sum().backward()
print(x.grad)
y2 = Sig.apply(x)
y2.sum().backward()
E(lambda: y2.grad_fn.saved_tensors)
print(torch.allclose(x.grad, 2 * torch.sigmoid(x) * (1 - torch.sigmoid(x))))
'''

PROGRAMS['tensor_hook_changes_dtype_shape'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
h = y.register_hook(lambda g: g.double())
E(lambda: y.sum().backward(retain_graph=True))
h.remove()
h = y.register_hook(lambda g: g[:2])
E(lambda: y.sum().backward(retain_graph=True))
h.remove()
h = y.register_hook(lambda g: 5)
E(lambda: y.sum().backward(retain_graph=True))
h.remove()
y.register_hook(lambda g: None)
y.register_hook(lambda g: g * 10)
y.sum().backward()
print(x.grad)
E(lambda: torch.ones(2).register_hook(lambda g: g))
'''

PROGRAMS['post_accumulate_grad_hook_sgd'] = PRE + r'''
w = torch.tensor([1., -1.], requires_grad=True)
def step(p):
    print('acc', p.grad)
    with torch.no_grad():
        p -= 0.1 * p.grad
    p.grad = None
h = w.register_post_accumulate_grad_hook(step)
for _ in range(2):
    (w ** 2).sum().backward()
    print(w, w.grad)
h.remove()
(w ** 2).sum().backward()
print(w.grad)
y = w * 2
E(lambda: y.register_post_accumulate_grad_hook(step))
'''

PROGRAMS['node_hooks_none_entries'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
c = torch.tensor([3., 4.])
y = x * c
def post(gi, go):
    print('post', gi, go)
def pre(go):
    print('pre', go)
    return (go[0] * 2,)
y.grad_fn.register_hook(post)
y.grad_fn.register_prehook(pre)
y.sum().backward()
print(x.grad)
z = torch.stack([x, c])
z.grad_fn.register_hook(post)
z[0].sum().backward()
print(x.grad)
'''

PROGRAMS['grad_setter_errors'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: setattr(x, 'grad', torch.ones(3)))
E(lambda: setattr(x, 'grad', torch.ones(2, dtype=torch.float64)))
E(lambda: setattr(x, 'grad', [1., 2.]))
E(lambda: setattr(x, 'grad', torch.ones(2, dtype=torch.int64)))
x.grad = torch.ones(2)
print(x.grad)
y = x * 2
W(lambda: y.grad)
y.retain_grad()
print(y.retains_grad, x.retains_grad, y.grad)
x.retain_grad()
print(x.retains_grad)
E(lambda: y.requires_grad_(False))
y.requires_grad_(True)
print(y.requires_grad)
'''

PROGRAMS['detach_inplace_view_and_version'] = PRE + r'''
x = torch.arange(4., requires_grad=True)
y = x * 1
v = y[1:3]
E(lambda: v.detach_())
d = y.detach()
print(d._version, y._version)
d.add_(1)
print(d._version, y._version, y)
E(lambda: y.sum().backward())
z = x.exp()
zd = z.detach()
zd.zero_()
E(lambda: z.sum().backward())
w = x.clone()
w.detach_()
print(w.requires_grad, w.grad_fn, w.is_leaf)
'''

PROGRAMS['version_counter_views_and_data'] = PRE + r'''
x = torch.zeros(3, 4)
print(x._version)
v = x[1]
v.add_(1)
print(x._version, v._version)
x.data.add_(1)
print(x._version)
x.t_()
print(x._version)
x[0, 0] = 5
print(x._version, v._version)
x.unsqueeze_(0)
print(x._version)
y = x.detach()
y.mul_(2)
print(x._version, y._version)
torch.add(x, 1, out=x)
print(x._version)
x.copy_(torch.ones_like(x))
print(x._version)
'''

PROGRAMS['complex_scalar_backward_errors'] = PRE + r'''
z = torch.tensor([1+2j, 3-1j], requires_grad=True)
s = (z * z).sum()
print(s, s.grad_fn)
E(lambda: s.backward(retain_graph=True))
s.backward(torch.tensor(1+0j), retain_graph=True)
print(z.grad)
z.grad = None
r = s.real
r.backward()
print(z.grad)
x = torch.tensor([1., 2.], requires_grad=True)
c = torch.complex(x, x * 2)
print(c, c.grad_fn)
c.abs().sum().backward()
print(x.grad)
'''

PROGRAMS['half_grad_accumulate_and_mix'] = PRE + r'''
x = torch.tensor([0.1, 0.2, 0.3], dtype=torch.float16, requires_grad=True)
y = (x * x).sum()
y.backward()
print(x.grad, x.grad.dtype)
f = torch.tensor([1., 2., 3.], requires_grad=True)
m = (x * f).sum()
print(m.dtype, m.grad_fn)
m.backward()
print(x.grad, f.grad)
b = torch.tensor([1.5, 2.5], dtype=torch.bfloat16, requires_grad=True)
(b.exp() * 3).sum().backward()
print(b.grad)
'''

PROGRAMS['functional_hessian_nonscalar_errors'] = PRE + r'''
from torch.autograd.functional import hessian, vjp, jvp, vhp
def f(x):
    return x ** 2
E(lambda: hessian(f, torch.tensor([1., 2.])))
E(lambda: vjp(f, torch.tensor([1., 2.])))
print(vjp(lambda x: (x ** 2).sum(), torch.tensor([1., 2.])))
E(lambda: jvp(f, torch.tensor([1., 2.])))
print(jvp(f, torch.tensor([3.]), torch.tensor([1.])))
E(lambda: vhp(lambda x: x.sum(), torch.tensor([1., 2.]), torch.ones(3)))
E(lambda: hessian(lambda x: x.sum(), torch.tensor([1., 2.]), strict=True))
print(hessian(lambda x: (x ** 3).sum(), torch.tensor([1., 2.])))
'''

PROGRAMS['fwad_custom_fn_jvp_and_missing'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
class Mul3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 3
    @staticmethod
    def backward(ctx, g):
        return g * 3
class Mul3J(Mul3):
    @staticmethod
    def jvp(ctx, t):
        print('jvp', t)
        return t * 3
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 0.5]))
    E(lambda: Mul3.apply(d))
    y = Mul3J.apply(d)
    print(fwAD.unpack_dual(y))
    E(lambda: fwAD.dual_level().__enter__())
'''

PROGRAMS['fwad_inplace_on_dual_and_views'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    p = torch.tensor([1., 2., 3.])
    d = fwAD.make_dual(p, torch.tensor([1., 1., 1.]))
    d.mul_(2)
    print(fwAD.unpack_dual(d).tangent, d._version)
    base = torch.zeros(2, 3)
    base[0] = d
    print(fwAD.unpack_dual(base).tangent)
    v = base[1]
    v.add_(fwAD.make_dual(torch.ones(3), torch.full((3,), 7.)))
    print(fwAD.unpack_dual(base).tangent)
    print(fwAD.unpack_dual(base.t()).tangent)
    e = base.sum(0).exp()
    print(fwAD.unpack_dual(e))
'''

PROGRAMS['next_functions_nondiff_inputs'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
idx = torch.tensor([2, 0])
y = torch.gather(x, 0, idx)
print(y.grad_fn, y.grad_fn.next_functions, y.grad_fn._saved_index, y.grad_fn._saved_dim)
z = torch.where(x > 1, x, torch.zeros(3))
print(z.grad_fn, z.grad_fn.next_functions, z.grad_fn._saved_condition)
m = x.masked_fill(x > 2, 0.)
print(m.grad_fn, m.grad_fn.next_functions, m.grad_fn._saved_mask)
c = torch.cat([x, torch.ones(2)])
print(c.grad_fn, c.grad_fn.next_functions, c.grad_fn._saved_dim)
s = x.index_select(0, idx)
print(s.grad_fn, s.grad_fn._saved_index, s.grad_fn._saved_dim, s.grad_fn._saved_self_sym_sizes)
'''


# ---- calling nodes, backward(inputs=), freed graphs, reprs, in-place on expanded/multi-output views, CopySlices,
# saved-tensor hooks, Variable, Node

PROGRAMS['call_node_directly'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
w = torch.tensor([4., 5., 6.], requires_grad=True)
y = x * w
print(y.grad_fn(torch.ones(3)))
s = y.sum()
print(s.grad_fn(torch.tensor(2.)))
e = x.exp()
print(e.grad_fn(torch.tensor([1., 0., 1.])))
E(lambda: y.grad_fn())
E(lambda: y.grad_fn(torch.ones(3), torch.ones(3)))
acc = y.grad_fn.next_functions[0][0]
print(acc, acc.variable is x)
E(lambda: acc(torch.ones(3)))
print(x.grad)
'''

PROGRAMS['backward_inputs_nonleaf'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
h = x * 3
y = (h ** 2).sum()
y.backward(inputs=[h], retain_graph=True)
print(h.grad, x.grad, h.is_leaf)
y.backward(inputs=[x, h], retain_graph=True)
print(h.grad, x.grad)
E(lambda: y.backward(inputs=[]))
E(lambda: y.backward(inputs=[torch.ones(2)]))
torch.autograd.backward([y], inputs=(x,))
print(x.grad)
'''

PROGRAMS['autograd_backward_tuple_none_grads'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
a = (x * 2).sum()
b = x * 3
torch.autograd.backward((a, b), (None, torch.tensor([1., -1.])), retain_graph=True)
print(x.grad)
E(lambda: torch.autograd.backward((a, b), (None, None)))
E(lambda: torch.autograd.backward((a, b), [torch.tensor(1.)]))
E(lambda: torch.autograd.backward(b, torch.ones(3)))
torch.autograd.backward(a, grad_tensors=torch.tensor(0.5))
print(x.grad)
E(lambda: torch.autograd.backward(torch.ones(2)))
'''

PROGRAMS['saved_access_after_free'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
z = (y * x).sum()
f = z.grad_fn.next_functions[0][0]
print(f, f._saved_self, f._saved_other)
print(y.grad_fn._saved_result)
z.backward()
E(lambda: f._saved_self)
E(lambda: y.grad_fn._saved_result)
print(f._saved_self if False else 'skip')
E(lambda: (y * 2).sum().backward())
print(x.grad)
'''

PROGRAMS['repr_requires_grad_dtypes_empty'] = PRE + r'''
print(torch.tensor(2., requires_grad=True))
print(torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True) * 2)
print(torch.zeros(0, 3, requires_grad=True))
print(torch.zeros(0, 3, requires_grad=True).sum(0))
print(torch.tensor([1 + 1j], requires_grad=True).conj())
print(torch.tensor([0.5], dtype=torch.float16, requires_grad=True).exp())
print(torch.tensor(3., requires_grad=True).detach())
torch.set_printoptions(precision=2)
print(torch.tensor([1.23456, 2.3456], requires_grad=True) / 3)
e = torch.zeros(2, 0, requires_grad=True)
s = e.sum()
s.backward()
print(s, e.grad)
'''

PROGRAMS['inplace_expanded_and_leaf_views'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: x.expand(3, 2).add_(1))
y = x * 1
E(lambda: y.expand(3, 2).add_(1))
E(lambda: x[0].mul_(2))
E(lambda: x.view(2).zero_())
with torch.no_grad():
    v = y[:1]
E(lambda: v.mul_(2))
with torch.no_grad():
    x[0] = 10.
print(x, x._version)
'''

PROGRAMS['multi_output_views_inplace'] = PRE + r'''
x = torch.arange(6., requires_grad=True)
y = x * 1
a, b = y.unbind(0)[:2]
E(lambda: a.add_(1))
p, q = y.split(3)
E(lambda: p.mul_(2))
c = y.chunk(2)[1]
E(lambda: c.zero_())
with torch.no_grad():
    n1, n2 = y.split(3)
E(lambda: n1.add_(1))
print(y)
u = torch.arange(4.).unbind()
u[0].add_(1)
print(u)
'''

PROGRAMS['copyslices_chain'] = PRE + r'''
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = x.clone()
y[0].mul_(2)
print(y.grad_fn, y.grad_fn.next_functions)
y[:, 1].exp_()
print(y.grad_fn, y.grad_fn.next_functions[0][0].name())
v = y.t()
v[0, 1] = 0.
print(y.grad_fn.name(), v.grad_fn.name(), v._version, y._version)
E(lambda: y.sum().backward())
print(x.grad)
'''

PROGRAMS['grad_wrt_modified_intermediate'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
h = x * 2
y = h.sigmoid()
h.add_(1)
E(lambda: torch.autograd.grad(y.sum(), h, retain_graph=True))
E(lambda: torch.autograd.grad(y.sum(), x))
h2 = x * 2
out = (h2 * 3).sum()
h2.add_(1)
print(torch.autograd.grad(out, x))
'''

PROGRAMS['saved_hooks_pack_to_none_and_ints'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
store = []
def pack(t):
    store.append(t.clone())
    return len(store) - 1
def unpack(i):
    print('unpack', i)
    return store[i]
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = (x * x).sin()
print(len(store))
y.sum().backward()
print(x.grad)
with torch.autograd.graph.saved_tensors_hooks(lambda t: None, lambda p: torch.ones(2)):
    z = x.exp()
z.sum().backward()
print(x.grad)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda p: torch.ones(3)):
    w = x.exp()
E(lambda: w.sum().backward())
'''

PROGRAMS['disable_saved_hooks_and_raw_saved'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.graph.disable_saved_tensors_hooks('no hooks here'):
    E(lambda: torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t).__enter__())
    y = x * x
print(torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t) is not None)
r = y.grad_fn._raw_saved_self
print(type(r).__name__)
r.register_hooks(lambda t: t * 1, lambda t: t * 2)
E(lambda: r.register_hooks(lambda t: t, lambda t: t))
y.sum().backward()
print(x.grad)
z = x.exp()
E(lambda: z.grad_fn._raw_saved_result.register_hooks(lambda t: t))
E(lambda: z.grad_fn._raw_saved_result.register_hooks(1, 2))
'''

PROGRAMS['save_on_cpu_roundtrip'] = PRE + r'''
x = torch.tensor([0.5, 1.5], requires_grad=True)
with torch.autograd.graph.save_on_cpu(pin_memory=False):
    y = x.tanh() * x
    print(y.grad_fn._saved_self, y.grad_fn._saved_other)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['variable_legacy_api'] = PRE + r'''
from torch.autograd import Variable
v = Variable(torch.tensor([1., 2.]), requires_grad=True)
print(v, type(v).__name__, v.requires_grad, v.is_leaf)
w = Variable(torch.tensor([3., 4.]))
print(w.requires_grad)
(v * w).sum().backward()
print(v.grad, v.grad.data, v.grad.requires_grad)
print(isinstance(v, Variable), isinstance(v, torch.Tensor))
E(lambda: Variable(torch.tensor([1, 2]), requires_grad=True))
u = Variable(v * 2)
print(u.grad_fn, u.requires_grad)
'''

PROGRAMS['node_isinstance_and_class'] = PRE + r'''
x = torch.tensor([1.], requires_grad=True)
y = x.sin()
print(isinstance(y.grad_fn, torch.autograd.graph.Node))
print(type(y.grad_fn).__name__, y.grad_fn.__class__.__name__)
print(issubclass(type(y.grad_fn), torch.autograd.graph.Node))
acc = y.grad_fn.next_functions[0][0]
print(isinstance(acc, torch.autograd.graph.Node), type(acc).__name__)
print(y.grad_fn.metadata, acc.metadata)
y.grad_fn.metadata['tag'] = 1
print(y.grad_fn.metadata)
print(isinstance(x, torch.autograd.graph.Node), isinstance(None, torch.autograd.graph.Node))
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
z = F.apply(x)
print(isinstance(z.grad_fn, torch.autograd.graph.Node), type(z.grad_fn).__name__, z.grad_fn.name())
print(isinstance(z.grad_fn, torch.autograd.function.BackwardCFunction))
'''

PROGRAMS['backward_through_freed_shared'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
h = x.exp()
a = h.sum()
b = (h * 2).sum()
a.backward()
E(lambda: b.backward())
print(x.grad)
c = (h.cos()).sum()
E(lambda: c.backward())
print(x.grad)
h2 = x.sin()
a2 = (h2 * h2).sum()
b2 = h2.sum()
a2.backward()
E(lambda: (h2 * h2).sum().backward())
E(lambda: b2.backward())
print(x.grad)
'''

PROGRAMS['requires_grad_int_bool_errors'] = PRE + r'''
E(lambda: torch.tensor([1, 2], requires_grad=True))
E(lambda: torch.tensor([True], requires_grad=True))
E(lambda: torch.arange(3).requires_grad_())
E(lambda: torch.zeros(2, dtype=torch.int32, requires_grad=True))
x = torch.arange(3.)
print(x.requires_grad_(False).requires_grad)
y = torch.tensor([1., 2.], requires_grad=True)
print((y > 1).requires_grad, (y.long()).requires_grad, y.argmax().requires_grad, y.round().requires_grad)
print(y.floor().grad_fn, y.sign().grad_fn, torch.ones_like(y).requires_grad, y.new_ones(2).requires_grad)
'''

PROGRAMS['poly_legendre_float64_double_backward'] = PRE + r'''
class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)
    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)
x = torch.linspace(-1, 1, 5, dtype=torch.float64, requires_grad=True)
P3 = LegendrePolynomial3.apply
y = P3(x)
print(y)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.grad_fn)
h, = torch.autograd.grad(g.sum(), x)
print(h)
a, b = torch.tensor(0., requires_grad=True), torch.tensor(-1., requires_grad=True)
yp = a + b * P3(x.detach())
loss = (yp - torch.sin(x.detach())).pow(2).sum()
loss.backward()
print(loss, a.grad, b.grad)
'''


# ---- grad_outputs checks, hooks and in-place, ctx misuse, mark_dirty, legacy Functions, create_graph warning,
# zeroing gradients, .grad layouts, forward-AD levels, autograd.functional, gradcheck

PROGRAMS['grad_outputs_shape_dtype_mismatch'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
E(lambda: torch.autograd.grad(y, x, torch.ones(2), retain_graph=True))
E(lambda: torch.autograd.grad(y, x, torch.ones(3, dtype=torch.complex64), retain_graph=True))
print(torch.autograd.grad(y, x, torch.ones(3, dtype=torch.float64), retain_graph=True))
E(lambda: torch.autograd.grad(y, x, torch.ones(1, 3), retain_graph=True))
E(lambda: torch.autograd.grad(y, x, torch.ones(3, 1), retain_graph=True))
z = torch.tensor([1+1j], requires_grad=True) * 2
E(lambda: torch.autograd.grad(z, [], torch.ones(1)))
E(lambda: torch.autograd.grad(z.real.sum(), x))
'''

PROGRAMS['hook_then_inplace_on_tensor'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.register_hook(lambda g: print('hook before inplace', g))
y.retain_grad()
y.mul_(3)
y.register_hook(lambda g: print('hook after inplace', g))
print(y.grad_fn)
(y * torch.tensor([1., 10.])).sum().backward()
print(y.grad, x.grad)
'''

PROGRAMS['node_hook_wrong_count'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
y = x * w
y.grad_fn.register_hook(lambda gi, go: (gi[0],))
E(lambda: y.sum().backward(retain_graph=True))
z = x * w
z.grad_fn.register_prehook(lambda go: (go[0], go[0]))
E(lambda: z.sum().backward(retain_graph=True))
u = x * w
u.grad_fn.register_hook(lambda gi, go: 3)
E(lambda: u.sum().backward(retain_graph=True))
v = x * w
v.grad_fn.register_hook(lambda gi, go: (None, gi[1] * 0))
v.sum().backward()
print(x.grad, w.grad)
'''

PROGRAMS['ctx_save_nontensor_and_dirty_errors'] = PRE + r'''
class SaveInt(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, 3)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
class SaveNone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(None, x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        print('saved', ctx.saved_tensors)
        return g * 2
class DirtyNotReturned(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: SaveInt.apply(x))
SaveNone.apply(x).sum().backward()
print(x.grad)
E(lambda: DirtyNotReturned.apply(x.clone()))
'''

PROGRAMS['mark_dirty_leaf_and_inplace_ok'] = PRE + r'''
class AddOne(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: AddOne.apply(x))
print(x, x._version)
y = x.clone()
z = AddOne.apply(y)
print(z is y, y.grad_fn, y._version, z)
(z * z).sum().backward()
print(x.grad)
w = torch.tensor([5.])
r = AddOne.apply(w)
print(r is w, r, r.requires_grad, w._version)
'''

PROGRAMS['fn_return_input_unchanged'] = PRE + r'''
class Ident(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x
    @staticmethod
    def backward(ctx, g):
        print('ident backward', g)
        return g * 2
x = torch.tensor([1., 2.], requires_grad=True)
y = Ident.apply(x)
print(y is x, y.grad_fn, y._is_view(), y.is_leaf)
y.sum().backward()
print(x.grad)
a = x * 1
b = Ident.apply(a)
print(b is a, b._is_view(), b.grad_fn.next_functions)
b.sum().backward()
print(x.grad)
'''

PROGRAMS['fn_returns_nontensor_and_none'] = PRE + r'''
class Multi(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, 7, None, x.sum()
    @staticmethod
    def backward(ctx, g1, g2, g3, g4):
        print('grads', g1, g2, g3, g4)
        return g1 * 2 + g4
x = torch.tensor([1., 2.], requires_grad=True)
out = Multi.apply(x)
print(type(out).__name__, len(out), out[1], out[2])
(out[0].sum() + out[3]).backward()
print(x.grad)
print(Multi.apply(torch.tensor([1.]))[0].requires_grad)
'''

PROGRAMS['fn_legacy_nonstatic_and_instance'] = PRE + r'''
class Old(torch.autograd.Function):
    def forward(self, x):
        return x * 2
    def backward(self, g):
        return g * 2
x = torch.tensor([1.], requires_grad=True)
E(lambda: Old()(x))
E(lambda: Old.apply(x))
class New(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
E(lambda: New()(x))
E(lambda: New.forward(None, x))
class NoBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
y = NoBackward.apply(x)
print(y.grad_fn.name())
E(lambda: y.backward())
'''

PROGRAMS['create_graph_backward_warning'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x ** 3).sum()
W(lambda: y.backward(create_graph=True))
print(x.grad, x.grad.grad_fn, x.grad.requires_grad)
g = x.grad
x.grad = None
g.sum().backward()
print(x.grad)
z = (x ** 2).sum()
W(lambda: torch.autograd.backward(z, create_graph=True, inputs=[x]))
print(x.grad)
'''

PROGRAMS['zero_grad_styles'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
for i in range(3):
    (x * (i + 1)).sum().backward()
    print(x.grad)
x.grad.zero_()
print(x.grad)
(x * x).sum().backward(create_graph=True)
print(x.grad.grad_fn)
if x.grad.grad_fn is not None:
    x.grad.detach_()
else:
    x.grad.requires_grad_(False)
print(x.grad.grad_fn, x.grad.requires_grad)
x.grad.zero_()
g = x.grad
(x * 5).sum().backward()
print(g is x.grad, x.grad)
x.grad = None
(x * 5).sum().backward()
print(g is x.grad, x.grad)
'''

# PyTorch adds into an existing .grad with ``+=``: an expanded .grad (stride 0) refuses the write.
PROGRAMS['grad_accumulate_nonstandard_layout'] = PRE + r'''
x = torch.zeros(2, 3, requires_grad=True)
x.grad = torch.ones(3, 2).t()
print(x.grad.stride(), x.grad.is_contiguous())
(x * 2).sum().backward()
print(x.grad, x.grad.stride())
y = torch.zeros(3, requires_grad=True)
y.grad = torch.ones(1).expand(3)
E(lambda: (y * 3).sum().backward())
print(y.grad, y.grad.stride())
y.grad = torch.ones(1).expand(3)
W(lambda: (y * 3).sum().backward(create_graph=True))
print(y.grad, y.grad.stride())
z = torch.zeros(2, 2, requires_grad=True)
(z.t() * torch.tensor([[1., 2.], [3., 4.]])).sum().backward()
print(z.grad, z.grad.stride())
'''

PROGRAMS['fwad_enter_exit_level_fns'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
lvl = fwAD.enter_dual_level()
print(lvl)
d = fwAD.make_dual(torch.tensor([2.]), torch.tensor([1.]))
print(fwAD.unpack_dual(d.pow(3)))
E(lambda: fwAD.enter_dual_level())
fwAD.exit_dual_level()
print(fwAD.unpack_dual(d))
E(lambda: fwAD.exit_dual_level())
E(lambda: fwAD.make_dual(torch.tensor([2.]), torch.tensor([1.])))
with fwAD.dual_level() as l2:
    print(l2)
'''

PROGRAMS['fwad_tangent_requires_grad_mix'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
x = torch.tensor([1., 2.], requires_grad=True)
t = torch.tensor([1., -1.], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    print(d.requires_grad, d.grad_fn)
    y = (d * d).sum()
    p, tan = fwAD.unpack_dual(y)
    print(p, tan)
    (p + tan).backward()
print(x.grad, t.grad)
'''

PROGRAMS['jacobian_vectorize_forward_mode_tuple'] = PRE + r'''
from torch.autograd.functional import jacobian
def f(a, b):
    return a * b, (a + b).sum()
a = torch.tensor([1., 2.])
b = torch.tensor([3., 4.])
J = jacobian(f, (a, b), vectorize=True, strategy='forward-mode')
print(J)
J2 = jacobian(f, (a, b))
print(J2)
E(lambda: jacobian(f, (a, b), strategy='forward-mode'))
E(lambda: jacobian(f, (a, b), strategy='bad'))
E(lambda: jacobian(f, (a, b), create_graph=True, strategy='forward-mode', vectorize=True))
print(jacobian(lambda x: x.sum(), torch.tensor(3.)))
'''

PROGRAMS['functional_int_and_nontensor_errors'] = PRE + r'''
from torch.autograd.functional import jacobian, vjp, hessian
E(lambda: jacobian(lambda x: x * 2, torch.tensor([1, 2])))
E(lambda: jacobian(lambda x: 3, torch.tensor([1., 2.])))
E(lambda: jacobian(lambda x: x * 2, [1., 2.]))
E(lambda: vjp(lambda x: x.sum(), torch.tensor([1., 2.]), torch.ones(2)))
print(jacobian(lambda x: torch.zeros(2), torch.tensor([1., 2.])))
E(lambda: jacobian(lambda x: torch.zeros(2), torch.tensor([1., 2.]), strict=True))
print(hessian(lambda x, y: (x * y).sum(), (torch.tensor([1., 2.]), torch.tensor([3., 4.]))))
'''

PROGRAMS['gradcheck_failing_fn'] = PRE + r'''
from torch.autograd import gradcheck, gradgradcheck
class BadSq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x * g
x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
print(gradcheck(BadSq.apply, (x,), raise_exception=False))
E(lambda: gradcheck(BadSq.apply, (x,)))
print(gradcheck(lambda t: t ** 2, (x,)))
print(gradgradcheck(lambda t: t ** 3, (x,)))
W(lambda: gradcheck(lambda t: t ** 2, (x.float().detach().requires_grad_(),), raise_exception=False))
'''


# ---- every _saved_* attribute a student finds with dir(grad_fn)

DUMP = r'''
def dump(t):
    f = t.grad_fn
    print(f.name(), [(a, getattr(f, a)) for a in dir(f) if a.startswith('_saved_')])
'''
PROGRAMS['dir_saved_elementwise'] = PRE + DUMP + r'''
x = torch.tensor([-1.5, 0.5, 2.0], requires_grad=True)
y = torch.tensor([0.5, 1.0, -3.0], requires_grad=True)
for t in [x.clamp(min=0), x.clamp(-1, 1), x.clip(max=1.), x.abs(), x.relu(), torch.nn.functional.softplus(x),
          torch.lerp(x, y, 0.3), torch.lerp(x, y, torch.tensor(0.25)), torch.addcmul(x, x, y, value=2),
          torch.addcdiv(x, x, y, value=0.5), torch.atan2(x, y), torch.hypot(x, y), torch.maximum(x, y),
          torch.fmod(x, 1.5), torch.remainder(x, y), x.sigmoid(), x.tanh(), torch.nn.functional.leaky_relu(x, 0.2),
          torch.nn.functional.elu(x), torch.nn.functional.gelu(x, approximate='tanh'), x.erf(), x.log1p().nan_to_num()]:
    dump(t)
'''
PROGRAMS['dir_saved_shape_ops'] = PRE + DUMP + r'''
x = torch.arange(24., requires_grad=True).reshape(2, 3, 4)
for t in [x.reshape(6, 4), x.transpose(0, 2).reshape(-1), x.flatten(1), x.narrow(2, 1, 2), x.select(1, 0),
          x.diagonal(0, 1, 2), x.unfold(2, 2, 1), x.movedim(0, -1), x.permute(2, 0, 1), x.squeeze(0), x[:1].squeeze(0),
          x.unsqueeze(1), x.expand(2, 2, 3, 4), x.repeat(1, 2, 1), x.flip(0, 2), x.roll(1, 2), x[:, [0, 2]],
          x[x > 10], x[..., ::2], x.mT, x.split(2, 2)[1], x.chunk(3, 1)[0], x.unbind(1)[2], x.contiguous().t() if False else x.sum(0).t(),
          x.transpose(1, 2).contiguous(), x.float(), x.double(), x.tile(2), x.view(4, 6), torch.narrow_copy(x, 0, 0, 1)]:
    dump(t)
'''
PROGRAMS['dir_saved_linear_algebra'] = PRE + DUMP + r'''
a = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=True)
b = torch.tensor([[0.5, -1.], [2., 0.]], requires_grad=True)
v = torch.tensor([1., -1.], requires_grad=True)
c = torch.arange(12., requires_grad=True).reshape(2, 3, 2)
for t in [a @ b, a @ v, v @ v, c @ b, c @ v, torch.bmm(c, c.transpose(1, 2)), torch.einsum('ij,jk->ik', a, b),
          torch.outer(v, v), torch.addmm(v, a, b), torch.addmv(torch.zeros(3), a, v), b.det(), b.inverse(),
          torch.linalg.norm(a), a.norm(dim=1), torch.dist(v, v * 2), b.trace(), torch.tensordot(c, b, dims=1),
          torch.kron(b, b), torch.cross(torch.ones(3, requires_grad=True), torch.arange(3.), dim=0), b.matrix_power(3)]:
    dump(t)
'''
PROGRAMS['dir_saved_reductions_misc'] = PRE + DUMP + r'''
x = torch.tensor([[1., 5., 3.], [4., 2., 6.]], requires_grad=True)
for t in [x.max(), x.min(1)[0], x.median(), x.median(0)[0], x.kthvalue(2, 1)[0], x.sort(1)[0], x.topk(2)[0],
          x.cumsum(1), x.cumprod(0), x.logcumsumexp(1), x.var(1), torch.var_mean(x, 0)[0], torch.std_mean(x)[1], x.norm(p=1),
          x.amin((0, 1)), x.nansum(), x.mean(), x.softmax(1), x.log_softmax(0), x.cummax(1)[0], x.nanmean(1),
          x.count_nonzero() if False else x.sum(dtype=torch.float64), x.prod(), torch.trapezoid(x), x.renorm(2, 0, 1.)]:
    dump(t)
'''
PROGRAMS['dir_saved_indexing_scatter'] = PRE + DUMP + r'''
x = torch.arange(6., requires_grad=True).reshape(2, 3)
src = torch.ones(2, 3, requires_grad=True)
i = torch.tensor([[0, 1, 0], [1, 0, 1]])
for t in [x.scatter(0, i, src), x.scatter(0, i, 2.), x.scatter_add(0, i, src), x.gather(1, i[:, :2]),
          x.index_add(1, torch.tensor([0, 2]), src[:, :2], alpha=2), x.index_fill(1, torch.tensor([1]), -1.),
          x.index_copy(1, torch.tensor([2, 0]), src[:, :2]), x.masked_scatter(x > 2, src), x.take(torch.tensor([5, 0])),
          x.put(torch.tensor([1]), torch.tensor([9.])), x.index_put((torch.tensor([0]),), torch.tensor(7.)),
          x.scatter_reduce(1, i, src, 'amax'), x.masked_select(x > 1), x.diag_embed(), x.tril(), x.triu(1)]:
    dump(t)
'''


# ---- hook order: tensor, node, leaf, retain_grad; diamonds; hooks added or removed during backward

PROGRAMS['hook_order_tensor_node_retain'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
z = y.exp()
y.grad_fn.register_prehook(lambda go: print('node pre', go[0]))
y.register_hook(lambda g: print('tensor hook 1', g))
y.retain_grad()
y.register_hook(lambda g: g * 2)
y.grad_fn.register_hook(lambda gi, go: print('node post', gi[0], go[0]))
y.register_hook(lambda g: print('tensor hook 3', g))
z.sum().backward()
print(y.grad, x.grad)
'''

PROGRAMS['hook_order_leaf_acc'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
x.register_hook(lambda g: print('leaf hook a', g) or g + 1)
x.register_post_accumulate_grad_hook(lambda p: print('post acc', p.grad))
x.register_hook(lambda g: print('leaf hook b', g))
acc = (x * 1).grad_fn.next_functions[0][0]
acc.register_prehook(lambda go: print('acc pre', go))
acc.register_hook(lambda gi, go: print('acc post', gi, go))
(x * 2).sum().backward()
print(x.grad)
'''

PROGRAMS['diamond_execution_order'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
a = x * 2
b = x + 1
c = a.sin()
d = b.cos()
e = a * b
for name, t in [('a', a), ('b', b), ('c', c), ('d', d), ('e', e)]:
    t.register_hook(lambda g, name=name: print(name, g))
out = c.sum() + d.sum() + e.sum()
out.backward()
print(x.grad)
'''

PROGRAMS['hook_registered_in_hook'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
z = y * 3
handles = []
def h1(g):
    print('h1', g)
    handles.append(y.register_hook(lambda gg: print('late y hook', gg)))
    handles[0].remove()
    return g
handles.append(z.register_hook(lambda g: print('z hook 0', g)))
z.register_hook(h1)
z.sum().backward(retain_graph=True)
print('second')
z.sum().backward()
print(x.grad)
'''

PROGRAMS['hook_mutates_grad_inplace_shared'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 1
a = y * 2
b = y * 3
def h(g):
    g.mul_(10)
    print('h', g)
y.register_hook(h)
(a + b).sum().backward()
print(x.grad)
w = torch.tensor([1., 1.], requires_grad=True)
w.register_hook(lambda g: g.add_(100))
u = w.sum()
E(lambda: u.backward())
print(w.grad)
'''

PROGRAMS['grad_wrt_nonleaf_with_hooks'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x ** 2
y.register_hook(lambda g: print('y hook', g) or g * 10)
y.grad_fn.register_prehook(lambda go: print('y node pre', go))
out = (y * 3).sum()
print(torch.autograd.grad(out, y, retain_graph=True))
print(torch.autograd.grad(out, x, retain_graph=True))
print(torch.autograd.grad(out, [y, x]))
'''

PROGRAMS['retain_grad_multiple_outputs'] = PRE + r'''
x = torch.arange(6., requires_grad=True)
parts = (x * 2).split([1, 2, 3])
for p in parts:
    p.retain_grad()
(parts[0].sum() * 1 + parts[2].sum() * 3).backward()
print([p.grad for p in parts])
print(x.grad)
v, i = (x * 1).reshape(2, 3).max(1)
v.retain_grad()
v.sum().backward()
print(v.grad, i, x.grad)
'''

PROGRAMS['backward_inputs_hook_nonleaf'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
h = x * 2
h.register_hook(lambda g: print('h hook', g) or g * -1)
out = (h ** 2).sum()
out.backward(inputs=[h], retain_graph=True)
print(h.grad, x.grad)
out.backward(inputs=[x])
print(h.grad, x.grad)
'''

PROGRAMS['node_hook_handles_remove_twice'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
h1 = y.grad_fn.register_hook(lambda gi, go: print('post', gi[0]))
h2 = y.grad_fn.register_prehook(lambda go: print('pre', go[0]))
h1.remove()
h1.remove()
y.sum().backward(retain_graph=True)
h2.remove()
y.sum().backward()
print(x.grad)
print(type(h1).__name__)
with h2:
    pass
'''

PROGRAMS['hook_on_intermediate_used_twice'] = PRE + r'''
x = torch.tensor(2., requires_grad=True)
y = x * x
y.register_hook(lambda g: print('y grad', g))
z = y * y + y
z.backward()
print(x.grad)
x.grad = None
y2 = x * x
z2 = torch.stack([y2, y2, y2 * 2]).sum()
y2.register_hook(lambda g: print('y2 grad', g))
z2.backward()
print(x.grad)
'''


# ---- gradients at non-differentiable points, ties, inf/nan, half precision

G = r'''
def g(f, *vals, dtype=torch.float32):
    xs = [torch.tensor(v, dtype=dtype, requires_grad=True) for v in vals]
    out = f(*xs)
    out.sum().backward()
    print(out.detach(), [x.grad for x in xs])
'''
PROGRAMS['edge_grads_nondiff_points'] = PRE + G + r'''
g(lambda x: x.abs(), [0., -0., 1.])
g(lambda x: x.relu(), [0., -1., 1.])
g(lambda x: x.clamp(0, 1), [0., 1., 0.5, 2.])
g(lambda x: x.sqrt(), [0., 4.])
g(lambda x: x ** 0, [0., 2.])
g(lambda x: x ** 0.5, [-1., 0., 4.])
g(lambda x: x ** 2.5, [0., -1.])
g(lambda x: x.pow(-1), [0., 2.])
g(lambda x, y: x ** y, [0., 0., 2.], [0., 2., 0.])
g(lambda x: torch.tensor(0.) ** x, [0., 1., -1.])
g(lambda x: x.sign(), [0., 1.])
g(lambda x: x.round() + x.floor() + x.trunc(), [0.5, 1.5])
'''
PROGRAMS['edge_grads_reductions_ties'] = PRE + G + r'''
g(lambda x: x.max(), [1., 3., 3., 2.])
g(lambda x: x.amax(), [3., 3., 3.])
g(lambda x: x.max(0)[0], [1., 3., 3., 2.])
g(lambda x: x.min(), [1., 1., 3.])
g(lambda x: x.median(), [2., 2., 1., 3.])
g(lambda x: x.norm(), [0., 0.])
g(lambda x: x.norm(p=1), [0., -2.])
g(lambda x: x.norm(p=float('inf')), [-2., 2., 1.])
g(lambda x: x.std(), [1.])
g(lambda x: x.var(), [5.])
g(lambda x: x.prod(), [0., 2., 3.])
g(lambda x: x.prod(), [0., 0., 3.])
g(lambda x: x.cumprod(0), [2., 0., 3.])
g(lambda x: x.logsumexp(0), [float('-inf'), float('-inf')])
g(lambda x: x.amin(), [1., 1.], dtype=torch.float64)
'''
PROGRAMS['edge_grads_where_nan_trick'] = PRE + G + r'''
g(lambda x: torch.where(x > 0, x.sqrt(), torch.zeros(())), [-1., 4.])
g(lambda x: torch.where(x > 0, x.log(), x), [0., 2.])
g(lambda x: torch.where(x > 0, x, torch.zeros(())).sqrt(), [-1., 0., 4.])
g(lambda x: torch.where(x == 0, torch.ones(()), torch.sin(x) / x), [0., 1.])
g(lambda x: torch.sinc(x), [0., 0.5])
g(lambda x: torch.xlogy(x, x), [0., 1., 2.])
g(lambda x, y: torch.xlogy(x, y), [0., 1.], [0., 0.])
g(lambda x, y: torch.atan2(x, y), [0., 1.], [0., 0.])
g(lambda x, y: torch.hypot(x, y), [0., 3.], [0., 4.])
g(lambda x, y: torch.logaddexp(x, y), [float('-inf'), 0.], [float('-inf'), 0.])
g(lambda x: torch.nn.functional.normalize(x, dim=0), [0., 0.])
g(lambda x, y: torch.dist(x, y), [1., 2.], [1., 2.])
g(lambda x, y: torch.cdist(x, y), [[1., 2.]], [[1., 2.], [0., 0.]])
'''
PROGRAMS['edge_grads_div_inf_nan'] = PRE + G + r'''
g(lambda x: 1 / x, [0., -0.])
g(lambda x, y: x / y, [1., 0.], [0., 0.])
g(lambda x: x.log(), [0., -1.])
g(lambda x: x.exp(), [1000., -1000.])
g(lambda x: x.tanh(), [100., -100.])
g(lambda x: x.sigmoid(), [100., -100.])
g(lambda x: torch.nn.functional.softplus(x), [100., -100.])
g(lambda x: x.acos() + x.asin(), [1., -1., 0.])
g(lambda x: x.atanh(), [1., 0.])
g(lambda x: x.rsqrt(), [0., 4.])
g(lambda x: x.reciprocal(), [0., 2.], dtype=torch.float64)
g(lambda x: x.log_softmax(0), [float('inf'), 0.])
g(lambda x: x.softmax(0), [float('-inf'), float('-inf')])
'''
PROGRAMS['edge_grads_float16_bfloat16'] = PRE + G + r'''
g(lambda x: x.exp(), [10., 11.5], dtype=torch.float16)
g(lambda x: (x * x).sum(), [300., 200.], dtype=torch.float16)
g(lambda x: x.sigmoid(), [0.1, -2.3], dtype=torch.float16)
g(lambda x: x.log_softmax(0), [1., 2., 3.], dtype=torch.float16)
g(lambda x: x.norm(), [3., 4.], dtype=torch.bfloat16)
g(lambda x: x.mean(), [1., 2., 4.], dtype=torch.bfloat16)
g(lambda x: x.tanh(), [0.3, 0.7], dtype=torch.bfloat16)
g(lambda x: x.sqrt(), [2., 3.], dtype=torch.float16)
g(lambda x: x.pow(3), [1.1, 1.3], dtype=torch.float16)
g(lambda x: torch.nn.functional.gelu(x), [0.5, -1.5], dtype=torch.bfloat16)
'''


# ---- ctx introspection, node reprs, needs_input_grad

PROGRAMS['ctx_introspection_in_forward'] = PRE + r'''
class Probe(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k, y=None):
        print(type(ctx).__name__, ctx.needs_input_grad)
        print(hasattr(ctx, 'to_save'), getattr(ctx, 'materialize_grads', 'n/a'))
        ctx.save_for_backward(x)
        print(ctx.to_save if hasattr(ctx, 'to_save') else 'no to_save')
        E(lambda: ctx.saved_tensors)
        ctx.mark_non_differentiable()
        return x * k
    @staticmethod
    def backward(ctx, g):
        print(type(ctx).__name__, ctx.needs_input_grad, len(ctx.saved_tensors))
        return g * 2, None, None
x = torch.tensor([1., 2.], requires_grad=True)
y = Probe.apply(x, 3)
print(y.grad_fn, type(y.grad_fn).__name__, type(y.grad_fn).__module__ if False else '')
print(y.grad_fn.needs_input_grad, y.grad_fn.saved_tensors)
y.sum().backward()
print(x.grad)
E(lambda: y.grad_fn.saved_tensors)
'''
PROGRAMS['fn_repr_and_class_attrs'] = PRE + r'''
import re
class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = torch.tensor([1.], requires_grad=True)
y = Twice.apply(x)
print(re.sub('0x[0-9a-f]+', 'ADDR', repr(y.grad_fn)))
print(y)
print(type(y.grad_fn).__qualname__, type(y.grad_fn).__bases__[0].__name__)
print(y.grad_fn._forward_cls is Twice, y.grad_fn.next_functions)
print(Twice.__name__, hasattr(Twice, 'apply'), hasattr(Twice, '_backward_cls'))
print(Twice._backward_cls.__name__)
print(y.grad_fn._is_view() if hasattr(y.grad_fn, '_is_view') else 'no _is_view')
'''
PROGRAMS['needs_input_grad_mixed'] = PRE + r'''
class Mix(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, n, c):
        ctx.save_for_backward(a, b)
        ctx.n = n
        return a * b * n + c
    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        print('needs', ctx.needs_input_grad)
        ga = g * b * ctx.n if ctx.needs_input_grad[0] else None
        gb = g * a * ctx.n if ctx.needs_input_grad[1] else None
        return ga, gb, None, g if ctx.needs_input_grad[3] else None
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.])
c = torch.tensor([0.5, 0.5], requires_grad=True)
Mix.apply(a, b, 2, c).sum().backward()
print(a.grad, b.grad, c.grad)
out = Mix.apply(a, b, 2, c).sum()
print(torch.autograd.grad(out, c))
with torch.no_grad():
    r = Mix.apply(a, b, 2, c)
print(r.requires_grad, r.grad_fn)
'''


# ---- forward-mode AD of reductions, linear algebra, complex; functional jvp/hvp/hessian

FW = r'''
import torch.autograd.forward_ad as fwAD
def jv(f, p, t):
    with fwAD.dual_level():
        out = f(fwAD.make_dual(p, t))
        outs = out if isinstance(out, tuple) else (out,)
        for o in outs:
            u = fwAD.unpack_dual(o)
            print(u.primal, u.tangent)
'''
PROGRAMS['fwad_ops_reductions'] = PRE + FW + r'''
p = torch.tensor([[0.3, -1.2, 2.5], [1.1, 0.4, -0.7]])
t = torch.tensor([[1., 0.5, -1.], [0.25, 2., 1.5]])
jv(lambda x: x.softmax(1), p, t)
jv(lambda x: x.log_softmax(0), p, t)
jv(lambda x: x.logsumexp(1), p, t)
jv(lambda x: x.norm(), p, t)
jv(lambda x: x.std(1), p, t)
jv(lambda x: x.var(0, correction=0), p, t)
jv(lambda x: x.max(1), p, t)
jv(lambda x: x.amax(0), p, t)
jv(lambda x: x.sort(1), p, t)
jv(lambda x: x.cumsum(1), p, t)
jv(lambda x: x.cumprod(1), p, t)
jv(lambda x: x.prod(0), p, t)
jv(lambda x: x.mean(), p, t)
'''
PROGRAMS['fwad_ops_elementwise_linalg'] = PRE + FW + r'''
p = torch.tensor([[0.3, -1.2], [1.1, 0.4]], dtype=torch.float64)
t = torch.tensor([[1., 0.5], [0.25, 2.]], dtype=torch.float64)
jv(lambda x: x @ x, p, t)
jv(lambda x: x.inverse(), p, t)
jv(lambda x: x.det(), p, t)
jv(lambda x: torch.linalg.solve(x, torch.ones(2, dtype=torch.float64)), p, t)
jv(lambda x: x.tanh() * x.sigmoid(), p, t)
jv(lambda x: x.abs().sqrt(), p, t)
jv(lambda x: torch.where(x > 0, x, x * 0.1), p, t)
jv(lambda x: x[x > 0], p, t)
jv(lambda x: x[:, [1, 0, 1]], p, t)
jv(lambda x: x.t().reshape(-1).flip(0), p, t)
jv(lambda x: torch.atan2(x, x.t()), p, t)
jv(lambda x: x.pow(x), p.abs(), t)
jv(lambda x: torch.nn.functional.relu(x) + torch.nn.functional.gelu(x), p, t)
'''
PROGRAMS['fwad_complex_and_views'] = PRE + FW + r'''
p = torch.tensor([1 + 2j, -0.5 + 1j])
t = torch.tensor([1 + 0j, 0 + 1j])
jv(lambda z: z * z.conj(), p, t)
jv(lambda z: z.abs(), p, t)
jv(lambda z: z.real + z.imag, p, t)
jv(lambda z: torch.view_as_real(z), p, t)
jv(lambda z: z.exp(), p, t)
jv(lambda z: z.angle(), p, t)
jv(lambda z: z.sgn(), p, t)
'''
PROGRAMS['functional_jvp_create_graph_hvp'] = PRE + r'''
from torch.autograd.functional import jvp, vjp, hvp, vhp
def f(x):
    return (x ** 3).sum() + x.prod()
x = torch.tensor([1., 2., 3.])
v = torch.tensor([1., 0., -1.])
print(hvp(f, x, v))
print(vhp(f, x, v))
out, jv_ = jvp(lambda x: x.sin() * x, x, v, create_graph=True)
print(out, jv_, out.requires_grad, jv_.requires_grad)
xr = x.clone().requires_grad_()
out, jv_ = jvp(lambda x: x.sin() * x, xr, v, create_graph=True)
print(out.grad_fn is not None, jv_.grad_fn is not None)
jv_.sum().backward()
print(xr.grad)
o, vj = vjp(lambda a, b: a * b, (x, v), torch.ones(3))
print(o, vj)
'''
PROGRAMS['functional_hessian_tuple_inputs'] = PRE + r'''
from torch.autograd.functional import hessian, jacobian
def f(a, b):
    return (a.sin() * b ** 2).sum()
a = torch.tensor([0.5, 1.0])
b = torch.tensor([2.0, -1.0])
H = hessian(f, (a, b))
for row in H:
    for h in row:
        print(h)
print(jacobian(lambda x: x.unsqueeze(0).expand(2, 2), a).shape)
'''


# ---- leaves, .data swaps, .grad edits, inference mode, grad-mode state, attribute errors, deepcopy

PROGRAMS['leaf_backward_and_grad_self'] = PRE + r'''
x = torch.tensor(3., requires_grad=True)
x.backward()
print(x.grad)
x.backward(torch.tensor(2.))
print(x.grad)
print(torch.autograd.grad(x, x))
v = torch.tensor([1., 2.], requires_grad=True)
print(torch.autograd.grad(v, v, torch.tensor([5., 6.])))
E(lambda: v.backward())
v.backward(torch.tensor([1., -1.]))
print(v.grad)
w = v.view(2)
print(torch.autograd.grad(w, v, torch.ones(2)))
'''
PROGRAMS['data_swap_shape_then_backward'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * x
x.data = torch.tensor([1., 2., 3.])
print(x, y)
E(lambda: y.sum().backward())
print(x.grad)
z = torch.tensor([1., 2.], requires_grad=True)
q = (z * 3).sum()
z.data = torch.tensor([5., 6.], dtype=torch.float64)
print(z.dtype, z)
E(lambda: q.backward())
print(z.grad)
'''
PROGRAMS['grad_inplace_edits_version'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
(x * 2).sum().backward()
g = x.grad
print(g._version)
x.grad += 1
print(x.grad, g is x.grad, g._version)
x.grad.data.zero_()
print(x.grad, g._version)
x.grad *= 3
(x * 2).sum().backward()
print(x.grad, g is x.grad, g._version)
with torch.no_grad():
    x.grad = x.grad * 0 + 7
print(x.grad, g is x.grad)
del x.grad
print(x.grad)
'''
PROGRAMS['inference_mode_enable_grad_mix'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
with torch.inference_mode():
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    with torch.enable_grad():
        print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
        y = x * 2
        print(y.requires_grad, y.is_inference())
    with torch.inference_mode(False):
        print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
        z = x * 2
        print(z.requires_grad, z.is_inference(), z.grad_fn)
    with torch.no_grad():
        print(torch.is_inference_mode_enabled())
print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
@torch.inference_mode(mode=False)
def f(t):
    return t * 3, torch.is_inference_mode_enabled()
with torch.inference_mode():
    r, flag = f(x)
print(r.requires_grad, flag)
'''
PROGRAMS['grad_mode_restored_after_exception'] = PRE + r'''
def boom():
    with torch.no_grad():
        raise ValueError('inside')
E(boom)
print(torch.is_grad_enabled())
def boom2():
    with torch.set_grad_enabled(False):
        with torch.enable_grad():
            raise KeyError('k')
E(boom2)
print(torch.is_grad_enabled())
@torch.no_grad
def f(t):
    return t * 2
x = torch.ones(1, requires_grad=True)
print(f(x).requires_grad)
class M:
    @torch.no_grad()
    def go(self, t):
        return t + 1
print(M().go(x).requires_grad, torch.autograd.no_grad is torch.no_grad, torch.autograd.set_grad_enabled is torch.set_grad_enabled)
print(torch.autograd.grad_mode.no_grad is torch.no_grad)
'''
PROGRAMS['attribute_assignment_errors'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
E(lambda: setattr(y, 'requires_grad', False))
E(lambda: setattr(y, 'requires_grad', True))
E(lambda: setattr(x, 'is_leaf', False))
E(lambda: setattr(y, 'grad_fn', None))
E(lambda: torch.ones(2).retain_grad())
E(lambda: setattr(x, 'requires_grad', 1))
x.requires_grad = False
print(x.requires_grad, x.is_leaf)
E(lambda: setattr(torch.tensor([1, 2]), 'requires_grad', True))
t = torch.ones(2)
t.requires_grad = True
print(t)
'''
PROGRAMS['deepcopy_and_copy_construct'] = PRE + r'''
import copy
x = torch.tensor([1., 2.], requires_grad=True)
(x * 3).sum().backward()
c = copy.deepcopy(x)
print(c, c.grad, c.requires_grad, c.is_leaf, c.grad is x.grad)
y = x * 2
E(lambda: copy.deepcopy(y))
t = W(lambda: torch.tensor(x))
print(t, t.requires_grad)
a = torch.as_tensor(x)
print(a is x, a.requires_grad)
E(lambda: x.numpy())
print(x.detach().numpy(), x.tolist(), y.sum().item(), float(y[0]))
cp = copy.copy(x)
print(cp is x, cp.requires_grad)
'''
PROGRAMS['requires_grad_inside_no_grad'] = PRE + r'''
with torch.no_grad():
    w = torch.zeros(2, requires_grad=True)
    print(w.requires_grad, w.is_leaf)
    v = torch.ones(2).requires_grad_()
    u = w * 2
    print(v.requires_grad, u.requires_grad, u.is_leaf)
    w.add_(1)
    print(w._version, w.requires_grad, w.grad_fn)
(w * v).sum().backward()
print(w.grad, v.grad)
'''
PROGRAMS['detach_requires_grad_shared_version'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
d = y.detach().requires_grad_()
print(d.is_leaf, d.requires_grad, d._version, y._version)
e = (d * d).sum()
y.mul_(3)
print(d, d._version)
E(lambda: e.backward())
d2 = y.detach().requires_grad_()
(d2 * d2).sum().backward()
print(d2.grad, x.grad)
'''


# ---- reprs of autograd objects, GradientEdge, UnpackedDualTensor, duals of views, custom jvp

PROGRAMS['reprs_of_autograd_objects'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
print(y.grad_fn._raw_saved_result)
h = y.register_hook(lambda g: g)
print(h)
print(torch.no_grad(), torch.enable_grad(), torch.inference_mode())
print(torch.set_grad_enabled(True))
print(torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t))
print(torch.autograd.Function, torch.autograd.function.FunctionCtx)
print(torch.autograd.graph.Node, torch.autograd.graph.GradientEdge)
e = torch.autograd.graph.get_gradient_edge(y)
print(e, e.node is y.grad_fn, e.output_nr)
print(torch.autograd.graph.get_gradient_edge(x).node)
print(fwAD.dual_level(), fwAD.UnpackedDualTensor)
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        print('ctx', ctx)
        return a * 2
    @staticmethod
    def backward(ctx, g):
        print('ctx', ctx)
        return g
F.apply(x).sum().backward()
'''
PROGRAMS['gradient_edge_grad_partial'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
a = x * 3
b = a.sin()
edge = torch.autograd.graph.get_gradient_edge(a)
out = b.sum()
print(torch.autograd.grad(out, edge, retain_graph=True))
print(torch.autograd.grad(out, [edge, x], retain_graph=True))
E(lambda: torch.autograd.graph.get_gradient_edge(torch.ones(2)))
ge = torch.autograd.graph.GradientEdge(b.grad_fn, 0)
print(ge.node.name(), ge.output_nr, torch.autograd.grad(out, ge))
'''
PROGRAMS['fwad_unpacked_dual_tuple_ops'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 4.]), torch.tensor([0.5, 0.5]))
    u = fwAD.unpack_dual(d.sqrt())
    p, t = u
    print(u[0], u[1], len(u), u.primal is p)
    print(u)
    print(fwAD.unpack_dual(torch.ones(2)))
    print(fwAD.unpack_dual(d, level=0).tangent)
    E(lambda: fwAD.unpack_dual(d, level=5))
    dd = d.detach()
    print(fwAD.unpack_dual(dd).tangent)
    c = d.clone()
    print(fwAD.unpack_dual(c).tangent, fwAD.unpack_dual(d.data).tangent if False else '')
'''
PROGRAMS['fwad_dual_of_views_and_base'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    x = torch.zeros(2, 3)
    xt = x.t()
    d = fwAD.make_dual(xt, torch.ones(3, 2))
    print(d.shape, d.is_contiguous(), fwAD.unpack_dual(d).tangent.stride())
    print(fwAD.unpack_dual(x).tangent)
    y = torch.zeros(4)
    v = y[1:3]
    dv = fwAD.make_dual(v, torch.tensor([2., 3.]))
    print(fwAD.unpack_dual(dv.view(2, 1)).tangent)
    z = dv.exp()
    print(fwAD.unpack_dual(z))
    print(fwAD.unpack_dual(y).tangent)
'''
PROGRAMS['fwad_custom_fn_setup_context_jvp'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x * x
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        ctx.save_for_forward(x)
        ctx.save_for_backward(x)
    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return 2 * x * t
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 3.]), torch.tensor([1., 10.]))
    print(fwAD.unpack_dual(Sq.apply(d)))
x = torch.tensor([1., 3.], requires_grad=True)
Sq.apply(x).sum().backward()
print(x.grad)
print(torch.func.jvp(Sq.apply, (torch.tensor([2.]),), (torch.tensor([1.]),)))
'''
PROGRAMS['fwad_jvp_wrong_returns'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
class J(torch.autograd.Function):
    mode = 0
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
    @staticmethod
    def jvp(ctx, t):
        if J.mode == 0:
            return t[:1]
        if J.mode == 1:
            return t.double()
        if J.mode == 2:
            return t, t
        return None
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 3.]), torch.tensor([1., 10.]))
    for m in range(4):
        J.mode = m
        E(lambda: print(fwAD.unpack_dual(J.apply(d))))
'''


# ---- odd gradient arguments, backward under no_grad/inference_mode, non-scalar backward, student SGD mistakes,
# chapter 2's v^T J

PROGRAMS['odd_gradient_arguments'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * x).sum()
E(lambda: y.backward(2.0, retain_graph=True))
print(x.grad)
E(lambda: torch.autograd.grad(y, x, grad_outputs=1.0, retain_graph=True))
print(torch.autograd.grad(y, (x,), grad_outputs=[None], retain_graph=True))
E(lambda: torch.autograd.grad(y, [], retain_graph=True))
E(lambda: torch.autograd.grad([], [x]))
E(lambda: torch.autograd.grad(y, [x, 3], retain_graph=True))
E(lambda: torch.autograd.grad(y, x, grad_outputs=[torch.tensor(1.), torch.tensor(1.)], retain_graph=True))
g, = torch.autograd.grad(y, x, create_graph=True)
print(g, g.grad_fn)
g2, = torch.autograd.grad(y, x)
print(g2)
E(lambda: torch.autograd.grad(y, x))
'''
PROGRAMS['backward_in_no_grad_and_inference'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x ** 3).sum()
with torch.no_grad():
    y.backward(retain_graph=True)
    print(x.grad, torch.is_grad_enabled())
    x.grad = None
    y.backward(create_graph=True, retain_graph=True)
    print(x.grad, x.grad.requires_grad, torch.is_grad_enabled())
x.grad = None
with torch.inference_mode():
    y.backward(retain_graph=True)
    print(x.grad, x.grad.is_inference())
    (g,) = torch.autograd.grad(y, x, retain_graph=True)
    print(g, g.is_inference())
'''
PROGRAMS['non_scalar_backward_gradients'] = PRE + r'''
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = x * x
E(lambda: y.backward())
y.backward(torch.ones(2, 2) * 2, retain_graph=True)
print(x.grad)
x.grad = None
y.backward(torch.tensor([[1., 0.], [0., 1.]]), retain_graph=True)
print(x.grad)
x.grad = None
E(lambda: y.backward(torch.ones(2), retain_graph=True))
print(x.grad)
x.grad = None
E(lambda: y.backward(torch.ones(2, 2, dtype=torch.int64), retain_graph=True))
y.backward(torch.tensor([[1, 2], [3, 4]], dtype=torch.float64), retain_graph=True)
print(x.grad, x.grad.dtype)
E(lambda: y.backward(torch.ones(4), retain_graph=True))
y.sum().backward()
print(x.grad)
'''
PROGRAMS['student_manual_sgd_mistakes'] = PRE + r'''
torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
x = torch.tensor([1., 2., 3.])
target = torch.tensor(2.)
for step in range(3):
    loss = ((w * x).sum() - target) ** 2
    loss.backward()
    E(lambda: w.sub_(0.01 * w.grad))
    with torch.no_grad():
        w -= 0.01 * w.grad
    print(step, loss.item(), w.grad)
    w.grad.zero_()
w2 = w - 0.1
print(w2.is_leaf, w2.grad_fn)
loss = (w2 * x).sum()
loss.backward()
W(lambda: print(w2.grad))
w = w.detach().requires_grad_()
print(w.is_leaf)
'''
PROGRAMS['chapter2_mean_x_squared_vjp'] = PRE + r'''
x = torch.tensor([[1., -2.], [0.5, 3.]], dtype=torch.float64, requires_grad=True)
y = torch.mean(x * x)
print(y, y.grad_fn, y.grad_fn.next_functions, y.grad_fn._saved_self_sym_sizes if hasattr(y.grad_fn, '_saved_self_sym_sizes') else '')
y.backward()
print(x.grad, torch.equal(x.grad, x.detach() / 2))
x.grad = None
z = x * x
v = torch.tensor([[1., 0.1], [0.01, 0.001]], dtype=torch.float64)
z.backward(v)
print(x.grad)
J = torch.autograd.functional.jacobian(lambda t: t * t, x.detach())
print(J.shape, (v.reshape(-1) @ J.reshape(4, 4)).reshape(2, 2))
'''


# ---- the tutorials' training loops (polynomial Function, one-layer BCE, manual gradients)

PROGRAMS['poly_custom_fn_training_float32'] = PRE + r'''
import math
class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)
    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)
torch.manual_seed(3)
x = torch.linspace(-math.pi, math.pi, 200)
y = torch.sin(x)
a = torch.full((), 0.0, requires_grad=True)
b = torch.full((), -1.0, requires_grad=True)
c = torch.full((), 0.0, requires_grad=True)
d = torch.full((), 0.3, requires_grad=True)
lr = 5e-6
for t in range(60):
    P3 = LegendrePolynomial3.apply
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    if t % 20 == 19:
        print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        for p in (a, b, c, d):
            p -= lr * p.grad
            p.grad = None
print(a.item(), b.item(), c.item(), d.item())
'''
PROGRAMS['one_layer_bce_training_randn'] = PRE + r'''
torch.manual_seed(7)
x = torch.ones(5)
y = torch.zeros(3)
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
for step in range(15):
    z = torch.matmul(x, w) + b
    loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
    loss.backward()
    with torch.no_grad():
        w -= 0.5 * w.grad
        b -= 0.5 * b.grad
    w.grad.zero_()
    b.grad.zero_()
    if step % 5 == 0:
        print(step, loss)
print(w, b)
'''
PROGRAMS['polynomial_manual_grads_float64'] = PRE + r'''
import math
dtype = torch.float64
x = torch.linspace(-math.pi, math.pi, 100, dtype=dtype)
y = torch.sin(x)
torch.manual_seed(1)
a, b, c, d = (torch.randn((), dtype=dtype, requires_grad=True) for _ in range(4))
for t in range(40):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        for p in (a, b, c, d):
            p -= 1e-6 * p.grad
            p.grad = None
print(loss.item(), a.item(), b.item(), c.item(), d.item())
print(loss.grad_fn, loss.grad_fn.next_functions[0][0].next_functions)
'''


# ---- autograd.grad(is_grads_batched=True)

PROGRAMS['is_grads_batched_custom_fn'] = PRE + r'''
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x ** 2 * g
x = torch.tensor([1., 2.], requires_grad=True)
y = Cube.apply(x)
E(lambda: torch.autograd.grad(y, x, torch.eye(2), is_grads_batched=True, retain_graph=True))
class Cube2(Cube):
    generate_vmap_rule = True
    @staticmethod
    def forward(x):
        return x ** 3
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
y2 = Cube2.apply(x)
print(torch.autograd.grad(y2, x, torch.eye(2), is_grads_batched=True))
'''
PROGRAMS['is_grads_batched_hooks_and_multi'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.exp()
z = (y * x).sum()
(g,) = torch.autograd.grad(z, x, torch.tensor([1., 2.]), is_grads_batched=True, retain_graph=True)
print(g)
a = x * 2
b = x.sum()
ga = torch.eye(3)
gb = torch.ones(3)
print(torch.autograd.grad([a, b], x, [ga, gb], is_grads_batched=True))
E(lambda: torch.autograd.grad([a, b], x, [ga, torch.ones(2)], is_grads_batched=True))
'''
PROGRAMS['is_grads_batched_create_graph'] = PRE + r'''
x = torch.tensor([0.5, 1.5], requires_grad=True)
y = x.sin() * x
(j,) = torch.autograd.grad(y, x, torch.eye(2), is_grads_batched=True, create_graph=True)
print(j.detach(), j.requires_grad, j.grad_fn is not None)
(h,) = torch.autograd.grad(j.sum(), x)
print(h)
'''


# ---- saved-tensor pack/unpack hooks: identity, detach, wrong unpack, nesting, create_graph

PROGRAMS['pack_hook_identity_builtin_and_custom'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
seen = []
def pack(t):
    seen.append(t)
    print('pack', t.shape, t.requires_grad, t.grad_fn)
    return t
with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
    y = x.exp()
    z = x * y
print([s is x for s in seen], [s is y for s in seen])
class Keep(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        out = a * 3
        ctx.save_for_backward(a, out)
        return out
    @staticmethod
    def backward(ctx, g):
        a, out = ctx.saved_tensors
        print('unpacked', a is x, out.grad_fn)
        return g * 3
seen.clear()
with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
    o = Keep.apply(x)
print([s is x for s in seen], [s is o for s in seen])
o.sum().backward()
print(x.grad)
'''
PROGRAMS['pack_hook_detaches_and_unpack_wrong'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t.detach(), lambda t: t):
    y = x.sin()
y.sum().backward()
print(x.grad)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t.double()):
    z = x.sin()
E(lambda: z.sum().backward())
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: 'oops'):
    w = x.sin()
E(lambda: w.sum().backward())
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t * 0 + 1):
    u = x.sin()
    v = u.exp()
(v.sum()).backward()
print(x.grad)
'''
PROGRAMS['pack_hooks_nested_and_create_graph'] = PRE + r'''
x = torch.tensor([0.5, 1.5], requires_grad=True)
def mk(tag):
    def pack(t):
        print('pack', tag, tuple(t.shape))
        return t
    def unpack(t):
        print('unpack', tag)
        return t
    return pack, unpack
with torch.autograd.graph.saved_tensors_hooks(*mk('outer')):
    a = x * x
    with torch.autograd.graph.saved_tensors_hooks(*mk('inner')):
        b = a.exp()
    c = b * a
(g,) = torch.autograd.grad(c.sum(), x, create_graph=True)
print(g)
with torch.autograd.graph.saved_tensors_hooks(*mk('gg')):
    (h,) = torch.autograd.grad(g.sum(), x)
print(h)
'''


# ---- output_nr, hooks on leaf views, is_leaf, Function.vjp, InplaceFunction, once_differentiable

PROGRAMS['output_nr_of_outputs'] = PRE + r'''
x = torch.arange(6., requires_grad=True).reshape(2, 3)
print(x.output_nr, (x * 1).output_nr)
v, i = x.max(1)
print(v.output_nr, i.output_nr)
parts = x.unbind(1)
print([p.output_nr for p in parts], [p.grad_fn.name() for p in parts])
s = x.split(1)
print([p.output_nr for p in s])
q, r = torch.linalg.qr(x.t() @ x + torch.eye(3))
print(q.output_nr, r.output_nr)
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2, a * 3
    @staticmethod
    def backward(ctx, g1, g2):
        return g1 * 2 + g2 * 3
a, b = Two.apply(x)
print(a.output_nr, b.output_nr, a.grad_fn is b.grad_fn)
c = a[0]
print(c.output_nr, c._base is a)
sv, si = torch.sort(x, 1)
print(sv.output_nr, si.output_nr, si.requires_grad)
'''
PROGRAMS['hooks_on_leaf_views'] = PRE + r'''
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
v = x[1:3]
print(v.is_leaf, v.grad_fn, v._base is x, v.requires_grad)
v.register_hook(lambda g: print('view hook', g) or g * 10)
v.retain_grad()
(v * torch.tensor([1., 2.])).sum().backward()
print(v.grad, x.grad)
w = x.view(2, 2)
w.register_hook(lambda g: print('w hook', g))
(w ** 2).sum().backward()
print(x.grad)
W(lambda: x[0].grad)
'''
PROGRAMS['is_leaf_matrix'] = PRE + r'''
a = torch.rand(2, requires_grad=True)
b = torch.rand(2, requires_grad=True) + 2
c = torch.rand(2, requires_grad=True).cuda() if False else torch.rand(2, requires_grad=True).float()
d = torch.rand(2).requires_grad_()
e = torch.rand(2, dtype=torch.float64).to(torch.float32).requires_grad_()
f = torch.rand(2, requires_grad=True).double()
with torch.no_grad():
    g = a * 2
h = a.detach()
k = a.data
for name, t in zip('abcdefghk', [a, b, c, d, e, f, g, h, k]):
    print(name, t.is_leaf, t.requires_grad, t.grad_fn is None)
print(c is not None)
'''
PROGRAMS['function_vjp_alias_and_inplacefunction'] = PRE + r'''
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def vjp(ctx, g):
        x, = ctx.saved_tensors
        print('vjp called')
        return 2 * x * g
x = torch.tensor([1., 3.], requires_grad=True)
Sq.apply(x).sum().backward()
print(x.grad)
print(Sq.backward is Sq.vjp if hasattr(Sq, 'backward') else 'none')
class AddIn(torch.autograd.function.InplaceFunction):
    @staticmethod
    def forward(ctx, a, inplace=False):
        if inplace:
            ctx.mark_dirty(a)
            return a.add_(1)
        return a + 1
    @staticmethod
    def backward(ctx, g):
        return g, None
y = x.clone()
r = AddIn.apply(y, True)
print(r is y, y, y.grad_fn.name())
r.sum().backward()
print(x.grad)
'''
PROGRAMS['once_differentiable_returns_none_and_tuple'] = PRE + r'''
from torch.autograd.function import once_differentiable
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a * b
    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        return g * 2, None
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
F.apply(a, b).sum().backward()
print(a.grad, b.grad)
out = F.apply(a, b).sum()
ga, = torch.autograd.grad(out, a, create_graph=True)
print(ga.requires_grad, ga.grad_fn)
print(F.backward.__name__, F.backward.__wrapped__.__name__ if hasattr(F.backward, '__wrapped__') else 'no wrapped')
'''


# ---- printing: suffix wrapping, summarization, half/int/bool results

PROGRAMS['print_suffix_wrapping'] = PRE + r'''
x = torch.linspace(-1000, 1000, 9, dtype=torch.float64, requires_grad=True)
print(x)
print(x * 1.5)
print((x * 1e-7).to(torch.float16))
y = torch.arange(12., requires_grad=True).reshape(3, 4) * 123456.789
print(y)
print(torch.tensor([1e-10, 1e10], requires_grad=True).exp())
torch.set_printoptions(linewidth=40)
print(torch.arange(8., requires_grad=True) * 11.5)
print(torch.ones(2, 3, dtype=torch.complex64, requires_grad=True) * (1 + 2j))
torch.set_printoptions(sci_mode=True)
print(torch.tensor([1.5, 2.5], requires_grad=True).sum())
'''
PROGRAMS['print_summarized_with_grad_fn'] = PRE + r'''
x = torch.arange(2000., requires_grad=True)
print(x.reshape(40, 50) / 7)
torch.set_printoptions(threshold=5, edgeitems=1)
print(torch.arange(10., requires_grad=True).reshape(2, 5).t())
print(torch.zeros(3, 0, 2, requires_grad=True))
print(torch.zeros(3, 0, 2, requires_grad=True) * 2)
print(torch.tensor([[float('nan'), float('inf')], [-float('inf'), 1.]], requires_grad=True).relu())
'''
PROGRAMS['print_half_int_bool_results'] = PRE + r'''
x = torch.tensor([1.5, -2.25, 3.0], dtype=torch.float16, requires_grad=True)
print(x, x * 2, x.sum(), x.mean())
print(x.bfloat16(), x.float())
print(x > 0, (x > 0).requires_grad, x.argmax(), x.int())
print(x.max(0))
print(torch.sort(x))
print(x.topk(2))
print(torch.aminmax(x))
'''


# ---- Tensor subclasses and Parameter in graphs

PROGRAMS['subclass_autograd_grad_type'] = PRE + r'''
class Tagged(torch.Tensor):
    pass
x = torch.tensor([1., 2.]).as_subclass(Tagged).requires_grad_()
print(type(x).__name__, x.is_leaf, x.requires_grad)
y = x * 3
print(type(y).__name__, y.grad_fn)
y.sum().backward()
print(type(x.grad).__name__, x.grad)
z = torch.Tensor._make_subclass(Tagged, torch.tensor([5., 6.]), True)
print(type(z).__name__, z.requires_grad, z)
(z.exp()).sum().backward()
print(z.grad)
d = y.detach()
print(type(d).__name__, type(y.data).__name__)
'''
PROGRAMS['parameter_from_nonleaf'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
p = torch.nn.Parameter(x * 2)
print(p, p.is_leaf, p.grad_fn, p.requires_grad)
(p * p).sum().backward()
print(p.grad, x.grad)
q = torch.nn.Parameter(torch.tensor([1., 2.]), requires_grad=False)
print(q, q.is_leaf, (q * 2).requires_grad)
r = p * 2
print(type(r).__name__, r)
E(lambda: torch.nn.Parameter(torch.tensor([1, 2])))
print(torch.nn.Parameter(torch.tensor([1, 2]), requires_grad=False))
'''


# ---- complex views in place, complex losses with real gradients

PROGRAMS['complex_views_inplace_grad'] = PRE + r'''
z = torch.tensor([1 + 2j, -1 + 0.5j], requires_grad=True)
w = z.clone()
w.real.mul_(3)
print(w, w.grad_fn, w.real.grad_fn)
w.imag.add_(1)
print(w, w.grad_fn.name())
w.abs().sum().backward()
print(z.grad)
c = z.conj()
print(c.is_conj(), c.grad_fn, c._is_view())
c2 = z.clone().conj()
E(lambda: c2.mul_(2))
print(c2.is_conj(), c2, c2.grad_fn.name())
r = torch.view_as_real(z.clone())
r[:, 0].zero_()
print(r._base.grad_fn.name() if r._base is not None else None, r.grad_fn.name())
'''
PROGRAMS['complex_loss_real_grad'] = PRE + r'''
z = torch.tensor([1 + 1j, 2 - 1j], requires_grad=True)
x = torch.tensor([0.5, -0.5], requires_grad=True)
y = (z * x).abs() ** 2
print(y, y.grad_fn, y.grad_fn.next_functions)
y.sum().backward()
print(z.grad, x.grad)
a = torch.polar(x.abs() + 1, x)
print(a, a.grad_fn)
a.real.sum().backward()
print(x.grad)
s = torch.view_as_complex(torch.tensor([[1., 2.], [3., 4.]], requires_grad=True))
print(s, s.grad_fn)
(s * s.conj()).real.sum().backward()
'''
PROGRAMS['complex_to_real_grad_dtype_errors'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
z = x * (1 + 1j)
print(z.dtype, z.grad_fn, z.grad_fn.next_functions)
z.abs().sum().backward()
print(x.grad, x.grad.dtype)
class ToC(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a.to(torch.complex64)
    @staticmethod
    def backward(ctx, g):
        return g
x.grad = None
E(lambda: ToC.apply(x).abs().sum().backward())
print(x.grad)
h = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
(h.to(torch.complex128) * 1j).imag.sum().backward()
print(h.grad)
'''


# ---- node identity, dynamic graphs with control flow, walking the graph

PROGRAMS['node_identity_and_hash'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
print(y.grad_fn is y.grad_fn, y.grad_fn == y.grad_fn, hash(y.grad_fn) == hash(y.grad_fn))
a1 = (x * 1).grad_fn.next_functions[0][0]
a2 = (x * 2).grad_fn.next_functions[0][0]
print(a1 is a2)
nodes = {y.grad_fn: 'exp'}
print(list(nodes.values()), y.grad_fn in nodes)
fn = y.grad_fn
del y
print(fn.name(), fn.next_functions[0][0].variable is x)
print(len({a1, a2}))
'''
PROGRAMS['dynamic_graph_control_flow'] = PRE + r'''
def f(x, n):
    y = x
    names = []
    for i in range(n):
        if y.sum() > 2:
            y = y / 2
        else:
            y = y * 3
        names.append(y.grad_fn.name())
    while y.norm() < 10:
        y = y + 1
        names.append(y.grad_fn.name())
    return y, names
x = torch.tensor([1., 0.5], requires_grad=True)
y, names = f(x, 4)
print(names)
y.sum().backward()
print(y, x.grad)
x.grad = None
y, names = f(x * -1, 2)
print(names)
y.sum().backward()
print(x.grad)
n = y.grad_fn
depth = 0
while n is not None and n.next_functions:
    n = n.next_functions[0][0]
    depth += 1
print(depth, n)
'''
PROGRAMS['walk_graph_print_all_nodes'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([[0.5, -1.], [2., 0.25]], requires_grad=True)
b = torch.tensor([0.1, 0.2], requires_grad=True)
out = torch.nn.functional.binary_cross_entropy_with_logits(w @ x + b, torch.tensor([1., 0.]))
seen = []
def walk(node, d=0):
    if node is None:
        print('  ' * d + 'None')
        return
    print('  ' * d + node.name(), [a for a in dir(node) if a.startswith('_saved_')])
    for nxt, nr in node.next_functions:
        walk(nxt, d + 1)
walk(out.grad_fn)
'''


# ---- autograd.functional with create_graph, vectorize and strict

PROGRAMS['functional_create_graph_grad_fns'] = PRE + r'''
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp
x = torch.tensor([0.5, 1.5], requires_grad=True)
J = jacobian(lambda t: t.sin() * t, x, create_graph=True)
print(J, J.requires_grad)
H = hessian(lambda t: (t ** 3).sum(), x, create_graph=True)
print(H)
o, v = vjp(lambda t: t.exp(), x, torch.ones(2), create_graph=True)
print(o, v)
o, v = jvp(lambda t: t.exp(), x, torch.ones(2), create_graph=True)
print(o, v)
o, v = hvp(lambda t: (t ** 3).sum(), x, torch.ones(2), create_graph=True)
print(o, v)
J.sum().backward()
print(x.grad)
'''
PROGRAMS['functional_vectorize_jacobian_values'] = PRE + r'''
from torch.autograd.functional import jacobian
def f(x, y):
    return torch.stack([x.sum() * y[0], (x * y).prod()]), x.outer(y)
x = torch.tensor([1., 2., 3.])
y = torch.tensor([0.5, -1., 2.])
for vec in (False, True):
    J = jacobian(f, (x, y), vectorize=vec)
    print(type(J).__name__, len(J), [type(r).__name__ for r in J])
    print(J[0][0], J[0][1])
    print(J[1][0].shape, J[1][1][2])
'''
PROGRAMS['functional_strict_messages'] = PRE + r'''
from torch.autograd.functional import jacobian, vjp, jvp, hessian, vhp, hvp
x = torch.tensor([1., 2.])
E(lambda: jacobian(lambda t: torch.ones(2), x, strict=True))
E(lambda: jacobian(lambda t: t.detach() * 2, x, strict=True))
E(lambda: vjp(lambda t: torch.ones(2), x, torch.ones(2), strict=True))
E(lambda: jvp(lambda t: t * 0 + torch.ones(2), x, torch.ones(2), strict=True))
E(lambda: hessian(lambda t: t.sum(), x, strict=True))
E(lambda: vhp(lambda t: (t * 2).sum(), x, torch.ones(2), strict=True))
E(lambda: hvp(lambda t: (t ** 2).sum(), x, torch.ones(2), strict=True, create_graph=True))
E(lambda: jacobian(lambda t: t * 2, x, strict=True, vectorize=True))
print(jacobian(lambda t: torch.ones(2), x))
'''


# ---- chapter 2's package tour (Function/Variable MROs), AutogradMeta fields, detach

# Chapter 2's package tour: Function's MRO is Function, _SingleLevelFunction, _FunctionBase, FunctionCtx,
# _HookMixin; Variable's is Variable, _LegacyVariableBase.
PROGRAMS['autograd_package_contents'] = PRE + r'''
import torch.autograd as autograd
print(sorted(autograd.__all__))
print([c.__name__ for c in autograd.Function.__mro__])
print([c.__name__ for c in autograd.Variable.__mro__])
print([c.__name__ for c in autograd.function.FunctionCtx.__mro__])
print(autograd.function._ContextMethodMixin is autograd.function.FunctionCtx, autograd.function._HookMixin)
print(torch._C._FunctionBase, torch._C._LegacyVariableBase, issubclass(autograd.function.BackwardCFunction, torch._C._FunctionBase))
# (not hasattr(autograd, '_functions'): PyTorch imports that subpackage on the first x.resize() / x.resize_as(), so
# the answer depends on what ran earlier in the process)
print(hasattr(autograd.function, '_ContextMethodMixin'), hasattr(autograd.function, '_HookMixin'))
print(autograd.function.BackwardCFunction.__mro__[1].__name__)
print(type(autograd.Function).__name__)
'''
PROGRAMS['autograd_meta_fields_tour'] = PRE + r'''
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = x.t()
z = (y * 2)[0]
for name, t in [('x', x), ('y', y), ('z', z)]:
    print(name, t.is_leaf, t.requires_grad, t.retains_grad, t._is_view(), t._version, t.output_nr,
          t._base is None, t.grad_fn.name() if t.grad_fn else None)
acc = y.grad_fn.next_functions[0][0]
print(acc.name(), acc.variable is x)
z.retain_grad()
z.sum().backward()
print(z.grad, x.grad, z.retains_grad, z._base.grad_fn.name())
x.data.mul_(2)
print(x._version, y._version, x)
y.data.add_(1)
print(x)
'''
PROGRAMS['chapter2_detach_then_backward_v'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * x
v = torch.tensor([1., 1/2., 1/3.])
y.backward(v)
print(x.grad)
d = x.detach()
print(d.requires_grad, d.grad, d.data_ptr() == x.data_ptr())
d[0] = 100.
print(x, x._version, d._version)
with torch.no_grad():
    y2 = x * x
print(y2.requires_grad, y2.grad_fn)
print(x.data, x.data.requires_grad, type(x.data).__name__)
'''


# ---- in-place writes of graph values into plain tensors and views

PROGRAMS['view_of_plain_base_requires_grad'] = PRE + r'''
base = torch.zeros(4)
v = base[:2]
v.requires_grad_()
print(v.is_leaf, v._is_view(), v.requires_grad, base.requires_grad)
base.add_(1)
print(v, v.grad_fn, v.is_leaf)
y = (v * 3).sum()
y.backward()
print(v.grad)
b2 = torch.zeros(3)
w = b2.view(3)
w.requires_grad_()
b2.mul_(2)
print(w.grad_fn, w.requires_grad)
E(lambda: w.mul_(2))
'''
PROGRAMS['inplace_base_after_view_requires_grad'] = PRE + r'''
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
base = torch.zeros(4)
v = base[1:3]
base.copy_(x)
print(base.grad_fn, v.grad_fn, v.requires_grad)
v2 = base[2:]
print(v2.grad_fn, v2.requires_grad)
(v * torch.tensor([10., 100.])).sum().backward()
print(x.grad)
'''
PROGRAMS['inplace_into_plain_with_grad_value'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
buf = torch.zeros(3)
buf[1:] = x * 2
print(buf, buf.grad_fn, buf.is_leaf, buf.requires_grad)
buf[0] = x.sum()
print(buf, buf.grad_fn.next_functions)
buf.sum().backward()
print(x.grad)
out = torch.zeros(2, 2)
out[0].copy_(x)
out[:, 1].mul_(x)
print(out, out.grad_fn)
out.sum().backward()
print(x.grad)
'''
PROGRAMS['index_put_and_masked_with_grad_values'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
v = torch.tensor([10., 20.], requires_grad=True)
y = x.clone()
y[torch.tensor([0, 2])] = v
print(y, y.grad_fn, y.grad_fn.next_functions)
y.sum().backward()
print(x.grad, v.grad)
z = x.clone()
z[z > 1.5] = v * 2
(z * torch.tensor([1., 2., 3.])).sum().backward()
print(x.grad, v.grad)
w = x.clone()
w.index_put_((torch.tensor([1, 1]),), v, accumulate=True)
w.sum().backward()
print(w, x.grad, v.grad)
'''


# ---- f-strings and reprs of tensors with gradients

PROGRAMS['fstring_formats_with_grad'] = PRE + r'''
x = torch.tensor([1.5, -2.25], requires_grad=True)
loss = (x ** 2).sum()
print(f"loss = {loss}")
print(f"loss = {loss:.3f}")
print(f"loss = {loss:>12.2e}|")
print(f"{loss.grad_fn}"[:15])
print(f"{x}")
E(lambda: f"{x:.2f}")
print(f"{x.sum():g} {x[0]:+.1f}")
print('%.3f' % loss)
print('{:.2%}'.format(loss.item()))
h = torch.tensor(0.1, dtype=torch.float16, requires_grad=True) * 3
print(f"{h:.6f}", f"{h}")
i = torch.tensor(7)
print(f"{i:04d}", f"{i:x}")
c = torch.tensor(1 + 2j, requires_grad=True) * 2
print(f"{c}")
E(lambda: f"{c:.2f}")
'''
PROGRAMS['str_repr_of_grads_various'] = PRE + r'''
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = (x @ x).trace()
y.backward()
print(str(x.grad), repr(x.grad) == str(x.grad))
print([x.grad.sum(), y])
print((x.grad, y.grad_fn.name()))
print({'g': x.grad[0]})
print(x.grad.__repr__().count('\n'), x.T.contiguous().grad_fn)
'''


# ---- bits of bigger reductions, products and a regression loop

PROGRAMS['big_reductions_bits'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(300, 70, requires_grad=True)
for f in [lambda t: t.sum(), lambda t: t.mean(), lambda t: t.var(), lambda t: t.std(0).sum(), lambda t: t.norm(),
          lambda t: t.logsumexp(1).sum(), lambda t: t.softmax(1)[:, 0].sum(), lambda t: t.cumsum(0)[-1].sum(),
          lambda t: t.exp().mean(1).prod(), lambda t: (t * t).sum(1).sqrt().sum(), lambda t: t.abs().amax(0).sum()]:
    x.grad = None
    y = f(x)
    y.backward()
    print(repr(y.item()), repr(x.grad.sum().item()), repr(x.grad[17, 3].item()), repr(x.grad.abs().max().item()))
'''
PROGRAMS['big_matmul_chain_bits'] = PRE + r'''
torch.manual_seed(1)
a = torch.randn(64, 48, requires_grad=True)
b = torch.randn(48, 80, requires_grad=True)
c = torch.randn(80, requires_grad=True)
y = torch.tanh(a @ b) @ c
loss = y.pow(2).mean()
loss.backward()
print(repr(loss.item()), repr(a.grad.sum().item()), repr(b.grad[5, 7].item()), repr(c.grad.norm().item()))
a64 = a.detach().double().requires_grad_()
y64 = (torch.sigmoid(a64 @ b.detach().double()) ** 2).sum()
y64.backward()
print(repr(y64.item()), repr(a64.grad[3, 4].item()))
'''
PROGRAMS['mse_training_loop_bits'] = PRE + r'''
torch.manual_seed(2)
X = torch.randn(128, 10)
true_w = torch.randn(10, 1)
Y = X @ true_w + 0.1 * torch.randn(128, 1)
w = torch.zeros(10, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
for it in range(25):
    pred = X @ w + b
    loss = ((pred - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        b -= 0.1 * b.grad
        w.grad.zero_()
        b.grad.zero_()
    if it % 8 == 0:
        print(it, repr(loss.item()))
print(w.squeeze(), b)
'''


# ---- nested autograd: grad inside a Function's backward, backward inside a hook

PROGRAMS['fn_backward_recomputes_with_enable_grad'] = PRE + r'''
def f(t):
    return (t.sin() * t).exp()
class Recompute(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        with torch.no_grad():
            return f(x)
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        print('grad enabled in backward', torch.is_grad_enabled())
        with torch.enable_grad():
            xd = x.detach().requires_grad_()
            y = f(xd)
            print('inner', y.grad_fn.name())
            gx, = torch.autograd.grad(y, xd, g)
        return gx
x = torch.tensor([0.5, 1.0, -0.3], requires_grad=True)
y = Recompute.apply(x)
print(y.grad_fn.name())
y.sum().backward()
print(x.grad)
x2 = x.detach().requires_grad_()
f(x2).sum().backward()
print(torch.equal(x.grad, x2.grad))
'''
PROGRAMS['reentrant_backward_in_hook'] = PRE + r'''
w = torch.tensor([2., 3.], requires_grad=True)
aux = torch.tensor([1., 1.], requires_grad=True)
def hook(g):
    print('hook grad', g)
    E(lambda: (aux * g).sum().backward())
    with torch.enable_grad():
        inner = (aux * g).sum()
        inner.backward()
    print('aux grad', aux.grad)
    return g
x = w * 2
x.register_hook(hook)
(x ** 2).sum().backward()
print(w.grad, aux.grad)
'''
PROGRAMS['grad_in_backward_create_graph'] = PRE + r'''
class MySquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        print('backward sees', g.requires_grad, x.requires_grad, torch.is_grad_enabled())
        return 2 * x * g
x = torch.tensor([1., 2.], requires_grad=True)
y = MySquare.apply(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.grad_fn.name(), g.grad_fn.next_functions)
gg, = torch.autograd.grad(g.sum(), x)
print(gg)
y = MySquare.apply(x)
g, = torch.autograd.grad(y.sum(), x)
print(g, g.requires_grad)
'''


# ---- threads: grad mode, saved-tensor hooks and anomaly mode per thread

PROGRAMS['grad_mode_thread_local'] = PRE + r'''
import threading
x = torch.tensor([1., 2.], requires_grad=True)
res = {}
def work(tag):
    res[tag] = (torch.is_grad_enabled(), (x * 2).requires_grad, torch.is_inference_mode_enabled())
with torch.no_grad():
    t = threading.Thread(target=work, args=('in no_grad',))
    t.start(); t.join()
    print('main', torch.is_grad_enabled())
with torch.inference_mode():
    t = threading.Thread(target=work, args=('in inference',))
    t.start(); t.join()
torch.set_grad_enabled(False)
t = threading.Thread(target=work, args=('after set False',))
t.start(); t.join()
torch.set_grad_enabled(True)
for k in sorted(res):
    print(k, res[k])
'''
PROGRAMS['backward_in_thread'] = PRE + r'''
import threading
x = torch.tensor([1., 2.], requires_grad=True)
out = {}
def work():
    y = (x ** 3).sum()
    y.backward()
    out['grad'] = x.grad.clone()
    with torch.no_grad():
        out['inner'] = torch.is_grad_enabled()
t = threading.Thread(target=work)
t.start(); t.join()
print(out['grad'], out['inner'], x.grad, torch.is_grad_enabled())
def hook_thread():
    with torch.autograd.graph.saved_tensors_hooks(lambda t: print('pack in thread') or t, lambda t: t):
        out['z'] = x.exp()
t = threading.Thread(target=hook_thread)
t.start(); t.join()
out['z'].sum().backward()
print(x.grad)
'''
PROGRAMS['anomaly_mode_thread_scope'] = PRE + r'''
import threading, warnings
res = {}
def work():
    res['anomaly'] = torch.is_anomaly_enabled()
    res['check_nan'] = torch.is_anomaly_check_nan_enabled()
with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    with torch.autograd.detect_anomaly(check_nan=False):
        t = threading.Thread(target=work)
        t.start(); t.join()
        print('main', torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
print(res)
'''


# ---- wrong argument types to the autograd API

PROGRAMS['bad_argument_types_autograd'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * x).sum()
E(lambda: y.backward(retain_graph='yes'))
print(x.grad)
E(lambda: torch.autograd.grad(y, x, create_graph=1))
E(lambda: x.requires_grad_(1))
E(lambda: x.requires_grad_('a'))
E(lambda: torch.no_grad(True))
E(lambda: torch.set_grad_enabled())
E(lambda: torch.set_grad_enabled(1))
E(lambda: torch.inference_mode('x'))
E(lambda: torch.enable_grad(False))
print(torch.is_grad_enabled())
'''
PROGRAMS['bad_hook_and_method_args'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
E(lambda: x.register_hook(3))
E(lambda: y.grad_fn.register_hook(3))
E(lambda: y.grad_fn.register_prehook(None))
E(lambda: x.retain_grad(True))
E(lambda: x.detach(1))
E(lambda: x.register_post_accumulate_grad_hook(5))
E(lambda: torch.autograd.graph.saved_tensors_hooks(1, 2).__enter__())
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: F.apply())
E(lambda: y.sum().backward())
print(x.grad)
'''
PROGRAMS['set_grad_enabled_repr_and_clone'] = PRE + r'''
m = torch.set_grad_enabled(False)
print(torch.is_grad_enabled())
m2 = m.clone()
print(type(m2).__name__, torch.is_grad_enabled())
with m2:
    print('inside clone', torch.is_grad_enabled())
print(torch.is_grad_enabled())
torch.set_grad_enabled(True)
ng = torch.no_grad()
with ng:
    with ng:
        print(torch.is_grad_enabled())
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
im = torch.inference_mode()
print(type(im.clone()).__name__)
with im:
    print(torch.is_inference_mode_enabled())
print(torch.is_inference_mode_enabled())
'''


# ---- forward AD under no_grad/inference_mode, in-place on duals whose primal requires grad, tangent layouts

# make_dual in inference mode: PyTorch's autograd kernel (its checks and the tangent) is skipped, an alias remains.
PROGRAMS['fwad_under_no_grad_and_inference'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 1.]))
    with torch.no_grad():
        y = d.exp()
        print(fwAD.unpack_dual(y).tangent)
        d2 = fwAD.make_dual(torch.tensor([3.]), torch.tensor([2.]))
        print(fwAD.unpack_dual(d2 * d2).tangent)
    with torch.inference_mode():
        z = d * 3
        print(fwAD.unpack_dual(z).tangent, z.is_inference())
        E(lambda: fwAD.make_dual(torch.tensor([3.]), torch.tensor([2.])))
    d.detach_() if False else None
    print(fwAD.unpack_dual(d.detach()).tangent)
'''
# An in-place op on a dual whose primal requires grad: PyTorch's formula reads original_self_p = self.clone()
# (recorded), so the new tangent requires grad (grad_fn CopyBackwards).
PROGRAMS['fwad_inplace_leaf_requires_grad'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
x = torch.tensor([1., 2.], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.tensor([0.5, 0.5]))
    print(d.is_leaf, d._is_view(), d._base is x, d.grad_fn)
    E(lambda: d.mul_(2))
    c = x.clone()
    dc = fwAD.make_dual(c, torch.ones(2))
    dc.mul_(3)
    print(fwAD.unpack_dual(dc), c.grad_fn, fwAD.unpack_dual(c).tangent)
    dc.sum().backward()
print(x.grad)
'''
PROGRAMS['fwad_tangent_layout_and_dtype'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    p = torch.arange(6.).reshape(2, 3)
    t = torch.arange(6.).reshape(3, 2).t()
    d = fwAD.make_dual(p, t)
    tan = fwAD.unpack_dual(d).tangent
    print(tan, tan.stride(), tan is t)
    e = fwAD.make_dual(torch.ones(2, dtype=torch.float64), torch.ones(2, dtype=torch.float64))
    print(fwAD.unpack_dual(e.float()).tangent.dtype, fwAD.unpack_dual(e * torch.ones(2)).tangent.dtype)
    h = fwAD.make_dual(torch.ones(2, dtype=torch.float16), torch.full((2,), 0.1, dtype=torch.float16))
    print(fwAD.unpack_dual(h.exp()))
    E(lambda: fwAD.make_dual(torch.ones(2), torch.ones(2, dtype=torch.complex64)))
    E(lambda: fwAD.make_dual(torch.ones(2), torch.ones(2, dtype=torch.int64)))
'''


# ---- forward AD: in-place tangents requiring grad (original_self_p), in-place on dual views

# As above, op by op; sigmoid_/sqrt_ on make_dual's view: the saved result inside CopySlices carries the tangent.
PROGRAMS['fwad_inplace_tangent_requires_grad_ops'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
x = torch.tensor([0.5, 2.0], requires_grad=True)
ops = [('mul_', lambda d: d.mul_(3)), ('div_', lambda d: d.div_(torch.tensor([2., 4.]))), ('pow_', lambda d: d.pow_(2)),
       ('sigmoid_', lambda d: d.sigmoid_()), ('clamp_', lambda d: d.clamp_(0., 1.)), ('add_', lambda d: d.add_(1)),
       ('addcmul_', lambda d: d.addcmul_(torch.ones(2), torch.ones(2))), ('sqrt_', lambda d: d.sqrt_()),
       ('neg_', lambda d: d.neg_()), ('copy_', lambda d: d.copy_(torch.ones(2)))]
for name, f in ops:
    with fwAD.dual_level():
        d = fwAD.make_dual(x * 1, torch.tensor([1., -1.]))
        f(d)
        p, t = fwAD.unpack_dual(d)
        print(name, p, t)
        if t.requires_grad:
            E(lambda: torch.autograd.grad(t.sum(), x))
'''
PROGRAMS['fwad_inplace_on_view_tangent_grad'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
x = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)
with fwAD.dual_level():
    base = fwAD.make_dual(x * 2, torch.tensor([1., 1., 1.]))
    v = base[1:]
    v.mul_(torch.tensor([3., 5.]))
    p, t = fwAD.unpack_dual(base)
    print(p, t)
    print(fwAD.unpack_dual(v).tangent)
    E(lambda: torch.autograd.grad(t.sum(), x, allow_unused=True, retain_graph=True))
    base.exp_()
    p, t = fwAD.unpack_dual(base)
    print(t)
    E(lambda: (p.sum() + t.sum()).backward())
print(x.grad)
'''


# ---- forward AD: copies into plain tensors, detach/.data, mark_dirty jvp, non-differentiable outputs

PROGRAMS['fwad_copy_into_plain_and_setitem'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([3., 4.]))
    buf = torch.zeros(2)
    buf.copy_(d)
    print(fwAD.unpack_dual(buf))
    m = torch.zeros(2, 2)
    m[0] = d
    m[:, 1] += d
    print(fwAD.unpack_dual(m))
    e = torch.empty(2)
    torch.mul(d, 2, out=e) if False else None
    f = torch.zeros(3)
    f[1:] = d.exp()
    print(fwAD.unpack_dual(f).tangent)
    g = torch.zeros(2, dtype=torch.float64)
    g.copy_(d)
    print(fwAD.unpack_dual(g))
'''
PROGRAMS['fwad_detach_data_requires_grad'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([3., 4.]))
    print(fwAD.unpack_dual(d.data).tangent, fwAD.unpack_dual(d.detach()).tangent)
    d.requires_grad_()
    print(d.requires_grad, d.is_leaf, fwAD.unpack_dual(d).tangent)
    y = (d * d).sum()
    y.backward()
    print(d.grad, fwAD.unpack_dual(d.grad).tangent)
    e = fwAD.make_dual(torch.tensor([5.]), torch.tensor([1.]))
    E(lambda: e.detach_())
    print(fwAD.unpack_dual(e).tangent)
'''
PROGRAMS['fwad_custom_fn_mark_dirty_jvp'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
class Scale_(torch.autograd.Function):
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
class BadScale_(Scale_):
    @staticmethod
    def jvp(ctx, t):
        return t * 2
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 1.]))
    r = Scale_.apply(d)
    print(r is d, fwAD.unpack_dual(d))
    d2 = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 1.]))
    E(lambda: BadScale_.apply(d2))
'''
PROGRAMS['fwad_nondiff_outputs_and_int_ops'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([3., 1., 2.]), torch.tensor([1., 2., 3.]))
    v, i = d.sort()
    print(fwAD.unpack_dual(v).tangent, fwAD.unpack_dual(i).tangent)
    print(fwAD.unpack_dual(d.argmax()).tangent, fwAD.unpack_dual(d > 1).tangent)
    print(fwAD.unpack_dual(d.round()).tangent, fwAD.unpack_dual(d.floor()).tangent, fwAD.unpack_dual(d.sign()).tangent)
    print(fwAD.unpack_dual(d.long()).tangent, fwAD.unpack_dual(d.double()).tangent)
    print(fwAD.unpack_dual(d.max()).tangent, fwAD.unpack_dual(d.median()).tangent)
    print(fwAD.unpack_dual(torch.where(d > 1, d, 0.)).tangent)
'''


# ---- forward AD: in-place ops on tensors without a tangent, in-place view ops

PROGRAMS['fwad_inplace_self_without_tangent'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
x = torch.tensor([1., 2.], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([3., 4.]), torch.tensor([1., 1.]))
    for name, f in [('mul_', lambda s: s.mul_(d)), ('add_', lambda s: s.add_(d, alpha=2)), ('div_', lambda s: s.div_(d)),
                    ('copy_', lambda s: s.copy_(d)), ('addcmul_', lambda s: s.addcmul_(d, d)),
                    ('lerp_', lambda s: s.lerp_(d, 0.5)), ('clamp_', lambda s: s.clamp_(min=d)),
                    ('masked_fill_', lambda s: s.masked_fill_(torch.tensor([True, False]), d[0])),
                    ('index_add_', lambda s: s.index_add_(0, torch.tensor([1]), d[:1]))]:
        s = x * 1
        f(s)
        p, t = fwAD.unpack_dual(s)
        print(name, p, t)
        if t is not None and t.requires_grad:
            E(lambda: torch.autograd.grad(t.sum(), x, allow_unused=True))
'''
PROGRAMS['fwad_inplace_view_ops_on_dual'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    d = fwAD.make_dual(torch.arange(6.).reshape(2, 3), torch.ones(2, 3))
    e = d.clone()
    e.t_()
    print(e.shape, fwAD.unpack_dual(e).tangent.shape)
    e.unsqueeze_(0)
    print(e.shape, fwAD.unpack_dual(e).tangent.shape)
    e.squeeze_()
    e.transpose_(0, 1)
    print(fwAD.unpack_dual(e).tangent.stride(), e.stride())
    f = d.clone()
    f.zero_()
    print(fwAD.unpack_dual(f))
    g = d.clone()
    g.fill_(fwAD.make_dual(torch.tensor(2.), torch.tensor(5.)))
    print(fwAD.unpack_dual(g).tangent)
'''


# ---- forward AD: out= arguments, in-place on views of a dual whose primal requires grad, jvp of in-place code

PROGRAMS['fwad_out_argument_and_resize'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([3., 4.]))
    buf = torch.empty(2)
    E(lambda: torch.add(d, 1, out=buf))
    print(fwAD.unpack_dual(buf).tangent)
    buf2 = torch.empty(0)
    E(lambda: torch.mul(d, d, out=buf2))
    print(buf2.shape, fwAD.unpack_dual(buf2).tangent)
    r = torch.empty(2)
    E(lambda: torch.exp(torch.tensor([0., 1.]), out=r))
    print(r)
'''
PROGRAMS['fwad_inplace_relu_masked_on_grad_views'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
x = torch.tensor([-1., 2., -3., 4.], requires_grad=True)
with fwAD.dual_level():
    y = fwAD.make_dual(x * 1, torch.tensor([1., 1., 1., 1.]))
    v = y[::2]
    v.relu_()
    p, t = fwAD.unpack_dual(y)
    print(p, t)
    w = y[1:3]
    w.masked_fill_(torch.tensor([True, False]), fwAD.make_dual(torch.tensor(9.), torch.tensor(7.)))
    print(fwAD.unpack_dual(y))
    z = y.view(2, 2)
    z[1].mul_(fwAD.make_dual(torch.tensor([2., 3.]), torch.tensor([1., 0.])))
    p, t = fwAD.unpack_dual(y)
    print(p, t, t.requires_grad)
    E(lambda: (p * t).sum().backward())
print(x.grad)
'''
PROGRAMS['fwad_jvp_of_functional_with_inplace'] = PRE + r'''
from torch.autograd.functional import jvp
def f(x):
    y = x.clone()
    y.mul_(2)
    y[0] = y[1] * y[2]
    y.exp_()
    return y
x = torch.tensor([0.1, 0.2, 0.3])
v = torch.tensor([1., 0., 0.])
E(lambda: jvp(f, x, v))
print(torch.func.jvp(f, (x,), (v,)))
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    print(fwAD.unpack_dual(f(fwAD.make_dual(x, v))))
'''


# ---- forward AD: in-place unary and binary ops on a dual whose primal requires grad (the tangent's own gradient)

SWEEP = r'''
import torch.autograd.forward_ad as fwAD
x = torch.tensor([0.3, 0.6], requires_grad=True)
o = torch.tensor([0.5, 0.25])
def run(name, f):
    with fwAD.dual_level():
        d = fwAD.make_dual(x * 1, torch.tensor([1., -1.])).clone()
        try:
            f(d)
        except Exception as e:
            print(name, type(e).__name__, e)
            return
        p, t = fwAD.unpack_dual(d)
        print(name, p.detach(), t.detach() if t is not None else None, None if t is None else t.requires_grad)
        if t is not None and t.requires_grad:
            E(lambda: print('  ', fwAD.unpack_dual(torch.autograd.grad(t.sum(), x, allow_unused=True)[0]).primal + 0.0))
'''
PROGRAMS['fwad_inplace_unary_sweep_grad_primal'] = PRE + SWEEP + r'''
for name in ['sin_', 'cos_', 'tanh_', 'exp_', 'log_', 'abs_', 'square_', 'reciprocal_', 'rsqrt_', 'atan_', 'erf_',
             'expm1_', 'log1p_', 'sinh_', 'asin_', 'frac_', 'trunc_', 'relu_', 'sign_', 'deg2rad_', 'logit_']:
    run(name, lambda d, name=name: getattr(d, name)())
'''
PROGRAMS['fwad_inplace_binary_sweep_grad_primal'] = PRE + SWEEP + r'''
for name in ['atan2_', 'hypot_', 'copysign_', 'fmod_', 'remainder_', 'pow_', 'sub_', 'true_divide_', 'maximum' and 'clamp_max_',
             'clamp_min_', 'xlogy_', 'ldexp_' if False else 'mul_', 'float_power_', 'logaddexp' and 'div_']:
    run(name, lambda d, name=name: getattr(d, name)(o))
run('lerp_', lambda d: d.lerp_(o, o))
run('addcdiv_', lambda d: d.addcdiv_(o, o + 1, value=2))
run('addcmul_', lambda d: d.addcmul_(d.detach(), o))
run('clamp_', lambda d: d.clamp_(o, o + 0.2))
run('nan_to_num_', lambda d: d.nan_to_num_())
run('mul_scalar', lambda d: d.mul_(2.5))
run('pow_scalar', lambda d: d.pow_(3))
'''


# ---- inference mode with custom Functions, hooks, versions of normal tensors, inference tensors in graphs

PROGRAMS['inference_mode_with_functions_and_hooks'] = PRE + r'''
class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        print('forward, grad enabled', torch.is_grad_enabled(), 'inference', torch.is_inference_mode_enabled())
        ctx.save_for_backward(a)
        return a * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = torch.tensor([1., 2.], requires_grad=True)
with torch.inference_mode():
    y = Double.apply(x)
    print(y.requires_grad, y.grad_fn, y.is_inference())
    with torch.autograd.graph.saved_tensors_hooks(lambda t: print('pack') or t, lambda t: t):
        z = x.exp()
    print(z.grad_fn)
    E(lambda: z.register_hook(lambda g: g))
    E(lambda: z.retain_grad())
E(lambda: y.requires_grad_())
E(lambda: y.register_hook(lambda g: g))
'''
PROGRAMS['inference_mode_normal_tensor_versions'] = PRE + r'''
x = torch.tensor([1., 2., 3.])
w = torch.tensor([1., 1., 1.], requires_grad=True)
y = w * x
with torch.inference_mode():
    x.add_(1)
    print(x._version, x.is_inference())
    v = x[1:]
    print(v._is_view(), v.is_inference(), v._version)
    v.mul_(2)
print(x, x._version)
E(lambda: y.sum().backward())
u = torch.tensor([1., 2.], requires_grad=True)
with torch.inference_mode():
    uv = u.view(2)
print(uv.requires_grad, uv.grad_fn, uv._is_view())
E(lambda: (uv * 2).sum().backward())
E(lambda: uv.add_(1))
'''
PROGRAMS['inference_tensor_in_graph_saved'] = PRE + r'''
with torch.inference_mode():
    c = torch.tensor([2., 3.])
x = torch.tensor([1., 1.], requires_grad=True)
y = x + c
print(y.grad_fn, y.is_inference())
y.sum().backward()
print(x.grad)
E(lambda: x * c)
E(lambda: torch.exp(c.requires_grad_()) if False else (x.exp() * c))
z = (x * c.clone())
z.sum().backward()
print(x.grad)
E(lambda: c.add_(1))
with torch.inference_mode():
    c.add_(1)
print(c)
'''


# ---- autograd.grad with repeated inputs, views, the output itself, mixed grad_outputs

PROGRAMS['grad_inputs_duplicates_views_self'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = (x ** 2).sum()
print(torch.autograd.grad(y, [x, x], retain_graph=True))
E(lambda: torch.autograd.grad(y, x[0], retain_graph=True))
print(torch.autograd.grad(y, x[0], retain_graph=True, allow_unused=True))
print(torch.autograd.grad(y, y, retain_graph=True))
h = x * 2
out = (h * h).sum()
print(torch.autograd.grad(out, [h, x, h], retain_graph=True))
y.backward(inputs=[x, x])
print(x.grad)
v = x.view(3)
z = (v * 3).sum()
print(torch.autograd.grad(z, [v, x]))
'''
PROGRAMS['grad_outputs_list_mixed'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
a = x * 2
b = x.sum() * 3
c = x.exp()
g = torch.autograd.grad([a, b, c], x, [torch.tensor([1., 0.]), None, torch.ones(2)], retain_graph=True)
print(g)
g = torch.autograd.grad((a, c), (x,), (torch.ones(2), torch.zeros(2)), retain_graph=True)
print(g)
E(lambda: torch.autograd.grad([a, torch.ones(2)], x, [torch.ones(2), torch.ones(2)]))
E(lambda: torch.autograd.grad([a, b], x, [torch.ones(2)]))
print(torch.autograd.grad([b, b], x, retain_graph=True))
'''


# ---- forward AD: tangents of views and bases, level exit

PROGRAMS['fwad_views_bases_tangent_sharing'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    base = fwAD.make_dual(torch.zeros(2, 2), torch.ones(2, 2))
    v = base[0]
    print(fwAD.unpack_dual(v).tangent)
    E(lambda: fwAD.make_dual(v, torch.ones(2)))
    plain = torch.zeros(3)
    early = plain[1:]
    plain.copy_(fwAD.make_dual(torch.ones(3), torch.tensor([1., 2., 3.])))
    print(fwAD.unpack_dual(early).tangent, fwAD.unpack_dual(plain).tangent)
    late = plain[:2]
    print(fwAD.unpack_dual(late).tangent)
    x = torch.arange(4.).reshape(2, 2)
    d = fwAD.make_dual(x.t(), torch.tensor([[1., 2.], [3., 4.]]))
    print(fwAD.unpack_dual(x).tangent)
    x.mul_(10)
    print(d, fwAD.unpack_dual(d).tangent)
    e = fwAD.make_dual(x, torch.ones(2, 2))
    print(fwAD.unpack_dual(e.t()).tangent)
'''
PROGRAMS['fwad_level_exit_clears_and_reuse'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
p = torch.tensor([1., 2.])
with fwAD.dual_level():
    d = fwAD.make_dual(p, torch.tensor([5., 6.]))
    y = d * 2
    print(fwAD.unpack_dual(p).tangent, fwAD.unpack_dual(y).tangent)
print(fwAD.unpack_dual(d).tangent, fwAD.unpack_dual(y).tangent, d, y)
with fwAD.dual_level():
    print(fwAD.unpack_dual(d).tangent)
    d2 = fwAD.make_dual(d, torch.tensor([1., 1.]))
    print(fwAD.unpack_dual(d2 * y).tangent)
    print(fwAD.unpack_dual(d2).primal is d, fwAD.unpack_dual(d2).primal._base is p)
'''


# ---- forward AD: views made before their base got a tangent (PyTorch's lazy view tangent)

# A view made before its base got a tangent takes a view of the base's tangent when first asked (PyTorch's lazy
# AutogradMeta::fw_grad).
PROGRAMS['fwad_view_made_before_base_tangent'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    buf = torch.zeros(2, 3)
    row = buf[1]
    col = buf[:, 0]
    buf.copy_(fwAD.make_dual(torch.ones(2, 3), torch.arange(6.).reshape(2, 3)))
    print(row)
    print(fwAD.unpack_dual(col).tangent)
    y = row.exp()
    print(fwAD.unpack_dual(y).tangent)
    row.mul_(2)
    print(fwAD.unpack_dual(buf).tangent)
    buf.add_(fwAD.make_dual(torch.zeros(2, 3), torch.ones(2, 3)))
    print(fwAD.unpack_dual(col).tangent, fwAD.unpack_dual(row).tangent)
    E(lambda: fwAD.make_dual(col, torch.ones(2)))
print(row, fwAD.unpack_dual(row).tangent)
'''
PROGRAMS['fwad_view_before_inplace_on_other_view'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    base = torch.zeros(4)
    a = base[:2]
    b = base[1:3]
    a.copy_(fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([10., 20.])))
    print(fwAD.unpack_dual(base).tangent)
    print(fwAD.unpack_dual(b).tangent, b)
    c = b.sum() * 3
    print(fwAD.unpack_dual(c))
'''
# The same lazy tangent reaches a custom Function's jvp.
PROGRAMS['fwad_custom_fn_on_view_made_before_tangent'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x)
        return x ** 3
    @staticmethod
    def backward(ctx, g):
        return g
    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        print('jvp got', t)
        return 3 * x ** 2 * t
with fwAD.dual_level():
    buf = torch.ones(4)
    tail = buf[2:]
    buf.mul_(fwAD.make_dual(torch.full((4,), 2.), torch.arange(4.)))
    out = Cube.apply(tail)
    print(fwAD.unpack_dual(out))
'''


# ---- forward AD: tangents of views written in place, after the level's exit

PROGRAMS['fwad_view_tangents_after_level_exit'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
base = torch.zeros(3)
v = base[1:]
w = base[:1]
with fwAD.dual_level():
    v.mul_(fwAD.make_dual(torch.ones(2), torch.tensor([2., 3.])))
    v.add_(fwAD.make_dual(torch.ones(2), torch.tensor([2., 3.])))
    print(v, w)
print(v, base, w)
print(v * 2)
with fwAD.dual_level():
    print(fwAD.unpack_dual(v).tangent, fwAD.unpack_dual(base).tangent)
    d = fwAD.make_dual(v, torch.tensor([7., 8.]))
    print(d, fwAD.unpack_dual(base).tangent)
'''


# ---- retain_grad with autograd.grad, backward(inputs=), leaf views

PROGRAMS['retain_grad_with_autograd_grad_and_inputs'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
h = x * 3
h.retain_grad()
k = h.exp()
k.retain_grad()
out = (k * 2).sum()
print(torch.autograd.grad(out, x, retain_graph=True), h.grad, k.grad)
out.backward(inputs=[x], retain_graph=True)
print(x.grad, h.grad, k.grad)
out.backward(inputs=[h], retain_graph=True)
print(x.grad, h.grad, k.grad)
out.backward()
print(x.grad, h.grad, k.grad)
'''
PROGRAMS['retain_grad_leaf_view_and_detach'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
v = x[:2]
v.retain_grad()
d = x.detach()
E(lambda: d.retain_grad())
(v * v).sum().backward()
print(v.grad, x.grad, v.retains_grad)
w = x * 1
w.retain_grad()
w.retain_grad()
(w * 2).sum().backward(retain_graph=True)
(w * 3).sum().backward(retain_graph=True)
print(w.grad)
w.grad = None
(w ** 2).sum().backward()
print(w.grad)
E(lambda: (w * 3).sum().backward())
'''


# ---- forward AD: in-place ops whose other operand's primal requires grad

PROGRAMS['fwad_inplace_other_requires_grad'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
w = torch.tensor([0.5, 2.0], requires_grad=True)
for name in ['mul_', 'div_', 'add_', 'sub_', 'pow_', 'atan2_', 'copy_', 'maximum']:
    with fwAD.dual_level():
        s = fwAD.make_dual(torch.tensor([1., 3.]), torch.tensor([1., 1.])).clone()
        other = fwAD.make_dual(w * 1, torch.tensor([0.5, -0.5]))
        try:
            r = getattr(s, name)(other)
        except Exception as e:
            print(name, type(e).__name__, e)
            continue
        p, t = fwAD.unpack_dual(r)
        print(name, p.detach(), t.detach(), t.requires_grad, p.requires_grad, r is s)
        if t.requires_grad:
            print('  ', fwAD.unpack_dual(torch.autograd.grad(t.sum(), w)[0]).primal + 0.0)
'''


# ---- custom Functions returning views of their input, mark_dirty on views, one output returned twice

PROGRAMS['fn_multi_view_outputs_and_dirty_view'] = PRE + r'''
class Halves(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x[:2], x[2:]
    @staticmethod
    def backward(ctx, a, b):
        return torch.cat([a, b])
x = torch.arange(4., requires_grad=True)
a, b = Halves.apply(x * 1)
print(a._is_view(), b._is_view(), a.grad_fn is b.grad_fn, a.output_nr, b.output_nr)
E(lambda: a.mul_(2))
(a.sum() * 2 + b.sum() * 3).backward()
print(x.grad)
class DirtyView(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x.view(-1)
    @staticmethod
    def backward(ctx, g):
        return g * 2
E(lambda: DirtyView.apply(x.clone()))
class DirtyOfView(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
base = x.clone()
v = base[1:3]
r = DirtyOfView.apply(v)
print(r is v, base, base.grad_fn.name(), v.grad_fn.name())
base.sum().backward()
print(x.grad)
'''
PROGRAMS['fn_input_returned_twice_and_saved_output_view'] = PRE + r'''
class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x * 2
        ctx.save_for_backward(y)
        return y, y
    @staticmethod
    def backward(ctx, g1, g2):
        y, = ctx.saved_tensors
        print('g1 g2', g1, g2)
        return (g1 + g2) * 2
x = torch.tensor([1., 2.], requires_grad=True)
p, q = Twice.apply(x)
print(p is q, p.output_nr, q.output_nr, p._is_view(), q._is_view())
(p * 1 + q * 10).sum().backward()
print(x.grad)
'''


# ---- views made before their base required grad (PyTorch's requires_grad() through the base, an empty edge)

# A view made before its base was set to require grad: PyTorch's requires_grad() is true through the base, the
# op records, but the view has no grad_fn nor accumulator (its edge is empty: no gradient reaches x or v).
PROGRAMS['view_made_before_base_requires_grad'] = PRE + r'''
x = torch.zeros(3)
v = x[:2]
x.requires_grad_()
print(v.requires_grad, v.is_leaf, v.grad_fn, v)
y = (v * 2).sum()
print(y.requires_grad, y.grad_fn.name(), y.grad_fn.next_functions)
y.backward()
print(v.grad, x.grad)
E(lambda: v.add_(1))
w = x[1:]
print(w.requires_grad, w.grad_fn.name())
u = v + 1
print(u, u.grad_fn.next_functions)
x.requires_grad_(False)
print(v.requires_grad, v)
'''
PROGRAMS['fn_saves_view_of_its_output'] = PRE + r'''
class SaveView(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        out = x * 3
        ctx.save_for_backward(out[0])
        return out
    @staticmethod
    def backward(ctx, g):
        first, = ctx.saved_tensors
        print('first', first, first.requires_grad, first.grad_fn)
        return g * 3
x = torch.tensor([1., 2.], requires_grad=True)
SaveView.apply(x).sum().backward()
print(x.grad)
'''
PROGRAMS['view_made_before_base_requires_grad_api'] = PRE + r'''
x = torch.zeros(3)
v = x[:2]
x.requires_grad_()
E(lambda: v.retain_grad())
print(v.retains_grad)
h = v.register_hook(lambda g: print('hook', g))
E(lambda: torch.autograd.grad((v * 2).sum(), v))
E(lambda: torch.autograd.grad((v * 2).sum(), x))
E(lambda: (v * 2).sum().backward(inputs=[v]))
print(v.grad, x.grad)
print(v.requires_grad_(False).requires_grad, v.detach().requires_grad)
print(torch.cat([v, x]).grad_fn.next_functions)
'''


# ---- forward AD: lazy view tangents through in-place view ops, masked_fill, stack

PROGRAMS['fwad_lazy_view_tangent_through_other_ops'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    buf = torch.zeros(2, 3)
    early = buf[1]
    early2 = buf[:, 1:]
    conj_early = buf.view(6)
    buf.copy_(fwAD.make_dual(torch.ones(2, 3), torch.arange(6.).reshape(2, 3)))
    early.unsqueeze_(0)
    print(early.shape, fwAD.unpack_dual(early).tangent)
    early2.t_()
    print(fwAD.unpack_dual(early2).tangent)
    print(fwAD.unpack_dual(conj_early[::2]).tangent)
    z = torch.zeros(3)
    e3 = z[:2]
    z.add_(fwAD.make_dual(torch.ones(3), torch.tensor([1., 2., 3.])))
    r = e3.masked_fill(torch.tensor([True, False]), 5.)
    print(fwAD.unpack_dual(r).tangent)
    s = torch.stack([e3, e3 * 2])
    print(fwAD.unpack_dual(s).tangent)
'''


# ---- views made before their base required grad, then in-place ops on the base

PROGRAMS['view_before_requires_grad_then_inplace'] = PRE + r'''
w = torch.tensor([2., 3., 4.], requires_grad=True)
x = torch.zeros(3)
v = x[1:]
x.requires_grad_()
E(lambda: x.mul_(w))
y = x.clone()
a = y[:2]
y.requires_grad_() if y.is_leaf else None
y.mul_(w)
print(a.grad_fn.name(), a.requires_grad, a)
a.sum().backward()
print(w.grad)
b = torch.ones(4)
c = b.view(2, 2)
b.requires_grad_()
d = c.t() * 2
print(d.requires_grad, d.grad_fn.next_functions[0][0].name() if d.grad_fn.next_functions[0][0] else None)
with torch.no_grad():
    e = c * 2
print(e.requires_grad, c.requires_grad, c.detach().requires_grad)
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
