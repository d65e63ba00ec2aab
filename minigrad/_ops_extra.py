"""Small ``torch.*`` functions and Tensor methods with no better home: complex-number flags (``isreal``,
``conj_physical``, ``resolve_conj`` ...), ``diagflat``, ``fill``, ``unravel_index``, ``histogram`` /
``histogramdd`` (forward only), ``empty_strided`` / ``frombuffer``, the Python-callable fills ``apply_`` /
``map_`` / ``map2_``, ``torch.set_warn_always`` (from _warn_once.py), the layout queries ``dim_order`` /
``is_set_to``, ``nonzero_static``, ``unsafe_split_with_sizes``, ``torch.vander``, ``torch.empty_permuted`` and the
deprecated ``x.resize(*sizes)`` (``torch.kaiser_window`` is in _windows.py).

Argument checks and PyTorch's messages here; the derivatives (``conj_physical``, ``fill``) in derivatives.py.
"""
from __future__ import annotations

import builtins
import collections.abc
import functools
import operator
import warnings

import numpy as np

from . import _arg_errors, _dispatch, _dtypes, _layout, _neg, _ops, _strides, _vmap_batched, _zerotensor, return_types
from . import derivatives as D
from ._tensor import Tensor, _user_stacklevel
from ._warn_once import is_warn_always_enabled, set_warn_always, warn_once  # noqa: F401  (FUNCTIONS)
from .autograd import forward_ad, grad_mode

# =============================================================================================
# Complex numbers: lazy conjugate views (x.conj(): see _conj.py); minigrad has no lazy negative views
# =============================================================================================

def isreal(input) -> Tensor:
    """True where the element has no imaginary part (always, for a real tensor)."""
    if input.is_complex():
        data = input._data
        imag = data["imag"] if _dtypes.is_complex32(data.dtype) else data.imag   # (complex32: a float16 pair)
        return Tensor._make(np.asarray(imag == 0))
    out = Tensor._make(np.ones(input._data.shape, dtype=bool))
    return _dispatch.function_result_version("isreal", (input,), out)


def resolve_conj(input) -> Tensor:
    """A conjugate view's values in memory of its own (CloneBackward0); any other tensor: input itself."""
    return input.clone() if input.is_conj() else input


def resolve_neg(input) -> Tensor:
    """A negative view's values in memory of their own (CloneBackward0); any other tensor: input itself."""
    _neg.check_readable(input)
    return input.clone() if input.is_neg() else input


def _neg_view(input) -> Tensor:
    """A lazy negative view of input (NegViewBackward0): its memory, read negated (see _neg.py)."""
    return _neg.neg_view(input)


def is_conj(input) -> bool:
    """Whether input is a lazy conjugate view (x.conj() of a complex x, and its views)."""
    return input.is_conj()


def is_neg(input) -> bool:
    """Whether input is a lazy negative view (torch._neg_view(x), z.conj().imag, and their views)."""
    return input.is_neg()


_is_zerotensor, _efficientzerotensor = _zerotensor._is_zerotensor, _zerotensor._efficientzerotensor


def conj_physical(input) -> Tensor:
    """The complex conjugate in new memory (ConjPhysicalBackward0); a real tensor is returned as is."""
    if not input.is_complex():
        return input
    return _strides.into_empty_like(input, D.conj_physical(input))   # (PyTorch's kernel writes into empty_like)


def conj_physical_(input) -> Tensor:
    """In-place conj_physical (ConjPhysicalBackward1, for a real tensor too)."""
    return D.conj_physical_inplace(input, out=input)


# =============================================================================================
# diagflat, fill, unravel_index
# =============================================================================================

def diagflat(input, offset: int = 0) -> Tensor:
    """A square matrix with input's elements (flattened) on its ``offset``-th diagonal."""
    flat = _ops.view(input.contiguous(), -1)
    # (ATen's diagflat calls diag_embed with its defaults: the node saves dim1=-2, dim2=-1, not 0 and 1)
    return D.diag_embed(flat, offset=offset, dim1=-2, dim2=-1)


