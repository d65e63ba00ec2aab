"""In-place forms PyTorch has beside its functions: ``x.eq_(y)``, ``x.logical_and_(y)``, ``x.bitwise_or_(y)``,
``x.atan2_(y)``, ``x.remainder_(y)``, ``x.cumsum_(0)``, ``x.tril_()``, ``x.fill_diagonal_(v)``, ``x.addmm_(a, b)``,
``x.polygamma_(n)`` ...; and ``index_reduce`` / ``index_reduce_``.

Each computes what the function computes and writes it into ``x`` through the table op's in-place path
(version bump, leaf and view errors, CopySlices: ``_dispatch``). The node is the one PyTorch records for the
in-place form, which is not always the function's: ``x.eq_(y)`` records EqBackward1 (zero gradients),
``x.logical_and_(y)`` and the bitwise ones none at all.
"""
from __future__ import annotations

import functools

import numpy as np

from . import _arg_errors, _dispatch, _dtypes, _ops, _ops_math
from . import derivatives as D
from ._igamma import _check as _check_igamma
from ._tensor import Tensor
from ._warn_once import warn_once
from .autograd import forward_ad, grad_mode


def _shape_check(input: Tensor, values: np.ndarray) -> None:
    if values.shape != input._data.shape:
        raise RuntimeError(f"output with shape {list(input._data.shape)} doesn't match the broadcast shape "
                           f"{list(values.shape)}")


# ---- PyTorch's TypeErrors for arguments of the wrong type (the method forms: no self, positions from 1)
_NUMBERS = (int, float, complex, np.number, np.bool_)


def _tensor_arg(name: str, arg: str, value, position: int) -> None:
    if not isinstance(value, Tensor):
        raise _arg_errors.must_be(name, arg, "Tensor", value, position)


def _int_arg(name: str, arg: str, value, position: int) -> None:
    if not _arg_errors._is_int(value):
        raise _arg_errors.must_be(name, arg, "int", value, position)


def _tensor_or_number(name: str, other) -> None:
    """A method with a (Tensor other) and a (Number other) overload, given neither."""
    if not isinstance(other, (Tensor, *_NUMBERS)):
        raise _arg_errors.invalid_combination(name, (other,), {}, ("(Tensor other)", "(Number other)"))


def _cast_check(input: Tensor, dt: _dtypes.dtype) -> None:
    """PyTorch's canCast for an in-place result: never down a category (float into an int tensor)."""
    if dt._kind > input.dtype._kind:
        raise RuntimeError(f"result type {_ops._legacy(dt)} can't be cast to the desired output type "
                           f"{_ops._legacy(input.dtype)}")


def _no_internal_overlap(input: Tensor) -> None:
    """TensorIterator's first check of an in-place op: input's elements may not share memory (an expanded tensor),
    before any shape, cast or dtype error ("atan2_cpu" not implemented for 'ComplexFloat' ...)."""
    a = input._data
    if a.size and any(st == 0 and n > 1 for st, n in zip(a.strides, a.shape)):
        _dispatch._check_overlapping_write(None, input, ())


def _iterator_checks(input: Tensor, other, to_float: bool = False) -> None:
    """An in-place binary op's TensorIterator errors, in its order: memory overlap, broadcasting, the output's shape,
    the cast of the promoted result type into input (all before the kernel's dtype errors: "atan2_cpu" not
    implemented ...). ``to_float``: an op that promotes integers to the default float dtype (atan2, xlogy)."""
    _no_internal_overlap(input)
    if isinstance(other, Tensor):   # (x.hypot_(x[0]): the partial overlap with the input, before any dtype error)
        _dispatch._check_no_partial_overlap(input, [other])
    other_shape = other._data.shape if isinstance(other, Tensor) else ()
    _ops._check_broadcast(input, other)
    shape = np.broadcast_shapes(input._data.shape, other_shape)
    if shape != input._data.shape:
        raise RuntimeError(f"output with shape {list(input._data.shape)} doesn't match the broadcast shape "
                           f"{list(shape)}")
    _cast_check(input, _float_result_type(input, other) if to_float else _dtypes.result_type(input, other))


def _float_result_type(input: Tensor, other) -> _dtypes.dtype:
    """The result type of an op that promotes integers (and bools) to the default float dtype."""
    dt = _dtypes.result_type(input, other)
    return dt if dt._kind >= 2 else _dtypes.get_default_dtype()


def _record_into(op, input: Tensor, others: tuple, result: Tensor) -> Tensor:
    """Write ``result`` (computed by the caller) into input, recorded by ``op`` (which takes ``_result``)."""
    _shape_check(input, result._data)
    return op.call((input, *others), None, input, {"_result": result._data})


