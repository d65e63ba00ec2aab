"""Parity programs from an eleventh hunt: nn, optim and training utilities, against PyTorch.

Each program runs twice through ``parity.run_both`` (``import torch`` resolving to minigrad, then to PyTorch) and
both stdouts must be identical once object addresses are masked. The areas: the layers this hunt added
(MaxUnpool3d, FractionalMaxPool3d, AdaptiveLogSoftmaxWithLoss, SyncBatchNorm, LazyInstanceNorm1d/2d/3d,
CrossMapLRN2d, the deprecated Container / NLLLoss2d; optim.Muon), the lazy modules' hooks, nn.utils (parametrize
and parametrizations, the old spectral_norm's state-dict hooks, prune, rnn packing, gradient clipping, fusion,
functional_call, memory formats), optimizers (closures, flag checks, capturable on the CPU, foreach, complex and
float16/bfloat16 parameters), lr schedulers, the Module lookup/dtype API and module hooks. Hook dicts are
printed by value (``V``) and handle ids only as differences (``ID``): the ids themselves depend on every hook
made before in the process, other test files included.
Programs marked "fixed:" printed something different from PyTorch before this hunt's fix; the others matched
from the start and guard the behaviour. Hunt 10 (``test_parity_programs_hunt10_nn.py``) and the first nn hunt
(``test_parity_programs_hunt_nn.py``) cover the rest of this ground.
"""
from __future__ import annotations

import re
import warnings

import pytest
from parity import run_both

PROGRAMS: dict[str, str] = {}

# E(f): call f and print its result, or the exception's type and message; W(f): call f, print its warnings
PRE = """
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, str(e))
import warnings
def W(f):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        r = f()
    for w in ws:
        print('warn', w.category.__name__, str(w.message))
    return r
"""

# fixed: nn.MaxUnpool3d / F.max_unpool3d were missing; max_unpool2d accepted integer and complex inputs
PROGRAMS['max_unpool3d'] = PRE + r'''
import torch, torch.nn as nn, torch.nn.functional as F
torch.manual_seed(3)
x = torch.randn(2, 2, 4, 4, 4, requires_grad=True)
y, i = F.max_pool3d(x, 2, return_indices=True)
u = F.max_unpool3d(y, i, 2)
print(u.shape, u.grad_fn, [a for a in dir(u.grad_fn) if a.startswith('_saved')])
print(u[1, 0, :2])
u2 = F.max_unpool3d(y, i, 2, output_size=(5, 5, 5))
(u2 * torch.arange(125.).view(5, 5, 5)).sum().backward()
print(x.grad[1, 0])
m = nn.MaxUnpool3d(2, stride=(1, 2, 2)); print(m, nn.MaxUnpool3d(3, padding=1))
print(nn.MaxUnpool3d(2)(y, i, output_size=[2, 2, 4, 5, 4]).sum())
bad = i.clone(); bad[1, 1, 0, 1, 1] = 70
E(lambda: F.max_unpool3d(y, bad, 2))
bad[1, 1, 0, 1, 1] = -3
E(lambda: F.max_unpool3d(y, bad, 2))
E(lambda: F.max_unpool3d(y, i.int(), 2))
E(lambda: F.max_unpool3d(y[0, 0], i[0, 0], 2))
E(lambda: F.max_unpool3d(y, i[:, :1], 2))
E(lambda: F.max_unpool3d(y, i, 2, output_size=(9, 5, 5)))
E(lambda: F.max_unpool3d(y, i, 2, output_size=(5, 5)))
E(lambda: F.max_unpool3d(y, i, 2, stride=0))
E(lambda: F.max_unpool3d(torch.zeros(2, 0, 2, 2, 2), torch.zeros(2, 0, 2, 2, 2).long(), 2))
y2, i2 = F.max_pool2d(x[0].detach(), 2, return_indices=True)
for dt in [torch.half, torch.float64, torch.int64, torch.complex64]:
    E(lambda: F.max_unpool3d(y.detach().to(dt), i, 2).dtype)
    E(lambda: F.max_unpool2d(y2.to(dt), i2, 2).dtype)
y1, i1 = F.max_pool3d(x[0], 2, return_indices=True)
print(F.max_unpool3d(y1, i1, 2).shape)
xx = torch.randn(1, 1, 2, 2, 2, requires_grad=True)
uu = F.max_unpool3d(xx, torch.tensor([[[[[0, 0], [3, 7]], [[9, 9], [60, 63]]]]]), 2)
print(uu.view(-1).nonzero().view(-1).tolist(), uu.view(-1)[[0, 9]])
uu.sum().backward(); print(xx.grad)
'''


# fixed: nn.FractionalMaxPool3d / F.fractional_max_pool3d were missing
PROGRAMS['fractional_max_pool3d'] = PRE + r'''
import torch, torch.nn as nn, torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 2, 5, 6, 7, requires_grad=True)
y, i = F.fractional_max_pool3d(x, 2, output_size=(3, 4, 4), return_indices=True)
print(y.grad_fn, [a for a in dir(y.grad_fn) if a.startswith('_saved')])
print(y.grad_fn._saved_kernel_size, y.grad_fn._saved_output_size)
print(i[1])
y.sum().backward(); print(x.grad.sum(), x.grad[0, 0, 0])
m = nn.FractionalMaxPool3d(3, output_ratio=0.5, return_indices=True); print(m)
print(m(x)[1].shape, m(x[0])[0].shape)
torch.manual_seed(4)
print(nn.FractionalMaxPool3d((2, 3, 2), output_size=2)(x[:1, :1]))
xd = torch.randn(1, 1, 6, 5, 6, dtype=torch.float64)
s = torch.tensor([[[0.3, 0.9, 0.1]]], dtype=torch.float64)
print(F.fractional_max_pool3d(xd, (1, 2, 3), output_size=(3, 2, 2), _random_samples=s))
print(F.fractional_max_pool3d(xd, (2, 2, 2), output_size=(3, 2, 2), return_indices=True, _random_samples=s)[1])
xn = xd.clone(); xn[0, 0, 0, 0, 1] = float('nan'); xn[0, 0, 1, 1, 1] = float('nan')
print(F.fractional_max_pool3d(xn, 2, output_size=(2, 2, 2), return_indices=True, _random_samples=s))
E(lambda: nn.FractionalMaxPool3d(2))
E(lambda: nn.FractionalMaxPool3d(2, output_size=2, output_ratio=0.5))
E(lambda: nn.FractionalMaxPool3d(2, output_ratio=1.5))
E(lambda: nn.FractionalMaxPool3d(0, output_size=2))
E(lambda: nn.FractionalMaxPool3d((2, 0, 1), output_size=2))
E(lambda: F.fractional_max_pool3d(x, 2))
x = x.detach()
E(lambda: F.fractional_max_pool3d(x, 5, output_size=3))
E(lambda: F.fractional_max_pool3d(x, 2, output_size=(4, 5, 6)))
E(lambda: F.fractional_max_pool3d(x[0, 0], 2, output_size=3, _random_samples=torch.rand(1, 1, 3)))
E(lambda: F.fractional_max_pool3d(torch.zeros(1, 0, 3, 3, 3), 2, output_size=2))
E(lambda: F.fractional_max_pool3d(x, 2, output_size=3, _random_samples=torch.rand(2, 2, 2)))
E(lambda: F.fractional_max_pool3d(x, 2, output_size=3, _random_samples=torch.rand(2, 3, 3)))
E(lambda: F.fractional_max_pool3d(x, 2, output_size=3, _random_samples=torch.rand(1, 2, 3)))
E(lambda: F.fractional_max_pool3d(x, 2, output_size=3, _random_samples=torch.rand(6)))
E(lambda: F.fractional_max_pool3d(x, 2, output_size=3, _random_samples=torch.rand(3, 2, 3).double()))
E(lambda: F.fractional_max_pool3d(x, (2, 2), output_size=3))
E(lambda: F.fractional_max_pool3d(x, 2, output_size=(3, 3)))
E(lambda: F.fractional_max_pool3d(x, 2, output_size=(0, 3, 3)).shape)
E(lambda: F.fractional_max_pool3d(x, 2, output_ratio=(0.5, 0.5)))
E(lambda: F.fractional_max_pool3d(x.long(), 2, output_size=3))
print(F.fractional_max_pool3d(x, 2, output_size=(3, 3, 3), _random_samples=torch.rand(3, 2, 3)).shape)
'''


# fixed: _random_samples checks (dims, dtype, sizes), kernel/output sizes of the wrong length, an empty output and a 1-tuple output_ratio crashed or passed silently
PROGRAMS['fractional_max_pool2d_checks'] = PRE + r'''
import torch, torch.nn as nn, torch.nn.functional as F
x = torch.randn(2, 5, 6, 7)
E(lambda: F.fractional_max_pool2d(x, 2, output_size=(5, 5)).shape)
E(lambda: F.fractional_max_pool2d(x, 2, output_size=(6, 6)).shape)
E(lambda: F.fractional_max_pool2d(x, 2, output_size=3, _random_samples=torch.rand(6)))
E(lambda: F.fractional_max_pool2d(x, 2, output_size=3, _random_samples=torch.rand(3, 5, 2).double()))
E(lambda: F.fractional_max_pool2d(x, 2, output_size=3, _random_samples=torch.rand(1, 5, 2)))
E(lambda: F.fractional_max_pool2d(x, 2, output_size=3, _random_samples=torch.rand(2, 4, 3)))
E(lambda: F.fractional_max_pool2d(x, 2, output_size=3, _random_samples=torch.rand(2, 5, 3)))
E(lambda: F.fractional_max_pool2d(x[0], 2, output_size=3, _random_samples=torch.rand(1, 5, 3)))
E(lambda: F.fractional_max_pool2d(x[0], 2, output_size=3, _random_samples=torch.rand(4, 5, 2)).shape)
E(lambda: F.fractional_max_pool2d(x, 2, output_size=(0, 3)).shape)
E(lambda: F.fractional_max_pool2d(x, (2, 2, 2), output_size=(3, 3)))
E(lambda: F.fractional_max_pool2d(x, (2,), output_size=3))
E(lambda: F.fractional_max_pool2d(x, 2, output_size=(3,)))
E(lambda: F.fractional_max_pool2d(x, 2, output_ratio=0.5))
E(lambda: F.fractional_max_pool2d(x, 2, output_ratio=(0.5,)))
E(lambda: F.fractional_max_pool2d(x[0, 0], 2, output_size=3, _random_samples=torch.rand(6)))
E(lambda: F.fractional_max_pool2d(x, 9, output_size=3, _random_samples=torch.rand(6)))
s = torch.tensor([[[0.25, 0.75]]])
print(F.fractional_max_pool2d(torch.arange(42.).view(1, 1, 6, 7), (2, 3), output_size=(3, 3), _random_samples=s, return_indices=True))
print(nn.FractionalMaxPool2d(0, output_size=2), nn.FractionalMaxPool2d(2, output_ratio=(0.5, 0.25)).output_ratio)
'''


# fixed: nn.AdaptiveLogSoftmaxWithLoss was missing
PROGRAMS['adaptive_log_softmax'] = PRE + r'''
import torch, torch.nn as nn
torch.manual_seed(0)
asm = nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[3, 6], div_value=2.0)
print(asm)
print([(n, tuple(p.shape)) for n, p in asm.named_parameters()])
x = torch.randn(5, 8)
t = torch.tensor([0, 4, 9, 2, 7])
out = asm(x, t)
print(type(out).__name__, out._fields)
print(out.output, out.loss)
print(out.loss.item())
out.loss.backward()
print(asm.head.weight.grad.sum().item(), asm.tail[1][0].weight.grad.abs().sum().item())
print(asm.log_prob(x))
print(asm.log_prob(x).exp().sum(1))
print(asm.predict(x))
print(asm(x[0], t[0]))
E(lambda: asm(x, t[:3]))
E(lambda: asm(x[0], t))
E(lambda: asm(x, t.view(5, 1)))
E(lambda: asm(x[None], t[0]))
E(lambda: asm(x, torch.tensor([0, 1, 2, 3, 10])))
E(lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[]))
E(lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[6, 3]))
E(lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[3, 10]))
E(lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[3, 3.5]))
a2 = nn.AdaptiveLogSoftmaxWithLoss(16, 20, [4, 10, 15], head_bias=True)
print(a2)
opt = torch.optim.SGD(a2.parameters(), lr=0.5)
xs = torch.randn(12, 16); ts = torch.randint(0, 20, (12,))
for _ in range(4):
    opt.zero_grad(); r = a2(xs, ts); r.loss.backward(); opt.step(); print(r.loss.item())
print(a2.predict(xs), a2.log_prob(xs).argmax(1))
print(a2.predict(xs[:3] * 0))
a2.reset_parameters(); print(a2.tail[0][1].weight.sum().item())
print(sorted(a2.state_dict().keys()))
'''