def fill(input, value) -> Tensor:
    """A new tensor of input's shape and dtype, every element ``value`` (FillBackward0 / FillBackward1)."""
    if isinstance(value, Tensor):
        if value.dim():
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with {value.dim()} "
                               "dimensions.")
        return D.fill_tensor_value(input, value)   # (no cast node: PyTorch's FillBackward1 sees the value itself)
    if value is None:   # (PyTorch's parser refuses it; NumPy would fill nan)
        _arg_errors.reparse("torch.fill", (input, value), {}, _arg_errors._NOT_FAILED)
    if isinstance(value, complex) and not input.is_complex():
        raise RuntimeError(f"value cannot be converted to type {_ops._meta_name(input.dtype)} without overflow")
    return D.fill_scalar(input, value=value)


def unravel_index(indices, shape) -> tuple:
    """The coordinates, in a tensor of ``shape``, of the flat ``indices`` (a tuple, one tensor per dim)."""
    if indices.is_complex() or indices.is_floating_point() or indices.dtype is _dtypes.bool_:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    if isinstance(shape, (int, np.integer)):
        shape = (int(shape),)
    elif not isinstance(shape, collections.abc.Sequence):
        raise TypeError(f"expected 'shape' to be int or sequence of ints, but got {type(shape)}")
    for n in shape:
        if not isinstance(n, (int, np.integer)):
            raise TypeError(f"expected 'shape' sequence to only contain ints, but got {type(n)}")
    shape = tuple(int(n) for n in shape)
    if builtins.any(n < 0 for n in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {shape}")
    # PyTorch's Python: index // (product of the later sizes) % size, per dim
    coefs = [int(np.prod(shape[i + 1:], dtype=np.int64)) for i in range(len(shape))]
    coords = _ops.unsqueeze(indices, -1).floor_divide(Tensor._make(np.array(coefs, dtype=np.int64)))
    return _ops.unbind(coords % Tensor._make(np.array(shape, dtype=np.int64)), -1)


# =============================================================================================
# histogram / histogramdd (PyTorch's CPU kernel: bin edges by linspace in input's dtype, a value on the
# last edge counted in the last bin, values outside the edges not counted)
# =============================================================================================

histogram_type = return_types._named("histogram", "hist", "bin_edges")
histogramdd_type = return_types._named("histogramdd", "hist", "bin_edges")


def _bin_edges(values: np.ndarray, bins, low, high, dim: int, name: str, dtype) -> np.ndarray:
    """One dimension's bin edges: given as a tensor, or ``bins`` equal bins over [low, high]."""
    from ._creation import linspace
    if isinstance(bins, Tensor):
        if bins.dtype is not dtype:
            raise RuntimeError(f"torch.histogramdd: input tensor and bins tensors should have the same dtype, but got "
                               f"input with dtype {_ops._meta_name(dtype)} and bins for dimension {dim} with dtype "
                               f"{_ops._meta_name(bins.dtype)}")
        if bins.numel() < 2:
            raise RuntimeError(f"torch.{name}(): bins must be > 0, but got {bins.numel() - 1} for dimension {dim}")
        return bins._data.reshape(-1)
    if bins <= 0:
        raise RuntimeError(f"torch.{name}(): bins must be > 0, but got {bins} for dimension {dim}")
    if low is None:
        low, high = (float(values.min()), float(values.max())) if values.size else (0.0, 1.0)
    if not (np.isfinite(low) and np.isfinite(high)):
        raise RuntimeError(f"torch.histogramdd: dimension {dim}'s range [{low:g}, {high:g}] is not finite")
    if low > high:
        raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {low:g} max {high:g} for "
                           f"dimension {dim}")
    if low == high:   # (widened, as NumPy does)
        low, high = low - 0.5, high + 0.5
    return linspace(low, high, int(bins) + 1, dtype=dtype)._data


