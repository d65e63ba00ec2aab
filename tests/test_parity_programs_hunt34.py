"""Parity programs from a thirty-fourth hunt: where nn.Module machinery meets autograd.

Module hooks (forward pre/post hooks with kwargs and ``always_call``, full backward hooks and pre-hooks: their
``BackwardHookFunctionBackward`` nodes, the grad tuples they see, replacements they return, the errors of mixing
them with the old ``register_backward_hook``, modules whose inputs do not require grad), the global module hooks,
tensor hooks registered inside ``forward``, parametrizations (custom ones, ``orthogonal``, ``weight_norm`` old and
new, ``spectral_norm``: grad_fn chains, ``original`` gradients, ``cached()``, ``remove_parametrizations``),
``parameters_to_vector`` / ``vector_to_parameters``, gradient clipping (``foreach``, ``error_if_nonfinite``,
``get_total_norm`` / ``clip_grads_with_norm_``), seeded ``nn.init``, ``torch.utils.checkpoint`` (reentrant and
not), ``zero_grad`` / ``requires_grad_`` / buffers / state dicts of parametrized modules, ``deepcopy`` and
``to(dtype)`` of modules with gradients. Each program must print exactly what PyTorch prints (hunt14's harness:
``parity.run_both`` with hunt13's ``E``/``W`` helpers, every warning also printed on stdout). Programs marked
"fixed:" printed something different from PyTorch before this hunt's fixes.
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE

PROGRAMS: dict[str, str] = {}

# ---- module hooks

PROGRAMS['full_backward_hook_tuples_linear'] = PRE + r'''
torch.manual_seed(0)
lin = torch.nn.Linear(3, 2)
def bh(mod, gin, gout):
    print('bh', type(mod).__name__, type(gin).__name__, len(gin), len(gout))
    print(' gin', gin)
    print(' gout', gout)
h = lin.register_full_backward_hook(bh)
x = torch.randn(4, 3, requires_grad=True)
y = lin(x)
print(y.grad_fn, y.grad_fn.next_functions[0][0])
print(type(h).__name__)
y.sum().backward()
print(x.grad)
h.remove()
x.grad = None
lin(x).pow(2).sum().backward()
print(x.grad)
'''

PROGRAMS['full_backward_hook_input_no_grad'] = PRE + r'''
torch.manual_seed(1)
lin = torch.nn.Linear(2, 2)
seen = []
def bh(mod, gin, gout):
    print('gin', gin)
    print('gout', gout)
lin.register_full_backward_hook(bh)
x = torch.randn(3, 2)
y = lin(x)
print(y.grad_fn)
y.mean().backward()
print(lin.weight.grad)
print(lin.bias.grad)
lin.requires_grad_(False)
y2 = lin(x)
print(y2.requires_grad, y2.grad_fn)
x2 = torch.randn(3, 2, requires_grad=True)
y3 = lin(x2)
print(y3.grad_fn)
y3.sum().backward()
print(x2.grad)
'''

PROGRAMS['full_backward_hook_replaces_grad_input'] = PRE + r'''
class Scale(torch.nn.Module):
    def forward(self, a, b):
        return a * b, a + b
m = Scale()
def bh(mod, gin, gout):
    print('gin', gin)
    print('gout', gout)
    return tuple(None if g is None else g * 10 for g in gin)
m.register_full_backward_hook(bh)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0])
p, s = m(a, b)
print(p.grad_fn, s.grad_fn)
(p.sum() + 2 * s.sum()).backward()
print(a.grad)
'''

PROGRAMS['full_backward_pre_hook_replaces_grad_output'] = PRE + r'''
torch.manual_seed(2)
net = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Tanh(), torch.nn.Linear(3, 1))
def pre(mod, gout):
    print('pre', type(mod).__name__, gout)
    return (gout[0] * 0.5,)
def post(mod, gin, gout):
    print('post', type(mod).__name__, [None if g is None else tuple(g.shape) for g in gin], gout[0].shape)
net[1].register_full_backward_pre_hook(pre)
net[1].register_full_backward_hook(post)
net[2].register_full_backward_hook(post)
x = torch.randn(2, 2, requires_grad=True)
out = net(x)
out.sum().backward()
print(x.grad)
print(net[0].weight.grad)
'''

PROGRAMS['backward_hook_mixing_old_and_new'] = PRE + r'''
lin = torch.nn.Linear(2, 2)
lin.register_full_backward_hook(lambda m, gi, go: None)
E(lambda: lin.register_backward_hook(lambda m, gi, go: None))
lin2 = torch.nn.Linear(2, 2)
lin2.register_backward_hook(lambda m, gi, go: None)
E(lambda: lin2.register_full_backward_hook(lambda m, gi, go: None))
E(lambda: lin2.register_full_backward_pre_hook(lambda m, go: None))
lin3 = torch.nn.Linear(2, 2)
lin3.register_full_backward_pre_hook(lambda m, go: None)
E(lambda: lin3.register_backward_hook(lambda m, gi, go: None))
'''

PROGRAMS['old_backward_hook_warning_multiple_nodes'] = PRE + r'''
class Two(torch.nn.Module):
    def forward(self, x):
        return (x * 2 + 1).exp()
m = Two()
def old(mod, gin, gout):
    print('old', len(gin), gin, gout)
m.register_backward_hook(old)
x = torch.tensor([0.1, 0.2], requires_grad=True)
y = m(x)
print(y.grad_fn)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['forward_hooks_kwargs_always_call'] = PRE + r'''
class M(torch.nn.Module):
    def forward(self, x, scale=1.0):
        if scale < 0:
            raise ValueError('negative scale')
        return x * scale
m = M()
def pre(mod, args, kwargs):
    print('pre', args, kwargs)
    return args, {'scale': kwargs.get('scale', 1.0) * 2}
def post(mod, args, kwargs, out):
    print('post', kwargs, out)
def always(mod, args, out):
    print('always', out)
m.register_forward_pre_hook(pre, with_kwargs=True)
m.register_forward_hook(post, with_kwargs=True)
m.register_forward_hook(always, always_call=True)
x = torch.tensor([1.0, -1.0], requires_grad=True)
y = m(x, scale=1.5)
print(y, y.grad_fn)
y.sum().backward()
print(x.grad)
E(lambda: m(x, scale=-1.0))
'''

PROGRAMS['forward_hook_returns_new_output_graph'] = PRE + r'''
torch.manual_seed(3)
lin = torch.nn.Linear(2, 2)
def hook(mod, inp, out):
    return out.relu() * 3
def prehook(mod, inp):
    return (inp[0] + 1,)
lin.register_forward_pre_hook(prehook)
lin.register_forward_hook(hook)
x = torch.randn(2, 2, requires_grad=True)
y = lin(x)
print(y)
print(y.grad_fn, y.grad_fn.next_functions)
y.sum().backward()
print(x.grad, lin.bias.grad)
'''

PROGRAMS['global_module_hooks_with_autograd'] = PRE + r'''
from torch.nn.modules.module import (register_module_forward_hook, register_module_forward_pre_hook,
                                     register_module_full_backward_hook, register_module_full_backward_pre_hook)
torch.manual_seed(4)
net = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU())
hs = [
    register_module_forward_pre_hook(lambda m, i: print('gpre', type(m).__name__)),
    register_module_forward_hook(lambda m, i, o: print('gfwd', type(m).__name__, o.grad_fn)),
    register_module_full_backward_pre_hook(lambda m, go: print('gbpre', type(m).__name__, go[0].shape)),
    register_module_full_backward_hook(lambda m, gi, go: print('gbwd', type(m).__name__, gi[0] is None)),
]
try:
    x = torch.randn(3, 2, requires_grad=True)
    y = net(x)
    print(y.grad_fn)
    y.sum().backward()
    print(x.grad)
finally:
    for h in hs:
        h.remove()
y = net(x)
y.sum().backward()
print('after removal', x.grad)
'''

PROGRAMS['tensor_hook_inside_forward'] = PRE + r'''
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.tensor([1.0, 2.0, 3.0]))
        self.seen = []
    def forward(self, x):
        h = x * self.w
        if h.requires_grad:
            h.register_hook(lambda g: self.seen.append(g.clone()))
            h.register_hook(lambda g: g.clamp(max=0.5))
        return (h ** 2).sum()
m = M()
x = torch.tensor([0.5, -0.5, 1.0], requires_grad=True)
loss = m(x)
loss.backward()
print(m.seen)
print(x.grad, m.w.grad)
with torch.no_grad():
    print(m(x), len(m.seen))
'''

PROGRAMS['backward_hook_on_module_with_kwargs_input'] = PRE + r'''
class M(torch.nn.Module):
    def forward(self, x, *, y):
        return x * y
m = M()
m.register_full_backward_hook(lambda mod, gi, go: print('bh', gi, go))
x = torch.tensor([2.0, 3.0], requires_grad=True)
y = torch.tensor([5.0, 7.0], requires_grad=True)
out = m(x, y=y)
print(out.grad_fn)
out.sum().backward()
print(x.grad, y.grad)
'''

PROGRAMS['backward_hook_inplace_output_error'] = PRE + r'''
lin = torch.nn.Linear(2, 2)
lin.register_full_backward_hook(lambda m, gi, go: None)
x = torch.ones(1, 2, requires_grad=True)
y = lin(x)
E(lambda: y.add_(1))
relu = torch.nn.ReLU(inplace=True)
relu.register_full_backward_hook(lambda m, gi, go: print('relu bh', gi, go))
z = x * 2
E(lambda: relu(z))
'''

# ---- parametrizations

PROGRAMS['parametrize_custom_symmetric_grad_chain'] = PRE + r'''
import torch.nn.utils.parametrize as P
class Symmetric(torch.nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)
torch.manual_seed(5)
lin = torch.nn.Linear(3, 3)
P.register_parametrization(lin, 'weight', Symmetric())
print(type(lin).__name__, type(lin).__mro__[1].__name__)
print(lin)
w = lin.weight
print(w.grad_fn, w.grad_fn.next_functions)
print(torch.equal(w, w.T), P.is_parametrized(lin), P.is_parametrized(lin, 'bias'))
x = torch.randn(2, 3)
lin(x).pow(2).sum().backward()
orig = lin.parametrizations.weight.original
print(orig.grad)
print(lin.bias.grad)
print([n for n, _ in lin.named_parameters()])
print(list(lin.state_dict().keys()))
'''

PROGRAMS['parametrize_cached_context'] = PRE + r'''
import torch.nn.utils.parametrize as P
calls = []
class Double(torch.nn.Module):
    def forward(self, X):
        calls.append(1)
        return X * 2
lin = torch.nn.Linear(2, 2, bias=False)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
P.register_parametrization(lin, 'weight', Double())
calls.clear()
a = lin.weight; b = lin.weight
print(len(calls), a is b)
with P.cached():
    calls.clear()
    a = lin.weight; b = lin.weight
    print(len(calls), a is b, a.grad_fn)
    x = torch.ones(1, 2)
    (lin(x).sum() + lin(x * 2).sum()).backward()
print(len(calls))
print(lin.parametrizations.weight.original.grad)
'''

PROGRAMS['parametrize_right_inverse_and_assign'] = PRE + r'''
import torch.nn.utils.parametrize as P
class Exp(torch.nn.Module):
    def forward(self, X):
        return X.exp()
    def right_inverse(self, Y):
        return Y.log()
lin = torch.nn.Linear(2, 2, bias=False)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 2.0], [0.5, 4.0]]))
P.register_parametrization(lin, 'weight', Exp())
print(lin.parametrizations.weight.original)
print(lin.weight)
lin.weight = torch.tensor([[1.0, 1.0], [1.0, 1.0]])
print(lin.parametrizations.weight.original)
class NoInv(torch.nn.Module):
    def forward(self, X):
        return X * 3
lin2 = torch.nn.Linear(2, 2)
P.register_parametrization(lin2, 'bias', NoInv())
def assign():
    lin2.bias = torch.zeros(2)
E(assign)
print(lin.parametrizations.weight.original.requires_grad, lin.parametrizations.weight.original.is_leaf)
'''

PROGRAMS['parametrize_remove_leave_parametrized'] = PRE + r'''
import torch.nn.utils.parametrize as P
class Neg(torch.nn.Module):
    def forward(self, X):
        return -X
lin = torch.nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
P.register_parametrization(lin, 'weight', Neg())
P.register_parametrization(lin, 'weight', Neg())
print(lin.parametrizations.weight)
print(lin.weight)
print(type(lin.parametrizations.weight).__name__, len(lin.parametrizations.weight))
P.remove_parametrizations(lin, 'weight', leave_parametrized=False)
print(type(lin).__name__, lin.weight, type(lin.weight).__name__)
P.register_parametrization(lin, 'weight', Neg())
P.remove_parametrizations(lin, 'weight', leave_parametrized=True)
print(type(lin).__name__, lin.weight)
E(lambda: P.remove_parametrizations(lin, 'weight'))
'''

PROGRAMS['weight_norm_new_grad_chain'] = PRE + r'''
from torch.nn.utils.parametrizations import weight_norm
torch.manual_seed(6)
lin = weight_norm(torch.nn.Linear(3, 2))
print(lin)
pw = lin.parametrizations.weight
print(pw.original0.shape, pw.original1.shape)
print(pw.original0)
w = lin.weight
print(w.grad_fn, w.grad_fn.next_functions)
x = torch.randn(4, 3)
lin(x).sum().backward()
print(pw.original0.grad)
print(pw.original1.grad)
print(list(lin.state_dict().keys()))
lin2 = weight_norm(torch.nn.Linear(3, 2), dim=None)
print(lin2.parametrizations.weight.original0)
'''

PROGRAMS['weight_norm_old_hook_based'] = PRE + r'''
torch.manual_seed(7)
lin = torch.nn.Linear(3, 2)
lin = torch.nn.utils.weight_norm(lin)
print([n for n, _ in lin.named_parameters()])
print(lin.weight_g, lin.weight_v.shape)
print(lin.weight.grad_fn)
x = torch.randn(2, 3)
lin(x).pow(2).sum().backward()
print(lin.weight_g.grad)
print(lin.weight_v.grad)
E(lambda: torch.nn.utils.weight_norm(lin))
torch.nn.utils.remove_weight_norm(lin)
print([n for n, _ in lin.named_parameters()], lin.weight.grad_fn)
E(lambda: torch.nn.utils.remove_weight_norm(lin))
'''

PROGRAMS['orthogonal_parametrization_grads'] = PRE + r'''
from torch.nn.utils.parametrizations import orthogonal
torch.manual_seed(8)
lin = orthogonal(torch.nn.Linear(3, 3))
W = lin.weight
print(W.grad_fn.name())
print(torch.allclose(W @ W.T, torch.eye(3), atol=1e-5))
print(lin.parametrizations.weight.original.shape)
x = torch.randn(2, 3)
lin(x).sum().backward()
print(lin.parametrizations.weight.original.grad is not None, lin.bias.grad)
for m in ('matrix_exp', 'cayley', 'householder'):
    torch.manual_seed(9)
    l = orthogonal(torch.nn.Linear(2, 2, bias=False), orthogonal_map=m)
    print(m, l.parametrizations.weight[0].orthogonal_map)
    w = l.weight
    print(w.grad_fn.name(), torch.allclose(w @ w.T, torch.eye(2), atol=1e-5))
'''

PROGRAMS['spectral_norm_new_power_iteration'] = PRE + r'''
from torch.nn.utils.parametrizations import spectral_norm
torch.manual_seed(10)
lin = spectral_norm(torch.nn.Linear(4, 3))
print(lin)
print([n for n, _ in lin.named_buffers()])
print(list(lin.state_dict().keys()))
sv = torch.linalg.matrix_norm(lin.weight, 2)
print(round(sv.item(), 3))
x = torch.randn(2, 4)
lin(x).sum().backward()
print(lin.parametrizations.weight.original.grad.shape)
lin.eval()
w1 = lin.weight; w2 = lin.weight
print(torch.equal(w1, w2), w1.grad_fn.name())
'''

PROGRAMS['spectral_norm_old_names'] = PRE + r'''
torch.manual_seed(11)
lin = torch.nn.utils.spectral_norm(torch.nn.Linear(3, 2))
print([n for n, _ in lin.named_parameters()])
print([n for n, _ in lin.named_buffers()])
print(sorted(lin.state_dict().keys()))
print(lin.weight.grad_fn)
x = torch.randn(2, 3)
lin(x).sum().backward()
print(lin.weight_orig.grad.shape)
torch.nn.utils.remove_spectral_norm(lin)
print([n for n, _ in lin.named_parameters()])
E(lambda: torch.nn.utils.remove_spectral_norm(lin))
'''

# ---- activation checkpointing

PROGRAMS['checkpoint_reentrant_grad_fn_and_grads'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
torch.manual_seed(12)
lin = torch.nn.Linear(3, 3)
def block(x):
    return lin(x).tanh() * 2
x = torch.randn(2, 3, requires_grad=True)
y = checkpoint(block, x, use_reentrant=True)
print(y.grad_fn, y.grad_fn.name(), y.requires_grad)
print(type(y.grad_fn).__name__)
y.sum().backward()
print(x.grad)
print(lin.weight.grad)
g1 = x.grad.clone(); x.grad = None; lin.zero_grad()
block(x).sum().backward()
print(torch.equal(g1, x.grad))
'''

PROGRAMS['checkpoint_non_reentrant_grad_fn'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
torch.manual_seed(13)
lin = torch.nn.Linear(3, 2)
def block(x):
    return torch.relu(lin(x)).sum(1)
x = torch.randn(4, 3, requires_grad=True)
y = checkpoint(block, x, use_reentrant=False)
print(y.grad_fn, y.grad_fn.next_functions)
y.pow(2).sum().backward()
print(x.grad)
print(lin.bias.grad)
'''

PROGRAMS['checkpoint_no_use_reentrant_error'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
x = torch.tensor([1.0, 2.0], requires_grad=True)
E(lambda: checkpoint(lambda t: t * 2, x))
E(lambda: checkpoint(lambda t: t * 2, x, use_reentrant=True, foo=1))
y = checkpoint(lambda t: t.sin(), x, use_reentrant=False)
y.sum().backward()
print(x.grad)
'''

PROGRAMS['checkpoint_reentrant_no_input_requires_grad'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
torch.manual_seed(14)
lin = torch.nn.Linear(2, 2)
x = torch.randn(3, 2)
y = checkpoint(lin, x, use_reentrant=True)
print(y.requires_grad, y.grad_fn)
E(lambda: y.sum().backward())
y2 = checkpoint(lin, x, use_reentrant=False)
print(y2.requires_grad, y2.grad_fn)
y2.sum().backward()
print(lin.weight.grad)
'''

PROGRAMS['checkpoint_non_tensor_outputs'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
def f(x, k):
    return x * k, k + 1, 'tag'
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = checkpoint(f, x, 3, use_reentrant=True)
print(type(out).__name__, out[1], out[2], out[0].grad_fn.name())
out[0].sum().backward()
print(x.grad)
x.grad = None
out = checkpoint(f, x, 4, use_reentrant=False)
print(out[1], out[2], out[0].grad_fn)
out[0].sum().backward()
print(x.grad)
def g(x):
    return {'a': x * 2, 'b': x.detach()}
d = checkpoint(g, x, use_reentrant=False)
print(sorted(d), d['a'].grad_fn, d['b'].requires_grad)
'''

PROGRAMS['checkpoint_dropout_preserve_rng'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
drop = torch.nn.Dropout(0.5)
def f(x):
    return drop(x) * x
x = torch.ones(8, requires_grad=True)
for reentrant in (True, False):
    for preserve in (True, False):
        torch.manual_seed(15)
        x.grad = None
        y = checkpoint(f, x, use_reentrant=reentrant, preserve_rng_state=preserve)
        print(reentrant, preserve, y)
        y.sum().backward()
        print(x.grad)
'''

PROGRAMS['checkpoint_sequential_blocks'] = PRE + r'''
from torch.utils.checkpoint import checkpoint_sequential
torch.manual_seed(16)
net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
x = torch.randn(5, 3, requires_grad=True)
y = checkpoint_sequential(net, 2, x, use_reentrant=False)
print(y.grad_fn)
y.sum().backward()
g = x.grad.clone()
print(g)
x.grad = None
net.zero_grad()
y2 = checkpoint_sequential(net, 3, x, use_reentrant=True)
print(y2.grad_fn.name())
y2.sum().backward()
print(torch.equal(g, x.grad), net[0].weight.grad.shape)
E(lambda: checkpoint_sequential(net, 2, x))
'''

PROGRAMS['checkpoint_reentrant_torch_autograd_grad_error'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = checkpoint(lambda t: t ** 3, x, use_reentrant=True)
E(lambda: torch.autograd.grad(y.sum(), x))
y = checkpoint(lambda t: t ** 3, x, use_reentrant=False)
print(torch.autograd.grad(y.sum(), x))
y = checkpoint(lambda t: t ** 3, x, use_reentrant=False)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.grad_fn is not None)
g.sum().backward()
print(x.grad)
'''

PROGRAMS['checkpoint_module_with_kwargs_and_hooks'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
torch.manual_seed(17)
class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(2, 2)
        self.calls = 0
    def forward(self, x, scale=1.0):
        self.calls += 1
        return self.lin(x) * scale
b = Block()
b.register_forward_hook(lambda m, i, o: print('fwd hook', o.requires_grad, torch.is_grad_enabled()))
x = torch.randn(1, 2, requires_grad=True)
y = checkpoint(b, x, scale=2.0, use_reentrant=False)
print(b.calls)
y.sum().backward()
print(b.calls, x.grad)
y = checkpoint(b, x, use_reentrant=True)
print(b.calls)
y.sum().backward()
print(b.calls)
'''

# ---- gradient clipping and parameter vectors

PROGRAMS['clip_grad_norm_foreach_nonfinite'] = PRE + r'''
from torch.nn.utils import clip_grad_norm_
ps = [torch.nn.Parameter(torch.ones(3)), torch.nn.Parameter(torch.ones(2, 2))]
for foreach in (None, True, False):
    ps[0].grad = torch.tensor([3.0, 4.0, 0.0]); ps[1].grad = torch.tensor([[1.0, 2.0], [2.0, 4.0]])
    n = clip_grad_norm_(ps, max_norm=1.0, foreach=foreach)
    print(foreach, n, ps[0].grad, ps[1].grad)
ps[0].grad = torch.tensor([float('nan'), 1.0, 1.0])
E(lambda: clip_grad_norm_(ps, 1.0, error_if_nonfinite=True))
print(clip_grad_norm_(ps, 1.0), ps[0].grad)
ps[0].grad = torch.tensor([float('inf'), 1.0, 1.0])
E(lambda: clip_grad_norm_(ps, 1.0, norm_type='inf', error_if_nonfinite=True))
print(clip_grad_norm_([], 1.0))
print(clip_grad_norm_(torch.nn.Parameter(torch.ones(2)), 1.0))
'''

PROGRAMS['get_total_norm_clip_grads_with_norm'] = PRE + r'''
from torch.nn.utils import get_total_norm, clip_grads_with_norm_
torch.manual_seed(18)
net = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.Linear(3, 1))
net(torch.randn(4, 3)).sum().backward()
grads = [p.grad for p in net.parameters()]
tn = get_total_norm(grads)
print(tn, tn.dtype)
print(get_total_norm(grads, norm_type=1.0), get_total_norm(grads, norm_type='inf'), get_total_norm(grads, 3))
print(get_total_norm([]))
clip_grads_with_norm_(net.parameters(), 0.5, tn)
print(get_total_norm([p.grad for p in net.parameters()]))
clip_grads_with_norm_(net.parameters(), 100.0, tn)
print(net[1].bias.grad)
print(get_total_norm(torch.tensor([3.0, 4.0])))
'''

PROGRAMS['clip_grad_norm_returns_graphless_tensor'] = PRE + r'''
torch.manual_seed(19)
lin = torch.nn.Linear(2, 2)
lin(torch.randn(3, 2)).pow(2).sum().backward()
n = torch.nn.utils.clip_grad_norm_(lin.parameters(), 0.1, norm_type=1)
print(n, n.requires_grad, n.grad_fn, n.shape)
print(lin.weight.grad, lin.bias.grad)
n2 = torch.nn.utils.clip_grad_norm_(lin.parameters(), 10.0, norm_type=2.0)
print(n2)
lin.bias.grad = None
n3 = torch.nn.utils.clip_grad_norm_(lin.parameters(), 10.0)
print(n3)
n4 = torch.nn.utils.clip_grad_norm_(lin.parameters(), 0.0)
print(n4, lin.weight.grad)
'''

PROGRAMS['clip_grad_value_foreach_and_hooks'] = PRE + r'''
from torch.nn.utils import clip_grad_value_
lin = torch.nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.fill_(1.0); lin.bias.fill_(0.0)
for p in lin.parameters():
    p.register_hook(lambda g: g.clamp(-0.2, 0.2))
x = torch.tensor([[3.0, -4.0]])
lin(x).sum().backward()
print(lin.weight.grad, lin.bias.grad)
lin.weight.grad = torch.tensor([[5.0, -5.0], [0.1, -0.1]])
clip_grad_value_(lin.parameters(), 1.0, foreach=True)
print(lin.weight.grad)
clip_grad_value_(lin.weight, 0.05, foreach=False)
print(lin.weight.grad)
E(lambda: clip_grad_value_(lin.parameters(), -1.0))
'''

PROGRAMS['parameters_to_vector_roundtrip_grad'] = PRE + r'''
from torch.nn.utils import parameters_to_vector, vector_to_parameters
torch.manual_seed(20)
net = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Linear(3, 1))
v = parameters_to_vector(net.parameters())
print(v.shape, v.grad_fn, v.requires_grad)
loss = (v ** 2).sum()
loss.backward()
print(net[1].bias.grad, net[0].weight.grad)
new = torch.arange(13.0)
vector_to_parameters(new, net.parameters())
print(net[0].weight, net[1].bias)
print(net[0].weight.is_leaf, type(net[0].weight).__name__, net[0].weight.grad_fn)
print([n for n, _ in net.named_parameters()])
E(lambda: vector_to_parameters(new.tolist(), net.parameters()))
E(lambda: parameters_to_vector(net.parameters()).view(2, 7))
'''

PROGRAMS['vector_to_parameters_with_graph'] = PRE + r'''
from torch.nn.utils import vector_to_parameters, parameters_to_vector
lin = torch.nn.Linear(2, 1)
theta = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
vector_to_parameters(theta * 2, lin.parameters())
print(type(lin.weight).__name__, lin.weight, lin.weight.grad_fn)
print([n for n, _ in lin.named_parameters()])
out = lin(torch.tensor([[1.0, 1.0]]))
print(out, out.grad_fn)
out.sum().backward()
print(theta.grad)
print(parameters_to_vector(lin.parameters()))
'''

# ---- nn.init under manual_seed

PROGRAMS['init_kaiming_xavier_modes_printed'] = PRE + r'''
import torch.nn.init as init
w = torch.empty(3, 4)
for f, kw in [(init.kaiming_uniform_, {}), (init.kaiming_uniform_, {'mode': 'fan_out', 'nonlinearity': 'relu'}),
              (init.kaiming_normal_, {'a': 0.2, 'nonlinearity': 'leaky_relu'}), (init.xavier_uniform_, {'gain': 2.0}),
              (init.xavier_normal_, {}), (init.trunc_normal_, {'std': 0.5, 'a': -0.3, 'b': 0.3})]:
    torch.manual_seed(21)
    r = f(w, **kw)
    print(f.__name__, kw, r is w)
    print(w)
print(init.calculate_gain('tanh'), init.calculate_gain('leaky_relu', 0.1), init.calculate_gain('selu'))
E(lambda: init.calculate_gain('foo'))
E(lambda: init.kaiming_uniform_(torch.empty(3)))
'''

PROGRAMS['init_orthogonal_sparse_eye_dirac'] = PRE + r'''
import torch.nn.init as init
torch.manual_seed(22)
w = init.orthogonal_(torch.empty(3, 5), gain=0.5)
print(w)
print(w @ w.T)
torch.manual_seed(23)
s = init.sparse_(torch.empty(4, 3), sparsity=0.5, std=0.1)
print(s)
print(init.eye_(torch.empty(2, 3)))
d = init.dirac_(torch.empty(2, 2, 3))
print(d)
E(lambda: init.sparse_(torch.empty(2, 2, 2), 0.5))
E(lambda: init.orthogonal_(torch.empty(3)))
'''

PROGRAMS['init_on_parameters_keeps_grad_and_leaf'] = PRE + r'''
import torch.nn.init as init
torch.manual_seed(24)
lin = torch.nn.Linear(3, 2)
lin(torch.ones(1, 3)).sum().backward()
g = lin.weight.grad.clone()
r = init.normal_(lin.weight, mean=1.0, std=0.1)
print(r is lin.weight, type(r).__name__, r.grad_fn, r.is_leaf, r._version)
print(torch.equal(lin.weight.grad, g))
init.constant_(lin.bias, 0.25)
init.zeros_(lin.weight[0])
print(lin.weight, lin.bias)
x = torch.ones(3, requires_grad=True)
y = x * 2
E(lambda: init.uniform_(x))
E(lambda: init.ones_(y))
print(y.grad_fn)
'''

PROGRAMS['init_generator_argument'] = PRE + r'''
import torch.nn.init as init
g = torch.Generator().manual_seed(25)
a = init.uniform_(torch.empty(2, 3), -1, 1, generator=g)
b = init.normal_(torch.empty(2, 3), generator=g)
c = init.kaiming_normal_(torch.empty(2, 3), generator=g)
d = init.xavier_uniform_(torch.empty(2, 3), generator=g)
e = init.trunc_normal_(torch.empty(2, 3), generator=g)
f = init.orthogonal_(torch.empty(2, 3), generator=g)
for t in (a, b, c, d, e, f):
    print(t)
'''

# ---- module state: zero_grad, requires_grad_, buffers, copies, dtypes

PROGRAMS['module_zero_grad_modes_and_grad_fn'] = PRE + r'''
torch.manual_seed(26)
net = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Linear(2, 1))
net(torch.randn(3, 2)).sum().backward()
print(net[0].weight.grad)
net.zero_grad(set_to_none=False)
print(net[0].weight.grad, net[1].bias.grad)
net(torch.randn(3, 2)).sum().backward(create_graph=True)
print(net[1].weight.grad.grad_fn is not None, net[1].weight.grad.requires_grad)
net.zero_grad(set_to_none=False)
print(net[1].weight.grad, net[1].weight.grad.requires_grad, net[1].weight.grad.grad_fn)
net.zero_grad()
print(net[0].weight.grad)
'''

PROGRAMS['module_requires_grad_toggle'] = PRE + r'''
torch.manual_seed(27)
net = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1))
r = net[0].requires_grad_(False)
print(r is net[0], [p.requires_grad for p in net.parameters()])
x = torch.randn(4, 2)
out = net(x)
print(out.grad_fn, out.grad_fn.next_functions)
out.sum().backward()
print(net[0].weight.grad, net[2].bias.grad)
net.requires_grad_()
print([p.requires_grad for p in net.parameters()])
net.eval().requires_grad_(False)
y = net(x)
print(y.requires_grad, y.grad_fn, net.training)
E(lambda: y.sum().backward())
'''

PROGRAMS['register_buffer_non_persistent_grad'] = PRE + r'''
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
        self.register_buffer('scale', torch.tensor([3.0, 4.0]))
        self.register_buffer('tmp', torch.tensor([0.5, 0.5]), persistent=False)
        self.register_buffer('empty', None)
    def forward(self, x):
        return (x * self.w * self.scale + self.tmp).sum()
m = M()
print(list(m.state_dict().keys()), [n for n, _ in m.named_buffers()])
print(m._non_persistent_buffers_set)
x = torch.tensor([1.0, 1.0])
m(x).backward()
print(m.w.grad, m.scale.grad, m.scale.requires_grad)
m.scale.requires_grad_()
m(x).backward()
print(m.scale.grad, m.w.grad)
m2 = M().double()
print(m2.tmp.dtype, m2.scale.dtype, m2.empty)
E(lambda: m.register_buffer('w', torch.zeros(1)))
E(lambda: m.register_buffer('bad.name', torch.zeros(1)))
E(lambda: m.register_buffer('x', [1.0]))
'''

PROGRAMS['deepcopy_module_with_grads'] = PRE + r'''
import copy
torch.manual_seed(28)
net = torch.nn.Linear(2, 2)
net(torch.randn(3, 2)).sum().backward()
c = copy.deepcopy(net)
print(c.weight.grad, c.weight.grad is net.weight.grad)
print(torch.equal(c.weight, net.weight), c.weight is net.weight, type(c.weight).__name__)
t = torch.ones(2, requires_grad=True)
t.grad = torch.full((2,), 3.0)
ct = copy.deepcopy(t)
print(ct.grad, ct.grad is t.grad, ct.requires_grad, ct.is_leaf)
y = net(torch.ones(1, 2))
E(lambda: copy.deepcopy(y))
p = torch.nn.Parameter(torch.ones(2))
q = p * 2
def deep():
    m = torch.nn.Module()
    m.attr = q
    return copy.deepcopy(m)
E(deep)
'''

PROGRAMS['module_to_dtype_keeps_grad'] = PRE + r'''
torch.manual_seed(29)
net = torch.nn.Linear(2, 2)
net(torch.randn(3, 2)).sum().backward()
w = net.weight
net.to(torch.float64)
print(net.weight.dtype, net.weight.grad.dtype, net.weight is w, net.weight.grad)
net.half()
print(net.weight.dtype, net.weight.grad.dtype, net.bias.grad)
net.float()
print(net.weight.grad)
out = net(torch.ones(1, 2))
out.sum().backward()
print(net.weight.grad)
E(lambda: net.to(torch.int64))
print(net.weight.dtype)
'''

# ---- corners: hooks meeting identity modules, reuse, no_grad, double backward

PROGRAMS['full_backward_hook_identity_module_inplace'] = PRE + r'''
ident = torch.nn.Identity()
ident.register_full_backward_hook(lambda m, gi, go: print('bh', gi, go))
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = ident(x)
print(y is x, y.grad_fn, y._base is x, y._is_view())
E(lambda: y.mul_(2))
z = ident(x * 1)
print(z.grad_fn, z.grad_fn.next_functions[0][0].name())
(z * 3).sum().backward()
print(x.grad)
'''

PROGRAMS['full_backward_hook_module_called_twice'] = PRE + r'''
torch.manual_seed(30)
lin = torch.nn.Linear(2, 2)
calls = []
lin.register_full_backward_pre_hook(lambda m, go: calls.append(('pre', go[0].sum().item())))
lin.register_full_backward_hook(lambda m, gi, go: calls.append(('post', gi[0].sum().item())))
x = torch.randn(1, 2, requires_grad=True)
h = lin(x)
y = lin(h)
y.sum().backward()
print([(k, round(v, 4)) for k, v in calls])
print(x.grad)
'''

PROGRAMS['full_backward_hook_under_no_grad_and_inference'] = PRE + r'''
lin = torch.nn.Linear(2, 1)
lin.register_full_backward_hook(lambda m, gi, go: print('bh'))
x = torch.ones(1, 2, requires_grad=True)
with torch.no_grad():
    y = lin(x)
print(y.requires_grad, y.grad_fn)
with torch.inference_mode():
    z = lin(x)
print(z.requires_grad, z.is_inference())
w = lin(x)
print(w.grad_fn.name())
'''

PROGRAMS['full_backward_hook_autograd_grad_and_create_graph'] = PRE + r'''
class Sq(torch.nn.Module):
    def forward(self, x):
        return x ** 2
m = Sq()
m.register_full_backward_hook(lambda mod, gi, go: print('bh', gi, go))
x = torch.tensor([1.0, 3.0], requires_grad=True)
y = m(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.grad_fn)
g2, = torch.autograd.grad(g.sum(), x)
print(g2)
y2 = m(x)
print(torch.autograd.grad(y2, x, torch.tensor([1.0, 0.5])))
'''

PROGRAMS['backward_hook_tuple_output_with_non_tensors'] = PRE + r'''
class M(torch.nn.Module):
    def forward(self, x):
        return x * 2, 'label', x.detach(), 7
m = M()
def bh(mod, gi, go):
    print('go', go)
    print('gi', gi)
m.register_full_backward_hook(bh)
x = torch.tensor([1.0, 2.0], requires_grad=True)
a, s, d, k = m(x)
print(a.grad_fn, s, d.requires_grad, d.grad_fn, k)
a.sum().backward()
print(x.grad)
'''

PROGRAMS['backward_hook_dict_output'] = PRE + r'''
class M(torch.nn.Module):
    def forward(self, x):
        return {'y': x * 3}
m = M()
m.register_full_backward_hook(lambda mod, gi, go: print('bh', gi, go))
x = torch.tensor([1.0, 2.0], requires_grad=True)
out = m(x)
print(out['y'].grad_fn)
out['y'].sum().backward()
print(x.grad)
class L(torch.nn.Module):
    def forward(self, x):
        return [x * 3, x + 1]
l = L()
l.register_full_backward_hook(lambda mod, gi, go: print('bh list', gi, go))
out = l(x)
print(type(out).__name__, out[0].grad_fn, out[1].grad_fn)
(out[0] + out[1]).sum().backward()
print(x.grad)
'''

PROGRAMS['hook_wrong_return_values'] = PRE + r'''
lin = torch.nn.Linear(2, 2)
lin.register_full_backward_hook(lambda m, gi, go: (torch.ones(2), torch.ones(2)))
x = torch.ones(1, 2, requires_grad=True)
E(lambda: lin(x).sum().backward())
lin2 = torch.nn.Linear(2, 2)
lin2.register_full_backward_pre_hook(lambda m, go: (torch.ones(3),))
E(lambda: lin2(x).sum().backward())
lin3 = torch.nn.Linear(2, 2)
lin3.register_full_backward_hook(lambda m, gi, go: 5)
E(lambda: lin3(x).sum().backward())
lin4 = torch.nn.Linear(2, 2)
lin4.register_full_backward_hook(lambda m, gi, go: (torch.ones(1, 3),))
E(lambda: lin4(x).sum().backward())
'''

PROGRAMS['forward_hooks_prepend_and_removal_inside'] = PRE + r'''
m = torch.nn.ReLU()
handles = {}
def a(mod, i, o):
    print('a'); handles['a'].remove()
def b(mod, i, o):
    print('b')
    return o * 10
def c(mod, i):
    print('c pre')
handles['a'] = m.register_forward_hook(a)
m.register_forward_hook(b, prepend=True)
m.register_forward_pre_hook(c, prepend=True)
x = torch.tensor([-1.0, 2.0], requires_grad=True)
y = m(x)
print(y, y.grad_fn)
y = m(x)
print(y)
y.sum().backward()
print(x.grad)
with handles['a']:
    pass
print(len(m._forward_hooks), len(m._forward_pre_hooks))
'''

PROGRAMS['tensor_hooks_on_params_and_retain_grad_in_forward'] = PRE + r'''
torch.manual_seed(31)
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(2, 2)
        self.lin.weight.register_hook(lambda g: print('weight hook', g.shape) or g * 0)
        self.acts = {}
    def forward(self, x):
        h = self.lin(x)
        h.retain_grad()
        self.acts['h'] = h
        return h.sigmoid().sum()
m = M()
x = torch.randn(3, 2)
m(x).backward()
print(m.acts['h'].grad)
print(m.lin.weight.grad, m.lin.bias.grad)
m(x).backward()
print(m.lin.weight.grad)
'''

# ---- torch.__future__: how module conversions treat parameters and their gradients

PROGRAMS['future_overwrite_params_on_conversion'] = PRE + r'''
# fixed: torch.__future__ was missing (set_overwrite_module_params_on_conversion: new Parameters, new gradients)
torch.manual_seed(32)
torch.__future__.set_overwrite_module_params_on_conversion(True)
try:
    lin = torch.nn.Linear(2, 2)
    lin(torch.ones(1, 2)).sum().backward()
    w, g = lin.weight, lin.weight.grad
    opt = torch.optim.SGD(lin.parameters(), lr=0.1)
    lin.double()
    print(lin.weight is w, lin.weight.grad is g, lin.weight.grad.dtype, type(lin.weight).__name__)
    print(w.dtype, g.dtype, lin.weight.is_leaf, lin.weight.requires_grad)
    print(torch.__future__.get_overwrite_module_params_on_conversion())
    print(opt.param_groups[0]['params'][0] is w)
finally:
    torch.__future__.set_overwrite_module_params_on_conversion(False)
print(torch.__future__.get_overwrite_module_params_on_conversion())
w2 = lin.weight
lin.float()
print(lin.weight is w2, lin.weight.dtype, lin.weight.grad.dtype)
'''

PROGRAMS['future_swap_params_on_conversion'] = PRE + r'''
# fixed: torch.__future__.set_swap_module_params_on_conversion and torch.utils.swap_tensors were missing
import torch.__future__
torch.manual_seed(33)
torch.__future__.set_swap_module_params_on_conversion(True)
try:
    lin = torch.nn.Linear(2, 2)
    lin(torch.ones(1, 2)).sum().backward()
    w, g = lin.weight, lin.weight.grad
    lin.double()
    print(lin.weight is w, lin.weight.grad is g, g.dtype, w.dtype, type(w).__name__)
    y = lin(torch.ones(1, 2, dtype=torch.float64))
    lin.float()
    E(lambda: y.sum().backward())
    print(lin.weight.dtype, lin.weight.grad.dtype)
    lin.zero_grad()
    lin(torch.ones(1, 2)).sum().backward()
    print(lin.weight.grad, lin.bias.grad)
finally:
    torch.__future__.set_swap_module_params_on_conversion(False)
print(torch.__future__.get_swap_module_params_on_conversion())
'''

PROGRAMS['future_swap_load_state_dict'] = PRE + r'''
# fixed: under the swap flag load_state_dict swaps module_load's result into each parameter (its .grad is gone)
torch.manual_seed(34)
torch.__future__.set_swap_module_params_on_conversion(True)
try:
    lin = torch.nn.Linear(2, 2)
    lin(torch.ones(1, 2)).sum().backward()
    w = lin.weight
    print(lin.load_state_dict({k: v * 0 + 1 for k, v in lin.state_dict().items()}))
    print(lin.weight is w, lin.weight.grad, lin.weight, lin.weight.requires_grad)
    bn = torch.nn.BatchNorm1d(2)
    rm = bn.running_mean
    sd = {k: v + 1 for k, v in bn.state_dict().items()}
    print(bn.load_state_dict(sd, assign=True))
    print(bn.running_mean is rm, bn.running_mean, bn.num_batches_tracked, bn.weight.requires_grad)
    bn.weight.requires_grad_(False)
    print(bn.load_state_dict(sd))
    print(bn.weight.requires_grad, type(bn.weight).__name__)
finally:
    torch.__future__.set_swap_module_params_on_conversion(False)
'''

PROGRAMS['swap_tensors_direct'] = PRE + r'''
# fixed: torch.utils.swap_tensors was missing
import weakref
a = torch.tensor([1.0, 2.0])
b = torch.nn.Parameter(torch.tensor([3.0]))
b.grad = torch.tensor([0.5])
a.note = 'from a'
torch.utils.swap_tensors(a, b)
print(a, a.grad, type(a).__name__, b, b.grad, type(b).__name__, b.note)
r = weakref.ref(a)
E(lambda: torch.utils.swap_tensors(a, b))
E(lambda: torch.utils.swap_tensors(b, a))
x = torch.tensor([2.0], requires_grad=True)
y = (x * 3).sum()
torch.utils.swap_tensors(x, torch.tensor([5.0], requires_grad=True))
E(lambda: y.backward())
print(x, x.grad)
'''

# ---- saving tensors and modules that carry hooks

PROGRAMS['pickle_tensor_with_hooks_warns'] = PRE + r'''
# fixed: pickling a tensor drops its backward hooks with PyTorch's warning; torch.utils.hooks.unserializable_hook
import io, pickle
import torch.utils.hooks
t = torch.ones(2, requires_grad=True)
h = t.register_hook(lambda g: g * 2)
buf = io.BytesIO()
torch.save(t, buf)
buf.seek(0)
u = torch.load(buf)
print(u, u.requires_grad)
(u * 3).sum().backward()
print(u.grad)
h.remove()
pickle.dumps(t)
@torch.utils.hooks.unserializable_hook
def quiet(g):
    return g
t.register_hook(quiet)
pickle.dumps(t)
print(quiet.__torch_unserializable__)
p = torch.nn.Parameter(torch.ones(2))
p.register_hook(lambda g: g)
q = pickle.loads(pickle.dumps(p))
print(q)
(q * 2).sum().backward()
print(q.grad)
'''

PROGRAMS['deepcopy_old_weight_norm_module'] = PRE + r'''
import copy
torch.manual_seed(35)
lin = torch.nn.utils.weight_norm(torch.nn.Linear(2, 2))
E(lambda: copy.deepcopy(lin))
torch.nn.utils.remove_weight_norm(lin)
c = copy.deepcopy(lin)
print(type(c.weight).__name__, torch.equal(c.weight, lin.weight))
from torch.nn.utils.parametrizations import weight_norm
lin2 = weight_norm(torch.nn.Linear(2, 2))
lin2(torch.ones(1, 2)).sum().backward()
c2 = copy.deepcopy(lin2)
print(type(c2).__name__, torch.equal(c2.weight, lin2.weight), c2.weight.grad_fn.name())
print(c2.parametrizations.weight.original0.grad, c2.parametrizations.weight.original1.grad)
'''

# ---- parametrizations printed at full precision

PROGRAMS['spectral_norm_new_bits_power_iterations'] = PRE + r'''
from torch.nn.utils.parametrizations import spectral_norm
torch.manual_seed(36)
torch.set_printoptions(precision=8)
lin = spectral_norm(torch.nn.Linear(5, 4), n_power_iterations=3)
print(lin.weight)
print(lin.parametrizations.weight[0]._u, lin.parametrizations.weight[0]._v)
x = torch.randn(3, 5)
lin(x).sum().backward()
print(lin.parametrizations.weight.original.grad)
lin.eval()
print(lin.weight)
'''

PROGRAMS['spectral_norm_old_conv_bits'] = PRE + r'''
torch.manual_seed(37)
torch.set_printoptions(precision=8)
conv = torch.nn.utils.spectral_norm(torch.nn.Conv2d(2, 3, 2))
print(conv.weight_u, conv.weight_v)
x = torch.randn(1, 2, 3, 3)
out = conv(x)
print(out)
out.sum().backward()
print(conv.weight_orig.grad)
print(conv.weight_u)
conv.eval()
print(conv(x))
'''

PROGRAMS['weight_norm_conv1d_dim1_bits'] = PRE + r'''
from torch.nn.utils.parametrizations import weight_norm
torch.manual_seed(38)
torch.set_printoptions(precision=8)
conv = weight_norm(torch.nn.Conv1d(2, 3, 2), dim=1)
print(conv.parametrizations.weight.original0)
x = torch.randn(1, 2, 4)
conv(x).pow(2).sum().backward()
print(conv.parametrizations.weight.original0.grad)
print(conv.parametrizations.weight.original1.grad)
print(conv.weight.grad_fn)
v = torch.randn(3, 2, 2, requires_grad=True)
g = torch.randn(3, 1, 1, requires_grad=True)
w = torch._weight_norm(v, g, 0)
w.backward(torch.randn(3, 2, 2))
print(v.grad, g.grad)
'''

PROGRAMS['orthogonal_maps_bits'] = PRE + r'''
from torch.nn.utils.parametrizations import orthogonal
torch.set_printoptions(precision=8)
for m in ('matrix_exp', 'cayley', 'householder'):
    torch.manual_seed(39)
    l = orthogonal(torch.nn.Linear(3, 3, bias=False), orthogonal_map=m)
    print(m, l.weight)
    l(torch.ones(1, 3)).sum().backward()
    print(l.parametrizations.weight.original.grad)
torch.manual_seed(40)
l = orthogonal(torch.nn.Linear(4, 2, bias=False))
print(l.weight)
torch.manual_seed(40)
l = orthogonal(torch.nn.Linear(2, 4, bias=False), use_trivialization=False)
print(l.weight, [n for n, _ in l.named_parameters()], [n for n, _ in l.named_buffers()])
l(torch.ones(1, 2)).sum().backward()
print(l.parametrizations.weight.original.grad)
'''

PROGRAMS['parametrize_extra_api'] = PRE + r'''
import torch.nn.utils.parametrize as P
class Neg(torch.nn.Module):
    def forward(self, X):
        return -X
class Split(torch.nn.Module):
    def forward(self, A, B):
        return A + B
    def right_inverse(self, X):
        return X * 0.25, X * 0.75
a = torch.nn.Linear(2, 2); b = torch.nn.Linear(2, 2)
P.register_parametrization(a, 'weight', Neg())
print(P.type_before_parametrizations(a), P.type_before_parametrizations(b))
P.transfer_parametrizations_and_params(a, b)
print(type(b).__name__, torch.equal(a.weight, b.weight))
lin = torch.nn.Linear(2, 2)
P.register_parametrization(lin, 'weight', Split())
print(lin.parametrizations.weight)
print([n for n, _ in lin.named_parameters()])
lin(torch.ones(1, 2)).sum().backward()
print(lin.parametrizations.weight.original0.grad, lin.parametrizations.weight.original1.grad)
class Rows(torch.nn.Module):
    def forward(self, X):
        return X[:1]
l3 = torch.nn.Linear(2, 3)
E(lambda: P.register_parametrization(l3, 'weight', Rows()))
P.register_parametrization(l3, 'weight', Rows(), unsafe=True)
print(l3.weight.shape, l3.weight.grad_fn)
'''

PROGRAMS['parametrize_buffer_and_param_module'] = PRE + r'''
import torch.nn.utils.parametrize as P
class Neg(torch.nn.Module):
    def forward(self, X):
        return -X
class Scale(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.s = torch.nn.Parameter(torch.tensor(2.0))
    def forward(self, X):
        return X * self.s
m = torch.nn.BatchNorm1d(2)
P.register_parametrization(m, 'running_mean', Neg())
print(m)
print([n for n, _ in m.named_buffers()], list(m.state_dict()))
torch.manual_seed(41)
lin = torch.nn.Linear(2, 2)
P.register_parametrization(lin, 'weight', Scale())
print([n for n, _ in lin.named_parameters()])
lin(torch.ones(1, 2)).sum().backward()
print(lin.parametrizations.weight[0].s.grad, lin.parametrizations.weight.original.grad)
torch.optim.SGD(lin.parameters(), lr=0.1).step()
print(lin.parametrizations.weight[0].s, lin.weight)
'''

PROGRAMS['parametrized_sequential_state_dict_loading'] = PRE + r'''
import torch.nn.utils.parametrize as P
class Neg(torch.nn.Module):
    def forward(self, X):
        return -X
torch.manual_seed(42)
net = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Linear(2, 1))
plain_sd = {k: v.clone() for k, v in net.state_dict().items()}
P.register_parametrization(net[0], 'weight', Neg())
print(net)
print(list(net.state_dict()))
print([n for n, _ in net.named_modules()])
E(lambda: net.load_state_dict(plain_sd))
print(net.load_state_dict(plain_sd, strict=False))
print(net.get_parameter('0.parametrizations.weight.original').shape)
E(lambda: net.get_parameter('0.weight'))
print(net.get_submodule('0.parametrizations.weight.0'))
net[0].requires_grad_(False)
print([(n, p.requires_grad) for n, p in net.named_parameters()], net[0].weight.grad_fn)
net.double()
print(net[0].weight.dtype, net[0].parametrizations.weight.original.dtype)
'''

PROGRAMS['parametrize_registration_errors'] = PRE + r'''
import torch.nn.utils.parametrize as P
class Neg(torch.nn.Module):
    def forward(self, X):
        return -X
lin = torch.nn.Linear(2, 2)
P.register_parametrization(lin, 'weight', Neg())
E(lambda: P.register_parametrization(lin, 'nothere', Neg()))
E(lambda: P.register_parametrization(lin, 'weight', 3))
class Bad(torch.nn.Module):
    def forward(self, X):
        return X.double()
E(lambda: P.register_parametrization(torch.nn.Linear(2, 2), 'weight', Bad()))
class BadInv(torch.nn.Module):
    def forward(self, X):
        return X
    def right_inverse(self, X):
        return X.t()[:1]
E(lambda: P.register_parametrization(torch.nn.Linear(2, 2), 'weight', BadInv()))
def delete():
    del lin.weight
E(delete)
out = lin(torch.ones(1, 2)).sum()
E(lambda: torch.autograd.grad(out, lin.weight))
with P.cached():
    w = lin.weight
    out = lin(torch.ones(1, 2)).sum()
    print(torch.autograd.grad(out, w))
'''

# ---- more guards: hook nodes, layers with tuple outputs, versions, global hooks

PROGRAMS['backward_hook_function_nodes_inside_forward'] = PRE + r'''
class M(torch.nn.Module):
    def forward(self, x):
        print('inside', x.grad_fn, x.is_leaf, x._is_view(), x.requires_grad, x._version)
        print(' next', x.grad_fn.next_functions if x.grad_fn else None)
        return x * 2
m = M()
m.register_full_backward_hook(lambda mod, gi, go: None)
m.register_forward_pre_hook(lambda mod, inp: print('pre', inp[0].grad_fn))
m.register_forward_hook(lambda mod, inp, out: print('fwd', inp[0].grad_fn, out.grad_fn, out.grad_fn.next_functions))
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = m(x)
print(y.grad_fn, y.grad_fn.name(), y.grad_fn.next_functions)
print(y.grad_fn.metadata, type(y.grad_fn).__name__)
y.sum().backward()
print(x.grad)
class Two(torch.nn.Module):
    def forward(self, x, y):
        return x + y, x * y
t = Two()
t.register_full_backward_hook(lambda mod, gi, go: print('bh', gi, go))
a = torch.tensor([1.0], requires_grad=True)
o1, o2 = t(a, torch.tensor([2.0]))
print(o1.grad_fn is o2.grad_fn, o1.grad_fn.next_functions)
o2.sum().backward()
print(a.grad)
'''

PROGRAMS['backward_hook_graph_walk_sequential'] = PRE + r'''
torch.manual_seed(43)
net = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU(), torch.nn.Linear(2, 1))
for m in net:
    m.register_full_backward_hook(lambda mod, gi, go: None)
net.register_full_backward_pre_hook(lambda mod, go: None)
x = torch.randn(3, 2, requires_grad=True)
loss = net(x).mean()
def walk(fn, depth=0):
    print('  ' * depth + fn.name())
    for nf, i in fn.next_functions:
        if nf is not None:
            walk(nf, depth + 1)
walk(loss.grad_fn)
lin = torch.nn.Linear(2, 2)
lin.register_full_backward_hook(lambda mod, gi, go: print('module hook'))
y = lin(torch.randn(1, 2, requires_grad=True))
y.grad_fn.register_hook(lambda gi, go: print('node hook', len(gi), len(go)))
y.grad_fn.register_prehook(lambda go: print('node prehook', len(go)))
y.grad_fn.next_functions[0][0].register_hook(lambda gi, go: print('inner hook', len(gi), len(go)))
y.sum().backward()
'''

PROGRAMS['backward_hooks_tensor_hooks_order'] = PRE + r'''
torch.manual_seed(44)
lin = torch.nn.Linear(2, 2)
lin.register_full_backward_hook(lambda mod, gi, go: print('module hook', gi))
x = torch.randn(1, 2, requires_grad=True)
x.register_hook(lambda g: print('x hook', g) or g * 2)
y = lin(x)
y.register_hook(lambda g: print('y hook', g) or g + 1)
y.sum().backward()
print(x.grad)
y = lin(x)
y.sum().backward(retain_graph=True)
y.sum().backward(retain_graph=True)
print(torch.autograd.grad(y[0, 0], x))
E(lambda: torch.autograd.grad(y[0, 1], lin.weight))
'''

PROGRAMS['backward_hooks_on_attention_and_recurrent'] = PRE + r'''
torch.manual_seed(45)
shapes = lambda gs: [None if g is None else tuple(g.shape) for g in gs]
mha = torch.nn.MultiheadAttention(4, 2, batch_first=True)
mha.register_full_backward_hook(lambda m, gi, go: print('mha', shapes(gi), shapes(go)))
q = torch.randn(1, 3, 4, requires_grad=True)
out, w = mha(q, q, q)
print(out.grad_fn, w.grad_fn)
out.sum().backward()
out, w = mha(q, q, q, need_weights=False)
print(w)
out.sum().backward()
lstm = torch.nn.LSTM(2, 3, batch_first=True)
lstm.register_full_backward_hook(lambda m, gi, go: print('lstm', gi, go))
x = torch.randn(1, 2, 2, requires_grad=True)
out, (h, c) = lstm(x)
print(out.grad_fn)
out.sum().backward()
print(x.grad)
gru = torch.nn.GRU(2, 2)
gru.register_full_backward_pre_hook(lambda m, go: print('gru pre', shapes(go)))
x = torch.randn(3, 1, 2, requires_grad=True)
out, h = gru(x)
print(out.grad_fn, h.grad_fn)
(out.sum() + h.sum()).backward()
print(x.grad)
'''

PROGRAMS['backward_hooks_every_submodule_encoder_layer'] = PRE + r'''
torch.manual_seed(46)
layer = torch.nn.TransformerEncoderLayer(4, 2, dim_feedforward=8, dropout=0.0, batch_first=True)
acts = {}
for name, mod in layer.named_modules():
    if name:
        mod.register_forward_hook(lambda m, i, o, name=name: acts.__setitem__(name, type(o).__name__))
        mod.register_full_backward_hook(lambda m, gi, go, name=name: print('bh', name, len(gi), len(go)))
x = torch.randn(1, 3, 4, requires_grad=True)
y = layer(x)
print(sorted(acts.items()))
y.sum().backward()
print(x.grad)
bn = torch.nn.BatchNorm1d(3)
bn.register_full_backward_hook(lambda m, gi, go: print('bn', gi, go))
x = torch.randn(4, 3, requires_grad=True)
y = bn(x)
(y * torch.arange(3.0)).sum().backward()
print(bn.weight.grad, bn.bias.grad)
emb = torch.nn.Embedding(5, 2)
emb.register_full_backward_hook(lambda m, gi, go: print('emb', gi, go))
emb(torch.tensor([1, 3, 1])).sum().backward()
print(emb.weight.grad)
'''

PROGRAMS['forward_hook_edge_cases'] = PRE + r'''
from torch.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook
class Boom(torch.nn.Module):
    def forward(self, x):
        raise ValueError('boom')
hs = [register_module_forward_hook(lambda m, a, k, o: print('global', type(m).__name__, k, o), with_kwargs=True,
                                   always_call=True),
      register_module_forward_pre_hook(lambda m, a: print('gpre', a))]
try:
    E(lambda: Boom()(torch.ones(1)))
    print(torch.nn.ReLU()(torch.tensor([-1.0, 1.0], requires_grad=True)))
finally:
    for h in hs:
        h.remove()
m = torch.nn.Linear(2, 1)
m.register_forward_pre_hook(lambda mod, inp: inp[0] * 2)
x = torch.ones(1, 2, requires_grad=True)
print(m(x).grad_fn.next_functions)
m2 = torch.nn.Linear(2, 1)
m2.register_forward_pre_hook(lambda mod, inp: (inp[0] * 2, 'extra'))
E(lambda: m2(x))
m3 = torch.nn.Linear(2, 1)
m3.register_forward_pre_hook(lambda mod, args, kwargs: args, with_kwargs=True)
E(lambda: m3(x))
r = torch.nn.ReLU()
r.register_forward_hook(lambda mod, i, o: print('fwd always', o), always_call=True)
r.register_forward_hook(lambda mod, i, o: 1 / 0)
r.register_forward_hook(lambda mod, i, o: print('never'))
E(lambda: r(torch.ones(1)))
'''

PROGRAMS['backward_hook_with_forward_hooks_changing_io'] = PRE + r'''
class M(torch.nn.Module):
    def forward(self, x):
        return x * 2
m = M()
m.register_full_backward_hook(lambda mod, gi, go: print('bh', gi, go))
m.register_forward_hook(lambda mod, i, o: o + 1)
x = torch.tensor([1.0], requires_grad=True)
y = m(x)
print(y.grad_fn, y.grad_fn.next_functions)
y.backward()
print(x.grad)
m2 = M()
m2.register_full_backward_hook(lambda mod, gi, go: print('bh2', gi, go))
m2.register_forward_pre_hook(lambda mod, i: (i[0] * 5,))
y = m2(x)
print(y.grad_fn, y.grad_fn.next_functions)
y.backward()
print(x.grad)
torch.manual_seed(47)
net = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU())
net.register_full_backward_hook(lambda mod, gi, go: print('seq bh', gi, go))
net[0].register_full_backward_hook(lambda mod, gi, go: print('lin bh', gi, go))
net(torch.randn(1, 2, requires_grad=True)).sum().backward()
net(torch.randn(1, 2)).sum().backward()
'''

PROGRAMS['optimizer_in_backward_post_accumulate_hooks'] = PRE + r'''
torch.manual_seed(48)
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
opts = {p: torch.optim.Adam([p], lr=0.1) for p in model.parameters()}
def hook(p):
    opts[p].step()
    opts[p].zero_grad()
hs = [p.register_post_accumulate_grad_hook(hook) for p in model.parameters()]
x = torch.randn(5, 3)
for i in range(3):
    loss = model(x).pow(2).mean()
    loss.backward()
    print(i, loss.item(), model[2].weight.grad)
print(model[2].weight)
for h in hs:
    h.remove()
model(x).sum().backward()
print(model[2].bias.grad)
'''

PROGRAMS['grads_of_module_parameters_selected'] = PRE + r'''
torch.manual_seed(49)
model = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Linear(3, 1))
loss = model(torch.randn(4, 2)).sum()
loss.backward(inputs=list(model[1].parameters()))
print(model[0].weight.grad, model[1].weight.grad)
print(torch.autograd.grad(model(torch.ones(1, 2)).sum(), model.parameters()))
extra = torch.nn.Parameter(torch.ones(1))
E(lambda: torch.autograd.grad(model(torch.ones(1, 2)).sum(), [*model.parameters(), extra]))
print(torch.autograd.grad(model(torch.ones(1, 2)).sum(), [extra, model[1].bias], allow_unused=True,
                          materialize_grads=True))
x = torch.randn(4, 2, requires_grad=True)
out = model[0](x)
jac = [torch.autograd.grad(out[:, i].sum(), x, retain_graph=True)[0] for i in range(3)]
print(torch.stack(jac))
print(torch.autograd.functional.jacobian(model[0], x[0]))
'''

PROGRAMS['versions_of_buffers_params_and_grads'] = PRE + r'''
torch.manual_seed(50)
bn = torch.nn.BatchNorm1d(2)
x = torch.randn(4, 2)
bn(x); bn(x)
print(bn.running_mean._version, bn.running_var._version, bn.num_batches_tracked._version)
bn.eval(); bn(x)
print(bn.running_mean._version)
for opt_cls, kw in [(torch.optim.SGD, {'lr': 0.1, 'momentum': 0.9, 'foreach': False}),
                    (torch.optim.SGD, {'lr': 0.1, 'momentum': 0.9, 'foreach': True}),
                    (torch.optim.Adam, {'foreach': False}), (torch.optim.Adam, {'foreach': True})]:
    lin = torch.nn.Linear(2, 1)
    opt = opt_cls(lin.parameters(), **kw)
    for _ in range(2):
        opt.zero_grad()
        lin(torch.ones(1, 2)).sum().backward()
        opt.step()
    st = opt.state[lin.weight]
    print(opt_cls.__name__, lin.weight._version, lin.weight.grad._version,
          {k: (v._version if torch.is_tensor(v) else v) for k, v in st.items()})
lin = torch.nn.Linear(2, 2)
lin(torch.ones(1, 2)).sum().backward()
lin(torch.ones(1, 2)).sum().backward()
print(lin.weight.grad._version)
torch.nn.utils.clip_grad_norm_(lin.parameters(), 0.1)
torch.nn.utils.clip_grad_value_(lin.parameters(), 0.01)
print(lin.weight.grad._version, lin.bias.grad._version)
lin.zero_grad(set_to_none=False)
lin.double()
print(lin.weight._version, lin.weight.grad._version)
'''

PROGRAMS['params_modified_before_backward'] = PRE + r'''
torch.manual_seed(51)
lin = torch.nn.Linear(3, 1)
x = torch.randn(4, 3, requires_grad=True)
out = lin(x).pow(2).sum()
lin.load_state_dict({k: v * 0 for k, v in lin.state_dict().items()})
E(lambda: out.backward())
G = torch.nn.Linear(2, 2); D = torch.nn.Linear(2, 1)
optD = torch.optim.SGD(D.parameters(), lr=0.1)
fake = G(torch.randn(3, 2))
d_loss = D(fake).mean()
g_loss = -D(fake).mean()
d_loss.backward(retain_graph=True)
optD.step()
E(lambda: g_loss.backward())
print(D.weight._version, G.weight._version)
y = lin(torch.randn(1, 3)).sigmoid()
y.mul_(2)
E(lambda: y.sum().backward())
sd = lin.state_dict(keep_vars=True)
print(sd['weight'] is lin.weight)
sd2 = lin.state_dict()
print(sd2['weight'].requires_grad, type(sd2['weight']).__name__)
sd2['weight'].add_(1)
print(lin.weight._version, torch.equal(sd2['weight'], lin.weight))
'''

PROGRAMS['state_dict_metadata_versions'] = PRE + r'''
from torch.nn.utils.parametrizations import weight_norm
net = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.BatchNorm1d(2), torch.nn.LayerNorm(2))
print(net.state_dict()._metadata)
print(torch.nn.utils.spectral_norm(torch.nn.Linear(2, 2)).state_dict()._metadata)
print(weight_norm(torch.nn.Linear(2, 2)).state_dict()._metadata)
lin = torch.nn.Linear(2, 2)
lin.weight.requires_grad_(False)
lin = weight_norm(lin)
print([(n, p.requires_grad) for n, p in lin.named_parameters()], lin.weight.requires_grad)
lin2 = torch.nn.Linear(2, 2)
lin2.weight.requires_grad_(False)
lin2 = torch.nn.utils.weight_norm(lin2)
print([(n, p.requires_grad) for n, p in lin2.named_parameters()])
'''

PROGRAMS['multi_grad_hook_on_module_inputs'] = PRE + r'''
torch.manual_seed(52)
lin = torch.nn.Linear(2, 1)
x = torch.tensor([[1.0, 2.0]], requires_grad=True)
seen = []
h = torch.autograd.graph.register_multi_grad_hook(
    (x, lin.weight), lambda grads: seen.append([None if g is None else g.tolist() for g in grads]))
lin(x).sum().backward()
print(seen)
h.remove()
seen.clear()
h = torch.autograd.graph.register_multi_grad_hook((x, lin.weight), lambda g: seen.append(g.tolist()), mode='any')
lin(x).sum().backward()
print(seen)
with torch.autograd.graph.allow_mutation_on_saved_tensors():
    x2 = torch.ones(1, 2, requires_grad=True)
    y = (lin(x2) * x2).sum()
    with torch.no_grad():
        x2.mul_(3)
    y.backward()
    print(x2.grad, x2)
'''

# ---- module attributes, parameters made from tensors, functional calls

PROGRAMS['module_weight_set_to_none_then_called'] = PRE + r'''
# fixed: F.linear with a None (or non-tensor) weight or bias raises PyTorch's binding TypeError
import torch.nn.functional as F
m = torch.nn.Linear(2, 2)
E(lambda: m.train('yes'))
E(lambda: m.get_buffer('weight'))
E(lambda: m.get_parameter('foo'))
E(lambda: m.get_submodule('a.b'))
E(lambda: setattr(m, 'weight', torch.ones(2, 2)))
E(lambda: setattr(m, 'weight', torch.nn.Parameter(torch.ones(2, 2)) * 2))
m.weight = None
print(m.weight, [n for n, _ in m.named_parameters()])
E(lambda: m(torch.ones(1, 2)))
x = torch.ones(1, 2)
E(lambda: F.linear(x, torch.ones(2, 2), 3))
E(lambda: F.linear(x, [[1.0, 2.0]]))
E(lambda: F.linear([1.0], torch.ones(2, 2)))
E(lambda: F.linear(x, torch.ones(2, 2), torch.ones(2).numpy()))
print(F.linear(x, torch.ones(3, 2), None))
'''

PROGRAMS['parameter_from_nonleaf_and_containers'] = PRE + r'''
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
p = torch.nn.Parameter(y)
print(p, p.is_leaf, p.grad_fn, p.requires_grad)
(p * 2).sum().backward()
print(x.grad, p.grad)
q = torch.nn.Parameter(x)
print(q.is_leaf, q._base is None, torch.equal(q, x))
with torch.no_grad():
    q.add_(1)
print(x)
print(torch.nn.Parameter(torch.tensor([1, 2]), requires_grad=False))
E(lambda: torch.nn.Parameter(torch.tensor([1, 2])))
print(torch.nn.Parameter())
pl = torch.nn.ParameterList([torch.nn.Parameter(torch.ones(2)), torch.nn.Parameter(torch.zeros(3), requires_grad=False)])
pd = torch.nn.ParameterDict({'a': torch.nn.Parameter(torch.ones(1, 2)), 'b': torch.ones(2, dtype=torch.float64)})
print(pl)
print(pd)
pl.append(torch.ones(1))
print(type(pl[2]).__name__, pl[2].requires_grad)
(pl[0].sum() + pd['a'].sum() * 2 + pd['b'].sum()).backward()
print(pl[0].grad, pd['a'].grad, pd['b'].grad, type(pd['b']).__name__)
'''

PROGRAMS['tied_weights_and_no_grad_forward'] = PRE + r'''
torch.manual_seed(53)
a = torch.nn.Linear(2, 2); b = torch.nn.Linear(2, 2)
b.weight = a.weight
net = torch.nn.Sequential(a, b)
print([n for n, _ in net.named_parameters()], [n for n, _ in net.named_parameters(remove_duplicate=False)])
net(torch.ones(1, 2)).sum().backward()
print(a.weight.grad)
print(len(list(net.parameters())), sum(p.numel() for p in net.parameters()), list(net.state_dict()))
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(2, 1)
    @torch.no_grad()
    def forward(self, x):
        return self.lin(x)
m = M()
m.register_forward_hook(lambda mod, i, o: print('hook grad mode', torch.is_grad_enabled(), o.requires_grad))
y = m(torch.ones(1, 2, requires_grad=True))
print(y.requires_grad, y.grad_fn)
@torch.no_grad()
def init(mod):
    if isinstance(mod, torch.nn.Linear):
        mod.weight.fill_(0.5)
        mod.bias.zero_()
print(net.apply(init) is net, a.weight, a.weight._version, a.weight.requires_grad)
E(lambda: net.register_module('a.b', torch.nn.ReLU()))
E(lambda: net.add_module('', torch.nn.ReLU()))
E(lambda: net.add_module('x', 3))
'''

PROGRAMS['maml_style_functional_call_and_grad_penalty'] = PRE + r'''
from torch.nn.utils.stateless import functional_call
torch.manual_seed(54)
lin = torch.nn.Linear(2, 1)
x = torch.randn(4, 2); t = torch.randn(4, 1)
loss = torch.nn.functional.mse_loss(lin(x), t)
gw, gb = torch.autograd.grad(loss, (lin.weight, lin.bias), create_graph=True)
w2, b2 = lin.weight - 0.1 * gw, lin.bias - 0.1 * gb
out = torch.func.functional_call(lin, {'weight': w2, 'bias': b2}, (x,))
meta = torch.nn.functional.mse_loss(out, t)
meta.backward()
print(meta, lin.weight.grad, lin.bias.grad)
print(out.grad_fn, w2.grad_fn)
w = torch.ones(1, 2, requires_grad=True)
lin.zero_grad()
functional_call(lin, {'weight': w}, (torch.ones(3, 2),)).sum().backward()
print(w.grad, lin.weight.grad, lin.bias.grad, type(lin.weight).__name__)
E(lambda: functional_call(lin, {'weight': w, 'foo': w}, (torch.ones(3, 2),), strict=True))
opt = torch.optim.SGD(lin.parameters(), lr=0.5)
for step in range(2):
    opt.zero_grad()
    loss = lin(x).pow(2).mean()
    grads = torch.autograd.grad(loss, lin.parameters(), create_graph=True)
    gnorm = sum(g.pow(2).sum() for g in grads)
    (loss + 0.1 * gnorm).backward()
    opt.step()
    print(step, loss.item(), gnorm.item(), lin.weight.grad)
'''

PROGRAMS['delete_parameter_and_assign_tensor'] = PRE + r'''
torch.manual_seed(55)
lin = torch.nn.Linear(2, 1)
w = lin.weight
del lin.weight
lin.weight = w.detach() * 2
print([n for n, _ in lin.named_parameters()], type(lin.weight).__name__, lin.weight.requires_grad)
print(lin(torch.ones(1, 2)))
lin.weight = torch.nn.Parameter(w.detach())
print([n for n, _ in lin.named_parameters()])
E(lambda: delattr(lin, 'nothere'))
'''

PROGRAMS['init_bits_dtypes_and_conv_shapes'] = PRE + r'''
import torch.nn.init as init
torch.set_printoptions(precision=8)
for dt in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
    torch.manual_seed(56)
    print(dt, init.trunc_normal_(torch.empty(2, 5, dtype=dt), mean=0.5, std=2.0, a=-1.0, b=3.0))
    torch.manual_seed(56)
    print(init.kaiming_normal_(torch.empty(3, 2, 2, 2, dtype=dt), mode='fan_out').flatten()[:6])
    torch.manual_seed(56)
    print(init.xavier_uniform_(torch.empty(4, 2, 3, dtype=dt)).flatten()[:6])
for dt in (torch.float32, torch.float64):
    torch.manual_seed(57)
    print(init.orthogonal_(torch.empty(4, 6, dtype=dt)))
    torch.manual_seed(57)
    print(init.orthogonal_(torch.empty(6, 2, 2, dtype=dt)).flatten()[:6])
    torch.manual_seed(57)
    print(init.sparse_(torch.empty(6, 3, dtype=dt), 0.34))
'''

PROGRAMS['init_fans_and_layer_defaults'] = PRE + r'''
import torch.nn.init as init
torch.set_printoptions(precision=8)
torch.manual_seed(58)
for m in (torch.nn.Conv2d(2, 3, 3), torch.nn.ConvTranspose2d(2, 3, 2), torch.nn.Bilinear(2, 3, 2),
          torch.nn.Embedding(3, 2), torch.nn.PReLU(), torch.nn.GRUCell(2, 2)):
    for n, p in m.named_parameters():
        print(type(m).__name__, n, p.flatten()[:5])
w = torch.empty(2, 3, requires_grad=True)
init.kaiming_uniform_(w)
print(w.is_leaf, w.grad_fn, w._version)
y = (w * 2).sum()
y.backward()
print(w.grad)
init.zeros_(w)
print(w, w._version)
E(lambda: y.backward())
print(init._calculate_fan_in_and_fan_out(torch.empty(4, 3, 2, 2)))
E(lambda: init._calculate_fan_in_and_fan_out(torch.empty(4)))
print(init._calculate_correct_fan(torch.empty(4, 3, 2), 'fan_out'))
E(lambda: init._calculate_correct_fan(torch.empty(4, 3), 'fan'))
'''

PROGRAMS['checkpoint_kwargs_nested_and_saved_hooks'] = PRE + r'''
# fixed: torch.utils.checkpoint.DefaultDeviceType / get_device_states / set_device_states were missing
from torch.utils.checkpoint import checkpoint
import torch.utils.checkpoint as C
def f(x, scale=1.0):
    return x * scale
x = torch.tensor([0.5, 1.0], requires_grad=True)
E(lambda: checkpoint(f, x, scale=2.0, use_reentrant=True))
print(checkpoint(f, x, scale=2.0, use_reentrant=False))
def inner(t):
    return t.sin()
for reentrant in (False, True):
    x.grad = None
    y = checkpoint(lambda t: checkpoint(inner, t, use_reentrant=reentrant).exp(), x, use_reentrant=reentrant)
    y.sum().backward()
    print(reentrant, x.grad)
packed = []
def pack(t):
    packed.append(tuple(t.shape))
    return t
with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
    y = checkpoint(lambda t: (t * t).exp(), x, use_reentrant=False)
print(packed)
y.sum().backward()
print(x.grad)
with C.set_checkpoint_early_stop(False):
    y = checkpoint(lambda t: t.relu() * 2, x, use_reentrant=False)
y.sum().backward()
print(x.grad, type(C.noop_context_fn()).__name__)
print(C.DefaultDeviceType.get_device_type(), C.get_device_states(x))
'''

# ---- conversions, devices, shared memory, old backward hooks per layer

PROGRAMS['module_share_memory_marks_tensors'] = PRE + r'''
# fixed: Module.share_memory() moves every parameter, gradient and buffer into shared memory (is_shared() is True)
torch.manual_seed(59)
m = torch.nn.Sequential(torch.nn.Linear(2, 1), torch.nn.BatchNorm1d(1))
m(torch.randn(3, 2)).sum().backward()
w = m[0].weight
print(m.share_memory() is m, m[0].weight is w, m[0].weight.is_shared(), m[0].weight.grad.is_shared(),
      m[1].running_mean.is_shared())
print(m[0].weight._version, m[0].weight.grad, m[0].weight.is_leaf)
m(torch.randn(3, 2)).sum().backward()
print(m[0].weight.grad, m[0].bias.is_shared())
print(torch.ones(2).is_shared(), torch.ones(2).share_memory_().is_shared())
'''

PROGRAMS['module_conversions_cuda_type_bfloat16'] = PRE + r'''
torch.manual_seed(60)
m = torch.nn.Linear(2, 1)
E(lambda: m.cuda())
E(lambda: m.to('cuda'))
print(m.cpu() is m)
r = m.type(torch.float64)
print(r is m, m.weight.dtype)
E(lambda: m.type(torch.int32))
print(m.weight.dtype)
m.bfloat16()
print(m.weight.dtype, m(torch.ones(1, 2, dtype=torch.bfloat16)).dtype)
E(lambda: m(torch.ones(1, 2)))
n = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.BatchNorm1d(2))
n(torch.randn(3, 2)).sum().backward()
n.half()
print(n[1].running_mean.dtype, n[1].num_batches_tracked.dtype, n[0].weight.grad.dtype, n[1].weight.grad.dtype)
n.eval()
print(n(torch.ones(1, 2, dtype=torch.half)))
n.to(dtype=torch.float32)
print(n[0].weight.grad)
E(lambda: n.to(torch.float32, torch.float64))
E(lambda: n.to('cpu', torch.float64, True, True))
print(n.to('cpu', torch.float64, non_blocking=True)[0].weight.dtype)
'''

PROGRAMS['module_to_complex_with_grads'] = PRE + r'''
torch.manual_seed(61)
m = torch.nn.Linear(2, 1)
m.register_buffer('count', torch.tensor(3))
m(torch.ones(1, 2)).sum().backward()
m.to(torch.complex64)
print(m.weight.dtype, m.weight.grad.dtype, m.count.dtype)
out = m(torch.ones(1, 2, dtype=torch.complex64))
print(out, out.grad_fn)
out.abs().sum().backward()
print(m.weight.grad)
'''

PROGRAMS['old_backward_hooks_per_layer_shapes'] = PRE + r'''
torch.manual_seed(62)
def old(mod, gin, gout):
    print(type(mod).__name__, [None if g is None else tuple(g.shape) for g in gin],
          [None if g is None else tuple(g.shape) for g in gout])
mods = [torch.nn.Linear(3, 2), torch.nn.Linear(3, 2, bias=False), torch.nn.Conv2d(1, 2, 2), torch.nn.ReLU(),
        torch.nn.Sigmoid(), torch.nn.BatchNorm1d(3), torch.nn.LayerNorm(3), torch.nn.Embedding(4, 3), torch.nn.Tanh(),
        torch.nn.Softmax(-1)]
for m in mods:
    m.register_backward_hook(old)
x = torch.randn(2, 3, requires_grad=True)
for m in mods:
    if isinstance(m, torch.nn.Conv2d):
        inp = torch.randn(1, 1, 3, 3, requires_grad=True)
    elif isinstance(m, torch.nn.Embedding):
        inp = torch.tensor([1, 2])
    else:
        inp = x
    out = m(inp)
    print(out.grad_fn.name())
    out.sum().backward()
'''

PROGRAMS['old_backward_hook_values_and_replacement'] = PRE + r'''
torch.manual_seed(63)
lin = torch.nn.Linear(3, 2)
lin.register_backward_hook(lambda m, gi, go: print('gi', gi, 'go', go))
x = torch.randn(2, 3, requires_grad=True)
lin(x).sum().backward()
lin2 = torch.nn.Linear(3, 2)
lin2.register_backward_hook(lambda m, gi, go: (gi[0], gi[1] * 0, gi[2]))
x.grad = None
lin2(x).sum().backward()
print(x.grad, lin2.weight.grad)
loss = torch.nn.MSELoss()
loss.register_backward_hook(lambda m, gi, go: print('mse', gi, go))
loss(x, torch.zeros(2, 3)).backward()
net = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU())
net.register_backward_hook(lambda m, gi, go: print('seq', gi, go))
net(torch.randn(1, 2, requires_grad=True)).sum().backward()
'''

PROGRAMS['backward_hooks_non_float_and_detached_outputs'] = PRE + r'''
class ArgMax(torch.nn.Module):
    def forward(self, x):
        return x.argmax(-1)
m = ArgMax()
m.register_full_backward_hook(lambda mod, gi, go: print('bh'))
x = torch.tensor([[1.0, 3.0, 2.0]], requires_grad=True)
y = m(x)
print(y, y.requires_grad, y.grad_fn)
class Mixed(torch.nn.Module):
    def forward(self, x):
        return x * 2, x.argmax(-1), x.detach()
m2 = Mixed()
m2.register_full_backward_hook(lambda mod, gi, go: print('bh2', gi, go))
a, i, d = m2(x)
print(a.grad_fn, i, i.grad_fn, d.grad_fn)
(a + d).sum().backward()
print(x.grad)
class Detach(torch.nn.Module):
    def forward(self, x):
        with torch.no_grad():
            return x * 2
m3 = Detach()
m3.register_full_backward_hook(lambda mod, gi, go: print('bh3'))
y = m3(x)
print(y.requires_grad, y.grad_fn)
class InPlace(torch.nn.Module):
    def forward(self, x):
        x.mul_(2)
        return x
m4 = InPlace()
m4.register_full_backward_hook(lambda mod, gi, go: print('bh4', gi, go))
h = x + 0
E(lambda: m4(h))
print(h)
lin = torch.nn.Linear(2, 2)
net = torch.nn.Sequential(lin, torch.nn.ReLU(inplace=True))
lin.register_full_backward_hook(lambda m, gi, go: None)
E(lambda: net(torch.ones(1, 2)))
'''

PROGRAMS['checkpoint_identity_inplace_and_detached_outputs'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
for r in (True, False):
    y = checkpoint(lambda t: t, x, use_reentrant=r)
    print(r, y is x, y.grad_fn, y.requires_grad)
    (y * 2).sum().backward()
    print(x.grad)
    x.grad = None
def f(t):
    u = t * 1
    u.mul_(3)
    return u.exp()
for r in (True, False):
    checkpoint(f, x, use_reentrant=r).sum().backward()
    print(r, x.grad)
    x.grad = None
def g(a, b):
    return (a * b).sum(), a.detach() * 2
for r in (True, False):
    s, d = checkpoint(g, x, w, use_reentrant=r)
    print(r, s.grad_fn.name(), d.requires_grad, d.grad_fn)
    s.backward()
    print(x.grad, w.grad)
    x.grad = w.grad = None
y = checkpoint(lambda t: t * 2, x, use_reentrant=True)
E(lambda: y.backward())
y = checkpoint(lambda t: (t * 2).sum(), x, use_reentrant=True)
y.backward(retain_graph=True)
E(lambda: torch.autograd.backward(y, inputs=[x]))
y2 = checkpoint(lambda t: (t * 2).sum(), x, use_reentrant=False)
y2.backward(inputs=[x])
print(x.grad)
'''

PROGRAMS['parametrize_shared_and_spectral_versions'] = PRE + r'''
import torch.nn.utils.parametrize as P
from torch.nn.utils.parametrizations import spectral_norm
class Neg(torch.nn.Module):
    def forward(self, X):
        return -X
torch.manual_seed(64)
a = torch.nn.Linear(2, 2); b = torch.nn.Linear(2, 2)
b.weight = a.weight
P.register_parametrization(a, 'weight', Neg())
print(b.weight is a.parametrizations.weight.original, type(b.weight).__name__)
p = Neg()
lin = torch.nn.Linear(2, 2)
P.register_parametrization(lin, 'weight', p)
P.register_parametrization(lin, 'bias', p)
print(lin)
lin(torch.ones(1, 2)).sum().backward()
print(lin.parametrizations.weight.original.grad, lin.parametrizations.bias.original.grad)
with torch.no_grad():
    print(lin.weight.grad_fn, lin.weight.requires_grad)
with P.cached():
    y1 = lin(torch.ones(1, 2)).sum()
    y2 = lin(torch.ones(1, 2) * 2).sum()
    y1.backward()
    E(lambda: y2.backward())
sn = spectral_norm(torch.nn.Linear(3, 3))
u = sn.parametrizations.weight[0]._u
print(u._version)
sn(torch.ones(1, 3)); sn(torch.ones(1, 3))
print(u._version)
sn.eval(); sn(torch.ones(1, 3))
print(u._version)
sn.train()
with torch.no_grad():
    sn(torch.ones(1, 3))
print(u._version)
opt = torch.optim.SGD(sn.parameters(), lr=0.1)
for _ in range(2):
    opt.zero_grad()
    sn(torch.ones(2, 3)).pow(2).sum().backward()
    opt.step()
print(sn.weight)
'''

PROGRAMS['orthogonal_conv_and_errors'] = PRE + r'''
from torch.nn.utils.parametrizations import orthogonal
torch.manual_seed(65)
conv = orthogonal(torch.nn.Conv2d(2, 3, 2))
w = conv.weight
print(w.shape, w.grad_fn.name())
W = w.flatten(1)
print(torch.allclose(W @ W.T, torch.eye(3), atol=1e-5))
conv(torch.randn(1, 2, 3, 3)).sum().backward()
print(conv.parametrizations.weight.original.grad.shape)
E(lambda: orthogonal(torch.nn.Linear(2, 2), name='bias'))
E(lambda: orthogonal(torch.nn.Linear(2, 2), orthogonal_map='foo'))
'''

PROGRAMS['clip_grad_reduced_precision_and_tensor_max_norm'] = PRE + r'''
from torch.nn.utils import get_total_norm, clip_grads_with_norm_, clip_grad_norm_
torch.manual_seed(66)
torch.set_printoptions(precision=6)
for dt in (torch.float16, torch.bfloat16, torch.float64):
    ps = [torch.nn.Parameter(torch.randn(5, dtype=dt)) for _ in range(3)]
    for p in ps:
        p.grad = torch.randn(5, dtype=dt) * 4
    n = clip_grad_norm_(ps, 1.5)
    print(dt, n, n.dtype, ps[0].grad)
    n = clip_grad_norm_(ps, 0.5, foreach=False, norm_type=1)
    print(n, ps[1].grad)
ps = [torch.nn.Parameter(torch.randn(3)) for _ in range(2)]
for p in ps:
    p.grad = torch.randn(3)
tn = get_total_norm([p.grad for p in ps])
clip_grads_with_norm_(ps, torch.tensor(0.5), tn, foreach=True)
print(ps[0].grad)
clip_grads_with_norm_(ps, 0.1, torch.tensor(10.0), foreach=False)
print(ps[0].grad)
E(lambda: get_total_norm([torch.ones(2), torch.ones(2, dtype=torch.float64)]))
print(get_total_norm([torch.ones(2), torch.ones(2, dtype=torch.float64)], foreach=False))
print(get_total_norm([torch.tensor([float('nan')])], error_if_nonfinite=False))
E(lambda: get_total_norm([torch.tensor([float('nan')])], error_if_nonfinite=True))
lin = torch.nn.Linear(3, 2)
lin(torch.randn(4, 3)).sum().backward()
print(torch.nn.utils.clip_grad_norm(lin.parameters(), 0.2))
print(torch.nn.utils.clip_grad_norm_(lin.parameters(), max_norm=torch.tensor(0.1)), lin.bias.grad)
'''

PROGRAMS['prune_meets_autograd_and_state_dict'] = PRE + r'''
import copy
import torch.nn.utils.prune as prune
torch.manual_seed(67)
lin = torch.nn.Linear(3, 2)
prune.l1_unstructured(lin, 'weight', amount=0.5)
print(lin.weight.grad_fn, list(lin._forward_pre_hooks.values()))   # (the keys: hook ids, process-wide counters)
lin(torch.ones(1, 3)).sum().backward()
print(lin.weight_orig.grad, lin.weight_mask)
E(lambda: copy.deepcopy(lin))
sd = lin.state_dict()
print(list(sd))
lin2 = torch.nn.Linear(3, 2)
E(lambda: lin2.load_state_dict(sd))
prune.identity(lin2, 'weight')
print(lin2.load_state_dict(sd))
print(lin2.weight)
print(prune.is_pruned(lin2), prune.is_pruned(torch.nn.Linear(1, 1)))
prune.remove(lin2, 'weight')
print(type(lin2.weight).__name__, list(lin2.state_dict()))
lin3 = torch.nn.Linear(4, 3)
prune.random_unstructured(lin3, 'weight', amount=2)
prune.ln_structured(lin3, 'weight', amount=1, n=2, dim=0)
print(lin3.weight_mask)
hook = list(lin3._forward_pre_hooks.values())[0]
print(type(hook).__name__, [type(m).__name__ for m in hook])
lin3(torch.ones(1, 4)).sum().backward()
print(lin3.weight_orig.grad)
torch.optim.SGD(lin3.parameters(), lr=1.0).step()
print(lin3.weight)
lin3(torch.ones(1, 4))
print(lin3.weight)
'''

# ---- hooks on modules whose inputs do not require grad, checkpoints of old formats, copies

PROGRAMS['backward_hooks_inputs_without_grad'] = PRE + r'''
torch.manual_seed(68)
lin = torch.nn.Linear(2, 2)
lin.register_full_backward_pre_hook(lambda m, go: print('pre', go))
x = torch.randn(1, 2)
y = lin(x)
print(y.grad_fn)
y.sum().backward()
lin.register_full_backward_hook(lambda m, gi, go: print('post', gi))
lin(x).sum().backward()
relu = torch.nn.ReLU()
relu.register_full_backward_hook(lambda m, gi, go: print('relu post', gi))
relu(lin(x)).sum().backward()
class Scale(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.s = torch.nn.Parameter(torch.tensor(2.0))
    def forward(self, x):
        return x * self.s
m = Scale()
m.register_full_backward_hook(lambda mod, gi, go: print('bh', gi, go))
y = m(torch.ones(2))
print(y.grad_fn, y.grad_fn.next_functions)
y.sum().backward()
print(m.s.grad)
calls = []
lin.register_full_backward_hook(lambda m, gi, go: calls.append('bh'))
x = torch.randn(1, 2, requires_grad=True)
(lin(x).sum() + lin(x.detach()).sum()).backward()
print(calls, x.grad)
'''

PROGRAMS['load_old_weight_norm_checkpoint_into_parametrization'] = PRE + r'''
import torch.nn.utils.parametrize as P
from torch.nn.utils.parametrizations import weight_norm, spectral_norm
torch.manual_seed(69)
old = torch.nn.utils.weight_norm(torch.nn.Linear(3, 2))
sd = old.state_dict()
print(list(sd))
new = weight_norm(torch.nn.Linear(3, 2))
print(new.load_state_dict(sd))
print(torch.equal(new.weight, old.weight), list(new.state_dict()))
class Neg(torch.nn.Module):
    def forward(self, X):
        return -X
lin = torch.nn.Linear(2, 2)
P.register_parametrization(lin, 'weight', Neg())
orig = lin.parametrizations.weight.original
print(lin.load_state_dict({k: torch.ones_like(v) for k, v in lin.state_dict().items()}, assign=True))
print(lin.parametrizations.weight.original is orig, type(lin.parametrizations.weight.original).__name__, lin.weight)
a = spectral_norm(torch.nn.Linear(3, 3))
b = spectral_norm(torch.nn.Linear(3, 3))
a(torch.ones(1, 3))
print(b.load_state_dict(a.state_dict()))
b.eval(); a.eval()
print(torch.allclose(a.weight, b.weight))
E(lambda: b.load_state_dict(torch.nn.utils.spectral_norm(torch.nn.Linear(3, 3)).state_dict()))
'''

PROGRAMS['shallow_copy_pickle_modules_with_grads'] = PRE + r'''
import copy, pickle, io
torch.manual_seed(70)
lin = torch.nn.Linear(2, 1)
lin(torch.ones(1, 2)).sum().backward()
c = copy.copy(lin)
print(c.weight is lin.weight, c._parameters is lin._parameters, c.weight.grad is lin.weight.grad)
p = copy.copy(lin.weight)
print(type(p).__name__, p is lin.weight, p.grad)
lin.register_forward_hook(lambda m, i, o: None)
E(lambda: pickle.dumps(lin))
lin3 = torch.nn.Linear(2, 1)
lin3(torch.ones(1, 2)).sum().backward()
buf = io.BytesIO()
torch.save(lin3, buf)
buf.seek(0)
r = torch.load(buf, weights_only=False)
print(r.weight.grad, r.weight.requires_grad, type(r.weight).__name__)
c2 = copy.deepcopy(lin3)
print(c2.weight.grad, torch.equal(c2.weight, lin3.weight))
'''

# ---- optimizers made before a module's conversion

PROGRAMS['adam_state_after_module_double'] = PRE + r'''
# fixed: Adam-family steps after model.double() fail as PyTorch's lerp_ of float32 state towards float64 grads
torch.manual_seed(71)
net = torch.nn.Linear(2, 2)
opt = torch.optim.Adam(net.parameters(), lr=0.1)
net(torch.randn(3, 2)).sum().backward()
opt.step()
net.double()
print(net.weight.dtype, net.weight.grad.dtype, opt.state[net.weight]['exp_avg'].dtype)
E(lambda: opt.step())
print(net.weight, opt.state[net.weight]['step'])
for k in ('exp_avg', 'exp_avg_sq'):
    opt.state[net.weight][k] = opt.state[net.weight][k].double()
    opt.state[net.bias][k] = opt.state[net.bias][k].double()
opt.step()
print(net.weight)
'''

PROGRAMS['optimizers_step_after_module_double'] = PRE + r'''
# fixed: which optimizers refuse float32 state with float64 gradients (the lerp_ ones) and which cast on (the rest)
for cls, kw in [(torch.optim.Adam, {'foreach': False}), (torch.optim.AdamW, {}), (torch.optim.NAdam, {}),
                (torch.optim.RAdam, {}), (torch.optim.Adamax, {}), (torch.optim.RMSprop, {'centered': True}),
                (torch.optim.RMSprop, {}), (torch.optim.Adagrad, {}), (torch.optim.SGD, {'lr': 0.1, 'momentum': 0.9}),
                (torch.optim.Adadelta, {}), (torch.optim.Rprop, {})]:
    torch.manual_seed(72)
    net = torch.nn.Linear(2, 2)
    opt = cls(net.parameters(), **kw)
    net(torch.randn(3, 2)).sum().backward()
    opt.step()
    net.double()
    E(lambda: opt.step())
    st = opt.state[net.weight]
    print(cls.__name__, kw, net.weight.dtype, {k: v.dtype for k, v in st.items() if torch.is_tensor(v)})
    print(net.weight)
'''

# ---- meta-device modules, inference mode, init through parametrizations, mixed-dtype vectors

PROGRAMS['meta_device_modules_and_hooks'] = PRE + r'''
with torch.device('meta'):
    lin = torch.nn.Linear(2, 3)
print(lin.weight, lin.weight.requires_grad, lin.weight.is_leaf)
y = lin(torch.ones(1, 2, device='meta'))
print(y, y.grad_fn)
lin.to_empty(device='cpu')
torch.manual_seed(73)
lin.reset_parameters()
print(lin.weight)
lin(torch.ones(1, 2)).sum().backward()
print(lin.weight.grad)
m = torch.nn.Linear(2, 2, device='meta')
m.register_full_backward_hook(lambda mod, gi, go: print('bh', [g.device if g is not None else None for g in gi]))
x = torch.ones(1, 2, device='meta', requires_grad=True)
y = m(x)
print(y.grad_fn)
y.sum().backward()
print(x.grad.device, x.grad.shape, m.weight.grad.device)
'''

PROGRAMS['inference_mode_with_parametrized_and_batchnorm'] = PRE + r'''
import torch.nn.utils.parametrize as P
class Neg(torch.nn.Module):
    def forward(self, X):
        return -X
torch.manual_seed(74)
lin = torch.nn.Linear(2, 2)
P.register_parametrization(lin, 'weight', Neg())
with torch.inference_mode():
    y = lin(torch.ones(1, 2))
    w = lin.weight
print(y.is_inference(), w.is_inference(), w.requires_grad)
E(lambda: (w * torch.ones(2, 2, requires_grad=True)).sum().backward())
E(lambda: lin(torch.inference_mode()(lambda: torch.ones(1, 2))()).sum().backward())
print(lin.parametrizations.weight.original.grad)
bn = torch.nn.BatchNorm1d(2)
with torch.inference_mode():
    bn(torch.randn(4, 2))
print(bn.running_mean.is_inference(), bn.num_batches_tracked)
E(lambda: bn(torch.randn(4, 2)))
lin2 = torch.nn.Linear(2, 2)
with torch.inference_mode():
    E(lambda: lin2.weight.mul_(2))
    with torch.no_grad():
        lin2.weight.mul_(2)
print(lin2.weight.is_inference(), lin2.weight._version)
'''

PROGRAMS['init_through_parametrized_weights'] = PRE + r'''
from torch.nn.utils.parametrizations import weight_norm
torch.manual_seed(75)
net = torch.nn.Sequential(weight_norm(torch.nn.Linear(2, 2)), torch.nn.Linear(2, 2))
def init_fn(m):
    if isinstance(m, torch.nn.Linear):
        E(lambda: torch.nn.init.zeros_(m.weight))
net.apply(init_fn)
print(net[0].weight, net[1].weight)
print([type(m).__name__ for m in net.modules()])
print(isinstance(net[0], torch.nn.Linear), type(net[0]).__bases__)
lin = torch.nn.utils.weight_norm(torch.nn.Linear(2, 2))
E(lambda: torch.nn.init.zeros_(lin.weight))
print(lin.weight)
lin(torch.ones(1, 2))
print(lin.weight.grad_fn)
'''

PROGRAMS['vector_to_parameters_mixed_dtypes'] = PRE + r'''
from torch.nn.utils import parameters_to_vector, vector_to_parameters
a = torch.nn.Parameter(torch.ones(2)); b = torch.nn.Parameter(torch.ones(3, dtype=torch.float64))
v = parameters_to_vector([a, b])
print(v.dtype, v)
vector_to_parameters(torch.arange(5.0, dtype=torch.float64), [a, b])
print(a, a.dtype, b.dtype)
(a.sum() + b.sum()).backward()
print(a.grad, b.grad)
E(lambda: vector_to_parameters(torch.arange(4.0), [a, b]))
print(a, b)
vector_to_parameters(torch.arange(7.0), [a, b])
print(a, b)
h = torch.nn.Parameter(torch.ones(2, dtype=torch.half))
E(lambda: vector_to_parameters(torch.arange(2, dtype=torch.int64), [h]))
print(h, h.dtype, h.requires_grad)
'''

# ---- odd replacements from backward hooks, requires_grad_ arguments

PROGRAMS['backward_hook_odd_replacements'] = PRE + r'''
torch.manual_seed(76)
lin = torch.nn.Linear(2, 2)
lin.register_full_backward_hook(lambda m, gi, go: (None,))
x = torch.ones(1, 2, requires_grad=True)
lin(x).sum().backward()
print(x.grad, lin.weight.grad is not None)
lin2 = torch.nn.Linear(2, 2)
lin2.register_full_backward_hook(lambda m, gi, go: (gi[0].double(),))
x.grad = None
E(lambda: lin2(x).sum().backward())
print(x.grad)
lin3 = torch.nn.Linear(2, 2)
lin3.register_full_backward_pre_hook(lambda m, go: (None,))
lin3(x).sum().backward()
print(x.grad, lin3.weight.grad)
lin4 = torch.nn.Linear(2, 2)
lin4.register_full_backward_hook(lambda m, gi, go: [gi[0] * 2])
x.grad = None
E(lambda: lin4(x).sum().backward())
print(x.grad)
lin5 = torch.nn.Linear(2, 2)
lin5.register_full_backward_pre_hook(lambda m, go: go[0] * 2)
x.grad = None
E(lambda: lin5(x).sum().backward())
print(x.grad)
'''

PROGRAMS['module_requires_grad_arguments'] = PRE + r'''
m = torch.nn.BatchNorm1d(2)
m.requires_grad_(requires_grad=False)
print([p.requires_grad for p in m.parameters()], m.running_mean.requires_grad)
E(lambda: m.requires_grad_('yes'))
E(lambda: m.requires_grad_(1))
E(lambda: m.weight.requires_grad_(1))
E(lambda: setattr(m.weight, 'requires_grad', 1))
E(lambda: m.running_mean.requires_grad_(True))
print(m.running_mean.requires_grad, 'running_mean' in dict(m.named_buffers()))
m.train(False)
print(m.training)
E(lambda: m.eval(True))
'''

PROGRAMS['weight_norm_on_recurrent_and_embedding'] = PRE + r'''
from torch.nn.utils.parametrizations import weight_norm, spectral_norm
torch.manual_seed(77)
rnn = weight_norm(torch.nn.RNN(2, 3), name='weight_hh_l0')
print(rnn)
out, h = rnn(torch.randn(4, 1, 2))
print(out.grad_fn, h)
out.sum().backward()
print(rnn.parametrizations.weight_hh_l0.original0.grad, rnn.weight_ih_l0.grad.shape)
print([n for n, _ in rnn.named_parameters()])
lstm = torch.nn.utils.weight_norm(torch.nn.LSTM(2, 2), name='weight_ih_l0')
out, (h, c) = lstm(torch.randn(3, 1, 2))
print(out)
out.sum().backward()
print(lstm.weight_ih_l0_g.grad, lstm.weight_ih_l0_v.grad)
gru = spectral_norm(torch.nn.GRU(2, 2), name='weight_hh_l0')
out, h = gru(torch.randn(3, 1, 2))
out.sum().backward()
print(out, gru.parametrizations.weight_hh_l0.original.grad)
emb = weight_norm(torch.nn.Embedding(4, 3))
y = emb(torch.tensor([0, 2, 2]))
y.sum().backward()
print(y, emb.parametrizations.weight.original0.grad, emb.parametrizations.weight.original1.grad)
'''

PROGRAMS['checkpoint_batchnorm_recompute_and_early_stop'] = PRE + r'''
from torch.utils.checkpoint import checkpoint
import torch.utils.checkpoint as C
torch.manual_seed(78)
torch.set_printoptions(precision=6)
for r in (True, False):
    bn = torch.nn.BatchNorm1d(2)
    lin = torch.nn.Linear(2, 2)
    x = torch.randn(4, 2, requires_grad=True)
    y = checkpoint(lambda t: bn(lin(t)).relu(), x, use_reentrant=r)
    print(r, bn.num_batches_tracked, bn.running_mean)
    y.sum().backward()
    print(r, bn.num_batches_tracked, bn.running_mean, bn.running_var)
    print(x.grad)
calls = []
def f(x):
    calls.append('a')
    y = x.sin()
    calls.append('b')
    z = y.exp()
    calls.append('c')
    w = z * 2
    calls.append('d')
    return w
x = torch.randn(3, requires_grad=True)
for early in (None, False):
    if early is None:
        y = checkpoint(f, x, use_reentrant=False)
    else:
        with C.set_checkpoint_early_stop(early):
            y = checkpoint(f, x, use_reentrant=False)
    calls.clear()
    y.sum().backward()
    print(early, calls)
y = checkpoint(f, x, use_reentrant=True)
calls.clear()
y.sum().backward()
print(calls)
'''

# ---- the old global backward hook next to full ones (the global flag reset at the end)

PROGRAMS['global_old_and_full_backward_hooks_mixed'] = PRE + r'''
from torch.nn.modules.module import register_module_backward_hook, register_module_full_backward_hook
import torch.nn.modules.module as M
torch.manual_seed(0)
h = register_module_backward_hook(lambda m, gi, go: print('global old', type(m).__name__, len(gi)))
try:
    E(lambda: register_module_full_backward_hook(lambda m, gi, go: None))
    lin = torch.nn.Linear(2, 1)
    x = torch.ones(1, 2, requires_grad=True)
    lin(x).sum().backward()
    lin2 = torch.nn.Linear(2, 1)
    lin2.register_full_backward_hook(lambda m, gi, go: print('local full'))
    E(lambda: lin2(x).sum().backward())
finally:
    h.remove()
    print(len(M._global_backward_hooks), M._global_is_full_backward_hook)
    E(lambda: register_module_full_backward_hook(lambda m, gi, go: None))
    M._global_is_full_backward_hook = None
h2 = register_module_full_backward_hook(lambda m, gi, go: print('global full', type(m).__name__))
try:
    lin3 = torch.nn.Linear(2, 1)
    lin3.register_backward_hook(lambda m, gi, go: print('local old'))
    E(lambda: lin3(x).sum().backward())
    lin(x).sum().backward()
finally:
    h2.remove()
    M._global_is_full_backward_hook = None
'''

# ---- what nn.Linear records for inputs of each rank

PROGRAMS['linear_layer_graph_and_saved_fields'] = PRE + r'''
torch.manual_seed(79)
lin = torch.nn.Linear(3, 2)
for shape in ((4, 3), (2, 2, 3), (3,), (1, 2, 2, 3)):
    x = torch.randn(*shape, requires_grad=True)
    y = lin(x)
    fn = y.grad_fn
    chain = []
    while fn is not None:
        chain.append(fn.name())
        nxt = [f for f, _ in fn.next_functions if f is not None and f.name() != 'torch::autograd::AccumulateGrad']
        fn = nxt[0] if nxt else None
    print(shape, chain)
    g = y.grad_fn
    print(sorted(n for n in dir(g) if n.startswith('_saved')))
    for n in sorted(n for n in dir(g) if n.startswith('_saved')):
        v = getattr(g, n)
        print(' ', n, v.shape if torch.is_tensor(v) else v)

torch.manual_seed(80)
lin = torch.nn.Linear(3, 2)
y = lin(torch.randn(2, 3, requires_grad=True))
g = y.grad_fn
print(g._saved_mat2.equal(lin.weight.t()), g._saved_mat2._base is lin.weight, g._saved_mat2.is_leaf)
print(g._saved_mat1.requires_grad, g._saved_alpha, g._saved_beta)
lin2 = torch.nn.Linear(3, 2, bias=False)
y2 = lin2(torch.randn(2, 3, requires_grad=True))
print(y2.grad_fn, [n for n in dir(y2.grad_fn) if n.startswith('_saved')])
print(y2.grad_fn.next_functions)
'''

# ---- student tools built on hooks: Grad-CAM, per-layer gradient norms

PROGRAMS['grad_cam_with_module_hooks'] = PRE + r'''
torch.manual_seed(81)
net = torch.nn.Sequential(torch.nn.Conv2d(1, 3, 3, padding=1), torch.nn.ReLU(), torch.nn.Conv2d(3, 4, 3), torch.nn.ReLU(),
                          torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(4, 2))
store = {}
target = net[2]
target.register_forward_hook(lambda m, i, o: store.__setitem__('act', o.detach()))
target.register_full_backward_hook(lambda m, gi, go: store.__setitem__('grad', go[0].detach()))
x = torch.randn(1, 1, 6, 6, requires_grad=True)
logits = net(x)
print(logits)
logits[0, logits.argmax()].backward()
w = store['grad'].mean(dim=(2, 3), keepdim=True)
cam = torch.relu((w * store['act']).sum(1))
print(store['act'].shape, store['grad'].shape)
print(cam)
print(cam / cam.max())
print(x.grad.abs().amax())
saliency = x.grad.abs().squeeze()
print(saliency.argmax(), saliency.flatten().topk(3))
'''

PROGRAMS['per_layer_gradient_norms_full_precision'] = PRE + r'''
torch.manual_seed(82)
torch.set_printoptions(precision=8)
net = torch.nn.Sequential(torch.nn.Linear(5, 8), torch.nn.GELU(), torch.nn.LayerNorm(8), torch.nn.Linear(8, 3))
acts, grads = {}, {}
for name, m in net.named_children():
    m.register_forward_hook(lambda mod, i, o, name=name: acts.__setitem__(name, o))
    m.register_full_backward_hook(lambda mod, gi, go, name=name: grads.__setitem__(name, (gi[0], go[0])))
x = torch.randn(4, 5, requires_grad=True)
loss = torch.nn.functional.cross_entropy(net(x), torch.tensor([0, 2, 1, 0]))
loss.backward()
print(loss)
for k in sorted(grads):
    gi, go = grads[k]
    print(k, acts[k].grad_fn.name(), go.norm(), None if gi is None else gi.norm())
print(x.grad)
print(net[2].weight.grad, net[0].bias.grad)
'''

# ---- norm parametrizations' options and the old hooks' attributes

PROGRAMS['norm_parametrization_options'] = PRE + r'''
from torch.nn.utils.parametrizations import weight_norm, spectral_norm
torch.manual_seed(0)
torch.set_printoptions(precision=7)
ct = spectral_norm(torch.nn.ConvTranspose2d(2, 3, 2))
print(ct.parametrizations.weight[0].dim, ct.parametrizations.weight[0]._u.shape, ct.parametrizations.weight[0]._v.shape)
print(ct.weight.flatten()[:6])
l = weight_norm(torch.nn.Linear(3, 4), dim=-1)
print(l.parametrizations.weight.original0.shape, l.parametrizations.weight.original0)
l(torch.ones(2, 3)).sum().backward()
print(l.parametrizations.weight.original0.grad, l.parametrizations.weight.original1.grad)
E(lambda: spectral_norm(torch.nn.Linear(3, 3), n_power_iterations=0))
E(lambda: spectral_norm(torch.nn.Linear(3, 3), eps=-1))
'''

PROGRAMS['old_norm_hooks_attributes'] = PRE + r'''
torch.manual_seed(1)
lin = torch.nn.utils.spectral_norm(torch.nn.Linear(3, 3))
print(list(lin._forward_pre_hooks.values()), list(lin._state_dict_hooks.values()))   # (keys: process-wide hook ids)
print(type(list(lin._forward_pre_hooks.values())[0]).__name__)
h = list(lin._forward_pre_hooks.values())[0]
print(h.name, h.dim, h.n_power_iterations, h.eps)
lin.eval()
y = lin(torch.ones(1, 3))
print(y)
lin2 = torch.nn.utils.weight_norm(torch.nn.Linear(3, 3), dim=None)
print(lin2.weight_g, list(lin2._forward_pre_hooks.values())[0].dim)
'''


@pytest.fixture(autouse=True, scope="module")
def _backward_with_gradient_warmed_up():
    """PyTorch's first ``backward(gradient)`` imports its symbolic-shapes module (sympy), its first optimizer
    torch._dynamo (seconds): done here, so that no program's time depends on whether it is the first to do so."""
    torch = pytest.importorskip("torch")
    (torch.ones(2, requires_grad=True) * 2).backward(torch.ones(2))
    torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
    # (and its first non-reentrant checkpoint imports more of torch: two seconds)
    import torch.utils.checkpoint
    x = torch.ones(1, requires_grad=True)
    torch.utils.checkpoint.checkpoint(torch.sin, x, use_reentrant=False).backward()


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    # (catch_warnings restores the filters and showwarning the prelude replaces; fresh_warn_once: the warnings
    # given once per process are given whatever ran before in this process)
    with warnings.catch_warnings(), fresh_warn_once():
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
