"""``out=`` for the functions that compute without it, and the in-place operators ``//=``, ``&=`` ....

PyTorch's ``torch.eq(a, b, out=o)`` / ``torch.sqrt(x, out=o)`` ... compute as usual, then copy into ``o``: refused
while autograd records, refused when the result's dtype cannot be cast down to ``o``'s, ``o`` resized (with a
deprecation warning unless empty) when its shape differs. ``_ops._into_out`` does exactly that; ``install`` gives it
to every listed ``minigrad.xxx`` function that has no ``out`` of its own. The reductions, scans and sorts get theirs
from ``with_reduction_out``: one tensor, or a (values, indices) pair returned as ``torch.return_types.sort_out`` ...

``x //= y``, ``x &= y`` ...: the in-place operators PyTorch maps to in-place methods.
"""
from __future__ import annotations

import builtins
import functools
import numbers
import warnings

import numpy as np

from . import _arg_errors, _dispatch, _dtypes, _ops, _vmap_batched, return_types
from ._ops_matrices import _LinAlgError
from ._tensor import Tensor
from ._warn_once import unseen
from .amp import autocast_mode
from .autograd import grad_mode

# minigrad.* functions that accept ``out=`` through the wrapper below (those that already do keep their own)
OUT_FUNCTIONS = (
    "floor_divide", "remainder", "fmod", "maximum", "minimum", "fmax", "fmin", "eq", "ne", "lt", "le", "gt", "ge",
    "logical_and", "logical_or", "logical_xor", "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor",
    "bitwise_not", "hypot", "copysign", "xlogy", "atan2", "neg", "abs", "sqrt", "rsqrt", "sin", "cos", "tan",
    "tanh", "sigmoid", "floor", "ceil", "round", "trunc", "frac", "sign", "sgn", "reciprocal", "exp2", "expm1",
    "log1p", "log2", "log10", "square", "erf", "asin", "acos", "atan", "sinh", "cosh", "angle", "nan_to_num",
    "clamp", "where", "index_select", "mm", "outer", "inner", "mv", "dot", "vdot", "bmm", "signbit", "pow",
    # (the aliases and the rarer elementwise functions)
    "acosh", "asinh", "atanh", "arccos", "arcsin", "arctan", "arcsinh", "arccosh", "arctanh", "erfc", "erfinv",
    "i0", "sinc", "deg2rad", "rad2deg", "fix", "absolute", "negative", "lgamma", "digamma", "logit", "isneginf",
    "isposinf", "greater", "greater_equal", "less", "less_equal", "not_equal", "arctan2", "float_power", "gcd",
    "lcm", "heaviside", "nextafter", "ldexp", "logaddexp", "logaddexp2", "bitwise_left_shift",
    "bitwise_right_shift", "igamma", "igammac", "polar", "complex", "mvlgamma", "clamp_min", "clamp_max", "clip",
    "polygamma", "addmm", "addmv", "addr", "baddbmm", "addbmm", "addcmul", "addcdiv", "lerp", "column_stack",
    "hstack", "vstack", "dstack", "row_stack", "kron", "take", "take_along_dim", "logcumsumexp", "masked_select",
    "index_add", "index_copy", "gather", "tril", "triu", "isin", "narrow_copy", "argsort",
)


# ... of which these have no derivative: PyTorch copies their result into out= even while autograd records
_NOT_DIFFERENTIABLE = frozenset({
    "floor_divide", "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor", "logical_not",
    "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "signbit", "isneginf", "isposinf", "gcd", "lcm",
    "heaviside", "bitwise_left_shift", "bitwise_right_shift", "isin"})
# ... and PyTorch's composites whose out= copies their differentiable result (CopyBackwards), refusing nothing
_COPY_OUT = frozenset({"special_ndtr"})


# ... of which these still refuse an out= that is a leaf requiring grad (their kernels are not "structured")
_REFUSE_LEAF_OUT = frozenset({"floor_divide", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "gcd",
                              "lcm", "heaviside", "bitwise_left_shift", "bitwise_right_shift"})
# ... and these are PyTorch composites: their own argument checks come before the out= refusal of their parts
_COMPOSITE = frozenset({"outer"})
# ... and these take out= only in their overload of tensors (torch.where(c, x, 1.0, out=o) is a TypeError)
_TENSORS_ONLY = {"where": ((1, "condition"), (2, "input"), (3, "other")), "gcd": ((1, "input"), (2, "other")),
                 "lcm": ((1, "input"), (2, "other"))}
# ... and these want out= of the result's very dtype (PyTorch's unary kernels that keep their input's dtype)
_SAME_DTYPE = frozenset({"neg", "abs", "floor", "ceil", "round", "trunc", "frac", "sign", "sgn", "bitwise_not",
                         "clamp", "clamp_min", "clamp_max"})
_CLAMPS = frozenset({"clamp", "clamp_min", "clamp_max"})   # (with number bounds only: their unary TensorIterator)


# how PyTorch names a function in its out= errors, when not by its own name (square is pow(x, 2))
_NAMES = {"square": "pow", "arccos": "acos", "arcsin": "asin", "arctan": "atan", "arcsinh": "asinh",
          "arccosh": "acosh", "arctanh": "atanh", "fix": "trunc", "absolute": "abs", "negative": "neg",
          "greater": "gt", "greater_equal": "ge", "less": "lt", "less_equal": "le", "not_equal": "ne",
          "arctan2": "atan2", "clip": "clamp", "column_stack": "cat", "hstack": "cat", "vstack": "cat",
          "dstack": "cat", "row_stack": "cat", "kron": "mul", "take_along_dim": "gather"}
# ... and the part of a composite that refuses out= under autograd (float_power is pow of its casts)
_REFUSED_BY = {"float_power": "pow", "outer": "mul",   # (outer is mul(input.reshape(-1, 1), vec2, out=out))
               "argsort": "sort"}   # (argsort(x, stable=s, out=o) is sort's stable out= with o its indices)


def _index_select_dtype(x, dim, index=None, **kwargs):
    """index_select's out= dtype (x's), after its checks of dim and of index's rank, which come first."""
    _ops._wrap_dim(dim, x.dim())
    if isinstance(index, Tensor) and index.dim() > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    return x.dtype


# ... and these check out='s dtype before computing: its expected dtype from the arguments
_OUT_DTYPE = {"where": lambda cond, x, y, **kw: _dtypes.result_type(x, y), "index_select": _index_select_dtype,
              "dot": lambda x, y, **kw: x.dtype, "vdot": lambda x, y, **kw: x.dtype,
              "complex": lambda re, im, **kw: _complex_of(re, im),
              "polar": lambda r, theta, **kw: _complex_of(r, theta)}


def _complex_of(a, b):
    """complex / polar's out= dtype: checked when its parts agree (else their own check comes first)."""
    same = isinstance(a, Tensor) and isinstance(b, Tensor) and a.dtype is b.dtype
    return _COMPLEX_OF.get(a.dtype) if same else None


_COMPLEX_OF = {_dtypes.float32: _dtypes.complex64, _dtypes.float64: _dtypes.complex128}
_PRODUCTS = frozenset({"mm", "mv", "bmm"})  # (their out= must have the product's dtype, checked after it)
# (... and these structured kernels' out= their result's dtype, checked alike: tril, triu, isin's bool, argsort's
# int64)
_EXACT_DTYPE = frozenset({"tril", "triu", "isin", "argsort"})


# Binary TensorIterator ops whose kernels refuse some dtypes (complex, integers): with out=, PyTorch's iterator
# checks broadcasting and then whether the common dtype casts into out's before the kernel's dtype error
# (torch.atan2(f, c, out=f): "result type ComplexFloat can't be cast ...", not '"atan2_cpu" not implemented').
# The value: whether integer operands give a float result (their int_to_float promotion).
_ITERATOR_BINARY = {"atan2": True, "hypot": False, "fmod": False, "remainder": False, "copysign": True,
                    "logaddexp": False, "logaddexp2": False, "nextafter": False, "xlogy": True, "igamma": False,
                    "igammac": False, "floor_divide": False, "clamp_min": False, "clamp_max": False}


def _clamp_tensor_bounds(args, kwargs) -> list | None:
    """The bounds of clamp / clamp_min / clamp_max when they take the overload of tensors (None: of numbers)."""
    bounds = [b for b in (*args[1:3], *(kwargs or {}).values()) if b is not None]
    return bounds if bounds and all(isinstance(b, Tensor) for b in bounds) else None


def _clamp_out_cast_check(args, kwargs, out: Tensor) -> None:
    """clamp(x, min_tensor, max_tensor, out=): after its meta function's complex refusal, TensorIterator's broadcast
    and safe-cast checks (into an out= of another dtype that the common dtype casts to, the result is cast)."""
    bounds = _clamp_tensor_bounds(args, kwargs)
    if bounds is None or not args or not isinstance(args[0], Tensor) or args[0].is_complex():
        return
    for b in bounds:
        _ops._check_broadcast(args[0], b)
    dt = _dtypes.result_type(args[0], *bounds)
    if dt._kind > out.dtype._kind:
        raise RuntimeError(f"result type {_ops._legacy(dt)} can't be cast to the desired output type "
                           f"{_ops._legacy(out.dtype)}")