# fixed: nn.SyncBatchNorm was missing
PROGRAMS['sync_batch_norm'] = PRE + r'''
import torch, torch.nn as nn
torch.manual_seed(0)
bn = nn.SyncBatchNorm(3)
print(bn, nn.SyncBatchNorm(4, momentum=None, affine=False, bias=False))
print(bn.process_group, isinstance(bn, nn.modules.batchnorm._BatchNorm))
y = bn(torch.randn(4, 3, 2, 5)); print(y.grad_fn, bn.running_mean, bn.num_batches_tracked)
print(bn(torch.randn(2, 3)).shape, bn(torch.randn(2, 3, 1, 1, 2)).shape)
E(lambda: bn(torch.randn(3)))
E(lambda: bn(torch.randn(2, 0, 3)))
print(bn.num_batches_tracked)
m = nn.Sequential(nn.Conv2d(1, 3, 3), nn.BatchNorm2d(3), nn.Sequential(nn.BatchNorm1d(3, affine=False)))
m[1].eval()
s = nn.SyncBatchNorm.convert_sync_batchnorm(m)
print(s)
print(s[1].weight is m[1].weight, s[1].running_mean is m[1].running_mean, s[2][0].process_group, s[1].training)
bn.eval(); print(bn(torch.ones(2, 3, 2)))
cm = nn.SyncBatchNorm(2, momentum=None)
for _ in range(3):
    cm(torch.randn(5, 2, 3))
print(cm.running_mean, cm.running_var)
print(nn.SyncBatchNorm.convert_sync_batchnorm(nn.BatchNorm3d(2, track_running_stats=False)))
'''


PROGRAMS['parametrize_register_remove'] = PRE + r'''
import torch, torch.nn as nn
import torch.nn.utils.parametrize as P
from torch.nn.utils import parametrizations as PZ
torch.manual_seed(0)
class Sym(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)
class Scale(nn.Module):
    def __init__(self):
        super().__init__(); self.s = nn.Parameter(torch.tensor(2.0))
    def forward(self, X):
        return X * self.s
    def right_inverse(self, X):
        return X / 2
m = nn.Linear(3, 3)
P.register_parametrization(m, "weight", Sym())
print(m)
print(type(m).__name__, type(m).__qualname__, isinstance(m, nn.Linear))
print(P.is_parametrized(m), P.is_parametrized(m, "weight"), P.is_parametrized(m, "bias"))
print(list(m.state_dict().keys()))
print([n for n, _ in m.named_parameters()])
print(m.weight)
print(m.parametrizations.weight.original)
print(m.parametrizations)
print(type(m.parametrizations).__name__, type(m.parametrizations.weight).__name__)
P.register_parametrization(m, "weight", Scale())
print(m)
print(list(m.state_dict().keys()))
print(m.weight)
x = torch.randn(2, 3)
y = m(x).sum(); y.backward()
print(m.parametrizations.weight.original.grad)
print(m.parametrizations.weight[1].s.grad)
with P.cached():
    a = m.weight; b = m.weight
    print(a is b)
print(m.weight is m.weight)
def setw(): m.weight = torch.eye(3)
E(setw)
print(m.parametrizations.weight.original)
P.remove_parametrizations(m, "weight", leave_parametrized=True)
print(m, type(m).__name__, list(m.state_dict().keys()))
print(m.weight)
m2 = nn.Linear(2, 2)
P.register_parametrization(m2, "bias", Scale())
P.remove_parametrizations(m2, "bias", leave_parametrized=False)
print(m2.bias)
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, str(e))
E(lambda: P.remove_parametrizations(m2, "bias"))
E(lambda: P.register_parametrization(m2, "nope", Sym()))
class Bad(nn.Module):
    def forward(self, X): return X[0]
E(lambda: P.register_parametrization(nn.Linear(3, 3), "weight", Bad()))
class BadDt(nn.Module):
    def forward(self, X): return X.double()
E(lambda: P.register_parametrization(nn.Linear(3, 3), "weight", BadDt()))
print(P.type_before_parametrizations(m2))
m3 = nn.Linear(2, 2); P.register_parametrization(m3, "weight", Sym(), unsafe=True)
print(m3.parametrizations.weight.unsafe if hasattr(m3.parametrizations.weight, 'unsafe') else None)
'''


PROGRAMS['parametrizations_orthogonal_spectral_weight'] = PRE + r'''
import torch, torch.nn as nn
import torch.nn.utils.parametrize as P
from torch.nn.utils.parametrizations import orthogonal, spectral_norm, weight_norm
torch.manual_seed(0)
m = orthogonal(nn.Linear(4, 3))
print(m)
print(list(m.state_dict().keys()))
w = m.weight
print(w)
print((w @ w.T))
print(m.parametrizations.weight.original)
for orth_map in ["matrix_exp", "cayley", "householder"]:
    torch.manual_seed(1)
    l = orthogonal(nn.Linear(3, 3), orthogonal_map=orth_map)
    print(orth_map, l.weight)
    opt = torch.optim.SGD(l.parameters(), lr=0.1)
    x = torch.randn(5, 3)
    for _ in range(2):
        opt.zero_grad(); loss = l(x).pow(2).sum(); loss.backward(); opt.step()
        print(loss.item())
    print(l.weight)
torch.manual_seed(2)
s = spectral_norm(nn.Linear(5, 4))
print(s)
print(sorted(s.state_dict().keys()))
print(s.weight)
print(s.parametrizations.weight[0]._u, s.parametrizations.weight[0]._v)
print(torch.linalg.matrix_norm(s.weight, 2))
s.eval(); print(s.weight)
torch.manual_seed(3)
wn = weight_norm(nn.Linear(3, 2))
print(wn)
print(sorted(wn.state_dict().keys()))
print(wn.parametrizations.weight.original0, wn.parametrizations.weight.original1)
print(wn.weight)
x = torch.randn(4, 3)
wn(x).sum().backward()
print(wn.parametrizations.weight.original0.grad, wn.parametrizations.weight.original1.grad)
wn2 = weight_norm(nn.Conv1d(2, 3, 2), dim=None)
print(wn2.parametrizations.weight.original0)
'''


PROGRAMS['prune_methods'] = PRE + r'''
import torch, torch.nn as nn
import torch.utils.hooks
def V(d):
    return [type(v).__name__ if not callable(getattr(v, '__func__', None)) else repr(v) for v in d.values()]
def ID():
    return torch.utils.hooks.RemovableHandle(__import__('collections').OrderedDict()).id
import torch.nn.utils.prune as prune
torch.manual_seed(0)
m = nn.Linear(4, 3)
prune.l1_unstructured(m, "weight", amount=0.5)
print(m)
print([n for n, _ in m.named_parameters()], [n for n, _ in m.named_buffers()])
print(list(m.state_dict().keys()))
print(m.weight_mask)
print(m.weight)
print(V(m._forward_pre_hooks))
hook = list(m._forward_pre_hooks.values())[0]
print(type(hook).__name__, hook._tensor_name, hook.amount)
prune.random_unstructured(m, "bias", amount=1)
print(m.bias_mask, m.bias)
torch.manual_seed(5)
prune.random_unstructured(m, "weight", amount=0.3)
print(m.weight_mask)
h = list(m._forward_pre_hooks.values())[0]
print(type(h).__name__, [type(p).__name__ for p in h._pruning_methods] if hasattr(h, '_pruning_methods') else None)
print(prune.is_pruned(m), prune.is_pruned(nn.Linear(1, 1)))
prune.remove(m, "weight")
print([n for n, _ in m.named_parameters()], [n for n, _ in m.named_buffers()])
print(m.weight)
def E(f):
    try:
        r = f(); print('ok', r)
    except Exception as e:
        print(type(e).__name__, str(e))
E(lambda: prune.remove(m, "weight"))
E(lambda: prune.l1_unstructured(m, "weight", amount=1.5))
E(lambda: prune.l1_unstructured(m, "weight", amount=20))
E(lambda: prune.l1_unstructured(m, "weight", amount=-1))
E(lambda: prune.l1_unstructured(m, "nope", amount=1))
torch.manual_seed(1)
net = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 2))
params = [(net[0], "weight"), (net[2], "weight")]
prune.global_unstructured(params, pruning_method=prune.L1Unstructured, amount=0.4)
print(net[0].weight_mask.sum(), net[2].weight_mask.sum())
print(net[2].weight)
prune.ln_structured(net[0], "weight", amount=0.5, n=2, dim=0)
print(net[0].weight_mask)
prune.random_structured(net[2], "weight", amount=1, dim=1)
print(net[2].weight_mask)
print(V(net[0]._forward_pre_hooks))
x = torch.randn(3, 4)
out = net(x).sum(); out.backward()
print(net[0].weight_orig.grad)
prune.identity(net[2], "bias"); print(net[2].bias_mask)
c = nn.Conv2d(2, 4, 3)
prune.ln_structured(c, "weight", amount=0.5, n=1, dim=0)
print(c.weight_mask.sum((1, 2, 3)))
cm = prune.custom_from_mask(nn.Linear(2, 2), "weight", torch.tensor([[1, 0], [0, 1]]))
print(cm.weight_mask, cm.weight)
print(sorted(net.state_dict().keys()))
'''


# fixed: the lengths check said 'CPU' for the device type (PyTorch: 'cpu'); lengths beyond T crashed
PROGRAMS['rnn_pack_pad_utilities'] = PRE + r'''
import torch, torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pack_sequence, pad_sequence, unpad_sequence, unpack_sequence, PackedSequence
torch.manual_seed(0)
seqs = [torch.randn(4, 2), torch.randn(2, 2), torch.randn(3, 2)]
padded = pad_sequence(seqs)
print(padded.shape, pad_sequence(seqs, batch_first=True, padding_value=-1.0)[1])
print(pad_sequence(seqs, batch_first=True, padding_side="left")[1])
lengths = torch.tensor([4, 2, 3])
E(lambda: pack_padded_sequence(padded, lengths))
p = pack_padded_sequence(padded, lengths, enforce_sorted=False)
print(p)
print(p.batch_sizes, p.sorted_indices, p.unsorted_indices)
print(type(p).__name__, p._fields if hasattr(p, '_fields') else None)
lstm = nn.LSTM(2, 3)
out, (h, c) = lstm(p)
print(type(out).__name__, out.data.shape, h.shape)
o, l = pad_packed_sequence(out)
print(o, l)
print(h)
o2, l2 = pad_packed_sequence(out, batch_first=True, total_length=6, padding_value=9.)
print(o2.shape, o2[1, :, 0])
E(lambda: pad_packed_sequence(out, total_length=2))
ps = pack_sequence(seqs, enforce_sorted=False)
gru = nn.GRU(2, 3, batch_first=True, bidirectional=True)
go, gh = gru(ps)
print(gh)
print(unpack_sequence(go)[1])
print(unpad_sequence(padded, lengths)[2])
E(lambda: pack_sequence(seqs))
E(lambda: pack_padded_sequence(padded, [4, 3, 0], enforce_sorted=False))
E(lambda: pack_padded_sequence(padded, torch.tensor([[4, 3, 2]])))
E(lambda: pack_padded_sequence(padded, [5, 3, 2]))
E(lambda: pad_sequence([torch.randn(2, 3), torch.randn(2, 4)]))
print(p.to(torch.float64).data.dtype, p.is_cuda, p.double().data.dtype)
loss = o.sum(); loss.backward()
print(lstm.weight_hh_l0.grad)
print(padded.shape)
ps2 = pack_padded_sequence(pad_sequence(seqs)[:, [0, 2, 1]], [4, 3, 2])
E(lambda: pack_padded_sequence(pad_sequence(seqs), [5, 3, 2]).batch_sizes)
print(ps2)
rnn = nn.RNN(2, 2, num_layers=2)
ro, rh = rnn(ps2)
print(rh)
'''


