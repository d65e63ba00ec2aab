"""The user-facing operations: argument parsing, PyTorch's type promotion and errors, then a table op.

Each function here is also a Tensor method (see ``METHODS`` at the bottom) and a ``minigrad.*``
function. Derivatives are *not* here: they are in ``derivatives.py``.
"""
from __future__ import annotations

import builtins

import numpy as np

from . import _dtypes
from . import derivatives as D
from ._tensor import Size, Tensor
from .autograd import grad_mode

_STATE = grad_mode.STATE


# =============================================================================================
# Helpers: scalars, dtypes, shapes
# =============================================================================================

def _wrap_scalar(value) -> Tensor:
    """A Python number as a 0-dim tensor of its own type (PyTorch's "wrapped number")."""
    if isinstance(value, Tensor):
        return value
    if isinstance(value, bool):
        return Tensor._make(np.array(value))
    if isinstance(value, int):
        return Tensor._make(np.array(value, dtype=np.int64))
    if isinstance(value, float):
        return Tensor._make(np.array(value, dtype=np.float64))
    if isinstance(value, complex):
        return Tensor._make(np.array(value, dtype=np.complex128))
    if isinstance(value, np.ndarray) or np.isscalar(value):
        arr = np.asarray(value)
        return Tensor._make(arr.astype(np.float64) if arr.dtype.kind == "f" else arr)
    raise TypeError(f"unsupported operand type: '{type(value).__name__}'")


def _as_tensor_like(value, like: Tensor) -> Tensor:
    if isinstance(value, Tensor):
        return value
    return Tensor._make(np.asarray(value, dtype=_dtypes.result_type(like, value).np))


def _float_dtype(t: Tensor) -> _dtypes.dtype:
    """dtype for functions that always return floats (exp of an int tensor is float32)."""
    d = t.dtype
    return d if (d.is_floating_point or d.is_complex) else _dtypes.get_default_dtype()


def _binary(op, a, b, out=None, promote_int_to_float=False, **args):
    """Run a two-input table op with PyTorch's promotion and broadcasting errors."""
    if not isinstance(a, Tensor):
        a = _wrap_scalar(a)
    if isinstance(b, Tensor):
        dt = a.dtype if a._data.dtype == b._data.dtype else _dtypes.result_type(a, b)
    else:
        dt = _dtypes.result_type(a, b)
        b = _wrap_scalar(b)
    if promote_int_to_float and not (dt.is_floating_point or dt.is_complex):
        dt = _dtypes.get_default_dtype()
    try:
        return op(a, b, dtype=dt, out=out, **args)
    except ValueError as e:
        if "broadcast" in str(e):
            _raise_broadcast_error(a._data.shape, b._data.shape)
        raise


def _raise_broadcast_error(sa, sb):
    for i in builtins.range(1, builtins.max(len(sa), len(sb)) + 1):
        x = sa[-i] if i <= len(sa) else 1
        y = sb[-i] if i <= len(sb) else 1
        if x != y and x != 1 and y != 1:
            dim = builtins.max(len(sa), len(sb)) - i
            raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) "
                               f"at non-singleton dimension {dim}")
    raise RuntimeError("shapes cannot be broadcast")


def _unary(op, t: Tensor, out=None, float_result=True):
    dt = _float_dtype(t) if float_result else t.dtype
    return op(t, dtype=dt if dt.np != t._data.dtype else None, out=out)


def _size_args(size) -> tuple:
    """Accept f(2, 3), f((2, 3)) and f([2, 3]) alike."""
    if len(size) == 1 and isinstance(size[0], (tuple, list, Size)):
        size = size[0]
    return tuple(int(s) for s in size)


def _wrap_dim(dim: int, ndim: int) -> int:
    lo, hi = (-1, 0) if ndim == 0 else (-ndim, ndim - 1)
    if not lo <= dim <= hi:
        raise IndexError(f"Dimension out of range (expected to be in range of [{lo}, {hi}], but got {dim})")
    return dim % ndim if ndim else 0