def _histogramdd(name: str, input, bins, range, weight, density):
    """(hist, [bin edges per dim]) of the rows of the 2-D ``input`` (N points, D dims)."""
    edges = list(bins) if isinstance(bins, (list, tuple)) else [bins]
    given = bool(edges) and all(isinstance(b, Tensor) for b in edges)
    # (no derivatives: PyTorch's autograd fallback refuses a tangent before the kernel's checks)
    forward_ad.refuse_in_fallback("aten::histogram" if name == "histogram" else
                                  "aten::_histogramdd_from_bin_tensors" if given else "aten::_histogramdd_bin_edges",
                                  input, weight)
    if not input.is_floating_point() or input.dtype in (_dtypes.float16, _dtypes.bfloat16):  # (float, double)
        # (given edges: their dtype check, then histogram_cpu's kernel, which takes half precision too)
        for d, b in enumerate(edges if given else ()):
            _bin_edges(None, b, None, None, d, name, input.dtype)
        if not (given and input.is_floating_point()):
            kernel = "histogram_cpu" if given else "histogramdd"
            raise NotImplementedError(f"\"{kernel}\" not implemented for '{_ops._legacy(input.dtype)}'")
    points = input._data.reshape(-1, input.shape[-1]) if input.dim() else input._data.reshape(1, 1)
    n_dims = points.shape[1]
    if weight is not None:
        if tuple(weight.shape) != tuple(input.shape[:-1]):
            raise RuntimeError("torch.histogramdd: if weight tensor is provided it should have the same shape as the "
                               "input tensor excluding its innermost dimension, but got input with shape "
                               f"{list(input.shape)} and weight with shape {list(weight.shape)}")
        if weight.dtype is not input.dtype:
            raise RuntimeError("torch.histogramdd: if weight tensor is provided, input tensor and weight tensor should "
                               f"have the same dtype, but got input({_ops._meta_name(input.dtype)}), and "
                               f"weight({_ops._meta_name(weight.dtype)})")
    if range is not None and len(range) != 2 * n_dims:
        raise RuntimeError(f"torch.histogramdd: for a {n_dims}-dimensional histogram range should have "
                           f"{2 * n_dims} elements, but got {len(range)}")
    bins = list(bins) if isinstance(bins, (list, tuple)) else [bins] * n_dims
    if len(bins) != n_dims:
        raise RuntimeError("histogramdd: The size of bins must be equal to the innermost dimension of the input.")
    edges = [_bin_edges(points[:, d], bins[d], None if range is None else float(range[2 * d]),
                        None if range is None else float(range[2 * d + 1]), d, name, input.dtype)
             for d in builtins.range(n_dims)]
    hist = np.zeros([len(e) - 1 for e in edges], dtype=input._data.dtype)
    inside = np.ones(len(points), dtype=bool)
    positions = []
    for d, e in enumerate(edges):
        column = points[:, d]
        inside &= (column >= e[0]) & (column <= e[-1])
        pos = np.searchsorted(e, column, side="right") - 1
        positions.append(np.minimum(pos, len(e) - 2))   # (the last edge belongs to the last bin)
    values = np.ones(len(points), hist.dtype) if weight is None else weight._data.reshape(-1)
    np.add.at(hist, tuple(p[inside] for p in positions), values[inside])
    if density:
        hist = hist / hist.sum(dtype=hist.dtype)
        for d, e in enumerate(edges):
            hist = hist / np.diff(e).reshape([-1 if i == d else 1 for i in builtins.range(n_dims)])
        hist = hist.astype(input._data.dtype, copy=False)
    results = [hist, *(np.array(e) for e in edges)]
    tensors = (input,) + ((weight,) if weight is not None else ())
    if grad_mode.is_grad_enabled() and builtins.any(t.requires_grad for t in tensors):
        if weight is None:   # (PyTorch's NotImplemented nodes)
            return D.NOT_IMPLEMENTED["histogram"](input, _results=results)
        return D.NOT_IMPLEMENTED["histogram_weight"](input, weight, _results=results)
    outs = [Tensor._make(r) for r in results]
    if input._is_inference is True:   # (see _dispatch.function_result_version)
        inputs = (*tensors, *(b for b in bins if isinstance(b, Tensor)))
        _dispatch.function_result_version("histogram density" if density else "histogram", inputs, outs[0])
        for edge in outs[1:]:
            _dispatch.function_result_version("histogram edges", inputs, edge)
    return outs


def histogram(input, bins=100, *, range=None, weight=None, density: bool = False):  # noqa: A002
    """Counts (or summed weights) of input's values in ``bins`` bins, and the bin edges."""
    tensor_bins = isinstance(bins, Tensor)   # (no batching rule: vmap's fallback first, named by the overload)
    _vmap_batched.check_fallback_examples("histogram.bins_tensor" if tensor_bins else "histogram.bin_ct", input,
                                          weight if isinstance(weight, Tensor) else None, bins if tensor_bins else None)
    if isinstance(weight, Tensor):   # (flattened as input is: PyTorch's weight->reshape({weight->numel()}))
        weight = _ops.reshape(weight, (-1,))
    results = _histogramdd("histogram", _ops.reshape(input, (-1, 1)), [bins], range, weight, density)
    return histogram_type(results)


