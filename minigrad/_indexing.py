"""tensor[index] and tensor[index] = value, following PyTorch's python_variable_indexing.

Reading an index walks it left to right, as PyTorch's ``applySlicing`` does:
    int       select(dim, i)              a view (SelectBackward0), the dim disappears
    slice     slice(dim, start, stop)     a view (SliceBackward0); in a tuple, ``:`` is skipped
    None      unsqueeze(dim)              a view (UnsqueezeBackward0)
    ...       skips the dims nobody names
    bool      unsqueeze(dim), then index with [0] (True) or [] (False)
    integer / bool tensors, lists, arrays    "advanced" indices: gathered at the end by one
              ``index`` op (IndexBackward0), which copies
If nothing happened (``x[...]``, ``x[:, :]``) the result is an alias (AliasBackward0).

Writing reuses the same walk: the basic part gives a view of ``self``; without advanced indices the
value is copied into that view (CopySlices over CopyBackwards/FillBackward3 when the view is a part
of self), otherwise ``index_put_`` writes it (IndexPutBackward0).
"""
from __future__ import annotations

import warnings

import numpy as np

from . import _dispatch, _dtypes, _meta, _ops, _vmap_batched
from ._class_names import tp_name
from ._tensor import Tensor, _user_stacklevel

_INT64_MAX = 2**63 - 1
_FLOAT_INDEX_ERROR = "tensors used as indices must be long, int, byte or bool tensors"
_SEQUENCE_INDEX_WARNING = (
    "Using a non-tuple sequence for multidimensional indexing is deprecated and will be changed in pytorch 2.9; "
    "use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will be interpreted as tensor index, "
    "x[torch.tensor(seq)], which will result either in an error or a different result (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/autograd/python_variable_indexing.cpp:349.)")  # as PyTorch's C++ warning
_UINT8_INDEX_WARNING = ("indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead. "
                        "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/IndexingUtils.h:37.)")
_BAD_INDEX_ERROR = ("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid "
                    "indices (got {})")


# ---- turning a Python index into a list of items ------------------------------------------------

def _items(index) -> list:
    """The index as a list of items: int, slice, None, Ellipsis, bool, or an integer/bool ndarray."""
    if isinstance(index, tuple):
        parts = list(index)
    elif isinstance(index, list) and _list_is_tuple(index):
        # NumPy's legacy rule, kept (with a warning) by PyTorch: x[[0, slice(None)]] is x[0, :]
        warnings.warn(_SEQUENCE_INDEX_WARNING, UserWarning, stacklevel=_user_stacklevel())
        parts = list(index)
    elif isinstance(index, str) and 0 < len(index) < 32:
        # (a str is a sequence of sequences to PyTorch too: x['abc'] is x['a', 'b', 'c'], three indices)
        warnings.warn(_SEQUENCE_INDEX_WARNING, UserWarning, stacklevel=_user_stacklevel())
        parts = list(index)
    else:
        parts = [index]
    return [_item(p) for p in parts]


def _list_is_tuple(seq: list) -> bool:
    return any(isinstance(i, (slice, list, tuple, Tensor, np.ndarray)) or i is None or i is Ellipsis
               for i in seq) and len(seq) < 32


def _item(i):
    if i is None or i is Ellipsis or isinstance(i, slice):
        return i
    if isinstance(i, (bool, np.bool_)):
        return bool(i)
    if isinstance(i, (int, np.integer)):
        return int(i)
    if isinstance(i, Tensor):
        if i.dtype.is_floating_point or i.dtype.is_complex:
            raise IndexError(_FLOAT_INDEX_ERROR)
        if i.dim() == 0 and i.dtype.name in ("bool", "uint8"):
            return bool(i._data)  # a 0-dim bool (or byte) tensor indexes like a Python bool: unsqueeze, [0] or []
        if i.dim() == 0:
            return int(i._data)  # a 0-dim integer tensor indexes like a Python int
        if i.dtype.name == "uint8":
            return i._data.astype(np.bool_)  # a (deprecated) byte mask: see _uint8_masks
        if i.dtype.name not in ("int64", "int32", "bool"):
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        return i._data if i.dtype.name == "bool" else i._data.astype(np.int64, copy=False)
    if isinstance(i, str):
        return i  # (refused where the walk reaches it: PyTorch counts the indices first, "too many indices")
    if isinstance(i, (list, tuple, np.ndarray, range)):  # (x[range(n), target]: "What is torch.nn really?")
        arr = np.asarray(i)
        if arr.dtype.kind in "US":   # (x[['a']]: the list made a tensor first, as torch.tensor(['a']) fails)
            raise TypeError(f"new(): invalid data type '{'str' if arr.dtype.kind == 'U' else 'bytes'}'")
        if arr.dtype == object or arr.dtype.kind == "c":
            raise IndexError(_FLOAT_INDEX_ERROR)
        if arr.dtype.kind == "f":
            arr = arr.astype(np.int64)  # PyTorch turns a list index into a long tensor: x[[1.7]] is x[[1]]
        if arr.size == 0:
            arr = arr.astype(np.int64)
        return arr if arr.dtype == np.bool_ else arr.astype(np.int64, copy=False)
    raise IndexError(_BAD_INDEX_ERROR.format(tp_name(i)))


