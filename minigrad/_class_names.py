"""``type(obj)`` prints PyTorch's class name: ``<class 'torch.nn.modules.linear.Linear'>``.

Only the printed form changes (a metaclass ``__repr__``): ``__module__`` stays minigrad's, so pickling,
imports and tracebacks are untouched.
"""
from __future__ import annotations

import abc


class _MetaclassNamed(type):
    """The metaclasses' own type: they print as the metaclass PyTorch's class has: ``type`` for a plain class
    (``type(torch.nn.Module)``: TorchNamed and CTypeNamed), a ``_torch_name``, else under ``torch.``."""

    def __repr__(cls) -> str:
        name = cls.__dict__.get("_torch_name")
        if name is None and cls in (TorchNamed, CTypeNamed, CNodeNamed, FunctionNodeNamed):
            name = "type"
        elif name is None:
            name = f"torch{cls.__module__[len('minigrad'):]}.{cls.__qualname__}"
        return f"<class '{name}'>"


class TorchNamed(type, metaclass=_MetaclassNamed):
    """Metaclass: the class prints under ``torch.`` (or under its own ``_torch_name``)."""

    def __repr__(cls) -> str:
        name = cls.__dict__.get("_torch_name")   # own attribute only: subclasses get their own name
        if name is None:
            module = cls.__module__
            if module != "minigrad" and not module.startswith("minigrad."):
                return super().__repr__()        # a user's subclass: <class '__main__.Net'>
            name = f"torch{module[len('minigrad'):]}.{cls.__qualname__}"
        return f"<class '{name}'>"


class CTypeNamed(TorchNamed):
    """Metaclass of the classes PyTorch writes in C (``torch.Size``, ``torch.dtype``, ``torch.device``): Python's own
    messages name a C type by its full name (``'torch.Size' object is not callable``, for ``x.shape()``), while its
    ``__name__`` is the short one. The class's type name (what those messages read) is set to the full name (its
    ``_torch_name``, else ``torch.<name>``); the ``__name__`` property gives back the part after the last dot."""

    def __init__(cls, name, bases, namespace, **kwargs) -> None:
        super().__init__(name, bases, namespace, **kwargs)
        _TYPE_NAME.__set__(cls, namespace.get("_torch_name", f"torch.{name}"))

    @property
    def __name__(cls) -> str:
        return _TYPE_NAME.__get__(cls).rpartition(".")[2]


_TYPE_NAME = type.__dict__["__name__"]   # (the type name itself, under the property)


class NodeNamed(TorchNamed):
    """Metaclass of torch.autograd.graph.Node and its subclasses. PyTorch's Node is an abstract ``abc.ABC`` that its
    own nodes do not derive from (isinstance holds through its ``__subclasshook__``): its ``__mro__`` and
    ``__bases__`` show abc.ABC after it. Only what those attributes read changes: minigrad's Node is a real base
    holding the nodes' code, and lookups, isinstance and super() follow the real order."""

    _torch_name = "abc.ABCMeta"   # (how the metaclass prints: PyTorch's Node's)

    @property
    def __mro__(cls) -> tuple:
        return _MRO.__get__(cls)[:-1] + (abc.ABC, object)   # (..., Node, object): Node derives from object alone

    @property
    def __bases__(cls) -> tuple:
        bases = _BASES.__get__(cls)
        return (abc.ABC,) if bases == (object,) else bases   # (Node's, from abc.ABC)


class FunctionNodeNamed(NodeNamed):
    """Metaclass of a custom Function's node classes (BackwardCFunction): no Node in their ``__mro__`` and
    ``__bases__``, as PyTorch's, which are Nodes through Node's ``__subclasshook__`` alone."""

    @property
    def __mro__(cls) -> tuple:
        mro = _MRO.__get__(cls)
        return mro[:-2] + mro[-1:]

    @property
    def __bases__(cls) -> tuple:
        node = _MRO.__get__(cls)[-2]
        return tuple(b for b in _BASES.__get__(cls) if b is not node)


class CNodeNamed(NodeNamed):
    """Metaclass of the autograd node classes PyTorch writes in C++ (MulBackward0, AccumulateGrad, CopySlices ...):
    their ``__mro__`` and ``__bases__`` show no Python base, as PyTorch's. Only what those attributes read changes:
    the classes still derive from minigrad's Node (lookups, isinstance and super() follow the real order, as does
    ``dir`` of the class)."""

    @property
    def __mro__(cls) -> tuple:
        return (cls, object)

    @property
    def __bases__(cls) -> tuple:
        return (object,)

    def __dir__(cls) -> list:
        return sorted({name for c in _MRO.__get__(cls) for name in vars(c)})


_MRO = type.__dict__["__mro__"]   # (the real method resolution order, under the property)
_BASES = type.__dict__["__bases__"]


def real_mro(cls: type) -> tuple:
    """The method resolution order of ``cls`` Python follows, whatever its shown ``__mro__`` (the node classes')."""
    return _MRO.__get__(cls)


def torch_named_tuple(cls: type) -> type:
    """A ``typing.NamedTuple`` class remade under ``TorchNamed``: one class over tuple, as PyTorch's namedtuples are
    (``__mro__`` shows no helper base), printed under ``torch.``."""
    namespace = {k: v for k, v in vars(cls).items() if k not in ("__dict__", "__weakref__")}
    return TorchNamed(cls.__name__, (tuple,), namespace)


def tp_name(obj) -> str:
    """The name PyTorch's messages give the type of ``obj`` (its C type name: ``torch.Size``, ``float``)."""
    return _TYPE_NAME.__get__(type(obj))


def object_repr(obj) -> str:
    """``object.__repr__`` with PyTorch's module path for minigrad's classes: ``<torch.x.Y object at 0x...>``."""
    cls = type(obj)
    module = cls.__module__
    if module == "minigrad" or module.startswith("minigrad."):
        module = "torch" + module[len("minigrad"):]
    return f"<{module}.{cls.__qualname__} object at {hex(id(obj))}>"


def install_module_getattr(modules: dict) -> None:
    """``torch.linalg.foo`` raises ``AttributeError: module 'torch.linalg' has no attribute 'foo'``: each public
    minigrad module of ``modules`` (sys.modules) gets a module ``__getattr__`` (PEP 562: asked only for the names
    the module does not have) that names it as PyTorch's module."""
    for name, module in list(modules.items()):
        if module is None or "__getattr__" in vars(module):
            continue
        if (name == "minigrad" or name.startswith("minigrad.")) and not any(
                part.startswith("_") for part in name.split(".")):
            module.__getattr__ = _missing_attribute(name, module)


def _missing_attribute(module_name: str, module):
    torch_name = "torch" + module_name[len("minigrad"):]

    def __getattr__(name: str):
        # (name and obj: Python's "Did you mean ...?" suggestions still see the module's names)
        raise AttributeError(f"module '{torch_name}' has no attribute '{name}'", name=name, obj=module)
    return __getattr__
