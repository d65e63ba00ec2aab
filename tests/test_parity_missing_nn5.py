"""PyTorch parity for the fifth missing-nn pass: F.embedding_bag / nn.EmbeddingBag / torch.embedding_bag,
F.grid_sample (4-D and 5-D), torch.stft / istft, torch.kaiser_window and torch.signal.windows,
F.ctc_loss / nn.CTCLoss / torch.ctc_loss.

Each parity test is a program run once with ``import minigrad as torch`` and once with real torch: the
printed values (exact float bits unless a test says ``close``), gradients, graphs (node names, ``_saved_*``
values), module reprs and error messages must be the same. The other tests check hand-computed values.
"""
from __future__ import annotations

import numpy as np
from parity import ERROR_PRELUDE, assert_close, same_as_torch, torch_or_skip

import minigrad as mg
import minigrad.nn.functional as F

PRELUDE = ERROR_PRELUDE + """import numpy as np
import torch.nn as nn
import torch.nn.functional as F

def walk(t, depth=6):
    # the graph below t: node names and _saved_* values (tensors in full), down to the leaves
    def rec(n, d):
        if n is None or d > depth:
            return
        print('  ' * d + type(n).__name__)
        for a in sorted(a for a in dir(n) if a.startswith('_saved_')):
            v = getattr(n, a)
            if isinstance(v, torch.Tensor):
                v = (tuple(v.shape), str(v.dtype), v.detach().double().flatten().tolist()[:12])
            print('  ' * d + '  ' + a, v)
        for c, _ in n.next_functions:
            rec(c, d + 1)
    rec(t.grad_fn, 0)

def bits(t):
    # exact values: the bit patterns (every float dtype converts to float64 exactly)
    t = t.detach()
    print(t.dtype, tuple(t.shape), t.double().numpy().tobytes().hex())

def close(t, digits=5):
    # values to a few significant digits (where the bits may differ: the test says why)
    t = t.detach()
    print(t.dtype, tuple(t.shape), [float(f'{v:.{digits}g}') for v in t.double().flatten().tolist()])

def data(*shape, seed=0, dtype=np.float32):
    # the same inputs for both libraries (NumPy's generator, not either library's RNG)
    return torch.tensor(np.random.default_rng(seed).standard_normal(shape).astype(dtype), requires_grad=True)

def weights(t):
    return torch.tensor(np.linspace(-1, 1, t.numel(), dtype=np.float32).reshape(tuple(t.shape))).to(t.dtype)
"""


def check(program: str) -> str:
    return same_as_torch(program, PRELUDE)


def compare(fn, rtol: float = 1e-5, atol: float = 1e-6) -> None:
    """Run ``fn(T)`` with T = minigrad and T = torch: the tensors it returns must agree to rtol / atol
    (None where torch gives None), for results whose last bits are not PyTorch's."""
    torch = torch_or_skip()
    mine, theirs = fn(mg), fn(torch)
    assert len(mine) == len(theirs) > 0
    for a, b in zip(mine, theirs):
        assert (a is None) == (b is None)
        if a is not None:
            assert tuple(a.shape) == tuple(b.shape) and str(a.dtype) == str(b.dtype)
            assert_close(a.detach(), b.detach(), rtol=rtol, atol=atol)


def _data(T, *shape, seed=0, dtype=np.float32, scale=1.0):
    return T.tensor((np.random.default_rng(seed).standard_normal(shape) * scale).astype(dtype), requires_grad=True)


def _weights(T, t):
    return T.tensor(np.linspace(-1, 1, t.numel()).reshape(tuple(t.shape)).astype(np.float32)).to(t.dtype)


# =============================================================================================
# embedding_bag / EmbeddingBag
# =============================================================================================

def test_embedding_bag_modes_values_grads_graphs():
    check("""
w = data(10, 4)
idx = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
for dtype in (torch.float32, torch.float64):
    wd = w.detach().to(dtype).requires_grad_()
    for mode in ('sum', 'mean', 'max'):
        for kw in (dict(offsets=torch.tensor([0, 4, 4])), dict(offsets=torch.tensor([0, 4, 4]), padding_idx=2),
                   dict(offsets=torch.tensor([0, 4, 6, 8]), include_last_offset=True),
                   dict(offsets=torch.tensor([0, 3]), padding_idx=-6)):
            print(dtype, mode, kw)
            out = F.embedding_bag(idx, wd, mode=mode, **kw)
            bits(out)
            walk(out)
            g, = torch.autograd.grad(out, wd, weights(out))
            bits(g)
        out = F.embedding_bag(idx.view(2, 4), wd, mode=mode)   # 2-D input: one bag per row
        bits(out)
        walk(out)
""")


def test_embedding_bag_long_bags_gradient_order():
    # more than 16 indices: PyTorch's backward sorts them with std::sort (ties in introsort's order, emulated in
    # _embedding_bag.sort_order) and adds each row's gradients in that order
    check("""
w = data(6, 8)
idx = torch.tensor(np.random.default_rng(3).integers(0, 6, 70))
psw = torch.tensor(np.linspace(0.5, 2, 70, dtype=np.float32), requires_grad=True)
for mode in ('sum', 'mean'):
    for kw in ({}, dict(padding_idx=2), dict(scale_grad_by_freq=True)):
        out = F.embedding_bag(idx, w, torch.tensor([0, 13, 30, 31]), mode=mode, **kw)
        bits(out)
        bits(torch.autograd.grad(out, w, weights(out) * 3)[0])
out = F.embedding_bag(idx, w, torch.tensor([0, 40]), mode='sum', per_sample_weights=psw)
gw, gp = torch.autograd.grad(out, [w, psw], weights(out))
bits(out); bits(gw); bits(gp)
print(torch.embedding_bag(w, idx, torch.tensor([0, 40]), False, 2)[1:])
""")


