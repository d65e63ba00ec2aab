"""Writing values into chosen positions: ``index_fill``, ``index_put`` and ``masked_scatter``, each with
its in-place form (``x.index_fill_(dim, index, value)`` ...).

Argument checks and PyTorch's messages are here; the derivatives are in ``derivatives.py`` (the
gathering and scattering section, and advanced indexing for ``index_put``).
"""
from __future__ import annotations

import warnings
from numbers import Number

import numpy as np

from . import _arg_errors, _dispatch, _dtypes, _indexing, _ops, _vmap_batched
from . import derivatives as D
from ._ops import _legacy, _raise_broadcast_error, _wrap_dim
from ._tensor import Tensor, _user_stacklevel

# =============================================================================================
# index_fill: the slices at ``index`` along ``dim`` take one value
# =============================================================================================


def index_fill(input: Tensor, *args, **kwargs) -> Tensor:
    """index_fill(input, dim, index, value): a copy of input whose slices ``index`` along ``dim`` are ``value``
    (a number or a 0-dim tensor)."""
    return _index_fill(input, *_index_fill_args("index_fill", input, args, kwargs), None)


def index_fill_(input: Tensor, *args, **kwargs) -> Tensor:
    """index_fill_(dim, index, value): in-place index_fill."""
    return _index_fill(input, *_index_fill_args("index_fill_", input, args, kwargs), input)


_INDEX_FILL_OVERLOADS = ("(Tensor input, int dim, Tensor index, Tensor value)",
                         "(Tensor input, int dim, Tensor index, Number value)")


def _index_fill_args(name, input, args, kwargs) -> tuple:
    """(dim, index, value) of an index_fill call, or PyTorch's error when neither overload takes it."""
    names = ("dim", "index", "value")
    given = {**dict(zip(names, args)), **kwargs}
    fits = (isinstance(input, Tensor) and len(args) <= 3 and set(given) == set(names)
            and len(given) == len(args) + len(kwargs)  # (no argument given twice)
            and isinstance(given["dim"], (int, np.integer)) and not isinstance(given["dim"], bool)
            and isinstance(given["index"], Tensor) and isinstance(given["value"], (Tensor, Number)))
    if not fits:
        raise _arg_errors.invalid_combination(name, (input, *args), kwargs, _INDEX_FILL_OVERLOADS)
    return given["dim"], given["index"], given["value"]


