"""Sorting, selection and counting: sort, topk, median, unique, nonzero, bincount ...

As in ``_ops.py``: argument checks and PyTorch's error messages here, derivatives (of the sorted or
selected values) in ``derivatives.py``; indices and counts carry no gradient.
"""
from __future__ import annotations

import numpy as np

from . import _arg_errors, _dtypes, _ops, return_types
from . import derivatives as D
from ._tensor import Tensor

# =============================================================================================
# Sorting and order statistics
# =============================================================================================

def sort(input, dim=-1, descending=False, *, stable=False):
    """(values, indices) sorted along ``dim``; the values are differentiable (SortBackward0)."""
    if not _ops._is_int(dim):
        raise _arg_errors.invalid_combination("sort", (input,), {"dim": dim}, _SORT_OVERLOADS)
    _ops._wrap_dim(dim, input.dim())
    values, indices = D.sort(input, dim=int(dim), descending=bool(descending))
    return return_types.make("sort", values, indices)


def argsort(input, dim=-1, descending=False, *, stable=False):
    """Indices that sort ``input`` along ``dim``."""
    if not _ops._is_int(dim):
        raise _arg_errors.invalid_combination("argsort", (input,), {"dim": dim}, _ARGSORT_OVERLOADS)
    return sort(input, dim, descending).indices


# How PyTorch's "invalid combination of arguments" error lists sort's and argsort's overloads.
_SORT_OVERLOADS = (
    "(Tensor input, *, bool stable, int dim = -1, bool descending = False, tuple of Tensors out = None)",
    "(Tensor input, int dim = -1, bool descending = False, *, tuple of Tensors out = None)")
_ARGSORT_OVERLOADS = ("(Tensor input, *, bool stable, int dim = -1, bool descending = False, Tensor out = None)",
                      "(Tensor input, int dim = -1, bool descending = False)")


def msort(input):
    """Sorted along the first dim."""
    return sort(input, 0).values


def topk(input, k, dim=-1, largest=True, sorted=True):
    """(values, indices) of the ``k`` largest (or smallest) elements along ``dim``."""
    if input.dtype is _dtypes.bool_:
        raise RuntimeError("topk does not support bool dtypes on CPU")
    _ops._check_int_dim("topk", dim)
    d = _ops._wrap_dim(dim, input.dim())
    size = input._data.shape[d] if input.dim() else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    if input.dim() == 0 and k == 0:
        return return_types.make("topk", D.alias(input), Tensor._make(np.zeros((), np.int64)))
    values, indices = D.topk(input, k=int(k), dim=int(dim), largest=bool(largest), sorted=bool(sorted))
    return return_types.make("topk", values, indices)


def kthvalue(input, k, dim=-1, keepdim=False):
    """(values, indices) of the k-th smallest element along ``dim`` (as sort, then select)."""
    _ops._check_int_dim("kthvalue", dim)
    d = _ops._wrap_dim(dim, input.dim())
    if not 1 <= k <= (input._data.shape[d] if input.dim() else 1):
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    values, indices = D.kthvalue(input, k=int(k), dim=int(dim), keepdim=bool(keepdim))
    return return_types.make("kthvalue", values, indices)


def median(input, dim=_ops._ALL_DIMS, keepdim=False):
    """The lower median of all elements, or (values, indices) along ``dim``."""
    if dim is _ops._ALL_DIMS and keepdim:  # (PyTorch's overload with keepdim also needs a dim)
        raise TypeError('median() missing 1 required positional arguments: "dim"')
    if dim is _ops._ALL_DIMS:
        if input.numel() == 0:
            return Tensor._make(np.array(np.nan, input._data.dtype))
        return D.median_all(input)
    if not _ops._is_int(dim):
        raise _arg_errors.must_be("median", "dim", "int", dim)
    _ops._wrap_dim(dim, input.dim())
    values, indices = D.median_dim(input, dim=int(dim), keepdim=bool(keepdim))
    return return_types.make("median", values, indices)


def mode(input, dim=-1, keepdim=False):
    """(values, indices): the most frequent value along ``dim`` (the smallest among ties)."""
    _ops._check_int_dim("mode", dim)
    _ops._wrap_dim(dim, input.dim())
    values, indices = D.mode(input, dim=int(dim), keepdim=bool(keepdim))
    return return_types.make("mode", values, indices)


# =============================================================================================
# Selection and counting
# =============================================================================================

