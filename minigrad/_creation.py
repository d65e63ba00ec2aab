"""Making tensors: tensor(), zeros/ones/full/eye/arange/linspace, random tensors and the seed."""
from __future__ import annotations

import builtins
import functools
import math
import numbers
import warnings

import numpy as np

from . import _complex_bits, _dtypes, _fused, _layout, _meta, _random, _strides, _vmap_batched
from ._class_names import tp_name
from ._device import check_creation_device
from ._dispatch import _QUIET, _np_errstate
from ._fused import fma64 as _fma
from ._random import (  # noqa: F401  (torch.Generator, torch.manual_seed ... live in _random.py)
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)
from ._tensor import _LEGACY_NAMES, Size, Tensor, _user_stacklevel, _warn_scalar_conversion
from ._warn_once import warn_once
from .autograd import grad_mode


def _finish(data: np.ndarray, requires_grad: bool) -> Tensor:
    if _dtypes.is_complex32(data.dtype):   # (complex32: PyTorch warns when it allocates one)
        _dtypes.warn_complex32()
    t = Tensor._make(data)
    if _vmap_batched.DEPTH[0]:  # (inside vmap: a tensor the user makes is an unbatched one)
        _vmap_batched.created(t)
    if requires_grad:
        d = t.dtype
        if not (d.is_floating_point or d.is_complex):
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t._requires_grad = True
    return t


def _infer_dtype(data) -> _dtypes.dtype:
    """dtype PyTorch infers for nested Python data."""
    kind = -1
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, Tensor):
            kind = builtins.max(kind, 4 + x.dtype._kind)
            continue
        if isinstance(x, np.ndarray):
            is_float64 = x.dtype.kind == "f" and x.dtype.itemsize == 8
            kind = builtins.max(kind, 10 if is_float64 else 4 + _dtypes.from_numpy(x.dtype)._kind)
            continue
        if isinstance(x, (list, tuple, range)):
            stack.extend(x)
            if not x:  # (an empty sequence counts as the default dtype, as in PyTorch)
                kind = builtins.max(kind, 2)
        elif isinstance(x, (bool, np.bool_)):
            kind = builtins.max(kind, 0)
        elif isinstance(x, (int, np.integer)):
            kind = builtins.max(kind, 1)
        elif isinstance(x, (float, np.floating)):
            kind = builtins.max(kind, 2)
        elif isinstance(x, (complex, np.complexfloating)):
            kind = builtins.max(kind, 3)
        elif isinstance(x, (str, bytes)):
            raise TypeError(f"new(): invalid data type '{type(x).__name__}'")
        else:
            raise RuntimeError(f"Could not infer dtype of {tp_name(x)}")
    if kind == 3 and _dtypes.get_default_dtype() is _dtypes.bfloat16:
        # (PyTorch's infer_scalar_type maps only a Half/Float/Double default to a complex dtype)
        raise RuntimeError("invalid default scalar type for complex")
    return {-1: _dtypes.get_default_dtype(), 0: _dtypes.bool_, 1: _dtypes.int64, 2: _dtypes.get_default_dtype(),
            3: _dtypes.scalar_complex()}.get(kind)


def _to_array(data, dtype: _dtypes.dtype | None, ndim: int = 0) -> np.ndarray:
    if isinstance(data, Tensor):
        arr = data._data
        return np.array(arr, dtype=(dtype or data.dtype).np, copy=True)
    if isinstance(data, np.ndarray):
        token = _np_errstate.set(_QUIET)  # (float64 -> float32 overflows to inf silently, as in PyTorch)
        try:
            return np.array(data, dtype=(dtype or _dtypes.from_numpy(data.dtype)).np, copy=True)
        finally:
            _np_errstate.reset(token)
    if dtype is None:
        dtype = _infer_dtype(data)
        if dtype is None:
            # Mixed nested Tensors/arrays: promote over their elements.
            dtype = _dtypes.get_default_dtype()
    # A float too big for the dtype becomes inf without NumPy's overflow warning, as in PyTorch.
    token = _np_errstate.set(_QUIET)
    try:
        if dtype.np.kind in "iu":
            return _checked_integers(_plain(data, ndim), dtype)
        if dtype is _dtypes.complex32:
            return _dtypes.as_complex32(np.array(_plain(data, ndim), dtype=np.complex128), warn=False)   # (_finish's)
        arr = np.array(_plain(data, ndim, real=dtype.is_floating_point),
                       dtype=dtype.np if dtype is not _dtypes.bfloat16 else np.float64)
        return arr.astype(dtype.np)
    except OverflowError:  # a Python int beyond int64 for an integer dtype (PyTorch unpacks a C long long)
        raise ValueError("Overflow when unpacking long long") from None
    finally:
        _np_errstate.reset(token)


_SEQUENCES = (list, tuple, range, np.ndarray, str)  # what PyTorch's PySequence_Check walks into (not Tensors)
_NUMBERS = frozenset({bool, int, float, complex})


def _nested_sizes(data) -> list:
    """The shape of nested data, as PyTorch's compute_sizes reads it (its errors included)."""
    sizes, seq = [], data
    while isinstance(seq, _SEQUENCES):  # the shape is read from the first element at each level
        if isinstance(seq, str):  # (a str's first element is a str again: too many dimensions)
            raise ValueError("too many dimensions 'str'")
        n = len(seq)  # (a 0-d ndarray: TypeError "len() of unsized object", as in PyTorch)
        sizes.append(n)
        if n == 0:
            break
        seq = seq[0]
    return sizes


def _check_store(obj, sizes: list, dim: int, target: str, limits: tuple | None = None) -> None:
    """PyTorch's recursive_store, checking: each level a sequence of the first one's length, each number one
    (``limits``: a narrow integer dtype's, each number checked against them as it is stored, in order)."""
    if dim == len(sizes):
        _check_number(obj, target)
        if limits is not None:
            _check_fits(obj, limits)
        return
    if isinstance(obj, (np.ndarray, Tensor)) and tuple(obj.shape) == tuple(sizes[dim:]):
        return
    if not obj.shape if isinstance(obj, (np.ndarray, Tensor)) else not isinstance(obj, _SEQUENCES):
        raise TypeError("not a sequence")  # (the message PyTorch gives PySequence_Fast)
    if len(obj) != sizes[dim]:
        raise ValueError(f"expected sequence of length {sizes[dim]} at dim {dim} (got {len(obj)})")
    if (dim + 1 == len(sizes) and target != "uint64"
            and builtins.all(type(x) in _NUMBERS and type(x) is not complex for x in obj)):
        for x in obj if limits is not None else ():
            _check_fits(x, limits)
        return  # (the common case, without a call per number)
    for x in obj:
        if isinstance(x, np.ndarray):   # (PyTorch's TORCH_WARN_ONCE; under set_warn_always, one per array)
            warn_once("list of ndarrays",
                      "Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider converting "
                      "the list to a single numpy.ndarray with numpy.array() before converting to a tensor. "
                      "(Triggered internally at /__w/pytorch/pytorch/torch/csrc/utils/tensor_new.cpp:252.)")
        _check_store(x, sizes, dim + 1, target, limits)


def _store_limits(dtype: _dtypes.dtype) -> tuple | None:
    """(dtype name, lowest int, highest int, lowest float, highest float) PyTorch's checked conversion lets into an
    integer dtype narrower than int64 (an unsigned one takes ints down to -max: they wrap), else None."""
    if dtype.is_floating_point or dtype.is_complex or dtype in (_dtypes.bool_, _dtypes.int64, _dtypes.uint64):
        return None
    info = np.iinfo(dtype.np)
    return dtype.name, int(info.min) if info.min else -int(info.max), int(info.max), int(info.min), int(info.max)


def _check_fits(x, limits: tuple) -> None:
    """The error of storing the number ``x`` into the narrow integer dtype of ``limits`` (see _store_limits)."""
    name, low, high, float_low, float_high = limits
    if isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)):
        if not -2 ** 63 <= x < 2 ** 63:
            raise ValueError("Overflow when unpacking long long")
        fits = low <= x <= high
    elif isinstance(x, (float, np.floating)):
        fits = float_low <= x <= float_high   # (NaN does not)
    else:
        return
    if not fits:
        raise RuntimeError(f"value cannot be converted to type {name} without overflow")


def _check_number(x, target: str) -> None:
    """PyTorch's store_scalar errors for one number stored as ``target`` ("int", "bool", "float" or "complex"):
    an integer dtype reads it with int() (a Python float passes too), a floating one with float()."""
    if target == "uint64":
        return _unsigned_long(x)
    if type(x) in _NUMBERS:
        if type(x) is complex and target in ("int", "float"):
            raise TypeError("'complex' object cannot be interpreted as an integer" if target == "int"
                            else "must be real number, not complex")
        return
    integral = target in ("int", "bool")
    if isinstance(x, np.generic):
        # (NumPy's float64 and complex128 are a Python float and complex; its other floats have no __index__)
        readable = (np.integer, np.float64) if target == "int" else (np.integer, np.float64, np.complex128, np.bool_)
        if integral and not isinstance(x, readable):
            from ._arg_errors import type_name
            raise TypeError(f"'{type_name(x)}' object cannot be interpreted as an integer")
    elif isinstance(x, Tensor):
        if integral and (x._data.size != 1 or x.dtype.is_floating_point or x.dtype.is_complex):
            raise TypeError("only integer tensors of a single element can be converted to an index")
        if x._data.size != 1 or target == "float" and x.dtype.is_complex and x.item().imag:
            # (read with float() or complex(), whose errors come after their warning: see Tensor._scalar)
            if x._requires_grad and grad_mode.STATE.enabled:
                _warn_scalar_conversion()
            if x._data.size != 1:
                raise ValueError("only one element tensors can be converted to Python scalars")
            x._scalar("double")
    elif isinstance(x, np.ndarray):
        if integral and (x.ndim or x.dtype.kind in "fc"):
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        if x.ndim:
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
    elif not hasattr(type(x), "__index__") and (integral or not hasattr(type(x), "__float__")):
        # (a list, a str, None ... where one number belongs: int() / float() refuse it)
        from ._arg_errors import type_name
        raise TypeError(f"'{type_name(x)}' object cannot be interpreted as an integer" if integral
                        else f"must be real number, not {type_name(x)}")


