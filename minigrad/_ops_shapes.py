"""Broadcasting and shape helpers beyond ``_ops.py`` (meshgrid, roll, tile ...), and new tensors made
from an existing one (``x.new_zeros``, ``x.type_as`` ...).

Most are compositions of ``_ops.py``'s views and copies, so their nodes are those ops' nodes, as in PyTorch.
"""
from __future__ import annotations

import builtins
import warnings

import numpy as np

from . import _arg_errors, _device, _dispatch, _dtypes, _meta, _ops, _vmap_batched
from . import derivatives as D
from ._device import check_creation_device
from ._layout import contiguous_format
from ._tensor import Size, Tensor, _user_stacklevel
from ._warn_once import warn_once

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


def broadcast_to(input, *sizes, size=None):
    """input expanded to ``size`` (a view); like PyTorch, the sizes may also be given one by one."""
    if size is None:
        size = sizes[0] if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)) else sizes
    return _ops.expand(input, tuple(size))  # (one argument: an empty size is expand's error, not a TypeError)


# ---- transposes: x.T, x.mT, x.H, x.mH, x.adjoint() ----------------------------------------------
def _warn_once(message: str, line: int) -> None:
    """PyTorch's TORCH_WARN_ONCE at ``line`` of TensorShape.cpp: each of these deprecation warnings shows once per
    process."""
    warn_once(f"TensorShape.cpp:{line}", f"{message} (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/"
              f"native/TensorShape.cpp:{line}.)")


def _numpy_T(self):
    """``x.T``: the dimensions reversed (deprecated for anything but matrices)."""
    if self.dim() == 0:
        _warn_once("Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases.", 4321)
    elif self.dim() != 2:
        _warn_once("The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and "
                   "it will throw an error in a future release. Consider `x.mT` to transpose batches of matrices or "
                   "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.", 4314)
    return _ops.permute(self, tuple(range(self.dim() - 1, -1, -1)))


def _matrix_mT(self):
    """``x.mT``: the last two dimensions swapped."""
    if self.dim() == 0:
        _warn_once("Tensor.mT is deprecated on 0-D tensors. This function is the identity in these cases.", 4373)
        return self
    if self.dim() < 2:
        raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. "
                           f"Got {self.dim()}-D tensor.")
    return _ops.transpose(self, -2, -1)


def _conj_transpose(self):
    return _ops.conj(_ops.transpose(self, -2, -1)) if self.is_complex() else _ops.transpose(self, -2, -1)


def _matrix_H(self):
    """``x.H``: the conjugate transpose of a matrix."""
    if self.dim() == 0:
        _warn_once("Tensor.H is deprecated on 0-D tensors. Consider using x.conj().", 4335)
        return _ops.conj(self)
    if self.dim() != 2:
        hint = " For batches of matrices, consider using tensor.mH" if self.dim() > 2 else ""
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {self.dim()}-D tensor.{hint}")
    return _conj_transpose(self)


def _matrix_mH(self):
    """``x.mH``: the conjugate transpose of the last two dimensions."""
    if self.dim() == 0:
        _warn_once("Tensor.mH is deprecated on 0-D tensors. Consider using x.conj().", 4382)
        return _ops.conj(self)
    if self.dim() < 2:
        raise RuntimeError("tensor.mH is only supported on matrices or batches of matrices. "
                           f"Got {self.dim()}-D tensor.")
    return _conj_transpose(self)


def adjoint(input):
    """The conjugate transpose of the last two dimensions (a view)."""
    if input.dim() == 0:
        _warn_once("adjoint() is deprecated on 0-D tensors. Consider using x.conj().", 4390)
        return _ops.conj(input)
    if input.dim() < 2:
        raise RuntimeError("tensor.adjoint() is only supported on matrices or batches of matrices. "
                           f"Got {input.dim()}-D tensor.")
    return _conj_transpose(input)


def _tensor_list(tensors) -> None:
    """PyTorch's parser of the ``Tensor[] tensors`` its Python functions pass on (broadcast_tensors, meshgrid)."""
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {_arg_errors.type_name(t)}")


def broadcast_tensors(*tensors):
    """The tensors expanded to their common shape (views)."""
    try:
        shape = np.broadcast_shapes(*(t._data.shape for t in tensors))
    except AttributeError:  # (PyTorch's Python passes the tuple on: its parser's error for tensor lists)
        _tensor_list(tensors)
        raise
    except ValueError:  # (PyTorch's error names the pair where its running broadcast shape first fails)
        shape = ()
        for t in tensors:
            try:
                shape = np.broadcast_shapes(shape, t._data.shape)
            except ValueError:
                _ops._raise_broadcast_error(shape, t._data.shape)
    return tuple(t if t._data.shape == shape else _ops.expand(t, shape) for t in tensors)


