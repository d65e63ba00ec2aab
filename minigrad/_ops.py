"""The user-facing operations: argument parsing, PyTorch's type promotion and errors, then a table op.

Each function here is also a Tensor method (see ``METHODS`` at the bottom) and a ``minigrad.*``
function. Derivatives are *not* here: they are in ``derivatives.py``.
"""
from __future__ import annotations

import builtins
import numbers
import sys
import warnings

import numpy as np

from . import _arg_errors, _conj, _dispatch, _dtypes, _layout, _meta, _neg, _strides, _vmap_batched, return_types
from . import derivatives as D
from ._tensor import Size, Tensor, _user_stacklevel
from ._warn_once import warn_once
from .amp.autocast_mode import ON as _AUTOCAST
from .amp.autocast_mode import run as _autocast
from .autograd import grad_mode

_STATE = grad_mode.STATE
_EXTRAS = _dispatch._extras  # [True] while a profiler or forward-mode AD is on (the fast paths then step aside)
_MAX_EXACT_INT = 2**53  # every int up to here is exactly a float64, so NumPy converts it with one rounding
# The NumPy dtypes of minigrad's floating and complex dtypes. A tensor of one of these keeps its dtype in
# tanh, x ** 2, mean ... so the fast paths below test membership here instead of promoting.
_INEXACT_NP = frozenset(d.np for d in _dtypes.ALL if d.is_floating_point or d.is_complex and d is not _dtypes.complex32)
_REAL_INEXACT_NP = frozenset(d.np for d in _dtypes.ALL if d.is_floating_point)
# Tensor dtypes whose ``tensor <op> python number`` is NumPy's ufunc on the number itself (Op.run_number),
# per op ufunc. Not float16 mul/div (PyTorch multiplies by the number in float32) nor complex add/sub
# (PyTorch multiplies the number by alpha, so inf brings a nan): those take the general path, where
# _dispatch._pytorch_operands does what PyTorch does. bfloat16 is never here (NumPy has no such dtype).
_ADD_NUMBER_NP = frozenset(np.dtype(d) for d in (np.float16, np.float32, np.float64))
# (not complex mul/div: PyTorch's rounding is not NumPy's, see _complex_bits.py)
_MUL_NUMBER_NP = frozenset(np.dtype(d) for d in (np.float32, np.float64))
_NUMBER_PATH_NP = {np.add: _ADD_NUMBER_NP, np.subtract: _ADD_NUMBER_NP,
                   np.multiply: _MUL_NUMBER_NP, np.true_divide: _MUL_NUMBER_NP}
_COMPLEX_EXACT_UFUNCS = ()  # complex ops whose same-dtype fast path is the ufunc (none: see _complex_bits.py)
_BOOL_NP = np.dtype(bool)
_FLOAT32_NP, _FLOAT64_NP = np.dtype(np.float32), np.dtype(np.float64)
_REDUCED_FLOATS = (_dtypes.float16, _dtypes.bfloat16)
_NUMBER_TYPES = frozenset({float, int, complex, bool})  # Python numbers a node may save as they are (wrapped numbers)


# =============================================================================================
# Helpers: scalars, dtypes, shapes
# =============================================================================================

def _wrap_scalar(value) -> Tensor:
    """A Python number as a 0-dim tensor of its own type (PyTorch's "wrapped number")."""
    # The common cases (x * 1.5, x + 1) first, before the chain of isinstance tests.
    if type(value) is float:
        return Tensor._make(np.array(value, dtype=np.float64))
    if type(value) is int:
        try:
            return Tensor._make(np.array(value, dtype=np.int64))
        except OverflowError:  # (beyond int64: PyTorch's parser reads a uint64, which each kernel casts C's way)
            _check_scalar_int(value)
            return Tensor._make(np.array(value, dtype=np.uint64))
    if isinstance(value, Tensor):
        return value
    if isinstance(value, bool):
        return Tensor._make(np.array(value))
    if isinstance(value, int):
        return Tensor._make(np.array(value, dtype=np.int64))
    if isinstance(value, float):
        return Tensor._make(np.array(value, dtype=np.float64))
    if isinstance(value, complex):
        return Tensor._make(np.array(value, dtype=np.complex128))
    if isinstance(value, np.ndarray) or np.isscalar(value):
        arr = np.asarray(value)
        return Tensor._make(arr.astype(np.float64) if arr.dtype.kind == "f" else arr)
    raise TypeError(f"unsupported operand type: '{type(value).__name__}'")


def _check_scalar_int(value: int) -> None:
    """PyTorch's parser reading a Python int as a Scalar: an int64, else a uint64, else OverflowError."""
    if not -2**63 <= value < 2**64:   # (PyLong_AsUnsignedLongLong's messages)
        raise OverflowError("can't convert negative int to unsigned" if value < 0 else "int too big to convert")


def _as_tensor_like(value, like: Tensor) -> Tensor:
    if isinstance(value, Tensor):
        return value
    return Tensor._make(np.asarray(value, dtype=_dtypes.result_type(like, value).np))


def _float_dtype(t: Tensor) -> _dtypes.dtype:
    """dtype for functions that always return floats (exp of an int tensor is float32)."""
    d = t.dtype
    return d if (d.is_floating_point or d.is_complex) else _dtypes.get_default_dtype()


def _binary(op, a, b, out=None, promote_int_to_float=False, no_bool=False, **args):
    """Run a two-input table op with PyTorch's promotion and broadcasting errors.

    ``no_bool``: a subtraction, which PyTorch refuses for bool operands (checked off the fast paths,
    which never see a bool).
    """
    if out is not None:
        if out._requires_grad or out._base is not None:
            if _vmap_batched.DEPTH[0]:   # (vmap's refusal to write a batched value comes first)
                _vmap_batched.check_inplace_first(op.name, out, (out, b), op.node_name)
            _dispatch._check_inplace(out, False)  # (a leaf's refusal comes before any error of the operands)
        b_is_tensor = isinstance(b, Tensor)   # (read only with out=, below: b is wrapped by then)
    if not isinstance(a, Tensor):
        if no_bool:
            _refuse_bool_sub(a, b)
        # A number first (torch.mul(1.25, x)) is a wrapped number like one second: it only counts for
        # its category (float32 with an int tensor, not float64).
        if isinstance(a, np.ndarray):
            _refuse_array(op, a, 1)
        number, a = a, _wrap_scalar(a)
        if op.number_formulas and type(number) in _NUMBER_TYPES:
            a._wrapped_number = number  # (its node saves the number: see Tensor._wrapped_number)
        other = b if isinstance(b, Tensor) else _wrap_scalar(b)
        dt = _dtypes.result_type(number, b)
        b = other
    elif isinstance(b, Tensor):
        da, db = a._data.dtype, b._data.dtype
        if (da is db and out is None and op.number_ufunc is not None and not _EXTRAS[0]
                and (da in _REAL_INEXACT_NP or (da in _INEXACT_NP and op.number_ufunc in _COMPLEX_EXACT_UFUNCS))
                and (not args or (type(args.get("alpha")) is int and args["alpha"] == 1))):
            # Fast path (h + b, pred - y): add/sub/mul/div of two tensors of one float dtype. NumPy's ufunc
            # keeps that dtype, so there is nothing to cast: dtype=None spares _run its per-input checks.
            # Not complex add/sub: PyTorch multiplies other by alpha (_dispatch._pytorch_operands).
            dt = None
        elif no_bool and (da is _BOOL_NP or db is _BOOL_NP):
            _refuse_bool_sub(a, b)
        elif da == db:
            dt = a.dtype
        elif b._data.ndim == 0 and a._data.ndim > 0 and (da.kind == "c" or (da.kind == "f" and db.kind != "c")):
            # Fast path (backward's ``grad * saved_number``): a 0-dim tensor leaves a float tensor's
            # dtype alone unless it brings complex numbers; result_type's rule, without its cost.
            dt = a.dtype
        else:
            dt = _dtypes.result_type(a, b)
    else:
        # Fast path (x * 1.5, x + 1): a Python float/int never changes a float/complex tensor's
        # dtype, nor an int one's for an int. Everything else goes through the full promotion.
        da = a._data.dtype
        kind = da.kind
        if (type(b) is float and kind in "fc") or (type(b) is int and kind in "iufc"):
            # A float tensor and a number for add/sub/mul/div: the number is not wrapped in a tensor
            # (Op.run_number). Ints only up to 2**53, where NumPy's conversion is exactly the cast's.
            # Only the dtypes where that is PyTorch's whole computation (see _NUMBER_PATH_NP).
            if (op.number_ufunc is not None and out is None and not _EXTRAS[0]
                    and (da is _FLOAT32_NP or da is _FLOAT64_NP or da in _NUMBER_PATH_NP[op.number_ufunc])
                    and (not args or (type(args.get("alpha")) is int and args["alpha"] == 1))
                    and (type(b) is float or -_MAX_EXACT_INT <= b <= _MAX_EXACT_INT)):
                return op.run_number(a, b, args)
            dt = a.dtype
        else:
            if isinstance(b, np.ndarray):
                _refuse_array(op, b, 2)
            if b is None or isinstance(b, _NOT_NUMBERS):  # (x.add("a"): PyTorch's parser refuses it)
                _refuse_operand(op.name + ("_" if out is a else ""), b, args, a)
            if no_bool:
                _refuse_bool_sub(a, b)
            dt = _dtypes.result_type(a, b)
        number, b = b, _wrap_scalar(b)
        if op.number_formulas and type(number) in _NUMBER_TYPES:
            b._wrapped_number = number  # (its node saves the number: see Tensor._wrapped_number)
    if out is not None and _vmap_batched.DEPTH[0] and b_is_tensor:  # (a Python number stays a wrapped number)
        dt = _vmap_batched.inplace_result_type(a, b, dt, op.name)
    if promote_int_to_float and dt is not None and not (dt.is_floating_point or dt.is_complex):
        dt = _dtypes.get_default_dtype()
    try:
        return op.call((a, b), dt, out, args)
    except ValueError as e:
        if "broadcast" in str(e):
            _raise_broadcast_error(a._data.shape, b._data.shape, out, (a, b))
        raise


def _check_broadcast(a, b) -> None:
    """PyTorch's broadcast error for two operands (tensors or numbers): it comes before any dtype error."""
    sa = a._data.shape if isinstance(a, Tensor) else ()
    sb = b._data.shape if isinstance(b, Tensor) else ()
    if sa != sb:
        try:
            np.broadcast_shapes(sa, sb)
        except ValueError:
            _raise_broadcast_error(sa, sb, tensors=(a, b))


def _no_complex_kernel(name: str, a, b, inplace: bool = False) -> None:
    """PyTorch's error for a two-operand kernel without complex dtypes (atan2, fmod ...), after broadcasting's."""
    _check_broadcast(a, b)
    dt = _dtypes.result_type(a, b)
    if inplace and _vmap_batched.DEPTH[0]:
        dt = _vmap_batched.inplace_result_type(a, b, dt, name)
    if dt.is_complex:
        raise NotImplementedError(f'"{name}_cpu" not implemented for \'{_legacy(dt)}\'')


def _raise_broadcast_error(sa, sb, out=None, tensors=()):
    """PyTorch's error for shapes ``sa`` and ``sb`` that do not broadcast. ``tensors``: the operands, inside vmap
    (PyTorch's batched kernels broadcast the physical tensors, one batch dim in front per vmap level any operand
    is batched at, so the dimension the message names counts them: dim 1 for the user's dim 0)."""
    _dispatch.check_rebased_inputs(*tensors)   # (TensorIterator broadcasts in the kernel, after the edges' refusal)
    batch_dims = bin(_vmap_batched.levels_of(*tensors)).count("1") if _vmap_batched.DEPTH[0] else 0
    for i in builtins.range(1, builtins.max(len(sa), len(sb)) + 1):
        x = sa[-i] if i <= len(sa) else 1
        y = sb[-i] if i <= len(sb) else 1
        if x != y and x != 1 and y != 1:
            dim = builtins.max(len(sa), len(sb)) - i + batch_dims
            raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) "
                               f"at non-singleton dimension {dim}")
    if out is not None:  # the inputs broadcast, but to a bigger shape than the in-place output's
        raise RuntimeError(f"output with shape {list(out._data.shape)} doesn't match the broadcast shape "
                           f"{list(np.broadcast_shapes(sa, sb))}")
    raise RuntimeError("shapes cannot be broadcast")


def _out_kernel_name(name: str, tensors) -> str:
    """The ATen kernel PyTorch's error names for ``name(..., out=)``: matmul and tensordot end in dot/mv/mm/bmm."""
    if name == "tensordot":
        return "mm"
    if name != "matmul":
        return name
    a, b = tensors[0].dim(), tensors[1].dim()
    return "dot" if a == b == 1 else "bmm" if b >= 3 else "mv" if b == 1 else "mm"


def _warn_resized(old_shape, new_shape) -> None:
    """PyTorch's deprecation warning when a kernel resizes a non-empty output tensor to the result's shape."""
    warnings.warn(f"An output with one or more elements was resized since it had shape {list(old_shape)}, which "
                  f"does not match the required output shape {list(new_shape)}. This behavior is deprecated, and "
                  "in a future PyTorch release outputs will not be resized unless they have zero elements. You "
                  "can explicitly reuse an out tensor t by resizing it, inplace, to zero elements with "
                  "t.resize_(0). (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/Resize.cpp:30.)",
                  UserWarning, stacklevel=_user_stacklevel())


# out= names of TensorIterator ops with no elementwise entry of that name in the table, and composites that have one
_ITERATOR_OUT = frozenset(("abs absolute deg2rad rad2deg round sgn signbit logical_not bitwise_not floor_divide "
                           "eq ne lt le gt ge greater less greater_equal less_equal not_equal logical_and logical_or "
                           "logical_xor heaviside bitwise_and bitwise_or bitwise_xor bitwise_left_shift "
                           "bitwise_right_shift gcd lcm").split())
_COMPOSITE_OUT = frozenset(("mvlgamma",))
# ... and the structured kernels whose meta function gives out= the input's (dense) strides: restrided alike
_STRIDED_META_OUT = frozenset(("sort",
                               # (and the LAPACK kernels, whose out= takes their result's column-major layout)
                               "linalg_inv_ex", "linalg_cholesky_ex", "_linalg_solve_ex", "linalg_solve_triangular",
                               "solve_triangular", "linalg_lu_solve"))
# ... and householder_product's, whose kernel lays out an empty out= of its dtype column-major (any other is copied)
_STRIDED_EMPTY_OUT = frozenset(("linalg_householder_product",))
# out= names of the reductions and scans: PyTorch's reduce_op iterator and scan kernels check no overlap of out=
# with the input (torch.sum(c, 0, out=c[0]) runs; _out_args.with_reduction_out gives the values)
_UNCHECKED_OVERLAP_OUT = frozenset(("sum prod nansum mean amax amin all any std var logsumexp linalg_vector_norm "
                                    "cumsum cumprod logcumsumexp").split())
# out= names whose kernel resizes out= with resize_as_ (addbmm_out) or resize_ (narrow_copy's): no warning for an
# out= of elements
_RESIZED_SILENTLY_OUT = frozenset(("addbmm", "narrow_copy"))


# Functions whose result is written into empty_like(input) (_strides.into_empty_like), but whose out= is resized as
# a TensorIterator's output: abs's of the unary op, deg2rad's of mul by a number (True: a number operand)
_INTO_EMPTY_LIKE = {"abs": False, "absolute": False, "deg2rad": True, "rad2deg": True, "nan_to_num": False}


def _into_out(name: str, out, inputs, compute, vmap_name: str | None = None):
    """PyTorch's ``out=`` argument: ``compute()``'s result copied into ``out``, which is returned.

    Not differentiable: PyTorch refuses it while grad mode records and an argument requires grad.
    ``out`` is resized when its shape differs (with PyTorch's deprecation warning unless it is empty).
    ``vmap_name``: the op vmap's refusal names, when not ``name`` (hstack's, whose result is cat's).
    """
    if out is None:
        return compute()
    if not isinstance(out, Tensor) and name in _arg_errors._NUMBERS_AS_TENSORS and _arg_errors._is_number(out):
        out = _wrap_scalar(out)  # (the parser of add, sub, mul, div takes a number for any tensor: out= too)
    tensors = [t for t in inputs if isinstance(t, Tensor)]
    refuse_grad = grad_mode.is_grad_enabled() and builtins.any(t.requires_grad for t in (*tensors, out))
    # (the innermost transform sees the op first: vmap's missing batching rule, or autograd's refusal when a grad
    # transform runs inside the vmap, vmap(grad(f)))
    if _vmap_batched.DEPTH[0] and not (refuse_grad and _vmap_batched._under_grad()):
        _vmap_batched.check_out(vmap_name or name, out, tensors)
    if refuse_grad:
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic "
                           "differentiation, but one of the arguments requires grad.")
    try:
        if name not in _UNCHECKED_OVERLAP_OUT:
            _dispatch._check_no_partial_overlap(out, tensors)
    except RuntimeError:
        if name in ("clamp", "clamp_min", "clamp_max"):
            _clamp_meta_first(compute)
        raise
    if out.dtype is _dtypes.complex32:   # (written into out: no complex32 result allocated, see INTO_COMPLEX32_OUT)
        into, _dispatch.INTO_COMPLEX32_OUT[0] = _dispatch.INTO_COMPLEX32_OUT[0], True
        try:
            result = compute()
        finally:
            _dispatch.INTO_COMPLEX32_OUT[0] = into
    else:
        result = compute()
    dual = builtins.any(t._fw_grad is not None for t in (*tensors, out))
    if result.dtype._kind > out.dtype._kind:  # PyTorch's can_cast: never down a category
        raise RuntimeError(f"result type {_dispatch._legacy_scalar_name(result.dtype)} can't be cast to the "
                           f"desired output type {_dispatch._legacy_scalar_name(out.dtype)}")
    if result._data.shape != out._data.shape:
        if out._data.size and name not in _RESIZED_SILENTLY_OUT:
            _warn_resized(out._data.shape, result._data.shape)
        from ._ops_inplace_views import resize_output
        # (a TensorIterator op restrides a resized out= as its result is laid out; a composite copies into it)
        iterator = name in _ITERATOR_OUT or name in _STRIDED_META_OUT or getattr(
            getattr(D, name, None), "elementwise", False) and name not in _COMPOSITE_OUT or (
            name in _STRIDED_EMPTY_OUT and not out._data.size and result.dtype is out.dtype)
        strides = _strides.preserve_strides(result._data) if iterator else None
        resize_output(out, result._data.shape, strides)
        if iterator and not result._data.size:   # (an empty result's strides, kept on the tensor: see _strides)
            if name in _INTO_EMPTY_LIKE:
                _strides.empty_elementwise(out, tensors, _INTO_EMPTY_LIKE[name])
            else:
                _strides.keep_empty_strides(out, _strides.empty_strides(result))
    if dual:  # PyTorch refuses forward AD after its kernel has written out (the primal only)
        from .autograd import forward_ad
        forward_ad._suspended[0] = True
        try:
            with grad_mode.no_grad(), _dispatch.out_argument_write():
                out.copy_(result)
        finally:
            forward_ad._suspended[0] = False
        raise NotImplementedError(f"Trying to use forward AD with {_out_kernel_name(name, tensors)}_out that does "
                                  "not support it because it is an out= function")
    with grad_mode.no_grad(), _dispatch.out_argument_write():
        out.copy_(result)
    return out


def _not_a_tensor(name: str, value, arg: str = "input", position: int = 1) -> TypeError:
    """PyTorch's error for a non-tensor passed where a function takes a tensor (``torch.tanh(1.0)``)."""
    return _arg_errors.must_be(name, arg, "Tensor", value, position)


def _given(names: tuple, values: tuple) -> tuple:
    """(args, kwargs) of a call whose parameters ``names`` got ``values``, those not given (_MISSING) left out: the
    values before the first missing one positional, the rest by keyword (Python binds no positional after it)."""
    first = next((i for i, v in enumerate(values) if v is _MISSING), len(values))
    return values[:first], {n: v for n, v in zip(names[first:], values[first:]) if v is not _MISSING}


def _operand_error(name: str, input, other) -> TypeError:
    """PyTorch's parser error for ``x.name(other)`` with ``other`` no tensor, or not given (_MISSING: x.view_as())."""
    if other is _MISSING:
        return _arg_errors.too_many(name, input, (), {})
    return _not_a_tensor(name, other, "other")


def _unary(op, t: Tensor, out=None, float_result=True):
    if isinstance(t, Tensor) and t._data.dtype in _INEXACT_NP:
        return op.call((t,), None, out, {})  # fast path: a float/complex tensor keeps its dtype, no cast
    if not isinstance(t, Tensor):
        raise _not_a_tensor(op.name if out is None else op.name + "_", t)
    dt = _float_dtype(t) if float_result else t.dtype
    return op.call((t,), dt if dt.np != t._data.dtype or dt is _dtypes.complex32 else None, out, {})


def _size_args(size, name: str = "", arg: str = "size", overloads: tuple = ()) -> tuple:
    """Accept f(2, 3), f((2, 3)) and f([2, 3]) alike; anything but ints is ``name()``'s TypeError from PyTorch's
    parser (``overloads``: the method's, when it has more than the one taking ``tuple of ints arg``)."""
    seq = size[0] if len(size) == 1 and isinstance(size[0], (tuple, list, Size)) else size
    for s in seq:
        if type(s) is not int:   # (permute's dims are PyTorch's one int[] here, the others SymInt[])
            return _arg_errors.size_list(name, arg, size, overloads, symint=name != "permute")
    return tuple(seq)


def _wrap_dim(dim: int, ndim: int) -> int:
    lo, hi = (-1, 0) if ndim == 0 else (-ndim, ndim - 1)
    if not lo <= dim <= hi:
        raise IndexError(f"Dimension out of range (expected to be in range of [{lo}, {hi}], but got {dim})")
    return dim % ndim if ndim else 0


def _size_at(input, dim: int) -> int:
    """PyTorch's C++ ``input.size(dim)`` (TensorImpl::size): a 0-dim tensor has no dim, not even 0 or -1."""
    if input.dim() == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return input.shape[_wrap_dim(dim, input.dim())]


def _wrap_dim_of(dim: int, input, differentiable: bool = True) -> int:
    """``dim`` wrapped for ``input``; out of range, a rebased multi-output view of input is refused first (the
    dim is the kernel's error, after VariableType has collected the input's edges)."""
    try:
        return _wrap_dim(dim, input.dim())
    except IndexError:
        if differentiable:
            _dispatch.check_rebased_inputs(input)
        raise


def _raw_dims(dim, ndim: int, input=None, differentiable: bool = True) -> tuple:
    """Checked dims, kept as given: PyTorch saves them unwrapped (a node shows dim=-1 as 2**64 - 1). ``input``: the
    reduced tensor, whose batch rule inside vmap names a repeated dim as the physical one."""
    dims = (dim,) if isinstance(dim, int) else (int(dim),) if _arg_errors._is_int_tensor(dim) else tuple(dim)
    seen = []
    try:
        for d in dims:
            w = _wrap_dim(d, ndim)
            if w in seen:
                shown = w if input is None else w + _vmap_batched.batch_dims(input)
                raise RuntimeError(f"dim {shown} appears multiple times in the list of dims")
            seen.append(w)
    except (IndexError, RuntimeError):
        if input is not None and differentiable:   # (the kernel's errors: VariableType refuses a rebased
            _dispatch.check_rebased_inputs(input)       # multi-output view first)
        raise
    return tuple(int(d) for d in dims)


# =============================================================================================
# Arithmetic
# =============================================================================================

_NO_ARG = object()  # an argument not given (see the deprecated scalar-first forms: _arg_errors.scalar_first)


class _Missing:
    """The operand of a binary op not given (``x.mul()``): it reaches the refusal of an operand no overload takes
    (_NOT_NUMBERS, _refuse_operand), which raises PyTorch's parser error; the usual call checks nothing more."""


_MISSING = _Missing()


_NO_OUT = _arg_errors.NO_OUT   # (out= not given to add, sub, mul, div, matmul: see _out_given)


def _out_given(name: str, input, other, out, **keywords):
    """``out`` given to ``name``'s function, _NO_OUT for None; PyTorch's parser error if the caller is the method
    (x.mul(y, out=None): its methods take no out=). ``keywords``: the call's others (alpha, rounding_mode)."""
    args = () if other is _MISSING else (other,)
    given = {k: v for k, v in keywords.items() if not (v is _NO_ROUNDING_MODE or type(v) is int and v == 1)}
    _arg_errors.refuse_method_out(name, input, args, {**given, "out": out}, sys._getframe(2))
    return _NO_OUT if out is None else out


def add(input, other=_MISSING, _old=_NO_ARG, *_extra, alpha=1, out=_NO_OUT):
    """input + alpha * other."""
    if _old is not _NO_ARG:  # (the deprecated x.add(alpha, other))
        _arg_errors.scalar_first("add", other, (_old, *_extra), alpha=alpha, out=out)
        other, alpha = _old, other
    if (type(other) is float and out is _NO_OUT and isinstance(input, Tensor) and input._data.dtype in _ADD_NUMBER_NP
            and type(alpha) is int and alpha == 1 and not _EXTRAS[0]
            and (type(input) is Tensor or not input.is_sparse)):
        return D.add.run_number(input, other, {"alpha": 1})  # fast path (x + 0.001): _binary's choice, directly
    if out is not _NO_OUT:   # (given, even as None: refused if the call is the method's)
        out = _out_given("add", input, other, out, alpha=alpha)
    if type(alpha) is not int or alpha != 1:
        alpha = _check_alpha(input, other, alpha, "add")
    if out is not _NO_OUT:
        return _into_out("add", out, (input, other), lambda: add(input, other, alpha=alpha))
    if type(input) is not Tensor and isinstance(input, Tensor) and input.is_sparse:
        # (torch.add(s, s): sparse + sparse is sparse; sparse + dense refused, as s.add(d))
        from . import sparse
        return sparse.add(input, other, alpha)
    if type(other) is not Tensor and isinstance(other, Tensor) and other.is_sparse:
        return _add_sparse_entries(input, other, alpha, None)
    return _binary(D.add, input, other, alpha=alpha)


def _add_sparse_entries(input, other, alpha, out, op=D.add):
    """dense ± α·sparse: the dense add (sub), its values rounded as PyTorch adds the sparse entries, one at a time
    in their stored order (sparse.add_into_dense; sub adds with -α), not their sums."""
    exact = None
    if isinstance(input, Tensor) and not input.is_sparse and input._data.shape == other._data.shape and \
            not (op is D.sub and (input.dtype is _dtypes.bool_ or other.dtype is _dtypes.bool_)):
        from .sparse import add_into_dense
        exact = add_into_dense(input._data, other, -alpha if op is D.sub else alpha,
                               out is None or input._data.flags.c_contiguous)
    result = _binary(op, input, other, out=out, alpha=alpha, **({"no_bool": True} if op is D.sub else {}))
    if exact is not None and result._data.dtype == exact.dtype:
        result._data[...] = exact
    return result


def sub(input, other=_MISSING, _old=_NO_ARG, *_extra, alpha=1, out=_NO_OUT):
    """input - alpha * other."""
    if _old is not _NO_ARG:  # (the deprecated x.sub(alpha, other))
        _arg_errors.scalar_first("sub", other, (_old, *_extra), alpha=alpha, out=out)
        other, alpha = _old, other
    if out is not _NO_OUT:   # (given, even as None: refused if the call is the method's)
        out = _out_given("sub", input, other, out, alpha=alpha)
    if type(alpha) is not int or alpha != 1:
        alpha = _check_alpha(input, other, alpha, "sub", no_bool=True)
    if out is not _NO_OUT:
        return _into_out("sub", out, (input, other), lambda: sub(input, other, alpha=alpha))
    if type(input) is not Tensor and isinstance(input, Tensor) and input.is_sparse:
        _refuse_bool_sub(input, other)
        from . import sparse
        return sparse.add(input, other, -alpha, "SubBackward0")
    if type(other) is not Tensor and isinstance(other, Tensor) and other.is_sparse:
        return _add_sparse_entries(input, other, alpha, None, D.sub)
    return _binary(D.sub, input, other, no_bool=True, alpha=alpha)


_NOT_NUMBERS = (str, bytes, list, tuple, dict, set, _Missing)  # (operands no overload takes, as a tensor or a number)


def _refuse_operand(name: str, other, args: dict, self=None):
    """PyTorch's parser error for ``x.name(other)`` (the method's; torch.name's wrapper words the function's)."""
    given = {k: v for k, v in args.items() if k == "alpha" and v != 1}
    if other is _MISSING:   # (x.mul(), x.add(alpha=2), x.div(rounding_mode=None): the call without it)
        raise _arg_errors.too_many(name, self, (), {**given, **{k: v for k, v in args.items() if k == "rounding_mode"}})
    error = _arg_errors.method_error(name, (other,), given)
    if error is None:  # (one overload, ``mul(Tensor other)``: other must be a tensor)
        error = _arg_errors.must_be(name, "other", "Tensor", other, 1)
        error.method_form = True
    raise error


