"""Parity programs from a twelfth hunt: unseen autograd programs in the spirit of the source notes.

The notes in ``/work/shared/seeds`` (torch.autograd in Chinese) show a handful of examples; these programs are what a
teacher or student writes after reading them, varying what the notes show: other shapes and dtypes, 0-d tensors,
every intermediate printed (``grad_fn``, ``next_functions``, ``_saved_*``, ``_version``), ``backward`` and
``autograd.grad`` with every argument, their errors, grad modes, hooks, custom Functions, ``autograd.functional``,
gradcheck, anomaly mode, ``autograd.graph`` and checkpointing. Each runs through ``parity.run_both`` (minigrad as
``torch``, then PyTorch) and both stdouts must be identical once object addresses are masked. Programs marked
"fixed:" printed something different from PyTorch before this hunt's fix.
"""
from __future__ import annotations

import re
import warnings

import pytest
from parity import run_both

# ``E(f)`` prints "no error" (and f's result) or the exception's type and message; ``W(f)`` calls f and prints
# the warnings it gave.
PRE = r'''
import torch, warnings
def E(f):
    try:
        r = f()
        print('no error', r if not callable(r) else '')
    except Exception as e:
        print(type(e).__name__, e)
def W(f):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        r = f()
    for w in ws:
        print('W', w.category.__name__, str(w.message))
    return r
'''

PROGRAMS: dict[str, str] = {}

# ---- note 000: the one-layer network, requires_grad propagation, non-scalar outputs, hooks, Exp

PROGRAMS['n0_bce_logits_float64_batch'] = PRE + r'''
torch.manual_seed(3)
x = torch.ones(2, 5, dtype=torch.float64)
y = torch.tensor([[0., 1., 0.], [1., 1., 0.]], dtype=torch.float64)
w = torch.randn(5, 3, dtype=torch.float64, requires_grad=True)
b = torch.randn(3, dtype=torch.float64, requires_grad=True)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y, reduction='sum')
print(z.grad_fn, z.grad_fn.next_functions)
print(loss.grad_fn, loss.grad_fn.next_functions)
print(loss)
loss.backward()
print(w.grad)
print(b.grad)
print(w.grad.dtype, w.is_leaf, z.is_leaf, loss.is_leaf)
'''

PROGRAMS['n0_bce_logits_pos_weight_saved'] = PRE + r'''
torch.manual_seed(0)
z = torch.randn(4, requires_grad=True)
y = torch.tensor([0., 1., 1., 0.])
pw = torch.tensor([2., 1., 0.5, 3.])
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y, pos_weight=pw)
print(loss, loss.grad_fn)
g = loss.grad_fn
print(g.next_functions)
for n in dir(g):
    if n.startswith('_saved'):
        print(n, getattr(g, n))
loss.backward()
print(z.grad)
'''

PROGRAMS['n0_requires_grad_propagation_mixed'] = PRE + r'''
x = torch.rand(3, 3)
z = torch.rand((3, 3), requires_grad=True)
i = torch.arange(9).reshape(3, 3)
print((x + i).requires_grad, (x + i).dtype)
print((z + i).requires_grad, (z + i).dtype, (z + i).grad_fn)
print((z > 0.5).requires_grad, (z > 0.5).grad_fn)
print(z.argmax().requires_grad, z.max().requires_grad)
print(z.long().requires_grad, z.double().requires_grad, z.double().grad_fn)
print((z * 0).requires_grad, z.detach().requires_grad, z.clone().requires_grad)
with torch.no_grad():
    a = z * 2
print(a.requires_grad, a.grad_fn, a.is_leaf)
print(torch.zeros_like(z).requires_grad, torch.empty_like(z, requires_grad=True).requires_grad)
'''

PROGRAMS['n0_no_grad_matmul_int_input'] = PRE + r'''
x = torch.ones(5, dtype=torch.int64)
w = torch.randn(5, 3, requires_grad=True)
E(lambda: torch.matmul(x, w))
z = torch.matmul(x.float(), w)
print(z.requires_grad, z.grad_fn)
with torch.no_grad():
    z2 = torch.matmul(x.float(), w)
print(z2.requires_grad, z2.grad_fn)
print(torch.is_grad_enabled())
E(lambda: torch.ones(2, dtype=torch.int64, requires_grad=True))
E(lambda: torch.tensor([1, 2]).requires_grad_())
E(lambda: torch.tensor([1 + 2j], requires_grad=True))
'''

PROGRAMS['n0_eye_nonscalar_three_calls_float64'] = PRE + r'''
inp = torch.eye(3, 4, dtype=torch.float64, requires_grad=True)
out = (inp * 2 + 1).pow(3).t()
print(out.grad_fn, out.grad_fn.next_functions)
print(out.grad_fn.next_functions[0][0]._saved_self.shape, out.grad_fn.next_functions[0][0]._saved_exponent)
g = torch.arange(12, dtype=torch.float64).reshape(4, 3)
out.backward(g, retain_graph=True)
print(inp.grad)
out.backward(g, retain_graph=True)
print(inp.grad)
inp.grad.zero_()
out.backward(torch.ones_like(out))
print(inp.grad)
E(lambda: out.backward(torch.ones_like(out)))
'''

PROGRAMS['n0_nonscalar_errors'] = PRE + r'''
x = torch.ones(2, 2, requires_grad=True)
y = x * 3
E(lambda: y.backward())
E(lambda: y.backward(torch.ones(4)))
E(lambda: y.backward(torch.ones(2, 2, dtype=torch.int64), retain_graph=True))
print(x.grad, x.grad.dtype)
E(lambda: y.backward(torch.ones(2, 2, dtype=torch.bool), retain_graph=True))
E(lambda: y.backward(torch.ones(2, 2, dtype=torch.complex64), retain_graph=True))
print(x.grad)
E(lambda: y.backward(torch.ones(1, 2), retain_graph=True))
print(x.grad)
E(lambda: y.backward(torch.ones(2, 1), retain_graph=True))
print(x.grad)
E(lambda: torch.autograd.grad(y, x))
E(lambda: torch.autograd.grad(y, x, torch.ones(3)))
print(x.grad)
y.backward(torch.ones(2, 2, dtype=torch.float64))
print(x.grad, x.grad.dtype)
'''

PROGRAMS['n0_zero_grad_patterns'] = PRE + r'''
torch.manual_seed(1)
m = torch.nn.Linear(3, 2)
x = torch.randn(4, 3)
m(x).sum().backward()
print(m.weight.grad, m.bias.grad)
m.zero_grad(set_to_none=False)
print(m.weight.grad, m.bias.grad)
m(x).pow(2).mean().backward()
print(m.bias.grad)
m.zero_grad()
print(m.weight.grad, m.bias.grad)
w = torch.ones(2, requires_grad=True)
(w * 5).sum().backward()
g = w.grad
w.grad.zero_()
print(g is w.grad, g, w.grad._version)
(w * 7).sum().backward()
print(g is w.grad, g)
w.grad = None
(w * 2).sum().backward()
print(g is w.grad, w.grad)
'''

