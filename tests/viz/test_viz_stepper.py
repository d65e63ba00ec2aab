"""BackwardStepper: recorded frames (order, values), stepping from code, widget state, exports."""

from __future__ import annotations

import numpy as np
import pytest
from vizhelpers import one_layer, parse_svg

import viz


def np_(t):
    return t.detach().cpu().numpy()


def test_one_layer_frames(backend):
    x, y, w, b, z, loss = one_layer(backend)
    st = viz.BackwardStepper(loss)
    order = [(f.node, f.leaf) for f in st.frames]
    assert order == [
        ("BinaryCrossEntropyWithLogitsBackward0", None),
        ("AddBackward0", None),
        ("AccumulateGrad", "b"),
        ("SqueezeBackward4", None),
        ("MmBackward0", None),
        ("AccumulateGrad", "w"),
    ]
    # The seed, then each node's incoming grad equals what its consumer sent it.
    assert float(st.frames[0].grad_in[0]) == 1.0 and st.frames[0].contributions == []
    zs = 1 / (1 + np.exp(-np_(z)))
    np.testing.assert_allclose(st.frames[1].grad_in[0], zs / 3, rtol=1e-5)  # d mean-BCE / dz
    add, acc_b = st.frames[1], st.frames[2]
    assert acc_b.contributions[0][0] == add.node_id
    np.testing.assert_allclose(acc_b.grad_in[0], add.grads_out[1][2])
    assert acc_b.leaf_grad_before is None
    np.testing.assert_allclose(acc_b.leaf_grad_after, np_(b.grad))
    np.testing.assert_allclose(st.frames[-1].leaf_grad_after, np_(w.grad))
    # MmBackward0 sends nothing to x (no grad needed) and a (5, 3)-shaped grad to w.
    mm = st.frames[4]
    assert mm.grads_out[0][0] is None and mm.grads_out[0][2] is None
    assert mm.grads_out[1][2].shape == (5, 3)
    assert "b.grad: None + [" in acc_b.text


def test_gradients_add_up(backend):
    a = backend.tensor(np.array([1.0, 2.0, 3.0]), requires_grad=True)
    out = (a * a).sum() + (a * 3.0).sum()
    st = viz.BackwardStepper(out)
    acc = next(f for f in st.frames if f.node == "AccumulateGrad")
    assert len(acc.contributions) == 3  # a*a sends to both inputs, a*3 once
    total = sum(g for _, _, g in acc.contributions)
    np.testing.assert_allclose(total, acc.grad_in[0])
    np.testing.assert_allclose(acc.leaf_grad_after, 2 * np.array([1, 2, 3]) + 3)
    assert " + " in acc.text and " = " in acc.text
    # a second backward adds to the existing .grad
    out2 = (a * 1.0).sum()
    st2 = viz.BackwardStepper(out2)
    last = st2.frames[-1]
    np.testing.assert_allclose(last.leaf_grad_before, acc.leaf_grad_after)
    np.testing.assert_allclose(last.leaf_grad_after, acc.leaf_grad_after + 1)


def test_step_from_code_updates_widget(torch_backend):
    x, y, w, b, z, loss = one_layer(torch_backend)
    st = viz.BackwardStepper(loss)
    assert len(st) == 6 and st.step == 0
    st.step = 3
    assert st.step == 3 and st.current.node == "SqueezeBackward4"
    assert st._slider.value == 3
    assert "SqueezeBackward4" in st._info.value and st._view.value.startswith("<svg")
    st._slider.value = 1  # as if the student dragged the slider
    assert st.step == 1 and st.text.startswith("step 1: AddBackward0")
    st.next()
    st.next()
    assert st.step == 3
    st.step = 99
    assert st.step == 5
    st.prev()
    assert st.step == 4
    bundle = st._repr_mimebundle_()
    assert bundle["text/plain"].startswith("step 4: MmBackward0")
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_frame_drawings_and_exports(torch_backend, tmp_path):
    x, y, w, b, z, loss = one_layer(torch_backend)
    st = viz.BackwardStepper(loss)
    g = parse_svg(st.svg(2))
    cur = st.frames[2].node_id
    assert "grad = [" in g.text(cur)  # AccumulateGrad(b) after accumulating
    assert "step 3/6: AccumulateGrad (b)" in st.drawing(2).source
    edge_texts = [t for e in g.edges for t in e["texts"]]
    assert len(edge_texts) >= 2  # gradients sent so far are written on the edges
    paths = st.save_frames(tmp_path / "frames")
    assert [p.name for p in paths] == [f"step_{k:03d}.svg" for k in range(6)]
    html = st.save_html(tmp_path / "backward.html").read_text()
    assert html.count('class="frame"') == 6 and html.count("<svg") == 6 and "<?xml" not in html
    assert st.svgs()[0] == st.svg(0)


def test_non_scalar_output_and_errors(torch_backend):
    a = torch_backend.tensor(np.array([1.0, -2.0]), requires_grad=True)
    st = viz.BackwardStepper(a.exp())
    np.testing.assert_allclose(st.frames[-1].leaf_grad_after, np.exp([1.0, -2.0]), rtol=1e-6)
    with pytest.raises(ValueError):
        viz.BackwardStepper(a)
