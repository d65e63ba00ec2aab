"""torch.fft: values worked out by hand, then parity with PyTorch (values, dtypes, graphs, saved attributes,
gradients, double backward, errors).

Values are compared with allclose here, so these tests also hold on the NumPy fallback (pocketfft, without
MKL), whose last bits differ from PyTorch's; the printing programs use inputs whose transforms are exact.
With MKL the values are PyTorch's bit for bit: tests/test_parity_fft_bits.py.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from parity import assert_close, requires_torch, same_as_torch, torch_or_skip

import minigrad
from minigrad import fft as F


def _c(values) -> np.ndarray:
    return np.asarray(values, dtype=np.complex128)


# ---- values worked out by hand -------------------------------------------------------------------------

def test_fft_of_1_2_3_4():
    """X[k] = Σ x_j e^(-2πi jk/4): 10, -2+2i, -2, -2-2i; ifft brings back x (complex), rfft keeps bins 0..2."""
    x = minigrad.tensor([1.0, 2.0, 3.0, 4.0])
    X = F.fft(x)
    assert X.dtype is minigrad.complex64
    np.testing.assert_allclose(X.numpy(), _c([10, -2 + 2j, -2, -2 - 2j]), atol=1e-6)
    np.testing.assert_allclose(F.ifft(X).numpy(), _c([1, 2, 3, 4]), atol=1e-6)
    np.testing.assert_allclose(F.rfft(x).numpy(), _c([10, -2 + 2j, -2]), atol=1e-6)
    np.testing.assert_allclose(F.irfft(F.rfft(x)).numpy(), [1, 2, 3, 4], atol=1e-6)
    # ifft of a real signal: X[k]/n with e^(+2πi jk/n), i.e. the conjugate of fft(x)/4 (a lazy conjugate view,
    # as PyTorch's: numpy() needs resolve_conj())
    np.testing.assert_allclose(F.ifft(x).resolve_conj().numpy(), _c([2.5, -0.5 - 0.5j, -0.5, -0.5 + 0.5j]), atol=1e-6)


def test_norms_scale_by_n_or_sqrt_n():
    x = minigrad.tensor([1.0, 2.0, 3.0, 4.0], dtype=minigrad.float64)
    np.testing.assert_allclose(F.fft(x, norm="forward").numpy(), _c([2.5, -0.5 + 0.5j, -0.5, -0.5 - 0.5j]))
    np.testing.assert_allclose(F.fft(x, norm="ortho").numpy(), _c([5, -1 + 1j, -1, -1 - 1j]))
    np.testing.assert_allclose(F.ifft(x, norm="forward").resolve_conj().numpy(), _c([10, -2 - 2j, -2, -2 + 2j]))
    # ortho is unitary: Parseval's Σ|X|² = Σ|x|² = 30
    assert math.isclose(float((F.fft(x, norm="ortho").abs() ** 2).sum()), 30.0)


def test_two_dim_hermitian_and_padding():
    x = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=minigrad.float64)
    # [[Σ, x00 - x01 + x10 - x11], [x00 + x01 - x10 - x11, x00 - x01 - x10 + x11]]
    np.testing.assert_allclose(F.fft2(x).numpy(), _c([[10, -2], [-4, 0]]))
    np.testing.assert_allclose(F.rfft2(x).numpy(), _c([[10, -2], [-4, 0]]))
    # n > size pads with zeros, n < size keeps the first n
    np.testing.assert_allclose(F.fft(minigrad.tensor([1.0, 1.0]), n=4).numpy(), _c([2, 1 - 1j, 0, 1 + 1j]), atol=1e-6)
    np.testing.assert_allclose(F.fft(minigrad.tensor([1.0, 2.0, 3.0]), n=1).numpy(), _c([1]))
    # hfft of a Hermitian half spectrum [a, b] (n = 2): the real signal [a + b, a - b] (no 1/n on the forward)
    np.testing.assert_allclose(F.hfft(minigrad.tensor([3.0 + 0j, 1.0 + 0j])).numpy(), [4.0, 2.0])
    np.testing.assert_allclose(F.ihfft(minigrad.tensor([4.0, 2.0])).resolve_conj().numpy(), _c([3, 1]), atol=1e-6)


def test_frequencies_and_shifts():
    np.testing.assert_allclose(F.fftfreq(5).numpy(), [0, 0.2, 0.4, -0.4, -0.2], rtol=1e-6)
    np.testing.assert_allclose(F.fftfreq(4, d=0.5).numpy(), [0, 0.5, -1, -0.5])
    np.testing.assert_allclose(F.rfftfreq(5, d=2.0).numpy(), [0, 0.1, 0.2], rtol=1e-6)
    assert F.fftfreq(3, dtype=minigrad.float64).dtype is minigrad.float64
    assert F.rfftfreq(4, requires_grad=True).requires_grad
    assert F.fftshift(minigrad.arange(5)).tolist() == [3, 4, 0, 1, 2]
    assert F.ifftshift(minigrad.arange(5)).tolist() == [2, 3, 4, 0, 1]
    assert F.ifftshift(F.fftshift(minigrad.arange(6))).tolist() == list(range(6))
    assert F.fftshift(minigrad.arange(6).reshape(2, 3), dim=1).tolist() == [[2, 0, 1], [5, 3, 4]]


def test_gradients_worked_out_by_hand():
    """d Σ_k Re X[k] / dx_j = Σ_k cos(2π jk/n): n·[j == 0] for fft, [3, 0, 1, 0] for rfft's bins 0..2 (n = 4)."""
    x = minigrad.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    F.fft(x).real.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [4, 0, 0, 0], atol=1e-6)
    x.grad = None
    F.rfft(x).real.sum().backward()     # the one-sided half zero-padded back, then the inverse transform
    np.testing.assert_allclose(x.grad.numpy(), [3, 0, 1, 0], atol=1e-6)
    # irfft(z)[0] = (Re z0 + 2 Re z1 + Re z2) / 4 for n = 4: bin 1 stands for itself and its mirror image
    z = minigrad.tensor([1.0 + 1j, 2.0 - 1j, 0.5 + 0j], requires_grad=True)
    F.irfft(z)[0].backward()
    np.testing.assert_allclose(z.grad.numpy(), _c([0.25, 0.5, 0.25]), atol=1e-7)


