"""Parity programs from an eighth hunt: the public torch.autograd API surface, argument by argument.

Driven by the source notes in shared/seeds (003, the API reference; 001, 002): ``torch.autograd.backward`` /
``Tensor.backward`` (gradient, retain_graph, create_graph, inputs, grad_tensors mixes and misuse),
``torch.autograd.grad`` (every argument, unused inputs, batched grads, non-tensor entries), the grad modes
(``no_grad``, ``enable_grad``, ``set_grad_enabled``, ``inference_mode`` as context managers, decorators of
functions, generators, methods and classes, and plain calls), inference tensors meeting autograd,
``torch.autograd.functional`` (jacobian, hessian, vjp, jvp, hvp, vhp with their strict errors), ``requires_grad_``,
the non-leaf ``.grad`` warning, ``retain_grad``, ``detach``/``detach_`` and ``.data``. Each program runs through
``parity.run_both`` with minigrad and with PyTorch and both stdouts must match once addresses are masked; ``E``
prints a call's result or its exception type and message, ``W`` also prints the warnings it raised. Programs
marked "fixed:" printed something different from PyTorch before this hunt's fix.
"""
from __future__ import annotations

import re
import warnings

import pytest
from parity import run_both

PRELUDE = r'''
import warnings
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)
def W(f):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        E(f)
    for w in ws:
        print(w.category.__name__, str(w.message))
'''

PROGRAMS: dict[str, str] = {}


def P(name: str, source: str) -> None:
    """Register a program (run after the E/W prelude)."""
    assert name not in PROGRAMS, name
    PROGRAMS[name] = PRELUDE + source


P('backward_gradient_arg', r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * x
y.backward(torch.tensor([1., 0.1, 0.01]))
print(x.grad)
y2 = x ** 3
y2.backward(gradient=torch.ones(3), retain_graph=True)
print(x.grad)
y2.backward(torch.full((3,), 2.))
print(x.grad)
E(lambda: y2.backward(torch.ones(3)))
''')

P('backward_nonscalar_errors', r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
E(lambda: y.backward())
E(lambda: y.backward(torch.ones(2)))
E(lambda: y.backward(torch.ones(3, 1)))
E(lambda: y.backward(torch.ones(1)))
E(lambda: y.backward(torch.ones(3, dtype=torch.float64), retain_graph=True))
print(x.grad)
E(lambda: y.backward(torch.ones(3, dtype=torch.int64), retain_graph=True))
print(x.grad)
E(lambda: y.backward(torch.ones(3, dtype=torch.complex64)))
E(lambda: y.backward([1., 1., 1.]))
E(lambda: y.backward(1.0))
E(lambda: y.sum().backward(torch.tensor(2.)))
print(x.grad)
''')

P('backward_scalar_shapes', r'''
x = torch.tensor([1., 2.], requires_grad=True)
s = (x * x).sum()
E(lambda: s.backward(torch.tensor([1.])))
E(lambda: s.backward(torch.ones(1, 1)))
s.backward(torch.tensor(3.))
print(x.grad)
z = (x * 3)[:1]
z.backward()
print(x.grad)
w = (x * 2).reshape(1, 2)[:, :1]
w.backward()
print(x.grad)
''')

P('backward_no_requires_grad', r'''
a = torch.tensor([1., 2.])
E(lambda: a.sum().backward())
E(lambda: a.backward(torch.ones(2)))
E(lambda: torch.autograd.backward(a.sum()))
E(lambda: torch.autograd.backward([a.sum(), a.mean()]))
b = torch.tensor(2., requires_grad=True)
E(lambda: torch.autograd.backward([b * 2, a.sum()]))
print(b.grad)
i = torch.tensor([1, 2])
E(lambda: i.sum().backward())
''')

P('backward_on_leaf', r'''
x = torch.tensor(3., requires_grad=True)
x.backward()
print(x.grad, x.grad_fn, x.is_leaf)
x.backward(torch.tensor(2.))
print(x.grad)
v = torch.tensor([1., 2.], requires_grad=True)
E(lambda: v.backward())
v.backward(torch.tensor([5., 6.]))
print(v.grad)
torch.autograd.backward(v, torch.ones(2))
print(v.grad)
''')

P('backward_twice_freed', r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x.exp() * x).sum()
y.backward()
print(x.grad)
E(lambda: y.backward())
z = (x * 2).sum()
z.backward()
E(lambda: z.backward())
z2 = (x + 2).sum()
z2.backward()
z2.backward()
print(x.grad)
w = (x.sin()).sum()
w.backward(retain_graph=True)
w.backward(retain_graph=False)
E(lambda: w.backward())
print(x.grad)
''')

P('backward_in_no_grad', r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x ** 2).sum()
with torch.no_grad():
    y.backward()
    print(torch.is_grad_enabled())
print(x.grad)
with torch.no_grad():
    z = (x ** 2).sum()
E(lambda: z.backward())
with torch.no_grad():
    y2 = (x * x).sum()
print(y2.requires_grad, y2.grad_fn)
y3 = (x ** 3).sum()
with torch.no_grad():
    y3.backward(create_graph=True)
print(x.grad, x.grad.requires_grad, x.grad.grad_fn)
''')

P('autograd_backward_sequences', r'''
x = torch.tensor([1., 2.], requires_grad=True)
a = x * 2
b = (x ** 2).sum()
torch.autograd.backward([a, b], [torch.ones(2), None], retain_graph=True)
print(x.grad)
x.grad = None
torch.autograd.backward((a.sum(), b), retain_graph=True)
print(x.grad)
x.grad = None
torch.autograd.backward([a, b], (torch.tensor([1., 3.]), torch.tensor(2.)), retain_graph=True)
print(x.grad)
x.grad = None
E(lambda: torch.autograd.backward([a, b], [torch.ones(2)], retain_graph=True))
E(lambda: torch.autograd.backward([a, b], [None, None], retain_graph=True))
E(lambda: torch.autograd.backward([a, b], torch.ones(2), retain_graph=True))
E(lambda: torch.autograd.backward([], []))
E(lambda: torch.autograd.backward(b, [torch.tensor(1.), torch.tensor(2.)], retain_graph=True))
print(x.grad)
E(lambda: torch.autograd.backward([a, b], [1, None]))
''')

P('backward_inputs_arg', r'''
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
y = (x * w).sum()
y.backward(inputs=[x], retain_graph=True)
print(x.grad, w.grad)
y.backward(inputs=w, retain_graph=True)
print(x.grad, w.grad)
y.backward(inputs=(x, w), retain_graph=True)
print(x.grad, w.grad)
E(lambda: y.backward(inputs=[]))
h = x * 2
z = (h * w).sum()
z.backward(inputs=[h], retain_graph=True)
print(h.grad, h.is_leaf, x.grad)
E(lambda: z.backward(inputs=[torch.ones(2)]))
u = torch.ones(2, requires_grad=True)
E(lambda: z.backward(inputs=[u], retain_graph=True))
print(u.grad)
''')

P('backward_create_graph', r'''
x = torch.tensor(2., requires_grad=True)
y = x ** 3
y.backward(create_graph=True)
print(x.grad, x.grad.requires_grad, x.grad.grad_fn)
g = x.grad
x.grad = None
g.backward()
print(x.grad)
x2 = torch.tensor([1., 2.], requires_grad=True)
(x2.sin().sum()).backward(create_graph=True, retain_graph=False)
print(x2.grad.grad_fn)
''')

P('backward_grad_variables', r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
W(lambda: torch.autograd.backward(y, grad_variables=torch.ones(2), retain_graph=True))
print(x.grad)
W(lambda: torch.autograd.backward(y, torch.ones(2), grad_variables=torch.ones(2)))
''')

P('grad_forms', r'''
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
y = (x * w).sum()
print(torch.autograd.grad(y, x, retain_graph=True))
print(torch.autograd.grad(y, [x, w], retain_graph=True))
print(torch.autograd.grad([y], (w,), retain_graph=True))
print(torch.autograd.grad((y,), [x], torch.tensor(2.), retain_graph=True))
print(torch.autograd.grad(y, x, grad_outputs=[torch.tensor(3.)], retain_graph=True))
print(type(torch.autograd.grad(y, [x], retain_graph=True)))
print(x.grad, w.grad)
g, = torch.autograd.grad(y, x)
print(g.requires_grad, g.grad_fn, g.is_leaf)
E(lambda: torch.autograd.grad(y, x))
''')

P('grad_outputs_none_entries', r'''
x = torch.tensor([1., 2.], requires_grad=True)
a = x * 2
b = (x ** 2).sum()
print(torch.autograd.grad([a, b], x, [torch.ones(2), None], retain_graph=True))
print(torch.autograd.grad([a, b], x, [torch.tensor([1., 0.]), torch.tensor(0.5)], retain_graph=True))
E(lambda: torch.autograd.grad([a, b], x, [None, None], retain_graph=True))
E(lambda: torch.autograd.grad([a, b], x, [torch.ones(2)], retain_graph=True))
E(lambda: torch.autograd.grad([a, b], x, torch.ones(2), retain_graph=True))
E(lambda: torch.autograd.grad(a, x, torch.ones(3), retain_graph=True))
E(lambda: torch.autograd.grad(a, x, torch.ones(2, dtype=torch.float64), retain_graph=True))
E(lambda: torch.autograd.grad(a, x, [2.0], retain_graph=True))
E(lambda: torch.autograd.grad(a, x, retain_graph=True))
''')

P('grad_allow_unused', r'''
x = torch.tensor([1., 2.], requires_grad=True)
u = torch.tensor([5.], requires_grad=True)
y = (x * x).sum()
E(lambda: torch.autograd.grad(y, [x, u], retain_graph=True))
E(lambda: torch.autograd.grad(y, [u, x], retain_graph=True))
E(lambda: torch.autograd.grad(y, u, retain_graph=True))
print(torch.autograd.grad(y, [x, u], retain_graph=True, allow_unused=True))
print(torch.autograd.grad(y, [x, u], retain_graph=True, allow_unused=True, materialize_grads=True))
print(torch.autograd.grad(y, [x, u], retain_graph=True, materialize_grads=True))
E(lambda: torch.autograd.grad(y, [x, u], retain_graph=True, allow_unused=False, materialize_grads=True))
r = torch.autograd.grad(y, [x, u], create_graph=True, materialize_grads=True)
print(r[1].requires_grad, r[1].grad_fn, r[1].is_leaf, r[0].grad_fn)
''')

P('grad_only_inputs', r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * 3).sum()
W(lambda: torch.autograd.grad(y, x, only_inputs=False, retain_graph=True))
W(lambda: torch.autograd.grad(y, x, only_inputs=True, retain_graph=True))
print(x.grad)
''')

P('grad_inputs_kinds', r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
h = x * 2
v = h[1:]
y = (v ** 2).sum() + h.sum()
print(torch.autograd.grad(y, h, retain_graph=True))
print(torch.autograd.grad(y, v, retain_graph=True))
print(torch.autograd.grad(y, [x, h, v], retain_graph=True))
c = torch.ones(3)
E(lambda: torch.autograd.grad(y, c, retain_graph=True))
E(lambda: torch.autograd.grad(y, [x, c], retain_graph=True))
v2 = x[:2]
E(lambda: torch.autograd.grad(y, v2, retain_graph=True))
print(torch.autograd.grad(y, v2, retain_graph=True, allow_unused=True))
E(lambda: torch.autograd.grad(y, [], retain_graph=True))
E(lambda: torch.autograd.grad(y, (), retain_graph=True))
print(h.grad, x.grad)
''')

P('grad_outputs_not_requiring', r'''
x = torch.tensor([1., 2.], requires_grad=True)
c = torch.tensor([1., 2.])
E(lambda: torch.autograd.grad(c.sum(), x))
E(lambda: torch.autograd.grad(c.sum(), c))
E(lambda: torch.autograd.grad([(x * 2).sum(), c.sum()], x))
E(lambda: torch.autograd.grad([], x))
with torch.no_grad():
    y = x.sum()
E(lambda: torch.autograd.grad(y, x))
E(lambda: torch.autograd.grad(x, x))
print(torch.autograd.grad(x, x, torch.tensor([3., 4.])))
print(torch.autograd.grad(x.sum(), x))
''')

P('grad_create_graph_higher', r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x ** 3).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
print(g, g.requires_grad, type(g.grad_fn).__name__)
g2, = torch.autograd.grad(g.sum(), x, create_graph=True)
print(g2, type(g2.grad_fn).__name__)
g3, = torch.autograd.grad(g2.sum(), x)
print(g3, g3.requires_grad)
E(lambda: torch.autograd.grad(g3.sum(), x))
h, = torch.autograd.grad((x * 2).sum(), x, create_graph=True)
print(h, h.requires_grad, h.grad_fn)
E(lambda: torch.autograd.grad(h.sum(), x))
E(lambda: torch.autograd.grad(h.sum(), x, allow_unused=True))
''')

