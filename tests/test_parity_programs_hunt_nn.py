"""Parity programs found by a hunt for differences from PyTorch in nn / optim / data tutorial-style code.

Each program runs twice through ``parity.run_both`` (``import torch`` resolving to minigrad, then to PyTorch),
after ``parity.ERROR_PRELUDE`` (``E(f)`` prints an exception's type and message), and both stdouts must be
identical once object addresses are masked. The programs in the first part printed something different
from PyTorch before their fix: BatchNorm's bits (forward in train and eval, running statistics, backward),
the losses' dtype rules and checks (float64/integer targets, ``weight=``, size warnings of smooth_l1/huber),
``F.linear``'s errors, ``add``/``sub`` with ``alpha`` and ``lerp`` (one fused multiply-add),
``Embedding(scale_grad_by_freq=True)``, ``Module.type``, container operators, the iterable datasets and
samplers of ``torch.utils.data``, ``LambdaLR.state_dict`` with callable objects and a few messages. The
second part are tutorials and API tours that already matched, kept as guards. Warnings are printed by the
programs themselves, since only stdout is compared.
"""
from __future__ import annotations

import re
import warnings

import pytest
from parity import ERROR_PRELUDE, run_both

PROGRAMS: dict[str, str] = {}

# =============================================================================================
# Differences found (each fails without its fix)
# =============================================================================================

PROGRAMS['batchnorm_eval_and_running_stats_bits'] = r'''
import torch
from torch import nn
torch.manual_seed(16)
bn = nn.BatchNorm2d(2)
for _ in range(3):
    x = torch.randn(4, 2, 3, 3) * 3 + 2
    y = bn(x)
print(bn.running_mean.tolist(), bn.running_var.tolist(), bn.num_batches_tracked)
print(y[0, 0].tolist())
bn.eval()
print(bn(x)[0, 0].tolist())
bn1 = nn.BatchNorm1d(3, momentum=0.3)
for n in (2, 5, 16, 33):
    out = bn1(torch.randn(n, 3) * 2 - 1)
    print(n, out[:2].tolist(), bn1.running_mean.tolist(), bn1.running_var.tolist())
bn1.eval()
print(bn1(torch.randn(4, 3)).tolist())
bn3 = nn.BatchNorm1d(4, affine=False)
print(bn3(torch.randn(3, 4, 7))[0, :, :2].tolist(), bn3.running_var.tolist())
'''

PROGRAMS['batchnorm_backward_bits'] = r'''
import torch
import torch.nn.functional as F
torch.manual_seed(0)
for shape in [(5, 3), (2, 3), (16, 4), (64, 9), (4, 2, 3, 3), (3, 4, 7), (2, 3, 5, 5), (2, 2, 20)]:
    for training in (True, False):
        x = (torch.randn(*shape) * 3 + 1).requires_grad_()
        c = shape[1]
        w = (torch.rand(c) + 0.5).requires_grad_()
        b = torch.randn(c).requires_grad_()
        out = F.batch_norm(x, torch.zeros(c), torch.ones(c), w, b, training=training, momentum=0.3)
        out.backward(torch.randn(*shape))
        print(shape, training, x.grad.flatten()[:4].tolist(), w.grad.tolist(), b.grad.tolist())
x = torch.randn(6, 3, 4, requires_grad=True)
bn = torch.nn.BatchNorm1d(3)
(bn(x) * 0.37).sum().backward()          # an expanded (non-contiguous) gradient reaches the batch norm
print(x.grad[0].tolist(), bn.weight.grad.tolist(), bn.bias.grad.tolist())
x.grad = None
bn(x).mean().backward()
print(x.grad[1].tolist(), bn.bias.grad.tolist())
'''

PROGRAMS['bn_mlp_eval_predictions'] = r'''
import torch
from torch import nn
torch.manual_seed(10)
bn = nn.BatchNorm1d(3, momentum=0.2)
x = torch.randn(6, 3) * 2 + 1
y = bn(x)
print(y.round(decimals=4), y.grad_fn)
bn.eval()
print(bn(x).round(decimals=4))
m = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 3))
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
x = torch.randn(32, 4); t = torch.randint(0, 3, (32,))
for step in range(6):
    loss = nn.CrossEntropyLoss()(m(x), t)
    opt.zero_grad(); loss.backward(); opt.step()
    print(step, f"{loss.item():.6f}")
print(m[1].running_mean.round(decimals=5), m[1].weight.grad.round(decimals=5))
m.eval()
print(m(x[:3]).round(decimals=4))
'''

PROGRAMS['loss_target_dtypes'] = r'''
import torch
import torch.nn.functional as F
torch.manual_seed(0)
dts = [torch.float32, torch.float64, torch.float16, torch.int64, torch.int32, torch.bool]
losses = {
    'mse': lambda x, t: F.mse_loss(x, t), 'l1': lambda x, t: F.l1_loss(x, t, reduction='sum'),
    'smooth': lambda x, t: F.smooth_l1_loss(x, t), 'huber': lambda x, t: F.huber_loss(x, t),
    'bce': lambda x, t: F.binary_cross_entropy(x.sigmoid(), t),
    'bcel': lambda x, t: F.binary_cross_entropy_with_logits(x, t),
    'kl': lambda x, t: F.kl_div(x, t, reduction='sum'), 'kllog': lambda x, t: F.kl_div(x, t, log_target=True),
}
for name, f in losses.items():
    for di in (torch.float32, torch.float64):
        row = []
        for dt in dts:
            x = torch.rand(2, 3).to(di).requires_grad_()
            t = (torch.rand(2, 3) > 0.5).to(dt)
            try:
                r = f(x, t)
                row.append(f"{r.dtype}/{r.sum().item():.4f}")
                r.sum().backward()
                row.append(str(x.grad.dtype))
            except Exception as e:
                row.append(type(e).__name__ + ': ' + str(e))
        print(name, di, row)
'''

PROGRAMS['loss_checks_and_warnings'] = r'''
import torch, warnings
import torch.nn.functional as F
torch.manual_seed(1)
x = torch.randn(3, 4)
for f in (F.mse_loss, F.l1_loss, F.smooth_l1_loss, F.huber_loss):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        out = f(torch.randn(3, 1), torch.randn(3))
    print(f.__name__, out.shape, [str(a.message) for a in w])
E(lambda: F.kl_div(x, x, reduction='bogus'))
E(lambda: F.kl_div(x, torch.ones(3, 4, dtype=torch.long)))
E(lambda: F.smooth_l1_loss(x, x, beta=-1.0))
E(lambda: F.binary_cross_entropy(x.sigmoid(), torch.ones(3, 4, dtype=torch.float64)))
E(lambda: F.binary_cross_entropy_with_logits(x, torch.ones(3, 4, dtype=torch.long)))
E(lambda: F.binary_cross_entropy_with_logits(x, torch.ones(3, 4), pos_weight=torch.ones(4, dtype=torch.bool)))
E(lambda: F.huber_loss(x, torch.ones(3, 4), weight=torch.ones(4)))
E(lambda: F.mse_loss(x, torch.ones(3, 4), weight=torch.ones(3, 4), reduction='avg'))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    print(F.kl_div(x.log_softmax(1), x.softmax(1), size_average=False).round(decimals=4))
print([str(a.message) for a in w])
'''

PROGRAMS['weighted_regression_losses'] = r'''
import torch
import torch.nn.functional as F
torch.manual_seed(2)
x = torch.randn(3, 4, requires_grad=True)
t = torch.randn(3, 4)
w = torch.rand(3, 4)
for f in (F.mse_loss, F.l1_loss, F.huber_loss):
    for red in ('mean', 'sum', 'none'):
        out = f(x, t, reduction=red, weight=w)
        print(f.__name__, red, out.detach().round(decimals=4), out.grad_fn.name())
        out.sum().backward()
print(x.grad.round(decimals=4))
'''

PROGRAMS['linear_errors'] = r'''
import torch
import torch.nn.functional as F
w = torch.randn(3, 4); b = torch.randn(3)
E(lambda: F.linear(torch.tensor(2.), w, b))
E(lambda: F.linear(torch.randn(4), torch.tensor(2.)))
E(lambda: torch.nn.Linear(4, 3)(torch.tensor(3.)))
E(lambda: F.linear(torch.randn(2, 4), w, torch.randn(4)))
E(lambda: F.linear(torch.randn(2, 4), w.double(), b))
E(lambda: F.linear(torch.randn(2, 4), w, b.double()))
E(lambda: F.linear(torch.randn(2, 2, 4), w, b.double()))
E(lambda: F.linear(torch.randn(4), w, b.double()))
E(lambda: F.linear(torch.randn(2, 4).double(), w, b))
print(F.linear(torch.ones(4), torch.ones(4), torch.tensor(1.)))
'''

PROGRAMS['manual_sgd_with_alpha_and_lerp'] = r'''
import torch
torch.manual_seed(3)
x = torch.randn(64, 5); y = x @ torch.randn(5, 1) + 0.1 * torch.randn(64, 1)
w = torch.zeros(5, 1, requires_grad=True); b = torch.zeros(1, requires_grad=True)
for step in range(8):
    loss = ((x @ w + b - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w.add_(w.grad, alpha=-0.1)
        b.sub_(b.grad, alpha=0.1)
        w.grad.zero_(); b.grad.zero_()
print(w.flatten().tolist(), b.tolist())
a = torch.randn(1000); c = torch.randn(1000)
for v in (0.01, -0.3, 0.5, 0.7, 1.2):
    print(v, a.add(c, alpha=v).sum().item(), torch.sub(a, c, alpha=v).sum().item(), a.lerp(c, v).sum().item())
ema = torch.zeros(7)
for i in range(5):
    ema.lerp_(torch.randn(7), 0.1)
print(ema.tolist(), torch.lerp(a[:9], c[:9], torch.rand(9)).tolist())
'''

PROGRAMS['embedding_scale_grad_by_freq'] = r'''
import torch
from torch import nn
torch.manual_seed(7)
e = nn.Embedding(5, 3, scale_grad_by_freq=True, padding_idx=4)
print(e)
out = e(torch.tensor([[0, 0, 1, 3], [0, 4, 4, 1]]))
(out * torch.randn(2, 4, 3)).sum().backward()
print(e.weight.grad)
'''

PROGRAMS['module_type_and_dicts'] = r'''
import torch
from torch import nn
m = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
print(type(m._modules).__name__, type(m[0]._parameters).__name__, type(m[1]._buffers).__name__)
print(m._modules.keys())
m.type(torch.float64)
print(m[0].weight.dtype, m[1].num_batches_tracked.dtype, type(m[0].weight).__name__)
m.bfloat16()
print(m[0].bias.dtype, m[1].num_batches_tracked.dtype)
'''

PROGRAMS['containers_operators'] = r'''
import torch
from torch import nn
s = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
print(s + nn.Sequential(nn.Tanh()))
print(s * 2, 2 * nn.Sequential(nn.Tanh()))
s += nn.Sequential(nn.Sigmoid())
print(s)
E(lambda: s + nn.ReLU())
E(lambda: s * 0)
ml = nn.ModuleList([nn.ReLU(), nn.Tanh()])
ml += [nn.ELU()]
print(ml, ml + nn.ModuleList([nn.GELU()]))
E(lambda: ml.__setitem__(5, nn.ReLU()))
pd = nn.ParameterDict({'w': nn.Parameter(torch.ones(2)), 'b': nn.Parameter(torch.zeros(1))})
print(pd.get('w').shape, pd.get('zz', 3), pd.setdefault('c', nn.Parameter(torch.ones(3))).shape, list(pd))
print(pd.pop('b').shape, pd.popitem()[0], list(pd.keys()), list(reversed(pd)))
print(pd.copy(), (pd | nn.ParameterDict({'z': nn.Parameter(torch.zeros(2))})).keys())
pd.clear(); print(len(pd))
pl = nn.ParameterList([nn.Parameter(torch.zeros(2))])
pl += [nn.Parameter(torch.ones(1))]
print(pl)
'''

PROGRAMS['iterable_datasets_and_samplers'] = r'''
import torch
from torch.utils.data import (IterableDataset, DataLoader, ChainDataset, StackDataset, TensorDataset,
                              SubsetRandomSampler, WeightedRandomSampler, Subset, ConcatDataset, get_worker_info)
class Counter(IterableDataset):
    def __init__(self, n): self.n = n
    def __iter__(self):
        print('worker', get_worker_info())
        return iter(range(self.n))
    def __len__(self): return self.n
dl = DataLoader(Counter(7), batch_size=3)
print(len(dl), list(dl))
print(list(DataLoader(Counter(7), batch_size=3, drop_last=True)), len(DataLoader(Counter(7), batch_size=3, drop_last=True)))
print(list(DataLoader(Counter(3), batch_size=None)), list(DataLoader(Counter(6), batch_size=3)))
E(lambda: DataLoader(Counter(3), shuffle=True))
E(lambda: DataLoader(Counter(3), sampler=[0, 1]))
E(lambda: DataLoader(TensorDataset(torch.zeros(3)), batch_size=None, drop_last=True))
E(lambda: ConcatDataset([Counter(2)]))
c = Counter(2) + Counter(3)
print(type(c).__name__, list(c), len(c))
s = StackDataset(TensorDataset(torch.arange(3)), torch.arange(3) * 10)
print(s[1], len(s))
s2 = StackDataset(a=torch.arange(3), b=[4, 5, 6])
print(s2[2], list(DataLoader(s2, batch_size=2)))
E(lambda: StackDataset(torch.arange(3), torch.arange(2)))
E(lambda: StackDataset())
torch.manual_seed(0)
print(list(SubsetRandomSampler([10, 20, 30, 40])))
print(list(SubsetRandomSampler([1, 2, 3], generator=torch.Generator().manual_seed(5))))
print(list(WeightedRandomSampler([0.1, 0.9, 0.4, 0.7], 6)))
print(list(WeightedRandomSampler([0.1, 0.9, 0.4, 0.7], 3, replacement=False, generator=torch.Generator().manual_seed(1))))
ds = TensorDataset(torch.arange(10.))
print([b[0].tolist() for b in DataLoader(ds, batch_size=3, sampler=SubsetRandomSampler(range(0, 10, 2)))])
print([b[0].tolist() for b in DataLoader(ds, batch_size=4, sampler=WeightedRandomSampler(torch.arange(10.), 8))])
sub = Subset(ds, [1, 3, 5, 7])
print(sub.__getitems__([0, 2]), list(DataLoader(sub, batch_size=3)))
E(lambda: Subset(ConcatDataset([ds, ds]), [0, 12])[[0, 1]])
E(lambda: WeightedRandomSampler([1., 2.], 0))
E(lambda: WeightedRandomSampler([[1., 2.]], 2))
print(torch.rand(2))
'''

PROGRAMS['optimizer_and_scheduler_messages'] = r'''
import torch
from torch.optim import lr_scheduler as S
w = torch.nn.Parameter(torch.ones(2))
E(lambda: torch.optim.SGD({'a': w}, lr=0.1))
E(lambda: torch.optim.Adam([w, 3.0]))
E(lambda: S.StepLR(torch.optim.SGD([w], lr=1.0), step_size=2, last_epoch=3))
'''

PROGRAMS['lambda_lr_state_dict_callable_objects'] = r'''
import torch
from torch.optim import lr_scheduler as S
w = torch.nn.Parameter(torch.zeros(1))
class Decay:
    def __init__(self): self.k = 0.5
    def __call__(self, e): return self.k ** e
for cls in (S.LambdaLR, S.MultiplicativeLR):
    o = torch.optim.SGD([w], lr=1.0)
    s = cls(o, lr_lambda=Decay())
    o.step(); s.step(); o.step(); s.step()
    sd = s.state_dict()
    print(cls.__name__, sd)
    f2 = Decay(); f2.k = 0.1
    o2 = torch.optim.SGD([w], lr=1.0)
    s2 = cls(o2, lr_lambda=f2)
    s2.load_state_dict(sd)
    print(f2.k, s2.last_epoch, s2.get_last_lr(), sd['lr_lambdas'])
    o2.step(); s2.step(); print(s2.get_last_lr())
s = S.LambdaLR(torch.optim.SGD([w], lr=1.0), [lambda e: 0.9 ** e])
print(s.state_dict()['lr_lambdas'])
'''

PROGRAMS['softmin_warning_and_group_norm_message'] = r'''
import torch, warnings
import torch.nn.functional as F
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    F.softmin(torch.randn(2, 3))
    torch.nn.Softmin()(torch.randn(3))
print([str(a.message) for a in w])
E(lambda: torch.nn.GroupNorm(3, 4))
'''

PROGRAMS['layer_norm_bits'] = r'''
import torch
from torch import nn
import torch.nn.functional as F
torch.manual_seed(1)
for n in (3, 5, 8, 17, 33, 100, 300, 1030):
    x = torch.randn(4, n) * 3 - 0.5
    y = F.layer_norm(x, (n,))
    print(n, y[0, :3].tolist(), y[3, -2:].tolist())
for kw in [dict(), dict(bias=False), dict(elementwise_affine=False), dict(eps=1e-3)]:
    ln = nn.LayerNorm([4, 6], **kw)
    if ln.weight is not None:
        with torch.no_grad():
            ln.weight.uniform_(0.5, 1.5)
    x = torch.randn(3, 4, 6, requires_grad=True)
    y = ln(x)
    (y * torch.randn(3, 4, 6)).sum().backward()
    print(kw, y[0, 0].tolist(), x.grad[1, 2].tolist())
    print(ln.weight.grad[0].tolist() if ln.weight is not None else None, ln.bias.grad[1].tolist() if ln.bias is not None else None)
x = torch.randn(33, 20, requires_grad=True)
w = torch.rand(20, requires_grad=True); b = torch.randn(20, requires_grad=True)
F.layer_norm(x, (20,), w, b).backward(torch.randn(33, 20))
print(x.grad[5].tolist(), w.grad.tolist(), b.grad.tolist())
print(F.layer_norm(torch.randn(3, 7).double(), (7,)).tolist())
'''

PROGRAMS['cross_entropy_weighted_gradients'] = r'''
import torch
import torch.nn.functional as F
torch.manual_seed(3)
for shape in [(8, 5), (4, 10), (64, 100)]:
    x = torch.randn(*shape, requires_grad=True)
    t = torch.randint(0, shape[1], (shape[0],))
    w = torch.rand(shape[1])
    for kw in [dict(weight=w), dict(weight=w, label_smoothing=0.2), dict(weight=w, ignore_index=1), dict(weight=w, reduction='sum')]:
        l = F.cross_entropy(x, t, **kw)
        g, = torch.autograd.grad(l, x)
        print(shape, sorted(kw), l.item(), g.sum(1)[:3].tolist(), g[0].tolist()[:4])
    l = F.nll_loss(F.log_softmax(x, 1), t, weight=w)
    g, = torch.autograd.grad(l, x)
    print('nll', l.item(), g[1].tolist()[:4])
'''

