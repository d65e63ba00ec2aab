"""Regression programs for the differences the nn graph fuzzer found in session 10 (``fuzz_graphs.py --nn``, its
module-level, optimizer and nn.utils families).

Each program runs with minigrad and with PyTorch (``parity.same_as_torch``) and prints what differed.
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

PROGRAMS = {
    # fixed: pad_sequence / pad_packed_sequence fill their result in C++ (at::full = empty + fill_, then one copy_
    # per sequence or per run of equal batch sizes): the result starts at _version 1, not 0
    "pad_sequence_versions": """
U = torch.nn.utils.rnn
a, b, c = (torch.ones(n, 2, requires_grad=True) for n in (3, 1, 2))
for bf in (True, False):
    for side in ('right', 'left'):
        for seqs in ([a, b, c], [a, a], [a]):
            p = U.pad_sequence(seqs, batch_first=bf, padding_side=side, padding_value=-1.0)
            print(bf, side, p._version, p.grad_fn.name())
x = torch.randn(3, 4, 2, dtype=torch.float64, requires_grad=True)
for lens in ([4, 2, 1], [4, 4, 4], [1, 1, 1], [2, 4, 1]):
    for bf in (True, False):
        for tl in (None, 6):
            for es in (True, False):
                if es and lens != sorted(lens, reverse=True):
                    continue
                pk = U.pack_padded_sequence(x if bf else x.transpose(0, 1), lens, batch_first=bf, enforce_sorted=es)
                o, n = U.pad_packed_sequence(pk, batch_first=bf, total_length=tl, padding_value=0.5)
                print(lens, bf, tl, es, o._version, o.grad_fn.name(), o.stride(), n)
""",
    # fixed: the optimizers' state tensors (step, exp_avg, momentum_buffer ...) count PyTorch's in-place updates
    # in their _version (they stayed at 0), and NAdam / single-tensor ASGD write their parameters twice per step
    "optimizer_state_versions": """
for name, kw in [("NAdam", {}), ("NAdam", {"decoupled_weight_decay": True, "weight_decay": 0.1}), ("Adam", {}),
                 ("AdamW", {"amsgrad": True}), ("SGD", {"momentum": 0.9}), ("SGD", {"momentum": 0.9, "nesterov": True}),
                 ("RMSprop", {}), ("RMSprop", {"momentum": 0.5, "centered": True}), ("Adagrad", {}), ("Adamax", {}),
                 ("RAdam", {"weight_decay": 0.1, "decoupled_weight_decay": True}), ("Adadelta", {}), ("ASGD", {}),
                 ("Rprop", {})]:
    for fe in (False, True):
        torch.manual_seed(0)
        m = torch.nn.Linear(2, 2).double()
        opt = getattr(torch.optim, name)(m.parameters(), lr=0.1, foreach=fe, **kw)
        x = torch.randn(3, 2, dtype=torch.float64)
        for i in range(2):
            opt.zero_grad()
            (m(x) ** 2).sum().backward()
            opt.step()
            print(name, kw, fe, i, m.weight._version, m.bias._version,
                  [(k, v._version) for s in opt.state.values() for k, v in s.items() if torch.is_tensor(v)])
        print(m.weight)
""",
    # fixed: Embedding(padding_idx=...) zeroes its padding row with an in-place fill_ after normal_: _version 2
    "embedding_padding_idx_version": """
torch.manual_seed(81)
e = torch.nn.Embedding(3, 2, max_norm=2.0, norm_type=3.0, padding_idx=0)
print(e.weight._version, e.weight)
y = e(torch.tensor([[1, 2]]))
print(e.weight._version, e.weight, y)
print(torch.nn.Embedding(4, 2).weight._version, torch.nn.Embedding(4, 2, padding_idx=-1).weight._version)
""",
    # fixed: clip_grad_value_ takes PyTorch's foreach path by default (clamp_min_, then clamp_max_: two versions)
    "clip_grad_value_versions": """
for fe in (None, True, False):
    lin = torch.nn.Linear(2, 2)
    lin(torch.ones(1, 2)).sum().backward()
    torch.nn.utils.clip_grad_value_(lin.parameters(), 0.5, foreach=fe)
    print(fe, lin.weight.grad._version, lin.weight.grad, lin.bias.grad)
""",
    # fixed: binary_cross_entropy's weight is broadcast with torch.broadcast_shapes (its message, sizes as
    # torch.Size), and a weight with more dims than the target is the kernel's shape error, not a result
    "binary_cross_entropy_weight_shapes": """
