"""Sorting, selection and counting: sort, topk, median, unique, nonzero, bincount ...

As in ``_ops.py``: argument checks and PyTorch's error messages here, derivatives (of the sorted or
selected values) in ``derivatives.py``; indices and counts carry no gradient.
"""
from __future__ import annotations

import math

import numpy as np

from . import _arg_errors, _dispatch, _dtypes, _meta, _ops, _ops_shapes, _strides, _vmap_batched, return_types
from . import derivatives as D
from ._tensor import Tensor
from .amp.autocast_mode import ON as _AUTOCAST
from .amp.autocast_mode import run as _autocast
from .autograd import grad_mode

# =============================================================================================
# Sorting and order statistics
# =============================================================================================

def sort(input, *args, **kwargs):
    """sort(input, dim=-1, descending=False, *, stable): (values, indices) along ``dim``, NaN as the largest.

    The values are differentiable: SortBackward0, or SortBackward1 when ``stable`` is given (PyTorch's other
    overload, whose dim and descending are keywords only). Equal values keep their order with stable=True;
    otherwise they come in the order of PyTorch's std::sort (see derivatives._sort_like_pytorch).
    """
    dim, descending, stable = _sort_args("sort", input, args, kwargs, _SORT_OVERLOADS)
    values, indices = _sort(input, dim, descending, stable)
    return return_types.make("sort", values, indices)


def _sort(input, dim, descending, stable):
    """(values, indices): SortBackward0 without ``stable``, SortBackward1 with it (even stable=None)."""
    if stable is _NOT_GIVEN:
        return D.sort(input, dim=dim, descending=descending)
    return D.sort_stable(input, stable=bool(stable), dim=dim, descending=descending)


def argsort(input, *args, **kwargs):
    """argsort(input, dim=-1, descending=False, *, stable): the indices that sort ``input`` along ``dim``."""
    dim, descending, stable = _sort_args("argsort", input, args, kwargs, _ARGSORT_OVERLOADS)
    if stable is None:  # (argsort's stable, unlike sort's, may not be None)
        raise _arg_errors.invalid_combination("argsort", (input, *args), kwargs, _ARGSORT_OVERLOADS)
    return _sort(input, dim, descending, stable)[1]


_NOT_GIVEN = object()  # sort(x) and sort(x, stable=...) are different overloads


def _sort_args(name, input, args, kwargs, overloads):
    """(dim, descending, stable) of a sort/argsort call, or PyTorch's error for a call no overload takes."""
    stable = kwargs.get("stable", _NOT_GIVEN)
    dim = args[0] if args else kwargs.get("dim", -1)
    descending = args[1] if len(args) > 1 else kwargs.get("descending", False)
    if not _ops._is_int(dim) and _arg_errors._is_index(dim):   # (x.sort(torch.tensor(0)))
        dim = int(dim)
    fits = (_ops._is_int(dim) and (descending is True or descending is False)   # (descending=1: no overload)
            and len(args) <= 2 and set(kwargs) <= {"dim", "descending", "stable"}
            and (stable is _NOT_GIVEN or (not args and (stable is None or isinstance(stable, bool)))))
    if not fits:
        raise _arg_errors.invalid_combination(name, (input, *args), kwargs, overloads)
    _ops._wrap_dim_of(dim, input)
    if input.is_complex():
        raise RuntimeError(" Sort does not support complex dtypes on CPU")  # (PyTorch's leading space)
    return int(dim), bool(descending), stable


# How PyTorch's "invalid combination of arguments" error lists sort's and argsort's overloads.
_SORT_OVERLOADS = _arg_errors.FUNCTION_OVERLOADS["sort"]
_ARGSORT_OVERLOADS = _arg_errors.FUNCTION_OVERLOADS["argsort"]


def msort(input):
    """Sorted along the first dim."""
    return sort(input, 0).values


def topk(input, k, dim=-1, largest=True, sorted=True):
    """(values, indices) of the ``k`` largest (or smallest) elements along ``dim``."""
    if type(k) is not int and _arg_errors.list_int(k):   # (PyTorch's SymInt k: a one-element integer tensor too)
        k = int(k)
    if type(k) is not int:
        _arg_errors.recheck("topk", (k,), {}, method=True)
    dim = _ops._check_int_dim("topk", dim)
    _ops._check_bool("topk", "largest", largest, 4)
    _ops._check_bool("topk", "sorted", sorted, 5)
    d = _ops._wrap_dim(dim, input.dim())
    size = input._data.shape[d] if input.dim() else 1
    if not 0 <= k <= size:
        _dispatch.check_rebased_inputs(input)
        raise RuntimeError("selected index k out of range")
    if input.dtype is _dtypes.bool_:
        raise RuntimeError("topk does not support bool dtypes on CPU")
    if input.is_complex():
        raise RuntimeError(" topk does not support complex dtypes on CPU")
    if input.dim() == 0:   # (PyTorch's kernel copies a 0-dim input whatever k, 0 too: through TopkBackward0)
        k = 1
    values, indices = D.topk(input, k=int(k), dim=int(dim), largest=bool(largest), sorted=bool(sorted))
    return return_types.make("topk", values, indices)