def _write_unrecorded(input: Tensor, others: tuple, result: Tensor) -> Tensor:
    """Write ``result`` into input without a node: PyTorch's logical and bitwise in-place ops record none."""
    values = result._data
    _shape_check(input, values)
    _cast_check(input, result.dtype)
    _dispatch._check_no_partial_overlap(input, [t for t in others if isinstance(t, Tensor)])
    input._data[...] = _dispatch._quiet_astype(values, input._data.dtype)
    _dispatch._check_inference_write(input)
    input._version_counter[0] += 1
    return input


# =============================================================================================
# Comparisons: x becomes 0/1 in its own dtype (EqBackward0 for a number, EqBackward1 for a tensor)
# =============================================================================================

def _comparison_(np_fn, name: str):
    def method(input, other):
        _tensor_or_number(name + "_", other)
        number = not isinstance(other, Tensor)
        # (no batching rule: vmap's fallback, before the kernel's checks)
        _ops._vmap_batched.fallback(f"{name}_.{'Scalar' if number else 'Tensor'}", input, other, out=input)
        _no_internal_overlap(input)
        result = _ops._compare(np_fn, input, other, True)   # (the function's checks and errors)
        return _record_into(D.INPLACE_COMPARISONS[name, number], input, () if number else (other,), result)
    method.__name__ = method.__qualname__ = name + "_"
    method.__doc__ = f"In-place {name}: 1 where the comparison holds, else 0 (in input's dtype)."
    return method


eq_, ne_ = _comparison_(np.equal, "eq"), _comparison_(np.not_equal, "ne")
lt_, le_ = _comparison_(np.less, "lt"), _comparison_(np.less_equal, "le")
gt_, ge_ = _comparison_(np.greater, "gt"), _comparison_(np.greater_equal, "ge")
greater_, greater_equal_, less_, less_equal_, not_equal_ = (
    _dispatch.captured_alias(fn, name, _dispatch.tensor_or_scalar, composite=True)
    for fn, name in ((gt_, "greater_"), (ge_, "greater_equal_"), (lt_, "less_"), (le_, "less_equal_"),
                     (ne_, "not_equal_")))


# =============================================================================================
# Logical and bitwise: no node (the logical ones are composites in PyTorch: never refused, even on a leaf)
# =============================================================================================

def _logical_(fn, name: str):
    def method(input, other):
        _tensor_arg(name + "_", "other", other, 1)
        _dispatch.check_captured_write(input, f"aten::{name}_")   # (composites, but torch.func checks them too)
        _ops._vmap_batched.check_inplace(name, input, (other,))
        return _write_unrecorded(input, (other,), fn(input, other))
    method.__name__ = method.__qualname__ = name + "_"
    method.__doc__ = f"In-place {name} (1 or 0 in input's dtype)."
    return method


logical_and_ = _logical_(_ops.logical_and, "logical_and")
logical_or_ = _logical_(_ops.logical_or, "logical_or")
logical_xor_ = _logical_(_ops.logical_xor, "logical_xor")


def logical_not_(input):
    """In-place logical_not (1 where input is 0, else 0, in input's dtype)."""
    _dispatch.check_captured_write(input, "aten::logical_not_")
    return _write_unrecorded(input, (), _ops.logical_not(input))


def _bitwise_(fn, name: str):
    def method(input, other):
        _tensor_or_number(name + "_", other)
        _ops._vmap_batched.check_inplace(name, input, (other,))
        _no_internal_overlap(input)
        _cast_check(input, _dtypes.result_type(input, other))   # (before the kernel's dtype error, as PyTorch)
        return _write_unrecorded(input, (other,), fn(input, other))
    method.__name__ = method.__qualname__ = name + "_"
    method.__doc__ = f"In-place {name}."
    return method


bitwise_and_ = _bitwise_(_ops_math.bitwise_and, "bitwise_and")
bitwise_or_ = _bitwise_(_ops_math.bitwise_or, "bitwise_or")
bitwise_xor_ = _bitwise_(_ops_math.bitwise_xor, "bitwise_xor")
bitwise_left_shift_ = _bitwise_(_ops_math.bitwise_left_shift, "bitwise_left_shift")
bitwise_right_shift_ = _bitwise_(_ops_math.bitwise_right_shift, "bitwise_right_shift")


def bitwise_not_(input):
    """In-place bitwise_not."""
    return _write_unrecorded(input, (), _ops_math.bitwise_not(input))


# =============================================================================================
# Two-tensor math: the function's table op, written into input
# =============================================================================================

