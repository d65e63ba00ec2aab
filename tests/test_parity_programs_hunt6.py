"""Parity programs of a sixth hunt: torch.nn.modules' own files, global module hooks, GroupNorm's node, small API gaps.

Each program runs twice through ``parity.run_both`` (``import torch`` resolving to minigrad, then to PyTorch)
and both stdouts must be identical once object addresses are masked. The programs import from
``torch.nn.modules.module``/``.loss``/``.conv``..., which ``run_both`` now maps to minigrad's modules (before,
the minigrad run silently got PyTorch's). Every program that registers a global hook removes it again, since
the hook tables are process-wide.
"""
from __future__ import annotations

import re
import warnings

import pytest
from parity import ERROR_PRELUDE, run_both

PROGRAMS: dict[str, str] = {}

PROGRAMS['nn_modules_files_import_minigrads_classes'] = r'''
import torch
from torch.nn.modules.module import Module
from torch.nn.modules.linear import Linear, Identity
from torch.nn.modules.loss import MSELoss, CrossEntropyLoss
from torch.nn.modules.conv import Conv2d
from torch.nn.modules.activation import ReLU, Tanh
from torch.nn.modules.dropout import Dropout
from torch.nn.modules.flatten import Flatten
from torch.nn.modules.sparse import Embedding
from torch.nn.modules.distance import PairwiseDistance
from torch.nn.modules.normalization import LayerNorm, GroupNorm
from torch.nn.modules.instancenorm import InstanceNorm1d
from torch.nn.modules.container import Sequential
from torch.nn.modules.batchnorm import BatchNorm1d
from torch.utils.hooks import RemovableHandle
print(Module is torch.nn.Module, Linear is torch.nn.Linear, MSELoss is torch.nn.MSELoss)
print(Conv2d is torch.nn.Conv2d, ReLU is torch.nn.ReLU, Dropout is torch.nn.Dropout, Flatten is torch.nn.Flatten)
print(Embedding is torch.nn.Embedding, PairwiseDistance is torch.nn.PairwiseDistance)
print(LayerNorm is torch.nn.LayerNorm, GroupNorm is torch.nn.GroupNorm, InstanceNorm1d is torch.nn.InstanceNorm1d)
print(Sequential is torch.nn.Sequential, BatchNorm1d is torch.nn.BatchNorm1d, Identity, Tanh, CrossEntropyLoss)
torch.manual_seed(0)
m = Sequential(Linear(3, 2), Tanh())
h = m.register_forward_hook(lambda mod, a, out: None)
print(type(h), isinstance(h, RemovableHandle))
y = m(torch.ones(1, 3))
print(y.grad_fn, MSELoss()(y, torch.zeros(1, 2)))
'''

PROGRAMS['global_forward_hooks_run_before_the_modules_own'] = r'''
import torch
import torch.nn as nn
from torch.nn.modules import module as M
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
log = []
net[0].register_forward_pre_hook(lambda m, a: log.append(('local pre', type(m).__name__)))
net[0].register_forward_hook(lambda m, a, o: log.append(('local fwd', type(m).__name__)))
h1 = M.register_module_forward_pre_hook(lambda m, a: log.append(('global pre', type(m).__name__)))
h2 = M.register_module_forward_hook(lambda m, a, o: log.append(('global fwd', type(m).__name__)))
h3 = M.register_module_forward_hook(lambda m, a, k, o: log.append(('global kw', sorted(k))), with_kwargs=True)
try:
    out = net(torch.ones(1, 2))
finally:
    h1.remove(); h2.remove(); h3.remove()
for entry in log:
    print(entry)
log.clear()
net(torch.ones(1, 2))
print(log)
# a global pre-hook may replace the inputs (a lone value is wrapped in a tuple), a forward hook the output
h1 = M.register_module_forward_pre_hook(lambda m, a: a[0] * 2 if isinstance(m, nn.Linear) else None)
h2 = M.register_module_forward_hook(lambda m, a, o: o + 100 if isinstance(m, nn.ReLU) else None)
try:
    print(net(torch.ones(1, 2)))
finally:
    h1.remove(); h2.remove()
print(net(torch.ones(1, 2)))
'''

