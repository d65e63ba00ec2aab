"""torch.utils: data loading (``torch.utils.data``) and activation checkpointing (``torch.utils.checkpoint``)."""
from . import backcompat, checkpoint, data, hooks  # noqa: F401