PROGRAMS['clip_grad_and_vectors'] = PRE + r'''
import torch, torch.nn as nn
from torch.nn.utils import clip_grad_norm_, clip_grad_value_, parameters_to_vector, vector_to_parameters
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
x = torch.randn(5, 3)
m(x).pow(2).sum().backward()
for nt in [2.0, 1, float('inf'), 0.5, 3]:
    g = [p.grad.clone() for p in m.parameters()]
    n = clip_grad_norm_(m.parameters(), max_norm=0.3, norm_type=nt, foreach=True)
    print(nt, n, n.item(), m[0].weight.grad[0])
    for p, gg in zip(m.parameters(), g): p.grad = gg
n = clip_grad_norm_(m.parameters(), 0.3, foreach=False); print(n.item())
print(torch.nn.utils.get_total_norm([p.grad for p in m.parameters()], 2.0))
torch.nn.utils.clip_grads_with_norm_(m.parameters(), 0.1, torch.tensor(2.0))
print(m[2].bias.grad)
m[2].bias.grad[0] = float('nan')
E(lambda: clip_grad_norm_(m.parameters(), 1.0, error_if_nonfinite=True))
print(clip_grad_norm_(m.parameters(), 1.0))
m[2].bias.grad[0] = float('inf')
E(lambda: clip_grad_norm_(m.parameters(), 1.0, norm_type='inf', error_if_nonfinite=True))
print(clip_grad_norm_([], 1.0))
print(clip_grad_norm_(torch.zeros(2, requires_grad=True), 1.0))
t = torch.ones(3, requires_grad=True); t.grad = torch.tensor([3., -4., 0.5])
print(clip_grad_norm_(t, 1.0), t.grad)
clip_grad_value_(t, 0.2); print(t.grad)
E(lambda: clip_grad_value_(t, -1))
v = parameters_to_vector(m.parameters()); print(v.shape, v[:4])
vector_to_parameters(torch.arange(v.numel()).float(), m.parameters())
print(m[2].weight)
E(lambda: vector_to_parameters(torch.arange(3.), m.parameters()))
E(lambda: vector_to_parameters([1.0], m.parameters()))
E(lambda: parameters_to_vector([torch.zeros(2), torch.zeros(2, dtype=torch.float64)]))
'''


PROGRAMS['fusion_and_functional_call'] = PRE + r'''
import torch, torch.nn as nn
from torch.nn.utils.fusion import fuse_conv_bn_eval, fuse_conv_bn_weights, fuse_linear_bn_eval
from torch.func import functional_call
from torch.nn.utils import stateless
torch.manual_seed(0)
conv = nn.Conv2d(2, 3, 3)
bn = nn.BatchNorm2d(3)
for _ in range(3): bn(conv(torch.randn(4, 2, 6, 6)))
conv.eval(); bn.eval()
f = fuse_conv_bn_eval(conv, bn)
print(f)
x = torch.randn(1, 2, 5, 5)
print(f(x)[0, 0])
print(bn(conv(x))[0, 0])
print(f.weight.requires_grad, type(f.weight).__name__)
E(lambda: fuse_conv_bn_eval(conv.train(), bn))
conv.eval()
ct = nn.ConvTranspose2d(2, 3, 2); ct.eval()
ft = fuse_conv_bn_eval(ct, bn, transpose=True)
print(ft.weight.shape, ft.bias)
lin = nn.Linear(4, 3); bn1 = nn.BatchNorm1d(3); bn1(lin(torch.randn(8, 4))); lin.eval(); bn1.eval()
fl = fuse_linear_bn_eval(lin, bn1); print(fl.weight, fl.bias)
w, b = fuse_conv_bn_weights(conv.weight, None, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias)
print(type(w).__name__, b)
m = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2))
params = {'0.weight': torch.ones(2, 3), '0.bias': torch.zeros(2)}
xi = torch.randn(4, 3)
out = functional_call(m, params, (xi,))
print(out)
print(m[1].running_mean, m[1].num_batches_tracked)
print(functional_call(m, (params, {'1.running_mean': torch.ones(2)}), xi, strict=False))
E(lambda: functional_call(m, {'0.weight': torch.ones(2, 3)}, (xi,), strict=True))
E(lambda: functional_call(m, {'0.wrong': torch.ones(2, 3)}, (xi,)))
out2 = stateless.functional_call(m, {'0.weight': torch.zeros(2, 3)}, xi)
print(out2, m[0].weight.shape)
print(functional_call(m, {}, args=(), kwargs={'input': xi}))
tied = nn.Linear(2, 2); tm = nn.ModuleDict({'a': tied, 'b': tied})
class TM(nn.Module):
    def __init__(self):
        super().__init__(); self.a = tied; self.b = tied
    def forward(self, x): return self.a(x) + self.b(x)
tmm = TM()
print(functional_call(tmm, {'a.weight': torch.eye(2), 'a.bias': torch.zeros(2)}, torch.ones(1, 2), tie_weights=True))
print(functional_call(tmm, {'a.weight': torch.eye(2), 'a.bias': torch.zeros(2)}, torch.ones(1, 2), tie_weights=False))
g = torch.func.grad(lambda p, x: functional_call(nn.Linear(2, 1), p, x).sum()) if hasattr(torch.func, 'grad') else None
'''


PROGRAMS['optimizers_closure_training'] = PRE + r'''
import torch, torch.nn as nn
torch.manual_seed(0)
def make():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
x = torch.randn(8, 3); y = torch.randn(8, 1)
cfgs = [
 (torch.optim.LBFGS, dict(lr=1, line_search_fn="strong_wolfe")),
 (torch.optim.LBFGS, dict(lr=0.5, history_size=3, max_iter=5)),
 (torch.optim.Rprop, dict(lr=0.01, etas=(0.4, 1.3), step_sizes=(1e-5, 1), maximize=True)),
 (torch.optim.ASGD, dict(lr=0.05, lambd=1e-3, t0=2, weight_decay=0.1)),
 (torch.optim.NAdam, dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True, momentum_decay=0.005)),
 (torch.optim.RAdam, dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)),
 (torch.optim.RAdam, dict(lr=0.01, weight_decay=0.1)),
 (torch.optim.Adagrad, dict(lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1, weight_decay=0.01)),
 (torch.optim.Adam, dict(lr=0.01, amsgrad=True, maximize=True, foreach=False)),
 (torch.optim.AdamW, dict(lr=0.01, amsgrad=True, foreach=True)),
 (torch.optim.Adamax, dict(lr=0.02, weight_decay=0.1)),
 (torch.optim.Adadelta, dict(lr=1.0, rho=0.8, weight_decay=0.1, maximize=True)),
 (torch.optim.RMSprop, dict(lr=0.01, momentum=0.9, centered=True, weight_decay=0.1)),
 (torch.optim.SGD, dict(lr=0.1, momentum=0.9, nesterov=True, dampening=0, weight_decay=0.01)),
 (torch.optim.Adam, dict(lr=0.01, fused=True)),
 (torch.optim.SGD, dict(lr=0.1, momentum=0.5, fused=True)),
 (torch.optim.AdamW, dict(lr=torch.tensor(0.01), fused=True)),
]
for cls, kw in cfgs:
    m = make()
    opt = cls(m.parameters(), **kw)
    def closure():
        opt.zero_grad()
        loss = ((m(x) - y) ** 2).mean()
        loss.backward()
        return loss
    for i in range(3):
        l = opt.step(closure)
        print(cls.__name__, i, l.item())
    print(m[2].weight.data, m[0].bias.data)
    sd = opt.state_dict()
    print(sorted(sd['state'][0].keys()) if sd['state'] else None, sd['param_groups'][0])
'''


# fixed: fused=True with foreach=True or differentiable=True did not raise
PROGRAMS['optimizer_flags_and_errors'] = PRE + r'''
import torch, torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 2)
E(lambda: torch.optim.SparseAdam(m.parameters()))
emb = nn.Embedding(5, 3, sparse=True)
E(lambda: torch.optim.SparseAdam(emb.parameters(), betas=(1.0, 0.9)))
E(lambda: torch.optim.SparseAdam(emb.parameters(), lr=-1))
E(lambda: torch.optim.SparseAdam(emb.parameters(), eps=-1))
E(lambda: torch.optim.SparseAdam(emb.parameters(), betas=(0.9, 1.5)))
so = torch.optim.SparseAdam(emb.parameters(), lr=0.1)
print(so)
emb(torch.tensor([1, 3, 1])).sum().backward()
print(emb.weight.grad.is_sparse if hasattr(emb.weight.grad, 'is_sparse') else None)
E(lambda: so.step())
print(emb.weight)
opt = torch.optim.Adam(m.parameters(), lr=0.1)
print(opt)
opt.add_param_group({'params': [nn.Parameter(torch.ones(2))], 'lr': 0.5, 'betas': (0.8, 0.9)})
print(opt)
E(lambda: opt.add_param_group({'params': list(m.parameters())}))
E(lambda: opt.add_param_group({'params': torch.ones(2, requires_grad=True), 'foo': 1}))
E(lambda: opt.add_param_group({'params': [torch.ones(2)]}))
E(lambda: torch.optim.SGD([], lr=0.1))
E(lambda: torch.optim.SGD(m.parameters()))
E(lambda: torch.optim.SGD(m.parameters(), lr=0.1, nesterov=True))
E(lambda: torch.optim.Adam(m.parameters(), lr=0.1, foreach=True, fused=True))
E(lambda: torch.optim.Adam(m.parameters(), lr=-0.1))
E(lambda: torch.optim.Adam(m.parameters(), betas=(1.0, 0.9)))
E(lambda: torch.optim.Adam(m.parameters(), lr=torch.tensor([0.1, 0.2])))
E(lambda: torch.optim.Adam(m.parameters(), weight_decay=-1))
E(lambda: torch.optim.Rprop(m.parameters(), etas=(1.2, 0.5)))
E(lambda: torch.optim.LBFGS(list(m.parameters()) , lr=0.1).add_param_group({'params': [torch.zeros(1, requires_grad=True)]}))
E(lambda: torch.optim.LBFGS([{'params': [m.weight]}, {'params': [m.bias]}]))
E(lambda: torch.optim.NAdam(m.parameters(), momentum_decay=-1))
E(lambda: torch.optim.ASGD(m.parameters(), lr=-1))
E(lambda: torch.optim.SGD(m.parameters(), lr=0.1, momentum=-1))
E(lambda: torch.optim.SGD(m.parameters(), lr=0.1, differentiable=True, fused=True))
E(lambda: torch.optim.Adagrad(m.parameters(), lr_decay=-1))
E(lambda: torch.optim.Adam([m.weight, m.weight]))
E(lambda: torch.optim.Adam({'a': m.weight}))
w = torch.ones(2, requires_grad=True)
opt = torch.optim.SGD([w], lr=torch.tensor(0.1), momentum=0.9, differentiable=True)
print(opt)
lr = torch.tensor(0.1, requires_grad=True)
w2 = torch.ones(2, requires_grad=True)
opt2 = torch.optim.SGD([w2], lr=0.1, differentiable=True)
(w2 ** 2).sum().backward()
print(opt2.state_dict())
o3 = torch.optim.AdamW(m.parameters(), lr=0.1, amsgrad=True)
m(torch.ones(1, 2)).sum().backward(); o3.step()
print(o3.state_dict())
print(o3.state)
o3.zero_grad(set_to_none=False); print(m.weight.grad)
o3.zero_grad(); print(m.weight.grad)
'''