def test_dtypes():
    ints = minigrad.tensor([1, 2, 3, 4])
    assert F.fft(ints).dtype is minigrad.complex64
    assert F.fft(ints.double()).dtype is minigrad.complex128
    assert F.irfft(F.rfft(ints.double())).dtype is minigrad.float64
    assert F.fftn(minigrad.tensor([True, False])).dtype is minigrad.complex64
    with pytest.raises(RuntimeError, match="Unsupported dtype Half"):
        F.fft(ints.half())


# ---- parity with PyTorch -------------------------------------------------------------------------------

ONE_DIM = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
N_DIM = ("fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2", "fftn", "ifftn", "rfftn", "irfftn", "hfftn",
         "ihfftn")
REAL_ONLY = ("rfft", "ihfft", "rfft2", "ihfft2", "rfftn", "ihfftn")

# (function, kwargs) pairs covering n / s / dim / norm
VARIANTS = (
    [(f, {}) for f in ONE_DIM + N_DIM]
    + [(f, {"norm": norm}) for f in ONE_DIM + N_DIM for norm in ("forward", "ortho", "backward")]
    + [(f, {"n": n, "dim": 0}) for f in ONE_DIM for n in (1, 2, 5, 7)]
    + [(f, {"s": (2, 5)}) for f in N_DIM]
    + [(f, {"s": (5, -1), "dim": (2, 0)}) for f in N_DIM]
    + [(f, {"dim": (-1,)}) for f in N_DIM if not f.endswith("2")]
)