PROGRAMS['pooling_bits_overlapping_windows'] = r'''
import torch
import torch.nn.functional as F
torch.manual_seed(6)
for shape in [(2, 3, 9, 11), (1, 4, 6, 6)]:
    x = torch.randn(*shape, requires_grad=True)
    outs = [F.max_pool2d(x, 3, 1, 1), F.max_pool2d(x, 3, 2, 1, ceil_mode=True), F.avg_pool2d(x, 2),
            F.avg_pool2d(x, 3, 1, 1), F.avg_pool2d(x, 3, 2, 1, count_include_pad=False), F.avg_pool2d(x, 3, 1, divisor_override=5),
            F.adaptive_avg_pool2d(x, (4, 5)), F.adaptive_avg_pool2d(x, (3, 2))]
    for o in outs:
        g, = torch.autograd.grad(o, x, torch.randn_like(o))
        print(shape, o.grad_fn.name(), o.flatten()[:3].tolist(), g.flatten()[8:11].tolist(), g.sum().item())
x = torch.randn(2, 5, 17, requires_grad=True)
for o in [F.max_pool1d(x, 3, 1, 1), F.avg_pool1d(x, 4, 2, 2, ceil_mode=True), F.adaptive_avg_pool1d(x, 6)]:
    g, = torch.autograd.grad(o, x, torch.randn_like(o))
    print(o.flatten()[:3].tolist(), g.flatten()[:4].tolist())
print(torch.nn.AvgPool2d(3, stride=1, padding=1)(torch.arange(16.).view(1, 1, 4, 4) / 7))
'''

PROGRAMS['module_registration_errors'] = r'''
import torch
from torch import nn
class NoSuper(nn.Module):
    def __init__(self):
        self.fc = nn.Linear(2, 2)
E(lambda: NoSuper())
class NoSuper2(nn.Module):
    def __init__(self):
        self.w = nn.Parameter(torch.ones(1))
E(lambda: NoSuper2())
class NoSuper3(nn.Module):
    def __init__(self):
        self.x = 3
E(lambda: NoSuper3())
class NoSuper4(nn.Module):
    def __init__(self):
        self.register_buffer('b', torch.ones(1))
E(lambda: NoSuper4())
m = nn.Linear(2, 2)
E(lambda: setattr(m, 'weight', torch.ones(2, 2)))
E(lambda: setattr(m, 'weight', 3))
m.weight = nn.Parameter(torch.zeros(2, 2))
print(m.weight)
m.bias = None
print(m, m.bias, list(m.state_dict()))
print(m(torch.ones(1, 2)))
E(lambda: m.add_module('a.b', nn.ReLU()))
E(lambda: m.add_module('', nn.ReLU()))
E(lambda: m.add_module(1, nn.ReLU()))
E(lambda: m.add_module('c', 3))
E(lambda: m.register_parameter('a.b', None))
E(lambda: m.register_buffer('x', 3))
E(lambda: m.register_buffer('weight', torch.ones(1)))
class Fwd(nn.Module):
    pass
E(lambda: Fwd()(torch.ones(1)))
E(lambda: nn.Module()(1))
E(lambda: m.get_parameter('nope'))
E(lambda: m.get_buffer('nope'))
E(lambda: nn.Sequential(nn.Linear(2, 2)).get_submodule('0.x'))
del m.weight
print(hasattr(m, 'weight'), [n for n, _ in m.named_parameters()])
'''

PROGRAMS['dataloader_argument_checks'] = r'''
import torch
from torch.utils.data import DataLoader, TensorDataset, Dataset
class Bad(Dataset):
    pass
E(lambda: len(Bad()))
E(lambda: Bad()[0])
E(lambda: list(DataLoader(Bad(), batch_size=2)))
E(lambda: DataLoader(TensorDataset(torch.zeros(4)), batch_size=0))
E(lambda: DataLoader(TensorDataset(torch.zeros(4)), batch_size=-1))
E(lambda: DataLoader(TensorDataset(torch.zeros(4)), batch_size=2.5))
E(lambda: DataLoader(TensorDataset(torch.zeros(4)), num_workers=-1))
E(lambda: list(DataLoader([torch.zeros(2), torch.zeros(3)], batch_size=2)))
E(lambda: list(DataLoader([{'a': 1}, {'b': 2}], batch_size=2)))
print(list(DataLoader([(1, 'x'), (2, 'y')], batch_size=2)))
print(list(DataLoader([[1, 2, 3], [4, 5, 6]], batch_size=2)))
print(list(DataLoader(torch.arange(5), batch_size=2)))
print(list(DataLoader(torch.arange(6).view(3, 2), batch_size=2)))
'''

PROGRAMS['legacy_register_backward_hook'] = r'''import torch, warnings
from torch import nn
torch.manual_seed(0)
lin = nn.Linear(3, 2)
def hook(m, gin, gout):
    print('legacy', type(m).__name__, [None if g is None else tuple(g.shape) for g in gin], [tuple(g.shape) for g in gout])
    print(gin[0] if gin[0] is not None else None)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    h = lin.register_backward_hook(hook)
    x = torch.randn(4, 3, requires_grad=True)
    lin(x).sum().backward()
    seq = nn.Sequential(nn.Linear(3, 3), nn.ReLU())
    seq.register_backward_hook(lambda m, gi, go: print('seq', len(gi), len(go)))
    seq(x).sum().backward()
    relu = nn.ReLU()
    relu.register_backward_hook(lambda m, gi, go: print('relu', gi[0].shape, go[0].shape))
    relu(x * 2).sum().backward()
    def scale(m, gi, go):
        return tuple(g * 0 if g is not None else None for g in gi)
    l2 = nn.Linear(3, 1)
    l2.register_backward_hook(scale)
    x.grad = None
    l2(x).sum().backward()
    print(x.grad, l2.weight.grad)
for ww in w: print(ww.category.__name__, str(ww.message))
E(lambda: lin.register_full_backward_hook(hook))
l3 = nn.Linear(2, 2); l3.register_full_backward_hook(lambda *a: None)
E(lambda: l3.register_backward_hook(hook))
h.remove()
lin(x).sum().backward()
print('removed')
'''

PROGRAMS['rprop_and_asgd'] = r'''import torch
torch.manual_seed(0)
for cls, kw in [(torch.optim.Rprop, {}), (torch.optim.Rprop, dict(lr=0.1, etas=(0.3, 1.5), step_sizes=(1e-3, 0.5))), (torch.optim.Rprop, dict(maximize=True)),
                (torch.optim.ASGD, {}), (torch.optim.ASGD, dict(lr=0.1, t0=3, weight_decay=0.01)), (torch.optim.ASGD, dict(lr=0.05, lambd=0.1, alpha=0.5, t0=0))]:
    w = torch.nn.Parameter(torch.tensor([1.0, -2.0, 3.0, 0.5]))
    opt = cls([w], **kw)
    for i in range(7):
        opt.zero_grad()
        (torch.sin(w * 3) + w ** 2).sum().backward()
        opt.step()
    print(cls.__name__, kw, w.tolist())
    print(opt)
    print(opt.state_dict()['state'][0])
E(lambda: torch.optim.Rprop([w], etas=(1.5, 1.2)))
E(lambda: torch.optim.ASGD([w], lr=-1))
torch.manual_seed(1)
m = torch.nn.Linear(3, 1)
opt = torch.optim.Rprop(m.parameters(), lr=0.01)
x = torch.randn(10, 3); y = torch.randn(10, 1)
for i in range(5):
    opt.zero_grad(); l = torch.nn.functional.mse_loss(m(x), y); l.backward(); opt.step()
    print(i, f"{l.item():.5f}")
'''

PROGRAMS['lbfgs_polynomial_fit'] = r'''import torch, math
torch.manual_seed(0)
x = torch.linspace(-math.pi, math.pi, 50)
y = 0.8 * x - 0.09 * x ** 3 + 0.01 * (x * 7).round()
for ls in (None, 'strong_wolfe'):
    a = torch.nn.Parameter(torch.zeros(4))
    opt = torch.optim.LBFGS([a], lr=0.5, max_iter=10, line_search_fn=ls, history_size=5)
    def closure():
        opt.zero_grad()
        pred = a[0] + a[1] * x + a[2] * x ** 2 + a[3] * x ** 3
        loss = ((pred - y) ** 2).mean()
        loss.backward()
        return loss
    for i in range(4):
        l = opt.step(closure)
        print(ls, i, f"{l.item():.6f}", a.tolist())
    st = opt.state[a]
    print(st['func_evals'], st['n_iter'], type(st['t']).__name__, len(st['old_dirs']), sorted(st.keys()))
    print(opt)
torch.manual_seed(1)
m = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
X = torch.randn(30, 2); Y = (X[:, :1] * X[:, 1:]).clamp(-1, 1)
opt = torch.optim.LBFGS(m.parameters(), line_search_fn='strong_wolfe')
def closure():
    opt.zero_grad()
    l = torch.nn.functional.mse_loss(m(X), Y)
    l.backward()
    return l
for i in range(3):
    print(i, f"{opt.step(closure).item():.5f}")
E(lambda: torch.optim.LBFGS([{'params': [torch.nn.Parameter(torch.ones(1))]}, {'params': [torch.nn.Parameter(torch.ones(1))]}]))
E(lambda: torch.optim.LBFGS([torch.nn.Parameter(torch.ones(1))], line_search_fn='foo').step(lambda: torch.ones(())))
'''

PROGRAMS['clip_grad_value_without_grads'] = r'''
import torch
from torch import nn
E(lambda: nn.utils.clip_grad_value_([], 1.0))
E(lambda: nn.utils.clip_grad_value_([nn.Parameter(torch.ones(2))], 1.0))
p = nn.Parameter(torch.ones(3)); p.grad = torch.tensor([3., -4., 0.5])
print(nn.utils.clip_grad_value_(p, 2.5), p.grad)
'''

PROGRAMS['data_and_scheduler_object_reprs'] = r'''import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
m = nn.Sequential(nn.Linear(2, 2))
print(m.parameters())
print(m.named_parameters())
print(m.children(), m.modules(), m.buffers(), m.named_modules())
dl = DataLoader(TensorDataset(torch.zeros(4)), batch_size=2)
it = iter(dl)
print(it)
print(type(it).__name__, len(it) if hasattr(it, '__len__') else 'nolen')
print(next(it), it._num_yielded if hasattr(it, '_num_yielded') else '')
print(dl.sampler, dl.batch_sampler)
print(TensorDataset(torch.zeros(1)))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
print(type(opt.state).__name__, opt.state)
print(opt.param_groups[0]['params'][0] is m[0].weight)
sched = torch.optim.lr_scheduler.StepLR(opt, 1)
print(sched)
print(torch.optim.lr_scheduler.ReduceLROnPlateau(opt))
'''

PROGRAMS['load_weights_only_default'] = r'''
import torch, io, collections, fractions
from torch import nn
torch.manual_seed(0)
for obj in [collections.OrderedDict(a=1), {'x': (1, 2.5, 'a', None, True)}, nn.Linear(1, 1), fractions.Fraction(1, 3),
            torch.Size([2]), torch.float32, torch.int64, {1, 2}, complex(1, 2), torch.device('cpu'),
            nn.Parameter(torch.ones(1)), torch.ones(2, dtype=torch.float16), torch.arange(3), nn.Linear(2, 2).state_dict(),
            [torch.zeros(1, requires_grad=True)], frozenset([1]), bytearray(b'ab'), collections.Counter('aba')]:
    buf = io.BytesIO(); torch.save(obj, buf); buf.seek(0)
    try: print(type(obj).__name__, 'ok', torch.load(buf))
    except Exception as e: print(type(obj).__name__, type(e).__name__, str(e))
buf = io.BytesIO(); torch.save(fractions.Fraction(2, 7), buf); buf.seek(0)
torch.serialization.add_safe_globals([fractions.Fraction])
print(torch.load(buf))
torch.serialization.clear_safe_globals()
buf.seek(0)
E(lambda: torch.load(buf))
buf.seek(0)
with torch.serialization.safe_globals([fractions.Fraction]):
    print(torch.load(buf))
buf.seek(0)
print(torch.load(buf, weights_only=False))
'''

PROGRAMS['save_load_whole_model'] = r'''import torch, io
from torch import nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
buf = io.BytesIO()
torch.save(model, buf)
buf.seek(0)
m2 = torch.load(buf, weights_only=False)
print(m2, type(m2).__name__)
print(torch.equal(m2[0].weight, model[0].weight), m2[0].weight.requires_grad, type(m2[0].weight).__name__)
buf.seek(0)
E(lambda: torch.load(buf))
opt = torch.optim.Adam(model.parameters())
buf = io.BytesIO(); torch.save(opt.state_dict(), buf); buf.seek(0)
print(torch.load(buf))
buf = io.BytesIO(); torch.save([torch.ones(2, dtype=torch.int64), {'a': torch.zeros(1, requires_grad=True)}], buf); buf.seek(0)
print(torch.load(buf))
'''


# =============================================================================================
# Tutorials and API tours that matched already (guards)
# =============================================================================================

PROGRAMS['lpwe_numpy_tensors'] = r'''
import torch, math
dtype = torch.float
torch.manual_seed(0)
x = torch.linspace(-math.pi, math.pi, 2000, dtype=dtype)
y = torch.sin(x)
a = torch.randn((), dtype=dtype)
b = torch.randn((), dtype=dtype)
c = torch.randn((), dtype=dtype)
d = torch.randn((), dtype=dtype)
learning_rate = 1e-6
for t in range(300):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum().item()
    if t % 100 == 99:
        print(t, f"{loss:.2f}")
    grad_y_pred = 2.0 * (y_pred - y)
    grad_a = grad_y_pred.sum()
    grad_b = (grad_y_pred * x).sum()
    grad_c = (grad_y_pred * x ** 2).sum()
    grad_d = (grad_y_pred * x ** 3).sum()
    a -= learning_rate * grad_a
    b -= learning_rate * grad_b
    c -= learning_rate * grad_c
    d -= learning_rate * grad_d
print(f'Result: y = {a.item():.3f} + {b.item():.3f} x + {c.item():.3f} x^2 + {d.item():.3f} x^3')
'''

PROGRAMS['lpwe_nn_sequential_poly'] = r'''
import torch, math
torch.manual_seed(1)
x = torch.linspace(-math.pi, math.pi, 200)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
print(xx.shape)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
print(model)
loss_fn = torch.nn.MSELoss(reduction='sum')
learning_rate = 1e-6
for t in range(50):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 10 == 9:
        print(t, f"{loss.item():.2f}")
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= learning_rate * param.grad
linear_layer = model[0]
print(f'Result: y = {linear_layer.bias.item():.3f} + {linear_layer.weight[:, 0].item():.3f} x')
print(model[1], model[0].weight.grad_fn, model[0].weight.requires_grad)
'''

PROGRAMS['lpwe_optim_rmsprop'] = r'''
import torch, math
torch.manual_seed(2)
x = torch.linspace(-math.pi, math.pi, 100)
y = torch.sin(x)
xx = x.unsqueeze(-1).pow(torch.tensor([1, 2, 3]))
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
loss_fn = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
print(optimizer)
for t in range(40):
    loss = loss_fn(model(xx), y)
    if t % 10 == 9:
        print(t, f"{loss.item():.3f}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
sd = optimizer.state_dict()
print(sd['param_groups'])
print(sorted(sd['state'][0].keys()), sd['state'][0]['step'])
'''

PROGRAMS['lpwe_custom_module_polynomial'] = r'''
import torch, math
class Polynomial3(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.randn(()))
        self.b = torch.nn.Parameter(torch.randn(()))
        self.c = torch.nn.Parameter(torch.randn(()))
        self.d = torch.nn.Parameter(torch.randn(()))
    def forward(self, x):
        return self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
    def string(self):
        return f'y = {self.a.item():.4f} + {self.b.item():.4f} x + {self.c.item():.4f} x^2 + {self.d.item():.4f} x^3'
torch.manual_seed(3)
x = torch.linspace(-math.pi, math.pi, 50)
y = torch.sin(x)
model = Polynomial3()
print(model)
print(list(model.named_parameters()))
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-6)
for t in range(30):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 10 == 9:
        print(t, f"{loss.item():.4f}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f'Result: {model.string()}')
print(model.state_dict())
'''

PROGRAMS['lpwe_dynamic_net'] = r'''
import random, torch, math
class DynamicNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.randn(()))
        self.b = torch.nn.Parameter(torch.randn(()))
        self.c = torch.nn.Parameter(torch.randn(()))
        self.d = torch.nn.Parameter(torch.randn(()))
        self.e = torch.nn.Parameter(torch.randn(()))
    def forward(self, x):
        y = self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
        for exp in range(4, random.randint(4, 6)):
            y = y + self.e * x ** exp
        return y
random.seed(0)
torch.manual_seed(4)
x = torch.linspace(-math.pi, math.pi, 40)
y = torch.sin(x)
model = DynamicNet()
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-8, momentum=0.9)
for t in range(30):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 10 == 9:
        print(t, f"{loss.item():.3f}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(optimizer.state_dict()['state'][0])
print(optimizer)
'''

PROGRAMS['lpwe_custom_function_legendre'] = r'''
import torch, math
class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)
    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)
torch.manual_seed(5)
x = torch.linspace(-math.pi, math.pi, 30)
y = torch.sin(x)
a = torch.full((), 0.0, requires_grad=True)
b = torch.full((), -1.0, requires_grad=True)
c = torch.full((), 0.0, requires_grad=True)
d = torch.full((), 0.3, requires_grad=True)
for t in range(20):
    P3 = LegendrePolynomial3.apply
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    if t % 5 == 4:
        print(t, f"{loss.item():.4f}", y_pred.grad_fn)
    loss.backward()
    with torch.no_grad():
        a -= 5e-6 * a.grad; b -= 5e-6 * b.grad; c -= 5e-6 * c.grad; d -= 5e-6 * d.grad
        a.grad = None; b.grad = None; c.grad = None; d.grad = None
print(a, b, c, d)
'''

