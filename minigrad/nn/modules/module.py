"""Module: the base class of layers — it registers parameters, buffers and sub-modules by assignment."""
from __future__ import annotations

import functools
import warnings
import weakref
from collections import OrderedDict, namedtuple
from typing import TypeVar

from ... import _meta, _random
from ..._class_names import TorchNamed
from ..._tensor import Tensor
from ...autograd.grad_mode import no_grad
from ...autograd.graph import RemovableHandle, _add_hook, _HookDict
from ..parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter, _reset_grad
from ._backward_hook import BackwardHook


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns: the keys it did not match."""

    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


# Global hooks, common to every module (torch.nn.modules.module.register_module_*): in every call they run
# BEFORE the module's own hooks of the same kind.
_UNINITIALIZED = (UninitializedParameter, UninitializedBuffer)


class _WrappedHook(metaclass=TorchNamed):
    """A load_state_dict pre-hook as PyTorch stores it: the function, called with its module first when
    registered ``with_module`` (held weakly, so the module's hook dict does not keep it alive)."""

    def __init__(self, hook, module: Module | None = None) -> None:
        self.hook = hook
        functools.update_wrapper(self, hook)
        self.with_module = False
        if module is not None:
            self.module = weakref.ref(module)
            self.with_module = True

    def __call__(self, *args, **kwargs):
        if self.with_module:
            module = self.module()
            if module is None:
                raise RuntimeError("You are trying to call the hook of a dead Module!")
            return self.hook(module, *args, **kwargs)
        return self.hook(*args, **kwargs)

    def __getstate__(self) -> dict:   # (deepcopy and pickling: the module goes in strongly)
        result = {"hook": self.hook, "with_module": self.with_module}
        if self.with_module:
            result["module"] = self.module()
        return result

    def __setstate__(self, state: dict) -> None:
        self.hook = state["hook"]
        self.with_module = state["with_module"]
        if self.with_module:
            if state["module"] is None:
                raise RuntimeError("You are trying to revive the hook of a dead Module!")
            self.module = weakref.ref(state["module"])

    def __repr__(self) -> str:
        return f"<torch.nn.modules.module._WrappedHook object at {hex(id(self))}>"


_global_buffer_registration_hooks: _HookDict = _HookDict()
_global_module_registration_hooks: _HookDict = _HookDict()
_global_parameter_registration_hooks: _HookDict = _HookDict()
_global_forward_pre_hooks: _HookDict = _HookDict()
_global_forward_hooks: _HookDict = _HookDict()
_global_forward_hooks_with_kwargs: set = set()   # ids of global forward hooks called with kwargs
_global_forward_hooks_always_called: set = set()   # ids of global forward hooks run even when a forward fails
_global_backward_pre_hooks: _HookDict = _HookDict()
_global_backward_hooks: _HookDict = _HookDict()
_global_is_full_backward_hook: bool | None = None   # full or legacy: the global backward hooks are one kind


def register_module_buffer_registration_hook(hook) -> RemovableHandle:
    """Call ``hook(module, name, buffer)`` whenever any module registers a buffer; a returned tensor replaces it."""
    return _add_hook(_global_buffer_registration_hooks, hook)


def register_module_module_registration_hook(hook) -> RemovableHandle:
    """Call ``hook(module, name, submodule)`` whenever any module registers a child; a returned module replaces it."""
    return _add_hook(_global_module_registration_hooks, hook)


def register_module_parameter_registration_hook(hook) -> RemovableHandle:
    """Call ``hook(module, name, param)`` whenever any module registers a parameter; a returned one replaces it."""
    return _add_hook(_global_parameter_registration_hooks, hook)


def register_module_forward_pre_hook(hook) -> RemovableHandle:
    """Call ``hook(module, args)`` before the forward of every module (before its own pre-hooks)."""
    return _add_hook(_global_forward_pre_hooks, hook)


def register_module_forward_hook(hook, *, with_kwargs: bool = False, always_call: bool = False) -> RemovableHandle:
    """Call ``hook(module, args, output)`` after the forward of every module (before its own forward hooks)."""
    handle = _add_hook(_global_forward_hooks, hook)
    if with_kwargs:
        _global_forward_hooks_with_kwargs.add(handle.id)
    if always_call:
        _global_forward_hooks_always_called.add(handle.id)
    return handle


def register_module_full_backward_pre_hook(hook) -> RemovableHandle:
    """Call ``hook(module, grad_output)`` in the backward of every module (before its own backward pre-hooks)."""
    return _add_hook(_global_backward_pre_hooks, hook)


def _add_global_backward_hook(hook, full: bool) -> RemovableHandle:
    global _global_is_full_backward_hook
    if _global_is_full_backward_hook is (not full):
        raise RuntimeError("Cannot use both regular backward hooks and full backward hooks as a global Module hook. "
                           "Please use only one of them.")
    _global_is_full_backward_hook = full
    return _add_hook(_global_backward_hooks, hook)


def register_module_full_backward_hook(hook) -> RemovableHandle:
    """Call ``hook(module, grad_input, grad_output)`` in the backward of every module (before its own hooks)."""
    return _add_global_backward_hook(hook, True)


def register_module_backward_hook(hook) -> RemovableHandle:
    """The deprecated global backward hook (on the last node of each module's forward, as register_backward_hook)."""
    return _add_global_backward_hook(hook, False)


def _run_registration_hooks(hooks: _HookDict, module, name: str, value):
    """A global registration hook may return a replacement for the value being registered."""
    for hook in list(hooks.values()):
        output = hook(module, name, value)
        if output is not None:
            value = output
    return value


def _addindent(s: str, num_spaces: int) -> str:
    """Indent every line but the first (how nested modules print)."""
    lines = s.split("\n")
    if len(lines) == 1:
        return s
    return lines[0] + "\n" + "\n".join(num_spaces * " " + line for line in lines[1:])


def _forward_unimplemented(self, *input):
    """The computation of the module; every subclass defines it."""
    raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')


_NO_CODE = (lambda: None).__code__


def _meta_device_init(init):
    """``init`` of a layer taking ``device=``: built with ``device='meta'``, the layer is built with its tensors made
    on the meta device (``_meta.BUILDING``), drawing nothing from the generator (PyTorch's meta initializers draw
    nothing), and what it made otherwise is moved to the meta device."""
    @functools.wraps(init)
    def __init__(self, *args, **kwargs):
        if _meta.BUILDING[0] or not _meta.requested(kwargs):   # (device='meta', or the default device)
            return init(self, *args, **kwargs)
        state, default = _random.default_generator.get_state(), _meta._DEFAULT[0]
        _meta.BUILDING[0], _meta._DEFAULT[0] = True, None
        try:
            init(self, *args, **dict(kwargs, device=None))
        finally:
            _meta.BUILDING[0], _meta._DEFAULT[0] = False, default
            _random.default_generator.set_state(state)
        self.to("meta")
    return __init__


class Module(metaclass=TorchNamed):
    """Base class for all neural-network modules; subclasses define ``forward``."""

    training: bool
    dump_patches: bool = False    # (PyTorch's flags of old: kept as the class attributes it has)
    call_super_init: bool = False
    T_destination = TypeVar("T_destination", bound=dict)   # (the type of state_dict's ``destination``)
    _version: int = 1  # the state-dict format version, saved in state_dict()._metadata (BatchNorm's is 2)

    def __init__(self, *args, **kwargs) -> None:
        if kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() got an unexpected keyword argument "
                            f"'{next(iter(kwargs))}'")
        if args:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument but {len(args) + 1} were "
                            "given")
        # object.__setattr__: our own __setattr__ needs these dicts to exist already. PyTorch's attributes in its
        # order (vars(module) shows them); the parameter / buffer / module tables are plain dicts, as PyTorch's,
        # the hook tables ordered ({handle id: hook}, or {handle id: True} for the hooks' flags)
        set_ = object.__setattr__
        set_(self, "training", True)
        set_(self, "_parameters", {})
        set_(self, "_buffers", {})
        set_(self, "_non_persistent_buffers_set", set())
        set_(self, "_backward_pre_hooks", OrderedDict())
        set_(self, "_backward_hooks", OrderedDict())
        set_(self, "_is_full_backward_hook", None)   # (None until a backward hook says full or legacy)
        set_(self, "_forward_hooks", OrderedDict())
        set_(self, "_forward_hooks_with_kwargs", OrderedDict())
        set_(self, "_forward_hooks_always_called", OrderedDict())
        set_(self, "_forward_pre_hooks", OrderedDict())
        set_(self, "_forward_pre_hooks_with_kwargs", OrderedDict())
        set_(self, "_state_dict_hooks", OrderedDict())
        set_(self, "_state_dict_pre_hooks", OrderedDict())
        set_(self, "_load_state_dict_pre_hooks", OrderedDict())
        set_(self, "_load_state_dict_post_hooks", OrderedDict())
        set_(self, "_modules", {})

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if (init is not None and cls.__module__.startswith("minigrad.")
                and "device" in getattr(init, "__code__", _NO_CODE).co_varnames):
            cls.__init__ = _meta_device_init(init)   # (a layer of ours taking PyTorch's ``device=`` keyword)

    # ---- calling ------------------------------------------------------------------------------
    forward = _forward_unimplemented  # (PyTorch's name: ``print(nn.Module.forward)`` shows it)

    def __call__(self, *args, **kwargs):
        if not (self._forward_pre_hooks or self._forward_hooks or self._backward_hooks or self._backward_pre_hooks
                or _global_forward_pre_hooks or _global_forward_hooks or _global_backward_hooks
                or _global_backward_pre_hooks):
            return self.forward(*args, **kwargs)   # (no hook anywhere: PyTorch's fast path too)
        # PyTorch's _call_impl: the backward hooks of this call are read first (a forward pre-hook that registers
        # one does not change this call), then the forward pre-hooks, the forward, the forward hooks. When any of
        # it raises, the forward hooks registered with ``always_call`` that have not run yet still run (global
        # ones first; with the arguments as the pre-hooks left them, and the output if there is one).
        pre_kwargs = self.__dict__.get("_forward_pre_hooks_with_kwargs", ())
        with_kwargs = self.__dict__.get("_forward_hooks_with_kwargs", ())
        always = self.__dict__.get("_forward_hooks_always_called", ())
        result = None
        called = set()   # (the always_call hooks that ran before the error)
        try:
            full_hooks = legacy_hooks = backward_pre_hooks = ()
            if self._backward_pre_hooks or _global_backward_pre_hooks:
                backward_pre_hooks = [*_global_backward_pre_hooks.values(), *self._backward_pre_hooks.values()]
            if self._backward_hooks or _global_backward_hooks:
                full_hooks, legacy_hooks = self._get_backward_hooks()
            for hook_id, hook in (*_global_forward_pre_hooks.items(), *self._forward_pre_hooks.items()):
                if hook_id in pre_kwargs:
                    out = hook(self, args, kwargs)
                    if out is not None:
                        if not (isinstance(out, tuple) and len(out) == 2):
                            raise RuntimeError("forward pre-hook must return None or a tuple of (new_args, "
                                               f"new_kwargs), but got {out}.")
                        args, kwargs = out
                    continue
                out = hook(self, args)
                if out is not None:
                    args = out if isinstance(out, tuple) else (out,)
            bw_hook = None
            if full_hooks or backward_pre_hooks:
                bw_hook = BackwardHook(self, full_hooks, backward_pre_hooks)
                args = bw_hook.setup_input_hook(args)
            result = self.forward(*args, **kwargs)
            for hook_id, hook in (*_global_forward_hooks.items(), *self._forward_hooks.items()):
                if hook_id in always or hook_id in _global_forward_hooks_always_called:
                    called.add(hook_id)
                if hook_id in with_kwargs or hook_id in _global_forward_hooks_with_kwargs:
                    out = hook(self, args, kwargs, result)
                else:
                    out = hook(self, args, result)
                if out is not None:
                    result = out
            if bw_hook is not None:
                if not isinstance(result, (Tensor, tuple)):
                    # (no stacklevel, as PyTorch's _call_impl: the warning names this file, not the caller's line)
                    warnings.warn("For backward hooks to be called, module output should be a Tensor or a tuple of "
                                  f"Tensors but received {type(result)}", stacklevel=1)
                result = bw_hook.setup_output_hook(result)
            if legacy_hooks:
                self._attach_legacy_backward_hooks(args, result, legacy_hooks)
            return result
        except Exception:
            for hook_id, hook in list(_global_forward_hooks.items()):
                if hook_id in _global_forward_hooks_always_called and hook_id not in called:
                    try:
                        out = hook(self, args, result)
                        result = result if out is None else out
                    except Exception as e:
                        warnings.warn("global module forward hook with ``always_call=True`` raised an exception "
                                      f"that was silenced as another error was raised in forward: {str(e)}",
                                      stacklevel=2)
            for hook_id, hook in list(self._forward_hooks.items()):
                if hook_id in always and hook_id not in called:
                    try:
                        out = hook(self, args, kwargs, result) if hook_id in with_kwargs else hook(self, args, result)
                        result = result if out is None else out
                    except Exception as e:
                        warnings.warn("module forward hook with ``always_call=True`` raised an exception that was "
                                      f"silenced as another error was raised in forward: {str(e)}", stacklevel=2)
            raise

    def _get_backward_hooks(self) -> tuple[list, list]:
        """(full backward hooks, legacy backward hooks) for a call: the global ones first, then the module's."""
        full: list = []
        legacy: list = []
        if _global_backward_hooks:
            (full if _global_is_full_backward_hook else legacy).extend(_global_backward_hooks.values())
        if self._backward_hooks:
            is_full = self.__dict__.get("_is_full_backward_hook")
            (legacy if is_full is False else full).extend(self._backward_hooks.values())
        return full, legacy

    def _attach_legacy_backward_hooks(self, args, output, hooks) -> None:
        """register_backward_hook's hooks: on the node that made the (first) output, with PyTorch's warnings."""
        var = output
        while not isinstance(var, Tensor):
            var = next(v for v in var.values() if isinstance(v, Tensor)) if isinstance(var, dict) else var[0]
        grad_fn = var.grad_fn
        if grad_fn is None:
            return
        for hook in hooks:
            grad_fn.register_hook(lambda grad_input, grad_output, hook=hook: hook(self, grad_input, grad_output))
        _warn_legacy_backward_hook(args, output, grad_fn)

    def register_full_backward_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """Call ``hook(module, grad_input, grad_output)`` once the gradients of the inputs are computed."""
        if self.__dict__.get("_is_full_backward_hook") is False:
            raise RuntimeError("Cannot use both regular backward hooks and full backward hooks on a single Module. "
                               "Please use only one of them.")
        object.__setattr__(self, "_is_full_backward_hook", True)
        handle = _add_hook(self._backward_hooks, hook)
        if prepend:
            self._backward_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_backward_hook(self, hook) -> RemovableHandle:
        """The deprecated backward hook: ``hook(module, grad_input, grad_output)`` with the gradients of the last
        node of the forward (not the module's inputs; prefer register_full_backward_hook)."""
        if self.__dict__.get("_is_full_backward_hook") is True:
            raise RuntimeError("Cannot use both regular backward hooks and full backward hooks on a single Module. "
                               "Please use only one of them.")
        object.__setattr__(self, "_is_full_backward_hook", False)
        return _add_hook(self._backward_hooks, hook)

    def register_full_backward_pre_hook(self, hook, prepend: bool = False) -> RemovableHandle:
        """Call ``hook(module, grad_output)`` when the outputs' gradients arrive; a returned tuple replaces them."""
        handle = _add_hook(self._backward_pre_hooks, hook)
        if prepend:
            self._backward_pre_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_forward_hook(self, hook, *, prepend: bool = False, with_kwargs: bool = False,
                              always_call: bool = False) -> RemovableHandle:
        """Call ``hook(module, args, output)`` after every forward (``hook(module, args, kwargs, output)`` with
        ``with_kwargs``); a returned value replaces the output (``always_call``: also when the forward fails)."""
        handle = self._add_forward_hook(self._forward_hooks, hook, prepend, with_kwargs,
                                        self.__dict__.setdefault("_forward_hooks_with_kwargs", OrderedDict()))
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        return handle

    def register_forward_pre_hook(self, hook, *, prepend: bool = False, with_kwargs: bool = False) -> RemovableHandle:
        """Call ``hook(module, args)`` before every forward (``hook(module, args, kwargs)`` with ``with_kwargs``,
        returning None or ``(args, kwargs)``); a returned value replaces the arguments."""
        return self._add_forward_hook(self._forward_pre_hooks, hook, prepend, with_kwargs,
                                      self.__dict__.setdefault("_forward_pre_hooks_with_kwargs", OrderedDict()))

    def _add_forward_hook(self, hooks, hook, prepend: bool, with_kwargs: bool, kwargs_flags) -> RemovableHandle:
        # (the handle also clears the hook's flags: with_kwargs, and always_call of a forward hook)
        extra = [kwargs_flags] if hooks is self._forward_pre_hooks else [
            kwargs_flags, self.__dict__.setdefault("_forward_hooks_always_called", OrderedDict())]
        handle = _add_hook(hooks, hook, extra_dict=extra)
        if prepend:
            hooks.move_to_end(handle.id, last=False)
        if with_kwargs:
            kwargs_flags[handle.id] = True
        return handle

    # ---- attributes: assignment registers parameters, buffers and sub-modules ------------------
    def __setattr__(self, name: str, value) -> None:
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name, keep=self._parameters)   # a replaced parameter keeps its place in the order
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        elif isinstance(value, Module):
            if self.__dict__.get("_modules") is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name, keep=self._modules)
            self._modules[name] = _run_registration_hooks(_global_module_registration_hooks, self, name, value)
        elif self.__dict__.get("_modules") is not None and name in self._modules:
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as child module '{name}' "
                                "(torch.nn.Module or None expected)")
            self._modules[name] = _run_registration_hooks(_global_module_registration_hooks, self, name, value)
        elif isinstance(value, Buffer):
            if self.__dict__.get("_buffers") is None:
                raise AttributeError("cannot assign buffer before Module.__init__() call")
            self._forget(name, keep=self._buffers)   # (a replaced buffer keeps its place in the order)
            self.register_buffer(name, value, persistent=value.persistent)
        elif self.__dict__.get("_buffers") is not None and name in self._buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{_typename(value)}' as buffer '{name}' "
                                "(torch.nn.Buffer, torch.Tensor or None expected)")
            self._buffers[name] = _run_registration_hooks(_global_buffer_registration_hooks, self, name, value)
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name: str, keep=None) -> None:
        for d in (self.__dict__, self._parameters, self._buffers, self._modules):
            if d is not keep:
                d.pop(name, None)
        self._non_persistent_buffers_set.discard(name)

    def __getattr__(self, name: str):
        # Only called when normal lookup fails: look in the registries.
        d = self.__dict__
        for registry in ("_parameters", "_buffers", "_modules"):
            if registry in d and name in d[registry]:
                return d[registry][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for registry in (self._parameters, self._buffers, self._modules):
            if name in registry:
                del registry[name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self):
        # (PyTorch's: the class's names, the instance's, its parameters, submodules and buffers, without the names
        # that are no Python identifier, such as a Sequential's "0", "1")
        keys = [*dir(self.__class__), *self.__dict__, *self._parameters, *self._modules, *self._buffers]
        return sorted(k for k in keys if not k[0].isdigit())

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Add a parameter (or a None placeholder) under ``name``."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"parameter name should be a string. Got {type(name).__name__}")
        if "." in name:
            raise KeyError('parameter name can\'t contain "."')
        if name == "":
            raise KeyError('parameter name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{_typename(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        if param is not None:   # (PyTorch does not tell the hooks about a None placeholder)
            param = _run_registration_hooks(_global_parameter_registration_hooks, self, name, param)
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Add a tensor that is state but not a parameter (saved in state_dict if persistent)."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        if not isinstance(name, str):
            from ..._legacy import typename
            raise TypeError(f"buffer name should be a string. Got {typename(name)}")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{_typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = _run_registration_hooks(_global_buffer_registration_hooks, self, name, tensor)
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name: str, module: Module | None) -> None:
        """Add a child module under ``name``."""
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            from ..._legacy import typename
            raise TypeError(f"module name should be a string. Got {typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = _run_registration_hooks(_global_module_registration_hooks, self, name, module)

    register_module = add_module

    def get_submodule(self, target: str) -> Module:
        """The sub-module at a dotted path such as ``"0.linear"``."""
        mod = self
        for item in target.split(".") if target else []:
            if not hasattr(mod, item):
                raise AttributeError(f"{mod._get_name()} has no attribute `{item}`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):  # (an attribute that is not a sub-module: a parameter, say)
                raise AttributeError(f"`{item}` is not an nn.Module")
        return mod

    def set_submodule(self, target: str, module: Module, strict: bool = False) -> None:
        """Put ``module`` at a dotted path (strict: only where a sub-module already is)."""
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        parent_key, _, name = target.rpartition(".")
        if not isinstance(module, Module):
            raise ValueError(f"`module` is not an nn.Module, found {type(module)}")
        parent = self.get_submodule(parent_key)
        if strict and not hasattr(parent, name):
            raise AttributeError(f"{parent._get_name()} has no attribute `{name}`")
        if hasattr(parent, name) and not isinstance(getattr(parent, name), Module):
            raise AttributeError(f"`{name}` is not an nn.Module")
        setattr(parent, name, module)

    def get_extra_state(self):
        """What a subclass adds to its state dict under ``_extra_state`` (overridden with ``set_extra_state``)."""
        raise RuntimeError("Reached a code path in Module.get_extra_state() that should never be called. Please file "
                           "an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml to "
                           "report this bug.")

    def set_extra_state(self, state) -> None:
        """Restore what ``get_extra_state`` returned (subclasses override both)."""
        raise RuntimeError("Reached a code path in Module.set_extra_state() that should never be called. Please file "
                           "an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml to "
                           "report this bug.")

    def share_memory(self) -> Module:
        """Mark every parameter, gradient and buffer as shared (``share_memory_``); the module itself."""
        return self._apply(lambda t: t.share_memory_())

    def get_parameter(self, target: str) -> Parameter:
        """The parameter at a dotted path such as ``"0.weight"``."""
        return self._get_member(target, "_parameters", "an nn.Parameter")

    def get_buffer(self, target: str) -> Tensor:
        """The buffer at a dotted path such as ``"1.running_mean"``."""
        return self._get_member(target, "_buffers", "a buffer")

    def _get_member(self, target: str, table: str, what: str):
        """``get_parameter`` / ``get_buffer``: the entry of ``table`` at a dotted path, with PyTorch's errors."""
        module_path, _, name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, name):
            raise AttributeError(f"{mod._get_name()} has no attribute `{name}`")
        members = getattr(mod, table)
        if name not in members:
            raise AttributeError(f"`{name}` is not {what}")
        return members[name]

    # ---- walking the tree ---------------------------------------------------------------------
    def named_modules(self, memo=None, prefix: str = "", remove_duplicate: bool = True):
        """(name, module) for this module and every descendant, depth first, each module once."""
        if memo is None:
            memo = set()
        if remove_duplicate and self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub_prefix = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, sub_prefix, remove_duplicate)

    def modules(self):
        """This module and every descendant."""
        for _, module in self.named_modules():
            yield module

    def named_children(self):
        """(name, module) for the direct children."""
        seen = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def children(self):
        """The direct child modules."""
        for _, module in self.named_children():
            yield module

    def _named_members(self, get_members, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True):
        seen = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse \
            else [(prefix, self)]
        for module_prefix, module in modules:
            for k, v in get_members(module):
                if v is None or (remove_duplicate and v in seen):
                    continue
                if remove_duplicate:
                    seen.add(v)
                yield module_prefix + ("." if module_prefix else "") + k, v

    def named_parameters(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True):
        """(dotted name, parameter) for every parameter, each once."""
        yield from self._named_members(lambda m: m._parameters.items(), prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True):
        """Every parameter (what an optimizer needs)."""
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True):
        """(dotted name, buffer) for every buffer."""
        yield from self._named_members(lambda m: m._buffers.items(), prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True):
        """Every buffer."""
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def apply(self, fn) -> Module:
        """Call ``fn`` on every sub-module (children first) and on self; returns self."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # ---- modes and gradients ------------------------------------------------------------------
    def train(self, mode: bool = True) -> Module:
        """Set training mode (affects Dropout) here and in every descendant."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self) -> Module:
        """Set evaluation mode (``train(False)``)."""
        return self.train(False)

    def compile(self, *args, **kwargs) -> None:
        """``torch.compile`` this module in place: minigrad compiles nothing, so only the arguments are checked."""
        from ..._compile import compile
        compile(self.forward, *args, **kwargs)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        """Set ``requires_grad`` on every parameter."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the parameters' gradients (to None by default, as PyTorch)."""
        for p in self.parameters():
            _reset_grad(p, set_to_none)

    # ---- dtype conversion (in place, keeping the same Parameter objects) -----------------------
    def _apply(self, fn, recurse: bool = True) -> Module:
        if recurse:
            for module in self.children():
                module._apply(fn)
        from ... import __future__ as future
        swap = future.get_swap_module_params_on_conversion()
        overwrite = future.get_overwrite_module_params_on_conversion()
        for key, p in self._parameters.items():
            if p is None:
                continue
            with no_grad():
                applied = fn(p)
            grad = p._grad
            if swap:   # (torch.__future__: the converted tensor swapped into the same Parameter object)
                from ...utils import swap_tensors
                try:
                    if grad is not None:
                        p.grad = None
                    swap_tensors(p, Parameter(applied, requires_grad=p.requires_grad))
                except Exception as e:
                    if grad is not None:
                        p.grad = grad
                    raise RuntimeError(f"_apply(): Couldn't swap {self._get_name()}.{key}") from e
                if grad is not None:
                    with no_grad():
                        grad_applied = fn(grad)
                    grad_applied.requires_grad_(grad.requires_grad)
                    try:
                        swap_tensors(grad, grad_applied)
                    except Exception as e:
                        raise RuntimeError(f"_apply(): Couldn't swap {self._get_name()}.{key}.grad") from e
                    p.grad = grad
            elif overwrite:   # (torch.__future__: a new Parameter, and a new gradient tensor)
                out = self._parameters[key] = Parameter(applied, p.requires_grad)
                if grad is not None:
                    with no_grad():
                        out.grad = fn(grad).requires_grad_(grad.requires_grad)
            else:
                p.data = applied
                if grad is not None:   # (the same gradient object too, its data replaced: PyTorch's set_data)
                    with no_grad():
                        grad.data = fn(grad)
        for key, buf in self._buffers.items():
            if buf is not None:
                self._buffers[key] = fn(buf)
        return self

    def to(self, *args, **kwargs) -> Module:
        """Convert floating-point parameters and buffers to a dtype (devices: the CPU, and the meta device)."""
        from ..._dtypes import dtype as dtype_class
        from ..._ops import parse_to
        dtype = parse_to(args, kwargs) or kwargs.get("dtype")   # (torch._C._nn._parse_to: its TypeErrors)
        # (_parse_to refuses any copy argument: a keyword, or the last positional of (dtype | tensor, non_blocking,
        # copy) and (device, dtype, non_blocking, copy))
        from ..._device import is_device
        if "copy" in kwargs or len(args) >= (4 if args and (is_device(args[0]) or type(args[0]) is int) else 3):
            raise RuntimeError(".to() does not accept copy argument")
        to_meta = False   # (the meta device: every tensor copied there, see minigrad/_meta.py)
        for a in (*args, kwargs.get("device")):
            if isinstance(a, dtype_class):
                dtype = a
            elif isinstance(a, Tensor):
                dtype = a.dtype
            elif a is not None and str(a).split(":")[0] == "meta":
                to_meta = is_device(a)
            elif a is not None:  # a device: only the CPU is there
                from ..._device import check_target_device, is_device
                if is_device(a) and self._has_tensors():  # (PyTorch fails only when it moves a tensor)
                    check_target_device(a)
        memory_format = kwargs.get("memory_format")   # (PyTorch's applies to 4-d and 5-d tensors only)
        if dtype is None and memory_format is None and not to_meta:
            return self
        if dtype is not None and not (dtype.is_floating_point or dtype.is_complex):
            raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, but got desired "
                            f"dtype={dtype}")
        if dtype is not None and dtype.is_complex:
            warnings.warn("Complex modules are a new feature under active development whose design may change, and "
                          "some modules might not work as expected when using complex tensors as parameters or "
                          "buffers. Please file an issue at https://github.com/pytorch/pytorch/issues/new?template="
                          "bug-report.yml if a complex module does not work as expected.", stacklevel=2)

        def convert(t):
            if to_meta and not t.is_meta:
                t = t.to("meta")
            if dtype is not None and (t.is_floating_point() or t.is_complex()):
                t = t.to(dtype)
            return t.to(memory_format=memory_format) if memory_format is not None and t.dim() in (4, 5) else t
        return self._apply(convert)

    def to_empty(self, *, device, recurse: bool = True) -> Module:
        """Give every parameter and buffer new, uninitialized storage on ``device`` (PyTorch's way to materialize
        a module built on the meta device): the same Parameter objects, their values are garbage until set."""
        from ..._creation import empty_like
        return self._apply(lambda t: empty_like(t, device=device), recurse=recurse)

    def float(self) -> Module:
        """Cast floating-point parameters and buffers to float32."""
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self) -> Module:
        """Cast floating-point parameters and buffers to float64."""
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self) -> Module:
        """Cast floating-point parameters and buffers to float16."""
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self) -> Module:
        """Cast floating-point parameters and buffers to bfloat16."""
        return self._apply(lambda t: t.bfloat16() if t.is_floating_point() else t)

    def type(self, dst_type) -> Module:
        """Cast every parameter and buffer (integer ones too, as PyTorch) to ``dst_type``."""
        return self._apply(lambda t: t.type(dst_type))

    def cpu(self) -> Module:
        """The module itself (minigrad computes on the CPU only)."""
        return self

    def cuda(self, device=None) -> Module:
        """Fails if there is a tensor to move: minigrad computes on the CPU only (as a PyTorch built without CUDA)."""
        if self._has_tensors():
            raise AssertionError("Torch not compiled with CUDA enabled")
        return self

    def xpu(self, device=None) -> Module:
        """Fails if there is a tensor to move (a PyTorch built without XPU support)."""
        if self._has_tensors():
            raise AssertionError("Torch not compiled with XPU enabled")
        return self

    def ipu(self, device=None) -> Module:
        """Fails if there is a tensor to move (a PyTorch built without IPU support)."""
        if self._has_tensors():
            raise RuntimeError("PyTorch is not linked with support for ipu devices")
        return self

    def mtia(self, device=None) -> Module:
        """Fails if there is a tensor to move (a PyTorch built without MTIA support)."""
        if self._has_tensors():
            raise AssertionError("Torch not compiled with MTIA enabled. Ensure you have `import "
                                 "mtia.host_runtime.torch_mtia.dynamic_library` in your python src file and include "
                                 "`//mtia/host_runtime/torch_mtia:torch_mtia` as your target dependency!")
        return self

    def _has_tensors(self) -> bool:
        return any(True for _ in self.parameters()) or any(True for _ in self.buffers())

    # ---- saving and loading -------------------------------------------------------------------
    def state_dict(self, *args, destination=None, prefix: str = "", keep_vars: bool = False):
        """OrderedDict of every parameter and persistent buffer by dotted name (detached unless keep_vars)."""
        if args:  # (the old positional form: destination, prefix, keep_vars)
            warnings.warn("Positional args are being deprecated, use kwargs instead. Refer to "
                          "https://pytorch.org/docs/main/generated/torch.nn.Module.html#torch.nn.Module.state_dict"
                          " for details.", FutureWarning, stacklevel=2)
            if destination is None:
                destination = args[0]
            if len(args) > 1 and prefix == "":
                prefix = args[1]
            if len(args) > 2 and keep_vars is False:
                keep_vars = args[2]
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = {"version": self._version}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in self.__dict__.get("_state_dict_pre_hooks", {}).values():
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        for hook in self.__dict__.get("_state_dict_hooks", {}).values():
            result = hook(self, destination, prefix, local_metadata)
            if not getattr(hook, "_from_public_api", False):
                if result is not None:  # the private hook may return a new dict
                    destination = result
            elif result is not None:
                raise RuntimeError("state_dict post-hook must return None")
        return destination

    def _save_to_state_dict(self, destination, prefix: str, keep_vars: bool) -> None:
        """This module's own entries (not its children's), as PyTorch's: a subclass may override it to save more
        or less."""
        # (a lazy module's placeholders are kept as they are: PyTorch's detach() of one returns it)
        for name, p in self._parameters.items():
            if p is not None:
                destination[prefix + name] = p if keep_vars or isinstance(p, _UNINITIALIZED) else p.detach()
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = b if keep_vars or isinstance(b, _UNINITIALIZED) else b.detach()
        if type(self).get_extra_state is not Module.get_extra_state:  # (only a module that defines it has one)
            destination[prefix + "_extra_state"] = self.get_extra_state()

    def register_state_dict_pre_hook(self, hook) -> RemovableHandle:
        """Run ``hook(module, prefix, keep_vars)`` before ``state_dict`` collects this module's entries."""
        return _add_hook(self.__dict__.setdefault("_state_dict_pre_hooks", OrderedDict()), hook)

    def register_state_dict_post_hook(self, hook) -> RemovableHandle:
        """Run ``hook(module, state_dict, prefix, local_metadata)`` after ``state_dict`` (it edits in place)."""
        hook._from_public_api = True
        return _add_hook(self.__dict__.setdefault("_state_dict_hooks", OrderedDict()), hook)

    def _register_state_dict_hook(self, hook) -> RemovableHandle:
        """The private form of ``register_state_dict_post_hook``: a returned dict replaces the state dict."""
        if getattr(hook, "_from_public_api", False):
            raise RuntimeError("Cannot register the same function as the state dict post hook that was "
                               "previously registered via register_state_dict_post_hook")
        return _add_hook(self.__dict__.setdefault("_state_dict_hooks", OrderedDict()), hook)

    def load_state_dict(self, state_dict, strict: bool = True, assign: bool = False) -> _IncompatibleKeys:
        """Copy values from ``state_dict`` into the parameters and buffers (strict: keys must match)."""
        if not hasattr(state_dict, "keys"):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing, unexpected, error_msgs = [], [], []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)   # (a copy: upgrading an old format must not change the caller's)

        # As PyTorch: each module loads its own entries, then its children (each from the entries under its
        # prefix), then its post hooks run; keys are checked per module, so their order is PyTorch's.
        def load(module, local_state_dict, prefix=""):
            local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
            module._load_from_state_dict(local_state_dict, prefix, local_metadata, True, missing, unexpected,
                                         error_msgs, assign)
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    load(child, {k: v for k, v in local_state_dict.items() if k.startswith(child_prefix)},
                         child_prefix)
            keys = _IncompatibleKeys(missing, unexpected)
            for hook in module.__dict__.get("_load_state_dict_post_hooks", {}).values():
                if hook(module, keys) is not None:
                    raise AssertionError(
                        "Hooks registered with ``register_load_state_dict_post_hook`` are not expected to return "
                        "new values, if incompatible_keys need to be modified, it should be done inplace.")

        load(self, state_dict)
        if strict:
            if unexpected:
                error_msgs.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                error_msgs.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing)))
        if error_msgs:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(error_msgs)))
        return _IncompatibleKeys(missing, unexpected)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs, assign=False) -> None:
        """Copy this module's own entries (not its children's) from ``state_dict``, noting what does not match."""
        self._upgrade_state_dict(state_dict, prefix, local_metadata.get("version"))
        for hook in self.__dict__.get("_load_state_dict_pre_hooks", {}).values():
            hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
        local_state = {k: v for k, v in (*self._parameters.items(), *self._buffers.items())
                       if v is not None and k not in self._non_persistent_buffers_set}
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            value = state_dict[key]
            if not isinstance(value, Tensor):
                error_msgs.append(f'While copying the parameter named "{key}", expected torch.Tensor or Tensor-like '
                                  f"object from checkpoint but received {type(value)}")
                continue
            if param.dim() == 0 and value.shape == (1,):  # (a one-element checkpoint entry loads into a scalar)
                value = value[0]
            if value.shape != param.shape:
                error_msgs.append(f"size mismatch for {key}: copying a param with shape {value.shape} from "
                                  f"checkpoint, the shape in current model is {param.shape}.")
                continue
            from ... import __future__ as future
            if future.get_swap_module_params_on_conversion():   # (the loaded tensor swapped into the same object)
                from ...utils import swap_tensors
                try:
                    with no_grad():
                        new = param.module_load(value, assign=assign)
                        if new is value or new is param:
                            raise RuntimeError("module_load returned one of self or other, please .detach() the "
                                               "result if returning one of the inputs in module_load")
                        if isinstance(param, Parameter):
                            if not isinstance(new, Parameter):
                                new = Parameter(new, requires_grad=param.requires_grad)
                            else:
                                new.requires_grad_(param.requires_grad)
                        swap_tensors(param, new)
                        del new
                except Exception as ex:
                    error_msgs.append(f'While swapping the parameter named "{key}", whose dimensions in the model '
                                      f"are {param.size()} and whose dimensions in the checkpoint are "
                                      f"{value.size()}, an exception occurred : {ex.args}.")
            elif assign:  # take the checkpoint's tensor itself (a Parameter keeps the module's requires_grad)
                if isinstance(param, Parameter):
                    value = value if isinstance(value, Parameter) else Parameter(value, param.requires_grad)
                    value.requires_grad_(param.requires_grad)
                setattr(self, name, value)
            else:
                with no_grad():
                    param.copy_(value)
        extra_key = prefix + "_extra_state"
        if type(self).set_extra_state is not Module.set_extra_state:
            if extra_key in state_dict:
                self.set_extra_state(state_dict[extra_key])
            elif strict:
                missing_keys.append(extra_key)
        elif strict and extra_key in state_dict:
            unexpected_keys.append(extra_key)
        if strict:
            for key in state_dict:
                if key.startswith(prefix) and key != extra_key:
                    parts = key[len(prefix):].split(".", 1)
                    if (parts[0] not in self._modules) if len(parts) > 1 else (parts[0] not in local_state):
                        unexpected_keys.append(key)

    def register_load_state_dict_pre_hook(self, hook) -> RemovableHandle:
        """Run ``hook(module, state_dict, prefix, local_metadata, strict, missing, unexpected, errors)`` before
        this module loads its entries."""
        return self._register_load_state_dict_pre_hook(hook, with_module=True)

    def register_load_state_dict_post_hook(self, hook) -> RemovableHandle:
        """Run ``hook(module, incompatible_keys)`` after this module and its children loaded (edit keys in place)."""
        return _add_hook(self.__dict__.setdefault("_load_state_dict_post_hooks", OrderedDict()), hook)

    def _upgrade_state_dict(self, state_dict, prefix: str, version) -> None:
        """Fill in what a state dict saved by an older version of this module lacks (``version`` None: unknown)."""

    def _register_load_state_dict_pre_hook(self, hook, with_module: bool = False) -> RemovableHandle:
        """Run ``hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)``
        on the state dict before it is loaded (it may rename keys: parametrizations.weight_norm's does)."""
        hooks = self.__dict__.setdefault("_load_state_dict_pre_hooks", OrderedDict())
        return _add_hook(hooks, _WrappedHook(hook, self if with_module else None))

    # ---- printing -----------------------------------------------------------------------------
    def extra_repr(self) -> str:
        """The text inside the parentheses of this module's repr (subclasses override)."""
        return ""

    def _get_name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        extra_lines = self.extra_repr().split("\n") if self.extra_repr() else []
        child_lines = [f"({key}): " + _addindent(repr(module), 2) for key, module in self._modules.items()]
        lines = extra_lines + child_lines
        main_str = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main_str += extra_lines[0]
            else:
                main_str += "\n  " + "\n  ".join(lines) + "\n"
        return main_str + ")"

    def __setstate__(self, state) -> None:
        self.__dict__.update(state)