def atan2_(input, other):
    """In-place atan2."""
    _tensor_arg("atan2_", "other", other, 1)
    _ops._vmap_batched.check_inplace("atan2_", input, (other,))   # (vmap's rule: its kernel's shape error first)
    _iterator_checks(input, other, to_float=True)
    _ops._no_complex_kernel("atan2", input, other, inplace=True)
    return _ops._binary(D.atan2, input, other, out=input, promote_int_to_float=True)


arctan2_ = _dispatch.captured_alias(atan2_, "arctan2_")


def hypot_(input, other):
    """In-place hypot."""
    _tensor_arg("hypot_", "other", other, 1)
    _ops._vmap_batched.check_inplace("hypot_", input, (other,))   # (vmap's fallback refuses before the kernel)
    _iterator_checks(input, other)
    _ops._no_complex_kernel("hypot", input, other, inplace=True)
    _ops_math._float_only("hypot", input, other)
    return _ops._binary(D.hypot, input, other, out=input)


def copysign_(input, other):
    """In-place copysign."""
    _tensor_or_number("copysign_", other)
    _ops._vmap_batched.check_inplace("copysign_", input, (other,))   # (vmap's rule: its kernel's shape error first)
    _no_internal_overlap(input)
    if isinstance(other, Tensor):   # (TensorIterator's overlap check comes first, as in _iterator_checks)
        _dispatch._check_no_partial_overlap(input, [other])
    _cast_check(input, _float_result_type(input, other))   # (a complex other: the cast error before the kernel's)
    _ops._no_complex_kernel("copysign", input, other, inplace=True)
    dt = _dtypes.result_type(input, other)
    dt = dt if dt.is_floating_point else _dtypes.get_default_dtype()
    if isinstance(other, Tensor):
        return D.copysign(input, other, dtype=dt, out=input)
    return D.copysign_scalar(input, dtype=dt, out=input, other=other)


def xlogy_(input, other):
    """In-place xlogy (XlogyBackward0, or XlogyBackward2 for a number)."""
    if not isinstance(input, Tensor):   # (torch.xlogy_(2.0, x))
        raise _arg_errors.invalid_combination("xlogy_", (input, other), {}, (
            "(Tensor input, Tensor other)", "(Tensor input, Number other)"))
    _tensor_or_number("xlogy_", other)
    _ops._vmap_batched.check_inplace("xlogy_", input, (other,))   # (vmap's fallback refuses before the kernel)
    _iterator_checks(input, other, to_float=True)
    _ops._no_complex_kernel("xlogy", input, other, inplace=True)
    if isinstance(other, Tensor):
        return _ops._binary(D.xlogy, input, other, out=input, promote_int_to_float=True)
    dt = _dtypes.result_type(input, other)
    return D.xlogy_scalar(input, dtype=dt if dt.is_floating_point else _dtypes.get_default_dtype(), out=input,
                          other=other)


def remainder_(input, other):
    """In-place remainder (the sign of the divisor)."""
    _tensor_or_number("remainder_", other)
    _ops._vmap_batched.check_inplace("remainder_", input, (other,))   # (vmap's fallback refuses before the kernel)
    _iterator_checks(input, other)
    _ops_math._no_integer_zero_divisor(input, other, "remainder")
    if isinstance(other, Tensor):
        return _ops._binary(D.remainder_tensor, input, other, out=input)
    dt = _dtypes.result_type(input, other)
    return D.remainder(input, dtype=dt, out=input, other=_ops_math._in_int_range(other, dt))   # (-2: 254 in uint8)


def fmod_(input, other):
    """In-place fmod (the sign of the dividend)."""
    _tensor_or_number("fmod_", other)
    _ops._vmap_batched.check_inplace("fmod_", input, (other,))   # (vmap's fallback refuses before the kernel)
    _iterator_checks(input, other)
    _ops_math._no_integer_zero_divisor(input, other, "fmod")
    if isinstance(other, Tensor):
        return _ops._binary(D.fmod_tensor, input, other, out=input)
    return D.fmod(input, dtype=_dtypes.result_type(input, other), out=input, other=other)


def floor_divide_(input, other):
    """In-place floor_divide (PyTorch records a NotImplemented node)."""
    _tensor_or_number("floor_divide_", other)
    _iterator_checks(input, other)   # (the result type's cast before the kernel's "div_floor_cpu" error)
    result = _ops._rounded_div(input.detach(), other.detach() if isinstance(other, Tensor) else other, "floor")
    if isinstance(other, Tensor):
        return _record_into(D.NOT_IMPLEMENTED["floor_divide_"], input, (other,), result)
    return _record_into(D.NOT_IMPLEMENTED["floor_divide_scalar_"], input, (), result)


