"""`python -m viz SCRIPT.py --out graph.svg`."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from vizhelpers import parse_svg

from viz import cli, render

SCRIPT = """
import sys
import {mod} as T
x = T.ones(5)
y = T.zeros(3)
w = T.tensor([[0.1] * 3] * 5, requires_grad=True)
b = T.tensor([0.2, -0.1, 0.3], requires_grad=True)
z = T.matmul(x, w) + b
loss = T.nn.functional.binary_cross_entropy_with_logits(z, y)
other = (w * 2.0).sum()
seen_args = sys.argv[1:]
"""


@pytest.fixture
def script(tmp_path, backend):
    p = tmp_path / "train.py"
    p.write_text(textwrap.dedent(SCRIPT.format(mod=backend.name)))
    return p


def test_cli_default_loss(script, tmp_path, capsys):
    out = tmp_path / "graph.svg"
    assert cli.main([str(script), "--out", str(out), "--", "--lr", "3"]) == 0
    g = parse_svg(out.read_text())
    assert g.kinds()["leaf"] == 2 and g.kinds()["output"] == 1
    texts = g.all_text()
    assert "loss" in texts and " w " in f" {texts} ".replace("|", " ")
    assert "drew loss" in capsys.readouterr().err


def test_cli_named_tensor_and_formats(script, tmp_path):
    png = tmp_path / "other.png"
    assert cli.main([str(script), "-t", "other", "-o", str(png), "--direction", "forward"]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"
    dot = tmp_path / "g.dot"
    assert cli.main([str(script), "-o", str(dot), "--no-saved"]) == 0
    assert dot.read_text().startswith("digraph") and 'class="saved"' not in dot.read_text()
    with pytest.raises(SystemExit):
        cli.main([str(script), "-t", "nope"])


def test_cli_no_renderer_writes_dot(script, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(render, "candidates", lambda engine=None: [])
    assert cli.main([str(script), "-o", str(tmp_path / "g.svg")]) == 1
    assert (tmp_path / "g.dot").read_text().startswith("digraph")
    assert "graphviz-pure" in capsys.readouterr().err


def test_pick_tensor_rules():
    class T:  # a minimal tensor look-alike
        requires_grad = True

        def __init__(self, shape, fn):
            self.shape, self.grad_fn = shape, fn

        def detach(self):
            return self

    ns = {"a": T((3,), object()), "s1": T((), object()), "s2": T((), object()), "leaf": T((), None)}
    assert cli.pick_tensor(ns, None)[0] == "s2"
    assert cli.pick_tensor({**ns, "loss": T((3,), object())}, None)[0] == "loss"
    with pytest.raises(SystemExit):
        cli.pick_tensor({"leaf": T((), None)}, None)


def test_python_dash_m(tmp_path, torch_backend):
    p = tmp_path / "s.py"
    p.write_text(textwrap.dedent(SCRIPT.format(mod="torch")))
    out = tmp_path / "g.svg"
    r = subprocess.run(
        [sys.executable, "-m", "viz", str(p), "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert "<svg" in out.read_text()