PROGRAMS['global_backward_hooks_run_before_the_modules_own'] = r'''
import torch
import torch.nn as nn
from torch.nn.modules.module import (register_module_full_backward_hook,
                                     register_module_full_backward_pre_hook)
torch.manual_seed(0)
lin = nn.Linear(2, 2)
log = []
lin.register_full_backward_pre_hook(lambda m, go: log.append(('local pre', go[0].shape)))
lin.register_full_backward_hook(lambda m, gi, go: log.append(('local', gi[0].shape)))
h1 = register_module_full_backward_pre_hook(lambda m, go: log.append(('global pre', type(m).__name__)))
h2 = register_module_full_backward_hook(lambda m, gi, go: log.append(('global', type(m).__name__)))
x = torch.ones(1, 2, requires_grad=True)
try:
    lin(x).sum().backward()
    relu = nn.ReLU()
    relu(x * 1).sum().backward()
finally:
    h1.remove(); h2.remove()
for entry in log:
    print(entry)
# the global pre-hook may scale the output gradients
h = register_module_full_backward_pre_hook(lambda m, go: (go[0] * 10,))
try:
    x.grad = None
    nn.Identity()(x).sum().backward()
finally:
    h.remove()
print(x.grad)
'''

PROGRAMS['global_registration_hooks'] = r'''
import torch
import torch.nn as nn
from torch.nn.modules import module as M
log = []
def on_param(m, name, p):
    log.append(('param', type(m).__name__, name, None if p is None else tuple(p.shape)))
def on_buffer(m, name, b):
    log.append(('buffer', type(m).__name__, name, None if b is None else tuple(b.shape)))
    if b is not None and name == 'scale':
        return b * 0 + 7
def on_module(m, name, sub):
    log.append(('module', type(m).__name__, name, type(sub).__name__))
hs = [M.register_module_parameter_registration_hook(on_param),
      M.register_module_buffer_registration_hook(on_buffer),
      M.register_module_module_registration_hook(on_module)]
try:
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
    net.register_buffer('scale', torch.ones(2))
    net.scale = torch.zeros(2)
    net.add_module('extra', nn.ReLU())
    net.extra = None
    net[0].bias = None
    net[0].bias = nn.Parameter(torch.zeros(3))
finally:
    for h in hs:
        h.remove()
for entry in log:
    print(entry)
print(net.scale)
net.register_buffer('other', torch.ones(1))
print(len(log))
'''


