"""PyTorch parity for torch.nn.utils' parametrizations (parametrize, weight_norm, spectral_norm), the old
hook-based weight_norm / spectral_norm, prune, fusion, skip_init, stateless, and torch.optim.swa_utils.

Each parity test is a program run once with ``import minigrad as torch`` and once with real torch: the
printed module reprs, class names, parameter / buffer / state-dict names, values (float32 bits where the
kernels agree), gradients, grad_fn names, warnings and error messages must be the same. The other tests
check hand-computed values.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from parity import ERROR_PRELUDE, same_as_torch

import minigrad as mg
from minigrad import nn
from minigrad.nn.utils import parametrizations, parametrize, prune
from minigrad.optim import swa_utils

PRELUDE = ERROR_PRELUDE + """import copy, pickle, warnings
import torch.nn as nn
import torch.nn.utils.parametrize as P
from torch.nn.utils import parametrizations as PZ
import torch.nn.utils.prune as prune

def bits(t):
    # exact float32 values: the bit patterns
    print(t.detach().numpy().view('int32').tolist())

def names(m):
    print([k for k, _ in m.named_parameters()], [k for k, _ in m.named_buffers()], list(m.state_dict()))

class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)

class Double(nn.Module):
    def forward(self, X):
        return 2 * X
    def right_inverse(self, X):
        return X / 2

class Split(nn.Module):
    def forward(self, a, b):
        return a + b
    def right_inverse(self, X):
        return X * 0.25, X * 0.75
"""


def run(program: str) -> str:
    return same_as_torch(program, PRELUDE)


# ---- parametrize -------------------------------------------------------------------------------------

def test_register_parametrization_repr_names_class_and_gradients():
    run("""
torch.manual_seed(0)
m = nn.Linear(3, 3)
P.register_parametrization(m, "weight", Symmetric())
print(m); print(m.weight); names(m)
print(P.is_parametrized(m), P.is_parametrized(m, "weight"), P.is_parametrized(m, "bias"))
print(type(m), P.type_before_parametrizations(m), type(m).__mro__[1])
P.register_parametrization(m, "weight", Double())
print(m); print(m.weight.grad_fn)
m(torch.randn(2, 3)).sum().backward()
print(m.parametrizations.weight.original.grad)
with P.cached():
    print(m.weight is m.weight)
print(m.weight is m.weight)
""")


def test_assignment_runs_right_inverse_and_remove_parametrizations():
    run("""
d = nn.Linear(3, 3)
original = d.parametrizations if hasattr(d, 'parametrizations') else None
P.register_parametrization(d, "weight", Double()); P.register_parametrization(d, "weight", Double())
o = d.parametrizations.weight.original
d.weight = torch.eye(3) * 4
print(o is d.parametrizations.weight.original, o, d.weight)
s = nn.Linear(3, 3); P.register_parametrization(s, "weight", Symmetric())
def assign(): s.weight = torch.zeros(3, 3)
E(assign)
P.remove_parametrizations(d, "weight")
print(d, type(d), type(d.weight)); print(d.weight); names(d)
n = nn.Linear(2, 2); P.register_parametrization(n, "weight", Double())
w0 = n.parametrizations.weight.original.clone()
P.remove_parametrizations(n, "weight", leave_parametrized=False); print(torch.equal(n.weight, w0))
E(lambda: P.remove_parametrizations(n, "weight"))
""")


def test_right_inverse_returning_several_tensors():
    run("""
torch.manual_seed(1)
s = nn.Linear(2, 2); w = s.weight.detach().clone()
P.register_parametrization(s, "weight", Split())
print(s); names(s); print(torch.allclose(s.weight, w), s.weight.grad_fn)
E(lambda: P.remove_parametrizations(s, "weight", leave_parametrized=False))
P.remove_parametrizations(s, "weight"); print(type(s.weight).__name__, s.weight)
""")


def test_parametrize_errors_unsafe_buffers_copy_pickle():
    run("""
class Bad(nn.Module):
    def forward(self, X):
        return X[0]
class BadDtype(nn.Module):
    def forward(self, X):
        return X.double()
