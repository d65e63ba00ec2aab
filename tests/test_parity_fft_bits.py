"""torch.fft with PyTorch's exact bits (``minigrad/_dfti.py``: MKL's DFTI, called as PyTorch's CPU build calls it).

Every comparison here is exact (``np.array_equal``, signs of zeros included), not approximate: the bits of
an FFT depend on how the library factors each length, orders its passes, applies the ``norm`` scaling and
splits big transforms and batches between threads. Both libraries run on the same intra-op thread count
(1 and 2), on the same inputs laid out the same way (views are made with the same ops on both sides).
"""
from __future__ import annotations

import numpy as np
import pytest
from parity import same_as_torch, torch_or_skip  # (the threads fixture: conftest.py)

import minigrad
from minigrad import _dfti

pytestmark = pytest.mark.skipif(not _dfti.available, reason="MKL (the mkl package) is not installed")


def _same_bits(mine, theirs) -> bool:
    """Same shape, dtype, values and signs of zeros (the inputs have no NaNs)."""
    a, b = mine.detach().resolve_conj().numpy(), theirs.detach().resolve_conj().numpy()
    return a.shape == b.shape and a.dtype == b.dtype and \
        np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes()


def _inputs(torch, shape, dtype: str, seed: int, view=None):
    """(minigrad tensor, torch tensor) with the same values, put through the same ``view`` (e.g. a transpose)."""
    g = np.random.default_rng(seed)
    values = g.standard_normal(shape)
    if dtype.startswith("complex"):
        values = values + 1j * g.standard_normal(shape)
    values = values.astype(dtype)
    m, t = minigrad.tensor(values), torch.tensor(values)
    return (view(m), view(t)) if view else (m, t)


SIZES = (1, 2, 3, 4, 5, 7, 8, 12, 16, 17, 31, 32, 64, 97, 100, 128, 1000, 1024)
NORMS = (None, "ortho", "forward")   # (None is "backward")
DTYPES = ("float32", "float64", "complex64", "complex128")


# ---- one-dimensional transforms: every length, norm and dtype, with and without a batch --------------------

@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
def test_one_dim_transforms_exact(name, threads):
    torch = torch_or_skip()
    checked = 0
    for dtype in DTYPES:
        if name in ("rfft", "ihfft") and dtype.startswith("complex"):
            continue
        for i, n in enumerate(SIZES):
            if n == 1 and name in ("irfft", "hfft"):
                continue   # (an output of 2·(1 - 1) = 0 points: an error, tested in test_parity_fft.py)
            for batch in ((), (2, 5)):
                m, t = _inputs(torch, batch + (n,), dtype, seed=i)
                for norm in NORMS:
                    out_m = getattr(minigrad.fft, name)(m, norm=norm)
                    out_t = getattr(torch.fft, name)(t, norm=norm)
                    assert _same_bits(out_m, out_t), (name, dtype, batch, n, norm)
                    checked += 1
    assert checked >= 200


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
def test_one_dim_n_and_dim_exact(name, threads):
    """``n`` pads or truncates (irfft/hfft: the output length, odd ones too); ``dim`` picks a batch-first axis."""
    torch = torch_or_skip()
    dtype = "float64" if name in ("rfft", "ihfft") else "complex64"
    m, t = _inputs(torch, (6, 9, 4), dtype, seed=1)
    for n in (None, 1, 2, 5, 8, 9, 11, 16, 33):
        for dim in (0, 1, -1):
            for norm in ("backward", "ortho", "forward"):
                out_m = getattr(minigrad.fft, name)(m, n=n, dim=dim, norm=norm)
                out_t = getattr(torch.fft, name)(t, n=n, dim=dim, norm=norm)
                assert _same_bits(out_m, out_t), (name, n, dim, norm)


# ---- n-dimensional transforms ------------------------------------------------------------------------------

