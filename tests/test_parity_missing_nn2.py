"""PyTorch parity for the second missing-nn pass: torch.baddbmm, F.rms_norm / nn.RMSNorm,
F.pixel_shuffle / F.pixel_unshuffle (and their modules), F.triplet_margin_with_distance_loss /
nn.TripletMarginWithDistanceLoss.

Each test is a program run once with ``import minigrad as torch`` and once with real torch: the printed
values (exact float bits), gradients, graphs (node names, ``_saved_*`` values), module reprs and error
messages must be the same.
"""
from __future__ import annotations

import pytest
from parity import ERROR_PRELUDE, same_as_torch, torch_or_skip

import minigrad as mg

PRELUDE = ERROR_PRELUDE + """import numpy as np
import torch.nn as nn
import torch.nn.functional as F

def walk(t):
    # the graph below t: node names, non-tensor _saved_* values, down to the leaves
    def rec(n, d):
        if n is None:
            print('  ' * d + 'None')
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
    print(t.dtype, tuple(t.shape), (torch.view_as_real(t) if t.is_complex() else t).double().numpy().tobytes().hex())

def approx(t):
    # values to 9 decimals: float64 bmm products differ from PyTorch's in the last bits (np.matmul's order)
    print(t.dtype, tuple(t.shape), np.round(t.detach().double().numpy(), 9).tolist())

rng = np.random.default_rng(0)
def randn(*shape, dtype='float32', grad=True):
    return torch.tensor(rng.standard_normal(shape).astype(dtype), requires_grad=grad)
"""


@pytest.fixture(autouse=True)
def _torch():
    torch_or_skip()


def check(program: str) -> str:
    return same_as_torch(program, PRELUDE)


# ---- baddbmm -------------------------------------------------------------------------------------

def test_baddbmm_values_grads_graph():
    check("""
for dt in ('float32', 'float64'):
    i, a, b = randn(2, 3, 5, dtype=dt), randn(2, 3, 4, dtype=dt), randn(2, 4, 5, dtype=dt)
    for kw in ({}, {'beta': 0.5, 'alpha': 2}, {'beta': 0}, {'alpha': -1.5}):
        y = torch.baddbmm(i, a, b, **kw)
        bits(y)
        walk(y)
        print(y.grad_fn._saved_alpha, y.grad_fn._saved_beta)
        (y * y).sum().backward()
        for t in (i, a, b):
            (bits if dt == 'float32' else approx)(t.grad)
            t.grad = None
y = randn(5, dtype='float64').baddbmm(a, b)          # method, broadcast 1-D input
walk(y)
bits(torch.baddbmm(randn(3, 1, dtype='float64'), a, b, alpha=3))
""")


def test_baddbmm_float32_bits_of_mkl_sizes():
    """β = α = 1 products of 400+ multiply-adds go through MKL's batch gemm onto a copy of input: same bits."""
    check("""
for (B, m, k, n) in ((2, 4, 10, 12), (3, 5, 10, 16), (1, 8, 8, 8), (2, 7, 9, 7), (2, 12, 4, 12), (3, 1, 30, 20)):
    for bias_shape in ((B, m, n), (n,), (m, 1)):
        bits(torch.baddbmm(randn(*bias_shape), randn(B, m, k), randn(B, k, n)))
""")


def test_baddbmm_in_place():
    check("""
a, b = randn(2, 3, 4), randn(2, 4, 5)
x = randn(2, 3, 5)
y = x * 1
print(y.baddbmm_(a, b, beta=2, alpha=0.5) is y, y._version)
walk(y)
bits(y)
y.sum().backward()
bits(x.grad)
bits(a.grad)
E(lambda: torch.randn(3, 5).baddbmm_(a, b))
E(lambda: torch.randn(1, 3, 5).baddbmm_(a, b))
E(lambda: randn(2, 3, 5).baddbmm_(a, b))
E(lambda: torch.randn(2, 3, 5).double().baddbmm_(a, b))
E(lambda: torch.randn(2, 3, 5).baddbmm_(a[0], b))
""")


def test_top_level_functions():
    check("""
x = randn(2, 3, 7)
out = torch.adaptive_max_pool1d(x, 3)
print(type(out).__name__, out[1])
bits(out[0])
walk(out[0])
bits(torch.pixel_shuffle(randn(1, 4, 2, 2), 2))
bits(torch.pixel_unshuffle(randn(1, 1, 2, 2), 2))
bits(torch.rms_norm(x, [7]))
""")