F = torch.nn.functional
x, t = torch.full((2, 2), 0.5, requires_grad=True), torch.full((2, 2), 0.3)
for w in (torch.ones(3), torch.ones(2, 3), torch.ones(3, 1), torch.ones(1, 2, 2), torch.ones(2, 1)):
    E(lambda: print(F.binary_cross_entropy(x, t, weight=w)))
    E(lambda: print(torch.nn.BCELoss(weight=w, reduction='none')(x, t)))
""",
    # fixed: a backward pass releases a CopySlices by dropping its wrapped node (PyTorch's fn = nullptr), not by
    # freeing what that node saved: under create_graph the node is also reached through its saved result's history,
    # and a second backward then ran it with freed tensors ("backward through the graph a second time")
    "copy_slices_release_keeps_shared_node": """
F = torch.nn.functional
for k in range(4):
    x = torch.tensor([[[-0.49, 1.29, 0.71], [0.56, -0.4, 0.27], [0.71, 1.06, 2.06]]], requires_grad=True)
    v = x * 0.5
    if k == 0:
        v[0].mul_(2); v[0].exp_()
    elif k == 1:
        v[0].exp_()
    elif k == 2:
        F.elu(v[0], inplace=True)
    else:
        torch.manual_seed(16)
        F.alpha_dropout(v[0], 0.5, True, inplace=True)
        F.elu(v[0], inplace=True)
    G = torch.autograd.grad(v.sum() + v.exp().sum(), [x], create_graph=True)
    sum((g * g).sum() for g in G).backward()
    print(k, x.grad)
x = torch.ones(2, 3, requires_grad=True)
v = x * 0.5
v[0].mul_(2)   # (a node that saves no tensor: the second pass still fails on the dropped CopySlices)
v.sum().backward()
E(lambda: v.sum().backward())
v = x * 0.5
v[1].exp_()
v.sum().backward(retain_graph=True)
v.sum().backward()
print(x.grad)
""",
    # fixed: gelu's second derivative (backward of GeluBackwardBackward0) follows PyTorch's gelu_double_backward
    # operation by operation (2f'gh + fhg' + fgh' for the tanh form, 2·pdf - x²·pdf for erf): the same float bits
    "gelu_double_backward_bits": """
F = torch.nn.functional
torch.manual_seed(0)
for dt in (torch.float32, torch.float64):
    x = (torch.randn(500, dtype=dt) * 3).requires_grad_()
    gO, ggI = torch.randn(500, dtype=dt), torch.randn(500, dtype=dt)
    for ap in ('tanh', 'none'):
        g, = torch.autograd.grad(F.gelu(x, approximate=ap), x, gO, create_graph=True)
        gg, = torch.autograd.grad(g, x, ggI)
        print(dt, ap, gg.numpy().tobytes().hex())
x = torch.tensor([[-0.37, 1.15, 0.07], [1.94, -1.78, 1.66]], requires_grad=True)
u = F.unfold(x[None, None], 2, padding=1)
g, = torch.autograd.grad(F.tanhshrink(F.gelu(u, approximate='tanh')).sum(), x, create_graph=True)
(g * g).sum().backward()
print(x.grad.numpy().tobytes().hex())
""",
    # fixed: cross_entropy with class probabilities checks its weight first (one value per class, 1-D: PyTorch's
    # message), refuses only a label smoothing above 1 (a negative one is ignored); with class indices, smoothing
    # and mean reduction, a (C, 1) weight fails in weight.gather as in PyTorch
    "cross_entropy_weight_checks": """
F = torch.nn.functional
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
t, ti = torch.softmax(torch.randn(3, 4), 1), torch.tensor([0, 1, 3])
for w in (None, torch.ones(5), torch.ones(4), torch.ones(4, 1), torch.rand(4)):
    for ls in (1.5, -0.1, 0.0, 0.2):
        for tt in (t, ti):
            for red in ('mean', 'sum'):
                E(lambda: print(ls, red, F.cross_entropy(x, tt, weight=w, label_smoothing=ls, reduction=red)))
E(lambda: print(F.cross_entropy(x[0], t[0], weight=torch.ones(3))))
x3 = torch.randn(3, 4, 2, requires_grad=True)
E(lambda: print(torch.nn.CrossEntropyLoss(weight=torch.ones(4, 1), label_smoothing=0.1)(x3, torch.zeros(3, 2).long())))
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_nn_fuzz_fix_matches_torch(name: str):
    same_as_torch(PROGRAMS[name])
