"""float16 and bfloat16 results bit for bit as PyTorch's CPU kernels (session 13), values and gradients:

- add/sub with alpha: α in the half type; the vector code computes a + α·b in float32 and rounds once, the
  scalar code (the n % 32 last elements, or all of a strided tensor) rounds the product, then the sum;
- rsqrt: 1/√x in float32 rounded once on vector blocks; √x rounded, then 1/that, on the scalar tail;
- logit with eps: the clamped input stays in bfloat16 (NumPy's clip returned float32), each step rounded;
- linspace (bfloat16): bfloat16 arithmetic, each step rounded, as float16's;
- logsumexp: x - max, exp, the sum (float32, rounded), log and + max, each rounded to the half type;
- interpolate linear/bilinear (bfloat16): float32 arithmetic, the weights rounded to bfloat16 (as half's).
"""
from __future__ import annotations

import numpy as np
import pytest
from parity import torch_or_skip

import minigrad

DTYPES = ["float16", "bfloat16"]


def _bits(t) -> np.ndarray:
    """The 16-bit patterns of a half/bfloat16 tensor of either library (via float32: exact for both)."""
    f = t.detach().float().numpy()
    return np.where(np.isnan(f), np.float32(np.nan), f).view(np.uint32)


def _same(a, b) -> None:
    assert str(a.dtype) == str(b.dtype)
    assert tuple(a.shape) == tuple(b.shape)
    np.testing.assert_array_equal(_bits(a), _bits(b))


def _run(lib, dname, fn, base, grad: bool):
    x = lib.tensor(base).to(getattr(lib, dname))
    if grad:
        x.requires_grad_()
    out = fn(lib, x)
    if not grad:
        return out, None
    g = lib.tensor(np.random.default_rng(1).standard_normal(tuple(out.shape)).astype(np.float32)).to(out.dtype)
    out.backward(g)
    return out, x.grad


CASES = {
    "add_alpha": (lambda L, t: L.add(t, t.flip(0), alpha=0.3), True),
    "add_alpha_int": (lambda L, t: L.add(t, t * 2, alpha=3), True),
    "sub_alpha_number": (lambda L, t: L.sub(t, 1.7, alpha=0.3), True),
    "rsub_alpha": (lambda L, t: L.rsub(t, 1.7, alpha=0.3), True),
    "sub_alpha_strided": (lambda L, t: L.sub(t[::2], t.flip(0)[::2], alpha=0.7), True),
    "add_alpha_broadcast": (lambda L, t: L.add(t.reshape(-1, 1), t[:5], alpha=0.3), True),
    "add_alpha_inplace": (lambda L, t: (t * 1).add_(t.flip(0), alpha=-0.6), True),
    "rsqrt": (lambda L, t: (t.abs() + 0.01).rsqrt(), True),
    "rsqrt_strided": (lambda L, t: (t.abs() + 0.01)[::3].rsqrt(), True),
    "logit_eps": (lambda L, t: t.sigmoid().logit(0.1), True),
    "logit": (lambda L, t: t.sigmoid().logit(), True),
    "logsumexp0": (lambda L, t: t.reshape(-1, 5).logsumexp(0), True),
    "logsumexp1": (lambda L, t: t.reshape(-1, 5).logsumexp(1, keepdim=True), True),
    "logsumexp_all": (lambda L, t: L.logsumexp(t, 0), True),
}


@pytest.mark.parametrize("dname", DTYPES)
@pytest.mark.parametrize("n", [10, 40, 120, 1000])
@pytest.mark.parametrize("name", sorted(CASES))
def test_elementwise_and_reductions_bits(name: str, n: int, dname: str) -> None:
    torch = torch_or_skip()
    fn, grad = CASES[name]
    base = (np.random.default_rng(n).standard_normal(n) * 2).astype(np.float32)
    expected, expected_grad = _run(torch, dname, fn, base, grad)
    actual, actual_grad = _run(minigrad, dname, fn, base, grad)
    _same(actual, expected)
    if grad:
        _same(actual_grad, expected_grad)


@pytest.mark.parametrize("dname", DTYPES)
@pytest.mark.parametrize("steps", [1, 2, 7, 33, 1000])
@pytest.mark.parametrize("ends", [(-1.3, 2.1), (5, -3.7), (100, 300.5), (1e-3, 0.2)])
def test_linspace_bits(ends, steps: int, dname: str) -> None:
    torch = torch_or_skip()
    _same(minigrad.linspace(*ends, steps, dtype=getattr(minigrad, dname)),
          torch.linspace(*ends, steps, dtype=getattr(torch, dname)))


@pytest.mark.parametrize("dname", DTYPES)
@pytest.mark.parametrize("shape, kwargs", [
    ((1, 3, 40), dict(scale_factor=2, mode="linear")),
    ((2, 3, 17), dict(size=40, mode="linear", align_corners=True)),
    ((2, 3, 50), dict(size=13, mode="linear")),
    ((1, 2, 50, 70), dict(size=(80, 90), mode="bilinear")),
])
def test_interpolate_bits(shape, kwargs, dname: str) -> None:
    torch = torch_or_skip()
    base = (np.random.default_rng(3).standard_normal(shape) * 3).astype(np.float32)
    fn = lambda L, t: L.nn.functional.interpolate(t, **kwargs)   # noqa: E731
    expected, expected_grad = _run(torch, dname, fn, base, True)
    actual, actual_grad = _run(minigrad, dname, fn, base, True)
    _same(actual, expected)
    _same(actual_grad, expected_grad)


@pytest.mark.parametrize("dname", DTYPES)
@pytest.mark.parametrize("shape", [(3, 40), (16, 5), (7, 64), (100, 8), (4, 3, 10), (2, 3, 50), (2, 70, 4)])
@pytest.mark.parametrize("affine", [False, True])
def test_batch_norm_training_bits(affine: bool, shape, dname: str) -> None:
    """Training batch norm with half/bfloat16 parameters (none, or weight and bias in the input's dtype): the
    output x·α + β (fused, float32) from the statistics rounded to the half type (bfloat16: the variance too
    rounded, sum of squares / n in bfloat16); value, saved statistics' effect and input gradient."""
    torch = torch_or_skip()
    gen = np.random.default_rng(len(shape) * 100 + shape[1])
    base = (gen.standard_normal(shape) * 2 + 1).astype(np.float32)
    w, b = gen.standard_normal(shape[1]).astype(np.float32), gen.standard_normal(shape[1]).astype(np.float32)

    def fn(L, t):
        dt = getattr(L, dname)
        params = (L.tensor(w).to(dt), L.tensor(b).to(dt)) if affine else (None, None)
        return L.nn.functional.batch_norm(t, None, None, *params, training=True)

    expected, expected_grad = _run(torch, dname, fn, base, True)
    actual, actual_grad = _run(minigrad, dname, fn, base, True)
    _same(actual, expected)
    _same(actual_grad, expected_grad)
