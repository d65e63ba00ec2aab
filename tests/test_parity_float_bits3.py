"""SLEEF-backed activations and float64 math bit for bit against PyTorch's CPU kernels (minigrad/_float_math.py).

PyTorch runs these with SLEEF's vector functions: for float32 ``log1pf``, ``expm1f``, ``tanhf`` (mish,
gelu's tanh form), ``exp2f``, ``sinhf``, ``coshf``, ``atanhf``; for double ``exp`` (sigmoid), ``exp2``,
``expm1``, ``log1p``, ``sinh``, ``cosh``, ``atanh``; on whole vectors, and glibc on scalar tails (or on
every element: log1p and expm1 are SLEEF's, asinh and acosh glibc's). logsumexp uses MKL's exp and log
around its own sum; logit MKL's log of x/(1 - x); logcumsumexp a scalar loop in double; logaddexp
SLEEF's (glibc's) exp and log1p. Every op here is
checked for exact equality, forward and gradient, over contiguous lengths 7, 100, 1000, 4099, a 64x100
matrix and its transpose, plus edge values. Pinned values (PyTorch 2.13's bits) run without torch.
"""
from __future__ import annotations

import numpy as np
import pytest

import minigrad
import minigrad.nn.functional as MF
from minigrad import _float_math, _vml
from tests.parity import torch_or_skip


def _inputs(dtype, seed=0):
    """(label, array, transposed) cases: contiguous lengths and a 64x100 matrix, also read transposed."""
    rng = np.random.default_rng(seed)
    cases = [(str(n), (rng.standard_normal(n) * 3).astype(dtype), False) for n in (7, 100, 1000, 4099)]
    matrix = (rng.standard_normal((64, 100)) * 3).astype(dtype)
    return cases + [("64x100", matrix, False), ("transposed", matrix, True)]


def _domain(name, x):
    """Inputs inside the op's domain."""
    if name == "acosh":
        return np.abs(x) + 1
    if name == "atanh":
        return np.tanh(x / 3) * np.asarray(0.999, x.dtype)
    if name in ("log1p", "rsqrt"):
        return np.abs(x)
    if name.startswith("logit"):
        return ((np.tanh(x / 3) + 1) / 2).astype(x.dtype)
    return x


def _same_bits(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))))


def _forward_and_grad(mod, fn, x, transposed, g):
    """fn's output and the gradient of <fn(x), g> with respect to x (a leaf; used transposed if asked)."""
    leaf = mod.tensor(x).requires_grad_(True)
    out = fn(mod, leaf.t() if transposed else leaf)
    out.backward(mod.tensor(g))
    return out.detach().numpy(), leaf.grad.numpy()


def _needs_mkl(name):
    """These take MKL's log / exp (minigrad/_vml.py) in the forward or the gradient: without the library
    NumPy's stand in, and they are not exact."""
    if name.startswith(("logsumexp", "logit", "logcumsumexp", "logaddexp")) and not _vml.available:
        pytest.skip("MKL not available: NumPy's log/exp stand in")


def _check(name, fn, dtype):
    torch = torch_or_skip()
    _needs_mkl(name)
    rng = np.random.default_rng(1)
    for label, x, transposed in _inputs(dtype):
        x = _domain(name, x)
        shape = x.T.shape if transposed else x.shape
        out_shape = tuple(fn(torch, torch.from_numpy(x.T if transposed else x)).shape)
        g = rng.standard_normal(out_shape).astype(dtype)
        ours = _forward_and_grad(minigrad, fn, x, transposed, g)
        theirs = _forward_and_grad(torch, fn, x, transposed, g)
        assert _same_bits(ours[0], theirs[0]), (name, label, "forward", shape)
        assert _same_bits(ours[1], theirs[1]), (name, label, "gradient", shape)


# ---- float32 ------------------------------------------------------------------------------------------------

