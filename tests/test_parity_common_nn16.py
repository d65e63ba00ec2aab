"""Session 16: PyTorch's legacy NN test tables (torch.testing._internal.common_nn) compared live.

tests/common_nn_sweep.py runs every entry of `module_tests`, `get_new_module_tests()` and `criterion_tests` on
both libraries (forward, errors, input/parameter grads, second order); here a curated list of entries that match
now, and one focused test per fix the sweep led to (convolution layouts and double backward, upsample checks).
"""
from __future__ import annotations

import common_nn_sweep as sweep
import numpy as np
import pytest
from parity import torch_or_skip

import minigrad

torch = torch_or_skip()

# Entries that match torch exactly (values, dtype, shape, strides, grad_fn, grads and second order), one or two
# per kind of module: losses with their reduction/weight/ignore_index options, activations without a batch dim,
# embeddings, fold/unfold, padding, pixel shuffle, interpolation modes, softmax variants, zero batches.
EXACT = [
    "BCELoss_weights_no_reduce", "BCEWithLogitsLoss_legacy_enum", "CosineEmbeddingLoss_no_batch_dim_mean",
    "HingeEmbeddingLoss_margin_no_reduce", "HuberLoss_delta", "KLDivLoss_with_log_target_no_reduce",
    "L1Loss_no_reduce_complex", "MarginRankingLoss_no_batch_dim_sum", "MultiLabelMarginLoss_index_neg",
    "MultiLabelSoftMarginLoss_weights_no_reduce", "MultiMarginLoss_weights_no_reduce",
    "NLLLoss_no_reduce_weights_ignore_index_neg", "NLLLossNd_no_reduce_weights", "PoissonNLLLoss_no_batch_dim_none",
    "SmoothL1Loss_zero_beta", "TripletMarginLoss_no_batch_dim_none", "multimarginloss_1d_input_0d_target_no_reduce",
    "GLU_no_batch_dim", "PReLU_no_batch_dim", "RReLU_with_up_down", "Threshold_no_batch_dim", "CrossMapLRN2d",
    "EmbeddingBag_max_padding_idx", "Embedding_discontiguous", "Fold_no_batch_dim_input", "Unfold",
    "ReplicationPad3d_complex", "PixelUnshuffle", "PairwiseDistance_with_non_default_args", "Linear_no_bias",
    "interpolate_bicubic_scale_tuple_skewed_2d_align_corners", "interpolate_nearest_2d_zero_dim",
    "interpolate_trilinear_scale_3d_align_corners", "log_softmax_spatial_special", "softmax_spatial_dtype",
    "Conv2d_zero_batch",
]

# Convolutions: float64 sums in another order than PyTorch's (rounding-level differences, marked "~"), but the
# layouts (output, gradients, second-order weight gradient), dtypes, shapes and grad_fns must match.
CONV = ["Conv1d_pad1size1", "Conv3d_groups", "ConvTranspose2d", "ConvTranspose1d_groups", "Conv3d_stride",
        "Conv2d_depthwise_with_multiplier"]


@pytest.mark.parametrize("name", EXACT)
def test_entry_matches_torch(name):
    assert sweep.run_entry(name, "float64") == []


@pytest.mark.parametrize("name", ["SmoothL1Loss_no_reduce", "softmax_lastdim_dtype", "interpolate_bilinear_2d"])
def test_entry_matches_torch_float32_noncontiguous(name):
    """float32, and torch's non-contiguous input and grad_output layout (ModuleTest.test_noncontig)."""
    assert sweep.run_entry(name, "float32", noncontig=True) == []


@pytest.mark.parametrize("name", CONV)
def test_conv_entry_matches_torch_up_to_rounding(name):
    issues = sweep.run_entry(name, "float64")
    assert [s for s in issues if not s.startswith("~")] == []


