"""Shared set-up of every test: each test starts from the same random state.

`make test` runs the files in parallel (pytest-xdist), so a test must not depend on how many random numbers the
tests before it drew: the global generators of NumPy, minigrad and PyTorch are reseeded before every test.
minigrad and torch are only reseeded when already imported: importing them here would change which loads MKL
first, and with it some float bits of the parity tests.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

pytest.register_assert_rewrite("parity")   # (its same_as_torch asserts: show the differing output)


@pytest.fixture(autouse=True)
def _seeded_global_generators():
    np.random.seed(0)
    for name in ("minigrad", "torch"):
        module = sys.modules.get(name)
        if module is not None and hasattr(module, "manual_seed"):
            module.manual_seed(0)
    yield


@pytest.fixture
def one_thread():
    """One intra-op thread, for minigrad and PyTorch alike (MKL splits a product's work by it); restored after."""
    from parity import torch_or_skip

    import minigrad
    torch = torch_or_skip()
    old, old_torch = minigrad.get_num_threads(), torch.get_num_threads()
    minigrad.set_num_threads(1)
    torch.set_num_threads(1)
    yield
    minigrad.set_num_threads(old)
    torch.set_num_threads(old_torch)
