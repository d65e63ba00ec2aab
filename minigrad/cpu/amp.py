"""torch.cpu.amp: deprecated aliases of ``torch.amp.autocast("cpu")`` and ``torch.amp.GradScaler("cpu")``."""
from __future__ import annotations

from .. import _dtypes
from ..amp import _aliases

__all__ = ["GradScaler", "autocast"]

autocast = _aliases.make_autocast("cpu", _dtypes.bfloat16)
GradScaler = _aliases.make_grad_scaler("cpu")
