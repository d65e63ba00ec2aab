"""The same program drawn from PyTorch and from minigrad gives the same picture."""

from __future__ import annotations

import numpy as np
import pytest
from vizhelpers import one_layer, picture

import viz


def mlp(B):
    rng = np.random.RandomState(1)
    x = B.tensor(rng.randn(4, 3))
    w1 = B.tensor(rng.randn(3, 5), requires_grad=True)
    w2 = B.tensor(rng.randn(5, 1), requires_grad=True)
    h = B.mod.matmul(x, w1).tanh()
    out = B.mod.matmul(h, w2).sigmoid()
    loss = ((out - 1.0) ** 2).mean() + w1.exp().sum() * 0.01
    return loss


def square(B):
    a = B.tensor(np.array([1.0, 2.0]), requires_grad=True)
    return (a * a).sum()


def unrolled(B):
    a = B.tensor(np.array([0.5, 1.5]), requires_grad=True)
    y = a
    for _ in range(60):
        y = y * 0.9 + a
    return y.sum()


PROGRAMS = {
    "one_layer": lambda B: one_layer(B)[-1],
    "mlp": mlp,
    "square": square,
    "unrolled": unrolled,
}


@pytest.mark.parametrize("program", list(PROGRAMS))
@pytest.mark.parametrize("after_backward", [False, True])
def test_same_picture(both, program, after_backward):
    pics = []
    for B in both:
        out = PROGRAMS[program](B)
        if after_backward:
            out.backward()
        d = viz.draw(out, auto_names=False)
        pics.append(picture(d.graph))
    assert pics[0][0] == pics[1][0]
    assert pics[0][1] == pics[1][1]


@pytest.mark.parametrize("program", ["one_layer", "mlp"])
def test_same_stepper_frames(both, program):
    frames = []
    for B in both:
        st = viz.BackwardStepper(PROGRAMS[program](B))
        frames.append(st.frames)
    assert [(f.node, f.node_id) for f in frames[0]] == [(f.node, f.node_id) for f in frames[1]]
    for ft, fm in zip(*frames):
        for gt, gm in zip(ft.grad_in, fm.grad_in):
            np.testing.assert_allclose(gt, gm, rtol=1e-4, atol=1e-6)
        assert [(d, nr) for d, nr, _ in ft.grads_out] == [(d, nr) for d, nr, _ in fm.grads_out]


@pytest.mark.parametrize("program", ["one_layer", "mlp"])
def test_same_saved_attributes(both, program):
    attrs = []
    for B in both:
        d = viz.draw(PROGRAMS[program](B), show_attrs=True, auto_names=False)
        attrs.append([(n.title, n.attrs) for n in d.graph.nodes if n.kind == "fn"])
    assert attrs[0] == attrs[1]
