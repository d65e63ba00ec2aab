"""PyTorch parity for the fourth missing-nn pass: nn.UpsamplingNearest2d / UpsamplingBilinear2d,
F.channel_shuffle / nn.ChannelShuffle, F.pdist, F.max_unpool1d / max_unpool2d and nn.MaxUnpool1d / 2d.

Each parity test is a program run once with ``import minigrad as torch`` and once with real torch: the
printed values (exact float bits unless said), gradients, graphs (node names, ``_saved_*`` values), module
reprs and error messages must be the same. The other tests check hand-computed values.
"""
from __future__ import annotations

import numpy as np
import pytest
from parity import ERROR_PRELUDE, same_as_torch

import minigrad as mg
import minigrad.nn.functional as F

PRELUDE = ERROR_PRELUDE + """import numpy as np
import torch.nn as nn
import torch.nn.functional as F

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

def data(*shape, seed=0, dtype=np.float32):
    # the same inputs for both libraries (NumPy's generator, not either library's RNG)
    return torch.tensor(np.random.default_rng(seed).standard_normal(shape).astype(dtype), requires_grad=True)

def weights(t):
    return torch.tensor(np.linspace(-1, 1, t.numel(), dtype=np.float32).reshape(tuple(t.shape)))
"""


def check(program: str) -> str:
    return same_as_torch(program, PRELUDE)


# =============================================================================================
# UpsamplingNearest2d / UpsamplingBilinear2d
# =============================================================================================

def test_upsampling_modules_values_graphs_reprs():
    check("""
x = data(2, 3, 3, 4)
for m in (nn.UpsamplingNearest2d(scale_factor=2), nn.UpsamplingNearest2d(size=(5, 7)),
          nn.UpsamplingBilinear2d(scale_factor=2), nn.UpsamplingBilinear2d(size=(5, 7)),
          nn.UpsamplingBilinear2d(scale_factor=(1.5, 2.5)), nn.UpsamplingNearest2d(size=4)):
    print(m, type(m), m.name, m.mode, m.align_corners, m.scale_factor, m.size)
    y = m(x)
    bits(y)
    walk(y)
    g, = torch.autograd.grad(y, x, weights(y))
    bits(g)
print(isinstance(nn.UpsamplingBilinear2d(2), nn.Upsample))
E(lambda: nn.UpsamplingNearest2d())
E(lambda: nn.UpsamplingNearest2d()(x))
E(lambda: nn.UpsamplingBilinear2d(2)(x[0, 0]))
""")


def test_upsampling_bilinear_aligns_corners():
    # align_corners=True: the corners are kept and a 2→3 resize puts the mean in the middle
    x = mg.tensor([[[[0.0, 2.0], [4.0, 6.0]]]])
    y = mg.nn.UpsamplingBilinear2d(size=3)(x)
    assert y.tolist() == [[[[0.0, 1.0, 2.0], [2.0, 3.0, 4.0], [4.0, 5.0, 6.0]]]]
    z = mg.nn.UpsamplingNearest2d(scale_factor=2)(x)
    assert z[0, 0].tolist() == [[0.0, 0.0, 2.0, 2.0], [0.0, 0.0, 2.0, 2.0], [4.0, 4.0, 6.0, 6.0], [4.0, 4.0, 6.0, 6.0]]


# =============================================================================================
# channel_shuffle
# =============================================================================================

def test_channel_shuffle_values_graph_double_backward_errors():
    check("""
x = data(2, 6, 3, 2)
for groups in (1, 2, 3, 6):
    y = F.channel_shuffle(x, groups)
    bits(y)
    walk(y)
    print(y.is_contiguous())
    v = weights(y).requires_grad_()
    g, = torch.autograd.grad(y, x, v, create_graph=True)
    bits(g)
    walk(g)
    gg, = torch.autograd.grad(g, v, weights(g))
    bits(gg)
m = nn.ChannelShuffle(3)
print(m, type(m), m.groups)
bits(m(x))
print(torch.channel_shuffle(torch.arange(12).reshape(1, 6, 2), 2))
print(F.channel_shuffle(torch.zeros(0, 4, 1), 2).shape)
E(lambda: F.channel_shuffle(x, 0))
E(lambda: F.channel_shuffle(x, -2))
E(lambda: F.channel_shuffle(x, 4))
E(lambda: F.channel_shuffle(torch.ones(2, 4), 2))
""")