def _refuse_array(op, array, position: int):
    """PyTorch's binding takes no ndarray where it wants a tensor: ``torch.mul(x, a)`` is a TypeError, and
    ``x * a`` (the operator gives NotImplemented) is then NumPy's product, wrapped back (Tensor.__array_wrap__)."""
    raise _arg_errors.must_be(op.name, "other" if position == 2 else "input", "Tensor", array, position)


def _check_alpha(input, other, alpha, name: str, no_bool: bool = False, inplace: bool = False):
    """PyTorch's alpha_check: alpha must fit the result's dtype (no 0.5 for ints, no True for floats); returns it.

    ``no_bool``: a subtraction, whose refusal of bool operands comes first; ``inplace``: ``add_`` / ``sub_``.
    A 0-d tensor outside autograd passes as its number (PyTorch's parser reads a Number so)."""
    if other is None or isinstance(other, _NOT_NUMBERS):  # (x.add("a", alpha=2): PyTorch's parser refuses it)
        _refuse_operand(name, other, {"alpha": alpha}, input)
    if isinstance(alpha, Tensor):
        if alpha.dim() != 0 or alpha.requires_grad:
            if name == "rsub":  # (rsub's overloads are listed instead)
                raise _arg_errors.no_overload("rsub", input, other, alpha=alpha)
            raise TypeError(f"{name}(): argument 'alpha' must be Number, not Tensor")
        alpha = alpha.item()
    elif not isinstance(alpha, numbers.Number):   # (x.add(y, alpha="2"): PyTorch's parser refuses it)
        raise _arg_errors.must_be(name, "alpha", "Number", alpha)
    if not isinstance(input, Tensor) and not isinstance(other, Tensor) and not (
            isinstance(input, numbers.Number) and isinstance(other, numbers.Number)):
        return alpha  # (the argument errors come from _binary; two numbers are checked as two tensors)
    _dispatch.check_rebased_inputs(input, other)   # (alpha_check is the kernel's, after the edges' refusal)
    if no_bool:
        _refuse_bool_sub(input, other)
    _check_broadcast(input, other)  # (the shapes' error before alpha's)
    if inplace and isinstance(other, Tensor) and other._data.shape != input._data.shape:
        shape = np.broadcast_shapes(input._data.shape, other._data.shape)
        if shape != input._data.shape:
            raise RuntimeError(f"output with shape {list(input._data.shape)} doesn't match the broadcast shape "
                               f"{list(shape)}")
    dt = _dtypes.result_type(input, other)
    if inplace and dt._kind > input.dtype._kind:
        return alpha  # (the result cannot be written into input: _binary raises that error first)
    if isinstance(alpha, (bool, np.bool_)) and dt is not _dtypes.bool_:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if not (dt.is_floating_point or dt.is_complex) and not isinstance(alpha, (int, np.integer)):
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")
    if not dt.is_complex and isinstance(alpha, (complex, np.complexfloating)):
        raise RuntimeError("For non-complex input tensors, argument alpha must not be a complex number.")
    if dt._kind == 1 and not _dtypes.iinfo(dt).min <= alpha <= _dtypes.iinfo(dt).max:
        alpha = np.asarray(alpha).astype(dt.np).item()  # (a C cast: -2 for uint8 is 254, as PyTorch's)
    elif dt is _dtypes.bool_ and type(alpha) is int:
        alpha = bool(alpha)  # (the kernel's alpha.to<bool>(): 2**63 is True)
    if dt.is_floating_point or dt.is_complex:
        _check_scalar_fits(alpha, dt)   # (the kernel's alpha.to<scalar_t>(): 1e308 into a float refused)
    return alpha


def _refuse_bool_sub(a, b) -> None:
    """PyTorch refuses bool operands in a subtraction (a Python bool counts as a bool tensor)."""
    da = a._data.dtype if isinstance(a, Tensor) else type(a)
    db = b._data.dtype if isinstance(b, Tensor) else type(b)
    a_bool, b_bool = da is _BOOL_NP or da is bool, db is _BOOL_NP or db is bool
    if a_bool or b_bool:
        _dispatch.check_rebased_inputs(a, b)   # (sub_check is the kernel's: a stale multi-output view is refused first)
    if a_bool and b_bool:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                           "Use the `^` or `logical_xor()` operator instead.")
    if a_bool or b_bool:
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")


subtract = sub


def rsub(input, other, *, alpha=1):
    """other - alpha * input (RsubBackward0 for a tensor other, RsubBackward1 for a number)."""
    if not isinstance(input, Tensor):
        raise _arg_errors.no_overload("rsub", input, other)
    if isinstance(other, Tensor):  # (the bool refusal, then other - input's broadcast: other is "tensor a")
        _refuse_bool_sub(input, other)
        _check_broadcast(other, input)
    if type(alpha) is not int or alpha != 1:
        alpha = _check_alpha(input, other, alpha, "rsub", no_bool=True)
    return _binary(D.rsub_tensor if isinstance(other, Tensor) else D.rsub, input, other, no_bool=True, alpha=alpha)


def mul(input, other=_MISSING, *_extra, out=_NO_OUT):
    """Elementwise product."""
    if _extra:   # (x.mul(a, b): PyTorch's count, without self)
        raise _arg_errors.too_many("mul", input, (other, *_extra), {})
    if (type(other) is float and out is _NO_OUT and isinstance(input, Tensor) and input._data.dtype in _MUL_NUMBER_NP
            and not _EXTRAS[0] and (type(input) is Tensor or not input.is_sparse)):
        return D.mul.run_number(input, other, {})  # fast path (x * 1.0001): _binary's choice, directly
    if out is not _NO_OUT and _out_given("mul", input, other, out) is not _NO_OUT:   # (refused for the method's call)
        return _into_out("mul", out, (input, other), lambda: mul(input, other))
    if _sparse_operand(input, other):
        # (a sparse operand: a sparse product, torch.mul(d, s) too)
        from . import sparse
        return sparse.mul(input, other)
    return _binary(D.mul, input, other)


def _sparse_operand(input, other) -> bool:
    """Whether either operand is a sparse tensor (their ops are sparse.py's; plain tensors pass two type checks)."""
    return (type(input) is not Tensor and isinstance(input, Tensor) and input.is_sparse or
            type(other) is not Tensor and isinstance(other, Tensor) and other.is_sparse)


multiply = mul


_NO_ROUNDING_MODE = type("_NoRoundingMode", (), {"__repr__": lambda self: "None"})()   # (not given at all)


def div(input, other=_MISSING, *_extra, rounding_mode=_NO_ROUNDING_MODE, out=_NO_OUT):
    """Elementwise true division (integers give floats); rounding_mode 'trunc' or 'floor' rounds."""
    if _extra:   # (x.div(a, b): PyTorch's count, without self)
        given = {} if rounding_mode is _NO_ROUNDING_MODE else {"rounding_mode": rounding_mode}
        raise _arg_errors.too_many("div", input, (other, *_extra), given)
    if out is not _NO_OUT and _out_given("div", input, other, out, rounding_mode=rounding_mode) is not _NO_OUT:
        return _into_out("div", out, (input, other), lambda: div(input, other, rounding_mode=rounding_mode))
    if _sparse_operand(input, other):
        # (a sparse tensor over a number or a 0-dim tensor; any other divisor refused)
        from . import sparse
        return sparse.div(input, other, rounding_mode)
    if rounding_mode is _NO_ROUNDING_MODE:
        return _binary(D.div, input, other, promote_int_to_float=True)
    if rounding_mode is not None:
        return _rounded_div(input, other, rounding_mode)
    # rounding_mode=None given: PyTorch's div.Tensor_mode overload (DivBackward2; a number becomes a tensor, a
    # wrapped number: 0-d float32 x / 2.5 stays float32)
    return _binary(D.div_mode, input, other, promote_int_to_float=True, rounding_mode=None)


divide = div


def true_divide(input, other, *, out=None):
    """``div`` without rounding_mode (PyTorch's true_divide takes none)."""
    return div(input, other) if out is None else div(input, other, out=out)


def rdiv(input, other):
    """other / input: PyTorch's Tensor.__rdiv__ computes reciprocal(input) * other (a tensor other too, as in
    ``t.__rdiv__(u)``: a MulBackward0 node and two roundings, not div's one)."""
    return mul(reciprocal(input), other)


def _rounded_div(a, b, mode, node="div"):
    """``a / b`` rounded down or towards zero, computed in the promoted dtype as PyTorch does."""
    number_other = not isinstance(b, Tensor)
    number_self = not isinstance(a, Tensor)
    if b is _MISSING:   # (x.div(rounding_mode="floor"): the parser's error for the call without other, first)
        raise _arg_errors.too_many(node, a, (), {"rounding_mode": mode})
    if mode not in ("trunc", "floor"):
        _dispatch.check_rebased_inputs(a, b)   # (the kernel's checks, after VariableType collected the edges)
        raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{mode}'")
    dt = _dtypes.result_type(a, b)  # (a number first is a wrapped number too)
    _check_broadcast(a, b)
    if dt is _dtypes.bool_ or dt.is_complex or dt in _dtypes.BAREBONES_UNSIGNED:
        _dispatch.check_rebased_inputs(a, b)
        raise NotImplementedError(f"\"div_{mode}_cpu\" not implemented for '{_legacy(dt)}'")
    a, b = (x if isinstance(x, Tensor) else _wrap_scalar(x) for x in (a, b))
    if _vmap_batched.DEPTH[0]:
        _vmap_batched.check_first_example("div", a, b)
    npd = dt.np
    with np.errstate(all="ignore"):
        ad, bd = a._data.astype(npd, copy=False), b._data.astype(npd, copy=False)
        if dt in _REDUCED_FLOATS and (b._data.ndim == 0 and b._data.dtype != npd or (
                mode == "trunc" and b._data.size == 1)):
            # in float32, as mul/div (_pytorch_operands); trunc's kernel takes any one-element divisor so (its
            # original value, in float: no rounding of the quotient to the half type before trunc)
            ad, bd = ad.astype(np.float32), b._data.astype(np.float32)
        if npd.kind in "iu" and ad.size and not np.all(bd):  # (an empty result divides nothing)
            raise RuntimeError("ZeroDivisionError")
        if mode == "floor" and ad.dtype == npd and dt in _REDUCED_FLOATS:
            q = _floor_divide_rounding_each_step(ad, bd)
        else:
            q = np.floor_divide(ad, bd) if mode == "floor" else np.trunc(np.true_divide(ad, bd))
        q = np.asarray(q).astype(npd, copy=False)
    if q.ndim > 1:   # (TensorIterator's output layout, as every elementwise op's: a size-1 dim's stride too)
        q = _strides.elementwise(q, (a, b))
    plain = not (grad_mode.is_grad_enabled() and (a._requires_grad or b._requires_grad)) and (
        a._fw_grad is None and b._fw_grad is None)  # (a forward-AD tangent goes through the op too)
    if plain:
        out = _meta.follow(Tensor._make(q), a, b) if _meta.METAS else Tensor._make(q)   # (meta in: meta out)
    # Recorded as PyTorch records it: DivBackward2 (zero gradients), or floor_divide's NotImplemented node.
    elif node == "floor_divide" and (number_other or number_self):  # (the number is no input of the node)
        out = D.NOT_IMPLEMENTED["floor_divide_scalar"].call((b if number_self else a,), None, None, {"_result": q})
    elif node == "floor_divide":
        out = D.NOT_IMPLEMENTED["floor_divide"].call((a, b), None, None, {"_result": q})
    else:
        out = D.div_rounded.call((a, b), None, None, {"rounding_mode": mode, "_result": q})
    if not q.size and q.ndim > 1:   # (an empty result's strides: see _strides)
        _strides.empty_elementwise(out, (a, b))
    if plain and _vmap_batched.DEPTH[0]:
        return _vmap_batched.follow(out, a, b)   # (inside vmap: batched as a, b)
    return out


def _floor_divide_rounding_each_step(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """PyTorch's floor division of float16/bfloat16 arrays: NumPy's algorithm (c10::div_floor_floating),
    but each step rounded to the dtype, as its Half arithmetic does (NumPy's float16 loop works in float32)."""
    d = a.dtype
    mod = np.fmod(a, b).astype(d)
    div = ((a - mod).astype(d) / b).astype(d)
    div = np.where((mod != 0) & ((b < 0) != (mod < 0)), (div - 1).astype(d), div)
    floor = np.floor(div).astype(d)
    floor = np.where((div - floor).astype(d) > 0.5, (floor + 1).astype(d), floor)
    q = np.where(div != 0, floor, np.copysign(np.zeros((), d), (a / b).astype(d)))
    return np.where(b == 0, (a / b).astype(d), q).astype(d)


def floor_divide(input, other):
    """Elementwise division rounded down (not differentiable)."""
    return _rounded_div(input, other, "floor", "floor_divide")


def neg(input):
    """-input."""
    if input.dtype is _dtypes.bool_:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
    if type(input) is not Tensor and input.is_sparse:
        return -input   # (torch.neg(s): the sparse negation)
    return D.neg(input)


negative = neg


def pow(input, exponent=_MISSING, *_extra):
    """input ** exponent (scalar exponent: PowBackward0; tensor exponent: PowBackward1)."""
    if _extra:   # (x.pow(a, b): PyTorch's count, without self)
        raise _arg_errors.too_many("pow", input, (exponent, *_extra), {})
    if not isinstance(input, Tensor):
        if not isinstance(exponent, Tensor) or isinstance(input, _NOT_NUMBERS):   # ([1, 2] ** t: no overload)
            raise _arg_errors.no_overload("pow", input, exponent)
        if type(exponent) is not Tensor and exponent.is_sparse:   # (2 ** s: sparse.py's refusal)
            return exponent.__rpow__(input)
        if type(input) is int:
            _check_scalar_int(input)
        # number ** tensor: PowBackward2, one edge (to the exponent), the base saved as a number.
        # dtype is always given: _run rounds NumPy's float32 power of a bfloat16 tensor back to bfloat16.
        dt = _dtypes.result_type(input, exponent)
        if dt is _dtypes.bool_:
            raise NotImplementedError("\"pow\" not implemented for 'Bool'")
        return D.pow_scalar_base(exponent, dtype=dt, self=input)
    if isinstance(exponent, np.ndarray):
        raise _arg_errors.no_overload("pow", input, exponent)
    if isinstance(exponent, Tensor):
        if input.dtype is _dtypes.bool_ and exponent.dtype is _dtypes.bool_:
            _check_broadcast(input, exponent)  # (the shapes' error first)
            raise NotImplementedError("\"pow\" not implemented for 'Bool'")
        if type(exponent) is not Tensor and exponent.is_sparse:   # (dense ** sparse: no kernel, as PyTorch)
            from .sparse import _not_for_sparse
            raise _not_for_sparse("aten::pow.Tensor_Tensor")
        return _binary(D.pow_tensor, input, exponent)
    if ((type(exponent) is int and -2**63 <= exponent < 2**64) or type(exponent) is float) and (
            input._data.dtype in _POW_FAST_NP):   # (an int beyond: the parser's OverflowError, below)
        # Fast path (x ** 2, x ** 0.5): a Python number leaves a float tensor's dtype alone; no result_type.
        return D.pow.call((input,), None, None, {"exponent": exponent})
    if not isinstance(exponent, (int, float, complex, np.generic)):  # (x.pow("a"): PyTorch's parser refuses it)
        _refuse_operand("pow", exponent, {}, input)
    return D.pow(input, dtype=_pow_number_dtype(input, exponent), exponent=exponent)


# pow's fast path: the dtypes a Python int/float exponent leaves alone and NumPy's power keeps. Not bfloat16
# (NumPy's power of it is float32: the general path passes dtype, so _run rounds back) nor float16 (PyTorch
# checks that the exponent fits in it).
_POW_FAST_NP = frozenset(np.dtype(d) for d in (np.float32, np.float64, np.complex64, np.complex128))
# The C++ type names of PyTorch's "value cannot be converted to type ... without overflow".
_CPP_TYPE_NAMES = {"float16": "c10::Half", "bfloat16": "c10::BFloat16", "int8": "int8_t", "int16": "int16_t",
                   "int32": "int", "uint8": "uint8_t"}


def _pow_number_dtype(input, exponent) -> _dtypes.dtype:
    """The dtype of ``input ** exponent`` for a Python number exponent, after PyTorch's checks of it."""
    if type(exponent) is int:
        _check_scalar_int(exponent)
        if not (input.dtype.is_floating_point or input.dtype.is_complex):
            _dtypes.to_int64(exponent)   # (the integer kernels read the exponent as an int64 first)
    dt = _dtypes.result_type(input, exponent)
    if not (dt.is_floating_point or dt.is_complex) and isinstance(exponent, int) and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    cpp_name = _CPP_TYPE_NAMES.get(dt.name)
    if cpp_name is not None and not isinstance(exponent, complex):
        # PyTorch converts the exponent to the result's dtype, refusing a finite value out of its range.
        info = _dtypes.finfo(dt) if dt.is_floating_point else _dtypes.iinfo(dt)
        low = -info.max if dt.is_floating_point else info.min
        if not low <= exponent <= info.max and exponent == exponent and builtins.abs(exponent) != float("inf"):
            raise RuntimeError(f"value cannot be converted to type {cpp_name} without overflow")
    return dt


def exp(input, *, out=None):
    """e ** input."""
    if out is not None:
        return _into_out("exp", out, (input,), lambda: exp(input))
    return _unary(D.exp, input)


def log(input, *, out=None):
    """Natural logarithm."""
    if out is not None:
        return _into_out("log", out, (input,), lambda: log(input))
    return _unary(D.log, input)


def sigmoid(input):
    """1 / (1 + exp(-input))."""
    return _unary(D.sigmoid, input)


def tanh(input):
    """Hyperbolic tangent."""
    return _unary(D.tanh, input)


def relu(input):
    """max(input, 0)."""
    try:
        return D.relu.call((input,), None, None, {})  # D.relu(input), without packing the arguments
    except AttributeError:
        if not isinstance(input, Tensor):
            raise _not_a_tensor("relu", input) from None
        raise


def conj(input):
    """Complex conjugate (the tensor itself for real tensors)."""
    if not input.dtype.is_complex:
        return input
    return _conj.conj_view(input)   # a lazy conjugate view, as PyTorch's (see _conj.py)


# ---- more elementwise functions (part A) ------------------------------------------------------

def _not_bool(input, name: str) -> None:
    if input.dtype is _dtypes.bool_:
        raise NotImplementedError(f"\"{name}\" not implemented for 'Bool'")


def abs(input):
    """|input| (the modulus for complex tensors, which gives a real result)."""
    _not_bool(input, "abs_cpu")
    if input.dtype.is_complex:   # (PyTorch's abs of a complex tensor writes into empty_like(input) of its real type)
        return _strides.into_empty_like(input, D.absolute(input))
    return D.absolute(input)


absolute = abs


def sgn(input):
    """sign(x) for real x; x/|x| for complex x (0 at 0)."""
    return D.sgn(input)


def sign(input):
    """-1, 0 or 1 by the sign of each element (real tensors only; see sgn for complex)."""
    if input.dtype.is_complex:
        raise NotImplementedError("Unlike NumPy, torch.sign is not intended to support complex numbers. "
                                  "Please use torch.sgn instead.")
    return D.sign(input)


def reciprocal(input):
    """1 / input."""
    return _unary(D.reciprocal, input)


def sqrt(input):
    """Square root."""
    return _unary(D.sqrt, input)


def rsqrt(input):
    """1 / sqrt(input)."""
    return _unary(D.rsqrt, input)


def exp2(input):
    """2 ** input."""
    return _unary(D.exp2, input)


def expm1(input):
    """exp(input) - 1, accurate near 0."""
    return _unary(D.expm1, input)


def log2(input):
    """Base-2 logarithm."""
    return _unary(D.log2, input)


def log10(input):
    """Base-10 logarithm."""
    return _unary(D.log10, input)


def log1p(input):
    """log(1 + input), accurate near 0."""
    return _unary(D.log1p, input)


def sin(input):
    """Sine."""
    return _unary(D.sin, input)


def cos(input):
    """Cosine."""
    return _unary(D.cos, input)


def tan(input):
    """Tangent."""
    return _unary(D.tan, input)


def _check_rounding(name: str, input) -> None:
    """PyTorch's errors for rounding a dtype its kernels lack: bool, complex (and integers for frac)."""
    dt = input.dtype if isinstance(input, Tensor) else None
    if dt is None or dt.is_floating_point or (dt._kind == 1 and name != "frac"):
        return
    if dt.is_complex and name in ("floor", "ceil", "trunc"):
        raise NotImplementedError(f"{name} is not supported for complex inputs")
    kernel = "frac_cpu" if name == "frac" else f"{name}_vml_cpu"
    raise NotImplementedError(f'"{kernel}" not implemented for \'{_legacy(dt)}\'')


def floor(input):
    """Round down (zero gradient)."""
    _check_rounding("floor", input)
    return D.floor(input)


def ceil(input):
    """Round up (zero gradient)."""
    _check_rounding("ceil", input)
    return D.ceil(input)


def trunc(input):
    """Round towards zero (zero gradient)."""
    _check_rounding("trunc", input)
    return D.trunc(input)


fix = trunc


def frac(input):
    """input - trunc(input)."""
    _check_rounding("frac", input)
    return D.frac(input)


def round(input, *, decimals: int | None = None):
    """Round half to even (to ``decimals`` decimal places: RoundBackward1 whenever decimals is given)."""
    if decimals is not None:
        _check_int("round", "decimals", decimals, None)
    if decimals is not None and isinstance(input, Tensor) and not input.is_floating_point():
        kernel = "round_vml_cpu" if decimals == 0 else "round_cpu"  # (no integer kernel with decimals)
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_legacy(input.dtype)}\'')
    _check_rounding("round", input)
    if decimals is not None:
        return D.round_decimals(input, decimals=decimals)
    return D.round_half_even(input)


def square(input):
    """input ** 2 (PowBackward0, as in PyTorch)."""
    return pow(input, 2)


def clamp(input, min=None, max=None):
    """Limit every element to [min, max] (either may be None; tensors broadcast)."""
    min, max, dt = _clamp_args(input, min, max)
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        return _clamp_tensors(input, min, max, dt)
    return D.clamp(input, dtype=dt if dt.np != input._data.dtype else None, min=min, max=max)


def _clamp_tensors(input, min, max, dt, out=None):
    """clamp with tensor bounds (ClampBackward0); a missing one is PyTorch's undefined tensor: shown as None,
    with a (None, 0) edge."""
    lo = D.absent(dt.np) if min is None else min
    hi = D.absent(dt.np) if max is None else max
    try:
        return D.clamp_tensor(input, lo, hi, out=out, dtype=dt)
    except ValueError as e:
        if "broadcast" in str(e):
            given = [b._data.shape for b in (min, max) if b is not None]
            _raise_broadcast_error(input._data.shape, np.broadcast_shapes(*given) if len(given) > 1 else given[0],
                                   out, (input, min, max))
        raise


def _clamp_one_tensor(op, name: str, input, bound, out=None):
    """clamp_min / clamp_max with a tensor bound: max(x, t) / min(x, t) (ClampMinBackward1 / ClampMaxBackward1)."""
    dt = _dtypes.result_type(input, bound)
    if out is not None:   # (TensorIterator's broadcast into the output's shape, then its cast)
        _check_broadcast(input, bound)
        shape = np.broadcast_shapes(input._data.shape, bound._data.shape)
        if shape != input._data.shape:
            raise RuntimeError(f"output with shape {list(input._data.shape)} doesn't match the broadcast shape "
                               f"{list(shape)}")
    if out is not None and dt._kind > input.dtype._kind:  # (the in-place cast is checked first)
        raise RuntimeError(f"result type {_legacy(dt)} can't be cast to the desired output type {_legacy(input.dtype)}")
    if dt.is_complex:
        kernel = "maximum" if name == "clamp_min" else "minimum"
        raise NotImplementedError(f'"{kernel}_cpu" not implemented for \'{_legacy(dt)}\'')
    try:
        return op(input, bound, out=out, dtype=dt)
    except ValueError as e:
        if "broadcast" in str(e):
            _raise_broadcast_error(input._data.shape, bound._data.shape, out, (input, bound))
        raise


def _clamp_meta_first(compute) -> None:
    """The complex refusal of PyTorch's clamp meta functions (a complex input; for number bounds, a complex bound),
    which comes before TensorIterator's checks of out= (an expanded one): ``compute()``'s, if it is that one."""
    try:
        compute()
    except NotImplementedError as e:
        if str(e) == "clamp is not supported for complex types":
            raise
    except Exception:  # noqa: BLE001 - any other error comes after out='s (the caller's)
        pass


def _check_clamp_bound(name: str, input, bound) -> None:
    """clamp_min / clamp_max: PyTorch's TypeError for a bound that is neither a tensor nor a number (or missing)."""
    if not isinstance(bound, (Tensor, _NUMBER)):
        if bound is _MISSING:   # (x.clamp_min(): the parser's words for the call without it)
            raise _arg_errors.too_many(name, input, (), {})
        raise _arg_errors.no_overload(name, input, bound)


def _clamp_args(input, min, max, name="clamp"):
    """clamp's checks in PyTorch's order; the bounds (a 0-dim tensor beside a number as a number) and the dtype."""
    if not isinstance(input, Tensor):  # (the bounds taken as given by keyword: clamp(x, min=0))
        raise _arg_errors.invalid_combination(name, (input,), {k: v for k, v in (("min", min), ("max", max))
                                                               if v is not None}, _arg_errors.OVERLOADS["clamp"])
    for b in (min, max):
        if b is not None and not isinstance(b, (Tensor, _NUMBER)):  # (clamp(x, min="a"): no overload fits)
            raise _arg_errors.invalid_combination(name, (input,), {k: v for k, v in (("min", min), ("max", max))
                                                                   if v is not None}, _arg_errors.OVERLOADS[name])
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    tensors = [isinstance(b, Tensor) for b in (min, max)]
    if builtins.any(tensors) and not builtins.all(t or b is None for t, b in zip(tensors, (min, max))):
        # A tensor and a number: PyTorch's Number overload takes a 0-dim tensor as a number, nothing else.
        if builtins.any(t and (b.dim() or b.requires_grad) for t, b in zip(tensors, (min, max))):
            raise _arg_errors.invalid_combination(name, (input,), {k: v for k, v in (("min", min), ("max", max))},
                                                  _arg_errors.OVERLOADS["clamp"])
        min, max = (b.item() if t else b for t, b in zip(tensors, (min, max)))
    if input.dtype.is_complex:  # (after the parser's TypeError)
        raise NotImplementedError("clamp is not supported for complex types")
    bounds = [b for b in (min, max) if b is not None]
    if input.dtype.is_floating_point and not builtins.any(isinstance(b, (Tensor, complex)) for b in bounds):
        dt = input.dtype   # (PyTorch promotes no number bound with a floating input: not even 2**63, a uint64)
    else:
        dt = _dtypes.result_type(*_vmap_batched.physical(input, *bounds))
    if builtins.any(tensors) and (isinstance(min, Tensor) or isinstance(max, Tensor)):
        shape = input._data.shape
        for b in bounds:  # (the shapes' error first, in PyTorch's order: input, min, max)
            if b._data.shape != shape:
                try:
                    shape = np.broadcast_shapes(shape, b._data.shape)
                except ValueError:
                    _raise_broadcast_error(shape, b._data.shape, tensors=(input, *bounds))
        if dt.is_complex or (dt is _dtypes.bool_ and len(bounds) == 2) or dt in _dtypes.BAREBONES_UNSIGNED:
            kernel = "clamp" if min is not None and max is not None else "maximum" if min is not None else "minimum"
            raise NotImplementedError(f'"{kernel}_cpu" not implemented for \'{_legacy(dt)}\'')
        return min, max, dt
    if dt is _dtypes.bool_ or dt in _dtypes.BAREBONES_UNSIGNED:
        kernel = "clamp" if min is not None and max is not None else "clamp_min" if min is not None else "clamp_max"
        raise NotImplementedError(f'"{kernel}_scalar_cpu" not implemented for \'{_legacy(dt)}\'')
    if dt.is_complex:  # a complex number bound (PyTorch's clamp reads it as a double for a float input)
        if name == "clamp" and input.dtype.is_floating_point:
            if builtins.any(isinstance(b, complex) and b.imag for b in bounds):
                raise RuntimeError("value cannot be converted to type double without overflow")
            real = (b.real if isinstance(b, complex) else b for b in (min, max))  # (no imaginary part)
            # (the node saves the complex numbers, as PyTorch's: its backward's comparison with them fails)
            return (min, max, _clamp_args(input, *real, name)[2])
        raise NotImplementedError("clamp is not supported for complex types")
    for b in bounds:
        _check_scalar_fits(b, dt)
    return min, max, dt


