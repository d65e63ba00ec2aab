"""DataLoader: iterate a dataset in batches, samples collated into tensors (torch.utils.data.dataloader).

Single-process only: ``num_workers`` and the other multiprocessing options are accepted and ignored.
"""
from __future__ import annotations

import collections.abc
import copy
import re
import warnings

import numpy as np

from ..._class_names import TorchNamed, object_repr
from ..._tensor import Tensor
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler


class _InfiniteConstantSampler(Sampler):
    """The sampler of an IterableDataset: None forever (the dataset's own iterator decides)."""

    def __iter__(self):
        while True:
            yield None


class _SingleProcessDataLoaderIter(metaclass=TorchNamed):
    """One pass over a DataLoader (what ``iter(loader)`` gives, as PyTorch's single-process iterator)."""

    def __init__(self, loader) -> None:
        self._batches = loader._batches()
        self._num_yielded = 0
        self._length = loader
        self._dataset, self._num_workers = loader.dataset, loader.num_workers
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        if loader.pin_memory and loader.pin_memory_device:
            warnings.warn("pin_memory_device is deprecated, the current accelerator will be used as the device,"
                          f"ignore pin_memory_device='{loader.pin_memory_device}'.", stacklevel=2)
        if loader.pin_memory:  # (minigrad has no accelerator to pin memory for)
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, then device pinned "
                          "memory won't be used.", stacklevel=2)

    def __iter__(self):
        return self

    def __next__(self):
        batch = next(self._batches)
        self._num_yielded += 1
        if self._IterableDataset_len_called is not None and self._num_yielded > self._IterableDataset_len_called:
            # (PyTorch compares the batches fetched with the dataset's reported length in samples)
            message = (f"Length of IterableDataset {self._dataset} was reported to be "
                       f"{self._IterableDataset_len_called}(when accessing len(dataloader)), but "
                       f"{self._num_yielded} samples have been fetched. ")
            if self._num_workers > 0:
                message += ("For multiprocessing data-loading, this could be caused by not properly configuring the "
                            "IterableDataset replica at each worker. Please see "
                            "https://pytorch.org/docs/stable/data.html#torch.utils.data.IterableDataset for examples.")
            warnings.warn(message, stacklevel=2)
        return batch

    def __len__(self) -> int:
        return len(self._length)

    def __repr__(self) -> str:
        return object_repr(self)


def get_worker_info():
    """None: minigrad loads data in the main process only."""
    return None


# numpy dtype strings of strings, bytes and objects: arrays of them are not collated into tensors
_NP_STR_OBJ = re.compile(r"[SaUO]")
_COLLATE_ERROR = "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"