def test_baddbmm_small_products_every_dtype():
    """Under 400 multiply-adds PyTorch runs its own loop in the opmath type: same bits for every float dtype."""
    check("""
for dt in (torch.float16, torch.bfloat16, torch.float64, torch.complex64):
    for beta, alpha in ((1, 1), (0.5, 2), (0, 3)):
        i, a, b = (randn(*s, grad=False).to(dt) for s in ((2, 3, 5), (2, 3, 4), (2, 4, 5)))
        y = torch.baddbmm(i, a, b, beta=beta, alpha=alpha)
        print(y.dtype, (torch.view_as_real(y) if dt.is_complex else y).flatten().tolist())
""")


def test_baddbmm_edge_values():
    check("""
nan = torch.full((2, 3, 5), float('nan'))
print(torch.baddbmm(nan, randn(2, 3, 4, grad=False), randn(2, 4, 5, grad=False), beta=0).isnan().any())
k0 = randn(2, 3, 5, grad=False)
print(torch.equal(torch.baddbmm(k0, randn(2, 3, 0, grad=False), randn(2, 0, 5, grad=False)), k0))
ints = torch.arange(24).reshape(2, 3, 4)
print(torch.baddbmm(torch.ones(2, 3, 3, dtype=torch.long), ints, ints.transpose(1, 2), beta=2, alpha=3))
""")


def test_baddbmm_double_backward():
    check("""
i, a, b = randn(2, 3, 5, dtype='float64'), randn(2, 3, 4, dtype='float64'), randn(2, 4, 5, dtype='float64')
y = torch.baddbmm(i, a, b, beta=0.5, alpha=2)
gi, ga, gb = torch.autograd.grad((y * y).sum(), (i, a, b), create_graph=True)
walk(gi)
walk(ga)
walk(gb)
(gi.sum() + ga.sum() + gb.sum()).backward()
for t in (i, a, b):
    approx(t.grad)
""")


def test_baddbmm_errors():
    check("""
i, a, b = randn(2, 3, 5), randn(2, 3, 4), randn(2, 4, 5)
E(lambda: torch.baddbmm(i, a[0], b))
E(lambda: torch.baddbmm(i, a, b[0]))
E(lambda: torch.baddbmm(i, a, b[:, :3]))
E(lambda: torch.baddbmm(torch.randn(3, 3, 5), a, b))
E(lambda: torch.baddbmm(i, a, b[:1]))
E(lambda: torch.baddbmm(i.double(), a, b))
E(lambda: torch.baddbmm(i, a.double(), b))
E(lambda: torch.baddbmm(i, a, b.double()))
E(lambda: torch.baddbmm(torch.randn(1, 2, 3, 5), a, b))
E(lambda: torch.baddbmm(torch.randn(1, 2, 3, 5), a, torch.randn(2, 4, 6)))
E(lambda: torch.baddbmm(i, a[:, :, :3], b))
E(lambda: torch.baddbmm(torch.randn(3, 4, 5), a[0], b))
E(lambda: torch.baddbmm(i, a[None], b))
E(lambda: torch.baddbmm(i, a, b[None]))
E(lambda: torch.baddbmm(torch.randn(4), a, b))
""")


# ---- rms_norm ------------------------------------------------------------------------------------

def test_rms_norm_graph_and_bits_per_dtype():
    check("""
for dt in ('float32', 'float64', 'float16', 'bfloat16'):
    x, w = randn(2, 3, 4), randn(4)
    xx, ww = x.to(getattr(torch, dt)), w.to(getattr(torch, dt))
    y = F.rms_norm(xx, [4], ww)
    y2 = F.rms_norm(xx, (3, 4), eps=1e-3)
    walk(y)
    walk(y2)
    bits(y)
    bits(y2)
    (y.float().sum() * 2 + (y2.float() ** 2).sum()).backward()
    bits(x.grad)
    bits(w.grad)
""")


def test_rms_norm_eps_rounding_and_zeros():
    check("""
for dt in (torch.float16, torch.bfloat16, torch.float32):
    bits(F.rms_norm(torch.full((1, 4), 1e-4).to(dt), [4]))
    bits(F.rms_norm(torch.zeros(1, 4).to(dt), [4], eps=1e-6))
""")