# The C++ type names of PyTorch's "value cannot be converted to type ... without overflow".
_CPP_NAMES = {"float16": "c10::Half", "bfloat16": "c10::BFloat16", "float32": "float", "float64": "double",
              "int8": "int8_t", "int16": "int16_t", "int32": "int", "int64": "int64_t", "uint8": "uint8_t",
              "uint16": "uint16_t", "uint32": "uint32_t", "uint64": "uint64_t"}


def _check_scalar_fits(value, dt) -> None:
    """PyTorch's checked conversion of a Python number to ``dt`` (c10::checked_convert)."""
    if type(value) is int:
        _check_scalar_int(value)  # (the parser's error first)
    if dt is _dtypes.complex64:   # (each part must fit a float; inf and nan pass, as for a real float)
        top = float(np.finfo(np.float32).max)
        if builtins.any(builtins.abs(p) > top and builtins.abs(p) != float("inf")
                        for p in (complex(value).real, complex(value).imag)):
            raise RuntimeError("value cannot be converted to type c10::complex<float> without overflow")
        return
    if dt.is_complex or dt is _dtypes.bool_:
        return
    if isinstance(value, complex):  # (to a real type: only without an imaginary part)
        if value.imag:
            raise RuntimeError(f"value cannot be converted to type {_CPP_NAMES[dt.name]} without overflow")
        value = value.real
    if dt.is_floating_point:
        value = float(value)
        info = _dtypes.finfo(dt)
        fits = value != value or builtins.abs(value) == float("inf") or -info.max <= value <= info.max
    else:
        info = _dtypes.iinfo(dt)
        if not dt.is_signed and value < 0 and isinstance(value, int):  # (integers wrap: two's complement)
            fits = -value <= info.max
        else:
            fits = info.min <= value <= info.max
    if not fits:
        raise RuntimeError(f"value cannot be converted to type {_CPP_NAMES[dt.name]} without overflow")




def _check_fill_fits(value, dt, numel: int) -> None:
    """fill's checked conversion: a one-element CPU tensor takes PyTorch's scalar_fill path, which reads a number
    for float16/bfloat16 as a double (so 1e6 fills inf, and 1j is refused as 'double')."""
    _check_scalar_fits(value, _dtypes.float64 if numel == 1 and dt in (_dtypes.float16, _dtypes.bfloat16) else dt)


clip = clamp


def clamp_min(input, min=_MISSING, *_extra):
    """max(input, min)."""
    if _extra:   # (x.clamp_min(a, b): PyTorch's count, without self)
        raise _arg_errors.too_many("clamp_min", input, (min, *_extra), {})
    _check_clamp_bound("clamp_min", input, min)
    _check_broadcast(input, min)
    if isinstance(min, Tensor):
        return _clamp_one_tensor(D.clamp_min_tensor, "clamp_min", input, min)
    _, _, dt = _clamp_args(input, min, None, "clamp_min")
    return D.clamp_min(input, dtype=dt if dt.np != input._data.dtype else None, min=min)


def clamp_max(input, max):
    """min(input, max)."""
    _check_clamp_bound("clamp_max", input, max)
    _check_broadcast(input, max)
    if isinstance(max, Tensor):
        return _clamp_one_tensor(D.clamp_max_tensor, "clamp_max", input, max)
    _, _, dt = _clamp_args(input, None, max, "clamp_max")
    return D.clamp_max(input, dtype=dt if dt.np != input._data.dtype else None, max=max)


def _no_complex(name, *tensors):
    if builtins.any(isinstance(t, Tensor) and t.dtype.is_complex for t in tensors):
        raise RuntimeError(f"{name} not implemented for complex tensors.")


def _tensors_only(name: str, input, other) -> None:
    """PyTorch's TypeError when a two-tensor function (maximum ...) gets something else, a number say."""
    if not isinstance(input, Tensor):
        raise _not_a_tensor(name, input)
    if not isinstance(other, Tensor):
        raise _not_a_tensor(name, other, "other", 2)


def maximum(input, other):
    """Elementwise maximum (NaN propagates)."""
    _tensors_only("maximum", input, other)
    _no_complex("maximum", input, other)
    return _binary(D.maximum, input, other)


def minimum(input, other):
    """Elementwise minimum (NaN propagates)."""
    _tensors_only("minimum", input, other)
    _no_complex("minimum", input, other)
    return _binary(D.minimum, input, other)


def lerp(input, end, weight):
    """input + weight * (end - input)."""
    if not (isinstance(input, Tensor) and isinstance(end, Tensor) and _is_weight(weight)):
        raise _arg_errors.no_overload("lerp", input, end, weight)
    return _lerp(input, end, weight)


def lerp_(input, end, weight):
    """In-place lerp: input += weight * (end - input) (input keeps its shape and dtype)."""
    if not (isinstance(end, Tensor) and _is_weight(weight)):
        raise _arg_errors.invalid_combination("lerp_", (end, weight), {}, _LERP_METHOD)
    _vmap_batched.check_inplace("lerp_", input, (end, weight))  # (vmap's refusal before the dtype check)
    _dispatch._check_inplace(input, _STATE.enabled and _any_requires_grad(end, weight))  # (autograd's errors first)
    if end.dtype is input.dtype and (not isinstance(weight, Tensor) or weight.dtype is input.dtype):
        _dispatch._no_internal_overlap_first(None, input)  # (after lerp's dtype checks, before shapes and kernel)
    return _lerp(input, end, weight, out=input)


_LERP_METHOD = ("(Tensor end, Tensor weight)", "(Tensor end, Number weight)")


def _is_weight(weight) -> bool:
    return isinstance(weight, (Tensor, builtins.int, builtins.float, builtins.complex, np.number))


def _lerp_method(self, end, weight):
    """``x.lerp(end, weight)`` (PyTorch's method lists its overloads without ``input``)."""
    if not (isinstance(end, Tensor) and _is_weight(weight)):
        raise _arg_errors.invalid_combination("lerp", (end, weight), {}, _LERP_METHOD)
    return _lerp(self, end, weight)


_lerp_method.__name__ = "lerp"


def _lerp(input, end, weight, out=None):
    if type(weight) is int:
        _check_scalar_int(weight)
    if input.dtype is not end.dtype:
        raise RuntimeError(f"expected dtype {_META_NAMES[input.dtype.name]} for `end` but got dtype "
                           f"{_META_NAMES[end.dtype.name]}")
    common = None  # the compute dtype, when a 0-dim weight tensor takes part in type promotion
    if isinstance(weight, Tensor):
        if weight.dim() == 0 and not (_vmap_batched.DEPTH[0] and _vmap_batched.levels(weight)):
            # A 0-dim weight may have another dtype: the three promote as usual (PyTorch's promote_weight).
            common = _dtypes.result_type(input if input.dim() else end, weight)  # (input, end: one dtype)
        elif weight.dtype is not input.dtype:
            raise RuntimeError(f"expected dtype {_META_NAMES[input.dtype.name]} for `weight` but got dtype "
                               f"{_META_NAMES[weight.dtype.name]}")
    try:
        shape = np.broadcast_shapes(input._data.shape, end._data.shape)
    except ValueError:
        _raise_broadcast_error(input._data.shape, end._data.shape, tensors=(input, end))
    if isinstance(weight, Tensor):
        try:
            shape = np.broadcast_shapes(shape, weight._data.shape)
        except ValueError:
            _raise_broadcast_error(shape, weight._data.shape, tensors=(input, end, weight))
    if out is not None:
        if shape != out._data.shape:
            raise RuntimeError(f"output with shape {list(out._data.shape)} doesn't match the broadcast shape "
                               f"{list(shape)}")
        if common is not None and common._kind > out.dtype._kind:
            raise RuntimeError(f"result type {_legacy(common)} can't be cast to the desired output type "
                               f"{_legacy(out.dtype)}")
    compute = common or input.dtype   # (an integer input with a 0-dim float weight computes in float)
    if compute._kind < 2:
        kernel = "lerp_kernel_tensor" if isinstance(weight, Tensor) else "lerp_kernel_scalar"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_legacy(compute)}'")
    if not isinstance(weight, Tensor):
        # (the kernel reads the weight as its compute type: float for float16/bfloat16/float32, double for float64)
        # (a complex weight of a real input: without an imaginary part, read as real; the node saves it as given)
        _check_scalar_fits(weight, _dtypes.float32 if input.dtype.itemsize <= 4 and not input.is_complex()
                           else input.dtype)
        return D.lerp(input, end, out=out, weight=weight)
    if common is input.dtype and weight.dtype is common:
        common = None  # (nothing to cast)
    return D.lerp_tensor(input, end, weight, out=out, dtype=common)


def _check_expanded_write(op, input) -> None:
    """An in-place rounding into an expanded tensor: refused before its dtype is checked, as TensorIterator does."""
    data = input._data
    if data.size and 0 in data.strides and builtins.any(st == 0 and n > 1 for st, n in zip(data.strides, data.shape)):
        _dispatch._check_overlapping_write(op, input, (input,))


def _unary_inplace(op, float_result=True, rounding: str | None = None):
    """``x.op_()``: the same table op, written into x (a float result into an int tensor is an error)."""
    def inplace(input):
        if input._requires_grad:
            _dispatch._check_inplace(input, False)  # (a leaf's refusal first)
        if rounding is not None:
            if not (input.is_complex() and rounding != "frac"):   # (floor/ceil/trunc refuse complex ones first)
                _check_expanded_write(op, input)
            _check_rounding(rounding, input)
        return _unary(op, input, out=input, float_result=float_result)
    inplace.__doc__ = f"In-place {op.name}."
    return inplace


sqrt_, rsqrt_, reciprocal_ = _unary_inplace(D.sqrt), _unary_inplace(D.rsqrt), _unary_inplace(D.reciprocal)
exp2_, expm1_, log_ = _unary_inplace(D.exp2), _unary_inplace(D.expm1), _unary_inplace(D.log)
log2_, log10_, log1p_ = _unary_inplace(D.log2), _unary_inplace(D.log10), _unary_inplace(D.log1p)
sin_, cos_, tan_ = _unary_inplace(D.sin), _unary_inplace(D.cos), _unary_inplace(D.tan)
tanh_, sigmoid_ = _unary_inplace(D.tanh), _unary_inplace(D.sigmoid)
sgn_ = _unary_inplace(D.sgn, False)


def abs_(input):
    """In-place |input| (not for bool or complex tensors, as PyTorch)."""
    if input._requires_grad:
        _dispatch._check_inplace(input, False)  # (a leaf's refusal first)
    _not_bool(input, "abs_cpu")
    if input.dtype.is_complex:  # (|z| is real: it cannot go back into z)
        raise RuntimeError("In-place abs is not supported for complex tensors.")
    return _unary(D.absolute, input, out=input, float_result=False)
frac_ = _unary_inplace(D.frac, False, "frac")


def sign_(input):
    """In-place sign (real tensors only)."""
    if input._requires_grad:
        _dispatch._check_inplace(input, False)  # (a leaf's refusal first)
    if input.dtype.is_complex:
        sign(input)  # (PyTorch's error)
    return _unary(D.sign, input, out=input, float_result=False)
floor_, ceil_ = _unary_inplace(D.floor, False, "floor"), _unary_inplace(D.ceil, False, "ceil")
trunc_ = _unary_inplace(D.trunc, False, "trunc")
absolute_, fix_ = _dispatch.captured_alias(abs_, "absolute_"), _dispatch.captured_alias(trunc_, "fix_", composite=True)


def round_(input, *, decimals: int | None = None):
    """In-place round."""
    if input._requires_grad:
        _dispatch._check_inplace(input, False)  # (a leaf's refusal first)
    _check_expanded_write(D.round_half_even, input)
    _check_rounding("round", input)
    if decimals is not None:
        return D.round_decimals(input, out=input, decimals=decimals)
    return D.round_half_even(input, out=input)


def square_(input):
    """In-place input ** 2."""
    _dispatch.check_captured_write(input, "aten::square_")   # (inside torch.func's grad transforms: not pow_'s name)
    _vmap_batched.fallback("square_", input, out=input, composite=True)
    return pow_(input, 2)


def clamp_(input, min=None, max=None):
    """In-place clamp."""
    return _clamp_(input, min, max, "clamp_")


def _clamp_(input, min, max, name: str):
    """clamp_ called as ``name``: clamp_ or clip_, PyTorch's composite, which vmap's fallback sees under its own
    name unless a grad transform inside the vmap decomposes it into clamp_ first."""
    try:  # (the parser's TypeErrors first, then a leaf's refusal, the cast's and the kernel's errors)
        min, max, dt = _clamp_args(input, min, max)
        error = None
    except TypeError:
        raise
    except Exception as e:  # noqa: BLE001 - raised below, in PyTorch's order
        error = e
    if _vmap_batched.DEPTH[0]:   # (no batching rule: vmap's fallback, before autograd and the kernel)
        if not builtins.any(_vmap_batched.hides_autograd(t) for t in (input, min, max)):
            name = "clamp_"
        # (no bounds or tensor ones: the .Tensor overload; number ones: the .Scalar one, named without a suffix)
        tensor_bounds = builtins.all(isinstance(b, Tensor) for b in (min, max) if b is not None)
        _vmap_batched.fallback(name + (".Tensor" if tensor_bounds else ""), input, min, max, out=input)
    if input._requires_grad:
        _dispatch._check_inplace(input, False)
    bounds = [b for b in (min, max) if b is not None]
    numbers_overload = not builtins.all(isinstance(b, Tensor) for b in bounds)   # (a 0-dim tensor read as a number)
    if input.dtype._kind < 2 and builtins.any(isinstance(b, complex) or numbers_overload and isinstance(b, Tensor)
                                              and b.dim() == 0 and b.is_complex() for b in bounds):
        raise RuntimeError("result type ComplexFloat can't be cast to the desired output type "
                           f"{_meta_name(input.dtype)}")
    if (min is not None or max is not None) and not input.is_complex() and (
            error is not None or isinstance(min, Tensor) or isinstance(max, Tensor) or dt._kind <= input.dtype._kind):
        # TensorIterator's overlap check, after clamp's own checks (None bounds, complex input, the cast of
        # number bounds' result type), before the bounds' conversion, shapes and dtypes
        _dispatch._no_internal_overlap_first(None, input)
    if bounds and builtins.all(isinstance(b, Tensor) for b in bounds) and not input.is_complex() and (
            error is None or isinstance(error, NotImplementedError)):
        # (tensor bounds: TensorIterator broadcasts them into input's shape, then casts the result type into it,
        # before the kernel's dtype refusal)
        shape = input._data.shape
        for b in bounds:
            try:
                shape = np.broadcast_shapes(shape, b._data.shape)
            except ValueError:
                _raise_broadcast_error(shape, b._data.shape, tensors=(input, *bounds))
        if shape != input._data.shape:
            raise RuntimeError(f"output with shape {list(input._data.shape)} doesn't match the broadcast shape "
                               f"{list(shape)}")
        common = _dtypes.result_type(input, *bounds)
        if common._kind > input.dtype._kind:
            raise RuntimeError(f"result type {_legacy(common)} can't be cast to the desired output type "
                               f"{_legacy(input.dtype)}")
    if error is not None:
        raise error
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        return _clamp_tensors(input, min, max, dt, out=input)
    _check_clamp_cast(dt, input)
    return D.clamp(input, out=input, min=min, max=max)


def _check_clamp_cast(dt, input) -> None:
    """clamp_ with number bounds: PyTorch's check that the result fits back (in TypeMeta's type names)."""
    if dt._kind > input.dtype._kind:
        raise RuntimeError(f"result type {_legacy(dt)} can't be cast to the desired output type "
                           f"{_meta_name(input.dtype)}")


def clip_(input, min=None, max=None):
    """In-place clamp (its alias)."""
    return _clamp_(input, min, max, "clip_")


clip_ = _dispatch.captured_alias(clip_, "clip_", lambda args, kwargs: ".Tensor" if builtins.any(
    isinstance(a, Tensor) for a in (*args, *kwargs.values())) else "")


def clamp_min_(input, min):
    """In-place clamp_min."""
    _check_clamp_bound("clamp_min", input, min)
    if input._requires_grad:  # (a leaf's refusal before the kernel's errors, as clamp_)
        _dispatch._check_inplace(input, False)
    if isinstance(min, Tensor):
        return _clamp_one_tensor(D.clamp_min_tensor, "clamp_min", input, min, out=input)
    _check_clamp_cast(_clamp_args(input, min, None, "clamp_min")[2], input)
    return D.clamp_min(input, out=input, min=min)


def clamp_max_(input, max):
    """In-place clamp_max."""
    _check_clamp_bound("clamp_max", input, max)
    if input._requires_grad:  # (a leaf's refusal before the kernel's errors, as clamp_)
        _dispatch._check_inplace(input, False)
    if isinstance(max, Tensor):
        return _clamp_one_tensor(D.clamp_max_tensor, "clamp_max", input, max, out=input)
    _check_clamp_cast(_clamp_args(input, None, max, "clamp_max")[2], input)
    return D.clamp_max(input, out=input, max=max)


def relu_(input):
    """In-place relu: PyTorch's clamp_min_(input, 0) after its bool check, whose meta function refuses a complex
    input before TensorIterator refuses an expanded one."""
    if input._requires_grad:
        _dispatch._check_inplace(input, False)  # (a leaf's refusal first)
    if input.dtype is _dtypes.bool_:
        raise RuntimeError("Boolean inputs not supported for relu")
    if input.dtype.is_complex:
        raise NotImplementedError("clamp is not supported for complex types")
    return _unary(D.relu, input, out=input, float_result=False)


# =============================================================================================
# Reductions
# =============================================================================================

class _AllDims:
    """The default ``dim`` of sum and mean: PyTorch's overload without a dim (SumBackward0, MeanBackward0).

    An explicit ``dim=None`` (or ``dim=[]``) also reduces every dim, but through the dim overload:
    SumBackward1 / MeanBackward1, which save ``dim`` and ``keepdim`` (and keepdim then applies).
    """

    def __repr__(self) -> str:
        return "<all dims>"


_ALL_DIMS = _AllDims()


def _reduce_dims(dim, input):
    """``dim`` as sum_dim/mean_dim take it: None stays None (every dim), else checked dims (``[]``: every dim)."""
    if dim is True or dim is False or type(dim) is tuple and builtins.any(type(d) is bool for d in dim) \
            or type(dim) in (tuple, list) and builtins.any(isinstance(d, float) for d in dim):
        # (x.sum(True), x.sum((True,)), x.sum((1.,)): no overload takes one; the callers reparse)
        raise TypeError("a bool or float dim")
    return None if dim is None else _raw_dims(dim, input.dim(), input)


def sum(input, dim=_ALL_DIMS, keepdim=False, *, dtype=None):
    """Sum of all elements, or over ``dim``."""
    try:
        exact = not (input.dtype.is_floating_point or input.dtype.is_complex)
    except AttributeError:  # (no isinstance test on the common path)
        raise _not_a_tensor("sum", input) from None
    if dtype is None:
        if exact:
            dtype = _dtypes.int64  # integer and bool sums are int64, as in PyTorch
    elif not (dtype.is_floating_point or dtype.is_complex) and input._requires_grad and _STATE.enabled:
        if dim is not _ALL_DIMS:
            _reduce_dims(dim, input)  # (the dims' error first)
        raise RuntimeError(f"Autograd not support dtype: {_legacy(dtype)}")
    if dim is _ALL_DIMS:
        if keepdim:
            raise _no_overload("sum", input, dim, keepdim, dtype)
        return D.sum(input, dtype=dtype)
    if input.is_sparse:  # (torch.sum(sparse, dim): a sparse result, minigrad/sparse.py)
        return input.sum(dim, keepdim, dtype=dtype)
    try:
        dims = _reduce_dims(dim, input)
    except TypeError:  # (a dim that is no int or list of ints: PyTorch's parser refuses the call)
        _arg_errors.recheck("sum", (input, dim) + (() if keepdim is False else (keepdim,)), {}, method=False)
        raise
    if keepdim is not False and keepdim is not True:  # (PyTorch's parser takes a bool only; the wrappers place it)
        raise _arg_errors.must_be("sum", "keepdim", "bool", keepdim)
    return D.sum_dim(input, dtype=dtype, dim=dims, keepdim=keepdim)


def mean(input, dim=_ALL_DIMS, keepdim=False, *, dtype=None):
    """Arithmetic mean of all elements, or over ``dim``."""
    if dim is _ALL_DIMS and dtype is None and keepdim is False and isinstance(input, Tensor) \
            and input._data.dtype in _INEXACT_NP:
        return D.mean.call((input,), None, None, {})  # fast path (loss.mean()): nothing to check or cast
    if not isinstance(input, Tensor):
        raise _not_a_tensor("mean", input)
    d = dtype or input.dtype
    if not (d.is_floating_point or d.is_complex):
        _dispatch.check_rebased_inputs(input)   # (the kernel's check, after VariableType collected the edge)
        raise RuntimeError(
            f"mean(): could not infer output dtype. {'Input' if dtype is None else 'Optional'} dtype must be "
            f"either a floating point or complex dtype. Got: {_legacy(d)}")
    if dim is _ALL_DIMS:
        if keepdim:
            raise _no_overload("mean", input, dim, keepdim, dtype)
        return D.mean(input, dtype=dtype)
    try:
        dims = _reduce_dims(dim, input)
    except TypeError:  # (a dim that is no int or list of ints: PyTorch's parser refuses the call)
        _arg_errors.recheck("mean", (input, dim) + (() if keepdim is False else (keepdim,)), {}, method=False)
        raise
    if keepdim is not False and keepdim is not True:  # (PyTorch's parser takes a bool only; the wrappers place it)
        raise _arg_errors.must_be("mean", "keepdim", "bool", keepdim)
    return D.mean_dim(input, dtype=dtype, dim=dims, keepdim=keepdim)


# PyTorch's overloads of the reductions whose dim is optional only through a separate overload, as its
# "invalid combination of arguments" error prints them: (signature, fewest arguments, most arguments).
_OVERLOADS = {
    "sum": (("(Tensor input, *, torch.dtype dtype = None)", 1, 2),
            ("(Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None)",
             2, 5)),
    "prod": (("(Tensor input, *, torch.dtype dtype = None)", 1, 2),
             ("(Tensor input, int dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None)", 2, 5)),
    "max": (("(Tensor input, *, Tensor out = None)", 1, 2),
            ("(Tensor input, Tensor other, *, Tensor out = None)", 2, 3),
            ("(Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None)", 2, 4)),
}
_OVERLOADS["mean"] = (("(Tensor input, *, torch.dtype dtype = None, Tensor out = None)", 1, 3), _OVERLOADS["sum"][1])
_OVERLOADS["min"] = _OVERLOADS["max"]


def _no_overload(name, input, dim, keepdim, dtype=None) -> TypeError:
    """PyTorch's TypeError for a reduction's dim/keepdim that fit none of its overloads (``prod(x, dim=None)``).

    The arguments are taken as given by keyword (minigrad cannot tell ``prod(x, None)`` from ``prod(x, dim=None)``;
    PyTorch's message then says ``NoneType`` instead of ``dim=NoneType``), and ``keepdim`` only when True.
    """
    kwargs = {}
    if dim is not _ALL_DIMS:
        kwargs["dim"] = dim
    if keepdim:
        kwargs["keepdim"] = keepdim
    if dtype is not None:
        kwargs["dtype"] = dtype
    options = _OVERLOADS[name]
    plausible = [o for o in options if o[1] <= 1 + len(kwargs) <= o[2]]
    if len(plausible) == 1:  # PyTorch then reports that overload's complaint: its dim is missing or no int
        if "dim" not in kwargs:
            return TypeError(f'{name}() missing 1 required positional arguments: "dim"')
        return _arg_errors.must_be(name, "dim", "int", dim)
    return _arg_errors.invalid_combination(name, (input,), kwargs, [o[0] for o in options])


def _legacy(d) -> str:
    from ._tensor import _LEGACY_NAMES
    return _LEGACY_NAMES[d.name]


def _tensor_type_name(d) -> str:
    """How PyTorch's messages name a tensor's type: its legacy Python class (torch.FloatTensor) where one is
    registered, else the C++ type's name (CPUBoolType, CPUBFloat16Type, CPUComplexFloatType: no Python class of its
    own)."""
    return _type_string(d)


def sum_to_size(input, *size):
    """Sum broadcast dimensions away until the shape is ``size`` (undoes broadcasting)."""
    if not size:   # (its parser's: sum_to_size() takes a size, () for a 0-dim one)
        raise TypeError('sum_to_size() missing 1 required positional arguments: "size"')
    size = _size_args(size, "sum_to_size")
    shape = input._data.shape
    # (is_expandable_to: aligned from the right, each size equal to the input's or 1, and no more dims than it has)
    if len(size) > len(shape) or builtins.any(n != 1 and n != m for n, m in zip(reversed(size), reversed(shape))):
        raise RuntimeError(f"size {{{list(size)}}} is not expandable to size {{{list(shape)}}}.")
    if not size:
        return sum(input)  # (PyTorch's sum_to: to a 0-dim shape it is a plain sum, SumBackward0)
    lead = len(shape) - len(size)
    dims = tuple(i for i in builtins.range(len(shape))
                 if i < lead or (size[i - lead] == 1 and shape[i] != 1))
    out = input
    if dims:
        out = sum(input, dim=dims, keepdim=True)
    if lead > 0:
        out = view(out, size)
    return out


# ---- more reductions (part A) -----------------------------------------------------------------

def _int_to_long(input, dtype, check: bool = True):
    """Integer and bool sums/products accumulate in int64, as in PyTorch (a dtype given: none that autograd
    cannot record, when input requires grad)."""
    if dtype is None:
        return dtype if input.dtype.is_floating_point or input.dtype.is_complex else _dtypes.int64
    if check and not (dtype.is_floating_point or dtype.is_complex) and input._requires_grad and _STATE.enabled:
        raise RuntimeError(f"Autograd not support dtype: {_legacy(dtype)}")
    return dtype


def prod(input, dim=_ALL_DIMS, keepdim=False, *, dtype=None):
    """Product of all elements, or along one ``dim``."""
    if _AUTOCAST[0]:
        return _autocast("prod", prod, input, dim, keepdim, dtype=dtype)
    if dim is _ALL_DIMS and not keepdim:
        return D.prod(input, dtype=_int_to_long(input, dtype))
    if not _is_int(dim) and _arg_errors._is_index(dim):   # (prod(x, torch.tensor(1)))
        dim = int(dim)
    if not _is_int(dim):  # (prod(x, dim=None), prod(x, dim=[0]) ...: PyTorch's prod takes one int dim)
        raise _no_overload("prod", input, dim, keepdim, _int_to_long(input, dtype, check=False))
    _check_bool("prod", "keepdim", keepdim, 3)
    d = _raw_dims(dim, input.dim(), input)[0]  # (the dim's error before the dtype's)
    return D.prod_dim(input, dtype=_int_to_long(input, dtype), dim=d, keepdim=keepdim)


def _is_int(dim) -> bool:
    """True for a dim PyTorch's parser reads as an int (a Python or NumPy integer, not a bool)."""
    return isinstance(dim, (int, np.integer)) and not isinstance(dim, bool)


def _as_int(value) -> int:
    """``value`` as the int PyTorch's parser reads from an ``int`` argument (a 0-dim integer tensor too); a TypeError
    otherwise (a front-end catching it reparses the call for PyTorch's message)."""
    if not _arg_errors._is_index(value):
        raise TypeError(f"not an int: {_arg_errors.type_name(value)}")
    return int(value)


def _check_bool(name: str, arg: str, value, position: int) -> None:
    """PyTorch's parser takes a Python bool only for a ``bool`` parameter (``x.max(1, 1)``, ``keepdim=1``): its
    TypeError, numbered as the function counts (the wrappers word it as the call was made, or as the method's)."""
    if value is not True and value is not False:
        raise _arg_errors.must_be(name, arg, "bool", value, position)


def _check_int(name: str, arg: str, value, position: int) -> None:
    """PyTorch's parser takes an int (or a 0-dim integer tensor) for an ``int`` parameter: its TypeError for a float
    (``x.unbind(1.)``), numbered as the function counts (the wrappers word it as the call was made)."""
    if not _arg_errors._is_index(value):
        raise _arg_errors.must_be(name, arg, "int", value, position)


def _check_int_dim(name: str, dim) -> int:
    """``dim`` as PyTorch's parser reads an ``int dim`` (a 0-dim integer tensor too: ``x.cumsum(torch.tensor(1))``),
    or its TypeError for None, a list ... (``cumsum(x, dim=None)``)."""
    if _is_int(dim):
        return dim
    if not _arg_errors._is_index(dim):
        raise _arg_errors.must_be(name, "dim", "int", dim)
    return int(dim)


