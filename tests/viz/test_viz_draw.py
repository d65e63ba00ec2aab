"""viz.draw on the notes' one-layer network: node kinds, labels, edges, grads, names, options."""

from __future__ import annotations

import re

import numpy as np
import pytest
from vizhelpers import one_layer, parse_svg

import viz
from viz.graph import FN, LEAF, OUTPUT, SAVED, TENSOR


def fn_titles(d):
    return [n.title for n in d.graph.nodes if n.kind == FN]


def test_one_layer_structure(backend):
    x, y, w, b, z, loss = one_layer(backend)
    d = viz.draw(loss, params={"w": w, "b": b})
    assert (
        fn_titles(d)
        == [
            "BinaryCrossEntropyWithLogitsBackward0",
            "AddBackward0",
            "SqueezeBackward4",
            "MmBackward0",
        ]
        or backend.name == "minigrad"
    )  # minigrad may build matmul differently; parity test reports it
    leaves = {n.name: n for n in d.graph.by_kind(LEAF)}
    assert set(leaves) == {"w", "b"}
    assert leaves["w"].title == "AccumulateGrad"
    assert leaves["w"].tensor.shape == (5, 3) and leaves["w"].tensor.dtype == "float32"
    assert leaves["b"].tensor.grad == "no grad yet"
    (out,) = d.graph.by_kind(OUTPUT)
    assert out.title == "loss" and out.tensor.shape == ()
    # SVG: every described node is drawn once, with its kind as class, and edges are drawn.
    svg = parse_svg(d.svg())
    assert set(svg.nodes) == {n.id for n in d.graph.nodes}
    assert svg.kinds()["leaf"] == 2 and svg.kinds()["output"] == 1
    assert len(svg.edges) == len(d.graph.edges)
    assert "no grad yet" in svg.text(leaves["b"].id)
    assert "(5, 3) float32" in svg.text(leaves["w"].id)


def test_torch_graph_exact(torch_backend):
    x, y, w, b, z, loss = one_layer(torch_backend)
    d = viz.draw(loss)
    ids = {n.name or n.title: n.id for n in d.graph.nodes}
    edges = {(e.src, e.dst, e.kind) for e in d.graph.edges}
    # forward order: input -> consumer
    assert (ids["AddBackward0"], ids["BinaryCrossEntropyWithLogitsBackward0"], "next") in edges
    assert (ids["b"], ids["AddBackward0"], "next") in edges
    assert (ids["w"], ids["MmBackward0"], "next") in edges
    assert (ids["BinaryCrossEntropyWithLogitsBackward0"], "out0", "produces") in edges
    # DOT in gradient-flow direction: output -> grad_fn -> ... -> leaves
    assert f"out0 -> {ids['BinaryCrossEntropyWithLogitsBackward0']} " in d.source
    assert f"{ids['AddBackward0']} -> {ids['b']} " in d.source
    fwd = viz.draw(loss, direction="forward")
    assert f"{ids['b']} -> {ids['AddBackward0']} " in fwd.source


def test_saved_tensors_link_to_forward_tensor(torch_backend):
    x, y, w, b, z, loss = one_layer(torch_backend)
    d = viz.draw(loss)
    nodes = {n.id: n for n in d.graph.nodes}
    bce = next(n for n in d.graph.nodes if n.title.startswith("BinaryCrossEntropy"))
    saved_into_bce = {
        e.label: nodes[e.src] for e in d.graph.edges if e.kind == "saved" and e.dst == bce.id
    }
    # BCE saved z (self) and y (target): z is the caller's forward tensor, drawn once as "z"
    assert saved_into_bce["self"].kind == TENSOR and saved_into_bce["self"].name == "z"
    assert saved_into_bce["target"].title == "y"
    assert [n.title for n in d.graph.by_kind(TENSOR)].count("z") == 1
    # Saved boxes show shape, dtype, value and version
    target = saved_into_bce["target"].tensor
    assert target.shape == (3,) and target.version == 0 and target.value == "[0, 0, 0]"
    # A saved leaf is linked to its AccumulateGrad node instead of a duplicate box
    w = torch_backend.tensor(np.ones(3), requires_grad=True)
    m = (w * 2.0).sum()
    e = viz.draw(w * w)
    leaf = e.graph.by_kind(LEAF)[0]
    assert {(x.src, x.label) for x in e.graph.edges if x.kind == "saved"} == {
        (leaf.id, "other"),
        (leaf.id, "self"),
    }
    assert not e.graph.by_kind(SAVED)
    del m


def test_saved_alias_without_names(torch_backend):
    torch = torch_backend.mod
    a = torch.tensor([0.5, -1.0], requires_grad=True)
    out = (a.exp() * 3.0).sum()
    d = viz.draw(out, auto_names=False)
    # ExpBackward0 saves its result; MulBackward0 saves nothing tensor-like for a python scalar.
    tensors = d.graph.by_kind(TENSOR)
    assert len(tensors) == 1 and tensors[0].title == "tensor"
    exp_id = next(n.id for n in d.graph.nodes if n.title == "ExpBackward0")
    assert any(
        e.src == exp_id and e.dst == tensors[0].id and e.kind == "produces" for e in d.graph.edges
    )
    assert any(
        e.src == tensors[0].id and e.dst == exp_id and e.kind == "saved" for e in d.graph.edges
    )