def _dim_list(dim, ndim: int):
    if dim is None:
        return None
    if isinstance(dim, int):
        return (_wrap_dim(dim, ndim),)
    return tuple(_wrap_dim(d, ndim) for d in dim)


# =============================================================================================
# Arithmetic
# =============================================================================================

def add(input, other, *, alpha=1, out=None):
    """input + alpha * other."""
    return _binary(D.add, input, other, alpha=alpha)


def sub(input, other, *, alpha=1):
    """input - alpha * other."""
    if isinstance(input, Tensor) and input.dtype is _dtypes.bool_ and getattr(other, "dtype", None) is _dtypes.bool_:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                           "Use the `^` or `logical_xor()` operator instead.")
    return _binary(D.sub, input, other, alpha=alpha)


subtract = sub


def rsub(input, other, *, alpha=1):
    """other - alpha * input."""
    return _binary(D.rsub, input, other, alpha=alpha)


def mul(input, other):
    """Elementwise product."""
    return _binary(D.mul, input, other)


multiply = mul


def div(input, other, *, rounding_mode=None):
    """Elementwise true division (integers give floats)."""
    if rounding_mode is not None:
        return _rounded_div(input, other, rounding_mode)
    return _binary(D.div, input, other, promote_int_to_float=True)


divide = true_divide = div


def rdiv(input, other):
    """other / input."""
    return div(_wrap_scalar(other), input)


def _rounded_div(a, b, mode):
    a = a if isinstance(a, Tensor) else _wrap_scalar(a)
    dt = _dtypes.result_type(a, b)
    bd = b._data if isinstance(b, Tensor) else b
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.floor_divide(a._data, bd) if mode == "floor" else np.trunc(np.true_divide(a._data, bd))
    return Tensor._make(np.asarray(q).astype(dt.np))


def floor_divide(input, other):
    """Elementwise division rounded down (not differentiable)."""
    return _rounded_div(input, other, "floor")


def remainder(input, other):
    """Python-style modulus (sign of the divisor)."""
    a = input if isinstance(input, Tensor) else _wrap_scalar(input)
    dt = _dtypes.result_type(a, other)
    bd = other._data if isinstance(other, Tensor) else other
    return Tensor._make(np.asarray(np.mod(a._data, bd)).astype(dt.np))


def neg(input):
    """-input."""
    if input.dtype is _dtypes.bool_:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
    return D.neg(input)


negative = neg


def pow(input, exponent):
    """input ** exponent (scalar exponent: PowBackward0; tensor exponent: PowBackward1)."""
    if not isinstance(input, Tensor):
        base = _wrap_scalar(input)
        dt = _dtypes.result_type(input, exponent)
        return D.pow_tensor(base, exponent, dtype=dt)
    if isinstance(exponent, Tensor):
        return _binary(D.pow_tensor, input, exponent)
    dt = _dtypes.result_type(input, exponent)
    if not (dt.is_floating_point or dt.is_complex) and isinstance(exponent, int) and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    return D.pow(input, dtype=dt if dt.np != input._data.dtype else None, exponent=exponent)


def exp(input):
    """e ** input."""
    return _unary(D.exp, input)


def log(input):
    """Natural logarithm."""
    return _unary(D.log, input)


def sigmoid(input):
    """1 / (1 + exp(-input))."""
    return _unary(D.sigmoid, input)


def tanh(input):
    """Hyperbolic tangent."""
    return _unary(D.tanh, input)


def relu(input):
    """max(input, 0)."""
    return D.relu(input)


def softplus_neg(x):
    """log(1 + exp(-x)), stable (used by the BCE-with-logits formulas)."""
    return (x.neg().clamp_min(0) + (x.abs().neg().exp() + 1).log()) if hasattr(x, "clamp_min") else \
        Tensor._make(np.logaddexp(0, -x._data))