def _big_int(values) -> bool:
    """Whether nested lists ``values`` hold a Python int beyond int64 (PyTorch reads ints as a C long long)."""
    if isinstance(values, list):
        return any(_big_int(v) for v in values)
    return isinstance(values, int) and not -2 ** 63 <= values < 2 ** 63


def _checked_integers(values, dtype: _dtypes.dtype) -> np.ndarray:
    """Numbers stored as an integer dtype, with PyTorch's checked_convert: a value out of its range is an error
    (an int may be negative down to -max for an unsigned dtype: it wraps), a float is truncated."""
    if dtype is _dtypes.uint64:   # (each element checked by _check_store: see _unsigned_long)
        return np.array(values, dtype=np.uint64)
    raw = np.array(values)  # int64 or float64 (uint64 or object: an int beyond int64)
    if raw.dtype == object or raw.dtype == np.uint64:
        _first_conversion_error(values, dtype)
    if raw.dtype.kind in "bi" and dtype.np == np.int64:  # (the common case: nothing can overflow)
        return raw.astype(np.int64, copy=False)
    info = np.iinfo(dtype.np)
    if raw.dtype.kind == "f" and raw.size and np.fmax.reduce(np.abs(raw), axis=None) >= 2.0 ** 63 and _big_int(values):
        _first_conversion_error(values, dtype)  # (NumPy read [2 ** 63, 1] as floats)
    if raw.dtype.kind == "f":
        bad = np.isnan(raw) | (raw < info.min) | (raw > info.max)
        if bad.any() and not info.min:   # (ints among floats: each element converts as itself, an int wrapping)
            return np.array(_each_unsigned(values, dtype), dtype=dtype.np)
    else:
        bad = (raw > info.max) | (raw < (info.min if info.min else -info.max))
    if bad.any():
        raise RuntimeError(f"value cannot be converted to type {dtype.name} without overflow")
    return raw.astype(dtype.np)


def _each_unsigned(values, dtype: _dtypes.dtype):
    """Nested numbers converted one by one to an unsigned dtype, as PyTorch stores them: an int down to -max wraps
    (two's complement), a float must lie in the dtype's range (and is truncated)."""
    if isinstance(values, (list, np.ndarray)):
        return [_each_unsigned(v, dtype) for v in values]
    top = int(np.iinfo(dtype.np).max)
    if isinstance(values, (int, np.integer)) and not isinstance(values, (bool, np.bool_)):
        if -top <= values <= top:
            return int(values) % (top + 1)
    elif 0 <= float(values) <= top:   # (not NaN)
        return int(values)
    raise RuntimeError(f"value cannot be converted to type {dtype.name} without overflow")


def _unsigned_long(x) -> None:
    """PyTorch's store of one number as uint64: a C unsigned long long, which only a Python int (or bool) of 0 to
    2**64 - 1 is (a float too is refused: no truncation, unlike the other integer dtypes)."""
    if not isinstance(x, int):
        raise TypeError("an integer is required")
    if not 0 <= x < 2 ** 64:   # (PyLong_AsUnsignedLongLong's messages)
        raise OverflowError("can't convert negative int to unsigned" if x < 0 else "int too big to convert")


def _first_conversion_error(values, dtype: _dtypes.dtype):
    """Raise the error PyTorch meets first when it stores ``values`` (nested lists holding an int beyond int64)
    one element after another as ``dtype``: an int beyond int64 fails to unpack (ValueError), a NaN, an infinity
    or another value out of the dtype's range fails its checked conversion (RuntimeError), whichever comes first
    (``[nan, 2 ** 63]``: the NaN's)."""
    info = np.iinfo(dtype.np)
    low = info.min if info.min else -info.max  # (an unsigned dtype takes ints down to -max: they wrap)
    stack = [values]
    while stack:
        x = stack.pop()
        if isinstance(x, list):
            stack.extend(reversed(x))
        elif isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)):
            if not -2 ** 63 <= x < 2 ** 63:
                raise ValueError("Overflow when unpacking long long")
            if not low <= x <= info.max:
                break
        elif isinstance(x, (float, np.floating)) and not info.min <= x <= info.max:  # (NaN too)
            break
    else:
        raise ValueError("Overflow when unpacking long long")
    raise RuntimeError(f"value cannot be converted to type {dtype.name} without overflow")


def _plain(data, depth: int = 0, real: bool = False):
    """data as nested lists of numbers: a Tensor ``depth`` levels above the numbers becomes its values
    (``real``: stored as a real dtype, a complex one-element tensor gives its real part, as float() does)."""
    if isinstance(data, Tensor):
        return data._data
    if isinstance(data, (list, tuple, range)):
        return [(x._data if depth > 1 else _element(x, real)) if isinstance(x, Tensor) else _plain(x, depth - 1, real)
                for x in data]
    return data


