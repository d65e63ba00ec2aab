"""Containers: Sequential (run modules in order) and ModuleList (a list that registers its modules)."""
from __future__ import annotations

import operator
import warnings
from collections import OrderedDict
from collections.abc import Iterable, Mapping

from ..._tensor import Tensor
from ..parameter import Parameter
from .module import Module, _addindent


class Container(Module):
    """The old base of containers (deprecated: creating one warns); its keyword arguments become children."""

    def __init__(self, **kwargs) -> None:
        warnings.warn("`nn.Container` is deprecated. All of its functionality is now implemented in `nn.Module`. "
                      "Subclass that instead.", FutureWarning, stacklevel=2)
        super().__init__()
        for key, value in kwargs.items():
            self.add_module(key, value)


class Sequential(Module):
    """Modules applied one after another: ``Sequential(a, b)(x) == b(a(x))``."""

    def __init__(self, *args) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def _index(self, idx: int) -> int:
        size = len(self)
        idx = operator.index(idx)   # (model["0"]: PyTorch's TypeError, not a comparison's)
        if not -size <= idx < size:
            raise IndexError(f"index {idx} is out of range")
        return idx % size

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(OrderedDict(list(self._modules.items())[idx]))
        return list(self._modules.values())[self._index(idx)]

    def __setitem__(self, idx: int, module: Module) -> None:
        key = list(self._modules.keys())[self._index(idx)]
        setattr(self, key, module)

    def __delitem__(self, idx) -> None:
        keys = list(self._modules.keys())
        for key in (keys[idx] if isinstance(idx, slice) else [keys[self._index(idx)]]):
            del self._modules[key]
        # keep the numbering contiguous, as PyTorch does
        items = list(self._modules.values())
        self._modules.clear()
        for i, module in enumerate(items):
            self._modules[str(i)] = module

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def append(self, module: Module) -> Sequential:
        """Add ``module`` at the end."""
        self.add_module(str(len(self)), module)
        return self

    def insert(self, index: int, module: Module) -> Sequential:
        """Insert ``module`` before ``index``."""
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        n = len(self._modules)
        if not (-n <= index <= n):
            raise IndexError(f"Index out of range: {index}")
        if index < 0:
            index += n
        for i in range(n, index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module
        return self

    def extend(self, sequential) -> Sequential:
        """Add each of the modules of ``sequential`` at the end."""
        for layer in sequential:
            self.append(layer)
        return self

    def pop(self, key):
        """Remove and return the module at ``key``."""
        v = self[key]
        del self[key]
        return v

    def __add__(self, other) -> Sequential:
        if not isinstance(other, Sequential):
            raise ValueError(f"add operator supports only objects of Sequential class, but {type(other)} is given.")
        return Sequential(*self, *other)

    def __iadd__(self, other) -> Sequential:
        if not isinstance(other, Sequential):
            raise ValueError(f"add operator supports only objects of Sequential class, but {type(other)} is given.")
        offset = len(self)
        for i, module in enumerate(other):
            self.add_module(str(i + offset), module)
        return self

    def __mul__(self, other: int) -> Sequential:
        if not isinstance(other, int):
            raise TypeError(f"unsupported operand type(s) for *: {type(self)} and {type(other)}")
        if other <= 0:
            raise ValueError(f"Non-positive multiplication factor {other} for {type(self)}")
        return Sequential(*(list(self) * other))   # (the same module objects, repeated)

    def __rmul__(self, other: int) -> Sequential:
        return self.__mul__(other)

    def __imul__(self, other: int) -> Sequential:
        if not isinstance(other, int):
            raise TypeError(f"unsupported operand type(s) for *: {type(self)} and {type(other)}")
        if other <= 0:
            raise ValueError(f"Non-positive multiplication factor {other} for {type(self)}")
        for module in list(self) * (other - 1):
            self.append(module)
        return self

    def forward(self, input):
        for module in self:
            input = module(input)
        return input


def _abs_string_index(container, idx) -> str:
    """PyTorch's _get_abs_string_index: the key of entry ``idx`` (an integer, possibly negative) of a list-like
    container, with its TypeError for a non-integer and IndexError out of range."""
    idx = operator.index(idx)
    if not -len(container) <= idx < len(container):
        raise IndexError(f"index {idx} is out of range")
    return str(idx + len(container) if idx < 0 else idx)


class ModuleList(Module):
    """A list of modules whose parameters the parent module sees."""

    def __init__(self, modules=None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(list(self._modules.values())[idx])
        return self._modules[_abs_string_index(self, idx)]

    def __setitem__(self, idx: int, module: Module) -> None:
        setattr(self, _abs_string_index(self, idx), module)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __add__(self, other) -> ModuleList:
        return ModuleList([*self, *other])

    def __iadd__(self, modules) -> ModuleList:
        return self.extend(modules)

    def append(self, module: Module) -> ModuleList:
        """Add ``module`` at the end."""
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules) -> ModuleList:
        """Add each of ``modules`` at the end."""
        if not isinstance(modules, Iterable):
            raise TypeError(f"ModuleList.extend should be called with an iterable, but got {type(modules).__name__}")
        for module in modules:
            self.append(module)
        return self

    def insert(self, index: int, module: Module) -> None:
        """Insert ``module`` before ``index``."""
        items = list(self._modules.values())
        items.insert(index, module)
        self._modules.clear()
        for i, m in enumerate(items):
            self._modules[str(i)] = m

    def pop(self, key):
        """Remove and return the module at ``key``."""
        v = self[key]
        del self[key]
        return v

    def __delitem__(self, idx) -> None:
        keys = list(self._modules)
        for key in (keys[idx] if isinstance(idx, slice) else [_abs_string_index(self, idx)]):
            del self._modules[key]
        items = list(self._modules.values())   # renumbered, as PyTorch does
        self._modules.clear()
        for i, m in enumerate(items):
            self._modules[str(i)] = m

    def __repr__(self) -> str:
        # Runs of identical children print once: "(0-1): 2 x ReLU()" (PyTorch's ModuleList repr).
        reprs = [repr(m) for m in self]
        if not reprs:
            return self._get_name() + "()"
        lines, start = [], 0
        for end in range(1, len(reprs) + 1):
            if end == len(reprs) or reprs[end] != reprs[start]:
                body = _addindent(reprs[start], 2)
                count = end - start
                lines.append(f"({start}): {body}" if count == 1 else f"({start}-{end - 1}): {count} x {body}")
                start = end
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


# ---- coverage pass: ModuleDict, ParameterList, ParameterDict ----------------------------------------

class ModuleDict(Module):
    """An ordered dict of modules whose parameters the parent module sees."""

    def __init__(self, modules=None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key: str) -> bool:
        return key in self._modules

    def clear(self) -> None:
        """Remove every module."""
        self._modules.clear()

    def pop(self, key: str) -> Module:
        """Remove ``key`` and return its module."""
        module = self[key]
        del self[key]
        return module

    def keys(self):
        """The names, in insertion order."""
        return self._modules.keys()

    def items(self):
        """(name, module) pairs, in insertion order."""
        return self._modules.items()

    def values(self):
        """The modules, in insertion order."""
        return self._modules.values()

    def update(self, modules) -> None:
        """Add (or replace) modules from a mapping or an iterable of (name, module) pairs (PyTorch's checks)."""
        if not isinstance(modules, Iterable):
            raise TypeError("ModuleDict.update should be called with an iterable of key/value pairs, but got "
                            f"{type(modules).__name__}")
        if isinstance(modules, (OrderedDict, ModuleDict, Mapping)):
            for key, module in modules.items():
                self[key] = module
            return
        for j, m in enumerate(modules):
            if not isinstance(m, Iterable):
                raise TypeError(f"ModuleDict update sequence element #{j} should be Iterable; is{type(m).__name__}")
            if not len(m) == 2:
                raise ValueError(f"ModuleDict update sequence element #{j} has length {len(m)}; 2 is required")
            self[m[0]] = m[1]


def _param_line(p) -> str:
    if not hasattr(p, "shape"):  # (any other value: ParameterList holds it as it is)
        return f"Object of type: {type(p).__name__}"
    size = "x".join(str(s) for s in p.shape)
    kind = "Parameter" if isinstance(p, Parameter) else "Tensor"
    return f"{kind} containing: [{p.dtype} of size {size}]"


class ParameterList(Module):
    """A list of parameters registered on the module (plain tensors become Parameters)."""

    def __init__(self, values=None) -> None:
        super().__init__()
        object.__setattr__(self, "_size", 0)
        if values is not None:
            self.extend(values)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return ParameterList([self[i] for i in range(len(self))[idx]])
        return getattr(self, _abs_string_index(self, idx))

    def __setitem__(self, idx: int, param) -> None:
        setattr(self, _abs_string_index(self, idx), _as_parameter(param))

    def __len__(self) -> int:
        return self._size

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def append(self, value) -> ParameterList:
        """Add ``value`` at the end."""
        object.__setattr__(self, "_size", self._size + 1)
        self[self._size - 1] = value
        return self

    def extend(self, values) -> ParameterList:
        """Add each of ``values`` at the end."""
        if not isinstance(values, Iterable) or isinstance(values, Tensor):
            raise TypeError(f"ParameterList.extend should be called with an iterable, but got {type(values).__name__}")
        for value in values:
            self.append(value)
        return self

    def __iadd__(self, values) -> ParameterList:
        return self.extend(values)

    def extra_repr(self) -> str:
        return "\n".join(f"  ({i}): {_param_line(p)}" for i, p in enumerate(self))


def _as_parameter(value):
    from ..._tensor import Tensor
    return Parameter(value) if isinstance(value, Tensor) and not isinstance(value, Parameter) else value


class ParameterDict(Module):
    """An ordered dict of parameters registered on the module."""

    def __init__(self, parameters=None) -> None:
        super().__init__()
        object.__setattr__(self, "_keys", {})
        if parameters is not None:
            self.update(parameters)

    def _key_to_attr(self, key: str) -> str:
        """The attribute holding entry ``key``: the key itself, which must be a string (PyTorch's error)."""
        if not isinstance(key, str):
            raise TypeError("Index given to ParameterDict cannot be used as a key as it is not a string (type is "
                            f"'{type(key).__name__}'). Open an issue on github if you need non-string keys.")
        return key

    def __getitem__(self, key: str):
        return getattr(self, self._key_to_attr(key))

    def __setitem__(self, key: str, value) -> None:
        self._keys[key] = None   # (as PyTorch's: recorded before the key is checked)
        setattr(self, self._key_to_attr(key), _as_parameter(value))

    def __delitem__(self, key: str) -> None:
        del self._keys[key]
        delattr(self, self._key_to_attr(key))

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self):
        return iter(self._keys)

    def __contains__(self, key: str) -> bool:
        return key in self._keys

    def keys(self):
        """The names, in insertion order."""
        return self._keys.keys()

    def items(self):
        """(name, parameter) pairs, in insertion order."""
        return ((k, self[k]) for k in self._keys)

    def values(self):
        """The parameters, in insertion order."""
        return (self[k] for k in self._keys)

    def get(self, key: str, default=None):
        """The parameter at ``key``, or ``default``."""
        return self[key] if key in self else default

    def setdefault(self, key: str, default=None):
        """The parameter at ``key``, first set to ``default`` if missing."""
        if key not in self:
            self[key] = default
        return self[key]

    def pop(self, key: str):
        """Remove ``key`` and return its parameter."""
        v = self[key]
        del self[key]
        return v

    def popitem(self) -> tuple:
        """Remove and return the last (name, parameter) pair."""
        k = next(reversed(self._keys))
        return k, self.pop(k)

    def clear(self) -> None:
        """Remove every parameter."""
        for k in list(self._keys):
            del self[k]

    def copy(self) -> ParameterDict:
        """A new ParameterDict holding the same parameters, in the same order."""
        return ParameterDict(OrderedDict((k, self[k]) for k in self._keys))

    def fromkeys(self, keys, default=None) -> ParameterDict:
        """A new ParameterDict with each of ``keys`` set to ``default``."""
        return ParameterDict((k, default) for k in keys)

    def __or__(self, other) -> ParameterDict:
        out = self.copy()
        out.update(other)
        return out

    def __ror__(self, other) -> ParameterDict:
        out = other.copy()
        out.update(self)
        return out

    def __ior__(self, other) -> ParameterDict:
        self.update(other)
        return self

    def __reversed__(self):
        return reversed(self._keys)

    def update(self, parameters) -> None:
        """Add (or replace) parameters from a dict or an iterable of (name, parameter) pairs."""
        # as PyTorch: a plain dict is taken in sorted key order, an OrderedDict/ParameterDict as it is
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            pairs = parameters.items()
        elif hasattr(parameters, "items"):
            pairs = sorted(parameters.items())
        else:
            pairs = parameters
        for key, value in pairs:
            self[key] = value

    def extra_repr(self) -> str:
        # PyTorch prints the legacy tensor type here (torch.FloatTensor), unlike ParameterList
        from ..._tensor import _LEGACY_NAMES
        lines = []
        for k, p in self.items():
            if not hasattr(p, "shape"):  # (any other value: ParameterDict holds it as it is)
                lines.append(f"  ({k}): Object of type: {type(p).__name__}")
                continue
            size = "x".join(str(s) for s in p.shape)
            kind = "Parameter" if isinstance(p, Parameter) else "Tensor"
            lines.append(f"  ({k}): {kind} containing: [torch.{_LEGACY_NAMES[p.dtype.name]}Tensor of size {size}]")
        return "\n".join(lines)
