"""minigrad.overrides: PyTorch's ``__torch_function__`` protocol (Tensor subclasses, tensor-like objects, modes).

A call of a public function or Tensor method first looks for arguments whose class defines
``__torch_function__`` (a Tensor subclass, or any object: the "tensor-likes") and for an active
``TorchFunctionMode``; if there are some, the call goes to them as ``(func, types, args, kwargs)``
instead (``handle_torch_function``). ``Tensor.__torch_function__``, which every subclass inherits, runs
``func`` and turns the tensors it returns into the subclass (``default_torch_function``).

Cost: the public functions are wrapped at import (``install``), with a fast path of one type check when
their first argument is a plain Tensor. Tensor's methods and properties are wrapped only once a program
defines a Tensor subclass, enters a mode or passes a tensor-like (``_activate``): a program that never
does so runs Tensor's methods exactly as before. (So a tensor-like met first as a Tensor method's argument,
``t + s``, before anything turned the protocol on, is not seen: ``torch.add(t, s)`` turns it on.)
The backward engine runs its formulas with the protocol off, as PyTorch's C++ formulas are (autograd/engine.py).

PyTorch makes two kinds of calls to ``__torch_function__`` (both kept here, see ``_Public``):
C++-bound functions pass the arguments as given (``kwargs`` None when there are none) and leave plain
Tensors out of ``types``; the ones written in Python (``handle_torch_function``: ``F.relu``,
``Tensor.backward``, ``Tensor.__repr__``, properties ...) pass the parameters that have defaults as
keywords and count plain Tensors among ``types``.
"""
from __future__ import annotations

import contextlib
import functools
import inspect
import threading
from collections.abc import Callable, Iterable
from typing import Any

from . import _arg_errors, _meta, _numpy_names
from ._class_names import TorchNamed, object_repr
from ._tensor import Tensor

__all__ = ["TorchFunctionMode", "enable_reentrant_dispatch", "get_default_nowrap_functions", "get_ignored_functions",
           "get_overridable_functions", "get_testing_overrides", "handle_torch_function", "has_torch_function",
           "has_torch_function_unary", "has_torch_function_variadic", "is_tensor_like",
           "is_tensor_method_or_property", "resolve_name"]

_SUBCLASS, _ALL = 1, 2  # levels of _TLS.disabled: DisableTorchFunctionSubclass, DisableTorchFunction


class _State:
    """The process's torch-function state: whether Tensor's methods are wrapped (see _activate)."""

    __slots__ = ("active",)

    def __init__(self) -> None:
        self.active = False


class _ThreadState(threading.local):
    """This thread's torch-function state, as PyTorch's thread-local PythonTorchFunctionTLS: another thread's
    DisableTorchFunction or backward pass (which turns __torch_function__ off) leaves this one's alone."""

    def __init__(self) -> None:
        self.disabled = 0  # 0, _SUBCLASS or _ALL
        self.modes: list = []  # the TorchFunctionMode stack, innermost last


_STATE = _State()
_TLS = _ThreadState()


class _DisabledImpl:
    """``torch._C._disabled_torch_function_impl``: a ``__torch_function__`` that runs ``func`` as is.

    A class instance, not a function: as PyTorch's builtin, it does not bind when it is a class attribute
    (``nn.Parameter.__torch_function__ is _disabled_torch_function_impl``).
    """

    __name__ = __qualname__ = "_disabled_torch_function_impl"

    def __call__(self, func, types, args=(), kwargs=None):
        with DisableTorchFunctionSubclass():
            return func(*args, **(kwargs or {}))

    def __repr__(self) -> str:
        return "<built-in function _disabled_torch_function_impl>"


_disabled_torch_function_impl = _DisabledImpl()


class DisableTorchFunctionSubclass:
    """``with torch._C.DisableTorchFunctionSubclass():`` no argument's ``__torch_function__`` is called (modes are)."""

    _level = _SUBCLASS

    def __enter__(self):
        self._prev = _TLS.disabled
        _TLS.disabled = max(self._prev, self._level)
        return self

    def __exit__(self, *exc) -> None:
        _TLS.disabled = self._prev


class DisableTorchFunction(DisableTorchFunctionSubclass):
    """``with torch._C.DisableTorchFunction():`` neither arguments' ``__torch_function__`` nor modes are called."""

    _level = _ALL


def _is_torch_function_enabled() -> bool:
    """False inside DisableTorchFunctionSubclass / DisableTorchFunction."""
    return _TLS.disabled == 0


def _is_torch_function_all_disabled() -> bool:
    """True inside DisableTorchFunction."""
    return _TLS.disabled == _ALL


def _is_torch_function_mode_enabled() -> bool:
    """True when a TorchFunctionMode is entered (and not disabled)."""
    return bool(_TLS.modes) and _TLS.disabled < _ALL


# ---- which arguments take part -------------------------------------------------------------------------------

# Types that never have a __torch_function__ of their own (checked first: most arguments are these).
_PLAIN = {int, float, bool, complex, str, bytes, type(None), slice, type(Ellipsis), Tensor}
_OVERLOADED: dict = {}  # type -> whether it defines an active __torch_function__ (computed once per type)