P('grad_is_grads_batched', r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x ** 2
print(torch.autograd.grad(y, x, torch.eye(3), is_grads_batched=True, retain_graph=True))
J, = torch.autograd.grad(y, x, torch.eye(3)[:2], is_grads_batched=True, retain_graph=True)
print(J, J.shape)
E(lambda: torch.autograd.grad(y, x, torch.ones(2, 2), is_grads_batched=True, retain_graph=True))
E(lambda: torch.autograd.grad(y, x, torch.ones(3), is_grads_batched=True, retain_graph=True))
s = y.sum()
print(torch.autograd.grad(s, x, torch.tensor([1., 2.]), is_grads_batched=True, retain_graph=True))
w = torch.tensor([1., -1.], requires_grad=True)
z = (w * 3)
print(torch.autograd.grad([y, z], [x, w], [torch.ones(2, 3), torch.ones(2, 2)], is_grads_batched=True, retain_graph=True))
''')

P('grad_retain_graph_false', r'''
x = torch.tensor([0.5, 1.5], requires_grad=True)
y = x.exp().sum()
print(torch.autograd.grad(y, x, retain_graph=False))
E(lambda: torch.autograd.grad(y, x))
y2 = x.tanh().sum()
print(torch.autograd.grad(y2, x, create_graph=True))
print(torch.autograd.grad(y2, x))
E(lambda: torch.autograd.grad(y2, x))
''')

P('grad_non_tensor_args', r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * 2).sum()
E(lambda: torch.autograd.grad(y, [x, 1.0], retain_graph=True))
E(lambda: torch.autograd.grad(y, 3, retain_graph=True))
E(lambda: torch.autograd.grad(1.0, x, retain_graph=True))
E(lambda: torch.autograd.grad([y, None], x, retain_graph=True))
E(lambda: torch.autograd.grad(y, x, grad_outputs=2.0, retain_graph=True))
E(lambda: torch.autograd.grad(y, None))
''')

# fixed: non-tensor inputs/outputs raise PyTorch's RuntimeError/AssertionError (not AttributeError)
P('grad_non_tensor_entries', r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * 2).sum()
c = torch.ones(2)
E(lambda: torch.autograd.grad(y, [x, None], retain_graph=True))
E(lambda: torch.autograd.grad(y, [x, 1.0], retain_graph=True))
E(lambda: y.backward(inputs=[1.0], retain_graph=True))
E(lambda: y.backward(inputs=[x, None], retain_graph=True))
E(lambda: torch.autograd.backward([y, None], retain_graph=True))
E(lambda: torch.autograd.backward([y, 1.0], retain_graph=True))
E(lambda: torch.autograd.backward(1.0))
E(lambda: torch.autograd.backward(None))
E(lambda: torch.autograd.backward(c.sum(), inputs=[1.0]))
E(lambda: torch.autograd.grad(c.sum(), [1.0]))
E(lambda: torch.autograd.grad(y, [c, 1.0], retain_graph=True))
E(lambda: torch.autograd.grad(y, [1.0, c], retain_graph=True))
''')

# fixed: mismatch positions come from PyTorch's ``tuple.index`` (which compares tensors with ==)
P('grad_outputs_mismatch_positions', r'''
x = torch.tensor([1., 2.], requires_grad=True)
a = x * 2
b = x.sum() * 1
E(lambda: torch.autograd.grad(x.sum(), x, [torch.ones(2)], retain_graph=True))
E(lambda: torch.autograd.grad([a, b], x, [torch.ones(2), torch.ones(2)], retain_graph=True))
E(lambda: torch.autograd.grad([a, b], x, [torch.ones(2), torch.ones(3)], retain_graph=True))
E(lambda: torch.autograd.grad([b, a], x, [torch.ones(()), torch.ones(3)], retain_graph=True))
E(lambda: torch.autograd.grad([b, a], x, [None, torch.ones(3)], retain_graph=True))
E(lambda: torch.autograd.grad([a, a], x, [torch.ones(2), torch.ones(3)], retain_graph=True))
g = torch.ones(3)
E(lambda: torch.autograd.grad([a, a], x, [g, g], retain_graph=True))
E(lambda: torch.autograd.grad([a, b], x, [torch.ones(2), torch.ones(2, dtype=torch.complex64)], retain_graph=True))
E(lambda: torch.autograd.grad([b, a], x, [torch.ones(()), torch.ones(2, dtype=torch.complex64)], retain_graph=True))
E(lambda: torch.autograd.grad([b, a], x, [torch.ones(5, 3), torch.ones(5, 2)], is_grads_batched=True, retain_graph=True))
E(lambda: torch.autograd.grad([a, b], x, [torch.ones(5, 2), torch.ones(5, 2)], is_grads_batched=True, retain_graph=True))
''')

# fixed: decorators wrap with PyTorch's context_decorator (repr names decorate_context)
P('no_grad_basic_repr', r'''
x = torch.tensor([1.], requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad, y.grad_fn, y.is_leaf)
@torch.no_grad()
def doubler(x):
    return x * 2
z = doubler(x)
print(z.requires_grad)
@torch.no_grad
def tripler(x):
    return x * 3
print(tripler(x).requires_grad, tripler.__name__)
ng = torch.no_grad()
print(type(ng).__name__, type(ng).__module__)
with ng as r:
    print(r, torch.is_grad_enabled())
print(torch.is_grad_enabled())
E(lambda: torch.no_grad(True))
print(torch.no_grad.__module__, torch.enable_grad.__module__, torch.set_grad_enabled.__module__)
''')

P('enable_grad_nesting', r'''
x = torch.tensor([1.], requires_grad=True)
with torch.no_grad():
    with torch.enable_grad():
        y = x * 2
        print(torch.is_grad_enabled())
    print(torch.is_grad_enabled())
print(y.requires_grad, y.grad_fn)
y.backward()
print(x.grad)
@torch.enable_grad()
def doubler(x):
    return x * 2
with torch.no_grad():
    z = doubler(x)
print(z.requires_grad)
@torch.enable_grad
def doubler2(x):
    return x * 2
with torch.no_grad():
    print(doubler2(x).requires_grad)
with torch.enable_grad() as r:
    print(r)
''')

P('set_grad_enabled_modes', r'''
x = torch.tensor([1.], requires_grad=True)
is_train = False
with torch.set_grad_enabled(is_train):
    y = x * 2
print(y.requires_grad)
torch.set_grad_enabled(True)
y = x * 2
print(y.requires_grad)
r = torch.set_grad_enabled(False)
print(type(r).__name__, torch.is_grad_enabled())
y = x * 2
print(y.requires_grad)
torch.set_grad_enabled(True)
print(torch.is_grad_enabled())
with torch.set_grad_enabled(False) as c:
    print(c, torch.is_grad_enabled())
    with torch.set_grad_enabled(True):
        print(torch.is_grad_enabled())
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
E(lambda: torch.set_grad_enabled())
E(lambda: torch.set_grad_enabled('yes'))
E(lambda: torch.set_grad_enabled(1))
E(lambda: torch.set_grad_enabled(None))
print(torch.is_grad_enabled())
''')

P('set_grad_enabled_decorator', r'''
x = torch.tensor([2.], requires_grad=True)
@torch.set_grad_enabled(False)
def f(t):
    return t * 2, torch.is_grad_enabled()
print(torch.is_grad_enabled())
out, flag = f(x)
print(out.requires_grad, flag, torch.is_grad_enabled())
@torch.set_grad_enabled(True)
def g(t):
    return t * 2
with torch.no_grad():
    print(g(x).requires_grad)
print(f.__name__, g.__name__)
''')

P('grad_mode_generators', r'''
x = torch.tensor([2.], requires_grad=True)
@torch.no_grad()
def gen(n):
    for i in range(n):
        got = yield (x * i).requires_grad, torch.is_grad_enabled()
        print('sent', got, torch.is_grad_enabled())
    return 'done'
g = gen(2)
print(next(g), torch.is_grad_enabled())
print(g.send('a'), torch.is_grad_enabled())
try:
    g.send('b')
except StopIteration as e:
    print('stop', e.value)
@torch.enable_grad()
def gen2():
    yield (x * 2).requires_grad
with torch.no_grad():
    print(list(gen2()))
@torch.set_grad_enabled(False)
def gen3():
    yield torch.is_grad_enabled()
    yield (x * 2).requires_grad
print(list(gen3()), torch.is_grad_enabled())
import inspect
print(inspect.isgeneratorfunction(gen), inspect.isgeneratorfunction(gen3))
''')

# fixed: decorating a class warns (FutureWarning) and wraps a lambda, as PyTorch does
P('grad_mode_methods_classes', r'''
import torch.nn as nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 1)
    @torch.no_grad()
    def predict(self, x):
        return self.lin(x)
    def forward(self, x):
        return self.lin(x)
torch.manual_seed(0)
m = M()
inp = torch.ones(1, 2)
print(m.predict(inp).requires_grad, m(inp).requires_grad)
print(M.predict.__name__)
class Counter:
    @torch.enable_grad()
    def go(self, t):
        return t * 2
t = torch.ones(1, requires_grad=True)
with torch.no_grad():
    print(Counter().go(t).requires_grad)
W(lambda: torch.no_grad()(M))
@torch.no_grad()
class Q:
    pass
print(Q)
''')

P('grad_mode_exceptions_restore', r'''
def boom():
    with torch.no_grad():
        raise ValueError('inside')
E(boom)
print(torch.is_grad_enabled())
@torch.no_grad()
def bad():
    raise KeyError('k')
E(bad)
print(torch.is_grad_enabled())
with torch.no_grad():
    try:
        with torch.enable_grad():
            raise RuntimeError('x')
    except RuntimeError:
        pass
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
''')

P('is_grad_enabled_threads', r'''
import threading
res = []
def worker():
    res.append(torch.is_grad_enabled())
    with torch.no_grad():
        res.append(torch.is_grad_enabled())
with torch.no_grad():
    t = threading.Thread(target=worker)
    t.start(); t.join()
    print(torch.is_grad_enabled())
print(res)
torch.set_grad_enabled(False)
t = threading.Thread(target=worker)
t.start(); t.join()
torch.set_grad_enabled(True)
print(res)
''')

# fixed: decorated generators forward throw()/close() inside the mode, like PyTorch's _wrap_generator
P('grad_mode_generator_throw_close', r'''
@torch.no_grad()
def gen():
    try:
        while True:
            try:
                yield torch.is_grad_enabled()
            except ValueError as e:
                print('caught', e, torch.is_grad_enabled())
    finally:
        print('closing', torch.is_grad_enabled())
g = gen()
print(next(g), torch.is_grad_enabled())
print(g.throw(ValueError('v')), torch.is_grad_enabled())
g.close()
print(torch.is_grad_enabled())
print(gen.__name__, type(gen).__name__)
@torch.enable_grad()
def gen2():
    yield 1
    return 5
with torch.no_grad():
    g2 = gen2()
    print(next(g2))
    try:
        next(g2)
    except StopIteration as e:
        print('value', e.value)
''')

P('inference_mode_basic', r'''
x = torch.tensor([1., 2.], requires_grad=True)
with torch.inference_mode():
    y = x * 2
    print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
print(y.requires_grad, y.grad_fn, y.is_inference(), x.is_inference())
print(torch.is_inference_mode_enabled())
print(torch.is_inference(y), torch.is_inference(x))
with torch.inference_mode(False):
    z = x * 2
    print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
print(z.requires_grad, z.is_inference())
@torch.inference_mode()
def f(t):
    return t * 3
print(f(x).is_inference(), f(x).requires_grad)
@torch.inference_mode
def f2(t):
    return t * 3