def test_embedding_bag_per_sample_weights_and_double_backward():
    # 4 columns: rows 16-byte aligned, so MKL's sdot / ddot orders (_matmul.dot, _embedding_bag._ddot) give the
    # per-sample weights' gradients bit for bit; unaligned rows: see the next test
    check("""
w = data(10, 4)
idx = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9, 9])
psw = torch.tensor(np.linspace(0.5, 2, 9, dtype=np.float32), requires_grad=True)
for kw in ({}, dict(padding_idx=4)):
    out = F.embedding_bag(idx, w, torch.tensor([0, 4, 7]), mode='sum', per_sample_weights=psw, **kw)
    bits(out)
    walk(out)
    gw, gp = torch.autograd.grad(out, [w, psw], weights(out))
    bits(gw)
    bits(gp)
out = F.embedding_bag(idx, w.detach(), torch.tensor([0, 4]), mode='sum', per_sample_weights=psw)
walk(out)
out = F.embedding_bag(idx, w, torch.tensor([0, 4]), mode='sum', per_sample_weights=psw.detach())
walk(out)
w64, p64 = w.detach().double().requires_grad_(), psw.detach().double().requires_grad_()
out = F.embedding_bag(idx, w64, torch.tensor([0, 4]), mode='sum', per_sample_weights=p64)
bits(out)
gw, gp = torch.autograd.grad(out, [w64, p64], weights(out))
bits(gw)
bits(gp)
# the gradients' own nodes: PyTorch has no derivative for either
out = F.embedding_bag(idx, w, torch.tensor([0, 4]), mode='sum', per_sample_weights=psw)
gw, gp = torch.autograd.grad((out * out).sum(), [w, psw], create_graph=True)
walk(gw)
print(gp.grad_fn.name(), type(gp.grad_fn).__name__)
E(lambda: gw.sum().backward(retain_graph=True))
E(lambda: gp.sum().backward())
out = F.embedding_bag(idx, w, torch.tensor([0, 4]), mode='mean')
gw, = torch.autograd.grad((out * out).sum(), w, create_graph=True)
walk(gw)
""")


def test_embedding_bag_unaligned_per_sample_weights_gradient_close():
    # rows of 5 floats / doubles start off MKL's alignment: its dot then adds in another order (not emulated)
    def run(T):
        w = _data(T, 10, 5, dtype=np.float64)
        p = T.tensor(np.linspace(0.5, 2, 9), requires_grad=True)
        out = T.nn.functional.embedding_bag(T.tensor([1, 2, 4, 5, 4, 3, 2, 9, 9]), w, T.tensor([0, 4, 7]),
                                            mode="sum", per_sample_weights=p)
        return list(T.autograd.grad(out, [w, p], _weights(T, out)))
    compare(run, rtol=1e-12, atol=1e-14)


def test_embedding_bag_scale_grad_by_freq_max_ties_empty_bags():
    # scale_grad_by_freq: PyTorch's kernel divides by the count of the wrong index (see _embedding_bag.py)
    check("""
w = data(10, 3)
idx = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
for mode in ('sum', 'mean'):
    out = F.embedding_bag(idx, w, torch.tensor([0, 4, 8]), mode=mode, scale_grad_by_freq=True,
                          include_last_offset=True)
    bits(torch.autograd.grad(out, w, weights(out))[0])
t = torch.tensor([[1.0, 5.0], [1.0, 2.0], [3.0, 5.0], [0.0, 0.0]], requires_grad=True)
out = F.embedding_bag(torch.tensor([0, 1, 2, 3, 1]), t, torch.tensor([0, 3, 3]), mode='max', padding_idx=3)
print(out, out.grad_fn._saved_result3)
out.backward(torch.ones_like(out))
print(t.grad)
out = F.embedding_bag(torch.tensor([0, 1]), t, torch.tensor([], dtype=torch.long))
print(out.shape)
out = F.embedding_bag(torch.tensor([], dtype=torch.long), t, torch.tensor([0, 0]), mode='mean')
print(out)
out = F.embedding_bag(torch.tensor([0, 1], dtype=torch.int32), t, torch.tensor([0], dtype=torch.int32))
walk(out)
bits(F.embedding_bag(torch.tensor([0, 1, 2]), t.detach().half(), torch.tensor([0, 1])))
""")