PROGRAMS['build_nn_softmax_pred'] = r'''
import torch
from torch import nn
torch.manual_seed(6)
class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(nn.Linear(6*6, 12), nn.ReLU(), nn.Linear(12, 12), nn.ReLU(), nn.Linear(12, 5))
    def forward(self, x):
        x = self.flatten(x)
        return self.linear_relu_stack(x)
model = NeuralNetwork()
print(model)
X = torch.rand(1, 6, 6)
logits = model(X)
pred_probab = nn.Softmax(dim=1)(logits)
y_pred = pred_probab.argmax(1)
print(f"Predicted class: {y_pred}")
input_image = torch.rand(3, 6, 6)
print(input_image.size())
flat_image = nn.Flatten()(input_image)
print(flat_image.size())
layer1 = nn.Linear(in_features=36, out_features=7)
hidden1 = layer1(flat_image)
print(hidden1.size())
print(f"Before ReLU: {hidden1.detach().round(decimals=3)}\n\n")
hidden1 = nn.ReLU()(hidden1)
print(f"After ReLU: {hidden1.round(decimals=3)}")
print(f"Model structure: {model}\n\n")
for name, param in model.named_parameters():
    print(f"Layer: {name} | Size: {param.size()} | Values : {param[:2].round(decimals=4)} \n")
'''

PROGRAMS['optimizing_loop_tensordataset'] = r'''
import torch
from torch import nn
from torch.utils.data import TensorDataset, DataLoader
torch.manual_seed(7)
X = torch.randn(64, 10)
y = torch.randint(0, 3, (64,))
ds = TensorDataset(X, y)
train_dataloader = DataLoader(ds, batch_size=16, shuffle=True, generator=torch.Generator().manual_seed(1))
test_dataloader = DataLoader(ds, batch_size=20)
model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 3))
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-1)
def train_loop(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        pred = model(X)
        loss = loss_fn(pred, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 2 == 0:
            loss, current = loss.item(), batch * 16 + len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")
def test_loop(dataloader, model, loss_fn):
    model.eval()
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")
for t in range(3):
    print(f"Epoch {t+1}\n-------------------------------")
    train_loop(train_dataloader, model, loss_fn, optimizer)
    test_loop(test_dataloader, model, loss_fn)
print("Done!", len(train_dataloader), len(test_dataloader))
'''

PROGRAMS['lenet_forward'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(8)
class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)
    def forward(self, input):
        c1 = F.relu(self.conv1(input))
        s2 = F.max_pool2d(c1, (2, 2))
        c3 = F.relu(self.conv2(s2))
        s4 = F.max_pool2d(c3, 2)
        s4 = torch.flatten(s4, 1)
        f5 = F.relu(self.fc1(s4))
        f6 = F.relu(self.fc2(f5))
        output = self.fc3(f6)
        return output
net = Net()
print(net)
params = list(net.parameters())
print(len(params))
print(params[0].size())
input = torch.randn(1, 1, 32, 32)
out = net(input)
print(out.round(decimals=3), out.grad_fn)
net.zero_grad()
out.backward(torch.randn(1, 10))
output = net(input)
target = torch.randn(10)
target = target.view(1, -1)
criterion = nn.MSELoss()
loss = criterion(output, target)
print(f"{loss.item():.4f}")
print(loss.grad_fn)
print(loss.grad_fn.next_functions[0][0])
print(loss.grad_fn.next_functions[0][0].next_functions[0][0])
net.zero_grad()
print('conv1.bias.grad before backward')
print(net.conv1.bias.grad)
loss.backward()
print('conv1.bias.grad after backward')
print(net.conv1.bias.grad.round(decimals=4))
optimizer = torch.optim.SGD(net.parameters(), lr=0.01)
optimizer.zero_grad()
output = net(input)
loss = criterion(output, target)
loss.backward()
optimizer.step()
print(f"{criterion(net(input), target).item():.4f}")
'''

PROGRAMS['save_load_bytesio'] = r'''
import torch, io
from torch import nn
torch.manual_seed(9)
model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))
model(torch.randn(5, 3))
buf = io.BytesIO()
torch.save(model.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf)
print(type(sd).__name__, list(sd.keys()))
model2 = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))
print(model2.load_state_dict(sd))
print(model2[1].running_mean, model2[1].num_batches_tracked)
for (k, v), (k2, v2) in zip(model.state_dict().items(), model2.state_dict().items()):
    print(k, torch.equal(v, v2))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
model(torch.randn(5, 3)).sum().backward()
opt.step()
buf2 = io.BytesIO()
torch.save({'epoch': 3, 'model_state_dict': model.state_dict(), 'optimizer_state_dict': opt.state_dict(), 'loss': 0.25}, buf2)
buf2.seek(0)
ck = torch.load(buf2, weights_only=True)
print(ck['epoch'], ck['loss'], ck['optimizer_state_dict']['param_groups'])
opt2 = torch.optim.Adam(model2.parameters(), lr=0.5)
opt2.load_state_dict(ck['optimizer_state_dict'])
print(opt2)
'''

PROGRAMS['load_state_dict_errors'] = r'''
import torch
from torch import nn
m = nn.Linear(3, 2)
sd = m.state_dict()
sd['extra'] = torch.zeros(1)
E(lambda: m.load_state_dict(sd))
print(m.load_state_dict(sd, strict=False))
del sd['extra']; del sd['bias']
E(lambda: m.load_state_dict(sd))
sd = {'weight': torch.zeros(3, 3), 'bias': torch.zeros(2)}
E(lambda: m.load_state_dict(sd))
E(lambda: m.load_state_dict(sd, strict=False))
'''

PROGRAMS['batchnorm_train_eval'] = r'''
import torch
from torch import nn
torch.manual_seed(10)
bn = nn.BatchNorm1d(3, momentum=0.2)
print(bn)
x = torch.randn(6, 3) * 2 + 1
y = bn(x)
print(y.round(decimals=4), y.grad_fn)
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
print(bn(x).round(decimals=4))
print(bn.state_dict().keys())
bn2 = nn.BatchNorm2d(2, affine=False, track_running_stats=False)
print(bn2, list(bn2.state_dict().keys()))
z = torch.randn(2, 2, 3, 3)
print(bn2(z).mean().abs() < 1e-5, bn2(z).round(decimals=3)[0, 0])
bn3 = nn.BatchNorm1d(2, momentum=None)
for i in range(3):
    bn3(torch.randn(4, 2))
print(bn3.running_mean, bn3.running_var, bn3.num_batches_tracked)
'''

PROGRAMS['layernorm_dropout'] = r'''
import torch
from torch import nn
torch.manual_seed(11)
ln = nn.LayerNorm([3, 4], eps=1e-6, elementwise_affine=True)
print(ln, [n for n, _ in ln.named_parameters()])
x = torch.randn(2, 3, 4)
print(ln(x).round(decimals=4)[0])
ln2 = nn.LayerNorm(4, bias=False)
print(ln2, list(ln2.state_dict()))
d = nn.Dropout(p=0.3)
print(d)
x = torch.ones(3, 5)
print(d(x))
d.eval()
print(d(x), d.training)
d2 = nn.Dropout(0.5, inplace=True)
print(d2)
print(nn.Dropout1d(0.2), nn.Dropout2d(), nn.AlphaDropout(0.1))
'''

PROGRAMS['embedding_basics'] = r'''
import torch
from torch import nn
torch.manual_seed(12)
emb = nn.Embedding(10, 3)
print(emb)
inp = torch.LongTensor([[1, 2, 4, 5], [4, 3, 2, 9]])
print(emb(inp).shape)
emb2 = nn.Embedding(10, 3, padding_idx=0)
print(emb2, emb2.weight[0])
out = emb2(torch.LongTensor([[0, 2, 0, 5]]))
out.sum().backward()
print(emb2.weight.grad[:3])
w = torch.FloatTensor([[1, 2.3, 3], [4, 5.1, 6.3]])
e3 = nn.Embedding.from_pretrained(w)
print(e3, e3.weight.requires_grad)
print(e3(torch.LongTensor([1])))
E(lambda: emb(torch.tensor([10])))
E(lambda: emb(torch.tensor([1.0])))
'''

PROGRAMS['containers'] = r'''
import torch
from torch import nn
torch.manual_seed(13)
class MyModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.linears = nn.ModuleList([nn.Linear(4, 4) for i in range(3)])
        self.choices = nn.ModuleDict({'conv': nn.Conv2d(2, 3, 3), 'pool': nn.MaxPool2d(2)})
        self.activations = nn.ModuleDict([['lrelu', nn.LeakyReLU()], ['prelu', nn.ReLU6()]])
        self.params = nn.ParameterList([nn.Parameter(torch.randn(2, 2)) for i in range(2)])
        self.pd = nn.ParameterDict({'left': nn.Parameter(torch.randn(3)), 'right': nn.Parameter(torch.randn(1))})
    def forward(self, x):
        for i, l in enumerate(self.linears):
            x = self.linears[i // 2](x) + l(x)
        return x
m = MyModule()
print(m)
print([n for n, _ in m.named_parameters()])
print(len(m.linears), m.linears[-1], m.linears[1:])
print(list(m.choices.keys()), 'conv' in m.choices)
print(m(torch.randn(2, 4)).shape)
m.linears.append(nn.Linear(4, 2))
m.linears.insert(0, nn.Identity())
print(m.linears)
s = nn.Sequential()
s.add_module('fc', nn.Linear(2, 2))
s.append(nn.Tanh())
print(s, s[-1], len(s))
print(s[0:1])
del s[0]
print(s)
'''

PROGRAMS['losses_regression'] = r'''
import torch
from torch import nn
torch.manual_seed(14)
inp = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5)
for L in [nn.MSELoss(), nn.L1Loss(), nn.SmoothL1Loss(), nn.SmoothL1Loss(beta=0.5), nn.HuberLoss(), nn.HuberLoss(delta=0.3), nn.MSELoss(reduction='sum'), nn.L1Loss(reduction='none')]:
    out = L(inp, target)
    print(L, out.grad_fn.name(), out.detach().round(decimals=4))
    out.sum().backward()
print(inp.grad.round(decimals=4))
'''

PROGRAMS['losses_classification'] = r'''
import torch
from torch import nn
torch.manual_seed(15)
inp = torch.randn(4, 5, requires_grad=True)
target = torch.tensor([1, 0, 4, 2])
w = torch.tensor([1., 2., 0.5, 1., 3.])
for L in [nn.CrossEntropyLoss(), nn.CrossEntropyLoss(weight=w), nn.CrossEntropyLoss(label_smoothing=0.1), nn.CrossEntropyLoss(ignore_index=4), nn.CrossEntropyLoss(weight=w, label_smoothing=0.2, reduction='sum'), nn.CrossEntropyLoss(reduction='none')]:
    out = L(inp, target)
    print(L, out.grad_fn, f"{out.sum().item():.4f}")
    out.sum().backward()
print(inp.grad.round(decimals=4))
logp = torch.log_softmax(inp, 1)
for L in [nn.NLLLoss(), nn.NLLLoss(weight=w), nn.NLLLoss(ignore_index=1, reduction='none')]:
    print(L, L(logp, target).detach().round(decimals=4))
probs = torch.softmax(inp, 1)
print(nn.CrossEntropyLoss()(inp, probs).item().__round__(4))
'''

PROGRAMS['losses_binary'] = r'''
import torch
from torch import nn
torch.manual_seed(16)
x = torch.randn(3, 4, requires_grad=True)
t = torch.empty(3, 4).random_(2)
print(t)
p = torch.sigmoid(x)
for L in [nn.BCELoss(), nn.BCELoss(weight=torch.tensor([1., 2., 1., 0.5])), nn.BCELoss(reduction='sum')]:
    out = L(p, t)
    print(L, out.grad_fn, round(out.item(), 4))
pw = torch.tensor([1., 2., 3., 4.])
for L in [nn.BCEWithLogitsLoss(), nn.BCEWithLogitsLoss(pos_weight=pw), nn.BCEWithLogitsLoss(reduction='none', weight=torch.ones(4) * 0.5)]:
    out = L(x, t)
    print(L, out.grad_fn, out.detach().round(decimals=4))
    out.sum().backward()
print(x.grad.round(decimals=4))
E(lambda: nn.BCELoss()(torch.tensor([1.5]), torch.tensor([1.])))
E(lambda: nn.BCELoss()(p, t[:2]))
E(lambda: nn.BCEWithLogitsLoss()(x, t[:2]))
'''

PROGRAMS['init_functions'] = r'''
import torch
from torch import nn
torch.manual_seed(18)
w = torch.empty(3, 5)
print(nn.init.uniform_(w, a=-0.1, b=0.1))
print(nn.init.normal_(w, std=0.02))
print(nn.init.constant_(w, 0.3))
print(nn.init.ones_(w)); print(nn.init.zeros_(w))
print(nn.init.eye_(w))
print(nn.init.xavier_uniform_(w, gain=nn.init.calculate_gain('relu')))
print(nn.init.xavier_normal_(w))
print(nn.init.kaiming_uniform_(w, mode='fan_in', nonlinearity='relu'))
print(nn.init.kaiming_normal_(w, mode='fan_out', nonlinearity='leaky_relu', a=0.1))
print(nn.init.trunc_normal_(w, std=0.5, a=-0.5, b=0.5))
print(nn.init.orthogonal_(torch.empty(3, 3)))
print(nn.init.sparse_(torch.empty(4, 2), sparsity=0.5))
c = torch.empty(2, 3, 3, 3)
print(nn.init.dirac_(torch.empty(3, 3, 3)))
for g in ['linear', 'conv2d', 'sigmoid', 'tanh', 'relu', 'selu']:
    print(g, nn.init.calculate_gain(g))
print(nn.init.calculate_gain('leaky_relu', 0.2))
E(lambda: nn.init.calculate_gain('foo'))
E(lambda: nn.init.xavier_uniform_(torch.empty(3)))
'''

PROGRAMS['hooks_forward'] = r'''
import torch
from torch import nn
torch.manual_seed(19)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
acts = {}
def get_activation(name):
    def hook(model, input, output):
        acts[name] = output.detach()
        print('hook', name, type(input).__name__, len(input), output.shape)
    return hook
h1 = model[0].register_forward_hook(get_activation('fc1'))
def pre(module, args):
    print('pre', module, args[0].shape)
    return (args[0] * 2,)
h2 = model[2].register_forward_pre_hook(pre)
out = model(torch.randn(2, 3))
print(acts['fc1'].round(decimals=3), type(h1).__name__)
h1.remove(); h2.remove()
model(torch.randn(1, 3))
def fwd_kw(m, args, kwargs, out):
    print('kw', kwargs)
model[0].register_forward_hook(fwd_kw, with_kwargs=True)
model(torch.randn(1, 3))
def bhook(module, grad_input, grad_output):
    print('bwd', module, [g.shape if g is not None else None for g in grad_input], [g.shape for g in grad_output])
model[2].register_full_backward_hook(bhook)
x = torch.randn(2, 3, requires_grad=True)
model(x).sum().backward()
def bpre(module, grad_output):
    print('bpre', grad_output[0].shape)
model[1].register_full_backward_pre_hook(bpre)
model(x).sum().backward()
'''

PROGRAMS['freezing_counting'] = r'''
import torch
from torch import nn
torch.manual_seed(20)
model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 4))
print(sum(p.numel() for p in model.parameters()))
for p in model[:2].parameters():
    p.requires_grad_(False)
print(sum(p.numel() for p in model.parameters() if p.requires_grad))
model[5].requires_grad_(True)
print([(n, p.requires_grad) for n, p in model.named_parameters()])
out = model(torch.randn(2, 3, 5, 5))
out.sum().backward()
print(model[0].weight.grad, model[5].bias.grad)
opt = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.1)
print(opt)
print(list(model.named_buffers())[0][0], [n for n, _ in model.named_modules()])
print(model.training, model.eval().training, model[1].training)
'''

PROGRAMS['clip_grad'] = r'''
import torch
from torch import nn
torch.manual_seed(21)
model = nn.Linear(5, 3)
out = model(torch.randn(4, 5)).pow(2).sum()
out.backward()
tn = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
print(tn.round(decimals=4), tn.grad_fn)
print(model.weight.grad.round(decimals=4))
tn = nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5, norm_type='inf')
print(tn)
tn = nn.utils.clip_grad_norm_(model.parameters(), 0.1, norm_type=1)
print(tn.round(decimals=4))
nn.utils.clip_grad_value_(model.parameters(), clip_value=0.01)
print(model.weight.grad)
v = nn.utils.parameters_to_vector(model.parameters())
print(v.shape, v.grad_fn)
nn.utils.vector_to_parameters(torch.arange(18.), model.parameters())
print(model.weight, model.bias)
print(nn.utils.clip_grad_norm_([], 1.0))
'''

PROGRAMS['sgd_variants'] = r'''
import torch
torch.manual_seed(22)
for kw in [dict(lr=0.1), dict(lr=0.1, momentum=0.9), dict(lr=0.1, momentum=0.9, nesterov=True), dict(lr=0.05, weight_decay=0.01, momentum=0.5, dampening=0.1), dict(lr=0.1, maximize=True)]:
    w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    opt = torch.optim.SGD([w], **kw)
    for i in range(3):
        opt.zero_grad()
        loss = (w ** 2).sum() + w.sum()
        loss.backward()
        opt.step()
    print(kw, w)
print(opt)
E(lambda: torch.optim.SGD([w], lr=0.1, nesterov=True))
E(lambda: torch.optim.SGD([w], lr=-1))
E(lambda: torch.optim.SGD([w], lr=0.1, momentum=-0.5))
E(lambda: torch.optim.SGD([], lr=0.1))
'''

PROGRAMS['adam_variants'] = r'''
import torch
for cls, kw in [(torch.optim.Adam, dict(lr=0.1)), (torch.optim.Adam, dict(lr=0.1, amsgrad=True)), (torch.optim.AdamW, dict(lr=0.1)), (torch.optim.AdamW, dict(lr=0.1, weight_decay=0.1, amsgrad=True)), (torch.optim.Adam, dict(lr=0.01, betas=(0.8, 0.9), eps=1e-6, weight_decay=0.1))]:
    w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    opt = cls([w], **kw)
    for i in range(4):
        opt.zero_grad()
        loss = (w ** 2).sum() + 3 * w.sum()
        loss.backward()
        opt.step()
    print(cls.__name__, kw, w)
    print(opt)
    st = opt.state_dict()['state'][0]
    print({k: v for k, v in st.items()})
E(lambda: torch.optim.Adam([w], betas=(1.0, 0.9)))
E(lambda: torch.optim.Adam([w], eps=-1))
'''

PROGRAMS['other_optims'] = r'''
import torch
for cls, kw in [(torch.optim.RMSprop, dict(lr=0.01)), (torch.optim.RMSprop, dict(lr=0.01, momentum=0.9, centered=True)), (torch.optim.Adagrad, dict(lr=0.1)), (torch.optim.Adagrad, dict(lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1)), (torch.optim.Adadelta, dict()), (torch.optim.Adadelta, dict(lr=0.5, rho=0.8)), (torch.optim.Adamax, dict(lr=0.1)), (torch.optim.NAdam, dict(lr=0.1)), (torch.optim.RAdam, dict(lr=0.1))]:
    w = torch.tensor([[1.0, -2.0], [0.5, 3.0]], requires_grad=True)
    opt = cls([w], **kw)
    for i in range(6):
        opt.zero_grad()
        loss = (w ** 2).sum() + w.sum()
        loss.backward()
        opt.step()
    print(cls.__name__, kw, w)
    print(opt)
    print(opt.state_dict()['state'][0].keys())