def default_collate(batch):
    """Samples → one batch: tensors stacked, numbers made tensors, tuples/lists/dicts collated per field."""
    from ... import _creation, _ops
    elem = batch[0]
    if isinstance(elem, Tensor):
        return _ops.stack(batch, 0)  # (a batch that is itself a tensor fails there, as in PyTorch)
    if isinstance(elem, np.ndarray):
        if _NP_STR_OBJ.search(elem.dtype.str) is not None:
            raise TypeError(_COLLATE_ERROR.format(elem.dtype))
        return default_collate([_creation.as_tensor(b) for b in batch])
    if isinstance(elem, (np.bool_, np.number, np.object_)):  # (NumPy's string scalars are strings, below)
        return _creation.as_tensor(list(batch))  # the dtype is inferred from all the scalars, as torch.as_tensor
    if isinstance(elem, float):
        return _creation.tensor(list(batch), dtype=_creation._dtypes.float64)
    if isinstance(elem, int):
        return _creation.tensor(list(batch))
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        fields = {key: default_collate([d[key] for d in batch]) for key in elem}
        return _same_container(elem, fields)
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # a namedtuple keeps its type
        return type(elem)(*(default_collate(samples) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        if any(len(e) != len(elem) for e in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        fields = [default_collate(samples) for samples in zip(*batch)]  # (strings stay a tuple, as in PyTorch)
        return fields if isinstance(elem, tuple) else _same_container(elem, fields)
    raise TypeError(_COLLATE_ERROR.format(type(elem)))


def _same_container(like, items):
    """``items`` (a dict or a list) in a container of ``like``'s type when that type allows it, as PyTorch does."""
    try:
        if isinstance(like, (collections.abc.MutableMapping, collections.abc.MutableSequence)):
            clone = copy.copy(like)  # (a subclass may carry extra attributes: keep them)
            if isinstance(like, collections.abc.MutableMapping):
                clone.update(items)
            else:
                for i, item in enumerate(items):
                    clone[i] = item
            return clone
        return type(like)(items)
    except TypeError:  # a type without copy/update/__init__(iterable), such as range
        return items


def default_convert(data):
    """One sample as the DataLoader gives it without batching (NumPy arrays and scalars become tensors)."""
    from ... import _creation
    if isinstance(data, Tensor):
        return data
    if type(data).__module__ == "numpy" and type(data).__name__ not in ("str_", "string_"):
        if isinstance(data, np.ndarray) and _NP_STR_OBJ.search(data.dtype.str) is not None:
            return data
        return _creation.as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return _same_container(data, {key: default_convert(data[key]) for key in data})
    if isinstance(data, tuple) and hasattr(data, "_fields"):  # a namedtuple keeps its type
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return _same_container(data, [default_convert(d) for d in data])
    return data


class DataLoader(metaclass=TorchNamed):
    """Batches of ``batch_size`` samples from ``dataset``, in order or shuffled (one pass per ``iter``)."""

    def __init__(self, dataset, batch_size: int | None = 1, shuffle: bool | None = None, sampler=None,
                 batch_sampler=None, num_workers: int = 0, collate_fn=None, pin_memory: bool = False,
                 drop_last: bool = False, timeout: float = 0, worker_init_fn=None, multiprocessing_context=None,
                 generator=None, *, prefetch_factor=None, persistent_workers: bool = False,
                 pin_memory_device: str = "", in_order: bool = True) -> None:
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 "
                             "to enable multiprocessing, otherwise set prefetch_factor to None.")
        if num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        self._iterable = isinstance(dataset, IterableDataset)
        self._IterableDataset_len_called = None
        if self._iterable:
            if shuffle not in (False, None):
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle option, but got "
                                 f"shuffle={shuffle}")
            if sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified sampler option, but got "
                                 f"sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified batch_sampler option, but "
                                 f"got batch_sampler={batch_sampler}")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None and (batch_size != 1 or shuffle or sampler is not None or drop_last):
            raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and "
                             "drop_last")
        if batch_sampler is None and batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with drop_last")
        self.dataset, self.num_workers, self.drop_last, self.generator = dataset, num_workers, drop_last, generator
        self.pin_memory, self.timeout, self.worker_init_fn = pin_memory, timeout, worker_init_fn
        self.pin_memory_device, self.in_order = pin_memory_device, in_order
        self.prefetch_factor, self.persistent_workers = prefetch_factor, persistent_workers
        if multiprocessing_context is not None and num_workers == 0:
            raise ValueError("multiprocessing_context can only be used with multi-process loading (num_workers > 0), "
                             f"but got num_workers={num_workers}")
        self.multiprocessing_context = multiprocessing_context
        if sampler is None:
            if self._iterable:  # (PyTorch's _InfiniteConstantSampler: batches are cut from the stream)
                sampler = _InfiniteConstantSampler()
            else:
                sampler = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
        if batch_sampler is not None:
            batch_size, drop_last = None, False
            self.drop_last = False
        elif batch_size is not None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size, self.sampler, self.batch_sampler = batch_size, sampler, batch_sampler
        if collate_fn is None:
            collate_fn = default_collate if batch_sampler is not None else default_convert
        self.collate_fn = collate_fn

    def __iter__(self):
        # PyTorch's loader iterator first draws a base seed for worker processes (64 bits from the loader's
        # generator or the global one): every pass over a loader advances that random stream.
        Tensor._make(np.zeros((), dtype=np.int64)).random_(generator=self.generator)
        return _SingleProcessDataLoaderIter(self)

    def _batches(self):
        if self._iterable:  # PyTorch's _IterableDatasetFetcher
            stream = iter(self.dataset)
            if self.batch_size is None:
                for sample in stream:
                    yield self.collate_fn(sample)
                return
            while True:
                batch = [sample for _, sample in zip(range(self.batch_size), stream)]
                if not batch or (self.drop_last and len(batch) < self.batch_size):
                    return
                yield self.collate_fn(batch)
                if len(batch) < self.batch_size:
                    return
        if self.batch_sampler is None:
            for idx in self.sampler:
                yield self.collate_fn(self.dataset[idx])
            return
        fetch_many = getattr(self.dataset, "__getitems__", None)   # (PyTorch's _MapDatasetFetcher)
        for indices in self.batch_sampler:
            yield self.collate_fn(fetch_many(indices) if fetch_many else [self.dataset[i] for i in indices])

    def __len__(self) -> int:
        if self._iterable:  # (remembered: the next passes warn when the dataset yields more than it said)
            length = self._IterableDataset_len_called = len(self.dataset)
            if self.batch_size is not None:
                length = length // self.batch_size if self.drop_last else -(-length // self.batch_size)
            return length
        return len(self.batch_sampler if self.batch_sampler is not None else self.sampler)

    def __repr__(self) -> str:
        return f"<torch.utils.data.dataloader.DataLoader object at {hex(id(self))}>"
