"""float64 gelu, lgamma and atan2, and logaddexp2, xlogy and sinc (float32 and float64), values and gradients,
bit for bit as PyTorch's CPU kernels:

- gelu (float64, erf form): x·0.5·(1 + erf(x/√2)) with SLEEF's erf (``_float_math.sleef_erf64``) on blocks of
  2 x 8 doubles and glibc's on the rest; its gradient g·(Φ + x·φ), fused in the vector code only; the tanh
  form's value (SLEEF's / glibc's tanh);
- lgamma (float64): SLEEF's lgamma_u10 on every element (``_float_math.sleef_lgamma64``);
- atan2 (float64): SLEEF's atan2_u10 on vector blocks, glibc's on the rest;
- logaddexp2: max(a, b) + log1p(2^-|a - b|)·(1/ln 2), the product fused into the sum, SLEEF's exp2/log1p on
  vector blocks and glibc's on the rest (``_float_math.logaddexp2``); its gradient is g / (pow(2, b - a) + 1);
- pow (float64): SLEEF's pow_u10 (``_float_math.sleef_pow64``) on vector blocks, glibc's pow on the rest;
- xlogy: x·log y with glibc's log (PyTorch's kernel is scalar only);
- sinc: sin(πx)/(πx) with glibc's sin, and a gradient of grad·(quotient) (PyTorch's grouping).
"""
from __future__ import annotations

import numpy as np
import pytest
from parity import torch_or_skip

import minigrad


def _same_bits(actual, expected) -> bool:
    actual, expected = np.ascontiguousarray(actual), np.ascontiguousarray(expected)
    kind = np.int64 if actual.dtype.itemsize == 8 else np.int32
    return bool(np.all((actual.view(kind) == expected.view(kind)) | (np.isnan(actual) & np.isnan(expected))))


def _run(lib, fn, arrays, g):
    tensors = [lib.tensor(a, requires_grad=True) for a in arrays]
    out = fn(lib, *tensors)
    out.backward(lib.tensor(g))
    return [out.detach().numpy()] + [t.grad.numpy() for t in tensors]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [5, 37, 1000])
@pytest.mark.parametrize("name", ["logaddexp2", "xlogy", "sinc"])
def test_bits_match_pytorch(name: str, n: int, dtype) -> None:
    torch = torch_or_skip()
    gen = np.random.default_rng(n)
    a = (gen.standard_normal(n) * 3).astype(dtype)
    b = (gen.standard_normal(n) * 3).astype(dtype)
    g = gen.standard_normal(n).astype(dtype)
    if name == "logaddexp2":
        a[:4], b[:4] = [np.inf, -np.inf, np.inf, np.nan], [np.inf, -np.inf, 1.0, 2.0]
        fn, arrays = (lambda L, x, y: L.logaddexp2(x, y)), (a, b)
    elif name == "xlogy":
        a[:5], b[:5] = [0, 0, 0, 1, 2], [0, -1, np.nan, 0, np.inf]
        fn, arrays = (lambda L, x, y: L.xlogy(x, y)), (a, b)
    else:
        a[:3] = [0, np.inf, 1e-30]
        fn, arrays = (lambda L, x: L.sinc(x)), (a,)
    mine, theirs = _run(minigrad, fn, arrays, g), _run(torch, fn, arrays, g)
    for k, value in enumerate(mine):
        assert _same_bits(value, theirs[k]), (name, "value" if k == 0 else f"grad {k}")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_logaddexp2_broadcast_and_transposed(dtype) -> None:
    torch = torch_or_skip()
    gen = np.random.default_rng(1)
    a = (gen.standard_normal((30, 37)) * 3).astype(dtype)
    b = (gen.standard_normal(37) * 3).astype(dtype)
    assert _same_bits(minigrad.logaddexp2(minigrad.tensor(a), minigrad.tensor(b)).numpy(),
                      torch.logaddexp2(torch.tensor(a), torch.tensor(b)).numpy())
    mt, tt = minigrad.tensor(a).t(), torch.tensor(a).t()
    assert _same_bits(minigrad.logaddexp2(mt, mt * 0.5).numpy(), torch.logaddexp2(tt, tt * 0.5).numpy())


