"""NumPy's floating-point error state: quiet in minigrad's kernels, the user's own in user code.

PyTorch returns inf and nan without a word, so every op runs NumPy with its warnings off. ``with
np.errstate(all="ignore")`` costs ~1 us per use (it rebuilds its settings object on every entry: as much as
a 4-element multiply); setting the context variable behind it to a settings object made once (``QUIET``)
costs ~0.1 us. Both names are private to NumPy 2, hence the fallback to np.errstate's own machinery.

A backward pass makes NumPy quiet once for the whole pass (``begin_pass``, in ``engine.run_backward``), and
the ops its formulas run see that it is quiet already (``get() is QUIET``) and skip their own set/reset.
User code called during the pass (tensor and node hooks, a custom Function's backward, saved-tensor hooks)
goes through ``call_user``, which gives it the user's own error state back for the call.
"""
from __future__ import annotations

import contextvars

import numpy as np

try:
    from numpy._core._ufunc_config import _extobj_contextvar as state
    from numpy._core._ufunc_config import _make_extobj
    QUIET = _make_extobj(all="ignore")
    _PASS_WIDE = True
except ImportError:  # pragma: no cover - other NumPy versions: every op sets and resets (no pass-wide state)
    class _ErrstateVar:
        """The same set/reset interface, with a fresh np.errstate per use."""

        @staticmethod
        def set(_settings):
            errstate = np.errstate(all="ignore")
            errstate.__enter__()
            return errstate

        @staticmethod
        def reset(errstate) -> None:
            errstate.__exit__(None, None, None)

        @staticmethod
        def get():
            return None

    state, QUIET, _PASS_WIDE = _ErrstateVar(), object(), False  # (get() is never QUIET)

get = state.get  # (the bound method, looked up once: the ops call it on every run)

# The user's error state of the innermost backward pass running in this thread (given back to user code). A context
# variable, as NumPy's own state: one list shared by every thread mixed two threads' passes up (a thread's hooks ran
# with the other's state, and a pass ending put the other thread's state in place of its own).
_user_state: contextvars.ContextVar = contextvars.ContextVar("minigrad_user_errstate")


def begin_pass():
    """Make NumPy quiet for a backward pass; returns what ``end_pass`` needs."""
    if not _PASS_WIDE:  # pragma: no cover - (the ops keep their own set/reset)
        return None
    return _user_state.set(get()), state.set(QUIET)


def end_pass(token) -> None:
    """Put the user's error state back at the end of a backward pass."""
    if token is None:  # pragma: no cover
        return
    user_token, quiet_token = token
    state.reset(quiet_token)
    user = _user_state.get()
    _user_state.reset(user_token)
    if get() is not user:  # (np.seterr called by a hook during the pass: it stays in effect, as without the pass)
        state.set(user)


def call_user(fn, *args):
    """``fn(*args)``, user code called from a backward pass, with the user's error state instead of the quiet one."""
    user = _user_state.get(None)
    if user is None or get() is not QUIET:
        return fn(*args)
    token = state.set(user)
    try:
        return fn(*args)
    finally:
        _user_state.set(get())  # (np.seterr inside the hook lasts)
        state.reset(token)