print(f2(x).is_inference())
@torch.inference_mode(False)
def f3(t):
    return t * 3
print(f3(x).is_inference(), f3(x).requires_grad)
with torch.inference_mode():
    with torch.inference_mode(False):
        print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
        w = torch.ones(2)
    print(w.is_inference())
''')

P('inference_tensor_in_autograd', r'''
with torch.inference_mode():
    t = torch.ones(2)
print(t.is_inference(), t.requires_grad)
w = torch.tensor([1., 2.], requires_grad=True)
E(lambda: t.requires_grad_())
E(lambda: t.requires_grad_(False))
E(lambda: t * w)
y = t + w
print(y.requires_grad, type(y.grad_fn).__name__)
E(lambda: (t + w).sum().backward())
E(lambda: (w * 2).mul_(t))
E(lambda: (w * 2).add_(t))
E(lambda: w.exp() * t)
print(w.grad)
E(lambda: t.add_(1))
with torch.inference_mode():
    t.add_(1)
print(t)
c = t.clone()
print(c.is_inference(), c.requires_grad_().requires_grad)
with torch.no_grad():
    E(lambda: t.mul_(2))
n = torch.ones(2)
with torch.inference_mode():
    E(lambda: n.add_(1))
    print(n)
''')

# fixed: a view of an inference tensor has no _base
P('inference_tensor_saved_errors', r'''
w = torch.tensor([1., 2.], requires_grad=True)
with torch.inference_mode():
    t = torch.tensor([3., 4.])
E(lambda: torch.exp(t).requires_grad)
E(lambda: w * t)
y = w - t
y.sum().backward()
print(w.grad)
E(lambda: w.mul_(t))
E(lambda: w.detach().mul_(t))
print(w)
p = torch.nn.Parameter(torch.ones(2))
with torch.inference_mode():
    q = p * 2
print(q.requires_grad, q.is_inference(), q.is_leaf)
E(lambda: torch.nn.Parameter(q))
with torch.inference_mode():
    v = torch.ones(3)
    vv = v[1:]
print(vv.is_inference(), vv._base is v)
E(lambda: v.view(3).add_(1))
''')

# fixed: inference_mode(non-bool) decorates its argument, as PyTorch's __new__ does
P('inference_mode_args', r'''
E(lambda: torch.inference_mode(1))
E(lambda: torch.inference_mode(0))
E(lambda: torch.inference_mode(None))
im = torch.inference_mode()
print(type(im).__name__, im.mode)
with im:
    print(torch.is_inference_mode_enabled())
with torch.inference_mode(mode=False):
    print(torch.is_inference_mode_enabled())
def gen():
    yield torch.is_inference_mode_enabled()
print(list(torch.inference_mode()(gen)()))
''')

# fixed: views of inference tensors carry no view metadata; inference-mode views get PyTorch's own rebase error
P('inference_mode_views', r'''
with torch.inference_mode():
    v = torch.ones(3)
    vv = v[1:]
    print(vv._base, vv._is_view(), vv.is_inference())
n = torch.ones(3, requires_grad=True)
with torch.inference_mode():
    nv = n[1:]
    nd = n.detach()
    nd2 = n.detach()[1:]
print(nv._base is n, nv._is_view(), nv.is_inference(), nv.requires_grad, nv.grad_fn)
print(nd._base, nd.is_inference(), nd2.is_inference(), nd2._base is None)
E(lambda: nv.add_(1))
nvv = nv[1:]
print(nvv.grad_fn, nvv.requires_grad)
E(lambda: nvv.add_(1))
h = n * 2
with torch.inference_mode():
    hv = h[:2]
E(lambda: hv.mul_(2))
E(lambda: h.mul_(2))
E(lambda: hv.grad_fn)
E(lambda: print(hv))
with torch.no_grad():
    hv.mul_(2)
print(h)
''')

P('functional_jacobian_basic', r'''
from torch.autograd.functional import jacobian
def exp_reducer(x):
    return x.exp().sum(dim=1)
x = torch.tensor([[0., 1.], [2., -1.]])
J = jacobian(exp_reducer, x)
print(J, J.shape, J.requires_grad)
print(jacobian(exp_reducer, x, create_graph=True).requires_grad)
def exp_adder(x, y):
    return 2 * x.exp() + 3 * y
xs = (torch.tensor([0.5, 1.]), torch.tensor([1., 2.]))
r = jacobian(exp_adder, xs)
print(type(r).__name__, r)
def two_out(x):
    return x * 2, x.sum()
r2 = jacobian(two_out, torch.tensor([1., 2.]))
print(type(r2).__name__, r2)
def two_two(x, y):
    return x * y, (x + y).sum()
print(jacobian(two_two, (torch.tensor([1., 2.]), torch.tensor([3., 4.]))))
print(jacobian(lambda x: x ** 2, torch.tensor(3.)))
print(jacobian(lambda x: x.sum(), torch.ones(2, 2)))
''')

P('functional_jacobian_strict_vectorize', r'''
from torch.autograd.functional import jacobian
def f(x, y):
    return x * 2
xs = (torch.tensor([1., 2.]), torch.tensor([3.]))
print(jacobian(f, xs))
E(lambda: jacobian(f, xs, strict=True))
E(lambda: jacobian(f, xs, strict=True, vectorize=True))
print(jacobian(f, xs, vectorize=True))
print(jacobian(lambda x: x.sin(), torch.tensor([0., 1.]), vectorize=True))
def const(x):
    return torch.ones(2)
print(jacobian(const, torch.tensor([1., 2.])))
E(lambda: jacobian(const, torch.tensor([1., 2.]), strict=True))
def detached(x):
    return x.detach() * 2
E(lambda: jacobian(detached, torch.tensor([1., 2.]), strict=True))
print(jacobian(detached, torch.tensor([1., 2.])))
''')

P('functional_jacobian_forward_mode', r'''
from torch.autograd.functional import jacobian
f = lambda x: x.exp() * x
x = torch.tensor([0.5, 1.0, -1.0])
print(jacobian(f, x, vectorize=True, strategy='forward-mode'))
E(lambda: jacobian(f, x, strategy='forward-mode'))
E(lambda: jacobian(f, x, vectorize=True, strategy='forward-mode', create_graph=True))
E(lambda: jacobian(f, x, vectorize=True, strategy='forward-mode', strict=True))
E(lambda: jacobian(f, x, strategy='sideways'))
def g(a, b):
    return a * b, a + b
print(jacobian(g, (torch.tensor([1., 2.]), torch.tensor([3., 4.])), vectorize=True, strategy='forward-mode'))
print(jacobian(g, (torch.tensor([1., 2.]), torch.tensor([3., 4.])), vectorize=True, strategy='reverse-mode'))
''')

P('functional_hessian', r'''
from torch.autograd.functional import hessian
def pow_reducer(x):
    return x.pow(3).sum()
x = torch.tensor([[1., 2.], [0.5, -1.]])
H = hessian(pow_reducer, x)
print(H.shape)
print(H)
def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()
inputs = (torch.tensor([1., 2.]), torch.tensor([0.5, 3.]))
print(hessian(pow_adder_reducer, inputs))
print(hessian(pow_reducer, torch.tensor([1., 2.]), create_graph=True))
print(hessian(pow_reducer, torch.tensor([1., 2.]), vectorize=True))
print(hessian(pow_reducer, torch.tensor([1., 2.]), vectorize=True, outer_jacobian_strategy='forward-mode'))
E(lambda: hessian(pow_reducer, torch.tensor([1., 2.]), outer_jacobian_strategy='forward-mode'))
E(lambda: hessian(pow_reducer, torch.tensor([1., 2.]), outer_jacobian_strategy='x'))
E(lambda: hessian(lambda x: x * 2, torch.tensor([1., 2.])))
E(lambda: hessian(lambda x: (x, x), torch.tensor([1., 2.])))
E(lambda: hessian(lambda x: x.sum(), torch.tensor([1., 2.]), strict=True))
print(hessian(lambda x: x.sum(), torch.tensor([1., 2.])))
E(lambda: hessian(lambda x, y: (x * 2).sum(), (torch.ones(1), torch.ones(1)), strict=True))
''')

P('functional_vjp_jvp', r'''
from torch.autograd.functional import vjp, jvp
def exp_reducer(x):
    return x.exp().sum(dim=1)
inputs = torch.tensor([[0., 1.], [0.5, -0.5]])
v = torch.ones(2)
print(vjp(exp_reducer, inputs, v))
print(vjp(exp_reducer, inputs, v, create_graph=True))
def adder(x, y):
    return 2 * x + 3 * y
inputs = (torch.tensor([1., 2.]), torch.tensor([3., 4.]))
v = torch.ones(2)
print(vjp(adder, inputs, v))
print(jvp(adder, inputs, (torch.ones(2), torch.ones(2))))
print(jvp(exp_reducer, torch.tensor([[0., 1.], [0.5, -0.5]]), torch.ones(2, 2)))
print(vjp(lambda x: x.sum(), torch.tensor([1., 2.])))
print(jvp(lambda x: x * 3, torch.tensor(2.)))
E(lambda: vjp(exp_reducer, torch.ones(2, 2)))
E(lambda: jvp(exp_reducer, torch.ones(2, 2)))
E(lambda: vjp(exp_reducer, torch.ones(2, 2), torch.ones(3)))
E(lambda: jvp(exp_reducer, torch.ones(2, 2), torch.ones(3)))
E(lambda: vjp(adder, inputs, (torch.ones(2), torch.ones(2))))
E(lambda: jvp(adder, inputs, torch.ones(2)))
E(lambda: jvp(adder, inputs, (torch.ones(2),)))
''')

P('functional_vjp_jvp_strict', r'''
from torch.autograd.functional import vjp, jvp
def f(x, y):
    return x * 2
inputs = (torch.tensor([1., 2.]), torch.tensor([3., 4.]))
print(vjp(f, inputs, torch.ones(2)))
E(lambda: vjp(f, inputs, torch.ones(2), strict=True))
print(jvp(f, inputs, (torch.ones(2), torch.ones(2))))
E(lambda: jvp(f, inputs, (torch.ones(2), torch.ones(2)), strict=True))
E(lambda: vjp(lambda x: torch.ones(2), torch.ones(2), torch.ones(2), strict=True))
E(lambda: jvp(lambda x: torch.ones(2), torch.ones(2), torch.ones(2), strict=True))
print(vjp(lambda x: torch.ones(2), torch.ones(2), torch.ones(2)))
E(lambda: vjp(lambda x: x * 2, torch.ones(2), torch.ones(2), create_graph=True, strict=True))
E(lambda: jvp(lambda x: x * 2, torch.ones(2), torch.ones(2), create_graph=True, strict=True))
E(lambda: vjp(lambda x: 3.0, torch.ones(2)))
E(lambda: vjp(lambda x: [x, x], torch.ones(2), torch.ones(2)))
E(lambda: vjp(lambda x: x, [torch.ones(2)], torch.ones(2)))
E(lambda: vjp(lambda x: x, 1.0, torch.ones(2)))
E(lambda: vjp(lambda x: x, torch.ones(2), 1.0))
''')

P('functional_hvp_vhp', r'''
from torch.autograd.functional import hvp, vhp
def pow_reducer(x):
    return x.pow(3).sum()