def test_rms_norm_module():
    check("""
print(nn.RMSNorm(4), nn.RMSNorm([3, 4], eps=1e-3, elementwise_affine=False))
print(type(nn.RMSNorm(4)))
m = nn.RMSNorm((3, 4), eps=1e-5)
print(list(m.state_dict()), m.weight)
x = randn(2, 3, 4)
y = m(x)
walk(y)
bits(y)
y.sum().backward()
bits(m.weight.grad)
bits(x.grad)
print(nn.RMSNorm(4, elementwise_affine=False).weight, list(nn.RMSNorm(4, elementwise_affine=False).parameters()))
""")


def test_rms_norm_errors():
    check("""
x = torch.zeros(2, 3, 4)
E(lambda: F.rms_norm(x, [2, 4]))
E(lambda: F.rms_norm(x, [3], torch.randn(4)))
E(lambda: F.rms_norm(x, [4], torch.randn(2, 2)))
E(lambda: F.rms_norm(x, 4))
E(lambda: F.rms_norm(x.long(), [4]))
E(lambda: F.rms_norm(x, [2, 3, 4, 5]))
""")


# ---- pixel_shuffle / pixel_unshuffle -------------------------------------------------------------

def test_pixel_shuffle_values_graph_grads():
    check("""
x = randn(1, 8, 2, 3)
y = F.pixel_shuffle(x, 2)
walk(y)
bits(y)
print(y.is_contiguous(), y.stride())
(y * torch.arange(48.).reshape(1, 2, 4, 6)).sum().backward()
bits(x.grad)
z = randn(2, 1, 4, 6)
u = F.pixel_unshuffle(z, 2)
walk(u)
bits(u)
print(u.stride())
(u * torch.arange(48.).reshape(2, 4, 2, 3)).sum().backward()
bits(z.grad)
print(torch.equal(F.pixel_unshuffle(F.pixel_shuffle(x, 2), 2), x))
print(F.pixel_shuffle(randn(3, 1, 9, 2, 3), 3).shape, F.pixel_shuffle(randn(8, 2, 3, grad=False), 2).shape)
print(F.pixel_unshuffle(randn(1, 3, 3, 3, grad=False), 3).shape)
""")


def test_pixel_shuffle_double_backward():
    check("""
x = randn(1, 4, 2, 2, dtype='float64')
y = F.pixel_shuffle(x, 2)
g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
walk(g)
g.sum().backward()
bits(x.grad)
""")


def test_pixel_shuffle_modules_and_errors():
    check("""
print(nn.PixelShuffle(2), nn.PixelUnshuffle(3), type(nn.PixelShuffle(2)), type(nn.PixelUnshuffle(2)))
print(nn.Sequential(nn.Conv2d(1, 4, 1), nn.PixelShuffle(2)))
bits(nn.PixelUnshuffle(2)(torch.arange(16.).reshape(1, 1, 4, 4)))
E(lambda: F.pixel_shuffle(torch.randn(2, 3), 2))
E(lambda: F.pixel_shuffle(torch.randn(2, 3), 0))
E(lambda: F.pixel_shuffle(torch.randn(1, 3, 2, 2), 2))
E(lambda: F.pixel_shuffle(torch.randn(1, 4, 2, 2), 0))
E(lambda: F.pixel_shuffle(torch.randn(1, 4, 2, 2), -1))
E(lambda: F.pixel_shuffle(torch.randn(1, 4, 2, 2), 2.0))
E(lambda: F.pixel_shuffle(torch.randn(1, 4, 2, 2), True))
E(lambda: F.pixel_unshuffle(torch.randn(1, 1, 3, 4), 2))
E(lambda: F.pixel_unshuffle(torch.randn(1, 1, 4, 3), 2))
E(lambda: F.pixel_unshuffle(torch.randn(1, 4, 2, 2), 0))
E(lambda: F.pixel_unshuffle(torch.randn(4, 2), 2))
E(lambda: F.pixel_unshuffle(torch.randn(1, 3, 3, 5), -2))
E(lambda: F.pixel_unshuffle(torch.randn(1, 3, 4, 4), 2.0))
""")


# ---- triplet_margin_with_distance_loss -----------------------------------------------------------