def _lerp_out_cast_check(args, kwargs, out: Tensor) -> None:
    """lerp(x, y, number, out=): TensorIterator's broadcast and safe-cast checks (of input and end, after the meta
    function's dtype check), before the kernel reads the weight (1+2j: "value cannot be converted")."""
    weight = args[2] if len(args) > 2 else (kwargs or {}).get("weight")
    if not (len(args) >= 2 and isinstance(args[0], Tensor) and isinstance(args[1], Tensor)
            and args[0].dtype is args[1].dtype and isinstance(weight, numbers.Number)):
        return
    if type(weight) is int:
        _ops._check_scalar_int(weight)   # (the parser's OverflowError first)
    _ops._check_broadcast(args[0], args[1])
    if args[0].dtype._kind > out.dtype._kind:
        raise RuntimeError(f"result type {_ops._legacy(args[0].dtype)} can't be cast to the desired output type "
                           f"{_ops._legacy(out.dtype)}")


def _addc_out_cast_check(name: str, tensors, out: Tensor) -> None:
    """addcmul / addcdiv(out=): the iterator's cast check into out=, before the kernel reads value (its other errors,
    addcdiv's of integers and the broadcast's, come first: left to the function)."""
    if name == "addcdiv" and not any(t.is_floating_point() or t.is_complex() for t in tensors[1:]):
        return
    try:
        np.broadcast_shapes(*(t._data.shape for t in tensors))
    except ValueError:
        return
    dt = _dtypes.result_type(*tensors)
    if dt._kind > out.dtype._kind:
        raise RuntimeError(f"result type {_ops._legacy(dt)} can't be cast to the desired output type "
                           f"{_ops._legacy(out.dtype)}")


def _iterator_cast_check(name: str, args) -> _dtypes.dtype:
    """The common dtype of a binary iterator op ``name``'s two operands, after PyTorch's broadcast check."""
    a, b = args[0], args[1]
    _ops._check_broadcast(a, b)
    dt = _dtypes.result_type(a, b)
    if _ITERATOR_BINARY[name] and not (dt.is_floating_point or dt.is_complex):
        dt = _dtypes.get_default_dtype()
    return dt


# Non-elementwise kernels whose assert_no_overlap refuses an out= that is one of their inputs (elementwise ones
# take it: x.add(y, out=x)): {name: how many leading arguments are checked} (gather's index may be out= itself)
_NO_OVERLAP_OUT = {"gather": 1, "take": 2, "index_select": 3, "masked_select": 2}
_OVERLAP = ("unsupported operation: some elements of the input tensor and the written-to tensor refer to a single "
            "memory location. Please clone() the tensor before performing the operation.")


def _checked(name: str, fn, out: Tensor, args=(), kwargs=None):
    """``fn`` (the computation) with PyTorch's checks of out='s dtype for function ``name``."""
    def compute():
        if name == "ldexp" and not (out.dtype.is_floating_point or out.dtype.is_complex):
            # (PyTorch's ldexp_out: a floating out first, then mul(input, pow(2, other), out=out)'s checks)
            raise RuntimeError(f"ldexp can't be cast to the desired output type {_ops._legacy(out.dtype)}")
        if name in _ITERATOR_BINARY and len(args) == 2 and isinstance(args[0], Tensor) and \
                isinstance(args[1], Tensor):
            dt = _iterator_cast_check(name, args)
            if dt._kind > out.dtype._kind:
                raise RuntimeError(f"result type {_ops._legacy(dt)} can't be cast to the desired output type "
                                   f"{_ops._legacy(out.dtype)}")
        if name == "addr" and len(args) >= 3 and builtins.all(isinstance(a, Tensor) for a in args[:3]):
            _addr_out_first(args[:3], out, kwargs or {})
        if name == "clamp":
            _clamp_out_cast_check(args, kwargs, out)
        if name == "lerp":
            _lerp_out_cast_check(args, kwargs, out)
        if name in ("addcmul", "addcdiv") and len(args) >= 3 and all(isinstance(a, Tensor) for a in args[:3]):
            _addc_out_cast_check(name, args[:3], out)
        if name == "heaviside" and len(args) == 2 and builtins.all(isinstance(a, Tensor) for a in args) and \
                not (args[0].is_complex() or args[1].is_complex()):   # (its meta function checks out= as an input)
            if out.is_complex():
                raise RuntimeError("heaviside is not yet implemented for complex tensors.")
            if args[0].dtype is args[1].dtype is not out.dtype:
                raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
        if name == "narrow_copy" and args and isinstance(args[0], Tensor) and args[0].dim() and \
                args[0].dtype is not out.dtype:   # (its CPU kernel's check, before those of dim, start and length)
            raise RuntimeError("Expected self.dtype() == output.dtype() to be true, but got false.  (Could this error "
                               "message be improved?  If so, please report an enhancement request to PyTorch.)")
        if name == "index_select" and len(args) >= 3 and isinstance(args[0], Tensor):
            _ops.index_select_checks(*args[:3])   # (before out='s dtype)
        if name in _OUT_DTYPE and len(args) >= 2:
            expected = _OUT_DTYPE[name](*args, **(kwargs or {}))
            if expected is not None and expected is not out.dtype:
                if name in ("complex", "polar"):
                    raise RuntimeError(f"Expected object of scalar type {_dispatch._legacy_scalar_name(expected)} but "
                                       f"got scalar type {_dispatch._legacy_scalar_name(out.dtype)} for argument 'out'")
                if name == "where":
                    raise RuntimeError(f"Expected out type to be {_dispatch._legacy_scalar_name(expected)} but got "
                                       f"{_dispatch._legacy_scalar_name(out.dtype)}")
                if name in ("dot", "vdot"):
                    raise RuntimeError(f"result dtype {_dispatch._legacy_scalar_name(out.dtype)} does not match "
                                       f"input dtype {_dispatch._legacy_scalar_name(expected)}")
                raise RuntimeError("index_select(): self and result must have the same scalar type")
        if name == "addmv" and len(args) >= 3 and all(isinstance(a, Tensor) for a in args[:3]):
            from ._ops_matrices import _check_addmv
            _check_addmv(*args[:3])  # (addmv's shape checks come first)
        if name in ("mm", "bmm") and len(args) >= 2 and all(isinstance(a, Tensor) for a in args[:2]):
            # (their meta functions: the ranks and sizes, then out='s dtype (mm's: mat1's; bmm's: batch2's), then
            # the kernel's dtype checks)
            expected = args[0 if name == "mm" else 1].dtype
            if out.dtype is not expected:
                with grad_mode.no_grad():   # (the sizes only: no dtype error)
                    getattr(_ops, name)(_ops.zeros(args[0].shape), _ops.zeros(args[1].shape))
                raise RuntimeError(f"Expected out tensor to have dtype {_ops._meta_name(expected)}, but got "
                                   f"{_ops._meta_name(out.dtype)} instead")
        if name == "mv" and len(args) >= 2 and all(isinstance(a, Tensor) for a in args[:2]):
            # (PyTorch's mv_out is addmv_out(out, s, mat, vec, 0, 1), s a new (mat.size(0),) tensor of out's dtype:
            # addmv's checks, its dtypes' too, before out='s)
            from ._ops_matrices import _check_addmv
            _check_addmv(_ops.zeros(args[0].size(0), dtype=out.dtype), *args[:2])
        if name == "baddbmm" and len(args) >= 3 and all(isinstance(a, Tensor) for a in args[:3]):
            # (baddbmm's meta function: expand and shape checks, out= of batch2's dtype, resized; then its kernel)
            from ._ops_inplace_views import resize_output
            from ._ops_matrices import _check_baddbmm
            target = tuple(_check_baddbmm(*args[:3]))
            if args[2].dtype is not out.dtype:
                raise RuntimeError(f"Expected out tensor to have dtype {_ops._meta_name(args[2].dtype)}, but got "
                                   f"{_ops._meta_name(out.dtype)} instead")
            if tuple(out._data.shape) != target:
                if out._data.size:
                    _ops._warn_resized(out._data.shape, target)
                resize_output(out, target)
        if name == "cat" and args and isinstance(args[0], (list, tuple)) and args[0] and \
                _dtypes.result_type(*args[0])._kind > out.dtype._kind:  # (vstack, hstack ...: cat's TypeError first)
            raise TypeError(f"torch.cat(): input types can't be cast to the desired output type "
                            f"{_dispatch._legacy_scalar_name(out.dtype)}")
        if name in ("addmm", "addmv") and len(args) >= 3 and \
                all(isinstance(a, Tensor) for a in args[:3]) and \
                args[0].dtype is args[1].dtype is args[2].dtype is not out.dtype:  # (before its kernel's checks)
            if name == "addmm":   # (after its meta function's checks of the factors)
                from ._ops_matrices import _check_addmm_matrices
                _check_addmm_matrices(*args[:3])
            raise RuntimeError(f"Expected out tensor to have dtype {_ops._meta_name(args[0].dtype)}, but got "
                               f"{_ops._meta_name(out.dtype)} instead")
        if name == "addbmm" and len(args) >= 3 and isinstance(args[1], Tensor) and isinstance(args[2], Tensor):
            args[1].size(1), args[2].size(2)  # (PyTorch sizes out= from these first: their dim errors)
            if isinstance(args[0], Tensor):   # (then input's expand and the batches' sizes, before any dtype)
                from ._ops_matrices import _check_addbmm
                _check_addbmm(*args[:3], in_place=False, dtypes=False)
        if name == "addbmm" and len(args) >= 3 and isinstance(args[1], Tensor) and isinstance(args[2], Tensor):
            # (PyTorch's addbmm_out copies input into out, cast, then runs addmm_ into out: out is its "self",
            # checked before the factors; input's dtype is out's)
            for x, names in ((out, "self and mat2"), (args[1], "mat1 and mat2")):
                if x.dtype is not args[2].dtype:
                    raise RuntimeError(f"{names} must have the same dtype, but got {_ops._legacy(x.dtype)} and "
                                       f"{_ops._legacy(args[2].dtype)}")
            if isinstance(args[0], Tensor) and args[0].dtype is not out.dtype:
                from ._ops_matrices import addbmm
                return addbmm(args[0].to(out.dtype), *args[1:], **kwargs)
        result = fn()
        if name in _NO_OVERLAP_OUT and builtins.any(a is out for a in args[:_NO_OVERLAP_OUT[name]]):
            raise RuntimeError(_OVERLAP)  # (x.gather(0, i, out=x): their kernels would read what they write)
        if name == "gather" and result.dtype is not out.dtype:  # (its structured kernel's out= check)
            raise RuntimeError(f"Expected out tensor to have dtype {_ops._meta_name(result.dtype)}, but got "
                               f"{_ops._meta_name(out.dtype)} instead")
        if name == "cat" and result.dtype._kind > out.dtype._kind:  # (vstack, hstack ...: cat's TypeError)
            raise TypeError(f"torch.cat(): input types can't be cast to the desired output type "
                            f"{_dispatch._legacy_scalar_name(out.dtype)}")
        if (name in _PRODUCTS or name in _EXACT_DTYPE) and result.dtype is not out.dtype:
            raise RuntimeError(f"Expected out tensor to have dtype {_ops._meta_name(result.dtype)}, but got "
                               f"{_ops._meta_name(out.dtype)} instead")
        # (|z| into a real out=: computed in complex, then its real part copied (cast, can_cast checked below);
        # into a complex out=, by the iterator: out= of z's dtype)
        complex_abs = name == "abs" and args and getattr(args[0], "is_complex", bool)()
        if complex_abs and out.dtype.is_complex and out.dtype is not args[0].dtype:
            raise RuntimeError(f"Found dtype {_dispatch._legacy_scalar_name(out.dtype)} but expected "
                               f"{_dispatch._legacy_scalar_name(args[0].dtype)}")
        if name in _SAME_DTYPE and result.dtype is not out.dtype and not complex_abs and (  # (|z| into complex out=)
                name not in _CLAMPS or _clamp_tensor_bounds(args, kwargs) is None):  # (clamp's tensor overload casts)
            raise RuntimeError(f"Found dtype {_dispatch._legacy_scalar_name(out.dtype)} but expected "
                               f"{_dispatch._legacy_scalar_name(result.dtype)}")
        if name == "nan_to_num" and result.dtype is not out.dtype:
            raise RuntimeError(f"nan_to_num: dtype of out: {_dispatch._legacy_scalar_name(out.dtype)} should be "
                               f"same as input: {_dispatch._legacy_scalar_name(result.dtype)}")
        if name in ("signbit", "isneginf", "isposinf") and out.dtype is not _dtypes.bool_:
            raise RuntimeError(f"{name} does not support non-boolean outputs.")
        return result
    return compute