inputs = torch.tensor([[1., 2.], [0.5, -1.]])
v = torch.ones(2, 2)
print(vhp(pow_reducer, inputs, v))
print(hvp(pow_reducer, inputs, v))
print(vhp(pow_reducer, inputs, v, create_graph=True))
print(hvp(pow_reducer, inputs, v, create_graph=True))
def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()
ins = (torch.tensor([1., 2.]), torch.tensor([0.5, 3.]))
vs = (torch.ones(2), torch.tensor([1., -1.]))
print(vhp(pow_adder_reducer, ins, vs))
print(hvp(pow_adder_reducer, ins, vs))
E(lambda: hvp(pow_reducer, inputs))
E(lambda: vhp(pow_reducer, inputs))
print(hvp(pow_reducer, torch.tensor(2.)))
E(lambda: hvp(lambda x: x * 2, inputs, v))
E(lambda: vhp(lambda x: x * 2, inputs, v))
E(lambda: hvp(lambda x: x.sum(), inputs, v, strict=True))
E(lambda: vhp(lambda x: x.sum(), inputs, v, strict=True))
print(hvp(lambda x: x.sum(), inputs, v))
E(lambda: hvp(lambda x, y: (x ** 2).sum(), ins, vs, strict=True))
E(lambda: vhp(lambda x, y: (x ** 2).sum(), ins, vs, strict=True))
E(lambda: hvp(pow_reducer, inputs, torch.ones(3)))
''')

P('functional_input_requires_grad', r'''
from torch.autograd.functional import jacobian, vjp, hessian
x = torch.tensor([1., 2.], requires_grad=True)
J = jacobian(lambda t: t ** 2, x)
print(J, J.requires_grad, x.grad)
J2 = jacobian(lambda t: t ** 2, x, create_graph=True)
print(J2, J2.requires_grad, type(J2.grad_fn).__name__)
J2.sum().backward()
print(x.grad)
out, g = vjp(lambda t: (t ** 3).sum(), x, create_graph=True)
print(out, g, out.requires_grad, g.requires_grad)
H = hessian(lambda t: (t ** 3).sum(), x, create_graph=True)
print(H.requires_grad)
y = x * 2
print(jacobian(lambda t: t.exp(), y))
print(y.grad_fn is not None, y.requires_grad)
''')

# fixed: requires_grad_(non-bool) raises PyTorch's TypeError
P('requires_grad_errors', r'''
i = torch.tensor([1, 2])
E(lambda: i.requires_grad_())
E(lambda: i.requires_grad_(False))
E(lambda: torch.tensor([1, 2], requires_grad=True))
E(lambda: torch.tensor([True], requires_grad=True))
E(lambda: torch.ones(2, dtype=torch.int32, requires_grad=True))
E(lambda: torch.arange(3, requires_grad=True))
def setattr_rg():
    i.requires_grad = True
E(setattr_rg)
c = torch.tensor([1+2j], requires_grad=True)
print(c.requires_grad)
x = torch.ones(2, requires_grad=True)
y = x * 2
E(lambda: y.requires_grad_(False))
def set_false():
    y.requires_grad = False
E(set_false)
print(y.requires_grad_(True) is y, y.requires_grad)
print(x.requires_grad_(False) is x, x.requires_grad)
E(lambda: x.requires_grad_('yes'))
E(lambda: x.requires_grad_(1))
E(lambda: x.requires_grad_(None))
h = torch.ones(2).half().requires_grad_()
print(h.requires_grad, h.dtype)
''')

P('grad_nonleaf_warning', r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
z = y.sum()
z.backward()
W(lambda: y.grad)
W(lambda: x.grad)
W(lambda: z.grad)
c = torch.ones(2)
W(lambda: c.grad)
d = c * 2
W(lambda: d.grad)
y.retain_grad()
W(lambda: y.grad)
with torch.no_grad():
    n = x * 3
W(lambda: n.grad)
v = x[0]
W(lambda: v.grad)
''')

P('retain_grad_behaviour', r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.retain_grad()
print(y.retains_grad, x.retains_grad)
z = (y ** 2).sum()
z.retain_grad()
z.backward(retain_graph=True)
print(y.grad, z.grad, x.grad)
z.backward()
print(y.grad, z.grad, x.grad)
x.retain_grad()
print(x.retains_grad)
c = torch.ones(2)
E(lambda: c.retain_grad())
print(c.retains_grad)
y.retain_grad()
print(y.retains_grad)
w = x * 3
w.retain_grad()
w.mul_(2)
w.sum().backward()
print(w.grad, w.retains_grad, type(w.grad_fn).__name__)
v = x[:1]
v.retain_grad()
(v * 5).sum().backward()
print(v.grad)
''')

P('detach_and_data', r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
d = y.detach()
print(d, d.requires_grad, d.is_leaf, d.grad_fn, d._version)
d.add_(1)
print(y, y._version, d._version)
E(lambda: y.sum().backward())
x2 = torch.tensor([1., 2.], requires_grad=True)
y2 = x2 ** 2
y2.detach().zero_()
E(lambda: y2.sum().backward())
y3 = x2 * 3
dd = y3.data
print(dd, dd.requires_grad, dd.is_leaf, dd._version)
dd.add_(1)
print(y3, y3._version)
y3.sum().backward()
print(x2.grad)
p = torch.ones(2, requires_grad=True)
p.data.mul_(3)
print(p, p._version, p.is_leaf)
p.data = torch.tensor([5., 6., 7.])
print(p, p.requires_grad, p.shape)
E(lambda: setattr(p, 'data', [1.]))
''')

P('detach_inplace', r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
r = y.detach_()
print(r is y, y.requires_grad, y.grad_fn, y.is_leaf)
E(lambda: x.detach_())
print(x.requires_grad, x.is_leaf)
z = x[:1]
E(lambda: z.detach_())
w = (x * 1).view(2)
E(lambda: w.detach_())
with torch.no_grad():
    nv = x.view(2)
E(lambda: nv.detach_())
print(nv.requires_grad)
e = torch.ones(2)
print(e.detach_() is e)
a = torch.ones(2, requires_grad=True)
b = a.exp()
c = b * 2
b.detach_()
c.sum().backward()
print(a.grad)
''')

P('leaf_checks_and_grad_assign', r'''
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: setattr(x, 'grad', torch.ones(3)))
E(lambda: setattr(x, 'grad', torch.ones(2, dtype=torch.float64)))
E(lambda: setattr(x, 'grad', torch.ones(2, dtype=torch.int64)))
E(lambda: setattr(x, 'grad', [1., 2.]))
x.grad = torch.ones(2)
print(x.grad)
x.grad = None
print(x.grad)
E(lambda: x.mul_(2))
E(lambda: x.zero_())
with torch.no_grad():
    x.mul_(2)
print(x, x._version)
y = x * 1
y.grad = torch.zeros(2)
W(lambda: y.grad)
print(x.is_leaf, y.is_leaf, torch.ones(1).is_leaf)
E(lambda: x.grad_fn.name())
print(y.grad_fn.name(), y.grad_fn.next_functions)
''')

P('grad_accumulation_identity', r'''
x = torch.tensor([1., 2.], requires_grad=True)
(x * 2).sum().backward()
g = x.grad
(x * 3).sum().backward()
print(g is x.grad, x.grad, g)
(x ** 2).sum().backward(create_graph=True)
print(g is x.grad, x.grad, type(x.grad.grad_fn).__name__)
x.grad = None
u = torch.tensor([5., 6.])
x.backward(u)
print(x.grad is u, x.grad)
w = torch.tensor([1., 1.], requires_grad=True)
(w * 2).sum().backward()
gw = w.grad
with torch.no_grad():
    gw.zero_()
(w * 4).sum().backward()
print(w.grad is gw, w.grad)
x.grad.zero_()
print(x.grad)
''')

P('grad_same_tensor_repeated', r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x ** 2).sum()
print(torch.autograd.grad(y, (x, x), retain_graph=True))
print(torch.autograd.grad([y, y], x, retain_graph=True))
print(torch.autograd.grad([y, y], [x, x], [torch.tensor(1.), torch.tensor(10.)], retain_graph=True))
print(torch.autograd.grad(y, y, retain_graph=True))
z = x * 3
print(torch.autograd.grad(z, z, torch.tensor([7., 8.]), retain_graph=True))
print(torch.autograd.grad(outputs=y, inputs=x, grad_outputs=None, retain_graph=None))
torch.autograd.backward([z, z], [torch.ones(2), torch.ones(2)])
print(x.grad)
''')

P('backward_gradient_requires_grad', r'''
x = torch.tensor([1., 2.], requires_grad=True)
v = torch.tensor([3., 4.], requires_grad=True)
y = x * x
y.backward(v, create_graph=True)
print(x.grad, type(x.grad.grad_fn).__name__)
x.grad.sum().backward()
print(v.grad, x.grad)
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
(a * 2).backward(b)
print(a.grad, a.grad.requires_grad, b.grad)
''')

P('backward_inputs_nonleaf_retains', r'''
x = torch.tensor([1., 2.], requires_grad=True)
h = x * 2
print(h.retains_grad)
y = (h ** 2).sum()
y.backward(inputs=[h, x], retain_graph=True)
print(h.retains_grad, h.grad, x.grad)
y.backward(retain_graph=True)
print(h.grad, x.grad)
g = torch.autograd.grad(y, h)
print(g, h.grad)
''')

P('complex_and_half_roots', r'''
c = torch.tensor([1+1j, 2-1j], requires_grad=True)
s = (c * c).sum()
E(lambda: s.backward())
print(s.dtype, s.requires_grad)
s.backward(torch.tensor(1+0j), retain_graph=True)
print(c.grad)
E(lambda: s.backward(torch.tensor(1.)))
r = (c.abs() ** 2).sum()
r.backward()
print(c.grad)
h = torch.tensor([1., 2.], dtype=torch.float16, requires_grad=True)
(h * h).sum().backward()
print(h.grad, h.grad.dtype)
d = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
(d * 2).backward(torch.ones(2, dtype=torch.float32))
print(d.grad, d.grad.dtype)
b = torch.tensor([1., 2.], dtype=torch.bfloat16, requires_grad=True)
print(torch.autograd.grad((b ** 2).sum(), b))
''')

P('grad_mode_interplay', r'''
x = torch.ones(2, requires_grad=True)
with torch.inference_mode():
    with torch.enable_grad():
        print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
        y = x * 2
    with torch.no_grad():
        print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
    with torch.set_grad_enabled(True):
        print(torch.is_grad_enabled())
print(y.requires_grad, y.is_inference())
with torch.no_grad():
    with torch.inference_mode():
        print(torch.is_grad_enabled())
    with torch.inference_mode(False):
        print(torch.is_grad_enabled())
    print(torch.is_grad_enabled())
with torch.no_grad():
    torch.set_grad_enabled(True)
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
print(torch.autograd.no_grad is torch.no_grad, torch.autograd.set_grad_enabled is torch.set_grad_enabled)
print(torch.autograd.grad_mode.no_grad is torch.no_grad, torch.autograd.enable_grad is torch.enable_grad)
print(torch.autograd.inference_mode is torch.inference_mode)
print(torch.set_grad_enabled(False))
torch.set_grad_enabled(True)
print(torch.is_grad_enabled())
''')

P('grad_mode_decorator_stacking', r'''
x = torch.ones(2, requires_grad=True)
@torch.no_grad()
@torch.enable_grad()
def f():
    return torch.is_grad_enabled(), (x * 2).requires_grad
print(f())
@torch.enable_grad()
@torch.no_grad()
def g():
    return torch.is_grad_enabled()
print(g())
nd = torch.no_grad()
@nd
def h1():
    return torch.is_grad_enabled()
@nd
def h2():
    with torch.enable_grad():
        return h1(), torch.is_grad_enabled()
print(h2(), torch.is_grad_enabled())
@torch.set_grad_enabled(False)
def rec(n):
    return torch.is_grad_enabled() if n == 0 else rec(n - 1)
print(rec(3), torch.is_grad_enabled())
''')

P('variable_deprecated', r'''
from torch.autograd import Variable
v = Variable(torch.tensor([1., 2.]), requires_grad=True)
print(v, type(v).__name__, v.requires_grad, v.is_leaf)
(v * 2).sum().backward()
print(v.grad)
W(lambda: Variable(torch.ones(1), volatile=True))
print(isinstance(torch.ones(1), Variable))
''')

P('inputs_dict_generator', r'''
import collections
import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 1)
out = m(torch.ones(1, 2)).sum()
g = torch.autograd.grad(out, dict(m.named_parameters()), retain_graph=True)
print(type(g).__name__, list(g), g['bias'])
print(torch.autograd.grad(out, m.parameters(), retain_graph=True))
E(lambda: torch.autograd.grad(out, collections.OrderedDict(m.named_parameters()), retain_graph=True))
E(lambda: torch.autograd.grad(out, {}, retain_graph=True))
out.backward(inputs=dict(w=m.weight), retain_graph=True)
print(m.weight.grad, m.bias.grad)
out.backward(inputs=iter([m.bias]), retain_graph=True)
print(m.bias.grad)
E(lambda: out.backward(inputs=collections.OrderedDict(b=m.bias)))
E(lambda: out.backward(inputs={}))
print(torch.autograd.grad([out], (p for p in [m.bias])))
''')