m = nn.Linear(2, 2)
E(lambda: P.register_parametrization(m, "nope", Double()))
E(lambda: P.register_parametrization(nn.Linear(2, 2), "weight", Bad()))
E(lambda: P.register_parametrization(nn.Linear(2, 2), "weight", BadDtype()))
u = nn.Linear(2, 2); P.register_parametrization(u, "weight", Bad(), unsafe=True); print(u.weight.shape)
E(lambda: P.register_parametrization(u, "weight", Bad()))
E(lambda: P.ParametrizationList([], torch.zeros(2)))
bn = nn.BatchNorm1d(3); P.register_parametrization(bn, "running_var", Double()); print(bn); names(bn)
bn.eval(); print(bn.parametrizations.running_var[0].training, bn.running_var)
E(lambda: pickle.dumps(bn))
c = copy.deepcopy(bn); print(type(c).__name__, torch.equal(c.running_var, bn.running_var))
""")


def test_transfer_parametrizations_training_and_dtype_conversion():
    run("""
torch.manual_seed(0)
a = nn.Linear(3, 2); P.register_parametrization(a, "weight", Double()); PZ.weight_norm(a, "bias", dim=None)
b = nn.Linear(3, 2)
P.transfer_parametrizations_and_params(a, b)
print(b); names(b); print(torch.equal(a.weight, b.weight), torch.equal(a.bias, b.bias))
print(b.parametrizations.weight.original is a.parametrizations.weight.original)
c = nn.Linear(3, 2); P.transfer_parametrizations_and_params(a, c, "weight"); print(c)
opt = torch.optim.SGD(a.parameters(), lr=0.1)
for _ in range(3):
    opt.zero_grad(); a(torch.ones(1, 3)).sum().backward(); opt.step()
print(a.weight, a.bias)
a.double(); print(a.weight.dtype, a.parametrizations.weight.original.dtype)
m = nn.Linear(2, 2); P.register_parametrization(m, "weight", Double()); m.train(False)
print(m.parametrizations.weight[0].training, hasattr(nn.Linear, "weight"), hasattr(type(m), "weight"))
""")


def test_parametrizations_weight_norm_values_and_gradients():
    run("""
torch.manual_seed(0)
for dim in (0, 1, None, -1):
    m = nn.Linear(4, 3); w0 = m.weight.detach().clone()
    PZ.weight_norm(m, dim=dim)
    g, v = m.parametrizations.weight.original0, m.parametrizations.weight.original1
    print(dim, g.shape, m.weight.grad_fn, bool((m.weight - w0).abs().max() < 1e-6))
    bits(g); bits(m.weight)
    m(torch.randn(2, 4)).pow(2).sum().backward()
    bits(g.grad); bits(v.grad)
print(m); names(m)
c = nn.Conv2d(2, 3, 3); PZ.weight_norm(c); print(c.parametrizations.weight.original0.shape); bits(c.weight)
c = nn.Conv2d(2, 3, 3); PZ.weight_norm(c, dim=2); print(c.weight.grad_fn); bits(c.weight)
w = c.weight
print(w.grad_fn.next_functions[0][0].name())
""")


def test_weight_norm_loads_old_weight_norm_state_dicts():
    run("""
warnings.simplefilter("ignore")
torch.manual_seed(0)
old = torch.nn.utils.weight_norm(nn.Linear(3, 2))
sd = old.state_dict(); print(list(sd))
new = PZ.weight_norm(nn.Linear(3, 2))
print(new.load_state_dict(sd)); print(torch.equal(new.weight, old.weight), list(sd))
seq = nn.Sequential(nn.ReLU(), PZ.weight_norm(nn.Linear(3, 2)))
print(seq.load_state_dict({"1." + k: v for k, v in sd.items()}))
E(lambda: PZ.weight_norm(nn.Linear(3, 2)).load_state_dict({"weight_g": sd["weight_g"]}))
""")


def test_weight_norm_interface_node():
    run("""