def test_embedding_bag_module():
    check("""
torch.manual_seed(0)
idx = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
for m in (nn.EmbeddingBag(10, 3), nn.EmbeddingBag(10, 3, mode='max'),
          nn.EmbeddingBag(10, 3, padding_idx=-1, max_norm=1.0, norm_type=1.5, scale_grad_by_freq=True,
                          include_last_offset=True)):
    print(m, type(m), m.mode, m.padding_idx, m.include_last_offset, m.weight.shape, m.weight.requires_grad)
    print(m.weight[9] if m.padding_idx == 9 else '')
    out = m(idx, torch.tensor([0, 4, 8]) if m.include_last_offset else torch.tensor([0, 4]))
    print(out.grad_fn.name(), out.shape)
    out2 = m(idx.view(2, 4))
    print(out2.shape)
w = data(3, 2)
m = nn.EmbeddingBag.from_pretrained(w.detach(), mode='sum')
print(m, m.weight.requires_grad)
bits(m(torch.tensor([[0, 2], [1, 1]])))
m = nn.EmbeddingBag.from_pretrained(w.detach(), freeze=False)
print(m.weight.requires_grad)
out = m(torch.tensor([0, 2, 1]), torch.tensor([0, 1]), per_sample_weights=None)
out.sum().backward()
bits(m.weight.grad)
E(lambda: nn.EmbeddingBag(3, 2, padding_idx=3))
E(lambda: nn.EmbeddingBag(3, 2, _weight=torch.ones(2, 2)))
E(lambda: nn.EmbeddingBag.from_pretrained(torch.ones(2)))
E(lambda: nn.EmbeddingBag(3, 2, mode='sum')(torch.tensor([0, 1]), torch.tensor([0]), torch.ones(2)))
""")


def test_embedding_bag_errors():
    check("""
w = data(10, 3)
idx = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
off = torch.tensor([0, 4])
E(lambda: F.embedding_bag(idx, w, torch.tensor([1, 4])))
E(lambda: F.embedding_bag(idx, w, torch.tensor([0, 9])))
E(lambda: F.embedding_bag(torch.tensor([1, 10]), w, torch.tensor([0])))
E(lambda: F.embedding_bag(torch.tensor([1, -1]), w, torch.tensor([0])))
E(lambda: F.embedding_bag(idx, w, off, padding_idx=10))
E(lambda: F.embedding_bag(idx, w, off, padding_idx=-11))
E(lambda: F.embedding_bag(idx.float(), w, off))
E(lambda: F.embedding_bag(idx, w, off.float()))
E(lambda: F.embedding_bag(idx, w, off, mode='foo'))
E(lambda: F.embedding_bag(idx, w, off, mode='max', per_sample_weights=torch.rand(8)))
E(lambda: F.embedding_bag(idx, w, off, mode='mean', per_sample_weights=torch.rand(8)))
E(lambda: F.embedding_bag(idx, w, off, per_sample_weights=torch.rand(7)))
E(lambda: F.embedding_bag(idx, w))
E(lambda: F.embedding_bag(idx.view(2, 4), w, off))
E(lambda: F.embedding_bag(idx.view(2, 2, 2), w))
E(lambda: F.embedding_bag(idx, w[0]))
E(lambda: F.embedding_bag(idx, w, torch.tensor([[0]])))
E(lambda: F.embedding_bag(idx, w, torch.tensor([], dtype=torch.long), include_last_offset=True))
E(lambda: F.embedding_bag(idx, w, off, mode='max', scale_grad_by_freq=True))
E(lambda: F.embedding_bag(idx, w, off, mode='max', sparse=True))
E(lambda: F.embedding_bag(idx, w.int(), off))
for offsets in ([0, 5, 3], [0, 3, 3, 2]):   # bags running backwards: only PyTorch's fbgemm path refuses them
    for mode in ('sum', 'mean', 'max'):
        E(lambda: F.embedding_bag(idx, w, torch.tensor(offsets), mode=mode))
    E(lambda: F.embedding_bag(idx, w, torch.tensor(offsets), padding_idx=2))
""")


def test_embedding_bag_by_hand():
    w = mg.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
    out = F.embedding_bag(mg.tensor([0, 2, 1, 1]), w, mg.tensor([0, 2]), mode="mean")
    assert out.tolist() == [[3.0, 4.0], [3.0, 4.0]]
    out.backward(mg.tensor([[1.0, 1.0], [2.0, 2.0]]))
    # bag 0 = rows 0, 2 (each 1/2 of its gradient); bag 1 = row 1 twice (each 1/2)
    assert w.grad.tolist() == [[0.5, 0.5], [2.0, 2.0], [0.5, 0.5]]


# =============================================================================================
# grid_sample
# =============================================================================================

def test_grid_sample_values_gradients_graphs():
    # bilinear and nearest: values and first gradients bit for bit (PyTorch's fused multiply-adds and its
    # scatter order in 8-float / 4-double chunks)
    check("""
x = data(2, 3, 5, 7)
for dtype in (torch.float32, torch.float64):
    xd = x.detach().to(dtype).requires_grad_()
    grid = (data(2, 4, 6, 2, seed=1).detach() * 0.7).to(dtype).requires_grad_()
    for mode in ('bilinear', 'nearest', 'bicubic'):
        for padding_mode in ('zeros', 'border', 'reflection'):
            for align_corners in (False, True):
                if mode == 'bicubic':   # (test_grid_sample_bicubic_close)
                    continue
                print(dtype, mode, padding_mode, align_corners)
                y = F.grid_sample(xd, grid, mode, padding_mode, align_corners)
                gx, gg = torch.autograd.grad(y, [xd, grid], weights(y))
                bits(y); bits(gx); bits(gg)
y = F.grid_sample(x, data(2, 4, 6, 2, seed=1), 'bilinear', 'reflection', True)
walk(y)
walk(F.grid_sample(x.detach(), data(2, 4, 6, 2, seed=1), 'bicubic', align_corners=False))
walk(F.grid_sample(x, data(2, 4, 6, 2, seed=1).detach(), 'nearest', align_corners=False))
print(F.grid_sample(x, torch.zeros(2, 0, 3, 2), align_corners=True).shape)
""")