def _element(t: Tensor, real: bool = False):
    """A tensor inside a sequence: PyTorch reads it as one number (as float() would, warning included)."""
    if t._requires_grad and grad_mode.STATE.enabled:
        _warn_scalar_conversion()
    if t._data.size != 1:
        raise ValueError("only one element tensors can be converted to Python scalars")
    return t._scalar("double") if real and t.dtype.is_complex else t.item()


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False) -> Tensor:
    """A new tensor holding a copy of ``data`` (nested lists, a number, an ndarray or a tensor)."""
    check_creation_device(device)
    requires_grad = _flag("tensor", requires_grad)
    if isinstance(data, Tensor):
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
            "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).",
            UserWarning, stacklevel=_user_stacklevel())
        _vmap_batched.check_detach_(data)   # (PyTorch's copy ends in detach_(), which vmap's fallback refuses)
    dtype = _dtypes.to_dtype(dtype) if dtype is not None else None
    if isinstance(data, np.ndarray):
        _check_strides(data)
    if isinstance(data, (Tensor, np.ndarray)):
        out = _finish(_to_array(data, dtype), requires_grad)
        if isinstance(data, np.ndarray) and data.size == 0:  # (PyTorch copies the array as it is laid out)
            _strides.keep_empty_strides(out, [s // data.itemsize for s in data.strides])
        return out
    if isinstance(data, str):
        raise TypeError("new(): invalid data type 'str'")
    # PyTorch's order: the shape (from the first elements), the dtype, then each element as it is stored
    sizes = _nested_sizes(data)
    if dtype is None:
        dtype = (_infer_dtype(data) if not _has_tensors(data) else _promote_nested(data)) or _dtypes.get_default_dtype()
    if 0 in sizes:  # ([[], [1]] is a (2, 0) tensor in PyTorch: nothing is stored, so nothing else is checked)
        return _finish(np.zeros(sizes, dtype.np), requires_grad)
    _check_store(data, sizes, 0, "complex" if dtype.is_complex else "float" if dtype.is_floating_point
                 else "bool" if dtype is _dtypes.bool_ else "uint64" if dtype is _dtypes.uint64 else "int",
                 _store_limits(dtype))
    return _finish(_to_array(data, dtype, len(sizes)), requires_grad)


def _has_tensors(data) -> bool:
    """True if ``data`` holds Tensors or NumPy arrays or scalars: values whose own dtype the result promotes over."""
    if isinstance(data, (Tensor, np.ndarray, np.generic)):
        return True
    if isinstance(data, (list, tuple)):
        return builtins.any(_has_tensors(x) for x in data)
    return False


def _promote_nested(data):
    dt = None
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(x)
            continue
        d = x.dtype if isinstance(x, Tensor) else _dtypes.from_numpy(x.dtype) \
            if isinstance(x, (np.ndarray, np.generic)) else _infer_dtype(x)
        dt = d if dt is None else _dtypes.promote_types(dt, d)
    return dt or _dtypes.get_default_dtype()


def as_tensor(data, dtype=None, device=None) -> Tensor:
    """Like ``tensor`` but shares memory with a tensor or ndarray when the dtype allows."""
    check_creation_device(device, use_default=not isinstance(data, Tensor))
    dtype = _dtypes.to_dtype(dtype) if dtype is not None else None
    if isinstance(data, Tensor):
        return data if dtype is None or dtype is data.dtype else data.to(dtype)
    if isinstance(data, np.ndarray) and (dtype is None or dtype.np == data.dtype):
        return from_numpy(data)
    return tensor(data, dtype=dtype)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=None) -> Tensor:
    """``obj`` as a tensor, sharing its memory when it can (``copy=None``), always (``False``: error when it
    cannot) or never (``True``). A tensor keeps its autograd history unless ``requires_grad=False`` (PyTorch's
    tensor_new.cpp asarray)."""
    dtype = _dtypes.to_dtype(dtype) if dtype is not None else None
    if isinstance(obj, Tensor):
        check_creation_device(device, use_default=False)
        if requires_grad is None:
            if obj.requires_grad:   # (PyTorch's TORCH_WARN_ONCE)
                warn_once("asarray requires_grad",
                          "torch.asarray: unspecified requires_grad now defaults to obj.requires_grad instead of "
                          "False. Pass requires_grad=False explicitly to get the old behavior and silence this "
                          "warning. (Triggered internally at /__w/pytorch/pytorch/torch/csrc/utils/tensor_new.cpp:"
                          "1737.)")
            requires_grad = obj.requires_grad
        wrong_dtype = dtype is not None and dtype is not obj.dtype
        if copy or (copy is None and wrong_dtype):
            result = obj.to(dtype) if wrong_dtype else obj.clone()  # (ToCopyBackward0 / CloneBackward0)
        elif wrong_dtype:
            raise ValueError(f"can't alias tensor with dtype '{_LEGACY_NAMES[obj.dtype.name]}' into dtype "
                             f"'{_LEGACY_NAMES[dtype.name]}'.")
        else:
            result = obj  # the very object
        if result.grad_fn is not None and not requires_grad:
            return result.detach()  # a non-leaf cannot stop requiring grad: a detached alias instead
    else:
        if isinstance(obj, np.ndarray):
            if copy is False and dtype is not None and dtype.np != obj.dtype:
                raise ValueError(f"can't alias tensor with dtype '{_LEGACY_NAMES[_dtypes.from_numpy(obj.dtype).name]}"
                                 f"' into dtype '{_LEGACY_NAMES[dtype.name]}'.")
            result = as_tensor(obj, dtype, device)  # (shares obj's memory when the dtype allows)
            if copy and np.shares_memory(result._data, obj):
                result = result.clone()
        else:
            if copy is False:
                raise ValueError("can't alias arbitrary sequence into a tensor.")
            result = tensor(obj, dtype=dtype, device=device)
    if requires_grad and not (result.is_floating_point() or result.is_complex()):
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
    if result.grad_fn is None:
        result.requires_grad_(bool(requires_grad))
    return result


def from_numpy(ndarray: np.ndarray) -> Tensor:
    """A tensor sharing memory with ``ndarray``."""
    if not isinstance(ndarray, np.ndarray):
        from ._arg_errors import type_name  # (numpy.float64 with its module, as PyTorch names it)
        raise TypeError(f"expected np.ndarray (got {type_name(ndarray)})")
    _dtypes.from_numpy(ndarray.dtype)
    _check_strides(ndarray)
    if not ndarray.flags.writeable:   # (PyTorch's TORCH_WARN_ONCE)
        warn_once("ndarray not writable",
                  "The given NumPy array is not writable, and PyTorch does not support non-writable tensors. This "
                  "means writing to this tensor will result in undefined behavior. You may want to copy the array "
                  "to protect its data or make it writable before converting it to a tensor. This type of warning "
                  "will be suppressed for the rest of this program. (Triggered internally at "
                  "/__w/pytorch/pytorch/torch/csrc/utils/tensor_numpy.cpp:213.)")
    out = Tensor._make(ndarray)
    _strides.mark_not_resizable(ndarray)   # (the memory is NumPy's: PyTorch cannot grow it)
    if ndarray.size == 0:  # (NumPy's strides, 0 for an empty array, are the tensor's)
        _strides.keep_empty_strides(out, [s // ndarray.itemsize for s in ndarray.strides])
    return out


def _check_strides(ndarray: np.ndarray) -> None:
    # PyTorch wraps (or copies) an ndarray's memory as it is laid out, and its strides cannot be negative
    if any(st < 0 for st in ndarray.strides):
        raise ValueError("At least one stride in the given numpy array is negative, and tensors with negative "
                         "strides are not currently supported. (You can probably work around this by making a copy "
                         "of your array  with array.copy().) ")


_C_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
                 "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
                 "uint8": "unsigned char", "bool": "bool"}


# The overloads PyTorch's legacy constructors list when given a keyword other than device= (dtype=, requires_grad=)
_LEGACY_OVERLOADS = ("(*, torch.device device = None)", "(torch.Storage storage)", "(Tensor other)",
                     "(tuple of ints size, *, torch.device device = None)",
                     "(object data, *, torch.device device = None)")


def _legacy_constructor(*args, dtype=None, kwargs=None):
    """torch.Tensor(...) / torch.FloatTensor(...) / x.new(...): data (a sequence), a tensor, or a size.

    ``kwargs`` are the caller's keywords: only ``device`` is one (the dtype is the constructor's own).
    """
    if kwargs and set(kwargs) - {"device"}:
        from ._arg_errors import invalid_combination
        raise invalid_combination("new", args, kwargs, _LEGACY_OVERLOADS)
    dt = _dtypes.get_default_dtype() if dtype is None else dtype
    if len(args) == 1:
        data = args[0]
        if isinstance(data, Tensor):  # the same storage, under a new tensor (its dtype must match, if given)
            if dtype is not None and data.dtype is not dtype:
                def opts(d):
                    return (f"TensorOptions(dtype={_C_TYPE_NAMES.get(d.name, d.name)}, device=cpu, layout=Strided, "
                            "requires_grad=false (default), pinned_memory=false (default), "
                            "memory_format=(nullopt))")
                raise TypeError(f"expected {opts(dtype)} (got {opts(data.dtype)})")
            from .derivatives import alias
            return alias(data)  # PyTorch's legacy constructor returns x.alias(): a view (AliasBackward0)
        if isinstance(data, (float, complex, bool)) or data is None:
            raise TypeError(f"new(): data must be a sequence (got {type(data).__name__})")
        if isinstance(data, str):
            raise TypeError("new(): invalid data type 'str'")
        if isinstance(data, (np.ndarray, range)) or (isinstance(data, (list, tuple)) and not isinstance(data, Size)):
            return tensor(data, dtype=dt)
    if not args:
        return empty(0, dtype=dt)  # torch.Tensor() is an empty 1-D tensor
    try:
        return empty(*args, dtype=dt)
    except TypeError as e:  # (the size's errors, as PyTorch's parser of new() words them)
        raise TypeError(str(e).replace("empty()", "new()", 1)) from None


class _LegacyTensorType(type):
    """torch.FloatTensor & co: constructors of one dtype; ``isinstance(x, torch.FloatTensor)`` tests the dtype."""

    def __call__(cls, *args, **kwargs):
        return _legacy_constructor(*args, dtype=cls.dtype, kwargs=kwargs)

    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype

    def __repr__(cls) -> str:
        return f"<class 'torch.{cls.__name__}'>"


def _legacy_tensor_class(name: str, dt) -> type:
    return _LegacyTensorType(name, (), {"dtype": dt, "is_cuda": False,
                                        "__doc__": f"Legacy constructor of {dt} tensors."})


FloatTensor = _legacy_tensor_class("FloatTensor", _dtypes.float32)
DoubleTensor = _legacy_tensor_class("DoubleTensor", _dtypes.float64)
HalfTensor = _legacy_tensor_class("HalfTensor", _dtypes.float16)
BFloat16Tensor = _legacy_tensor_class("BFloat16Tensor", _dtypes.bfloat16)
LongTensor = _legacy_tensor_class("LongTensor", _dtypes.int64)
IntTensor = _legacy_tensor_class("IntTensor", _dtypes.int32)
ShortTensor = _legacy_tensor_class("ShortTensor", _dtypes.int16)
CharTensor = _legacy_tensor_class("CharTensor", _dtypes.int8)
ByteTensor = _legacy_tensor_class("ByteTensor", _dtypes.uint8)
BoolTensor = _legacy_tensor_class("BoolTensor", _dtypes.bool_)


# ---- filled tensors ---------------------------------------------------------------------------

def _size(size, name: str | None = None) -> tuple:
    """The sizes given to factory ``name`` (as ints or one sequence), with PyTorch's TypeErrors for zeros,
    ones and empty (``name`` None: another factory, an empty size is a 0-dim tensor)."""
    if not size and name is not None:
        raise TypeError(f'{name}() missing 1 required positional arguments: "size"')
    name = name or "zeros"
    if len(size) == 1 and isinstance(size[0], (tuple, list, Size)):
        size = size[0]
    elif len(size) == 1 and not isinstance(size[0], (int, np.integer, Tensor)):
        raise TypeError(f"{name}(): argument 'size' (position 1) must be tuple of ints, not {type(size[0]).__name__}")
    out = []
    for i, s in enumerate(size):
        if isinstance(s, Tensor):
            s = s.item()
        if not isinstance(s, (int, np.integer)) and i > 0:  # (PyTorch: a later element fails while unpacking)
            raise TypeError(f"{name}(): argument 'size' failed to unpack the object at pos {i + 1} with error "
                            f"\"type must be tuple of ints,but got {type(s).__name__}\"")
        if not isinstance(s, (int, np.integer)):
            raise TypeError(f"{name}(): argument 'size' (position 1) must be tuple of ints, but found element of "
                            f"type {type(s).__name__} at pos 0")
        if not -2**63 <= s < 2**63:   # (PyTorch's parser reads an int64; its message goes on with C++ frames)
            raise TypeError(f"{name}(): argument 'size' failed to unpack the object at pos {i + 1} with error "
                            "\"Overflow when unpacking long long\nException raised from THPUtils_unpackLong at "
                            "/__w/pytorch/pytorch/torch/csrc/utils/python_numbers.h:79 (most recent call first):\n")
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {[int(v) for v in size]}")
        out.append(int(s))
    return tuple(out)


def _dt(dtype) -> _dtypes.dtype:
    return _dtypes.get_default_dtype() if dtype is None else _dtypes.to_dtype(dtype)


def _factory_out(name: str, out: Tensor, dtype, make, requires_grad: bool, resize_bump: int = 0) -> Tensor:
    """A factory's ``out=``: ``make(dt)`` written into ``out`` (resized to its shape), dt = out's dtype, which
    a given ``dtype`` must equal (PyTorch's zeros_out, rand_out ...: one version bump, no gradient)."""
    if dtype is not None and _dtypes.to_dtype(dtype) != out.dtype:
        raise RuntimeError(f"dtype {_LEGACY_NAMES[_dtypes.to_dtype(dtype).name]} does not match dtype of out "
                           f"parameter ({_LEGACY_NAMES[out.dtype.name]})")
    if out.requires_grad and grad_mode.is_grad_enabled():
        raise RuntimeError(f"aten::{name}(): functions with out=... arguments don't support automatic "
                           "differentiation, but one of the arguments requires grad.")
    values = make(out.dtype)
    if values is not None:   # (None: empty() of out's own shape leaves it untouched)
        if values.shape != out._data.shape:
            from ._ops_inplace_views import resize_output
            resize_output(out, values.shape)
            out._version_counter[0] += resize_bump   # (randn_out changes a resized out twice)
        with grad_mode.no_grad():
            out.copy_(Tensor._make(values))
    if out._grad_fn is None:   # PyTorch's binding sets the flag from the call's requires_grad=
        out._requires_grad = requires_grad
    return out


def _with_out(fn):
    """``fn`` (a factory) taking PyTorch's ``out=`` too: its result, made in out's dtype, written into out."""
    @functools.wraps(fn)
    def factory(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        dtype, requires_grad = kwargs.pop("dtype", None), kwargs.pop("requires_grad", False)
        if fn.__name__ in ("linspace", "logspace"):   # (their out= infers no dtype from complex ends)
            kwargs["_into_out"] = True
        if fn.__name__ == "normal" and dtype is None and builtins.any(
                isinstance(a, Tensor) for a in (*args, *kwargs.values())):
            return _normal_tensor_out(out, *args, **kwargs)
        return _factory_out(fn.__name__, out, dtype, lambda dt: fn(*args, dtype=dt, **kwargs)._data, requires_grad)
    return factory


def _resized(a: np.ndarray, shape: tuple) -> np.ndarray:
    """``a`` resized in place as resize_ does: its storage keeps the leading values (zeros beyond, here)."""
    flat = np.zeros(int(np.prod(shape, dtype=np.int64)), a.dtype)
    k = min(a.size, flat.size)
    flat[:k] = a.reshape(-1)[:k]
    return flat.reshape(shape)


def zeros(*size, dtype=None, device=None, requires_grad=False, out=None, layout=None) -> Tensor:
    """A tensor of zeros."""
    check_creation_device(device)
    if _meta.BUILDING[0] and out is None:   # (inside a layer built on the meta device: _meta.py)
        return _meta.create(zeros, size, dict(dtype=dtype, requires_grad=requires_grad))
    requires_grad = _flag("zeros", requires_grad)
    flat = size[0] if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
    if builtins.any(isinstance(s, int) and s < 0 for s in flat):
        raise RuntimeError("zeros: Dimension size must be non-negative.")  # zeros' own check, in PyTorch
    if out is not None:
        return _factory_out("zeros", out, dtype, lambda dt: np.zeros(_size(size, "zeros"), dtype=dt.np),
                            requires_grad)
    try:
        data = np.zeros(checked_size(_size(size, "zeros"), _dt(dtype)), dtype=_dt(dtype).np)
    except MemoryError as error:
        raise allocation_error(error) from None
    return _finish(data, requires_grad)


def allocation_error(error: MemoryError) -> BaseException:
    """PyTorch's CPU allocator error for the array NumPy could not allocate (NumPy's error names its shape and
    dtype); any other MemoryError as it is."""
    shape, dt = getattr(error, "shape", None), getattr(error, "dtype", None)
    if shape is None or dt is None:
        return error
    return RuntimeError(f"[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: "
                        f"you tried to allocate {math.prod(shape) * dt.itemsize} bytes. Error code 12 (Cannot "
                        "allocate memory)")


def checked_size(shape: tuple, dt) -> tuple:
    """``shape``, after PyTorch's check that a storage of it in ``dt`` counts its bytes within int64."""
    if math.prod(shape) * dt.itemsize > 2**63 - 1:
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(shape)}")
    return shape


def allocatable(shape: tuple, dt) -> tuple:
    """``shape``, after the checks of PyTorch's allocation of a result of it in ``dt`` (before any computing): the
    storage size, and the allocator's error for a big one (minigrad's kernels may need more memory than the result:
    the random generators' draws, arange's int64 indices)."""
    checked_size(shape, dt)
    if math.prod(shape) * dt.itemsize > 2**32:   # (a trial allocation, left untouched: no memory used)
        try:
            np.empty(shape, dt.np)
        except MemoryError as error:
            raise allocation_error(error) from None
    return shape


def ones(*size, dtype=None, device=None, requires_grad=False, out=None, layout=None) -> Tensor:
    """A tensor of ones."""
    check_creation_device(device)
    if _meta.BUILDING[0] and out is None:   # (inside a layer built on the meta device: _meta.py)
        return _meta.create(ones, size, dict(dtype=dtype, requires_grad=requires_grad))
    requires_grad = _flag("ones", requires_grad)
    if out is not None:
        return _factory_out("ones", out, dtype, lambda dt: _ones(_size(size, "ones"), dt), requires_grad)
    try:
        data = _ones(checked_size(_size(size, "ones"), _dt(dtype)), _dt(dtype))
    except MemoryError as error:
        raise allocation_error(error) from None
    return _finish(data, requires_grad)


def _ones(shape: tuple, dt: _dtypes.dtype) -> np.ndarray:
    """Ones of dtype ``dt`` (complex32's: 1 + 0j, where NumPy's ones would set both float16 fields)."""
    return np.ones(shape, dtype=dt.np) if dt is not _dtypes.complex32 else _filled(shape, 1, dt)


def empty(*size, dtype=None, device=None, requires_grad=False, out=None, layout=None, memory_format=None) -> Tensor:
    """An uninitialised tensor (zeros here, for reproducible lessons)."""
    check_creation_device(device)
    if _meta.BUILDING[0] and out is None:   # (inside a layer built on the meta device: _meta.py)
        return _meta.create(empty, size, dict(dtype=dtype, requires_grad=requires_grad, memory_format=memory_format))
    requires_grad = _flag("empty", requires_grad)
    if out is not None and _size(size, "empty") == out._data.shape:   # (PyTorch leaves out as it is)
        return _factory_out("empty", out, dtype, lambda dt: None, requires_grad)
    if out is not None:
        return _factory_out("empty", out, dtype, lambda dt: _resized(out._data, _size(size)), requires_grad)
    if memory_format is not None and memory_format is not _layout.contiguous_format:
        if memory_format is _layout.preserve_format:
            raise RuntimeError("unsupported memory format Preserve")
        from . import _strides  # (channels_last(_3d): PyTorch's rank check and strides, through empty_like's)
        like = _strides.empty_like(np.empty(_size(size, "empty"), np.bool_), _dt(dtype).np, memory_format)
        like[...] = 0
        return _finish(like, requires_grad)
    try:
        data = np.zeros(checked_size(_size(size, "empty"), _dt(dtype)), dtype=_dt(dtype).np)
    except MemoryError as error:
        raise allocation_error(error) from None
    return _finish(data, requires_grad)


def number_arg(value, fn: str, name: str, position: int):
    """A Number argument as a Python number: PyTorch's parser takes a 0-d tensor outside autograd as one."""
    if isinstance(value, Tensor):
        from ._arg_errors import scalar_arg
        value = scalar_arg(value, fn, name, position, "Number")
    elif not isinstance(value, (numbers.Number, np.number, np.bool_)):
        raise TypeError(f"{fn}(): argument '{name}' (position {position}) must be Number, not "
                        f"{type(value).__name__}")
    elif isinstance(value, np.generic) and not isinstance(value, (int, float, complex)):
        # A NumPy scalar that is no Python number: PyTorch's parser reads an integer one as an int64, any other
        # (np.float16, np.bool_, np.complex64) as a double (NumPy's ComplexWarning: the real part)
        if isinstance(value, np.integer):
            if not -2**63 <= int(value) < 2**63:
                raise TypeError("an integer is required")
            return int(value)
        return float(value)
    return value


def _flag(fn: str, requires_grad) -> bool:
    """``requires_grad=`` as PyTorch's parser takes it: a bool (or None), nothing else (not 1)."""
    if requires_grad is None or isinstance(requires_grad, bool):
        return bool(requires_grad)
    from ._arg_errors import must_be
    raise must_be(fn, "requires_grad", "bool", requires_grad)   # (numpy.bool: a type named with its module)


def _filled(shape, value, dt) -> np.ndarray:
    """``value`` everywhere, converted as PyTorch's fill: checked for overflow, then a C cast (-1 -> 255)."""
    from ._ops import _check_fill_fits  # (late: _ops imports this module's factories)
    _check_fill_fits(value, dt, math.prod(shape))
    if isinstance(value, complex) and not dt.is_complex:
        value = bool(value) if dt is _dtypes.bool_ else value.real  # (checked: no imaginary part into a number)
    if dt is _dtypes.complex32:
        return _dtypes.as_complex32(np.full(shape, value, dtype=np.complex64), warn=False)   # (_finish warns)
    with np.errstate(all="ignore"):
        return np.full(shape, np.asarray(value).astype(dt.np), dtype=dt.np)


@_with_out
def full(size, fill_value, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    """A tensor filled with ``fill_value`` (its dtype inferred from the value if not given)."""
    check_creation_device(device)
    if isinstance(size, (int, np.integer)):
        raise TypeError(f"full(): argument 'size' (position 1) must be tuple of ints, not {type(size).__name__}")
    fill_value = number_arg(fill_value, "full", "fill_value", 2)
    # (a complex fill takes c10's default complex dtype: complex64 even under a float16 default)
    dt = (_dtypes.to_dtype(dtype) if dtype is not None else _dtypes.default_complex()
          if isinstance(fill_value, complex) else _dtypes.scalar_dtype(fill_value))
    try:
        data = _filled(checked_size(_size((size,) if isinstance(size, int) else (tuple(size),)), dt), fill_value, dt)
    except MemoryError as error:
        raise allocation_error(error) from None
    return _finish(data, requires_grad)


@_with_out
def eye(n, m=None, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Identity matrix (n x m)."""
    check_creation_device(device)
    for name, value in (("n", n), ("m", m)):
        if value is not None and value < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {value}")
    _dtypes.refuse_unsigned("eye", _dt(dtype))
    return _finish(np.eye(n, n if m is None else m, dtype=_dt(dtype).np), requires_grad)


@_with_out
def arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Values from start to end (exclusive) in steps of ``step``."""
    check_creation_device(device)
    if end is None:
        start, end = 0, start
    vals = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    from ._ops import _check_scalar_int
    for v in vals:
        if type(v) is int:
            _check_scalar_int(v)   # (the parser's OverflowError for an int beyond uint64)
    if dtype is None:
        dtype = _dtypes.int64 if builtins.all(isinstance(v, int) for v in vals) else _dtypes.get_default_dtype()
    dtype = _dtypes.to_dtype(dtype)
    if dtype.is_complex or dtype is _dtypes.bool_ or dtype in _dtypes.BAREBONES_UNSIGNED:
        if dtype is _dtypes.complex32:
            _dtypes.warn_complex32()   # (the output allocated before the kernel refuses the dtype)
        raise NotImplementedError(f"\"arange_cpu\" not implemented for '{_LEGACY_NAMES[dtype.name]}'")
    start, end, step = vals
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):   # (the ends as C++ prints doubles: %g)
        raise RuntimeError(f"unsupported range: {float(start):g} -> {float(end):g}")
    if not ((step > 0 and end >= start) or (step < 0 and end <= start)):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype._kind == 1:  # integer values from start and step as int64s (the kernel's accumulate type)
        first, by = _dtypes.to_int64(start), _dtypes.to_int64(step)
        if dtype is _dtypes.int64:  # C's truncating division of (end - start + step - sign(step)) by step, in
            if by == 0:             # int64 arithmetic (wrapping past its range)
                raise ValueError("step must be nonzero")
            span = _dtypes.to_int64(end) - first + by - (1 if by > 0 else -1)
            span = (span + 2**63) % 2**64 - 2**63
            n = _range_size(abs(span) // abs(by) * (1 if (span >= 0) == (by > 0) else -1))
        else:   # (counted with the given step: 0.1 counts ten values, all start's)
            n = _range_size(math.ceil((float(end) - float(start)) / float(step)))
        allocatable((n,), dtype)
        return _finish((first + by * np.arange(n, dtype=np.int64)).astype(dtype.np), requires_grad)
    size_d = (float(end) - float(start)) / float(step)   # (in doubles, as PyTorch counts)
    n = _range_size(math.ceil(size_d) if math.isfinite(size_d) else size_d)
    allocatable((n,), dtype)
    return _finish(_arange_like_torch(float(start), float(step), n, dtype.np), requires_grad)




def _range_size(size_d) -> int:
    """PyTorch's check of a range's length (a double), then its cast to int64: 2**63 itself passes and wraps."""
    if not 0 <= size_d <= 2**63:
        raise RuntimeError("invalid size, possible overflow?")
    if size_d == 2**63:
        raise RuntimeError("IntArrayRef contains an int that cannot be represented as a SymInt: -9223372036854775808")
    return int(size_d)


def _arange_like_torch(start: float, step: float, n: int, np_dtype) -> np.ndarray:
    """arange's values as PyTorch's CPU kernel rounds them (same bits, not just close).

    The kernel computes in the accumulate type (double for float and double, float for float16/bfloat16),
    with fused multiply-adds. Above 32768 elements at::parallel_for gives each thread one piece; in a piece,
    runs of two 32-byte vectors start at base = start + step*i (rounded to the dtype), then add k*step to it;
    the tail after the piece's last full run is computed element by element as start + step*i."""
    np_dtype = np.dtype(np_dtype)
    acc = np.dtype(np.float32) if np_dtype.itemsize == 2 else np.dtype(np.float64)
    start, step = acc.type(start), acc.type(step)   # (Scalar::to<accscalar_t>: float16's start is a float)
    out = np.empty(n, dtype=np_dtype)
    token = _np_errstate.set(_QUIET)   # (a float16 value past 65504 becomes inf silently, as in PyTorch)
    try:
        _arange_pieces(out, start, step, acc)
    finally:
        _np_errstate.reset(token)
    return out


def _arange_pieces(out: np.ndarray, start, step, acc: np.dtype) -> None:
    """Fill ``out`` piece by piece as _arange_like_torch describes (start and step are ``acc`` values)."""
    n, np_dtype = out.shape[0], out.dtype
    width = 32 // np_dtype.itemsize
    for first, end in _complex_bits._chunks(n, n):
        idx = np.arange(first, end)
        vec_end = end - (end - first) % (2 * width)
        offset = (idx - first) % width
        base = _fused.fma(step, (idx - offset).astype(acc), start, acc).astype(np_dtype).astype(acc)
        vec = _fused.fma(offset.astype(acc), step, base, acc)
        tail = _fused.fma(step, idx.astype(acc), start, acc)
        out[first:end] = np.where(idx < vec_end, vec, tail)   # (one rounding from acc to the dtype)


def _0dim_ends(name: str, start, end) -> tuple:
    """start and end as Python numbers: a 0-dim tensor is read as PyTorch's Scalar (its item, requires_grad or not);
    PyTorch's error for one with dimensions."""
    bad = [f"{arg} with {v.dim()} dimension(s)" for arg, v in (("start", start), ("end", end))
           if isinstance(v, Tensor) and v.dim()]
    if bad:
        raise RuntimeError(f"{name} only supports 0-dimensional start and end tensors, but got {' and '.join(bad)}.")
    return tuple(v.item() if isinstance(v, Tensor) else v for v in (start, end))


def _space_dtype(name: str, start, end, dtype, into_out: bool) -> _dtypes.dtype:
    """linspace/logspace's dtype: complex ends make it the default complex dtype, and a given dtype must be
    complex then (PyTorch's linspace_logspace_infer_options; not for out=, which converts the ends to its dtype)."""
    if into_out or not (isinstance(start, complex) or isinstance(end, complex)):
        return _dt(dtype)
    inferred = _dtypes.default_complex()
    if dtype is None:
        return inferred
    dt = _dtypes.to_dtype(dtype)
    if not dt.is_complex:
        c_name = "c10::complex<float>" if inferred is _dtypes.complex64 else "c10::complex<double>"
        raise RuntimeError(f"torch.{name}(): inferred dtype {c_name} can't be safely cast to passed dtype "
                           f"{_LEGACY_NAMES[dt.name]}")
    return dt


@_with_out
def linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False, _into_out=False) -> Tensor:
    """``steps`` evenly spaced values from start to end (inclusive)."""
    steps = int(steps) if isinstance(steps, Tensor) else steps   # (a 0-dim integer tensor: the parser's int)
    _check_steps_int64(steps)
    start, end = _0dim_ends("linspace", start, end)
    check_creation_device(device)
    dt = _space_dtype("linspace", start, end, dtype, _into_out)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if steps > 1:   # (no step: PyTorch's empty result or fill_(start) runs no kernel)
        if dt is _dtypes.bool_ or dt is _dtypes.complex32:
            if dt is _dtypes.complex32:
                _dtypes.warn_complex32()   # (the output allocated before the kernel refuses the dtype)
            raise NotImplementedError(f"\"linspace_cpu\" not implemented for '{_LEGACY_NAMES[dt.name]}'")
        _dtypes.refuse_unsigned("linspace_cpu", dt)
    _check_ends_fit(start, end if steps > 1 else None, steps, dt)   # (one step: fill_(start) checks start alone)
    # PyTorch fills the two halves from each end, for symmetric rounding.
    if steps == 1:
        data = np.array([start], dtype=np.complex128 if dt.is_complex else np.float64)
    elif dt in (_dtypes.float32, _dtypes.float64):
        # In the dtype: start, end and the step rounded to it, each value one fused multiply-add.
        s, e = dt.np.type(start), dt.np.type(end)
        step = np.float64((e - s) / dt.np.type(steps - 1))
        idx = np.arange(steps, dtype=np.float64)
        data = np.where(idx < steps // 2, _fma(step, idx, np.float64(s)), _fma(-step, steps - 1 - idx, np.float64(e)))
    elif dt in (_dtypes.float16, _dtypes.bfloat16):
        # Half (and bfloat16) arithmetic rounds after every operation (the index too).
        with np.errstate(over="ignore", invalid="ignore"):
            h = dt.np.type
            s, e = h(start), h(end)
            step = (e - s) / h(steps - 1)
            idx = np.arange(steps)
            data = np.where(idx < steps // 2, s + step * idx.astype(dt.np),
                            e - step * (steps - 1 - idx).astype(dt.np))
    elif dt._kind == 1:
        # Integer endpoints (truncated), a double step, each value truncated.
        s, e = (float(np.asarray(int(v)).astype(dt.np)) for v in (start, end))   # (uint8's -1 wraps to 255)
        step = np.float64((e - s) / (steps - 1))
        idx = np.arange(steps, dtype=np.float64)
        data = np.trunc(np.where(idx < steps // 2, _fma(step, idx, s), _fma(-step, steps - 1 - idx, e)))
    elif dt in (_dtypes.complex64, _dtypes.complex128):
        # Each part as a real linspace in the parts' type: the step (end - start) / (steps - 1), each value one
        # fused multiply-add (c10::complex's operators, contracted by the compiler)
        s, e = dt.np.type(start), dt.np.type(end)
        part = np.dtype(np.float32 if dt is _dtypes.complex64 else np.float64)
        idx = np.arange(steps, dtype=part)
        first = np.arange(steps) < steps // 2
        data = np.empty(steps, dt.np)
        with np.errstate(all="ignore"):
            for name in ("real", "imag"):
                lo, hi = part.type(getattr(s, name)), part.type(getattr(e, name))
                step = np.full(steps, (hi - lo) / part.type(steps - 1), part)
                setattr(data, name, np.where(first, _complex_bits._fma(step, idx, np.full(steps, lo, part)),
                                             _complex_bits._fma(-step, idx[::-1].copy(), np.full(steps, hi, part))))
    else:
        step = (end - start) / (steps - 1)
        idx = np.arange(steps, dtype=np.float64)
        half = steps // 2
        data = np.where(idx < half, start + step * idx, end - step * (steps - 1 - idx))
    return _finish(_cast(data, dt), requires_grad)


def _cast(data: np.ndarray, dt) -> np.ndarray:
    """``data.astype(dt.np)``; complex32 part by part (NumPy's cast to its float16 pairs gives both the real part),
    warning in _finish."""
    return _dtypes.as_complex32(data, warn=False) if dt is _dtypes.complex32 else data.astype(dt.np)


@_with_out
def logspace(start, end, steps, base=10.0, *, dtype=None, device=None, requires_grad=False,
             _into_out=False) -> Tensor:
    """``steps`` values from base**start to base**end, evenly spaced in the exponent."""
    steps = int(steps) if isinstance(steps, Tensor) else steps   # (a 0-dim integer tensor: the parser's int)
    _check_steps_int64(steps)
    start, end = _0dim_ends("logspace", start, end)
    check_creation_device(device)
    dt = _space_dtype("logspace", start, end, dtype, _into_out)
    if steps > 1:   # (no step: PyTorch's empty result or fill_(base**start) runs no kernel)
        if dt is _dtypes.bool_ or dt is _dtypes.complex32:
            if dt is _dtypes.complex32:
                _dtypes.warn_complex32()   # (the output allocated before the kernel refuses the dtype)
            raise NotImplementedError(f"\"logspace_cpu\" not implemented for '{_LEGACY_NAMES[dt.name]}'")
        _dtypes.refuse_unsigned("logspace_cpu", dt)
    _check_ends_fit(start, end, steps if steps > 1 else 0, dt)
    if steps == 1 and not dt.is_complex and (dt.itemsize > 2 or dt._kind == 1):
        # (one step: fill_(pow(base, start)), a value checked as the fill value -- not for 16-bit floats)
        _check_ends_fit(_c_pow(float(base), float(start)), None, 1, dt)
    if dt in (_dtypes.complex64, _dtypes.complex128) and steps > 1:
        return _finish(_complex_bits.logspace(start, end, steps, base, dt.np), requires_grad)
    if dt.is_complex or steps < 2:
        exponents = linspace(start, end, steps, dtype=_dtypes.complex128 if dt.is_complex else _dtypes.float64)
        return _finish(_cast(np.power(base, exponents._data), dt), requires_grad)
    # PyTorch's loop: the ends in the dtype (integers truncated), a double step from their difference (taken in
    # the dtype), the exponent start + step·i (end - step·(steps-1-i) in the second half) in double, and C's
    # pow(base, exponent) in double rounded to the dtype (math.pow: NumPy's SIMD power rounds differently)
    with np.errstate(over="ignore", invalid="ignore"):
        s, e = np.asarray(start).astype(dt.np), np.asarray(end).astype(dt.np)
        # (C promotes a small integer type's difference to int: uint8's 0 - 3 is -3)
        step = np.float64(e.astype(np.int64) - s if dt._kind == 1 else e - s) / (steps - 1)
        idx = np.arange(steps, dtype=np.float64)
        exponent = np.where(idx < steps // 2, np.float64(s) + step * idx, np.float64(e) - step * (steps - 1 - idx))
        data = np.array([_c_pow(float(base), x) for x in exponent.tolist()]).astype(dt.np)
    return _finish(data, requires_grad)


def _check_steps_int64(steps) -> None:
    """The parser's refusal of a ``steps`` int beyond int64 (it reads a C long long)."""
    if type(steps) is int and not -2**63 <= steps < 2**63:
        raise ValueError("Overflow when unpacking long long")


def _check_ends_fit(start, end, steps: int, dt) -> None:
    """PyTorch converts the ends to the dtype (``Scalar::to``, refusing a value out of its range) once it fills."""
    from ._ops import _check_scalar_fits
    if steps > 0:
        for value in (start, end):
            if value is not None:
                _check_scalar_fits(value, dt)


def _c_pow(x: float, y: float) -> float:
    """C's pow: NaN for a negative base to a fractional power, inf on overflow (math.pow raises there)."""
    try:
        return math.pow(x, y)
    except ValueError:    # (0 to a negative power: inf; a negative base to a fractional power: NaN)
        return math.inf if x == 0 else math.nan
    except OverflowError:
        return math.copysign(math.inf, x) if x < 0 and y == int(y) and int(y) % 2 else math.inf


def _like(input: Tensor, dtype):
    return input._data.shape, (input.dtype if dtype is None else _dtypes.to_dtype(dtype))


def zeros_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None, layout=None) -> Tensor:
    """Zeros with the shape (and, by default, the dtype) of ``input``."""
    check_creation_device(_meta.creation_device(device), use_default=False)  # (a tensor like input: on its device)
    requires_grad = _flag("zeros_like", requires_grad)
    shape, dt = _like(input, dtype)
    # (inside vmap: batched as input is)
    out = _finish(_like_layout(input, np.zeros(shape, dtype=dt.np), memory_format), requires_grad)
    return _meta.like(_vmap_batched.like(input, _empty_like(input, memory_format, out)), input, device)


def ones_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None, layout=None) -> Tensor:
    """Ones with the shape (and, by default, the dtype) of ``input``."""
    check_creation_device(_meta.creation_device(device), use_default=False)  # (a tensor like input: on its device)
    requires_grad = _flag("ones_like", requires_grad)
    shape, dt = _like(input, dtype)
    out = _finish(_like_layout(input, _ones(shape, dt), memory_format), requires_grad)
    return _meta.like(_vmap_batched.like(input, _empty_like(input, memory_format, out)), input, device)


def empty_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None, layout=None) -> Tensor:
    """An uninitialised tensor shaped like ``input`` (here: zeros)."""
    check_creation_device(_meta.creation_device(device), use_default=False)  # (a tensor like input: on its device)
    requires_grad = _flag("empty_like", requires_grad)
    return zeros_like(input, dtype=dtype, device=device, requires_grad=requires_grad, memory_format=memory_format)


def full_like(input, fill_value, *, dtype=None, device=None, requires_grad=False, memory_format=None) -> Tensor:
    """``fill_value`` everywhere, with the shape (and, by default, the dtype) of ``input``."""
    check_creation_device(_meta.creation_device(device), use_default=False)  # (a tensor like input: on its device)
    requires_grad = _flag("full_like", requires_grad)
    shape, dt = _like(input, dtype)
    fill_value = number_arg(fill_value, "full_like", "fill_value", 2)
    out = _finish(_like_layout(input, _filled(shape, fill_value, dt), memory_format), requires_grad)
    return _meta.like(_vmap_batched.like(input, _empty_like(input, memory_format, out)), input, device)


def _empty_like(input: Tensor, memory_format, out: Tensor) -> Tensor:
    """``out`` with the strides of ``empty_like(input, memory_format=...)`` when both are empty (see _strides)."""
    if out._data.size == 0:
        _strides.keep_copy_strides(out, input, memory_format)
    return out


def _like_layout(input: Tensor, array: np.ndarray, memory_format) -> np.ndarray:
    """``array`` (C order) laid out as PyTorch's ``empty_like(input, memory_format=...)``; itself if that is C order."""
    from . import _strides
    if memory_format is _layout.contiguous_format or (
            memory_format in (None, _layout.preserve_format) and _strides.preserve_strides(input._data) is None):
        return array
    out = _strides.empty_like(input._data, array.dtype, memory_format)
    np.copyto(out, array)
    return out


# ---- random tensors ---------------------------------------------------------------------------
# The generator (PyTorch's mt19937) and PyTorch's samplers live in _random.py. PyTorch makes each random
# tensor as empty(...) filled by an in-place sampler (rand: uniform_, randn: normal_, randint: random_),
# so these factories draw exactly what those samplers draw.


def _check_normal(std, dt) -> None:
    """PyTorch's checks before sampling N(mean, std²): std >= 0, then a floating dtype."""
    if isinstance(std, Tensor):
        if std.dtype.is_complex:
            raise RuntimeError("normal expects standard deviation to be non-complex")
        if std._data.size and not bool((std._data >= 0).all()):  # (PyTorch: std.min() >= 0, so NaN fails)
            raise RuntimeError("normal expects all elements of std >= 0.0")
    elif not std >= 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
    if not (dt.is_floating_point or dt.is_complex):
        raise NotImplementedError(f"\"normal_kernel_cpu\" not implemented for '{_LEGACY_NAMES[dt.name]}'")


def _check_uniform(a, b, dt) -> None:
    """PyTorch's checks before sampling U(a, b): a floating dtype, finite bounds with a <= b."""
    if not (dt.is_floating_point or dt.is_complex):
        raise NotImplementedError(f"\"check_uniform_bounds\" not implemented for '{_LEGACY_NAMES[dt.name]}'")
    limit = float(np.finfo(dt.np).max) if dt.np.kind == "f" else float("inf")
    type_name = {"float32": "float", "float64": "double", "float16": "c10::Half"}.get(dt.name, dt.name)
    for name, v in (("from", a), ("to", b)):
        if not -limit <= v <= limit:
            raise RuntimeError(f"{name} is out of bounds for {type_name}")
    if a > b:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={a:g} > to={b:g}")


def _real_np(dt) -> np.dtype:
    """The NumPy dtype of a complex dtype's parts (PyTorch samples complex tensors through view_as_real)."""
    return np.dtype({"complex32": np.float16, "complex64": np.float32}.get(dt.name, np.float64))


def _uniform_values(shape: tuple, dt, a: float, b: float, generator, like=None) -> np.ndarray:
    """U(a, b) values for a new tensor (complex: real and imaginary parts drawn in turn)."""
    g, n = _random.gen(generator), int(np.prod(shape, dtype=np.int64))
    if dt.is_complex:
        values = _random.uniform(g, 2 * n, _real_np(dt), a, b).view(dt.np)
    else:
        values = _random.uniform(g, n, dt.np, a, b)
    return _random.fill_order(values, like) if like is not None else values.reshape(shape)


def _normal_values(shape: tuple, dt, mean: float, std: float, generator, like=None) -> np.ndarray:
    """N(mean, std²) values for a new tensor (complex: each part N(mean, std²/2), drawn in turn)."""
    g, n = _random.gen(generator), int(np.prod(shape, dtype=np.int64))
    contiguous = like is None
    if dt.is_complex:
        values = _random.normal(g, 2 * n, _real_np(dt), mean, std / np.sqrt(2), contiguous).view(dt.np)
    else:
        values = _random.normal(g, n, dt.np, mean, std, contiguous)
    return _random.fill_order(values, like) if like is not None else values.reshape(shape)


def _preserved_layout(input: Tensor):
    """The layout ``empty_like(input)`` keeps: input's own strides when it is a dense permutation, else None."""
    a = input._data
    if a.flags["C_CONTIGUOUS"] or a.size == 0:
        return None
    dims = sorted((d for d in range(a.ndim) if a.shape[d] != 1), key=lambda d: abs(a.strides[d]))
    step = a.itemsize
    for d in dims:  # dense: each stride is the product of the smaller dims' sizes
        if abs(a.strides[d]) != step:
            return None
        step *= a.shape[d]
    return a


def rand(*size, generator=None, dtype=None, device=None, requires_grad=False, out=None) -> Tensor:
    """Uniform random values in [0, 1)."""
    check_creation_device(device)
    if out is not None:
        return _factory_out("rand", out, dtype, lambda dt: rand(*size, generator=generator, dtype=dt)._data,
                            requires_grad)
    dt, shape = _dt(dtype), _size(size, "rand")
    _check_uniform(0, 1, dt)
    allocatable(shape, dt)
    return _finish(_uniform_values(shape, dt, 0.0, 1.0, generator), requires_grad)


def randn(*size, generator=None, dtype=None, device=None, requires_grad=False, out=None) -> Tensor:
    """Standard normal random values."""
    check_creation_device(device)
    if out is not None:
        return _factory_out("randn", out, dtype, lambda dt: randn(*size, generator=generator, dtype=dt)._data,
                            requires_grad, resize_bump=1)
    dt, shape = _dt(dtype), _size(size, "randn")
    _check_normal(1.0, dt)
    allocatable(shape, dt)
    return _finish(_normal_values(shape, dt, 0.0, 1.0, generator), requires_grad)


@_with_out
def randint(low=0, high=None, size=None, *, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Random integers in [low, high): PyTorch's ``empty(size).random_(low, high)``."""
    from ._random_fills import random_
    check_creation_device(device)
    if size is None and isinstance(high, (tuple, list)):  # randint(high, size)
        low, high, size = 0, low, high
    if high is None:
        low, high = 0, low
    dt = _dtypes.int64 if dtype is None else _dtypes.to_dtype(dtype)
    out = Tensor._make(np.zeros(allocatable(_size((size,), "randint"), dt), dtype=dt.np))
    random_(out, int(low), int(high), generator=generator)
    return _finish(out._data, requires_grad)


def multinomial(input, num_samples, replacement=False, *, generator=None, out=None) -> Tensor:
    """Category indices drawn from each row of non-negative weights ``input`` (int64; no gradient)."""
    _random.check_generator(generator, "multinomial")
    if not isinstance(replacement, (bool, np.bool_)):  # (the wrappers report PyTorch's message for it)
        raise TypeError("multinomial(): replacement must be bool")
    if _vmap_batched.DEPTH[0]:
        _vmap_batched.check_random((input,))
    if out is None:
        return _multinomial(input, num_samples, replacement, generator)
    if input.dim() in (1, 2) and input.dtype.is_floating_point and out.dtype is not _dtypes.int64:
        raise RuntimeError(f"multinomial expects Long tensor out, got: {_LEGACY_NAMES[out.dtype.name]}")
    result = _multinomial(input, num_samples, replacement, generator)
    if out._data.shape != result._data.shape:  # (multinomial_out resizes out itself: no warning)
        from ._ops_inplace_views import resize_output
        resize_output(out, result._data.shape)
    with grad_mode.no_grad():
        return out.copy_(result)


def _multinomial(input, num_samples, replacement, generator) -> Tensor:
    """multinomial without out=.

    As PyTorch: without replacement (or for one sample) the ``num_samples`` largest ``w / E`` for E ~ Exp(1)
    (weighted sampling without replacement); with replacement an inverse-CDF draw per sample.
    """
    if isinstance(num_samples, bool) or not isinstance(num_samples, (int, np.integer)):
        raise TypeError("multinomial(): argument 'num_samples' (position 2) must be int, not "
                        f"{type(num_samples).__name__}")
    if input.dim() not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{_LEGACY_NAMES[input.dtype.name]}")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    n = input.shape[-1]
    if not replacement and num_samples > n:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    if n > 2 ** 24:
        raise RuntimeError("number of categories cannot exceed 2^24")
    rows = input._data.reshape(-1, n).astype(np.float64)
    if not replacement or num_samples == 1:  # (the sampler with replacement checks each row as it goes)
        if rows.size and not (np.isfinite(rows).all() and (rows >= 0).all()):
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        if rows.size and (rows.sum(axis=1) <= 0).any():
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    out_shape = input.shape[:-1] + (num_samples,)
    if rows.size == 0:
        return Tensor._make(np.zeros(out_shape, dtype=np.int64))
    g = _random.gen(generator)
    if replacement and num_samples > 1:
        out = _random.multinomial_with_replacement(g, input._data.reshape(-1, n), num_samples)
        return Tensor._make(out.reshape(out_shape))
    # q = empty_like(input).exponential_(1); the largest input / q win (Distributions.cpp, multinomial_out)
    layout = _preserved_layout(input)
    q = _random.to_dtype(_random.exponential(g, input.numel(), 1.0), input._data.dtype)
    q = _random.fill_order(q, layout) if layout is not None else q.reshape(input.shape)
    with np.errstate(all="ignore"):
        keys = Tensor._make((input._data / q).astype(input._data.dtype))
    if num_samples == 1:
        return Tensor._make(np.argmax(keys._data, axis=-1)[..., None].astype(np.int64))
    return keys.topk(num_samples).indices


@_with_out
def _randperm(n, *, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    """A random permutation of 0 .. n-1 (randperm without its out= check)."""
    check_creation_device(device)
    dt = _dtypes.int64 if dtype is None else _dtypes.to_dtype(dtype)
    if n < 0:  # (PyTorch makes the empty result first)
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    _check_randperm_range(n, dt)
    return _finish(_random.to_dtype(_random.randperm(_random.gen(generator), int(n)), dt.np), requires_grad)


def randperm(n, *, out=None, **kwargs) -> Tensor:
    """A random permutation of 0 .. n-1."""
    if out is not None and n < 0:  # (randperm_out's own check: out already exists)
        raise RuntimeError(f"n must be non-negative, got{n}")
    return _randperm(n, out=out, **kwargs)


def _check_randperm_range(n: int, dt) -> None:
    """PyTorch's randperm checks: n - 1 must fit in ``dt`` (and every value be exact in a float), kernel dtypes."""
    from ._ops import _CPP_NAMES
    if dt.is_floating_point or dt in (_dtypes.int8, _dtypes.int16, _dtypes.int32, _dtypes.uint8):
        info = _dtypes.finfo(dt) if dt.is_floating_point else _dtypes.iinfo(dt)
        if n - 1 > info.max:
            raise RuntimeError(f"value cannot be converted to type {_CPP_NAMES[dt.name]} without overflow")
    if dt is _dtypes.float16 and n > 2**11 + 1:
        raise RuntimeError("n cannot be greater than 2049 for Half type.")
    if dt is _dtypes.float32 and n > 2**24 + 1:
        raise RuntimeError("n cannot be greater than 2^24+1 for Float type.")
    if dt.is_complex or dt is _dtypes.bool_:  # (the kernel is for real numbers only)
        raise NotImplementedError(f"\"randperm\" not implemented for '{_LEGACY_NAMES[dt.name]}'")
    _dtypes.refuse_unsigned("randperm", dt)


def _empty_like_layout(input: Tensor):
    """``empty_like(input)`` (uninitialised) where its layout is not C order, else None: the *_like random fills
    draw into it in its memory order (a non-dense input's too: dense strides in its dim order)."""
    a = input._data
    return None if _strides.preserve_strides(a) is None else _strides.empty_like(a)


def _as_empty_like(values: np.ndarray, input: Tensor) -> np.ndarray:
    """``values`` (arranged by ``_empty_like_layout``'s order) laid out as ``empty_like(input)``: a size-1 dim's
    stride too (``x.t()`` of a (2, 1) tensor keeps strides (1, 1))."""
    strides = _strides.preserve_strides(input._data)
    if strides is None or values.shape != input._data.shape:
        return values
    return _strides.copy_into(_strides.with_strides(values.shape, strides, values.dtype), values)


def rand_like(input, *, dtype=None, requires_grad=False, **kw) -> Tensor:
    """U(0, 1) samples shaped like ``input`` (laid out like it, as PyTorch's empty_like)."""
    if _meta.is_meta_device(kw.get("device")) or (kw.get("device") is None and _meta.is_meta(input)):
        return zeros_like(input, dtype=dtype, device="meta", requires_grad=requires_grad)   # (no draws: _meta.py)
    check_creation_device(kw.get("device"), use_default=False)
    shape, dt = _like(input, dtype)
    _check_uniform(0, 1, dt)
    return _finish(_as_empty_like(_uniform_values(shape, dt, 0.0, 1.0, kw.get("generator"), _empty_like_layout(input)),
                                  input), requires_grad)


def randn_like(input, *, dtype=None, requires_grad=False, **kw) -> Tensor:
    """N(0, 1) samples shaped like ``input`` (laid out like it, as PyTorch's empty_like)."""
    if _meta.is_meta_device(kw.get("device")) or (kw.get("device") is None and _meta.is_meta(input)):
        return zeros_like(input, dtype=dtype, device="meta", requires_grad=requires_grad)   # (no draws: _meta.py)
    check_creation_device(kw.get("device"), use_default=False)
    shape, dt = _like(input, dtype)
    if input.numel():  # (nothing is sampled for an empty tensor: no dtype check either)
        _check_normal(1.0, dt)
    return _finish(_as_empty_like(_normal_values(shape, dt, 0.0, 1.0, kw.get("generator"), _empty_like_layout(input)),
                                  input), requires_grad)


def randint_like(input, low=None, high=None, *, dtype=None, requires_grad=False, **kw) -> Tensor:
    """Random integers in [low, high) shaped like ``input`` (``randint_like(x, high)``: low = 0)."""
    from ._random_fills import random_
    if _meta.is_meta_device(kw.get("device")) or (kw.get("device") is None and _meta.is_meta(input)):
        return zeros_like(input, dtype=dtype, device="meta", requires_grad=requires_grad)   # (no draws: _meta.py)
    check_creation_device(kw.get("device"), use_default=False)
    shape, dt = _like(input, dtype)
    if high is None:
        low, high = 0, low
    elif low is None:  # (randint_like(x, high=5))
        low = 0
    layout = _empty_like_layout(input)
    out = Tensor._make(np.zeros(shape, dtype=dt.np) if layout is None else np.zeros_like(layout, dtype=dt.np))
    random_(out, int(low), int(high), generator=kw.get("generator"))
    # (np.asarray with order="C": np.ascontiguousarray would turn a 0-d result 1-d)
    return _finish(_as_empty_like(np.asarray(out._data, order="C") if layout is None else out._data, input),
                   requires_grad)


@_with_out
def normal(mean=0.0, std=1.0, size=None, *, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Samples of N(mean, std²); mean and std may be tensors (broadcast together).

    As PyTorch's normal_out_impl: a tensor mean with a number std draws N(0, std²) and adds mean; a tensor
    std draws N(0, 1), multiplies by std and adds mean (each step rounded in the result's dtype).
    """
    if _vmap_batched.DEPTH[0]:
        _vmap_batched.check_random((mean, std))
    check_creation_device(device)
    numbers_only = not (isinstance(mean, Tensor) or isinstance(std, Tensor))
    _check_normal(std, _dt(dtype) if numbers_only else _dtypes.float32)   # (a dtype= only with numbers)
    if numbers_only:
        dt = _dt(dtype)
        return _finish(_normal_values(_size((size,)), dt, float(mean), float(std), generator), requires_grad)
    ref = mean if isinstance(mean, Tensor) else std
    m = mean._data if isinstance(mean, Tensor) else mean
    s = std._data if isinstance(std, Tensor) else std
    out_np = ref._data.dtype
    try:
        shape = np.broadcast_shapes(np.shape(m), np.shape(s))
    except ValueError:
        from ._ops import _raise_broadcast_error  # (PyTorch's infer_size message)
        _raise_broadcast_error(np.shape(m), np.shape(s))
    _check_normal(1.0, ref.dtype)  # the result (mean's dtype, else std's) must be a floating one
    with np.errstate(all="ignore"):
        if isinstance(std, Tensor):
            z = _normal_values(shape, ref.dtype, 0.0, 1.0, generator)
            z = (z * s).astype(out_np)  # output.mul_(std)
        else:
            z = _normal_values(shape, ref.dtype, 0.0, float(s), generator)
        values = (z + m).astype(out_np)  # .add_(mean)
    if builtins.any(isinstance(t, Tensor) and (t.requires_grad or t._fw_grad is not None) for t in (mean, std)):
        from . import derivatives as D  # a NormalBackward node (zero gradients, zero tangent), as PyTorch records
        if not isinstance(std, Tensor):
            return D.normal_tensor_float(mean, values=values)
        return D.normal_tensor_tensor(mean, std, values=values) if isinstance(mean, Tensor) else \
            D.normal_float_tensor(std, values=values)
    return _finish(values, requires_grad)


def _normal_tensor_out(out: Tensor, mean=0.0, std=1.0, *, generator=None) -> Tensor:
    """normal(mean, std, out=o) with a tensor mean or std, as PyTorch's normal_out_impl: o resized (resize_output,
    with its warning) to mean's shape broadcast with o's own (infer_size: a number std), to std's (a number mean)
    or to theirs; then N(0, std²) drawn into o in o's dtype, times a tensor std, plus mean."""
    tensors = [t for t in (mean, std, out) if isinstance(t, Tensor)]
    if grad_mode.is_grad_enabled() and builtins.any(t.requires_grad for t in tensors):
        raise RuntimeError("normal(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")
    _check_normal(std, _dtypes.float32)
    from ._ops import _raise_broadcast_error, _warn_resized
    mean_shape = mean._data.shape if isinstance(mean, Tensor) else ()
    pair = (mean_shape, std._data.shape) if isinstance(std, Tensor) else (mean_shape, out._data.shape)
    try:
        shape = np.broadcast_shapes(*pair)
    except ValueError:
        if isinstance(mean, Tensor) and isinstance(std, Tensor):   # (their deprecated same-numel form: as before)
            return _factory_out("normal", out, None, lambda dt: normal(mean, std, generator=generator)._data, False)
        _raise_broadcast_error(*pair)
    if shape != out._data.shape:
        if out._data.size:
            _warn_resized(out._data.shape, shape)
        from ._ops_inplace_views import resize_output
        resize_output(out, shape)
    _check_normal(1.0, out.dtype)
    with np.errstate(all="ignore"):
        values = _normal_values(shape, out.dtype, 0.0, 1.0 if isinstance(std, Tensor) else float(std), generator)
        if isinstance(std, Tensor):
            values = (values * std._data).astype(out._data.dtype)   # out.mul_(std)
        values = (values + (mean._data if isinstance(mean, Tensor) else mean)).astype(out._data.dtype)  # .add_(mean)
    with grad_mode.no_grad():
        out.copy_(Tensor._make(values))
    return out


# ---- Tensor.new_* (a new tensor with this tensor's dtype unless told otherwise) -----------------

def _new_tensor(self, data, *, dtype=None, device=None, requires_grad=False, **kw) -> Tensor:
    """x.new_tensor(data): a copy of data with x's dtype by default."""
    check_creation_device(device, use_default=False)
    if isinstance(data, Tensor):
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
            "sourceTensor.detach().clone().requires_grad_(True), rather than tensor.new_tensor(sourceTensor).",
            UserWarning, stacklevel=_user_stacklevel())
    return tensor(_plain(data), dtype=self.dtype if dtype is None else dtype, requires_grad=requires_grad)


def _new_zeros(self, *size, dtype=None, device=None, requires_grad=False, **kw) -> Tensor:
    """x.new_zeros(size)."""
    check_creation_device(device, use_default=False)
    return zeros(*size, dtype=self.dtype if dtype is None else dtype, requires_grad=requires_grad)


def _new_ones(self, *size, dtype=None, device=None, requires_grad=False, **kw) -> Tensor:
    """x.new_ones(size)."""
    check_creation_device(device, use_default=False)
    return ones(*size, dtype=self.dtype if dtype is None else dtype, requires_grad=requires_grad)


def _new_empty(self, *size, dtype=None, device=None, requires_grad=False, **kw) -> Tensor:
    """x.new_empty(size)."""
    check_creation_device(device, use_default=False)
    return empty(*size, dtype=self.dtype if dtype is None else dtype, requires_grad=requires_grad)


def _new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False, **kw) -> Tensor:
    """x.new_full(size, value)."""
    check_creation_device(device, use_default=False)
    return full(size, fill_value, dtype=self.dtype if dtype is None else dtype, requires_grad=requires_grad)


Tensor.multinomial = multinomial
for _name, _fn in (("new_tensor", _new_tensor), ("new_zeros", _new_zeros), ("new_ones", _new_ones),
                   ("new_empty", _new_empty), ("new_full", _new_full)):
    if not hasattr(Tensor, _name):  # leave any richer version defined elsewhere in place
        setattr(Tensor, _name, _fn)
