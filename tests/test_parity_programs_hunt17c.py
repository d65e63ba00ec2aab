"""Parity programs from hunt17c: the rest of PyTorch's test/test_autograd.py as student programs.

hunt17 and hunt17b took test_autograd.py's hooks, custom Function edge cases, saved tensors, version counters,
grad modes, and autograd.functional / complex; this file takes what they left: activation checkpointing
(``torch.utils.checkpoint``, reentrant and not: non-tensor inputs and outputs, kwargs, dict inputs, RNG state,
early stop, determinism check, nesting with double backward, checkpoint_sequential), allow_mutation_on_saved_tensors,
set_grad_enabled variants and the grad mode restored after a reentrant backward, forward-mode AD (TestAutogradForwardMode:
make_dual / unpack_dual errors, views and in-place ops on duals, backward through tangents, custom Functions' jvp
with save_for_forward / setup_context and PyTorch's view and in-place checks on the tangents they return),
threads each running backward, inference mode, anomaly mode. Each program prints what the upstream assertions
check and must print exactly what PyTorch prints (hunt14's harness). Programs marked "fixed:" printed something
different before this hunt's fix.
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE

PROGRAMS: dict[str, str] = {}

PROGRAMS['tc_checkpoint_reentrant_basics'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
x = torch.tensor([1., 2., 3.], requires_grad=True)
def f(a):
    return (a.sin() * a).exp()
y = checkpoint(f, x, use_reentrant=True)
print(type(y.grad_fn).__name__, y.grad_fn.name(), y.requires_grad)
y.sum().backward()
print(x.grad)
x.grad = None
y = checkpoint(f, x, use_reentrant=False)
print(y.grad_fn.name())
y.sum().backward()
print(x.grad)
y = checkpoint(f, x)
E(lambda: checkpoint(f, x, use_reentrant=True, foo=1))
E(lambda: checkpoint(f, x, use_reentrant=True, context_fn=lambda: (None, None)))
E(lambda: checkpoint(f, x, use_reentrant=True, debug=True))
y = checkpoint(f, x, use_reentrant=True)
E(lambda: torch.autograd.grad(y.sum(), x))
y = checkpoint(f, x, use_reentrant=False)
print(torch.autograd.grad(y.sum(), x))
# no input requires grad
z = torch.ones(3)
out = checkpoint(f, z, use_reentrant=True)
print(out.requires_grad)
out = checkpoint(f, z, use_reentrant=False)
print(out.requires_grad)
'''


PROGRAMS['tc_checkpoint_non_tensor_outputs_and_inputs'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
x = torch.tensor([1., 2.], requires_grad=True)
def f(a, k, s):
    return a * k, s + '!', None, 3
for r in (True, False):
    out = checkpoint(f, x, 2.5, 'hi', use_reentrant=r)
    print(r, out[1], out[2], out[3], out[0].grad_fn.name())
    out[0].sum().backward()
    print(x.grad)
    x.grad = None
def g(a):
    return a.detach()
for r in (True, False):
    out = checkpoint(g, x, use_reentrant=r)
    print(r, out.requires_grad)
def two(a, b):
    return a * b, a + b
b = torch.tensor([3., 4.])
for r in (True, False):
    o1, o2 = checkpoint(two, x, b, use_reentrant=r)
    (o1 * o2).sum().backward()
    print(r, x.grad, b.grad)
    x.grad = None
'''


PROGRAMS['tc_checkpoint_backward_twice_and_inputs'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
x = torch.tensor([1., 2.], requires_grad=True)
def f(a):
    return a.exp() * 2
y = checkpoint(f, x, use_reentrant=True)
y.sum().backward(retain_graph=True)
print(x.grad)
y.sum().backward()
print(x.grad)
x.grad = None
y = checkpoint(f, x, use_reentrant=False)
y.sum().backward(retain_graph=True)
y.sum().backward()
print(x.grad)
x.grad = None
y = checkpoint(f, x, use_reentrant=True)
E(lambda: y.sum().backward(inputs=[x]))
w = torch.tensor([2., 3.], requires_grad=True)
y = checkpoint(lambda a: a * w, x, use_reentrant=False)
y.sum().backward(inputs=[w])
print(x.grad, w.grad)
'''


PROGRAMS['tc_checkpoint_sequential_and_detach_variable'] = PRE + r'''
import torch.nn as nn
from torch.utils.checkpoint import checkpoint_sequential, detach_variable
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 1))
x = torch.randn(2, 3, requires_grad=True)
for r in (True, False):
    out = checkpoint_sequential(model, 2, x, use_reentrant=r)
    print(r, out.grad_fn.name())
    out.sum().backward()
    print(x.grad)
    print(model[0].weight.grad.sum().item())
    x.grad = None
    model.zero_grad()
out = checkpoint_sequential(list(model), 3, x, use_reentrant=False)
print(out.detach())
E(lambda: checkpoint_sequential(model, 2, x, use_reentrant=True, foo=1))
a = torch.ones(2, requires_grad=True) * 2
d = detach_variable((a, 3))
print(d[0].requires_grad, d[0].grad_fn, d[1])
E(lambda: detach_variable(a))
'''


PROGRAMS['tc_checkpoint_non_reentrant_errors'] = PRE + r'''
from torch.utils.checkpoint import checkpoint, CheckpointError
x = torch.tensor([1., 2.], requires_grad=True)
calls = []
def f(a):
    calls.append(1)
    return a.sin().cos()
y = checkpoint(f, x, use_reentrant=False)
y.sum().backward()
print(len(calls), x.grad)
# number of saved tensors differs in recomputation
state = {'n': 0}
def g(a):
    state['n'] += 1
    if state['n'] == 1:
        return a.sin().sin()
    return a.sin()
y = checkpoint(g, x, use_reentrant=False)
try:
    y.sum().backward()
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
print(issubclass(CheckpointError, RuntimeError))
'''


PROGRAMS['tc_allow_mutation_on_saved'] = PRE + r'''
a = torch.tensor([1., 2., 3.], requires_grad=True)
with torch.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
    b = a.clone()
    out = (b ** 2).sum()
    b.sin_()
    out.sum().backward()
    print(a.grad)
a.grad = None
with torch.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
    b = a.clone()
    out = (b ** 2).sum()
    b[0] = 10.
    out.backward()
    print(a.grad, b)
a.grad = None
with torch.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
    b = a.clone()
    c = b.view(3)
    out = (c * c).sum()
    b.mul_(3)
    out.backward()
    print(a.grad)
def nested():
    with torch.autograd.graph.allow_mutation_on_saved_tensors():
        with torch.autograd.graph.allow_mutation_on_saved_tensors():
            pass
E(nested)
with torch.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
    b = a.clone()
    out = b * b
    b.add_(1)
print(type(ctx).__name__)
E(lambda: out.sum().backward())
'''


PROGRAMS['tc_set_grad_enabled_variants'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
sge = torch.set_grad_enabled(False)
print(torch.is_grad_enabled(), type(sge).__name__)
with sge:
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
torch.set_grad_enabled(True)
with torch.set_grad_enabled(False) as m:
    print(m, (x * 2).requires_grad)
    with torch.set_grad_enabled(True):
        print((x * 2).requires_grad)
print(torch.is_grad_enabled())
sg = torch.set_grad_enabled(False)
sg2 = sg.clone()
print(type(sg2).__name__, torch.is_grad_enabled())
torch.set_grad_enabled(True)
with torch.no_grad():
    with torch.enable_grad():
        y = x * 2
    z = x * 2
print(y.requires_grad, z.requires_grad)
def gen():
    with torch.set_grad_enabled(False):
        yield torch.is_grad_enabled()
        yield torch.is_grad_enabled()
g = gen()
print(next(g), torch.is_grad_enabled())
print(next(g), torch.is_grad_enabled())
print(repr(torch.no_grad()), type(torch.enable_grad()).__name__)
'''


PROGRAMS['tc_forward_ad_basics_and_errors'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
x = torch.tensor([1., 2., 3.])
t = torch.tensor([0.5, 1., 2.])
E(lambda: fwAD.make_dual(x, t))
with fwAD.dual_level() as lvl:
    print(lvl)
    d = fwAD.make_dual(x, t)
    print(d)
    y = d.sin() * d
    p, tan = fwAD.unpack_dual(y)
    print(p, tan)
    print(fwAD.unpack_dual(x))
    print(type(fwAD.unpack_dual(y)).__name__, fwAD.unpack_dual(y).primal is p)
    E(lambda: fwAD.make_dual(x, torch.ones(2)))
    E(lambda: fwAD.make_dual(x, torch.ones(3, dtype=torch.float64)))
    E(lambda: fwAD.make_dual(x.long(), torch.ones(3).long()))
    def nested():
        with fwAD.dual_level():
            pass
    E(nested)
    z = d.view(3, 1)
    print(fwAD.unpack_dual(z).tangent)
    w = x.clone()
    w.copy_(d)
    print(fwAD.unpack_dual(w).tangent)
print(fwAD.unpack_dual(d).tangent)
E(lambda: fwAD.exit_dual_level())
E(lambda: fwAD.unpack_dual(d, level=5))
'''


PROGRAMS['tc_forward_ad_inplace_views_and_grad'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    base = torch.zeros(2, 3)
    d = fwAD.make_dual(torch.ones(3), torch.arange(3.))
    base[0].copy_(d)
    print(fwAD.unpack_dual(base).tangent)
    v = base[1]
    v.mul_(fwAD.make_dual(torch.ones(3) * 2, torch.ones(3)))
    print(fwAD.unpack_dual(base).tangent, fwAD.unpack_dual(v).tangent)
    x = torch.tensor([1., 2.], requires_grad=True)
    dx = fwAD.make_dual(x, torch.tensor([1., 1.]))
    y = (dx * dx).sum()
    print(fwAD.unpack_dual(y).tangent)
    y.backward()
    print(x.grad)
    print(fwAD.unpack_dual(dx).primal is x, dx.requires_grad)
    a = fwAD.make_dual(torch.tensor([2., 3.]), torch.tensor([1., 0.]))
    b = a.exp().log1p().tanh()
    print(fwAD.unpack_dual(b).tangent)
    print(fwAD.unpack_dual(a.sum()).tangent, fwAD.unpack_dual(a.mean()).tangent)
    print(fwAD.unpack_dual(torch.stack([a, a * 2])).tangent)
    print(fwAD.unpack_dual(a[0]).tangent, fwAD.unpack_dual(a.unsqueeze(0).expand(2, 2)).tangent)
'''


PROGRAMS['tc_forward_ad_custom_function_jvp'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x)
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return 2 * x * t
class NoJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
class BadJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
    @staticmethod
    def jvp(ctx, t):
        return t * 2, t
class SetupCtx(torch.autograd.Function):
    @staticmethod
    def forward(x, k):
        return x * k
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, k = inputs
        ctx.k = k
        ctx.save_for_forward(x)
    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None
    @staticmethod
    def jvp(ctx, t, _):
        return t * ctx.k
with fwAD.dual_level():
    x = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 3.]))
    print(fwAD.unpack_dual(Sq.apply(x)).tangent)
    E(lambda: NoJvp.apply(x))
    E(lambda: BadJvp.apply(x))
    print(fwAD.unpack_dual(SetupCtx.apply(x, 3.)).tangent)
x = torch.tensor([1., 2.], requires_grad=True)
y = SetupCtx.apply(x, 4.)
y.sum().backward()
print(x.grad, y.grad_fn.name())
'''


PROGRAMS['tc_multithread_backward'] = PRE + r'''
import threading
def train(i, results):
    x = torch.ones(5, 5, requires_grad=True)
    y = (x + 3) * (x + 4) * 0.5
    y.sum().backward()
    results[i] = x.grad.sum().item()
res = {}
ths = [threading.Thread(target=train, args=(i, res)) for i in range(4)]
for t in ths: t.start()
for t in ths: t.join()
print(sorted(res.items()))
shared = torch.ones(3, requires_grad=True)
def train2():
    y = (shared * 2).sum()
    y.backward()
ths = [threading.Thread(target=train2) for i in range(3)]
for t in ths: t.start()
for t in ths: t.join()
print(shared.grad)
def grad_mode_in_thread(out):
    out.append(torch.is_grad_enabled())
with torch.no_grad():
    out = []
    t = threading.Thread(target=grad_mode_in_thread, args=(out,))
    t.start(); t.join()
    print(out, torch.is_grad_enabled())
x = torch.ones(2, requires_grad=True)
y = x * 3
def bw(out):
    out.append(torch.autograd.grad(y.sum(), x, retain_graph=True)[0])
out = []
ths = [threading.Thread(target=bw, args=(out,)) for i in range(2)]
for t in ths: t.start()
for t in ths: t.join()
print(out)
'''


PROGRAMS['tc_inference_mode_more'] = PRE + r'''
x = torch.ones(2, 3, requires_grad=True)
with torch.inference_mode() as m:
    print(m, torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    y = x * 2
    print(y.requires_grad, y.is_inference(), y._version if False else 'v')
    with torch.inference_mode(False):
        print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
        z = x * 2
        print(z.requires_grad, z.is_inference())
    E(lambda: y._version)
print(torch.is_inference_mode_enabled())
E(lambda: y.add_(1))
E(lambda: y.view(6).mul_(2))
E(lambda: x.mul(y).sum().backward())
w = y.clone()
print(w.is_inference(), w.requires_grad)
E(lambda: torch.autograd.grad(x * y, x, torch.ones(2, 3)))
with torch.inference_mode():
    y.add_(1)
    v = y.view(3, 2)
    print(v.is_inference(), y[0])
E(lambda: y.requires_grad_())
E(lambda: torch.ones(2).requires_grad_().is_leaf and None)
with torch.inference_mode():
    t = torch.ones(2, requires_grad=True)
print(t.requires_grad, t.is_inference(), t.is_leaf)
class Mod(torch.nn.Module):
    def forward(self, a):
        return a + 1
with torch.inference_mode():
    print(Mod()(x).is_inference())
'''


PROGRAMS['tc_checkpoint_determinism_and_unpack_twice'] = PRE + r'''
from torch.utils.checkpoint import checkpoint, CheckpointError
x = torch.tensor([1., 2.], requires_grad=True)
n = {'c': 0}
def f(a):
    n['c'] += 1
    if n['c'] == 1:
        return a.exp().sin()
    return a.exp().double().sin()
y = checkpoint(f, x, use_reentrant=False)
try:
    y.sum().backward()
except CheckpointError as e:
    print(type(e).__name__, str(e).splitlines()[:3])
n['c'] = 0
y = checkpoint(f, x, use_reentrant=False, determinism_check="none")
try:
    y.sum().backward()
    print(x.grad)
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
E(lambda: checkpoint(f, x, use_reentrant=False, determinism_check="foo"))
x.grad = None
def g(a):
    return a.sin() * a
y = checkpoint(g, x, use_reentrant=False)
print(y.grad_fn._saved_self)
print(y.grad_fn._saved_self)
y.sum().backward()
print(x.grad)
def sizes(a):
    n['c'] += 1
    return a[:n['c']].exp()
n['c'] = 0
x3 = torch.ones(3, requires_grad=True)
y = checkpoint(sizes, x3, use_reentrant=False)
try:
    y.sum().backward()
except CheckpointError as e:
    print(type(e).__name__, str(e).splitlines()[:3])
'''


PROGRAMS['tc_checkpoint_arbitrary_input_output_and_kwargs'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
x = torch.tensor([1., 2.], requires_grad=True)
def f(d, scale=1.0):
    return {'a': d['x'] * scale, 'b': [d['x'].exp(), 3]}
out = checkpoint(f, {'x': x}, scale=2.0, use_reentrant=False)
print(sorted(out), out['b'][1], out['a'].grad_fn.name())
(out['a'] + out['b'][0]).sum().backward()
print(x.grad)
x.grad = None
E(lambda: checkpoint(f, {'x': x}, scale=2.0, use_reentrant=True))
out = checkpoint(lambda d: d['x'] * 2, {'x': x}, use_reentrant=True)
print(out.requires_grad)
E(lambda: out.sum().backward())
def g(a, b):
    return a * b
w = torch.nn.Parameter(torch.tensor([3., 4.]))
xx = torch.tensor([1., 2.])
for r in (True, False):
    o = checkpoint(g, xx, w, use_reentrant=r)
    print(r, o.requires_grad)
    o.sum().backward()
    print(w.grad)
    w.grad = None
o = checkpoint(lambda a: a * w, xx, use_reentrant=True)
print(o.requires_grad)
o = checkpoint(lambda a: a * w, xx, use_reentrant=False)
print(o.requires_grad)
o.sum().backward()
print(w.grad)
'''


PROGRAMS['tc_checkpoint_rng_and_early_stop'] = PRE + r'''
from torch.utils.checkpoint import checkpoint, set_checkpoint_early_stop
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.ones(8, requires_grad=True)
def f(a):
    return F.dropout(a, 0.5, training=True) * a
for r in (True, False):
    torch.manual_seed(1)
    y = checkpoint(f, x, use_reentrant=r)
    y.sum().backward()
    print(r, y.detach(), x.grad)
    x.grad = None
torch.manual_seed(1)
y = checkpoint(f, x, use_reentrant=False, preserve_rng_state=False)
print(y.detach())
calls = []
def h(a):
    calls.append(1)
    b = a.sin()
    c = b.cos()
    return c.exp()
with set_checkpoint_early_stop(False):
    y = checkpoint(h, x, use_reentrant=False)
y.sum().backward()
print(len(calls))
y = checkpoint(h, x, use_reentrant=False, early_stop=False)
y.sum().backward()
print(len(calls), x.grad[:2])
'''


PROGRAMS['tc_nested_checkpoint_double_backward'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
def c(fn):
    return lambda *a: checkpoint(fn, *a, use_reentrant=False)
def f(x):
    return x.sin().exp().sin()
x = torch.tensor([0.5, 1.0, 1.5], requires_grad=True)
expected = torch.autograd.grad(f(x).sum(), x, create_graph=True)[0]
ex2 = torch.autograd.grad(expected.sum(), x)[0]
for fn in (c(f), c(c(f)), c(lambda a: c(torch.sin)(a).exp().sin())):
    g = torch.autograd.grad(fn(x).sum(), x, create_graph=True)[0]
    g2 = torch.autograd.grad(g.sum(), x)[0]
    print(torch.allclose(g, expected), torch.allclose(g2, ex2), g.grad_fn is not None)
out = c(f)(x)
out.sum().backward(create_graph=True)
print(x.grad.requires_grad)
x.grad.sum().backward()
print(x.grad)
'''


PROGRAMS['tc_checkpoint_with_hooks_and_modules'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(3, 2)
x = torch.randn(4, 3, requires_grad=True)
seen = []
x.register_hook(lambda g: seen.append(tuple(g.shape)))
for r in (True, False):
    y = checkpoint(lin, x, use_reentrant=r)
    y.pow(2).sum().backward()
    print(r, seen, lin.weight.grad.sum().item(), lin.bias.grad)
    lin.zero_grad(); x.grad = None; seen.clear()
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(3, 3)
    def forward(self, a):
        return checkpoint(lambda t: self.l(t).relu(), a, use_reentrant=False)
b = Block()
out = b(x).sum()
out.backward()
print(b.l.weight.grad.sum().item(), out.grad_fn.name())
with torch.no_grad():
    y = checkpoint(lin, x, use_reentrant=True)
    print(y.requires_grad)
    y = checkpoint(lin, x, use_reentrant=False)
    print(y.requires_grad)
'''


PROGRAMS['tc_fwad_print_size_check_levels'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level() as level:
    a = torch.rand(3)
    a = torch.tensor([1., 2., 3.])
    print(fwAD.make_dual(a, torch.tensor([4., 5., 6.])))
    print(repr(fwAD.make_dual(torch.tensor(1.5), torch.tensor(2.))))
    E(lambda: fwAD.make_dual(a, torch.ones(2)))
    E(lambda: fwAD.make_dual(a, torch.ones(3, 1)))
    print(level, fwAD.unpack_dual(a).tangent)
    d = fwAD.make_dual(a, torch.ones(3))
    print(d.is_leaf, d.requires_grad, d.grad_fn)
    dd = d.detach()
    print(fwAD.unpack_dual(dd).tangent)
    v = d[1:]
    print(fwAD.unpack_dual(v).tangent, v._base is d)
    print(fwAD.unpack_dual(d.clone()).tangent)
    print(d.dtype, d.shape, d.sum())
E(lambda: fwAD.make_dual(a, torch.ones(3), level=0))
print(fwAD.unpack_dual(d).tangent)
with fwAD.dual_level():
    print(fwAD.unpack_dual(d).tangent)
'''


PROGRAMS['tc_fwad_views_inplace_metadata'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    foo = torch.rand(2)
    foo = torch.tensor([1., 2.])
    bar = torch.tensor([3., 4.])
    # non-differentiable view written with a dual
    view = foo.detach()
    view.copy_(fwAD.make_dual(bar, torch.tensor([1., 1.])))
    print(fwAD.unpack_dual(view).tangent, fwAD.unpack_dual(foo).tangent)
    base = torch.zeros(4)
    v = base.view(2, 2)
    v.add_(fwAD.make_dual(torch.ones(2, 2), torch.arange(4.).view(2, 2)))
    print(fwAD.unpack_dual(base).tangent, fwAD.unpack_dual(v).tangent)
    t = torch.tensor([1., 2., 3., 4.])
    d = fwAD.make_dual(t[1:3], torch.tensor([5., 6.]))
    print(fwAD.unpack_dual(d).tangent, fwAD.unpack_dual(t).tangent)
    x = fwAD.make_dual(torch.tensor([1., -2.]), torch.tensor([1., 1.]))
    out = torch.empty(2)
    E(lambda: torch.mul(x, 2, out=out))
    i = x.argmax()
    print(i, fwAD.unpack_dual(i).tangent)
    print(fwAD.unpack_dual(x > 0).tangent, fwAD.unpack_dual(x.sign()).tangent)
    print(fwAD.unpack_dual(x.abs()).tangent, fwAD.unpack_dual(x.relu()).tangent)
    print(fwAD.unpack_dual(x.t() if x.dim() > 1 else x.flip(0)).tangent)
    z = fwAD.make_dual(torch.tensor([[1., 2.], [3., 4.]]), torch.eye(2))
    print(fwAD.unpack_dual(z @ z).tangent)
    print(fwAD.unpack_dual(z.T.contiguous()).tangent)
    print(fwAD.unpack_dual(torch.linalg.inv(z)).tangent)
'''


# fixed: a gradient computed from a tangent's graph inside the dual level was itself dual (the primal
# alias the forward formula saved kept the input's tangent; PyTorch's _fw_primal has none)
PROGRAMS['tc_fwad_grad_interplay_and_detach'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
x = torch.tensor([1., 2.], requires_grad=True)
with fwAD.dual_level():
    t = torch.tensor([1., 1.], requires_grad=True)
    d = fwAD.make_dual(x, t)
    y = (d * d).sum()
    tan = fwAD.unpack_dual(y).tangent
    print(tan, tan.grad_fn is not None, tan.requires_grad)
    g = torch.autograd.grad(tan, [x, t])
    print(g)
    y.backward()
    print(x.grad)
    e = d.exp()
    print(fwAD.unpack_dual(e).tangent.grad_fn.name() if fwAD.unpack_dual(e).tangent.grad_fn else None)
    with torch.no_grad():
        n = d * 3
        print(n.requires_grad, fwAD.unpack_dual(n).tangent)
    with torch.inference_mode():
        n2 = d * 3
        print(fwAD.unpack_dual(n2).tangent)
'''


# fixed: a custom Function returning a view of its input with a jvp that returns no view of the input's tangent
# is refused; an in-place one whose jvp does not change the tangent in place (its version) too
PROGRAMS['tc_fwad_custom_function_view_inplace_checks'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
class Inplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        foo.mul_(2)
        ctx.mark_dirty(foo)
        return foo
    @staticmethod
    def backward(ctx, g):
        return g * 2
    @staticmethod
    def jvp(ctx, t):
        t.mul_(2)
        return t
class InplaceBad(Inplace):
    @staticmethod
    def jvp(ctx, t):
        return t * 2
class View(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        return foo.narrow(0, 0, 1)
    @staticmethod
    def backward(ctx, g):
        return g
    @staticmethod
    def jvp(ctx, t):
        return t.narrow(0, 0, 1)
class ViewBad(View):
    @staticmethod
    def jvp(ctx, t):
        return t.narrow(0, 0, 1).clone()
class WrongShape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        return foo * 2
    @staticmethod
    def backward(ctx, g):
        return g
    @staticmethod
    def jvp(ctx, t):
        return t[:1]
class WrongDtype(WrongShape):
    @staticmethod
    def jvp(ctx, t):
        return t.double()
class NoneTangent(WrongShape):
    @staticmethod
    def jvp(ctx, t):
        return None
with fwAD.dual_level():
    x = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 3.]))
    y = Inplace.apply(x.clone())
    print(fwAD.unpack_dual(y).tangent)
    E(lambda: InplaceBad.apply(x.clone()))
    print(fwAD.unpack_dual(View.apply(x)).tangent)
    E(lambda: ViewBad.apply(x))
    E(lambda: WrongShape.apply(x))
    r = WrongDtype.apply(x)
    print(fwAD.unpack_dual(r).tangent)
'''


PROGRAMS['tc_custom_function_setup_context_variants'] = PRE + r'''
class Mul(torch.autograd.Function):
    @staticmethod
    def forward(x, y):
        return x * y, x + y
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y = inputs
        ctx.save_for_backward(x, y)
        ctx.mark_non_differentiable(output[1])
    @staticmethod
    def backward(ctx, g, g2):
        x, y = ctx.saved_tensors
        print('g2', g2)
        return g * y, g * x
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.], requires_grad=True)
a, b = Mul.apply(x, y)
print(a.grad_fn.name(), b.requires_grad, b.grad_fn)
a.sum().backward()
print(x.grad, y.grad)
class BadCtx(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: BadCtx.apply(x))
class NoSetup(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: NoSetup.apply(x))
class Kw(torch.autograd.Function):
    @staticmethod
    def forward(x, scale):
        return x * scale
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.scale = inputs[1]
        ctx.inputs_len = len(inputs)
        ctx.out_is_tensor = isinstance(output, torch.Tensor)
    @staticmethod
    def backward(ctx, g):
        print('ctx', ctx.scale, ctx.inputs_len, ctx.out_is_tensor, ctx.needs_input_grad)
        return g * ctx.scale, None
Kw.apply(x, 3.).sum().backward()
print(x.grad)
E(lambda: Kw.apply(x, scale=3.))
class Vjp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.exp()
    @staticmethod
    def vjp(ctx, g):
        return g * 5
x.grad = None
Vjp.apply(x).sum().backward()
print(x.grad)
class Both(Vjp):
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: Both.apply(x).sum().backward())
'''


PROGRAMS['tc_custom_function_save_for_forward_errors'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
class Func(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y, z):
        ctx.save_for_forward(x, y, z)
        ctx.save_for_backward(x, y)
        return x * y * z
    @staticmethod
    def jvp(ctx, x_t, y_t, _):
        x, y, z = ctx.saved_tensors
        print('jvp saved', x is not None, y is not None, z)
        return x_t * y + y_t * x
    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return g * y, g * x, None
a = torch.tensor(1., requires_grad=True)
b = torch.tensor(2., requires_grad=True)
c = torch.tensor(4.)
with fwAD.dual_level():
    a_dual = fwAD.make_dual(a, torch.tensor(3.))
    out = Func.apply(a_dual, b, c)
    print(fwAD.unpack_dual(out).tangent)
    out.backward()
    print(a.grad, b.grad)
class SaveTwice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x)
        ctx.save_for_forward(x)
        return x.clone()
    @staticmethod
    def jvp(ctx, t):
        return t
    @staticmethod
    def backward(ctx, g):
        return g
class SaveNonTensor(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x, 3)
        return x.clone()
    @staticmethod
    def jvp(ctx, t):
        return t
    @staticmethod
    def backward(ctx, g):
        return g
with fwAD.dual_level():
    d = fwAD.make_dual(torch.ones(2), torch.ones(2))
    E(lambda: SaveTwice.apply(d))
    E(lambda: SaveNonTensor.apply(d))
class SFFOnly(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        print('bw saved', ctx.saved_tensors)
        return g * 2
x = torch.ones(2, requires_grad=True)
SFFOnly.apply(x).sum().backward()
print(x.grad)
'''


# fixed: torch._C.is_grad_enabled (what the upstream test calls) was missing
PROGRAMS['tc_grad_mode_restored_reentrant_and_hooks'] = PRE + r'''
class MyFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inp):
        return inp.clone()
    @staticmethod
    def backward(ctx, go):
        original = torch._C.is_grad_enabled()
        with torch.enable_grad():
            print('inner', torch._C.is_grad_enabled())
            out = go.detach().requires_grad_()
            y = out * out
            gx, = torch.autograd.grad(y.sum(), out)
        print('restored', torch._C.is_grad_enabled() == original, original)
        return go + gx * 0
inp = torch.rand(3, requires_grad=True)
MyFunction.apply(inp).sum().backward()
MyFunction.apply(inp).sum().backward(create_graph=True)
states = []
x = torch.ones(2, requires_grad=True)
y = x * 2
y.register_hook(lambda g: states.append(torch.is_grad_enabled()))
with torch.no_grad():
    pass
y.sum().backward(retain_graph=True)
y.sum().backward(create_graph=True)
with torch.no_grad():
    y.backward(torch.ones(2), retain_graph=True)
print(states)
print(torch.is_grad_enabled())
'''


PROGRAMS['tc_anomaly_messages_more'] = PRE + r'''
def _first_line(message, category, filename, lineno, file=None, line=None):
    print('W', category.__name__, str(message).splitlines()[0])
warnings.showwarning = _first_line
class MyFunc(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        return g.clone().fill_(float('nan'))
x = torch.ones(2, requires_grad=True)
with torch.autograd.detect_anomaly():
    out = MyFunc.apply(x)
    E(lambda: out.sum().backward())
with torch.autograd.detect_anomaly(check_nan=False):
    out = MyFunc.apply(x)
    out.sum().backward()
    print(x.grad)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
with torch.autograd.set_detect_anomaly(True, check_nan=False):
    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
torch.autograd.set_detect_anomaly(True)
print(torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(False)
x.grad = None
with torch.autograd.detect_anomaly():
    a = x * 0
    b = a / a
    E(lambda: torch.autograd.grad(b.sum(), x))
    c = x.sqrt() * 0 - 1
    d = c.sqrt()
    E(lambda: d.sum().backward())
'''


# fixed: (upstream test_custom_function_forward_mode_forward_is_no_op) an input returned as-is is a view
PROGRAMS['tc_fwad_custom_function_forward_is_no_op'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
from torch.autograd import gradcheck
return_lambdas = {"view_as": lambda x: x.view_as(x), "self": lambda x: x, "mul_by_2": lambda x: x * 2}
for k, fn in return_lambdas.items():
    class MyFn(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x + y, x
        @staticmethod
        def vjp(ctx, gO1, gO2):
            return gO1 + gO2, gO1
        @staticmethod
        def jvp(ctx, x_t, y_t):
            return x_t + y_t, fn(x_t)
    a = torch.tensor(1.0, dtype=torch.double, requires_grad=True)
    t = torch.tensor(1.0, dtype=torch.double)
    b = torch.tensor(1.0, dtype=torch.double, requires_grad=True)
    c = torch.tensor(1.0, dtype=torch.double)
    t2 = torch.tensor(1.0, dtype=torch.double)
    d = torch.tensor(1.0, dtype=torch.double)
    with fwAD.dual_level():
        a_dual = fwAD.make_dual(a, t)
        c_dual = fwAD.make_dual(c, t2)
        if k == "view_as":
            _, out2 = MyFn.apply(a_dual, b)
            print(k, fwAD.unpack_dual(out2).tangent._base is t)
            _, out2 = MyFn.apply(c_dual, d)
            print(k, fwAD.unpack_dual(out2).tangent._base is t2)
        else:
            E(lambda: MyFn.apply(a_dual, b))
            E(lambda: MyFn.apply(c_dual, d))
    if k == "view_as":
        print(gradcheck(MyFn.apply, (a, c), check_forward_ad=True))
    else:
        try:
            gradcheck(MyFn.apply, (a, c), check_forward_ad=True)
        except RuntimeError as e:
            print(k, 'gradcheck', "A custom Function's forward is returning a view" in str(e))
'''


# fixed: (upstream ..._forward_mode_view_checks / _inplace_checks, through gradcheck(check_forward_ad=True))
PROGRAMS['tc_fwad_custom_function_view_and_inplace_checks_upstream'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
from torch.autograd import gradcheck
class ViewFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        return foo.narrow(0, 0, 2)
    @staticmethod
    def vjp(ctx, gO):
        gI = gO.new_zeros(4)
        gI.narrow(0, 0, 2).copy_(gO)
        return gI
    @staticmethod
    def jvp(ctx, gI):
        return gI.narrow(0, 0, 2)
inp = torch.rand(4, 4, dtype=torch.double, requires_grad=True)
print(gradcheck(ViewFn.apply, inp[0], check_forward_ad=True))
class ViewBad(ViewFn):
    @staticmethod
    def jvp(ctx, gI):
        return gI.narrow(0, 0, 2).clone()
try:
    gradcheck(ViewBad.apply, inp[0], check_forward_ad=True)
except RuntimeError as e:
    print(str(e).splitlines()[-1][:90])
class InplaceFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        foo.mul_(2)
        ctx.mark_dirty(foo)
        return foo
    @staticmethod
    def vjp(ctx, gO):
        return 2 * gO
    @staticmethod
    def jvp(ctx, gI):
        gI.mul_(2)
        return gI
inp = torch.rand(4, 4, dtype=torch.double, requires_grad=True)
print(gradcheck(lambda x: InplaceFn.apply(x.clone()), inp, check_forward_ad=True))
class InplaceBad(InplaceFn):
    @staticmethod
    def jvp(ctx, gI):
        return 2 * gI
try:
    gradcheck(lambda x: InplaceBad.apply(x.clone()), inp, check_forward_ad=True)
except RuntimeError as e:
    print(str(e).splitlines()[-1][:90])
class NotInput(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        out = foo.clone()
        ctx.mark_dirty(out)
        return out
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: NotInput.apply(torch.ones(2, requires_grad=True)))
'''


# fixed: gradients of a tangent wrt a plain primal's tangent are plain tensors (no tangent of their own)
PROGRAMS['tc_fwad_tangent_requires_grad_primal_plain'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
x = torch.tensor([0.5, 1.5])
t = torch.tensor([1., 2.], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    for f in (lambda a: a * a, lambda a: a.sin(), lambda a: a.exp() / (a + 1), lambda a: torch.tanh(a).pow(3),
              lambda a: a.sum() * a):
        tan = fwAD.unpack_dual(f(d)).tangent
        g, = torch.autograd.grad(tan.sum(), t)
        print(tan.grad_fn.name() if tan.grad_fn else None, g, fwAD.unpack_dual(g).tangent)
    y = d.cos()
    print(y.grad_fn, y.requires_grad)
    xs = torch.tensor([0.5, 1.5], requires_grad=True)
    d2 = fwAD.make_dual(xs, t)
    tan = fwAD.unpack_dual(d2 * d2.exp()).tangent
    gx, gt = torch.autograd.grad(tan.sum(), (xs, t), create_graph=True)
    print(gx, gt, fwAD.unpack_dual(gx).tangent, fwAD.unpack_dual(gt).tangent)
    n = tan.grad_fn
    print(n.name(), [type(m).__name__ if m is not None else None for m, _ in n.next_functions])
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