def _value_select(name, op_all, op_dim, input, dim, keepdim):
    if dim is _ALL_DIMS and not keepdim:
        if input.numel() == 0:
            _dispatch.check_rebased_inputs(input)
            # (a batched input: vmap's batch rule reduces the flattened examples along a dim, with that overload's
            # errors; the physical dim it names is the one after the batch dims)
            if _vmap_batched.batch_dims(input):
                raise IndexError(f"{name}(): Expected reduction dim {_vmap_batched.batch_dims(input)} to have "
                                 "non-zero size.")
            raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                               "Specify the reduction dim with the 'dim' argument.")
        if input.dtype.is_complex:
            if _vmap_batched.batch_dims(input):  # (vmap's batch rule, as above)
                raise RuntimeError(f"{name}(): does not support complex input")
            raise NotImplementedError(f'"{name}_all" not implemented for \'{_legacy(input.dtype)}\'')
        if _vmap_batched.reduces_flattened(input):
            return op_dim(input.reshape(-1), dim=0, keepdim=False)[0]
        return op_all(input)
    if not _is_int(dim):  # (max(x, dim=None), max(x, keepdim=True) ...)
        raise _no_overload(name, input, dim, keepdim)
    _check_bool(name, "keepdim", keepdim, 3)
    _check_dim_nonempty(name, input, dim)
    if input.dtype.is_complex:  # (complex numbers have no order)
        raise RuntimeError(f"{name}(): does not support complex input")
    values, indices = op_dim(input, dim=int(dim), keepdim=keepdim)
    return return_types.make(name, values, indices)


def _check_dim_nonempty(name: str, input, dim: int, differentiable: bool = True) -> int:
    """``dim`` wrapped; PyTorch's IndexError if it is empty (max(dim), argmax, median, mode ... have no identity)."""
    d = _wrap_dim_of(dim, input, differentiable)
    if input.dim() and input._data.shape[d] == 0:
        if differentiable:  # (argmax / argmin have no autograd kernel to refuse a rebased view first)
            _dispatch.check_rebased_inputs(input)
        shown = d + _vmap_batched.batch_dims(input)  # (inside vmap PyTorch names the physical dim)
        raise IndexError(f"{name}(): Expected reduction dim {shown} to have non-zero size.")
    return d


def max(input, dim=_ALL_DIMS, keepdim=False):
    """Largest element; with ``dim``, (values, indices) along it; with a tensor, the elementwise maximum."""
    if isinstance(dim, Tensor):
        return maximum(input, dim)
    return _value_select("max", D.max_all, D.max_dim, input, dim, keepdim)


def min(input, dim=_ALL_DIMS, keepdim=False):
    """Smallest element; with ``dim``, (values, indices) along it; with a tensor, the elementwise minimum."""
    if isinstance(dim, Tensor):
        return minimum(input, dim)
    return _value_select("min", D.min_all, D.min_dim, input, dim, keepdim)


def amax(input, dim=(), keepdim=False):
    """Largest value over ``dim`` (all dims if empty or None); ties share the gradient."""
    _check_bool("amax", "keepdim", keepdim, 3)
    if input.numel() == 0:
        _check_reduced_dims_nonempty("amax", input, dim)
    _no_complex_values("max", input, dim)
    return D.amax(input, dim=() if dim is None else _raw_dims(dim, input.dim(), input), keepdim=keepdim)


def amin(input, dim=(), keepdim=False):
    """Smallest value over ``dim`` (all dims if empty or None); ties share the gradient."""
    _check_bool("amin", "keepdim", keepdim, 3)
    if input.numel() == 0:
        _check_reduced_dims_nonempty("amin", input, dim)
    _no_complex_values("min", input, dim)
    return D.amin(input, dim=() if dim is None else _raw_dims(dim, input.dim(), input), keepdim=keepdim)


def _no_complex_values(name: str, input, dim) -> None:
    """amax/amin of a complex tensor: PyTorch's kernel error, once the dims are checked."""
    if input.dtype.is_complex:
        _raw_dims(() if dim is None else dim, input.dim(), input)
        if input.numel():  # (an empty input runs no kernel: autograd's check is next)
            raise NotImplementedError(f'"{name}_values_cpu" not implemented for \'{_legacy(input.dtype)}\'')
        if input.requires_grad and grad_mode.is_grad_enabled():
            raise RuntimeError(f"a{name} does not support automatic differentiation for outputs with complex dtype.")


def _check_reduced_dims_nonempty(name: str, input, dim) -> None:
    """amax/amin of an empty tensor: PyTorch's errors when a reduced slice is empty (there is no identity)."""
    dims = () if dim is None else (dim,) if _is_int(dim) else tuple(dim)
    batch = _vmap_batched.batch_dims(input)  # (inside vmap PyTorch's batch rule names the physical dims, wrapped)
    if not dims or 0 in [input._data.shape[d] for d in dims if -input.dim() <= d < input.dim()]:
        _dispatch.check_rebased_inputs(input)
    if not dims and batch:
        dims = range(input.dim())
    if not dims:
        raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                           "reduction dim with the 'dim' argument.")
    for d in dims:
        if input._data.shape[_wrap_dim(d, input.dim())] == 0:
            shown = _wrap_dim(d, input.dim()) + batch if batch else d
            raise IndexError(f"{name}(): Expected reduction dim {shown} to have non-zero size.")  # (d as given)


def _arg(np_fn, input, dim, keepdim):
    if dim is not None and not _is_int(dim):
        dim = _check_int_dim(np_fn.__name__, dim)
    _check_bool(np_fn.__name__, "keepdim", keepdim, 3)
    if input.dtype is _dtypes.bool_ or input.dtype.is_complex:  # (before the dim's range)
        kind = "bool" if input.dtype is _dtypes.bool_ else "complex"
        raise RuntimeError(f"{np_fn.__name__}(): does not support {kind} input")
    if input.numel() == 0:  # (no identity: an empty slice has no argmax)
        if dim is None and _vmap_batched.batch_dims(input):  # (vmap's batch rule: argmax(dim) of flat examples)
            raise IndexError(f"{np_fn.__name__}(): Expected reduction dim {_vmap_batched.batch_dims(input)} to have "
                             "non-zero size.")
        if dim is None:
            raise IndexError(f"{np_fn.__name__}(): Expected reduction dim to be specified for input.numel() == 0.")
        _check_dim_nonempty(np_fn.__name__, input, dim, differentiable=False)
    _dtypes.refuse_unsigned(f"{np_fn.__name__}_cpu", input.dtype)
    if dim is None:
        out = np_fn(input._data.reshape(-1))
        out = Tensor._make(np.asarray(out, dtype=np.int64).reshape((1,) * input.dim() if keepdim else ()))
        return _meta.follow(out, input) if _meta.METAS else out
    d = _wrap_dim(dim, input.dim())
    data = input._data if input.dim() else input._data.reshape(1)
    out = np_fn(data, axis=d, keepdims=keepdim and input.dim() > 0)
    out = Tensor._make(np.asarray(out, dtype=np.int64))
    return _meta.follow(out, input) if _meta.METAS else out


def argmax(input, dim=None, keepdim=False):
    """Index of the largest element (of the flattened tensor if ``dim`` is None)."""
    out = _arg(np.argmax, input, dim, keepdim)
    return _vmap_batched.follow(out, input) if _vmap_batched.DEPTH[0] else out  # (inside vmap: batched as input)


def argmin(input, dim=None, keepdim=False):
    """Index of the smallest element (of the flattened tensor if ``dim`` is None)."""
    out = _arg(np.argmin, input, dim, keepdim)
    return _vmap_batched.follow(out, input) if _vmap_batched.DEPTH[0] else out


def _var_args(input, dim, unbiased, keepdim, correction, name="var"):
    if not isinstance(input, Tensor) and name in _arg_errors.OVERLOADS:  # (torch.var(1.5))
        raise _arg_errors.no_overload(name, input, *(() if dim is _ALL_DIMS else (dim,)))
    if isinstance(dim, bool):          # x.var(False): the old "unbiased" positional form
        dim, unbiased = None, dim
    elif unbiased is _NO_ARG:   # (not given: an explicit None is not a bool to PyTorch's parser)
        unbiased = None
    elif unbiased is None:
        raise _arg_errors.must_be(name, "unbiased", "bool", None)
    for flag in (unbiased, keepdim):   # (PyTorch's parser takes bools only: its error from the wrappers)
        if flag is not None and flag is not False and flag is not True or keepdim is None:
            raise _arg_errors.must_be(name, "unbiased" if flag is unbiased else "keepdim", "bool", flag)
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        what = name if name in ("std_mean", "var_mean") else "std and var"
        raise RuntimeError(f"{what} only support floating point and complex dtypes")
    if unbiased is not None and correction is not None:
        raise TypeError("var(): cannot pass both 'unbiased' and 'correction'")
    if isinstance(correction, (complex, np.complexfloating)):   # (the Scalar is read as a double)
        if correction.imag != 0:
            raise RuntimeError("value cannot be converted to type double without overflow")
        correction = correction.real
    if correction is None and unbiased is not None:
        correction = int(unbiased)
    elif correction is None and dim is not _ALL_DIMS:
        correction = 1
    # PyTorch saves correction=None when no dim, unbiased nor correction is given (the formulas read it as 1);
    # an explicit dim=None saves 1. dim=None and dim=[] both reduce every dim (saved as given: None, ()).
    dims = None if dim is None or dim is _ALL_DIMS else _raw_dims(dim, input.dim(), input)
    n = input.numel() if not dims or input.dim() == 0 else int(np.prod([input._data.shape[d] for d in dims]))
    # (PyTorch's reduction factor numel / output numel: 0 for an empty input, or its physical tensor under a vmap
    # over no examples)
    n = 0 if not input._data.size or _vmap_batched.DEPTH[0] and _vmap_batched.no_examples(input) else n
    if n - (1 if correction is None else correction) <= 0:
        if grad_mode.is_grad_enabled() and input._requires_grad:   # (the kernel warns after autograd's edges)
            _dispatch._check_rebased_views(D.var_mean, (input,))
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the reduction "
                      "factor (input numel divided by output numel). (Triggered internally at "
                      "/__w/pytorch/pytorch/aten/src/ATen/native/ReduceOps.cpp:1861.)", UserWarning,
                      stacklevel=_user_stacklevel())
    return {"dim": dims, "correction": correction, "keepdim": keepdim}


def var(input, dim=_ALL_DIMS, unbiased=_NO_ARG, keepdim=False, *, correction=None):
    """Variance with Bessel's correction by default (``correction=0`` for the population variance)."""
    return D.var(input, **_var_args(input, dim, unbiased, keepdim, correction))


def std(input, dim=_ALL_DIMS, unbiased=_NO_ARG, keepdim=False, *, correction=None):
    """Standard deviation (square root of var)."""
    return D.std(input, **_var_args(input, dim, unbiased, keepdim, correction, "std"))


def logsumexp(input, dim=_ALL_DIMS, keepdim=False):
    """log(sum(exp(input), dim)), computed without overflow."""
    if dim is _ALL_DIMS:
        raise TypeError('logsumexp() missing 1 required positional arguments: "dim"')
    if dim is None:
        raise TypeError("logsumexp(): argument 'dim' must be tuple of ints, not NoneType")
    _check_bool("logsumexp", "keepdim", keepdim, 3)
    try:
        dims = _raw_dims(dim, input.dim(), input)
    except (IndexError, RuntimeError):
        _dispatch.check_rebased_inputs(input)  # (VariableType's edges first: a rebased unbind output's refusal)
        raise
    if not dims and not keepdim and input.numel() and input.dim():
        # PyTorch reduces every dim for dim=[] but then adds the kept-dim maximum to the reduced sum in place.
        _dispatch.check_rebased_inputs(input)
        raise RuntimeError(f"output with shape [] doesn't match the broadcast shape {[1] * input.dim()}")
    return _unary_args(D.logsumexp, input, dim=dims, keepdim=keepdim)


def _unary_args(op, t, **args):
    dt = _float_dtype(t)
    return op(t, dtype=dt if dt.np != t._data.dtype else None, **args)


def _check_norm_dtype(name, input_dtype, dtype):
    """PyTorch's checks of a norm's ``dtype=``: floating or complex, of the input's kind, not narrowing."""
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(f"{name}: dtype should be floating point or complex, but got {_legacy(dtype)}")
    if input_dtype.is_complex != dtype.is_complex:
        kind = "complex for complex" if input_dtype.is_complex else "real for real"
        raise RuntimeError(f"{name}: dtype should be {kind} inputs, but got {_legacy(dtype)}")
    if _dtypes.promote_types(input_dtype, dtype) is not dtype:
        raise RuntimeError(f"{name}: the dtype of the input ({_legacy(input_dtype)}) should be "
                           f"convertible without narrowing to the specified dtype ({_legacy(dtype)})")


def norm(input, p="fro", dim=None, keepdim=False, dtype=None):
    """Vector p-norm over ``dim`` (all elements if None): p = 2 ('fro'), 1, inf, -inf, 0 or any number.

    Another string ('nuc'), or 'fro' over more than two dims, is linalg.matrix_norm's (over every dim when
    ``dim`` is None), as in PyTorch.
    """
    _ = input.layout   # (PyTorch's torch.norm is Python reading this first: a non-tensor's AttributeError)
    if isinstance(p, str) and (p != "fro" or not (dim is None or isinstance(dim, int) or len(dim) <= 2)):
        from .linalg import matrix_norm
        dims = tuple(builtins.range(input.dim())) if dim is None else (dim,) if isinstance(dim, int) else dim
        return matrix_norm(input, p, dims, keepdim, dtype=dtype)
    if isinstance(p, (tuple, list)):  # (its parser's error, before any other)
        raise _arg_errors.must_be("linalg_vector_norm", "ord", "Number", p, 2)
    if isinstance(dim, bool):   # (torch.norm's Python makes an int dim a list: [True] is refused by element)
        dim = [dim]
    if dim is not None and not _arg_errors._is_index(dim):  # (then its dim: an int[1]?, one-element tensors too)
        dim = _arg_errors.int_list("linalg_vector_norm", "dim", dim, 3, one_int=True)
    _check_bool("linalg_vector_norm", "keepdim", keepdim, 4)   # (torch.norm passes it on by position)
    ord = 2 if p is None or isinstance(p, str) else _arg_errors.scalar_arg(p, "linalg_vector_norm", "ord", 2, "Number")
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                           f"Got {_legacy(input.dtype)}")
    if input.numel() == 0 and (ord < 0 or ord == np.inf):  # max |x|, or a negative power: no identity
        # (each dim wrapped on its own: an empty one is refused before a repeated one)
        dims = None if dim is None else (int(dim),) if _arg_errors._is_index(dim) else tuple(dim)
        batch = _vmap_batched.batch_dims(input)  # (inside vmap PyTorch reduces the physical tensor's dims)
        if not dims and not batch:
            raise RuntimeError(f"linalg.vector_norm cannot compute the {ord:g} norm on an empty tensor because the "
                               "operation does not have an identity")
        for d in dims or builtins.range(input.dim()):
            if input._data.shape[_wrap_dim(d, input.dim())] == 0:
                shown = d % input.dim() + batch if batch else d
                raise RuntimeError(f"linalg.vector_norm cannot compute the {ord:g} norm on the dimension {shown}"
                                   "because this dimension is empty and the operation does not have an identity")
    if dtype is not None:  # (after the identity's check: floating, and complex for a complex input)
        _check_norm_dtype("linalg.vector_norm", input.dtype, dtype)
    dims = None if dim is None else _raw_dims(dim, input.dim(), input)
    if dtype is not None and dtype.is_complex:  # (the norm of complex numbers is real: computed on input in dtype)
        input, dtype = (input if input.dtype is dtype else input.to(dtype)), None
    return D.linalg_vector_norm(input, dtype=dtype, ord=ord, dim=dims, keepdim=keepdim)


def cumsum(input, dim, *, dtype=None):
    """Running sum along ``dim``."""
    dim = _check_int_dim("cumsum", dim)
    d = _raw_dims(dim, input.dim(), input)[0]  # (the dim's error before the dtype's)
    if dtype is _dtypes.bool_ and input.dim() and input.numel():  # (a 0-dim or empty tensor: no kernel runs)
        raise NotImplementedError("\"cumsum_out_cpu\" not implemented for 'Bool'")
    dtype = _int_to_long(input, dtype)
    return D.cumsum(input, dtype=dtype, dim=d)


# =============================================================================================
# Shape and views
# =============================================================================================

def _infer_size(size, numel):
    """``size`` with its -1 inferred from ``numel``, and PyTorch's errors in its order (ATen's infer_size)."""
    size = list(size)
    infer, known = None, 1
    for i, s in enumerate(size):
        if s == -1:
            if infer is not None:
                raise RuntimeError("only one dimension can be inferred")
            infer = i
        elif s >= 0:
            known *= s
        else:
            raise RuntimeError(f"invalid shape dimension {s} at index {i} of shape {size}")
    if numel == known or (infer is not None and known > 0 and numel % known == 0):
        if infer is not None:
            if known == 0:
                raise RuntimeError(f"cannot reshape tensor of 0 elements into shape {size} because the unspecified "
                                   "dimension size -1 can be any value and is ambiguous")
            size[infer] = numel // known
        return tuple(size)
    raise RuntimeError(f"shape '{size}' is invalid for input of size {numel}")


def _infer_view_size(input, size):
    """``_infer_size`` for a view of ``input`` (inside vmap: the size error of the physical view, as PyTorch's)."""
    try:
        inferred = _infer_size(size, input._data.size)
    except RuntimeError as e:
        _dispatch.check_rebased_inputs(input)   # (view's autograd kernel first; reshape checks the size itself)
        if _vmap_batched.DEPTH[0] and ("is invalid for input of size" in str(e) or "of 0 elements" in str(e)):
            raise _vmap_batched.physical_view_error(input, size, e) from None
        raise
    if -1 in size and _vmap_batched.DEPTH[0]:   # (inside vmap, a batch of no examples makes the -1 ambiguous)
        _vmap_batched.check_view_of_no_examples(input, size)
    return inferred


def view(input, *sizes, size=None, dtype=None):
    """Same data with another shape (a view; fails for incompatible strides), or its bytes read as ``dtype``.

    The shape comes as ints, one list, or by keyword (``x.view(size=(6,))``, as PyTorch's parser takes it)."""
    if size is None or sizes:
        size = sizes
    else:
        size = (size,)
    if dtype is not None and not size:
        return _view_dtype(input, dtype)
    if not size:
        raise TypeError("view() received an invalid combination of arguments - got (), but expected one of:\n"
                        " * (torch.dtype dtype)\n * (tuple of ints size)\n")
    if len(size) == 1 and isinstance(size[0], _dtypes.dtype):
        return _view_dtype(input, size[0])
    sizes = _size_args(size, "view", "size", ("(torch.dtype dtype)", "(tuple of ints size)"))
    try:
        size = _infer_view_size(input, sizes)
        if not _viewable(input._data, size):
            raise RuntimeError("view size is not compatible with input tensor's size and stride (at least one "
                               "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
        return D.view(input, size=size)
    except (RuntimeError, ValueError):   # (NumPy's ValueError: a size beyond its limit)
        _arg_errors.check_int64("view", "size", sizes)   # (a size beyond int64: PyTorch's parser refused it first)
        raise


def _view_dtype(input, dtype):
    """The same bytes read as ``dtype`` (ATen's view_dtype): the last dim scales by the ratio of item sizes."""
    # PyTorch's view.dtype is not differentiable and not an autograd view (no _base): like detach(), the result
    # shares the storage and the version counter, and never requires grad.
    old, new = input._data.itemsize, dtype.np.itemsize
    if old != new:
        why = f" to view {_legacy(input.dtype)} as {_legacy(dtype)} (different element sizes)"
        if input.dim() == 0:
            raise RuntimeError("self.dim() cannot be 0" + why)
        strides, ratio = input.stride(), builtins.max(old, new) // builtins.min(old, new)
        if new > old:
            if input.shape[-1] % ratio:
                raise RuntimeError(f"self.size(-1) must be divisible by {ratio}{why}, but got {input.shape[-1]}")
            if input.storage_offset() % ratio:
                raise RuntimeError(f"self.storage_offset() must be divisible by {ratio}{why}, but got "
                                   f"{input.storage_offset()}")
        if strides[-1] != 1:
            raise RuntimeError(f"self.stride(-1) must be 1{why}, but got {strides[-1]}")
        for i, st in enumerate(strides[:-1]):
            if new > old and st % ratio:
                raise RuntimeError(f"self.stride({i}) must be divisible by {ratio}{why}, but got {st}")
    t = input.detach()
    if _STATE.inference:  # (not an autograd view: made in inference mode, it is an inference tensor,
        t._is_inference = True  # whose changes bump no version counter)
        t._version_counter = [0]
    a = t._data
    if old != new and a.shape[-1] == 1 and a.ndim:   # (NumPy wants the last axis laid out contiguously)
        a = np.lib.stride_tricks.as_strided(a, strides=a.strides[:-1] + (old,))
    t._data = a.view(dtype.np)
    return t


def _viewable(a: np.ndarray, size) -> bool:
    if a.flags["C_CONTIGUOUS"]:
        return True
    try:
        v = a.view()
        v.shape = size  # raises if a copy would be needed
        return True
    except AttributeError:
        return False


def reshape(input, *sizes, shape=None):
    """Like view when possible, otherwise a copy (the shape as ints, one list, or by keyword: shape=(6,))."""
    shape = sizes if shape is None or sizes else (shape,)
    if not shape:
        raise TypeError('reshape() missing 1 required positional arguments: "shape"')
    shape = _size_args(shape, "reshape", "shape")
    # (inside vmap, PyTorch reshapes a contiguous example with the view batch rule: its error names the physical shape)
    try:
        size = _infer_view_size(input, shape) if input._data.flags["C_CONTIGUOUS"] else _infer_size(
            shape, input._data.size)
    except RuntimeError:
        _arg_errors.check_int64("reshape", "shape", shape)   # (a size beyond int64: PyTorch's parser refused it first)
        raise
    if input._data.flags["C_CONTIGUOUS"]:
        return D.view(input, size=size)
    if _viewable(input._data, size):
        return D.reshape_alias(input, size=size)  # strided, but no copy needed: ReshapeAliasBackward0
    return D.unsafe_view(clone(input), size=size)


def reshape_function(*args, **kwargs):
    """``torch.reshape(input, shape)``: the function takes the shape as one argument (the method, also sizes)."""
    bound = _arg_errors.bind("reshape", args, kwargs, {"input": _arg_errors.REQUIRED, "shape": _arg_errors.REQUIRED})
    (input, _), (shape, position) = bound["input"], bound["shape"]
    if not isinstance(shape, (tuple, list, Size)):
        raise _arg_errors.must_be("reshape", "shape", "tuple of ints", shape, position)
    return reshape(input, _arg_errors.int_list("reshape", "shape", shape, position))


def view_as(input, other=_MISSING, *_extra):
    """``input`` viewed with ``other``'s shape."""
    if _extra:   # (x.view_as(a, b): PyTorch's count, without self)
        raise _arg_errors.too_many("view_as", input, (other, *_extra), {})
    if not isinstance(other, Tensor):
        raise _operand_error("view_as", input, other)
    return view(input, other.shape)


def reshape_as(input, other=_MISSING, *_extra):
    """``input`` reshaped to ``other``'s shape."""
    if _extra:   # (x.reshape_as(a, b): PyTorch's count, without self)
        raise _arg_errors.too_many("reshape_as", input, (other, *_extra), {})
    if not isinstance(other, Tensor):
        raise _operand_error("reshape_as", input, other)
    return reshape(input, other.shape)


def flatten(input, start_dim=0, end_dim=-1):
    """Merge dims start_dim..end_dim into one."""
    try:
        if not (_arg_errors._is_index(start_dim) and _arg_errors._is_index(end_dim)):   # (x.flatten(1.), True)
            raise TypeError("not an int dim")   # (the parser's error: recheck below)
        n = input.dim()
        if n == 0:
            _wrap_dim(start_dim, n), _wrap_dim(end_dim, n)
            return reshape(input, (1,))
        s, e = _wrap_dim(start_dim, n), _wrap_dim(end_dim, n)
        if s > e:
            raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
        if s == e:
            return input
        # the merged size written out, not -1: with another 0-sized dim ([0, 3, 4] -> [0, -1]) a -1 could be
        # anything and reshape refuses it as ambiguous (PyTorch multiplies the slice's sizes the same way)
        shape = input._data.shape
        merged = 1
        for size in shape[s:e + 1]:
            merged *= size
        return reshape(input, shape[:s] + (merged,) + shape[e + 1:])
    except Exception:  # (a dim that is not an int: PyTorch's TypeError; free while nothing fails)
        _arg_errors.recheck("flatten", (start_dim, end_dim), {}, method=True)
        raise


def _legacy_0d_transpose(input) -> bool:
    """Whether a transpose of 0-d ``input`` is ``input`` itself: the legacy vmap's (is_grads_batched) batch rule
    returns a 0-d BatchedTensor as it is, no view (so TBackward0 passes a batched gradient on unchanged), where
    nothing records the transpose."""
    return _vmap_batched._legacy(input) and not (grad_mode.is_grad_enabled() and input._requires_grad)


def t(input):
    """Transpose a tensor of at most 2 dims."""
    if input.dim() > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {input.dim()}D")
    if _vmap_batched.DEPTH[0] and not input._data.ndim and _legacy_0d_transpose(input):
        return input
    out = D.t(input)
    if _vmap_batched.DEPTH[0] and not input._data.ndim:
        _vmap_batched.transposed_example(input, out)
    return out


def transpose(input, dim0=_MISSING, dim1=_MISSING, *_extra):
    """Swap two dimensions (a view)."""
    if _extra:   # (x.transpose(a, b): PyTorch's count, without self)
        raise _arg_errors.too_many("transpose", input, (dim0, dim1, *_extra), {})
    try:
        n = input.dim()
        if type(dim0) is not int or type(dim1) is not int:   # (x.transpose(torch.tensor(0), 1))
            dim0, dim1 = _as_int(dim0), _as_int(dim1)
        _wrap_dim(dim0, n), _wrap_dim(dim1, n)
        if _vmap_batched.DEPTH[0] and not n and _legacy_0d_transpose(input):
            return input
        out = D.transpose(input, dim0=dim0, dim1=dim1)  # raw dims: PyTorch saves them as given
        if _vmap_batched.DEPTH[0] and not n:
            _vmap_batched.transposed_example(input, out)
        return out
    except Exception:  # (a dim that is not an int, or not given: PyTorch's TypeError; free while nothing fails)
        _arg_errors.recheck("transpose", *_given(("dim0", "dim1"), (dim0, dim1)), method=True)
        _dispatch.check_rebased_inputs(input)   # (then the kernel's dims, after VariableType collected the edge)
        raise


swapaxes = swapdims = transpose


def permute(input, *sizes, dims=_NO_ARG):
    """Reorder dimensions (a view): x.permute(1, 0), x.permute((1, 0)) or x.permute(dims=(1, 0))."""
    if dims is not _NO_ARG:
        if sizes:
            raise TypeError("permute() got multiple values for argument 'dims'")
        sizes = (dims,)
    if not sizes:
        raise TypeError('permute() missing 1 required positional arguments: "dims"')
    dims = _size_args(sizes, "permute", "dims")
    n = input.dim()
    try:
        if len(dims) != n:
            batch = _vmap_batched.permute_batch_dims(input, dims)   # (inside vmap: the physical tensor's counts)
            raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does not match the "
                               f"length of the desired ordering of dimensions i.e. input.dim() = {n + batch} is not "
                               f"equal to len(dims) = {len(dims) + batch}")
        if len({_wrap_dim(d, n) for d in dims}) != n:
            raise RuntimeError("permute(): duplicate dims are not allowed.")
    except (RuntimeError, IndexError):
        _arg_errors.check_int64("permute", "dims", dims)   # (a dim beyond int64: PyTorch's parser refused it first)
        _dispatch.check_rebased_inputs(input)   # (then the kernel's dims, after VariableType collected the edge)
        raise
    return D.permute(input, dims=dims)


def permute_function(*args, **kwargs):
    """``torch.permute(input, dims)``: the function takes the dims as one argument (the method, also one by one)."""
    bound = _arg_errors.bind("permute", args, kwargs, {"input": _arg_errors.REQUIRED, "dims": _arg_errors.REQUIRED})
    (input, _), (dims, position) = bound["input"], bound["dims"]
    if not isinstance(dims, (tuple, list, Size)):
        raise _arg_errors.must_be("permute", "dims", "tuple of ints", dims, position)
    return permute(input, dims)


def movedim(input, source, destination):
    """Move dims ``source`` to positions ``destination`` (a permute view)."""
    n = input.dim()
    source, destination = (int(d) if _arg_errors._is_index(d) else d for d in (source, destination))
    src = (source,) if isinstance(source, int) else tuple(source)
    dst = (destination,) if isinstance(destination, int) else tuple(destination)
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({list(src)} dims) should contain "
                           f"the same number of dims as destination ({list(dst)} dims)")
    src_w, dst_w = [_wrap_dim(d, n) for d in src], [_wrap_dim(d, n) for d in dst]
    for name, ds, orig in (("source", src_w, src), ("destination", dst_w, dst)):
        if len(set(ds)) != len(ds):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({list(orig)})")
    if n == 0:
        return D.alias(input)  # a 0-dim tensor: an alias (AliasBackward0), as in PyTorch
    order = [None] * n
    for s, d in zip(src_w, dst_w):
        order[d] = s
    rest = iter(d for d in builtins.range(n) if d not in src_w)
    order = tuple(o if o is not None else next(rest) for o in order)
    return D.permute(input, dims=order)  # even when nothing moves: PyTorch's graph has the PermuteBackward0


