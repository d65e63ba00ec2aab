"""torch.utils: data loading (``torch.utils.data``)."""
from . import data  # noqa: F401