def _is_overloaded(tp: type) -> bool:
    """Whether arguments of type ``tp`` take part (PyTorch leaves out plain Tensors and disabled classes)."""
    known = _OVERLOADED.get(tp)
    if known is None:
        impl = getattr(tp, "__torch_function__", None)
        known = _OVERLOADED[tp] = impl is not None and impl is not _disabled_torch_function_impl
        if not known and issubclass(tp, Tensor):
            _PLAIN.add(tp)  # (nn.Parameter)
    return known


_FOREIGN: dict = {}  # type -> whether it is another library's tensor (computed once per type)


def _is_foreign(tp: type) -> bool:
    """Whether ``tp`` is real PyTorch's Tensor (or a subclass): a program mixing ``import torch`` with ``import
    minigrad``. Each library's __torch_function__ would hand the call to the other one forever; minigrad declines
    instead (as a tensor-like whose handler returns NotImplemented), so the user gets a TypeError."""
    known = _FOREIGN.get(tp)
    if known is None:
        known = _FOREIGN[tp] = not issubclass(tp, Tensor) and any(
            c.__name__ == "Tensor" and c.__module__ == "torch" for c in tp.__mro__)
    return known


def _add(found: list | None, arg) -> list:
    """Add ``arg`` to the overloaded arguments: one per type, a subclass before its superclasses."""
    if found is None:
        return [arg]
    tp = type(arg)
    if any(type(old) is tp for old in found):
        return found
    for i, old in enumerate(found):
        if issubclass(tp, type(old)):
            found.insert(i, arg)
            return found
    found.append(arg)
    return found


def _overloaded(args: Iterable, kwargs: dict | None = None) -> list | None:
    """The arguments (also inside a list or tuple argument: ``torch.cat([a, b])``) whose __torch_function__
    is called, in PyTorch's order; None if there are none."""
    found = None
    for a in args:
        tp = type(a)
        if tp in _PLAIN:
            continue
        if tp is list or tp is tuple:
            for b in a:
                if type(b) not in _PLAIN and _is_overloaded(type(b)):
                    found = _add(found, b)
        elif _is_overloaded(tp):
            found = _add(found, a)
    if kwargs:
        more = _overloaded(kwargs.values())
        for a in more or ():
            found = _add(found, a)
    return found


def _with_tensors(args: Iterable) -> list:
    """The overloaded arguments among ``args``, plain Tensors counted too (as Python's handle_torch_function
    does), in the order of ``args``; none inside DisableTorchFunctionSubclass."""
    found = None
    if _TLS.disabled == 0:
        for a in args:
            tp = type(a)
            if tp is Tensor or (tp not in _PLAIN and _is_overloaded(tp)):
                found = _add(found, a)
    return found or []


# ---- the call ------------------------------------------------------------------------------------------------

def _dispatch(public, overloaded: list, args: tuple, kwargs, name: str, python_level: bool):
    """Call the modes' and the overloaded arguments' __torch_function__ until one does not return NotImplemented."""
    types = tuple(type(a) for a in overloaded)
    mode = None
    if _TLS.modes and _TLS.disabled < _ALL:
        mode = _TLS.modes.pop()  # (the mode is off while its handler runs: func(*args) inside goes on)
        try:
            result = mode.__torch_function__(public, types, args, kwargs)
        finally:
            _TLS.modes.append(mode)
        if result is not NotImplemented:
            return result
    for arg in overloaded:
        if (python_level or (type(arg) not in _PLAIN)) and not _is_foreign(type(arg)):
            result = arg.__torch_function__(public, types, args, kwargs)
            if result is not NotImplemented:
                return result
    if python_level:
        message = (f"no implementation found for '{name}' on types that implement __torch_function__: "
                   f"{[type(a) for a in overloaded]}")
        if mode is not None:
            message += f" nor in mode {mode}"
        raise TypeError(message)
    lines = [f"  - mode object {mode!r}"] if mode is not None else []
    lines += [f"  - tensor subclass {type(a)!r}" for a in overloaded]
    raise TypeError(f"Multiple dispatch failed for '{name}'; all __torch_function__ handlers returned "
                    "NotImplemented:\n\n" + "\n".join(lines) + "\n\nFor more information, try re-running with "
                    "TORCH_LOGS=not_implemented")


