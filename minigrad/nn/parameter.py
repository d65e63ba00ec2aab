"""Parameter: a Tensor that a Module registers as learnable (requires_grad by default)."""
from __future__ import annotations

from collections import OrderedDict

import numpy as np

from .. import overrides
from .._class_names import TorchNamed
from .._tensor import Tensor
from ..overrides import _disabled_torch_function_impl


def _reset_grad(p: Tensor, set_to_none: bool) -> None:
    """What Module.zero_grad and Optimizer.zero_grad do to one parameter's ``.grad``."""
    if p.grad is None:
        return
    if set_to_none:
        p.grad = None
        return
    # zero the gradient in place, first cutting it from any graph (create_graph=True builds one)
    if p.grad.grad_fn is not None:
        p.grad.detach_()
    else:
        p.grad.requires_grad_(False)
    p.grad.zero_()


class Parameter(Tensor):
    """A tensor that is a module parameter: assigning it to a Module attribute registers it."""

    _torch_name = "torch.nn.parameter.Parameter"
    # As PyTorch's: operations on a Parameter give plain Tensors (its __torch_function__ converts nothing).
    __torch_function__ = _disabled_torch_function_impl

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        # Shares the storage of ``data`` (like torch.nn.Parameter), but starts a fresh history.
        if data is not None and not isinstance(data, Tensor):
            data.detach()   # (what PyTorch's Parameter calls on anything not a Tensor: 'list' object has no ...)
        if requires_grad is not True and requires_grad is not False:
            raise TypeError("_make_subclass(): argument 'require_grad' (position 3) must be bool, not "
                            f"{type(requires_grad).__name__}")
        array = np.empty(0, dtype=np.float32) if data is None else data._data
        self._init_from(array, False)
        if data is not None:  # and its version counter, as PyTorch's _make_subclass (a detach) does
            self._version_counter = data._version_counter
        if data is not None and data._is_inference:
            self._is_inference = True  # so requires_grad=True outside inference mode is refused
        if requires_grad and not (self.dtype.is_floating_point or self.dtype.is_complex):
            # (PyTorch's _make_subclass words it like the factories, capitalised)
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        self.requires_grad = requires_grad

    @classmethod
    def _from_tensor(cls, t: Tensor) -> Parameter:
        return cls(t, t._requires_grad)

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, protocol):
        from .._tensor import _pickled_state
        state = _pickled_state(self)   # (hooks are not pickled: PyTorch's Note [Don't serialize hooks])
        args = (Tensor._make(self._data.copy()), self._requires_grad)
        return (_rebuild_parameter, (*args, state) if state else args)


def _rebuild_parameter(data: Tensor, requires_grad: bool, state: dict | None = None) -> Parameter:
    param = Parameter(data, requires_grad)
    param._backward_hooks = OrderedDict()   # (as PyTorch's _rebuild_parameter: an empty dict of hooks)
    for key, value in (state or {}).items():
        setattr(param, key, value)
    return param


class _BufferMeta(TorchNamed):   # (prints as <class 'torch.nn.parameter.Buffer'>)
    _torch_name = "torch.nn.parameter._BufferMeta"   # (its own print)

    # isinstance(t, nn.Buffer) is True for the plain tensors nn.Buffer(...) returns (marked _is_buffer)
    def __instancecheck__(cls, instance) -> bool:
        return isinstance(instance, Tensor) and getattr(instance, "_is_buffer", False)


class Buffer(metaclass=_BufferMeta):
    """A tensor that assigning to a Module attribute registers as a buffer (``persistent``: in the state dict)."""

    def __new__(cls, data: Tensor | None = None, *, persistent: bool = True):
        if data is None:
            data = Tensor._make(np.empty(0, dtype=np.float32))
        t = data.detach().requires_grad_(data.requires_grad)
        t.persistent = persistent
        t._is_buffer = True
        return t