P('gradient_edge_api', r'''
from torch.autograd.graph import get_gradient_edge
x = torch.tensor([1., 2.], requires_grad=True)
h = x * 2
y = (h ** 2).sum()
eh = get_gradient_edge(h)
print(type(eh).__name__, eh.output_nr, type(eh.node).__name__)
print(torch.autograd.grad(y, eh, retain_graph=True))
print(torch.autograd.grad(y, [x, eh], retain_graph=True))
ex = get_gradient_edge(x)
print(type(ex.node).__name__)
print(torch.autograd.grad(y, ex, retain_graph=True))
E(lambda: get_gradient_edge(torch.ones(2)))
u = torch.ones(2, requires_grad=True)
E(lambda: torch.autograd.grad(y, get_gradient_edge(u), retain_graph=True))
print(torch.autograd.grad(y, get_gradient_edge(u), retain_graph=True, allow_unused=True))
E(lambda: torch.autograd.grad(y, get_gradient_edge(u), retain_graph=True, materialize_grads=True))
''')

P('backward_views_and_leaf_views', r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
x[0].backward()
print(x.grad)
x[1:].backward(torch.tensor([1., 1.]))
print(x.grad)
x.view(3, 1).backward(torch.ones(3, 1))
print(x.grad)
E(lambda: x.view(3, 1).backward(torch.ones(3)))
print(torch.autograd.grad(x[2], x))
print(torch.autograd.grad(x.t(), x, torch.ones(3)))
print(x.expand(2, 3).requires_grad, type(x.expand(2, 3).grad_fn).__name__)
print(torch.autograd.grad(x.expand(2, 3), x, torch.ones(2, 3)))
''')

P('tutorial_eye_jacobian_products', r'''
inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")
E(lambda: out.backward(torch.ones_like(inp)))
print(out.shape, out.grad_fn, out.grad_fn.next_functions)
''')

P('seed_note_one_layer', r'''
x = torch.ones(5)
y = torch.zeros(3)
torch.manual_seed(0)
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
E(lambda: loss.backward())
print(loss.grad_fn.next_functions)
E(lambda: loss.grad_fn._saved_self)
E(lambda: loss.grad_fn._saved_target)
print(loss.grad_fn._saved_reduction)
''')

P('seed_note_a_plus_b', r'''
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
c = a + b
s = c.sum()
print(a.requires_grad, a.grad_fn, a.grad)
print(c.requires_grad, c.grad_fn, s.grad_fn)
s.backward()
print(a.grad, b.grad)
W(lambda: c.grad)
print(c.is_leaf, s.is_leaf, a.is_leaf)
m = a.mean() * (a * a).mean()
m.backward()
print(a.grad)
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
print(z, out)
out.backward()
print(x.grad)
x = torch.randn(3, generator=torch.Generator().manual_seed(1), requires_grad=True)
y = x * 2
while y.data.norm() < 100:
    y = y * 2
print(y)
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)
print(x.grad)
print(x.requires_grad, (x ** 2).requires_grad)
with torch.no_grad():
    print((x ** 2).requires_grad)
''')

P('version_errors_after_detach_data', r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
y.detach().zero_()
E(lambda: y.sum().backward())
print(y._version)
y2 = x.exp()
y2.data.zero_()
y2.sum().backward()
print(x.grad, y2._version)
a = torch.tensor([1., 2.], requires_grad=True)
b = a * 1
c = b.sigmoid()
b.add_(1)
print(c.grad_fn.next_functions[0][0].name())
E(lambda: c.sum().backward())
d = a.clone()
e = d ** 2
d.mul_(3)
E(lambda: e.sum().backward())
w = torch.ones(2, requires_grad=True)
with torch.no_grad():
    w2 = w.tanh()
z = (w * w2)
with torch.no_grad():
    w2.add_(1)
E(lambda: z.sum().backward())
''')

P('retain_graph_false_with_create_graph', r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x ** 3).sum()
g, = torch.autograd.grad(y, x, create_graph=True, retain_graph=False)
print(g)
E(lambda: torch.autograd.grad(y, x))
print(torch.autograd.grad(g.sum(), x))
y2 = (x.sin() * x).sum()
y2.backward(create_graph=True, retain_graph=False)
E(lambda: y2.backward())
gg = x.grad
x.grad = None
E(lambda: gg.sum().backward())
print(x.grad)
y3 = (x ** 3).sum()
g3, = torch.autograd.grad(y3, x, create_graph=True, retain_graph=False)
E(lambda: g3.sum().backward())
''')

P('needs_input_grad_seed', r'''
class MultiplyAdd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, w, x, b):
        ctx.save_for_backward(w, x)
        return w * x + b
    @staticmethod
    def backward(ctx, grad_output):
        w, x = ctx.saved_tensors
        print('needs', ctx.needs_input_grad)
        grad_w = grad_output * x if ctx.needs_input_grad[0] else None
        grad_x = grad_output * w if ctx.needs_input_grad[1] else None
        return grad_w, grad_x, grad_output
x = torch.ones(1)
w = torch.rand(1, requires_grad=True, generator=torch.Generator().manual_seed(0))
b = torch.rand(1, requires_grad=True, generator=torch.Generator().manual_seed(1))
out = MultiplyAdd.apply(w, x, b)
print(out.grad_fn, out.requires_grad)
out.backward()
print(w.grad, x.grad, b.grad)
out2 = MultiplyAdd.apply(w, x, 3.0)
E(lambda: out2.backward())
print(w.grad)
with torch.no_grad():
    o3 = MultiplyAdd.apply(w, x, b)
print(o3.requires_grad, o3.grad_fn)
''')

P('grad_of_leaf_in_graph_twice_and_unreachable', r'''
x = torch.tensor(2., requires_grad=True)
y = x * x * x
print(torch.autograd.grad(y, x, retain_graph=True))
z = torch.tensor(1., requires_grad=True)
s = y + z
print(torch.autograd.grad(s, [z, x], retain_graph=True))
print(torch.autograd.grad(s, y, retain_graph=True))
print(torch.autograd.grad(y, z, allow_unused=True, retain_graph=True))
E(lambda: torch.autograd.grad(y, s, retain_graph=True))
print(torch.autograd.grad(y, s, allow_unused=True, retain_graph=True))
print(torch.autograd.grad(y, s, materialize_grads=True, retain_graph=True))
''')

P('functional_create_graph_grad_fns', r'''
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp
def gname(t):
    return None if t.grad_fn is None else type(t.grad_fn).__name__
x = torch.tensor([1., 2.], requires_grad=True)
f = lambda t: t.sin() * t
for fn in (jacobian, hessian):
    for vec in (False, True):
        r = fn(f, x, create_graph=True, vectorize=vec) if fn is jacobian else fn(lambda t: f(t).sum(), x, create_graph=True, vectorize=vec)
        print(fn.__name__, vec, r, r.requires_grad, gname(r))
o, v = vjp(f, x, torch.ones(2), create_graph=True)
print(gname(o), gname(v), v)
o, v = jvp(f, x, torch.ones(2), create_graph=True)
print(gname(o), gname(v), v)
o, v = hvp(lambda t: f(t).sum(), x, torch.ones(2), create_graph=True)
print(gname(o), gname(v), v)
o, v = vhp(lambda t: f(t).sum(), x, torch.ones(2), create_graph=True)
print(gname(o), gname(v), v)
o, v = vjp(f, x, torch.ones(2))
print(gname(o), gname(v), o.requires_grad, v.requires_grad)
''')

P('functional_create_graph_input_without_grad', r'''
from torch.autograd.functional import jacobian, vjp, jvp, hessian
x = torch.tensor([1., 2.])
J = jacobian(lambda t: t ** 2, x, create_graph=True)
print(J, J.requires_grad)
o, v = vjp(lambda t: t ** 2, x, torch.ones(2), create_graph=True)
print(o, v, o.requires_grad, v.requires_grad)
o, v = jvp(lambda t: t ** 2, x, torch.ones(2), create_graph=True)
print(o, v, o.requires_grad, v.requires_grad)
H = hessian(lambda t: (t ** 3).sum(), x, create_graph=True)
print(H, H.requires_grad)
print(jacobian(lambda t: torch.zeros(2), x, create_graph=True).requires_grad)
print(jacobian(lambda t: t * 0 + 1, x, vectorize=True, create_graph=True))
''')

# fixed: vectorized jacobians of empty outputs/inputs (IndexError / empty blocks, as PyTorch's batched path)
P('functional_shapes_and_empty', r'''
from torch.autograd.functional import jacobian, hessian
x = torch.ones(2, 3)
print(jacobian(lambda t: t.sum(0), x).shape)
print(jacobian(lambda t: t.mean(), x).shape)
print(jacobian(lambda t, u: t @ u, (torch.ones(2, 3), torch.ones(3, 1)))[1].shape)
print(hessian(lambda t: (t ** 2).sum(), torch.ones(2, 2)).shape)
E(lambda: jacobian(lambda t: t * 2, torch.ones(0)))
E(lambda: jacobian(lambda t: t.sum(), torch.ones(0)))
E(lambda: jacobian(lambda t: t[:0], torch.ones(2)))
E(lambda: jacobian(lambda t: t * 2, torch.ones(0), vectorize=True))
E(lambda: jacobian(lambda t: t[:0], torch.ones(2), vectorize=True))
E(lambda: jacobian(lambda t: (t[:0], t*2), torch.ones(2)))
E(lambda: jacobian(lambda t: (t[:0], t*2), torch.ones(2), vectorize=True))
E(lambda: jacobian(lambda t: t.sum(), torch.ones(0), vectorize=True))
E(lambda: jacobian(lambda t: t*2, torch.ones(0), vectorize=True, strategy='forward-mode'))
E(lambda: jacobian(lambda t: t[:0], torch.ones(2), vectorize=True, strategy='forward-mode'))
E(lambda: jacobian(lambda t, u: t*2, (torch.ones(0), torch.ones(1)), vectorize=True, strategy='forward-mode'))
E(lambda: jacobian(lambda t, u: (t*2, u), (torch.ones(0), torch.ones(1)), vectorize=True))
E(lambda: hessian(lambda t: t.sum(), torch.ones(0)))
E(lambda: hessian(lambda t: t.sum(), torch.ones(0), vectorize=True))
E(lambda: jacobian(lambda t: torch.zeros(0), torch.ones(2), vectorize=True))
print(jacobian(lambda t: t * 2, torch.tensor([1., 2.], dtype=torch.float64)).dtype)
E(lambda: jacobian(lambda t: t * 2, torch.tensor([1, 2])))
E(lambda: jacobian(lambda t: t.float() * 2, torch.tensor([1, 2])))
''')

P('functional_outputs_tuple_structures', r'''
from torch.autograd.functional import jacobian, vjp, jvp
def f(x, y):
    return (x * y, x + y, (x - y).sum())
ins = (torch.tensor([1., 2.]), torch.tensor([3., 5.]))
J = jacobian(f, ins)
print(len(J), [len(r) for r in J], type(J[0]).__name__)
print(J[2])
o, v = vjp(f, ins, (torch.ones(2), torch.tensor([1., -1.]), torch.tensor(2.)))
print(o, v)
E(lambda: vjp(f, ins, (torch.ones(2), torch.ones(2))))
E(lambda: vjp(f, ins, torch.ones(2)))
o, t = jvp(f, ins, (torch.ones(2), torch.zeros(2)))
print(o, t)
E(lambda: vjp(f, ins, (torch.ones(2), torch.ones(3), torch.tensor(1.))))
E(lambda: jvp(f, ins, (torch.ones(2), torch.ones(3))))
print(jacobian(lambda a: (a,), torch.tensor([1., 2.])))
print(jacobian(lambda a: [a * 2][0], (torch.tensor([1., 2.]),)))
''')

P('grad_mode_during_backward', r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
y.register_hook(lambda g: print('hook', torch.is_grad_enabled(), g.requires_grad))
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        print('fwd', torch.is_grad_enabled())
        return t * 2
    @staticmethod
    def backward(ctx, g):
        print('bwd', torch.is_grad_enabled(), g.requires_grad)
        return g * 2
z = F.apply(y).sum()
z.backward(retain_graph=True)
z.backward(create_graph=True, retain_graph=True)
with torch.no_grad():
    z.backward(retain_graph=True)
torch.autograd.grad(z, x, create_graph=True)
with torch.inference_mode():
    E(lambda: torch.autograd.grad(z, x, retain_graph=True))
''')

