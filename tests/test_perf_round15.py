"""The fast paths of #8 round 15 (bench/PROFILE.md): each gives what the general path gives, and declines the rest.

- ``autograd._backward_scalar``: ``loss.backward()`` with no arguments, for a float32/float64 one-element root.
- ``Op.number_save``: what ``run_number`` saves, without ``Op._save``'s loop.
- ``Op.grads_fit`` / ``node._grads_fit``: the engine skips ``_validate_outputs`` for a node whose formulas cannot
  return a gradient needing a sum or a cast (add/sub/mul/tanh with every input of the result's shape and dtype,
  and the number ops); every other node, and every node under a GradientEdge root, keeps the fix-up.
"""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from parity import torch_or_skip

import minigrad
from minigrad import _dispatch, derivatives
from minigrad import autograd as A
from minigrad.autograd import engine, graph


def _values(shape, dtype=np.float32, seed=0) -> np.ndarray:
    a = np.random.default_rng(seed).standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * np.random.default_rng(seed + 100).standard_normal(shape)
    return a.astype(dtype)


def _leaf(shape, dtype=np.float32, seed=0):
    return minigrad.tensor(_values(shape, dtype, seed), requires_grad=True)


def _grad_record(t) -> tuple:
    g = t.grad
    return g.dtype, tuple(g.shape), g.stride(), g._data.tobytes()


# ---- _backward_scalar ---------------------------------------------------------------------------------------

SCALAR_ROOTS = {
    "0-dim float32 (a loss)": lambda x: (x * 1.5).tanh().sum(),
    "0-dim float64": lambda x: (x.double() * 1.5).sum(),
    "(1, 1) float32": lambda x: x.sum().reshape(1, 1) * 2.0,
    "mean": lambda x: (x * x).mean(),
}


@pytest.mark.parametrize("name", list(SCALAR_ROOTS))
def test_backward_scalar_gives_the_general_paths_gradients(name) -> None:
    make = SCALAR_ROOTS[name]
    got = []
    for general in (False, True):
        x = _leaf((5, 3))
        seen = []
        y = make(x)
        y.register_hook(lambda g, seen=seen: seen.append((g.dtype, tuple(g.shape), g.stride(), g._data.tobytes(),
                                               g._data.flags.writeable)))
        # retain_graph=False (not left out) takes the general path: the same backward otherwise
        y.backward(retain_graph=False) if general else y.backward()
        got.append((_grad_record(x), seen))
    assert got[0] == got[1]
    assert got[0][1][0][3] == np.ones(1, got[0][1][0][0].np).tobytes()  # the implicit gradient: one


def test_backward_scalar_is_taken_for_a_loss(monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("general path")

    monkeypatch.setattr(A, "_make_grads", refuse)
    x = _leaf((4,))
    (x * 2.0).sum().backward()
    assert x.grad.tolist() == [2.0] * 4
    leaf = _leaf(())  # a leaf root: its own AccumulateGrad
    leaf.backward()
    assert leaf.grad.item() == 1.0


@pytest.mark.parametrize("make", [
    lambda: (_leaf((3,)) * 2.0),                                    # not one element
    lambda: (_leaf((), np.float16) * 2.0),                          # float16: the general path
    lambda: (_leaf((), np.complex64) * 2.0),                        # complex: refused there
    lambda: minigrad.tensor(1.0),                                   # requires no grad
    lambda: (_leaf((0,)) * 2.0).sum().reshape(1)[:0],               # no element
], ids=["3-elements", "float16", "complex", "no-grad", "empty"])
def test_backward_scalar_declines_and_the_general_path_decides(make) -> None:
    y = make()
    assert A._backward_scalar(y) is False  # nothing done (the graph is still there: backward below runs it)
    try:
        y.backward()
        outcome = "ran"
    except RuntimeError as e:
        outcome = str(e)
    if y.dtype == minigrad.float16:
        assert outcome == "ran"
    else:
        assert outcome in ("grad can be implicitly created only for scalar outputs",
                           "grad can be implicitly created only for real scalar outputs but got torch.complex64",
                           "element 0 of tensors does not require grad and does not have a grad_fn")


def test_backward_scalar_errors_match_pytorch() -> None:
    torch = torch_or_skip()
    messages = []
    for lib in (torch, minigrad):
        row = []
        for make in (lambda lib=lib: lib.ones(3, requires_grad=True) * 2.0, lambda lib=lib: lib.tensor(1.0),
                     lambda lib=lib: lib.ones((), dtype=lib.complex64, requires_grad=True) * 2.0):
            with pytest.raises(RuntimeError) as info:
                make().backward()
            row.append(str(info.value))
        messages.append(row)
    assert messages[0] == messages[1]


def test_backward_scalar_leaves_the_graph_freed_as_the_general_path() -> None:
    x = _leaf((3,))
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()


# ---- Op.number_save -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("name,number,args", [("mul", 1.5, {}), ("div", 3.0, {}), ("add", 2.0, {"alpha": 1}),
                                               ("sub", 0.25, {"alpha": 1}), ("mul", 3, {})])