torch.manual_seed(0)
v = torch.randn(3, 4, requires_grad=True); g = torch.randn(3, 1, requires_grad=True)
w = torch._weight_norm(v, g, 0)
n = w.grad_fn
print(n.name(), n._saved_dim, n._saved_result1, n._saved_v.shape, n._saved_g.shape)
out, norms = torch._weight_norm_interface(v, g, 0); bits(out); bits(norms)
print(norms.requires_grad)
w.backward(torch.ones(3, 4)); bits(v.grad); bits(g.grad)
print(torch.norm_except_dim(torch.ones(2, 3, 4), 2, 1))
""")


def test_weight_norm_reduced_precision_and_double():
    run("""
torch.manual_seed(0)
for dt in (torch.bfloat16, torch.half, torch.double):
    v = torch.randn(3, 4).to(dt).requires_grad_(); g = torch.randn(3, 1).to(dt).requires_grad_()
    w, n = torch._weight_norm_interface(v, g, 0); print(w, n.dtype)
    w = torch._weight_norm(v, g, 0); print(w.grad_fn); w.sum().backward(); print(v.grad, g.grad)
    m = nn.Linear(4, 3).to(dt); PZ.weight_norm(m); print(m.weight, m.parametrizations.weight.original0.dtype)
""")


def test_weight_norm_double_backward_as_pytorch():
    # PyTorch's differentiable backward takes the saved norms as constants; minigrad builds the same graph
    run("""
def walk(n, d=0):
    if n is None or d > 8:
        return
    print('  ' * d + type(n).__name__, sorted(a for a in dir(n) if a.startswith('_saved_')))
    for c, _ in n.next_functions:
        walk(c, d + 1)
torch.manual_seed(0)
for dim, gshape in ((0, (2, 1, 1)), (2, (1, 1, 4))):
    v = torch.randn(2, 3, 4, dtype=torch.double, requires_grad=True)
    g = torch.randn(*gshape, dtype=torch.double, requires_grad=True)
    gv, gg = torch.autograd.grad(torch._weight_norm(v, g, dim).pow(2).sum(), (v, g), create_graph=True)
    walk(gv.grad_fn); walk(gg.grad_fn)
    second = torch.autograd.grad((gv * v).sum() + gg.sum(), (v, g))
    print([s.numpy().round(12).tolist() for s in second])
""")


def test_parametrizations_spectral_norm():
    run("""
torch.manual_seed(0)
s = nn.Linear(5, 4); PZ.spectral_norm(s)
sn = s.parametrizations.weight[0]
print(s); names(s)
bits(sn._u); bits(sn._v); bits(s.weight); print(s.weight.grad_fn)
s(torch.randn(3, 5)).sum().backward(); print(s.parametrizations.weight.original.grad)
bits(sn._u)
s.eval(); print(torch.equal(s.weight, s.weight)); bits(sn._u)
ct = nn.ConvTranspose2d(2, 3, 3); PZ.spectral_norm(ct, n_power_iterations=2)
print(ct.parametrizations.weight[0].dim, ct.weight.detach().numpy().round(6))
b = nn.Linear(2, 2); PZ.spectral_norm(b, name="bias"); print(b.bias, list(b.state_dict()))
E(lambda: PZ.spectral_norm(nn.Linear(2, 2), dim=3))
E(lambda: PZ.spectral_norm(nn.Linear(2, 2), n_power_iterations=0))
E(lambda: PZ.spectral_norm(nn.Linear(2, 2), name="foo"))
s2 = nn.Linear(5, 4); PZ.spectral_norm(s2); print(s2.load_state_dict(s.state_dict()))
""")


def test_parametrizations_orthogonal():
    run("""
torch.manual_seed(0)
for shape, mp in (((3, 3), None), ((3, 3), "cayley"), ((5, 3), None), ((3, 5), None), ((5, 3), "matrix_exp"),
                  ((4, 4), "householder")):
    m = nn.Linear(shape[1], shape[0])
    PZ.orthogonal(m, orthogonal_map=mp)
    w = m.weight
    print(shape, mp, w.grad_fn, list(m.state_dict()))
    print(w.detach().numpy().round(5))
    q = w if shape[0] >= shape[1] else w.mT
    print(torch.dist(q.mT @ q, torch.eye(q.shape[1])) < 1e-5)
    m(torch.randn(2, shape[1])).sum().backward()
    print(m.parametrizations.weight.original.grad.numpy().round(4))
