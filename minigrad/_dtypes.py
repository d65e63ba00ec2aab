"""dtype objects over NumPy dtypes, PyTorch's defaults and type promotion."""
from __future__ import annotations

import ml_dtypes
import numpy as np

from ._class_names import CTypeNamed, TorchNamed


class dtype(metaclass=CTypeNamed):
    """A tensor element type; prints as PyTorch spells it (``torch.float32``)."""

    _torch_name = "torch.dtype"
    __module__ = "minigrad"   # (pickle finds a dtype by name in the namespace, minigrad.float32, as torch.float32)

    __slots__ = ("_kind", "is_complex", "is_floating_point", "is_signed", "itemsize", "name", "np")

    def __init__(self, name: str, np_dtype, kind: int):
        self.name = name
        self.np = np.dtype(np_dtype)
        self._kind = kind  # promotion category: 0 bool, 1 integer, 2 floating, 3 complex
        self.is_floating_point = kind == 2
        self.is_complex = kind == 3
        self.is_signed = name not in ("bool", "uint8")
        self.itemsize = self.np.itemsize

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self):
        """The dtype's name: pickled as a global, so it loads (and copies) as the same object."""
        return self.name

    def to_real(self) -> dtype:
        """The real counterpart of a complex dtype (complex64 -> float32)."""
        return {"complex64": float32, "complex128": float64}.get(self.name, self)

    def to_complex(self) -> dtype:
        """The complex counterpart of a real floating dtype (float32 -> complex64)."""
        if self.is_complex:
            return self
        if not self.is_floating_point:
            names = {"bool": "Bool", "uint8": "Byte", "int8": "Char", "int16": "Short", "int32": "Int", "int64": "Long"}
            raise RuntimeError(f"Unknown Complex ScalarType for {names[self.name]}")
        return complex128 if self is float64 else complex64  # (float16: PyTorch's complex32, which NumPy lacks)


bool_ = dtype("bool", np.bool_, 0)
uint8 = dtype("uint8", np.uint8, 1)
int8 = dtype("int8", np.int8, 1)
int16 = dtype("int16", np.int16, 1)
int32 = dtype("int32", np.int32, 1)
int64 = dtype("int64", np.int64, 1)
float16 = dtype("float16", np.float16, 2)
bfloat16 = dtype("bfloat16", ml_dtypes.bfloat16, 2)
float32 = dtype("float32", np.float32, 2)
float64 = dtype("float64", np.float64, 2)
complex64 = dtype("complex64", np.complex64, 3)
complex128 = dtype("complex128", np.complex128, 3)

ALL = (bool_, uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64, complex64, complex128)
_NP_TO_DTYPE = {d.np: d for d in ALL}

# PyTorch's aliases (torch.half, torch.long, ...).
ALIASES = {
    "half": float16, "float": float32, "double": float64, "cfloat": complex64, "cdouble": complex128,
    "short": int16, "int": int32, "long": int64,
}


def _by_name(name: str) -> dtype:
    return {d.name: d for d in ALL}[name]


def from_numpy(np_dtype) -> dtype:
    """The minigrad dtype of a NumPy dtype (TypeError for types PyTorch lacks)."""
    try:
        return _NP_TO_DTYPE[np.dtype(np_dtype)]
    except KeyError:
        if not np.dtype(np_dtype).isnative:
            raise ValueError("given numpy array has byte order different from the native byte order. Conversion "
                             "between byte orders is currently not supported.") from None
        if np.dtype(np_dtype).kind == "u":   # PyTorch's barely supported uint16/32/64 (no arithmetic on CPU)
            raise TypeError(f"minigrad has no {np.dtype(np_dtype).name} dtype (PyTorch's has little support "
                            "either): convert the array, e.g. with .astype(np.int64)") from None
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{np.dtype(np_dtype).type.__name__}. The only supported types "
            "are: float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, "
            "uint16, uint8, and bool."
        ) from None


