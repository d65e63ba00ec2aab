"""torch.nn.modules.sparse's names (the class lives in sparse_norm_distance.py)."""
from .sparse_norm_distance import Embedding  # noqa: F401
