"""Warnings PyTorch gives once per process, and ``torch.set_warn_always``.

PyTorch's C++ code gives many warnings with TORCH_WARN_ONCE: the first time only, whatever the Python warning
filters say. ``torch.set_warn_always(True)`` makes every one of them show each time (without using up its once:
after ``set_warn_always(False)`` the next one still shows). minigrad gives all of them through ``warn_once``
below, each under a key of its own (one TORCH_WARN_ONCE of PyTorch's source: one key).

A few of PyTorch's once-only warnings are Python code with a flag of their own (``tensor.storage()``'s
TypedStorage warning): ``set_warn_always`` does not touch them (``honours_warn_always=False``).
"""
from __future__ import annotations

import contextlib
import warnings

_warn_always = [False]   # torch.set_warn_always's flag (a list: read by the callers without a function call)
_WARNED: set = set()     # the keys of the once-per-process warnings already given


def set_warn_always(b: bool) -> None:
    """Whether warnings PyTorch gives once per process are given every time (without using up their once)."""
    _warn_always[0] = bool(b)


def is_warn_always_enabled() -> bool:
    """The flag set by set_warn_always."""
    return _warn_always[0]


def first_time(key: str, honours_warn_always: bool = True) -> bool:
    """Whether the once-per-process warning ``key`` is to be given now. Giving it uses up its once, except under
    ``torch.set_warn_always(True)`` (then it is given every time)."""
    if honours_warn_always and _warn_always[0]:
        return True
    if key in _WARNED:
        return False
    _WARNED.add(key)
    return True


@contextlib.contextmanager
def unseen():
    """Run a block whose warnings nobody sees (a trial run PyTorch does not make), its once-only ones not used up."""
    given = set(_WARNED)
    try:
        with warnings.catch_warnings(record=True):
            yield
    finally:
        _WARNED.intersection_update(given)


def warn_once(key: str, message: str, category: type = UserWarning, stacklevel: int | None = None,
              honours_warn_always: bool = True) -> None:
    """``warnings.warn(message, category)`` the first time for ``key`` (every time under set_warn_always(True)).
    ``stacklevel`` counts from the caller as ``warnings.warn``'s does; None: the user's line, the first frame
    outside minigrad (as PyTorch's C++ warnings show the Python line that called into C++)."""
    if not first_time(key, honours_warn_always):
        return
    if stacklevel is None:
        from ._tensor import _user_stacklevel  # (here, not at the top: _tensor imports this module)
        stacklevel = _user_stacklevel()
    else:
        stacklevel += 1   # (this function's own frame)
    warnings.warn(message, category, stacklevel=stacklevel)