'''

PROGRAMS['param_groups'] = r'''
import torch
from torch import nn
torch.manual_seed(23)
model = nn.Sequential(nn.Linear(2, 3), nn.Linear(3, 1))
opt = torch.optim.SGD([{'params': model[0].parameters()}, {'params': model[1].parameters(), 'lr': 1e-3}], lr=1e-2, momentum=0.9)
print(opt)
print(len(opt.param_groups), [g['lr'] for g in opt.param_groups])
opt.add_param_group({'params': [nn.Parameter(torch.zeros(2))], 'lr': 0.5})
print(opt)
sd = opt.state_dict()
print(sd['param_groups'])
E(lambda: opt.add_param_group({'params': model[0].weight}))
for g in opt.param_groups:
    g['lr'] *= 0.1
print([g['lr'] for g in opt.param_groups])
model(torch.randn(4, 2)).sum().backward()
opt.step()
print(opt.state_dict()['state'].keys())
opt.zero_grad(set_to_none=False)
print(model[0].bias.grad)
opt.zero_grad()
print(model[0].bias.grad)
'''

PROGRAMS['schedulers_basic'] = r'''
import torch
from torch.optim import lr_scheduler as S
w = torch.nn.Parameter(torch.zeros(2))
def mk(lr=0.1):
    return torch.optim.SGD([w], lr=lr)
for name, f in [('StepLR', lambda o: S.StepLR(o, step_size=3, gamma=0.5)), ('MultiStepLR', lambda o: S.MultiStepLR(o, milestones=[2, 5], gamma=0.1)), ('ExponentialLR', lambda o: S.ExponentialLR(o, gamma=0.9)), ('CosineAnnealingLR', lambda o: S.CosineAnnealingLR(o, T_max=5, eta_min=0.01)), ('LambdaLR', lambda o: S.LambdaLR(o, lr_lambda=lambda e: 0.95 ** e)), ('LinearLR', lambda o: S.LinearLR(o, start_factor=0.25, total_iters=4)), ('ConstantLR', lambda o: S.ConstantLR(o, factor=0.5, total_iters=3)), ('MultiplicativeLR', lambda o: S.MultiplicativeLR(o, lambda e: 0.9)), ('PolynomialLR', lambda o: S.PolynomialLR(o, total_iters=4, power=2.0)), ('CosineAnnealingWarmRestarts', lambda o: S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2))]:
    o = mk()
    s = f(o)
    lrs = []
    for e in range(8):
        o.step()
        s.step()
        lrs.append(s.get_last_lr()[0])
    print(name, lrs)
    print(s.state_dict().keys() if name != 'LambdaLR' else '')
'''

PROGRAMS['onecycle_plateau'] = r'''
import torch
from torch.optim import lr_scheduler as S
w = torch.nn.Parameter(torch.zeros(2))
o = torch.optim.SGD([w], lr=0.1, momentum=0.9)
s = S.OneCycleLR(o, max_lr=1.0, total_steps=10)
for i in range(10):
    o.step(); s.step()
    print(i, s.get_last_lr(), o.param_groups[0]['momentum'])
o = torch.optim.Adam([w], lr=0.01)
s = S.OneCycleLR(o, max_lr=0.1, steps_per_epoch=3, epochs=2, anneal_strategy='linear')
for i in range(6):
    o.step(); s.step()
    print(i, s.get_last_lr(), o.param_groups[0]['betas'])
o = torch.optim.SGD([w], lr=0.1)
s = S.ReduceLROnPlateau(o, mode='min', factor=0.5, patience=1)
for i, v in enumerate([1.0, 0.9, 0.95, 0.96, 0.97, 0.5, 0.6, 0.7, 0.8]):
    s.step(v)
    print(i, o.param_groups[0]['lr'], s.num_bad_epochs, s.get_last_lr())
print(s.state_dict())
'''

PROGRAMS['random_split_dataloader'] = r'''
import torch
from torch.utils.data import TensorDataset, DataLoader, random_split
torch.manual_seed(24)
ds = TensorDataset(torch.arange(10.).view(10, 1), torch.arange(10))
print(len(ds), ds[3])
a, b = random_split(ds, [7, 3], generator=torch.Generator().manual_seed(42))
print(len(a), len(b), a.indices, b.indices)
c, d, e = random_split(ds, [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(0))
print(c.indices, d.indices, e.indices)
dl = DataLoader(a, batch_size=3, shuffle=True, generator=torch.Generator().manual_seed(1))
for xb, yb in dl:
    print(xb.view(-1), yb)
dl = DataLoader(ds, batch_size=4, drop_last=True)
print(len(dl), [y.tolist() for _, y in dl])
dl = DataLoader(ds, batch_size=4, shuffle=True)
print([y.tolist() for _, y in dl])
print(next(iter(DataLoader(ds, batch_size=None)))[0])
'''

PROGRAMS['whatis_nn_really'] = r'''
import torch, math
import torch.nn.functional as F
from torch import nn
torch.manual_seed(25)
x_train = torch.rand(100, 20)
y_train = torch.randint(0, 4, (100,))
n, c = x_train.shape
weights = torch.randn(20, 4) / math.sqrt(20)
weights.requires_grad_()
bias = torch.zeros(4, requires_grad=True)
def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)
def model(xb):
    return log_softmax(xb @ weights + bias)
bs = 16
xb = x_train[0:bs]
preds = model(xb)
print(preds[0].round(decimals=4), preds.shape, preds.grad_fn)
def nll(input, target):
    return -input[range(target.shape[0]), target].mean()
loss_func = nll
yb = y_train[0:bs]
print(f"{loss_func(preds, yb).item():.4f}", loss_func(preds, yb).grad_fn)
def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()
print(accuracy(preds, yb))
lr = 0.5
epochs = 2
for epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
        start_i = i * bs
        end_i = start_i + bs
        xb = x_train[start_i:end_i]
        yb = y_train[start_i:end_i]
        pred = model(xb)
        loss = loss_func(pred, yb)
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
print(f"{loss_func(model(xb), yb).item():.4f}", accuracy(model(xb), yb))
loss_func = F.cross_entropy
class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(20, 4)
    def forward(self, xb):
        return self.lin(xb)
model = Mnist_Logistic()
print(f"{loss_func(model(xb), yb).item():.4f}")
def get_model():
    model = Mnist_Logistic()
    return model, torch.optim.SGD(model.parameters(), lr=lr)
model, opt = get_model()
from torch.utils.data import TensorDataset, DataLoader
train_ds = TensorDataset(x_train, y_train)
train_dl = DataLoader(train_ds, batch_size=bs)
for epoch in range(epochs):
    model.train()
    for xb, yb in train_dl:
        loss = loss_func(model(xb), yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
    model.eval()
    with torch.no_grad():
        valid_loss = sum(loss_func(model(xb), yb) for xb, yb in train_dl)
    print(epoch, f"{(valid_loss / len(train_dl)).item():.4f}")
'''

PROGRAMS['activation_modules'] = r'''
import torch
from torch import nn
torch.manual_seed(27)
x = torch.randn(2, 4)
acts = [nn.ReLU(), nn.ReLU(inplace=True), nn.LeakyReLU(0.2), nn.ELU(alpha=0.5), nn.SELU(), nn.CELU(), nn.GELU(), nn.GELU(approximate='tanh'), nn.SiLU(), nn.Mish(), nn.Sigmoid(), nn.Tanh(), nn.Softplus(beta=2, threshold=10), nn.Softsign(), nn.Hardtanh(-0.5, 0.5), nn.Hardswish(), nn.Hardsigmoid(), nn.ReLU6(), nn.LogSigmoid(), nn.Softmax(dim=1), nn.LogSoftmax(dim=-1), nn.Softmin(dim=1), nn.Tanhshrink(), nn.Softshrink(0.3), nn.Hardshrink(), nn.GLU(), nn.Identity(), nn.Softmax2d()]
for a in acts:
    if isinstance(a, nn.Softmax2d):
        print(a, a(torch.randn(1, 2, 2, 2)).shape); continue
    y = a(x.clone())
    print(a, y.round(decimals=4)[0])
'''

PROGRAMS['module_api_misc'] = r'''
import torch
from torch import nn
torch.manual_seed(28)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.register_buffer('steps', torch.zeros(1))
        self.register_buffer('tmp', torch.ones(1), persistent=False)
        self.scale = nn.Parameter(torch.ones(1))
    def forward(self, x):
        return self.fc(x) * self.scale
net = Net()
print(net)
print(list(net.state_dict().keys()))
print([n for n, _ in net.named_buffers()])
print([n for n, _ in net.named_children()])
print(net.get_parameter('fc.weight').shape, net.get_submodule('fc'))
def init_weights(m):
    if isinstance(m, nn.Linear):
        torch.nn.init.constant_(m.weight, 0.5)
        m.bias.data.fill_(0.01)
net.apply(init_weights)
print(net.fc.weight, net.fc.bias)
print(net.fc.extra_repr())
net.half()
print(net.fc.weight.dtype, net.steps.dtype)
net.double()
print(net.fc.weight)
net.float()
net.to(torch.float64)
print(net.scale)
E(lambda: net.get_submodule('nope'))
E(lambda: setattr(net, 'fc', 3))
E(lambda: net.register_buffer('fc', torch.zeros(1)))
E(lambda: net.register_parameter('x', torch.zeros(1)))
E(lambda: net.nope)
net.requires_grad_(False)
print(net.scale.requires_grad)
print(net.zero_grad())
'''

PROGRAMS['flatten_unflatten'] = r'''
import torch
from torch import nn
x = torch.arange(24.).view(2, 3, 4)
f = nn.Flatten(); print(f, f(x).shape)
f = nn.Flatten(0, 1); print(f, f(x).shape)
u = nn.Unflatten(1, (2, 6)); print(u, u(x.view(2, 12)).shape)
u = nn.Unflatten(1, torch.Size([3, 4])); print(u, u(x.view(2, 12)).shape)
print(f(x).grad_fn, nn.Flatten()(x.requires_grad_()).grad_fn)
m = nn.Sequential(nn.Linear(12, 12), nn.Unflatten(1, (3, 4)))
print(m, m(torch.randn(1, 12)).shape)
E(lambda: nn.Unflatten(1, (5, 5))(torch.randn(2, 12)))
'''

PROGRAMS['parameter_repr'] = r'''
import torch
from torch import nn
torch.manual_seed(29)
p = nn.Parameter(torch.randn(2, 3))
print(p)
print(repr(p))
print(nn.Parameter(torch.tensor([1, 2]), requires_grad=False))
print(p * 2)
print(p.data)
print(nn.Parameter(torch.zeros(2, dtype=torch.float64)))
print(type(p).__name__, isinstance(p, torch.Tensor), p.is_leaf)
q = nn.Parameter()
print(q, q.shape)
print(p.detach())
print(nn.Parameter(torch.randn(2, 2)).t())
print(torch.nn.parameter.Buffer(torch.ones(2)) if hasattr(torch.nn.parameter, 'Buffer') else '')
E(lambda: nn.Parameter(torch.tensor([1, 2])))
'''

PROGRAMS['rnn_basic'] = r'''
import torch
from torch import nn
torch.manual_seed(30)
rnn = nn.LSTM(4, 3, num_layers=2, batch_first=True)
print(rnn)
x = torch.randn(2, 5, 4)
out, (h, c) = rnn(x)
print(out.shape, h.shape, c.shape, out.grad_fn)
print([n for n, _ in rnn.named_parameters()])
g = nn.GRU(4, 3, bidirectional=True)
print(g)
o, h = g(torch.randn(5, 2, 4))
print(o.shape, h.shape)
r = nn.RNN(4, 3, nonlinearity='relu', bias=False)
print(r, r(torch.randn(3, 4))[0].shape)
cell = nn.LSTMCell(4, 3)
print(cell, [t.shape for t in cell(torch.randn(2, 4))])
'''

PROGRAMS['loss_errors'] = r'''
import torch
from torch import nn
import torch.nn.functional as F
torch.manual_seed(1)
x = torch.randn(3, 4)
E(lambda: nn.CrossEntropyLoss()(x, torch.tensor([0, 1, 4])))
E(lambda: nn.CrossEntropyLoss()(x, torch.tensor([0, 1])))
E(lambda: nn.CrossEntropyLoss()(x, torch.tensor([0., 1., 2.])))
E(lambda: nn.CrossEntropyLoss()(x, torch.tensor([[0, 1, 2]])))
E(lambda: nn.NLLLoss()(x, torch.tensor([0, 1, -1])))
E(lambda: nn.CrossEntropyLoss(weight=torch.ones(3))(x, torch.tensor([0, 1, 2])))
E(lambda: nn.CrossEntropyLoss(reduction='avg')(x, torch.tensor([0, 1, 2])))
E(lambda: nn.MSELoss()(x, torch.randn(3, 4, dtype=torch.float64)))
E(lambda: nn.MSELoss()(x, torch.randn(3, 5)))
print(nn.MSELoss()(x, torch.randn(4)).item() > 0)
E(lambda: nn.L1Loss()(x, torch.randint(0, 2, (3, 4))))
E(lambda: nn.BCELoss()(torch.rand(3), torch.tensor([1, 0, 1])))
E(lambda: nn.BCEWithLogitsLoss()(torch.rand(3), torch.tensor([1, 0, 1])))
E(lambda: F.cross_entropy(torch.randn(2, 3), torch.tensor([1, 2]), label_smoothing=1.5))
E(lambda: F.nll_loss(torch.randn(2, 3, 4), torch.tensor([1, 2])))
E(lambda: F.kl_div(x, x, reduction='bogus'))
'''

PROGRAMS['dataset_utilities'] = r'''
import torch
from torch.utils.data import Dataset, DataLoader, TensorDataset, Subset, ConcatDataset, random_split
class Squares(Dataset):
    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        return {'x': torch.tensor([float(i)]), 'y': i * i, 'name': f'item{i}'}
ds = Squares(7)
dl = DataLoader(ds, batch_size=3)
for b in dl:
    print(b)
sub = Subset(ds, [1, 3, 5])
print(len(sub), sub[1])
cat = ConcatDataset([TensorDataset(torch.zeros(2, 1)), TensorDataset(torch.ones(3, 1))])
print(len(cat), cat[3], cat.cumulative_sizes)
dl = DataLoader(cat, batch_size=2)
print([b for b in dl])
E(lambda: TensorDataset(torch.zeros(2), torch.zeros(3)))
E(lambda: random_split(range(5), [2, 2]))
print([list(s) for s in random_split(range(5), [2, 3], generator=torch.Generator().manual_seed(3))])
def collate(batch):
    return len(batch)
print(list(DataLoader(range(10), batch_size=4, collate_fn=collate)))
print(list(DataLoader(range(5), batch_size=2)))
print(list(DataLoader([(1, 2.0), (3, 4.0)], batch_size=2)))
print(list(DataLoader([[1, 2], [3, 4]], batch_size=2)))
import numpy as np
print(list(DataLoader([np.array([1., 2.]), np.array([3., 4.])], batch_size=2)))
'''

PROGRAMS['dataloader_shuffle_seed'] = r'''
import torch
from torch.utils.data import DataLoader, TensorDataset, RandomSampler, SequentialSampler, BatchSampler
torch.manual_seed(5)
ds = TensorDataset(torch.arange(12))
dl = DataLoader(ds, batch_size=5, shuffle=True)
for epoch in range(2):
    print([b[0].tolist() for b in dl])
print(list(RandomSampler(range(6), generator=torch.Generator().manual_seed(2))))
print(list(RandomSampler(range(6), replacement=True, num_samples=4, generator=torch.Generator().manual_seed(2))))
print(list(SequentialSampler(range(4))))
print(list(BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=False)))
print(list(BatchSampler(range(10), 4, True)))
dl = DataLoader(ds, sampler=RandomSampler(ds, generator=torch.Generator().manual_seed(9)), batch_size=4)
print([b[0].tolist() for b in dl])
dl = DataLoader(ds, batch_sampler=BatchSampler(SequentialSampler(ds), 5, False))
print([b[0].tolist() for b in dl], len(dl))
E(lambda: DataLoader(ds, shuffle=True, sampler=SequentialSampler(ds)))
E(lambda: DataLoader(ds, batch_size=2, batch_sampler=BatchSampler(SequentialSampler(ds), 5, False)))
print(torch.randn(2))
'''

PROGRAMS['module_repr_nested'] = r'''
import torch
from torch import nn
class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(c)
        self.act = nn.ReLU(inplace=True)
    def forward(self, x):
        return self.act(self.bn(self.conv(x))) + x
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2), nn.BatchNorm2d(8, eps=1e-3, momentum=0.01))
        self.blocks = nn.Sequential(*[Block(8) for _ in range(2)])
        self.head = nn.ModuleDict({'pool': nn.AdaptiveAvgPool2d((1, 1)), 'fc': nn.Linear(8, 10)})
        self.extra = nn.ModuleList()
    def forward(self, x):
        x = self.blocks(self.stem(x))
        return self.head['fc'](self.head['pool'](x).flatten(1))
torch.manual_seed(0)
net = Net()
print(net)
print(net(torch.randn(2, 3, 9, 9)).shape)
print(sum(p.numel() for p in net.parameters()), len(list(net.modules())), len(net.state_dict()))
print([k for k in net.state_dict().keys()][:8])
print(nn.Sequential(nn.Linear(1, 1)), nn.ModuleList(), nn.Sequential())
print(nn.Sequential(*[nn.Linear(2, 2) for _ in range(3)]))
print(nn.ModuleList([nn.ReLU()] * 3))
'''

PROGRAMS['module_repr_repeated'] = r'''
import torch
from torch import nn
m = nn.Sequential(*[nn.Linear(4, 4) for _ in range(5)], nn.ReLU(), nn.ReLU(), nn.Linear(4, 1))
print(m)
ml = nn.ModuleList([nn.Sequential(nn.Linear(2, 2), nn.ReLU()) for _ in range(4)])
print(ml)
print(nn.ParameterList([nn.Parameter(torch.zeros(2, 3)), nn.Parameter(torch.zeros(1, dtype=torch.float64))]))
print(nn.ParameterDict({'a': nn.Parameter(torch.zeros(2)), 'b': nn.Parameter(torch.zeros(3, 3))}))
'''

PROGRAMS['state_dict_values'] = r'''
import torch
from torch import nn
torch.manual_seed(2)
m = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3), nn.Dropout(0.1), nn.Linear(3, 1))
sd = m.state_dict()
for k, v in sd.items():
    print(k, v)