def _index_fill(input, dim, index, value, out):
    try:
        if index.dtype is not _dtypes.int64:
            raise IndexError("index_fill_(): Expected dtype int64 for index.")
        if out is not None:  # (vmap's refusal before the value's .item())
            _vmap_batched.check_inplace("index_fill", out, (index, value))
        if isinstance(value, Tensor):
            if value.dim() != 0:
                raise RuntimeError("index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                                   f"{value.dim()} dimension(s).")
            # (a batched value inside vmap: PyTorch's batch rule fills each example with its own, no .item())
            number = value._data.item() if _vmap_batched.DEPTH[0] and _vmap_batched.levels(value) else value.item()
        else:
            number = value
        if isinstance(number, complex) and not input.is_complex():
            raise RuntimeError("index_fill_(): Converting complex Scalar to non-complex type is not supported")
        d = _wrap_dim(dim, max(input.dim(), 1))  # (a 0-dim input counts as one dim here)
        if index.dim() > 1:
            raise RuntimeError("Index has to be a vector/scalar")
        if not (isinstance(value, Tensor) and _vmap_batched.DEPTH[0] and _vmap_batched.levels(value)):
            # (the kernel's checked conversion of the number, or of a tensor's item(), after the dim's checks: -3.25
            # into uint8 refused)
            _ops._check_scalar_fits(number, input.dtype)
        size = input._data.shape[d] if input.dim() else 1
        idx = index._data.reshape(-1)
        bad = idx[(idx >= size) | (idx < -size)]
        if bad.size and not (input.dim() > 1 and input._data.size == 0):  # (PyTorch: no check, nothing filled)
            raise IndexError(f"index {int(bad[0])} is out of bounds for dimension "
                             f"{_vmap_batched.physical_dim(d, input, index, value)} with size {size}")
    except (IndexError, RuntimeError):   # (the kernel's checks, after VariableType collected the edges)
        _dispatch.check_rebased_inputs(input, value)
        raise
    if isinstance(value, Tensor):
        return D.index_fill_tensor(input, index, value, out=out, dim=dim)
    return D.index_fill(input, index, out=out, dim=dim, value=value)


# =============================================================================================
# index_put: x[indices] = values as a function (``accumulate=True``: x[indices] += values)
# =============================================================================================

def index_put(input: Tensor, indices, values: Tensor, accumulate: bool = False) -> Tensor:
    """A copy of input with ``values`` put at ``indices`` (a tuple of index tensors, one per leading dim)."""
    return _index_put("index_put", input, indices, values, accumulate, None)


def index_put_(input: Tensor, indices, values: Tensor, accumulate: bool = False) -> Tensor:
    """In-place index_put (what ``x[i, j] = v`` does with tensor indices)."""
    return _index_put("index_put_", input, indices, values, accumulate, input)


def _index_put(name, input, indices, values, accumulate, out):
    if not isinstance(indices, (tuple, list)):
        raise _arg_errors.must_be(name, "indices", "tuple of Tensors", indices, 1)
    for k, i in enumerate(indices):
        if not isinstance(i, Tensor):
            raise TypeError(f"expected Tensor as element {k} in argument 0, but got {_arg_errors.type_name(i)}")
    if not isinstance(values, Tensor):
        raise _arg_errors.must_be(name, "values", "Tensor", values, 2)
    if not indices and not accumulate and values.numel() == 1:   # (masked_fill_'s path, given no mask at all)
        if input.dim() == 0:
            raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype nullptr "
                               "(uninitialized)")
        raise RuntimeError("sym_strides() called on an undefined Tensor")
    if out is not None:  # (vmap's refusal counts a batched index too)
        _vmap_batched.check_inplace("index_put_", out, (values, *indices))
    if len(indices) > input.dim():   # (_index_put_impl_ counts the index tensors, a k-dim mask as one)
        raise IndexError(f"too many indices for tensor of dimension {input.dim()} (got {len(indices)})")
    if not accumulate and values.numel() == 1:
        _check_mask_sizes(input, indices, masked_fill=True)
    advanced, dim = [], 0
    for i in indices:
        arr = i._data
        if i.dtype is _dtypes.uint8:
            arr = arr.astype(bool)
        elif not (i.dtype is _dtypes.bool_ or i.dtype in (_dtypes.int64, _dtypes.int32, _dtypes.int16, _dtypes.int8)):
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        advanced.append((dim, arr))
        dim += arr.ndim if arr.dtype == np.bool_ else 1
    if _vmap_batched.DEPTH[0]:  # (a batched mask: PyTorch's batch rule refuses it, or its kernel an empty one)
        masks = [(i, d) for i, (d, a) in zip(indices, advanced) if a.dtype == np.bool_]
        _vmap_batched.check_index_put_masks(input, masks, (values, *indices))
    _check_mask_sizes(input, indices, masked_fill=False)
    index_list = _indexing._index_list(input, advanced)  # (bounds, mask shapes, broadcasting)
    if not accumulate and values.numel() == 1 and len(indices) == 1 and advanced[0][1].dtype == np.bool_:
        # One mask and one value: PyTorch fills through masked_fill_ (any value dtype; bool masks only).
        if indices[0].dtype is _dtypes.uint8:
            raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype unsigned char")
        _dtypes.refuse_unsigned("masked_fill", input.dtype)
        index_list = _indexing._saved_indices(index_list, None, input, values, sources=indices)   # (versions checked)
        result = D.index_put(input, values, out=out, indices=index_list, accumulate=False,
                             dtype=None if values.dtype is input.dtype else input.dtype)
        if out is not None and _dispatch.is_expanded(out._data):   # (masked_fill_'s warning after index_put_'s)
            _dispatch.warn_expanded_write("MaskedFillBackward0")
        return result
    if any(i.dtype is _dtypes.uint8 for i in indices):
        warnings.warn("indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead. "
                      "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/IndexingUtils.h:37.)",
                      UserWarning, stacklevel=_user_stacklevel())
    if values.dtype is not input.dtype:
        raise D.index_put_dtype_error(input.dtype, values.dtype)
    target = D.index.forward(np.empty(input._data.shape, dtype=np.bool_), index_list).shape
    try:
        fits = np.broadcast_shapes(values._data.shape, target) == tuple(target)   # (values broadcast *to* target)
    except ValueError:
        fits = False
    if not fits:
        _dispatch.check_rebased_inputs(input, values)   # (the kernel's check, after VariableType collected the edges)
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(values._data.shape)} cannot be broadcast "
                           f"to indexing result of shape {list(target)}")
    if not indices and input.numel():   # (no index tensor: PyTorch's kernel fails an internal assert here, KNOWN)
        raise RuntimeError("sym_strides() called on an undefined Tensor")
    index_list = _indexing._saved_indices(index_list, None, input, values, sources=indices)   # (versions checked)
    if out is not None and accumulate and _dispatch.is_expanded(out._data):
        # (the additions go through the memory the expanded tensor shares: see derivatives._index_put_forward)
        if not isinstance(index_list, D.SavedIndices):
            index_list = D.SavedIndices(index_list)
        index_list.into_shared_memory = True
    result = D.index_put(input, values, out=out, indices=index_list, accumulate=bool(accumulate))
    if out is None:   # (the index tensors count too: one made outside inference mode makes the call a normal one)
        result = _dispatch.function_result_version("index_put", (input, values, *indices), result)
    return result


