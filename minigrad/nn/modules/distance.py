"""torch.nn.modules.distance's names (the classes live in sparse_norm_distance.py)."""
from .sparse_norm_distance import CosineSimilarity, PairwiseDistance  # noqa: F401