def _grid_case(T, dtype, mode, padding_mode, align_corners):
    x = _data(T, 2, 3, 5, 7, dtype=dtype)
    grid = _data(T, 2, 4, 6, 2, seed=1, dtype=dtype, scale=0.7)
    y = T.nn.functional.grid_sample(x, grid, mode, padding_mode, align_corners)
    return x, grid, y


def test_grid_sample_bicubic_close():
    # bicubic: PyTorch's kernel rounds its cubic weights in an order not matched here (a few ulps)
    for dtype in (np.float32, np.float64):
        for padding_mode in ("zeros", "border", "reflection"):
            for align_corners in (False, True):
                def run(T, dtype=dtype, padding_mode=padding_mode, align_corners=align_corners):
                    x, grid, y = _grid_case(T, dtype, "bicubic", padding_mode, align_corners)
                    return [y, *T.autograd.grad(y, [x, grid], _weights(T, y))]
                compare(run, rtol=1e-5 if dtype == np.float32 else 1e-12, atol=1e-5 if dtype == np.float32 else 1e-12)


def test_grid_sample_double_backward():
    # second derivatives: PyTorch computes them with a composite of tensor ops (whose rounding is not matched);
    # which ones exist follows PyTorch (none for the input without a cotangent for the grid's gradient)
    for mode in ("bilinear", "nearest", "bicubic"):
        for padding_mode in ("zeros", "border", "reflection"):
            for loss in range(3):
                def run(T, mode=mode, padding_mode=padding_mode, loss=loss):
                    x, grid, y = _grid_case(T, np.float64, mode, padding_mode, False)
                    v = _weights(T, y).requires_grad_()
                    gx, gg = T.autograd.grad(y, [x, grid], v, create_graph=True)
                    total = [gx.pow(2).sum(), (gg * _weights(T, gg)).sum(), gx.sum() + gg.pow(2).sum()][loss]
                    return [type(gx.grad_fn).__name__ == "GridSampler2DBackwardBackward0",
                            *T.autograd.grad(total, [v, x, grid], allow_unused=True)]
                mine, theirs = run(mg), run(torch_or_skip())
                assert mine[0] and theirs[0]
                compare(lambda T, m=mine, t=theirs: m[1:] if T is mg else t[1:], rtol=1e-10, atol=1e-12)


def test_grid_sample_errors_and_warning():
    check("""
import warnings
x = torch.randn(2, 3, 4, 5)
g = torch.rand(2, 3, 3, 2)
E(lambda: F.grid_sample(x, g, mode='foo'))
E(lambda: F.grid_sample(x, g, padding_mode='foo'))
E(lambda: F.grid_sample(x, g[:1], align_corners=True))
E(lambda: F.grid_sample(x, g[..., :1], align_corners=True))
E(lambda: F.grid_sample(x, g.double(), align_corners=True))
E(lambda: F.grid_sample(x[0], g, align_corners=True))
E(lambda: F.grid_sample(x.int(), g.int(), align_corners=True))
E(lambda: F.grid_sample(x[:, :, :0], g, align_corners=True))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    F.grid_sample(x, g)
    print([str(m.message) for m in w])
""")


def test_grid_sample_3d_values_gradients_graphs():
    # 5-D inputs (PyTorch's scalar 3-D kernel): trilinear and nearest values and first gradients bit for bit
    check("""
x = data(2, 3, 4, 5, 3)
for dtype in (torch.float32, torch.float64):
    xd = x.detach().to(dtype).requires_grad_()
    grid = (data(2, 2, 3, 4, 3, seed=1).detach() * 0.7).to(dtype).requires_grad_()
    for mode in ('bilinear', 'nearest'):
        for padding_mode in ('zeros', 'border', 'reflection'):
            for align_corners in (False, True):
                print(dtype, mode, padding_mode, align_corners)
                y = F.grid_sample(xd, grid, mode, padding_mode, align_corners)
                gx, gg = torch.autograd.grad(y, [xd, grid], weights(y))
                bits(y); bits(gx); bits(gg)
y = F.grid_sample(x, data(2, 2, 3, 4, 3, seed=1), 'bilinear', 'border', True)
walk(y)
gx, gg = torch.autograd.grad(y.pow(2).sum(), [x], create_graph=True) + (None,)
walk(gx, depth=1)
E(lambda: F.grid_sample(torch.randn(1, 1, 2, 2, 2, 2), torch.rand(1, 1, 1, 1, 1, 4), align_corners=False))
E(lambda: F.grid_sample(torch.randn(1, 1, 2), torch.rand(1, 1, 1), align_corners=False))
E(lambda: F.grid_sample(torch.randn(1, 1, 2, 2, 2), torch.rand(1, 1, 1, 2), align_corners=False))
E(lambda: F.grid_sample(torch.randn(1, 1, 2, 2, 2), torch.rand(1, 1, 1, 1, 3), mode='bicubic', align_corners=False))
E(lambda: F.grid_sample(torch.randn(1, 1, 2, 2, 2).int(), torch.rand(1, 1, 1, 1, 3).int(), align_corners=False))
E(lambda: F.grid_sample(torch.randn(1, 1, 2, 2, 0), torch.rand(1, 1, 1, 1, 3), align_corners=False))
""")


