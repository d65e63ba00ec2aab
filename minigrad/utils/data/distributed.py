"""DistributedSampler: each of ``num_replicas`` processes takes its share of a dataset (torch.utils.data.distributed).

minigrad has no process groups, so ``num_replicas`` and ``rank`` must be given (PyTorch asks its default
process group otherwise, and fails the same way when none was initialized). The order is PyTorch's: a
permutation from a generator seeded with ``seed + epoch``, padded by wrapping around (or cut with
``drop_last``) to a multiple of ``num_replicas``, then every ``num_replicas``-th index from ``rank``.
"""
from __future__ import annotations

import math

from .sampler import Sampler, _T_co


class DistributedSampler(Sampler[_T_co]):
    """The indices of ``dataset`` replica ``rank`` of ``num_replicas`` visits (shuffled per epoch)."""

    def __init__(self, dataset, num_replicas: int | None = None, rank: int | None = None, shuffle: bool = True,
                 seed: int = 0, drop_last: bool = False) -> None:
        if num_replicas is None or rank is None:
            raise ValueError("Default process group has not been initialized, please make sure to call "
                             "init_process_group.")
        if rank >= num_replicas or rank < 0:
            raise ValueError(f"Invalid rank {rank}, rank should be in the interval [0, {num_replicas - 1}]")
        self.dataset = dataset
        self.num_replicas = num_replicas
        self.rank = rank
        self.epoch = 0
        self.drop_last = drop_last
        if self.drop_last and len(self.dataset) % self.num_replicas != 0:  # drop the tail: equal shares
            self.num_samples = math.ceil((len(self.dataset) - self.num_replicas) / self.num_replicas)
        else:
            self.num_samples = math.ceil(len(self.dataset) / self.num_replicas)
        self.total_size = self.num_samples * self.num_replicas
        self.shuffle = shuffle
        self.seed = seed

    def __iter__(self):
        from ..._creation import randperm
        from ..._random import Generator
        if self.shuffle:  # the same permutation in every replica: seeded by seed + epoch
            indices = randperm(len(self.dataset), generator=Generator().manual_seed(self.seed + self.epoch)).tolist()
        else:
            indices = list(range(len(self.dataset)))
        if not self.drop_last:  # pad by repeating the first indices, to a multiple of num_replicas
            padding_size = self.total_size - len(indices)
            if padding_size <= len(indices):
                indices += indices[:padding_size]
            else:
                indices += (indices * math.ceil(padding_size / len(indices)))[:padding_size]
        else:
            indices = indices[: self.total_size]
        return iter(indices[self.rank: self.total_size: self.num_replicas])

    def __len__(self) -> int:
        return self.num_samples

    def set_epoch(self, epoch: int) -> None:
        """The epoch the next iteration shuffles for (call it before each epoch, as in PyTorch)."""
        self.epoch = epoch