def conj(input):
    """Complex conjugate (the tensor itself for real tensors)."""
    if not input.dtype.is_complex:
        return input
    return D.conj(input) if hasattr(D, "conj") else Tensor._make(np.conj(input._data))


# =============================================================================================
# Reductions
# =============================================================================================

def sum(input, dim=None, keepdim=False, *, dtype=None):
    """Sum of all elements, or over ``dim``."""
    if dtype is None and not (input.dtype.is_floating_point or input.dtype.is_complex):
        dtype = _dtypes.int64  # integer and bool sums are int64, as in PyTorch
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0 and input.dim() == 0):
        return D.sum(input, dtype=dtype)
    dims = _dim_list(dim, input.dim())
    return D.sum_dim(input, dtype=dtype, dim=dims if len(dims) != 1 or not isinstance(dim, int) else dims[0],
                     keepdim=keepdim)


def mean(input, dim=None, keepdim=False, *, dtype=None):
    """Arithmetic mean of all elements, or over ``dim``."""
    d = dtype or input.dtype
    if not (d.is_floating_point or d.is_complex):
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point or complex "
            f"dtype. Got: {_legacy(input.dtype)}")
    if dim is None:
        return D.mean(input, dtype=dtype)
    dims = _dim_list(dim, input.dim())
    return D.mean_dim(input, dtype=dtype, dim=dims if not isinstance(dim, int) else dims[0], keepdim=keepdim)


def _legacy(d) -> str:
    from ._tensor import _LEGACY_NAMES
    return _LEGACY_NAMES[d.name]


def sum_to_size(input, *size):
    """Sum broadcast dimensions away until the shape is ``size`` (undoes broadcasting)."""
    size = _size_args(size)
    shape = input._data.shape
    lead = len(shape) - len(size)
    dims = tuple(i for i in builtins.range(len(shape))
                 if i < lead or (size[i - lead] == 1 and shape[i] != 1))
    out = input
    if dims:
        out = sum(input, dim=dims, keepdim=True)
    if lead > 0:
        out = view(out, size)
    return out


# =============================================================================================
# Shape and views
# =============================================================================================

def _infer_size(size, numel):
    size = list(size)
    if size.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = 1
    for s in size:
        if s != -1:
            known *= s
    if -1 in size:
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(size)}' is invalid for input of size {numel}")
        size[size.index(-1)] = numel // known
    elif known != numel:
        raise RuntimeError(f"shape '{list(size)}' is invalid for input of size {numel}")
    return tuple(size)


def view(input, *size):
    """Same data with another shape (a view; fails for incompatible strides)."""
    if len(size) == 1 and isinstance(size[0], _dtypes.dtype):
        raise NotImplementedError("view(dtype) is not supported")
    size = _infer_size(_size_args(size), input._data.size)
    if not _viewable(input._data, size):
        raise RuntimeError("view size is not compatible with input tensor's size and stride (at least one "
                           "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
    return D.view(input, size=size)


def _viewable(a: np.ndarray, size) -> bool:
    if a.flags["C_CONTIGUOUS"]:
        return True
    try:
        v = a.view()
        v.shape = size  # raises if a copy would be needed
        return True
    except AttributeError:
        return False


def reshape(input, *shape):
    """Like view when possible, otherwise a copy."""
    size = _infer_size(_size_args(shape), input._data.size)
    if _viewable(input._data, size):
        return D.view(input, size=size)
    return D.unsafe_view(clone(input), size=size)


def view_as(input, other):
    return view(input, other.shape)


def reshape_as(input, other):
    return reshape(input, other.shape)


def flatten(input, start_dim=0, end_dim=-1):
    """Merge dims start_dim..end_dim into one."""
    n = input.dim()
    if n == 0:
        return reshape(input, (1,))
    s, e = _wrap_dim(start_dim, n), _wrap_dim(end_dim, n)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return input
    shape = input._data.shape
    return reshape(input, shape[:s] + (-1,) + shape[e + 1:])


def t(input):
    """Transpose a tensor of at most 2 dims."""
    if input.dim() > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {input.dim()}D")
    return D.t(input)


def transpose(input, dim0, dim1):
    """Swap two dimensions (a view)."""
    n = input.dim()
    return D.transpose(input, dim0=_wrap_dim(dim0, n), dim1=_wrap_dim(dim1, n))


swapaxes = swapdims = transpose


def permute(input, *dims):
    """Reorder dimensions (a view)."""
    dims = _size_args(dims)
    n = input.dim()
    if len(dims) != n:
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does not match the "
                           f"length of the desired ordering of dimensions i.e. input.dim() = {n} is not equal to "
                           f"len(dims) = {len(dims)}")
    return D.permute(input, dims=tuple(_wrap_dim(d, n) for d in dims))