def histogramdd(input, bins, *, range=None, weight=None, density: bool = False):  # noqa: A002
    """The D-dimensional histogram of the rows of input (its last dim: the D coordinates)."""
    if input.dim() < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    results = _histogramdd("histogramdd", input, bins, range, weight, density)
    return histogramdd_type((results[0], tuple(results[1:])))


# =============================================================================================
# Creation with given strides, from a buffer
# =============================================================================================

def _strided_empty(size, stride, dtype: _dtypes.dtype) -> np.ndarray:
    size, stride = tuple(int(n) for n in size), tuple(int(s) for s in stride)
    if len(size) != len(stride):
        raise RuntimeError(f"dimensionality of sizes ({len(size)}) must match dimensionality of strides "
                           f"({len(stride)})")
    needed = 1 + builtins.sum((n - 1) * s for n, s in zip(size, stride)) if builtins.all(size) else 0
    storage = np.zeros(needed, dtype=dtype.np)
    return np.lib.stride_tricks.as_strided(storage, size, tuple(s * storage.itemsize for s in stride))


def empty_strided(size, stride, *, dtype=None, layout=None, device=None, requires_grad: bool = False,
                  pin_memory: bool = False) -> Tensor:
    """An uninitialized (here: zero) tensor with sizes ``size`` and strides ``stride``."""
    dt = _dtypes.get_default_dtype() if dtype is None else _dtypes.to_dtype(dtype)
    out = Tensor._make(_strided_empty(size, stride, dt))
    if out._data.size == 0:   # (NumPy's strides of an empty array are 0s: keep the ones asked for, as PyTorch)
        _strides.keep_empty_strides(out, stride)
    return out.requires_grad_(requires_grad)


def new_empty_strided(self, size, stride, *, dtype=None, layout=None, device=None, requires_grad: bool = False,
                      pin_memory: bool = False) -> Tensor:
    """``empty_strided`` with self's dtype unless another is given."""
    return empty_strided(size, stride, dtype=self.dtype if dtype is None else dtype, requires_grad=requires_grad)


def frombuffer(buffer, *, dtype=None, count: int = -1, offset: int = 0, requires_grad: bool = False) -> Tensor:
    """A 1-D tensor over a Python buffer's memory (shared: changes to the buffer show in the tensor)."""
    if dtype is None:
        raise TypeError('frombuffer() missing 1 required positional arguments: "dtype"')
    dt = _dtypes.to_dtype(dtype)
    try:
        view = memoryview(buffer)
    except TypeError:
        raise ValueError("object does not implement Python buffer protocol.") from None
    length = view.nbytes
    item = np.dtype(dt.np).itemsize
    if length <= 0 or count == 0:
        raise ValueError(f"both buffer length ({length}) and count ({count}) must not be 0")
    if not 0 <= offset < length:
        raise ValueError(f"offset ({offset} bytes) must be non-negative and no greater than buffer length ({length} "
                         "bytes) minus 1")
    if count < 0 and (length - offset) % item:
        raise ValueError(f"buffer length ({length - offset} bytes) after offset ({offset} bytes) must be a multiple of "
                         f"element size ({item})")
    if count > 0 and length - offset < count * item:
        raise ValueError(f"requested buffer length ({count} * {item} bytes) after offset ({offset} bytes) must not be "
                         f"greater than actual buffer length ({length} bytes)")
    data = np.frombuffer(buffer, dtype=dt.np, count=count, offset=offset)
    if view.readonly:
        warn_once("frombuffer not writable",   # (PyTorch's TORCH_WARN_ONCE)
                  "The given buffer is not writable, and PyTorch does not support non-writable tensors. This means "
                  "you can write to the underlying (supposedly non-writable) buffer using the tensor. You may want "
                  "to copy the buffer to protect its data or make it writable before converting it to a tensor. "
                  "This type of warning will be suppressed for the rest of this program. (Triggered internally at "
                  "/__w/pytorch/pytorch/torch/csrc/utils/tensor_new.cpp:1556.)")
        data = data.copy()   # (NumPy will not write into read-only memory; PyTorch would, into the bytes object)
    return Tensor._make(data).requires_grad_(requires_grad)