def _dims_used(items: list) -> int:
    n = 0
    for i in items:
        if isinstance(i, np.ndarray):
            n += i.ndim if i.dtype == np.bool_ else 1
        elif not (i is None or i is Ellipsis or isinstance(i, bool)):
            n += 1
    return n


# ---- the walk --------------------------------------------------------------------------------

def _slice_args(s: slice, size: int) -> tuple[int, int, int]:
    """(start, stop, step) as PyTorch passes them to aten.slice: raw values, None -> 0 / INT64_MAX."""
    step = 1 if s.step is None else _slice_bound(s.step)
    if step == 0:
        raise ValueError("slice step cannot be zero")
    if step < 0:
        raise ValueError("step must be greater than zero")
    start = 0 if s.start is None else _slice_bound(s.start)
    stop = _INT64_MAX if s.stop is None else _slice_bound(s.stop)
    return start, stop, step


def _slice_bound(value) -> int:
    """A slice's bound as CPython's PySlice_Unpack reads it: through ``__index__`` (x[1.:3] is refused)."""
    if not hasattr(type(value), "__index__"):
        raise TypeError("slice indices must be integers or None or have an __index__ method")
    return value.__index__()   # (a float tensor's own error: "only integer tensors of a single element ...")


def _apply(t: Tensor, items: list, single: bool):
    """The basic-indexing view of ``t`` and the advanced indices left (one entry per result dim)."""
    used = _dims_used(items)
    if used > t.dim():
        raise IndexError(f"too many indices for tensor of dimension {t.dim()}")
    out, dim, real_dim = t, 0, 0  # dim counts dims of ``out``, real_dim dims of ``t`` (for messages)
    advanced: list = []  # (result dim, array)
    for i in items:
        if i is Ellipsis:
            dim += t.dim() - used
            real_dim += t.dim() - used
            used = t.dim()  # a second ``...`` stands for no dims
        elif i is None:
            out = _ops.unsqueeze(out, dim)
            dim += 1
        elif isinstance(i, bool):
            out = _ops.unsqueeze(out, dim)
            advanced.append((dim, np.zeros(1 if i else 0, dtype=np.int64)))
            dim += 1
        elif isinstance(i, int):
            size = out._data.shape[dim]
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of bounds for dimension {real_dim} with size {size}")
            out = _ops.D.select(out, dim=dim, index=i)
            real_dim += 1
        elif isinstance(i, slice):
            start, stop, step = _slice_args(i, out._data.shape[dim])
            # In a tuple, a slice that keeps everything is skipped (PyTorch's slice optimization).
            if single or not (start == 0 and stop >= out._data.shape[dim] and step == 1):
                out = _ops.D.slice(out, dim=dim, start=start, end=stop, step=step)
            dim += 1
            real_dim += 1
        elif isinstance(i, str):
            raise TypeError(f"new(): invalid data type '{type(i).__name__}'")
        else:
            advanced.append((dim, i))
            k = i.ndim if i.dtype == np.bool_ else 1
            dim += k
            real_dim += k
    return out, advanced


