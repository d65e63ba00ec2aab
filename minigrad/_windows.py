"""Window functions for spectral analysis (torch.hann_window, hamming_window, blackman_window, bartlett_window,
kaiser_window).

Computed as PyTorch's aten/src/ATen/native/TensorFactories.cpp does, with minigrad's own float ops in the same
order (arange, scale, cos, ...), so the float32 values match PyTorch's. A periodic window of length N is the
symmetric window of length N + 1 without its last point (the usual choice before an FFT).
"""
from __future__ import annotations

import math

import numpy as np

from . import _creation, _dtypes
from ._device import check_creation_device
from ._fused import fma
from ._special_kernels import _I0_A, _I0_B
from ._tensor import Tensor


def _window(name: str, window_length: int, periodic: bool, dtype, device, requires_grad: bool, body) -> Tensor:
    from . import _arg_errors
    if not _arg_errors._is_index(window_length):  # (hann_window(4.0): PyTorch's parser takes no float)
        raise _arg_errors.must_be(name, "window_length", "int", window_length, 1)
    if not isinstance(periodic, (bool, np.bool_)):  # (the public function's wrapper words it as PyTorch's parser)
        raise _arg_errors.must_be(name, "periodic", "bool", periodic)
    check_creation_device(device)
    dtype = _dtypes.get_default_dtype() if dtype is None else dtype
    if not dtype.is_floating_point:
        c_name = _creation._C_TYPE_NAMES.get(dtype.name, dtype.name)
        raise RuntimeError(f"{name} expects floating point dtypes, got: TensorOptions(dtype={c_name}, device=cpu, "
                           "layout=Strided (default), requires_grad=false (default), pinned_memory=false, "
                           "memory_format=(nullopt))")
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length={window_length}")
    if window_length <= 1:   # (0: empty; 1: a single 1)
        return _creation.ones(window_length, dtype=dtype, requires_grad=requires_grad)
    n = window_length + 1 if periodic else window_length
    w = body(_creation.arange(n, dtype=dtype), n)
    w = w[:window_length] if periodic else w
    return w.detach().requires_grad_(requires_grad)


def hamming_window(window_length: int, periodic: bool = True, alpha: float = 0.54, beta: float = 0.46, *,
                   dtype=None, layout=None, device=None, pin_memory=False, requires_grad: bool = False) -> Tensor:
    """alpha - beta·cos(2πn / (N - 1))."""
    return _window("hamming_window", window_length, periodic, dtype, device, requires_grad,
                   lambda w, n: w.mul_(math.pi * 2.0 / (n - 1)).cos_().mul_(-beta).add_(alpha))


def hann_window(window_length: int, periodic: bool = True, *, dtype=None, layout=None, device=None,
                pin_memory=False, requires_grad: bool = False) -> Tensor:
    """0.5 - 0.5·cos(2πn / (N - 1)) (the Hamming window with alpha = beta = 0.5)."""
    return _window("hann_window", window_length, periodic, dtype, device, requires_grad,
                   lambda w, n: w.mul_(math.pi * 2.0 / (n - 1)).cos_().mul_(-0.5).add_(0.5))


def blackman_window(window_length: int, periodic: bool = True, *, dtype=None, layout=None, device=None,
                    pin_memory=False, requires_grad: bool = False) -> Tensor:
    """0.42 - 0.5·cos(2πn / (N - 1)) + 0.08·cos(4πn / (N - 1))."""
    def body(w, n):
        w = w.mul_(math.pi / (n - 1))
        return w.mul(4).cos_().mul_(0.08) - w.mul(2).cos_().mul_(0.5) + 0.42
    return _window("blackman_window", window_length, periodic, dtype, device, requires_grad, body)


def bartlett_window(window_length: int, periodic: bool = True, *, dtype=None, layout=None, device=None,
                    pin_memory=False, requires_grad: bool = False) -> Tensor:
    """The triangle 1 - |2n / (N - 1) - 1|."""
    def body(w, n):
        w = w.mul_(2.0 / (n - 1))
        half = ((n - 1) >> 1) + 1
        w.narrow(0, half, n - half).mul_(-1).add_(2)
        return w
    return _window("bartlett_window", window_length, periodic, dtype, device, requires_grad, body)


__all__ = ["bartlett_window", "blackman_window", "hamming_window", "hann_window"]