def kthvalue(input, k, dim=-1, keepdim=False):
    """(values, indices) of the k-th smallest element along ``dim`` (as sort, then select)."""
    k = _arg_errors.scalar_arg(k, "kthvalue", "k", 2, "SymInt")   # (a SymInt: torch.tensor([2]) is read too)
    _ops._check_int("kthvalue", "k", k, 2)   # (x.kthvalue(n / 2))
    dim = _ops._check_int_dim("kthvalue", dim)
    _ops._check_bool("kthvalue", "keepdim", keepdim, 4)
    d = _ops._check_dim_nonempty("kthvalue", input, dim)
    try:
        if not 1 <= k <= (input._data.shape[d] if input.dim() else 1):
            raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
        if (input.is_complex() or input.dtype is _dtypes.bool_) and input.dim():   # (a 0-dim one is copied)
            raise NotImplementedError(f"\"kthvalue_cpu\" not implemented for '{_ops._legacy(input.dtype)}'")
    except RuntimeError:   # (the kernel's checks, after VariableType collected the edge)
        _dispatch.check_rebased_inputs(input)
        raise
    _no_complex_grad("kthvalue", input)
    values, indices = D.kthvalue(input, k=int(k), dim=int(dim), keepdim=bool(keepdim))
    return return_types.make("kthvalue", values, indices)


def _no_complex_grad(name: str, input) -> None:
    """PyTorch's autograd refusal of a complex result, checked after the kernel's (which a complex input with
    elements meets first)."""
    if input.is_complex() and input.requires_grad and grad_mode.is_grad_enabled():
        raise RuntimeError(f"{name} does not support automatic differentiation for outputs with complex dtype.")


def median(input, dim=_ops._ALL_DIMS, keepdim=False):
    """The lower median of all elements, or (values, indices) along ``dim``."""
    if dim is _ops._ALL_DIMS and keepdim:  # (PyTorch's overload with keepdim also needs a dim)
        raise TypeError('median() missing 1 required positional arguments: "dim"')
    if dim is _ops._ALL_DIMS:
        _batched_median_all(input)
        if input.numel() and (input.dtype is _dtypes.bool_ or input.is_complex()):  # (as nanmedian's kernels)
            raise NotImplementedError(f"\"median_cpu\" not implemented for '{_ops._legacy(input.dtype)}'")
        _no_complex_grad("median", input)   # (an empty complex input: no kernel ran)
        if _vmap_batched.reduces_flattened(input):
            return D.median_dim(input.reshape(-1), dim=0, keepdim=False)[0]
        return D.median_all(input)  # (NaN, as the input's dtype, for an empty input)
    dim = _ops._check_int_dim("median", dim)
    _ops._check_bool("median", "keepdim", keepdim, 3)
    _ops._check_dim_nonempty("median", input, dim)
    if input.dtype is _dtypes.bool_ or input.is_complex():
        raise NotImplementedError(f"\"median_out\" not implemented for '{_ops._legacy(input.dtype)}'")
    values, indices = D.median_dim(input, dim=int(dim), keepdim=bool(keepdim))
    return return_types.make("median", values, indices)


def mode(input, dim=-1, keepdim=False):
    """(values, indices): the most frequent value along ``dim`` (the smallest among ties)."""
    dim = _ops._check_int_dim("mode", dim)
    _ops._check_bool("mode", "keepdim", keepdim, 3)
    _ops._check_dim_nonempty("mode", input, dim)
    if input.is_complex() and input.dim() and input.numel():  # (the kernel first; autograd checks its outputs)
        raise NotImplementedError(f"\"mode_cpu\" not implemented for '{_ops._legacy(input.dtype)}'")
    _no_complex_grad("mode", input)
    values, indices = D.mode(input, dim=int(dim), keepdim=bool(keepdim))
    return return_types.make("mode", values, indices)


# =============================================================================================
# quantile, nanquantile: composites, as in PyTorch (sort, gather, lerp_: their nodes make the graph)
# =============================================================================================

def quantile(input, *args, **kwargs):
    """quantile(input, q, dim=None, keepdim=False, *, interpolation='linear'): the q-th quantiles of all
    elements (or along ``dim``); q is a number or a 1-D tensor (whose values index the result's first dim).

    A quantile lies between two order statistics: 'linear' interpolates, 'midpoint' takes their mean,
    'lower', 'higher' and 'nearest' one of them. A slice holding a NaN gives NaN.
    """
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("quantile", quantile, input, *args, **kwargs)
    return _quantile("quantile", input, args, kwargs, ignore_nan=False)


def nanquantile(input, *args, **kwargs):
    """nanquantile(input, q, dim=None, keepdim=False, *, interpolation='linear'): quantile of the non-NaN
    values (NaN for a slice of NaNs only)."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("nanquantile", nanquantile, input, *args, **kwargs)
    return _quantile("nanquantile", input, args, kwargs, ignore_nan=True)


_QUANTILE_OVERLOADS = tuple(
    f"(Tensor input, {q} q, int dim = None, bool keepdim = False, *, str interpolation = \"linear\", "
    "Tensor out = None)" for q in ("Tensor", "float"))
_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(name, input, args, kwargs, ignore_nan):
    q, dim, keepdim, interpolation = _quantile_args(name, input, args, kwargs)
    if not isinstance(q, Tensor):
        if not 0 <= q <= 1:  # (False for NaN too)
            raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {float(q):g}")
        q = Tensor._make(np.array(q, input._data.dtype))  # (in the input's dtype, checked below)
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError("quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, but "
                           f"got {interpolation}")
    if input.numel() == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if q.dim() > 1:
        raise RuntimeError("quantile() q must be a scalar or 1D tensor")
    if input.dtype not in (_dtypes.float32, _dtypes.float64):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if q.dtype is not input.dtype:
        raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
    d = None if dim is None else _ops._wrap_dim(dim, input.dim())
    if q.numel() and not ((q._data >= 0) & (q._data <= 1)).all():
        raise RuntimeError("quantile() q values must be in the range [0, 1]")
    return _quantile_compute(input, q, d, keepdim, interpolation, ignore_nan)


def _quantile_args(name, input, args, kwargs):
    """(q, dim, keepdim, interpolation) of a quantile call, or PyTorch's error when no overload takes it."""
    names = ("q", "dim", "keepdim")
    given = {"dim": None, "keepdim": False, "interpolation": "linear", **dict(zip(names, args)), **kwargs}
    q, dim = given.get("q"), given["dim"]
    fits = (isinstance(input, Tensor) and len(args) <= 3 and "q" in given and len(given) == 4
            and not set(kwargs) & set(names[:len(args)])
            and (isinstance(q, Tensor) or (isinstance(q, (int, float, np.number)) and not isinstance(q, complex)))
            and (dim is None or _ops._is_int(dim)) and isinstance(given["keepdim"], bool)
            and isinstance(given["interpolation"], str))
    if not fits:
        raise _arg_errors.invalid_combination(name, (input, *args), kwargs, _QUANTILE_OVERLOADS)
    return q, dim, given["keepdim"], given["interpolation"]


