"""Copies where PyTorch also has views: ``select_scatter`` / ``slice_scatter`` / ``diagonal_scatter`` /
``as_strided_scatter`` (input with a part replaced by src, in new memory) and the ``*_copy`` functions
(``torch.view_copy(x, s)`` is ``x.view(s)`` in new memory).

A ``*_copy`` runs the view function's checks (so its errors are the view's), then the copy op of
``derivatives.COPIES``: the view op's formula under the node ``<ViewNode>_copy`` (``ViewBackward0_copy``),
as PyTorch's generated ``*_copy`` kernels record. Arguments are saved as given (negative dims too).
"""
from __future__ import annotations

from . import _arg_errors, _dtypes, _ops, _ops_shapes, _vmap_batched
from . import derivatives as D
from ._ops_inplace_views import _strided_geometry, as_strided
from ._tensor import Tensor
from .autograd import grad_mode

# =============================================================================================
# *_scatter: input with a part (a select, a slice, a diagonal, a strided window) replaced by src
# =============================================================================================

def _check_part(part: Tensor, src: Tensor) -> None:
    if tuple(part.shape) != tuple(src.shape):
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = {list(src.shape)}, "
                           f"slice size = {list(part.shape)}")


def _no_complex_autograd(name: str, input, src) -> None:
    """PyTorch's refusal to differentiate these scatters (and select_copy, slice_copy) into a complex result."""
    if input.is_complex() and grad_mode.is_grad_enabled() and (input.requires_grad or src.requires_grad):
        raise RuntimeError(f"{name} does not support automatic differentiation for outputs with complex dtype.")


def select_scatter(input, src, dim, index):
    """A copy of input whose slice ``index`` along ``dim`` is src (SelectScatterBackward0)."""
    _check_part(_ops.select(input.detach(), dim, index), src)
    _no_complex_autograd("select_scatter", input, src)
    return D.select_scatter(input, src, dim=dim, index=int(index))


def slice_scatter(input, src, dim=0, start=None, end=None, step=1):
    """A copy of input whose slice ``start:end:step`` along ``dim`` is src (SliceScatterBackward0)."""
    if input.dim() == 0:
        if _vmap_batched.DEPTH[0] and _vmap_batched.levels_of(input, src) and not _vmap_batched.legacy_only():
            # (its batch rule wraps dim against the example without wrapping a scalar's)
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    _ops._wrap_dim(dim, input.dim())
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    part = D.slice(input.detach(), dim=dim, start=start, end=end, step=step)
    if _vmap_batched.DEPTH[0] and _vmap_batched.levels_of(input, src):
        # (inside vmap the batch rule's dtype check, _vmap_batched.input_levels', comes before the shapes')
        _vmap_batched.input_levels(D.slice_scatter, (input, src), None)
    _check_part(part, src)
    _no_complex_autograd("slice_scatter", input, src)
    return D.slice_scatter(input, src, dim=dim, start=start, end=end, step=step)


def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """A copy of input whose diagonal (``offset``, ``dim1``, ``dim2``) is src (DiagonalScatterBackward0)."""
    _check_part(_ops.diagonal(input.detach(), offset, dim1, dim2), src)
    return D.diagonal_scatter(input, src, offset=offset, dim1=dim1, dim2=dim2)


def as_strided_scatter(input, src, size, stride, storage_offset=None):
    """A contiguous copy of input whose window ``as_strided(size, stride, storage_offset)`` is src."""
    if input.requires_grad and not input.is_contiguous():
        raise RuntimeError('!self.requires_grad() || self.is_contiguous() INTERNAL ASSERT FAILED at "/__w/pytorch/'
                           'pytorch/aten/src/ATen/native/TensorShape.cpp":4754, please report a bug to PyTorch. '
                           'as_strided_scatter is currently only supported for contiguous inputs')
    if _vmap_batched.DEPTH[0] and _vmap_batched.levels_of(input, src):   # (functorch has no rule for it)
        raise RuntimeError("Error: aten::as_strided_scatter requires special handling, and does not yet have a "
                           "batching rule. Feel free to file a github issue!")
    _check_part(as_strided(input.detach().contiguous(), size, stride, storage_offset), src)
    return D.as_strided_scatter(input, src, size=tuple(int(n) for n in size), stride=tuple(int(s) for s in stride),
                                storage_offset=storage_offset)


# =============================================================================================
# *_copy: the view's values in new memory, recorded as <ViewNode>_copy
# =============================================================================================