def moveaxis(input, source, destination):
    """movedim under NumPy's name (inside vmap, PyTorch has no batching rule for its int overload; a grad or jvp
    transform running inside that vmap decomposes it into movedim first, as every composite op, so no refusal)."""
    if _vmap_batched.DEPTH[0] and isinstance(source, int) and isinstance(destination, int) and \
            _vmap_batched.levels(input) and not _vmap_batched._under_grad():
        raise RuntimeError("Batching rule not implemented for aten::moveaxis.int; the fallback path doesn't work on "
                           "out= or view ops.")
    return movedim(input, source, destination)


_LEGACY_TENSOR_TYPES = frozenset({"float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8"})


def _type_string(dt) -> str:
    """How PyTorch's messages name a CPU tensor type: torch.FloatTensor, or CPUBFloat16Type / CPUBoolType."""
    return f"torch.{_legacy(dt)}Tensor" if dt.name in _LEGACY_TENSOR_TYPES else f"CPU{_legacy(dt)}Type"


def expand(input, *sizes, **kwargs):
    """Broadcast to a larger shape without copying (-1 keeps a size)."""
    if kwargs:   # (PyTorch's expand(size, *, implicit=False): size may come by keyword)
        sizes = _expand_keywords(sizes, kwargs)
    if not sizes:
        raise TypeError('expand() missing 1 required positional arguments: "size"')
    sizes = _size_args(sizes, "expand")
    try:
        shape = input._data.shape
        if len(sizes) < len(shape):
            raise RuntimeError(f"expand({_type_string(input.dtype)}{{{list(shape)}}}, size={list(sizes)}): the "
                               "number of sizes provided (%d) must be greater or equal to the number of dimensions in "
                               "the tensor (%d)" % (len(sizes), len(shape)))
        lead = len(sizes) - len(shape)
        target = [0] * len(sizes)
        for i in reversed(range(len(sizes))):  # last dim first, as PyTorch checks (the first error wins)
            s = sizes[i]
            if i < lead and s == -1:
                raise RuntimeError(f"The expanded size of the tensor ({s}) isn't allowed in a leading, non-existing "
                                   f"dimension {i}")
            if i >= lead and s == -1:
                s = shape[i - lead]
            elif i >= lead and shape[i - lead] != s and shape[i - lead] != 1:
                raise RuntimeError(f"The expanded size of the tensor ({s}) must match the existing size "
                                   f"({shape[i - lead]}) at non-singleton dimension {i}.  Target sizes: "
                                   f"{list(sizes)}.  Tensor sizes: {list(shape)}")
            target[i] = s
        if builtins.any(s < 0 for s in target) and 0 not in target:
            # (other negative sizes pass the checks above: the new shape's numel, a product of uint64s, overflows)
            raise RuntimeError("numel: integer multiplication overflow")
        return D.expand(input, size=tuple(target))
    except (RuntimeError, ValueError):   # (NumPy's ValueError: a size beyond its limit)
        _arg_errors.check_int64("expand", "size", sizes)   # (a size beyond int64: PyTorch's parser refused it first)
        _dispatch.check_rebased_inputs(input)   # (then the kernel's checks, after VariableType collected the edge)
        raise


def expand_as(input, other=_MISSING, *_extra):
    """expand(other.shape)."""
    if _extra:   # (x.expand_as(a, b): PyTorch's count, without self)
        raise _arg_errors.too_many("expand_as", input, (other, *_extra), {})
    try:
        shape = other.shape
    except AttributeError:  # (x.expand_as(1): PyTorch's parser error, the method's form)
        raise _operand_error("expand_as", input, other) from None
    return expand(input, shape)


def unsqueeze(input=_NO_ARG, dim=_NO_ARG, /, *extra, **kwargs):
    """Insert a size-1 dimension at ``dim``."""
    # (positional-only: the parser's errors tell a dim given by keyword, x.unsqueeze(dim=None), from one given
    # by position)
    try:
        if extra or kwargs:   # (x.unsqueeze(dim=0), torch.unsqueeze(input=x, dim=0), or x.unsqueeze(0, 1))
            input, dim = _unsqueeze_keywords(input, dim, extra, kwargs)
        if type(dim) is not int:   # (x.unsqueeze(torch.tensor(0)); no dim: _NO_ARG)
            dim = _as_int(dim)
        _wrap_dim(dim, input.dim() + 1)
        return D.unsqueeze(input, dim=dim)
    except Exception:  # (a dim that is not an int: PyTorch's TypeError; free while nothing fails)
        args = (dim, *extra) if dim is not _NO_ARG and "dim" not in kwargs else extra
        # (an input by keyword is the function's, torch.unsqueeze(input=x, dim=None): bound, as its parser's)
        _arg_errors.recheck("unsqueeze", args, {k: v for k, v in kwargs.items() if k != "input"}, method=True)
        _dispatch.check_rebased_inputs(input)   # (then the kernel's dim, after VariableType collected the edge)
        raise


def _unsqueeze_keywords(input, dim, extra, kwargs) -> tuple:
    """unsqueeze's (input, dim) with those given by keyword; a TypeError (then the parser's) for another call."""
    if extra or not kwargs.keys() <= {"input", "dim"} or ("input" in kwargs) == (input is not _NO_ARG) \
            or ("dim" in kwargs) == (dim is not _NO_ARG):
        # (the call as given, x.unsqueeze(0, dim=0); the method's self is given, so an input keyword is refused)
        args = (dim, *extra) if dim is not _NO_ARG else extra
        _arg_errors.recheck("unsqueeze", args, kwargs, method=True)
        raise TypeError
    return kwargs.get("input", input), kwargs.get("dim", dim)


def squeeze(input, dim=_NO_ARG):
    """Remove size-1 dimensions (all, or those in ``dim``)."""
    if dim is _NO_ARG:
        return D.squeeze(input)
    if dim is None:   # (given: no overload takes None; the method's wrapper words the call as it was made)
        _arg_errors.recheck("squeeze", (dim,), {}, method=True)
    if not isinstance(dim, int) and _arg_errors._is_index(dim):   # (x.squeeze(torch.tensor(1)))
        dim = int(dim)
    if isinstance(dim, int) and not isinstance(dim, bool):   # (x.squeeze(True): no overload takes a bool)
        _wrap_dim_of(dim, input)
        return D.squeeze_dim(input, dim=dim)
    if not isinstance(dim, (tuple, list)) or not builtins.all(_is_int(d) for d in dim):
        _arg_errors.recheck("squeeze", (dim,), {}, method=True)
    dims = tuple(dim)
    _raw_dims(dims, input.dim(), input)   # (its errors: a dim out of range, a repeated one)
    return D.squeeze_dims(input, dim=dims)


def _expand_keywords(sizes: tuple, kwargs: dict) -> tuple:
    """expand's ``size=`` and ``implicit=`` keywords, as PyTorch's parser takes them."""
    if not kwargs.keys() <= {"size", "implicit"} and (sizes or "size" in kwargs):
        # (x.expand(2, 3, out=None): PyTorch's extra_kwargs names the first keyword, in order, that it does not take
        # or that a positional argument gave already: implicit, after the loose ints of x.expand(2, 3, ...); a
        # missing size comes first)
        for key in kwargs:
            if key not in ("size", "implicit"):
                raise TypeError(f"expand() got an unexpected keyword argument '{key}'")
            if ("size", "implicit").index(key) < len(sizes):
                raise TypeError(f"expand() got multiple values for argument '{key}'")
    if not isinstance(kwargs.get("implicit", False), bool):
        raise _arg_errors.must_be("expand", "implicit", "bool", kwargs["implicit"])
    if "size" not in kwargs:
        return sizes
    if sizes:
        raise TypeError("expand() got multiple values for argument 'size'")
    if not isinstance(kwargs["size"], (tuple, list)):
        raise _arg_errors.must_be("expand", "size", "tuple of ints", kwargs["size"])
    return (kwargs["size"],)


def select(input, dim, index):
    """The slice at ``index`` along ``dim`` (that dimension removed; a view)."""
    n = input.dim()
    if not _arg_errors._is_index(dim):   # (select(None, 0): PyTorch's parser refuses it)
        raise _arg_errors.must_be("select", "dim", "int", dim, 2)
    if not _arg_errors._is_index(index):   # (select(0, 1.5): PyTorch's parser refuses it)
        raise _arg_errors.must_be("select", "index", "int", index, 3)
    try:
        if n == 0:
            _vmap_batched.check_scalar_example_dim(input, dim)
            raise IndexError("select() cannot be applied to a 0-dim tensor.")
        d = _wrap_dim(dim, n)
        size = input._data.shape[d]
        index = int(index)
        if not -size <= index < size:
            raise IndexError(f"select(): index {index} out of range for tensor of size {list(input._data.shape)} "
                             f"at dimension {d}")
    except IndexError:   # (the kernel's checks, after VariableType collected the edge: a rebased view's refusal)
        _dispatch.check_rebased_inputs(input)
        raise
    return D.select(input, dim=dim, index=index)


def narrow(input, dim=_MISSING, start=_MISSING, length=_MISSING, *_extra):
    """``length`` entries from ``start`` along ``dim`` (a view)."""
    if _extra:   # (x.narrow(a, b): PyTorch's count, without self)
        raise _arg_errors.too_many("narrow", input, (dim, start, length, *_extra), {})
    if isinstance(start, Tensor) and (start.dim() or start.dtype._kind != 1):  # (its Tensor-start overload)
        raise RuntimeError("start must be an 0-dim integral Tensor.")
    try:
        n = input.dim()
        if type(dim) is bool or type(length) is bool:   # (x.narrow(True, 0, 1): no overload takes a bool)
            raise TypeError("a bool dim or length")
        if n == 0:
            raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
        if length < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
        size = input._data.shape[_wrap_dim(dim, n)]
        start = _as_int(start)   # (x.narrow(0, 0., 1): no overload takes a float start)
        if not -size <= start <= size:
            raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
        start = start % size if start < 0 else start
        if start + length > size:
            raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
        return D.slice(input, dim=dim, start=start, end=start + length, step=1)
    except Exception:  # (an argument of the wrong type, or missing: PyTorch's TypeError; free while nothing fails)
        _arg_errors.recheck("narrow", *_given(("dim", "start", "length"), (dim, start, length)), method=True)
        raise


def diagonal(input, offset=0, dim1=0, dim2=1):
    """The diagonal of the (dim1, dim2) matrices, as a view."""
    for position, (arg, value) in enumerate((("offset", offset), ("dim1", dim1), ("dim2", dim2)), 2):
        _check_int("diagonal", arg, value, position)
    d1, d2 = _wrap_dim_of(dim1, input), _wrap_dim_of(dim2, input)
    if d1 == d2:
        _dispatch.check_rebased_inputs(input)   # (the kernel's check, after VariableType collected the edge)
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return D.diagonal(input, offset=offset, dim1=dim1, dim2=dim2)


def _dim_for_split(input, dim, name):
    if input.dim() == 0:
        _vmap_batched.check_scalar_example_dim(input, dim)
        raise RuntimeError(f"{name} expects at least a 1-dimensional tensor")
    return input._data.shape[_wrap_dim(dim, input.dim())]


_VF_SPLIT = ("(Tensor input, int split_size, int dim = 0)", "(Tensor input, tuple of ints split_size, int dim = 0)")


def split(tensor, split_size_or_sections, dim=0):
    """Pieces of ``split_size`` (or of the listed sizes) along ``dim`` — views, one grad_fn for all."""
    if isinstance(split_size_or_sections, Tensor):   # (PyTorch's Python split reads a tensor with int() first:
        try:                                         # torch.tensor([2]), 2.5 or a requires-grad 2. is a size)
            split_size_or_sections = int(split_size_or_sections)
        except ValueError:   # (several elements: handed on as sizes, which split_with_sizes's parser refuses)
            pass
    if isinstance(split_size_or_sections, (list, tuple)):
        # (PyTorch's split passes the list on to split_with_sizes, whose parser reads it first: x.split([2., 4.]))
        split_size_or_sections = _arg_errors.int_list("split_with_sizes", "split_sizes", split_size_or_sections, 2)
        if not _arg_errors._is_index(dim):
            raise _arg_errors.must_be("split_with_sizes", "dim", "int", dim, 3)
        _dim_for_split(tensor, dim, "split")
        return split_with_sizes(tensor, split_size_or_sections, dim)
    if not _arg_errors._is_index(split_size_or_sections):  # (PyTorch's split hands a non-int to split_with_sizes)
        if isinstance(split_size_or_sections, bool):   # (an int to its isinstance: _VF.split's parser refuses it)
            raise _arg_errors.invalid_combination("split", (tensor, split_size_or_sections, dim), {}, _VF_SPLIT)
        raise _arg_errors.must_be("split_with_sizes", "split_sizes", "tuple of ints", split_size_or_sections, 2)
    if not _arg_errors._is_index(dim):   # (PyTorch's split hands the int on to _VF.split, whose parser reads dim)
        raise _arg_errors.invalid_combination("split", (tensor, split_size_or_sections, dim), {}, _VF_SPLIT)
    split_size = int(split_size_or_sections)
    try:
        size = _dim_for_split(tensor, dim, "split")
        if split_size < 0:
            raise RuntimeError(f"split expects split_size be non-negative, but got split_size={split_size}")
        if split_size == 0 and size != 0:
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {size}")
    except (IndexError, RuntimeError):   # (the kernel's checks, after VariableType collected the edge)
        _dispatch.check_rebased_inputs(tensor)
        raise
    return D.split(tensor, split_size=split_size, dim=dim)


def _split_method(self, split_size, dim=0):
    """``x.split(split_size, dim)``: PyTorch's Python method names its parameter ``split_size`` (torch.split's is
    ``split_size_or_sections``)."""
    return split(self, split_size, dim)


def split_with_sizes(input, split_sizes, dim=0):
    """Pieces of the given sizes along ``dim`` (they must add up to the dimension's size)."""
    if not isinstance(split_sizes, (tuple, list)):   # (x.split_with_sizes(2): PyTorch's parser refuses one int)
        raise _arg_errors.must_be("split_with_sizes", "split_sizes", "tuple of ints", split_sizes, 2)
    sizes = tuple(int(s) for s in split_sizes)
    try:
        size = _dim_for_split(input, dim, "split")   # (PyTorch's message names split for a 0-dim input too)
        if builtins.any(s < 0 for s in sizes):
            raise RuntimeError(f"split_with_sizes expects split_sizes have only non-negative entries, but got "
                               f"split_sizes={list(sizes)}")
        if builtins.sum(sizes) != size:
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's size "
                               f"at dimension {dim}), but got split_sizes={list(sizes)}")
    except (IndexError, RuntimeError):   # (the kernel's checks, after VariableType collected the edge)
        _dispatch.check_rebased_inputs(input)
        raise
    return D.split_with_sizes(input, split_sizes=sizes, dim=dim)


def chunk(input, chunks, dim=0):
    """At most ``chunks`` equal pieces along ``dim`` (the last may be smaller)."""
    if input.dim() == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    size = input._data.shape[_wrap_dim(dim, input.dim())]   # (read by chunk itself, before split's edges)
    if size == 0:  # (PyTorch's chunk of an empty dim: ``chunks`` empty pieces)
        return D.split_with_sizes(input, split_sizes=(0,) * chunks, dim=dim)
    return D.split(input, split_size=-(-size // chunks), dim=dim)


def unbind(input, dim=0):
    """Tuple of all slices along ``dim`` (views; one UnbindBackward0 for all)."""
    _check_int("unbind", "dim", dim, 2)
    if input.dim() == 0:  # (dim wrapped as for one dimension first)
        _vmap_batched.check_scalar_example_dim(input, dim)
        _dispatch.check_rebased_inputs(input)   # (the kernel's check, after VariableType collected the edge)
        raise IndexError(f"Dimension specified as {_wrap_dim(dim, 1)} but tensor has no dimensions")
    _wrap_dim_of(dim, input)
    return D.unbind(input, dim=dim)


def _tensor_list(tensors, name):
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, not "
                        f"{type(tensors).__name__}")
    for k, t in enumerate(tensors):
        if not isinstance(t, Tensor):   # (PyTorch's parser, unpacking the list)
            raise TypeError(f"expected Tensor as element {k} in argument 0, but got {_arg_errors.type_name(t)}")
    return list(tensors)


def cat(tensors, dim=0, *, out=None):
    """Join tensors along an existing dimension."""
    return _cat(tensors, dim, out, "cat")


def concat(tensors, dim=0, *, out=None):
    """Alias of cat."""
    return _cat(tensors, dim, out, "concat")


def concatenate(tensors, dim=0, *, out=None):
    """Alias of cat."""
    return _cat(tensors, dim, out, "concatenate")


def _cat(tensors, dim, out, aten_name: str):
    """cat, or its alias ``aten_name`` (an overload of its own, which vmap's refusal of out= names)."""
    tensors = _tensor_list(tensors, "cat")
    if _AUTOCAST[0] and out is None:
        return _autocast("cat", cat, tensors, dim)
    if out is not None:
        def checked():
            if tensors:   # (zero-dim tensors and dim's range come before out='s dtype, as in PyTorch's meta cat)
                _cat_dim(tensors, dim)
            return _checked_cat_out(tensors, out, lambda: cat(tensors, dim), True)
        return _into_out("cat", out, tensors, checked, aten_name)
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    if _vmap_batched.DEPTH[0]:
        skipped = _vmap_batched.check_cat_first_example(tensors, dim)
        if skipped:   # (a vmap over no examples: PyTorch's cat skips their [0] physical tensors)
            return _cat_of_no_examples(tensors, skipped, dim)
    ref, d = _cat_dim(tensors, dim)
    if ref is None:  # (only skipped tensors: PyTorch never wraps dim, its node saves it as given)
        dt = _dtypes.result_type(*tensors) if len(tensors) > 1 else tensors[0].dtype
        result = D.cat(*tensors, dtype=dt, dim=dim if dim in (0, -1) else 0)
        if _vmap_batched.DEPTH[0]:
            _vmap_batched.cat_levels(result, tensors)
        return result
    for k, t in enumerate(tensors):
        if t.dim() == 1 and t._data.shape[0] == 0:
            continue
        if t.dim() != ref.dim():
            _dispatch.check_rebased_inputs(*tensors)   # (cat's shape checks are its kernel's, after the edges')
            raise RuntimeError(f"Tensors must have same number of dimensions: got {ref.dim()} and {t.dim()}")
        for i, (a, b) in enumerate(zip(ref._data.shape, t._data.shape)):
            if i != d and a != b:
                # (under vmap with a batched tensor PyTorch's batching rule concatenates the physical tensors,
                # batch dims first: it names the physical dim, one further per vmap level)
                shown = d + bin(_vmap_batched.levels_of(*tensors)).count("1") if _vmap_batched.DEPTH[0] else d
                _dispatch.check_rebased_inputs(*tensors)
                raise RuntimeError(f"Sizes of tensors must match except in dimension {shown}. Expected size {a} "
                                   f"but got size {b} for tensor number {k} in the list.")
    dt = _dtypes.result_type(*tensors) if len(tensors) > 1 else ref.dtype
    result = D.cat(*tensors, dtype=dt, dim=dim)
    if _vmap_batched.DEPTH[0]:
        _vmap_batched.cat_levels(result, tensors)
    return result


def _cat_of_no_examples(tensors: list, skipped: list, dim: int) -> Tensor:
    """cat inside a vmap over no examples, minigrad's harmless example standing in for them (func/_vmap.py), where
    PyTorch's physical tensors of the ``skipped`` inputs are [0]: the others' cat; all skipped, a 0-d example (the
    physical result is [0]), in the result type of all."""
    kept = [t for k, t in enumerate(tensors) if k not in skipped]
    if kept:
        result = cat(kept, dim)
        dt = _dtypes.result_type(*tensors)
        return result if result.dtype is dt else result.to(dt)
    return cat([t.reshape(1) for t in tensors])[0]


def _cat_dim(tensors, dim) -> tuple:
    """cat's first checks: (the first tensor not skipped, dim wrapped against it), or (None, None) if all are."""
    try:
        for k, t in enumerate(tensors):
            if t._data.ndim == 0:
                raise RuntimeError(f"zero-dimensional tensor (at position {k}) cannot be concatenated")
        # Legacy rule kept by PyTorch: 1-D empty tensors are skipped.
        for t in tensors:
            if not (t.dim() == 1 and t._data.shape[0] == 0):
                return t, _wrap_dim(dim, t.dim())
    except (IndexError, RuntimeError):   # (the kernel's checks, after VariableType collected the edges)
        _dispatch.check_rebased_inputs(*tensors)
        raise
    return None, None


def _checked_cat_out(tensors, out, compute, dtype_first=False):
    """cat / stack with out=: PyTorch's TypeError when the inputs' dtype cannot be cast down into out's (cat:
    before its shape checks; stack: after them), and ``compute()``."""
    result = None if dtype_first else compute()
    if _dtypes.result_type(*tensors)._kind > out.dtype._kind:
        raise TypeError(f"torch.cat(): input types can't be cast to the desired output type {_legacy(out.dtype)}")
    if not dtype_first:
        return result
    result = compute()
    if builtins.any(t is out for t in tensors):
        # cat's assert_no_overlap (after its shape checks): out= itself among the inputs is a full overlap
        # (_into_out lets it through, as elementwise ops allow x += x)
        raise _dispatch.overlap_error(*tensors)
    return result


def stack(tensors, dim=0, *, out=None):
    """Join equally shaped tensors along a new dimension."""
    tensors = _tensor_list(tensors, "stack")
    if _AUTOCAST[0] and out is None:
        return _autocast("stack", stack, tensors, dim)
    if out is not None:
        return _into_out("stack", out, tensors, lambda: _checked_cat_out(tensors, out, lambda: stack(tensors, dim)))
    _check_int("stack", "dim", dim, 2)   # (torch.stack(ts, True))
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    try:
        _wrap_dim(dim, tensors[0].dim() + 1)
        for k, t in enumerate(tensors[1:], 1):
            if t._data.shape != tensors[0]._data.shape:
                # (under vmap with a batched tensor PyTorch's batching rule stacks the physical tensors: their sizes
                # start with the batch sizes, outermost first)
                mask = _vmap_batched.levels_of(*tensors) if _vmap_batched.DEPTH[0] else 0
                batch = [n for i, n in enumerate(_vmap_batched.SIZES) if mask >> i & 1]
                raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                                   f"{batch + list(tensors[0]._data.shape)} at entry 0 and "
                                   f"{batch + list(t._data.shape)} at entry {k}")
    except (IndexError, RuntimeError):   # (the kernel's checks, after VariableType collected the edges)
        _dispatch.check_rebased_inputs(*tensors)
        raise
    dt = _dtypes.result_type(*tensors) if len(tensors) > 1 else tensors[0].dtype
    return D.stack(*tensors, dtype=dt, dim=dim)


def repeat(input, *repeats):
    """Tile the tensor ``repeats[i]`` times along each dim (a copy)."""
    if not repeats:
        raise TypeError('repeat() missing 1 required positional arguments: "repeats"')
    repeats = _size_args(repeats, "repeat", "repeats")
    try:
        if len(repeats) < input.dim():
            raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of "
                               "tensor")
        shape = (1,) * (len(repeats) - input.dim()) + input._data.shape
        if builtins.any(r < 0 for r in repeats):
            target = [a * b for a, b in zip(repeats, shape)]
            bad = [x for x in target if x < 0]
            if bad:
                raise RuntimeError(f"Trying to create tensor with negative dimension {bad[0]}: {target}")
            repeats = tuple(builtins.max(r, 0) for r in repeats)  # (a negative count of an empty dim: still empty)
        return D.repeat(input, repeats=repeats)
    except (RuntimeError, OverflowError):   # (NumPy's OverflowError: a count beyond a C long)
        _arg_errors.check_int64("repeat", "repeats", repeats)   # (beyond int64: PyTorch's parser refused it first)
        _dispatch.check_rebased_inputs(input)   # (then the kernel's checks, after VariableType collected the edge)
        raise


def flip(input, *args, **kwargs):
    """flip(input, dims): reverse the order of elements along ``dims`` (a copy)."""
    dims, at = _arg_errors.bind("flip", (input, *args), kwargs, _FLIP_PARAMS)["dims"]
    return _flip(input, _arg_errors.int_list("flip", "dims", dims, at))


def _flip_method(self, *dims, **kwargs):
    """``x.flip(dims)``, or ``x.flip(0, 1)``: PyTorch's method also takes the dims one by one."""
    if len(dims) > 1 or (len(dims) == 1 and _arg_errors.list_int(dims[0])):
        dims = (dims,)
    dims, at = _arg_errors.bind("flip", (self, *dims), kwargs, _FLIP_PARAMS)["dims"]
    return _flip(self, _arg_errors.int_list("flip", "dims", dims, at and at - 1))  # (self not counted)


_flip_method.__name__ = "flip"
_FLIP_PARAMS = {"input": _arg_errors.REQUIRED, "dims": _arg_errors.REQUIRED}


def _flip(input, dims):
    _vmap_batched.check_scalar_dims(input, dims)
    wrapped = [_wrap_dim_of(d, input) for d in dims]
    for d in wrapped:
        if wrapped.count(d) > 1:  # (inside vmap PyTorch names the physical dim)
            _dispatch.check_rebased_inputs(input)
            raise RuntimeError(f"dim {d + _vmap_batched.batch_dims(input)} appears multiple times in the list of dims")
    refuse_flip_kernel(input, wrapped)
    return D.flip(input, dims=dims)


def refuse_flip_kernel(input, dims) -> None:
    """PyTorch's flip_cpu errors (wrapped ``dims``). Its CPU kernel moves whole rows for flipped outer dims of a
    barebones unsigned tensor, but reversing the innermost dim in memory takes its typed loop, which refuses them;
    it has no complex32 version at all."""
    a = input._data
    if a.size > 1 and (a.dtype.kind == "u" or _dtypes.is_complex32(a.dtype)):
        moving = [d for d in builtins.range(a.ndim) if a.shape[d] > 1]
        if input.dtype is _dtypes.complex32 and builtins.any(d in moving for d in dims):
            _dtypes.warn_complex32()   # (the output allocated before the kernel refuses the dtype)
            raise NotImplementedError("\"flip_cpu\" not implemented for 'ComplexHalf'")
        if _dtypes.is_barebones(a.dtype) and builtins.min(moving, key=lambda d: builtins.abs(a.strides[d])) in dims:
            _dtypes.refuse_unsigned("flip_cpu", input.dtype)


def _check_index(index, name, dtype_msg):
    if not isinstance(index, Tensor):
        raise TypeError(f"{name}(): argument 'index' must be Tensor, not {type(index).__name__}")
    if index.dtype not in (_dtypes.int64, _dtypes.int32):
        if name != "index_select" and not index._data.size:  # (gather/scatter check no empty index)
            return Tensor._make(index._data.astype(np.int64))
        raise RuntimeError(dtype_msg)
    return index


def _check_bounds(index: np.ndarray, size: int, dim: int, *tensors) -> None:
    """gather/scatter's index check: 0 <= index < size (PyTorch takes no negative index there); ``tensors``: the
    op's, whose batch dims inside vmap count in the dim the kernel names."""
    bad = index[(index >= size) | (index < 0)]
    if bad.size:
        _dispatch.check_rebased_inputs(*tensors)   # (the kernel's check, after VariableType collected the edges)
        dim = _vmap_batched.physical_dim(dim, *tensors)
        raise RuntimeError(f"index {int(bad.flat[0])} is out of bounds for dimension {dim} with size {size}")


