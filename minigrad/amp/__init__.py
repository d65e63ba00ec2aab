"""torch.amp: automatic mixed precision (autocast regions, custom Function decorators, GradScaler)."""
from . import autocast_mode, grad_scaler, policy  # noqa: F401
from .autocast_mode import (
    _enter_autocast,  # noqa: F401  (torch.amp's private entry points, as torch.compile's graphs call them)
    _exit_autocast,  # noqa: F401
    autocast,
    custom_bwd,
    custom_fwd,
    is_autocast_available,
)
from .grad_scaler import GradScaler

__all__ = ["GradScaler", "autocast", "custom_bwd", "custom_fwd", "is_autocast_available"]
