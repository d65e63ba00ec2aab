"""Regressions of differences the graph fuzzer (tests/fuzz_graphs.py: tensor family ``_Gen.s14`` and the nn family)
found in session 21.

Each program prints what a user sees (values, bits, errors, warnings) and runs once with minigrad and once with
PyTorch (``parity.same_as_torch``); each is a short explicit form of the seed that found it.
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

PROGRAMS = {
    # fixed: PyTorch's clamp_min / clamp_max meta functions refuse a complex input or number bound (and an in-place
    # result that cannot be cast back) before TensorIterator refuses an expanded self or out=; clamp's meta function
    # refuses a complex input first for both overloads; relu_ is clamp_min_(0) after its bool check (seed 198874)
    "clamp_meta_errors_before_expanded_write": """
z = torch.ones(1, 1, dtype=torch.complex128).expand(2, 1, 1)
E(lambda: z.clamp_min_(0))
E(lambda: z.clamp_max_(0.5))
E(lambda: z.clamp_min_(torch.zeros(1)))          # (the tensor overload: TensorIterator's refusal first)
E(lambda: z.relu_())
E(lambda: torch.nn.functional.relu(z, inplace=True))
E(lambda: torch.ones(1, 1, dtype=torch.bool).expand(2, 1).relu_())
E(lambda: torch.ones(1, 1, dtype=torch.bool).expand(2, 1).clamp_min_(0))
E(lambda: torch.ones(1, 1, dtype=torch.int64).expand(2, 1).clamp_max_(0.5))
E(lambda: torch.ones(1, 1, dtype=torch.int64).expand(2, 1).clamp_min_(1j))
w = torch.ones(1, 1, dtype=torch.complex64)
o = torch.zeros(1, 1, dtype=torch.complex64).expand(2, 1)
E(lambda: torch.clamp(w, 0, out=o))
E(lambda: torch.clamp(w, torch.zeros(1), out=o))
E(lambda: torch.clamp_min(w, 0, out=o))
E(lambda: torch.clamp_max(w, torch.zeros(1), out=o))   # (the tensor overload: TensorIterator's refusal first)
E(lambda: torch.clamp_min(torch.ones(1, 1), 1j, out=torch.zeros(1, 1).expand(2, 1)))
""",
    # fixed: an in-place activation on an expanded tensor of a dtype its kernel lacks: TensorIterator's refusal of
    # the expanded write comes before the kernel's dtype error (rrelu in eval mode is leaky_relu_; in training its
    # own kernel checks the dtype first)
    "inplace_activation_expanded_before_dtype": """
F = torch.nn.functional
for dt in (torch.int64, torch.bool, torch.complex64):
    x = torch.ones(1, 1, dtype=dt).expand(2, 1)
    for f in (F.elu_, F.leaky_relu_, F.selu_, F.celu_, lambda t: F.hardsigmoid(t, inplace=True),
              lambda t: F.hardswish(t, inplace=True), lambda t: F.silu(t, inplace=True),
              lambda t: F.mish(t, inplace=True), lambda t: F.rrelu(t, inplace=True, training=False),
              lambda t: F.rrelu(t, inplace=True, training=True)):
        E(lambda: f(x))
E(lambda: F.rrelu(torch.ones(1, 1, dtype=torch.float16).expand(2, 1), inplace=True))
""",
    # fixed: clamp's out= dtype rules: with number bounds its unary TensorIterator wants out= of the result's very
    # dtype ("Found dtype ... but expected ..."), clamp_min / clamp_max too; with tensor bounds it casts into any
    # out= the common dtype casts to safely, and refuses the others ("result type ... can't be cast ...") before
    # its kernel's dtype errors (seed 198874's neighbourhood)
    "clamp_out_dtypes": """