def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct values (sorted), optionally with inverse indices and counts."""
    if dim is not None:
        raise NotImplementedError("unique(dim=...) is not supported")
    values, inverse, counts = np.unique(input._data, return_inverse=True, return_counts=True)
    out = [Tensor._make(values)]
    if return_inverse:
        out.append(Tensor._make(inverse.reshape(input._data.shape).astype(np.int64)))
    if return_counts:
        out.append(Tensor._make(counts.astype(np.int64)))
    return out[0] if len(out) == 1 else tuple(out)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Collapse runs of equal values (of the flattened input)."""
    flat = input._data.reshape(-1)
    starts = np.concatenate([[True], flat[1:] != flat[:-1]]) if flat.size else np.zeros(0, bool)
    out = [Tensor._make(flat[starts])]
    if return_inverse:
        out.append(Tensor._make((np.cumsum(starts) - 1).reshape(input._data.shape).astype(np.int64)))
    if return_counts:
        out.append(Tensor._make(np.diff(np.append(np.flatnonzero(starts), flat.size)).astype(np.int64)))
    return out[0] if len(out) == 1 else tuple(out)


def nonzero(input, *, as_tuple=False):
    """Indices of the non-zero elements: an (n, ndim) tensor, or one index tensor per dim."""
    idx = np.nonzero(np.atleast_1d(input._data))
    if as_tuple:
        return tuple(Tensor._make(i.astype(np.int64)) for i in idx)
    return Tensor._make(np.stack(idx, axis=1).astype(np.int64).reshape(-1, input.dim()))


def argwhere(input):
    """Same as nonzero(input)."""
    return nonzero(input)


def count_nonzero(input, dim=None):
    """Number of non-zero elements (over ``dim``)."""
    axis = None if dim is None else _ops._raw_dims(dim, input.dim()) or None  # []: every dim
    axis = None if input.dim() == 0 else axis
    return Tensor._make(np.asarray(np.count_nonzero(input._data, axis=axis), dtype=np.int64))


def masked_select(input, mask):
    """The elements of ``input`` where ``mask`` is True, as a 1-D tensor."""
    if mask.dtype is not _dtypes.bool_:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    try:
        np.broadcast_shapes(input._data.shape, mask._data.shape)
    except ValueError:
        _ops._raise_broadcast_error(input._data.shape, mask._data.shape)
    return D.masked_select(input, mask=mask)


def bincount(input, weights=None, minlength=0):
    """Count of each value of a 1-D non-negative integer tensor (weighted sums with ``weights``)."""
    if input.dtype._kind > 1:
        raise NotImplementedError(f"\"bincount_cpu\" not implemented for '{_ops._legacy(input.dtype)}'")
    if input.dim() != 1:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if input.numel() and int(input._data.min()) < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    w = None if weights is None else weights._data
    out = np.bincount(input._data, weights=w, minlength=minlength)
    dt = np.int64 if w is None else (w.dtype if w.dtype.kind == "f" else np.float64)
    return Tensor._make(out.astype(dt))


def histc(input, bins=100, min=0, max=0):
    """Histogram with ``bins`` equal bins between min and max (the data's range when both are 0)."""
    data = input._data.astype(np.float64)
    lo, hi = float(min), float(max)
    if lo == hi and data.size:
        lo, hi = float(data.min()), float(data.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    counts, _ = np.histogram(data, bins=bins, range=(lo, hi))
    return Tensor._make(counts.astype(input._data.dtype))


def isin(elements, test_elements, *, assume_unique=False, invert=False):
    """True where an element of ``elements`` is in ``test_elements``."""
    a = elements._data if isinstance(elements, Tensor) else np.asarray(elements)
    b = test_elements._data if isinstance(test_elements, Tensor) else np.asarray(test_elements)
    return Tensor._make(np.isin(a, b, invert=invert))


def is_nonzero(input) -> bool:
    """bool(input) for a one-element tensor."""
    if input.numel() == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if input.numel() > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(input)


# =============================================================================================
# Tensor methods and minigrad.* names
# =============================================================================================

# Tensor methods that are also minigrad.* functions.
METHODS = [
    "sort", "argsort", "msort", "topk", "kthvalue", "median", "mode", "unique", "unique_consecutive", "nonzero",
    "argwhere", "count_nonzero", "masked_select", "bincount", "histc", "is_nonzero",
]
# minigrad.* functions only.
FUNCTIONS = [
    "isin",
]


def _attach_methods():
    for name in METHODS:
        setattr(Tensor, name, globals()[name])


_attach_methods()
