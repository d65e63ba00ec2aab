"""Session 13: float32 lgamma bits (SLEEF's lgammaf_u10), cdist's summation order and powers, and the names
PyTorch gives the functions of torch.special / torch.linalg / torch.fft. Each case is compared live with torch."""
import pickle

import numpy as np
import pytest

import minigrad
from tests.parity import torch_or_skip

torch = torch_or_skip()


def _bits(t):
    a = t.detach().numpy()
    return a.view(np.int32 if a.dtype == np.float32 else np.int64 if a.dtype == np.float64 else np.int16)


def _same_bits(mine, ref):
    m, r = _bits(mine), _bits(ref)
    nan = np.isnan(mine.detach().float().numpy()) & np.isnan(ref.detach().float().numpy())
    assert ((m == r) | nan).all(), np.flatnonzero((m != r) & ~nan)[:10]


def _values(seed, size=3000):
    rng = np.random.default_rng(seed)
    return np.concatenate([rng.uniform(-10, 10, size), rng.uniform(0, 3, size), rng.uniform(0, 50, size),
                           -(10 ** rng.uniform(-38, 38, size // 3)), 10 ** rng.uniform(-38, 38, size // 3),
                           [0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1, 2, -1, -2.5, 0.5, 1.2, 2.3, 7,
                            1e-30, -1e-30, 3.4e38, -8388607.5, 4e36]])


def test_lgamma_print_precision_9():
    torch.set_printoptions(precision=9)
    minigrad.set_printoptions(precision=9)
    try:
        assert repr(minigrad.lgamma(minigrad.tensor([0.5, 1, 2.5]))) == repr(torch.lgamma(torch.tensor([0.5, 1, 2.5])))
    finally:
        torch.set_printoptions(profile="default")
        minigrad.set_printoptions(profile="default")


@pytest.mark.parametrize("seed", [0, 1])
def test_lgamma_float32_bits(seed):
    x = _values(seed).astype(np.float32)
    _same_bits(minigrad.lgamma(minigrad.tensor(x)), torch.lgamma(torch.from_numpy(x)))


def test_lgamma_float32_random_bit_patterns():
    x = np.random.default_rng(5).integers(0, 2 ** 32, 20000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    _same_bits(minigrad.lgamma(minigrad.tensor(x)), torch.lgamma(torch.from_numpy(x)))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_lgamma_half_types_through_float32(dtype):
    x = np.random.default_rng(2).uniform(-20, 20, 3000).astype(np.float32).tolist()
    m = minigrad.lgamma(minigrad.tensor(x, dtype=getattr(minigrad, dtype)))
    t = torch.lgamma(torch.tensor(x, dtype=getattr(torch, dtype)))
    _same_bits(m.view(minigrad.int16), t.view(torch.int16))


@pytest.mark.parametrize("name", ["lgamma", "special.gammaln", "mvlgamma", "lgamma_", "method"])
def test_lgamma_float32_entry_points(name):
    x = np.random.default_rng(3).uniform(-6, 6, (40, 7)).astype(np.float32)
    out = []
    for lib in (minigrad, torch):
        a = lib.tensor(x.tolist())
        if name == "lgamma":
            out.append(lib.lgamma(a.t()))
        elif name == "special.gammaln":
            out.append(lib.special.gammaln(a[:, ::2]))
        elif name == "mvlgamma":
            out.append(lib.mvlgamma(a.abs() + 2, 3))
        elif name == "lgamma_":
            out.append(a.lgamma_())
        else:
            out.append(a.requires_grad_().lgamma().detach())
    _same_bits(out[0].contiguous(), out[1].contiguous())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("p", [0.0, 1.0, 2.0, 3.0, 1.5, 0.5, 0.3, float("inf")])
@pytest.mark.parametrize("m", [2, 3, 4, 5, 7, 8, 9, 16, 17, 33])
def test_cdist_bits(dtype, p, m):
    rng = np.random.default_rng(m)
    a = rng.standard_normal((2, 9, m)).astype(dtype)
    b = rng.standard_normal((1, 11, m)).astype(dtype)
    _same_bits(minigrad.cdist(minigrad.tensor(a), minigrad.tensor(b), p=p),
               torch.cdist(torch.from_numpy(a), torch.from_numpy(b), p=p))


def test_cdist_p2_gradient_bits():
    rng = np.random.default_rng(7)
    a, b = rng.standard_normal((6, 5)).astype(np.float32), rng.standard_normal((4, 5)).astype(np.float32)
    grads = []
    for lib in (minigrad, torch):
        x, y = lib.tensor(a.tolist(), requires_grad=True), lib.tensor(b.tolist(), requires_grad=True)
        d = lib.cdist(x, y)
        d.sum().backward()
        grads.append((d, x.grad, y.grad))
    for mine, ref in zip(*grads):
        _same_bits(mine, ref)


def _public_functions(lib, ns):
    mod = getattr(lib, ns)
    return {n: getattr(mod, n) for n in dir(mod)
            if not n.startswith("_") and callable(getattr(mod, n)) and not isinstance(getattr(mod, n), type)}


@pytest.mark.parametrize("ns", ["special", "linalg", "fft"])
def test_namespace_function_names(ns):
    theirs, ours = _public_functions(torch, ns), _public_functions(minigrad, ns)
    assert sorted(ours) == sorted(theirs)
    for name, fn in theirs.items():
        mine = ours[name]
        assert (mine.__name__, mine.__qualname__) == (fn.__name__, fn.__qualname__), name
        assert mine.__module__.replace("minigrad", "torch", 1) == fn.__module__, name
        assert pickle.loads(pickle.dumps(mine)) is mine
        assert minigrad.typename(mine) == torch.typename(fn)


def test_top_level_names_unchanged():
    for name in ("i0", "lgamma", "det", "sigmoid", "logsumexp", "expm1", "matrix_power", "inverse", "digamma"):
        assert getattr(minigrad, name).__name__ == getattr(torch, name).__name__ == name


def test_renamed_functions_still_work():
    x = [[2.0, 1.0], [1.0, 3.0]]
    assert minigrad.linalg.det(minigrad.tensor(x)).item() == torch.linalg.det(torch.tensor(x)).item()
    assert minigrad.special.i0(minigrad.tensor(x)).tolist() == torch.special.i0(torch.tensor(x)).tolist()
    assert minigrad.fft.fft(minigrad.tensor(x)).tolist() == torch.fft.fft(torch.tensor(x)).tolist()
    with pytest.raises(TypeError) as mine:
        minigrad.special.i0(1.0)
    with pytest.raises(TypeError) as ref:
        torch.special.i0(1.0)
    assert str(mine.value) == str(ref.value)