def _quantile_compute(input, q, dim, keepdim, interpolation, ignore_nan):
    """PyTorch's quantile_compute, step for step: each slice sorted (NaNs last), the rank q·(n - 1) looked up."""
    n_dims = input.dim()
    if dim is None:
        ordered = input.flatten().sort().values
        out_shape = [1] * n_dims if keepdim else []
    else:
        # the reduced dim moved last (PyTorch moves it only if it is not last already)
        moved = input if dim == n_dims - 1 else input.unsqueeze(-1).transpose(dim, -1)
        ordered = moved.sort().values
        out_shape = list(input.shape)
        if keepdim and n_dims:
            out_shape[dim] = 1
        elif n_dims:
            del out_shape[dim]
    ordered = ordered.view(out_shape + [ordered.shape[-1]])  # a row per output element, q aside
    nan = ordered.isnan()
    if ignore_nan:  # the rank among the non-NaN values (0 for a row of NaNs only: its answer is NaN)
        ranks = q * (nan.logical_not().sum(-1, True) - 1)
        ranks.masked_fill_(ranks < 0, 0)
    else:  # a row holding a NaN looks up its last value, a NaN
        last = ordered.shape[-1] - 1
        # (C++'s q * int: the Scalar overload, so q's second-order graph shows MulBackward1)
        ranks, has_nan = _ops_shapes.broadcast_tensors(D.mul_scalar(q, other=last), nan.any(-1, True))
        ranks = ranks.masked_fill(has_nan, last)
    if interpolation == "lower":
        ranks.floor_()
    elif interpolation == "higher":
        ranks.ceil_()
    elif interpolation == "nearest":
        ranks.round_()  # (half to even)
    below = ranks.long()
    values = ordered.gather(-1, below)
    if interpolation in ("linear", "midpoint"):
        weights = ranks.new_full(ranks.shape, 0.5) if interpolation == "midpoint" else ranks - below
        values.lerp_(ordered.gather(-1, ranks.ceil_().long()), weights)
    if q.dim() == 0:
        return values.squeeze_(-1)
    return values.unsqueeze_(0).transpose_(0, -1).squeeze_(-1)  # the q values first


# =============================================================================================
# Selection and counting
# =============================================================================================

def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct values (sorted), optionally with inverse indices and counts."""
    if _vmap_batched.DEPTH[0]:
        _vmap_batched.check_dynamic(input, "aten::_unique2")
    # (PyTorch's torch.unique is Python passing these to _unique2 or unique_dim by keyword: their parser's errors)
    kernel = "_unique2" if dim is None else "unique_dim"
    if dim is not None and not _arg_errors._is_index(dim):
        raise _arg_errors.must_be(kernel, "dim", "int", dim, 2)
    for arg, flag in (("sorted", sorted), ("return_inverse", return_inverse), ("return_counts", return_counts)):
        if flag is not True and flag is not False:
            raise _arg_errors.must_be(kernel, arg, "bool", flag)
    _meta.check_kernel(kernel, input)
    if dim is not None:
        return _unique_dim(input, dim, return_inverse, return_counts)
    if input.is_complex():
        raise NotImplementedError(f"\"unique\" not implemented for '{_ops._legacy(input.dtype)}'")
    # (each NaN is a value of its own, as in PyTorch: NaN != NaN)
    values, inverse, counts = np.unique(input._data, return_inverse=True, return_counts=True, equal_nan=False)
    out = [D.NOT_IMPLEMENTED["unique2"].call((input,), None, None, {"_result": values})]  # (Unique2Backward0)
    if return_inverse:
        out.append(Tensor._make(inverse.reshape(input._data.shape).astype(np.int64)))
    if return_counts:
        out.append(Tensor._make(counts.astype(np.int64)))
    return _dispatch.function_result_version("unique", (input,), out[0] if len(out) == 1 else tuple(out))


def _unique_dim(input, dim, return_inverse, return_counts):
    """The distinct slices along ``dim``, in lexicographic order of their elements (always sorted, as PyTorch's
    unique_dim); inverse: each slice's row in the result; counts: how often each distinct slice occurs."""
    a = input._data
    try:
        if input.dim() == 0:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        d = _ops._wrap_dim(dim, input.dim())
        if input.is_complex():
            raise NotImplementedError(f"\"unique_dim\" not implemented for '{_ops._legacy(input.dtype)}'")
        if a.size == 0 and any(n == 0 for i, n in enumerate(a.shape) if i != d):
            raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique cannot be "
                               "applied")
    except (IndexError, RuntimeError):   # (the kernel's checks, after VariableType collected the edge)
        _dispatch.check_rebased_inputs(input)
        raise
    if a.shape[d] == 0:
        values, inverse, counts = a, np.zeros(0, np.int64), np.zeros(0, np.int64)
    else:
        values, inverse, counts = np.unique(a, return_inverse=True, return_counts=True, axis=d)
    out = [D.NOT_IMPLEMENTED["unique_dim"].call((input,), None, None, {"_result": _dim_first_layout(values, d)})]
    if return_inverse:
        out.append(Tensor._make(inverse.reshape(-1).astype(np.int64)))
    if return_counts:
        out.append(_dispatch.function_result_version("unique_dim counts", (input,),
                                                     Tensor._make(counts.astype(np.int64))))
    return out[0] if len(out) == 1 else tuple(out)