ND_CASES = [
    ((8, 8), {}), ((5, 7), {}), ((3, 16, 16), {}), ((4, 6, 10), {"dim": (0, 2)}), ((2, 3, 5, 4), {"dim": (1, 3)}),
    ((4, 6, 10), {"s": (5, 12)}), ((3, 4, 5), {"dim": None}), ((2, 9, 12), {"dim": (-1, -2)}),
    ((6, 7, 8), {"s": (3, 4, 9), "dim": (0, 1, 2)}), ((1, 17, 2), {}), ((32, 64), {}),
]


@pytest.mark.parametrize("name", ["fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2",
                                  "fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn"])
def test_n_dim_transforms_exact(name, threads):
    torch = torch_or_skip()
    real_input = name.startswith(("rfft", "ihfft"))
    for i, (shape, kwargs) in enumerate(ND_CASES):
        if name.endswith("2") and len(kwargs.get("dim", kwargs.get("s", (-2, -1))) or ()) != 2:
            continue   # (the 2-dim variants transform two dims)
        for dtype in (("float32", "float64") if real_input else ("complex64", "complex128", "float32")):
            m, t = _inputs(torch, shape, dtype, seed=i)
            for norm in ("backward", "ortho", "forward"):
                out_m = getattr(minigrad.fft, name)(m, norm=norm, **kwargs)
                out_t = getattr(torch.fft, name)(t, norm=norm, **kwargs)
                assert _same_bits(out_m, out_t), (name, shape, kwargs, dtype, norm)


# ---- layouts: non-contiguous inputs go to MKL with their strides, results come back with PyTorch's ---------

VIEWS = {
    "transposed": ((8, 6), lambda x: x.t()),
    "permuted": ((4, 5, 6), lambda x: x.permute(2, 0, 1)),
    "every other": ((6, 16), lambda x: x[:, ::2]),
    "column": ((16, 5), lambda x: x[:, 2]),
    "expanded": ((1, 8), lambda x: x.expand(3, 8)),
    "narrowed": ((5, 12), lambda x: x[1:4, 3:10]),
}


@pytest.mark.parametrize("view", list(VIEWS))
def test_non_contiguous_inputs_exact_with_torch_strides(view, threads):
    torch = torch_or_skip()
    shape, make = VIEWS[view]
    for dtype in ("float32", "complex128"):
        m, t = _inputs(torch, shape, dtype, seed=3, view=make)
        calls = [("fft", {}), ("ifft", {"dim": 0}), ("fftn", {}), ("hfft", {}), ("irfft", {"dim": 0})]
        if dtype == "float32":
            calls += [("rfft", {}), ("rfft", {"dim": 0}), ("rfftn", {}), ("ihfft", {})]
            calls.append(("rfft2", {}) if m.dim() >= 2 else ("rfft", {"n": 9}))
        for name, kwargs in calls:
            if kwargs.get("dim") == 0 and m.dim() == 1:
                kwargs = {}
            if view == "expanded" and dtype == "float32" and name in ("fftn", "hfft", "irfft"):
                continue   # (the cast to complex: minigrad's .to() lays out an expanded tensor otherwise)
            out_m = getattr(minigrad.fft, name)(m, **kwargs)
            out_t = getattr(torch.fft, name)(t, **kwargs)
            assert _same_bits(out_m, out_t), (view, dtype, name, kwargs)
            assert out_m.stride() == out_t.stride(), (view, dtype, name, kwargs)


def _numpy_with_strides(t) -> np.ndarray:
    """A NumPy-owned copy of a torch tensor with the same strides (size-1 dims included)."""
    a = t.numpy()
    size = 1 + sum((d - 1) * s for d, s in zip(t.shape, t.stride()))
    view = np.lib.stride_tricks.as_strided(np.zeros(size, a.dtype), t.shape, [s * a.itemsize for s in t.stride()])
    view[...] = a
    return view