def test_grid_sample_3d_double_backward():
    for mode in ("bilinear", "nearest"):
        for padding_mode in ("zeros", "reflection"):
            def run(T, mode=mode, padding_mode=padding_mode):
                x = _data(T, 1, 2, 3, 4, 2, dtype=np.float64)
                grid = _data(T, 1, 2, 2, 3, 3, seed=1, dtype=np.float64, scale=0.7)
                y = T.nn.functional.grid_sample(x, grid, mode, padding_mode, True)
                v = _weights(T, y).requires_grad_()
                gx, gg = T.autograd.grad(y, [x, grid], v, create_graph=True)
                assert type(gx.grad_fn).__name__ == "GridSampler3DBackwardBackward0"
                return list(T.autograd.grad(gx.pow(2).sum() + (gg * _weights(T, gg)).sum(), [v, x, grid],
                                            allow_unused=True))
            compare(run, rtol=1e-10, atol=1e-12)


def test_grid_sample_by_hand():
    # the identity grid (align_corners=True) reads every pixel back; half a pixel right averages neighbours
    x = mg.arange(6.0).reshape(1, 1, 2, 3)
    theta = mg.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
    grid = F.affine_grid(theta, [1, 1, 2, 3], align_corners=True)
    assert F.grid_sample(x, grid, align_corners=True).tolist() == x.tolist()
    shifted = grid + mg.tensor([0.5, 0.0])   # x moves by half a pixel: (3 - 1)/2 pixels per unit
    y = F.grid_sample(x, shifted, align_corners=True, padding_mode="border")
    assert y.tolist() == [[[[0.5, 1.5, 2.0], [3.5, 4.5, 5.0]]]]
    assert np.array_equal(F.grid_sample(x, shifted, mode="nearest", align_corners=True).numpy()[0, 0],
                          [[0.0, 2.0, 2.0], [3.0, 5.0, 5.0]])   # 0.5, 1.5, 2.5 round half to even


# =============================================================================================
# stft / istft
# =============================================================================================

# minigrad's FFTs (NumPy's pocketfft) are not PyTorch's bit for bit, so stft / istft values are compared to
# rtol 1e-5 (float32) / 1e-12 (float64); their graphs (node names and saved values) exactly.

_STFT_CASES = (dict(), dict(center=False), dict(normalized=True, onesided=False), dict(pad_mode="constant"),
               dict(pad_mode="replicate", hop_length=3), dict(win_length=6, window="hann6"),
               dict(win_length=5, window=None), dict(window=None), dict(return_complex=False),
               dict(center=False, align_to_window=True, win_length=6, window="hann6"),
               dict(center=False, align_to_window=True))


def _stft_args(T, kw):
    args = dict(window=T.hann_window(8), return_complex=True)
    args.update(kw)
    if args["window"] == "hann6":
        args["window"] = T.hann_window(6)
    return args


def test_stft_graphs():
    check("""
import warnings
warnings.simplefilter('ignore')
x = data(40)
for kw in _STFT_CASES:
    args = dict(window=torch.hann_window(8), return_complex=True)
    args.update(kw)
    if args['window'] == 'hann6':
        args['window'] = torch.hann_window(6)
    S = torch.stft(x, 8, **args)
    print(kw, S.shape, S.dtype)
    walk(S, depth=12)
xb = data(3, 20, seed=2, dtype=np.float64)
S = xb.stft(6, 2, window=torch.hamming_window(6, dtype=torch.float64), return_complex=True)
print(S.shape, S.dtype)
walk(S, depth=3)
wg = torch.hann_window(8).requires_grad_()
walk(torch.stft(x, 8, window=wg, return_complex=True), depth=3)
wg6 = torch.hann_window(6).requires_grad_()
walk(torch.stft(x, 8, 2, 6, wg6, return_complex=True), depth=5)
xc = torch.complex(data(24, seed=3), data(24, seed=4))
S = torch.stft(xc, 8, window=torch.hann_window(8), return_complex=True)
print(S.shape, S.dtype)
walk(S, depth=3)
""".replace("_STFT_CASES", repr(_STFT_CASES)))


def test_stft_values_gradients_close():
    import warnings
    for kw in _STFT_CASES:
        def run(T, kw=kw):
            x = _data(T, 40)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                S = T.stft(x, 8, **_stft_args(T, kw))
            real = T.view_as_real(S) if S.is_complex() else S
            return [real, T.autograd.grad((real * _weights(T, real)).sum(), x)[0]]
        compare(run)

    def batched(T):
        x = _data(T, 3, 20, seed=2, dtype=np.float64)
        w = T.hann_window(8, dtype=T.float64).requires_grad_()
        S = T.view_as_real(x.stft(8, 3, window=w, return_complex=True))
        return [S, *T.autograd.grad((S * _weights(T, S)).sum(), [x, w])]
    compare(batched, rtol=1e-12, atol=1e-12)

    def complex_input(T):
        x = T.complex(_data(T, 24, seed=3), _data(T, 24, seed=4))
        S = T.view_as_real(T.stft(x, 8, window=T.hann_window(8), return_complex=True))
        return [S, T.view_as_real(T.autograd.grad((S * _weights(T, S)).sum(), x)[0])]
    compare(complex_input)