def _dim_first_layout(values: np.ndarray, d: int) -> np.ndarray:
    """``values`` laid out as PyTorch's unique_dim kernels make them: the slices along ``d`` stacked into a
    contiguous (n, ...) tensor, then moveaxis(0, d) (so strides (1, n) for unique columns of a matrix)."""
    return np.moveaxis(np.moveaxis(values, d, 0).copy(), 0, d)   # (a fresh copy: C strides even on size-1 dims)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Collapse runs of equal values (of the flattened input)."""
    if _vmap_batched.DEPTH[0]:
        _vmap_batched.check_dynamic(input, "aten::unique_consecutive")
    if dim is not None and not _arg_errors._is_index(dim):
        raise _arg_errors.must_be("unique_consecutive", "dim", "int", dim)
    if input.is_complex():
        raise NotImplementedError(f"\"unique\" not implemented for '{_ops._legacy(input.dtype)}'")
    # PyTorch's kernel: with no dim (or dim=0 of a 1-d input, literally 0) the flattened values; else the runs
    # of equal slices along dim (unique_dim_consecutive)
    if dim is not None and not (dim == 0 and input.dim() == 1):
        return _unique_consecutive_dim(input, dim, return_inverse, return_counts)
    flat = input._data.reshape(-1)
    starts = np.concatenate([[True], flat[1:] != flat[:-1]]) if flat.size else np.zeros(0, bool)
    out = [D.NOT_IMPLEMENTED["unique_consecutive"].call((input,), None, None, {"_result": flat[starts]})]
    if return_inverse:
        out.append(Tensor._make((np.cumsum(starts) - 1).reshape(input._data.shape).astype(np.int64)))
    out = [_dispatch.function_result_version("unique_consecutive", (input,), t) for t in out]
    if return_counts:
        counts = Tensor._make(np.diff(np.append(np.flatnonzero(starts), flat.size)).astype(np.int64))
        out.append(_dispatch.function_result_version("unique_consecutive counts", (input,), counts))
    return out[0] if len(out) == 1 else tuple(out)


def _unique_consecutive_dim(input, dim: int, return_inverse, return_counts):
    """Runs of equal slices along dim ``d`` collapsed to one slice each; inverse: each slice's run; counts: the
    runs' lengths."""
    a = input._data
    if a.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    d = _ops._wrap_dim(dim, a.ndim)
    if a.size == 0:   # (PyTorch's checks, in unique_dim's words)
        if any(n == 0 for i, n in enumerate(a.shape) if i != d):
            raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique cannot be applied")
        empty = Tensor._make(np.zeros(0, np.int64))
        out = [D.NOT_IMPLEMENTED["unique_consecutive"].call((input,), None, None, {"_result": a.copy()})]
        out += [empty] * return_inverse + [Tensor._make(np.zeros(0, np.int64))] * return_counts
        return out[0] if len(out) == 1 else tuple(out)
    rows = np.moveaxis(a, d, 0).reshape(a.shape[d], -1)
    starts = np.ones(a.shape[d], bool)
    starts[1:] = (rows[1:] != rows[:-1]).any(axis=1)
    values = _dim_first_layout(np.take(a, np.flatnonzero(starts), axis=d), d)
    out = [D.NOT_IMPLEMENTED["unique_consecutive"].call((input,), None, None, {"_result": values})]
    if return_inverse:
        out.append(Tensor._make((np.cumsum(starts) - 1).astype(np.int64)))
    if return_counts:
        counts = Tensor._make(np.diff(np.append(np.flatnonzero(starts), a.shape[d])).astype(np.int64))
        out.append(_dispatch.function_result_version("unique_dim counts", (input,), counts))
    return out[0] if len(out) == 1 else tuple(out)


def nonzero(input, *, out=None, as_tuple=False):
    """Indices of the non-zero elements: an (n, ndim) tensor, or one index tensor per dim."""
    if as_tuple is not False and as_tuple is not True:  # (PyTorch's parser takes a bool only)
        raise _arg_errors.must_be("nonzero", "as_tuple", "bool", as_tuple)
    if _vmap_batched.DEPTH[0]:
        _vmap_batched.check_dynamic(input, "aten::nonzero")
    if out is not None:
        if as_tuple:
            raise RuntimeError("nonzero does not support the out kwarg when as_tuple is True")
        return _nonzero_into(input, out)
    return _dispatch.function_result_version("nonzero", (input,), _nonzero(input, as_tuple))