# =============================================================================================
# Python callables applied elementwise, in place (CPU only; refused for tensors that require grad)
# =============================================================================================

def _refuse_grad(name: str, *tensors) -> None:
    if builtins.any(t.requires_grad for t in tensors):
        raise RuntimeError(f"Can't call {name}() on Variable that requires grad. Use var.detach().{name}() instead.")


def _python_value(data: np.ndarray, dtype: _dtypes.dtype):
    """A Python number as the callable gets it (float, int or bool)."""
    return [bool(v) for v in data] if dtype is _dtypes.bool_ else data.tolist()


def _store(self: Tensor, values: list) -> Tensor:
    """Write the callable's results into self (float results into an int tensor truncated, as a C cast)."""
    for v in values:
        if not isinstance(v, (int, float, bool, np.number)):
            raise TypeError(f"must be real number, not {type(v).__name__}")
    self._data[...] = np.asarray(values, dtype=np.float64 if self.is_floating_point() else None).astype(
        self._data.dtype).reshape(self._data.shape)
    return self   # (no version bump: PyTorch's loop writes through a raw pointer)


def apply_(self, callable) -> Tensor:
    """Replace each element x by ``callable(x)``, in place."""
    _refuse_grad("apply_", self)
    return _store(self, [callable(v) for v in _python_value(self._data.reshape(-1), self.dtype)])


def _same_type(name: str, self, other, arg: str) -> None:
    if other.dtype is not self.dtype:
        raise TypeError(f"{name}: expected {self.type()} for {arg} (got {other.type()})")


def map_(self, tensor, callable) -> Tensor:
    """Replace each element x by ``callable(x, y)``, y the element of ``tensor`` (broadcast to self), in place."""
    _refuse_grad("map_", self, tensor)
    _same_type("map_", self, tensor, "'other'")
    other = _ops.expand(tensor.detach(), *self.shape)._data.reshape(-1)
    pairs = zip(_python_value(self._data.reshape(-1), self.dtype), _python_value(other, self.dtype))
    return _store(self, [callable(a, b) for a, b in pairs])


def map2_(self, x, y, callable) -> Tensor:
    """Replace each element a by ``callable(a, b, c)``, b and c the elements of x and y, in place."""
    _refuse_grad("map2_", self, x, y)
    _same_type("map2_", self, x, "argument 'x'")
    _same_type("map2_", self, y, "argument 'y'")
    xs, ys = (_ops.expand(t.detach(), *self.shape)._data.reshape(-1) for t in (x, y))
    triples = zip(*(_python_value(d, self.dtype) for d in (self._data.reshape(-1), xs, ys)))
    return _store(self, [callable(a, b, c) for a, b, c in triples])


TENSOR_METHODS = ["isreal", "resolve_conj", "resolve_neg", "_neg_view", "_is_zerotensor", "conj_physical",
                  "conj_physical_", "diagflat",
                  "histogram", "new_empty_strided", "apply_", "map_", "map2_"]
FUNCTIONS = ["isreal", "resolve_conj", "resolve_neg", "_neg_view", "is_conj", "is_neg", "_is_zerotensor",
             "_efficientzerotensor", "conj_physical",
             "conj_physical_", "diagflat", "fill", "unravel_index", "histogram", "histogramdd", "empty_strided",
             "frombuffer", "set_warn_always", "is_warn_always_enabled"]

for _name in TENSOR_METHODS:
    setattr(Tensor, _name, globals()[_name])
del _name
# torch.diagflat(3) ...: PyTorch's "must be Tensor" TypeErrors
_arg_errors.TENSOR_FIRST.update(dict.fromkeys(("isreal", "resolve_conj", "resolve_neg", "_neg_view", "is_conj",
                                               "_is_zerotensor",
                                               "is_neg", "conj_physical", "conj_physical_", "diagflat", "fill",
                                               "histogram", "histogramdd")))
return_types.histogram, return_types.histogramdd = histogram_type, histogramdd_type