m = nn.Linear(3, 3); PZ.orthogonal(m); print(m)
m = nn.Linear(3, 4); PZ.orthogonal(m, use_trivialization=False); names(m); print(m.weight.detach().numpy().round(5))
E(lambda: PZ.orthogonal(nn.Linear(3, 3), orthogonal_map="foo"))
E(lambda: PZ.orthogonal(nn.Linear(3, 3), name="bias"))
E(lambda: PZ.orthogonal(nn.Linear(3, 3), name="x"))
m = nn.Linear(3, 3); E(lambda: PZ.orthogonal(m, use_trivialization=False, orthogonal_map="cayley"))
""")


# ---- the old hook-based weight_norm / spectral_norm, skip_init, stateless, fusion ---------------------

def test_old_weight_norm():
    run("""
from torch.nn.utils import weight_norm, remove_weight_norm
torch.manual_seed(0)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    m = weight_norm(nn.Linear(4, 3))
print([(x.category.__name__, str(x.message)) for x in w])
warnings.simplefilter("ignore")   # (the later calls warn the same)
print(m); names(m)
hook = list(m._forward_pre_hooks.values())[0]
print(type(hook), hook.name, hook.dim, m.weight.grad_fn)
bits(m.weight_g); bits(m.weight)
m(torch.randn(2, 4)).sum().backward(); bits(m.weight_g.grad); bits(m.weight_v.grad)
E(lambda: weight_norm(m))
remove_weight_norm(m); names(m); print(type(m.weight).__name__); bits(m.weight)
E(lambda: remove_weight_norm(m))
c = weight_norm(nn.Conv1d(2, 3, 2), dim=None); print(c.weight_g.shape, c.weight.grad_fn)
c = weight_norm(nn.Conv1d(2, 3, 2), dim=1); print(c.weight_g.shape, c.weight.grad_fn); bits(c.weight)
""")


def test_old_spectral_norm():
    # (u and v are compared to 6 decimals: PyTorch's float32 norm of a 5-vector may differ in its last bit)
    run("""
from torch.nn.utils import spectral_norm, remove_spectral_norm
torch.manual_seed(0)
s = spectral_norm(nn.Linear(5, 4))
print(s); names(s); print(type(list(s._forward_pre_hooks.values())[0]))
print(s.weight_u.numpy().round(6), s.weight_v.numpy().round(6), s.weight.grad_fn)
y = s(torch.randn(2, 5)); print(s.weight.grad_fn, s.weight_u.numpy().round(6))
print(s.weight.detach().numpy().round(6))
y.sum().backward(); print(s.weight_orig.grad.numpy().round(5))
s.eval(); s(torch.randn(1, 5)); print(s.weight_u.numpy().round(6))
E(lambda: spectral_norm(s))
remove_spectral_norm(s); names(s); print(s.weight.detach().numpy().round(6))
E(lambda: remove_spectral_norm(s))
E(lambda: spectral_norm(nn.Linear(2, 2, bias=False), name="bias"))
E(lambda: spectral_norm(nn.Linear(2, 2), n_power_iterations=0))
ct = spectral_norm(nn.ConvTranspose1d(2, 3, 2)); print(ct.weight_u.shape, ct.weight_v.shape)
""")


def test_skip_init_stateless_and_fusion():
    run("""
