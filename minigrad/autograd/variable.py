"""Variable: the deprecated pre-0.4 wrapper; ``Variable(t)`` now simply returns a tensor."""
from __future__ import annotations

import warnings

from .._class_names import TorchNamed


class VariableMeta(TorchNamed):
    def __instancecheck__(cls, other) -> bool:
        from .._tensor import Tensor
        return isinstance(other, Tensor)


class _LegacyVariableBase(metaclass=TorchNamed):
    """``torch._C._LegacyVariableBase``, the C base of Variable: here a name in its MRO only."""


_LegacyVariableBase.__module__ = "minigrad._C"  # (prints as torch._C._LegacyVariableBase; minigrad._C re-exports it)


class Variable(_LegacyVariableBase, metaclass=VariableMeta):
    """Deprecated: tensors are Variables. ``Variable(t, requires_grad=True)`` returns a tensor."""

    def __new__(cls, data=None, requires_grad: bool = False, volatile: bool = False, **kwargs):
        from .._tensor import Tensor
        for key in kwargs:  # (PyTorch's C constructor also takes _grad_fn, _output_nr and name: left out here)
            raise TypeError(f"'{key}' is an invalid keyword argument for this function")
        if volatile:
            warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` instead.",
                          UserWarning, stacklevel=2)
            if requires_grad:
                raise ValueError("Variable can't be volatile and require_grad at the same time!")
        if data is None:
            from .._creation import empty
            return empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        t = data.detach()
        if requires_grad and not (t.dtype.is_floating_point or t.dtype.is_complex):
            # (PyTorch's Variable constructor words it so; requires_grad_ says it differently)
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t.requires_grad_(requires_grad)
        return t


def _attach_engine() -> None:
    from .engine import ENGINE
    Variable._execution_engine = ENGINE  # (PyTorch's engine object: programs call queue_callback on it)


_attach_engine()
