"""torch.autocast: regions where listed ops run in a lower precision (bfloat16 on the CPU) or in float32.

PyTorch implements autocast as a dispatch key: inside an enabled region, each op of the policy lists
(``policy.py``) first casts its floating inputs, then runs with autocast switched off for its own inner ops.
Here the front-end of each listed op (the function PyTorch's aten op is: F.linear, torch.mm, F.mse_loss ...)
starts with

    if _AUTOCAST[0]:                                       # autocast_mode.ON, imported as _AUTOCAST
        return _autocast("linear", linear, **locals())     # autocast_mode.run: cast, then call again

so outside autocast the cost is one flag check per listed op and nothing for the others. The casts are real
ops (``ToCopyBackward0`` in the graph). A float32 leaf that requires grad (a model's weight) is cast once per
region and the cast reused (PyTorch's cache, cleared when the outermost region exits; made with grad mode on
even under no_grad, as PyTorch 2.13). ``out=`` variants are not on the lists: they run as they are.
The state is per thread, as PyTorch's (thread_local in autocast_mode.cpp): a new thread starts with autocast off,
the default dtypes and an empty cache.
"""
from __future__ import annotations

import collections.abc
import functools
import threading
import warnings
from typing import Any

import numpy as np

from .. import _dtypes
from .._per_thread import PerThreadFlag
from .._tensor import Tensor
from ..autograd.grad_mode import STATE as _GRAD
from . import policy as _policy

__all__ = ["autocast", "autocast_decorator", "custom_bwd", "custom_fwd", "is_autocast_available"]

# PyTorch's per-device defaults (the autocast_dtype array of autocast_mode.cpp).
_AVAILABLE = ("cpu", "cuda", "mtia", "maia", "xpu", "ipu", "hpu", "xla", "privateuseone", "mps")
_DTYPES = {"cpu": _dtypes.bfloat16, "cuda": _dtypes.float16, "mtia": _dtypes.float16, "maia": _dtypes.bfloat16,
           "xpu": _dtypes.float16, "ipu": _dtypes.float16, "hpu": _dtypes.bfloat16, "xla": _dtypes.bfloat16,
           "privateuseone": _dtypes.float16, "mps": _dtypes.float16}


class _State(threading.local):
    """This thread's autocast state."""

    def __init__(self) -> None:
        self.dtype = dict(_DTYPES)
        self.enabled = dict.fromkeys(_AVAILABLE, False)
        self.cache_enabled = True
        self.nesting = 0
        self.cache: dict[int, tuple[Tensor, Tensor]] = {}  # id(float32 weight) -> (the weight, its cast): see _cast


_STATE = _State()
ON = PerThreadFlag(False)  # CPU autocast on (and not switched off inside a listed op): what the front-ends check


def _device_type(device_type, fn: str) -> str:
    """The device type of a string such as "cpu" or "cuda:0" (PyTorch's device-string errors)."""
    if not isinstance(device_type, str):
        raise TypeError(f"{fn}(): argument 'device_type' (position 1) must be str, not {type(device_type).__name__}")
    from .._device import device
    return device(device_type).type


def _checked(device_type, fn: str) -> str:
    kind = _device_type(device_type, fn)
    if kind not in _AVAILABLE:
        raise RuntimeError("unknown device type for autocast in get_autocast_dispatch_key_from_device_type")
    return kind


def is_autocast_available(device_type: str) -> bool:
    """True for the device types autocast supports (cpu, cuda, xpu, mps ...)."""
    return _device_type(device_type, "_is_autocast_available") in _AVAILABLE


def is_autocast_enabled(*args) -> bool:
    """Whether autocast is on for a device type (no argument: CUDA, as in PyTorch)."""
    if len(args) > 1 or (args and not isinstance(args[0], str)):
        names = ", ".join(type(a).__name__ for a in args)
        raise TypeError(f"is_autocast_enabled() received an invalid combination of arguments - got ({names}), but "
                        "expected one of:\n * (str device_type)\n * ()\n")
    return _STATE.enabled[_checked(args[0], "is_autocast_enabled") if args else "cuda"]


def set_autocast_enabled(*args) -> None:
    """Switch autocast on or off for a device type (one bool argument: CUDA)."""
    kind, enabled = ("cuda", *args) if len(args) == 1 else args
    if not isinstance(enabled, bool):
        raise TypeError(f"set_autocast_enabled(): argument 'enabled' (position {len(args)}) must be bool, not "
                        f"{type(enabled).__name__}")
    kind = _checked(kind, "set_autocast_enabled")
    _STATE.enabled[kind] = enabled
    if kind == "cpu":
        ON[0] = enabled