def expand(input, *sizes):
    """Broadcast to a larger shape without copying (-1 keeps a size)."""
    sizes = _size_args(sizes)
    shape = input._data.shape
    if len(sizes) < len(shape):
        raise RuntimeError(f"expand(torch.{_legacy(input.dtype)}Tensor{{{list(shape)}}}, size={list(sizes)}): the "
                           "number of sizes provided (%d) must be greater or equal to the number of dimensions in "
                           "the tensor (%d)" % (len(sizes), len(shape)))
    lead = len(sizes) - len(shape)
    target = []
    for i, s in enumerate(sizes):
        if i >= lead and s == -1:
            s = shape[i - lead]
        elif i >= lead and shape[i - lead] != s and shape[i - lead] != 1:
            raise RuntimeError(f"The expanded size of the tensor ({s}) must match the existing size "
                               f"({shape[i - lead]}) at non-singleton dimension {i}.  Target sizes: "
                               f"{list(sizes)}.  Tensor sizes: {list(shape)}")
        target.append(s)
    return D.expand(input, size=tuple(target))


def expand_as(input, other):
    return expand(input, other.shape)


def unsqueeze(input, dim):
    """Insert a size-1 dimension at ``dim``."""
    return D.unsqueeze(input, dim=_wrap_dim(dim, input.dim() + 1))


def squeeze(input, dim=None):
    """Remove size-1 dimensions (all, or those in ``dim``)."""
    if dim is None:
        return D.squeeze(input)
    if isinstance(dim, int):
        return D.squeeze_dim(input, dim=_wrap_dim(dim, input.dim()))
    return D.squeeze_dims(input, dim=tuple(_wrap_dim(d, input.dim()) for d in dim))


def select(input, dim, index):
    """The slice at ``index`` along ``dim`` (that dimension removed; a view)."""
    n = input.dim()
    if n == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    dim = _wrap_dim(dim, n)
    size = input._data.shape[dim]
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of bounds for dimension {dim} with size {size}")
    return D.select(input, dim=dim, index=index % size if size else index)


def narrow_slice(input, dim, start, end, step):
    """input[..., start:end:step, ...] along ``dim`` (a view)."""
    return D.slice(input, dim=dim, start=start, end=end, step=step)


def unbind(input, dim=0):
    """Tuple of all slices along ``dim``."""
    return tuple(select(input, dim, i) for i in builtins.range(input._data.shape[dim]))


# =============================================================================================
# Linear algebra
# =============================================================================================

def _check_mm_dtypes(a, b, name="mm"):
    if a.dtype is not b.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {a.dtype.name} != {b.dtype.name}"
                           if name == "mm" else f"expected scalar type {_legacy(a.dtype)} but found {_legacy(b.dtype)}")


def mm(input, mat2):
    """Matrix product of two 2-D tensors."""
    if input.dim() != 2:
        raise RuntimeError("self must be a matrix")
    if mat2.dim() != 2:
        raise RuntimeError("mat2 must be a matrix")
    if input._data.shape[1] != mat2._data.shape[0]:
        (a, b), (c, d) = input._data.shape, mat2._data.shape
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a}x{b} and {c}x{d})")
    _check_mm_dtypes(input, mat2)
    return D.mm(input, mat2)


