"""Regression programs for the differences the nn graph fuzzer found in session 12's second wave
(``fuzz_graphs.py --nn`` seeds from 152400 on, ``_NNGen.op12``), and leftovers of its first wave.

Each program runs with minigrad and with PyTorch (``parity.same_as_torch``) and prints what differed.
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

PROGRAMS = {
    # fixed: nn.LSTM on a PackedSequence runs no check_forward_args (PyTorch's LSTM.forward only checks padded
    # input): a wrong-shaped state fails inside ATen's lstm, in its order: has_projections from size(2)
    # (IndexError for a 2-d state), gather_params ("got an incorrect number of RNN parameters" when the cell
    # state's size says projections and the module has none, or the reverse), pair_vec / apply_layer_stack
    # (states per layer), the input projection, then the cells' own matrix products and in-place adds
    "lstm_packed_wrong_state_shapes": """
def run(in_f, hshape, cshape, proj=0, layers=1, bi=False, es=False, lens=(3, 2), dt=torch.float64, bias=True):
    torch.manual_seed(0)
    m = torch.nn.LSTM(2, 3, num_layers=layers, bidirectional=bi, proj_size=proj, bias=bias).to(dt)
    x = torch.randn(3, len(lens), in_f, dtype=dt)
    pk = torch.nn.utils.rnn.pack_padded_sequence(x, list(lens), enforce_sorted=es)
    hx = None if hshape is None else (torch.randn(hshape, dtype=dt), torch.randn(cshape, dtype=dt))
    o, (h, c) = m(pk, hx)
    print(h.shape, c.shape, o.data.shape, (o.data * 1000).round(), (h * 1000).round())
C = dict
for case in [C(in_f=3, hshape=None, cshape=None), C(in_f=2, hshape=(2, 2, 3), cshape=(2, 2, 3)),
             C(in_f=2, hshape=(1, 3, 3), cshape=(1, 3, 3)), C(in_f=2, hshape=(1, 2, 4), cshape=(1, 2, 3)),
             C(in_f=2, hshape=(1, 2, 3), cshape=(1, 2, 4)), C(in_f=2, hshape=(1, 2, 3), cshape=(1, 2, 3), proj=2),
             C(in_f=3, hshape=(1, 2, 2), cshape=(1, 2, 3), proj=2), C(in_f=2, hshape=(1, 2), cshape=(1, 2)),
             C(in_f=2, hshape=(2, 2, 3), cshape=(2, 2, 3), bi=True),
             C(in_f=2, hshape=(3, 2, 3), cshape=(3, 2, 3), bi=True),
             C(in_f=3, hshape=(2, 2, 3), cshape=(2, 2, 3), layers=2, bi=True),
             C(in_f=2, hshape=(1, 1, 3), cshape=(1, 1, 3)), C(in_f=2, hshape=(1, 2, 4), cshape=(1, 2, 4)),
             C(in_f=2, hshape=(1, 3, 3), cshape=(1, 3, 3), es=True),
             C(in_f=2, hshape=(1, 1, 3), cshape=(1, 1, 3), es=True),
             C(in_f=2, hshape=(1, 2, 1), cshape=(1, 2, 3), proj=2),
             C(in_f=2, hshape=(1, 2, 2), cshape=(1, 2, 4), proj=2),
             C(in_f=2, hshape=(1, 2, 3), cshape=(1, 2, 3), proj=2, bias=False),
             C(in_f=2, hshape=(1, 2, 3, 1), cshape=(1, 2, 3, 1)),
             C(in_f=2, hshape=(1, 2, 4), cshape=(1, 2, 3), dt=torch.float32),
             C(in_f=2, hshape=(1, 2, 3), cshape=(1, 2, 3), lens=(3, 1, 2))]:
    print(case)
    E(lambda: run(**case))
""",
    # fixed: a step of an optimizer built with differentiable=True on a leaf requiring grad raises at the first
    # in-place update of the parameter, after what comes before it: PyTorch's _init_group makes every parameter's
    # state first, then the first parameter's state updates before its write run (all of Adam's; only the step
    # count with decoupled weight decay, ASGD; Rprop's step sizes but not prev), with their versions
    "optimizer_differentiable_state_before_error": """