def get_autocast_dtype(device_type: str) -> _dtypes.dtype:
    """The dtype listed ops run in under autocast on this device type (bfloat16 for the CPU)."""
    kind = _device_type(device_type, "get_autocast_dtype")
    if kind not in _DTYPES:
        raise RuntimeError("unsupported scalarType")
    return _STATE.dtype[kind]


def set_autocast_dtype(device_type: str, dtype: _dtypes.dtype) -> None:
    """Set the lower-precision dtype of a device type's autocast."""
    _STATE.dtype[_checked(device_type, "set_autocast_dtype")] = dtype


def is_autocast_cache_enabled() -> bool:
    """Whether casts of float32 weights are reused within an autocast region."""
    return _STATE.cache_enabled


def set_autocast_cache_enabled(enabled: bool) -> None:
    """Turn the reuse of weight casts on or off."""
    _STATE.cache_enabled = enabled


def clear_autocast_cache() -> None:
    """Forget the cached weight casts."""
    _STATE.cache.clear()


def autocast_increment_nesting() -> int:
    """One more autocast region entered; returns the depth."""
    _STATE.nesting += 1
    return _STATE.nesting


def autocast_decrement_nesting() -> int:
    """One autocast region left; returns the depth (0: the cache is cleared by the caller)."""
    _STATE.nesting -= 1
    return _STATE.nesting


_SPELLINGS = {  # the deprecated form: (its call as PyTorch's warning prints it, the new call, the function)
    "is": ("is_autocast_{}_enabled()", "is_autocast_enabled('{}')", lambda dev: is_autocast_enabled(dev)),
    "set": ("set_autocast_{}_enabled(enabled)", "set_autocast_enabled('{}', enabled)",
            lambda dev, enabled: set_autocast_enabled(dev, enabled)),
    "get_dtype": ("get_autocast_{}_dtype()", "get_autocast_dtype('{}')", lambda dev: get_autocast_dtype(dev)),
    "set_dtype": ("set_autocast_{}_dtype(dtype)", "set_autocast_dtype('{}', dtype)",
                  lambda dev, dtype: set_autocast_dtype(dev, dtype)),
}


def _deprecated(name: str, device: str, form: str, line: int):
    """PyTorch's deprecated device spellings (``torch.is_autocast_cpu_enabled()``), warning as its C++ does."""
    old, new, fn = _SPELLINGS[form]
    message = (f"torch.{old.format(name)} is deprecated. Please use torch.{new.format(device)} instead. (Triggered "
               f"internally at /__w/pytorch/pytorch/torch/csrc/autograd/init.cpp:{line}.)")

    def deprecated(*args):
        from .._tensor import _user_stacklevel
        warnings.warn(message, DeprecationWarning, stacklevel=_user_stacklevel())
        return fn(device, *args)
    deprecated.__name__ = deprecated.__qualname__ = old.format(name).split("(")[0]
    return deprecated


is_autocast_cpu_enabled = _deprecated("cpu", "cpu", "is", 883)
set_autocast_cpu_enabled = _deprecated("cpu", "cpu", "set", 874)
get_autocast_cpu_dtype = _deprecated("cpu", "cpu", "get_dtype", 1016)
set_autocast_cpu_dtype = _deprecated("cpu", "cpu", "set_dtype", 967)
get_autocast_gpu_dtype = _deprecated("gpu", "cuda", "get_dtype", 1007)
set_autocast_gpu_dtype = _deprecated("gpu", "cuda", "set_dtype", 952)
is_autocast_ipu_enabled = _deprecated("ipu", "ipu", "is", 909)
set_autocast_ipu_enabled = _deprecated("ipu", "ipu", "set", 900)
get_autocast_ipu_dtype = _deprecated("ipu", "ipu", "get_dtype", 1025)
set_autocast_ipu_dtype = _deprecated("ipu", "ipu", "set_dtype", 982)
is_autocast_xla_enabled = _deprecated("xla", "xla", "is", 935)
set_autocast_xla_enabled = _deprecated("xla", "xla", "set", 926)
get_autocast_xla_dtype = _deprecated("xla", "xla", "get_dtype", 1034)
set_autocast_xla_dtype = _deprecated("xla", "xla", "set_dtype", 997)


# ---- the casts of a listed op ---------------------------------------------------------------------------
def _eligible(t) -> bool:
    """PyTorch's is_eligible: a floating tensor that is not float64."""
    return type(t._data) is np.ndarray and t.dtype.is_floating_point and t.dtype is not _dtypes.float64


