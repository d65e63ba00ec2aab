"""torch.nn.modules.dropout's names (the classes live in misc.py)."""
from .misc import AlphaDropout, Dropout, Dropout1d, Dropout2d, Dropout3d, FeatureAlphaDropout  # noqa: F401