def _input(kind: str, dtype: str, shape=(3, 4, 6), seed=0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if kind == "complex":
        a = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
        return a.astype(np.complex64 if dtype == "float32" else np.complex128)
    return rng.standard_normal(shape).astype(dtype)


def _cases():
    for name, kwargs in VARIANTS:
        for kind in ("real", "complex"):
            if kind == "complex" and name in REAL_ONLY:
                continue
            yield pytest.param(name, kwargs, kind, id=f"{name}-{kind}-{kwargs}")


def _graph(t) -> list:
    """(name, sorted saved values that are not tensors, tensor shapes) for every node behind t, depth first."""
    out, stack, seen = [], [t.grad_fn], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        saved = []
        for a in sorted(a for a in dir(node) if a.startswith("_saved_")):
            v = getattr(node, a)
            saved.append((a, tuple(v.shape) if hasattr(v, "shape") else v))
        out.append((type(node).__name__, saved))
        stack.extend(n for n, _ in reversed(node.next_functions))
    return out


@requires_torch
@pytest.mark.parametrize("name, kwargs, kind", list(_cases()))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_values_graph_and_gradients_match_torch(name, kwargs, kind, dtype):
    torch = torch_or_skip()
    a = _input(kind, dtype)
    results = []
    for T in (minigrad, torch):
        x = T.from_numpy(a.copy()).requires_grad_(True)
        y = getattr(T.fft, name)(x, **kwargs)
        v = _input("complex" if y.is_complex() else "real", dtype, tuple(y.shape), seed=1)
        graph = _graph(y)
        (g,) = T.autograd.grad(y, x, T.from_numpy(v))
        results.append((y, g, graph))
    (y, g, graph), (ty, tg, tgraph) = results
    assert str(y.dtype) == str(ty.dtype) and tuple(y.shape) == tuple(ty.shape)
    assert str(g.dtype) == str(tg.dtype)
    tol = dict(rtol=2e-5, atol=2e-5) if dtype == "float32" else dict(rtol=1e-12, atol=1e-12)
    assert_close(y, ty.resolve_conj(), **tol)
    assert_close(g, tg.resolve_conj(), **tol)
    assert graph == tgraph


@requires_torch
@pytest.mark.parametrize("name, kwargs, kind", [p for p in _cases() if not p.values[1]])
def test_double_backward_matches_torch(name, kwargs, kind):
    """Through |transform|² the backward formulas themselves are differentiated (CopySlices, FftC2C, .real)."""
    torch = torch_or_skip()
    a = _input(kind, "float64", (2, 3, 5))
    u = _input(kind, "float64", (2, 3, 5), seed=2)
    out = []
    for T in (minigrad, torch):
        x = T.from_numpy(a.copy()).requires_grad_(True)
        y = getattr(T.fft, name)(x, **kwargs)
        (g,) = T.autograd.grad((y.abs() ** 2 * y.abs()).sum(), x, create_graph=True)
        pair = (g.real * T.from_numpy(u.real.copy())).sum()
        if g.is_complex():
            pair = pair + (g.imag * T.from_numpy(u.imag.copy())).sum()
        graph = _graph(g)
        (gg,) = T.autograd.grad(pair, x)
        out.append((g, gg, graph))
    (g, gg, graph), (tg, tgg, tgraph) = out
    assert_close(g, tg.resolve_conj(), rtol=1e-10, atol=1e-10)
    assert_close(gg, tgg.resolve_conj(), rtol=1e-10, atol=1e-10)
    # (hfft of real input: PyTorch's gradient reaching the cast to complex is a lazy conjugate, whose .real records
    # one more ConjBackward0 — at::real takes _conj() first; minigrad's real() of a conj view does the same)
    assert graph == tgraph


@pytest.mark.parametrize("name", ["fft", "rfft", "irfft", "hfft", "ihfft", "fft2", "rfftn", "irfft2", "hfftn",
                                  "ihfft2", "fftshift"])
def test_gradcheck_and_gradgradcheck(name):
    """float64 central differences (minigrad alone): first and second derivatives, complex inputs included."""
    kinds = ("real",) if name in REAL_ONLY else ("real", "complex")
    for kind in kinds:
        x = minigrad.from_numpy(_input(kind, "float64", (3, 4))).requires_grad_(True)

        def f(t):
            y = getattr(F, name)(t)
            return y * y if name != "fftshift" else y

        assert minigrad.autograd.gradcheck(f, (x,), eps=1e-6, atol=1e-6)
        assert minigrad.autograd.gradgradcheck(f, (x,), eps=1e-6, atol=1e-6)


@requires_torch
def test_forward_mode_matches_torch():
    torch = torch_or_skip()
    a, t = _input("real", "float64", (4, 5)), _input("real", "float64", (4, 5), seed=3)
    out = []
    for T in (minigrad, torch):
        fwAD = T.autograd.forward_ad
        with fwAD.dual_level():
            x = fwAD.make_dual(T.from_numpy(a.copy()), T.from_numpy(t.copy()))
            y = T.fft.irfft(T.fft.fft2(x)[..., :3], n=5)
            out.append(fwAD.unpack_dual(y).tangent)
    assert_close(out[0], out[1], rtol=1e-12, atol=1e-12)


# ---- printed output: graphs, saved attributes, exact values, frequencies ---------------------------------

@requires_torch
def test_graphs_and_saved_attributes_print_as_torch():
    same_as_torch("""
def chain(y):
    fn, names = y.grad_fn, []
    while fn is not None:
        saved = {a: getattr(fn, a) for a in dir(fn) if a.startswith('_saved_')}
        names.append((type(fn).__name__, {k: tuple(v.shape) if isinstance(v, torch.Tensor) else v
                                          for k, v in saved.items()}))
        fn = fn.next_functions[0][0] if fn.next_functions else None
    print(y.dtype, tuple(y.shape), names)
x = torch.tensor([[1., 2., 3., 4.], [0., 1., 0., -1.]], requires_grad=True)
z = torch.tensor([[1+1j, 2., 3-1j], [0., 1j, 2.]], requires_grad=True)
for norm in (None, 'backward', 'forward', 'ortho'):
    for f in (torch.fft.fft, torch.fft.ifft, torch.fft.rfft, torch.fft.ihfft, torch.fft.fft2, torch.fft.rfft2,
              torch.fft.ihfft2, torch.fft.ifftn):
        chain(f(x, norm=norm))
    for f in (torch.fft.fft, torch.fft.ifft, torch.fft.irfft, torch.fft.hfft, torch.fft.irfft2, torch.fft.hfft2,
              torch.fft.hfftn):
        chain(f(z, norm=norm))
chain(torch.fft.fft(x, n=6)); chain(torch.fft.fft(x, n=3, dim=0)); chain(torch.fft.rfft(x, n=3))
chain(torch.fft.irfft(z, n=9)); chain(torch.fft.irfft(z, n=2)); chain(torch.fft.hfft(z, n=5, dim=0))
chain(torch.fft.fftn(x, s=(3, 2))); chain(torch.fft.rfftn(x, s=(5, -1), dim=(1, 0)))
chain(torch.fft.irfftn(z, s=(4, 4))); chain(torch.fft.ihfftn(x, s=(1, 6)))
chain(torch.fft.fftshift(x)); chain(torch.fft.ifftshift(x, dim=-1)); chain(torch.fft.fftshift(x, dim=(1, 0)))
print(torch.fft.fftn(torch.tensor(2.)), torch.fft.fftn(x, dim=()))
""")


@requires_torch
def test_exact_values_print_as_torch():
    """Transforms whose values are exact print the same (round-off could change the format)."""
    same_as_torch("""
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
print(torch.fft.fft(x)); print(torch.fft.rfft(x)); print(torch.fft.ifft(x)); print(torch.fft.ihfft(x))
print(torch.fft.fft(torch.tensor([1, 2, 3, 4])), torch.fft.fft(x.double(), norm='ortho'))
print(torch.fft.fft2(torch.tensor([[1., 2.], [3., 4.]])), torch.fft.irfft(torch.tensor([10., -2+2j, -2.])))
print(torch.fft.hfft(torch.tensor([3+0j, 1+0j])), torch.fft.fft(torch.tensor([1., 1.]), n=4))
y = torch.fft.rfft(x)
y.real.sum().backward()
print(x.grad)
print(torch.fft.fftfreq(5), torch.fft.fftfreq(4), torch.fft.rfftfreq(5, d=0.3), torch.fft.fftfreq(7, 0.1))
print(torch.fft.fftfreq(6, dtype=torch.float64), torch.fft.rfftfreq(4, requires_grad=True), torch.fft.fftfreq(0))
print(torch.fft.fftshift(torch.arange(6).reshape(2, 3)), torch.fft.ifftshift(torch.arange(6).reshape(2, 3)))
print(torch.fft.fftshift(torch.arange(5.), dim=0), torch.fft.ifftshift(torch.arange(7), dim=-1))
""")


@requires_torch
def test_errors_match_torch():
    same_as_torch("""
x = torch.arange(4.)
m = x.reshape(2, 2)
c = x.to(torch.complex64)
E(lambda: torch.fft.fft(x, norm="foo"))
E(lambda: torch.fft.ifftn(m, norm="Ortho"))
E(lambda: torch.fft.fft(x, n=0))
E(lambda: torch.fft.rfft(x, n=-1))
E(lambda: torch.fft.fft(x, dim=1))
E(lambda: torch.fft.ihfft(x, dim=-2))
E(lambda: torch.fft.fft(torch.tensor(1.)))
E(lambda: torch.fft.rfft(torch.tensor(1.), dim=0))
E(lambda: torch.fft.rfftn(torch.tensor(1.)))
E(lambda: torch.fft.fftn(torch.tensor(1.)))
E(lambda: torch.fft.rfft(c))
E(lambda: torch.fft.ihfft(c))
E(lambda: torch.fft.rfftn(c))
E(lambda: torch.fft.rfft2(c.reshape(2, 2)))
E(lambda: torch.fft.ihfftn(c))
E(lambda: torch.fft.ihfft2(c.reshape(2, 2)))
E(lambda: torch.fft.irfft(x))
E(lambda: torch.fft.hfft(x))
E(lambda: torch.fft.irfft(torch.tensor([1.+0j])))
E(lambda: torch.fft.irfft(torch.tensor([1.+0j]), n=1))
E(lambda: torch.fft.irfftn(torch.tensor([[1.+0j]])))
E(lambda: torch.fft.hfft2(m, s=(2, 0)))
E(lambda: torch.fft.fft(x.half()))
E(lambda: torch.fft.rfft(x.bfloat16()))
E(lambda: torch.fft.irfft(x.half()))
E(lambda: torch.fft.fftn(m, dim=(0, 0)))
E(lambda: torch.fft.fftn(m, dim=(0, -2)))
E(lambda: torch.fft.fftn(m, s=(2,), dim=(0, 1)))
E(lambda: torch.fft.fftn(m, s=(2, 2, 2)))
E(lambda: torch.fft.fftn(m, s=(0, 2)))
E(lambda: torch.fft.fft2(x))
E(lambda: torch.fft.rfftn(m, dim=()))
E(lambda: torch.fft.irfftn(m, dim=()))
E(lambda: torch.fft.hfftn(m, dim=()))
E(lambda: torch.fft.ihfftn(m, dim=()))
E(lambda: torch.fft.ifft2(m, dim=(0, 2)))
E(lambda: torch.fft.fft(x, dim=(0,)))
E(lambda: torch.fft.fft(x, n=2.0))
E(lambda: torch.fft.fft([1., 2.]))
E(lambda: torch.fft.rfft(x, norm=1))
E(lambda: torch.fft.fftn(m, s="ab"))
E(lambda: torch.fft.fft(x, 4, 0, "ortho", 5))
E(lambda: torch.fft.fft(x, m=4))
E(lambda: torch.fft.fftfreq(-1))
E(lambda: torch.fft.fftfreq(4, dtype=torch.int64))
E(lambda: torch.fft.rfftfreq(4, dtype=torch.int32))
E(lambda: torch.fft.fftfreq(4, dtype=torch.complex64))
E(lambda: torch.fft.fftshift(x, dim=3))
E(lambda: torch.fft.fftshift(torch.tensor(2.)))
E(lambda: torch.fft.ifftshift(m, dim=(0, 5)))
E(lambda: torch.fft.fftfreq(5.0))
E(lambda: torch.fft.fftfreq(True))
E(lambda: torch.fft.fftfreq(4, d='a'))
E(lambda: torch.fft.rfftfreq(4, 1, torch.float64))
print(torch.fft.fftfreq(4, d=0), torch.fft.rfftfreq(3, d=-2), torch.fft.fftfreq(n=4, d=torch.tensor(2.)))
# an empty batch: PyTorch's CPU FFT (oneMKL) refuses to plan it; an empty signal is "0 data points"
e = torch.zeros(0, 4, requires_grad=True)
E(lambda: torch.fft.fft(e))
E(lambda: torch.fft.irfft(e))
E(lambda: torch.fft.fftn(e, dim=1))
E(lambda: torch.fft.fft(e, dim=0))
E(lambda: torch.fft.rfft2(e))
print(torch.fft.fftn(e, dim=()).shape, torch.fft.fftshift(e).shape)
""")


@requires_torch
def test_submodule_imports_as_torch():
    same_as_torch("""
import torch.fft
from torch.fft import fft, fftshift
print(fft(torch.tensor([1., -1.])), fftshift(torch.arange(4)), torch.fft.__name__.split('.')[-1])
""")
