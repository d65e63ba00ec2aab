"""torch.cuda on a machine without CUDA: the availability checks tutorials start with (minigrad is CPU-only)."""
from __future__ import annotations

from . import _cuda_amp as amp  # noqa: F401  (torch.cuda.amp: deprecated aliases, disabled without CUDA)

_NO_CUDA = "Torch not compiled with CUDA enabled"


def is_available() -> bool:
    """False: minigrad computes on the CPU only."""
    return False


def device_count() -> int:
    """No CUDA devices."""
    return 0


def is_initialized() -> bool:
    """CUDA is never initialised."""
    return False


def manual_seed(seed: int) -> None:
    """Ignored without CUDA (as in PyTorch, which seeds lazily)."""


def manual_seed_all(seed: int) -> None:
    """Ignored without CUDA."""


def empty_cache() -> None:
    """Nothing to free."""


def memory_allocated(device=None) -> int:
    """No CUDA memory in use."""
    return 0


def is_bf16_supported(including_emulation: bool = True) -> bool:
    """False: no CUDA device (the AMP recipes ask before picking bfloat16)."""
    return False


def _unavailable(*args, **kwargs):
    raise AssertionError(_NO_CUDA)


current_device = get_device_name = get_device_properties = synchronize = set_device = _unavailable
