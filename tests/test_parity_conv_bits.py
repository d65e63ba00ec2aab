"""float32 conv1d / conv2d with PyTorch's exact bits (``minigrad/_conv_bits.py``): forward and the three
gradients (input, weight, bias).

The exact cases compare with ``np.array_equal``: they cover both of PyTorch's CPU backends (oneDNN's
direct kernels for batches, slow_conv2d's im2col + MKL gemm for one small sample), with padding, stride,
dilation, channels past one 16-channel block, and 1 and 2 threads. The shapes minigrad does not get
exactly (other oneDNN kernels, work above ``_conv_bits.LIMIT``) keep a documented lower bound on the
fraction of equal elements, and must stay close.
"""
from __future__ import annotations

import numpy as np
import pytest
from parity import INTEL_CPU, assert_close, torch_or_skip  # (the threads fixture: conftest.py)

import minigrad
import minigrad.nn.functional as F
from minigrad import _conv_bits, _reduce


def _both(x_shape, w_shape, bias=True, seed=0, transposed=False, **geometry):
    """(PyTorch's, minigrad's) [output, grad_input, grad_weight, grad_bias] as NumPy arrays."""
    torch = torch_or_skip()
    gen = torch.Generator().manual_seed(seed)
    x, w, b = torch.randn(*x_shape, generator=gen), torch.randn(*w_shape, generator=gen), torch.randn(
        w_shape[1] if transposed else w_shape[0], generator=gen)
    name = {3: "conv{}1d", 4: "conv{}2d"}[len(x_shape)].format("_transpose" if transposed else "")
    conv = getattr(torch.nn.functional, name)
    leaves = [t.clone().requires_grad_() for t in ((x, w, b) if bias else (x, w))]
    y = conv(*leaves, **geometry)
    g = torch.randn(*y.shape, generator=gen)
    y.backward(g)
    theirs = [y.detach().numpy()] + [t.grad.numpy() for t in leaves]
    mine_leaves = [minigrad.tensor(t.detach().numpy()).requires_grad_() for t in leaves]
    my_conv = getattr(F, name)
    my = my_conv(*mine_leaves, **geometry)
    my.backward(minigrad.tensor(g.numpy()))
    mine = [my.detach().numpy()] + [t.grad.numpy() for t in mine_leaves]
    return theirs, mine


EXACT = [
    # oneDNN, input channels in one block (≤ 3: its "first convolution" kernels; 4..15: AVX2 weight kernel)
    ((2, 3, 9, 9), (4, 3, 3, 3), {}),
    ((3, 3, 9, 9), (4, 3, 3, 3), {}),
    ((2, 3, 9, 9), (4, 3, 3, 3), {"padding": 1, "stride": 2}),
    ((2, 3, 9, 9), (4, 3, 3, 3), {"dilation": 2}),
    ((4, 1, 28, 28), (6, 1, 5, 5), {}),
    ((1, 1, 28, 28), (6, 1, 5, 5), {}),             # one sample, 5x5 kernel: oneDNN; 24 rows split by threads
    ((4, 1, 32, 32), (6, 1, 5, 5), {}),             # LeNet's first layer
    ((4, 6, 14, 14), (16, 6, 5, 5), {}),            # LeNet's second layer
    ((1, 6, 14, 14), (16, 6, 5, 5), {}),
    ((4, 3, 32, 32), (6, 3, 5, 5), {}),             # the CIFAR-10 tutorial's layers
    ((1, 3, 32, 32), (6, 3, 5, 5), {}),
    ((4, 1, 28, 28), (32, 1, 3, 3), {}),
    ((4, 3, 32, 32), (16, 3, 3, 3), {"padding": 1}),
    ((2, 8, 12, 12), (16, 8, 3, 3), {"padding": 1}),
    ((3, 3, 20, 20), (8, 3, 3, 3), {}),             # more than 9 output rows: rows split between threads
    ((1, 3, 90, 90), (4, 3, 3, 3), {}),             # one sample but > 20480 input elements: oneDNN
    # oneDNN, channels past one 16-channel block
    ((2, 20, 9, 9), (8, 20, 3, 3), {}),
    ((2, 20, 20, 20), (8, 20, 3, 3), {}),
    ((5, 3, 9, 9), (20, 3, 3, 3), {}),
    ((8, 16, 14, 14), (32, 16, 3, 3), {"padding": 1}),
    # slow_conv2d: one small sample, kernel at most 3 in a dim
    ((1, 3, 9, 9), (4, 3, 3, 3), {}),
    ((1, 3, 9, 9), (4, 3, 3, 3), {"padding": 1}),
    ((1, 3, 9, 9), (4, 3, 3, 3), {"stride": 2}),
    ((1, 1, 28, 28), (4, 1, 3, 3), {"padding": 1}),
    ((1, 7, 10, 10), (9, 7, 3, 3), {}),
    ((1, 16, 8, 8), (8, 16, 1, 1), {}),
    # conv1d (a 2d convolution of height 1 in both backends)
    ((2, 3, 10), (4, 3, 3), {}),
    ((4, 16, 50), (8, 16, 3), {}),
    ((1, 3, 10), (4, 3, 3), {"padding": 1}),
    ((1, 4, 20), (2, 4, 5), {"stride": 3}),
    # slow_conv_dilated2d: one small dilated sample (slow_conv2d's steps, the samples one after the other)
    ((1, 16, 9, 12), (1, 16, 5, 3), {"padding": 1, "dilation": 2}),
    ((1, 3, 14, 14), (17, 3, 3, 3), {"padding": 2, "dilation": 3, "stride": 2}),
    ((1, 3, 14), (5, 3, 2), {"dilation": 2}),
]