def to_dtype(d) -> dtype:
    """Accept a minigrad dtype, a NumPy dtype or a Python type (float, int, bool, complex)."""
    if isinstance(d, dtype):
        return d
    if d is float:
        return float64
    if d is int:
        return int64
    if d is bool:
        return bool_
    if d is complex:
        return complex128
    return from_numpy(d)


# ---- default dtype -------------------------------------------------------------------------

_default = float32


def get_default_dtype() -> dtype:
    """The dtype of new floating tensors (``float32`` unless changed)."""
    return _default


def set_default_dtype(d: dtype) -> None:
    """Set the dtype of new floating tensors; only float16/bfloat16/float32/float64 are allowed."""
    global _default
    if not isinstance(d, dtype):  # (a name or a Python type is not a torch.dtype)
        raise TypeError("invalid dtype object: only floating-point types are supported as the default type")
    if d not in (float32, float64, float16, bfloat16):
        raise TypeError("only floating-point types are supported as the default type")
    _default = d


def default_complex() -> dtype:
    """The complex dtype matching the default float dtype."""
    return complex128 if _default is float64 else complex64


def scalar_dtype(value) -> dtype:
    """dtype a Python scalar gets when it becomes a tensor on its own."""
    if isinstance(value, bool):
        return bool_
    if isinstance(value, int):
        return int64
    if isinstance(value, float):
        return _default
    if isinstance(value, complex):
        return default_complex()
    return from_numpy(np.asarray(value).dtype)


# ---- type promotion (PyTorch's rules) --------------------------------------------------------
#
# Operands fall into three priority classes: tensors with dim > 0, zero-dim tensors, Python scalars
# ("wrapped numbers"). Each class is promoted on its own; then a lower class only matters if it
# belongs to a higher category (bool < integer < floating < complex) - PyTorch's combine_categories.
#
# PyTorch gives float16 + complex -> complex32; NumPy has no complex32, so minigrad uses complex64.
_TO_COMPLEX = {"float16": "complex64", "bfloat16": "complex64", "float32": "complex64", "float64": "complex128"}


def _promote_two(a: dtype, b: dtype) -> dtype:
    """Promote two dtypes of tensors of equal priority (torch.promote_types)."""
    if a is b:
        return a
    if a._kind != b._kind:
        hi, lo = (a, b) if a._kind > b._kind else (b, a)
        if hi.is_complex and lo.is_floating_point and lo is float64:
            return complex128
        return hi
    if a.is_complex:
        return complex128
    if a.is_floating_point:
        if {a.name, b.name} == {"float16", "bfloat16"}:
            return float32
        return a if a.itemsize > b.itemsize else b
    # integers: uint8 with a signed type needs the next signed type up
    if uint8 in (a, b):
        other = b if a is uint8 else a
        return int16 if other is int8 else other
    return a if a.itemsize > b.itemsize else b


def promote_types(a: dtype, b: dtype) -> dtype:
    """torch.promote_types."""
    return _promote_two(a, b)


def _combine_categories(higher: dtype | None, lower: dtype | None) -> dtype | None:
    # ``higher`` comes from the higher-priority class; ``lower`` only wins by category.
    if higher is None:
        return lower
    if lower is None or higher.is_complex:
        return higher
    if lower.is_complex:
        # A complex lower operand keeps the precision of a floating higher one.
        return _by_name(_TO_COMPLEX[higher.name]) if higher.is_floating_point else lower
    if higher.is_floating_point:
        return higher
    if higher is bool_ or lower.is_floating_point:
        return _promote_two(higher, lower)
    return higher