def test_primitives_on_random_layouts_exact(threads):
    """``_dfti.c2c/r2c/c2r`` against ``torch._fft_c2c/_fft_r2c/_fft_c2r`` on the same layouts (permuted, with
    size-1 dims, the real part of a complex tensor): same bits and the same result strides."""
    torch = torch_or_skip()
    rng = np.random.default_rng(threads)
    checked = 0
    for case in range(150):
        ndim = int(rng.integers(1, 5))
        shape = [int(s) for s in rng.choice([1, 1, 2, 3, 4, 5, 8, 9, 16], ndim)]
        dtype = (torch.complex64, torch.complex128)[case % 2]
        t = torch.randn(shape, dtype=dtype, generator=torch.Generator().manual_seed(case))
        if rng.random() < 0.5:
            t = t.permute(*rng.permutation(ndim).tolist())
        if rng.random() < 0.3:
            t = t.unsqueeze(int(rng.integers(0, ndim + 1)))
        dims = [int(d) for d in rng.permutation(t.dim())[:int(rng.integers(1, t.dim() + 1))]]
        norm, kind = int(rng.integers(0, 3)), ("c2c", "r2c", "c2r")[case % 3]
        if kind == "c2c":
            forward = bool(rng.random() < 0.5)
            theirs = torch._fft_c2c(t, dims, norm, forward)
            mine = _dfti.c2c(_numpy_with_strides(t), tuple(dims), norm, forward)
        elif kind == "r2c":
            real = t.real if rng.random() < 0.5 else t.real.contiguous()
            onesided = bool(rng.random() < 0.5)
            theirs = torch._fft_r2c(real, dims, norm, onesided)
            mine = _dfti.r2c(_numpy_with_strides(real), tuple(dims), norm, onesided)
        else:
            n = t.shape[dims[-1]]
            size = 2 * (n - 1) if n > 1 and rng.random() < 0.5 else 2 * n - 1
            half = t.narrow(dims[-1], 0, size // 2 + 1)
            theirs = torch._fft_c2r(half, dims, norm, size)
            mine = _dfti.c2r(_numpy_with_strides(half), tuple(dims), norm, size)
        assert mine.shape == tuple(theirs.shape), (case, kind)
        assert np.ascontiguousarray(mine).tobytes() == np.ascontiguousarray(theirs.numpy()).tobytes(), (case, kind)
        assert tuple(s // mine.itemsize for s in mine.strides) == theirs.stride(), (case, kind)
        checked += 1
    assert checked == 150


def test_stft_and_istft_exact(threads):
    """stft frames a signal and runs _fft_r2c on the frames; istft runs _fft_c2r: PyTorch's bits too."""
    torch = torch_or_skip()
    x = np.random.default_rng(0).standard_normal((2, 400)).astype(np.float32)
    for kwargs in [{"n_fft": 64}, {"n_fft": 64, "hop_length": 16}, {"n_fft": 32, "normalized": True}]:
        results = []
        for lib in (minigrad, torch):
            window = lib.hann_window(kwargs["n_fft"])
            spectrum = lib.stft(lib.tensor(x), window=window, return_complex=True, **kwargs)
            results.append((spectrum, lib.istft(spectrum, window=window, **kwargs)))
        assert _same_bits(results[0][0], results[1][0]), kwargs
        assert _same_bits(results[0][1], results[1][1]), kwargs


def test_result_strides_follow_pytorch():
    """The batch dims come back in stride order: fft over dim 0 of a (3, 4) tensor has strides (1, 3)."""
    torch = torch_or_skip()
    for shape, kwargs in [((3, 4), {"dim": 0}), ((2, 3, 4), {"dim": 1}), ((3, 4), {}), ((2, 3, 4), {"dim": (0, 2)})]:
        m, t = _inputs(torch, shape, "complex64", seed=0)
        name = "fft" if isinstance(kwargs.get("dim", -1), int) else "fftn"
        assert getattr(minigrad.fft, name)(m, **kwargs).stride() == getattr(torch.fft, name)(t, **kwargs).stride()
    m, t = _inputs(torch, (3, 4), "float64", seed=0)
    assert minigrad.fft.rfft(m, dim=0).stride() == torch.fft.rfft(t, dim=0).stride() == (1, 2)


def test_large_transforms_exact(threads):
    """Long signals: MKL splits one transform (or a batch of them) between its threads."""
    torch = torch_or_skip()
    for shape, dtype in [((4096,), "complex64"), ((5000,), "complex128"), ((16384,), "float32"),
                         ((2, 8192), "float64"), ((256, 256), "complex64")]:
        m, t = _inputs(torch, shape, dtype, seed=5)
        for name in (("fft", "ifft", "hfft") if dtype.startswith("complex") else ("rfft", "fft", "ihfft")):
            assert _same_bits(getattr(minigrad.fft, name)(m), getattr(torch.fft, name)(t)), (shape, dtype, name)
        if dtype.startswith("complex"):
            h_m, h_t = minigrad.fft.rfft(m.real), torch.fft.rfft(t.real)
            assert _same_bits(minigrad.fft.irfft(h_m), torch.fft.irfft(h_t)), (shape, dtype, "irfft")


# ---- gradients: the backward formulas run the same primitives ---------------------------------------------

GRAD_CASES = [
    ("fft", (3, 8), "float32", {}), ("fft", (5, 7), "complex64", {"norm": "ortho"}),
    ("ifft", (4, 12), "complex128", {}), ("rfft", (2, 16), "float32", {}), ("rfft", (9,), "float64", {"n": 12}),
    ("irfft", (3, 9), "complex64", {}), ("irfft", (3, 9), "complex64", {"n": 17, "norm": "forward"}),
    ("hfft", (2, 6), "complex128", {}), ("ihfft", (4, 10), "float32", {"norm": "ortho"}),
    ("fft2", (3, 8, 8), "complex64", {}), ("rfftn", (4, 6, 5), "float32", {}),
    ("irfftn", (4, 6, 5), "complex64", {"s": (7, 8)}), ("hfftn", (3, 4, 5), "complex128", {"norm": "forward"}),
    ("ihfftn", (3, 4, 6), "float64", {}), ("fftn", (5, 7), "float32", {"dim": (0,)}),
]


@pytest.mark.parametrize("name,shape,dtype,kwargs", GRAD_CASES)
def test_gradients_exact(name, shape, dtype, kwargs, threads):
    """A real loss of the transform: Σ (Re y · w1 + Im y · w2) (or Σ y · w1 for a real result)."""
    torch = torch_or_skip()
    m, t = _inputs(torch, shape, dtype, seed=7)
    m.requires_grad_(True)
    t.requires_grad_(True)
    grads = []
    for lib, x in ((minigrad, m), (torch, t)):
        y = getattr(lib.fft, name)(x, **kwargs)
        w = np.random.default_rng(11).standard_normal((2,) + tuple(y.shape))
        real_dtype = y.real.dtype if y.is_complex() else y.dtype
        w1, w2 = lib.tensor(w[0], dtype=real_dtype), lib.tensor(w[1], dtype=real_dtype)
        loss = (y.real * w1 + y.imag * w2).sum() if y.is_complex() else (y * w1).sum()
        loss.backward()
        grads.append(x.grad)
    assert _same_bits(grads[0], grads[1]), (name, shape, dtype, kwargs)


def test_printed_gradient_at_full_precision():
    """The gradient of an rfft loss, printed with 8 decimals (every digit of a float32)."""
    same_as_torch("""
torch.set_printoptions(precision=8)
x = torch.linspace(-1, 1, 10).reshape(2, 5).requires_grad_()
y = torch.fft.rfft(x, norm="ortho")
(y.real * torch.arange(6.0).reshape(2, 3) - y.imag).sum().backward()
print(y)
print(x.grad)
z = torch.fft.irfft(torch.fft.fft(x.double()), n=7)
print(z)
""")


def test_printed_values_where_the_exact_result_is_zero():
    """Round-off where the exact value is 0 decides the print format: same tiny values as PyTorch."""
    same_as_torch("""
x = torch.arange(12.0).reshape(3, 4)
print(torch.fft.fft(x))
print(torch.fft.rfft2(x))
print(torch.fft.ifft(torch.fft.fft(x)))
print(torch.fft.irfft(torch.fft.rfft(torch.linspace(0, 1, 7)), n=7))
""")