def _python_call(signature, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """The arguments as PyTorch's Python-level functions pass them on: parameters with a default by keyword."""
    if signature is None:
        return args, dict(kwargs)
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:
        return args, dict(kwargs)
    positional, keywords = [], {}
    for p in signature.parameters.values():
        if p.kind is p.VAR_POSITIONAL:
            positional.extend(bound.arguments.get(p.name, ()))
        elif p.kind is p.VAR_KEYWORD:
            keywords.update(bound.arguments.get(p.name, {}))
        elif p.default is p.empty and p.kind is not p.KEYWORD_ONLY:
            positional.append(bound.arguments[p.name])
        else:
            keywords[p.name] = bound.arguments.get(p.name, p.default)
    return tuple(positional), keywords


class _Public:
    """How one public function or method is handed to __torch_function__ (see the module docstring)."""

    __slots__ = ("name", "python_level", "fn", "_signature", "relevant")

    def __init__(self, name: str, python_level: bool, fn=None, relevant: Callable | None = None) -> None:
        self.name = name  # as PyTorch's error messages name it
        self.python_level = python_level
        self.fn = fn
        self._signature = False  # (looked up on the first dispatched call: imports stay fast)
        self.relevant = relevant  # (args -> the arguments that count, for a Python-level function: its tensors)

    @property
    def signature(self):
        """``fn``'s signature, or None (then the arguments are handed on as given)."""
        if self._signature is False:
            try:
                self._signature = inspect.signature(self.fn) if self.fn is not None else None
            except (TypeError, ValueError):
                self._signature = None
        return self._signature

    @signature.setter
    def signature(self, value) -> None:
        self._signature = value

    def call(self, public, overloaded: list | None, args: tuple, kwargs: dict):
        """Dispatch ``public(*args, **kwargs)``."""
        if self.python_level:
            args, kw = _python_call(self.signature, args, kwargs)
            overloaded = _with_tensors(self.relevant(args) if self.relevant else args)
        else:
            kw = kwargs or None
            overloaded = overloaded or []
        return _dispatch(public, overloaded, args, kw, self.name, self.python_level)


def _needs_dispatch(args: tuple, kwargs: dict) -> list | None:
    """The overloaded arguments (a list, maybe empty when only a mode is on), or None to run the call as is."""
    disabled = _TLS.disabled
    if disabled == _ALL:
        return None
    found = _overloaded(args, kwargs) if disabled == 0 else None
    if found is not None:
        if not _STATE.active and any(not isinstance(a, Tensor) for a in found):
            _activate()  # (a tensor-like object: Tensor's methods look for it from now on)
        return found
    return [] if _TLS.modes else None


# Tensor classes of another layout (sparse.SparseTensor) -> {public name: the function it runs instead, for such a
# first argument}: PyTorch's dispatcher picks the layout's kernel (torch.sin(s) is sparse)
LAYOUT_KERNELS: dict = {}


def wrap_function(fn: Callable, name: str, python_level: bool = False, relevant: Callable | None = None) -> Callable:
    """``fn`` as a public function that hands calls with overloaded arguments to their __torch_function__."""
    how = _Public(name, python_level, fn, relevant)
    # (PyTorch's parser checks the arguments' types first; a Python function's, after its own checks, unless it has
    # none: F.elu's parse comes before anything is written)
    parsed_first = not python_level or name in _arg_errors.PARSED_FIRST_FUNCTIONAL

    @functools.wraps(fn)
    def public(*args, **kwargs):
        # Fast path: the first argument a plain Tensor, no subclass ever defined, no mode (one type check).
        if _STATE.active or not args or type(args[0]) is not Tensor:
            found = _needs_dispatch(args, kwargs)
            if found is not None:
                return how.call(public, found, args, kwargs)
            first = args[0] if args else kwargs.get("input")
            if type(first) in LAYOUT_KERNELS:   # (torch.sin(s) of a sparse s: its own kernel)
                kernel = LAYOUT_KERNELS[type(first)].get(name)
                if kernel is not None:
                    if not args:   # (torch.sin(input=s))
                        kwargs = {k: v for k, v in kwargs.items() if k != "input"}
                    return kernel(first, *args[1:], **kwargs)
        if parsed_first and (len(args) > 1 or kwargs):
            _arg_errors.check_first(name, args, kwargs)
        try:
            result = fn(*args, **kwargs)
        except Exception as error:
            if _TLS.disabled:
                raise
            # torch.add(t, s): a tensor-like after the first argument, seen only once the call has failed (once
            # active, _needs_dispatch above has looked for one already)
            found = None if _STATE.active else _overloaded(args, kwargs)
            if found is None:
                _arg_errors.reparse(name, args, kwargs, error)  # (PyTorch's parser error, if its parser refuses)
                call = _numpy_names.input_call(args, kwargs, error)   # (torch.sum(x=t): taken, made again)
                if call is not None:
                    return public(*call[0], **call[1])
                raise
        else:
            if not parsed_first and (len(args) > 1 or kwargs):  # (PyTorch's Python code checks first, then the
                _arg_errors.check_first(name, args, kwargs)  # parser of the C function it calls: F.dropout(x, 1, 'a'))
            return result
        _activate()
        return how.call(public, found, args, kwargs)
    public.__torch_public__ = how
    return public


# ---- Tensor's methods, operators and properties -----------------------------------------------------------------

# Tensor attributes PyTorch does not hand to __torch_function__, or minigrad helpers. (get_ignored_functions
# lists new_zeros, stride, unflatten ... too, but only for its tests: their calls are handed on all the same.)
_TENSOR_IGNORED = {"as_subclass", "__init__", "__new__", "__init_subclass__", "__iter__",
                   "__hash__", "__torch_function__", "__dir__", "__deepcopy__", "__reduce_ex__", "__array__",
                   "__array_wrap__", "__setstate__", "__getstate__", "__class_getitem__"}
# Methods PyTorch writes in Python (torch/_tensor.py): handed on as handle_torch_function does.
_TENSOR_PYTHON = {"__repr__", "backward", "register_hook", "register_post_accumulate_grad_hook", "__reversed__",
                  "norm", "lu", "stft", "istft", "split", "unique", "unique_consecutive", "__rsub__", "__rdiv__",
                  "__rtruediv__", "__pow__", "__ipow__", "__rmod__", "__format__", "__rpow__", "__floordiv__",
                  "__rfloordiv__", "__rlshift__", "__rrshift__", "__rmatmul__", "__len__", "__contains__",
                  "storage", "dim_order", "is_shared", "share_memory_", "resize", "resize_as", "unflatten"}
# Methods whose C functions hand on ``self`` itself (METH_NOARGS ones, new_tensor, new): ``types`` then counts a
# plain Tensor, ``(type(self),)``, where the methods PyTorch's argument parser binds leave it out.
_SELF_COUNTED = frozenset(_arg_errors.NO_ARGUMENT_METHODS) | {"new_tensor", "new"}
# Operators PyTorch hands on as the method they call: ``m + 1`` and ``1 + m`` are Tensor.add(m, 1).
_OPERATOR_FUNCS = {"__add__": "add", "__radd__": "add", "__iadd__": "add_", "__sub__": "sub", "__isub__": "sub_",
                   "__mul__": "mul", "__rmul__": "mul", "__imul__": "mul_", "__truediv__": "div",
                   "__itruediv__": "div_", "__rtruediv__": "__rdiv__", "__mod__": "remainder", "__pow__": "pow",
                   "__ipow__": "pow_", "__matmul__": "matmul", "__ne__": "ne", "__lt__": "lt", "__le__": "le",
                   "__gt__": "gt", "__ge__": "ge", "__rand__": "bitwise_and", "__ror__": "bitwise_or",
                   "__rxor__": "bitwise_xor", "__neg__": "neg", "__pos__": "positive", "__abs__": "abs"}
_UNARY_DUNDERS = {"__neg__", "__pos__", "__abs__", "__invert__", "__bool__", "__float__", "__int__", "__index__",
                  "__complex__", "__len__", "__repr__", "__getitem__", "__setitem__", "__format__", "__contains__",
                  "__reversed__"}
_NOWRAP: list = []  # [the frozenset get_default_nowrap_functions() returns], once Tensor's attributes are wrapped


def _wrap_method(fn: Callable, name: str, how: _Public, target: list):
    """Tensor method ``name``: ``target[0]`` is the public method it is handed on as (for an operator, another)."""
    binary = name.startswith("__") and name not in _UNARY_DUNDERS
    self_counted = name in _SELF_COUNTED

    def method(self, *args, **kwargs):
        if _TLS.disabled != _ALL:
            found = _needs_dispatch((self,) + args, kwargs)
            if found is not None:
                if self_counted and _TLS.disabled == 0:
                    found = _add(list(found), self) if found else [self]
                if not binary:
                    return how.call(target[0], found, (self,) + args, kwargs)
                try:
                    return how.call(target[0], found, (self,) + args, kwargs)
                except TypeError:  # (as PyTorch's operators: Python then tries the other operand)
                    return NotImplemented
        return fn(self, *args, **kwargs)
    functools.update_wrapper(method, fn)
    method.__name__ = name
    method.__qualname__ = f"Tensor.{name}"
    return method


def _wrap_property(prop: property, name: str) -> property:
    """Tensor property ``name``, whose getter and setter are handed on as ``Tensor.name.__get__`` / ``__set__``."""
    fget, fset = prop.fget, prop.fset
    cell: list = []
    get_how = _Public(f"torch.Tensor.{name}.__get__", False)
    set_how = _Public(f"torch.Tensor.{name}.__set__", False)

    # (PyTorch's C++ getters and setters hand on ``self`` alone: ``types`` is ``(type(self),)``, a Parameter's too)
    def getter(self):
        if _needs_dispatch((self,), None) is not None:
            return get_how.call(cell[0].__get__, [self], (self,), None)
        return fget(self)

    def setter(self, value) -> None:
        if _needs_dispatch((self,), None) is not None:
            set_how.call(cell[0].__set__, [self], (self, value), None)
            return
        fset(self, value)
    cell.append(_Property(getter, setter if fset is not None else None, prop.fdel, prop.__doc__))
    cell[0].__name__ = name
    return cell[0]


class _Property(property):
    """A property with a ``__name__``, as PyTorch's getset descriptors have (``func.__self__.__name__``)."""


def _activate() -> None:
    """Wrap Tensor's methods, operators and properties (once: the first subclass, mode or tensor-like)."""
    if _STATE.active:
        return
    _STATE.active = True
    if "__rdiv__" not in vars(Tensor):  # (PyTorch's name for the reflected division, which it hands on)
        Tensor.__rdiv__ = Tensor.__rtruediv__
    rdiv_alias = vars(Tensor)["__rtruediv__"] is vars(Tensor)["__rdiv__"]
    targets = {}
    for name, value in list(vars(Tensor).items()):
        if name in _TENSOR_IGNORED or (name.startswith("_") and not (name.startswith("__") and name.endswith("__"))):
            continue
        if isinstance(value, property):
            setattr(Tensor, name, _wrap_property(value, name))
        elif inspect.isfunction(value) and (not name.startswith("__") or name in _UNARY_DUNDERS
                                            or name in _OPERATOR_FUNCS or name in _TENSOR_PYTHON
                                            or name in ("__eq__", "__invert__", "__and__", "__or__", "__xor__",
                                                        "__lshift__", "__rshift__")):
            target = _OPERATOR_FUNCS.get(name, name)
            python_level = target in _TENSOR_PYTHON or name in ("__pow__", "__ipow__")
            label = f"torch._tensor.{target}" if python_level else f"torch.Tensor.{target}"
            targets[name] = target = []
            setattr(Tensor, name, _wrap_method(value, name, _Public(label, python_level, value), target))
    if rdiv_alias:  # (PyTorch's `__rtruediv__ = __rdiv__`: one wrapped function under both names)
        Tensor.__rtruediv__ = Tensor.__rdiv__
    for name, target in targets.items():
        target.append(getattr(Tensor, _OPERATOR_FUNCS.get(name, name), None) or getattr(Tensor, name))
    _NOWRAP.append(frozenset((Tensor._base.__get__, Tensor.grad.__get__, Tensor._grad.__get__)))


def subclass_defined(cls: type) -> None:
    """Called for each new Tensor subclass: one with a working __torch_function__ turns the protocol on."""
    _OVERLOADED.pop(cls, None)
    if cls.__dict__.get("_torch_name") == "torch.Tensor":
        _PLAIN.add(cls)  # (minigrad's own representations of plain tensors: sparse.SparseTensor)
    elif getattr(cls, "__torch_function__", None) is not _disabled_torch_function_impl \
            and not cls.__dict__.get("_protocol_on_init"):   # (nn.UninitializedParameter: when one is made)
        _activate()


# Tensor's dunders that PyTorch's TensorBase fills as type slots: printed "<slot wrapper '__getitem__' of ...>"
_SLOT_DUNDERS = frozenset(("__getitem__", "__setitem__", "__delitem__"))


def builtin_label(func) -> str:
    """``str(func)`` of PyTorch's function or method that ``func`` stands for (as handed to __torch_function__)."""
    how = getattr(func, "__torch_public__", None)
    qualname = getattr(func, "__qualname__", "")
    if how is None and qualname.startswith("Tensor.") and qualname[7:] not in _TENSOR_PYTHON:
        name = "numel" if qualname == "Tensor.nelement" else qualname[7:]   # (PyTorch's nelement hands on numel)
        kind = "slot wrapper" if name in _SLOT_DUNDERS else "method"
        return f"<{kind} '{name}' of 'torch._C.TensorBase' objects>"
    if how is None or how.python_level:
        return str(func)   # (a function PyTorch writes in Python too: <function relu at 0x...>)
    if how.name.count(".") > 1:   # torch.nn.linear, torch.linalg.det: functions of a module of torch._C
        return f"<built-in function {func.__name__}>"
    # (a static method of torch._C._VariableFunctionsClass: PyTorch prints that class's address, here Tensor's)
    return f"<built-in method {func.__name__} of type object at {hex(id(Tensor))}>"


# ---- Tensor.__torch_function__ -------------------------------------------------------------------------------

def _convert(ret, cls: type):
    """``ret`` with its plain tensors turned into ``cls`` (as_subclass), also inside tuples and lists."""
    if cls is Tensor:
        return ret
    if isinstance(ret, Tensor) and not isinstance(ret, cls):
        ret = ret.as_subclass(cls)
    if isinstance(ret, (tuple, list)):
        ret = type(ret)(_convert(r, cls) for r in ret)  # (also the return_types named tuples)
    return ret


def default_torch_function(cls: type, func, types: tuple, args=(), kwargs=None):
    """``Tensor.__torch_function__``: run ``func`` with the protocol off, the tensors it returns made ``cls``."""
    if kwargs is None:
        kwargs = {}
    if not all(issubclass(cls, t) for t in types):
        return NotImplemented
    if _is_torch_func(func):
        return NotImplemented  # (real PyTorch asking: torch_tensor == minigrad_tensor, see _is_foreign)
    with DisableTorchFunctionSubclass():
        ret = func(*args, **kwargs)
        if func in (_NOWRAP[0] if _NOWRAP else get_default_nowrap_functions()):
            return ret
        return _convert(ret, cls)


def _is_torch_func(func) -> bool:
    """Whether ``func`` is real PyTorch's: torch.add, torch.Tensor.__eq__ (a method of torch._C.TensorBase),
    torch.Tensor.grad.__get__ (of a getset descriptor of TensorBase), torch.nn.functional.relu ..."""
    owner = getattr(func, "__objclass__", None) or getattr(getattr(func, "__self__", None), "__objclass__", None)
    module = getattr(owner if owner is not None else func, "__module__", None)
    return isinstance(module, str) and module.split(".")[0] == "torch"


def _make_subclass(cls: type, data: Tensor, require_grad: bool = False, **_ignored) -> Tensor:
    """``Tensor._make_subclass(cls, data, require_grad)``: ``data``'s storage as a new ``cls`` leaf."""
    if not (isinstance(cls, type) and issubclass(cls, Tensor)):
        raise TypeError("cls must be a type (got " + type(cls).__name__ + ")")
    fresh = data.detach()
    out = object.__new__(cls)
    for slot in Tensor.__slots__[2:]:
        setattr(out, slot, getattr(fresh, slot))
    if require_grad:
        with DisableTorchFunction():  # (set directly, as PyTorch's C++ does: no __set__ call)
            out.requires_grad_(True)
    return out


# ---- the public API of torch.overrides -----------------------------------------------------------------------

def has_torch_function(relevant_args: Iterable) -> bool:
    """True if an argument defines __torch_function__ (not a plain Tensor) or a mode is on."""
    if _TLS.disabled == _ALL:
        return False
    if _TLS.modes:
        return True
    if _TLS.disabled:
        return False
    return any(type(a) not in _PLAIN and _is_overloaded(type(a)) for a in relevant_args)


def has_torch_function_unary(obj) -> bool:
    """has_torch_function((obj,))."""
    return has_torch_function((obj,))


def has_torch_function_variadic(*args) -> bool:
    """has_torch_function(args)."""
    return has_torch_function(args)


def handle_torch_function(public_api: Callable, relevant_args: Iterable, *args, **kwargs) -> Any:
    """Call the __torch_function__ of the mode and of ``relevant_args`` for ``public_api(*args, **kwargs)``."""
    found = _with_tensors(relevant_args)
    if not _STATE.active and any(not isinstance(a, Tensor) for a in found):
        _activate()
    name = f"{getattr(public_api, '__module__', None)}.{getattr(public_api, '__name__', public_api)}"
    if name.startswith("minigrad._C._"):   # (torch.special.special_i0: the C function's name in its namespace)
        name = "torch." + name[len("minigrad._C._"):]
    elif name.startswith("minigrad"):
        name = "torch" + name[len("minigrad"):]
    return _dispatch(public_api, found, args, kwargs, name, True)


def is_tensor_like(inp) -> bool:
    """True for a Tensor or anything whose type defines __torch_function__."""
    return type(inp) is Tensor or hasattr(inp, "__torch_function__")


def is_tensor_method_or_property(func: Callable) -> bool:
    """True for a Tensor method or a property getter (``Tensor.grad.__get__``)."""
    return func in _tensor_methods() or getattr(func, "__name__", None) == "__get__"


def _tensor_methods() -> set:
    return {v for k, v in vars(Tensor).items() if inspect.isfunction(v) and k not in _TENSOR_IGNORED}


def get_default_nowrap_functions() -> set:
    """The functions whose results Tensor.__torch_function__ returns as they are (the ``.grad`` getters ...)."""
    if _NOWRAP:
        return set(_NOWRAP[0])
    return {Tensor._base.__get__, Tensor.grad.__get__, Tensor._grad.__get__}


def _namespaces() -> list:
    """The modules of public functions, in PyTorch's order (a function in two gets the later one's name)."""
    import minigrad
    return [minigrad, minigrad.functional, minigrad.nn.functional, minigrad.linalg, minigrad.fft, minigrad.special]


def get_ignored_functions() -> set:
    """Public functions that take no part in the protocol (no tensor arguments, settings ...)."""
    import minigrad
    ignored = {getattr(minigrad, n) for n in IGNORED if callable(getattr(minigrad, n, None))}
    return ignored | {getattr(Tensor, n) for n in _TENSOR_IGNORED if n in vars(Tensor)}


def get_overridable_functions() -> dict:
    """``{namespace: [functions]}`` of the public functions and Tensor methods that __torch_function__ can override."""
    out = {}
    for ns in _namespaces():
        out[ns] = [v for k, v in vars(ns).items() if hasattr(v, "__torch_public__") and not k.startswith("_")]
    out[Tensor] = sorted(_tensor_methods(), key=lambda f: f.__name__)
    return out


_NAME_INDEX: list = []   # [{function: public name}], built on first use


def resolve_name(f) -> str | None:
    """The public name under which ``f`` is reached ("torch.add", "torch.Tensor.add", "torch.Tensor.shape.__get__",
    "torch.nn.functional.relu"), or None for a function that is not overridable: what a TorchFunctionMode logs."""
    if not _NAME_INDEX:
        index: dict = {}
        # (PyTorch's order: a function reached from two namespaces gets the later one's name)
        for ns in _namespaces():
            prefix = ns.__name__.replace("minigrad", "torch", 1)
            for k, v in vars(ns).items():
                if callable(v) and hasattr(v, "__torch_public__") and not k.startswith("_"):
                    index[v] = f"{prefix}.{k}"
        for k, v in vars(Tensor).items():
            if isinstance(v, property):   # (a getter and a setter are handed on as Tensor.name.__get__ / __set__)
                index[v.__get__] = f"torch.Tensor.{k}.__get__"
                index[v.__set__] = f"torch.Tensor.{k}.__set__"
            elif inspect.isfunction(v):
                index[v] = f"torch.Tensor.{k}"
        _NAME_INDEX.append(index)
    try:
        return _NAME_INDEX[0].get(f)
    except TypeError:   # (an unhashable object is no function of torch's)
        return None


def get_testing_overrides() -> dict:
    """``{function: dummy}``: a lambda returning -1 for each overridable function (as PyTorch's, for tests)."""
    return {f: (lambda *args, **kwargs: -1) for fs in get_overridable_functions().values() for f in fs}


@contextlib.contextmanager
def enable_reentrant_dispatch():
    """A no-op context here (PyTorch's restores its Python dispatcher state; minigrad has none)."""
    yield


# ---- modes ---------------------------------------------------------------------------------------------------

class TorchFunctionMode(metaclass=TorchNamed):
    """Subclass and define ``__torch_function__(self, func, types, args=(), kwargs=None)``; ``with Mode():``
    every public function and Tensor method called inside goes to it."""

    def __init__(self) -> None:
        pass

    def __torch_function__(self, func, types, args=(), kwargs=None):
        raise NotImplementedError

    def __repr__(self) -> str:
        return object_repr(self)  # (<torch.overrides.TorchFunctionMode object at ...>)

    def __enter__(self):
        _activate()
        _TLS.modes.append(self)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb) -> None:
        _TLS.modes.pop()


