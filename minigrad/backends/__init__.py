"""torch.backends: the flags tutorials read or set (no accelerator backends are available in minigrad)."""
from . import cudnn, mps  # noqa: F401