def float_power_(input, exponent):
    """In-place float_power: input must already be float64 (complex128 for complex arguments)."""
    def is_complex(x):
        return x.is_complex() if isinstance(x, Tensor) else isinstance(x, complex)
    dt = _dtypes.complex128 if is_complex(input) or is_complex(exponent) else _dtypes.float64
    overload = "float_power_" + _dispatch.tensor_or_scalar((exponent,), {})
    _dispatch.check_captured_write(input, "aten::" + overload)
    with _ops._vmap_batched.composite(overload, input, exponent, out=input):   # (before the dtype check)
        _ops._vmap_batched.check_inplace("float_power_", input, (exponent,))   # (decomposed: pow_'s refusal)
        if input.dtype is not dt:
            raise RuntimeError(f"the base given to float_power_ has dtype {_ops._legacy(input.dtype)} but the "
                               f"operation's result requires dtype {_ops._legacy(dt)}")
        if isinstance(exponent, Tensor):
            return _ops.pow_(input, _ops.to(exponent, dt))
        return _ops.pow_(input, complex(exponent) if dt.is_complex else float(exponent))


def heaviside_(input, values):
    """In-place heaviside (PyTorch records a NotImplemented node)."""
    _tensor_arg("heaviside_", "values", values, 1)
    _ops._vmap_batched.check_inplace("heaviside_", input, (values,))   # (vmap's fallback refuses before the kernel)
    if input.is_complex() or (isinstance(values, Tensor) and values.is_complex()):
        raise RuntimeError("heaviside is not yet implemented for complex tensors.")
    if input.dtype is values.dtype:  # (PyTorch's dtype check, then TensorIterator's overlap one)
        _no_internal_overlap(input)
    result = _ops_math.heaviside(input.detach(), values.detach() if isinstance(values, Tensor) else values)
    return _record_into(D.NOT_IMPLEMENTED["heaviside_"], input, (values,), result)


def igamma_(input, other):
    """In-place igamma."""
    _tensor_arg("igamma_", "other", other, 1)
    _ops._vmap_batched.check_inplace("igamma_", input, (other,))   # (vmap's fallback refuses before the kernel)
    _cast_check(input, _dtypes.result_type(input, other))   # (TensorIterator's, before the kernel's dtype error)
    _check_igamma(input, other, "igamma")
    return _ops._binary(D.igamma, input, other, out=input)


def igammac_(input, other):
    """In-place igammac."""
    _tensor_arg("igammac_", "other", other, 1)
    _ops._vmap_batched.check_inplace("igammac_", input, (other,))   # (vmap's fallback refuses before the kernel)
    _cast_check(input, _dtypes.result_type(input, other))   # (TensorIterator's, before the kernel's dtype error)
    _check_igamma(input, other, "igammac")
    return _ops._binary(D.igammac, input, other, out=input)


# =============================================================================================
# Along a dim, triangles, diagonal, addmm, special functions
# =============================================================================================

def _same_dtype(input, dtype) -> None:
    if dtype is not None and _dtypes.to_dtype(dtype) is not input.dtype:
        raise RuntimeError(f"Bad in-place call: input tensor dtype {_ops._meta_name(input.dtype)} and output tensor "
                           f"dtype {_ops._meta_name(_dtypes.to_dtype(dtype))} should match")


def _no_bool(name: str, input) -> None:
    if input.dtype is _dtypes.bool_:
        raise NotImplementedError(f"\"{name}\" not implemented for 'Bool'")


def cumsum_(input, dim, *, dtype=None):
    """In-place cumsum (in input's own dtype)."""
    _int_arg("cumsum_", "dim", dim, 1)
    _ops._raw_dims(dim, input.dim())  # (the dim's error first; an empty or 0-dim tensor runs no kernel)
    if input.numel() and input.dim():
        _no_bool("cumsum_out_cpu", input)
    _same_dtype(input, dtype)
    return D.cumsum(input, out=input, dim=_ops._raw_dims(dim, input.dim())[0])


def cumprod_(input, dim, *, dtype=None):
    """In-place cumprod (in input's own dtype)."""
    _int_arg("cumprod_", "dim", dim, 1)
    _ops._raw_dims(dim, input.dim())  # (the dim's error first; an empty or 0-dim tensor runs no kernel)
    if input.numel() and input.dim():
        _no_bool("cumprod_out_cpu", input)
    _same_dtype(input, dtype)
    return D.cumprod(input, out=input, dim=_ops._raw_dims(dim, input.dim())[0])


