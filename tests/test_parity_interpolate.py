"""F.interpolate / nn.Upsample, modes "linear" and "bilinear": values and gradients bit for bit against
PyTorch's CPU kernels (float32), node names and saved attributes, double backward, and PyTorch's errors."""
from __future__ import annotations

import numpy as np
import pytest
from parity import requires_torch, torch_or_skip

import minigrad
import minigrad.nn.functional as MF

# (input shape, interpolate keywords): both bilinear kernels (one pass below H+W = 128 outputs, separable
# above), vector blocks of 16 channels and the scalar tail, shrinking, align_corners, size and recompute.
CASES = [
    ((2, 3, 7), dict(scale_factor=2.5, mode="linear")),
    ((2, 3, 7), dict(scale_factor=0.6, mode="linear")),
    ((2, 3, 7), dict(size=4, mode="linear", align_corners=True)),
    ((1, 2, 5), dict(size=(13,), mode="linear")),
    ((1, 2, 5), dict(scale_factor=1.7, mode="linear", recompute_scale_factor=True)),
    ((2, 3, 5, 6), dict(scale_factor=2, mode="bilinear")),
    ((1, 16, 5, 6), dict(scale_factor=1.7, mode="bilinear")),
    ((1, 19, 5, 6), dict(scale_factor=3, mode="bilinear", align_corners=True)),
    ((1, 35, 4, 3), dict(size=(7, 9), mode="bilinear")),
    ((2, 3, 9, 8), dict(scale_factor=12.3, mode="bilinear")),
    ((1, 17, 9, 8), dict(size=(100, 70), mode="bilinear", align_corners=True)),
    ((2, 3, 9, 8), dict(scale_factor=(0.6, 2.3), mode="bilinear", recompute_scale_factor=True)),
    ((1, 2, 6, 5), dict(size=(6, 11), mode="bilinear")),
    ((1, 2, 1, 1), dict(size=(3, 4), mode="bilinear", align_corners=True)),
]


def _pair(torch, shape, kw, seed=0, dtype=np.float32):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape).astype(dtype)
    tx, mx = torch.from_numpy(x.copy()).requires_grad_(), minigrad.from_numpy(x.copy()).requires_grad_()
    ty, my = torch.nn.functional.interpolate(tx, **kw), MF.interpolate(mx, **kw)
    g = rng.standard_normal(tuple(ty.shape)).astype(dtype)
    ty.backward(torch.from_numpy(g.copy()))
    my.backward(minigrad.from_numpy(g.copy()))
    return tx, ty, mx, my


def _same_bits(a, b) -> bool:
    return a.shape == b.shape and np.array_equal(a.view(np.uint8), b.view(np.uint8))


@requires_torch
@pytest.mark.parametrize("shape,kw", CASES)
def test_values_and_grads_bit_exact(shape, kw):
    torch = torch_or_skip()
    tx, ty, mx, my = _pair(torch, shape, kw)
    assert _same_bits(my.detach().numpy(), ty.detach().numpy())
    assert _same_bits(mx.grad.numpy(), tx.grad.numpy())
    assert type(my.grad_fn).__name__ == type(ty.grad_fn).__name__


@requires_torch
@pytest.mark.parametrize("max_size,runs", [(40, 300), (150, 40)])
def test_random_sweep_match_rate(max_size, runs):
    """Random resizes (sizes, scales, both alignments, 1..40 channels; outputs up to ``max_size`` wide, so
    both bilinear kernels): every float32 bit of values and gradients equal."""
    torch = torch_or_skip()
    rng = np.random.default_rng(7 + max_size)
    same = total = 0
    for seed in range(runs):
        two_d = bool(rng.integers(0, 2))
        spatial = tuple(int(s) for s in rng.integers(1, 14, size=2 if two_d else 1))
        shape = (int(rng.integers(1, 3)), int(rng.integers(1, 41))) + spatial
        kw = dict(mode="bilinear" if two_d else "linear", align_corners=bool(rng.integers(0, 2)))
        if rng.integers(0, 2):
            kw["size"] = tuple(int(s) for s in rng.integers(1, max_size, size=len(spatial)))
        else:
            kw["scale_factor"] = float(rng.choice([0.5, 0.77, 1.3, 2.0, 2.5, 3.3, 7.1]))
            if max(spatial) * kw["scale_factor"] < 1:
                kw["scale_factor"] = 2.0
            kw["recompute_scale_factor"] = bool(rng.integers(0, 2))
        if any(int(s * kw.get("scale_factor", 1)) < 1 for s in spatial):
            continue
        tx, ty, mx, my = _pair(torch, shape, kw, seed)
        for a, b in ((my.detach().numpy(), ty.detach().numpy()), (mx.grad.numpy(), tx.grad.numpy())):
            assert a.shape == b.shape
            same += int((a.view(np.int32) == b.view(np.int32)).sum())
            total += a.size
    assert total > 10_000
    assert same == total