@pytest.mark.parametrize("x_shape, w_shape, geometry", EXACT, ids=[f"{x}-{w}-{g}" for x, w, g in EXACT])
def test_conv_bits_exact(threads, x_shape, w_shape, geometry):
    theirs, mine = _both(x_shape, w_shape, **geometry)
    for name, a, b in zip(("output", "grad_input", "grad_weight", "grad_bias"), theirs, mine):
        assert a.dtype == b.dtype == np.float32
        assert np.array_equal(a, b), f"{name}: {np.mean(a == b):.3f} of the elements equal"


# oneDNN's depthwise kernels (groups = channels): forward and grad_input for kernels of 2 to 5 taps a side; the
# weight and bias gradients (split between threads by channel blocks, then samples) for kernels up to 3x3 with
# padding up to 1
EXACT_DEPTHWISE = [
    ((2, 16, 9, 9), (16, 1, 3, 3), {"padding": 1, "groups": 16}),
    ((1, 4, 8, 8), (4, 1, 3, 3), {"padding": 1, "groups": 4}),
    ((3, 24, 10, 10), (24, 1, 3, 3), {"stride": 2, "groups": 24}),
    ((5, 8, 6, 7), (8, 1, 2, 3), {"padding": 1, "groups": 8}),
    ((4, 32, 14, 14), (32, 1, 3, 3), {"stride": 2, "padding": 1, "groups": 32}),
]


@pytest.mark.parametrize("x_shape, w_shape, geometry", EXACT_DEPTHWISE,
                         ids=[f"{x}-{w}-{g}" for x, w, g in EXACT_DEPTHWISE])
def test_depthwise_conv_bits_exact(threads, x_shape, w_shape, geometry):
    theirs, mine = _both(x_shape, w_shape, **geometry)
    for name, a, b in zip(("output", "grad_input", "grad_weight", "grad_bias"), theirs, mine):
        assert np.array_equal(a, b), f"{name}: {np.mean(a == b):.3f} of the elements equal"