P('backward_keyword_misuse', r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
E(lambda: y.backward(grad_tensors=torch.ones(2)))
E(lambda: y.backward(torch.ones(2), True, False, None, 5))
E(lambda: torch.autograd.backward(y, gradient=torch.ones(2)))
E(lambda: torch.autograd.grad(y, x, grad_tensors=torch.ones(2)))
E(lambda: torch.autograd.grad(y))
E(lambda: y.backward(torch.ones(2), retain_graph=True, inputs=x))
print(x.grad)
E(lambda: torch.autograd.backward(tensors=y, grad_tensors=torch.ones(2), inputs=[x]))
print(x.grad)
''')

P('batched_grads_edge_cases', r'''
x = torch.tensor([1., 2.], requires_grad=True)
s = (x ** 2).sum()
E(lambda: torch.autograd.grad(s, x, is_grads_batched=True, retain_graph=True))
E(lambda: torch.autograd.grad(s, x, torch.tensor(1.), is_grads_batched=True, retain_graph=True))
y = x * 3
r = torch.autograd.grad(y, x, torch.eye(2), is_grads_batched=True, create_graph=True)
print(r, r[0].requires_grad)
u = torch.ones(1, requires_grad=True)
print(torch.autograd.grad(y, [x, u], torch.eye(2), is_grads_batched=True, allow_unused=True, retain_graph=True))
print(torch.autograd.grad(y, [x, u], torch.eye(2), is_grads_batched=True, materialize_grads=True, retain_graph=True))
E(lambda: torch.autograd.grad([y, s], x, [torch.eye(2), torch.ones(3)], is_grads_batched=True, retain_graph=True))
E(lambda: torch.autograd.grad([y, s], x, [torch.eye(2), None], is_grads_batched=True, retain_graph=True))
E(lambda: torch.autograd.grad([y, s], x, [torch.eye(2), torch.ones(2)], is_grads_batched=True, retain_graph=True))
E(lambda: torch.autograd.grad([y, s], x, [None, torch.ones(2)], is_grads_batched=True, retain_graph=True))
E(lambda: torch.autograd.grad([y, s], x, [torch.ones(1, 2), torch.ones(3)], is_grads_batched=True, retain_graph=True))
''')

P('detach_requires_grad_new_leaf', r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * 2).detach().requires_grad_()
print(y.is_leaf, y.requires_grad, y.grad_fn)
(y * y).sum().backward()
print(y.grad, x.grad)
z = x.detach()
print(z._base is None, z.data_ptr() == x.data_ptr())
z[0] = 10.
print(x)
E(lambda: (x * x).sum().backward())
v = x.view(2)
dv = v.detach()
print(dv._is_view(), dv._base is None)
''')

# fixed: entering one inference_mode object twice drops its first guard, which restores its state (PyTorch's
# _InferenceMode objects); the outer inference_mode(False) block puts everything back at the end
P('inference_mode_object_reuse', r'''
with torch.inference_mode(False):
    im = torch.inference_mode()
    with torch.no_grad():
        with im:
            with im:
                print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
            print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
        print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    im2 = torch.inference_mode(False)
    with im:
        with im2:
            with im2:
                print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
            print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
        print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    with im:
        pass
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    im.__exit__(None, None, None)
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
''')

P('grad_mode_object_reuse', r'''
torch.set_grad_enabled(True)
ng = torch.no_grad()
with ng:
    with ng:
        print(torch.is_grad_enabled())
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
torch.set_grad_enabled(True)
c = torch.set_grad_enabled(False)
print(torch.is_grad_enabled())
torch.set_grad_enabled(True)
with c:
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
eg = torch.enable_grad()
torch.set_grad_enabled(False)
with eg:
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
torch.set_grad_enabled(True)
print(type(ng.clone()).__name__, ng.clone() is ng)
s = torch.set_grad_enabled(True)
print(s.clone(), s.mode)
''')

# fixed: no_grad(1, 2) and is_grad_enabled(True) raise PyTorch's TypeErrors
P('set_grad_enabled_misuse', r'''
E(lambda: torch.set_grad_enabled(lambda: 1))
E(lambda: torch.set_grad_enabled(mode=True))
E(lambda: torch.set_grad_enabled(True, False))
E(lambda: torch.set_grad_enabled(torch.tensor(True)))
print(torch.is_grad_enabled())
E(lambda: torch.no_grad(lambda: 1)())
E(lambda: torch.enable_grad(5))
E(lambda: torch.no_grad(1, 2))
E(lambda: torch.is_grad_enabled(True))
E(lambda: torch.is_inference_mode_enabled(1))
print(torch.is_grad_enabled())
''')

P('inference_mode_threads_and_generators', r'''
import threading
res = []
def worker():
    res.append((torch.is_inference_mode_enabled(), torch.is_grad_enabled()))
with torch.inference_mode():
    t = threading.Thread(target=worker)
    t.start(); t.join()
print(res)
@torch.inference_mode()
def gen():
    yield torch.is_inference_mode_enabled(), torch.ones(1).is_inference()
    yield torch.is_grad_enabled()
print(list(gen()), torch.is_inference_mode_enabled())
@torch.inference_mode(False)
def gen2():
    yield torch.is_inference_mode_enabled()
with torch.inference_mode():
    print(list(gen2()))
''')

P('warning_locations', r'''
import torch.nn as nn
def show(ws):
    for w in ws:
        f = w.filename if w.filename.startswith('<') else w.filename.split('/')[-1]
        print(w.category.__name__, f, w.lineno, str(w.message)[:50])
with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter('always')
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x * 2
    y.grad
    torch.autograd.grad(y.sum(), x, only_inputs=False)
    z = (x * 3)
    torch.autograd.backward(z, grad_variables=torch.ones(2))
    torch.no_grad()(nn.Linear)
    from torch.autograd import Variable
    Variable(torch.ones(1), volatile=True)
    w = x.exp()
    w.retain_grad()
    w.grad
    w.sum().backward()
    print(w.grad)
    (x * 1).grad
show(ws)
''')

# fixed: t.data of an inference tensor is an inference tensor
P('inference_tensor_api', r'''
with torch.inference_mode():
    t = torch.tensor([1., 2.])
    p = torch.nn.Parameter(torch.ones(2))
    print(p.requires_grad, p.is_inference(), p.is_leaf)
print(p.requires_grad, p.is_inference())
E(lambda: p * torch.ones(2, requires_grad=True))
E(lambda: (p * 2).sum().backward())
E(lambda: t.data.is_inference())
E(lambda: t.data.add_(1))
E(lambda: t.detach().is_inference())
E(lambda: t.clone().is_inference())
E(lambda: t.numpy())
E(lambda: t.tolist())
E(lambda: t.grad)
E(lambda: setattr(t, 'grad', torch.ones(2)))
E(lambda: t.retain_grad())
E(lambda: torch.nn.Parameter(t))
E(lambda: t.view(2, 1).is_inference())
E(lambda: (t + 1).is_inference())
E(lambda: torch.cat([t, torch.ones(2)]).is_inference())
E(lambda: t._version)
E(lambda: t.requires_grad)
with torch.inference_mode():
    E(lambda: t.requires_grad_())
    print(t.requires_grad, t.is_leaf)
E(lambda: t.requires_grad_(False))
print(t.requires_grad)
E(lambda: (t * 2).sum().backward())
E(lambda: t.sum().backward())
''')

P('inference_mode_model', r'''
import torch.nn as nn
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
x = torch.randn(2, 3)
with torch.inference_mode():
    y = m(x)
print(y, y.requires_grad, y.is_inference())
E(lambda: m(y.expand(2, 3) if False else torch.cat([y, y, y], 1)).sum().backward())
y2 = y.clone()
out = m(torch.cat([y2, y2, y2], 1)).sum()
out.backward()
print(m[0].weight.grad.abs().sum() > 0)
with torch.inference_mode():
    for p in m.parameters():
        E(lambda: p.add_(1))
        break
print(m[0].weight.is_inference(), m[0].weight.requires_grad)
with torch.no_grad():
    m[0].weight.add_(1)
print(m[0].weight._version)
''')

# fixed: .data / .detach() of an inference tensor (outside inference mode) stay inference tensors with a version
# counter of their own, so they may change in place; .data of a normal tensor in inference mode is normal
P('inference_tensor_detach_data', r'''
with torch.inference_mode():
    t = torch.tensor([1., 2.])
d = t.data
print(d.is_inference(), d._is_view(), d.data_ptr() == t.data_ptr())
E(lambda: d.add_(1))
E(lambda: t.detach().add_(1))
E(lambda: d.requires_grad_())
E(lambda: d[0].add_(1))
E(lambda: d.view(2).add_(1))
E(lambda: (d * torch.ones(2, requires_grad=True)))
E(lambda: d._version)
E(lambda: d.data.add_(1))
print(t)
w = torch.ones(2, requires_grad=True)
print(w.data.is_inference())
with torch.inference_mode():
    print(w.data.is_inference(), w.detach().is_inference())
''')

# fixed: detach() of an inference tensor made inside inference mode has no version counter; outside it has one
P('inference_tensor_detach_versions', r'''
with torch.inference_mode():
    t = torch.tensor([1., 2.])
    di = t.detach()
    da = t.data
E(lambda: di._version)
E(lambda: di.add_(1))
E(lambda: da._version)
E(lambda: da.add_(1))
d = t.detach()
E(lambda: d._version)
E(lambda: d.detach().add_(1))
E(lambda: d.detach()._version)
E(lambda: d.data.add_(1))
E(lambda: d.clone().is_inference())
E(lambda: t.detach_())
E(lambda: t.detach_().add_(1))
print(t.is_inference())
E(lambda: d.t().is_inference())
E(lambda: d.t().add_(1))
E(lambda: d.reshape(2).add_(1))
E(lambda: d.reshape(1, 2).detach().add_(1))
E(lambda: d.requires_grad)
print(t)
''')

P('grad_layout_contract', r'''
base = torch.arange(6.).reshape(3, 2)
x = base.t().requires_grad_()
print(x.is_leaf, x.stride(), x._is_view())
(x * 2).sum().backward()
print(x.grad, x.grad.stride(), x.grad.is_contiguous())
v = torch.ones(3, requires_grad=True)
v.backward(torch.ones(1).expand(3))
print(v.grad, v.grad.stride())
w = torch.ones(2, 3, requires_grad=True)
g = torch.ones(3, 2).t()
w.backward(g)
print(w.grad.stride(), w.grad is g)
w.backward(g)
print(w.grad.stride())
s = torch.ones(4, requires_grad=True)
s.backward(torch.arange(8.)[::2])
print(s.grad, s.grad.stride())
''')

P('grad_results_layout', r'''
x = torch.ones(2, 3, requires_grad=True)
y = x.t()
g, = torch.autograd.grad(y, x, torch.ones(3, 2))
print(g.stride(), g.is_contiguous())
g2, = torch.autograd.grad(x.sum(), x)
print(g2.stride(), g2)
g3, = torch.autograd.grad(x, x, torch.ones(3, 2).t())
print(g3.stride())
''')

