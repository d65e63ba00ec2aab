"""dtype objects over NumPy dtypes, PyTorch's defaults and type promotion."""
from __future__ import annotations

import ml_dtypes
import numpy as np

from ._class_names import CTypeNamed


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
        self.is_signed = name not in ("bool", "uint8", "uint16", "uint32", "uint64")
        self.itemsize = self.np.itemsize

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self):
        """The dtype's name: pickled as a global, so it loads (and copies) as the same object."""
        return self.name

    def to_real(self) -> dtype:
        """The real counterpart of a complex dtype (complex64 -> float32)."""
        return {"complex32": float16, "complex64": float32, "complex128": float64}.get(self.name, self)

    def to_complex(self) -> dtype:
        """The complex counterpart of a real floating dtype (float32 -> complex64)."""
        if self.is_complex:
            return self
        if not self.is_floating_point:
            raise RuntimeError(f"Unknown Complex ScalarType for {legacy_name(self)}")
        return _by_name(_TO_COMPLEX[self.name])


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
# PyTorch's "barebones" unsigned types: creation, copies, casts, printing and a few kernels (mul, eq, sort, sum ...);
# promotion only with themselves and floating types; most kernels refuse them (see refuse_unsigned).
uint16 = dtype("uint16", np.uint16, 1)
uint32 = dtype("uint32", np.uint32, 1)
uint64 = dtype("uint64", np.uint64, 1)
# NumPy has no complex32 (PyTorch's experimental ComplexHalf): its elements are stored as PyTorch stores them, a
# float16 real part then a float16 imaginary part, in a structured dtype of 4 bytes. So the array's dtype still says
# which tensor dtype it holds; the few ops PyTorch runs on it compute in complex64 and round each part back.
COMPLEX32_NP = np.dtype([("real", np.float16), ("imag", np.float16)])
complex32 = dtype("complex32", COMPLEX32_NP, 3)


def is_complex32(np_dtype) -> bool:
    """Whether a NumPy dtype is complex32's: minigrad's one structured dtype (bfloat16's NumPy kind is "V" too)."""
    return np_dtype.names is not None


def complex32_values(a: np.ndarray) -> np.ndarray:
    """The complex64 values of a complex32 array (exact: every float16 is a float32), laid out as ``a``."""
    out = np.empty_like(a, dtype=np.complex64)
    out.real, out.imag = a["real"], a["imag"]
    return out


def complex32_conj(a: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """The conjugates of a complex32 array (np.conjugate has no loop for it): its imaginary parts negated."""
    out = a.copy() if out is None else out
    out["real"], out["imag"] = a["real"], -a["imag"]
    return out


def warn_complex32() -> None:
    """PyTorch's warning (once per process) when it allocates a complex32 tensor."""
    from ._warn_once import warn_once
    warn_once("complex32", "ComplexHalf support is experimental and many operators don't support it yet. "
              "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/EmptyTensor.cpp:54.)")


def as_complex32(a: np.ndarray, warn: bool = True) -> np.ndarray:
    """Numbers stored as complex32, laid out as ``a``: each part rounded to float16 (a double through float first,
    as c10::Half is made from a float), as PyTorch's ComplexHalf tensors are (``warn``: the allocation warns)."""
    if warn:
        warn_complex32()
    parts = a.astype(np.complex64) if not is_complex32(a.dtype) else complex32_values(a)
    out = np.empty_like(a, dtype=COMPLEX32_NP)
    with np.errstate(over="ignore"):   # (beyond float16's range: inf, silently)
        out["real"], out["imag"] = parts.real.astype(np.float16), parts.imag.astype(np.float16)
    return out


ALL = (bool_, uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64, complex64, complex128,
       uint16, uint32, uint64, complex32)
_NP_TO_DTYPE = {d.np: d for d in ALL}
BAREBONES_UNSIGNED = (uint16, uint32, uint64)
_BAREBONES_NP_TYPES = frozenset(type(d.np) for d in BAREBONES_UNSIGNED)  # (np.dtypes.UInt16DType ...: see is_barebones)

# PyTorch's aliases (torch.half, torch.long, ...).
ALIASES = {
    "half": float16, "float": float32, "double": float64, "cfloat": complex64, "cdouble": complex128,
    "short": int16, "int": int32, "long": int64, "chalf": complex32,
}

# The ScalarType names PyTorch's messages use ("not implemented for 'UInt16'"), from c10's ScalarType list.
_LEGACY = {
    "float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16", "complex32": "ComplexHalf",
    "complex64": "ComplexFloat", "complex128": "ComplexDouble", "int64": "Long", "int32": "Int", "int16": "Short",
    "int8": "Char", "uint8": "Byte", "bool": "Bool", "uint16": "UInt16", "uint32": "UInt32", "uint64": "UInt64",
}


def legacy_name(d: dtype) -> str:
    """The ScalarType name of a dtype in PyTorch's messages (Float, Long, UInt16, ComplexHalf ...)."""
    return _LEGACY[d.name]


def is_barebones(np_dtype) -> bool:
    """Whether a NumPy dtype is one of PyTorch's barebones unsigned types (uint16, uint32, uint64)."""
    return type(np_dtype) in _BAREBONES_NP_TYPES


def refuse_unsigned(kernel: str, d: dtype) -> None:
    """PyTorch's error for a kernel run on a barebones unsigned dtype, which most CPU kernels do not dispatch."""
    if d in BAREBONES_UNSIGNED:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{legacy_name(d)}\'')


