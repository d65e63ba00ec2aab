"""Custom differentiable functions: subclass Function, write forward(ctx, ...) and backward(ctx, ...).

    class Exp(Function):
        @staticmethod
        def forward(ctx, i):
            result = i.exp()
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad_output):
            result, = ctx.saved_tensors
            return grad_output * result

    output = Exp.apply(input)      # output.grad_fn is an ExpBackward node; ctx *is* that node
"""
from __future__ import annotations

import functools

from . import anomaly_mode, forward_ad, grad_mode, profiler
from .graph import FREED_MESSAGE, Node, SavedTensor

__all__ = ["Function", "FunctionCtx", "BackwardCFunction", "once_differentiable", "InplaceFunction"]


class FunctionCtx:
    """What ``ctx`` offers inside forward/backward (the context is the graph node itself)."""

    def save_for_backward(self, *tensors) -> None:
        """Keep tensors for backward; read them back with ``ctx.saved_tensors``."""
        self.to_save = tensors

    def save_for_forward(self, *tensors) -> None:
        """Keep tensors for the forward-mode ``jvp``."""
        self.saved_for_forward = tensors

    def mark_dirty(self, *args) -> None:
        """Declare inputs that forward modified in place."""
        self.dirty_tensors = args

    def mark_non_differentiable(self, *args) -> None:
        """Declare outputs that get no gradient (e.g. indices)."""
        self.non_differentiable = args

    def set_materialize_grads(self, value: bool) -> None:
        """Whether backward receives zeros (True, default) or None for outputs without gradient."""
        self.materialize_grads = value

    @property
    def saved_tensors(self) -> tuple:
        """The tensors given to ``save_for_backward`` (checked for in-place changes)."""
        saved = getattr(self, "_stored_tensors", None)
        if saved is None:
            return tuple(getattr(self, "to_save", ()))
        if saved == "freed":
            raise RuntimeError(FREED_MESSAGE)
        return tuple(s.unpack(self) if isinstance(s, SavedTensor) else s for s in saved)

    saved_variables = saved_tensors


class BackwardCFunction(FunctionCtx, Node):
    """The node of a custom Function: calls the user's backward."""

    _forward_cls: type
    _runs_without_grads = True

    def apply(self, grad_outputs: tuple) -> tuple:
        """Run the user's backward on the incoming gradients (None becomes zeros unless told not to)."""
        from .._creation import zeros
        cls = self._forward_cls
        if getattr(self, "materialize_grads", True):
            grad_outputs = tuple(zeros(info[0], dtype=info[1]) if g is None and info is not None else g
                                 for g, info in zip(grad_outputs, self._output_info))
        backward_fn = cls.vjp if cls.backward is Function.backward else cls.backward
        result = backward_fn(self, *grad_outputs)
        if not isinstance(result, tuple):
            result = (result,)
        n_args = len(self._is_tensor_input)
        if len(result) != n_args:
            # PyTorch lets backward return extra trailing Nones, not fewer or more gradients.
            if len(result) > n_args and all(r is None for r in result[n_args:]):
                result = result[:n_args]
            else:
                raise RuntimeError(f"function {self.name()} returned an incorrect number of gradients "
                                   f"(expected {n_args}, got {len(result)})")
        grads = []
        from .._tensor import Tensor
        for i, (g, is_tensor) in enumerate(zip(result, self._is_tensor_input)):
            if not is_tensor:
                if g is not None:
                    raise RuntimeError(f"function {self.name()} returned a gradient different than None at "
                                       f"position {i + 1}, but the corresponding forward input was not a Variable")
                continue
            if g is not None and not isinstance(g, Tensor):
                raise RuntimeError(f"expected Variable or None (got {type(g).__name__})")
            grads.append(g)
        return tuple(grads)

    def release_variables(self) -> None:
        """Free the saved tensors once backward has used them."""
        if getattr(self, "_stored_tensors", None) is not None:
            self._stored_tensors = "freed"

    @property
    def _raw_saved_tensors(self) -> tuple:
        """The SavedTensor objects behind ``saved_tensors`` (e.g. to ``register_hooks`` on one)."""
        saved = getattr(self, "_stored_tensors", None)
        if saved == "freed":
            raise RuntimeError(FREED_MESSAGE)
        return tuple(saved or ())

    def __repr__(self) -> str:
        # PyTorch's custom-function nodes are Python classes of torch.autograd.function.
        return f"<torch.autograd.function.{type(self).__name__} object at {hex(id(self))}>"


class _FunctionMeta(type):
    def __init__(cls, name, bases, attrs):
        # Each Function subclass gets its own node class, named like PyTorch's ("ExpBackward").
        cls._backward_cls = type(name + "Backward", (BackwardCFunction,), {"_forward_cls": cls,
                                                                            "__module__": "torch.autograd.function"})
        super().__init__(name, bases, attrs)