P('mixed_roots_errors', r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
c = torch.ones(2)
E(lambda: torch.autograd.grad([y, c], x, [torch.ones(2), torch.ones(2)], retain_graph=True))
E(lambda: torch.autograd.grad([y, c], x, [torch.ones(2), None], retain_graph=True))
E(lambda: torch.autograd.grad([c, y], x, [None, torch.ones(2)], retain_graph=True))
E(lambda: torch.autograd.backward([y, c], [torch.ones(2), None], retain_graph=True))
E(lambda: torch.autograd.backward([c.sum(), y.sum()], retain_graph=True))
print(x.grad)
i = torch.tensor([1, 2])
E(lambda: torch.autograd.grad(y, x, torch.tensor([1, 1]), retain_graph=True))
E(lambda: torch.autograd.grad(y, x, torch.tensor([True, False]), retain_graph=True))
E(lambda: torch.autograd.grad(y.sum(), x, torch.tensor(1), retain_graph=True))
E(lambda: y.sum().backward(torch.tensor(2)))
print(x.grad)
''')

P('backward_through_detached_and_nondiff', r'''
x = torch.tensor([1.5, -0.5, 2.0], requires_grad=True)
i = x.argmax()
print(i, i.requires_grad, i.grad_fn)
E(lambda: torch.autograd.grad(i, x))
r = x.round()
print(r.requires_grad, type(r.grad_fn).__name__)
print(torch.autograd.grad(r.sum(), x))
s = x.sign()
print(torch.autograd.grad(s.sum(), x))
b = x > 0
print(b.requires_grad, b.grad_fn)
m = x * b
print(torch.autograd.grad(m.sum(), x))
f = x.floor().sum() + x.detach().sum()
print(torch.autograd.grad(f, x))
''')

P('functional_forward_mode_limits', r'''
from torch.autograd.functional import jacobian, hessian
class NoJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = torch.tensor([1., 2.])
E(lambda: jacobian(NoJvp.apply, x, vectorize=True, strategy='forward-mode'))
print(jacobian(NoJvp.apply, x))
print(jacobian(NoJvp.apply, x, vectorize=True))
E(lambda: hessian(lambda t: (t ** 3).sum(), x, vectorize=True, outer_jacobian_strategy='forward-mode', create_graph=True))
print(hessian(lambda t, u: (t ** 2 * u).sum(), (x, torch.tensor([3., 4.])), vectorize=True, outer_jacobian_strategy='forward-mode'))
print(jacobian(lambda t: t.detach() * 2, x, vectorize=True, strategy='forward-mode'))
print(jacobian(lambda t: torch.ones(3), x, vectorize=True, strategy='forward-mode'))
print(jacobian(lambda t: (t, t.sum()), x, vectorize=True, strategy='forward-mode'))
''')

P('functional_v_dtypes_and_grads', r'''
from torch.autograd.functional import vjp, jvp, hvp, vhp
x = torch.tensor([1., 2.])
f = lambda t: t ** 2
print(vjp(f, x, torch.ones(2, dtype=torch.float64)))
print(jvp(f, x, torch.ones(2, dtype=torch.float64)))
E(lambda: vjp(f, x, torch.ones(2, dtype=torch.complex64)))
E(lambda: vjp(f, x, torch.ones(2, dtype=torch.int64)))
v = torch.tensor([1., -1.], requires_grad=True)
o, r = vjp(f, x, v, create_graph=True)
print(r, r.requires_grad, type(r.grad_fn).__name__)
r.sum().backward()
print(v.grad)
o, r = vjp(f, x, v)
print(r.requires_grad)
o, r = jvp(f, x, v, create_graph=True)
print(r, r.requires_grad)
o, r = hvp(lambda t: (t ** 3).sum(), x, v, create_graph=True)
print(r, r.requires_grad)
o, r = vhp(lambda t: (t ** 3).sum(), x, v)
print(r, r.requires_grad)
print(vjp(f, x.double(), torch.ones(2)))
''')

P('partial_graph_freeing', r'''
x = torch.tensor([0.5, 1.5], requires_grad=True)
y = x.exp()
z1 = (y * 2).sum()
z2 = (y.sin()).sum()
z1.backward()
print(x.grad)
E(lambda: z2.backward())
print(x.grad)
a = x.tanh()
b1 = a.sum()
b2 = (a * a).sum()
b2.backward(retain_graph=True)
b1.backward()
print(x.grad)
E(lambda: b2.backward())
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return t * t
    @staticmethod
    def backward(ctx, g):
        t, = ctx.saved_tensors
        return 2 * t * g
s = Sq.apply(x).sum()
s.backward()
E(lambda: s.backward())
E(lambda: s.grad_fn.saved_tensors)
n = x.exp()
m = n.sum()
torch.autograd.grad(m, x)
E(lambda: n.grad_fn._saved_result)
E(lambda: torch.autograd.grad(m, n))
''')

# fixed: a leaf whose requires_grad was turned off after the forward gets no gradient
P('grad_state_changes_between_passes', r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
y.grad = torch.ones(2)
(y * y).sum().backward(retain_graph=True)
W(lambda: y.grad)
y.retain_grad()
W(lambda: y.grad)
(y * y).sum().backward(retain_graph=True)
print(y.grad, x.grad)
x2 = torch.tensor([1., 2.], requires_grad=True)
z = (x2 ** 2).sum()
x2.requires_grad_(False)
z.backward()
print(x2.grad, x2.requires_grad)
x3 = torch.tensor([1., 2.], requires_grad=True)
z3 = (x3 * 5).sum()
x3.grad = torch.tensor([10., 10.])
z3.backward()
print(x3.grad)
x3.grad = torch.tensor([1., 1.], requires_grad=True)
(x3 * 5).sum().backward()
print(x3.grad)
''')

# fixed: a leaf changed in place after the forward (now with a grad_fn) raises PyTorch's logic error
P('leaf_moved_into_graph_interior', r'''
x = torch.ones(2, requires_grad=True)
w = torch.tensor([2., 3.], requires_grad=True)
y = (x * 2).sum()
x.requires_grad_(False)
x.mul_(w)
print(x.is_leaf, x.grad_fn)
E(lambda: y.backward())
print(x.grad, w.grad)
x2 = torch.ones(2, requires_grad=True)
y2 = (x2 * 2).sum()
x2.requires_grad_(False)
E(lambda: torch.autograd.grad(y2, x2))
x2.requires_grad_(True)
E(lambda: torch.autograd.grad(y2, x2))
x3 = torch.ones(2, requires_grad=True)
y3 = (x3 * x3).sum()
x3.requires_grad_(False)
E(lambda: y3.backward(inputs=[x3]))
x3.requires_grad_(True)
x3.retain_grad()
print(x3.retains_grad)
''')

P('data_swap_after_forward', r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * x).sum()
x.data = torch.tensor([10., 20.])
y.backward()
print(x.grad, x._version)
a = torch.tensor([1., 2.], requires_grad=True)
h = a * 3
b = (h * h).sum()
h.data = torch.tensor([0., 1.])
b.backward()
print(a.grad)
c = torch.tensor([1., 2.], requires_grad=True)
e = c.exp()
s = e.sum()
e.data.mul_(0)
s.backward()
print(c.grad, e._version)
p = torch.nn.Parameter(torch.tensor([1., 2.]))
p.data = torch.tensor([3., 4.], dtype=torch.float64)
print(p, p.dtype)
E(lambda: setattr(p, 'data', torch.tensor([1, 2])))
q = torch.ones(2)
q.data = torch.tensor([1, 2])
print(q, q.dtype)
''')

P('functional_strict_closure_outputs', r'''
from torch.autograd.functional import jvp, vjp, hvp, vhp, jacobian, hessian
w = torch.tensor([1., 2.], requires_grad=True)
x = torch.tensor([3., 4.])
f = lambda t: (t * 2, w * 3)
E(lambda: jvp(f, x, torch.ones(2), strict=True))
print(jvp(f, x, torch.ones(2)))
E(lambda: vjp(f, x, (torch.ones(2), torch.ones(2)), strict=True))
print(vjp(f, x, (torch.ones(2), torch.ones(2))))
E(lambda: jacobian(f, x, strict=True))
print(jacobian(f, x))
g = lambda t: (t * w).sum()
E(lambda: hvp(g, x, torch.ones(2), strict=True))
E(lambda: vhp(g, x, torch.ones(2), strict=True))
print(hvp(g, x, torch.ones(2)))
E(lambda: hessian(g, x, strict=True))
print(hessian(g, x))
h = lambda t: (t * t * w).sum() + (w * w).sum()
print(hvp(h, x, torch.ones(2), strict=True))
print(vhp(h, x, torch.ones(2), strict=True, create_graph=True))
E(lambda: hvp(lambda t: (t * w.detach()).sum() + (w*w).sum(), x, torch.ones(2), strict=True, create_graph=True))
E(lambda: jvp(lambda t: t * w, x, torch.ones(2), strict=True, create_graph=True))
print(jvp(lambda t: t * w, x, torch.ones(2), strict=True))
''')

P('autograd_meta_fields', r'''
def meta(name, t):
    fn = t.grad_fn
    print(name, t.requires_grad, t.is_leaf, t.output_nr, t._version, t._is_view(), t._base is not None,
          t.retains_grad, None if fn is None else fn.name())
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
meta('x', x)
a, b = x.unbind(0)
meta('a', a); meta('b', b)
v, i = x.max(dim=1)
meta('v', v); meta('i', i)
s1, s2 = x.split(1, dim=1)
meta('s2', s2)
t = x.t()
meta('t', t)
c = x.clone()
c[0, 0] = 5.
meta('c', c)
cv = c[1]
cv.mul_(2)
meta('cv', cv)
meta('c2', c)
q, r = torch.linalg.qr(x)
meta('r', r)
u = x.sum(0, keepdim=True)
u.retain_grad()
meta('u', u)
d = x.detach()
meta('d', d)
n = torch.ones(2)
meta('n', n)
n.add_(1)
meta('n2', n)
print(x.grad_fn, a.grad_fn.next_functions, type(a.grad_fn._saved_dim))
''')

P('seed_001_walkthrough', r'''
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
c = a + b
d = torch.sum(c)
print(c.requires_grad)
print(c.grad_fn)
print(d.requires_grad)
print(d.grad_fn)
c.backward(torch.ones(c.size()) * 2)
print(a.grad, b.grad)
E(lambda: d.backward())
torch.manual_seed(0)
x = torch.randn(5, 5, requires_grad=True)
y = torch.randn(5, 5)
with torch.no_grad():
    z = x + y
E(lambda: z.backward())
torch.set_grad_enabled(False)
z = x + y
E(lambda: z.backward())
torch.set_grad_enabled(True)
z = x + y
E(lambda: z.backward())
z.backward(torch.ones_like(z))
print(x.grad.sum())
from torch.autograd import Function
class MultiplyAdd(Function):
    @staticmethod
    def forward(ctx, w, x, b):
        ctx.save_for_backward(w, x)
        output = w * x + b
        return output
    @staticmethod
    def backward(ctx, grad_output):
        w, x = ctx.saved_tensors
        grad_w = grad_output * x
        grad_x = grad_output * w
        grad_b = grad_output * 1
        return grad_w, grad_x, grad_b
t = torch
x = t.ones(1)
w = t.rand(1, requires_grad=True)
b = t.rand(1, requires_grad=True)
z = MultiplyAdd.apply(w, x, b)
z.backward()
print(x.grad, w.grad, b.grad, z)
print(z.grad_fn, z.grad_fn.needs_input_grad)
''')

# fixed: create_graph=True inside inference_mode records nothing (no saving of inference tensors)
P('grad_apis_inside_modes', r'''
from torch.autograd.functional import jacobian, hessian, vjp, jvp
x = torch.tensor([1., 2.], requires_grad=True)
y = (x ** 3).sum()
with torch.no_grad():
    g, = torch.autograd.grad(y, x, create_graph=True)
    print(g, g.requires_grad, type(g.grad_fn).__name__)
    print(jacobian(lambda t: t ** 2, torch.tensor([1., 2.])))
    print(hessian(lambda t: (t ** 3).sum(), torch.tensor([1., 2.]), create_graph=True))
    print(vjp(lambda t: t ** 2, torch.tensor([1., 2.]), torch.ones(2)))
with torch.inference_mode():
    E(lambda: torch.autograd.grad(y, x, create_graph=True, retain_graph=True))
    E(lambda: jacobian(lambda t: t ** 2, torch.tensor([1., 2.])))
    i = torch.tensor([1., 2.])
    w = torch.tensor([1., 2.], requires_grad=True)
    E(lambda: torch.autograd.grad(w * 2, w, torch.ones(2), create_graph=True))
z = (x.sin() * x).sum()
with torch.inference_mode():
    z.backward(create_graph=True)
    print(x.grad, x.grad.requires_grad, x.grad.grad_fn, x.grad.is_inference())
print(i.is_inference())
E(lambda: jacobian(lambda t: t ** 2, i))
E(lambda: vjp(lambda t: t ** 2, i, torch.ones(2)))
E(lambda: jvp(lambda t: t ** 2, i, torch.ones(2)))
with torch.set_grad_enabled(False):
    E(lambda: torch.autograd.grad((x * x).sum(), x))
    E(lambda: jvp(lambda t: t ** 2, torch.tensor([1., 2.]), torch.ones(2)))