def _by_name(name: str) -> dtype:
    return {d.name: d for d in ALL}[name]


_ULONG_IS_64 = np.dtype("L").itemsize == 8


def from_numpy(np_dtype) -> dtype:
    """The minigrad dtype of a NumPy dtype (TypeError for types PyTorch lacks)."""
    try:
        if np.dtype(np_dtype).char == "Q" and _ULONG_IS_64:
            # (NumPy's ulonglong equals its uint64, ulong, but PyTorch reads the type number: NPY_ULONGLONG has none)
            raise KeyError(np_dtype)
        return _NP_TO_DTYPE[np.dtype(np_dtype)]
    except KeyError:
        if not np.dtype(np_dtype).isnative:
            raise ValueError("given numpy array has byte order different from the native byte order. Conversion "
                             "between byte orders is currently not supported.") from None
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
    """The complex dtype matching the default float dtype (c10's default complex dtype: a repr shows no dtype)."""
    return complex128 if _default is float64 else complex64


def scalar_complex() -> dtype:
    """The dtype a Python complex takes (torch.tensor(1j), int_tensor * 1j): the default float's complex type."""
    # (unlike c10's default complex dtype, a float16 default makes it complex32; bfloat16 has none, see _TO_COMPLEX)
    return complex32 if _default is float16 else default_complex()


def scalar_dtype(value) -> dtype:
    """dtype a Python scalar gets when it becomes a tensor on its own."""
    if isinstance(value, bool):
        return bool_
    if isinstance(value, int):
        return int64
    if isinstance(value, float):
        return _default
    if isinstance(value, complex):
        return scalar_complex()
    return from_numpy(np.asarray(value).dtype)


# ---- type promotion (PyTorch's rules) --------------------------------------------------------
#
# Operands fall into three priority classes: tensors with dim > 0, zero-dim tensors, Python scalars
# ("wrapped numbers"). Each class is promoted on its own; then a lower class only matters if it
# belongs to a higher category (bool < integer < floating < complex) - PyTorch's combine_categories.
#
# (bfloat16 has no complex counterpart: with a complex number it gives complex64)
_TO_COMPLEX = {"float16": "complex32", "bfloat16": "complex64", "float32": "complex64", "float64": "complex128"}


def _promote_two(a: dtype, b: dtype) -> dtype:
    """Promote two dtypes of tensors of equal priority (torch.promote_types)."""
    if a is b:
        return a
    if a in BAREBONES_UNSIGNED or b in BAREBONES_UNSIGNED:
        # (PyTorch's promotion table has no entries for them but with floating types, which win)
        if a.is_floating_point or b.is_floating_point:
            return a if a.is_floating_point else b
        raise RuntimeError("Promotion for uint16, uint32, uint64 types is not supported, attempted to promote "
                           f"{legacy_name(a)} and {legacy_name(b)}")
    if a._kind != b._kind:
        hi, lo = (a, b) if a._kind > b._kind else (b, a)
        if hi.is_complex and lo.is_floating_point:
            # the complex type at least as wide as each part: complex32 with float32 is complex64
            return _promote_two(hi, _by_name(_TO_COMPLEX[lo.name]))
        return hi
    if a.is_complex:
        return a if a.itemsize > b.itemsize else b
    if a.is_floating_point:
        if {a.name, b.name} == {"float16", "bfloat16"}:
            return float32
        return a if a.itemsize > b.itemsize else b
    # integers: uint8 with a signed type needs the next signed type up
    if uint8 in (a, b):
        other = b if a is uint8 else a
        return int16 if other is int8 else other
    return a if a.itemsize > b.itemsize else b


def promote_types(type1: dtype, type2: dtype) -> dtype:
    """torch.promote_types."""
    for position, (name, value) in enumerate((("type1", type1), ("type2", type2)), 1):
        if not isinstance(value, dtype):
            from ._arg_errors import must_be  # (here: _arg_errors imports us)
            raise must_be("promote_types", name, "torch.dtype", value, position)
    return _promote_two(type1, type2)


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
    for op in operands:
        if isinstance(op, Tensor):
            if op._data.ndim > 0:
                dim_result = op.dtype if dim_result is None else _promote_two(dim_result, op.dtype)
            else:
                zero_result = op.dtype if zero_result is None else _promote_two(zero_result, op.dtype)
        else:
            # floats/complex take the default dtypes; an int beyond int64 is PyTorch's parser's uint64 Scalar
            d = uint64 if type(op) is int and op >= 2**63 else scalar_dtype(op)
            wrapped_result = d if wrapped_result is None else _promote_two(wrapped_result, d)
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


class _InfoBase(metaclass=CTypeNamed):
    # (C types in PyTorch: Python's messages say 'torch.finfo' object ..., see CTypeNamed)
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