def _conv(lib, cls, args, kwargs, x_shape, seed=0, channels_last=False):
    """A float64 conv module and input with the same values in both libraries (values drawn by torch)."""
    gen = torch.Generator().manual_seed(seed)
    mod = getattr(lib.nn, cls)(*args, **kwargs).double()
    with lib.no_grad():
        for p in mod.parameters():
            p.copy_(lib.tensor(torch.randn(tuple(p.shape), generator=gen, dtype=torch.float64).numpy()))
    x = lib.tensor(torch.randn(x_shape, generator=gen, dtype=torch.float64).numpy())
    if channels_last:
        x = x.contiguous(memory_format=lib.channels_last)
    return mod, x.requires_grad_(True)


def test_conv_output_is_contiguous_with_size1_dims():
    """A (1, 4, 1) convolution result has PyTorch's contiguous strides (4, 1, 1), not NumPy's (1, 1, 1)."""
    for cls, args, kwargs, shape in [("Conv1d", (4, 4, 3), dict(padding=1), (1, 4, 1)),
                                     ("Conv3d", (4, 6, (2, 3, 1)), dict(groups=2), (1, 4, 3, 4, 5)),
                                     ("ConvTranspose1d", (4, 1, 1), {}, (1, 4, 1))]:
        strides = []
        for lib in (torch, minigrad):
            mod, x = _conv(lib, cls, args, kwargs, shape)
            strides.append(mod(x).stride())
        assert strides[0] == strides[1], cls


def test_conv_gradients_layout():
    """Gradients are new tensors in the convolution's memory format: contiguous (a batch-1 transposed conv's
    input grad too), channels_last when the input is."""
    for cls, shape, channels_last in [("ConvTranspose2d", (1, 3, 7, 6), False), ("ConvTranspose1d", (1, 3, 7), False),
                                      ("Conv2d", (2, 3, 7, 6), True), ("ConvTranspose2d", (2, 3, 5, 6), True)]:
        got = []
        for lib in (torch, minigrad):
            mod, x = _conv(lib, cls, (3, 4, 3), {}, shape, channels_last=channels_last)
            y = mod(x)
            gx, gw = lib.autograd.grad(y, [x, mod.weight], lib.ones_like(y))
            got.append((y.stride(), gx.stride(), gw.stride()))
        assert got[0] == got[1], (cls, channels_last)


def _chain(fn, depth=0):
    """grad_fn names down the graph (a few levels), to compare the second-order graph's structure."""
    if fn is None or depth > 4:
        return []
    out = ["  " * depth + fn.name()]
    for nxt, _ in fn.next_functions:
        out += _chain(nxt, depth + 1)
    return out


@pytest.mark.parametrize("cls,args,kwargs,shape", [
    ("Conv1d", (4, 6, 3), dict(stride=2), (2, 4, 8)),
    ("Conv1d", (4, 6, 3), dict(groups=2, padding=1, dilation=2), (2, 4, 9)),
    ("ConvTranspose1d", (4, 6, 3), dict(stride=3, padding=1, output_padding=1), (2, 4, 7)),
    ("ConvTranspose2d", (4, 6, 3), dict(stride=2, groups=2, dilation=2, output_padding=1), (2, 4, 5, 5)),
    ("Conv3d", (2, 4, 2), dict(stride=2), (1, 2, 5, 5, 5)),
])
def test_conv_double_backward_like_torch(cls, args, kwargs, shape):
    """The second-order gradients (w.r.t. input, weight, grad_output) have PyTorch's values, layouts and graph:
    d/dw of ⟨ggI, Jxᵀg⟩ is a convolution of ggIᵀ by gOᵀ, cat per group, transposed back (strides (3, 18, 1))."""
    got = []
    for lib in (torch, minigrad):
        gen = torch.Generator().manual_seed(1)
        mod, x = _conv(lib, cls, args, kwargs, shape)
        y = mod(x)
        go = lib.tensor(torch.randn(tuple(y.shape), generator=gen, dtype=torch.float64).numpy()).requires_grad_(True)
        first = lib.autograd.grad(y, [x, mod.weight], go, create_graph=True)
        v = [lib.tensor(torch.randn(tuple(t.shape), generator=gen, dtype=torch.float64).numpy()) for t in first]
        second = lib.autograd.grad(first, [x, mod.weight, go], v, create_graph=True)
        got.append([(t.detach().numpy(), t.stride(), _chain(t.grad_fn)) for t in second])
    for (tv, ts, tc), (mv, ms, mc) in zip(*got):
        np.testing.assert_allclose(mv, tv, rtol=1e-12, atol=1e-12)
        assert ms == ts
        assert mc == tc