def _check_scatter_shapes(input, index, src, dim) -> None:
    """PyTorch's scatter_shape_check: index no larger than self (but along dim), nor than a tensor src."""
    if not index.numel():
        return
    if builtins.max(index.dim(), 1) != builtins.max(input.dim(), 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    if isinstance(src, Tensor) and builtins.max(index.dim(), 1) != builtins.max(src.dim(), 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    shapes = (index._data.shape, input._data.shape, src._data.shape if isinstance(src, Tensor) else None)
    sizes = [(shape or (1,)) if shape is not None else None for shape in shapes]   # (0-d: size 1, ensure_nonempty)
    for i in builtins.range(index.dim()):
        if (i != dim and sizes[0][i] > sizes[1][i]) or (sizes[2] is not None and sizes[0][i] > sizes[2][i]):
            where = f"{list(shapes[0])} to be no larger than self {list(shapes[1])} apart from dimension {dim}"
            if shapes[2] is not None:
                where += f" and to be no larger size than src {list(shapes[2])}"
            raise RuntimeError(f"Expected index {where}")


def _index_bounds(input, index, d) -> None:
    """gather/scatter's index check along dim ``d`` (a 0-dim tensor has one element along dim 0)."""
    _check_bounds(index._data, input._data.shape[d] if input.dim() else 1, d, input, index)


def _check_gather_shapes(input, index, dim, name):
    if not index.numel():   # (PyTorch checks the shapes of a non-empty index only)
        return
    if index.dim() != input.dim() and not (index.dim() <= 1 and input.dim() <= 1):
        _dispatch.check_rebased_inputs(input, index)   # (the kernel's check, after VariableType collected the edges)
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    for i, (a, b) in enumerate(zip(index._data.shape, input._data.shape)):
        if i != dim and a > b:
            raise RuntimeError(f"Size does not match at dimension {i} expected index {list(index._data.shape)} to "
                               f"be no larger than self {list(input._data.shape)} apart from dimension {dim}")


def gather(input, dim, index, *, sparse_grad=False):
    """out[i][j] = input[i][index[i][j]] (for dim=1)."""
    d = _wrap_dim(dim, input.dim())  # (the dim's error first)
    index = _check_index(index, "gather", "gather(): Expected dtype int32/int64 for index")
    _check_gather_shapes(input, index, d, "gather")
    _index_bounds(input, index, d)
    return D.gather(input, index, dim=dim, sparse_grad=sparse_grad)


def scatter(input, dim, index, src=None, *, value=None, reduce=None):
    """A copy of input with out[i][index[i][j]] = src[i][j] (for dim=1); ``src`` may be a number."""
    return _scatter(input, dim, index, src, value, reduce)


def scatter_(input, dim, index, src=None, *, value=None, reduce=None):
    """In-place scatter."""
    if reduce is not None:   # (the legacy reductions have no batching rule: before the kernel's checks and warning)
        _vmap_batched.fallback("scatter_.reduce" if isinstance(src, Tensor) else "scatter_.value_reduce", input,
                               index, src, value, out=input)
    _vmap_batched.check_inplace("scatter_", input, (index, src, value))  # (vmap's refusal before the dtype check)
    return _scatter(input, dim, index, src, value, reduce, out=input)


def _scatter(input, dim, index, src, value, reduce, out=None):
    if reduce is not None:
        return _scatter_legacy_reduce(input, dim, index, src if src is not None else value, reduce, out)
    if out is not None and input._requires_grad:
        _dispatch._check_inplace(input, False)  # (scatter_: a leaf's refusal first)
    if src is None:
        src = value
    try:
        d = _wrap_dim(dim, input.dim())  # (the dim's error, then the index's dtype)
        index = _check_index(index, "scatter", "scatter(): Expected dtype int32/int64 for index")
        if isinstance(src, Tensor) and src.dtype is not input.dtype:  # (before the shapes and the bounds)
            raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
        _check_scatter_shapes(input, index, src, d)
        if not isinstance(src, Tensor) and index.numel():
            # PyTorch's kernel converts the value at its first write: after the first index's bounds, before the
            # others'
            _check_bounds(index._data.reshape(-1)[:1], input._data.shape[d] if input.dim() else 1, d, input, index)
            src = _fill_number(src, input.dtype)
        elif not isinstance(src, Tensor):  # (an empty index writes nothing: the value is never converted)
            src = 0
        _index_bounds(input, index, d)
    except (IndexError, RuntimeError):   # (the kernel's checks, after VariableType collected the edges)
        _dispatch.check_rebased_inputs(input, src)
        raise
    if isinstance(src, Tensor):
        if src.dtype is not input.dtype:
            raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
        return D.scatter(input, index, src, dim=dim, out=out)
    return D.scatter_value(input, index, dim=dim, value=src, out=out)


def _scatter_legacy_reduce(input, dim, index, src, reduce, out):
    """scatter(dim, index, src, reduce='add' | 'multiply'): scatter_reduce's 'sum' / 'prod' into input's own
    values (include_self); a number src is written at every index. PyTorch records it without a derivative."""
    d = _wrap_dim(dim, input.dim())
    index = _check_index(index, "scatter", "scatter(): Expected dtype int32/int64 for index")
    if isinstance(src, Tensor):
        if src.dtype is not input.dtype:
            raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
        if out is not None:   # (torch.func refuses writing a captured tensor before the kernel warns)
            _dispatch.check_captured_write(out, "aten::scatter_.reduce")
        warn_once("scatter reduce with tensor src",   # (PyTorch's TORCH_WARN_ONCE)
                  "The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in a "
                  "future PyTorch release. Use torch.scatter_reduce instead for more reduction options. (Triggered "
                  "internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:225.)")
    if reduce not in ("add", "multiply"):
        raise RuntimeError("reduce argument must be either add or multiply.")
    _check_scatter_shapes(input, index, src, d)
    _index_bounds(input, index, d)
    values = src._data if isinstance(src, Tensor) else np.full(index._data.shape, _fill_number(src, input.dtype),
                                                                input._data.dtype)
    result = Tensor._make(D._scatter_reduce(input._data, index._data, values, d,
                                            "sum" if reduce == "add" else "prod", True))
    name = ("scatter_" if out is not None else "scatter") + ("_reduce" if isinstance(src, Tensor) else "_value_reduce")
    others = (src,) if isinstance(src, Tensor) else ()
    return D.NOT_IMPLEMENTED[name].call((input, *others), None, out, {"_result": result._data})


def scatter_add(input, dim, index, src):
    """A copy of input with src[i][j] added at [i][index[i][j]] (for dim=1); repeats accumulate."""
    return _scatter_add(input, dim, index, src)


def scatter_add_(input, dim, index, src):
    """In-place scatter_add."""
    _vmap_batched.check_inplace("scatter_add_", input, (index, src))  # (vmap's refusal before the dtype check)
    _dispatch._check_inplace(input, _STATE.enabled and _any_requires_grad(src))  # (autograd's refusal first)
    _refuse_source_overlap(input, src)
    return _scatter_add(input, dim, index, src, out=input)


def _scatter_add(input, dim, index, src, out=None):
    try:
        d = _wrap_dim(dim, input.dim())  # (the dim's error, then the index's dtype)
        index = _check_index(index, "scatter_add", "scatter(): Expected dtype int32/int64 for index")
        if src.dtype is not input.dtype:   # (before the shapes and the bounds)
            raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
        _check_scatter_shapes(input, index, src, d)
        _index_bounds(input, index, d)
    except (IndexError, RuntimeError):   # (the kernel's checks, after VariableType collected the edges)
        _dispatch.check_rebased_inputs(input, src)
        raise
    return D.scatter_add(input, index, src, dim=dim, out=out)


def index_select_checks(input, dim, index) -> int:
    """index_select's first checks, in PyTorch's order (before out='s dtype): the dim (wrapped, returned), the
    index's rank, its length for a 0-dim input, its dtype."""
    d = _wrap_dim(dim, input.dim())  # (the dim's error first)
    if isinstance(index, Tensor) and index.dim() > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if input.dim() == 0 and isinstance(index, Tensor) and index.numel() != 1:  # (before the index's dtype)
        raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got {index.numel()} value(s)")
    _check_index(index, "index_select", "index_select(): Expected dtype int32 or int64 for index")
    return d


def index_select(input, dim, index):
    """The entries at ``index`` (a 1-D integer tensor) along ``dim`` (a copy)."""
    try:
        d = index_select_checks(input, dim, index)
        if input.dim() == 0:
            if index.numel() != 1:
                raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got {index.numel()} "
                                   "value(s)")
            if index._data.reshape(-1)[0] != 0:  # (a scalar's one entry: not -1 either)
                if _vmap_batched.DEPTH[0] and _vmap_batched.levels_of(input, index):   # (see below)
                    raise RuntimeError(f"index {int(index._data.reshape(-1)[0])} is out of bounds for dimension "
                                       f"{_vmap_batched.physical_dim(0, input, index)} with size 1")
                raise IndexError("index out of range in self")
        else:
            size = input._data.shape[d]
            if size == 0 and index.numel() and input.dim() > 1:  # (a 1-D input: the bounds' message below)
                raise RuntimeError("index_select(): self indexing axis dim should be positive")
            bad = index._data[(index._data >= size) | (index._data < 0)]  # (no negative index either)
            if bad.size:
                if _vmap_batched.DEPTH[0] and _vmap_batched.levels_of(input, index):
                    # (PyTorch's batch rule gathers along the physical dim)
                    raise RuntimeError(f"index {int(bad.flat[0])} is out of bounds for dimension "
                                       f"{_vmap_batched.physical_dim(d, input, index)} with size {size}")
                if d != 1:  # (PyTorch's kernel along dim 1 has its own message)
                    raise IndexError("index out of range in self")
                raise RuntimeError(f"INDICES element is out of DATA bounds, id={int(bad.flat[0])} axis_dim={size}")
    except (IndexError, RuntimeError):   # (the kernel's checks, after VariableType collected the edges)
        _dispatch.check_rebased_inputs(input)
        raise
    return D.index_select(input, index, dim=dim)


def index_add(input, dim, index, source, *, alpha=1):
    """A copy of input with source's slices added at ``index`` along ``dim``."""
    alpha = _index_add_checks(input, dim, index, source, alpha)
    return D.index_add(input, index, source, dim=dim, alpha=alpha, source_dim=source.dim())


@_dispatch.kernel_checks
def _index_add_checks(input, dim, index, source, alpha):
    """PyTorch's index_func_meta_impl, in its order: the dim, index's rank and dtype, source's dtype, dim, length and
    shape; then alpha's conversion and the index's range (returned: an integer tensor's alpha truncated)."""
    d = _wrap_dim(dim, input.dim())
    if not (isinstance(index, Tensor) and isinstance(source, Tensor) and isinstance(input, Tensor)):
        return alpha
    if index.dim() > 1:
        raise IndexError(f"index_add_(): Index is supposed to be a vector, but got dim: {index.dim()} with type: "
                         f"{_legacy(index.dtype)} and size: {list(index.shape)}")
    if index.dtype not in (_dtypes.int64, _dtypes.int32):
        raise RuntimeError(f"index_add_(): Expected dtype int32/int64 for index but got: {_legacy(index.dtype)}")
    _same_index_add_dtype(input, source)
    if d != 0 and d >= source.dim():
        raise RuntimeError(f"index_add_(): Indexing dim {d} is out of bounds of the source tensor with dim "
                           f"{source.dim()}")
    length = source._data.shape[d] if source.dim() else 1
    if index.numel() != length:
        if not source.dim():  # (PyTorch's message reads source.size(dim), which a 0-dim source refuses)
            raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
        raise RuntimeError(f"index_add_(): Number of indices ({index.numel()}) should be equal to source.size(dim): "
                           f"({length}), for dim: {d}")
    kept = [list(t._data.shape) for t in (input, source)]
    if source.dim() and input.dim():
        del kept[0][d], kept[1][d]
    if kept[0] != kept[1]:
        raise RuntimeError("source tensor shape must match self tensor shape, excluding the specified dimension. Got "
                           f"self.shape = {list(input.shape)} source.shape = {list(source.shape)}")
    multi = input.dim() > 1
    if not multi:   # (the kernel for 0 or 1 dims converts alpha before its loop checks the indices)
        _check_scalar_fits(alpha, input.dtype)
    if index._data.size and not (multi and input._data.size == 0):  # (PyTorch: no check, nothing added)
        size = input._data.shape[d] if input.dim() else 1
        bad = index._data[(index._data < 0) | (index._data >= size)]
        # PyTorch's kernel for more dims hands the first or last dim, alpha 1 and a long index to scatter_add_,
        # whose message names the value; its loop otherwise says only "out of range".
        # (a bool alpha is no 1 to Scalar::equal)
        if bad.size and multi and d in (0, input.dim() - 1) and alpha == 1 and not isinstance(alpha, (bool, np.bool_)) \
                and index.dtype is _dtypes.int64:
            raise RuntimeError(f"index {int(bad.flat[0])} is out of bounds for dimension "
                               f"{_vmap_batched.physical_dim(d, input, index, source)} with size {size}")
        if multi:   # (its loop checks each index, then adds that slice with alpha, converted then)
            if not 0 <= index._data.flat[0] < size:
                raise IndexError("index out of range in self")
            _check_scalar_fits(alpha, input.dtype)
        if bad.size:
            raise IndexError("index out of range in self")
    if input.dtype._kind == 1 and isinstance(alpha, float):  # (C++'s conversion: toward zero)
        alpha = int(alpha)
    if isinstance(alpha, int) and alpha < 0 and input._data.dtype.kind == "u":   # (c10 lets it wrap: -2 is 254)
        alpha %= 1 << (8 * input._data.dtype.itemsize)
    return alpha


def _same_index_add_dtype(input, source) -> None:
    """index_add refuses a source of another dtype (no promotion)."""
    if isinstance(source, Tensor) and isinstance(input, Tensor) and source.dtype is not input.dtype:
        raise RuntimeError(f"index_add_(): self ({_legacy(input.dtype)}) and source ({_legacy(source.dtype)}) must "
                           "have the same scalar type")


def _any_requires_grad(*operands) -> bool:
    """Whether an in-place op's other operands (the tensors among them) require grad: in grad mode PyTorch's
    VariableType then records the op, so it refuses a no_grad view written in place before its kernel's checks."""
    return builtins.any(isinstance(t, Tensor) and t._requires_grad for t in operands)


def _refuse_source_overlap(input, source) -> None:
    """PyTorch's assert_no_overlap for index_add_ / index_copy_ / scatter_(_add_): the source may not share memory
    with the tensor written (unless either is not non-overlapping and dense: "too hard" to tell, allowed)."""
    a, b = input._data, getattr(source, "_data", None)
    if (isinstance(b, np.ndarray) and a.size and b.size and np.may_share_memory(a, b) and _dispatch._dense(a)
            and _dispatch._dense(b) and np.shares_memory(a, b)):
        raise _dispatch.overlap_error(source)


def index_add_(input, dim, index, source, *, alpha=1):
    """In-place index_add."""
    _vmap_batched.check_inplace("index_add", input, (index, source))  # (vmap's refusal before the dtype check)
    _dispatch._check_inplace(input, _STATE.enabled and _any_requires_grad(source))  # (autograd's refusal first)
    alpha = _index_add_checks(input, dim, index, source, alpha)
    _refuse_source_overlap(input, source)
    return D.index_add(input, index, source, dim=dim, alpha=alpha, source_dim=source.dim(), out=input)


def masked_fill(input, mask=_MISSING, value=_MISSING, *_extra):
    """Where ``mask`` is True, ``value``; elsewhere input (MaskedFillBackward0/1 for a number/tensor)."""
    if _extra:   # (x.masked_fill(a, b): PyTorch's count, without self)
        raise _arg_errors.too_many("masked_fill", input, (mask, value, *_extra), {})
    try:  # (PyTorch checks the shapes first, naming the mask's "tensor a")
        np.broadcast_shapes(input._data.shape, mask._data.shape)
    except ValueError:
        _raise_broadcast_error(mask._data.shape, input._data.shape, tensors=(input, mask))
    except AttributeError:  # (a mask that is no tensor: PyTorch's parser refuses the call)
        _arg_errors.recheck("masked_fill", *_given(("mask", "value"), (mask, value)), method=True)
        raise
    try:
        if isinstance(value, Tensor) and value.dim() != 0:  # (the value's dims, then the mask's dtype)
            raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value.dim()} dimension(s).")
        if mask.dtype is not _dtypes.bool_:
            raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype "
                               f"{_meta_name(mask.dtype)}")
    except RuntimeError:   # (the kernel's checks, after VariableType collected the edges)
        _dispatch.check_rebased_inputs(input, value)
        raise
    if isinstance(value, Tensor):
        _check_scalar_fits(value._data.item(), input.dtype)  # (PyTorch reads the value as a number first)
        if value.requires_grad and not (input.dtype.is_floating_point or input.dtype.is_complex) and _STATE.enabled:
            raise RuntimeError(f"Autograd not support dtype: {_legacy(input.dtype)}")
        return D.masked_fill_tensor(input, mask, value)
    try:
        if value is None:
            raise TypeError
        return D.masked_fill(input, mask, value=_fill_number(value, input.dtype))
    except (TypeError, ValueError):  # (a value that is no number: PyTorch's parser refuses the call)
        _arg_errors.recheck("masked_fill", *_given(("mask", "value"), (mask, value)), method=True)
        raise


_F32_MAX, _INF = float(np.finfo(np.float32).max), float("inf")


def _fill_number(value, dt):
    """A Python number as PyTorch's fill converts it to ``dt``: checked for overflow (and an imaginary part),
    then a C cast (-1 into uint8 is 255)."""
    if type(value) is float and (dt is _dtypes.float64 or (dt is _dtypes.float32 and (
            -_F32_MAX <= value <= _F32_MAX or value != value or value in (_INF, -_INF)))):
        return value  # (fast path: a mask's -inf into float32 fits)
    if not isinstance(value, (int, float, complex)) or isinstance(value, bool):
        return value
    if dt is _dtypes.bool_:
        return bool(value)  # (any non-zero number is True, a complex one too)
    _check_scalar_fits(value, dt)
    if isinstance(value, complex) and not dt.is_complex:
        value = value.real
    if dt._kind == 1:  # an integer dtype: a float truncated, a negative int wrapped into uint8
        value = int(value)
        if not _dtypes.iinfo(dt).min <= value <= _dtypes.iinfo(dt).max:
            value = np.asarray(value).astype(dt.np).item()
    return value


def masked_fill_(input, mask, value):
    """In-place masked_fill."""
    if not isinstance(value, (float, Tensor, int)) and not _arg_errors._is_number(value):
        error = _arg_errors.method_error("masked_fill_", (mask, value), {})   # (the parser's refusal first)
        if error is not None:
            raise error
    if input._requires_grad:
        _dispatch._check_inplace(input, False)  # (a leaf's refusal first)
    if isinstance(value, Tensor) and value.dim() != 0:  # (then the value's dims, the mask's dtype, the shapes)
        raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                           f"{value.dim()} dimension(s).")
    if mask.dtype is not _dtypes.bool_:
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{_meta_name(mask.dtype)}")
    if mask._data.shape != input._data.shape:
        try:
            shape = np.broadcast_shapes(input._data.shape, mask._data.shape)
        except ValueError:
            shape = None
        if shape != input._data.shape:
            # (PyTorch's kernel warns of an expanded input before its TensorIterator checks the shapes; a write
            # that goes ahead warns in _dispatch)
            if _dispatch.is_expanded(input._data):
                _dispatch.warn_expanded_write("MaskedFillBackward0")
            if shape is None:
                _raise_broadcast_error(input._data.shape, mask._data.shape)
            raise RuntimeError(f"output with shape {list(input._data.shape)} doesn't match the broadcast shape "
                               f"{list(shape)}")
    if isinstance(value, Tensor):
        _check_scalar_fits(value._data.item(), input.dtype)  # (PyTorch reads the value as a number first)
        return D.masked_fill_tensor(input, mask, value, out=input)
    return D.masked_fill(input, mask, out=input, value=_fill_number(value, input.dtype))


# =============================================================================================
# Linear algebra
# =============================================================================================

# How c10's TypeMeta spells dtypes in some PyTorch messages ("double != float").
_META_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
               "complex64": "c10::complex<float>", "complex128": "c10::complex<double>", "int64": "long int",
               "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char", "bool": "bool"}


def _meta_name(d) -> str:
    return _META_NAMES[d.name]


def _check_mm_dtypes(a, b, name="mm"):
    if a.dtype is not b.dtype:
        if name == "mv":  # PyTorch's addmv lists (result, mat, vec); its result takes vec's dtype
            raise RuntimeError(f"addmv input tensors must have the same dtype, but got {_legacy(b.dtype)}, "
                               f"{_legacy(a.dtype)}, and {_legacy(b.dtype)}")
        if name == "mm":
            raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {_meta_name(a.dtype)} != "
                               f"{_meta_name(b.dtype)}")
        if name == "bmm" and a.dtype is _dtypes.bool_:   # (its kernel dispatches on batch1's dtype first)
            raise NotImplementedError("\"bmm\" not implemented for 'Bool'")
        raise RuntimeError(f"expected scalar type {_legacy(a.dtype)} but found {_legacy(b.dtype)}")


def _check_sparse_mm(input, mat2) -> None:
    """mm's errors with a sparse operand are its sparse kernels' (minigrad/sparse.py), not the dense ones."""
    if input.is_sparse or mat2.is_sparse:
        from .sparse import check_mm
        check_mm(input, mat2)


def mm(input, mat2):
    """Matrix product of two 2-D tensors."""
    if _AUTOCAST[0]:  # (an autocast region: see amp/autocast_mode.py)
        return _autocast("mm", mm, input, mat2)
    try:
        if input.dim() != 2:
            _check_sparse_mm(input, mat2)
            raise RuntimeError("self must be a matrix")
        if mat2.dim() != 2:
            _check_sparse_mm(input, mat2)
            raise RuntimeError("mat2 must be a matrix")
        if input._data.shape[1] != mat2._data.shape[0]:
            _check_sparse_mm(input, mat2)
            if _vmap_batched.DEPTH[0]:
                _vmap_batched.check_mm_sizes(input, mat2)
            (a, b), (c, d) = input._data.shape, mat2._data.shape
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a}x{b} and {c}x{d})")
        if type(input) is not Tensor and type(mat2) is not Tensor and input.is_sparse and mat2.is_sparse:
            from .sparse import sparse_sparse_mm  # (two sparse matrices: a sparse product, as PyTorch's)
            return sparse_sparse_mm(input, mat2, "MmBackward0")
        if input._data.dtype != mat2._data.dtype:  # (NumPy's test first: the same answer, and cheaper)
            if _vmap_batched.DEPTH[0]:
                _vmap_batched.check_mm_dtypes(input, mat2)
            _check_mm_dtypes(input, mat2)
    except RuntimeError:   # (the kernel's checks, after VariableType collected the edges)
        _dispatch.check_rebased_inputs(input, mat2)
        raise
    return D.mm.call((input, mat2), None, None, {})  # D.mm(input, mat2), without packing the arguments


def mv(input, vec):
    """Matrix-vector product."""
    try:
        if input.dim() == 0:  # (PyTorch reads input's size 0 first)
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        if input.dim() != 2 or vec.dim() != 1:
            raise RuntimeError(f"vector + matrix @ vector expected, got 1, {input.dim()}, {vec.dim()}")
        if input._data.shape[1] != vec._data.shape[0]:
            if _vmap_batched.DEPTH[0]:
                _vmap_batched.check_mv_sizes(input, vec)
            raise RuntimeError(f"size mismatch, got input ({input._data.shape[0]}), mat ({input._data.shape[0]}x"
                               f"{input._data.shape[1]}), vec ({vec._data.shape[0]})")
        if input._data.dtype != vec._data.dtype and _vmap_batched.DEPTH[0]:
            _vmap_batched.check_mv_dtypes(input, vec)
        _check_mm_dtypes(input, vec, "mv")
    except (IndexError, RuntimeError):   # (the kernel's checks, after VariableType collected the edges)
        _dispatch.check_rebased_inputs(input, vec)
        raise
    return D.mv(input, vec)


def dot(input, tensor):
    """Inner product of two 1-D tensors."""
    if not isinstance(tensor, Tensor):  # (x.dot(1): the method's error; torch.dot's wrapper words the function's)
        raise _not_a_tensor("dot", tensor, "tensor")
    if input.dim() != 1 or tensor.dim() != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.dim()}D and {tensor.dim()}D tensors")
    if input.dtype is not tensor.dtype:  # (before the sizes, as in PyTorch)
        if _vmap_batched.DEPTH[0]:
            _vmap_batched.check_dot_dtypes(input, tensor)
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {_legacy(input.dtype)} "
                           f"and {_legacy(tensor.dtype)}")
    n, m = input._data.shape[0], tensor._data.shape[0]
    if n != m and _vmap_batched.DEPTH[0]:
        _vmap_batched.check_dot_sizes(input, tensor)
    if n != m:
        _dispatch.check_rebased_inputs(input, tensor)   # (dot's size check is its kernel's, after the edges')
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to have the same number "
                           f"of elements, but got {n} and {m} elements respectively")
    out = D.dot(input, tensor)
    if _vmap_batched.DEPTH[0]:
        _vmap_batched.dot_value_as_batched_matmul(input, tensor, out)
    if _conj.MIRRORS and input.is_conj() and tensor.is_conj():
        out = _conj.with_conj_bit(out)   # (PyTorch's kernel: dot(x.conj(), y.conj()) is dot(x, y).conj())
    return out


def bmm(input, mat2):
    """Batched matrix product of two 3-D tensors."""
    if _AUTOCAST[0]:
        return _autocast("bmm", bmm, input, mat2)
    if _vmap_batched.DEPTH[0] and (input.dim() != 3 or mat2.dim() != 3 or input.shape[::2] != mat2.shape[:2]
                                   or input.dtype is not mat2.dtype) and _vmap_batched.bmm_as_matmul(input, mat2):
        return matmul(input, mat2)   # (PyTorch's batch rule: matmul of the physical tensors)
    try:
        if input.dim() != 3:
            raise RuntimeError("batch1 must be a 3D tensor")
        if mat2.dim() != 3:
            raise RuntimeError("batch2 must be a 3D tensor")
        (b, _, k), (b2, k2, _) = input._data.shape, mat2._data.shape
        if (b2, k2) != (b, k):
            raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{b}, {k}] but "
                               f"got: [{b2}, {k2}].")
        if input._data.size and mat2._data.size and input._data.shape[1] * mat2._data.shape[2]:
            _check_mm_dtypes(input, mat2, "bmm")   # (an empty product skips it: zeros in mat2's dtype, as PyTorch)
    except RuntimeError:   # (the kernel's checks, after VariableType collected the edges)
        _dispatch.check_rebased_inputs(input, mat2)
        raise
    return D.bmm(input, mat2)


def outer(input, vec2):
    """Outer product of two vectors: input[i] * vec2[j] (PyTorch computes it as a broadcast multiply)."""
    if input.dim() != 1 or vec2.dim() != 1:
        raise RuntimeError(f"outer: Expected 1-D argument self, but got {input.dim()}-D" if input.dim() != 1
                           else f"outer: Expected 1-D argument vec2, but got {vec2.dim()}-D")
    return mul(reshape(input, (-1, 1)), vec2)


def ger(input, vec2):
    """outer(input, vec2), by PyTorch's deprecated name (its out= form: _out_args.install)."""
    return outer(input, vec2)


def _should_fold(t1, t2) -> bool:
    """PyTorch's test for computing an N-D @ 1/2-D product as one mm/mv on a folded matrix."""
    larger = t1.dim() >= t2.dim()
    big = t1 if larger else transpose(t2, -1, -2).detach()
    small_dim = t2.dim() if larger else t1.dim()
    if not (big.dim() >= 3 and small_dim <= 2):
        return False
    if (t2 if larger else t1)._requires_grad:
        return True  # fold so that the small operand's gradient is one mm, not a batch summed afterwards
    if t1.dim() == 2:
        return False
    if big.numel() == 0:
        return True
    shape, strides = big._data.shape, big.stride()
    return builtins.all(strides[i] == strides[i + 1] * shape[i + 1] for i in builtins.range(big.dim() - 2))


def _same_dtype_out(result, out):
    """matmul's out= must have the product's dtype (no cast)."""
    if result.dtype is not out.dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {_meta_name(result.dtype)}, but got "
                           f"{_meta_name(out.dtype)} instead")
    return result


def _matmul_out_resized_refusal(input, other, out):
    """matmul(out=) of another dtype on a batched or 1-d · 1-d product: PyTorch resizes out to the result first
    (warning), then its bmm / addmv / dot kernel refuses the dtype, each with its own message."""
    if input.dim() == other.dim() == 1:
        shape = ()   # (dot's: its dtype check comes before the sizes')
    else:
        with grad_mode.no_grad():
            shape = matmul(input.detach(), other.detach())._data.shape
    if out._data.shape != shape:
        if out._data.size:
            _warn_resized(out._data.shape, shape)
        from ._ops_inplace_views import resize_output
        resize_output(out, shape)
    if input.dim() == other.dim() == 1:
        raise RuntimeError(f"result dtype {_legacy(out.dtype)} does not match input dtype {_legacy(input.dtype)}")
    if other.dim() == 1:
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {_legacy(out.dtype)}, "
                           f"{_legacy(input.dtype)}, and {_legacy(other.dtype)}")
    _same_dtype_out(input, out)


