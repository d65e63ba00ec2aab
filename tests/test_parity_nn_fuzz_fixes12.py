"""Regression programs for the differences the nn graph fuzzer found in session 12 (``fuzz_graphs.py --nn``, its
``_NNGen.op12`` families: recurrent modules over packed sequences, MultiheadAttention options, loss modules,
interpolate modes, norm modules, the old weight_norm / spectral_norm hooks, optimizers' flags with swa_utils,
checkpointing, Embedding / EmbeddingBag modules).

Each program runs with minigrad and with PyTorch (``parity.same_as_torch``) and prints what differed.
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

PROGRAMS = {
    # fixed: CrossMapLRN2d's Function is PyTorch's Python code step for step, in-place and out= writes included:
    # its output's version is 4, and a backward with create_graph=True fails on torch.mul(..., out=) with the
    # saved output (which requires grad); a plain backward gives the same bits
    "cross_map_lrn2d_version_and_double_backward": """
torch.manual_seed(0)
for dt in (torch.float32, torch.float64):
    x = torch.randn(2, 4, 2, 3, dtype=dt, requires_grad=True)
    m = torch.nn.CrossMapLRN2d(3, alpha=0.5, beta=0.75, k=2.0)
    y = m(x)
    print(y._version, type(y.grad_fn).__name__, y)
    E(lambda: torch.autograd.grad(y.sum(), [x], create_graph=True))
    y = m(x)
    (y * y).sum().backward()
    print(x.grad)
    E(lambda: m(x[0]))
""",
    # fixed: antialiased bilinear / bicubic interpolate to a width of 1 with a height change: PyTorch's height pass
    # gives every output row the value of row 0 (its kernel folds the size-1 width into the height); the backward
    # is a kernel of its own and is right
    "interpolate_antialias_width_one": """
torch.manual_seed(0)
for mode in ("bilinear", "bicubic"):
    for dt in (torch.float32, torch.float64):
        for shape, size in [((1, 1, 4, 1), (2, 1)), ((2, 3, 7, 5), (3, 1)), ((1, 2, 4, 2), (6, 1)),
                            ((1, 1, 4, 1), (2, 2)), ((1, 1, 1, 4), (1, 2))]:
            x = torch.randn(shape, dtype=dt, requires_grad=True)
            y = torch.nn.functional.interpolate(x, size=size, mode=mode, antialias=True)
            y.backward(torch.arange(y.numel(), dtype=dt).reshape(y.shape) + 1)
            print(mode, shape, size, y, x.grad)
        x = torch.randn(2, 2, 4, 1, dtype=dt)
        print(torch.nn.functional.interpolate(x, scale_factor=(0.5, 1.5), recompute_scale_factor=True,
                                              mode=mode, antialias=True))
""",
    # fixed: optimizers built with differentiable=True step with grad mode on (PyTorch's _use_grad_for_differentiable),
    # so their in-place update of a parameter that is a leaf requiring grad raises
    "optimizer_differentiable_leaf_step": """
for name in ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adamax", "NAdam", "RAdam", "Adadelta", "ASGD", "Rprop"]:
    torch.manual_seed(0)
    lin = torch.nn.Linear(2, 1)
    o = getattr(torch.optim, name)(lin.parameters(), lr=0.1, differentiable=True)
    lin(torch.ones(3, 2)).sum().backward()
    E(lambda: o.step())
    with torch.no_grad():
        E(lambda: o.step())
    o2 = getattr(torch.optim, name)(lin.parameters(), lr=0.1)
    o2.step()
    print(name, lin.weight)
""",
    # fixed: LSTM over a PackedSequence runs no check_forward_args in PyTorch: a wrong feature size fails in the
    # first layer's input projection (mat1 @ mat2), not with RNNBase.check_input's message (RNN and GRU do check)
    "lstm_packed_wrong_input_size": """
for kind in ("LSTM", "GRU", "RNN"):
    for proj, layers, bi in ((0, 1, False), (2, 2, True)):
        torch.manual_seed(0)
        extra = {"proj_size": proj} if kind == "LSTM" else {}
        m = getattr(torch.nn, kind)(2, 3, num_layers=layers, bidirectional=bi, **extra).double()
        for feat in (1, 2, 3):
            x = torch.randn(3, 2, feat, dtype=torch.float64)
            pk = torch.nn.utils.rnn.pack_padded_sequence(x, [3, 2], enforce_sorted=False)
            E(lambda: print(m(pk)[0].data.sum()))
            E(lambda: print(m(x)[0].sum()))
""",
    # fixed: MultiheadAttention's inference fast path (batch_first self-attention in eval mode without grad, an
    # even number of heads): the fused kernel returns a fresh contiguous output (not a transposed view) and checks
    # the query's size with its own RuntimeError; the slow path (odd heads, training, grad) stays as it was
    "mha_fast_path_output_and_error": """
for dt in (torch.float32, torch.float64):
    for heads, n, train, grad, bf in ((2, 1, False, False, True), (2, 3, False, False, True),
                                      (1, 3, False, False, True), (2, 3, True, False, True),
                                      (2, 3, False, True, True), (2, 3, False, False, False)):
        torch.manual_seed(0)
        m = torch.nn.MultiheadAttention(4, heads, batch_first=bf).to(dt)
        m.train(train)
        x = torch.randn(n, 3, 4, dtype=dt)
        with torch.set_grad_enabled(grad):
            a, w = m(x, x, x)
            print(heads, n, train, grad, a.stride(), a._base is None, a.requires_grad, w.stride(), w.shape)
            print((a.double() * 1000).round(), (w.double() * 1000).round())
            E(lambda: m(torch.randn(n, 3, 5, dtype=dt), torch.randn(n, 3, 5, dtype=dt), torch.randn(n, 3, 5, dtype=dt)))
            y = torch.randn(n, 3, 5, dtype=dt)
            E(lambda: m(y, y, y))
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_nn_fuzz_fix_matches_torch(name: str):
    same_as_torch(PROGRAMS[name])