def _cast(t, to: _dtypes.dtype):
    """``t.to(to)`` if eligible; a float32 weight's cast to the autocast dtype is made once per region."""
    if not isinstance(t, Tensor) or not _eligible(t) or t.dtype is to:
        return t
    from .. import derivatives as D
    state = _STATE
    if (to is state.dtype["cpu"] and t.dtype is _dtypes.float32 and t.requires_grad and t.is_leaf
            and t._base is None and state.cache_enabled and not _GRAD.inference):
        hit = state.cache.get(id(t))
        if hit is None or hit[0] is not t:
            # Made with grad mode on even under no_grad (PyTorch 2.13), so a later use that records has its graph.
            enabled, _GRAD.enabled = _GRAD.enabled, True
            try:
                hit = state.cache[id(t)] = (t, D.to_copy(t, dtype=to))
            finally:
                _GRAD.enabled = enabled
        return hit[1]
    return D.to_copy(t, dtype=to)


def _cast_arg(value, to):
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], Tensor):  # (cat's and stack's lists)
        return type(value)(_cast(v, to) for v in value)
    return _cast(value, to)


def _widest(values) -> _dtypes.dtype:
    """The promote policy's type: float32 if any floating input is float32, else the autocast dtype."""
    low = _STATE.dtype["cpu"]
    for v in values:
        for t in (v if isinstance(v, (list, tuple)) else (v,)):
            if isinstance(t, Tensor) and t.dtype.is_floating_point and t.dtype is not _dtypes.float64:
                if t.dtype is _dtypes.float32:
                    return _dtypes.float32
                if t.dtype is not low:
                    raise RuntimeError("Unexpected floating ScalarType in at::autocast::prioritize")
    return low


def run(name: str, fn, *args, **kwargs):
    """Call the front-end ``fn`` of the listed op ``name`` as PyTorch's AutocastCPU kernel does.

    Its tensor arguments are cast by the op's policy, then ``fn`` runs with CPU autocast off (its inner ops
    are not cast again; ``torch.is_autocast_enabled("cpu")`` is False there, as in PyTorch).
    """
    kind = _policy.CPU[name]
    if kind == _policy.LOWER:
        to = _STATE.dtype["cpu"]
    elif kind == _policy.FP32:
        to = _dtypes.float32
    else:
        to = _widest((*args, *kwargs.values()))
    # PyTorch's wrapper calls the op with ``cached_cast(args)...``: C++ (GCC) evaluates those arguments right to
    # left, so the last argument is cast first (linear's bias, then weight, then input), which numbers the
    # ToCopyBackward0 nodes (sequence numbers: the order backward runs them in). Keywords come after positionals.
    kwargs = {k: _cast_arg(v, to) for k, v in reversed(kwargs.items())}
    args = [_cast_arg(a, to) for a in reversed(args)][::-1]
    return without(fn, *args, **kwargs)