def test_channel_shuffle_by_hand():
    x = mg.arange(6.0).reshape(1, 6, 1).requires_grad_()
    y = F.channel_shuffle(x, 2)
    assert y.flatten().tolist() == [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]
    assert type(y.grad_fn).__name__ == "ChannelShuffleBackward0" and y.grad_fn._saved_groups == 2
    y.backward(mg.tensor([[[10.0], [11.0], [12.0], [13.0], [14.0], [15.0]]]))
    # output position k came from input channel perm[k]: the gradient goes back there
    assert x.grad.flatten().tolist() == [10.0, 12.0, 14.0, 11.0, 13.0, 15.0]


# =============================================================================================
# pdist
# =============================================================================================

def test_pdist_values_graph_gradients():
    check("""
x = data(5, 4)
for p in (2.0, 0.0, 1.0, float('inf')):
    d = F.pdist(x, p)
    bits(d)
    walk(d)
    print(d.grad_fn._saved_p, d.grad_fn._saved_result is not None, d.grad_fn._saved_self.shape)
    g, = torch.autograd.grad(d, x, weights(d))
    bits(g)
x64 = data(4, 3, dtype=np.float64)
bits(torch.pdist(x64))
bits(torch.autograd.grad(torch.pdist(x64), x64, weights(torch.pdist(x64)).double())[0])
walk(F.pdist(x.t()))
print(F.pdist(torch.ones(1, 3)).shape, F.pdist(torch.ones(0, 3)).shape)
same = torch.tensor([[1., 2.], [1., 2.], [0., 0.]], requires_grad=True)
d = F.pdist(same)
bits(d)
bits(torch.autograd.grad(d.sum(), same)[0])
""")


def test_pdist_general_p_values_and_errors():
    # p not in {0, 1, 2, inf}: PyTorch's pow (SLEEF) may round the last bit differently, so 2 ulp here
    out = check("""
x = data(5, 4)
for p in (0.5, 1.5, 3.0):
    d = F.pdist(x, p)
    walk(d)
    print(np.round(d.detach().numpy(), 5))
    print(np.round(torch.autograd.grad(d, x, weights(d))[0].numpy(), 5))
d = F.pdist(x)
g, = torch.autograd.grad(d.sum(), x, create_graph=True)
walk(g)
E(lambda: g.sum().backward())
E(lambda: F.pdist(torch.ones(3)))
E(lambda: F.pdist(torch.ones(2, 2, 2)))
E(lambda: F.pdist(torch.ones(3, 2, dtype=torch.long)))
E(lambda: F.pdist(torch.ones(3, 2), -1.0))
E(lambda: F.pdist(torch.ones(3, 2), float('nan')))
E(lambda: F.pdist(torch.ones(3, 2, dtype=torch.float16)))
""")
    assert "PdistBackwardBackward0" in out and "NotImplementedError" in out


def test_pdist_by_hand():
    x = mg.tensor([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0]], requires_grad=True)
    d = mg.pdist(x)
    assert d.tolist() == [5.0, 10.0, 5.0]                     # pairs (0,1), (0,2), (1,2)
    assert mg.pdist(x, 1).tolist() == [7.0, 14.0, 7.0]
    assert mg.pdist(x, float("inf")).tolist() == [4.0, 8.0, 4.0]
    d.backward(mg.tensor([1.0, 0.0, 2.0]))
    # ∂‖a-b‖/∂a = (a-b)/‖a-b‖: row 0 gets 1·(-0.6, -0.8); row 1 gets 1·(0.6, 0.8) + 2·(-0.6, -0.8); row 2 2·(0.6, 0.8)
    np.testing.assert_allclose(x.grad.numpy(), [[-0.6, -0.8], [-0.6, -0.8], [1.2, 1.6]], rtol=1e-6)


# =============================================================================================
# max_unpool1d / max_unpool2d
# =============================================================================================

