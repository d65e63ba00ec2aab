"""Session 21: viz against PyTorch's efficient zero tensors (a second derivative through abs / l1 / sgn leaves a
``.grad`` that refuses ``numpy()`` and ``tolist()`` in both libraries); each test draws a graph with viz from both
libraries and compares, and checks the values drawn."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_viz_graph_fuzz import KINDS, differences  # noqa: E402

from viz.tensors import to_numpy  # noqa: E402


def _abs_double_backward(lib):
    x = lib.tensor([[0.68, -0.07], [0.9, -2.22]], requires_grad=True)
    (g,) = lib.autograd.grad(x.abs().sum(), x, create_graph=True)
    (g * g).sum().backward()   # (x.grad: d/dx of sgn(x)², an efficient zero tensor)
    return x, g


@pytest.mark.parametrize("lib_name", ["torch", "minigrad"])
def test_zero_tensor_grad_reads_as_zeros(lib_name):
    """to_numpy of a ZeroTensor gradient gives its zeros (a clone has memory), not None."""
    lib = pytest.importorskip(lib_name)
    x, _ = _abs_double_backward(lib)
    assert lib._is_zerotensor(x.grad)
    arr = to_numpy(x.grad)
    assert arr is not None and arr.shape == (2, 2) and not arr.any()


def test_zero_tensor_grad_draws_the_same():
    """A leaf whose .grad is a ZeroTensor shows its zeros in both libraries' drawings (not "grad ?"); drawn only:
    a backward into that .grad is refused in both (ZeroTensors are immutable)."""
    torch = pytest.importorskip("torch")
    import minigrad
    import viz

    def texts(lib):
        x, _ = _abs_double_backward(lib)
        y = (x * 2).sum()
        return {kind: viz.draw([y], names={"x": x}, auto_names=False, **kw).source for kind, kw in KINDS.items()}

    assert differences(texts(minigrad), texts(torch)) == []


def test_zero_tensor_values_are_drawn():
    """The drawn grad of that leaf is its values, as for any other gradient."""
    import minigrad
    import viz

    x, _ = _abs_double_backward(minigrad)
    src = viz.draw([(x * 2).sum()], names={"x": x}, auto_names=False).source
    assert "grad ?" not in src and "grad [[0, 0], [0, 0]]" in src
    assert np.array_equal(to_numpy(x.grad), np.zeros((2, 2), np.float32))