def _get_current_function_mode():
    """The innermost active mode, or None."""
    return _TLS.modes[-1] if _TLS.modes else None


def _get_current_function_mode_stack() -> list:
    """The active modes, outermost first."""
    return list(_TLS.modes)


def _push_mode(mode: TorchFunctionMode) -> None:
    _activate()
    _TLS.modes.append(mode)


def _pop_mode() -> TorchFunctionMode:
    return _TLS.modes.pop()


@contextlib.contextmanager
def _pop_mode_temporarily():
    """The innermost mode, off for the duration."""
    mode = _TLS.modes.pop()
    try:
        yield mode
    finally:
        _TLS.modes.append(mode)


# ---- installing the public functions -------------------------------------------------------------------------

# minigrad.* functions PyTorch does not dispatch (settings, random state, no tensor arguments) or has not at all.
IGNORED = frozenset((
    "addcdiv_", "addcmul_", "are_deterministic_algorithms_enabled", "autocast_decrement_nesting",
    "autocast_increment_nesting", "broadcast_shapes", "clear_autocast_cache", "compile", "eig", "erfinv_",
    "get_autocast_cpu_dtype", "get_autocast_dtype", "get_autocast_gpu_dtype", "get_default_device", "get_default_dtype",
    "get_deterministic_debug_mode", "get_float32_matmul_precision", "get_num_interop_threads", "get_num_threads",
    "get_rng_state", "init_num_threads", "initial_seed", "is_anomaly_check_nan_enabled", "is_anomaly_enabled",
    "is_autocast_cache_enabled", "is_autocast_cpu_enabled", "is_autocast_enabled",
    "is_deterministic_algorithms_warn_only_enabled", "is_grad_enabled", "is_inference_mode_enabled", "is_tensor",
    "is_warn_always_enabled", "load", "lstsq", "manual_seed", "matrix_rank", "repeat", "save", "seed",
    "set_anomaly_enabled", "set_autocast_cache_enabled", "set_autocast_cpu_dtype", "set_autocast_cpu_enabled",
    "set_autocast_dtype", "set_autocast_enabled", "set_default_device", "set_default_dtype",
    "set_default_tensor_type", "set_deterministic_debug_mode", "set_float32_matmul_precision",
    "set_num_interop_threads", "set_num_threads", "set_printoptions", "set_rng_state", "set_warn_always", "solve",
    "sum_to_size", "symeig", "typename", "use_deterministic_algorithms", "vmap", "is_storage", "result_type",
    "can_cast", "promote_types",
))
# torch.* functions written in Python (torch/functional.py): Python-level calls.
_TORCH_PYTHON = frozenset(("atleast_1d", "atleast_2d", "atleast_3d", "block_diag", "broadcast_tensors",
                           "cartesian_prod", "cdist", "chain_matmul", "einsum", "meshgrid", "norm", "split", "stft",
                           "tensordot", "unique_consecutive", "unravel_index", "unique", "lu", "istft"))