def test_max_unpool_values_graphs_double_backward():
    check("""
x = data(2, 3, 4, 6)
y, i = F.max_pool2d(x, 2, return_indices=True)
for kw in ({}, {'output_size': (5, 7)}, {'output_size': [2, 3, 4, 6]}):
    u = F.max_unpool2d(y, i, 2, **kw)
    bits(u)
    walk(u)
    v = weights(u).requires_grad_()
    g, = torch.autograd.grad(u, x, v, create_graph=True)
    bits(g)
    walk(g, depth=3)
    bits(torch.autograd.grad(g, v, weights(g))[0])
m = nn.MaxUnpool2d(2)
print(m, type(m), m.kernel_size, m.stride, m.padding)
bits(m(y, i))
bits(m(y[0], i[0]))
x1 = data(2, 3, 7)
y1, i1 = F.max_pool1d(x1, 3, 2, return_indices=True)
u1 = nn.MaxUnpool1d(3, 2)(y1, i1)
bits(u1)
walk(u1)
bits(torch.autograd.grad(u1, x1, weights(u1))[0])
bits(F.max_unpool1d(y1, i1, 3, 2, output_size=[8]))
print(nn.MaxUnpool1d(2), nn.MaxUnpool1d((3,), stride=1, padding=1), nn.MaxUnpool2d((2, 3), 1, 1))
y2, i2 = F.max_pool2d(x, 3, 1, padding=1, return_indices=True)   # overlapping windows: repeated indices
bits(F.max_unpool2d(y2, i2, 3, 1, 1))
""")


def test_max_unpool_errors():
    check("""
y, i = F.max_pool2d(data(1, 2, 4, 4), 2, return_indices=True)
E(lambda: F.max_unpool2d(y, i.int(), 2))
E(lambda: F.max_unpool2d(y, i[..., :1], 2))
E(lambda: F.max_unpool2d(y[0, 0], i[0, 0], 2))
E(lambda: F.max_unpool2d(y, i, 2, output_size=(9, 4)))
E(lambda: F.max_unpool2d(y, i, 2, output_size=(4,)))
# one bad index at a time (with several, PyTorch's threads race to report one of them)
for where, value in (((0, 0, 0, 0), 100), ((0, 1, 1, 1), -3), ((0, 1, 0, 1), 16)):
    j = i.clone()
    j[where] = value
    E(lambda: F.max_unpool2d(y, j, 2))
y1, i1 = F.max_pool1d(data(1, 2, 6), 2, return_indices=True)
E(lambda: F.max_unpool1d(y1, i1, 2, output_size=(9,)))
E(lambda: F.max_unpool1d(y1, i1.clone().index_fill_(-1, torch.tensor([1]), 7)[:, :1], 2))
E(lambda: F.max_unpool1d(y1[:, :1], i1[:, :1].clone().fill_(7), 2))
""")


def test_max_unpool_by_hand():
    x = mg.tensor([[[[1.0, 2.0], [3.0, 4.0]]]], requires_grad=True)
    idx = mg.tensor([[[[0, 3], [12, 15]]]])
    u = F.max_unpool2d(x, idx, 2)
    expected = np.zeros((4, 4))
    expected.flat[[0, 3, 12, 15]] = [1, 2, 3, 4]
    assert u[0, 0].tolist() == expected.tolist()
    assert type(u.grad_fn).__name__ == "MaxUnpool2DBackward0"
    assert u.grad_fn._saved_indices.tolist() == idx.tolist()
    u.backward(mg.arange(16.0).reshape(1, 1, 4, 4))
    assert x.grad.flatten().tolist() == [0.0, 3.0, 12.0, 15.0]    # grad read back at each index


@pytest.mark.parametrize("kernel, stride", [(2, None), (3, 1), ((2, 3), (2, 3))])
def test_unpool_inverts_pool_at_the_maxima(kernel, stride):
    x = mg.tensor(np.random.default_rng(1).permutation(48).reshape(1, 2, 4, 6).astype(np.float32))
    y, i = F.max_pool2d(x, kernel, stride, return_indices=True)
    u = F.max_unpool2d(y, i, kernel, stride, output_size=x.shape[-2:])
    assert F.max_pool2d(u, kernel, stride).tolist() == y.tolist()   # the maxima are back where they were


