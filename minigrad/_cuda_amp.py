"""torch.cuda.amp without CUDA: deprecated aliases that warn, then disable themselves (as PyTorch's CPU build)."""
from __future__ import annotations

import functools
import warnings

from . import _dtypes
from .amp import _aliases, autocast_mode

__all__ = ["GradScaler", "autocast", "custom_bwd", "custom_fwd"]

autocast = _aliases.make_autocast("cuda", _dtypes.float16)
GradScaler = _aliases.make_grad_scaler("cuda")


def custom_fwd(fwd=None, *, cast_inputs=None):
    """Deprecated: ``torch.amp.custom_fwd(device_type='cuda')``."""
    _warn("custom_fwd")
    if fwd is None:
        return functools.partial(autocast_mode.custom_fwd, device_type="cuda", cast_inputs=cast_inputs)
    return autocast_mode.custom_fwd(fwd, device_type="cuda", cast_inputs=cast_inputs)


def custom_bwd(bwd):
    """Deprecated: ``torch.amp.custom_bwd(device_type='cuda')``."""
    _warn("custom_bwd")
    return autocast_mode.custom_bwd(bwd, device_type="cuda")


def _warn(name: str) -> None:
    from ._tensor import _user_stacklevel
    warnings.warn(f"`torch.cuda.amp.{name}(args...)` is deprecated. Please use `torch.amp.{name}(args..., "
                  "device_type='cuda')` instead.", FutureWarning, stacklevel=_user_stacklevel())