PROGRAMS['schedulers_cyclic_onecycle_chains'] = PRE + r'''
import torch, torch.nn as nn
from torch.optim import lr_scheduler as L
def mk(lr=0.1, **kw):
    p = nn.Parameter(torch.zeros(2))
    return torch.optim.SGD([p], lr=lr, momentum=0.9, **kw)
o = mk()
s = L.OneCycleLR(o, max_lr=1.0, total_steps=10, anneal_strategy='linear', three_phase=True)
for i in range(10):
    o.step(); s.step(); print(i, s.get_last_lr(), o.param_groups[0]['momentum'])
E(lambda: (o.step(), s.step()))
print(s.state_dict())
o = mk()
s = L.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3, mode='triangular2')
for i in range(8):
    o.step(); s.step(); print(i, s.get_last_lr(), o.param_groups[0]['momentum'])
o = mk()
s = L.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2, step_size_down=3, mode='exp_range', gamma=0.9, cycle_momentum=False)
for i in range(7):
    o.step(); s.step(); print(i, s.get_last_lr())
print(sorted(s.state_dict().keys()))
o = torch.optim.Adam([nn.Parameter(torch.zeros(1))], lr=0.1)
E(lambda: L.CyclicLR(o, 0.01, 0.1))
s = L.CyclicLR(o, 0.01, 0.1, cycle_momentum=False, scale_fn=lambda x: 0.5 ** x, scale_mode='iterations')
for i in range(4):
    o.step(); s.step(); print(s.get_last_lr())
o = mk()
s = L.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.001)
for i in range(12):
    o.step(); s.step(); print(i, s.get_last_lr(), s.T_cur, s.T_i)
E(lambda: L.CosineAnnealingWarmRestarts(o, T_0=0))
E(lambda: L.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=0))
E(lambda: L.CosineAnnealingWarmRestarts(o, T_0=2, eta_min='a'))
o = mk()
s = L.PolynomialLR(o, total_iters=4, power=2.0)
for i in range(6):
    o.step(); s.step(); print(i, s.get_last_lr())
o = mk()
s = L.LambdaLR(o, lambda e: 0.9 ** e)
s2 = L.MultiplicativeLR(o, lambda e: 0.95)
for i in range(4):
    o.step(); s.step(); s2.step(); print(i, s.get_last_lr(), s2.get_last_lr(), o.param_groups[0]['lr'])
print(s2.state_dict())
o = mk()
s = L.SequentialLR(o, [L.LinearLR(o, start_factor=0.1, total_iters=2), L.ExponentialLR(o, gamma=0.5)], milestones=[2])
for i in range(5):
    o.step(); s.step(); print(i, s.get_last_lr())
print(s.state_dict()['_milestones'], s.state_dict()['last_epoch'])
o = mk()
s = L.ChainedScheduler([L.ConstantLR(o, factor=0.5, total_iters=2), L.ExponentialLR(o, gamma=0.9)])
for i in range(4):
    o.step(); s.step(); print(i, s.get_last_lr())
E(lambda: L.SequentialLR(o, [L.ExponentialLR(o, gamma=0.5)], milestones=[2]))
E(lambda: L.SequentialLR(o, [L.ExponentialLR(o, gamma=0.5), L.ExponentialLR(mk(), gamma=0.5)], milestones=[2]))
E(lambda: L.ChainedScheduler([]))
'''


# fixed: _LRScheduler was an alias of LRScheduler (PyTorch: a subclass)
PROGRAMS['plateau_and_scheduler_warnings'] = PRE + r'''
import torch, torch.nn as nn
from torch.optim import lr_scheduler as L
def mk(lr=0.1):
    p = nn.Parameter(torch.zeros(2))
    return torch.optim.SGD([{'params': [p]}, {'params': [nn.Parameter(torch.ones(1))], 'lr': lr * 2}], lr=lr)
o = mk()
s = L.ReduceLROnPlateau(o, mode='min', factor=0.5, patience=1, threshold=0.1, threshold_mode='abs', cooldown=1, min_lr=0.01)
print(s)
for i, m in enumerate([1.0, 0.95, 0.93, 0.9, 0.9, 0.89, 0.5, 0.6, 0.7, 0.8]):
    o.step(); s.step(m); print(i, s.get_last_lr(), s.num_bad_epochs, s.cooldown_counter, s.best)
print(s.state_dict())
E(lambda: L.ReduceLROnPlateau(o, factor=1.0))
E(lambda: L.ReduceLROnPlateau(o, mode='avg'))
E(lambda: L.ReduceLROnPlateau(o, threshold_mode='x'))
E(lambda: L.ReduceLROnPlateau(o, min_lr=[0.1, 0.2, 0.3]))
s = L.ReduceLROnPlateau(o, mode='max', min_lr=[0.001, 0.002], patience=0, eps=0.5)
for m in [1, 0.5, 0.4, 0.3]:
    s.step(m); print(s.get_last_lr(), s._last_lr)
E(lambda: s.step(torch.tensor([1.0, 2.0])))
s.step(torch.tensor(3.0)); print(s.best, type(s.best).__name__)
o = mk()
s = L.StepLR(o, step_size=2)
W(lambda: s.step())
print(s.get_last_lr())
W(lambda: s.step(3))
W(lambda: s.get_lr())
o = mk()
sched = L.ExponentialLR(o, gamma=0.5)
W(lambda: (sched.step(), o.step()))
o2 = mk()
sched2 = L.ExponentialLR(o2, gamma=0.5)
o2.step = o2.step  # instance attribute
W(lambda: (sched2.step()))
o3 = mk()
E(lambda: L.StepLR(o3, 2, last_epoch=3))
s3 = L.MultiStepLR(o3, milestones=[2, 2, 4], gamma=0.1)
for i in range(5):
    o3.step(); s3.step(); print(s3.get_last_lr())
print(s3.state_dict())
print(L.LRScheduler.__name__, isinstance(s3, L.LRScheduler), isinstance(s3, L._LRScheduler))
'''


PROGRAMS['module_api_lookup_and_dtypes'] = PRE + r'''
import torch, torch.nn as nn
torch.manual_seed(0)
shared = nn.Linear(2, 2)
m = nn.Sequential(shared, nn.ReLU(), shared, nn.Sequential(shared))
print([n for n, _ in m.named_modules()])
print([n for n, _ in m.named_modules(remove_duplicate=False)])
print([n for n, _ in m.named_modules(prefix='root', remove_duplicate=False)])
print([n for n, _ in m.named_parameters(remove_duplicate=False)])
print([n for n, _ in m.named_parameters(prefix='x', recurse=False)])
print(m.get_submodule('3.0'))
E(lambda: m.get_submodule('3.1'))
E(lambda: m.get_submodule('1.weight'))
E(lambda: m.get_submodule('4'))
E(lambda: m.get_parameter('0.nope'))
E(lambda: m.get_parameter('1.weight'))
E(lambda: m.get_parameter('3.0'))
print(m.get_parameter('3.0.bias'))
E(lambda: m.get_buffer('0.weight'))
E(lambda: m.get_buffer('x.y'))
print(m.get_submodule(''))
m.register_module('extra', nn.Tanh())
print(m)
E(lambda: m.register_module('a.b', nn.Tanh()))
E(lambda: m.register_module('', nn.Tanh()))
E(lambda: m.register_module('x', 3))
E(lambda: m.add_module(1, nn.Tanh()))
E(lambda: m.register_module('training', nn.Tanh()))
def init(mod):
    print('apply', type(mod).__name__)
m.apply(init)
m2 = nn.Linear(2, 3).to(torch.float64)
print(m2.weight.dtype, m2.bias.dtype)
print(m2.half().weight.dtype, m2.float().bias.dtype, m2.double().weight.dtype, m2.bfloat16().weight.dtype)
m3 = nn.Linear(2, 2)
m3.register_buffer('cnt', torch.tensor(3))
m3.to(torch.float64); print(m3.cnt.dtype, m3.weight.dtype)
E(lambda: m3.to(torch.int32))
m3.requires_grad_(False); print([p.requires_grad for p in m3.parameters()])
m3.requires_grad_(); print([p.requires_grad for p in m3.parameters()])
x = torch.randn(1, 2, dtype=torch.float64)
m3(x).sum().backward()
m3.zero_grad(set_to_none=False); print(m3.weight.grad)
m3.zero_grad(); print(m3.weight.grad)
print(m3.to(dtype=torch.float32, non_blocking=True).weight.dtype)
E(lambda: m3.to(torch.complex64))
print(m3.weight.dtype)
print(m3.type(torch.float64).weight.dtype)
'''


PROGRAMS['module_hooks_kwargs_global'] = PRE + r'''
import torch, torch.nn as nn
import torch.utils.hooks
def V(d):
    return [type(v).__name__ if not callable(getattr(v, '__func__', None)) else repr(v) for v in d.values()]
def ID():
    return torch.utils.hooks.RemovableHandle(__import__('collections').OrderedDict()).id
from torch.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook, register_module_full_backward_hook, register_module_full_backward_pre_hook
torch.manual_seed(0)
class Two(nn.Module):
    def __init__(self):
        super().__init__(); self.l = nn.Linear(2, 2)
    def forward(self, a, b, scale=1.0):
        return self.l(a) * b * scale, a.sum()
m = Two()
def fh(mod, args, kwargs, out):
    print('fwd kw', type(mod).__name__, len(args), sorted(kwargs), type(out).__name__)
    return out[0] + 1, out[1]
h1 = m.register_forward_hook(fh, with_kwargs=True)
def pre(mod, args, kwargs):
    print('pre kw', len(args), kwargs)
    return (args[0] * 2, args[1]), {'scale': 0.5}
h2 = m.register_forward_pre_hook(pre, with_kwargs=True)
a = torch.randn(3, 2, requires_grad=True); b = torch.randn(3, 2, requires_grad=True)
o = m(a, b, scale=3.0)
print(o[0], o[1])
h1.remove(); h2.remove()
def bw(mod, gin, gout):
    print('bw', type(mod).__name__, [None if g is None else tuple(g.shape) for g in gin], [None if g is None else g.sum().item() for g in gout])
def bwpre(mod, gout):
    print('bwpre', [None if g is None else g.sum().item() for g in gout])
    return (gout[0] * 2, gout[1])
hb = m.register_full_backward_hook(bw)
hp = m.register_full_backward_pre_hook(bwpre)
o = m(a, b)
(o[0].sum() + o[1] * 3).backward()
print(a.grad, b.grad)
hb.remove(); hp.remove()
def always(mod, args, out):
    print('always', out is None)
m.register_forward_hook(always, always_call=True)
class Boom(nn.Module):
    def forward(self, x): raise ValueError('boom')
bm = Boom(); bm.register_forward_hook(always, always_call=True)
bm.register_forward_hook(lambda *a: print('never'))
E(lambda: bm(torch.ones(1)))
g1 = register_module_forward_hook(lambda mod, i, o: print('global fwd', type(mod).__name__))
g2 = register_module_forward_pre_hook(lambda mod, i: print('global pre', type(mod).__name__))
g3 = register_module_full_backward_hook(lambda mod, gi, go: print('global bw', type(mod).__name__))
seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
y = seq(torch.ones(1, 2, requires_grad=True)).sum(); y.backward()
g1.remove(); g2.remove(); g3.remove()
seq(torch.ones(1, 2))
print('done')
lin = nn.Linear(2, 2)
def inplace_bw(mod, gi, go):
    return (gi[0] * 0,)
lin.register_full_backward_hook(inplace_bw)
xi = torch.ones(1, 2, requires_grad=True)
lin(xi).sum().backward(); print(xi.grad)
def bad_bw(mod, gi, go):
    return (gi[0], gi[0])
l2 = nn.Linear(2, 2); l2.register_full_backward_hook(bad_bw)
E(lambda: l2(torch.ones(1, 2, requires_grad=True)).sum().backward())
print(V(lin._forward_hooks), V(lin._backward_hooks))
l3 = nn.Linear(2, 2)
l3.register_forward_hook(lambda m, i, o: print('first'))
l3.register_forward_hook(lambda m, i, o: print('prepended'), prepend=True)
l3.register_forward_pre_hook(lambda m, i: print('pre1'))
l3.register_forward_pre_hook(lambda m, i: print('pre0'), prepend=True)
l3(torch.ones(2))
'''