# =============================================================================================
# 3-d pooling: max_pool3d, avg_pool3d (padding, ceil_mode), adaptive_max_pool3d
# =============================================================================================

def test_pool3d_values_graphs_double_backward():
    check("""
x = data(2, 3, 5, 6, 7)
calls = [lambda x: F.max_pool3d(x, 2), lambda x: F.max_pool3d(x, (2, 3, 2), 1, 1, (1, 2, 1), True),
         lambda x: F.max_pool3d(x, [3], [2], [1], ceil_mode=True), lambda x: torch.max_pool3d(x, 2),
         lambda x: F.avg_pool3d(x, 2), lambda x: F.avg_pool3d(x, 3, 2, 1, True, False),
         lambda x: F.avg_pool3d(x, (3, 2, 3), 2, (1, 0, 1), True, True),
         lambda x: F.avg_pool3d(x, 3, 2, 1, False, True, 5),
         lambda x: F.adaptive_max_pool3d(x, (2, 3, 4)), lambda x: F.adaptive_max_pool3d(x, (3, None, 5)),
         lambda x: F.adaptive_max_pool3d(x[0], 4)]
for f in calls:
    y = f(x)
    bits(y)
    walk(y)
    v = weights(y).requires_grad_()
    g, = torch.autograd.grad(y, x, v, create_graph=True)
    bits(g)
    walk(g, depth=2)
    bits(torch.autograd.grad(g, v, weights(g))[0])
print(F.max_pool3d(x, 3, 2, 1, return_indices=True)[1])
print(F.adaptive_max_pool3d(x, (2, 1, 3), return_indices=True)[1])
print(F.max_pool3d(torch.arange(64).reshape(1, 4, 4, 4), 2))
print(F.avg_pool3d(torch.arange(64).reshape(1, 4, 4, 4), 2, padding=1))
""")


def test_pool3d_modules_and_errors():
    check("""
x = data(1, 2, 4, 5, 6)
for m in (nn.MaxPool3d(2), nn.MaxPool3d((1, 2, 3), return_indices=True), nn.MaxPool3d(3, 2, 1, 2, ceil_mode=True),
          nn.AvgPool3d(2), nn.AvgPool3d(2, 1, 1, True, False, 3), nn.AvgPool3d((2, 2, 2)),
          nn.AdaptiveMaxPool3d(2), nn.AdaptiveMaxPool3d((2, None, 3), True)):
    print(m, type(m))
    out = m(x)
    bits(out[0] if isinstance(out, tuple) else out)
E(lambda: F.max_pool3d(x, (2, 2)))
E(lambda: F.max_pool3d(x, 2, (1, 1)))
E(lambda: F.max_pool3d(x, 2, padding=(1, 1)))
E(lambda: F.max_pool3d(x, 2, dilation=(1, 1)))
E(lambda: F.max_pool3d(x[0, 0], 2))
E(lambda: F.max_pool3d(x, 2, padding=2))
E(lambda: F.max_pool3d(x, 7))
E(lambda: F.max_pool3d(x, 2, 0))
E(lambda: F.max_pool3d(x, 0))
E(lambda: F.max_pool3d(x, 2, dilation=0))
E(lambda: F.max_pool3d(x, 3, padding=(1, 2, 1)))
E(lambda: F.max_pool3d(torch.zeros(1, 0, 4, 4, 4), 2))
E(lambda: F.avg_pool3d(x, (2, 2)))
E(lambda: F.avg_pool3d(x, 2, (1, 1)))
E(lambda: F.avg_pool3d(x, 2, padding=(1, 1)))
E(lambda: F.avg_pool3d(x[0, 0], 2))
E(lambda: F.avg_pool3d(x, 2, padding=2))
E(lambda: F.avg_pool3d(x, 7))
E(lambda: F.avg_pool3d(x, 2, divisor_override=0))
E(lambda: F.avg_pool3d(x, 0))
E(lambda: F.adaptive_max_pool3d(x, (2, 2)))
E(lambda: F.adaptive_max_pool3d(x[0, 0], 2))
E(lambda: F.adaptive_max_pool3d(x, -1))
E(lambda: F.adaptive_max_pool3d(x.long(), 2))
E(lambda: F.adaptive_max_pool3d(torch.zeros(1, 2, 0, 3, 3), 2))
""")