dts = (torch.bool, torch.int64, torch.float32, torch.float64, torch.complex64)
for idt in dts:
    x = torch.ones(2, dtype=idt)
    for odt in dts:
        for bdt in dts:
            b = torch.zeros(1, dtype=bdt)
            E(lambda: print(torch.clamp(x, b, out=torch.empty(2, dtype=odt)).tolist()))
            E(lambda: print(torch.clamp(x, min=b, max=b, out=torch.empty(2, dtype=odt)).tolist()))
            E(lambda: print(torch.clamp_min(x, b, out=torch.empty(2, dtype=odt)).tolist()))
        E(lambda: print(torch.clamp(x, 0, out=torch.empty(2, dtype=odt)).tolist()))
        E(lambda: print(torch.clamp_max(x, 0.5, out=torch.empty(2, dtype=odt)).tolist()))
        E(lambda: print(torch.clamp_min(x, min=1, out=torch.empty(2, dtype=odt)).tolist()))
""",
    # fixed: float32 1x1 convolutions on oneDNN (a batch of 2 or more): the forward is one fused multiply-add chain
    # over all the input channels from the bias (strided ones too, when each size is a multiple of the stride;
    # otherwise the direct kernel), grad_input one chain over all the output channels from +0, and the bias
    # gradient running sums (the samples split between the threads with one block of 16 channels); a bias before a
    # batch norm gets a gradient of ~1e-7 whose bits follow them all (seed 184707)
    "conv_1x1_onednn_bits": """
import numpy as np
rng = np.random.default_rng(5)
for n, c, o, size, stride in ((2, 2, 1, (4,), 1), (3, 37, 20, (9,), 1), (4, 20, 33, (6,), 2), (5, 9, 12, (7,), 2),
                              (2, 19, 32, (3, 4), 1), (3, 24, 7, (4, 6), 2), (2, 5, 64, (2, 5), (1, 2))):
    x = torch.tensor(rng.standard_normal((n, c) + size).astype(np.float32), requires_grad=True)
    w = torch.tensor(rng.standard_normal((o, c) + (1,) * len(size)).astype(np.float32), requires_grad=True)
    b = torch.tensor(rng.standard_normal(o).astype(np.float32), requires_grad=True)
    conv = torch.nn.functional.conv1d if len(size) == 1 else torch.nn.functional.conv2d
    y = conv(x, w, b, stride=stride)
    g = torch.tensor(rng.standard_normal(tuple(y.shape)).astype(np.float32))
    gx, gb = torch.autograd.grad(y, (x, b), g)
    print(y.detach().numpy().tobytes().hex()[:96], float(y.detach().sum()), gx.numpy().tobytes().hex()[:96],
          float(gx.sum()), gb.numpy().tobytes().hex()[:64] if stride == 1 else "")
x5 = torch.tensor([[[-1.32, -0.12, 0.2, -0.72], [-2.33, -1.73, -0.14, 0.34]],
                   [[0.61, -0.87, 0.75, -0.24], [-1.26, -1.15, -1.67, 1.59]]], requires_grad=True)
torch.manual_seed(75)
net = torch.nn.Sequential(torch.nn.Conv1d(2, 1, 1), torch.nn.BatchNorm1d(1, affine=False), torch.nn.ReLU())
(net(x5) ** 2).mean().backward()
print(net[0].bias.grad.item().hex(), net[0].weight.grad.flatten().tolist())
""",
    # fixed: var / var_mean of a multi-output view whose base was modified in place, with too few degrees of
    # freedom: PyTorch's autograd refuses the view before the kernel warns (seed 199156)
    "rebased_unbind_view_refused_before_dof_warning": """
import warnings
b = torch.tensor([[1.0, 2.0], [0.5, 0.1]], dtype=torch.float64, requires_grad=True)
v0 = b * 1
v1, v2 = v0.unbind(0)
v0.abs_()
r, s = v0.unbind(-1)
for f in (lambda: torch.var_mean(v1[0], None, correction=2, keepdim=True), lambda: torch.var(v2, correction=5),
          lambda: torch.std_mean(r, correction=3)):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        E(f)
    print([str(w.message)[:40] for w in caught])
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    same_as_torch(PROGRAMS[name])
