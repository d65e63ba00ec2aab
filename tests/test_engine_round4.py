"""Round-4 engine shortcuts (bench/PROFILE.md) must not change results.

- a broadcast gradient is summed back on the array when nothing records (``engine._sum_to``);
- nodes share equal ``_input_meta`` tuples (``_dispatch._shared``).
"""
from __future__ import annotations

import gc

import numpy as np
import pytest

import minigrad as mg
from tests.parity import assert_close, torch_or_skip


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64"])
@pytest.mark.parametrize("bias_shape", [(3,), (1, 3), (2, 1, 3), (), (2, 4, 1)])
def test_broadcast_gradient_summed_on_the_array_equals_sum_to_size(dtype, bias_shape):
    rng = np.random.default_rng(0)
    x_np = rng.standard_normal((2, 4, 3)).astype(dtype)
    b_np = rng.standard_normal(bias_shape).astype(dtype)
    grads = []
    for create_graph in (False, True):  # True takes the recorded sum_to_size
        x = mg.tensor(x_np)
        b = mg.tensor(b_np, requires_grad=True)
        (g,) = mg.autograd.grad(((x + b) * x).sum().abs(), b, create_graph=create_graph)
        assert g.shape == b.shape and g.dtype == b.dtype
        grads.append(g.detach().numpy())
    np.testing.assert_array_equal(grads[0], grads[1])


def test_summed_gradient_is_a_view_exactly_when_torch_returns_one():
    torch = torch_or_skip()
    for bias_shape in [(3,), (1, 3), (2, 1, 3), ()]:
        bases = []
        for lib in (mg, torch):
            x = lib.ones(2, 4, 3)
            b = lib.zeros(bias_shape, requires_grad=True)
            (g,) = lib.autograd.grad((x + b).sum(), b)
            bases.append(g._base is None)
        assert bases[0] == bases[1], bias_shape


def test_broadcast_bias_gradient_matches_torch():
    torch = torch_or_skip()
    rng = np.random.default_rng(1)
    x, w, b = (rng.standard_normal(s).astype(np.float32) for s in ((5, 3), (3, 4), (4,)))
    results = []
    for lib in (mg, torch):
        bt = lib.tensor(b, requires_grad=True)
        (lib.tensor(x).matmul(lib.tensor(w)) + bt).tanh().sum().backward()
        assert bt.grad._base is None and bt.grad.is_contiguous()
        results.append(bt.grad)
    assert_close(results[0], results[1])


def test_nodes_of_a_loop_share_their_input_metadata_and_free_without_gc():
    x0 = mg.ones(4, requires_grad=True)
    x = x0
    nodes = []
    for _ in range(3):
        x = x + 1
        nodes.append(x.grad_fn)
    assert nodes[1]._input_meta is nodes[2]._input_meta
    y = (x0 * x0.detach()).grad_fn
    assert y._input_meta == (((4,), np.dtype("float32")), ((4,), np.dtype("float32")))
    import weakref

    class Witness:   # (held by the node's metadata only: it dies with the node, which takes no weak reference)
        pass

    ref = weakref.ref(nodes[0].metadata.setdefault("witness", Witness()))
    gc.disable()
    try:
        del nodes, x, y
        assert ref() is None  # the shared table holds tuples of shapes and dtypes only
    finally:
        gc.enable()
