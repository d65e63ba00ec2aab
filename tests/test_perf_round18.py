"""The fast path of #8 round 18 (bench/PROFILE.md): the output layout of elementwise ops with size-1 dims.

``Op._run`` and ``Op._run_untracked`` lay an elementwise result out as TensorIterator does. A C-contiguous operand
with a size-1 dim may have an odd stride there (NumPy's contiguity ignores size-1 dims), and such a stride orders
TensorIterator's dims only when the operands' shapes differ (a broadcast operand, or the full-shape one beside a
broadcast one); with all shapes equal its fast setup takes C order. Round 18 compares the shapes first and looks
at the strides (``_strides._plain``) only when they differ, so W4's ``pred - y`` of two (100, 1) tensors pays a
shape comparison, not a stride walk. Every case here is compared with PyTorch (strides and bytes), with grad mode
on (``_run``, recorded) and off (``_run_untracked``), and a spy counts the stride walks.
"""
from __future__ import annotations

import numpy as np
import pytest
from parity import torch_or_skip

import minigrad
from minigrad import _strides


def _values(shape, seed=0) -> np.ndarray:
    return (np.random.default_rng(seed).standard_normal(shape) + 0.25).astype(np.float32)


def _odd(T, seed=0):
    """A (2, 1, 4) tensor, C-contiguous in NumPy's sense, whose size-1 dim has the odd stride 7."""
    return T.from_numpy(_values((2, 1, 4), seed)).as_strided((2, 1, 4), (4, 7, 1))


def _col(T, seed=0):
    """A (3, 1) column that is the transpose of a (1, 3) row: strides (1, 3), not C strides (1, 1)."""
    return T.from_numpy(_values((1, 3), seed)).t()


# name -> (function of the library and the inputs' requires_grad, whether the layout is worked out: the shapes of
# the operands differ, or an operand is not C-contiguous)
CASES = {
    # same shapes: no stride walk, C order (the fast path)
    "same_plain_column": (lambda T, rg: T.from_numpy(_values((100, 1), 1)).requires_grad_(rg)
                          - T.from_numpy(_values((100, 1), 2)), False),
    "same_plain_row": (lambda T, rg: T.from_numpy(_values((1, 5), 1)).requires_grad_(rg)
                       * T.from_numpy(_values((1, 5), 2)), False),
    "same_odd_left": (lambda T, rg: _odd(T, 1).requires_grad_(rg) + T.from_numpy(_values((2, 1, 4), 2)), False),
    "same_odd_right": (lambda T, rg: T.from_numpy(_values((2, 1, 4), 2)).requires_grad_(rg) * _odd(T, 1), False),
    "same_odd_both": (lambda T, rg: _odd(T, 1).requires_grad_(rg) - _odd(T, 3), False),
    "same_odd_column": (lambda T, rg: _col(T, 1).requires_grad_(rg) + _col(T, 2), False),
    "same_odd_three": (lambda T, rg: T.addcmul(_odd(T, 1).requires_grad_(rg), _odd(T, 2), _odd(T, 3)), False),
    # shapes differ: the strides of the size-1 dims decide (the slow path, as before)
    "odd_column_broadcast": (lambda T, rg: _col(T, 1).requires_grad_(rg) + T.from_numpy(_values((3, 4), 2)), True),
    "odd_full_beside_broadcast": (lambda T, rg: _odd(T, 1).requires_grad_(rg) + T.from_numpy(_values((4,), 2)),
                                  True),
    "broadcast_row_odd": (lambda T, rg: T.from_numpy(_values((5, 1, 4), 2)).requires_grad_(rg)
                          * _odd(T, 1)[:1], True),
    "plain_column_broadcast": (lambda T, rg: T.from_numpy(_values((100, 1), 1)).requires_grad_(rg)
                               + T.from_numpy(_values((1,), 2)), True),
    # not C-contiguous: TensorIterator's layout is worked out (_strides.elementwise), as before
    "transposed": (lambda T, rg: T.from_numpy(_values((4, 3), 1)).requires_grad_(rg).t()
                   + T.from_numpy(_values((3, 4), 2)), True),
}


def _record(t) -> tuple:
    return str(t.dtype), tuple(t.shape), t.stride(), t.detach().numpy().tobytes()


@pytest.mark.parametrize("requires_grad", [True, False], ids=["recorded", "untracked"])
@pytest.mark.parametrize("name", list(CASES))
def test_layout_and_bits_match_pytorch(name, requires_grad) -> None:
    torch = torch_or_skip()
    fn, _ = CASES[name]
    if requires_grad:
        expected, got = fn(torch, True), fn(minigrad, True)
        assert type(got.grad_fn).__name__ == type(expected.grad_fn).__name__
    else:
        with torch.no_grad():
            expected = fn(torch, False)
        with minigrad.no_grad():
            got = fn(minigrad, False)
        assert got.grad_fn is None
    assert _record(got) == _record(expected)