# F.* functions bound in C++ (the others are Python, with handle_torch_function); those of torch._C._nn are
# named torch.nn.xxx in PyTorch's messages.
_F_C = frozenset(("adaptive_avg_pool1d", "avg_pool1d", "avg_pool2d", "avg_pool3d", "bilinear", "celu_",
                  "channel_shuffle", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                  "conv_transpose3d", "cosine_similarity", "elu_", "gelu", "hardshrink", "hardtanh_", "leaky_relu_",
                  "linear", "logsigmoid", "one_hot", "pairwise_distance", "pdist", "pixel_shuffle", "pixel_unshuffle",
                  "prelu", "relu_", "rrelu_", "scaled_dot_product_attention", "selu_", "softplus", "softshrink",
                  "threshold_"))
_F_NN = frozenset(("avg_pool2d", "avg_pool3d", "elu_", "gelu", "hardtanh_", "leaky_relu_", "linear", "logsigmoid",
                   "one_hot", "scaled_dot_product_attention", "softplus", "softshrink"))


# Factories: no tensor arguments to look for (``torch.tensor(big_list)`` is not scanned), only a mode.
_FACTORIES = frozenset(("tensor", "as_tensor", "asarray", "from_numpy", "frombuffer", "zeros", "ones", "empty", "full",
                        "arange", "range", "linspace", "logspace", "eye", "rand", "randn", "randint", "randperm",
                        "scalar_tensor", "empty_strided", "tril_indices", "triu_indices", "bartlett_window",
                        "blackman_window", "hamming_window", "hann_window", "kaiser_window", "sparse_coo_tensor"))


