"""Grad modes: no_grad, enable_grad, set_grad_enabled, inference_mode (per-thread state)."""
from __future__ import annotations

import functools
import inspect
import sys
import threading
import warnings

from .._arg_errors import must_be
from .._per_thread import PerThreadFlag

# PyTorch's list, in its order
__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "set_multithreading_enabled",
           "enforce_grad_layout_policy"]


class _State(threading.local):
    # Each thread starts with grad mode on, as in PyTorch.
    enabled = True     # operations are recorded (what the dispatcher reads)
    inference = False
    # enable_grad() inside inference_mode(): PyTorch reports grad mode on, yet records nothing there.
    inference_grad = False


STATE = _State()

# True once any thread has entered inference_mode (never reset). Until then no thread is in it, so a new tensor is
# no inference tensor without reading the per-thread state (Tensor._make: a threading.local read is ~550
# instructions, and ~30 tensors are made per W4 step).
INFERENCE_SEEN = [False]


def is_grad_enabled(*args) -> bool:
    """True when grad mode is on (operations are recorded, except inside ``inference_mode``)."""
    if args:  # (PyTorch's is a C function: its own wording)
        raise TypeError(f"torch.is_grad_enabled() takes no arguments ({len(args)} given)")
    return STATE.enabled or STATE.inference_grad


def is_inference_mode_enabled(*args) -> bool:
    """True inside ``inference_mode()``."""
    if args:
        raise TypeError(f"torch.is_inference_mode_enabled() takes no arguments ({len(args)} given)")
    return STATE.inference


def _set_grad_mode(mode: bool) -> None:
    if STATE.inference:  # grad mode on or off, but inference mode still records nothing
        STATE.inference_grad = mode
    else:
        STATE.enabled = mode


# Printed like PyTorch's (``<torch.autograd.grad_mode.no_grad object at 0x...>``).
_MODULE = "torch.autograd.grad_mode"


def _wrap_generator(ctx_factory, func):
    """Wrap a generator function so each resumption of the generator runs inside a fresh context."""
    @functools.wraps(func)
    def generator_context(*args, **kwargs):
        gen = func(*args, **kwargs)
        # The mode is set each time execution re-enters the generator and restored when it yields back.
        try:
            with ctx_factory():
                response = gen.send(None)
            while True:
                try:
                    request = yield response
                except GeneratorExit:
                    with ctx_factory():
                        gen.close()
                    raise
                except BaseException:  # thrown in by the caller: hand it on to the generator
                    with ctx_factory():
                        response = gen.throw(*sys.exc_info())
                else:
                    with ctx_factory():
                        response = gen.send(request)
        except StopIteration as e:
            return e.value
    return generator_context


def context_decorator(ctx_factory, func):
    """Wrap ``func`` so each call runs inside ``ctx_factory()`` (PyTorch's names, as tracebacks and reprs show)."""
    if inspect.isclass(func):
        raise RuntimeError("Cannot decorate classes; it is ambiguous whether or not only the constructor or all "
                           "methods should have the context manager applied; additionally, decorating a class at "
                           "definition-site will prevent use of the identifier as a conventional type.  To specify "
                           "which methods to decorate, decorate each of them individually.")
    if inspect.isgeneratorfunction(func):
        return _wrap_generator(ctx_factory, func)

    @functools.wraps(func)
    def decorate_context(*args, **kwargs):
        with ctx_factory():
            return func(*args, **kwargs)
    return decorate_context


_NOT_GIVEN = object()  # (no argument passed, told apart from an explicit None)


def _inference_mode_new(cls, mode=True) -> None:
    """PyTorch's signature of ``inference_mode.__new__``: binding the arguments raises its TypeErrors."""


def _no_param_new(cls, orig_func=None) -> None:
    """PyTorch's signature of ``no_grad.__new__`` / ``enable_grad.__new__`` (its TypeErrors, as above)."""


_inference_mode_new.__qualname__ = "inference_mode.__new__"
_no_param_new.__qualname__ = "_NoParamDecoratorContextManager.__new__"


