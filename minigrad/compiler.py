"""``torch.compiler``: the helpers called next to ``torch.compile``. minigrad compiles nothing (see ``_compile.py``),
so they are pass-throughs: ``disable(fn)`` wraps ``fn`` unchanged, ``is_compiling()`` is always False."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from . import _compile

__all__ = ["compile", "reset", "disable", "is_compiling", "is_dynamo_compiling", "is_exporting", "list_backends",
           "allow_in_graph", "assume_constant_result", "cudagraph_mark_step_begin", "set_default_backend",
           "get_default_backend"]


def compile(*args, **kwargs) -> Callable:
    """``torch.compile`` (see its docstring: nothing is compiled)."""
    return _compile.compile(*args, **kwargs)


def reset() -> None:
    """Forget compiled code (there is none)."""


def disable(fn: Callable | None = None, recursive: bool = True, *, reason: str | None = None) -> Callable:
    """Mark ``fn`` as never compiled: a wrapper calling it (as a decorator when ``fn`` is None)."""
    if fn is None:
        def wrap(fn: Callable) -> Callable:
            return disable(fn, recursive, reason=reason)
        return wrap
    if isinstance(fn, type) or not callable(fn) or hasattr(fn, "state_dict"):
        return fn   # classes and modules are returned as they are

    @functools.wraps(fn)
    def disabled(*args, **kwargs):
        return fn(*args, **kwargs)
    return disabled


def is_compiling() -> bool:
    """True while torch.compile traces a function: never, in minigrad."""
    return False


def is_dynamo_compiling() -> bool:
    """True while Dynamo traces a function: never, in minigrad."""
    return False


def is_exporting() -> bool:
    """True inside ``torch.export``: never, in minigrad."""
    return False


def list_backends(exclude_tags=("debug", "experimental")) -> list:
    """PyTorch's registered backend names (without the debug and experimental ones by default)."""
    if exclude_tags:
        return ["cudagraphs", "inductor", "openxla", "tvm"]
    return list(_compile._BACKENDS)


def allow_in_graph(fn: Callable) -> Callable:
    """Let a function into compiled graphs: returned unchanged."""
    return fn


def assume_constant_result(fn: Callable) -> Callable:
    """Treat ``fn``'s result as a constant when compiling: returned unchanged."""
    return fn


def cudagraph_mark_step_begin() -> None:
    """Mark the start of a CUDA-graph step (no CUDA here: nothing to do)."""


def set_default_backend(backend: str | Callable | None) -> None:
    """The backend ``torch.compile`` uses when none is given (None: back to "inductor")."""
    if backend is not None and not isinstance(backend, str) and not callable(backend):
        raise TypeError(f"backend must be a string or callable, got {type(backend)}")
    _compile._default_backend[0] = "inductor" if backend is None else backend


def get_default_backend() -> str | Callable | Any:
    """The backend ``torch.compile`` uses when none is given."""
    return _compile._default_backend[0]
