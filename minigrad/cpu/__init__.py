"""torch.cpu: the CPU device module (minigrad's only device) and its deprecated ``torch.cpu.amp``."""
from __future__ import annotations

from . import amp  # noqa: F401

__all__ = ["current_device", "device_count", "is_available", "synchronize"]


def is_available() -> bool:
    """True: the CPU is always there."""
    return True


def device_count() -> int:
    """One CPU device."""
    return 1


def current_device() -> str:
    """"cpu"."""
    return "cpu"


def synchronize(device=None) -> None:
    """Nothing to wait for: CPU work is synchronous."""