print(type(sd).__name__, sd._metadata if hasattr(sd, '_metadata') else None)
sd2 = m.state_dict(prefix='model.', keep_vars=True)
print(list(sd2.keys())[:3], type(sd2['model.0.weight']).__name__, sd2['model.0.weight'].requires_grad)
print(m.state_dict()['0.weight'].requires_grad, m.state_dict()['0.weight'].grad_fn)
'''

PROGRAMS['train_eval_modes'] = r'''
import torch
from torch import nn
torch.manual_seed(3)
m = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.5), nn.BatchNorm1d(8), nn.Linear(8, 2))
x = torch.randn(5, 4)
m.train()
a = m(x)
b = m(x)
print(torch.equal(a, b), [mod.training for mod in m])
m.eval()
a = m(x); b = m(x)
print(torch.equal(a, b), [mod.training for mod in m])
print(m.train(False).training)
print(m[2].running_mean.round(decimals=4), m[2].num_batches_tracked)
with torch.inference_mode():
    out = m(x)
print(out.requires_grad, out.is_inference())
'''

PROGRAMS['dropout_seeded_values'] = r'''
import torch
import torch.nn.functional as F
torch.manual_seed(4)
x = torch.arange(1., 13.).view(3, 4)
print(F.dropout(x, 0.25))
print(F.dropout(x, 0.25, training=False))
print(F.dropout2d(torch.ones(2, 3, 2, 2), 0.5))
print(F.dropout1d(torch.ones(2, 3, 4), 0.5))
print(F.alpha_dropout(x, 0.2, training=True))
print(torch.nn.Dropout(0.0)(x).equal(x), torch.nn.Dropout(1.0)(x))
E(lambda: torch.nn.Dropout(1.5))
E(lambda: F.dropout(x, -0.1))
y = x.clone().requires_grad_()
out = F.dropout(y, 0.5)
out.sum().backward()
print(out.grad_fn, y.grad)
'''

PROGRAMS['cross_entropy_nd'] = r'''
import torch
import torch.nn.functional as F
torch.manual_seed(7)
x = torch.randn(2, 3, 4, 4, requires_grad=True)
t = torch.randint(0, 3, (2, 4, 4))
l = F.cross_entropy(x, t)
print(l, l.grad_fn)
l.backward()
print(x.grad[0, :, 0].round(decimals=4))
print(F.cross_entropy(x, t, ignore_index=1, reduction='sum'))
print(F.cross_entropy(x, t, weight=torch.tensor([0.2, 0.3, 0.5]), label_smoothing=0.05))
x1 = torch.randn(3, 5, 2)
print(F.cross_entropy(x1, torch.randint(0, 5, (3, 2)), reduction='none'))
print(F.cross_entropy(torch.randn(5), torch.tensor(2)))
'''

PROGRAMS['optimizer_state_dict_roundtrip'] = r'''
import torch
from torch import nn
torch.manual_seed(8)
m = nn.Linear(3, 2)
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
for _ in range(2):
    opt.zero_grad(); m(torch.randn(4, 3)).pow(2).mean().backward(); opt.step()
sd = opt.state_dict()
print(sd)
opt2 = torch.optim.SGD(m.parameters(), lr=0.9)
opt2.load_state_dict(sd)
print(opt2.param_groups[0]['lr'], opt2.state[m.weight]['momentum_buffer'].round(decimals=4))
E(lambda: opt2.load_state_dict({'state': {}, 'param_groups': []}))
opt3 = torch.optim.Adam(m.parameters())
E(lambda: opt3.load_state_dict({'state': {}, 'param_groups': [{'params': [0], 'lr': 1}]}))
print(opt.state_dict()['param_groups'][0]['params'])
'''

PROGRAMS['adam_training_nn'] = r'''
import torch
from torch import nn
torch.manual_seed(9)
X = torch.randn(32, 3)
y = (X[:, :1] * 2 - X[:, 1:2] + 0.5)
model = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
opt = torch.optim.AdamW(model.parameters(), lr=0.01, weight_decay=0.05)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)
loss_fn = nn.MSELoss()
for epoch in range(30):
    opt.zero_grad()
    loss = loss_fn(model(X), y)
    loss.backward()
    opt.step()
    sched.step()
    if epoch % 10 == 0:
        print(epoch, f"{loss.item():.4f}", sched.get_last_lr())
print(opt.state_dict()['state'][1]['step'])
print(opt)
'''

PROGRAMS['conv_training'] = r'''
import torch
from torch import nn
import torch.nn.functional as F
torch.manual_seed(10)
X = torch.randn(8, 1, 8, 8)
y = torch.randint(0, 3, (8,))
model = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(4, 6, 3), nn.ReLU(), nn.AvgPool2d(2), nn.Flatten(), nn.Linear(6, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=1e-4)
for step in range(5):
    logits = model(X)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}")
print(logits.grad_fn)
print(model[0].weight.grad.norm().round(decimals=3))
'''

PROGRAMS['embedding_training'] = r'''
import torch
from torch import nn
torch.manual_seed(12)
class BoW(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(20, 6, max_norm=2.0)
        self.ln = nn.LayerNorm(6)
        self.out = nn.Linear(6, 2)
    def forward(self, x):
        return self.out(self.ln(self.emb(x).mean(1)))
m = BoW()
X = torch.randint(0, 20, (10, 5))
y = torch.randint(0, 2, (10,))
opt = torch.optim.Adagrad(m.parameters(), lr=0.1)
for i in range(4):
    loss = nn.CrossEntropyLoss()(m(X), y)
    opt.zero_grad(); loss.backward(); opt.step()
    print(i, f"{loss.item():.4f}")
print(opt.state_dict()['state'][0]['sum'].shape)
'''

PROGRAMS['zero_grad_behaviour'] = r'''
import torch
from torch import nn
m = nn.Linear(2, 2)
print(m.weight.grad)
m(torch.ones(1, 2)).sum().backward()
print(m.weight.grad)
m.zero_grad()
print(m.weight.grad)
m(torch.ones(1, 2)).sum().backward()
m.zero_grad(set_to_none=False)
print(m.weight.grad, m.weight.grad.requires_grad)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
m(torch.ones(1, 2)).sum().backward()
opt.zero_grad(False)
print(m.bias.grad)
'''

PROGRAMS['init_on_modules'] = r'''
import torch
from torch import nn
torch.manual_seed(13)
m = nn.Sequential(nn.Conv2d(2, 3, 3), nn.BatchNorm2d(3), nn.Linear(4, 5))
for mod in m.modules():
    if isinstance(mod, nn.Conv2d):
        nn.init.kaiming_normal_(mod.weight, mode='fan_out', nonlinearity='relu')
        nn.init.zeros_(mod.bias)
    elif isinstance(mod, nn.BatchNorm2d):
        nn.init.constant_(mod.weight, 1); nn.init.constant_(mod.bias, 0)
    elif isinstance(mod, nn.Linear):
        nn.init.normal_(mod.weight, 0, 0.01); nn.init.uniform_(mod.bias, -0.1, 0.1)
print(m[0].weight[0, 0], m[2].weight[0], m[2].bias)
l = nn.Linear(3, 2)
print(l.weight, l.bias)
c = nn.Conv1d(2, 2, 3)
print(c.weight, c.bias)
print(nn.Embedding(3, 2).weight)
print(nn.LSTM(2, 2).weight_ih_l0[:2])
print(nn.init.xavier_uniform_(torch.empty(2, 3, 4)))
'''

PROGRAMS['parameters_vector_grads'] = r'''
import torch
from torch import nn
torch.manual_seed(14)
m = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
v = nn.utils.parameters_to_vector(m.parameters())
print(v)
print(v.grad_fn, v.requires_grad)
E(lambda: nn.utils.vector_to_parameters(torch.zeros(3), m.parameters()))
E(lambda: nn.utils.vector_to_parameters([1, 2], m.parameters()))
for name, p in m.named_parameters(prefix='net', recurse=True):
    print(name, p.shape)
print([n for n, _ in m.named_modules(prefix='root')])
'''

PROGRAMS['clip_grad_values'] = r'''
import torch
from torch import nn
torch.manual_seed(15)
ps = [nn.Parameter(torch.randn(3)), nn.Parameter(torch.randn(2, 2))]
(ps[0].sum() * 5 + (ps[1] ** 2).sum() * 3).backward()
print(ps[0].grad, ps[1].grad)
n = torch.nn.utils.clip_grad_norm_(ps, 2.0)
print(n, ps[0].grad, ps[1].grad)
n = torch.nn.utils.clip_grad_norm_(ps[0], 0.5, norm_type=1.0)
print(n, ps[0].grad)
n = torch.nn.utils.clip_grad_norm_(ps, 100.)
print(n, ps[1].grad)
torch.nn.utils.clip_grad_value_(ps, 0.1)
print(ps[1].grad)
p = nn.Parameter(torch.ones(2))
print(torch.nn.utils.clip_grad_norm_([p], 1.0))
p.grad = torch.tensor([float('nan'), 1.])
E(lambda: torch.nn.utils.clip_grad_norm_([p], 1.0, error_if_nonfinite=True))
print(torch.nn.utils.get_total_norm([torch.tensor([3., 4.])]) if hasattr(torch.nn.utils, 'get_total_norm') else '')
'''

PROGRAMS['scheduler_chain_seq'] = r'''
import torch
from torch.optim import lr_scheduler as S
w = torch.nn.Parameter(torch.zeros(1))
o = torch.optim.SGD([w], lr=1.0)
s1 = S.LinearLR(o, start_factor=0.1, total_iters=3)
s2 = S.ExponentialLR(o, gamma=0.9)
s = S.SequentialLR(o, schedulers=[s1, s2], milestones=[3])
out = []
for i in range(7):
    o.step(); s.step(); out.append(round(s.get_last_lr()[0], 6))
print(out)
o = torch.optim.SGD([w], lr=1.0)
c = S.ChainedScheduler([S.ConstantLR(o, factor=0.5, total_iters=2), S.ExponentialLR(o, gamma=0.5)])
out = []
for i in range(5):
    o.step(); c.step(); out.append(o.param_groups[0]['lr'])
print(out)
'''

PROGRAMS['lambda_lr_multigroup'] = r'''
import torch
from torch.optim import lr_scheduler as S
a = torch.nn.Parameter(torch.zeros(1)); b = torch.nn.Parameter(torch.zeros(1))
o = torch.optim.Adam([{'params': [a]}, {'params': [b], 'lr': 0.5}], lr=0.1)
s = S.LambdaLR(o, lr_lambda=[lambda e: 1 / (e + 1), lambda e: 0.5 ** e])
for i in range(4):
    o.step(); s.step()
    print(s.get_last_lr(), s.last_epoch)
print(s.state_dict())
E(lambda: S.LambdaLR(o, lr_lambda=[lambda e: 1]))
'''

PROGRAMS['cosine_annealing_long'] = r'''
import torch
from torch.optim import lr_scheduler as S
w = torch.nn.Parameter(torch.zeros(1))
o = torch.optim.SGD([w], lr=0.05)
s = S.CosineAnnealingLR(o, T_max=4)
lrs = []
for i in range(12):
    o.step(); s.step(); lrs.append(s.get_last_lr()[0])
print(lrs)
o = torch.optim.SGD([w], lr=0.05)
s = S.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=1, eta_min=0.001)
lrs = []
for i in range(6):
    o.step(); s.step(); lrs.append(s.get_last_lr()[0])
print(lrs)
for e in [0.5, 1.5, 2.5]:
    s.step(e)
    print(s.get_last_lr())
'''

PROGRAMS['plateau_modes'] = r'''
import torch
from torch.optim.lr_scheduler import ReduceLROnPlateau
w = torch.nn.Parameter(torch.zeros(1))
o = torch.optim.SGD([w], lr=1.0)
s = ReduceLROnPlateau(o, mode='max', factor=0.1, patience=0, threshold=0.01, threshold_mode='abs', cooldown=1, min_lr=0.001)
for v in [0.5, 0.6, 0.605, 0.61, 0.5, 0.4, 0.3, 0.2, 0.1, 0.0]:
    s.step(v)
    print(o.param_groups[0]['lr'], s.best, s.cooldown_counter)
E(lambda: ReduceLROnPlateau(o, mode='foo'))
E(lambda: ReduceLROnPlateau(o, factor=1.0))
print(s.get_last_lr())
'''

PROGRAMS['onecycle_defaults'] = r'''
import torch
from torch.optim.lr_scheduler import OneCycleLR
w = torch.nn.Parameter(torch.zeros(1))
o = torch.optim.SGD([w], lr=0.01, momentum=0.95)
s = OneCycleLR(o, max_lr=0.1, total_steps=20, pct_start=0.25, div_factor=10, final_div_factor=100, three_phase=True)
out = []
for i in range(20):
    o.step(); s.step(); out.append((round(s.get_last_lr()[0], 7), round(o.param_groups[0]['momentum'], 6)))
print(out)
E(lambda: s.step())
E(lambda: OneCycleLR(o, max_lr=0.1))
'''

PROGRAMS['multistep_repr'] = r'''
import torch
from torch.optim.lr_scheduler import MultiStepLR, StepLR
w = torch.nn.Parameter(torch.zeros(1))
o = torch.optim.SGD([w], lr=0.1)
s = MultiStepLR(o, milestones=[3, 3, 5], gamma=0.5)
for i in range(7):
    o.step(); s.step()
    print(i, s.get_last_lr(), s.last_epoch)
print(s.state_dict())
print(type(s).__name__, s.milestones)
o2 = torch.optim.SGD([w], lr=0.1)
s2 = StepLR(o2, 2)
s2.load_state_dict(s.state_dict())
print(s2.last_epoch, s2.get_last_lr())
'''

PROGRAMS['optim_repr_kwargs'] = r'''
import torch
w = torch.nn.Parameter(torch.ones(2))
for o in [torch.optim.Adam([w], lr=1e-3, foreach=False), torch.optim.AdamW([w], capturable=False), torch.optim.SGD([w], 0.1, differentiable=False), torch.optim.RMSprop([w]), torch.optim.Adagrad([w]), torch.optim.Adadelta([w]), torch.optim.Adamax([w]), torch.optim.NAdam([w]), torch.optim.RAdam([w]), torch.optim.NAdam([w], decoupled_weight_decay=True), torch.optim.RAdam([w], decoupled_weight_decay=True)]:
    print(o)
    print(o.defaults)
    print(o.state_dict())
'''

PROGRAMS['optim_state_dict_after_steps'] = r'''
import torch
torch.manual_seed(0)
w = torch.nn.Parameter(torch.randn(3))
b = torch.nn.Parameter(torch.randn(1))
for cls in [torch.optim.Adam, torch.optim.AdamW, torch.optim.RMSprop, torch.optim.Adagrad, torch.optim.Adadelta, torch.optim.Adamax, torch.optim.NAdam, torch.optim.RAdam, torch.optim.SGD]:
    kw = {'lr': 0.1} if cls is torch.optim.SGD else {}
    opt = cls([w, b], **kw)
    for _ in range(2):
        opt.zero_grad()
        ((w * 2).sum() + b.pow(2).sum()).backward()
        opt.step()
    sd = opt.state_dict()
    print(cls.__name__, {k: (v if not isinstance(v, torch.Tensor) else v.dtype) for k, v in sd['state'].get(0, {}).items()})
    print(sd['state'].get(1))
'''

PROGRAMS['optim_errors'] = r'''
import torch
w = torch.nn.Parameter(torch.ones(2))
E(lambda: torch.optim.SGD(w, lr=0.1))
E(lambda: torch.optim.SGD([w, w], lr=0.1))
E(lambda: torch.optim.SGD([{'params': [w]}, {'params': [w]}], lr=0.1))
E(lambda: torch.optim.Adam([torch.ones(2)]))
E(lambda: torch.optim.Adam([w], lr=-0.1))
E(lambda: torch.optim.Adam([w], betas=(0.9, 1.5)))
E(lambda: torch.optim.Adam([w], weight_decay=-1))
E(lambda: torch.optim.RMSprop([w], alpha=-1))
E(lambda: torch.optim.RMSprop([w], momentum=-1))
E(lambda: torch.optim.Adagrad([w], lr_decay=-1))
E(lambda: torch.optim.Adadelta([w], rho=1.5))
E(lambda: torch.optim.SGD([w]))
print(torch.optim.SGD([w]).defaults['lr'])
E(lambda: torch.optim.SGD([w], lr=0.1, momentum=0.9, nesterov=True, dampening=0.1))
E(lambda: torch.optim.SGD([{'params': w}], lr=0.1))
E(lambda: torch.optim.SGD({'a': w}, lr=0.1))
'''

PROGRAMS['optim_step_closure'] = r'''
import torch
torch.manual_seed(1)
x = torch.randn(8, 2)
y = x @ torch.tensor([[1.5], [-0.5]]) + 0.1
model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
def closure():
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    return loss
for i in range(5):
    l = opt.step(closure)
    print(i, type(l).__name__, f"{l.item():.4f}")
print(opt.step() is None)
'''

PROGRAMS['scheduler_misc'] = r'''
import torch, warnings
from torch.optim import lr_scheduler as S
w = torch.nn.Parameter(torch.ones(1))
o = torch.optim.SGD([w], lr=1.0)
E(lambda: S.StepLR(o, step_size=2, last_epoch=3))
s = S.StepLR(o, step_size=2)
print(s.last_epoch, s.base_lrs, s.get_last_lr(), type(s.get_last_lr()).__name__)
print(s._last_lr if hasattr(s, '_last_lr') else None)
sd = s.state_dict()
print(sorted(sd.keys()))
print(sd['_step_count'], sd['_get_lr_called_within_step'], sd['verbose'] if 'verbose' in sd else 'nov')
o.step(); s.step(); o.step(); s.step()
print(o.param_groups[0]['lr'], o.param_groups[0]['initial_lr'])
E(lambda: S.MultiStepLR(o, milestones=[1, 2], gamma=0.1, last_epoch=-1))
E(lambda: S.ExponentialLR(torch.ones(1), 0.9))
E(lambda: S.LambdaLR(o, lr_lambda=1.0))
print(S.StepLR.__mro__[1].__name__)
'''

PROGRAMS['scheduler_epoch_arg_warning'] = r'''
import torch, warnings
from torch.optim import lr_scheduler as S
w = torch.nn.Parameter(torch.ones(1))
o = torch.optim.SGD([w], lr=1.0)
s = S.StepLR(o, step_size=2, gamma=0.5)
with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter('always')
    o.step()
    s.step(5)
for x in ws:
    print(x.category.__name__, str(x.message))
