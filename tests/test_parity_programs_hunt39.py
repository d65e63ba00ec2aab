"""Parity programs from a thirty-ninth hunt: custom autograd Functions in depth.

The programs a student writes from PyTorch's "Extending torch.autograd" and "Extending torch.func with
autograd.Function" notes and the custom ``Function`` sections of the seed notes: ``forward(ctx, ...)`` against the
separate ``setup_context``, ``ctx.save_for_backward`` of inputs, outputs and intermediates (and its errors),
``mark_dirty`` on leaves, non-leaves and views, ``mark_non_differentiable``, ``set_materialize_grads(False)``,
``needs_input_grad``, wrong numbers, shapes and dtypes of gradients, non-tensor inputs and outputs, inputs and views
returned, ``once_differentiable``, differentiable backwards under ``create_graph``, ``save_for_forward`` + ``jvp``
with ``forward_ad`` and ``torch.func``, ``vmap`` staticmethods and ``generate_vmap_rule``, nested Functions, grad
modes, dtypes, node hooks, gradcheck / gradgradcheck (passing and failing), subclass misuse, and what ``ctx`` shows.
Node names are printed without addresses (``type(y.grad_fn).__name__``, ``name()``, ``next_functions``); the
addresses left in reprs are masked. Programs marked "fixed:" printed something different from PyTorch before this
hunt's fixes.
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE

PROGRAMS: dict[str, str] = {}

# ---- ctx basics: setup_context, save_for_backward, mark_dirty, mark_non_differentiable, materialize_grads,
# needs_input_grad, gradient counts, non-tensor inputs and outputs, views and inputs returned

PROGRAMS['setup_context_vs_ctx_forward'] = PRE + r'''
class A(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        ctx.save_for_backward(x)
        return x ** k
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * ctx.k * x ** (ctx.k - 1), None
class B(torch.autograd.Function):
    @staticmethod
    def forward(x, k):
        return x ** k
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, k = inputs
        ctx.k = k
        ctx.save_for_backward(x, output)
        print('setup', type(inputs).__name__, len(inputs), output.requires_grad, output.grad_fn)
    @staticmethod
    def backward(ctx, g):
        x, out = ctx.saved_tensors
        print('saved', out.grad_fn.name(), x.is_leaf)
        return g * ctx.k * out / x, None
x = torch.tensor([1.5, 2.0, 3.25], requires_grad=True)
ya = A.apply(x, 3)
yb = B.apply(x, 3)
print(ya, yb)
print(type(ya.grad_fn).__name__, yb.grad_fn.name())
ga, = torch.autograd.grad(ya.sum(), x)
gb, = torch.autograd.grad(yb.sum(), x)
print(ga, gb, torch.equal(ga, gb))
print(B.apply(x, k=2))
'''

PROGRAMS['save_input_output_intermediate_versions'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        t = x.tanh()
        y = t * 2
        ctx.save_for_backward(x, t, y)
        return y
    @staticmethod
    def backward(ctx, g):
        x, t, y = ctx.saved_tensors
        print([s.requires_grad for s in (x, t, y)], [s.grad_fn is None for s in (x, t, y)])
        print(y.grad_fn.name() if y.grad_fn is not None else None)
        return g * 2 * (1 - t * t)
x = torch.linspace(-1, 1, 5, requires_grad=True)
y = F.apply(x)
print(y._version, y.grad_fn.name())
y.sum().backward(retain_graph=True)
print(x.grad)
print([type(s).__name__ for s in y.grad_fn.saved_tensors])
y.sum().backward()
print(x.grad)
E(lambda: y.grad_fn.saved_tensors)
E(lambda: y.sum().backward())
'''

PROGRAMS['save_nontensor_variants'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, what):
        ctx.save_for_backward(x, what)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2, None
x = torch.ones(2, requires_grad=True)
for what in (3, 2.5, None, [1, 2], (x,), 'a', torch.tensor(1.)):
    E(lambda: F.apply(x, what).sum())
with torch.no_grad():
    E(lambda: F.apply(x, 3))
E(lambda: F.apply(torch.ones(2), 3))
'''

PROGRAMS['modify_saved_input_then_backward'] = PRE + r'''
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a * 1
y = Sq.apply(b)
print(b._version)
b.add_(1)
print(b._version)
E(lambda: y.sum().backward())
c = a.clone()
y2 = Sq.apply(c)
y2.mul_(2)
y2.sum().backward()
print(a.grad)
d = a.detach().clone().requires_grad_()
y3 = Sq.apply(d)
with torch.no_grad():
    d.mul_(3)
E(lambda: y3.sum().backward())
'''

PROGRAMS['modify_saved_output_then_backward'] = PRE + r'''
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        r = x.exp()
        ctx.save_for_backward(r)
        return r
    @staticmethod
    def backward(ctx, g):
        r, = ctx.saved_tensors
        return g * r
x = torch.tensor([0., 1.], requires_grad=True)
y = Exp.apply(x)
y.add_(1)
print(y.grad_fn.name(), y._version)
E(lambda: y.sum().backward())
y = Exp.apply(x)
z = y[0]
z.mul_(2)
print(y.grad_fn.name(), y._version)
E(lambda: y.sum().backward())
'''

PROGRAMS['mark_dirty_leaf_and_nonleaf'] = PRE + r'''
class AddOne_(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
leaf = torch.zeros(3, requires_grad=True)
E(lambda: AddOne_.apply(leaf))
print(leaf, leaf._version)
a = leaf * 2
v0 = a._version
out = AddOne_.apply(a)
print(out is a, a._version - v0, a.grad_fn.name(), a.is_leaf)
out.sum().backward()
print(leaf.grad)
plain = torch.zeros(2)
r = AddOne_.apply(plain)
print(r is plain, r, r.requires_grad, r.grad_fn)
with torch.no_grad():
    q = AddOne_.apply(leaf)
print(q, q is leaf, q.requires_grad, leaf._version)
'''

PROGRAMS['mark_dirty_missing_inplace'] = PRE + r'''
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 2
a = torch.tensor([1., 2.], requires_grad=True)
b = a + 0
out = Bad.apply(b)
print(out is b, out, out.grad_fn.name(), b._version)
out.sum().backward()
print(a.grad)
c = a + 0
out2 = Bad.apply(c)
E(lambda: out2.sum().backward())
leaf = torch.tensor([1., 2.], requires_grad=True)
E(lambda: Bad.apply(leaf))
print(leaf)
'''

PROGRAMS['mark_dirty_on_view_of_nonleaf'] = PRE + r'''
class Neg_(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.neg_()
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return -g
a = torch.arange(6., requires_grad=True)
b = a * 1
v = b[2:5]
out = Neg_.apply(v)
print(out is v, b, v.grad_fn.name(), b.grad_fn.name())
print([f.name() if f else None for f, _ in b.grad_fn.next_functions])
b.pow(2).sum().backward()
print(a.grad)
c = a.view(2, 3)
E(lambda: Neg_.apply(c[0]))
'''

PROGRAMS['mark_dirty_wrong_tensor'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        x.add_(y)
        ctx.mark_dirty(y)
        return x
    @staticmethod
    def backward(ctx, g):
        return g, g
a = torch.ones(2, requires_grad=True) * 1
b = torch.ones(2, requires_grad=True) * 1
E(lambda: F.apply(a, b))
class G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        t = x.clone()
        ctx.mark_dirty(t)
        return t
    @staticmethod
    def backward(ctx, g):
        return g
r = G.apply(torch.ones(2, requires_grad=True))
print(r, r.grad_fn.name())
class H(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_dirty(x, 3)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: H.apply(torch.ones(2, requires_grad=True) * 1))
'''

PROGRAMS['mark_non_differentiable_argsort_like'] = PRE + r'''
class SortVals(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        v, i = x.sort()
        ctx.mark_non_differentiable(i)
        ctx.save_for_backward(i)
        return v, i
    @staticmethod
    def backward(ctx, gv, gi):
        i, = ctx.saved_tensors
        print('gi', gi, gi.dtype if gi is not None else None)
        g = torch.zeros_like(gv)
        g.scatter_(0, i, gv)
        return g
x = torch.tensor([3., 1., 2.], requires_grad=True)
v, i = SortVals.apply(x)
print(v, i, v.requires_grad, i.requires_grad, i.grad_fn, i.is_leaf)
(v * torch.tensor([1., 10., 100.])).sum().backward()
print(x.grad)
E(lambda: i.sum().backward())
'''

PROGRAMS['mark_non_differentiable_float_output'] = PRE + r'''
class TwoOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        a = x * 2
        b = x * 3
        ctx.mark_non_differentiable(b)
        return a, b
    @staticmethod
    def backward(ctx, ga, gb):
        print('gb', gb)
        return ga * 2
x = torch.tensor([1., 2.], requires_grad=True)
a, b = TwoOut.apply(x)
print(a.requires_grad, b.requires_grad, b.grad_fn, a.grad_fn.name())
(a + b).sum().backward()
print(x.grad)
E(lambda: b.sum().backward())
x.grad = None
E(lambda: torch.autograd.grad(b.sum(), x))
a, b = TwoOut.apply(x)
E(lambda: torch.autograd.grad((a + b).sum(), [x, b]))
'''

PROGRAMS['mark_non_differentiable_input_returned'] = PRE + r'''
class PassIdx(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, idx):
        ctx.mark_non_differentiable(idx)
        return x * 2, idx
    @staticmethod
    def backward(ctx, g, gidx):
        return g * 2, None
x = torch.ones(3, requires_grad=True)
idx = torch.tensor([0, 2])
y, j = PassIdx.apply(x, idx)
print(j is idx, j, j.requires_grad, j._base is idx if j._base is not None else None)
fl = torch.tensor([1., 2.], requires_grad=True)
y, k = PassIdx.apply(x, fl)
print(k is fl, k.requires_grad, k.grad_fn, k.is_leaf)
y.sum().backward()
print(x.grad, fl.grad)
'''

PROGRAMS['set_materialize_grads_false_none'] = PRE + r'''
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(x)
        return x.clone(), x.sin()
    @staticmethod
    def backward(ctx, g1, g2):
        x, = ctx.saved_tensors
        print('g1', g1, 'g2', g2)
        out = torch.zeros_like(x)
        if g1 is not None:
            out = out + g1
        if g2 is not None:
            out = out + g2 * x.cos()
        return out
x = torch.tensor([0., 1.], requires_grad=True)
a, b = Two.apply(x)
a.sum().backward()
print(x.grad)
x.grad = None
a, b = Two.apply(x)
b.sum().backward()
print(x.grad)
x.grad = None
a, b = Two.apply(x)
torch.autograd.backward([a.sum(), b.sum()])
print(x.grad)
class Two2(Two):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clone(), x.sin()
a, b = Two2.apply(x)
a.sum().backward()
print(x.grad)
'''

PROGRAMS['set_materialize_grads_return_none'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.set_materialize_grads(False)
        return x + y, x - y
    @staticmethod
    def backward(ctx, ga, gb):
        if ga is None and gb is None:
            return None, None
        print(ga, gb)
        ga = torch.zeros(2) if ga is None else ga
        gb = torch.zeros(2) if gb is None else gb
        return ga + gb, ga - gb
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.], requires_grad=True)
a, b = F.apply(x, y)
gx, gy = torch.autograd.grad(b.sum() * 3, [x, y])
print(gx, gy)
a, b = F.apply(x, y)
print(torch.autograd.grad(a.sum(), [x, y]))
'''

PROGRAMS['needs_input_grad_patterns'] = PRE + r'''
class Lin(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w, b=None, scale=1.0):
        ctx.save_for_backward(x, w, b)
        ctx.scale = scale
        out = x @ w.t()
        if b is not None:
            out = out + b
        return out * scale
    @staticmethod
    def backward(ctx, g):
        x, w, b = ctx.saved_tensors
        print('needs', ctx.needs_input_grad)
        gx = gw = gb = None
        g = g * ctx.scale
        if ctx.needs_input_grad[0]:
            gx = g @ w
        if ctx.needs_input_grad[1]:
            gw = g.t() @ x
        if b is not None and ctx.needs_input_grad[2]:
            gb = g.sum(0)
        return gx, gw, gb, None
torch.manual_seed(0)
x = torch.randn(4, 3)
w = torch.randn(2, 3, requires_grad=True)
b = torch.randn(2)
out = Lin.apply(x, w, b, 0.5)
out.sum().backward()
print(w.grad)
x.requires_grad_()
Lin.apply(x, w).pow(2).sum().backward()
print(x.grad)
b.requires_grad_()
o = Lin.apply(x, w, b, 2.0)
print(o.grad_fn.needs_input_grad)
gb, = torch.autograd.grad(o.sum(), b)
print(gb)
'''

PROGRAMS['return_none_and_wrong_counts'] = PRE + r'''
def make(ret):
    class R(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y, n):
            return x * y * n
        @staticmethod
        def backward(ctx, g):
            return ret(g)
    return R
x = torch.ones(2, requires_grad=True)
y = torch.ones(2, requires_grad=True)
for name, ret in [('two', lambda g: (g, g)), ('four', lambda g: (g, g, None, g)),
                  ('four_none', lambda g: (g, g, None, None)), ('one', lambda g: g),
                  ('list', lambda g: [g, g, None]), ('int_for_n', lambda g: (g, g, 1)),
                  ('float', lambda g: (2.0, g, None)), ('all_none', lambda g: (None, None, None))]:
    x.grad = y.grad = None
    print(name)
    E(lambda: make(ret).apply(x, y, 3).sum().backward())
    print(x.grad, y.grad)
'''

PROGRAMS['grad_wrong_shape_dtype_device'] = PRE + r'''
def make(ret):
    class R(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()
        @staticmethod
        def backward(ctx, g):
            return ret(g)
    return R
x = torch.ones(2, 3, requires_grad=True)
for name, ret in [('scalar', lambda g: g.sum()), ('row', lambda g: g[0]), ('wrong', lambda g: g.t()),
                  ('bigger', lambda g: torch.ones(4, 2, 3)), ('double', lambda g: g.double()),
                  ('int', lambda g: g.long()), ('half', lambda g: g.half()), ('col', lambda g: g[:, :1]),
                  ('flat', lambda g: g.reshape(6))]:
    x.grad = None
    print(name)
    E(lambda: make(ret).apply(x).sum().backward())
    print(None if x.grad is None else (x.grad.shape, x.grad.dtype, x.grad.sum().item()))
'''

PROGRAMS['non_tensor_inputs_outputs'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, n, name, opt=None):
        ctx.n = n
        return x * n, n + 1, name.upper(), opt
    @staticmethod
    def backward(ctx, g, gn, gname, gopt):
        print('grads', g, gn, gname, gopt)
        return g * ctx.n, None, None, None
x = torch.tensor([1., 2.], requires_grad=True)
y, m, s, o = F.apply(x, 3, 'ab')
print(y, m, s, o, type(m).__name__)
print(y.grad_fn.name(), y.grad_fn.next_functions)
y.sum().backward()
print(x.grad)
r = F.apply(x, 2, 'c', torch.ones(1))
print(r[3], r[3].requires_grad, r[3].grad_fn)
'''

PROGRAMS['tuple_with_int_output_grad_slots'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return 7, x * 2, x.shape, x * 3
    @staticmethod
    def backward(ctx, a, b, c, d):
        print(a, b, c, d)
        return b * 2 + d * 3
x = torch.tensor([1., 2.], requires_grad=True)
n, y, sh, z = F.apply(x)
print(n, sh, y.grad_fn is z.grad_fn, y.output_nr if hasattr(y, 'output_nr') else None, z.output_nr)
(y + z).sum().backward()
print(x.grad)
x.grad = None
z.sum().backward()
print(x.grad)
'''

PROGRAMS['return_view_of_input'] = PRE + r'''
class Head(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x[:2]
    @staticmethod
    def backward(ctx, g):
        out = torch.zeros(4)
        out[:2] = g
        return out
x = torch.arange(4., requires_grad=True)
y = Head.apply(x)
print(y, y._base is x, y.is_leaf, y.grad_fn.name())
y.sum().backward()
print(x.grad)
y2 = Head.apply(x * 1)
print(y2._base is not None, y2.grad_fn.name())
E(lambda: y2.mul_(2))
y3 = Head.apply(x.detach())
print(y3.requires_grad, y3._base is not None)
y3.mul_(2)
print(y3)
'''

PROGRAMS['return_input_itself'] = PRE + r'''
class Id(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x
    @staticmethod
    def backward(ctx, g):
        print('bw', g)
        return g * 5
x = torch.tensor([1., 2.], requires_grad=True)
y = Id.apply(x)
print(y is x, y.is_leaf, y.grad_fn.name(), y._base is x, y.data_ptr() == x.data_ptr())
y.sum().backward()
print(x.grad)
x.grad = None
y.mul_(2) if False else None
h = x * 1
y2 = Id.apply(h)
print(y2 is h, y2._version, y2.grad_fn.name(), h.grad_fn.name())
y2.sum().backward()
print(x.grad)
with torch.no_grad():
    y3 = Id.apply(x)
print(y3 is x, y3.requires_grad, y3.grad_fn)
'''

PROGRAMS['apply_kwargs_errors'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, alpha=2.0):
        return x * alpha
    @staticmethod
    def backward(ctx, g):
        return g, None
x = torch.ones(2, requires_grad=True)
E(lambda: F.apply(x, alpha=3.0))
E(lambda: F.apply(x=x))
E(lambda: F.apply(x, beta=1.0))
E(lambda: F.apply())
E(lambda: F.apply(x, 1.0, 2.0))
print(F.apply(x))
'''

PROGRAMS['once_differentiable_double_backward_text'] = PRE + r'''
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
        print('grad mode in bw', torch.is_grad_enabled(), g.requires_grad)
        return 3 * x ** 2 * g
x = torch.tensor([1., 2.], requires_grad=True)
y = Cube.apply(x).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
print(g, g.requires_grad, g.grad_fn)
y = Cube.apply(x).sum()
g, = torch.autograd.grad(y, x, grad_outputs=torch.tensor(1., requires_grad=True), create_graph=True)
print(g, g.requires_grad, g.grad_fn.name(), type(g.grad_fn).__name__)
print([(type(f).__name__, i) for f, i in g.grad_fn.next_functions])
E(lambda: g.sum().backward())
y = Cube.apply(x).sum()
g2, = torch.autograd.grad(y, x)
print(g2, g2.requires_grad)
torch.manual_seed(0)
E(lambda: torch.autograd.gradgradcheck(Cube.apply, (torch.tensor([1.5], dtype=torch.float64, requires_grad=True),)))
'''

PROGRAMS['differentiable_backward_create_graph'] = PRE + r'''
class Sin(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sin()
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x.cos()
x = torch.tensor([0.5, 1.0], requires_grad=True)
y = Sin.apply(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.grad_fn.name(), [f.name() for f, _ in g.grad_fn.next_functions if f])
h, = torch.autograd.grad(g.sum(), x)
print(h, -x.detach().sin())
y = Sin.apply(x)
y.sum().backward(create_graph=True)
print(x.grad, x.grad.requires_grad)
x.grad.sum().backward()
print(x.grad)
'''

PROGRAMS['save_output_double_backward'] = PRE + r'''
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        r = x.exp()
        ctx.save_for_backward(r)
        return r
    @staticmethod
    def backward(ctx, g):
        r, = ctx.saved_tensors
        print('r', r.requires_grad, r.grad_fn.name() if r.grad_fn else None)
        return g * r
x = torch.tensor([0., 1.], dtype=torch.float64, requires_grad=True)
y = Exp.apply(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g)
gg, = torch.autograd.grad(g.sum(), x)
print(gg)
print(torch.autograd.gradcheck(Exp.apply, (x,)))
print(torch.autograd.gradgradcheck(Exp.apply, (x,)))
'''

# ---- node hooks, grad_fn names, gradcheck, torch.func and forward AD with custom Functions, grad modes, nesting

PROGRAMS['node_hooks_custom_fn'] = PRE + r'''
class Mul3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y, k):
        return x * y * k, x + y
    @staticmethod
    def backward(ctx, ga, gb):
        return ga * 3 + gb, ga + gb, None
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.])
a, b = Mul3.apply(x, y, 3)
node = a.grad_fn
def pre(grad_outputs):
    print('pre', grad_outputs)
    return (grad_outputs[0] * 10, grad_outputs[1])
def post(grad_inputs, grad_outputs):
    print('post', grad_inputs, grad_outputs)
    return (grad_inputs[0] + 1, grad_inputs[1])
h1 = node.register_prehook(pre)
h2 = node.register_hook(post)
(a.sum() + b.sum()).backward(retain_graph=True)
print(x.grad)
h1.remove()
x.grad = None
a.sum().backward(retain_graph=True)
print(x.grad)
h2.remove()
x.grad = None
b.sum().backward()
print(x.grad)
'''

PROGRAMS['node_hook_wrong_return'] = PRE + r'''
class Id(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.ones(2, requires_grad=True)
for hook in [lambda gi, go: (gi[0], gi[0]), lambda gi, go: gi[0], lambda gi, go: (torch.ones(3),),
             lambda gi, go: [gi[0] * 2], lambda gi, go: (None,)]:
    y = Id.apply(x)
    y.grad_fn.register_hook(hook)
    x.grad = None
    E(lambda: y.sum().backward())
    print(x.grad)
for hook in [lambda go: (go[0], go[0]), lambda go: go[0], lambda go: (torch.ones(3),), lambda go: None]:
    y = Id.apply(x)
    y.grad_fn.register_prehook(hook)
    x.grad = None
    E(lambda: y.sum().backward())
    print(x.grad)
'''

PROGRAMS['tensor_hooks_on_fn_output_and_retain_grad'] = PRE + r'''
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        print('bw got', g)
        return 2 * x * g
x = torch.tensor([1., -2.], requires_grad=True)
y = Sq.apply(x)
y.retain_grad()
y.register_hook(lambda g: g * 100)
z = (y * torch.tensor([1., 2.])).sum()
z.backward()
print(y.grad, x.grad)
x.register_hook(lambda g: print('x hook', g))
x.grad = None
Sq.apply(x).sum().backward()
print(x.grad)
'''

PROGRAMS['grad_fn_names_and_next_functions'] = PRE + r'''
class MyFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, c):
        return a * b + c
    @staticmethod
    def backward(ctx, g):
        return g, g, g
a = torch.ones(2, requires_grad=True)
b = torch.ones(2) * 2
c = (torch.ones(2, requires_grad=True) * 3).exp()
y = MyFn.apply(a, b, c)
print(type(y.grad_fn).__name__, y.grad_fn.name())
print([(type(f).__name__ if f is not None else None, i) for f, i in y.grad_fn.next_functions])
print(type(y.grad_fn).__mro__[1].__name__, isinstance(y.grad_fn, torch.autograd.function.BackwardCFunction))
print(y.grad_fn._forward_cls is MyFn, y.grad_fn.next_functions[0][0].variable is a)
z = MyFn.apply(y, y, a)
print([(f.name(), i) for f, i in z.grad_fn.next_functions])
class Inner(MyFn):
    pass
w = Inner.apply(a, a, a)
print(w.grad_fn.name(), type(w.grad_fn).__qualname__, type(w.grad_fn).__module__)
print(isinstance(w.grad_fn, torch.autograd.graph.Node), issubclass(Inner._backward_cls, MyFn._backward_cls))
'''

PROGRAMS['gradcheck_failing_backward'] = PRE + r'''
class BadSin(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sin()
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x.cos() * 1.1
x = torch.tensor([0.3, 1.2], dtype=torch.float64, requires_grad=True)
E(lambda: torch.autograd.gradcheck(BadSin.apply, (x,)))
print(torch.autograd.gradcheck(BadSin.apply, (x,), raise_exception=False))
print(torch.autograd.gradcheck(BadSin.apply, (x,), atol=0.2, rtol=0.2))
E(lambda: torch.autograd.gradcheck(BadSin.apply, (x,), fast_mode=True))
x32 = x.float().detach().requires_grad_()
W(lambda: E(lambda: torch.autograd.gradcheck(BadSin.apply, (x32,))))
'''

PROGRAMS['gradcheck_multiple_inputs_outputs'] = PRE + r'''
class Polar(torch.autograd.Function):
    @staticmethod
    def forward(ctx, r, t):
        ctx.save_for_backward(r, t)
        return r * t.cos(), r * t.sin()
    @staticmethod
    def backward(ctx, gx, gy):
        r, t = ctx.saved_tensors
        return gx * t.cos() + gy * t.sin(), -gx * r * t.sin() + gy * r * t.cos()
r = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
t = torch.tensor([0.5, -0.25], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(Polar.apply, (r, t)))
print(torch.autograd.gradgradcheck(Polar.apply, (r, t)))
class Wrong(Polar):
    @staticmethod
    def backward(ctx, gx, gy):
        r, t = ctx.saved_tensors
        return gx * t.cos() + gy * t.sin(), gy * r
E(lambda: torch.autograd.gradcheck(Wrong.apply, (r, t)))
print(torch.autograd.gradcheck(Wrong.apply, (r, t.detach())))
'''

PROGRAMS['gradcheck_nondet_and_inplace'] = PRE + r'''
class Noisy(torch.autograd.Function):
    calls = 0
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        Noisy.calls += 1
        return g * (2 + 1e-3 * Noisy.calls)
x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
E(lambda: torch.autograd.gradcheck(Noisy.apply, (x,), atol=1e-2))
Noisy.calls = 0
print(torch.autograd.gradcheck(Noisy.apply, (x,), atol=1e-2, nondet_tol=1e-2))
class NoBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
E(lambda: torch.autograd.gradcheck(NoBackward.apply, (x,)))
'''

PROGRAMS['func_grad_of_setup_context_fn'] = PRE + r'''
from torch.func import grad, jacrev, jacfwd, vmap
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x ** 3, 3 * x ** 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0], output[1])
    @staticmethod
    def backward(ctx, g, g_dx):
        x, dx = ctx.saved_tensors
        return g * dx + g_dx * 6 * x
x = torch.tensor(2.0)
print(grad(lambda x: Cube.apply(x)[0])(x))
print(grad(grad(lambda x: Cube.apply(x)[0]))(x))
print(jacrev(lambda x: Cube.apply(x)[0])(torch.tensor([1., 2.])))
E(lambda: jacfwd(lambda x: Cube.apply(x)[0])(torch.tensor([1., 2.])))
E(lambda: vmap(lambda x: Cube.apply(x)[0])(torch.tensor([1., 2.])))
'''

PROGRAMS['func_needs_setup_context'] = PRE + r'''
from torch.func import grad, vmap, jacrev
class Old(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.exp()
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x.exp()
x = torch.tensor([0.5, 1.5])
E(lambda: grad(lambda x: Old.apply(x).sum())(x))
E(lambda: vmap(Old.apply)(x))
E(lambda: jacrev(Old.apply)(x))
print(Old.apply(x.requires_grad_()).sum())
'''

# fixed: the inner vmap's rule printed after the outer one's (the rule's prints came before the function's)
PROGRAMS['vmap_staticmethod_info'] = PRE + r'''
from torch.func import vmap
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
        print('vmap rule', info.batch_size, info.randomness, in_dims, tuple(x.shape), s)
        x_dim, _ = in_dims
        x = x.movedim(x_dim, 0) if x_dim is not None else x
        return Scale.apply(x, s), 0
x = torch.arange(6.).reshape(2, 3)
print(vmap(Scale.apply, in_dims=(0, None))(x, 2.0))
print(vmap(Scale.apply, in_dims=(1, None))(x, 3.0))
print(vmap(Scale.apply, in_dims=(1, None), randomness='different')(x, 1.0))
print(vmap(vmap(Scale.apply, in_dims=(0, None)), in_dims=(0, None))(x, 2.0))
'''

PROGRAMS['vmap_staticmethod_bad_returns'] = PRE + r'''
from torch.func import vmap
def make(ret):
    class F(torch.autograd.Function):
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
            return ret(x)
    return F
x = torch.arange(6.).reshape(2, 3)
for name, ret in [('no_tuple', lambda x: x * 2), ('dim1', lambda x: (x.t() * 2, 1)), ('none_dim', lambda x: (x[0] * 2, None)),
                  ('three', lambda x: (x, 0, 0)), ('bad_dim', lambda x: (x, 'a'))]:
    print(name)
    E(lambda: vmap(make(ret).apply)(x))
'''

PROGRAMS['generate_vmap_rule_grad_jacrev'] = PRE + r'''
from torch.func import vmap, grad, jacrev, jacfwd
class Softplus(torch.autograd.Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x, beta):
        return torch.log1p(torch.exp(beta * x)) / beta
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, beta = inputs
        ctx.save_for_backward(x)
        ctx.beta = beta
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * torch.sigmoid(ctx.beta * x), None
    @staticmethod
    def jvp(ctx, tx, tb):
        raise RuntimeError('no jvp here')
x = torch.tensor([[-1., 0., 2.], [0.5, 1., -3.]])
print(vmap(Softplus.apply, in_dims=(0, None))(x, 2.0))
print(vmap(grad(lambda v: Softplus.apply(v, 1.0).sum()))(x))
print(jacrev(lambda v: Softplus.apply(v, 1.0))(x[0]))
print(vmap(jacrev(lambda v: Softplus.apply(v, 1.0)))(x).shape)
E(lambda: jacfwd(lambda v: Softplus.apply(v, 1.0))(x[0]))
'''

PROGRAMS['generate_vmap_rule_and_vmap_both'] = PRE + r'''
from torch.func import vmap
class Both(torch.autograd.Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x):
        return x + 1
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g
    @staticmethod
    def vmap(info, in_dims, x):
        return x + 1, in_dims[0]
class Neither(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x + 1
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: vmap(Both.apply)(torch.ones(2, 2)))
E(lambda: vmap(Neither.apply)(torch.ones(2, 2)))
print(Both.apply(torch.ones(2)), Neither.apply(torch.ones(2)))
'''

PROGRAMS['forward_ad_jvp_save_for_forward'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
class Mul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        ctx.save_for_forward(x, y)
        return x * y
    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return g * y, g * x
    @staticmethod
    def jvp(ctx, tx, ty):
        x, y = ctx.saved_tensors
        print('tangents', tx, ty)
        return (tx * y if tx is not None else 0) + (ty * x if ty is not None else 0)
x = torch.tensor([1., 2.])
y = torch.tensor([3., 4.])
with fwAD.dual_level():
    dx = fwAD.make_dual(x, torch.tensor([1., 0.]))
    out = Mul.apply(dx, y)
    p, t = fwAD.unpack_dual(out)
    print(p, t)
    dy = fwAD.make_dual(y, torch.tensor([0.5, 0.5]))
    out2 = Mul.apply(dx, dy)
    print(fwAD.unpack_dual(out2).tangent)
'''

PROGRAMS['forward_ad_jvp_missing_or_wrong'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
class NoJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
class WrongJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, g1, g2):
        return g1 * 2 + g2 * 3
    @staticmethod
    def jvp(ctx, t):
        return t * 2
class ShapeJvp(NoJvp):
    @staticmethod
    def jvp(ctx, t):
        return t.sum()
with fwAD.dual_level():
    d = fwAD.make_dual(torch.ones(3), torch.arange(3.))
    E(lambda: NoJvp.apply(d))
    E(lambda: WrongJvp.apply(d))
    E(lambda: ShapeJvp.apply(d))
    print(NoJvp.apply(torch.ones(2)))
'''

PROGRAMS['func_jvp_and_jacfwd_custom_jvp'] = PRE + r'''
from torch.func import jvp, jacfwd, jacrev, vmap
class Tanh(torch.autograd.Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x):
        return x.tanh()
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)
        ctx.save_for_forward(output)
    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * (1 - y * y)
    @staticmethod
    def jvp(ctx, t):
        y, = ctx.saved_tensors
        return t * (1 - y * y)
x = torch.tensor([0., 0.5, -1.])
print(jvp(Tanh.apply, (x,), (torch.ones(3),)))
print(jacfwd(Tanh.apply)(x))
print(torch.allclose(jacfwd(Tanh.apply)(x), jacrev(Tanh.apply)(x)))
print(vmap(jacfwd(Tanh.apply))(x.reshape(3, 1)).shape)
'''

PROGRAMS['forward_ad_mark_dirty_jvp'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
class Double_(torch.autograd.Function):
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
class DoubleBad(Double_):
    @staticmethod
    def jvp(ctx, t):
        return t * 2
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 1.]))
    out = Double_.apply(d)
    print(out is d, fwAD.unpack_dual(out))
    d2 = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 1.]))
    E(lambda: DoubleBad.apply(d2))
'''

PROGRAMS['fn_under_grad_modes'] = PRE + r'''
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        print('forward grad enabled', torch.is_grad_enabled(), torch.is_inference_mode_enabled())
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        print('backward grad enabled', torch.is_grad_enabled())
        x, = ctx.saved_tensors
        return 2 * x * g
x = torch.tensor([1., 3.], requires_grad=True)
with torch.no_grad():
    y = Sq.apply(x)
print(y.requires_grad, y.grad_fn)
with torch.no_grad():
    with torch.enable_grad():
        y = Sq.apply(x)
print(y.requires_grad, y.grad_fn.name())
with torch.inference_mode():
    y = Sq.apply(x)
print(y.requires_grad, y.is_inference(), y.grad_fn)
E(lambda: Sq.apply(y.clone()))
with torch.set_grad_enabled(False):
    y = Sq.apply(x)
print(y.requires_grad)
y = Sq.apply(x)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['inference_tensor_into_fn'] = PRE + r'''
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        return x * w
    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        return g * w, g * x
with torch.inference_mode():
    inf = torch.tensor([1., 2.])
w = torch.tensor([3., 4.], requires_grad=True)
E(lambda: Sq.apply(inf, w))
out = None
def go():
    global out
    out = Sq.apply(inf.clone(), w)
    out.sum().backward()
    return w.grad
E(go)
with torch.inference_mode():
    r = Sq.apply(inf, w)
print(r, r.requires_grad, r.is_inference())
'''

PROGRAMS['nested_apply_in_forward'] = PRE + r'''
class Inner(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        print('inner grad', torch.is_grad_enabled(), x.requires_grad)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        print('inner backward')
        return g * 2
class Outer(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = Inner.apply(x)
        print('y', y.requires_grad, y.grad_fn)
        with torch.enable_grad():
            z = Inner.apply(x)
            print('z', z.requires_grad, z.grad_fn.name() if z.grad_fn else None)
        return y + 1
    @staticmethod
    def backward(ctx, g):
        print('outer backward')
        return Inner.apply(g) * 3
x = torch.tensor([1., 2.], requires_grad=True)
out = Outer.apply(x)
print(out.grad_fn.name(), [f.name() for f, _ in out.grad_fn.next_functions])
out.sum().backward()
print(x.grad)
g, = torch.autograd.grad(Outer.apply(x).sum(), x, create_graph=True)
print(g, g.grad_fn.name() if g.grad_fn else None)
'''

PROGRAMS['nested_apply_chain'] = PRE + r'''
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        r = x.exp()
        ctx.save_for_backward(r)
        return r
    @staticmethod
    def backward(ctx, g):
        r, = ctx.saved_tensors
        return g * r
class Log(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.log()
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g / x
x = torch.tensor([0.25, 1.5, -2.0], requires_grad=True)
y = Log.apply(Exp.apply(Exp.apply(x)))
print(y, y.grad_fn.name(), y.grad_fn.next_functions[0][0].name(), y.grad_fn.next_functions[0][0].next_functions[0][0].name())
y.sum().backward()
print(x.grad, x.exp())
'''

# ---- dtypes, subclass errors, forward called directly, anomaly mode, ctx attributes, saved tensor hooks

PROGRAMS['fn_dtypes_half_double'] = PRE + r'''
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        print('g dtype', g.dtype, x.dtype)
        return 2 * x * g
for dt in (torch.float16, torch.bfloat16, torch.float64, torch.float32):
    x = torch.tensor([0.1, 1.7, -3.3], dtype=dt, requires_grad=True)
    y = Sq.apply(x)
    print(y, y.dtype)
    y.sum().backward()
    print(x.grad)
x = torch.tensor([1.5, 2.5], dtype=torch.float16, requires_grad=True)
y = Sq.apply(x).float()
print(y.grad_fn.name(), y.grad_fn.next_functions[0][0].name())
y.sum().backward()
print(x.grad)
'''

PROGRAMS['fn_int_inputs_outputs'] = PRE + r'''
class Count(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return (x > 0).long(), x * 2
    @staticmethod
    def backward(ctx, gi, gx):
        print('gi', gi, 'gx', gx)
        return gx * 2
x = torch.tensor([-1., 2., 3.], requires_grad=True)
c, y = Count.apply(x)
print(c, c.requires_grad, c.grad_fn, y.grad_fn.name())
y.sum().backward()
print(x.grad)
class IntIn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, n, x):
        return x * n
    @staticmethod
    def backward(ctx, g):
        return torch.ones(3), g
n = torch.tensor([1, 2, 3])
out = IntIn.apply(n, x)
print(out, out.grad_fn.needs_input_grad)
E(lambda: out.sum().backward())
print(x.grad)
E(lambda: torch.tensor([1, 2]).requires_grad_())
class IntOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.round().long()
    @staticmethod
    def backward(ctx, g):
        return g
r = IntOut.apply(x)
print(r, r.requires_grad, r.grad_fn)
E(lambda: r.sum().backward())
'''

PROGRAMS['fn_complex_inputs'] = PRE + r'''
class CMul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, z, w):
        ctx.save_for_backward(z, w)
        return z * w
    @staticmethod
    def backward(ctx, g):
        z, w = ctx.saved_tensors
        print('g', g)
        return g * w.conj(), g * z.conj()
z = torch.tensor([1 + 2j, -0.5j], requires_grad=True)
w = torch.tensor([2 - 1j, 3 + 0j], requires_grad=True)
y = CMul.apply(z, w)
print(y, y.grad_fn.name())
y.abs().sum().backward()
print(z.grad, w.grad)
zz = z.detach().to(torch.complex128).requires_grad_()
ww = w.detach().to(torch.complex128).requires_grad_()
print(torch.autograd.gradcheck(CMul.apply, (zz, ww)))
class RealGradForComplex(torch.autograd.Function):
    @staticmethod
    def forward(ctx, z):
        return z.abs()
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: RealGradForComplex.apply(z).sum().backward())
print(z.grad)
class ComplexGradForReal(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * (1 + 1j)
x = torch.ones(2, requires_grad=True)
E(lambda: ComplexGradForReal.apply(x).sum().backward())
print(x.grad)
'''

PROGRAMS['fn_mixed_dtype_inputs_grad_dtypes'] = PRE + r'''
class Mix(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a.double() * b
    @staticmethod
    def backward(ctx, g):
        print(g.dtype)
        return g, g
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], dtype=torch.float64, requires_grad=True)
y = Mix.apply(a, b)
print(y.dtype)
y.sum().backward()
print(a.grad, a.grad.dtype, b.grad.dtype)
class Back16(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a.clone()
    @staticmethod
    def backward(ctx, g):
        return g.half()
a.grad = None
Back16.apply(a).sum().backward()
print(a.grad, a.grad.dtype)
'''

PROGRAMS['fn_subclass_errors'] = PRE + r'''
class NoForward(torch.autograd.Function):
    @staticmethod
    def backward(ctx, g):
        return g
class NoBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
x = torch.ones(2, requires_grad=True)
E(lambda: NoForward.apply(x))
y = NoBackward.apply(x)
print(y.grad_fn.name())
E(lambda: y.sum().backward())
class Legacy(torch.autograd.Function):
    def forward(self, x):
        return x * 2
    def backward(self, g):
        return g * 2
E(lambda: Legacy()(x))
E(lambda: Legacy.apply(x))
class Good(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 3
    @staticmethod
    def backward(ctx, g):
        return g * 3
W(lambda: E(lambda: Good()(x)))
E(lambda: Good.forward(None, x))
print(Good.forward(None, x))
E(lambda: Good.backward(None, torch.ones(2)))
'''

# fixed: a FunctionCtx made by hand had saved_tensors (an attribute of PyTorch's C nodes only)
PROGRAMS['fn_forward_called_directly'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.exp()
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x.exp()
x = torch.tensor([0., 1.], requires_grad=True)
E(lambda: F.forward(None, x))
class Ctx:
    def save_for_backward(self, *t):
        self.saved = t
c = Ctx()
y = F.forward(c, x)
print(y, y.requires_grad, y.grad_fn.name(), len(c.saved))
ctx = torch.autograd.function.FunctionCtx()
y = F.forward(ctx, x)
print(ctx.to_save[0] is x, y.grad_fn.name())
E(lambda: ctx.saved_tensors)
print(ctx.needs_input_grad if hasattr(ctx, 'needs_input_grad') else 'no attr')
'''

PROGRAMS['fn_backward_raises_and_retry'] = PRE + r'''
class Flaky(torch.autograd.Function):
    fail = True
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        if Flaky.fail:
            raise ValueError('backward failed on purpose')
        return g * 2
x = torch.ones(2, requires_grad=True)
y = Flaky.apply(x).sum()
E(lambda: y.backward())
Flaky.fail = False
E(lambda: y.backward())
print(x.grad)
y = Flaky.apply(x).sum()
Flaky.fail = True
E(lambda: y.backward(retain_graph=True))
Flaky.fail = False
y.backward()
print(x.grad)
'''

PROGRAMS['fn_anomaly_mode_nan_and_trace'] = PRE + r'''
class NanGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        return g * float('nan')
warnings.simplefilter('ignore')  # (the anomaly warning's traceback names library files)
x = torch.ones(2, requires_grad=True)
with torch.autograd.detect_anomaly(check_nan=True):
    y = NanGrad.apply(x)
    E(lambda: y.sum().backward())
with torch.autograd.detect_anomaly(check_nan=False):
    y = NanGrad.apply(x)
    y.sum().backward()
print(x.grad)
with torch.autograd.set_detect_anomaly(True):
    y = NanGrad.apply(x * 2)
    E(lambda: y.sum().backward())
'''

PROGRAMS['fn_ctx_attributes_roundtrip'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, cfg):
        ctx.cfg = cfg
        ctx.shape = x.shape
        ctx.cache = {'n': 1}
        print('saved in forward', ctx.saved_tensors, ctx.needs_input_grad)
        ctx.save_for_backward(x)
        print('to_save', type(ctx.to_save).__name__, len(ctx.to_save))
        return x.sum() * cfg['scale']
    @staticmethod
    def backward(ctx, g):
        ctx.cache['n'] += 1
        x, = ctx.saved_tensors
        return g.expand(ctx.shape) * ctx.cfg['scale'], None
x = torch.ones(2, 2, requires_grad=True)
y = F.apply(x, {'scale': 3})
print(y.grad_fn.cfg, y.grad_fn.shape, y.grad_fn.cache)
y.backward(retain_graph=True)
y.backward()
print(x.grad, y.grad_fn.cache)
print(hasattr(y.grad_fn, 'to_save'), y.grad_fn.to_save if hasattr(y.grad_fn, 'to_save') else None)
E(lambda: y.grad_fn.saved_tensors)
'''

PROGRAMS['fn_list_input_not_tracked'] = PRE + r'''
class SumList(torch.autograd.Function):
    @staticmethod
    def forward(ctx, xs, w):
        return sum(xs) * w
    @staticmethod
    def backward(ctx, g):
        return None, g
a = torch.ones(2, requires_grad=True)
b = torch.ones(2, requires_grad=True)
w = torch.tensor(2., requires_grad=True)
y = SumList.apply([a, b], w)
print(y, y.grad_fn.name(), len(y.grad_fn.next_functions), y.grad_fn.needs_input_grad)
y.sum().backward()
print(a.grad, b.grad, w.grad)
y = SumList.apply((a, b), torch.tensor(2.))
print(y.requires_grad, y.grad_fn)
'''

PROGRAMS['fn_output_views_and_inplace_after'] = PRE + r'''
class Split(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x[:2], x[2:]
    @staticmethod
    def backward(ctx, a, b):
        return torch.cat([a, b])
x = torch.arange(4., requires_grad=True)
h = x * 1
a, b = Split.apply(h)
print(a._base is h, b._base is h, a.grad_fn.name())
E(lambda: a.add_(1))
E(lambda: b.mul_(2))
E(lambda: a.detach().add_(1))
print(h)
class One(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view(2, 2)
    @staticmethod
    def backward(ctx, g):
        return g.reshape(4)
v = One.apply(h)
E(lambda: v.add_(1))
with torch.no_grad():
    v.add_(1)
print(h)
E(lambda: v.grad_fn)
'''

PROGRAMS['fn_saved_tensors_hooks'] = PRE + r'''
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x * x
        ctx.save_for_backward(x, y)
        return y
    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return 2 * x * g
def pack(t):
    print('pack', tuple(t.shape), t.requires_grad)
    return t * 1
def unpack(t):
    print('unpack', tuple(t.shape))
    return t
x = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = Sq.apply(x)
y.sum().backward()
print(x.grad)
with torch.autograd.graph.save_on_cpu():
    y = Sq.apply(x)
y.sum().backward()
print(x.grad)
with torch.autograd.graph.disable_saved_tensors_hooks('no hooks here'):
    E(lambda: torch.autograd.graph.saved_tensors_hooks(pack, unpack).__enter__())
'''

PROGRAMS['fn_raw_saved_tensors_hooks'] = PRE + r'''
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, None, w)
        return x * w
    @staticmethod
    def backward(ctx, g):
        x, none, w = ctx.saved_tensors
        print('none', none)
        return g * w, g * x
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.])
y = Sq.apply(x, w)
raw = y.grad_fn._raw_saved_tensors
print(len(raw), [type(r).__name__ for r in raw])
raw[0].register_hooks(lambda t: t * 10, lambda t: t / 10)
E(lambda: raw[1].register_hooks(lambda t: t, lambda t: t))
E(lambda: raw[0].register_hooks(lambda t: t, lambda t: t))
y.sum().backward()
print(x.grad)
E(lambda: y.grad_fn._raw_saved_tensors)
'''

# ---- odd outputs, odd gradients, a Function in a Module, gradcheck's checks, autograd.functional, checkpoint

PROGRAMS['fn_same_tensor_twice_outputs'] = PRE + r'''
class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x * 2
        return y, y
    @staticmethod
    def backward(ctx, g1, g2):
        print('g1', g1, 'g2', g2)
        return g1 + g2
x = torch.tensor([1., 2.], requires_grad=True)
a, b = Twice.apply(x)
print(a is b, a.grad_fn.name(), b.grad_fn.name())
(a * 3 + b).sum().backward()
print(x.grad)
class InTwice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x, x
    @staticmethod
    def backward(ctx, g1, g2):
        print('in g1', g1, 'g2', g2)
        return g1 * 10 + g2
x.grad = None
a, b = InTwice.apply(x)
print(a is b, a is x, a._base is x)
(a * 3 + b).sum().backward()
print(x.grad)
'''

PROGRAMS['fn_forward_returns_list_dict_none'] = PRE + r'''
class L(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return [x * 2, x * 3]
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.ones(2, requires_grad=True)
r = L.apply(x)
print(type(r).__name__, [t.requires_grad for t in r], [t.grad_fn for t in r])
class D(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return {'a': x * 2}
    @staticmethod
    def backward(ctx, g):
        return g
r = D.apply(x)
print(type(r).__name__, r['a'].requires_grad)
class N(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return None
    @staticmethod
    def backward(ctx, g):
        return g
print(N.apply(x))
class T(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return (x * 2, None)
    @staticmethod
    def backward(ctx, g, gn):
        print('gn', gn)
        return g * 2
y, n = T.apply(x)
print(y.grad_fn.name(), n)
y.sum().backward()
print(x.grad)
class S(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.sum().item()
    @staticmethod
    def backward(ctx, g):
        return g
print(S.apply(x), type(S.apply(x)).__name__)
'''

PROGRAMS['fn_output_independent_of_input'] = PRE + r'''
class Const(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return torch.tensor([1., 2.])
    @staticmethod
    def backward(ctx, g):
        print('called with', g)
        return g * 0
x = torch.ones(2, requires_grad=True)
y = Const.apply(x)
print(y.requires_grad, y.grad_fn.name(), y.is_leaf)
y.sum().backward()
print(x.grad)
class Detached(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.detach()
    @staticmethod
    def backward(ctx, g):
        return g * 4
y = Detached.apply(x)
print(y.requires_grad, y.grad_fn.name(), y._base is x)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['fn_grad_for_input_not_requiring'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        return x * w
    @staticmethod
    def backward(ctx, g):
        print(ctx.needs_input_grad)
        return torch.ones(5), g * 2
x = torch.ones(2)
w = torch.ones(2, requires_grad=True)
y = F.apply(x, w)
E(lambda: y.sum().backward())
print(w.grad)
class G(F):
    @staticmethod
    def backward(ctx, g):
        return 'nope', g
y = G.apply(x, w)
E(lambda: y.sum().backward())
class H(F):
    @staticmethod
    def backward(ctx, g):
        return g.long(), g
y = H.apply(x, w)
w.grad = None
E(lambda: y.sum().backward())
print(w.grad)
'''

PROGRAMS['fn_grad_fn_apply_direct'] = PRE + r'''
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
x = torch.tensor([1., 3.], requires_grad=True)
y = Sq.apply(x)
print(y.grad_fn.apply(torch.ones(2)))
print(y.grad_fn.apply(torch.tensor([0.5, 2.])))
E(lambda: y.grad_fn(torch.ones(2)))
print(y.grad_fn.apply(torch.ones(3)) if False else 'skip')
y.sum().backward()
E(lambda: y.grad_fn.apply(torch.ones(2)))
'''

PROGRAMS['fn_in_module_training'] = PRE + r'''
class LinearFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w, b):
        ctx.save_for_backward(x, w)
        return x @ w.t() + b
    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        return g @ w, g.t() @ x, g.sum(0)
class MyLinear(torch.nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(o, i) * 0.1)
        self.b = torch.nn.Parameter(torch.zeros(o))
    def forward(self, x):
        return LinearFn.apply(x, self.w, self.b)
torch.manual_seed(0)
m = torch.nn.Sequential(MyLinear(3, 4), torch.nn.Tanh(), MyLinear(4, 1))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
X = torch.randn(8, 3)
Y = X.sum(1, keepdim=True)
for step in range(5):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(m(X), Y)
    loss.backward()
    opt.step()
    print(step, loss.item())
out = m(X)
print(out.grad_fn.name(), out.grad_fn.next_functions[0][0].name())
print(m[0].w.grad)
'''

PROGRAMS['fn_gradcheck_undefined_grad'] = PRE + r'''
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
class Handles(NoNone):
    @staticmethod
    def backward(ctx, g1, g2):
        out = torch.zeros(2, dtype=torch.float64)
        if g1 is not None:
            out = out + g1 * 2
        if g2 is not None:
            out = out + g2 * 3
        return out
print(torch.autograd.gradcheck(Handles.apply, (x,)))
'''

PROGRAMS['fn_gradcheck_batched_and_forward_ad'] = PRE + r'''
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return 2 * x * t
x = torch.tensor([1., -2.], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(Sq.apply, (x,), check_forward_ad=True))
E(lambda: torch.autograd.gradcheck(Sq.apply, (x,), check_batched_grad=True))
class BadJvp(Sq):
    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return 3 * x * t
E(lambda: torch.autograd.gradcheck(BadJvp.apply, (x,), check_forward_ad=True))
print(torch.autograd.gradcheck(BadJvp.apply, (x,), check_forward_ad=True, check_backward_ad=False, raise_exception=False))
'''

PROGRAMS['fn_gradcheck_nonreentrant'] = PRE + r'''
class Drift(torch.autograd.Function):
    n = 0
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        Drift.n += 1
        return g * 2 + Drift.n * 1e-6
x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
E(lambda: torch.autograd.gradcheck(Drift.apply, (x,)))
Drift.n = 0
E(lambda: torch.autograd.gradcheck(Drift.apply, (x,), fast_mode=True))
'''

PROGRAMS['fn_autograd_functional_jacobian_hessian'] = PRE + r'''
from torch.autograd.functional import jacobian, hessian, vjp, jvp
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x ** 2 * g
x = torch.tensor([1., 2., -1.])
print(jacobian(Cube.apply, x))
print(hessian(lambda v: Cube.apply(v).sum(), x))
print(vjp(Cube.apply, x, torch.ones(3)))
print(jvp(Cube.apply, x, torch.ones(3)))
print(jacobian(Cube.apply, x, create_graph=True).requires_grad)
E(lambda: jacobian(Cube.apply, x, vectorize=True))
'''

PROGRAMS['fn_checkpoint_inside'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        print('Sq forward')
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        print('Sq backward')
        x, = ctx.saved_tensors
        return 2 * x * g
def block(x):
    return Sq.apply(x).sin()
x = torch.tensor([0.5, 1.5], requires_grad=True)
y = checkpoint(block, x, use_reentrant=False)
print(y.grad_fn.name())
y.sum().backward()
print(x.grad)
x.grad = None
y = checkpoint(block, x, use_reentrant=True)
print(y.grad_fn.name())
y.sum().backward()
print(x.grad)
'''

PROGRAMS['fn_func_vjp_grad_has_aux'] = PRE + r'''
from torch.func import vjp, grad, grad_and_value, jacrev
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x * x
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
x = torch.tensor([1., -3., 0.5])
out, fn = vjp(Sq.apply, x)
print(out, fn(torch.ones(3)))
print(grad(lambda v: (Sq.apply(v).sum(), v.mean()), has_aux=True)(x))
print(grad_and_value(lambda v: Sq.apply(v).sum())(x))
print(jacrev(jacrev(lambda v: Sq.apply(v).sum()))(x))
'''

PROGRAMS['fn_setup_context_errors'] = PRE + r'''
class NoBackwardSC(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x * 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        print('inputs', len(inputs), type(output).__name__)
x = torch.ones(2, requires_grad=True)
y = NoBackwardSC.apply(x)
E(lambda: y.sum().backward())
class CtxInForward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: CtxInForward.apply(x))
class Defaults(torch.autograd.Function):
    @staticmethod
    def forward(x, scale=2.0, shift=0.0):
        return x * scale + shift
    @staticmethod
    def setup_context(ctx, inputs, output):
        print('setup inputs', inputs)
        ctx.scale = inputs[1]
    @staticmethod
    def backward(ctx, g):
        return g * ctx.scale, None, None
print(Defaults.apply(x))
print(Defaults.apply(x, 3.0))
E(lambda: Defaults.apply(x, shift=1.0))
E(lambda: Defaults.apply(x, 3.0, shift=1.0))
y = Defaults.apply(x, 5.0, 1.0)
y.sum().backward()
print(x.grad)
class KwOnly(Defaults):
    @staticmethod
    def forward(x, *, shift=0.0):
        return x + shift
E(lambda: KwOnly.apply(x))
'''

# ---- gradient layouts, Parameters, kept references, saved views and non-differentiable outputs

PROGRAMS['fn_grad_layout_from_backward'] = PRE + r'''
class Bcast(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.sum()
    @staticmethod
    def backward(ctx, g):
        return g.expand(3, 4)
x = torch.ones(3, 4, requires_grad=True)
Bcast.apply(x).backward()
print(x.grad, x.grad.stride(), x.grad.is_contiguous())
class Trans(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        return g.t().contiguous().t()
x.grad = None
Trans.apply(x).sum().backward()
print(x.grad.stride(), x.grad.is_contiguous())
xt = torch.ones(4, 3).t().requires_grad_()
Trans.apply(xt).sum().backward()
print(xt.grad.stride())
class Sliced(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        return torch.ones(3, 8)[:, ::2] * g
x.grad = None
Sliced.apply(x).sum().backward()
print(x.grad.stride(), x.grad.is_contiguous())
'''

PROGRAMS['fn_grad_kept_reference'] = PRE + r'''
class Keep(torch.autograd.Function):
    last = None
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        out = g * 2
        Keep.last = out
        return out
x = torch.ones(3, requires_grad=True)
Keep.apply(x).sum().backward()
print(x.grad, x.grad is Keep.last, x.grad.data_ptr() == Keep.last.data_ptr())
Keep.last.add_(100)
print(x.grad)
Keep.apply(x).sum().backward()
print(x.grad, Keep.last)
'''

PROGRAMS['fn_parameter_inputs'] = PRE + r'''
class Id(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x
    @staticmethod
    def backward(ctx, g):
        return g
class Dbl(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
p = torch.nn.Parameter(torch.tensor([1., 2.]))
y = Id.apply(p)
print(type(y).__name__, y.is_leaf, y.grad_fn.name(), y._base is p)
print(y)
z = Dbl.apply(p)
print(type(z).__name__, z)
(y + z).sum().backward()
print(p.grad)
with torch.no_grad():
    w = Id.apply(p)
print(type(w).__name__, w.requires_grad, w)
'''

PROGRAMS['fn_autograd_grad_none_from_backward'] = PRE + r'''
class Partial(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a * b
    @staticmethod
    def backward(ctx, g):
        return g * 2, None
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
y = Partial.apply(a, b).sum()
E(lambda: torch.autograd.grad(y, [a, b], retain_graph=True))
print(torch.autograd.grad(y, [a, b], retain_graph=True, allow_unused=True))
print(torch.autograd.grad(y, [a, b], retain_graph=True, materialize_grads=True))
y.backward()
print(a.grad, b.grad)
'''

PROGRAMS['fn_backward_enable_grad_inside'] = PRE + r'''
class Weird(torch.autograd.Function):
    w = torch.tensor([2., 3.], requires_grad=True)
    @staticmethod
    def forward(ctx, x):
        return x * Weird.w.detach()
    @staticmethod
    def backward(ctx, g):
        with torch.enable_grad():
            out = g * Weird.w
        print('out', out.requires_grad, out.grad_fn.name())
        return out
x = torch.tensor([1., 1.], requires_grad=True)
Weird.apply(x).sum().backward()
print(x.grad, x.grad.requires_grad, x.grad.grad_fn)
print(Weird.w.grad)
g, = torch.autograd.grad(Weird.apply(x).sum(), x)
print(g, g.requires_grad)
'''

PROGRAMS['fn_backward_non_scalar_grad_tensors'] = PRE + r'''
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        print('incoming', g)
        return 2 * x * g
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = Sq.apply(x)
E(lambda: y.backward())
y.backward(torch.tensor([[1., 0.], [0.5, 2.]]))
print(x.grad)
x.grad = None
torch.autograd.backward([Sq.apply(x)], grad_tensors=[torch.ones(2, 2)])
print(x.grad)
E(lambda: Sq.apply(x).backward(torch.ones(3)))
'''

PROGRAMS['fn_local_class_names'] = PRE + r'''
def make(name):
    class Fn(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x + 1
        @staticmethod
        def backward(ctx, g):
            return g
    Fn.__name__ = name
    return Fn
x = torch.ones(1, requires_grad=True)
A = make('Alpha')
y = A.apply(x)
print(y, type(y.grad_fn).__name__, y.grad_fn.name())
B = make('Alpha')
z = B.apply(x)
print(type(y.grad_fn) is type(z.grad_fn), type(y.grad_fn).__name__ == type(z.grad_fn).__name__)
class Outer:
    class Inner(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1
        @staticmethod
        def backward(ctx, g):
            return g
w = Outer.Inner.apply(x)
print(w, type(w.grad_fn).__name__, w.grad_fn.name(), type(w.grad_fn).__qualname__)
print(Outer.Inner._backward_cls.__name__, Outer.Inner._backward_cls._forward_cls is Outer.Inner)
'''

PROGRAMS['fn_save_for_backward_twice_and_none'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x)
        ctx.save_for_backward(y, None)
        return x * y
    @staticmethod
    def backward(ctx, g):
        saved = ctx.saved_tensors
        print(len(saved), saved[1])
        return g * saved[0], None
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.])
F.apply(x, y).sum().backward()
print(x.grad)
class G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward()
        return x * 2
    @staticmethod
    def backward(ctx, g):
        print('saved', ctx.saved_tensors)
        return g * 2
G.apply(x).sum().backward()
print(x.grad)
'''

PROGRAMS['fn_saved_view_of_input_modified'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        v = x[0]
        ctx.save_for_backward(v)
        return x * v
    @staticmethod
    def backward(ctx, g):
        v, = ctx.saved_tensors
        return g * v
a = torch.tensor([2., 3.], requires_grad=True)
b = a * 1
y = F.apply(b)
b[1] = 10.
E(lambda: y.sum().backward())
c = a * 1
y = F.apply(c)
y.sum().backward()
print(a.grad)
'''

PROGRAMS['fn_mark_dirty_multiple_outputs'] = PRE + r'''
class SplitAdd_(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        x.add_(y)
        ctx.mark_dirty(x)
        return x, y * 2
    @staticmethod
    def backward(ctx, gx, gy):
        return gx, gx + gy * 2
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
h = a * 1
out, other = SplitAdd_.apply(h, b)
print(out is h, out, other, out.grad_fn is other.grad_fn, out.output_nr, other.output_nr)
(out * 2 + other).sum().backward()
print(a.grad, b.grad)
base = a * 1
v = base[:1]
E(lambda: SplitAdd_.apply(v, b[:1]))
print(base)
'''

PROGRAMS['fn_mark_dirty_view_of_leaf'] = PRE + r'''
class Zero_(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.zero_()
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 0
a = torch.ones(4, requires_grad=True)
E(lambda: Zero_.apply(a[:2]))
print(a)
with torch.no_grad():
    v = a[:2]
E(lambda: Zero_.apply(v))
d = a.detach()
r = Zero_.apply(d[1:3])
print(r, a, r.requires_grad)
'''

# fixed: a saved non-differentiable output was named 'output 0 of ArgMaxVal' when modified
PROGRAMS['fn_non_diff_output_inplace_later'] = PRE + r'''
class ArgMaxVal(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        v, i = x.max(0)
        ctx.mark_non_differentiable(i)
        ctx.save_for_backward(i)
        ctx.n = x.shape[0]
        return v, i
    @staticmethod
    def backward(ctx, gv, gi):
        i, = ctx.saved_tensors
        out = torch.zeros(ctx.n, *gv.shape)
        out.scatter_(0, i.unsqueeze(0), gv.unsqueeze(0))
        return out
x = torch.tensor([[1., 5.], [4., 2.], [0., 9.]], requires_grad=True)
v, i = ArgMaxVal.apply(x)
print(v, i)
i.add_(0)
E(lambda: v.sum().backward())
v, i = ArgMaxVal.apply(x)
v.sum().backward()
print(x.grad)
'''

# ---- forward AD jvp tangents, torch.func jvp/jacfwd/hessian/vmap rules

PROGRAMS['fwad_jvp_none_and_nondiff'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
class SortF(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        v, i = x.sort()
        ctx.mark_non_differentiable(i)
        ctx.save_for_forward(i)
        return v, i
    @staticmethod
    def backward(ctx, gv, gi):
        return gv
    @staticmethod
    def jvp(ctx, t):
        i, = ctx.saved_tensors
        return t[i], None
class NoneT(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, a, b):
        return a
    @staticmethod
    def jvp(ctx, t):
        return t * 2, None
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([3., 1., 2.]), torch.tensor([10., 20., 30.]))
    v, i = SortF.apply(d)
    print(fwAD.unpack_dual(v), fwAD.unpack_dual(i).tangent)
    E(lambda: NoneT.apply(d))
    class NoneMarked(NoneT):
        @staticmethod
        def forward(ctx, x):
            b = x * 3
            ctx.mark_non_differentiable(b)
            return x * 2, b
    a, b = NoneMarked.apply(d)
    print(fwAD.unpack_dual(a).tangent, fwAD.unpack_dual(b).tangent, b.requires_grad)
'''

# fixed: jvp's integer tangent for a float output was accepted
PROGRAMS['fwad_jvp_bad_tangents'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
def make(ret):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2
        @staticmethod
        def backward(ctx, g):
            return g * 2
        @staticmethod
        def jvp(ctx, t):
            return ret(t)
    return F
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 1.]))
    for name, ret in [('double', lambda t: t.double()), ('int', lambda t: t.long()), ('shape', lambda t: t[:1]),
                      ('tuple2', lambda t: (t, t)), ('scalar', lambda t: 2.0), ('bigger', lambda t: t.expand(2, 2))]:
        print(name)
        E(lambda: fwAD.unpack_dual(make(ret).apply(d)).tangent)
'''

PROGRAMS['fwad_return_input_jvp'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
class Id(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x
    @staticmethod
    def backward(ctx, g):
        return g
    @staticmethod
    def jvp(ctx, t):
        return t * 5
class View(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x[:1]
    @staticmethod
    def backward(ctx, g):
        return torch.cat([g, torch.zeros(1)])
    @staticmethod
    def jvp(ctx, t):
        return t[:1]
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 3.]))
    E(lambda: fwAD.unpack_dual(Id.apply(d)))
    E(lambda: fwAD.unpack_dual(View.apply(d)))
'''

PROGRAMS['func_jvp_missing_jvp_errors'] = PRE + r'''
from torch.func import jvp, jacfwd, linearize
class OnlyBackward(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x.exp()
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)
    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * y
x = torch.tensor([0., 1.])
E(lambda: jvp(OnlyBackward.apply, (x,), (torch.ones(2),)))
E(lambda: jacfwd(OnlyBackward.apply)(x))
E(lambda: linearize(OnlyBackward.apply, x))
class WithJvp(OnlyBackward):
    generate_vmap_rule = True
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)
        ctx.save_for_forward(output)
    @staticmethod
    def jvp(ctx, t):
        y, = ctx.saved_tensors
        return t * y
with warnings.catch_warnings():
    warnings.simplefilter('ignore')  # (PyTorch's tracer warns about its own graph here)
    out, fn = linearize(WithJvp.apply, x)
print(out, fn(torch.tensor([1., 2.])))
print(jacfwd(WithJvp.apply)(x))
'''

PROGRAMS['func_hessian_custom_fn'] = PRE + r'''
from torch.func import hessian, jacfwd, jacrev
class Sq(torch.autograd.Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x):
        return x * x
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
        ctx.save_for_forward(inputs[0])
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return 2 * x * t
x = torch.tensor([1., 2., 3.])
f = lambda v: (Sq.apply(v) * torch.tensor([1., 2., 3.])).sum()
print(hessian(f)(x))
print(jacrev(jacrev(f))(x))
print(jacfwd(jacrev(f))(x))
'''

# fixed: mark_dirty under vmap with generate_vmap_rule=True was accepted
PROGRAMS['vmap_generate_rule_mark_dirty'] = PRE + r'''
from torch.func import vmap
class Add_(torch.autograd.Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x, y):
        x.add_(y)
        return x
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.mark_dirty(inputs[0])
    @staticmethod
    def backward(ctx, g):
        return g, g
x = torch.zeros(2, 3)
y = torch.ones(2, 3)
E(lambda: vmap(Add_.apply)(x, y))
E(lambda: vmap(Add_.apply, in_dims=(None, 0))(torch.zeros(3), y))
E(lambda: vmap(lambda b: Add_.apply(torch.zeros(3), torch.ones(3)) + b)(y))
print(Add_.apply(torch.zeros(2), torch.ones(2)))
'''

PROGRAMS['vmap_generate_rule_nontensor_outputs'] = PRE + r'''
from torch.func import vmap
class Stats(torch.autograd.Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x):
        return x.mean(), x.std(), 3
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.n = inputs[0].shape[-1]
    @staticmethod
    def backward(ctx, gm, gs, gn):
        return gm.expand(ctx.n) / ctx.n
x = torch.arange(8.).reshape(2, 4)
E(lambda: vmap(Stats.apply)(x))
class Stats2(Stats):
    @staticmethod
    def forward(x):
        return x.mean(), x.std()
    @staticmethod
    def backward(ctx, gm, gs):
        return gm.expand(ctx.n) / ctx.n
print(vmap(Stats2.apply)(x))
print(vmap(Stats2.apply, out_dims=(0, None))(x) if False else 'skip')
'''

PROGRAMS['func_grad_materialize_and_needs_input_grad'] = PRE + r'''
from torch.func import grad, vmap, jacrev
class Two(torch.autograd.Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x, y):
        return x * y, x + y
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(*inputs)
    @staticmethod
    def backward(ctx, ga, gb):
        x, y = ctx.saved_tensors
        print('needs', ctx.needs_input_grad, 'ga None', ga is None, 'gb None', gb is None)
        gx = torch.zeros_like(x)
        gy = torch.zeros_like(y)
        if ga is not None:
            gx = gx + ga * y
            gy = gy + ga * x
        if gb is not None:
            gx = gx + gb
            gy = gy + gb
        return gx, gy
x = torch.tensor([1., 2.])
y = torch.tensor([3., 4.])
print(grad(lambda a: Two.apply(a, y)[0].sum())(x))
print(grad(lambda a, b: Two.apply(a, b)[1].sum(), argnums=(0, 1))(x, y))
print(jacrev(lambda a: Two.apply(a, y)[0])(x))
'''

PROGRAMS['func_grad_once_differentiable'] = PRE + r'''
from torch.func import grad
from torch.autograd.function import once_differentiable
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x ** 3
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x * x * g
x = torch.tensor(2.)
print(grad(Cube.apply)(x))
E(lambda: grad(grad(Cube.apply))(x))
xr = torch.tensor(2., requires_grad=True)
g, = torch.autograd.grad(Cube.apply(xr), xr, create_graph=True)
print(g, g.requires_grad)
'''

PROGRAMS['vmap_rule_returning_input'] = PRE + r'''
from torch.func import vmap
class Id(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g
    @staticmethod
    def vmap(info, in_dims, x):
        print('rule', in_dims, info.batch_size)
        return x, in_dims[0]
x = torch.arange(6.).reshape(3, 2)
print(vmap(Id.apply)(x))
print(vmap(Id.apply, in_dims=1)(x))
print(vmap(lambda v: Id.apply(v) * 2, in_dims=1, out_dims=1)(x))
'''

PROGRAMS['vmap_rule_with_grad'] = PRE + r'''
from torch.func import vmap, grad
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x * x
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        print('backward', tuple(x.shape))
        return 2 * x * g
    @staticmethod
    def vmap(info, in_dims, x):
        print('rule', info.batch_size, in_dims, tuple(x.shape))
        return Sq.apply(x.movedim(in_dims[0], 0)), 0
x = torch.tensor([[1., 2.], [3., 4.], [5., 6.]])
print(vmap(grad(lambda v: Sq.apply(v).sum()))(x))
print(grad(lambda v: vmap(Sq.apply)(v).sum())(x))
'''

# fixed: jvp's tangents were counted over tensor outputs only and accepted for non-differentiable ones
PROGRAMS['fwad_jvp_tangents_of_nondiff_outputs'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
def make(fwd, jvp):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return fwd(ctx, x)
        @staticmethod
        def backward(ctx, *g):
            return g[0]
        @staticmethod
        def jvp(ctx, t):
            return jvp(t)
    return F
def marked(ctx, x):
    y = x * 3
    ctx.mark_non_differentiable(y)
    return x * 2, y
cases = [
    ('int_out_short', lambda ctx, x: (x * 2, 3), lambda t: (t * 2,)),
    ('int_out_none', lambda ctx, x: (x * 2, 3), lambda t: (t * 2, None)),
    ('int_out_tangent', lambda ctx, x: (x * 2, 3), lambda t: (t * 2, t)),
    ('int_first', lambda ctx, x: (3, x * 2), lambda t: (t, t * 2)),
    ('marked', marked, lambda t: (t * 2, t)),
    ('marked_none', marked, lambda t: (t * 2, None)),
    ('long_out', lambda ctx, x: (x * 2, x.long()), lambda t: (t * 2, t)),
    ('long_out_long', lambda ctx, x: (x * 2, x.long()), lambda t: (t * 2, t.long())),
    ('long_single', lambda ctx, x: x.long(), lambda t: t),
    ('long_single_none', lambda ctx, x: x.long(), lambda t: None),
    ('bool_tangent', lambda ctx, x: x * 2, lambda t: t > 0),
    ('complex_tangent', lambda ctx, x: x * 2, lambda t: t * 1j),
    ('double_tangent', lambda ctx, x: x * 2, lambda t: t.double()),
]
for name, fwd, jvp in cases:
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 3.]))
        try:
            r = make(fwd, jvp).apply(d)
            r = r if isinstance(r, tuple) else (r,)
            print(name, [fwAD.unpack_dual(o).tangent if isinstance(o, torch.Tensor) else o for o in r])
        except Exception as e:
            print(name, type(e).__name__, e)
'''

# ---- ctx introspection, graphs built inside forward, multi-grad hooks, hook order, base-class misuse

# fixed: vars(ctx) showed minigrad's internals (needs_input_grad, _is_tensor_input ...)
PROGRAMS['fn_ctx_introspection'] = PRE + r'''
class MyFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        ctx.note = 'hi'
        print(type(ctx), isinstance(ctx, torch.autograd.function.FunctionCtx))
        print(isinstance(ctx, torch.autograd.function.BackwardCFunction), isinstance(ctx, torch.autograd.graph.Node))
        print(sorted(vars(ctx)))
        return x * k
    @staticmethod
    def backward(ctx, g):
        print(sorted(vars(ctx)), ctx.k, ctx.note)
        return g * ctx.k, None
x = torch.ones(2, requires_grad=True)
y = MyFn.apply(x, 3)
print(sorted(vars(y.grad_fn)))
y.sum().backward()
print(type(MyFn), MyFn.__bases__, [c.__name__ for c in MyFn.__mro__])
print(MyFn.apply)
print(type(y.grad_fn).__mro__[:5])
'''

PROGRAMS['fn_forward_builds_graph'] = PRE + r'''
class Inner(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        with torch.enable_grad():
            y = x * 2
            z = y.exp()
        print('inside', y.requires_grad, z.grad_fn.name(), x.requires_grad)
        ctx.save_for_backward(z)
        return z
    @staticmethod
    def backward(ctx, g):
        z, = ctx.saved_tensors
        print('saved z', z.grad_fn.name() if z.grad_fn else None, z.requires_grad)
        return g * 2 * z
x = torch.tensor([0., 0.5], requires_grad=True)
out = Inner.apply(x)
print(out.grad_fn.name(), out.is_leaf)
out.sum().backward()
print(x.grad)
'''

PROGRAMS['fn_save_then_modify_in_forward'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        buf = x * 1
        ctx.save_for_backward(buf)
        buf.add_(1)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        buf, = ctx.saved_tensors
        print('buf', buf)
        return g * buf
x = torch.tensor([1., 2.], requires_grad=True)
F.apply(x).sum().backward()
print(x.grad)
class D(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(3)
        ctx.mark_dirty(x)
        ctx.save_for_backward(x)
        return x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        print('dirty saved', x, x.grad_fn.name() if x.grad_fn else None)
        return g * 3
a = x * 1
out = D.apply(a)
out.sum().backward()
print(x.grad)
b = x * 1
out = D.apply(b)
out.add_(1)
E(lambda: out.sum().backward())
'''

PROGRAMS['fn_multi_grad_hook_outputs'] = PRE + r'''
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, a, b):
        return a * 2 + b * 3
x = torch.tensor([1., 2.], requires_grad=True)
p, q = Two.apply(x)
def hook(grads):
    print('multi', [g if g is None else g.tolist() for g in grads])
h = torch.autograd.graph.register_multi_grad_hook((p, q), hook)
p.sum().backward(retain_graph=True)
(p.sum() + q.sum()).backward(retain_graph=True)
h.remove()
q.sum().backward()
print(x.grad)
'''

PROGRAMS['fn_hook_order_tensor_vs_node'] = PRE + r'''
class Id(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        print('backward sees', g)
        return g
x = torch.ones(2, requires_grad=True)
y = Id.apply(x)
y.register_hook(lambda g: (print('tensor hook', g), g + 1)[1])
y.grad_fn.register_prehook(lambda go: (print('pre hook', go), (go[0] * 10,))[1])
y.grad_fn.register_hook(lambda gi, go: print('post hook', gi, go))
y.retain_grad()
(y * 2).sum().backward()
print(y.grad, x.grad)
'''

PROGRAMS['fn_increment_version_and_saved'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 2
a = torch.ones(2, requires_grad=True)
b = a * 1
y = F.apply(b)
print(b._version)
torch.autograd.graph.increment_version(b)
print(b._version)
E(lambda: y.sum().backward())
'''

PROGRAMS['fn_no_grad_decorated_backward'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    @torch.no_grad()
    def backward(ctx, g):
        x, = ctx.saved_tensors
        print('grad enabled', torch.is_grad_enabled())
        return 2 * x * g
x = torch.tensor([1., 2.], requires_grad=True)
g, = torch.autograd.grad(F.apply(x).sum(), x, create_graph=True)
print(g, g.requires_grad)
E(lambda: g.sum().backward())
'''

PROGRAMS['fn_base_function_apply'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
E(lambda: torch.autograd.Function.apply(x))
E(lambda: torch.autograd.Function.forward(None, x))
E(lambda: torch.autograd.Function.backward(None, x))
E(lambda: torch.autograd.Function.jvp(None, x))
E(lambda: torch.autograd.Function.vmap(None, (0,), x))
E(lambda: torch.autograd.Function.setup_context(None, (x,), x))
print(torch.autograd.Function.generate_vmap_rule)
'''

PROGRAMS['fn_grad_accumulation_two_calls'] = PRE + r'''
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, s):
        ctx.s = s
        return x * s
    @staticmethod
    def backward(ctx, g):
        return g * ctx.s, None
x = torch.tensor([1., 2., 3.], requires_grad=True)
for s in (1.0, 0.5, -2.0):
    Scale.apply(x, s).pow(2).sum().backward()
    print(x.grad)
x.grad.zero_()
y1 = Scale.apply(x, 2.0)
y2 = Scale.apply(y1, 3.0)
y3 = Scale.apply(y1, 4.0)
(y2 + y3).sum().backward()
print(x.grad)
'''

PROGRAMS['fn_requires_grad_output_manipulation'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = torch.ones(2, requires_grad=True)
y = F.apply(x)
E(lambda: y.requires_grad_(False))
d = y.detach()
print(d.requires_grad, d.grad_fn)
y.detach_() if False else None
z = F.apply(torch.ones(2))
print(z.requires_grad)
z.requires_grad_()
print(z.is_leaf, z.grad_fn)
F.apply(z).sum().backward()
print(z.grad)
E(lambda: y.detach_())
'''

# ---- NumPy inside forward, arity errors, gradcheck with non-tensor arguments, InplaceFunction, training loops

PROGRAMS['fn_numpy_inside_forward'] = PRE + r'''
import numpy as np
class NpSin(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        print('requires_grad inside forward', x.requires_grad)
        ctx.save_for_backward(x)
        return torch.from_numpy(np.sin(x.numpy()))
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x.cos()
class NpSin2(NpSin):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.from_numpy(np.sin(x.detach().numpy()))
x = torch.tensor([0.0, 0.5, 1.0], requires_grad=True)
E(lambda: NpSin.apply(x))
y = NpSin2.apply(x)
print(y, y.dtype)
y.sum().backward()
print(x.grad)
print(NpSin.apply(torch.tensor([0.25])))
'''

PROGRAMS['fn_arity_errors'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.ones(2, requires_grad=True)
E(lambda: F.apply(x, x))
a, b = F.apply(x)
E(lambda: a.sum().backward())
class G(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x * 2
    @staticmethod
    def setup_context(ctx, inputs):
        pass
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: G.apply(x))
class H(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g, extra):
        return g
E(lambda: H.apply(x).sum().backward())
'''

PROGRAMS['fn_gradcheck_nontensor_args'] = PRE + r'''
class Pow(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, n, name):
        ctx.save_for_backward(x)
        ctx.n = n
        return x ** n, name
    @staticmethod
    def backward(ctx, g, gname):
        x, = ctx.saved_tensors
        return g * ctx.n * x ** (ctx.n - 1), None, None
x = torch.tensor([1.5, 2.0], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(lambda t: Pow.apply(t, 3, 'a')[0], (x,)))
E(lambda: torch.autograd.gradcheck(Pow.apply, (x, 3, 'a')))
print(torch.autograd.gradcheck(lambda t, n: Pow.apply(t, n, 'b')[0], (x, 2)))
print(torch.autograd.gradgradcheck(lambda t: Pow.apply(t, 3, 'a')[0], (x,)))
'''

PROGRAMS['fn_gradgradcheck_failing_detach'] = PRE + r'''
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x.detach() * g
x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(Sq.apply, (x,)))
torch.manual_seed(0)
E(lambda: torch.autograd.gradgradcheck(Sq.apply, (x,)))
torch.manual_seed(0)
print(torch.autograd.gradgradcheck(Sq.apply, (x,), raise_exception=False))
g = torch.tensor([1., 1.], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradgradcheck(Sq.apply, (x,), (g,), raise_exception=False))
'''

PROGRAMS['fn_inplace_function_class'] = PRE + r'''
class Relu(torch.autograd.function.InplaceFunction):
    @staticmethod
    def forward(ctx, x, inplace=False):
        if inplace:
            ctx.mark_dirty(x)
            out = x.clamp_(min=0)
        else:
            out = x.clamp(min=0)
        ctx.save_for_backward(out)
        return out
    @staticmethod
    def backward(ctx, g):
        out, = ctx.saved_tensors
        return g * (out > 0), None
x = torch.tensor([-1., 2., -3., 4.], requires_grad=True)
y = Relu.apply(x)
print(y, y.grad_fn.name())
h = x * 1
z = Relu.apply(h, True)
print(z is h, h, h.grad_fn.name())
(y + z).sum().backward()
print(x.grad)
print(issubclass(Relu, torch.autograd.Function), torch.autograd.function.InplaceFunction.__mro__[1].__name__)
'''

PROGRAMS['fn_view_as_output'] = PRE + r'''
class V(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)
    @staticmethod
    def backward(ctx, g):
        return g * 7
x = torch.tensor([1., 2.], requires_grad=True)
y = V.apply(x)
print(y._base is x, y.grad_fn.name(), y._version, x._version)
y.sum().backward()
print(x.grad)
with torch.no_grad():
    y.mul_(2)
print(x, y._version)
E(lambda: y.grad_fn)
'''

PROGRAMS['fn_outputs_used_twice_and_retain'] = PRE + r'''
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        print('bw', g)
        return 3 * x ** 2 * g
x = torch.tensor([1., 2.], requires_grad=True)
y = Cube.apply(x)
z = y * y + y
z.sum().backward(retain_graph=True)
print(x.grad)
z.sum().backward()
print(x.grad)
E(lambda: z.sum().backward())
E(lambda: y.grad_fn.saved_tensors)
print(y.grad_fn.needs_input_grad)
'''

PROGRAMS['fn_custom_relu_training_loop'] = PRE + r'''
class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return input.clamp(min=0)
    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[input < 0] = 0
        return grad_input
torch.manual_seed(3)
x = torch.randn(16, 4, dtype=torch.float64)
y = torch.randn(16, 2, dtype=torch.float64)
w1 = torch.randn(4, 8, dtype=torch.float64, requires_grad=True)
w2 = torch.randn(8, 2, dtype=torch.float64, requires_grad=True)
lr = 1e-3
for t in range(6):
    y_pred = MyReLU.apply(x.mm(w1)).mm(w2)
    loss = (y_pred - y).pow(2).sum()
    print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        w1 -= lr * w1.grad
        w2 -= lr * w2.grad
        w1.grad.zero_()
        w2.grad.zero_()
print(w1[0], w2[:, 0])
'''

PROGRAMS['fn_straight_through_and_clip'] = PRE + r'''
class RoundSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.round()
    @staticmethod
    def backward(ctx, g):
        return g
class ClipGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, bound):
        ctx.bound = bound
        return x.view_as(x)
    @staticmethod
    def backward(ctx, g):
        return g.clamp(-ctx.bound, ctx.bound), None
x = torch.tensor([0.4, 1.6, -2.5, 3.5], requires_grad=True)
q = RoundSTE.apply(x)
print(q)
(q * torch.tensor([1., 10., 100., 1000.])).sum().backward()
print(x.grad)
x.grad = None
c = ClipGrad.apply(x, 5.0)
(c * torch.tensor([1., 10., -100., 3.])).sum().backward()
print(x.grad, c._base is x)
'''

PROGRAMS['fn_profiler_record_names'] = PRE + r'''
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * x
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.ones(2, requires_grad=True)
with torch.autograd.profiler.profile() as prof:
    y = Sq.apply(x)
names = [e.name for e in prof.function_events]
print('Sq' in names, [n for n in names if 'Sq' in n])
'''

# ---- vmap staticmethods: print order, nested vmaps, several outputs; functional_call and jacrev argnums

# fixed: what a vmap staticmethod printed came before what the function printed before calling it
PROGRAMS['vmap_rule_prints_order'] = PRE + r'''
from torch.func import vmap
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(x, s):
        print('forward', tuple(x.shape))
        return x * s
    @staticmethod
    def setup_context(ctx, inputs, output):
        print('setup_context', tuple(output.shape))
        ctx.s = inputs[1]
    @staticmethod
    def backward(ctx, g):
        return g * ctx.s, None
    @staticmethod
    def vmap(info, in_dims, x, s):
        print('vmap rule', info.batch_size, in_dims, tuple(x.shape), s)
        x = x.movedim(in_dims[0], 0)
        return Scale.apply(x, s), 0
def f(x):
    print('before', x.shape)
    y = Scale.apply(x, 2.0)
    print('middle', y.shape)
    z = Scale.apply(y, 3.0)
    print('after')
    return z
x = torch.arange(6.).reshape(2, 3)
print(vmap(f)(x))
print(vmap(f, in_dims=1)(x))
def g(v):
    print(v)
    w = Scale.apply(v, -1.0)
    print(w)
    return w
print(vmap(g)(torch.tensor([1., 2.])))
'''

# fixed: nested vmaps' rules printed outermost first
PROGRAMS['vmap_rule_nested_vmaps_order'] = PRE + r'''
from torch.func import vmap
class AddOne(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x + 1
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g
    @staticmethod
    def vmap(info, in_dims, x):
        print('rule', info.batch_size, in_dims, tuple(x.shape))
        return AddOne.apply(x), in_dims[0]
x = torch.zeros(2, 3, 4)
print('start')
out = vmap(vmap(AddOne.apply))(x)
print(out.shape, out.sum())
out = vmap(vmap(AddOne.apply, in_dims=1), in_dims=2)(x)
print(out.shape)
'''

PROGRAMS['vmap_rule_multiple_outputs_out_dims'] = PRE + r'''
from torch.func import vmap
class MinMax(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x.min(-1).values, x.max(-1).values, x.shape[-1]
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, a, b, n):
        return None
    @staticmethod
    def vmap(info, in_dims, x):
        x = x.movedim(in_dims[0], 0)
        lo, hi, n = MinMax.apply(x)
        print('rule', info.batch_size, lo.shape, n)
        return (lo, hi, n), (0, 0, None)
x = torch.tensor([[3., 1., 2.], [0., 5., -1.]])
E(lambda: vmap(MinMax.apply)(x))
print(vmap(lambda v: MinMax.apply(v)[:2])(x))
print(vmap(lambda v: MinMax.apply(v)[:2], in_dims=1)(x))
print(vmap(MinMax.apply, out_dims=(0, 0, None))(x))
class BadDims(MinMax):
    @staticmethod
    def vmap(info, in_dims, x):
        return MinMax.apply(x.movedim(in_dims[0], 0)), (0, 0)
E(lambda: vmap(BadDims.apply, out_dims=(0, 0, None))(x))
'''

PROGRAMS['func_functional_call_module_with_fn'] = PRE + r'''
from torch.func import functional_call, grad, vmap
class Sq(torch.autograd.Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x):
        return x * x
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 1)
    def forward(self, x):
        return Sq.apply(self.lin(x)).sum()
torch.manual_seed(0)
m = M()
params = {k: v.detach() for k, v in m.named_parameters()}
x = torch.randn(4, 3)
g = grad(lambda p, x: functional_call(m, p, (x,)))(params, x)
print({k: v for k, v in g.items()})
per_sample = vmap(grad(lambda p, xi: functional_call(m, p, (xi.unsqueeze(0),))), in_dims=(None, 0))(params, x)
print(per_sample['lin.weight'].shape, torch.allclose(per_sample['lin.weight'].sum(0), g['lin.weight']))
'''

PROGRAMS['func_jacrev_argnums_two_inputs'] = PRE + r'''
from torch.func import jacrev, vjp
class Mul(torch.autograd.Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(a, b):
        return a * b, a + b
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)
    @staticmethod
    def backward(ctx, g1, g2):
        a, b = ctx.saved_tensors
        return g1 * b + g2, g1 * a + g2
a = torch.tensor([1., 2.])
b = torch.tensor([3., -1.])
print(jacrev(Mul.apply, argnums=(0, 1))(a, b))
out, fn = vjp(Mul.apply, a, b)
print(out, fn((torch.ones(2), torch.zeros(2))))
E(lambda: fn(torch.ones(2)))
'''

PROGRAMS['fn_needs_input_grad_under_transforms'] = PRE + r'''
from torch.func import grad, vmap
class F(torch.autograd.Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x, y):
        return x * y
    @staticmethod
    def setup_context(ctx, inputs, output):
        print('setup needs', ctx.needs_input_grad)
        ctx.save_for_backward(*inputs)
    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        print('backward needs', ctx.needs_input_grad)
        return g * y, g * x
x = torch.tensor([1., 2.])
y = torch.tensor([3., 4.])
print(grad(lambda a: F.apply(a, y).sum())(x))
print(grad(lambda a, b: F.apply(a, b).sum(), argnums=1)(x, y))
xr = x.clone().requires_grad_()
F.apply(xr, y).sum().backward()
print(xr.grad)
'''

# fixed: with chunk_size, the vmap staticmethod ran once on the whole batch (PyTorch: once per chunk)
PROGRAMS['vmap_rule_chunk_size'] = PRE + r'''
from torch.func import vmap
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
        print('rule', info.batch_size, in_dims, tuple(x.shape))
        return Scale.apply(x, s), in_dims[0]
def f(x):
    print('f called')
    return Scale.apply(x, 2.0) + 1
x = torch.arange(15.).reshape(5, 3)
print(vmap(f, chunk_size=2)(x))
print(vmap(Scale.apply, in_dims=(1, None), chunk_size=2)(x, 3.0))
print(vmap(f, chunk_size=8)(x).shape)
class Dirty(torch.autograd.Function):
    @staticmethod
    def forward(x):
        x.mul_(2)
        return x
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.mark_dirty(inputs[0])
    @staticmethod
    def backward(ctx, g):
        return g * 2
    @staticmethod
    def vmap(info, in_dims, x):
        print('dirty rule', info.batch_size, tuple(x.shape))
        Dirty.apply(x)
        return x, in_dims[0]
z = torch.arange(6.).reshape(3, 2)
print(vmap(Dirty.apply, chunk_size=2)(z), z)
'''

# ---- jvp/vmap of in-place Functions, saved foreign leaves, once_differentiable with None grads, views as inputs

PROGRAMS['func_jvp_mark_dirty_fn'] = PRE + r'''
from torch.func import jvp, vmap
class Mul_(torch.autograd.Function):
    @staticmethod
    def forward(x, k):
        x.mul_(k)
        return x
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.mark_dirty(inputs[0])
        ctx.k = inputs[1]
    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None
    @staticmethod
    def jvp(ctx, t, tk):
        t.mul_(ctx.k)
        return t
    @staticmethod
    def vmap(info, in_dims, x, k):
        print('rule', in_dims, tuple(x.shape))
        Mul_.apply(x, k)
        return x, in_dims[0]
def f(x):
    y = x.clone()
    return Mul_.apply(y, 3.0)
print(jvp(f, (torch.tensor([1., 2.]),), (torch.tensor([1., 0.5]),)))
print(vmap(f)(torch.arange(4.).reshape(2, 2)))
x = torch.arange(4.).reshape(2, 2)
print(vmap(lambda v: Mul_.apply(v, 2.0))(x), x)
'''

PROGRAMS['fn_saved_foreign_leaf_double_backward'] = PRE + r'''
w = torch.tensor([2., 3.], requires_grad=True)
class ScaleBy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, w)
        return x * w
    @staticmethod
    def backward(ctx, g):
        x, ww = ctx.saved_tensors
        print('saved w requires grad', ww.requires_grad, ww is w)
        return g * ww
x = torch.tensor([1., 1.], requires_grad=True)
y = ScaleBy.apply(x)
print(y.grad_fn.next_functions)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.requires_grad, g.grad_fn.name() if g.grad_fn else None)
g.sum().backward()
print(w.grad, x.grad)
'''

PROGRAMS['fn_once_diff_with_materialize_false'] = PRE + r'''
from torch.autograd.function import once_differentiable
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3
    @staticmethod
    @once_differentiable
    def backward(ctx, a, b):
        print('a', a, 'b', b)
        out = 0
        if a is not None:
            out = out + a * 2
        if b is not None:
            out = out + b * 3
        return out
x = torch.tensor([1., 2.], requires_grad=True)
p, q = Two.apply(x)
p.sum().backward()
print(x.grad)
p, q = Two.apply(x)
g, = torch.autograd.grad(q.sum(), x, create_graph=True)
print(g, g.requires_grad)
'''

PROGRAMS['fn_next_functions_of_view_inputs'] = PRE + r'''
class Add(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a + b
    @staticmethod
    def backward(ctx, g):
        return g, g
x = torch.arange(6., requires_grad=True)
y = Add.apply(x[:3], x.view(2, 3)[1])
print([(f.name(), i) for f, i in y.grad_fn.next_functions])
print([[(h.name(), j) for h, j in f.next_functions] for f, _ in y.grad_fn.next_functions])
y.sum().backward()
print(x.grad)
z = Add.apply(x.t() if x.dim() == 2 else x.unsqueeze(0), torch.ones(1, 6))
print(z.grad_fn.next_functions)
'''

PROGRAMS['fn_saved_tensors_print_and_none'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, None, y)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2, None
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([5.])
out = F.apply(x, y)
print(out.grad_fn.saved_tensors)
print(len(out.grad_fn._raw_saved_tensors))
out.sum().backward(retain_graph=True)
print(out.grad_fn.saved_tensors[2] is y, out.grad_fn.saved_tensors[0] is x)
'''

PROGRAMS['fn_instantiate_warning_and_apply'] = PRE + r'''
class F(torch.autograd.Function):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
f = W(lambda: F(3))
print(f.scale, type(f).__name__)
x = torch.ones(2, requires_grad=True)
print(f.apply(x))
E(lambda: f(x))
print(repr(f).startswith('<__program__.F object at'))
'''

# ---- student slips: backward mutating its gradient, missing @staticmethod, ctx calls in backward, random rules

PROGRAMS['fn_backward_mutates_grad_output'] = PRE + r'''
class Mut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        g.mul_(10)
        return g
x = torch.ones(2, requires_grad=True)
y = Mut.apply(x)
y.retain_grad()
seen = []
y.register_hook(lambda g: seen.append(g))
(y * 3).sum().backward()
print(x.grad, y.grad, seen)
x.grad = None
y = Mut.apply(x)
E(lambda: y.sum().backward())
print(x.grad)
'''

PROGRAMS['fn_missing_staticmethod_decorators'] = PRE + r'''
class NoStatic(torch.autograd.Function):
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
x = torch.tensor([1., 3.], requires_grad=True)
y = NoStatic.apply(x)
print(y, y.grad_fn.name())
y.sum().backward()
print(x.grad)
class NumpyOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.detach().numpy() * 2
    @staticmethod
    def backward(ctx, g):
        return g
r = NumpyOut.apply(x)
print(type(r).__name__, r)
'''

PROGRAMS['fn_ctx_calls_in_backward'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        ctx.save_for_backward(g)
        ctx.mark_dirty(x)
        ctx.mark_non_differentiable(g)
        print('again', len(ctx.saved_tensors))
        return g * 2
x = torch.ones(2, requires_grad=True)
y = F.apply(x)
y.sum().backward(retain_graph=True)
print(x.grad)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['fn_vmap_rule_randomness'] = PRE + r'''
from torch.func import vmap
class Noise(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x + torch.rand(x.shape)
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g
    @staticmethod
    def vmap(info, in_dims, x):
        print('randomness', info.randomness)
        x = x.movedim(in_dims[0], 0)
        if info.randomness == 'same':
            return x + torch.rand(x.shape[1:]), 0
        return x + torch.rand(x.shape), 0
x = torch.zeros(3, 2)
torch.manual_seed(0)
E(lambda: vmap(Noise.apply)(x))
torch.manual_seed(0)
print(vmap(Noise.apply, randomness='different')(x))
torch.manual_seed(0)
print(vmap(Noise.apply, randomness='same')(x))
'''

# ---- node metadata and sequence numbers, needs_input_grad with non-tensor arguments

PROGRAMS['fn_node_metadata_and_sequence'] = PRE + r'''
class A(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        print('A backward, metadata', ctx.metadata)
        return g * 2
class B(A):
    @staticmethod
    def backward(ctx, g):
        print('B backward, metadata', ctx.metadata)
        return g * 3
x = torch.ones(2, requires_grad=True)
a = A.apply(x)
b = B.apply(x)
a.grad_fn.metadata['tag'] = 'first'
b.grad_fn.metadata['tag'] = 'second'
print(a.grad_fn._sequence_nr() < b.grad_fn._sequence_nr())
(a + b).sum().backward()
print(x.grad, a.grad_fn.metadata, type(b.grad_fn.metadata).__name__)
print(a.grad_fn.requires_grad if hasattr(a.grad_fn, 'requires_grad') else None)
'''

PROGRAMS['fn_ctx_needs_input_grad_nontensors'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, n, b, c=None):
        print('forward needs', ctx.needs_input_grad)
        return a * n + b
    @staticmethod
    def backward(ctx, g):
        print('backward needs', ctx.needs_input_grad)
        return g, None, g, None
a = torch.ones(2, requires_grad=True)
b = torch.ones(2)
F.apply(a, 3, b).sum().backward()
F.apply(a, 3, b, torch.ones(1, requires_grad=True)).sum().backward()
F.apply(b, 3.5, a, 'x').sum().backward()
with torch.no_grad():
    F.apply(a, 1, b)
print(a.grad, b.grad)
'''


@pytest.fixture(autouse=True, scope="module")
def _warmed_up():
    """PyTorch's first forward-mode transform, gradcheck, checkpoint and autograd.functional call load modules for
    seconds: done here, so that no program's output or time depends on whether it is the first to do so."""
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.func.jacfwd(torch.sin)(torch.ones(2))
        x = torch.ones(2, dtype=torch.float64, requires_grad=True)
        torch.autograd.gradgradcheck(torch.sin, (x,))
        torch.utils.checkpoint.checkpoint(torch.sin, x, use_reentrant=False).sum().backward()
        torch.autograd.functional.hessian(lambda v: v.sin().sum(), x.detach())
        torch.func.linearize(torch.sin, torch.ones(2))
        run_both("import torch\n")


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    # (catch_warnings restores the filters and showwarning the prelude replaces; fresh_warn_once: the warnings
    # given once per process are given whatever ran before in this process)
    with warnings.catch_warnings(), fresh_warn_once():
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