def meshgrid(*tensors, indexing=None):
    """Coordinate grids from 1-D tensors (``indexing='ij'`` or ``'xy'``)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    _tensor_list(tensors)
    if indexing is None:
        _warn_once("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.", 4215)
        indexing = "ij"
    swap = indexing == "xy" and len(tensors) >= 2
    ts = list(tensors)
    if any(t.dtype is not ts[0].dtype for t in ts):
        raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    for t in ts:
        if t.dim() > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {t}")
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
    """The elements as a 1-D tensor (PyTorch's contiguous().view(-1): a view of the copy when not contiguous)."""
    return _ops.contiguous(input).view(-1)


def unflatten(input, dim, sizes):
    """Split dimension ``dim`` into ``sizes``."""
    return _unflatten(input, dim, sizes, 2)


def _unflatten_method(self, dim, sizes):
    """``x.unflatten(dim, sizes)``: PyTorch's Python method, which hands both on by position (its own TypeErrors
    name ``Tensor.unflatten()``; the parser's number the arguments after self)."""
    return _unflatten(self, dim, sizes, 1)


_unflatten_method.__qualname__ = "Tensor.unflatten"


def _unflatten(input, dim, sizes, dim_at: int):
    if type(dim) is not int and not _arg_errors._is_index(dim):   # (PyTorch's parser first: x.unflatten(None, ...))
        raise _arg_errors.must_be("unflatten", "dim", "int", dim, dim_at)
    sizes = _arg_errors.int_list("unflatten", "sizes", sizes, dim_at + 1)
    d = _ops._wrap_dim(int(dim), input.dim())
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    if input.dim() == 0:  # (PyTorch reports the failure of reading the size of dim 0 as an unexpected error)
        raise RuntimeError("unflatten got an unexpected error:\nDimension specified as 0 but tensor has no "
                           "dimensions")
    shape = tuple(input.shape)
    try:
        inferred = _ops._infer_size(tuple(sizes), shape[d])
    except RuntimeError as e:  # (reworded as PyTorch's handle_unflatten_exception does)
        _arg_errors.check_int64("unflatten", "sizes", sizes)   # (a size beyond int64: PyTorch's parser refused it)
        if "is invalid for input of size" in str(e):
            raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim {d} "
                               f"({shape[d]}) in the input tensor") from None
        raise RuntimeError(f"unflatten got an unexpected error:\n{e}") from None
    return _ops.view(input, shape[:d] + inferred + shape[d + 1:])


def roll(input, *args, **kwargs):
    """roll(input, shifts, dims=None): elements shifted cyclically along ``dims`` (the flattened tensor if None)."""
    call = _arg_errors.bind("roll", (input, *args), kwargs, _ROLL_PARAMS)
    shifts = _arg_errors.int_list("roll", "shifts", *call["shifts"], one_int=True)
    dims, at = call["dims"]
    dims = () if dims is None else _arg_errors.int_list("roll", "dims", dims, at, one_int=True)
    try:
        if not shifts:
            raise RuntimeError("`shifts` required")
        if len(shifts) != len(dims) and not (len(shifts) == 1 and not dims):
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
        _vmap_batched.check_scalar_dims(input, dims, tangent=False)
        for d in dims:
            if input.numel() == 0:  # (PyTorch's roll of an empty tensor is a copy: its dims are never checked)
                break
            if input.dim() == 0:
                raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
            _ops._wrap_dim(d, input.dim())
    except (IndexError, RuntimeError):   # (the kernel's checks, after VariableType collected the edge)
        _dispatch.check_rebased_inputs(input)
        raise
    # Saved as PyTorch shows them: negative numbers as unsigned 64-bit (see derivatives._signed).
    return D.roll(input, shifts=tuple(s % 2 ** 64 for s in shifts), dims=tuple(d % 2 ** 64 for d in dims))


_ROLL_PARAMS = {"input": _arg_errors.REQUIRED, "shifts": _arg_errors.REQUIRED, "dims": None}


def tile(input, dims):
    """input repeated ``dims`` times along each dim (as repeat, with missing leading dims = 1).

    torch.tile takes one tuple of ints (PyTorch's parser refuses torch.tile(x, 2)); the method, x.tile(2, 3), takes
    the ints one by one too (_tile_method)."""
    if not isinstance(dims, (tuple, list)):  # (the wrapper of torch.tile words PyTorch's parser error)
        raise _arg_errors.must_be("tile", "dims", "tuple of ints", dims, 2)
    return _tile_method(input, dims)


def _tile_method(input, *dims):
    if not dims:  # (PyTorch's parser: dims is required, even for a 0-dim input; tile(()) passes)
        raise TypeError('tile() missing 1 required positional arguments: "dims"')
    dims = tuple(_ops._size_args(dims, "tile", "dims"))
    given = dims
    if len(dims) < input.dim():
        dims = (1,) * (input.dim() - len(dims)) + dims
    try:
        return _ops.repeat(input, dims)  # (one argument: no dims at all is repeat(()) of a 0-dim input)
    except TypeError:
        _arg_errors.check_int64("tile", "dims", given)   # (beyond int64: PyTorch's parser refused it first)
        raise


