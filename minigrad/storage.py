"""``torch.storage``: the memory under a tensor, as ``Tensor.untyped_storage()`` (bytes) and the deprecated
``Tensor.storage()`` (elements) show it. A storage is the whole memory of the array that owns a tensor's data,
so views of one tensor share it (same ``data_ptr()``), and a copy has its own."""
from __future__ import annotations

import weakref

import numpy as np

from ._class_names import CTypeNamed
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


_NO_SRC = object()   # (copy_ without its argument: PyTorch's parser names the missing one)


def _type_name(value) -> str:
    from ._arg_errors import type_name
    return type_name(value)


def _one_argument(name: str, args: tuple, kwargs: dict):
    """The one argument of a C method CPython calls with METH_O, or its TypeError (naming PyTorch's StorageBase)."""
    if kwargs:
        raise TypeError(f"StorageBase.{name}() takes no keyword arguments")
    if len(args) != 1:
        raise TypeError(f"StorageBase.{name}() takes exactly one argument ({len(args)} given)")
    return args[0]


class UntypedStorage(metaclass=CTypeNamed):   # (messages name it 'torch.storage.UntypedStorage')
    """A tensor's memory as bytes: ``len`` and ``size()`` count bytes, ``s[i]`` is a byte."""

    _torch_name = "torch.storage.UntypedStorage"

    def __init__(self, data: np.ndarray | int = 0, kind: str | None = None, root=None):
        if isinstance(data, int):   # (torch.UntypedStorage(n): n bytes, zeros here)
            data = np.zeros(data, np.uint8)
        # (root: a weak reference to the tensor owning the memory, whose flags tell whether NumPy shares it: resize_)
        self._bytes, self._kind, self._root = _flat(data).view(np.uint8), kind, root

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
            part._bytes, part._kind, part._root = self._bytes[start:max(start, stop)], self._kind, self._root
            part._sliced = True   # (PyTorch's slice wraps memory it does not own: it cannot be resized)
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

    # ---- writing: the tensors on this memory see the bytes change (no version bump, no autograd check: PyTorch's
    # storage methods go under autograd); argument errors as PyTorch's C methods word them (METH_O: one argument)

    def fill_(self, *args, **kwargs) -> UntypedStorage:
        """Set every byte to ``value`` (an int, kept modulo 256)."""
        value = _one_argument("fill_", args, kwargs)
        if not isinstance(value, int):   # (PyLong_Check: a bool passes, a NumPy integer does not)
            raise RuntimeError(f"fill_ expects int, but got {_type_name(value)}")
        if self._kind is None:
            self._bytes[...] = value & 0xFF
        return self

    def copy_(self, src=_NO_SRC, non_blocking: bool | None = None) -> UntypedStorage:
        """Copy ``src``'s bytes (a storage of the same size in bytes) into this one."""
        if src is _NO_SRC:
            raise TypeError('copy_() missing 1 required positional arguments: "src"')
        if not isinstance(src, (UntypedStorage, TypedStorage)):
            raise TypeError(f"copy_(): argument 'src' (position 1) must be torch.Storage, not {_type_name(src)}")
        if not isinstance(non_blocking, bool) and non_blocking is not None:
            raise TypeError(f"copy_(): argument 'non_blocking' (position 2) must be bool, not "
                            f"{_type_name(non_blocking)}")
        if src.nbytes() != self.nbytes():
            raise RuntimeError(f"size does not match, self was {self.nbytes()} bytes but src was {src.nbytes()} bytes")
        if self._kind is None and src._kind is None:   # (a meta storage has no bytes to copy)
            source = src._bytes if isinstance(src, UntypedStorage) else src._values.view(np.uint8)
            self._bytes[...] = source
        return self

    def resize_(self, *args, **kwargs) -> UntypedStorage:
        """Grow or shrink the storage to ``size`` bytes, keeping the bytes it had (new ones zero here; PyTorch leaves
        them uninitialised). Only this storage object moves to the new memory: the tensors on the old memory stay
        on it (PyTorch's follow the storage)."""
        size = _one_argument("resize_", args, kwargs)
        if isinstance(size, bool) or not isinstance(size, (int, np.integer)):   # (THPUtils_checkLong)
            raise RuntimeError(f"resize_ expects an int, but got {_type_name(size)}")
        if getattr(self, "_sliced", False):
            raise RuntimeError("Trying to resize storage that is not resizable")
        from . import _strides
        root = self._root() if self._root is not None else None
        # (memory shared with NumPy: from_numpy's, or a tensor's after numpy(); see _strides.mark_not_resizable)
        _strides.check_resizable(self._bytes, root is not None and (root._shared_with_numpy
                                                                   or len(root._version_counter) > 1))
        if size < 0:
            raise RuntimeError("[enforce fail at alloc_cpu.cpp:98] ((ptrdiff_t)nbytes) >= 0. alloc_cpu() seems to have "
                               f"been called with negative number: {int(size) + 2**64}")
        grown = np.zeros(int(size), np.uint8)
        kept = min(int(size), self._bytes.size)
        grown[:kept] = self._bytes[:kept]
        self._bytes, self._root = grown, None
        return self

    def __str__(self) -> str:
        if self._kind == "meta":
            return f"...\n[torch.storage.UntypedStorage(device=meta) of size {len(self)}]"
        data = " " + "\n ".join(str(v) for v in self.tolist())
        return f"{data}\n[torch.storage.UntypedStorage(device=cpu) of size {len(self)}]"

    __repr__ = __str__