_FLOAT32 = {
    "log1p": lambda m, x: m.log1p(x),
    "expm1": lambda m, x: m.expm1(x),
    "softplus": lambda m, x: m.nn.functional.softplus(x),
    "softplus_beta": lambda m, x: m.nn.functional.softplus(x, beta=2.0, threshold=5.0),
    "mish": lambda m, x: m.nn.functional.mish(x),
    "logsigmoid": lambda m, x: m.nn.functional.logsigmoid(x),
    "elu": lambda m, x: m.nn.functional.elu(x),
    "selu": lambda m, x: m.nn.functional.selu(x),
    "celu": lambda m, x: m.nn.functional.celu(x, 0.7),
    "logsumexp": lambda m, x: m.logsumexp(x, -1),
    "logsumexp_dim0": lambda m, x: m.logsumexp(x, 0),
    "logcumsumexp": lambda m, x: m.logcumsumexp(x, -1),
    "logcumsumexp_dim0": lambda m, x: m.logcumsumexp(x, 0),
    "sinh": lambda m, x: m.sinh(x),
    "cosh": lambda m, x: m.cosh(x),
    "atanh": lambda m, x: m.atanh(x),
    "exp2": lambda m, x: m.exp2(x),
    "gelu_tanh": lambda m, x: m.nn.functional.gelu(x, approximate="tanh"),
    "logit": lambda m, x: m.logit(x),
    "logit_eps": lambda m, x: m.logit(x, 0.05),
    "logaddexp": lambda m, x: m.logaddexp(x, x * 0.5 - 1),
}


@pytest.mark.parametrize("name", list(_FLOAT32))
def test_float32_forward_and_gradient_exact(name):
    _check(name, _FLOAT32[name], np.float32)


# ---- float64 ------------------------------------------------------------------------------------------------

def _method(name):
    return lambda m, x: getattr(m, name)(x)


_FLOAT64 = {name: _method(name) for name in ("sigmoid", "log1p", "expm1", "sinh", "cosh", "asinh", "acosh",
                                             "atanh", "exp2", "rsqrt", "logit")}
_FLOAT64["logsumexp"] = lambda m, x: m.logsumexp(x, -1)
_FLOAT64.update({name: _FLOAT32[name] for name in ("softplus", "softplus_beta", "mish", "logsigmoid", "elu", "selu",
                                                   "celu")})
_FLOAT64["silu"] = lambda m, x: m.nn.functional.silu(x)
_FLOAT64["logaddexp"] = _FLOAT32["logaddexp"]
_FLOAT64["logcumsumexp"] = lambda m, x: m.logcumsumexp(x, -1)


@pytest.mark.parametrize("name", list(_FLOAT64))
def test_float64_forward_and_gradient_exact(name):
    _check(name, _FLOAT64[name], np.float64)


# ---- edge values and ranges (the SLEEF emulations against PyTorch, every element on the vector path) -------

_SPECIAL = [0.0, -0.0, 1e-30, -1e-30, np.inf, -np.inf, np.nan, -1.0, -1.5, 0.5, -0.5, 1.0, 88.7, 88.8, -104.0,
            -110.0, 9.0, -9.0, 8.6643, 8.7, 1e38, 2.6e38, 3.4e38, -16.6, -16.7]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", ["log1p", "expm1", "sigmoid", "sinh", "cosh", "atanh", "exp2"])
def test_edge_values_and_wide_ranges(name, dtype):
    torch = torch_or_skip()
    rng = np.random.default_rng(2)
    special = np.array(_SPECIAL * 4, dtype)[:96]
    wide = [special, (rng.standard_normal(4096) * 30).astype(dtype), np.linspace(-1, 3, 4096, dtype=dtype),
            np.exp(rng.standard_normal(4096) * 5).astype(dtype)]
    if dtype == np.float64:
        wide += [np.linspace(-750, 720, 4096), np.linspace(1e306, 1.7e308, 4096),
                 np.array([709.7, 709.8, 710.1, -36.7, -36.8, 1023.9, 1024.0, -1074.2, -2000.5, 5e-324] * 4)[:32]]
    for x in wide:
        ours = getattr(minigrad, name)(minigrad.tensor(x)).numpy()
        theirs = getattr(torch, name)(torch.from_numpy(x.copy())).numpy()
        assert _same_bits(ours, theirs), (name, dtype, x[:4])


@pytest.mark.parametrize("name", ["log1p", "expm1", "sigmoid"])
def test_half_types_follow_float32(name):
    torch = torch_or_skip()
    x = np.random.default_rng(3).uniform(0, 0.9, 4099).astype(np.float32)
    for ours_dt, their_dt in ((minigrad.float16, torch.float16), (minigrad.bfloat16, torch.bfloat16)):
        ours = getattr(minigrad, name)(minigrad.tensor(x).to(ours_dt)).float().numpy()
        theirs = getattr(torch, name)(torch.from_numpy(x).to(their_dt)).float().numpy()
        assert _same_bits(ours, theirs), (name, their_dt)


