"""Anomaly mode: find the forward line behind a failing backward node, and stop at the first NaN.

While anomaly mode is on, every recorded node keeps the Python stack of the forward call that
created it (``_record_trace``). In backward the engine runs each node through
``_run_with_anomaly_check``: a node that returns NaN raises
``RuntimeError("Function 'MulBackward0' returned nan values in its 0th output.")``, and whatever
error a node raises is preceded by a warning showing that forward stack, as PyTorch does.
"""
from __future__ import annotations

import os
import threading
import traceback
import warnings

import numpy as np

from .._class_names import TorchNamed, object_repr

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled", "is_anomaly_check_nan_enabled",
           "set_anomaly_enabled"]

_enabled = [False]
_check_nan = [True]


class _CurrentNode(threading.local):
    """The node this thread's backward pass is running (the "parent" of nodes made by create_graph): per thread, as
    PyTorch's, so that another thread's pass does not become the parent of this one's nodes."""

    node = None


_current_node = _CurrentNode()

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def is_anomaly_enabled() -> bool:
    """True while anomaly detection is on."""
    return _enabled[0]


def is_anomaly_check_nan_enabled() -> bool:
    """True if anomaly detection also raises on NaN gradients."""
    return _check_nan[0]


def set_anomaly_enabled(*args, **kwargs) -> None:
    """Turn anomaly detection on or off: ``set_anomaly_enabled(enabled: bool, check_nan: bool = True)``."""
    from .. import _dispatch
    from .._arg_errors import REQUIRED, bind, must_be
    from . import engine
    # (PyTorch's C binding: its parser's errors, a keyword argument's without a position; real bools only,
    # checked before any change)
    bound = bind("set_anomaly_enabled", args, kwargs, {"enabled": REQUIRED, "check_nan": True})
    for arg, (value, position) in bound.items():
        if not isinstance(value, bool):
            raise must_be("set_anomaly_enabled", arg, "bool", value, position)
    enabled, check_nan = bound["enabled"][0], bound["check_nan"][0]
    _enabled[0] = _dispatch._anomaly_enabled[0] = engine._anomaly[0] = enabled
    _check_nan[0] = check_nan


class detect_anomaly(metaclass=TorchNamed):
    """Context manager turning anomaly detection on."""

    def __init__(self, check_nan: bool = True) -> None:
        self.prev = _enabled[0]
        self.check_nan = check_nan
        self.prev_check_nan = _check_nan[0]
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime and should only be "
                      "enabled for debugging.", stacklevel=2)

    def __enter__(self) -> None:
        set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *exc) -> None:
        set_anomaly_enabled(self.prev, self.prev_check_nan)

    # (no __call__: PyTorch's detect_anomaly is not a decorator, ``@detect_anomaly()`` raises TypeError)

    __repr__ = object_repr  # <torch.autograd.anomaly_mode.detect_anomaly object at 0x...>


class set_detect_anomaly(metaclass=TorchNamed):
    """Set anomaly detection on or off; usable as a function or as a context manager."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.prev = _enabled[0]
        self.prev_check_nan = _check_nan[0]
        set_anomaly_enabled(mode, check_nan)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> None:
        set_anomaly_enabled(self.prev, self.prev_check_nan)

    __repr__ = object_repr


# ---- hooks called by the dispatcher (forward) and the engine (backward) --------------------------

def _record_trace(node) -> None:
    """Remember where in the user's code ``node`` was created (minigrad's own frames are dropped)."""
    stack = [f for f in traceback.extract_stack()[:-1] if not f.filename.startswith(_PACKAGE_DIR)]
    node._anomaly_trace = (stack, _current_node.node)


def _trace_metadata(trace) -> dict:
    """PyTorch's anomaly entries of ``node.metadata``: the forward stack, and the node whose backward made it."""
    stack, parent = trace
    meta = {"traceback_": traceback.format_list(stack)}
    if parent is not None:
        meta["parent_"] = parent
    return meta


def _run_with_anomaly_check(node, grads: tuple) -> tuple:
    """``node._apply(grads)``, raising on NaN outputs (the engine warns with the forward trace on any error:
    ``_warn_trace``)."""
    prev = _current_node.node
    _current_node.node = node
    try:
        outputs = node._apply(grads)
        if _check_nan[0]:
            for i, g in enumerate(outputs):
                if g is not None and np.isnan(g._data).any():
                    raise RuntimeError(f"Function '{type(node).name(node)}' returned nan values in its {i}th output.")
        return outputs
    finally:
        _current_node.node = prev


def _warn_trace(node) -> None:
    """The warnings of an error raised while ``node`` ran in backward (its hooks included)."""
    for msg in _trace_messages(node):
        warnings.warn(msg, stacklevel=3)


# PyTorch raises these warnings from C++ (TORCH_WARN), which appends where in its source they came from.
_TRIGGERED = " (Triggered internally at /__w/pytorch/pytorch/torch/csrc/autograd/python_anomaly_mode.cpp:{}.)"


def _trace_messages(node) -> list[str]:
    """The warnings PyTorch gives for an error in ``node``: its forward trace, then one per parent calculation."""
    trace = node._anomaly_trace
    if trace is None:
        return [f"Error detected in {type(node).name(node)}. No forward pass information available. Enable detect "
                "anomaly during forward pass for more information." + _TRIGGERED.format(100)]
    stack, parent = trace
    msgs = [f"Error detected in {type(node).name(node)}. Traceback of forward call that caused the error:\n"
            + "".join(traceback.format_list(stack)) + _TRIGGERED.format(122)]
    # A node created by a backward formula (create_graph=True) also shows what that backward came from.
    while parent is not None and parent._anomaly_trace is not None:
        stack, grandparent = parent._anomaly_trace
        msgs.append(f"\n\nPrevious calculation was induced by {type(parent).name(parent)}. Traceback of forward "
                    "call that induced the previous calculation:\n" + "".join(traceback.format_list(stack))
                    + _TRIGGERED.format(129))
        parent = grandparent
    return msgs
