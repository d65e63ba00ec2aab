"""torch.signal.windows: SciPy-style window functions, written as PyTorch writes them (torch/signal/windows/
windows.py: a linspace, then elementwise ops), so they round as PyTorch's do. ``sym=False`` gives the periodic
window (one point longer, last point dropped) that spectral analysis uses."""
from __future__ import annotations

from collections.abc import Iterable
from math import sqrt

import minigrad as torch
from minigrad import Tensor

__all__ = ["bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine", "general_hamming", "hamming",
           "hann", "kaiser", "nuttall"]


def _window_function_checks(function_name: str, M: int, dtype, layout) -> None:
    """PyTorch's checks common to every window."""
    if M < 0:
        raise ValueError(f"{function_name} requires non-negative window length, got M={M}")
    if layout is not torch.strided:
        raise ValueError(f"{function_name} is implemented for strided tensors only, got: {layout}")
    if dtype not in [torch.float32, torch.float64]:
        raise ValueError(f"{function_name} expects float32 or float64 dtypes, got: {dtype}")


def _empty(dtype, requires_grad: bool) -> Tensor:
    return torch.empty((0,), dtype=dtype, requires_grad=requires_grad)


def _ones(dtype, requires_grad: bool) -> Tensor:
    return torch.ones((1,), dtype=dtype, requires_grad=requires_grad)


def exponential(M: int, *, center: float | None = None, tau: float = 1.0, sym: bool = True, dtype=None,
                layout=torch.strided, device=None, requires_grad: bool = False) -> Tensor:
    """exp(-|n - center| / tau)."""
    dtype = torch.get_default_dtype() if dtype is None else dtype
    _window_function_checks("exponential", M, dtype, layout)
    if tau <= 0:
        raise ValueError(f"Tau must be positive, got: {tau} instead.")
    if sym and center is not None:
        raise ValueError("Center must be None for symmetric windows")
    if M == 0:
        return _empty(dtype, requires_grad)
    if center is None:
        center = (M if not sym and M > 1 else M - 1) / 2.0
    constant = 1 / tau
    k = torch.linspace(start=-center * constant, end=(-center + (M - 1)) * constant, steps=M, dtype=dtype,
                       requires_grad=requires_grad)
    return torch.exp(-torch.abs(k))


def cosine(M: int, *, sym: bool = True, dtype=None, layout=torch.strided, device=None,
           requires_grad: bool = False) -> Tensor:
    """sin(π(n + 1/2) / M): half a sine period."""
    dtype = torch.get_default_dtype() if dtype is None else dtype
    _window_function_checks("cosine", M, dtype, layout)
    if M == 0:
        return _empty(dtype, requires_grad)
    start = 0.5
    constant = torch.pi / (M + 1 if not sym and M > 1 else M)
    k = torch.linspace(start=start * constant, end=(start + (M - 1)) * constant, steps=M, dtype=dtype,
                       requires_grad=requires_grad)
    return torch.sin(k)


def gaussian(M: int, *, std: float = 1.0, sym: bool = True, dtype=None, layout=torch.strided, device=None,
             requires_grad: bool = False) -> Tensor:
    """exp(-(n - (M - 1)/2)² / (2 std²))."""
    dtype = torch.get_default_dtype() if dtype is None else dtype
    _window_function_checks("gaussian", M, dtype, layout)
    if std <= 0:
        raise ValueError(f"Standard deviation must be positive, got: {std} instead.")
    if M == 0:
        return _empty(dtype, requires_grad)
    start = -(M if not sym and M > 1 else M - 1) / 2.0
    constant = 1 / (std * sqrt(2))
    k = torch.linspace(start=start * constant, end=(start + (M - 1)) * constant, steps=M, dtype=dtype,
                       requires_grad=requires_grad)
    return torch.exp(-(k ** 2))


def kaiser(M: int, *, beta: float = 12.0, sym: bool = True, dtype=None, layout=torch.strided, device=None,
           requires_grad: bool = False) -> Tensor:
    """I0(√(β² - k²)) / I0(β), k from -β to β."""
    dtype = torch.get_default_dtype() if dtype is None else dtype
    _window_function_checks("kaiser", M, dtype, layout)
    if beta < 0:
        raise ValueError(f"beta must be non-negative, got: {beta} instead.")
    if M == 0:
        return _empty(dtype, requires_grad)
    if M == 1:
        return _ones(dtype, requires_grad)
    beta = torch.tensor(beta, dtype=dtype)   # (in the window's dtype: no NaN from rounding below)
    start = -beta
    constant = 2.0 * beta / (M if not sym else M - 1)
    end = torch.minimum(beta, start + (M - 1) * constant)
    k = torch.linspace(start=start, end=end, steps=M, dtype=dtype, requires_grad=requires_grad)
    return torch.i0(torch.sqrt(beta * beta - torch.pow(k, 2))) / torch.i0(beta)


