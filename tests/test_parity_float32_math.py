"""float32 (and float16/bfloat16) elementwise math bit for bit against PyTorch's CPU kernels.

Each op runs on the same 20,000 values (half uniform over a realistic range, half log-uniform magnitudes
down to 1e-8) in minigrad and in PyTorch; the share of bit-identical results (nan == nan) must reach the
rate measured when the emulation in ``minigrad/_float_math.py`` was written (AVX-512 machine, PyTorch 2.13),
less a small margin. Three layouts, because PyTorch's kernels round differently in each: one contiguous
tensor (vector code on blocks of 32, scalar code on the tail), a strided view (scalar code throughout) and
many 4-element tensors (scalar code). Where the emulation is exact the rate is 1.
"""
from __future__ import annotations

import numpy as np
import pytest

import minigrad
import minigrad.derivatives as D
from tests.parity import torch_or_skip

N = 20_000


def _sample(lo: float, hi: float, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    a = rng.uniform(lo, hi, N // 2)
    m = 10 ** rng.uniform(-8, np.log10(max(abs(lo), abs(hi))), 2 * N)
    if lo < 0:
        m *= rng.choice([-1.0, 1.0], m.size)
    m = m[(m >= lo) & (m <= hi)][: N - N // 2]
    x = np.concatenate([a, m]).astype(np.float32)
    rng.shuffle(x)
    return x


def _unary(name):
    return lambda M, x: getattr(M, name)(x)


def _functional(name, **kw):
    return lambda M, x: getattr(M.nn.functional, name)(x, **kw)


# name: (function of (module, tensor), input range, minimum rates: contiguous, strided, 4-element)
CASES = {
    "exp": (_unary("exp"), (-90, 90), (0.99, 0.99, 0.99)),
    "exp2": (_unary("exp2"), (-130, 130), (0.95, 1.0, 1.0)),
    "expm1": (_unary("expm1"), (-90, 90), (0.985, 0.985, 0.985)),
    "log": (_unary("log"), (0, 3e38), (0.99, 0.99, 0.99)),
    "log2": (_unary("log2"), (0, 3e38), (0.999, 0.999, 0.999)),
    "log10": (_unary("log10"), (0, 3e38), (0.999, 0.999, 0.999)),
    "log1p": (_unary("log1p"), (-1, 3e38), (0.995, 0.995, 0.995)),
    "sqrt": (_unary("sqrt"), (0, 3e38), (0.8, 0.8, 0.8)),        # MKL's sqrt is not correctly rounded
    "rsqrt": (_unary("rsqrt"), (0, 3e38), (1.0, 1.0, 1.0)),
    "reciprocal": (_unary("reciprocal"), (-3e38, 3e38), (1.0, 1.0, 1.0)),
    "sin": (_unary("sin"), (-1e4, 1e4), (0.96, 0.96, 0.96)),
    "cos": (_unary("cos"), (-1e4, 1e4), (0.95, 0.95, 0.95)),
    "tan": (_unary("tan"), (-1e4, 1e4), (0.865, 0.865, 0.865)),
    "asin": (_unary("asin"), (-1, 1), (0.96, 0.96, 0.96)),
    "acos": (_unary("acos"), (-1, 1), (0.94, 0.94, 0.94)),
    "atan": (_unary("atan"), (-1e10, 1e10), (0.99, 0.99, 0.99)),
    "sinh": (_unary("sinh"), (-90, 90), (0.99, 1.0, 1.0)),
    "cosh": (_unary("cosh"), (-90, 90), (0.99, 1.0, 1.0)),
    "tanh": (_unary("tanh"), (-20, 20), (0.999, 0.999, 0.999)),
    "asinh": (_unary("asinh"), (-1e10, 1e10), (1.0, 1.0, 1.0)),
    "acosh": (_unary("acosh"), (1, 1e10), (1.0, 1.0, 1.0)),
    "atanh": (_unary("atanh"), (-1, 1), (0.985, 1.0, 1.0)),
    "sigmoid": (_unary("sigmoid"), (-90, 90), (1.0, 0.999, 1.0)),
    "logit": (_unary("logit"), (0, 1), (0.945, 1.0, 0.94)),
    "erf": (_unary("erf"), (-6, 6), (0.965, 0.965, 0.965)),
    "erfc": (_unary("erfc"), (-6, 12), (0.915, 0.915, 0.915)),
    "lgamma": (_unary("lgamma"), (-50, 1e6), (0.995, 0.995, 0.995)),
    "digamma": (_unary("digamma"), (-50, 1e6), (1.0, 1.0, 1.0)),
    "softplus": (_functional("softplus"), (-90, 90), (0.99, 0.999, 0.998)),
    "gelu_tanh": (_functional("gelu", approximate="tanh"), (-10, 10), (0.99, 0.995, 0.998)),
    "silu": (_functional("silu"), (-90, 90), (1.0, 0.999, 1.0)),
    "mish": (_functional("mish"), (-90, 90), (0.99, 0.999, 0.998)),
    "elu": (_functional("elu"), (-90, 90), (0.99, 1.0, 1.0)),
    "pow2": (lambda M, x: x ** 2, (-1e19, 1e19), (1.0, 1.0, 1.0)),
    "pow3": (lambda M, x: x ** 3, (-1e12, 1e12), (1.0, 1.0, 1.0)),
    "pow-1": (lambda M, x: x ** -1, (-3e38, 3e38), (1.0, 1.0, 1.0)),
    "pow1.5": (lambda M, x: x ** 1.5, (0, 1e25), (0.975, 1.0, 1.0)),
    "atan2": (lambda M, x: M.atan2(x, x.flip(0)), (-1e6, 1e6), (0.985, 1.0, 1.0)),
    "hypot": (lambda M, x: M.hypot(x, x.flip(0)), (-1e18, 1e18), (1.0, 1.0, 1.0)),
}


def _bits_equal(a: np.ndarray, b: np.ndarray) -> float:
    """Share of elements with identical bits (any nan equals any nan)."""
    a, b = np.asarray(a), np.asarray(b)
    ints = {2: np.int16, 4: np.int32, 8: np.int64}[a.dtype.itemsize]
    same = a.view(ints) == b.view(ints)
    return float(np.mean(same | (np.isnan(a.astype(np.float32)) & np.isnan(b.astype(np.float32)))))


def _run(M, fn, x: np.ndarray, dtype: str, strided: bool = False) -> np.ndarray:
    data = np.repeat(x, 2) if strided else x
    t = (M.from_numpy(data) if M is minigrad else M.from_numpy(data.copy())).to(getattr(M, dtype))
    if strided:
        t = t[::2]
    with M.no_grad():
        out = fn(M, t)
    return (out.float() if out.dtype == M.bfloat16 else out).numpy()


@pytest.mark.parametrize("name", list(CASES))
def test_float32_match_rate(name):
    torch = torch_or_skip()
    fn, (lo, hi), (r_big, r_strided, r_small) = CASES[name]
    x = _sample(lo, hi)
    assert _bits_equal(_run(minigrad, fn, x, "float32"), _run(torch, fn, x, "float32")) >= r_big
    assert _bits_equal(_run(minigrad, fn, x, "float32", strided=True),
                       _run(torch, fn, x, "float32", strided=True)) >= r_strided
    k, m = 4, 2000
    ours = np.concatenate([_run(minigrad, fn, x[i:i + k].copy(), "float32") for i in range(0, m, k)])
    theirs = np.concatenate([_run(torch, fn, x[i:i + k].copy(), "float32") for i in range(0, m, k)])
    assert _bits_equal(ours, theirs) >= r_small


# float16 / bfloat16: PyTorch computes in float32 and rounds once (or, for some float16 kernels, after each
# step, as NumPy's float16 arithmetic does); these ops match it exactly on this sample.
HALF_EXACT = ["exp", "log", "log10", "sin", "cos", "tan", "tanh", "sigmoid", "asinh", "atanh", "erf", "erfc",
              "logit", "silu", "mish", "softplus", "pow1.5", "atan2"]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("name", HALF_EXACT)
def test_half_types_match(name, dtype):
    torch = torch_or_skip()
    fn, (lo, hi), _ = CASES[name]
    x = _sample(lo, hi)[:4000]
    assert _bits_equal(_run(minigrad, fn, x, dtype), _run(torch, fn, x, dtype)) >= 0.999


@pytest.mark.parametrize("dtype, rate", [("float16", 0.98), ("bfloat16", 0.96)])   # (bfloat16: oneDNN's gelu)
def test_half_gelu_uses_pytorchs_vector_erf(dtype, rate):
    torch = torch_or_skip()
    x = _sample(-5, 5)[:4000]
    fn = _functional("gelu")
    assert _bits_equal(_run(minigrad, fn, x, dtype), _run(torch, fn, x, dtype)) >= rate


def test_known_values_exactly():
    """Values where NumPy's float32 functions round the other way from PyTorch's."""
    torch = torch_or_skip()
    x = np.float32([1.0, 6.0, -3.5, 0.1, 17.25])
    for name in ("exp", "log10", "sin", "tanh", "sigmoid", "atan", "log1p", "expm1"):
        v = np.abs(x) if name.startswith("log") else x   # (a nan's bits may differ: keep to the domain)
        ours = getattr(minigrad, name)(minigrad.tensor(v)).numpy()
        theirs = getattr(torch, name)(torch.tensor(v)).numpy()
        np.testing.assert_array_equal(ours.view(np.int32), theirs.view(np.int32), err_msg=name)
    # exp(1) and exp(6) print differently from NumPy's float32 exp at full precision
    torch.set_printoptions(precision=8)
    minigrad.set_printoptions(precision=8)
    try:
        assert repr(minigrad.exp(minigrad.tensor([1.0, 6.0]))) == repr(torch.exp(torch.tensor([1.0, 6.0])))
        assert repr(minigrad.exp(minigrad.tensor([1.0, 6.0]))) == "tensor([  2.71828175, 403.42880249])"
    finally:
        torch.set_printoptions(profile="default")
        minigrad.set_printoptions(profile="default")


@pytest.mark.parametrize("name", ["tanh", "sigmoid"])
@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_backward_ops_exactly(name, dtype):
    """tanh_backward is g·fma(-y, y, 1): PyTorch's compiled kernel fuses 1 - y²."""
    torch = torch_or_skip()
    y = np.random.default_rng(1).uniform(-1 if name == "tanh" else 0, 1, 5000).astype(np.float32)
    ty = torch.from_numpy(y).to(getattr(torch, dtype))
    my = minigrad.from_numpy(y).to(getattr(minigrad, dtype))
    theirs = getattr(torch.ops.aten, name + "_backward")(torch.full_like(ty, 0.37), ty).float().numpy()
    ours = getattr(D, name + "_backward")(minigrad.full_like(my, 0.37), my).float().numpy()
    assert _bits_equal(ours, theirs) == 1.0


def test_vector_and_scalar_paths_of_a_contiguous_tensor():
    """sigmoid on 37 elements: 32 through SLEEF's vector exp, the last 5 through the C library's."""
    torch = torch_or_skip()
    x = _sample(-20, 20)[:37 * 200].reshape(200, 37)
    for row in x:
        ours, theirs = minigrad.sigmoid(minigrad.tensor(row)), torch.sigmoid(torch.tensor(row))
        assert _bits_equal(ours.numpy(), theirs.numpy()) == 1
    t = minigrad.tensor(x).t()   # a transpose runs in memory order, as in PyTorch
    assert _bits_equal(t.sigmoid().numpy(), torch.tensor(x).t().sigmoid().numpy()) == 1


def test_float64_without_mkl_is_numpys_exp(monkeypatch):
    """Without MKL (minigrad/_vml.py) float64 keeps NumPy's own functions (no wider type to round from)."""
    from minigrad import _vml
    monkeypatch.setattr(_vml, "_LIB", None)
    x = _sample(-50, 50)[:1000].astype(np.float64)
    forward = _vml.unary("exp", np.exp)
    assert forward is np.exp
    np.testing.assert_array_equal(forward(x), np.exp(x))


@pytest.mark.parametrize("name", ["tanh", "sigmoid", "exp", "sin", "log1p", "softplus", "silu"])
def test_zero_dim_forward_and_backward(name):
    # 0-dim arrays come back from NumPy as scalars: the kernels must not write into them in place.
    torch = torch_or_skip()

    def run(lib):
        x = lib.tensor(0.75, requires_grad=True)
        fn = getattr(lib.nn.functional, name) if name in ("softplus", "silu") else getattr(lib, name)
        y = fn(x)
        y.backward()
        return y.item(), x.grad.item()

    assert run(minigrad) == run(torch)