def _nonzero_into(input, out):
    """``torch.nonzero(input, out=out)``: written in place (no derivative: taken while autograd records); an out of
    another shape is resized (with the warning unless empty) to nonzero's own column-major layout."""
    if not isinstance(out, Tensor):
        raise _arg_errors.must_be("nonzero", "out", "Tensor", out)
    if out.dtype is not _dtypes.int64:
        raise RuntimeError("nonzero: Expected out tensor to have scalar type Long but got scalar type"
                           f"{_ops._legacy(out.dtype)}")
    _dispatch._check_no_partial_overlap(out, [input])
    result = _nonzero(input, False)
    if tuple(out.shape) != tuple(result.shape):
        if out.numel():
            _ops._warn_resized(out._data.shape, result._data.shape)
        from ._ops_inplace_views import resize_output
        resize_output(out, tuple(result.shape), (1, result.shape[0]))
        if not result.numel():
            _strides.keep_empty_strides(out, (1, result.shape[0]))
    with grad_mode.no_grad(), _dispatch.out_argument_write():
        out.copy_(result)
    return out


def _nonzero_method(self, *args, **kwargs):
    """``x.nonzero(*, as_tuple=False)``: the method takes no out= (PyTorch's parser errors for anything else)."""
    if len(args) == 1 and not kwargs:
        raise TypeError("nonzero() takes from 1 to 0 positional arguments but 1 were given")
    if args or set(kwargs) - {"as_tuple"}:
        if not args and "as_tuple" not in kwargs:
            raise TypeError('nonzero() missing 1 required positional arguments: "as_tuple"')
        raise _arg_errors.invalid_combination("nonzero", args, kwargs, ("()", "(*, bool as_tuple)"))
    return nonzero(self, **kwargs)


def _nonzero(input, as_tuple: bool):
    _meta.check_kernel("nonzero", input)
    _dtypes.refuse_unsigned("nonzero_count_cpu", input.dtype)
    if as_tuple:
        # (PyTorch's nonzero_numpy: the columns of nonzero(), unbind(1) views of its column-major result; a 0-dim
        # input as a 1-element one)
        full = _nonzero(input.reshape(1) if input.dim() == 0 else input, False)
        return _dispatch.function_result_version("nonzero", (input,), full).unbind(1)   # (views: its version)
    idx = np.nonzero(np.atleast_1d(input._data))
    if input.dim() == 0:  # (one row of no coordinates when the scalar is non-zero)
        out = np.zeros((idx[0].size, 0), np.int64)
    else:
        out = np.stack(idx, axis=1).astype(np.int64).reshape(-1, input.dim())
    # PyTorch's nonzero is column-major: strides (1, n), kept when it has no elements
    result = Tensor._make(_strides.copy_into(_strides.with_strides(out.shape, (1, out.shape[0]), np.int64), out))
    if not out.size:
        _strides.keep_empty_strides(result, (1, out.shape[0]))
    return result


def argwhere(input):
    """Same as nonzero(input)."""
    # (PyTorch's vmap runs argwhere slice by slice: no dynamic-shape error)
    return _dispatch.function_result_version("nonzero", (input,), _nonzero(input, False))


def count_nonzero(input, dim=None):
    """Number of non-zero elements (over ``dim``)."""
    axis = None if dim is None else _ops._raw_dims(dim, input.dim(), input, differentiable=False) or None  # []: all
    axis = None if input.dim() == 0 else axis
    _dtypes.refuse_unsigned("nonzero_count_cpu", input.dtype)
    counts = np.asarray(np.count_nonzero(input._data, axis=axis), dtype=np.int64)
    # (a new C-order tensor, as PyTorch's, whatever input's layout)
    out = _meta.follow(Tensor._make(_strides.contiguous(counts)), input)
    return _vmap_batched.follow(out, input) if _vmap_batched.DEPTH[0] else out   # (inside vmap: batched as input)


def masked_select(input, mask):
    """The elements of ``input`` where ``mask`` is True, as a 1-D tensor."""
    if not isinstance(mask, Tensor):  # (x.masked_select(1): the method's error; the function's wrapper words its own)
        raise _arg_errors.must_be("masked_select", "mask", "Tensor", mask, 1)
    try:
        if mask.dtype is not _dtypes.bool_:
            raise RuntimeError("masked_select: expected BoolTensor for mask")
        np.broadcast_shapes(input._data.shape, mask._data.shape)
    except (RuntimeError, ValueError) as e:   # (the kernel's checks, after VariableType collected the edge)
        _dispatch.check_rebased_inputs(input)
        if isinstance(e, ValueError):   # (PyTorch broadcasts the mask to input: the mask is "tensor a")
            _ops._raise_broadcast_error(mask._data.shape, input._data.shape)
        raise
    if _vmap_batched.DEPTH[0]:
        _vmap_batched.check_masked_select(mask)
    return D.masked_select(input, mask=mask)


def bincount(input, weights=None, minlength=0):
    """Count of each value of a 1-D non-negative integer tensor (weighted sums with ``weights``)."""
    _meta.check_kernel("bincount", input, weights)
    _vmap_batched.check_fallback_examples("bincount", input, weights)   # (no batching rule: before the kernel's checks)
    if input.dtype._kind != 1 or input.dtype in _dtypes.BAREBONES_UNSIGNED:
        raise NotImplementedError(f"\"bincount_cpu\" not implemented for '{_ops._legacy(input.dtype)}'")
    if input.dim() != 1:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if input.numel() and int(input._data.min()) < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    w = None if weights is None else weights._data
    out = np.bincount(input._data, weights=w, minlength=minlength)
    dt = np.int64 if w is None else (w.dtype if w.dtype.kind == "f" else np.float64)
    inputs = (input,) if weights is None else (input, weights)
    return _dispatch.function_result_version("bincount", inputs, Tensor._make(out.astype(dt)))


