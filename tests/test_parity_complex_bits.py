"""Complex mul/div bit for bit as PyTorch's CPU kernels (minigrad/_complex_bits.py).

NumPy's complex loops round differently; each case below also checks that NumPy's own result differs
from PyTorch's somewhere, so these tests fail with NumPy's plain multiply/divide.
"""
import numpy as np
import pytest
from parity import requires_torch, torch_or_skip

import minigrad

DTYPES = ("complex64", "complex128")


def _z(rng, shape, dtype, special=False):
    parts = rng.standard_normal((2,) + shape)
    if special:   # inf, nan, huge, tiny, signed zeros mixed in
        values = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 3e38, -1e300, 1e-38, 1e-310, 1e-45])
        pick = rng.random((2,) + shape) < 0.4
        parts = np.where(pick, rng.choice(values, (2,) + shape), parts)
    with np.errstate(all="ignore"):
        z = np.empty(shape, dtype)
        z.real, z.imag = parts[0], parts[1]
    return z


def _same(expected, got) -> bool:
    """Equal bits, except a nan's sign and payload (never printed)."""
    e, g = np.ascontiguousarray(expected), np.ascontiguousarray(got)
    if e.dtype != g.dtype or e.shape != g.shape:
        return False
    nan = np.isnan(e.real) & np.isnan(g.real) | np.isnan(e.imag) & np.isnan(g.imag)
    e, g = np.where(nan, 0, e), np.where(nan, 0, g)
    return e.tobytes() == g.tobytes()


# (a's shape, b's shape, how to take them): tails of odd lengths, broadcasting, 0-d, non-contiguous
CASES = [((n,), (n,), "") for n in (1, 2, 3, 5, 7, 8, 9, 13, 15, 16, 17, 23, 31, 33, 100, 1003)] + [
    ((37,), (), ""), ((), (37,), ""), ((), (), ""), ((3, 21), (21,), ""), ((3, 1), (29,), ""),
    ((4, 13), (4, 1), ""), ((74,), (37,), "a[::2]"), ((74,), (74,), "both[::2]"), ((9, 5), (9, 5), "T"),
    ((6, 22), (11,), "a[:, ::2]"), ((2, 3, 19), (3, 19), ""),
]


def _take(x, how, which):
    if how == "T":
        return x.T
    if how == "both[::2]" or (how == "a[::2]" and which == "a"):
        return x[::2]
    if how == "a[:, ::2]" and which == "a":
        return x[:, ::2]
    return x


def _run(lib, a, b, how, op):
    ta, tb = _take(lib.tensor(a), how, "a"), _take(lib.tensor(b), how, "b")
    return (ta * tb if op == "mul" else ta / tb).numpy()


@requires_torch
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", ["mul", "div"])
@pytest.mark.parametrize("special", [False, True])
def test_tensor_tensor(dtype, op, special):
    torch = torch_or_skip()
    rng = np.random.default_rng(2 + special)
    numpy_differs = False
    for sa, sb, how in CASES:
        for _ in range(3):
            a, b = _z(rng, sa, dtype, special), _z(rng, sb, dtype, special)
            expected = _run(torch, a, b, how, op)
            assert _same(expected, _run(minigrad, a, b, how, op)), (sa, sb, how)
            with np.errstate(all="ignore"):
                na, nb = _take(a, how, "a"), _take(b, how, "b")
                numpy_differs |= not _same(expected, na * nb if op == "mul" else na / nb)
    assert numpy_differs   # (the cases do tell PyTorch's rounding from NumPy's)


@requires_torch
@pytest.mark.parametrize("dtype", DTYPES)
def test_tensor_number_and_inplace(dtype):
    torch = torch_or_skip()
    rng = np.random.default_rng(5)
    numbers = (1.5 - 0.25j, 0.3 + 1j, -2.0, 1e-3j, complex("inf+1j"))
    for n in (1, 3, 7, 12, 17, 29, 100):
        a, b = _z(rng, (n,), dtype), _z(rng, (n,), dtype)
        out = {}
        for lib in (torch, minigrad):
            ta, tb = lib.tensor(a), lib.tensor(b)
            res = [ta * c for c in numbers] + [ta / c for c in numbers] + [c * ta for c in numbers]
            res += [c / ta for c in numbers] + [ta.reciprocal(), ta * 1.5, ta / 3.0]
            for name, arg in (("mul_", tb), ("div_", tb), ("mul_", 2 - 1j), ("div_", 0.5 + 3j),
                              ("__imul__", tb[0]), ("__itruediv__", tb)):
                c = ta.clone()
                getattr(c, name)(arg)
                res.append(c)
            real = lib.tensor(a.real.copy())
            res += [real * (2 - 1j), real / (1 + 1j)]
            out[lib] = [r.numpy() for r in res]
        for i, (e, g) in enumerate(zip(out[torch], out[minigrad])):
            assert _same(e, g), (n, i)


@requires_torch
@pytest.mark.parametrize("dtype", DTYPES)
def test_gradients_print_pytorchs_bits(dtype):
    torch = torch_or_skip()
    rng = np.random.default_rng(9)
    for n in (5, 19, 37):
        a, b = _z(rng, (n,), dtype), _z(rng, (n,), dtype)
        printed = {}
        for lib in (torch, minigrad):
            z = lib.tensor(a, requires_grad=True)
            w = lib.tensor(b, requires_grad=True)
            lines = []
            (z * z.conj()).real.sum().backward()
            lines.append(z.grad.tolist())
            z.grad = None
            (z / w).abs().sum().backward()
            lines += [z.grad.tolist(), w.grad.tolist()]
            z.grad = w.grad = None
            (z * (1.5 - 0.25j) / w * z).sum().real.backward()
            lines += [z.grad.tolist(), w.grad.tolist()]
            z.grad = w.grad = None
            (z[::2] * w[::2] / (2 + 1j)).abs().pow(2).sum().backward()
            lines += [z.grad.tolist(), w.grad.tolist()]
            printed[lib] = repr(lines)
        assert printed[minigrad] == printed[torch]


def test_float_path_untouched():
    """Real float products stay NumPy's ufunc (no complex detour)."""
    a, b = np.array([1.5, -2.25, 3.0], np.float32), np.array([0.1, 0.2, 0.3], np.float32)
    x, y = minigrad.tensor(a), minigrad.tensor(b)
    assert (x * y).tolist() == (a * b).tolist()
    assert (x / y).tolist() == (a / b).tolist()


@requires_torch
@pytest.mark.parametrize("dtype", DTYPES)
def test_big_loops_split_between_threads(dtype, threads):
    """Above 32768 elements each thread's piece of the loop has its own tail."""
    torch = torch_or_skip()
    rng = np.random.default_rng(13)
    for n in (65541, 100003):
        a, b = _z(rng, (n,), dtype), _z(rng, (n,), dtype)
        for op in ("mul", "div"):
            assert _same(_run(torch, a, b, "", op), _run(minigrad, a, b, "", op)), (n, op)


@requires_torch
def test_empty():
    torch = torch_or_skip()
    a, b = np.zeros((0, 3), np.complex64), np.ones((3,), np.complex64)
    for op in ("mul", "div"):
        assert _run(minigrad, a, b, "", op).shape == _run(torch, a, b, "", op).shape == (0, 3)