def _check_counts(counts: Tensor) -> None:
    """repeat_interleave_cpu's checks of a tensor of counts: int32 or int64 (x.repeat_interleave(torch.tensor(2.)) is
    refused: the Tensor overload takes it), none negative."""
    if counts.dtype.name not in ("int32", "int64"):
        raise NotImplementedError(f"\"repeat_interleave_cpu\" not implemented for '{_ops._legacy(counts.dtype)}'")
    if (counts._data < 0).any():
        raise RuntimeError("repeats can not be negative")


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Repeat each element ``repeats`` times along ``dim`` (of the flattened tensor if None)."""
    if repeats is None and dim is not None or output_size is not None and not _arg_errors._is_index(output_size):
        # (no overload takes these: the wrappers of torch.repeat_interleave and the method give the parser's error)
        raise TypeError("repeat_interleave(): counts take no dim; output_size must be int")
    if repeats is None and isinstance(input, Tensor):
        # torch.repeat_interleave(counts): index i repeated counts[i] times, in counts' dtype (no autograd)
        counts = input._data
        if counts.ndim != 1:
            raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
        _check_counts(input)
        if output_size is not None and output_size != int(counts.sum()):
            raise RuntimeError("allocated size does not match required size")
        return Tensor._make(np.repeat(np.arange(counts.size, dtype=counts.dtype), counts))
    if not isinstance(repeats, int):
        # A tensor of counts (one count, 0-dim or [1], stands for every slice): index_select, as PyTorch, of input
        # without its conjugate and negative bits (put back on the result: its grad_fn is ConjBackward0 then)
        counts = repeats._data if isinstance(repeats, Tensor) else np.asarray(repeats)
        conj = input.is_conj()
        if conj:
            input = input.conj()
        neg = input.is_neg()
        if neg:
            input = input._neg_view()
        if dim is None:
            input, dim = input.flatten(), 0
        if counts.ndim > 1:
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
        size = _ops._size_at(input, dim)
        if counts.size == 1:
            counts = np.broadcast_to(counts.reshape(1), (size,))
        elif counts.shape[0] != size:
            raise RuntimeError(f"repeats must have the same size as input along dim, but got repeats.size(0) = "
                               f"{counts.shape[0]} and input.size({dim}) = {size}")
        if isinstance(repeats, Tensor):   # (the index comes from repeat_interleave(counts): its checks)
            _check_counts(repeats)
        index = Tensor._make(np.repeat(np.arange(size), counts).astype(np.int64))
        out = input.index_select(dim, index)
        if conj:
            out = out.conj()
        return out._neg_view() if neg else out
    # As PyTorch: unsqueeze after ``dim``, expand, copy, view back (ViewBackward0 over CloneBackward0).
    if dim is None:
        input, dim = input.flatten(), 0
    d = _ops._wrap_dim(dim, input.dim())
    shape = list(input.shape)
    expanded = list(shape)
    expanded.insert(d + 1, repeats)
    out = input.unsqueeze(d + 1).expand(expanded).clone(memory_format=contiguous_format)  # (then view works)
    shape[d] *= repeats
    return out.view(shape)


# =============================================================================================
# NumPy-style stacking and splitting: compositions of view, unsqueeze, cat and slices (as PyTorch)
# =============================================================================================

def _tensors_arg(tensors: tuple, name: str) -> list:
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        return list(tensors[0])
    return list(tensors)


def _atleast(tensors, name, fn):
    ts = _tensors_arg(tensors, name)
    out = [fn(t) for t in ts]
    return out[0] if len(tensors) == 1 and isinstance(tensors[0], Tensor) else tuple(out)


def atleast_1d(*tensors):
    """Each tensor with at least one dim (a 0-dim one becomes shape (1,))."""
    return _atleast(tensors, "atleast_1d", lambda t: t.reshape(1) if t.dim() == 0 else t)


def atleast_2d(*tensors):
    """Each tensor with at least two dims (new leading dims of size 1)."""
    return _atleast(tensors, "atleast_2d",
                    lambda t: t.reshape(1, 1) if t.dim() == 0 else t.unsqueeze(0) if t.dim() == 1 else t)


def atleast_3d(*tensors):
    """Each tensor with at least three dims (a matrix gains a trailing dim, a vector one on each side)."""
    def three(t):
        if t.dim() == 0:
            return t.reshape(1, 1, 1)
        if t.dim() == 1:
            return t.unsqueeze(0).unsqueeze(-1)
        return t.unsqueeze(-1) if t.dim() == 2 else t
    return _atleast(tensors, "atleast_3d", three)


def _stack_list(tensors, name: str) -> list:
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, not "
                        f"{type(tensors).__name__}")
    if not tensors:
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    return list(tensors)


def hstack(tensors):
    """Concatenate along dim 1 (dim 0 for vectors)."""
    ts = atleast_1d(_stack_list(tensors, "hstack"))
    return _ops.cat(list(ts), 0 if ts[0].dim() == 1 else 1)


def vstack(tensors):
    """Concatenate along dim 0, vectors as rows."""
    return _ops.cat(list(atleast_2d(_stack_list(tensors, "vstack"))), 0)


row_stack = vstack


def dstack(tensors):
    """Concatenate along dim 2 (depth), matrices and vectors made 3-D first."""
    return _ops.cat(list(atleast_3d(_stack_list(tensors, "dstack"))), 2)


def column_stack(tensors):
    """Vectors (and scalars) as columns, then concatenated along dim 1."""
    ts = _stack_list(tensors, "column_stack")
    if _vmap_batched.DEPTH[0] and _vmap_batched.reaches_vmap(*ts):  # (PyTorch has no batching rule for it)
        raise RuntimeError("Batching rule not implemented for aten::column_stack. We could not generate a fallback.")
    return hstack([t.reshape(t.numel(), 1) if t.dim() <= 1 else t for t in ts])


def tensor_split(input, indices_or_sections, dim=0):
    """Split into ``n`` near-equal parts (the first ones one longer), or at the given indices (slices)."""
    if input.dim() == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
    if isinstance(indices_or_sections, Tensor):   # (PyTorch checks the tensor's dtype and rank before its values)
        if indices_or_sections.dtype is not _dtypes.int64:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
                               f"{_ops._legacy(indices_or_sections.dtype)}")
        if indices_or_sections.dim() > 1:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                               f"one-dimensional tensor, but got a tensor with {indices_or_sections.dim()} dims")
    d = _ops._wrap_dim(dim, input.dim())
    size = input.shape[d]
    if isinstance(indices_or_sections, Tensor):
        indices_or_sections = (indices_or_sections.item() if indices_or_sections.dim() == 0
                               else indices_or_sections.tolist())
    if isinstance(indices_or_sections, int):
        n = indices_or_sections
        if n <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {n}")
        q, r = divmod(size, n)
        bounds = [i * q + builtins.min(i, r) for i in builtins.range(n + 1)]
    elif isinstance(indices_or_sections, (list, tuple)):
        bounds = [0] + list(indices_or_sections) + [size]
    else:
        raise TypeError(f"tensor_split() received an invalid combination of arguments - got "
                        f"({type(indices_or_sections).__name__}), but expected one of:\n"
                        " * (tuple of ints indices, int dim = 0)\n"
                        " * (Tensor tensor_indices_or_sections, int dim = 0)\n"
                        " * (int sections, int dim = 0)\n")
    # slices between the bounds as given (PyTorch's SliceBackward0 saves them unclamped: start 7, end 5 ...)
    return tuple(D.slice(input, dim=d, start=a, end=b, step=1) for a, b in zip(bounds[:-1], bounds[1:]))


def _split_named(input, sections, dim, name, min_dims):
    if input.dim() < min_dims:
        raise RuntimeError(f"torch.{name} requires a tensor with at least {min_dims} dimension, but got a tensor "
                           f"with {input.dim()} dimensions!")
    if isinstance(sections, int) and (sections == 0 or input.shape[dim] % sections != 0):
        raise RuntimeError(f"torch.{name} attempted to split along dimension {dim}, but the size of the dimension "
                           f"{input.shape[dim]} is not divisible by the split_size {sections}!")
    return tensor_split(input, sections, dim)


def hsplit(input, indices_or_sections):
    """tensor_split along dim 1 (dim 0 for vectors); equal parts only."""
    return _split_named(input, indices_or_sections, 0 if input.dim() == 1 else 1, "hsplit", 1)


def vsplit(input, indices_or_sections):
    """tensor_split along dim 0 of a tensor with at least two dims; equal parts only."""
    return _split_named(input, indices_or_sections, 0, "vsplit", 2)


def dsplit(input, indices_or_sections):
    """tensor_split along dim 2 of a tensor with at least three dims; equal parts only."""
    return _split_named(input, indices_or_sections, 2, "dsplit", 3)


def fliplr(input):
    """Columns in reverse order (flip dim 1)."""
    if input.dim() < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return _ops.flip(input, (1,))


def flipud(input):
    """Rows in reverse order (flip dim 0)."""
    if input.dim() < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return _ops.flip(input, (0,))


def diff(input, n=1, dim=-1, prepend=None, append=None):
    """n-th forward difference along ``dim``: x[1:] - x[:-1], repeated (prepend/append concatenated first)."""
    if input.dim() == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    d = _ops._wrap_dim(dim, input.dim())
    for extra in (prepend, append):
        if extra is not None and extra.dim() != input.dim():
            raise RuntimeError("diff expects prepend or append to be the same dimension as input")
    if n == 0:
        from ._creation import zeros_like
        return zeros_like(input).copy_(input)
    if prepend is not None or append is not None:   # (dim as given: PyTorch's nodes save it so)
        input = _ops.cat([t for t in (prepend, input, append) if t is not None], dim)
    out = input
    for _ in builtins.range(builtins.min(n, input.shape[d])):
        m = out.shape[d] - 1
        lo = _ops.narrow(out, dim, 0, m)  # (first: GCC evaluates ATen's `narrow(.., 1, m) - narrow(.., 0, m)`
        hi = _ops.narrow(out, dim, 1, m)  # right to left, so backward runs hi's SliceBackward0 first)
        out = _ops.logical_xor(hi, lo) if out.dtype.name == "bool" else hi - lo
    return out


def take_along_dim(input, indices, dim=None):
    """Values at ``indices`` along ``dim`` (input and indices broadcast elsewhere); flattened if dim is None."""
    if dim is None:  # (gather of the flattened tensors, with gather's checks)
        return _ops.gather(input.view(-1), 0, indices.view(-1))
    if indices.dtype.name != "int64":
        raise RuntimeError("torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{_ops._legacy(indices.dtype)}")
    if input.dim() != indices.dim():   # (before the dim's own checks)
        raise RuntimeError("torch.take_along_dim(): input and indices should have the same number of dimensions, "
                           f"but got {input.dim()} dimensions for input, and {indices.dim()} dimensions for indices")
    if input.dim() == 0:  # (dim wrapped as for one dimension first)
        raise IndexError(f"Dimension specified as {_ops._wrap_dim(dim, 1)} but tensor has no dimensions")
    d = _ops._wrap_dim(dim, input.dim())
    sizes = list(input.shape)
    sizes[d] = indices.shape[d]
    try:
        np.broadcast_shapes(tuple(sizes), indices.shape)
    except ValueError:
        _ops._raise_broadcast_error(tuple(sizes), indices.shape)
    idx = broadcast_to(indices, broadcast_shapes(sizes, indices.shape))
    # Along a dim PyTorch takes the indices modulo the size (-4 and 2 pick the same of 3 values; 3 picks the
    # first): the index gather saves is always a new tensor.
    size = input.shape[d]
    idx = Tensor._make(np.mod(idx._data, size) if size else idx._data.copy())
    sizes = list(indices.shape)
    sizes[d] = input.shape[d]
    return _ops.gather(broadcast_to(input, broadcast_shapes(sizes, input.shape)), d, idx)


# =============================================================================================
# New tensors and conversions
# =============================================================================================

def _new(input, fill, size, dtype, requires_grad, device):
    from . import _creation
    check_creation_device(_meta.creation_device(device), use_default=False)  # (made where input is, unless told
    _arg_errors.check_options(f"new_{fill}", dtype, requires_grad)          # otherwise)
    dt = dtype or input.dtype
    if not size:
        raise TypeError(f'new_{fill}() missing 1 required positional arguments: "size"')
    size = _ops._size_args(size, f"new_{fill}")
    if fill == "zeros":   # (PyTorch's new_zeros is empty(...).zero_(): empty's check of the sizes)
        _creation._size((size,), f"new_{fill}")
    try:
        out = getattr(_creation, fill)(size, dtype=dt, requires_grad=requires_grad)
    except TypeError:
        _arg_errors.check_int64(f"new_{fill}", "size", size)   # (beyond int64: the parser of new_* refused it first)
        raise
    # (inside vmap, the new tensor of a batched one is batched: PyTorch's batch rules of new_zeros/ones/empty/full)
    return _vmap_batched.like(input, _meta.like(out, input, device))


def _size_keyword(kwargs: dict) -> tuple:
    """new_zeros(size=(2, 3)): the size given by keyword, as the one positional argument it stands for."""
    return (kwargs["size"],) if "size" in kwargs else ()


def new_zeros(input, *size, dtype=None, device=None, requires_grad=False, **kwargs):
    """Zeros of ``size`` with input's dtype."""
    return _new(input, "zeros", size or _size_keyword(kwargs), dtype, requires_grad, device)