print(s.last_epoch, s.get_last_lr())
'''

PROGRAMS['plateau_with_adam'] = r'''
import torch
from torch.optim.lr_scheduler import ReduceLROnPlateau
torch.manual_seed(2)
m = torch.nn.Linear(3, 1)
opt = torch.optim.Adam(m.parameters(), lr=0.1)
s = ReduceLROnPlateau(opt, 'min', patience=2, factor=0.5, min_lr=[0.01])
x = torch.randn(10, 3); y = torch.randn(10, 1)
for ep in range(12):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(m(x), y)
    loss.backward(); opt.step()
    s.step(round(loss.item(), 1))
    print(ep, f"{loss.item():.4f}", s.get_last_lr(), s.num_bad_epochs)
print(s.state_dict().keys())
'''

PROGRAMS['collate_types'] = r'''
import torch
from torch.utils.data import DataLoader, default_collate
print(default_collate([1, 2, 3]))
print(default_collate([1.5, 2.0]))
print(default_collate([True, False]))
print(default_collate(['a', 'b']))
print(default_collate([{'a': 1, 'b': torch.tensor([1., 2.])}, {'a': 2, 'b': torch.tensor([3., 4.])}]))
print(default_collate([(torch.tensor(1), [1, 2]), (torch.tensor(2), [3, 4])]))
import numpy as np
print(default_collate([np.float32(1.5), np.float32(2.5)]))
print(default_collate([np.array(3), np.array(4)]))
print(default_collate([np.int64(1), np.int64(2)]))
E(lambda: default_collate([torch.zeros(2), torch.zeros(3)]))
E(lambda: default_collate([object(), object()]))
'''

PROGRAMS['dataloader_len_iter'] = r'''
import torch
from torch.utils.data import DataLoader, TensorDataset
ds = TensorDataset(torch.arange(10).float(), torch.arange(10) % 3)
dl = DataLoader(ds, batch_size=3)
print(len(dl), dl.batch_size, dl.drop_last, type(dl.sampler).__name__, type(dl.batch_sampler).__name__)
it = iter(dl)
print(next(it))
print(next(it))
print(sum(1 for _ in dl))
for i, (xb, yb) in enumerate(dl, 1):
    pass
print(i, xb, yb)
print(dl.dataset is ds, len(dl.dataset))
dl2 = DataLoader(ds, batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(3), drop_last=True)
print(len(dl2), [b[1].tolist() for b in dl2])
print(ds.tensors[0].shape)
'''

PROGRAMS['random_split_rounding'] = r'''
import torch
from torch.utils.data import random_split, TensorDataset
ds = TensorDataset(torch.arange(11))
g = torch.Generator().manual_seed(7)
parts = random_split(ds, [0.7, 0.2, 0.1], generator=g)
print([len(p) for p in parts], [p.indices for p in parts])
parts = random_split(range(7), [0.5, 0.5], generator=torch.Generator().manual_seed(1))
print([list(p) for p in parts])
E(lambda: random_split(range(5), [0.5, 0.6]))
E(lambda: random_split(range(5), [3, 3]))
torch.manual_seed(0)
print([p.indices for p in random_split(range(6), [3, 3])])
'''

PROGRAMS['subset_concat_ops'] = r'''
import torch
from torch.utils.data import TensorDataset, Subset, ConcatDataset, Dataset
a = TensorDataset(torch.arange(3.))
b = TensorDataset(torch.arange(10., 14.))
c = a + b
print(type(c).__name__, len(c), c[4], c[-1])
s = Subset(c, [0, 5, 6])
print(len(s), s[2], s.dataset is c)
E(lambda: s[[0, 1]])
print(s.__getitems__([0, 1]))
E(lambda: c[10])
E(lambda: c[-10])
'''

PROGRAMS['grad_clip_training'] = r'''
import torch
from torch import nn
torch.manual_seed(3)
m = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))
opt = torch.optim.SGD(m.parameters(), lr=0.5, momentum=0.9)
x = torch.randn(20, 4) * 5; y = torch.randn(20, 1)
for step in range(6):
    opt.zero_grad()
    loss = nn.functional.mse_loss(m(x), y)
    loss.backward()
    norm = nn.utils.clip_grad_norm_(m.parameters(), max_norm=0.5)
    opt.step()
    print(step, f"{loss.item():.4f}", f"{norm.item():.4f}")
'''

PROGRAMS['weight_sharing_module'] = r'''
import torch
from torch import nn
torch.manual_seed(4)
class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(5, 3)
        self.out = nn.Linear(3, 5, bias=False)
        self.out.weight = self.emb.weight
    def forward(self, x):
        return self.out(self.emb(x))
m = Tied()
print(m)
print([n for n, _ in m.named_parameters()])
print(len(list(m.parameters())), list(m.state_dict().keys()))
print([n for n, _ in m.named_parameters(remove_duplicate=False)])
out = m(torch.tensor([1, 2]))
out.sum().backward()
print(m.emb.weight.grad.round(decimals=4))
shared = nn.Linear(2, 2)
seq = nn.Sequential(shared, nn.ReLU(), shared)
print(seq, len(list(seq.parameters())), [n for n, _ in seq.named_modules()])
print(list(seq.state_dict().keys()))
'''

PROGRAMS['module_to_dtype_device'] = r'''
import torch
from torch import nn
torch.manual_seed(5)
m = nn.Linear(2, 2)
print(m.to('cpu') is m, m.weight.device, next(m.parameters()).is_leaf)
m2 = m.double()
print(m2 is m, m.weight.dtype, m.bias.dtype)
print(m(torch.ones(1, 2, dtype=torch.float64)))
m.to(dtype=torch.float32)
print(m.weight.dtype, type(m.weight).__name__, m.weight.requires_grad)
m.cpu(); m.float()
print(m.weight.grad)
m.type(torch.float64)
print(m.weight.dtype)
bn = nn.BatchNorm1d(2).double()
print(bn.num_batches_tracked.dtype, bn.running_mean.dtype)
'''

PROGRAMS['module_children_apply_order'] = r'''
import torch
from torch import nn
m = nn.Sequential(nn.Linear(1, 1), nn.Sequential(nn.ReLU(), nn.Linear(1, 1)), nn.Dropout())
m.apply(lambda mod: print('apply', type(mod).__name__))
for name, mod in m.named_modules():
    print(repr(name), type(mod).__name__)
for name, mod in m.named_children():
    print('child', name)