def _triangle_(op, name: str, input, diagonal: int):
    diagonal = _arg_errors.scalar_arg(diagonal, name + "_", "diagonal", 1, "SymInt")
    _int_arg(name + "_", "diagonal", diagonal, 1)
    if input.dim() < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    result = op(input, out=input, diagonal=int(diagonal))
    if _dispatch.is_expanded(input._data):
        # PyTorch's kernel writes only the zeros, so a memory location that some element of the expanded tensor
        # zeroes stays 0 even where another element sharing it keeps its value (the copy above: the last wins)
        rows, cols = input._data.shape[-2:]
        offset = np.arange(cols)[None, :] - np.arange(rows)[:, None]   # column - row
        zeroed = offset > diagonal if name == "tril" else offset < diagonal
        input._data[..., zeroed] = 0
    return result


def tril_(input, diagonal: int = 0):
    """In-place tril: zero above the ``diagonal``-th diagonal."""
    return _triangle_(D.tril, "tril", input, diagonal)


def triu_(input, diagonal: int = 0):
    """In-place triu: zero below the ``diagonal``-th diagonal."""
    return _triangle_(D.triu, "triu", input, diagonal)


def fill_diagonal_(input, fill_value, wrap: bool = False):
    """Fill the main diagonal (of a 2-D or an all-equal-sides tensor) with ``fill_value``, in place.

    PyTorch's composite: ``fill_`` on an ``as_strided`` view of the diagonal, so autograd records a
    CopySlices; ``wrap``: a tall matrix's diagonal starts again below its first N+1 rows.
    """
    from ._ops_inplace_views import as_strided
    fill_value = _arg_errors.scalar_arg(fill_value, "fill_diagonal_", "fill_value", 1, "Number")   # (its parser)
    _dispatch.check_captured_write(input, "aten::fill_diagonal_")   # (torch.func's check of the composite itself)
    _ops._vmap_batched.fallback("fill_diagonal_", input, out=input, composite=True)   # (before its own checks)
    if input.dim() < 2:
        raise RuntimeError("dimensions must larger than 1")
    height, width = input.shape[0], input.shape[1]
    if input.dim() > 2 and any(n != height for n in input.shape[1:]):
        raise RuntimeError("all dimensions of input must be of equal length")
    offset = input.storage_offset()
    if _ops._vmap_batched.DEPTH[0]:  # (as_strided takes an example's offset from its batch's start there, see
        offset -= _ops._vmap_batched.batch_offset(input)  # batch_offset; PyTorch fills each example by its fallback)
    stride = sum(input.stride())
    size = min(height, width)
    diagonal = as_strided(input, (size,), (stride,), offset)
    if isinstance(fill_value, complex) and not input.is_complex():  # (no imaginary part into a real dtype)
        _dispatch._check_inplace(diagonal, False)   # (autograd's refusal of the view first)
        _ops._check_fill_fits(fill_value, input.dtype, size)   # (the diagonal's fill)
    diagonal.fill_(fill_value)
    if wrap and input.dim() == 2 and height > width + 1:
        step = width + 1
        wrap_size = (input.numel() + step - 1) // step - size
        as_strided(input, (wrap_size,), (stride,), offset + input.stride(0) * (width + 1)).fill_(fill_value)
    return input


@_arg_errors.beta_first("addmm_")
def addmm_(input, mat1, mat2, *, beta=1, alpha=1):
    """In-place addmm: input = beta·input + alpha·(mat1 @ mat2)."""
    from ._ops_matrices import addmm
    _tensor_arg("addmm_", "mat1", mat1, 1)
    _tensor_arg("addmm_", "mat2", mat2, 2)
    for x, y, names in ((input, mat2, "self and mat2"), (mat1, mat2, "mat1 and mat2")):  # (PyTorch's first checks)
        if x.dtype is not y.dtype:
            raise RuntimeError(f"{names} must have the same dtype, but got {_ops._legacy(x.dtype)} and "
                               f"{_ops._legacy(y.dtype)}")
    for name, m in (("mat1", mat1), ("mat2", mat2)):
        if isinstance(m, Tensor) and m.dim() != 2:
            raise RuntimeError(f"{name} must be a matrix, got {m.dim()}-D tensor")
    if isinstance(mat1, Tensor) and isinstance(mat2, Tensor) and mat1.shape[1] == mat2.shape[0] and \
            tuple(input.shape) != (mat1.shape[0], mat2.shape[1]):
        raise RuntimeError(f"Bad in-place call: input tensor size {list(input.shape)} and output tensor size "
                           f"{[mat1.shape[0], mat2.shape[1]]} should match")
    addmm(input.detach(), mat1.detach(), mat2.detach(), beta=beta, alpha=alpha)   # (the function's checks)
    from ._ops_matrices import product_scalars
    beta, alpha = product_scalars(input.dtype, beta, alpha)
    return D.addmm(input, mat1, mat2, out=input, beta=beta, alpha=alpha)


