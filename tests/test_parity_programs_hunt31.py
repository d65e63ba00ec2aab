"""Parity programs from a thirty-first hunt: the course notes' examples as a student changes them until they break.

The Chinese notes on torch.autograd (/work/shared/seeds: chapters 000, 001, 002 and 004) with their examples pushed:
dynamic graphs (``while y.norm() < 1000``, data-dependent branches, recursion, Python lists of tensors, graphs built
in functions and returned), vector-Jacobian products with other v's (rows of ``eye``, random and complex v, wrong
shapes, dtypes and devices passed as ``gradient``), ``backward()`` twice with and without ``retain_graph``, ``.grad``
accumulating then zeroed or set to None, ``.grad`` of non-leaves, detach / detach_ / data / no_grad, in-place
changes through ``.data`` and detached tensors (version counters and the saved-tensor errors), graphs walked through
``next_functions`` with their ``_saved_*`` attributes, print options, ``requires_grad_`` misuse,
``autograd.backward`` and ``autograd.grad`` with lists and every flag. Each program must print exactly what PyTorch
prints (hunt14's harness: ``parity.run_both`` with hunt13's ``E``/``W`` helpers, every warning also printed on
stdout). Fixed by this hunt (the ``meta_*`` programs, and ``vjp_gradient_wrong_device_and_kind``): gradients on the
meta device where the CPU is expected and back, refused as PyTorch's engine refuses them (a root's gradient, a
custom Function's, a hook's, ``.grad =``; a 0-dim one moved instead), meta type names in the saved-tensor and hook
messages, and meta gradients kept on the meta device through retain_grad, create_graph's accumulation, the layout
copy of ``.grad``, conjugate/negative views, unused outputs' zeros, CopySlices, and the formulas that build zeros
(max/prod/cumprod/index/gather/trace/as_strided/normal/piecewise-constant ops) or take a NumPy fast path (tanh,
group norm).
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE

# PRE plus walk(fn): the graph below a node, depth first, each node with its _saved_* attributes (sizes and types)
WALK = PRE + r'''
def walk(fn, depth=0):
    if fn is None:
        print('  ' * depth + 'None')
        return
    saved = []
    for a in sorted(a for a in dir(fn) if a.startswith('_saved_')):
        try:
            v = getattr(fn, a)
        except Exception as e:
            saved.append(f'{a}=<{type(e).__name__}>')
            continue
        if isinstance(v, torch.Tensor):
            saved.append(f'{a}=T{tuple(v.shape)}:{v.dtype}')
        else:
            saved.append(f'{a}={type(v).__name__}:{v}')
    print('  ' * depth + fn.name(), ' '.join(saved))
    for nxt, nr in fn.next_functions:
        walk(nxt, depth + 1)
'''

PROGRAMS: dict[str, str] = {}

# ---- dynamic graphs: loops and branches on tensor values, recursion, lists of tensors, graphs returned

PROGRAMS['dyn_while_norm_doubling'] = WALK + r'''
torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
y = x * 2
steps = 0
while y.data.norm() < 1000:
    y = y * 2
    steps += 1
print(steps, y)
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)
print(x.grad)
n = 0
fn = y.grad_fn
while fn is not None and fn.next_functions:
    n += 1
    fn = fn.next_functions[0][0]
print(n, fn, type(fn).__name__)
'''

PROGRAMS['dyn_while_norm_tensor_condition'] = PRE + r'''
x = torch.tensor([0.5, -0.25], requires_grad=True)
y = x
it = 0
while y.norm() < 100:
    y = y * 3 + 1
    it += 1
print(it, y, y.grad_fn)
c = y.norm() < 100
print(c, c.requires_grad, c.grad_fn, bool(c))
y.sum().backward()
print(x.grad)
E(lambda: bool(torch.tensor([1., 2.], requires_grad=True) > 0))
E(lambda: int(x))
E(lambda: float(x[0]))
print(float(x[0]), int(y[1]))
'''

PROGRAMS['dyn_branch_on_sum_sign'] = PRE + r'''
def f(x):
    if x.sum() > 0:
        return x * x
    else:
        return -x.exp()
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([-1., -2.], requires_grad=True)
for t in (a, b):
    out = f(t)
    print(out, out.grad_fn, out.grad_fn.next_functions)
    out.sum().backward()
    print(t.grad)
c = torch.tensor([1., -1.], requires_grad=True)
out = f(c)
print(out.grad_fn)
out.sum().backward()
print(c.grad)
'''

PROGRAMS['dyn_recursion_factorial_like'] = PRE + r'''
def power(x, n):
    if n == 0:
        return torch.ones_like(x)
    if n % 2 == 0:
        h = power(x, n // 2)
        return h * h
    return x * power(x, n - 1)
x = torch.tensor([1.5, -0.5, 2.0], requires_grad=True)
for n in (0, 1, 5, 8):
    y = power(x, n)
    print(n, y, y.grad_fn, y.requires_grad)
    if y.requires_grad:
        g, = torch.autograd.grad(y.sum(), x)
        print(g, n * x.detach() ** (n - 1))
y = power(x, 0)
E(lambda: y.sum().backward())
'''

PROGRAMS['dyn_list_of_tensors_append'] = PRE + r'''
x = torch.tensor(2., requires_grad=True)
hist = [x]
for i in range(4):
    hist.append(hist[-1] * hist[-1] - 1)
print(hist)
print([h.grad_fn.name() if h.grad_fn else None for h in hist])
total = sum(hist)
print(total, total.grad_fn, total.grad_fn.next_functions[0][0])
total.backward()
print(x.grad)
s = torch.stack(hist)
print(s, s.grad_fn)
E(lambda: torch.tensor(hist))
print(torch.tensor([h.item() for h in hist]))
'''

PROGRAMS['dyn_graph_returned_from_function'] = WALK + r'''
def make_loss(w, b):
    x = torch.ones(5)
    z = torch.matmul(x, w) + b
    return torch.nn.functional.binary_cross_entropy_with_logits(z, torch.zeros(3))
torch.manual_seed(1)
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
losses = [make_loss(w, b) for _ in range(3)]
print(losses)
walk(losses[0].grad_fn)
losses[0].backward()
g1 = w.grad.clone()
losses[1].backward()
print(torch.equal(w.grad, 2 * g1))
E(lambda: losses[0].backward())
losses[2].backward(retain_graph=True)
losses[2].backward()
print(torch.allclose(w.grad, 4 * g1), b.grad)
'''

PROGRAMS['dyn_loop_accumulate_inplace_sum'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
acc = torch.zeros(3)
for i in range(3):
    acc += x * i
    print(i, acc, acc.grad_fn, acc._version, acc.is_leaf)
acc.sum().backward()
print(x.grad)
acc2 = torch.zeros(3, requires_grad=True)
E(lambda: acc2.add_(x))
with torch.no_grad():
    acc2 += x
print(acc2, acc2.grad_fn, acc2._version)
'''

PROGRAMS['dyn_data_dependent_index_argmax'] = PRE + r'''
x = torch.tensor([[0.1, 0.9, 0.3], [0.7, 0.2, 0.5]], requires_grad=True)
i = x.argmax(dim=1)
print(i, i.requires_grad, i.grad_fn)
picked = x[torch.arange(2), i]
print(picked, picked.grad_fn)
picked.sum().backward()
print(x.grad)
m = x.max(dim=1)
print(m.values.grad_fn, m.indices.grad_fn, m.indices.requires_grad)
x.grad = None
m.values.sum().backward()
print(x.grad)
E(lambda: i.sum().backward())
'''

PROGRAMS['dyn_while_loop_on_item_counts_nodes'] = PRE + r'''
def count(fn):
    seen = []
    stack = [fn]
    while stack:
        f = stack.pop()
        if f is None or any(f is s for s in seen):
            continue
        seen.append(f)
        stack.extend(n for n, _ in f.next_functions)
    return len(seen), sorted({f.name() for f in seen})
x = torch.tensor(0.5, requires_grad=True)
y = x
while y.item() < 50:
    y = y * 1.7 + x
print(y, count(y.grad_fn))
y.backward()
print(x.grad)
'''

PROGRAMS['dyn_rnn_like_unrolled_varying_length'] = PRE + r'''
torch.manual_seed(2)
W = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
h0 = torch.zeros(3, dtype=torch.float64)
for length in (1, 3, 0):
    h = h0
    for t in range(length):
        h = torch.tanh(W @ h + 1)
    print(length, h, h.grad_fn, h.requires_grad)
    if h.requires_grad:
        h.sum().backward()
        print(W.grad)
        W.grad = None
    else:
        E(lambda: h.sum().backward())
'''

# ---- vector-Jacobian products with other v's

PROGRAMS['vjp_eye_rows_build_jacobian'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = torch.stack([x[0] * x[1], x[1] ** 2, x.sum(), x[2].sin()])
rows = []
for i in range(4):
    v = torch.eye(4)[i]
    g, = torch.autograd.grad(y, x, v, retain_graph=True)
    rows.append(g)
J = torch.stack(rows)
print(J)
print(torch.autograd.functional.jacobian(lambda t: torch.stack([t[0] * t[1], t[1] ** 2, t.sum(), t[2].sin()]), x))
E(lambda: torch.autograd.grad(y, x, torch.eye(4)[0:1]))
E(lambda: torch.autograd.grad(y, x, torch.eye(4)))
'''

PROGRAMS['vjp_eye45_other_v'] = PRE + r'''
inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
print(out.shape)
for v in (torch.ones_like(out), torch.arange(20.).reshape(5, 4), torch.eye(5, 4) * -1):
    inp.grad = None
    out.backward(v, retain_graph=True)
    print(inp.grad)
E(lambda: out.backward(torch.ones(4, 5), retain_graph=True))
E(lambda: out.backward(torch.ones(20), retain_graph=True))
E(lambda: out.backward(torch.ones(5, 4, dtype=torch.float64), retain_graph=True))
print(inp.grad.dtype)
E(lambda: out.backward(torch.ones(5, 1), retain_graph=True))
E(lambda: out.backward(1.0, retain_graph=True))
E(lambda: out.backward(torch.tensor(1.), retain_graph=True))
'''

PROGRAMS['vjp_random_v_matches_manual'] = PRE + r'''
torch.manual_seed(3)
x = torch.randn(4, dtype=torch.float64, requires_grad=True)
y = x.exp() * x
v = torch.randn(4, dtype=torch.float64)
y.backward(v)
manual = v * (x.exp() * (1 + x)).detach()
print(x.grad)
print(manual)
print(torch.equal(x.grad, manual), (x.grad - manual).abs().max())
'''

PROGRAMS['vjp_complex_v_on_real_output'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
E(lambda: y.backward(torch.tensor([1 + 1j, 2 - 1j]), retain_graph=True))
E(lambda: torch.autograd.grad(y, x, torch.tensor([1j, 1j])))
z = x.to(torch.complex64) * (1 + 2j)
print(z, z.grad_fn)
z.backward(torch.tensor([1 + 1j, 2 - 1j]))
print(x.grad)
E(lambda: (x * (1 + 2j)).backward(torch.ones(2), retain_graph=True))
w = x * (1 + 2j)
print(w.dtype, w.grad_fn)
E(lambda: w.sum().backward())
'''

PROGRAMS['vjp_gradient_wrong_device_and_kind'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
E(lambda: y.backward(torch.ones(3, device='meta'), retain_graph=True))
E(lambda: y.backward([1., 1., 1.], retain_graph=True))
E(lambda: y.backward(torch.ones(3, dtype=torch.int64), retain_graph=True))
E(lambda: y.backward(torch.ones(3, dtype=torch.bool), retain_graph=True))
E(lambda: y.backward(torch.ones(3, dtype=torch.float16), retain_graph=True))
print(x.grad)
E(lambda: y.backward(torch.ones(3, requires_grad=True), retain_graph=True))
print(x.grad)
z = x * 3
E(lambda: torch.autograd.backward([y, z], [torch.ones(3), torch.ones(3, device='meta')], retain_graph=True))
E(lambda: torch.autograd.grad([y, z], x, [torch.ones(3), torch.ones(3, device='meta')], retain_graph=True))
E(lambda: torch.autograd.grad(y, x, torch.ones(2, 3, device='meta'), is_grads_batched=True, retain_graph=True))
m = torch.ones(3, device='meta', requires_grad=True)
E(lambda: (m * 2).backward(torch.ones(3)))
E(lambda: x.backward(torch.ones(3, device='meta')))
print(x.grad)
'''

PROGRAMS['vjp_scalar_output_with_gradient_shapes'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
s = (x ** 2).mean()
for g in (torch.tensor(2.), torch.tensor([2.]), torch.ones(1, 1), torch.tensor(0.5, dtype=torch.float64)):
    x.grad = None
    E(lambda: s.backward(g, retain_graph=True))
    print(x.grad)
E(lambda: s.backward(torch.ones(3), retain_graph=True))
E(lambda: s.backward(torch.ones(0), retain_graph=True))
'''

PROGRAMS['vjp_nonscalar_without_gradient'] = PRE + r'''
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = x @ x
E(lambda: y.backward())
E(lambda: torch.autograd.grad(y, x))
E(lambda: torch.autograd.backward([y]))
y1 = y[0, 0]
print(y1.shape, y1.grad_fn)
y1.backward(retain_graph=True)
print(x.grad)
y.flatten()[[0, 3]].sum().backward()
print(x.grad)
z = x.sum(dim=0, keepdim=True)[:, :1]
print(z.shape)
E(lambda: z.backward())
'''

PROGRAMS['vjp_mean_x_squared_other_dims'] = PRE + r'''
x = torch.arange(6., requires_grad=True).reshape(2, 3)
print(x.is_leaf, x.grad_fn)
x = torch.arange(6., requires_grad=True)
y = x.reshape(2, 3)
for dim in (None, 0, 1, (0, 1)):
    x.grad = None
    out = torch.mean(y * y) if dim is None else torch.mean(y * y, dim=dim)
    print(dim, out, out.grad_fn)
    out.backward(torch.ones_like(out))
    print(x.grad)
'''

# ---- backward twice, retain_graph, accumulation and zeroing

PROGRAMS['bw_twice_error_names_node'] = PRE + r'''
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
c = a * b
d = torch.sum(c)
d.backward()
E(lambda: d.backward())
e = (a + b).sum()
e.backward()
e.backward()
print(a.grad, b.grad)
f = (a.sigmoid() * 2).sum()
f.backward()
E(lambda: f.backward())
g = a.exp()
g.sum().backward()
E(lambda: g.sum().backward())
E(lambda: g.grad_fn._saved_result)
'''

PROGRAMS['bw_retain_then_forget'] = PRE + r'''
x = torch.tensor([0.5, 1.5], requires_grad=True)
y = (x.log() * x).sum()
y.backward(retain_graph=True)
print(x.grad)
y.backward(retain_graph=True)
print(x.grad)
y.backward()
print(x.grad)
E(lambda: y.backward())
E(lambda: y.backward(retain_graph=True))
E(lambda: torch.autograd.grad(y, x))
print(y.grad_fn, y.grad_fn.next_functions)
'''

PROGRAMS['bw_shared_subgraph_two_losses'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
h = x.exp()
l1 = h.sum()
l2 = (h * h).sum()
l1.backward()
E(lambda: l2.backward())
x.grad = None
h = x.exp()
l1 = h.sum()
l2 = (h * 2).sum()
l1.backward()
E(lambda: l2.backward())
print(x.grad)
h = x + 1
l1 = h.sum()
l2 = (h * 2).sum()
l1.backward()
l2.backward()
print(x.grad)
h = x.tanh()
(h.sum() + h.prod()).backward()
print(x.grad)
'''

PROGRAMS['grad_accumulates_then_zero_forms'] = PRE + r'''
inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
for i in range(3):
    out.backward(torch.ones_like(out), retain_graph=True)
    print(i, inp.grad[0])
g = inp.grad
inp.grad.zero_()
print(g is inp.grad, g.sum(), inp.grad._version)
inp.grad = None
out.backward(torch.ones_like(out), retain_graph=True)
print(g is inp.grad, g.sum())
inp.grad.data.mul_(0.5)
print(inp.grad[0])
inp.grad.fill_(0)
out.backward(torch.ones_like(out))
print(inp.grad[0])
'''

PROGRAMS['model_zero_grad_set_to_none_variants'] = PRE + r'''
torch.manual_seed(4)
m = torch.nn.Linear(3, 2)
x = torch.randn(5, 3)
m(x).sum().backward()
print(m.weight.grad)
m.zero_grad()
print(m.weight.grad, m.bias.grad)
m(x).sum().backward()
m.zero_grad(set_to_none=False)
print(m.weight.grad, m.bias.grad)
m(x).sum().backward()
m(x).sum().backward()
print(m.bias.grad)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
opt.zero_grad()
print(m.bias.grad)
E(lambda: opt.step())
print(m.bias)
'''

# ---- .grad of non-leaves, detach / detach_ / data / no_grad

PROGRAMS['nonleaf_grad_warning_each_kind'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
z = y.sum()
z.backward()
print(x.grad, y.grad)
print(z.grad)
v = x[0]
print(v.grad)
d = x.detach()
print(d.grad, d.is_leaf)
y2 = x * 3
y2.retain_grad()
y2.sum().backward()
print(y2.grad, y2.retains_grad)
c = torch.tensor([1., 2.]) * 2
print(c.grad, c.is_leaf)
'''

PROGRAMS['nonleaf_grad_set_and_del'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.grad = torch.ones(2)
print(y.grad)
(y * y).sum().backward()
print(y.grad, x.grad)
del y.grad
print(y.grad)
E(lambda: setattr(y, 'grad', torch.ones(3)))
E(lambda: setattr(y, 'grad', torch.ones(2, dtype=torch.int64)))
E(lambda: setattr(y, 'grad', [1., 2.]))
print(y.grad)
'''

PROGRAMS['detach_vs_data_vs_no_grad_table'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
a = y.detach()
b = y.data
with torch.no_grad():
    c = y * 1
d = y.detach().requires_grad_()
e = y.clone().detach_()
for name, t in (('detach', a), ('data', b), ('no_grad', c), ('detach_rg', d), ('detach_', e)):
    print(name, t.requires_grad, t.grad_fn, t.is_leaf, t._version, t._base is None)
a[0] = 100.
print(y, b, y._version, b._version)
E(lambda: y.sum().backward())
print(x.grad)
'''

PROGRAMS['detach_inplace_on_nonleaf_and_view'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
z = y.detach_()
print(z is y, y.requires_grad, y.grad_fn, y.is_leaf)
w = x * 3
v = w[:2]
E(lambda: v.detach_())
E(lambda: x.detach_())
u = x.view(3)
E(lambda: u.detach_())
print(x.requires_grad, x.grad_fn, w.grad_fn, v.grad_fn)
'''

PROGRAMS['data_inplace_silently_wrong_grad'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.exp()
print(y._version)
y.data.mul_(0)
print(y, y._version, y.data._version)
y.sum().backward()
print(x.grad)
x.grad = None
y = x.exp()
y.detach().mul_(0)
print(y._version)
E(lambda: y.sum().backward())
'''

PROGRAMS['detached_inplace_saved_tensor_error'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x ** 2
z = y.sin()
y.detach().add_(1)
E(lambda: z.sum().backward())
y2 = x ** 2
z2 = y2 * y2
y2.detach().zero_()
y2.detach()[0] = 5
E(lambda: z2.sum().backward())
x2 = torch.tensor([1., 2.], requires_grad=True)
w = x2 * 1
p = w.pow(3)
with torch.no_grad():
    w += 1
E(lambda: p.sum().backward())
print(w._version, w.grad_fn)
'''

PROGRAMS['leaf_data_assign_training_style'] = PRE + r'''
w = torch.tensor([1., -1.], requires_grad=True)
for step in range(3):
    loss = ((w - 3) ** 2).sum()
    loss.backward()
    w.data -= 0.25 * w.grad
    print(step, loss, w, w._version, w.grad)
    w.grad.zero_()
E(lambda: w.sub_(1))
w.data = torch.tensor([0., 0., 0.])
print(w, w.requires_grad, w.grad)
E(lambda: w.backward(torch.ones(2)))
E(lambda: setattr(w, 'data', torch.tensor([1, 2])))
print(w, w.dtype, w.requires_grad)
'''

PROGRAMS['no_grad_results_and_requires_grad_flags'] = PRE + r'''
x = torch.ones(5)
w = torch.tensor([[0.1] * 3] * 5, requires_grad=True)
b = torch.zeros(3, requires_grad=True)
z = torch.matmul(x, w) + b
print(z.requires_grad, z.grad_fn)
with torch.no_grad():
    z = torch.matmul(x, w) + b
    print(z.requires_grad, z.grad_fn, w.requires_grad)
    z2 = z.requires_grad_()
    print(z2.requires_grad, z2.is_leaf)
    with torch.enable_grad():
        z3 = w * 2
print(z.requires_grad, z.is_leaf, z3.grad_fn)
q = z * 2
print(q.grad_fn, q.grad_fn.next_functions)
q.sum().backward()
print(z.grad, w.grad)
'''

PROGRAMS['set_grad_enabled_notes_example'] = PRE + r'''
torch.manual_seed(5)
x = torch.randn(5, 5, requires_grad=True)
y = torch.randn(5, 5)
torch.set_grad_enabled(False)
z = x + y
print(z.requires_grad, torch.is_grad_enabled())
E(lambda: z.backward())
E(lambda: z.sum().backward())
torch.set_grad_enabled(True)
z = x + y
E(lambda: z.backward())
z.sum().backward()
print(x.grad[0])
with torch.no_grad():
    z = x + y
E(lambda: z.backward())
print(torch.set_grad_enabled(False), torch.is_grad_enabled())
torch.set_grad_enabled(True)
'''

# ---- graphs walked through next_functions with their saved attributes

PROGRAMS['walk_notes_one_layer_graph'] = WALK + r'''
torch.manual_seed(6)
x = torch.ones(5)
y = torch.zeros(3)
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
walk(loss.grad_fn)
loss.backward(retain_graph=True)
walk(loss.grad_fn)
loss.backward()
E(lambda: loss.grad_fn._saved_self)
print(loss.grad_fn._saved_reduction, loss.grad_fn._saved_pos_weight, loss.grad_fn._saved_weight)
'''

PROGRAMS['walk_mean_x_squared_and_a_plus_b'] = WALK + r'''
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
out = torch.mean(x * x)
walk(out.grad_fn)
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
d = torch.sum(a + b)
walk(d.grad_fn)
e = (a * b).sum(0, keepdim=True).mean()
walk(e.grad_fn)
f = (a / b - a ** 2 + b.pow(a)).prod()
walk(f.grad_fn)
'''

PROGRAMS['walk_after_inplace_ops'] = WALK + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
y.add_(1)
y.mul_(x)
y[0] = 0
y.relu_()
walk(y.grad_fn)
print(y._version)
y.sum().backward()
print(x.grad)
z = x.clone()
z.exp_()
z.sigmoid_()
walk(z.grad_fn)
'''

PROGRAMS['walk_views_and_shapes'] = WALK + r'''
x = torch.arange(12., requires_grad=True)
y = x.view(3, 4).t()[1:, ::2].unsqueeze(0).expand(2, 3, 2).reshape(12)
walk(y.grad_fn)
y.sum().backward()
print(x.grad)
z = torch.cat([x[:3], x[5:7].flip(0)]).repeat(2)
walk(z.grad_fn)
'''

PROGRAMS['walk_shared_and_multi_output'] = WALK + r'''
x = torch.tensor([[3., 1.], [2., 4.]], requires_grad=True)
vals, idx = x.sort(dim=1)
a, b = x.unbind(0)
mx = x.max(dim=0)
s = vals.sum() + a.dot(b) + mx.values.sum() + x.split(1)[1].sum()
walk(s.grad_fn)
s.backward()
print(x.grad)
print(vals.grad_fn is idx.grad_fn, idx.grad_fn, vals.output_nr, mx.indices.output_nr, a.output_nr, b.output_nr)
'''

PROGRAMS['walk_linear_mse_model'] = WALK + r'''
torch.manual_seed(7)
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
x = torch.randn(6, 3)
y = torch.randn(6, 1)
loss = torch.nn.functional.mse_loss(model(x), y)
walk(loss.grad_fn)
loss.backward()
for n, p in model.named_parameters():
    print(n, p.grad.shape, p.grad.abs().sum().item() > 0)
'''

PROGRAMS['walk_saved_float64_and_int_scalars'] = WALK + r'''
x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
y = (x * 3).pow(2.5).clamp(min=1, max=50).div(7).add(x, alpha=2).sub(1.5)
walk(y.grad_fn)
z = x.to(torch.float32).float().double().half()
walk(z.grad_fn)
'''

# ---- printing at every stage, with other print options

PROGRAMS['print_stages_precision_sci'] = PRE + r'''
torch.manual_seed(8)
w = torch.randn(3, 2, requires_grad=True)
torch.set_printoptions(precision=2)
print(w)
y = (w * 1e-5).exp() - 1
print(y)
torch.set_printoptions(sci_mode=True)
print(y)
y.sum().backward()
print(w.grad)
torch.set_printoptions(precision=6, sci_mode=False)
print(w.grad, y.grad_fn)
torch.set_printoptions(profile='default')
print(y)
'''

PROGRAMS['print_threshold_edgeitems_with_grad_fn'] = PRE + r'''
x = torch.arange(30., requires_grad=True)
y = x.reshape(5, 6) * 0.5
torch.set_printoptions(threshold=5, edgeitems=1)
print(y)
print(x)
print(y[0])
torch.set_printoptions(edgeitems=2, linewidth=30)
print(y.t())
y.sum().backward()
print(x.grad)
torch.set_printoptions(profile='full')
print(y[:2])
torch.set_printoptions(profile='short')
print(y)
torch.set_printoptions(profile='default')
'''

PROGRAMS['print_grads_of_dtypes_stages'] = PRE + r'''
for dt in (torch.float16, torch.bfloat16, torch.float64, torch.complex64):
    x = torch.tensor([1.5, -2.25, 1e-3], dtype=dt, requires_grad=True)
    y = x * x / 3
    print(y)
    y.sum().backward() if not dt.is_complex else y.abs().sum().backward()
    print(x.grad)
    print(repr(x.grad[0]), x.grad.dtype, str(y.grad_fn.name()))
'''

PROGRAMS['print_nonleaf_and_requires_grad_zero_dim'] = PRE + r'''
x = torch.tensor(3., requires_grad=True)
print(x, repr(x), str(x))
y = x ** 2
print(y, f"{y}", y.item(), y.tolist())
print(f"{y:.3f}", format(x, '.1e'))
E(lambda: print(f"{torch.tensor([1.,2.], requires_grad=True):.2f}"))
print([x, y])
print((x, y.detach()))
print({'y': y})
'''

# ---- requires_grad_ misuse

PROGRAMS['requires_grad_non_float_dtypes'] = PRE + r'''
for dt in (torch.int32, torch.int64, torch.bool, torch.uint8, torch.int8):
    t = torch.zeros(2, dtype=dt)
    E(lambda: t.requires_grad_())
    E(lambda: torch.zeros(2, dtype=dt, requires_grad=True))
    t.requires_grad_(False)
    print(dt, t.requires_grad)
E(lambda: torch.tensor([1, 2], requires_grad=True))
E(lambda: torch.arange(3, requires_grad=True))
print(torch.arange(3., requires_grad=True))
E(lambda: setattr(torch.ones(2, dtype=torch.long), 'requires_grad', True))
'''

PROGRAMS['requires_grad_on_nonleaf'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.requires_grad_()
print(y.requires_grad)
E(lambda: y.requires_grad_(False))
E(lambda: setattr(y, 'requires_grad', False))
y.requires_grad_(True)
z = torch.tensor([1., 2.]) * 2
z.requires_grad_()
print(z.is_leaf, z.grad_fn)
(z * y).sum().backward()
print(z.grad, x.grad)
E(lambda: y.requires_grad_('yes'))
E(lambda: x.requires_grad_(1))
'''

PROGRAMS['requires_grad_of_views_and_after_ops'] = PRE + r'''
x = torch.zeros(4)
v = x[:2]
x.requires_grad_()
print(v.requires_grad, v.grad_fn, x.requires_grad)
v2 = x[:2]
print(v2.requires_grad, v2.grad_fn)
E(lambda: v.requires_grad_())
w = torch.zeros(3)
wv = w.view(3)
wv.requires_grad_()
print(w.requires_grad, wv.requires_grad, wv.is_leaf, wv._base is w)
(wv * 2).sum().backward()
print(wv.grad, w.grad)
'''

# ---- autograd.backward and autograd.grad with lists and every flag

PROGRAMS['autograd_backward_lists_grad_tensors'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y1 = x * x
y2 = x.sum()
y3 = x.exp()
torch.autograd.backward([y1, y2, y3], [torch.tensor([1., 0.]), None, torch.ones(2)], retain_graph=True)
print(x.grad)
x.grad = None
torch.autograd.backward([y2, y2], retain_graph=True)
print(x.grad)
x.grad = None
torch.autograd.backward((y1, y3), (torch.ones(2), torch.ones(2)), retain_graph=True)
print(x.grad)
E(lambda: torch.autograd.backward([y1, y2], [torch.ones(2)], retain_graph=True))
E(lambda: torch.autograd.backward([y1], [torch.ones(2), torch.ones(2)], retain_graph=True))
E(lambda: torch.autograd.backward([y1, y3], retain_graph=True))
E(lambda: torch.autograd.backward([], retain_graph=True))
E(lambda: torch.autograd.backward(y1, torch.ones(2), inputs=[]))
'''

PROGRAMS['autograd_backward_inputs_subset'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
y = (a * b).sum()
torch.autograd.backward(y, inputs=[a], retain_graph=True)
print(a.grad, b.grad)
y.backward(inputs=b, retain_graph=True)
print(a.grad, b.grad)
h = a * 2
z = (h * b).sum()
z.backward(inputs=[h], retain_graph=True)
print(h.grad, a.grad)
E(lambda: z.backward(inputs=[torch.ones(2)], retain_graph=True))
E(lambda: z.backward(inputs=[torch.ones(2, requires_grad=True)], retain_graph=True))
E(lambda: z.backward(inputs=(a, 1)))
'''

PROGRAMS['autograd_grad_outputs_lists'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
w = torch.tensor(2., requires_grad=True)
o1 = (x * w).sum()
o2 = x.pow(2)
g = torch.autograd.grad([o1, o2], [x, w], [None, torch.ones(3)], retain_graph=True)
print(g)
g = torch.autograd.grad((o1, o1), w, retain_graph=True)
print(g)
g = torch.autograd.grad([o2], x, [torch.tensor([1., 0., -1.])], retain_graph=True)
print(g)
E(lambda: torch.autograd.grad([o1, o2], [x], retain_graph=True))
E(lambda: torch.autograd.grad([o1, torch.ones(2)], [x], retain_graph=True))
E(lambda: torch.autograd.grad(o1, [], retain_graph=True))
E(lambda: torch.autograd.grad([], [x], retain_graph=True))
E(lambda: torch.autograd.grad(o1, [x, x], retain_graph=True))
'''

PROGRAMS['autograd_grad_allow_unused_only_inputs'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
u = torch.tensor([5.], requires_grad=True)
y = (x ** 3).sum()
E(lambda: torch.autograd.grad(y, [x, u], retain_graph=True))
print(torch.autograd.grad(y, [x, u], allow_unused=True, retain_graph=True))
print(torch.autograd.grad(y, [u, x], allow_unused=True, materialize_grads=True, retain_graph=True))
print(torch.autograd.grad(y, x, only_inputs=False, retain_graph=True))
print(torch.autograd.grad(y, x, only_inputs=True, retain_graph=True))
print(x.grad, u.grad)
E(lambda: torch.autograd.grad(y, [x], allow_unused=False, materialize_grads=True))
h = x * 2
print(torch.autograd.grad(y, [x, h], allow_unused=True, retain_graph=True))
print(torch.autograd.grad(y + (h * 0).sum(), [h], retain_graph=True))
'''

PROGRAMS['autograd_grad_is_grads_batched_eye_rows'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = torch.stack([x[0] * x[1], x[1] ** 2, x.prod()])
J, = torch.autograd.grad(y, x, torch.eye(3), is_grads_batched=True, retain_graph=True)
print(J)
J2, = torch.autograd.grad(y, x, torch.eye(3)[:2], is_grads_batched=True, retain_graph=True)
print(J2)
v = torch.tensor([[1., 1., 1.]])
print(torch.autograd.grad(y, x, v, is_grads_batched=True, retain_graph=True))
E(lambda: torch.autograd.grad(y, x, torch.ones(3), is_grads_batched=True, retain_graph=True))
E(lambda: torch.autograd.grad(y, x, torch.ones(2, 4), is_grads_batched=True, retain_graph=True))
E(lambda: torch.autograd.grad(y, x, is_grads_batched=True, retain_graph=True))
s = x.sum()
print(torch.autograd.grad(s, x, torch.tensor([1., 2.]), is_grads_batched=True, retain_graph=True))
'''

PROGRAMS['autograd_grad_batched_two_outputs_create_graph'] = PRE + r'''
x = torch.tensor([0.5, 1.0], requires_grad=True)
y1 = x.sin()
y2 = (x * x).sum()
g = torch.autograd.grad([y1, y2], x, [torch.eye(2), torch.tensor([1., 2.])], is_grads_batched=True,
                        create_graph=True)
print(g[0].detach())
print(g[0].grad_fn is not None, g[0].requires_grad)
h, = torch.autograd.grad(g[0].sum(), x)
print(h)
'''

# ---- the notes' examples changed until they break

PROGRAMS['break_inplace_in_loop_on_leaf_and_nonleaf'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: x.mul_(2))
y = x * 1
for i in range(3):
    y *= 2
    print(i, y.grad_fn.name(), y._version)
y.sum().backward()
print(x.grad)
def bad(t):
    t *= 2
    return t
E(lambda: bad(x))
print(bad(x.detach().clone()), x)
z = x + 0
z.exp_()
E(lambda: z.exp_().sum().backward())
print(x.grad)
'''

PROGRAMS['break_grad_zero_when_none'] = PRE + r'''
torch.manual_seed(15)
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: x.grad.zero_())
E(lambda: x.grad.data.zero_())
(x * x).sum().backward()
x.grad.zero_()
print(x.grad)
x.grad = None
m = torch.nn.Linear(2, 1)
m.zero_grad()
E(lambda: m.weight.grad.zero_())
m.zero_grad(set_to_none=False)
print(m.weight.grad)
print(x.grad is None, type(x.grad))
E(lambda: setattr(x, 'grad', 0))
E(lambda: setattr(x, 'grad', torch.zeros(2, requires_grad=True)))
print(x.grad)
'''

PROGRAMS['break_eye45_second_call_without_retain'] = PRE + r'''
inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out))
print(f"First call\n{inp.grad}")
E(lambda: out.backward(torch.ones_like(out)))
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out))
print(f"\nCall after zeroing gradients\n{inp.grad}")
print(out.grad_fn, out.grad_fn.next_functions[0][0]._saved_exponent)
E(lambda: out.grad_fn.next_functions[0][0]._saved_self)
E(lambda: out.grad_fn.next_functions[0][0]._saved_self)
'''

PROGRAMS['break_custom_exp_modify_result'] = PRE + r'''
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
x = torch.tensor([0., 1., 2.], requires_grad=True)
y = Exp.apply(x)
print(y, y.grad_fn, y.grad_fn.name())
y.add_(1)
print(y.grad_fn, y._version)
E(lambda: y.sum().backward())
y2 = Exp.apply(x)
y2.detach().zero_()
E(lambda: y2.sum().backward())
y3 = Exp.apply(x)
y3.sum().backward()
print(x.grad)
E(lambda: y3.sum().backward())
'''

PROGRAMS['break_multiply_add_shapes_and_types'] = PRE + r'''
class MultiplyAdd(torch.autograd.Function):
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
torch.manual_seed(9)
x = torch.ones(1)
w = torch.rand(1, requires_grad=True)
b = torch.rand(1, requires_grad=True)
z = MultiplyAdd.apply(w, x, b)
z.backward()
print(w.grad, b.grad, x.grad)
w3 = torch.rand(3, requires_grad=True)
z = MultiplyAdd.apply(w3, x, b)
print(z.shape)
E(lambda: z.sum().backward())
E(lambda: MultiplyAdd.apply(w, 2.0, b))
E(lambda: MultiplyAdd.apply(w, x))
E(lambda: MultiplyAdd(w, x, b))
E(lambda: MultiplyAdd.forward(None, w, x, b).backward())
print(w.grad)
'''

PROGRAMS['break_retain_grad_in_loop_and_hooks_list'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
hs = []
grads = []
h = x
for i in range(3):
    h = h * (i + 1)
    h.retain_grad()
    h.register_hook(lambda g, i=i: grads.append((i, g.tolist())))
    hs.append(h)
hs[-1].sum().backward()
print([t.grad for t in hs])
print(grads)
for t in hs:
    t.grad = None
hs[-1].sum().backward
E(lambda: hs[-1].sum().backward())
print([t.grad for t in hs], x.grad)
'''

PROGRAMS['break_hook_returns_wrong_in_loop'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.register_hook(lambda g: g[:1])
E(lambda: y.sum().backward())
y = x * 2
y.register_hook(lambda g: g.double())
E(lambda: y.sum().backward())
y = x * 2
y.register_hook(lambda g: g * 0 + 7)
y.sum().backward()
print(x.grad)
E(lambda: x.register_hook(lambda g: 3))
x.register_hook(lambda g: 'three')
E(lambda: (x * 2).sum().backward())
'''

PROGRAMS['break_autograd_meta_fields_through_ops'] = PRE + r'''
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
outs = {'view': x.view(4), 'T': x.T, 'add': x + 1, 'unbind1': x.unbind()[1], 'chunk1': x.chunk(2, 1)[1],
        'detach': x.detach(), 'data': x.data, 'sq': x.squeeze()}
for k, t in outs.items():
    print(k, t.is_leaf, t.requires_grad, t._is_view(), t._base is x, t.output_nr, t._version,
          t.grad_fn.name() if t.grad_fn else None, t.retains_grad)
outs['add'].add_(1)
x.data.add_(0)
print({k: t._version for k, t in outs.items()})
'''

PROGRAMS['break_version_counter_shared_views_data'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
v = y[1:]
d = y.detach()
dd = y.data
print(y._version, v._version, d._version, dd._version)
v.add_(1)
print(y._version, v._version, d._version, dd._version)
dd.add_(1)
print(y._version, v._version, d._version, dd._version)
d.add_(1)
print(y._version, v._version, d._version, dd._version)
y.sum().backward()
print(x.grad, y)
z = x.sin()
z.detach().mul_(2)
E(lambda: z.sum().backward())
'''

PROGRAMS['break_saved_error_names_various_nodes'] = PRE + r'''
x = torch.tensor([0.5, 1.5], requires_grad=True)
cases = {
    'sigmoid': lambda t: t.sigmoid(),
    'tanh': lambda t: t.tanh(),
    'pow': lambda t: t.pow(3),
    'mul_self': lambda t: t * t,
    'div': lambda t: 1 / t,
    'sqrt': lambda t: t.sqrt(),
    'softmax': lambda t: t.softmax(0),
    'norm': lambda t: t.norm().expand(2),
}
for name, f in cases.items():
    h = x * 1
    out = f(h)
    with torch.no_grad():
        h.add_(1)
        out.add_(0) if name in ('sigmoid', 'tanh', 'sqrt', 'softmax') else None
    try:
        out.sum().backward()
        print(name, 'no error', x.grad)
    except RuntimeError as e:
        print(name, str(e).split('Hint')[0])
'''

PROGRAMS['break_data_dependent_shapes_nonzero_masks'] = PRE + r'''
x = torch.tensor([-1., 2., -3., 4.], requires_grad=True)
pos = x[x > 0]
print(pos, pos.grad_fn)
if pos.numel() > 1:
    loss = pos.prod()
else:
    loss = pos.sum()
loss.backward()
print(x.grad)
idx = (x > 0).nonzero()
print(idx, idx.requires_grad)
sel = x[idx.squeeze(1)]
print(sel.grad_fn)
empty = x[x > 10]
print(empty, empty.grad_fn, empty.sum())
empty.sum().backward()
print(x.grad)
'''

PROGRAMS['break_python_sum_and_max_over_tensors'] = PRE + r'''
xs = [torch.tensor(float(i), requires_grad=True) for i in range(1, 4)]
s = sum(x * x for x in xs)
print(s, s.grad_fn)
m = max(xs, key=lambda t: t.item())
print(m is xs[2])
mm = max(x * 2 for x in xs)
print(mm, mm.grad_fn)
total = s + mm
total.backward()
print([x.grad for x in xs])
E(lambda: max(torch.tensor([1., 2.]), torch.tensor([3., 0.])))
print(sorted([x * -1 for x in xs]))
print(min(xs).grad)
'''

PROGRAMS['break_graph_kept_alive_by_list_growth'] = PRE + r'''
w = torch.tensor([0.5], requires_grad=True)
losses = []
for step in range(4):
    loss = (w * step - 1) ** 2
    losses.append(loss)
total = torch.cat(losses).sum()
total.backward()
print(w.grad, total)
E(lambda: losses[0].backward())
w.grad = None
losses = [((w * s - 1) ** 2).item() for s in range(4)]
print(losses, w.grad)
hist = []
for s in range(3):
    l = (w * s).sum()
    l.backward()
    hist.append(l.detach())
print(hist, w.grad)
'''

PROGRAMS['break_backward_on_int_and_bool_outputs'] = PRE + r'''
x = torch.tensor([1.5, 2.5], requires_grad=True)
i = x.long()
print(i, i.requires_grad, i.grad_fn)
E(lambda: i.sum().backward())
b = x > 2
E(lambda: b.sum().backward())
r = x.round()
print(r.grad_fn)
r.sum().backward()
print(x.grad)
f = x.floor() + x.ceil() + x.trunc() + x.sign()
f.sum().backward()
print(x.grad)
c = x.to(torch.complex64)
E(lambda: c.sum().backward())
E(lambda: c.abs().sum().backward())
print(x.grad)
'''

PROGRAMS['print_options_extremes_on_grads'] = PRE + r'''
x = torch.tensor([[1e-8, -2.5, float('nan')], [float('inf'), 3.25, -0.0]], requires_grad=True)
y = x * 2
for kw in ({'precision': 0}, {'precision': 10}, {'edgeitems': 0, 'threshold': 1}, {'threshold': 0},
           {'linewidth': 1}, {'sci_mode': True, 'precision': 1}, {'sci_mode': False}):
    torch.set_printoptions(**kw)
    print(kw)
    print(y)
    torch.set_printoptions(profile='default')
'''

PROGRAMS['print_options_int_bool_complex_results'] = PRE + r'''
x = torch.tensor([1.5, -2.0, 1e5], requires_grad=True)
torch.set_printoptions(precision=1, sci_mode=True)
print(x.long(), x > 0, x.to(torch.complex64) * 1j)
print(torch.arange(100).reshape(10, 10) * 1000)
torch.set_printoptions(threshold=4, edgeitems=1, precision=3)
c = x.to(torch.complex128) * (1 + 1j)
print(c)
c.abs().sum().backward()
print(x.grad)
print(torch.tensor([True, False] * 5))
torch.set_printoptions(profile='default')
'''

PROGRAMS['print_options_bfloat16_half_grads'] = PRE + r'''
x = torch.tensor([1e-4, 123.456, -7.0], dtype=torch.bfloat16, requires_grad=True)
h = torch.tensor([1e-4, 123.456, -7.0], dtype=torch.half, requires_grad=True)
(x * x).sum().backward()
(h * h).sum().backward()
for kw in ({}, {'precision': 2}, {'sci_mode': True}, {'precision': 8}):
    torch.set_printoptions(**kw)
    print(x.grad, h.grad)
    print(x * 3, h / 3)
    torch.set_printoptions(profile='default')
'''

PROGRAMS['print_options_linewidth_grad_fn_suffix'] = PRE + r'''
x = torch.linspace(-1, 1, 7, requires_grad=True)
y = x.tanh()
for lw in (10, 30, 45, 80, 200):
    torch.set_printoptions(linewidth=lw)
    print(lw)
    print(y)
    print(y.unsqueeze(0).expand(2, 7))
torch.set_printoptions(profile='default')
y.sum().backward()
print(x.grad)
'''

PROGRAMS['complex_outputs_and_v'] = PRE + r'''
z = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
y = z * z
E(lambda: y.backward())
E(lambda: y.sum().backward())
y.backward(torch.tensor([1 + 0j, 0 + 1j]), retain_graph=True)
print(z.grad)
z.grad = None
y.abs().sum().backward(retain_graph=True)
print(z.grad)
z.grad = None
y.real.sum().backward(retain_graph=True)
print(z.grad)
E(lambda: y.backward(torch.tensor([1., 1.]), retain_graph=True))
E(lambda: y.backward(torch.tensor([1., 1.], dtype=torch.complex128), retain_graph=True))
print(z.grad)
'''

PROGRAMS['dyn_random_branch_seeded'] = PRE + r'''
torch.manual_seed(10)
x = torch.tensor([1., 2.], requires_grad=True)
y = x
path = []
for i in range(6):
    if torch.rand(1).item() > 0.5:
        y = y.sin()
        path.append('sin')
    else:
        y = y * 1.5
        path.append('mul')
print(path, y)
names = []
fn = y.grad_fn
while fn is not None:
    names.append(fn.name())
    fn = fn.next_functions[0][0] if fn.next_functions else None
print(names)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['dyn_no_grad_some_iterations'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x
for i in range(4):
    if i % 2:
        with torch.no_grad():
            y = y * 2
    else:
        y = y * 3
    print(i, y.requires_grad, y.grad_fn)
E(lambda: y.sum().backward())
y = x
for i in range(4):
    with torch.set_grad_enabled(i != 2):
        y = y + i
    print(i, y.requires_grad, y.grad_fn)
E(lambda: y.sum().backward())
y = x
for i in range(4):
    with torch.set_grad_enabled(i != 2):
        y = y + x * i
    print(i, y.requires_grad, y.grad_fn)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['dyn_tree_recursion_graph'] = WALK + r'''
def tree(x, depth):
    if depth == 0:
        return x
    left = tree(x * 2, depth - 1)
    right = tree(x + 1, depth - 1)
    return left * right
x = torch.tensor(0.5, requires_grad=True)
y = tree(x, 2)
print(y)
walk(y.grad_fn)
y.backward()
print(x.grad)
'''

PROGRAMS['dyn_function_returns_tuple_and_dict'] = PRE + r'''
def forward(x):
    h = x.relu()
    return {'out': h.sum(), 'hidden': h, 'aux': [h.mean(), h.max()]}
x = torch.tensor([-1., 2., 3.], requires_grad=True)
r = forward(x)
print(r)
torch.autograd.backward([r['out']] + r['aux'])
print(x.grad)
E(lambda: torch.autograd.backward(r))
E(lambda: torch.autograd.backward(r['aux'], grad_tensors=torch.tensor(1.)))
'''

PROGRAMS['vjp_functional_vjp_other_v'] = PRE + r'''
def f(x):
    return torch.stack([x[0] ** 2, x[0] * x[1], x[1].exp()])
x = torch.tensor([1., 2.])
for v in (torch.ones(3), torch.eye(3)[1], torch.tensor([1., -1., 0.5])):
    out, g = torch.autograd.functional.vjp(f, x, v)
    print(out, g)
E(lambda: torch.autograd.functional.vjp(f, x))
E(lambda: torch.autograd.functional.vjp(f, x, torch.ones(2)))
out, g = torch.autograd.functional.vjp(lambda t: t.sum(), x)
print(out, g)
print(torch.autograd.functional.jacobian(f, x))
print(torch.autograd.functional.vjp(f, x, torch.ones(3), create_graph=True))
'''

PROGRAMS['grad_of_grad_in_loop_newton'] = PRE + r'''
x = torch.tensor(3., dtype=torch.float64, requires_grad=True)
for it in range(5):
    f = x ** 3 - 2 * x - 5
    g, = torch.autograd.grad(f, x, create_graph=True)
    h, = torch.autograd.grad(g, x)
    with torch.no_grad():
        x -= f / g
    print(it, x.item(), g.grad_fn, h.requires_grad)
print(x)
E(lambda: torch.autograd.grad(x * 2, x, create_graph=True)[0].backward())
'''

PROGRAMS['break_one_layer_net_shape_dtype_mistakes'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.ones(5)
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
E(lambda: torch.matmul(torch.ones(4), w))
E(lambda: torch.matmul(w, torch.ones(5)))
E(lambda: torch.matmul(torch.ones(2, 4), w))
E(lambda: torch.matmul(torch.ones(2, 2, 4), w))
E(lambda: torch.matmul(x, w) + torch.ones(2))
E(lambda: x @ w.t())
E(lambda: torch.mm(x, w))
E(lambda: torch.mv(w, torch.ones(5)))
E(lambda: torch.dot(x, torch.ones(3)))
E(lambda: torch.matmul(x.long(), w))
E(lambda: torch.matmul(x.double(), w))
z = torch.matmul(x, w) + b
E(lambda: F.binary_cross_entropy_with_logits(z, torch.zeros(2)))
E(lambda: F.binary_cross_entropy_with_logits(z, torch.zeros(3, dtype=torch.long)))
E(lambda: F.binary_cross_entropy_with_logits(z, torch.zeros(1, 3)))
E(lambda: F.binary_cross_entropy(z, torch.zeros(3)))
E(lambda: F.binary_cross_entropy(z.sigmoid(), torch.zeros(3, dtype=torch.long)))
E(lambda: F.binary_cross_entropy(z.sigmoid(), torch.zeros(2)))
E(lambda: F.binary_cross_entropy(z.sigmoid(), torch.zeros(1, 3)))
E(lambda: F.binary_cross_entropy_with_logits(z, torch.zeros(3), weight=torch.ones(2)))
E(lambda: F.binary_cross_entropy_with_logits(z, torch.zeros(3), pos_weight=torch.ones(2)))
E(lambda: F.binary_cross_entropy_with_logits(z, torch.zeros(3), reduction='avg'))
E(lambda: F.binary_cross_entropy_with_logits(z, torch.zeros(3, dtype=torch.float64)))
E(lambda: F.binary_cross_entropy_with_logits(z.long(), torch.zeros(3)))
E(lambda: F.binary_cross_entropy_with_logits(z, 0.))
E(lambda: F.binary_cross_entropy_with_logits(z, [0., 0., 0.]))
E(lambda: F.mse_loss(z, torch.zeros(3, dtype=torch.long)))
E(lambda: F.mse_loss(z, torch.zeros(2)))
E(lambda: F.cross_entropy(z, torch.zeros(3)))
E(lambda: F.cross_entropy(z.unsqueeze(0), torch.tensor([3])))
E(lambda: F.cross_entropy(z.unsqueeze(0), torch.tensor([1.5])))
E(lambda: F.nll_loss(z.unsqueeze(0), torch.tensor([0.])))
'''

PROGRAMS['break_backward_and_grad_flag_types'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * x).sum()
E(lambda: y.backward(retain_graph=1))
E(lambda: y.backward(retain_graph='yes'))
E(lambda: y.backward(retain_graph=torch.tensor(True)))
E(lambda: y.backward(create_graph=None))
E(lambda: y.backward(retain_graph=[]))
E(lambda: y.backward(retain_graph=0))
E(lambda: y.backward(retain_graph=0.0))
print(x.grad)
y = (x * x).sum()
E(lambda: torch.autograd.grad(y, x, retain_graph=None, create_graph=None))
y = (x * x).sum()
E(lambda: torch.autograd.grad(y, x, allow_unused=1))
E(lambda: torch.autograd.grad(y, x, allow_unused='x'))
E(lambda: torch.autograd.grad(y, x, is_grads_batched=None))
E(lambda: torch.autograd.grad(y, x, only_inputs=None))
E(lambda: torch.autograd.grad(y, x, materialize_grads=None))
E(lambda: torch.autograd.grad(y, x, grad_outputs=1.0))
E(lambda: torch.autograd.grad(y, x, grad_outputs=[1.0]))
E(lambda: torch.autograd.grad(y, x, grad_outputs=(None,)))
E(lambda: torch.autograd.grad(y, 'x'))
E(lambda: torch.autograd.grad(y, [x, 'x']))
E(lambda: torch.autograd.grad('y', x))
E(lambda: torch.autograd.grad([y, 'y'], x))
E(lambda: torch.autograd.grad(y, x, foo=1))
E(lambda: y.backward(foo=1))
E(lambda: torch.autograd.backward(y, foo=1))
E(lambda: torch.autograd.backward('y'))
E(lambda: torch.autograd.backward([y, None]))
E(lambda: torch.autograd.backward(None))
'''

PROGRAMS['grad_object_identity_versions_accumulation'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
v = torch.tensor([1., 1.])
x.backward(v)
print(x.grad is v, x.grad.data_ptr() == v.data_ptr(), x.grad._version)
g = x.grad
(x + 0).backward(v)
print(x.grad is g, x.grad._version, g._version, x.grad)
(x * 2).sum().backward()
print(x.grad is g, x.grad._version, x.grad.is_leaf, x.grad.requires_grad, x.grad.grad_fn)
(x * 2).sum().backward(create_graph=True)
print(x.grad is g, x.grad._version, x.grad.is_leaf, x.grad.requires_grad, x.grad.grad_fn)
g2 = x.grad
(x * 3).sum().backward()
print(x.grad is g2, x.grad._version, x.grad.grad_fn)
x.grad = None
(x * 3).sum().backward(create_graph=True)
print(x.grad, x.grad._version, x.grad.grad_fn, x.grad.is_leaf)
y = x.clone()
y.retain_grad()
(y * 2).sum().backward()
gy = y.grad
(y * 2).sum().backward()
print(y.grad is gy, y.grad, gy._version)
s = torch.tensor(1., requires_grad=True)
s.backward()
print(s.grad, s.grad._version)
s.backward(torch.tensor(5.))
print(s.grad, s.grad._version)
w = torch.ones(2, 2, requires_grad=True)
gt = torch.ones(2, 2).t()
w.backward(gt)
print(w.grad.stride(), w.grad.is_contiguous())
w2 = torch.ones(2, 2, requires_grad=True).t()
print(w2.is_leaf)
'''

PROGRAMS['saved_tensors_hooks_print_what_notes_save'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
def pack(t):
    print('pack', tuple(t.shape), t.dtype, t.requires_grad, t.grad_fn.name() if t.grad_fn else None)
    return t
def unpack(t):
    print('unpack', tuple(t.shape))
    return t
x = torch.ones(5)
y = torch.zeros(3)
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    z = torch.matmul(x, w) + b
    loss = F.binary_cross_entropy_with_logits(z, y)
    print('--')
    l2 = torch.mean(w * w)
    print('--')
    l3 = (w.sigmoid() * w.tanh()).pow(2).sum() + F.mse_loss(z, y) + F.cross_entropy(z.unsqueeze(0), torch.tensor([1]))
    print('--')
    h = torch.nn.Linear(3, 2)(z.unsqueeze(0)).relu().softmax(1).log()
    print('--')
    q = w.norm() + w.std() + w.var(0).sum() + w.logsumexp(0).sum() + w.max() + w.prod()
print('backward')
loss.backward(retain_graph=True)
(l2 + l3 + h.sum() + q).backward()
print(w.grad.sum())
'''

PROGRAMS['break_grad_mode_context_manager_misuse'] = PRE + r'''
def f():
    with torch.no_grad:
        pass
E(f)
def g():
    with torch.set_grad_enabled:
        pass
E(g)
E(lambda: torch.no_grad(True))
E(lambda: torch.set_grad_enabled())
E(lambda: torch.set_grad_enabled('a'))
E(lambda: torch.set_grad_enabled(None))
E(lambda: torch.set_grad_enabled(1))
print(torch.is_grad_enabled())
torch.set_grad_enabled(True)
E(lambda: torch.enable_grad(False))
E(lambda: torch.inference_mode('a'))
E(lambda: torch.inference_mode(0))
print(torch.is_inference_mode_enabled())
E(lambda: torch.no_grad()())
E(lambda: torch.no_grad()(3))
E(lambda: torch.set_grad_enabled(False)(3))
torch.set_grad_enabled(True)
@torch.no_grad()
def h(x):
    return x * 2
x = torch.ones(2, requires_grad=True)
print(h(x).requires_grad, h.__name__)
@torch.no_grad
def h2(x):
    return x * 2
print(h2(x).requires_grad)
@torch.enable_grad
def h3(x):
    return x * 2
with torch.no_grad():
    print(h3(x).requires_grad)
print(repr(torch.no_grad()), repr(torch.set_grad_enabled(True)).split(' at ')[0])
print(torch.no_grad().prev, torch.set_grad_enabled(False).prev)
torch.set_grad_enabled(True)
with torch.set_grad_enabled(False) as r:
    print(r, torch.is_grad_enabled())
with torch.no_grad() as r:
    print(r)
with torch.inference_mode() as r:
    print(r)
'''

PROGRAMS['bits_while_norm_and_notes_ops_tolist'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(11)
x = torch.randn(7, requires_grad=True)
y = x * 2
n = 0
while y.norm() < 1000:
    y = y * 2
    n += 1
print(n, y.norm().item(), y.tolist())
v = torch.tensor([0.1, 1.0, 0.0001, 0.3, -2.0, 1e-7, 3.3])
y.backward(v)
print(x.grad.tolist())
x.grad = None
w = torch.randn(7, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w) + b
loss = F.binary_cross_entropy_with_logits(z, torch.tensor([0., 1., 0.5]))
loss.backward()
print(loss.item(), w.grad.flatten().tolist()[:6], b.grad.tolist(), x.grad.tolist()[:3])
for f in (lambda t: t.sigmoid(), lambda t: t.tanh(), lambda t: t.exp(), lambda t: t.softmax(0),
          lambda t: t.log_softmax(0), lambda t: t.norm(), lambda t: t.std(), lambda t: t.logsumexp(0),
          lambda t: F.softplus(t), lambda t: F.gelu(t), lambda t: F.silu(t), lambda t: F.elu(t),
          lambda t: t.pow(2.5).nan_to_num(), lambda t: t.abs().sqrt(), lambda t: t.cumsum(0).cumprod(0),
          lambda t: (t * t).mean(), lambda t: t.sin() * t.cos(), lambda t: t.atan2(t.flip(0)), lambda t: F.normalize(t, dim=0)):
    x.grad = None
    out = f(x)
    out.backward(torch.ones_like(out) * 0.7)
    print(out.flatten()[:2].tolist(), x.grad.tolist())
'''

PROGRAMS['meta_one_layer_net_and_eye45_grads'] = WALK + r'''
import torch.nn.functional as F
x = torch.ones(5, device='meta')
y = torch.zeros(3, device='meta')
w = torch.randn(5, 3, device='meta', requires_grad=True)
b = torch.randn(3, device='meta', requires_grad=True)
z = torch.matmul(x, w) + b
loss = F.binary_cross_entropy_with_logits(z, y)
print(z, loss, z.grad_fn, loss.grad_fn)
walk(loss.grad_fn)
loss.backward()
print(w.grad, b.grad, w.grad.device, w.grad.is_meta)
E(lambda: torch.mv(w.t(), torch.ones(5)))
E(lambda: w + torch.ones(5, 3))
E(lambda: w + torch.tensor(1.))
E(lambda: (w * 2).backward(torch.ones(5, 3)))
E(lambda: w.grad.item())
E(lambda: print(w.grad.tolist()))
E(lambda: torch.autograd.grad(loss, w))
l2 = (w * w).mean()
print(torch.autograd.grad(l2, w))
inp = torch.eye(4, 5, device='meta', requires_grad=True)
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(inp.grad)
E(lambda: out.backward(torch.ones(5, 4), retain_graph=True))
E(lambda: inp.grad.zero_())
print(inp.grad)
inp.grad = None
E(lambda: setattr(inp, 'grad', torch.ones(4, 5)))
print(inp.grad)
'''

PROGRAMS['meta_custom_fn_and_hooks_wrong_device'] = WALK + r'''
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result
    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return torch.ones(3)
m = torch.ones(3, device='meta', requires_grad=True)
y = Exp.apply(m)
print(y)
E(lambda: y.sum().backward())
print(m.grad)
c = torch.ones(3, requires_grad=True)
class ToMeta(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        return i * 2
    @staticmethod
    def backward(ctx, g):
        return torch.ones(3, device='meta')
E(lambda: ToMeta.apply(c).sum().backward())
print(c.grad)
h = m * 2
h.register_hook(lambda g: torch.ones(3))
E(lambda: h.sum().backward())
h2 = c * 2
h2.register_hook(lambda g: torch.ones(3, device='meta'))
E(lambda: h2.sum().backward())
print(c.grad)
E(lambda: (m.to('cpu')))
E(lambda: (m.cpu()))
E(lambda: torch.ones(3, requires_grad=True).to('meta').sum().backward())
t = torch.ones(3, requires_grad=True)
u = t.to('meta')
print(u, u.grad_fn, u.requires_grad)
E(lambda: u.sum().backward())
print(t.grad)
del m, y, h, u
c2 = torch.ones(3, requires_grad=True)
out = ToMeta.apply(c2)
E(lambda: out.sum().backward())
c2.register_hook(lambda g: torch.ones(3, device='meta'))
E(lambda: (c2 * 2).sum().backward())
print(c2.grad)
class Mixed(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a * 2, b * 2
    @staticmethod
    def backward(ctx, ga, gb):
        return ga, torch.ones(2, 3)
a = torch.ones(2, 3, device='meta', requires_grad=True)
b = torch.ones(2, 3, device='meta', requires_grad=True)
oa, ob = Mixed.apply(a, b)
E(lambda: (oa.sum() + ob.sum()).backward())
class WrongShape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2
    @staticmethod
    def backward(ctx, g):
        return torch.ones(4)
E(lambda: WrongShape.apply(a).sum().backward())
'''

PROGRAMS['device_mistakes_cuda_strings_and_to'] = PRE + r'''
torch.manual_seed(14)
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
E(lambda: y.backward(torch.ones(3, device='cuda')))
E(lambda: y.backward(torch.ones(3).cuda()))
E(lambda: y.backward(torch.ones(3).to('cuda')))
E(lambda: x.cuda())
E(lambda: x.to('cuda:0'))
E(lambda: torch.ones(3, device='gpu'))
E(lambda: torch.ones(3, device='cpu:1'))
print(torch.ones(3, device='cpu:0'))
print(torch.cuda.is_available(), x.is_cuda, x.device, y.device, x.grad)
E(lambda: y.backward(torch.ones(3, device=torch.device('cpu', 0)), retain_graph=True))
print(x.grad, x.grad.device)
dev = 'cuda' if torch.cuda.is_available() else 'cpu'
w = torch.randn(5, 3, requires_grad=True, device=dev)
print(w.device, w.is_leaf)
w2 = torch.randn(5, 3, requires_grad=True).to(dev)
print(w2.is_leaf, w2.grad_fn)
w3 = torch.randn(5, 3).to(dev).requires_grad_()
print(w3.is_leaf)
w4 = torch.randn(5, 3, requires_grad=True).to(torch.float64)
print(w4.is_leaf, w4.grad_fn)
w4.sum().backward()
print(w4.grad)
'''

PROGRAMS['meta_retain_grad_double_backward_versions'] = WALK + r'''
x = torch.randn(3, device='meta', requires_grad=True)
y = x * 2
y.retain_grad()
z = (y * y).sum()
z.backward(retain_graph=True)
print(y.grad, x.grad, z.grad_fn, y.grad_fn)
walk(z.grad_fn)
g, = torch.autograd.grad(z, x, create_graph=True)
print(g, g.grad_fn, g.requires_grad)
h, = torch.autograd.grad(g.sum(), x)
print(h)
d = y.detach()
print(d, d.requires_grad, d._version, y.data, y.data.requires_grad)
y.data.add_(1)
print(y._version, d._version)
y.add_(1)
print(y._version, d._version, y.grad_fn)
E(lambda: z.backward())
E(lambda: torch.autograd.functional.jacobian(lambda t: t * 2, x))
m = torch.nn.Linear(3, 2, device='meta')
out = m(torch.ones(4, 3, device='meta')).sum()
out.backward()
print(m.weight.grad, m.bias.grad)
m.zero_grad()
print(m.weight.grad)
m.zero_grad(set_to_none=False)
print(m.weight.grad)
E(lambda: torch.optim.SGD(m.parameters(), lr=0.1).step())
print(m.weight)
torch.set_printoptions(precision=2)
print(x, y.grad_fn)
torch.set_printoptions(profile='default')
E(lambda: x.grad.sum().item())
E(lambda: bool(x.sum() > 0))
E(lambda: print(x.norm() < 1000))
b = torch.ones(2, device='meta', dtype=torch.bfloat16, requires_grad=True)
q = b.exp()
q.detach().add_(1)
E(lambda: q.sum().backward())
r = b * 1
s = r.sin()
r.detach().mul_(2)
E(lambda: s.sum().backward())
'''

PROGRAMS['meta_batched_grads_hooks_on_nodes'] = PRE + r'''
x = torch.randn(3, device='meta', requires_grad=True)
y = torch.stack([x[0] * x[1], x[1] ** 2, x.sum()])
J, = torch.autograd.grad(y, x, torch.eye(3, device='meta'), is_grads_batched=True, retain_graph=True)
print(J)
E(lambda: torch.autograd.grad(y, x, torch.eye(3), is_grads_batched=True, retain_graph=True))
seen = []
x.register_hook(lambda g: seen.append(g.device))
y.register_hook(lambda g: seen.append((g.device, g.shape)))
y.backward(torch.ones(3, device='meta'), retain_graph=True)
print(seen, x.grad)
y.grad_fn.register_hook(lambda gi, go: seen.append(('node', [g.device for g in gi], [g.device for g in go])))
y.grad_fn.register_prehook(lambda go: seen.append(('pre', [g.device for g in go])))
y.backward(torch.ones(3, device='meta'), retain_graph=True)
print(seen)
y.grad_fn.register_prehook(lambda go: (torch.ones(3),))
E(lambda: y.backward(torch.ones(3, device='meta'), retain_graph=True))
print(x.grad)
E(lambda: torch.autograd.backward([y[0], y[1]], [None, torch.tensor(2., device="meta")], retain_graph=True))
print(x.grad)
E(lambda: torch.autograd.backward([y[0], y[1]], [None, torch.tensor(2.)], retain_graph=True))
E(lambda: torch.autograd.backward([y[0], y[1]], [torch.tensor(2.), None], retain_graph=True))
'''

PROGRAMS['meta_zero_dim_gradients_moved_or_refused'] = PRE + r'''
m = torch.tensor(1., device='meta', requires_grad=True)
E(lambda: setattr(m, 'grad', torch.tensor(1.)))
c = torch.tensor(1., requires_grad=True)
E(lambda: setattr(c, 'grad', torch.tensor(1., device='meta')))
E(lambda: (m * 2).backward(torch.tensor(3.)))
print(m.grad)
E(lambda: (c * 2).backward(torch.tensor(3., device='meta')))
print(c.grad)
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2
    @staticmethod
    def backward(ctx, g):
        return torch.tensor(5.)
m.grad = None
E(lambda: F.apply(m).backward())
print(m.grad)
class G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2
    @staticmethod
    def backward(ctx, g):
        return torch.tensor(5., device='meta')
E(lambda: G.apply(c).backward())
print(c.grad)
v = torch.ones(3, device='meta', requires_grad=True)
E(lambda: F.apply(v).sum().backward())
print(v.grad)
E(lambda: (v * 2).backward(torch.tensor(1.)))
y = m * 2
y.register_hook(lambda g: torch.tensor(1.))
E(lambda: y.backward())
'''

PROGRAMS['functional_jacobian_hessian_vjp_student_mistakes'] = PRE + r'''
import torch.autograd.functional as AF
def f(x):
    return (x * x).mean()
def g(x):
    return torch.stack([x[0] * x[1], x[1] ** 2, x.sum()])
x = torch.tensor([1., 2.])
print(AF.jacobian(g, x), AF.jacobian(f, x), AF.hessian(f, x))
E(lambda: AF.jacobian(g, x, strategy='forward-mode'))
E(lambda: AF.jacobian(g, x, strategy='backward'))
print(AF.jvp(g, x, torch.tensor([1., 0.])))
E(lambda: AF.jvp(g, x, torch.ones(3)))
E(lambda: AF.jvp(g, x))
print(AF.vjp(g, x, torch.tensor([1., 0., 1.])))
E(lambda: AF.vjp(g, x, torch.ones(2)))
print(AF.hvp(f, x, torch.tensor([1., 1.])))
print(AF.vhp(f, x, torch.tensor([1., -1.])))
E(lambda: AF.hvp(g, x, torch.ones(2)))
E(lambda: AF.hvp(f, x, torch.ones(3)))
E(lambda: AF.hessian(g, x))
E(lambda: AF.jacobian(g, (x, x)))
print(AF.jacobian(lambda a, b: a * b, (x, torch.tensor([3., 4.]))))
J = AF.jacobian(g, x, create_graph=True)
print(J.requires_grad, J.grad_fn)
E(lambda: AF.jacobian(lambda t: t.int(), x))
E(lambda: AF.jacobian(lambda t: 3, x))
E(lambda: AF.jacobian(g, [1., 2.]))
print(AF.jacobian(lambda t: torch.ones(2), x))
E(lambda: AF.jacobian(lambda t: torch.ones(2), x, strict=True))
'''

PROGRAMS['walk_next_functions_mixed_requires_grad_inputs'] = WALK + r'''
import torch.nn.functional as F
torch.manual_seed(12)
a = torch.randn(2, 3, requires_grad=True)
c = torch.randn(2, 3)
w = torch.randn(4, 3, requires_grad=True)
bias = torch.randn(4)
outs = {
    'cat': torch.cat([a, c, a]),
    'stack': torch.stack([c, a]),
    'linear_nobias': F.linear(a, w),
    'linear_plainbias': F.linear(a, w, bias),
    'linear_1d': F.linear(a[0], w, bias),
    'linear_plainw': F.linear(a, c[:1].expand(4, 3)),
    'addmm': torch.addmm(bias, a, w.t()),
    'matmul3d': torch.matmul(a.unsqueeze(0).expand(2, 2, 3), w.t()),
    'einsum': torch.einsum('ij,kj->ik', a, w),
    'where': torch.where(c > 0, a, c),
    'lerp': torch.lerp(c, a, 0.3),
    'addcmul': torch.addcmul(c, a, c, value=2),
    'bce_w': F.binary_cross_entropy_with_logits(a, c.sigmoid(), weight=c.abs()),
    'mse': F.mse_loss(c, a),
    'clamp_t': a.clamp(min=c),
    'max2': torch.max(a, c),
    'dist': torch.dist(a, c),
    'cdist': torch.cdist(a, c),
    'cosine': F.cosine_similarity(a, c),
    'norm_layer': F.layer_norm(a, (3,)),
}
for k, t in outs.items():
    walk(t.grad_fn)
'''

PROGRAMS['meta_grad_flags_create_graph_complex'] = PRE + r'''
x = torch.ones(3, device='meta', requires_grad=True)
u = torch.ones(2, device='meta', requires_grad=True)
y = (x * x).sum()
print(torch.autograd.grad(y, [x, u], allow_unused=True, retain_graph=True))
print(torch.autograd.grad(y, [x, u], materialize_grads=True, retain_graph=True))
y.backward(inputs=[x], retain_graph=True)
print(x.grad)
y.backward(create_graph=True)
print(x.grad, x.grad.grad_fn, x.grad.requires_grad)
x.grad = None
h = x * 2
h.retain_grad()
(h * h).sum().backward(create_graph=True)
print(h.grad, h.grad.grad_fn, x.grad.grad_fn)
k = x.exp()
k.detach_()
print(k, k.requires_grad, k.grad_fn)
v = torch.zeros(3, device='meta')
v.requires_grad_()
print(v.is_leaf, v)
E(lambda: torch.zeros(3, device='meta', dtype=torch.long).requires_grad_())
j = torch.tensor([1, 2], device='meta')
print(j, j.dtype)
print(torch.empty(2, 3, device='meta', requires_grad=True).grad_fn)
c = torch.ones(3, device='meta', requires_grad=True, dtype=torch.complex64)
z = (c * c).abs().sum()
z.backward()
print(c.grad)
E(lambda: (c * c).sum().backward())
'''

PROGRAMS['meta_notes_losses_and_reductions_backward'] = PRE + r'''
import torch.nn.functional as F
x = torch.randn(2, 3, device='meta', requires_grad=True)
t = torch.rand(2, 3, device='meta')
ops = {
    'bce_logits': lambda: F.binary_cross_entropy_with_logits(x, t),
    'bce_logits_pw': lambda: F.binary_cross_entropy_with_logits(x, t, pos_weight=torch.ones(3, device='meta')),
    'bce': lambda: F.binary_cross_entropy(x.sigmoid(), t),
    'mse': lambda: F.mse_loss(x, t),
    'l1': lambda: F.l1_loss(x, t),
    'smooth_l1': lambda: F.smooth_l1_loss(x, t),
    'huber': lambda: F.huber_loss(x, t),
    'ce': lambda: F.cross_entropy(x, torch.zeros(2, dtype=torch.long, device='meta')),
    'nll': lambda: F.nll_loss(x.log_softmax(1), torch.zeros(2, dtype=torch.long, device='meta')),
    'kl': lambda: F.kl_div(x.log_softmax(1), t, reduction='batchmean'),
    'mean_sq': lambda: torch.mean(x * x),
    'norm': lambda: x.norm(),
    'std': lambda: x.std(),
    'var_mean': lambda: torch.var_mean(x, 1)[0].sum(),
    'logsumexp': lambda: x.logsumexp(1).sum(),
    'max': lambda: x.max(),
    'amax': lambda: x.amax(1).sum(),
    'sort': lambda: x.sort(1).values.sum(),
    'cumsum': lambda: x.cumsum(1).sum(),
    'prod': lambda: x.prod(),
    'pow': lambda: x.pow(3).sum(),
    'relu': lambda: F.relu(x).sum(),
    'gelu': lambda: F.gelu(x).sum(),
    'softplus': lambda: F.softplus(x).sum(),
    'dropout': lambda: F.dropout(x, 0.5).sum(),
    'layer_norm': lambda: F.layer_norm(x, (3,)).sum(),
    'matmul': lambda: (x @ x.t()).sum(),
    'index': lambda: x[torch.tensor([1, 0], device='meta')].sum(),
    'gather': lambda: x.gather(1, torch.zeros(2, 1, dtype=torch.long, device='meta')).sum(),
    'where': lambda: torch.where(t > 0.5, x, -x).sum(),
    'clamp': lambda: x.clamp(-1, 1).sum(),
    'abs': lambda: x.abs().sum(),
    'atan2': lambda: torch.atan2(x, t + 1).sum(),
    'cat': lambda: torch.cat([x, x * 2]).sum(),
    'expand': lambda: x.unsqueeze(0).expand(4, 2, 3).sum(),
}
for k, f in ops.items():
    x.grad = None
    try:
        out = f()
        out.backward()
        print(k, out.grad_fn.name(), x.grad)
    except Exception as e:
        print(k, type(e).__name__, str(e)[:150])
'''

PROGRAMS['meta_notes_losses_and_reductions_create_graph'] = PRE + r'''
import torch.nn.functional as F
x = torch.randn(2, 3, device='meta', requires_grad=True)
t = torch.rand(2, 3, device='meta')
ops = {
    'bce_logits': lambda: F.binary_cross_entropy_with_logits(x, t),
    'bce_logits_pw': lambda: F.binary_cross_entropy_with_logits(x, t, pos_weight=torch.ones(3, device='meta')),
    'bce': lambda: F.binary_cross_entropy(x.sigmoid(), t),
    'mse': lambda: F.mse_loss(x, t),
    'l1': lambda: F.l1_loss(x, t),
    'smooth_l1': lambda: F.smooth_l1_loss(x, t),
    'huber': lambda: F.huber_loss(x, t),
    'ce': lambda: F.cross_entropy(x, torch.zeros(2, dtype=torch.long, device='meta')),
    'nll': lambda: F.nll_loss(x.log_softmax(1), torch.zeros(2, dtype=torch.long, device='meta')),
    'kl': lambda: F.kl_div(x.log_softmax(1), t, reduction='batchmean'),
    'mean_sq': lambda: torch.mean(x * x),
    'norm': lambda: x.norm(),
    'std': lambda: x.std(),
    'var_mean': lambda: torch.var_mean(x, 1)[0].sum(),
    'logsumexp': lambda: x.logsumexp(1).sum(),
    'max': lambda: x.max(),
    'amax': lambda: x.amax(1).sum(),
    'sort': lambda: x.sort(1).values.sum(),
    'cumsum': lambda: x.cumsum(1).sum(),
    'prod': lambda: x.prod(),
    'pow': lambda: x.pow(3).sum(),
    'relu': lambda: F.relu(x).sum(),
    'gelu': lambda: F.gelu(x).sum(),
    'softplus': lambda: F.softplus(x).sum(),
    'dropout': lambda: F.dropout(x, 0.5).sum(),
    'layer_norm': lambda: F.layer_norm(x, (3,)).sum(),
    'matmul': lambda: (x @ x.t()).sum(),
    'index': lambda: x[torch.tensor([1, 0], device='meta')].sum(),
    'gather': lambda: x.gather(1, torch.zeros(2, 1, dtype=torch.long, device='meta')).sum(),
    'where': lambda: torch.where(t > 0.5, x, -x).sum(),
    'clamp': lambda: x.clamp(-1, 1).sum(),
    'abs': lambda: x.abs().sum(),
    'atan2': lambda: torch.atan2(x, t + 1).sum(),
    'cat': lambda: torch.cat([x, x * 2]).sum(),
    'expand': lambda: x.unsqueeze(0).expand(4, 2, 3).sum(),
}
for k, f in ops.items():
    x.grad = None
    try:
        out = f()
        g, = torch.autograd.grad(out, x, create_graph=True)
        print(k, out.grad_fn.name(), g.grad_fn.name() if g.grad_fn else None)
    except Exception as e:
        print(k, type(e).__name__, str(e)[:150])
'''

PROGRAMS['meta_selection_split_setitem_normal_backward'] = PRE + r'''
import torch.nn.functional as F
x = torch.randn(2, 3, device='meta', requires_grad=True)
m = torch.rand(2, 3, device='meta') > 0.5
ops = {
    'max_dim': lambda: x.max(1).values.sum(),
    'min_dim': lambda: x.min(0)[0].sum(),
    'sort': lambda: x.sort(1)[0][:, 0].sum(),
    'topk': lambda: x.topk(2).values.sum(),
    'median_dim': lambda: x.median(1).values.sum(),
    'kthvalue': lambda: x.kthvalue(2, 1).values.sum(),
    'mode': lambda: x.mode(1).values.sum(),
    'cummax': lambda: x.cummax(1).values.sum(),
    'masked_select': lambda: x[m].sum(),
    'masked_select2': lambda: x.masked_select(m).sum(),
    'unbind0': lambda: x.unbind(0)[0].sum(),
    'split': lambda: x.split(1, 1)[2].sum(),
    'chunk': lambda: x.chunk(3, 1)[0].sum(),
    'round': lambda: (x.round() + x.floor() + x.ceil() + x.sign() + x.trunc()).sum(),
    'frac': lambda: x.frac().sum(),
    'remainder': lambda: x.remainder(2).sum(),
    'select': lambda: x[0, 1],
    'slice': lambda: x[:, 1:].sum(),
    'diag': lambda: x.diagonal().sum(),
    'index_select': lambda: x.index_select(1, torch.tensor([0, 2], device='meta')).sum(),
    'take': lambda: x.take(torch.tensor([0, 5], device='meta')).sum(),
    'scatter': lambda: x.scatter(1, torch.zeros(2, 1, dtype=torch.long, device='meta'), 0.).sum(),
    'masked_fill': lambda: x.masked_fill(m, 0.).sum(),
    'index_put': lambda: x.index_put((torch.tensor([0], device='meta'),), torch.tensor(1., device='meta')).sum(),
    'setitem': lambda: (lambda y: (y.__setitem__(0, 5.), y)[1])(x * 1).sum(),
    'normal_like': lambda: torch.normal(x, 1.).sum(),
    'dropout_train': lambda: F.dropout(x, 0.3, training=True).sum(),
    'embedding': lambda: F.embedding(torch.tensor([0, 1], device='meta'), x).sum(),
    'one_hot_mul': lambda: (x * F.one_hot(torch.tensor([0, 1], device='meta'), 3)).sum(),
    'pad': lambda: F.pad(x, (1, 1)).sum(),
    'softmax': lambda: x.softmax(1)[:, 0].sum(),
    'hardtanh': lambda: F.hardtanh(x).sum(),
    'leaky': lambda: F.leaky_relu(x).sum(),
}
for k, f in ops.items():
    x.grad = None
    try:
        out = f()
        out.backward()
        g, = torch.autograd.grad(f(), x, create_graph=True)
        print(k, out.grad_fn.name(), x.grad, g.grad_fn.name() if g.grad_fn else None)
    except Exception as e:
        print(k, type(e).__name__, str(e)[:150])
'''

PROGRAMS['meta_leaf_grad_layouts_and_versions'] = PRE + r'''
x = torch.randn(2, 3, device='meta', requires_grad=True)
x.sum().backward()
print(x.grad, x.grad.stride(), x.grad._version, x.grad.is_contiguous())
x.grad = None
(x + 0).sum().backward()
print(x.grad, x.grad._version)
x.grad = None
x.t().backward(torch.ones(3, 2, device='meta'))
print(x.grad, x.grad.stride(), x.grad._version)
x.grad = None
x.backward(torch.ones(3, 2, device='meta').t())
print(x.grad, x.grad.stride(), x.grad._version)
w = torch.randn(3, 2, device='meta').t().requires_grad_()
w.sum().backward()
print(w.grad, w.grad.stride())
w.sum().backward()
print(w.grad, w.grad.stride(), w.grad._version)
e = torch.randn(3, device='meta').expand(2, 3).requires_grad_()
print(e.stride(), e.is_leaf)
e.sum().backward()
print(e.grad, e.grad.stride())
xs = x.unbind(1)
(xs[0] * 2).sum().backward()
print(x.grad)
y = x * 1
y[1] = 0.
y[:, 0] = 2.
y.sum().backward()
print(x.grad, y.grad_fn.name())
'''

PROGRAMS['meta_piecewise_trace_clamp_tanh_rot90_backward'] = PRE + r'''
import torch.nn.functional as F
x = torch.randn(3, 4, device='meta', requires_grad=True)
ops = {
    'trace': lambda: x[:, :3].trace(),
    'clamp_tensor_min': lambda: x.clamp(min=x.flip(0)),
    'clamp_tensor_max': lambda: torch.clamp(x, max=x * 2),
    'tanhshrink': lambda: F.tanhshrink(x),
    'tanh': lambda: x.tanh(),
    'copysign': lambda: x.copysign(-x),
    'rot90': lambda: x.rot90(),
    'transpose_grad': lambda: x.t().contiguous(),
    'masked_scatter': lambda: torch.zeros(3, 4, device='meta').masked_scatter(x > 0, x),
    'fmod_tensor': lambda: x.fmod(x + 3),
    'cumprod': lambda: x.cumprod(1),
    'cumprod_dim0': lambda: x.cumprod(0)[1:],
}
for k, f in ops.items():
    x.grad = None
    out = f()
    out.sum().backward()
    g, = torch.autograd.grad(f().sum(), x, create_graph=True)
    print(k, out.grad_fn.name(), x.grad, x.grad.stride(), g.grad_fn.name() if g.grad_fn else None)
'''

PROGRAMS['break_manual_sgd_rebinding_leaf'] = PRE + r'''
x = torch.tensor([1.0, -2.0], requires_grad=True)
lr = 0.1
for step in range(3):
    loss = (x ** 2).sum()
    try:
        loss.backward()
        print(step, loss.item(), x.is_leaf, x.grad)
        x = x - lr * x.grad
    except Exception as e:
        print(step, type(e).__name__, e)
        break
x = torch.tensor([1.0, -2.0], requires_grad=True)
loss = (x ** 2).sum()
loss.backward()
E(lambda: x.sub_(lr * x.grad))
def bad_step():
    global x
    x -= lr * x.grad
E(bad_step)
with torch.no_grad():
    x = x - lr * x.grad
print(x, x.requires_grad, x.is_leaf)
E(lambda: (x ** 2).sum().backward())
x = torch.tensor([1.0, -2.0], requires_grad=True)
for step in range(3):
    loss = (x ** 2).sum()
    loss.backward()
    with torch.no_grad():
        x -= lr * x.grad
    print(step, loss.item(), x, x.grad, x._version)
    x.grad = None
'''

PROGRAMS['break_numpy_item_and_copy_construct'] = PRE + r'''
import numpy as np
x = torch.tensor([1.5, 2.5], requires_grad=True)
y = x * 2
E(lambda: x.numpy())
E(lambda: y.numpy())
E(lambda: np.array(y))
E(lambda: np.asarray(x))
print(y.detach().numpy(), y.tolist(), y[0].item(), float(y[1]))
loss = (y ** 2).sum().item()
print(type(loss).__name__, loss)
E(lambda: loss.backward())
t = W(lambda: torch.tensor(y))
print(t, t.requires_grad, t.grad_fn)
t2 = W(lambda: torch.tensor(x))
print(t2.requires_grad, t2.is_leaf)
t3 = W(lambda: torch.as_tensor(y))
print(t3 is y, t3.grad_fn)
t4 = W(lambda: torch.Tensor(y))
print(t4.requires_grad, t4.grad_fn)
t5 = W(lambda: x.new_tensor(y))
print(t5.requires_grad)
t6 = torch.tensor([x[0], x[1]])
print(t6, t6.requires_grad)
t7 = torch.stack([x[0], x[1]])
print(t7, t7.grad_fn)
n = np.float32(2.0) * x
print(n, type(n).__name__)
m = x * np.float64(2.0)
print(m, m.dtype)
E(lambda: np.ones(2) + x.detach())
E(lambda: np.ones(2) * x)
'''

PROGRAMS['break_inplace_after_forward_then_backward_again'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
w = torch.tensor([0.5, -1., 2.], requires_grad=True)
y = (x * w).sum()
y.backward(retain_graph=True)
print(x.grad, w.grad)
with torch.no_grad():
    w.mul_(2)
print(w._version)
E(lambda: y.backward(retain_graph=True))
E(lambda: torch.autograd.grad(y, x, retain_graph=True))
E(lambda: torch.autograd.grad(y, w))
w.grad = None
h = w.exp()
h2 = h * x
with torch.no_grad():
    x[0] = 10.
E(lambda: h2.sum().backward())
w2 = torch.ones(3, requires_grad=True)
z = w2 ** 2
w2.data[0] = 5.
z.sum().backward()
print(w2.grad)
p = w2.sigmoid()
w2.data = torch.zeros(3)
p.sum().backward()
print(w2.grad)
s = torch.ones(3, requires_grad=True)
o = s.sigmoid()
o.data.fill_(0.5)
o.sum().backward()
print(s.grad)
'''

PROGRAMS['break_inference_mode_results_in_training'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
with torch.inference_mode():
    y = x * 2
    print(y.requires_grad, y.is_inference(), x.is_inference())
E(lambda: y.sum().backward())
E(lambda: (y * x).sum().backward())
z = y.clone()
print(z.is_inference(), z.requires_grad)
E(lambda: y.requires_grad_())
E(lambda: y.add_(1))
E(lambda: torch.autograd.grad((x * y).sum(), x))
print(torch.autograd.grad((x * z).sum(), x))
with torch.inference_mode():
    w = torch.ones(2, requires_grad=True)
print(w.requires_grad, w.is_leaf, w.is_inference())
E(lambda: (w * 2).sum().backward())
print(w.grad)
with torch.no_grad():
    v = x * 2
print(v.is_inference(), v.requires_grad)
v.add_(1)
print(v)
@torch.inference_mode()
def predict(t):
    return t * 3
r = predict(x)
print(r, r.requires_grad, r.is_inference())
E(lambda: r.backward(torch.ones(2)))
'''

PROGRAMS['vjp_complex_v_through_complex_graphs_bits'] = PRE + r'''
torch.manual_seed(13)
x = torch.randn(3, requires_grad=True)
w = torch.randn(3, requires_grad=True)
v = torch.randn(3, dtype=torch.complex64)
cases = {
    'mul_c': lambda: x * (1 + 2j),
    'complex': lambda: torch.complex(x, w),
    'polar': lambda: torch.polar(x.abs(), w),
    'exp_c': lambda: torch.complex(x, w).exp(),
    'view_as_complex': lambda: torch.view_as_complex(torch.stack([x, w], -1)),
    'to_c': lambda: x.to(torch.complex64) * w,
    'conj_mul': lambda: torch.complex(x, w).conj() * torch.complex(w, x),
    'sq': lambda: torch.complex(x, w) ** 2,
    'recip': lambda: torch.complex(x, w).reciprocal(),
}
for k, f in cases.items():
    x.grad = w.grad = None
    y = f()
    y.backward(v)
    print(k, y.grad_fn.name(), x.grad.tolist(), None if w.grad is None else w.grad.tolist())
z = torch.complex(x, w)
r = torch.view_as_real(z)
r.backward(torch.ones(3, 2))
print(x.grad, w.grad)
a = torch.complex(x, w).abs()
a.backward(torch.ones(3))
print(x.grad.tolist(), w.grad.tolist())
E(lambda: torch.complex(x, w).real.backward(torch.ones(3, dtype=torch.complex64)))
'''

PROGRAMS['dyn_closures_generators_and_accumulators'] = PRE + r'''
def make_model():
    w = torch.tensor([0.5, -0.5], requires_grad=True)
    def model(x):
        return (x * w).sum()
    return model, w
model, w = make_model()
out = model(torch.tensor([1., 2.]))
print(out, out.grad_fn, out.grad_fn.next_functions[0][0].next_functions)
out.backward()
print(w.grad)
with torch.no_grad():
    out2 = model(torch.tensor([3., 4.]))
print(out2, out2.requires_grad)
def steps(x, n):
    for i in range(n):
        x = x * 2 + i
        yield x
x = torch.tensor(1., requires_grad=True)
outs = list(steps(x, 3))
print(outs)
outs[-1].backward(retain_graph=True)
print(x.grad)
outs[0].backward()
print(x.grad)
E(lambda: outs[1].backward())
gen = steps(x, 2)
first = next(gen)
with torch.no_grad():
    second = next(gen)
print(first.grad_fn, second.grad_fn, second.requires_grad)
@torch.no_grad()
def gen_ng(t):
    yield t * 2
    yield t * 3
print([o.requires_grad for o in gen_ng(x)])
class Acc:
    def __init__(self):
        self.total = 0
    def __call__(self, t):
        self.total = self.total + t
        return self.total
acc = Acc()
for i in range(3):
    acc(x * i)
print(acc.total, acc.total.grad_fn)
acc.total.backward()
print(x.grad)
'''

PROGRAMS['meta_complex_conj_and_neg_views'] = PRE + r'''
c = torch.ones(2, 3, device='meta', dtype=torch.complex64, requires_grad=True)
y = c.conj()
print(y, y.is_conj(), y.grad_fn, y._base is c, y.requires_grad)
z = y * c
print(z, z.grad_fn.next_functions)
z.abs().sum().backward()
print(c.grad, c.grad.is_conj())
r = c.real
i = c.imag
print(r, i, r._base is c, i.grad_fn)
(r.sum() + i.sum()).backward()
print(c.grad)
n = torch._neg_view(c.detach())
print(n, n.is_neg())
print(c.conj().imag, c.conj().imag.is_neg())
print(c.resolve_conj().is_conj(), y.resolve_conj(), y.conj_physical())
q = torch.view_as_real(c.detach())
print(q, q.shape)
torch.set_printoptions(precision=2, sci_mode=True, linewidth=40)
print(c, y, c.grad)
torch.set_printoptions(profile='default')
'''

PROGRAMS['requires_grad_keyword_and_arity_mistakes'] = PRE + r'''
x = torch.ones(2)
E(lambda: x.requires_grad_(requires_grad=None))
E(lambda: x.requires_grad_(foo=1))
E(lambda: x.requires_grad_(True, False))
E(lambda: x.requires_grad_(True, requires_grad=True))
E(lambda: x.requires_grad_(requires_grad=False))
print(x.requires_grad)
E(lambda: x.requires_grad_(requires_grad=True))
print(x.requires_grad)
'''

PROGRAMS['meta_as_strided_backward_geometries'] = PRE + r'''
x = torch.randn(3, 4, device='meta', requires_grad=True)
for args in (((2, 2), (1, 2)), ((2, 2), (1, 2), 1), ((3, 3), (1, 1)), ((2,), (0,)), ((0, 2), (1, 1))):
    x.grad = None
    y = x.as_strided(*args)
    y.sum().backward()
    print(args, y.grad_fn.name(), x.grad, x.grad.stride())
    g, = torch.autograd.grad(x.as_strided(*args).sum(), x, create_graph=True)
    print(g, g.grad_fn)
w = torch.randn(4, 3, device='meta').t().requires_grad_()
w.as_strided((2, 2), (3, 1)).sum().backward()
print(w.grad, w.grad.stride())
'''

PROGRAMS['meta_normalization_layers_backward'] = PRE + r'''
import torch.nn.functional as F
x = torch.randn(2, 4, 3, device='meta', requires_grad=True)
w = torch.ones(4, device='meta', requires_grad=True)
b = torch.zeros(4, device='meta', requires_grad=True)
ops = {
    'group_norm': lambda: F.group_norm(x, 2),
    'group_norm_affine': lambda: F.group_norm(x, 2, w, b),
    'layer_norm': lambda: F.layer_norm(x, (3,)),
    'batch_norm': lambda: F.batch_norm(x, None, None, w, b, training=True),
    'instance_norm': lambda: F.instance_norm(x),
}
for k, f in ops.items():
    x.grad = w.grad = b.grad = None
    out = f()
    out.sum().backward()
    print(k, out.grad_fn.name(), x.grad, w.grad, b.grad)
    g = torch.autograd.grad(f().pow(2).sum(), x, create_graph=True)[0]
    print(g.grad_fn.name() if g.grad_fn else None, g.requires_grad)
'''


@pytest.fixture(autouse=True, scope="module")
def _backward_with_gradient_warmed_up():
    """PyTorch's first ``backward(gradient)`` imports its symbolic-shapes module (sympy: seconds), its first
    ``pow`` of a meta tensor its Python meta kernels: done here, so that no program's time depends on whether it is
    the first to do so."""
    torch = pytest.importorskip("torch")
    (torch.ones(2, requires_grad=True) * 2).backward(torch.ones(2))
    torch.ones(2, device="meta") ** 2


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    # (catch_warnings restores the filters and showwarning the prelude replaces; fresh_warn_once: the warnings
    # given once per process are given whatever ran before in this process)
    with warnings.catch_warnings(), fresh_warn_once():
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