def _warn_legacy_backward_hook(inputs, result, grad_fn) -> None:
    """PyTorch's _maybe_warn_non_full_backward_hook: where a deprecated backward hook misses gradients."""
    tail = " Please use register_full_backward_hook to get the documented behavior."
    if not isinstance(result, Tensor):
        if not (isinstance(result, tuple) and all(isinstance(r, Tensor) for r in result)):
            warnings.warn("Using non-full backward hooks on a Module that does not return a single Tensor or a tuple "
                          "of Tensors is deprecated and will be removed in future versions. This hook will be missing "
                          "some of the grad_output." + tail, FutureWarning, stacklevel=3)
            return
    else:
        result = (result,)
    if not isinstance(inputs, Tensor):
        if not (isinstance(inputs, tuple) and all(isinstance(i, Tensor) for i in inputs)):
            warnings.warn("Using non-full backward hooks on a Module that does not take as input a single Tensor or a "
                          "tuple of Tensors is deprecated and will be removed in future versions. This hook will be "
                          "missing some of the grad_input." + tail, FutureWarning, stacklevel=3)
            return
    else:
        inputs = (inputs,)
    out_grad_fn = {r.grad_fn for r in result if r.grad_fn is not None}
    if len(out_grad_fn) == 0 or (len(out_grad_fn) == 1 and grad_fn not in out_grad_fn):
        warnings.warn("Using a non-full backward hook when outputs are nested in python data structure is deprecated "
                      "and will be removed in future versions. This hook will be missing some grad_output.",
                      FutureWarning, stacklevel=3)
    elif len(out_grad_fn) > 1:
        warnings.warn("Using a non-full backward hook when outputs are generated by different autograd Nodes is "
                      "deprecated and will be removed in future versions. This hook will be missing some grad_output."
                      + tail, FutureWarning, stacklevel=3)
    else:
        inputs_grad_fn = {i.grad_fn for i in inputs if i.grad_fn is not None}
        next_functions = {n[0] for n in grad_fn.next_functions}
        if inputs_grad_fn != next_functions:
            warnings.warn("Using a non-full backward hook when the forward contains multiple autograd Nodes is "
                          "deprecated and will be removed in future versions. This hook will be missing some "
                          "grad_input." + tail, FutureWarning, stacklevel=3)


def _typename(value) -> str:
    from ..._legacy import typename  # (torch.typename: a function names itself, a tensor its legacy type)
    return typename(value)