def wrap_factory(fn: Callable, name: str) -> Callable:
    """``fn`` as a public factory: handed to the mode, if one is on (a factory takes no tensor-likes)."""
    how = _Public(name, False, fn)

    @functools.wraps(fn)
    def public(*args, **kwargs):
        if _STATE.active and _TLS.modes and _TLS.disabled != _ALL:  # (a mode sets active)
            return how.call(public, [], args, kwargs)
        if (kwargs or _meta._DEFAULT[0] is not None) and _meta.requested(kwargs):   # (on the meta device: _meta.py)
            return _meta.create(public, args, kwargs)
        try:
            return fn(*args, **kwargs)
        except Exception as error:
            _arg_errors.reparse(name, args, kwargs, error)  # (PyTorch's parser error, if its parser refuses)
            raise
    public.__torch_public__ = how
    return public


def _is_public_function(name: str, value) -> bool:
    return (not name.startswith("_") and callable(value) and not isinstance(value, type)
            and not inspect.ismodule(value) and not hasattr(value, "__torch_public__"))


def install(namespace: dict) -> None:
    """Wrap the public functions of ``minigrad`` (see wrap_function)."""
    for name, value in list(namespace.items()):
        if name in IGNORED or not _is_public_function(name, value):
            continue
        if name in _FACTORIES:
            public = wrap_factory(value, f"torch.{name}")
        elif name in _TORCH_PYTHON:
            public = wrap_function(value, f"torch.functional.{name}", True)
        else:
            public = wrap_function(value, f"torch.{name}")
        # (PyTorch's name, the attribute's: ``torch.fix.__name__`` is "fix", not "trunc"; pickle finds the function
        # again as minigrad.<name>)
        public.__module__, public.__qualname__, public.__name__ = "minigrad", name, name
        namespace[name] = public


