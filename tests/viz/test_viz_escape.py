"""Names with markup characters render literally in DOT and SVG, never as markup."""

from __future__ import annotations

import numpy as np
import pytest
from vizhelpers import parse_svg

import viz
from viz.dot import esc

NASTY = [
    "<script>alert(1)</script>",
    "a&b &amp; c",
    "say \"hi\" 'there'",
    "{x|y} <f0> [z]",
    "back\\slash \\N \\G \\n",
    "</TD></TR></TABLE>>",
    "tab\tnew\nline",
]


def test_esc_unit():
    assert esc("<b>&\"'") == "&lt;b&gt;&amp;&quot;&#x27;"
    assert esc("{|}") == "{|}"
    assert esc("a\\N") == "a\\\\N"
    assert esc("a\nb\x00c") == "a b c"


@pytest.mark.parametrize("name", NASTY)
def test_names_render_literally(backend, name):
    a = backend.tensor(np.array([1.0, 2.0]), requires_grad=True)
    out = (a * a).sum()
    d = viz.draw(out, params={name: a, name + " out": out})
    svg_text = d.svg()
    g = parse_svg(svg_text)  # parses: nothing broke the XML
    leaf = next(n for n in d.graph.nodes if n.kind == "leaf")
    shown = name.replace("\t", " ").replace("\n", " ")
    assert g.text(leaf.id).split(" | ")[0] == shown
    assert g.text("out0").split(" | ")[0] == shown + " out"
    assert "<script" not in svg_text
    # Each node's label stays one table: no injected rows or cells
    assert d.source.count("<TABLE") == d.source.count("</TABLE>")


def test_nasty_stepper_caption(torch_backend):
    a = torch_backend.tensor(np.array([1.0, 2.0]), requires_grad=True)
    out = (a * 3.0).sum()
    st = viz.BackwardStepper(out, params={"<b>&{|}": a})
    assert st.frames[-1].leaf == "<b>&{|}"
    g = parse_svg(st.svg(len(st) - 1))
    assert any(t.startswith("<b>&{|}") for t in g.all_text().split(" | "))
    assert "&lt;b&gt;&amp;{|}" in st.to_html()
