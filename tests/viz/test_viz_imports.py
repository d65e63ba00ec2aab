"""viz never imports torch or minigrad (nor the heavy optional libraries) when imported or drawing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_import_viz_is_light():
    code = (
        "import sys, viz, viz.drawing, viz.graph, viz.dot, viz.render, viz.walk, viz.collapse, viz.cli\n"
        "print(sorted(m for m in ('torch', 'minigrad', 'matplotlib', 'ipywidgets') if m in sys.modules))"
    )
    r = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"