def mv(input, vec):
    """Matrix-vector product."""
    if input.dim() != 2 or vec.dim() != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {input.dim()}, {vec.dim()}")
    if input._data.shape[1] != vec._data.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({input._data.shape[0]}), mat ({input._data.shape[0]}x"
                           f"{input._data.shape[1]}), vec ({vec._data.shape[0]})")
    _check_mm_dtypes(input, vec, "mv")
    return D.mv(input, vec)


def dot(input, tensor):
    """Inner product of two 1-D tensors."""
    if input.dim() != 1 or tensor.dim() != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.dim()}D and {tensor.dim()}D tensors")
    if input._data.shape[0] != tensor._data.shape[0]:
        raise RuntimeError("inconsistent tensor size, expected tensor [%d] and src [%d] to have the same number "
                           "of elements, but got %d and %d elements respectively"
                           % (input._data.shape[0], tensor._data.shape[0], input._data.shape[0], tensor._data.shape[0]))
    if input.dtype is not tensor.dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {_legacy(input.dtype)} "
                           f"and {_legacy(tensor.dtype)}")
    return D.dot(input, tensor)


def bmm(input, mat2):
    """Batched matrix product of two 3-D tensors."""
    if input.dim() != 3 or mat2.dim() != 3:
        raise RuntimeError(f"batch1 must be a 3D tensor" if input.dim() != 3 else "batch2 must be a 3D tensor")
    return D.bmm(input, mat2)


def outer(input, vec2):
    """Outer product of two vectors."""
    return D.outer(input, vec2)


ger = outer


def matmul(input, other):
    """Matrix product with PyTorch's rules for every combination of ranks (and its grad_fn names)."""
    if not isinstance(input, Tensor) or not isinstance(other, Tensor):
        raise TypeError(f"matmul(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}")
    d1, d2 = input.dim(), other.dim()
    if d1 == 0 or d2 == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {d1}D and {d2}D")
    if d1 == 1 and d2 == 1:
        return dot(input, other)
    if d1 == 2 and d2 == 1:
        return mv(input, other)
    if d1 == 1 and d2 == 2:
        if input._data.shape[0] != other._data.shape[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied (1x{input._data.shape[0]} and "
                               f"{other._data.shape[0]}x{other._data.shape[1]})")
        return D.squeeze_inplace_dim(mm(unsqueeze(input, 0), other), dim=0)
    if d1 == 2 and d2 == 2:
        return mm(input, other)
    if d1 >= 3 and d2 <= 2:
        # Fold the batch dims into the rows: (b, n, k) @ (k, m) -> (b*n, k) @ (k, m).
        lead = input._data.shape[:-1]
        folded = reshape(input, (-1, input._data.shape[-1]))
        out = mm(folded, other) if d2 == 2 else mv(folded, other)
        return D.unsafe_view(out, size=lead + ((other._data.shape[-1],) if d2 == 2 else ()))
    if d1 <= 2 and d2 >= 3:
        # (k) @ (b, k, m)  ==  ((b, m, k) @ (k)) ; (n, k) @ (b, k, m) == ((b, m, k) @ (k, n))^T
        if d1 == 1:
            return matmul(transpose(other, -1, -2), input)
        return transpose(matmul(transpose(other, -1, -2), transpose(input, -1, -2)), -1, -2)
    # Both batched: broadcast the batch dims, fold them into one, bmm, unfold.
    a, b = input, other
    if d1 == 1:
        a = unsqueeze(a, 0)
    if d2 == 1:
        b = unsqueeze(b, -1)
    batch = np.broadcast_shapes(a._data.shape[:-2], b._data.shape[:-2])
    n, k = a._data.shape[-2:]
    k2, m = b._data.shape[-2:]
    if k != k2:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{int(np.prod(batch))}, "
                           f"{k}] but got: [{int(np.prod(batch))}, {k2}].")
    bsz = int(np.prod(batch))
    a3 = reshape(expand(a, batch + (n, k)), (bsz, n, k))
    b3 = reshape(expand(b, batch + (k, m)), (bsz, k, m))
    out = D.unsafe_view(bmm(a3, b3), size=batch + (n, m))
    if d2 == 1:
        out = squeeze(out, -1)
    return out