PROGRAMS['group_norm_is_one_native_node'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = (torch.randn(3, 6, 5) * 2 + 1).requires_grad_()
gn = nn.GroupNorm(3, 6)
with torch.no_grad():
    gn.weight.copy_(torch.randn(6)); gn.bias.copy_(torch.randn(6))
y = gn(x)
print(y.grad_fn, y.grad_fn.next_functions)
print(sorted(n for n in dir(y.grad_fn) if n.startswith('_saved')))
node = y.grad_fn
print(node._saved_N, node._saved_C, node._saved_HxW, node._saved_group, node._saved_eps)
print(node._saved_result1, node._saved_result2.shape, node._saved_input is x, node._saved_weight is gn.weight)
print(y[1])
print(F.group_norm(x.detach(), 2).grad_fn, F.group_norm(x, 2).grad_fn._saved_weight)
print(F.group_norm(x, 3, gn.weight).grad_fn.next_functions[2])
print(torch.group_norm(torch.arange(8.).reshape(2, 4), 2, eps=0.5))
out, mean, rstd = torch.native_group_norm(x.detach(), None, None, 3, 6, 5, 2, 1e-5)
print(mean, rstd)
'''

PROGRAMS['group_norm_gradients_and_double_backward'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
x = (torch.randn(2, 4, 3, 2, dtype=torch.float64) * 3).requires_grad_()
gn = nn.GroupNorm(2, 4, dtype=torch.float64)
with torch.no_grad():
    gn.weight.copy_(torch.randn(4)); gn.bias.copy_(torch.randn(4))
w = torch.randn(2, 4, 3, 2, dtype=torch.float64)
y = gn(x)
gx, gw, gb = torch.autograd.grad((y * w).sum(), (x, gn.weight, gn.bias), create_graph=True)
print(gx[1, 2], gw, gb)
print(torch.autograd.grad(gx.pow(2).sum() + gw.sum(), (x, gn.weight)))
y, m, r = torch.native_group_norm(x, None, None, 2, 4, 6, 2, 1e-5)
print(m.grad_fn, r.grad_fn)
print(torch.autograd.grad(m.sum() + (r * torch.tensor([[1.], [2.]], dtype=torch.float64)).sum(), x)[0][0, 0])
print(torch.autograd.gradcheck(lambda a, b, c: torch.nn.functional.group_norm(a, 2, b, c),
                               (x, gn.weight, gn.bias)))
print(torch.autograd.gradgradcheck(lambda a, b: torch.nn.functional.group_norm(a, 4, b), (x, gn.weight)))
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    out = nn.functional.group_norm(fwAD.make_dual(x.detach(), w), 2, gn.weight.detach())
    print(fwAD.unpack_dual(out).tangent[0, 1])
'''

PROGRAMS['put_and_put_'] = ERROR_PRELUDE + r'''
x = torch.arange(6.).reshape(2, 3).requires_grad_()
s = torch.tensor([10., 20.], requires_grad=True)
y = x.put(torch.tensor([0, 4]), s)
print(y, sorted(n for n in dir(y.grad_fn) if n.startswith('_saved')))
print(y.grad_fn._saved_index, y.grad_fn._saved_accumulate, y.grad_fn._saved_source is s)
y.backward(torch.arange(6.).reshape(2, 3))
print(x.grad, s.grad)
y = x.put(torch.tensor([1, 1]), s, accumulate=True)
print(y)
g = torch.autograd.grad(y.pow(2).sum(), (x, s), create_graph=True)
print(g, g[0].grad_fn)
z = x.detach().clone()
print(z.put_(torch.tensor([-1, 0]), torch.tensor([5., 6.])), z._version)
print(torch.put(x.detach(), torch.tensor([[1, 2]]), torch.tensor([7., 8.])))
E(lambda: x.detach().put_(torch.tensor([6]), torch.tensor([5.])))
E(lambda: x.detach().put_(torch.tensor([-7]), torch.tensor([5.])))
E(lambda: x.detach().put_(torch.tensor([1, 2]), torch.tensor([5.])))
E(lambda: x.detach().put(torch.tensor([1], dtype=torch.int32), torch.tensor([5.])))
E(lambda: x.detach().put(torch.tensor([1]), torch.tensor([5.], dtype=torch.float64)))
E(lambda: torch.zeros(0).put(torch.tensor([0]), torch.tensor([1.])))
E(lambda: x.put_(torch.tensor([1]), torch.tensor([1.])))
w = x * 1
w.put_(torch.tensor([2]), s[:1])
print(w.grad_fn, w.grad_fn.next_functions)
'''

PROGRAMS['cumulative_trapezoid'] = ERROR_PRELUDE + r'''
y = torch.tensor([[1., 2, 4], [3, 5, 9]], requires_grad=True)
x = torch.tensor([0., 1, 3], requires_grad=True)
r = torch.cumulative_trapezoid(y, x)
print(r, r.grad_fn.next_functions[0][0], r.grad_fn.next_functions[0][0].next_functions)
r.sum().backward()
print(y.grad, x.grad)
print(torch.cumulative_trapezoid(y, dx=2), torch.cumulative_trapezoid(y, dim=0))
print(torch.cumulative_trapezoid(torch.zeros(2, 0)), torch.cumulative_trapezoid(torch.zeros(2, 1)))
print(torch.cumulative_trapezoid(torch.tensor([1, 2, 4])), torch.cumulative_trapezoid(torch.tensor([1, 2, 4]), dx=2))
print(torch.cumulative_trapezoid(torch.tensor([1, 2, 4]), torch.tensor([1, 2, 5])))
print(torch.cumulative_trapezoid(torch.ones(2, 3), torch.tensor([[0., 1, 3]])))
E(lambda: torch.cumulative_trapezoid(torch.tensor(1.)))
E(lambda: torch.cumulative_trapezoid(torch.tensor([True, False])))
E(lambda: torch.cumulative_trapezoid(y, dx=1j))
E(lambda: torch.cumulative_trapezoid(y, torch.ones(2)))
E(lambda: torch.cumulative_trapezoid(y, x, dx=1))
E(lambda: torch.cumulative_trapezoid(y, 2))
'''

PROGRAMS['set_shares_memory'] = ERROR_PRELUDE + r'''
a = torch.zeros(2, 3); b = torch.arange(4.)
v = a._version
print(a.set_(b), a.shape, a.stride(), a.data_ptr() == b.data_ptr(), a._version - v)
b[0] = 9; print(a)
a.mul_(2); print(b)
a = torch.zeros(2)
print(a.set_(torch.arange(6.), 1, (2, 2)), a.set_(torch.arange(6.), 1, (2, 2), (1, 2)))
print(a.stride(), a.storage_offset(), a.is_contiguous())
E(lambda: a.set_(torch.arange(6.), 4, (2, 2), (1, 2)))
s = torch.arange(6.)
a.set_(s[2:]); print(a, a.storage_offset())
print(a.set_(), a.shape)
E(lambda: a.set_(torch.zeros(2, dtype=torch.float64)))
E(lambda: a.set_(torch.zeros(2, dtype=torch.int64)))
E(lambda: torch.zeros(2, dtype=torch.int64).set_(torch.zeros(2)))
E(lambda: a.set_(3))
E(lambda: a.set_(torch.arange(6.), 1))
E(lambda: torch.zeros(2, requires_grad=True).set_(b))
with torch.no_grad():
    leaf = torch.zeros(2, requires_grad=True)
    leaf.set_(torch.ones(3))
print(leaf, leaf.requires_grad, leaf.grad_fn)
'''

PROGRAMS['node_raw_saved_data_no_grad_arg_make_dual_dtype'] = ERROR_PRELUDE + r'''
E(lambda: torch.autograd.graph.Node())
x = torch.tensor([1., 2.], requires_grad=True)
print(isinstance((x * 2).grad_fn, torch.autograd.graph.Node))
y = x.exp()
d = y.grad_fn._raw_saved_result.data
print(d, d.requires_grad, d.grad_fn, d is y, d.data_ptr() == y.data_ptr())
xs = x.sin()  # (kept: a raw saved variable does not keep its node alive in PyTorch)
s = xs.grad_fn._raw_saved_self
print(s.data is x)
y3 = x.exp(); y3.sum().backward()
print(y3.grad_fn._raw_saved_result.data)
print(callable(torch.no_grad(True)), callable(torch.enable_grad(1)), type(torch.no_grad()).__name__)
with torch.no_grad():
    print(torch.is_grad_enabled())
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    dual = fwAD.make_dual(torch.ones(2), torch.ones(2, dtype=torch.float64))
    print(fwAD.unpack_dual(dual).tangent)
    print(fwAD.unpack_dual(fwAD.make_dual(torch.ones(2, dtype=torch.float64), torch.ones(2))).tangent.dtype)
'''


def _mask(text: str) -> str:
    return re.sub(r"0x[0-9a-fA-F]+", "0xADDR", text)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # warnings go to stderr; only stdout is compared
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