# (not an L2 weight decay: with it PyTorch's gradient carries the parameter's history into the states, which
# then have a grad_fn; minigrad's optimizers update their states without recording)
KW = {"SGD": [dict(momentum=0.9)], "Adam": [dict(), dict(amsgrad=True)], "AdamW": [dict()],
      "RMSprop": [dict(momentum=0.5, centered=True)], "Adagrad": [dict()], "Adamax": [dict()],
      "NAdam": [dict(), dict(weight_decay=0.1, decoupled_weight_decay=True)],
      "RAdam": [dict(), dict(weight_decay=0.1, decoupled_weight_decay=True)], "Adadelta": [dict()],
      "ASGD": [dict(weight_decay=0.1)], "Rprop": [dict()]}
for name, kws in KW.items():
    for kw in kws:
        for steps in (0, 2):
            torch.manual_seed(0)
            lin = torch.nn.Linear(2, 1).double()
            o = getattr(torch.optim, name)(lin.parameters(), lr=0.1, **kw)
            for s in range(steps + 1):
                if s == steps:   # (a differentiable step after plain ones)
                    o.defaults["differentiable"] = True
                    for g in o.param_groups:
                        g["differentiable"] = True
                lin.zero_grad()
                (lin(torch.ones(3, 2, dtype=torch.float64) * (s + 1)) ** 2).sum().backward()
                E(lambda: o.step())
            print(name, kw, steps, [p._version for p in lin.parameters()], list(lin.parameters()))
            for p in lin.parameters():
                st = o.state.get(p, {})
                print(sorted((k, v, v._version) if torch.is_tensor(v) else (k, v) for k, v in st.items()))
""",
    # fixed (seed 153511): the backward of gelu (both approximations) on a 0-dim float32 input that is nan (a
    # ctc_loss of an impossible alignment): the nan derivative is kept as oneDNN's kernels keep it, which failed on
    # a NumPy scalar
    "gelu_backward_zero_dim_nan": """
for approx in ("none", "tanh"):
    for v in (float("nan"), float("inf"), -float("inf"), 1.5):
        for dt in (torch.float32, torch.float64):
            x = torch.tensor(v, dtype=dt, requires_grad=True)
            for g in (torch.tensor(float("nan"), dtype=dt), torch.tensor(2.0, dtype=dt)):
                y = torch.nn.functional.gelu(x * 1, approximate=approx)
                print(approx, v, dt, y, torch.autograd.grad(y, x, g)[0])
""",
    # fixed (seed 154215: LBFGS with clip_grad_norm_, its loss 210.6041405329578 vs 210.6041405329592): float64
    # vector norms (p = 1, 2) are summed in PyTorch's order as float32 ones were (_norm_f32.py): the 2-norm of a
    # contiguous run in 4 lanes (Vectorized<double>), the lanes added in order, then a tail of fused multiply-adds;
    # one value at a time otherwise. NumPy's pairwise sum differed in the last bit for ~1 norm in 5
    "vector_norm_float64_bits": """
torch.manual_seed(0)
for n in list(range(1, 40)) + [100, 1001]:
    x = torch.randn(n, dtype=torch.float64) * 10 ** (n % 5 - 2)
    print(n, torch.linalg.vector_norm(x).item(), x.norm(p=1).item(), x[::2].norm().item(),
          torch.linalg.vector_norm(x.reshape(1, -1).expand(2, -1), dim=1).tolist())
x = torch.randn(5, 7, 3, dtype=torch.float64)
for dim in (None, 0, 1, 2, (0, 1), (1, 2), (0, 2)):
    for ord in (1.0, 2.0):
        print(dim, ord, torch.linalg.vector_norm(x, ord, dim=dim).flatten().tolist(),
              torch.linalg.vector_norm(x.permute(2, 0, 1), ord, dim=dim).flatten().tolist())
lin = torch.nn.Linear(3, 2).double()
(lin(torch.randn(4, 3, dtype=torch.float64)) ** 3).sum().backward()
print(torch.nn.utils.clip_grad_norm_(lin.parameters(), 0.5).item(), [p.grad.tolist() for p in lin.parameters()])
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_nn_fuzz_fix_matches_torch(name: str):
    same_as_torch(PROGRAMS[name])