def _check_mask_sizes(input, indices, masked_fill: bool) -> None:
    """PyTorch's check of each mask's sizes against input's, dim by dim: in canDispatchToMaskedFill
    (``masked_fill``: up to the first index that is not a mask, or a second mask) and in expandTensors (all of
    them); a mask that runs past input's last dim asks input for the size of a dim out of range."""
    dim, ndim, seen = 0, input.dim(), False
    for i in indices:
        if i.dtype is not _dtypes.bool_ and i.dtype is not _dtypes.uint8:
            if masked_fill:
                return
            dim += 1
            continue
        if masked_fill and seen:
            return
        seen = True
        for j, n in enumerate(i._data.shape):
            if dim + j >= ndim:
                raise IndexError(f"Dimension out of range (expected to be in range of [{-max(ndim, 1)}, "
                                 f"{max(ndim, 1) - 1}], but got {dim + j})")
            if n != input._data.shape[dim + j]:
                raise IndexError(f"The shape of the mask {list(i._data.shape)} at index {j} does not match the "
                                 f"shape of the indexed tensor {list(input._data.shape)} at index {dim + j}")
        dim += i.dim()


# =============================================================================================
# masked_scatter: the masked positions take source's elements, in order
# =============================================================================================

def masked_scatter(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    """A copy of input (broadcast with mask) whose masked positions take source's leading elements."""
    _masked_scatter_args("masked_scatter", input, mask, source)
    try:
        np.broadcast_shapes(mask._data.shape, input._data.shape)
    except ValueError:
        _dispatch.check_rebased_inputs(input, source)   # (the kernel's check, after VariableType collected the edges)
        _raise_broadcast_error(mask._data.shape, input._data.shape)
    return _masked_scatter(input, mask, source, None)


def masked_scatter_(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    """In-place masked_scatter (the mask must broadcast to input's shape)."""
    _masked_scatter_args("masked_scatter_", input, mask, source)
    _vmap_batched.check_inplace("masked_scatter_", input, (mask, source))  # (vmap's refusal before the dtype check)
    _dispatch._no_internal_overlap_first(None, input)  # (its elements sharing memory: refused before the rest)
    D.MASKED_SCATTER_IN_PLACE[0] = True   # (a source sharing input's memory is read as it is written)
    source_t = source._fw_grad
    try:
        if source_t is not None and input._fw_grad is not None:
            # (forward AD: PyTorch's formula ``self_t.masked_scatter_(mask, source_t)`` writes self's tangent in
            # place as it reads source's, which may be a view of it: source_t as that serial kernel reads it)
            source._fw_grad = _serial_source_tangent(input, mask, source_t)
        return _masked_scatter(input, mask, source, input)
    finally:
        D.MASKED_SCATTER_IN_PLACE[0] = False
        source._fw_grad = source_t


def _serial_source_tangent(input, mask, source_t):
    """``source_t``, or a copy holding what masked_scatter_'s serial kernel reads of it while it writes input's
    tangent, when the two share memory (see derivatives._serial_reads)."""
    t = input._fw_grad._data
    s = source_t._data
    if s.dtype != t.dtype or not s.flags.c_contiguous or not np.shares_memory(t, s):
        return source_t
    where = np.broadcast_to(mask._data, t.shape).astype(bool, copy=False)
    count = min(int(where.sum()), s.size)
    read = s.copy()
    read.reshape(-1)[:count] = D._serial_reads(t, where, s, s.reshape(-1)[:count])
    return Tensor._make(read)


def _masked_scatter_args(name, input, mask, source) -> None:
    for arg, position, value in (("mask", 1, mask), ("source", 2, source)):
        if not isinstance(value, Tensor):
            raise _arg_errors.must_be(name, arg, "Tensor", value, position)


def _masked_scatter(input, mask, source, out):
    if source.dtype is not input.dtype:
        # (PyTorch's message has no space after "got")
        raise RuntimeError("masked_scatter: expected self and source to have same dtypes but got"
                           f"{_legacy(input.dtype)} and {_legacy(source.dtype)}")
    if mask.dtype is _dtypes.uint8:
        try:
            warnings.warn("masked_scatter_ received a mask with dtype torch.uint8, this behavior is now deprecated,"
                          "please use a mask with dtype torch.bool instead. (Triggered internally at "
                          "/__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:3130.)",
                          UserWarning, stacklevel=_user_stacklevel())
        except Warning:  # (a warning made an error: PyTorch's error below, raised in the same call, wins)
            pass
    if mask.dtype is not _dtypes.bool_:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype "
                           f"{_legacy(mask.dtype)}")
    if out is not None:
        _check_expands(mask, out._data.shape)
    shape = np.broadcast_shapes(mask._data.shape, input._data.shape)
    count = int(np.broadcast_to(mask._data, shape).sum())
    if source.numel() < count:
        _dispatch.check_rebased_inputs(input, source)   # (the kernel's check, after VariableType collected the edges)
        raise RuntimeError("Number of elements of source < number of ones in mask")
    return D.masked_scatter(input, mask, source, out=out)


def _check_expands(mask, shape) -> None:
    """PyTorch's expand_inplace errors for a mask that does not broadcast to the written tensor's shape."""
    mshape = mask._data.shape
    if len(mshape) > len(shape):
        raise RuntimeError(f"expand(CPUBoolType{{{list(mshape)}}}, size={list(shape)}): the number of sizes provided "
                           f"({len(shape)}) must be greater or equal to the number of dimensions in the tensor "
                           f"({len(mshape)})")
    lead = len(shape) - len(mshape)
    for i in reversed(range(len(shape))):   # (last dim first, as expand checks: the first error wins)
        s = shape[i]
        if i >= lead and mshape[i - lead] not in (1, s):
            raise RuntimeError(f"The expanded size of the tensor ({s}) must match the existing size "
                               f"({mshape[i - lead]}) at non-singleton dimension {i}.  Target sizes: "
                               f"{list(shape)}.  Tensor sizes: {list(mshape)}")

# ---- put: write source's values at flat positions of the input ----------------------------------

def _put(input: Tensor, index: Tensor, source: Tensor, accumulate: bool, out) -> Tensor:
    try:
        if index.dtype is not _dtypes.int64:
            raise RuntimeError(f"put_(): Expected a long tensor for index, but got {_legacy(index.dtype)}")
        if source.dtype is not input.dtype:
            raise RuntimeError("put_(): self and source expected to have the same dtype, but got "
                               f"self.dtype = {_legacy(input.dtype)} and source.dtype = {_legacy(source.dtype)}")
        if index.numel() != source.numel():
            raise IndexError("put_(): Expected source and index to have the same number of elements, but got "
                             f"source.numel() = {source.numel()}, index.numel() = {index.numel()}")
        n = input.numel()
        if n == 0 and index.numel():
            raise IndexError("put_(): Tried to put elements into an empty tensor")
        bad = index._data[(index._data >= n) | (index._data < -n)]
        if bad.size:
            if out is not None:  # (put_'s overlap asserts come before its kernel finds an index out of range)
                _dispatch._check_no_partial_overlap(out, (input, index, source), D.put)
            raise IndexError(f"out of range: tried to access index {int(bad.flat[0])} on a tensor of {n} elements.")
    except (IndexError, RuntimeError):   # (the kernel's checks, after VariableType collected the edges)
        _dispatch.check_rebased_inputs(input, source)
        raise
    return D.put(input, index, source, out=out, accumulate=bool(accumulate))


def put(input: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    """A copy of input whose flat positions ``index`` hold source's values (added to them with accumulate)."""
    return _put(input, index, source, accumulate, None)


def put_(input: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    """In-place put."""
    _vmap_batched.check_inplace("put_", input, (index, source))  # (vmap's refusal before the dtype check)
    return _put(input, index, source, accumulate, input)


# =============================================================================================
# Tensor methods and minigrad.* names
# =============================================================================================

METHODS = ["index_fill", "index_fill_", "index_put", "index_put_", "masked_scatter", "masked_scatter_", "put", "put_"]
FUNCTIONS = ["index_fill", "index_put", "index_put_", "masked_scatter", "put"]  # (PyTorch's torch.* names)


def _attach_methods() -> None:
    for name in METHODS:
        setattr(Tensor, name, globals()[name])
    for name in ("index_fill", "index_fill_"):  # (PyTorch's "invalid combination" error, as methods list it)
        setattr(Tensor, name, _arg_errors.method_form(globals()[name], name))


_attach_methods()

