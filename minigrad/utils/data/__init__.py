"""torch.utils.data: datasets and the DataLoader that batches them."""
from .dataloader import DataLoader, default_collate, default_convert  # noqa: F401
from .dataset import ConcatDataset, Dataset, Subset, TensorDataset, random_split  # noqa: F401
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler  # noqa: F401