def test_triplet_with_distance_values_graph():
    check("""
def l_inf(x1, x2):
    return torch.max(torch.abs(x1 - x2), dim=1).values
for kw in ({}, {'swap': True}, {'margin': 0.3, 'reduction': 'sum'}, {'reduction': 'none'},
           {'distance_function': l_inf, 'swap': True},
           {'distance_function': lambda x, y: (x - y).pow(2).sum(1), 'margin': 2.5}):
    a, p, n = randn(4, 3), randn(4, 3), randn(4, 3)
    loss = F.triplet_margin_with_distance_loss(a, p, n, **kw)
    walk(loss)
    bits(loss)
    loss.sum().backward()
    for t in (a, p, n):
        bits(t.grad)
""")


def test_triplet_with_distance_module_and_errors():
    check("""
print(nn.TripletMarginWithDistanceLoss())
print(nn.TripletMarginWithDistanceLoss(margin=2.0, swap=True, distance_function=nn.PairwiseDistance(p=1)))
print(type(nn.TripletMarginWithDistanceLoss()))
m = nn.TripletMarginWithDistanceLoss(distance_function=nn.PairwiseDistance(p=1), margin=2.0, swap=True)
print(m.margin, m.swap, m.reduction)
a, p, n = randn(4, 3), randn(4, 3), randn(4, 3)
loss = m(a, p, n)
walk(loss)
bits(loss)
E(lambda: nn.TripletMarginWithDistanceLoss(margin=0))
E(lambda: F.triplet_margin_with_distance_loss(a, p, n, margin=-1.0))
E(lambda: F.triplet_margin_with_distance_loss(a, p, n, reduction='avg'))
E(lambda: F.triplet_margin_with_distance_loss(a, p[0], n))
E(lambda: nn.TripletMarginWithDistanceLoss(reduction='avg')(a, p, n))
""")


def test_namespaces():
    """The new names are where PyTorch has them (no torch needed for this one)."""
    assert all(hasattr(mg.nn, n) for n in ("RMSNorm", "PixelShuffle", "PixelUnshuffle", "AdaptiveMaxPool1d",
                                           "TripletMarginWithDistanceLoss"))
    assert all(hasattr(mg.nn.functional, n) for n in ("rms_norm", "pixel_shuffle", "pixel_unshuffle",
                                                      "triplet_margin_with_distance_loss"))
    import inspect  # (torch.baddbmm hands calls on to __torch_function__: a wrapper of the same function)
    assert inspect.unwrap(mg.Tensor.baddbmm) is inspect.unwrap(mg.baddbmm)


# ---- adaptive_max_pool1d / 2d --------------------------------------------------------------------

def test_adaptive_max_pool2d_values_indices_graph():
    check("""
x = randn(2, 3, 5, 7)
for size in ((3, 4), (None, 4), 1, (5, 7), (7, 9), (2, None)):
    y, i = F.adaptive_max_pool2d(x, size, return_indices=True)
    walk(y)
    bits(y)
    print(i.dtype, i.flatten().tolist(), y.stride())
y = F.adaptive_max_pool2d(x, (2, 3))
(y * torch.arange(36.).reshape(2, 3, 2, 3)).sum().backward()
bits(x.grad)
x3 = randn(3, 4, 6, dtype='float64')
y3 = F.adaptive_max_pool2d(x3, 3)
walk(y3)
bits(y3)
print(F.adaptive_max_pool2d(randn(1, 3, 5, 7, grad=False), (0, 2)).shape,
      F.adaptive_max_pool2d(randn(0, 3, 5, 7, grad=False), (2, 2)).shape)
nan = float('nan')
print(F.adaptive_max_pool2d(torch.tensor([[[1., nan, 3., nan], [2, 2, 2, 2]]]), (1, 2), return_indices=True))
print(F.adaptive_max_pool2d(torch.ones(1, 1, 4, 4), (2, 2), return_indices=True))
""")


def test_adaptive_max_pool1d_and_double_backward():
    check("""
x = randn(2, 3, 7, dtype='float64')
y, i = F.adaptive_max_pool1d(x, 3, return_indices=True)
walk(y)
bits(y)
print(i.tolist())
g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
walk(g)
g.sum().backward()
bits(x.grad)
bits(F.adaptive_max_pool1d(randn(3, 5), 2))
""")