def without(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` with CPU autocast off: the inside of a listed op, an ``out=`` variant."""
    _STATE.enabled["cpu"] = ON[0] = False
    fn = getattr(fn, "unparsed", fn)   # (a call parsed already: linalg's own keyword names, A=; _arg_errors)
    try:
        return fn(*args, **kwargs)
    finally:
        _STATE.enabled["cpu"] = ON[0] = True


# ---- the context manager --------------------------------------------------------------------------------
def autocast_decorator(autocast_instance, func):
    """``func`` run inside ``autocast_instance`` at each call."""
    @functools.wraps(func)
    def decorate_autocast(*args, **kwargs):
        with autocast_instance:
            return func(*args, **kwargs)
    decorate_autocast.__script_unsupported = "@autocast() decorator is not supported in script mode"
    return decorate_autocast


class autocast:
    """Context manager and decorator: listed ops run in ``dtype`` (bfloat16 on the CPU) or float32 inside."""

    def __init__(self, device_type: str, dtype: _dtypes.dtype | None = None, enabled: bool = True,
                 cache_enabled: bool | None = None) -> None:
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.fast_dtype = get_autocast_dtype(device_type) if dtype is None else dtype
        self.device = device_type
        if not is_autocast_available(self.device):
            raise RuntimeError(f"User specified an unsupported autocast device_type '{self.device}'")
        supported = [_dtypes.bfloat16, _dtypes.float16]
        self.custom_backend_name = "privateuseone"
        self._cache_enabled = is_autocast_cache_enabled() if cache_enabled is None else cache_enabled
        device_name = self.device if self.device == self.custom_backend_name else self.device.upper()
        if enabled:
            if self.device == "cuda":  # (minigrad has no CUDA: PyTorch's warning on a CPU-only build)
                warnings.warn("CUDA is not available or torch_xla is imported. Disabling autocast.", stacklevel=2)
                enabled = False
            elif self.fast_dtype not in supported:
                warnings.warn(f"In {device_name} autocast, but the target dtype is not supported. Disabling "
                              f"autocast.\n{device_name} Autocast only supports dtypes of "
                              + ", ".join(map(str, supported)) + " currently.", stacklevel=2)
                enabled = False
        self._enabled = enabled

    def __enter__(self):
        self.prev_cache_enabled = is_autocast_cache_enabled()
        self.prev = is_autocast_enabled(self.device)
        self.prev_fastdtype = get_autocast_dtype(self.device)
        set_autocast_enabled(self.device, self._enabled)
        set_autocast_dtype(self.device, self.fast_dtype)
        autocast_increment_nesting()
        set_autocast_cache_enabled(self._cache_enabled)
        return self

    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> bool:
        if autocast_decrement_nesting() == 0:
            clear_autocast_cache()
        set_autocast_enabled(self.device, self.prev)
        set_autocast_dtype(self.device, self.prev_fastdtype)
        set_autocast_cache_enabled(self.prev_cache_enabled)
        return False

    def __call__(self, func):
        if not callable(func):
            raise TypeError(f"autocast()(func) requires a callable, but got {type(func).__name__}. Did you mean to "
                            "use autocast as a context manager? For example:\n    with torch.autocast(device_type="
                            "...):\n        output = model(input)")
        return autocast_decorator(self, func)


autocast.__module__ = "torch.amp.autocast_mode"  # (printed as <torch.amp.autocast_mode.autocast object at ...>)


class _UnmanagedAutocast(autocast):
    """An autocast region entered and left by calls, not by ``with``."""


_UnmanagedAutocast.__module__ = "torch.amp.autocast_mode"


def _enter_autocast(*vals) -> autocast:
    """Enter an autocast region without a ``with`` (what torch.compile's graphs call)."""
    mode = _UnmanagedAutocast(*vals)
    mode.__enter__()
    return mode


def _exit_autocast(mode: autocast) -> None:
    """Leave a region entered by ``_enter_autocast``."""
    mode.__exit__(None, None, None)


# ---- custom autograd Functions --------------------------------------------------------------------------
def _cast_inputs(value, device_type: str, dtype):
    """``value`` with its floating tensors (not float64), also inside lists, tuples and dicts, cast to ``dtype``."""
    if isinstance(value, Tensor):
        eligible = value.is_floating_point() and value.device.type == device_type and value.dtype is not _dtypes.float64
        return value.to(dtype) if eligible else value
    if isinstance(value, (str, bytes, np.ndarray)):
        return value
    if isinstance(value, collections.abc.Mapping):
        return {_cast_inputs(k, device_type, dtype): _cast_inputs(v, device_type, dtype) for k, v in value.items()}
    if isinstance(value, collections.abc.Iterable):
        iterable = (_cast_inputs(v, device_type, dtype) for v in value)
        return type(value)(iterable) if isinstance(value, (list, tuple)) else iterable
    return value


def custom_fwd(fwd=None, *, device_type: str, cast_inputs: _dtypes.dtype | None = None):
    """Decorator for a custom Function's ``forward``: with ``cast_inputs``, inputs are cast and autocast is off."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def decorate_fwd(*args, **kwargs):
        args[0]._dtype = get_autocast_dtype(device_type)
        if cast_inputs is None:
            args[0]._fwd_used_autocast = is_autocast_enabled(device_type)
            return fwd(*args, **kwargs)
        autocast_context = is_autocast_enabled(device_type)
        args[0]._fwd_used_autocast = False
        if autocast_context:
            with autocast(device_type=device_type, enabled=False):
                return fwd(*_cast_inputs(args, device_type, cast_inputs),
                           **_cast_inputs(kwargs, device_type, cast_inputs))
        return fwd(*args, **kwargs)
    return decorate_fwd


def custom_bwd(bwd=None, *, device_type: str):
    """Decorator for a custom Function's ``backward``: it runs with the autocast state its forward had."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)

    @functools.wraps(bwd)
    def decorate_bwd(*args, **kwargs):
        with autocast(device_type=device_type, enabled=args[0]._fwd_used_autocast, dtype=args[0]._dtype):
            return bwd(*args, **kwargs)
    return decorate_bwd