def _addr_out_first(args, out: Tensor, kwargs: dict) -> None:
    """addr_out's iterator before beta's and alpha's checks: the arguments' checks, the result type's cast into out=,
    then out= resized (with the warning). An out= of another dtype is written through a temporary of the result
    type, and resized only when that is copied back: the warning, not the resize, precedes the scalars' errors."""
    from ._ops_inplace_views import resize_output
    from ._ops_matrices import _check_addr_scalars, addr_iter
    shape, dt = addr_iter(*args)
    if dt._kind > out.dtype._kind:
        raise RuntimeError(f"result type {_ops._legacy(dt)} can't be cast to the desired output type "
                           f"{_ops._legacy(out.dtype)}")
    if tuple(out._data.shape) == shape:
        return
    if out.dtype is dt:
        if out._data.size:
            _ops._warn_resized(out._data.shape, shape)
        resize_output(out, shape)
    elif out._data.size:
        try:
            _check_addr_scalars(dt, kwargs.get("beta", 1), kwargs.get("alpha", 1))
        except RuntimeError:
            _ops._warn_resized(out._data.shape, shape)
            raise


def _float_power_out(args, out: Tensor) -> None:
    """float_power's out= must be float64, or complex128 when an operand is complex."""
    complex_ = builtins.any(isinstance(a, complex) or (isinstance(a, Tensor) and a.is_complex()) for a in args)
    expected = _dtypes.complex128 if complex_ else _dtypes.float64
    if out.dtype is not expected:
        raise RuntimeError(f"the output given to float_power has dtype {_dispatch._legacy_scalar_name(out.dtype)} "
                           f"but the operation's result requires dtype {_dispatch._legacy_scalar_name(expected)}")