def result_type(*operands) -> dtype:
    """dtype of an op over tensors and Python scalars, following PyTorch's promotion."""
    from ._tensor import Tensor

    dim_result = zero_result = wrapped_result = None
    unsigned = False
    for op in operands:
        if isinstance(op, Tensor):
            if op._data.ndim > 0:
                dim_result = op.dtype if dim_result is None else _promote_two(dim_result, op.dtype)
            else:
                zero_result = op.dtype if zero_result is None else _promote_two(zero_result, op.dtype)
        else:
            d = scalar_dtype(op)  # floats/complex take the default dtypes
            wrapped_result = d if wrapped_result is None else _promote_two(wrapped_result, d)
            unsigned = unsigned or (type(op) is int and op >= 2**63)  # (PyTorch's parser: a uint64 Scalar)
    if unsigned and (dim_result if zero_result is None else zero_result) is bool_:
        # (PyTorch promotes its uint64 wrapped number with the bool operand, and has no rule for that)
        raise RuntimeError("Promotion for uint16, uint32, uint64 types is not supported, attempted to promote "
                           "Bool and UInt64")
    result = _combine_categories(dim_result, _combine_categories(zero_result, wrapped_result))
    return int64 if result is None else result


# ---- machine limits: torch.finfo / torch.iinfo --------------------------------------------------------------

_PY_TYPES = {float: "float64", int: "int64", bool: "bool", complex: "complex128"}  # torch.finfo(float) ...
_NO_TYPE = object()  # (torch.finfo() takes the default dtype, but torch.finfo(None) is a TypeError)


def _info_dtype(type, fn: str) -> dtype:
    """The dtype torch.finfo / torch.iinfo take: a torch.dtype or one of Python's float, int, bool, complex."""
    if isinstance(type, dtype):
        return type
    if type in _PY_TYPES:
        return _by_name(_PY_TYPES[type])
    raise TypeError(f"{fn}(): argument 'type' (position 1) must be torch.dtype, not {type.__class__.__name__}")


class _InfoBase(metaclass=TorchNamed):
    # PyTorch compares finfo / iinfo objects by their dtype, which leaves them unhashable
    def __eq__(self, other):
        return other.__class__ is self.__class__ and other.dtype == self.dtype

    def __hash__(self):
        raise TypeError(f"unhashable type: '{self._torch_name}'")


class finfo(_InfoBase):
    """Machine limits of a floating point dtype (torch.finfo(torch.float32).eps ...)."""

    _torch_name = "torch.finfo"

    def __init__(self, type=_NO_TYPE) -> None:
        d = get_default_dtype() if type is _NO_TYPE else _info_dtype(type, "finfo")
        if not (d.is_floating_point or d.is_complex):
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                            "'torch.finfo'")
        d = d.to_real()
        info = ml_dtypes.finfo(d.np) if d is bfloat16 else np.finfo(d.np)
        self.bits = d.itemsize * 8
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        self.resolution = 10.0 ** -int(info.precision)
        self.dtype = d.name
        self._name = {"float32": "float32", "float64": "float64", "float16": "float16",
                      "bfloat16": "bfloat16"}[d.name]

    def __repr__(self) -> str:
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo(_InfoBase):
    """Limits of an integer dtype (torch.iinfo(torch.int64).max ...)."""

    _torch_name = "torch.iinfo"

    def __init__(self, type=_NO_TYPE) -> None:
        if type is _NO_TYPE:
            raise TypeError('iinfo() missing 1 required positional arguments: "type"')
        type = _info_dtype(type, "iinfo")
        if type.is_floating_point or type.is_complex:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle "
                            "'torch.iinfo'")
        if type is bool_:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        info = np.iinfo(type.np)
        self.bits = type.itemsize * 8
        self.max = int(info.max)
        self.min = int(info.min)
        self.dtype = type.name

    def __repr__(self) -> str:
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"


def to_int64(value) -> int:
    """``Scalar::to<int64_t>``: a float truncated; a value beyond int64 refused (but 2.0**63, which compares equal
    to int64's max as a double, passes and wraps as the x86 cast does)."""
    if not -2**63 <= value <= 2**63 or (type(value) is int and value == 2**63):   # (NaN too)
        raise RuntimeError("value cannot be converted to type int64_t without overflow")
    return (int(value) + 2**63) % 2**64 - 2**63
