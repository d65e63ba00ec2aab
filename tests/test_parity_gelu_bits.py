"""Bit-for-bit parity with PyTorch's CPU ``F.gelu`` (erf form) and its gradient, float32 first.

PyTorch runs two different kernels (``minigrad/_onednn_gelu.py``):
- a contiguous float32 (or bfloat16) tensor of 2+ elements goes to oneDNN's JIT eltwise kernel
  (a piecewise minimax erf forward; Abramowitz-Stegun erf and oneDNN's own exp backward), whatever the
  layout of the incoming gradient;
- any other layout, and 0-d / 1-element tensors, run ATen's GeluKernel: PyTorch's vector erf and SLEEF's
  exp on blocks of 32 floats, glibc's erff/expf on the rest (or on every element of a strided tensor).
The tanh form always runs ATen's kernel: SLEEF's tanhf (``_float_math.sleef_tanhf``) on the vector blocks,
glibc's tanhf on the rest, with the fused multiply-adds the compiler makes (x + κx³, 1 - t², 1 + 3κx²).
Every comparison is of the float32 bits (nan's sign and payload included).
"""
from __future__ import annotations

import numpy as np
import pytest

import minigrad
from tests.parity import torch_or_skip

F32 = np.float32
SHAPES = [(), (1,), (2,), (15,), (16,), (17,), (31,), (33,), (37,), (64,), (129,), (1000,), (64, 100), (3, 5, 7),
          (7, 37)]
SCALES = [1e-20, 0.01, 1.0, 3.0, 8.0, 30.0, 1e6]
# ±0, ±inf, nans with payloads and both signs, subnormals, huge values, values around oneDNN's cut-off
# (erf rounds to 1 beyond 0x40b15cee ≈ 5.54) and around exp's underflow
SPECIAL = np.concatenate([
    np.array([0.0, -0.0, np.inf, -np.inf, 1e-40, -1e-40, 1e-45, 3e38, -3e38, 5.5, -5.5, 5.54, -5.54, 5.6, 6.0,
              13.0, -13.0, 13.3, 14.0, -14.0, 20.0, -20.0, 1e-8, -1e-8], F32),
    np.array([0x7fc00000, 0xffc00000, 0x7fc00001, 0x7f800001, 0xff812345], np.uint32).view(F32),
    np.array([0x40b15cee, 0x40b15cef, 0x40b15ced, 0xc0b15cee, 0x00800000, 0x80800000], np.uint32).view(F32),
])


@pytest.fixture(autouse=True)
def _one_thread():
    """PyTorch on one thread (bigger tensors split across threads, each part with its own scalar tail),
    restored afterwards: later tests compare thread-dependent kernels with minigrad's thread count."""
    try:
        import torch
    except ImportError:
        yield
        return
    saved = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(saved)


def _torch():
    return torch_or_skip()


def _assert_bits(actual, expected, what="") -> None:
    actual, expected = np.ascontiguousarray(actual, F32), np.ascontiguousarray(expected, F32)
    assert actual.shape == expected.shape, what
    differ = actual.view(np.uint32) != expected.view(np.uint32)
    assert not differ.any(), f"{what}: {differ.sum()} of {differ.size} differ, e.g. " \
                             f"{actual[differ][:3]} vs {expected[differ][:3]}"


def _values(rng, shape, scale) -> np.ndarray:
    return (rng.standard_normal(shape) * scale).astype(F32)


def _compare(torch, base: np.ndarray, view, g: np.ndarray | None, what: str, dtype="float32",
             approximate="none") -> None:
    """gelu and its gradient of ``view(base)`` in both, bit for bit (g None: the gradient of y.sum())."""
    xt = view(torch.tensor(base).to(getattr(torch, dtype))).detach().requires_grad_()
    xm = view(minigrad.tensor(base).to(getattr(minigrad, dtype))).detach().requires_grad_()
    yt = torch.nn.functional.gelu(xt, approximate=approximate)
    ym = minigrad.nn.functional.gelu(xm, approximate=approximate)
    _assert_bits(ym.detach().float().numpy(), yt.detach().float().numpy(), what + " forward")
    if g is None:
        yt.sum().backward()
        ym.sum().backward()
    else:
        yt.backward(torch.tensor(g).to(yt.dtype))
        ym.backward(minigrad.tensor(g).to(ym.dtype))
    _assert_bits(xm.grad.float().numpy(), xt.grad.float().numpy(), what + " backward")


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("scale", SCALES)
def test_contiguous(shape, scale):
    torch = _torch()
    rng = np.random.default_rng(hash((shape, scale)) % 2 ** 32)
    x = _values(rng, shape, scale)
    _compare(torch, x, lambda t: t, _values(rng, shape, 1.0), f"{shape} x{scale}")
    _compare(torch, x, lambda t: t, None, f"{shape} x{scale} (sum)")


@pytest.mark.parametrize("shape", [(64, 100), (37, 3), (3, 37), (100, 40), (1, 50), (2, 2)], ids=str)
@pytest.mark.parametrize("scale", [0.01, 1.0, 8.0])
def test_transposed(shape, scale):
    """A transposed input runs ATen's kernel in memory order (vector blocks, then a scalar tail)."""
    torch = _torch()
    rng = np.random.default_rng(hash((shape, scale, "t")) % 2 ** 32)
    x = _values(rng, shape, scale)
    out_shape = shape[::-1]
    _compare(torch, x, lambda t: t.t(), _values(rng, out_shape, 1.0), f"{shape}.t() x{scale} g contiguous")
    _compare(torch, x, lambda t: t.t(), _values(rng, shape, 1.0).T, f"{shape}.t() x{scale} g transposed")
    _compare(torch, x, lambda t: t.t(), None, f"{shape}.t() x{scale} (sum)")