class Function(metaclass=_FunctionMeta):
    """Base class for custom differentiable operations (see the module docstring)."""

    def __init__(self, *args, **kwargs) -> None:
        import warnings
        warnings.warn(f"{self.__class__} should not be instantiated. Methods on autograd functions are all "
                      "static, so you should invoke them on the class itself. Instantiating an autograd function "
                      "will raise an error in a future version of PyTorch.", DeprecationWarning, stacklevel=2)

    def __call__(self, *args, **kwargs):
        raise RuntimeError("Legacy autograd function with non-static forward method is deprecated. Please use "
                           "new-style autograd function with static forward method. (Example: "
                           "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(ctx, *args, **kwargs):
        """Compute the outputs; save what backward needs on ``ctx``."""
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        """Optional: fill ``ctx`` from (inputs, output) when forward does not take ctx."""
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        """Gradients w.r.t. each forward input, given gradients w.r.t. each output."""
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    vjp = backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        """Forward-mode derivative: override to support forward AD."""
        raise NotImplementedError("You must implement the jvp function for custom autograd.Function to use it "
                                  "with forward mode AD.")

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run forward and, if any input requires grad, record a ``<Name>Backward`` node."""
        if profiler._enabled[0]:
            with profiler.record_function(cls.__name__):
                return cls._apply(args, kwargs)
        return cls._apply(args, kwargs)

    @classmethod
    def _apply(cls, args, kwargs):
        from .._tensor import Tensor
        node = cls._backward_cls.__new__(cls._backward_cls)
        Node.__init__(node)
        tensor_inputs = [a for a in args if isinstance(a, Tensor)]
        node._is_tensor_input = tuple(isinstance(a, Tensor) for a in args)
        node.needs_input_grad = tuple(isinstance(a, Tensor) and a._requires_grad for a in args)
        # forward runs without recording, and on plain values: tangents come from ``jvp`` below.
        suspended, forward_ad._suspended[0] = forward_ad._suspended[0], True
        try:
            with grad_mode.no_grad():
                if cls.setup_context is not Function.setup_context:
                    output = cls.forward(*args, **kwargs)
                    cls.setup_context(node, args, output)
                else:
                    output = cls.forward(node, *args, **kwargs)
        finally:
            forward_ad._suspended[0] = suspended
        record = grad_mode.STATE.enabled and any(t._requires_grad for t in tensor_inputs)

        is_tuple = isinstance(output, tuple)
        outputs = list(output) if is_tuple else [output]
        dirty = getattr(node, "dirty_tensors", ())
        originals = [o for o in outputs if isinstance(o, Tensor)]  # as returned: mark_* calls name these
        for i, o in enumerate(outputs):
            if not isinstance(o, Tensor):
                continue
            if any(o is d for d in dirty):
                if record and o._requires_grad and o.grad_fn is None and o._base is None:
                    raise RuntimeError("a leaf Variable that requires grad has been used in an in-place operation.")
                o._version_counter[0] += 1  # PyTorch bumps a dirty tensor's version once more
            elif any(o is a for a in tensor_inputs):
                outputs[i] = _alias(o)  # an input returned as is becomes a new (view) output tensor
        tensor_outputs = [o for o in outputs if isinstance(o, Tensor)]

        if record:
            node._set_edges([t._edge() for t in tensor_inputs])
            node._input_meta = tuple((t._data.shape, t._data.dtype) for t in tensor_inputs)
            # One gradient slot per output, as in PyTorch: a non-tensor output's slot always gets None.
            node._n_outputs = len(outputs)
            node._output_info = tuple((o.shape, o.dtype) if isinstance(o, Tensor) else None for o in outputs)
            non_diff = getattr(node, "non_differentiable", ())
            tensor_nrs = [nr for nr, o in enumerate(outputs) if isinstance(o, Tensor)]
            for nr, o, orig in zip(tensor_nrs, tensor_outputs, originals):
                if any(orig is n for n in non_diff) or not (o.dtype.is_floating_point or o.dtype.is_complex):
                    continue
                o._requires_grad = True
                o._grad_fn = node
                o._output_nr = nr
            to_save = getattr(node, "to_save", None)
            if to_save is not None:
                for i, t in enumerate(to_save):
                    if t is not None and not isinstance(t, Tensor):
                        raise TypeError("save_for_backward can only save variables, but argument "
                                        f"{i} is of type {type(t).__name__}")
                node._stored_tensors = [
                    None if t is None else SavedTensor(t, is_output=any(t is o for o in tensor_outputs))
                    for t in to_save]
                del node.to_save
            if anomaly_mode._enabled[0]:
                anomaly_mode._record_trace(node)
        if forward_ad._level[0] is not None:
            forward_ad._function_jvp(cls, node, args, tensor_outputs)
        return tuple(outputs) if is_tuple else outputs[0]


def _alias(t):
    """A new tensor viewing ``t``'s storage (what PyTorch returns for an input passed through)."""
    from .._tensor import Tensor
    out = Tensor._make(t._data.view())
    out._base = t._base if t._base is not None else t
    out._version_counter = t._version_counter
    return out


class InplaceFunction(Function):
    """A Function that may work in place (``inplace=True``), as torch.autograd.function.InplaceFunction."""
    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace


def once_differentiable(fn):
    """Decorate a backward that is not itself differentiable (it runs with grad mode off)."""
    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with grad_mode.no_grad():
            return fn(ctx, *args)
    return wrapper