def _matmul_mixed_out(input, other, out):
    """matmul(out=) of a batched product of two dtypes: the sizes' errors, then out='s dtype (bmm's: other's; a folded
    mm's: input's; a folded mv: addmv's check of out, input and other), before the kernel's mismatch."""
    with grad_mode.no_grad():
        shape = matmul(zeros(input.shape), zeros(other.shape))._data.shape   # (the sizes only: no dtype error)
    if other.dim() == 1:
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {_legacy(out.dtype)}, "
                           f"{_legacy(input.dtype)}, and {_legacy(other.dtype)}")
    # (bmm's out= is resized after its dtype check; a 1-d input's product, bmm of its unsqueezed form, before)
    if other.dim() >= 3 and (input.dim() == 1 or out.dtype is other.dtype) and out._data.shape != shape:
        if out._data.size:
            _warn_resized(out._data.shape, shape)
        from ._ops_inplace_views import resize_output
        resize_output(out, shape)
    _same_dtype_out(input if other.dim() == 2 else other, out)
    if other.dim() >= 3:   # (bmm's kernel: bool refused, then the operands' mismatch)
        if input.dtype is _dtypes.bool_:
            raise NotImplementedError("\"bmm\" not implemented for 'Bool'")
        raise RuntimeError(f"expected scalar type {_legacy(input.dtype)} but found {_legacy(other.dtype)}")