def install_functional(namespace: dict) -> None:
    """Wrap the public functions of ``minigrad.nn.functional``."""
    for name, value in list(namespace.items()):
        if not _is_public_function(name, value) or getattr(value, "__module__", "").startswith("typing"):
            continue
        if name in _F_C:
            namespace[name] = wrap_function(value, f"torch.nn.{name}" if name in _F_NN else f"torch.{name}")
        else:
            namespace[name] = wrap_function(value, f"torch.nn.functional.{name}", True)


def install_namespace(namespace: dict, prefix: str) -> None:
    """Wrap the public functions of ``minigrad.linalg`` / ``fft`` / ``special`` (C++-bound in PyTorch: a mode sees
    ``torch.linalg.det`` itself, named ``linalg_det``, not the Tensor methods its implementation calls)."""
    for name, value in list(namespace.items()):
        if not _is_public_function(name, value) or getattr(value, "__module__", "").startswith("typing"):
            continue
        public = (wrap_factory if name in _FACTORIES or name.endswith("freq") else wrap_function)(
            value, f"torch.{prefix}.{name}")
        public.__name__ = f"{prefix}_{name}"   # (PyTorch's builtin's name, whatever the function's own is)
        namespace[name] = public


def _autograd_tensors(args: tuple) -> list:
    """The tensors of ``backward(tensors, ...)`` / ``grad(outputs, inputs, ...)`` (each a tensor or a sequence)."""
    out = []
    for a in args[:2]:
        out.extend(a if isinstance(a, (tuple, list)) else (a,))
    return out


def install_autograd(namespace: dict) -> None:
    """Wrap ``minigrad.autograd.backward`` and ``grad`` (PyTorch hands them on, with their tensors)."""
    for name in ("backward", "grad"):
        public = namespace[name] = wrap_function(namespace[name], f"torch.autograd.{name}", True, _autograd_tensors)
        how = public.__torch_public__
        if how.signature is not None:  # (PyTorch does not hand on the deprecated grad_variables)
            how.signature = how.signature.replace(parameters=[
                p for p in how.signature.parameters.values() if p.name != "grad_variables"])
