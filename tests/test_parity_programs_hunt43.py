"""Parity programs from a forty-third hunt: hooks, as a student tries every kind.

Tensor ``register_hook`` (returning None, a new gradient, a wrong shape, dtype or a non-tensor), several hooks and
their order, ``handle.remove()`` (twice, during backward), hooks on leaves, non-leaves and views, ``retain_grad``
with hooks, ``create_graph``, ``register_post_accumulate_grad_hook``, Node ``register_hook`` / ``register_prehook``
(AccumulateGrad's too), ``register_multi_grad_hook``, module backward / forward hooks and the global ones, hooks with
``autograd.grad(inputs)`` and ``backward(inputs=...)``, hooks that raise, the ``_backward_hooks`` dicts and handles.
Programs marked "fixed:" printed something different from PyTorch before this hunt's fixes.
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE

PROGRAMS: dict[str, str] = {}

# ---- tensor hooks: return values, errors, order, removal, leaves / non-leaves / views, retain_grad, create_graph,
# post-accumulate hooks, hooks that raise, grad mode in backward, handles; Node hooks and their return values

PROGRAMS['th_returns_new_grad_leaf_and_nonleaf'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.register_hook(lambda g: g * 10)
x.register_hook(lambda g: g + 1)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['th_wrong_shape'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.register_hook(lambda g: torch.ones(3))
E(lambda: y.sum().backward())
x2 = torch.tensor([1., 2.], requires_grad=True)
x2.register_hook(lambda g: torch.ones(2, 1))
E(lambda: (x2 * 2).sum().backward())
print(x2.grad)
x3 = torch.tensor([1., 2.], requires_grad=True)
x3.register_hook(lambda g: torch.ones(()))
E(lambda: (x3 * 2).sum().backward())
'''

PROGRAMS['th_wrong_dtype'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.register_hook(lambda g: g.double())
E(lambda: y.sum().backward())
print(x.grad)
x2 = torch.tensor([1., 2.], requires_grad=True)
x2.register_hook(lambda g: g.long())
E(lambda: (x2 * 2).sum().backward())
print(x2.grad)
x3 = torch.tensor([1., 2.], requires_grad=True)
x3.register_hook(lambda g: g.to(torch.complex64))
E(lambda: (x3 * 2).sum().backward())
print(x3.grad)
'''

PROGRAMS['th_non_tensor_return'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.register_hook(lambda g: 3.0)
E(lambda: y.sum().backward())
x2 = torch.tensor([1., 2.], requires_grad=True)
x2.register_hook(lambda g: [1., 2.])
E(lambda: (x2 * 2).sum().backward())
x3 = torch.tensor([1., 2.], requires_grad=True)
x3.register_hook(lambda g: (g,))
E(lambda: (x3 * 2).sum().backward())
'''

PROGRAMS['th_non_callable_register'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: x.register_hook(3))
E(lambda: x.register_hook(None))
print(list(x._backward_hooks.values()))
E(lambda: (x * 2).sum().backward())
print(x.grad)
'''

PROGRAMS['th_requires_grad_false'] = PRE + r'''
x = torch.tensor([1., 2.])
E(lambda: x.register_hook(lambda g: g))
E(lambda: x.register_post_accumulate_grad_hook(lambda t: None))
with torch.no_grad():
    y = torch.tensor([1.], requires_grad=True) * 2
E(lambda: y.register_hook(lambda g: g))
d = torch.tensor([1.], requires_grad=True).detach()
E(lambda: d.register_hook(lambda g: g))
'''

PROGRAMS['th_several_hooks_in_order_chained'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 1
log = []
def mk(i, f):
    def h(g):
        log.append((i, g.tolist()))
        return f(g)
    return h
y.register_hook(mk(1, lambda g: g + 1))
y.register_hook(mk(2, lambda g: None))
y.register_hook(mk(3, lambda g: g * 2))
x.register_hook(mk(4, lambda g: g - 1))
x.register_hook(mk(5, lambda g: None))
y.sum().backward()
print(log, x.grad)
'''

PROGRAMS['th_handle_remove_and_twice'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
h1 = x.register_hook(lambda g: g * 2)
h2 = x.register_hook(lambda g: g + 100)
print(len(x._backward_hooks), list(x._backward_hooks.keys()) == [h1.id, h2.id])
h1.remove()
h1.remove()
print(len(x._backward_hooks))
x.sum().backward()
print(x.grad)
h2.remove()
x.grad = None
x.sum().backward()
print(x.grad, x._backward_hooks)
'''

PROGRAMS['th_remove_during_backward'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
z = y * 3
handles = {}
def first(g):
    handles['b'].remove()
    return g
handles['a'] = y.register_hook(first)
handles['b'] = y.register_hook(lambda g: g * 1000)
z.sum().backward(retain_graph=True)
print(x.grad)
x.grad = None
z.sum().backward()
print(x.grad)
'''

PROGRAMS['th_remove_self_during_backward'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
hs = []
calls = []
def h(g):
    calls.append(1)
    hs[0].remove()
    return g * 2
hs.append(x.register_hook(h))
y = x * 2
y.sum().backward()
y2 = x * 2
y2.sum().backward()
print(calls, x.grad)
'''

PROGRAMS['th_hook_on_view_of_leaf'] = PRE + r'''
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
v = x[1:3]
print(v.grad_fn)
v.register_hook(lambda g: g * 10)
(x * 1).sum().backward()
print(x.grad)
x.grad = None
(v * 1).sum().backward()
print(x.grad)
'''

PROGRAMS['th_retain_grad_before_hook'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.retain_grad()
y.register_hook(lambda g: g * 10)
(y * 3).sum().backward()
print(y.grad, x.grad)
'''

PROGRAMS['th_retain_grad_after_hook'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.register_hook(lambda g: g * 10)
y.retain_grad()
y.register_hook(lambda g: g + 1)
(y * 3).sum().backward()
print(y.grad, x.grad)
'''

PROGRAMS['th_retain_grad_twice_and_hooks_dict'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.retain_grad(); y.retain_grad()
print(y.retains_grad, y._backward_hooks)
y.register_hook(lambda g: g)
print(len(y._backward_hooks))
print(x._backward_hooks, x.retains_grad)
x.retain_grad()
print(x.retains_grad)
'''

PROGRAMS['th_leaf_hook_vs_grad_accumulation'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
x.grad = torch.tensor([100., 100.])
x.register_hook(lambda g: print('hook sees', g, 'grad is', x.grad))
x.register_post_accumulate_grad_hook(lambda t: print('post sees', t.grad))
(x * 2).sum().backward()
print(x.grad)
'''

PROGRAMS['th_create_graph_hook_graph'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x ** 2
y.register_hook(lambda g: print('g', g, g.requires_grad, g.grad_fn) or g * x)
z = y.sum()
(gx,) = torch.autograd.grad(z, x, create_graph=True)
print(gx, gx.grad_fn)
gx.sum().backward()
print(x.grad)
'''

PROGRAMS['th_post_accumulate_nonleaf_and_views'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: (x * 2).register_post_accumulate_grad_hook(lambda t: None))
E(lambda: x[0].register_post_accumulate_grad_hook(lambda t: None))
h = x.register_post_accumulate_grad_hook(lambda t: print('halve', t.grad.mul_(0.5)))
print(x._post_accumulate_grad_hooks is not None, type(h).__name__)
(x * 4).sum().backward()
print(x.grad)
h.remove()
(x * 4).sum().backward()
print(x.grad)
'''

PROGRAMS['th_post_accumulate_return_value_ignored'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
x.register_post_accumulate_grad_hook(lambda t: torch.zeros(2))
E(lambda: (x * 4).sum().backward())
print(x.grad)
x3 = torch.tensor([1., 2.], requires_grad=True)
E(lambda: x3.register_post_accumulate_grad_hook(3))
E(lambda: (x3 * 4).sum().backward())
print(x3.grad)
x2 = torch.tensor([1., 2.], requires_grad=True)
x2.register_post_accumulate_grad_hook(lambda t: 'str')
E(lambda: (x2 * 4).sum().backward())
print(x2.grad)
'''

PROGRAMS['th_post_accumulate_with_autograd_grad'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
x.register_post_accumulate_grad_hook(lambda t: print('post', t.grad))
x.register_hook(lambda g: print('pre', g))
print(torch.autograd.grad((x * 3).sum(), x))
print(x.grad)
'''

PROGRAMS['th_hook_raises_propagates'] = PRE + r'''
class MyErr(Exception):
    pass
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
def bad(g):
    raise MyErr('from hook')
y.register_hook(bad)
E(lambda: y.sum().backward())
def bad2(g):
    raise KeyError('k')
x.register_hook(bad2)
E(lambda: (x * 2).sum().backward())
print(x.grad)
try:
    (x * 2).sum().backward()
except KeyError as e:
    print('KeyError', repr(e))
'''

PROGRAMS['th_node_hook_raises'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
def bad(gi, go):
    raise ValueError('node hook')
y.grad_fn.register_hook(bad)
E(lambda: y.sum().backward(retain_graph=True))
def badpre(go):
    raise TypeError('pre hook')
y.grad_fn.register_prehook(badpre)
E(lambda: y.sum().backward())
'''

PROGRAMS['th_hook_grad_mode_inside_backward'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.register_hook(lambda g: print('enabled', torch.is_grad_enabled(), g.requires_grad))
x.register_hook(lambda g: print('leaf enabled', torch.is_grad_enabled()))
y.sum().backward()
y = x * 2
y.register_hook(lambda g: print('cg enabled', torch.is_grad_enabled(), g.requires_grad))
y.sum().backward(create_graph=True)
'''

PROGRAMS['th_backward_under_no_grad_hooks'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.register_hook(lambda g: print('hook', torch.is_grad_enabled()) or g * 2)
s = y.sum()
with torch.no_grad():
    s.backward()
print(x.grad)
'''

PROGRAMS['th_hook_computes_with_grad_inside'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
def h(g):
    with torch.enable_grad():
        r = g * w
    print(r.requires_grad, r.grad_fn)
    return r
y = x * 2
y.register_hook(h)
y.sum().backward()
print(x.grad, w.grad)
'''

PROGRAMS['th_handle_repr_and_attrs'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
h = x.register_hook(lambda g: g)
print(type(h))
print(h)
print(isinstance(h.id, int), h.hooks_dict_ref() is x._backward_hooks)
with x.register_hook(lambda g: g) as h2:
    print(len(x._backward_hooks))
print(len(x._backward_hooks))
print(type(x._backward_hooks))
'''

PROGRAMS['th_node_hook_return_values'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
y = x * w
print(y.grad_fn)
y.grad_fn.register_hook(lambda gi, go: print('gi', gi, 'go', go) or (gi[0] * 0, None))
y.sum().backward()
print(x.grad, w.grad)
'''

PROGRAMS['th_node_hook_wrong_count'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
y = x * w
y.grad_fn.register_hook(lambda gi, go: (gi[0],))
E(lambda: y.sum().backward(retain_graph=True))
y2 = x * w
y2.grad_fn.register_hook(lambda gi, go: gi[0])
E(lambda: y2.sum().backward())
y3 = x * w
y3.grad_fn.register_hook(lambda gi, go: [gi[0], gi[1]])
E(lambda: y3.sum().backward())
y4 = x * w
y4.grad_fn.register_hook(lambda gi, go: (gi[0], gi[1], gi[0]))
E(lambda: y4.sum().backward())
'''

PROGRAMS['th_node_prehook_return_values'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
y.grad_fn.register_prehook(lambda go: (go[0] * 2,))
y.sum().backward()
print(x.grad)
x.grad = None
y = x.exp()
y.grad_fn.register_prehook(lambda go: ())
E(lambda: y.sum().backward())
y = x.exp()
y.grad_fn.register_prehook(lambda go: go[0])
E(lambda: y.sum().backward())
y = x.exp()
y.grad_fn.register_prehook(lambda go: (torch.ones(3),))
E(lambda: y.sum().backward())
y = x.exp()
y.grad_fn.register_prehook(lambda go: (None,))
E(lambda: y.sum().backward())
print(x.grad)
'''

PROGRAMS['th_node_hook_wrong_shape_dtype'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
y.grad_fn.register_hook(lambda gi, go: (torch.ones(5),))
E(lambda: y.sum().backward())
y = x.exp()
y.grad_fn.register_hook(lambda gi, go: (gi[0].double(),))
E(lambda: y.sum().backward())
y = x.exp()
y.grad_fn.register_hook(lambda gi, go: (1.0,))
E(lambda: y.sum().backward())
print(x.grad)
'''

PROGRAMS['th_accumulate_grad_node_hooks_via_view'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
v = x[:2]
acc = v.grad_fn.next_functions[0][0]
print(acc, acc.name(), acc.variable is x)
acc.register_prehook(lambda go: print('acc pre', go) or (go[0] * 10,))
acc.register_hook(lambda gi, go: print('acc post', gi, go))
v.sum().backward()
print(x.grad)
'''

# ---- register_multi_grad_hook, hooks with autograd.grad(inputs) vs backward(inputs=...), Node hook order

PROGRAMS['mg_all_mode_basic'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3.], requires_grad=True)
def fn(grads):
    print('all', [None if g is None else g.tolist() for g in grads])
h = torch.autograd.graph.register_multi_grad_hook((a, b), fn)
print(type(h))
(a * 2).sum().backward()
(a.sum() * b).sum().backward()
h.remove()
(a.sum() * b).sum().backward()
print(a.grad, b.grad)
'''

PROGRAMS['mg_any_mode'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3.], requires_grad=True)
c = a * 1
def fn(g):
    print('any', g)
h = torch.autograd.graph.register_multi_grad_hook((a, b, c), fn, mode='any')
(c.sum() * b).sum().backward()
print(a.grad, b.grad)
'''

PROGRAMS['mg_bad_mode_and_args'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
E(lambda: torch.autograd.graph.register_multi_grad_hook((a,), print, mode='some'))
E(lambda: torch.autograd.graph.register_multi_grad_hook((a,), print, mode='ALL'))
E(lambda: torch.autograd.graph.register_multi_grad_hook((), print))
'''

PROGRAMS['mg_input_without_grad'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3.])
E(lambda: torch.autograd.graph.register_multi_grad_hook((a, b), print))
E(lambda: torch.autograd.graph.register_multi_grad_hook((a, b), print, mode='any'))
'''

PROGRAMS['mg_all_mode_return_value_replaces'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
y = a * 1
z = b * 1
def fn(grads):
    print([g.tolist() for g in grads])
    return [g * 0 for g in grads]
torch.autograd.graph.register_multi_grad_hook((y, z), fn)
E(lambda: (y * z).sum().backward())
print(a.grad, b.grad)
'''

PROGRAMS['mg_all_mode_with_autograd_grad_inputs'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
y = a * b
torch.autograd.graph.register_multi_grad_hook((a, b), lambda gs: print([None if g is None else g.tolist() for g in gs]))
E(lambda: print(torch.autograd.grad(y.sum(), a, retain_graph=True)))
E(lambda: print(torch.autograd.grad(y.sum(), (a, b), retain_graph=True)))
y.sum().backward(inputs=[a])
print(a.grad, b.grad)
'''

PROGRAMS['grad_inputs_hooks_which_run'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
y = x * w
log = []
x.register_hook(lambda g: log.append(('x', g.tolist())))
w.register_hook(lambda g: log.append(('w', g.tolist())))
y.register_hook(lambda g: log.append(('y', g.tolist())))
x.register_post_accumulate_grad_hook(lambda t: log.append('x post'))
w.register_post_accumulate_grad_hook(lambda t: log.append('w post'))
print(torch.autograd.grad(y.sum(), x, retain_graph=True)); print(log); log.clear()
y.sum().backward(inputs=[x], retain_graph=True); print(log, x.grad, w.grad); log.clear()
y.sum().backward(inputs=[w]); print(log, x.grad, w.grad)
'''

PROGRAMS['grad_inputs_nonleaf_hook_replaces'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
z = y * 3
y.register_hook(lambda g: g * 100)
print(torch.autograd.grad(z.sum(), y, retain_graph=True))
print(torch.autograd.grad(z.sum(), x, retain_graph=True))
z.sum().backward(inputs=[y], retain_graph=True)
print(y.grad, x.grad)
y.retain_grad()
z.sum().backward(inputs=[x])
print(y.grad, x.grad)
'''

PROGRAMS['node_hooks_with_autograd_grad'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
z = y.sin()
y.grad_fn.register_prehook(lambda go: print('pre exp'))
y.grad_fn.register_hook(lambda gi, go: print('post exp'))
z.grad_fn.register_hook(lambda gi, go: print('post sin'))
print(torch.autograd.grad(z.sum(), y, retain_graph=True)[0].shape)
print(torch.autograd.grad(z.sum(), x)[0].shape)
'''

PROGRAMS['node_hooks_order_tensor_vs_node'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
log = []
y.grad_fn.register_prehook(lambda go: log.append('node pre'))
y.register_hook(lambda g: log.append('tensor hook'))
y.grad_fn.register_hook(lambda gi, go: log.append('node post'))
y.retain_grad()
y.register_hook(lambda g: log.append('tensor hook 2'))
y.sum().backward()
print(log)
'''

PROGRAMS['node_hook_on_multi_output'] = PRE + r'''
x = torch.tensor([[1., 5.], [3., 2.]], requires_grad=True)
v, i = x.max(dim=1)
print(v.grad_fn, i.grad_fn)
v.grad_fn.register_hook(lambda gi, go: print('gi', gi, 'go', go))
v.grad_fn.register_prehook(lambda go: print('pre', go))
v.sum().backward()
a, b = x.unbind(0)
a.grad_fn.register_prehook(lambda go: print('unbind pre', go))
a.register_hook(lambda g: print('a hook', g))
a.sum().backward()
'''

PROGRAMS['node_hooks_dicts'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
n = y.grad_fn
print(n._forward_hooks if hasattr(n, '_forward_hooks') else 'none')
h = n.register_hook(lambda gi, go: None)
p = n.register_prehook(lambda go: None)
E(lambda: n.register_hook(3))
E(lambda: n.register_prehook('s'))
E(lambda: y.sum().backward())
'''

PROGRAMS['node_hook_after_graph_freed'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
y.sum().backward()
E(lambda: y.grad_fn.register_hook(lambda gi, go: None))
E(lambda: y.grad_fn.register_prehook(lambda go: None))
E(lambda: y.register_hook(lambda g: g))
E(lambda: y.sum().backward())
'''

PROGRAMS['hook_on_root_tensor'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * 2).sum()
y.register_hook(lambda g: print('root', g) or g * 5)
y.backward()
print(x.grad)
y2 = (x * 2)
y2.register_hook(lambda g: print('root2', g))
y2.backward(torch.tensor([1., -1.]))
print(x.grad)
'''

PROGRAMS['hook_grad_is_readonly_inplace'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
z = y * 1
def h(g):
    g.mul_(3)
y.register_hook(h)
z.sum().backward()
print(x.grad)
x2 = torch.tensor([1., 2.], requires_grad=True)
x2.register_hook(lambda g: print(g.add_(1)))
(x2 * 1).sum().backward()
print(x2.grad)
'''

# ---- module hooks: full backward (pre-)hooks, their messages and in-place errors, forward hooks with kwargs,
# global hooks

PROGRAMS['mod_full_backward_hook_basic'] = PRE + r'''
lin = torch.nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1., 2.], [3., 4.]])); lin.bias.zero_()
def h(m, gin, gout):
    print(type(m).__name__, [None if g is None else g.tolist() for g in gin], [g.tolist() for g in gout])
h1 = lin.register_full_backward_hook(h)
x = torch.tensor([[1., 1.]], requires_grad=True)
lin(x).sum().backward()
x2 = torch.tensor([[1., 1.]])
lin(x2).sum().backward()
print(lin._backward_hooks.keys().__len__(), type(h1))
'''

PROGRAMS['mod_full_backward_hook_replaces_grad_input'] = PRE + r'''
lin = torch.nn.Linear(2, 1)
lin.register_full_backward_hook(lambda m, gin, gout: (gin[0] * 0 + 7,))
x = torch.tensor([[1., 2.]], requires_grad=True)
lin(x).sum().backward()
print(x.grad)
lin2 = torch.nn.Linear(2, 1)
lin2.register_full_backward_hook(lambda m, gin, gout: (gin[0], gin[0]))
x = torch.tensor([[1., 2.]], requires_grad=True)
E(lambda: lin2(x).sum().backward())
lin3 = torch.nn.Linear(2, 1)
lin3.register_full_backward_hook(lambda m, gin, gout: gin[0])
x = torch.tensor([[1., 2.]], requires_grad=True)
E(lambda: lin3(x).sum().backward())
'''

PROGRAMS['mod_full_backward_pre_hook'] = PRE + r'''
lin = torch.nn.Linear(2, 1)
with torch.no_grad():
    lin.weight.fill_(1.); lin.bias.zero_()
lin.register_full_backward_pre_hook(lambda m, gout: print('pre', gout) or (gout[0] * 3,))
x = torch.tensor([[1., 2.]], requires_grad=True)
lin(x).sum().backward()
print(x.grad, lin.weight.grad)
lin2 = torch.nn.Linear(2, 1)
lin2.register_full_backward_pre_hook(lambda m, gout: (gout[0], gout[0]))
E(lambda: lin2(x).sum().backward())
lin3 = torch.nn.Linear(2, 1)
lin3.register_full_backward_pre_hook(lambda m, gout: gout[0])
E(lambda: lin3(x).sum().backward())
'''

PROGRAMS['mod_full_backward_hook_inplace_errors'] = PRE + r'''
relu = torch.nn.ReLU(inplace=True)
relu.register_full_backward_hook(lambda m, gin, gout: None)
x = torch.tensor([[1., -2.]], requires_grad=True)
y = x * 1
E(lambda: relu(y))
out = torch.nn.ReLU()
out.register_full_backward_hook(lambda m, gin, gout: None)
z = out(x * 1)
E(lambda: z.mul_(2))
E(lambda: z.sum().backward())
'''

PROGRAMS['mod_full_backward_hook_view_output'] = PRE + r'''
class M(torch.nn.Module):
    def forward(self, x):
        return x[0]
m = M()
m.register_full_backward_hook(lambda m, gin, gout: print('hook', gin, gout))
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = m(x)
print(y.grad_fn)
E(lambda: y.add_(1))
y.sum().backward()
print(x.grad)
'''

PROGRAMS['mod_full_backward_hook_dict_input_warning'] = PRE + r'''
class M(torch.nn.Module):
    def forward(self, d):
        return d['a'] * 2
m = M()
m.register_full_backward_hook(lambda m, gin, gout: print('gin', gin))
a = torch.tensor([1.], requires_grad=True)
m({'a': a}).sum().backward()
print(a.grad)
'''

PROGRAMS['mod_mixing_legacy_and_full'] = PRE + r'''
m = torch.nn.Linear(2, 1)
m.register_full_backward_hook(lambda *a: None)
E(lambda: m.register_backward_hook(lambda *a: None))
m2 = torch.nn.Linear(2, 1)
m2.register_backward_hook(lambda *a: None)
E(lambda: m2.register_full_backward_hook(lambda *a: None))
E(lambda: m2.register_full_backward_pre_hook(lambda *a: None))
'''

PROGRAMS['mod_legacy_backward_hook_warning'] = PRE + r'''
m = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU())
m.register_backward_hook(lambda mod, gin, gout: print('legacy', type(mod).__name__, len(gin), len(gout)))
x = torch.ones(1, 2, requires_grad=True)
m(x).sum().backward()
'''

PROGRAMS['mod_forward_hook_with_kwargs'] = PRE + r'''
class M(torch.nn.Module):
    def forward(self, x, scale=1.0):
        return x * scale
m = M()
def fh(mod, args, kwargs, out):
    print('fh', args, kwargs, out)
    return out + 1
h = m.register_forward_hook(fh, with_kwargs=True)
print(m(torch.ones(2), scale=3.0))
def fpre(mod, args, kwargs):
    print('pre', args, kwargs)
    return (args[0] * 10,), {'scale': 2.0}
p = m.register_forward_pre_hook(fpre, with_kwargs=True)
print(m(torch.ones(2), scale=3.0))
p.remove()
def badpre(mod, args, kwargs):
    return args[0]
m.register_forward_pre_hook(badpre, with_kwargs=True)
E(lambda: m(torch.ones(2)))
'''

PROGRAMS['mod_forward_hook_return_none_and_prepend'] = PRE + r'''
m = torch.nn.Identity()
log = []
m.register_forward_hook(lambda mod, a, o: log.append('a'))
m.register_forward_hook(lambda mod, a, o: log.append('b'), prepend=True)
m.register_forward_pre_hook(lambda mod, a: log.append('pa'))
m.register_forward_pre_hook(lambda mod, a: log.append('pb') or (a[0] + 1,), prepend=True)
print(m(torch.zeros(1)), log)
m.register_forward_pre_hook(lambda mod, a: a[0] * 2)
print(m(torch.zeros(1)))
'''

PROGRAMS['mod_global_full_backward_hook'] = PRE + r'''
from torch.nn.modules.module import register_module_full_backward_hook, register_module_full_backward_pre_hook
lin = torch.nn.Linear(2, 1)
h = register_module_full_backward_hook(lambda m, gin, gout: print('global', type(m).__name__, len(gin), len(gout)))
p = register_module_full_backward_pre_hook(lambda m, gout: print('global pre', type(m).__name__))
lin.register_full_backward_hook(lambda m, gin, gout: print('local'))
lin(torch.ones(1, 2, requires_grad=True)).sum().backward()
h.remove(); p.remove()
lin(torch.ones(1, 2, requires_grad=True)).sum().backward()
print(type(h))
'''

PROGRAMS['mod_hooks_dicts_and_repr'] = PRE + r'''
m = torch.nn.Linear(2, 1)
print(m._forward_hooks, m._forward_pre_hooks, m._backward_hooks, m._backward_pre_hooks)
print(m._forward_hooks_with_kwargs, m._forward_hooks_always_called, m._is_full_backward_hook)
h = m.register_forward_hook(lambda *a: None, with_kwargs=True, always_call=True)
print(len(m._forward_hooks), m._forward_hooks_with_kwargs == {h.id: True})
print(m._forward_hooks_always_called == {h.id: True})
h.remove()
print(len(m._forward_hooks), m._forward_hooks_with_kwargs, m._forward_hooks_always_called)
m.register_full_backward_hook(lambda *a: None)
print(m._is_full_backward_hook)
'''

PROGRAMS['mod_full_backward_hook_raises'] = PRE + r'''
lin = torch.nn.Linear(2, 1)
def bad(m, gin, gout):
    raise ZeroDivisionError('bw hook')
lin.register_full_backward_hook(bad)
x = torch.ones(1, 2, requires_grad=True)
E(lambda: lin(x).sum().backward())
'''

# ---- more corners: unused outputs, the hook's result as .grad, inference mode, multi-grad hooks, complex

PROGRAMS['e_hook_on_unused_output'] = PRE + r'''
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
a, b = x.unbind(0)
b.register_hook(lambda g: print('b hook', g))
a.register_hook(lambda g: print('a hook', g))
a.sum().backward()
print(x.grad)
x = torch.tensor([3., 1., 2.], requires_grad=True)
v, i = x.sort()
v.register_hook(lambda g: print('v', g))
E(lambda: i.register_hook(lambda g: g))
v.sum().backward()
'''

PROGRAMS['e_leaf_hook_result_identity_in_grad'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
kept = []
def h(g):
    r = g * 2
    kept.append(r)
    return r
x.register_hook(h)
(x * 1).sum().backward()
print(x.grad is kept[0], x.grad)
y = torch.tensor([1., 2.], requires_grad=True)
kept2 = []
y.register_hook(lambda g: kept2.append(g))
(y * 1).sum().backward()
print(y.grad is kept2[0])
'''

PROGRAMS['e_inference_mode_hooks'] = PRE + r'''
with torch.inference_mode():
    t = torch.ones(2)
E(lambda: t.register_hook(lambda g: g))
E(lambda: t.requires_grad_())
E(lambda: t.retain_grad())
x = torch.ones(2, requires_grad=True)
with torch.inference_mode():
    y = x * 2
print(y.requires_grad)
E(lambda: y.register_hook(lambda g: g))
'''

PROGRAMS['e_multi_grad_hook_any_return'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3.], requires_grad=True)
y = a * 1
torch.autograd.graph.register_multi_grad_hook((y, b), lambda g: print('any', g) or g * 100, mode='any')
E(lambda: (y.sum() * b).sum().backward())
print(a.grad, b.grad)
'''

PROGRAMS['e_multi_grad_hook_non_tensor'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
E(lambda: torch.autograd.graph.register_multi_grad_hook((a, 3), print))
E(lambda: torch.autograd.graph.register_multi_grad_hook(a, print))
E(lambda: torch.autograd.graph.register_multi_grad_hook([a, a], lambda gs: print(len(gs), gs)))
(a * 2).sum().backward()
'''

PROGRAMS['e_multi_grad_hook_remove_then_backward'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([1., 2.], requires_grad=True)
h = torch.autograd.graph.register_multi_grad_hook((a, b), lambda gs: print('fired'))
print(h)
h.remove()
h.remove()
(a * b).sum().backward()
print(a._backward_hooks, b._backward_hooks)
'''

PROGRAMS['e_identity_module_full_backward_hook'] = PRE + r'''
m = torch.nn.Identity()
m.register_full_backward_hook(lambda m, gin, gout: print('gin', gin, 'gout', gout))
x = torch.tensor([1., 2.], requires_grad=True)
y = m(x)
print(y is x, y.grad_fn)
(y * 3).sum().backward()
print(x.grad)
'''

PROGRAMS['e_global_legacy_backward_hook'] = PRE + r'''
from torch.nn.modules.module import register_module_backward_hook, register_module_full_backward_hook
h = register_module_backward_hook(lambda m, gin, gout: print('legacy global', type(m).__name__))
lin = torch.nn.Linear(2, 1)
lin(torch.ones(1, 2, requires_grad=True)).sum().backward()
E(lambda: register_module_full_backward_hook(lambda *a: None))
h.remove()
'''

PROGRAMS['e_hook_on_complex'] = PRE + r'''
z = torch.tensor([1+2j, 3-1j], requires_grad=True)
z.register_hook(lambda g: print('z', g) or g.conj())
y = (z * z.conj()).real.sum()
y.backward()
print(z.grad)
x = torch.tensor([1., 2.], requires_grad=True)
x.register_hook(lambda g: g + 0j)
E(lambda: (x * 2).sum().backward())
'''

# ---- handles by hand, hooks added during backward, Node hooks and inputs without grad

# fixed: RemovableHandle refers weakly to its dicts, so a plain dict raises PyTorch's TypeError (minigrad
# held it strongly and gave no error)
PROGRAMS['f_handle_pickle_and_state'] = PRE + r'''
import pickle
from collections import OrderedDict
from torch.utils.hooks import RemovableHandle
E(lambda: RemovableHandle({}))
d = OrderedDict()
h = RemovableHandle(d)
d[h.id] = 'hook'
h2 = pickle.loads(pickle.dumps(h))
print(type(h2).__name__, h2.id == h.id, h2.hooks_dict_ref() is None)
h2.remove()
print(d == {h.id: 'hook'})
e = OrderedDict()
h3 = RemovableHandle(d, extra_dict=e)
d[h3.id] = 'x'; e[h3.id] = True
h3.remove()
print(len(d), e)
h4 = RemovableHandle(d, extra_dict=[e, OrderedDict()])
d[h4.id] = 'y'; e[h4.id] = 1
h4.remove()
print(len(d), e, h4.extra_dict_ref.__class__.__name__)
'''

PROGRAMS['f_register_hook_during_backward'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
z = y * 3
def h(g):
    print('z hook, adding y hook')
    y.register_hook(lambda gy: print('late y hook', gy) or gy * 0)
z.register_hook(h)
z.sum().backward()
print(x.grad)
'''

PROGRAMS['f_node_hook_registered_during_backward'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
z = y.sin()
def h(gi, go):
    print('sin post; adding exp hooks')
    y.grad_fn.register_prehook(lambda go: print('late exp pre'))
    y.grad_fn.register_hook(lambda gi, go: print('late exp post'))
z.grad_fn.register_hook(h)
z.sum().backward()
'''

PROGRAMS['f_node_hook_returns_grad_for_no_grad_input'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
c = torch.tensor([3., 4.])
y = x * c
print(y.grad_fn.next_functions)
y.grad_fn.register_hook(lambda gi, go: print('gi', gi) or (gi[0], torch.ones(2)))
E(lambda: y.sum().backward())
print(x.grad, c.grad)
'''

PROGRAMS['f_full_backward_pre_hook_returns_none_tuple_mixed'] = PRE + r'''
class M(torch.nn.Module):
    def forward(self, x):
        return x * 2, x * 3
m = M()
m.register_full_backward_pre_hook(lambda m, gout: print('pre', gout) or (None, gout[1] * 10))
x = torch.tensor([1.], requires_grad=True)
a, b = m(x)
(a + b).sum().backward()
print(x.grad)
'''

PROGRAMS['f_post_accumulate_hook_order_and_remove_during'] = PRE + r'''
x = torch.tensor([1.], requires_grad=True)
hs = {}
def a(t):
    print('a'); hs['b'].remove()
hs['a'] = x.register_post_accumulate_grad_hook(a)
hs['b'] = x.register_post_accumulate_grad_hook(lambda t: print('b'))
hs['c'] = x.register_post_accumulate_grad_hook(lambda t: print('c'))
(x * 2).sum().backward()
(x * 2).sum().backward()
'''

# ---- _backward_hooks assignment, root hooks, is_grads_batched, AccumulateGrad hooks

PROGRAMS['g_backward_hooks_attr_assignment'] = PRE + r'''
from collections import OrderedDict
x = torch.tensor([1., 2.], requires_grad=True)
x._backward_hooks = OrderedDict([(0, lambda g: g * 2)])
(x * 1).sum().backward()
print(x.grad)
x.register_hook(lambda g: g + 1)
print(len(x._backward_hooks))
x._backward_hooks = None
x.grad = None
(x * 1).sum().backward()
print(x.grad, x._backward_hooks)
'''

PROGRAMS['g_root_hook_sees_grad_outputs'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
go = torch.tensor([1., -1.])
seen = []
y.register_hook(lambda g: seen.append(g))
torch.autograd.grad(y, x, grad_outputs=go)
print(seen[0], seen[0] is go)
E(lambda: torch.autograd.grad(x * 2, x, grad_outputs=torch.tensor([1., 2.], dtype=torch.float64)))
E(lambda: (x * 2).backward(torch.tensor([1, 2])))
'''

PROGRAMS['g_hook_under_is_grads_batched'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
y.register_hook(lambda g: print('y hook', tuple(g.shape)))
x.register_hook(lambda g: print('x hook', tuple(g.shape)))
print(torch.autograd.grad(y, x, torch.eye(2), is_grads_batched=True))
'''

PROGRAMS['g_node_hook_return_list'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
y.grad_fn.register_prehook(lambda go: [go[0] * 2])
E(lambda: y.sum().backward())
print(x.grad)
y = x.exp()
y.grad_fn.register_hook(lambda gi, go: [gi[0] * 2])
E(lambda: y.sum().backward())
print(x.grad)
'''

PROGRAMS['g_accumulate_grad_prehook_replaces_then_tensor_hook'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
log = []
acc = (x * 1).grad_fn.next_functions[0][0]
acc.register_prehook(lambda go: log.append(('acc pre', go[0].tolist())) or (go[0] + 1,))
x.register_hook(lambda g: log.append(('tensor', g.tolist())) or g * 10)
x.register_post_accumulate_grad_hook(lambda t: log.append(('post acc', t.grad.tolist())))
acc.register_hook(lambda gi, go: log.append(('acc post', go[0].tolist())))
(x * 1).sum().backward()
print(log, x.grad)
'''

# ---- module hooks: wrong shapes, global pre-hooks, handles of dead owners

PROGRAMS['h_module_backward_hook_wrong_shape'] = PRE + r'''
lin = torch.nn.Linear(2, 1)
lin.register_full_backward_hook(lambda m, gin, gout: (torch.ones(3),))
E(lambda: lin(torch.ones(1, 2, requires_grad=True)).sum().backward())
lin2 = torch.nn.Linear(2, 1)
lin2.register_full_backward_pre_hook(lambda m, gout: (torch.ones(5),))
E(lambda: lin2(torch.ones(1, 2, requires_grad=True)).sum().backward())
'''

PROGRAMS['h_global_backward_pre_hook_returns'] = PRE + r'''
from torch.nn.modules.module import register_module_full_backward_pre_hook
lin = torch.nn.Linear(1, 1)
with torch.no_grad():
    lin.weight.fill_(1.); lin.bias.zero_()
h = register_module_full_backward_pre_hook(lambda m, go: (go[0] * 100,))
x = torch.ones(1, 1, requires_grad=True)
lin(x).sum().backward()
h.remove()
print(x.grad)
'''

PROGRAMS['h_hook_lambda_reference_cycle_remove_after_del'] = PRE + r'''
import gc
x = torch.tensor([1.], requires_grad=True)
y = x * 2
h = y.register_hook(lambda g: g)
del y
gc.collect()
h.remove()
print(h.hooks_dict_ref() is None)
lin = torch.nn.Linear(1, 1)
h2 = lin.register_forward_hook(lambda *a: None)
del lin
gc.collect()
h2.remove()
print(h2.hooks_dict_ref() is None)
'''

# ---- backward and autograd.grad inside hooks

PROGRAMS['i_reentrant_backward_in_hook'] = PRE + r'''
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3.], requires_grad=True)
def h(g):
    with torch.enable_grad():
        (b * 5).sum().backward()
    print('inner done', b.grad)
    return g
y = a * 2
y.register_hook(h)
y.sum().backward()
print(a.grad, b.grad)
'''

PROGRAMS['i_autograd_grad_in_hook_same_graph'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
z = y * 2
def h(g):
    with torch.enable_grad():
        print('nested', torch.autograd.grad(y.sum(), x, retain_graph=True))
    return g
z.register_hook(h)
z.sum().backward()
print(x.grad)
x2 = torch.tensor([1., 2.], requires_grad=True)
y2 = x2.exp()
z2 = y2 * 2
def h2(g):
    with torch.enable_grad():
        torch.autograd.grad(y2.sum(), x2)
z2.register_hook(h2)
E(lambda: z2.sum().backward())
'''

PROGRAMS['i_retain_grad_hook_order_with_many'] = PRE + r'''
x = torch.tensor([1.], requires_grad=True)
y = x * 1
log = []
y.register_hook(lambda g: log.append(('h1', g.item())) or g * 2)
y.retain_grad()
y.register_hook(lambda g: log.append(('h2', g.item())) or g * 3)
y.grad_fn.register_prehook(lambda go: log.append(('pre', go[0].item())) or (go[0] + 1,))
(y * 1).sum().backward()
print(log, y.grad, x.grad)
'''

# ---- multi-grad handles, GradientEdge inputs, always_call, parameter hooks vs module hooks, double backward

PROGRAMS['j_multi_handle_repr'] = PRE + r'''
a = torch.tensor([1.], requires_grad=True)
h = torch.autograd.graph.register_multi_grad_hook((a,), print)
print(type(h).__name__, type(h).__qualname__, h)
print(len(h.handles) if hasattr(h, 'handles') else 'no handles')
with h:
    pass
(a * 2).sum().backward()
'''

PROGRAMS['j_gradient_edge_hooks'] = PRE + r'''
from torch.autograd.graph import get_gradient_edge
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
z = y.exp()
e = get_gradient_edge(y)
print(type(e).__name__, e.node, e.output_nr)
y.register_hook(lambda g: print('y hook', g) or g * 0 + 1)
print(torch.autograd.grad(z.sum(), e, retain_graph=True))
print(torch.autograd.grad(z.sum(), y))
'''

PROGRAMS['j_module_forward_pre_hook_raises_always_call'] = PRE + r'''
m = torch.nn.Linear(1, 1)
def pre(mod, args):
    raise ValueError('pre failed')
m.register_forward_pre_hook(pre)
m.register_forward_hook(lambda mod, a, o: print('always', o), always_call=True)
E(lambda: m(torch.ones(1, 1)))
'''

PROGRAMS['j_tensor_hook_on_module_param_during_forward_hook_backward'] = PRE + r'''
lin = torch.nn.Linear(2, 2)
torch.nn.init.ones_(lin.weight); torch.nn.init.zeros_(lin.bias)
acc = []
lin.register_full_backward_hook(lambda m, gin, gout: acc.append(('module', m.weight.grad)))
lin.weight.register_hook(lambda g: acc.append(('weight', g.tolist())))
lin.weight.register_post_accumulate_grad_hook(lambda p: acc.append(('post', p.grad.tolist())))
x = torch.ones(1, 2, requires_grad=True)
lin(x).sum().backward()
print(acc)
'''

PROGRAMS['k_double_backward_hooks_fire_again'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
x.register_hook(lambda g: print('x hook', g.grad_fn) or g)
y = x ** 3
y.register_hook(lambda g: print('y hook', g.grad_fn) or g)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g)
(gg,) = torch.autograd.grad(g.sum(), x)
print(gg)
'''

PROGRAMS['k_hook_on_grad_result'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
(g,) = torch.autograd.grad((x ** 3).sum(), x, create_graph=True)
g.register_hook(lambda t: print('g hook', t) or t * 2)
g.sum().backward()
print(x.grad)
'''

PROGRAMS['k_hook_on_leaf_with_existing_grad_create_graph'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
x.grad = torch.ones(2)
x.register_post_accumulate_grad_hook(lambda t: print('post', t.grad, t.grad.grad_fn))
(x ** 2).sum().backward(create_graph=True)
print(x.grad.requires_grad)
'''

PROGRAMS['k_prehook_on_node_with_two_outputs_none'] = PRE + r'''
x = torch.tensor([3., 1., 2.], requires_grad=True)
v, i = x.topk(2)
h = v.grad_fn.register_prehook(lambda go: print('pre', go) or (go[0] * 2, None))
E(lambda: v.sum().backward(retain_graph=True))
h.remove()
v.grad_fn.register_prehook(lambda go: (go[0] * 2,))
v.sum().backward()
print(x.grad)
'''

PROGRAMS['k_hook_returns_wrong_layout_and_0dim'] = PRE + r'''
x = torch.tensor(2., requires_grad=True)
x.register_hook(lambda g: g.reshape(1))
E(lambda: (x * 3).backward())
y = torch.tensor([2.], requires_grad=True)
y.register_hook(lambda g: g.sum())
E(lambda: (y * 3).sum().backward())
print(x.grad, y.grad)
'''

# ---- tensors with hooks pickled and deep-copied

PROGRAMS['l_pickle_tensor_with_hooks_warns'] = PRE + r'''
import pickle
x = torch.tensor([1., 2.], requires_grad=True)
def my_hook(g):
    return g
x.register_hook(my_hook)
y = pickle.loads(pickle.dumps(x))
print(y, y._backward_hooks)
z = torch.tensor([1.], requires_grad=True)
@torch.utils.hooks.unserializable_hook
def quiet(g):
    return g
z.register_hook(quiet)
print(pickle.loads(pickle.dumps(z)))
'''

PROGRAMS['l_param_deepcopy_with_hooks'] = PRE + r'''
import copy
p = torch.nn.Parameter(torch.ones(2))
p.register_hook(lambda g: g * 2)
q = copy.deepcopy(p)
print(type(q).__name__, q._backward_hooks)
(q * 1).sum().backward()
print(q.grad)
'''

PROGRAMS['l_nonleaf_deepcopy_with_hooks'] = PRE + r'''
import copy
x = torch.ones(2, requires_grad=True)
y = x * 2
y.register_hook(lambda g: g)
E(lambda: copy.deepcopy(y))
'''


@pytest.fixture(autouse=True, scope="module")
def _warmed_up():
    """PyTorch's first run of a program imports modules (a second or more): done here, so that no program's time
    depends on whether it is the first."""
    pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run_both("import torch\n")


# Each program runs as in a fresh process (``parity.fresh_warn_once``: the warnings given once per process are given
# whatever ran before in this process).
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    # (catch_warnings restores the filters and showwarning the prelude replaces)
    with warnings.catch_warnings(), fresh_warn_once():
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