def matmul(input, other=_MISSING, *_extra, out=_NO_OUT):
    """Matrix product with PyTorch's rules for every combination of ranks (and its grad_fn names)."""
    if _extra:   # (x.matmul(a, b): PyTorch's count, without self)
        raise _arg_errors.too_many("matmul", input, (other, *_extra), {})
    if out is not _NO_OUT:   # (given, even as None: refused if the call is the method's)
        out = _out_given("matmul", input, other, out)
    if _AUTOCAST[0] and out is _NO_OUT:  # (autocast has no out= variants)
        return _autocast("matmul", matmul, input, other)
    if out is not _NO_OUT:
        if isinstance(input, Tensor) and isinstance(other, Tensor) and not (input.dim() and other.dim()):
            matmul(input.detach(), other.detach())  # (its error of ranks before out='s refusal)
        # (autograd's refusal, of an out= that requires grad too, comes before the kernels' checks below)
        grad = isinstance(input, Tensor) and isinstance(other, Tensor) and grad_mode.is_grad_enabled() \
            and (input.requires_grad or other.requires_grad or out.requires_grad)
        if isinstance(input, Tensor) and isinstance(other, Tensor) and input.dim() == 2 and other.dim() == 1 \
                and not grad and not input.dtype is other.dtype is out.dtype and input.shape[1] == other.shape[0] \
                and out._data.shape == input._data.shape[:1]:
            # (mv into an out= of its shape: addmv(out, input, other)'s check of the three dtypes, whichever differs)
            raise RuntimeError(f"addmv input tensors must have the same dtype, but got {_legacy(out.dtype)}, "
                               f"{_legacy(input.dtype)}, and {_legacy(other.dtype)}")
        if isinstance(input, Tensor) and isinstance(other, Tensor) and not grad and input.dtype is not other.dtype \
                and builtins.max(input.dim(), other.dim()) >= 3:
            _matmul_mixed_out(input, other, out)
        # (mm's and dot's out= dtype is checked against input's before the operands' dtypes are compared)
        if isinstance(input, Tensor) and isinstance(other, Tensor) and not grad and (input.dtype is other.dtype or (
                input.dim() <= 2 and other.dim() <= 2 and not (input.dim() == 2 and other.dim() == 1))):
            if out.dtype is not input.dtype and (builtins.max(input.dim(), other.dim()) >= 3
                                                 or input.dim() == other.dim() == 1):
                _matmul_out_resized_refusal(input, other, out)
            elif input.shape[-1] != other.shape[0 if other.dim() == 1 else -2]:
                matmul(input.detach(), other.detach())  # (mv / mm: the sizes' error before out='s dtype)
            _same_dtype_out(input, out)  # (out='s dtype before the kernel's errors)
        return _into_out("matmul", out, (input, other), lambda: _same_dtype_out(matmul(input, other), out))
    if not isinstance(other, Tensor):   # (the method's words, x.matmul(None): the function's reparse counts input)
        if other is _MISSING:   # (x.matmul())
            raise _arg_errors.too_many("matmul", input, (), {})
        error = _arg_errors.must_be("matmul", "other", "Tensor", other, 1)
        error.method_form = True
        raise error
    if not isinstance(input, Tensor):
        raise TypeError(f"matmul(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    a, b = input._data, other._data
    if a.ndim == 2 and b.ndim == 2 and a.shape[1] == b.shape[0] and a.dtype is b.dtype:
        if type(input) is not Tensor and type(other) is not Tensor:
            return mm(input, other)   # (two sparse matrices' product is sparse)
        return D.mm.call((input, other), None, None, {})  # fast path (x.matmul(W)): mm, whose checks pass
    d1, d2 = input.dim(), other.dim()
    if d1 == 0 or d2 == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {d1}D and {d2}D")
    if (d1 >= 3 or d2 >= 3) and (input.is_sparse or other.is_sparse):
        from .sparse import check_matmul  # (PyTorch folds or expands the operands: sparse ones refuse both)
        check_matmul(input, other)
    if d1 == 1 and d2 == 1:
        return dot(input, other)
    if d1 == 2 and d2 == 1:
        return mv(input, other)
    if d1 == 1 and d2 == 2:
        # (k) @ (k, m): a one-row mm whose result is squeezed in place (SqueezeBackward4)
        if input._data.shape[0] != other._data.shape[0]:
            if _vmap_batched.DEPTH[0]:  # (as the one-row mm's, batched: the row's batch makes it a matrix)
                _vmap_batched.check_mm_sizes(unsqueeze(input, 0), other)
            _dispatch.check_rebased_inputs(input, other)   # (PyTorch's unsqueeze and mm refuse one first)
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied (1x{input._data.shape[0]} and "
                               f"{other._data.shape[0]}x{other._data.shape[1]})")
        from ._ops_inplace_views import squeeze_  # (really in place: the result is at version 1, not a view)
        return squeeze_(mm(unsqueeze(input, 0), other), 0)
    if d1 == 2 and d2 == 2:
        return mm(input, other)
    if _should_fold(input, other):
        # Fold the batch dims of the bigger operand into matrix rows: (b, n, k) @ (k, m) -> (b*n, k) @ (k, m).
        swap = d2 > d1
        t1 = transpose(other, -1, -2) if swap else input
        t2 = (t(input) if d1 == 2 else input) if swap else other
        lead = t1._data.shape[:-1]
        folded = reshape(t1, (int(np.prod(lead)), t1._data.shape[-1]))
        if t2.dim() == 2:
            if folded._data.shape[1] != t2._data.shape[0]:
                _dispatch.check_rebased_inputs(t2)   # (mm's kernel checks the sizes, after collecting the edges)
                raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({folded._data.shape[0]}x"
                                   f"{folded._data.shape[1]} and {t2._data.shape[0]}x{t2._data.shape[1]})")
            out = D.unsafe_view(mm(folded, t2), size=lead + (t2._data.shape[1],))
            return contiguous(transpose(out, -1, -2)) if swap else out
        return D.unsafe_view(mv(folded, t2), size=lead)
    return _batched_matmul(input, other)


def _batched_matmul(input, other):
    """Both operands batched (or not foldable): broadcast batch dims, fold them into one, bmm, unfold."""
    d1, d2 = input.dim(), other.dim()
    s1, s2 = input._data.shape, other._data.shape
    n = s1[-2] if d1 > 1 else 1
    k1 = s1[-1]
    k2 = s2[-2] if d2 > 1 else s2[0]
    p = s2[-1] if d2 > 1 else 1
    batch1, batch2 = s1[:builtins.max(d1 - 2, 0)], s2[:builtins.max(d2 - 2, 0)]
    if d1 == 3 and d2 == 3 and batch1[0] != batch2[0]:
        # A batch of one that requires grad is squeezed away (its gradient is then one mm).
        if batch1[0] == 1 and input._requires_grad:
            return matmul(squeeze(input, 0), other)
        if batch2[0] == 1 and other._requires_grad:
            return matmul(input, squeeze(other, 0))
    try:
        batch = tuple(np.broadcast_shapes(batch1, batch2))
    except ValueError:
        _raise_broadcast_error(batch1, batch2)
    bsz = int(np.prod(batch))
    a = reshape(expand(input, batch + (n, k1)), (bsz, n, k1))
    if d2 == 1:
        b = unsqueeze(reshape(expand(other, batch + (k2,)), (bsz, k2)), 2)
    else:
        b = reshape(expand(other, batch + (k2, p)), (bsz, k2, p))
    out_shape = batch + ((n,) if d1 > 1 else ()) + ((p,) if d2 > 1 else ())
    out = bmm(a, b)
    if d2 == 1:
        out = squeeze(out, -1)
    return D.unsafe_view(out, size=out_shape)


def _bad_subscript():
    raise ValueError("einsum(): subscript in subscript list is not within the valid range [0, 52)")


_EINSUM_NO_OPERANDS = ("einsum(): must specify the equation string and at least one operand, or at least one operand "
                       "and its subscripts list")


def einsum(*args):
    """Einstein summation, e.g. einsum("bij,bjk->bik", a, b) (built from permute/reshape/bmm/sum)."""
    from ._einsum import einsum as _einsum
    if len(args) < 2:   # (torch/functional.py's einsum(*args): its own check)
        raise ValueError(_EINSUM_NO_OPERANDS)
    equation, operands = args[0], args[1:]
    if isinstance(equation, Tensor):
        # The sublist format einsum(a, [0, 1], b, [1, 2], [0, 2]): operands interleaved with their subscripts
        # (ints 0-25 are 'A'-'Z', 26-51 'a'-'z', Ellipsis is '...'), an optional output list last; turned into
        # the equation string as PyTorch's torch/functional.py does
        args = (equation, *operands)

        def letters(sub) -> str:
            return "".join("..." if n == Ellipsis else chr(ord("A") + n) if 0 <= n < 26 else
                           chr(ord("a") + n - 26) if 26 <= n < 52 else _bad_subscript() for n in sub)
        equation = ",".join(letters(sub) for sub in args[1::2])
        if len(args) % 2 == 1:
            equation += "->" + letters(args[-1])
            operands = args[:-1:2]
        else:
            operands = args[::2]
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not operands:   # (torch/functional.py's check, after it unpacks a list of operands)
        raise ValueError(_EINSUM_NO_OPERANDS)
    if isinstance(equation, str):   # (the C++ einsum's parser checks its TensorList before the equation is read)
        for k, t in enumerate(operands):
            if not isinstance(t, Tensor):
                raise TypeError(f"expected Tensor as element {k} in argument 1, but got {_arg_errors.type_name(t)}")
    return _einsum(equation, operands)


# =============================================================================================
# Comparison and logic (no gradients)
# =============================================================================================

_NUMBER = (int, float, complex, np.number, np.bool_)  # bool is an int


def _compare(np_fn, a, b, method: bool = False):
    """``np_fn(a, b)`` as a bool tensor (inside vmap: batched as a and b are; see _vmap_batched)."""
    if _vmap_batched.DEPTH[0]:
        if isinstance(a, Tensor) and isinstance(b, Tensor):   # (the broadcast error names the physical dim)
            _check_broadcast(a, b)
        return _vmap_batched.follow(_compare_values(np_fn, a, b, method), a, b)
    if _meta.METAS:   # (a comparison with a meta tensor: a meta tensor)
        return _meta.follow(_compare_values(np_fn, a, b, method), a, b)
    out = _compare_values(np_fn, a, b, method)
    if not out._data.size and out._data.ndim > 1:   # (an empty result's strides: see _strides)
        _strides.empty_elementwise(out, [t for t in (a, b) if isinstance(t, Tensor)], not isinstance(b, Tensor))
    return out


def _compare_values(np_fn, a, b, method: bool = False):
    """``np_fn(a, b)`` as a bool tensor, computed in PyTorch's promoted dtype of a and b.

    Not NumPy's: a float16 tensor and a 0-dim float64 one compare in float16, an int64 tensor and 0.5 in
    float32, an int8 tensor and 1000 in int8 (1000 wraps to -24), as PyTorch's comparison kernels do.
    """
    if isinstance(b, Tensor):
        if isinstance(a, Tensor):
            ad, bd = a._data, b._data
            kind = ad.dtype.kind   # (not complex32's structured dtype, kind "V", nor a uint's ordering)
            if ad.dtype is bd.dtype and kind != "c" and (kind != "u" or np_fn is np.equal) and ad.dtype.names is None:
                return _compared(np_fn, ad, bd)  # fast path (h == b): one dtype, nothing to promote
            if bd.ndim == 0 and ad.ndim and ad.dtype in _REAL_INEXACT_NP and bd.dtype.kind in "buif":
                # (x == 0-dim tensor): a 0-dim real operand leaves a float tensor's dtype alone
                return _compared(np_fn, ad, _dispatch._quiet_astype(bd, ad.dtype))
    elif isinstance(a, Tensor) and (a._data.dtype is _FLOAT32_NP or a._data.dtype is _FLOAT64_NP) and (
            type(b) is float or (type(b) is int and -_MAX_EXACT_INT <= b <= _MAX_EXACT_INT)):
        return _compared(np_fn, a._data, b)  # fast path (h < 0.5, h > 0): NumPy converts the number to h's dtype
    elif not isinstance(b, _NUMBER):
        if np_fn in _COMPARISON_NAMES:
            error = _arg_errors.no_overload(_COMPARISON_NAMES[np_fn], a, b)
            raise _arg_errors.for_method(error, _COMPARISON_NAMES[np_fn]) if method else error
        raise _not_a_tensor(np_fn.__name__, b, "other", 2)
    if not isinstance(a, Tensor) and np_fn in _COMPARISON_NAMES:  # (torch.eq(1.5, x): PyTorch has no such form)
        raise _arg_errors.no_overload(_COMPARISON_NAMES[np_fn], a, b)
    if type(b) is int:
        _check_scalar_int(b)
    dt = _dtypes.result_type(a, b)
    if dt.is_complex and np_fn in _ORDERED_COMPARISONS:
        _check_broadcast(a, b)
        raise NotImplementedError(f'"{_COMPARISON_NAMES[np_fn]}_cpu" not implemented for \'{_legacy(dt)}\'')
    if dt in _dtypes.BAREBONES_UNSIGNED and np_fn in _UNSIGNED_REFUSED:
        _check_broadcast(a, b)
        _dtypes.refuse_unsigned(_UNSIGNED_REFUSED[np_fn], dt)
    npd = dt.np
    token = _dispatch._np_errstate.set(_dispatch._QUIET)  # (casts overflow to inf or wrap, as in PyTorch)
    try:
        ad, bd = _operand_as(a, npd), _operand_as(b, npd)
    finally:
        _dispatch._np_errstate.reset(token)
    return _compared(np_fn, ad, bd)


def _operand_as(x, npd) -> np.ndarray:
    """A tensor's data or a Python number as an array of NumPy dtype ``npd`` (a C cast: wrapping, inf)."""
    data = x._data if isinstance(x, Tensor) else np.asarray(x)
    if npd is _dtypes.COMPLEX32_NP:   # (compared as the complex64 values of the operands rounded to complex32)
        return _dtypes.complex32_values(_strides.astype(data, npd) if not _dtypes.is_complex32(data.dtype) else data)
    return data if data.dtype == npd else data.astype(npd)


def _compared(np_fn, ad, bd) -> Tensor:
    try:  # (laid out as TensorIterator's output: see _strides)
        out = np.asarray(np_fn(ad, bd))
        # (a Python number is a 0-dim operand of TensorIterator's, as in PyTorch's comparison with a Scalar)
        operands = (ad, bd if type(bd) is np.ndarray else _strides.NUMBER_OPERAND)
        return Tensor._make(_strides.iterator_layout(out, operands))
    except ValueError:
        _raise_broadcast_error(np.shape(ad), np.shape(bd))


_COMPARISON_NAMES = {np.equal: "eq", np.not_equal: "ne", np.less: "lt", np.less_equal: "le", np.greater: "gt",
                     np.greater_equal: "ge"}
_ORDERED_COMPARISONS = frozenset({np.less, np.less_equal, np.greater, np.greater_equal})
# The kernels of these that refuse the barebones unsigned dtypes (eq and ne run them)
_UNSIGNED_REFUSED = {np.less: "lt_cpu", np.less_equal: "le_cpu", np.greater: "gt_cpu", np.greater_equal: "ge_cpu",
                     np.logical_and: "logical_and_cpu", np.logical_or: "logical_or_cpu",
                     np.logical_xor: "logical_xor_cpu"}


def eq(input, other):
    """Elementwise ==, as a bool tensor."""
    return _compare(np.equal, input, other)


def ne(input, other):
    """Elementwise !=, as a bool tensor."""
    return _compare(np.not_equal, input, other)


def lt(input, other):
    """Elementwise <, as a bool tensor."""
    return _compare(np.less, input, other)


def le(input, other):
    """Elementwise <=, as a bool tensor."""
    return _compare(np.less_equal, input, other)


def gt(input, other):
    """Elementwise >, as a bool tensor."""
    return _compare(np.greater, input, other)


def ge(input, other):
    """Elementwise >=, as a bool tensor."""
    return _compare(np.greater_equal, input, other)


def logical_and(input, other):
    """Elementwise logical and (non-zero is True), as a bool tensor."""
    _tensors_only("logical_and", input, other)
    return _dispatch.function_result_version("logical_and", (input, other), _compare(np.logical_and, input, other))


def logical_or(input, other):
    """Elementwise logical or (non-zero is True), as a bool tensor."""
    _tensors_only("logical_or", input, other)
    return _dispatch.function_result_version("logical_or", (input, other), _compare(np.logical_or, input, other))


def logical_xor(input, other):
    """Elementwise logical xor (non-zero is True), as a bool tensor."""
    _tensors_only("logical_xor", input, other)
    return _dispatch.function_result_version("logical_xor", (input, other), _compare(np.logical_xor, input, other))


def logical_not(input):
    """Elementwise logical not (zero is True), as a bool tensor."""
    _dtypes.refuse_unsigned("logical_not_cpu", input.dtype)
    result = np.asarray(np.logical_not(input._data))   # (of a 0-d array NumPy returns a scalar: kept an array)
    return _dispatch.function_result_version("logical_not", (input,), Tensor._make(result))


def _all_any(np_fn, input, dim, keepdim):
    _check_bool(np_fn.__name__, "keepdim", keepdim, 3)
    axis = None if dim is None else _raw_dims(dim, input.dim())
    axis = None if input.dim() == 0 else axis  # 0-dim: dim 0 is all
    # dim=[] reduces nothing here (unlike sum's): each element tested on its own, as PyTorch does
    out = _strides.contiguous(np.asarray(np_fn(input._data, axis=axis, keepdims=keepdim)))  # (C order, as PyTorch's)
    # uint8 in, uint8 out (PyTorch's legacy rule); every other dtype gives bool
    out = Tensor._make(out.astype(np.uint8) if input.dtype is _dtypes.uint8 else out)
    return _vmap_batched.follow(out, input) if _vmap_batched.DEPTH[0] else out  # (inside vmap: batched as input)


def all(input, dim=None, keepdim=False):
    """True if every element is nonzero (over ``dim`` if given)."""
    return _dispatch.function_result_version("all", (input,), _all_any(np.all, input, dim, keepdim))


def any(input, dim=None, keepdim=False):
    """True if some element is nonzero (over ``dim`` if given)."""
    return _dispatch.function_result_version("any", (input,), _all_any(np.any, input, dim, keepdim))


def equal(input, other) -> bool:
    """True if both have the same shape and values."""
    if not isinstance(other, Tensor):  # (x.equal(1): the method's error; torch.equal's wrapper words the function's)
        raise _not_a_tensor("equal", other, "other")
    if _vmap_batched.DEPTH[0]:
        _vmap_batched.check_compare_all(input, other, "equal")
    _meta.check_kernel("equal", input, other)
    a, b = input._data, other._data
    if a.shape != b.shape:
        return False
    # (PyTorch's cpu_equal: a tensor compared with itself (same memory, same strides) is checked for NaNs in its
    # own dtype; two others are compared in their common dtype, which has no complex32 kernel)
    aliased = a.strides == b.strides and a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
    common = input.dtype if aliased else _dtypes.promote_types(input.dtype, other.dtype)
    if common is _dtypes.complex32:
        raise NotImplementedError(f"\"{'equal_notnan_cpu' if aliased else 'equal_cpu'}\" not implemented for "
                                  "'ComplexHalf'")
    a, b = (_dtypes.complex32_values(x) if _dtypes.is_complex32(x.dtype) else x for x in (a, b))
    return bool(np.array_equal(a, b))


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    """True if isclose everywhere (same dtype required, shapes broadcast)."""
    if _vmap_batched.DEPTH[0]:
        _vmap_batched.check_compare_all(input, other, "allclose")
    # (PyTorch's allclose runs below autograd: no operand's grad_fn is read, unlike isclose's)
    _meta.check_item(input if _meta.is_meta(input) else other)   # (its .item() of all(isclose))
    return bool(np.all(_isclose(input, other, rtol, atol, equal_nan)._data))


def _where_method(self, condition=_MISSING, other=_MISSING, *_extra):
    """``x.where(condition, other)``: where(condition, x, other)."""
    if _extra:
        raise _arg_errors.too_many("where", self, (condition, other, *_extra), {})
    try:
        return where(condition, self, other)
    except Exception:   # (x.where(m, None), x.where(m): the parser's refusal)
        error = _arg_errors.method_error("where", *_given(("condition", "other"), (condition, other)))
        if error is None:
            raise
        raise error from None


_where_method.__name__ = _where_method.__qualname__ = "where"


def where(condition, input=None, other=None):
    """Elementwise choice: input where condition else other."""
    if not isinstance(condition, Tensor):
        if input is None and other is None:
            raise _arg_errors.must_be("where", "condition", "Tensor", condition, 1)
        raise _arg_errors.no_overload("where", *(a for a in (condition, input, other) if a is not None))
    if input is None and other is None:
        if _vmap_batched.DEPTH[0]:
            _vmap_batched.check_dynamic(condition, "aten::where")
        from ._ops_sorting import nonzero
        return nonzero(condition, as_tuple=True)   # (PyTorch's where(condition): nonzero_numpy, views of one tensor)
    if condition.dtype is not _dtypes.bool_ and condition.dtype is not _dtypes.uint8:
        raise RuntimeError("where expected condition to be a boolean tensor, but got a tensor with dtype "
                           f"{_legacy(condition.dtype)}")
    a = input if isinstance(input, Tensor) else _wrap_scalar(input)
    b = other if isinstance(other, Tensor) else _wrap_scalar(other)
    if condition.dtype is _dtypes.uint8 and condition._data.ndim:   # (PyTorch's TORCH_WARN_ONCE)
        warn_once("where uint8 condition",
                  "where received a uint8 condition tensor. This behavior is deprecated and will be removed in a "
                  "future version of PyTorch. Use a boolean condition instead. (Triggered internally at "
                  "/__w/pytorch/pytorch/aten/src/ATen/native/TensorCompare.cpp:621.)")
    shape = condition._data.shape
    for t in (a, b):  # PyTorch's broadcast error names the shapes as it meets them: condition, input, other
        if t._data.shape != shape:
            try:
                shape = np.broadcast_shapes(shape, t._data.shape)
            except ValueError:
                _raise_broadcast_error(shape, t._data.shape, tensors=(condition, a, b))
    dt = _dtypes.result_type(*_vmap_batched.physical(input, other))
    if dt not in _REDUCED_FLOATS:  # a number must fit the result's dtype (float16: it becomes inf, as in PyTorch)
        for value in (input, other):
            if not isinstance(value, Tensor):
                _check_scalar_fits(value, dt)
    # where(cond, tensor, number): ATen casts the tensor to the result type first (tensor.to(dtype): a
    # ToCopyBackward0 when a complex number makes a real tensor complex), and the number too: its zero tangent is
    # of that type (where(c, x, 0.5) of a 0-d float32 x has a float32 tangent, not a float64 one)
    if isinstance(input, Tensor) and not isinstance(other, Tensor) and a.dtype is not dt:
        a = a.to(dt)
    elif isinstance(other, Tensor) and not isinstance(input, Tensor) and b.dtype is not dt:
        b = b.to(dt)
    if a is not input and not isinstance(input, Tensor):
        a = Tensor._make(_dispatch._quiet_astype(a._data, dt.np))
    if b is not other and not isinstance(other, Tensor):
        b = Tensor._make(_dispatch._quiet_astype(b._data, dt.np))
    return D.where(condition, a, b, dtype=dt)


# ---- more comparison and logic (part A; no gradients) ----------------------------------------

def isnan(input):
    """True where the element is NaN."""
    out = Tensor._make(np.asarray(np.isnan(_values(input._data))) if input.dtype.is_floating_point or
                       input.dtype.is_complex else np.zeros(input._data.shape, dtype=bool))
    out = _meta.follow(out, input) if _meta.METAS else out
    return _vmap_batched.follow(out, input) if _vmap_batched.DEPTH[0] else out  # (inside vmap: batched as input)


def isinf(input):
    """True where the element is +inf or -inf."""
    out = Tensor._make(np.asarray(np.isinf(_values(input._data))) if input.dtype.is_floating_point or
                       input.dtype.is_complex else np.zeros(input._data.shape, dtype=bool))
    return _dispatch.function_result_version("isinf", (input,), out)


def isfinite(input):
    """True where the element is neither inf nor NaN."""
    out = Tensor._make(np.asarray(np.isfinite(_values(input._data))) if input.dtype.is_floating_point or
                       input.dtype.is_complex
                       else np.ones(input._data.shape, dtype=bool))
    return _dispatch.function_result_version("isfinite", (input,), out)


def _values(a: np.ndarray) -> np.ndarray:
    """An array NumPy's ufuncs take: complex32's float16 pairs as their complex64 values (exact)."""
    return a if not _dtypes.is_complex32(a.dtype) else _dtypes.complex32_values(a)


def isposinf(input):
    """True where the element is +inf."""
    if input.is_complex():
        raise RuntimeError("isposinf does not support complex inputs.")
    out = Tensor._make(np.asarray(np.isposinf(input._data)) if input.dtype.is_floating_point
                       else np.zeros(input._data.shape, dtype=bool))
    return _dispatch.function_result_version("isposinf", (input,), out)


def isneginf(input):
    """True where the element is -inf."""
    if input.is_complex():
        raise RuntimeError("isneginf does not support complex inputs.")
    out = Tensor._make(np.asarray(np.isneginf(input._data)) if input.dtype.is_floating_point
                       else np.zeros(input._data.shape, dtype=bool))
    return _dispatch.function_result_version("isneginf", (input,), out)


def _check_tolerances(rtol, atol) -> None:
    """PyTorch's isclose/allclose refuse negative tolerances (numbers shown as C++ prints a double)."""
    for name, value in (("rtol", rtol), ("atol", atol)):
        if value < 0:
            raise RuntimeError(f"{name} must be greater than or equal to zero, but got {float(value):g}")


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|input - other| <= atol + rtol·|other|, elementwise."""
    if _vmap_batched.DEPTH[0]:   # (no batch rule: PyTorch's fallback warns, then runs the kernel's checks)
        _vmap_batched.warn_fallback("isclose", input, other)
    out = _isclose(input, other, rtol, atol, equal_nan)
    if _vmap_batched.DEPTH[0]:
        _vmap_batched.follow(out, input, other)   # (inside vmap: batched as its operands)
    if not (rtol == 0 and atol == 0) and _STATE.enabled:
        # PyTorch's composite records rtol * other and input - other: reading the operands' grad_fns, which
        # refuses a view that may not have been changed in place (an output of split, then its base written)
        for t in (other, input):
            if t._requires_grad:
                t.grad_fn  # noqa: B018
    return out


def _isclose(input, other, rtol, atol, equal_nan):
    _tensors_only("isclose", input, other)
    if input.dtype is not other.dtype:
        raise RuntimeError(f"{_legacy(input.dtype)} did not match {_legacy(other.dtype)}")
    _check_tolerances(rtol, atol)
    try:
        a, b = (_dtypes.complex32_values(x) if _dtypes.is_complex32(x.dtype) else x for x in (input._data, other._data))
        close = np.asarray(np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))
        # (laid out as PyTorch's first step, input == other: TensorIterator's output of the two operands)
        out = Tensor._make(_strides.iterator_layout(close, (input._data, other._data)))
        if not close.size and close.ndim > 1:   # (an empty result's strides: see _strides)
            _strides.empty_elementwise(out, (input, other))
    except ValueError:
        _raise_broadcast_error(input._data.shape, other._data.shape)
    # (PyTorch builds the result in place: close = input == other, then close |= both nan (equal_nan, floating
    # inputs) and close |= finite error within tolerance (unless rtol == atol == 0): one version bump each)
    out._version_counter[0] = int(equal_nan and (input.dtype.is_floating_point or input.dtype.is_complex)) + \
        int(not (rtol == 0 and atol == 0))
    return out



# =============================================================================================
# Complex numbers (part A)
# =============================================================================================

def view_as_real(input):
    """A real view of a complex tensor with a trailing dimension of size 2 (real, imaginary)."""
    if not input.dtype.is_complex:
        _dispatch.check_rebased_inputs(input)   # (the kernel's check, after VariableType collected the edge)
        raise RuntimeError("view_as_real is only supported for complex tensors")
    _conj.check_resolved(input, "view_as_real doesn't work on unresolved conjugated tensors.  To resolve the "
                         "conjugate tensor so you can view it as real, use self.resolve_conj(); however, be warned "
                         "that the resulting tensor will NOT alias the original.")
    return D.view_as_real(input)


def view_as_complex(input):
    """A complex view of a real tensor whose last dimension (size 2) holds (real, imaginary)."""
    if _AUTOCAST[0]:
        return _autocast("view_as_complex", view_as_complex, input)
    _check_view_as_complex(input)
    return D.view_as_complex(input)


@_dispatch.kernel_checks
def _check_view_as_complex(input) -> None:
    if input.dtype not in (_dtypes.float16, _dtypes.float32, _dtypes.float64):   # (the dtype first)
        raise RuntimeError("view_as_complex is only supported for half, float and double tensors, but got a "
                           f"tensor of scalar type: {_legacy(input.dtype)}")
    if input.dim() == 0:
        raise RuntimeError("Input tensor must have one or more dimensions")
    if input._data.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    strides = input.stride()
    if strides[-1] != 1:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if builtins.any(st % 2 and n != 1 for st, n in zip(strides[:-1], input.shape)):   # (size-1 dims: any stride)
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
    if input.storage_offset() % 2:
        raise RuntimeError("Tensor must have a storage_offset divisible by 2")


def real(input):
    """Real part: a view (select(view_as_real(z), -1, 0), as in PyTorch); the tensor itself if real."""
    if not input.dtype.is_complex:
        return input
    if input.is_conj():   # (PyTorch's real(): view_as_real(self._conj()), the conjugate bit undone by a ConjBackward0)
        input = input.conj()
    return D.select(D.view_as_real(input), dim=input.dim(), index=0)


def imag(input):
    """Imaginary part: a view into a complex tensor."""
    if not input.dtype.is_complex:
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    if input.is_conj():
        # (PyTorch's imag(): view_as_real(self._conj())._neg_view(): the conjugate bit undone, the sign kept as a
        # negative bit, so that the result is still a view of input's memory)
        from ._neg import neg_view
        return D.select(neg_view(D.view_as_real(input.conj())), dim=input.dim(), index=1)
    return D.select(D.view_as_real(input), dim=input.dim(), index=1)


def angle(input):
    """Argument of each complex number (0 or π for real numbers)."""
    out = _unary(D.angle, input)
    if input.dtype.is_complex and out._data.ndim > 1 and not out._data.flags.c_contiguous:
        # (PyTorch's complex angle runs complex -> complex into a temporary, then resize_output()s a fresh real
        # result and copies the real part in: C order whatever the input's layout; a real input's keeps it)
        out._data = _strides.contiguous(out._data)
    return out



# =============================================================================================
# Copies, conversions and in-place ops
# =============================================================================================

def clone(input, *_extra, memory_format=None):
    """A copy that stays in the graph (CloneBackward0), laid out as ``memory_format`` says (default: preserve)."""
    if _extra:   # (x.clone(a, b): PyTorch's count, without self)
        raise _arg_errors.too_many("clone", input, _extra, {})
    if memory_format is None or memory_format is _layout.preserve_format:
        out = D.clone(input)
        if out._data.size == 0:  # (PyTorch keeps an empty tensor's strides, whatever they are: see _strides)
            _strides.keep_copy_strides(out, input, None)
        return _copied_from_inference(input, out)
    if not isinstance(memory_format, _layout.memory_format):  # (PyTorch's parser: no string, no int)
        raise _arg_errors.must_be("clone", "memory_format", "torch.memory_format", memory_format)
    out = D.clone(input, memory_format=memory_format)
    if out._data.size == 0:
        _strides.keep_copy_strides(out, input, memory_format)
    return _copied_from_inference(input, out)


def _copied_from_inference(input, out):
    """``out``, PyTorch's clone / _to_copy of ``input``, at the version PyTorch's has: those kernels make an empty
    tensor and fill it with ``copy_``. For an inference tensor used outside inference mode that ``copy_`` goes
    through the autograd layer again (the new tensor is a normal one), which counts it as an in-place write:
    ``x.clone()._version`` is 1 there (0 for a normal x, whose copy_ runs below that layer)."""
    if input._is_inference and not _STATE.inference:
        out._version_counter[0] = 1
    return out


def contiguous(input, *args, memory_format=None):
    """``input`` itself if contiguous in ``memory_format`` (default: C order), else such a copy (CloneBackward0)."""
    if args:   # (memory_format is keyword-only: PyTorch's parser message)
        were = "was" if len(args) == 1 else "were"
        raise TypeError(f"contiguous() takes 0 positional arguments but {len(args)} {were} given")
    if memory_format is None or memory_format is _layout.contiguous_format:
        return input if input._data.flags["C_CONTIGUOUS"] else clone(input, memory_format=_layout.contiguous_format)
    if not isinstance(memory_format, _layout.memory_format):   # (torch.strided is a layout: PyTorch's parser)
        raise _arg_errors.must_be("contiguous", "memory_format", "torch.memory_format", memory_format)
    if memory_format is _layout.preserve_format:
        raise RuntimeError("preserve memory format is unsupported by the contiguous operator")
    return input if input.is_contiguous(memory_format=memory_format) else clone(input, memory_format=memory_format)


_TO_FAST = (_dtypes.dtype, str, Tensor)  # x.to(one of these): no parse needed


def parse_to(args: tuple, kwargs: dict):
    """PyTorch's parse of ``.to(...)`` arguments (Tensor.to, Module.to): its overload TypeError for a call no
    overload takes; else the dtype of a number given for ``tensor`` (read as a 0-dim tensor: True → bool,
    1.5 → float64, 1j → complex128), or None."""
    first = args[0] if args else kwargs.get("tensor")
    number = type(first) in (bool, float, complex)
    if number:   # (the parser takes a number for ``Tensor tensor``; an int is a device index)
        probe = _wrap_scalar(first)
        args, kwargs = ((probe, *args[1:]), kwargs) if args else (args, dict(kwargs, tensor=probe))
    _arg_errors.recheck("to", args, kwargs, method=True)
    return _wrap_scalar(first).dtype if number else None


def to(input, *args, **kwargs):
    """Convert to another dtype (a device must be the CPU: others fail as in a CPU-only PyTorch)."""
    from ._device import check_target_device, device, is_device
    # (the keywords stay in **kwargs: the parser's error lists them in the order given)
    if (kwargs and (len(kwargs) > 1 or not isinstance(kwargs.get("dtype"), _dtypes.dtype))) or (
            args and (len(args) != 1 or not isinstance(args[0], _TO_FAST))):
        dtype = parse_to(args, kwargs) or kwargs.get("dtype")
    else:
        dtype = kwargs.get("dtype")
    if type(dtype) is type and dtype in _dtypes._PY_TYPES:
        dtype = _dtypes._info_dtype(dtype, "to")
    copy = kwargs.get("copy", False)
    # ``copy`` may come positionally too: to(device, dtype, non_blocking, copy), to(dtype, non_blocking, copy),
    # to(other, non_blocking, copy)
    copy_at = 3 if args and (args[0] is None or is_device(args[0])) else 2
    if len(args) > copy_at and args[copy_at] is True:
        copy = True
    to_meta = False   # (x.to('meta'): a copy on the meta device, see _meta.py)
    for a in (*args, kwargs.get("device"), kwargs.get("tensor")):
        if is_device(a) and _meta.is_meta_device(a):
            to_meta = True
        elif is_device(a):
            if _meta.METAS:
                _meta.check_copy_out(input)   # (from the meta device to the CPU: no values to copy)
            check_target_device(a)
            copy = copy or device(a).index is not None  # "cpu:0" is not x.device ("cpu"): PyTorch copies
        elif isinstance(a, _dtypes.dtype):
            dtype = a
        elif type(a) is type and a in _dtypes._PY_TYPES:   # (x.to(float): Python's types name dtypes)
            dtype = _dtypes._info_dtype(a, "to")
        elif isinstance(a, Tensor):
            dtype = a.dtype
        elif a is not None and not isinstance(a, (bool, float, complex)):  # (x.to([1]): the parser refuses it)
            _arg_errors.recheck("to", args, kwargs, method=True)
    layout = kwargs.get("memory_format")  # (None or preserve_format: the input's, see _strides)
    layout = None if layout is _layout.preserve_format else layout
    to_meta = to_meta and not _meta.is_meta(input)
    copy = copy or to_meta
    # PyTorch's to_will_alias: no copy when the layout asked for is the one the strides suggest (so a transposed
    # matrix stays as it is for contiguous_format, and an NCHW tensor with one channel is copied for channels_last)
    if not copy and (dtype is None or dtype is input.dtype) and (
            layout is None or _strides.suggested_memory_format(input._data) is layout):
        return input
    dtype = input.dtype if dtype is None else dtype  # a copy is asked for: ToCopyBackward0, as in PyTorch
    if not isinstance(dtype, _dtypes.dtype):  # (x.to(dtype='float64'))
        _arg_errors.recheck("to", args, dict(kwargs, dtype=dtype), method=True)
    if not (dtype.is_floating_point or dtype.is_complex):
        # Integer and bool tensors cannot require grad: the copy leaves the graph. (NaN or inf into an integer:
        # PyTorch casts without a warning, NumPy would warn)
        with np.errstate(invalid="ignore", over="ignore"):
            array = _strides.astype(input._data, dtype.np)  # (PyTorch's layout: see _strides)
        out = Tensor._make(array if layout is None else _strides.clone(array, layout))
        out = _vmap_batched.follow(out, input) if _vmap_batched.DEPTH[0] else out  # (inside vmap: batched as input)
        out = _meta.follow(out, input) if _meta.METAS else out   # (a meta tensor's cast: a meta tensor)
    else:
        op = D.to_copy_to_meta if to_meta else D.to_copy   # (to the meta device: no values to copy back)
        out = op(input, dtype=dtype) if layout is None else op(input, dtype=dtype, memory_format=layout)
    if out._data.size == 0:  # (preserve_format keeps an empty tensor's strides, see _strides)
        _strides.keep_copy_strides(out, input, layout)
    if to_meta:
        _meta.mark(out)
    return _copied_from_inference(input, out)


def _cast(dt, name: str):
    def cast(input, *args, memory_format=None):
        if memory_format is None and not args:
            return to(input, dt)
        if args:  # (memory_format is keyword-only: x.float(1) is refused by PyTorch's parser)
            were = "was" if len(args) == 1 else "were"
            raise TypeError(f"{name}() takes 0 positional arguments but {len(args)} {were} given")
        if not isinstance(memory_format, _layout.memory_format):
            raise _arg_errors.must_be(name, "memory_format", "torch.memory_format", memory_format)
        return to(input, dt, memory_format=memory_format)
    cast.__doc__ = f"Convert to {dt!r}."
    return cast


# tensor.float(), tensor.long() ... (not module-level names: they would shadow the builtins here)
_CASTS = {name: _cast(dt, name) for name, dt in (
    ("float", _dtypes.float32), ("double", _dtypes.float64), ("half", _dtypes.float16), ("bfloat16", _dtypes.bfloat16),
    ("long", _dtypes.int64), ("int", _dtypes.int32), ("short", _dtypes.int16), ("bool", _dtypes.bool_),
    ("byte", _dtypes.uint8), ("char", _dtypes.int8), ("cfloat", _dtypes.complex64), ("cdouble", _dtypes.complex128),
    ("chalf", _dtypes.complex32))}


def copy_(input, other, *by_position, non_blocking=False):
    """Overwrite input's values with other's (broadcast), in place. (``non_blocking`` by position or by keyword:
    PyTorch's parser error names its position only in the first case.)"""
    given = non_blocking
    if by_position:
        non_blocking = by_position[0] if len(by_position) == 1 and given is False else None
    if not isinstance(other, Tensor) and not _arg_errors._is_number(other) or (non_blocking is not False
                                                                            and non_blocking is not True):
        # (x.copy_(None), x.copy_(y, 1): the parser's error, for the call as it was made)
        error = _arg_errors.method_error("copy_", (other, *by_position), {} if given is False else
                                         {"non_blocking": given})
        if error is not None:
            raise error
    src = other if isinstance(other, Tensor) else _wrap_scalar(other)   # (a number is taken, as by PyTorch)
    if type(src) is not Tensor and src.is_sparse:   # (a sparse tensor's copy_ is sparse.SparseTensor.copy_)
        raise RuntimeError(f"copy_() between dense and sparse Tensors is not implemented! Found self type = "
                           f"{input._legacy_type_name()} and src type = {src._legacy_type_name()}")
    if input.dtype._kind < 2 and src._requires_grad and not input._requires_grad and grad_mode.is_grad_enabled():
        # (into an integer tensor: PyTorch's copy_ records no history there, the values only)
        with grad_mode.no_grad():
            return copy_(input, src, non_blocking)
    if input._requires_grad or input._base is not None:
        if _vmap_batched.DEPTH[0]:   # (vmap's refusal to write a batched value comes first)
            _vmap_batched.check_inplace_first("copy_", input, (src,))
        # (autograd's refusal of a leaf or of a no_grad view next: PyTorch's VariableType, before the kernel)
        # (an inference tensor's own refusal comes when its version is bumped, as PyTorch's)
        _dispatch._check_inplace(input, grad_mode.is_grad_enabled() and src._requires_grad
                                 and input._is_inference is not True)
    _dispatch._no_internal_overlap_first(D.copy_, input, (input, src))  # (then TensorIterator's, before shapes')
    if src._data.dtype.kind == "c" and input._data.dtype.kind != "c" and np.may_share_memory(input._data, src._data):
        # (z.real.copy_(z): TensorIterator's overlap refusal comes before the cast's complex-to-real warning)
        _dispatch._check_no_partial_overlap(input, (src,), D.copy_)
    try:
        out = D.copy_(input, src, out=input, dtype=None)
    except ValueError as e:  # NumPy's broadcast errors, as PyTorch's RuntimeError
        if "broadcast" in str(e) or "remapping" in str(e):
            _raise_broadcast_error(input._data.shape, src._data.shape, input)
        raise
    if _conj.MIRRORS and input._data.dtype.kind == "c" and src._data.dtype.kind != "c" and _neg.is_neg(src) and \
            not _neg.is_neg(input):
        # (PyTorch copies a negative view's memory as it is, then negates the result in place: the imaginary parts
        # made zero become -0, z.copy_(z.conj().imag))
        input._data.imag[...] = -0.0
    return out


def zero_(input):
    """Fill with zeros in place."""
    return D.zero_(input, out=input)


def fill_(input, value):
    """Fill with ``value`` in place (a 0-dim tensor value is differentiable: FillBackward3)."""
    if value is None:   # (PyTorch's parser refuses it; NumPy would fill nan)
        _arg_errors.recheck("fill_", (value,), {}, method=True)
    if isinstance(value, complex):  # (PyTorch's checked conversion: no imaginary part into a real tensor)
        if input._requires_grad:
            _dispatch._check_inplace(input, False)  # (a leaf's refusal first)
        _check_fill_fits(value, input.dtype, input.numel())
        value = value if input.is_complex() else bool(value) if input.dtype is _dtypes.bool_ else value.real
    elif type(value) is int and value < 0 and not input.dtype.is_signed and input.dtype is not _dtypes.bool_:
        _check_scalar_fits(value, input.dtype)   # (a C cast: -1 fills 255 into uint8)
        value %= 2 ** (8 * input.dtype.itemsize)
    elif type(value) in (int, float):   # (PyTorch's checked conversion: a number out of the dtype's range refused)
        if type(value) is int:
            _check_scalar_int(value)
        if input._requires_grad:
            _dispatch._check_inplace(input, False)  # (a leaf's refusal first)
        _check_fill_fits(value, input.dtype, input.numel())
        if input.dtype is _dtypes.bool_:
            value = bool(value)   # (any non-zero number fills True, 2**63 too)
    if isinstance(value, Tensor):
        if value.dim() != 0:
            raise RuntimeError("fill_ only supports 0-dimension value tensor but got tensor with "
                               f"{value.dim()} dimensions.")
        if _vmap_batched.DEPTH[0] and _vmap_batched.hides_autograd(value) and \
                _vmap_batched.levels(value) & ~_vmap_batched.levels(input) == 0:
            # PyTorch's batch rule writes a batched value with copy_: an autograd outside the vmap records copy_
            # (CopyBackwards, whose formula gives a real value a real gradient; FillBackward3's would be complex)
            return copy_(input, value)
        return D.fill_tensor(input, value, out=input)
    if input.dtype is _dtypes.complex32:   # (the value as a complex32 element: NumPy fills both float16 fields)
        value = _dtypes.as_complex32(np.array(value, np.complex128), warn=False)   # (a Scalar: nothing allocated)
    return D.fill_(input, out=input, value=value)


def add_(input, other=_MISSING, _old=_NO_ARG, *_extra, alpha=1):
    """In-place ``input += alpha * other``."""
    if _old is not _NO_ARG:  # (the deprecated x.add_(alpha, other))
        _arg_errors.scalar_first("add_", other, (_old, *_extra), alpha=alpha)
        other, alpha = _old, other
    if type(alpha) is not int or alpha != 1:
        _dispatch._check_inplace(input, False)  # (before alpha's errors)
        _dispatch._no_internal_overlap_first(None, input)  # (TensorIterator's first error, before alpha's)
        alpha = _check_alpha(input, other, alpha, "add_", inplace=True)
    if type(other) is not Tensor and isinstance(other, Tensor) and other.is_sparse:
        return _add_sparse_entries(input, other, alpha, input)
    return _binary(D.add, input, other, out=input, alpha=alpha)


def sub_(input, other=_MISSING, _old=_NO_ARG, *_extra, alpha=1):
    """In-place ``input -= alpha * other``."""
    if _old is not _NO_ARG:  # (the deprecated x.sub_(alpha, other))
        _arg_errors.scalar_first("sub_", other, (_old, *_extra), alpha=alpha)
        other, alpha = _old, other
    if type(alpha) is not int or alpha != 1:
        if _vmap_batched.DEPTH[0]:   # (vmap's refusal to write a batched value comes first)
            _vmap_batched.check_inplace_first("sub", input, (input, other), "SubBackward0")
        _dispatch._check_inplace(input, False)  # (before alpha's errors)
        if not (input.dtype is _dtypes.bool_ or isinstance(other, Tensor) and other.dtype is _dtypes.bool_):
            _dispatch._no_internal_overlap_first(None, input)  # (after sub's bool refusal, before alpha's)
        alpha = _check_alpha(input, other, alpha, "sub_", no_bool=True, inplace=True)
    if type(other) is not Tensor and isinstance(other, Tensor) and other.is_sparse:
        return _add_sparse_entries(input, other, alpha, input, D.sub)
    return _binary(D.sub, input, other, out=input, no_bool=True, alpha=alpha)


def mul_(input, other=_MISSING, *_extra):
    """In-place ``input *= other``."""
    if _extra:   # (x.mul_(a, b): PyTorch's count, without self)
        raise _arg_errors.too_many("mul_", input, (other, *_extra), {})
    return _binary(D.mul, input, other, out=input)


def div_(input, other=_MISSING, *, rounding_mode=_NO_ROUNDING_MODE):
    """In-place ``input /= other`` (rounded with rounding_mode 'trunc' or 'floor')."""
    if rounding_mode is _NO_ROUNDING_MODE:
        return _binary(D.div, input, other, out=input, promote_int_to_float=True)
    if rounding_mode is None:
        return _binary(D.div_mode, input, other if isinstance(other, Tensor) else _wrap_scalar(other), out=input,
                       promote_int_to_float=True, rounding_mode=None)
    if _vmap_batched.DEPTH[0]:   # (vmap's refusal to write a batched value comes first)
        _vmap_batched.check_inplace_first("div_", input, (other,))
    if input._requires_grad:
        _dispatch._check_inplace(input, False)  # (then a leaf's refusal)
    _vmap_batched.check_inplace("div_", input, (other,))  # (vmap's refusal before the kernel's errors)
    if rounding_mode not in ("trunc", "floor"):
        _rounded_div(input, other, rounding_mode)  # (the mode's error, before the shapes')
    _dispatch._no_internal_overlap_first(None, input)  # (TensorIterator's first check, before the shapes')
    other_t = other if isinstance(other, Tensor) else _wrap_scalar(other)
    _check_broadcast(input, other_t)
    shape = np.broadcast_shapes(input._data.shape, other_t._data.shape)
    if shape != input._data.shape:  # (the output's shape before the dtypes' errors)
        raise RuntimeError(f"output with shape {list(input._data.shape)} doesn't match the broadcast shape "
                           f"{list(shape)}")
    dt = _dtypes.result_type(input, other)
    if dt._kind > input.dtype._kind:   # (the cast into input, before the kernel's dtype error)
        raise RuntimeError(f"result type {_legacy(dt)} can't be cast to the desired output type {_legacy(input.dtype)}")
    q = _rounded_div(input.detach(), other.detach() if isinstance(other, Tensor) else other,
                     rounding_mode)._data  # (its errors: mode, shapes, dtypes)
    return D.div_rounded.call((input, other_t), None, input, {"rounding_mode": rounding_mode, "_result": q})


def pow_(input, exponent=_MISSING):
    """In-place ``input **= exponent``."""
    if isinstance(exponent, np.ndarray):
        raise _arg_errors.for_method(_arg_errors.no_overload("pow", input, exponent), "pow_")
    if isinstance(exponent, Tensor):
        if input.dtype is _dtypes.bool_ and exponent.dtype is _dtypes.bool_:
            _check_broadcast(input, exponent)  # (the shapes' errors first)
            if np.broadcast_shapes(input._data.shape, exponent._data.shape) != input._data.shape:
                raise RuntimeError(f"output with shape {list(input._data.shape)} doesn't match the broadcast shape "
                                   f"{list(np.broadcast_shapes(input._data.shape, exponent._data.shape))}")
            raise NotImplementedError("\"pow\" not implemented for 'Bool'")
        if type(exponent) is not Tensor and exponent.is_sparse:   # (dense **= sparse: no kernel, as PyTorch)
            from .sparse import _not_for_sparse
            raise _not_for_sparse("aten::pow_.Tensor")
        return _binary(D.pow_tensor, input, exponent, out=input)
    if exponent is None or isinstance(exponent, _NOT_NUMBERS):  # (x.pow_("a"): PyTorch's parser refuses it)
        _refuse_operand("pow_", exponent, {}, input)
    # Computed in pow's dtype: a result that cannot go back into input is refused with PyTorch's message.
    return D.pow(input, out=input, dtype=_pow_number_dtype(input, exponent), exponent=exponent)


def neg_(input):
    """In-place ``input = -input``."""
    if input.dtype is _dtypes.bool_:
        neg(input)  # (PyTorch's error for a bool tensor)
    return D.neg(input, out=input)


def exp_(input):
    """In-place ``input = e**input``."""
    return _unary(D.exp, input, out=input)  # (an integer tensor: computed in float32, which cannot go back)


# =============================================================================================
# Creation helpers used by formulas (the full set is in _creation.py)
# =============================================================================================

def zeros_like(input, *, dtype=None, requires_grad=False, **kwargs):
    """``_creation.zeros_like``, imported late (formulas call it through ``_ops``)."""
    from ._creation import zeros_like as z
    return z(input, dtype=dtype, requires_grad=requires_grad)


def zeros(*size, dtype=None, requires_grad=False, **kwargs):
    """``_creation.zeros``, imported late (formulas call it through ``_ops``)."""
    from ._creation import zeros as z
    return z(*size, dtype=dtype, requires_grad=requires_grad)


# =============================================================================================
# Tensor methods
# =============================================================================================

METHODS = [
    "add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide", "floor_divide",
    "neg", "negative", "pow", "exp", "log", "sigmoid", "tanh", "relu", "conj",
    "sum", "mean", "sum_to_size",
    "view", "reshape", "view_as", "reshape_as", "flatten", "t", "transpose", "swapaxes", "swapdims", "permute",
    "expand", "expand_as", "unsqueeze", "squeeze", "select", "unbind",
    "mm", "mv", "dot", "bmm", "outer", "ger", "matmul",
    "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor", "logical_not",
    "all", "any", "equal", "allclose",
    "clone", "contiguous", "to",
    "copy_", "zero_", "fill_", "add_", "sub_", "mul_", "div_", "pow_", "neg_", "exp_",
]
# part A: elementwise, reductions, comparison, complex
METHODS += [
    "abs", "absolute", "sgn", "sign", "reciprocal", "sqrt", "rsqrt", "exp2", "expm1", "log2", "log10", "log1p",
    "sin", "cos", "tan", "floor", "ceil", "trunc", "fix", "frac", "round", "square", "clamp", "clip",
    "clamp_min", "clamp_max", "maximum", "minimum", "lerp", "lerp_", "rsub",
    "prod", "max", "min", "amax", "amin", "argmax", "argmin", "var", "std", "logsumexp", "norm", "cumsum",
    "isnan", "isinf", "isfinite", "isposinf", "isneginf", "isclose", "angle",
    "abs_", "absolute_", "sgn_", "sign_", "reciprocal_", "sqrt_", "rsqrt_", "exp2_", "expm1_", "log_", "log2_",
    "log10_", "log1p_", "sin_", "cos_", "tan_", "tanh_", "sigmoid_", "relu_", "floor_", "ceil_", "trunc_",
    "fix_", "frac_", "round_", "square_", "clamp_", "clip_", "clamp_min_", "clamp_max_",
]
# shape, views, indexing and linear algebra
METHODS += [
    "movedim", "moveaxis", "narrow", "diagonal", "split", "split_with_sizes", "chunk", "repeat", "flip",
    "gather", "scatter", "scatter_add", "index_select", "index_add", "masked_fill", "masked_fill_",
    "scatter_", "scatter_add_", "index_add_",
]


def _tensor_method(name: str):
    """``x.maximum(other)``: the function, but PyTorch's method counts ``other`` as argument 1 in its TypeError."""
    fn = globals()[name]

    def method(self, other):
        if not isinstance(other, Tensor):
            raise _not_a_tensor(name, other, "other", 1)
        return fn(self, other)
    method.__name__, method.__doc__ = name, fn.__doc__
    return method


def _comparison_method(np_fn, name: str):
    """``x.eq(y)``: ``eq`` with PyTorch's method form of its TypeError (no wrapper: x == y costs the same)."""
    def method(self, other):
        return _compare(np_fn, self, other, True)
    method.__name__, method.__qualname__, method.__doc__ = name, f"Tensor.{name}", globals()[name].__doc__
    return method


def _part_setter(part):
    """The setter of ``x.real`` / ``x.imag``: the value copied into that part's view (THPVariable_set_real)."""
    def setter(self, value) -> None:
        view = part(self)
        if not isinstance(value, Tensor):
            if not isinstance(value, (int, float, complex, np.integer)):   # (valueToTensor's numbers)
                kind = type(value)
                name = kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
                raise TypeError(f"can't assign a {name} to a {view._legacy_type_name()}")
            # (scalarToTensor: the number converted, checked, to the part's dtype; into a half type it is rounded)
            if view.dtype.name not in ("float16", "bfloat16"):
                _check_scalar_fits(value, view.dtype)
            if isinstance(value, complex) and not view.dtype.is_complex:
                value = value.real   # (no imaginary part: _check_scalar_fits refused any other)
            with np.errstate(over="ignore"):
                value = Tensor._make(np.asarray(value).astype(view._data.dtype))
        view.copy_(value)
    return setter


def _attach_methods():
    g = globals()
    for name in METHODS:
        setattr(Tensor, name, g[name])
    del Tensor.rsub  # (torch.rsub only: PyTorch's tensors have __rsub__, no rsub method)
    for np_fn, name in _COMPARISON_NAMES.items():
        setattr(Tensor, name, _comparison_method(np_fn, name))
    for name in ("maximum", "minimum", "logical_and", "logical_or", "logical_xor"):
        setattr(Tensor, name, _tensor_method(name))
    Tensor.lerp = _lerp_method
    Tensor.flip = _flip_method
    for name, fn in _CASTS.items():
        setattr(Tensor, name, fn)
    # (T, mT, H, mH and adjoint are in _ops_shapes.py)
    Tensor.real = property(lambda self: real(self), _part_setter(real))
    Tensor.imag = property(lambda self: imag(self), _part_setter(imag))
    Tensor.where = _where_method
    Tensor.split = _split_method
    Tensor.select = _arg_errors.counting_without_self(select, "select")   # (its TypeErrors number after self)
    Tensor.unbind = _arg_errors.counting_without_self(unbind, "unbind")
    Tensor.diagonal = _arg_errors.counting_without_self(diagonal, "diagonal")
    # (x.amax(1, 1): "argument 'keepdim' (position 2)"; x.split_with_sizes(2): 'split_sizes' (position 1))
    for name in ("amax", "amin", "logsumexp", "split_with_sizes"):
        setattr(Tensor, name, _arg_errors.counting_without_self(globals()[name], name))


_attach_methods()