_ISTFT_CASES = (dict(), dict(length=40), dict(length=30), dict(normalized=True), dict(hop_length=4),
                dict(center=False, window="ones"))


def test_istft_graphs():
    check("""
import warnings
warnings.simplefilter('ignore')
x = data(40)
w = torch.hann_window(8)
S = torch.stft(x, 8, window=w, return_complex=True).detach().requires_grad_()
for kw in _ISTFT_CASES:
    args = dict(window=w)
    args.update(kw)
    if args['window'] == 'ones':
        args['window'] = torch.ones(8)
    y = torch.istft(S, 8, **args)
    print(kw, y.shape, y.dtype)
    walk(y, depth=12)
S2 = torch.stft(x, 8, window=w, return_complex=True, onesided=False)
print(torch.istft(S2, 8, window=w).shape, torch.istft(S2, 8, window=w, return_complex=True).dtype)
Sb = torch.stft(data(2, 30, seed=5, dtype=np.float64), 8, window=w.double(), return_complex=True)
y = Sb.istft(8, window=w.double(), win_length=8)
print(y.shape, y.dtype)
walk(y, depth=2)
""".replace("_ISTFT_CASES", repr(_ISTFT_CASES)))


def test_istft_values_gradients_close():
    for kw in _ISTFT_CASES:
        def run(T, kw=kw):
            x = _data(T, 40)
            w = T.hann_window(8)
            S = T.stft(x, 8, window=w, return_complex=True).detach().requires_grad_()
            args = dict(window=w)
            args.update(kw)
            if args["window"] == "ones":
                args["window"] = T.ones(8)
            y = T.istft(S, 8, **args)
            return [y, T.view_as_real(T.autograd.grad((y * _weights(T, y)).sum(), S)[0])]
        compare(run)

    def others(T):
        x = _data(T, 40)
        w = T.hann_window(8)
        S2 = T.stft(x, 8, window=w, return_complex=True, onesided=False)
        xb = _data(T, 2, 30, seed=5, dtype=np.float64)
        Sb = T.stft(xb, 8, window=w.double(), return_complex=True)
        w6 = T.hann_window(6)
        return [T.istft(S2, 8, window=w), T.view_as_real(T.istft(S2, 8, window=w, return_complex=True)),
                Sb.istft(8, window=w.double()),
                T.istft(T.stft(x, 8, window=w6, win_length=6, return_complex=True), 8, window=w6, win_length=6)]
    compare(others)


def test_stft_istft_errors():
    check("""
x = torch.randn(32)
w = torch.hann_window(8)
E(lambda: torch.stft(x, 8, window=w))
E(lambda: torch.stft(x, 8, window=w, return_complex=True, hop_length=0))
E(lambda: torch.stft(x, 8, window=w, return_complex=True, win_length=10))
E(lambda: torch.stft(x, 8, window=w, return_complex=True, win_length=6))
E(lambda: torch.stft(x, 40, window=w, return_complex=True, center=False))
E(lambda: torch.stft(x.view(2, 2, 8), 4, window=torch.ones(4), return_complex=True))
E(lambda: torch.stft(x.to(torch.complex64), 8, window=w, return_complex=True, onesided=True))
E(lambda: torch.stft(x, 8, window=torch.ones(2, 4), return_complex=True))
E(lambda: torch.stft(x, 8, window=w, return_complex=True, align_to_window=True))
E(lambda: torch.stft(x.int(), 8, window=w, return_complex=True))
S = torch.stft(x, 8, window=w, return_complex=True)
E(lambda: torch.istft(S, 8, window=w, center=False))
E(lambda: torch.istft(S, 8, window=w, return_complex=True))
E(lambda: torch.istft(S, 8, window=w, onesided=False))
E(lambda: torch.istft(torch.view_as_real(S), 8, window=w))
E(lambda: torch.istft(S, 6, window=w))
E(lambda: torch.istft(S, 8, window=w, hop_length=9))
E(lambda: torch.istft(S, 8, window=torch.ones(7)))
E(lambda: torch.istft(S, 8, window=torch.zeros(8)))
""")


def test_stft_warnings_once(monkeypatch):
    import warnings

    import minigrad._warn_once
    monkeypatch.setattr(minigrad._warn_once, "_WARNED", set())   # (a warning given once per process)
    x = mg.randn(32)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mg.stft(x, 8, return_complex=False)
        mg.stft(x, 8, return_complex=False)   # each warning once per process, as PyTorch's TORCH_WARN_ONCE
    messages = [str(m.message) for m in caught]
    assert len(messages) == 2
    assert messages[0].startswith("A window was not provided. A rectangular window will be applied,which")
    assert messages[1].startswith("stft with return_complex=False is deprecated.")
    assert messages[1].endswith("(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
                                "SpectralOps.cpp:874.)")


