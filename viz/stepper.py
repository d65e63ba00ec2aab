"""BackwardStepper: record one backward pass with node hooks, then replay it node by node."""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .dot import Overlay
from .drawing import Drawing, draw_desc, resolve_names
from .graph import LEAF, NEXT, OUTPUT, Options, describe
from .tensors import is_tensor, preview, to_numpy
from .walk import walk

CURRENT = {"color": '"#cc0000"', "penwidth": "3", "fillcolor": '"#ffe599"'}
DONE = {"color": '"#38761d"', "penwidth": "2"}


def _copy(g: Any) -> np.ndarray | None:
    if g is None:
        return None
    arr = to_numpy(g)
    return None if arr is None else np.array(arr, copy=True)  # engines may reuse grad buffers


def _p(arr: np.ndarray | None) -> str:
    return "None" if arr is None else preview(arr, 40)


@dataclass
class Frame:
    """One node's turn in backward: the gradient arriving and the gradients it sends on."""

    index: int
    node_id: str  # id in the drawing ("n3"), or the summary node standing for it
    node: str  # grad_fn type name, e.g. "MulBackward0"
    leaf: str | None = None  # the leaf's name, for AccumulateGrad
    grad_in: list[np.ndarray | None] = field(default_factory=list)  # one per output of the node
    # Consumers' contributions that the engine added up into grad_in: (from node id, output nr, grad).
    contributions: list[tuple[str, int, np.ndarray | None]] = field(default_factory=list)
    # One per next_functions slot: (receiving node id or None, its input nr, grad sent).
    grads_out: list[tuple[str | None, int, np.ndarray | None]] = field(default_factory=list)
    leaf_grad_before: np.ndarray | None = None
    leaf_grad_after: np.ndarray | None = None
    labels: dict[str, str] = field(default_factory=dict, repr=False)  # node id -> readable name

    def _who(self, node_id: str | None) -> str:
        return "no grad needed" if node_id is None else self.labels.get(node_id, node_id)

    @property
    def text(self) -> str:
        """Plain-text account of this step (what the widget shows, for tests and notebooks)."""
        who = f"{self.node} ({self.leaf})" if self.leaf else self.node
        lines = [f"step {self.index}: {who}"]
        arriving = ", ".join(_p(g) for g in self.grad_in) or "None"
        if len(self.contributions) > 1:
            parts = " + ".join(f"{_p(g)} from {self._who(src)}" for src, _, g in self.contributions)
            lines.append(f"grad arriving: {parts} = {arriving}")
        elif self.contributions:
            lines.append(f"grad arriving: {arriving} from {self._who(self.contributions[0][0])}")
        else:
            lines.append(f"grad arriving: {arriving} (seed)")
        for k, (dst, _nr, g) in enumerate(self.grads_out):
            lines.append(f"sends to input {k} ({self._who(dst)}): {_p(g)}")
        if self.leaf is not None:
            before = "None" if self.leaf_grad_before is None else _p(self.leaf_grad_before)
            lines.append(f"{self.leaf}.grad: {before} + {arriving} = {_p(self.leaf_grad_after)}")
        return "\n".join(lines)