def _prelu_method(self, weight) -> Tensor:
    """``x.prelu(weight)``: F.prelu."""
    from .nn import functional as F
    if not isinstance(weight, Tensor):
        raise _arg_errors.must_be("prelu", "weight", "Tensor", weight, 1)
    return F.prelu(self, weight)


Tensor.prelu = _prelu_method


# =============================================================================================
# Layout queries, nonzero_static, unsafe_split_with_sizes, vander
# =============================================================================================

def dim_order(self, *, ambiguity_check=False) -> tuple:
    """The dims from outermost to innermost in memory (by stride; ties keep their order).

    ``ambiguity_check=True`` refuses a tensor with several legal orders (a size-1 dim, or two neighbouring dims of
    equal stride); a list of memory formats accepts such a tensor when exactly one of them describes it."""
    formats = ambiguity_check if isinstance(ambiguity_check, list) else []
    if not isinstance(ambiguity_check, (bool, list)) or not all(isinstance(f, _layout.memory_format)
                                                               for f in formats):
        raise TypeError("The ambiguity_check argument must be a bool or a list of memory formats.")
    strides = self.stride()
    if ambiguity_check is not False and (any(n == 1 for n in self.shape) or any(
            a == b for a, b in zip(strides, strides[1:]))) and sum(
            self.is_contiguous(memory_format=f) for f in formats) != 1:
        raise RuntimeError("The tensor does not have unique dim order, or cannot map to exact one of the given memory "
                           "formats.")
    return tuple(sorted(range(self.dim()), key=lambda d: -strides[d]))


def const_data_ptr(self) -> int:
    """The address of the first element (data_ptr)."""
    return self.data_ptr()


def is_set_to(self, tensor) -> bool:
    """True if both tensors see the same memory with the same sizes and strides."""
    a, b = self._data, tensor._data
    return (a.shape == b.shape and a.strides == b.strides and a.dtype == b.dtype
            and a.__array_interface__["data"][0] == b.__array_interface__["data"][0])


def nonzero_static(input, *, size: int, fill_value: int = -1) -> Tensor:
    """nonzero's (n, ndim) indices cut or padded (with ``fill_value``) to exactly ``size`` rows."""
    from ._ops_sorting import nonzero
    found = nonzero(input)._data[:size]
    padding = np.full((size - len(found), found.shape[1]), fill_value, dtype=np.int64)
    return Tensor._make(np.concatenate([found, padding]))


def unsafe_split_with_sizes(input, split_sizes, dim: int = 0) -> tuple:
    """split_with_sizes whose pieces are copies, not views (UnsafeSplitWithSizesBackward0)."""
    _ops.split_with_sizes(input.detach(), split_sizes, dim)   # (its checks)
    from ._ops_shapes import _unsafe_pieces
    sizes = tuple(int(s) for s in split_sizes)
    return _unsafe_pieces(input, D.unsafe_split_with_sizes(input, split_sizes=sizes, dim=dim),
                          dict(split_sizes=sizes, dim=dim))


def vander(x, N=None, increasing: bool = False) -> Tensor:
    """The Vandermonde matrix of x: columns x^(N-1) ... x^0 (or x^0 ... x^(N-1) when ``increasing``)."""
    from ._creation import empty
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else int(N)
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    # PyTorch's kernel: ones, then x in columns 1.., then their running product (integers in int64)
    result = empty(x.shape[0], n, dtype=_dtypes.promote_types(x.dtype, _dtypes.int64))
    if n > 0:
        result.fill_(1)
        if n > 1:
            # (ATen's result.slice(1, 1): no end, so SliceBackward0 saves end=None, not x[:, 1:]'s INT64_MAX)
            D.slice(result, dim=1, start=1, end=None, step=1).copy_(x.unsqueeze(1))
            D.slice(result, dim=1, start=1, end=None, step=1).copy_(
                D.slice(result, dim=1, start=1, end=None, step=1).cumprod(1))
    return result if increasing else result.flip(1)


for _name in ("dim_order", "const_data_ptr", "is_set_to", "nonzero_static", "unsafe_split_with_sizes"):
    setattr(Tensor, _name, globals()[_name])
del _name
FUNCTIONS += ["nonzero_static", "unsafe_split_with_sizes", "vander"]   # (kaiser_window: _windows.py)


