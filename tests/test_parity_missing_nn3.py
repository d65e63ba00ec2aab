"""PyTorch parity for the third missing-nn pass: x.unfold, F.unfold / F.fold and nn.Unfold / nn.Fold,
torch.nn.utils.rnn (pad / pack / unpack sequences, PackedSequence through nn.RNN / GRU / LSTM), and the
layers of the third group (see the sections below).

Each parity test is a program run once with ``import minigrad as torch`` and once with real torch: the
printed values (exact float bits), gradients, graphs (node names, ``_saved_*`` values), module reprs and
error messages must be the same. The other tests check hand-computed values.
"""
from __future__ import annotations

import numpy as np
from parity import ERROR_PRELUDE, same_as_torch

import minigrad as mg
from minigrad.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

PRELUDE = ERROR_PRELUDE + """import numpy as np
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import (PackedSequence, pack_padded_sequence, pack_sequence, pad_packed_sequence,
                                pad_sequence, unpack_sequence, unpad_sequence)

def walk(t, depth=8):
    # the graph below t: node names, non-tensor _saved_* values (tensors by shape), down to the leaves
    def rec(n, d):
        if n is None or d > depth:
            return
        saved = {a: getattr(n, a) for a in dir(n) if a.startswith('_saved_')}
        print('  ' * d + type(n).__name__,
              {k: (tuple(v.shape) if isinstance(v, torch.Tensor) else v) for k, v in saved.items()})
        for c, _ in n.next_functions:
            rec(c, d + 1)
    rec(t.grad_fn, 0)

def bits(t):
    # exact values: the bit patterns (every float dtype converts to float64 exactly)
    t = t.detach()
    print(t.dtype, tuple(t.shape), t.double().numpy().tobytes().hex())
"""


def check(program: str) -> str:
    return same_as_torch(program, PRELUDE)


# =============================================================================================
# x.unfold (a view) and F.unfold / F.fold (im2col / col2im)
# =============================================================================================

def test_tensor_unfold_view_graph_and_gradients():
    check("""
x = torch.arange(24.).reshape(2, 3, 4).requires_grad_()
for args in ((-1, 2, 1), (1, 2, 1), (0, 1, 1), (2, 3, 2)):
    y = x.unfold(*args)
    print(y.shape, y.stride(), y.is_contiguous(), y._base is x)
    walk(y)
y = x.unfold(1, 2, 1)
(y * torch.arange(y.numel()).reshape(y.shape)).sum().backward()
print(x.grad)
g = torch.ones(x.unfold(-2, 2, 1).shape, requires_grad=True)
gx, = torch.autograd.grad(x.unfold(-2, 2, 1), x, g, create_graph=True)
walk(gx)
gg, = torch.autograd.grad((gx * gx).sum(), g)
print(gg)
z = torch.tensor(3., requires_grad=True)
w = z.unfold(0, 1, 1)
print(w, w.grad_fn._saved_self_sym_sizes)
a = torch.zeros(6)
a.unfold(0, 2, 2).add_(1)
print(a)
b = torch.zeros(6, requires_grad=True).clone()
v = b.unfold(0, 3, 3)
v.mul_(2)
print(v.grad_fn.name(), b.grad_fn.name())
torch.manual_seed(1)
r = torch.randn(5, 7, dtype=torch.float32)
bits(r.unfold(1, 3, 2))
v = torch.arange(10.)
E(lambda: v.unfold(1, 2, 1))
E(lambda: v.unfold(0, 11, 1))
E(lambda: v.unfold(0, 2, 0))
E(lambda: v.unfold(0, -1, 1))
E(lambda: torch.tensor(3.).unfold(0, 2, 1))
print(v.unfold(0, 0, 1).shape, v.unfold(-1, 10, 3))
""")


