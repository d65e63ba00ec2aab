"""The fast paths of #8 round 14 (bench/PROFILE.md): each gives what the general path gives, and declines the rest.

- ``_strides._c_order_kept``: TensorIterator's output layout known to be C order without working it out (W5's
  backward products: an expanded gradient times a C-contiguous tensor). Every layout it accepts must get the
  generic path's strides and values; the layouts it must not take are declined.
- ``_numpy_result`` skips its own error-state switch inside a backward pass only.
- The implicit root gradient's one-element rule (``math.prod(shape) != 1``, PyTorch's numel check).
- What an inline check of a node's gradients in the engine loop (tried this round, not kept: see PROFILE.md) must
  keep: gradients needing a sum or a cast still get it, a wrong count is refused with PyTorch's message, and the
  gradient reaching a leaf is taken without a copy (nothing in the loop may keep a reference to it).
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from parity import torch_or_skip

import minigrad
from minigrad import _strides, derivatives
from minigrad.autograd import engine, graph


def _generic(result: np.ndarray, arrays: list) -> np.ndarray:
    """``iterator_layout`` without the fast path (the reference)."""
    strides = _strides._iterator_strides(arrays, result.shape)
    if strides is None or [s * result.itemsize for s in strides] == list(result.strides):
        return result
    out = _strides.with_strides(result.shape, strides, result.dtype)
    np.copyto(out, result)
    return out


def _values(shape, seed=0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _expanded(shape) -> np.ndarray:
    return np.broadcast_to(np.float32(1.5), shape)  # every stride 0 (sum's gradient, expanded)


def _odd_size1_strides(shape) -> np.ndarray:
    """C-contiguous, but a size-1 dim has a stride that is not its C stride (NumPy allows it; PyTorch keeps it)."""
    a = _values(shape)
    strides = list(a.strides)
    strides[shape.index(1)] = 4 * 1000
    return np.lib.stride_tricks.as_strided(a, shape, strides)


# (operands, whether the fast path takes them): shapes are the result's unless broadcast on purpose
ACCEPTED = {
    "expanded-times-c": lambda: [_expanded((6, 5)), _values((6, 5))],
    "c-times-expanded": lambda: [_values((6, 5)), _expanded((6, 5))],
    "expanded-3d": lambda: [_expanded((2, 3, 4)), _values((2, 3, 4))],
    "expanded-with-size-1-dims": lambda: [_expanded((3, 1, 4)), _values((3, 1, 4))],
    "expanded-size-1-first": lambda: [_expanded((1, 5, 4)), _values((1, 5, 4))],
    "two-expanded-one-c": lambda: [_expanded((4, 4)), _values((4, 4)), _expanded((4, 4))],
    "all-expanded": lambda: [_expanded((3, 5)), _expanded((3, 5))],
    "empty": lambda: [_expanded((0, 5)), _values((0, 5))],
}
DECLINED = {
    "transposed": lambda: [_expanded((5, 5)), _values((5, 5)).T],
    "column-expanded": lambda: [np.broadcast_to(_values((5, 1)), (5, 6)), _values((5, 6))],
    "row-expanded": lambda: [np.broadcast_to(_values((1, 6)), (5, 6)), _values((5, 6))],
    "sliced": lambda: [_expanded((5, 3)), _values((5, 6))[:, ::2]],
    "smaller-operand": lambda: [_expanded((5, 6)), _values((6,))],
    "odd-size-1-stride": lambda: [_expanded((3, 1, 4)), _odd_size1_strides((3, 1, 4))],
    "channels-last": lambda: [_expanded((2, 3, 4, 5)), _values((2, 4, 5, 3)).transpose(0, 3, 1, 2)],
    "negative-strides": lambda: [_expanded((4, 5)), _values((4, 5))[::-1]],
}


def _result_of(arrays: list) -> np.ndarray:
    return np.multiply.reduce(np.broadcast_arrays(*arrays), axis=0) if len(arrays) > 2 else \
        np.multiply(*arrays)


@pytest.mark.parametrize("name", list(ACCEPTED))
def test_layout_fast_path_takes_these_and_gives_the_generic_layout(name) -> None:
    arrays = ACCEPTED[name]()
    assert any(not a.flags.c_contiguous for a in arrays) or 0 in arrays[0].shape  # (else never asked)
    result = np.multiply(arrays[0], arrays[1])
    assert _strides._c_order_kept(result, arrays)
    ours = _strides.iterator_layout(result, arrays)
    reference = _generic(result, arrays)
    assert ours.strides == reference.strides and ours.shape == reference.shape
    assert ours is result and reference is result  # (nothing to re-lay: the same array, no copy)
    np.testing.assert_array_equal(ours, reference)


@pytest.mark.parametrize("name", list(DECLINED))
def test_layout_fast_path_declines_these(name) -> None:
    arrays = DECLINED[name]()
    result = np.multiply(arrays[0], arrays[1])
    assert not _strides._c_order_kept(result, arrays)
    ours = _strides.iterator_layout(result, arrays)  # (the generic path: the same function as the reference)
    reference = _generic(result, arrays)
    assert ours.strides == reference.strides
    np.testing.assert_array_equal(ours, reference)


def test_layout_fast_path_declines_a_result_not_in_c_order() -> None:
    # (the operands qualify, but NumPy's result has an odd size-1 stride: the generic path re-lays it)
    arrays = [_expanded((3, 1, 4)), _values((3, 1, 4))]
    result = _odd_size1_strides((3, 1, 4))
    assert not _strides._c_order_kept(result, arrays)
    ours = _strides.iterator_layout(result, arrays)
    assert ours.strides == _generic(result, arrays).strides == (16, 16, 4)


def test_layout_fast_path_gives_pytorchs_gradient_strides() -> None:
    # W5: the products in MulBackward0 multiply sum's expanded gradient by C-contiguous tensors
    torch = torch_or_skip()
    for shape_a, shape_b, shape_c in [((6, 1), (1, 6), (6, 6)), ((2, 3, 1), (1, 1, 4), (2, 3, 4))]:
        grads = []
        for lib in (torch, minigrad):
            a, b, c = (lib.tensor(_values(s, k), requires_grad=True) for k, s in enumerate((shape_a, shape_b, shape_c)))
            ((a + b) * c).sum().backward()
            grads.append([(t.grad.stride(), t.grad.detach().numpy().tobytes()) for t in (a, b, c)])
        assert grads[0] == grads[1]


def test_gradients_needing_a_fix_up_still_get_it() -> None:
    # broadcast (summed back to the input's shape) and promotion (cast back to the input's dtype), one node each
    torch = torch_or_skip()
    got = []
    for lib in (torch, minigrad):
        x = lib.tensor(_values((3,)), requires_grad=True)
        y = lib.tensor(_values((2, 3), 1), requires_grad=True)
        z = lib.tensor(_values((2, 3), 2).astype(np.float64), requires_grad=True)
        ((x + y) * z).tanh().sum().backward()
        got.append([(t.grad.dtype, t.grad.shape, t.grad.detach().numpy().tobytes()) for t in (x, y, z)])
    assert [(str(d), tuple(s), b) for d, s, b in got[0]] == [(str(d), tuple(s), b) for d, s, b in got[1]]
    assert str(got[1][0][0]) == "torch.float32" and tuple(got[1][0][1]) == (3,)


def test_a_wrong_number_of_gradients_is_still_refused() -> None:
    torch = torch_or_skip()
    messages = []
    for lib in (torch, minigrad):
        class Two(lib.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                return a * b

            @staticmethod
            def backward(ctx, grad):
                return (grad,)  # one gradient for two inputs

        a, b = (lib.ones(3, requires_grad=True) for _ in range(2))
        with pytest.raises(RuntimeError) as info:
            Two.apply(a, b).sum().backward()
        messages.append(str(info.value))
    assert messages[0] == messages[1]
    assert "returned an incorrect number of gradients (expected 2, got 1)" in messages[1]


def test_the_gradient_reaching_a_leaf_is_taken_without_a_copy(monkeypatch) -> None:
    # The inline check reads the gradients' arrays: it must not keep one alive (``_sole_owner`` counts references).
    seen = []
    accumulate = graph.AccumulateGrad._accumulate

    def spy(self, new, owned, grad_enabled):   # (the engine hands on its grad mode: round 33)
        seen.append(owned)
        return accumulate(self, new, owned, grad_enabled)

    monkeypatch.setattr(graph.AccumulateGrad, "_accumulate", spy)
    x = minigrad.tensor(_values((4, 3)), requires_grad=True)
    w = minigrad.tensor(_values((4, 3), 1), requires_grad=True)
    (x * w).tanh().sum().backward()
    assert seen == [True, True]
    assert x.grad.shape == (4, 3) and w.grad.shape == (4, 3)


@pytest.mark.parametrize("shape,ok", [((), True), ((1, 1), True), ((0,), False), ((2,), False)])
def test_implicit_gradient_needs_one_element(shape, ok) -> None:
    torch = torch_or_skip()
    outcomes = []
    for lib in (torch, minigrad):
        x = lib.ones(shape, requires_grad=True)
        try:
            (x * 2).backward()
            outcomes.append(x.grad.numpy().tolist())
        except RuntimeError as e:
            outcomes.append(str(e))
    assert outcomes[0] == outcomes[1]
    assert ok == (outcomes[1] != "grad can be implicitly created only for scalar outputs")


def test_numpy_result_is_quiet_outside_a_backward_pass_and_leaves_the_users_state() -> None:
    big = np.full(3, 1e30, np.float32)
    with np.errstate(all="raise"):
        result = derivatives._numpy_result(np.multiply, big, big)  # (overflow: no FloatingPointError)
        assert np.geterr()["over"] == "raise"
    assert np.isinf(result.numpy()).all()


def test_numpy_result_inside_backward_is_quiet_and_the_pass_restores_the_users_state() -> None:
    a = minigrad.tensor(np.full((2, 2), 3e38, np.float32), requires_grad=True)
    b = minigrad.tensor(np.full((2, 2), 3e38, np.float32), requires_grad=True)
    with np.errstate(all="raise"), warnings.catch_warnings():
        warnings.simplefilter("error")
        (a @ b).sum().backward()  # (MmBackward0's products go through _numpy_result; sums overflow)
        assert np.geterr()["over"] == "raise"
    assert np.isinf(a.grad.numpy()).all() and engine._errstate.get() is not engine._errstate.QUIET