_NO_SHAPE = ("Can't access the shape of an uninitialized parameter or buffer. This error usually happens in "
             "`load_state_dict` when trying to load an uninitialized parameter into an initialized one. Call `forward` "
             "to initialize the parameters before accessing their attributes.")

_NO_SHARING = ("Can't share memory on an uninitialized parameter or buffer. Call `forward` to initialize the "
               "parameters before calling `module.share_memory()`.")


# PyTorch's UninitializedTensorMixin._allowed_methods: the Tensor methods a placeholder answers (properties too)
_ALLOWED = ("size", "copy_", "is_complex", "is_floating_point", "half", "float", "double", "char", "short", "int",
            "long", "cuda", "cpu", "to", "get_device")


def _refuse_uninitialized(cls, func, types, args=(), kwargs=None):
    """``__torch_function__`` of the placeholders: only the allowed methods and properties run (as PyTorch's)."""
    if func.__class__.__name__ == "method-wrapper" or any(func is getattr(Tensor, name) for name in _ALLOWED):
        return _disabled_torch_function_impl(func, types, args, kwargs)   # (a property's __get__ / __set__, or allowed)
    raise ValueError(f"Attempted to use an uninitialized parameter in {overrides.builtin_label(func)}. This error "
                     "happens when you are using a `LazyModule` or explicitly manipulating "
                     f"`torch.nn.parameter.{cls.__name__}` objects. When using LazyModules Call `forward` with a "
                     "dummy batch to initialize the parameters before calling torch functions")


class UninitializedParameter(Parameter):
    """A parameter whose shape is not known yet (lazy modules): an empty placeholder until materialize()."""

    _torch_name = "torch.nn.parameter.UninitializedParameter"
    # (its __torch_function__ turns the protocol on when a placeholder is made, not when this class is defined)
    _protocol_on_init = True
    __torch_function__ = classmethod(_refuse_uninitialized)

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        overrides._activate()
        super().__init__(data, requires_grad)

    def share_memory_(self):
        raise RuntimeError(_NO_SHARING)

    @property
    def shape(self):
        raise RuntimeError(_NO_SHAPE)   # (its size() answers: PyTorch allows that one)

    def __repr__(self) -> str:
        return "<UninitializedParameter>"

    def materialize(self, shape, device=None, dtype=None) -> None:
        """Become an ordinary Parameter of ``shape`` (uninitialised values, as torch.empty)."""
        self._data = np.empty(tuple(shape), dtype=self._data.dtype if dtype is None else dtype.np)
        self.__class__ = Parameter


class UninitializedBuffer(Tensor):
    """A buffer whose shape is not known yet (lazy modules): an empty placeholder until materialize()."""

    _torch_name = "torch.nn.parameter.UninitializedBuffer"
    _protocol_on_init = True
    __torch_function__ = classmethod(_refuse_uninitialized)

    def share_memory_(self):
        raise RuntimeError(_NO_SHARING)

    @staticmethod
    def _placeholder(dtype=None) -> Tensor:
        """An empty tensor of this class (it is made, not constructed, as a Tensor subclass)."""
        overrides._activate()
        t = Tensor._make(np.empty(0, dtype=np.float32 if dtype is None else dtype.np))
        t.__class__ = UninitializedBuffer
        return t

    @property
    def shape(self):
        raise RuntimeError(_NO_SHAPE)

    def __repr__(self) -> str:
        return "<UninitializedBuffer>"

    def materialize(self, shape, device=None, dtype=None) -> None:
        """Become an ordinary tensor of ``shape`` (uninitialised values, as torch.empty)."""
        self._data = np.empty(tuple(shape), dtype=self._data.dtype if dtype is None else dtype.np)
        self.__class__ = Tensor


def is_lazy(param) -> bool:
    """Whether ``param`` is a placeholder still waiting for its shape (``UninitializedParameter`` / ``Buffer``)."""
    return isinstance(param, (UninitializedParameter, UninitializedBuffer))
