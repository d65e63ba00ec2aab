"""More user-facing operations, found missing by comparing ``dir(torch)`` with ``dir(minigrad)``.

Same conventions as ``_ops.py`` (argument parsing and errors here, derivatives in ``derivatives.py``);
each name in ``METHODS`` is also a Tensor method, and every public function a ``minigrad.*`` name.
Sections: elementwise · bitwise · sorting and selection · matrices · broadcasting and shapes ·
new tensors and conversions · dtype information.
"""
from __future__ import annotations

import builtins
import math

import numpy as np

from . import _dtypes, _ops, return_types
from . import derivatives as D
from ._tensor import Size, Tensor

# =============================================================================================
# Elementwise (differentiable: table entries in derivatives.py)
# =============================================================================================


def _float_unary(op):
    def fn(input):
        return _ops._unary(op, input)
    fn.__name__ = op.name
    fn.__doc__ = f"Elementwise {op.name} (integers give floats)."
    return fn


sinh, cosh = _float_unary(D.sinh), _float_unary(D.cosh)
asin, acos, atan = _float_unary(D.asin), _float_unary(D.acos), _float_unary(D.atan)
asinh, acosh, atanh = _float_unary(D.asinh), _float_unary(D.acosh), _float_unary(D.atanh)
erf, erfc = _float_unary(D.erf), _float_unary(D.erfc)
arcsin, arccos, arctan, arcsinh, arccosh, arctanh = asin, acos, atan, asinh, acosh, atanh


def atan2(input, other):
    """Elementwise angle of the point (other, input), in (-π, π]."""
    return _ops._binary(D.atan2, input, other, promote_int_to_float=True)


arctan2 = atan2


def softmax(input, dim, dtype=None):
    """e^x / Σ e^x along ``dim`` (as torch.nn.functional.softmax)."""
    from .nn import functional as F
    return F.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim, dtype=None):
    """log(softmax(x)) along ``dim`` (as torch.nn.functional.log_softmax)."""
    from .nn import functional as F
    return F.log_softmax(input, dim, dtype=dtype)


# =============================================================================================
# Bitwise (integers and bools; no gradients)
# =============================================================================================

def _bitwise(np_fn, name):
    def fn(input, other):
        a = input if isinstance(input, Tensor) else _ops._wrap_scalar(input)
        if a.dtype.is_floating_point or a.dtype.is_complex or getattr(other, "dtype", _dtypes.int64)._kind > 1 \
                or isinstance(other, (float, complex)):
            raise NotImplementedError(f'"{name}_cpu" not implemented for '
                               f"'{_ops._legacy(a.dtype if a.dtype._kind > 1 else other.dtype)}'")
        dt = _dtypes.result_type(a, other)
        b = other._data if isinstance(other, Tensor) else other
        return Tensor._make(np.asarray(np_fn(a._data, b)).astype(dt.np, copy=False))
    fn.__name__ = name
    fn.__doc__ = f"Elementwise {name.replace('_', ' ')} of integer or bool tensors."
    return fn


bitwise_and = _bitwise(np.bitwise_and, "bitwise_and")
bitwise_or = _bitwise(np.bitwise_or, "bitwise_or")
bitwise_xor = _bitwise(np.bitwise_xor, "bitwise_xor")
bitwise_left_shift = _bitwise(np.left_shift, "lshift")
bitwise_right_shift = _bitwise(np.right_shift, "rshift")


def bitwise_not(input):
    """~x for integer and bool tensors."""
    if input.dtype.is_floating_point or input.dtype.is_complex:
        raise NotImplementedError(f"\"bitwise_not_cpu\" not implemented for '{_ops._legacy(input.dtype)}'")
    return Tensor._make(np.invert(input._data))


# =============================================================================================
# Sorting and selection
# =============================================================================================

def sort(input, dim=-1, descending=False, *, stable=False):
    """(values, indices) sorted along ``dim``; the values are differentiable (SortBackward0)."""
    _ops._wrap_dim(dim, input.dim())
    values, indices = D.sort(input, dim=int(dim), descending=bool(descending))
    return return_types.make("sort", values, indices)


def argsort(input, dim=-1, descending=False, *, stable=False):
    """Indices that sort ``input`` along ``dim``."""
    return sort(input, dim, descending).indices


def msort(input):
    """Sorted along the first dim."""
    return sort(input, 0).values


def topk(input, k, dim=-1, largest=True, sorted=True):
    """(values, indices) of the ``k`` largest (or smallest) elements along ``dim``."""
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
    d = _ops._wrap_dim(dim, input.dim())
    if not 1 <= k <= (input._data.shape[d] if input.dim() else 1):
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    values, indices = D.kthvalue(input, k=int(k), dim=int(dim), keepdim=bool(keepdim))
    return return_types.make("kthvalue", values, indices)


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
    axis = None if dim is None or input.dim() == 0 else _ops._raw_dims(dim, input.dim())
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
# Matrices
# =============================================================================================

def _check_2d(input, name):
    if input.dim() < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")


def tril(input, diagonal=0):
    """The lower triangle (entries on and below the ``diagonal``-th diagonal), zeros elsewhere."""
    _check_2d(input, "tril")
    return D.tril(input, diagonal=int(diagonal))


def triu(input, diagonal=0):
    """The upper triangle (entries on and above the ``diagonal``-th diagonal), zeros elsewhere."""
    _check_2d(input, "triu")
    return D.triu(input, diagonal=int(diagonal))