def new_ones(input, *size, dtype=None, device=None, requires_grad=False, **kwargs):
    """Ones of ``size`` with input's dtype."""
    return _new(input, "ones", size or _size_keyword(kwargs), dtype, requires_grad, device)


def new_empty(input, *size, dtype=None, device=None, requires_grad=False, **kwargs):
    """An uninitialised (here: zero) tensor of ``size`` with input's dtype."""
    return _new(input, "empty", size or _size_keyword(kwargs), dtype, requires_grad, device)


def new_full(input, size, fill_value, *, dtype=None, device=None, requires_grad=False, **kwargs):
    """``fill_value`` everywhere, of ``size``, with input's dtype."""
    from ._creation import full, number_arg
    check_creation_device(device, use_default=False)
    _arg_errors.check_options("new_full", dtype, requires_grad)
    size = _arg_errors.int_list("new_full", "size", size, 1)
    fill_value = number_arg(fill_value, "new_full", "fill_value", 2)
    try:
        return _vmap_batched.like(input, full(size, fill_value, dtype=dtype or input.dtype,
                                              requires_grad=requires_grad))
    except TypeError:
        _arg_errors.check_int64("new_full", "size", size)   # (beyond int64: its parser refused it first)
        raise


def new_tensor(input, *args, dtype=None, device=None, requires_grad=False, **kwargs):
    """A new tensor from ``data`` with input's dtype (a copy, outside any graph)."""
    from ._creation import tensor
    # (PyTorch's parser: its messages for a missing, extra or unknown argument)
    for key in kwargs:
        if key != "data" or args:
            raise TypeError(f"new_tensor() got an unexpected keyword argument '{key}'")
    if len(args) > 1:
        raise TypeError(f"new_tensor() takes 1 positional argument but {len(args)} were given")
    if not args and "data" not in kwargs:
        raise TypeError('new_tensor() missing 1 required positional arguments: "data"')
    data = args[0] if args else kwargs["data"]
    check_creation_device(device, use_default=False)
    _arg_errors.check_options("new_tensor", dtype, requires_grad)
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
                      "sourceTensor.detach().clone().requires_grad_(True), rather than "
                      "tensor.new_tensor(sourceTensor).",
                      UserWarning, stacklevel=_user_stacklevel())
        _vmap_batched.check_detach_(data)   # (as torch.tensor(a_tensor) inside vmap)
        data = data._data  # (the array: torch.tensor(a_tensor) would warn a second time)
    return tensor(data, dtype=dtype or input.dtype, requires_grad=requires_grad)


