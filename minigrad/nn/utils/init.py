"""``torch.nn.utils.skip_init``: build a module without running its parameter initialization."""
from __future__ import annotations

import inspect


def skip_init(module_cls, *args, **kwargs):
    """``module_cls(*args, **kwargs)`` with uninitialized parameters and the random generator left untouched.

    PyTorch builds the module on the "meta" device and then allocates empty storage; minigrad builds it
    normally and restores the random generator's state, so the draws of the skipped initialization do not
    count (the values are to be treated as uninitialized memory, as in PyTorch).
    """
    from ... import random
    from ..modules.module import Module
    if not issubclass(module_cls, Module):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    kwargs.pop("device", None)
    state = random.get_rng_state()
    try:
        return module_cls(*args, **kwargs)
    finally:
        random.set_rng_state(state)