from torch.nn.utils import skip_init, fuse_conv_bn_eval, fuse_linear_bn_eval, stateless
torch.manual_seed(3)
k = skip_init(nn.Linear, 3, 2); print(k, k.weight.shape, k.weight.requires_grad, torch.randn(2))
E(lambda: skip_init(int))
E(lambda: skip_init(nn.ReLU))
torch.manual_seed(1)
conv = nn.Conv2d(2, 3, 3); bn = nn.BatchNorm2d(3)
bn.running_mean.uniform_(); bn.running_var.uniform_(0.5, 2.0); bn.weight.data.uniform_(); bn.bias.data.uniform_()
E(lambda: fuse_conv_bn_eval(conv, bn))
conv.eval(); bn.eval()
f = fuse_conv_bn_eval(conv, bn); print(f, f.training); bits(f.weight); bits(f.bias)
x = torch.randn(1, 2, 5, 5); print(bool((f(x) - bn(conv(x))).abs().max() < 1e-5))
bits(fuse_conv_bn_eval(nn.Conv2d(2, 3, 3, bias=False).eval(), bn).bias)
bn2 = nn.BatchNorm2d(2).eval(); bn2.running_var.fill_(4.0)
bits(fuse_conv_bn_eval(nn.ConvTranspose2d(3, 2, 2).eval(), bn2, transpose=True).weight)
lin = nn.Linear(4, 3).eval(); bn1 = nn.BatchNorm1d(3).eval(); bn1.running_mean.fill_(0.5)
fl = fuse_linear_bn_eval(lin, bn1); print(fl, type(fl.weight).__name__, fl.weight.requires_grad); bits(fl.weight)
E(lambda: fuse_linear_bn_eval(lin, nn.BatchNorm1d(5).eval()))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    out = stateless.functional_call(lin, {"weight": torch.ones(3, 4)}, (torch.ones(1, 4),))
print([(x.category.__name__, str(x.message)) for x in w], out, lin.weight.shape)
""")


# ---- prune ------------------------------------------------------------------------------------------

def test_prune_unstructured_structured_and_containers():
    run("""
torch.manual_seed(0)
m = nn.Linear(5, 4)
prune.l1_unstructured(m, "weight", amount=0.3)
print(m); names(m); print(m.weight_mask, m.weight)
print(list(m._forward_pre_hooks.values())[0])
m(torch.randn(3, 5)).sum().backward(); print(m.weight_orig.grad)
prune.random_unstructured(m, "weight", amount=4); print(m.weight_mask)
h = list(m._forward_pre_hooks.values())[0]; print(type(h), len(h), [type(p).__name__ for p in h])
prune.ln_structured(m, "weight", amount=1, n=2, dim=0); print(m.weight_mask)
prune.random_structured(m, "weight", amount=0.4, dim=1); print(m.weight_mask)
print(prune.is_pruned(m), prune.is_pruned(nn.Linear(1, 1)))
prune.remove(m, "weight"); names(m); print(m.weight, prune.is_pruned(m))
E(lambda: prune.remove(m, "weight"))
c = nn.Conv2d(2, 4, 3)
prune.random_structured(c, "weight", amount=2, dim=0); print(c.weight_mask.sum(dim=(1, 2, 3)))
prune.ln_structured(c, "weight", amount=0.5, n=1, dim=1); print(c.weight_mask.sum(dim=(0, 2, 3)))
prune.identity(c, "bias"); print(c.bias_mask, c.bias.grad_fn)
prune.custom_from_mask(c, "bias", mask=torch.tensor([0, 1, 1, 0])); print(c.bias_mask, c.bias)
l = nn.Linear(3, 2); prune.l1_unstructured(l, "weight", 0.5); l.weight_orig.data.fill_(2.0); l(torch.ones(1, 3))
print(l.weight)
""")


def test_prune_global_importance_scores_and_errors():
    run("""