def trace(input):
    """Sum of the main diagonal of a matrix."""
    if input.dim() != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.dim()}")
    dt = _dtypes.int64 if input.dtype._kind < 2 else None
    return D.trace(input, dtype=dt)


def diag(input, diagonal=0):
    """A vector's square diagonal matrix, or a matrix's diagonal as a vector."""
    if input.dim() == 1:
        return D.diag_embed(input, offset=int(diagonal), dim1=0, dim2=1)
    if input.dim() == 2:
        return D.diagonal_copy(input, offset=int(diagonal), dim1=0, dim2=1)
    raise RuntimeError("diag(): Supports 1D or 2D tensors. Got " + f"{input.dim()}D")


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Each last-dim vector of ``input`` on the diagonal of a matrix (only dim1=-2, dim2=-1)."""
    if (dim1, dim2) != (-2, -1):
        raise NotImplementedError("diag_embed supports dim1=-2, dim2=-1 only")
    return D.diag_embed(input, offset=int(offset), dim1=dim1, dim2=dim2)


def tril_indices(row, col, offset=0, *, dtype=None, **kwargs):
    """Indices (2, n) of the lower triangle of a row x col matrix."""
    return Tensor._make(np.stack(np.tril_indices(row, offset, col)).astype((dtype or _dtypes.int64).np))


def triu_indices(row, col, offset=0, *, dtype=None, **kwargs):
    """Indices (2, n) of the upper triangle of a row x col matrix."""
    return Tensor._make(np.stack(np.triu_indices(row, offset, col)).astype((dtype or _dtypes.int64).np))


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
    import warnings
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
    import warnings

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


def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """(std, mean) over ``dim``, recorded as one node (StdMeanBackward0)."""
    return D.std_mean(input, **_ops._var_args(input, dim, unbiased, keepdim, correction, "std_mean"))


def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """(var, mean) over ``dim``, recorded as one node (VarMeanBackward0)."""
    return D.var_mean(input, **_ops._var_args(input, dim, unbiased, keepdim, correction, "var_mean"))


# =============================================================================================
# dtype information: torch.finfo / torch.iinfo
# =============================================================================================

class finfo:
    """Machine limits of a floating point dtype (torch.finfo(torch.float32).eps ...)."""

    def __init__(self, type=None) -> None:
        d = _dtypes.get_default_dtype() if type is None else type
        if not (d.is_floating_point or d.is_complex):
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                            "'torch.finfo'")
        d = d.to_real()
        import ml_dtypes
        info = ml_dtypes.finfo(d.np) if d is _dtypes.bfloat16 else np.finfo(d.np)
        self.bits = d.itemsize * 8
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        self.resolution = 10.0 ** -int(info.precision)
        self.dtype = d.name
        self._name = {"float32": "float32", "float64": "float64", "float16": "float16",
                      "bfloat16": "bfloat16"}[d.name]

    def __repr__(self) -> str:
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:
    """Limits of an integer dtype (torch.iinfo(torch.int64).max ...)."""

    def __init__(self, type) -> None:
        if type.is_floating_point or type.is_complex:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle "
                            "'torch.iinfo'")
        info = np.iinfo(np.uint8 if type is _dtypes.bool_ else type.np)
        self.bits = type.itemsize * 8
        self.max = int(info.max)
        self.min = int(info.min)
        self.dtype = type.name

    def __repr__(self) -> str:
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"


pi = math.pi
e = math.e
inf = math.inf
nan = math.nan


# =============================================================================================
# Tensor methods
# =============================================================================================

METHODS = [
    "sinh", "cosh", "asin", "acos", "atan", "asinh", "acosh", "atanh", "erf", "erfc", "atan2",
    "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh", "arctan2",
    "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "bitwise_left_shift", "bitwise_right_shift",
    "sort", "argsort", "msort", "topk", "kthvalue", "unique", "unique_consecutive", "nonzero", "argwhere",
    "count_nonzero", "masked_select", "bincount", "histc", "is_nonzero",
    "tril", "triu", "trace", "diag", "diag_embed",
    "broadcast_to", "ravel", "unflatten", "roll", "tile",
    "new_zeros", "new_ones", "new_empty", "new_full", "new_tensor", "type_as", "cuda",
]
_TENSOR_ONLY = ("new_zeros", "new_ones", "new_empty", "new_full", "new_tensor", "type_as", "cuda")
# Module-level only (torch.softmax(x, dim) is also x.softmax(dim): attached below with the same signature).
FUNCTIONS = [
    "softmax", "log_softmax", "broadcast_shapes", "broadcast_tensors", "meshgrid", "tril_indices", "triu_indices",
    "detach", "std_mean", "var_mean", "isin", "finfo", "iinfo", "pi", "e", "inf", "nan",
]


def _softmax_method(name):
    def method(self, dim=None, dtype=None):
        if dim is None:
            raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')
        return globals()[name](self, dim, dtype=dtype)
    method.__name__ = name
    return method


def _attach_methods():
    g = globals()
    for name in METHODS:
        setattr(Tensor, name, g[name])
    Tensor.softmax = _softmax_method("softmax")
    Tensor.log_softmax = _softmax_method("log_softmax")
    Tensor.__lshift__ = lambda self, other: bitwise_left_shift(self, other)
    Tensor.__rshift__ = lambda self, other: bitwise_right_shift(self, other)
    Tensor.itemsize = property(lambda self: self.dtype.itemsize)
    Tensor.nbytes = property(lambda self: self.dtype.itemsize * self.numel())
    Tensor.is_signed = lambda self: self.dtype.is_signed


_attach_methods()