def test_unfold_fold_values_graphs_and_errors():
    check("""
torch.manual_seed(0)
z = torch.randn(2, 3, 6, 7, requires_grad=True)
u = F.unfold(z, (2, 3), dilation=(2, 1), padding=(1, 2), stride=(2, 1))
print(u.shape)
walk(u)
bits(u)
f = F.fold(u * 1.5, (6, 7), (2, 3), dilation=(2, 1), padding=(1, 2), stride=(2, 1))
walk(f)
bits(f)
f.backward(torch.randn(f.shape))
bits(z.grad)
z3 = torch.randn(3, 4, 5, requires_grad=True)
u3 = F.unfold(z3, 2, padding=1, stride=2)
walk(u3)
print(torch.equal(F.fold(u3, (4, 5), 2, padding=1, stride=2), z3))
gg = torch.randn(u3.shape, requires_grad=True)
g, = torch.autograd.grad(u3, z3, gg, create_graph=True)
walk(g)
g2, = torch.autograd.grad(g.sum(), gg)
print(g2)
print(nn.Unfold((2, 3)), nn.Fold((4, 5), 2, stride=2), nn.Unfold(2, 1, 0, 1))
print(nn.Fold((4, 5), 2)(torch.ones(1, 12, 12)))
print(nn.Unfold(2, stride=2)(torch.arange(16.).reshape(1, 1, 4, 4)))
x = torch.randn(2, 3, 4, 5)
c = torch.randn(2, 12, 12)
E(lambda: F.unfold(torch.randn(4, 5), 2))
E(lambda: F.unfold(torch.randn(1, 2, 3, 4, 5), 2))
E(lambda: F.unfold(x, 6))
E(lambda: F.unfold(x, 0, stride=0, dilation=0, padding=-1))
E(lambda: F.unfold(x, 2, stride=0, dilation=0, padding=-1))
E(lambda: F.unfold(x, 2, stride=0, padding=-1))
E(lambda: F.unfold(x, 2, stride=0))
E(lambda: F.unfold(x, (2, 2, 2)))
E(lambda: F.unfold(torch.randn(2, 0, 4, 5), 2))
E(lambda: F.unfold(torch.arange(20).reshape(1, 1, 4, 5), 2))
print(F.unfold(torch.randn(0, 3, 4, 5), 2).shape)
E(lambda: F.fold(c, (4, 5), 2, stride=0, dilation=0, padding=-1))
E(lambda: F.fold(c, (4, 5), 2, dilation=0, padding=-1))
E(lambda: F.fold(c, (4, 5), 3))
E(lambda: F.fold(torch.randn(12), (4, 5), 2))
E(lambda: F.fold(c, (1, 1), 2))
E(lambda: F.fold(torch.randn(4, 12), 4, 2, stride=(1, 2)))
E(lambda: F.fold(torch.randn(4, 0, 2), 4, 2))
E(lambda: F.fold(torch.arange(16).reshape(4, 4), 3, 2))
print(F.fold(torch.randn(0, 12, 12), (4, 5), 2).shape)
""")


def test_unfold_by_hand():
    x = mg.arange(6.).reshape(1, 1, 2, 3)
    # 2x2 blocks of [[0, 1, 2], [3, 4, 5]]: two windows, columns (0 1 3 4) and (1 2 4 5)
    assert mg.nn.functional.unfold(x, 2).tolist() == [[[0., 1.], [1., 2.], [3., 4.], [4., 5.]]]
    ones = mg.nn.functional.fold(mg.ones(1, 4, 2), (2, 3), 2)
    assert ones.tolist() == [[[[1., 2., 1.], [1., 2., 1.]]]]     # the middle column is in both windows
    t = mg.arange(5.)
    assert t.unfold(0, 2, 2).tolist() == [[0., 1.], [2., 3.]]


# =============================================================================================
# torch.nn.utils.rnn
# =============================================================================================

def test_pad_pack_unpack_sequences():
    check("""
torch.manual_seed(0)
a, b, c = (torch.randn(n, 2, requires_grad=True) for n in (3, 2, 1))
p = pad_sequence([a, b, c])
print(p.shape)
walk(p)
p = pad_sequence([a, b, c], batch_first=True, padding_value=-1, padding_side='left')
print(p)
ps = pack_sequence([a, b, c])
print(ps, type(ps).__name__, isinstance(ps, tuple), ps._fields)
walk(ps.data)
ps2 = pack_sequence([b, a, c], enforce_sorted=False)
print(ps2)
o, lengths = pad_packed_sequence(ps2)
print(o, lengths)
walk(o)
o, lengths = pad_packed_sequence(ps, batch_first=True, total_length=5)
walk(o)
print(unpack_sequence(ps2))
print(unpad_sequence(o, lengths, batch_first=True))
(o * torch.arange(o.numel()).reshape(o.shape)).sum().backward()
print(a.grad, b.grad, c.grad)
x = torch.randn(4, 3, 2, requires_grad=True)
pk = pack_padded_sequence(x, [4, 2, 1])
print(pk.batch_sizes, pk.batch_sizes.dtype)
g = torch.randn(pk.data.shape, requires_grad=True)
gx, = torch.autograd.grad(pk.data, x, g, create_graph=True)
walk(gx)
pk = pack_padded_sequence(x.transpose(0, 1), torch.tensor([2, 4, 1]), batch_first=True, enforce_sorted=False)
print(pk)
gx, = torch.autograd.grad(pk.data, x, torch.ones_like(pk.data, requires_grad=True), create_graph=True)
walk(gx)
E(lambda: pack_padded_sequence(x, [4, 2]))
E(lambda: pack_padded_sequence(x, [2, 4, 1]))
E(lambda: pack_padded_sequence(x, [4, 2, 0]))
E(lambda: pack_padded_sequence(torch.zeros(0, 3), []))
E(lambda: pad_packed_sequence(pk, total_length=2))
E(lambda: pad_sequence([]))
E(lambda: pad_sequence(3))
E(lambda: pad_sequence([a], padding_side='mid'))
E(lambda: PackedSequence(torch.randn(3)))
print(PackedSequence(torch.ones(2), torch.tensor([2]), torch.tensor([1, 0])))
print(pack_sequence([a, b]).double().data.dtype, pack_sequence([a, b]).to(torch.float64).data.dtype)
pp = pad_sequence([a, b, c]).detach()
print(unpad_sequence(pp, torch.tensor([3, 2, 1])), pp.shape)
""")


