"""Graph description -> DOT text. All user text goes through HTML-label escaping here, nowhere else."""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field

from .graph import (
    CONSTANT,
    FN,
    FOLDED,
    LEAF,
    NEXT,
    OUTPUT,
    PRODUCES,
    SAVED,
    SAVED_BY,
    SUMMARY,
    TENSOR,
    GraphDesc,
    Node,
)
from .tensors import NO_GRAD_YET

FONT = "Helvetica"
STYLE = {  # per node kind: (fill colour, style, shape, pen width)
    FN: ("#e8e8e8", "filled,rounded", "box", "1"),
    LEAF: ("#cfe2f3", "filled", "box", "1"),
    OUTPUT: ("#b6d7a8", "filled,bold", "box", "2"),
    TENSOR: ("#ffffff", "filled", "box", "1"),
    SAVED: ("#fce5cd", "filled", "note", "1"),
    CONSTANT: ("#f3f3f3", "filled,dashed", "box", "1"),
    SUMMARY: ("#fff2cc", "filled,dashed", "box3d", "1"),
}
EDGE_STYLE = {
    NEXT: 'color="#444444"',
    PRODUCES: 'color="#444444" style=bold',
    SAVED_BY: 'color="#e69138" style=dashed dir=none fontcolor="#b45f06"',
    FOLDED: 'color="#999999" style=dashed',
}
# Blue (vanishing) -> pale -> red (exploding), on a log scale between Options.grad_range.
GRAD_STOPS = ["#2c7bb6", "#abd9e9", "#ffffbf", "#fdae61", "#d7191c"]
# Layout limits passed to dot for big graphs: bounded network-simplex and crossing-minimisation work.
BIG_GRAPH = 80
LAYOUT_LIMITS = {"nslimit1": "2", "mclimit": "0.2", "searchsize": "20", "remincross": "false"}


@dataclass
class Overlay:
    """Per-frame additions used by the backward stepper (highlight, grad labels)."""

    node_attrs: dict[str, dict[str, str]] = field(default_factory=dict)
    node_rows: dict[str, list[str]] = field(default_factory=dict)
    edge_labels: dict[tuple[str, str, int | None], str] = field(default_factory=dict)
    edge_attrs: dict[tuple[str, str, int | None], dict[str, str]] = field(default_factory=dict)
    caption: str | None = None


def esc(text: object) -> str:
    """Escape text for a Graphviz HTML label so it renders literally (no markup, no \\N expansion)."""
    s = "".join(ch if ch >= " " and ch != "\x7f" else " " for ch in str(text))
    # Graphviz expands \N, \G, \L ... even inside HTML labels; a doubled backslash prints one.
    return html.escape(s, quote=True).replace("\\", "\\\\")


def quote(value: str) -> str:
    """A DOT double-quoted string for our own (non-user) attribute values."""
    return '"' + value.replace("\\", "").replace('"', "'") + '"'


def grad_color(value: float, lo: float, hi: float) -> str:
    """Fill colour for a gradient norm: blue when vanishing, red when exploding."""
    if value <= 0 or math.isnan(value):
        return GRAD_STOPS[0] if value == 0 else "#cc00cc"
    if math.isinf(value):
        return GRAD_STOPS[-1]
    t = (math.log10(value) - math.log10(lo)) / (math.log10(hi) - math.log10(lo))
    t = min(max(t, 0.0), 1.0) * (len(GRAD_STOPS) - 1)
    i = min(int(t), len(GRAD_STOPS) - 2)
    f = t - i
    a, b = GRAD_STOPS[i], GRAD_STOPS[i + 1]
    rgb = [round(int(a[k : k + 2], 16) * (1 - f) + int(b[k : k + 2], 16) * f) for k in (1, 3, 5)]
    return "#" + "".join(f"{c:02x}" for c in rgb)


def _row(
    text: str,
    size: int | None = None,
    color: str | None = None,
    bold: bool = False,
    italic: bool = False,
) -> str:
    body = esc(text)
    if bold:
        body = f"<B>{body}</B>"
    if italic:
        body = f"<I>{body}</I>"
    attrs = "".join(f' {k}="{v}"' for k, v in (("POINT-SIZE", size), ("COLOR", color)) if v)
    if attrs:
        body = f"<FONT{attrs}>{body}</FONT>"
    return f"<TR><TD>{body}</TD></TR>"


def _tensor_rows(node: Node, opts) -> list[str]:
    t = node.tensor
    rows = []
    if t is None:
        return rows
    if t.state:
        return [_row(t.state, 9, "#990000", italic=True)]
    dims = "(" + ", ".join(str(d) for d in t.shape) + ("," if len(t.shape) == 1 else "") + ")"
    meta = f"{dims} {t.dtype}"
    if node.kind in (SAVED, CONSTANT, TENSOR) and t.version is not None:
        meta += f" v{t.version}"
    rows.append(_row(meta, 8, "#333333"))
    if opts.show_values and t.value is not None:
        rows.append(_row(t.value, 8))
    if t.grad == NO_GRAD_YET:
        rows.append(_row(NO_GRAD_YET, 8, "#666666", italic=True))
    elif t.grad is not None:
        rows.append(_row(f"grad {t.grad}", 8, "#1f4e79"))
    return rows


