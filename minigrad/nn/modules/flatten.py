"""torch.nn.modules.flatten's names (the classes live in misc.py)."""
from .misc import Flatten, Unflatten  # noqa: F401
