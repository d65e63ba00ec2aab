"""torch.accelerator: the device-agnostic availability checks (no accelerator in minigrad)."""
from __future__ import annotations


def is_available() -> bool:
    """False: minigrad computes on the CPU only."""
    return False


def current_accelerator(check_available: bool = False):
    """None: there is no accelerator."""
    return None


def device_count() -> int:
    """No accelerator devices."""
    return 0