def label(node: Node, opts, extra: list[str] | None = None) -> str:
    """The HTML-like label of one node."""
    rows = []
    if node.kind == LEAF:
        rows.append(_row(node.name or "leaf", bold=True))
        rows.append(_row(node.title, 8, "#555555"))
    elif node.kind == SAVED:
        rows.append(_row(f"saved {node.title}" if not node.name else node.title, bold=True))
    else:
        rows.append(_row(node.title, bold=True))
    rows += [_row(n, 8, "#555555", italic=True) for n in node.notes]
    rows += [_row(f"{k} = {v}", 8, "#555555") for k, v in node.attrs]
    rows += _tensor_rows(node, opts)
    rows += [_row(e, 8, "#7f0000") for e in (extra or [])]
    return (
        '<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">'
        + "".join(rows)
        + "</TABLE>>"
    )


def _attrs(pairs: dict[str, str]) -> str:
    return " ".join(f"{k}={v}" for k, v in pairs.items())


def to_dot(
    desc: GraphDesc, overlay: Overlay | None = None, layout: dict[str, str] | None = None
) -> str:
    """DOT source for a described graph; identical input gives identical text."""
    opts = desc.options
    ov = overlay or Overlay()
    graph_attrs = {
        "rankdir": "TB",
        "nodesep": "0.2",
        "ranksep": "0.3",
        "fontname": quote(FONT),
        "fontsize": "10",
    }
    if len(desc.nodes) > BIG_GRAPH:
        graph_attrs.update(LAYOUT_LIMITS)
    graph_attrs.update({k: quote(str(v)) for k, v in (layout or {}).items()})
    if ov.caption is not None:
        graph_attrs["label"] = "<" + esc(ov.caption) + ">"
        graph_attrs["labelloc"] = "t"
    lines = [
        "digraph autograd {",
        f"  graph [{_attrs(graph_attrs)}]",
        f'  node [fontname={quote(FONT)} fontsize=10 margin="0.06,0.03" height=0.2 width=0.3]',
        f"  edge [fontname={quote(FONT)} fontsize=8 arrowsize=0.6]",
    ]
    lo, hi = opts.grad_range
    for n in desc.nodes:
        fill, style, shape, pen = STYLE[n.kind]
        a = {
            "id": quote(n.id),
            "class": quote(n.kind),
            "shape": shape,
            "style": quote(style),
            "fillcolor": quote(fill),
            "penwidth": pen,
        }
        if opts.color_grads and n.tensor is not None and n.tensor.grad_norm is not None:
            a["fillcolor"] = quote(grad_color(n.tensor.grad_norm, lo, hi))
            a["tooltip"] = quote(f"grad norm {n.tensor.grad_norm:.3g}")
        a.update(ov.node_attrs.get(n.id, {}))
        lines.append(f"  {n.id} [label={label(n, opts, ov.node_rows.get(n.id))} {_attrs(a)}]")
    if opts.color_grads:
        lines.append(_legend(lo, hi))
    for k, e in enumerate(desc.edges):
        src, dst = (e.dst, e.src) if opts.direction == "backward" else (e.src, e.dst)
        parts = [f"id={quote(f'e{k}')}", f"class={quote(e.kind)}", EDGE_STYLE[e.kind]]
        key = (e.src, e.dst, e.input_nr)
        text = ov.edge_labels.get(key, e.label)
        if text:
            parts.append(f"label=<{esc(text)}>")
        if key in ov.edge_attrs:
            parts.append(_attrs(ov.edge_attrs[key]))
        lines.append(f"  {src} -> {dst} [{' '.join(parts)}]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _legend(lo: float, hi: float) -> str:
    cells = []
    for i in range(len(GRAD_STOPS)):
        v = 10 ** (math.log10(lo) + (math.log10(hi) - math.log10(lo)) * i / (len(GRAD_STOPS) - 1))
        cells.append(
            f'<TD BGCOLOR="{grad_color(v, lo, hi)}"><FONT POINT-SIZE="8">{esc(f"{v:.0e}")}</FONT></TD>'
        )
    table = (
        '<<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="2">'
        f'<TR><TD COLSPAN="{len(cells)}"><FONT POINT-SIZE="8">grad norm: vanishing … exploding</FONT></TD></TR>'
        f"<TR>{''.join(cells)}</TR></TABLE>>"
    )
    return f'  legend [id="legend" class="legend" shape=plain label={table}]'