class _DecoratorContextManager:
    """Base for modes usable both as ``with mode():`` and as ``@mode()`` (or bare ``@mode``)."""

    def __new__(cls, orig_func=_NOT_GIVEN, *args, **kwargs):
        if cls is inference_mode:
            # PyTorch's inference_mode(mode): a bool is the mode; anything else (a function) is decorated.
            _inference_mode_new(cls, *(() if orig_func is _NOT_GIVEN else (orig_func,)), *args, **kwargs)
            mode = kwargs.get("mode", True) if orig_func is _NOT_GIVEN else orig_func
            return super().__new__(cls) if isinstance(mode, bool) else cls()(mode)
        if cls in (no_grad, enable_grad) and (args or kwargs):  # (PyTorch's __new__ takes one argument at most)
            _no_param_new(cls, *(() if orig_func is _NOT_GIVEN else (orig_func,)), *args, **kwargs)
        if cls in (no_grad, enable_grad) and orig_func is not _NOT_GIVEN:
            # PyTorch's no_grad/enable_grad take no argument: any one given (``no_grad(True)``) is decorated
            return cls()(orig_func)
        return super().__new__(cls)

    def __call__(self, orig_func):
        if inspect.isclass(orig_func):
            warnings.warn("Decorating classes is deprecated and will be disabled in future versions. You should only "
                          "decorate functions or methods. To preserve the current behavior of class decoration, you "
                          "can directly decorate the `__init__` method and nothing else.", FutureWarning, stacklevel=2)
            func = lambda *args, **kwargs: orig_func(*args, **kwargs)  # noqa: E731 (PyTorch's wrapper, same name)
        else:
            func = orig_func
        return context_decorator(self.clone, func)

    def clone(self):
        return self.__class__()


class no_grad(_DecoratorContextManager):
    """Context manager / decorator that turns off gradient recording."""

    __module__ = _MODULE

    def __init__(self) -> None:  # (a function given is decorated by __new__: __init__ never sees it)
        self.prev = False  # (PyTorch's attribute: the grad mode before entering)
        self._prev_state = (False, False)

    def __enter__(self) -> None:
        self.prev = is_grad_enabled()
        self._prev_state = (STATE.enabled, STATE.inference_grad)
        STATE.enabled = STATE.inference_grad = False

    def __exit__(self, *exc) -> None:
        STATE.enabled, STATE.inference_grad = self._prev_state


class enable_grad(_DecoratorContextManager):
    """Context manager / decorator that turns gradient recording on (inside ``no_grad``)."""

    __module__ = _MODULE

    def __init__(self) -> None:  # (a function given is decorated by __new__: __init__ never sees it)
        self.prev = False  # (PyTorch's attribute: the grad mode before entering)
        self._prev_state = (False, False)

    def __enter__(self) -> None:
        self.prev = is_grad_enabled()
        self._prev_state = (STATE.enabled, STATE.inference_grad)
        _set_grad_mode(True)

    def __exit__(self, *exc) -> None:
        STATE.enabled, STATE.inference_grad = self._prev_state


class set_grad_enabled(_DecoratorContextManager):
    """Turn recording on or off: as a function call, a context manager or a decorator."""

    __module__ = _MODULE

    def __init__(self, mode: bool) -> None:
        if not isinstance(mode, bool):  # PyTorch's C binding takes a real bool only (not 1, not a tensor)
            raise must_be("set_grad_enabled", "enabled", "bool", mode, 1)
        self._saved = (STATE.enabled, STATE.inference_grad)
        self.prev = STATE.enabled   # (PyTorch's attribute: the grad mode before)
        self.mode = mode
        # Called as a plain function, the mode takes effect immediately (and stays).
        _set_grad_mode(self.mode)

    def __enter__(self) -> None:
        _set_grad_mode(self.mode)

    def __exit__(self, *exc) -> None:
        STATE.enabled, STATE.inference_grad = self._saved

    def __repr__(self) -> str:
        return f"{_MODULE}.set_grad_enabled(mode={self.mode})"

    def clone(self):
        """A fresh context manager with the same mode."""
        return self.__class__(self.mode)

    def __call__(self, func):
        # Used as a decorator: undo the immediate switch made by __init__.
        STATE.enabled, STATE.inference_grad = self._saved
        return super().__call__(func)