def mvlgamma_(input, p: int):
    """In-place mvlgamma (floating tensors only)."""
    p = _arg_errors.scalar_arg(p, "mvlgamma_", "p", 1, "int")   # (a 0-dim integer tensor is an int)
    _int_arg("mvlgamma_", "p", p, 1)
    if input.dtype is _dtypes.bool_:   # (mvlgamma_check, first)
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    if p < 1:   # (mvlgamma_check, before its kernel and the cast of its float result into input)
        raise RuntimeError("p has to be greater than or equal to 1")
    if input.is_complex():   # (PyTorch's kernel fails in the arange it builds)
        raise NotImplementedError(f"\"arange_cpu\" not implemented for '{_ops._legacy(input.dtype)}'")
    if not input.is_floating_point():
        raise RuntimeError(f"mvlgamma: result type {_ops._legacy(input.dtype)} can't be cast to the desired "
                           f"output type {_ops._legacy(_dtypes.get_default_dtype())}")
    return D.mvlgamma(input, out=input, p=int(p))


def polygamma_(input, n: int):
    """In-place polygamma (PolygammaBackward1)."""
    n = _arg_errors.scalar_arg(n, "polygamma_", "n", 1, "int")
    _int_arg("polygamma_", "n", n, 1)
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    if input.is_complex():
        from ._dispatch import _no_internal_overlap_first
        _no_internal_overlap_first(None, input)   # (TensorIterator's check before the kernel's dtype)
        kernel = {0: "digamma", 1: "trigamma"}.get(int(n), "polygamma")
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_ops._legacy(input.dtype)}'")
    dt = _ops._float_dtype(input)
    return D.polygamma_inplace(input, out=input, dtype=None if dt is input.dtype else dt, n=int(n))


# =============================================================================================
# index_reduce: source's slices reduced (prod, mean, amax, amin) into input's slices at ``index``
# =============================================================================================

def _index_reduce(input, dim, index, source, reduce, include_self, out=None):
    if out is not None:   # (torch.func's and autograd's checks come before the kernel's warning)
        _dispatch.check_captured_write(out, "aten::index_reduce_")
        _dispatch._check_inplace(out, grad_mode.is_grad_enabled() and (out.requires_grad or source.requires_grad))
    else:   # (VariableType refuses a stale multi-output view, then a tangent (no forward formula), before the
        # kernel's checks and warning)
        _dispatch.check_rebased_inputs(input, source)
        forward_ad.refuse_before_kernel(D.index_reduce, input, source)
    warn_once("index_reduce beta",   # (PyTorch's TORCH_WARN_ONCE)
              "index_reduce() is in beta and the API may change at any time. (Triggered internally at "
              "/__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:1523.)")
    _index_reduce_checks(input, dim, index, source, reduce, include_self)
    return D.index_reduce(input, index, source, out=out, dim=int(dim),   # (dim as given: PyTorch saves it so)
                          reduce=reduce, include_self=bool(include_self))


@_dispatch.kernel_checks
def _index_reduce_checks(input, dim, index, source, reduce, include_self) -> None:
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}.")
    d = _ops._wrap_dim(dim, input.dim())
    if index.dim() > 1:
        raise IndexError(f"index_reduce_(): Index is supposed to be a vector, but got dim: {index.dim()} with type: "
                         f"{_ops._legacy(index.dtype)} and size: {list(index.shape)}")
    if index.dtype not in (_dtypes.int32, _dtypes.int64):
        raise RuntimeError(f"index_reduce_(): Expected dtype int32/int64 for index but got: "
                           f"{_ops._legacy(index.dtype)}")
    if input.dtype is not source.dtype:
        raise RuntimeError(f"index_reduce_(): self ({_ops._legacy(input.dtype)}) and source "
                           f"({_ops._legacy(source.dtype)}) must have the same scalar type")
    n = index.numel()
    if source.dim() == 0 and n != 1:  # (PyTorch's message reads source.size(dim), which a 0-dim source refuses)
        raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
    if source.dim() > 0 and n != source.shape[d]:
        raise RuntimeError(f"index_reduce_(): Number of indices ({n}) should be equal to source.size(dim): "
                           f"({source.shape[d]}), for dim: {dim}")
    kept = [list(t.shape[:d]) + list(t.shape[d + 1:]) for t in (input, source)]
    if input.dim() == source.dim() and kept[0] != kept[1] or source.dim() != input.dim():
        raise RuntimeError("source tensor shape must match self tensor shape, excluding the specified dimension. Got "
                           f"self.shape = {list(input.shape)} source.shape = {list(source.shape)}")
    if input.dtype is _dtypes.bool_ or input.dtype.is_complex:
        # (no kernel for them, after the meta checks: include_self=False first fills the written slices)
        kernel = "index_func_" if include_self else "index_reduce_func_exclude_input_init"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_ops._legacy(input.dtype)}'")
    size = input.shape[d] if input.dim() else 1
    if size == 0 and n:
        _empty_dim_index_reduce(input, d, n, include_self)
    bad = index._data[(index._data >= size) | (index._data < -size)]
    if not include_self and bad.size and not (input.dim() > 1 and input.numel() == 0):
        # (PyTorch's kernel first fills the written slices with index_fill_, whose check speaks first)
        raise IndexError(f"index {int(bad[0])} is out of bounds for dimension {d} with size {size}")
    if np.any((index._data >= size) | (index._data < 0)):   # (no negative indices either)
        raise IndexError("index out of range in self")