def test_recurrent_layers_on_packed_sequences():
    check("""
for cls, kw in [(nn.RNN, {}), (nn.GRU, {}), (nn.LSTM, {}),
                (nn.RNN, dict(num_layers=2, bidirectional=True, nonlinearity='relu')),
                (nn.GRU, dict(bidirectional=True, batch_first=True)), (nn.LSTM, dict(num_layers=2, bidirectional=True)),
                (nn.LSTM, dict(proj_size=2))]:
    torch.manual_seed(0)
    m = cls(4, 3, **kw)
    seqs = [torch.randn(n, 4, requires_grad=True) for n in (2, 5, 3, 3)]
    pk = pack_sequence(seqs, enforce_sorted=False)
    out, h = m(pk)
    hs = h if isinstance(h, tuple) else (h,)
    print(cls.__name__, type(out).__name__, out.batch_sizes, out.sorted_indices, out.unsorted_indices)
    bits(out.data)
    for t in hs:
        bits(t)
    walk(out.data, depth=5)
    (out.data.pow(2).sum() + sum(t.sum() for t in hs)).backward()
    for t in seqs + list(m.parameters()):
        bits(t.grad)
    hx = tuple(torch.randn(t.shape) for t in hs)
    out2, _ = m(pk, hx if isinstance(h, tuple) else hx[0])
    bits(out2.data)
m = nn.GRU(4, 3)
pk = pack_sequence([torch.randn(3, 4), torch.randn(2, 4)])
E(lambda: m(pk, torch.zeros(1, 3, 3)))
E(lambda: nn.GRU(5, 3)(pk))
""")


def test_packing_by_hand():
    x = mg.tensor([[1., 4.], [2., 5.], [3., 0.]])    # (T=3, B=2): lengths 3 and 2
    packed = pack_padded_sequence(x, [3, 2])
    assert packed.data.tolist() == [1., 4., 2., 5., 3.]
    assert packed.batch_sizes.tolist() == [2, 2, 1]
    padded, lengths = pad_packed_sequence(packed, padding_value=-1.0)
    assert padded.tolist() == [[1., 4.], [2., 5.], [3., -1.]] and lengths.tolist() == [3, 2]
    assert pad_sequence([mg.ones(1), mg.ones(2)], batch_first=True).tolist() == [[1., 0.], [1., 1.]]
    # the engine sums the packed rows back into their padded places
    x.requires_grad_()
    pack_padded_sequence(x, [3, 2]).data.sum().backward()
    assert np.array_equal(x.grad.numpy(), [[1., 1.], [1., 1.], [1., 0.]])


# =============================================================================================
# Bilinear, LPPool1d/2d, LocalResponseNorm, RReLU, LazyLinear
# =============================================================================================

def _close_to_torch(fn, *shapes, rtol=1e-5, atol=1e-6, dtype="float32"):
    """fn(T, *inputs) with minigrad and with torch on the same random inputs: outputs and gradients close.

    (For the composites of pow / sqrt: minigrad's float pow and sqrt kernels round apart from PyTorch's
    SLEEF ones in the last bit, so these compare values, the graphs are compared exactly elsewhere.)"""
    from parity import assert_close, torch_or_skip
    torch = torch_or_skip()
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s).astype(dtype) for s in shapes]
    results = []
    for T in (mg, torch):
        inputs = [T.tensor(a, requires_grad=True) for a in arrays]
        out = fn(T, *inputs)
        out.backward(T.tensor(np.linspace(-1, 1, out.numel()).reshape(tuple(out.shape)).astype(dtype)))
        results.append([out] + [x.grad for x in inputs])
    for mine, theirs in zip(*results):
        assert_close(mine, theirs, rtol=rtol, atol=atol)