def type_as(input, other=_ops._MISSING, *_extra):
    """input converted to other's dtype."""
    if _extra:   # (x.type_as(y, 0): PyTorch's count, without self)
        raise _arg_errors.too_many("type_as", input, (other, *_extra), {})
    try:
        dtype = other.dtype
    except AttributeError:  # (x.type_as(1), x.type_as(): PyTorch's parser error)
        raise _ops._operand_error("type_as", input, other) from None
    return _ops.to(input, dtype)


def cuda(input, device=None, non_blocking=False, memory_format=None):
    """Always fails: minigrad computes on the CPU only (as a PyTorch built without CUDA)."""
    if device is not None and _device.device(device).type != "cuda":  # (an index fails in device())
        raise RuntimeError("Invalid device, must be cuda device")
    raise AssertionError("Torch not compiled with CUDA enabled")


def xpu(input, device=None, non_blocking=False, memory_format=None):
    """Always fails: minigrad computes on the CPU only (as a PyTorch built without XPU)."""
    raise AssertionError("Torch not compiled with XPU enabled")


def pin_memory(input, device=None):
    """Always fails: pinned memory needs an accelerator (as in a CPU-only PyTorch)."""
    raise RuntimeError("Cannot access accelerator device when none is available.")


def is_pinned(input, device=None) -> bool:
    """False: no tensor is in pinned memory."""
    return False


