"""torch.backends: the flags tutorials read or set (no accelerator backends are available in minigrad)."""
from . import cuda, cudnn, mps  # noqa: F401
