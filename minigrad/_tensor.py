"""Tensor: a NumPy array plus the autograd state PyTorch keeps in AutogradMeta.

AutogradMeta field      here
-------------------     -----------------------------------------------
grad_                   ``_grad``            (``.grad``)
grad_fn                 ``_grad_fn``         (``.grad_fn``; None for leaves)
grad_accumulator_       ``_grad_accumulator`` (weak reference to the leaf's AccumulateGrad)
requires_grad_          ``_requires_grad``   (``.requires_grad``)
retains_grad_           ``_retains_grad``    (``.retains_grad``; the hook itself is registered on a grad_fn)
is_view_ / base_        ``_view_base``       (``._is_view()``, ``._base``: read-only, as PyTorch's)
version_counter_        ``_version_counter`` (a one-element list shared by a tensor and its views)
output_nr_              ``_output_nr``       (which output of grad_fn this tensor is)

The operations themselves live in ``_ops.py`` (the user-facing functions) and ``derivatives.py``
(forward + derivative of every differentiable op); they are attached to Tensor as methods there.
"""
from __future__ import annotations

import collections
import itertools
import numbers
import operator
import os
import sys
import warnings
import weakref

import numpy as np

from . import _conj, _dtypes, _layout, _meta, _neg, _strides, _vmap_batched, _zerotensor, autograd
from ._class_names import CTypeNamed, TorchNamed, tp_name
from ._conj import MIRRORS as _CONJ_MIRRORS
from ._meta import METAS as _METAS
from ._printing import format_meta, format_tensor
from ._warn_once import warn_once
from ._zerotensor import ZEROS as _ZEROS
from .autograd import anomaly_mode, grad_mode
from .autograd.graph import AccumulateGrad, _add_hook, _HookDict

_STATE = grad_mode.STATE
_INFERENCE_SEEN = grad_mode.INFERENCE_SEEN
_new_object = object.__new__

# ``_is_inference`` is False, True (an inference tensor: it has no version counter, so in-place changes to it
# are refused outside inference mode) or _COUNTED_INFERENCE: what ``.detach()`` / ``.data`` of an inference
# tensor give outside inference mode. PyTorch gives those a version counter of their own: still inference
# tensors (never saved for backward, never requiring grad), but they may change in place anywhere.
_COUNTED_INFERENCE = "counted"


def _detached_inference():
    """``_is_inference`` of a tensor detached from an inference tensor (see _COUNTED_INFERENCE)."""
    return True if _STATE.inference else _COUNTED_INFERENCE


_NO_EDGE = (None, 0)  # the edge of a tensor that does not require grad (one shared tuple)
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep

# The type names PyTorch uses in some messages ("torch.FloatTensor").
_LEGACY_NAMES = _dtypes._LEGACY
# The C++ type names PyTorch prints when a gradient of the wrong dtype is assigned.
_CPP_NAMES = {
    "float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
    "complex64": "c10::complex<float>", "complex128": "c10::complex<double>", "int64": "long int",
    "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char", "bool": "bool",
    "uint16": "short unsigned int", "uint32": "unsigned int", "uint64": "long unsigned int",
    "complex32": "c10::complex<c10::Half>",
}


def _warn_scalar_conversion() -> None:
    """PyTorch's warning for float()/complex() of a tensor that requires grad (and grad mode on), once per process
    (a TORCH_WARN_ONCE)."""
    warn_once("scalar conversion",
              "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
              "Consider using tensor.detach() first. (Triggered internally at "
              "/__w/pytorch/pytorch/torch/csrc/autograd/generated/python_variable_methods.cpp:822.)")


def _caller_module(depth: int = 2) -> str:
    """The module of the frame ``depth`` levels up (2: the caller's caller), past ``__torch_function__``'s wrappers
    and the argument checks of _arg_errors."""
    frame = sys._getframe(depth)
    while frame is not None and frame.f_globals.get("__name__") in ("minigrad.overrides", "minigrad._arg_errors"):
        frame = frame.f_back
    return "" if frame is None else frame.f_globals.get("__name__", "")


def _hidden_by_vmap(t) -> bool:
    """Whether the user's code (the caller of a Tensor property) sees ``t`` as a BatchedTensor without autograd state
    (see ``_vmap_batched.hides_autograd``); minigrad's own code sees the graph its vmap loop records."""
    return _vmap_batched.hides_autograd(t) and not _caller_module(3).startswith("minigrad")


def _hidden_by_transform(t) -> bool:
    """Whether the user's code sees ``t`` as a torch.func transform's wrapper without autograd state at its level
    (see ``func._transforms.hides_autograd``); minigrad's own code sees the graph that links the levels."""
    if _caller_module(3).startswith("minigrad"):
        return False
    from .func._transforms import hides_autograd
    return hides_autograd(t)


def _grad_transform_input(t) -> bool:
    """Whether the user's code sees ``t`` as a grad transform's wrapper of its input, a leaf at its level (minigrad's
    stand-in is a view of the caller's tensor that requires grad, see func/_transforms.py)."""
    from ._dispatch import _is_transform_leaf
    return _is_transform_leaf(t) and not _caller_module(3).startswith("minigrad")


def _user_stacklevel() -> int:
    """The ``stacklevel`` that blames the caller's first frame outside minigrad (PyTorch's warnings show the
    user's line: its conversions run in C++, minigrad's in Python frames of its own)."""
    frame, level = sys._getframe(1), 1  # (level 1: the function that calls warnings.warn)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame, level = frame.f_back, level + 1
    return level


class Size(tuple, metaclass=CTypeNamed):
    """A tensor's shape: a tuple that prints as ``torch.Size([2, 3])``."""

    _torch_name = "torch.Size"

    __slots__ = ()

    def __new__(cls, sizes=()):
        sizes = tuple(sizes)
        for s in sizes:  # (the common case, plain ints, costs one pass)
            if type(s) is not int or not -2**63 <= s < 2**63:
                return tuple.__new__(cls, [_size_item(i, s) for i, s in enumerate(sizes)])
        return tuple.__new__(cls, sizes)

    def __repr__(self) -> str:  # (entries print as plain ints: a NumPy integer kept in the tuple too)
        return f"torch.Size([{', '.join(str(int(s)) for s in self)}])"

    __str__ = __repr__

    def numel(self) -> int:
        """Number of elements of a tensor of this shape."""
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, item):
        out = super().__getitem__(item)
        return Size(out) if isinstance(item, slice) else out

    def __add__(self, other):
        if not isinstance(other, tuple):
            raise TypeError(f"can only concatenate tuple (not {type(other).__name__}) to torch.Size")
        return Size(tuple.__add__(self, other))

    def __radd__(self, other):  # (1,) + size is a Size too (tried first: Size subclasses tuple)
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(other, self))

    def __mul__(self, n):
        if not hasattr(type(n), "__index__"):   # (Python's own error for a tuple, not tuple.__mul__'s)
            raise TypeError(f"can't multiply sequence by non-int of type '{tp_name(n)}'")
        return Size(tuple.__mul__(self, n))

    def __rmul__(self, n):
        # ('a' * size: Python's own error then names the Size, as for any sequence times a non-int)
        if not hasattr(type(n), "__index__"):
            return NotImplemented
        return Size(tuple.__mul__(self, n))


def _size_item(i: int, s):
    """One entry of a ``torch.Size`` as PyTorch's THPSize_pynew takes it: an int (NumPy's integers and int
    subclasses kept as they are) within int64; else whatever ``__index__`` turns into an int (a one-element
    integer tensor, True); else a TypeError."""
    if not (isinstance(s, (int, np.integer)) and not isinstance(s, bool)):
        try:
            s = operator.index(s)
        except TypeError:
            from ._arg_errors import type_name

            raise TypeError(f"torch.Size() takes an iterable of 'int' (item {i} is '{type_name(s)}')") from None
    if not -2**63 <= int(s) < 2**63:
        raise ValueError("Overflow when unpacking long long")
    return s


class _TensorType(type, metaclass=TorchNamed):
    """The type of Tensor: only so that ``type(x)`` prints as PyTorch's ``<class 'torch.Tensor'>``."""

    _torch_name = "torch._C._TensorMeta"   # (type(torch.Tensor) prints as PyTorch's metaclass)

    def __repr__(cls) -> str:
        name = cls.__dict__.get("_torch_name")
        return f"<class '{name}'>" if name else super().__repr__()


def _requires_grad_arg(args: tuple, kwargs: dict) -> tuple:
    """``requires_grad_``'s argument and its position (None: a keyword), bound as PyTorch's parser binds it."""
    from ._arg_errors import bind
    return bind("requires_grad_", args, kwargs, {"requires_grad": True})["requires_grad"]


def _deep_copy(t, requires_grad: bool = False):
    """A leaf holding a copy of ``t``'s values in PyTorch's layout (see _strides); a meta tensor's copy is a meta
    tensor, nothing copied (see _meta.py)."""
    if _METAS and _meta.is_meta(t):
        return _meta.mark(Tensor._make(_meta.clone(t._data), requires_grad))
    return Tensor._make(_strides.clone(t._data), requires_grad)


class TensorBase(metaclass=_TensorType):
    """``torch._C.TensorBase``: Tensor's base class (PyTorch's C class holding its methods; empty here)."""

    _torch_name = "torch._C.TensorBase"
    __slots__ = ()