def _spy_plain(monkeypatch) -> list:
    calls = []
    plain = _strides._plain

    def spy(a):
        calls.append(a.shape)
        return plain(a)
    monkeypatch.setattr(_strides, "_plain", spy)
    return calls


@pytest.mark.parametrize("requires_grad", [True, False], ids=["recorded", "untracked"])
@pytest.mark.parametrize("name", list(CASES))
def test_strides_are_walked_only_when_the_shapes_differ(name, requires_grad, monkeypatch) -> None:
    fn, worked_out = CASES[name]
    calls = _spy_plain(monkeypatch)
    with minigrad.set_grad_enabled(requires_grad):
        fn(minigrad, requires_grad)
    if worked_out:
        assert calls   # (an operand with a size-1 dim beside another shape: its strides are looked at)
    else:
        assert calls == []


def test_w4_loss_difference_walks_no_strides(monkeypatch) -> None:
    """W4's ``pred - y`` (both (100, 1)): the forward op and its backward run no ``_plain``."""
    pred = minigrad.from_numpy(_values((100, 1), 1)).requires_grad_()
    y = minigrad.from_numpy(_values((100, 1), 2))
    calls = _spy_plain(monkeypatch)
    loss = ((pred - y) ** 2).mean()
    loss.backward()
    assert calls == []


def test_w4_style_mlp_gradients_match_pytorch() -> None:
    torch = torch_or_skip()

    def run(lib):
        ps = [lib.from_numpy(_values(s, i)).requires_grad_()
              for i, s in enumerate([(2, 16), (16,), (16, 16), (16,), (16, 1), (1,)])]
        x = lib.from_numpy(_values((100, 2), 9))
        t = lib.from_numpy(_values((100, 1), 10))
        h = (x @ ps[0] + ps[1]).tanh()
        h = (h @ ps[2] + ps[3]).tanh()
        ((h @ ps[4] + ps[5] - t) ** 2).mean().backward()
        return [(str(p.grad.dtype), p.grad.stride(), p.grad.numpy().tobytes()) for p in ps]

    assert run(minigrad) == run(torch)


@pytest.mark.parametrize("name", ["same_odd_both", "odd_column_broadcast", "odd_full_beside_broadcast",
                                  "broadcast_row_odd"])
def test_gradients_through_odd_layouts_match_pytorch(name) -> None:
    torch = torch_or_skip()
    fn, _ = CASES[name]

    def run(lib):
        leaf = lib.from_numpy(_values((2, 1, 4), 5)).requires_grad_()
        out = fn(lib, True) * 1.5 + leaf.sum()
        w = lib.from_numpy(_values(tuple(out.shape), 6))
        (out * w).sum().backward()
        return (str(leaf.grad.dtype), leaf.grad.stride(), leaf.grad.numpy().tobytes()), _record(out)

    assert run(minigrad) == run(torch)


def _plain_reference(a: np.ndarray) -> bool:
    """Round 17's ``_strides._plain`` (zip over the reversed shape and strides), the reference for the index loop."""
    if not a.flags.c_contiguous:
        return False
    if 1 not in a.shape:
        return True
    step = a.itemsize
    for m, st in zip(reversed(a.shape), reversed(a.strides)):
        if st != step:
            return False
        step *= m
    return True


def _layouts():
    base = np.arange(240, dtype=np.float32)
    strided = np.lib.stride_tricks.as_strided
    yield np.zeros(())
    yield np.zeros((0, 1))
    yield np.zeros((1, 0), np.float64)
    for shape in [(1,), (5,), (100, 1), (1, 5), (2, 1, 4), (1, 1), (1, 1, 1), (3, 1, 1, 2), (1, 16)]:
        yield np.zeros(shape, np.float32)          # C strides
        yield np.zeros(shape, np.int8)
        yield np.zeros(shape, np.float32, order="F")
    yield strided(base, (2, 1, 4), (16, 28, 4))    # odd stride 7 (in elements) on the size-1 dim
    yield strided(base, (3, 1), (4, 12))           # the transpose of a (1, 3) row
    yield strided(base, (1, 3), (0, 4))            # stride 0 on the size-1 dim
    yield strided(base, (1,), (20,))
    yield strided(base, (4, 1, 1), (4, 4, 8))
    yield base[::2].reshape(-1, 1)                 # not contiguous
    yield base[:12].reshape(3, 4).T                # transposed
    yield base[:12].reshape(3, 4)[:, :1]           # a column of a matrix: stride 16 on dim 0
    yield base[:12][::-1].reshape(12, 1)           # negative stride


def test_plain_index_loop_equals_the_zip_version() -> None:
    layouts = list(_layouts())
    answers = [_strides._plain(a) for a in layouts]
    assert answers == [_plain_reference(a) for a in layouts]
    assert True in answers and False in answers