def test_logsumexp_and_logcumsumexp_infinities():
    torch = torch_or_skip()
    _needs_mkl("logsumexp")
    inf, nan = np.inf, np.nan
    for dtype in (np.float32, np.float64):
        x = np.array([[1, inf, 2, -inf, inf], [-inf, -inf, 0, nan, 1], [nan, 1, 2, -inf, -inf],
                      [-inf, inf, -inf, inf, nan], [-inf] * 5], dtype)
        for fn in (lambda m, t: m.logsumexp(t, 1), lambda m, t: m.logcumsumexp(t, 1),
                   lambda m, t: m.logcumsumexp(t, 0), lambda m, t: m.logcumsumexp(t.reshape(-1), 0)):
            assert _same_bits(fn(minigrad, minigrad.tensor(x)).numpy(), fn(torch, torch.from_numpy(x)).numpy())


# ---- pinned values (no torch needed): PyTorch 2.13's bits where the correctly rounded value differs -------

def test_sleef_log1pf_pinned():
    x = np.full(64, float.fromhex("0x1.2336c8p+1"), np.float32)
    assert np.log1p(x.astype(np.float64)).astype(np.float32)[0].view(np.int32) != 0x3F97DA5B
    assert minigrad.log1p(minigrad.tensor(x)).numpy().view(np.int32)[0] == 0x3F97DA5B
    assert MF.logsigmoid(minigrad.tensor(np.zeros(64, np.float32))).numpy()[0] == np.float32(-0.6931472)


@pytest.mark.parametrize("name, x, bits", [
    ("cosh", "0x1.358eb93742ba7p+1", "0x1.6a260eafc039dp+2"),
    ("exp2", "0x1.358eb93742ba7p+1", "0x1.5622541de3490p+2"),
    ("log1p", "0x1.2c4c050452d01p-1", "0x1.d89e4bd4f2263p-2"),
    ("sigmoid", "-0x1.2e483200d2012p+1", "0x1.60deada6c29ccp-4"),
])
def test_sleef_double_pinned(name, x, bits):
    """A value on the vector path (32 copies) where NumPy's float64 function differs from PyTorch's."""
    x = np.full(32, float.fromhex(x))
    numpy_fn = (lambda a: 1 / (1 + np.exp(-a))) if name == "sigmoid" else getattr(np, name)
    numpy_value = numpy_fn(x)[0]
    assert numpy_value != float.fromhex(bits)
    assert getattr(minigrad, name)(minigrad.tensor(x)).numpy()[0] == float.fromhex(bits)


def test_fma64_is_one_rounding():
    """_fma64 against exact rational arithmetic on random and large operands."""
    from fractions import Fraction
    rng = np.random.default_rng(4)
    a, b, c = (rng.standard_normal(300) * 10.0 ** rng.integers(-5, 5, 300) for _ in range(3))
    a[:5] = 1e300
    b[:5] = 3.7e7
    out = _float_math._fma64(a, b, c)
    for i in range(300):
        assert out[i] == float(Fraction(a[i]) * Fraction(b[i]) + Fraction(c[i])), i


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("eps", [None, 0.01])
def test_logit_layouts(dtype, eps):
    """MKL's log on dense tensors (any length, transposed too), the C library's on strided ones."""
    torch = torch_or_skip()
    _needs_mkl("logit")
    x = np.random.default_rng(5).uniform(-0.05, 1.05, (64, 200)).astype(dtype)
    views = [lambda a: a, lambda a: a[:, ::2], lambda a: a.reshape(-1)[::2], lambda a: a.T, lambda a: a.reshape(-1)[:7]]
    for view in views:
        ours = minigrad.logit(view(minigrad.tensor(x)), eps).numpy()
        theirs = torch.logit(view(torch.from_numpy(x)), eps).numpy()
        assert _same_bits(ours, theirs)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", ["softplus", "mish", "elu", "logaddexp", "logsigmoid"])
def test_gradient_of_transposed_with_transposed_cotangent(name, dtype):
    """x and the incoming gradient both transposed (as torch.randn_like of a transposed output gives): the
    backward kernels read both in memory order, on the vector path."""
    torch = torch_or_skip()
    _needs_mkl(name)
    fn = _FLOAT32[name]
    rng = np.random.default_rng(6)
    x, g = ((rng.standard_normal((64, 100)) * 3).astype(dtype) for _ in range(2))
    grads = []
    for mod in (minigrad, torch):
        leaf = mod.tensor(x).requires_grad_(True)
        fn(mod, leaf.t()).backward(mod.tensor(g).t())
        grads.append(leaf.grad.numpy())
    assert _same_bits(*grads)