PROGRAMS['parametrize_state_dict_copy_old_style'] = PRE + r'''
import torch, torch.nn as nn, copy
import torch.nn.utils.parametrize as P
from torch.nn.utils.parametrizations import orthogonal, spectral_norm, weight_norm
torch.manual_seed(0)
a = weight_norm(nn.Linear(3, 2))
b = weight_norm(nn.Linear(3, 2))
print(b.load_state_dict(a.state_dict()))
print(torch.equal(a.weight, b.weight))
c = copy.deepcopy(a)
print(type(c).__name__, c.weight.equal(a.weight), c.parametrizations.weight.original0 is a.parametrizations.weight.original0)
old = nn.utils.weight_norm(nn.Linear(3, 2))
W(lambda: nn.utils.weight_norm(nn.Linear(3, 2)))
print(old, sorted(old.state_dict().keys()))
print(old.weight_g, old.weight_v.shape)
nn.utils.remove_weight_norm(old); print(sorted(old.state_dict().keys()))
E(lambda: nn.utils.remove_weight_norm(old))
sn = nn.utils.spectral_norm(nn.Linear(4, 3), n_power_iterations=2)
print(sorted(sn.state_dict().keys()))
print(sn.weight)
sn(torch.randn(2, 4)); print(sn.weight_u)
nn.utils.remove_spectral_norm(sn); print(sorted(sn.state_dict().keys()))
E(lambda: nn.utils.spectral_norm(nn.Linear(4, 3), n_power_iterations=0))
E(lambda: spectral_norm(nn.Linear(4, 3), n_power_iterations=0))
E(lambda: orthogonal(nn.Linear(4, 3), orthogonal_map='foo'))
E(lambda: orthogonal(nn.Linear(4, 3), name='bias'))
E(lambda: orthogonal(nn.Linear(4, 3), name='nope'))
E(lambda: weight_norm(nn.Linear(4, 3), name='nope'))
m = nn.Linear(3, 3)
class Neg(nn.Module):
    def forward(self, X): return -X
    def right_inverse(self, X): return -X
P.register_parametrization(m, 'weight', Neg())
opt = torch.optim.SGD(m.parameters(), lr=0.1)
x = torch.randn(4, 3)
for _ in range(2):
    opt.zero_grad()
    with P.cached():
        l = m(x).pow(2).sum() + m.weight.sum()
    l.backward(); opt.step(); print(l.item())
print(m.parametrizations.weight.original)
class Split(nn.Module):
    def forward(self, A, B): return A + B
    def right_inverse(self, X): return X * 0.5, X * 0.5
m2 = nn.Linear(2, 2)
P.register_parametrization(m2, 'weight', Split())
print(sorted(m2.state_dict().keys()))
print(m2.parametrizations.weight.original0)
print(m2.parametrizations.weight.is_tensor if hasattr(m2.parametrizations.weight, 'is_tensor') else None, m2.parametrizations.weight.ntensors if hasattr(m2.parametrizations.weight, 'ntensors') else None)
print(repr(m2))
print(P.transfer_parametrizations_and_params(m2, nn.Linear(2, 2)))
'''


# fixed: PackedSequence(data, [list of sizes]) was accepted (PyTorch reads batch_sizes.device)
PROGRAMS['rnn_projections_packed_errors'] = PRE + r'''
import torch, torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pack_sequence, PackedSequence
torch.manual_seed(0)
lstm = nn.LSTM(3, 4, num_layers=2, bidirectional=True, proj_size=2, dropout=0.3, batch_first=True)
print(lstm)
print([(n, tuple(p.shape)) for n, p in lstm.named_parameters()][:6])
x = torch.randn(3, 5, 3)
p = pack_padded_sequence(x, torch.tensor([5, 2, 4]), batch_first=True, enforce_sorted=False)
out, (h, c) = lstm(p)
print(out.data.shape, h.shape, c.shape)
o, l = pad_packed_sequence(out, batch_first=True)
print(o[1], l)
loss = o.pow(2).sum() + h.sum() + c.sum(); loss.backward()
print(loss.item())
print(lstm.weight_hr_l1_reverse.grad)
lstm.eval()
o2, _ = lstm(x)
print(o2[0, -1])
gru = nn.GRU(3, 2, num_layers=2)
ps = pack_sequence([torch.randn(4, 3), torch.randn(3, 3), torch.randn(1, 3)])
print(ps.batch_sizes)
go, gh = gru(ps, torch.zeros(2, 3, 2))
print(go.data, gh)
E(lambda: gru(ps, torch.zeros(2, 2, 2)))
E(lambda: lstm(p, (torch.zeros(4, 3, 2), torch.zeros(4, 3, 4))))
rnn = nn.RNN(3, 2, nonlinearity='relu')
ro, rh = rnn(ps)
print(ro.data.sum().item(), rh)
print(PackedSequence(torch.ones(3, 1), torch.tensor([2, 1])))
print(ps._replace(data=ps.data * 0).data.sum())
print(len(ps), ps.count if hasattr(ps, 'count') else None, ps[1])
E(lambda: PackedSequence(torch.ones(3), [2, 1]))
cell = nn.LSTMCell(3, 2)
hx = cell(torch.randn(3))
print(hx[0].shape, hx[0].grad_fn)
E(lambda: cell(torch.randn(2, 3), (torch.zeros(3, 2), torch.zeros(3, 2))))
E(lambda: nn.LSTM(3, 4, proj_size=4))
E(lambda: nn.LSTM(3, 4, proj_size=-1))
E(lambda: nn.GRU(3, 4, proj_size=2))
W(lambda: nn.GRU(3, 4, dropout=0.5))
E(lambda: nn.RNN(3, 4, nonlinearity='gelu'))
E(lambda: nn.RNN(3, 0))
E(lambda: nn.RNN(3, 4, dropout=1.5))
'''


PROGRAMS['nested_reprs_and_state_dict'] = PRE + r'''
import torch, torch.nn as nn
torch.manual_seed(0)
class Block(nn.Module):
    def __init__(self, d, note):
        super().__init__()
        self.note = note
        self.ff = nn.Sequential(*[nn.Linear(d, d) for _ in range(3)], nn.GELU(approximate='tanh'))
        self.norm = nn.LayerNorm(d, elementwise_affine=False)
        self.scale = nn.Parameter(torch.ones(d))
        self.register_buffer('step', torch.zeros(()))
    def extra_repr(self):
        return f'note={self.note!r},\nmulti=line'
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block(2, 'a'), Block(2, 'a'), Block(3, 'b')])
        self.heads = nn.ModuleDict({'cls': nn.Linear(3, 2), 'reg': nn.Sequential()})
        self.plist = nn.ParameterList([nn.Parameter(torch.ones(2)), torch.zeros(3, dtype=torch.float64)])
        self.pdict = nn.ParameterDict({'w': nn.Parameter(torch.ones(1, 2))})
        self.empty = nn.Module()
        self.ident = nn.Identity(54, unused='x')
        self.stack = nn.Sequential(nn.Sequential(nn.Sequential(nn.ReLU())))
        self.drop = nn.ModuleList([nn.Dropout(0.1) for _ in range(4)])
net = Net()
print(net)
print(net.plist, net.pdict)
print(repr(nn.ModuleList()), repr(nn.Sequential()), repr(nn.ModuleDict()), repr(nn.ParameterList()))
sd = net.state_dict()
print(type(sd).__name__, list(sd.keys()))
print(sd._metadata)
print(sd['blocks.0.step'], sd['plist.1'])
print(net.blocks[0].extra_repr())
print(nn.Sequential(nn.Conv2d(1, 2, (3, 1), stride=(2, 1), padding='same' if False else 1, dilation=2, groups=1, bias=False, padding_mode='reflect'), nn.MaxPool2d(2, ceil_mode=True), nn.Upsample(scale_factor=2.0, mode='bilinear'), nn.Embedding(10, 3, padding_idx=0, max_norm=1.0), nn.EmbeddingBag(5, 2, mode='max'), nn.MultiheadAttention(4, 2, kdim=3, vdim=3), nn.TransformerEncoderLayer(4, 2, 8)))
print(nn.Sequential(nn.Sequential(nn.Linear(1, 1), nn.Linear(1, 1)), nn.Sequential(nn.Linear(1, 1), nn.Linear(1, 1))))
print(nn.ModuleList([nn.Linear(1, 1), nn.Linear(1, 1), nn.Linear(1, 2), nn.Linear(1, 2), nn.Linear(1, 2), nn.ReLU()]))
'''


PROGRAMS['swa_utils_training'] = PRE + r'''
import torch, torch.nn as nn
from torch.optim.swa_utils import AveragedModel, SWALR, update_bn, get_ema_multi_avg_fn, get_ema_avg_fn, get_swa_multi_avg_fn, get_swa_avg_fn
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1))
swa = AveragedModel(m)
print(swa)
print([n for n, _ in swa.named_parameters()][:3], [n for n, _ in swa.named_buffers()])
print(swa.n_averaged, swa.use_buffers)
ema = AveragedModel(m, multi_avg_fn=get_ema_multi_avg_fn(0.9), use_buffers=True)
ema2 = AveragedModel(m, avg_fn=get_ema_avg_fn(0.8))
swa2 = AveragedModel(m, avg_fn=get_swa_avg_fn())
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
sched = SWALR(opt, swa_lr=0.05, anneal_epochs=3, anneal_strategy='linear')
print(sched.get_last_lr(), opt.param_groups[0]['lr'])
x = torch.randn(16, 3); y = torch.randn(16, 1)
for ep in range(5):
    opt.zero_grad(); loss = ((m(x) - y) ** 2).mean(); loss.backward(); opt.step()
    swa.update_parameters(m); ema.update_parameters(m); ema2.update_parameters(m); swa2.update_parameters(m)
    sched.step()
    print(ep, loss.item(), sched.get_last_lr(), swa.n_averaged)
print(swa.module[0].weight)
print(ema.module[0].weight)
print(ema.module[1].running_mean, swa.module[1].running_mean)
print(ema2.module[3].bias, swa2.module[3].bias)
loader = [(x[:8], y[:8]), (x[8:], y[8:])]
update_bn(loader, swa)
print(swa.module[1].running_mean, swa.module[1].running_var, swa.module[1].momentum, swa.module[1].num_batches_tracked)
update_bn([x[:5], x[5:]], ema.module)
print(ema.module[1].running_var)
print(swa(x[:2]))
print(sorted(swa.state_dict().keys()))
E(lambda: SWALR(opt, swa_lr=0.1, anneal_strategy='exp'))
E(lambda: SWALR(opt, swa_lr=0.1, anneal_epochs=-1))
E(lambda: SWALR(opt, swa_lr=[0.1, 0.2]))
s2 = SWALR(opt, swa_lr=0.01, anneal_epochs=2)
print(s2.state_dict().keys())
for _ in range(3):
    opt.step(); s2.step(); print(s2.get_last_lr())
'''


