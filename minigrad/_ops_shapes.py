"""Broadcasting and shape helpers beyond ``_ops.py`` (meshgrid, roll, tile ...), and new tensors made
from an existing one (``x.new_zeros``, ``x.type_as`` ...).

Most are compositions of ``_ops.py``'s views and copies, so their nodes are those ops' nodes, as in PyTorch.
"""
from __future__ import annotations

import builtins
import math
import warnings

import numpy as np

from . import _ops
from ._tensor import Size, Tensor

# =============================================================================================
# Broadcasting and shapes
# =============================================================================================

def broadcast_shapes(*shapes) -> Size:
    """The shape tensors of the given shapes broadcast to."""
    shapes = [(s,) if isinstance(s, int) else s for s in shapes]
    result = [1] * builtins.max((len(s) for s in shapes), default=0)
    for k, s in enumerate(shapes):
        for i in builtins.range(-1, -1 - len(s), -1):
            if s[i] == 1 or s[i] == result[i]:
                continue
            if result[i] != 1:
                raise RuntimeError(f"Attempting to broadcast a dimension of length {s[i]} at {i}! Mismatching "
                                   f"argument at index {k} had {s}; but expected shape should be broadcastable "
                                   f"to {result}")
            result[i] = s[i]
    return Size(result)


def broadcast_to(input, size):
    """input expanded to ``size`` (a view)."""
    return _ops.expand(input, *size)


def broadcast_tensors(*tensors):
    """The tensors expanded to their common shape (views)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    try:
        shape = np.broadcast_shapes(*(t._data.shape for t in tensors))
    except ValueError:
        _ops._raise_broadcast_error(tensors[0]._data.shape, tensors[1]._data.shape)
    return tuple(t if t._data.shape == shape else _ops.expand(t, shape) for t in tensors)


def meshgrid(*tensors, indexing=None):
    """Coordinate grids from 1-D tensors (``indexing='ij'`` or ``'xy'``)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.",
                      UserWarning, stacklevel=2)
        indexing = "ij"
    swap = indexing == "xy" and len(tensors) >= 2
    ts = list(tensors)
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    shape = tuple(t.numel() for t in ts)
    n = len(ts)
    grids = [_ops.expand(_ops.view(t, *[-1 if j == i else 1 for j in builtins.range(n)]), shape)
             for i, t in enumerate(ts)]
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


def ravel(input):
    """The elements as a 1-D tensor (a view when possible)."""
    return _ops.reshape(input, -1)


def unflatten(input, dim, sizes):
    """Split dimension ``dim`` into ``sizes``."""
    d = _ops._wrap_dim(dim, input.dim())
    shape = tuple(input.shape)
    if -1 not in sizes and math.prod(sizes) != shape[d]:
        raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim {dim} "
                           f"({shape[d]}) in the input tensor")
    return _ops.view(input, shape[:d] + tuple(sizes) + shape[d + 1:])


def roll(input, shifts, dims=None):
    """Elements shifted (cyclically) along ``dims`` (the flattened tensor if None)."""
    if dims is None:
        return roll(input.flatten(), shifts, 0).view(input.shape)
    shifts = (shifts,) if isinstance(shifts, int) else tuple(shifts)
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    out = input
    for s, d in zip(shifts, dims):
        n = out.shape[d]
        if n == 0 or s % n == 0:
            continue
        s %= n
        out = _ops.cat([out.narrow(d, n - s, s), out.narrow(d, 0, n - s)], d)
    return out