@requires_torch
def test_float64_close():
    torch = torch_or_skip()
    tx, ty, mx, my = _pair(torch, (2, 3, 5, 7), dict(scale_factor=2.5, mode="bilinear"), dtype=np.float64)
    np.testing.assert_allclose(my.detach().numpy(), ty.detach().numpy(), rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(mx.grad.numpy(), tx.grad.numpy(), rtol=1e-14, atol=1e-15)


def _saved(node) -> dict:
    return {a: getattr(node, a) for a in dir(node) if a.startswith("_saved_")}


@requires_torch
@pytest.mark.parametrize("shape,kw", [
    ((1, 2, 3, 4), dict(scale_factor=2, mode="bilinear")),
    ((1, 2, 3, 4), dict(size=(5, 7), mode="bilinear", align_corners=True)),
    ((1, 2, 3, 4), dict(scale_factor=(2, 3), mode="bilinear")),
    ((1, 2, 3), dict(scale_factor=2.5, mode="linear", recompute_scale_factor=True)),
    ((1, 2, 3), dict(scale_factor=2.5, mode="linear")),
])
def test_node_names_and_saved(shape, kw):
    torch = torch_or_skip()
    tx, ty, mx, my = _pair(torch, shape, kw)
    assert repr(type(my.grad_fn)) == repr(type(ty.grad_fn))
    assert _saved(my.grad_fn) == _saved(ty.grad_fn)
    assert type(_saved(my.grad_fn)["_saved_output_size"]) is tuple


@requires_torch
@pytest.mark.parametrize("shape,kw", [
    ((1, 2, 5), dict(scale_factor=2.5, mode="linear")),
    ((1, 2, 3, 4), dict(size=(5, 7), mode="bilinear", align_corners=True)),
])
def test_double_backward(shape, kw):
    torch = torch_or_skip()
    rng = np.random.default_rng(3)
    x = rng.standard_normal(shape)
    out = []
    for T, F in ((torch, torch.nn.functional), (minigrad, MF)):
        xt = T.from_numpy(x.copy()).requires_grad_()
        y = F.interpolate(xt, **kw)
        g = T.from_numpy(rng.standard_normal(tuple(y.shape))).requires_grad_()
        (gx,) = T.autograd.grad(y, xt, g, create_graph=True)
        (gg,) = T.autograd.grad((gx * gx).sum(), g)
        out.append((type(gx.grad_fn).__name__, _saved(gx.grad_fn), gg.detach().numpy()))
        rng = np.random.default_rng(3)
        rng.standard_normal(shape)
    (tn, ts, tg), (mn, ms, mg) = out
    assert mn == tn and ms == ts
    np.testing.assert_allclose(mg, tg, rtol=1e-12)


def test_gradcheck_float64():
    x = minigrad.randn(1, 2, 3, 4, dtype=minigrad.float64, requires_grad=True)
    assert minigrad.autograd.gradcheck(lambda t: MF.interpolate(t, scale_factor=1.5, mode="bilinear"), (x,))
    assert minigrad.autograd.gradgradcheck(lambda t: MF.interpolate(t, size=(5, 2), mode="bilinear",
                                                                    align_corners=True), (x,))
    y = minigrad.randn(2, 1, 4, dtype=minigrad.float64, requires_grad=True)
    assert minigrad.autograd.gradcheck(lambda t: MF.interpolate(t, scale_factor=2.2, mode="linear"), (y,))


def test_known_values():
    x = minigrad.tensor([[[0.0, 1.0, 3.0]]])
    y = MF.interpolate(x, scale_factor=2, mode="linear")
    assert y.tolist() == [[[0.0, 0.25, 0.75, 1.5, 2.5, 3.0]]]
    y = MF.interpolate(x, size=5, mode="linear", align_corners=True)
    assert y.tolist() == [[[0.0, 0.5, 1.0, 2.0, 3.0]]]


@requires_torch
@pytest.mark.parametrize("shape,kw", [
    ((1, 2, 5), dict(scale_factor=2, mode="bilinear")),
    ((1, 2, 3, 4), dict(scale_factor=2, mode="linear")),
    ((1, 1, 2, 2, 2), dict(scale_factor=2, mode="bilinear")),
    ((1, 1, 2, 2, 2), dict(scale_factor=2, mode="linear")),
    ((2, 3), dict(scale_factor=2, mode="linear")),
    ((1, 2, 3, 4), dict(mode="bilinear")),
    ((1, 2, 3, 4), dict(size=3, scale_factor=2, mode="bilinear")),
    ((1, 2, 3, 4), dict(size=(3,), mode="bilinear")),
    ((1, 2, 3, 4), dict(scale_factor=(2, 2, 2), mode="bilinear")),
    ((1, 2, 3, 4), dict(size=(3, 4), mode="bilinear", recompute_scale_factor=True)),
    ((1, 2, 3, 4), dict(size=(3.5, 4), mode="bilinear")),
    ((1, 2, 5), dict(scale_factor=0.1, mode="linear")),
    ((1, 2, 5), dict(size=0, mode="linear")),
    ((1, 2, 5), dict(scale_factor=-1.0, mode="linear")),
    ((1, 2, 3, 4), dict(size=(0, 8), mode="bilinear")),
    ((1, 2, 5), dict(scale_factor=2, mode="linear", antialias=True)),
    ((1, 2, 5), dict(scale_factor=2, mode="linear", align_corners=None)),
])
def test_errors_match(shape, kw):
    torch = torch_or_skip()
    results = []
    for T, F in ((torch, torch.nn.functional), (minigrad, MF)):
        try:
            y = F.interpolate(T.zeros(*shape), **kw)
            results.append(("ok", tuple(y.shape)))
        except Exception as e:  # noqa: BLE001 - the type and message are what is compared
            results.append((type(e).__name__, str(e)))
    assert results[1] == results[0]


@requires_torch
def test_upsample_module():
    torch = torch_or_skip()
    x = np.random.default_rng(1).standard_normal((1, 2, 3, 4)).astype(np.float32)
    for kw in (dict(scale_factor=2, mode="bilinear"), dict(size=(5, 6), mode="bilinear", align_corners=True)):
        tm, mm = torch.nn.Upsample(**kw), minigrad.nn.Upsample(**kw)
        assert repr(mm) == repr(tm)
        assert _same_bits(mm(minigrad.from_numpy(x)).numpy(), tm(torch.from_numpy(x)).numpy())
    tm, mm = torch.nn.Upsample(scale_factor=3, mode="linear"), minigrad.nn.Upsample(scale_factor=3, mode="linear")
    assert _same_bits(mm(minigrad.from_numpy(x[0])).numpy(), tm(torch.from_numpy(x[0])).numpy())


@requires_torch
@pytest.mark.parametrize("shape,mode", [((1, 2, 40), "linear"), ((1, 2, 40, 30), "bilinear"),
                                        ((1, 3, 4, 3), "bilinear")])
def test_float16_bit_exact(shape, mode):
    """Half: weights rounded to half (linear, separable bilinear), arithmetic in float32 as PyTorch's opmath."""
    torch = torch_or_skip()
    for align in (False, True):
        tx, ty, mx, my = _pair(torch, shape, dict(scale_factor=3.3, mode=mode, align_corners=align),
                               dtype=np.float16)
        assert my.dtype == minigrad.float16
        assert _same_bits(my.detach().numpy(), ty.detach().numpy())
        assert _same_bits(mx.grad.numpy(), tx.grad.numpy())


@requires_torch
@pytest.mark.parametrize("shape,mode", [((1, 2, 3, 4), "bilinear"), ((1, 2, 30, 40), "bilinear"),
                                        ((1, 2, 3), "linear")])
@pytest.mark.parametrize("dtype", ["int64", "int32", "bool"])
def test_integer_input_errors(shape, mode, dtype):
    torch = torch_or_skip()
    results = []
    for T, F in ((torch, torch.nn.functional), (minigrad, MF)):
        with pytest.raises(NotImplementedError) as info:
            F.interpolate(T.ones(*shape, dtype=getattr(T, dtype)), scale_factor=4, mode=mode)
        results.append(str(info.value))
    assert results[1] == results[0]