def hamming(M: int, *, sym: bool = True, dtype=None, layout=torch.strided, device=None,
            requires_grad: bool = False) -> Tensor:
    """The general Hamming window with α = 0.54."""
    return general_hamming(M, sym=sym, dtype=dtype, layout=layout, device=device, requires_grad=requires_grad)


def hann(M: int, *, sym: bool = True, dtype=None, layout=torch.strided, device=None,
         requires_grad: bool = False) -> Tensor:
    """The general Hamming window with α = 0.5."""
    return general_hamming(M, alpha=0.5, sym=sym, dtype=dtype, layout=layout, device=device,
                           requires_grad=requires_grad)


def blackman(M: int, *, sym: bool = True, dtype=None, layout=torch.strided, device=None,
             requires_grad: bool = False) -> Tensor:
    """The general cosine window with a = (0.42, 0.5, 0.08)."""
    dtype = torch.get_default_dtype() if dtype is None else dtype
    _window_function_checks("blackman", M, dtype, layout)
    return general_cosine(M, a=[0.42, 0.5, 0.08], sym=sym, dtype=dtype, layout=layout, device=device,
                          requires_grad=requires_grad)


def bartlett(M: int, *, sym: bool = True, dtype=None, layout=torch.strided, device=None,
             requires_grad: bool = False) -> Tensor:
    """The triangle 1 - |k|, k from -1 to 1."""
    dtype = torch.get_default_dtype() if dtype is None else dtype
    _window_function_checks("bartlett", M, dtype, layout)
    if M == 0:
        return _empty(dtype, requires_grad)
    if M == 1:
        return _ones(dtype, requires_grad)
    start = -1
    constant = 2 / (M if not sym else M - 1)
    k = torch.linspace(start=start, end=start + (M - 1) * constant, steps=M, dtype=dtype,
                       requires_grad=requires_grad)
    return 1 - torch.abs(k)


def general_cosine(M, *, a: Iterable, sym: bool = True, dtype=None, layout=torch.strided, device=None,
                   requires_grad: bool = False) -> Tensor:
    """Σ_i (-1)^i a_i cos(2π i n / (M - 1))."""
    dtype = torch.get_default_dtype() if dtype is None else dtype
    _window_function_checks("general_cosine", M, dtype, layout)
    if M == 0:
        return _empty(dtype, requires_grad)
    if M == 1:
        return _ones(dtype, requires_grad)
    if not isinstance(a, Iterable):
        raise TypeError("Coefficients must be a list/tuple")
    if not a:
        raise ValueError("Coefficients cannot be empty")
    constant = 2 * torch.pi / (M if not sym else M - 1)
    k = torch.linspace(start=0, end=(M - 1) * constant, steps=M, dtype=dtype, requires_grad=requires_grad)
    a_i = torch.tensor([(-1) ** i * w for i, w in enumerate(a)], dtype=dtype, requires_grad=requires_grad)
    i = torch.arange(a_i.shape[0], dtype=a_i.dtype, requires_grad=a_i.requires_grad)
    return (a_i.unsqueeze(-1) * torch.cos(i.unsqueeze(-1) * k)).sum(0)


def general_hamming(M, *, alpha: float = 0.54, sym: bool = True, dtype=None, layout=torch.strided, device=None,
                    requires_grad: bool = False) -> Tensor:
    """α - (1 - α) cos(2π n / (M - 1))."""
    return general_cosine(M, a=[alpha, 1.0 - alpha], sym=sym, dtype=dtype, layout=layout, device=device,
                          requires_grad=requires_grad)


def nuttall(M: int, *, sym: bool = True, dtype=None, layout=torch.strided, device=None,
            requires_grad: bool = False) -> Tensor:
    """The general cosine window with Nuttall's four coefficients."""
    return general_cosine(M, a=[0.3635819, 0.4891775, 0.1365995, 0.0106411], sym=sym, dtype=dtype, layout=layout,
                          device=device, requires_grad=requires_grad)
