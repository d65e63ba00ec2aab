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
import inspect
import warnings
import weakref

from .. import _meta, _vmap_batched
from .._class_names import CNodeNamed, FunctionNodeNamed, TorchNamed, object_repr, real_mro
from .._errstate import call_user
from .._per_thread import PerThreadFlag
from . import anomaly_mode, forward_ad, grad_mode, profiler
from .graph import _RUNS_FIRST, FREED_MESSAGE, Node, SavedTensor, _c_type_name

__all__ = ["FunctionCtx", "BackwardCFunction", "FunctionMeta", "Function", "once_differentiable", "InplaceFunction",
           "NestedIOFunction"]


def _node_only(ctx, name: str) -> None:
    """Refuse ``name`` on a plain FunctionCtx: in PyTorch it is an attribute of the C base of the nodes (and of
    Function), which a FunctionCtx made by hand lacks."""
    if not isinstance(ctx, _FunctionBase):
        raise AttributeError(f"'{type(ctx).__name__}' object has no attribute '{name}'")


class _UnsetOnNode:
    """An attribute the mark_* / save_* calls set: None on a node until then, as PyTorch shows it."""

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, obj, cls=None):
        if obj is None:
            raise AttributeError(f"type object '{cls.__name__}' has no attribute '{self.name}'")
        _node_only(obj, self.name)
        return None


class FunctionCtx(metaclass=TorchNamed):  # (the metaclass: prints as torch.autograd.function.FunctionCtx)
    """What ``ctx`` offers inside forward/backward (the context is the graph node itself)."""

    __repr__ = object_repr  # <torch.autograd.function.FunctionCtx object at 0x...> (node classes have their own)

    to_save = _UnsetOnNode()
    dirty_tensors = _UnsetOnNode()
    non_differentiable = _UnsetOnNode()
    saved_for_forward = _UnsetOnNode()

    def save_for_backward(self, *tensors) -> None:
        """Keep tensors for backward; read them back with ``ctx.saved_tensors``."""
        self.to_save = tensors

    def save_for_forward(self, *tensors) -> None:
        """Keep tensors for the forward-mode ``jvp``."""
        from .._tensor import Tensor
        for tensor in tensors:
            if not (isinstance(tensor, Tensor) or tensor is None):  # (PyTorch's assert, at the call)
                raise AssertionError("save_for_forward expects all arguments to be tensors; you should save "
                                     "non-tensors as attributes on ctx.")
        self.saved_for_forward = tensors

    def mark_dirty(self, *args) -> None:
        """Declare inputs that forward modified in place."""
        self.dirty_tensors = args

    def mark_shared_storage(self, *pairs) -> None:
        """Deprecated, as in PyTorch: shared storage is tracked by itself."""
        warnings.warn("`mark_shared_storage` is deprecated. Tensors with shared storages are automatically "
                      "tracked. Note that calls to `set_()` are not tracked", FutureWarning, stacklevel=2)

    def mark_non_differentiable(self, *args) -> None:
        """Declare outputs that get no gradient (e.g. indices)."""
        self.non_differentiable = args

    def set_materialize_grads(self, value: bool) -> None:
        """Whether backward receives zeros (True, default) or None for outputs without gradient."""
        self.materialize_grads = value

    @property
    def materialize_grads(self):
        """Write-only, as PyTorch's C++ attribute (set_materialize_grads sets it)."""
        if not isinstance(self, _FunctionBase):  # (a plain FunctionCtx: what set_materialize_grads stored)
            if "_materialize_grads" not in self.__dict__:
                _node_only(self, "materialize_grads")
            return self._materialize_grads
        raise AttributeError("attribute 'materialize_grads' of 'torch._C._FunctionBase' objects is not readable")

    @materialize_grads.setter
    def materialize_grads(self, value: bool) -> None:
        # (PyTorch's C++ attribute takes a bool only; a plain FunctionCtx's is a Python attribute)
        if not isinstance(value, bool) and isinstance(self, _FunctionBase):
            raise TypeError("set_materialize_grads received an invalid combination of arguments - got (), but "
                            "expected (bool)")
        self._materialize_grads = value

    @property
    def saved_tensors(self) -> tuple:
        """The tensors given to ``save_for_backward`` (checked for in-place changes); in ``jvp``, those given to
        ``save_for_forward``."""
        _node_only(self, "saved_tensors")
        in_jvp = getattr(self, "_jvp_saved", None)
        if in_jvp is not None:
            return in_jvp
        saved = getattr(self, "_stored_tensors", None)
        if saved is None:  # (in forward, or in jvp without save_for_forward: nothing is saved yet, as in PyTorch)
            return ()
        if saved == "freed":
            raise RuntimeError(FREED_MESSAGE)
        return tuple(s.unpack(self) if isinstance(s, SavedTensor) else s for s in saved)

    @saved_tensors.setter
    def saved_tensors(self, value) -> None:
        raise AttributeError("attribute 'saved_tensors' of 'torch._C._FunctionBase' objects is not writable")

    @saved_tensors.deleter
    def saved_tensors(self) -> None:
        raise AttributeError("attribute 'saved_tensors' of 'torch._C._FunctionBase' objects is not writable")

    @property
    def saved_variables(self) -> tuple:
        """The old name of ``saved_tensors`` (deprecated: PyTorch warns on each use)."""
        _node_only(self, "saved_variables")
        warnings.warn("'saved_variables' is deprecated; use 'saved_tensors'", DeprecationWarning, stacklevel=2)
        return self.saved_tensors

    @saved_variables.setter
    def saved_variables(self, value) -> None:
        raise AttributeError("attribute 'saved_variables' of 'torch._C._FunctionBase' objects is not writable")

    @saved_variables.deleter
    def saved_variables(self) -> None:
        raise AttributeError("attribute 'saved_variables' of 'torch._C._FunctionBase' objects is not writable")