def with_out(fn, name: str):
    """``fn`` taking PyTorch's keyword ``out=`` (the result copied into it by ``_ops._into_out``)."""
    vmap_name = name if name in _vmap_batched.LIST_OUT else None   # (hstack: vmap names it, not the cat it runs)
    name = _NAMES.get(name, name)
    differentiable = name not in _NOT_DIFFERENTIABLE

    @functools.wraps(fn)
    def wrapped(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        if autocast_mode.ON[0]:  # (autocast's lists have no out= variants: they run as they are)
            return autocast_mode.without(wrapped, *args, out=out, **kwargs)
        if name == "float_power":  # (a composite: its dtype check comes before the out= refusal of its pow)
            _float_power_out(args, out)
        if name in _COPY_OUT:
            result = fn(*args, **kwargs)
            if result.dtype._kind > out.dtype._kind:   # (can_cast, before the resize)
                raise RuntimeError(f"result type {_dispatch._legacy_scalar_name(result.dtype)} can't be cast to the "
                                   f"desired output type {_dispatch._legacy_scalar_name(out.dtype)}")
            return _resized_copy(result, out, name)
        if name == "argsort" and "stable" not in kwargs:   # (out= is only in its overload with stable=)
            raise _arg_errors.invalid_combination(name, args, {**kwargs, "out": out},
                                                  _arg_errors.FUNCTION_OVERLOADS[name])
        for position, arg in _TENSORS_ONLY.get(name, ()):  # (out= is only in an all-tensor overload)
            if position <= len(args) and not isinstance(args[position - 1], Tensor):
                raise _arg_errors.must_be(name, arg, "Tensor", args[position - 1], position)
        if not differentiable:
            if name in _REFUSE_LEAF_OUT and out._requires_grad and out._grad_fn is None and \
                    grad_mode.is_grad_enabled():
                raise RuntimeError(f"aten::{name}(): functions with out=... arguments don't support automatic "
                                   "differentiation, but one of the arguments requires grad.")
            given = [t for t in (*args, *kwargs.values()) if isinstance(t, Tensor)]
            if name in _NOT_IMPLEMENTED_OUT and _records(given, out):   # (heaviside: out gets its NotImplemented node)
                return _not_implemented_into(name, out, given, _checked(name, lambda: fn(*args, **kwargs), out, args,
                                                                        kwargs))
            with grad_mode.no_grad():
                return _ops._into_out(name, out, args, _checked(name, lambda: fn(*args, **kwargs), out, args, kwargs))
        tensors = [*args[0], *args[1:]] if args and isinstance(args[0], (list, tuple)) else args  # (cat's list)
        if grad_mode.is_grad_enabled() and any(isinstance(t, Tensor) and t.requires_grad for t in (*tensors, out)):
            # PyTorch's argument TypeErrors come before its out=/autograd refusal (and no kernel's warnings: ldexp's
            # resize of its intermediate)
            with grad_mode.no_grad(), unseen():
                try:
                    fn(*args, **kwargs)
                except TypeError:
                    raise
                except Exception:  # noqa: BLE001 - the kernel's errors come after the refusal
                    if name in _COMPOSITE:  # (its own checks run before the ops it is made of)
                        raise
        return _ops._into_out(_REFUSED_BY.get(name, name), out, tensors,
                              _checked(name, lambda: fn(*args, **kwargs), out, args, kwargs), vmap_name)
    return wrapped


def _softmax_out(fn, name: str):
    """torch.softmax / log_softmax taking ``out=``: dim's check, then out='s dtype (dtype= or the input's), then
    the kernel; an out= requiring grad is refused, and out gets a NotImplemented node when the input requires grad
    (PyTorch's softmax.int_out has no derivative)."""
    @functools.wraps(fn)
    def wrapped(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        if autocast_mode.ON[0]:  # (autocast's lists have no out= variants: they run as they are)
            return autocast_mode.without(wrapped, *args, out=out, **kwargs)
        if not isinstance(out, Tensor):
            raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
        given = {**dict(zip(("input", "dim", "dtype"), args)), **kwargs}
        x, dtype = given.get("input"), given.get("dtype")
        if not isinstance(x, Tensor) or "dim" not in given:
            return fn(*args, **kwargs)   # (its own argument errors)
        _ops._wrap_dim(_ops._check_int_dim(name, given["dim"]), x.dim())
        if out.requires_grad and grad_mode.is_grad_enabled():
            raise RuntimeError(f"aten::{name}(): functions with out=... arguments don't support automatic "
                               "differentiation, but one of the arguments requires grad.")
        expected = x.dtype if dtype is None else _dtypes.to_dtype(dtype)
        if out.dtype is not expected:
            raise _meta_mismatch(expected, out.dtype)

        def compute():
            with grad_mode.no_grad():
                return fn(*args, **kwargs)
        if _records([x], out, views=True):
            return _not_implemented_into(name, out, [x], compute)
        with grad_mode.no_grad():
            return _ops._into_out(name, out, [x], compute)
    return wrapped


def _histogram_out(fn):
    """torch.histogram taking ``out=(hist, bin_edges)``, each of the input's dtype: an out= requiring grad is
    refused; the out tensors get the NotImplemented node when the input (or weight) requires grad."""
    @functools.wraps(fn)
    def wrapped(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        if not isinstance(out, (tuple, list)) or not builtins.all(isinstance(o, Tensor) for o in out):
            raise _arg_errors.invalid_combination("histogram", args, {**kwargs, "out": out},
                                                  _arg_errors.FUNCTION_OVERLOADS["histogram"])
        if len(out) != 2:
            raise TypeError(f"expected tuple of 2 elements but got {len(out)}")
        if grad_mode.is_grad_enabled() and builtins.any(o.requires_grad for o in out):
            raise RuntimeError("aten::histogram(): functions with out=... arguments don't support automatic "
                               "differentiation, but one of the arguments requires grad.")
        x, weight = args[0] if args else kwargs.get("input"), kwargs.get("weight")
        bins = args[1] if len(args) > 1 else kwargs.get("bins")
        if isinstance(x, Tensor) and not (isinstance(bins, Tensor) and bins.dtype is not x.dtype):
            # (after the bin edges' own dtype check, before the kernel's checks and its dtype error)
            for o, what, where in zip(out, ("hist", "bin_edges"), ("", " for dimension 0")):
                if o.dtype is not x.dtype:
                    raise RuntimeError(f"torch.histogram: input tensor and {what} tensor should have the same dtype, "
                                       f"but got input {_ops._meta_name(x.dtype)} and {what} "
                                       f"{_ops._meta_name(o.dtype)}{where}")
        with grad_mode.no_grad():
            result = fn(*args, **kwargs)
            for o, r in zip(out, result):
                _ops._into_out("histogram", o, [x], lambda r=r: r)
        tensors = tuple(t for t in (x, weight) if isinstance(t, Tensor))
        if grad_mode.is_grad_enabled() and builtins.any(t.requires_grad for t in tensors):
            from . import derivatives
            derivatives.NOT_IMPLEMENTED["histogram" if weight is None else "histogram_weight"]._record(
                tensors, tuple(out), {})
        return return_types.histogram_out(tuple(out))
    return wrapped


def install(namespace: dict) -> None:
    """Give each function of OUT_FUNCTIONS in ``namespace`` (minigrad's) an ``out=`` if it has none."""
    for name in ("softmax", "log_softmax"):
        if "out" not in (getattr(namespace[name], "__kwdefaults__", None) or {}):
            namespace[name] = _softmax_out(namespace[name], name)
    if "out" not in (getattr(namespace["histogram"], "__kwdefaults__", None) or {}):
        namespace["histogram"] = _histogram_out(namespace["histogram"])
    for name in OUT_FUNCTIONS:
        fn = namespace.get(name)
        if fn is None or "out" in (getattr(fn, "__kwdefaults__", None) or {}):
            continue
        namespace[name] = with_out(fn, name)
    for name in (*REDUCTION_OUT, *PAIR_OUT):
        fn = namespace.get(name)
        if fn is not None and "out" not in (getattr(fn, "__kwdefaults__", None) or {}):
            namespace[name] = with_reduction_out(fn, name)
    for name, options in NO_OUT.items():
        if name in namespace:
            namespace[name] = _refusing_out(namespace[name], name, options)
    if "ger" in namespace:
        namespace["ger"] = _ger_out(namespace["ger"], namespace["outer"])


def _ger_out(ger, outer):
    """torch.ger: outer by its deprecated name, whose out= form (PyTorch's ger_out) warns at every call."""
    @functools.wraps(ger)
    def wrapped(input, vec2, *, out=None):
        if out is None:
            return ger(input, vec2)
        from ._tensor import _user_stacklevel
        warnings.warn("torch.ger is deprecated and will be removed in a future PyTorch release. Use torch.outer "
                      "instead. (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
                      "LinearAlgebra.cpp:1270.)", UserWarning, stacklevel=_user_stacklevel())
        return outer(input, vec2, out=out)
    return wrapped


# Functions with no out= in any overload: PyTorch's parser lists their overloads (count_nonzero, std_mean, var_mean)
NO_OUT = {
    "count_nonzero": ("(Tensor input, int dim = None)", "(Tensor input, tuple of ints dim)"),
    "std_mean": ("(Tensor input, tuple of ints dim, bool unbiased = True, bool keepdim = False)",
                 "(Tensor input, tuple of ints dim = None, *, Number correction = None, bool keepdim = False)",
                 "(Tensor input, bool unbiased = True)"),
}
NO_OUT["var_mean"] = NO_OUT["std_mean"]


def _refusing_out(fn, name: str, options: tuple):
    """``fn`` refusing ``out=`` with PyTorch's "invalid combination of arguments" TypeError (not Python's own)."""
    @functools.wraps(fn)
    def wrapped(*args, **kwargs):
        if "out" in kwargs:
            raise _arg_errors.invalid_combination(name, args, kwargs, options)
        return fn(*args, **kwargs)
    return wrapped


# The reductions, scans and sorts: out= is one tensor (REDUCTION_OUT) or a (values, indices) pair (PAIR_OUT;
# max/min take either: one tensor when they reduce everything or compare two tensors)
REDUCTION_OUT = ("sum", "prod", "nansum", "cumsum", "cumprod", "mean", "nanmean", "std", "var", "logsumexp", "amax",
                 "amin", "argmax", "argmin", "norm", "all", "any", "msort", "max", "min", "quantile", "nanquantile",
                 "diff", "histc")
PAIR_OUT = ("sort", "max", "min", "topk", "kthvalue", "median", "nanmedian", "mode", "cummax", "cummin", "aminmax",
            "frexp")
_IN_OUT_DTYPE = frozenset({"sum", "prod", "nansum", "cumsum", "cumprod"})  # (computed in out='s dtype)
_INDICES_ONLY = frozenset({"argmax", "argmin", "all", "any", "histc"})  # (no derivative: copied even while recording)
_REFUSAL_NAMES = {"norm": "linalg_vector_norm", "msort": "sort", "nanmean": "nansum", "diff": "sub"}
# ... and PyTorch's composites that copy their differentiable result into out= (CopyBackwards) instead of refusing
_COPIED_INTO_OUT = frozenset({"quantile", "nanquantile"})


def _meta_mismatch(expected, got) -> RuntimeError:
    return RuntimeError(f"Expected out tensor to have dtype {_ops._meta_name(expected)}, but got "
                        f"{_ops._meta_name(got)} instead")


def _check_out_dtype(name: str, x, result: Tensor, out: Tensor, dtype) -> None:
    """PyTorch's dtype check of a reduction's single out= (``dtype``: the function's own dtype= argument)."""
    legacy = _dispatch._legacy_scalar_name
    if name in _IN_OUT_DTYPE and dtype is not None and dtype is not out.dtype:
        raise _meta_mismatch(dtype, out.dtype)
    if name in ("argmax", "argmin") and out.dtype is not _dtypes.int64:
        raise _meta_mismatch(_dtypes.int64, out.dtype)
    if name in ("norm", "msort") and result.dtype is not out.dtype:
        raise _meta_mismatch(result.dtype, out.dtype)
    if name in ("amax", "amin") and x.dtype is not out.dtype:
        raise RuntimeError(f"Expected the dtype for input and out to match, but got {legacy(x.dtype)} for input's "
                           f"dtype and {legacy(out.dtype)} for out's dtype.")
    if name == "logsumexp" and out.dtype._kind < 2:  # (complex is accepted)
        raise RuntimeError(f"logsumexp(): Expected floating point type for result tensor, but got: "
                           f"{legacy(out.dtype)}")
    if name in _COPIED_INTO_OUT and x.dtype is not out.dtype:
        raise RuntimeError(f"{name}() out tensor must be same dtype as the input tensor")
    if name == "histc" and x.dtype is not out.dtype:
        raise RuntimeError(f"torch.histogram: input tensor and hist tensor should have the same dtype, but got input "
                           f"{_ops._meta_name(x.dtype)} and hist {_ops._meta_name(out.dtype)}")
    if name in ("all", "any") and out.dtype not in (_dtypes.bool_, _dtypes.uint8):
        raise RuntimeError(f"{name} only supports bool tensor for result, got: {legacy(out.dtype)}")


def _check_pair_dtypes(name: str, x: Tensor, values: Tensor, indices: Tensor) -> None:
    """PyTorch's dtype checks of out=(values, indices), each kernel with its own message."""
    legacy = _dispatch._legacy_scalar_name
    expected = (x.dtype, x.dtype if name == "aminmax" else _dtypes.int32 if name == "frexp" else _dtypes.int64)
    for out, want in zip((values, indices), expected):
        if out.dtype is want:
            continue
        if name == "frexp":   # (mantissa, exponent)
            raise RuntimeError(f"torch.frexp() expects mantissa to have dtype {_ops._meta_name(want)} but got "
                               f"{_ops._meta_name(out.dtype)}" if out is values else
                               f"torch.frexp() expects exponent to have int dtype but got {_ops._meta_name(out.dtype)}")
        if name in ("cummax", "cummin"):
            raise RuntimeError(f"expected scalar_type {legacy(want)} but found {legacy(out.dtype)}")
        if out is values and name in ("median", "nanmedian"):
            raise RuntimeError(f"Expected tensor for 'values' to have the same type as tensor for argument #2 'self'; "
                               f"but type torch.{legacy(out.dtype)}Tensor does not equal torch.{legacy(want)}Tensor "
                               f"(while checking arguments for {name})")
        if out is values and name == "mode":
            raise RuntimeError(f"expected scalar type '{legacy(want)}' but got '{legacy(out.dtype)}' for values output")
        if out is values and name == "kthvalue":
            raise RuntimeError("output values must be of same type as input")
        if name in ("median", "nanmedian"):
            raise RuntimeError(f"Expected tensor for argument #1 'indices' to have scalar type Long; but got "
                               f"{_ops._tensor_type_name(out.dtype)} instead (while checking arguments for {name})")
        if name == "mode":
            raise RuntimeError(f"expected scalar type 'Long' but got '{legacy(out.dtype)}' for indices output")
        if name == "kthvalue":
            raise RuntimeError("output indices must be of scalar type Long")
        raise _meta_mismatch(want, out.dtype)


def _check_overload(name: str, args: tuple, kwargs: dict, out) -> None:
    """PyTorch's TypeError when out= is given to an overload without one (sum(x) reduces all: no out=)."""
    no_dim = len(args) < (3 if name == "kthvalue" else 2) and "dim" not in kwargs
    if name in ("sum", "prod") and no_dim:
        raise _arg_errors.invalid_combination(name, args, {**kwargs, "out": out},
                                              _arg_errors.FUNCTION_SIGNATURES[name])
    if name in ("median", "nanmedian") and no_dim:
        raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')
    if name in ("max", "min") and not no_dim and not isinstance(out, (tuple, list)) and \
            not (len(args) > 1 and isinstance(args[1], Tensor)):  # (max(x, dim) takes a pair)
        raise _arg_errors.invalid_combination(name, args, {**kwargs, "out": out},
                                              _arg_errors.FUNCTION_SIGNATURES[name])
    if name == "sort" and not isinstance(out, (tuple, list)):
        from ._ops_sorting import _SORT_OVERLOADS
        raise _arg_errors.invalid_combination(name, args, {**kwargs, "out": out}, _SORT_OVERLOADS)


def _copied_into_out(result: Tensor, name: str, x: Tensor, out: Tensor) -> Tensor:
    """A composite's out=: its (differentiable) result copied into ``out``, resized first if need be."""
    _check_out_dtype(name, x, result, out, None)
    if result.shape != out.shape:
        _resize_out(name, out, lambda: result.detach())
    out.copy_(result)
    return out


def _resize_out(name: str, out: Tensor, value) -> None:
    """out= resized to the shape of ``value()`` (with PyTorch's warning unless empty) before the op writes it:
    PyTorch's resize_output is no write, so out='s version counts the op's one write only (not this copy)."""
    with grad_mode.no_grad():
        _ops._into_out(name, out, [], value)
    out._version_counter[0] -= 1


def _norm_positional_out(args: tuple, out, kwargs: dict):
    """torch.norm is Python in PyTorch, ``norm(input, p, dim, keepdim, out, dtype)``: out and dtype by position."""
    if len(args) > 6:
        raise TypeError(f"norm() takes from 1 to 6 positional arguments but {len(args)} were given")
    for param, value in zip(("out", "dtype"), args[4:]):
        if param in kwargs or param == "out" and out is not None:
            raise TypeError(f"norm() got multiple values for argument '{param}'")
        if param == "out":
            out = value
        else:
            kwargs = {**kwargs, "dtype": value}
    return args[:4], out, kwargs


def with_reduction_out(fn, name: str):
    """``fn`` (a reduction, scan or sort) taking PyTorch's ``out=``: one tensor, or a pair for PAIR_OUT."""
    pair = name in PAIR_OUT
    single = name in REDUCTION_OUT

    @functools.wraps(fn)
    def wrapped(*args, out=None, **kwargs):
        if name == "norm" and len(args) > 4:
            args, out, kwargs = _norm_positional_out(args, out, kwargs)
        if out is None:
            return fn(*args, **kwargs)
        if autocast_mode.ON[0]:  # (autocast's lists have no out= variants: they run as they are)
            return autocast_mode.without(wrapped, *args, out=out, **kwargs)
        is_pair = isinstance(out, (tuple, list))
        _check_overload(name, args, kwargs, out)
        if (is_pair and not pair) or (not is_pair and not single) or \
                not builtins.all(isinstance(o, Tensor) for o in (out if is_pair else (out,))):
            kind = "tuple of Tensors" if pair and not single else "Tensor"
            raise TypeError(f"{name}(): argument 'out' must be {kind}, not {type(out).__name__}")
        if is_pair and len(out) != 2:
            raise TypeError(f"expected tuple of 2 elements but got {len(out)}")
        outs = tuple(out) if is_pair else (out,)
        tensors = [a for a in (*args, *kwargs.values()) if isinstance(a, Tensor)]
        refused = _REFUSAL_NAMES.get(name, name)
        if name in ("max", "min") and len(args) > 1 and isinstance(args[1], Tensor):
            refused = {"max": "maximum", "min": "minimum"}[name]  # (max(x, y) is maximum)
        x = args[0] if args else kwargs.get("input")
        if name in _COPIED_INTO_OUT:
            return _copied_into_out(fn(*args, **kwargs), name, x, out)
        if name not in _INDICES_ONLY and grad_mode.is_grad_enabled() and \
                builtins.any(t.requires_grad for t in (*tensors, *outs)):
            raise RuntimeError(f"{refused}(): functions with out=... arguments don't support automatic "
                               "differentiation, but one of the arguments requires grad.")
        with grad_mode.no_grad():
            if is_pair:
                result = fn(*args, **kwargs)
                if name == "kthvalue" and outs[0] is x:  # (its kernel's assert_no_overlap(self, values))
                    raise RuntimeError(_OVERLAP)
                _check_pair_dtypes(name, x, *outs)
                for o, r in zip(outs, result):
                    _ops._into_out(refused, o, tensors, lambda r=r: r)
                return return_types._OUT_TYPES[name](outs)
            dtype = kwargs.get("dtype")
            if name in ("std", "var") and "dtype" in kwargs:  # (no overload of theirs takes a dtype)
                raise _arg_errors.invalid_combination(name, args, {**kwargs, "out": out},
                                                      _arg_errors.FUNCTION_SIGNATURES[name])
            if name == "mean" and isinstance(x, Tensor) and len(args) < 2 and "dim" not in kwargs and \
                    x.dtype._kind > out.dtype._kind:   # (mean.dtype_out, the overload without dim: can_cast first)
                raise RuntimeError(f"mean.dtype_out(): input types can't be cast to the desired output type "
                                   f"{_ops._legacy(out.dtype)}")
            if isinstance(x, Tensor) and name not in _CHECKED_AFTER and (dtype is None or name in _TAKE_DTYPE):
                _check_dtype_first(name, x, out, dtype)
                _check_out_dtype(name, x, None, out, dtype)  # (PyTorch's meta function: before the computation)
            if name in _IN_OUT_DTYPE and dtype is None:
                kwargs = {**kwargs, "dtype": out.dtype}  # (PyTorch accumulates in out='s dtype)
            if name in _IDENTITY and isinstance(x, Tensor) and np.may_share_memory(x._data, out._data):
                return _reduced_into_overlapping_out(fn, name, args, kwargs, x, out)
            compute = _COMPUTED_IN_OUT.get(name)
            if compute is not None and isinstance(x, Tensor) and dtype is None:
                result = compute(fn, args, kwargs, x, out)
            else:
                result = fn(*args, **kwargs)
            if isinstance(x, Tensor) and name in _CHECKED_AFTER:
                _check_out_dtype(name, x, result, out, dtype)
            return _ops._into_out(refused, out, tensors, lambda: result)
    return wrapped


# ---- out= sharing the input's memory (torch.sum(c, 0, out=c), out=c[0]): PyTorch's reduce_op checks no overlap;
# its meta function resizes out first (c itself too, when out is c), the kernel fills out with the reduction's
# identity, then reads the input, the elements it just filled included
_IDENTITY = {"sum": 0, "nansum": 0, "mean": 0, "nanmean": 0, "prod": 1, "all": True, "any": False, "amax": "lowest",
             "amin": "highest"}


def _reduced_into_overlapping_out(fn, name: str, args, kwargs, x: Tensor, out: Tensor) -> Tensor:
    """A reduction into an ``out=`` that shares ``x``'s memory, computed as PyTorch's kernel runs."""
    from ._ops_inplace_views import resize_output
    shape = tuple(fn(*args, **kwargs).shape)   # (the dims' errors first, on x as it was)
    for again in (False, True):
        if tuple(out._data.shape) != shape:
            if out._data.size:
                _ops._warn_resized(out._data.shape, shape)
            resize_output(out, shape)
        if again or x is not out or name in ("nansum", "nanmean"):
            break
        # out is x: the structured kernel wraps its dims again, on the resized x (sum(c, 1, out=c): IndexError);
        # mean's kernel is sum's out= variant, whose meta function resizes out once more
        dim = args[1] if len(args) > 1 else kwargs.get("dim")
        if isinstance(dim, (int, tuple, list)):
            _ops._raw_dims(dim, x.dim())
        if name != "mean":
            break
        shape = tuple(fn(*args, **kwargs).shape)
    identity = _IDENTITY[name]
    if isinstance(identity, str):  # (amax/amin: -inf/inf, or the integer dtype's bound)
        info = _dtypes.finfo(out.dtype) if out.dtype.is_floating_point else None
        if out.dtype is _dtypes.bool_:
            identity = identity == "highest"
        elif info is not None:
            identity = -float("inf") if identity == "lowest" else float("inf")
        else:
            bounds = _dtypes.iinfo(out.dtype)
            identity = bounds.min if identity == "lowest" else bounds.max
    out._data[...] = identity
    # out is x: each element reduces to the identity just written; else x is read with the filled elements
    result = out.clone() if x is out else fn(*args, **kwargs)
    return _ops._into_out(name, out, [], lambda: result)


# ---- out='s dtype first: what PyTorch's out= kernels check before computing, and compute in out='s dtype ----
# (checked once the result is known: norm/msort's out= must have its dtype; argmax/argmin check their dim first)
_CHECKED_AFTER = frozenset({"norm", "msort", "argmax", "argmin"})
_TAKE_DTYPE = _IN_OUT_DTYPE | {"mean", "nanmean"}  # (the others refuse a dtype= argument first: a TypeError)
_REDUCED = (_dtypes.float16, _dtypes.bfloat16)


def _check_dtype_first(name: str, x: Tensor, out: Tensor, dtype) -> None:
    """The dtype errors PyTorch's out= variants of mean/nanmean/nansum raise before anything else."""
    legacy = _dispatch._legacy_scalar_name
    if name == "nanmean" and not (x.dtype.is_floating_point or x.dtype.is_complex):
        raise RuntimeError("nanmean(): integral types and 'Bool' are not supported for nanmean, even for empty "
                           "tensors.")
    if dtype is not None and dtype is not out.dtype:
        if name in ("nansum", "nanmean"):
            raise RuntimeError(f"nansum: provided dtype must match dtype of result. Got {legacy(out.dtype)} and "
                               f"{legacy(dtype)}.")
        if name == "mean":
            raise _meta_mismatch(dtype, out.dtype)


def _wider(x: Tensor, want) -> bool:
    """True if a float/complex ``x`` is computed in ``want`` (a float/complex dtype of x's kind or above) instead."""
    return want is not x.dtype and x.dtype._kind >= 2 and want._kind >= x.dtype._kind


def _mean_in_out(fn, args, kwargs, x, out):
    """mean.out: PyTorch sums into out (float32 for a float16/bfloat16 out) in its dtype, then divides."""
    if out.dtype._kind < x.dtype._kind:
        return _mean_into_lower_kind(fn, args, kwargs, x, out)
    want = _dtypes.float32 if out.dtype in _REDUCED else out.dtype
    rest = {k: v for k, v in kwargs.items() if k != "input"}   # (x given as input=x)
    return fn(x.to(want), *args[1:], **rest) if _wider(x, want) else fn(*args, **kwargs)


def _mean_into_lower_kind(fn, args, kwargs, x, out):
    """mean.out into an integer/bool out of a float x, or a real out of a complex x. PyTorch's meta function resizes
    out (warning), then mean_out runs ``sum(x, dim, dtype=out.dtype, out=out).div_(n)``: x is cast to out's dtype
    term by term (the imaginary parts dropped, with the cast warning), and an integer out refuses the true division's
    float result only after the sums were written into it. A real out gets the mean of the real parts."""
    shape = fn(*args, **kwargs).shape   # (the dims' errors first)
    if out.shape != shape:
        if out.numel():
            _ops._warn_resized(out._data.shape, tuple(shape))
        from ._ops_inplace_views import resize_output
        resize_output(out, tuple(shape))
    total = _ops.sum(*args, **{**kwargs, "dtype": out.dtype})
    if out.dtype._kind < 2:
        out._data[...] = total._data   # (no version bump: PyTorch's comes after the kernel, which raised)
        raise RuntimeError(f"result type {_ops._legacy(_dtypes.get_default_dtype())} can't be cast to the desired "
                           f"output type {_ops._legacy(out.dtype)}")
    return total.div_(x.numel() // total.numel() if total.numel() else 1)


def _nanmean_in_out(fn, args, kwargs, x, out):
    """nanmean.out: nansum into out (in its dtype: no integer or complex nansum kernel for a real x), / the count."""
    result = fn(*args, **kwargs)  # (the dims' errors first)
    if x.dtype.is_floating_point and not out.dtype.is_floating_point:
        raise NotImplementedError(f"\"nansum_cpu\" not implemented for '{_ops._legacy(out.dtype)}'")
    return fn(*args, **kwargs, dtype=out.dtype) if _wider(x, out.dtype) else result


def _nansum_in_out(fn, args, kwargs, x, out):
    """nansum.out: no integer nor bool kernel for a float input summed in out='s dtype."""
    if x.dtype.is_floating_point and out.dtype._kind < 2:
        fn(*args, **{**kwargs, "dtype": None})  # (the dims' errors first)
        raise NotImplementedError(f"\"nansum_cpu\" not implemented for '{_ops._legacy(out.dtype)}'")
    return fn(*args, **kwargs)


def _var_in_out(fn, args, kwargs, x, out):
    """var.out / std.out: the Welford pass runs in out='s dtype (on x cast to it), unless one value is computed:
    then PyTorch's std_var_all_cpu runs on x as it is, for float32/float64 x only."""
    result = fn(*args, **kwargs)
    if out.dtype._kind < x.dtype._kind:
        return result  # (refused when copied into out: "result type ... can't be cast")
    if result.numel() <= 1 and out.dtype not in _REDUCED:
        if x.dtype in _REDUCED:
            raise RuntimeError(f"std_var_all: Unsupported dtype {_ops._legacy(x.dtype)}")
        return result
    if out.dtype.is_complex and not x.dtype.is_complex:
        raise NotImplementedError(f"\"std_cpu\" not implemented for '{_ops._legacy(out.dtype)}'")
    if out.dtype in (_dtypes.float32, _dtypes.float64) and x.dtype.is_floating_point and x.dtype is not out.dtype:
        return fn(x.to(out.dtype), *args[1:], **kwargs)
    return result


def _logsumexp_in_out(fn, args, kwargs, x, out):
    """logsumexp.out: exp in x's dtype (float32 for integers), their sum, log and the max added back in out's."""
    result = fn(*args, **kwargs)  # (its argument errors first)
    if x.dtype is out.dtype or out.dtype._kind < 2 or not x.numel():
        return result
    dims = _ops._raw_dims(args[1] if len(args) > 1 else kwargs["dim"], x.dim())
    keepdim = args[2] if len(args) > 2 else kwargs.get("keepdim", False)
    if not x.dtype.is_floating_point:
        x = x.to(_dtypes.get_default_dtype())
    m = _ops.amax(x, dims, keepdim=True)
    m = _ops.where(m.abs() == float("inf"), _ops.zeros_like(m), m)  # (an infinite max is taken as 0)
    total = _ops.sum((x - m).exp(), dims, keepdim, dtype=out.dtype)
    return total.log_().add_(m if keepdim else m.squeeze(dims))


_COMPUTED_IN_OUT = {"mean": _mean_in_out, "nanmean": _nanmean_in_out, "nansum": _nansum_in_out, "var": _var_in_out,
                    "std": _var_in_out, "logsumexp": _logsumexp_in_out}


# torch.special functions without an out= of their own: the name PyTorch's out= errors give each
SPECIAL_OUT = {
    "gammaln": "lgamma", "psi": "digamma", "digamma": "digamma", "erf": "erf", "erfc": "erfc", "erfinv": "erfinv",
    "exp2": "exp2", "expm1": "expm1", "log1p": "log1p", "sinc": "sinc", "round": "round", "expit": "sigmoid",
    "logit": "logit", "i0": "i0", "i0e": "special_i0e", "i1": "special_i1", "i1e": "special_i1e",
    "ndtri": "special_ndtri", "log_ndtr": "special_log_ndtr", "entr": "special_entr", "erfcx": "special_erfcx",
    "ndtr": "special_ndtr", "xlog1py": "special_xlog1py", "xlogy": "xlogy", "gammainc": "igamma",
    "gammaincc": "igammac", "multigammaln": "mvlgamma", "logsumexp": "logsumexp", "polygamma": "polygamma"}


def install_special(namespace: dict) -> None:
    """Give the functions of SPECIAL_OUT in ``namespace`` (minigrad.special's) PyTorch's ``out=``."""
    for key, name in SPECIAL_OUT.items():
        fn = namespace.get(key)
        if fn is not None and "out" not in (getattr(fn, "__kwdefaults__", None) or {}):
            namespace[key] = with_out(fn, name)


# x //= y ...: the operators PyTorch maps to in-place methods (+=, -=, *=, /= are Tensor's own)
_INPLACE_OPERATORS = {"__ifloordiv__": "floor_divide_", "__imod__": "remainder_",
                      "__iand__": "bitwise_and_", "__ior__": "bitwise_or_", "__ixor__": "bitwise_xor_",
                      "__ilshift__": "bitwise_left_shift_", "__irshift__": "bitwise_right_shift_"}


def _inplace_operator(method: str):
    def operator(self, other):
        try:
            return getattr(self, method)(other)
        except TypeError:
            return NotImplemented
    operator.__name__ = method
    return operator


def attach() -> None:
    """The in-place operators on Tensor (each calls the in-place method, defined in _ops_inplace_math)."""
    for dunder, method in _INPLACE_OPERATORS.items():
        if dunder not in vars(Tensor):
            setattr(Tensor, dunder, _inplace_operator(method))


# ---- out= of torch.linalg and torch.fft: one table, three orders of PyTorch's checks ----
# "refused": PyTorch's autograd kernel refuses out= (an input or out requiring grad) before anything else, then
#   the function's own checks and out='s dtype (linalg.det, inv, qr, svd ...);
# "checked": a composite checks its arguments and out='s dtype first, then the kernel it calls refuses (the fft
#   family, multi_dot, vecdot, eigvals);
# "copied": a differentiable composite copies its result into out= (CopyBackwards: linalg.norm, cond ...).
def _same(result, out):
    if result.dtype is not out.dtype:
        raise _meta_mismatch(result.dtype, out.dtype)


def _castable(label: str, what: str = "result"):
    """PyTorch's ``checkLinalgCompatibleDtype``: the result may be cast to out='s dtype, never down a category."""
    def check(result, out):
        if result.dtype._kind > out.dtype._kind:
            legacy = _dispatch._legacy_scalar_name
            raise RuntimeError(f"{label}: Expected {what} to be safely castable from {legacy(result.dtype)} dtype, "
                               f"but got {what} with dtype {legacy(out.dtype)}")
    return check


def _norm_dtype(label: str):
    def check(result, out):
        if result.dtype is not out.dtype:
            legacy = _dispatch._legacy_scalar_name
            raise RuntimeError(f"{label} expected out tensor dtype {legacy(result.dtype)} but got: "
                               f"{legacy(out.dtype)}")
    return check


def _multi_dot_dtype(result, out):
    if result.dtype is not out.dtype:
        raise RuntimeError(f"multi_dot(): expected out tensor to have dtype {_ops._meta_name(result.dtype)} but got "
                           f"{_ops._meta_name(out.dtype)}")


def _vecdot_dtype(result, out):
    if result.dtype is not out.dtype:
        legacy = _dispatch._legacy_scalar_name
        raise RuntimeError(f"linalg.vecdot: Expected out of dtype{legacy(result.dtype)} but found {legacy(out.dtype)}")


def _scalar_type(result, out):
    """linalg.solve_triangular's out= must have its result's dtype."""
    if result.dtype is not out.dtype:
        legacy = _dispatch._legacy_scalar_name
        raise RuntimeError(f"expected scalar type {legacy(result.dtype)} but found {legacy(out.dtype)}")


def _fft_output(label: str, complex_: bool):
    """The fft family takes any complex out= (any floating one for irfft/hfft): the value is cast into it."""
    def check(result, out):
        if (out.dtype.is_complex if complex_ else out.dtype.is_floating_point):
            return
        kind = "complex" if complex_ else "floating point"
        raise RuntimeError(f"{label} expects a {kind} output tensor, but got "
                           f"{_dispatch._legacy_scalar_name(out.dtype)}")
    return check


def _no_check(result, out):
    pass


# name: (order, the kernel refusing out= under autograd (None: not refused; or a function of the input giving
# it), out='s dtype check)
LINALG_OUT = {
    "det": ("refused", "_linalg_det", _same), "inv": ("refused", "linalg_inv_ex", _same),
    "solve": ("refused", "_linalg_solve_ex", _same), "cholesky": ("refused", "linalg_cholesky_ex", _same),
    "vector_norm": ("refused", "linalg_vector_norm", _same), "eigvalsh": ("refused", "_linalg_eigh", _same),
    "svdvals": ("refused", "_linalg_svd", _same), "cross": ("refused", "linalg_cross", _same),
    "matrix_power": ("checked", "matmul", _castable("matrix_power")),
    "pinv": ("refused", "linalg_pinv", _castable("linalg.pinv")),
    "householder_product": ("refused", "linalg_householder_product",
                            _castable("torch.linalg.householder_product")),
    "solve_triangular": ("refused", "linalg_solve_triangular", _scalar_type),
    "lu_solve": ("refused", "linalg_lu_solve", _same),
    "matrix_rank": ("refused", None, _no_check),
    "multi_dot": ("checked", "mm", _multi_dot_dtype), "vecdot": ("checked", "sum", _vecdot_dtype),
    "eigvals": ("checked", None, _castable("torch.linalg.eigvals", "eigenvalues")),
    "norm": ("copied", None, _norm_dtype("linalg.norm")),
    "matrix_norm": ("copied", None, _norm_dtype("linalg.matrix_norm")),
    "cond": ("copied", None, _castable("linalg.cond")), "tensorinv": ("copied", None, _castable("tensorinv")),
    "tensorsolve": ("copied", None, _castable("tensorsolve")), "ldl_solve": ("refused", None, _same),
    # the decompositions: out= is a tuple of tensors, each of its result's dtype
    "qr": ("refused", "linalg_qr", _same), "eigh": ("refused", "_linalg_eigh", _same),
    "svd": ("refused", "_linalg_svd", _same), "slogdet": ("refused", "_linalg_slogdet", _same),
    "inv_ex": ("refused", "linalg_inv_ex", _same), "cholesky_ex": ("refused", "linalg_cholesky_ex", _same),
    "solve_ex": ("refused", "_linalg_solve_ex", _same), "lu_factor": ("refused", "linalg_lu_factor_ex", _same),
    "lu_factor_ex": ("refused", "linalg_lu_factor_ex", _same), "lu": ("refused", "linalg_lu", _same),
    "eig": ("refused", "linalg_eig", _castable("torch.linalg.eig", "eigenvalues")),
    "lstsq": ("refused", "linalg_lstsq", _no_check),
    "ldl_factor": ("refused", None, _same), "ldl_factor_ex": ("refused", None, _same),
}


def _by_input(complex_kernel: str, real_kernel):
    """The kernel refusing fft / ifft's out=: c2c for a complex input, else ``real_kernel`` (r2c for fft; None for
    ifft, whose conjugated r2c of a real input PyTorch writes into out= without refusing)."""
    return lambda x: real_kernel if isinstance(x, Tensor) and not x.is_complex() else complex_kernel


def _fft(label: str, refused, complex_: bool = True):
    return ("checked", refused, _fft_output(label, complex_))


# (fft2 / fftn of a real input are c2c too: PyTorch makes the input complex first; so are ihfft2 / ihfftn)
FFT_OUT = {
    "fft": _fft("fft", _by_input("_fft_c2c", "_fft_r2c")), "ifft": _fft("ifft", _by_input("_fft_c2c", None)),
    "rfft": _fft("rfft", "_fft_r2c"), "irfft": _fft("irfft", "_fft_c2r", False),
    "hfft": _fft("hfft", "_fft_c2r", False), "ihfft": _fft("ihfft", None),
    "fft2": _fft("fftn", "_fft_c2c"), "ifft2": _fft("fftn", "_fft_c2c"), "fftn": _fft("fftn", "_fft_c2c"),
    "ifftn": _fft("fftn", "_fft_c2c"), "rfft2": _fft("rfftn", "_fft_r2c"), "rfftn": _fft("rfftn", "_fft_r2c"),
    "irfft2": _fft("irfftn", "_fft_c2r", False), "irfftn": _fft("irfftn", "_fft_c2r", False),
    "hfft2": _fft("hfftn", "_fft_c2r", False), "hfftn": _fft("hfftn", "_fft_c2r", False),
    "ihfft2": _fft("ihfftn", "_fft_c2c"), "ihfftn": _fft("ihfftn", "_fft_c2c"),
}


def _out_type(result):
    """The structseq PyTorch returns for out=(...): torch.return_types.linalg_qr_out ..., holding the out tensors."""
    name = type(result).__name__ + "_out"
    if not hasattr(return_types, name):
        setattr(return_types, name, return_types._named(name, *type(result)._field_names))
    return getattr(return_types, name)


def _resized_copy(result: Tensor, out: Tensor, name: str) -> Tensor:
    """A differentiable result copied into out= (resized first, with PyTorch's warning when not empty)."""
    if result.shape != out.shape:
        _resize_out(name, out, lambda: result.detach())
    out.copy_(result)
    return out


def with_table_out(fn, name: str, order: str, refused, check, prefix: str = "linalg_"):
    """``fn`` (a torch.linalg or torch.fft function) taking PyTorch's ``out=``: see LINALG_OUT (``prefix``: of
    the name PyTorch's argument errors give it, linalg_det, fft_fft)."""
    @functools.wraps(fn)
    def wrapped(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        if autocast_mode.ON[0]:
            return autocast_mode.without(wrapped, *args, out=out, **kwargs)
        tensors = [t for a in (*args, *kwargs.values()) for t in (a if isinstance(a, (list, tuple)) else (a,))
                   if isinstance(t, Tensor)]
        if _vmap_batched.DEPTH[0]:  # (vmap refuses out= first, by the function's own name: aten::linalg_det.out)
            _vmap_out(prefix + name, out, tensors, args, kwargs)
        kernel = refused(args[0] if args else kwargs.get("input")) if callable(refused) else refused
        if isinstance(out, (tuple, list)) or name in _TUPLE_RESULTS:
            return _tuple_out(fn, name, kernel, check, out, args, kwargs, tensors)
        if not isinstance(out, Tensor):
            raise TypeError(f"{prefix}{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
        if name in _REFUSE_GRAD_OUT and out.requires_grad and grad_mode.is_grad_enabled():
            raise RuntimeError(f"{_REFUSE_GRAD_OUT[name]}(): functions with out=... arguments don't support "
                               "automatic differentiation, but one of the arguments requires grad.")
        if order == "copied":
            result = fn(*args, **kwargs)
            check(result, out)
            return _resized_copy(result, out, name)

        grad_on = grad_mode.is_grad_enabled()   # (compute may run under no_grad below)

        def compute():
            result = _kernel_after_out_dtype(fn, name, args, kwargs, (out,))
            if name == "solve_triangular":  # (its kernel resizes out= before checking its dtype)
                _resize_only(name, out, result)
            check(result, out)
            if kernel is None and name in ("ifft", "ihfft"):   # (then conj_physical_out: autograd's refusal first)
                if out.requires_grad and grad_on:
                    raise RuntimeError("aten::conj_physical(): functions with out=... arguments don't support "
                                       "automatic differentiation, but one of the arguments requires grad.")
                _exact_dtype(result, out)
            return result
        if kernel is None:  # (not differentiable: copied even while autograd records)
            if name in _NOT_IMPLEMENTED_OUT and builtins.any(t._fw_grad is not None for t in (*tensors, out)):
                # (forward AD: the autograd fallback of the kernel refuses before anything is written)
                raise NotImplementedError(f"Trying to use forward AD with aten::{_NOT_IMPLEMENTED_OUT[name]} that "
                                          "does not support it.")
            if name in _NOT_IMPLEMENTED_OUT and _records(tensors, out):
                if name == "ldl_solve":   # (the node's inputs in their order, however they were passed)
                    tensors = [*args, *(kwargs[k] for k in ("LD", "pivots", "B") if k in kwargs)][:3]
                return _not_implemented_into(name, out, tensors, compute)
            with grad_mode.no_grad():
                return _ops._into_out(name, out, tensors, compute)
        if order == "checked":  # (the composite's checks first, then its kernel's refusal)
            with grad_mode.no_grad():
                result = compute()
                if name in _RESIZED_FIRST:
                    _resize_only(name, out, result)
            post = _RESIZED_FIRST.get(name, _no_check)
            return _ops._into_out(kernel, out, tensors, lambda: (post(result, out), result)[1])
        return _ops._into_out(kernel, out, tensors, compute)
    return wrapped


# "checked" composites that resize out= before the kernel they call into it refuses, and that kernel's own check
# of out='s dtype (matrix_power is matmul(A, A, out=out) ..., multi_dot ends with mm(..., out=out))
_RESIZED_FIRST = {"matrix_power": _same, "multi_dot": _no_check}
# ... and those refusing an out= that requires grad before anything else (not their inputs: no derivative)
_REFUSE_GRAD_OUT = {"matrix_rank": "sum", "eigvals": "aten::linalg_eigvals", "ldl_solve": "aten::linalg_ldl_solve"}


# out= through a kernel with no derivative: PyTorch writes the values, then records a NotImplemented node on out
# (whose backward raises "derivative for aten::<kernel> is not implemented") when an input requires grad; an out=
# that requires grad itself is refused. ifft / ihfft of a real input: conj_physical_out of the recorded r2c.
_NOT_IMPLEMENTED_OUT = {"ifft": "conj_physical", "ihfft": "conj_physical", "eigvals": "linalg_eigvals",
                        "ldl_solve": "linalg_ldl_solve", "ldl_factor": "linalg_ldl_factor_ex",
                        "ldl_factor_ex": "linalg_ldl_factor_ex", "softmax": "softmax", "log_softmax": "log_softmax",
                        "heaviside": "heaviside"}


def _records(tensors, out: Tensor, views: bool = False) -> bool:
    """Whether the write into out (not a view unless ``views``: those keep the plain copy) records a NotImplemented
    node (softmax's views: a CopySlices on the base, see _not_implemented_into)."""
    return (grad_mode.is_grad_enabled() and (views or out._base is None)
            and builtins.any(t.requires_grad for t in tensors)
            and not builtins.any(t._fw_grad is not None for t in (*tensors, out)))


def _not_implemented_into(name: str, out: Tensor, tensors, compute):
    """``compute()``'s values written into out (checked and resized as any out=), then out's NotImplemented node,
    with edges to the inputs that require grad (for ifft / ihfft: to the r2c transform, recorded here)."""
    computed = []

    def recorded():
        with grad_mode.enable_grad():
            computed.append(compute())
        return computed[0]
    with grad_mode.no_grad():
        _ops._into_out(name, out, tensors, recorded)
    from . import derivatives
    op = derivatives.NOT_IMPLEMENTED[_NOT_IMPLEMENTED_OUT[name]]
    if name in ("ifft", "ihfft"):   # (the result is conj(r2c): the node's one edge goes where the conj's goes)
        result = computed[0]
        op._record((result,), (out,), {}, edges=((result.grad_fn._next_node,), (result.grad_fn._next_nrs[0],)))
    elif out._base is not None and out._view_fn is not None:
        # (a view: PyTorch's rebase_history puts the node in a CopySlices on the base, as for an in-place op)
        from ._dispatch import _record_copy_slices
        _record_copy_slices(op, out, tuple(tensors), {}, None)
        out._requires_grad = True
    else:
        op._record(tuple(tensors), (out,), {})
    return out


# Structured kernels whose meta function sets out= to the input's dtype (and checks it) before the CPU kernel refuses
# an integer input: eigh / eigvalsh (_linalg_eigh: eigenvalues and vectors), lu_factor (its LU; the pivots are int);
# and linalg.inv / inverse, whose linalg_inv_ex checks out= before inv reports a singular matrix
_OUT_DTYPE_BEFORE_KERNEL = {"eigvalsh": 2, "eigh": 2, "lu_factor": 1, "lu_factor_ex": 1, "inv": 1, "inverse": 1,
                            "inv_ex": 1}


def _kernel_after_out_dtype(fn, name: str, args, kwargs, outs):
    """``fn(*args, **kwargs)``; for the functions above, an out= of another dtype than the (integer) input's is
    reported before the kernel's "not implemented for 'Long'" (or inv's singular-matrix error)."""
    try:
        return fn(*args, **kwargs)
    except (NotImplementedError, _LinAlgError):
        x = args[0] if args else kwargs.get("A")
        if name in _OUT_DTYPE_BEFORE_KERNEL and isinstance(x, Tensor):
            for o in outs[:_OUT_DTYPE_BEFORE_KERNEL[name]]:
                if isinstance(o, Tensor) and o.dtype is not x.dtype:
                    raise _meta_mismatch(x.dtype, o.dtype) from None
        raise


def _vmap_out(name: str, out, tensors, args, kwargs) -> None:
    """PyTorch's refusal of out= inside vmap when a batched tensor is involved."""
    outs = [o for o in (out if isinstance(out, (tuple, list)) else (out,)) if isinstance(o, Tensor)]
    if name == "linalg_multi_dot" and builtins.any(_vmap_batched.levels(t) for t in (*outs, *tensors)):
        raise RuntimeError("Batching rule not implemented for aten::linalg_multi_dot.out. We could not generate a "
                           "fallback.")
    ord_ = args[1] if len(args) > 1 else kwargs.get("ord", "fro")
    if name == "linalg_matrix_norm" and isinstance(ord_, str):
        name = "linalg_matrix_norm.str_ord"  # (its overload for ord="fro" / "nuc": aten::...str_ord_out)
        if builtins.any(_vmap_batched.levels(t) for t in (*outs, *tensors)):
            raise RuntimeError(f"Batching rule not implemented for aten::{name}_out; the fallback path doesn't work "
                               "on out= or view ops.")
    if outs:
        _vmap_batched.check_out(name, outs[0], [*outs[1:], *tensors])


def _resize_only(name: str, out: Tensor, result: Tensor) -> None:
    """out= resized to the result's shape (with PyTorch's warning unless empty) before the checks that follow."""
    if result.shape != out.shape:
        _resize_out(name, out, lambda: result.to(out.dtype))


def _exact_dtype(result, out):
    """ifft / ihfft of a real input: conj_physical_ of the r2c written into out=, which must have its dtype."""
    if result.dtype is not out.dtype:
        legacy = _dispatch._legacy_scalar_name
        raise RuntimeError(f"Found dtype {legacy(out.dtype)} but expected {legacy(result.dtype)}")


# the linalg functions returning a tuple: out= is a tuple of as many tensors
_TUPLE_RESULTS = frozenset({"qr", "eigh", "svd", "slogdet", "inv_ex", "cholesky_ex", "solve_ex", "lu_factor",
                            "lu_factor_ex", "lu", "eig", "lstsq", "ldl_factor", "ldl_factor_ex"})


def _tuple_out(fn, name, kernel, check, out, args, kwargs, tensors):
    """out=(Q, R) ...: each result copied into its out tensor; PyTorch returns ``linalg_qr_out`` of the outs."""
    if not isinstance(out, (tuple, list)) or not builtins.all(isinstance(o, Tensor) for o in out):
        raise TypeError(f"linalg_{name}(): argument 'out' must be tuple of Tensors, not {type(out).__name__}")
    if kernel is not None and grad_mode.is_grad_enabled() and \
            builtins.any(t.requires_grad for t in (*tensors, *out)):
        raise RuntimeError(f"{kernel}(): functions with out=... arguments don't support automatic "
                           "differentiation, but one of the arguments requires grad.")
    not_implemented = kernel is None and name in _NOT_IMPLEMENTED_OUT   # (ldl_factor: see _not_implemented_into)
    if not_implemented and grad_mode.is_grad_enabled() and builtins.any(o.requires_grad for o in out):
        raise RuntimeError(f"aten::{_NOT_IMPLEMENTED_OUT[name]}(): functions with out=... arguments don't support "
                           "automatic differentiation, but one of the arguments requires grad.")
    records = not_implemented and _records(tensors, out[0])
    with grad_mode.no_grad():
        result = _kernel_after_out_dtype(fn, name, args, kwargs, out)
        if len(out) != len(result):
            raise TypeError(f"expected tuple of {len(result)} elements but got {len(out)}")
        for r, o in zip(result, out):
            check(r, o)
        for r, o in zip(result, out):
            _ops._into_out(kernel or name, o, tensors, lambda r=r: r)  # (kernel: named in its forward-AD error)
    if records:   # (the factor only: the pivots and info are integers)
        from . import derivatives
        derivatives.NOT_IMPLEMENTED[_NOT_IMPLEMENTED_OUT[name]]._record(tuple(tensors), (out[0],), {})
    return _out_type(result)(tuple(out))


def install_table(namespace: dict, table: dict, prefix: str) -> None:
    """Give the functions of ``table`` (LINALG_OUT, FFT_OUT) in ``namespace`` PyTorch's ``out=``."""
    for name, (order, refused, check) in table.items():
        fn = namespace.get(name)
        if fn is not None and "out" not in (getattr(fn, "__kwdefaults__", None) or {}):
            namespace[name] = with_table_out(fn, name, order, refused, check, prefix)
