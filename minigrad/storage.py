"""``torch.storage``: the memory under a tensor, as ``Tensor.untyped_storage()`` (bytes) and the deprecated
``Tensor.storage()`` (elements) show it. A storage is the whole memory of the array that owns a tensor's data,
so views of one tensor share it (same ``data_ptr()``), and a copy has its own."""
from __future__ import annotations

import numpy as np

from ._class_names import TorchNamed
from ._warn_once import warn_once as _warn_once

_TYPED_WARNING = ("TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the only "
                  "storage class. This should only matter to you if you are using storages directly.  To access "
                  "UntypedStorage directly, use tensor.untyped_storage() instead of tensor.storage()")


def _flat(data: np.ndarray) -> np.ndarray:
    """The owner's memory as a flat array of ``data``'s dtype (see ``derivatives._storage``)."""
    from .derivatives import _storage
    return _storage(data)[0]


class UntypedStorage(metaclass=TorchNamed):
    """A tensor's memory as bytes: ``len`` and ``size()`` count bytes, ``s[i]`` is a byte."""

    _torch_name = "torch.storage.UntypedStorage"

    def __init__(self, data: np.ndarray):
        self._bytes = _flat(data).view(np.uint8)

    def data_ptr(self) -> int:
        """Address of the storage's first byte (shared by every view of the memory); 0 when empty, as PyTorch."""
        return self._bytes.__array_interface__["data"][0] if self._bytes.size else 0

    def nbytes(self) -> int:
        """Size in bytes."""
        return int(self._bytes.size)

    size = nbytes

    def __len__(self) -> int:
        return self.nbytes()

    def element_size(self) -> int:
        """1: the elements of an untyped storage are bytes."""
        return 1

    @property
    def device(self):
        from ._device import device
        return device("cpu")

    def is_shared(self) -> bool:
        """False: minigrad's memory is never shared between processes."""
        return False

    def __getitem__(self, i):
        return int(self._bytes[i]) if not isinstance(i, slice) else self._bytes[i].tolist()

    def tolist(self) -> list:
        """The bytes as Python ints."""
        return self._bytes.tolist()

    def __str__(self) -> str:
        data = " " + "\n ".join(str(v) for v in self._bytes.tolist())
        return f"{data}\n[torch.storage.UntypedStorage(device=cpu) of size {len(self)}]"

    __repr__ = __str__


class TypedStorage(metaclass=TorchNamed):
    """A tensor's memory as elements of its dtype (deprecated in PyTorch: ``untyped_storage()`` replaces it)."""

    _torch_name = "torch.storage.TypedStorage"

    def __init__(self, data: np.ndarray, dtype):
        self._values, self.dtype = _flat(data), dtype

    def data_ptr(self) -> int:
        """Address of the storage's first element; 0 when empty, as PyTorch."""
        return self._values.__array_interface__["data"][0] if self._values.size else 0

    def size(self) -> int:
        """Number of elements."""
        return int(self._values.size)

    def __len__(self) -> int:
        return self.size()

    def nbytes(self) -> int:
        """Size in bytes."""
        return int(self._values.nbytes)

    def element_size(self) -> int:
        """Bytes per element."""
        return self._values.itemsize

    @property
    def device(self):
        from ._device import device
        return device("cpu")

    def untyped(self) -> UntypedStorage:
        """The same memory as bytes."""
        return UntypedStorage(self._values)

    def __getitem__(self, i):
        return self._values[i].item() if not isinstance(i, slice) else self._values[i].tolist()

    def tolist(self) -> list:
        """The elements as Python numbers."""
        return self._values.tolist()

    def __str__(self) -> str:
        data = " " + "\n ".join(str(v) for v in self._values.tolist())
        return f"{data}\n[torch.storage.TypedStorage(dtype={self.dtype}, device=cpu) of size {len(self)}]"

    __repr__ = __str__


def untyped_storage(tensor) -> UntypedStorage:
    """The memory under ``tensor`` as bytes (shared with its views)."""
    return UntypedStorage(tensor._data)


def storage(tensor) -> TypedStorage:
    """The memory under ``tensor`` as elements of its dtype, with PyTorch's deprecation warning (once: a Python
    warning of torch.storage with its own flag, which torch.set_warn_always does not change)."""
    _warn_once("TypedStorage", _TYPED_WARNING, honours_warn_always=False)
    from . import _vmap_batched
    if _vmap_batched.DEPTH[0]:
        _vmap_batched.check_no_storage_object(tensor)
    return TypedStorage(tensor._data, tensor.dtype)