@pytest.mark.parametrize("view_name", ["step2", "columns", "expanded"])
def test_strided(view_name):
    """Strided inputs: ATen's scalar code (glibc's erff and expf) on every element, or by lines."""
    torch = _torch()
    rng = np.random.default_rng(7)
    base = {"step2": (200,), "columns": (64, 100), "expanded": (1, 70)}[view_name]
    view = {"step2": lambda t: t[::2], "columns": lambda t: t[:, :50],
            "expanded": lambda t: t.expand(5, 70)}[view_name]
    for scale in (0.01, 1.0, 8.0):
        x = _values(rng, base, scale)
        out_shape = tuple(view(np.empty(base)).shape) if view_name != "expanded" else (5, 70)
        _compare(torch, x, view, _values(rng, out_shape, 1.0), f"{view_name} x{scale}")


def test_contiguous_input_with_strided_gradient():
    """oneDNN takes the gradient whenever the input is contiguous: g transposed or broadcast."""
    torch = _torch()
    rng = np.random.default_rng(3)
    x = _values(rng, (64, 100), 2.0)
    _compare(torch, x, lambda t: t, _values(rng, (100, 64), 1.0).T, "g transposed")
    _compare(torch, x, lambda t: t, np.broadcast_to(_values(rng, (1, 100), 1.0), (64, 100)), "g broadcast")


@pytest.mark.parametrize("layout", ["contiguous", "scalar each"])
def test_special_values(layout):
    """±0, ±inf (oneDNN returns nan for both), nans (sign and payload kept), subnormals, huge values,
    with finite, nan and inf incoming gradients."""
    torch = _torch()
    x = np.concatenate([SPECIAL] * 3)   # (several vector blocks and a tail on ATen's side)
    view = (lambda t: t) if layout == "contiguous" else (lambda t: t[::1].unsqueeze(1).expand(-1, 2)[:, 0])
    rng = np.random.default_rng(11)
    for g in (_values(rng, x.shape, 1.0), np.full(x.shape, np.nan, F32), np.full(x.shape, -np.inf, F32),
              np.zeros(x.shape, F32)):
        _compare(torch, x, view, g, f"{layout} g={g[0]}")


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("shape", [(2,), (50,), (64,), (100,), (1000,), (64, 100)], ids=str)
def test_half_types(dtype, shape):
    """bfloat16 goes to oneDNN like float32; float16 runs ATen's kernel (blocks of 64: 2 x 32 halves)."""
    torch = _torch()
    rng = np.random.default_rng(hash((dtype, shape)) % 2 ** 32)
    x = _values(rng, shape, 3.0)
    _compare(torch, x, lambda t: t, _values(rng, shape, 1.0), f"{dtype} {shape}", dtype)
    if len(shape) == 2:
        _compare(torch, x, lambda t: t.t(), _values(rng, shape[::-1], 1.0), f"{dtype} {shape}.t()", dtype)


def test_known_values():
    """A few values checked without torch: gelu(0) = 0, gelu(±inf) = nan (oneDNN's polynomial meets 0·inf),
    gelu(x) = x beyond erf's cut-off, and the gradient at 0 is 1/2."""
    x = minigrad.tensor(np.array([0.0, np.inf, -np.inf, 10.0, -10.0], F32), requires_grad=True)
    y = minigrad.nn.functional.gelu(x)
    values = y.detach().numpy()
    assert values[0] == 0 and np.isnan(values[1]) and np.isnan(values[2])
    assert values[3] == 10.0 and values[4] == 0.0
    y.backward(minigrad.ones(5))
    assert x.grad.numpy()[0] == 0.5


@pytest.mark.parametrize("shape", [(), (1,), (17,), (31,), (33,), (37,), (129,), (1000,), (64, 100), (7, 37)],
                         ids=str)
@pytest.mark.parametrize("scale", [0.01, 1.0, 3.0, 8.0, 30.0])
def test_tanh_form(shape, scale):
    torch = _torch()
    rng = np.random.default_rng(hash((shape, scale, "tanh")) % 2 ** 32)
    x = _values(rng, shape, scale)
    _compare(torch, x, lambda t: t, _values(rng, shape, 1.0), f"tanh {shape} x{scale}", approximate="tanh")
    if len(shape) == 2:
        _compare(torch, x, lambda t: t.t(), _values(rng, shape[::-1], 1.0), f"tanh {shape}.t() x{scale}",
                 approximate="tanh")
        _compare(torch, x, lambda t: t[:, ::2], None, f"tanh {shape}[:, ::2] x{scale}", approximate="tanh")


def test_tanh_form_special_values():
    torch = _torch()
    x = np.concatenate([SPECIAL, np.array([8.66, 8.67, -8.67, 9.0, 1e-3, -1e-3], F32)] * 3)
    rng = np.random.default_rng(5)
    for g in (_values(rng, x.shape, 1.0), np.full(x.shape, np.nan, F32)):
        _compare(torch, x, lambda t: t, g, f"tanh g={g[0]}", approximate="tanh")
