"""torch.nn.utils.clip_grad: the module PyTorch defines its gradient clipping in (``from torch.nn.utils.clip_grad
import clip_grad_norm_``). minigrad defines them in nn/utils/__init__.py; this module names the same functions."""
from __future__ import annotations

from . import clip_grad_norm, clip_grad_norm_, clip_grad_value_  # noqa: F401

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_"]