def _index_list(view: Tensor, advanced: list) -> tuple:
    """PyTorch's index list: an array per indexed dim, None for dims taken whole (trailing Nones dropped)."""
    indices: list = []
    for dim, arr in advanced:
        while len(indices) < dim:
            indices.append(None)
        if arr.dtype == np.bool_:
            shape = view._data.shape[dim:dim + arr.ndim]
            if arr.shape != shape:
                for k, (a, b) in enumerate(zip(arr.shape, shape)):
                    if a != b:
                        raise IndexError(f"The shape of the mask {list(arr.shape)} at index {k} does not match "
                                         f"the shape of the indexed tensor {list(view._data.shape)} at index "
                                         f"{dim + k}")
            indices.append(arr)
            indices.extend([_MASK_CONTINUES] * (arr.ndim - 1))
        else:
            indices.append(arr)
    indices = [i for i in indices if i is not _MASK_CONTINUES]
    # (a k-dim mask stands for k index tensors, its nonzero()'s columns: k shapes in the message)
    shapes = [s for i in indices if i is not None
              for s in ([i.shape] if i.dtype != np.bool_ else [(int(i.sum()),)] * max(i.ndim, 1))]
    try:
        shape = np.broadcast_shapes(*shapes)
    except ValueError:
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together with shapes "
                         + ", ".join(str(list(s)) for s in shapes)) from None
    ndim = view.dim()
    if advanced and advanced[-1][0] + (advanced[-1][1].ndim if advanced[-1][1].dtype == np.bool_ else 1) > ndim:
        # (index_put_ given a mask and more indices than dims: AdvancedIndex asks for the size of dim ndim)
        raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {ndim})")
    try:
        _check_bounds(view, advanced, shape)
    except IndexError:   # (the kernel's check, after VariableType collected the edge)
        _dispatch.check_rebased_inputs(view)
        raise
    return tuple(indices)


def _check_bounds(view: Tensor, advanced: list, shape: tuple) -> None:
    """PyTorch's index kernel's bounds check: the first bad position (in the broadcast order), and there the first
    bad index; its "dimension" counts the index tensors (a k-dim mask is k of them), not the tensor's dims."""
    checks = [(dim, arr) for dim, arr in advanced if arr.dtype != np.bool_]
    sizes = view._data.shape
    if 0 not in shape and any(sizes[d] == 0 for d, _ in checks):
        # (AdvancedIndex's own check: no index fits a dim of size 0, though the kernel below may run on nothing)
        raise IndexError("index is out of bounds for dimension with size 0")
    covered = {d + k for d, arr in advanced for k in range(arr.ndim if arr.dtype == np.bool_ else 1)}
    if 0 in shape or any(n == 0 for d, n in enumerate(sizes) if d not in covered):
        return   # (the kernel checks each index as it reads it: an empty result reads none)
    if not any(((arr >= sizes[d]) | (arr < -sizes[d])).any() for d, arr in checks):
        return
    j, bad_at = 0, []   # (position in broadcast order, j, value, size) of each index tensor's first bad value
    for dim, arr in advanced:
        if arr.dtype == np.bool_:
            j += arr.ndim
            continue
        size = view._data.shape[dim]
        bad = np.broadcast_to((arr >= size) | (arr < -size), shape).ravel()
        if bad.any():
            pos = int(bad.argmax())
            bad_at.append((pos, j, int(np.broadcast_to(arr, shape).ravel()[pos]), size))
        j += 1
    _, j, value, size = min(bad_at)
    raise IndexError(f"index {value} is out of bounds for dimension {j} with size {size}")


_MASK_CONTINUES = object()  # placeholder for the extra dims a k-dim bool mask covers