def test_depthwise_conv_bits_large_kernel_forward_and_input():
    """A 5x5 depthwise kernel with padding 2: forward and grad_input exact; the weight and bias gradients
    (oneDNN blocks the output rows otherwise, not read off) stay close."""
    theirs, mine = _both((2, 16, 12, 12), (16, 1, 5, 5), padding=2, groups=16)
    assert np.array_equal(theirs[0], mine[0]) and np.array_equal(theirs[1], mine[1])
    for a, b in zip(theirs[2:], mine[2:]):
        assert_close(b, a, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("x_shape, w_shape", [((2, 3, 9, 9), (4, 3, 3, 3)), ((1, 3, 9, 9), (4, 3, 3, 3))])
def test_conv_bits_without_bias(threads, x_shape, w_shape):
    theirs, mine = _both(x_shape, w_shape, bias=False, padding=1)
    for a, b in zip(theirs, mine):
        assert np.array_equal(a, b)


def test_slow_conv2d_batch_on_one_thread():
    """On one thread a 1x1 kernel over a batch (< 16) runs slow_conv2d: per-sample gemms, weight gradient
    accumulated sample after sample."""
    torch = torch_or_skip()
    saved = torch.get_num_threads(), _reduce.THREADS[0]
    torch.set_num_threads(1)
    _reduce.THREADS[0] = 1
    try:
        assert _conv_bits.backend((4, 16, 8, 8), (8, 16, 1, 1), (1, 1), (1, 1), 1) == "slow2d"
        theirs, mine = _both((4, 16, 8, 8), (8, 16, 1, 1))
    finally:
        torch.set_num_threads(saved[0])
        _reduce.THREADS[0] = saved[1]
    for a, b in zip(theirs, mine):
        assert np.array_equal(a, b)


def test_conv2d_module_bits():
    """nn.Conv2d with the same parameters: the same output and parameter gradients, bit for bit."""
    torch = torch_or_skip()
    torch.manual_seed(3)
    theirs = torch.nn.Conv2d(3, 4, 3, padding=1)
    mine = minigrad.nn.Conv2d(3, 4, 3, padding=1)
    with minigrad.no_grad():
        mine.weight.copy_(minigrad.tensor(theirs.weight.detach().numpy()))
        mine.bias.copy_(minigrad.tensor(theirs.bias.detach().numpy()))
    x = torch.randn(2, 3, 8, 8)
    theirs(x).square().sum().backward()
    mine(minigrad.tensor(x.numpy())).square().sum().backward()
    assert np.array_equal(theirs.weight.grad.numpy(), mine.weight.grad.numpy())
    assert np.array_equal(theirs.bias.grad.numpy(), mine.bias.grad.numpy())


BACKEND_CASES = [((n, c, h, w), (o, c, kh, kw), s, d)
                 for n, c, h, w in ((1, 3, 9, 9), (2, 3, 9, 9), (1, 3, 90, 90), (16, 3, 5, 5), (1, 8, 50, 60))
                 for o, kh, kw in ((4, 3, 3), (4, 5, 5), (4, 1, 1), (4, 3, 5), (4, 5, 1))
                 for s in (1, 2) for d in (1, 2) if h >= d * (kh - 1) + 1 and w >= d * (kw - 1) + 1]


@pytest.mark.parametrize("threads_n", [1, 2])
def test_backend_choice_is_pytorchs(threads_n):
    """_conv_bits.backend picks what PyTorch's select_conv_backend picks (None: a backend not emulated)."""
    torch = torch_or_skip()
    saved = torch.get_num_threads(), _reduce.THREADS[0]
    torch.set_num_threads(threads_n)
    _reduce.THREADS[0] = threads_n
    try:
        for x_shape, w_shape, s, d in BACKEND_CASES:
            x, w = torch.zeros(x_shape), torch.zeros(w_shape)
            theirs = str(torch._C._select_conv_backend(x, w, None, [s, s], [0, 0], [d, d], False, [0, 0], 1, None))
            mine = _conv_bits.backend(x_shape, w_shape, (s, s), (d, d), 1)
            expected = {"_ConvBackend.Mkldnn": "onednn", "_ConvBackend.Slow2d": "slow2d",
                        "_ConvBackend.SlowDilated2d": "slow2d"}.get(theirs)
            assert mine == expected, (x_shape, w_shape, s, d, theirs)
    finally:
        torch.set_num_threads(saved[0])
        _reduce.THREADS[0] = saved[1]


# Not exact (2 threads, these seeds): oneDNN picks other kernels than the ones read off, or the work is
# above _conv_bits.LIMIT (NumPy's order). Lower bounds of the fraction of equal elements per
# (output, grad_input, grad_weight, grad_bias), a little under what was measured.
NOT_EXACT = [
    # 1x1 kernel with a batch: oneDNN's jit_1x1 kernels (not emulated)
    ((3, 16, 8, 8), (8, 16, 1, 1), {}, (0.2, 0.7, 0.05, 0.05)),
    # its thread balance splits the output channels here (the rows in the 8-sample case above)
    ((4, 16, 16, 16), (32, 16, 3, 3), {"padding": 1}, (1.0, 1.0, 0.03, 0.0)),
    # stride 2 with a 5x3 kernel: the gradient of the input runs oneDNN's brgconv_strided kernel
    ((4, 8, 11, 24), (2, 8, 5, 3), {"padding": 1, "stride": 2}, (1.0, 0.6, 0.0, 0.0)),
    # above LIMIT multiply-adds: NumPy
    ((4, 32, 26, 26), (64, 32, 3, 3), {}, (0.05, 0.05, 0.01, 0.0)),
]


@pytest.mark.parametrize("x_shape, w_shape, geometry, bounds", NOT_EXACT,
                         ids=[f"{x}-{w}-{g}" for x, w, g, _ in NOT_EXACT])
def test_conv_bits_documented_rates(x_shape, w_shape, geometry, bounds):
    torch = torch_or_skip()
    saved = torch.get_num_threads(), _reduce.THREADS[0]
    torch.set_num_threads(2)
    _reduce.THREADS[0] = 2
    try:
        theirs, mine = _both(x_shape, w_shape, **geometry)
    finally:
        torch.set_num_threads(saved[0])
        _reduce.THREADS[0] = saved[1]
    for a, b, bound in zip(theirs, mine, bounds):
        assert np.mean(a == b) >= bound
        assert_close(b, a, rtol=1e-4, atol=1e-4)


# Transposed convolutions on oneDNN: its deconvolution runs the convolution kernels with the roles swapped.
EXACT_TRANSPOSED = [
    ((3, 20, 6, 6), (20, 4, 3, 3), {"padding": 1}),
    ((2, 16, 7, 7), (16, 8, 3, 3), {"stride": 2, "padding": 1}),
]


@pytest.mark.parametrize("x_shape, w_shape, geometry", EXACT_TRANSPOSED,
                         ids=[f"{x}-{w}-{g}" for x, w, g in EXACT_TRANSPOSED])
def test_conv_transpose_bits_exact(threads, x_shape, w_shape, geometry):
    theirs, mine = _both(x_shape, w_shape, transposed=True, **geometry)
    for name, a, b in zip(("output", "grad_input", "grad_weight", "grad_bias"), theirs, mine):
        assert np.array_equal(a, b), f"{name}: {np.mean(a == b):.3f} of the elements equal"


# (as NOT_EXACT, 2 threads)
NOT_EXACT_TRANSPOSED = [
    # fewer than 4 output channels: the bias gradient is oneDNN's vectorized sum over a plain layout
    ((2, 4, 5, 5), (4, 3, 3, 3), {}, (1.0, 1.0, 1.0, 0.3)),
    # output_padding: other kernels
    ((2, 4, 5, 5), (4, 8, 3, 3), {"stride": 2, "output_padding": 1}, (0.8, 1.0, 0.15, 1.0)),
    # a 4x4 kernel with stride 2 (DCGAN's): the forward runs oneDNN's brgconv_strided kernel
    ((4, 16, 7, 7), (16, 8, 4, 4), {"stride": 2, "padding": 1}, (0.3, 1.0, 1.0, 1.0)),
    # 4 output channels (a 4-channel convolution input): the weight gradient's split between threads differs
    ((4, 8, 6, 6), (8, 4, 3, 3), {}, (1.0, 1.0, 0.1, 1.0)),
    # one sample: slow_conv_transpose2d (not emulated)
    ((1, 4, 5, 5), (4, 3, 3, 3), {}, (1.0, 0.2, 0.35, 1.0)),
]


@pytest.mark.parametrize("x_shape, w_shape, geometry, bounds", NOT_EXACT_TRANSPOSED,
                         ids=[f"{x}-{w}-{g}" for x, w, g, _ in NOT_EXACT_TRANSPOSED])
def test_conv_transpose_bits_documented_rates(x_shape, w_shape, geometry, bounds):
    torch = torch_or_skip()
    saved = torch.get_num_threads(), _reduce.THREADS[0]
    torch.set_num_threads(2)
    _reduce.THREADS[0] = 2
    try:
        theirs, mine = _both(x_shape, w_shape, transposed=True, **geometry)
    finally:
        torch.set_num_threads(saved[0])
        _reduce.THREADS[0] = saved[1]
    for a, b, bound in zip(theirs, mine, bounds):
        if not INTEL_CPU:   # (the rates are those of oneDNN on an AMD CPU)
            assert np.mean(a == b) >= bound
        assert_close(b, a, rtol=1e-4, atol=1e-4)
