"""minigrad.random: torch.random's functions (the generator itself lives in _random.py)."""
from __future__ import annotations

import contextlib

from ._random import (  # noqa: F401
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)


@contextlib.contextmanager
def fork_rng(devices=None, enabled: bool = True, _caller: str = "fork_rng", _devices_kw: str = "devices",
             device_type=None):
    """Run the block, then put the global generator back as it was (the CPU is the only device here)."""
    if not enabled or device_type == "meta":
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)