def _shape_arg(size) -> tuple:
    return tuple(size) if isinstance(size, (tuple, list)) else (size,)


def view_copy(input, size):
    """``input.view(size)`` in new memory (ViewBackward0_copy); a dtype: the reinterpreted bits, copied."""
    if not isinstance(input, Tensor) or not isinstance(size, (tuple, list, _dtypes.dtype)):
        # (its size is an int[] without view's int... form: view_copy(x, 6) is refused)
        raise _arg_errors.invalid_combination("view_copy", (input, size), {}, (
            "(Tensor input, torch.dtype dtype, *, Tensor out = None)",
            "(Tensor input, tuple of ints size, *, Tensor out = None)"))
    if isinstance(size, _dtypes.dtype):
        return _ops.view(input, dtype=size).clone()
    shape = _ops.view(input.detach(), _shape_arg(size)).shape   # (view's checks; -1 worked out; () is 0-dim)
    return D.COPIES["view"](input, size=tuple(shape))


def t_copy(input):
    """``input.t()`` in new memory (TBackward0_copy)."""
    _ops.t(input.detach())
    return D.COPIES["t"](input)


def permute_copy(input, dims):
    """``input.permute(dims)`` in new memory (PermuteBackward0_copy)."""
    _ops.permute(input.detach(), _shape_arg(dims))   # (one tuple: dims () permutes a 0-d tensor)
    return D.COPIES["permute"](input, dims=_shape_arg(dims))


def expand_copy(input, size, *, implicit: bool = False):
    """``input.expand(size)`` in new memory (ExpandBackward0_copy)."""
    shape = _ops.expand(input.detach(), _shape_arg(size)).shape  # (one tuple: size () is a 0-d expand)
    return D.COPIES["expand"](input, size=tuple(shape))


def select_copy(input, dim, index):
    """``input.select(dim, index)`` in new memory (SelectBackward0_copy)."""
    _ops.select(input.detach(), dim, index)
    _no_complex_autograd("select_copy", input, input)   # (select_copy and slice_copy only, of the *_copy)
    return D.COPIES["select"](input, dim=dim, index=int(index))


def slice_copy(input, dim=0, start=None, end=None, step=1):
    """``input[start:end:step]`` along ``dim``, in new memory (SliceBackward0_copy)."""
    if input.dim() == 0:   # (PyTorch's slice checks this before the dim)
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    _ops._wrap_dim(dim, input.dim())
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    _no_complex_autograd("slice_copy", input, input)
    return D.COPIES["slice"](input, dim=dim, start=start, end=end, step=step)


def squeeze_copy(input, dim=None):
    """``input.squeeze(dim)`` in new memory (SqueezeBackward0/1/2_copy)."""
    _ops.squeeze(input.detach(), *(() if dim is None else (dim,)))
    if dim is None:
        return D.COPIES["SqueezeBackward0"](input)
    if isinstance(dim, int):
        return D.COPIES["SqueezeBackward1"](input, dim=dim)
    return D.COPIES["SqueezeBackward2"](input, dim=tuple(dim))


def unsqueeze_copy(input, dim):
    """``input.unsqueeze(dim)`` in new memory (UnsqueezeBackward0_copy)."""
    _ops.unsqueeze(input.detach(), dim)
    return D.COPIES["unsqueeze"](input, dim=dim)


def transpose_copy(input, dim0, dim1):
    """``input.transpose(dim0, dim1)`` in new memory (TransposeBackward0_copy)."""
    _ops.transpose(input.detach(), dim0, dim1)
    return D.COPIES["transpose"](input, dim0=dim0, dim1=dim1)


def diagonal_copy(input, offset=0, dim1=0, dim2=1):
    """``input.diagonal(offset, dim1, dim2)`` in new memory (DiagonalBackward0_copy)."""
    _ops.diagonal(input.detach(), offset, dim1, dim2)
    return D.COPIES["diagonal"](input, offset=offset, dim1=dim1, dim2=dim2)


def alias_copy(input):
    """A copy of input recorded as PyTorch's alias_copy (AliasBackward0_copy)."""
    return D.COPIES["alias"](input)


def detach_copy(input):
    """A copy of input; PyTorch records a NotImplemented node when input requires grad."""
    return D.NOT_IMPLEMENTED["detach_copy"](input)


def unbind_copy(input, dim=0):
    """``input.unbind(dim)``, each slice in new memory (UnbindBackward0_copy)."""
    _ops.unbind(input.detach(), dim)
    return tuple(D.COPIES["unbind"](input, dim=dim))