def test_bilinear_lp_pool_lrn_graphs_reprs_and_errors():
    check("""
torch.manual_seed(0)
m = nn.Bilinear(3, 4, 5)
print(m, m.weight.shape, m.bias.shape)
bits(m.weight)
bits(m.bias)
x1 = torch.randn(2, 3, requires_grad=True, dtype=torch.float64)
x2 = torch.randn(2, 4, requires_grad=True, dtype=torch.float64)
walk(m.double()(x1, x2))
g, = torch.autograd.grad(m(x1, x2).sum(), x1, create_graph=True)
walk(g)
m.float()
# float32: PyTorch's loop of batched products, rounded as it rounds (products up to 1024 multiply-adds)
a, b = torch.randn(6, 3, requires_grad=True), torch.randn(6, 4, requires_grad=True)
y = m(a, b)
bits(y)
y.backward(torch.randn(6, 5))
for t in (a.grad, b.grad, m.weight.grad, m.bias.grad):
    bits(t)
m2 = nn.Bilinear(3, 4, 5, bias=False)
print(m2, m2(torch.randn(2, 7, 3), torch.randn(2, 7, 4)).shape)
E(lambda: F.bilinear(torch.randn(2, 3), torch.randn(2, 1, 4), m2.weight))
E(lambda: F.bilinear(torch.randn(2, 3), torch.randn(3, 4), m2.weight))
E(lambda: F.bilinear(torch.randn(2, 2), torch.randn(2, 4), m2.weight))
E(lambda: F.bilinear(torch.randn(2, 3), torch.randn(2, 5), m2.weight))
E(lambda: F.bilinear(torch.randn(2, 3), torch.randn(2, 4), m2.weight, torch.randn(3)))
x = torch.randn(2, 3, 8, requires_grad=True)
for p in (2, 1.5, float('inf'), -float('inf')):
    walk(F.lp_pool1d(x, p, 3, 2), 3)
bits(F.lp_pool1d(x, float('inf'), 3, 2))
x4 = torch.randn(2, 3, 6, 6, requires_grad=True)
walk(F.lp_pool2d(x4, 2, 2), 3)
print(nn.LPPool1d(2, 3), nn.LPPool2d(2, (2, 3), stride=1, ceil_mode=True), nn.LPPool1d(1.5, 2)(x).shape,
      nn.LPPool2d(3, 2, ceil_mode=True)(x4).shape)
walk(F.local_response_norm(x, 3))
walk(F.local_response_norm(x4, 2))
print(nn.LocalResponseNorm(3), nn.LocalResponseNorm(2, 0.1, 0.2, 3))
E(lambda: F.local_response_norm(torch.randn(2, 3), 2))
print(F.local_response_norm(torch.randn(0, 3, 2), 2).shape)
""")


def test_bilinear_lp_pool_lrn_values_and_gradients():
    _close_to_torch(lambda T, a, b, w, c: T.nn.functional.bilinear(a, b, w, c), (2, 5, 3), (2, 5, 4), (6, 3, 4), (6,))
    _close_to_torch(lambda T, x: T.nn.functional.lp_pool1d(x.abs() + 0.1, 2, 3, 2), (2, 3, 8))
    _close_to_torch(lambda T, x: T.nn.functional.lp_pool2d(x.abs() + 0.1, 3, (2, 3), stride=1, ceil_mode=True),
                    (2, 3, 6, 6))
    for shape in ((2, 5, 7), (2, 6, 3, 4), (2, 6, 3, 2, 2)):
        _close_to_torch(lambda T, x: T.nn.functional.local_response_norm(x, 4, alpha=0.1, beta=0.5, k=2.0), shape)
        _close_to_torch(lambda T, x: T.nn.functional.local_response_norm(x, 3), shape, dtype="float64")


