"""Parity programs from a nineteenth hunt: programs a student writes from PyTorch's autograd tutorials and notes.

"A Gentle Introduction to torch.autograd", "Automatic Differentiation with torch.autograd", "Understanding
requires_grad, retain_grad, Leaf, and non-leaf Tensors", the autograd mechanics notes (saved tensors, in-place
correctness checks, hooks on saved tensors, backward hooks' order, multithreading, complex autograd), "Extending
PyTorch" (custom Function, setup_context, forward-mode AD and vmap of a Function, modules on a Function, Tensor
subclasses), "Double Backward with Custom Functions", "Forward-mode Automatic Differentiation", torch.func's
jacobians, hessians and per-sample gradients, and the Chinese notes in /work/shared/seeds, each varied as a student
does: other dtypes (float64, half, integer inputs, complex), 0-dim and empty shapes, broadcasting, printing
(tensors, grad_fn, next_functions, _saved_* attributes, output_nr, _version), mistakes and their errors, calls made
twice, grad modes mixed; and the last bits of common gradients, float32 and float64 (activations, losses, norms,
convolutions). Each program must print exactly what PyTorch prints (hunt14's harness: ``parity.run_both``
with hunt13's ``E``/``W`` helpers, every warning also printed on stdout). Programs marked "fixed:" printed something
different from PyTorch before this hunt's fix.
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE

PROGRAMS: dict[str, str] = {}

# ---- tutorials: "A Gentle Introduction", "Automatic Differentiation", requires_grad / retain_grad / leaves

PROGRAMS['gi_gentle_intro_q_variants'] = PRE + r'''
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3*a**3 - b**2
print(Q, Q.grad_fn, Q.grad_fn.next_functions)
print(Q.grad_fn.next_functions[0][0].next_functions, Q.grad_fn.next_functions[1][0]._saved_self)
print(Q.grad_fn.next_functions[0][0]._saved_other, Q.grad_fn.next_functions[0][0]._saved_self)
p = Q.grad_fn.next_functions[0][0].next_functions[0][0]
print(p, p._saved_exponent, type(p._saved_exponent), p._saved_self is a)
E(lambda: Q.backward())
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)
print(9*a**2 == a.grad, -2*b == b.grad)
E(lambda: Q.backward(gradient=external_grad))
a64 = torch.tensor([2., 3.], dtype=torch.float64, requires_grad=True)
Q2 = 3*a64**3 - b**2
print(Q2.dtype, Q2.grad_fn.next_functions)
Q2.backward(torch.tensor([1, 2]))
print(a64.grad, b.grad)
E(lambda: torch.tensor([2, 3], requires_grad=True))
E(lambda: (3*a**3).backward(torch.ones(3)))
E(lambda: (3*a**3).backward(torch.ones(1, 2)))
Q3 = (a**3).sum()
Q3.backward(torch.tensor(2.))
print(a.grad)
'''

PROGRAMS['ad_tutorial_bce_and_eye'] = PRE + r'''
torch.manual_seed(0)
x = torch.ones(5)
y = torch.zeros(3)
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w)+b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print(f"Gradient function for z = {z.grad_fn}")
print(f"Gradient function for loss = {loss.grad_fn}")
print(loss.grad_fn.next_functions, loss.grad_fn._saved_reduction, loss.grad_fn._saved_pos_weight)
print(loss.grad_fn._saved_weight, loss.grad_fn._saved_target)
loss.backward()
print(w.grad)
print(b.grad)
with torch.no_grad():
    z = torch.matmul(x, w)+b
print(z.requires_grad, z.grad_fn)
z_det = (torch.matmul(x, w)+b).detach()
print(z_det.requires_grad, z_det.is_leaf)
inp = torch.eye(4, 5, requires_grad=True)
out = (inp+1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")
print(out.grad_fn, out.grad_fn.next_functions, out.grad_fn.next_functions[0][0]._saved_exponent)
'''

PROGRAMS['rg_leaf_nonleaf_retain_grad'] = PRE + r'''
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0)
c = a * b
d = c.clone()
print(a.is_leaf, b.is_leaf, c.is_leaf, d.is_leaf)
print(a.retains_grad, c.retains_grad)
c.retain_grad()
c.retain_grad()
print(c.retains_grad)
E(lambda: b.retain_grad())
a.retain_grad()
print(a.retains_grad)
d.backward()
print(a.grad, b.grad, c.grad, d.grad)
e = a.detach().requires_grad_()
print(e.is_leaf, e.requires_grad, e.grad_fn)
f = a.clone().detach()
print(f.is_leaf, f.requires_grad)
E(lambda: c.requires_grad_(False))
c2 = c.detach()
c2.requires_grad = True
print(c2.is_leaf)
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.retain_grad()
z = y.sum()
z.backward(retain_graph=True)
z.backward()
print(y.grad, x.grad)
print(y.grad_fn.name(), z.grad_fn.name(), z.grad_fn.metadata)
'''

PROGRAMS['rg_grad_of_nonleaf_warnings_and_int_tensors'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
print(y.grad)
y.sum().backward()
print(x.grad)
i = torch.tensor([1, 2, 3])
E(lambda: i.requires_grad_())
print(i.requires_grad, (i * x).dtype, (i * x).requires_grad, (i * x).grad_fn)
print(torch.autograd.grad((i * x).sum(), x))
b = torch.tensor([True, False])
E(lambda: b.requires_grad_())
f = torch.tensor([1., 2.]).half().requires_grad_()
g = (f * f).sum()
print(g, g.dtype)
g.backward()
print(f.grad, f.grad.dtype)
c = torch.zeros(3, dtype=torch.complex64, requires_grad=True)
print(c.requires_grad, c.is_leaf, c.grad)
E(lambda: torch.zeros(3, dtype=torch.long, requires_grad=True))
E(lambda: torch.arange(3, requires_grad=True))
print(torch.arange(3., requires_grad=True))
x2 = x.long()
print(x2.requires_grad, x2.grad_fn, x.to(torch.float64).grad_fn)
E(lambda: x.long().sum().backward())
r = x.round()
r.sum().backward()
print(x.grad)
'''

PROGRAMS['er_student_mistakes_backward'] = PRE + r'''
x = torch.tensor([1., 2.])
E(lambda: x.sum().backward())
E(lambda: x.register_hook(lambda g: g))
E(lambda: torch.autograd.grad(x.sum(), x))
w = torch.tensor([1., 2.], requires_grad=True)
E(lambda: (w * 2).backward())
E(lambda: torch.autograd.grad(w * 2, w))
E(lambda: torch.autograd.grad((w * 2).sum(), [w, x]))
E(lambda: torch.autograd.grad((w * 2).sum(), w * 1))
E(lambda: torch.autograd.grad([(w * 2).sum()], w, grad_outputs=[torch.ones(1), torch.ones(1)]))
E(lambda: (w * 2).sum().backward(inputs=[]))
E(lambda: (w * 2).sum().backward(inputs=[x]))
E(lambda: w.grad.zero_())
E(lambda: w.backward())
w.sum().backward()
E(lambda: w.grad.requires_grad_())
print(w.grad)
E(lambda: setattr(w, 'grad', torch.ones(3)))
E(lambda: setattr(w, 'grad', torch.ones(2, dtype=torch.float64)))
E(lambda: setattr(w, 'grad', torch.ones(2, dtype=torch.long)))
E(lambda: setattr(w, 'grad', [1., 2.]))
E(lambda: setattr(w, 'grad_fn', None))
E(lambda: setattr(w, 'is_leaf', False))
E(lambda: setattr(w * 2, 'requires_grad', False))
E(lambda: torch.tensor([1., 2.], requires_grad=True).numpy())
E(lambda: torch.tensor([1., 2.], requires_grad=True).tolist())
E(lambda: float(torch.tensor([1., 2.], requires_grad=True)))
print(float(torch.tensor([3.], requires_grad=True)), int(torch.tensor(2.5, requires_grad=True)))
'''

PROGRAMS['er_double_backward_and_retain_mistakes'] = PRE + r'''
x = torch.tensor(2., requires_grad=True)
y = x ** 3
g, = torch.autograd.grad(y, x, create_graph=True)
print(g, g.grad_fn, g.grad_fn.next_functions)
g2, = torch.autograd.grad(g, x, create_graph=True)
g3, = torch.autograd.grad(g2, x)
print(g2, g3)
E(lambda: torch.autograd.grad(g3, x))
E(lambda: torch.autograd.grad(y, x))
z = x.exp()
z.backward(create_graph=True)
print(x.grad, x.grad.grad_fn)
x.grad = None
w = x.sin() * x
w.backward(retain_graph=True)
first = x.grad.clone()
w.backward()
print(first, x.grad)
E(lambda: w.backward())
q = x.tanh()
torch.autograd.backward([q], [torch.tensor(2.)])
print(x.grad)
E(lambda: torch.autograd.backward([q], [torch.tensor(2.)]))
r = x * 3
E(lambda: torch.autograd.backward(r, grad_tensors=torch.ones(2)))
E(lambda: torch.autograd.backward([r, r], [torch.tensor(1.)]))
'''

PROGRAMS['vx_variable_legacy_and_data'] = PRE + r'''
from torch.autograd import Variable
v = Variable(torch.tensor([1., 2.]), requires_grad=True)
print(v, type(v).__name__, v.requires_grad, isinstance(v, torch.Tensor))
w = v * 2
print(w.data, w.data.requires_grad, w.data.grad_fn)
w.data.fill_(0)
print(w, w._version)
d = v.data
d.add_(10)
print(v, v._version)
w.sum().backward()
print(v.grad)
print(v.type(), v.double().type(), v.data.type())
print(v.detach().requires_grad, v.detach_ if False else None)
E(lambda: Variable([1., 2.]))
u = v.clone()
u.detach_()
print(u.requires_grad, u.grad_fn, u.is_leaf)
t = v[0]
E(lambda: t.detach_())
v.data = torch.tensor([5., 6., 7.])
print(v, v.grad)
E(lambda: setattr(v, 'data', [1.]))
'''


# ---- autograd mechanics: saved tensors, in-place checks, hooks on saved tensors, hook order, grad modes, threads

PROGRAMS['sv_saved_tensors_identity'] = PRE + r'''
x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(x.equal(y.grad_fn._saved_self))
print(x is y.grad_fn._saved_self)
y = x.exp()
print(y.equal(y.grad_fn._saved_result))
print(y is y.grad_fn._saved_result)
z = torch.tensor(3., requires_grad=True)
w = z.pow(torch.tensor(2.))
print(w.grad_fn, w.grad_fn._saved_self, w.grad_fn._saved_exponent)
u = z ** 2.5
print(u.grad_fn._saved_exponent, type(u.grad_fn._saved_exponent))
u2 = z ** 2
print(u2.grad_fn._saved_exponent, type(u2.grad_fn._saved_exponent))
v = 2 ** z
print(v.grad_fn, v.grad_fn._saved_self, v.grad_fn._saved_result, v.grad_fn._saved_exponent)
r = z.sqrt()
print(r.grad_fn._saved_result is r, r.grad_fn._saved_result)
s = torch.sigmoid(z)
print(s.grad_fn._saved_result.grad_fn, s.grad_fn._saved_result.requires_grad)
t = z.tanh()
print(t.grad_fn._saved_result.equal(t))
print(t.grad_fn._raw_saved_result)
'''

PROGRAMS['ip_inplace_correctness_student'] = PRE + r'''
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a.sin()
c = b.sin_()
print(b is c, b.grad_fn, b._version)
c.sum().backward()
print(a.grad)
a.grad = None
b = a.exp()
b.mul_(2)
print(b.grad_fn, b._version)
E(lambda: b.sum().backward())
b = a.sigmoid()
b2 = b * 1
b.add_(1)
E(lambda: b2.sum().backward())
x = a * 1
y = x.cos()
x.zero_()
E(lambda: y.sum().backward())
x = a * 1
y = x.pow(2)
x[1] = 0
E(lambda: y.sum().backward())
x = a.double()
y = x.relu()
y.add_(1)
E(lambda: y.sum().backward())
x = a.clone()
y = x.tanh()
y.mul_(2)
E(lambda: y.sum().backward())
'''

PROGRAMS['sh_saved_tensor_hooks_student'] = PRE + r'''
x = torch.randn(5, requires_grad=True)
y = x.pow(2)
y.grad_fn._raw_saved_self.register_hooks(lambda t: print('pack', t.shape) or t, lambda t: print('unpack') or t)
print(y.grad_fn._saved_self.equal(x))
E(lambda: y.grad_fn._raw_saved_self.register_hooks(lambda x: x, lambda x: x))
def pack_hook(t):
    print("Packing", t.shape, t.requires_grad)
    return t
def unpack_hook(t):
    print("Unpacking", t.shape)
    return t
a = torch.ones(5, requires_grad=True)
b = torch.full((5,), 2., requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b
y.sum().backward()
print(a.grad, b.grad)
def pack_hook2(x):
    return x * 0
with torch.autograd.graph.saved_tensors_hooks(pack_hook2, lambda x: x):
    y = a * b
y.sum().backward()
print(a.grad)
z = a.exp()
E(lambda: z.grad_fn._raw_saved_result.register_hooks(lambda x: x))
E(lambda: z.grad_fn._raw_saved_result.register_hooks(1, 2))
h = z.grad_fn._raw_saved_result
h.register_hooks(lambda t: None, lambda n: torch.zeros(5))
z.sum().backward()
print(a.grad)
'''

PROGRAMS['ho_backward_hooks_execution_order'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = a.mul(2)
c = b.sum()
log = []
b.register_hook(lambda g: log.append(('tensor hook 1', g.tolist())))
b.grad_fn.register_prehook(lambda go: log.append(('prehook', [t.tolist() for t in go])))
b.grad_fn.register_hook(lambda gi, go: log.append(('post hook', [t.tolist() if t is not None else None for t in gi])))
b.register_hook(lambda g: log.append(('tensor hook 2', g.tolist())))
b.retain_grad()
b.register_hook(lambda g: g * 10)
a.register_hook(lambda g: log.append(('leaf hook', g.tolist())))
a.register_post_accumulate_grad_hook(lambda p: log.append(('post acc', p.grad.tolist())))
c.backward()
for e in log:
    print(e)
print(b.grad, a.grad)
h = b.register_hook(lambda g: None)
print(type(h).__name__, h.id >= 0)
h.remove()
h.remove()
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 1
y.register_hook(lambda g: print('hook on y before inplace', g))
y.add_(1)
y.register_hook(lambda g: print('hook on y after inplace', g))
y.sum().backward()
'''

PROGRAMS['gm_no_grad_inference_set_grad_mix'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
with torch.no_grad():
    y = x * 2
    with torch.enable_grad():
        z = x * 2
    with torch.set_grad_enabled(True):
        w = x * 3
print(y.requires_grad, z.requires_grad, w.requires_grad, torch.is_grad_enabled())
with torch.inference_mode():
    a = x * 2
    with torch.no_grad():
        b = x * 2
    with torch.inference_mode(False):
        c = x * 2
print(a.requires_grad, a.is_inference(), b.is_inference(), c.is_inference(), c.requires_grad, c.grad_fn)
E(lambda: a.add_(1))
E(lambda: (a * x).sum().backward())
E(lambda: torch.autograd.grad((a * x).sum(), x))
E(lambda: (a * x).requires_grad)
print((a + x).requires_grad, (a + 1).is_inference(), (a + x).is_inference())
E(lambda: a.requires_grad_())
torch.set_grad_enabled(False)
d = x * 2
torch.set_grad_enabled(True)
print(d.requires_grad, torch.is_inference_mode_enabled())
@torch.no_grad()
def f(t):
    return t * 2
@torch.inference_mode()
def g(t):
    return t * 2
print(f(x).requires_grad, g(x).is_inference(), f.__name__, g.__name__)
with torch.set_grad_enabled(False):
    e = x.sum()
print(e.requires_grad, e.grad_fn, torch.set_grad_enabled(True))
with torch.inference_mode():
    inf = torch.ones(2)
E(lambda: inf.clone().requires_grad_().mul(inf).sum().backward())
print(inf.clone().is_inference(), inf.detach().is_inference(), inf.view(2).is_inference())
'''

PROGRAMS['mt_threads_train_and_grad_mode'] = PRE + r'''
import threading
x = torch.ones(3, requires_grad=True)
out = {}
def worker(name, enable):
    with torch.set_grad_enabled(enable):
        y = x * 2
        out[name] = (y.requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(False)
ts = [threading.Thread(target=worker, args=(str(i), i % 2 == 0)) for i in range(4)]
[t.start() for t in ts]
[t.join() for t in ts]
torch.set_grad_enabled(True)
print(sorted(out.items()))
def train_fn():
    y = (x * 2).sum()
    y.backward()
ts = [threading.Thread(target=train_fn) for _ in range(3)]
[t.start() for t in ts]
[t.join() for t in ts]
print(x.grad)
seen = []
def bg():
    seen.append(torch.is_grad_enabled())
with torch.no_grad():
    t = threading.Thread(target=bg)
    t.start(); t.join()
print(seen)
def inf():
    seen.append(torch.is_inference_mode_enabled())
with torch.inference_mode():
    t = threading.Thread(target=inf)
    t.start(); t.join()
print(seen)
'''

PROGRAMS['am_autograd_meta_fields_printed'] = PRE + r'''
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = x * 2
v = y[0]
parts = y.unbind(0)
q, r = y.split(1, dim=1)
print(x.output_nr, y.output_nr, v.output_nr, [p.output_nr for p in parts], q.output_nr, r.output_nr)
print(v._is_view(), v._base is y, y._is_view(), x._base, parts[1]._base is y)
print(v._version, y._version, x._version)
v.add_(1)
print(v._version, y._version, parts[0]._version, v.grad_fn, y.grad_fn)
print(y.grad_fn.next_functions, v.grad_fn.next_functions)
print(x.grad_fn, x.is_leaf, x.retains_grad, y.retains_grad)
vals, idx = x.max(dim=1)
print(vals.output_nr, idx.output_nr, vals.grad_fn, idx.grad_fn, idx.requires_grad)
print(vals.grad_fn._saved_indices, vals.grad_fn._saved_dim, vals.grad_fn._saved_keepdim, vals.grad_fn._saved_self_sym_sizes)
u = torch.tensor(1., requires_grad=True)
print(u.output_nr, (u * 1).output_nr, u.is_leaf, u._version)
with torch.no_grad():
    u.add_(1)
print(u._version, u)
w = x.detach()
print(w._version, w._is_view(), w._base)
w.zero_()
print(x._version, x)
'''

PROGRAMS['nd_node_reprs_names_and_saved_of_reductions'] = PRE + r'''
x = torch.tensor([[1., 5., 2.], [4., 0., 3.]], requires_grad=True)
for out in [x.sum(), x.sum(1), x.mean(0, keepdim=True), x.amax(1), x.prod(), x.std(), x.var(1), x.norm(), x.logsumexp(1), x.cumsum(0), x.softmax(1), x.log_softmax(0), x.median(), x.min(), x.max(0)[0], x.sort(1)[0], x.topk(2)[0], x.kthvalue(2, 1)[0]]:
    fn = out.grad_fn
    names = sorted(a for a in dir(fn) if a.startswith('_saved_'))
    print(fn.name(), names)
    for n in names:
        v = getattr(fn, n)
        print('   ', n, v if not isinstance(v, torch.Tensor) else (v.dtype, v.shape, v.tolist()))
'''

PROGRAMS['nd_saved_of_indexing_and_shape_ops'] = PRE + r'''
x = torch.arange(6., requires_grad=True)
m = x.view(2, 3)
for out in [m[0], m[:, 1], m[[0, 1], [2, 0]], m[m > 2], m.t(), m.permute(1, 0), m.expand(2, 2, 3), m.reshape(3, 2), m.flatten(), m.unsqueeze(0), m.squeeze(), m.narrow(1, 1, 2), m.gather(1, torch.tensor([[0], [2]])), m.index_select(0, torch.tensor([1])), m.masked_fill(m > 3, 0.), torch.where(m > 2, m, 0.), m.repeat(1, 2), m.roll(1, 1), m.flip(0), m.diagonal(), m.transpose(0, 1), m.select(1, 2), m.unfold(1, 2, 1), m.clamp(1, 4)]:
    fn = out.grad_fn
    names = sorted(a for a in dir(fn) if a.startswith('_saved_'))
    vals = []
    for n in names:
        v = getattr(fn, n)
        vals.append((n, v if not isinstance(v, torch.Tensor) else (v.dtype, v.tolist())))
    print(fn.name(), vals)
'''

PROGRAMS['hk_module_full_backward_hooks_order'] = PRE + r'''
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU(), torch.nn.Linear(2, 1))
log = []
for i, m in enumerate(model):
    m.register_full_backward_pre_hook(lambda mod, go, i=i: log.append(('pre', i, type(mod).__name__, [g.shape if g is not None else None for g in go])))
    m.register_full_backward_hook(lambda mod, gi, go, i=i: log.append(('post', i, [g.shape if g is not None else None for g in gi])))
    m.register_forward_hook(lambda mod, inp, out, i=i: log.append(('fwd', i, out.shape)))
    m.register_forward_pre_hook(lambda mod, inp, i=i: log.append(('fwd pre', i, len(inp))))
x = torch.randn(4, 3)
out = model(x)
print(out.grad_fn)
out.sum().backward()
for e in log:
    print(e)
log.clear()
x.requires_grad_()
model(x).sum().backward()
print([e for e in log if e[0] == 'post'])
h = model[0].register_full_backward_hook(lambda m, gi, go: (gi[0] * 0,))
x.grad = None
model(x).sum().backward()
print(x.grad)
h.remove()
model[2].register_full_backward_hook(lambda m, gi, go: (torch.ones(3),))
E(lambda: model(x).sum().backward())
'''

PROGRAMS['sh_save_on_cpu_and_pack_counts'] = PRE + r'''
counts = {'pack': 0, 'unpack': 0}
def pack(t):
    counts['pack'] += 1
    return (t.shape, t.dtype, t.clone())
def unpack(p):
    counts['unpack'] += 1
    return p[2]
x = torch.tensor([1., 2., 3.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = x.exp()
    z = y * x
    w = z.sin().sum()
print(counts)
print(y.grad_fn._saved_result, counts)
w.backward()
print(x.grad, counts)
with torch.autograd.graph.save_on_cpu(pin_memory=False):
    a = x.pow(3)
print(a.grad_fn._saved_self, a.grad_fn._saved_exponent)
a.sum().backward()
print(x.grad)
with torch.autograd.graph.saved_tensors_hooks(lambda t: 'packed', lambda s: torch.ones(3)):
    b = x * x
print(b.grad_fn._saved_self, b.grad_fn._saved_other)
x.grad = None
b.sum().backward()
print(x.grad)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda s: torch.ones(2)):
    c = x * x
E(lambda: c.sum().backward())
'''

PROGRAMS['sh_empty_and_zero_dim_grads'] = PRE + r'''
e = torch.empty(0, 3, requires_grad=True)
s = e.sum()
print(s, s.grad_fn)
s.backward()
print(e.grad, e.grad.shape)
m = e.mean()
print(m)
m.backward()
print(e.grad)
e2 = torch.zeros(2, 0, requires_grad=True)
out = e2 @ torch.zeros(0, 3)
print(out, out.grad_fn)
out.sum().backward()
print(e2.grad)
z = torch.tensor(5., requires_grad=True)
y = z.expand(3)
print(y, y.grad_fn, y.grad_fn._saved_self_sym_sizes)
y.sum().backward()
print(z.grad)
z.grad = None
y = z.view(1, 1) * torch.ones(2, 3)
y.backward(torch.ones(2, 3))
print(z.grad, z.grad.shape)
z.grad = None
y = z.unsqueeze(0).repeat(4)
y.sum().backward()
print(z.grad)
E(lambda: z.max(0))
print(z.max(0), z.sum(0), z.softmax(0))
e3 = torch.empty(0, requires_grad=True)
print(e3.max(0) if False else None)
E(lambda: e3.max())
E(lambda: e3.amax())
print(e3.prod(), e3.logsumexp(0), e3.std())
'''

PROGRAMS['hk_which_hooks_fire_with_inputs'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = a * 3
c = b.exp()
d = c.sum()
log = []
b.register_hook(lambda g: log.append('b tensor hook'))
b.grad_fn.register_prehook(lambda go: log.append('b node prehook'))
b.grad_fn.register_hook(lambda gi, go: log.append('b node hook'))
c.grad_fn.register_hook(lambda gi, go: log.append('c node hook'))
a.register_hook(lambda g: log.append('a tensor hook'))
g, = torch.autograd.grad(d, b, retain_graph=True)
print(g, log)
log.clear()
d.backward(inputs=[b], retain_graph=True)
print(b.grad, a.grad, log)
log.clear()
d.backward(inputs=[a], retain_graph=True)
print(a.grad, log)
log.clear()
torch.autograd.grad(d, c, retain_graph=True)
print(log)
log.clear()
torch.autograd.grad(d, [a, b], retain_graph=True)
print(log)
'''

PROGRAMS['hk_node_hooks_modify_and_errors'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x.sin()
z = y.pow(2).sum()
h1 = y.grad_fn.register_prehook(lambda go: (go[0] * 2,))
h2 = y.grad_fn.register_hook(lambda gi, go: (gi[0] + 100,))
z.backward(retain_graph=True)
print(x.grad)
h1.remove(); h2.remove()
x.grad = None
z.backward(retain_graph=True)
print(x.grad)
y.grad_fn.register_prehook(lambda go: go[0])
E(lambda: z.backward(retain_graph=True))
z2 = x.cos().sum()
z2.grad_fn.register_hook(lambda gi, go: (gi[0], gi[0]))
E(lambda: z2.backward())
z3 = x.exp().sum()
z3.grad_fn.register_prehook(lambda go: (torch.ones(2),))
E(lambda: z3.backward())
z4 = x.tan().sum()
E(lambda: z4.grad_fn.register_hook(lambda gi: gi))
E(lambda: z4.backward())
z5 = x.tan().sum()
z5.grad_fn.register_hook(lambda *args: print('hook got', len(args)))
z5.backward()
acc = (x * 1).grad_fn.next_functions[0][0]
print(acc, acc.variable is x)
acc.register_prehook(lambda go: print('acc prehook', go))
acc.register_hook(lambda gi, go: print('acc hook', gi, go))
(x * 1).sum().backward()
'''

PROGRAMS['mt_multithread_shared_graph_and_hooks'] = PRE + r'''
import threading
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
errors = []
def run():
    try:
        y.sum().backward(retain_graph=True)
    except RuntimeError as e:
        errors.append(str(e))
ts = [threading.Thread(target=run) for _ in range(4)]
[t.start() for t in ts]
[t.join() for t in ts]
print(errors, torch.allclose(x.grad, 4 * x.exp()))
x.grad = None
names = []
lock = threading.Lock()
def hook(g):
    with lock:
        names.append(threading.current_thread() is threading.main_thread())
    return g
x.register_hook(hook)
def run2():
    (x * 2).sum().backward()
ts = [threading.Thread(target=run2) for _ in range(3)]
[t.start() for t in ts]
[t.join() for t in ts]
print(x.grad, names)
with torch.autograd.set_multithreading_enabled(False):
    (x * 3).sum().backward()
print(x.grad, torch.autograd.is_multithreading_enabled())
'''

PROGRAMS['nd_dir_of_nodes_and_types'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
print([a for a in dir(y.grad_fn) if 'saved' in a])
acc = y.grad_fn.next_functions[0][0]
print([a for a in dir(acc) if 'saved' in a], acc.variable is x)
print(type(y.grad_fn).__name__, type(acc).__name__, isinstance(y.grad_fn, torch.autograd.graph.Node))
print(type(y.grad_fn).__module__, type(acc).__module__)
print(y.grad_fn.next_functions, (x * torch.ones(2)).grad_fn.next_functions)
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
z = F.apply(x)
print(type(z.grad_fn).__name__, z.grad_fn.name(), type(z.grad_fn).__module__ == __name__)
print([a for a in dir(z.grad_fn) if a.startswith('saved')])
print(isinstance(z.grad_fn, torch.autograd.graph.Node), isinstance(z.grad_fn, torch.autograd.function.BackwardCFunction))
print(issubclass(type(y.grad_fn), torch.autograd.graph.Node), isinstance(acc, torch.autograd.graph.Node))
print(y.grad_fn.metadata, type(y.grad_fn.metadata))
y.grad_fn.metadata['k'] = 1
print(y.grad_fn.metadata)
'''

PROGRAMS['nd_ctx_attributes_inside_function'] = PRE + r'''
class Probe(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, k):
        print(type(ctx).__name__, ctx.needs_input_grad)
        print(sorted(n for n in dir(ctx) if n.startswith('save')))
        ctx.k = k
        ctx.save_for_backward(a, b)
        return a * b * k
    @staticmethod
    def backward(ctx, g):
        print('backward needs', ctx.needs_input_grad, ctx.k)
        a, b = ctx.saved_tensors
        return g * b * ctx.k, None, None
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.])
out = Probe.apply(a, b, 2)
print(out, out.grad_fn.needs_input_grad, out.grad_fn.k)
print(len(out.grad_fn.saved_tensors), out.grad_fn.saved_tensors[1])
out.sum().backward()
print(a.grad)
E(lambda: out.grad_fn.saved_tensors)
print(out.grad_fn.k)
E(lambda: Probe.apply(a, b))
E(lambda: Probe.apply(a, b, k=2))
E(lambda: Probe()(a, b, 2))
E(lambda: Probe.forward(None, a, b, 2))
with torch.no_grad():
    o2 = Probe.apply(a, b, 3)
print(o2, o2.grad_fn)
'''

PROGRAMS['hk_full_backward_hook_inplace_relu'] = PRE + r'''
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU(inplace=True))
m[1].register_full_backward_hook(lambda mod, gi, go: print('relu hook', [g.shape for g in gi]))
x = torch.randn(2, 3, requires_grad=True)
E(lambda: m(x))
m2 = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU(inplace=True))
m2[0].register_full_backward_hook(lambda mod, gi, go: print('linear hook', [None if g is None else g.shape for g in gi]))
E(lambda: m2(x))
m3 = torch.nn.ReLU(inplace=True)
m3.register_full_backward_hook(lambda mod, gi, go: print('plain relu hook'))
y = x * 1
E(lambda: m3(y))
m4 = torch.nn.Linear(3, 2)
m4.register_full_backward_hook(lambda mod, gi, go: print('no input grad', gi, go[0].shape))
out = m4(torch.randn(2, 3))
print(out.grad_fn)
out.sum().backward()
class Two(torch.nn.Module):
    def forward(self, a, b):
        return a * 2, b * 3
t = Two()
t.register_full_backward_hook(lambda mod, gi, go: print('two', [None if g is None else g.tolist() for g in gi], [None if g is None else g.tolist() for g in go]))
a = torch.tensor([1.], requires_grad=True)
b = torch.tensor([2.])
oa, ob = t(a, b)
print(oa.grad_fn, ob.grad_fn, ob.requires_grad)
oa.sum().backward()
'''

PROGRAMS['hk_removable_handle_context_and_module_hooks'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
log = []
y = x * 2
with y.register_hook(lambda g: log.append(g.tolist())) as h:
    print(type(h).__name__)
y.sum().backward()
print(log)
lin = torch.nn.Linear(2, 1)
torch.nn.init.ones_(lin.weight)
torch.nn.init.zeros_(lin.bias)
h1 = lin.register_forward_hook(lambda m, i, o: o * 10)
h2 = lin.register_forward_pre_hook(lambda m, i: (i[0] + 1,))
print(lin(x))
h1.remove()
print(lin(x))
h2.remove()
print(lin(x))
h3 = lin.register_forward_hook(lambda m, args, kwargs, out: print('kw', kwargs) , with_kwargs=True)
lin(input=x)
h3.remove()
lin.register_forward_hook(lambda m, i, o: None, always_call=True)
print(len(lin._forward_hooks), len(lin._forward_hooks_always_called))
E(lambda: lin.register_full_backward_hook(lambda m, gi, go: None) and lin.register_backward_hook(lambda m, gi, go: None))
E(lambda: lin(x).sum().backward())
'''

PROGRAMS['gm_grad_modes_reprs_and_flags'] = PRE + r'''
ng = torch.no_grad()
print(type(ng).__name__, torch.is_grad_enabled())
with ng:
    print(torch.is_grad_enabled())
    with ng:
        print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
s = torch.set_grad_enabled(False)
print(torch.is_grad_enabled(), type(s).__name__)
with s:
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
torch.set_grad_enabled(True)
im = torch.inference_mode()
print(torch.is_inference_mode_enabled())
with im:
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
E(lambda: torch.set_grad_enabled())
E(lambda: torch.set_grad_enabled('yes'))
E(lambda: torch.no_grad(True))
E(lambda: torch.inference_mode('x'))
print(torch.inference_mode(mode=False).mode if hasattr(torch.inference_mode(mode=False), 'mode') else 'no attr')
class Model:
    @torch.no_grad()
    def predict(self, t):
        return t * 2
    @torch.enable_grad()
    def train_step(self, t):
        return t * 2
m = Model()
x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    print(m.predict(x).requires_grad, m.train_step(x).requires_grad)
print(m.predict.__name__, m.train_step.__qualname__)
@torch.set_grad_enabled(False)
def f(t):
    return t * 2
print(f(x).requires_grad, torch.is_grad_enabled())
'''


# ---- complex autograd

PROGRAMS['cx_complex_student_grads'] = PRE + r'''
z = torch.tensor([1+1j, -2+0.5j], requires_grad=True)
y = (z * z).abs().sum()
y.backward()
print(z.grad)
z.grad = None
w = z.conj()
print(w.is_conj(), w.grad_fn, w.requires_grad)
(w.real ** 2 + w.imag).sum().backward()
print(z.grad)
E(lambda: (z * 2).backward(torch.ones(2)))
c = torch.tensor(0j, requires_grad=True)
c.abs().backward()
print(c.grad)
d = torch.tensor([3+4j], dtype=torch.complex128, requires_grad=True)
print(torch.autograd.grad(d.abs(), d, torch.ones(1, dtype=torch.float64)))
print(torch.autograd.grad(d.angle().sum(), d))
r = torch.tensor([1., 2.], requires_grad=True)
s = torch.polar(r, torch.tensor([0., 1.5707963]))
print(s.dtype, s.grad_fn)
s.abs().sum().backward()
print(r.grad)
E(lambda: torch.autograd.grad(torch.view_as_complex(torch.ones(2, 3, requires_grad=True)).sum(), z))
q = torch.complex(r, r * 2)
print(q, q.grad_fn, q.grad_fn.next_functions)
print(torch.autograd.grad((q * q.conj()).real.sum(), r))
'''

PROGRAMS['cx_complex_func_transforms_student'] = PRE + r'''
from torch.func import grad, jacrev, jacfwd, vjp
z = torch.tensor([1 + 1j, 2 - 1j])
E(lambda: grad(lambda t: (t * t).sum())(z))
print(grad(lambda t: (t * t.conj()).real.sum())(z))
print(grad(lambda t: t.abs().sum())(z))
E(lambda: jacrev(lambda t: t * (1 + 1j))(torch.tensor([1., 2.])))
E(lambda: jacfwd(lambda t: t * (1 + 1j))(torch.tensor([1., 2.])))
print(jacfwd(lambda t: (t * (1 + 1j)).abs())(torch.tensor([1., 2.])))
E(lambda: jacrev(lambda t: t * 2)(z))
E(lambda: jacfwd(lambda t: t * 2)(z))
E(lambda: jacrev(lambda t: t.abs())(z))
out, fn = vjp(lambda t: t * (1 + 2j), z)
print(out, fn(torch.ones(2, dtype=torch.complex64)))
E(lambda: fn(torch.ones(2)))
x = torch.tensor([1., 2.], requires_grad=True)
c = x * (1 + 1j)
print(c, c.grad_fn)
E(lambda: c.sum().backward())
print(torch.autograd.grad(c.real.sum(), x, retain_graph=True))
c.abs().sum().backward()
print(x.grad)
print(torch.autograd.functional.jacobian(lambda t: (t * (1 + 1j)).abs(), x))
E(lambda: torch.autograd.functional.jacobian(lambda t: t * (1 + 1j), x))
'''

PROGRAMS['cx_conj_bits_views_and_grads'] = PRE + r'''
z = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
c = z.conj()
print(c.is_conj(), c._is_view(), c._base is z, c.grad_fn, c.requires_grad)
r = c.resolve_conj()
print(r.is_conj(), r.grad_fn, r.grad_fn.next_functions)
E(lambda: torch.view_as_real(c))
print(torch.view_as_real(r), torch.view_as_real(r).grad_fn)
(c * c).abs().sum().backward()
print(z.grad, z.grad.is_conj())
z.grad = None
y = c.clone()
print(y.is_conj(), y.grad_fn)
y.real.sum().backward()
print(z.grad, z.grad.is_conj())
z.grad = None
w = z.conj_physical()
print(w.is_conj(), w.grad_fn)
w.imag.sum().backward()
print(z.grad)
z.grad = None
h = z * 1
hc = h.conj()
E(lambda: hc.mul_(2))
print(h, hc, h._version)
hc.sum().abs().backward()
print(z.grad)
a = torch.tensor([1 + 1j], requires_grad=True)
print(torch.autograd.grad(a.conj().real.sum(), a), torch.autograd.grad((a.conj() * 1).imag.sum(), a))
print(torch.autograd.grad((a.conj() * a).real.sum(), a)[0].is_conj())
b = a.conj().detach()
print(b.is_conj(), b.requires_grad, b)
print(torch.is_conj(a.conj().conj()), a.conj().conj().grad_fn)
'''

PROGRAMS['cx_complex_hooks_and_grad_dtypes'] = PRE + r'''
z = torch.tensor([1 + 1j, 2 + 0j], requires_grad=True)
z.register_hook(lambda g: print('hook', g, g.dtype))
y = (z * z).real.sum()
y.backward()
x = torch.tensor([1., 2.], requires_grad=True)
c = torch.complex(x, torch.zeros(2))
c.register_hook(lambda g: print('c hook', g))
c.abs().sum().backward()
print(x.grad)
x.grad = None
d = x.to(torch.complex64)
print(d.grad_fn, d.grad_fn.next_functions)
(d * 1j).imag.sum().backward()
print(x.grad, x.grad.dtype)
x.grad = None
e = x + 1j
print(e.dtype, e.grad_fn)
e.abs().pow(2).sum().backward()
print(x.grad)
E(lambda: setattr(x, 'grad', torch.zeros(2, dtype=torch.complex64)))
q = torch.tensor([1 + 1j], requires_grad=True)
E(lambda: setattr(q, 'grad', torch.zeros(1)))
E(lambda: q.abs().backward(torch.ones(1, dtype=torch.complex64)))
'''

PROGRAMS['cx_conj_views_captured_grads'] = PRE + r'''
a = torch.tensor([1 + 1j, 2 - 1j], requires_grad=True)
c = a.conj()
r = c.real
print(r.grad_fn, r.grad_fn.next_functions, r._base is a)
g, = torch.autograd.grad(r.sum(), c, retain_graph=True)
print(g, g.is_conj())
g2, = torch.autograd.grad(r.sum(), a)
print(g2, g2.is_conj())
d = a.conj()
e = d * (1 + 1j)
gd, = torch.autograd.grad(e.real.sum(), d, retain_graph=True)
print(gd, gd.is_conj())
ga, = torch.autograd.grad(e.real.sum(), a)
print(ga, ga.is_conj())
f = a.conj()
(f.abs() ** 2).sum().backward()
print(a.grad, a.grad.is_conj())
a.grad = None
h = a.conj().conj()
print(h.is_conj(), h.grad_fn, h._base is a)
h.real.sum().backward()
print(a.grad)
k = torch.view_as_real(a)
print(k.grad_fn, k._base is a)
(k ** 2).sum().backward()
print(a.grad)
'''


# ---- custom Function: the notes' Exp and polynomial, extending PyTorch, double backward

PROGRAMS['cf_exp_notes_and_polynomial'] = PRE + r'''
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
print(y, y.grad_fn, y.grad_fn.next_functions, y.is_leaf)
print(y.grad_fn.saved_tensors, y.grad_fn.needs_input_grad)
y.sum().backward()
print(x.grad)
E(lambda: y.grad_fn.saved_tensors)
print(Exp.apply(torch.tensor(1, dtype=torch.float64)))
y0 = Exp.apply(torch.tensor([], requires_grad=True))
print(y0, y0.grad_fn)
class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)
    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)
dtype = torch.float
x = torch.linspace(-1, 1, 5, dtype=dtype)
a = torch.full((), 0.0, dtype=dtype, requires_grad=True)
b = torch.full((), -1.0, dtype=dtype, requires_grad=True)
c = torch.full((), 0.0, dtype=dtype, requires_grad=True)
d = torch.full((), 0.3, dtype=dtype, requires_grad=True)
P3 = LegendrePolynomial3.apply
for t in range(3):
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - torch.sin(x)).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        for p in (a, b, c, d):
            p -= 1e-2 * p.grad
            p.grad = None
    print(t, loss.item())
print(a, b, c, d)
'''

PROGRAMS['db_custom_square_double_backward'] = PRE + r'''
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return grad_out * 2 * x
x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(Square.apply, x))
print(torch.autograd.gradgradcheck(Square.apply, x))
x = torch.tensor([1., 2.], requires_grad=True)
y = Square.apply(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.grad_fn, g.grad_fn.next_functions)
gg, = torch.autograd.grad(g.sum(), x)
print(gg)
y = Square.apply(x)
g, = torch.autograd.grad(y.sum(), x)
print(g.requires_grad, g.grad_fn)
E(lambda: torch.autograd.grad(g.sum(), x))
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = torch.exp(x)
        ctx.save_for_backward(result)
        return result
    @staticmethod
    def backward(ctx, grad_out):
        result, = ctx.saved_tensors
        return result * grad_out
x = torch.tensor(1., requires_grad=True, dtype=torch.double).clone()
print(torch.autograd.gradcheck(Exp.apply, x), torch.autograd.gradgradcheck(Exp.apply, x))
'''

PROGRAMS['db_sinh_save_intermediate_variants'] = PRE + r'''
class Sinh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        expx = torch.exp(x)
        expnegx = torch.exp(-x)
        ctx.save_for_backward(expx, expnegx)
        return (expx - expnegx) / 2, expx, expnegx
    @staticmethod
    def backward(ctx, grad_out, _grad_out_exp, _grad_out_negexp):
        expx, expnegx = ctx.saved_tensors
        grad_input = grad_out * (expx + expnegx) / 2
        grad_input += _grad_out_exp * expx
        grad_input -= _grad_out_negexp * expnegx
        return grad_input
def sinh(x):
    return Sinh.apply(x)[0]
x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(sinh, x), torch.autograd.gradgradcheck(sinh, x))
out = Sinh.apply(torch.tensor([0., 1.], requires_grad=True))
print([o.grad_fn for o in out], [o.requires_grad for o in out], out[0].grad_fn is out[1].grad_fn)
print(out[1].grad_fn.next_functions, out[0].is_leaf)
class SinhBad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        expx = torch.exp(x)
        expnegx = torch.exp(-x)
        ctx.expx = expx
        ctx.expnegx = expnegx
        return (expx - expnegx) / 2
    @staticmethod
    def backward(ctx, grad_out):
        expx = ctx.expx
        expnegx = ctx.expnegx
        grad_input = grad_out * (expx + expnegx) / 2
        return grad_input
def sinh_bad(x):
    return SinhBad.apply(x)
x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(sinh_bad, x))
E(lambda: torch.autograd.gradgradcheck(sinh_bad, x))
print(torch.autograd.gradgradcheck(sinh_bad, x, raise_exception=False))
'''

PROGRAMS['cf_mark_dirty_nondiff_once_diff'] = PRE + r'''
from torch.autograd.function import once_differentiable
class AddOneInplace(torch.autograd.Function):
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
c = AddOneInplace.apply(b)
print(c is b, b._version, b.grad_fn, b.grad_fn.next_functions[0][0].name())
c.sum().backward()
print(a.grad)
E(lambda: AddOneInplace.apply(a))
class NoDirty(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
d = a.clone()
E(lambda: NoDirty.apply(d))
class ArgMaxFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        idx = x.argmax()
        v = x.max()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(x, idx)
        return v, idx
    @staticmethod
    @once_differentiable
    def backward(ctx, gv, gidx):
        x, idx = ctx.saved_tensors
        print('gidx', gidx)
        g = torch.zeros_like(x)
        g[idx] = gv
        return g
x = torch.tensor([1., 3., 2.], requires_grad=True)
v, i = ArgMaxFn.apply(x)
print(v, i, i.requires_grad, i.grad_fn)
g, = torch.autograd.grad(v, x, create_graph=True)
print(g, g.requires_grad, g.grad_fn)
E(lambda: g.sum().backward())
'''

PROGRAMS['cf_exp_inplace_jvp_and_vmap'] = PRE + r'''
import numpy as np
from torch.func import vmap, jvp, jacfwd, grad
class NumpyExp_(torch.autograd.Function):
    @staticmethod
    def forward(x):
        x_np = x.numpy()
        np.exp(x_np, x_np)
        return x
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        ctx.mark_dirty(x)
        ctx.save_for_backward(output)
        ctx.save_for_forward(output)
    @staticmethod
    def backward(ctx, grad_output):
        output, = ctx.saved_tensors
        return NumpyMul.apply(grad_output, output)
    @staticmethod
    def vmap(info, in_dims, x):
        NumpyExp_.apply(x)
        return x, in_dims[0]
    @staticmethod
    def jvp(ctx, x_tangent):
        output, = ctx.saved_tensors
        x_tangent.mul_(output)
        return x_tangent
class NumpyMul(torch.autograd.Function):
    @staticmethod
    def forward(x, y):
        return torch.tensor(np.multiply(x.numpy(), y.numpy()))
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)
    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return g * y, g * x
    @staticmethod
    def vmap(info, in_dims, x, y):
        x_bdim, y_bdim = in_dims
        x = x.movedim(x_bdim, -1) if x_bdim is not None else x.unsqueeze(-1)
        y = y.movedim(y_bdim, -1) if y_bdim is not None else y.unsqueeze(-1)
        return NumpyMul.apply(x, y).movedim(-1, 0), 0
x = torch.tensor([0., 1., 2.])
y = NumpyExp_.apply(x)
print(y is x, x)
a = torch.tensor([0., 1.], requires_grad=True)
b = a.clone()
out = NumpyExp_.apply(b)
print(out is b, out.grad_fn, b._version)
out.sum().backward()
print(a.grad)
print(vmap(NumpyExp_.apply)(torch.zeros(2, 2)))
print(jvp(lambda t: NumpyExp_.apply(t.clone()), (torch.tensor([0., 1.]),), (torch.ones(2),)))
print(vmap(NumpyMul.apply, in_dims=(0, None))(torch.ones(2, 3), torch.arange(3.)))
print(grad(lambda t: NumpyMul.apply(t, t).sum())(torch.tensor([1., 2.])))
'''

PROGRAMS['cf_missing_staticmethod_and_setup_mistakes'] = PRE + r'''
class NoStatic(torch.autograd.Function):
    def forward(ctx, x):
        return x * 2
    def backward(ctx, g):
        return g * 2
x = torch.tensor([1., 2.], requires_grad=True)
y = NoStatic.apply(x)
print(y, y.grad_fn)
y.sum().backward()
print(x.grad)
class OnlyForward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
z = OnlyForward.apply(x)
print(z.grad_fn)
E(lambda: z.sum().backward())
class Both(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: Both.apply(x))
class Setup(torch.autograd.Function):
    @staticmethod
    def forward(x, k):
        return x * k
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, k = inputs
        ctx.k = k
        print('setup', type(inputs).__name__, len(inputs), output.requires_grad, torch.is_grad_enabled())
    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None
w = Setup.apply(x, 3)
print(w, w.requires_grad)
w.sum().backward()
print(x.grad)
class BadSetup(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
E(lambda: BadSetup.apply(x))
class ReturnsNone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return None
    @staticmethod
    def backward(ctx, g):
        return g
print(ReturnsNone.apply(x))
class ReturnsList(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return [x * 2, x * 3]
    @staticmethod
    def backward(ctx, g):
        return g
r = ReturnsList.apply(x)
print(type(r).__name__, r[0].grad_fn if isinstance(r, list) else None)
'''

PROGRAMS['ex_tensor_subclass_autograd'] = PRE + r'''
class MyTensor(torch.Tensor):
    pass
x = torch.tensor([1., 2.], requires_grad=True).as_subclass(MyTensor)
print(type(x).__name__, x.requires_grad, x.is_leaf, x.grad_fn)
y = x * 2
print(type(y).__name__, y.grad_fn, repr(y))
y.sum().backward()
print(x.grad, type(x.grad).__name__)
class Logged(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        name = getattr(func, '__name__', str(func))
        if name not in ('__get__', '__set__', '__repr__', 'grad_fn', '__format__'):
            print('call', name)
        return super().__torch_function__(func, types, args, kwargs or {})
a = torch.tensor([1., 2.]).as_subclass(Logged).requires_grad_()
b = (a * a).sum()
print(type(b).__name__)
b.backward()
print(type(a.grad).__name__)
p = torch.nn.Parameter(torch.ones(2))
print(type(p * 1).__name__, type(p.detach()).__name__, type(p.data).__name__, type(p.clone()).__name__)
class MyParam(torch.nn.Parameter):
    pass
mp = MyParam(torch.ones(2))
print(type(mp).__name__, repr(mp), mp.requires_grad, type(mp * 2).__name__)
m = torch.Tensor._make_subclass(MyTensor, torch.ones(2), True)
print(type(m).__name__, m.requires_grad, m.is_leaf)
'''

PROGRAMS['ex_linear_function_module_variants'] = PRE + r'''
class LinearFunction(torch.autograd.Function):
    @staticmethod
    def forward(input, weight, bias):
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output
    @staticmethod
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs
        ctx.save_for_backward(input, weight, bias)
    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        print('needs', ctx.needs_input_grad)
        return grad_input, grad_weight, grad_bias
class Linear(torch.nn.Module):
    def __init__(self, input_features, output_features, bias=True):
        super().__init__()
        self.input_features = input_features
        self.output_features = output_features
        self.weight = torch.nn.Parameter(torch.empty(output_features, input_features))
        if bias:
            self.bias = torch.nn.Parameter(torch.empty(output_features))
        else:
            self.register_parameter('bias', None)
        self.weight.data.uniform_(-0.1, 0.1)
        if self.bias is not None:
            self.bias.data.uniform_(-0.1, 0.1)
    def forward(self, input):
        return LinearFunction.apply(input, self.weight, self.bias)
    def extra_repr(self):
        return 'input_features={}, output_features={}, bias={}'.format(self.input_features, self.output_features, self.bias is not None)
torch.manual_seed(0)
lin = Linear(3, 2)
print(lin, [n for n, _ in lin.named_parameters()])
x = torch.randn(4, 3, dtype=torch.double)
lin.double()
out = lin(x)
print(out.grad_fn, out.dtype)
out.sum().backward()
print(lin.weight.grad, lin.bias.grad)
nb = Linear(3, 2, bias=False).double()
print(nb, nb.bias)
o2 = nb(x.requires_grad_())
o2.pow(2).sum().backward()
print(x.grad.shape, nb.weight.grad.shape)
print(torch.autograd.gradcheck(LinearFunction.apply, (torch.randn(2, 3, dtype=torch.double, requires_grad=True), torch.randn(4, 3, dtype=torch.double, requires_grad=True), None)))
'''

PROGRAMS['ex_mulconstant_and_scalar_tensor'] = PRE + r'''
class MulConstant(torch.autograd.Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant
    @staticmethod
    def setup_context(ctx, inputs, output):
        tensor, constant = inputs
        ctx.constant = constant
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None
x = torch.tensor([1., 2.], requires_grad=True)
y = MulConstant.apply(x, 5)
print(y, y.grad_fn.constant)
y.sum().backward()
print(x.grad)
c = torch.tensor(3., requires_grad=True)
z = MulConstant.apply(x, c)
print(z, z.grad_fn.next_functions)
z.sum().backward()
print(x.grad, c.grad)
class MyMul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b
    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        return g * b, g * a
w = MyMul.apply(x, torch.tensor(2))
print(w, w.dtype, w.grad_fn.next_functions)
w.sum().backward()
print(x.grad)
E(lambda: MyMul.apply(torch.tensor([1, 2]), torch.tensor([1., 2.], requires_grad=True)).sum().backward())
'''


# ---- forward-mode AD

PROGRAMS['fw_forward_ad_tutorial_variants'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
primal = torch.tensor([1., 2., 3.])
tangent = torch.tensor([1., 0., 0.])
def fn(x, y):
    return x ** 2 + y ** 2
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    print(dual_input)
    plain_tensor = torch.tensor([4., 5., 6.])
    dual_output = fn(dual_input, plain_tensor)
    jvp = fwAD.unpack_dual(dual_output).tangent
    print(fwAD.unpack_dual(dual_output))
    print(jvp, fwAD.unpack_dual(plain_tensor).tangent)
    E(lambda: fwAD.make_dual(primal, torch.ones(2)))
    E(lambda: fwAD.make_dual(primal, torch.ones(3, dtype=torch.float64)))
    E(lambda: fwAD.make_dual(torch.tensor([1, 2]), torch.tensor([1, 2])))
    p, t = fwAD.unpack_dual(dual_output)
    print(p, t, type(fwAD.unpack_dual(dual_output)).__name__)
    d0 = fwAD.make_dual(torch.tensor(2.), torch.tensor(1.))
    print(fwAD.unpack_dual(d0.sin() * d0).tangent, fwAD.unpack_dual(d0.sum()).tangent)
    e = fwAD.make_dual(torch.empty(0), torch.empty(0))
    print(fwAD.unpack_dual(e * 2))
E(lambda: fwAD.make_dual(primal, tangent))
print(fwAD.unpack_dual(dual_output).tangent)
with fwAD.dual_level():
    E(lambda: fwAD.dual_level().__enter__())
'''

PROGRAMS['fw_forward_ad_modules_and_function'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
from torch.func import functional_call
torch.manual_seed(0)
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
print(jvp.shape, jvp[0])
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
tangent = torch.randn(10, 10, dtype=torch.double)
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn(dual_input)
    jvp = fwAD.unpack_dual(dual_output).tangent
print(torch.allclose(jvp, tangent * primal.exp()))
print(torch.autograd.gradcheck(Fn.apply, (primal,), check_forward_ad=True, check_backward_ad=False, check_undefined_grad=False, check_batched_grad=False))
E(lambda: Fn.apply(primal).sum().backward())
'''

PROGRAMS['fw_forward_ad_ops_dtypes_and_views'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    x = fwAD.make_dual(torch.tensor([1., 2., 3.]), torch.tensor([1., 1., 1.]))
    for name, y in [('exp', x.exp()), ('view', x.view(3, 1)), ('t', x[:2]), ('sum', x.sum()), ('mean', x.mean()), ('max', x.max()), ('norm', x.norm()), ('cumsum', x.cumsum(0)), ('double', x.double()), ('clone', x.clone()), ('pow', x ** 2), ('where', torch.where(x > 1, x, -x)), ('softmax', x.softmax(0))]:
        p, t = fwAD.unpack_dual(y)
        print(name, p.dtype, t)
    v = x[1:]
    print(fwAD.unpack_dual(v).tangent._base is fwAD.unpack_dual(x).tangent)
    y = x.clone()
    y[0] = 5.
    print(fwAD.unpack_dual(y))
    z = torch.zeros(3)
    z[1] = x[0] * 4
    print(fwAD.unpack_dual(z).tangent)
    c = fwAD.make_dual(torch.tensor([1 + 1j]), torch.tensor([1j]))
    print(fwAD.unpack_dual(c * c))
    print(fwAD.unpack_dual(c.abs()))
    i = x.long()
    print(fwAD.unpack_dual(i))
    E(lambda: fwAD.make_dual(torch.ones(2), torch.ones(2, dtype=torch.long)))
    E(lambda: fwAD.make_dual(torch.ones(2, dtype=torch.long), torch.ones(2, dtype=torch.long)))
'''

PROGRAMS['fw_functional_api_with_modules'] = PRE + r'''
import torch.func as ft
import torch.autograd.forward_ad as fwAD
from torch.func import functional_call
torch.manual_seed(0)
model = torch.nn.Linear(5, 5)
input = torch.randn(16, 5)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():
    dual_params = {}
    for name, p in params.items():
        dual_params[name] = fwAD.make_dual(p, tangents[name])
    out = functional_call(model, dual_params, input)
    jvp = fwAD.unpack_dual(out).tangent
print(jvp.shape, jvp[0])
x = torch.randn(10)
t = torch.randn(10)
def fn(x, y):
    return x ** 2 + y ** 2
primal_out, tangent_out = ft.jvp(fn, (x, torch.ones(10)), (t, torch.zeros(10)))
print(torch.allclose(tangent_out, 2 * x * t))
func, params2 = ft.functional_init(model) if hasattr(ft, 'functional_init') else (None, None)
print(func)
def f(params):
    return functional_call(model, params, input)
primals = tuple(p.detach() for p in model.parameters())
names = [n for n, _ in model.named_parameters()]
def g(*ps):
    return functional_call(model, dict(zip(names, ps)), input)
tangents2 = tuple(torch.rand_like(p) for p in primals)
_, jvp_out = ft.jvp(g, primals, tangents2)
print(jvp_out.shape, jvp_out.sum())
_, jvp_dict = ft.jvp(f, ({k: v.detach() for k, v in params.items()},), (tangents,))
print(torch.allclose(jvp_dict, jvp))
with fwAD.dual_level():
    print(fwAD.unpack_dual(model.weight).tangent)
    E(lambda: fwAD.make_dual(model.weight, torch.ones(5, 5)).sum())
'''

PROGRAMS['fw_dual_level_nesting_and_enter_exit'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
x = torch.tensor([1., 2.])
lvl = fwAD.enter_dual_level()
print(lvl)
d = fwAD.make_dual(x, torch.ones(2))
print(fwAD.unpack_dual(d.exp()).tangent, fwAD.unpack_dual(d, level=lvl).tangent)
E(lambda: fwAD.enter_dual_level())
fwAD.exit_dual_level()
print(fwAD.unpack_dual(d).tangent)
E(lambda: fwAD.exit_dual_level())
with fwAD.dual_level() as L:
    print(L)
    d2 = fwAD.make_dual(x, torch.tensor([0., 1.]))
    E(lambda: fwAD.make_dual(d2, torch.ones(2)))
    E(lambda: fwAD.make_dual(x, torch.ones(2), level=5))
    E(lambda: fwAD.unpack_dual(d2, level=3))
    print(fwAD.unpack_dual(d2 * d2))
    y = d2.detach()
    print(fwAD.unpack_dual(y).tangent)
    r = torch.tensor([1., 2.], requires_grad=True)
    dr = fwAD.make_dual(r, torch.ones(2))
    out = (dr * dr).sum()
    print(out, fwAD.unpack_dual(out).tangent)
    out.backward()
    print(r.grad)
with fwAD.dual_level():
    e = fwAD.make_dual(torch.tensor(3., dtype=torch.float64), torch.tensor(1., dtype=torch.float64))
    print(fwAD.unpack_dual(e.pow(3)), fwAD.unpack_dual(e.sqrt()).tangent)
'''


# ---- torch.func and torch.autograd.functional: jacobians, hessians, per-sample gradients, vmap

PROGRAMS['fn_jacobians_hessians_student'] = PRE + r'''
from torch.func import jacrev, jacfwd, hessian, vjp, jvp, grad, vmap
torch.manual_seed(0)
D = 4
weight = torch.randn(D, D)
bias = torch.randn(D)
x = torch.randn(D)
def predict(weight, bias, x):
    return torch.nn.functional.linear(x, weight, bias).tanh()
jac = jacrev(predict, argnums=2)(weight, bias, x)
print(jac.shape, jac[0])
jf = jacfwd(predict, argnums=2)(weight, bias, x)
print(torch.allclose(jac, jf))
ft = jacrev(predict, argnums=(0, 1))(weight, bias, x)
print(ft[0].shape, ft[1].shape)
H = hessian(lambda x: predict(weight, bias, x).sum())(x)
print(H.shape)
def hvp(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]
print(hvp(lambda x: x.sin().sum(), (x,), (torch.ones(D),)))
batch_x = torch.randn(3, D)
bj = vmap(jacrev(predict, argnums=2), (None, None, 0))(weight, bias, batch_x)
print(bj.shape)
bj2 = jacrev(predict, argnums=2)(weight, bias, batch_x)
print(bj2.shape)
E(lambda: jacrev(predict, argnums=3)(weight, bias, x))
E(lambda: jacfwd(lambda x: x.item())(x))
print(jacrev(lambda x: x.sum())(torch.tensor(2.)), jacfwd(torch.sin)(torch.tensor(0.)))
print(jacrev(lambda x: x * 2)(torch.zeros(0)).shape)
'''

PROGRAMS['xf_vmap_custom_function_numpy_take'] = PRE + r'''
import numpy as np
from torch.func import vmap, grad
def to_numpy(tensor):
    return tensor.cpu().numpy()
class NumpyTake(torch.autograd.Function):
    @staticmethod
    def forward(x, ind, ind_inv, dim):
        device = x.device
        x = to_numpy(x)
        ind = to_numpy(ind)
        return torch.tensor(np.take(x, ind, axis=dim), device=device)
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ind, ind_inv, dim = inputs
        ctx.save_for_backward(ind, ind_inv)
        ctx.dim = dim
    @staticmethod
    def backward(ctx, grad_output):
        ind, ind_inv = ctx.saved_tensors
        result = NumpyTake.apply(grad_output, ind_inv, ind, ctx.dim)
        return result, None, None, None
    @staticmethod
    def vmap(info, in_dims, x, ind, ind_inv, dim):
        x_bdim, ind_bdim, ind_inv_bdim, _ = in_dims
        logical_dim = x.dim() if x_bdim is None else x_bdim - 1
        dim = dim if dim >= 0 else dim + logical_dim
        def maybe_expand_bdim_at_front(x, x_bdim):
            if x_bdim is None:
                return x.expand(info.batch_size, *x.shape)
            return x.movedim(x_bdim, 0)
        x = maybe_expand_bdim_at_front(x, x_bdim)
        ind = maybe_expand_bdim_at_front(ind, ind_bdim)
        ind_inv = maybe_expand_bdim_at_front(ind_inv, ind_inv_bdim)
        return NumpyTake.apply(x, ind, ind_inv, dim + 1), 0
class NumpySort(torch.autograd.Function):
    @staticmethod
    def forward(x, dim):
        device = x.device
        x = to_numpy(x)
        ind = np.argsort(x, axis=dim)
        ind_inv = np.argsort(ind, axis=dim)
        result = np.take_along_axis(x, ind, axis=dim)
        return (torch.tensor(result, device=device), torch.tensor(ind, device=device), torch.tensor(ind_inv, device=device))
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim = inputs
        _, ind, ind_inv = output
        ctx.mark_non_differentiable(ind, ind_inv)
        ctx.save_for_backward(ind, ind_inv)
        ctx.dim = dim
    @staticmethod
    def backward(ctx, grad_output, _0, _1):
        ind, ind_inv = ctx.saved_tensors
        return NumpyTake.apply(grad_output, ind_inv, ind, ctx.dim), None
x = torch.tensor([[3., 1., 2.], [0., 5., 4.]], requires_grad=True)
y, ind, ind_inv = NumpySort.apply(x, 1)
print(y, ind, ind_inv, y.grad_fn, ind.requires_grad)
(y * torch.tensor([1., 2., 3.])).sum().backward()
print(x.grad)
E(lambda: vmap(NumpySort.apply, in_dims=(0, None))(x.detach(), 0))
t = NumpyTake.apply(torch.arange(6.).view(2, 3), torch.tensor([2, 0, 1]), torch.tensor([1, 2, 0]), 1)
print(t)
print(vmap(NumpyTake.apply, in_dims=(0, None, None, None))(torch.arange(6.).view(2, 3), torch.tensor([2, 0, 1]), torch.tensor([1, 2, 0]), 0))
print(grad(lambda x: NumpyTake.apply(x, torch.tensor([2, 0, 1]), torch.tensor([1, 2, 0]), 0).mul(torch.tensor([1., 2., 3.])).sum())(torch.zeros(3)))
'''

PROGRAMS['ps_per_sample_grads_mlp'] = PRE + r'''
from torch.func import functional_call, vmap, grad
torch.manual_seed(0)
class SimpleMLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(6, 4)
        self.fc2 = torch.nn.Linear(4, 3)
    def forward(self, x):
        x = torch.nn.functional.relu(self.fc1(x))
        return torch.nn.functional.log_softmax(self.fc2(x), dim=-1)
model = SimpleMLP()
data = torch.randn(5, 6)
targets = torch.randint(3, (5,))
def loss_fn(predictions, targets):
    return torch.nn.functional.nll_loss(predictions, targets)
def compute_grad(sample, target):
    sample = sample.unsqueeze(0)
    target = target.unsqueeze(0)
    prediction = model(sample)
    loss = loss_fn(prediction, target)
    return torch.autograd.grad(loss, list(model.parameters()))
per_sample_grads = [compute_grad(data[i], targets[i]) for i in range(5)]
per_sample_grads = list(zip(*per_sample_grads))
per_sample_grads = [torch.stack(shards) for shards in per_sample_grads]
print([g.shape for g in per_sample_grads])
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    targets = target.unsqueeze(0)
    predictions = functional_call(model, (params, buffers), (batch,))
    return loss_fn(predictions, targets)
ft_compute_grad = grad(compute_loss)
ft_compute_sample_grad = vmap(ft_compute_grad, in_dims=(None, None, 0, 0))
ft_per_sample_grads = ft_compute_sample_grad(params, buffers, data, targets)
for per_sample_grad, ft_per_sample_grad in zip(per_sample_grads, ft_per_sample_grads.values()):
    print(per_sample_grad.shape == ft_per_sample_grad.shape, torch.allclose(per_sample_grad, ft_per_sample_grad, atol=3e-3, rtol=1e-5))
print(list(ft_per_sample_grads), ft_per_sample_grads['fc2.bias'][0])
E(lambda: vmap(ft_compute_grad, in_dims=(None, None, 0, 0))(params, buffers, data, targets[:4]))
'''

PROGRAMS['fn_linearize_jvp_vjp_has_aux'] = PRE + r'''
from torch.func import linearize, jvp, vjp, grad, jacfwd, jacrev, hessian
x = torch.tensor([0.5, 1.0, 2.0])
with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    out, jvp_fn = linearize(torch.sin, x)
print(out, jvp_fn(torch.ones(3)), jvp_fn(torch.tensor([1., 0., 0.])))
E(lambda: jvp_fn(torch.ones(2)))
o, t = jvp(lambda a: a.exp() * 2, (x,), (torch.ones(3),))
print(o, t)
o, t, aux = jvp(lambda a: (a.exp(), a.sum()), (x,), (torch.ones(3),), has_aux=True)
print(o, t, aux)
E(lambda: jvp(lambda a: a, x, torch.ones(3)))
E(lambda: jvp(lambda a: a, (x,), (torch.ones(2),)))
E(lambda: jvp(lambda a: a, (x,), (torch.ones(3, dtype=torch.float64),)))
o, f = vjp(lambda a, b: a * b, x, torch.tensor(2.))
print(o, f(torch.ones(3)))
print(hessian(lambda a: (a ** 3).sum())(x))
print(jacfwd(jacrev(lambda a: (a ** 3).sum()))(x))
print(jacrev(jacfwd(lambda a: a.sin()))(torch.tensor(1.)))
print(grad(lambda a: grad(lambda b: b ** 3)(a))(torch.tensor(2.)))
E(lambda: grad(lambda a: a * 2)(x))
E(lambda: grad(lambda a: a.sum())(torch.tensor([1, 2])))
print(jacrev(lambda a: a.int().float() * a)(x))
'''

PROGRAMS['ag_grad_is_grads_batched_student'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x ** 2
I_N = torch.eye(3)
jac, = torch.autograd.grad(y, x, I_N, is_grads_batched=True, retain_graph=True)
print(jac)
def get_vjp(v):
    return torch.autograd.grad(y, x, v, retain_graph=True)
print(torch.stack([get_vjp(v)[0] for v in I_N]))
E(lambda: torch.autograd.grad(y, x, torch.eye(2), is_grads_batched=True, retain_graph=True))
E(lambda: torch.autograd.grad(y, x, torch.ones(3), is_grads_batched=True, retain_graph=True))
g, = torch.autograd.grad(y, x, torch.ones(4, 3), is_grads_batched=True, retain_graph=True)
print(g)
z = x.sum()
print(torch.autograd.grad(z, x, torch.tensor([1., 2.]), is_grads_batched=True, retain_graph=True))
h, = torch.autograd.grad(y, x, I_N, is_grads_batched=True, create_graph=True)
print(h.grad_fn is not None, h.requires_grad)
'''

PROGRAMS['fn_grad_no_grad_interplay_docs'] = PRE + r'''
from torch.func import grad, vmap, jacrev
def f(x):
    with torch.no_grad():
        c = x ** 2
    return x - c
print(grad(f)(torch.tensor(3.)))
with torch.no_grad():
    print(grad(f)(torch.tensor(3.)))
    print(grad(lambda x: x.sin())(torch.tensor(0.)))
with torch.inference_mode():
    E(lambda: grad(lambda x: x.sin())(torch.tensor(0.)))
def g(x):
    with torch.enable_grad():
        return (x ** 2).sum()
print(grad(g)(torch.tensor([1., 2.])))
def h(x):
    y = x.detach() * x
    return y.sum()
print(grad(h)(torch.tensor([1., 2.])))
def k(x):
    torch.set_grad_enabled(False)
    r = x * 2
    torch.set_grad_enabled(True)
    return (r * x).sum()
print(grad(k)(torch.tensor([1., 2.])))
w = torch.tensor([1., 2.], requires_grad=True)
print(grad(lambda x: (x * w).sum())(torch.tensor([3., 4.])))
out = grad(lambda x: (x * w).sum())(torch.tensor([3., 4.]))
print(out.requires_grad)
print(jacrev(lambda x: x * w)(torch.tensor([3., 4.])).requires_grad)
'''

PROGRAMS['fn_grad_inplace_on_captured_errors'] = PRE + r'''
from torch.func import grad, vmap
buf = torch.zeros(3)
def f(x):
    buf.add_(x)
    return x.sum()
E(lambda: grad(f)(torch.ones(3)))
print(buf)
def g(x):
    y = torch.zeros(3)
    y.copy_(x)
    return (y * y).sum()
print(grad(g)(torch.tensor([1., 2., 3.])))
def h(x):
    y = x.clone()
    y[0] = 0.
    return y.pow(2).sum()
print(grad(h)(torch.tensor([1., 2., 3.])))
def k(x):
    x.mul_(2)
    return x.sum()
E(lambda: grad(k)(torch.ones(3)))
t = torch.ones(3)
E(lambda: vmap(lambda r: t.add_(r))(torch.ones(2, 3)))
print(vmap(lambda r: r.add_(1))(torch.ones(2, 3)))
s = torch.ones(2, 3)
vmap(lambda r: r.mul_(2))(s)
print(s)
'''

PROGRAMS['fn_jacrev_has_aux_chunk'] = PRE + r'''
from torch.func import jacrev, jacfwd, hessian, vmap
def f(x):
    y = x.sin()
    return y, {'cos': x.cos(), 'n': x.sum()}
x = torch.tensor([0., 1., 2.])
j, aux = jacrev(f, has_aux=True)(x)
print(j, aux)
j2, aux2 = jacfwd(f, has_aux=True)(x)
print(torch.allclose(j, j2), aux2['n'])
print(jacrev(torch.sin, chunk_size=1)(x))
print(jacrev(torch.sin, chunk_size=2)(x))
E(lambda: jacrev(torch.sin, chunk_size=0)(x))
print(jacfwd(torch.sin, randomness='same')(x))
E(lambda: jacrev(f)(x))
E(lambda: jacrev(lambda x: (x, 1), has_aux=True)(x))
E(lambda: jacrev(lambda x: [x, x * 2])(x))
print(jacrev(lambda x: [x, x * 2])(x)[1])
print(jacrev(lambda a, b: a * b, argnums=(0, 1))(x, torch.ones(3))[1])
print(jacrev(lambda d: d['a'] * 2)({'a': torch.ones(2)}))
h, haux = hessian(lambda x: (x.sum() ** 2, x.mean()), has_aux=True)(x) if False else (None, None)
print(hessian(lambda x: (x ** 3).sum(), argnums=0)(x))
E(lambda: jacfwd(lambda x: x.sin(), argnums=(0, 0))(x))
'''

PROGRAMS['ag_functional_api_strategies_dtypes'] = PRE + r'''
from torch.autograd.functional import jacobian, hessian, jvp, vjp, hvp, vhp
def f(x, y):
    return x * y.sum(), (x ** 2).sum()
x = torch.tensor([1., 2.], dtype=torch.float64)
y = torch.tensor([3., 4., 5.], dtype=torch.float64)
J = jacobian(f, (x, y))
print(type(J).__name__, len(J), [type(j).__name__ for j in J], J[0][1], J[1][0])
Jf = jacobian(f, (x, y), vectorize=True, strategy='forward-mode')
print(torch.allclose(J[0][1], Jf[0][1]), J[0][0].dtype)
E(lambda: jacobian(f, (x, y), strategy='forward-mode'))
E(lambda: jacobian(f, [x, y]))
H = hessian(lambda a, b: (a * b[:2]).sum() ** 2, (x, y))
print(H[0][1])
print(jvp(lambda a: a.exp(), x, torch.ones(2, dtype=torch.float64)))
print(vjp(lambda a: a.exp(), x, torch.ones(2, dtype=torch.float64)))
E(lambda: vjp(lambda a: a.exp(), x, torch.ones(2)))
E(lambda: jvp(lambda a: a.exp(), x, torch.ones(2)))
E(lambda: jacobian(lambda a: a.long(), x))
print(jacobian(lambda a: a.float(), x).dtype)
print(hvp(lambda a: (a ** 3).sum(), x, torch.ones(2, dtype=torch.float64)))
print(vhp(lambda a: (a ** 3).sum(), x, torch.ones(2, dtype=torch.float64))[1])
E(lambda: jacobian(lambda a: a, torch.tensor([1, 2])))
print(jacobian(lambda a: a * 2, torch.tensor(3.)))
print(hessian(lambda a: a ** 3, torch.tensor(2.)))
'''

PROGRAMS['fn_functional_call_strict_and_hessian_params'] = PRE + r'''
from torch.func import functional_call, hessian, grad, jacrev
torch.manual_seed(0)
model = torch.nn.Linear(2, 1)
params = dict(model.named_parameters())
x = torch.tensor([[1., 2.]])
print(functional_call(model, params, (x,)))
E(lambda: functional_call(model, {'weight': params['weight']}, (x,), strict=True))
print(functional_call(model, {'weight': torch.zeros(1, 2)}, (x,)))
E(lambda: functional_call(model, {'weight': torch.zeros(1, 2), 'extra': torch.ones(1)}, (x,), strict=True))
E(lambda: functional_call(model, {'weight': torch.zeros(1, 2), 'extra': torch.ones(1)}, (x,)))
E(lambda: functional_call(model, ({'weight': torch.zeros(1, 2)}, {'weight': torch.ones(1, 2)}), (x,)))
print(functional_call(model, params, x))
print(functional_call(model, params, args=(), kwargs={'input': x}))
def loss(p):
    return functional_call(model, p, (x,)).pow(2).sum()
H = hessian(loss)({k: v.detach() for k, v in params.items()})
print(sorted(H), sorted(H['weight']), H['weight']['weight'].shape, H['weight']['bias'])
g = grad(loss)({k: v.detach() for k, v in params.items()})
print(g['bias'], type(g).__name__)
print(model.weight.grad)
'''

PROGRAMS['fn_probe_grad_argnums_variants'] = PRE + r'''
from torch.func import grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, vmap
x = torch.tensor([1., 2.])
y = torch.tensor([3., 4.])
f = lambda a, b: (a * b).sum()
E(lambda: grad(f, argnums=-1)(x, y))
E(lambda: grad(f, argnums=(-2, 1))(x, y))
E(lambda: grad(f, argnums=(0, 0))(x, y))
E(lambda: grad(f, argnums=[0, 1])(x, y))
E(lambda: grad(f, argnums=-3)(x, y))
E(lambda: grad(f)(x, b=y))
E(lambda: grad(lambda a, b=None: (a * b).sum())(x, b=y))
E(lambda: grad(lambda d: d['a'].sum() * 2)({'a': x, 'b': 1}))
E(lambda: grad(lambda t: t[0].sum() + t[1].sum())((x, y)))
E(lambda: grad(lambda a: a.sum())(x.long()))
E(lambda: grad(lambda a: a.sum().long())(x))
E(lambda: grad(lambda a: a.sum())(x.double()).dtype)
E(lambda: grad(lambda a: a)(torch.tensor(2.)))
E(lambda: grad(lambda a: a.sum(), has_aux=True)(x))
E(lambda: grad(lambda a: (a.sum(), {'x': a}), has_aux=True)(x))
E(lambda: grad(lambda a: (a.sum(), [1, 'str']), has_aux=True)(x))
E(lambda: grad_and_value(lambda a: (a.sum(), a * 2), has_aux=True)(x))
E(lambda: grad(lambda a: None)(x))
E(lambda: grad(lambda a: [a.sum()])(x))
E(lambda: grad(lambda a: a.sum())())
E(lambda: grad(lambda a, b: a.sum(), argnums=1)(x, 1.0))
E(lambda: grad(lambda a: a.sum())(torch.tensor([], dtype=torch.float32)))
'''

PROGRAMS['fn_probe_vjp_jvp_variants'] = PRE + r'''
from torch.func import vjp, jvp
x = torch.tensor([1., 2.])
y = torch.tensor([3., 4.])
out, fn = vjp(lambda a, b: (a * b, a + b), x, y)
print(out, fn((torch.ones(2), torch.ones(2))))
E(lambda: fn(torch.ones(2)))
E(lambda: fn((torch.ones(2),)))
E(lambda: fn([torch.ones(2), torch.ones(2)]))
E(lambda: fn((torch.ones(2), torch.ones(3))))
E(lambda: fn((torch.ones(2), None)))
out, fn = vjp(lambda d: {'s': d['a'] * 2}, {'a': x})
print(out, fn({'s': torch.ones(2)}))
E(lambda: fn({'t': torch.ones(2)}))
E(lambda: vjp(lambda a: a * 2, 1.0))
E(lambda: vjp(lambda a: 2, x))
E(lambda: vjp(lambda a: a * 2, x, has_aux=True))
E(lambda: jvp(lambda a: a * 2, [x], [torch.ones(2)]))
E(lambda: jvp(lambda a: a * 2, (x,), [torch.ones(2)]))
E(lambda: jvp(lambda a: a * 2, (x,), (torch.ones(2), torch.ones(2))))
E(lambda: jvp(lambda a: a * 2, (x,), (1.0,)))
E(lambda: jvp(lambda a: 2, (x,), (torch.ones(2),)))
E(lambda: jvp(lambda a: (a, a * 2), (x,), (torch.ones(2),)))
E(lambda: jvp(lambda a: {'k': a * 2}, (x,), (torch.ones(2),)))
E(lambda: jvp(lambda a: a.long(), (x,), (torch.ones(2),)))
E(lambda: jvp(lambda a: a * 2, (x.long(),), (torch.ones(2).long(),)))
E(lambda: jvp(lambda a: a * 2, (), ()))
E(lambda: vjp(lambda a: a.long(), x)[1](torch.ones(2).long()))
'''

PROGRAMS['fn_probe_vmap_dims_variants'] = PRE + r'''
from torch.func import vmap
x = torch.arange(6.).view(2, 3)
E(lambda: vmap(lambda a: a * 2, in_dims=-1)(x))
E(lambda: vmap(lambda a: a * 2, out_dims=-1)(x))
E(lambda: vmap(lambda a: a * 2, in_dims=1, out_dims=-2)(x))
E(lambda: vmap(lambda a: a * 2, out_dims=2)(x))
E(lambda: vmap(lambda a: a * 2, out_dims=1.0)(x))
E(lambda: vmap(lambda a: a * 2, in_dims=[0])(x))
E(lambda: vmap(lambda a: (a, a.sum()), out_dims=(0, None))(x))
E(lambda: vmap(lambda a: (a, torch.tensor(1.)), out_dims=(0, None))(x))
E(lambda: vmap(lambda a: (a, 1.0), out_dims=(0, None))(x))
E(lambda: vmap(lambda a: (a, 1.0))(x))
E(lambda: vmap(lambda a: None)(x))
E(lambda: vmap(lambda a, b: a * b, in_dims=(0, None))(x, 2.0))
E(lambda: vmap(lambda a, b: a * b)(x, 2.0))
E(lambda: vmap(lambda a, b: a * b, in_dims=(0, 0))(x, torch.ones(3)))
E(lambda: vmap(lambda a, *, k: a * k)(x, k=torch.ones(2, 3)))
E(lambda: vmap(lambda a: a.sum(0))(torch.tensor([1., 2.])))
E(lambda: vmap(lambda a: a.view(-1))(x))
E(lambda: vmap(lambda a: a.numel())(x))
E(lambda: vmap(lambda a: a.shape)(x))
E(lambda: vmap(lambda a: a.dim())(x))
E(lambda: vmap(lambda a: a[0])(x))
E(lambda: vmap(lambda a: a[a > 2])(x))
E(lambda: vmap(lambda a: a.nonzero())(x))
E(lambda: vmap(lambda a: torch.stack([a, a]))(x))
E(lambda: vmap(lambda a: a if a.sum() > 3 else -a)(x))
E(lambda: vmap(lambda a: a.tolist())(x))
E(lambda: vmap(torch.sum)(torch.tensor(3.)))
E(lambda: vmap(lambda a: a)(x, x))
E(lambda: vmap(lambda a: a, in_dims=(0,))(x))
E(lambda: vmap(lambda a: a, in_dims=(0, 1))(x))
'''

# fixed: PyTorch's vmap calls the function once on batches of no examples (a [0, 3] result); minigrad's
# loop raised "cannot know what func returns" (so did jacrev/jacfwd/hessian of empty inputs or outputs)
PROGRAMS['fn_vmap_over_empty_batches'] = PRE + r'''
from torch.func import vmap, grad, jacrev, jacfwd, hessian
print(vmap(lambda r: r * 2)(torch.zeros(0, 3)).shape)
print(vmap(lambda r: print('called with', r.shape) or r.sum())(torch.zeros(0, 3)))
x = torch.zeros(2, 0, requires_grad=True)
y = vmap(lambda r: (r * 2, r.sum()), in_dims=1, out_dims=(1, 0))(x)
print([t.shape for t in y], [t.requires_grad for t in y])
y[0].sum().backward()
print(x.grad)
print(vmap(lambda a, b: a + b, in_dims=(0, None))(torch.zeros(0, 3), torch.ones(3)).shape)
print(vmap(lambda a: torch.ones(2))(torch.zeros(0, 3)))
print(vmap(lambda a: torch.ones(2), out_dims=None)(torch.zeros(0, 3)))
print(vmap(grad(lambda a: a.sin().sum()))(torch.zeros(0, 3)))
print(vmap(vmap(torch.outer))(torch.zeros(0, 3, 4), torch.zeros(0, 3, 5)).shape)
print(vmap(vmap(torch.outer))(torch.zeros(2, 0, 4), torch.zeros(2, 0, 5)).shape)
print(vmap(torch.sum, in_dims=1)(torch.zeros(3, 0)))
print(vmap(lambda a: {'k': a.int()})(torch.zeros(0, 3)))
E(lambda: vmap(lambda r: r.item())(torch.zeros(0)))
print(jacrev(lambda t: t * 2)(torch.zeros(0)))
print(jacfwd(lambda t: t * 2)(torch.zeros(0)))
print(jacrev(lambda t: t[:0])(torch.ones(3)), jacfwd(lambda t: t[:0])(torch.ones(3)))
print(hessian(lambda t: t.sum())(torch.zeros(0)))
print(jacrev(lambda t: t.sum())(torch.zeros(0)))
E(lambda: torch.autograd.functional.jacobian(lambda t: t * 2, torch.zeros(0)))
E(lambda: torch.autograd.functional.jacobian(lambda t: t * 2, torch.zeros(0), vectorize=True))
'''

PROGRAMS['fn_vmap_randomness_dropout_per_sample'] = PRE + r'''
import torch.nn.functional as F
from torch.func import vmap, grad
torch.manual_seed(0)
x = torch.ones(4, 8)
print(vmap(lambda r: F.dropout(r, 0.5), randomness='different')(x))
print(vmap(lambda r: F.dropout(r, 0.5), randomness='same')(x))
E(lambda: vmap(lambda r: F.dropout(r, 0.5))(x))
print(vmap(lambda r: F.dropout(r, 0.5, training=False))(x).sum())
print(vmap(lambda r: r * torch.rand(8), randomness='different')(x))
print(vmap(lambda r: r * torch.rand(8), randomness='same')(x))
print(vmap(lambda r: torch.rand_like(r), randomness='different')(torch.ones(3, 2)))
print(vmap(lambda r: torch.randn(3), randomness='different')(torch.ones(2, 1)))
print(vmap(lambda r: torch.bernoulli(r * 0.5), randomness='different')(torch.ones(3, 4)))
print(vmap(lambda r: torch.randint(0, 10, (3,)), randomness='different')(torch.ones(2, 1)))
print(vmap(lambda r: torch.normal(r, 1.0), randomness='different')(torch.zeros(2, 3)))
print(vmap(lambda r: r.uniform_(), randomness='different')(torch.zeros(2, 3)))
print(torch.rand(2))
'''

PROGRAMS['ag_grad_and_backward_argument_forms'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
E(lambda: torch.autograd.graph.get_gradient_edge(x))
E(lambda: torch.autograd.graph.get_gradient_edge(torch.ones(2)))
e = torch.autograd.graph.get_gradient_edge(x * 2)
print(e.node.name(), e.output_nr, type(e).__name__)
E(lambda: x.register_post_accumulate_grad_hook(lambda p: None) and (x * 2).register_post_accumulate_grad_hook(lambda p: None))
E(lambda: torch.ones(2).register_post_accumulate_grad_hook(lambda p: None))
E(lambda: x.retain_grad() or x.retains_grad)
E(lambda: torch.ones(2).retains_grad)
E(lambda: (x * 2).is_leaf)
E(lambda: x.grad_fn)
E(lambda: x.detach().grad_fn)
E(lambda: torch.autograd.grad(x.sum(), x, allow_unused=True, materialize_grads=True))
E(lambda: torch.autograd.grad(x.sum(), [x, torch.ones(1, requires_grad=True)], allow_unused=True, materialize_grads=True))
E(lambda: torch.autograd.grad(x.sum(), [x, torch.ones(1, requires_grad=True)], allow_unused=False, materialize_grads=True))
E(lambda: torch.autograd.grad(x.sum(), x, only_inputs=False))
E(lambda: torch.autograd.grad(x.sum(), x, grad_outputs=torch.tensor(2)))
E(lambda: torch.autograd.grad(x.sum(), x, grad_outputs=torch.tensor([2.])))
E(lambda: torch.autograd.grad(x.sum(), x, grad_outputs=2.0))
E(lambda: torch.autograd.grad(x.sum(), x, grad_outputs=[None]))
E(lambda: torch.autograd.grad((x * 2), x, grad_outputs=[None]))
E(lambda: torch.autograd.grad([x.sum(), x.prod()], x))
E(lambda: torch.autograd.grad((x.sum(), x.prod()), (x,), (None, torch.tensor(2.))))
E(lambda: torch.autograd.backward(x.sum(), inputs=x))
print(x.grad)
E(lambda: torch.autograd.backward(x.sum(), grad_variables=torch.tensor(1.)))
E(lambda: x.sum().backward(torch.tensor(1.), True, False, x))
print(x.grad)
E(lambda: x.sum().backward(gradient=None, inputs=(x, x)))
print(x.grad)
'''


# ---- dtypes, shapes, broadcasting, printing, numerics (float32 and float64 bits)

PROGRAMS['dt_float64_int_mixes_grads'] = PRE + r'''
a = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
c = a * b
print(c.dtype, c.grad_fn, c.grad_fn._saved_self.dtype, c.grad_fn._saved_other.dtype)
c.sum().backward()
print(a.grad, b.grad, b.grad.dtype)
n = torch.tensor([1, 2])
d = b * n + 1
print(d, d.dtype, d.grad_fn, d.grad_fn.next_functions)
d.sum().backward()
print(b.grad)
e = b / 3
f = b // 2
print(e, f, f.grad_fn)
E(lambda: f.sum().backward())
h = b.to(torch.float16)
print(h, h.grad_fn, h.grad_fn._saved_self_scalar_type if hasattr(h.grad_fn, '_saved_self_scalar_type') else None)
b.grad = None
(h * 1000).sum().backward()
print(b.grad)
k = torch.tensor(3, dtype=torch.int32) * a
print(k, k.dtype)
m = a.float() + b.double()
print(m.dtype, m.grad_fn.next_functions)
p = torch.tensor(2.5, dtype=torch.bfloat16, requires_grad=True)
(p * p).backward()
print(p.grad, p.grad.dtype)
'''

PROGRAMS['bc_broadcast_backward_variants'] = PRE + r'''
a = torch.ones(3, 1, requires_grad=True)
b = torch.ones(1, 4, requires_grad=True)
c = torch.tensor(2., requires_grad=True)
out = a * b + c
print(out.shape, out.grad_fn, out.grad_fn.next_functions)
out.backward(torch.arange(12.).view(3, 4))
print(a.grad, b.grad, c.grad)
x = torch.ones(2, 3, requires_grad=True)
y = torch.ones(3, requires_grad=True)
(x + y).pow(2).sum().backward()
print(y.grad)
E(lambda: torch.ones(2, 3) + torch.ones(2))
E(lambda: torch.ones(2, 3, requires_grad=True).add_(torch.ones(4, 2, 3)))
p = torch.ones(1, requires_grad=True)
q = p.clone()
E(lambda: q.add_(torch.ones(3)))
r = torch.ones(3).add_(p)
print(r, r.grad_fn)
r.sum().backward()
print(p.grad)
u = torch.tensor([[1.], [2.]], requires_grad=True)
v = torch.maximum(u, torch.tensor([1.5, 0.5, 2.0]))
v.sum().backward()
print(u.grad)
'''

PROGRAMS['pr_printoptions_with_grads'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(3, 3, requires_grad=True)
torch.set_printoptions(precision=2)
print(x)
y = x * 1000
print(y)
torch.set_printoptions(sci_mode=True)
print(y.sum(), y.grad_fn)
torch.set_printoptions(profile='short')
print(torch.arange(1000.0, requires_grad=True))
torch.set_printoptions(profile='default', sci_mode=None)
z = torch.tensor([1e-8, 1., 1e8], requires_grad=True)
print(z, z * 2)
print(torch.tensor([1., float('nan'), float('inf')], requires_grad=True) * 1)
print(torch.tensor([1 + 2j], requires_grad=True) * 1)
print(torch.tensor(3., dtype=torch.float64, requires_grad=True) * 2)
print(torch.tensor([1., 2.], dtype=torch.float16, requires_grad=True).sum())
print(torch.zeros(2, 0, requires_grad=True) * 1)
print(torch.nn.Parameter(torch.zeros(2, dtype=torch.float64)))
print(torch.nn.Parameter(torch.zeros(2), requires_grad=False))
print(torch.nn.Parameter(torch.tensor(1.)))
print(repr(torch.nn.Parameter(torch.ones(2)) * 1))
'''

PROGRAMS['nm_activation_grads_bits_float32'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
x = (torch.randn(37) * 3).requires_grad_()
fns = {'softplus': F.softplus, 'gelu': F.gelu, 'gelu_tanh': lambda t: F.gelu(t, approximate='tanh'), 'silu': F.silu, 'mish': F.mish, 'elu': F.elu, 'selu': F.selu, 'celu': F.celu, 'logsigmoid': F.logsigmoid, 'hardswish': F.hardswish, 'hardsigmoid': F.hardsigmoid, 'softsign': F.softsign, 'tanhshrink': F.tanhshrink, 'leaky_relu': F.leaky_relu, 'relu6': F.relu6, 'sigmoid': torch.sigmoid, 'tanh': torch.tanh, 'erf': torch.erf, 'atan': torch.atan, 'asinh': torch.asinh, 'sinc': torch.sinc, 'log1p_abs': lambda t: t.abs().log1p(), 'expm1': torch.expm1, 'rsqrt_abs': lambda t: t.abs().rsqrt(), 'reciprocal': torch.reciprocal}
for name, f in fns.items():
    y = f(x)
    g, = torch.autograd.grad(y, x, torch.linspace(-1, 1, 37))
    print(name, y.grad_fn.name(), y.sum().item(), g.tolist()[:6], g.sum().item())
'''

PROGRAMS['nm_loss_grads_bits_float32'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
inp = torch.randn(6, 5, requires_grad=True)
tgt = torch.randint(5, (6,))
tgtf = torch.rand(6, 5)
losses = {
  'ce': lambda: F.cross_entropy(inp, tgt), 'ce_ls': lambda: F.cross_entropy(inp, tgt, label_smoothing=0.1),
  'ce_prob': lambda: F.cross_entropy(inp, tgtf.softmax(1)), 'nll': lambda: F.nll_loss(inp.log_softmax(1), tgt),
  'mse': lambda: F.mse_loss(inp, tgtf), 'l1': lambda: F.l1_loss(inp, tgtf), 'smooth_l1': lambda: F.smooth_l1_loss(inp, tgtf, beta=0.5),
  'huber': lambda: F.huber_loss(inp, tgtf, delta=0.7), 'bce': lambda: F.binary_cross_entropy(inp.sigmoid(), tgtf),
  'bce_logits': lambda: F.binary_cross_entropy_with_logits(inp, tgtf, pos_weight=torch.ones(5) * 2),
  'kl': lambda: F.kl_div(inp.log_softmax(1), tgtf.softmax(1), reduction='batchmean'),
  'soft_margin': lambda: F.soft_margin_loss(inp, tgtf.sign()), 'multilabel_soft': lambda: F.multilabel_soft_margin_loss(inp, (tgtf > 0.5).float()),
  'multi_margin': lambda: F.multi_margin_loss(inp, tgt), 'poisson': lambda: F.poisson_nll_loss(inp, tgtf),
  'gauss': lambda: F.gaussian_nll_loss(inp, tgtf, torch.ones(6, 5) * 0.5), 'cos_emb': lambda: F.cosine_embedding_loss(inp, tgtf, torch.tensor([1, -1, 1, -1, 1, 1])),
  'margin_rank': lambda: F.margin_ranking_loss(inp[:, 0], inp[:, 1], torch.tensor([1., -1, 1, -1, 1, 1])),
  'hinge_emb': lambda: F.hinge_embedding_loss(inp, tgtf.sign()), 'triplet': lambda: F.triplet_margin_loss(inp[:2], inp[2:4], inp[4:]),
}
for name, f in losses.items():
    loss = f()
    g, = torch.autograd.grad(loss, inp)
    print(name, loss.grad_fn.name(), loss.item(), g[0].tolist(), g.sum().item())
'''

PROGRAMS['nm_norm_distance_grads_bits'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
a = torch.randn(4, 6, requires_grad=True)
b = torch.randn(4, 6, requires_grad=True)
ops = {
  'norm': lambda: a.norm(), 'norm1': lambda: a.norm(p=1, dim=1), 'norm3': lambda: a.norm(p=3, dim=0), 'norm_inf': lambda: a.norm(p=float('inf'), dim=1),
  'vector_norm': lambda: torch.linalg.vector_norm(a, ord=0.5, dim=1), 'matrix_norm': lambda: torch.linalg.matrix_norm(a), 'nuc': lambda: torch.linalg.matrix_norm(a, ord='nuc'),
  'cos': lambda: F.cosine_similarity(a, b), 'pdist': lambda: F.pairwise_distance(a, b), 'cdist': lambda: torch.cdist(a, b), 'cdist1': lambda: torch.cdist(a, b, p=1),
  'normalize': lambda: F.normalize(a, dim=1), 'layer_norm': lambda: F.layer_norm(a, (6,)), 'group_norm': lambda: F.group_norm(a.view(4, 6, 1), 3),
  'batch_norm': lambda: F.batch_norm(a, None, None, training=True), 'instance': lambda: F.instance_norm(a.view(1, 4, 6)), 'rms': lambda: F.rms_norm(a, (6,)),
  'dist': lambda: torch.dist(a, b, 3), 'std': lambda: a.std(1), 'var_mean': lambda: torch.var_mean(a, 0)[0], 'logsumexp': lambda: a.logsumexp(1), 'softmin': lambda: F.softmin(a, 1),
}
w = torch.linspace(-1, 1, 24)
for name, f in ops.items():
    y = f()
    g = torch.autograd.grad(y, [a, b], (w[:y.numel()].view(y.shape)), allow_unused=True)
    print(name, y.grad_fn.name(), y.sum().item(), g[0][0].tolist(), None if g[1] is None else g[1].sum().item())
'''

PROGRAMS['pr_odd_values_with_grad_fn'] = PRE + r'''
vals = [[1e-40, 1.], [-0., 0.], [float('nan'), -float('inf')], [1e20, 1e-20], [123456789., 0.1], [1.5, 2.5], [-1e-5, 1e5], [65504., 1.]]
for v in vals:
    for dt in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
        t = torch.tensor(v, dtype=dt, requires_grad=True)
        print(t * 1, (t * 1).sum())
c = torch.tensor([complex(1e-10, 1e10), complex(float('inf'), float('nan'))], requires_grad=True)
print(c * 1)
torch.set_printoptions(linewidth=30)
print(torch.arange(12., requires_grad=True) * 1)
torch.set_printoptions(edgeitems=1, threshold=5)
print(torch.arange(12., requires_grad=True).view(3, 4) * 1)
torch.set_printoptions(profile='full')
print(torch.arange(30., requires_grad=True) / 7)
torch.set_printoptions(profile='default')
print(torch.tensor([1., 2.], requires_grad=True).to(torch.float16).grad_fn)
print(torch.zeros(1, 1, 0, requires_grad=True) * 2)
print(torch.ones(2, 1, 1, requires_grad=True) / 3)
'''

PROGRAMS['pr_grad_values_after_backward_dtypes'] = PRE + r'''
for dt in (torch.float16, torch.bfloat16, torch.float64, torch.complex64):
    x = torch.tensor([0.1, 0.2, 0.3], dtype=dt, requires_grad=True)
    y = (x.exp() * x).sum() if not dt.is_complex else (x.exp() * x).abs().sum()
    y.backward()
    print(dt, y, x.grad)
    x.grad = None
    z = (x / 3).pow(2).mean() if not dt.is_complex else (x / 3).abs().pow(2).mean()
    z.backward()
    print(z, x.grad)
'''

PROGRAMS['sg_sign_abs_and_zero_point_grads'] = PRE + r'''
x = torch.tensor([1., -2., 3.], requires_grad=True)
E(lambda: x.abs().backward(torch.ones(3)) or x.grad)
E(lambda: x.sign().sum().backward() or x.grad)
E(lambda: x.sgn().sum().backward() or x.grad)
E(lambda: x.floor().grad_fn)
E(lambda: x.argmax().requires_grad)
E(lambda: (x > 0).requires_grad)
E(lambda: x.clamp(min=0).grad_fn._saved_min)
E(lambda: x.clamp(min=0).grad_fn._saved_max)
E(lambda: x.clamp(min=torch.zeros(3)).grad_fn)
E(lambda: x.relu().grad_fn._saved_result)
E(lambda: x.pow(0).sum().backward() or x.grad)
E(lambda: x.norm(0).backward() or x.grad)
E(lambda: torch.zeros(3, requires_grad=True).norm().backward())
z = torch.zeros(3, requires_grad=True)
z.norm().backward()
print(z.grad)
z.grad = None
z.sqrt().sum().backward()
print(z.grad)
z.grad = None
(z ** 0.5).sum().backward()
print(z.grad)
z.grad = None
z.pow(2).sqrt().sum().backward()
print(z.grad)
z.grad = None
torch.where(z > 0, z.log(), z).sum().backward()
print(z.grad)
z.grad = None
torch.where(z > 0, z, z.log()).sum().backward()
print(z.grad)
z.grad = None
(z * z.log()).nan_to_num().sum().backward()
print(z.grad)
z.grad = None
torch.xlogy(z, z).sum().backward()
print(z.grad)
'''

PROGRAMS['tl_sgd_momentum_and_frozen_layers'] = PRE + r'''
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x = torch.randn(5, 3)
y = torch.randn(5, 1)
for step in range(3):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    print(step, loss.item(), model[0].bias.grad.tolist())
    opt.step()
print(opt.state_dict()['state'][0]['momentum_buffer'])
for p in model.parameters():
    print(p.grad is None, p.requires_grad, p.is_leaf, p.grad_fn)
opt.zero_grad(set_to_none=False)
print(model[2].bias.grad)
model.requires_grad_(False)
out = model(x)
print(out.requires_grad, out.grad_fn)
E(lambda: out.sum().backward())
model[2].requires_grad_(True)
out = model(x)
print(out.grad_fn, out.grad_fn.next_functions)
out.sum().backward()
print(model[0].weight.grad, model[2].weight.grad)
'''

PROGRAMS['sg_ties_and_subgradients'] = PRE + r'''
x = torch.tensor([1., 3., 3., 2.], requires_grad=True)
for name, f in [('max', lambda t: t.max()), ('amax', lambda t: t.amax()), ('max_dim', lambda t: t.max(0)[0]), ('min', lambda t: t.min()),
                ('median', lambda t: t.median()), ('nanmedian', lambda t: t.nanmedian()), ('sort0', lambda t: t.sort()[0][3]), ('topk', lambda t: t.topk(1)[0].sum()),
                ('kth', lambda t: t.kthvalue(3)[0]), ('mode', lambda t: t.mode()[0]), ('norm_inf', lambda t: t.norm(float('inf'))), ('logsumexp', lambda t: t.logsumexp(0)),
                ('cummax', lambda t: t.cummax(0)[0].sum()), ('maximum', lambda t: torch.maximum(t, t.flip(0)).sum()), ('clamp_eq', lambda t: t.clamp(3., 3.).sum()),
                ('abs0', lambda t: (t - 3).abs().sum()), ('relu0', lambda t: (t - 3).relu().sum()), ('hardtanh', lambda t: torch.nn.functional.hardtanh(t - 2).sum()),
                ('unique', lambda t: t.unique().sum())]:
    x.grad = None
    try:
        y = f(x)
        y.backward()
        print(name, y.item(), x.grad.tolist())
    except Exception as e:
        print(name, type(e).__name__, e)
'''

PROGRAMS['ix_embedding_max_norm_and_index_grads'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
emb = torch.nn.Embedding(5, 3, max_norm=1.0, padding_idx=0)
print(emb, emb.weight._version)
idx = torch.tensor([[0, 2, 2], [4, 1, 0]])
out = emb(idx)
print(emb.weight._version, out.grad_fn, out.grad_fn._saved_padding_idx, out.grad_fn._saved_scale_grad_by_freq)
out.sum().backward()
print(emb.weight.grad)
print(emb.weight.norm(dim=1))
w = torch.randn(4, 2, requires_grad=True)
E(lambda: F.embedding(torch.tensor([1, 1]), w, max_norm=0.5))
g = torch.zeros(4)
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = torch.zeros(4).index_add(0, torch.tensor([1, 1, 3]), x)
y.sum().backward()
print(y, x.grad)
x.grad = None
z = torch.zeros(4).scatter_add(0, torch.tensor([2, 2, 0]), x)
(z * torch.arange(4.)).sum().backward()
print(z, x.grad)
x.grad = None
q = x.gather(0, torch.tensor([0, 0, 2, 2, 2]))
q.sum().backward()
print(x.grad)
x.grad = None
t = torch.zeros(5).index_put((torch.tensor([1, 1, 4]),), x, accumulate=True)
t.sum().backward()
print(t, x.grad)
x.grad = None
u = torch.zeros(5).index_put((torch.tensor([1, 1, 4]),), x)
u.sum().backward()
print(u, x.grad)
x.grad = None
v = x.take(torch.tensor([[0, 2], [2, 2]]))
v.sum().backward()
print(v, x.grad)
'''

# fixed: float64 gelu(approximate='tanh')'s gradient is ATen's kernel (SLEEF's tanh on vector blocks, glibc's on
# the tail, three fused multiply-adds); minigrad's plain NumPy formula was off in the last bits
PROGRAMS['nm_activation_grads_bits_float64'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
x = (torch.randn(37, dtype=torch.float64) * 3).requires_grad_()
fns = {'softplus': F.softplus, 'gelu': F.gelu, 'gelu_tanh': lambda t: F.gelu(t, approximate='tanh'), 'silu': F.silu, 'mish': F.mish, 'elu': F.elu, 'selu': F.selu, 'celu': F.celu, 'logsigmoid': F.logsigmoid, 'hardswish': F.hardswish, 'hardsigmoid': F.hardsigmoid, 'softsign': F.softsign, 'tanhshrink': F.tanhshrink, 'leaky_relu': F.leaky_relu, 'relu6': F.relu6, 'sigmoid': torch.sigmoid, 'tanh': torch.tanh, 'erf': torch.erf, 'atan': torch.atan, 'asinh': torch.asinh, 'sinc': torch.sinc, 'log1p_abs': lambda t: t.abs().log1p(), 'expm1': torch.expm1, 'rsqrt_abs': lambda t: t.abs().rsqrt(), 'reciprocal': torch.reciprocal}
for name, f in fns.items():
    y = f(x)
    g, = torch.autograd.grad(y, x, torch.linspace(-1, 1, 37, dtype=torch.float64))
    print(name, y.grad_fn.name(), y.sum().item(), g.tolist()[:6], g.sum().item())
'''

PROGRAMS['nm_loss_grads_bits_float64'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
inp = torch.randn(6, 5, requires_grad=True)
tgt = torch.randint(5, (6,))
tgtf = torch.rand(6, 5)
losses = {
  'ce': lambda: F.cross_entropy(inp, tgt), 'ce_ls': lambda: F.cross_entropy(inp, tgt, label_smoothing=0.1),
  'ce_prob': lambda: F.cross_entropy(inp, tgtf.softmax(1)), 'nll': lambda: F.nll_loss(inp.log_softmax(1), tgt),
  'mse': lambda: F.mse_loss(inp, tgtf), 'l1': lambda: F.l1_loss(inp, tgtf), 'smooth_l1': lambda: F.smooth_l1_loss(inp, tgtf, beta=0.5),
  'huber': lambda: F.huber_loss(inp, tgtf, delta=0.7), 'bce': lambda: F.binary_cross_entropy(inp.sigmoid(), tgtf),
  'bce_logits': lambda: F.binary_cross_entropy_with_logits(inp, tgtf, pos_weight=torch.ones(5) * 2),
  'kl': lambda: F.kl_div(inp.log_softmax(1), tgtf.softmax(1), reduction='batchmean'),
  'soft_margin': lambda: F.soft_margin_loss(inp, tgtf.sign()), 'multilabel_soft': lambda: F.multilabel_soft_margin_loss(inp, (tgtf > 0.5).float()),
  'multi_margin': lambda: F.multi_margin_loss(inp, tgt), 'poisson': lambda: F.poisson_nll_loss(inp, tgtf),
  'gauss': lambda: F.gaussian_nll_loss(inp, tgtf, torch.ones(6, 5) * 0.5), 'cos_emb': lambda: F.cosine_embedding_loss(inp, tgtf, torch.tensor([1, -1, 1, -1, 1, 1])),
  'margin_rank': lambda: F.margin_ranking_loss(inp[:, 0], inp[:, 1], torch.tensor([1., -1, 1, -1, 1, 1])),
  'hinge_emb': lambda: F.hinge_embedding_loss(inp, tgtf.sign()), 'triplet': lambda: F.triplet_margin_loss(inp[:2], inp[2:4], inp[4:]),
}
for name, f in losses.items():
    loss = f()
    g, = torch.autograd.grad(loss, inp)
    print(name, loss.grad_fn.name(), loss.item(), g[0].tolist(), g.sum().item())
'''

# fixed: float64 layer norm's backward runs PyTorch's kernel (_layer_norm_cpu.backward, as float32 did); the
# generic formula was off in the last bits
PROGRAMS['nm_norm_distance_grads_bits_float64'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
a = torch.randn(4, 6, requires_grad=True)
b = torch.randn(4, 6, requires_grad=True)
ops = {
  'norm': lambda: a.norm(), 'norm1': lambda: a.norm(p=1, dim=1), 'norm3': lambda: a.norm(p=3, dim=0), 'norm_inf': lambda: a.norm(p=float('inf'), dim=1),
  'vector_norm': lambda: torch.linalg.vector_norm(a, ord=0.5, dim=1), 'matrix_norm': lambda: torch.linalg.matrix_norm(a), 'nuc': lambda: torch.linalg.matrix_norm(a, ord='nuc'),
  'cos': lambda: F.cosine_similarity(a, b), 'pdist': lambda: F.pairwise_distance(a, b), 'cdist': lambda: torch.cdist(a, b), 'cdist1': lambda: torch.cdist(a, b, p=1),
  'normalize': lambda: F.normalize(a, dim=1), 'layer_norm': lambda: F.layer_norm(a, (6,)), 'group_norm': lambda: F.group_norm(a.view(4, 6, 1), 3),
  'batch_norm': lambda: F.batch_norm(a, None, None, training=True), 'instance': lambda: F.instance_norm(a.view(1, 4, 6)), 'rms': lambda: F.rms_norm(a, (6,)),
  'dist': lambda: torch.dist(a, b, 3), 'std': lambda: a.std(1), 'var_mean': lambda: torch.var_mean(a, 0)[0], 'logsumexp': lambda: a.logsumexp(1), 'softmin': lambda: F.softmin(a, 1),
}
w = torch.linspace(-1, 1, 24)
for name, f in ops.items():
    y = f()
    g = torch.autograd.grad(y, [a, b], (w[:y.numel()].view(y.shape)), allow_unused=True)
    print(name, y.grad_fn.name(), y.sum().item(), g[0][0].tolist(), None if g[1] is None else g[1].sum().item())
'''

PROGRAMS['nm_float64_unary_values_and_grads'] = PRE + r'''
torch.manual_seed(0)
x = (torch.rand(37, dtype=torch.float64) * 1.8 + 0.1).requires_grad_()
g = torch.linspace(-1, 1, 37, dtype=torch.float64)
fns = ['exp', 'log', 'log2', 'log10', 'log1p', 'expm1', 'sqrt', 'rsqrt', 'sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'sinh', 'cosh', 'tanh', 'asinh', 'acosh', 'atanh', 'sigmoid', 'erf', 'erfc', 'erfinv', 'lgamma', 'digamma', 'reciprocal', 'exp2', 'sinc', 'logit', 'i0', 'special.i0e', 'special.i1', 'special.i1e', 'special.ndtr', 'special.ndtri', 'special.log_ndtr', 'special.erfcx', 'special.entr', 'nn.functional.softplus', 'nn.functional.silu', 'nn.functional.mish', 'nn.functional.elu', 'nn.functional.selu', 'nn.functional.logsigmoid', 'nn.functional.tanhshrink', 'nn.functional.softsign', 'nn.functional.hardswish']
for name in fns:
    f = torch
    for part in name.split('.'):
        f = getattr(f, part)
    xi = x.clamp(max=0.99) if name in ('asin', 'acos', 'atanh', 'erfinv', 'logit', 'special.ndtri') else (x + 1 if name == 'acosh' else x)
    try:
        y = f(xi)
        gr, = torch.autograd.grad(y, x, g)
        print(name, y.sum().item(), y[:3].tolist(), gr.sum().item(), gr[:3].tolist())
    except Exception as e:
        print(name, type(e).__name__, e)
'''

PROGRAMS['nm_float64_binary_reductions_grads'] = PRE + r'''
torch.manual_seed(0)
a = torch.randn(5, 7, dtype=torch.float64, requires_grad=True)
b = (torch.rand(5, 7, dtype=torch.float64) + 0.5).requires_grad_()
ops = {
  'pow': lambda: a.abs().pow(b), 'pow_s': lambda: b ** 2.7, 'atan2': lambda: torch.atan2(a, b), 'hypot': lambda: torch.hypot(a, b),
  'div': lambda: a / b, 'fmod': lambda: torch.fmod(a, b), 'rem': lambda: torch.remainder(a, b), 'xlogy': lambda: torch.xlogy(b, b + a.abs()),
  'lerp': lambda: torch.lerp(a, b, 0.3), 'addcdiv': lambda: torch.addcdiv(a, a, b, value=0.7), 'logaddexp': lambda: torch.logaddexp(a, b),
  'sum': lambda: a.sum(1), 'mean': lambda: a.mean(0), 'var': lambda: a.var(1), 'std': lambda: a.std(0), 'prod': lambda: b.prod(1),
  'cumsum': lambda: a.cumsum(1), 'cumprod': lambda: b.cumprod(1), 'logcumsumexp': lambda: a.logcumsumexp(1), 'softmax': lambda: a.softmax(1),
  'log_softmax': lambda: a.log_softmax(0), 'logsumexp': lambda: a.logsumexp(1), 'norm': lambda: a.norm(dim=1), 'mm': lambda: a @ b.t(),
  'matmul_vec': lambda: a @ b[0], 'einsum': lambda: torch.einsum('ij,ij->i', a, b), 'trapz': lambda: torch.trapezoid(a, dim=1),
  'cdist': lambda: torch.cdist(a, b), 'cosine': lambda: torch.nn.functional.cosine_similarity(a, b), 'dist': lambda: torch.dist(a, b, 2.5),
  'renorm': lambda: a.renorm(2, 0, 1.0), 'normalize': lambda: torch.nn.functional.normalize(a, p=3, dim=1),
}
for name, f in ops.items():
    y = f()
    w = torch.linspace(-1, 1, y.numel(), dtype=torch.float64).view(y.shape)
    ga, gb = torch.autograd.grad(y, [a, b], w, allow_unused=True, materialize_grads=True)
    print(name, y.grad_fn.name(), y.sum().item(), ga.sum().item(), ga[0, :2].tolist(), gb.sum().item(), gb[0, :2].tolist())
'''

# fixed: float64 conv1d/conv2d gradients and conv_transpose's input gradient follow slow_conv2d's (and
# slow_conv_transpose2d's) gemm + col2im steps on MKL's dgemm; NumPy's products were off in the last bits
PROGRAMS['nm_float64_nn_layers_grads'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
x = torch.randn(2, 3, 8, requires_grad=True)
img = torch.randn(2, 3, 6, 6, requires_grad=True)
w1 = torch.randn(4, 3, 3, requires_grad=True)
w2 = torch.randn(4, 3, 3, 3, requires_grad=True)
ops = {
  'conv1d': lambda: F.conv1d(x, w1, padding=1), 'conv2d': lambda: F.conv2d(img, w2, stride=2), 'conv_t': lambda: F.conv_transpose1d(x, w1.transpose(0, 1)),
  'max_pool': lambda: F.max_pool2d(img, 2), 'avg_pool': lambda: F.avg_pool2d(img, 3, 1, 1), 'adaptive': lambda: F.adaptive_avg_pool2d(img, (4, 5)),
  'batch_norm': lambda: F.batch_norm(img, None, None, torch.rand(3), torch.rand(3), training=True), 'group_norm': lambda: F.group_norm(img, 3, torch.rand(3), torch.rand(3)),
  'instance_norm': lambda: F.instance_norm(x), 'layer_norm2': lambda: F.layer_norm(img, (6, 6)), 'interp': lambda: F.interpolate(img, scale_factor=1.5, mode='bilinear'),
  'interp_bicubic': lambda: F.interpolate(img, size=(7, 5), mode='bicubic', align_corners=True), 'pad_reflect': lambda: F.pad(x, (2, 3), mode='reflect'),
  'linear': lambda: F.linear(x, torch.randn(5, 8), torch.randn(5)), 'bilinear': lambda: F.bilinear(x[:, 0], x[:, 1], torch.randn(2, 8, 8)),
  'embedding_bag': lambda: F.embedding_bag(torch.tensor([0, 2, 1, 2]), x[0], torch.tensor([0, 2]), mode='mean'), 'glu': lambda: F.glu(x, -1),
  'gelu': lambda: F.gelu(x), 'gelu_t': lambda: F.gelu(x, approximate='tanh'), 'softmax2': lambda: F.softmax(img, 1),
  'unfold': lambda: F.unfold(img, 2), 'pixel_shuffle': lambda: F.pixel_shuffle(img[:, :1].repeat(1, 4, 1, 1), 2), 'local_resp': lambda: F.local_response_norm(img, 2),
}
for name, f in ops.items():
    y = f()
    w = torch.linspace(-1, 1, y.numel()).view(y.shape)
    gs = torch.autograd.grad(y, [x, img], w, allow_unused=True, materialize_grads=True)
    print(name, y.grad_fn.name(), y.sum().item(), [g.sum().item() for g in gs], gs[0].flatten()[:2].tolist(), gs[1].flatten()[:2].tolist())
'''

# fixed: float64 transposed convolutions (forward and every gradient), convolution bias gradients and dilated
# ones follow slow_conv_transpose2d / slow_conv_dilated2d (gemm + col2im on MKL's dgemm, PyTorch's sums)
PROGRAMS['nm_float64_conv_transpose_bias_dilation_grads'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
x1 = torch.randn(3, 4, 9, requires_grad=True)
x2 = torch.randn(2, 3, 6, 6, requires_grad=True)
w1 = torch.randn(4, 2, 3, requires_grad=True)
w2 = torch.randn(3, 5, 3, 3, requires_grad=True)
b1 = torch.randn(2, requires_grad=True)
b2 = torch.randn(5, requires_grad=True)
cases = {
  'ct1d': lambda: F.conv_transpose1d(x1, w1, b1, stride=2, padding=1, output_padding=1),
  'ct1d_dil': lambda: F.conv_transpose1d(x1, w1, b1, dilation=2),
  'ct2d': lambda: F.conv_transpose2d(x2, w2, b2, stride=2),
  'ct2d_pad': lambda: F.conv_transpose2d(x2, w2, None, stride=(1, 2), padding=(2, 1)),
  'conv1d_bias': lambda: F.conv1d(x1, w1.transpose(0, 1).contiguous(), b1, stride=2),
  'conv2d_dil': lambda: F.conv2d(x2, w2.transpose(0, 1).contiguous(), b2, dilation=2, padding=1),
  'module': lambda: torch.nn.ConvTranspose1d(4, 3, 4, stride=3)(x1),
}
for name, f in cases.items():
    y = f()
    g = torch.linspace(-1, 1, y.numel()).view(y.shape)
    ins = [x1, x2, w1, w2, b1, b2]
    gs = torch.autograd.grad(y, ins, g, allow_unused=True, materialize_grads=True)
    print(name, y.shape, y.sum().item(), y.flatten()[:2].tolist())
    for t in gs:
        print('   ', t.sum().item(), t.flatten()[:3].tolist())
'''

PROGRAMS['nm_float64_rnn_and_multihead_grads'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
x = torch.randn(5, 2, 3, requires_grad=True)
for cls in (torch.nn.RNN, torch.nn.GRU, torch.nn.LSTM):
    m = cls(3, 4, num_layers=2)
    out = m(x)[0]
    g = torch.linspace(-1, 1, out.numel()).view(out.shape)
    gx, = torch.autograd.grad(out, x, g)
    print(cls.__name__, out.sum().item(), gx.sum().item(), gx[0, 0].tolist(), m.weight_hh_l0.dtype)
mha = torch.nn.MultiheadAttention(4, 2)
s = torch.randn(5, 2, 4, requires_grad=True)
o, w = mha(s, s, s)
print(o.sum().item(), w.sum().item())
print(torch.autograd.grad(o.pow(2).sum(), s)[0][0].tolist())
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
