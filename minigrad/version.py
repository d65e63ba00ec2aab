"""``torch.version``: build facts. minigrad runs on the CPU only, so every accelerator version is None."""
from __future__ import annotations

from . import __version__  # noqa: F401  (minigrad's own version, as torch.version.__version__ is torch's)

__all__ = ["__version__", "debug", "cuda", "git_version", "hip", "rocm", "xpu"]
debug = False
cuda: str | None = None
git_version = "Unknown"   # (what a PyTorch build outside a git checkout records)
hip: str | None = None
rocm: str | None = None
xpu: str | None = None
