"""F.interpolate(mode="bicubic") against PyTorch: values, the UpsampleBicubic2DBackward0 node and its saved
attributes, gradients and double backward, for sizes, scale factors, align_corners and float32/float64."""
from __future__ import annotations

import numpy as np
import pytest

import minigrad
from tests.parity import torch_or_skip

CASES = [
    ((2, 3, 5, 7), dict(scale_factor=1.7)),
    ((1, 2, 4, 4), dict(size=(9, 3))),
    ((1, 1, 6, 5), dict(scale_factor=(0.5, 2.3))),
    ((2, 2, 3, 8), dict(size=(7, 11), align_corners=True)),
    ((1, 1, 5, 5), dict(scale_factor=2.0, recompute_scale_factor=True)),
    ((1, 2, 6, 4), dict(scale_factor=(0.7, 1.3), align_corners=True)),
    ((1, 1, 1, 1), dict(size=(3, 2))),
    ((1, 1, 4, 4), dict(size=(4, 4))),
]
SAVED = ("_saved_align_corners", "_saved_output_size", "_saved_scales_h", "_saved_scales_w",
         "_saved_self_sym_sizes")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape,kwargs", CASES, ids=[str(i) for i in range(len(CASES))])
def test_bicubic_matches_torch(shape, kwargs, dtype):
    torch = torch_or_skip()
    rng = np.random.default_rng(len(shape) + sum(shape))
    x = rng.standard_normal(shape).astype(dtype)
    results = []
    for T in (torch, minigrad):
        t = T.tensor(x, requires_grad=True)
        y = T.nn.functional.interpolate(t, mode="bicubic", **kwargs)
        g = T.tensor(rng.standard_normal(tuple(y.shape)).astype(dtype)) if T is torch else T.tensor(results[0][3])
        (gx,) = T.autograd.grad(y, t, g, create_graph=True)
        results.append((y.detach().numpy(), type(y.grad_fn).__name__, {a: getattr(y.grad_fn, a) for a in SAVED},
                        g.numpy(), gx.detach().numpy(), y.dtype))
    want, got = results
    assert got[1] == want[1] == "UpsampleBicubic2DBackward0"
    assert got[2] == want[2]
    assert got[0].shape == want[0].shape and got[0].dtype == want[0].dtype
    # PyTorch's bits: the forward kernel's fma contractions and the backward kernel's plain arithmetic
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[4], want[4])


def test_bicubic_double_backward_matches_torch():
    torch = torch_or_skip()
    x = np.random.default_rng(1).standard_normal((1, 2, 3, 4))
    out = []
    for T in (torch, minigrad):
        t = T.tensor(x, requires_grad=True)
        g = T.tensor(np.linspace(-1, 1, 2 * 5 * 7).reshape(1, 2, 5, 7), requires_grad=True)
        y = T.nn.functional.interpolate(t, size=(5, 7), mode="bicubic")
        (gx,) = T.autograd.grad(y, t, g, create_graph=True)
        (gg,) = T.autograd.grad((gx * gx).sum(), g)
        out.append((type(gx.grad_fn).__name__, gg.numpy()))
    assert out[1][0] == out[0][0] == "UpsampleBicubic2DBackwardBackward0"
    np.testing.assert_array_equal(out[1][1], out[0][1])


def test_bicubic_channels_last_matches_torch():
    torch = torch_or_skip()
    x = np.random.default_rng(2).standard_normal((2, 5, 20, 31)).astype(np.float32)
    out = []
    for T in (torch, minigrad):
        t = T.tensor(x, requires_grad=True)
        y = T.nn.functional.interpolate(t.contiguous(memory_format=T.channels_last), size=(47, 40), mode="bicubic")
        (g,) = T.autograd.grad(y, t, T.ones_like(y) * 0.3)
        out.append((y.detach().numpy(), g.numpy(), y.is_contiguous(memory_format=T.channels_last)))
    assert out[1][2] is out[0][2] is True
    np.testing.assert_array_equal(out[1][0], out[0][0])
    np.testing.assert_array_equal(out[1][1], out[0][1])