@pytest.mark.parametrize("shape", [(5,), (16,), (37,), (1000,), (64, 33)])
@pytest.mark.parametrize("scale", [0.01, 1.0, 3.0, 10.0])
def test_gelu_float64_bits(shape, scale) -> None:
    torch = torch_or_skip()
    gen = np.random.default_rng(len(shape) * 100 + shape[0])
    x = gen.standard_normal(shape) * scale
    g = gen.standard_normal(shape)
    flat = x.reshape(-1)
    if flat.size > 5:
        flat[:5] = [0.0, np.inf, -np.inf, np.nan, 1e-9]   # (erf's special cases: 0, ±inf, nan, tiny)
    fn = (lambda L, t: L.nn.functional.gelu(t))
    mine, theirs = _run(minigrad, fn, (x,), g), _run(torch, fn, (x,), g)
    assert _same_bits(mine[0], theirs[0]) and _same_bits(mine[1], theirs[1])
    if x.ndim == 2:   # a transpose: PyTorch's loop runs along its memory order
        mt, tt = minigrad.tensor(x).mT, torch.tensor(x).mT
        assert _same_bits(minigrad.nn.functional.gelu(mt).numpy(), torch.nn.functional.gelu(tt).numpy())


@pytest.mark.parametrize("scale", [0.5, 5.0, 100.0, 1e5])
def test_lgamma_float64_bits(scale) -> None:
    # SLEEF's lgamma_u10 on every element (vml::vlgamma): below 0.5 by reflection (sin πx), small arguments
    # shifted up, two polynomials and the asymptotic series; poles, ±inf and nan as PyTorch
    torch = torch_or_skip()
    gen = np.random.default_rng(int(scale))
    x = gen.standard_normal((40, 37)) * scale
    x[0, :10] = [0.0, -1.0, np.inf, -np.inf, np.nan, -2.5, 1e-310, 1e300, 2.3, 7.0]
    g = gen.standard_normal(x.shape)
    fn = (lambda L, t: t.lgamma())
    mine, theirs = _run(minigrad, fn, (x,), g), _run(torch, fn, (x,), g)
    assert _same_bits(mine[0], theirs[0]) and _same_bits(mine[1], theirs[1])
    assert _same_bits(minigrad.tensor(x).mT.lgamma().numpy(), torch.tensor(x).mT.lgamma().numpy())


@pytest.mark.parametrize("n", [5, 16, 37, 1000])
def test_atan2_float64_bits(n) -> None:
    # SLEEF's atan2_u10 (``_float_math.sleef_atan2_64``) on blocks of 2 x 8 doubles, glibc's atan2 on the rest;
    # signed zeros, infinities, nan and subnormals included
    torch = torch_or_skip()
    gen = np.random.default_rng(n)
    y, x = gen.standard_normal(n) * 3, gen.standard_normal(n)
    if n > 8:
        y[:8] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, 1e-320, 0.0]
        x[:8] = [-0.0, 0.0, np.inf, 1.0, 2.0, -np.inf, 1e-320, -1.0]
    fn = (lambda L, a, b: L.atan2(a, b))
    mine, theirs = _run(minigrad, fn, (y, x), np.ones(n)), _run(torch, fn, (y, x), np.ones(n))
    assert all(_same_bits(m, t) for m, t in zip(mine, theirs))
    grid = gen.standard_normal((30, 37))
    row = gen.standard_normal(37)
    assert _same_bits(minigrad.atan2(minigrad.tensor(grid), minigrad.tensor(row)).numpy(),
                      torch.atan2(torch.tensor(grid), torch.tensor(row)).numpy())


@pytest.mark.parametrize("n", [5, 16, 37, 1000])
def test_pow_float64_bits(n) -> None:
    torch = torch_or_skip()
    gen = np.random.default_rng(n)
    x, y = np.abs(gen.standard_normal(n)) * 3, gen.standard_normal(n) * 2
    if n > 10:   # special cases: zeros, infinities, nan, negative bases with integral exponents
        x[:10] = [0.0, -0.0, np.inf, -np.inf, np.nan, -2.0, -2.0, 1.0, 0.5, -1.0]
        y[:10] = [-1.0, 3.0, -0.5, 3.0, 0.0, 3.0, 0.5, np.nan, np.inf, np.inf]
    fn = (lambda L, a, b: a ** b + 2 ** b + a ** 2.5)
    mine, theirs = _run(minigrad, fn, (x, y), np.ones(n)), _run(torch, fn, (x, y), np.ones(n))
    assert all(_same_bits(m, t) for m, t in zip(mine, theirs))


@pytest.mark.parametrize("n", [5, 37, 1000])
def test_gelu_tanh_float64_forward_bits(n) -> None:
    # x/2·(1 + tanh(β(x + κx³))), x + κx³ fused, SLEEF's tanh on vector blocks and glibc's on the rest
    # (the gradient of the tanh form is not reproduced bit for bit in float64)
    torch = torch_or_skip()
    x = np.random.default_rng(n).standard_normal(n) * 3
    if n > 5:
        x[:5] = [0.0, np.inf, -np.inf, np.nan, 1e-200]
    assert _same_bits(minigrad.nn.functional.gelu(minigrad.tensor(x), approximate="tanh").numpy(),
                      torch.nn.functional.gelu(torch.tensor(x), approximate="tanh").numpy())