def histc(input, bins=100, min=0, max=0):
    """Histogram with ``bins`` equal bins between min and max (the data's range when both are 0)."""
    if not _ops._is_int(bins):
        raise _arg_errors.must_be("histc", "bins", "int", bins)
    _vmap_batched.fallback("histc", input)   # (no batching rule: before the kernel's checks)
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    if input.dtype is _dtypes.bool_:
        raise NotImplementedError("\"linspace_cpu\" not implemented for 'Bool'")
    unsigned = input.dtype in _dtypes.BAREBONES_UNSIGNED   # (refused by the kernels that complex numbers meet)
    if input.dtype._kind == 1 and not unsigned:
        raise NotImplementedError(f"\"histogram_cpu\" not implemented for '{_ops._legacy(input.dtype)}'")
    lo, hi = float(min), float(max)
    if input.is_complex() or unsigned:
        kernel = "aminmax_cpu" if lo == hi and input.numel() else "histogram_cpu"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_ops._legacy(input.dtype)}'")
    data = input._data.astype(np.float64)
    if lo == hi and data.size:
        lo, hi = float(data.min()), float(data.max())
    if not (np.isfinite(lo) and np.isfinite(hi)):
        # (a NaN from the data prints as C++ prints the NaN the CPU makes: "-nan")
        text = [("-nan" if np.isnan(v) and float(min) == float(max) else f"{v:g}") for v in (lo, hi)]
        raise RuntimeError(f"torch.histc: range of [{text[0]}, {text[1]}] is not finite")
    if lo > hi:
        raise RuntimeError("torch.histc: max must be larger than min")
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if input.dtype.itemsize == 2:   # float16/bfloat16: PyTorch's kernel in the half type (see _histc_half)
        return _dispatch.function_result_version("histc", (input,), Tensor._make(_histc_half(input._data, bins, lo,
                                                                                              hi)))
    t = input._data.dtype.type
    left, right = t(lo), t(hi)   # (the kernel's outer edges: linspace(min, max, bins + 1) in the input's dtype)
    if left < right:   # (PyTorch's bin: ⌊(x - min)·bins/(max - min)⌋ in the input's dtype: 1 - 1e-8 rounds down)
        part = input._data.reshape(-1)
        part = part[(part >= left) & (part <= right)]   # (NaNs and values outside the range are not counted)
        pos = ((part - left) * t(bins) / (right - left)).astype(np.int64)
        counts = np.bincount(np.minimum(pos, bins - 1), minlength=bins)   # (max itself: the last bin)
    else:
        counts, _ = np.histogram(data, bins=bins, range=(lo, hi))
    return _dispatch.function_result_version("histc", (input,), Tensor._make(counts.astype(input._data.dtype)))