def _zero_dim_index_error(index, single: bool, t: Tensor):
    """PyTorch's error for an int or a slice into a 0-dim tensor ``t``: its fast paths for a lone int or slice,
    else the count of indexed dims."""
    if single and isinstance(index, int):
        if index != 0:   # (PyTorch's applySelect refuses index 0 only; another goes on to select's bounds check)
            raise IndexError(f"index {index} is out of bounds for dimension 0 with size 0")
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` "
                         "in C++ to convert a 0-dim tensor to a number")
    if single and isinstance(index, slice):
        if _vmap_batched.DEPTH[0] and _vmap_batched.levels(t) and not _vmap_batched._legacy(t):
            # (slice's batch rule slices the physical tensor, its batch dim in front: dim 1 of a 1-d tensor)
            raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got 1)")
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    raise IndexError("too many indices for tensor of dimension 0")


def getitem(t: Tensor, index):
    """t[index]."""
    single = not isinstance(index, tuple) and not (isinstance(index, list) and _list_is_tuple(index))
    items = _items(index)
    empty_masks = None
    if _vmap_batched.DEPTH[0]:
        empty_masks = _vmap_batched.check_mask_index(t, index if isinstance(index, tuple) else (index,))
    if _meta.METAS:   # (a meta mask: its nonzero() has no meta kernel)
        _meta.check_kernel("nonzero", *(i for i in (index if isinstance(index, tuple) else (index,))
                                        if isinstance(i, Tensor) and i.dtype.name in ("bool", "uint8")))
    if t.dim() == 0 and any(isinstance(i, (int, slice)) and not isinstance(i, bool) for i in items):
        _zero_dim_index_error(index, single, t)
    out, advanced = _apply(t, items, single)
    if empty_masks is not None:
        _vmap_batched.check_empty_masks(t, out, advanced, empty_masks)
    if advanced:
        if _uint8_masks(index):
            warnings.warn(_UINT8_INDEX_WARNING, UserWarning, stacklevel=_user_stacklevel())
        from .derivatives import index as index_op
        return index_op(out, indices=_saved_indices(_index_list(out, advanced), index, out))
    if out is t:
        from .derivatives import alias
        return alias(t)
    return out


def setitem(t: Tensor, index, value) -> None:
    """t[index] = value (in place; recorded as CopySlices or IndexPutBackward0)."""
    if not isinstance(value, (Tensor, int, float, complex, np.integer)):  # (np.float64 is a float; np.float32 is not)
        kind = type(value)
        name = kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
        raise TypeError(f"can't assign a {name} to a {t._legacy_type_name()}")
    if isinstance(value, complex) and not t.dtype.is_complex:
        c_name = {"float32": "float", "float64": "double", "float16": "c10::Half"}.get(t.dtype.name, t.dtype.name)
        raise RuntimeError(f"value cannot be converted to type {c_name} without overflow")
    if not isinstance(value, Tensor):
        if isinstance(value, (int, np.integer)) and not -2**63 <= value < 2**63:
            raise ValueError("Overflow when unpacking long long")   # (PyTorch reads a Python int as int64)
        if (not isinstance(value, complex) or t.dtype.is_complex) and t.dtype.name not in ("float16", "bfloat16"):
            # PyTorch's checked conversion of the number; into a half type it is rounded instead (1e6 -> inf)
            _ops._check_scalar_fits(value, t.dtype)
        if t.dtype is _dtypes.complex32:   # (NumPy's cast would give both float16 parts the real part)
            value = Tensor._make(_dtypes.as_complex32(np.array(value, np.complex128)))   # (PyTorch's warning)
        else:
            with np.errstate(over="ignore"):
                value = Tensor._make(np.asarray(value).astype(t._data.dtype))
    if index is False:
        return
    if index is True:
        _copy_to(_ops.unsqueeze(t, 0), value)
        return
    single = not isinstance(index, tuple) and not (isinstance(index, list) and _list_is_tuple(index))
    items = _items(index)
    if t.dim() == 0 and any(isinstance(i, (int, slice)) and not isinstance(i, bool) for i in items):
        _zero_dim_index_error(index, single, t)
    # For assignment PyTorch skips even a lone ``x[:]`` slice (it writes into x itself).
    view, advanced = _apply(t, items, single and not isinstance(items[0], slice))
    if _vmap_batched.DEPTH[0] and advanced:
        # (a batched mask: PyTorch's index_put_ rule refuses it, or its kernel an empty one)
        tensors = [i for i in (index if isinstance(index, tuple) else (index,)) if isinstance(i, Tensor)]
        if len(tensors) == len(advanced):
            masks = [(i, d) for i, (d, a) in zip(tensors, advanced) if a.dtype == np.bool_]
            if any(_vmap_batched.levels(m) for m, _ in masks):  # (the rule refuses an unbatched self first)
                _vmap_batched.check_inplace("index_put_", view, (value, *tensors))
            _vmap_batched.check_index_put_masks(view, masks, (value, *tensors))
    if not advanced:
        _copy_to(view, value)
        return
    # (autograd's refusals of the write come first: PyTorch's _index_put_impl_ checks shapes and dtypes in its kernel)
    _dispatch._check_inplace(view, _dispatch._STATE.enabled and (view._requires_grad or value._requires_grad))
    if _uint8_masks(index):
        # One mask and one value: PyTorch fills through masked_fill_, which takes bool masks only.
        if len(advanced) == 1 and value.numel() == 1:
            raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype unsigned char")
        warnings.warn(_UINT8_INDEX_WARNING, UserWarning, stacklevel=_user_stacklevel())
    indices = _index_list(view, advanced)
    if value.dim() and value._data.shape[0] == 1:
        value = _strip_leading_ones(value)
    target = _ops.D.index.forward(np.empty(view._data.shape, dtype=np.bool_), indices).shape
    try:
        fits = np.broadcast_shapes(value._data.shape, target) == tuple(target)   # (the value expands to the target)
    except ValueError:
        fits = False
    if not fits:
        _dispatch.check_rebased_inputs(view, value)   # (the kernel's check, after VariableType collected the edges)
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(value._data.shape)} cannot be broadcast "
                           f"to indexing result of shape {list(target)}")
    mask_fill = len(advanced) == 1 and advanced[0][1].dtype in (np.bool_, np.uint8) and value.numel() == 1
    if value.dtype is not view.dtype and not mask_fill:   # (index_put_ converts nothing; masked_fill_ does)
        raise _ops.D.index_put_dtype_error(view.dtype, value.dtype)
    if mask_fill:
        _dtypes.refuse_unsigned("masked_fill", view.dtype)
    from .derivatives import index_put
    # (vmap's refusal counts a batched index too: PyTorch's index_put_ rule sees the indices as inputs)
    _vmap_batched.check_inplace("index_put_", view, (value, *(index if isinstance(index, (tuple, list)) else (index,))))
    index_put(view, value, out=view, indices=_saved_indices(indices, index, view, value), accumulate=False)
    if mask_fill and _dispatch.is_expanded(view._data):   # (PyTorch's index_put_ hands one mask and one value to
        _dispatch.warn_expanded_write("MaskedFillBackward0")   # masked_fill_, which warns too)


def _saved_indices(indices: tuple, index, *inputs, sources=None) -> tuple:
    """The index arrays, with the tensors PyTorch saves for them when a node records them: the index tensors
    themselves (changing one in place before the backward makes that backward fail) and the long tensors it makes
    of lists and bools (pack hooks see those too). ``sources``: per array, its index tensor; by default read
    from the Python ``index``."""
    from . import derivatives as D
    from .autograd import grad_mode
    if not grad_mode.is_grad_enabled() or not any(t.requires_grad for t in inputs):
        return indices
    if sources is None:
        sources = _index_sources(index)
    arrays = [i for i in indices if i is not None]
    return D.saved_indices(indices, [t if t is not None else Tensor._make(a) for t, a in zip(sources, arrays)])


def _index_sources(index) -> list:
    """Per advanced item of a Python index (the kinds ``_item`` makes an array or a bool of), in order: the index
    tensor, or None where PyTorch makes one (of a list, an array, a bool: x[True] indexes with a long [0])."""
    if isinstance(index, tuple) or (isinstance(index, list) and _list_is_tuple(index)):
        parts = index
    else:
        parts = (index,)
    sources = []
    for p in parts:
        if isinstance(p, Tensor):
            if p.dim():
                sources.append(p)
            elif p.dtype.name in ("bool", "uint8"):
                sources.append(None)
        elif isinstance(p, (bool, np.bool_, list, tuple, np.ndarray, range)):
            sources.append(None)
    return sources


def _uint8_masks(index) -> bool:
    """Whether ``index`` holds a uint8 tensor of one or more dims (PyTorch reads it as a bool mask)."""
    items = index if isinstance(index, (tuple, list)) else (index,)
    return any(isinstance(i, Tensor) and i.dtype.name == "uint8" and i.dim() for i in items)


def _strip_leading_ones(value: Tensor) -> Tensor:
    shape = value._data.shape
    k = 0
    while k < len(shape) and shape[k] == 1:
        k += 1
    return _ops.view(value, shape[k:]) if k else value


def _copy_to(dst: Tensor, src: Tensor) -> None:
    """PyTorch's copy_to: copy_ for equal shapes, fill_ for a 0-dim value, else broadcast then copy_."""
    if dst._data.shape == src._data.shape:
        dst.copy_(src)
    elif src.dim() == 0:
        _ops.fill_(dst, src)   # (fill_'s front-end: a value batched by vmap is copied, as PyTorch's batch rule does)
    else:
        # PyTorch views the value without its leading 1s (always a ViewBackward0), then expands it.
        shape = src._data.shape
        k = 0
        while k < len(shape) and shape[k] == 1:
            k += 1
        src = _ops.view(src, shape[k:])
        if src._data.shape != dst._data.shape:
            src = _ops.expand(src, dst._data.shape)
        dst.copy_(src)
