"""Engine round 11 (bench/PROFILE.md): NumPy's error state is set once per backward pass.

A backward pass makes NumPy quiet for all of its formulas' ops (``_errstate.begin_pass``); every call into
user code during the pass (hooks, a custom Function's backward, saved-tensor hooks) runs with the user's own
error state, and the user's state is what remains after the pass.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad as torch
from minigrad import _errstate


@pytest.fixture(autouse=True)
def _restore_numpy_errstate():
    before = np.geterr()
    yield
    np.seterr(**before)


def _divide_warns() -> bool:
    """Whether NumPy warns for 1/0 in the current error state (what user code would see)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        np.array([1.0]) / np.array([0.0])
    return any("divide by zero" in str(w.message) for w in caught)


def test_formulas_stay_quiet_and_user_state_comes_back():
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    y = x.log().sum()  # log's backward divides by 0: PyTorch says nothing
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y.backward()
    assert caught == []
    assert x.grad.tolist() == [float("inf"), 1.0]
    assert np.geterr()["divide"] == "warn"
    assert _divide_warns()


def test_tensor_and_node_hooks_see_the_users_state():
    seen = []
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    h.register_hook(lambda g: seen.append(("tensor", _divide_warns())))
    h.grad_fn.register_prehook(lambda g: seen.append(("pre", _divide_warns())))
    h.grad_fn.register_hook(lambda gi, go: seen.append(("post", _divide_warns())))
    x.register_hook(lambda g: seen.append(("leaf", _divide_warns())))
    x.register_post_accumulate_grad_hook(lambda t: seen.append(("acc", _divide_warns())))
    h.sum().backward()
    assert seen == [("tensor", True), ("pre", True), ("post", True), ("leaf", True), ("acc", True)]
    assert x.grad.tolist() == [3.0, 3.0]


def test_custom_backward_and_saved_tensor_hooks_see_the_users_state():
    seen = []

    class Square(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            seen.append(("backward", _divide_warns()))
            (x,) = ctx.saved_tensors
            return 2 * x * g

    def unpack(t):
        seen.append(("unpack", _divide_warns()))
        return t

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, unpack):
        y = Square.apply(x).exp().sum()
    y.backward()
    assert seen == [("unpack", True), ("backward", True), ("unpack", True)]
    assert np.allclose(x.grad.numpy(), 2 * np.array([1.0, 2.0]) * np.exp([1.0, 4.0]))


def test_pack_hooks_under_create_graph_see_the_users_state():
    seen = []
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    with torch.autograd.graph.saved_tensors_hooks(lambda t: seen.append(_divide_warns()) or t, lambda t: t):
        (g,) = torch.autograd.grad(y, x, create_graph=True)  # the formula x * grad saves tensors: packed
    assert seen and all(seen)
    assert g.tolist() == [2.0, 4.0]


def test_seterr_in_a_hook_lasts_as_without_the_engine():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 2).sum()

    def hook(g):
        np.seterr(divide="ignore")
        return g

    x.register_hook(hook)
    y.backward()
    assert np.geterr()["divide"] == "ignore"
    assert not _divide_warns()


def test_errstate_block_around_backward_is_kept():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    x.register_hook(lambda g: seen.append(np.geterr()["over"]))
    with np.errstate(over="raise"):
        (x * 2).sum().backward()
        assert np.geterr()["over"] == "raise"
    assert seen == ["raise"]
    assert np.geterr()["over"] == "warn"


def test_nested_backward_in_a_hook():
    outer = torch.tensor([1.0, 2.0], requires_grad=True)
    seen = []

    def hook(g):
        inner = torch.tensor([3.0], requires_grad=True)
        with torch.enable_grad():  # (hooks run with grad mode off, as in PyTorch)
            (inner * inner).sum().backward()
        seen.append((inner.grad.item(), _divide_warns()))
        return g

    outer.register_hook(hook)
    (outer * 2).sum().backward()
    assert seen == [(6.0, True)]
    assert outer.grad.tolist() == [2.0, 2.0]
    assert _divide_warns()


def test_an_error_in_backward_restores_the_state():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.register_hook(lambda g: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        (x * 2).sum().backward()
    assert _errstate._user_state.get(None) is None
    assert np.geterr()["divide"] == "warn"
    assert _divide_warns()
