"""Parity programs from a forty-eighth hunt: the autograd machinery a teacher demonstrates, combined.

Programs a teacher writes to show how autograd works from the inside, and a student's variations: the
``torch.autograd.graph`` API used together (Node ``name()`` / ``metadata`` / ``register_hook`` /
``register_prehook`` on the nodes of small graphs, hooks that change gradients and the errors of wrong ones,
``GradientEdge`` / ``get_gradient_edge`` as ``autograd.grad`` inputs and outputs, ``increment_version``,
``register_multi_grad_hook`` in both modes, ``saved_tensors_hooks`` / ``save_on_cpu`` /
``disable_saved_tensors_hooks`` / ``allow_mutation_on_saved_tensors``), ``torch.utils.checkpoint`` with hooks,
RNG state and ``autograd.grad``, ``torch.autograd.functional`` on small models (tuples, ``strict``,
``create_graph``), anomaly mode's warnings and errors, and the common mistakes' errors and warnings. Each program
prints values, reprs, grad_fn names, warnings (hunt14's ``W`` prelude) and errors (``E``) and must print exactly
what PyTorch prints. Programs marked "fixed:" printed something different from PyTorch before this hunt's fixes
(linspace/logspace ends given as 0-d tensors requiring grad; the scalar-conversion warning before torch.tensor's
"only one element tensors" error; nn.functional number arguments given tensors the parser refuses; the
``numpy.bool`` type name in the requires_grad= error; user subclasses of the abstract ``Node``).
"""
from __future__ import annotations

import contextlib
import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE as _PRE

PRE = _PRE + r'''
from torch.autograd.graph import (saved_tensors_hooks, save_on_cpu, disable_saved_tensors_hooks,
                                  register_multi_grad_hook, get_gradient_edge, increment_version, GradientEdge,
                                  allow_mutation_on_saved_tensors, Node)
from torch.utils.checkpoint import checkpoint
import torch.autograd.functional as AF
def names(node, seen=None):
    """The node names of a graph, depth first, each node once."""
    seen = set() if seen is None else seen
    if node is None or node in seen:
        return []
    seen.add(node)
    out = [node.name()]
    for n, _ in node.next_functions:
        out += names(n, seen)
    return out
'''

PROGRAMS: dict[str, str] = {}

# ---- torch.autograd.graph: nodes, their hooks and edges