_ContextMethodMixin = FunctionCtx  # (PyTorch's old name of FunctionCtx, kept as an alias)


class _FunctionBase(metaclass=TorchNamed):
    """``torch._C._FunctionBase``, the C base of Function and of its nodes: here a name in their MROs only."""


_FunctionBase.__module__ = "minigrad._C"  # (prints as torch._C._FunctionBase; minigrad._C re-exports it)
_MISSING = object()


def _c_attrs(obj) -> dict:
    """The values of PyTorch's C attributes given to a node (or Function): kept out of its ``__dict__``."""
    try:
        return obj._c_attrs
    except AttributeError:
        obj._c_attrs = store = {}
        return store


class _CMember:
    """An attribute or method PyTorch's C class ``_FunctionBase`` defines (a getset or method descriptor): on the
    class it prints as PyTorch's (``<attribute 'needs_input_grad' of 'torch._C._FunctionBase' objects>``); on an
    object it is what the classes after _FunctionBase in its MRO give (FunctionCtx's properties, Node's methods),
    or the object's own attribute."""

    def __init__(self, name: str, kind: str) -> None:
        # (by class, weakly: a Function subclass made in a loop is not kept alive here)
        self.name, self.kind, self._inner = name, kind, weakref.WeakKeyDictionary()

    def __repr__(self) -> str:
        return f"<{self.kind} '{self.name}' of 'torch._C._FunctionBase' objects>"

    def inner(self, cls):
        """What the MRO of ``cls`` has for the name after _FunctionBase (_MISSING: nothing)."""
        found = self._inner.get(cls)
        if found is None:
            mro = real_mro(cls)   # (a node class's shown __mro__ has no Node)
            found = next((k.__dict__[self.name] for k in mro[mro.index(_FunctionBase) + 1:] if self.name in k.__dict__),
                         _MISSING)
            self._inner[cls] = found
        return found

    def store(self, obj) -> dict:
        """Where ``obj`` keeps the value it was given: a C attribute's is not in its ``__dict__`` (``vars(ctx)``
        shows only what the program set), a method's replacement is."""
        return vars(obj) if self.kind == "method" else _c_attrs(obj)

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        inner = self.inner(type(obj))
        if hasattr(type(inner), "__set__"):   # (a property: it decides)
            return inner.__get__(obj, type(obj))
        store = self.store(obj)
        if self.name in store:
            return store[self.name]
        if inner is _MISSING:
            raise AttributeError(f"'{type(obj).__name__}' object has no attribute '{self.name}'")
        return inner.__get__(obj, type(obj)) if hasattr(inner, "__get__") else inner

    def __call__(self, obj, *args, **kwargs):
        # (a method called on the class, ``type(node).name(node)``: the class's method, whatever obj set)
        return self.inner(type(obj)).__get__(obj, type(obj))(*args, **kwargs)

    def __set__(self, obj, value) -> None:
        inner = self.inner(type(obj))
        if hasattr(type(inner), "__set__"):
            inner.__set__(obj, value)
        else:
            self.store(obj)[self.name] = value

    def __delete__(self, obj) -> None:
        inner = self.inner(type(obj))
        if hasattr(type(inner), "__delete__"):
            inner.__delete__(obj)
        elif self.store(obj).pop(self.name, _MISSING) is _MISSING:
            raise AttributeError(self.name)


for _name in ("saved_tensors", "saved_variables", "_raw_saved_tensors", "next_functions", "to_save",
              "non_differentiable", "dirty_tensors", "saved_for_forward", "needs_input_grad", "requires_grad",
              "metadata", "_input_metadata", "materialize_grads", "_is_pure_view", "_materialize_non_diff_grads",
              "_compiled_autograd_backward_state"):
    setattr(_FunctionBase, _name, _CMember(_name, "attribute"))
for _name in ("name", "_sequence_nr", "_set_sequence_nr", "maybe_clear_saved_tensors", "_register_hook_dict",
              "register_hook", "register_prehook", "_get_compiled_autograd_symints"):
    setattr(_FunctionBase, _name, _CMember(_name, "method"))


class _HookMixin(metaclass=TorchNamed):
    """PyTorch's mixin of Function and its nodes: the helper that adds a hook to a hook dict."""

    @staticmethod
    def _register_hook(backward_hooks, hook):
        from collections import OrderedDict

        from .graph import RemovableHandle
        if backward_hooks is None:
            backward_hooks = OrderedDict()
        handle = RemovableHandle(backward_hooks)
        backward_hooks[handle.id] = hook
        return backward_hooks, handle