def test_adaptive_max_pool_modules_and_errors():
    check("""
print(nn.AdaptiveMaxPool2d((3, None)), nn.AdaptiveMaxPool1d(3, return_indices=True), nn.AdaptiveMaxPool2d(2))
print(type(nn.AdaptiveMaxPool2d(2)), type(nn.AdaptiveMaxPool1d(2)))
m = nn.AdaptiveMaxPool2d((2, 2), return_indices=True)
out, idx = m(torch.arange(16.).reshape(1, 1, 4, 4))
print(out, idx)
print(nn.AdaptiveMaxPool1d(2)(torch.arange(6.).reshape(1, 6)))
E(lambda: F.adaptive_max_pool2d(torch.randn(5, 7), 2))
E(lambda: F.adaptive_max_pool2d(torch.randn(1, 5, 7), (2, 2, 2)))
E(lambda: F.adaptive_max_pool2d(torch.randn(1, 5, 7), -1))
E(lambda: F.adaptive_max_pool2d(torch.randn(1, 0, 7), 2))
E(lambda: F.adaptive_max_pool2d(torch.randn(0, 1, 5, 7), 2))
E(lambda: F.adaptive_max_pool1d(torch.randn(7), 2))
E(lambda: F.adaptive_max_pool1d(torch.randn(1, 7), (2, 2)))
E(lambda: F.adaptive_max_pool2d(torch.randn(1, 5, 7).long(), 2))
E(lambda: F.adaptive_max_pool2d(torch.randn(1, 2, 5, 7, 3), 2))
E(lambda: F.adaptive_max_pool1d(torch.randn(1, 2, 7), -2))
E(lambda: F.adaptive_max_pool1d(torch.randn(1, 2, 0), 2))
E(lambda: F.adaptive_max_pool1d(torch.randn(1, 2, 0), -2))
E(lambda: F.adaptive_max_pool1d(torch.randn(3, 0), 2))
print(F.adaptive_max_pool1d(torch.randn(0, 3), 2).shape, F.adaptive_max_pool1d(torch.randn(0, 2, 3), 2).shape)
""")


def test_forward_ad_tangents():
    check("""
fwAD = torch.autograd.forward_ad
r = lambda *s: randn(*s, dtype='float64', grad=False)
i, a, b, ti, ta, tb = r(2, 3, 5), r(2, 3, 4), r(2, 4, 5), r(2, 3, 5), r(2, 3, 4), r(2, 4, 5)
x, t = r(1, 8, 2, 2), r(1, 8, 2, 2)
with fwAD.dual_level():
    y = torch.baddbmm(fwAD.make_dual(i, ti), fwAD.make_dual(a, ta), fwAD.make_dual(b, tb), beta=0.5, alpha=2)
    print(fwAD.unpack_dual(y).tangent)
    for f in (lambda d: F.pixel_shuffle(d, 2), lambda d: F.pixel_unshuffle(d, 2),
              lambda d: F.adaptive_max_pool2d(d, (1, 2)), lambda d: F.rms_norm(d, [2, 2])):
        print(fwAD.unpack_dual(f(fwAD.make_dual(x, t))).tangent)
""")


def test_rms_norm_complex_close():
    """Complex inputs: PyTorch's graph and values (to rounding: complex mean / rsqrt differ in the last bits)."""
    torch = torch_or_skip()
    import numpy as np
    rng = np.random.default_rng(3)
    data = (rng.standard_normal((2, 3)) + 1j * rng.standard_normal((2, 3))).astype("complex64")
    outs = []
    for T in (torch, mg):
        x = T.tensor(data, requires_grad=True)
        y = T.nn.functional.rms_norm(x, [3])
        y.abs().sum().backward()
        names = [type(y.grad_fn).__name__, type(y.grad_fn.next_functions[1][0]).__name__]
        zeros = T.nn.functional.rms_norm(T.zeros(1, 3, dtype=T.complex64), [3])   # eps > 0: no NaN
        outs.append((y.detach().numpy(), x.grad.numpy(), names, zeros.numpy()))
    (y0, g0, n0, z0), (y1, g1, n1, z1) = outs
    np.testing.assert_allclose(y1, y0, rtol=1e-5)
    np.testing.assert_allclose(g1, g0, rtol=1e-4, atol=1e-6)
    assert n1 == n0 == ["MulBackward0", "RsqrtBackward0"]
    assert (z1 == 0).all() and (z0 == 0).all()