def test_upsample_nearest_backward_empty_batch():
    """A (0, C, *spatial) input's nearest-upsample gradient: empty, with PyTorch's shape and strides."""
    for shape in [(0, 2, 4), (0, 2, 4, 4), (0, 2, 3, 4, 4)]:
        got = []
        for lib in (torch, minigrad):
            x = lib.zeros(shape, requires_grad=True)
            y = lib.nn.functional.interpolate(x, scale_factor=2, mode="nearest")
            y.backward(lib.ones(y.shape))
            got.append((tuple(x.grad.shape), x.grad.stride()))
        assert got[0] == got[1]


@pytest.mark.parametrize("shape,mode,antialias", [
    ((2, 0, 4), "nearest", False), ((2, 0, 4), "linear", False), ((2, 0, 4, 4), "bilinear", False),
    ((2, 0, 4, 4), "bicubic", False), ((2, 0, 4, 4), "bilinear", True), ((2, 0, 4, 4, 4), "trilinear", False),
    ((2, 0, 4, 4, 4), "nearest-exact", False), ((2, 0, 4, 4), "area", False), ((0, 0, 4), "nearest", False),
    ((0, 2, 4), "linear", False), ((2, 2, 0, 4), "nearest", False)])
def test_upsample_zero_channels(shape, mode, antialias):
    """PyTorch refuses an input with no channels ("Non-empty 4D data tensor expected ...") after its size check;
    an empty batch is fine, and "area" (adaptive pooling) has its own rules."""
    got = []
    for lib in (torch, minigrad):
        try:
            y = lib.nn.functional.interpolate(lib.zeros(shape), size=(3,) * (len(shape) - 2), mode=mode,
                                              antialias=antialias)
            got.append(("ok", tuple(y.shape), y.stride()))
        except Exception as e:  # (the comparison is the point: type and message)
            got.append((type(e).__name__, str(e)))
    assert got[0] == got[1]


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("shape,scale,mode", [((2, 3, 5), (4,), "nearest"), ((2, 3, 4, 5), (4, 3), "nearest"),
                                              ((1, 2, 2, 3, 4), (3, 2, 4), "nearest"),
                                              ((1, 2, 5, 4), (2.5, 3.5), "nearest-exact")])
def test_upsample_nearest_backward_half_sums_in_float32(dtype, shape, scale, mode):
    """float16 / bfloat16 gradients of nearest upsampling add up in float32 and round once (PyTorch's opmath
    buffer), not once per addition: the same bits as PyTorch."""
    gen = torch.Generator().manual_seed(2)
    x = torch.randn(shape, generator=gen).to(getattr(torch, dtype)).requires_grad_(True)
    y = torch.nn.functional.interpolate(x, scale_factor=scale, mode=mode)
    g = (torch.randn(tuple(y.shape), generator=gen) * 10).to(x.dtype)
    y.backward(g)
    mx = minigrad.tensor(x.detach().float().numpy()).to(getattr(minigrad, dtype)).requires_grad_(True)
    my = minigrad.nn.functional.interpolate(mx, scale_factor=scale, mode=mode)
    my.backward(minigrad.tensor(g.float().numpy()).to(mx.dtype))
    assert str(mx.grad.dtype) == str(x.grad.dtype)
    assert np.array_equal(mx.grad.float().numpy(), x.grad.float().numpy())