# =============================================================================================
# x.resize(*sizes) / x.resize_as(t): deprecated, PyTorch's autograd Function (ResizeBackward) of its Python
# =============================================================================================

def _resize_function():
    from .autograd.function import Function

    class Resize(Function):
        """torch.autograd._functions.Resize: a view of another shape, the same number of elements."""

        @staticmethod
        def forward(ctx, tensor, sizes):
            # (PyTorch's product: sizes given as one tuple make a tuple here, and the error below)
            numel = functools.reduce(operator.mul, sizes, 1)
            if tensor.numel() != numel:
                raise RuntimeError(f"requested resize to {'x'.join(map(str, sizes))} ({numel} elements in total), "
                                   f"but the given tensor has a size of {'x'.join(map(str, tensor.size()))} "
                                   f"({tensor.numel()} elements). autograd's resize can only change the shape of a "
                                   "given tensor, while preserving the number of elements. ")
            ctx.input_sizes = tensor.size()
            return _ops.view(tensor.contiguous(), *sizes)

        @staticmethod
        def backward(ctx, grad_output):
            return _ops.view(grad_output.contiguous(), *ctx.input_sizes), None
    return Resize


_Resize: list = []


def resize(self, *sizes) -> Tensor:
    """Deprecated: ``self.view(*sizes)`` through PyTorch's Resize function (same number of elements)."""
    warnings.warn("non-inplace resize is deprecated", UserWarning, stacklevel=_user_stacklevel())
    if not _Resize:
        _Resize.append(_resize_function())
    return _Resize[0].apply(self, sizes)


def resize_as(self, tensor) -> Tensor:
    """Deprecated: ``self.resize(*tensor.size())``."""
    warnings.warn("non-inplace resize_as is deprecated", UserWarning, stacklevel=_user_stacklevel())
    if not _Resize:
        _Resize.append(_resize_function())
    return _Resize[0].apply(self, tensor.size())


def empty_permuted(size, physical_layout, *, dtype=None, layout=None, device=None, requires_grad: bool = False,
                   pin_memory: bool = False) -> Tensor:
    """An uninitialized (here: zero) tensor of ``size`` laid out in memory in the dim order ``physical_layout``."""
    size, order = tuple(int(n) for n in size), tuple(int(d) for d in physical_layout)
    if len(size) != len(order):
        raise RuntimeError("Number of dimensions in size does not match the length of the physical_layout; i.e. "
                           f"len(size) = {len(size)} is not equal to len(physical_layout) = {len(order)}")
    seen = set()
    for i, d in enumerate(order):   # (a permutation of the dims; no negative dims)
        if not 0 <= d < len(size):
            raise RuntimeError(f"Dimension out of range (expected to be between 0 and {len(size) - 1}, but got {d} "
                               f"at index {i}).  NB: negative dims not currently supported; file an issue if you "
                               "want it.")
        if d in seen:
            raise RuntimeError("Duplicate dim not allowed")
        seen.add(d)
    strides, step = [0] * len(size), 1
    for d in reversed(order):   # (the last dim of the layout is innermost)
        strides[d], step = step, step * max(size[d], 1)
    return empty_strided(size, strides, dtype=dtype, requires_grad=requires_grad)


Tensor.resize, Tensor.resize_as = resize, resize_as
FUNCTIONS += ["empty_permuted"]


# =============================================================================================
# torch._is_all_true / torch._is_any_true: the distributions' argument checks (whole tensors, even under vmap)
# =============================================================================================

def _bool_reduction(name: str, reduce):
    def fn(input) -> Tensor:
        if input.dtype is not _dtypes.bool_:
            raise RuntimeError('self.scalar_type() == at::kBool INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/'
                               'src/ATen/native/ReduceOps.cpp":2144, please report a bug to PyTorch. ')
        # (a new, unbatched tensor: PyTorch's batch rule reduces over the vmapped dims too, so that `if` works)
        return Tensor._make(np.array(bool(reduce(input._data))))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Whether {'all' if reduce is np.all else 'any'} of a bool tensor's elements are true (0-dim)."
    return fn


_is_all_true = _bool_reduction("_is_all_true", np.all)
_is_any_true = _bool_reduction("_is_any_true", np.any)
FUNCTIONS += ["_is_all_true", "_is_any_true"]