print([type(c).__name__ for c in m.children()])
print([n for n, _ in m.named_parameters(recurse=False)], [n for n, _ in m[1].named_parameters()])
print(m._modules.keys())
print(m[1][1].weight.shape, m[-1].p)
'''

PROGRAMS['state_dict_strict_missing'] = r'''
import torch
from torch import nn
a = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
b = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1), nn.Linear(1, 1))
r = b.load_state_dict(a.state_dict(), strict=False)
print(r)
print(r.missing_keys, r.unexpected_keys)
E(lambda: b.load_state_dict(a.state_dict()))
E(lambda: a.load_state_dict(b.state_dict()))
c = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
E(lambda: c.load_state_dict(a.state_dict()))
E(lambda: c.load_state_dict(a.state_dict(), strict=False))
print(a.load_state_dict(a.state_dict()) )
print(str(a.load_state_dict(a.state_dict())))
'''

PROGRAMS['save_load_model_whole'] = r'''
import torch, io
from torch import nn
torch.manual_seed(6)
m = nn.Linear(3, 2)
buf = io.BytesIO()
torch.save(m.state_dict(), buf)
print(buf.tell() > 0)
buf.seek(0)
sd = torch.load(buf, weights_only=True)
print(sd)
t = {'x': torch.arange(4), 'y': [torch.ones(2), 3.5], 'z': (1, 'a')}
buf = io.BytesIO(); torch.save(t, buf); buf.seek(0)
print(torch.load(buf))
buf = io.BytesIO(); torch.save(torch.randn(2, 2, dtype=torch.float64), buf); buf.seek(0)
print(torch.load(buf))
'''

PROGRAMS['embedding_variants'] = r'''
import torch
from torch import nn
import torch.nn.functional as F
torch.manual_seed(7)
e = nn.Embedding(4, 3, scale_grad_by_freq=True)
print(e)
out = e(torch.tensor([0, 0, 1, 3]))
out.sum().backward()
print(e.weight.grad)
e2 = nn.Embedding(4, 3, sparse=False, padding_idx=-1)
print(e2, e2.padding_idx, e2.weight[-1])
w = torch.randn(4, 2)
print(F.embedding(torch.tensor([[1, 2], [3, 0]]), w))
print(F.one_hot(torch.tensor([0, 2, 1]), 4), F.one_hot(torch.tensor([1, 0])))
E(lambda: F.one_hot(torch.tensor([0, 5]), 3))
E(lambda: F.one_hot(torch.tensor([0.5])))
e3 = nn.Embedding.from_pretrained(torch.eye(3), freeze=False, padding_idx=1)
print(e3, e3.weight.requires_grad)
'''

PROGRAMS['layer_norm_training'] = r'''
import torch
from torch import nn
torch.manual_seed(8)
m = nn.Sequential(nn.Linear(5, 8), nn.LayerNorm(8), nn.GELU(), nn.Linear(8, 2))
opt = torch.optim.AdamW(m.parameters(), lr=0.01)
x = torch.randn(16, 5); y = torch.randint(0, 2, (16,))
for step in range(5):
    loss = nn.functional.cross_entropy(m(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    print(step, f"{loss.item():.4f}")
print(m[1].weight.grad.round(decimals=4))
print(m[1].bias.round(decimals=4))
'''

PROGRAMS['bn_cnn_training'] = r'''
import torch
from torch import nn
torch.manual_seed(10)
m = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1, bias=False), nn.BatchNorm2d(4), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 2))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
x = torch.randn(6, 1, 5, 5); y = torch.randint(0, 2, (6,))
for step in range(4):
    loss = nn.CrossEntropyLoss()(m(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    print(step, f"{loss.item():.6f}")
print(m[1].running_mean, m[1].running_var, m[1].weight.grad)
m.eval()
print(m(x[:2]))
'''

PROGRAMS['dropout_training_seeded'] = r'''
import torch
from torch import nn
torch.manual_seed(11)
m = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Dropout(0.3), nn.Linear(12, 1))
opt = torch.optim.SGD(m.parameters(), lr=0.05)
x = torch.randn(10, 6); y = torch.randn(10, 1)
for step in range(5):
    loss = nn.MSELoss()(m(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    print(step, f"{loss.item():.5f}")
m.eval()
print(f"{nn.MSELoss()(m(x), y).item():.5f}")
print(torch.rand(1))
'''

PROGRAMS['freeze_finetune'] = r'''
import torch
from torch import nn
torch.manual_seed(12)
backbone = nn.Sequential(nn.Linear(4, 8), nn.ReLU())
head = nn.Linear(8, 2)
model = nn.Sequential(backbone, head)
for p in backbone.parameters():
    p.requires_grad = False
opt = torch.optim.Adam(filter(lambda p: p.requires_grad, model.parameters()), lr=0.01)
x = torch.randn(5, 4); y = torch.tensor([0, 1, 1, 0, 1])
before = backbone[0].weight.clone()
for i in range(3):
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    print(i, f"{loss.item():.4f}", backbone[0].weight.grad)
print(torch.equal(before, backbone[0].weight), len(opt.param_groups[0]['params']))
trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
total = sum(p.numel() for p in model.parameters())
print(f"{trainable}/{total}")
'''

PROGRAMS['lr_finder_style'] = r'''
import torch
torch.manual_seed(13)
w = torch.nn.Parameter(torch.randn(3))
opt = torch.optim.SGD([w], lr=1e-4)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=10 ** 0.5)
lrs = []
for i in range(6):
    opt.zero_grad()
    (w ** 2).sum().backward()
    opt.step()
    sched.step()
    lrs.append(opt.param_groups[0]['lr'])
print(lrs)
print(w)
'''

PROGRAMS['lenet_training_4dec'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(100)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)
    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)
net = Net()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
inputs = torch.randn(4, 3, 32, 32)
labels = torch.tensor([1, 5, 3, 9])
running_loss = 0.0
for i in range(4):
    optimizer.zero_grad()
    outputs = net(inputs)
    loss = criterion(outputs, labels)
    loss.backward()
    optimizer.step()
    running_loss += loss.item()
    print(f'[1, {i + 1:5d}] loss: {running_loss / (i + 1):.3f}')
_, predicted = torch.max(outputs, 1)
print(predicted, (predicted == labels).sum().item())
print(net.conv1.weight.grad.shape)
'''

PROGRAMS['autograd_tutorial_bits'] = r'''
import torch
torch.manual_seed(101)
x = torch.ones(5)
y = torch.zeros(3)
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
inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")
'''

PROGRAMS['nn_tutorial_refactor_all'] = r'''
import torch, math
from torch import nn, optim
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader
torch.manual_seed(102)
x_train, y_train = torch.randn(60, 16), torch.randint(0, 4, (60,))
x_valid, y_valid = torch.randn(20, 16), torch.randint(0, 4, (20,))
bs = 12
train_ds = TensorDataset(x_train, y_train)
valid_ds = TensorDataset(x_valid, y_valid)
def get_data(train_ds, valid_ds, bs):
    return (DataLoader(train_ds, batch_size=bs, shuffle=True), DataLoader(valid_ds, batch_size=bs * 2))
loss_func = F.cross_entropy
def loss_batch(model, loss_func, xb, yb, opt=None):
    loss = loss_func(model(xb), yb)
    if opt is not None:
        loss.backward()
        opt.step()
        opt.zero_grad()
    return loss.item(), len(xb)
import numpy as np
def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_dl:
            loss_batch(model, loss_func, xb, yb, opt)
        model.eval()
        with torch.no_grad():
            losses, nums = zip(*[loss_batch(model, loss_func, xb, yb) for xb, yb in valid_dl])
        val_loss = np.sum(np.multiply(losses, nums)) / np.sum(nums)
        print(epoch, f"{val_loss:.4f}")
class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func
    def forward(self, x):
        return self.func(x)
def preprocess(x):
    return x.view(-1, 1, 4, 4)
model = nn.Sequential(Lambda(preprocess), nn.Conv2d(1, 8, kernel_size=3, stride=2, padding=1), nn.ReLU(), nn.Conv2d(8, 8, kernel_size=3, stride=2, padding=1), nn.ReLU(), nn.Conv2d(8, 4, kernel_size=3, stride=2, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), Lambda(lambda x: x.view(x.size(0), -1)))
print(model)
opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
train_dl, valid_dl = get_data(train_ds, valid_ds, bs)
fit(3, model, loss_func, opt, train_dl, valid_dl)
'''

PROGRAMS['optim_add_param_group_scheduler'] = r'''
import torch
from torch import nn
torch.manual_seed(103)
m1 = nn.Linear(2, 2); m2 = nn.Linear(2, 1)
opt = torch.optim.Adam(m1.parameters(), lr=0.01)
sched = torch.optim.lr_scheduler.StepLR(opt, 1, gamma=0.5)
opt.step(); sched.step()
opt.add_param_group({'params': m2.parameters(), 'lr': 0.1})
print(opt)
print([g.get('initial_lr') for g in opt.param_groups])
E(lambda: sched.step())
print([g['lr'] for g in opt.param_groups])
'''

PROGRAMS['sgd_state_momentum_buffer'] = r'''
import torch
w = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
print(opt.state[w])
opt.step()
print(opt.state[w], w)
w.grad = torch.tensor([0.5, -0.5])
opt.step()
print(opt.state[w], w)
opt.zero_grad()
print(w.grad)
opt.step()
print(opt.state[w], w)
print(len(opt.state), type(opt.state).__name__)
'''

PROGRAMS['adam_none_grad_skip'] = r'''
import torch
a = torch.nn.Parameter(torch.ones(2)); b = torch.nn.Parameter(torch.ones(2))
opt = torch.optim.Adam([a, b], lr=0.1)
(a * 2).sum().backward()
opt.step()
print(a, b, list(opt.state_dict()['state'].keys()))
print(opt.state[a]['step'], opt.state[a]['exp_avg'], opt.state[a]['exp_avg_sq'])
'''

PROGRAMS['lr_as_tensor'] = r'''
import torch
w = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
opt = torch.optim.Adam([w], lr=torch.tensor(0.01))
print(opt)
(w ** 2).sum().backward()
opt.step()
print(w, opt.param_groups[0]['lr'])
'''

PROGRAMS['polynomial_constant_linear_lr'] = r'''
import torch
from torch.optim import lr_scheduler as S
w = torch.nn.Parameter(torch.zeros(1))
for mk in [lambda o: S.PolynomialLR(o, total_iters=5, power=1.0), lambda o: S.ConstantLR(o), lambda o: S.LinearLR(o), lambda o: S.LinearLR(o, start_factor=1.0, end_factor=0.1, total_iters=3)]:
    o = torch.optim.SGD([w], lr=0.5)
    s = mk(o)
    print(type(s).__name__, [(o.step(), s.step(), s.get_last_lr()[0])[2] for _ in range(7)])
E(lambda: S.LinearLR(torch.optim.SGD([w], lr=0.5), start_factor=0))
E(lambda: S.ConstantLR(torch.optim.SGD([w], lr=0.5), factor=2))
'''

PROGRAMS['exp_cos_get_lr_closed_form'] = r'''
import torch
from torch.optim import lr_scheduler as S
w = torch.nn.Parameter(torch.zeros(1))
o = torch.optim.SGD([w], lr=0.3)
s = S.CosineAnnealingLR(o, T_max=7, eta_min=0.001)
r = []
for i in range(20):
    o.step(); s.step(); r.append(s.get_last_lr()[0])
print(r)
print(s._get_closed_form_lr() if hasattr(s, '_get_closed_form_lr') else '')
'''

PROGRAMS['sequential_lr_warmup'] = r'''
import torch
from torch.optim import lr_scheduler as S
w = torch.nn.Parameter(torch.zeros(1))
o = torch.optim.AdamW([w], lr=1e-3)
warm = S.LinearLR(o, start_factor=0.01, total_iters=4)
cos = S.CosineAnnealingLR(o, T_max=6)
s = S.SequentialLR(o, [warm, cos], milestones=[4])
lrs = []
for i in range(12):
    o.step(); s.step(); lrs.append(o.param_groups[0]['lr'])
print(lrs)
print(s.get_last_lr(), s.last_epoch)
print(s.state_dict().keys())
'''

PROGRAMS['normalize_pad'] = r'''
import torch
import torch.nn.functional as F
torch.manual_seed(1)
x = torch.randn(2, 3, 4)
print(F.normalize(x, dim=1)[0].round(decimals=4))
print(F.normalize(x, p=1, dim=-1)[1, 0].round(decimals=4))
print(F.pad(x, (1, 2)).shape, F.pad(x, (1, 1, 2, 0), value=9.0)[0, :3, :2])
print(F.pad(x, (2, 1), mode='reflect')[0, 0], F.pad(x, (2, 1), mode='replicate')[0, 0], F.pad(x, (2, 1), mode='circular')[0, 0])
E(lambda: F.pad(x, (5, 0), mode='reflect'))
E(lambda: F.pad(x, (1,)))
print(torch.nn.ZeroPad2d((1, 1, 0, 2)), torch.nn.ConstantPad1d(2, 3.5), torch.nn.ReflectionPad2d(1), torch.nn.ReplicationPad1d((1, 2)))
print(torch.nn.ZeroPad2d(1)(torch.ones(1, 2, 2)))
'''

PROGRAMS['conv_transpose_modules'] = r'''
import torch
from torch import nn
torch.manual_seed(3)
ct = nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1)
print(ct, ct.weight.shape)
x = torch.randn(1, 4, 5, 5)
print(ct(x).shape)
print(ct(x, output_size=[10, 10]).shape)
ct1 = nn.ConvTranspose1d(2, 3, 4, stride=2, bias=False, dilation=2)
print(ct1, ct1(torch.randn(2, 2, 6)).shape)
E(lambda: ct(x, output_size=[20, 20]))
'''

PROGRAMS['cosine_pairwise_modules'] = r'''
import torch
from torch import nn
torch.manual_seed(6)
a = torch.randn(3, 5); b = torch.randn(3, 5)
cs = nn.CosineSimilarity(dim=1, eps=1e-6)
pd = nn.PairwiseDistance(p=2, keepdim=True)
print(cs, cs(a, b).round(decimals=4))
print(pd, pd(a, b).round(decimals=4))
print(nn.PairwiseDistance(p=1)(a, b).round(decimals=4))
print(torch.nn.functional.cosine_similarity(a, b, dim=0).round(decimals=4))
print(torch.cdist(a, b).round(decimals=3))
'''

PROGRAMS['maxpool_indices_unpool'] = r'''
import torch
import torch.nn.functional as F
torch.manual_seed(7)
x = torch.randn(1, 1, 4, 4)
out, idx = F.max_pool2d(x, 2, return_indices=True)
print(out, idx)
out1, idx1 = F.max_pool1d(torch.randn(1, 2, 6), 3, return_indices=True)
print(idx1)
print(F.avg_pool2d(x, 3, stride=1, padding=1, count_include_pad=False).round(decimals=4))
print(F.avg_pool2d(x, 2, divisor_override=3).round(decimals=4))
print(F.adaptive_avg_pool2d(x, (3, 2)).round(decimals=4))
print(F.adaptive_avg_pool1d(torch.arange(7.).view(1, 1, 7), 3))
print(F.max_pool2d(x, 3, stride=2, ceil_mode=True))
print(F.max_pool2d(x, 2, dilation=2) if True else '')
'''

PROGRAMS['rnn_training'] = r'''
import torch
from torch import nn
torch.manual_seed(8)
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(3, 5, batch_first=True)
        self.fc = nn.Linear(5, 2)
    def forward(self, x):
        out, h = self.rnn(x)
        return self.fc(out[:, -1])
m = M()
print(m)
opt = torch.optim.Adam(m.parameters(), lr=0.01)
x = torch.randn(4, 6, 3); y = torch.randint(0, 2, (4,))
for i in range(3):
    loss = nn.functional.cross_entropy(m(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    print(i, f"{loss.item():.4f}")
'''

PROGRAMS['lstm_hidden_init'] = r'''
import torch
from torch import nn
torch.manual_seed(9)
lstm = nn.LSTM(input_size=3, hidden_size=4, num_layers=1)
inputs = [torch.randn(1, 3) for _ in range(5)]
hidden = (torch.randn(1, 1, 4), torch.randn(1, 1, 4))
for i in inputs:
    out, hidden = lstm(i.view(1, 1, -1), hidden)
print(out.round(decimals=4))
print(hidden[0].round(decimals=4), hidden[0].grad_fn)
inputs = torch.cat(inputs).view(len(inputs), 1, -1)
hidden = (torch.randn(1, 1, 4), torch.randn(1, 1, 4))
out, hidden = lstm(inputs, hidden)
print(out.shape, out[-1].round(decimals=4))
E(lambda: lstm(torch.randn(5, 1, 2)))
E(lambda: lstm(torch.randn(5, 1, 3), (torch.randn(1, 1, 4),)))
'''

PROGRAMS['init_fan_errors'] = r'''
import torch
from torch import nn
w = torch.empty(3, 4)
E(lambda: nn.init.kaiming_uniform_(w, mode='fan'))
E(lambda: nn.init.kaiming_uniform_(w, nonlinearity='foo'))
E(lambda: nn.init.orthogonal_(torch.empty(3)))
E(lambda: nn.init.sparse_(torch.empty(2, 2, 2), 0.5))
E(lambda: nn.init.dirac_(torch.empty(3, 3)))
E(lambda: nn.init.eye_(torch.empty(3)))
print(nn.init._calculate_fan_in_and_fan_out(torch.empty(5, 3, 2, 2)))
print(nn.init._calculate_correct_fan(torch.empty(5, 3, 2, 2), 'fan_out'))
print(nn.init.calculate_gain('leaky_relu'), nn.init.calculate_gain('conv1d'), nn.init.calculate_gain('tanh'))
torch.manual_seed(0)
print(nn.init.trunc_normal_(torch.empty(6), mean=1.0))
print(nn.init.uniform_(torch.empty(3, dtype=torch.float64)))
print(nn.init.normal_(torch.empty(2, 2), generator=torch.Generator().manual_seed(3)))
'''

PROGRAMS['parameter_list_ops'] = r'''
import torch
from torch import nn
torch.manual_seed(10)
pl = nn.ParameterList([nn.Parameter(torch.randn(2)) for _ in range(2)])
pl.append(nn.Parameter(torch.zeros(1)))
pl.extend([nn.Parameter(torch.ones(3))])
print(pl, len(pl), pl[0].shape)
pl.append(torch.zeros(2))
print(type(pl[-1]).__name__, pl[-1].requires_grad)
pd = nn.ParameterDict({'w': nn.Parameter(torch.ones(2))})
pd['b'] = nn.Parameter(torch.zeros(1))
pd.update({'c': nn.Parameter(torch.ones(1, 1))})
print(pd, list(pd.keys()), 'w' in pd, len(pd))
print(pd.pop('b').shape, list(pd.keys()))
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.pl = pl
        self.pd = pd
print([n for n, _ in M().named_parameters()])
'''

PROGRAMS['module_dict_list_ops'] = r'''
import torch
from torch import nn
md = nn.ModuleDict({'a': nn.Linear(1, 1), 'b': nn.ReLU()})
md['c'] = nn.Tanh()
md.update([('d', nn.Sigmoid())])
print(md)
print(list(md.keys()), list(md.values())[1], [k for k, _ in md.items()], len(md))
print(md.pop('b'), list(md.keys()))
md.clear(); print(md, len(md))
ml = nn.ModuleList([nn.ReLU(), nn.Tanh()])
ml.extend([nn.Sigmoid()])
ml += nn.ModuleList([nn.ELU()])
print(ml, ml[1:3], ml[-1])
del ml[0]
print(ml)
ml[0] = nn.GELU()
print(ml, ml.index(ml[1]) if hasattr(ml, 'index') else '')
s = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
s2 = s + nn.Sequential(nn.Tanh()) if hasattr(s, '__add__') else s
print(s2)
s.insert(1, nn.Dropout(0.2)); print(s)
s.extend([nn.Sigmoid()]); print(s, s.pop(0))
E(lambda: s[10])
E(lambda: nn.ModuleList([1, 2]))
E(lambda: nn.Sequential(1))
'''

PROGRAMS['define_nn_recipe'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(200)
class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.dropout1 = nn.Dropout2d(0.25)
        self.dropout2 = nn.Dropout2d(0.5)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)
    def forward(self, x):
        x = self.conv1(x)
        x = F.relu(x)
        x = self.conv2(x)
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.dropout2(x)
        x = self.fc2(x)
        output = F.log_softmax(x, dim=1)
        return output
my_nn = Net()
print(my_nn)
random_data = torch.rand((1, 1, 28, 28))
result = my_nn(random_data)
print(result.shape, result.grad_fn, result.exp().sum().round(decimals=4))
'''

PROGRAMS['zeroing_gradients_recipe'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
torch.manual_seed(201)
class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.fc1 = nn.Linear(12, 16)
        self.fc2 = nn.Linear(16, 4)
    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))
net = Net()
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
data = [(torch.randn(4, 12), torch.randint(0, 4, (4,))) for _ in range(6)]
for epoch in range(2):
    running_loss = 0.0
    for i, (inputs, labels) in enumerate(data, 0):
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        if i % 2 == 1:
            print('[%d, %5d] loss: %.3f' % (epoch + 1, i + 1, running_loss / 2))
            running_loss = 0.0
print('Finished Training')
'''

PROGRAMS['save_checkpoint_general'] = r'''
import torch, io
import torch.nn as nn
import torch.optim as optim
torch.manual_seed(202)
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
net(torch.randn(2, 3)).sum().backward(); optimizer.step()
EPOCH = 5; LOSS = 0.4
buf = io.BytesIO()
torch.save({'epoch': EPOCH, 'model_state_dict': net.state_dict(), 'optimizer_state_dict': optimizer.state_dict(), 'loss': LOSS}, buf)
buf.seek(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
opt = optim.SGD(model.parameters(), lr=0.5)
checkpoint = torch.load(buf, weights_only=True)
model.load_state_dict(checkpoint['model_state_dict'])
opt.load_state_dict(checkpoint['optimizer_state_dict'])
epoch = checkpoint['epoch']; loss = checkpoint['loss']
model.eval()
print(epoch, loss, opt)
print(opt.state_dict())
model.train()
print(model.training)
'''

PROGRAMS['optimizer_state_dict_print'] = r'''
import torch
torch.manual_seed(203)
m = torch.nn.Linear(2, 2)
opt = torch.optim.Adam(m.parameters(), lr=0.01)
m(torch.randn(3, 2)).sum().backward()
opt.step()
print(opt.state_dict())
opt2 = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.5)
opt2.step()
print(opt2.state_dict())
print(opt2.state)
'''

PROGRAMS['warmstart_partial_load'] = r'''
import torch, io
import torch.nn as nn
torch.manual_seed(204)
class NetA(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.fc1 = nn.Linear(6, 10)
class NetB(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.fc1 = nn.Linear(6, 10)
        self.fc2 = nn.Linear(10, 2)
a = NetA(); b = NetB()
buf = io.BytesIO(); torch.save(a.state_dict(), buf); buf.seek(0)
print(b.load_state_dict(torch.load(buf, weights_only=True), strict=False))
print(torch.equal(a.conv1.weight, b.conv1.weight))
'''

PROGRAMS['transfer_learning_head'] = r'''
import torch
from torch import nn
torch.manual_seed(205)
class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(inplace=True), nn.MaxPool2d(2))
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(8, 1000)
    def forward(self, x):
        x = self.avgpool(self.features(x))
        return self.fc(torch.flatten(x, 1))
model_conv = Backbone()
for param in model_conv.parameters():
    param.requires_grad = False
num_ftrs = model_conv.fc.in_features
model_conv.fc = nn.Linear(num_ftrs, 2)
print(model_conv.fc, num_ftrs)
criterion = nn.CrossEntropyLoss()
optimizer_conv = torch.optim.SGD(model_conv.fc.parameters(), lr=0.001, momentum=0.9)
exp_lr_scheduler = torch.optim.lr_scheduler.StepLR(optimizer_conv, step_size=7, gamma=0.1)
x = torch.randn(4, 3, 8, 8); y = torch.tensor([0, 1, 1, 0])
for epoch in range(3):
    model_conv.train()
    optimizer_conv.zero_grad()
    with torch.set_grad_enabled(True):
        outputs = model_conv(x)
        _, preds = torch.max(outputs, 1)
        loss = criterion(outputs, y)
        loss.backward()
        optimizer_conv.step()
    exp_lr_scheduler.step()
    running_corrects = torch.sum(preds == y.data)
    print(f'{epoch} Loss: {loss.item():.4f} Acc: {running_corrects.double() / 4:.4f}')
print(model_conv.features[1].running_mean.round(decimals=4))
'''

PROGRAMS['weight_sharing_dynamic'] = r'''
import torch
torch.manual_seed(206)
class DynamicNet(torch.nn.Module):
    def __init__(self, D_in, H, D_out):
        super().__init__()
        self.input_linear = torch.nn.Linear(D_in, H)
        self.middle_linear = torch.nn.Linear(H, H)
        self.output_linear = torch.nn.Linear(H, D_out)
    def forward(self, x, n):
        h_relu = self.input_linear(x).clamp(min=0)
        for _ in range(n):
            h_relu = self.middle_linear(h_relu).clamp(min=0)
        return self.output_linear(h_relu)
N, D_in, H, D_out = 16, 10, 8, 2
x = torch.randn(N, D_in); y = torch.randn(N, D_out)
model = DynamicNet(D_in, H, D_out)
criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-4, momentum=0.9)
for t in range(20):
    y_pred = model(x, t % 3)
    loss = criterion(y_pred, y)
    if t % 5 == 4:
        print(t, f"{loss.item():.4f}")
    optimizer.zero_grad(); loss.backward(); optimizer.step()
print(y_pred.grad_fn, y_pred.grad_fn.next_functions)
'''

PROGRAMS['bce_logistic_regression'] = r'''
import torch
from torch import nn
torch.manual_seed(207)
X = torch.randn(40, 2)
y = ((X[:, 0] + X[:, 1]) > 0).float().unsqueeze(1)
model = nn.Sequential(nn.Linear(2, 1), nn.Sigmoid())
opt = torch.optim.SGD(model.parameters(), lr=0.5)
crit = nn.BCELoss()
for epoch in range(30):
    opt.zero_grad()
    out = model(X)
    loss = crit(out, y)
    loss.backward()
    opt.step()
    if (epoch + 1) % 10 == 0:
        acc = ((out > 0.5).float() == y).float().mean()
        print(f"Epoch [{epoch+1}/30], Loss: {loss.item():.4f}, Acc: {acc.item():.2f}")
print(model[0].weight, model[0].bias)
with torch.no_grad():
    print(model(torch.tensor([[1.0, 1.0], [-1.0, -1.0]])))
'''

PROGRAMS['bce_logits_posweight_training'] = r'''
import torch
from torch import nn
torch.manual_seed(208)
X = torch.randn(30, 4)
y = (torch.rand(30, 3) > 0.7).float()
model = nn.Linear(4, 3)
crit = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0, 1.0, 3.0]))
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for i in range(5):
    loss = crit(model(X), y)
    opt.zero_grad(); loss.backward(); opt.step()
    print(i, f"{loss.item():.5f}")
print(torch.sigmoid(model(X[:2])).round(decimals=3))
'''

PROGRAMS['regression_numpy_targets'] = r'''
import torch, numpy as np
from torch import nn
rng = np.random.RandomState(0)
X = rng.randn(20, 3)
y = X @ np.array([1.0, -2.0, 0.5]) + 0.3
Xt = torch.from_numpy(X).float()
yt = torch.from_numpy(y).unsqueeze(1)
print(Xt.dtype, yt.dtype)
torch.manual_seed(209)
model = nn.Linear(3, 1)
crit = nn.MSELoss()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for i in range(5):
    pred = model(Xt)
    loss = crit(pred, yt)
    opt.zero_grad(); loss.backward(); opt.step()
    print(i, loss.dtype, f"{loss.item():.5f}", loss.grad_fn)
print(model.weight.dtype, model.weight.grad.dtype)
l1 = nn.L1Loss()(model(Xt), yt)
print(l1.dtype, f"{l1.item():.4f}")
sl = nn.SmoothL1Loss()(model(Xt), yt)
print(sl.dtype, f"{sl.item():.4f}")
'''

PROGRAMS['classification_int32_targets'] = r'''
import torch, numpy as np
from torch import nn
torch.manual_seed(210)
x = torch.randn(5, 3)
t = torch.from_numpy(np.array([0, 2, 1, 1, 0], dtype=np.int32))
E(lambda: print(nn.CrossEntropyLoss()(x, t)))
E(lambda: print(nn.NLLLoss()(x.log_softmax(1), t)))
E(lambda: print(nn.CrossEntropyLoss()(x, t.long())))
E(lambda: print(nn.CrossEntropyLoss()(x.double(), t.long())))
E(lambda: print(nn.CrossEntropyLoss(weight=torch.ones(3, dtype=torch.float64))(x, t.long())))
E(lambda: print(nn.CrossEntropyLoss()(x, t.float())))
E(lambda: print(nn.CrossEntropyLoss()(x, torch.softmax(torch.randn(5, 3, dtype=torch.float64), 1))))
E(lambda: print(nn.CrossEntropyLoss()(x, t.byte())))
'''

PROGRAMS['tensor_dataset_indexing'] = r'''
import torch
from torch.utils.data import TensorDataset
ds = TensorDataset(torch.arange(6).view(3, 2), torch.tensor([1, 0, 1]))
print(ds[0], ds[-1], ds[0:2], len(ds))
print(ds[torch.tensor([0, 2])])
E(lambda: ds[5])
E(lambda: TensorDataset())
print(TensorDataset(torch.zeros(2, 3)).tensors[0].shape)
'''

PROGRAMS['init_uniform_bounds_printing'] = r'''
import torch, math
from torch import nn
torch.manual_seed(9)
l = nn.Linear(3, 2)
bound = 1 / math.sqrt(3)
print(bool((l.weight.abs() <= bound).all()), bool((l.bias.abs() <= bound).all()))
print(l.weight)
print(l.weight.data)
print(l.weight.detach().numpy().dtype)
print(l.weight.tolist())
print(l.weight.sum(), l.weight.sum().item())
print(l.weight.requires_grad, l.weight.is_leaf, l.weight.grad_fn, l.weight.dtype, l.weight.shape, l.weight.size(0))
print(f"{l.weight[0, 0]:.4f}", f"{l.weight[0, 0].item():.6f}")
print(repr(l.weight[0]), str(l.weight[1]))
'''

PROGRAMS['named_params_format'] = r'''
import torch
from torch import nn
torch.manual_seed(10)
model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
for name, param in model.named_parameters():
    print(f"Layer: {name} | Size: {param.size()} | Values : {param[:2]} \n")
for name, p in model.state_dict().items():
    print(name, '\t', p.size())
print(model.state_dict()['0.bias'])
print({k: v.shape for k, v in model.state_dict().items()})
for m in model.modules():
    print(type(m))
print(model[0].__class__, model[0].__class__.__name__, type(model).__mro__[1])
'''

PROGRAMS['hooks_backward_detail'] = r'''
import torch
from torch import nn
torch.manual_seed(11)
lin = nn.Linear(3, 2)
def hook(mod, gin, gout):
    print('gin', [None if g is None else g.shape for g in gin], 'gout', [g.shape for g in gout])
    print(gout[0])
    return (gin[0] * 2,) if gin[0] is not None else None
h = lin.register_full_backward_hook(hook)
x = torch.randn(4, 3, requires_grad=True)
lin(x).sum().backward()
print(x.grad)
h.remove()
x.grad = None
lin(x).sum().backward()
print(x.grad)
relu = nn.ReLU()
relu.register_full_backward_hook(lambda m, gi, go: print('relu', gi[0].shape))
y = relu(torch.randn(2, 2, requires_grad=True))
y.sum().backward()
def pre(m, go):
    print('pre', go[0])
    return (go[0] * 0,)
lin.register_full_backward_pre_hook(pre)
x.grad = None
lin(x).sum().backward()
print(x.grad, lin.weight.grad)
E(lambda: lin.register_backward_hook(lambda *a: None))
'''

PROGRAMS['forward_hook_modifies'] = r'''
import torch
from torch import nn
torch.manual_seed(12)
net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
feats = []
handles = [m.register_forward_hook(lambda m, i, o: feats.append((type(m).__name__, tuple(o.shape)))) for m in net]
net(torch.randn(5, 2))
print(feats)
for h in handles: h.remove()
net[0].register_forward_hook(lambda m, i, o: o.clamp(min=0))
net[2].register_forward_pre_hook(lambda m, i: (i[0] + 1,))
print(net(torch.ones(1, 2)))
def kw_pre(m, args, kwargs):
    print('kw_pre', len(args), kwargs)
    return args, kwargs
net.register_forward_pre_hook(kw_pre, with_kwargs=True)
print(net(torch.ones(1, 2)).shape)
h = net.register_forward_hook(lambda m, i, o: print('always'), always_call=True)
print(type(h).__name__, h.id >= 0)
'''

PROGRAMS['plateau_rel_eps'] = r'''
import torch
from torch.optim.lr_scheduler import ReduceLROnPlateau
w = torch.nn.Parameter(torch.zeros(1))
o = torch.optim.SGD([{'params': [w]}, {'params': [torch.nn.Parameter(torch.zeros(1))], 'lr': 1e-7}], lr=0.1)
s = ReduceLROnPlateau(o, threshold=0.1, threshold_mode='rel', patience=1, factor=0.5, eps=1e-6, min_lr=[0.0, 1e-8])
for v in [1.0, 0.95, 0.92, 0.85, 0.84, 0.83, 0.9, 0.5, 0.49]:
    s.step(v)
    print([g['lr'] for g in o.param_groups], s.best, s.num_bad_epochs, s.last_epoch)
print(s.mode, s.threshold, s.cooldown, s.factor, s.in_cooldown, s._is_better(0.1, 0.2))
s2 = ReduceLROnPlateau(torch.optim.SGD([w], lr=1.0))
s2.load_state_dict(s.state_dict())
print(s2.best, s2.last_epoch)
E(lambda: ReduceLROnPlateau(o, min_lr=[0.1]))
E(lambda: ReduceLROnPlateau(o, threshold_mode='foo'))
E(lambda: s.step())
'''

PROGRAMS['onecycle_adam_betas'] = r'''
import torch
from torch.optim.lr_scheduler import OneCycleLR
w = torch.nn.Parameter(torch.zeros(1))
o = torch.optim.AdamW([w], lr=1e-3, betas=(0.9, 0.99))
s = OneCycleLR(o, max_lr=0.01, total_steps=8, cycle_momentum=True, base_momentum=0.8, max_momentum=0.95)
for i in range(8):
    o.step(); s.step()
    print(i, round(s.get_last_lr()[0], 8), o.param_groups[0]['betas'])
o = torch.optim.SGD([w], lr=0.1)
E(lambda: OneCycleLR(o, max_lr=0.1, total_steps=5))
s = OneCycleLR(o, max_lr=[0.5], epochs=2, steps_per_epoch=2, cycle_momentum=False, anneal_strategy='linear')
print([(o.step(), s.step(), s.get_last_lr()[0])[2] for _ in range(4)])
print(o.param_groups[0]['max_lr'], o.param_groups[0]['initial_lr'], o.param_groups[0]['min_lr'])
E(lambda: OneCycleLR(o, max_lr=0.1, total_steps=0))
E(lambda: OneCycleLR(o, max_lr=0.1, total_steps=10, pct_start=1.5))
E(lambda: OneCycleLR(o, max_lr=0.1, total_steps=10, anneal_strategy='foo'))
'''

PROGRAMS['warm_restarts_float_epochs'] = r'''
import torch
from torch.optim.lr_scheduler import CosineAnnealingWarmRestarts
w = torch.nn.Parameter(torch.zeros(1))
o = torch.optim.SGD([w], lr=0.1)
s = CosineAnnealingWarmRestarts(o, T_0=4, T_mult=2, eta_min=0.001)
iters = 3
for epoch in range(3):
    for i in range(iters):
        o.step()
        s.step(epoch + i / iters)
        print(epoch, i, round(s.get_last_lr()[0], 8), s.T_cur, s.T_i)
E(lambda: CosineAnnealingWarmRestarts(o, T_0=0))
E(lambda: CosineAnnealingWarmRestarts(o, T_0=2, T_mult=0))
E(lambda: s.step(-1))
'''

PROGRAMS['two_schedulers_same_opt'] = r'''
import torch
from torch.optim import lr_scheduler as S
w = torch.nn.Parameter(torch.zeros(1))
o = torch.optim.SGD([w], lr=1.0)
s1 = S.ExponentialLR(o, gamma=0.9)
s2 = S.MultiStepLR(o, milestones=[2, 4], gamma=0.1)
for e in range(6):
    o.step(); s1.step(); s2.step()
    print(e, o.param_groups[0]['lr'], s1.get_last_lr(), s2.get_last_lr())
'''

PROGRAMS['scheduler_get_lr_warning'] = r'''
import torch, warnings
from torch.optim import lr_scheduler as S
w = torch.nn.Parameter(torch.zeros(1))
o = torch.optim.SGD([w], lr=1.0)
s = S.StepLR(o, 1, 0.5)
with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter('always')
    print(s.get_lr())
    o.step(); s.step()
    print(s.get_lr(), s.get_last_lr())
    s2 = S.StepLR(torch.optim.SGD([w], lr=1.0), 1)
    s2.step()
for x in ws: print(x.category.__name__, str(x.message)[:120])
'''

PROGRAMS['optimizer_zero_grad_variants'] = r'''
import torch
from torch import nn
m = nn.Linear(2, 2)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
m(torch.ones(1, 2)).sum().backward()
g = m.weight.grad
opt.zero_grad(set_to_none=False)
print(g is m.weight.grad, m.weight.grad)
m.weight.grad.requires_grad_(False)
m(torch.ones(1, 2)).sum().backward(create_graph=True)
print(m.weight.grad.grad_fn is not None)
opt.zero_grad(set_to_none=False)
print(m.weight.grad, m.weight.grad.grad_fn, m.weight.grad.requires_grad)
opt.zero_grad()
print(m.weight.grad)
'''

PROGRAMS['param_group_per_layer_options'] = r'''
import torch
from torch import nn
torch.manual_seed(1)
model = nn.Sequential(nn.Linear(3, 3), nn.Linear(3, 1))
decay, no_decay = [], []
for n, p in model.named_parameters():
    (no_decay if n.endswith('bias') else decay).append(p)
opt = torch.optim.AdamW([{'params': decay, 'weight_decay': 0.1}, {'params': no_decay, 'weight_decay': 0.0}], lr=0.01)
print(opt)
x = torch.randn(5, 3); y = torch.randn(5, 1)
for i in range(3):
    opt.zero_grad(); nn.functional.mse_loss(model(x), y).backward(); opt.step()
print(model[1].bias, model[1].weight)
print([len(g['params']) for g in opt.param_groups], [sorted(g.keys()) for g in opt.param_groups][0])
'''

PROGRAMS['sgd_momentum_state_load'] = r'''
import torch, copy
torch.manual_seed(2)
m = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
for _ in range(2):
    opt.zero_grad(); m(torch.randn(3, 2)).sum().backward(); opt.step()
sd = copy.deepcopy(opt.state_dict())
m2 = copy.deepcopy(m)
opt2 = torch.optim.SGD(m2.parameters(), lr=0.1, momentum=0.9)
opt2.load_state_dict(sd)
x = torch.randn(3, 2)
for o, mm in ((opt, m), (opt2, m2)):
    o.zero_grad(); mm(x).sum().backward(); o.step()
print(torch.equal(m.weight, m2.weight), m2.weight)
print(opt2.state[m2.weight]['momentum_buffer'])
print(type(opt.state_dict()['state']).__name__, list(opt.state_dict()['state'][0].keys()))
'''

PROGRAMS['clip_grad_foreach_and_inf'] = r'''
import torch
from torch import nn
torch.manual_seed(3)
ps = [nn.Parameter(torch.randn(4)), nn.Parameter(torch.randn(2, 3))]
for p in ps: p.grad = torch.randn_like(p) * 10
n = nn.utils.clip_grad_norm_(ps, 1.0, norm_type=float('inf'))
print(n, ps[0].grad)
n = nn.utils.clip_grad_norm_(ps, 1.0, norm_type=2.0, foreach=False)
print(n, ps[1].grad)
n = nn.utils.clip_grad_norm_(ps[0], 0.1)
print(n.dtype, n.shape)
p = nn.Parameter(torch.ones(2)); p.grad = torch.tensor([float('inf'), 1.])
print(nn.utils.clip_grad_norm_([p], 1.0), p.grad)
p2 = nn.Parameter(torch.ones(2))
print(nn.utils.clip_grad_norm_([p2], 1.0))
E(lambda: nn.utils.clip_grad_value_([p2], 1.0))
ps[0].grad = torch.tensor([3., -4., 0.5, 10.])
nn.utils.clip_grad_value_(ps[0], 2.5)
print(ps[0].grad)
'''

PROGRAMS['ngram_language_model'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
torch.manual_seed(1)
CONTEXT_SIZE = 2
EMBEDDING_DIM = 10
test_sentence = """When forty winters shall besiege thy brow,
And dig deep trenches in thy beauty's field,
Thy youth's proud livery so gazed on now,
Will be a totter'd weed of small worth held:""".split()
ngrams = [([test_sentence[i - j - 1] for j in range(CONTEXT_SIZE)], test_sentence[i]) for i in range(CONTEXT_SIZE, len(test_sentence))]
print(ngrams[:3])
vocab = set(test_sentence)
word_to_ix = {word: i for i, word in enumerate(sorted(vocab))}
class NGramLanguageModeler(nn.Module):
    def __init__(self, vocab_size, embedding_dim, context_size):
        super(NGramLanguageModeler, self).__init__()
        self.embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.linear1 = nn.Linear(context_size * embedding_dim, 128)
        self.linear2 = nn.Linear(128, vocab_size)
    def forward(self, inputs):
        embeds = self.embeddings(inputs).view((1, -1))
        out = F.relu(self.linear1(embeds))
        out = self.linear2(out)
        log_probs = F.log_softmax(out, dim=1)
        return log_probs
losses = []
loss_function = nn.NLLLoss()
model = NGramLanguageModeler(len(vocab), EMBEDDING_DIM, CONTEXT_SIZE)
optimizer = optim.SGD(model.parameters(), lr=0.001)
for epoch in range(3):
    total_loss = 0
    for context, target in ngrams:
        context_idxs = torch.tensor([word_to_ix[w] for w in context], dtype=torch.long)
        model.zero_grad()
        log_probs = model(context_idxs)
        loss = loss_function(log_probs, torch.tensor([word_to_ix[target]], dtype=torch.long))
        loss.backward()
        optimizer.step()
        total_loss += loss.item()
    losses.append(round(total_loss, 3))
print(losses)
print(model.embeddings.weight[word_to_ix["beauty's"]].round(decimals=3))
'''

PROGRAMS['lstm_pos_tagger'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
torch.manual_seed(1)
def prepare_sequence(seq, to_ix):
    idxs = [to_ix[w] for w in seq]
    return torch.tensor(idxs, dtype=torch.long)
training_data = [("The dog ate the apple".split(), ["DET", "NN", "V", "DET", "NN"]), ("Everybody read that book".split(), ["NN", "V", "DET", "NN"])]
word_to_ix = {}
for sent, tags in training_data:
    for word in sent:
        if word not in word_to_ix:
            word_to_ix[word] = len(word_to_ix)
print(word_to_ix)
tag_to_ix = {"DET": 0, "NN": 1, "V": 2}
EMBEDDING_DIM = 6
HIDDEN_DIM = 6
class LSTMTagger(nn.Module):
    def __init__(self, embedding_dim, hidden_dim, vocab_size, tagset_size):
        super(LSTMTagger, self).__init__()
        self.hidden_dim = hidden_dim
        self.word_embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim)
        self.hidden2tag = nn.Linear(hidden_dim, tagset_size)
    def forward(self, sentence):
        embeds = self.word_embeddings(sentence)
        lstm_out, _ = self.lstm(embeds.view(len(sentence), 1, -1))
        tag_space = self.hidden2tag(lstm_out.view(len(sentence), -1))
        tag_scores = F.log_softmax(tag_space, dim=1)
        return tag_scores
model = LSTMTagger(EMBEDDING_DIM, HIDDEN_DIM, len(word_to_ix), len(tag_to_ix))
loss_function = nn.NLLLoss()
optimizer = optim.SGD(model.parameters(), lr=0.1)
with torch.no_grad():
    inputs = prepare_sequence(training_data[0][0], word_to_ix)
    tag_scores = model(inputs)
    print(tag_scores)
for epoch in range(30):
    for sentence, tags in training_data:
        model.zero_grad()
        sentence_in = prepare_sequence(sentence, word_to_ix)
        targets = prepare_sequence(tags, tag_to_ix)
        tag_scores = model(sentence_in)
        loss = loss_function(tag_scores, targets)
        loss.backward()
        optimizer.step()
with torch.no_grad():
    inputs = prepare_sequence(training_data[0][0], word_to_ix)
    tag_scores = model(inputs)
    print(tag_scores)
    print(tag_scores.argmax(1))
'''

PROGRAMS['bow_classifier'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
torch.manual_seed(1)
data = [("me gusta comer en la cafeteria".split(), "SPANISH"), ("Give it to me".split(), "ENGLISH"), ("No creo que sea una buena idea".split(), "SPANISH"), ("No it is not a good idea to get lost at sea".split(), "ENGLISH")]
test_data = [("Yo creo que si".split(), "SPANISH"), ("it is lost on me".split(), "ENGLISH")]
word_to_ix = {}
for sent, _ in data + test_data:
    for word in sent:
        if word not in word_to_ix:
            word_to_ix[word] = len(word_to_ix)
VOCAB_SIZE = len(word_to_ix)
NUM_LABELS = 2
class BoWClassifier(nn.Module):
    def __init__(self, num_labels, vocab_size):
        super(BoWClassifier, self).__init__()
        self.linear = nn.Linear(vocab_size, num_labels)
    def forward(self, bow_vec):
        return F.log_softmax(self.linear(bow_vec), dim=1)
def make_bow_vector(sentence, word_to_ix):
    vec = torch.zeros(len(word_to_ix))
    for word in sentence:
        vec[word_to_ix[word]] += 1
    return vec.view(1, -1)
def make_target(label, label_to_ix):
    return torch.LongTensor([label_to_ix[label]])
model = BoWClassifier(NUM_LABELS, VOCAB_SIZE)
for param in model.parameters():
    print(param)
with torch.no_grad():
    sample = data[0]
    bow_vector = make_bow_vector(sample[0], word_to_ix)
    log_probs = model(bow_vector)
    print(log_probs)
label_to_ix = {"SPANISH": 0, "ENGLISH": 1}
with torch.no_grad():
    for instance, label in test_data:
        bow_vec = make_bow_vector(instance, word_to_ix)
        log_probs = model(bow_vec)
        print(log_probs)
print(next(model.parameters())[:, word_to_ix["creo"]])
loss_function = nn.NLLLoss()
optimizer = optim.SGD(model.parameters(), lr=0.1)
for epoch in range(100):
    for instance, label in data:
        model.zero_grad()
        bow_vec = make_bow_vector(instance, word_to_ix)
        target = make_target(label, label_to_ix)
        log_probs = model(bow_vec)
        loss = loss_function(log_probs, target)
        loss.backward()
        optimizer.step()
with torch.no_grad():
    for instance, label in test_data:
        bow_vec = make_bow_vector(instance, word_to_ix)
        log_probs = model(bow_vec)
        print(log_probs)
print(next(model.parameters())[:, word_to_ix["creo"]])
'''

PROGRAMS['dl_nlp_intro_bits'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(1)
lin = nn.Linear(5, 3)
data = torch.randn(2, 5)
print(lin(data))
data = torch.randn(2, 2)
print(data)
print(F.relu(data))
data = torch.randn(5)
print(data)
print(F.softmax(data, dim=0))
print(F.softmax(data, dim=0).sum())
print(F.log_softmax(data, dim=0))
'''

PROGRAMS['cbow_embeddings'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(2)
raw_text = """We are about to study the idea of a computational process.
Computational processes are abstract beings that inhabit computers.""".split()
vocab = sorted(set(raw_text))
word_to_ix = {word: i for i, word in enumerate(vocab)}
data = []
for i in range(2, len(raw_text) - 2):
    context = [raw_text[i - 2], raw_text[i - 1], raw_text[i + 1], raw_text[i + 2]]
    data.append((context, raw_text[i]))
class CBOW(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim)
        self.out = nn.Linear(dim, vocab_size)
    def forward(self, inputs):
        return torch.log_softmax(self.out(self.emb(inputs).sum(0, keepdim=True)), dim=1)
def make_context_vector(context, word_to_ix):
    return torch.tensor([word_to_ix[w] for w in context], dtype=torch.long)
model = CBOW(len(vocab), 8)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for epoch in range(4):
    total = 0.0
    for context, target in data:
        opt.zero_grad()
        loss = nn.functional.nll_loss(model(make_context_vector(context, word_to_ix)), torch.tensor([word_to_ix[target]]))
        loss.backward(); opt.step(); total += loss.item()
    print(epoch, f"{total:.4f}")
print(make_context_vector(data[0][0], word_to_ix))
'''


def _mask(text: str) -> str:
    return re.sub(r"0x[0-9a-fA-F]+", "0xADDR", text)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # warnings go to stderr; only stdout is compared
        ours, theirs = run_both(ERROR_PRELUDE + PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