PROGRAMS['n0_retain_grad_and_hook_order'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * x
y.retain_grad()
h = y.register_hook(lambda g: print('hook1', g) or g * 10)
y.register_hook(lambda g: print('hook2', g))
z = y.sum() * 2
z.backward()
print(y.grad, x.grad, y.retains_grad, x.retains_grad)
h.remove()
y.grad = None
x.grad = None
z = (y * 1).sum()
E(lambda: z.backward())
print(y.grad, x.grad)
'''

PROGRAMS['n0_save_grad_dict_hook'] = PRE + r'''
grads = {}
def save_grad(name):
    def hook(grad):
        grads[name] = grad
    return hook
x = torch.randn(3, generator=torch.Generator().manual_seed(5), requires_grad=True)
y = 3 * x
z = y * y
y.register_hook(save_grad('y'))
z.register_hook(save_grad('z'))
t = z.mean()
t.register_hook(save_grad('t'))
t.backward()
for k in sorted(grads):
    print(k, grads[k], grads[k].requires_grad, grads[k].grad_fn)
print(x.grad)
'''

PROGRAMS['n0_exp_function_float64_and_graph'] = PRE + r'''
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
        return grad_output * result
x = torch.tensor([[0., 1.], [-1., 0.5]], dtype=torch.float64, requires_grad=True)
out = Exp.apply(x)
print(out, out.grad_fn, type(out.grad_fn).__name__)
print(out.grad_fn.next_functions, out.grad_fn.saved_tensors[0] is out)
print(out.grad_fn.needs_input_grad if hasattr(out.grad_fn, 'needs_input_grad') else None)
out.backward(torch.full((2, 2), 2.0, dtype=torch.float64))
print(x.grad)
E(lambda: out.grad_fn.saved_tensors)
print(torch.autograd.gradcheck(Exp.apply, (x,)))
print(torch.autograd.gradgradcheck(Exp.apply, (x,)))
'''

PROGRAMS['n0_exp_function_no_grad_input'] = PRE + r'''
from torch.autograd import Function
class Exp(Function):
    @staticmethod
    def forward(ctx, i):
        print('forward sees grad mode', torch.is_grad_enabled(), i.requires_grad)
        result = i.exp()
        ctx.save_for_backward(result)
        return result
    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result
a = torch.tensor([0.0, 1.0])
o = Exp.apply(a)
print(o.requires_grad, o.grad_fn)
b = torch.tensor(2.0, requires_grad=True)
o = Exp.apply(b)
print(o, o.shape, o.grad_fn is not None)
o.backward()
print(b.grad)
with torch.no_grad():
    o = Exp.apply(b)
print(o.requires_grad, o.grad_fn)
'''

PROGRAMS['n0_polynomial_legendre_loop'] = PRE + r'''
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
dtype = torch.float64
x = torch.linspace(-math.pi, math.pi, 200, dtype=dtype)
y = torch.sin(x)
a = torch.full((), 0.0, dtype=dtype, requires_grad=True)
b = torch.full((), -1.0, dtype=dtype, requires_grad=True)
c = torch.full((), 0.0, dtype=dtype, requires_grad=True)
d = torch.full((), 0.3, dtype=dtype, requires_grad=True)
lr = 5e-6
for t in range(300):
    P3 = LegendrePolynomial3.apply
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    if t % 60 == 59:
        print(t, round(loss.item(), 6))
    loss.backward()
    with torch.no_grad():
        a -= lr * a.grad
        b -= lr * b.grad
        c -= lr * c.grad
        d -= lr * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None
print(f'Result: y = {a.item():.6f} + {b.item():.6f} * P3({c.item():.6f} + {d.item():.6f} x)')
print(a._version, a.is_leaf, a.requires_grad)
'''

PROGRAMS['n0_autograd_meta_fields'] = PRE + r'''
x = torch.ones(2, 3, requires_grad=True)
v = x[0]
print(v._base is x, v.is_leaf, v.grad_fn, v._version, x._version)
y = x * 2
print(y.output_nr if hasattr(y, 'output_nr') else None, y._version)
a, b = x.unbind(0)
print(a.grad_fn, a.output_nr, b.output_nr, a._base is x)
s1, s2 = x.split([1, 2], dim=1)
print(s1.grad_fn, s1.output_nr, s2.output_nr)
u = y.view(3, 2)
print(u._base is y, u._is_view(), y._is_view(), x._is_view())
u.add_(1)
print(y._version, u._version, x._version, y.grad_fn, u.grad_fn)
print(x.grad_fn, y.grad_fn.next_functions[0][0], y.grad_fn.next_functions[0][0].next_functions[0][0].variable is x)
'''

PROGRAMS['n0_saved_self_other_variants'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
m = a * b
print(m.grad_fn._saved_self is a, m.grad_fn._saved_other is b, torch.equal(m.grad_fn._saved_self, a))
m2 = a * 3
print(m2.grad_fn._saved_other, type(m2.grad_fn).__name__)
E(lambda: m2.grad_fn._saved_self)
d = a / b
print(d.grad_fn._saved_self, d.grad_fn._saved_other)
d2 = a / 2
print(d2.grad_fn._saved_other, type(d2.grad_fn).__name__)
p = a ** b
print(p.grad_fn._saved_self, p.grad_fn._saved_exponent, p.grad_fn._saved_result)
s = a - b
print(type(s.grad_fn).__name__, s.grad_fn._saved_alpha)
ad = torch.add(a, b, alpha=2)
print(ad.grad_fn._saved_alpha, ad)
'''

# ---- note 001: a + b -> sum, backward(gradient, retain_graph, create_graph), set_grad_enabled, MultiplyAdd

PROGRAMS['n1_a_plus_b_sum_int_and_double'] = PRE + r'''
a = torch.tensor([1., 2., 3.], dtype=torch.float64, requires_grad=True)
b = torch.tensor([4, 5, 6])
c = a + b
d = c.sum()
print(c, c.dtype, c.grad_fn, c.grad_fn.next_functions)
print(d, d.grad_fn, d.grad_fn.next_functions, d.grad_fn._saved_self_sym_sizes)
d.backward()
print(a.grad, b.grad, c.grad)
W(lambda: print(c.grad))
print(a.requires_grad, b.requires_grad, c.requires_grad, d.requires_grad)
print(a.is_leaf, b.is_leaf, c.is_leaf, d.is_leaf)
'''

PROGRAMS['n1_backward_create_graph_scalar_grad'] = PRE + r'''
x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
W(lambda: y.backward(create_graph=True))
print(x.grad, x.grad.grad_fn, x.grad.requires_grad)
g = x.grad
x.grad = None
g.backward()
print(x.grad)
x.grad = None
y2 = x ** 4
y2.backward(torch.tensor(0.5), create_graph=True)
print(x.grad)
x.grad.backward(retain_graph=True)
print(x.grad)
'''

PROGRAMS['n1_backward_gradient_0d_vs_1elem'] = PRE + r'''
x = torch.tensor([3.0], requires_grad=True)
y = x * x
y.backward()
print(x.grad)
y = (x * x).reshape(())
E(lambda: y.backward(torch.tensor([1.0])))
print(x.grad)
y = x * x
E(lambda: y.backward(torch.tensor(2.0)))
print(x.grad)
y = x.sum()
E(lambda: y.backward(2.0))
E(lambda: y.backward([1.0]))
print(x.grad)
'''

PROGRAMS['n1_set_grad_enabled_all_forms'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
print(torch.is_grad_enabled())
with torch.set_grad_enabled(False):
    y = x * 2
    print(torch.is_grad_enabled())
print(y.requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(False)
y = x * 2
print(y.requires_grad)
torch.set_grad_enabled(True)
@torch.set_grad_enabled(False)
def f(t):
    return t * 3
print(f(x).requires_grad, torch.is_grad_enabled())
is_train = False
with torch.set_grad_enabled(is_train):
    with torch.enable_grad():
        z = x * 4
    w = x * 5
print(z.requires_grad, w.requires_grad)
m = torch.set_grad_enabled(False)
print(type(m).__name__, torch.is_grad_enabled())
torch.set_grad_enabled(True)
print(torch.is_grad_enabled())
E(lambda: torch.set_grad_enabled())
E(lambda: torch.set_grad_enabled(1))
'''

PROGRAMS['n1_multiply_add_function_variants'] = PRE + r'''
class MultiplyAdd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, w, x, b):
        ctx.save_for_backward(w, x)
        output = w * x + b
        return output
    @staticmethod
    def backward(ctx, grad_output):
        w, x = ctx.saved_tensors
        print('needs', ctx.needs_input_grad)
        grad_w = grad_output * x
        grad_x = grad_output * w
        grad_b = grad_output
        return grad_w, grad_x, grad_b
x = torch.ones(1)
w = torch.rand(1, generator=torch.Generator().manual_seed(0), requires_grad=True)
b = torch.rand(1, generator=torch.Generator().manual_seed(1), requires_grad=True)
out = MultiplyAdd.apply(w, x, b)
out.backward()
print(w.grad, b.grad, x.grad)
x = torch.ones(1, requires_grad=True)
out = MultiplyAdd.apply(w, x, 2.5)
E(lambda: out.backward())
print(w.grad, x.grad)
out = MultiplyAdd.apply(w, x, b)
print(torch.autograd.grad(out, [x, b]))
'''

PROGRAMS['n1_multiply_add_broadcast_wrong_shape'] = PRE + r'''
class MultiplyAdd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, w, x, b):
        ctx.save_for_backward(w, x)
        return w * x + b
    @staticmethod
    def backward(ctx, grad_output):
        w, x = ctx.saved_tensors
        return grad_output * x, grad_output * w, grad_output
w = torch.ones(3, requires_grad=True)
x = torch.arange(6.).reshape(2, 3)
b = torch.tensor(1.0, requires_grad=True)
out = MultiplyAdd.apply(w, x, b)
print(out)
E(lambda: out.sum().backward())
print(w.grad, b.grad)
'''

# ---- note 002: mean(x * x), vector-Jacobian products, detach

PROGRAMS['n2_mean_x_squared_shapes'] = PRE + r'''
for shape in [(), (1,), (2, 3), (2, 0)]:
    x = torch.full(shape, 1.5, requires_grad=True)
    y = torch.mean(x * x)
    print(shape, y, y.grad_fn, y.grad_fn._saved_self_sym_numel, y.grad_fn._saved_self_sym_sizes)
    y.backward()
    print(x.grad)
'''

PROGRAMS['n2_vjp_by_hand_vs_jacobian'] = PRE + r'''
x = torch.tensor([1., 2., 3.], dtype=torch.float64, requires_grad=True)
y = torch.stack([x[0] * x[1], x[1] ** 2, torch.sin(x[2]) * x[0]])
print(y.grad_fn, y.grad_fn.next_functions)
v = torch.tensor([1., 0.1, 0.01], dtype=torch.float64)
y.backward(v)
print(x.grad)
J = torch.autograd.functional.jacobian(lambda t: torch.stack([t[0] * t[1], t[1] ** 2, torch.sin(t[2]) * t[0]]), x.detach())
print(J)
print(v @ J, torch.allclose(v @ J, x.grad))
'''

PROGRAMS['n2_detach_shares_storage_and_version'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
d = y.detach()
print(d.requires_grad, d.grad_fn, d.is_leaf, d._version, y._version)
d[0] = 100.
print(y, d._version, y._version)
z = y.exp()
w = y * 1
d.add_(1)
E(lambda: z.sum().backward())
E(lambda: w.sum().backward())
print(x.grad)
e = x.detach()
E(lambda: e.add_(1))
print(x, e._version, x._version)
'''

PROGRAMS['n2_detach_inplace_variants'] = PRE + r'''
x = torch.ones(3, requires_grad=True)
y = x * 2
v = y[1:]
E(lambda: v.detach_())
y2 = x * 3
print(y2.detach_() is y2, y2.requires_grad, y2.grad_fn, y2.is_leaf)
E(lambda: x.detach_())
print(x.requires_grad, x.is_leaf)
z = torch.ones(2, requires_grad=True)
zz = z.view(2)
E(lambda: zz.detach_())
print(zz.requires_grad, zz.grad_fn)
'''

# ---- note 003: autograd.backward / autograd.grad with every argument

PROGRAMS['n3_autograd_backward_lists'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
y1 = a * b
y2 = (a + b).sum()
torch.autograd.backward([y1, y2], [torch.ones(2), None])
print(a.grad, b.grad)
E(lambda: torch.autograd.backward([a * b, (a - b).sum()], [None, None]))
E(lambda: torch.autograd.backward([a * 2], [torch.ones(2), torch.ones(2)]))
E(lambda: torch.autograd.backward((a * 2).sum(), grad_tensors=torch.tensor(3.)))
print(a.grad)
E(lambda: torch.autograd.backward([], []))
E(lambda: torch.autograd.backward(a.sum(), inputs=[]))
E(lambda: torch.autograd.backward(torch.ones(2)))
'''

PROGRAMS['n3_grad_allow_unused_materialize'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.], requires_grad=True)
z = torch.tensor(5., requires_grad=True)
out = (x * 2).sum()
E(lambda: torch.autograd.grad(out, [x, y], retain_graph=True))
print(torch.autograd.grad(out, [x, y], retain_graph=True, allow_unused=True))
print(torch.autograd.grad(out, [y, z, x], retain_graph=True, materialize_grads=True))
E(lambda: torch.autograd.grad(out, [y], retain_graph=True, allow_unused=False, materialize_grads=True))
print(torch.autograd.grad(out, (y,), materialize_grads=True, allow_unused=True, retain_graph=True))
print(torch.autograd.grad(out, x, only_inputs=True))
'''

PROGRAMS['n3_grad_outputs_list_with_none'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
a = x * x
s = x.sum()
print(torch.autograd.grad([a, s], x, grad_outputs=[torch.ones(3), None], retain_graph=True))
print(torch.autograd.grad([s, a], x, grad_outputs=[None, torch.tensor([1., 0., -1.])], retain_graph=True))
E(lambda: torch.autograd.grad([a, s], x, grad_outputs=[None, None], retain_graph=True))
E(lambda: torch.autograd.grad([a, s], x, grad_outputs=[torch.ones(3)], retain_graph=True))
E(lambda: torch.autograd.grad([a, s], x, grad_outputs=torch.ones(3), retain_graph=True))
print(torch.autograd.grad(s, x, grad_outputs=torch.tensor(2.), retain_graph=True))
E(lambda: torch.autograd.grad(s, x, grad_outputs=[torch.tensor([2.])], retain_graph=True))
'''

PROGRAMS['n3_grad_is_grads_batched'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x ** 2
I = torch.eye(3)
print(torch.autograd.grad(y, x, I, is_grads_batched=True, retain_graph=True))
v = torch.stack([torch.ones(3), torch.arange(3.)])
print(torch.autograd.grad(y, x, v, is_grads_batched=True, retain_graph=True))
s = y.sum()
print(torch.autograd.grad(s, x, torch.tensor([1., 2.]), is_grads_batched=True, retain_graph=True))
E(lambda: torch.autograd.grad(y, x, torch.ones(3), is_grads_batched=True, retain_graph=True))
E(lambda: torch.autograd.grad(y, x, torch.ones(2, 4), is_grads_batched=True, retain_graph=True))
h = torch.autograd.grad(y, x, I, is_grads_batched=True, create_graph=True)[0]
print(h.detach(), h.requires_grad)  # (the node differs: PyTorch's vmap gives MulBackward0, minigrad stacks rows)
h.sum().backward()
print(x.grad)
'''

PROGRAMS['n3_grad_non_requiring_errors'] = PRE + r'''
x = torch.tensor([1., 2.])
w = torch.tensor([1., 2.], requires_grad=True)
E(lambda: torch.autograd.grad((x * 2).sum(), x))
E(lambda: torch.autograd.grad((w * 2).sum(), x))
E(lambda: torch.autograd.grad((w * 2).sum(), [w, x]))
E(lambda: (x * 2).sum().backward())
E(lambda: torch.autograd.grad((w * 2).sum(), w * 2))
E(lambda: torch.autograd.grad((w * 2).sum(), []))
E(lambda: torch.autograd.grad([], w))
E(lambda: torch.autograd.grad((w * 2).sum(), [w, w]))
E(lambda: torch.autograd.grad((w * 2).sum(), 3))
E(lambda: torch.autograd.grad(3, w))
'''

PROGRAMS['n3_grad_only_inputs_false'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.], requires_grad=True)
out = (x * y).sum()
r = W(lambda: torch.autograd.grad(out, x, only_inputs=False))
print(r, x.grad, y.grad)
'''

PROGRAMS['n3_function_needs_input_grad_mixed'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, k, b, flag):
        print('fw needs', ctx.needs_input_grad)
        ctx.k = k
        ctx.flag = flag
        return a * k + b
    @staticmethod
    def backward(ctx, g):
        print('bw needs', ctx.needs_input_grad, ctx.k, ctx.flag)
        return (g * ctx.k if ctx.needs_input_grad[0] else None, None,
                g if ctx.needs_input_grad[2] else None, None)
a = torch.ones(2, requires_grad=True)
b = torch.zeros(2)
F.apply(a, 3, b, 'x').sum().backward()
print(a.grad)
b2 = torch.zeros(2, requires_grad=True)
o = F.apply(a.detach(), 2.0, b2, None)
o.sum().backward()
print(b2.grad)
o = F.apply(a, torch.tensor(2.0, requires_grad=True), b2, True)
print(o.grad_fn.next_functions)
o.sum().backward()
'''

# ---- note 004: tutorial in Chinese, eye(4, 5) Jacobian products

PROGRAMS['n4_eye_4_5_variants'] = PRE + r'''
inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
print(out.shape, out.grad_fn, out.grad_fn.next_functions[0][0], out.grad_fn.next_functions[0][0].next_functions)
print(out.grad_fn.next_functions[0][0]._saved_exponent, out.grad_fn.next_functions[0][0].next_functions[0][0]._saved_alpha)
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(2 * torch.ones_like(out), retain_graph=True)
print(f"Second call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.eye(5, 4), retain_graph=True)
print(f"Eye call\n{inp.grad}")
inp.grad = None
torch.autograd.backward(out, torch.ones(5, 4), inputs=[inp])
print(inp.grad)
'''

PROGRAMS['n4_one_layer_net_then_detach'] = PRE + r'''
torch.manual_seed(7)
x = torch.ones(5)
y = torch.zeros(3)
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w) + b
print(z.requires_grad)
z_det = z.detach()
print(z_det.requires_grad, z_det)
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print('Gradient function for z =', z.grad_fn)
print('Gradient function for loss =', loss.grad_fn)
print(z.grad_fn.next_functions[0][0], z.grad_fn.next_functions[0][0].next_functions)
print(z.grad_fn.next_functions[0][0]._saved_self if hasattr(z.grad_fn.next_functions[0][0], '_saved_self') else 'n/a')
loss.backward()
print(w.grad)
print(b.grad)
E(lambda: loss.backward())
'''

# ---- grad modes: no_grad / enable_grad / set_grad_enabled / inference_mode, nested and as decorators

PROGRAMS['gm_nested_modes_table'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
def state(tag):
    y = x * 2
    print(tag, torch.is_grad_enabled(), torch.is_inference_mode_enabled(), y.requires_grad, y.is_inference())
state('top')
with torch.no_grad():
    state('no_grad')
    with torch.enable_grad():
        state('no_grad/enable')
        with torch.inference_mode():
            state('no_grad/enable/inference')
            with torch.inference_mode(False):
                state('no_grad/enable/inference/inference(False)')
        with torch.set_grad_enabled(False):
            state('no_grad/enable/set(False)')
    state('no_grad again')
with torch.inference_mode():
    with torch.enable_grad():
        state('inference/enable')
state('end')
'''

PROGRAMS['gm_decorators_on_methods_and_generators'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
class M:
    @torch.no_grad()
    def f(self, t):
        return t * 2
    @torch.enable_grad()
    def g(self, t):
        return t * 3
    @torch.inference_mode()
    def h(self, t):
        return t * 4
m = M()
print(m.f(x).requires_grad)
with torch.no_grad():
    print(m.g(x).requires_grad)
r = m.h(x)
print(r.requires_grad, r.is_inference())
@torch.no_grad()
def gen():
    for i in range(2):
        yield torch.is_grad_enabled(), (x * i).requires_grad
for item in gen():
    print(item, torch.is_grad_enabled())
@torch.no_grad
def bare(t):
    return (t * 2).requires_grad
print(bare(x))
print(torch.no_grad.__name__ if hasattr(torch.no_grad, '__name__') else '?')
'''

PROGRAMS['gm_inference_tensor_errors'] = PRE + r'''
with torch.inference_mode():
    a = torch.ones(3)
    b = a * 2
print(a.is_inference(), b.is_inference(), a.requires_grad)
E(lambda: a.requires_grad_())
x = torch.ones(3, requires_grad=True)
E(lambda: (a * x).sum().backward())
print(x.grad)
E(lambda: a.add_(1))
with torch.inference_mode():
    a.add_(1)
print(a)
E(lambda: a.view(3, 1))
c = a.clone()
print(c.is_inference(), c.requires_grad_().requires_grad)
E(lambda: torch.nn.Parameter(a))
E(lambda: a.detach().requires_grad_())
w = torch.ones(3, requires_grad=True)
def bad():
    y = w * 1
    with torch.inference_mode():
        y.add_(1)
E(bad)
'''

PROGRAMS['gm_inference_mode_save_for_backward'] = PRE + r'''
with torch.inference_mode():
    a = torch.tensor([1., 2., 3.])
x = torch.tensor([1., 1., 1.], requires_grad=True)
E(lambda: x * a)
E(lambda: (a * x).grad_fn)
y = x * a[0].item()
print(y.grad_fn)
E(lambda: y.sum().backward())
print(x.grad)
E(lambda: x.exp() * a)
E(lambda: torch.mul(x, a).sum().backward())
E(lambda: (x + a).sum().backward())
print(x.grad)
'''

PROGRAMS['gm_no_grad_inplace_on_leaf'] = PRE + r'''
w = torch.tensor([1., 2., 3.], requires_grad=True)
E(lambda: w.add_(1))
E(lambda: w.mul_(2))
E(lambda: w.zero_())
def slice_assign():
    w[0] = 5
E(slice_assign)
with torch.no_grad():
    w.add_(1)
    w[0] = 5
print(w, w._version, w.is_leaf, w.requires_grad, w.grad_fn)
v = w.view(3)
E(lambda: v.add_(1))
with torch.no_grad():
    u = w[1:]
print(u.requires_grad, u._base is w)
E(lambda: u.add_(1))
w.data.mul_(2)
print(w, w._version)
'''

PROGRAMS['gm_set_grad_enabled_in_function_forward'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        print('in forward', torch.is_grad_enabled())
        with torch.enable_grad():
            y = x * 2
            print('inner', y.requires_grad, y.grad_fn)
        return y.detach()
    @staticmethod
    def backward(ctx, g):
        print('in backward', torch.is_grad_enabled())
        return g * 2
x = torch.ones(2, requires_grad=True)
o = F.apply(x)
print(o.grad_fn)
o.sum().backward()
print(x.grad)
o = F.apply(x)
o.sum().backward(create_graph=True)
print(x.grad)
'''

# ---- hooks

PROGRAMS['hk_tensor_hook_replaces_grad_leaf'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
h1 = x.register_hook(lambda g: g * 2)
h2 = x.register_hook(lambda g: print('second sees', g))
(x * x).sum().backward()
print(x.grad)
h1.remove()
h1.remove()
x.grad = None
(x * x).sum().backward()
print(x.grad)
E(lambda: x.register_hook(lambda g: g[:1]))
def bad(g):
    return g[:2]
x.register_hook(bad)
E(lambda: (x * 1).sum().backward())
'''

PROGRAMS['hk_hook_wrong_dtype_and_type'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
y = x * 2
y.register_hook(lambda g: g.double())
E(lambda: y.sum().backward())
print(x.grad)
x2 = torch.ones(2, requires_grad=True)
y2 = x2 * 2
y2.register_hook(lambda g: 3)
E(lambda: y2.sum().backward())
x3 = torch.ones(2, requires_grad=True)
y3 = x3 * 2
y3.register_hook(lambda g: g.long())
E(lambda: y3.sum().backward())
print(x3.grad)
'''

PROGRAMS['hk_post_accumulate_grad_hook'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
def post(t):
    print('post', t.grad, t is x)
    with torch.no_grad():
        t.grad.mul_(10)
h = x.register_post_accumulate_grad_hook(post)
x.register_hook(lambda g: print('pre', g))
(x * 3).sum().backward()
print(x.grad)
(x * 3).sum().backward()
print(x.grad)
h.remove()
(x * 3).sum().backward()
print(x.grad)
y = x * 2
E(lambda: y.register_post_accumulate_grad_hook(post))
z = torch.ones(2)
E(lambda: z.register_post_accumulate_grad_hook(post))
E(lambda: z.register_hook(lambda g: g))
'''

PROGRAMS['hk_node_pre_post_hooks'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
z = y.sum()
def pre(grad_outputs):
    print('pre', grad_outputs)
    return (grad_outputs[0] * 2,)
def post(grad_inputs, grad_outputs):
    print('post', grad_inputs, grad_outputs)
    return (grad_inputs[0] + 1,)
h1 = y.grad_fn.register_prehook(pre)
h2 = y.grad_fn.register_hook(post)
z.backward(retain_graph=True)
print(x.grad)
h1.remove()
x.grad = None
z.backward(retain_graph=True)
print(x.grad)
h2.remove()
x.grad = None
z.backward()
print(x.grad)
'''

PROGRAMS['hk_node_hook_wrong_returns'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.grad_fn.register_prehook(lambda go: (go[0], go[0]))
E(lambda: y.sum().backward(retain_graph=True))
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.grad_fn.register_hook(lambda gi, go: gi[0])
E(lambda: y.sum().backward())
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.grad_fn.register_hook(lambda gi, go: (gi[0], gi[0]))
E(lambda: y.sum().backward())
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.grad_fn.register_prehook(lambda go: None)
y.grad_fn.register_hook(lambda gi, go: None)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['hk_accumulate_grad_node_hooks'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
acc = y.grad_fn.next_functions[0][0]
print(acc, acc.name(), acc.next_functions, acc.variable is x)
acc.register_prehook(lambda go: print('acc pre', go))
acc.register_hook(lambda gi, go: print('acc post', gi, go))
y.sum().backward()
print(x.grad)
print(acc._forward_hooks if hasattr(acc, '_forward_hooks') else '', len(acc.metadata))
'''

PROGRAMS['hk_retain_grad_then_hook_order'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.register_hook(lambda g: g * 100)
y.retain_grad()
y.register_hook(lambda g: g + 1)
y.sum().backward()
print(y.grad, x.grad)
a = torch.tensor([1., 2.], requires_grad=True)
b = a * 2
b.retain_grad()
b.retain_grad()
b.register_hook(lambda g: g * 100)
b.sum().backward()
print(b.grad, a.grad)
a.retain_grad()
print(a.retains_grad)
'''

PROGRAMS['hk_hook_on_view_and_base'] = PRE + r'''
x = torch.ones(4, requires_grad=True)
y = x * 2
v = y[:2]
v.register_hook(lambda g: print('view hook', g))
y.register_hook(lambda g: print('base hook', g))
(v * 3).sum().backward(retain_graph=True)
print(x.grad)
v.mul_(5)
print(v.grad_fn, y.grad_fn)
y.sum().backward()
print(x.grad)
'''

# ---- custom Functions

PROGRAMS['fn_save_output_and_intermediate'] = PRE + r'''
class SinCos(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        s = x.sin()
        c = x.cos()
        ctx.save_for_backward(x, s, c)
        return s * c
    @staticmethod
    def backward(ctx, g):
        x, s, c = ctx.saved_tensors
        print('saved', [t.requires_grad for t in ctx.saved_tensors], [t.grad_fn for t in ctx.saved_tensors])
        return g * (c * c - s * s)
x = torch.tensor([0.1, 0.7], dtype=torch.float64, requires_grad=True)
y = SinCos.apply(x)
print(y.grad_fn.saved_tensors[0] is x, len(y.grad_fn.saved_tensors))
y.sum().backward()
print(x.grad, torch.cos(2 * x.detach()))
print(torch.autograd.gradcheck(SinCos.apply, (x,)))
torch.manual_seed(0)
E(lambda: torch.autograd.gradgradcheck(SinCos.apply, (x,)))
'''

PROGRAMS['fn_mark_dirty_inplace'] = PRE + r'''
class AddOneInplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
a = torch.ones(3, requires_grad=True)
E(lambda: AddOneInplace.apply(a))
b = a * 2
print(b._version)
c = AddOneInplace.apply(b)
print(c is b, b._version, b.grad_fn, c.grad_fn)
c.sum().backward()
print(a.grad)
class Forgot(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
d = a * 2
E(lambda: Forgot.apply(d))
'''

PROGRAMS['fn_mark_non_differentiable_sort'] = PRE + r'''
class SortF(torch.autograd.Function):
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
        out = torch.zeros_like(gv)
        out.index_add_(0, i, gv)
        return out
x = torch.tensor([3., 1., 2.], requires_grad=True)
v, i = SortF.apply(x)
print(v.requires_grad, i.requires_grad, v.grad_fn, i.grad_fn, i.dtype)
(v * torch.tensor([1., 10., 100.])).sum().backward()
print(x.grad)
'''

PROGRAMS['fn_set_materialize_grads_false'] = PRE + r'''
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, mat):
        ctx.set_materialize_grads(mat)
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, g1, g2):
        print('grads', g1, g2)
        r = 0
        if g1 is not None:
            r = r + g1 * 2
        if g2 is not None:
            r = r + g2 * 3
        return r, None
x = torch.ones(2, requires_grad=True)
a, b = Two.apply(x, True)
a.sum().backward()
print(x.grad)
x.grad = None
a, b = Two.apply(x, False)
a.sum().backward()
print(x.grad)
x.grad = None
a, b = Two.apply(x, False)
b.sum().backward()
print(x.grad)
'''

PROGRAMS['fn_once_differentiable_double_backward'] = PRE + r'''
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
        print('backward grad mode', torch.is_grad_enabled(), g.requires_grad)
        return 2 * x * g
x = torch.tensor([1., 3.], requires_grad=True)
y = Sq.apply(x)
gx, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(gx, gx.requires_grad, gx.grad_fn)
E(lambda: gx.sum().backward())
y = Sq.apply(x)
gx, = torch.autograd.grad(y.sum(), x)
print(gx, gx.requires_grad)
'''

PROGRAMS['fn_wrong_number_of_grads'] = PRE + r'''
class TooMany(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2, g
class TooFew(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x * y
    @staticmethod
    def backward(ctx, g):
        return g
class TooManyNone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2, None, None
x = torch.ones(2, requires_grad=True)
E(lambda: TooMany.apply(x).sum().backward())
E(lambda: TooFew.apply(x, x).sum().backward())
E(lambda: TooManyNone.apply(x).sum().backward())
print(x.grad)
class WrongShape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.sum()
    @staticmethod
    def backward(ctx, g):
        return g.expand(3)
E(lambda: WrongShape.apply(x).backward())
class WrongType(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.sum()
    @staticmethod
    def backward(ctx, g):
        return 'nope'
E(lambda: WrongType.apply(x).backward())
class ReturnsList(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.sum()
    @staticmethod
    def backward(ctx, g):
        return [g.expand(2)]
E(lambda: ReturnsList.apply(x).backward())
print(x.grad)
'''

PROGRAMS['fn_apply_kwargs_and_direct_call'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale=2.0):
        return x * scale
    @staticmethod
    def backward(ctx, g):
        return g * 2.0, None
x = torch.ones(2, requires_grad=True)
E(lambda: F.apply(x, scale=3.0))
E(lambda: F.apply(x=x))
print(F.apply(x))
E(lambda: F(x))
E(lambda: F()(x))
E(lambda: F.forward(None, x))
E(lambda: F.apply())
'''

# fixed: setup_context runs once more per torch.func level (as PyTorch's generated Functions call it)
PROGRAMS['fn_setup_context_style'] = PRE + r'''
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(x, k):
        return x ** 3 * k
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, k = inputs
        print('setup', type(inputs).__name__, len(inputs), output.requires_grad, torch.is_grad_enabled())
        ctx.save_for_backward(x)
        ctx.k = k
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x ** 2 * g * ctx.k, None
x = torch.tensor([1., 2.], requires_grad=True)
y = Cube.apply(x, 0.5)
print(y, y.grad_fn)
y.sum().backward()
print(x.grad)
g = torch.func.grad(lambda t: Cube.apply(t, 2.0).sum())(x.detach())
print(g)
print(torch.func.grad(torch.func.grad(lambda t: Cube.apply(t, 1.0).sum()))(torch.tensor(2.0)))
o, vjp_fn = torch.func.vjp(lambda t: Cube.apply(t, 1.0), x.detach())
print(vjp_fn(torch.ones(2)))
'''

PROGRAMS['fn_vjp_alias_and_jvp'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def vjp(ctx, g):
        print('vjp called')
        return g * 2
    @staticmethod
    def jvp(ctx, t):
        print('jvp called')
        return t * 2
x = torch.tensor([1., 2.], requires_grad=True)
Double.apply(x).sum().backward()
print(x.grad)
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 0.]))
    o = Double.apply(d)
    print(fwAD.unpack_dual(o).tangent)
class NoJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 0.]))
    E(lambda: NoJvp.apply(d))
class Both(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
    @staticmethod
    def vjp(ctx, g):
        return g
E(lambda: Both.apply(torch.ones(1, requires_grad=True)))
'''

PROGRAMS['fn_non_tensor_outputs_and_inputs'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, n, s, lst):
        ctx.n = n
        return x * n, n + 1, s.upper(), x.sum()
    @staticmethod
    def backward(ctx, g, gn, gs, gsum):
        print('bw', gn, gs, gsum)
        return g * ctx.n + gsum, None, None, None
x = torch.ones(2, requires_grad=True)
a, n, s, t = F.apply(x, 3, 'abc', [1, 2])
print(a, n, s, t, type(n).__name__)
(a.sum() + t).backward()
print(x.grad)
'''

PROGRAMS['fn_return_input_unchanged'] = PRE + r'''
class Ident(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x
    @staticmethod
    def backward(ctx, g):
        print('ident backward')
        return g * 2
x = torch.ones(2, requires_grad=True)
y = Ident.apply(x)
print(y is x, y.grad_fn, y.is_leaf, y._base is x)
y.sum().backward()
print(x.grad)
class ViewOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view(2, 1)
    @staticmethod
    def backward(ctx, g):
        return g.view(2)
x2 = torch.ones(2, requires_grad=True)
v = ViewOut.apply(x2 * 1)
print(v.grad_fn, v._is_view())
E(lambda: v.add_(1))
print(v.grad_fn)
'''

PROGRAMS['fn_saved_tensor_modified_error'] = PRE + r'''
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
a = torch.ones(2, requires_grad=True)
b = a * 1
y = Sq.apply(b)
b.add_(1)
E(lambda: y.sum().backward())
class SaveNonTensor(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, None)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        x, n = ctx.saved_tensors
        print('saved', n)
        return g * 2
SaveNonTensor.apply(a).sum().backward()
print(a.grad)
class SaveInt(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, 3)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
E(lambda: SaveInt.apply(a))
'''

# ---- torch.autograd.functional

PROGRAMS['af_jacobian_tuple_inputs_outputs'] = PRE + r'''
from torch.autograd.functional import jacobian
def f(a, b):
    return a * b, (a ** 2).sum() + b[0]
a = torch.tensor([1., 2.], dtype=torch.float64)
b = torch.tensor([3., 4.], dtype=torch.float64)
J = jacobian(f, (a, b))
print(type(J).__name__, len(J), type(J[0]).__name__, len(J[0]))
for i in range(2):
    for j in range(2):
        print(i, j, J[i][j])
Jv = jacobian(f, (a, b), vectorize=True)
print(all(torch.equal(Jv[i][j], J[i][j]) for i in range(2) for j in range(2)))
Jf = jacobian(f, (a, b), vectorize=True, strategy='forward-mode')
print(all(torch.allclose(Jf[i][j], J[i][j]) for i in range(2) for j in range(2)))
E(lambda: jacobian(f, (a, b), strategy='forward-mode'))
E(lambda: jacobian(f, (a, b), strategy='sideways'))
print(jacobian(lambda x: x.sum(), a))
print(jacobian(lambda x: x, torch.tensor(2.)))
'''

PROGRAMS['af_jacobian_strict_and_create_graph'] = PRE + r'''
from torch.autograd.functional import jacobian
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: jacobian(lambda t: torch.ones(2), x, strict=True))
print(jacobian(lambda t: torch.ones(2), x))
E(lambda: jacobian(lambda t: t.detach() * 2, x, strict=True))
print(jacobian(lambda t: t.detach() * 2, x))
J = jacobian(lambda t: t ** 3, x, create_graph=True)
print(J, J.requires_grad)
J.trace().backward()
print(x.grad)
E(lambda: jacobian(lambda t: t ** 2, x, strict=True, vectorize=True))
E(lambda: jacobian(lambda t: t ** 2, x, strict=True, create_graph=True))
E(lambda: jacobian(lambda t: [t], x))
E(lambda: jacobian(lambda t: 3, x))
'''

PROGRAMS['af_hessian_variants'] = PRE + r'''
from torch.autograd.functional import hessian
def f(x):
    return (x ** 3).sum() + x[0] * x[1]
x = torch.tensor([1., 2.], dtype=torch.float64)
print(hessian(f, x))
print(hessian(f, x, vectorize=True))
print(hessian(f, x, vectorize=True, outer_jacobian_strategy='forward-mode'))
def g(a, b):
    return (a * b).sum() + (a ** 2).sum()
H = hessian(g, (torch.tensor([1., 2.]), torch.tensor([3., 4.])))
for i in range(2):
    for j in range(2):
        print(i, j, H[i][j])
E(lambda: hessian(lambda t: t ** 2, x))
E(lambda: hessian(lambda t: (t ** 2).sum(), x, outer_jacobian_strategy='forward-mode'))
print(hessian(lambda t: (t * 2).sum(), x))
E(lambda: hessian(lambda t: (t * 2).sum(), x, strict=True))
'''

PROGRAMS['af_vjp_jvp_hvp_vhp'] = PRE + r'''
from torch.autograd.functional import vjp, jvp, hvp, vhp
def f(x):
    return x ** 2 + x.sum()
x = torch.tensor([1., 2., 3.])
v = torch.tensor([1., 0., 1.])
out, g = vjp(f, x, v)
print(out, g)
out, t = jvp(f, x, v)
print(out, t)
def s(x):
    return (x ** 3).sum()
print(hvp(s, x, v))
print(vhp(s, x, v))
E(lambda: vjp(f, x))
print(vjp(s, x))
print(jvp(s, x, v))
E(lambda: jvp(f, x))
E(lambda: vjp(f, x, torch.ones(2)))
E(lambda: hvp(f, x, v))
out, g = vjp(f, x, v, create_graph=True)
print(out.requires_grad, g.requires_grad)
'''

PROGRAMS['af_functional_tuple_and_strict'] = PRE + r'''
from torch.autograd.functional import vjp, jvp, vhp
def f(a, b):
    return a * b
a = torch.tensor([1., 2.])
b = torch.tensor([3., 4.])
print(vjp(f, (a, b), torch.ones(2)))
print(jvp(f, (a, b), (torch.ones(2), torch.zeros(2))))
E(lambda: jvp(f, (a, b), torch.ones(2)))
E(lambda: vjp(lambda x: torch.zeros(2), a, torch.ones(2), strict=True))
print(vjp(lambda x: torch.zeros(2), a, torch.ones(2)))
E(lambda: jvp(lambda x: torch.zeros(2), a, torch.ones(2), strict=True))
print(jvp(lambda x: torch.zeros(2), a, torch.ones(2)))
E(lambda: vhp(lambda x: x.sum(), a, torch.ones(2), strict=True))
print(vhp(lambda x: x.sum(), a, torch.ones(2)))
'''

# ---- gradcheck / gradgradcheck

PROGRAMS['gc_gradcheck_float32_warning_and_fail'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: W(lambda: torch.autograd.gradcheck(torch.sin, (x,))))
print(W(lambda: torch.autograd.gradcheck(torch.sin, (x,), raise_exception=False)))
xd = x.double().detach().requires_grad_()
print(torch.autograd.gradcheck(torch.sin, (xd,)))
print(torch.autograd.gradcheck(torch.sin, xd, eps=1e-4, atol=1e-3))
print(torch.autograd.gradcheck(lambda t: t * 2, (xd,), fast_mode=True))
E(lambda: torch.autograd.gradcheck(torch.sin, (torch.ones(2, dtype=torch.float64),)))
'''

PROGRAMS['gc_gradcheck_wrong_backward_message'] = PRE + r'''
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x
x = torch.tensor([1., 2., 3.], dtype=torch.float64, requires_grad=True)
E(lambda: torch.autograd.gradcheck(Bad.apply, (x,)))
print(torch.autograd.gradcheck(Bad.apply, (x,), raise_exception=False))
E(lambda: torch.autograd.gradcheck(Bad.apply, (x,), atol=10, rtol=10))
E(lambda: torch.autograd.gradcheck(Bad.apply, (x,), fast_mode=True))
'''

PROGRAMS['gc_gradcheck_multiple_inputs_outputs'] = PRE + r'''
def f(a, b, k):
    return a * b * k, (a + b).sum()
a = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
b = torch.tensor([3., 4.], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(f, (a, b, 3.0)))
print(torch.autograd.gradcheck(f, (a, b.detach(), 2)))
print(torch.autograd.gradgradcheck(f, (a, b, 3.0)))
class Wrong2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a * b
    @staticmethod
    def backward(ctx, g):
        return g, g
E(lambda: torch.autograd.gradcheck(Wrong2.apply, (a, b)))
E(lambda: torch.autograd.gradcheck(lambda t: t.detach() * 2, (a,)))
'''

PROGRAMS['gc_gradcheck_nondet_and_complex'] = PRE + r'''
z = torch.tensor([1 + 1j, 2 - 1j], dtype=torch.complex128, requires_grad=True)
print(torch.autograd.gradcheck(lambda t: (t * t.conj()).real, (z,)))
print(torch.autograd.gradcheck(lambda t: t.abs(), (z,)))
print(torch.autograd.gradcheck(lambda t: t * 2, (z,)))
class BadC(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: torch.autograd.gradcheck(BadC.apply, (z,)))
'''

# ---- anomaly mode

PROGRAMS['an_detect_anomaly_nan_backward'] = PRE + r'''
x = torch.tensor([0., 1.], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = W(lambda: x.sqrt())
    z = y * 0
    E(lambda: W(lambda: (x.sqrt() * torch.tensor([0., 1.])).sum().backward()))
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
with torch.autograd.set_detect_anomaly(True, check_nan=False):
    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    (x.sqrt() * torch.tensor([0., 1.])).sum().backward()
print(x.grad)
'''

PROGRAMS['an_anomaly_custom_function_nan'] = PRE + r'''
class NanGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        return g * float('nan')
x = torch.ones(2, requires_grad=True)
with torch.autograd.detect_anomaly(check_nan=True):
    out = NanGrad.apply(x)
    E(lambda: out.sum().backward())
with torch.autograd.detect_anomaly(check_nan=False):
    out = NanGrad.apply(x)
    out.sum().backward()
print(x.grad)
'''

PROGRAMS['an_anomaly_metadata_and_second_backward'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
with torch.autograd.detect_anomaly():
    y = W(lambda: x * 2)
    print('traceback_' in y.grad_fn.metadata, sorted(y.grad_fn.metadata))
    y.sum().backward()
    E(lambda: y.sum().backward())
y = x * 2
print(y.grad_fn.metadata)
'''

# ---- torch.autograd.graph

PROGRAMS['gr_saved_tensors_hooks_pack_unpack'] = PRE + r'''
log = []
def pack(t):
    log.append(('pack', tuple(t.shape), t.requires_grad))
    return t.detach().clone()
def unpack(t):
    log.append(('unpack', tuple(t.shape)))
    return t
x = torch.tensor([1., 2., 3.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = x.exp()
    z = (y * x).sum()
for e in log:
    print(e)
log.clear()
z.backward()
for e in log:
    print(e)
print(x.grad)
E(lambda: y.grad_fn._saved_result)
'''

PROGRAMS['gr_saved_tensors_hooks_nested_and_disable'] = PRE + r'''
def outer_pack(t):
    print('outer pack', t.shape)
    return t
def inner_pack(t):
    print('inner pack', t.shape)
    return t
x = torch.ones(2, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(outer_pack, lambda t: t):
    a = x * x
    with torch.autograd.graph.saved_tensors_hooks(inner_pack, lambda t: t):
        b = x.sin()
    c = x.cos()
with torch.autograd.graph.disable_saved_tensors_hooks('no hooks here'):
    d = x * x
    def try_hooks():
        with torch.autograd.graph.saved_tensors_hooks(outer_pack, lambda t: t):
            pass
    E(try_hooks)
(a + b + c + d).sum().backward()
print(x.grad)
'''

PROGRAMS['gr_save_on_cpu_and_pack_errors'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.graph.save_on_cpu(pin_memory=False):
    y = (x * x).exp()
y.sum().backward()
print(x.grad)
def bad_pack(t):
    return t
def bad_unpack(t):
    return 3
with torch.autograd.graph.saved_tensors_hooks(bad_pack, bad_unpack):
    z = x.exp()
E(lambda: z.sum().backward())
def inplace_pack(t):
    t.add_(1)
    return t
with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 1, lambda t: t):
    w = x.exp()
print(w.grad_fn._saved_result)
'''

PROGRAMS['gr_register_multi_grad_hook_all_any'] = PRE + r'''
from torch.autograd.graph import register_multi_grad_hook
a = torch.ones(2, requires_grad=True)
b = torch.ones(3, requires_grad=True)
def all_hook(grads):
    print('all', [None if g is None else g.tolist() for g in grads])
h = register_multi_grad_hook((a, b), all_hook)
(a * 2).sum().backward()
(a.sum() + (b * 3).sum()).backward()
h.remove()
def any_hook(g):
    print('any', g)
h2 = register_multi_grad_hook((a, b), any_hook, mode='any')
(a.sum() + (b * 3).sum()).backward()
(b * 5).sum().backward()
h2.remove()
E(lambda: register_multi_grad_hook((a, b), any_hook, mode='some'))
'''

PROGRAMS['gr_allow_mutation_on_saved'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
with torch.autograd.graph.allow_mutation_on_saved_tensors():
    y = x * 1
    z = y.exp()
    y.mul_(10)
    z.sum().backward()
print(x.grad, y)
x.grad = None
with torch.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
    a = x.clone()
    b = a * a
    a.zero_()
    b.sum().backward()
print(x.grad, type(ctx).__name__)
'''

PROGRAMS['gr_increment_version_and_gradient_edge'] = PRE + r'''
from torch.autograd.graph import increment_version, get_gradient_edge
x = torch.ones(2, requires_grad=True)
y = x * 2
z = y.exp()
print(y._version)
increment_version(y)
print(y._version)
E(lambda: z.sum().backward())
y2 = x * 3
e = get_gradient_edge(y2)
print(e.node, e.output_nr)
out = (y2 ** 2).sum()
print(torch.autograd.grad(out, e))
ex = get_gradient_edge(x)
print(ex.node, ex.output_nr)
E(lambda: get_gradient_edge(torch.ones(2)))
'''

# ---- checkpoint

PROGRAMS['ck_checkpoint_counts_forward_calls'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
calls = []
def block(a, b):
    calls.append(torch.is_grad_enabled())
    return (a * b).sin()
x = torch.tensor([0.5, 1.0], requires_grad=True)
w = torch.tensor([2.0, 3.0], requires_grad=True)
for reentrant in (True, False):
    calls.clear()
    x.grad = None
    w.grad = None
    y = checkpoint(block, x, w, use_reentrant=reentrant)
    print(reentrant, y.grad_fn.name(), calls)
    y.sum().backward()
    print(calls, x.grad, w.grad)
'''

PROGRAMS['ck_checkpoint_kwargs_and_errors'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
def f(a, scale=1.0):
    return a * scale
x = torch.ones(2, requires_grad=True)
y = checkpoint(f, x, scale=3.0, use_reentrant=False)
y.sum().backward()
print(x.grad)
E(lambda: checkpoint(f, x, scale=3.0, use_reentrant=True))
E(lambda: checkpoint(f, x))
y = checkpoint(f, x, use_reentrant=True)
E(lambda: torch.autograd.grad(y.sum(), x))
y = checkpoint(f, x, use_reentrant=False)
print(torch.autograd.grad(y.sum(), x))
'''

PROGRAMS['ck_checkpoint_sequential_model'] = PRE + r'''
from torch.utils.checkpoint import checkpoint_sequential
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
x = torch.randn(5, 3, requires_grad=True)
out = checkpoint_sequential(model, 2, x, use_reentrant=False)
out.sum().backward()
print(out.detach().flatten())
print(model[0].weight.grad)
g1 = x.grad.clone()
x.grad = None
model.zero_grad()
model(x).sum().backward()
print(torch.allclose(g1, x.grad))
'''

# ---- small training loops

PROGRAMS['tr_linear_regression_sgd_float64'] = PRE + r'''
torch.manual_seed(0)
X = torch.randn(20, 2, dtype=torch.float64)
true_w = torch.tensor([[2.0], [-3.0]], dtype=torch.float64)
Y = X @ true_w + 0.5
w = torch.zeros(2, 1, dtype=torch.float64, requires_grad=True)
b = torch.zeros(1, dtype=torch.float64, requires_grad=True)
for epoch in range(50):
    loss = ((X @ w + b - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        b -= 0.1 * b.grad
    w.grad.zero_()
    b.grad.zero_()
    if epoch % 10 == 0:
        print(epoch, f'{loss.item():.10f}')
print(w.flatten(), b)
'''

PROGRAMS['tr_logistic_regression_optim'] = PRE + r'''
torch.manual_seed(1)
X = torch.randn(30, 3)
y = (X[:, 0] + X[:, 1] > 0).float()
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
lossf = torch.nn.BCEWithLogitsLoss()
for step in range(20):
    opt.zero_grad()
    logits = model(X).squeeze(1)
    loss = lossf(logits, y)
    loss.backward()
    opt.step()
    if step % 5 == 4:
        acc = ((logits > 0).float() == y).float().mean()
        print(step, round(loss.item(), 5), acc.item())
print(model.weight.data, model.bias.data)
'''

PROGRAMS['tr_manual_two_layer_numpy_style'] = PRE + r'''
torch.manual_seed(2)
N, D_in, H, D_out = 8, 5, 6, 2
x = torch.randn(N, D_in)
y = torch.randn(N, D_out)
w1 = torch.randn(D_in, H, requires_grad=True)
w2 = torch.randn(H, D_out, requires_grad=True)
lr = 1e-3
for t in range(40):
    y_pred = x.mm(w1).clamp(min=0).mm(w2)
    loss = (y_pred - y).pow(2).sum()
    if t % 10 == 9:
        print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        w1 -= lr * w1.grad
        w2 -= lr * w2.grad
        w1.grad.zero_()
        w2.grad.zero_()
print(y_pred.grad_fn, y_pred.grad_fn.next_functions)
'''

# ---- internals: what each node saves, repr of tensors with history, leaf/non-leaf rules

PROGRAMS['in_saved_attribute_dump_many_ops'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
m = torch.randn(3, 2, dtype=torch.float64, requires_grad=True)
outs = {
    'max_dim': x.max(1)[0], 'max': x.max(), 'softmax': x.softmax(1), 'log_softmax': x.log_softmax(0),
    'cat': torch.cat([x, x], 1), 'stack': torch.stack([x, x], 2), 'mean_dim': x.mean((0, 1), keepdim=True),
    'sum_dim': x.sum(-1), 'expand': x[:1].expand(4, 3), 'permute': x.unsqueeze(0).permute(2, 0, 1),
    'transpose': x.transpose(0, 1), 'norm': x.norm(3), 'clamp': x.clamp(-0.5, 0.5), 'clamp_min': x.clamp(min=0),
    'pow_int': x.pow(2), 'pow_float': x.pow(2.5), 'addmm': torch.addmm(torch.zeros(2, 2, dtype=torch.float64), x, m, beta=0.5, alpha=2),
    'mm': x.mm(m), 'select': x[1], 'slice': x[:, 1:3:2], 'squeeze': x.unsqueeze(1).squeeze(1), 'index': x[torch.tensor([1, 0])],
    'gather': x.gather(1, torch.tensor([[0], [2]])), 'where': torch.where(x > 0, x, 0.0), 'masked_fill': x.masked_fill(x > 0, 1.0),
    'var': x.var(1), 'std': x.std(correction=0), 'prod': x.prod(1), 'cumsum': x.cumsum(1), 'flip': x.flip(0),
    'repeat': x.repeat(2, 1), 'view': x.view(3, 2), 'reshape': x.t().reshape(6), 'narrow': x.narrow(1, 1, 2),
    'topk': x.flatten().topk(2)[0], 'sort': x.sort(1)[0], 'tanh': x.tanh(), 'sigmoid': x.sigmoid(), 'relu': x.relu(),
    'leaky': torch.nn.functional.leaky_relu(x, 0.2), 'elu': torch.nn.functional.elu(x), 'abs': x.abs(), 'sign_mul': x.sign() * x,
    'lerp': torch.lerp(x, x * 2, 0.3), 'addcmul': torch.addcmul(x, x, x, value=0.5), 'dist': torch.dist(x, x * 2, 1.5),
    'logsumexp': x.logsumexp(1), 'amax': x.amax(0), 'min_other': torch.minimum(x, x.flip(1)), 'atan2': torch.atan2(x, x.flip(0)),
}
for k, o in outs.items():
    fn = o.grad_fn
    names = [n for n in dir(fn) if n.startswith('_saved_')]
    vals = []
    for n in names:
        try:
            v = getattr(fn, n)
        except Exception as e:
            v = type(e).__name__
        if isinstance(v, torch.Tensor):
            v = ('T', tuple(v.shape), v.dtype)
        vals.append((n, v))
    print(k, type(fn).__name__, vals)
'''

PROGRAMS['in_repr_with_grad_fn_dtypes'] = PRE + r'''
x = torch.tensor([1.5, -2.0], dtype=torch.float64, requires_grad=True)
print(x)
print(x * 2)
print((x * 2).sum())
print(x.float() * 2)
print(x.half() * 2)
print(x.to(torch.bfloat16) + 1)
print(x.to(torch.complex128) * 1j)
print((x.to(torch.complex64) * 1j).abs())
print(x[0], x[0] * 1)
print(torch.zeros(0, requires_grad=True) * 2)
print(torch.zeros(2, 0, dtype=torch.float64, requires_grad=True).sum(1))
print(torch.nn.Parameter(torch.ones(2)))
print(torch.nn.Parameter(torch.ones(2, dtype=torch.float64)) * 3)
p = torch.nn.Parameter(torch.ones(1), requires_grad=False)
print(p, p.requires_grad)
'''

PROGRAMS['in_requires_grad_rules_non_leaf'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
y = x * 2
E(lambda: y.requires_grad_(False))
print(y.requires_grad_(True) is y)
def setattr_rg():
    y.requires_grad = False
E(setattr_rg)
z = torch.ones(2)
z.requires_grad = True
print(z.requires_grad, z.is_leaf)
i = torch.ones(2, dtype=torch.int32)
def set_int():
    i.requires_grad = True
E(set_int)
i.requires_grad = False
print(i.requires_grad)
E(lambda: torch.zeros(2, dtype=torch.bool).requires_grad_())
print(torch.zeros(2, dtype=torch.complex64).requires_grad_().requires_grad)
'''

PROGRAMS['in_grad_assignment_errors'] = PRE + r'''
x = torch.ones(2, 3, requires_grad=True)
def assign(g):
    x.grad = g
E(lambda: assign(torch.ones(3, 2)))
E(lambda: assign(torch.ones(2, 3, dtype=torch.float64)))
E(lambda: assign(torch.ones(2, 3, dtype=torch.int64)))
E(lambda: assign([1, 2]))
E(lambda: assign(torch.ones(6)))
assign(torch.full((2, 3), 4.))
print(x.grad)
(x * 1).sum().backward()
print(x.grad)
y = x * 2
W(lambda: print(y.grad))
def assign_y():
    y.grad = torch.ones(2, 3)
W(assign_y)
print(y.grad)
'''

# fixed: accumulating into a .grad of another shape (after x.data was replaced) raised NumPy's ValueError
PROGRAMS['in_data_attribute_semantics'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
d = x.data
print(d.requires_grad, d.is_leaf, d._version, x._version)
d.mul_(3)
print(x, x._version, d._version)
y = x * x
x.data = torch.tensor([5., 6.])
print(x, x.requires_grad, x._version)
y.sum().backward()
print(x.grad)
def bad_data():
    x.data = torch.tensor([1, 2])
E(bad_data)
print(x.dtype)
del y
x.data = torch.tensor([1., 2., 3.])
print(x.shape, x.grad.shape if x.grad is not None else None)
E(lambda: (x * 2).sum().backward())
print(x.grad)
x.grad = None
E(lambda: (x * 2).sum().backward())
print(x.grad)
x.data = torch.ones(2, 3)
E(lambda: (x * 2).sum().backward())
print(x.grad)
'''

PROGRAMS['in_backward_inputs_arg'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
c = a * b
d = (c * c).sum()
d.backward(inputs=[a], retain_graph=True)
print(a.grad, b.grad, c.grad)
d.backward(inputs=c, retain_graph=True)
print(a.grad, b.grad, c.grad, c.retains_grad)
d.backward(inputs=(a, b, c), retain_graph=True)
print(a.grad, b.grad, c.grad)
E(lambda: d.backward(inputs=[], retain_graph=True))
E(lambda: d.backward(inputs=[torch.ones(2)], retain_graph=True))
e = torch.ones(2, requires_grad=True)
E(lambda: d.backward(inputs=[e], retain_graph=True))
print(e.grad)
'''

PROGRAMS['in_complex_autograd'] = PRE + r'''
z = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
y = (z * z.conj()).real.sum()
y.backward()
print(z.grad)
w = z * (2 + 1j)
E(lambda: w.sum().backward())
E(lambda: w.abs().backward())
w.abs().sum().backward()
print(z.grad)
r = torch.tensor([1., 2.], requires_grad=True)
c = r * (1 + 1j)
print(c, c.grad_fn)
c.abs().sum().backward()
print(r.grad)
v = torch.view_as_real(z * 1)
print(v.grad_fn, v.shape)
v.sum().backward()
print(z.grad)
'''

PROGRAMS['in_half_and_bfloat_backward'] = PRE + r'''
x = torch.tensor([1., 2., 3.], dtype=torch.float16, requires_grad=True)
y = (x * x).sum()
print(y, y.dtype)
y.backward()
print(x.grad, x.grad.dtype)
b = torch.tensor([0.1, 0.2], dtype=torch.bfloat16, requires_grad=True)
(b.exp() * 3).sum().backward()
print(b.grad)
m = torch.tensor([1., 2.], requires_grad=True)
(m.half() * 2).sum().backward()
print(m.grad, m.grad.dtype)
'''

PROGRAMS['in_variable_legacy'] = PRE + r'''
from torch.autograd import Variable
v = Variable(torch.ones(2), requires_grad=True)
print(v, type(v).__name__, v.requires_grad, v.is_leaf)
w = Variable(torch.ones(2))
print(w.requires_grad)
(v * 3).sum().backward()
print(v.grad)
print(isinstance(v, torch.Tensor), isinstance(v, Variable))
print(isinstance(torch.ones(1), Variable))
E(lambda: Variable(torch.ones(2), volatile=True))
'''

PROGRAMS['in_node_api_surface'] = PRE + r'''
from torch.autograd.graph import Node
x = torch.ones(2, requires_grad=True)
y = (x * 2).exp()
fn = y.grad_fn
print(isinstance(fn, Node), fn.name(), type(fn).__name__)
print(fn.next_functions[0][0].name(), fn.next_functions[0][0].next_functions[0][0].name())
print(issubclass(type(fn), Node), isinstance(x, Node))
print(fn.metadata, type(fn.metadata).__name__)
fn.metadata['k'] = 1
print(y.grad_fn.metadata)
r = fn._raw_saved_result
print(type(r).__name__)
E(lambda: fn.nope)
E(lambda: fn())
'''

PROGRAMS['in_raw_saved_register_hooks'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.pow(3)
raw = y.grad_fn._raw_saved_self
def pack(t):
    print('pack', t)
    return t * 1
def unpack(t):
    print('unpack', t)
    return t
raw.register_hooks(pack, unpack)
print(y.grad_fn._saved_self)
y.sum().backward()
print(x.grad)
E(lambda: raw.register_hooks(pack, unpack))
z = x.pow(2)
E(lambda: z.grad_fn._raw_saved_self.register_hooks(pack))
E(lambda: z.grad_fn._raw_saved_self.register_hooks(1, 2))
'''

# ---- version counter errors, in many dtypes and shapes

PROGRAMS['vc_version_mismatch_messages_dtypes'] = PRE + r'''
for dt in [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.complex64, torch.complex128]:
    x = torch.ones(2, 3, dtype=dt, requires_grad=True)
    y = x.exp()
    z = y * 1
    y.add_(1)
    E(lambda: z.sum().abs().backward())
    y2 = x.exp()
    w = y2.exp()
    y2.mul_(2)
    E(lambda: w.sum().abs().backward())
'''

PROGRAMS['vc_version_mismatch_leaf_and_views'] = PRE + r'''
x = torch.tensor(2.0, requires_grad=True)
a = x.clone()
b = a * a
a.add_(1)
E(lambda: b.backward())
w = torch.ones(3, requires_grad=True)
v = w[1:]
m = w.detach()
y = w * w
with torch.no_grad():
    w.add_(1)
E(lambda: y.sum().backward())
t = torch.ones(2, 2, requires_grad=True)
tt = t.t()
p = tt.exp()
q = (tt * 2).t()
q.mul_(3)
E(lambda: p.sum().backward())
u = (t * 1).t()
r = u.sin()
u.add_(1)
E(lambda: r.sum().backward())
s = (t * 1)[0]
s2 = s.exp()
s.zero_()
E(lambda: s2.sum().backward())
'''

PROGRAMS['vc_version_mismatch_int_saved'] = PRE + r'''
x = torch.tensor([3., 1., 2.], requires_grad=True)
idx = torch.tensor([2, 0])
g = x.gather(0, idx)
idx.add_(1)
E(lambda: g.sum().backward())
print(x.grad)
y = x.sort()
vals, ind = y
ind.zero_()
E(lambda: vals.sum().backward())
print(x.grad)
m = torch.tensor([True, False, True])
mf = x.masked_fill(m, 0.)
m.logical_not_()
E(lambda: mf.sum().backward())
print(x.grad)
'''

PROGRAMS['vc_version_counter_sharing'] = PRE + r'''
x = torch.zeros(4)
v = x[1:3]
d = x.detach()
print(x._version, v._version, d._version)
v.add_(1)
print(x._version, v._version, d._version)
d.mul_(2)
print(x._version, v._version, d._version)
x[0] = 5
print(x._version, v._version, d._version)
x.data.add_(1)
print(x._version)
c = x.clone()
print(c._version)
y = torch.ones(3, requires_grad=True)
z = y * 2
z2 = z.view(3)
z2.sub_(1)
z.div_(2)
print(z._version, z2._version, z.grad_fn, z2.grad_fn)
z.sum().backward()
print(y.grad)
'''

# ---- graph freeing, retain_graph and multiple outputs

PROGRAMS['rg_shared_subgraph_freed'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
h = x.exp()
a = (h * 2).sum()
b = (h * 3).sum()
a.backward()
print(x.grad)
E(lambda: b.backward())
print(x.grad)
x.grad = None
h = x * x
a = (h + 1).sum()
b = (h * 3).sum()
a.backward()
E(lambda: b.backward())
print(x.grad)
x.grad = None
h = x.exp()
a = h.sum()
a.backward(retain_graph=True)
print(h.grad_fn._saved_result)
a.backward()
E(lambda: h.grad_fn._saved_result)
print(x.grad)
'''

PROGRAMS['rg_multi_output_node_partial'] = PRE + r'''
x = torch.tensor([[1., 5.], [3., 2.]], requires_grad=True)
vals, idx = x.max(1)
print(vals.grad_fn, idx.grad_fn, vals.grad_fn is not None and vals.grad_fn._saved_indices)
u, s, vh = torch.linalg.svd(torch.tensor([[2., 0.], [0., 1.]], requires_grad=True))
print(u.grad_fn, s.grad_fn is u.grad_fn, s.grad_fn.name())
a, b = x.chunk(2, 0)
print(a.grad_fn, b.grad_fn, a.grad_fn is b.grad_fn)
(a * 2).sum().backward(retain_graph=True)
print(x.grad)
(b * 3).sum().backward()
print(x.grad)
q, r = torch.linalg.qr(torch.tensor([[1., 2.], [3., 4.]], dtype=torch.float64, requires_grad=True))
print(q.grad_fn, q.grad_fn is r.grad_fn, sorted(n for n in dir(q.grad_fn) if n.startswith('_saved')))
'''

PROGRAMS['rg_higher_order_graph_print'] = PRE + r'''
x = torch.tensor(1.5, requires_grad=True)
y = x ** 3 + x.sin()
g1, = torch.autograd.grad(y, x, create_graph=True)
print(g1, g1.grad_fn, g1.grad_fn.next_functions)
g2, = torch.autograd.grad(g1, x, create_graph=True)
print(g2, g2.grad_fn)
g3, = torch.autograd.grad(g2, x)
print(g3, g3.requires_grad)
x2 = torch.tensor([1., 2.], requires_grad=True)
y2 = (x2 ** 2).sum()
y2.backward(create_graph=True)
print(x2.grad, x2.grad.grad_fn)
W(lambda: (x2.grad ** 2).sum().backward())
print(x2.grad)
'''

PROGRAMS['rg_grad_of_grad_none_paths'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * 3).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
print(g, g.requires_grad, g.grad_fn)
E(lambda: torch.autograd.grad(g.sum(), x))
E(lambda: torch.autograd.grad(g.sum(), x, allow_unused=True))
E(lambda: torch.autograd.grad(g.sum(), x, allow_unused=True, materialize_grads=True))
g, = torch.autograd.grad((x * x).sum(), x, create_graph=True)
print(torch.autograd.grad(g.sum(), [x, torch.ones(1, requires_grad=True)], allow_unused=True))
z = torch.tensor(2.0, requires_grad=True)
k = z.relu()
gk, = torch.autograd.grad(k, z, create_graph=True)
print(gk, gk.grad_fn, gk.requires_grad)
'''

PROGRAMS['in_grad_fn_names_less_common_ops'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
z = torch.randn(2, 2, dtype=torch.complex64, requires_grad=True)
v = torch.randn(4, requires_grad=True)
ops = {
    'mT': lambda: x.mT, 'H': lambda: z.H, 'mH': lambda: z.mH, 'real': lambda: z.real, 'imag': lambda: z.imag,
    'conj': lambda: z.conj(), 'conj_phys': lambda: z.conj_physical(), 'angle': lambda: z.angle(), 'vac': lambda: torch.view_as_complex(x.view(3, 2, 2)),
    'unfold': lambda: x.unfold(1, 2, 1), 'diagonal': lambda: x.diagonal(), 'as_strided': lambda: x.as_strided((2, 2), (1, 2)),
    'expand_as': lambda: v.expand_as(x), 'type_as': lambda: x.type_as(torch.zeros(1, dtype=torch.float64)), 'to': lambda: x.to(torch.float16),
    'contig': lambda: x.t().contiguous(), 'clone_cl': lambda: x.clone(), 'cdist': lambda: torch.cdist(x, x), 'normalize': lambda: torch.nn.functional.normalize(x),
    'outer': lambda: torch.outer(v, v), 'dot': lambda: v.dot(v), 'mv': lambda: x.mv(v), 'einsum': lambda: torch.einsum('ij,j->i', x, v),
    'kron': lambda: torch.kron(x[:2, :2], x[:2, :2]), 'tril': lambda: x.tril(), 'roll': lambda: x.roll(1, 0), 'rot90': lambda: x.rot90(),
    'movedim': lambda: x.movedim(0, 1), 'swapaxes': lambda: x.swapaxes(0, 1), 'flatten': lambda: x.flatten(), 'unflatten': lambda: v.unflatten(0, (2, 2)),
    'split_w': lambda: x.split([1, 3], 1)[1], 'tensor_split': lambda: x.tensor_split(2)[0], 'hsplit': lambda: x.hsplit(2)[0], 'unbind': lambda: x.unbind(1)[2],
    'index_select': lambda: x.index_select(1, torch.tensor([0, 2])), 'take': lambda: x.take(torch.tensor([0, 5])), 'masked_select': lambda: x.masked_select(x > 0),
    'nonzero_index': lambda: x[x > 0], 'bool_index_set': lambda: x[:, torch.tensor([True, False, True, False])], 'ellipsis': lambda: x[..., None],
    'diff': lambda: x.diff(), 'cummax': lambda: x.cummax(1)[0], 'logcumsumexp': lambda: x.logcumsumexp(0), 'trace': lambda: x[:, :3].trace(),
    'frac': lambda: x.frac(), 'hypot': lambda: torch.hypot(x, x), 'xlogy': lambda: torch.xlogy(x.abs(), x.abs()), 'fmod': lambda: x.fmod(0.3),
    'remainder': lambda: x.remainder(0.3), 'round': lambda: x.round(), 'trunc': lambda: x.trunc(), 'sinc': lambda: x.sinc(), 'deg2rad': lambda: x.deg2rad(),
    'square': lambda: x.square(), 'float_power': lambda: x.float_power(2), 'nan_to_num': lambda: x.nan_to_num(), 'cov': lambda: torch.cov(x),
    'renorm': lambda: x.renorm(2, 0, 1.0), 'polar': lambda: torch.polar(x.abs(), x), 'complex': lambda: torch.complex(x, x),
}
for k, f in ops.items():
    try:
        o = f()
        print(k, type(o.grad_fn).__name__, o.dtype, tuple(o.shape))
    except Exception as e:
        print(k, type(e).__name__, e)
'''

PROGRAMS['in_leaf_grad_layouts'] = PRE + r'''
x = torch.ones(3, 2).t().requires_grad_()
print(x.is_leaf, x.stride(), x.is_contiguous())
(x * 2).sum().backward()
print(x.grad.stride(), x.grad.is_contiguous())
e = torch.ones(3, requires_grad=True)
y = e.expand(2, 3)
y.sum().backward()
print(e.grad, e.grad.stride())
b = torch.ones(4, requires_grad=True)
(b.unsqueeze(0) * torch.ones(3, 1)).sum().backward()
print(b.grad.stride(), b.grad._base is None)
g = torch.arange(6.).reshape(2, 3)
w = torch.ones(2, 3, requires_grad=True)
(w * 1).backward(g)
print(w.grad is g, w.grad.data_ptr() == g.data_ptr(), torch.equal(w.grad, g))
w2 = torch.ones(2, 3, requires_grad=True)
w2.backward(g)
print(w2.grad is g, w2.grad.data_ptr() == g.data_ptr())
'''

PROGRAMS['in_grad_returns_aliases'] = PRE + r'''
x = torch.ones(3, requires_grad=True)
go = torch.tensor([1., 2., 3.])
g, = torch.autograd.grad(x * 1, x, go)
print(g is go, g.data_ptr() == go.data_ptr())
g, = torch.autograd.grad(x, x, go)
print(g is go, g.data_ptr() == go.data_ptr(), g)
g, = torch.autograd.grad(x.view(3), x, go)
print(g is go, g.data_ptr() == go.data_ptr())
g, = torch.autograd.grad(x + 0, x, go)
print(g is go, g)
g, = torch.autograd.grad(x.sum(), x)
print(g, g.stride(), g._base is None)
E(lambda: torch.autograd.grad(x.sum(), x.view(3)))
E(lambda: torch.autograd.grad(x.sum(), x[0]))
x.backward(go)
print(x.grad)
'''

# ---- nn module backward hooks

PROGRAMS['nn_full_backward_hooks'] = PRE + r'''
torch.manual_seed(0)
lin = torch.nn.Linear(3, 2)
def pre(mod, grad_output):
    print('pre', type(mod).__name__, [tuple(g.shape) for g in grad_output])
def post(mod, grad_input, grad_output):
    print('post', [None if g is None else tuple(g.shape) for g in grad_input], [tuple(g.shape) for g in grad_output])
h1 = lin.register_full_backward_pre_hook(pre)
h2 = lin.register_full_backward_hook(post)
x = torch.randn(4, 3, requires_grad=True)
out = lin(x)
print(out.grad_fn)
out.sum().backward()
x2 = torch.randn(4, 3)
lin(x2).sum().backward()
h1.remove()
h2.remove()
out = lin(x)
print(out.grad_fn)
'''

PROGRAMS['nn_full_backward_hook_modifies_grad'] = PRE + r'''
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Tanh())
def scale(mod, gi, go):
    return tuple(None if g is None else g * 0 for g in gi)
m[1].register_full_backward_hook(scale)
x = torch.randn(3, 2, requires_grad=True)
m(x).sum().backward()
print(x.grad, m[0].weight.grad)
r = torch.nn.ReLU(inplace=True)
r.register_full_backward_hook(lambda mod, gi, go: None)
y = torch.randn(2, requires_grad=True) * 1
E(lambda: r(y))
def bad(mod, gi, go):
    return (gi[0], gi[0])
t = torch.nn.Tanh()
t.register_full_backward_hook(bad)
E(lambda: t(torch.ones(2, requires_grad=True)).sum().backward())
'''

PROGRAMS['gc_gradcheck_options_undefined_batched'] = PRE + r'''
class NoNone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, g1, g2):
        return g1 * 2 + g2 * 3
x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
E(lambda: torch.autograd.gradcheck(NoNone.apply, (x,)))
E(lambda: torch.autograd.gradcheck(NoNone.apply, (x,), check_undefined_grad=False))
print(torch.autograd.gradcheck(lambda t: t.sin() * t, (x,), check_batched_grad=True))
print(torch.autograd.gradcheck(lambda t: t.sin() * t, (x,), check_forward_ad=True))
print(torch.autograd.gradcheck(lambda t: t.sin() * t, (x,), check_forward_ad=True, check_backward_ad=False))
print(torch.autograd.gradgradcheck(lambda t: t.sin() * t, (x,), check_fwd_over_rev=True))
print(torch.autograd.gradcheck(lambda t: t.sin() * t, (x,), nondet_tol=1e-10))
class Fwd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
E(lambda: torch.autograd.gradcheck(Fwd.apply, (x,), check_forward_ad=True))
'''

PROGRAMS['ck_nonreentrant_recompute_mismatch'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
state = {'n': 0}
def f(a):
    state['n'] += 1
    if state['n'] == 1:
        return a.exp() * 2
    return (a.sin() * 2).sum(0, keepdim=True).expand(3)
x = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)
y = checkpoint(f, x, use_reentrant=False)
E(lambda: y.sum().backward())
state['n'] = 0
def g(a):
    state['n'] += 1
    b = a.exp()
    if state['n'] == 1:
        b = b * 2
    return b.sum()
y = checkpoint(g, x, use_reentrant=False)
E(lambda: y.backward())
print(x.grad)
state['n'] = 0
y = checkpoint(g, x, use_reentrant=False, determinism_check='none')
E(lambda: y.backward())
print(x.grad)
'''

PROGRAMS['ck_checkpoint_dropout_rng'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
torch.manual_seed(0)
drop = torch.nn.Dropout(0.5)
x = torch.ones(8, requires_grad=True)
for reentrant in (True, False):
    for keep in (True, False):
        torch.manual_seed(1)
        x.grad = None
        y = checkpoint(lambda t: drop(t) * 3, x, use_reentrant=reentrant, preserve_rng_state=keep)
        y.sum().backward()
        print(reentrant, keep, y.detach().tolist(), x.grad.tolist())
'''

PROGRAMS['ck_nested_checkpoint_and_hooks'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
seen = []
def inner(a):
    b = a * 2
    seen.append(('fw', b.requires_grad, torch.is_grad_enabled()))
    if b.requires_grad:
        b.register_hook(lambda g: seen.append(('inner', g.tolist())))
    return b.exp()
def outer(a):
    return checkpoint(inner, a + 1, use_reentrant=False).sum()
x = torch.tensor([0., 1.], requires_grad=True)
y = checkpoint(outer, x, use_reentrant=False)
y.backward()
print(x.grad, seen)
seen.clear()
x.grad = None
y = checkpoint(inner, x, use_reentrant=True)
y.sum().backward()
print(x.grad, seen)
'''

PROGRAMS['hk_retain_grad_misc'] = PRE + r'''
x = torch.ones(2)
E(lambda: x.retain_grad())
w = torch.ones(2, requires_grad=True)
with torch.no_grad():
    E(lambda: (w * 2).retain_grad())
y = w * 2
y.retain_grad()
y.add_(1)
print(y.retains_grad, y.grad_fn)
(y * 3).sum().backward()
print(y.grad, w.grad)
z = w * 2
z.retain_grad()
zz = z.view(2)
zz.mul_(2)
(z * 1).sum().backward()
print(z.grad, w.grad, zz.retains_grad)
'''

PROGRAMS['hk_hook_modifies_grad_inplace'] = PRE + r'''
x = torch.ones(3, requires_grad=True)
y = x * 2
def inplace_hook(g):
    g.mul_(5)
y.register_hook(inplace_hook)
y.backward(torch.ones(3))
print(x.grad)
x.grad = None
go = torch.ones(3)
y = x * 2
y.register_hook(inplace_hook)
y.backward(go)
print(x.grad, go)
a = torch.ones(2, requires_grad=True)
a.register_hook(lambda g: g.add_(1))
(a * 1).sum().backward()
print(a.grad)
used_twice = torch.ones(2, requires_grad=True)
m = used_twice * 1
m.register_hook(lambda g: print('once', g))
(m * 2 + m * 3).sum().backward()
'''

PROGRAMS['hk_hook_under_create_graph'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x ** 2
y.register_hook(lambda g: print('hook', g, g.requires_grad, g.grad_fn))
x.register_post_accumulate_grad_hook(lambda t: print('post', t.grad, t.grad.grad_fn))
y.sum().backward(create_graph=True)
print(x.grad, x.grad.grad_fn)
y.sum().backward(create_graph=True)
print(x.grad, x.grad.grad_fn)
'''

PROGRAMS['fn_varargs_forward_and_many_outputs'] = PRE + r'''
class SumAll(torch.autograd.Function):
    @staticmethod
    def forward(ctx, *xs):
        ctx.n = len(xs)
        ctx.shapes = [x.shape for x in xs]
        return sum(x.sum() for x in xs)
    @staticmethod
    def backward(ctx, g):
        return tuple(g.expand(s) for s in ctx.shapes)
a = torch.ones(2, requires_grad=True)
b = torch.ones(3, requires_grad=True)
c = torch.ones(1)
o = SumAll.apply(a, b, c)
print(o, o.grad_fn, len(o.grad_fn.next_functions), o.grad_fn.next_functions)
o.backward()
print(a.grad, b.grad, c.grad)
class Split3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x[0].clone(), x[1].clone(), x[2].clone()
    @staticmethod
    def backward(ctx, *gs):
        print('got', gs)
        return torch.stack(gs)
x = torch.ones(3, requires_grad=True)
p, q, r = Split3.apply(x)
print(p.grad_fn is q.grad_fn, p.output_nr if hasattr(p, 'output_nr') else '', q.output_nr, r.output_nr)
(q * 5).backward()
print(x.grad)
'''

PROGRAMS['fn_save_for_backward_outputs_modified'] = PRE + r'''
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result
    @staticmethod
    def backward(ctx, g):
        result, = ctx.saved_tensors
        return g * result
x = torch.zeros(2, requires_grad=True)
y = Exp.apply(x)
y.add_(1)
print(y._version, y.grad_fn)
E(lambda: y.sum().backward())
y2 = Exp.apply(x)
E(lambda: y2.grad_fn.saved_tensors)
y2.sum().backward(retain_graph=True)
print(x.grad)
print(y2.grad_fn.saved_tensors)
y2.sum().backward()
E(lambda: y2.grad_fn.saved_tensors)
'''

PROGRAMS['tr_mlp_gelu_layernorm_adam_label_smoothing'] = PRE + r'''
torch.manual_seed(0)
X = torch.randn(16, 4)
y = torch.randint(0, 3, (16,))
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.GELU(), torch.nn.LayerNorm(8), torch.nn.Linear(8, 3))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
lossf = torch.nn.CrossEntropyLoss(label_smoothing=0.1)
for step in range(15):
    opt.zero_grad()
    loss = lossf(model(X), y)
    loss.backward()
    opt.step()
    print(step, loss.item())
'''

PROGRAMS['tr_conv1d_batchnorm_silu_rmsprop_huber'] = PRE + r'''
torch.manual_seed(1)
X = torch.randn(10, 3, 7)
model = torch.nn.Sequential(torch.nn.Conv1d(3, 4, 3), torch.nn.BatchNorm1d(4), torch.nn.SiLU(), torch.nn.Flatten(), torch.nn.Linear(20, 1))
opt = torch.optim.RMSprop(model.parameters(), lr=0.01)
t = torch.randn(10, 1)
for step in range(10):
    opt.zero_grad()
    loss = torch.nn.functional.huber_loss(model(X), t, delta=0.5)
    loss.backward()
    opt.step()
    print(step, loss.item())
'''

PROGRAMS['tr_embedding_gru_adagrad_nll'] = PRE + r'''
torch.manual_seed(2)
emb = torch.nn.Embedding(10, 4)
gru = torch.nn.GRU(4, 5, batch_first=True)
head = torch.nn.Linear(5, 2)
params = list(emb.parameters()) + list(gru.parameters()) + list(head.parameters())
opt = torch.optim.Adagrad(params, lr=0.1)
idx = torch.randint(0, 10, (3, 6))
tgt = torch.randint(0, 2, (3,))
for step in range(8):
    opt.zero_grad()
    out, h = gru(emb(idx))
    loss = torch.nn.functional.nll_loss(torch.log_softmax(head(out[:, -1]), 1), tgt)
    loss.backward()
    opt.step()
    print(step, loss.item())
'''

PROGRAMS['tr_float64_softplus_mish_adamw_smoothl1'] = PRE + r'''
torch.manual_seed(3)
x = torch.randn(20, 1, dtype=torch.float64)
y = torch.sin(3 * x)
model = torch.nn.Sequential(torch.nn.Linear(1, 16), torch.nn.Softplus(), torch.nn.Linear(16, 16), torch.nn.Mish(), torch.nn.Linear(16, 1)).double()
opt = torch.optim.AdamW(model.parameters(), lr=0.02, weight_decay=0.1)
for step in range(10):
    opt.zero_grad()
    loss = torch.nn.functional.smooth_l1_loss(model(x), y, beta=0.3)
    loss.backward()
    opt.step()
    print(step, loss.item())
'''

# (float64: PyTorch runs a float32 nn.LSTM with oneDNN's kernels, which minigrad does not reproduce bit for bit)
PROGRAMS['tr_lstm_float64_nesterov_kl_div'] = PRE + r'''
torch.manual_seed(4)
lstm = torch.nn.LSTM(3, 4, num_layers=2).double()
x = torch.randn(5, 2, 3, dtype=torch.float64)
opt = torch.optim.SGD(lstm.parameters(), lr=0.1, nesterov=True, momentum=0.9)
for step in range(6):
    opt.zero_grad()
    out, (h, c) = lstm(x)
    loss = torch.nn.functional.kl_div(torch.log_softmax(out, -1), torch.softmax(torch.ones(5, 2, 4, dtype=torch.float64), -1), reduction='batchmean')
    loss.backward()
    opt.step()
    print(step, loss.item())
'''

PROGRAMS['tr_conv2d_bn_dropout_amsgrad_steplr_clip'] = PRE + r'''
torch.manual_seed(5)
X = torch.randn(6, 1, 8, 8)
y = torch.randint(0, 4, (6,))
model = torch.nn.Sequential(torch.nn.Conv2d(1, 3, 3, padding=1), torch.nn.BatchNorm2d(3), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
                            torch.nn.Dropout(0.2), torch.nn.Flatten(), torch.nn.Linear(48, 4))
opt = torch.optim.Adam(model.parameters(), lr=0.01, amsgrad=True, weight_decay=1e-3)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
for step in range(8):
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(model(X), y)
    loss.backward()
    n = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    opt.step()
    sched.step()
    print(step, loss.item(), n.item(), sched.get_last_lr())
model.eval()
print(model(X[:2]))
'''

PROGRAMS['tr_gram_matrix_clip_grad_value'] = PRE + r'''
torch.manual_seed(6)
w = torch.randn(3, 3, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
target = torch.eye(3)
for i in range(10):
    opt.zero_grad()
    loss = ((w @ w.t() - target) ** 2).sum()
    loss.backward()
    torch.nn.utils.clip_grad_value_([w], 0.5)
    opt.step()
    print(i, loss.item(), w.grad.abs().max().item())
'''

PROGRAMS['tr_lbfgs_closure_cubic'] = PRE + r'''
torch.manual_seed(7)
x = torch.linspace(-1, 1, 50).unsqueeze(1)
y = x.pow(3) - 0.5 * x
net = torch.nn.Sequential(torch.nn.Linear(1, 10), torch.nn.Tanh(), torch.nn.Linear(10, 1))
opt = torch.optim.LBFGS(net.parameters(), lr=0.5)
def closure():
    opt.zero_grad()
    l = torch.nn.functional.mse_loss(net(x), y)
    l.backward()
    return l
for i in range(4):
    l = opt.step(closure)
    print(i, l.item())
'''

PROGRAMS['tr_adamax_nadam_cosine_embedding'] = PRE + r'''
torch.manual_seed(8)
m = torch.nn.Linear(4, 4)
x = torch.randn(3, 4)
opt = torch.optim.Adamax(m.parameters(), lr=0.05)
opt2 = torch.optim.NAdam(m.parameters(), lr=0.01)
for i in range(5):
    for o in (opt, opt2):
        o.zero_grad()
        loss = torch.nn.functional.cosine_embedding_loss(m(x), x, torch.tensor([1, -1, 1]))
        loss.backward()
        o.step()
        print(i, type(o).__name__, loss.item())
'''

PROGRAMS['tr_hardswish_adadelta_kl_div'] = PRE + r'''
torch.manual_seed(9)
x = torch.randn(8, 5)
y = torch.randn(8, 5).softmax(1)
m = torch.nn.Sequential(torch.nn.Linear(5, 5), torch.nn.Hardswish(), torch.nn.Linear(5, 5), torch.nn.LogSoftmax(1))
opt = torch.optim.Adadelta(m.parameters())
for i in range(6):
    opt.zero_grad()
    loss = torch.nn.functional.kl_div(m(x), y, reduction='batchmean')
    loss.backward()
    opt.step()
    print(i, loss.item())
'''


PROGRAMS['af_functional_shapes_and_errors'] = PRE + r'''
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp
E(lambda: jacobian(lambda t: t * 2, torch.tensor([1, 2])))
E(lambda: jacobian(lambda t: t * 2, torch.tensor([1., 2.]).requires_grad_()))
print(jacobian(lambda t: t.sum(0), torch.ones(2, 3)).shape)
print(jacobian(lambda t: t.t(), torch.ones(2, 3)).shape)
print(jacobian(lambda a, b: a @ b, (torch.ones(2, 3), torch.ones(3))))
J = jacobian(lambda t: t ** 2, torch.tensor([1., 2.]), create_graph=True, vectorize=True)
print(J, J.requires_grad)
print(hessian(lambda t: (t ** 3).sum(), torch.ones(2, 2)).shape)
print(hvp(lambda a, b: (a * b ** 2).sum(), (torch.tensor([1., 2.]), torch.tensor([3., 4.])), (torch.ones(2), torch.ones(2))))
E(lambda: hvp(lambda a: (a ** 2).sum(), torch.ones(2), (torch.ones(2), torch.ones(2))))
E(lambda: vjp(lambda a: a, torch.ones(2), torch.ones(2, dtype=torch.float64)))
E(lambda: jvp(lambda a: a.sum(), torch.ones(3)))
print(jvp(lambda a: a.sum(), torch.ones(1)))
E(lambda: jvp(lambda a: a * 2, torch.ones(3)))
print(vjp(lambda a: (a, a * 2), torch.ones(2), (torch.ones(2), torch.ones(2))))
E(lambda: vjp(lambda a: (a, a * 2), torch.ones(2), torch.ones(2)))
print(jacobian(lambda a: (a, a.sum()), torch.ones(2)))
'''

PROGRAMS['fw_dual_level_basics_and_errors'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
E(lambda: fwAD.make_dual(torch.ones(2), torch.ones(2)))
with fwAD.dual_level():
    E(lambda: fwAD.make_dual(torch.ones(2), torch.ones(3)))
    E(lambda: fwAD.make_dual(torch.ones(2), torch.ones(2, dtype=torch.float64)))
    E(lambda: fwAD.make_dual(torch.ones(2, dtype=torch.int64), torch.ones(2, dtype=torch.int64)))
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([0.5, 0.]))
    print(d)
    u = fwAD.unpack_dual(d)
    print(type(u).__name__, u.primal, u.tangent, u._fields)
    y = d.sin() * d
    print(fwAD.unpack_dual(y).tangent)
    def nest():
        with fwAD.dual_level():
            pass
    E(nest)
    print(fwAD.unpack_dual(torch.ones(2)))
print(fwAD.unpack_dual(d).tangent)
'''

PROGRAMS['fw_forward_ad_with_requires_grad_primal'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
x = torch.tensor([1., 2.], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.tensor([1., 1.]))
    print(d.requires_grad, d.grad_fn, d is x)
    y = (d ** 2).sum()
    p, t = fwAD.unpack_dual(y)
    print(p, t)
    p.backward()
    print(x.grad)
    t2 = fwAD.unpack_dual(d * x).tangent
    print(t2.detach(), t2.requires_grad)  # (its grad_fn differs: see the report of hunt 12)
'''

PROGRAMS['func_grad_jacrev_jacfwd_hessian_vmap'] = PRE + r'''
from torch.func import grad, jacrev, jacfwd, hessian, vmap, vjp, jvp
f = lambda t: (t.sin() * t).sum()
x = torch.tensor([0.5, 1.5], dtype=torch.float64)
print(grad(f)(x))
print(jacrev(jacrev(f))(x))
print(jacfwd(jacrev(f))(x))
print(hessian(f)(x))
print(vmap(grad(f))(torch.stack([x, x * 2])))
print(grad(f, argnums=0, has_aux=False)(x))
print(grad(lambda a, b: (a * b).sum(), argnums=(0, 1))(x, x * 3))
print(grad(lambda a: ((a ** 2).sum(), a.detach()), has_aux=True)(x))
E(lambda: grad(lambda a: a ** 2)(x))
E(lambda: grad(lambda a: 3.0)(x))
E(lambda: grad(f, argnums=2)(x))
o, fn = vjp(lambda a: a ** 2, x)
print(o, fn(torch.ones(2)))
print(jvp(lambda a: a ** 2, (x,), (torch.ones(2, dtype=torch.float64),)))
'''


PROGRAMS['n3_grad_positional_and_odd_arguments'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * x).sum()
print(torch.autograd.grad(y, (p for p in [x]), None, True))
print(torch.autograd.grad(outputs=[y], inputs=[x], retain_graph=True))
print(torch.autograd.grad(y, x, None, True, False, True, False))
E(lambda: torch.autograd.grad(y, x, None, True, False, True, False, False, False, 1))
E(lambda: torch.autograd.grad(y, {x: 1}, retain_graph=True))
E(lambda: torch.autograd.grad(y, x, grad_outputs=1.0, retain_graph=True))
E(lambda: torch.autograd.grad(y, x, grad_outputs=[1.0], retain_graph=True))
E(lambda: torch.autograd.grad(y, x, grad_outputs=torch.tensor(1, dtype=torch.int64), retain_graph=True))
E(lambda: torch.autograd.grad([y, y], x, retain_graph=True))
E(lambda: torch.autograd.grad((y, x), x, retain_graph=True))
E(lambda: torch.autograd.grad(y, x, foo=1))
E(lambda: torch.autograd.backward(y, foo=1))
E(lambda: y.backward(foo=1))
E(lambda: y.backward(None, True, False, None, 5))
'''

PROGRAMS['n3_backward_grad_variables_and_inputs'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
E(lambda: torch.autograd.backward(y, torch.ones(2), grad_variables=torch.ones(2)))
W(lambda: torch.autograd.backward(y, grad_variables=torch.ones(2), retain_graph=True))
print(x.grad)
E(lambda: torch.autograd.backward(y, torch.ones(2), inputs=x, retain_graph=True))
print(x.grad)
E(lambda: torch.autograd.backward(y, torch.ones(2), inputs=(x, x), retain_graph=True))
print(x.grad)
E(lambda: torch.autograd.backward((y, y), (torch.ones(2), torch.ones(2))))
print(x.grad)
'''

PROGRAMS['n1_leaf_scalar_backward_itself'] = PRE + r'''
x = torch.tensor(3.0, requires_grad=True)
print(x.backward(), x.grad)
x.backward(torch.tensor(2.))
print(x.grad)
E(lambda: x.backward(retain_graph=False, create_graph=True))
print(x.grad, x.grad.requires_grad, x.grad.grad_fn)
i = torch.tensor(3)
E(lambda: i.backward())
E(lambda: torch.autograd.grad(x, x, create_graph=True))
print(torch.autograd.grad(x, x, create_graph=True)[0].requires_grad)
print(torch.autograd.grad(x * 1, x, create_graph=True)[0].requires_grad)
'''

PROGRAMS['n0_grad_accumulator_identity'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
y = x * 2
print(y.grad_fn.next_functions[0][0] is x.grad_fn)
acc1 = y.grad_fn.next_functions[0][0]
y2 = x * 3
print(acc1 is y2.grad_fn.next_functions[0][0])
del y, y2
y3 = x * 4
import gc; gc.collect()
print(type(y3.grad_fn.next_functions[0][0]).__name__)
print(x.grad_fn, x._grad_fn if hasattr(x, '_grad_fn') else '')
'''

PROGRAMS['fn_backward_returns_odd_grads'] = PRE + r'''
class RetDtype(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return (g * 2).double()
x = torch.ones(2, requires_grad=True)
y = RetDtype.apply(x)
y.sum().backward()
print(x.grad, x.grad.dtype)
class RetBcast(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g.unsqueeze(0).expand(3, 2)
x.grad = None
RetBcast.apply(x).sum().backward()
print(x.grad)
class RetNum(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return 2.0
E(lambda: RetNum.apply(x).sum().backward())
class RetInt(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return torch.ones(2, dtype=torch.int64)
x.grad = None
E(lambda: RetInt.apply(x).sum().backward())
print(x.grad)
class RetComplex(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * (1 + 1j)
x.grad = None
E(lambda: RetComplex.apply(x).sum().backward())
print(x.grad)
class RetGradForNonTensor(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        return x * k
    @staticmethod
    def backward(ctx, g):
        return g * 2, g
x.grad = None
E(lambda: RetGradForNonTensor.apply(x, 2).sum().backward())
print(x.grad)
class RetGradForNoGradInput(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        return x * k
    @staticmethod
    def backward(ctx, g):
        return g * 2, g * 7
x.grad = None
k = torch.ones(2)
E(lambda: RetGradForNoGradInput.apply(x, k).sum().backward())
print(x.grad, k.grad)
'''

PROGRAMS['fn_mark_dirty_on_view_input'] = PRE + r'''
class MulDirtyView(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 2
a = torch.ones(4, requires_grad=True)
b = a * 1
v = b[:2]
o = MulDirtyView.apply(v)
print(o is v, v.grad_fn, b.grad_fn, b)
b.sum().backward()
print(a.grad)
with torch.no_grad():
    c = a * 1
    w = c[1:]
E(lambda: MulDirtyView.apply(w))
print(w.grad_fn, c)
'''

PROGRAMS['fn_identity_two_outputs'] = PRE + r'''
class Identity2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x, y
    @staticmethod
    def backward(ctx, gx, gy):
        print('gx', gx, 'gy', gy)
        return gx, gy
x = torch.ones(2, requires_grad=True)
y = torch.ones(2)
a, b = Identity2.apply(x, y)
print(a.requires_grad, b.requires_grad, a.grad_fn, b.grad_fn, a is x, b is y, b._base is y)
a.sum().backward()
print(x.grad)
a, b = Identity2.apply(x, y * 1)
E(lambda: b.sum().backward())
'''

PROGRAMS['fn_missing_methods_errors'] = PRE + r'''
class NoBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
x = torch.ones(2, requires_grad=True)
y = NoBackward.apply(x)
print(y.grad_fn)
E(lambda: y.sum().backward())
class NoForward(torch.autograd.Function):
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: NoForward.apply(x))
class NotStatic(torch.autograd.Function):
    def forward(self, ctx, x):
        return x
    def backward(self, ctx, g):
        return g
E(lambda: NotStatic.apply(x))
'''

# fixed: saved_tensors_hooks, _MultiHandle, _AllowMutationOnSavedContext, dual_level, record_function printed minigrad's module path
PROGRAMS['in_reprs_of_autograd_objects'] = PRE + r'''
print(torch.no_grad())
print(torch.enable_grad())
print(torch.set_grad_enabled(True))
print(torch.inference_mode())
print(torch.autograd.detect_anomaly())
print(torch.autograd.set_detect_anomaly(False))
print(torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t))
print(torch.autograd.graph.save_on_cpu())
print(torch.no_grad, torch.enable_grad, torch.inference_mode, torch.set_grad_enabled)
print(torch.autograd.Function, torch.autograd.function.FunctionCtx, torch.autograd.graph.Node)
a = torch.ones(2, requires_grad=True)
h = torch.autograd.graph.register_multi_grad_hook((a,), lambda g: None)
print(h, type(h))
with torch.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
    print(ctx, type(ctx))
print(torch.autograd.graph.get_gradient_edge(a * 2))
print(torch.autograd.forward_ad.dual_level(), type(torch.autograd.forward_ad.dual_level()))
print(torch.autograd.profiler.record_function('x'))
y = a * 2
print(y.grad_fn._raw_saved_other)
'''

PROGRAMS['in_node_and_function_types'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
y = x * 2
print(type(y.grad_fn), type(y.grad_fn).__qualname__, type(y.grad_fn.next_functions[0][0]))
h = y.register_hook(lambda g: g)
print(h, type(h))
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        print('ctx', type(ctx).__name__, type(ctx).__mro__[1].__name__)
        return x * 1
    @staticmethod
    def backward(ctx, g):
        return g
o = F.apply(x)
print(type(o.grad_fn), isinstance(o.grad_fn, torch.autograd.function.FunctionCtx), isinstance(o.grad_fn, torch.autograd.graph.Node))
print(F.apply, F, type(F), type(F).__name__)
print(y.grad_fn.__class__.__name__, str(y.grad_fn)[:14], repr(y.grad_fn)[:14])
print(hash(y.grad_fn) == hash(y.grad_fn), y.grad_fn == y.grad_fn, y.grad_fn is y.grad_fn, bool(y.grad_fn))
print(y.grad_fn.next_functions[0][0] is y.grad_fn.next_functions[0][0])
'''

PROGRAMS['hk_multi_output_node_hooks'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
a, b, c = x.unbind()
fn = a.grad_fn
print(fn, fn is b.grad_fn)
fn.register_prehook(lambda go: print('pre', go))
fn.register_hook(lambda gi, go: print('post', gi, go))
(a * 2 + c * 5).backward()
print(x.grad)
'''

PROGRAMS['hk_grad_on_nonleaf_input_with_hooks'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
y.register_hook(lambda g: print('y hook', g) or g * 2)
y.retain_grad()
z = (y ** 2).sum()
print(torch.autograd.grad(z, y, retain_graph=True))
print(y.grad)
print(torch.autograd.grad(z, x, retain_graph=True))
z.backward(inputs=[y])
print(y.grad, x.grad)
'''

PROGRAMS['hk_order_of_all_hook_kinds'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
order = []
y.grad_fn.register_prehook(lambda go: order.append('node pre'))
y.register_hook(lambda g: order.append('tensor hook'))
y.grad_fn.register_hook(lambda gi, go: order.append('node post'))
x.register_hook(lambda g: order.append('leaf hook'))
x.register_post_accumulate_grad_hook(lambda t: order.append('post acc'))
y.retain_grad()
y.sum().backward()
print(order)
'''

PROGRAMS['hk_handles_remove_and_context'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
handles = [y.register_hook(lambda g, i=i: print('h', i) or g + i) for i in range(3)]
handles[1].remove()
y.sum().backward()
print(x.grad)
print(type(handles[0]).__name__, hasattr(handles[0], 'id'))
with y.register_hook(lambda g: print('ctx hook')) as hh:
    pass
print(type(hh).__name__)
'''

PROGRAMS['hk_hooks_on_view_after_inplace'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
z = y.view(2)
y.register_hook(lambda g: print('y', g))
z.register_hook(lambda g: print('z', g))
y.mul_(3)
print(y.grad_fn, z.grad_fn)
(z * 1).sum().backward()
print(x.grad)
'''

PROGRAMS['fn_ctx_prints_and_saved_tensors'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        print(ctx)
        ctx.save_for_backward(x, y)
        return x * y
    @staticmethod
    def backward(ctx, g):
        print(ctx.saved_tensors, ctx.needs_input_grad, type(ctx.saved_tensors).__name__)
        print(ctx.to_save if hasattr(ctx, 'to_save') else 'no to_save')
        return g * ctx.saved_tensors[1], None
x = torch.ones(2, requires_grad=True)
o = F.apply(x, torch.full((2,), 3.))
print(o.grad_fn.next_functions)
print(o.grad_fn.saved_tensors)
print(o.grad_fn.needs_input_grad)
E(lambda: o.grad_fn.to_save)
o.sum().backward()
print(x.grad)
print(torch.autograd.gradcheck, torch.autograd.functional.jacobian)
from torch.autograd.gradcheck import GradcheckError
print(GradcheckError, GradcheckError.__mro__[1])
'''

PROGRAMS['in_next_functions_with_constants'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
ys = x * 2
print(ys.grad_fn.next_functions, ys.grad_fn.next_functions[0][0].next_functions)
z = ys + torch.ones(2)
print(z.grad_fn.next_functions)
w = torch.ones(2) + ys
print(w.grad_fn.next_functions)
c = torch.cat([torch.ones(1), x, torch.zeros(1)])
print(c.grad_fn.next_functions)
s = torch.stack([x, torch.ones(2)])
print(s.grad_fn.next_functions)
m = torch.where(x > 1, x, torch.zeros(2))
print(m.grad_fn.next_functions)
mm = torch.addmm(torch.ones(2), x.view(1, 2), torch.ones(2, 2))
print(mm.grad_fn.next_functions)
l = torch.nn.functional.linear(x, torch.ones(3, 2))
print(l.grad_fn, l.grad_fn.next_functions)
l2 = torch.nn.functional.linear(x, torch.ones(3, 2, requires_grad=True), torch.ones(3))
print(l2.grad_fn, l2.grad_fn.next_functions)
'''

# fixed: GradcheckError and CheckpointError printed as minigrad classes
PROGRAMS['ck_checkpoint_and_gradcheck_error_classes'] = PRE + r'''
from torch.utils.checkpoint import checkpoint, CheckpointError
print(CheckpointError, CheckpointError.__mro__[1])
n = [0]
def f(a):
    n[0] += 1
    b = a.exp()
    if n[0] > 1:
        b = b * 2
    return b.sum()
x = torch.ones(2, requires_grad=True)
y = checkpoint(f, x, use_reentrant=False)
try:
    y.backward()
except CheckpointError as e:
    print('caught', type(e).__name__, isinstance(e, RuntimeError), str(e)[:200])
from torch.autograd.gradcheck import GradcheckError
try:
    torch.autograd.gradcheck(lambda t: t.detach() * 2, (torch.ones(2, dtype=torch.float64, requires_grad=True),))
except GradcheckError as e:
    print('caught', type(e), str(e)[:100])
'''

# fixed: torch.autograd.Variable printed as minigrad's class
PROGRAMS['in_variable_class_and_volatile'] = PRE + r'''
from torch.autograd import Variable
print(Variable, torch.autograd.Variable)
v = Variable(torch.ones(2), requires_grad=True)
print(type(v), isinstance(v, Variable), isinstance(3, Variable))
W(lambda: Variable(torch.ones(2), volatile=True))
E(lambda: Variable(torch.ones(2), requires_grad=True, volatile=True))
E(lambda: Variable([1., 2.]))
print(Variable())
y = Variable(v * 2)
print(y, y.requires_grad, y.is_leaf)
'''

# fixed: a view among several differentiable outputs of a custom Function gave the custom-Function message, not the multiple-views one
PROGRAMS['fn_views_among_outputs_inplace_errors'] = PRE + r'''
class Passthrough(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.ones(3, requires_grad=True)
y = Passthrough.apply(x * 1)
print(y._is_view(), y.grad_fn)
E(lambda: y.mul_(2))
class Passthrough2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x), x.view_as(x)
    @staticmethod
    def backward(ctx, g1, g2):
        return g1 + g2
p, q = Passthrough2.apply(x * 1)
E(lambda: p.mul_(2))
E(lambda: q.mul_(2))
print(p.grad_fn)
class ViewAndCopy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x), x * 2
    @staticmethod
    def backward(ctx, g1, g2):
        return g1 + 2 * g2
a, b = ViewAndCopy.apply(x * 1)
E(lambda: a.mul_(2))
b.mul_(2)
print(b.grad_fn)
class ViewAndIndex(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        i = torch.arange(3)
        ctx.mark_non_differentiable(i)
        return x.view_as(x), i
    @staticmethod
    def backward(ctx, g1, g2):
        return g1
c, i = ViewAndIndex.apply(x * 1)
E(lambda: c.mul_(2))
i.add_(1)
print(i)
class SameInputTwice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x, x
    @staticmethod
    def backward(ctx, g1, g2):
        return g1 + g2
u, w = SameInputTwice.apply(x * 1)
print(u._is_view(), u is w)
E(lambda: u.mul_(2))
class ViewAndInt(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x), torch.ones(2, dtype=torch.int64)
    @staticmethod
    def backward(ctx, g1, g2):
        return g1
v, k = ViewAndInt.apply(x * 1)
E(lambda: v.mul_(2))
'''

PROGRAMS['vc_multi_output_views_inplace_errors'] = PRE + r'''
x = torch.ones(4, requires_grad=True)
with torch.no_grad():
    v = x[:2]
E(lambda: v.mul_(2))
y = x * 1
with torch.no_grad():
    v2 = y[:2]
E(lambda: v2.mul_(2))
print(v2.requires_grad, v2.grad_fn)
a, b = y.unbind()[:2]
E(lambda: a.add_(1))
c, d = y.split(2)
E(lambda: c.add_(1))
e, f = y.chunk(2)
E(lambda: e.add_(1))
g = y.split(2)[0]
E(lambda: g.zero_())
u = y.unflatten(0, (2, 2)).unbind(1)[0]
E(lambda: u.add_(1))
'''

PROGRAMS['vc_detached_view_inplace_and_no_grad_view'] = PRE + r'''
x = torch.ones(4, requires_grad=True)
y = x * 1
with torch.inference_mode():
    pass
d = y.detach()
vd = d[1:]
vd.add_(1)
print(y, y._version)
E(lambda: y.sum().backward())
print(x.grad)
z = x * 1
zz = z.view(2, 2)
with torch.no_grad():
    zz.mul_(3)
print(z.grad_fn, zz.grad_fn, z._version)
z.sum().backward()
print(x.grad)
'''

PROGRAMS['vc_inplace_on_t_diagonal_reshape_views'] = PRE + r'''
x = torch.ones(2, 3, requires_grad=True)
y = x * 1
t = y.t()
t.add_(1)
print(y.grad_fn, t.grad_fn, t.grad_fn.next_functions)
d = y.diagonal()
d.mul_(5)
print(y.grad_fn, d.grad_fn)
r = y.reshape(6)
r.sub_(1)
print(y.grad_fn, r.grad_fn, r._is_view())
y.sum().backward()
print(x.grad)
e = (x * 1).expand(2, 2, 3)
E(lambda: e.add_(1))
'''

PROGRAMS['an_anomaly_function_raises_and_nan_grad'] = PRE + r'''
import re
def clean(s):
    return re.sub(r'File "[^"]*"', 'File X', s)
def WW(f):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        try:
            f()
            print('no error')
        except Exception as e:
            print(type(e).__name__, str(e)[:300])
    for w in ws:
        print('W', w.category.__name__, clean(str(w.message)).splitlines()[0])
class Boom(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        raise ValueError('boom in backward')
x = torch.ones(2, requires_grad=True)
with torch.autograd.detect_anomaly():
    y = Boom.apply(x)
    WW(lambda: y.sum().backward())
y = Boom.apply(x)
WW(lambda: y.sum().backward())
with torch.autograd.detect_anomaly():
    z = (x * 2).sqrt() * 0
    WW(lambda: torch.autograd.grad((x - 1).sqrt().sum(), x))
    a = (x * x).sum()
    g, = torch.autograd.grad(a, x, create_graph=True)
    WW(lambda: (g * float('nan')).sum().backward())
'''

PROGRAMS['an_anomaly_sqrt_log_negative'] = PRE + r'''
x = torch.tensor([-1., 4.], requires_grad=True)
with torch.autograd.detect_anomaly(check_nan=True):
    y = x.sqrt()
    print(y)
    l = y.sum()
    try:
        l.backward()
    except RuntimeError as e:
        print('RuntimeError', e)
print(x.grad)
with torch.autograd.set_detect_anomaly(True):
    y = x.log()
    try:
        y.sum().backward()
    except RuntimeError as e:
        print('RuntimeError', e)
print(x.grad)
'''

PROGRAMS['gm_inference_tensors_factories_and_views'] = PRE + r'''
with torch.no_grad():
    a = torch.ones(2, requires_grad=True)
    b = a * 2
print(a.requires_grad, a.is_leaf, b.requires_grad)
with torch.inference_mode():
    E(lambda: torch.ones(2, requires_grad=True))
    c = torch.ones(2)
    E(lambda: c.requires_grad_())
    d = a * 2
    print(d.requires_grad, d.is_inference(), a.is_inference())
    v = a[0]
    print(v.is_inference(), v.requires_grad, v._is_view())
print(torch.ones(2).is_inference())
with torch.inference_mode():
    t = torch.ones(3)
print(t.view(3, 1).is_inference() if False else '', t.clone().is_inference(), t.detach().is_inference(), t[0:1].is_inference() if False else '')
E(lambda: t.view(3, 1))
E(lambda: t[0])
E(lambda: t.add_(1))
E(lambda: t.data)
E(lambda: t.numpy().sum())
E(lambda: t.tolist())
E(lambda: t.sum())
E(lambda: (t + 1).is_inference())
E(lambda: torch.cat([t, torch.ones(1)]).is_inference())
'''

PROGRAMS['gm_inference_mode_false_nested_and_decorators'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
with torch.inference_mode():
    with torch.inference_mode(False):
        y = x * 2
        print(y.requires_grad, y.is_inference(), torch.is_inference_mode_enabled(), torch.is_grad_enabled())
        z = torch.ones(2)
        print(z.is_inference())
    with torch.no_grad():
        print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
@torch.inference_mode(False)
def f():
    return torch.is_inference_mode_enabled()
with torch.inference_mode():
    print(f())
@torch.inference_mode
def g():
    return torch.is_inference_mode_enabled()
print(g())
print(torch.inference_mode(mode=False).__class__.__name__)
with torch.inference_mode(mode=False):
    print(torch.is_inference_mode_enabled())
E(lambda: torch.inference_mode(1, 2))
'''

# fixed: inference_mode/no_grad/enable_grad with wrong arguments: PyTorch's __new__ TypeErrors
PROGRAMS['gm_mode_constructors_bad_arguments'] = PRE + r'''
E(lambda: torch.inference_mode(1, 2))
E(lambda: torch.inference_mode(1))
E(lambda: torch.inference_mode(None))
def en(m):
    with m:
        return torch.is_inference_mode_enabled()
E(lambda: en(torch.inference_mode(None)))
E(lambda: torch.inference_mode(mode=None))
E(lambda: torch.inference_mode(mode=1))
E(lambda: torch.inference_mode(True, mode=False))
E(lambda: torch.inference_mode(foo=1))
E(lambda: torch.no_grad(1, 2))
E(lambda: torch.no_grad(foo=1))
E(lambda: torch.enable_grad(foo=1))
E(lambda: torch.set_grad_enabled(True, False))
E(lambda: torch.set_grad_enabled(mode=True))
E(lambda: torch.set_grad_enabled(None))
E(lambda: en(torch.set_grad_enabled(None)))
E(lambda: torch.set_grad_enabled('yes'))
E(lambda: torch.no_grad()(3))
E(lambda: torch.enable_grad()(None))
'''

PROGRAMS['hk_register_non_callables'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
y = x * 2
E(lambda: y.register_hook(3))
E(lambda: x.register_post_accumulate_grad_hook(3))
E(lambda: y.grad_fn.register_hook(3))
E(lambda: y.grad_fn.register_prehook(None))
E(lambda: torch.autograd.graph.register_multi_grad_hook((x, 3), lambda g: None))
E(lambda: torch.autograd.graph.register_multi_grad_hook([], lambda g: None))
h = y.register_hook(lambda g: None)
print(h.id >= 0 if hasattr(h, 'id') else None)
E(lambda: y.sum().backward())
print(x.grad)
'''

PROGRAMS['fn_ctx_misuse_variants'] = PRE + r'''
class NotOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_non_differentiable(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = torch.ones(2, requires_grad=True)
o = NotOut.apply(x)
print(o.requires_grad, o.grad_fn)
class SaveTwice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, x)
        ctx.save_for_backward(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        print(len(ctx.saved_tensors))
        return g * 2
SaveTwice.apply(x).sum().backward()
class DirtyNotInput(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x * 2
        ctx.mark_dirty(y)
        return y
    @staticmethod
    def backward(ctx, g):
        return g * 2
W(lambda: E(lambda: DirtyNotInput.apply(x)))
class DirtyNotReturned(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x * 1
    @staticmethod
    def backward(ctx, g):
        return g * 2
E(lambda: DirtyNotReturned.apply(x * 1))
class SavedAttr(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.keep = x
        return x * 2
    @staticmethod
    def backward(ctx, g):
        print('keep', ctx.keep.requires_grad)
        return g * 2
SavedAttr.apply(x).sum().backward()
print(x.grad)
class MatFalseNone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x.clone(), x.clone()
    @staticmethod
    def backward(ctx, a, b):
        print('a', a, 'b', b)
        return a
p, q = MatFalseNone.apply(x)
torch.autograd.backward([p.sum()], inputs=[x])
'''

PROGRAMS['ck_checkpoint_argument_errors_and_outputs'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
x = torch.ones(2, requires_grad=True)
E(lambda: checkpoint(lambda t: t * 2, x, use_reentrant='yes'))
E(lambda: checkpoint(lambda t: t * 2, x, use_reentrant=False, foo=1))
E(lambda: checkpoint(lambda t: t * 2, x, use_reentrant=True, context_fn=lambda: (None, None)))
E(lambda: checkpoint(lambda t: t * 2, x, use_reentrant=False, determinism_check='maybe'))
E(lambda: checkpoint(lambda t: t * 2, use_reentrant=False))
E(lambda: checkpoint(lambda t: t * 2, use_reentrant=True))
E(lambda: checkpoint(3, x, use_reentrant=False))
y = checkpoint(lambda t: (t * 2, 5, 'a'), x, use_reentrant=False)
print(y[1:], y[0].grad_fn)
y = checkpoint(lambda t: (t * 2, 5, 'a'), x, use_reentrant=True)
print(y[1:], y[0].grad_fn)
y = checkpoint(lambda t: {'a': t * 3}, x, use_reentrant=False)
print(type(y).__name__, y['a'].grad_fn)
E(lambda: checkpoint(lambda t: {'a': t * 3}, x, use_reentrant=True))
'''

PROGRAMS['in_sequence_nr_relative'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
a = x * 2
base = a.grad_fn._sequence_nr()
ops = [lambda t: t + 1, lambda t: t.exp(), lambda t: t.sum(), lambda t: torch.nn.functional.softmax(t, 0), lambda t: torch.nn.functional.mse_loss(t, torch.zeros(2)),
       lambda t: torch.nn.functional.linear(t, torch.ones(3, 2)), lambda t: t.var(), lambda t: torch.nn.functional.layer_norm(t, (2,)),
       lambda t: torch.nn.functional.cross_entropy(t.view(1, 2), torch.tensor([1])), lambda t: t.norm(), lambda t: t.std(), lambda t: t[0],
       lambda t: torch.nn.functional.gelu(t), lambda t: torch.nn.functional.binary_cross_entropy_with_logits(t, torch.ones(2)),
       lambda t: torch.nn.functional.normalize(t, dim=0), lambda t: torch.cdist(t.view(1, 2), t.view(1, 2)), lambda t: t.clamp(0, 1),
       lambda t: torch.nn.functional.dropout(t, 0.0), lambda t: torch.nn.functional.silu(t), lambda t: t.mean()]
prev = base
for i, f in enumerate(ops):
    y = f(a)
    s = y.grad_fn._sequence_nr()
    print(i, type(y.grad_fn).__name__, s - prev)
    prev = s
'''

PROGRAMS['tr_wgan_gradient_penalty'] = PRE + r'''
torch.manual_seed(0)
D = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
real = torch.randn(6, 2)
fake = torch.randn(6, 2)
opt = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.5, 0.9))
for it in range(4):
    eps = torch.rand(6, 1)
    mix = (eps * real + (1 - eps) * fake).requires_grad_(True)
    out = D(mix)
    g, = torch.autograd.grad(out, mix, torch.ones_like(out), create_graph=True)
    gp = ((g.norm(2, dim=1) - 1) ** 2).mean()
    loss = D(fake).mean() - D(real).mean() + 10 * gp
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(it, round(loss.item(), 6), round(gp.item(), 6), g.grad_fn.name())
'''

PROGRAMS['tr_maml_inner_loop_create_graph'] = PRE + r'''
torch.manual_seed(1)
w = torch.randn(3, 1, requires_grad=True)
def task(n):
    x = torch.randn(n, 3)
    return x, x @ torch.tensor([[1.], [2.], [3.]])
meta_opt = torch.optim.SGD([w], lr=0.01)
for step in range(3):
    meta_opt.zero_grad()
    xs, ys = task(5)
    xq, yq = task(5)
    inner = ((xs @ w - ys) ** 2).mean()
    gw, = torch.autograd.grad(inner, w, create_graph=True)
    w2 = w - 0.1 * gw
    outer = ((xq @ w2 - yq) ** 2).mean()
    outer.backward()
    print(step, round(inner.item(), 5), round(outer.item(), 5), w.grad.flatten())
    meta_opt.step()
print(w2.grad_fn, gw.grad_fn)
'''

PROGRAMS['fn_grad_reverse_and_straight_through'] = PRE + r'''
class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lam):
        ctx.lam = lam
        return x.view_as(x)
    @staticmethod
    def backward(ctx, g):
        return g.neg() * ctx.lam, None
class STE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return (x > 0).float()
    @staticmethod
    def backward(ctx, g):
        return g
torch.manual_seed(2)
feat = torch.nn.Linear(3, 4)
head = torch.nn.Linear(4, 1)
x = torch.randn(5, 3)
h = feat(x)
r = GradReverse.apply(h, 0.5)
b = STE.apply(h)
out = head(r).sum() + (b * h).sum()
out.backward()
print(feat.weight.grad)
print(head.weight.grad)
print(r.grad_fn, b.grad_fn, b.requires_grad)
'''

PROGRAMS['tr_param_hooks_grad_accumulation'] = PRE + r'''
torch.manual_seed(3)
model = torch.nn.Linear(4, 2)
for p in model.parameters():
    p.register_hook(lambda g: g.clamp(-0.1, 0.1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = torch.randn(8, 4)
tgt = torch.randn(8, 2)
accum = 4
opt.zero_grad()
for i in range(8):
    loss = torch.nn.functional.mse_loss(model(data[i:i + 1]), tgt[i:i + 1]) / accum
    loss.backward()
    if (i + 1) % accum == 0:
        print(i, model.weight.grad.abs().max().item(), model.bias.grad)
        opt.step()
        opt.zero_grad()
print(model.weight)
'''

PROGRAMS['rg_hessian_vector_products'] = PRE + r'''
torch.manual_seed(4)
x = torch.randn(3, requires_grad=True)
A = torch.randn(3, 3)
A = A @ A.t() + torch.eye(3)
f = 0.5 * x @ A @ x + x.sin().sum()
g, = torch.autograd.grad(f, x, create_graph=True)
v = torch.tensor([1., 0., -1.])
hv, = torch.autograd.grad(g, x, v, retain_graph=True)
print(hv)
H = torch.stack([torch.autograd.grad(g[i], x, retain_graph=True)[0] for i in range(3)])
print(H)
print(torch.allclose(H @ v, hv))
print(torch.autograd.functional.hvp(lambda t: 0.5 * t @ A @ t + t.sin().sum(), x.detach(), v)[1])
'''

# fixed: get_numerical_jacobian / get_analytical_jacobian gave no FutureWarning
PROGRAMS['gc_private_jacobians_and_argument_errors'] = PRE + r'''
from torch.autograd.gradcheck import gradcheck, gradgradcheck, get_numerical_jacobian, get_analytical_jacobian
x = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
r = W(lambda: get_numerical_jacobian(lambda ts: (ts[0] * ts[0],), (x,)))
print(r)
r = W(lambda: get_analytical_jacobian((x,), x * x))
print(r)
E(lambda: gradcheck(lambda t: t * 2, (x,), check_grad_dtypes=True))
class WrongDtype(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t * 2
    @staticmethod
    def backward(ctx, g):
        return (g * 2).float()
E(lambda: gradcheck(WrongDtype.apply, (x,), check_grad_dtypes=True))
print(gradcheck(WrongDtype.apply, (x,)))
E(lambda: gradcheck(lambda t: t * 2, (x.detach(),)))
E(lambda: gradcheck(lambda t: t * 2, ()))
E(lambda: gradcheck(lambda t: 3, (x,)))
E(lambda: gradcheck(lambda t: t.int(), (x,)))
E(lambda: gradcheck(lambda t: (t * 2, t.int()), (x,)))
print(gradcheck(lambda t: t * 2, (x, 3, 'a')) if False else '')
E(lambda: gradcheck(lambda t, k: t * k, (x, 3)))
E(lambda: gradgradcheck(lambda t: t * 2, (x,), gen_non_contig_grad_outputs=True))
E(lambda: gradgradcheck(lambda t: t.detach() ** 2 + t, (x,)))
E(lambda: gradcheck(lambda t: t.abs(), (torch.tensor([0.0, 1.0], dtype=torch.float64, requires_grad=True),)))
'''

PROGRAMS['gc_complex_wrong_backward_messages'] = PRE + r'''
from torch.autograd.gradcheck import gradcheck
z = torch.tensor([1 + 1j, 2 - 0.5j], dtype=torch.complex128, requires_grad=True)
class BadComplex(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return t * t
    @staticmethod
    def backward(ctx, g):
        t, = ctx.saved_tensors
        return g * 2 * t
E(lambda: gradcheck(BadComplex.apply, (z,)))
E(lambda: gradcheck(BadComplex.apply, (z,), fast_mode=True))
class BadReal(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t.abs() ** 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
E(lambda: gradcheck(lambda t: BadReal.apply(t), (z,)))
'''

PROGRAMS['in_saved_attribute_dump_losses_activations'] = PRE + r'''
F = torch.nn.functional
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
t = torch.randint(0, 4, (3,))
y = torch.rand(3, 4)
outs = {
    'sub_alpha': torch.sub(x, x * 2, alpha=3), 'rsub': 1 - x, 'mul_int': x * 3, 'mul_cplx': x * (1 + 2j), 'div_int': x / 2, 'pow_int': x ** 3, 'rpow': 2 ** x,
    'leaky': F.leaky_relu(x, 0.1), 'threshold': F.threshold(x, 0.1, 20.), 'gelu_tanh': F.gelu(x, approximate='tanh'), 'gelu': F.gelu(x),
    'elu': F.elu(x, alpha=0.5), 'selu': F.selu(x), 'celu': F.celu(x, 2.0), 'softplus': F.softplus(x, beta=2, threshold=10), 'hardtanh': F.hardtanh(x, -0.5, 0.5),
    'softmax_neg': F.softmax(x, -1), 'log_softmax': F.log_softmax(x, 1), 'ce': F.cross_entropy(x, t, label_smoothing=0.1), 'ce_ignore': F.cross_entropy(x, t, ignore_index=2),
    'nll_w': F.nll_loss(x, t, weight=torch.ones(4), reduction='sum'), 'mse': F.mse_loss(x, y), 'l1': F.l1_loss(x, y, reduction='none'),
    'smooth_l1': F.smooth_l1_loss(x, y, beta=0.5), 'huber': F.huber_loss(x, y, delta=2.0), 'bce': F.binary_cross_entropy(x.sigmoid(), y, weight=torch.ones(4)),
    'bcel': F.binary_cross_entropy_with_logits(x, y, pos_weight=torch.ones(4)), 'kl': F.kl_div(x, y, reduction='batchmean', log_target=False),
    'hinge': F.hinge_embedding_loss(x, torch.ones(3, 4)), 'soft_margin': F.soft_margin_loss(x, torch.ones(3, 4)), 'glu': F.glu(x, -1),
    'logsig': F.logsigmoid(x), 'hardswish': F.hardswish(x), 'hardsig': F.hardsigmoid(x), 'mish': F.mish(x), 'rrelu': F.rrelu(x, training=False),
    'prelu': F.prelu(x, torch.tensor([0.25])), 'softshrink': F.softshrink(x, 0.3), 'hardshrink': F.hardshrink(x, 0.3), 'tanhshrink': F.tanhshrink(x),
    'dropout_eval': F.dropout(x, 0.5, training=False), 'layer_norm': F.layer_norm(x, (4,), eps=1e-3), 'group_norm': F.group_norm(x.view(3, 4, 1), 2),
    'pad': F.pad(x, (1, 2), value=0.5), 'pad_reflect': F.pad(x.view(1, 3, 4), (1, 1), mode='reflect'), 'embedding': F.embedding(t, x),
    'one_hot_mul': F.one_hot(t, 4) * x, 'cos_sim': F.cosine_similarity(x, y), 'pdist': F.pairwise_distance(x, y, p=3), 'margin': F.margin_ranking_loss(x[0], x[1], torch.ones(4)),
    'triplet': F.triplet_margin_loss(x, y, y.flip(0)), 'poisson': F.poisson_nll_loss(x, y), 'gauss': F.gaussian_nll_loss(x, y, torch.ones(3, 4)),
    'multilabel': F.multilabel_soft_margin_loss(x, y), 'multimargin': F.multi_margin_loss(x, t),
}
for k, o in outs.items():
    fn = o.grad_fn
    vals = []
    for n in [n for n in dir(fn) if n.startswith('_saved_')]:
        try:
            v = getattr(fn, n)
        except Exception as e:
            v = type(e).__name__
        if isinstance(v, torch.Tensor):
            v = ('T', tuple(v.shape), str(v.dtype))
        vals.append((n, v))
    print(k, type(fn).__name__, vals)
'''

PROGRAMS['af_functional_argument_errors'] = PRE + r'''
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp
x = torch.ones(2)
E(lambda: jacobian(lambda t: t * 2, 3))
E(lambda: jacobian(lambda t: t * 2, [x]))
E(lambda: jacobian(lambda t: t * 2, (x, 3)))
E(lambda: jacobian(lambda t: t * 2, x, vectorize='yes'))
E(lambda: hessian(lambda t: t.sum(), x, outer_jacobian_strategy='sideways'))
E(lambda: hessian(lambda t: t.sum(), x, vectorize=False, outer_jacobian_strategy='forward-mode'))
E(lambda: vjp(lambda t: t * 2, x, 3))
E(lambda: vjp(lambda t: t * 2, x, (torch.ones(2), torch.ones(2))))
E(lambda: jvp(lambda t: t * 2, x, [torch.ones(2)]))
E(lambda: jvp(lambda t: t * 2, (x, x), (torch.ones(2),)))
E(lambda: hvp(lambda t: t.sum(), x, None))
E(lambda: vhp(lambda t: (t ** 2).sum(), x, torch.ones(3)))
E(lambda: vhp(lambda t: t ** 2, x, torch.ones(2)))
E(lambda: vhp(lambda t: (t, t), x, torch.ones(2)))
E(lambda: vhp(lambda t: (t ** 3).sum(), x))
print(hvp(lambda t: (t ** 3).sum(), torch.tensor([2.0]), None))
E(lambda: jacobian(lambda t: t * 2, x, create_graph=True, strict=True, vectorize=True))
print(jacobian(lambda *ts: ts[0] * ts[1], (x, x * 3)))
print(hessian(lambda a, b: (a * b * b).sum(), (x, x * 3), create_graph=True)[1][1])
print(jacobian(lambda t: t.unsqueeze(0), torch.tensor(2.0)))
print(jacobian(lambda t: t.sum(), torch.tensor(2.0)))
print(jacobian(lambda t: t * 0 + 1, torch.ones(2), strategy='forward-mode', vectorize=True))
print(jacobian(lambda t: torch.zeros(()), torch.ones(2)))
'''

PROGRAMS['nn_old_backward_hook_warnings'] = PRE + r'''
torch.manual_seed(0)
lin = torch.nn.Linear(3, 2)
def old_hook(mod, gi, go):
    print('old', type(mod).__name__, [None if g is None else tuple(g.shape) for g in gi], [tuple(g.shape) for g in go])
h = lin.register_backward_hook(old_hook)
x = torch.randn(4, 3, requires_grad=True)
W(lambda: lin(x).sum().backward())
h.remove()
seq = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU())
seq.register_backward_hook(old_hook)
W(lambda: seq(x).sum().backward())
m = torch.nn.ReLU()
m.register_backward_hook(old_hook)
W(lambda: m(x * 1).sum().backward())
m2 = torch.nn.Tanh()
m2.register_backward_hook(old_hook)
E(lambda: m2.register_full_backward_hook(old_hook))
'''

PROGRAMS['nn_full_backward_hook_two_inputs'] = PRE + r'''
class TwoIn(torch.nn.Module):
    def forward(self, a, b, scale=1.0):
        return a * b * scale, a + b
m = TwoIn()
def full(mod, gi, go):
    print('full', [None if g is None else g.tolist() for g in gi], [None if g is None else g.tolist() for g in go])
m.register_full_backward_hook(full)
m.register_full_backward_pre_hook(lambda mod, go: print('pre', [None if g is None else g.tolist() for g in go]))
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.])
p, q = m(a, b, scale=2.0)
(p.sum() * 2).backward()
print(a.grad)
p, q = m(a, b)
print(p.grad_fn, q.grad_fn)
(p + q).sum().backward()
print(a.grad)
c = torch.tensor([1., 2.])
p, q = m(c, b)
print(p.requires_grad)
'''

PROGRAMS['vc_version_bumps_per_inplace_kind'] = PRE + r'''
torch.manual_seed(0)
x = torch.zeros(3, 4)
def step(name, f):
    before = x._version
    try:
        f()
        print(name, x._version - before)
    except Exception as e:
        print(name, type(e).__name__, e)
step('setitem int', lambda: x.__setitem__(0, 5))
step('setitem slice tensor', lambda: x.__setitem__((slice(None), 0), torch.ones(3)))
step('setitem mask', lambda: x.__setitem__(x > 3, 1.0))
step('setitem list', lambda: x.__setitem__([0, 2], 2.0))
step('setitem ellipsis', lambda: x.__setitem__(Ellipsis, 0.5))
step('setitem tuple tensors', lambda: x.__setitem__((torch.tensor([0, 1]), torch.tensor([1, 2])), 7.0))
step('index_put_', lambda: x.index_put_((torch.tensor([0]),), torch.tensor(3.0)))
step('index_put_ accumulate', lambda: x.index_put_((torch.tensor([0, 0]),), torch.tensor(3.0), accumulate=True))
step('masked_fill_', lambda: x.masked_fill_(x > 1, 0.))
step('copy_', lambda: x.copy_(torch.ones(3, 4)))
step('fill_', lambda: x.fill_(2))
step('zero_', lambda: x.zero_())
step('clamp_', lambda: x.clamp_(min=0))
step('iadd', lambda: x.__iadd__(1))
step('chain', lambda: x.add_(1).mul_(2))
step('data setitem', lambda: x.data.__setitem__(0, 1.0))
step('detach setitem', lambda: x.detach().__setitem__(0, 1.0))
step('init normal', lambda: torch.nn.init.normal_(x))
step('init zeros', lambda: torch.nn.init.zeros_(x))
step('init xavier', lambda: torch.nn.init.xavier_uniform_(x))
step('init kaiming', lambda: torch.nn.init.kaiming_normal_(x))
step('init orthogonal', lambda: torch.nn.init.orthogonal_(x))
step('init eye', lambda: torch.nn.init.eye_(x))
step('init constant', lambda: torch.nn.init.constant_(x, 0.3))
step('init trunc', lambda: torch.nn.init.trunc_normal_(x))
step('uniform_', lambda: x.uniform_())
step('bernoulli_', lambda: x.bernoulli_(0.5))
step('random_', lambda: x.random_(0, 10))
step('exponential_', lambda: x.exponential_())
step('t_', lambda: x.t_())
step('t_ back', lambda: x.t_())
step('unsqueeze_', lambda: x.unsqueeze_(0))
step('squeeze_', lambda: x.squeeze_(0))
step('transpose_', lambda: x.transpose_(0, 1))
step('as_strided_', lambda: x.as_strided_((3, 4), (4, 1)))
step('resize_', lambda: x.resize_(3, 4))
step('requires_grad_', lambda: x.requires_grad_())
step('index_add_', lambda: x.detach().index_add_(0, torch.tensor([0]), torch.ones(1, 4)))
step('scatter_', lambda: x.detach().scatter_(0, torch.tensor([[0, 1, 2, 0]]), 1.0))
step('put_', lambda: x.detach().put_(torch.tensor([0]), torch.tensor([9.])))
step('set_', lambda: x.detach().set_(torch.ones(2)))
step('add out=', lambda: torch.add(torch.ones(3, 4), 1, out=x.detach()))
step('exp out=', lambda: torch.exp(torch.ones(3, 4), out=x.detach()))
'''

# fixed: inspect.signature(torch.no_grad) showed an orig_func parameter
PROGRAMS['in_api_signatures_names_and_defaults'] = PRE + r'''
import inspect
import torch.autograd.functional, torch.autograd.graph, torch.autograd.forward_ad, torch.utils.checkpoint
fns = {'backward': torch.autograd.backward, 'grad': torch.autograd.grad, 'Tensor.backward': torch.Tensor.backward,
       'register_hook': torch.Tensor.register_hook, 'register_post_accumulate_grad_hook': torch.Tensor.register_post_accumulate_grad_hook,
       'gradcheck': torch.autograd.gradcheck, 'gradgradcheck': torch.autograd.gradgradcheck,
       'jacobian': torch.autograd.functional.jacobian, 'hessian': torch.autograd.functional.hessian, 'vjp': torch.autograd.functional.vjp,
       'jvp': torch.autograd.functional.jvp, 'hvp': torch.autograd.functional.hvp, 'vhp': torch.autograd.functional.vhp,
       'checkpoint': torch.utils.checkpoint.checkpoint, 'checkpoint_sequential': torch.utils.checkpoint.checkpoint_sequential,
       'saved_tensors_hooks': torch.autograd.graph.saved_tensors_hooks, 'register_multi_grad_hook': torch.autograd.graph.register_multi_grad_hook,
       'make_dual': torch.autograd.forward_ad.make_dual, 'unpack_dual': torch.autograd.forward_ad.unpack_dual,
       'Function.apply': torch.autograd.Function.apply, 'detect_anomaly': torch.autograd.detect_anomaly, 'set_detect_anomaly': torch.autograd.set_detect_anomaly,
       'no_grad': torch.no_grad, 'set_grad_enabled': torch.set_grad_enabled, 'inference_mode': torch.inference_mode,
       'save_on_cpu': torch.autograd.graph.save_on_cpu, 'increment_version': torch.autograd.graph.increment_version,
       'get_gradient_edge': torch.autograd.graph.get_gradient_edge, 'once_differentiable': torch.autograd.function.once_differentiable,
       'FunctionCtx.save_for_backward': torch.autograd.function.FunctionCtx.save_for_backward,
       'FunctionCtx.mark_dirty': torch.autograd.function.FunctionCtx.mark_dirty,
       'FunctionCtx.set_materialize_grads': torch.autograd.function.FunctionCtx.set_materialize_grads,
       'allow_mutation_on_saved_tensors': torch.autograd.graph.allow_mutation_on_saved_tensors,
       'disable_saved_tensors_hooks': torch.autograd.graph.disable_saved_tensors_hooks}
for k, f in fns.items():
    try:
        sig = inspect.signature(f)
        print(k, [(p.name, str(p.kind), p.default if p.default is inspect.Parameter.empty or not callable(p.default) else 'fn') for p in sig.parameters.values()])
    except Exception as e:
        print(k, type(e).__name__, e)
'''

PROGRAMS['in_profiler_backward_node_events'] = PRE + r'''
def nodes(prof):
    names = [e.name for e in prof.function_events]
    return [n for n in names if ('Backward' in n or n in ('AccumulateGrad', 'torch::autograd::AccumulateGrad')) and ':' not in n]
a = torch.ones(3, 3, requires_grad=True)
b = torch.ones(3, requires_grad=True)
with torch.autograd.profiler.profile() as prof:
    c = (a @ b).relu().log_softmax(0).sum()
    c.backward()
print(nodes(prof))
names = [e.name for e in prof.function_events]
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
with torch.autograd.profiler.profile() as prof:
    with torch.autograd.profiler.record_function('my_block'):
        d = Sq.apply(b).sum()
    d.backward()
names = [e.name for e in prof.function_events]
print(nodes(prof))
print('my_block' in names, 'Sq' in names, names.count('aten::mul'))
'''

PROGRAMS['in_mixed_dtype_binary_grads'] = PRE + r'''
torch.set_printoptions(precision=6)
pairs = [(torch.float32, torch.float64), (torch.float16, torch.float32), (torch.bfloat16, torch.float16), (torch.float32, torch.complex64),
         (torch.float64, torch.complex64), (torch.float16, torch.complex128), (torch.bfloat16, torch.float64)]
for d1, d2 in pairs:
    a = torch.tensor([1.5, -2.25], dtype=d1, requires_grad=True)
    b = torch.tensor([0.3, 0.7], dtype=d2, requires_grad=True)
    y = a * b + a / b
    print(d1, d2, y.dtype, y.grad_fn, y.grad_fn.next_functions)
    y.abs().sum().backward()
    print(a.grad, b.grad)
'''

PROGRAMS['in_python_scalar_and_int_others'] = PRE + r'''
a = torch.tensor([1.5, -2.25], requires_grad=True)
for other in [torch.tensor([2, 3]), torch.tensor([True, False]), 3, 2.5, 1 + 1j, torch.tensor(2, dtype=torch.int8), torch.tensor(0.5, dtype=torch.float64)]:
    a.grad = None
    y = a * other
    print(type(other).__name__ if not isinstance(other, torch.Tensor) else other.dtype, y.dtype, type(y.grad_fn).__name__)
    y.abs().sum().backward()
    print(a.grad, a.grad.dtype)
'''

PROGRAMS['in_to_dtype_nodes'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
for dt in [torch.float64, torch.float16, torch.complex64, torch.int32, torch.bool]:
    y = x.to(dt)
    print(dt, y.requires_grad, y.grad_fn, y.grad_fn.next_functions if y.grad_fn else None)
    if y.requires_grad:
        x.grad = None
        y.abs().sum().backward() if dt.is_complex else y.sum().backward()
        print(x.grad)
y = x.type(torch.float64)
print(y.grad_fn)
y = x.double().float()
print(y.grad_fn, y.grad_fn.next_functions)
print(x.float() is x, x.to(torch.float32) is x, x.to(torch.float32, copy=True) is x, x.to(torch.float32, copy=True).grad_fn)
'''

# fixed: a GradientEdge whose node is not a Node got the unused-input error, not PyTorch's parsing error
PROGRAMS['gr_gradient_edges_as_inputs'] = PRE + r'''
from torch.autograd.graph import GradientEdge, get_gradient_edge
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
z = y.exp()
ey = get_gradient_edge(y)
print(ey, type(ey).__name__, ey.node is y.grad_fn, ey.output_nr, len(ey))
print(torch.autograd.grad(z.sum(), ey, retain_graph=True))
print(torch.autograd.grad(z.sum(), [ey, x], retain_graph=True))
e2 = GradientEdge(y.grad_fn, 0)
print(e2.node is ey.node, e2 == ey if hasattr(e2, '__eq__') else None)
print(torch.autograd.grad(z.sum(), e2, retain_graph=True))
E(lambda: torch.autograd.backward(z.sum(), inputs=[ey], retain_graph=True))
print(x.grad, y.grad)
v = y[1:]
ev = get_gradient_edge(v)
print(ev.node, ev.output_nr)
print(torch.autograd.grad(z.sum(), ev, allow_unused=True, retain_graph=True))
print(torch.autograd.grad((v * 2).sum(), ev, retain_graph=True))
a, b = x.unbind()
eb = get_gradient_edge(b)
print(eb.node, eb.output_nr)
print(torch.autograd.grad((a + 2 * b), eb))
E(lambda: torch.autograd.grad(ey, x))
E(lambda: torch.autograd.grad(z.sum(), GradientEdge(None, 0)))
E(lambda: torch.autograd.backward(z.sum(), inputs=[GradientEdge(3, 0)]))
'''

PROGRAMS['in_default_dtype_float64_autograd'] = PRE + r'''
torch.set_default_dtype(torch.float64)
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.randn(2, 2, generator=torch.Generator().manual_seed(0), requires_grad=True)
y = (w @ x).tanh().sum()
print(x.dtype, w.dtype, y)
y.backward()
print(x.grad, w.grad)
f = torch.tensor([1., 2.], dtype=torch.float32, requires_grad=True)
z = f * x
print(z.dtype, z)
z.sum().backward()
print(f.grad, x.grad)
print(torch.autograd.functional.jacobian(lambda t: t ** 2, torch.tensor([1., 3.])))
print(torch.autograd.gradcheck(lambda t: t.sin(), (torch.tensor([0.3, 0.4], requires_grad=True),)))
lin = torch.nn.Linear(2, 1)
print(lin.weight.dtype)
print(torch.arange(3.).requires_grad_() * 2)
print(torch.tensor(3.5, requires_grad=True) ** 2)
'''

PROGRAMS['in_default_dtype_float16_autograd'] = PRE + r'''
torch.set_default_dtype(torch.float16)
x = torch.tensor([1., 2.], requires_grad=True)
print(x, x.dtype)
y = (x * 3).sum()
y.backward()
print(y, x.grad)
print(torch.ones(2, requires_grad=True) / 3)
'''

PROGRAMS['n0_walk_graph_cnn_train_and_eval'] = PRE + r'''
def walk(fn, depth=0, seen=None):
    seen = set() if seen is None else seen
    if fn is None:
        print('  ' * depth + 'None')
        return
    tag = type(fn).__name__
    if id(fn) in seen:
        print('  ' * depth + tag + ' (seen)')
        return
    seen.add(id(fn))
    extra = ''
    if tag == 'AccumulateGrad':
        extra = ' ' + str(tuple(fn.variable.shape))
    print('  ' * depth + tag + extra)
    for nxt, nr in fn.next_functions:
        walk(nxt, depth + 1, seen)
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3), torch.nn.BatchNorm2d(2), torch.nn.ReLU(), torch.nn.MaxPool2d(2), torch.nn.Flatten(),
                            torch.nn.Linear(8, 3), torch.nn.LayerNorm(3), torch.nn.GELU(), torch.nn.Dropout(0.1), torch.nn.Linear(3, 2))
x = torch.randn(2, 1, 6, 6)
loss = torch.nn.functional.cross_entropy(model(x), torch.tensor([0, 1]))
walk(loss.grad_fn)
model.eval()
loss = torch.nn.functional.cross_entropy(model(x), torch.tensor([0, 1]))
walk(loss.grad_fn)
'''

PROGRAMS['n0_dynamic_graph_loops_and_branches'] = PRE + r'''
def walk(fn, depth=0):
    if fn is None:
        return
    print('  ' * depth + type(fn).__name__)
    for nxt, nr in fn.next_functions:
        walk(nxt, depth + 1)
torch.manual_seed(1)
x = torch.randn(3, 4)
def f(x, w, n):
    h = x
    for i in range(n):
        h = torch.tanh(h @ w) if i % 2 == 0 else h.relu() + h
    if h.sum() > 0:
        return h.mean()
    return h.pow(2).sum()
w = torch.randn(4, 4, requires_grad=True)
for n in range(4):
    out = f(x, w, n)
    print(n, out.item())
    walk(out.grad_fn)
    w.grad = None
    if out.requires_grad:
        out.backward()
        print(w.grad.sum().item())
'''

PROGRAMS['n0_walk_graph_rnn_gru_embedding_attention'] = PRE + r'''
def walk(fn, depth=0):
    if fn is None:
        return
    print('  ' * depth + type(fn).__name__)
    for nxt, nr in fn.next_functions:
        walk(nxt, depth + 1)
torch.manual_seed(2)
rnn = torch.nn.RNN(2, 3, batch_first=True)
gru = torch.nn.GRUCell(2, 3)
x = torch.randn(1, 2, 2)
out, h = rnn(x)
walk(h.sum().grad_fn)
hc = gru(x[0])
walk(hc.sum().grad_fn)
emb = torch.nn.Embedding(5, 2)
walk(emb(torch.tensor([1, 2])).sum().grad_fn)
att = torch.nn.MultiheadAttention(4, 2, batch_first=True)
q = torch.randn(1, 2, 4)
o, wts = att(q, q, q)
walk(o.sum().grad_fn)
'''

PROGRAMS['in_parameter_autograd_rules'] = PRE + r'''
import copy
t = torch.ones(2, requires_grad=True) * 3
p = torch.nn.Parameter(t)
print(p, p.is_leaf, p.grad_fn, p.requires_grad, type(p).__name__)
print(type(p.detach()).__name__, type(p.clone()).__name__, type(p * 1).__name__, type(p.data).__name__, type(p[0]).__name__)
(p * 2).sum().backward()
print(p.grad, t.grad_fn)
q = copy.deepcopy(p)
print(q, q.grad, type(q).__name__, q is p)
p2 = torch.nn.Parameter(torch.ones(2), requires_grad=False)
print(p2, p2.requires_grad, p2.is_leaf)
E(lambda: (p2 * 2).sum().backward())
p3 = torch.nn.Parameter(torch.tensor([1, 2]), requires_grad=False)
print(p3)
E(lambda: torch.nn.Parameter(torch.tensor([1, 2])))
p.data = torch.zeros(2)
print(p, p.grad)
p.grad = torch.full((2,), 5.)
print(p.grad)
print(repr(torch.nn.Parameter(torch.zeros(0))), torch.nn.Parameter(torch.tensor(2.0)))
'''

PROGRAMS['nn_frozen_module_params'] = PRE + r'''
torch.manual_seed(0)
m = torch.nn.Linear(2, 2)
m.requires_grad_(False)
out = m(torch.ones(1, 2))
print(out.requires_grad, out.grad_fn)
E(lambda: out.sum().backward())
m.weight.requires_grad_(True)
out = m(torch.ones(1, 2))
print(out.grad_fn, out.grad_fn.next_functions)
out.sum().backward()
print(m.weight.grad, m.bias.grad)
for n, prm in m.named_parameters():
    print(n, prm.requires_grad, prm.grad is None, prm.is_leaf)
opt = torch.optim.SGD(m.parameters(), lr=1.0)
opt.step()
print(m.weight, m.bias)
opt.zero_grad()
print(m.weight.grad, m.bias.grad)
'''

PROGRAMS['in_complex_wirtinger_grads_and_views'] = PRE + r'''
z = torch.tensor([1 + 2j, -0.5 + 1j], requires_grad=True)
w = torch.tensor([[1 - 1j, 2j], [0.5, -1j]], requires_grad=True)
y = (w @ z).abs().pow(2).sum()
y.backward()
print(z.grad, w.grad)
print(z.grad.is_conj(), w.grad.dtype)
E(lambda: (w @ z).sum().backward())
z.grad = None
(z.conj() * z).real.sum().backward()
print(z.grad)
z.grad = None
z.angle().sum().backward()
print(z.grad)
z.grad = None
torch.view_as_real(z).pow(2).sum().backward()
print(z.grad)
z.grad = None
(z.exp() * z.conj()).imag.sum().backward()
print(z.grad)
z.grad = None
torch.fft.fft(z).abs().sum().backward()
print(z.grad)
c = z.conj()
print(c.grad_fn, c.grad_fn.next_functions)
r = z.real
print(r.grad_fn, r._is_view(), r._base is z)
E(lambda: r.add_(1))
zz = z * 1
zz.real.mul_(2)
print(zz, zz.grad_fn)
z.grad = None
zz.abs().sum().backward()
print(z.grad)
'''

PROGRAMS['in_complex_constructors_gradcheck'] = PRE + r'''
x = torch.tensor([0.5, -1.5], dtype=torch.float64, requires_grad=True)
c = torch.complex(x, x * 2)
print(c, c.grad_fn)
p = torch.polar(x.abs(), x)
print(p.grad_fn)
(c.abs() + p.angle()).sum().backward()
print(x.grad)
print(torch.autograd.gradcheck(lambda t: torch.complex(t, t * t).abs(), (x,)))
print(torch.autograd.gradcheck(lambda t: torch.view_as_complex(torch.stack([t, t.sin()], -1)), (x,)))
zz = torch.tensor([1 + 1j], dtype=torch.complex128, requires_grad=True)
print(torch.autograd.gradgradcheck(lambda t: (t * t.conj() * t).abs(), (zz,)))
E(lambda: torch.autograd.functional.jacobian(lambda t: t * (1 + 1j), x))
E(lambda: torch.autograd.functional.jacobian(lambda t: t * 2, zz))
'''

PROGRAMS['gm_backward_and_grad_under_no_grad_inference'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x ** 3
s = y.sum()
with torch.no_grad():
    s.backward(retain_graph=True)
print(x.grad)
with torch.no_grad():
    g, = torch.autograd.grad(s, x, create_graph=True, retain_graph=True)
print(g, g.requires_grad, g.grad_fn)
with torch.inference_mode():
    g, = torch.autograd.grad(s, x, retain_graph=True)
print(g, g.is_inference())
with torch.inference_mode():
    E(lambda: torch.autograd.grad(s, x, create_graph=True, retain_graph=True))
'''

PROGRAMS['fn_reentrant_grad_inside_backward'] = PRE + r'''
class Reentrant(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.detach() ** 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        with torch.enable_grad():
            xx = x.detach().requires_grad_()
            out = (xx ** 2).sum()
            gx, = torch.autograd.grad(out, xx)
        print('inner grad', gx, torch.is_grad_enabled())
        return g * gx
x = torch.tensor([1., 3.], requires_grad=True)
Reentrant.apply(x).sum().backward()
print(x.grad)
'''

PROGRAMS['hk_backward_inside_hook'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
def hook(g):
    E(lambda: (w * g).sum().backward())
    with torch.enable_grad():
        (w * g).sum().backward()
    print('in hook', w.grad, torch.is_grad_enabled())
    return g
y = x * 2
y.register_hook(hook)
y.sum().backward()
print(x.grad, w.grad)
'''

PROGRAMS['hk_hook_backwards_freed_graph'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
def bad_hook(g):
    y.sum().backward()
    return g
z = y * 3
z.register_hook(bad_hook)
E(lambda: z.sum().backward())
print(x.grad)
'''

PROGRAMS['in_print_tensors_with_history_options'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(8, requires_grad=True)
print(x)
print(x * 1000)
print(x * 1e-5)
print((x * 1e8).double())
print(x.view(2, 4).exp())
print(torch.randn(3, 30, requires_grad=True).sum(0))
print(torch.randn(1000, requires_grad=True) * 2)
torch.set_printoptions(linewidth=40)
print(x.view(2, 4) * 3)
print(x.double() * 3)
torch.set_printoptions(precision=2, sci_mode=True)
print(x[:3] * 1)
torch.set_printoptions(profile='short')
print(torch.randn(5, 5, requires_grad=True) @ torch.ones(5, 5))
torch.set_printoptions(profile='default')
print(torch.tensor([float('nan'), float('inf'), -0.0], requires_grad=True) * 1)
print(torch.tensor([1e-10, 1.0], requires_grad=True) * 1)
print(torch.tensor([[1 + 2j, 3.5 - 1j]], requires_grad=True) * 1)
print(torch.tensor(3.0, dtype=torch.float16, requires_grad=True) * 1)
print(torch.tensor([], requires_grad=True).view(0, 3) * 1)
print(str(x[:2] * 1), repr(x[:2]))
print(f'{(x[:2] * 1)}')
print('%s' % (x[0] * 1))
print(format(x[0] * 1, '.3f'))
E(lambda: format(x[:2] * 1, '.3f'))
'''

PROGRAMS['in_sparse_embedding_grads'] = PRE + r'''
torch.manual_seed(0)
emb = torch.nn.Embedding(5, 3, sparse=True)
idx = torch.tensor([[0, 2], [2, 4]])
out = emb(idx)
print(out.grad_fn, out.grad_fn.next_functions)
out.sum().backward()
g = emb.weight.grad
print(g.is_sparse, g.layout, g.shape)
print(g)
print(g.coalesce())
print(g.to_dense())
emb(torch.tensor([1])).sum().backward()
print(emb.weight.grad)
opt = torch.optim.SGD(emb.parameters(), lr=0.5)
opt.step()
print(emb.weight)
opt2 = torch.optim.SparseAdam(emb.parameters(), lr=0.1)
opt2.zero_grad()
emb(idx).pow(2).sum().backward()
opt2.step()
print(emb.weight)
E(lambda: torch.optim.Adam(emb.parameters()).step())
'''

PROGRAMS['rg_meta_gradient_through_lr'] = PRE + r'''
torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
lr = torch.tensor(0.1, requires_grad=True)
w1 = w.clone()
opt = torch.optim.SGD([w1], lr=lr, differentiable=True) if False else None
x = torch.randn(3)
loss = (w * x).sum() ** 2
g, = torch.autograd.grad(loss, w, create_graph=True)
w_new = w - lr * g
meta = (w_new * x).sum() ** 2
meta.backward()
print(lr.grad, w.grad)
'''

PROGRAMS['tr_sgd_variants_and_adam_maximize'] = PRE + r'''
torch.manual_seed(1)
p = torch.nn.Parameter(torch.randn(3))
for kw in [dict(maximize=True), dict(foreach=True), dict(foreach=False), dict(weight_decay=0.1, momentum=0.5, dampening=0.1)]:
    q = torch.nn.Parameter(p.detach().clone())
    opt = torch.optim.SGD([q], lr=0.1, **kw)
    for _ in range(3):
        opt.zero_grad()
        (q ** 2).sum().backward()
        opt.step()
    print(kw, q.data, opt.state_dict()['state'].keys())
q = torch.nn.Parameter(p.detach().clone())
opt = torch.optim.Adam([q], lr=0.1, maximize=True, amsgrad=True)
for _ in range(3):
    opt.zero_grad()
    (q ** 2).sum().backward()
    opt.step()
print(q.data, sorted(opt.state[q].keys()), opt.state[q]['step'])
'''

PROGRAMS['tr_optimizer_hooks_closure_param_groups'] = PRE + r'''
torch.manual_seed(2)
p = torch.nn.Parameter(torch.randn(2))
opt = torch.optim.SGD([p], lr=0.1)
E(lambda: opt.step())
print(p.grad)
(p * 2).sum().backward()
h = opt.register_step_pre_hook(lambda o, a, k: print('pre step', p.grad))
h2 = opt.register_step_post_hook(lambda o, a, k: print('post step', p.data))
opt.step()
h.remove(); h2.remove()
opt.zero_grad(set_to_none=True)
print(p.grad)
def closure():
    opt.zero_grad()
    l = (p ** 2).sum()
    l.backward()
    return l
print(opt.step(closure))
print(opt.param_groups[0]['lr'], len(opt.param_groups[0]['params']))
opt.add_param_group({'params': [torch.nn.Parameter(torch.ones(1))], 'lr': 0.5})
print([g['lr'] for g in opt.param_groups])
E(lambda: opt.add_param_group({'params': [p]}))
'''

PROGRAMS['tr_distributions_rsample_log_prob_reinforce'] = PRE + r'''
torch.manual_seed(0)
mu = torch.tensor([0.5, -0.2], requires_grad=True)
log_std = torch.tensor([0.0, -1.0], requires_grad=True)
d = torch.distributions.Normal(mu, log_std.exp())
s = d.rsample()
print(s, s.grad_fn)
lp = d.log_prob(s.detach()).sum()
print(lp, lp.grad_fn)
(lp * 2.0).backward(retain_graph=True)
print(mu.grad, log_std.grad)
mu.grad = None; log_std.grad = None
d.entropy().sum().backward(retain_graph=True)
print(mu.grad, log_std.grad)
E(lambda: d.sample().requires_grad)
logits = torch.tensor([0.1, 0.5, -0.3], requires_grad=True)
c = torch.distributions.Categorical(logits=logits)
a = c.sample()
loss = -c.log_prob(a) * 1.5
loss.backward()
print(a, logits.grad)
b = torch.distributions.Bernoulli(probs=torch.tensor(0.3, requires_grad=True))
print(b.log_prob(torch.tensor(1.)).grad_fn)
kl = torch.distributions.kl_divergence(d, torch.distributions.Normal(torch.zeros(2), torch.ones(2)))
print(kl, kl.grad_fn)
u = torch.distributions.Uniform(torch.tensor(0.0, requires_grad=True), torch.tensor(2.0))
r = u.rsample((3,))
print(r.grad_fn)
r.sum().backward()
print(u.low.grad)
'''

PROGRAMS['in_common_student_warnings'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = W(lambda: torch.tensor(x))
print(y.requires_grad, y.grad_fn)
y = W(lambda: torch.tensor([x[0], x[1]]))
print(y, y.requires_grad)
y = W(lambda: torch.as_tensor(x))
print(y is x)
y = W(lambda: torch.tensor(x * 2, requires_grad=True))
print(y.requires_grad, y.is_leaf)
m = torch.ones(3, 2, 2, requires_grad=True)
W(lambda: m.T)
W(lambda: x.T)
W(lambda: torch.nn.functional.softmax(m))
W(lambda: torch.nn.functional.log_softmax(x))
out = W(lambda: torch.nn.functional.mse_loss(x.view(3, 1), torch.ones(3)))
print(out)
out = W(lambda: torch.nn.functional.l1_loss(x, torch.ones(1, 3)))
print(out)
E(lambda: W(lambda: torch.nn.functional.binary_cross_entropy(x.sigmoid(), torch.ones(3, 1))))
W(lambda: torch.nn.functional.smooth_l1_loss(x, torch.ones(2, 3)))
torch.manual_seed(0)
p = torch.nn.Parameter(torch.ones(2))
opt = torch.optim.SGD([p], lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, 1)
W(lambda: sched.step())
print(sched.get_last_lr())
W(lambda: torch.nn.functional.sigmoid(x))
W(lambda: torch.nn.functional.tanh(x))
W(lambda: torch.norm(x, p='fro'))
E(lambda: W(lambda: x.resize_(3)))
W(lambda: torch.nn.utils.clip_grad_norm(iter([p]), 1.0))
'''

PROGRAMS['hk_unbind_outputs_and_inplace_rehook'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
a, b, c = x.unbind()
a.register_hook(lambda g: print('a hook', g))
b.register_hook(lambda g: print('b hook', g))
b.retain_grad()
(a * 2 + c).backward()
print(x.grad, b.grad)
y = x * 1
y.register_hook(lambda g: print('before inplace', g))
y.mul_(2)
y.register_hook(lambda g: print('after inplace', g))
y.retain_grad()
y.sum().backward()
print(y.grad)
z = x * 1
v = z[:2]
v.register_hook(lambda g: print('view hook', g))
z.add_(1)
(v * 5).sum().backward()
w = torch.ones(2, requires_grad=True)
w.register_hook(lambda g: print('leaf hook', g))
with torch.no_grad():
    w.mul_(3)
(w * w).sum().backward()
print(w.grad)
'''

PROGRAMS['hk_sort_max_chunk_outputs'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
vals, idx = x.sort()
vals.register_hook(lambda g: print('vals hook', g))
print(idx.requires_grad)
E(lambda: idx.register_hook(lambda g: g))
s, m = torch.max(x * torch.tensor([[1.], [2.]]), 0)
s.retain_grad()
s.sum().backward()
print(s.grad, x.grad)
u, v = (x * 1).chunk(2)
u.register_hook(lambda g: print('u', g))
v.register_hook(lambda g: print('v', g))
u.sum().backward()
print(x.grad)
'''

PROGRAMS['n0_loss_dtype_and_shape_mistakes'] = PRE + r'''
torch.manual_seed(0)
F = torch.nn.functional
z = torch.randn(4, 3, generator=torch.Generator().manual_seed(0), requires_grad=True)
E(lambda: F.binary_cross_entropy_with_logits(z, torch.zeros(4, 3, dtype=torch.long)))
E(lambda: F.binary_cross_entropy_with_logits(z, torch.zeros(4, 3, dtype=torch.float64)))
E(lambda: F.binary_cross_entropy(z.sigmoid(), torch.zeros(4, 3, dtype=torch.long)))
E(lambda: F.binary_cross_entropy_with_logits(z, torch.zeros(4)))
E(lambda: F.cross_entropy(z, torch.tensor([0, 1, 2, 1], dtype=torch.int32)))
E(lambda: F.cross_entropy(z, torch.tensor([0, 1, 2, 3])))
E(lambda: F.cross_entropy(z, torch.tensor([0., 1., 2., 1.])))
E(lambda: F.cross_entropy(z, torch.tensor([[0], [1], [2], [1]])))
E(lambda: F.nll_loss(z, torch.tensor([0, 1, 2])))
E(lambda: F.nll_loss(z.log_softmax(1), torch.tensor([0, 1, 2, -1])))
E(lambda: F.mse_loss(z, torch.zeros(4, 3, dtype=torch.long)))
E(lambda: F.mse_loss(z, torch.zeros(4, 3, dtype=torch.float64)).dtype)
E(lambda: F.l1_loss(z.double(), torch.zeros(4, 3)).dtype)
E(lambda: F.cross_entropy(z.double(), torch.tensor([0, 1, 2, 1])).dtype)
E(lambda: F.cross_entropy(z, torch.rand(4, 3).softmax(1)).grad_fn)
E(lambda: F.cross_entropy(z, torch.rand(4, 3, dtype=torch.float64).softmax(1)))
E(lambda: torch.matmul(torch.ones(5, dtype=torch.int64), z[:, :1].t().expand(5, 4).t().t()))
E(lambda: torch.ones(5, dtype=torch.int64) @ torch.ones(5, 3))
E(lambda: torch.ones(5) @ torch.ones(5, 3, dtype=torch.float64))
E(lambda: torch.nn.Linear(3, 2)(torch.ones(2, 3, dtype=torch.float64)))
E(lambda: torch.nn.Linear(3, 2)(torch.ones(2, 3, dtype=torch.long)))
E(lambda: torch.nn.Linear(3, 2)(torch.ones(2, 4)))
'''

PROGRAMS['in_grad_that_requires_grad_accumulation'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
(x * 2).sum().backward()
x.grad = x.grad * x
print(x.grad, x.grad.requires_grad, x.grad.grad_fn)
E(lambda: (x * 3).sum().backward())
print(x.grad)
x.grad = torch.zeros(2, requires_grad=True)
E(lambda: (x * 3).sum().backward())
print(x.grad)
x.grad = None
(x * 2).sum().backward(create_graph=True)
print(x.grad, x.grad.grad_fn)
(x ** 3).sum().backward(create_graph=True)
print(x.grad, x.grad.grad_fn, x.grad.grad_fn.next_functions)
(x * 5).sum().backward()
print(x.grad, x.grad.grad_fn)
'''

PROGRAMS['in_grad_tensor_detach_and_requires_grad'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
(x * 2).sum().backward()
g = x.grad
E(lambda: g.requires_grad_())
print(g.requires_grad, g.is_leaf)
(x * 2).sum().backward()
print(x.grad, x.grad is g)
x.grad.data.zero_()
print(x.grad)
x.grad.detach_()
x.grad.requires_grad_(False)
(x ** 2).sum().backward()
print(x.grad)
'''

PROGRAMS['in_node_attributes_builtin_and_custom'] = PRE + r'''
x = torch.ones(2, 3, requires_grad=True)
y = (x * 2).sum(0)
fn = y.grad_fn
E(lambda: fn.requires_grad)
E(lambda: fn.next_functions[0][0].requires_grad)
E(lambda: fn.next_functions[0][0].next_functions[0][0].requires_grad)
E(lambda: fn._sequence_nr() > 0)
E(lambda: fn.name())
E(lambda: fn.next_functions[0][0].next_functions[0][0].name())
E(lambda: type(fn.next_functions))
E(lambda: fn.metadata)
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
o = F.apply(x)
E(lambda: o.grad_fn.requires_grad)
E(lambda: o.grad_fn.name())
E(lambda: o.grad_fn.next_functions)
E(lambda: o.grad_fn.metadata)
E(lambda: o.grad_fn.needs_input_grad)
E(lambda: o.grad_fn.saved_tensors)
E(lambda: o.grad_fn.to_save)
E(lambda: o.grad_fn.non_differentiable)
E(lambda: o.grad_fn.dirty_tensors)
E(lambda: o.grad_fn.saved_variables)
E(lambda: type(o.grad_fn).__name__)
E(lambda: o.grad_fn._forward_cls)
E(lambda: o.grad_fn.__class__._forward_cls is F)
'''

# fixed: torch.autograd.__all__ was not PyTorch's list (variable, NestedIOFunction, enforce_grad_layout_policy were missing)
PROGRAMS['in_autograd_package_contents'] = PRE + r'''
import importlib
print(torch.autograd.__all__)
print(all(hasattr(torch.autograd, n) for n in torch.autograd.__all__))
print(torch.autograd.function.__all__)
print(torch.autograd.grad_mode.__all__)
print(torch.autograd.NestedIOFunction, torch.autograd.enforce_grad_layout_policy)
E(lambda: torch.autograd.variable(torch.ones(2)))
for sub in ["anomaly_mode", "function", "functional", "grad_mode", "gradcheck", "profiler", "variable", "graph", "forward_ad"]:
    module = importlib.import_module(f"{torch.autograd.__name__}.{sub}")
    print(sub, module.__name__.split('.', 1)[1])
from torch.autograd.variable import Variable
print(Variable)
p = torch.empty(2, 3, 4).permute(2, 0, 1).requires_grad_()
g = torch.ones(4, 2, 3)
with torch.autograd.enforce_grad_layout_policy(False):
    (p * g).sum().backward()
print(p.grad.stride(), p.stride())
p.grad = None
(p * g).sum().backward()
print(p.grad.stride())
p.grad = None
torch.autograd.enforce_grad_layout_policy(False)
(p * g).sum().backward()
print(p.grad.stride())
torch.autograd.enforce_grad_layout_policy(True)
p.grad = None
(p * g).sum().backward()
print(p.grad.stride())
'''

PROGRAMS['tr_finite_difference_check_by_hand'] = PRE + r'''
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1)).double()
x = torch.randn(5, 3, dtype=torch.float64)
y = torch.randn(5, 1, dtype=torch.float64)
loss_fn = torch.nn.MSELoss()
loss = loss_fn(model(x), y)
loss.backward()
eps = 1e-6
for name, p in model.named_parameters():
    num = torch.zeros_like(p)
    flat = p.data.view(-1)
    for i in range(flat.numel()):
        with torch.no_grad():
            old = flat[i].item()
            flat[i] = old + eps
            lp = loss_fn(model(x), y).item()
            flat[i] = old - eps
            lm = loss_fn(model(x), y).item()
            flat[i] = old
        num.view(-1)[i] = (lp - lm) / (2 * eps)
    err = (num - p.grad).abs().max().item()
    print(name, tuple(p.shape), p._version, err < 1e-8)
'''

PROGRAMS['n4_subgradients_at_kinks_many_functions'] = PRE + r'''
x = torch.linspace(-2, 2, 9, requires_grad=True)
fs = {'relu': torch.relu, 'abs': torch.abs, 'sign': torch.sign, 'round': torch.round, 'floor': torch.floor, 'clamp': lambda t: t.clamp(-1, 1),
      'max0': lambda t: torch.maximum(t, torch.zeros(9)), 'where': lambda t: torch.where(t > 0, t, -t), 'sqrt_abs': lambda t: t.abs().sqrt(),
      'hardtanh': torch.nn.functional.hardtanh, 'leaky': torch.nn.functional.leaky_relu, 'elu': torch.nn.functional.elu,
      'softplus': torch.nn.functional.softplus, 'sigmoid': torch.sigmoid, 'norm': lambda t: t.norm().expand(9), 'frac': torch.frac,
      'fmod': lambda t: torch.fmod(t, 1.5), 'remainder': lambda t: torch.remainder(t, 1.5), 'amax': lambda t: t.view(3, 3).amax(1).repeat(3),
      'median': lambda t: t.median().expand(9), 'sort': lambda t: t.sort(descending=True)[0], 'cummax': lambda t: t.cummax(0)[0],
      'logsumexp': lambda t: t.logsumexp(0).expand(9), 'prod': lambda t: t.prod().expand(9), 'hardswish': torch.nn.functional.hardswish,
      'relu6': torch.nn.functional.relu6, 'threshold': lambda t: torch.nn.functional.threshold(t, 0.5, -1.0), 'min0': lambda t: t.clamp(max=0),
      'cosh': torch.cosh, 'atan': torch.atan, 'asinh': torch.asinh, 'erf': torch.erf, 'log1p_abs': lambda t: t.abs().log1p()}
for k, f in fs.items():
    x.grad = None
    f(x).sum().backward()
    print(k, x.grad)
'''

PROGRAMS['ck_batchnorm_running_stats_twice'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
torch.manual_seed(0)
bn = torch.nn.BatchNorm1d(3)
x = torch.randn(4, 3, requires_grad=True)
for reentrant in (True, False):
    bn.reset_running_stats()
    y = checkpoint(bn, x, use_reentrant=reentrant)
    print(reentrant, bn.num_batches_tracked, bn.running_mean)
    y.sum().backward()
    print(reentrant, bn.num_batches_tracked, bn.running_mean, x.grad.abs().sum())
    x.grad = None
'''

PROGRAMS['ck_module_calls_reentrant_vs_not'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 3)
        self.calls = 0
    def forward(self, x):
        self.calls += 1
        return torch.relu(self.lin(x))
torch.manual_seed(1)
blk = Block()
x = torch.randn(2, 3)
y = checkpoint(blk, x, use_reentrant=False)
print(y.requires_grad, y.grad_fn is not None, blk.calls)
y.sum().backward()
print(blk.calls, blk.lin.weight.grad.sum().item())
y = W(lambda: checkpoint(blk, x, use_reentrant=True))
print(y.requires_grad, blk.calls)
E(lambda: y.sum().backward())
print(blk.lin.weight.grad.sum().item())
y = checkpoint(blk, x.requires_grad_(), use_reentrant=True)
y.sum().backward()
print(blk.calls, blk.lin.weight.grad.sum().item(), x.grad.sum().item())
'''

PROGRAMS['hk_exceptions_from_hooks_functions_checkpoint'] = PRE + r'''
class MyErr(Exception):
    pass
def boom(*a):
    raise MyErr('boom')
x = torch.ones(2, requires_grad=True)
y = x * 2
y.register_hook(boom)
E(lambda: y.sum().backward())
print(x.grad)
y = x * 2
y.grad_fn.register_prehook(boom)
E(lambda: y.sum().backward())
y = x * 2
y.grad_fn.register_hook(boom)
E(lambda: y.sum().backward())
print(x.grad)
h = x.register_post_accumulate_grad_hook(boom)
E(lambda: (x * 2).sum().backward())
print(x.grad)
h.remove()
with torch.autograd.graph.saved_tensors_hooks(boom, lambda t: t):
    E(lambda: x.exp())
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, boom):
    z = x.exp()
E(lambda: z.sum().backward())
E(lambda: z.grad_fn._saved_result)
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        raise MyErr('in forward')
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: F.apply(x))
class G(torch.autograd.Function):
    @staticmethod
    def forward(t):
        return t * 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        raise KeyError('setup')
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: G.apply(x))
class H(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t * 2
    @staticmethod
    def backward(ctx, g):
        raise IndexError('in backward')
E(lambda: H.apply(x).sum().backward())
with torch.autograd.detect_anomaly():
    E(lambda: W(lambda: H.apply(x).sum().backward()))
from torch.utils.checkpoint import checkpoint
n = [0]
def f(t):
    n[0] += 1
    if n[0] > 1:
        raise MyErr('recompute failed')
    return t.exp()
yy = checkpoint(f, x, use_reentrant=False)
E(lambda: yy.sum().backward())
n[0] = 0
yy = checkpoint(f, x, use_reentrant=True)
E(lambda: yy.sum().backward())
print(x.grad)
'''

PROGRAMS['gm_thread_local_modes_and_threaded_backward'] = PRE + r'''
import threading
x = torch.ones(2, requires_grad=True)
res = {}
def work(tag):
    res[tag] = (torch.is_grad_enabled(), torch.is_inference_mode_enabled(), (x * 2).requires_grad)
with torch.no_grad():
    t = threading.Thread(target=work, args=('in_no_grad',))
    t.start(); t.join()
    work('main_no_grad')
with torch.inference_mode():
    t = threading.Thread(target=work, args=('in_inference',))
    t.start(); t.join()
for k in sorted(res):
    print(k, res[k])
def bw():
    y = (x * 3).sum()
    y.backward()
ts = [threading.Thread(target=bw) for _ in range(3)]
for t in ts: t.start()
for t in ts: t.join()
print(x.grad)
print(torch.autograd.is_multithreading_enabled())
with torch.autograd.set_multithreading_enabled(False):
    print(torch.autograd.is_multithreading_enabled())
print(torch.autograd.is_multithreading_enabled())
with torch.autograd.set_detect_anomaly(True):
    t = threading.Thread(target=lambda: res.__setitem__('anom', torch.is_anomaly_enabled()))
    t.start(); t.join()
print(res['anom'])
'''

PROGRAMS['nn_parametrize_symmetric_cached'] = PRE + r'''
import torch.nn.utils.parametrize as P
class Sym(torch.nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)
torch.manual_seed(0)
lin = torch.nn.Linear(3, 3)
P.register_parametrization(lin, 'weight', Sym())
print(type(lin).__name__, lin.parametrizations.weight.original.shape)
w = lin.weight
print(w.grad_fn, torch.equal(w, w.t()))
x = torch.randn(2, 3)
lin(x).sum().backward()
print(lin.parametrizations.weight.original.grad)
with P.cached():
    a = lin.weight
    b = lin.weight
    print(a is b, a.grad_fn)
print(lin.weight is lin.weight)
E(lambda: setattr(lin, 'weight', torch.eye(3)))
print(lin.parametrizations.weight.original)
P.remove_parametrizations(lin, 'weight', leave_parametrized=True)
print(type(lin.weight).__name__, lin.weight.requires_grad, lin.weight.is_leaf)
'''

PROGRAMS['nn_weight_spectral_orthogonal_parametrizations'] = PRE + r'''
torch.manual_seed(1)
m = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(3, 2))
print(sorted(n for n, _ in m.named_parameters()))
out = m(torch.randn(4, 3)).pow(2).sum()
out.backward()
print(m.parametrizations.weight.original0.grad.flatten(), m.parametrizations.weight.original1.grad.flatten())
print(m.weight.grad_fn)
s = torch.nn.utils.parametrizations.spectral_norm(torch.nn.Linear(3, 3))
y = s(torch.randn(2, 3))
print(y.grad_fn, s.weight.grad_fn)
y.sum().backward()
print(s.parametrizations.weight.original.grad.abs().sum() > 0)
o = torch.nn.utils.parametrizations.orthogonal(torch.nn.Linear(3, 3))
q = o.weight
print(torch.allclose(q @ q.t(), torch.eye(3), atol=1e-5), q.grad_fn)
o(torch.randn(2, 3)).sum().backward()
print(o.parametrizations.weight.original.grad.shape)
'''

PROGRAMS['rg_double_vjp_trick_for_jvp'] = PRE + r'''
x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
f = lambda t: torch.stack([t[0] * t[1], t[1].sin(), t[2] ** 2 * t[0]])
y = f(x)
v = torch.zeros(3, requires_grad=True)
g, = torch.autograd.grad(y, x, v, create_graph=True)
print(g, g.grad_fn)
u = torch.tensor([1., 0., 0.])
jvp, = torch.autograd.grad(g, v, u)
print(jvp)
print(torch.autograd.functional.jvp(f, x.detach(), u)[1])
w = torch.ones(3, requires_grad=True)
g2, = torch.autograd.grad(f(x), x, w * 2, create_graph=True)
print(g2.grad_fn, g2.grad_fn.next_functions)
gw, = torch.autograd.grad(g2.sum(), w)
print(gw)
E(lambda: torch.autograd.grad(g2.sum(), w))
print(torch.autograd.grad(g2.sum(), [w, x], allow_unused=True, retain_graph=False) if False else '')
'''

PROGRAMS['n0_zero_grad_after_create_graph'] = PRE + r'''
torch.manual_seed(0)
m = torch.nn.Linear(2, 2)
x = torch.randn(3, 2)
W(lambda: (m(x) ** 2).sum().backward(create_graph=True))
print(m.weight.grad.grad_fn, m.bias.grad.requires_grad)
g = m.weight.grad
m.zero_grad(set_to_none=False)
print(m.weight.grad, m.weight.grad is g, g.grad_fn, g.requires_grad, g.is_leaf)
W(lambda: (m(x) ** 2).sum().backward(create_graph=True))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
opt.zero_grad(set_to_none=False)
print(m.bias.grad, m.bias.grad.grad_fn)
opt.zero_grad()
print(m.bias.grad)
p = torch.nn.Parameter(torch.ones(2))
p.grad = torch.ones(2, requires_grad=True)
opt2 = torch.optim.SGD([p], lr=0.1)
opt2.zero_grad(set_to_none=False)
print(p.grad, p.grad.requires_grad)
v = torch.ones(4)
p.grad = v[:2]
opt2.zero_grad(set_to_none=False)
print(p.grad, v, p.grad._base is v)
'''

PROGRAMS['rg_deep_chains_backward_and_free'] = PRE + r'''
x = torch.tensor([1.0], requires_grad=True)
y = x
for i in range(3000):
    y = y * 1.00001
print(y)
y.backward(retain_graph=True)
print(x.grad)
g, = torch.autograd.grad(y, x, create_graph=True)
print(g.grad_fn)
del y, g
z = x
for i in range(3000):
    z = z + 0.001
z.backward()
print(x.grad)
def depth(fn):
    d = 0
    while fn is not None and fn.next_functions:
        fn = fn.next_functions[0][0]
        d += 1
    return d
w = x.exp()
for i in range(300):
    w = w.sin() * 0.5 + w
print(depth(w.grad_fn))
'''

PROGRAMS['in_grad_layout_contract_cases'] = PRE + r'''
x = torch.ones(3, 4, requires_grad=True)
g = torch.ones(4).expand(3, 4)
x.backward(g)
print(x.grad.stride(), x.grad.is_contiguous(), x.grad.data_ptr() == g.data_ptr())
x.grad = None
gt = torch.arange(12.).view(4, 3).t()
x.backward(gt)
print(x.grad.stride(), x.grad.data_ptr() == gt.data_ptr())
x.grad = None
(x * 1).backward(gt)
print(x.grad.stride())
xt = torch.ones(4, 3).t().requires_grad_()
xt.backward(torch.arange(12.).view(3, 4))
print(xt.grad.stride())
xt.grad = None
(xt * 2).sum().backward()
print(xt.grad.stride())
c = torch.ones(2, 3, 4, 5).to(memory_format=torch.channels_last).requires_grad_()
(c * 2).sum().backward()
print(c.grad.stride(), c.grad.is_contiguous(memory_format=torch.channels_last))
c.grad = None
(c.contiguous() * 2).sum().backward()
print(c.grad.stride())
conv = torch.nn.Conv2d(3, 2, 3).to(memory_format=torch.channels_last)
out = conv(torch.ones(1, 3, 5, 5))
out.sum().backward()
print(conv.weight.stride(), conv.weight.grad.stride())
e = torch.ones(3, requires_grad=True)
ee = e.expand(4, 3)
ee.backward(torch.ones(4, 3))
print(e.grad.stride(), e.grad)
'''

# fixed: nn.Module.to(memory_format=...) left the parameters' layout unchanged
PROGRAMS['nn_module_to_channels_last'] = PRE + r'''
torch.manual_seed(0)
conv = torch.nn.Conv2d(3, 2, 3)
w = conv.weight
r = conv.to(memory_format=torch.channels_last)
print(r is conv, conv.weight is w, conv.weight.stride(), conv.bias.stride(), conv.weight.is_contiguous(memory_format=torch.channels_last))
out = conv(torch.randn(1, 3, 5, 5))
out.sum().backward()
print(conv.weight.grad.stride(), out.stride())
bn = torch.nn.BatchNorm2d(2).to(memory_format=torch.channels_last)
print(bn.weight.stride(), bn.running_mean.stride())
conv3 = torch.nn.Conv3d(1, 2, 2).to(torch.float64, memory_format=torch.channels_last_3d)
print(conv3.weight.dtype, conv3.weight.stride())
seq = torch.nn.Sequential(torch.nn.Conv2d(1, 1, 1), torch.nn.Linear(2, 2)).to(memory_format=torch.channels_last)
print(seq[0].weight.stride(), seq[1].weight.stride())
back = conv.to(memory_format=torch.contiguous_format)
print(back.weight.stride())
E(lambda: conv.to(torch.int32, memory_format=torch.channels_last))
E(lambda: conv.to(memory_format=torch.preserve_format).weight.stride())
'''

# fixed: x.to(memory_format=...) copied or aliased by is_contiguous, not by the layout the strides suggest (PyTorch's to_will_alias)
PROGRAMS['in_to_memory_format_alias_rules'] = PRE + r'''
a = torch.ones(3, 4).t()
b = a.to(memory_format=torch.contiguous_format)
print(b is a, b.stride())
c = torch.ones(2, 3, 4, 5).to(memory_format=torch.channels_last)
print(c.to(memory_format=torch.channels_last) is c, c.to(memory_format=torch.contiguous_format).stride())
d = torch.ones(2, 3, 4, 5).permute(0, 1, 3, 2)
print(d.to(memory_format=torch.contiguous_format) is d, d.to(memory_format=torch.channels_last).stride())
e = torch.ones(2, 3, 4, 5, 6).to(memory_format=torch.channels_last_3d)
print(e.stride(), e.to(memory_format=torch.channels_last_3d) is e, e.to(memory_format=torch.contiguous_format).stride())
f = torch.ones(2, 1, 2, 2)
print(f.to(memory_format=torch.channels_last).stride(), f.to(torch.float64, memory_format=torch.channels_last).stride())
x = torch.ones(3, 4, requires_grad=True).t()
y = x.to(memory_format=torch.contiguous_format)
print(y is x, y.grad_fn)
z = f.requires_grad_().to(memory_format=torch.channels_last)
print(z.grad_fn, z.stride())
'''

# fixed: torch.empty(..., memory_format=) was refused (unexpected keyword argument)
PROGRAMS['in_empty_memory_format'] = PRE + r'''
a = torch.empty(2, 3, 4, 5, memory_format=torch.channels_last)
print(a.stride(), a.shape, a.dtype, a.is_contiguous(memory_format=torch.channels_last))
b = torch.empty((2, 3, 4, 5, 6), memory_format=torch.channels_last_3d, dtype=torch.float64, requires_grad=True)
print(b.stride(), b.dtype, b.requires_grad, b.is_leaf)
print(torch.empty(2, 3, memory_format=torch.contiguous_format).stride())
print(torch.empty(2, 1, 2, 2, memory_format=torch.channels_last).stride())
E(lambda: torch.empty(2, 3, memory_format=torch.channels_last))
E(lambda: torch.empty(2, 3, 4, 5, memory_format=torch.channels_last_3d))
E(lambda: torch.empty(2, 3, 4, 5, memory_format=torch.preserve_format))
E(lambda: torch.empty(2, memory_format=3))
E(lambda: torch.empty(2, 3, 4, 5, memory_format='channels_last'))
c = torch.empty(1, 2, 3, 3, memory_format=torch.channels_last).fill_(1.0).requires_grad_()
(c * 2).sum().backward()
print(c.grad.stride())
'''

# fixed: adaptive_avg_pool2d/3d to size 1 of a channels_last input: PyTorch restrides the mean in place (AsStridedBackward1)
PROGRAMS['nn_adaptive_avg_pool_channels_last_shortcut'] = PRE + r'''
F = torch.nn.functional
torch.manual_seed(0)
x = torch.randn(2, 3, 4, 5).contiguous(memory_format=torch.channels_last).requires_grad_()
o = F.adaptive_avg_pool2d(x, 1)
print(o.grad_fn, o.grad_fn.next_functions, o.stride(), o._version, o._base)
print(o.grad_fn._saved_size, o.grad_fn._saved_stride, o.grad_fn._saved_storage_offset)
o.sum().backward()
print(x.grad.stride(), x.grad[0, 0, 0])
print(F.adaptive_avg_pool2d(x.detach().contiguous(), (1, 1)).grad_fn, F.adaptive_avg_pool2d(x, 2).stride())
x3 = torch.randn(2, 3, 2, 4, 5).contiguous(memory_format=torch.channels_last_3d).requires_grad_()
o3 = F.adaptive_avg_pool3d(x3, 1)
print(o3.grad_fn, o3.stride())
torch.manual_seed(1)
net = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(4, 2))
net = net.to(memory_format=torch.channels_last)
inp = torch.randn(2, 3, 6, 6).contiguous(memory_format=torch.channels_last)
out = net(inp)
print(out.grad_fn, out.grad_fn.next_functions)
h = net[:3](inp)
print(h.stride(), h.grad_fn, torch.flatten(h, 1).grad_fn, torch.flatten(h, 1).stride())
out.sum().backward()
print(net[0].weight.grad.stride(), net[0].weight.grad.sum().item())
with torch.no_grad():
    print(F.adaptive_avg_pool2d(x, 1).grad_fn, F.adaptive_avg_pool2d(x, 1).stride())
with torch.inference_mode():
    print(F.adaptive_avg_pool2d(x, 1).stride())
'''

PROGRAMS['in_channels_last_propagation_factories'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(2, 3, 4, 5)
xc = x.contiguous(memory_format=torch.channels_last)
for name, t in [('zeros_like', torch.zeros_like(xc)), ('zeros_like_c', torch.zeros_like(xc, memory_format=torch.contiguous_format)),
                ('empty_like_cl', torch.empty_like(x, memory_format=torch.channels_last)), ('ones_like_pres', torch.ones_like(x.permute(0, 2, 3, 1))),
                ('rand_like', torch.rand_like(xc)), ('full_like', torch.full_like(xc, 2.0)), ('clone_cl', x.clone(memory_format=torch.channels_last)),
                ('clone_pres', xc.clone()), ('add', xc + 1), ('add_mixed', xc + x), ('mul_mixed', x * xc), ('relu', xc.relu()),
                ('sum1', xc.sum(1, keepdim=True)), ('mean23', xc.mean((2, 3), keepdim=True)), ('softmax', xc.softmax(1)),
                ('contig_c1', torch.randn(2, 1, 2, 2).contiguous(memory_format=torch.channels_last)), ('cat', torch.cat([xc, xc], 1)),
                ('where', torch.where(xc > 0, xc, 0.)), ('to64', xc.double()), ('detach', xc.detach()), ('neg_', xc.clone().neg_())]:
    print(name, t.stride())
'''

PROGRAMS['in_channels_last_conv_grads'] = PRE + r'''
torch.manual_seed(1)
conv = torch.nn.Conv2d(3, 4, 3, padding=1)
x = torch.randn(2, 3, 5, 5).contiguous(memory_format=torch.channels_last).requires_grad_()
y = conv(x)
print(y.stride(), y.grad_fn)
y.sum().backward()
print(x.grad.stride(), conv.weight.grad.stride(), conv.bias.grad.stride())
bn = torch.nn.BatchNorm2d(4)
z = bn(y)
print(z.stride())
p = torch.nn.functional.max_pool2d(y, 2)
print(p.stride())
a = torch.nn.functional.adaptive_avg_pool2d(y, 1)
print(a.stride(), a.shape)
u = torch.nn.functional.interpolate(y, scale_factor=2, mode='nearest')
print(u.stride())
'''

PROGRAMS['in_to_and_type_conversions_nodes'] = PRE + r'''
x = torch.tensor([1.5, 2.5], requires_grad=True)
for name, f in [('to_self', lambda: x.to(x)), ('to_f64_t', lambda: x.to(torch.ones(1, dtype=torch.float64))), ('to_cpu', lambda: x.to('cpu')),
                ('to_cpu_copy', lambda: x.to('cpu', copy=True)), ('to_cpu_dt', lambda: x.to('cpu', torch.float64)),
                ('to_dt_copy', lambda: x.to(torch.float32, copy=True)), ('type_str', lambda: x.type('torch.DoubleTensor')),
                ('type_same', lambda: x.type(torch.float32)), ('type_none', lambda: x.type()), ('cpu', lambda: x.cpu()),
                ('float', lambda: x.float()), ('to_kw', lambda: x.to(dtype=torch.float16)), ('to_dev_kw', lambda: x.to(device='cpu', dtype=torch.float64)),
                ('to_pres', lambda: x.to(memory_format=torch.preserve_format)), ('new_tensor', lambda: x.new_tensor([1.])),
                ('as_tensor', lambda: torch.as_tensor(x, dtype=torch.float64)), ('type_as', lambda: x.type_as(torch.ones(1, dtype=torch.int64)))]:
    try:
        y = W(f)
        print(name, y is x if isinstance(y, torch.Tensor) else y, getattr(y, 'grad_fn', None), getattr(y, 'dtype', None), getattr(y, 'requires_grad', None))
    except Exception as e:
        print(name, type(e).__name__, e)
E(lambda: x.to('cuda'))
E(lambda: x.to(torch.float32, torch.float64))
E(lambda: x.to(3))
E(lambda: x.to('cpu', 'cpu'))
'''

PROGRAMS['in_leaf_layouts_times_ops_grad_strides'] = PRE + r'''
leaves = {
    't': lambda: torch.ones(3, 2).t().requires_grad_(),
    'strided': lambda: torch.empty_strided((2, 3), (1, 2)).fill_(1.).requires_grad_(),
    'expanded': lambda: torch.ones(3).expand(2, 3).requires_grad_(),
    'sliced': lambda: torch.ones(2, 6)[:, ::2].requires_grad_(),
    'perm3': lambda: torch.ones(2, 3, 4).permute(2, 0, 1).requires_grad_(),
    'cl': lambda: torch.ones(2, 3, 2, 2).contiguous(memory_format=torch.channels_last).requires_grad_(),
}
ops = {'sum': lambda t: t.sum(), 'mul': lambda t: (t * 2).sum(), 'exp': lambda t: t.exp().sum(), 'cont': lambda t: t.contiguous().sum(),
       'view_like': lambda t: t.reshape(-1).sum(), 'index': lambda t: t[0].sum(), 'mm': lambda t: (t.reshape(t.shape[0], -1) @ torch.ones(t[0].numel(), 1)).sum(),
       'twice': lambda t: (t * t).sum() + t.sum()}
for ln, mk in leaves.items():
    row = []
    for on, op in ops.items():
        x = mk()
        op(x).backward()
        row.append((on, x.grad.stride()))
    print(ln, mk().stride(), row)
'''

# fixed: register_multi_grad_hook(mode="any") on leaves raised during autograd.grad (it counted the tensors taking part)
PROGRAMS['gr_multi_grad_hook_passes_and_any_mode'] = PRE + r'''
from torch.autograd.graph import register_multi_grad_hook
a = torch.ones(2, requires_grad=True)
b = torch.ones(2, requires_grad=True)
c = a * 2
calls = []
h = register_multi_grad_hook((a, c), lambda gs: calls.append(['-' if g is None else g.tolist() for g in gs]))
y = (c * 3).sum() + (b * 4).sum()
y.backward(retain_graph=True)
print(calls)
calls.clear()
torch.autograd.grad(y, [b], retain_graph=True)
print(calls)
torch.autograd.grad(y, [c], retain_graph=True)
print(calls)
calls.clear()
y.backward(inputs=[a], retain_graph=True)
print(calls)
calls.clear()
(b * 2).sum().backward()
print(calls)
h.remove()
h.remove()
E(lambda: register_multi_grad_hook((a, torch.ones(2)), lambda gs: None))
hs = register_multi_grad_hook((a, b), lambda g: calls.append(('any', g.tolist())), mode='any')
calls.clear()
(a.sum() + b.sum()).backward()
print(calls)
torch.autograd.grad((a * b).sum(), b)
print(calls)
increment = torch.autograd.graph.increment_version
t = torch.ones(2)
u = torch.ones(2)
increment([t, u])
print(t._version, u._version)
increment((t,))
print(t._version)
with torch.inference_mode():
    it = torch.ones(1)
E(lambda: increment(it))
'''

PROGRAMS['gr_saved_hooks_odd_packs_and_what_is_saved'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: ('box', t.detach().clone()), lambda p: p[1] * 2):
    y = (x * x).sum()
y.backward()
print(x.grad)
x.grad = None
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t.double()):
    y = x.exp()
E(lambda: y.sum().backward())
print(x.grad, x.grad.dtype if x.grad is not None else None)
x.grad = None
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t[:2]):
    y = x.exp()
E(lambda: y.sum().backward())
x.grad = None
with torch.autograd.graph.saved_tensors_hooks(lambda t: None, lambda t: t):
    y = x.sin()
E(lambda: y.sum().backward())
seen = []
def pack(t):
    seen.append((tuple(t.shape), t.requires_grad, t.grad_fn is not None, t._version))
    return t
with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
    a = x * 1
    b = a.exp()
    a2 = a.relu()
    c = torch.nn.functional.linear(a.view(1, 3), torch.ones(2, 3, requires_grad=True))
    d = a.pow(2)
    e = torch.where(a > 1, a, 0.)
    f = a.sigmoid()
for s in seen:
    print(s)
'''

PROGRAMS['ck_checkpoint_sequential_segments'] = PRE + r'''
from torch.utils.checkpoint import checkpoint_sequential, checkpoint
torch.manual_seed(0)
layers = [torch.nn.Linear(3, 3), torch.nn.ReLU(), torch.nn.Linear(3, 3), torch.nn.Tanh()]
seq = torch.nn.Sequential(*layers)
x = torch.randn(2, 3, requires_grad=True)
for segs in (1, 2, 4):
    for reentrant in (True, False):
        x.grad = None
        seq.zero_grad()
        out = W(lambda: checkpoint_sequential(seq, segs, x, use_reentrant=reentrant))
        out.sum().backward()
        print(segs, reentrant, out.grad_fn.name(), x.grad.sum().item(), seq[0].weight.grad.sum().item())
E(lambda: checkpoint_sequential(seq, 0, x, use_reentrant=False))
E(lambda: checkpoint_sequential(seq, 9, x, use_reentrant=False).shape)
out = checkpoint_sequential(layers, 2, x, use_reentrant=False)
print(out.shape)
E(lambda: checkpoint_sequential(seq, 2, x))
'''

# fixed: ctx.save_for_forward accepted non-tensors (PyTorch asserts)
PROGRAMS['fn_save_for_forward_and_jvp'] = PRE + r'''
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)
        return x ** 3
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x ** 2 * g
    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return 3 * x ** 2 * t
fwAD = torch.autograd.forward_ad
x = torch.tensor([1., 2.], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 1.]))
    o = Cube.apply(d)
    print(fwAD.unpack_dual(o).tangent)
o = Cube.apply(x)
o.sum().backward()
print(x.grad)
print(torch.autograd.gradcheck(Cube.apply, (torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True),), check_forward_ad=True))
class NoSaveFwd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
    @staticmethod
    def jvp(ctx, t):
        print('saved in jvp', len(ctx.saved_tensors))
        return t * 2
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 1.]))
    E(lambda: fwAD.unpack_dual(NoSaveFwd.apply(d)).tangent)
class BadSaveFwd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(3)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
E(lambda: BadSaveFwd.apply(torch.ones(1, requires_grad=True)))
'''

# fixed: ctx.mark_dirty / mark_non_differentiable with non-tensors, set_materialize_grads with a non-bool, a hand-set ctx.to_save, and writing saved_tensors / metadata / next_functions / _saved_* on nodes: PyTorch's errors
PROGRAMS['fn_ctx_argument_checks_and_readonly_node_attrs'] = PRE + r'''
def make(body):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            out = x * 2
            body(ctx, x, out)
            return out
        @staticmethod
        def backward(ctx, g):
            return g * 2
    return F
x = torch.ones(2, requires_grad=True)
for b in [lambda ctx, x, o: ctx.mark_dirty(3), lambda ctx, x, o: ctx.mark_dirty(x, 3), lambda ctx, x, o: ctx.mark_non_differentiable(o, 'a'),
          lambda ctx, x, o: ctx.mark_non_differentiable(None), lambda ctx, x, o: ctx.set_materialize_grads(None),
          lambda ctx, x, o: ctx.set_materialize_grads(1), lambda ctx, x, o: ctx.set_materialize_grads(True, 1),
          lambda ctx, x, o: setattr(ctx, 'saved_tensors', 1), lambda ctx, x, o: setattr(ctx, 'saved_variables', 1),
          lambda ctx, x, o: setattr(ctx, 'needs_input_grad', 1), lambda ctx, x, o: setattr(ctx, 'materialize_grads', 1),
          lambda ctx, x, o: setattr(ctx, 'to_save', 1), lambda ctx, x, o: ctx.set_materialize_grads()]:
    try:
        o = make(b).apply(x)
        print('ok', o.requires_grad)
    except Exception as e:
        print(type(e).__name__, repr(str(e)))
o = make(lambda *a: None).apply(x)
for attr in ['saved_tensors', 'needs_input_grad', 'to_save', 'metadata', 'next_functions', 'materialize_grads']:
    E(lambda: setattr(o.grad_fn, attr, 1))
E(lambda: o.grad_fn.materialize_grads)
for fn in [(x * 2).grad_fn, (x * 2).grad_fn.next_functions[0][0], x.exp().grad_fn, x[0].grad_fn]:
    for a in ['metadata', 'next_functions', '_saved_self', '_saved_result', 'name']:
        E(lambda: setattr(fn, a, 1))
y = x.pow(3)
print(y.grad_fn._saved_self, y.grad_fn._saved_exponent)
y.grad_fn.metadata['k'] = 2
print(y.grad_fn.metadata)
'''

PROGRAMS['fn_ctx_methods_misuse_table'] = PRE + r'''
def make(body):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            out = x * 2
            body(ctx, x, out)
            return out
        @staticmethod
        def backward(ctx, g):
            return g * 2
    return F
x = torch.ones(2, requires_grad=True)
cases = {
    'dirty_int': lambda ctx, x, o: ctx.mark_dirty(3),
    'nondiff_int': lambda ctx, x, o: ctx.mark_non_differentiable(3),
    'nondiff_input': lambda ctx, x, o: ctx.mark_non_differentiable(x),
    'nondiff_none': lambda ctx, x, o: ctx.mark_non_differentiable(None),
    'mat_str': lambda ctx, x, o: ctx.set_materialize_grads('yes'),
    'mat_int': lambda ctx, x, o: ctx.set_materialize_grads(0),
    'save_list': lambda ctx, x, o: ctx.save_for_backward([x]),
    'save_none': lambda ctx, x, o: ctx.save_for_backward(None, x),
    'save_kw': lambda ctx, x, o: ctx.save_for_backward(t=x),
    'fwd_none': lambda ctx, x, o: ctx.save_for_forward(None),
    'attr_saved': lambda ctx, x, o: setattr(ctx, 'saved_tensors', (x,)),
    'needs_set': lambda ctx, x, o: setattr(ctx, 'needs_input_grad', (False,)),
}
for k, body in cases.items():
    try:
        o = make(body).apply(x)
        o.sum().backward()
        print(k, 'ok', o.requires_grad, x.grad)
    except Exception as e:
        print(k, type(e).__name__, e)
    x.grad = None
'''

PROGRAMS['fn_node_hooks_on_custom_function_two_outputs'] = PRE + r'''
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y, x + y
    @staticmethod
    def backward(ctx, g1, g2):
        x, y = ctx.saved_tensors
        return g1 * y + g2, g1 * x + g2
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.])
a, b = Sq.apply(x, y)
fn = a.grad_fn
fn.register_prehook(lambda go: print('pre', go))
fn.register_hook(lambda gi, go: print('post', gi, go))
a.sum().backward(retain_graph=True)
print(x.grad)
x.grad = None
(a.sum() + b.sum() * 2).backward()
print(x.grad)
E(lambda: fn.saved_tensors)
print(fn.next_functions, fn.name())
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