def share_memory_(input):
    """x.share_memory_(): x, marked as shared (minigrad runs in one process: its memory needs no moving)."""
    input._shared_memory = True
    return input


def is_shared(input) -> bool:
    """Whether share_memory_ was called on this tensor (PyTorch's tensors start outside shared memory)."""
    return getattr(input, "_shared_memory", False)


def get_device(input) -> int:
    """-1: the tensor is on the CPU."""
    return -1


def detach(input):
    """torch.detach(x): x.detach()."""
    return input.detach()


# =============================================================================================
# block_diag, rot90, cartesian_prod, combinations (missing-ops pass)
# =============================================================================================

def _tensor_list(tensors: tuple) -> None:
    """PyTorch's TypeError for a non-tensor among a function's tensors."""
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}")


def block_diag(*tensors):
    """The tensors (0-, 1- or 2-D) as the blocks of a block-diagonal matrix (BlockDiagBackward0)."""
    _tensor_list(tensors)
    for i, t in enumerate(tensors):
        if t.dim() > 2:
            _dispatch.check_rebased_inputs(*tensors)   # (the kernel's check, after VariableType collected the edges)
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has "
                               f"{t.dim()} dimensions")
    if _vmap_batched.DEPTH[0]:
        _vmap_batched.check_block_diag(tensors)
    if not tensors:
        return Tensor._make(np.zeros((1, 0), _dtypes.get_default_dtype().np))
    dt = _dtypes.result_type(*tensors)  # (PyTorch's result_type: a 0-dim tensor counts less)
    cast = builtins.any(t.dtype is not dt for t in tensors)
    return D.block_diag(*tensors, dtype=dt if cast else None)