def test_stft_istft_round_trip_by_hand():
    # a hann window at 75% overlap sums to a constant: istft(stft(x)) gives x back
    x = mg.tensor(np.sin(np.arange(64) * 0.3))
    w = mg.hann_window(16, dtype=mg.float64)
    S = mg.stft(x, 16, 4, window=w, return_complex=True)
    assert S.shape == (9, 17)
    # frame 0, bin 0: the sum of the windowed (reflect-padded) first frame
    padded = np.pad(np.sin(np.arange(64) * 0.3), 8, mode="reflect")
    assert np.isclose(S[0, 0].real.item(), (padded[:16] * w.numpy()).sum())
    np.testing.assert_allclose(mg.istft(S, 16, 4, window=w, length=64).numpy(), x.numpy(), atol=1e-12)


# =============================================================================================
# kaiser_window
# =============================================================================================

def test_kaiser_window_values_and_errors():
    # the 16-bit dtypes bit for bit; float32 / float64 in test_kaiser_window_close
    check("""
for dtype in (torch.float16, torch.bfloat16):
    for n in (0, 1, 2, 3, 8, 13, 64):
        for periodic in (True, False):
            for beta in (0.0, 0.5, 5.0, 8.6, 12.0, 30.0, 100.0):
                bits(torch.kaiser_window(n, periodic, beta, dtype=dtype))
print(torch.kaiser_window(10, dtype=torch.float64).dtype, torch.kaiser_window(4, False, 3.0).shape)
print(torch.kaiser_window(4, False, 3.0, requires_grad=True, dtype=torch.float16))
print(torch.kaiser_window(1, requires_grad=True), torch.kaiser_window(0).shape)
E(lambda: torch.kaiser_window(-1))
E(lambda: torch.kaiser_window(5, dtype=torch.int64))
E(lambda: torch.kaiser_window(4, beta=-3.0))
E(lambda: torch.kaiser_window(4.0))
""")


def test_kaiser_window_close():
    # float32 / float64: PyTorch's compiled Chebyshev sums round in an order not fully matched (a few ulps)
    for n in (2, 3, 8, 13, 64):
        for periodic in (True, False):
            for beta in (0.0, 0.5, 5.0, 12.0, 30.0):
                compare(lambda T, n=n, p=periodic, b=beta: [T.kaiser_window(n, p, b)], rtol=1e-6, atol=1e-7)
                compare(lambda T, n=n, p=periodic, b=beta: [T.kaiser_window(n, p, b, dtype=T.float64)],
                        rtol=1e-14, atol=1e-15)


def test_kaiser_window_by_hand():
    # symmetric window of 3: the ends are I0(0)/I0(β) = 1/I0(β), the middle 1
    w = mg.kaiser_window(3, False, 2.0, dtype=mg.float64).numpy()
    assert np.allclose(w, [1 / np.i0(2.0), 1.0, 1 / np.i0(2.0)], rtol=1e-15)
    assert np.allclose(mg.kaiser_window(5, True, 4.0, dtype=mg.float64).numpy(),
                       np.kaiser(6, 4.0)[:5], rtol=1e-14)


# =============================================================================================
# ctc_loss / CTCLoss
# =============================================================================================

def test_ctc_loss_values_gradients_graphs():
    # losses and gradients bit for bit (exp / log rounded as glibc's; a rare float32 gradient may still differ
    # in its last bit: these inputs are checked to match)
    check("""
T, N, C = 6, 2, 4
x = data(T, N, C)
for dtype in (torch.float32, torch.float64):
    lp = x.detach().to(dtype).log_softmax(2).detach().requires_grad_()
    for targets, tl in ((torch.tensor([[1, 2, 2], [3, 1, 0]]), [3, 2]), (torch.tensor([1, 2, 2, 3, 1]), [3, 2]),
                        (torch.tensor([[1, 1, 2], [3, 3, 3]]), [3, 1]), (torch.tensor([[2, 0], [0, 0]]), [1, 0])):
        for reduction in ('none', 'mean', 'sum'):
            for zero_infinity in (False, True):
                loss = F.ctc_loss(lp, targets, [6, 5], tl, reduction=reduction, zero_infinity=zero_infinity)
                bits(loss)
                g, = torch.autograd.grad(loss, lp, weights(loss) + 2 if reduction == 'none' else None)
                bits(g)
        walk(F.ctc_loss(lp, targets, torch.tensor([6, 5]), torch.tensor(tl), reduction='mean'))
    loss = F.ctc_loss(lp, torch.tensor([[3, 3, 3], [1, 2, 1]]), [2, 6], [3, 3], reduction='none')
    bits(loss)
    walk(loss)
    loss = F.ctc_loss(lp, torch.tensor([[3, 3, 3], [1, 2, 1]]), [2, 6], [3, 3], reduction='sum', zero_infinity=True)
    bits(loss)
    walk(loss)
    bits(torch.autograd.grad(loss, lp)[0])
    bits(F.ctc_loss(lp, torch.tensor([[1, 2], [2, 3]]), [0, 6], [0, 2], reduction='none', blank=0))
    loss = F.ctc_loss(lp[:, 0], torch.tensor([1, 2]), torch.tensor(6), torch.tensor(2), blank=3, reduction='none')
    bits(loss)
    walk(loss)
    print(torch.ctc_loss(lp, torch.tensor([[1, 2, 2], [3, 1, 0]]), [6, 5], [3, 2], 0, 1, False))
lp = x.log_softmax(2)
loss = F.ctc_loss(lp, torch.tensor([[1, 2, 2], [3, 1, 0]]), [6, 5], [3, 2], reduction='none')
g, = torch.autograd.grad(loss.sum(), x, create_graph=True)
walk(g, depth=3)
E(lambda: g.sum().backward())
m = nn.CTCLoss(blank=1, reduction='sum', zero_infinity=True)
print(m, type(m), m.blank, m.reduction, m.zero_infinity, nn.CTCLoss.__constants__)
bits(m(lp, torch.tensor([[2, 3, 2], [3, 0, 0]]), torch.tensor([6, 5]), torch.tensor([3, 1])))
""")


