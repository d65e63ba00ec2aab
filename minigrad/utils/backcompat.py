"""torch.utils.backcompat: switches for warnings about behaviour that changed long ago (broadcasting, keepdim).

PyTorch keeps them as settings only (no operation warns any more); so does minigrad.
"""
from .._class_names import TorchNamed, object_repr

_enabled = {"broadcast": False, "keepdim": False}


class Warning(metaclass=TorchNamed):  # noqa: A001  (PyTorch's name)
    """A switch: ``torch.utils.backcompat.broadcast_warning.enabled = True``."""

    def __init__(self, name: str) -> None:
        self._name = name

    def set_enabled(self, value) -> None:
        if not isinstance(value, bool):
            raise RuntimeError(f"set_backcompat_{self._name}_warn expects a bool, but got {type(value).__name__}")
        _enabled[self._name] = value

    def get_enabled(self) -> bool:
        return _enabled[self._name]

    enabled = property(get_enabled, set_enabled)

    def __repr__(self) -> str:
        return object_repr(self)


broadcast_warning = Warning("broadcast")
keepdim_warning = Warning("keepdim")