class BackwardCFunction(_FunctionBase, FunctionCtx, _HookMixin, Node, metaclass=FunctionNodeNamed):
    """The node of a custom Function: calls the user's backward."""

    # minigrad's own state of the node, out of its __dict__ (which holds only what the program put on ctx, as in
    # PyTorch, whose node keeps its state in C++); _c_attrs: the C attributes' values (see _CMember.store)
    __slots__ = ("_is_tensor_input", "_n_outputs", "_non_diff_slots", "_output_info", "_materialize_grads",
                 "_stored_tensors", "_jvp_saved", "_c_attrs")
    _forward_cls: type
    _runs_without_grads = True
    _meta_inputs = None   # (per input, whether it is a meta tensor: noted only while one exists; None: none is)

    @property
    def _materialize_non_diff_grads(self) -> bool:
        """ctx may set it False: None, not zeros, for the non-differentiable outputs' gradients."""
        return _c_attrs(self).get("_materialize_non_diff_grads", True)

    @_materialize_non_diff_grads.setter
    def _materialize_non_diff_grads(self, value: bool) -> None:
        _c_attrs(self)["_materialize_non_diff_grads"] = value

    def __call__(self, *args):
        # PyTorch's custom-function nodes cannot be called (their backward runs through the engine only)
        raise TypeError(f"'{type(self).__name__}' object is not callable")

    def __dir__(self):
        # PyTorch's names (those minigrad has) and what the program gave ctx: none of minigrad's internals
        return sorted({n for n in _FUNCTION_NODE_DIR if hasattr(type(self), n)}.union(
            n for n in vars(self) if n not in _CTX_INTERNALS))

    def _output_meta(self) -> tuple:
        # (a non-tensor output's slot: PyTorch's placeholder, an empty shape of the default dtype)
        from .. import _dtypes
        return tuple((tuple(info[0]), info[1].np) if info is not None else ((), _dtypes.get_default_dtype().np)
                     for info in self._output_info)

    def apply_jvp(self, *args):
        """The user's ``jvp`` run on the tangents given (as PyTorch's)."""
        return self._forward_cls.jvp(self, *args)

    def apply(self, *args):
        """``y.grad_fn.apply(g1, g2, ...)`` called by a program: as in PyTorch, the user's backward run on those
        arguments, and its result as it is (no checks: they belong to the engine's ``_apply``)."""
        cls = self._forward_cls
        if cls.backward is not Function.backward and cls.vjp is not Function.vjp:
            raise RuntimeError("Implementing both 'backward' and 'vjp' for a custom Function is not allowed. "
                               "You should only implement one of them.")
        return call_user(cls.vjp if cls.backward is Function.backward else cls.backward, self, *args)

    def _apply(self, grad_outputs: tuple) -> tuple:
        """The engine's call: the user's backward on the incoming gradients (None becomes zeros unless told not
        to), its result checked and matched to the inputs."""
        from .._creation import zeros
        cls = self._forward_cls
        if getattr(self, "_materialize_grads", True):
            # (PyTorch's ``ctx._materialize_non_diff_grads = False`` leaves None for the outputs that get no
            # gradient: those marked non-differentiable and those of integer dtypes)
            keep_none = () if self._materialize_non_diff_grads else self._non_diff_slots
            grad_outputs = tuple(
                zeros(info[0], dtype=info[1]) if g is None and info is not None and nr not in keep_none else g
                for nr, (g, info) in enumerate(zip(grad_outputs, self._output_info)))
        if cls.backward is not Function.backward and cls.vjp is not Function.vjp:
            raise RuntimeError("Implementing both 'backward' and 'vjp' for a custom Function is not allowed. You "
                               "should only implement one of them.")
        backward_fn = cls.vjp if cls.backward is Function.backward else cls.backward
        if _vmap_batched.LEGACY and _vmap_batched.LEGACY[-1]:   # (is_grads_batched: what it sees is unbatched)
            _vmap_batched.see_captured(backward_fn)
        result = call_user(backward_fn, self, *grad_outputs)  # (with the user's NumPy error state)
        if not isinstance(result, tuple):
            result = (result,)
        n_args = len(self._is_tensor_input)
        if len(result) != n_args:
            # PyTorch lets backward return extra trailing Nones, not fewer or more gradients.
            if len(result) > n_args and all(r is None for r in result[n_args:]):
                result = result[:n_args]
            else:
                raise RuntimeError(f"function {type(self).name(self)} returned an incorrect number of gradients "
                                   f"(expected {n_args}, got {len(result)})")
        grads = []
        from .._tensor import Tensor
        for i, (g, is_tensor) in enumerate(zip(result, self._is_tensor_input)):
            if not is_tensor:
                if g is not None:
                    raise RuntimeError(f"function {type(self).name(self)} returned a gradient different than None at "
                                       f"position {i + 1}, but the corresponding forward input was not a Variable")
                continue
            if g is not None and not isinstance(g, Tensor):
                raise RuntimeError(f"expected Variable or None (got {_c_type_name(g)})")
            if g is not None and not g.dtype.is_floating_point:
                _check_complex_grad(g, self._input_meta[len(grads)])
            grads.append(g)
        return tuple(grads)

    def _release_variables(self) -> None:
        """Free the saved tensors once backward has used them."""
        if getattr(self, "_stored_tensors", None) is not None:
            self._stored_tensors = "freed"

    @property
    def _raw_saved_tensors(self) -> tuple:
        """The SavedTensor objects behind ``saved_tensors`` (e.g. to ``register_hooks`` on one)."""
        saved = getattr(self, "_stored_tensors", None)
        if saved == "freed":
            raise RuntimeError(FREED_MESSAGE)
        return tuple(SavedTensor.undefined() if s is None else s for s in saved or ())

    def __repr__(self) -> str:
        # PyTorch's custom-function nodes are Python classes of torch.autograd.function.
        return f"<torch.autograd.function.{type(self).__name__} object at {hex(id(self))}>"