# fixed: capturable=True stepped on the CPU (PyTorch raises its AssertionError)
PROGRAMS['lbfgs_state_and_optimizer_hooks'] = PRE + r'''
import torch, torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(3, 1)
x = torch.randn(6, 3); y = torch.randn(6, 1)
opt = torch.optim.LBFGS(m.parameters(), lr=0.8, max_iter=4, history_size=2, line_search_fn='strong_wolfe', tolerance_grad=1e-9)
def closure():
    opt.zero_grad(); l = ((m(x) - y) ** 2).mean(); l.backward(); return l
for _ in range(2):
    print(opt.step(closure).item())
sd = opt.state_dict()
st = sd['state'][0]
print(sorted(st.keys()), st['func_evals'], st['n_iter'])
print(st['d'], st['t'], type(st['t']).__name__, st['prev_loss'], type(st['prev_loss']).__name__)
print(len(st['old_dirs']), st['H_diag'])
print(sd['param_groups'])
E(lambda: opt.step())
E(lambda: torch.optim.LBFGS(m.parameters(), line_search_fn='armijo').step(closure))
o2 = torch.optim.Adam([{'params': [m.weight]}, {'params': [m.bias], 'lr': 0.5}], lr=0.1)
E(lambda: o2.load_state_dict({'state': {}, 'param_groups': [{'params': [0]}]}))
E(lambda: o2.load_state_dict({'state': {}, 'param_groups': [{'params': [0, 1]}, {'params': []}]}))
E(lambda: o2.load_state_dict({'param_groups': []}))
def pre(opt, args, kwargs): print('pre', type(opt).__name__, args, kwargs)
def post(opt, args, kwargs): print('post', len(opt.state))
h1 = o2.register_step_pre_hook(pre); h2 = o2.register_step_post_hook(post)
closure2 = lambda: ((m(x) - y) ** 2).mean()
o2.zero_grad(); closure2().backward(); o2.step()
h1.remove(); h2.remove(); o2.step()
o2.register_state_dict_pre_hook(lambda o: print('sd pre'))
o2.register_state_dict_post_hook(lambda o, sd: (print('sd post', sorted(sd)), sd)[1])
o2.register_load_state_dict_pre_hook(lambda o, sd: print('load pre', len(sd['state'])))
o2.register_load_state_dict_post_hook(lambda o: print('load post'))
s = o2.state_dict(); o2.load_state_dict(s)
print(o2.state_dict()['state'][1])
o3 = torch.optim.Adam(m.parameters(), lr=0.1, capturable=True)
m(x).sum().backward(); E(lambda: o3.step())
o4 = torch.optim.SGD(m.parameters(), lr=0.1)
o4.load_state_dict(torch.optim.SGD(m.parameters(), lr=0.7, momentum=0.2).state_dict())
print(o4.param_groups[0]['lr'], o4.param_groups[0]['momentum'], o4.defaults['lr'])
print(repr(o4.state), len(o4.param_groups[0]['params']))
E(lambda: m.train('x'))
E(lambda: o4.zero_grad(set_to_none='x'))
'''


# fixed: capturable=True stepped on the CPU (PyTorch raises its AssertionError)
PROGRAMS['capturable_on_cpu'] = PRE + r'''
import torch, torch.nn as nn
for cls in [torch.optim.Adam, torch.optim.AdamW, torch.optim.Adamax, torch.optim.Adadelta, torch.optim.NAdam, torch.optim.RAdam, torch.optim.RMSprop, torch.optim.Rprop, torch.optim.ASGD]:
    w = nn.Parameter(torch.ones(2))
    o = cls([w], capturable=True)
    E(lambda: o.step())
    (w * 2).sum().backward()
    E(lambda: o.step())
    print(w)
    print(o.param_groups[0]['capturable'])
'''


PROGRAMS['train_tagger_packed_attention'] = PRE + r'''
import torch, torch.nn as nn, torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
torch.manual_seed(0)
class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(20, 8, padding_idx=0)
        self.conv = nn.Linear(8, 8)
        self.gru = nn.GRU(8, 6, batch_first=True, bidirectional=True)
        self.attn = nn.MultiheadAttention(12, 3, batch_first=True)
        self.norm = nn.LayerNorm(12)
        self.out = nn.Linear(12, 5)
    def forward(self, tok, lengths):
        e = self.emb(tok)
        e = F.gelu(self.conv(e))
        p = pack_padded_sequence(e, lengths, batch_first=True, enforce_sorted=False)
        h, _ = self.gru(p)
        h, _ = pad_packed_sequence(h, batch_first=True, total_length=tok.shape[1])
        mask = tok == 0
        a, w = self.attn(h, h, h, key_padding_mask=mask)
        return self.out(self.norm(h + a)), w
net = Tagger()
tok = torch.randint(1, 20, (4, 7)); lengths = torch.tensor([7, 3, 5, 2])
for i, L in enumerate(lengths.tolist()): tok[i, L:] = 0
tags = torch.randint(0, 5, (4, 7)); tags[tok == 0] = -100
opt = torch.optim.AdamW(net.parameters(), lr=0.01, weight_decay=0.05)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.02, total_steps=6)
for step in range(6):
    opt.zero_grad()
    logits, w = net(tok, lengths)
    loss = F.cross_entropy(logits.reshape(-1, 5), tags.reshape(-1), ignore_index=-100)
    loss.backward()
    n = nn.utils.clip_grad_norm_(net.parameters(), 1.0)
    opt.step(); sched.step()
    print(step, loss.item(), n.item())
print(w[1, :3])
print(net.out.bias)
print(net.emb.weight.grad[0])
'''


# fixed: the old spectral_norm registered no state-dict hooks (version metadata, pre-2018 upgrade); load_state_dict pre-hooks are stored as _WrappedHook
PROGRAMS['spectral_norm_old_state_dict_hooks'] = PRE + r'''
import torch, torch.nn as nn
import torch.utils.hooks
def V(d):
    return [type(v).__name__ if not callable(getattr(v, '__func__', None)) else repr(v) for v in d.values()]
def ID():
    return torch.utils.hooks.RemovableHandle(__import__('collections').OrderedDict()).id
from collections import OrderedDict
torch.manual_seed(0)
i0 = ID()
sn = nn.utils.spectral_norm(nn.Linear(4, 3))
print(ID() - i0)
print(V(sn._state_dict_hooks))
print(V(sn._load_state_dict_pre_hooks))
sd = sn.state_dict()
print(sd._metadata)
sn(torch.randn(2, 4))
sd = sn.state_dict()
old = OrderedDict((k, v) for k, v in sd.items() if k != 'weight_v')
old['weight'] = sn.weight.detach().clone()
old._metadata = OrderedDict({'': {'version': 1}})
sn2 = nn.utils.spectral_norm(nn.Linear(4, 3))
print(sn2.load_state_dict(old))
print(sn2.weight_v.shape, sn.weight_v)
sn2.eval(); sn.eval()
print(sn2(torch.ones(1, 4)), sn(torch.ones(1, 4)))
print(sn2.load_state_dict(sd))
bad = OrderedDict((k, v) for k, v in sd.items() if k != 'weight_v')
bad._metadata = OrderedDict({'': {'version': 1}})
E(lambda: sn2.load_state_dict(bad))
print(sn2.load_state_dict(bad, strict=False))
nn.utils.remove_spectral_norm(sn2)
print(V(sn2._state_dict_hooks), V(sn2._load_state_dict_pre_hooks), V(sn2._forward_pre_hooks))
print(sn2.state_dict()._metadata)
E(lambda: nn.utils.remove_spectral_norm(sn2))
seq = nn.Sequential(nn.utils.spectral_norm(nn.Conv2d(1, 2, 2)), nn.utils.spectral_norm(nn.ConvTranspose2d(2, 1, 2)))
print(seq.state_dict()._metadata)
'''


# fixed: load_state_dict pre-hooks with_module were lambdas holding the module (a deepcopy called the original)
PROGRAMS['wrapped_load_hooks_copy_pickle'] = PRE + r'''
import torch, torch.nn as nn, io, copy
from torch.nn.utils.parametrizations import weight_norm
torch.manual_seed(0)
m = weight_norm(nn.Linear(3, 2))
sn = nn.utils.spectral_norm(nn.Linear(3, 2))
for mod in (m, sn):
    buf = io.BytesIO(); E(lambda: torch.save(mod, buf)); buf.seek(0)
    m2 = torch.load(buf, weights_only=False) if mod is sn else copy.deepcopy(mod)
    print(type(m2).__name__, list(m2._load_state_dict_pre_hooks.values())[0].__class__.__name__)
    c = copy.deepcopy(mod)
    h = list(c._load_state_dict_pre_hooks.values())[0]
    print(getattr(h, 'module', lambda: None)() is c, h.with_module, getattr(h, '__name__', None))
    print(c.load_state_dict(mod.state_dict()))
    print(m2.load_state_dict(mod.state_dict()))
def myhook(module, sd, prefix, *rest):
    print('pre hook', type(module).__name__, prefix, sorted(sd))
l = nn.Linear(1, 1)
h = l.register_load_state_dict_pre_hook(myhook)
print(l._load_state_dict_pre_hooks[h.id].__name__, l._load_state_dict_pre_hooks[h.id].__wrapped__ is myhook)
nn.Sequential(l).load_state_dict({'0.weight': torch.ones(1, 1), '0.bias': torch.zeros(1)})
'''


PROGRAMS['optimizer_state_dicts_all'] = PRE + r'''
import torch, torch.nn as nn
for cls, kw in [(torch.optim.Rprop, {}), (torch.optim.ASGD, dict(t0=1)), (torch.optim.NAdam, {}), (torch.optim.RAdam, {}), (torch.optim.Adagrad, {}), (torch.optim.Adamax, {}), (torch.optim.Adadelta, {}), (torch.optim.RMSprop, dict(centered=True, momentum=0.5)), (torch.optim.SGD, dict(lr=0.1, momentum=0.9)), (torch.optim.Adam, dict(amsgrad=True)), (torch.optim.Adafactor, {}), (torch.optim.LBFGS, {})]:
    torch.manual_seed(0)
    w = nn.Parameter(torch.randn(2, 2)); b = nn.Parameter(torch.randn(2))
    o = cls([w, b], **kw)
    for _ in range(2):
        def cl():
            o.zero_grad(); l = (w @ torch.tensor([1., -1.]) + b).pow(2).sum(); l.backward(); return l
        o.step(cl)
    print(cls.__name__, o.state_dict())
    print(w)
'''


# fixed: a lazy module's state_dict showed tensor([]) for its placeholders (PyTorch: <UninitializedParameter>); nn.utils.convert_conv2d_weight_memory_format was missing
PROGRAMS['lazy_and_hooks_misc'] = PRE + r'''
import torch, torch.nn as nn
import torch.nn.utils.parametrize as P
torch.manual_seed(0)
class Grow(nn.Module):
    def forward(self, X): return torch.cat([X, X], 0)
m = nn.Linear(2, 3)
P.register_parametrization(m, 'weight', Grow(), unsafe=True)
print(m.weight.shape, m(torch.ones(1, 2)).shape if False else None)
print(m.parametrizations.weight.unsafe)
E(lambda: P.register_parametrization(nn.Linear(2, 3), 'weight', Grow()))
s = nn.utils.skip_init(nn.Linear, 3, 2)
print(s.weight.shape, type(s).__name__)
E(lambda: nn.utils.skip_init(nn.ReLU))
E(lambda: nn.utils.skip_init(int))
lin = nn.Linear(2, 2)
for p in lin.parameters(): p.requires_grad_(False)
calls = []
lin.register_full_backward_hook(lambda mod, gi, go: print('bw', gi, [g.shape for g in go]))
x = torch.ones(1, 2, requires_grad=True)
lin(x).sum().backward(); print(x.grad)
y = lin(torch.ones(1, 2))
print(y.requires_grad)
l2 = nn.Linear(2, 2)
l2.register_forward_pre_hook(lambda mod, inp: inp[0] * 0)
print(l2(torch.ones(1, 2)) - l2.bias)
l2.register_forward_hook(lambda mod, inp, out: None)
print(l2(torch.ones(2)).shape)
l3 = nn.Linear(2, 2)
l3.register_forward_pre_hook(lambda mod, inp: (inp[0], 5))
E(lambda: l3(torch.ones(2)))
W(lambda: nn.Linear(2, 2).register_backward_hook(lambda *a: None))
lz = nn.LazyLinear(3)
print(lz, lz.has_uninitialized_params())
lz(torch.ones(2, 4)); print(lz, type(lz).__name__, lz.weight.shape)
print(nn.LazyLinear(3).state_dict())
gen = (p for p in nn.Linear(2, 2).parameters())
print(nn.utils.clip_grad_norm_(gen, 1.0))
c = nn.Conv2d(2, 3, 2)
c2 = nn.utils.convert_conv2d_weight_memory_format(c, torch.channels_last)
print(c2.weight.is_contiguous(memory_format=torch.channels_last), c2.weight.stride())
print(nn.utils.parameters_to_vector(nn.Linear(1, 1).parameters()).shape)
'''