def rot90(input, *args, **kwargs):
    """rot90(input, k=1, dims=(0, 1)): rotate by k·90° in the plane of ``dims``, from the first dim towards the
    second (Rot90Backward0)."""
    if not isinstance(input, Tensor):
        raise _arg_errors.must_be("rot90", "input", "Tensor", input, 1)
    call = _arg_errors.bind("rot90", (input, *args), kwargs, _ROT90_PARAMS)
    k, at = call["k"]
    if not _ops._is_int(k) and _arg_errors._is_index(k):   # (x.rot90(torch.tensor(1)))
        k = int(k)
    if not _ops._is_int(k):
        raise _arg_errors.must_be("rot90", "k", "int", k, at)
    dims = _arg_errors.int_list("rot90", "dims", *call["dims"])
    _check_rot90(input, dims)
    flipped = {1: dims[1:], 2: dims, 3: dims[:1]}.get(int(k) % 4, ())   # (PyTorch's rot90 is a flip and a transpose)
    _ops.refuse_flip_kernel(input, [_ops._wrap_dim(d, input.dim()) for d in flipped])
    return D.rot90(input, k=int(k), dims=dims)


_ROT90_PARAMS = {"input": _arg_errors.REQUIRED, "k": 1, "dims": (0, 1)}


@_dispatch.kernel_checks
def _check_rot90(input, dims) -> None:
    n = input.dim()
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    for _ in range(_vmap_batched.batch_dims(input)):
        # (PyTorch's batch rule of each vmap level, innermost first, wraps dims as its example's and moves them past
        # its batch dim: the next level, then the kernel, check those of a tensor one dim more)
        dims, n = [_ops._wrap_dim(d, n) + 1 for d in dims], n + 1
    if n < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {n}")
    _ops._wrap_dim(dims[0], n), _ops._wrap_dim(dims[1], n)
    if dims[0] == dims[1] or builtins.abs(dims[0] - dims[1]) == n:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {dims[0]} and dim1 = {dims[1]}")


def cartesian_prod(*tensors):
    """Every combination of one element from each 1-D tensor, as rows (the tensor itself if only one)."""
    _tensor_list(tensors)
    for t in tensors:
        if t.dim() != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)}")
    if len(tensors) == 1:
        return tensors[0]
    _check_meshgrid(tensors)
    return _ops.stack([_ops.flatten(g) for g in meshgrid(*tensors, indexing="ij")], 1)


def _check_meshgrid(tensors) -> None:
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    if builtins.any(t.dtype is not tensors[0].dtype for t in tensors):
        raise RuntimeError("meshgrid expects all tensors to have the same dtype")


def combinations(input, r=2, with_replacement=False):
    """The length-r combinations of the 1-D input's elements, as rows (itertools.combinations' order)."""
    if input.dim() != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return Tensor._make(np.zeros(0, input._data.dtype))
    # The mask of index tuples i < j < ... (<= with replacement) over the r-dimensional grid, as PyTorch's.
    grid = np.indices((input.numel(),) * r)
    mask = np.ones((input.numel(),) * r, bool)
    for a, b in zip(grid[:-1], grid[1:]):
        mask &= (a <= b) if with_replacement else (a < b)
    mask = Tensor._make(mask)
    # ATen's _triu_mask writes it r times in place (full's fill_, then r - 1 `mask *= grid_i < grid_i+1`):
    # MaskedSelectBackward0 saves it at that version.
    mask._version_counter[0] = r
    return _ops.stack([D.masked_select(g, mask=mask) for g in meshgrid(*[input] * r, indexing="ij")], 1)


def unsafe_split(tensor, split_size, dim=0):
    """Pieces of ``split_size`` along ``dim`` that are not views (UnsafeSplitBackward0; the RNN cells chunk
    their gates this way before changing them in place)."""
    if not isinstance(split_size, int):
        raise TypeError(f"unsafe_split(): argument 'split_size' (position 1) must be int, not "
                        f"{type(split_size).__name__}")
    size = _ops._dim_for_split(tensor, dim, "split")
    if split_size < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got split_size={split_size}")
    if split_size == 0 and size != 0:
        raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {size}")
    return _unsafe_pieces(tensor, D.unsafe_split(tensor, split_size=split_size, dim=dim), dict(split_size=split_size,
                                                                                                  dim=dim))


def _unsafe_pieces(input, pieces, args) -> tuple:
    """PyTorch's unsafe_split is split (views) with the view metadata dropped by autograd's view layer, a layer
    inference tensors and inference mode skip: the pieces of an inference tensor are inference tensors, and in
    inference mode the pieces of a normal tensor are its views (_base), each with a version counter of its own
    (PyTorch's unsafe_split gives every piece a new one)."""
    from ._dispatch import _make_view
    from ._tensor import _STATE
    if input._is_inference:
        for p in pieces:
            p._is_inference = True
    elif _STATE.inference:
        op = D.unsafe_split if "split_size" in args else D.unsafe_split_with_sizes
        for i, p in enumerate(pieces):
            _make_view(p, input, op, args, i)
            p._version_counter = [0]
    return tuple(pieces)