# ---- kaiser_window (missing-nn pass 5): I0(β·√(1 - ((n - α)/α)²)) / I0(β), α = (N - 1)/2, with I0 as PyTorch's
# calc_i0 (Cephes' Chebyshev series, evaluated in the window's dtype). 16-bit windows get PyTorch's bits;
# float32 / float64 ones may differ in the last bit or two (the compiled kernel's rounding order is not matched).

# (_I0_A, _I0_B: Cephes' coefficients, from _special_kernels: torch.special.modified_bessel_i0 sums them too)


def _chbevl(x, coefficients, t):
    """Clenshaw's sum of a Chebyshev series (Cephes' chbevl), in the dtype ``t``."""
    b0, b1, b2 = np.full_like(x, t(coefficients[0])), np.zeros_like(x), np.zeros_like(x)
    for c in coefficients[1:]:
        b2, b1 = b1, b0
        b0 = fma(x, b1, -b2, x.dtype) + t(c)   # (x·b1 - b2 fused: the closest to PyTorch's bits found)
    return (b0 - b2) * t(0.5)


def _glibc_exp(x):
    """e^x as glibc's exp / expf compute it (PyTorch's calc_i0 calls std::exp)."""
    if x.dtype == np.float32:
        from ._float_math import glibc_expf
        return glibc_expf(x)
    with np.errstate(over="ignore"):   # (float64: the C library's exp, element by element; inf past 709.78)
        big = np.exp(x)
    return np.where(np.isfinite(big), np.asarray(_LIBM_EXP(np.where(np.isfinite(big), x, 0.0)), np.float64), big)


_LIBM_EXP = np.frompyfunc(math.exp, 1, 1)


def _calc_i0(x):
    """I0(x) as PyTorch's calc_i0: e^x·A-series((x/2) - 2) up to 8, e^x·B-series(32/x - 2)/√x beyond."""
    t = x.dtype.type
    x = np.abs(x)
    a, b = _I0_A, _I0_B
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        e = _glibc_exp(x)
        small = e * _chbevl(x / t(2) - t(2), a, t)
        large = e * _chbevl(t(32) / x - t(2), b, t) / np.sqrt(x)
    return np.where(x <= 8, small, large).astype(x.dtype)


_KAISER_OPTIONS = ("*, torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
                   "bool pin_memory = False, bool requires_grad = False")
_KAISER_OVERLOADS = (f"(int window_length, {_KAISER_OPTIONS})",
                     f"(int window_length, bool periodic, {_KAISER_OPTIONS})",
                     f"(int window_length, bool periodic, float beta, {_KAISER_OPTIONS})")


def kaiser_window(window_length: int, periodic: bool | None = None, beta: float | None = None, *, dtype=None,
                  layout=None, device=None, pin_memory=False, requires_grad: bool = False) -> Tensor:
    """I0(β·√(1 - ((n - α)/α)²)) / I0(β), α = (N - 1)/2: a bell whose width falls as β grows (β = 12 by default)."""
    if isinstance(window_length, float):
        raise TypeError("kaiser_window(): argument 'window_length' (position 1) must be int, not float")
    if periodic is None and beta is not None:   # (PyTorch's overloads take beta only after periodic)
        from . import _arg_errors
        given = {k: v for k, v in (("requires_grad", requires_grad or None), ("dtype", dtype), ("beta", beta))
                 if v is not None}
        raise _arg_errors.invalid_combination("kaiser_window", (window_length,), given, _KAISER_OVERLOADS)
    periodic = True if periodic is None else periodic
    beta = 12.0 if beta is None else beta
    def body(w, n):
        a = w._data
        reduced = a.dtype.name in ("float16", "bfloat16")   # (16-bit windows: computed in float32, rounded once)
        x = a.astype(np.float32) if reduced else a
        t = x.dtype.type
        alpha, b = t((n - 1) / 2.0), t(beta)
        arg = b * np.sqrt(np.abs(t(1) - ((x - alpha) / alpha) ** 2))
        with np.errstate(invalid="ignore"):   # (I0(β) overflows for large β: inf / inf is NaN, as in PyTorch)
            out = _calc_i0(arg) / _calc_i0(np.asarray([b]))[0]
        if a.dtype.name == "bfloat16":   # (PyTorch's rounding to bfloat16 makes every NaN the positive one)
            out = np.where(np.isnan(out), np.float32(np.nan), out)
        out = out.astype(a.dtype)
        return Tensor._make(out)
    return _window("kaiser_window", window_length, periodic, dtype, device, requires_grad, body)


__all__ += ["kaiser_window"]