def test_rrelu_samples_and_lazy_linear():
    check("""
torch.manual_seed(0)
r = torch.randn(4, 5, requires_grad=True)
y = F.rrelu(r, training=True)
bits(y)
walk(y)
bits(y.grad_fn._saved_noise)
y.sum().backward()
bits(r.grad)
bits(F.rrelu(r.double(), 0.1, 0.4, training=True))
y = F.rrelu(r)
bits(y)
walk(y)
g, = torch.autograd.grad(F.rrelu(r, training=True), r, torch.ones(4, 5, requires_grad=True), create_graph=True)
walk(g)
z = r * 1
F.rrelu(z, training=True, inplace=True)
walk(z)
bits(z)
z = r * 1
F.rrelu_(z)
walk(z)
bits(z)
m = nn.RReLU()
print(m, nn.RReLU(0.1, 0.3, inplace=True))
bits(m(r))
m.eval()
bits(m(r))
print(torch.rand(1))
E(lambda: F.rrelu(r, 0.5, 0.1, training=True))
E(lambda: F.rrelu(r, 0.5, 0.1))
E(lambda: F.rrelu(torch.tensor([1, 2]), training=True))
bits(F.rrelu(r, -1, 2, training=True))
torch.manual_seed(0)
m = nn.LazyLinear(4)
print(m, m.weight, type(m.weight).__name__, m.bias, m.has_uninitialized_params())
y = m(torch.randn(2, 3))
print(m, type(m).__name__, m.weight, m.bias, y.grad_fn.name())
m2 = nn.LazyLinear(2, bias=False)
print(m2.bias)
m2(torch.ones(3))
print(m2, m2.weight.shape, [n for n, _ in m2.named_parameters()])
""")


def test_new_layers_by_hand():
    F = mg.nn.functional
    # y = x1ᵀ W x2 with W = [[1, 2], [3, 4]]: [1, 1]·W·[1, 0]ᵀ = 4, then + bias 0.5
    y = F.bilinear(mg.tensor([[1., 1.]]), mg.tensor([[1., 0.]]), mg.tensor([[[1., 2.], [3., 4.]]]), mg.tensor([0.5]))
    assert y.tolist() == [[4.5]]
    # the 2-norm of the windows (3, 4) and (0, 5): 5 and 5
    assert F.lp_pool1d(mg.tensor([[3., 4., 0., 5.]]), 2, 2).tolist() == [[5., 5.]]
    # one channel with size=1: x / (1 + 1e-4·x²)^0.75
    x = mg.tensor([[[2.0]]], dtype=mg.float64)
    assert np.isclose(F.local_response_norm(x, 1).item(), 2.0 / (1 + 1e-4 * 4) ** 0.75)
    # evaluation: the mean slope (1/8 + 1/3)/2 on negative inputs
    assert np.allclose(F.rrelu(mg.tensor([-1.0, 2.0], dtype=mg.float64)).tolist(), [-(1 / 8 + 1 / 3) / 2, 2.0])
    slopes = F.rrelu(-mg.ones(1000, dtype=mg.float64), 0.2, 0.3, training=True).neg()
    assert 0.2 <= slopes.min().item() and slopes.max().item() <= 0.3
    lazy = mg.nn.LazyLinear(3)
    lazy(mg.ones(2, 7))
    assert type(lazy) is mg.nn.Linear and lazy.weight.shape == (3, 7) and lazy.in_features == 7


# =============================================================================================
# Conv3d / F.conv3d (the convolution row with three spatial dims)
# =============================================================================================

def test_conv3d():
    check("""
torch.manual_seed(0)
m = nn.Conv3d(2, 4, (2, 3, 2), stride=(1, 2, 1), padding=1, dilation=(1, 1, 2), bias=True)
print(m, m.weight.shape, m.bias.shape)
bits(m.weight)
bits(m.bias)
x = torch.randn(2, 2, 4, 5, 6, dtype=torch.float64, requires_grad=True)
md = m.double()
y = md(x)
walk(y)
print(y.shape, round(y.sum().item(), 10))
y.pow(2).sum().backward()
print(round(x.grad.sum().item(), 8), round(md.weight.grad.abs().sum().item(), 8))
print(nn.Conv3d(4, 4, 3, groups=2, padding='same', bias=False, padding_mode='circular'))
m2 = nn.Conv3d(4, 4, 3, groups=2, padding='same', bias=False, padding_mode='reflect').double()
print(m2(torch.randn(4, 5, 5, 5, dtype=torch.float64)).shape)
E(lambda: F.conv3d(torch.randn(2, 3, 4, 4), torch.randn(2, 3, 2, 2, 2)))
E(lambda: F.conv3d(torch.randn(1, 3, 4, 4, 4), torch.randn(2, 2, 2, 2, 2)))
print(F.conv3d(torch.randn(1, 3, 4, 4, 4), torch.randn(2, 3, 2, 2, 2), stride=2).shape)
""")


def test_conv3d_by_hand():
    # a 2x2x2 kernel of ones sums each 2x2x2 block: over arange(8) that is 0 + 1 + ... + 7
    x = mg.arange(8.).reshape(1, 1, 2, 2, 2)
    assert mg.nn.functional.conv3d(x, mg.ones(1, 1, 2, 2, 2)).tolist() == [[[[[28.]]]]]