# fixed: nn.LazyInstanceNorm1d/2d/3d were missing; InstanceNorm did not check num_features against the input
PROGRAMS['lazy_instance_norm'] = PRE + r'''
import torch, torch.nn as nn
torch.manual_seed(0)
for cls in [nn.LazyInstanceNorm1d, nn.LazyInstanceNorm2d, nn.LazyInstanceNorm3d]:
    m = cls()
    print(m, type(m).__name__, m.has_uninitialized_params())
    print(m.state_dict())
    n = cls.cls_to_become
    shape = {nn.InstanceNorm1d: (2, 3, 5), nn.InstanceNorm2d: (2, 3, 4, 2), nn.InstanceNorm3d: (2, 3, 2, 2, 2)}[n]
    x = torch.randn(*shape)
    y = m(x)
    print(m, type(m).__name__, y.grad_fn, m.weight.shape, m.running_mean)
    E(lambda: cls()(torch.randn(3)))
m = nn.LazyInstanceNorm1d(affine=False, track_running_stats=False, eps=1e-3)
print(m, list(m.state_dict()))
print(m(torch.randn(3, 4)).shape, m)
m2 = nn.LazyInstanceNorm2d(momentum=None)
E(lambda: m2(torch.randn(2, 5, 3)).shape)
print(m2.num_features, m2.running_mean.shape, m2)
E(lambda: m2(torch.randn(2, 4, 3, 3)))
m3 = nn.InstanceNorm1d(3)
W(lambda: m3(torch.randn(2, 4, 5)).shape)
E(lambda: nn.InstanceNorm1d(3, affine=True)(torch.randn(2, 4, 5)))
print(isinstance(nn.LazyInstanceNorm1d(), nn.modules.batchnorm._BatchNorm), isinstance(nn.LazyBatchNorm1d(), nn.modules.batchnorm._BatchNorm))
print(nn.LazyBatchNorm2d(), nn.LazyBatchNorm1d.cls_to_become)
'''


# fixed: nn.CrossMapLRN2d was missing
PROGRAMS['cross_map_lrn2d'] = PRE + r'''
import torch, torch.nn as nn
torch.manual_seed(0)
m = nn.CrossMapLRN2d(3, alpha=0.1, beta=0.75, k=2)
print(m, nn.CrossMapLRN2d(5))
x = torch.randn(2, 5, 3, 2, requires_grad=True)
y = m(x)
print(y.grad_fn, type(y.grad_fn).__name__)
print(y[1, :, 0])
g = torch.randn(2, 5, 3, 2)
y.backward(g)
print(x.grad[0, :, 1])
print(x.grad.double().sum().item(), y.double().sum().item())
E(lambda: m(torch.randn(5, 3, 2)))
m4 = nn.CrossMapLRN2d(4, alpha=1.0, beta=0.5)
x2 = torch.randn(1, 6, 2, 2, requires_grad=True)
y2 = m4(x2); y2.sum().backward()
print(y2.view(6, -1)[:, 0], x2.grad.view(6, -1)[:, 1])
x3 = torch.randn(1, 2, 2, 2, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(lambda t: nn.CrossMapLRN2d(3)(t), (x3,)))
'''


# fixed: torch.optim.Muon was missing; a float16/bfloat16 norm accumulated in its own dtype
PROGRAMS['muon_optimizer'] = PRE + r'''
import torch, torch.nn as nn
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 3))
mats = [p for p in net.parameters() if p.ndim == 2]
others = [p for p in net.parameters() if p.ndim != 2]
opt = torch.optim.Muon(mats, lr=0.02)
opt2 = torch.optim.AdamW(others, lr=1e-2)
print(opt)
print(type(opt))
x = torch.randn(8, 4); y = torch.randn(8, 3)
for i in range(3):
    opt.zero_grad(); opt2.zero_grad()
    loss = ((net(x) - y) ** 2).mean(); loss.backward()
    opt.step(); opt2.step()
    print(i, loss.item())
print(net[0].weight)
print(net[2].weight)
print(opt.state_dict()['state'][1]['momentum_buffer'])
E(lambda: torch.optim.Muon(net.parameters()))
E(lambda: torch.optim.Muon(mats, lr=-1))
E(lambda: torch.optim.Muon(mats, momentum=-1))
E(lambda: torch.optim.Muon(mats, weight_decay=-1))
E(lambda: torch.optim.Muon(mats, adjust_lr_fn='x'))
o3 = torch.optim.Muon(mats, lr=0.1, nesterov=False, adjust_lr_fn='match_rms_adamw', ns_steps=3)
loss = ((net(x) - y) ** 2).mean(); loss.backward(); o3.step()
print(net[2].weight)
E(lambda: torch.optim.Muon(mats, ns_steps=100).step())
'''


# fixed: a float16/bfloat16 norm accumulated in its own dtype (PyTorch: float32, rounded once)
PROGRAMS['reduced_precision_norms'] = PRE + r'''
import torch
torch.manual_seed(0)
for shape in [(7,), (3, 40), (1000,), (5, 5, 5)]:
    for dt in [torch.bfloat16, torch.float16]:
        h = torch.randn(*shape).to(dt)
        print(h.norm().item(), h.norm(1).item(), h.norm(3).item(), h.norm(float('inf')).item(), torch.linalg.vector_norm(h.reshape(-1, shape[-1]), dim=-1)[:2].tolist(), h.norm(0).item())
'''


# fixed: lazy modules registered none of PyTorch's two hooks (_infer_parameters, _lazy_load_hook): hook ids drifted, load_state_dict into a lazy module failed
PROGRAMS['lazy_module_mixin_hooks'] = PRE + r'''
import torch, torch.nn as nn
import torch.utils.hooks
def V(d):
    return [type(v).__name__ if not callable(getattr(v, '__func__', None)) else repr(v) for v in d.values()]
def ID():
    return torch.utils.hooks.RemovableHandle(__import__('collections').OrderedDict()).id
torch.manual_seed(0)
for m in [nn.LazyLinear(3), nn.LazyConv2d(4, 3), nn.LazyConvTranspose1d(2, 2), nn.LazyBatchNorm1d(), nn.LazyInstanceNorm2d()]:
    print(V(m._forward_pre_hooks), V(m._load_state_dict_pre_hooks))
    print(m.has_uninitialized_params(), type(m).cls_to_become)
l = nn.LazyLinear(3)
print(l(torch.randn(2, 5)).shape, V(l._forward_pre_hooks), V(l._load_state_dict_pre_hooks), hasattr(l, '_initialize_hook'), type(l).__name__)
l2 = nn.LazyLinear(3)
print(l2.load_state_dict(nn.Linear(4, 3).state_dict()), l2.weight.shape, type(l2).__name__, type(l2.weight).__name__)
print(l2(torch.ones(1, 4)).shape, type(l2).__name__)
c = nn.LazyConv1d(2, 3)
E(lambda: c(torch.randn(5)))
print(c)
net = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(2))
print(net(torch.randn(3, 7)).shape, net)
print(nn.modules.lazy.LazyModuleMixin.__name__)
class MyLazy(nn.modules.lazy.LazyModuleMixin, nn.Linear):
    cls_to_become = nn.Linear
    def __init__(self):
        super().__init__(0, 2)
        self.weight = nn.UninitializedParameter()
    def initialize_parameters(self, x):
        self.weight.materialize((2, x.shape[-1]))
ml = MyLazy() if hasattr(nn, 'UninitializedParameter') else None
print(V(ml._forward_pre_hooks))
i0 = ID(); nn.LazyConv1d(2, 2); nn.LazyBatchNorm2d(); nn.LazyLinear(1); print(ID() - i0)
'''


PROGRAMS['scheduler_errors_resume_closed_form'] = PRE + r'''
import torch, torch.nn as nn
from torch.optim import lr_scheduler as L
def mk(lr=0.1, **kw):
    return torch.optim.SGD([nn.Parameter(torch.zeros(2))], lr=lr, momentum=0.9, **kw)
o = mk()
E(lambda: L.OneCycleLR(o, max_lr=1.0))
E(lambda: L.OneCycleLR(o, max_lr=1.0, epochs=2))
E(lambda: L.OneCycleLR(o, max_lr=1.0, total_steps=0))
E(lambda: L.OneCycleLR(o, max_lr=1.0, epochs=-1, steps_per_epoch=2))
E(lambda: L.OneCycleLR(o, max_lr=1.0, total_steps=10, pct_start=1.5))
E(lambda: L.OneCycleLR(o, max_lr=1.0, total_steps=10, anneal_strategy='x'))
E(lambda: L.OneCycleLR(o, max_lr=[1.0, 2.0], total_steps=10))
E(lambda: L.OneCycleLR(torch.optim.Adagrad([nn.Parameter(torch.zeros(1))]), max_lr=1.0, total_steps=10))
s = L.OneCycleLR(o, max_lr=1.0, epochs=2, steps_per_epoch=3, div_factor=10, final_div_factor=100)
for _ in range(6):
    o.step(); s.step()
print(s.get_last_lr(), o.param_groups[0]['momentum'])
E(lambda: s.step())
sd = s.state_dict(); print(sorted(sd.keys()), sd['total_steps'], sd['_anneal_func_type'] if '_anneal_func_type' in sd else None)
o = mk()
s = L.CyclicLR(o, 0.01, 0.1, step_size_up=2, scale_fn=lambda x: 1.0)
print(sorted(s.state_dict().keys()))
s.load_state_dict(s.state_dict())
o = mk()
E(lambda: L.StepLR(o, 2, last_epoch=5))
o.param_groups[0]['initial_lr'] = 0.5
s = L.StepLR(o, 2, gamma=0.5, last_epoch=5)
print(s.get_last_lr(), s.last_epoch, o.param_groups[0]['lr'])
o = mk()
s = L.CosineAnnealingLR(o, T_max=4, eta_min=0.01)
for i in range(10):
    o.step(); s.step(); print(i, s.get_last_lr(), s._get_closed_form_lr() if hasattr(s, '_get_closed_form_lr') else None)
o = mk()
s = L.ReduceLROnPlateau(o, patience=0)
s.step(1.0); s.step(2.0)
sd = s.state_dict(); print(sd)
s2 = L.ReduceLROnPlateau(mk(), patience=5)
s2.load_state_dict(sd); print(s2.patience, s2.num_bad_epochs, s2.best)
o = mk()
s = L.LinearLR(o, start_factor=0.5, end_factor=1.0, total_iters=3)
E(lambda: L.LinearLR(o, start_factor=0))
E(lambda: L.LinearLR(o, end_factor=1.5))
E(lambda: L.ConstantLR(o, factor=2))
E(lambda: L.StepLR(o, step_size=0) if False else L.MultiStepLR(o, milestones=[3, 1]))
print([ (o.step(), s.step(), s.get_last_lr())[2] for _ in range(4)])
o = mk()
s = L.ExponentialLR(o, gamma=0.9)
print(s.get_lr(), s.get_last_lr())
print(L.LRScheduler.__init__.__defaults__)
'''


PROGRAMS['clip_grad_dtypes_and_norm_types'] = PRE + r'''
import torch, torch.nn as nn
torch.manual_seed(0)
a = torch.randn(3, requires_grad=True); b = torch.randn(2, dtype=torch.float64, requires_grad=True)
a.grad = torch.tensor([1., 2., 3.]); b.grad = torch.tensor([4., 5.], dtype=torch.float64)
E(lambda: nn.utils.clip_grad_norm_([a, b], 1.0))
print(a.grad, b.grad)
c = torch.randn(2, dtype=torch.float64, requires_grad=True); c.grad = torch.tensor([3., 4.], dtype=torch.float64)
n = nn.utils.clip_grad_norm_(c, 1.0); print(n, c.grad)
h = torch.randn(2, dtype=torch.float16, requires_grad=True); h.grad = torch.tensor([300., 400.], dtype=torch.float16)
n = nn.utils.clip_grad_norm_(h, 1.0); print(n, h.grad)
e = torch.zeros(0, requires_grad=True); e.grad = torch.zeros(0)
print(nn.utils.clip_grad_norm_([e], 1.0))
print(nn.utils.clip_grad_norm_([a], 1.0, norm_type=0.5), a.grad)
print(nn.utils.clip_grad_norm_([a], 1.0, norm_type=-float('inf')), a.grad)
E(lambda: nn.utils.clip_grad_norm_([a], 1.0, norm_type='fro'))
print(nn.utils.clip_grad_value_([a, b], 0.1), a.grad, b.grad)
E(lambda: nn.utils.clip_grad_value_([a], 'x'))
z = nn.Linear(2, 2)
print(nn.utils.clip_grad_norm_(z.parameters(), 1.0))
'''