def test_pool3d_by_hand():
    x = mg.arange(8.0).reshape(1, 1, 2, 2, 2).requires_grad_()
    y, i = F.max_pool3d(x, 2, return_indices=True)
    assert y.flatten().tolist() == [7.0] and i.flatten().tolist() == [7]
    y.sum().backward()
    assert x.grad.flatten().tolist() == [0.0] * 7 + [1.0]
    # padding 1, count_include_pad=False: each 2x2x2 window of the padded 4x4x4 holds one real element
    a = F.avg_pool3d(mg.arange(8.0).reshape(1, 1, 2, 2, 2), 2, padding=1, count_include_pad=False)
    assert a.flatten().tolist() == list(range(8))
    b = F.avg_pool3d(mg.arange(8.0).reshape(1, 1, 2, 2, 2), 2, padding=1)   # divisor 8, padding counted
    assert b.flatten().tolist() == [v / 8 for v in range(8)]
    values, where = F.adaptive_max_pool3d(mg.arange(24.0).reshape(1, 2, 3, 4), (1, 1, 2), return_indices=True)
    assert values.flatten().tolist() == [21.0, 23.0] and where.flatten().tolist() == [21, 23]


# =============================================================================================
# affine_grid
# =============================================================================================

def test_affine_grid_values_graph_double_backward():
    check("""
import warnings
for shape, size, corners in (((2, 2, 3), (2, 1, 3, 4), False), ((2, 2, 3), [2, 5, 3, 4], True),
                             ((1, 2, 3), (1, 1, 5, 1), False), ((3, 2, 3), (3, 2, 7, 9), False),
                             ((2, 3, 4), (2, 1, 2, 3, 4), False), ((2, 3, 4), (2, 1, 2, 3, 4), True)):
    theta = data(*shape)
    g = F.affine_grid(theta, size, align_corners=corners)
    bits(g)
    walk(g)
    v = weights(g).requires_grad_()
    gt, = torch.autograd.grad(g, theta, v, create_graph=True)
    bits(gt)
    walk(gt)
    bits(torch.autograd.grad(gt, v, weights(gt))[0])
bits(F.affine_grid(data(2, 2, 3, dtype=np.float64), (2, 1, 3, 4), align_corners=False))
theta = data(1, 2, 3)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    bits(F.affine_grid(theta, (1, 1, 2, 2)))
    F.affine_grid(theta, (1, 1, 1, 3), align_corners=True)
print([str(w.message) for w in caught])
E(lambda: F.affine_grid(theta.long(), (1, 1, 2, 2), False))
E(lambda: F.affine_grid(theta, (1, 1, 2, 2, 2), False))
E(lambda: F.affine_grid(data(1, 3, 4), (1, 1, 2, 2), False))
E(lambda: F.affine_grid(theta, (1, 1, 2), False))
E(lambda: F.affine_grid(theta, (1, 1, 0, 2), False))
""")


def test_affine_grid_identity_by_hand():
    # the identity map gives each output position its own normalized coordinates (pixel centres: ±1/2 for 2 pixels)
    grid = F.affine_grid(mg.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]), (1, 1, 2, 2), align_corners=False)
    assert grid.tolist() == [[[[-0.5, -0.5], [0.5, -0.5]], [[-0.5, 0.5], [0.5, 0.5]]]]
    grid = F.affine_grid(mg.tensor([[[2.0, 0.0, 1.0], [0.0, 1.0, 0.0]]]), (1, 1, 2, 2), align_corners=True)
    assert grid.tolist() == [[[[-1.0, -1.0], [3.0, -1.0]], [[-1.0, 1.0], [3.0, 1.0]]]]   # x' = 2x + 1 at x = ±1


def test_deprecated_upsample_functions():
    check("""
import warnings
x = data(1, 2, 3, 4)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    for y in (F.upsample(x, scale_factor=2), F.upsample(x, size=(5, 6), mode='bilinear', align_corners=False),
              F.upsample_nearest(x, size=5), F.upsample_bilinear(x, scale_factor=2)):
        bits(y)
        walk(y)
print([(w.category.__name__, str(w.message)) for w in caught])
""")