@pytest.mark.parametrize("threads", [1, 2])
def test_half_softmax_other_dim_follows_the_thread_split(threads):
    """float16 / bfloat16 softmax over a dim that is not the last: which columns PyTorch's kernel takes as whole
    vectors (rounding e^(x - max) only in the others) depends on how its threads split the positions; minigrad
    follows its own thread count (common_nn's softmax_functional_dim0: (2, 3, 4, 5) over dim 0)."""
    saved = torch.get_num_threads(), minigrad.get_num_threads()
    torch.set_num_threads(threads)
    minigrad.set_num_threads(threads)
    try:
        gen = torch.Generator().manual_seed(3)
        for shape, dim in [((2, 3, 4, 5), 0), ((3, 70), 0), ((2, 5, 40), 1), ((3, 2, 100), 1), ((5, 3, 31), 0)]:
            for dtype in ("bfloat16", "float16"):
                x = (torch.randn(shape, generator=gen) * 3).to(getattr(torch, dtype))
                theirs = torch.softmax(x, dim)
                mine = minigrad.softmax(minigrad.tensor(x.float().numpy()).to(getattr(minigrad, dtype)), dim)
                assert np.array_equal(mine.float().numpy(), theirs.float().numpy()), (shape, dim, dtype)
    finally:
        torch.set_num_threads(saved[0])
        minigrad.set_num_threads(saved[1])


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_embedding_bag_half_mean_divides_the_rounded_sum(dtype):
    """16-bit EmbeddingBag(mode="mean") off the fbgemm path (a padding_idx): PyTorch stores each bag's float32
    sum in the output (rounded), then divides that by the bag size (apply_bag_size): the same bits."""
    gen = torch.Generator().manual_seed(4)
    for trial in range(4):
        w = (torch.randn(10, 5, generator=gen) * 3).to(getattr(torch, dtype))
        idx = torch.randint(0, 10, (14,), generator=gen)
        off = torch.tensor([0, 3, 3, 9])
        theirs = torch.nn.functional.embedding_bag(idx, w, off, mode="mean", padding_idx=2)
        mine = minigrad.nn.functional.embedding_bag(
            minigrad.tensor(idx.numpy()), minigrad.tensor(w.float().numpy()).to(getattr(minigrad, dtype)),
            minigrad.tensor(off.numpy()), mode="mean", padding_idx=2)
        assert np.array_equal(mine.float().numpy(), theirs.float().numpy()), trial


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_bicubic_half_weights_rounded_to_dtype(dtype):
    """16-bit bicubic upsampling: PyTorch's kernel keeps the cubic weights in the tensor's dtype (rounded) and
    sums in float32: the same bits, forward and backward (common_nn's interpolate_bicubic_* in bfloat16)."""
    gen = torch.Generator().manual_seed(5)
    for shape, kw in [((1, 2, 4, 4), dict(scale_factor=3)), ((2, 3, 5, 6), dict(size=(9, 11))),
                      ((1, 2, 4, 4), dict(size=(7, 9), align_corners=True)), ((1, 1, 8, 8), dict(scale_factor=0.6))]:
        x = (torch.randn(shape, generator=gen) * 2).to(getattr(torch, dtype)).requires_grad_(True)
        y = torch.nn.functional.interpolate(x, mode="bicubic", **kw)
        g = torch.randn(tuple(y.shape), generator=gen).to(x.dtype)
        y.backward(g)
        mx = minigrad.tensor(x.detach().float().numpy()).to(getattr(minigrad, dtype)).requires_grad_(True)
        my = minigrad.nn.functional.interpolate(mx, mode="bicubic", **kw)
        my.backward(minigrad.tensor(g.float().numpy()).to(mx.dtype))
        assert np.array_equal(my.detach().float().numpy(), y.detach().float().numpy()), kw
        assert np.array_equal(mx.grad.float().numpy(), x.grad.float().numpy()), kw
