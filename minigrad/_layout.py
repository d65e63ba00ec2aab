"""torch.layout and torch.memory_format: the named constants (minigrad tensors are always strided)."""
from __future__ import annotations

from ._class_names import CTypeNamed


class _Constant(metaclass=CTypeNamed):
    """A named singleton that prints as ``torch.<name>``, like PyTorch's C constants (Python's messages name its
    type ``torch.layout``: see CTypeNamed)."""

    __slots__ = ("_name",)
    _instances: dict

    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        return f"torch.{self._name}"

    def __reduce__(self):
        return (_lookup, (type(self).__name__, self._name))


class layout(_Constant):
    """How a tensor's elements are stored (``torch.strided``: dense, with strides)."""

    __slots__ = ()
    _torch_name = "torch.layout"


class memory_format(_Constant):
    """The order ``contiguous``/``clone``/``empty_like`` lay the elements out in."""

    __slots__ = ()
    _torch_name = "torch.memory_format"


strided = layout("strided")
sparse_coo = layout("sparse_coo")
sparse_csr = layout("sparse_csr")
sparse_csc = layout("sparse_csc")
sparse_bsr = layout("sparse_bsr")
sparse_bsc = layout("sparse_bsc")
contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")
legacy_contiguous_format = contiguous_format  # (PyTorch's alias: the same object)

NAMES = ["layout", "memory_format", "strided", "sparse_coo", "sparse_csr", "sparse_csc", "sparse_bsr", "sparse_bsc",
         "contiguous_format", "preserve_format", "channels_last", "channels_last_3d", "legacy_contiguous_format"]


def _lookup(kind: str, name: str):
    return globals()[name]
