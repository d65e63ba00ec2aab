"""torch.nn.modules.instancenorm's names (the classes live in normalization.py)."""
from .normalization import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d  # noqa: F401
