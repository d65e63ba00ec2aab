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


_NOT_ALLOCATED = ("The tensor has a non-zero number of elements, but its data is not allocated yet.\nIf you're using "
                  "torch.compile/export/fx, it is likely that we are erroneously tracing into a custom kernel. To fix "
                  "this, please wrap the custom kernel into an opaque custom op. Please see the following for details: "
                  "https://pytorch.org/tutorials/advanced/custom_ops_landing_page.html\nIf you're using Caffe2, Caffe2 "
                  "uses a lazy allocation, so you will need to call mutable_data() or raw_mutable_data() to actually "
                  "allocate memory.")


def _kind(tensor) -> str | None:
    """"meta" for a meta tensor's storage, "zero" for a ZeroTensor's (no memory behind it), None for memory."""
    from . import _meta, _zerotensor
    if _meta.is_meta(tensor):
        return "meta"
    return "zero" if _zerotensor.is_zero(tensor) and _flat(tensor._data).size else None


def _check_readable(kind: str | None) -> None:
    """PyTorch's refusal to read the bytes of a storage without data (a ZeroTensor's, a meta tensor's)."""
    if kind == "zero":
        raise RuntimeError(_NOT_ALLOCATED)
    if kind == "meta":
        raise NotImplementedError("Not available for 'meta' device type")


def _data_ptr(kind: str | None, values: np.ndarray) -> int:
    """A storage's address: 0 when empty or on the meta device; a ZeroTensor's has no valid one."""
    if kind == "zero":
        raise RuntimeError("Attempted to access the data pointer on an invalid python storage.")
    return values.__array_interface__["data"][0] if values.size and kind is None else 0


def _flat(data: np.ndarray) -> np.ndarray:
    """The owner's memory as a flat array of ``data``'s dtype (see ``derivatives._storage``)."""
    from .derivatives import _storage
    return _storage(data)[0]


class UntypedStorage(metaclass=TorchNamed):
    """A tensor's memory as bytes: ``len`` and ``size()`` count bytes, ``s[i]`` is a byte."""

    _torch_name = "torch.storage.UntypedStorage"

    def __init__(self, data: np.ndarray | int = 0, kind: str | None = None):
        if isinstance(data, int):   # (torch.UntypedStorage(n): n bytes, zeros here)
            data = np.zeros(data, np.uint8)
        self._bytes, self._kind = _flat(data).view(np.uint8), kind

    def data_ptr(self) -> int:
        """Address of the storage's first byte (shared by every view of the memory); 0 when empty, as PyTorch."""
        return _data_ptr(self._kind, self._bytes)

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
        return device("meta" if self._kind == "meta" else "cpu")

    def is_shared(self) -> bool:
        """False: minigrad's memory is never shared between processes."""
        return False

    def __getitem__(self, i):
        """A byte (an index wrapped once if negative), or a storage sharing the bytes of a slice (step 1)."""
        _check_readable(self._kind)
        n = len(self)
        if isinstance(i, slice):
            start, stop, step = i.indices(n)
            if step != 1:
                raise RuntimeError(f"Trying to slice with a step of {step}, but only a step of 1 is supported")
            part = object.__new__(UntypedStorage)   # (those bytes themselves, not their owner's: see _flat)
            part._bytes, part._kind = self._bytes[start:max(start, stop)], self._kind
            return part
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
            raise TypeError(f"can't index a torch.UntypedStorage with {type(i).__name__}")
        j = int(i) + n if i < 0 else int(i)
        if not 0 <= j < n:
            raise IndexError(f"index {j} out of range for storage of size {n}")
        return int(self._bytes[j])

    def tolist(self) -> list:
        """The bytes as Python ints."""
        _check_readable(self._kind)
        return self._bytes.tolist()

    def __str__(self) -> str:
        if self._kind == "meta":
            return f"...\n[torch.storage.UntypedStorage(device=meta) of size {len(self)}]"
        data = " " + "\n ".join(str(v) for v in self.tolist())
        return f"{data}\n[torch.storage.UntypedStorage(device=cpu) of size {len(self)}]"

    __repr__ = __str__


class TypedStorage(metaclass=TorchNamed):
    """A tensor's memory as elements of its dtype (deprecated in PyTorch: ``untyped_storage()`` replaces it)."""

    _torch_name = "torch.storage.TypedStorage"

    def __init__(self, data: np.ndarray, dtype, kind: str | None = None):
        self._values, self.dtype, self._kind = _flat(data), dtype, kind

    def data_ptr(self) -> int:
        """Address of the storage's first element; 0 when empty, as PyTorch."""
        return _data_ptr(self._kind, self._values)

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
        return device("meta" if self._kind == "meta" else "cpu")

    def untyped(self) -> UntypedStorage:
        """The same memory as bytes."""
        return UntypedStorage(self._values, self._kind)

    def __getitem__(self, i):
        """An element (an index from the end if negative): PyTorch's Python TypedStorage refuses slices."""
        _check_readable(self._kind)
        if isinstance(i, slice):
            raise RuntimeError("slices are only supported in UntypedStorage.__getitem__")
        if not isinstance(i, int):
            raise RuntimeError(f"can't index a {type(self)!r} with {type(i)!r}")
        if isinstance(i, bool):
            raise TypeError(f"can't index a {type(self)!r} with {type(i)!r}")
        n = len(self)
        if not -n <= i < n:
            raise IndexError(f"index {i} out of range for storage of size {n}")
        return self._values[i].item()

    def tolist(self) -> list:
        """The elements as Python numbers."""
        _check_readable(self._kind)
        return self._values.tolist()

    def __str__(self) -> str:
        if self._kind == "meta":
            return f"...\n[torch.storage.TypedStorage(dtype={self.dtype}, device=meta) of size {len(self)}]"
        data = " " + "\n ".join(str(v) for v in self.tolist())
        return f"{data}\n[torch.storage.TypedStorage(dtype={self.dtype}, device=cpu) of size {len(self)}]"

    __repr__ = __str__


def untyped_storage(tensor) -> UntypedStorage:
    """The memory under ``tensor`` as bytes (shared with its views)."""
    return UntypedStorage(tensor._data, _kind(tensor))


def storage(tensor) -> TypedStorage:
    """The memory under ``tensor`` as elements of its dtype, with PyTorch's deprecation warning (once: a Python
    warning of torch.storage with its own flag, which torch.set_warn_always does not change)."""
    _warn_once("TypedStorage", _TYPED_WARNING, honours_warn_always=False)
    from . import _vmap_batched
    if _vmap_batched.DEPTH[0]:
        _vmap_batched.check_no_storage_object(tensor)
    return TypedStorage(tensor._data, tensor.dtype, _kind(tensor))
