"""NumPy's keyword names as PyTorch accepts them: ``x.sum(axis=0, keepdims=True)`` is ``x.sum(dim=0, keepdim=True)``.

PyTorch's argument parser maps ``axis`` to ``dim`` and ``keepdims`` to ``keepdim`` for every function it binds
from C++ (``numpy_compatibility_arg_names`` in torch/csrc/utils/python_arg_parser.cpp). Its functions written
in Python (``split``, ``norm``, ``unique`` ...) take only their own names, so they are left alone here.
"""
from __future__ import annotations

import functools
import inspect
import numbers

from . import _arg_errors

_ALIASES = {"axis": "dim", "keepdims": "keepdim"}
# PyTorch's functions and methods written in Python: no aliases (x.norm(axis=1) is a TypeError there too)
_PYTHON_DEFINED = {"norm", "split", "unique", "unique_consecutive", "unflatten", "_wrap_dim"}
# ... and functions whose ``dim`` minigrad takes through ``*args`` / ``**kwargs``
_ALSO = {"argsort", "sort", "quantile", "nanquantile", "index_fill", "index_fill_", "softmax", "log_softmax"}


def accept_numpy_names(fn, name: str):
    """``fn`` taking ``axis=`` / ``keepdims=`` for ``dim=`` / ``keepdim=`` (one check on the usual call)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if kwargs and ("axis" in kwargs or "keepdims" in kwargs):
            try:
                return fn(*args, **_renamed(name, kwargs))
            except TypeError as error:  # PyTorch's "got (keepdims=bool, )" names the keywords as given
                call = getattr(error, "invalid_call", None)
                unexpected = str(error).partition(" got an unexpected keyword argument '")[2][:-1]
                # (x.sum(0, axis=0): an alias is no parameter's name to PyTorch's extra_kwargs, so it is unexpected)
                unexpected = unexpected or str(error).partition(" got multiple values for argument '")[2][:-1]
                if unexpected:  # PyTorch names the first keyword not in the overload by its own name: an alias is
                    first = next(k for k in kwargs if k in _ALIASES or _ALIASES.get(k, k) == unexpected)
                    raise TypeError(f"{name}() got an unexpected keyword argument '{first}'") from None
                if call is None:
                    raise
                raise _arg_errors.invalid_combination(call[0], call[1], kwargs, call[3]) from None
        return fn(*args, **kwargs)
    return wrapper


# PyTorch's parser also takes NumPy's names of a function's tensors (torch.sum(x=t), torch.add(x1=a, x2=b)): minigrad's
# functions name them input and other only, so a call giving them fails to bind; it is made again (input_call).
_INPUT_ALIASES = {alias: name for name in ("input", "other") for alias in _arg_errors.NUMPY_NAMES[name]}
# (and a number given first is ``self`` in PyTorch's overloads: torch.pow(self=2, exponent=t), torch.where(c, self=0))
_NUMBER_SELF = {**_INPUT_ALIASES, "self": "input"}


def input_call(args: tuple, kwargs: dict, error: BaseException) -> tuple | None:
    """The call ``(args, kwargs)`` with the NumPy names of its input and other (``x``, ``a``, ``x1``; ``x2``), or a
    number named self, given as minigrad's functions take them, if ``error`` is Python's refusal of one of them; else
    None (checked once the call failed: PyTorch's parser has taken it)."""
    if not (kwargs and isinstance(error, TypeError) and _arg_errors._refused_binding(error)):
        return None
    unexpected = str(error).partition(" got an unexpected keyword argument '")[2][:-1]
    aliases = _NUMBER_SELF if unexpected == "self" and isinstance(kwargs["self"], numbers.Number) else _INPUT_ALIASES
    if unexpected not in aliases:
        return None
    args, kwargs = list(args), dict(kwargs)
    for alias, target in aliases.items():
        if alias in kwargs:
            # (positional where it would come: torch.sum(x=t, dim=0) is sum(t, dim=0), whatever fn names it)
            if len(args) == ("input", "other").index(target):
                args.append(kwargs.pop(alias))
            else:
                kwargs[target] = kwargs.pop(alias)
    return tuple(args), kwargs


def _renamed(name: str, kwargs: dict) -> dict:
    out = {}
    for key, value in kwargs.items():
        new = _ALIASES.get(key, key)
        if new in out or (new != key and new in kwargs):  # (x.sum(dim=0, axis=0): PyTorch names the alias)
            raise TypeError(f"{name}() got an unexpected keyword argument '{key}'")
        out[new] = value
    return out


def _takes_dim(fn, name: str) -> bool:
    if name in _PYTHON_DEFINED or name.startswith("_"):
        return False
    if name in _ALSO:
        return True
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return "dim" in params or "keepdim" in params


def install(namespace: dict, tensor_class) -> None:
    """Wrap the functions of ``namespace`` (``minigrad``) and the methods of ``tensor_class`` that take a dim."""
    for name, fn in list(namespace.items()):
        if inspect.isfunction(fn) and _takes_dim(fn, name):
            namespace[name] = accept_numpy_names(fn, name)
    for name, fn in list(vars(tensor_class).items()):
        if inspect.isfunction(fn) and _takes_dim(fn, name):
            setattr(tensor_class, name, accept_numpy_names(fn, name))
            if fn.__qualname__ == f"{tensor_class.__name__}.{name}":
                # (Python's binding errors name the function by its __qualname__: x.size(foo=1) is PyTorch's
                # "size() got an unexpected keyword argument"; the wrapper keeps Tensor.size, where pickle finds it)
                fn.__qualname__ = name
