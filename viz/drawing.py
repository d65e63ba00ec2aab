"""viz.draw: an autograd graph as an object that shows as SVG in Jupyter and saves to files."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from . import render
from .dot import Overlay, to_dot
from .graph import GraphDesc, Options, describe
from .names import Names, caller_names, named_tensors
from .tensors import is_tensor


class Drawing:
    """DOT source plus lazy rendering; `_repr_mimebundle_` makes Jupyter show it as SVG."""

    def __init__(
        self,
        source: str,
        graph: GraphDesc | None = None,
        engine: str | None = None,
        timeout: float | None = render.DEFAULT_TIMEOUT,
    ):
        self.source = source
        self.graph = graph
        self.engine = engine
        self.timeout = timeout
        self._cache: dict[str, bytes] = {}

    def pipe(self, fmt: str = "svg") -> bytes:
        """Rendered bytes in a Graphviz output format (svg, png, json, pdf, ...)."""
        if fmt not in self._cache:
            self._cache[fmt] = render.run(self.source, fmt, self.engine, self.timeout)
        return self._cache[fmt]

    def svg(self) -> str:
        """The SVG text."""
        return self.pipe("svg").decode("utf-8")

    def save(self, path: str | Path, format: str | None = None) -> Path:
        """Write to path; the format comes from the suffix (.svg, .png, .pdf, .json, .dot/.gv = DOT text)."""
        path = Path(path)
        fmt = (format or path.suffix.lstrip(".")).lower()
        if not fmt:
            raise ValueError(
                f"cannot tell the format of {path}: give it a suffix such as .svg or .png"
            )
        if fmt in ("dot", "gv"):
            path.write_text(self.source, encoding="utf-8")
        else:
            path.write_bytes(self.pipe(fmt))
        return path

    def _repr_svg_(self) -> str | None:
        try:
            return self.svg()
        except render.RendererNotFound:
            return None  # _repr_mimebundle_ explains; returning None lets IPython skip this format

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        try:
            return {"image/svg+xml": self.svg()}
        except (render.RendererNotFound, render.RenderError) as e:
            return {"text/plain": f"{e}\n\n{self.source}"}

    def __repr__(self) -> str:
        n = len(self.graph.nodes) if self.graph else "?"
        return f"<viz.Drawing: {n} nodes; .source, .svg(), .save(path)>"


def _as_list(outputs: Any) -> list[Any]:
    if is_tensor(outputs):
        return [outputs]
    if (
        not isinstance(outputs, Iterable)
        or isinstance(outputs, (str, bytes))
        or hasattr(outputs, "__array__")  # a NumPy array: its items are numbers
    ):
        raise TypeError(
            f"draw() takes a tensor or a sequence of tensors, got {type(outputs).__name__}"
        )
    items = list(outputs.values()) if isinstance(outputs, Mapping) else list(outputs)
    bad = [type(o).__name__ for o in items if not is_tensor(o)]
    if bad:
        raise TypeError(f"draw() takes a tensor or a sequence of tensors, got {', '.join(bad)}")
    if not items:
        raise ValueError("draw() got no tensors to draw")
    return items


def resolve_names(
    outputs: list[Any], params: Any, names: Any, depth: int, auto_names: bool
) -> Names:
    """Explicit names first (names=, params=, a mapping of outputs), then the caller's variables."""
    pairs = named_tensors(names) + named_tensors(params)
    if auto_names:
        pairs += caller_names(depth + 2)  # frames: caller_names -> here -> draw -> user
    return Names(pairs)


def draw(
    outputs: Any,
    params: Mapping[str, Any] | Any | None = None,
    *,
    names: Mapping[str, Any] | None = None,
    direction: str = "backward",
    show_saved: bool = True,
    show_attrs: bool = False,
    show_values: bool = True,
    show_constants: bool = False,
    color_grads: bool = False,
    grad_range: tuple[float, float] = (1e-6, 1e3),
    max_nodes: int = 80,
    auto_names: bool = True,
    layout: Mapping[str, Any] | None = None,
    engine: str | None = None,
    timeout: float | None = render.DEFAULT_TIMEOUT,
    _depth: int = 1,
) -> Drawing:
    """Draw the autograd graph behind `outputs` (a tensor or tensors of torch or minigrad).

    params/names: {name: tensor} (or a model with named_parameters()); unnamed tensors take the
    caller's variable names unless auto_names=False. direction: 'backward' (gradient flow, output on
    top) or 'forward' (data flow, inputs on top). color_grads fills tensors by gradient norm on a log
    scale over grad_range. Above max_nodes grad_fn nodes, repeated structure is folded into summary
    nodes. layout: extra Graphviz graph attributes. engine: 'graphviz-pure' (default), 'dot', or a
    path; the MINIGRAD_VIZ_ENGINE environment variable sets the default.
    """
    outs = _as_list(outputs)
    if isinstance(outputs, Mapping) and names is None:
        names = dict(outputs)
    opts = Options(
        direction,
        show_saved,
        show_attrs,
        show_values,
        show_constants,
        color_grads,
        tuple(grad_range),
        max_nodes,
    )
    desc = describe(outs, resolve_names(outs, params, names, _depth, auto_names), opts)
    return Drawing(to_dot(desc, None, dict(layout or {})), desc, engine, timeout)


def draw_desc(
    desc: GraphDesc,
    overlay: Overlay | None = None,
    engine: str | None = None,
    layout: Mapping[str, Any] | None = None,
) -> Drawing:
    """A Drawing of an already described graph with per-frame additions (used by the stepper)."""
    return Drawing(to_dot(desc, overlay, dict(layout or {})), desc, engine)