def test_number_save_is_what_save_keeps(name, number, args) -> None:
    op = getattr(derivatives, name)
    assert op.number_save is not None
    x = _leaf((4,))
    o = op.run_number(x, number, args)
    assert o.grad_fn._saved == op._save((x, number), (o,), args, 1)
    assert len(o.grad_fn._saved) == len(op.save_plan)


def test_number_save_declines_a_plan_that_needs_a_tensor() -> None:
    assert _dispatch._number_save((("self", _dispatch._INPUT, 0, None, 1),)) is None
    assert _dispatch._number_save((("result", _dispatch._OUTPUT, 0, None, -1),)) is None
    # a slot input 0's formula does not need stays unset, whatever it is
    assert _dispatch._number_save((("self", _dispatch._INPUT, 0, None, 2),)) == ((None,), ())


def test_number_ops_saved_values_match_pytorch() -> None:
    torch = torch_or_skip()
    got = []
    for lib in (torch, minigrad):
        x = lib.ones(3, requires_grad=True)
        got.append((float((x * 1.5).grad_fn._saved_other), (x * 1.5).grad_fn._saved_self,
                    float((x / 4.0).grad_fn._saved_other), (x + 2.0).grad_fn._saved_alpha))
    assert got[0] == got[1]


# ---- grads_fit: the engine's fix-up skipped ----------------------------------------------------------------------

FIT_DTYPES = [np.float16, ml_dtypes.bfloat16, np.float32, np.float64, np.complex64, np.complex128]
FIT_CASES = {
    "add": lambda a, b: a + b,
    "add-alpha": lambda a, b: minigrad.add(a, b, alpha=2.5),
    "sub": lambda a, b: a - b,
    "sub-alpha": lambda a, b: minigrad.sub(a, b, alpha=0.5),
    "mul": lambda a, b: a * b,
    "tanh": lambda a, b: a.tanh(),
    "mul-number": lambda a, b: a * 1.5,
    "div-number": lambda a, b: a / 3.0,
    "add-number": lambda a, b: a + 2.0,
    "sub-number": lambda a, b: a - 1,
}


def _check_fits(node, grad, create_graph: bool) -> None:
    """The node's gradients need nothing from _validate_outputs (it returns them unchanged)."""
    prev = minigrad.autograd.grad_mode.STATE.enabled
    minigrad.autograd.grad_mode.STATE.enabled = create_graph
    try:
        outputs = node._apply((grad,))
    finally:
        minigrad.autograd.grad_mode.STATE.enabled = prev
    checked = engine._validate_outputs(node, outputs)
    assert len(outputs) == len(checked) == len(node._next_nodes)
    for g, c, (shape, dtype), nxt in zip(outputs, checked, node._input_meta, node._next_nodes):
        assert c is g
        if g is not None and nxt is not None:
            assert g._data.shape == shape and g._data.dtype == dtype