''')

P('inference_tensor_misc_errors', r'''
with torch.inference_mode():
    t = torch.ones(2)
w = torch.tensor([1., 2.], requires_grad=True)
class Mul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b
    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        return g * b, g * a
E(lambda: Mul.apply(w, t))
E(lambda: Mul.apply(t, t))
E(lambda: torch.add(w, 1, out=t))
E(lambda: torch.add(torch.ones(2), 1, out=t))
E(lambda: t.copy_(torch.zeros(2)))
E(lambda: t.resize_(3))
E(lambda: t.zero_())
E(lambda: t.fill_(2))
torch.manual_seed(0)
E(lambda: t.uniform_())
E(lambda: t[0].fill_(3))
E(lambda: t.__setitem__(0, 5.))
print(t)
with torch.inference_mode():
    t[0] = 7.
    t.add_(1)
print(t)
E(lambda: torch.stack([t, w]).sum().backward())
print(w.grad)
E(lambda: torch.where(t > 1, w, t).sum().backward())
print(w.grad)
''')

# fixed: x.grad = x raises PyTorch's error
P('grad_setter_edge_cases', r'''
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: setattr(x, 'grad', x))
d = x.detach()
x.grad = d
print(x.grad is d, x.grad.data_ptr() == x.data_ptr())
(x * 2).sum().backward()
print(x, x.grad)
c = torch.ones(2)
c.grad = torch.tensor([3., 4.])
print(c.grad, c.requires_grad)
del c.grad
print(c.grad)
y = x * 1
W(lambda: setattr(y, 'grad', torch.ones(2)))
W(lambda: y.grad)
e = torch.ones(2, 3, requires_grad=True)
E(lambda: setattr(e, 'grad', torch.ones(3, 2)))
E(lambda: setattr(e, 'grad', torch.ones(2, 3).t().t()))
e.grad = torch.ones(3, 2).t()
print(e.grad.stride(), e.grad.shape)
(e * 2).sum().backward()
print(e.grad.stride(), e.grad)
h = torch.ones(2, dtype=torch.float16, requires_grad=True)
E(lambda: setattr(h, 'grad', torch.ones(2)))
i = torch.ones(2)
E(lambda: setattr(i, 'grad', torch.ones(2, dtype=torch.int64)))
print(i.grad)
''')

# fixed: Tensor.grad_dtype (recent PyTorch): the getter/setter with their errors, .grad assignment checked against it,
# incoming gradients cast to it (None: any dtype)
P('grad_dtype_attribute', r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
E(lambda: y.grad_dtype)
x.grad_dtype = torch.float64
print(x.grad_dtype, x.dtype)
y = (x * 3).sum()
y.backward(retain_graph=True)
print(x.grad)
y.backward(retain_graph=True)
print(x.grad)
x.grad_dtype = None
print(x.grad_dtype)
y.backward(retain_graph=True)
print(x.grad)
x.grad = None
y.backward(retain_graph=True)
print(x.grad)
x.grad = torch.ones(2, dtype=torch.float16)
y.backward(retain_graph=True)
print(x.grad)
E(lambda: setattr(x, "grad_dtype", torch.float32))
print(x.grad)
E(lambda: setattr(x, 'grad_dtype', torch.int64))
print(x.grad_dtype)
z = torch.tensor([1., 2.], requires_grad=True)
z.grad = torch.ones(2)
E(lambda: setattr(z, 'grad_dtype', torch.float64))
print(z.grad, z.grad_dtype)
g = torch.autograd.grad((z * 2).sum(), z)
print(g)
i = torch.tensor([1, 2])
E(lambda: i.grad_dtype)
E(lambda: setattr(i, 'grad_dtype', torch.float32))
print(i.grad_dtype)
p = torch.nn.Parameter(torch.ones(2))
print(p.grad_dtype)
p.grad_dtype = torch.bfloat16
(p * 2).sum().backward()
print(p.grad)
q = torch.ones(2, requires_grad=True, dtype=torch.float64)
q.grad_dtype = torch.float32
(q * 2).sum().backward(create_graph=True)
print(q.grad)
print(x.detach().grad_dtype)
E(lambda: x.clone().grad_dtype)

''')

# fixed: (as above) grad_dtype's setter checks its value's type before the leaf check
P('grad_dtype_setter_errors', r'''
y = torch.ones(2, requires_grad=True) * 2
E(lambda: setattr(y, 'grad_dtype', 3))
x = torch.ones(2, requires_grad=True)
E(lambda: setattr(x, 'grad_dtype', 'float'))
E(lambda: setattr(x, 'grad_dtype', torch.float32))
x.grad = torch.ones(2)
E(lambda: setattr(x, 'grad_dtype', torch.float32))
E(lambda: setattr(x, 'grad_dtype', None))
E(lambda: setattr(x, 'grad', torch.ones(2, dtype=torch.float64)))
print(x.grad)

''')

P('reachable_but_undefined_grads', r'''
class NoGradFor(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a * 2 + b
    @staticmethod
    def backward(ctx, g):
        return g * 2, None
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
out = NoGradFor.apply(a, b).sum()
print(torch.autograd.grad(out, a, retain_graph=True))
E(lambda: torch.autograd.grad(out, b, retain_graph=True))
E(lambda: torch.autograd.grad(out, [a, b], retain_graph=True))
print(torch.autograd.grad(out, [a, b], retain_graph=True, allow_unused=True))
print(torch.autograd.grad(out, [a, b], retain_graph=True, materialize_grads=True))
out.backward()
print(a.grad, b.grad)
z = (a * 0).sum()
print(torch.autograd.grad(z, a))
m = torch.tensor([1., 2.], requires_grad=True)
k = m.masked_fill(torch.tensor([True, True]), 0.).sum()
print(torch.autograd.grad(k, m))
''')

P('decorating_classes_and_descriptors', r'''
def make(dec):
    class C:
        def __init__(self):
            self.flag = torch.is_grad_enabled(), torch.is_inference_mode_enabled()
    return dec(C)
for name, dec in [('no_grad()', torch.no_grad()), ('no_grad', torch.no_grad), ('enable_grad()', torch.enable_grad()),
                  ('set_grad_enabled(False)', torch.set_grad_enabled(False)), ('inference_mode()', torch.inference_mode()),
                  ('inference_mode', torch.inference_mode)]:
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        D = make(dec)
    print(name, type(D).__name__, D.__name__, [w.category.__name__ for w in ws], D().flag, torch.is_grad_enabled())
class K:
    @torch.no_grad()
    @staticmethod
    def s(x):
        return (x * 2).requires_grad
    @staticmethod
    @torch.no_grad()
    def s2(x):
        return (x * 2).requires_grad
    @classmethod
    @torch.no_grad()
    def c(cls, x):
        return cls.__name__, (x * 2).requires_grad
x = torch.ones(1, requires_grad=True)
E(lambda: K.s(x))
E(lambda: K().s(x))
print(K.s2(x), K().s2(x), K.c(x))
''')

# fixed: create_graph=None reaches PyTorch's C++ flag parsing (TypeError), not a Python |= error
P('gradient_argument_odd_types', r'''
import numpy as np
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
E(lambda: y.backward(np.ones(2), retain_graph=True))
E(lambda: y.backward((torch.ones(2),), retain_graph=True))
print(x.grad)
E(lambda: y.backward([torch.ones(2)], retain_graph=True))
print(x.grad)
E(lambda: y.backward(torch.ones(2).numpy(), retain_graph=True))
E(lambda: torch.autograd.grad(y, x, np.ones(2), retain_graph=True))
E(lambda: torch.autograd.grad(y, x, {'a': torch.ones(2)}, retain_graph=True))
E(lambda: torch.autograd.grad(y, x, 'ab', retain_graph=True))
E(lambda: y.backward(torch.nn.Parameter(torch.ones(2)), retain_graph=True))
print(x.grad)
E(lambda: torch.autograd.grad(y.sum(), x, True))
E(lambda: y.sum().backward(None, None, None, None))
''')

# fixed: retain_graph / create_graph / allow_unused are parsed as PyTorch's C++ engine entry does (ints 0..255)
P('engine_flag_arguments', r'''
from torch.autograd.functional import jacobian, vjp, hessian, jvp
x = torch.tensor([1., 2.], requires_grad=True)
for v in [None, 1.5, 'yes', 2, -1, 256, [1], torch.tensor(True), torch.tensor(1.)]:
    print('value', repr(v))
    E(lambda: (x * 2).sum().backward(create_graph=v))
    E(lambda: (x * 2).sum().backward(retain_graph=v))
    E(lambda: torch.autograd.grad((x * 2).sum(), x, retain_graph=v))
    E(lambda: torch.autograd.grad((x * 2).sum(), x, allow_unused=v))
    E(lambda: torch.autograd.grad((x * 2).sum(), x, create_graph=v))
    x.grad = None
c = torch.tensor([1., 2.])
E(lambda: jacobian(lambda t: t * 2, c, create_graph=None))
E(lambda: vjp(lambda t: t * 2, c, torch.ones(2), create_graph=None))
E(lambda: jvp(lambda t: t * 2, c, torch.ones(2), create_graph=None))
E(lambda: hessian(lambda t: (t ** 2).sum(), c, create_graph=None))
E(lambda: jacobian(lambda t: t * 2, c, create_graph=1))
''')

# fixed: a GradientEdge output gets PyTorch's implicit ones / shape checks from the tensor it was taken from
P('gradient_edges_in_backward', r'''
from torch.autograd.graph import get_gradient_edge
x = torch.tensor([1., 2.], requires_grad=True)
h = x * 2
y = (h ** 2).sum()
E(lambda: y.backward(inputs=[get_gradient_edge(h)], retain_graph=True))
print(x.grad, h.retains_grad)
E(lambda: y.backward(inputs=[get_gradient_edge(x)], retain_graph=True))
print(x.grad)
E(lambda: torch.autograd.backward(get_gradient_edge(y), retain_graph=True))
print(x.grad)
E(lambda: torch.autograd.backward(get_gradient_edge(h), torch.ones(2), retain_graph=True))
print(x.grad)
E(lambda: torch.autograd.grad(get_gradient_edge(h), x, torch.ones(2), retain_graph=True))
E(lambda: torch.autograd.grad(get_gradient_edge(y), x, retain_graph=True))
E(lambda: torch.autograd.grad(get_gradient_edge(h), x, retain_graph=True))
E(lambda: torch.autograd.grad(get_gradient_edge(h), x, torch.ones(3), retain_graph=True))
E(lambda: torch.autograd.grad(get_gradient_edge(h), x, torch.ones(2, dtype=torch.complex64), retain_graph=True))
E(lambda: torch.autograd.grad(get_gradient_edge(h), x, torch.ones(5, 3), is_grads_batched=True, retain_graph=True))
d = torch.tensor(2., dtype=torch.float64, requires_grad=True)
e = d * 3
print(torch.autograd.grad(get_gradient_edge(e), d, retain_graph=True))
print(torch.autograd.grad(get_gradient_edge(e), get_gradient_edge(d), retain_graph=True))
print(torch.autograd.grad([get_gradient_edge(e), e], d, retain_graph=True))
E(lambda: torch.autograd.grad(get_gradient_edge(d), d))
''')

P('partial_execution_frees_only_run_nodes', r'''
a = torch.tensor([0.5, 1.0], requires_grad=True)
b = torch.tensor([2.0, 3.0], requires_grad=True)
ea = a.exp()
eb = b.exp()
y = (ea * eb).sum()
y.backward(inputs=[a])
print(a.grad, b.grad)
E(lambda: ea.grad_fn._saved_result)
E(lambda: eb.grad_fn._saved_result)
E(lambda: y.grad_fn.next_functions[0][0]._saved_self)
E(lambda: y.backward(inputs=[b]))
c = torch.tensor([1.0, 2.0], requires_grad=True)
u = c.sin()
v = c.cos()
z = u.sum() + v.sum()
print(torch.autograd.grad(z, u))
E(lambda: u.grad_fn._saved_self)
print(torch.autograd.grad(z, c))
E(lambda: u.grad_fn._saved_self)
''')


def _mask(text: str) -> str:
    return re.sub(r"0x[0-9a-fA-F]+", "0xADDR", text)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # warnings go to stderr; only stdout (and W's records) are compared
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