def test_grads_after_backward_and_freed(backend):
    x, y, w, b, z, loss = one_layer(backend)
    z.retain_grad()
    loss.backward()
    d = viz.draw(loss, color_grads=True)
    leaves = {n.name: n for n in d.graph.by_kind(LEAF)}
    gb = b.grad.detach().cpu().numpy()
    assert leaves["b"].tensor.grad.startswith("[")
    assert leaves["b"].tensor.grad_norm == pytest.approx(float(np.linalg.norm(gb)), rel=1e-5)
    zn = next(n for n in d.graph.nodes if n.name == "z")
    assert zn.tensor.grad is not None and zn.tensor.grad != "no grad yet"  # retained non-leaf grad
    saved = d.graph.by_kind(SAVED)
    assert saved and all(s.tensor.state == "freed" for s in saved if s.tensor.state)
    assert any(s.tensor.state == "freed" for s in saved)
    svg = parse_svg(d.svg())
    assert "freed" in svg.all_text()
    assert "legend" in d.source and re.search(
        r'id="n\d+" class="leaf".*fillcolor="#[0-9a-f]{6}"', d.source
    )
    assert "grad [" in svg.text(leaves["w"].id)


def test_names_from_caller_and_params(torch_backend):
    _x, _y, weights, bias, _z, loss = one_layer(torch_backend)
    d = viz.draw(loss)
    assert {n.name for n in d.graph.by_kind(LEAF)} == {"weights", "bias"}
    assert d.graph.by_kind(OUTPUT)[0].title == "loss"
    d = viz.draw(loss, params={"W1": weights})
    assert {n.name for n in d.graph.by_kind(LEAF)} == {"W1", "bias"}
    d = viz.draw(loss, names={"W1": weights}, auto_names=False)
    assert {n.name for n in d.graph.by_kind(LEAF)} == {"W1", None}
    assert d.graph.by_kind(OUTPUT)[0].title == "output"


def test_names_from_module(torch_backend):
    torch = torch_backend.mod
    torch.manual_seed(0)
    model = torch.nn.Linear(3, 2)
    out = model(torch.ones(3)).sum()
    d = viz.draw(out, params=model)
    assert {n.name for n in d.graph.by_kind(LEAF)} == {"weight", "bias"}
    d = viz.draw(out)
    assert {n.name for n in d.graph.by_kind(LEAF)} == {"model.weight", "model.bias"}


def test_options(torch_backend):
    x, y, w, b, z, loss = one_layer(torch_backend)
    del z  # a named intermediate would be drawn as a tensor node
    plain = viz.draw(loss, show_saved=False, show_values=False)
    assert not plain.graph.by_kind(SAVED) and not plain.graph.by_kind(TENSOR)
    assert "[0.1" not in plain.source and "float32" in plain.source
    attrs = viz.draw(loss, show_attrs=True)
    assert "alpha = 1" in attrs.source
    consts = viz.draw(loss, show_constants=True)
    assert [(n.title, n.notes) for n in consts.graph.by_kind("constant")] == [
        ("y", []),
        ("constant", ["view of x"]),
    ]
    with pytest.raises(ValueError):
        viz.draw(loss, direction="sideways")


def test_duplicate_inputs_and_multiple_outputs(torch_backend):
    torch = torch_backend.mod
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    sq = a * a
    d = viz.draw(sq, show_saved=False)
    mul = next(n for n in d.graph.nodes if n.kind == FN)
    leaf = d.graph.by_kind(LEAF)[0]
    assert [(e.src, e.dst, e.input_nr) for e in d.graph.edges if e.kind == "next"] == [
        (leaf.id, mul.id, 0),
        (leaf.id, mul.id, 1),
    ]
    two = viz.draw([sq.sum(), a.exp()], show_saved=False)
    assert len(two.graph.by_kind(OUTPUT)) == 2 and len(two.graph.by_kind(LEAF)) == 1
    lone = viz.draw(a)  # a leaf on its own
    assert [n.kind for n in lone.graph.nodes] == [OUTPUT]
    assert lone.graph.nodes[0].tensor.grad == "no grad yet"
    with pytest.raises(TypeError):
        viz.draw([a, 3])


def test_deterministic_and_files(torch_backend, tmp_path):
    x, y, w, b, z, loss = one_layer(torch_backend)
    d1, d2 = viz.draw(loss), viz.draw(loss)
    assert d1.source == d2.source
    assert d1.svg() == d2.svg()
    assert "0x" not in d1.source  # no object addresses in the output
    svg_path = d1.save(tmp_path / "g.svg")
    png_path = d1.save(tmp_path / "g.png")
    dot_path = d1.save(tmp_path / "g.dot")
    assert svg_path.read_text().lstrip().startswith("<?xml")
    assert png_path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert dot_path.read_text() == d1.source
    with pytest.raises(ValueError):
        d1.save(tmp_path / "noext")
    bundle = d1._repr_mimebundle_()
    assert list(bundle) == ["image/svg+xml"] and bundle["image/svg+xml"] == d1._repr_svg_()


def test_inplace_modified_saved_value(torch_backend):
    torch = torch_backend.mod
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    c = a * 2
    s = c.sin()
    c.mul_(2)
    d = viz.draw(s, auto_names=False)
    assert any(n.tensor and n.tensor.state == "modified in-place" for n in d.graph.nodes)