@pytest.mark.parametrize("dtype", FIT_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", list(FIT_CASES))
def test_nodes_marked_fit_need_no_fix_up(name, dtype) -> None:
    for create_graph in (False, True):
        a, b = _leaf((3, 4), dtype, 0), _leaf((3, 4), dtype, 1)
        y = FIT_CASES[name](a, b)
        # (float16/bfloat16 mul/div by a number, bfloat16 and complex ops by one: the number is a wrapped
        # 0-dim tensor, another shape, so the node keeps its fix-up)
        wrapped = "number" in name and (dtype is ml_dtypes.bfloat16 or (
            dtype is np.float16 and name in ("mul-number", "div-number")) or np.dtype(dtype).kind == "c")
        assert y.grad_fn._grads_fit is (not wrapped)
        if not wrapped:
            grad = minigrad.tensor(_values((3, 4), dtype, 2), requires_grad=create_graph)
            _check_fits(y.grad_fn, grad, create_graph)


@pytest.mark.parametrize("make", [
    lambda: _leaf((3,)) + _leaf((2, 3)),                                       # broadcast
    lambda: _leaf((2, 3)) * _leaf((2, 3), np.float64),                         # promotion
    lambda: _leaf((2, 3)) + minigrad.tensor(1.5, dtype=minigrad.float64),      # 0-dim operand
    lambda: _leaf((2, 3)).sin(),                                               # not a listed op
    lambda: _leaf((2, 3)).sum(),
    lambda: _leaf((2, 3)) * 1.5 * _leaf((1, 3)),
], ids=["broadcast", "promotion", "0-dim", "sin", "sum", "broadcast-after-number"])
def test_other_nodes_keep_the_fix_up(make) -> None:
    assert make().grad_fn._grads_fit is False


def test_nodes_not_made_by_table_ops_keep_the_fix_up() -> None:
    class Double(minigrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    y = Double.apply(_leaf((3,)))
    assert y.grad_fn._grads_fit is False
    assert graph.AccumulateGrad._grads_fit is False


def test_fix_ups_still_happen_in_a_graph_with_fit_nodes() -> None:
    # summed (broadcast) and cast (promotion) gradients beside fit nodes, against PyTorch: values, dtypes, strides
    torch = torch_or_skip()
    got = []
    for lib in (torch, minigrad):
        x = lib.tensor(_values((3,)), requires_grad=True)
        y = lib.tensor(_values((2, 3), seed=1), requires_grad=True)
        z = lib.tensor(_values((2, 3), np.float64, seed=2), requires_grad=True)
        (((x * 1.5 + y).tanh() - y) * z + 2.0).sum().backward()
        got.append([(str(t.grad.dtype), tuple(t.grad.shape), t.grad.stride(), t.grad.detach().numpy().tobytes())
                    for t in (x, y, z)])
    assert got[0] == got[1]


def test_a_gradient_edge_root_keeps_every_fix_up() -> None:
    # A hand-made GradientEdge has no metadata: its gradient is taken as it is, so fit nodes below it must still
    # have what they return checked (here: a (2, 3) gradient for a (3,) output, summed back to (3,)).
    x = _leaf((3,))
    y = x * 1.5
    assert y.grad_fn._grads_fit is True
    g = minigrad.tensor(_values((2, 3), seed=4))
    minigrad.autograd.backward(graph.GradientEdge(y.grad_fn, 0), g)
    assert tuple(x.grad.shape) == (3,)
    expected = (g._data * np.float32(1.5)).sum(axis=0)
    np.testing.assert_array_equal(x.grad._data, expected)


def test_gradients_of_a_w2_chain_are_unchanged_by_the_skip(monkeypatch) -> None:
    # The same chain with every node's fix-up run (the skip switched off through the class attribute's slot)
    def run(skip: bool):
        x = _leaf((4,))
        y = x
        for i in range(30):
            y = y * 1.0001 if i % 3 == 0 else (y + 0.001 if i % 3 == 1 else y.tanh())
        if not skip:
            node = y.grad_fn
            while node is not None and hasattr(node, "_saved"):
                node._grads_fit = False
                node = node._next_node if type(node._next_node) is not graph.AccumulateGrad else None
        calls = []
        validate = engine._validate_outputs
        monkeypatch.setattr(engine, "_validate_outputs", lambda *a, **k: calls.append(1) or validate(*a, **k))
        y.sum().backward()
        monkeypatch.setattr(engine, "_validate_outputs", validate)
        return x.grad._data.tobytes(), len(calls)

    (fast, n_fast), (general, n_general) = run(True), run(False)
    assert fast == general
    assert n_fast == 1 and n_general == 31  # (SumBackward0 keeps its fix-up: not a listed op)


def test_the_gradient_reaching_a_leaf_is_still_taken_without_a_copy(monkeypatch) -> None:
    seen = []
    accumulate = graph.AccumulateGrad._accumulate

    def spy(self, new, owned, grad_enabled):   # (the engine hands on its grad mode: round 33)
        seen.append(owned)
        return accumulate(self, new, owned, grad_enabled)

    monkeypatch.setattr(graph.AccumulateGrad, "_accumulate", spy)
    x = _leaf((4, 3))
    w = _leaf((4, 3), seed=1)
    ((x * w).tanh() * 2.0).sum().backward()
    assert seen == [True, True]


@pytest.mark.parametrize("name", ["mul", "add", "tanh"])
def test_saved_tensor_hooks_keep_the_fix_up(name) -> None:
    """An unpack hook may return another dtype: the engine must still cast the gradient back (as PyTorch)."""
    torch = torch_or_skip()
    results = []
    for lib in (torch, minigrad):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t.double()):
            y = x * x if name == "mul" else x + x.exp() if name == "add" else x.tanh()
        y.sum().backward()
        results.append((str(x.grad.dtype), x.grad.tolist()))
    assert results[1] == results[0]
    assert results[1][0] == "torch.float32"
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    with minigrad.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        assert not (x * x).grad_fn._grads_fit
    assert (x * x).grad_fn._grads_fit
