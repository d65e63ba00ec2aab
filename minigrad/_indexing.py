"""tensor[index] and tensor[index] = value, built from select / slice / unsqueeze views and index ops.

Basic indexing (ints, slices, None, ...) gives views — PyTorch's chain of SelectBackward0,
SliceBackward0 and UnsqueezeBackward0 nodes. Tensor/bool/list indices give copies (IndexBackward0).
"""
from __future__ import annotations

import numpy as np

from . import _ops
from ._tensor import Tensor


def _normalize(index) -> tuple:
    if not isinstance(index, tuple):
        index = (index,)
    out = []
    for i in index:
        if isinstance(i, Tensor):
            if i.dtype.is_floating_point or i.dtype.is_complex:
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
            out.append(i._data if i._data.ndim or i.dtype.name == "bool" else int(i._data))
        elif isinstance(i, (list, np.ndarray)):
            arr = np.asarray(i)
            if arr.dtype.kind == "f":
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
            out.append(arr)
        elif isinstance(i, (bool, np.bool_)):
            out.append(np.asarray(i))
        elif isinstance(i, (int, np.integer)):
            out.append(int(i))
        else:
            out.append(i)
    return tuple(out)


def _is_advanced(index: tuple) -> bool:
    return any(isinstance(i, np.ndarray) for i in index)


def _expand_ellipsis(index: tuple, ndim: int) -> tuple:
    used = sum(1 if not (i is None or i is Ellipsis) else 0 for i in index)
    used += sum(i.ndim - 1 for i in index if isinstance(i, np.ndarray) and i.dtype == bool)
    if Ellipsis in [i for i in index if not isinstance(i, np.ndarray)]:
        pos = [k for k, i in enumerate(index) if i is Ellipsis and not isinstance(i, np.ndarray)][0]
        return index[:pos] + (slice(None),) * (ndim - used) + index[pos + 1:]
    return index


def getitem(t: Tensor, index):
    """t[index]."""
    index = _normalize(index)
    if _is_advanced(index):
        return _advanced_get(t, index)
    index = _expand_ellipsis(index, t.dim())
    if sum(1 for i in index if i is not None) > t.dim():
        raise IndexError(f"too many indices for tensor of dimension {t.dim()}")
    out, dim = t, 0
    for i in index:
        if i is None:
            out = _ops.unsqueeze(out, dim)
            dim += 1
        elif isinstance(i, int):
            out = _ops.select(out, dim, i)
        elif isinstance(i, slice):
            size = out._data.shape[dim]
            start, stop, step = i.indices(size)
            if step <= 0:
                raise ValueError("step must be greater than zero")
            if not (start == 0 and stop == size and step == 1) or i != slice(None):
                if (start, stop, step) != (0, size, 1):
                    stop = max(stop, start)
                    out = _ops.narrow_slice(out, dim, start, stop, step)
            dim += 1
        else:
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables "
                             "are valid indices (got " + type(i).__name__ + ")")
    if out is t:
        out = _ops.D.view(t, size=t._data.shape) if False else _alias(t)
    return out


def _alias(t: Tensor) -> Tensor:
    # x[:] or x[...]: a view of the whole tensor (PyTorch returns an alias).
    return _ops.D.slice(t, dim=0, start=0, end=t._data.shape[0], step=1) if t.dim() else _ops.D.view(t, size=())


def _advanced_get(t: Tensor, index: tuple):
    from .derivatives import index as index_op
    index = _expand_ellipsis(index, t.dim())
    try:
        return index_op(t, indices=index)
    except IndexError as e:
        raise IndexError(str(e)) from None


def setitem(t: Tensor, index, value) -> None:
    """t[index] = value (in place; recorded as CopySlices or IndexPutBackward0)."""
    index = _normalize(index)
    if not isinstance(value, Tensor):
        value = Tensor._make(np.asarray(value, dtype=t._data.dtype))
    if _is_advanced(index):
        from .derivatives import index_put
        index = _expand_ellipsis(index, t.dim())
        index_put(t, value, out=t, indices=index, accumulate=False)
        return
    view = getitem(t, index)
    view.copy_(value)
