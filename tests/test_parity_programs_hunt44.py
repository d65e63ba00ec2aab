"""Parity programs from a forty-fourth hunt: torch.utils.checkpoint and saved-tensor hooks.

``checkpoint`` reentrant and not (and unspecified: its warning), RNG state with dropout, non-tensor arguments and
outputs, kwargs, inputs not requiring grad, ``checkpoint_sequential``, nested checkpoints, ``autograd.grad`` through a
checkpoint, ``determinism_check``, ``debug``, ``context_fn``; ``saved_tensors_hooks`` (what pack sees and when, what
unpack may return), ``save_on_cpu``, ``disable_saved_tensors_hooks``, nesting, custom Functions, ``_saved_*`` and
``_raw_saved_*``. Programs marked "fixed:" printed something different from PyTorch before this hunt's fixes.
"""
from __future__ import annotations

import contextlib
import logging
import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE as _PRE

PRE = _PRE + r'''
from torch.utils.checkpoint import checkpoint, checkpoint_sequential
from torch.autograd.graph import saved_tensors_hooks, save_on_cpu, disable_saved_tensors_hooks
'''

PROGRAMS: dict[str, str] = {}

# ---- checkpoint: the three modes

PROGRAMS['ckpt_unspecified_warns'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = checkpoint(lambda t: t.sin() * 2, x)
print(y, y.grad_fn)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['ckpt_reentrant_basic'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = checkpoint(lambda t: t.exp().sin(), x, use_reentrant=True)
print(y, y.grad_fn, y.grad_fn.next_functions)
print(type(y.grad_fn).__name__, y.requires_grad, y.is_leaf)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['ckpt_nonreentrant_basic'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = checkpoint(lambda t: t.exp().sin(), x, use_reentrant=False)
print(y, y.grad_fn, y.grad_fn.next_functions)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['ckpt_two_inputs_one_param'] = PRE + r'''
torch.manual_seed(0)
lin = torch.nn.Linear(3, 2)
a = torch.randn(4, 3, requires_grad=True)
for r in (True, False):
    lin.zero_grad(); a.grad = None
    out = checkpoint(lambda t: torch.tanh(lin(t)), a, use_reentrant=r)
    out.pow(2).sum().backward()
    print(r, out.grad_fn, a.grad, lin.weight.grad, lin.bias.grad)
'''

PROGRAMS['ckpt_tuple_and_nontensor_outputs'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
def f(t):
    return t * 2, 'tag', 3, t.detach() + 1, None
for r in (True, False):
    x.grad = None
    out = checkpoint(f, x, use_reentrant=r)
    print(r, [type(o).__name__ for o in out], out[1], out[2], out[4])
    print(out[0].grad_fn, out[3].requires_grad, out[3].grad_fn)
    out[0].sum().backward()
    print(x.grad)
'''

PROGRAMS['ckpt_nontensor_inputs'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
def f(t, k, s, lst, none):
    print('run', k, s, lst, none)
    return t * k
for r in (True, False):
    x.grad = None
    y = checkpoint(f, x, 3, 'a', [1, 2], None, use_reentrant=r)
    y.sum().backward()
    print(r, x.grad)
'''

PROGRAMS['ckpt_kwargs'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
def f(t, scale=1.0):
    return t * scale
E(lambda: checkpoint(f, x, scale=2.0, use_reentrant=True))
y = checkpoint(f, x, scale=3.0, use_reentrant=False)
y.sum().backward()
print(y, x.grad)
'''

PROGRAMS['ckpt_no_input_requires_grad_reentrant'] = PRE + r'''
x = torch.tensor([1., 2.])
w = torch.tensor([3., 4.], requires_grad=True)
y = checkpoint(lambda t: t * w, x, use_reentrant=True)
print(y.requires_grad, y.grad_fn)
E(lambda: y.sum().backward())
print(w.grad)
z = checkpoint(lambda t: t * w, x, use_reentrant=False)
print(z.requires_grad, z.grad_fn)
z.sum().backward()
print(w.grad)
'''

PROGRAMS['ckpt_reentrant_autograd_grad'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = checkpoint(lambda t: t.pow(3), x, use_reentrant=True)
E(lambda: torch.autograd.grad(y.sum(), x))
y2 = checkpoint(lambda t: t.pow(3), x, use_reentrant=False)
print(torch.autograd.grad(y2.sum(), x))
'''

PROGRAMS['ckpt_reentrant_backward_inputs'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = checkpoint(lambda t: t.pow(3), x, use_reentrant=True)
E(lambda: y.sum().backward(inputs=[x]))
print(x.grad)
'''

PROGRAMS['ckpt_nonreentrant_double_backward'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = checkpoint(lambda t: t.pow(3), x, use_reentrant=False)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.grad_fn)
g.sum().backward()
print(x.grad)
'''

PROGRAMS['ckpt_backward_twice'] = PRE + r'''
for r in (True, False):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = checkpoint(lambda t: t.sin().exp(), x, use_reentrant=r)
    s = y.sum()
    s.backward(retain_graph=True)
    E(lambda: s.backward())
    print(r, x.grad)
'''

PROGRAMS['ckpt_preserve_rng_dropout'] = PRE + r'''
for r in (True, False):
    for keep in (True, False):
        torch.manual_seed(7)
        x = torch.ones(8, requires_grad=True)
        y = checkpoint(lambda t: torch.nn.functional.dropout(t, 0.5, training=True) * t, x,
                       use_reentrant=r, preserve_rng_state=keep)
        y.sum().backward()
        print(r, keep, y, x.grad)
        print(torch.rand(2))
'''

PROGRAMS['ckpt_rng_state_after'] = PRE + r'''
torch.manual_seed(3)
x = torch.ones(4, requires_grad=True)
y = checkpoint(lambda t: t * torch.rand(4), x, use_reentrant=False)
after = torch.rand(3)
y.sum().backward()
print(after, torch.rand(3), x.grad)
'''

PROGRAMS['ckpt_sequential'] = PRE + r'''
torch.manual_seed(1)
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 4), torch.nn.Tanh(),
                            torch.nn.Linear(4, 1))
x = torch.randn(5, 3, requires_grad=True)
for segs in (1, 2, 3, 5):
    for r in (True, False):
        model.zero_grad(); x.grad = None
        out = checkpoint_sequential(model, segs, x, use_reentrant=r)
        out.sum().backward()
        print(segs, r, out.grad_fn, x.grad.sum().item(), model[0].weight.grad.sum().item())
'''

PROGRAMS['ckpt_sequential_unspecified_warns'] = PRE + r'''
model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU())
x = torch.ones(1, 2, requires_grad=True)
out = checkpoint_sequential(model, 2, x)
print(out.shape, out.grad_fn)
'''

PROGRAMS['ckpt_sequential_list_of_functions'] = PRE + r'''
fs = [lambda t: t * 2, lambda t: t.sin(), lambda t: t + 1]
x = torch.tensor([0.5, 1.], requires_grad=True)
out = checkpoint_sequential(fs, 2, x, use_reentrant=False)
out.sum().backward()
print(out, x.grad)
'''

PROGRAMS['ckpt_nested'] = PRE + r'''
for r_out in (True, False):
    for r_in in (True, False):
        x = torch.tensor([1., 2.], requires_grad=True)
        inner = lambda t: checkpoint(lambda u: u.exp() * u, t, use_reentrant=r_in)
        y = checkpoint(lambda t: inner(t.sin()).cos(), x, use_reentrant=r_out)
        y.sum().backward()
        print(r_out, r_in, y, x.grad)
'''

PROGRAMS['ckpt_determinism_check'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = checkpoint(lambda t: t * 2, x, use_reentrant=False, determinism_check='default')
y.sum().backward(); print(x.grad)
y = checkpoint(lambda t: t * 2, x, use_reentrant=False, determinism_check='none')
y.sum().backward(); print(x.grad)
E(lambda: checkpoint(lambda t: t * 2, x, use_reentrant=False, determinism_check='bogus'))
'''

PROGRAMS['ckpt_determinism_mismatch_shape'] = PRE + r'''
calls = [0]
def f(t):
    calls[0] += 1
    return (t[:calls[0]] * t[:calls[0]]).sum()
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = checkpoint(f, x, use_reentrant=False)
E(lambda: y.backward())
print(calls)
calls[0] = 0
y = checkpoint(f, x, use_reentrant=False, determinism_check='none')
E(lambda: y.backward())
'''

PROGRAMS['ckpt_recompute_saves_fewer'] = PRE + r'''
calls = [0]
def f(t):
    calls[0] += 1
    if calls[0] == 1:
        return t.exp().sin()
    return t.exp()
x = torch.tensor([1., 2.], requires_grad=True)
y = checkpoint(f, x, use_reentrant=False)
E(lambda: y.sum().backward())
'''

PROGRAMS['ckpt_debug_flag'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = checkpoint(lambda t: t.sin() * t, x, use_reentrant=False, debug=True)
y.sum().backward()
print(x.grad)
E(lambda: checkpoint(lambda t: t, x, use_reentrant=True, debug=True))
'''

PROGRAMS['ckpt_context_fn'] = PRE + r'''
import contextlib
log = []
@contextlib.contextmanager
def tag(name):
    log.append(name + ' in'); yield; log.append(name + ' out')
def ctx():
    return tag('fwd'), tag('recompute')
x = torch.tensor([1., 2.], requires_grad=True)
y = checkpoint(lambda t: t.sin() * t, x, use_reentrant=False, context_fn=ctx)
print(log)
y.sum().backward()
print(log, x.grad)
E(lambda: checkpoint(lambda t: t, x, use_reentrant=True, context_fn=ctx))
'''

PROGRAMS['ckpt_bad_use_reentrant_args'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: checkpoint(lambda t: t, x, use_reentrant=True, determinism_check='none'))
E(lambda: checkpoint(lambda t: t, x, use_reentrant=True, preserve_rng_state=False, bogus=1))
E(lambda: checkpoint_sequential(torch.nn.Sequential(torch.nn.ReLU()), 1, x, use_reentrant=True, foo=2))
'''

PROGRAMS['ckpt_run_count'] = PRE + r'''
for r in (True, False):
    calls = []
    def f(t):
        calls.append(torch.is_grad_enabled())
        return t * t
    x = torch.tensor([1., 2.], requires_grad=True)
    y = checkpoint(f, x, use_reentrant=r)
    print(r, calls)
    y.sum().backward()
    print(r, calls, x.grad)
'''

PROGRAMS['ckpt_no_grad_mode'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
for r in (True, False):
    with torch.no_grad():
        y = checkpoint(lambda t: t * 2, x, use_reentrant=r)
    print(r, y, y.requires_grad, y.grad_fn)
'''

PROGRAMS['ckpt_inplace_in_function'] = PRE + r'''
for r in (True, False):
    x = torch.tensor([1., 2.], requires_grad=True)
    def f(t):
        u = t * 1
        u.mul_(3)
        return u.exp()
    y = checkpoint(f, x, use_reentrant=r)
    y.sum().backward()
    print(r, y.grad_fn, x.grad)
'''

PROGRAMS['ckpt_output_is_input'] = PRE + r'''
for r in (True, False):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = checkpoint(lambda t: t, x, use_reentrant=r)
    print(r, y is x, y.grad_fn, y.requires_grad)
    y.sum().backward()
    print(x.grad)
'''

PROGRAMS['ckpt_output_view'] = PRE + r'''
for r in (True, False):
    x = torch.arange(6.).requires_grad_()
    y = checkpoint(lambda t: (t * 2).view(2, 3), x, use_reentrant=r)
    print(r, y.grad_fn, y._is_view())
    E(lambda: y.mul_(2))
    (y ** 2).sum().backward()
    print(x.grad)
'''

PROGRAMS['ckpt_module_training'] = PRE + r'''
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Dropout(0.3), torch.nn.GELU(), torch.nn.Linear(8, 2))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
x = torch.randn(6, 4)
for step in range(3):
    opt.zero_grad()
    out = checkpoint(m, x, use_reentrant=False)
    loss = out.pow(2).mean()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6))
'''

PROGRAMS['ckpt_reentrant_detached_input'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([2., 2.], requires_grad=True)
y = checkpoint(lambda a, b: a * b, x, w.detach(), use_reentrant=True)
y.sum().backward()
print(x.grad, w.grad)
'''

PROGRAMS['ckpt_int_tensor_input'] = PRE + r'''
for r in (True, False):
    x = torch.tensor([1., 2.], requires_grad=True)
    idx = torch.tensor([1, 0])
    y = checkpoint(lambda a, i: a[i] * 3, x, idx, use_reentrant=r)
    y.sum().backward()
    print(r, y, x.grad)
'''

PROGRAMS['ckpt_reentrant_unused_output'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
a, b = checkpoint(lambda t: (t * 2, t * 3), x, use_reentrant=True)
print(a.grad_fn, b.grad_fn, a.grad_fn is b.grad_fn)
b.sum().backward()
print(x.grad)
'''

PROGRAMS['ckpt_nonreentrant_unused_output'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
a, b = checkpoint(lambda t: (t * 2, t.exp()), x, use_reentrant=False)
print(a.grad_fn, b.grad_fn)
b.sum().backward()
print(x.grad)
'''

PROGRAMS['ckpt_reentrant_output_not_requiring_grad'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
a, b = checkpoint(lambda t: (t * 2, t.detach() * 3), x, use_reentrant=True)
print(a.requires_grad, b.requires_grad, b.grad_fn)
(a.sum() + b.sum()).backward()
print(x.grad)
'''

# ---- saved_tensors_hooks

PROGRAMS['hooks_pack_unpack_order'] = PRE + r'''
log = []
def pack(t):
    log.append(('pack', tuple(t.shape), t.requires_grad, t.grad_fn is not None))
    return t
def unpack(t):
    log.append(('unpack', tuple(t.shape)))
    return t
x = torch.tensor([1., 2., 3.], requires_grad=True)
with saved_tensors_hooks(pack, unpack):
    y = x.exp()
    z = (y * x).sin()
for e in log: print(e)
log.clear()
z.sum().backward()
for e in log: print(e)
print(x.grad)
'''

PROGRAMS['hooks_counts_per_op'] = PRE + r'''
count = {'pack': 0, 'unpack': 0}
def pack(t):
    count['pack'] += 1; return t
def unpack(t):
    count['unpack'] += 1; return t
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
w = torch.tensor([[0.5, -1.], [2., 1.]], requires_grad=True)
for name, f in [('add', lambda: x + w), ('mul', lambda: x * w), ('mm', lambda: x @ w), ('exp', lambda: x.exp()),
                ('sin', lambda: x.sin()), ('relu', lambda: x.relu()), ('sigmoid', lambda: x.sigmoid()),
                ('tanh', lambda: x.tanh()), ('pow2', lambda: x.pow(2)), ('powt', lambda: x.pow(w)),
                ('div', lambda: x / w), ('sum', lambda: x.sum()), ('mean', lambda: x.mean()),
                ('softmax', lambda: x.softmax(0)), ('log_softmax', lambda: x.log_softmax(1)),
                ('max', lambda: x.max()), ('view', lambda: x.view(4)), ('index', lambda: x[0]),
                ('clone', lambda: x.clone()), ('abs', lambda: x.abs()), ('sqrt', lambda: x.sqrt())]:
    count['pack'] = count['unpack'] = 0
    with saved_tensors_hooks(pack, unpack):
        y = f()
    p = count['pack']
    y.sum().backward()
    print(name, p, count['unpack'])
'''

PROGRAMS['hooks_pack_sees_leaf_and_output'] = PRE + r'''
seen = []
def pack(t):
    seen.append(t)
    return t
x = torch.tensor([1., 2.], requires_grad=True)
with saved_tensors_hooks(pack, lambda t: t):
    y = x.exp()
print(len(seen), [s is x for s in seen], [s is y for s in seen])
print([(s.requires_grad, s.is_leaf, type(s.grad_fn).__name__) for s in seen])
seen.clear()
with saved_tensors_hooks(pack, lambda t: t):
    z = x.sigmoid()
print(len(seen), seen[0] is z, seen[0].grad_fn)
'''

PROGRAMS['hooks_pack_sees_view'] = PRE + r'''
seen = []
def pack(t):
    seen.append(t); return t
x = torch.arange(6.).requires_grad_()
v = x.view(2, 3)
with saved_tensors_hooks(pack, lambda t: t):
    y = v.exp()
    z = v[0] * v[1]
for s in seen:
    print(s.shape, s._is_view(), s._base is x if s._base is not None else None, s.grad_fn)
(y.sum() + z.sum()).backward()
print(x.grad)
'''

PROGRAMS['hooks_unpack_wrong_shape'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
with saved_tensors_hooks(lambda t: t, lambda t: torch.ones(5)):
    y = x * x
E(lambda: y.sum().backward())
with saved_tensors_hooks(lambda t: t, lambda t: t.double()):
    y = x * x
E(lambda: y.sum().backward())
print(x.grad)
'''

PROGRAMS['hooks_unpack_wrong_dtype_exp'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
with saved_tensors_hooks(lambda t: t, lambda t: t.double()):
    y = x.exp()
E(lambda: y.sum().backward())
with saved_tensors_hooks(lambda t: t, lambda t: t.reshape(3, 1)):
    y = x.exp()
E(lambda: y.sum().backward())
with saved_tensors_hooks(lambda t: t, lambda t: t[:2]):
    y = x.sin()
E(lambda: y.sum().backward())
'''

PROGRAMS['hooks_unpack_returns_non_tensor'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
with saved_tensors_hooks(lambda t: t, lambda t: 3):
    y = x * x
E(lambda: y.sum().backward())
with saved_tensors_hooks(lambda t: t, lambda t: None):
    y = x.exp()
E(lambda: y.sum().backward())
'''

PROGRAMS['hooks_pack_returns_anything'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
store = {}
def pack(t):
    k = len(store); store[k] = t.detach().clone(); return k
def unpack(k):
    return store[k]
with saved_tensors_hooks(pack, unpack):
    y = (x * x).exp()
print(sorted(store))
y.sum().backward()
print(x.grad)
'''

PROGRAMS['hooks_pack_changes_value'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
with saved_tensors_hooks(lambda t: t * 10, lambda t: t):
    y = x * x
y.sum().backward()
print(x.grad)
x.grad = None
with saved_tensors_hooks(lambda t: t, lambda t: t + 1):
    y = x.exp()
y.sum().backward()
print(x.grad)
'''

PROGRAMS['hooks_pack_inplace_on_input'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
def pack(t):
    t.add_(1)
    return t
with saved_tensors_hooks(pack, lambda t: t):
    E(lambda: x * x)
a = torch.tensor([1., 2.], requires_grad=True) * 1
with saved_tensors_hooks(pack, lambda t: t):
    E(lambda: a * a)
'''

PROGRAMS['hooks_nesting'] = PRE + r'''
log = []
def mk(n):
    return (lambda t: (log.append('pack' + n), t)[1]), (lambda t: (log.append('unpack' + n), t)[1])
x = torch.tensor([1., 2.], requires_grad=True)
with saved_tensors_hooks(*mk('A')):
    y = x.exp()
    with saved_tensors_hooks(*mk('B')):
        z = y.sin()
    w = z * 2
print(log)
log.clear()
w.sum().backward()
print(log, x.grad)
'''

PROGRAMS['hooks_exit_order_and_reuse'] = PRE + r'''
h = saved_tensors_hooks(lambda t: t, lambda t: t)
x = torch.tensor([1., 2.], requires_grad=True)
with h:
    y = x.exp()
with h:
    z = x.exp()
(y + z).sum().backward()
print(x.grad)
'''

PROGRAMS['hooks_not_reentered_in_pack'] = PRE + r'''
log = []
def pack(t):
    log.append(tuple(t.shape))
    return t * 1   # an op inside pack: is it saved with the hooks again?
x = torch.tensor([1., 2.], requires_grad=True)
with saved_tensors_hooks(pack, lambda t: t):
    y = x.exp()
print(log)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['disable_saved_tensors_hooks'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
with disable_saved_tensors_hooks('no hooks here, sorry'):
    E(lambda: saved_tensors_hooks(lambda t: t, lambda t: t).__enter__())
    y = x.exp()
    print(y.grad_fn)
    with torch.no_grad():
        E(lambda: saved_tensors_hooks(lambda t: t, lambda t: t).__enter__())
def enter_disable():
    with disable_saved_tensors_hooks('msg2'):
        print('entered')
with saved_tensors_hooks(lambda t: t, lambda t: t):
    E(enter_disable)
with saved_tensors_hooks(lambda t: t, lambda t: t):
    print(x.exp().grad_fn)
'''

PROGRAMS['disable_hooks_nested_messages'] = PRE + r'''
with disable_saved_tensors_hooks('outer'):
    with disable_saved_tensors_hooks('inner'):
        E(lambda: saved_tensors_hooks(lambda t: t, lambda t: t).__enter__())
    E(lambda: saved_tensors_hooks(lambda t: t, lambda t: t).__enter__())
h = saved_tensors_hooks(lambda t: t, lambda t: t)
with h:
    pass
print('ok')
'''

PROGRAMS['save_on_cpu'] = PRE + r'''
x = torch.tensor([1., 2., 3.], requires_grad=True)
with save_on_cpu():
    y = (x * x).exp()
y.sum().backward()
print(x.grad)
x.grad = None
with save_on_cpu(pin_memory=False, device_type='cpu'):
    y = x.sin() * x
print(y.grad_fn._saved_self, y.grad_fn._saved_other)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['custom_function_save_for_backward_hooks'] = PRE + r'''
log = []
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b, None)
        ctx.keep = a
        return a * b
    @staticmethod
    def backward(ctx, g):
        a, b, n = ctx.saved_tensors
        log.append(('bw', n))
        return g * b, g * a
def pack(t):
    log.append(('pack', tuple(t.shape), t.requires_grad)); return t
def unpack(t):
    log.append(('unpack', tuple(t.shape))); return t
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([3., 4.])
with saved_tensors_hooks(pack, unpack):
    y = Sq.apply(x, w)
print(log); log.clear()
y.sum().backward()
print(log, x.grad)
'''

PROGRAMS['custom_function_saved_output_hooks'] = PRE + r'''
log = []
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        out = a.exp()
        ctx.save_for_backward(out)
        return out
    @staticmethod
    def backward(ctx, g):
        out, = ctx.saved_tensors
        log.append(('bw', out.grad_fn is not None))
        return g * out
def pack(t):
    log.append(('pack', t.requires_grad, type(t.grad_fn).__name__)); return t
with saved_tensors_hooks(pack, lambda t: (log.append('unpack'), t)[1]):
    x = torch.tensor([0., 1.], requires_grad=True)
    y = Exp.apply(x)
print(log); log.clear()
y.sum().backward()
print(log, x.grad)
'''

PROGRAMS['custom_function_unpack_wrong'] = PRE + r'''
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * a
    @staticmethod
    def backward(ctx, g):
        a, = ctx.saved_tensors
        print('saved', a.shape, a.dtype)
        return 2 * g * a
x = torch.tensor([1., 2.], requires_grad=True)
with saved_tensors_hooks(lambda t: t, lambda t: torch.zeros(3)):
    y = Sq.apply(x)
E(lambda: y.sum().backward())
with saved_tensors_hooks(lambda t: t, lambda t: 'nope'):
    y = Sq.apply(x)
E(lambda: y.sum().backward())
'''

PROGRAMS['saved_attrs_under_hooks'] = PRE + r'''
log = []
def pack(t):
    log.append('pack'); return t.detach().clone() * 1
def unpack(t):
    log.append('unpack'); return t
x = torch.tensor([1., 2.], requires_grad=True)
with saved_tensors_hooks(pack, unpack):
    y = x * x
    z = x.exp()
print(log); log.clear()
print(y.grad_fn._saved_self, y.grad_fn._saved_other)
print(z.grad_fn._saved_result)
print(log)
'''

PROGRAMS['raw_saved_register_hooks'] = PRE + r'''
log = []
x = torch.tensor([1., 2.], requires_grad=True)
y = x * x
raw = y.grad_fn._raw_saved_self
print(type(raw).__name__)
raw.register_hooks(lambda t: (log.append('pack'), t * 2)[1], lambda t: (log.append('unpack'), t)[1])
print(log)
print(y.grad_fn._saved_self, log)
y.sum().backward()
print(x.grad, log)
'''

PROGRAMS['raw_saved_register_hooks_errors'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
raw = y.grad_fn._raw_saved_result
raw.register_hooks(lambda t: t, lambda t: t)
E(lambda: raw.register_hooks(lambda t: t, lambda t: t))
E(lambda: y.grad_fn._raw_saved_result.register_hooks(lambda t: t, lambda t: t))
z = x * x
E(lambda: z.grad_fn._raw_saved_self.register_hooks(lambda t: t))
E(lambda: z.grad_fn._raw_saved_self.register_hooks(1, 2))
z.sum().backward()
E(lambda: z.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t))
E(lambda: z.grad_fn._saved_self)
'''

PROGRAMS['raw_saved_after_hooks_and_release'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
with saved_tensors_hooks(lambda t: t, lambda t: t):
    y = x * x
E(lambda: y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t))
y.sum().backward()
E(lambda: y.grad_fn._saved_self)
E(lambda: y.grad_fn._raw_saved_self)
'''

PROGRAMS['raw_saved_unpack_wrong'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * x
y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: torch.ones(3))
E(lambda: y.grad_fn._saved_self)
E(lambda: y.sum().backward())
'''

PROGRAMS['hooks_with_checkpoint_nonreentrant'] = PRE + r'''
log = []
def pack(t):
    log.append('pack'); return t
def unpack(t):
    log.append('unpack'); return t
x = torch.tensor([1., 2.], requires_grad=True)
with saved_tensors_hooks(pack, unpack):
    y = checkpoint(lambda t: t.sin().exp(), x, use_reentrant=False)
    z = y * y
print(log); log.clear()
z.sum().backward()
print(log, x.grad)
'''

PROGRAMS['hooks_inside_checkpoint_function'] = PRE + r'''
log = []
def f(t):
    with saved_tensors_hooks(lambda u: (log.append('pack'), u)[1], lambda u: (log.append('unpack'), u)[1]):
        return t.sin().exp()
for r in (True, False):
    log.clear()
    x = torch.tensor([1., 2.], requires_grad=True)
    y = checkpoint(f, x, use_reentrant=r)
    print(r, log)
    y.sum().backward()
    print(r, log, x.grad)
'''

PROGRAMS['ckpt_saved_attrs_read'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = checkpoint(lambda t: t.exp() * t, x, use_reentrant=False)
print(y.grad_fn)
print(y.grad_fn._saved_self.grad_fn if hasattr(y.grad_fn, '_saved_self') else 'none')
E(lambda: y.grad_fn._saved_other)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['hooks_under_no_grad_and_inference'] = PRE + r'''
count = [0]
def pack(t):
    count[0] += 1; return t
x = torch.tensor([1., 2.], requires_grad=True)
with saved_tensors_hooks(pack, lambda t: t):
    with torch.no_grad():
        y = x.exp()
    with torch.inference_mode():
        z = x.exp()
    w = torch.tensor([1., 2.]).exp()
print(count)
'''

PROGRAMS['hooks_double_backward'] = PRE + r'''
log = []
x = torch.tensor([1., 2.], requires_grad=True)
with saved_tensors_hooks(lambda t: (log.append('p'), t)[1], lambda t: (log.append('u'), t)[1]):
    y = x.pow(3).sum()
    g, = torch.autograd.grad(y, x, create_graph=True)
print(log); log.clear()
g.sum().backward()
print(log, x.grad)
'''

PROGRAMS['hooks_retain_graph_unpacks_again'] = PRE + r'''
log = []
x = torch.tensor([1., 2.], requires_grad=True)
with saved_tensors_hooks(lambda t: (log.append('p'), t)[1], lambda t: (log.append('u'), t)[1]):
    y = (x * x).sum()
y.backward(retain_graph=True)
y.backward()
print(log, x.grad)
'''

PROGRAMS['hooks_exception_in_pack'] = PRE + r'''
def pack(t):
    raise ValueError('pack failed')
x = torch.tensor([1., 2.], requires_grad=True)
with saved_tensors_hooks(pack, lambda t: t):
    E(lambda: x.exp())
    print(torch.tensor([1.]).exp())
def unpack(t):
    raise KeyError('unpack failed')
with saved_tensors_hooks(lambda t: t, unpack):
    y = x.exp()
E(lambda: y.sum().backward())
'''

PROGRAMS['hooks_nn_module'] = PRE + r'''
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
x = torch.randn(2, 3)
shapes = []
with saved_tensors_hooks(lambda t: (shapes.append(tuple(t.shape)), t)[1], lambda t: t):
    out = m(x).sum()
print(shapes)
out.backward()
print(m[0].weight.grad)
'''

PROGRAMS['checkpoint_module_repr_and_all'] = PRE + r'''
import torch.utils.checkpoint as cp
print(cp.checkpoint.__name__, cp.checkpoint_sequential.__name__)
print(cp.noop_context_fn())
print(type(cp.noop_context_fn()[0]).__name__)
'''

PROGRAMS['ckpt_early_stop_and_debug_setters'] = PRE + r'''
import torch.utils.checkpoint as cp
x = torch.tensor([1., 2.], requires_grad=True)
calls = []
def f(t):
    a = t.sin(); calls.append('a')
    b = a.exp(); calls.append('b')
    return b * 2
for early in (True, False):
    calls.clear()
    with cp.set_checkpoint_early_stop(early):
        y = checkpoint(f, x, use_reentrant=False)
    y.sum().backward()
    print(early, calls)
print(cp.set_checkpoint_debug_enabled(None))
with cp.set_checkpoint_debug_enabled(False):
    y = checkpoint(f, x, use_reentrant=False)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['ckpt_output_independent_of_input'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
for r in (True, False):
    y = checkpoint(lambda t: torch.ones(2), x, use_reentrant=r)
    print(r, y.requires_grad, y.grad_fn)
    E(lambda: y.sum().backward())
'''

PROGRAMS['ckpt_only_nontensor_output'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
for r in (True, False):
    E(lambda: checkpoint(lambda t: (t.sum().item(), 'x'), x, use_reentrant=r))
    E(lambda: checkpoint(lambda t: {'a': t * 2}, x, use_reentrant=r))
'''

PROGRAMS['ckpt_dict_output_nonreentrant'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
out = checkpoint(lambda t: {'a': t * 2, 'b': [t.exp()]}, x, use_reentrant=False)
print(out['a'].grad_fn, out['b'][0].grad_fn)
(out['a'].sum() + out['b'][0].sum()).backward()
print(x.grad)
out = checkpoint(lambda t: {'a': t * 2}, x, use_reentrant=True)
print(type(out).__name__, out['a'].grad_fn)
'''

PROGRAMS['ckpt_tensor_in_list_arg'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
for r in (True, False):
    x.grad = None
    y = checkpoint(lambda ts: ts[0] * ts[1], [x, x * 2], use_reentrant=r)
    print(r, y.requires_grad, y.grad_fn)
    E(lambda: y.sum().backward())
    print(x.grad)
'''

PROGRAMS['ckpt_batchnorm_running_stats'] = PRE + r'''
for r in (True, False):
    torch.manual_seed(0)
    bn = torch.nn.BatchNorm1d(3)
    x = torch.randn(4, 3, requires_grad=True)
    y = checkpoint(bn, x, use_reentrant=r)
    print(r, bn.running_mean, bn.num_batches_tracked)
    y.pow(2).sum().backward()
    print(r, bn.running_mean, bn.num_batches_tracked, x.grad.sum())
'''

PROGRAMS['ckpt_enable_grad_inside_no_grad'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
for r in (True, False):
    with torch.no_grad():
        with torch.enable_grad():
            y = checkpoint(lambda t: t * t, x, use_reentrant=r)
    print(r, y.grad_fn)
    y.sum().backward()
    print(x.grad)
    x.grad = None
'''

PROGRAMS['ckpt_sequential_edge_cases'] = PRE + r'''
m = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU(), torch.nn.Linear(2, 1))
x = torch.ones(3, 2, requires_grad=True)
E(lambda: checkpoint_sequential(m, 10, x, use_reentrant=False).shape)
E(lambda: checkpoint_sequential(m, 0, x, use_reentrant=False).shape)
E(lambda: checkpoint_sequential(m, 2, (x, x), use_reentrant=False))
out = checkpoint_sequential(m, 2, x, use_reentrant=True, preserve_rng_state=False)
print(out.grad_fn)
E(lambda: checkpoint_sequential(m, 2, x, use_reentrant=False, preserve_rng_state=False, foo=1))
'''

PROGRAMS['ckpt_saved_tensor_hooks_during_recompute'] = PRE + r'''
log = []
x = torch.tensor([1., 2.], requires_grad=True)
y = checkpoint(lambda t: t.sin().exp(), x, use_reentrant=False)
with saved_tensors_hooks(lambda t: (log.append('p'), t)[1], lambda t: (log.append('u'), t)[1]):
    y.sum().backward()
print(log, x.grad)
'''

PROGRAMS['hooks_version_check_skipped'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
a = x * 1
with saved_tensors_hooks(lambda t: t, lambda t: t):
    y = a * a
a.add_(1)
E(lambda: y.sum().backward())
print(x.grad)
b = x * 1
with saved_tensors_hooks(lambda t: t.clone(), lambda t: t):
    z = b.exp()
b.add_(1)
E(lambda: z.sum().backward())
print(x.grad)
c = x * 1
w = c.exp()
c.add_(1)
E(lambda: w.sum().backward())
'''

PROGRAMS['hooks_output_version_check'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
with saved_tensors_hooks(lambda t: t, lambda t: t):
    y = x.exp()
y.mul_(2)
E(lambda: y.sum().backward())
print(x.grad)
'''

PROGRAMS['hooks_unpack_requires_grad_tensor'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
other = torch.tensor([5., 6.], requires_grad=True)
with saved_tensors_hooks(lambda t: t, lambda t: other):
    y = x * x
y.sum().backward()
print(x.grad, other.grad)
g, = torch.autograd.grad((x * x).sum(), x, create_graph=True)
print(g.grad_fn)
'''

PROGRAMS['hooks_saved_none_and_raw'] = PRE + r'''
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
w = torch.tensor([1., 1.], requires_grad=True)
y = torch.nn.functional.layer_norm(x, (2,), w, None)
print(y.grad_fn)
print(y.grad_fn._saved_bias)
E(lambda: y.grad_fn._raw_saved_bias.register_hooks(lambda t: t, lambda t: t))
print(type(y.grad_fn._raw_saved_weight).__name__)
'''

PROGRAMS['hooks_counts_nn_ops'] = PRE + r'''
count = {'p': 0, 'u': 0}
def pack(t):
    count['p'] += 1; return t
def unpack(t):
    count['u'] += 1; return t
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
w = torch.randn(4, 3, requires_grad=True)
b = torch.randn(4, requires_grad=True)
img = torch.randn(1, 2, 5, 5, requires_grad=True)
k = torch.randn(3, 2, 3, 3, requires_grad=True)
tgt = torch.tensor([1, 3])
F = torch.nn.functional
for name, f in [('linear', lambda: F.linear(x, w, b)), ('linear_nobias', lambda: F.linear(x, w)),
                ('conv2d', lambda: F.conv2d(img, k)), ('layer_norm', lambda: F.layer_norm(x, (3,))),
                ('ce', lambda: F.cross_entropy(F.linear(x, w, b), tgt)), ('mse', lambda: F.mse_loss(x, x.detach() * 2)),
                ('gelu', lambda: F.gelu(x)), ('silu', lambda: F.silu(x)), ('max_pool', lambda: F.max_pool2d(img, 2)),
                ('avg_pool', lambda: F.avg_pool2d(img, 2)), ('bmm', lambda: x.unsqueeze(0).bmm(w.t().unsqueeze(0))),
                ('cat', lambda: torch.cat([x, x])), ('where', lambda: torch.where(x > 0, x, x * 2)),
                ('clamp', lambda: x.clamp(-0.5, 0.5)), ('norm', lambda: x.norm()), ('var', lambda: x.var()),
                ('prod', lambda: x.prod()), ('cumsum', lambda: x.cumsum(1)), ('log1p', lambda: x.abs().log1p()),
                ('leaky', lambda: F.leaky_relu(x)), ('elu', lambda: F.elu(x)), ('softplus', lambda: F.softplus(x))]:
    count['p'] = count['u'] = 0
    with saved_tensors_hooks(pack, unpack):
        y = f()
    p = count['p']
    y.sum().backward()
    print(name, p, count['u'])
'''

PROGRAMS['hooks_dropout_mask'] = PRE + r'''
shapes = []
torch.manual_seed(0)
x = torch.ones(6, requires_grad=True)
with saved_tensors_hooks(lambda t: (shapes.append((tuple(t.shape), t.dtype)), t)[1], lambda t: t):
    y = torch.nn.functional.dropout(x, 0.5)
print(shapes)
y.sum().backward()
print(y, x.grad)
'''

PROGRAMS['custom_function_saved_tensors_twice_and_after'] = PRE + r'''
log = []
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * a
    @staticmethod
    def backward(ctx, g):
        a, = ctx.saved_tensors
        a2, = ctx.saved_tensors
        return 2 * g * a
x = torch.tensor([1., 2.], requires_grad=True)
with saved_tensors_hooks(lambda t: (log.append('p'), t)[1], lambda t: (log.append('u'), t)[1]):
    y = Sq.apply(x)
y.sum().backward()
print(log, x.grad)
E(lambda: y.grad_fn.saved_tensors)
'''

PROGRAMS['custom_function_mark_dirty_hooks'] = PRE + r'''
log = []
class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        a.mul_(2)
        ctx.mark_dirty(a)
        ctx.save_for_backward(a)
        return a
    @staticmethod
    def backward(ctx, g):
        a, = ctx.saved_tensors
        log.append(('bw', a.grad_fn is not None))
        return g * 2
def pack(t):
    log.append(('pack', type(t.grad_fn).__name__)); return t
x = torch.tensor([1., 2.], requires_grad=True)
a = x * 1
with saved_tensors_hooks(pack, lambda t: t):
    y = Double.apply(a)
print(log, y is a, y.grad_fn)
y.sum().backward()
print(log, x.grad)
'''

PROGRAMS['custom_function_saved_hooks_on_ctx'] = PRE + r'''
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * a
    @staticmethod
    def backward(ctx, g):
        a, = ctx.saved_tensors
        return 2 * g * a
x = torch.tensor([1., 2.], requires_grad=True)
y = Sq.apply(x)
print([n for n in dir(y.grad_fn) if 'saved' in n])
print(y.grad_fn.saved_tensors)
E(lambda: y.grad_fn._raw_saved_tensors)
'''

PROGRAMS['raw_saved_hooks_pack_returns_other_then_read'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x.sigmoid()
y.grad_fn._raw_saved_result.register_hooks(lambda t: 'key', lambda k: torch.tensor([0.5, 0.5]))
print(y.grad_fn._saved_result)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['raw_saved_register_hooks_not_callable'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * x
E(lambda: y.grad_fn._raw_saved_self.register_hooks('a', 'b'))
E(lambda: y.grad_fn._raw_saved_other.register_hooks(lambda t: t, None))
E(lambda: y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t))
y.sum().backward()
print(x.grad)
'''

PROGRAMS['hooks_pack_output_for_leaf_inplace'] = PRE + r'''
seen = []
x = torch.tensor([1., 2.], requires_grad=True)
a = x.clone()
with saved_tensors_hooks(lambda t: (seen.append((t is a, t._version, type(t.grad_fn).__name__)), t)[1], lambda t: t):
    a.exp_()
print(seen, a.grad_fn)
a.sum().backward()
print(x.grad)
'''

PROGRAMS['hooks_across_threads'] = PRE + r'''
import threading
log = []
x = torch.tensor([1., 2.], requires_grad=True)
res = {}
def work():
    res['y'] = x.exp()
with saved_tensors_hooks(lambda t: (log.append('p'), t)[1], lambda t: (log.append('u'), t)[1]):
    th = threading.Thread(target=work); th.start(); th.join()
    z = x.exp()
print(log)
'''

PROGRAMS['hooks_not_callable_enter'] = PRE + r'''
x = torch.tensor([1.], requires_grad=True)
E(lambda: saved_tensors_hooks(None, None).__enter__())
print(repr(saved_tensors_hooks(lambda t: t, lambda t: t))[:45])
with saved_tensors_hooks(lambda t: t, lambda t: t) as h:
    print(h)
'''

PROGRAMS['ckpt_reentrant_param_only_grad'] = PRE + r'''
lin = torch.nn.Linear(2, 2)
torch.nn.init.constant_(lin.weight, 0.5); torch.nn.init.zeros_(lin.bias)
x = torch.ones(1, 2)
y = checkpoint(lin, x, use_reentrant=True)
print(y.requires_grad)
y2 = checkpoint(lin, x.requires_grad_(), use_reentrant=True)
y2.sum().backward()
print(lin.weight.grad)
'''

PROGRAMS['ckpt_grad_of_param_through_nonreentrant'] = PRE + r'''
lin = torch.nn.Linear(2, 2)
torch.nn.init.constant_(lin.weight, 0.5); torch.nn.init.zeros_(lin.bias)
x = torch.ones(1, 2)
y = checkpoint(lambda t: lin(t).tanh(), x, use_reentrant=False)
print(y.grad_fn)
print(torch.autograd.grad(y.sum(), lin.weight))
y = checkpoint(lambda t: lin(t).tanh(), x, use_reentrant=False)
print(torch.autograd.grad(y.sum(), [lin.weight, lin.bias]))
'''

PROGRAMS['ckpt_determinism_mismatch_dtype_and_more_saved'] = PRE + r'''
calls = [0]
def f(t):
    calls[0] += 1
    u = t if calls[0] == 1 else t.double()
    return (u * u).float().sum()
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = checkpoint(f, x, use_reentrant=False)
E(lambda: y.backward())
calls[0] = 0
def g(t):
    calls[0] += 1
    v = t.exp()
    if calls[0] > 1:
        v = v.sin()
    return v * t
y = checkpoint(g, x, use_reentrant=False)
E(lambda: y.sum().backward())
print(issubclass(torch.utils.checkpoint.CheckpointError, RuntimeError))
'''

PROGRAMS['ckpt_call_forms'] = PRE + r'''
import torch.utils.checkpoint as cp
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: checkpoint(lambda: torch.ones(2) * 2, use_reentrant=False))
E(lambda: checkpoint(lambda: torch.ones(2) * 2, use_reentrant=True))
E(lambda: checkpoint(lambda t: t, x, True))
print(cp.detach_variable((x, 3)))
E(lambda: cp.detach_variable(x))
E(lambda: cp.detach_variable([x]))
print(cp.DefaultDeviceType.get_device_type())
print(cp.get_device_states(x))
'''

PROGRAMS['ckpt_check_backward_validity'] = PRE + r'''
import torch.utils.checkpoint as cp
cp.check_backward_validity((torch.ones(1),))
cp.check_backward_validity((torch.ones(1, requires_grad=True),))
cp.check_backward_validity((1, 'a'))
print('done')
'''

PROGRAMS['hooks_grad_mode_inside_pack_unpack'] = PRE + r'''
log = []
def pack(t):
    log.append(('pack', torch.is_grad_enabled())); return t
def unpack(t):
    log.append(('unpack', torch.is_grad_enabled())); return t
x = torch.tensor([1., 2.], requires_grad=True)
with saved_tensors_hooks(pack, unpack):
    y = (x * x).sum()
y.backward(retain_graph=True)
torch.autograd.grad(y, x, create_graph=True)
print(log)
log.clear()
y2 = x.exp()
y2.grad_fn._raw_saved_result.register_hooks(pack, unpack)
print(y2.grad_fn._saved_result, log)
'''

PROGRAMS['hooks_pack_result_requires_grad'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
seen = []
with saved_tensors_hooks(lambda t: (seen.append((t.requires_grad, t.is_leaf)), t * 1)[1], lambda t: t):
    y = x * x
    z = x.exp()
print(seen)
(y.sum() + z.sum()).backward()
print(x.grad)
'''

PROGRAMS['hooks_saved_nontensor_attrs'] = PRE + r'''
count = [0]
def pack(t):
    count[0] += 1; return t
x = torch.arange(6.).view(2, 3).requires_grad_()
with saved_tensors_hooks(pack, lambda t: t):
    a = x.sum(1)
    b = x.transpose(0, 1)
    c = x.expand(2, 2, 3)
    d = x.mean(0, keepdim=True)
print(count, a.grad_fn._saved_self_sym_sizes, b.grad_fn._saved_dim0, c.grad_fn._saved_self_sym_sizes)
print(d.grad_fn._saved_dim, d.grad_fn._saved_keepdim)
'''

PROGRAMS['hooks_unpack_noncontiguous_ok'] = PRE + r'''
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
with saved_tensors_hooks(lambda t: t.t().contiguous(), lambda t: t.t()):
    y = x * x
y.sum().backward()
print(x.grad)
with saved_tensors_hooks(lambda t: t.detach().numpy().copy(), lambda a: torch.from_numpy(a)):
    z = (x.exp() * x).sum()
x.grad = None
z.backward()
print(x.grad)
'''

# fixed: mm's and addmm's backward ran their products on the arrays unchecked: a saved matrix unpacked as another
# shape gave an IndexError (or a product of the wrong sizes) instead of mm's errors
PROGRAMS['hooks_unpack_wrong_shape_mm_addmm'] = PRE + r'''
for rx, rw in ((True, False), (False, True)):
    x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=rx)
    w = torch.tensor([[1., 0.], [0., 1.]], requires_grad=rw)
    b = torch.zeros(2)
    for f in (lambda t: t.flatten(), lambda t: t.t(), lambda t: torch.ones(3, 2), lambda t: torch.ones(2, 3),
              lambda t: t.double(), lambda t: t.unsqueeze(0)):
        for op in (lambda: x @ w, lambda: torch.addmm(b, x, w), lambda: torch.nn.functional.linear(x, w, b)):
            with saved_tensors_hooks(lambda t: t, f):
                y = op()
            E(lambda: y.sum().backward())
            print(x.grad, w.grad)
            x.grad = w.grad = None
'''

PROGRAMS['hooks_unpack_wrong_dtype_unary'] = PRE + r'''
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
with saved_tensors_hooks(lambda t: t, lambda t: t.to(torch.float16)):
    y = x.tanh()
E(lambda: y.sum().backward())
with saved_tensors_hooks(lambda t: t, lambda t: t.to(torch.int64)):
    y = x.sigmoid()
E(lambda: y.sum().backward())
'''

PROGRAMS['hooks_inference_mode_forward'] = PRE + r'''
count = [0]
x = torch.tensor([1., 2.], requires_grad=True)
with saved_tensors_hooks(lambda t: (count.append(1), t)[1], lambda t: t):
    with torch.inference_mode():
        y = x * x
print(len(count), y.requires_grad)
'''

PROGRAMS['ckpt_reentrant_view_input'] = PRE + r'''
base = torch.arange(6.).requires_grad_()
v = base.view(2, 3)[0]
for r in (True, False):
    base.grad = None
    y = checkpoint(lambda t: t.exp(), v, use_reentrant=r)
    y.sum().backward()
    print(r, base.grad)
'''

PROGRAMS['ckpt_inside_custom_function'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * 2
    @staticmethod
    def backward(ctx, g):
        a, = ctx.saved_tensors
        return g * 2
x = torch.tensor([1., 2.], requires_grad=True)
for r in (True, False):
    x.grad = None
    y = checkpoint(lambda t: F.apply(t).sin(), x, use_reentrant=r)
    y.sum().backward()
    print(r, y.grad_fn, x.grad)
'''

PROGRAMS['ckpt_leaf_modified_after_forward'] = PRE + r'''
for r in (True, False):
    x = torch.tensor([1., 2.], requires_grad=True)
    a = x * 1
    y = checkpoint(lambda t: t * t, a, use_reentrant=r)
    with torch.no_grad():
        a.mul_(10)
    E(lambda: y.sum().backward())
    print(r, x.grad)
'''

PROGRAMS['saved_identity_under_hooks'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = x * x
z = x.exp()
print(y.grad_fn._saved_self is x, z.grad_fn._saved_result is z, z.grad_fn._saved_result.grad_fn)
with saved_tensors_hooks(lambda t: t, lambda t: t):
    y = x * x
    z = x.exp()
print(y.grad_fn._saved_self is x, z.grad_fn._saved_result is z, z.grad_fn._saved_result.grad_fn)
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        out = a * 2
        ctx.save_for_backward(a, out)
        return out
    @staticmethod
    def backward(ctx, g):
        return g * 2
y = F.apply(x)
a, out = y.grad_fn.saved_tensors
print(a is x, out is y, out.grad_fn)
'''

PROGRAMS['save_for_backward_bad_args'] = PRE + r'''
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, what):
        ctx.save_for_backward(a, what)
        return a * 2
    @staticmethod
    def backward(ctx, g, *rest):
        return g * 2, None
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: F.apply(x, 3))
E(lambda: F.apply(x, [x]))
y = F.apply(x, None)
print(y.grad_fn.saved_tensors)
'''

PROGRAMS['save_intermediate_under_hooks'] = PRE + r'''
log = []
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        mid = a.exp()
        ctx.save_for_backward(mid)
        return mid * 2
    @staticmethod
    def backward(ctx, g):
        mid, = ctx.saved_tensors
        log.append(('bw', mid.requires_grad, mid.grad_fn))
        return g * 2 * mid
x = torch.tensor([0., 1.], requires_grad=True)
with saved_tensors_hooks(lambda t: (log.append(('pack', t.requires_grad, t.grad_fn)), t)[1], lambda t: t):
    y = F.apply(x)
y.sum().backward()
print(log, x.grad)
'''

PROGRAMS['hooks_decorator_forms'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
@disable_saved_tensors_hooks('decorated')
def g():
    E(lambda: saved_tensors_hooks(lambda t: t, lambda t: t).__enter__())
    return x.exp()
print(g().grad_fn)
E(lambda: saved_tensors_hooks(lambda t: t, lambda t: t)(lambda: 1))
'''

# fixed: PyTorch's grad / vjp / jacrev / hessian refuse saved-tensor hooks (active, or entered inside f)
PROGRAMS['hooks_with_torch_func'] = PRE + r'''
x = torch.tensor([1., 2.])
with saved_tensors_hooks(lambda t: t, lambda t: t):
    E(lambda: torch.func.grad(lambda t: (t * t).sum())(x))
    E(lambda: torch.func.vmap(lambda t: t * t)(x))
    E(lambda: torch.func.jacrev(lambda t: t.exp())(x))
    E(lambda: torch.func.vjp(lambda t: t.exp(), x)[0])
    E(lambda: torch.func.hessian(lambda t: t.exp().sum())(x))
    E(lambda: torch.func.jacfwd(lambda t: t.exp())(x))
    E(lambda: torch.func.grad_and_value(lambda t: t.exp().sum())(x))
def inner(t):
    with saved_tensors_hooks(lambda t: t, lambda t: t):
        return (t * t).sum()
E(lambda: torch.func.grad(inner)(x))
E(lambda: torch.func.vmap(inner)(x.view(2, 1)))
E(lambda: torch.func.grad(lambda t: checkpoint(lambda u: u.exp(), t, use_reentrant=False).sum())(x))
out, fn = torch.func.vjp(lambda t: t.exp(), x)
with saved_tensors_hooks(lambda t: t, lambda t: t):
    print(fn(torch.ones(2)))
'''

# fixed: save_on_cpu's hooks are named pack_to_cpu / unpack_from_cpu, as PyTorch's
PROGRAMS['save_on_cpu_nested_and_custom'] = PRE + r'''
log = []
x = torch.tensor([1., 2.], requires_grad=True)
with saved_tensors_hooks(lambda t: (log.append('outer'), t)[1], lambda t: t):
    with save_on_cpu():
        y = x.exp() * x
print(log, y.grad_fn._saved_self)
y.sum().backward()
print(x.grad)
print(type(save_on_cpu()).__mro__[1].__name__, save_on_cpu().pack_hook.__name__ if hasattr(save_on_cpu(), 'pack_hook') else None)
'''

PROGRAMS['ckpt_input_hooks_and_retain_grad'] = PRE + r'''
for r in (True, False):
    log = []
    x = torch.tensor([1., 2.], requires_grad=True)
    x.register_hook(lambda g: log.append(g.clone()))
    def f(t):
        u = t.exp()
        if u.requires_grad:   # (reentrant: the first run is in no_grad mode)
            u.retain_grad()
        log.append('run')
        return u * 2
    y = checkpoint(f, x, use_reentrant=r)
    y.sum().backward()
    print(r, log, x.grad)
'''

PROGRAMS['ckpt_no_grad_inside_fn'] = PRE + r'''
for r in (True, False):
    x = torch.tensor([1., 2.], requires_grad=True)
    def f(t):
        with torch.no_grad():
            c = t * 3
        return t.exp() + c
    y = checkpoint(f, x, use_reentrant=r)
    y.sum().backward()
    print(r, y, x.grad)
'''

PROGRAMS['ckpt_multiple_outputs_backward_together'] = PRE + r'''
for r in (True, False):
    x = torch.tensor([1., 2.], requires_grad=True)
    a, b = checkpoint(lambda t: (t.exp(), t.sin()), x, use_reentrant=r)
    torch.autograd.backward([a.sum(), b.sum()]) if not r else (a.sum() + b.sum()).backward()
    print(r, x.grad)
'''

PROGRAMS['ckpt_reentrant_grad_fn_attrs'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
y = checkpoint(lambda t: t * 2, x, use_reentrant=True)
g = y.grad_fn
print(g.name(), g.next_functions, len(g.saved_tensors) if hasattr(g, 'saved_tensors') else None)
print(g.needs_input_grad if hasattr(g, 'needs_input_grad') else None)
print(type(g).__mro__[1].__name__)
'''

PROGRAMS['ckpt_nonreentrant_grad_of_intermediate'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
mid = x * 2
y = checkpoint(lambda t: t.exp(), mid, use_reentrant=False)
print(torch.autograd.grad(y.sum(), mid))
y = checkpoint(lambda t: t.exp(), mid, use_reentrant=True)
E(lambda: torch.autograd.grad(y.sum(), mid))
'''

PROGRAMS['ckpt_requires_grad_inside'] = PRE + r'''
for r in (True, False):
    x = torch.tensor([1., 2.])
    w = torch.tensor([1., 1.], requires_grad=True)
    y = checkpoint(lambda t: (t * w).exp(), x, use_reentrant=r)
    print(r, y.requires_grad, y.grad_fn)
    if y.requires_grad:
        E(lambda: y.sum().backward())
    print(w.grad)
'''

PROGRAMS['hooks_pack_shapes_big_ops'] = PRE + r'''
log = []
def pack(t):
    log.append((tuple(t.shape), str(t.dtype).split('.')[1], type(t.grad_fn).__name__ if t.grad_fn else None))
    return t
F = torch.nn.functional
torch.manual_seed(0)
x = torch.randn(2, 3, 4, requires_grad=True)
q = torch.randn(1, 2, 3, 4, requires_grad=True)
img = torch.randn(2, 3, 4, 4, requires_grad=True)
bn = torch.nn.BatchNorm2d(3)
gn = torch.nn.GroupNorm(1, 3)
emb = torch.nn.Embedding(5, 2)
gru = torch.nn.GRU(4, 2)
for name, f in [('sdpa', lambda: F.scaled_dot_product_attention(q, q, q)),
                ('sdpa_causal', lambda: F.scaled_dot_product_attention(q, q, q, is_causal=True)),
                ('batch_norm', lambda: bn(img)), ('group_norm', lambda: gn(img)),
                ('embedding', lambda: emb(torch.tensor([[1, 2], [3, 4]]))),
                ('gru', lambda: gru(x)[0]),   # (nn.LSTM saves oneDNN's workspace: its size is oneDNN's own)
                ('nll', lambda: F.nll_loss(x[:, :, 0].log_softmax(1), torch.tensor([0, 2]))),
                ('ce_smooth', lambda: F.cross_entropy(x[:, :, 0], torch.tensor([0, 2]), label_smoothing=0.1)),
                ('bce', lambda: F.binary_cross_entropy(x.sigmoid(), torch.ones(2, 3, 4))),
                ('masked_fill', lambda: x.masked_fill(x > 0, 0.)), ('where', lambda: torch.where(x > 0, x, 0.)),
                ('index_select', lambda: x.index_select(1, torch.tensor([0, 2]))),
                ('gather', lambda: x.gather(2, torch.zeros(2, 3, 1, dtype=torch.long))),
                ('pow_frac', lambda: x.abs() ** 2.5), ('topk', lambda: x.topk(2)[0]), ('sort', lambda: x.sort()[0]),
                ('dropout_eval', lambda: F.dropout(x, 0.5, training=False)),
                ('interp', lambda: F.interpolate(img, scale_factor=2, mode='bilinear'))]:
    log.clear()
    with saved_tensors_hooks(pack, lambda t: t):
        y = f()
    print(name, log)
'''

PROGRAMS['ckpt_exception_then_again'] = PRE + r'''
x = torch.tensor([1., 2.], requires_grad=True)
def bad(t):
    t.exp()
    raise ValueError('in forward')
for r in (True, False):
    E(lambda: checkpoint(bad, x, use_reentrant=r))
    y = checkpoint(lambda t: t * t, x, use_reentrant=r)
    y.sum().backward()
    print(r, x.grad)
    x.grad = None
calls = [0]
def flaky(t):
    calls[0] += 1
    if calls[0] == 2:
        raise KeyError('in recompute')
    return t.exp()
for r in (True, False):
    calls[0] = 0
    y = checkpoint(flaky, x, use_reentrant=r)
    E(lambda: y.sum().backward())
    print(x.grad)
'''

PROGRAMS['raw_saved_read_counts'] = PRE + r'''
log = []
x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
y.grad_fn._raw_saved_result.register_hooks(lambda t: (log.append('p'), t)[1], lambda t: (log.append('u'), t)[1])
a = y.grad_fn._saved_result
b = y.grad_fn._saved_result
print(log, a is b, a is y)
y.sum().backward(retain_graph=True)
print(log)
'''

PROGRAMS['ckpt_autocast_recompute'] = PRE + r'''
lin = torch.nn.Linear(3, 2)
torch.nn.init.constant_(lin.weight, 0.25); torch.nn.init.constant_(lin.bias, 0.5)
x = torch.tensor([[1., 2., 3.]], requires_grad=True)
for r in (True, False):
    lin.zero_grad(); x.grad = None
    with torch.autocast('cpu', dtype=torch.bfloat16):
        y = checkpoint(lambda t: lin(t).relu(), x, use_reentrant=r)
    print(r, y.dtype, y.grad_fn)
    y.float().sum().backward()
    print(x.grad, lin.weight.grad.dtype, lin.weight.grad)
'''

PROGRAMS['ckpt_sequential_dropout_rng'] = PRE + r'''
torch.manual_seed(5)
m = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Dropout(0.5), torch.nn.Linear(4, 4), torch.nn.Dropout(0.5))
x = torch.randn(3, 4, requires_grad=True)
for r in (True, False):
    torch.manual_seed(11)
    m.zero_grad(); x.grad = None
    out = checkpoint_sequential(m, 2, x, use_reentrant=r)
    out.sum().backward()
    print(r, out.sum().item(), x.grad.sum().item(), m[0].weight.grad.sum().item())
torch.manual_seed(11)
ref = m(x)
print(ref.sum().item())
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
def _logger_kept(name: str):
    """Restore a logger's level, propagation, handlers and filters afterwards."""
    logger = logging.getLogger(name)
    state = logger.level, logger.propagate, logger.handlers[:], logger.filters[:]
    try:
        yield
    finally:
        logger.level, logger.propagate = state[:2]
        logger.handlers[:], logger.filters[:] = state[2], state[3]


# Each program runs as in a fresh process (``parity.fresh_warn_once``).
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    # (catch_warnings restores the filters and showwarning the prelude replaces; _logger_kept: PyTorch's debug=True
    # leaves its LoggingTensor logger at INFO, unpropagated and with filters, which breaks later tests' debug runs)
    with warnings.catch_warnings(), fresh_warn_once(), _logger_kept("LoggingTensor"):
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
