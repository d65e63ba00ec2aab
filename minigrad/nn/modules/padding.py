"""Padding layers: F.pad as a module, one class per mode and number of padded dims (PyTorch's padding.py).

``padding`` is an int (the same on every side) or a tuple listing the last dim first:
(left, right), (left, right, top, bottom), (left, right, top, bottom, front, back).
"""
from __future__ import annotations

from collections.abc import Sequence

from ..._tensor import Tensor
from .. import functional as F
from .module import Module


def _ntuple(value, n: int) -> tuple:
    """An int as n copies, a sequence as a tuple (PyTorch's _pair / _quadruple / _ntuple(6))."""
    return tuple(value) if isinstance(value, Sequence) else (value,) * n


# (each of the four bases below derives from Module directly, as PyTorch's do: a shared base class would show in
# type(m).__mro__ and in isinstance checks; ``_dims`` is set by the concrete classes)
def _init_padding(module: Module, padding) -> None:
    module.padding = _ntuple(padding, 2 * module._dims)


class _CircularPadNd(Module):
    """Wraps around: the left padding repeats the input's right end, and so on."""

    _dims = 1

    def __init__(self, padding) -> None:
        super().__init__()
        _init_padding(self, padding)

    def forward(self, input: Tensor) -> Tensor:
        if input.dim() not in (self._dims + 1, self._dims + 2):
            raise ValueError(f"expected {self._dims + 1}D or {self._dims + 2}D input (got {input.dim()}D input)")
        return F.pad(input, self.padding, "circular")

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ConstantPadNd(Module):
    """Pads with ``value``."""

    _dims = 1

    def __init__(self, padding, value: float) -> None:
        super().__init__()
        _init_padding(self, padding)
        self.value = value

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class _ReflectionPadNd(Module):
    """Mirrors the input at its edges (the edge element itself not repeated)."""

    _dims = 1

    def __init__(self, padding) -> None:
        super().__init__()
        _init_padding(self, padding)

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, "reflect")

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ReplicationPadNd(Module):
    """Repeats the input's edge elements."""

    _dims = 1

    def __init__(self, padding) -> None:
        super().__init__()
        _init_padding(self, padding)

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, "replicate")

    def extra_repr(self) -> str:
        return f"{self.padding}"


class CircularPad1d(_CircularPadNd):
    """Circular padding of the last dim."""

    _dims = 1


class CircularPad2d(_CircularPadNd):
    """Circular padding of the last two dims."""

    _dims = 2


class CircularPad3d(_CircularPadNd):
    """Circular padding of the last three dims."""

    _dims = 3


class ConstantPad1d(_ConstantPadNd):
    """Constant padding of the last dim."""

    _dims = 1


class ConstantPad2d(_ConstantPadNd):
    """Constant padding of the last two dims."""

    _dims = 2


class ConstantPad3d(_ConstantPadNd):
    """Constant padding of the last three dims."""

    _dims = 3


class ReflectionPad1d(_ReflectionPadNd):
    """Reflection padding of the last dim."""

    _dims = 1


class ReflectionPad2d(_ReflectionPadNd):
    """Reflection padding of the last two dims."""

    _dims = 2


class ReflectionPad3d(_ReflectionPadNd):
    """Reflection padding of the last three dims."""

    _dims = 3


class ReplicationPad1d(_ReplicationPadNd):
    """Replication padding of the last dim."""

    _dims = 1


class ReplicationPad2d(_ReplicationPadNd):
    """Replication padding of the last two dims."""

    _dims = 2


class ReplicationPad3d(_ReplicationPadNd):
    """Replication padding of the last three dims."""

    _dims = 3


class ZeroPad1d(ConstantPad1d):
    """Zero padding of the last dim."""

    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    """Zero padding of the last two dims."""

    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad3d(ConstantPad3d):
    """Zero padding of the last three dims."""

    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"
