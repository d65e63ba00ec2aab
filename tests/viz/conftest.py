"""Fixtures for viz tests: each graph test runs on PyTorch and on minigrad (when its engine exists)."""

from __future__ import annotations

import matplotlib
import pytest
from vizhelpers import BACKENDS, Backend, load_backend

matplotlib.use("Agg")


@pytest.fixture(params=BACKENDS)
def backend(request) -> Backend:
    return load_backend(request.param)


@pytest.fixture
def torch_backend() -> Backend:
    return load_backend("torch")


@pytest.fixture(scope="module")
def both() -> tuple[Backend, Backend]:
    """PyTorch and minigrad, to draw the same program with each."""
    return load_backend("torch"), load_backend("minigrad")
