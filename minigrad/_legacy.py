"""Old and alternative spellings of PyTorch's API that tutorials still use.

``torch.range`` and ``torch.set_default_tensor_type`` (deprecated, with PyTorch's warnings), the removed
``volatile`` flag, ``torch.typename`` and ``torch.scalar_tensor``, and the long names of the comparisons
(``x.greater(y)`` is ``x.gt(y)``).
"""
from __future__ import annotations

import builtins
import math
import numbers
import warnings

import numpy as np

from . import _arg_errors, _creation, _dtypes, _ops
from ._tensor import Tensor, _user_stacklevel
from ._warn_once import warn_once


def range(start, end=None, step=1, *, out=None, dtype=None, device=None, requires_grad: bool = False,  # noqa: A001
          **kwargs) -> Tensor:
    """Deprecated: values from start to end INCLUSIVE (use arange), in the default float dtype."""
    if end is None:
        raise TypeError('range() missing 1 required positional arguments: "end"')
    if out is not None and not isinstance(out, Tensor):   # (PyTorch's parser, before the warning)
        raise _arg_errors.must_be("range", "out", "Tensor", out)
    warnings.warn("torch.range is deprecated and will be removed in a future release because its behavior is "
                  "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values in "
                  "[start, end).", UserWarning, stacklevel=_user_stacklevel())
    if out is not None:   # (the values written into it, in its dtype: resized without a warning, one version bump)
        return _creation._factory_out("range", out, dtype, lambda dt: _range(start, end, step, dt, False)._data,
                                      requires_grad)
    return _range(start, end, step, dtype, requires_grad)


def _range(start, end, step, dtype, requires_grad: bool) -> Tensor:
    """torch.range's values, after its deprecation warning."""
    for v in (start, end, step):
        if type(v) is int:
            _ops._check_scalar_int(v)   # (the parser's OverflowError for an int beyond uint64)
    dtype = _dtypes.get_default_dtype() if dtype is None else _dtypes.to_dtype(dtype)
    if dtype._kind == 1:   # (the ends and step read as int64s, the integer dtypes' accumulate type)
        first, last, by = (_dtypes.to_int64(v) for v in (start, end, step))
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):   # (the ends as C++ prints doubles: %g)
        raise RuntimeError(f"unsupported range: {float(start):g} -> {float(end):g}")
    if (step > 0 and end < start) or (step < 0 and end > start):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype._kind == 1 and by:   # size (end - start) / step + 1 and the values in int64 arithmetic (C's division)
        span = (last - first + 2**63) % 2**64 - 2**63
        n = abs(span) // abs(by) * (1 if (span >= 0) == (by > 0) else -1) + 1
        _creation.checked_size((builtins.max(n, 0),), dtype)
        data = (first + by * np.arange(builtins.max(n, 0), dtype=np.int64)).astype(dtype.np)
        return _creation.tensor(data, requires_grad=requires_grad)
    # PyTorch's kernel: size trunc((end - start) / step + 1), values start + i·step in double, then cast
    n = (float(end) - float(start)) / float(step) + 1
    if not n < 2**63:   # (C's cast of a size beyond int64, or inf: -2**63, which the shape then refuses)
        raise RuntimeError("IntArrayRef contains an int that cannot be represented as a SymInt: -9223372036854775808")
    n = _creation.checked_size((int(n),), dtype)[0]
    data = (float(start) + np.arange(n, dtype=np.float64) * float(step)).astype(dtype.np)
    return _creation.tensor(data, requires_grad=requires_grad)


def set_default_tensor_type(t) -> None:
    """Deprecated: set the default float dtype from a tensor type (``torch.DoubleTensor`` or its name)."""
    warn_once("set_default_tensor_type",   # (PyTorch's TORCH_WARN_ONCE)
              "torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() "
              "and torch.set_default_device() as alternatives. (Triggered internally at "
              "/__w/pytorch/pytorch/torch/csrc/tensor/python_tensor.cpp:434.)")
    if getattr(t, "is_cuda", False) or (isinstance(t, str) and t.startswith("torch.cuda.")):
        raise TypeError(f"type {t if isinstance(t, str) else repr(t)[8:-2]} not available. Torch not compiled with "
                        "CUDA enabled.")
    if isinstance(t, str):
        t = getattr(_creation, t.rpartition(".")[2], None) if t.startswith("torch.") else None
        if t is None:
            raise TypeError("invalid type")
    dt = getattr(t, "dtype", None)
    if not isinstance(dt, _dtypes.dtype) or isinstance(t, _dtypes.dtype):
        raise TypeError("invalid type object: only floating-point types are supported as the default type")
    if not dt.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _dtypes.set_default_dtype(dt)