class Tensor(TensorBase):
    """A multi-dimensional array that can record the operations applied to it."""

    _torch_name = "torch.Tensor"

    __slots__ = (
        "__dict__",
        "__weakref__",
        "_backward_hooks",
        "_creation_meta",
        "_data",
        "_fw_grad",
        "_grad",
        "_grad_accumulator",
        "_grad_fn",
        "_is_inference",
        "_output_nr",
        "_post_accumulate_grad_hooks",
        "_requires_grad",
        "_version_counter",
        "_view_base",   # (read as ``_base``: see the property after _not_writable)
        "_view_fn",
        "_view_version",
    )

    # Lets NumPy defer to Tensor's reflected operators (ndarray * Tensor -> Tensor.__rmul__).
    __array_priority__ = 1000
    # Set (in the instance's __dict__) by retain_grad(); like PyTorch's flag it stays set for good.
    _retains_grad = False
    # Set (in the instance's __dict__) by the grad_dtype setter: a dtype, or None for any. False: never set,
    # gradients take the tensor's own dtype.
    _grad_dtype = False
    # Set (in the instance's __dict__) on the 0-dim tensor that stands for a Python number given to add/sub/mul/div
    # (_ops._binary): PyTorch's "wrapped number". Its node saves the number itself (see _dispatch.Op._save), so
    # create_graph formulas (grad * other) promote with it as with a number, not as with a 0-dim float64 tensor.
    _wrapped_number = None
    # Set (in the instance's __dict__) on a view written in place: the sequence number its regenerated grad_fn takes
    # (see _dispatch._record_copy_slices), and the version it is for.
    _reserved_seq = None
    # Set (in the instance's __dict__) on the tensor owning the memory (a view's base) once numpy() has handed the
    # memory to NumPy: it can then no longer grow (see _ops_inplace_views.resize_storage).
    _shared_with_numpy = False

    def __init__(self, *args, **kwargs) -> None:
        # torch.Tensor(2, 3) makes an uninitialised float tensor; torch.Tensor([1, 2]) copies data.
        from ._creation import _legacy_constructor
        t = _legacy_constructor(*args, kwargs=kwargs)
        for slot in Tensor.__slots__[2:]:  # (torch.Tensor(x) is x.alias(): a view, with its grad_fn)
            setattr(self, slot, getattr(t, slot))
        if _vmap_batched.DEPTH[0]:   # (inside vmap: the user's unbatched tensor, as t)
            _vmap_batched.same_outside(self, t)

    def new(self, *args, **kwargs) -> Tensor:
        """Legacy constructor with this tensor's dtype: x.new(2, 3) (uninitialised), x.new([1, 2]) (data)."""
        from ._creation import _legacy_constructor
        return _legacy_constructor(*args, dtype=self.dtype, kwargs=kwargs)

    def as_subclass(self, cls: type) -> Tensor:
        """The same data as an instance of the Tensor subclass ``cls`` (an alias that stays in the graph)."""
        if not (isinstance(cls, type) and issubclass(cls, Tensor)):
            raise TypeError("Creating a Tensor subclass from a class that does not inherit from Tensor is not "
                            "possible. Make sure your class inherits from Tensor.")
        from .derivatives import alias
        t, out = alias(self), object.__new__(cls)
        for slot in Tensor.__slots__[2:]:  # (as in __init__: the alias's state, under the subclass)
            setattr(out, slot, getattr(t, slot))
        return out

    # ---- __torch_function__ (minigrad/overrides.py) --------------------------------------------------
    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        from . import overrides
        overrides.subclass_defined(cls)  # (the first subclass turns the protocol on for Tensor's methods)

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        """Run ``func`` and return its tensors as ``cls`` (every subclass inherits this)."""
        from . import overrides
        return overrides.default_torch_function(cls, func, types, args, kwargs)

    @staticmethod
    def _make_subclass(cls, data, require_grad=False, **kwargs):
        """A ``cls`` leaf sharing ``data``'s storage (the constructor of Tensor subclasses)."""
        from . import overrides
        return overrides._make_subclass(cls, data, require_grad, **kwargs)

    @classmethod
    def _make(cls, data: np.ndarray, requires_grad: bool = False) -> Tensor:
        """Wrap an ndarray without copying (the internal constructor)."""
        # Every slot is set here, in this one place (no helper call: ~2-3 tensors are made per op).
        t = _new_object(cls)  # (object.__new__ through the name: CPython 3.11 does not specialize that lookup)
        t._data = data
        t._requires_grad = requires_grad
        t._grad = None
        t._grad_fn = None
        t._output_nr = 0
        t._version_counter = [0]
        t._view_base = None
        t._view_fn = None
        t._view_version = 0
        t._creation_meta = None  # how a view was made (see _dispatch._make_view); None for plain views
        t._grad_accumulator = None
        t._backward_hooks = None
        t._post_accumulate_grad_hooks = None
        t._is_inference = _STATE.inference if _INFERENCE_SEEN[0] else False  # (no thread in inference mode yet)
        t._fw_grad = None
        return t

    def _init_from(self, data: np.ndarray, requires_grad: bool = False) -> None:
        """Set up an already created tensor (a Parameter) as ``_make`` sets up a new one."""
        fresh = Tensor._make(data, requires_grad)
        for slot in Tensor.__slots__[2:]:
            setattr(self, slot, getattr(fresh, slot))

    # ---- basic properties -------------------------------------------------------------------
    @property
    def dtype(self) -> _dtypes.dtype:
        """The element type (``torch.float32`` ...)."""
        return _dtypes._NP_TO_DTYPE[self._data.dtype]

    @property
    def shape(self) -> Size:
        """The sizes of the dimensions, as a ``torch.Size``."""
        return tuple.__new__(Size, self._data.shape)  # (NumPy's shape: plain ints, nothing to check)

    def size(self, dim: int | None = None, *_extra):
        """The shape, or the length of one dimension."""
        if dim is None and not _extra:
            return tuple.__new__(Size, self._data.shape)  # (NumPy's shape: plain ints, nothing to check)
        if _extra:   # (x.size(1, 2): PyTorch's parser's count, without self)
            from ._arg_errors import too_many_positional
            raise too_many_positional("size", 1, 1 + len(_extra))
        if not self._data.ndim and isinstance(dim, int) and not isinstance(dim, bool):
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")   # (no wrap_scalar)
        try:
            return self._data.shape[self._wrap_dim(dim)]
        except (TypeError, IndexError):
            from . import _arg_errors
            if not _arg_errors._is_index(dim):  # (x.size(0.5): PyTorch's parser refuses it first)
                raise _arg_errors.must_be("size", "dim", "int", dim, 1) from None
            raise

    def dim(self) -> int:
        """Number of dimensions."""
        return self._data.ndim

    ndim = property(dim)

    def ndimension(self) -> int:
        """Number of dimensions (as ``dim()``)."""
        return self._data.ndim

    def numel(self) -> int:
        """Number of elements."""
        return int(self._data.size)

    nelement = numel

    def element_size(self) -> int:
        """Bytes per element."""
        return self._data.itemsize

    def stride(self, dim: int | None = None, *_extra):
        """Strides in elements (not bytes), as PyTorch reports them."""
        if _extra:   # (x.stride(1, 2): PyTorch's parser's count, without self)
            from ._arg_errors import too_many_positional
            raise too_many_positional("stride", 1, 1 + len(_extra))
        if self._data.size == 0:
            # NumPy's are all 0: PyTorch's (contiguous, counting size-0 dims as 1, unless a view or from_numpy
            # made them otherwise) are computed in _strides
            from . import _strides
            strides = _strides.empty_strides(self)
        else:
            # (s // itemsize for each byte stride, without a generator: saved for every recorded mm)
            strides = tuple(map(self._data.itemsize.__rfloordiv__, self._data.strides))
        if dim is not None and not strides and isinstance(dim, int) and not isinstance(dim, bool):
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")   # (no wrap_scalar)
        return strides if dim is None else strides[self._wrap_dim(dim)]

    def data_ptr(self) -> int:
        """Address of the first element (views of one array share memory); 0 without elements, as PyTorch."""
        if _vmap_batched.DEPTH[0]:
            _vmap_batched.check_storage(self)
        if self._data.size == 0:
            return 0   # (PyTorch's is null for an empty tensor)
        if (_ZEROS and _zerotensor.is_zero(self)) or (_METAS and _meta.is_meta(self)):
            return self.storage_offset() * self._data.itemsize   # (no memory: a null pointer plus the view's offset)
        address = self._data.__array_interface__["data"][0]
        if _CONJ_MIRRORS:  # (a conjugate view's memory is a mirror of its base's: _conj.py)
            from ._conj import data_ptr
            return data_ptr(self, address)
        return address

    def untyped_storage(self):
        """The memory under the tensor as bytes (a ``torch.UntypedStorage``, shared with its views)."""
        if _vmap_batched.DEPTH[0]:
            _vmap_batched.check_no_storage_object(self)
        from .storage import untyped_storage
        return untyped_storage(self)

    def storage(self):
        """The memory under the tensor as elements (a ``torch.TypedStorage``; deprecated, as in PyTorch)."""
        from .storage import storage
        return storage(self)

    def storage_offset(self) -> int:
        """Offset in elements of the first element within the storage (the memory of the array that owns it)."""
        from .derivatives import _storage
        return _storage(self._data)[1]

    def is_contiguous(self, *_extra, memory_format=_layout.contiguous_format) -> bool:
        """True if the elements are laid out in row-major order (or ``memory_format``'s) without gaps."""
        if _extra:   # (memory_format is keyword-only: x.is_contiguous(torch.channels_last) is refused)
            from ._arg_errors import too_many_positional
            raise too_many_positional("is_contiguous", 0, len(_extra))
        if memory_format is _layout.contiguous_format:
            return self._data.flags["C_CONTIGUOUS"]
        if not isinstance(memory_format, _layout.memory_format):   # (None, torch.strided: PyTorch's parser refuses)
            from ._arg_errors import must_be
            raise must_be("is_contiguous", "memory_format", "torch.memory_format", memory_format)
        strides = self.stride() if self._data.size == 0 else None   # (NumPy's are all 0 when empty)
        return _strides.is_contiguous_as(self._data, memory_format, strides)

    def is_floating_point(self) -> bool:
        """True for float16/bfloat16/float32/float64 tensors."""
        return self.dtype.is_floating_point

    def is_complex(self) -> bool:
        """True for complex tensors."""
        return self.dtype.is_complex

    def is_inference(self) -> bool:
        """True if the tensor was made in inference mode."""
        return bool(self._is_inference)  # (True or _COUNTED_INFERENCE)

    def is_distributed(self) -> bool:
        """False: no tensor here is distributed (PyTorch's is_distributed is False for every tensor)."""
        return False

    @property
    def name(self) -> None:
        """The name of a named tensor (PyTorch's named tensors; minigrad's tensors are all unnamed)."""
        return None

    @property
    def device(self):
        """The CPU, ``device(type='cpu')``; a meta tensor's: ``device(type='meta')`` (see _meta.py)."""
        from ._device import CPU, device
        return device("meta") if _METAS and _meta.is_meta(self) else CPU

    @property
    def is_meta(self) -> bool:
        """Whether the tensor is on the meta device (a shape and a dtype, no values: see _meta.py)."""
        return _meta.is_meta(self)

    @property
    def is_cuda(self) -> bool:
        """Always False (CPU only)."""
        return False

    @property
    def is_cpu(self) -> bool:
        """True but for a meta tensor (CPU only)."""
        return not (_METAS and _meta.is_meta(self))

    @property
    def layout(self):
        """Always ``torch.strided``."""
        return _layout.strided

    def cpu(self) -> Tensor:
        """The tensor itself (it is on the CPU already; a meta tensor has no values to copy)."""
        if _METAS:
            _meta.check_copy_out(self)
        return self

    def _wrap_dim(self, dim: int, ndim: int | None = None) -> int:
        n = self._data.ndim if ndim is None else ndim
        lo, hi = (-1, 0) if n == 0 else (-n, n - 1)
        if not lo <= dim <= hi:
            raise IndexError(f"Dimension out of range (expected to be in range of [{lo}, {hi}], but got {dim})")
        return dim % n if n else 0

    def _legacy_type_name(self) -> str:
        return f"torch.{_LEGACY_NAMES[self.dtype.name]}Tensor"

    def type(self, dtype=None, non_blocking=False, **kwargs):
        """The legacy type name ('torch.FloatTensor'), or a copy converted to ``dtype`` (also given by name)."""
        from ._arg_errors import must_be
        for key in kwargs:   # (PyTorch's parser checks the arguments first)
            raise TypeError(f"type() got an unexpected keyword argument '{key}'")
        if not isinstance(non_blocking, (bool, np.bool_)):
            raise must_be("type", "non_blocking", "bool", non_blocking)
        if dtype is None:
            return self._legacy_type_name()
        if isinstance(dtype, type):
            if dtype is Tensor:   # (the default tensor type)
                dtype = _dtypes.get_default_dtype()
            elif getattr(dtype, "is_cuda", False):   # torch.cuda.FloatTensor: refused below, as its name is
                dtype = f"torch.cuda.{dtype.__name__}"
            elif isinstance(getattr(dtype, "dtype", None), _dtypes.dtype):
                dtype = dtype.dtype  # a legacy class: x.type(torch.LongTensor)
            else:
                name = dtype.__name__ if dtype.__module__ == "builtins" else f"{dtype.__module__}.{dtype.__qualname__}"
                raise ValueError(f"invalid type: '{name}'")
        if isinstance(dtype, str):
            if dtype.startswith("torch.cuda."):   # (a CPU-only PyTorch's lazy CUDA initialization)
                raise RuntimeError(
                    "Cannot initialize CUDA without ATen_cuda library. PyTorch splits its backend into two shared "
                    "libraries: a CPU library and a CUDA library; this error has occurred because you are trying to "
                    "use some CUDA functionality, but the CUDA library has not been loaded by the dynamic linker for "
                    "some reason.  The CUDA library MUST be loaded, EVEN IF you don't directly use any symbols from "
                    "the CUDA library! One common culprit is a lack of -Wl,--no-as-needed in your link arguments; many "
                    "dynamic linkers will delete dynamic library dependencies if you don't depend on any of their "
                    "symbols.  You can check if this has occurred by using ldd on your binary to see if there is a "
                    "dependency on *_cuda.so library.")
            names = {f"torch.{v}Tensor": k for k, v in _LEGACY_NAMES.items()}
            name = "torch." + dtype[len("torch.sparse."):] if dtype.startswith("torch.sparse.") else dtype
            if name == "torch.Tensor":
                return self.to(_dtypes.get_default_dtype())
            if name not in names:
                raise ValueError(f"invalid type: '{dtype}'")
            dtype = getattr(_dtypes, names[name] if names[name] != "bool" else "bool_")
        if not isinstance(dtype, _dtypes.dtype):
            raise TypeError("dtype must be a type, str, or dtype object")
        return self.to(dtype)

    # ---- conversion -------------------------------------------------------------------------
    def numpy(self, *, force: bool = False) -> np.ndarray:
        """The values as an ndarray sharing memory (refuses tensors that require grad, unless grad mode is off)."""
        if not isinstance(force, bool):
            from ._arg_errors import must_be
            raise must_be("numpy", "force", "bool", force)
        if self._requires_grad and not force and _STATE.enabled:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        if _vmap_batched.DEPTH[0]:
            _vmap_batched.check_storage(self, numpy=True)
        if _METAS and _meta.is_meta(self):
            raise TypeError("can't convert meta device type tensor to numpy. Use Tensor.cpu() to copy the tensor to "
                            "host memory first.")
        kind = self._data.dtype.kind   # (read once: an array's dtype is a getter CPython 3.11 cannot specialize)
        if kind in "cV":   # (complex; bfloat16 and complex32, NumPy kind "V": the usual float dtype skips all three)
            if self._data.dtype == _dtypes.bfloat16.np:  # NumPy has no bfloat16; PyTorch refuses rather than pick one
                raise TypeError("Got unsupported ScalarType BFloat16")
            if _dtypes.is_complex32(self._data.dtype):   # (nor complex32)
                raise TypeError("Got unsupported ScalarType ComplexHalf")
            if kind == "c":
                from ._conj import check_resolved, is_conj
                if force and is_conj(self):   # (force: PyTorch's detach().resolve_conj(), memory of its own)
                    return self.detach().resolve_conj()._data
                check_resolved(self, "Can't call numpy() on Tensor that has conjugate bit set. Use "
                               "tensor.resolve_conj().numpy() instead.")
        if _ZEROS and not force and _zerotensor.is_zero(self):   # (no memory behind it in PyTorch: _zerotensor.py)
            raise RuntimeError(" Cannot convert a ZeroTensor to numpy. Set force=True if you need the zero array.")
        if _CONJ_MIRRORS and self.is_neg():   # (a negative view's memory holds its values negated: _neg.py)
            if force:
                return self.detach().resolve_neg()._data
            raise RuntimeError("Can't call numpy() on Tensor that has negative bit set. Use "
                               "tensor.resolve_neg().numpy() instead.")
        # (PyTorch's storage, once handed to NumPy, can no longer grow: marked on the tensor owning the memory, and
        # on the version counter, which its aliases share: t.detach().numpy() stops t from growing too)
        (self if self._view_base is None else self._view_base)._shared_with_numpy = True
        if len(self._version_counter) == 1:
            self._version_counter.append(True)
        return self._data.view()  # (a new array object on the same memory each call, as PyTorch's)

    # Both NumPy hooks keep PyTorch's signatures, which predate NumPy 2: NumPy then gives the same
    # DeprecationWarnings as under PyTorch (``__array__`` without ``copy``: NumPy warns and calls again without it;
    # ``__array_wrap__`` without ``context, return_scalar``).
    def __array_wrap__(self, array):
        """A NumPy function's result on tensors (``np.exp(x)``, ``x * ndarray``) as a tensor, as in PyTorch
        (which turns bool results into uint8)."""
        return Tensor._make(array.astype(np.uint8) if array.dtype == np.bool_ else array)

    def __dlpack__(self, *, stream=-1, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule of the memory (NumPy's export), with PyTorch's refusals."""
        if self._requires_grad:
            raise BufferError("Can't export tensors that require gradient, use tensor.detach()")
        if self.is_conj():
            raise BufferError("Can't export tensors with the conjugate bit set")
        if self.layout is not _layout.strided:
            raise BufferError("Can't export tensors with layout other than torch.strided")
        kwargs = {} if max_version is None else {"max_version": max_version, "dl_device": dl_device, "copy": copy}
        return self._data.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        """(device type, device index) as DLPack names them: the CPU."""
        from .utils.dlpack import DLDeviceType
        return (DLDeviceType.kDLCPU, 0)

    def __array__(self, dtype=None):
        array = self.numpy()  # (its errors: requires grad, bfloat16)
        return array if dtype is None else array.astype(dtype, copy=False)

    def item(self):
        """The single value as a Python number."""
        if _vmap_batched.DEPTH[0]:
            _vmap_batched.check_item(self)
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted to Scalar")
        if _METAS:
            _meta.check_item(self)
        if _CONJ_MIRRORS:
            _neg.check_readable(self)
        if _dtypes.is_complex32(self._data.dtype):   # (float16 pairs: see tolist; any shape of one element)
            return complex(_dtypes.complex32_values(self._data).reshape(()).item())
        v = self._data.reshape(()).item()
        return float(v) if self.dtype in (_dtypes.bfloat16, _dtypes.float16) else v

    def tolist(self):
        """The values as (nested) Python lists."""
        if _vmap_batched.DEPTH[0]:
            _vmap_batched.check_storage(self)
        if _ZEROS and _zerotensor.is_zero(self):
            raise RuntimeError("tolist() shouldn't be called on a tensor with unallocated storage")
        if _METAS:
            _meta.check_copy_out(self)
        if _CONJ_MIRRORS:
            _neg.check_readable(self)
        if self.dtype in (_dtypes.bfloat16, _dtypes.float16):
            return self._data.astype(np.float32).tolist()
        if _dtypes.is_complex32(self._data.dtype):   # (complex32's float16 pairs)
            return _dtypes.complex32_values(self._data).tolist()
        return self._data.tolist()

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self.dim() == 0:  # (a method call, as PyTorch's: __torch_function__ sees dim, then unbind)
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __reversed__(self):
        """``reversed(x)``: x flipped along dimension 0 (a 0-d tensor itself), as PyTorch's."""
        return self if self.dim() == 0 else self.flip(0)

    @property
    def __cuda_array_interface__(self):
        raise AttributeError(f"Can't get __cuda_array_interface__ on non-CUDA tensor type: {self.type()} If CUDA "
                             "data is required use tensor.cuda() to copy tensor to device memory.")

    def __contains__(self, element) -> bool:
        """``element in x``: whether any entry equals ``element`` (a number or a tensor, broadcast)."""
        if not isinstance(element, (Tensor, numbers.Number)):
            raise RuntimeError(f"Tensor.__contains__ only supports Tensor or scalar, but you passed in a "
                               f"{type(element)}.")
        return bool((element == self).any().item())

    def __bool__(self) -> bool:
        if _vmap_batched.DEPTH[0]:
            _vmap_batched.check_bool(self)
        if self._data.size != 1:
            amount = "no values" if self._data.size == 0 else "more than one value"
            raise RuntimeError(f"Boolean value of Tensor with {amount} is ambiguous")
        if _METAS:
            _meta.check_item(self)
        if self._data.dtype == np.uint64 and int(self._data.reshape(())) >= 2**63:
            raise RuntimeError("value cannot be converted to type int64_t without overflow")   # (see __int__)
        return bool(self._data.reshape(()))

    def __float__(self) -> float:
        if self._requires_grad and _STATE.enabled:
            _warn_scalar_conversion()
        return float(self._scalar("double"))

    def __int__(self) -> int:
        value = self._scalar("int64_t")
        if self.dtype.is_complex:   # (read as a range-checked int64_t, as uint64 is; a float is not)
            if not -2.0**63 <= value <= 2.0**63:   # (nan too)
                raise RuntimeError("value cannot be converted to type int64_t without overflow")
            # (2**63 itself passes the check, whose bound rounds up to it, and converts to x86's INT64_MIN)
            return -2**63 if value == 2.0**63 else int(value)
        value = int(value)
        if value >= 2**63 and self._data.dtype == np.uint64:   # (read as PyTorch's int64_t; a float is not)
            raise RuntimeError("value cannot be converted to type int64_t without overflow")
        return value

    def _scalar(self, c_type: str):
        """The value for int()/float(): one element, and no complex value with an imaginary part."""
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        v = self.item()
        if isinstance(v, complex):
            if v.imag != 0:
                raise RuntimeError(f"value cannot be converted to type {c_type} without overflow")
            v = v.real
        return v

    def __index__(self) -> int:
        if self.dtype.is_floating_point or self.dtype.is_complex or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self)   # (uint64's range check: see __int__)

    def __complex__(self) -> complex:
        if self._requires_grad and _STATE.enabled:
            _warn_scalar_conversion()
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return complex(self.item())

    def __hash__(self) -> int:
        return id(self)  # (as PyTorch's: hash(t) == id(t))

    def __repr__(self, *, tensor_contents=None) -> str:
        if _vmap_batched.DEPTH[0]:
            _vmap_batched.check_repr(self)
            from .func._vmap import batched_repr  # (an input's example: PyTorch prints its BatchedTensor)
            batched = batched_repr(self)
            if batched is not None:
                return batched
        from .autograd.function import _TRANSFORMS_ACTIVE
        if _TRANSFORMS_ACTIVE[0]:  # inside torch.func.grad/vjp/jvp: PyTorch prints its wrapper of the level
            from .func._transforms import grad_tracking_repr
            wrapped = grad_tracking_repr(self, lambda: format_tensor(self._data, self.dtype,
                                                                     tensor_contents=tensor_contents))
            if wrapped is not None:
                return wrapped
        try:
            fn = self.grad_fn
            # type(fn).name: a custom Function's ctx may have set an attribute ``name`` on the node
            name = type(fn).name(fn).removeprefix("torch::autograd::") if fn is not None else None
        except RuntimeError:  # a view whose history an in-place change made invalid (as PyTorch prints it)
            name = "Invalid"
        cls = type(self)
        if _CONJ_MIRRORS:   # (a negative view of a bool tensor has no readable values: _neg.py)
            _neg.check_readable(self)
        if _METAS and _meta.is_meta(self):   # (no values to print: see _meta.py)
            return format_meta(self._data.shape, self.dtype, requires_grad=self._requires_grad, grad_fn_name=name)
        if cls is Tensor:  # the common case
            tangent = self._fw_grad
            if tangent is not None or self._base is not None and self._base._fw_grad is not None:
                # (PyTorch prints unpack_dual's tangent: none with forward grad mode off; a view made before its base
                # had a tangent gets PyTorch's lazy one)
                from .autograd import forward_ad
                tangent = forward_ad._base_tangent_view(self) if forward_ad._fwd_enabled[0] else None
            # (a view made before its base required grad requires grad through it: PyTorch prints it so)
            requires_grad = self._requires_grad or self._base is not None and self._base._requires_grad
            return format_tensor(self._data, self.dtype, requires_grad=requires_grad, grad_fn_name=name,
                                 tangent=tangent, tensor_contents=tensor_contents)
        # PyTorch names a user's subclass in the prefix, MyT([1., 2.]), and wraps a Parameter subclass's
        # repr in Parameter(...); a Parameter itself prints as a tensor (its own __repr__ adds the header)
        from .nn.parameter import Parameter
        tangent = self._fw_grad
        if tangent is not None:   # (none shown with forward grad mode off, as above)
            from .autograd import forward_ad
            tangent = tangent if forward_ad._fwd_enabled[0] else None
        out = format_tensor(self._data, self.dtype, requires_grad=self._requires_grad, grad_fn_name=name,
                            tangent=tangent, tensor_contents=tensor_contents,
                            prefix="tensor(" if cls is Parameter else f"{cls.__name__}(")
        return f"Parameter({out})" if isinstance(self, Parameter) and cls is not Parameter else out

    def __format__(self, spec: str) -> str:
        if self._data.ndim == 0 and type(self) is Tensor and not self.is_meta:  # as PyTorch: a 0-dim tensor
            return self.item().__format__(spec)   # formats as its value (a meta one has none: str(self))
        return object.__format__(self, spec)  # str(self), or TypeError for a non-empty spec

    def __dir__(self) -> list:
        # (as PyTorch's: the class's names and the instance's, without the removed ``volatile`` and the CUDA-only
        # ``__cuda_array_interface__``)
        keys = [k for k in dir(type(self)) if k not in ("volatile", "__cuda_array_interface__")]
        return sorted(keys + list(self.__dict__))

    def __reduce_ex__(self, protocol):
        # Values, dtype, shape and requires_grad survive (a non-leaf comes back as a leaf, as in PyTorch); hooks do not.
        from .utils.hooks import warn_if_has_hooks
        warn_if_has_hooks(self)
        args = (_strides.clone(self._data), self._requires_grad)  # (strides kept where NumPy can)
        state = _pickled_state(self)   # (attributes set on the tensor, t.note = 1, and a subclass survive)
        if type(self) is Tensor:
            return (_rebuild_tensor, (*args, state) if state else args)
        return (_rebuild_subclass, (type(self), *args, state))

    def __deepcopy__(self, memo):
        if not self.is_leaf:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                               "protocol at the moment.  If you were attempting to deepcopy a module, this may be "
                               "because of a torch.nn.utils.weight_norm usage, see "
                               "https://github.com/pytorch/pytorch/pull/103001")
        t = _deep_copy(self, self._requires_grad)
        if self._grad is not None:
            t._grad = _deep_copy(self._grad)
        if type(self) is not Tensor:
            t = type(self)._from_tensor(t) if hasattr(type(self), "_from_tensor") else t
        else:
            # PyTorch's copy is an empty tensor set_() to a deep copy of the storage: one write, version 1 (a
            # Parameter's is a clone: version 0); so the running statistics of a copied model are at version 1
            t._version_counter[0] = 1
        memo[id(self)] = t
        return t

    def module_load(self, other: Tensor, assign: bool = False) -> Tensor:
        """What ``load_state_dict`` swaps into this parameter or buffer under ``torch.__future__``'s swap flag."""
        return other.detach() if assign else self.copy_(other).detach()

    # ---- autograd state ---------------------------------------------------------------------
    @property
    def requires_grad(self) -> bool:
        """Whether autograd records operations on this tensor."""
        if _vmap_batched.DEPTH[0] and _hidden_by_vmap(self) or \
                _vmap_batched.TRANSFORM_CALLS and _hidden_by_transform(self):
            return False
        if not self._requires_grad and self._base is not None and self._base._requires_grad:
            # A view made before its base required grad (or got a history in place) requires grad as its base
            # does; its grad_fn is made only when asked for (as PyTorch's: reading requires_grad leaves it a leaf
            # to the in-place check, see _dispatch._unreplayed_view).
            return True
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if value is not True and value is not False:
            raise RuntimeError("requires_grad must be a bool")
        if not self._holds_no_node():
            # (the hint is only for turning it off)
            raise RuntimeError("you can only change requires_grad flags of leaf variables." + (
                "" if value else " If you want to use a computed variable in a subgraph that doesn't require "
                "differentiation use var_no_grad = var.detach()."))
        if value and not (self.dtype.is_floating_point or self.dtype.is_complex):
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        if value and self._is_inference and not _STATE.inference:
            raise RuntimeError("Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.")
        if not value and self._base is not None and self._base._requires_grad:
            return  # a view (made under no_grad) of a tensor that requires grad keeps requiring it, as in PyTorch
        self._requires_grad = bool(value)

    @requires_grad.deleter
    def requires_grad(self) -> None:
        # (PyTorch's C attributes refuse ``del t.attr``; no __delattr__ here: defining one sends every attribute
        # assignment of every tensor through a slow slot, see bench/PROFILE.md round 21)
        raise RuntimeError(_NOT_DELETABLE["requires_grad"])

    def requires_grad_(self, *args, **kwargs) -> Tensor:
        """Set ``requires_grad`` in place (leaves only) and return self."""
        _vmap_batched.check_requires_grad_()  # (refused inside torch.func transforms)
        if kwargs or len(args) > 1:
            requires_grad, position = _requires_grad_arg(args, kwargs)
        else:
            requires_grad, position = (args[0], 1) if args else (True, None)
        if requires_grad is not True and requires_grad is not False:  # (PyTorch's binding takes a real bool only)
            from ._arg_errors import must_be
            raise must_be("requires_grad_", "requires_grad", "bool", requires_grad, position)
        from ._dispatch import _unreplayed_view
        if self._base is not None and _unreplayed_view(self):
            return self  # (a leaf to PyTorch's C++ is_leaf(): allowed, and it still requires grad through its base)
        leaf = self._holds_no_node()
        if not leaf and not requires_grad:
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to use a computed "
                "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."
            )
        if requires_grad and not (self.dtype.is_floating_point or self.dtype.is_complex):
            # (PyTorch's requires_grad_ words this without "and complex"; its setter says both)
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if leaf:
            self.requires_grad = bool(requires_grad)
        return self

    def _holds_no_node(self) -> bool:
        # PyTorch's C++ is_leaf() (grad_fn_ == nullptr), which the requires_grad setters test: the node the tensor
        # holds, not one regenerated now, so a multi-output view whose base changed in place is refused as a
        # non-leaf rather than for that change (a view written in place holds its node from then on: _reserved_seq)
        if self._grad_fn is None and self._reserved_seq is None:
            return True
        return bool(_vmap_batched.DEPTH[0] and _hidden_by_vmap(self) or
                    _vmap_batched.GRAD_TRANSFORMS[0] and _grad_transform_input(self) or
                    _vmap_batched.TRANSFORM_CALLS and _hidden_by_transform(self))

    @property
    def grad_fn(self):
        """The Node that created this tensor (None for leaves)."""
        if self._view_version != self._version_counter[0] and (
                self._view_fn is not None or self._creation_meta in ("custom_function", "multi_output")):
            # (a custom Function's output that is a view of an input, changed in place since: PyTorch's
            # regeneration refuses it, see _refresh_view_grad_fn)
            self._refresh_view_grad_fn()
        if _vmap_batched.DEPTH[0] and _hidden_by_vmap(self) or \
                _vmap_batched.GRAD_TRANSFORMS[0] and _grad_transform_input(self) or \
                _vmap_batched.TRANSFORM_CALLS and _hidden_by_transform(self):
            return None
        return self._grad_fn

    @property
    def is_leaf(self) -> bool:
        """True for tensors not produced by a recorded operation."""
        if _vmap_batched.DEPTH[0] and _hidden_by_vmap(self) or \
                _vmap_batched.GRAD_TRANSFORMS[0] and _grad_transform_input(self) or \
                _vmap_batched.TRANSFORM_CALLS and _hidden_by_transform(self):
            return True
        return self.grad_fn is None

    @property
    def grad(self):
        """The gradient accumulated by backward (leaves, or tensors that called retain_grad())."""
        # (PyTorch's test is on the grad_fn the tensor holds, not regenerated: a view written in place has one,
        # which minigrad makes only when next read, see _record_copy_slices)
        if (self._grad_fn is not None or self._reserved_seq is not None) and not self.retains_grad \
                and self._grad is None:
            warnings.warn(
                "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
                "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
                "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
                "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
                "github.com/pytorch/pytorch/pull/30531 for more information. "
                # PyTorch's C++ warnings end with the source line that raised them; kept so messages match.
                "(Triggered internally at /__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)",
                UserWarning, stacklevel=_user_stacklevel())
        return self._grad

    @grad.setter
    def grad(self, value) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError("assigned grad expected to be a Tensor or None but got grad of type "
                                f"{type(value).__name__}")
            if value is self:
                raise RuntimeError("can't assign Variable as its own grad")
            want = self.dtype if self._grad_dtype is False else self._grad_dtype
            if want is not None and value.dtype != want:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{_CPP_NAMES[value.dtype.name]}' to a tensor "
                    f"with grad_dtype '{_LEGACY_NAMES[want.name]}'. The gradient must match the tensor's "
                    "grad_dtype (defaults to the tensor's dtype). You can set the tensor's grad_dtype attribute "
                    "with a specific dtype, or None to allow any dtype. Set grad_dtype with caution. Diverging "
                    "the dtypes of a tensor and its gradient may break downstream systems that assume they match.")
            if _METAS and _meta.is_meta(value) != _meta.is_meta(self):
                raise RuntimeError(
                    f"attempting to assign a gradient with device type '{value.device.type}' to a tensor with "
                    f"device type '{self.device.type}'. Please ensure that the gradient and the tensor are on the "
                    "same device")
            if value._data.shape != self._data.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value._data.shape)}' to a tensor of size "
                    f"'{list(self._data.shape)}'. Please ensure that the gradient and the tensor are the same size")
        self._grad = value

    @grad.deleter
    def grad(self) -> None:
        self._grad = None

    @property
    def grad_dtype(self):
        """The dtype a leaf's gradients are kept in (its own dtype unless set; None: any)."""
        if not self.is_leaf:
            raise RuntimeError("grad_dtype can only be accessed on leaf tensors.")
        return self.dtype if self._grad_dtype is False else self._grad_dtype

    @grad_dtype.setter
    def grad_dtype(self, value) -> None:
        if value is not None and not isinstance(value, _dtypes.dtype):
            raise RuntimeError(f"grad_dtype must be a torch.dtype or None, but got {type(value).__name__}")
        if not self.is_leaf:
            raise RuntimeError("grad_dtype can only be set on leaf tensors.")
        if value is not None and self._grad is not None and self._grad.dtype != value:
            raise RuntimeError(
                f"Cannot set grad_dtype to '{_LEGACY_NAMES[value.name]}' because there is already a gradient with "
                f"dtype '{_CPP_NAMES[self._grad.dtype.name]}'. Please clear the gradient (.grad = None) before "
                "changing grad_dtype, or ensure the new grad_dtype matches the existing gradient's dtype.")
        self._grad_dtype = value

    @property
    def _version(self) -> int:
        if self._is_inference is True:
            raise RuntimeError("Inference tensors do not track version counter.")
        return self._version_counter[0]

    def _is_view(self) -> bool:
        """True if this tensor shares storage with ``_base``."""
        if _vmap_batched.DEPTH[0] and _hidden_by_vmap(self):   # (PyTorch's BatchedTensor wrapper is no view)
            return False
        return self._base is not None

    @property
    def output_nr(self) -> int:
        """Which output of its ``grad_fn`` this tensor is."""
        return self._output_nr

    @property
    def retains_grad(self) -> bool:
        """True if retain_grad() was called on this (then non-leaf) tensor."""
        return self._retains_grad

    def retain_grad(self) -> None:
        """Make backward fill ``.grad`` for this non-leaf tensor."""
        # (inside vmap PyTorch's batched tensor, a wrapper, does not require grad itself: only the tensor under it)
        if not self.requires_grad or (_vmap_batched.DEPTH[0] and _vmap_batched.levels(self)
                                      and not _vmap_batched._under_grad()) or \
                _vmap_batched.TRANSFORM_CALLS and _hidden_by_transform(self):
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        from ._dispatch import _unreplayed_view
        if self._base is not None and _unreplayed_view(self):
            return  # (PyTorch's retain_grad returns at its is_leaf(), which reads the view's grad_fn unregenerated)
        from .autograd.function import _TRANSFORMS_ACTIVE
        if (_TRANSFORMS_ACTIVE[0] or _vmap_batched.DEPTH[0]) and not _caller_module().startswith("minigrad"):
            raise RuntimeError("You are attempting to call Tensor.retain_grad() inside of a function being "
                               "transformed by a functorch transform. This is unsupported, please attempt to use the "
                               "functorch transforms (e.g. grad, vjp, jacrev, jacfwd, hessian) or call retain_grad() "
                               "outside of a function being transformed instead.")
        if self._retains_grad:   # a second call does nothing (before reading grad_fn: PyTorch's returns there, so a
            return               # view changed in place since keeps its node unregenerated until first used)
        fn = self.grad_fn
        if fn is None:   # leaves keep their grad anyway
            return
        if fn._retains_grad is None:
            fn._retains_grad = {}
        fn._retains_grad[self._output_nr] = weakref.ref(self)
        self._retains_grad = True

    def _move_retains_grad(self, old_fn) -> None:
        """retain_grad's hook moves from ``old_fn`` to the tensor's new grad_fn (after an in-place op).

        After ``t_()``, ``unsqueeze_()`` ... the hook stays on the node it was registered on, as in PyTorch
        (whose .grad then has the old shape): it is not on ``old_fn`` then, and stays where it is.
        """
        hooks = old_fn._retains_grad if old_fn is not None else None
        for nr, ref in list(hooks.items()) if hooks else ():
            if ref() is self:
                del hooks[nr]
                fn = self._grad_fn
                if fn._retains_grad is None:
                    fn._retains_grad = {}
                fn._retains_grad[self._output_nr] = ref

    def register_hook(self, hook):
        """Call ``hook(grad)`` when this tensor's gradient is computed; a returned tensor replaces it."""
        # (a view requires grad with its base: see the requires_grad property; inside vmap PyTorch's batched tensor,
        # a wrapper, does not require grad itself unless a grad transform runs inside that vmap)
        if not self.requires_grad or (_vmap_batched.DEPTH[0] and _vmap_batched.levels(self)
                                      and not _vmap_batched._under_grad()) or \
                _vmap_batched.TRANSFORM_CALLS and _hidden_by_transform(self):
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._backward_hooks is None:  # (id -> hook: every hook registered on this tensor, as PyTorch's)
            self._backward_hooks = _HookDict()
        fn = self.grad_fn
        if fn is not None:  # a non-leaf's hooks run from its grad_fn, on this output's gradient
            return fn._register_tensor_hook(self._output_nr, hook, self._backward_hooks)
        return _add_hook(self._backward_hooks, hook)

    def register_post_accumulate_grad_hook(self, hook):
        """Call ``hook(tensor)`` after a leaf's ``.grad`` has been updated."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        if self._post_accumulate_grad_hooks is None:
            self._post_accumulate_grad_hooks = _HookDict()
        return _add_hook(self._post_accumulate_grad_hooks, hook)

    def _grad_accumulator_node(self) -> AccumulateGrad:
        """The leaf's AccumulateGrad, shared by every node that uses this leaf while any is alive."""
        acc = self._grad_accumulator() if self._grad_accumulator is not None else None
        if acc is None:
            acc = AccumulateGrad(self)
            self._grad_accumulator = weakref.ref(acc)
            if anomaly_mode._enabled[0]:  # (PyTorch's Node constructor keeps the stack in anomaly mode)
                anomaly_mode._record_trace(acc)
        return acc

    def _edge(self) -> tuple:
        """Where this tensor's gradient goes: ``(grad_fn, output_nr)`` or ``(AccumulateGrad, 0)``."""
        # Runs for every input of every recorded op: the grad_fn property (a view check) only for views.
        fn = self._grad_fn if self._view_fn is None and self._creation_meta is None else self.grad_fn
        if fn is not None:
            return (fn, self._output_nr)
        if self._requires_grad:
            return (self._grad_accumulator_node(), 0)
        return _NO_EDGE

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None) -> None:
        """Accumulate d(self)/d(leaf) into every leaf's ``.grad`` (``gradient`` weighs a non-scalar self)."""
        autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    # ---- detaching and data ------------------------------------------------------------------
    def detach(self) -> Tensor:
        """A tensor sharing this one's storage (and version counter) but cut off from the graph."""
        t = Tensor._make(self._data)
        if self._is_inference:
            t._is_inference = _detached_inference()
        else:
            t._version_counter = self._version_counter
            t._is_inference = False
        if _vmap_batched.DEPTH[0]:  # (inside vmap: batched as self is)
            _vmap_batched.check_detach(self)
            _vmap_batched.follow(t, self)
        if "_empty_strides" in self.__dict__:  # (an empty tensor's strides, when not the contiguous ones)
            t.__dict__["_empty_strides"] = self.__dict__["_empty_strides"]
        return t

    def detach_(self) -> Tensor:
        """Cut this tensor off from the graph, in place."""
        from ._dispatch import TRANSFORM_LEAVES, _is_transform_leaf, check_captured_write
        check_captured_write(self, "aten::detach_")   # (inside torch.func's grad transforms)
        _vmap_batched.check_detach_(self)
        # (every view, whether or not its base requires grad, as in PyTorch; not a torch.func transform's stand-in
        # for its input, a view here but PyTorch's wrapper of the input there)
        if self._base is not None and not (TRANSFORM_LEAVES and _is_transform_leaf(self)):
            raise RuntimeError(_vmap_batched._DETACH_VIEW)
        self._grad_fn = None
        self._view_fn = None
        self._requires_grad = False
        self._output_nr = 0
        self._fw_grad = None  # (PyTorch's detach_ drops the forward-mode tangent too)
        return self

    @property
    def data(self) -> Tensor:
        """The values as a new tensor outside autograd (in-place changes to it are not tracked)."""
        if _vmap_batched.DEPTH[0]:
            _vmap_batched.check_data(self)
        t = Tensor._make(self._data)
        t._is_inference = _detached_inference() if self._is_inference else False
        if "_empty_strides" in self.__dict__:  # (an empty tensor's strides, when not the contiguous ones)
            t.__dict__["_empty_strides"] = self.__dict__["_empty_strides"]
        return t

    @data.setter
    def data(self, value: Tensor) -> None:
        if not isinstance(value, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
        if self._requires_grad and not (value.dtype.is_floating_point or value.dtype.is_complex):
            raise RuntimeError("data set to a tensor that requires gradients must be floating point or complex dtype")
        self._data = value._data
        # (an empty tensor's strides are value's now: its own kept ones, or none kept, the contiguous ones)
        self.__dict__.pop("_empty_strides", None)
        if "_empty_strides" in value.__dict__:
            self.__dict__["_empty_strides"] = value.__dict__["_empty_strides"]

    @data.deleter
    def data(self) -> None:
        raise RuntimeError(_NOT_DELETABLE["data"])

    def _detached_copy(self) -> Tensor:
        if _METAS and _meta.is_meta(self):   # (a meta tensor's copy: no values to copy, see _meta.py)
            return _meta.mark(Tensor._make(_meta.clone(self._data)))
        return Tensor._make(np.array(self._data, copy=True))

    # ---- views: keeping a view's grad_fn in step with its base ----------------------------------
    def _refresh_view_grad_fn(self) -> None:
        # The base (or another view of it) was modified in place: replay the view on the base's
        # current history, as PyTorch does with AsStridedBackward0.
        base = self._base
        if base is not None and not base._requires_grad and self._grad_fn is None and self._reserved_seq is None:
            # (no node and a base without history: PyTorch's grad_fn() returns before noting the version, so the
            # node is still made if the base gets requires_grad_() later)
            return
        self._view_version = self._version_counter[0]
        if base is None:
            return
        if not base._requires_grad:
            if self._grad_fn is not None and self._creation_meta is not None:
                # (PyTorch skips the regeneration only for a view without a node: one with a node still meets
                # handle_view_on_rebase, which refuses a multi-output or custom Function's view)
                from ._dispatch import view_rebase_error
                self._view_version = -1
                raise RuntimeError(view_rebase_error(self, self._creation_meta, indirect=True))
            if (self._grad_fn is not None or self._reserved_seq is not None) and self._view_fn is not None and \
                    self._creation_meta is None:
                # (its base stopped requiring grad since the view was made: PyTorch regenerates the node all the
                # same, an AsStridedBackward0 whose edge leads nowhere. A view written in place through itself
                # before the base's detach_(), its node not yet made: PyTorch made it then, its edge the base's
                # CopySlices, see _record_copy_slices)
                from .derivatives import as_strided_view
                fn = as_strided_view(base.detach().requires_grad_(), self)
                reserved, self._reserved_seq = self._reserved_seq, None
                copy_slices = reserved[2] if reserved is not None and reserved[1] == self._view_version else None
                fn._next_nodes, fn._next_nrs = (copy_slices,), (0,)
                self._grad_fn = fn
            return
        from ._dispatch import _is_transform_leaf
        if _is_transform_leaf(self):
            # torch.func's stand-in for a differentiable input (written under no_grad): PyTorch's wrapper is a
            # leaf at its level, so it keeps its link to the input; a new node would cut off the graphs already
            # built from it (autograd.grad by it would find them unreached)
            return
        if self._creation_meta is not None:
            from ._dispatch import view_rebase_error
            self._view_version = -1  # keep failing, as PyTorch does, until the view is dropped
            raise RuntimeError(view_rebase_error(self, self._creation_meta, indirect=True))
        from .autograd import forward_ad
        # (a new node for the same view, not an op of the user's: its tangent, if any, stays as it is)
        suspended, forward_ad._suspended[0] = forward_ad._suspended[0], True
        reserved = self._reserved_seq
        if reserved is not None:
            self._reserved_seq = None
            if reserved[1] != self._view_version:
                reserved = None  # (changed again since: PyTorch's node is made now, numbered now)
        if reserved is not None:  # the number taken when the view was written in place (_record_copy_slices)
            from . import _dispatch
            counter = _dispatch._sequence
            _dispatch._sequence = itertools.chain((reserved[0],), counter)
        try:
            self._replay_view(base)
        finally:
            forward_ad._suspended[0] = suspended
            if reserved is not None:
                _dispatch._sequence = counter

    def _replay_view(self, base) -> None:
        from .derivatives import as_strided_view
        old_fn = self._grad_fn
        regen = self.__dict__.get("_dtype_regen")   # (view_as_real / view_as_complex of a view: _make_view)
        if regen is not None:
            from .autograd import grad_mode
            with grad_mode.enable_grad():
                self._grad_fn = regen(base)._grad_fn
        elif self._data.dtype.kind != "c" and base._data.dtype.kind == "c":
            # a real view of a complex base (view_as_real, .real, .imag): PyTorch's as_strided goes through
            # view_as_real(base) (the view itself when it is all of it)
            from . import _ops
            from .autograd import grad_mode
            with grad_mode.enable_grad():
                real = _ops.view_as_real(base)
            same = real._data.shape == self._data.shape and real._data.strides == self._data.strides and \
                real.data_ptr() == self.data_ptr()
            self._grad_fn = real._grad_fn if same else as_strided_view(real, self)
        elif (self._data.dtype != base._data.dtype or _CONJ_MIRRORS and _conj.is_direct(self)) \
                and self._view_fn is not None:
            # another dtype change (x.view(dtype)), or x.conj() itself: as_strided cannot express it, the view is
            # replayed (ConjBackward0 again)
            from .autograd import grad_mode
            with grad_mode.enable_grad():
                self._grad_fn = self._view_fn(base)._grad_fn
        else:
            self._grad_fn = as_strided_view(base, self)
        self._output_nr = 0
        self._requires_grad = True
        self._backward_hooks = None  # (hooks registered before stay on the old grad_fn, as in PyTorch)
        if self._retains_grad:
            self._move_retains_grad(old_fn)

    # ---- operators ---------------------------------------------------------------------------
    # Operators dispatch to the functions in _ops.py (attached there, see _ops.METHODS). As in PyTorch,
    # a binary operator turns a TypeError into NotImplemented, so Python tries the other operand and
    # then says "unsupported operand type(s)" (and ``x == "a"`` is simply False).
    # PyTorch's operators are C methods of TensorBase: called on something else (``torch.Tensor.__radd__(2, t)``)
    # they raise the descriptor TypeError of _not_a_tensor; those it writes in Python (__rsub__, __rdiv__, ...)
    # just run their body.
    def __neg__(self):
        return self.neg()

    def __pos__(self):
        return self.positive()   # (the tensor itself; refused for bool)

    def __abs__(self):
        return self.abs()

    def __add__(self, other):
        if not isinstance(self, Tensor):
            raise _not_a_tensor('__add__', self)
        try:
            return self.add(other)
        except TypeError:
            return NotImplemented

    def __radd__(self, other):
        if not isinstance(self, Tensor):
            raise _not_a_tensor('__radd__', self)
        try:
            return self.add(other)
        except TypeError:
            return NotImplemented

    def __iadd__(self, other):
        if not isinstance(self, Tensor):
            raise _not_a_tensor('__iadd__', self)
        try:
            return self.add_(other)
        except TypeError:
            return NotImplemented

    def __sub__(self, other):
        if not isinstance(self, Tensor):
            raise _not_a_tensor('__sub__', self)
        try:
            return self.sub(other)
        except TypeError:
            return NotImplemented

    def __rsub__(self, other):
        from . import _ops
        try:
            return _ops.rsub(self, other)
        except TypeError:
            return NotImplemented

    def __isub__(self, other):
        if not isinstance(self, Tensor):
            raise _not_a_tensor('__isub__', self)
        try:
            return self.sub_(other)
        except TypeError:
            return NotImplemented

    def __mul__(self, other):
        if not isinstance(self, Tensor):
            raise _not_a_tensor('__mul__', self)
        try:
            return self.mul(other)
        except TypeError:
            return NotImplemented

    def __rmul__(self, other):
        if not isinstance(self, Tensor):
            raise _not_a_tensor('__rmul__', self)
        try:
            return self.mul(other)
        except TypeError:
            return NotImplemented

    def __imul__(self, other):
        if not isinstance(self, Tensor):
            raise _not_a_tensor('__imul__', self)
        try:
            return self.mul_(other)
        except TypeError:
            return NotImplemented

    def __truediv__(self, other):
        if not isinstance(self, Tensor):
            raise _not_a_tensor('__truediv__', self)
        try:
            return self.div(other)
        except TypeError:
            return NotImplemented

    def __rdiv__(self, other):  # (PyTorch's Python method, with __rtruediv__ its alias)
        from . import _ops
        if not isinstance(self, Tensor):  # (Tensor.__rdiv__(2, t): PyTorch's body self.reciprocal() * other)
            return self.reciprocal() * other
        if isinstance(other, np.ndarray):  # PyTorch's rule for every operand: other * (1 / self), here by NumPy
            return self.reciprocal() * other
        try:
            return _ops.rdiv(self, other)
        except TypeError:
            return NotImplemented

    __rtruediv__ = __rdiv__

    def __itruediv__(self, other):
        if not isinstance(self, Tensor):
            raise _not_a_tensor('__itruediv__', self)
        try:
            return self.div_(other)
        except TypeError:
            return NotImplemented

    def __floordiv__(self, other):
        try:
            return self.floor_divide(other)
        except TypeError:
            return NotImplemented

    def __rfloordiv__(self, other):
        from . import _ops
        if isinstance(other, (np.ndarray, list, tuple)):  # (torch.floor_divide takes no ndarray nor list)
            return NotImplemented
        try:
            if isinstance(other, (int, float)):  # number // tensor: the number is no input of the node
                return _ops._rounded_div(other, self, "floor", "floor_divide")
            return _ops.floor_divide(_ops._as_tensor_like(other, self), self)
        except TypeError:
            return NotImplemented

    def __mod__(self, other):
        if not isinstance(self, Tensor):
            raise _not_a_tensor('__mod__', self)
        try:
            return self.remainder(other)
        except TypeError:
            return NotImplemented

    def __rmod__(self, other):
        from ._ops_math import remainder
        if isinstance(other, np.ndarray):  # (torch.remainder takes no ndarray)
            return NotImplemented
        try:
            return remainder(other, self)
        except TypeError:
            return NotImplemented

    def __pow__(self, other, *modulo):
        if modulo:   # pow(x, e, m): PyTorch's pow takes no modulus, so Python says "unsupported operand"
            return NotImplemented
        try:
            return self.pow(other)
        except TypeError:
            return NotImplemented

    def __rpow__(self, other):
        from . import _ops
        if isinstance(other, np.ndarray):  # (torch.pow takes no ndarray base)
            return NotImplemented
        try:
            return _ops.pow(other, self)
        except TypeError:
            return NotImplemented

    def __ipow__(self, other):
        try:
            return self.pow_(other)
        except TypeError:
            return NotImplemented

    def __matmul__(self, other):
        if not isinstance(self, Tensor):
            raise _not_a_tensor('__matmul__', self)
        try:
            return self.matmul(other)
        except TypeError:
            return NotImplemented

    def __rmatmul__(self, other):
        from . import _ops
        try:
            return _ops.matmul(other, self)
        except TypeError:
            return NotImplemented

    def __eq__(self, other):
        if not isinstance(self, Tensor):
            raise _not_a_tensor('__eq__', self)
        if isinstance(other, np.ndarray):  # (PyTorch's == takes an ndarray as a tensor; its != does not)
            other = Tensor._make(np.asarray(other))
        try:
            return self.eq(other)
        except TypeError:
            return NotImplemented

    def __ne__(self, other):
        if not isinstance(self, Tensor):
            raise _not_a_tensor('__ne__', self)
        try:
            return self.ne(other)
        except TypeError:
            return NotImplemented

    def __lt__(self, other):
        if not isinstance(self, Tensor):
            raise _not_a_tensor('__lt__', self)
        try:
            return self.lt(other)
        except TypeError:
            return NotImplemented

    def __le__(self, other):
        if not isinstance(self, Tensor):
            raise _not_a_tensor('__le__', self)
        try:
            return self.le(other)
        except TypeError:
            return NotImplemented

    def __gt__(self, other):
        if not isinstance(self, Tensor):
            raise _not_a_tensor('__gt__', self)
        try:
            return self.gt(other)
        except TypeError:
            return NotImplemented

    def __ge__(self, other):
        if not isinstance(self, Tensor):
            raise _not_a_tensor('__ge__', self)
        try:
            return self.ge(other)
        except TypeError:
            return NotImplemented

    def __and__(self, other):
        if not isinstance(self, Tensor):
            raise _not_a_tensor('__and__', self)
        try:
            if self.dtype is _dtypes.bool_ and isinstance(other, Tensor) and other.dtype is _dtypes.bool_:
                if _vmap_batched.DEPTH[0]:  # (PyTorch's bitwise_and: its batch rule's check)
                    _vmap_batched.check_first_example("bitwise_and", self, other)
                return self.logical_and(other)
            return self.bitwise_and(other)  # (PyTorch's operator: bitwise, also for a bool tensor)
        except TypeError:
            return NotImplemented

    def __or__(self, other):
        if not isinstance(self, Tensor):
            raise _not_a_tensor('__or__', self)
        try:
            if self.dtype is _dtypes.bool_ and isinstance(other, Tensor) and other.dtype is _dtypes.bool_:
                if _vmap_batched.DEPTH[0]:  # (PyTorch's bitwise_or: its batch rule's check)
                    _vmap_batched.check_first_example("bitwise_or", self, other)
                return self.logical_or(other)
            return self.bitwise_or(other)  # (PyTorch's operator: bitwise, also for a bool tensor)
        except TypeError:
            return NotImplemented

    def __xor__(self, other):
        if not isinstance(self, Tensor):
            raise _not_a_tensor('__xor__', self)
        try:
            if self.dtype is _dtypes.bool_ and isinstance(other, Tensor) and other.dtype is _dtypes.bool_:
                if _vmap_batched.DEPTH[0]:  # (PyTorch's bitwise_xor: its batch rule's check)
                    _vmap_batched.check_first_example("bitwise_xor", self, other)
                return self.logical_xor(other)
            return self.bitwise_xor(other)  # (PyTorch's operator: bitwise, also for a bool tensor)
        except TypeError:
            return NotImplemented

    # (and, or, xor commute: 3 | t is t | 3)
    def __rand__(self, other):
        if not isinstance(self, Tensor):
            raise _not_a_tensor("__rand__", self)
        return self.__and__(other)

    def __ror__(self, other):
        if not isinstance(self, Tensor):
            raise _not_a_tensor("__ror__", self)
        return self.__or__(other)

    def __rxor__(self, other):
        if not isinstance(self, Tensor):
            raise _not_a_tensor("__rxor__", self)
        return self.__xor__(other)

    def __invert__(self):
        if self.dtype.is_floating_point or self.dtype.is_complex:
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
        return self.logical_not() if self.dtype is _dtypes.bool_ else self.bitwise_not()

    def __getitem__(self, index):
        from . import _indexing
        return _indexing.getitem(self, index)

    def __setitem__(self, index, value) -> None:
        from . import _indexing
        _indexing.setitem(self, index, value)

    def __delitem__(self, index) -> None:
        raise TypeError("Tensor does not support deleting items")

    # Python 2's names, which PyTorch's TensorBase still defines
    __nonzero__, __long__, __div__, __idiv__ = __bool__, __int__, __truediv__, __itruediv__


def _not_a_tensor(name: str, obj) -> TypeError:
    """The error of calling PyTorch's C method ``name`` with a ``self`` that is no tensor."""
    return TypeError(f"descriptor '{name}' for 'torch._C.TensorBase' objects doesn't apply to a "
                     f"'{type(obj).__name__}' object")


def _rebuild_tensor(data: np.ndarray, requires_grad: bool, state: dict | None = None) -> Tensor:
    """Unpickle a tensor (see ``Tensor.__reduce_ex__``): an empty dict of hooks, as PyTorch's _rebuild_tensor_v2."""
    t = Tensor._make(data, requires_grad)
    t._version_counter[0] = 1   # (PyTorch's is an empty tensor set_() to the unpickled storage: one write)
    t._backward_hooks = collections.OrderedDict()
    for key, value in (state or {}).items():
        setattr(t, key, value)
    return t


def _rebuild_subclass(cls: type, data: np.ndarray, requires_grad: bool, state: dict) -> Tensor:
    """Unpickle a tensor of a Tensor subclass (PyTorch's _rebuild_from_type_v2: as_subclass, then its state)."""
    t = Tensor._make(data, requires_grad).as_subclass(cls)
    t._version_counter[0] = 1   # (set_() to its storage, as _rebuild_tensor)
    for key, value in state.items():
        setattr(t, key, value)
    return t


def _pickled_state(t: Tensor) -> dict:
    """The attributes PyTorch pickles with a tensor (its ``__dict__``; minigrad's own mark of retain_grad left out)."""
    return {key: value for key, value in t.__dict__.items() if key != "_retains_grad"}


# ---- attributes PyTorch defines in C (TensorBase): reading them is all there is -------------------------------
# Devices and layouts minigrad never has: always False, as for a dense CPU tensor.
_ALWAYS_FALSE = ("is_sparse", "is_sparse_csr", "is_quantized", "is_nested", "is_mps", "is_xpu",
                 "is_mkldnn", "is_vulkan", "is_ipu", "is_xla", "is_mtia", "is_maia")
_READ_ONLY = ("grad_fn", "is_leaf", "shape", "dtype", "device", "ndim", "output_nr", "_version", "is_cuda", "is_cpu",
              "layout", "T", "mT", "H", "mH", "retains_grad", "itemsize", "nbytes", "is_meta", *_ALWAYS_FALSE)


def _not_writable(name: str):
    def setter(self, value=None) -> None:  # (also the deleter: PyTorch refuses ``del t.shape`` the same way)
        raise AttributeError(f"attribute '{name}' of 'torch._C.TensorBase' objects is not writable")
    return setter


# A view's base: minigrad's code writes the slot ``_view_base``; ``_base`` reads it through the slot's own C getter
# (no Python frame per read) and refuses assignment as PyTorch's C attribute does.
Tensor._base = property(Tensor.__dict__["_view_base"].__get__, _not_writable("_base"), _not_writable("_base"),
                        "The tensor this one is a view of (None if it is not a view).")
_BASE_OUTSIDE_VMAP = Tensor._base


def _base_inside_vmap(self):
    """``_base`` while a vmap runs (in any thread): None where the user's code sees PyTorch's BatchedTensor wrapper,
    which is no view (``a[0]._base`` of a vmapped ``a``)."""
    base = self._view_base
    if base is not None and _vmap_batched.DEPTH[0] and _hidden_by_vmap(self):
        return None
    return base


_BASE_INSIDE_VMAP = property(_base_inside_vmap, _not_writable("_base"), _not_writable("_base"), Tensor._base.__doc__)


def base_inside_vmap(inside: bool) -> None:
    """Give ``_base`` its vmap-aware getter while some vmap runs, its plain slot getter (no Python frame) otherwise."""
    Tensor._base = _BASE_INSIDE_VMAP if inside else _BASE_OUTSIDE_VMAP

_NOT_DELETABLE = {"data": "Deleting tensor data is not allowed. Delete tensor instead!",
                  "requires_grad": "requires_grad must be a bool"}


def make_read_only() -> None:
    """Give Tensor's read-only attributes PyTorch's error on assignment (once every module has attached them)."""
    for name in _ALWAYS_FALSE:
        setattr(Tensor, name, property(lambda self: False))
    from ._conj import is_conj
    Tensor.is_conj = is_conj                 # (x.conj() of a complex tensor is a lazy view: see _conj.py)
    from ._neg import is_neg
    Tensor.is_neg = is_neg                   # (torch._neg_view(x), z.conj().imag: lazy negative views, _neg.py)
    for name in _READ_ONLY:
        prop = Tensor.__dict__[name]
        setattr(Tensor, name, property(prop.fget, _not_writable(name), _not_writable(name), prop.__doc__))
