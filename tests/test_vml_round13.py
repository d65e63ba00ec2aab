"""MKL's vector math called without ctypes' argument conversion (minigrad/_vml.py, #8 round 13): every kind of
array the pointers can come from gives the same bits as a fresh writable contiguous copy, and PyTorch's."""
from __future__ import annotations

import numpy as np
import pytest
from parity import torch_or_skip

from minigrad import _vml

needs_mkl = pytest.mark.skipif(not _vml.available, reason="MKL (the `mkl` package, x86-64 Linux) is not installed")


def _values(dtype) -> np.ndarray:
    return np.random.default_rng(13).standard_normal((30, 20)).astype(dtype) * 3


def _read_only(a: np.ndarray) -> np.ndarray:
    a = a.copy()
    a.flags.writeable = False
    return a


@needs_mkl
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("make", [
    lambda a: a, _read_only, lambda a: a.T, lambda a: _read_only(a).T, lambda a: a[:, ::3], lambda a: a[5, 7:8],
    lambda a: np.asarray(a[2, 3]), lambda a: a[:0], lambda a: np.broadcast_to(a[0], (4, 20)),
], ids=["row-major", "read-only", "column-major", "read-only-column-major", "sliced", "one", "0-dim", "empty",
        "broadcast"])
def test_every_layout_gives_the_bits_of_a_contiguous_copy(make, dtype) -> None:
    x = make(_values(dtype))
    for op in ("tanh", "exp", "sin"):
        forward = _vml.unary(op, None)
        ours = forward(x)
        assert ours.shape == x.shape and ours.dtype == x.dtype
        np.testing.assert_array_equal(ours, forward(np.array(x, order="C")))
    torch = torch_or_skip()
    np.testing.assert_array_equal(_vml.unary("tanh", None)(x), torch.tanh(torch.tensor(np.array(x))).numpy())


@needs_mkl
def test_arrays_longer_than_a_chunk_are_done_in_pieces(monkeypatch) -> None:
    # (MKL's n is a 32-bit int: longer arrays go in chunks of 2**31 - 1, here of 7 elements)
    x = _values(np.float32)
    whole = _vml.unary("tanh", None)(x)
    monkeypatch.setattr(_vml, "_CHUNK", 7)
    pieces = _vml.unary("tanh", None)(x)
    np.testing.assert_array_equal(pieces, whole)
    assert not np.array_equal(whole, np.zeros_like(whole))


@needs_mkl
def test_arg_points_at_the_first_element() -> None:
    # (the buffer route, the transpose's buffer for a column-major array, ctypes.data for the rest)
    import ctypes
    a = _values(np.float64)
    for x in (a, np.asfortranarray(a), a[:, 2:9], _read_only(a)):
        p = _vml.arg(x)
        address = ctypes.addressof(p._obj) if hasattr(p, "_obj") else p.value
        assert address == x.ctypes.data
