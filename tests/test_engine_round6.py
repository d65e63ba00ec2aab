"""Round-6 engine changes (bench/PROFILE.md) must not change what users see.

- a node keeps its first edge in its own slots, so a one-input node is one GC-tracked object;
- a broadcast gradient going straight into a hookless leaf is summed into a fresh array that
  AccumulateGrad keeps without copying (everyone else still gets PyTorch's view);
- the in-place overlap check looks at the data pointers only for memory that may overlap.
"""
from __future__ import annotations

import gc

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import engine
from tests.parity import assert_close, torch_or_skip


def _tracked_growth(build) -> dict:
    """GC-tracked objects by type name that ``build()`` leaves alive (its result is kept)."""
    gc.collect()
    before = {}
    for o in gc.get_objects():
        before[type(o).__name__] = before.get(type(o).__name__, 0) + 1
    keep = build()
    gc.collect()
    after = {}
    for o in gc.get_objects():
        after[type(o).__name__] = after.get(type(o).__name__, 0) + 1
    del keep
    return {k: v - before.get(k, 0) for k, v in after.items() if v - before.get(k, 0) > 0}


@pytest.mark.parametrize("step", [lambda x: x + 1, lambda x: x * 1.5, lambda x: x.tanh().exp().neg()])
def test_one_input_nodes_are_one_tracked_object_each(step):
    x0 = mg.zeros(3, requires_grad=True)

    def build():
        x = x0 * 1.0
        for _ in range(2000):
            x = step(x)
        return x

    growth = _tracked_growth(build)
    nodes = sum(v for k, v in growth.items() if k.endswith("Backward0"))
    assert nodes >= 2000
    # Edges bring no object of their own (they used to bring a tuple per node). Only a saved output
    # (tanh, exp) brings its SavedTensor, the node's saved tuple and the version counter it checks.
    saving = growth.get("SavedTensor", 0)
    assert saving in (0, 2 * 2000)
    assert growth.get("tuple", 0) <= saving + 50, growth
    assert sum(growth.values()) <= nodes + 3 * saving + 50, growth


def test_edges_read_back_as_pytorch_next_functions():
    torch = torch_or_skip()
    shown = []
    for lib in (mg, torch):
        a = lib.ones(2, requires_grad=True)
        b = lib.ones(2, requires_grad=True)
        c = lib.ones(2)
        y = ((a * 2) + b) * c - (a + 1).exp() + lib.stack([a, c, b]).sum(0)
        seen, stack, rows = set(), [y.grad_fn], []
        while stack:  # every node's next_functions, by names and input numbers
            fn = stack.pop()
            if fn is None or fn in seen:
                continue
            seen.add(fn)
            rows.append((fn.name(), tuple((None if f is None else f.name(), nr) for f, nr in fn.next_functions)))
            stack.extend(f for f, _ in fn.next_functions)
        shown.append(sorted(rows))
    assert shown[0] == shown[1]


def test_setting_next_functions_storage_round_trips():
    node = mg.ones(2, requires_grad=True).mul(2).grad_fn
    leaf = node.next_functions[0][0]
    for nodes, nrs in [((leaf,), (0,)), ((leaf, None), (0, 0)), ((None, leaf), (0, 0)), ((), ()),
                       ((None, None, None), (0, 0, 0)), ((leaf, leaf), (0, 0))]:
        node._next_nodes, node._next_nrs = nodes, nrs
        assert node._next_nodes == nodes
        assert node.next_functions == tuple(zip(nodes, nrs))


def test_several_roots_still_reach_every_leaf():
    torch = torch_or_skip()
    grads = []
    for lib in (mg, torch):
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        b = lib.tensor([3.0, -1.0], requires_grad=True)
        lib.autograd.backward([(a * b).sum(), (a + 1).tanh(), b.exp()],
                              [lib.tensor(2.0), lib.ones(2), lib.tensor([0.5, 1.0])])
        grads.append((a.grad.detach().numpy().copy(), b.grad.detach().numpy().copy()))
    for g_mg, g_torch in zip(grads[0], grads[1]):
        assert_close(g_mg, g_torch)


@pytest.mark.parametrize("bias_shape", [(3,), (1, 3), (4, 1), (2, 1, 3)])
def test_bias_gradient_into_a_plain_leaf_is_kept_without_a_copy(bias_shape, monkeypatch):
    torch = torch_or_skip()
    rng = np.random.default_rng(1)
    x_np = rng.standard_normal((2, 4, 3)).astype(np.float32)
    b_np = rng.standard_normal(bias_shape).astype(np.float32)
    copies = []
    original = mg.Tensor._detached_copy
    monkeypatch.setattr(mg.Tensor, "_detached_copy", lambda t: copies.append(t.shape) or original(t))
    results = []
    for lib in (mg, torch):
        x = lib.tensor(x_np)
        b = lib.tensor(b_np, requires_grad=True)
        ((x + b).tanh() * x).sum().backward()
        assert b.grad._base is None and b.grad.shape == b.shape
        results.append(b.grad.detach().numpy().copy())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-6, atol=1e-6)
    # only leading dims go, or only inner dims shrink: one reduction; both: the view path, which AccumulateGrad
    # takes as it is too (a view of a sum nobody else holds, as PyTorch steals it: version 0, not a copy's 1)
    assert copies == []