def _empty_dim_index_reduce(input, d: int, n: int, include_self: bool) -> None:
    """PyTorch's kernel on an empty dim: include_self=False first fills the slices with index_fill_, which restrides
    input to the index's length (stride 0) beyond its storage; more dims take input.select(dim, 0) for an iterator."""
    if not include_self:
        sizes, strides = list(input.shape), list(input.stride())
        sizes[d], strides[d] = n, 0
        need = (input.storage_offset() + sum((s - 1) * st for s, st in zip(sizes, strides)) + 1) * \
            input.element_size() if all(sizes) else 0
        have = input.untyped_storage().nbytes()
        if need > have:
            raise RuntimeError(f"setStorage: sizes {sizes}, strides {strides}, storage offset "
                               f"{input.storage_offset()}, and itemsize {input.element_size()} requiring a storage "
                               f"size of {need} are out of bounds for storage of size {have}")
    if input.dim() > 1:
        raise IndexError(f"select(): index 0 out of range for tensor of size {list(input.shape)} at dimension {d}")


def index_reduce(input, dim, index, source, reduce, *, include_self=True):
    """A copy of input with source's slices reduced into its slices at ``index`` along ``dim``."""
    return _index_reduce(input, dim, index, source, reduce, include_self)


def index_reduce_(input, dim, index, source, reduce, *, include_self=True):
    """In-place index_reduce."""
    return _index_reduce(input, dim, index, source, reduce, include_self, out=input)


# Tensor methods only (torch.* has just xlogy_ and index_reduce among them).
TENSOR_METHODS = [
    "eq_", "ne_", "lt_", "le_", "gt_", "ge_", "greater_", "greater_equal_", "less_", "less_equal_", "not_equal_",
    "logical_and_", "logical_or_", "logical_xor_", "logical_not_", "bitwise_and_", "bitwise_or_", "bitwise_xor_",
    "bitwise_not_", "bitwise_left_shift_", "bitwise_right_shift_", "atan2_", "arctan2_", "hypot_", "copysign_",
    "xlogy_", "remainder_", "fmod_", "floor_divide_", "float_power_", "heaviside_", "igamma_", "igammac_",
    "cumsum_", "cumprod_", "tril_", "triu_", "fill_diagonal_", "addmm_", "mvlgamma_", "polygamma_",
    "index_reduce", "index_reduce_",
]
FUNCTIONS = ["xlogy_", "index_reduce"]

for _name in TENSOR_METHODS:
    setattr(Tensor, _name, globals()[_name])
del _name


# ---- the leaf check first -------------------------------------------------------------------------------------
# PyTorch's autograd layer refuses an in-place change of a leaf that requires grad (or of its view) before any
# kernel looks at the arguments: when an in-place method fails for another reason (a shape, a dtype, a dim), the
# refusal is what PyTorch shows. Checked only once the method has failed, so a successful call costs one frame.
# Not wrapped: the in-place views (their own checks), PyTorch's composites that check before dispatching
# (float_power_), methods that are no in-place ops, and the hottest ones (they order their checks themselves).
_NOT_LEAF_FIRST = frozenset({
    "requires_grad_", "retain_grad", "share_memory_", "detach_", "set_", "resize_", "resize_as_", "float_power_",
    "squeeze_", "unsqueeze_", "t_", "transpose_", "swapaxes_", "swapdims_", "as_strided_", "apply_", "map_",
    "map2_", "add_", "sub_", "mul_", "div_", "copy_", "zero_", "fill_", "record_stream_", "type_",
    "fill_diagonal_",   # (a composite: its shape checks, then fill_ on a view refuses "a view of a leaf")
    "logical_and_", "logical_or_", "logical_xor_", "logical_not_"})   # (not differentiable: autograd lets them be)