def typename(obj) -> str:
    """The type name PyTorch shows: ``torch.FloatTensor`` for a tensor, else the qualified class name."""
    from .overrides import _TENSOR_PYTHON
    if isinstance(obj, Tensor):
        return obj.type()
    # PyTorch's C functions: torch.relu is a static method of torch._VariableFunctionsClass, F.linear a function
    # of torch._C._nn; Tensor's methods belong to TensorBase (bound, the qualified name counts the tensor's class)
    how = getattr(obj, "__torch_public__", None)
    if how is not None and not how.python_level and how.name.count(".") == 1:
        return f"torch._VariableFunctionsClass.{obj.__name__}"
    if how is not None and not how.python_level and how.name.startswith("torch.nn."):
        return f"torch._C._nn.{obj.__name__}"
    name = getattr(obj, "__name__", None)
    if isinstance(getattr(obj, "__self__", None), Tensor) and isinstance(name, str) \
            and getattr(type(obj.__self__), name, None) is getattr(obj, "__func__", None):
        if name in _TENSOR_PYTHON:   # (PyTorch's methods written in Python: torch/_tensor.py's)
            return f"torch._tensor.Tensor.{name}"
        return f"{type(obj.__self__).__qualname__}.{name}"
    if isinstance(obj, property) or (isinstance(name, str) and getattr(Tensor, name, None) is obj
                                     and not isinstance(obj, type)):
        name = next((k for k, v in vars(Tensor).items() if v is obj), None) if isinstance(obj, property) else name
        if name is not None:
            return f"torch._tensor.Tensor.{name}" if name in _TENSOR_PYTHON else f"TensorBase.{name}"
    if isinstance(obj, type) and "_torch_name" in obj.__dict__:
        return obj._torch_name   # (torch.Tensor, torch.nn.parameter.Parameter: PyTorch's class names)
    # As PyTorch: a function or class names itself (``__main__.<lambda>``), any other object its class
    if hasattr(obj, "__qualname__"):
        module, name = getattr(obj, "__module__", "") or "", obj.__qualname__
    else:
        module, name = type(obj).__module__ or "", type(obj).__qualname__
    if module.startswith("minigrad."):   # (minigrad stands in for torch: torch.nn.modules.linear.Linear)
        module = "torch." + module[len("minigrad."):]
    return name if module in ("", "builtins") else f"{module}.{name}"


def scalar_tensor(s, *, dtype=None, device=None, requires_grad: bool = False, **kwargs) -> Tensor:
    """A 0-dim tensor holding the number ``s`` (of the default float dtype unless ``dtype`` is given)."""
    s = _arg_errors.scalar_arg(s, "scalar_tensor", "s", 1, "Number")   # (PyTorch's parser)
    if not isinstance(s, numbers.Number):
        raise _arg_errors.must_be("scalar_tensor", "s", "Number", s, 1)
    dt = _dtypes.get_default_dtype() if dtype is None else _dtypes.to_dtype(dtype)
    # (PyTorch fills an empty 0-dim tensor: fill's checked conversion, 1j refused, -1 into uint8 wraps)
    return _creation.full((), s, dtype=dt, device=device, requires_grad=requires_grad)


def is_inference(input: Tensor) -> bool:
    """True if ``input`` was made in inference mode."""
    return input.is_inference()


def is_same_size(input: Tensor, other: Tensor) -> bool:
    """True if the two tensors have the same shape."""
    if not isinstance(other, Tensor):  # (x.is_same_size(1): the method's error; the function's wrapper words its own)
        from ._arg_errors import must_be
        raise must_be("is_same_size", "other", "Tensor", other, 1)
    return input.shape == other.shape


def is_signed(input: Tensor) -> bool:
    """True if the dtype can hold negative numbers."""
    return input.dtype.is_signed


# ---- the removed ``volatile`` flag ---------------------------------------------------------------------------
def _get_volatile(self) -> bool:
    warnings.warn("volatile was removed (Variable.volatile is always False)", UserWarning,
                  stacklevel=_user_stacklevel())
    return False


def _set_volatile(self, value) -> None:
    warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` instead.", UserWarning,
                  stacklevel=_user_stacklevel())


def reinforce(self, reward):
    """Removed (PyTorch's message says what to use instead)."""
    raise RuntimeError(_REINFORCE_REMOVED)


_REINFORCE_REMOVED = """reinforce() was removed.
Use torch.distributions instead.
See https://pytorch.org/docs/main/distributions.html

Instead of:

probs = policy_network(state)
action = probs.multinomial()
next_state, reward = env.step(action)
action.reinforce(reward)
action.backward()

Use:

probs = policy_network(state)
# NOTE: categorical is equivalent to what used to be called multinomial
m = torch.distributions.Categorical(probs)
action = m.sample()
next_state, reward = env.step(action)
loss = -m.log_prob(action) * reward
loss.backward()
"""


# ---- Tensor methods and minigrad.* names ---------------------------------------------------------------------
ALIASES = {"greater": "gt", "greater_equal": "ge", "less": "lt", "less_equal": "le", "not_equal": "ne"}
FUNCTIONS = ["range", "set_default_tensor_type", "typename", "scalar_tensor", "is_inference", "is_same_size",
             "is_signed", *ALIASES]


def _attach() -> None:
    for alias, name in ALIASES.items():
        setattr(Tensor, alias, _arg_errors.renamed(getattr(Tensor, name), alias))   # ("greater() received ...")
        globals()[alias] = getattr(_ops, name)
    Tensor.is_same_size = is_same_size
    Tensor.volatile = property(_get_volatile, _set_volatile)
    Tensor.reinforce = reinforce
    reinforce.__qualname__ = "Tensor.reinforce"   # (a Python method of PyTorch's Tensor: its TypeErrors say so)


_attach()