# =============================================================================================
# Comparison and logic (no gradients)
# =============================================================================================

def _compare(np_fn, a, b):
    bd = b._data if isinstance(b, Tensor) else b
    ad = a._data if isinstance(a, Tensor) else a
    try:
        return Tensor._make(np.asarray(np_fn(ad, bd)))
    except ValueError:
        _raise_broadcast_error(np.shape(ad), np.shape(bd))


def eq(input, other):
    return _compare(np.equal, input, other)


def ne(input, other):
    return _compare(np.not_equal, input, other)


def lt(input, other):
    return _compare(np.less, input, other)


def le(input, other):
    return _compare(np.less_equal, input, other)


def gt(input, other):
    return _compare(np.greater, input, other)


def ge(input, other):
    return _compare(np.greater_equal, input, other)


def logical_and(input, other):
    return _compare(np.logical_and, input, other)


def logical_or(input, other):
    return _compare(np.logical_or, input, other)


def logical_xor(input, other):
    return _compare(np.logical_xor, input, other)


def logical_not(input):
    return Tensor._make(np.logical_not(input._data))


def all(input, dim=None, keepdim=False):
    """True if every element is nonzero."""
    return Tensor._make(np.asarray(np.all(input._data, axis=dim, keepdims=keepdim)))


def any(input, dim=None, keepdim=False):
    """True if some element is nonzero."""
    return Tensor._make(np.asarray(np.any(input._data, axis=dim, keepdims=keepdim)))