# dir() of a PyTorch custom Function's node (a BackwardCFunction), besides what ctx was given in forward.
_FUNCTION_NODE_DIR = (
    "__class__", "__delattr__", "__dict__", "__dir__", "__doc__", "__eq__", "__format__", "__ge__", "__getattribute__",
    "__getstate__", "__gt__", "__hash__", "__init__", "__init_subclass__", "__le__", "__lt__", "__module__", "__ne__",
    "__new__", "__reduce__", "__reduce_ex__", "__repr__", "__setattr__", "__sizeof__", "__str__", "__subclasshook__",
    "__weakref__", "_autograd_function_id", "_compiled_autograd_backward_state", "_compiled_autograd_key",
    "_forward_cls", "_get_compiled_autograd_symints", "_get_user_fn", "_input_metadata", "_is_pure_view",
    "_materialize_non_diff_grads", "_raw_saved_tensors", "_register_hook", "_register_hook_dict", "_sequence_nr",
    "_set_sequence_nr", "apply", "apply_boxed", "apply_jvp", "dirty_tensors", "mark_dirty", "mark_non_differentiable",
    "mark_shared_storage", "materialize_grads", "maybe_clear_saved_tensors", "metadata", "name", "needs_input_grad",
    "next_functions", "non_differentiable", "register_hook", "register_prehook", "requires_grad",
    "save_for_backward", "save_for_forward", "saved_for_forward", "saved_tensors", "saved_variables",
    "set_materialize_grads", "to_save")
_CTX_INTERNALS = frozenset({"_c_attrs", "_fake_leaves", "_input_meta", "_is_tensor_input", "_materialize_grads",
                            "_message", "_n_outputs", "_non_diff_slots", "_output_info", "_seq", "_stored_tensors",
                            "_jvp_saved", "_meta_inputs"})


class FunctionMeta(TorchNamed):
    """The metaclass of Function: gives each subclass its node class (both print under torch., as PyTorch's)."""

    def __init__(cls, name, bases, attrs):
        # Each Function subclass gets its own node class, named like PyTorch's ("ExpBackward").
        cls._backward_cls = type(name + "Backward", (BackwardCFunction,), {"_forward_cls": cls,
                                                                            "__module__": "torch.autograd.function"})
        super().__init__(name, bases, attrs)


class _SingleLevelFunction(_FunctionBase, FunctionCtx, _HookMixin, metaclass=FunctionMeta):
    """PyTorch's base of Function (the MRO a program prints: Function, _SingleLevelFunction, _FunctionBase,
    FunctionCtx, _HookMixin, object); Function holds the methods here."""