def tile(input, dims):
    """input repeated ``dims`` times along each dim (as repeat, with missing leading dims = 1)."""
    dims = tuple(dims)
    if len(dims) < input.dim():
        dims = (1,) * (input.dim() - len(dims)) + dims
    return _ops.repeat(input, *dims)


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Repeat each element ``repeats`` times along ``dim`` (of the flattened tensor if None)."""
    if isinstance(repeats, Tensor) and repeats.numel() == 1:
        repeats = int(repeats.item())
    if not isinstance(repeats, int):
        counts = repeats._data if isinstance(repeats, Tensor) else np.asarray(repeats)
        if dim is None:
            input, dim = input.reshape(-1), 0
        index = Tensor._make(np.repeat(np.arange(input.shape[dim]), counts).astype(np.int64))
        return input.index_select(dim, index)
    # As PyTorch: unsqueeze after ``dim``, expand, copy, view back (ViewBackward0 over CloneBackward0).
    if dim is None:
        input, dim = input.flatten(), 0
    d = _ops._wrap_dim(dim, input.dim())
    shape = list(input.shape)
    expanded = list(shape)
    expanded.insert(d + 1, repeats)
    out = input.unsqueeze(d + 1).expand(expanded).clone()
    shape[d] *= repeats
    return out.view(shape)


# =============================================================================================
# New tensors and conversions
# =============================================================================================

def _new(input, fill, size, dtype, requires_grad):
    from . import _creation
    dt = dtype or input.dtype
    return getattr(_creation, fill)(*_ops._size_args(size), dtype=dt, requires_grad=requires_grad)


def new_zeros(input, *size, dtype=None, device=None, requires_grad=False, **kwargs):
    """Zeros of ``size`` with input's dtype."""
    return _new(input, "zeros", size, dtype, requires_grad)


def new_ones(input, *size, dtype=None, device=None, requires_grad=False, **kwargs):
    """Ones of ``size`` with input's dtype."""
    return _new(input, "ones", size, dtype, requires_grad)


def new_empty(input, *size, dtype=None, device=None, requires_grad=False, **kwargs):
    """An uninitialised (here: zero) tensor of ``size`` with input's dtype."""
    return _new(input, "empty", size, dtype, requires_grad)


def new_full(input, size, fill_value, *, dtype=None, device=None, requires_grad=False, **kwargs):
    """``fill_value`` everywhere, of ``size``, with input's dtype."""
    from ._creation import full
    return full(tuple(size), fill_value, dtype=dtype or input.dtype, requires_grad=requires_grad)


def new_tensor(input, data, *, dtype=None, device=None, requires_grad=False, **kwargs):
    """A new tensor from ``data`` with input's dtype (a copy, outside any graph)."""
    from ._creation import tensor
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
                      "sourceTensor.detach().clone().requires_grad_(True), rather than "
                      "tensor.new_tensor(sourceTensor).",
                      UserWarning, stacklevel=2)
        data = data.detach()
    return tensor(data, dtype=dtype or input.dtype, requires_grad=requires_grad)


def type_as(input, other):
    """input converted to other's dtype."""
    return _ops.to(input, other.dtype)


def cuda(input, *args, **kwargs):
    """Always fails: minigrad computes on the CPU only (as a PyTorch built without CUDA)."""
    raise AssertionError("Torch not compiled with CUDA enabled")


def detach(input):
    """torch.detach(x): x.detach()."""
    return input.detach()


# =============================================================================================
# Tensor methods and minigrad.* names
# =============================================================================================

# Tensor methods that are also minigrad.* functions.
METHODS = [
    "broadcast_to", "ravel", "unflatten", "roll", "tile", "repeat_interleave",
]
# minigrad.* functions only.
FUNCTIONS = [
    "broadcast_shapes", "broadcast_tensors", "meshgrid", "detach",
]
# Tensor methods only (torch has no torch.new_zeros ...).
TENSOR_METHODS = [
    "new_zeros", "new_ones", "new_empty", "new_full", "new_tensor", "type_as", "cuda",
]


def _attach_methods():
    for name in METHODS + TENSOR_METHODS:
        setattr(Tensor, name, globals()[name])
    # sizes in bytes and signedness, read from the dtype
    Tensor.itemsize = property(lambda self: self.dtype.itemsize)
    Tensor.nbytes = property(lambda self: self.dtype.itemsize * self.numel())
    Tensor.is_signed = lambda self: self.dtype.is_signed


_attach_methods()
