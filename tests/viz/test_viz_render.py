"""Renderer discovery: graphviz-pure by default, system dot on request, a clear error otherwise."""

from __future__ import annotations

import shutil
import sysconfig
from pathlib import Path

import numpy as np
import pytest

import viz
from viz import render


@pytest.fixture
def tiny(torch_backend):
    a = torch_backend.tensor(np.array([1.0]), requires_grad=True)
    return (a * 2.0).sum()


def test_default_is_graphviz_pure():
    exe = render.find()
    assert Path(exe).name.startswith("graphviz-pure")
    assert Path(exe).parent == Path(sysconfig.get_path("scripts"))


def test_env_var_and_argument_select_dot(monkeypatch):
    monkeypatch.setattr(
        render.shutil, "which", lambda name: "/opt/gv/bin/dot" if name == "dot" else None
    )
    monkeypatch.setenv(render.ENV_VAR, "dot")
    assert render.candidates() == ["/opt/gv/bin/dot"]
    monkeypatch.delenv(render.ENV_VAR)
    assert render.candidates("dot") == ["/opt/gv/bin/dot"]
    assert (
        render.candidates()[-1] == "/opt/gv/bin/dot"
    )  # default: graphviz-pure first, dot as fallback
    assert Path(render.candidates()[0]).name.startswith("graphviz-pure")


@pytest.mark.skipif(shutil.which("dot") is None, reason="system Graphviz not installed")
def test_system_dot_renders(tiny):
    d = viz.draw(tiny, engine="dot")
    assert "<svg" in d.svg()


def test_missing_renderer_error_names_what_to_install(monkeypatch, tiny):
    monkeypatch.setattr(render, "candidates", lambda engine=None: [])
    d = viz.draw(tiny)
    assert d.source.startswith("digraph")  # the DOT text does not need a renderer
    with pytest.raises(viz.RendererNotFound) as err:
        d.svg()
    msg = str(err.value)
    assert (
        "pip install graphviz-pure" in msg
        and "apt install graphviz" in msg
        and render.ENV_VAR in msg
    )
    assert d._repr_svg_() is None
    bundle = d._repr_mimebundle_()
    assert list(bundle) == ["text/plain"] and "digraph" in bundle["text/plain"]


def test_broken_binary_is_skipped(monkeypatch, tmp_path, tiny):
    bad = tmp_path / "graphviz-pure"
    bad.write_text("#!/bin/sh\nexit 3\n")
    bad.chmod(0o755)
    good = render.find("graphviz-pure")
    monkeypatch.setattr(render, "candidates", lambda engine=None: [str(bad), good])
    assert render.find() == good


def test_render_error_and_timeout(monkeypatch):
    with pytest.raises(viz.RenderError):
        render.run("digraph { a -> }", "svg")

    def too_slow(cmd, **kw):
        raise render.subprocess.TimeoutExpired(cmd, kw.get("timeout"))

    monkeypatch.setattr(render.subprocess, "run", too_slow)
    with pytest.raises(viz.RenderError, match="max_nodes"):
        render.run("digraph {}", "svg", timeout=0.2)