def split_copy(input, split_size, dim=0):
    """``input.split(split_size, dim)``, each piece in new memory (SplitBackward0_copy)."""
    _ops.split(input.detach(), int(split_size), dim)
    return tuple(D.COPIES["split"](input, split_size=int(split_size), dim=dim))


def split_with_sizes_copy(input, split_sizes, dim=0):
    """``input.split_with_sizes(split_sizes, dim)``, each piece in new memory (SplitWithSizesBackward0_copy)."""
    _ops.split_with_sizes(input.detach(), split_sizes, dim)
    return tuple(D.COPIES["split_with_sizes"](input, split_sizes=tuple(int(s) for s in split_sizes), dim=dim))


def narrow_copy(input, dim, start, length):
    """``input.narrow(dim, start, length)`` in new memory (NarrowCopyBackward0)."""
    if isinstance(input, Tensor) and type(dim) is int and type(start) is int and type(length) is int:
        # (its CPU kernel's own checks, not narrow's: a bare TORCH_CHECK for a dim too large, and one message for
        # a negative length or one past the end)
        n = input.dim()
        if n == 0:
            raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
        if dim >= n:
            raise RuntimeError("Expected dim < static_cast<int64_t>(self_sizes.size()) to be true, but got false.  "
                               "(Could this error message be improved?  If so, please report an enhancement request "
                               "to PyTorch.)")
        size = input._data.shape[_ops._wrap_dim(dim, n)]
        if not -size <= start <= size:
            raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
        wrapped = start + size if start < 0 else start
        if length < 0 or wrapped > size - length:
            raise RuntimeError(f"start ({wrapped}) + length ({length}) exceeds dimension size ({size}).")
    _ops.narrow(input.detach(), dim, start, length)
    return D.narrow_copy(input, dim=dim, start=int(start), length=int(length))


def unfold_copy(input, dimension, size, step):
    """``input.unfold(dimension, size, step)`` in new memory (UnfoldBackward0_copy)."""
    _ops_shapes.unfold(input.detach(), dimension, size, step)
    return D.COPIES["unfold"](input, dimension=dimension, size=size, step=step)


def as_strided_copy(input, size, stride, storage_offset=None):
    """``input.as_strided(size, stride, storage_offset)`` in new memory (AsStridedBackward0_copy)."""
    size, stride, geometry = _strided_geometry(input, size, stride, storage_offset)
    return D.COPIES["as_strided"](input, size=size, stride=stride, storage_offset=storage_offset,
                                  _self_geometry=geometry)


def view_as_real_copy(input):
    """``torch.view_as_real(input)`` in new memory (ViewAsRealBackward0_copy)."""
    _ops.view_as_real(input.detach())
    return D.COPIES["view_as_real"](input)


def view_as_complex_copy(input):
    """``torch.view_as_complex(input)`` in new memory (no derivative for a complex output, as in PyTorch)."""
    _ops.view_as_complex(input.detach())   # (the kernel's errors, before autograd's check of its output)
    if grad_mode.is_grad_enabled() and input.requires_grad:
        raise RuntimeError("view_as_complex_copy does not support automatic differentiation for outputs with complex "
                           "dtype.")
    return _ops.view_as_complex(input).clone()


TENSOR_METHODS = ["select_scatter", "slice_scatter", "diagonal_scatter", "as_strided_scatter", "narrow_copy"]
FUNCTIONS = TENSOR_METHODS + [
    "view_copy", "t_copy", "permute_copy", "expand_copy", "select_copy", "slice_copy", "squeeze_copy",
    "unsqueeze_copy", "transpose_copy", "diagonal_copy", "alias_copy", "detach_copy", "unbind_copy", "split_copy",
    "split_with_sizes_copy", "unfold_copy", "as_strided_copy", "view_as_real_copy", "view_as_complex_copy",
]

for _name in TENSOR_METHODS:
    setattr(Tensor, _name, globals()[_name])
del _name
# torch.select_scatter(1.0, ...) ...: PyTorch's "must be Tensor" TypeErrors (view_copy has two overloads: not listed)
_arg_errors.TENSOR_FIRST.update(dict.fromkeys(n for n in FUNCTIONS if n != "view_copy"))
_arg_errors.TENSOR_SECOND.update(dict.fromkeys(("select_scatter", "slice_scatter", "diagonal_scatter",
                                                "as_strided_scatter"), "src"))