class inference_mode(_DecoratorContextManager):
    """Like ``no_grad``, and tensors made inside are inference tensors (never recorded later)."""

    __module__ = _MODULE

    def __init__(self, mode: bool = True) -> None:
        self.mode = mode  # (a bool: anything else was decorated by __new__)
        self.prev = None  # the state the live guard will restore; None: no guard (PyTorch's _InferenceMode)

    def __enter__(self) -> None:
        prev = (STATE.enabled, STATE.inference, STATE.inference_grad)
        if self.mode:
            INFERENCE_SEEN[0] = True  # (before the mode is on: see INFERENCE_SEEN)
        # PyTorch's InferenceMode(mode) sets grad mode to ``not mode``: inference_mode(False) enables it.
        STATE.enabled, STATE.inference, STATE.inference_grad = not self.mode, self.mode, False
        if self.prev is not None:
            # Entered again (the same object, nested): PyTorch replaces its guard object, and the dropped
            # guard restores the state it had saved, before the new one is in use.
            STATE.enabled, STATE.inference, STATE.inference_grad = self.prev
        self.prev = prev

    def __exit__(self, *exc) -> None:
        if self.prev is not None:  # (exiting twice finds no guard left: nothing to restore)
            STATE.enabled, STATE.inference, STATE.inference_grad = self.prev
            self.prev = None

    def clone(self):
        """A fresh context manager with the same mode."""
        return self.__class__(self.mode)


# ---- switches that change nothing in minigrad's single-threaded engine, kept for PyTorch's API ---------

_multithreading = PerThreadFlag(True)   # (per thread, as PyTorch's AutogradState)


def is_multithreading_enabled() -> bool:
    """Whether backward may use worker threads (PyTorch's flag; minigrad's engine always runs on the caller's)."""
    return _multithreading[0]


class set_multithreading_enabled(_DecoratorContextManager):
    """Set the multithreaded-backward flag: at once when called, restored when a ``with`` block exits."""

    __module__ = _MODULE

    def __init__(self, mode: bool) -> None:
        if not isinstance(mode, bool):  # (PyTorch's C binding: a real bool only)
            raise must_be("set_multithreading_enabled", "enabled", "bool", mode, 1)
        self.prev = _multithreading[0]
        self.mode = mode
        _multithreading[0] = self.mode

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> None:
        _multithreading[0] = self.prev

    def clone(self):
        """A fresh context manager with the same mode."""
        return self.__class__(self.mode)


# False inside enforce_grad_layout_policy(False): a gradient .grad keeps as is may keep its own layout (per thread,
# as PyTorch's)
GRAD_LAYOUT_ENFORCED = PerThreadFlag(True)


class enforce_grad_layout_policy(_DecoratorContextManager):
    """Whether a gradient kept as ``.grad`` as it is takes its parameter's layout (on when called; restored on exit)."""

    __module__ = _MODULE

    def __init__(self, enable: bool = True) -> None:
        self.prev = GRAD_LAYOUT_ENFORCED[0]
        GRAD_LAYOUT_ENFORCED[0] = self.mode = enable

    def __call__(self, orig_func):
        GRAD_LAYOUT_ENFORCED[0] = self.prev  # (as a decorator, the policy applies inside the function only)
        return super().__call__(orig_func)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> None:
        GRAD_LAYOUT_ENFORCED[0] = self.prev

    def clone(self):
        """A fresh context manager with the same policy."""
        return self.__class__(self.mode)


class _unsafe_preserve_version_counter(_DecoratorContextManager):
    """On exit, put the tensors' version counters back to their values on entry (changes go unnoticed)."""

    __module__ = _MODULE

    def __init__(self, tensors) -> None:
        self.tensors = tensors if isinstance(tensors, tuple) else (tensors,)
        self.prev_versions = tuple(t._version for t in self.tensors)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> None:
        for t, version in zip(self.tensors, self.prev_versions):
            t._version_counter[0] = version