PROGRAMS['prune_importance_scores_containers'] = PRE + r'''
import torch, torch.nn as nn
import torch.nn.utils.prune as prune
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 2))
scores = {m[0].weight: torch.arange(16.).view(4, 4), m[1].weight: -torch.arange(8.).view(2, 4)}
prune.global_unstructured([(m[0], 'weight'), (m[1], 'weight')], pruning_method=prune.L1Unstructured, importance_scores={(m[0], 'weight'): scores[m[0].weight], (m[1], 'weight'): scores[m[1].weight]}, amount=10)
print(m[0].weight_mask, m[1].weight_mask)
prune.l1_unstructured(m[0], 'bias', amount=2, importance_scores=torch.tensor([3., 1., 2., 0.]))
print(m[0].bias_mask)
meth = prune.L1Unstructured(amount=0.25)
print(meth.compute_mask(torch.tensor([1., -5., 2., 0.5]), torch.ones(4)))
print(prune.L1Unstructured.PRUNING_TYPE, prune.RandomStructured.PRUNING_TYPE, prune.LnStructured.PRUNING_TYPE)
E(lambda: prune.ln_structured(m[1], 'weight', amount=0.5, n=2, dim=3))
E(lambda: prune.global_unstructured([(m[0], 'weight')], pruning_method=prune.LnStructured, amount=1))
E(lambda: prune.random_unstructured(m[1], 'bias', amount=5))
E(lambda: prune.l1_unstructured(m[1], 'bias', amount=0.5, importance_scores=torch.ones(3)))
torch.manual_seed(3)
lin = nn.Linear(6, 4)
prune.random_structured(lin, 'weight', amount=0.5, dim=0)
prune.ln_structured(lin, 'weight', amount=1, n=1, dim=1)
prune.l1_unstructured(lin, 'weight', amount=3)
print(lin.weight_mask)
c = list(lin._forward_pre_hooks.values())[0]
print(type(c).__name__, len(c), [type(x).__name__ for x in c], c._tensor_name)
print(c[0].amount, c[2].amount)
x = torch.randn(2, 6)
lin(x).sum().backward()
print(lin.weight_orig.grad)
prune.remove(lin, 'weight')
print(lin.weight.requires_grad, type(lin.weight).__name__, list(lin._forward_pre_hooks))
'''


# fixed: ASGD(foreach=True) ran the single-tensor update (PyTorch's multi-tensor one rounds differently)
PROGRAMS['foreach_optimizers'] = PRE + r'''
import torch, torch.nn as nn
cfgs = [(torch.optim.SGD, dict(lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.1)), (torch.optim.SGD, dict(lr=0.1, momentum=0.9, dampening=0.3, maximize=True)),
 (torch.optim.Adam, dict(lr=0.01, weight_decay=0.1, amsgrad=True)), (torch.optim.AdamW, dict(lr=0.01)),
 (torch.optim.Adamax, dict(lr=0.01, weight_decay=0.1)), (torch.optim.Adadelta, dict(weight_decay=0.1)), (torch.optim.Adagrad, dict(lr_decay=0.1, weight_decay=0.1)),
 (torch.optim.NAdam, dict(weight_decay=0.1)), (torch.optim.NAdam, dict(decoupled_weight_decay=True, weight_decay=0.1)), (torch.optim.RAdam, dict(weight_decay=0.1)), (torch.optim.RAdam, dict(decoupled_weight_decay=True, weight_decay=0.1)),
 (torch.optim.RMSprop, dict(momentum=0.5, centered=True, weight_decay=0.1)), (torch.optim.Rprop, dict()), (torch.optim.ASGD, dict(t0=2, weight_decay=0.1))]
for cls, kw in cfgs:
    torch.manual_seed(0)
    w = nn.Parameter(torch.randn(3, 4)); b = nn.Parameter(torch.randn(4)); z = nn.Parameter(torch.randn(2, dtype=torch.float64))
    o = cls([w, b, z], foreach=True, **kw)
    for i in range(6):
        o.zero_grad()
        l = (w.sum(0) * b).pow(2).sum() + (w ** 3).mean() + z.pow(2).sum() * 0.3
        l.backward(); o.step()
    print(cls.__name__, l.item(), w.sum().item(), b.tolist(), z.tolist())
'''


# fixed: RMSprop, Adagrad, Rprop, Adamax, Adadelta crashed on complex parameters; Rprop's complex step sizes start at lr+lr·j
PROGRAMS['foreach_maximize_complex'] = PRE + r'''
import torch, torch.nn as nn
cfgs = [(torch.optim.ASGD, dict(t0=1, maximize=True, weight_decay=0.2, lambd=0.01)), (torch.optim.ASGD, dict(t0=3, lambd=0.5, alpha=0.5)),
        (torch.optim.Adam, dict(maximize=True, weight_decay=0.2)), (torch.optim.RMSprop, dict(maximize=True)), (torch.optim.Adagrad, dict(maximize=True)),
        (torch.optim.SGD, dict(lr=0.1)), (torch.optim.Rprop, dict(maximize=True)), (torch.optim.Adamax, dict(maximize=True)), (torch.optim.Adadelta, dict(maximize=True))]
for cls, kw in cfgs:
    for fe in (True, False):
        torch.manual_seed(0)
        w = nn.Parameter(torch.randn(3, 4)); c = nn.Parameter(torch.randn(2, dtype=torch.complex64))
        o = cls([w, c], foreach=fe, **kw)
        for i in range(5):
            o.zero_grad()
            l = (w ** 3).mean() + (c * c.conj()).real.sum() * 0.3 + (w.sum() * c).abs().sum()
            l.backward(); o.step()
        print(cls.__name__, fe, l.item(), w.sum().item(), c.tolist())
'''


# fixed: complex parameters in RMSprop/Adagrad/Rprop/Adamax/Adadelta/ASGD (real-pair updates, weight decay where PyTorch applies it)
PROGRAMS['complex_parameters_weight_decay'] = PRE + r'''
import torch, torch.nn as nn
cfgs = [(torch.optim.ASGD, dict(t0=1, weight_decay=0.2, lambd=0.01)), (torch.optim.RMSprop, dict(weight_decay=0.3, centered=True, momentum=0.5)),
        (torch.optim.Adagrad, dict(weight_decay=0.3, lr_decay=0.1)), (torch.optim.Adamax, dict(weight_decay=0.3)), (torch.optim.Adadelta, dict(weight_decay=0.3)),
        (torch.optim.Rprop, dict(etas=(0.3, 1.5))), (torch.optim.Adam, dict(weight_decay=0.3, amsgrad=True)), (torch.optim.NAdam, dict(weight_decay=0.3)), (torch.optim.RAdam, dict(weight_decay=0.3)), (torch.optim.SGD, dict(lr=0.1, momentum=0.9, weight_decay=0.3))]
for cls, kw in cfgs:
    for fe in (False, True):
        torch.manual_seed(0)
        c = nn.Parameter(torch.randn(3, dtype=torch.complex64))
        o = cls([c], foreach=fe, **kw)
        for i in range(4):
            o.zero_grad()
            l = (c * c.conj()).real.sum() * 0.3 + (c.sum() * (1 + 2j)).abs() + c.real.pow(3).sum()
            l.backward(); o.step()
        print(cls.__name__, fe, l.item(), c.tolist())
    print(sorted(o.state[c].keys()), [v.dtype for v in o.state[c].values()])
'''


# fixed: float16/bfloat16 optimizer steps multiplied/divided by numbers and ran addcmul/addcdiv/lerp in their own dtype (PyTorch: float32 opmath, one rounding)
PROGRAMS['half_precision_optimizers'] = PRE + r'''
import torch, torch.nn as nn
for dt in (torch.float16, torch.bfloat16):
    for cls, kw in [(torch.optim.Adam, dict(lr=0.01)), (torch.optim.AdamW, dict(lr=0.01, amsgrad=True)), (torch.optim.RMSprop, dict(lr=0.01)), (torch.optim.Adagrad, dict()), (torch.optim.NAdam, dict()), (torch.optim.RAdam, dict()), (torch.optim.Adamax, dict()), (torch.optim.Rprop, dict())]:
        torch.manual_seed(0)
        w = nn.Parameter(torch.randn(4, 3).to(dt))
        o = cls([w], **kw)
        for _ in range(3):
            o.zero_grad(); (w.float() ** 2).sum().backward(); o.step()
        print(dt, cls.__name__, w.flatten()[:6].tolist(), [v.dtype for v in o.state[w].values() if hasattr(v, 'dtype')])
for dt in (torch.float16, torch.bfloat16):
    for cls, kw in [(torch.optim.SGD, dict(lr=0.1, momentum=0.9, nesterov=True)), (torch.optim.Adam, dict(lr=0.01, weight_decay=0.1)), (torch.optim.RMSprop, dict(lr=0.01, momentum=0.5, centered=True))]:
        torch.manual_seed(0)
        w = nn.Parameter(torch.randn(64, 64).to(dt))
        o = cls([w], **kw)
        for _ in range(3):
            o.zero_grad(); (w.float() ** 2).sum().backward(); o.step()
        print(dt, cls.__name__, w.float().sum().item(), w.flatten()[:4].tolist())
'''


PROGRAMS['train_3d_unpool_fractional'] = PRE + r'''
import torch, torch.nn as nn
torch.manual_seed(0)
class AE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Conv3d(1, 2, 3, padding=1)
        self.pool = nn.MaxPool3d(2, return_indices=True)
        self.unpool = nn.MaxUnpool3d(2)
        self.dec = nn.Conv3d(2, 1, 3, padding=1)
        self.frac = nn.FractionalMaxPool3d(2, output_size=(3, 3, 3))
    def forward(self, x):
        h = torch.relu(self.enc(x))
        p, idx = self.pool(h)
        u = self.unpool(p, idx, output_size=h.shape)
        return self.dec(u), self.frac(h)
m = AE()
print(m)
opt = torch.optim.Adam(m.parameters(), lr=0.01)
x = torch.randn(2, 1, 6, 6, 6)
for i in range(3):
    opt.zero_grad()
    y, f = m(x)
    loss = (y - x).pow(2).mean() + f.mean()
    loss.backward(); opt.step()
    print(i, loss.item())
print(m.dec.bias, f.shape)
'''


# fixed: nn.Container, nn.NLLLoss2d and convert_conv2d/3d_weight_memory_format were missing
PROGRAMS['deprecated_container_nllloss2d_memory_format'] = PRE + r'''
import torch, torch.nn as nn
torch.manual_seed(0)
c = W(lambda: nn.Container(a=nn.ReLU(), b=nn.Linear(1, 2)))
print(c, isinstance(c, nn.Module))
n = W(lambda: nn.NLLLoss2d(ignore_index=1))
print(n, n.ignore_index, isinstance(n, nn.NLLLoss))
x = torch.randn(2, 3, 4, 4).log_softmax(1)
t = torch.randint(0, 3, (2, 4, 4))
print(n(x, t).item(), nn.NLLLoss(ignore_index=1)(x, t).item())
net = nn.Sequential(nn.Conv2d(2, 3, 2), nn.Sequential(nn.ConvTranspose2d(3, 2, 2)), nn.Conv3d(1, 1, 1))
nn.utils.convert_conv2d_weight_memory_format(net, torch.channels_last)
print(net[0].weight.stride(), net[1][0].weight.stride(), net[2].weight.stride())
nn.utils.convert_conv3d_weight_memory_format(net, torch.channels_last_3d)
print(net[2].weight.stride(), net[0].weight.is_contiguous())
y = net[0](torch.randn(1, 2, 3, 3))
print(y.stride(), y.is_contiguous(memory_format=torch.channels_last))
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
