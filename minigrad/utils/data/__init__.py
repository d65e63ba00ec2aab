"""torch.utils.data: datasets and the DataLoader that batches them."""
from .dataloader import DataLoader, default_collate, default_convert, get_worker_info  # noqa: F401
from .dataset import (  # noqa: F401
    ChainDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    StackDataset,
    Subset,
    TensorDataset,
    random_split,
)
from .distributed import DistributedSampler  # noqa: F401
from .sampler import (  # noqa: F401
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)