def unsafe_chunk(input, chunks, dim=0):
    """At most ``chunks`` equal pieces along ``dim``, not views (see unsafe_split)."""
    if input.dim() == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    size = input.shape[_ops._wrap_dim(dim, input.dim())]
    split_size = -(-size // chunks)
    if size == 0:   # (as chunk: an empty dim still gives ``chunks`` empty pieces, through unsafe_split_with_sizes)
        from ._ops_extra import unsafe_split_with_sizes
        return unsafe_split_with_sizes(input, [0] * chunks, dim)
    return _unsafe_pieces(input, D.unsafe_split(input, split_size=split_size, dim=dim), dict(split_size=split_size,
                                                                                             dim=dim))


def unfold(self, dimension: int, size: int, step: int) -> Tensor:
    """Every window of ``size`` elements, ``step`` apart, along ``dimension``: a view with the windows in a new
    last dim (x.unfold; torch has no torch.unfold)."""
    for position, (arg, value) in enumerate((("dimension", dimension), ("size", size), ("step", step)), 2):
        _ops._check_int("unfold", arg, value, position)   # (numbered after self by the method's wrapper)
    ndim = self.dim()
    try:
        d = _ops._wrap_dim(dimension, max(ndim, 1))
        length = self.shape[d] if ndim else 1
        if size > length:
            # (under vmap PyTorch's batching rule unfolds the physical tensor, whose batch dims come first: it names
            # the physical dim, one further per vmap level the tensor is batched at)
            shown = d + bin(_vmap_batched.levels(self)).count("1") if _vmap_batched.DEPTH[0] else d
            raise RuntimeError(f"maximum size for tensor at dimension {shown} is {length} but size is {size}")
        if size < 0:
            raise RuntimeError(f"size is {size} but must be >= 0")
        if step <= 0:
            raise RuntimeError(f"step is {step} but must be > 0")
    except (IndexError, RuntimeError):   # (the kernel's checks, after VariableType collected the edge)
        _dispatch.check_rebased_inputs(self)
        raise
    return D.unfold(self, dimension=dimension, size=size, step=step)   # (saved unwrapped, as PyTorch does)


# =============================================================================================
# Tensor methods and minigrad.* names
# =============================================================================================

# Tensor methods that are also minigrad.* functions.
METHODS = [
    "broadcast_to", "ravel", "unflatten", "roll", "tile", "repeat_interleave",
    "tensor_split", "hsplit", "vsplit", "dsplit", "fliplr", "flipud", "diff", "take_along_dim",
    "rot90", "unsafe_split", "unsafe_chunk", "adjoint",
]
# minigrad.* functions only.
FUNCTIONS = [
    "broadcast_shapes", "broadcast_tensors", "meshgrid", "detach",
    "atleast_1d", "atleast_2d", "atleast_3d", "hstack", "vstack", "row_stack", "dstack", "column_stack",
    "block_diag", "cartesian_prod", "combinations",
]
# Tensor methods only (torch has no torch.new_zeros ...).
TENSOR_METHODS = [
    "new_zeros", "new_ones", "new_empty", "new_full", "new_tensor", "type_as", "cuda", "xpu", "pin_memory",
    "is_pinned", "get_device", "unfold", "share_memory_", "is_shared",
]


def _repeat_interleave_method(self, *args, **kwargs):
    """``x.repeat_interleave(repeats, dim=None)``: the counts form (repeats omitted) is torch.repeat_interleave's
    only, so ``x.repeat_interleave()`` is PyTorch's parser error, not ``x`` read as counts."""
    if not args and "repeats" not in kwargs:
        _arg_errors.recheck("repeat_interleave", args, kwargs, method=True)
    return repeat_interleave(self, *args, **kwargs)


def _attach_methods():
    for name in METHODS + TENSOR_METHODS:
        setattr(Tensor, name, globals()[name])
    for name in ("roll", "rot90", "unfold"):  # (their TypeErrors number the arguments after self)
        setattr(Tensor, name, _arg_errors.counting_without_self(globals()[name], name))
    Tensor.unflatten = _unflatten_method
    Tensor.repeat_interleave = _repeat_interleave_method
    Tensor.tile = _tile_method
    # sizes in bytes and signedness, read from the dtype
    Tensor.itemsize = property(lambda self: self.dtype.itemsize)
    Tensor.nbytes = property(lambda self: self.dtype.itemsize * self.numel())
    Tensor.is_signed = lambda self: self.dtype.is_signed
    Tensor.T = property(_numpy_T)
    Tensor.mT = property(_matrix_mT)
    Tensor.H = property(_matrix_H)
    Tensor.mH = property(_matrix_mH)


_attach_methods()
