"""torch.utils: data loading (``torch.utils.data``) and activation checkpointing (``torch.utils.checkpoint``)."""
from . import checkpoint, data, hooks  # noqa: F401