def test_ctc_loss_errors():
    check("""
lp = data(6, 2, 4).log_softmax(2)
tg = torch.tensor([[1, 2, 2], [3, 1, 0]])
E(lambda: F.ctc_loss(lp, tg, [6, 5], [3, 2], reduction='foo'))
E(lambda: F.ctc_loss(lp, tg, [6, 5], [3, 4]))
E(lambda: F.ctc_loss(lp, tg, [6, 7], [3, 2]))
E(lambda: F.ctc_loss(lp, tg, [6, -1], [3, 2]))
E(lambda: F.ctc_loss(lp, tg, [6, 5], [3, -1]))
E(lambda: F.ctc_loss(lp, tg, [6], [3, 2]))
E(lambda: F.ctc_loss(lp, tg, [6, 5], [3]))
E(lambda: F.ctc_loss(lp, tg, [6, 5], [3, 2], blank=4))
E(lambda: F.ctc_loss(lp, tg, [6, 5], [3, 2], blank=-1))
E(lambda: F.ctc_loss(lp, tg[:1], [6, 5], [3, 2]))
E(lambda: F.ctc_loss(lp, torch.tensor([1, 2, 2, 3]), [6, 5], [3, 2]))
E(lambda: F.ctc_loss(lp, tg, torch.tensor([6., 5.]), torch.tensor([3, 2])))
E(lambda: F.ctc_loss(lp[:, 0], tg[0], 6, 3))
E(lambda: F.ctc_loss(lp.int(), tg, [6, 5], [3, 2]))
E(lambda: F.ctc_loss(lp.half(), tg, [6, 5], [3, 2]))
E(lambda: F.ctc_loss(lp[0], tg, [6, 5], [3, 2]))
print(F.ctc_loss(lp, tg.float(), [6, 5], [3, 2]), F.ctc_loss(lp, tg.int(), [6, 5], [3, 2]))
""")


def test_ctc_loss_by_hand():
    # one frame, target "a": the only path emits a, so the loss is -log p(a)
    p = mg.tensor([[[0.25, 0.75]]]).log().requires_grad_()   # (T=1, N=1, C=2), blank 0
    loss = F.ctc_loss(p, mg.tensor([[1]]), [1], [1], reduction="sum")
    assert np.isclose(loss.item(), -np.log(0.75))
    loss.backward()
    # d(-lp[a])/d lp = exp(lp) - [c = a]: (0.25, 0.75 - 1)
    np.testing.assert_allclose(p.grad.numpy().reshape(-1), [0.25, -0.25], rtol=1e-6)
    # two frames, target "a": paths (a, a), (a, blank), (blank, a): p = .3·.3 + .3·.7 + .7·.3
    q = mg.tensor([[[0.7, 0.3]], [[0.7, 0.3]]]).log()
    assert np.isclose(F.ctc_loss(q, mg.tensor([[1]]), [2], [1], reduction="none").item(), -np.log(0.51), rtol=1e-6)


def test_signal_windows():
    # torch.signal.windows: PyTorch's Python, op for op, so the bits match; kaiser's I0 is minigrad's (close only)
    check("""
W = torch.signal.windows
print(W.__all__)
for name in W.__all__:
    if name == 'kaiser':
        continue
    f = getattr(W, name)
    kw = dict(a=[0.5, 0.3, 0.2]) if name == 'general_cosine' else {}
    for M in (0, 1, 2, 5, 8, 17):
        for sym in (True, False):
            for dtype in (torch.float32, torch.float64):
                bits(f(M, sym=sym, dtype=dtype, **kw))
bits(W.exponential(6, center=2.0, sym=False, tau=0.7))
bits(W.gaussian(7, std=2.5))
bits(W.general_hamming(6, alpha=0.6))
print(W.hann(5, requires_grad=True))
E(lambda: W.exponential(6, center=2.0))
E(lambda: W.exponential(6, tau=0))
E(lambda: W.gaussian(7, std=-1))
E(lambda: W.kaiser(7, beta=-3.0))
E(lambda: W.hann(-1))
E(lambda: W.hann(5, dtype=torch.float16))
E(lambda: W.general_cosine(5, a=[]))
E(lambda: W.general_cosine(5, a=3))
""")
    for M in (2, 5, 8, 17):
        for sym in (True, False):
            compare(lambda T, M=M, sym=sym: [T.signal.windows.kaiser(M, sym=sym, beta=5.0),
                                             T.signal.windows.kaiser(M, sym=sym, dtype=T.float64)],
                    rtol=1e-6, atol=1e-7)