torch.manual_seed(2)
net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
prune.global_unstructured([(net[0], "weight"), (net[2], "weight")], pruning_method=prune.L1Unstructured, amount=0.5)
print(net[0].weight_mask, net[2].weight_mask)
prune.global_unstructured([(net[0], "weight"), (net[2], "bias")], pruning_method=prune.RandomUnstructured, amount=3)
print(net[0].weight_mask, net[2].bias_mask, net(torch.ones(1, 4)))
l = nn.Linear(3, 2); prune.l1_unstructured(l, "weight", amount=2, importance_scores=torch.arange(6.).view(2, 3))
print(l.weight_mask)
print(prune.L1Unstructured(amount=2).prune(torch.tensor([3., -1., 2., 0.5])))
print(prune.RandomUnstructured(0.5).compute_mask(torch.ones(6), torch.ones(6)))
E(lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=1.5))
E(lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=-1))
E(lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount="a"))
l = nn.Linear(2, 2); E(lambda: prune.l1_unstructured(l, "weight", amount=5)); names(l)
E(lambda: prune.ln_structured(nn.Linear(2, 2), "bias", amount=1, n=2, dim=0))
E(lambda: prune.ln_structured(nn.Linear(2, 2), "weight", amount=1, n=2, dim=2))
E(lambda: prune.global_unstructured([(net[0], "weight")], pruning_method=prune.LnStructured, amount=1, n=2, dim=0))
E(lambda: prune.global_unstructured(3, pruning_method=prune.L1Unstructured, amount=1))
""")


# ---- swa_utils --------------------------------------------------------------------------------------

def test_swa_utils_averaged_models_swalr_update_bn():
    run("""
from torch.optim.swa_utils import (AveragedModel, SWALR, update_bn, get_ema_multi_avg_fn, get_swa_multi_avg_fn,
                                   get_ema_avg_fn, get_swa_avg_fn)
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2))
swa = AveragedModel(model)
print(swa); print(list(swa.state_dict())); print(swa.n_averaged)
averaged = [swa, AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9)),
            AveragedModel(model, avg_fn=get_ema_avg_fn(0.9)), AveragedModel(model, multi_avg_fn=get_swa_multi_avg_fn()),
            AveragedModel(model, use_buffers=True)]
opt = torch.optim.SGD(model.parameters(), lr=0.5)
sched = SWALR(opt, swa_lr=0.05, anneal_epochs=3)
print(sched.get_last_lr())
for i in range(5):
    loss = model(torch.randn(6, 3)).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    for a in averaged:
        a.update_parameters(model)
    print(i, sched.get_last_lr(), swa.n_averaged)
for a in averaged:
    bits(a.module[0].weight); bits(a.module[1].running_mean)
print(swa(torch.ones(2, 3)))
print(list(sched.state_dict()))
lin = SWALR(opt, swa_lr=[0.01], anneal_strategy="linear", anneal_epochs=0); lin.step(); print(lin.get_last_lr())
E(lambda: SWALR(opt, swa_lr=0.1, anneal_strategy="exp"))
E(lambda: SWALR(opt, swa_lr=0.1, anneal_epochs=-1))
E(lambda: SWALR(opt, swa_lr=[0.1, 0.2]))
E(lambda: get_ema_multi_avg_fn(1.5))
E(lambda: AveragedModel(model, avg_fn=get_swa_avg_fn(), multi_avg_fn=get_swa_multi_avg_fn()))
swa.eval()
update_bn([(torch.randn(4, 3), 0) for _ in range(3)], swa)
bn = swa.module[1]
print(swa.training, bn.running_mean, bn.running_var, bn.num_batches_tracked, bn.momentum)
""")


def test_adafactor():
    # (values to 6 decimals: minigrad's float32 norm of a short vector may differ from PyTorch's in its last bit)
    run("""
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 2))
conv = nn.Conv2d(2, 3, 2)
params = list(model.parameters()) + list(conv.parameters())
opt = torch.optim.Adafactor(params, lr=0.05, weight_decay=0.1)
print(opt)
for i in range(4):
    loss = model(torch.randn(5, 4)).pow(2).mean() + conv(torch.randn(1, 2, 3, 3)).sum()
    opt.zero_grad(); loss.backward(); opt.step()
for p in params:
    print(p.detach().numpy().round(6))