PROGRAMS['node_names_and_types_of_a_small_mlp'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(2, 3)
w1 = torch.randn(3, 4, requires_grad=True)
b1 = torch.zeros(4, requires_grad=True)
h = torch.relu(x @ w1 + b1)
loss = h.pow(2).mean()
print(names(loss.grad_fn))
print(isinstance(loss.grad_fn, Node), issubclass(type(loss.grad_fn), Node), isinstance(w1, Node))
print(loss.grad_fn.next_functions[0][0].name(), type(loss.grad_fn).__module__)
acc = h.grad_fn.next_functions[0][0].next_functions[1][0]
print(acc.name(), acc.variable is b1, acc.metadata, acc.next_functions)
'''

PROGRAMS['node_prehook_scales_grad'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * x
z = y.sum()
def pre(grad_outputs):
    print('pre', grad_outputs)
    return (grad_outputs[0] * 10,)
h = y.grad_fn.register_prehook(pre)
z.backward(retain_graph=True)
print(x.grad)
h.remove()
x.grad = None
z.backward()
print(x.grad)
'''

PROGRAMS['node_hook_sees_inputs_and_outputs'] = PRE + r'''
a = torch.tensor(2., requires_grad=True)
b = torch.tensor(3., requires_grad=True)
c = a * b
d = c.exp()
def hook(grad_inputs, grad_outputs):
    print('hook', type(grad_inputs).__name__, len(grad_inputs), grad_inputs, grad_outputs)
c.grad_fn.register_hook(hook)
d.grad_fn.register_hook(hook)
d.backward()
print(a.grad, b.grad)
'''

PROGRAMS['node_hook_replaces_grad_inputs'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
c = a + b
def hook(gi, go):
    return (gi[0] * 0, gi[1] * 2)
c.grad_fn.register_hook(hook)
c.sum().backward()
print(a.grad, b.grad)
'''

PROGRAMS['node_hook_wrong_length'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
c = a * b
c.grad_fn.register_hook(lambda gi, go: (gi[0],))
E(lambda: c.sum().backward())
d = a * b
d.grad_fn.register_prehook(lambda go: (go[0], go[0]))
E(lambda: d.sum().backward())
e = a * b
e.grad_fn.register_prehook(lambda go: go[0])
E(lambda: e.sum().backward())
'''

PROGRAMS['node_hook_wrong_shape_and_type'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
c = a * 3
c.grad_fn.register_hook(lambda gi, go: (torch.ones(3),))
E(lambda: c.sum().backward())
d = a * 3
d.grad_fn.register_prehook(lambda go: (torch.ones(5),))
E(lambda: d.sum().backward())
e = a * 3
e.grad_fn.register_prehook(lambda go: ('x',))
E(lambda: e.sum().backward())
print(a.grad)
'''

PROGRAMS['accumulate_grad_hooks'] = PRE + r'''
w = torch.tensor([1., -1.], requires_grad=True)
y = (w * 2).sum()
acc = y.grad_fn.next_functions[0][0].next_functions[0][0]
print(acc, acc.name())
acc.register_prehook(lambda go: print('pre', go))
acc.register_hook(lambda gi, go: print('post', gi, go))
y.backward()
print(w.grad)
'''

PROGRAMS['accumulate_grad_prehook_changes_grad'] = PRE + r'''
w = torch.tensor([1., -1.], requires_grad=True)
acc = (w * 1).grad_fn.next_functions[0][0]
acc.register_prehook(lambda go: (go[0].clamp(min=0),))
for k in range(2):
    ((w - 3) * torch.tensor([1., -1.])).sum().backward()
    print(k, w.grad)
'''

PROGRAMS['node_hooks_order_pre_then_tensor_then_post'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.sin()
y.register_hook(lambda g: print('tensor hook', g) or g * 2)
y.grad_fn.register_prehook(lambda go: print('prehook', go))
y.grad_fn.register_hook(lambda gi, go: print('posthook', gi, go))
y.sum().backward()
print(x.grad)
'''

PROGRAMS['node_hooks_after_backward_and_retain'] = PRE + r'''
x = torch.tensor([3.], requires_grad=True)
y = x ** 2
z = y * 2
calls = []
z.grad_fn.register_hook(lambda gi, go: calls.append(('z', len(gi))))
z.backward(retain_graph=True)
y.grad_fn.register_hook(lambda gi, go: calls.append(('y', gi[0].item())))
z.backward(retain_graph=True)
z.backward()
print(calls, x.grad)
'''

PROGRAMS['node_metadata_dict'] = PRE + r'''
x = torch.tensor([1.], requires_grad=True)
y = x * 2
m = y.grad_fn.metadata
print(type(m).__name__, m, m is y.grad_fn.metadata)
m['step'] = 7
print(y.grad_fn.metadata)
z = y + 1
print(z.grad_fn.next_functions[0][0].metadata)
E(lambda: setattr(y.grad_fn, 'metadata', {}))
'''

PROGRAMS['gradient_edge_of_leaf_and_nonleaf'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
ex = get_gradient_edge(x)
ey = get_gradient_edge(y)
print(type(ex).__name__, ex.node.name(), ex.output_nr, ey.node.name(), ey.output_nr)
print(ey.node is y.grad_fn, ex.node is y.grad_fn.next_functions[0][0])
print(GradientEdge._fields, isinstance(ex, tuple))
E(lambda: get_gradient_edge(torch.tensor([1.])))
a, b, c = torch.tensor([1., 2., 3.], requires_grad=True).unbind()
print(get_gradient_edge(b).output_nr, get_gradient_edge(b).node.name())
'''

PROGRAMS['gradient_edge_as_grad_input'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
edge = get_gradient_edge(y)
z = (y * y).sum()
g, = torch.autograd.grad(z, edge)
print(g)
y2 = x * 5
e2 = get_gradient_edge(y2)
w = y2.sin().sum()
print(torch.autograd.grad(w, (e2, x)))
'''

PROGRAMS['gradient_edge_as_output'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * x
edge = get_gradient_edge(y)
print(torch.autograd.grad(edge, x, grad_outputs=torch.ones(2)))
E(lambda: torch.autograd.grad(edge, x))
'''

PROGRAMS['gradient_edge_backward_inputs'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.cos()
z = (y * 2).sum()
E(lambda: z.backward(inputs=[get_gradient_edge(y)]))
print(x.grad)
'''

PROGRAMS['increment_version_breaks_saved'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
z = y * y
print(y._version)
increment_version(y)
print(y._version)
E(lambda: z.sum().backward())
a = torch.tensor([1.])
b = torch.tensor([2.])
increment_version([a, b])
print(a._version, b._version)
increment_version((a,))
print(a._version)
'''

PROGRAMS['increment_version_inference_tensor'] = PRE + r'''
with torch.inference_mode():
    t = torch.ones(2)
E(lambda: increment_version(t))
print(t.is_inference())
E(lambda: t._version)
'''

PROGRAMS['multi_grad_hook_all_partial'] = PRE + r'''
a = torch.tensor([1.], requires_grad=True)
b = torch.tensor([2.], requires_grad=True)
c = torch.tensor([3.], requires_grad=True)
def fn(grads):
    print('all', [None if g is None else g.tolist() for g in grads])
h = register_multi_grad_hook((a, b, c), fn)
(a * b).sum().backward()
(c * 4).sum().backward()
(a + b + c).sum().backward()
h.remove()
(a * 2).sum().backward()
print(a.grad, b.grad, c.grad)
'''

PROGRAMS['multi_grad_hook_any'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3.], requires_grad=True)
calls = []
h = register_multi_grad_hook([a, b], lambda g: calls.append(g.tolist()), mode="any")
print(type(h).__name__)
(a.sum() * b).sum().backward()
(a * 7).sum().backward()
(b * 5).sum().backward()
print(calls)
E(lambda: register_multi_grad_hook([a], print, mode="every"))
'''

PROGRAMS['multi_grad_hook_nonleaf_and_grad'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
z = x * 3
seen = []
register_multi_grad_hook((y, z), lambda gs: seen.append([g.tolist() if g is not None else None for g in gs]))
out = (y * z).sum()
print(torch.autograd.grad(out, x, retain_graph=True))
print(torch.autograd.grad(out, y, retain_graph=True))
out.backward()
print(seen, x.grad)
'''

PROGRAMS['multi_grad_hook_requires_grad_false'] = PRE + r'''
a = torch.tensor([1.], requires_grad=True)
b = torch.tensor([2.])
E(lambda: register_multi_grad_hook((a, b), print))
h = register_multi_grad_hook((a, b), lambda g: print('any', g), mode="any")
(a * b).sum().backward()
'''

PROGRAMS['saved_hooks_pack_unpack_trace'] = PRE + r'''
log = []
def pack(t):
    log.append(('pack', tuple(t.shape), t.requires_grad))
    return t.clone()
def unpack(t):
    log.append(('unpack', tuple(t.shape)))
    return t
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
with saved_tensors_hooks(pack, unpack):
    y = x.pow(3).sum(0)
    z = (y * x[0]).sum()
log.append('--')
z.backward()
for l in log:
    print(l)
print(x.grad)
'''

PROGRAMS['saved_hooks_pack_returns_tuple'] = PRE + r'''
store = {}
def pack(t):
    k = len(store)
    store[k] = t.detach().numpy().copy()
    return ('key', k)
def unpack(p):
    print('unpack', p)
    return torch.from_numpy(store[p[1]])
x = torch.tensor([0.5, 1.5], requires_grad=True)
with saved_tensors_hooks(pack, unpack):
    y = torch.sigmoid(x) * x.tanh()
y.sum().backward()
print(sorted(store), x.grad)
'''

PROGRAMS['saved_hooks_unpack_wrong_type'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
with saved_tensors_hooks(lambda t: t, lambda p: 'oops'):
    y = x * x
E(lambda: y.sum().backward())
with saved_tensors_hooks(lambda t: t, lambda p: None):
    y = x.exp()
E(lambda: y.sum().backward())
'''

PROGRAMS['save_on_cpu_values_and_names'] = PRE + r'''
torch.manual_seed(1)
lin = torch.nn.Linear(3, 2)
x = torch.randn(4, 3)
with save_on_cpu(pin_memory=False):
    out = torch.tanh(lin(x)).sum()
print(out.grad_fn.name(), names(out.grad_fn))
out.backward()
print(lin.weight.grad, lin.bias.grad)
'''

PROGRAMS['disable_saved_tensors_hooks_messages'] = PRE + r'''
x = torch.tensor([1.], requires_grad=True)
with disable_saved_tensors_hooks("no hooks in this lesson"):
    E(lambda: saved_tensors_hooks(lambda t: t, lambda t: t).__enter__())
    y = x * x
    print(y)
    E(lambda: save_on_cpu().__enter__())
with saved_tensors_hooks(lambda t: t, lambda t: t):
    def inner():
        with disable_saved_tensors_hooks("inner"):
            pass
    E(inner)
print('done')
'''

PROGRAMS['allow_mutation_basic'] = PRE + r'''
a = torch.tensor([1., 2., 3.], requires_grad=True)
with allow_mutation_on_saved_tensors() as ctx:
    b = a.clone()
    c = b * b
    b.mul_(10)
    print(b, b._version)
    c.sum().backward()
print(a.grad, type(ctx).__name__)
'''

PROGRAMS['allow_mutation_backward_outside'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
with allow_mutation_on_saved_tensors():
    b = a.exp()
    c = (b * 2).sum()
    b.add_(1)
E(lambda: c.backward())
print(a.grad)
'''

PROGRAMS['allow_mutation_nested'] = PRE + r'''
def f():
    with allow_mutation_on_saved_tensors():
        with allow_mutation_on_saved_tensors():
            pass
E(f)
a = torch.tensor([2.], requires_grad=True)
with allow_mutation_on_saved_tensors():
    b = a * 1
    c = b.sin()
    b.zero_()
    c.backward()
print(a.grad)
'''

# ---- torch.utils.checkpoint, as a teacher shows what it recomputes

PROGRAMS['ckpt_counts_recomputation'] = PRE + r'''
calls = {'n': 0}
def f(t):
    calls['n'] += 1
    return t.sin().exp()
x = torch.tensor([0.1, 0.2], requires_grad=True)
for r in (True, False):
    calls['n'] = 0
    x.grad = None
    y = checkpoint(f, x, use_reentrant=r)
    print(r, calls['n'], y.grad_fn.name())
    y.sum().backward()
    print(r, calls['n'], x.grad)
'''

PROGRAMS['ckpt_batchnorm_running_stats_updated_twice'] = PRE + r'''
torch.manual_seed(0)
for r in (True, False):
    bn = torch.nn.BatchNorm1d(2)
    x = torch.randn(4, 2, requires_grad=True)
    y = checkpoint(bn, x, use_reentrant=r)
    print(r, bn.num_batches_tracked, bn.running_mean)
    y.pow(2).sum().backward()
    print(r, bn.num_batches_tracked, bn.running_mean, bn.weight.grad)
'''

PROGRAMS['ckpt_dropout_rng_preserved_or_not'] = PRE + r'''
x = torch.ones(8, requires_grad=True)
def f(t):
    return torch.nn.functional.dropout(t, 0.5, training=True) * 2
for r in (True, False):
    for keep in (True, False):
        torch.manual_seed(3)
        x.grad = None
        y = checkpoint(f, x, use_reentrant=r, preserve_rng_state=keep)
        y.sum().backward()
        print(r, keep, y.tolist(), x.grad.tolist(), torch.equal(x.grad, (y != 0).float() * 4))
'''

PROGRAMS['ckpt_hooks_inside_function'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
def f(t):
    u = t * 3
    print('grad enabled', torch.is_grad_enabled(), u.requires_grad)
    if u.requires_grad:
        u.register_hook(lambda g: print('hook in f', g))
    return u.sum()
for r in (True, False):
    x.grad = None
    y = checkpoint(f, x, use_reentrant=r)
    y.backward()
    print(r, x.grad)
'''

PROGRAMS['ckpt_with_user_saved_tensors_hooks'] = PRE + r'''
packed = []
def pack(t):
    packed.append(tuple(t.shape))
    return t
x = torch.tensor([1., 2., 3.], requires_grad=True)
for r in (True, False):
    packed.clear()
    x.grad = None
    with saved_tensors_hooks(pack, lambda t: t):
        y = checkpoint(lambda t: (t * t).sin(), x, use_reentrant=r)
        z = y.sum() * 2
    print(r, packed)
    z.backward()
    print(r, packed, x.grad)
'''

PROGRAMS['ckpt_retain_graph_twice'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
for r in (True, False):
    x.grad = None
    y = checkpoint(lambda t: t.pow(2), x, use_reentrant=r).sum()
    y.backward(retain_graph=True)
    E(lambda: y.backward())
    print(r, x.grad)
'''

PROGRAMS['ckpt_double_backward'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = checkpoint(lambda t: t.pow(3), x, use_reentrant=False).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
print(g, g.grad_fn.name())
g.sum().backward()
print(x.grad)
y2 = checkpoint(lambda t: t.pow(3), x, use_reentrant=True).sum()
E(lambda: torch.autograd.grad(y2, x, create_graph=True))
'''

PROGRAMS['ckpt_under_no_grad'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
with torch.no_grad():
    for r in (True, False):
        y = checkpoint(lambda t: t * 2, x, use_reentrant=r)
        print(r, y, y.requires_grad, y.grad_fn)
'''

PROGRAMS['ckpt_inputs_without_grad_warn'] = PRE + r'''
x = torch.tensor([1., 2.])
y = checkpoint(lambda t: t * 2, x, use_reentrant=True)
print(y.requires_grad)
y = checkpoint(lambda t: t * 2, x, use_reentrant=False)
print(y.requires_grad)
'''

PROGRAMS['ckpt_determinism_check_mismatch'] = PRE + r'''
state = {'k': 0}
def f(t):
    state['k'] += 1
    return t[:state['k'] + 1].sin() if state['k'] > 1 else t.sin()
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = checkpoint(f, x, use_reentrant=False)
try:
    y.sum().backward()
    print('no error')
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
state['k'] = 0
y = checkpoint(f, x, use_reentrant=False, determinism_check="none")
E(lambda: y.sum().backward())
E(lambda: checkpoint(f, x, use_reentrant=False, determinism_check="all"))
'''

PROGRAMS['ckpt_dict_and_list_output'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
def f(t):
    return {'a': t * 2, 'b': [t + 1, t.detach()]}
out = checkpoint(f, x, use_reentrant=False)
print(type(out).__name__, out['a'].grad_fn.name(), out['b'][0].grad_fn.name(), out['b'][1].requires_grad)
(out['a'] * out['b'][0]).sum().backward()
print(x.grad)
out = checkpoint(f, x, use_reentrant=True)
print(type(out).__name__, out['a'].requires_grad, out['a'].grad_fn)
'''

PROGRAMS['ckpt_inplace_on_input_inside'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
def f(t):
    u = t * 1
    u.mul_(3)
    return u.exp()
for r in (True, False):
    x.grad = None
    y = checkpoint(f, x, use_reentrant=r)
    y.sum().backward()
    print(r, y.grad_fn.name(), x.grad)
'''

PROGRAMS['ckpt_identity_output'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
for r in (True, False):
    x.grad = None
    y = checkpoint(lambda t: t, x, use_reentrant=r)
    print(r, y is x, y.grad_fn.name() if y.grad_fn else None, y.is_leaf)
    (y * 2).sum().backward()
    print(r, x.grad)
'''

PROGRAMS['ckpt_sequential_mlp'] = PRE + r'''
from torch.utils.checkpoint import checkpoint_sequential
torch.manual_seed(2)
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 4), torch.nn.ReLU(),
                            torch.nn.Linear(4, 1))
x = torch.randn(5, 3, requires_grad=True)
ref = model(x).sum()
ref.backward()
g_ref = [p.grad.clone() for p in model.parameters()]
for segs in (1, 2, 5):
    model.zero_grad(); x.grad = None
    out = checkpoint_sequential(model, segs, x, use_reentrant=False)
    out.sum().backward()
    print(segs, out.grad_fn.name(), torch.allclose(out.sum(), ref), all(torch.allclose(a, p.grad) for a, p in zip(g_ref, model.parameters())))
E(lambda: checkpoint_sequential(model, 0, x, use_reentrant=False))
'''

PROGRAMS['ckpt_autograd_grad_inputs'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
y = checkpoint(lambda a, b: (a * b).exp(), x, w, use_reentrant=False)
print(torch.autograd.grad(y.sum(), [w]))
print(w.grad, x.grad)
y = checkpoint(lambda a, b: (a * b).exp(), x, w, use_reentrant=True)
E(lambda: y.sum().backward(inputs=[w]))
'''

PROGRAMS['ckpt_early_stop_flag'] = PRE + r'''
from torch.utils.checkpoint import set_checkpoint_early_stop
seen = []
def f(t):
    a = t.sin(); seen.append('a')
    b = a.cos(); seen.append('b')
    c = b.exp(); seen.append('c')
    return c
x = torch.tensor([0.5], requires_grad=True)
for early in (True, False):
    seen.clear()
    with set_checkpoint_early_stop(early):
        y = checkpoint(f, x, use_reentrant=False)
    y.backward()
    print(early, seen, x.grad)
'''

PROGRAMS['ckpt_module_with_kwargs_forward'] = PRE + r'''
class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(2, 2)
    def forward(self, x, scale=1.0, act=None):
        y = self.lin(x) * scale
        return act(y) if act is not None else y
torch.manual_seed(0)
blk = Block()
x = torch.randn(3, 2, requires_grad=True)
y = checkpoint(blk, x, scale=2.0, act=torch.sigmoid, use_reentrant=False)
y.sum().backward()
print(y.grad_fn.name(), x.grad, blk.lin.weight.grad)
E(lambda: checkpoint(blk, x, scale=2.0, use_reentrant=True))
'''

# ---- torch.autograd.functional on small models

PROGRAMS['af_jacobian_of_linear_layer'] = PRE + r'''
torch.manual_seed(0)
lin = torch.nn.Linear(3, 2)
x = torch.randn(3)
J = AF.jacobian(lin, x)
print(J, J.requires_grad, torch.allclose(J, lin.weight))
J2 = AF.jacobian(lambda v: torch.tanh(lin(v)), x, create_graph=True)
print(J2.shape, J2.requires_grad, J2.grad_fn.name() if J2.grad_fn else None)
J2.sum().backward()
print(lin.weight.grad.shape, x.grad)
'''

PROGRAMS['af_jacobian_tuple_inputs_outputs'] = PRE + r'''
def f(a, b):
    return a * b, a.sum() + b.pow(2)
a = torch.tensor([1., 2.])
b = torch.tensor([3., 4.])
J = AF.jacobian(f, (a, b))
print(type(J).__name__, len(J), [type(r).__name__ for r in J])
for i, row in enumerate(J):
    for j, blk in enumerate(row):
        print(i, j, blk)
Jv = AF.jacobian(f, (a, b), vectorize=True)
print(all(torch.equal(x, y) for r1, r2 in zip(J, Jv) for x, y in zip(r1, r2)))
'''

PROGRAMS['af_jacobian_strict_independent'] = PRE + r'''
def f(a, b):
    return a * 2, torch.ones(2)
a = torch.tensor([1., 2.])
b = torch.tensor([3., 4.])
E(lambda: AF.jacobian(f, (a, b), strict=True))
print(AF.jacobian(f, (a, b)))
E(lambda: AF.jacobian(f, (a, b), strict=True, vectorize=True))
E(lambda: AF.jacobian(f, (a, b), strict=True, create_graph=True))
'''

PROGRAMS['af_hessian_of_two_input_fn'] = PRE + r'''
def f(x, y):
    return (x.pow(2) * y).sum() + (x * y.exp()).sum()
x = torch.tensor([1., 2.], dtype=torch.float64)
y = torch.tensor([0.5, -0.5], dtype=torch.float64)
H = AF.hessian(f, (x, y))
for i in range(2):
    for j in range(2):
        print(i, j, H[i][j])
print(torch.allclose(H[0][1], H[1][0].T))
Hv = AF.hessian(f, (x, y), vectorize=True)
print(all(torch.allclose(H[i][j], Hv[i][j]) for i in range(2) for j in range(2)))
'''

PROGRAMS['af_hessian_nonscalar_error'] = PRE + r'''
E(lambda: AF.hessian(lambda x: x * 2, torch.ones(2)))
E(lambda: AF.hessian(lambda x: (x * 2, x.sum()), torch.ones(2)))
E(lambda: AF.hessian(lambda x: x.sum(), torch.ones(2), outer_jacobian_strategy='magic'))
print(AF.hessian(lambda x: x.sum() * 3, torch.ones(2)))
print(AF.hessian(lambda x: x.pow(3).sum(), torch.tensor(2.)))
'''

PROGRAMS['af_vjp_jvp_shapes'] = PRE + r'''
def f(x):
    return torch.stack([x[0] * x[1], x[1].sin(), x.sum()])
x = torch.tensor([1., 2.])
out, v = AF.vjp(f, x, torch.tensor([1., 0., 1.]))
print(out, v)
out, t = AF.jvp(f, x, torch.tensor([1., 1.]))
print(out, t)
E(lambda: AF.vjp(f, x))
E(lambda: AF.vjp(f, x, torch.ones(2)))
E(lambda: AF.jvp(f, x, torch.ones(3)))
E(lambda: AF.jvp(lambda x: x.sum(), x))
print(AF.jvp(lambda x: x * 2, torch.tensor([3.])))
'''

PROGRAMS['af_hvp_vhp_on_quadratic'] = PRE + r'''
A = torch.tensor([[2., 1.], [0., 3.]])
def f(x):
    return x @ A @ x
x = torch.tensor([1., -1.])
v = torch.tensor([1., 2.])
print(AF.hvp(f, x, v))
print(AF.vhp(f, x, v))
print((A + A.T) @ v, v @ (A + A.T))
E(lambda: AF.hvp(lambda x: x * 2, x, v))
E(lambda: AF.hvp(f, x))
'''

PROGRAMS['af_strict_vjp_jvp'] = PRE + r'''
x = torch.tensor([1., 2.])
E(lambda: AF.vjp(lambda x: torch.ones(2), x, torch.ones(2), strict=True))
E(lambda: AF.jvp(lambda x: torch.ones(2), x, torch.ones(2), strict=True))
E(lambda: AF.vjp(lambda x: x.detach() * 2, x, torch.ones(2), strict=True))
E(lambda: AF.hvp(lambda x: x.sum(), x, torch.ones(2), strict=True))
E(lambda: AF.vhp(lambda x: (x * 2).sum(), x, torch.ones(2), strict=True))
print(AF.vjp(lambda x: torch.ones(2), x, torch.ones(2)))
print(AF.hvp(lambda x: x.sum(), x, torch.ones(2)))
'''

PROGRAMS['af_create_graph_flows_to_params'] = PRE + r'''
w = torch.tensor([1., 2.], requires_grad=True)
def f(x):
    return (w * x.pow(2)).sum()
x = torch.tensor([3., 4.])
out, g = AF.vjp(f, x, create_graph=True)
print(out.requires_grad, g.requires_grad, g.grad_fn.name() if g.grad_fn else None)
g.sum().backward()
print(w.grad)
out, g = AF.vjp(f, x)
print(out.requires_grad, g.requires_grad, out.grad_fn)
'''

PROGRAMS['af_non_tensor_output_error'] = PRE + r'''
x = torch.tensor([1., 2.])
E(lambda: AF.jacobian(lambda x: 3.0, x))
E(lambda: AF.jacobian(lambda x: [x * 2], x))
E(lambda: AF.vjp(lambda x: x.tolist(), x, torch.ones(2)))
E(lambda: AF.jacobian(lambda x: x, [1., 2.]))
E(lambda: AF.jacobian(lambda x: [x * 2, x.sum()], x))
print(AF.jacobian(lambda x: (x * 2,), (x,)))
'''

PROGRAMS['af_integer_input'] = PRE + r'''
E(lambda: AF.jacobian(lambda x: x * 2, torch.tensor([1, 2])))
E(lambda: AF.vjp(lambda x: x.float() * 2, torch.tensor([1, 2]), torch.ones(2)))
print(AF.jacobian(lambda x: x * 2, torch.tensor([1., 2.], dtype=torch.float16)))
'''

PROGRAMS['af_jacobian_of_softmax_properties'] = PRE + r'''
x = torch.tensor([1., 2., 0.5], dtype=torch.float64)
J = AF.jacobian(lambda z: torch.softmax(z, 0), x)
s = torch.softmax(x, 0)
print(J)
print(torch.allclose(J, torch.diag(s) - torch.outer(s, s)), J.sum(0))
'''

PROGRAMS['af_jacobian_forward_mode_strategy'] = PRE + r'''
x = torch.tensor([1., 2.])
E(lambda: AF.jacobian(lambda x: x.exp(), x, strategy='forward-mode'))
print(AF.jacobian(lambda x: x.exp(), x, strategy='forward-mode', vectorize=True))
E(lambda: AF.jacobian(lambda x: x.exp(), x, strategy='forward-mode', vectorize=True, create_graph=True))
E(lambda: AF.jacobian(lambda x: x.exp(), x, strategy='sideways'))
'''

PROGRAMS['af_jacobian_inputs_requires_grad_untouched'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
J = AF.jacobian(lambda v: v * v, x)
print(J, J.requires_grad, x.grad, x.requires_grad)
with torch.no_grad():
    J = AF.jacobian(lambda v: v * v, x)
    print(J, torch.is_grad_enabled())
with torch.no_grad():
    J = AF.jacobian(lambda v: v * v, x, create_graph=True)
    print(J.requires_grad)
'''

PROGRAMS['af_vjp_tuple_v_mismatch'] = PRE + r'''
def f(a, b):
    return a + b, a * b
a = torch.tensor([1., 2.])
b = torch.tensor([3., 4.])
print(AF.vjp(f, (a, b), (torch.ones(2), torch.ones(2))))
E(lambda: AF.vjp(f, (a, b), (torch.ones(2),)))
E(lambda: AF.vjp(f, (a, b), torch.ones(2)))
E(lambda: AF.jvp(f, (a, b), (torch.ones(2), torch.ones(3))))
'''

# ---- anomaly mode

PROGRAMS['anomaly_enter_warning_and_flags'] = PRE + r'''
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
with torch.autograd.detect_anomaly():
    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
with torch.autograd.detect_anomaly(check_nan=False):
    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
torch.autograd.set_detect_anomaly(True)
print(torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(False)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
'''

PROGRAMS['anomaly_nan_in_backward_messages'] = PRE + r'''
import warnings
warnings.simplefilter("ignore")
x = torch.tensor([0., 1.], requires_grad=True)
with torch.autograd.detect_anomaly():
    for f in (lambda t: t.sqrt(), lambda t: t / t, lambda t: t.log() * 0, lambda t: t.pow(0.5)):
        x.grad = None
        E(lambda: f(x).sum().backward())
    y = x.sqrt().sum()
with torch.autograd.detect_anomaly(check_nan=False):
    y.backward()
    print(x.grad)
'''

PROGRAMS['anomaly_metadata_traceback_key'] = PRE + r'''
import warnings
warnings.simplefilter("ignore")
x = torch.tensor([1.], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = x * 2
    z = y.exp()
print(sorted(y.grad_fn.metadata), sorted(z.grad_fn.metadata))
print(type(y.grad_fn.metadata.get('traceback_')).__name__)
w = x * 3
print(w.grad_fn.metadata)
'''

PROGRAMS['anomaly_forward_nan_not_checked'] = PRE + r'''
import warnings
warnings.simplefilter("ignore")
with torch.autograd.detect_anomaly():
    x = torch.tensor([-1., 4.], requires_grad=True)
    y = x.sqrt()
    print(y)
    E(lambda: y.sum().backward())
    print(x.grad)
'''

PROGRAMS['anomaly_custom_function_nan'] = PRE + r'''
import warnings
warnings.simplefilter("ignore")
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * float('nan')
x = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.detect_anomaly():
    E(lambda: Bad.apply(x).sum().backward())
print(x.grad)
Bad.apply(x).sum().backward()
print(x.grad)
'''

PROGRAMS['anomaly_decorator_and_set'] = PRE + r'''
import warnings
warnings.simplefilter("ignore")
def step(x):
    print('inside', torch.is_anomaly_enabled())
    return (x / x.sum()).log().sum()
E(lambda: torch.autograd.detect_anomaly()(step))
x = torch.tensor([0., 1.], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = step(x)
print(torch.is_anomaly_enabled())
E(lambda: y.backward())
with torch.autograd.set_detect_anomaly(True):
    print(torch.is_anomaly_enabled())
print(torch.is_anomaly_enabled())
print(torch.autograd.set_detect_anomaly(True, check_nan=False).__class__.__name__, torch.is_anomaly_check_nan_enabled())
torch.autograd.set_detect_anomaly(False)
'''

PROGRAMS['anomaly_error_detected_warning_text'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = x * 2
    z = y.exp()
    y.add_(1)
    try:
        z.sum().backward()
    except RuntimeError as e:
        print('error', str(e).splitlines()[0][:60])
'''

# ---- the common mistakes and the texts they print

PROGRAMS['mistake_backward_twice_various_nodes'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
for f in (lambda t: t.exp(), lambda t: t * t, lambda t: t.sigmoid(), lambda t: t.pow(2),
          lambda t: torch.nn.functional.softmax(t, 0), lambda t: t @ t, lambda t: t.norm()):
    y = f(x).sum()
    y.backward()
    E(lambda: y.backward())
x.grad = None
y = (x + 1).sum()
y.backward(); y.backward()
print(x.grad)
'''

PROGRAMS['mistake_inplace_on_leaf_and_views'] = PRE + r'''
w = torch.tensor([1., 2., 3.], requires_grad=True)
E(lambda: w.add_(1))
E(lambda: w[0].mul_(2))
E(lambda: w.view(3).zero_())
def f():
    w[1] = 5
E(f)
def g():
    w += 1
E(g)
with torch.no_grad():
    w.add_(1)
    w[0] = 0
print(w, w._version, w.is_leaf, w.grad_fn)
w.data.mul_(2)
print(w, w._version)
'''

PROGRAMS['mistake_grad_of_non_scalar'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
E(lambda: y.backward())
E(lambda: torch.autograd.grad(y, x))
E(lambda: torch.autograd.grad([y, y.sum()], x))
y.backward(torch.tensor([1., 0.5]))
print(x.grad)
z = (x * x).unsqueeze(0)
E(lambda: z.backward())
w = torch.tensor([[3.]], requires_grad=True) * 2
w.backward()
print(w.shape)
'''

PROGRAMS['mistake_grad_of_nonleaf_warning'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
z = y.sum()
z.backward()
print(y.grad)
print(y.is_leaf, y.retains_grad)
y2 = x * 3
y2.retain_grad()
y2.sum().backward()
print(y2.grad)
print(x.grad)
g = (x + 0).grad
print(g)
'''

PROGRAMS['mistake_numpy_of_requires_grad'] = PRE + r'''
import numpy as np
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: x.numpy())
E(lambda: (x * 2).numpy())
print(x.detach().numpy(), x.numpy(force=True))
E(lambda: np.asarray(x))
E(lambda: np.array(x * 2))
print(x.tolist(), (x * 2).tolist(), float(x[0]), x[1].item())
E(lambda: x.item())
'''

PROGRAMS['mistake_backward_without_graph'] = PRE + r'''
x = torch.tensor([1., 2.])
E(lambda: (x * 2).sum().backward())
w = torch.tensor([1., 2.], requires_grad=True)
with torch.no_grad():
    y = (w * 2).sum()
E(lambda: y.backward())
E(lambda: torch.autograd.grad(y, w))
z = (w.detach() * 2).sum()
E(lambda: z.backward())
print(w.grad)
'''

PROGRAMS['mistake_unused_input_in_grad'] = PRE + r'''
a = torch.tensor([1.], requires_grad=True)
b = torch.tensor([2.], requires_grad=True)
c = torch.tensor([3.])
y = (a * 3).sum()
E(lambda: torch.autograd.grad(y, [a, b], retain_graph=True))
print(torch.autograd.grad(y, [a, b], allow_unused=True, retain_graph=True))
print(torch.autograd.grad(y, [a, b], allow_unused=True, materialize_grads=True, retain_graph=True))
E(lambda: torch.autograd.grad(y, [a, c], retain_graph=True))
E(lambda: torch.autograd.grad(y, [a, b], allow_unused=False, materialize_grads=True))
'''

PROGRAMS['mistake_requires_grad_on_nonleaf_and_ints'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
E(lambda: y.requires_grad_(False))
def f():
    y.requires_grad = False
E(f)
y.requires_grad_(True)
print(y.requires_grad)
E(lambda: torch.tensor([1, 2], requires_grad=True))
E(lambda: torch.tensor([1, 2]).requires_grad_())
E(lambda: torch.arange(3, requires_grad=True))
print(torch.tensor([True]).requires_grad)
E(lambda: torch.zeros(2, dtype=torch.bool, requires_grad=True))
print(torch.tensor([1 + 2j], requires_grad=True))
'''

PROGRAMS['mistake_optimizer_non_leaf'] = PRE + r'''
w = torch.tensor([1., 2.], requires_grad=True)
E(lambda: torch.optim.SGD([w * 2], lr=0.1))
E(lambda: torch.optim.SGD(w, lr=0.1))
E(lambda: torch.optim.SGD([], lr=0.1))
E(lambda: torch.optim.SGD([w], lr=-1))
E(lambda: torch.optim.SGD([w, w], lr=0.1))
opt = torch.optim.SGD([w], lr=0.1)
opt.step()
print(w, w.grad)
E(lambda: opt.add_param_group({'params': w}))
'''

PROGRAMS['mistake_grad_zero_when_none'] = PRE + r'''
w = torch.tensor([1., 2.], requires_grad=True)
E(lambda: w.grad.zero_())
(w * w).sum().backward()
w.grad.zero_()
print(w.grad)
E(lambda: setattr(w, 'grad', torch.zeros(3)))
E(lambda: setattr(w, 'grad', torch.zeros(2, dtype=torch.float64)))
E(lambda: setattr(w, 'grad', [0., 0.]))
w.grad = None
print(w.grad)
'''

PROGRAMS['mistake_gradient_argument_shape'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
for g in (torch.ones(3), torch.ones(2, dtype=torch.float64), torch.ones(1, 2), torch.ones(2, dtype=torch.int64),
          [1., 1.], torch.ones(2, dtype=torch.complex64), 2.0, None):
    y = x * 2
    E(lambda: y.backward(g))
    print(x.grad)
    E(lambda: torch.autograd.grad(x * x, x, g))
'''

# fixed: the scalar-conversion warning before torch.tensor([x, x])'s ValueError
PROGRAMS['mistake_torch_tensor_of_tensor'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor(x)
print(y, y.requires_grad)
z = torch.tensor(x * 2)
print(z)
E(lambda: torch.tensor([x, x]))  # fixed: float()'s warning comes before its error
E(lambda: torch.tensor([x[0], x[1]]))
E(lambda: torch.tensor([x, x], dtype=torch.int64))
print(torch.stack([x[0], x[1]]))
print(torch.as_tensor(x).requires_grad, torch.as_tensor(x) is x)
'''

PROGRAMS['mistake_modify_saved_input'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
a = x * 1
b = a.sigmoid()
a.mul_(2)
print(a._version)
E(lambda: b.sum().backward())
c = x.clone()
d = c.sigmoid()
d.mul_(2)
E(lambda: d.sum().backward())
e = x.clone()
f = e.exp()
f.add_(1)
E(lambda: f.sum().backward())
g = x.clone()
h = g ** 2
g.zero_()
E(lambda: h.sum().backward())
'''

PROGRAMS['mistake_detach_shares_storage'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
d = y.detach()
d.zero_()
print(y, d, y._version, d._version)
E(lambda: y.sum().backward())
x.grad = None
y = x.exp()
d = y.detach().clone()
d.zero_()
y.sum().backward()
print(x.grad)
'''

PROGRAMS['mistake_loss_item_in_accumulation'] = PRE + r'''
torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
xs = torch.randn(4, 3)
total = 0
for xi in xs:
    loss = (xi @ w) ** 2
    total += loss
print(type(total).__name__, total.grad_fn.name())
total.backward()
print(w.grad)
w.grad = None
total = 0.0
for xi in xs:
    loss = (xi @ w) ** 2
    total += loss.item()
print(type(total).__name__)
E(lambda: torch.tensor(total).backward())
'''

PROGRAMS['mistake_forget_zero_grad'] = PRE + r'''
w = torch.tensor([1., 1.], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.5)
for step in range(3):
    loss = (w * torch.tensor([1., 2.])).sum()
    loss.backward()
    print(step, w.grad)
    opt.step()
print(w)
opt.zero_grad()
print(w.grad)
opt.zero_grad(set_to_none=False)
print(w.grad)
(w.sum()).backward()
opt.zero_grad(set_to_none=False)
print(w.grad)
'''

PROGRAMS['mistake_view_of_leaf_inplace_under_no_grad'] = PRE + r'''
w = torch.tensor([1., 2., 3.], requires_grad=True)
with torch.no_grad():
    v = w[:2]
print(v.requires_grad, v.grad_fn, v._is_view())
E(lambda: v.mul_(2))
u = w[:2]
E(lambda: u.mul_(2))
with torch.no_grad():
    u.mul_(2)
print(w, u.grad_fn)
'''

PROGRAMS['mistake_nonleaf_grad_attribute_assignment'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.grad = torch.ones(2)
print(y.grad)
y.sum().backward()
print(y.grad, x.grad)
E(lambda: setattr(x, 'grad_fn', None))
E(lambda: setattr(x, 'is_leaf', False))
E(lambda: setattr(y, 'requires_grad', False))
'''

# fixed: linspace/logspace read 0-dim tensor ends as numbers (one requiring grad raised numpy()'s error)
PROGRAMS['mistake_linspace_with_tensor_ends'] = PRE + r'''
x = torch.tensor([0.5, 2.], requires_grad=True)
t = torch.linspace(0, x[1], 5)
print(t, t.requires_grad, t.grad_fn)
print(torch.linspace(x[0], x[1], 3, dtype=torch.float16), torch.linspace(x[0], x[1], 3, dtype=torch.int64))
print(torch.logspace(0, x[1], 3), torch.logspace(x[0], x[1], 2, base=2, dtype=torch.float64))
print(torch.linspace(x[0], 3, 1), torch.logspace(x[0], 3, 1))
c = torch.tensor(1 + 2j, requires_grad=True)
print(torch.linspace(0, c, 3), torch.logspace(0, c, 2))
E(lambda: torch.linspace(x, 3, 4))
E(lambda: torch.linspace(0, x[1], 3, dtype=torch.float32, requires_grad=True).sum().backward())
print(x.grad)
'''

PROGRAMS['anomaly_traceback_warning_full'] = PRE + r'''
def _show(message, category, filename, lineno, file=None, line=None):
    text = str(message)
    lines = [l for l in text.splitlines() if 'program' in l or not l.startswith('  File')]
    print('W', category.__name__, '|'.join(l.strip() for l in lines))
warnings.showwarning = _show
def forward(x):
    h = x.exp()
    return (h / (h - h)).sum()
x = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.detect_anomaly():
    loss = forward(x)
    E(lambda: loss.backward())
'''

PROGRAMS['anomaly_nested_backward_error_in_hook'] = PRE + r'''
def _show(message, category, filename, lineno, file=None, line=None):
    text = str(message)
    print('W', category.__name__, text.splitlines()[0])
warnings.showwarning = _show
x = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = x.sin()
    y.register_hook(lambda g: 1 / 0)
    z = y.cos().sum()
    E(lambda: z.backward())
    w = x.tanh()
    w.grad_fn.register_prehook(lambda go: (go[0] * float('nan'),))
    E(lambda: w.sum().backward())
'''

# ---- more graph API: custom Functions, saved tensors and hooks together

PROGRAMS['custom_function_node_hooks'] = PRE + r'''
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
node = y.grad_fn
print(node.name(), type(node).__name__, isinstance(node, Node), node.next_functions)
node.register_prehook(lambda go: print('pre', go))
node.register_hook(lambda gi, go: print('post', gi, go))
print(node.metadata, get_gradient_edge(y).node is node)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['custom_function_saved_tensors_hooks'] = PRE + r'''
log = []
class Mul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        ctx.k = 2
        return a * b
    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        log.append('backward')
        return g * b, g * a
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.])
def pack(t):
    log.append(('pack', t.tolist()))
    return t * 1
def unpack(t):
    log.append(('unpack', t.tolist()))
    return t
with saved_tensors_hooks(pack, unpack):
    y = Mul.apply(a, b)
y.sum().backward()
print(log, a.grad)
E(lambda: y.grad_fn.saved_tensors)
'''

PROGRAMS['pack_hook_inplace_modification'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
def pack(t):
    t.mul_(2)
    return t
def f():
    with saved_tensors_hooks(pack, lambda t: t):
        y = x.pow(2)
E(f)
a = x * 1
def g():
    with saved_tensors_hooks(pack, lambda t: t):
        y = a.exp()
E(g)
print(a)
'''

PROGRAMS['raw_saved_register_hooks'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.pow(3)
raw = y.grad_fn._raw_saved_self
print(type(raw).__name__)
raw.register_hooks(lambda t: print('pack', t) or t.tolist(), lambda p: print('unpack', p) or torch.tensor(p))
E(lambda: raw.register_hooks(lambda t: t, lambda t: t))
y.sum().backward()
print(x.grad)
z = x.exp()
E(lambda: z.grad_fn._raw_saved_result.register_hooks(lambda t: t))
E(lambda: z.grad_fn._raw_saved_result.register_hooks(1, 2))
'''

PROGRAMS['saved_hooks_double_backward_packs'] = PRE + r'''
count = {'pack': 0, 'unpack': 0}
def pack(t):
    count['pack'] += 1
    return t
def unpack(t):
    count['unpack'] += 1
    return t
x = torch.tensor([1., 2.], requires_grad=True)
with saved_tensors_hooks(pack, unpack):
    y = (x.sin() * x).sum()
    print(dict(count))
    g, = torch.autograd.grad(y, x, create_graph=True)
    print(dict(count))
g.sum().backward()
print(dict(count), x.grad)
'''

PROGRAMS['saved_hooks_unpack_changes_shape_or_dtype'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
with saved_tensors_hooks(lambda t: t, lambda t: t.double()):
    y = x * x
E(lambda: y.sum().backward())
print(x.grad)
x.grad = None
with saved_tensors_hooks(lambda t: t, lambda t: t.sum()):
    y = x * x
E(lambda: y.sum().backward())
print(x.grad)
'''

PROGRAMS['next_functions_with_none_edges'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
c = torch.tensor([3., 4.])
y = x * c
print(y.grad_fn.next_functions)
z = c * x
print(z.grad_fn.next_functions)
w = torch.cat([c, x, c])
print(w.grad_fn.next_functions)
v = torch.where(c > 3, x, c)
print(v.grad_fn.name(), v.grad_fn.next_functions)
u = torch.addcmul(c, x, c)
print(u.grad_fn.next_functions)
'''

PROGRAMS['multi_output_nodes_output_nr'] = PRE + r'''
x = torch.arange(6., requires_grad=True).view(2, 3)
a, b = x.split([1, 2], dim=1)
print(a.output_nr, b.output_nr, a.grad_fn is b.grad_fn, a.grad_fn.name())
vals, idx = x.max(dim=1)
print(vals.output_nr, idx.requires_grad, vals.grad_fn.name())
m, s = torch.std_mean(x, dim=0)
print(m.output_nr, s.output_nr, m.grad_fn.name(), m.grad_fn is s.grad_fn)
u = x.unbind(1)
print([t.output_nr for t in u], [get_gradient_edge(t).output_nr for t in u])
(b.sum() + vals.sum() + s.sum() * 2).backward()
print(x.grad)
'''

PROGRAMS['retain_grad_errors_and_leaf'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
x.retain_grad()
print(x.retains_grad)
c = torch.tensor([1.])
E(lambda: c.retain_grad())
E(lambda: c.register_hook(lambda g: g))
E(lambda: c.register_post_accumulate_grad_hook(lambda t: None))
y = x * 2
E(lambda: y.register_post_accumulate_grad_hook(lambda t: None))
y.retain_grad(); y.retain_grad()
y.sum().backward()
print(y.grad, y.retains_grad)
'''

PROGRAMS['backward_inputs_empty_and_nonleaf'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
z = (y * y).sum()
E(lambda: z.backward(inputs=[]))
z.backward(inputs=[y], retain_graph=True)
print(y.grad, x.grad, y.retains_grad)
z.backward(inputs=x)
print(x.grad)
E(lambda: torch.autograd.grad(z, []))
E(lambda: torch.autograd.grad([], [x]))
E(lambda: torch.autograd.backward([]))
'''

PROGRAMS['grad_outputs_length_mismatch'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y1 = x * 2
y2 = x * 3
E(lambda: torch.autograd.grad([y1, y2], x, grad_outputs=[torch.ones(2)]))
E(lambda: torch.autograd.backward([y1, y2], grad_tensors=[torch.ones(2)]))
E(lambda: torch.autograd.grad([y1, y2], x, grad_outputs=[torch.ones(2), None], allow_unused=True))
print(torch.autograd.grad([y1, y2.sum()], x, grad_outputs=[torch.ones(2), None]))
'''

PROGRAMS['no_grad_misuse'] = PRE + r'''
def f():
    with torch.no_grad:
        pass
E(f)
@torch.no_grad
def g(x):
    return x * 2
x = torch.tensor([1.], requires_grad=True)
print(g(x).requires_grad)
@torch.enable_grad()
def h(x):
    return x * 2
with torch.no_grad():
    print(h(x).requires_grad)
@torch.set_grad_enabled(False)
def k(x):
    return x * 2
print(k(x).requires_grad, torch.is_grad_enabled())
E(lambda: torch.set_grad_enabled())
E(lambda: torch.set_grad_enabled('yes'))
print(torch.no_grad(), torch.enable_grad().__class__.__name__)
'''

PROGRAMS['inference_mode_mistakes'] = PRE + r'''
with torch.inference_mode():
    t = torch.ones(2)
w = torch.tensor([1., 2.], requires_grad=True)
E(lambda: w * t)
y = w + t
print(y.requires_grad, y.grad_fn.name())
E(lambda: w.exp() * t)
E(lambda: t.add_(1))
E(lambda: (w * 1).mul(t).sum().backward())
z = t.clone()
print(z.is_inference(), (w * z).sum().requires_grad)
with torch.inference_mode():
    E(lambda: torch.ones(1, requires_grad=True) * 2)
    r = w * 2
    print(r.requires_grad, r.is_inference())
E(lambda: t.requires_grad_())
'''

# ---- a teacher's graph printer on small models: every node, its saved attributes and edges

DUMP = r'''
def dump(root):
    seen, order, stack = set(), [], [root]
    while stack:
        n = stack.pop()
        if n is None or n in seen:
            continue
        seen.add(n)
        order.append(n)
        stack += [m for m, _ in reversed(n.next_functions)]
    for n in order:
        attrs = []
        for a in sorted(dir(n)):
            if a.startswith('_saved_'):
                try:
                    v = getattr(n, a)
                except Exception as e:
                    v = type(e).__name__
                if isinstance(v, torch.Tensor):
                    # (item() of a 0-d one: PyTorch's sum() of a saved wrapped number reads garbage)
                    v = ('T', tuple(v.shape), str(v.dtype), round(float(v.double().sum() if v.dim() else v.item()), 4)
                         if v.numel() else 0)
                elif isinstance(v, (tuple, list)) and v and isinstance(v[0], torch.Tensor):
                    v = [tuple(t.shape) for t in v]
                attrs.append((a[7:], v))
        print(n.name(), [(m.name() if m else None, k) for m, k in n.next_functions], attrs)
'''

PROGRAMS['dump_conv_bn_relu_pool'] = PRE + DUMP + r'''
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3, padding=1), torch.nn.BatchNorm2d(2), torch.nn.ReLU(),
                            torch.nn.MaxPool2d(2), torch.nn.Flatten(), torch.nn.Linear(8, 1))
x = torch.randn(2, 1, 4, 4)
out = model(x).sum()
dump(out.grad_fn)
model.eval()
dump(model(x).sum().grad_fn)
'''

PROGRAMS['dump_embedding_layernorm_gelu'] = PRE + DUMP + r'''
torch.manual_seed(1)
emb = torch.nn.Embedding(5, 4, padding_idx=0)
ln = torch.nn.LayerNorm(4)
lin = torch.nn.Linear(4, 3)
idx = torch.tensor([[0, 2, 4], [1, 1, 3]])
out = torch.nn.functional.gelu(lin(ln(emb(idx)))).mean()
dump(out.grad_fn)
out.backward()
print(emb.weight.grad.sum(1))
'''

PROGRAMS['dump_attention_scores'] = PRE + DUMP + r'''
torch.manual_seed(2)
q = torch.randn(1, 3, 4, requires_grad=True)
k = torch.randn(1, 3, 4, requires_grad=True)
v = torch.randn(1, 3, 4, requires_grad=True)
scores = q @ k.transpose(-2, -1) / 4 ** 0.5
mask = torch.triu(torch.ones(3, 3, dtype=torch.bool), 1)
att = scores.masked_fill(mask, float('-inf')).softmax(-1)
out = (att @ v).sum()
dump(out.grad_fn)
out.backward()
print(q.grad.sum(), k.grad.sum(), v.grad.sum())
'''

PROGRAMS['dump_losses'] = PRE + DUMP + r'''
torch.manual_seed(3)
logits = torch.randn(4, 3, requires_grad=True)
target = torch.tensor([0, 2, 1, 2])
F = torch.nn.functional
for loss in (F.cross_entropy(logits, target), F.cross_entropy(logits, target, label_smoothing=0.1),
             F.nll_loss(F.log_softmax(logits, 1), target, reduction='sum'),
             F.mse_loss(logits, torch.zeros(4, 3)), F.binary_cross_entropy_with_logits(logits, torch.ones(4, 3)),
             F.smooth_l1_loss(logits, torch.zeros(4, 3), beta=0.5), F.huber_loss(logits, torch.ones(4, 3))):
    dump(loss.grad_fn)
    print('--')
'''

PROGRAMS['dump_rnn_cell_unrolled'] = PRE + DUMP + r'''
torch.manual_seed(4)
cell = torch.nn.RNNCell(2, 3)
h = torch.zeros(1, 3)
xs = torch.randn(2, 1, 2)
for x in xs:
    h = cell(x, h)
dump(h.sum().grad_fn)
'''

PROGRAMS['dump_views_and_inplace'] = PRE + DUMP + r'''
x = torch.arange(6., requires_grad=True)
y = x.view(2, 3).t()
z = y.clone()
z[0].mul_(2)
z.transpose(0, 1)[1] += 1
w = z.reshape(-1).expand(2, 6).sum()
dump(w.grad_fn)
w.backward()
print(x.grad)
'''

PROGRAMS['dump_indexing_ops'] = PRE + DUMP + r'''
x = torch.arange(12., requires_grad=True).view(3, 4)
i = torch.tensor([2, 0])
parts = [x[i], x[:, i], x[x > 5], x[1:, ::2], x.gather(1, torch.tensor([[0], [3], [1]])),
         x.index_select(0, i), x.take(torch.tensor([0, 11])), torch.take_along_dim(x, torch.tensor([[1], [2], [0]]), 1),
         x.masked_select(x < 3), x.narrow(1, 1, 2)]
for p in parts:
    dump(p.sum().grad_fn)
'''

# ---- which hooks run, and in which order, for backward and autograd.grad

PROGRAMS['hooks_on_leaf_with_autograd_grad'] = PRE + r'''
w = torch.tensor([1., 2.], requires_grad=True)
acc = (w * 1).grad_fn.next_functions[0][0]
acc.register_prehook(lambda go: print('acc pre', go))
acc.register_hook(lambda gi, go: print('acc post', gi, go))
w.register_hook(lambda g: print('tensor hook', g))
w.register_post_accumulate_grad_hook(lambda t: print('post accumulate', t.grad))
y = (w * w).sum()
print(torch.autograd.grad(y, w, retain_graph=True))
print('-- backward')
y.backward(retain_graph=True)
print('-- backward inputs')
y.backward(inputs=[w])
print(w.grad)
'''

PROGRAMS['hooks_on_nonleaf_with_inputs'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
y.register_hook(lambda g: print('y tensor hook', g))
y.grad_fn.register_prehook(lambda go: print('y node pre', go))
y.grad_fn.register_hook(lambda gi, go: print('y node post', gi))
z = (y * 2).sum()
print(torch.autograd.grad(z, y, retain_graph=True))
z.backward(inputs=[y], retain_graph=True)
print(y.grad, x.grad)
z.backward()
print(x.grad)
'''

PROGRAMS['retain_grad_sees_hooked_grad'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.register_hook(lambda g: g * 10)
y.retain_grad()
y.register_hook(lambda g: g + 1)
y.sum().backward()
print(y.grad, x.grad)
a = x * 3
a.retain_grad()
a.register_hook(lambda g: g * 0)
a.sum().backward()
print(a.grad, x.grad)
'''

PROGRAMS['post_accumulate_optimizer_in_backward'] = PRE + r'''
torch.manual_seed(0)
lin = torch.nn.Linear(2, 1)
opts = {p: torch.optim.SGD([p], lr=0.1) for p in lin.parameters()}
def step(p):
    opts[p].step()
    opts[p].zero_grad()
for p in lin.parameters():
    p.register_post_accumulate_grad_hook(step)
x = torch.tensor([[1., 2.], [3., 4.]])
for i in range(3):
    loss = lin(x).pow(2).mean()
    loss.backward()
    print(i, loss.item(), lin.weight.data, lin.bias.data, lin.weight.grad)
'''

PROGRAMS['hook_registered_inside_hook'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
a = x * 2
b = a.sin()
def on_b(g):
    print('b hook', g)
    a.register_hook(lambda ga: print('late a hook', ga))
    return g
b.register_hook(on_b)
b.sum().backward(retain_graph=True)
print('--')
b.sum().backward()
'''

PROGRAMS['hook_removed_inside_hook'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
handles = []
def first(g):
    print('first', g)
    handles[1].remove()
    return g
handles.append(y.register_hook(first))
handles.append(y.register_hook(lambda g: print('second', g) or g * 100))
y.sum().backward(retain_graph=True)
print(x.grad)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['hook_on_tensor_used_twice'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
calls = []
y.register_hook(lambda g: calls.append(g.tolist()))
z = (y * y + y.exp()).sum()
z.backward()
print(calls, x.grad)
'''

PROGRAMS['hook_changes_dtype_or_device'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.register_hook(lambda g: g.double())
E(lambda: y.sum().backward())
z = x * 2
z.register_hook(lambda g: g.int())
E(lambda: z.sum().backward())
w = x * 2
w.register_hook(lambda g: g[0])
E(lambda: w.sum().backward())
v = x * 2
v.register_hook(lambda g: 3.0)
E(lambda: v.sum().backward())
print(x.grad)
x.register_hook(lambda g: g.half())
E(lambda: (x * 2).sum().backward())
print(x.grad)
'''

PROGRAMS['hook_on_view_of_leaf'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
v = x[1:]
v.register_hook(lambda g: print('view hook', g) or g * 2)
(v * v).sum().backward()
print(x.grad)
x.grad = None
u = x.view(3)
u.register_hook(lambda g: print('u hook', g))
(x * 5).sum().backward()
print(x.grad)
'''

PROGRAMS['module_full_backward_hook_and_node_hooks'] = PRE + r'''
torch.manual_seed(0)
lin = torch.nn.Linear(2, 2)
lin.register_full_backward_pre_hook(lambda m, go: print('module pre', [g.shape for g in go]))
lin.register_full_backward_hook(lambda m, gi, go: print('module post', [None if g is None else g.shape for g in gi]))
x = torch.randn(3, 2, requires_grad=True)
out = lin(x)
print(out.grad_fn.name(), names(out.grad_fn))
out.grad_fn.register_prehook(lambda go: print('node pre', go[0].shape))
out.sum().backward()
print(x.grad.shape)
'''

# ---- 0-d tensors that require grad where a number is usual

PROGRAMS['scalar_tensor_args_fill_and_masked_fill'] = PRE + r'''
w = torch.tensor(2.5, requires_grad=True)
a = torch.zeros(3).fill_(w)
print(a, a.grad_fn.name() if a.grad_fn else None)
b = torch.arange(4.).masked_fill(torch.tensor([True, False, True, False]), w)
print(b, b.grad_fn.name())
c = torch.arange(6.).view(2, 3).index_fill(1, torch.tensor([0, 2]), w)
print(c, c.grad_fn.name())
d = torch.where(torch.tensor([True, False]), torch.tensor([1., 2.]), w)
print(d, d.grad_fn.name())
(a.sum() + b.sum() + c.sum() + d.sum()).backward()
print(w.grad)
'''

PROGRAMS['scalar_tensor_args_clamp_lerp_pow'] = PRE + r'''
lo = torch.tensor(0.5, requires_grad=True)
hi = torch.tensor(2.0, requires_grad=True)
t = torch.tensor(0.25, requires_grad=True)
x = torch.tensor([0., 1., 3.], requires_grad=True)
y = x.clamp(min=lo, max=hi)
print(y, y.grad_fn.name())
z = torch.lerp(x, torch.ones(3), t)
print(z, z.grad_fn.name())
p = torch.pow(2.0, t)
q = x ** t
print(p, p.grad_fn.name(), q, q.grad_fn.name())
(y.sum() + z.sum() + p + q.sum()).backward()
print(lo.grad, hi.grad, t.grad, x.grad)
'''

# fixed: F.hardtanh / F.leaky_relu with a 0-d tensor requiring grad: the parser's TypeError, no scalar warning
PROGRAMS['scalar_tensor_args_errors'] = PRE + r'''
w = torch.tensor(2.5, requires_grad=True)
E(lambda: torch.full((2,), w))
E(lambda: torch.nn.functional.leaky_relu(torch.ones(2), w))
E(lambda: torch.nn.functional.threshold(torch.ones(2), w, 0.))
E(lambda: torch.ones(2).add(torch.ones(2), alpha=w))
E(lambda: torch.nn.functional.hardtanh(torch.ones(2), w, 3.))
E(lambda: torch.arange(w))
E(lambda: torch.ones(2).new_full((2,), w))
E(lambda: torch.randint(w, (2,)))
E(lambda: torch.ones(3).index_fill(0, torch.tensor([0]), torch.tensor([1.])))
E(lambda: torch.zeros(3).fill_(torch.ones(2)))
print(torch.full((2,), w.item()), torch.ones(2).mul(w).grad_fn.name())
'''

PROGRAMS['scalar_tensor_args_creation_warnings'] = PRE + r'''
w = torch.tensor(3., requires_grad=True)
print(torch.zeros(int(w)))
print(torch.ones(2) * float(w))
print(range(int(w.detach())))
print(torch.empty(2).fill_(w.detach()).tolist(), torch.tensor(w.item()))
print(round(w.item(), 1), '%.2f' % w, f'{w:.3f}')
'''

# fixed: nn.functional's number arguments given tensors the parser refuses (requiring grad, or with dimensions):
# its TypeError, with no scalar-conversion warning before it and no result computed from the tensor
PROGRAMS['learnable_activation_parameters_mistake'] = PRE + r'''
F = torch.nn.functional
x = torch.tensor([-2., -0.5, 0.5, 2.])
slope = torch.nn.Parameter(torch.tensor(0.1))
E(lambda: F.leaky_relu(x, slope))
E(lambda: F.leaky_relu(x, slope, inplace=True))
E(lambda: F.elu(x, slope))
E(lambda: F.celu(x, torch.ones(1)))
E(lambda: F.softplus(x, slope))
E(lambda: F.softplus(x, torch.ones(1)))
E(lambda: F.hardtanh(x, -slope, slope))
E(lambda: F.hardtanh(x, torch.zeros(1), 3.))
E(lambda: F.hardtanh(x, 0., slope, inplace=True))
E(lambda: F.hardshrink(x, torch.ones(1)))
E(lambda: F.threshold(x, 0.5, slope))
E(lambda: F.rrelu(x, 0.1, torch.ones(1)))
print(F.leaky_relu(x, slope.detach()), F.hardtanh(x, torch.tensor(-1.), torch.tensor(1.)))
print(F.elu(x, torch.tensor(2.)), F.softplus(x, torch.tensor(2.)))
y = torch.where(x > 0, x, slope * x)   # the fix: a learnable slope written out
y.sum().backward()
print(y, slope.grad)
'''

# ---- a teacher's demos, mixed

PROGRAMS['hessian_of_mlp_loss_wrt_flat_params'] = PRE + r'''
from torch.func import functional_call
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Tanh(), torch.nn.Linear(2, 1)).double()
x = torch.randn(4, 2, dtype=torch.float64)
y = torch.randn(4, 1, dtype=torch.float64)
names_, shapes = zip(*[(n, p.shape) for n, p in model.named_parameters()])
flat = torch.cat([p.detach().reshape(-1) for p in model.parameters()])
def loss_of(flat):
    params, i = {}, 0
    for n, s in zip(names_, shapes):
        k = s.numel()
        params[n] = flat[i:i + k].view(s)
        i += k
    return torch.nn.functional.mse_loss(functional_call(model, params, (x,)), y)
H = AF.hessian(loss_of, flat)
print(H.shape, torch.allclose(H, H.T), H.diagonal())
g = AF.jacobian(loss_of, flat)
print(g)
print(torch.linalg.eigvalsh(H)[:3])
'''

PROGRAMS['jvp_vjp_consistency_on_module'] = PRE + r'''
torch.manual_seed(1)
lin = torch.nn.Linear(3, 2).double()
x = torch.randn(3, dtype=torch.float64)
u = torch.randn(3, dtype=torch.float64)
v = torch.randn(2, dtype=torch.float64)
_, Ju = AF.jvp(lin, x, u)
_, vJ = AF.vjp(lin, x, v)
print(Ju, vJ)
print(torch.allclose(v @ Ju, vJ @ u), torch.allclose(Ju, lin.weight @ u))
out, jv = AF.jvp(lambda t: torch.sin(lin(t)), x, u, create_graph=True)
print(out.requires_grad, jv.requires_grad)
'''

PROGRAMS['grad_mode_inside_functional'] = PRE + r'''
seen = []
def f(x):
    seen.append((torch.is_grad_enabled(), x.requires_grad, x.is_leaf))
    return x.exp().sum()
x = torch.tensor([1., 2.])
AF.jacobian(f, x)
AF.hessian(f, x)
with torch.no_grad():
    AF.vjp(f, x)
with torch.inference_mode():
    E(lambda: AF.vjp(f, x))
AF.hvp(f, x, torch.ones(2))
print(seen)
'''

PROGRAMS['checkpoint_under_anomaly'] = PRE + r'''
def _show(message, category, filename, lineno, file=None, line=None):
    print('W', category.__name__, str(message).splitlines()[0])
warnings.showwarning = _show
x = torch.tensor([0., 1.], requires_grad=True)
with torch.autograd.detect_anomaly():
    for r in (True, False):
        x.grad = None
        y = checkpoint(lambda t: t.sqrt(), x, use_reentrant=r)
        E(lambda: y.sum().backward())
'''

PROGRAMS['function_ctx_misuse_errors'] = PRE + r'''
class SaveNonTensor(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, 3)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.tensor([1.], requires_grad=True)
E(lambda: SaveNonTensor.apply(x))
class ReturnsTooMany(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g, g
E(lambda: ReturnsTooMany.apply(x).sum().backward())
class ReturnsWrongShape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.sum()
    @staticmethod
    def backward(ctx, g):
        return g
y = torch.tensor([1., 2.], requires_grad=True)
E(lambda: ReturnsWrongShape.apply(y).backward())
E(lambda: SaveNonTensor())
E(lambda: SaveNonTensor.forward(None, x))
class NoBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x + 1
E(lambda: NoBackward.apply(x).sum().backward())
'''

PROGRAMS['saved_tensors_after_backward_attrs'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.pow(2)
z = y.sigmoid().sum()
print(y.grad_fn._saved_self, y.grad_fn._saved_exponent, z.grad_fn.next_functions[0][0]._saved_result)
z.backward()
E(lambda: y.grad_fn._saved_self)
print(y.grad_fn._saved_exponent)
E(lambda: z.grad_fn.next_functions[0][0]._saved_result)
E(lambda: y.grad_fn._raw_saved_self)
'''

PROGRAMS['version_counter_through_views_and_hooks'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
base = x * 1
v = base[1:]
w = v.exp()
print(base._version, v._version)
base[0] = 10
print(base._version, v._version)
w.sum().backward()
print(x.grad)
v.mul_(2)
print(base._version, v._version, v.grad_fn.name(), base.grad_fn.name())
E(lambda: w.sum().backward())
'''

PROGRAMS['multi_grad_hook_with_retain_graph_and_grad'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
out = (a * b).sum()
calls = []
h = register_multi_grad_hook((a, b), lambda gs: calls.append(tuple(None if g is None else g.tolist() for g in gs)))
out.backward(retain_graph=True)
E(lambda: torch.autograd.grad(out, [a], retain_graph=True))
out.backward(inputs=[b], retain_graph=True)
print(calls)
h.remove(); h.remove()
out.backward()
print(calls, a.grad, b.grad)
'''

PROGRAMS['node_hook_handles_and_dicts'] = PRE + r'''
x = torch.tensor([1.], requires_grad=True)
y = x * 2
h1 = y.grad_fn.register_hook(lambda gi, go: None)
h2 = y.grad_fn.register_prehook(lambda go: None)
print(type(h1).__name__, type(h1), h1.id != h2.id)
h1.remove(); h1.remove()
h2.remove()
y.backward()
print(x.grad)
E(lambda: y.grad_fn.register_hook(5))
E(lambda: y.grad_fn.register_prehook(None))
'''

PROGRAMS['gradient_edge_for_frozen_prefix'] = PRE + r'''
torch.manual_seed(0)
enc = torch.nn.Linear(3, 3)
dec = torch.nn.Linear(3, 1)
x = torch.randn(2, 3)
h = torch.relu(enc(x))
loss = dec(h).pow(2).mean()
edge = get_gradient_edge(h)
gh, gw = torch.autograd.grad(loss, (edge, dec.weight), retain_graph=True)
print(gh.shape, gw.shape, enc.weight.grad)
gh2, = torch.autograd.grad(loss, h)
print(torch.equal(gh, gh2))
'''

PROGRAMS['saved_hooks_with_no_grad_and_detach'] = PRE + r'''
count = [0]
def pack(t):
    count[0] += 1
    return t
x = torch.tensor([1., 2.], requires_grad=True)
with saved_tensors_hooks(pack, lambda t: t):
    with torch.no_grad():
        y = x.exp()
    print(count)
    z = x.detach().exp()
    print(count)
    w = x.exp()
    print(count)
    v = w.detach() * x
    print(count)
'''

PROGRAMS['save_on_cpu_with_checkpoint_and_double_backward'] = PRE + r'''
x = torch.tensor([0.5, 1.5], requires_grad=True)
with save_on_cpu():
    y = checkpoint(lambda t: t.pow(3).sin(), x, use_reentrant=False).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
print(g)
g.sum().backward()
print(x.grad)
'''

PROGRAMS['allow_mutation_with_views_and_grads'] = PRE + r'''
a = torch.tensor([1., 2., 3., 4.], requires_grad=True)
with allow_mutation_on_saved_tensors():
    b = a.clone()
    v = b[:2]
    c = (v * v).sum() + b.sum()
    v.add_(100)
    print(b)
    c.backward()
print(a.grad)
'''

# ---- NumPy values mixed into autograd programs

PROGRAMS['numpy_scalars_with_requires_grad'] = PRE + r'''
import numpy as np
x = torch.tensor([1., 2.], requires_grad=True)
for s in (np.float64(2.5), np.float32(2.5), np.int64(3), np.bool_(True), np.float16(0.5)):
    for y in (x * s, s * x, x + s, s - x, x / s, s / x, x ** s):
        print(type(y).__name__, y.dtype, y.grad_fn.name() if isinstance(y, torch.Tensor) and y.grad_fn else None)
    break
ys = [x * np.float64(2.5), np.float64(2.5) * x, x + np.int64(3), np.float32(2) - x, x ** np.float64(2)]
for y in ys:
    print(type(y).__name__, y.dtype, y.grad_fn.name(), y)
sum(y.sum() for y in ys).backward()
print(x.grad)
'''

PROGRAMS['numpy_arrays_with_requires_grad'] = PRE + r'''
import numpy as np
x = torch.tensor([1., 2.], requires_grad=True)
a = np.array([3., 4.])
E(lambda: x * a)
E(lambda: a * x)
E(lambda: x + torch.from_numpy(a))
y = x * torch.from_numpy(a)
print(y, y.dtype, y.grad_fn.name())
y.sum().backward()
print(x.grad)
E(lambda: np.exp(x))
E(lambda: np.sum(x))
print(np.exp(x.detach()), type(np.exp(x.detach())).__name__)
'''

PROGRAMS['python_number_results_and_grads'] = PRE + r'''
import math
x = torch.tensor(2., requires_grad=True)
y = x * math.pi
print(y, y.grad_fn.name(), y.grad_fn._saved_other, type(y.grad_fn._saved_other).__name__)
z = math.e ** x
print(z, z.grad_fn.name())
w = 1 / x
print(w, w.grad_fn.name())
u = 2 ** x
print(u, u.grad_fn.name())
(y + z + w + u).backward()
print(x.grad)
E(lambda: math.exp(x) * x)
'''

# ---- checkpoint corners, grad modes in backward, flags of the wrong type

PROGRAMS['ckpt_context_fn_reentrant_error'] = PRE + r'''
import contextlib
x = torch.tensor([1.], requires_grad=True)
E(lambda: checkpoint(lambda t: t * 2, x, use_reentrant=True, context_fn=lambda: (contextlib.nullcontext(), contextlib.nullcontext())))
E(lambda: checkpoint(lambda t: t * 2, x, use_reentrant=True, debug=True))
log = []
@contextlib.contextmanager
def tag(name):
    log.append('enter ' + name)
    yield
    log.append('exit ' + name)
y = checkpoint(lambda t: t.sin(), x, use_reentrant=False, context_fn=lambda: (tag('fwd'), tag('recompute')))
y.backward()
print(log, x.grad)
E(lambda: checkpoint(lambda t: t, x, use_reentrant=False, context_fn=lambda: None))
E(lambda: checkpoint(lambda t: t, x, use_reentrant=False, unknown=1))
E(lambda: checkpoint(lambda t: t, x, True, use_reentrant=False))
'''
PROGRAMS['ckpt_rng_global_state_after'] = PRE + r'''
x = torch.ones(4, requires_grad=True)
for r in (True, False):
    torch.manual_seed(0)
    y = checkpoint(lambda t: t * torch.rand(4), x, use_reentrant=r)
    a = torch.rand(2)
    y.sum().backward()
    b = torch.rand(2)
    print(r, y.tolist(), a.tolist(), b.tolist())
    x.grad = None
torch.manual_seed(0)
print(torch.rand(4).tolist(), torch.rand(2).tolist(), torch.rand(2).tolist())
'''
PROGRAMS['ckpt_input_modified_after_forward'] = PRE + r'''
for r in (True, False):
    x = torch.tensor([1., 2.], requires_grad=True)
    a = x * 1
    y = checkpoint(lambda t: t.exp(), a, use_reentrant=r)
    with torch.no_grad():
        a.mul_(10)
    E(lambda: y.sum().backward())
    print(r, x.grad)
'''
PROGRAMS['ckpt_grad_fn_names_and_metadata'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = checkpoint(lambda t: (t * 2, t + 1), x, use_reentrant=True)
print([t.grad_fn.name() for t in y], y[0].grad_fn is y[1].grad_fn, [t.output_nr for t in y])
print(y[0].grad_fn.next_functions, type(y[0].grad_fn).__name__)
z = checkpoint(lambda t: (t * 2, t + 1), x, use_reentrant=False)
print([t.grad_fn.name() for t in z], names(z[0].grad_fn))
(y[0] * y[1]).sum().backward()
print(x.grad)
'''
PROGRAMS['backward_in_no_grad_and_grad_mode_in_hooks'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * x).sum()
modes = []
x.register_hook(lambda g: modes.append(('tensor', torch.is_grad_enabled())))
y.grad_fn.register_hook(lambda gi, go: modes.append(('node', torch.is_grad_enabled())))
with torch.no_grad():
    y.backward(retain_graph=True)
print(x.grad, modes)
modes.clear()
y.backward(create_graph=True)
print(modes, x.grad.requires_grad, x.grad.grad_fn)
'''
PROGRAMS['grad_accumulation_create_graph_warning'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
(x ** 2).sum().backward(create_graph=True)
print(x.grad, x.grad.grad_fn)
(x ** 3).sum().backward(create_graph=True)
print(x.grad, x.grad.grad_fn)
x.grad = None
(x ** 2).sum().backward(create_graph=True)
(x ** 2).sum().backward()
print(x.grad, x.grad.requires_grad)
'''
PROGRAMS['inputs_of_backward_twice_same_tensor'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * 3).sum()
y.backward(inputs=[x, x])
print(x.grad)
print(torch.autograd.grad((x * 2).sum(), [x, x]))
E(lambda: torch.autograd.grad((x * 2).sum(), (x, x.detach())))
E(lambda: torch.autograd.grad((x * 2).sum(), [1.0]))
E(lambda: torch.autograd.grad((x * 2).sum(), x, grad_outputs=1.0))
'''

# fixed: requires_grad=np.bool_(True) names the type numpy.bool, as PyTorch's parser
PROGRAMS['flags_given_as_non_bools'] = PRE + r'''
import numpy as np
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: torch.tensor([1.], requires_grad=1))
E(lambda: torch.ones(2, requires_grad=1))
E(lambda: torch.ones(2, requires_grad=np.bool_(True)))  # fixed: 'not numpy.bool'
E(lambda: torch.zeros(2, requires_grad=np.float64(1)))
E(lambda: torch.tensor([1.], requires_grad=torch.tensor(True)))
E(lambda: torch.randn(2, requires_grad='True'))
E(lambda: torch.empty(2, requires_grad=[]))
E(lambda: torch.ones(2).requires_grad_(1))
E(lambda: torch.ones(2).requires_grad_(torch.tensor(True)))
E(lambda: torch.ones(2).requires_grad_('yes'))
def s(v):
    t = torch.ones(2)
    t.requires_grad = v
    return t.requires_grad
for v in (1, 0, None, 'x', np.bool_(True), torch.tensor(True), 1.0):
    E(lambda: s(v))
y = (x * x).sum()
E(lambda: y.backward(retain_graph=1))
E(lambda: y.backward(create_graph='no'))
E(lambda: torch.autograd.grad(y, x, retain_graph=torch.tensor(True)))
E(lambda: torch.autograd.grad(y, x, allow_unused=1))
E(lambda: torch.set_grad_enabled(1))
E(lambda: torch.set_grad_enabled(torch.tensor(False)))
print(torch.is_grad_enabled())
torch.set_grad_enabled(True)
'''
PROGRAMS['detach_and_data_flags'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
d = x.data
print(d.requires_grad, d.is_leaf, d._version, d.grad_fn)
d2 = x.detach()
print(d2.requires_grad, d2.is_leaf, d2._version)
d2.requires_grad_()
(d2 * 2).sum().backward()
print(d2.grad, x.grad)
y = x * 2
y.detach_()
print(y.requires_grad, y.grad_fn, y.is_leaf)
v = x[:1] * 1
w = v.view(1)
E(lambda: w.detach_())
E(lambda: x[:1].detach_())
x.data = torch.tensor([5., 6., 7.])
print(x, x.shape, x.requires_grad)
E(lambda: setattr(x, 'data', [1.]))
'''
PROGRAMS['grad_of_int_and_bool_ops'] = PRE + r'''
x = torch.tensor([1.5, -2.5], requires_grad=True)
for f in (lambda t: t.round(), lambda t: t.floor(), lambda t: t.sign(), lambda t: t.trunc(), lambda t: t > 0,
          lambda t: t.argmax(), lambda t: t.long(), lambda t: t.int().float(), lambda t: (t * 2).to(torch.int32),
          lambda t: t.ceil(), lambda t: torch.heaviside(t, torch.tensor(0.5))):
    y = f(x)
    print(y.dtype, y.requires_grad, y.grad_fn.name() if y.grad_fn else None)
    if y.requires_grad:
        E(lambda: y.sum().backward())
        print(x.grad)
        x.grad = None
'''


# ---- nodes called by hand, Node subclasses, GradientEdge tuples, legacy Variable

PROGRAMS['call_grad_fn_by_hand'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
y = x * w
print(y.grad_fn(torch.ones(2)))
z = x.exp()
print(z.grad_fn(torch.tensor([1., 0.5])))
s = (x * 2).sum()
print(s.grad_fn(torch.tensor(1.)))
m = torch.stack([x, w])
print(m.grad_fn(torch.ones(2, 2)))
acc = z.grad_fn.next_functions[0][0]
E(lambda: acc(torch.ones(2)))
print(x.grad)
E(lambda: y.grad_fn())
E(lambda: y.grad_fn(torch.ones(2), torch.ones(2)))
E(lambda: y.grad_fn(torch.ones(3)))
print(y.grad_fn(None))
'''
PROGRAMS['call_grad_fn_after_backward'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.sin()
y.sum().backward()
E(lambda: y.grad_fn(torch.ones(2)))
z = x * 3
z.sum().backward()
E(lambda: z.grad_fn(torch.ones(2)))
u = x + 3
u.sum().backward()
print(u.grad_fn(torch.ones(2)))
'''
PROGRAMS['legacy_variable_and_node_subclass'] = PRE + r'''
from torch.autograd import Variable
v = Variable(torch.tensor([1., 2.]), requires_grad=True)
print(v, type(v).__name__, v.requires_grad, isinstance(v, torch.Tensor))
(v * v).sum().backward()
print(v.grad)
E(lambda: Variable([1., 2.]))
print(Variable(torch.ones(1)).requires_grad, Variable(torch.ones(1), volatile=True).requires_grad)
print(issubclass(type((v * 2).grad_fn), Node), Node.__subclasshook__ is not None)
'''

# fixed: a user's subclass of the abstract Node is refused until it defines Node's abstract methods, and prints as
# a Python object
PROGRAMS['node_subclass_is_abstract'] = PRE + r'''
class MyNode(Node):
    pass
E(lambda: MyNode())
class Named(Node):
    def name(self):
        return 'Named'
E(lambda: Named())
class Full(Named):
    next_functions = ()
    metadata = {}
    _input_metadata = []
    def register_hook(self, fn):
        return None
    def register_prehook(self, fn):
        return None
    def _register_hook_dict(self, t):
        return None
    def _sequence_nr(self):
        return 0
n = Full()
print(n.name(), n.next_functions, isinstance(n, Node), issubclass(Full, Node), n, type(n))
class Printed(Full):
    def __repr__(self):
        return 'Printed()'
print(Printed(), Printed().name())
E(lambda: Node())
'''
PROGRAMS['manual_gradient_edge_tuple'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
z = y.exp().sum()
e = GradientEdge(y.grad_fn, 0)
print(type(e).__name__, e.output_nr, e.node is y.grad_fn)
print(torch.autograd.grad(z, e, retain_graph=True))
print(torch.autograd.grad(z, [get_gradient_edge(x), x], retain_graph=True))
'''
PROGRAMS['saved_hooks_pack_none'] = PRE + r'''
got = []
x = torch.tensor([1., 2.], requires_grad=True)
def unpack(p):
    got.append(p)
    return x.detach() if p is None else p
with saved_tensors_hooks(lambda t: None, unpack):
    y = (x * x).sum()
y.backward()
print(got, x.grad)
'''
PROGRAMS['set_multithreading_and_backward'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.set_multithreading_enabled(False):
    (x * x).sum().backward()
print(x.grad, type(torch.autograd.set_multithreading_enabled(True)).__name__)
E(lambda: torch.autograd.set_multithreading_enabled())
'''
PROGRAMS['backward_grad_tensors_mixed'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
a = (x * 2).sum()
b = x * 3
torch.autograd.backward([a, b], [None, torch.tensor([1., 10.])])
print(x.grad)
E(lambda: torch.autograd.backward([x * 2, x * 3], [None, torch.ones(2)]))
torch.autograd.backward((x * 5).sum(), inputs=x)
print(x.grad)
E(lambda: torch.autograd.backward((x * 5).sum(), grad_tensors=torch.ones(2)))
E(lambda: torch.autograd.backward(x.sum(), grad_variables=torch.tensor(1.)))
'''


# ---- a hand-written SGD loop and its classic mistakes

PROGRAMS['manual_sgd_mistake_rebinding_weight'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(5, 2)
y = x @ torch.tensor([2., -1.]) + 0.5
w = torch.zeros(2, requires_grad=True)
lr = 0.1
for step in range(3):
    loss = ((x @ w - y) ** 2).mean()
    E(lambda: loss.backward())
    print(step, loss.item(), w.is_leaf, w.grad)
    try:
        w = w - lr * w.grad
    except Exception as e:
        print(type(e).__name__, e)
        break
    print(w.grad_fn.name(), w.requires_grad)
'''
PROGRAMS['manual_sgd_mistake_inplace_without_no_grad'] = PRE + r'''
w = torch.tensor([1., 1.], requires_grad=True)
loss = (w ** 2).sum()
loss.backward()
def step():
    global w
    w -= 0.1 * w.grad
E(step)
E(lambda: w.sub_(0.1 * w.grad))
E(lambda: w.data.sub_(0.1 * w.grad))
print(w, w.grad)
with torch.no_grad():
    w -= 0.1 * w.grad
print(w, w.requires_grad, w.is_leaf, w.grad_fn)
'''
PROGRAMS['manual_sgd_mistake_no_grad_rebinding'] = PRE + r'''
w = torch.tensor([1., 1.], requires_grad=True)
for step in range(2):
    loss = (w ** 2).sum()
    E(lambda: loss.backward())
    print(step, w.requires_grad, w.grad)
    with torch.no_grad():
        w = w - 0.1 * (w.grad if w.grad is not None else torch.zeros(2))
    print(w, w.requires_grad)
'''
PROGRAMS['manual_sgd_correct_loop'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(8, 3)
true_w = torch.tensor([1.5, -2., 0.5])
y = x @ true_w + 0.1 * torch.randn(8)
w = torch.zeros(3, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
for step in range(5):
    pred = x @ w + b
    loss = torch.nn.functional.mse_loss(pred, y)
    loss.backward()
    with torch.no_grad():
        w -= 0.2 * w.grad
        b -= 0.2 * b.grad
    w.grad.zero_(); b.grad.zero_()
    print(step, round(loss.item(), 5), w.tolist(), b.item())
print(w.grad, b.grad, w._version)
'''
PROGRAMS['grad_accumulates_across_calls'] = PRE + r'''
w = torch.tensor(2., requires_grad=True)
for i in range(3):
    (w * w).backward()
    print(i, w.grad)
w.grad = None
for micro in range(4):
    loss = (w * (micro + 1)) / 4
    loss.backward()
print(w.grad)
'''
PROGRAMS['cat_of_mixed_requires_grad'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3.])
c = torch.cat([a, b])
print(c, c.grad_fn.name(), c.grad_fn.next_functions)
c.pow(2).sum().backward()
print(a.grad, b.grad)
d = torch.stack([b, b])
print(d.requires_grad, d.grad_fn)
e = torch.cat([a.detach(), b])
print(e.requires_grad)
E(lambda: torch.cat([a, torch.tensor([1])]).sum().backward())
print(a.grad)
E(lambda: torch.cat([a, torch.tensor([[1.]])]))
'''
PROGRAMS['int_tensor_grad_access'] = PRE + r'''
i = torch.tensor([1, 2])
print(i.grad, i.requires_grad, i.is_leaf, i.grad_fn)
E(lambda: setattr(i, 'grad', torch.tensor([1, 1])))
E(lambda: setattr(i, 'requires_grad', True))
f = i.float().requires_grad_()
(f * 2).sum().backward()
print(f.grad, i.grad)
'''


# ---- the autograd APIs given arguments of the wrong kind

PROGRAMS['autograd_api_wrong_argument_kinds'] = PRE + r'''
import numpy as np
x = torch.tensor([1., 2.], requires_grad=True)
y = x * x
E(lambda: y.backward(np.ones(2)))
E(lambda: torch.autograd.grad(y, x, grad_outputs=np.ones(2)))
E(lambda: torch.autograd.grad(y, x, grad_outputs=[[1., 1.]]))
E(lambda: torch.autograd.grad(y.sum(), x.tolist()))
E(lambda: torch.autograd.grad(y.sum(), 'x'))
E(lambda: torch.autograd.grad(y.sum().item(), x))
h = torch.tensor([1.], requires_grad=True)
E(lambda: h.register_hook('not callable'))
E(lambda: h.register_hook(None))
E(lambda: (h * 2).sum().backward())
E(lambda: register_multi_grad_hook(x, print))
E(lambda: register_multi_grad_hook([x], 5))
E(lambda: increment_version(5))
E(lambda: get_gradient_edge(5))
E(lambda: saved_tensors_hooks(1, 2).__enter__())
E(lambda: torch.autograd.grad(y.sum(), (x,), grad_outputs=(None,)))
z = torch.tensor([3.], requires_grad=True)
print(torch.autograd.grad((z * z).sum(), (z,), grad_outputs=(None,)))
'''
PROGRAMS['functional_api_wrong_argument_kinds'] = PRE + r'''
import numpy as np
x = torch.tensor([1., 2.])
E(lambda: AF.jacobian(lambda t: t * 2, np.ones(2)))
E(lambda: AF.jacobian(lambda t: t * 2, 3.0))
E(lambda: AF.jacobian(lambda t: t * 2, (x, 3.0)))
E(lambda: AF.vjp(lambda t: t * 2, x, np.ones(2)))
E(lambda: AF.jvp(lambda t: t * 2, x, [1., 1.]))
E(lambda: AF.hvp(lambda t: t.sum(), x, 'v'))
E(lambda: AF.jacobian('f', x))
E(lambda: AF.hessian(lambda t: t.sum(), x, vectorize='yes'))
E(lambda: AF.jacobian(lambda t: t * 2, [x]))
E(lambda: AF.vjp(lambda t: t * 2, [x], [torch.ones(2)]))
E(lambda: AF.vjp(lambda t: t * 2, (x,), [torch.ones(2)]))
'''
PROGRAMS['checkpoint_wrong_argument_kinds'] = PRE + r'''
import numpy as np
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: checkpoint('f', x, use_reentrant=False))
E(lambda: checkpoint(None, x, use_reentrant=True))
y = checkpoint(lambda a, b: a * torch.from_numpy(b), x, np.array([3., 4.], dtype=np.float32), use_reentrant=False)
y.sum().backward()
print(y, x.grad)
E(lambda: checkpoint(lambda t: t, use_reentrant=True))
print(checkpoint(lambda: torch.ones(1), use_reentrant=False))
E(lambda: checkpoint(lambda t: t, x, use_reentrant='yes'))
E(lambda: checkpoint(lambda t: t, x, use_reentrant=False, preserve_rng_state='no'))
'''


# ---- what the autograd objects print

PROGRAMS['reprs_of_autograd_objects'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
objs = [get_gradient_edge(y), saved_tensors_hooks(lambda t: t, lambda t: t), save_on_cpu(),
        disable_saved_tensors_hooks('m'), torch.autograd.detect_anomaly(), torch.autograd.set_detect_anomaly(False),
        torch.no_grad(), torch.enable_grad(), torch.inference_mode(), torch.set_grad_enabled(True),
        allow_mutation_on_saved_tensors(), torch.autograd.forward_ad.dual_level(),
        torch.utils.checkpoint.CheckpointError('boom'), y.grad_fn._raw_saved_self if hasattr(y.grad_fn, '_raw_saved_self') else None,
        torch.autograd.function.FunctionCtx(), torch.autograd.functional.jacobian, torch.autograd.grad]
for o in objs:
    print(type(o).__name__, repr(o))
for c in (torch.autograd.Function, Node, GradientEdge):   # (classes: their metaclasses are minigrad's own)
    print(repr(c), c.__name__, c.__qualname__)
print(str(get_gradient_edge(x)))
'''
PROGRAMS['gradient_edge_namedtuple_behaviour'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
e = get_gradient_edge(y)
node, nr = e[:2]
print(node is y.grad_fn, nr, len(e), e._asdict().keys(), e == get_gradient_edge(y), hash(e) == hash(get_gradient_edge(y)))
e2 = e._replace(output_nr=0)
print(e2.output_nr, e2.node is e.node)
print(torch.autograd.grad(y.sum(), e2))
'''


# ---- .grad of non-leaves, once more

PROGRAMS['nonleaf_grad_warning_variants'] = PRE + r'''
p = torch.nn.Parameter(torch.tensor([1., 2., 3.]))
views = {'p[0]': p[0], 'p.view': p.view(3), 'p.T': p.T, 'p * 1': p * 1, 'p.detach()': p.detach(), 'p.data': p.data,
         'p.clone()': p.clone(), 'p[:2]': p[:2], 'p.expand': p.expand(2, 3), 'p.squeeze': p.squeeze()}
with torch.no_grad():
    views['no_grad p * 1'] = p * 1
    views['no_grad p[0]'] = p[0]
for name, v in views.items():
    print(name, v.is_leaf, v.requires_grad, v.grad)
'''
PROGRAMS['retain_grad_on_views_and_after_inplace'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
v = y[1:]
v.retain_grad()
y.retain_grad()
(v * v).sum().backward(retain_graph=True)
print(v.grad, y.grad, x.grad)
z = x * 3
z.retain_grad()
z.mul_(2)
z.sum().backward()
print(z.grad, z.retains_grad, z.grad_fn.name())
w = x * 4
w.retain_grad()
w2 = w.view(3)
w2.add_(1)
w.sum().backward()
print(w.grad, w.grad_fn.name())
'''
PROGRAMS['custom_function_output_grad_warning'] = PRE + r'''
class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = torch.tensor([1., 2.], requires_grad=True)
y = Double.apply(x)
y.sum().backward()
print(y.grad, y.is_leaf, x.grad)
with torch.no_grad():
    z = Double.apply(x)
print(z.requires_grad, z.is_leaf, z.grad)
'''


@pytest.fixture(autouse=True, scope="module")
def _warmed_up():
    """PyTorch's first run of a program imports modules, its first dual tensor scripts functions (with
    DeprecationWarnings of torch.jit.script): done here, so that no program's output depends on it."""
    torch = pytest.importorskip("torch")
    import torch.autograd.forward_ad as fwAD
    with warnings.catch_warnings(), fwAD.dual_level():
        warnings.simplefilter("ignore")
        run_both("import torch\nimport torch.utils.checkpoint\n")
        fwAD.make_dual(torch.ones(1), torch.ones(1))


@contextlib.contextmanager
def _anomaly_off():
    """A program failing inside ``set_detect_anomaly(True)`` must not leave anomaly mode on for the next one."""
    try:
        yield
    finally:
        for module in ("minigrad", "torch"):
            mod = __import__(module)
            mod.autograd.set_detect_anomaly(False)


# Each program runs as in a fresh process (``parity.fresh_warn_once``).
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    # (catch_warnings restores the filters and showwarning the prelude replaces)
    with warnings.catch_warnings(), fresh_warn_once(), _anomaly_off():
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
