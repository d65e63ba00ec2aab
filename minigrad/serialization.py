"""torch.save / torch.load: tensors, state dicts and plain Python objects in a file (a pickle).

PyTorch writes a zip archive; minigrad writes a plain pickle, so files round-trip within minigrad only.
"""
from __future__ import annotations

import os
import pickle

from . import _dtypes
from ._class_names import TorchNamed


def save(obj, f, pickle_module=pickle, pickle_protocol: int = 2, _use_new_zipfile_serialization: bool = True,
         _disable_byteorder_record: bool = False) -> None:
    """Write ``obj`` to ``f`` (a path or a binary file object)."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as fh:
            pickle_module.dump(obj, fh, protocol=pickle_protocol)
    else:
        pickle_module.dump(obj, f, protocol=pickle_protocol)


def load(f, map_location=None, pickle_module=None, *, weights_only: bool | None = None, mmap=None,
         **pickle_load_args):
    """Read back what ``save`` wrote (``map_location`` is accepted; everything is on the CPU).

    As PyTorch (since 2.6) ``weights_only`` defaults to True: only tensors, containers, numbers and the other
    allowed globals load; anything else (a whole pickled module, an object of a user's class) fails with
    PyTorch's UnpicklingError unless ``weights_only=False`` or the class is added with ``add_safe_globals``.
    """
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as fh:
            return load(fh, map_location, pickle_module, weights_only=weights_only, mmap=mmap, **pickle_load_args)
    if weights_only is False or (weights_only is None and pickle_module is not None):
        return (pickle if pickle_module is None else pickle_module).load(f, **pickle_load_args)
    return _WeightsUnpickler(f, **pickle_load_args).load()


# ---- weights_only loading: the globals a checkpoint of tensors may name --------------------------------------

_ALLOWED = {
    ("_codecs", "encode"), ("collections", "OrderedDict"), ("collections", "Counter"),
    ("minigrad._tensor", "_rebuild_tensor"), ("minigrad._tensor", "Size"),
    ("minigrad.nn.parameter", "_rebuild_parameter"), ("minigrad.sparse", "_rebuild_sparse"),
    ("minigrad._dtypes", "_by_name"), ("minigrad._device", "device"),
    ("numpy", "dtype"), ("numpy", "ndarray"), ("numpy._core.multiarray", "_reconstruct"),
    ("numpy.core.multiarray", "_reconstruct"), ("ml_dtypes", "bfloat16"),
    ("builtins", "set"), ("builtins", "complex"), ("builtins", "bytearray"),
    ("__builtin__", "set"), ("__builtin__", "complex"), ("__builtin__", "bytearray"),
} | {("minigrad", d.name) for d in _dtypes.ALL}   # (dtypes pickle by name: minigrad.float32, as torch.float32)
_USER_SAFE: list = []   # add_safe_globals's classes and functions


def _shown(module: str, name: str) -> str:
    if module == "minigrad" or module.startswith("minigrad."):
        module = "torch" + module[len("minigrad"):]
    return name if module in ("builtins", "__builtin__") else f"{module}.{name}"


class _WeightsUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str):
        if (module, name) in _ALLOWED or module.startswith("numpy.dtypes"):
            return super().find_class(module, name)
        for obj in _USER_SAFE:
            if getattr(obj, "__module__", None) == module and getattr(obj, "__qualname__", None) == name:
                return obj
        shown = _shown(module, name)
        raise pickle.UnpicklingError(
            "Weights only load failed. This file can still be loaded, to do so you have two options, \x1b[1mdo "
            "those steps only if you trust the source of the checkpoint\x1b[0m. \n\t(1) In PyTorch 2.6, we changed "
            "the default value of the `weights_only` argument in `torch.load` from `False` to `True`. Re-running "
            "`torch.load` with `weights_only` set to `False` will likely succeed, but it can result in arbitrary code "
            "execution. Do it only if you got the file from a trusted source.\n\t(2) Alternatively, to load with "
            "`weights_only=True` please check the recommended steps in the following error message.\n\t"
            f"WeightsUnpickler error: Unsupported global: GLOBAL {shown} was not an allowed global by default. Please "
            f"use `torch.serialization.add_safe_globals([{shown}])` or the "
            f"`torch.serialization.safe_globals([{shown}])` context manager to allowlist this global if you trust "
            "this class/function.\n\nCheck the documentation of torch.load to learn more about types accepted by "
            "default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")


def add_safe_globals(safe_globals: list) -> None:
    """Allow these classes and functions in ``torch.load(..., weights_only=True)``."""
    _USER_SAFE.extend(safe_globals)


def get_safe_globals() -> list:
    """The classes and functions add_safe_globals allowed."""
    return list(_USER_SAFE)


def clear_safe_globals() -> None:
    """Forget what add_safe_globals allowed."""
    _USER_SAFE.clear()


class safe_globals(metaclass=TorchNamed):
    """Context manager: allow these globals for the loads inside the ``with`` block."""

    def __init__(self, safe_globals: list) -> None:
        self.safe_globals = list(safe_globals)

    def __enter__(self):
        self._saved = list(_USER_SAFE)
        _USER_SAFE.extend(self.safe_globals)

    def __exit__(self, *exc) -> None:
        _USER_SAFE[:] = self._saved