class TypedStorage(metaclass=CTypeNamed):
    """A tensor's memory as elements of its dtype (deprecated in PyTorch: ``untyped_storage()`` replaces it)."""

    _torch_name = "torch.storage.TypedStorage"

    def __init__(self, data: np.ndarray, dtype, kind: str | None = None, root=None):
        self._values, self.dtype, self._kind, self._root = _flat(data), dtype, kind, root

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
        return UntypedStorage(self._values, self._kind, self._root)

    # ---- writing (PyTorch's Python methods: each warns, then writes through a tensor or the untyped storage)

    def fill_(self, value) -> TypedStorage:
        """Set every element to ``value`` (converted as a tensor's ``t[:] = value`` converts it)."""
        _warn_once("TypedStorage", _TYPED_WARNING, honours_warn_always=False)
        from ._tensor import Tensor
        if self._kind is None:
            Tensor._make(self._values)[:] = value
        return self

    def copy_(self, source, non_blocking: bool | None = None) -> TypedStorage:
        """Copy ``source``'s bytes (a storage of as many bytes, whatever its dtype) into this one."""
        _warn_once("TypedStorage", _TYPED_WARNING, honours_warn_always=False)
        self.untyped().copy_(source.untyped() if isinstance(source, TypedStorage) else source, non_blocking)
        return self

    def resize_(self, size) -> None:
        """Grow or shrink the storage to ``size`` elements (see UntypedStorage.resize_)."""
        _warn_once("TypedStorage", _TYPED_WARNING, honours_warn_always=False)
        untyped = self.untyped().resize_(size * self._values.itemsize)
        self._values, self._root = untyped._bytes.view(self._values.dtype), None

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
    return UntypedStorage(tensor._data, _kind(tensor), weakref.ref(tensor if tensor._base is None else tensor._base))


def storage(tensor) -> TypedStorage:
    """The memory under ``tensor`` as elements of its dtype, with PyTorch's deprecation warning (once: a Python
    warning of torch.storage with its own flag, which torch.set_warn_always does not change)."""
    _warn_once("TypedStorage", _TYPED_WARNING, honours_warn_always=False)
    from . import _vmap_batched
    if _vmap_batched.DEPTH[0]:
        _vmap_batched.check_no_storage_object(tensor)
    return TypedStorage(tensor._data, tensor.dtype, _kind(tensor),
                        weakref.ref(tensor if tensor._base is None else tensor._base))