def _histc_half(x, bins, lo, hi):
    """PyTorch's histc kernel on float16/bfloat16 values: bin ⌊(x - min)·bins/(max - min)⌋, each step rounded to
    the half type (min and max too); each thread counts its slice of the values (parallel_for, 200 a piece at
    least) in a histogram of the half type, where a count stops growing once 1 is below half its ulp (2048 for
    float16, 256 for bfloat16); the threads' histograms are then summed in float32 and rounded."""
    from ._reduce import THREADS
    t = x.dtype.type
    left, right = t(lo), t(hi)
    flat = x.reshape(-1)
    threads = max(1, min(THREADS[0], -(-flat.size // 200)))
    chunk = -(-flat.size // threads)
    total = np.zeros(bins, np.float32)
    for k in range(threads):
        part = flat[k * chunk:(k + 1) * chunk]
        part = part[(part >= left) & (part <= right)]   # (NaNs and values outside the range are not counted)
        pos = ((part - left) * t(bins) / (right - left)).astype(np.int64)
        pos = np.clip(np.where(pos == bins, bins - 1, pos), 0, bins - 1)   # (max itself: the last bin)
        counts = np.zeros(bins, x.dtype)
        np.add.at(counts, pos, t(1))   # (one at a time, rounded each time, as the kernel's += 1)
        total += counts.astype(np.float32)
    return total.astype(x.dtype)


def isin(elements, test_elements, *, assume_unique=False, invert=False):
    """True where an element of ``elements`` is in ``test_elements``."""
    if _vmap_batched.DEPTH[0]:   # (no batching rule: before the kernel's checks)
        overload = "_".join("Tensor" if isinstance(x, Tensor) else "Scalar" for x in (elements, test_elements))
        _vmap_batched.fallback("isin." + overload, elements, test_elements)
    for x in (elements, test_elements):   # (no kernel for bool or complex values; a Python number's own type)
        kind = x.dtype._kind if isinstance(x, Tensor) else 0 if isinstance(x, bool) else \
            3 if isinstance(x, complex) else 1
        if kind == 0 or kind == 3:
            name = _ops._legacy(x.dtype) if isinstance(x, Tensor) else "Bool" if kind == 0 else "ComplexDouble"
            raise RuntimeError(f"Unsupported input type encountered for isin(): {name}")
    a = elements._data if isinstance(elements, Tensor) else np.asarray(elements)
    b = test_elements._data if isinstance(test_elements, Tensor) else np.asarray(test_elements)
    result = Tensor._make(np.isin(a, b, invert=invert))
    tensors = [t for t in (elements, test_elements) if isinstance(t, Tensor)]
    return _dispatch.function_result_version("isin", tensors, result) if tensors else result


def is_nonzero(input) -> bool:
    """bool(input) for a one-element tensor."""
    if input.numel() == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if input.numel() > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(input)


# =============================================================================================
# aminmax, nanmedian, bucketize, searchsorted (missing-ops pass)
# =============================================================================================

def aminmax(input, *, dim=None, keepdim=False):
    """(min, max) of all elements, or along ``dim``; each output's gradient goes to the elements equal to it."""
    if dim is not None and not _ops._is_int(dim):
        raise _arg_errors.must_be("aminmax", "dim", "int", dim)
    if dim is None:
        if input.numel() == 0 and _vmap_batched.batch_dims(input):  # (vmap's batch rule: the flat examples' dim)
            raise IndexError(f"aminmax: Expected reduction dim {_vmap_batched.batch_dims(input)} to have non-zero "
                             "size.")
        if input.numel() == 0:
            _dispatch.check_rebased_inputs(input)
            raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
                               "identity.")
    else:
        d = _ops._wrap_dim_of(dim, input)
        if input.dim() and input._data.shape[d] == 0:
            _dispatch.check_rebased_inputs(input)
            raise IndexError(f"aminmax: Expected reduction dim {d + _vmap_batched.batch_dims(input)} to have "
                             "non-zero size.")  # (inside vmap: the physical dim)
        dim = int(dim)
    if input.is_complex():  # (after the dim's checks, as PyTorch's)
        if dim is not None and input.dim() == 0:  # (a check of its own for a scalar along a dim)
            raise RuntimeError(f"aminmax not implemented for {_ops._legacy(input.dtype)}")
        raise NotImplementedError(f"\"aminmax_cpu\" not implemented for '{_ops._legacy(input.dtype)}'")
    low, high = D.aminmax(input, dim=dim, keepdim=bool(keepdim))
    return return_types.aminmax((low, high))


def _batched_median_all(input) -> None:
    """median() / nanmedian() of a batched input: vmap's batch rule takes the median along a dim of the flattened
    examples, with that overload's errors (the physical dim after the batch dims; "median_out" for its dtypes)."""
    batch = _vmap_batched.batch_dims(input)
    if batch and input.numel() == 0:
        raise IndexError(f"median(): Expected reduction dim {batch} to have non-zero size.")
    if batch and (input.dtype is _dtypes.bool_ or input.is_complex()):
        raise NotImplementedError(f"\"median_out\" not implemented for '{_ops._legacy(input.dtype)}'")


def nanmedian(input, dim=_ops._ALL_DIMS, keepdim=False):
    """The lower median of the non-NaN elements, or (values, indices) along ``dim``."""
    if dim is _ops._ALL_DIMS and keepdim:  # (PyTorch's overload with keepdim also needs a dim)
        raise TypeError('nanmedian() missing 1 required positional arguments: "dim"')
    if dim is _ops._ALL_DIMS:
        _batched_median_all(input)
        if input.numel() and (input.dtype is _dtypes.bool_ or input.is_complex()):
            raise NotImplementedError(f"\"median_cpu\" not implemented for '{_ops._legacy(input.dtype)}'")
        _no_complex_grad("nanmedian", input)   # (an empty complex input: no kernel ran)
        if _vmap_batched.reduces_flattened(input):
            return D.nanmedian_dim(input.reshape(-1), dim=0, keepdim=False)[0]
        return D.nanmedian_all(input)  # (NaN, as the input's dtype, for an empty input)
    if not _ops._is_int(dim):
        raise _arg_errors.must_be("nanmedian", "dim", "int", dim, 2)
    d = _ops._wrap_dim_of(dim, input)
    if input.dim() and input._data.shape[d] == 0:  # (the size check before the kernel's dtype dispatch)
        _dispatch.check_rebased_inputs(input)
        raise IndexError(f"median(): Expected reduction dim {d + _vmap_batched.batch_dims(input)} to have non-zero "
                         "size.")  # (inside vmap: the physical dim)
    if input.dtype is _dtypes.bool_ or input.is_complex():
        raise NotImplementedError(f"\"median_out\" not implemented for '{_ops._legacy(input.dtype)}'")
    values, indices = D.nanmedian_dim(input, dim=int(dim), keepdim=bool(keepdim))
    return return_types.make("nanmedian", values, indices)


def _binary_search(boundaries: np.ndarray, values: np.ndarray, right: bool) -> np.ndarray:
    """PyTorch's lower/upper bound: for each value, the first boundary not < it (``right``: not <= it).

    A plain bisection over each row of ``boundaries`` (a row per row of ``values``), step for step as
    PyTorch's kernel, so NaNs and unsorted boundaries give PyTorch's answers too.
    """
    start = np.zeros(values.shape, np.int64)
    end = np.full(values.shape, boundaries.shape[-1], np.int64)
    rows = np.arange(values.shape[0])[:, None]
    with np.errstate(invalid="ignore"):
        while True:
            active = start < end
            if not active.any():
                return start
            mid = start + (end - start) // 2
            at = boundaries[rows, np.minimum(mid, boundaries.shape[-1] - 1)]
            go_right = ~(at > values) if right else ~(at >= values)
            start = np.where(active & go_right, mid + 1, start)
            end = np.where(active & ~go_right, mid, end)


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None, out=None):
    """Where each value of ``input`` would go in the (last-dim) sorted ``sorted_sequence`` to keep it sorted."""
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of left "
                               "while right was True")
        right = side == "right"
    return _search("searchsorted", sorted_sequence, input, out_int32, right, sorter, out)


def bucketize(input, boundaries, *, out_int32=False, right=False, out=None):
    """The bucket of each value: the index of the first boundary >= it (> it with ``right``)."""
    if out is not None and not isinstance(input, Tensor):   # (its overload of a number has no out=)
        from ._parser_signatures import OVERLOADS
        raise _arg_errors.invalid_combination("bucketize", (input, boundaries), {
            **{k: v for k, v in (("out_int32", out_int32), ("right", right)) if v}, "out": out}, OVERLOADS["bucketize"])
    if boundaries.dim() != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.dim()})")
    return _search("bucketize", boundaries, input, out_int32, right, None, out)


