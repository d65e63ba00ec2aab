"""Window functions for spectral analysis (torch.hann_window, hamming_window, blackman_window, bartlett_window).

Computed as PyTorch's aten/src/ATen/native/TensorFactories.cpp does, with minigrad's own float ops in the same
order (arange, scale, cos, ...), so the float32 values match PyTorch's. A periodic window of length N is the
symmetric window of length N + 1 without its last point (the usual choice before an FFT).
"""
from __future__ import annotations

import math

from . import _creation, _dtypes
from ._device import check_creation_device
from ._tensor import Tensor


def _window(name: str, window_length: int, periodic: bool, dtype, device, requires_grad: bool, body) -> Tensor:
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