def test_hooks_and_captures_still_see_pytorchs_view():
    torch = torch_or_skip()
    for lib in (mg, torch):
        x = lib.ones(4, 3)
        b = lib.zeros(3, requires_grad=True)
        seen = []
        b.register_hook(lambda g, seen=seen: seen.append(g._base is not None))
        (x + b).sum().backward()
        (g,) = lib.autograd.grad((x + b).sum(), b)
        assert seen == [True, True], lib.__name__  # backward, then grad
        assert g._base is not None, lib.__name__
        assert b.grad._base is None
        np.testing.assert_array_equal(b.grad.detach().numpy(), np.full(3, 4.0, np.float32))


def test_sum_to_fresh_array_equals_the_view_path():
    rng = np.random.default_rng(2)
    for data_shape, shape in [((5, 3), (3,)), ((5, 3), (5, 1)), ((2, 5, 3), (3,)), ((4,), ()),
                              ((2, 3), ()), ((3, 1, 4), (1, 1, 4)), ((6, 2), (1, 2))]:
        for dtype in (np.float16, np.float32, np.float64):
            data = rng.standard_normal(data_shape).astype(dtype)
            view = engine._sum_to(data, shape)
            fresh = engine._sum_to(data, shape, as_view=False)
            assert fresh.shape == view.shape == shape and fresh.dtype == view.dtype
            np.testing.assert_array_equal(fresh.numpy(), view.numpy())


def test_in_place_overlap_rules_unchanged():
    torch = torch_or_skip()
    for lib in (mg, torch):
        x = lib.arange(6.0)
        x += x  # exactly the written elements: allowed
        assert x.tolist() == [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
        y = lib.arange(6.0)
        with lib.no_grad():
            y[1:] -= y[:-1].clone()  # separate memory: allowed
        assert y.tolist() == [0.0, 1.0, 1.0, 1.0, 1.0, 1.0]
        z = lib.arange(6.0)
        with pytest.raises(RuntimeError, match="some elements of the input tensor and the written-to tensor"):
            z[1:].add_(z[:-1])


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("number", [1.0001, -3, 1e-30, 7.5 + 0j, float("inf")])
@pytest.mark.parametrize("op", ["mul", "div"])
def test_saved_number_reaches_the_formula_as_it_is_only_when_nothing_records(dtype, number, op):
    if isinstance(number, complex) and not dtype.startswith("complex"):
        number = 7.5
    rng = np.random.default_rng(3)
    data = rng.standard_normal(5).astype(dtype)
    data[0] = 0.0
    grads = []
    for create_graph in (False, True):  # True: the formula gets the wrapped 0-dim tensor
        x = mg.tensor(data, requires_grad=True)
        y = x * number if op == "mul" else x / number
        (g,) = mg.autograd.grad(y, x, mg.ones_like(y), create_graph=create_graph)
        grads.append(g.detach().numpy())
        assert g.dtype == x.dtype
    np.testing.assert_array_equal(grads[0], grads[1])


def test_saved_number_still_reads_as_pytorchs_wrapped_tensor():
    torch = torch_or_skip()
    for lib in (mg, torch):
        x = lib.ones(3, requires_grad=True)
        y = x * 2.5
        y.sum().backward(retain_graph=True)
        other = y.grad_fn._saved_other
        assert other.dtype == lib.float64 and other.dim() == 0 and other.item() == 2.5
        (g,) = lib.autograd.grad((y * y).sum(), x, create_graph=True)  # grad * 2.5 is recorded
        assert type(g.grad_fn).__name__ == "MulBackward0", lib.__name__
        assert g.grad_fn._saved_other.item() == 2.5


def test_no_wrapped_number_is_made_in_a_plain_backward(monkeypatch):
    from minigrad import _dispatch
    made = []
    original = _dispatch._number_tensor
    monkeypatch.setattr(_dispatch, "_number_tensor", lambda v: made.append(v) or original(v))
    x = mg.ones(3, requires_grad=True)
    ((x * 1.5) / 3.0).sum().backward()
    assert made == []
    np.testing.assert_array_equal(x.grad.numpy(), np.full(3, np.float32(1.5) / np.float32(3.0)))
    x.grad = None
    (g,) = mg.autograd.grad(((x * 1.5) / 3.0).sum(), x, create_graph=True)
    # recorded formulas get the numbers too: their new nodes save them as numbers, wrapped when read (as
    # PyTorch's wrapped numbers, a 0-d float32 grad times one stays float32: see test_parity_fixes9c.py)
    assert made == []
    np.testing.assert_array_equal(g.numpy(), np.full(3, np.float32(1.5) / np.float32(3.0)))