st = opt.state_dict()["state"]
print({k: list(v) for k, v in st.items()}, st[0]["step"], st[0]["row_var"].shape, st[0]["col_var"].shape)
print(st[0]["row_var"].numpy().round(8), st[1]["variance"].numpy().round(8))
o2 = torch.optim.Adafactor(model.parameters(), maximize=True, eps=(1e-20, 1e-2), d=2.0)
model(torch.randn(5, 4)).sum().backward(); o2.step(); print(model[0].weight.detach().numpy().round(6))
E(lambda: torch.optim.Adafactor(model.parameters(), lr=-1))
E(lambda: torch.optim.Adafactor(model.parameters(), beta2_decay=0.5))
E(lambda: torch.optim.Adafactor(model.parameters(), eps=(-1, 1e-3)))
E(lambda: torch.optim.Adafactor(model.parameters(), eps=(None, -1)))
E(lambda: torch.optim.Adafactor(model.parameters(), d=0.5))
E(lambda: torch.optim.Adafactor(model.parameters(), weight_decay=-1))
c = torch.zeros(2, dtype=torch.complex64, requires_grad=True); c.grad = torch.ones(2, dtype=torch.complex64)
E(lambda: torch.optim.Adafactor([c]).step())
""")


# ---- hand-computed checks ----------------------------------------------------------------------------

def test_weight_norm_by_hand():
    # v = [3, 4], g = 10: w = g·v/‖v‖ = [6, 8]; with s = Σ grad·v = 7 and n = 5,
    # dL/dg = s/n = 1.4 and dL/dv = (g/n)·(grad - v·s/n²) = 2·([1, 1] - [3, 4]·0.28) = [0.32, -0.24]
    v = mg.tensor([[3.0, 4.0]], requires_grad=True)
    g = mg.tensor([[10.0]], requires_grad=True)
    w = mg._weight_norm(v, g, 0)
    assert w.grad_fn.name() == "WeightNormInterfaceBackward0"
    np.testing.assert_allclose(w.detach().numpy(), [[6.0, 8.0]])
    w.sum().backward()
    np.testing.assert_allclose(g.grad.numpy(), [[1.4]], rtol=1e-6)
    np.testing.assert_allclose(v.grad.numpy(), [[0.32, -0.24]], rtol=1e-5)


def test_parametrized_weight_norm_keeps_the_weight_and_splits_it():
    m = nn.Linear(3, 2)
    with mg.no_grad():
        m.weight.copy_(mg.tensor([[3.0, 0.0, 4.0], [0.0, 1.0, 0.0]]))
    parametrizations.weight_norm(m)
    g = m.parametrizations.weight.original0
    np.testing.assert_allclose(g.detach().numpy(), [[5.0], [1.0]])   # the row norms
    np.testing.assert_allclose(m.weight.detach().numpy(), [[3.0, 0.0, 4.0], [0.0, 1.0, 0.0]], rtol=1e-6)
    parametrize.remove_parametrizations(m, "weight")
    assert type(m) is nn.Linear and isinstance(m.weight, nn.Parameter)


def test_spectral_norm_divides_by_the_largest_singular_value():
    m = nn.Linear(2, 2, bias=False)
    with mg.no_grad():
        m.weight.copy_(mg.tensor([[3.0, 0.0], [0.0, 1.0]]))   # singular values 3 and 1
    parametrizations.spectral_norm(m)
    np.testing.assert_allclose(m.weight.detach().numpy(), [[1.0, 0.0], [0.0, 1 / 3]], rtol=1e-5, atol=1e-6)


def test_chained_parametrizations_and_assignment():
    class Plus1(nn.Module):
        def forward(self, x):
            return x + 1

        def right_inverse(self, x):
            return x - 1

    m = nn.Linear(2, 2)
    parametrize.register_parametrization(m, "bias", Plus1())
    parametrize.register_parametrization(m, "bias", Plus1())
    m.bias = mg.tensor([5.0, 7.0])   # stored as bias - 2
    np.testing.assert_allclose(m.parametrizations.bias.original.detach().numpy(), [3.0, 5.0])
    np.testing.assert_allclose(m.bias.detach().numpy(), [5.0, 7.0])
    assert type(m).__name__ == "ParametrizedLinear" and parametrize.type_before_parametrizations(m) is nn.Linear


def test_l1_pruning_by_hand():
    m = nn.Linear(3, 2, bias=False)
    with mg.no_grad():
        m.weight.copy_(mg.tensor([[0.1, -2.0, 0.3], [4.0, -0.05, 1.0]]))
    prune.l1_unstructured(m, "weight", amount=2)   # the two smallest |w|: 0.1 and -0.05
    np.testing.assert_array_equal(m.weight_mask.numpy(), [[0, 1, 1], [1, 0, 1]])
    out = m(mg.ones(1, 3))
    np.testing.assert_allclose(out.detach().numpy(), [[-1.7, 5.0]], rtol=1e-6)
    out.sum().backward()
    np.testing.assert_array_equal(m.weight_orig.grad.numpy(), [[0, 1, 1], [1, 0, 1]])   # only kept entries learn
    prune.remove(m, "weight")
    assert not prune.is_pruned(m) and [n for n, _ in m.named_parameters()] == ["weight"]


def test_swa_average_is_the_running_mean():
    model = nn.Linear(1, 1, bias=False)
    avg = swa_utils.AveragedModel(model)
    for value in (1.0, 2.0, 6.0):
        with mg.no_grad():
            model.weight.fill_(value)
        avg.update_parameters(model)
    assert avg.n_averaged.item() == 3
    np.testing.assert_allclose(avg.module.weight.detach().numpy(), [[3.0]])   # (1 + 2 + 6) / 3


def test_swalr_cosine_schedule_by_hand():
    # lr 1 → swa_lr 0 over 2 epochs: α = (1 - cos(π t))/2 at t = 1/2, 1 gives 0.5, then 0
    opt = mg.optim.SGD([nn.Parameter(mg.zeros(1))], lr=1.0)
    sched = swa_utils.SWALR(opt, swa_lr=0.0, anneal_epochs=2)
    lrs = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # (scheduler stepped without an optimizer step)
        for _ in range(3):
            sched.step()
            lrs.append(opt.param_groups[0]["lr"])
    np.testing.assert_allclose(lrs, [0.5, 0.0, 0.0], atol=1e-12)


def test_fuse_linear_bn_by_hand():
    # y = ((x·w + b) - μ)·γ/√(σ² + ε) + β with w = 2, b = 1, μ = 1, σ² = 3, ε = 1, γ = 1, β = 0.5:
    # scale 1/2, so the fused layer is w' = 1, b' = (1 - 1)/2 + 0.5 = 0.5
    lin = nn.Linear(1, 1).eval()
    bn = nn.BatchNorm1d(1, eps=1.0).eval()
    with mg.no_grad():
        lin.weight.fill_(2.0)
        lin.bias.fill_(1.0)
        bn.running_mean.fill_(1.0)
        bn.running_var.fill_(3.0)
        bn.bias.fill_(0.5)
    fused = mg.nn.utils.fuse_linear_bn_eval(lin, bn)
    np.testing.assert_allclose(fused.weight.detach().numpy(), [[1.0]])
    np.testing.assert_allclose(fused.bias.detach().numpy(), [0.5])


def test_old_weight_norm_warns_and_hooks():
    with pytest.warns(FutureWarning, match="parametrizations.weight_norm"):
        m = mg.nn.utils.weight_norm(nn.Linear(2, 2))
    assert [n for n, _ in m.named_parameters()] == ["bias", "weight_g", "weight_v"]
    with mg.no_grad():
        m.weight_g.fill_(2.0)
    m(mg.ones(1, 2))   # the pre-hook recomputes the weight: each row has norm g = 2
    np.testing.assert_allclose(m.weight.detach().norm(dim=1).numpy(), [2.0, 2.0], rtol=1e-6)


def test_adafactor_first_step_by_hand():
    # step 1: 1 - β₂ = 1, so v = g²; u = g/|g| = sign(g), RMS(u) = 1 (no clipping);
    # α = max(eps2, RMS(p))·min(lr, 1/√1) = RMS(p)·lr, so p ← p - RMS(p)·lr·sign(g)
    p = nn.Parameter(mg.tensor([3.0, -4.0]))
    p.grad = mg.tensor([0.5, 2.0])
    mg.optim.Adafactor([p], lr=0.1).step()
    rms = (12.5) ** 0.5   # √((9 + 16)/2)
    np.testing.assert_allclose(p.detach().numpy(), [3.0 - 0.1 * rms, -4.0 - 0.1 * rms], rtol=1e-6)