class BackwardStepper:
    """Runs output.backward() once while recording each node, then steps through it (widget or code)."""

    def __init__(
        self,
        output: Any,
        params: Mapping[str, Any] | Any | None = None,
        *,
        names: Mapping[str, Any] | None = None,
        gradient: Any = None,
        retain_graph: bool = False,
        direction: str = "backward",
        show_saved: bool = False,
        show_values: bool = True,
        max_nodes: int = 200,
        engine: str | None = None,
        interval_ms: int = 900,
        _depth: int = 1,
    ):
        if not is_tensor(output):
            raise TypeError(f"BackwardStepper takes a tensor, got {type(output).__name__}")
        if getattr(output, "grad_fn", None) is None:
            raise ValueError(
                "BackwardStepper needs a tensor with a grad_fn (the result of operations on tensors that require grad)"
            )
        self.engine = engine
        self.interval_ms = interval_ms
        raw = walk([output])
        opts = Options(
            direction=direction, show_saved=show_saved, show_values=show_values, max_nodes=max_nodes
        )
        # Describe before backward: saved values are still readable and leaves show their old grads.
        self.graph = describe(
            [output], resolve_names([output], params, names, _depth, True), opts, raw
        )
        for n in self.graph.nodes:
            if n.kind == LEAF and n.tensor is not None:
                n.tensor.grad = None  # the frames say what .grad is at each step
        self.frames: list[Frame] = self._record(output, raw, gradient, retain_graph)
        self._svg_cache: dict[int, str] = {}
        self._step = 0
        self.widget = self._build_widget()
        self._show(0)

    # --- recording -----------------------------------------------------------------------------
    def _record(self, output: Any, raw, gradient: Any, retain_graph: bool) -> list[Frame]:
        ids = self.graph.fn_ids
        names = {n.fn_index: n.name for n in self.graph.nodes if n.kind == LEAF}
        labels = {
            n.id: (f"{n.title} [{n.id}]" if n.kind != LEAF else f"{n.name or 'leaf'} [{n.id}]")
            for n in self.graph.nodes
        }
        frames: list[Frame] = []
        open_frame: dict[int, Frame] = {}
        pending: dict[int, list[tuple[str, int, np.ndarray | None]]] = {
            i: [] for i in range(len(raw.fns))
        }
        handles = []

        def pre(i: int):
            def hook(grad_outputs):
                f = Frame(len(frames), ids[i], raw.types[i], names.get(i), labels=labels)
                f.grad_in = [_copy(g) for g in grad_outputs]
                f.contributions = list(pending[i])
                var = (
                    getattr(raw.fns[i], "variable", None)
                    if raw.types[i] == "AccumulateGrad"
                    else None
                )
                if var is not None:
                    f.leaf = f.leaf or "leaf"
                    f.leaf_grad_before = _copy(getattr(var, "grad", None))
                frames.append(f)
                open_frame[i] = f

            return hook

        def post(i: int):
            def hook(grad_inputs, grad_outputs):
                f = open_frame.pop(i, None)
                if f is None:  # an engine without pre-hooks: open the frame here
                    pre(i)(grad_outputs)
                    f = open_frame.pop(i)
                kids = raw.children[i]
                for k, g in enumerate(grad_inputs or ()):
                    c, nr = kids[k] if k < len(kids) else (None, 0)
                    arr = _copy(g)
                    f.grads_out.append((ids[c] if c is not None else None, nr, arr))
                    if c is not None:
                        pending[c].append((ids[i], nr, arr))
                if f.leaf is not None:
                    f.leaf_grad_after = _copy(getattr(raw.fns[i].variable, "grad", None))

            return hook

        try:
            for i, fn in enumerate(raw.fns):
                handles.append(fn.register_prehook(pre(i)))
                handles.append(fn.register_hook(post(i)))
            if (
                gradient is None
                and getattr(output, "shape", ()) != ()
                and len(tuple(output.shape)) > 0
            ):
                gradient = _ones_like(output)
            output.backward(gradient, retain_graph=retain_graph)
        finally:
            for h in handles:
                h.remove()
        return frames

    # --- state -----------------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.frames)

    @property
    def step(self) -> int:
        """Index of the frame shown; set it to move (e.g. stepper.step = 3)."""
        return self._step

    @step.setter
    def step(self, value: int) -> None:
        value = max(0, min(int(value), len(self.frames) - 1))
        if self.widget is not None:
            self._slider.value = value  # the observer calls _show
        else:
            self._show(value)

    @property
    def current(self) -> Frame:
        """The frame shown now."""
        return self.frames[self._step]

    @property
    def text(self) -> str:
        """The current frame as plain text."""
        return self.current.text

    def next(self) -> None:
        """Go one step forward in the backward pass."""
        self.step = self._step + 1

    def prev(self) -> None:
        """Go one step back."""
        self.step = self._step - 1

    # --- drawing -----------------------------------------------------------------------------------
    def overlay(self, k: int) -> Overlay:
        """Highlights and gradient labels for frame k."""
        ov = Overlay()
        frame = self.frames[k]
        done = [f.node_id for f in self.frames[:k]]
        for nid in done:
            ov.node_attrs[nid] = dict(DONE)
        ov.node_attrs[frame.node_id] = dict(CURRENT)
        sent: dict[tuple[str, str, int | None], str] = {}
        for f in self.frames[: k + 1]:
            for slot, (dst, _nr, g) in enumerate(f.grads_out):
                if dst is not None:
                    sent[(dst, f.node_id, slot)] = _p(g)
        edge_slots = {(e.src, e.dst, e.input_nr) for e in self.graph.edges if e.kind == NEXT}
        for key, text in sent.items():
            if key in edge_slots:
                ov.edge_labels[key] = text
                if key[1] == frame.node_id:
                    ov.edge_attrs[key] = {
                        "color": '"#cc0000"',
                        "fontcolor": '"#cc0000"',
                        "penwidth": "2",
                    }
        ov.node_rows[frame.node_id] = ["grad in " + ", ".join(_p(g) for g in frame.grad_in)]
        for f in self.frames:
            if f.leaf is not None:
                rows = ov.node_rows.setdefault(f.node_id, [])
                if f.index <= k:
                    rows.append(f"grad = {_p(f.leaf_grad_after)}")
                else:
                    rows.append(
                        "no grad yet"
                        if f.leaf_grad_before is None
                        else f"grad = {_p(f.leaf_grad_before)}"
                    )
        if k == 0:
            for n in self.graph.nodes:
                if n.kind == OUTPUT:
                    ov.node_rows[n.id] = ["seed grad " + ", ".join(_p(g) for g in frame.grad_in)]
        ov.caption = f"step {k + 1}/{len(self.frames)}: {frame.node}" + (
            f" ({frame.leaf})" if frame.leaf else ""
        )
        return ov

    def drawing(self, k: int | None = None) -> Drawing:
        """The graph as drawn at frame k (default: the current one)."""
        return draw_desc(self.graph, self.overlay(self._step if k is None else k), self.engine)

    def svg(self, k: int | None = None) -> str:
        """Frame ``k`` (default: the current one) as SVG text."""
        k = self._step if k is None else k
        if k not in self._svg_cache:
            self._svg_cache[k] = self.drawing(k).svg()
        return self._svg_cache[k]

    def svgs(self) -> list[str]:
        """Every frame as SVG text, in order."""
        return [self.svg(k) for k in range(len(self.frames))]

    def save_frames(self, folder: str | Path, prefix: str = "step") -> list[Path]:
        """Write frame SVGs as folder/step_000.svg, step_001.svg, ..."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        paths = []
        for k, svg in enumerate(self.svgs()):
            p = folder / f"{prefix}_{k:03d}.svg"
            p.write_text(svg, encoding="utf-8")
            paths.append(p)
        return paths

    def to_html(self, title: str = "Backward, step by step") -> str:
        """A self-contained HTML page playing the frames (buttons, slider, arrow keys)."""
        frames = "\n".join(
            f'<div class="frame" data-step="{k}"{"" if k == 0 else " hidden"}>{_strip_prolog(svg)}'
            f"<pre>{html.escape(self.frames[k].text)}</pre></div>"
            for k, svg in enumerate(self.svgs())
        )
        return _HTML.format(
            title=html.escape(title),
            frames=frames,
            n=len(self.frames),
            last=len(self.frames) - 1,
            interval=json.dumps(int(self.interval_ms)),
        )

    def save_html(self, path: str | Path, title: str = "Backward, step by step") -> Path:
        """Write the animated HTML file (for slides)."""
        path = Path(path)
        path.write_text(self.to_html(title), encoding="utf-8")
        return path

    # --- widget ------------------------------------------------------------------------------------
    def _build_widget(self):
        try:
            import ipywidgets as w
        except ImportError:
            return None
        last = max(len(self.frames) - 1, 0)
        self._play = w.Play(
            value=0, min=0, max=last, step=1, interval=self.interval_ms, description="play"
        )
        self._slider = w.IntSlider(
            value=0, min=0, max=last, description="step", continuous_update=True
        )
        w.jslink((self._play, "value"), (self._slider, "value"))
        self._prev_button = w.Button(description="◀ prev", layout=w.Layout(width="80px"))
        self._next_button = w.Button(description="next ▶", layout=w.Layout(width="80px"))
        self._prev_button.on_click(lambda _b: self.prev())
        self._next_button.on_click(lambda _b: self.next())
        self._view = w.HTML()
        self._info = w.HTML()
        self._slider.observe(lambda change: self._show(change["new"]), names="value")
        controls = w.HBox([self._play, self._prev_button, self._slider, self._next_button])
        return w.VBox([controls, self._view, self._info])

    def _show(self, k: int) -> None:
        self._step = k
        if self.widget is None:
            return
        try:
            self._view.value = _strip_prolog(self.svg(k))
        except Exception as e:  # no renderer: the text still tells the story
            self._view.value = f"<pre>{html.escape(str(e))}</pre>"
        self._info.value = f"<pre>{html.escape(self.frames[k].text)}</pre>"

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = {"text/plain": self.text}
        if self.widget is not None:
            bundle.update(self.widget._repr_mimebundle_(include=include, exclude=exclude) or {})
            bundle["text/plain"] = self.text
        return bundle

    def __repr__(self) -> str:
        return f"<BackwardStepper {len(self.frames)} frames, step {self._step}>"


def _ones_like(t: Any) -> Any:
    for attr in ("new_ones",):
        if hasattr(t, attr):
            try:
                return getattr(t, attr)(tuple(t.shape))
            except Exception:
                pass
    mod = __import__(type(t).__module__.split(".")[0])
    return mod.ones_like(t)


def _strip_prolog(svg: str) -> str:
    i = svg.find("<svg")
    return svg[i:] if i >= 0 else svg


_HTML = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:sans-serif;margin:1em}} pre{{background:#f6f6f6;padding:.5em}}
.controls{{margin-bottom:.5em}}</style>
</head><body>
<div class="controls"><button id="prev">&#9664; prev</button> <button id="play">play</button>
<button id="next">next &#9654;</button> <input id="slider" type="range" min="0" max="{last}" value="0">
<span id="label">1 / {n}</span></div>
{frames}
<script>
(function() {{
  var frames = document.querySelectorAll('.frame'), k = 0, timer = null;
  var slider = document.getElementById('slider'), label = document.getElementById('label');
  function show(i) {{
    k = Math.max(0, Math.min(frames.length - 1, i));
    frames.forEach(function(f, j) {{ f.hidden = (j !== k); }});
    slider.value = k; label.textContent = (k + 1) + ' / ' + frames.length;
  }}
  document.getElementById('prev').onclick = function() {{ show(k - 1); }};
  document.getElementById('next').onclick = function() {{ show(k + 1); }};
  slider.oninput = function() {{ show(parseInt(slider.value, 10)); }};
  document.getElementById('play').onclick = function() {{
    if (timer) {{ clearInterval(timer); timer = null; return; }}
    if (k === frames.length - 1) show(0);
    timer = setInterval(function() {{
      if (k >= frames.length - 1) {{ clearInterval(timer); timer = null; }} else show(k + 1);
    }}, {interval});
  }};
  document.addEventListener('keydown', function(e) {{
    if (e.key === 'ArrowRight') show(k + 1); else if (e.key === 'ArrowLeft') show(k - 1);
  }});
}})();
</script></body></html>
"""
