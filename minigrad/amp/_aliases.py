"""The deprecated device spellings ``torch.cpu.amp.*`` and ``torch.cuda.amp.*``: the same classes, with a warning."""
from __future__ import annotations

import warnings

from .. import _dtypes
from . import autocast_mode, grad_scaler


def _deprecation(device: str, old: str, new: str) -> None:
    from .._tensor import _user_stacklevel
    warnings.warn(f"`torch.{device}.amp.{old}(args...)` is deprecated. Please use `torch.amp.{new}('{device}', "
                  "args...)` instead.", FutureWarning, stacklevel=_user_stacklevel())


def make_autocast(device: str, dtype: _dtypes.dtype) -> type:
    """``torch.<device>.amp.autocast``: ``torch.amp.autocast(device, ...)`` after a FutureWarning."""
    class autocast(autocast_mode.autocast):
        def __init__(self, enabled: bool = True, dtype: _dtypes.dtype = dtype, cache_enabled: bool = True):
            _deprecation(device, "autocast", "autocast")
            super().__init__(device, enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)
    autocast.__doc__ = f"``torch.amp.autocast('{device}', ...)`` (deprecated spelling: warns with a FutureWarning)."
    autocast.__module__ = f"torch.{device}.amp.autocast_mode"
    return autocast


def make_grad_scaler(device: str) -> type:
    """``torch.<device>.amp.GradScaler``: ``torch.amp.GradScaler(device, ...)`` after a FutureWarning."""
    class GradScaler(grad_scaler.GradScaler):
        def __init__(self, init_scale: float = 2.0**16, growth_factor: float = 2.0, backoff_factor: float = 0.5,
                     growth_interval: int = 2000, enabled: bool = True) -> None:
            _deprecation(device, "GradScaler", "GradScaler")
            super().__init__(device, init_scale=init_scale, growth_factor=growth_factor,
                             backoff_factor=backoff_factor, growth_interval=growth_interval, enabled=enabled)
    GradScaler.__doc__ = f"``torch.amp.GradScaler('{device}', ...)`` (deprecated spelling: warns with a FutureWarning)."
    GradScaler.__module__ = f"torch.{device}.amp.grad_scaler"
    return GradScaler
