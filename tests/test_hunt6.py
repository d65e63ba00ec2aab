"""Targeted tests of the sixth hunt: group norm's kernel bits, global module hooks, put, set_, Node()."""
from __future__ import annotations

import numpy as np
import pytest
from parity import requires_torch, torch_or_skip

import minigrad
from minigrad.nn.modules import module as M

SHAPES = [((2, 4, 3), 2), ((3, 6, 5, 7), 3), ((4, 8, 33), 4), ((2, 32, 100), 8), ((2, 4), 2)]


@requires_torch
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape,groups", SHAPES)
@pytest.mark.parametrize("affine", [False, True])
def test_group_norm_forward_is_bit_exact(dtype, shape, groups, affine):
    torch = torch_or_skip()
    rng = np.random.default_rng(0)
    x = (rng.standard_normal(shape) * 3 + 1).astype(dtype)
    w = rng.standard_normal(shape[1]).astype(dtype) if affine else None
    b = rng.standard_normal(shape[1]).astype(dtype) if affine else None
    n, c, hxw = shape[0], shape[1], int(np.prod(shape[2:]))
    theirs = torch.native_group_norm(torch.from_numpy(x), None if w is None else torch.from_numpy(w),
                                     None if b is None else torch.from_numpy(b), n, c, hxw, groups, 1e-5)
    ours = minigrad.native_group_norm(minigrad.tensor(x), None if w is None else minigrad.tensor(w),
                                      None if b is None else minigrad.tensor(b), n, c, hxw, groups, 1e-5)
    for o, t in zip(ours, theirs):
        assert np.array_equal(o.numpy(), t.numpy())


@requires_torch
def test_group_norm_gradients_match_torch():
    torch = torch_or_skip()
    rng = np.random.default_rng(1)
    x, w, b = rng.standard_normal((3, 6, 5)), rng.standard_normal(6), rng.standard_normal(6)
    g = rng.standard_normal((3, 6, 5))
    grads = []
    for lib in (minigrad, torch):
        xs, ws, bs = (lib.tensor(a, requires_grad=True) for a in (x, w, b))
        y = lib.nn.functional.group_norm(xs, 3, ws, bs)
        assert type(y.grad_fn).__name__ == "NativeGroupNormBackward0"
        grads.append([t.numpy() for t in lib.autograd.grad((y * lib.tensor(g)).sum(), (xs, ws, bs))])
    for ours, theirs in zip(*grads):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)


def test_global_hooks_run_first_and_are_removed():
    log = []
    lin = minigrad.nn.Linear(2, 2)
    lin.register_forward_pre_hook(lambda m, a: log.append("local pre"))
    lin.register_forward_hook(lambda m, a, o: log.append("local"))
    lin.register_full_backward_hook(lambda m, gi, go: log.append("local bw"))
    handles = [M.register_module_forward_pre_hook(lambda m, a: log.append("global pre")),
               M.register_module_forward_hook(lambda m, a, o: log.append("global")),
               M.register_module_full_backward_hook(lambda m, gi, go: log.append("global bw")),
               M.register_module_full_backward_pre_hook(lambda m, go: log.append("global bw pre"))]
    try:
        lin(minigrad.ones(1, 2, requires_grad=True)).sum().backward()
    finally:
        for h in handles:
            h.remove()
    assert log == ["global pre", "local pre", "global", "local", "global bw pre", "global bw", "local bw"]
    log.clear()
    lin(minigrad.ones(1, 2))
    assert log == ["local pre", "local"]


def test_global_registration_hook_replaces_the_value():
    h = M.register_module_buffer_registration_hook(lambda m, name, b: b + 1)
    try:
        m = minigrad.nn.Module()
        m.register_buffer("t", minigrad.zeros(2))
    finally:
        h.remove()
    assert m.t.tolist() == [1.0, 1.0]


def test_put_gradients():
    x = minigrad.zeros(2, 2, requires_grad=True)
    s = minigrad.tensor([3.0, 4.0], requires_grad=True)
    y = x.put(minigrad.tensor([3, 0]), s)
    assert y.tolist() == [[4.0, 0.0], [0.0, 3.0]]
    y.backward(minigrad.tensor([[1.0, 2.0], [3.0, 5.0]]))
    assert x.grad.tolist() == [[0.0, 2.0], [3.0, 0.0]]
    assert s.grad.tolist() == [5.0, 1.0]


def test_set_shares_memory_and_node_is_abstract():
    a, b = minigrad.zeros(3), minigrad.arange(4.0)
    a.set_(b)
    b[1] = 7.0
    assert a.tolist() == [0.0, 7.0, 2.0, 3.0]
    with pytest.raises(TypeError, match="Can't instantiate abstract class Node"):
        minigrad.autograd.graph.Node()