def equal(input, other) -> bool:
    """True if both have the same shape and values."""
    return input._data.shape == other._data.shape and bool(np.array_equal(input._data, other._data))


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    return bool(np.allclose(input._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


def where(condition, input=None, other=None):
    """Elementwise choice: input where condition else other."""
    if input is None and other is None:
        return tuple(Tensor._make(i) for i in np.nonzero(condition._data))
    if hasattr(D, "where"):
        a = input if isinstance(input, Tensor) else _wrap_scalar(input)
        b = other if isinstance(other, Tensor) else _wrap_scalar(other)
        dt = _dtypes.result_type(input, other)
        return D.where(condition, a, b, dtype=dt)
    raise NotImplementedError


# =============================================================================================
# Copies, conversions and in-place ops
# =============================================================================================

def clone(input, *, memory_format=None):
    """A copy that stays in the graph (CloneBackward0)."""
    return D.clone(input)


def contiguous(input, memory_format=None):
    return input if input._data.flags["C_CONTIGUOUS"] else clone(input)


def to(input, *args, dtype=None, copy=False, **kwargs):
    """Convert to another dtype (device arguments are accepted and ignored: CPU only)."""
    for a in args:
        if isinstance(a, _dtypes.dtype):
            dtype = a
        elif isinstance(a, Tensor):
            dtype = a.dtype
    if dtype is None or (dtype is input.dtype and not copy):
        return input if not copy else clone(input)
    return D.to_copy(input, dtype=dtype)


def _cast(dt):
    def cast(input, memory_format=None):
        return to(input, dt)
    cast.__doc__ = f"Convert to {dt!r}."
    return cast


# tensor.float(), tensor.long() ... (not module-level names: they would shadow the builtins here)
_CASTS = {
    "float": _cast(_dtypes.float32), "double": _cast(_dtypes.float64), "half": _cast(_dtypes.float16),
    "bfloat16": _cast(_dtypes.bfloat16), "long": _cast(_dtypes.int64), "int": _cast(_dtypes.int32),
    "short": _cast(_dtypes.int16), "bool": _cast(_dtypes.bool_), "byte": _cast(_dtypes.uint8),
    "char": _cast(_dtypes.int8), "cfloat": _cast(_dtypes.complex64), "cdouble": _cast(_dtypes.complex128),
}


def copy_(input, src, non_blocking=False):
    """Overwrite input's values with src's (broadcast), in place."""
    src = src if isinstance(src, Tensor) else _wrap_scalar(src)
    return D.copy_(input, src, out=input, dtype=None)


def zero_(input):
    """Fill with zeros in place."""
    return D.zero_(input, out=input)


def fill_(input, value):
    """Fill with ``value`` in place."""
    return D.fill_(input, out=input, value=value)


def add_(input, other, *, alpha=1):
    return _binary(D.add, input, other, out=input, alpha=alpha)


def sub_(input, other, *, alpha=1):
    return _binary(D.sub, input, other, out=input, alpha=alpha)


def mul_(input, other):
    return _binary(D.mul, input, other, out=input)


def div_(input, other):
    return _binary(D.div, input, other, out=input, promote_int_to_float=True)


def pow_(input, exponent):
    if isinstance(exponent, Tensor):
        return _binary(D.pow_tensor, input, exponent, out=input)
    return D.pow(input, out=input, exponent=exponent)


def neg_(input):
    return D.neg(input, out=input)


def exp_(input):
    return D.exp(input, out=input)


def index_put_into(out, index, values):
    raise NotImplementedError


def index_add_flat(out, positions, grad):
    """out.flatten()[positions] += grad (repeats accumulate); used by AsStridedBackward0."""
    data = out._data.copy().reshape(-1)
    np.add.at(data, positions, grad._data.reshape(-1))
    return Tensor._make(data.reshape(out._data.shape))


# =============================================================================================
# Creation helpers used by formulas (the full set is in _creation.py)
# =============================================================================================

def zeros_like(input, *, dtype=None, requires_grad=False, **kwargs):
    from ._creation import zeros_like as z
    return z(input, dtype=dtype, requires_grad=requires_grad)


def zeros(*size, dtype=None, requires_grad=False, **kwargs):
    from ._creation import zeros as z
    return z(*size, dtype=dtype, requires_grad=requires_grad)


# =============================================================================================
# Tensor methods
# =============================================================================================

METHODS = [
    "add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide", "floor_divide", "remainder",
    "neg", "negative", "pow", "exp", "log", "sigmoid", "tanh", "relu", "conj",
    "sum", "mean", "sum_to_size",
    "view", "reshape", "view_as", "reshape_as", "flatten", "t", "transpose", "swapaxes", "swapdims", "permute",
    "expand", "expand_as", "unsqueeze", "squeeze", "select", "unbind",
    "mm", "mv", "dot", "bmm", "outer", "ger", "matmul",
    "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor", "logical_not",
    "all", "any", "equal", "allclose",
    "clone", "contiguous", "to",
    "copy_", "zero_", "fill_", "add_", "sub_", "mul_", "div_", "pow_", "neg_", "exp_",
]


def _attach_methods():
    g = globals()
    for name in METHODS:
        setattr(Tensor, name, g[name])
    for name, fn in _CASTS.items():
        setattr(Tensor, name, fn)
    Tensor.T = property(lambda self: permute(self, tuple(builtins.range(self.dim() - 1, -1, -1))))
    Tensor.mT = property(lambda self: transpose(self, -2, -1))
    Tensor.H = property(lambda self: conj(Tensor.T.fget(self)))
    Tensor.mH = property(lambda self: conj(transpose(self, -2, -1)))
    Tensor.real = property(lambda self: real(self))


def real(input):
    """Real part (the tensor itself for real tensors)."""
    if not input.dtype.is_complex:
        return input
    if hasattr(D, "real"):
        return D.real(input)
    return Tensor._make(input._data.real)


_attach_methods()