def _search(name, boundaries, input, out_int32, right, sorter, out=None):
    scalar = not isinstance(input, Tensor)
    values = _ops._wrap_scalar(input) if scalar else input
    if boundaries.dim() == 0:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 "
                           "dimension")
    if scalar and boundaries.dim() != 1:
        raise RuntimeError("torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension "
                           f"is 1, but we got boundaries tensor dim({boundaries.dim()}) and input value's dim(0) "
                           "numel(1)")
    if boundaries.dim() != 1 and tuple(boundaries.shape[:-1]) != tuple(values.shape[:-1]):
        raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                           "dimensions of boundaries tensor and input value tensor must match, but we got boundaries "
                           f"tensor {list(boundaries.shape)} and input value tensor {list(values.shape)}")
    seq = boundaries._data
    if sorter is not None:
        if sorter.dtype is not _dtypes.int64:
            raise RuntimeError("torch.searchsorted(): sorter must be a tensor of long dtype but got dtype "
                               f"{_ops._legacy(sorter.dtype)}")
        if tuple(sorter.shape) != tuple(boundaries.shape):
            raise RuntimeError("torch.searchsorted(): boundary and sorter must have the same size, but got boundary "
                               f"tensor {list(boundaries.shape)}and got sorter tensor {list(sorter.shape)}")
        n = seq.shape[-1]
        if sorter.numel() and (int(sorter._data.min()) < 0 or int(sorter._data.max()) >= n):
            raise RuntimeError("torch.searchsorted(): sorter index out of range")
        seq = np.take_along_axis(seq, sorter._data, axis=-1)
    if out is not None and out.dtype is not (_dtypes.int32 if out_int32 else _dtypes.int64):
        raise RuntimeError("torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) or "
                           "Long(int64) depending on whether out_int32 flag is True, but we got output tensor's dtype "
                           f"{_ops._legacy(out.dtype)} and out_int32 flag is {out_int32}")
    dt = _dtypes.result_type(boundaries, values if not scalar else input)
    if dt is _dtypes.bool_ or dt.is_complex or dt in _dtypes.BAREBONES_UNSIGNED:
        raise NotImplementedError(f"\"searchsorted_out_cpu\" not implemented for '{_ops._legacy(dt)}'")
    with np.errstate(invalid="ignore", over="ignore"):
        seq = seq.astype(dt.np, copy=False)
        vals = values._data.astype(dt.np, copy=False)
    if boundaries.dim() == 1:
        flat = vals.reshape(1, -1)
        rows = seq.reshape(1, -1)
    else:
        # (rows counted from the shape, not with -1: NumPy cannot infer it for an empty tensor)
        flat = vals.reshape(math.prod(vals.shape[:-1]), vals.shape[-1]) if vals.ndim else vals.reshape(1, 1)
        rows = seq.reshape(math.prod(seq.shape[:-1]), seq.shape[-1])
    found = _binary_search(rows, flat, right).reshape(vals.shape)
    result = _meta.follow(Tensor._make(found.astype(np.int32 if out_int32 else np.int64)), boundaries, values)
    if _vmap_batched.DEPTH[0]:   # (inside vmap: batched as its inputs)
        _vmap_batched.follow(result, boundaries, values)
    if out is None:
        return result
    # (out=: no derivative, so taken even while autograd records; resized as PyTorch's resize_output does)
    if tuple(out.shape) != tuple(result.shape):
        if out.numel():
            _ops._warn_resized(out._data.shape, result._data.shape)
        from ._ops_inplace_views import resize_output
        resize_output(out, tuple(result.shape))
    with grad_mode.no_grad():
        out.copy_(result)
    return out


# =============================================================================================
# Tensor methods and minigrad.* names
# =============================================================================================

# Tensor methods that are also minigrad.* functions.
METHODS = [
    "sort", "argsort", "msort", "topk", "kthvalue", "median", "mode", "unique", "unique_consecutive", "nonzero",
    "argwhere", "count_nonzero", "masked_select", "bincount", "histc", "is_nonzero",
    "aminmax", "nanmedian", "quantile", "nanquantile",
]
# minigrad.* functions only.
FUNCTIONS = [
    "isin", "bucketize", "searchsorted",
]


def _attach_methods():
    for name in METHODS:
        setattr(Tensor, name, globals()[name])
    Tensor.nonzero = _nonzero_method
    for name in ("quantile", "nanquantile"):  # (PyTorch's "invalid combination" error, as methods list it)
        setattr(Tensor, name, _arg_errors.method_form(globals()[name], name))
    # (x.aminmax(0): "aminmax() takes 0 positional arguments but 1 was given", self not counted)
    Tensor.aminmax = _arg_errors.counting_without_self(aminmax, "aminmax")
    for name in ("kthvalue", "mode"):   # (x.mode(1, 1): "argument 'keepdim' (position 2)", self not counted)
        setattr(Tensor, name, _arg_errors.counting_without_self(globals()[name], name))


_attach_methods()