class Function(_SingleLevelFunction):
    """Base class for custom differentiable operations (see the module docstring)."""

    __repr__ = object_repr  # (an instance, which PyTorch warns about, prints as <torch.autograd.function.Function ...>)

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

    # torch.func.vmap support: PyTorch needs one of these. minigrad's vmap is a loop over slices: with
    # generate_vmap_rule forward runs once per slice; a ``vmap`` rule runs once on the whole batch
    # (func/_vmap.py's _RuleCalls).
    generate_vmap_rule = False

    @staticmethod
    def vmap(info, in_dims, *args):
        """Batching rule for ``torch.func.vmap`` (or set ``generate_vmap_rule = True``)."""
        raise NotImplementedError("To use autograd.Function with vmap, you must either override the vmap "
                                  "staticmethod or set generate_vmap_rule=True.")

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run forward and, if any input requires grad, record a ``<Name>Backward`` node."""
        if profiler._enabled[0]:
            with profiler._record_call(cls.__name__):
                return cls._apply(args, kwargs)
        return cls._apply(args, kwargs)

    @classmethod
    def _apply(cls, args, kwargs):
        from .._matmul import IN_VMAP
        from .._tensor import Tensor
        has_setup_context = cls.setup_context is not Function.setup_context
        if IN_VMAP[0]:
            _check_vmap_support(cls, has_setup_context)
        elif _TRANSFORMS_ACTIVE[0] and not has_setup_context:
            raise RuntimeError(_NEEDS_SETUP_CONTEXT)
        if has_setup_context and (kwargs or len(args) != _n_plain_params(cls.forward)):
            # As PyTorch: forward's defaults are filled in, so setup_context sees them.
            bound = _signature(cls.forward).bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = bound.args, bound.kwargs
        if kwargs:
            args = _kwargs_as_positional(cls.forward, args, kwargs, skip_ctx=not has_setup_context)
        ruled, below = None, _TRANSFORMS_ACTIVE[0]  # (the setup_context calls of the transforms under this call)
        if IN_VMAP[0] and cls.vmap is not Function.vmap:  # its own batching rule: called once per vmap, as PyTorch's
            from ..func._vmap import custom_function_rule
            ruled = custom_function_rule(cls, args)
            if ruled is not None:
                output, below = ruled
                if below is None:  # (no torch.func transform inside the vmap: the rule's result is the output)
                    return output
        node = cls._backward_cls.__new__(cls._backward_cls)
        Node.__init__(node)
        tensor_inputs = [a for a in args if isinstance(a, Tensor)]
        node._is_tensor_input = tuple(isinstance(a, Tensor) for a in args)
        node.needs_input_grad = tuple(isinstance(a, Tensor) and a._requires_grad for a in args)
        # forward runs without recording, and on plain values: tangents come from ``jvp`` below (forward grad mode
        # off, as in PyTorch: unpack_dual and printing show no tangent in it)
        suspended, forward_ad._suspended[0] = forward_ad._suspended[0], True
        fwd_enabled, forward_ad._fwd_enabled[0] = forward_ad._fwd_enabled[0], False
        # Inside vmap, a Function with its own vmap rule gets plain tensors in PyTorch (generate_vmap_rule: batched)
        batched = (_vmap_batched.DEPTH[0] and cls.vmap is not Function.vmap and not _vmap_batched.SUSPENDED[0]
                   and ruled is None)
        if batched:
            batched_levels = _vmap_batched.levels_of(*tensor_inputs)
            _vmap_batched.SUSPENDED[0] = True
        try:
            with grad_mode.no_grad():
                if has_setup_context:
                    if ruled is None:  # (else: the slice's example of the vmap rule's result, from above)
                        output = cls.forward(*args)
                    for _ in range(below):
                        _setup_context_below(cls, args, output)
                    cls.setup_context(node, args, output)
                else:
                    output = cls.forward(node, *args)
        finally:
            forward_ad._suspended[0] = suspended
            forward_ad._fwd_enabled[0] = fwd_enabled
            if batched:
                _vmap_batched.SUSPENDED[0] = False
        if batched:
            for o in output if isinstance(output, tuple) else (output,):
                if isinstance(o, Tensor):
                    _vmap_batched.mark(o, batched_levels)
        record = grad_mode.STATE.enabled and any(t._requires_grad for t in tensor_inputs)

        is_tuple = isinstance(output, tuple)
        outputs = list(output) if is_tuple else [output]
        dirty = node.dirty_tensors or ()
        # (PyTorch's messages end there: its C++ formats the argument's position and type into nothing)
        for d in dirty:   # (PyTorch's _mark_dirty bumps each dirty tensor's version first: before any error below,
            if not isinstance(d, Tensor):   # the leaf refusal included)
                raise RuntimeError("mark_dirty can only accept variables, but argument ")
            d._version_counter[0] += 1
        if any(not isinstance(n, Tensor) for n in node.non_differentiable or ()):
            raise RuntimeError("mark_non_differentiable only accepts variable arguments, but got ")
        # (under vmap, generate_vmap_rule runs forward and setup_context each in a vmap of their own: the input
        # setup_context marks is never the tensor forward returned, so PyTorch refuses any mark_dirty there)
        if any(not any(d is o for o in outputs) for d in dirty) or (
                dirty and IN_VMAP[0] and cls.generate_vmap_rule and _vmap_batched.levels_of(*tensor_inputs)):
            raise RuntimeError("Some elements marked as dirty during the forward method were not returned as output. "
                               "The inputs that are modified inplace must all be outputs of the Function.")
        originals = [o for o in outputs if isinstance(o, Tensor)]  # as returned: mark_* calls name these
        non_diff = node.non_differentiable or ()
        if record and any(not any(d is a for a in tensor_inputs) for d in dirty):
            import warnings
            warnings.warn("ctx.mark_dirty() received a tensor that was not an input. Only input Tensors that have "
                          "been mutated should be passed to ctx.mark_dirty(). (Triggered internally at "
                          "/__w/pytorch/pytorch/torch/csrc/autograd/custom_function.cpp:320.)", stacklevel=3)
        dirty_views = []  # their base's history becomes CopySlices(base history, this node)
        for i, o in enumerate(outputs):
            if not isinstance(o, Tensor):
                continue
            if any(o is d for d in dirty):
                if record and (any(o is n for n in non_diff) or not (o.dtype.is_floating_point or o.dtype.is_complex)):
                    # non-differentiable: PyTorch's set_history returns a detached alias of an input requiring grad
                    # (no leaf check, no rebase: the input keeps its history)
                    if o._requires_grad:
                        outputs[i] = o.detach()
                    continue
                # (a view made under no_grad has no grad_fn either: it is a leaf here, as in PyTorch; a view whose
                # grad_fn is regenerated lazily, after an earlier in-place write, is not: is_leaf reads grad_fn())
                if record and o._requires_grad and o._grad_fn is None and (
                        o._creation_meta is not None or o.grad_fn is None):
                    raise RuntimeError("a leaf Variable that requires grad has been used in an in-place operation.")
                if record and o._base is not None:
                    _check_dirty_view(o, len(originals))
                    dirty_views.append(o)
                if o._requires_grad and not record:
                    outputs[i] = o.detach()  # not recorded (no_grad): PyTorch returns a detached alias
            elif any(o is a for a in tensor_inputs):
                # An input returned as is becomes a new output tensor: a view, or (when it gets no gradient
                # from this node yet requires grad) a detached alias, as in PyTorch.
                no_grad_here = not record or any(o is n for n in non_diff)
                outputs[i] = o.detach() if o._requires_grad and no_grad_here else _alias(o)
        tensor_outputs = [o for o in outputs if isinstance(o, Tensor)]
        # A view made in forward (which runs in no_grad mode) is a custom Function's view for PyTorch even when
        # it gets no gradient from this node (not recorded, or non-differentiable): changing it in place later
        # gets the custom Function's message (PyTorch's IN_CUSTOM_FUNCTION; recorded outputs are marked below)
        for o, orig in zip(tensor_outputs, originals):
            meta = o._creation_meta
            if (isinstance(meta, tuple) and meta[0] == "no_grad" and not any(orig is d for d in dirty)
                    and not any(orig is a for a in tensor_inputs)):
                o._creation_meta = "custom_function"

        if record:
            node._set_edges([t._edge() for t in tensor_inputs])
            node._input_meta = tuple((t._data.shape, t._data.dtype) for t in tensor_inputs)
            if _meta.METAS:  # (which inputs are on the meta device: the engine checks the devices backward returns)
                node._meta_inputs = tuple(_meta.is_meta(t) for t in tensor_inputs)
            # One gradient slot per output, as in PyTorch: a non-tensor output's slot always gets None.
            node._n_outputs = len(outputs)
            node._output_info = tuple((o.shape, o.dtype) if isinstance(o, Tensor) else None for o in outputs)
            tensor_nrs = [nr for nr, o in enumerate(outputs) if isinstance(o, Tensor)]
            n_diff = 0
            node._non_diff_slots = set()
            for nr, o, orig in zip(tensor_nrs, tensor_outputs, originals):
                if any(orig is n for n in non_diff) or not (o.dtype.is_floating_point or o.dtype.is_complex):
                    node._non_diff_slots.add(nr)
                    continue
                n_diff += 1
                old_fn = o._grad_fn
                o._requires_grad = True
                o._grad_fn = node
                o._output_nr = nr
                o._backward_hooks = None  # (hooks registered before stay on the old grad_fn, as in PyTorch)
                if any(orig is d for d in dirty):
                    o._grad = None   # (PyTorch's set_history resets a modified input's .grad: retained, it starts anew)
                if o._retains_grad:  # a dirty input's retain_grad hook follows it here, as in PyTorch
                    o._move_retains_grad(old_fn)
                if o._base is not None:
                    # (its history is set now, as PyTorch's set_gradient_edge notes the view's version: in-place
                    # changes made inside forward are not a later modification of the base)
                    o._view_version = o._version_counter[0]
                    if not any(o is d for d in dirty):
                        o._creation_meta = "custom_function"  # in place, it would bypass this node's backward
            if n_diff > 1:  # PyTorch: views among several differentiable outputs get the multiple-views error
                for o in tensor_outputs:
                    if o._creation_meta == "custom_function":
                        o._creation_meta = "multi_output"
            to_save = node.to_save
            if to_save is not None and not isinstance(to_save, tuple):  # (ctx.to_save set by hand)
                raise RuntimeError("autograd internal error: to_save attribute is expected to be a tuple but is ")
            if to_save is not None:
                for i, t in enumerate(to_save):
                    if t is not None and not isinstance(t, Tensor):
                        raise TypeError("save_for_backward can only save variables, but argument "
                                        f"{i} is of type {_c_type_name(t)}")
                # (an output this node is not the grad_fn of, a non-differentiable one, is saved as PyTorch saves
                # a leaf: the tensor itself, and a later in-place change names no producer)
                node._stored_tensors = [
                    None if t is None else SavedTensor(t, is_output=any(t is o and o._grad_fn is node
                                                                         for o in tensor_outputs))
                    for t in to_save]
            if anomaly_mode._enabled[0]:
                anomaly_mode._record_trace(node)
            for view in dirty_views:
                _rebase_dirty_view(view, node)
        if forward_ad._level[0] is not None:
            forward_ad._function_jvp(cls, node, args, outputs, originals)
        # Used up: PyTorch clears them (and a dirty output kept here would be a cycle through its grad_fn).
        for name in ("to_save", "dirty_tensors", "non_differentiable", "saved_for_forward"):
            node._c_attrs.pop(name, None)
        return tuple(outputs) if is_tuple else outputs[0]


def _check_complex_grad(grad, meta) -> None:
    """PyTorch refuses a non-floating gradient (complex, integer) unless it is complex exactly when the input is:
    a complex gradient for a real input (built-in formulas take the real part themselves; the engine does that
    for minigrad's), an integer one for a complex input. A wrong shape is reported first."""
    import numpy as np
    shape, dtype = meta
    if (dtype.kind == "c") == grad.dtype.is_complex:
        return
    try:
        expandable = np.broadcast_shapes(shape, grad._data.shape) == grad._data.shape
    except ValueError:
        expandable = False
    if expandable:
        raise RuntimeError("Expected isFloatingType(grad.scalar_type()) || (input_is_complex == grad_is_complex) to "
                           "be true, but got false.  (Could this error message be improved?  If so, please report an "
                           "enhancement request to PyTorch.)")


# > 0 while a torch.func transform (grad, vjp, jvp ...) runs the user's function (func/_transforms.py counts; per
# thread, as PyTorch's functorch levels)
_TRANSFORMS_ACTIVE = PerThreadFlag(0)
_NEEDS_SETUP_CONTEXT = ("In order to use an autograd.Function with functorch transforms (vmap, grad, jvp, jacrev, "
                        "...), it must override the setup_context staticmethod. For more details, please see "
                        "https://pytorch.org/docs/main/notes/extending.func.html")


def _check_vmap_support(cls, has_setup_context: bool) -> None:
    """PyTorch's errors for a Function called under ``torch.func.vmap`` that cannot be batched."""
    if not has_setup_context:
        raise RuntimeError(_NEEDS_SETUP_CONTEXT)
    has_rule = cls.vmap is not Function.vmap
    if cls.generate_vmap_rule and has_rule:
        raise RuntimeError(f"You tried to vmap over {cls.__name__}, but it has both generate_vmap_rule=True and an "
                           "overridden vmap staticmethod. Please set generate_vmap_rule=False or delete the overridden "
                           "vmap staticmethod to avoid ambiguity. For more details, please see "
                           "https://pytorch.org/docs/main/notes/extending.func.html")
    if not cls.generate_vmap_rule and not has_rule:
        raise RuntimeError(f"You tried to vmap over {cls.__name__}, but it does not have vmap support. Please "
                           "override and implement the vmap staticmethod or set generate_vmap_rule=True. For more "
                           "details, please see https://pytorch.org/docs/main/notes/extending.func.html")


@functools.cache
def _signature(forward) -> inspect.Signature:
    return inspect.signature(forward)  # (slow to compute: once per forward function)


def _setup_context_below(cls, args: tuple, output) -> None:
    """setup_context on a throwaway ctx, as each functorch level under the current one runs it in PyTorch."""
    # PyTorch's grad/vjp/jvp wrap the Function once per level; every level's wrapper (and the plain call at
    # the bottom) calls setup_context, innermost first, with that level's tensors (here: detached ones).
    from .._tensor import Tensor
    plain = tuple(a.detach() if isinstance(a, Tensor) else a for a in args)
    if isinstance(output, tuple):
        output = tuple(o.detach() if isinstance(o, Tensor) else o for o in output)
    elif isinstance(output, Tensor):
        output = output.detach()
    ctx = cls._backward_cls.__new__(cls._backward_cls)
    Node.__init__(ctx)
    # (at the bottom, the plain call, no input requires grad: the transforms' tensors are wrapped above it;
    # PyTorch's levels in between see their own wrapped inputs requiring grad, here the same False)
    ctx.needs_input_grad = (False,) * len(args)
    cls.setup_context(ctx, plain, output)


@functools.cache
def _n_plain_params(forward) -> int:
    """How many parameters ``forward`` has if all are plain positional ones (-1 otherwise): the calls that
    give exactly that many arguments need no binding."""
    params = _signature(forward).parameters.values()
    plain = all(p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD for p in params)
    return len(params) if plain else -1


def _kwargs_as_positional(forward, args: tuple, kwargs: dict, skip_ctx: bool) -> tuple:
    """Keyword arguments of ``apply`` placed at their position in ``forward``'s signature, as PyTorch's C++ does.

    The inputs are positional only: a keyword must name a positional parameter, and every position up to
    the last one given must be filled (PyTorch does not fill in defaults here).
    """
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    names = [p.name for p in _signature(forward).parameters.values() if p.kind in kinds]
    names = names[1:] if skip_ctx else names
    placed = {}
    for key, value in kwargs.items():
        if key not in names:
            raise TypeError(f"forward() got an unexpected keyword argument '{key}'")
        i = names.index(key)
        if i < len(args):
            raise TypeError(f"forward() got multiple values for argument '{key}'")
        placed[i] = value
    for i in range(len(args), max(placed) + 1):
        if i not in placed:
            raise TypeError(f"forward() missing required argument: '{names[i]}' (position {i})")
    return tuple(args) + tuple(placed[i] for i in range(len(args), max(placed) + 1))


def _check_dirty_view(view, n_outputs: int) -> None:
    """PyTorch's errors for a Function that modifies a view in place (see ``mark_dirty``)."""
    from .._dispatch import _check_inplace
    _check_inplace(view, True)  # e.g. a view made under no_grad
    if n_outputs > 1:
        raise RuntimeError(
            "If your Function modifies inplace an input that is a view of another Tensor, your Function cannot "
            "return more than one Tensor. This is not supported by the current autograd engine. You should either "
            "make sure the input is not a view (using .clone() for example) or make your Function only return one "
            "Tensor (potentially splitting it into two Functions: one doing the inplace that returns a single Tensor "
            "and a second one that does the other operations). You can ask on the forum "
            "https://discuss.pytorch.org/ if you need help to do this change.")


def _rebase_dirty_view(view, node) -> None:
    """A view modified in place by ``node``: its base's history becomes CopySlices, as for a built-in op."""
    from .._dispatch import CopySlices
    base = view._base
    base._grad_fn, base._output_nr, base._requires_grad = CopySlices(base, view._view_fn, node, view), 0, True
    base._view_version = base._version_counter[0]
    view._grad_fn = None  # regenerated (AsStridedBackward0) from the base when next read
    view._view_version = -1


def _alias(t):
    """A new tensor viewing ``t``'s storage (what PyTorch returns for an input passed through)."""
    from .._tensor import Tensor
    out = Tensor._make(t._data.view())
    out._view_base = t._base if t._base is not None else t
    out._version_counter = t._version_counter
    out._view_version = t._version_counter[0]   # (its grad_fn is refused once the input changes in place)
    return out


class InplaceFunction(Function):
    """A Function that may work in place (``inplace=True``), as torch.autograd.function.InplaceFunction."""
    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace


class NestedIOFunction(Function):
    """The legacy Function with nested inputs (``forward_extended``): only its name, as PyTorch 2's cannot run."""

    def _do_forward(self, *input):
        """Flatten the nested inputs, then fail as PyTorch 2's does (its base class lost ``_do_forward``)."""
        self._nested_input = input
        _check_nested_tensors(input)
        raise AttributeError("'super' object has no attribute '_do_forward'")

    __call__ = _do_forward

    def forward_extended(self, *input):
        """User defined forward."""
        raise NotImplementedError

    def backward_extended(self, *grad_output):
        """User defined backward."""
        raise NotImplementedError


def _check_nested_tensors(obj) -> None:
    """PyTorch's ``_iter_tensors`` walk: tensors in (nested) lists, tuples and dict values; None skipped."""
    from .._tensor import Tensor
    if isinstance(obj, Tensor) or obj is None:
        return
    if isinstance(obj, (list, tuple, dict)):
        for o in obj.values() if isinstance(obj, dict) else obj:
            _check_nested_tensors(o)
        return
    from .. import typename
    raise ValueError(f"Auto nesting doesn't know how to process an input object of type {typename(obj)}. "
                     "Accepted types: Tensors, or lists/tuples of them")


def once_differentiable(fn):
    """Decorate a backward that is not itself differentiable (it runs with grad mode off)."""
    @functools.wraps(fn)
    def wrapper(ctx, *args):
        from .._tensor import Tensor
        with grad_mode.no_grad():
            outputs = fn(ctx, *args)
        if not grad_mode.is_grad_enabled() or not any(isinstance(a, Tensor) and a.requires_grad for a in args):
            return outputs
        # Differentiating these gradients (create_graph) must fail, but only if someone tries: as PyTorch,
        # they hang from an Error node that raises when reached.
        return _with_delayed_error(outputs)
    return wrapper


class _DelayedError(Node, metaclass=CNodeNamed):   # (a C++ class in PyTorch: see CNodeNamed)
    """PyTorch's DelayedError: a node that raises as soon as a backward pass reaches it."""

    __slots__ = ("_n_outputs", "_message", "_fake_leaves")

    def name(self) -> str:
        """PyTorch's node name."""
        return "torch::autograd::Error"

    def _apply(self, grad_outputs: tuple) -> tuple:
        """Refuse."""
        raise RuntimeError(getattr(self, "_message", None)
                           or "trying to differentiate twice a function that was marked with @once_differentiable")


# type(node) prints <class 'Error'>, as PyTorch's
_DelayedError.__module__, _DelayedError.__name__, _DelayedError.__qualname__ = "builtins", "Error", "Error"


def _with_delayed_error(outputs, message=None, keep_graph=False):
    """Aliases of ``outputs`` whose grad_fn is a _DelayedError (linked to a fresh leaf per output, or with
    ``keep_graph`` to the outputs' own graph, as PyTorch's DelayedError in a derivative formula)."""
    from .._tensor import Tensor
    is_tuple = isinstance(outputs, tuple)
    outputs = outputs if is_tuple else (outputs,)
    node = _DelayedError()
    # PyTorch's Error node draws a sequence number like any node but reports (and is ordered by) UINT64_MAX, as
    # AccumulateGrad: a backward pass runs it, and raises, as soon as it is ready, before older nodes still queued
    node._seq = _RUNS_FIRST
    node._n_outputs = len(outputs)
    node._message = message
    node._fake_leaves = not keep_graph  # (see func/_transforms.py's _Level.reaches_outside)
    edges, metas, results = [], [], []
    for i, v in enumerate(outputs):
        if v is None:
            edges.append((None, 0))
            metas.append(((), None))
            results.append(None)
            continue
        if keep_graph:
            edges.append(v._edge())
        else:
            leaf = Tensor._make(v._data)
            leaf._requires_grad = True
            edges.append(leaf._edge())
        metas.append((v._data.shape, v._data.dtype))
        out = Tensor._make(v._data)
        out._requires_grad, out._grad_fn, out._output_nr = True, node, i
        results.append(out)
    node._set_edges(edges)
    node._input_meta = tuple(metas)
    return tuple(results) if is_tuple else results[0]