# ... and of these elementwise ones (x.op_(other)), the broadcast of other into x next (then the dtypes)
_BINARY = frozenset({
    "gcd_", "lcm_", "nextafter_", "igamma_", "igammac_", "clamp_min_", "clamp_max_", "hypot_",
    "copysign_", "fmod_", "remainder_", "atan2_", "arctan2_", "xlogy_", "logaddexp_", "pow_",
    "eq_", "ne_", "lt_", "le_", "gt_", "ge_", "greater_", "greater_equal_", "less_", "less_equal_", "not_equal_",
    "logical_and_", "logical_or_", "logical_xor_", "bitwise_and_", "bitwise_or_", "bitwise_xor_",
    "bitwise_left_shift_", "bitwise_right_shift_", "floor_divide_", "true_divide_", "divide_", "multiply_",
    "maximum_", "minimum_", "fmax_", "fmin_"})


# ... of which these have no batching rule: PyTorch's vmap runs them example by example (its slow fallback), so
# their broadcast error names the example's dim, not the physical batched tensor's
_PER_EXAMPLE = frozenset({
    "nextafter_", "igamma_", "igammac_", "hypot_", "fmod_", "remainder_", "xlogy_", "pow_", "floor_divide_",
    "eq_", "ne_", "lt_", "le_", "gt_", "ge_", "greater_", "greater_equal_", "less_", "less_equal_", "not_equal_"})


# ... of which these have a Scalar overload whose meta function refuses complex types and an in-place cast before
# TensorIterator sees self: given a number, the method's own order stands (x.expand(2, 3).clamp_min_(0), complex x)
_SCALAR_META = frozenset({"clamp_min_", "clamp_max_"})


def _leaf_first(method, binary: bool, scalar_meta: bool = False, per_example: bool = False, name: str = ""):
    @functools.wraps(method)
    def checked(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except TypeError as e:
            # (the Tensor method ``name``: Python's refusal of x.masked_fill_(m, 1, 2) counts self, the parser's not)
            refusal = _arg_errors.parser_refusal(name, self, args, kwargs, e) if name else None
            if refusal is not None:
                raise refusal from None
            raise
        except Exception as e:
            if isinstance(self, Tensor):
                if _ops._vmap_batched.DEPTH[0]:   # (vmap's refusal to write a batched value comes before autograd's)
                    if _ops._vmap_batched.refused_first(e):
                        raise
                    _ops._vmap_batched.check_inplace_first(method.__name__, self, (*args, *kwargs.values()))
                _dispatch._check_inplace(self, False)
                if scalar_meta and not isinstance(args[0] if args else next(iter(kwargs.values()), None), Tensor):
                    raise
                if binary:   # (TensorIterator: an expanded self is refused before the shapes are compared)
                    _no_internal_overlap(self)
                if binary and args and isinstance(args[0], Tensor):
                    _broadcast_into(self, args[0], per_example, method.__name__)
            raise
    return checked


def _broadcast_into(input: Tensor, other: Tensor, per_example: bool = False, name: str = "") -> None:
    """PyTorch's errors for an ``other`` that does not broadcast to ``input``'s shape (``per_example``: inside vmap,
    an op PyTorch runs example by example, see _PER_EXAMPLE; ``name``: the in-place op's)."""
    try:
        shape = np.broadcast_shapes(input._data.shape, other._data.shape)
    except ValueError:
        _ops._raise_broadcast_error(input._data.shape, other._data.shape,
                                    tensors=() if per_example else (input, other))
    if shape != input._data.shape and name and _ops._vmap_batched.DEPTH[0]:
        # (a batched value written into an unbatched tensor: its batch rule or fallback refuses that first)
        _ops._vmap_batched.check_inplace(name, input, (input, other))
    _shape_check(input, np.empty(shape, bool))


def install_leaf_first(cls, namespace: dict) -> None:
    """Wrap ``cls``'s in-place methods (``x.foo_(...)``), and the namespace's functions of the same names
    (``torch.foo_(x, ...)``), so that their leaf refusal comes before other errors."""
    for name, value in list(vars(cls).items()):
        if name.endswith("_") and not name.startswith("_") and callable(value) and name not in _NOT_LEAF_FIRST:
            setattr(cls, name, _leaf_first(value, name in _BINARY, name in _SCALAR_META, name in _PER_EXAMPLE, name))
            if callable(namespace.get(name)):
                namespace[name] = _leaf_first(namespace[name], name in _BINARY, name in _SCALAR_META,
                                              name in _PER_EXAMPLE)
