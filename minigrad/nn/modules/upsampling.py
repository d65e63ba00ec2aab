"""torch.nn.modules.upsampling's names (the class lives in misc.py)."""
from .misc import Upsample  # noqa: F401
