"""Samplers: the order in which a DataLoader visits a dataset's indices."""
from __future__ import annotations

from ..._class_names import TorchNamed


class Sampler(metaclass=TorchNamed):
    """Base class: iterating gives indices."""

    def __init__(self, data_source=None) -> None:
        pass


class SequentialSampler(Sampler):
    """0, 1, 2, ... len(data_source) - 1."""

    def __init__(self, data_source) -> None:
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random permutation of the indices (a new one per epoch)."""

    def __init__(self, data_source, replacement: bool = False, num_samples=None, generator=None) -> None:
        self.data_source = data_source
        self.generator = generator

    def __iter__(self):
        from ..._creation import randperm
        return iter(randperm(len(self.data_source), generator=self.generator).tolist())

    def __len__(self) -> int:
        return len(self.data_source)


class BatchSampler(Sampler):
    """Lists of ``batch_size`` indices from ``sampler`` (the last one shorter unless ``drop_last``)."""

    def __init__(self, sampler, batch_size: int, drop_last: bool) -> None:
        self.sampler, self.batch_size, self.drop_last = sampler, batch_size, drop_last

    def __iter__(self):
        batch = []
        for idx in self.sampler:
            batch.append(idx)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self) -> int:
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else (n + self.batch_size - 1) // self.batch_size
