"""Parity programs from a twenty-fifth hunt: what a student writes while reading the Chinese notes on torch.autograd.

Each chapter's examples changed (bfloat16/half/float64/complex/integer inputs, 0-dim, empty, broadcast, transposed
and expanded shapes, tensors big enough to print summarized) and printed in full: tensors, grads, grad_fn and
next_functions, every ``_saved_*`` attribute of whole graphs (``dump``), is_leaf, requires_grad, _version, output_nr,
_base, retains_grad; the mistakes a student makes (grad_fn methods without parentheses, wrong gradient shapes and
dtypes, backward twice, saved tensors modified in place, hooks returning the wrong thing, custom Functions returning
the wrong number or kind of gradients or tangents) and their errors; no_grad / enable_grad / set_grad_enabled /
inference_mode as context managers and decorators on functions, methods and generators; autograd.backward and
autograd.grad with every argument; custom Functions (Exp, LegendrePolynomial3, MultiplyAdd, setup_context, vjp/jvp,
once_differentiable, mark_dirty, mark_non_differentiable, set_materialize_grads); forward AD. Each program must print
exactly what PyTorch prints (hunt14's harness: ``parity.run_both`` with hunt13's ``E``/``W`` helpers, every warning
also printed on stdout). Fixed by this hunt: the dims ``cumulative_trapezoid`` and ``vander`` save, the type names
of a hook's "has changed the type of value" error, the order of a custom jvp's checks, ``grad_fn.name`` printed
without its call, the type names in Python's own messages (``x.shape()``: "'torch.Size' object is not callable"),
``cdist``'s matrix-product path (PyTorch's sums, products and root: exact zeros), an optimizer's step on
parameters made in inference mode (refused, as PyTorch's in-place update) and ``nn.Parameter`` of a list. Programs
marked "fixed:" printed something else than PyTorch before this hunt.
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE

# PRE plus dump(node): each node of a graph once, depth first, with every _saved_* attribute (or the error reading
# it gives)
DUMP = PRE + r'''
def dump(fn, depth=0, seen=None):
    seen = set() if seen is None else seen
    if fn is None or id(fn) in seen:
        return
    seen.add(id(fn))
    vals = []
    for a in sorted(a for a in dir(fn) if a.startswith('_saved_')):
        try:
            v = getattr(fn, a)
        except Exception as e:
            v = type(e).__name__ + ': ' + str(e)
        vals.append(f"{a}={v}")
    print('  ' * depth + fn.name(), vals)
    for nxt, nr in fn.next_functions:
        dump(nxt, depth + 1, seen)
'''

PROGRAMS: dict[str, str] = {}

# ---- chapter 0: the one-layer network, requires_grad propagation, eye(4, 5), zeroing grads, intermediate grads

PROGRAMS['n0_bce_logits_bfloat16_half'] = DUMP + r'''
for dt in (torch.bfloat16, torch.float16):
    x = torch.ones(5, dtype=dt)
    y = torch.tensor([0., 1., 1.], dtype=dt)
    w = torch.linspace(-0.5, 0.5, 15).reshape(5, 3).to(dt).requires_grad_()
    b = torch.tensor([0.25, -0.125, 0.5], dtype=dt, requires_grad=True)
    z = torch.matmul(x, w) + b
    loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
    print(z, loss)
    dump(loss.grad_fn)
    loss.backward()
    print(w.grad, b.grad)
'''

PROGRAMS['n0_matmul_shapes_grad_fns'] = DUMP + r'''
x = torch.ones(5)
w = torch.arange(15.).reshape(5, 3).requires_grad_()
for a, bb in ((x, w), (w.t(), x), (x.expand(2, 5), w), (x, w.expand(2, 5, 3))):
    r = torch.matmul(a, bb)
    print(r.shape, r.grad_fn.name())
    dump(r.grad_fn)
    r.sum().backward()
    print(w.grad.sum())
    w.grad = None
v = torch.arange(5., requires_grad=True)
d = torch.matmul(v, v)
print(d, d.grad_fn)
dump(d.grad_fn)
d.backward()
print(v.grad)
'''

PROGRAMS['n0_eye_big_summarized_grad'] = PRE + r'''
inp = torch.eye(40, 50, requires_grad=True)
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(inp.grad)
out.backward(torch.ones_like(out) * 0.5)
print(inp.grad)
print(inp.grad.stride(), out.stride(), out.grad_fn.next_functions[0][0]._saved_exponent)
E(lambda: out.backward(torch.ones_like(out)))
'''

PROGRAMS['n0_requires_grad_propagation_int_bool_complex'] = PRE + r'''
x = torch.arange(25).reshape(5, 5)
y = torch.ones(5, 5, dtype=torch.bool)
z = torch.rand((5, 5), requires_grad=True)
c = torch.zeros(5, 5, dtype=torch.complex64, requires_grad=True)
for name, t in (('x+y', x + y), ('x+z', x + z), ('y*z', y * z), ('x//2', x // 2), ('z>0', z > 0),
                ('z.argmax', z.argmax()), ('x+c', x + c), ('c.real', c.real), ('c.abs', c.abs()),
                ('z.long', z.long()), ('z.round', z.round()), ('c.angle', c.angle()), ('z.sign', z.sign()),
                ('floor_div', z // 2), ('z.int().float()', z.int().float())):
    print(name, t.dtype, t.requires_grad, t.grad_fn.name() if t.grad_fn else None, t.is_leaf)
E(lambda: x.requires_grad_())
E(lambda: torch.ones(2, dtype=torch.bool, requires_grad=True))
E(lambda: torch.arange(3, requires_grad=True))
'''

PROGRAMS['n0_no_grad_forms_with_generators'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
@torch.no_grad()
def gen(n):
    for i in range(n):
        print('in gen', torch.is_grad_enabled())
        yield x * i
for t in gen(2):
    print(t.requires_grad, torch.is_grad_enabled())
@torch.enable_grad()
def gen2():
    yield x * 2
    with torch.no_grad():
        yield x * 3
    yield x * 4
with torch.no_grad():
    for t in gen2():
        print(t.requires_grad, torch.is_grad_enabled())
@torch.set_grad_enabled(False)
def f(a):
    return a * 2, torch.is_grad_enabled()
print(f(x), torch.is_grad_enabled())
@torch.inference_mode()
def g(a):
    return a + 1
r = g(x)
print(r.requires_grad, r.is_inference(), torch.is_inference_mode_enabled())
'''

PROGRAMS['n0_autograd_meta_output_nr'] = PRE + r'''
x = torch.arange(12., requires_grad=True).reshape(3, 4)
for name, outs in (('unbind', x.unbind(0)), ('split', x.split([1, 3], 1)), ('chunk', x.chunk(2, 1)),
                   ('max', x.max(1)), ('topk', x.topk(2)), ('sort', x.sort(0, descending=True)),
                   ('aminmax', torch.aminmax(x, dim=0)), ('tensor_split', x.tensor_split(3, dim=1))):
    print(name, [(o.output_nr, o.requires_grad, o.grad_fn.name() if o.grad_fn else None, o._is_view()) for o in outs])
print(x.output_nr, x._base.output_nr, x._base.is_leaf, x.is_leaf, x._is_view())
u = x.unbind(1)
print(u[3]._base is x, u[3]._base._base is x._base)
'''

PROGRAMS['n0_autograd_meta_retains_grad_and_base'] = PRE + r'''
a = torch.tensor([1., 2., 3., 4.], requires_grad=True)
b = a * 2
v = b[1:3]
w = v.view(2, 1)
print(v._base is b, w._base is b, w._is_view(), b._is_view(), a._is_view())
print(b.retains_grad, v.retains_grad, a.retains_grad)
w.retain_grad(); b.retain_grad()
print(b.retains_grad, w.retains_grad)
(w * w).sum().backward(retain_graph=True)
print(b.grad, w.grad, v.grad if False else 'skip', a.grad)
w.mul_(3)
print(w.grad_fn.name(), b.grad_fn.name(), v.grad_fn.name(), b._version, v._version, w._version)
(b.sum() + w.sum()).backward()
print(a.grad, b.grad, w.grad)
print(a.retains_grad, a.detach().retains_grad, b.detach()._base is None)
'''

PROGRAMS['n0_saved_self_other_mixed_dtypes'] = DUMP + r'''
x = torch.tensor([1., 2.], requires_grad=True)
for o in (torch.tensor([3., 4.], dtype=torch.float64), torch.tensor(2), torch.tensor([2, 3]), 2.5, True,
          torch.tensor(1.5, dtype=torch.float64, requires_grad=True), torch.tensor([1+1j, 2j])):
    r = x * o
    print(r.dtype, r.grad_fn.name())
    fn = r.grad_fn
    s, t = fn._saved_self, fn._saved_other
    print(s, t)
    print(fn._saved_self is x, fn._saved_other is o)
for o in (torch.tensor([3., 4.], dtype=torch.float64), 3):
    r = x / o
    dump(r.grad_fn)
    r = x - o
    dump(r.grad_fn)
'''

PROGRAMS['n0_zero_grad_model_variants'] = PRE + r'''
model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.Tanh(), torch.nn.Linear(2, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) * (i + 1))
x = torch.tensor([[1., 2., 3.], [0.5, -1., 2.]])
for step in range(2):
    model(x).sum().backward()
print([p.grad for p in model.parameters()])
model.zero_grad(set_to_none=False)
print([p.grad for p in model.parameters()])
model.zero_grad()
print([p.grad for p in model.parameters()])
model(x).mean().backward()
g = model[0].weight.grad
g.zero_()
print(g, model[0].weight.grad is g, g._version)
model[2].weight.grad.requires_grad_()
E(lambda: model.zero_grad(set_to_none=False))
print(model[2].weight.grad)
'''

PROGRAMS['n0_register_hook_save_grad_nonleaf_chain'] = PRE + r'''
grads = {}
def save_grad(name):
    def hook(grad):
        grads[name] = grad
    return hook
x = torch.tensor([1., -2., 3.], requires_grad=True)
y = x.exp()
z = y.sin() * x
y.register_hook(save_grad('y'))
h = z.register_hook(save_grad('z'))
z.register_hook(lambda g: g * 2)
z.retain_grad()
z.sum().backward()
for k in sorted(grads):
    print(k, grads[k])
print(z.grad, x.grad, y.grad)
h.remove()
grads.clear()
z2 = (x * 2)
z2.register_hook(lambda g: print('hook', g, g.requires_grad))
z2.backward(torch.tensor([1., 0., -1.]))
print(x.grad)
'''

# fixed: a node's methods are C++ methods in PyTorch: <built-in method name of MulBackward0 object at 0x...>
PROGRAMS['n0_grad_fn_methods_without_parentheses'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp() * 2
print(y.grad_fn.name)
print(y.grad_fn.name())
print(y.grad_fn.register_hook)
print(y.grad_fn.next_functions[0][0].name, y.grad_fn.next_functions[0][0].name())
acc = y.grad_fn.next_functions[0][0].next_functions[0][0]
print(acc.name, acc.register_prehook)
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
z = Exp.apply(x)
print(z.grad_fn.name, z.grad_fn.name())
print(z.grad_fn._sequence_nr() > y.grad_fn._sequence_nr())
n = y.grad_fn.name
y.sum().backward()
print(n(), x.grad)
'''

PROGRAMS['n0_views_of_leaf_autograd_meta'] = PRE + r'''
leaf = torch.arange(6., requires_grad=True)
views = {'slice': leaf[1:4], 'view': leaf.view(2, 3), 'select': leaf[2], 'unsq': leaf.unsqueeze(0),
         'as_strided': leaf.as_strided((2,), (2,)), 'detach': leaf.detach(), 'narrow': leaf.narrow(0, 1, 2),
         'expand': leaf.expand(2, 6), 'T': leaf.view(2, 3).T, 'real': leaf.view(3, 2)[:, 0]}
for k, v in views.items():
    print(k, v.is_leaf, v.requires_grad, v._is_view(), v._base is leaf, v.grad_fn.name() if v.grad_fn else None,
          v.output_nr, v._version, v.retains_grad)
v = views['slice']
W(lambda: print(v.grad))
(v * 2).sum().backward()
W(lambda: print(v.grad))
print(leaf.grad)
'''

PROGRAMS['n0_version_counter_after_each_op'] = PRE + r'''
a = torch.zeros(4)
log = []
def step(name, f):
    f()
    log.append((name, a._version))
step('add_', lambda: a.add_(1))
step('setitem', lambda: a.__setitem__(0, 5.))
step('setitem_slice', lambda: a.__setitem__(slice(1, 3), torch.tensor([7., 8.])))
step('setitem_mask', lambda: a.__setitem__(a > 6, 0.))
step('index_put_', lambda: a.index_put_((torch.tensor([0]),), torch.tensor(1.)))
step('copy_', lambda: a.copy_(torch.ones(4)))
step('zero_', lambda: a.zero_())
step('fill_', lambda: a.fill_(2.))
step('view.add_', lambda: a.view(2, 2).add_(1))
step('out=', lambda: torch.add(a, 1, out=a))
step('data', lambda: a.data.add_(1))
step('detach.add_', lambda: a.detach().add_(1))
step('requires_grad_', lambda: a.requires_grad_(False))
step('clamp_', lambda: a.clamp_(0, 3))
step('t_', lambda: a.unsqueeze_(0))
step('squeeze_', lambda: a.squeeze_(0))
step('resize_', lambda: a.resize_(4))
step('set_data', lambda: setattr(a, 'data', torch.zeros(4)))
step('uniform_', lambda: a.uniform_() if False else a.sub_(0))
step('no_grad add_', lambda: torch.no_grad().__enter__() and None or a.add_(1))
torch.set_grad_enabled(True)
for l in log:
    print(l)
'''

PROGRAMS['n0_dynamic_control_flow_graph_changes'] = PRE + r'''
def walk(fn):
    names = []
    stack = [fn]
    seen = set()
    while stack:
        f = stack.pop()
        if f is None or id(f) in seen:
            continue
        seen.add(id(f))
        names.append(f.name())
        stack.extend(n for n, _ in reversed(f.next_functions))
    return names
w = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
for step in range(4):
    x = torch.tensor([1., 2., 3.]) * (step - 1.5)
    h = x * w
    if h.sum() > 0:
        out = h.relu().sum()
    else:
        out = (h ** 2).mean()
    for _ in range(step):
        out = out * 0.5
    print(step, out, walk(out.grad_fn))
    out.backward()
    print(w.grad)
    w.grad.zero_()
'''

PROGRAMS['n0_nonscalar_eye_complex_and_int_grad'] = PRE + r'''
inp = torch.eye(3, 4, dtype=torch.complex64, requires_grad=True)
out = (inp + 1).pow(2).t()
print(out.grad_fn, out.grad_fn.next_functions[0][0]._saved_exponent)
out.backward(torch.ones_like(out), retain_graph=True)
print(inp.grad)
out.backward(torch.ones_like(out) * 1j, retain_graph=True)
print(inp.grad)
E(lambda: out.backward(torch.ones(4, 3), retain_graph=True))
E(lambda: out.backward(torch.ones(4, 3, dtype=torch.complex128), retain_graph=True))
print(inp.grad)
i2 = torch.eye(3, 4, dtype=torch.float64, requires_grad=True)
o2 = (i2 + 1).pow(2).t()
o2.backward(torch.ones(4, 3, dtype=torch.int32))
print(i2.grad)
'''

PROGRAMS['n0_grad_accumulator_and_leaf_identity'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
a1 = (x * 1).grad_fn.next_functions[0][0]
a2 = (x + 1).grad_fn.next_functions[0][0]
print(a1 is a2, a1.variable is x, type(a1).__name__, a1.name())
v = x[0]
print(v.grad_fn.next_functions[0][0] is a1)
y = x.detach().requires_grad_()
a3 = (y * 1).grad_fn.next_functions[0][0]
print(a3 is a1, a3.variable is y)
x.requires_grad_(False)
x.requires_grad_(True)
a4 = (x * 1).grad_fn.next_functions[0][0]
print(a4 is a1)
del a1, a2, v
a5 = (x * 1).grad_fn.next_functions[0][0]
print(a5.variable is x, a5.next_functions, a5.metadata)
p = torch.nn.Parameter(torch.ones(2))
print((p * 1).grad_fn.next_functions[0][0].variable is p, type((p * 1).grad_fn.next_functions[0][0].variable).__name__)
'''

PROGRAMS['n0_one_layer_net_loop_float64_reprs'] = PRE + r'''
x = torch.ones(5, dtype=torch.float64)
y = torch.zeros(3, dtype=torch.float64)
w = torch.linspace(-0.3, 0.4, 15, dtype=torch.float64).reshape(5, 3).requires_grad_()
b = torch.tensor([0.1, 0.0, -0.1], dtype=torch.float64, requires_grad=True)
for step in range(3):
    z = torch.matmul(x, w) + b
    loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
    print(f"Gradient function for z = {z.grad_fn}".split(' object')[0])
    print(f"step {step}: loss = {loss}, {loss.item():.10f}")
    loss.backward()
    print(w.grad, b.grad, sep='\n')
    with torch.no_grad():
        w -= 0.5 * w.grad
        b -= 0.5 * b.grad
    w.grad.zero_()
    b.grad.zero_()
print(w, b)
'''

PROGRAMS['n0_bce_logits_weights_reductions_saved'] = DUMP + r'''
F = torch.nn.functional
z = torch.tensor([[0.5, -1.0, 2.0], [0.0, 3.0, -0.25]], requires_grad=True)
y = torch.tensor([[0., 1., 1.], [1., 0., 0.5]])
wt = torch.tensor([1., 2., 0.5])
pw = torch.tensor([3., 1., 1.])
for kw in ({}, {'reduction': 'none'}, {'reduction': 'sum'}, {'weight': wt}, {'pos_weight': pw}, {'weight': wt, 'pos_weight': pw, 'reduction': 'none'}):
    loss = F.binary_cross_entropy_with_logits(z, y, **kw)
    dump(loss.grad_fn)
    g, = torch.autograd.grad(loss.sum(), z)
    print(loss, g)
E(lambda: F.binary_cross_entropy_with_logits(z, y[0]))
E(lambda: F.binary_cross_entropy_with_logits(z, y, reduction='avg'))
E(lambda: F.binary_cross_entropy_with_logits(z, y.long()))
E(lambda: F.binary_cross_entropy_with_logits(z.double(), y))
'''

PROGRAMS['n0_requires_grad_rand_5x5_mixes'] = PRE + r'''
torch.manual_seed(3)
x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand((5, 5), requires_grad=True)
a = x + y
print(f"Does `a` require gradients? : {a.requires_grad}")
b = x + z
print(f"Does `b` require gradients?: {b.requires_grad}")
print(b.grad_fn, b.grad_fn.next_functions)
c = torch.cat([a, b])
print(c.requires_grad, c.grad_fn.name(), c.grad_fn.next_functions, c.grad_fn._saved_dim)
d = torch.stack([a, x])
print(d.requires_grad)
e = a @ z
print(e.grad_fn.name(), e.grad_fn.next_functions, e.grad_fn._saved_mat2_sym_sizes, e.grad_fn._saved_self is a)
e.sum().backward()
print(z.grad.sum().item(), a.sum(0))
print(torch.allclose(z.grad, a.sum(0).unsqueeze(1).expand(5, 5)))
'''

# fixed: PyTorch's cumulative_trapezoid(y, dx) saves dim as given (-1); vander's slices save end=None
PROGRAMS['n0_saved_dims_of_trapezoid_and_vander_composites'] = DUMP + r'''
y = torch.linspace(-2, 2, 12).reshape(3, 4).requires_grad_()
x = torch.linspace(0, 1, 4)
for f in (lambda: torch.cumulative_trapezoid(y), lambda: torch.cumulative_trapezoid(y, dx=0.5, dim=-2),
          lambda: torch.cumulative_trapezoid(y, dim=0), lambda: torch.cumulative_trapezoid(y, x=x),
          lambda: torch.trapezoid(y), lambda: torch.trapezoid(y, dim=-2)):
    r = f()
    print(r)
    dump(r.grad_fn)
v = torch.tensor([0.5, -1., 2.], requires_grad=True)
for kw in ({}, {'N': 4, 'increasing': True}, {'N': 2}):
    m = torch.vander(v, **kw)
    print(m)
    dump(m.grad_fn)
    E(lambda: m.sum().backward())
    print(v.grad)
'''

# fixed: Python's messages call a node's bound method a 'builtin_function_or_method', as in PyTorch
PROGRAMS['n0_grad_fn_method_mistakes_errors'] = PRE + r'''
x = torch.ones(2, 3, requires_grad=True)
y = x * 2
E(lambda: y.grad_fn.name[0])
E(lambda: y.grad_fn.name + 'Backward')
E(lambda: len(y.grad_fn.register_hook))
E(lambda: type(y.grad_fn.name))
E(lambda: y.grad_fn.name.__self__ is y.grad_fn)
E(lambda: y.grad_fn.name.__name__)
E(lambda: y.grad_fn.name == y.grad_fn.name)
E(lambda: y.grad_fn.name == (x * 3).grad_fn.name)
E(lambda: y.grad_fn.next_functions())
E(lambda: y.grad_fn._saved_other())
E(lambda: y.grad_fn())
E(lambda: y.grad_fn[0])
E(lambda: list(y.grad_fn))
E(lambda: x.grad())
E(lambda: x.requires_grad())
E(lambda: y.is_leaf())
E(lambda: y._version())
E(lambda: y.output_nr())
name = y.grad_fn.name
del y
print(name(), name)
'''

PROGRAMS['n0_train_loop_detach_hidden_state'] = PRE + r'''
torch.manual_seed(0)
w = torch.tensor([[0.5, -0.2], [0.1, 0.3]], requires_grad=True)
h = torch.zeros(2)
for step in range(3):
    h = torch.tanh(w @ h + torch.tensor([1., -1.]) * (step + 1))
    loss = h.pow(2).sum()
    E(lambda: loss.backward())
    print(step, loss.item(), w.grad)
    h = h.detach()
h = torch.zeros(2)
losses = []
for step in range(3):
    h = torch.tanh(w @ h + 1)
    losses.append(h.sum())
total = torch.stack(losses).sum()
print(total.grad_fn.name(), total.grad_fn.next_functions[0][0].name())
w.grad = None
total.backward()
print(w.grad)
E(lambda: losses[0].backward())
'''

# ---- chapters 1-3: a + b, backward's arguments, MultiplyAdd, mean(x * x) and vjp, detach, autograd.backward / grad

PROGRAMS['n1_a_plus_b_complex_and_int'] = PRE + r'''
a = torch.tensor([1.0 + 1j, 2.0, 3.0 - 2j], requires_grad=True)
b = torch.tensor([4.0, 5.0j, 6.0], requires_grad=True)
c = a + b
d = torch.sum(c)
print(c.requires_grad, c.grad_fn, d.requires_grad, d.grad_fn)
print(c, d)
E(lambda: d.backward())
d.abs().backward()
print(a.grad, b.grad)
c = a * b.conj()
E(lambda: c.backward(torch.ones(c.size()) * 2, retain_graph=True))
c.backward(torch.ones(c.size(), dtype=torch.complex64) * 2)
print(a.grad, b.grad)
a2 = torch.tensor([1, 2, 3])
b2 = torch.tensor([4., 5., 6.], requires_grad=True)
c2 = a2 + b2
print(c2, c2.grad_fn._saved_alpha, c2.grad_fn.next_functions)
c2.backward(torch.ones(c2.size()) * 2)
print(b2.grad)
'''

PROGRAMS['n1_backward_gradient_weights_shapes'] = PRE + r'''
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
c = a * b
for g in (torch.ones(3, 1), torch.ones(1, 3), torch.ones(()), torch.ones(3, dtype=torch.float64),
          torch.ones(3, dtype=torch.int64), torch.ones(3, dtype=torch.complex64), [1., 1., 1.], 2.0,
          torch.ones(3, requires_grad=True)):
    E(lambda: c.backward(g, retain_graph=True))
print(a.grad, b.grad)
'''

PROGRAMS['n1_no_grad_then_backward_messages'] = PRE + r'''
x = torch.arange(25.).reshape(5, 5).requires_grad_()
y = torch.ones(5, 5)
with torch.no_grad():
    z = x + y
E(lambda: z.backward())
E(lambda: z.sum().backward())
torch.set_grad_enabled(False)
z = x + y
E(lambda: z.sum().backward())
print(torch.is_grad_enabled())
torch.set_grad_enabled(True)
z = x + y
E(lambda: z.backward())
z.sum().backward()
print(x.grad.sum(), z.grad_fn, z.grad_fn._saved_alpha)
with torch.set_grad_enabled(False):
    k = x * 2
    with torch.set_grad_enabled(True):
        k2 = x * 2
print(k.requires_grad, k2.requires_grad)
print(torch.set_grad_enabled(False), torch.is_grad_enabled())
torch.set_grad_enabled(True)
'''

PROGRAMS['n2_mean_x_squared_dtypes'] = PRE + r'''
for dt in (torch.float64, torch.float16, torch.bfloat16, torch.complex64):
    x = torch.tensor([1, 2, 3, 4]).to(dt).reshape(2, 2).requires_grad_()
    out = torch.mean(x * x)
    print(out, out.grad_fn, out.grad_fn._saved_self_sym_numel if hasattr(out.grad_fn, '_saved_self_sym_numel') else '-')
    print(out.grad_fn._saved_self_sym_sizes, out.grad_fn.next_functions[0][0]._saved_other is x)
    if dt.is_complex:
        E(lambda: out.backward())
        out.real.backward()
    else:
        out.backward()
    print(x.grad)
'''

PROGRAMS['n2_vjp_jacobian_nonsquare'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = torch.stack([x[0] * x[1], x[1] ** 2, x.sum(), x[2].exp()])
print(y, y.grad_fn, y.grad_fn._saved_dim if hasattr(y.grad_fn, '_saved_dim') else None)
J = torch.autograd.functional.jacobian(lambda t: torch.stack([t[0] * t[1], t[1] ** 2, t.sum(), t[2].exp()]), x)
print(J)
v = torch.tensor([1., 0.5, -1., 0.1])
y.backward(v)
print(x.grad, v @ J)
print(torch.allclose(x.grad, v @ J))
'''

PROGRAMS['n2_detach_vs_data_version'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.sigmoid()
d = y.detach()
print(d.requires_grad, d.is_leaf, d._version, y._version, d.grad_fn)
d.zero_()
print(y._version, d._version, y)
E(lambda: y.sum().backward())
y2 = x.tanh()
y2.data.fill_(0.5)
print(y2._version)
y2.sum().backward()
print(x.grad)
e = x.detach()
e.requires_grad_()
print(e.is_leaf, e.requires_grad, e._base is None)
f = x[1:].detach()
print(f._is_view(), f._base is x, f._base is None)
E(lambda: x.detach_())
'''

PROGRAMS['n3_backward_tensors_list_grad_tensors_none'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y1 = x.sum()
y2 = x * 3
torch.autograd.backward([y1, y2], [None, torch.tensor([1., -1.])])
print(x.grad)
x.grad = None
E(lambda: torch.autograd.backward([y1 * 1, y2 * 1], [None, None]))
E(lambda: torch.autograd.backward([x * 1], [torch.ones(2), torch.ones(2)]))
E(lambda: torch.autograd.backward((), ()))
E(lambda: torch.autograd.backward(x.sum(), grad_tensors=torch.ones(2)))
torch.autograd.backward((x * x).sum(), inputs=[x])
print(x.grad)
torch.autograd.backward(x ** 3, torch.ones(2), inputs=x)
print(x.grad)
E(lambda: torch.autograd.backward(x.sum(), inputs=[]))
'''

PROGRAMS['n3_grad_outputs_lists_and_materialize'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor(3., requires_grad=True)
z = torch.tensor([0.5], requires_grad=True)
o1 = x * y
o2 = (x ** 2).sum()
print(torch.autograd.grad([o1, o2], [x, y], grad_outputs=[torch.ones(2), None], retain_graph=True))
print(torch.autograd.grad([o1, o2], [x, y, z], grad_outputs=[torch.tensor([1., 0.]), torch.tensor(2.)], allow_unused=True, retain_graph=True))
print(torch.autograd.grad([o1, o2], [z, y], allow_unused=True, materialize_grads=True, grad_outputs=[torch.ones(2), torch.tensor(1.)], retain_graph=True))
E(lambda: torch.autograd.grad([o1, o2], [x], grad_outputs=[torch.ones(2)], retain_graph=True))
E(lambda: torch.autograd.grad(o2, z, retain_graph=True))
E(lambda: torch.autograd.grad(o2, [x, z], allow_unused=False, materialize_grads=True, retain_graph=True))
g = torch.autograd.grad(o2, [x], create_graph=True)
print(g, g[0].requires_grad)
'''

PROGRAMS['n3_grad_modes_decorators_on_class_methods'] = PRE + r'''
class Model:
    def __init__(self):
        self.w = torch.tensor([1., 2.], requires_grad=True)
    @torch.no_grad()
    def predict(self, x):
        return self.w * x
    @torch.enable_grad()
    def train_step(self, x):
        return (self.w * x).sum()
    @torch.inference_mode(False)
    def f(self, x):
        return self.w + x
m = Model()
print(m.predict(2.).requires_grad)
with torch.no_grad():
    l = m.train_step(3.)
print(l.requires_grad, l.grad_fn)
l.backward()
print(m.w.grad)
with torch.inference_mode():
    r = m.f(1.)
    print(r.requires_grad, r.is_inference(), torch.is_inference_mode_enabled())
print(Model.predict.__name__, Model.train_step.__name__)
'''

PROGRAMS['n1_backward_create_graph_then_hessian_diag'] = PRE + r'''
x = torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64, requires_grad=True)
y = (x.sin() * x ** 2).sum()
y.backward(create_graph=True)
g = x.grad
print(g, g.grad_fn)
x.grad = None
hd = []
for i in range(3):
    gi, = torch.autograd.grad(g[i], x, retain_graph=True)
    hd.append(gi[i])
print(torch.stack(hd))
print(torch.autograd.functional.hessian(lambda t: (t.sin() * t ** 2).sum(), x).diagonal())
g.sum().backward()
print(x.grad)
'''

PROGRAMS['n2_detach_and_no_grad_memory_stats'] = PRE + r'''
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
print(y, z, out)
print(y.grad_fn.next_functions, z.grad_fn.next_functions[0][0].next_functions)
out.backward()
print(x.grad)
print(x.requires_grad, (x ** 2).requires_grad)
with torch.no_grad():
    print((x ** 2).requires_grad)
yd = x.detach()
print(yd.requires_grad, x.eq(yd).all(), yd.data_ptr() == x.data_ptr())
print(torch.autograd.grad(out if False else (x * x).sum(), x))
'''

PROGRAMS['n3_set_grad_enabled_function_form_leaks'] = PRE + r'''
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
print(y.requires_grad)
m = torch.set_grad_enabled(True)
print(torch.is_grad_enabled())
with m:
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
torch.set_grad_enabled(False)
with torch.enable_grad():
    y = x * 2
print(y.requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(True)
E(lambda: torch.set_grad_enabled())
E(lambda: torch.set_grad_enabled(1))
E(lambda: torch.set_grad_enabled(None))
print(torch.is_grad_enabled())
'''

PROGRAMS['n1_backward_retain_graph_then_different_gradients'] = PRE + r'''
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
c = a * b + a ** 2
for g in (torch.ones(3), torch.tensor([1., 0., 0.]), torch.tensor([0., -2., 0.5])):
    c.backward(g, retain_graph=True)
    print(a.grad, b.grad)
    a.grad.zero_()
    b.grad = None
c.backward(torch.ones(3) * 2, retain_graph=False)
print(a.grad, b.grad)
E(lambda: c.backward(torch.ones(3)))
E(lambda: c.sum().backward())
print(c.grad_fn, c.grad_fn.next_functions)
E(lambda: c.grad_fn.next_functions[0][0]._saved_self)
'''

PROGRAMS['n3_grad_only_inputs_and_allow_unused_none'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.], requires_grad=True)
out = (x * y).sum()
W(lambda: print(torch.autograd.grad(out, x, only_inputs=True, retain_graph=True)))
W(lambda: E(lambda: torch.autograd.grad(out, x, only_inputs=False, retain_graph=True)))
print(x.grad, y.grad)
print(torch.autograd.grad(out, [x, y], allow_unused=None, retain_graph=True))
z = torch.tensor(1., requires_grad=True)
print(torch.autograd.grad(out, [x, z], allow_unused=True, retain_graph=True))
print(torch.autograd.grad(out, [z], allow_unused=True, materialize_grads=True, retain_graph=True))
E(lambda: torch.autograd.grad(out, [z], allow_unused=False, retain_graph=True))
E(lambda: torch.autograd.grad(out, [x], grad_outputs=torch.ones(2), retain_graph=True))
print(torch.autograd.grad(out, x, grad_outputs=torch.tensor(3.), retain_graph=True))
print(torch.autograd.grad(out, x, grad_outputs=[None], retain_graph=True))
'''

PROGRAMS['n3_grad_is_grads_batched_shapes'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x ** 2
eye = torch.eye(3)
print(torch.autograd.grad(y, x, eye, is_grads_batched=True, retain_graph=True))
print(torch.autograd.grad(y, x, torch.ones(2, 3) * torch.tensor([[1.], [2.]]), is_grads_batched=True, retain_graph=True))
E(lambda: torch.autograd.grad(y, x, torch.ones(3), is_grads_batched=True, retain_graph=True))
E(lambda: torch.autograd.grad(y, x, torch.ones(2, 4), is_grads_batched=True, retain_graph=True))
s = (x * x).sum()
print(torch.autograd.grad(s, x, torch.tensor([1., 2.]), is_grads_batched=True, retain_graph=True))
J = torch.autograd.grad(y.sum(0, keepdim=True) * x, x, torch.eye(3), is_grads_batched=True)
print(J)
'''

# ---- grad modes: no_grad / enable_grad / set_grad_enabled / inference_mode, as decorators on functions and generators

PROGRAMS['gm_decorators_without_parentheses'] = PRE + r'''
x = torch.tensor([1.], requires_grad=True)
def f(a):
    return a * 2
for deco in ('no_grad', 'enable_grad', 'inference_mode'):
    def run():
        g = getattr(torch, deco)(f)
        with torch.no_grad():
            r = g(x)
        return (r.requires_grad, r.is_inference())
    E(run)
E(lambda: torch.set_grad_enabled(f))
E(lambda: torch.no_grad(True))
E(lambda: torch.inference_mode('yes'))
print(torch.no_grad(), type(torch.no_grad()).__name__)
print(torch.set_grad_enabled(True).__class__.__name__, torch.is_grad_enabled())
'''

PROGRAMS['gm_inference_mode_nested_and_enable_grad'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
with torch.inference_mode():
    with torch.enable_grad():
        a = x * 2
        print(torch.is_grad_enabled(), torch.is_inference_mode_enabled(), a.requires_grad, a.is_inference())
    with torch.inference_mode(False):
        b = x * 2
        print(torch.is_grad_enabled(), torch.is_inference_mode_enabled(), b.requires_grad, b.is_inference(), b.grad_fn)
    with torch.set_grad_enabled(True):
        c = x * 2
        print(c.requires_grad, c.is_inference())
print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
b.sum().backward()
print(x.grad)
E(lambda: a.add_(1))
E(lambda: (a * x).sum().backward())
E(lambda: torch.autograd.grad((x * a).sum(), x))
d = a.clone()
print(d.is_inference(), d.requires_grad)
E(lambda: a.requires_grad_())
E(lambda: a.view(2, 1).requires_grad_())
'''

PROGRAMS['gm_inference_tensor_inplace_and_views'] = PRE + r'''
with torch.inference_mode():
    t = torch.arange(6.).reshape(2, 3)
    v = t[0]
print(t.is_inference(), v.is_inference(), v._is_view(), v._base is t)
E(lambda: t.add_(1))
E(lambda: v.mul_(2))
E(lambda: t._version)
print(t + 1, (t + 1).is_inference())
E(lambda: torch.ones(2, 3).copy_(t))
u = torch.ones(2, 3)
u.add_(t)
print(u)
with torch.inference_mode():
    t.add_(1)
    print(t)
with torch.no_grad():
    E(lambda: t.add_(1))
w = torch.ones(3, requires_grad=True)
E(lambda: (w * t).sum().backward())
print(w.grad)
'''

PROGRAMS['gm_generator_mode_restored_between_yields'] = PRE + r'''
x = torch.tensor([1.], requires_grad=True)
@torch.no_grad()
def g1():
    print(' g1 start', torch.is_grad_enabled())
    yield (x * 2).requires_grad
    print(' g1 resume', torch.is_grad_enabled())
    yield (x * 3).requires_grad
    print(' g1 end', torch.is_grad_enabled())
it = g1()
print(next(it), torch.is_grad_enabled())
with torch.no_grad():
    print(next(it), torch.is_grad_enabled())
print(list(it), torch.is_grad_enabled())
@torch.inference_mode()
def g2(n):
    for i in range(n):
        t = torch.ones(1) * i
        yield t.is_inference(), torch.is_inference_mode_enabled()
print(list(g2(2)), torch.is_inference_mode_enabled())
@torch.enable_grad()
def g3():
    r = yield (x * 2).requires_grad
    print(' sent', r, torch.is_grad_enabled())
    yield 'done'
with torch.no_grad():
    it = g3()
    print(next(it))
    print(it.send(5))
it = g1()
next(it)
it.close()
print(torch.is_grad_enabled())
'''

PROGRAMS['gm_decorated_function_metadata_and_errors'] = PRE + r'''
@torch.no_grad()
def f(a, b=2):
    """Doubles a."""
    return a * b
print(f.__name__, f.__doc__, f.__wrapped__.__name__ if hasattr(f, '__wrapped__') else None)
x = torch.ones(2, requires_grad=True)
print(f(x).requires_grad, f(x, b=3))
E(lambda: f())
@torch.set_grad_enabled(False)
def g(a):
    return a * 2
print(g(x).requires_grad, torch.is_grad_enabled())
class M:
    @torch.inference_mode(mode=True)
    def run(self, a):
        return a + 1
print(M().run(x).is_inference())
E(lambda: torch.no_grad()(5))
E(lambda: torch.enable_grad()('a'))
'''

PROGRAMS['gm_no_grad_inplace_update_then_backward'] = PRE + r'''
w = torch.tensor([1., 2., 3.], requires_grad=True)
loss = (w * w).sum()
with torch.no_grad():
    w -= 0.1 * torch.ones(3)
print(w, w._version, w.is_leaf, w.grad_fn)
E(lambda: loss.backward())
w2 = torch.tensor([1., 2., 3.], requires_grad=True)
loss2 = (w2 * 3).sum()
with torch.no_grad():
    w2 -= 0.1
loss2.backward()
print(w2.grad, w2._version)
w3 = torch.tensor([1., 2., 3.], requires_grad=True)
E(lambda: w3.__isub__(0.1))
w3.data -= 0.1
print(w3, w3._version)
with torch.no_grad():
    w3[0] = 0.
    w3.clamp_(min=0.5)
print(w3, w3._version, w3.requires_grad)
'''

# fixed: PyTorch's optimizer step refuses to update a parameter made in inference mode
PROGRAMS['gm_model_built_in_inference_mode_then_trained'] = PRE + r'''
torch.manual_seed(0)
with torch.inference_mode():
    lin = torch.nn.Linear(2, 1)
    print(lin.weight.is_inference(), lin.weight.requires_grad, torch.ones(2, requires_grad=True).requires_grad)
x = torch.tensor([[1., 2.], [3., -1.]])
out = lin(x)
print(out, out.is_inference(), out.grad_fn.name())
out.sum().backward()
print(lin.weight.grad, lin.bias.grad)
for opt in (torch.optim.SGD(lin.parameters(), lr=0.1), torch.optim.Adam(lin.parameters(), lr=0.1)):
    E(lambda: opt.step())
    print(lin.weight, lin.bias)
with torch.inference_mode():
    torch.optim.SGD(lin.parameters(), lr=0.1).step()
print(lin.weight, lin.bias)
with torch.no_grad():
    E(lambda: lin.weight.mul_(2))
lin2 = torch.nn.Linear(2, 1)
with torch.no_grad():
    lin2.weight.copy_(lin.weight)
    lin2.bias.copy_(lin.bias)
print(lin2.weight.is_inference(), lin2(x))
'''

# ---- custom Functions: Exp, LegendrePolynomial3, MultiplyAdd and their mistakes; jvp; forward AD

PROGRAMS['n0_exp_fn_half_0dim_empty'] = PRE + r'''
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
for t in (torch.tensor(0.5, requires_grad=True), torch.tensor([0.5, -1.], dtype=torch.float16, requires_grad=True),
          torch.empty(0, 3, requires_grad=True), torch.tensor([[1., 2.]], dtype=torch.bfloat16, requires_grad=True)):
    out = Exp.apply(t)
    print(out, out.grad_fn.name(), out.shape, out.requires_grad, out.is_leaf)
    out.sum().backward()
    print(t.grad, t.grad.dtype)
E(lambda: out.grad_fn.saved_tensors)
'''

PROGRAMS['n0_exp_fn_view_input_and_next_functions'] = PRE + r'''
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
base = torch.arange(6., requires_grad=True)
v = base.view(2, 3).t()
out = Exp.apply(v)
print(out.grad_fn.next_functions)
print(out.grad_fn.next_functions[0][0].next_functions)
print(out.is_contiguous(), out._is_view(), out._base is None)
out2 = Exp.apply(out[0])
print(out2.grad_fn.next_functions[0][0].name(), out2.grad_fn.next_functions[0][0]._saved_dim, out2.grad_fn.next_functions[0][0]._saved_index)
out2.sum().backward()
print(base.grad)
'''

PROGRAMS['n0_legendre_float64_double_backward'] = PRE + r'''
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
y = LegendrePolynomial3.apply(x)
print(y)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.grad_fn)
h, = torch.autograd.grad(g.sum(), x)
print(h)
x2 = torch.tensor(0.3, dtype=torch.float64, requires_grad=True)
P3 = LegendrePolynomial3.apply
a = torch.tensor(0.1, dtype=torch.float64, requires_grad=True)
out = a + P3(x2 * 2)
out.backward()
print(a.grad, x2.grad)
print(torch.autograd.gradcheck(P3, (torch.randn(3, dtype=torch.float64, requires_grad=True),)))
print(torch.autograd.gradgradcheck(P3, (torch.tensor([0.2, -0.4], dtype=torch.float64, requires_grad=True),)))
'''

PROGRAMS['n1_multiply_add_setup_context_and_needs'] = PRE + r'''
from torch.autograd import Function
class MultiplyAdd(Function):
    @staticmethod
    def forward(w, x, b):
        return w * x + b
    @staticmethod
    def setup_context(ctx, inputs, output):
        w, x, b = inputs
        ctx.save_for_backward(w, x)
    @staticmethod
    def backward(ctx, grad_output):
        w, x = ctx.saved_tensors
        print('needs', ctx.needs_input_grad)
        grad_w = grad_output * x if ctx.needs_input_grad[0] else None
        grad_x = grad_output * w if ctx.needs_input_grad[1] else None
        grad_b = grad_output * 1 if ctx.needs_input_grad[2] else None
        return grad_w, grad_x, grad_b
x = torch.ones(1)
w = torch.tensor([0.3], requires_grad=True)
b = torch.tensor([0.7], requires_grad=True)
z = MultiplyAdd.apply(w, x, b)
print(z, z.grad_fn.name(), z.grad_fn.next_functions)
z.backward()
print(w.grad, b.grad, x.grad)
E(lambda: MultiplyAdd.apply(w, 2.0, b))
print(w.grad, b.grad)
z = MultiplyAdd.apply(torch.tensor(2.), w, torch.tensor([[1.], [2.]]))
print(z)
E(lambda: z.backward(torch.ones(2, 1)))
print(w.grad)
'''

PROGRAMS['n3_function_needs_input_grad_mixed_nontensor'] = PRE + r'''
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k, y, flag):
        print('fwd needs', ctx.needs_input_grad)
        ctx.k = k
        ctx.flag = flag
        return x * k + (y if flag else 0)
    @staticmethod
    def backward(ctx, g):
        print('bwd needs', ctx.needs_input_grad)
        return g * ctx.k, None, (g if ctx.flag else None), None
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.])
Scale.apply(a, 2.0, b, True).sum().backward()
print(a.grad)
c = torch.tensor([1., 1.], requires_grad=True)
Scale.apply(b, 3, c, False).sum().backward() if Scale.apply(b, 3, c, False).requires_grad else print('no grad')
print(c.grad)
r = Scale.apply(a, torch.tensor(2.), c, True)
print(r.grad_fn.next_functions)
r.sum().backward()
print(a.grad, c.grad)
'''

PROGRAMS['fn_save_outputs_inputs_nontensor_mix'] = PRE + r'''
from torch.autograd import Function
class F(Function):
    @staticmethod
    def forward(ctx, x, y):
        out = x * y
        ctx.save_for_backward(x, None, out)
        return out
    @staticmethod
    def backward(ctx, g):
        x, n, out = ctx.saved_tensors
        print('saved', n, out.requires_grad, x.requires_grad, out.grad_fn)
        return g * out / x, None
x = torch.tensor([1., 2.], requires_grad=True)
r = F.apply(x, torch.tensor([3., 4.]))
print(r.grad_fn.saved_tensors[1], len(r.grad_fn.saved_tensors))
print(r.grad_fn.saved_tensors[2] is r, r.grad_fn.saved_tensors[0] is x)
r.sum().backward()
print(x.grad)
class G(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, 3)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: G.apply(x))
class H(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward([x])
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: H.apply(x))
'''

PROGRAMS['fn_modify_saved_input_after_forward'] = PRE + r'''
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
a = torch.tensor([1., 2.], requires_grad=True)
b = a * 1
out = Sq.apply(b)
b.add_(1)
E(lambda: out.sum().backward())
c = a.clone()
out2 = Sq.apply(c)
with torch.no_grad():
    c.mul_(2)
E(lambda: out2.sum().backward())
out3 = Sq.apply(a)
with torch.no_grad():
    a[0] = 5.
E(lambda: out3.sum().backward())
print(a._version, a.grad)
'''

PROGRAMS['fn_mark_dirty_returns_input_and_version'] = PRE + r'''
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
b = a.clone()
print(b._version)
c = AddOne_.apply(b)
print(c is b, b._version, b.grad_fn.name(), b.grad_fn.next_functions[0][0].name(), b)
c.sum().backward()
print(a.grad)
E(lambda: AddOne_.apply(a))
d = torch.ones(2)
e = AddOne_.apply(d)
print(e is d, e.requires_grad, e.grad_fn, d)
v = a.clone()[0:1]
w = AddOne_.apply(v)
print(w.grad_fn.name(), v._base.grad_fn.name(), w._version)
'''

PROGRAMS['fn_mark_dirty_forgotten'] = PRE + r'''
class BadInplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 2
a = torch.tensor([1., 2.], requires_grad=True)
b = a.clone()
E(lambda: BadInplace.apply(b))
print(b, b.grad_fn.name(), b._version)
class MarkNotReturned(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        return g * 2
c = a.clone()
E(lambda: MarkNotReturned.apply(c))
'''

PROGRAMS['fn_mark_non_differentiable_int_and_float'] = PRE + r'''
class ArgMaxVal(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        v, i = x.max(0)
        ctx.mark_non_differentiable(i)
        ctx.save_for_backward(x, i)
        return v, i
    @staticmethod
    def backward(ctx, gv, gi):
        x, i = ctx.saved_tensors
        print('gi', gi)
        g = torch.zeros_like(x)
        g[i] = gv
        return g
x = torch.tensor([1., 5., 3.], requires_grad=True)
v, i = ArgMaxVal.apply(x)
print(v, i, v.requires_grad, i.requires_grad, i.grad_fn, v.grad_fn.name())
v.backward()
print(x.grad)
class Both(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        a, b = x * 2, x * 3
        ctx.mark_non_differentiable(b)
        return a, b
    @staticmethod
    def backward(ctx, ga, gb):
        print('gb', gb)
        return ga * 2
a, b = Both.apply(x)
print(b.requires_grad, b.is_leaf)
E(lambda: b.sum().backward())
(a.sum() + b.sum()).backward()
print(x.grad)
'''

PROGRAMS['fn_set_materialize_grads_two_outputs'] = PRE + r'''
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
x = torch.tensor([1., 2.], requires_grad=True)
for mat in (True, False):
    a, b = Two.apply(x, mat)
    a.sum().backward()
    print(x.grad)
    x.grad = None
a, b = Two.apply(x, False)
E(lambda: torch.autograd.grad(b.sum(), x))
'''

PROGRAMS['fn_once_differentiable_needs_and_graph'] = PRE + r'''
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
        print('grad enabled in backward:', torch.is_grad_enabled(), g.requires_grad)
        return 3 * x ** 2 * g
x = torch.tensor([1., 2.], requires_grad=True)
y = Cube.apply(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.requires_grad, g.grad_fn)
E(lambda: g.sum().backward())
y = Cube.apply(x)
g, = torch.autograd.grad(y.sum(), x)
print(g, g.requires_grad)
'''

PROGRAMS['fn_vjp_staticmethod_alias_and_jvp'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
class Sin(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)
        return x.sin()
    @staticmethod
    def vjp(ctx, g):
        x, = ctx.saved_tensors
        return g * x.cos()
    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return t * x.cos()
x = torch.tensor([0., 1.], requires_grad=True)
Sin.apply(x).sum().backward()
print(x.grad, Sin.backward is Sin.vjp)
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([0., 1.]), torch.tensor([1., 2.]))
    out = Sin.apply(d)
    p, t = fwAD.unpack_dual(out)
    print(p, t)
class NoJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1.]), torch.tensor([1.]))
    E(lambda: NoJvp.apply(d))
'''

PROGRAMS['fn_backward_returns_wrong_things'] = PRE + r'''
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
for ret in (lambda g: g, lambda g: (g,), lambda g: (g, g, g), lambda g: (g, g, None), lambda g: (g.sum(), g),
            lambda g: (g.double(), g), lambda g: (g[None], g), lambda g: (g.reshape(2, 1), g), lambda g: (1.0, g),
            lambda g: [g, g], lambda g: (g.int(), g), lambda g: (g.expand(3, 2), g), lambda g: (g.to(torch.complex64), g)):
    E(lambda: make(ret).apply(x, y).sum().backward())
print(x.grad, y.grad)
'''

PROGRAMS['fn_forward_returns_odd_things'] = PRE + r'''
def make(fwd):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return fwd(x)
        @staticmethod
        def backward(ctx, *gs):
            print('n grads', len(gs), [None if g is None else tuple(g.shape) for g in gs])
            return gs[0] if gs[0] is not None else None
    return F
x = torch.tensor([1., 2.], requires_grad=True)
for fwd in (lambda x: x * 2, lambda x: (x * 2,), lambda x: [x * 2, 3], lambda x: (x * 2, None), lambda x: 5,
            lambda x: (x * 2, x.detach()), lambda x: {'a': x}, lambda x: (x * 2, 'str'), lambda x: x):
    def run():
        out = make(fwd).apply(x)
        print(type(out).__name__, out if not isinstance(out, torch.Tensor) else (out.grad_fn.name(), out.requires_grad))
        first = out[0] if isinstance(out, (tuple, list)) else out
        if isinstance(first, torch.Tensor) and first.requires_grad:
            first.sum().backward()
    E(run)
print(x.grad)
'''

PROGRAMS['fn_apply_under_no_grad_and_inference'] = PRE + r'''
class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        print('grad mode in forward', torch.is_grad_enabled())
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = torch.tensor([1., 2.], requires_grad=True)
with torch.no_grad():
    y = Double.apply(x)
print(y.requires_grad, y.grad_fn)
with torch.inference_mode():
    z = Double.apply(x)
print(z.requires_grad, z.is_inference())
with torch.inference_mode():
    i = torch.ones(2)
E(lambda: Double.apply(i))
w = Double.apply(x)
print(w.grad_fn.name(), type(w.grad_fn).__name__, type(w.grad_fn).__mro__[1].__name__)
print(isinstance(w.grad_fn, torch.autograd.function.BackwardCFunction))
print(w.grad_fn._forward_cls is Double)
'''

PROGRAMS['fn_ctx_attributes_and_saved_variables'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        ctx.shape = x.shape
        ctx.save_for_backward(x)
        return x * k
    @staticmethod
    def backward(ctx, g):
        print(ctx.k, ctx.shape, ctx.needs_input_grad, ctx.saved_tensors[0].shape)
        print(ctx.saved_variables[0].shape if hasattr(ctx, 'saved_variables') else None)
        return g * ctx.k, None
x = torch.ones(2, 3, requires_grad=True)
y = F.apply(x, 2.5)
print(y.grad_fn.k, y.grad_fn.shape, y.grad_fn.needs_input_grad)
print(y.grad_fn.to_save if hasattr(y.grad_fn, 'to_save') else '-')
E(lambda: y.grad_fn.saved_variables)
y.sum().backward()
print(x.grad)
E(lambda: y.grad_fn.saved_tensors)
'''

PROGRAMS['fn_double_backward_multiply_add'] = PRE + r'''
from torch.autograd import Function
class MultiplyAdd(Function):
    @staticmethod
    def forward(ctx, w, x, b):
        ctx.save_for_backward(w, x)
        return w * x + b
    @staticmethod
    def backward(ctx, grad_output):
        w, x = ctx.saved_tensors
        return grad_output * x, grad_output * w, grad_output
w = torch.tensor([2.], dtype=torch.float64, requires_grad=True)
x = torch.tensor([3.], dtype=torch.float64, requires_grad=True)
b = torch.tensor([1.], dtype=torch.float64, requires_grad=True)
z = MultiplyAdd.apply(w, x, b)
gw, gx, gb = torch.autograd.grad(z, (w, x, b), create_graph=True)
print(gw, gx, gb)
print(gw.grad_fn, gb.grad_fn, gb.requires_grad)
h = torch.autograd.grad(gw, (w, x, b), allow_unused=True)
print(h)
print(torch.autograd.gradgradcheck(MultiplyAdd.apply, (w, x, b)))
'''

PROGRAMS['n0_polynomial_fit_float64_few_steps'] = PRE + r'''
import math
dtype = torch.float64
x = torch.linspace(-math.pi, math.pi, 200, dtype=dtype)
y = torch.sin(x)
class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)
    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)
a = torch.full((), 0.0, dtype=dtype, requires_grad=True)
b = torch.full((), -1.0, dtype=dtype, requires_grad=True)
c = torch.full((), 0.0, dtype=dtype, requires_grad=True)
d = torch.full((), 0.3, dtype=dtype, requires_grad=True)
learning_rate = 5e-6
for t in range(30):
    P3 = LegendrePolynomial3.apply
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    if t % 10 == 9:
        print(t, loss.item(), repr(loss))
    loss.backward()
    with torch.no_grad():
        for p in (a, b, c, d):
            p -= learning_rate * p.grad
            p.grad = None
print(f'Result: y = {a.item()} + {b.item()} * P3({c.item()} + {d.item()} x)')
print(a, b, c, d)
'''

PROGRAMS['n0_polynomial_float32_grad_fn_tree'] = DUMP + r'''
class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)
    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)
x = torch.linspace(-1, 1, 5)
a = torch.tensor(0.1, requires_grad=True)
b = torch.tensor(-1.0, requires_grad=True)
c = torch.tensor(0.2, requires_grad=True)
d = torch.tensor(0.3, requires_grad=True)
y_pred = a + b * LegendrePolynomial3.apply(c + d * x)
loss = (y_pred - torch.sin(x)).pow(2).sum()
dump(loss.grad_fn)
loss.backward()
print(a.grad, b.grad, c.grad, d.grad)
'''

PROGRAMS['n1_multiply_add_rand_shapes_broadcast'] = PRE + r'''
from torch.autograd import Function
class MultiplyAdd(Function):
    @staticmethod
    def forward(ctx, w, x, b):
        ctx.save_for_backward(w, x)
        return w * x + b
    @staticmethod
    def backward(ctx, grad_output):
        w, x = ctx.saved_tensors
        return grad_output * x, grad_output * w, grad_output * 1
torch.manual_seed(0)
x = torch.ones(1)
w = torch.rand(1, requires_grad=True)
b = torch.rand(1, requires_grad=True)
z = MultiplyAdd.apply(w, x, b)
z.backward()
print(w, b, w.grad, b.grad, x.grad)
x = torch.ones(3, 2)
w = torch.rand(2, requires_grad=True)
b = torch.rand(1, requires_grad=True)
z = MultiplyAdd.apply(w, x, b)
print(z.shape)
E(lambda: z.sum().backward())
print(w.grad, b.grad)
'''

# fixed: PyTorch checks each tangent jvp returns before counting them ('expected Variable or None (got list)')
PROGRAMS['fn_jvp_wrong_returns'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
def make(jvp_ret, n_out=1):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2 if n_out == 1 else (x * 2, x * 3)
        @staticmethod
        def backward(ctx, *g):
            return g[0]
        @staticmethod
        def jvp(ctx, t):
            return jvp_ret(t)
    return F
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([0.5, -1.]))
    for ret, n in ((lambda t: t * 2, 1), (lambda t: (t * 2,), 1), (lambda t: t.sum(), 1), (lambda t: t.double(), 1),
                   (lambda t: None, 1), (lambda t: (t, t), 1), (lambda t: (t * 2, t * 3), 2), (lambda t: t, 2),
                   (lambda t: (t, None), 2), (lambda t: [t, t], 2), (lambda t: [t], 1), (lambda t: (t, 3), 2), (lambda t: (t, t, 1), 2), (lambda t: t[:1], 1), (lambda t: 3.0, 1)):
        def run():
            out = make(ret, n).apply(d)
            outs = out if isinstance(out, tuple) else (out,)
            return [fwAD.unpack_dual(o).tangent for o in outs]
        E(run)
'''

PROGRAMS['fn_jvp_mark_dirty_and_nondiff_forward_ad'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
class MulInplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(3)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 3
    @staticmethod
    def jvp(ctx, t):
        t.mul_(3)
        return t
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
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([0.5, -1.]))
    r = MulInplace.apply(d)
    print(r is d, fwAD.unpack_dual(r))
    e = fwAD.make_dual(torch.tensor([3., 1., 2.]), torch.tensor([1., 2., 3.]))
    v, i = SortF.apply(e)
    print(fwAD.unpack_dual(v), fwAD.unpack_dual(i))
'''

PROGRAMS['fn_exp_forward_and_reverse_together'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        ctx.result = result
        return result
    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result
    @staticmethod
    def jvp(ctx, t):
        return t * ctx.result
x = torch.tensor([0., 1., -1.], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.ones(3))
    out = Exp.apply(d)
    p, t = fwAD.unpack_dual(out)
    print(p, t, p.grad_fn.name() if p.grad_fn else None)
    p.sum().backward()
    print(x.grad)
print(torch.autograd.functional.jvp(Exp.apply, torch.tensor([0., 1.]), torch.tensor([1., 2.])))
'''

PROGRAMS['fwad_dual_of_views_and_leaves'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    x = torch.arange(6.).reshape(2, 3)
    d = fwAD.make_dual(x, torch.ones(2, 3))
    v = d[0]
    print(fwAD.unpack_dual(v).tangent, v._is_view(), v._base is d)
    v.mul_(2)
    print(fwAD.unpack_dual(d).tangent)
    t = d.t()
    print(fwAD.unpack_dual(t).tangent.stride())
    plain = torch.zeros(2, 3)
    plain[0] = d[1]
    print(fwAD.unpack_dual(plain))
    E(lambda: fwAD.make_dual(x, torch.ones(3)))
    E(lambda: fwAD.make_dual(x, torch.ones(2, 3, dtype=torch.float64)))
    E(lambda: fwAD.make_dual(x.long(), torch.ones(2, 3)))
    E(lambda: fwAD.make_dual(d, torch.ones(2, 3)))
print(fwAD.unpack_dual(d))
'''

PROGRAMS['jvp_vs_vjp_by_hand_chapter2'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
def f(t):
    return torch.stack([t[0] * t[1], t[1].sin(), (t ** 2).sum()])
x = torch.tensor([0.5, 2.0], dtype=torch.float64)
J = torch.autograd.functional.jacobian(f, x)
print(J)
v = torch.tensor([1., -1., 0.5], dtype=torch.float64)
xr = x.clone().requires_grad_()
f(xr).backward(v)
print(xr.grad, v @ J)
u = torch.tensor([0.25, 1.], dtype=torch.float64)
with fwAD.dual_level():
    out = f(fwAD.make_dual(x, u))
    print(fwAD.unpack_dual(out).tangent, J @ u)
print(torch.autograd.functional.vjp(f, x, v))
print(torch.autograd.functional.jvp(f, x, u))
print(torch.autograd.functional.jacobian(f, x, vectorize=True, strategy='forward-mode'))
'''

PROGRAMS['fn_enable_grad_inside_forward_inner_graph'] = PRE + r'''
class Smooth(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        print('forward mode', torch.is_grad_enabled(), x.requires_grad)
        with torch.enable_grad():
            xd = x.detach().requires_grad_()
            y = (xd.sin() * xd).sum(-1)
            g, = torch.autograd.grad(y.sum(), xd)
            print('inner', y.grad_fn.name(), g.requires_grad)
        ctx.save_for_backward(g)
        return y.detach()
    @staticmethod
    def backward(ctx, gy):
        g, = ctx.saved_tensors
        print('backward mode', torch.is_grad_enabled(), gy.shape)
        return gy.unsqueeze(-1) * g
x = torch.tensor([[0.5, 1.0], [2.0, -1.0]], requires_grad=True)
out = Smooth.apply(x)
print(out, out.grad_fn.name(), out.requires_grad)
out.sum().backward()
print(x.grad)
with torch.no_grad():
    print(Smooth.apply(x).requires_grad)
'''

# ---- hooks: tensor, node pre/post, saved-tensor hooks, retain_grad

PROGRAMS['hooks_retain_grad_after_hooks_order'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.register_hook(lambda g: print('h1', g) or g * 10)
y.retain_grad()
y.register_hook(lambda g: print('h2', g) or g + 1)
z = (y * y).sum()
z.backward()
print(y.grad, x.grad)
a = x * 3
a.retain_grad()
a.register_hook(lambda g: g * 0)
a.sum().backward()
print(a.grad, x.grad)
b = x.exp()
b.register_hook(lambda g: None)
b.retain_grad()
b.retain_grad()
b.sum().backward()
print(b.grad)
'''

PROGRAMS['node_pre_post_hooks_on_chain'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.sin()
z = y * 3
out = z.sum()
log = []
h1 = z.grad_fn.register_prehook(lambda gouts: log.append(('pre z', gouts)))
h2 = z.grad_fn.register_hook(lambda gins, gouts: log.append(('post z', gins, gouts)))
h3 = y.grad_fn.register_prehook(lambda gouts: (gouts[0] * 2,))
h4 = y.grad_fn.register_hook(lambda gins, gouts: log.append(('post y', gins, gouts)))
acc = x.grad_fn if x.grad_fn else y.grad_fn.next_functions[0][0]
h5 = acc.register_prehook(lambda gouts: log.append(('pre acc', gouts)))
out.backward(retain_graph=True)
for l in log:
    print(l)
print(x.grad)
for h in (h1, h2, h3, h4, h5):
    h.remove()
log.clear()
x.grad = None
out.backward()
print(log, x.grad)
'''

PROGRAMS['saved_tensor_hooks_custom_fn_outputs'] = PRE + r'''
packed = []
def pack(t):
    packed.append((tuple(t.shape), t.dtype, t.requires_grad))
    return t.clone()
def unpack(t):
    print('unpack', tuple(t.shape))
    return t
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result, i)
        return result
    @staticmethod
    def backward(ctx, g):
        result, i = ctx.saved_tensors
        return g * result
x = torch.tensor([0., 1.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = Exp.apply(x)
    z = y * x
print(packed)
z.sum().backward()
print(x.grad)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t * 0):
    y = Exp.apply(x)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['accumulate_grad_variable_and_hooks_identity'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
acc = y.grad_fn.next_functions[0][0]
print(acc.name(), acc.variable is x, acc.next_functions, acc.metadata)
acc2 = (x + 1).grad_fn.next_functions[0][0]
print(acc is acc2)
order = []
acc.register_prehook(lambda g: order.append(('acc pre', g[0].tolist())))
acc.register_hook(lambda gi, go: order.append(('acc post', gi, go[0].tolist())))
x.register_hook(lambda g: order.append(('tensor', g.tolist())) or g * 2)
x.register_post_accumulate_grad_hook(lambda t: order.append(('post acc', t.grad.tolist())))
y.sum().backward()
for o in order:
    print(o)
print(x.grad)
del y, acc, acc2
z = x * 3
print(z.grad_fn.next_functions[0][0]._forward_hooks if hasattr(z.grad_fn.next_functions[0][0], '_forward_hooks') else '-')
'''

PROGRAMS['hook_wrong_returns_named_callables'] = PRE + r'''
import functools
class Scaler:
    def __init__(self, k):
        self.k = k
    def __call__(self, g):
        return g.double() * self.k
def wrong_shape(g, extra=1):
    return g.sum() * extra
for hook in (Scaler(2), functools.partial(wrong_shape, extra=3), lambda g: g[None], wrong_shape, lambda g: 3,
             lambda g: g.int(), lambda g: g.to(torch.complex64), lambda g: (g,), lambda g: g.t() if g.dim() == 2 else g.expand(2, 2)):
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    y.register_hook(hook)
    E(lambda: y.sum().backward())
    print(x.grad)
    x2 = torch.ones(2, requires_grad=True)
    x2.register_hook(hook)
    E(lambda: (x2 * 2).sum().backward())
    print(x2.grad)
'''

PROGRAMS['node_hook_wrong_returns_messages'] = PRE + r'''
x = torch.ones(2, requires_grad=True)
w = torch.ones(2, requires_grad=True)
for pre in (lambda go: go[0], lambda go: (go[0], go[0]), lambda go: [go[0] * 2], lambda go: (go[0].double(),),
            lambda go: (go[0][:1],), lambda go: (None,), lambda go: 5):
    y = x * w
    y.grad_fn.register_prehook(pre)
    E(lambda: y.sum().backward())
    print(x.grad, w.grad)
    x.grad = w.grad = None
for post in (lambda gi, go: gi[0], lambda gi, go: (gi[0],), lambda gi, go: (gi[0] * 2, None), lambda gi, go: (gi[0], gi[1], gi[0]),
             lambda gi, go: (gi[0].double(), gi[1]), lambda gi, go: (gi[0][:1], gi[1]), lambda gi, go: [gi[1], gi[0]]):
    y = x * w
    y.grad_fn.register_hook(post)
    E(lambda: y.sum().backward())
    print(x.grad, w.grad)
    x.grad = w.grad = None
'''

PROGRAMS['hook_removal_inside_hooks_and_twice'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
handles = []
def h1(g):
    print('h1', g)
    handles[1].remove()
    return g * 2
def h2(g):
    print('h2', g)
    return g + 100
def h3(g):
    print('h3', g)
handles.append(y.register_hook(h1))
handles.append(y.register_hook(h2))
handles.append(y.register_hook(h3))
y.sum().backward(retain_graph=True)
print(x.grad)
y.sum().backward()
print(x.grad)
handles[0].remove()
handles[0].remove()
with handles[2] as h:
    print(type(h).__name__)
z = x * 2
z.register_hook(h3)
z.register_hook(h3)
z.sum().backward()
'''

PROGRAMS['hook_changes_grad_dtype_leaf_and_nonleaf'] = PRE + r'''
x = torch.tensor([1., 2.], dtype=torch.float16, requires_grad=True)
y = x.float() * 2
y.register_hook(lambda g: print('y grad', g.dtype) or g)
x.register_hook(lambda g: print('x grad', g.dtype) or g)
y.sum().backward()
print(x.grad, x.grad.dtype)
z = torch.tensor([1., 2.], requires_grad=True)
w = z.double() * 3
w.sum().backward()
print(z.grad, z.grad.dtype)
b = torch.tensor([1., 2.], dtype=torch.bfloat16, requires_grad=True)
c = (b.to(torch.float64) ** 2).to(torch.float16)
print(c.grad_fn.name(), c.grad_fn.next_functions[0][0].name(), c.grad_fn._saved_self_sym_sizes if hasattr(c.grad_fn, '_saved_self_sym_sizes') else '-')
c.sum().backward()
print(b.grad)
'''

PROGRAMS['saved_tensor_hooks_mistakes'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
def pack_bad(t):
    return t.numpy()
def unpack_np(a):
    return torch.from_numpy(a)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t.detach().numpy(), unpack_np):
    y = x.exp()
y.sum().backward()
print(x.grad)
with torch.autograd.graph.saved_tensors_hooks(lambda t: None, lambda p: p):
    y = x.sin()
E(lambda: y.sum().backward())
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda p: p.double()):
    y = x.sin()
E(lambda: y.sum().backward())
print(x.grad)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda p: p[:1]):
    y = x.cos()
E(lambda: y.sum().backward())
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda p: 3.0):
    y = x.cos()
E(lambda: y.sum().backward())
E(lambda: torch.autograd.graph.saved_tensors_hooks(1, 2).__enter__() or x.exp())
torch.autograd.graph.saved_tensors_hooks
'''

PROGRAMS['retain_grad_and_hook_on_multiple_outputs'] = PRE + r'''
x = torch.tensor([[3., 1.], [2., 5.]], requires_grad=True)
vals, idx = x.max(1)
vals.retain_grad()
a, b = x.unbind(1)
a.retain_grad()
b.register_hook(lambda g: print('b hook', g) or g * 10)
s, i = x.sort(0)
s.retain_grad()
loss = vals.sum() + (a * b).sum() + s[0].sum()
loss.backward()
print(vals.grad, a.grad, b.grad, s.grad)
print(x.grad)
print(idx.requires_grad, i.grad_fn, vals.grad_fn.name(), a.grad_fn.name(), a.output_nr, b.output_nr, vals.output_nr)
'''

# fixed: PyTorch names bool, bfloat16 and complex types by their C++ names (CPUBFloat16Type, CPUComplexFloatType)
PROGRAMS['hook_changes_dtype_message_type_names'] = PRE + r'''
for dt, change in ((torch.float32, lambda g: g.bool()), (torch.float32, lambda g: g.bfloat16()),
                   (torch.float32, lambda g: g.half()), (torch.float32, lambda g: g.to(torch.complex64)),
                   (torch.complex64, lambda g: g.real), (torch.complex128, lambda g: g.to(torch.complex64)),
                   (torch.bfloat16, lambda g: g.double()), (torch.float64, lambda g: g.long())):
    x = torch.ones(2, dtype=dt, requires_grad=True)
    y = x * 2
    y.register_hook(change)
    E(lambda: y.abs().sum().backward())
    x.register_hook(change)
    E(lambda: (x * 3).abs().sum().backward())
E(lambda: torch.nn.functional.embedding(torch.tensor([0., 1.], dtype=torch.bfloat16), torch.ones(3, 2)))
E(lambda: torch.nn.functional.embedding(torch.tensor([0., 1.], dtype=torch.float16), torch.ones(3, 2)))
'''

PROGRAMS['hook_calls_autograd_grad_and_backward_inside'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([0.5, -0.5], requires_grad=True)
def hook(g):
    E(lambda: torch.autograd.grad((w * w).sum(), w))
    with torch.enable_grad():
        inner, = torch.autograd.grad((w * w).sum(), w)
    print('inner grad', inner, torch.is_grad_enabled())
    return g + inner
y = x * w
y.register_hook(hook)
y.sum().backward()
print(x.grad, w.grad)
def hook2(g):
    with torch.enable_grad():
        (w ** 3).sum().backward()
    return g
z = x * 3
z.register_hook(hook2)
z.sum().backward()
print(x.grad, w.grad)
'''

# ---- in-place ops on leaves and views, modified saved tensors, version counters

PROGRAMS['inplace_on_leaf_views_errors_table'] = PRE + r'''
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
E(lambda: x.add_(1))
E(lambda: x[0].mul_(2))
E(lambda: x.view(2, 2).zero_())
E(lambda: x.t_() if x.dim() == 2 else x.unsqueeze_(0))
E(lambda: x.resize_(2, 2))
E(lambda: x.copy_(torch.zeros(4)))
E(lambda: x.clamp_(0, 1))
E(lambda: x.requires_grad_(False).add_(1) if False else x.__setitem__(0, 0.))
E(lambda: x.masked_fill_(x > 2, 0.))
with torch.no_grad():
    x.add_(1)
    x[0] = 10.
print(x, x._version, x.is_leaf, x.grad_fn)
y = x.detach()
y.add_(1)
print(x, x._version)
x.data.mul_(0.5)
print(x, x._version)
'''

PROGRAMS['inplace_on_nonleaf_views_graph'] = DUMP + r'''
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
y = x * 1
v = y.view(2, 2)
r = v[1]
r.mul_(10)
print(y, v.grad_fn.name(), r.grad_fn.name(), y.grad_fn.name())
dump(y.grad_fn)
print(y._version, v._version, r._version)
y.sum().backward()
print(x.grad)
x.grad = None
a = x * 1
b = a[::2]
b.exp_()
c = a.sum()
dump(c.grad_fn)
c.backward()
print(x.grad)
'''

PROGRAMS['modified_saved_tensor_messages_many_producers'] = PRE + r'''
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
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
makers = {
    'exp': lambda: x.exp(), 'Exp': lambda: Exp.apply(x), 'view': lambda: (x * 1).view(4), 't': lambda: (x * 1).t(),
    'unbind': lambda: (x * 1).unbind(0)[1], 'split': lambda: (x * 1).split(1)[0], 'max': lambda: x.max(0)[0],
    'sigmoid': lambda: x.sigmoid(), 'leaf_clone': lambda: x.clone(), 'detach': lambda: x.detach(), 'double': lambda: x.double(),
    'half': lambda: x.half(), 'cplx': lambda: x.to(torch.complex64), 'int': lambda: x.long(),
}
for name, mk in makers.items():
    t = mk()
    y = (t * t).sum() if t.dtype != torch.int64 else (x * t).sum()
    with torch.no_grad():
        t.add_(1)
    try:
        y.backward()
        print(name, 'ok')
    except RuntimeError as e:
        print(name, e)
    x.grad = None
'''

PROGRAMS['modified_saved_tensor_version_numbers'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = a * 1
c = b.tanh()
for k in range(3):
    b.add_(1)
print(b._version, c._version)
E(lambda: c.sum().backward())
d = a.sigmoid()
e = d * 2
d.mul_(2)
d.mul_(2)
print(d._version, d.grad_fn.name())
E(lambda: e.sum().backward())
f = a.exp()
g = f[0] * f[1]
f[1:].zero_()
print(f._version, f.grad_fn.name())
E(lambda: g.backward())
h = a * 1
i = h.relu()
i.add_(0)
E(lambda: i.sum().backward())
print(a.grad)
'''

PROGRAMS['inplace_relu_sigmoid_tanh_exp_saved_output'] = PRE + r'''
x = torch.tensor([-1., 0.5, 2.], requires_grad=True)
for name in ('relu_', 'sigmoid_', 'tanh_', 'exp_', 'sqrt_', 'abs_', 'neg_', 'sin_', 'reciprocal_', 'clamp_', 'pow_', 'mul_', 'div_', 'add_', 'fill_', 'zero_'):
    y = x * 1 + 2
    args = {'clamp_': (0., 1.), 'pow_': (2,), 'mul_': (3.,), 'div_': (2.,), 'add_': (1.,), 'fill_': (7.,)}.get(name, ())
    z = getattr(y, name)(*args)
    print(name, z is y, y.grad_fn.name(), y._version, [n.name() if n else None for n, _ in y.grad_fn.next_functions])
    try:
        (y * y).sum().backward()
        print('  grad', x.grad)
    except RuntimeError as e:
        print('  err', e)
    x.grad = None
'''

PROGRAMS['inplace_through_views_of_nonleaf_grad_fns'] = DUMP + r'''
x = torch.tensor([1., 2., 3., 4., 5., 6.], requires_grad=True)
y = x * 2
a = y.view(2, 3)
b = a[:, 1]
c = a.t()[2]
b.mul_(10)
c.add_(100)
print(y)
print(y.grad_fn.name(), a.grad_fn.name(), b.grad_fn.name(), c.grad_fn.name())
print(y._version, a._version, b._version, c._version)
dump(c.grad_fn)
y.sum().backward(retain_graph=True)
print(x.grad)
x.grad = None
(b.sum() + c.sum()).backward()
print(x.grad)
'''

PROGRAMS['view_inplace_errors_multi_output_and_no_grad_views'] = PRE + r'''
x = torch.arange(6., requires_grad=True)
y = x * 1
parts = y.split(2)
E(lambda: parts[0].mul_(2))
ub = y.unbind()
E(lambda: ub[1].add_(1))
ch = y.chunk(3)
E(lambda: ch[2].zero_())
with torch.no_grad():
    nv = y[:2]
E(lambda: nv.mul_(2))
print(nv.requires_grad, nv._is_view())
det = y.detach()[:2]
det.mul_(2)
print(y)
vw = y.view(2, 3)
vw.mul_(2)
print(y.grad_fn.name(), vw.grad_fn.name())
ui = y.unsqueeze(0)
ui.unsqueeze_(0)
print(ui.shape, ui.grad_fn.name())
'''

PROGRAMS['leaf_inplace_error_messages_variants'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
p = torch.nn.Parameter(torch.ones(2))
for t in (x, p, x[0:1], p.view(2), x.view(1, 2)[0]):
    E(lambda: t.add_(1))
    E(lambda: t.copy_(torch.zeros_like(t)))
    E(lambda: torch.add(t, 1, out=t))
    E(lambda: torch.exp(t, out=t))
E(lambda: torch.exp(torch.ones(2), out=x))
E(lambda: torch.mul(x, 2, out=torch.empty(2)))
r = torch.empty(2)
E(lambda: torch.mul(x.detach(), 2, out=r))
print(r)
'''

# ---- the rest: printing, grad layouts, backward mistakes, retain_graph / create_graph

PROGRAMS['pr_big_grads_half_bf16_summarized'] = PRE + r'''
for dt in (torch.float16, torch.bfloat16, torch.float64):
    x = torch.linspace(-3, 3, 1200, dtype=dt).reshape(30, 40).requires_grad_()
    y = (x.sin() * x).sum(1)
    print(y)
    y.backward(torch.linspace(0, 1, 30, dtype=dt))
    print(x.grad)
    print(x.grad[::7, ::13])
'''

PROGRAMS['pr_complex_grads_summarized'] = PRE + r'''
z = torch.complex(torch.linspace(-1, 1, 1100), torch.linspace(2, -2, 1100)).requires_grad_()
w = (z * z.conj() + z.exp()).reshape(11, 100)
print(w)
w.abs().sum().backward()
print(z.grad)
print(z.grad.reshape(11, 100)[:, :3])
'''

PROGRAMS['grad_layout_transposed_and_expanded_leaves'] = PRE + r'''
a = torch.arange(6.).reshape(2, 3).t().requires_grad_()
print(a.is_contiguous(), a.stride())
(a * 2).sum().backward()
print(a.grad, a.grad.stride())
b = torch.arange(3.).expand(4, 3)
b.requires_grad_()
print(b.stride(), b.is_leaf)
(b * b).sum().backward()
print(b.grad, b.grad.stride())
c = torch.arange(24.).reshape(2, 3, 4).permute(2, 0, 1).requires_grad_()
(c.exp() * 0 + c).sum().backward()
print(c.grad.stride(), c.grad.shape)
d = torch.arange(8.).reshape(2, 4)[:, ::2].requires_grad_()
print(d.stride(), d.is_leaf)
(d ** 2).sum().backward()
print(d.grad, d.grad.stride())
'''

PROGRAMS['backward_noncontiguous_gradient_arg'] = PRE + r'''
x = torch.ones(3, 2, requires_grad=True)
y = x * 3
g = torch.arange(6.).reshape(2, 3).t()
y.backward(g)
print(x.grad, x.grad.stride(), x.grad.is_contiguous())
x2 = torch.ones(3, 2, requires_grad=True)
y2 = x2.clone()
y2.backward(g)
print(x2.grad.stride(), x2.grad is g, x2.grad.data_ptr() == g.data_ptr())
x3 = torch.ones(3, 2, requires_grad=True)
x3.backward(g)
print(x3.grad.stride(), x3.grad.data_ptr() == g.data_ptr())
x4 = torch.ones(3, requires_grad=True)
x4.backward(torch.tensor(2.).expand(3))
print(x4.grad, x4.grad.stride())
'''

PROGRAMS['autograd_grad_on_unreached_and_nonrequiring'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.])
z = x * 2
E(lambda: torch.autograd.grad(y.sum(), x))
E(lambda: torch.autograd.grad(z.sum(), y))
E(lambda: torch.autograd.grad(z.sum(), [x, y]))
E(lambda: torch.autograd.grad(z.sum(), x.detach()))
E(lambda: torch.autograd.grad(z.sum(), z[0]))
E(lambda: torch.autograd.grad(z, x))
E(lambda: torch.autograd.grad([z.sum(), y.sum()], x))
E(lambda: torch.autograd.grad(z.sum(), []))
E(lambda: torch.autograd.grad([], x))
E(lambda: torch.autograd.grad(z.sum(), (x, x)))
E(lambda: torch.autograd.grad((z * z).sum(), (x, x)))
z = x * 2
print(torch.autograd.grad((z * z).sum(), (x, x)))
E(lambda: torch.autograd.grad(z.sum(), 3))
E(lambda: torch.autograd.grad(3, x))
'''

PROGRAMS['retain_graph_create_graph_grid'] = PRE + r'''
def run(rg, cg):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = (x ** 3).sum()
    g, = torch.autograd.grad(y, x, retain_graph=rg, create_graph=cg)
    out = [g.requires_grad, g.grad_fn.name() if g.grad_fn else None]
    try:
        g2, = torch.autograd.grad(y, x)
        out.append(g2)
    except RuntimeError as e:
        out.append('second: ' + str(e)[:60])
    if cg:
        out.append(torch.autograd.grad(g.sum(), x))
    return out
for rg in (None, False, True):
    for cg in (False, True):
        print(rg, cg, run(rg, cg))
'''

PROGRAMS['variable_and_retain_grad_misuse'] = PRE + r'''
from torch.autograd import Variable
v = Variable(torch.tensor([1., 2.]), requires_grad=True)
print(v, type(v).__name__, v.is_leaf, isinstance(v, torch.Tensor))
w = Variable(torch.tensor([3, 4]))
print(w, w.requires_grad)
E(lambda: Variable(torch.tensor([3, 4]), requires_grad=True))
E(lambda: Variable([1., 2.]))
E(lambda: Variable(torch.tensor([1.]), volatile=True))
t = torch.tensor([1., 2.])
E(lambda: t.retain_grad())
E(lambda: t.register_hook(lambda g: g))
v.retain_grad()
print(v.retains_grad)
(v * 2).sum().backward()
print(v.grad)
y = v * 3
with torch.no_grad():
    E(lambda: y.retain_grad())
print(y.retains_grad)
'''

PROGRAMS['grad_fn_reprs_of_common_ops_float64'] = PRE + r'''
x = torch.tensor([[1., -2.], [3., 0.5]], dtype=torch.float64, requires_grad=True)
ops = [x + 1, 1 + x, x - 1, 1 - x, x * 2, 2 * x, x / 2, 2 / x, x ** 2, 2 ** x, -x, abs(x), x @ x, x.T, x.mT,
       x.sum(), x.sum(0), x.mean(), x.max(), x.min(0).values, x.exp(), x.log(), x.sqrt(), x.relu(), x.sigmoid(),
       x.tanh(), x.reshape(4), x.view(-1), x.flatten(), x.squeeze(), x.unsqueeze(0), x[0], x[:, 1], x[x > 0],
       x[[0, 1]], x.clone(), x.contiguous(), x.t().contiguous(), x.float(), x.to(torch.float16),
       x.expand(2, 2, 2), x.repeat(2, 1), torch.cat([x, x]), torch.stack([x, x]), x.norm(), x.std(), x.var(),
       x.cumsum(0), x.softmax(0), x.log_softmax(1), x.clamp(0, 1), x.pow(3), x.abs(), x.sign(), x.floor(), x.ceil()]
for o in ops:
    print(o.grad_fn.name() if o.grad_fn else None, o.dtype, o.requires_grad, o is x)
'''

PROGRAMS['grad_twice_accumulates_and_create_graph_leaf'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x ** 2).sum()
y.backward(create_graph=True)
print(x.grad, x.grad.requires_grad, x.grad.grad_fn)
g1 = x.grad
y2 = (x ** 3).sum()
y2.backward(create_graph=True)
print(x.grad, x.grad is g1, x.grad.grad_fn)
y3 = (x * 5).sum()
y3.backward()
print(x.grad, x.grad.grad_fn, x.grad is g1)
x.grad.sum().backward()
print(x.grad)
'''

PROGRAMS['backward_through_freed_variants'] = PRE + r'''
x = torch.tensor([0.5, 1.5], requires_grad=True)
ops = {
    'exp': lambda t: t.exp(), 'sin': lambda t: t.sin(), 'relu': lambda t: t.relu(), 'sum': lambda t: t.sum() * 1,
    'mul_const': lambda t: t * 3, 'add': lambda t: t + 1, 'view': lambda t: t.view(2, 1), 'pow': lambda t: t ** 2,
    'matmul': lambda t: t @ t, 'softmax': lambda t: t.softmax(0), 'clone': lambda t: t.clone(), 'neg': lambda t: -t,
    'sigmoid': lambda t: t.sigmoid(), 'div_t': lambda t: t / t.detach(), 'index': lambda t: t[torch.tensor([1, 0])],
    'max': lambda t: t.max(), 'mean': lambda t: t.mean(), 'where': lambda t: torch.where(t > 1, t, t * 2),
}
for name, f in ops.items():
    y = f(x).sum()
    y.backward()
    try:
        y.backward()
        print(name, 'second backward ok', x.grad)
    except RuntimeError as e:
        print(name, 'error', str(e)[:40])
    x.grad = None
'''

PROGRAMS['nonscalar_backward_mistakes'] = PRE + r'''
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = x * 2
E(lambda: y.backward())
E(lambda: y.backward(torch.ones(2)))
E(lambda: y.backward(torch.ones(4)))
E(lambda: y.backward(torch.ones(2, 2, 1)))
E(lambda: y.backward(torch.ones(1, 2)))
E(lambda: torch.autograd.grad(y, x))
E(lambda: torch.autograd.grad(y, x, torch.ones(2)))
E(lambda: torch.autograd.grad(y, x, torch.ones(1, 1)))
print(torch.autograd.grad(y, x, torch.ones(2, 2), retain_graph=True))
e = torch.empty(0, requires_grad=True)
E(lambda: (e * 2).backward())
print(e.grad)
s = torch.tensor([3.], requires_grad=True)
(s * 2).backward()
print(s.grad)
t = torch.ones(1, 1, 1, requires_grad=True)
(t * 2).backward()
print(t.grad)
'''

PROGRAMS['int_float_mix_grad_dtypes'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
i = torch.tensor([3, 4])
h = torch.tensor([0.5, 0.25], dtype=torch.float16, requires_grad=True)
d = torch.tensor([2., 3.], dtype=torch.float64, requires_grad=True)
for r in (x * i, x / i, i / x, x ** i, i ** x, x * h, h * d, x + d, x.double() * d, h.float() + x, torch.where(i > 3, x, h)):
    print(r.dtype, r.grad_fn.name(), [n.name() if n else None for n, _ in r.grad_fn.next_functions])
    r.sum().backward()
print(x.grad, h.grad, d.grad)
print(x.grad.dtype, h.grad.dtype, d.grad.dtype)
'''

PROGRAMS['backward_tensors_not_requiring_grad_list'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
a = x * 2
b = torch.tensor([3., 4.])
E(lambda: torch.autograd.backward([a.sum(), b.sum()]))
print(x.grad)
E(lambda: torch.autograd.backward([b.sum(), a.sum()]))
E(lambda: torch.autograd.backward([b.sum()]))
E(lambda: torch.autograd.grad([a.sum(), b.sum()], x))
E(lambda: torch.autograd.grad([b.sum(), a.sum()], x, allow_unused=True))
c = x.detach()
E(lambda: c.sum().backward())
E(lambda: torch.autograd.backward(x))
print(x.grad)
E(lambda: torch.autograd.backward(x, torch.ones(2)))
print(x.grad)
E(lambda: torch.autograd.backward(x.sum(), torch.tensor(2., requires_grad=True)))
print(x.grad)
'''

PROGRAMS['grad_outputs_dtype_device_mismatch'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
for go in (torch.ones(2, dtype=torch.float64), torch.ones(2, dtype=torch.float16), torch.ones(2, dtype=torch.int64),
           torch.ones(2, dtype=torch.bool), torch.ones(2, dtype=torch.complex64), torch.ones(2, dtype=torch.bfloat16)):
    E(lambda: print(torch.autograd.grad(y, x, go, retain_graph=True)))
    E(lambda: print(torch.autograd.grad(y, x, go.expand(2) if go.dim() else go, retain_graph=True, create_graph=True)[0].dtype))
d = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
yd = d * 2
E(lambda: print(torch.autograd.grad(yd, d, torch.ones(2), retain_graph=True)))
yd.backward(torch.ones(2, dtype=torch.float16))
print(d.grad, d.grad.dtype)
'''

PROGRAMS['grad_of_nonleaf_warning_variants'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
W(lambda: print(y.grad))
W(lambda: print(y[0].grad))
W(lambda: print(x.view(2).grad))
W(lambda: print(x.detach().grad))
W(lambda: print(x.clone().grad is None))
y.retain_grad()
W(lambda: print(y.grad))
y.sum().backward()
W(lambda: print(y.grad))
z = torch.tensor([1., 2.])
W(lambda: print((z * 2).grad))
with torch.no_grad():
    W(lambda: print((x * 2).grad))
W(lambda: setattr(y, 'grad', torch.zeros(2)))
print(y.grad)
W(lambda: setattr(x * 3, 'grad', torch.zeros(2)))
'''

PROGRAMS['grad_of_intermediate_via_hook_dict_loop'] = PRE + r'''
torch.manual_seed(1)
net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
with torch.no_grad():
    for p in net.parameters():
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape))
x = torch.tensor([[1., -1., 0.5], [2., 0., -3.]])
acts = {}
grads = {}
h = x
for i, layer in enumerate(net):
    h = layer(h)
    acts[i] = h
    h.register_hook(lambda g, i=i: grads.__setitem__(i, g))
loss = h.pow(2).mean()
loss.backward()
for i in sorted(grads):
    print(i, acts[i].grad_fn.name(), grads[i])
for n, p in net.named_parameters():
    print(n, p.grad)
'''

PROGRAMS['saved_attrs_of_linear_and_losses'] = DUMP + r'''
torch.manual_seed(0)
lin = torch.nn.Linear(3, 2)
x = torch.tensor([[1., 2., 3.]])
out = lin(x)
dump(out.grad_fn)
out2 = lin(torch.tensor([1., 2., 3.]))
dump(out2.grad_fn)
out3 = lin(torch.ones(2, 2, 3))
dump(out3.grad_fn)
F = torch.nn.functional
loss = F.mse_loss(out, torch.zeros(1, 2))
dump(loss.grad_fn)
loss = F.cross_entropy(out, torch.tensor([1]), label_smoothing=0.1)
dump(loss.grad_fn)
loss = F.nll_loss(F.log_softmax(out, 1), torch.tensor([0]), ignore_index=1)
dump(loss.grad_fn)
'''

PROGRAMS['create_graph_retain_grad_and_hooks_see_graph'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x ** 3
y.retain_grad()
seen = []
y.register_hook(lambda g: seen.append((g.requires_grad, g.grad_fn.name() if g.grad_fn else None)))
x.register_hook(lambda g: seen.append(('x', g.requires_grad, g.grad_fn.name() if g.grad_fn else None)))
z = (y * y).sum()
z.backward(create_graph=True)
print(seen)
print(y.grad, y.grad.requires_grad)
print(x.grad, x.grad.grad_fn.name())
gx = x.grad
x.grad = None
gx.sum().backward()
print(x.grad, y.grad)
'''

PROGRAMS['grad_of_grad_second_and_third_order'] = PRE + r'''
x = torch.tensor(0.7, dtype=torch.float64, requires_grad=True)
f = x.sin() * x.exp()
g1, = torch.autograd.grad(f, x, create_graph=True)
g2, = torch.autograd.grad(g1, x, create_graph=True)
g3, = torch.autograd.grad(g2, x, create_graph=True)
print(f, g1, g2, g3, sep='\n')
print(g1.grad_fn.name(), g2.grad_fn.name(), g3.grad_fn.name())
g4, = torch.autograd.grad(g3, x)
print(g4, g4.requires_grad)
E(lambda: torch.autograd.grad(g4, x))
y = torch.tensor([1., 2.], requires_grad=True)
h = (y ** 2).sum()
gy, = torch.autograd.grad(h, y, create_graph=True)
print(gy, torch.autograd.grad(gy.sum(), y, create_graph=True, retain_graph=True))
gg, = torch.autograd.grad(gy.sum(), y, create_graph=True)
print(gg.requires_grad, gg.grad_fn)
E(lambda: torch.autograd.grad(gg.sum(), y))
E(lambda: torch.autograd.grad(gg.sum(), y, allow_unused=True))
'''

PROGRAMS['zero_grad_forms_and_grad_none_vs_zero'] = PRE + r'''
w = torch.tensor([1., -1.], requires_grad=True)
for i in range(3):
    loss = (w * (i + 1)).pow(2).sum()
    loss.backward()
    print(i, w.grad)
w.grad.zero_()
print(w.grad, w.grad._version)
w.grad.data.zero_()
w.grad = None
print(w.grad)
E(lambda: w.grad.zero_())
E(lambda: setattr(w, 'grad', torch.zeros(3)))
E(lambda: setattr(w, 'grad', torch.zeros(2, dtype=torch.float64)))
E(lambda: setattr(w, 'grad', torch.zeros(2, dtype=torch.int64)))
E(lambda: setattr(w, 'grad', [0., 0.]))
w.grad = torch.zeros(2)
(w * 3).sum().backward()
print(w.grad)
opt = torch.optim.SGD([w], lr=0.1)
opt.zero_grad()
print(w.grad)
(w * 3).sum().backward()
opt.step()
print(w, w.grad)
opt.zero_grad(set_to_none=False)
print(w.grad)
'''

PROGRAMS['retain_graph_partial_subgraphs'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
h = x.exp()
a = (h * 2).sum()
b = (h ** 2).sum()
a.backward(retain_graph=True)
print(x.grad)
b.backward()
print(x.grad)
E(lambda: a.backward())
c = h.sum()
E(lambda: c.backward())
h2 = x.sin()
p = h2.sum()
q = (h2 * 3).sum()
p.backward()
E(lambda: q.backward())
print(x.grad)
r = h2.cos().sum()
E(lambda: r.backward())
'''

PROGRAMS['backward_on_leaf_and_views_of_leaf'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
x.backward(torch.tensor([1., 1., 1.]))
print(x.grad)
x[0].backward()
print(x.grad)
x[1:].sum().backward()
print(x.grad)
x.view(3, 1).backward(torch.ones(3, 1) * 2)
print(x.grad)
x.sum().backward(torch.tensor(5.))
print(x.grad)
E(lambda: x.sum().backward(torch.tensor([5.])))
E(lambda: x.sum().backward(5.))
s = torch.tensor(2., requires_grad=True)
s.backward()
s.backward(torch.tensor(3.))
print(s.grad)
'''

PROGRAMS['set_grad_enabled_inside_backward_hooks_and_function'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
def hook(g):
    print('hook grad mode', torch.is_grad_enabled(), torch.is_inference_mode_enabled())
    return g
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        print('forward grad mode', torch.is_grad_enabled())
        return t * 2
    @staticmethod
    def backward(ctx, g):
        print('backward grad mode', torch.is_grad_enabled())
        return g * 2
y = F.apply(x)
y.register_hook(hook)
y.sum().backward()
y = F.apply(x)
y.register_hook(hook)
y.sum().backward(create_graph=True)
with torch.no_grad():
    y = F.apply(x)
print(y.requires_grad)
y = F.apply(x)
with torch.no_grad():
    E(lambda: y.sum().backward())
    s = y.sum()
s.backward() if s.requires_grad else print('s does not require grad')
print(x.grad)
'''

# fixed: PyTorch's mm path clamps at 0 (exact zeros) with its sums, MKL's products and VML's root
PROGRAMS['pairwise_distances_mm_path_and_grads'] = DUMP + r'''
pts = torch.linspace(-1, 1, 12).reshape(3, 4).requires_grad_()
d = torch.cdist(pts, pts, compute_mode='use_mm_for_euclid_dist')
print(d)
dump(d.grad_fn)
d.sum().backward()
print(pts.grad)
big = torch.linspace(-2, 2, 80).reshape(40, 2).sin().requires_grad_()
c = torch.tensor([[0., 0.], [1., 3.], [1., 1.]], requires_grad=True)
for a, b in ((big, c), (big, big), (big[None], c), (big, c[None]), (big.reshape(2, 20, 2), c), (big[None, None], c[None])):
    r = torch.cdist(a, b)
    g = torch.autograd.grad(r.sum(), (big, c), allow_unused=True)
    print(tuple(r.shape), r.sum(), (r == 0).sum(), r.flatten()[::9], g[0].sum(), g[1] if g[1] is not None else None)
'''

# fixed: Python's messages name torch.Size, torch.dtype and torch.device by their full C type names
PROGRAMS['mistake_calling_shape_dtype_device'] = PRE + r'''
x = torch.ones(2, 3, requires_grad=True)
y = (x * 2).sum(0)
E(lambda: x.shape())
E(lambda: y.shape(0))
E(lambda: x.dtype())
E(lambda: x.device())
E(lambda: x.device[0])
E(lambda: x.dtype + 1)
E(lambda: len(x.dtype))
E(lambda: x.shape.__setitem__(0, 5))
E(lambda: float(x.shape))
E(lambda: torch.zeros(2, dtype=x.shape))
E(lambda: torch.zeros(2, device=x.shape))
E(lambda: x.to(x.shape))
E(lambda: torch.tensor(x.dtype))
E(lambda: x[x.dtype])
E(lambda: x + x.shape)
E(lambda: x.shape * 1.5)
E(lambda: x.shape[1:] * 2)
print(type(x.shape).__name__, type(x.dtype).__name__, type(x.device).__name__, torch.Size.__name__)
print(type(x.shape), type(x.dtype), type(x.device))
print(x.shape, y.shape, x.size(), y.size(0), x.dtype, y.device)
'''

PROGRAMS['backward_inside_custom_function_backward'] = PRE + r'''
aux = torch.tensor([2.0], requires_grad=True)
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        with torch.enable_grad():
            loss = (aux * aux).sum()
        loss.backward()
        print('aux grad inside', aux.grad, torch.is_grad_enabled())
        return g * 2
x = torch.tensor([1., 3.], requires_grad=True)
F.apply(x).sum().backward()
print(x.grad, aux.grad)
y = F.apply(x)
g, = torch.autograd.grad(y.sum(), x)
print(g, aux.grad)
'''

# fixed: PyTorch's Parameter calls data.detach() on a list (AttributeError)
PROGRAMS['requires_grad_on_parameters_and_factories_of_every_dtype'] = PRE + r'''
P = lambda f: E(lambda: print(f()))
P(lambda: torch.nn.Parameter(torch.tensor([1, 2])))
P(lambda: torch.nn.Parameter(torch.tensor([1, 2]), requires_grad=False))
P(lambda: torch.nn.Parameter(torch.tensor([True])))
P(lambda: torch.nn.Parameter(torch.tensor([1.+1j])))
P(lambda: torch.nn.Parameter(torch.tensor(3.)))
P(lambda: torch.nn.Parameter())
P(lambda: torch.nn.Parameter([1., 2.]))
P(lambda: torch.nn.Parameter(torch.ones(2, requires_grad=True) * 2))
P(lambda: torch.nn.Parameter(torch.ones(2)).grad_fn)
P(lambda: torch.nn.Parameter(torch.ones(2)) * 2)
P(lambda: torch.nn.Parameter(torch.ones(2)).detach())
P(lambda: torch.nn.Parameter(torch.ones(2))[0])
P(lambda: torch.nn.Parameter(torch.ones(2)).data)
P(lambda: torch.nn.Parameter(torch.ones(2)).clone())
P(lambda: torch.nn.Parameter(torch.ones(2, dtype=torch.bfloat16)))
P(lambda: torch.nn.Parameter(torch.ones(0)))
P(lambda: torch.nn.Parameter(torch.ones(40, 40) * 0.5))
P(lambda: repr(torch.nn.Parameter(torch.ones(2), requires_grad=False)))
P(lambda: torch.nn.Parameter(torch.ones(2)).requires_grad_(False).requires_grad)
P(lambda: torch.tensor([1, 2]).float().requires_grad_().long())
P(lambda: torch.tensor([1, 2], dtype=torch.int8).requires_grad_(False))
P(lambda: torch.zeros(2, dtype=torch.int32, requires_grad=False).requires_grad)
P(lambda: torch.ones(2, dtype=torch.uint8).requires_grad_())
P(lambda: torch.empty(2, dtype=torch.int64, requires_grad=True))
P(lambda: torch.full((2,), 3, requires_grad=True))
P(lambda: torch.full((2,), 3., requires_grad=True))
P(lambda: torch.arange(3.0, requires_grad=True))
P(lambda: torch.linspace(0, 1, 3, requires_grad=True))
P(lambda: torch.randint(0, 3, (2,), requires_grad=True))
P(lambda: torch.zeros_like(torch.ones(2, dtype=torch.int64), requires_grad=True))
P(lambda: torch.eye(2, dtype=torch.int64, requires_grad=True))
P(lambda: torch.tensor(5, requires_grad=True))
P(lambda: torch.as_tensor([1., 2.], dtype=torch.float64).requires_grad_())
P(lambda: torch.from_numpy(__import__('numpy').arange(3)).requires_grad_())
'''

PROGRAMS['complex_conj_views_and_wirtinger_grads'] = PRE + r'''
P = lambda f: E(lambda: print(f()))
c = torch.tensor([1+2j, 3-1j], requires_grad=True)
k = c.conj()
P(lambda: (k.is_conj(), k._is_view(), k._base is c, k.grad_fn, k.requires_grad))
P(lambda: (k * 2).grad_fn.next_functions)
P(lambda: k.imag)
P(lambda: k.imag.grad_fn)
(k * k).abs().sum().backward()
P(lambda: (c.grad, c.grad.is_conj()))
d = torch.tensor([1+1j], requires_grad=True)
e = d.conj().resolve_conj()
P(lambda: e.grad_fn)
e2 = d.conj_physical()
P(lambda: e2.grad_fn)
P(lambda: torch.view_as_real(d.conj()))
P(lambda: d.real.mul_(2))
f = d * 1
f.real.mul_(2)
P(lambda: (f, f.grad_fn.name()))
f.imag.add_(1)
P(lambda: (f, f.grad_fn.name(), f._version))
f.abs().sum().backward()
P(lambda: d.grad)
P(lambda: torch.autograd.grad((d * d).real.sum(), d))
P(lambda: torch.autograd.grad((d * d).sum(), d))
P(lambda: torch.autograd.grad((d * d).sum(), d, torch.tensor(1j)))
P(lambda: torch.autograd.grad((d.abs() ** 2).sum(), d))
P(lambda: torch.autograd.grad(d.angle().sum(), d))
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
