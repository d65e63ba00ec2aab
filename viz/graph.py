"""Autograd graph -> plain description (nodes, edges) that the DOT writer and the stepper draw."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from . import collapse
from .names import Names
from .tensors import (
    FREED,
    NO_GRAD_YET,
    alias_key,
    dtype_name,
    grad_fn_error,
    grad_fn_of,
    is_tensor,
    norm,
    preview,
    shape_of,
    to_numpy,
    version_of,
)
from .walk import WALK_LIMIT, RawGraph, walk

# Node kinds, each drawn differently.
FN, LEAF, OUTPUT, TENSOR, SAVED, CONSTANT, SUMMARY = (
    "fn",
    "leaf",
    "output",
    "tensor",
    "saved",
    "constant",
    "summary",
)
# Edge kinds. Every edge is stored in forward (data-flow) order: src feeds dst.
NEXT, PRODUCES, SAVED_BY, FOLDED = "next", "produces", "saved", "folded"


@dataclass
class Options:
    """What to show; see viz.draw for the meaning of each field."""

    direction: str = "backward"
    show_saved: bool = True
    show_attrs: bool = False
    show_values: bool = True
    show_constants: bool = False
    color_grads: bool = False
    grad_range: tuple[float, float] = (1e-6, 1e3)
    max_nodes: int = 80
    walk_limit: int = WALK_LIMIT

    def __post_init__(self) -> None:
        if self.direction not in ("backward", "forward"):
            raise ValueError(f"direction must be 'backward' or 'forward', not {self.direction!r}")
        if self.max_nodes < 1:
            raise ValueError("max_nodes must be at least 1")


@dataclass
class TensorView:
    """What is shown of one tensor: a leaf, an output, a named intermediate or a saved value."""

    shape: tuple[int, ...] = ()
    dtype: str = ""
    version: int | None = None
    value: str | None = None
    grad: str | None = None  # preview, NO_GRAD_YET, or None when no grad is kept for it
    grad_norm: float | None = None
    requires_grad: bool = False
    state: str | None = None  # FREED or another reason the value cannot be read


@dataclass
class Node:
    """One box of the picture: a grad_fn, a leaf tensor, a saved tensor or a summary."""
    id: str
    kind: str
    title: str  # grad_fn type name, tensor name, or summary text
    name: str | None = None
    tensor: TensorView | None = None
    attrs: list[tuple[str, str]] = field(default_factory=list)  # non-tensor saved values
    notes: list[str] = field(default_factory=list)  # extra lines (e.g. summary details)
    count: int | None = None  # hidden nodes, for summaries
    fn_index: int | None = None  # position in the walk, for grad_fn and leaf nodes


@dataclass
class Edge:
    """One arrow of the picture, from ``src`` to ``dst`` (node ids)."""
    src: str
    dst: str
    kind: str
    label: str | None = None
    input_nr: int | None = None  # for NEXT edges: which input of dst (its next_functions slot)


@dataclass
class GraphDesc:
    """A graph as plain data: nodes, edges and the options it was drawn with."""
    nodes: list[Node]
    edges: list[Edge]
    options: Options
    total_fns: int = 0
    hidden_fns: int = 0
    fn_ids: dict[int, str] = field(
        default_factory=dict
    )  # walk index -> node id drawn for it (maybe a summary)

    def node(self, node_id: str) -> Node:
        """The node with this id."""
        for n in self.nodes:
            if n.id == node_id:
                return n
        raise KeyError(node_id)

    def by_kind(self, kind: str) -> list[Node]:
        """Nodes of one kind, in drawing order."""
        return [n for n in self.nodes if n.kind == kind]


def tensor_view(t: Any, *, values: bool, grad: bool) -> TensorView:
    """Read shape/dtype/version/value (and .grad when it is kept for this tensor)."""
    v = TensorView(shape_of(t), dtype_name(t), version_of(t))
    v.requires_grad = bool(getattr(t, "requires_grad", False))
    if values:
        v.value = preview(to_numpy(t))
    if grad and v.requires_grad and _keeps_grad(t):
        g = getattr(t, "grad", None)
        if g is None:
            v.grad = NO_GRAD_YET
        else:
            arr = to_numpy(g)
            v.grad, v.grad_norm = preview(arr), norm(arr)
    return v


def _keeps_grad(t: Any) -> bool:
    """Whether .grad is kept for t: a leaf, or retain_grad() (False when even is_leaf cannot be read)."""
    try:
        return bool(getattr(t, "is_leaf", True)) or bool(getattr(t, "retains_grad", False))
    except Exception:  # (an unbind/split output whose base was modified in place: reading is_leaf raises)
        return False


def _saved_values(fn: Any) -> list[tuple[str, Any, str | None]]:
    """(attr name without '_saved_', value, error state) for every saved value of a node, sorted."""
    out = []
    for attr in sorted(a for a in dir(fn) if a.startswith("_saved_")):
        short = attr[len("_saved_") :]
        try:
            out.append((short, getattr(fn, attr), None))
        except RuntimeError as e:
            msg = str(e)
            state = (
                FREED
                if ("second time" in msg or "freed" in msg)
                else "modified in-place"
                if "inplace" in msg
                else "unavailable"
            )
            out.append((short, None, state))
        except Exception:
            out.append((short, None, "unavailable"))
    return out


def _attr_text(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    text = repr(v)
    return text if len(text) <= 40 else text[:39] + "…"


class _Builder:
    def __init__(
        self, outputs: Sequence[Any], names: Names, opts: Options, raw: RawGraph | None = None
    ):
        self.outputs, self.names, self.opts, self.raw = list(outputs), names, opts, raw
        self.nodes: list[Node] = []
        self.edges: list[Edge] = []
        self._edge_seen: set[tuple] = set()
        self.by_id: dict[str, Node] = {}
        self.by_key: dict[tuple, str] = {}  # alias key -> node id of the forward tensor drawn
        # Saved tensors drawn, kept alive while the graph is described: a saved tensor read through an unpack
        # hook is a new tensor each time, and once freed its memory may hold the next one read, which would
        # then share its alias key (drawn as the same tensor).
        self._alive: list[Any] = []
        self.counters = {TENSOR: 0, SAVED: 0, CONSTANT: 0}

    def add(self, node: Node) -> Node:
        self.nodes.append(node)
        self.by_id[node.id] = node
        return node

    def edge(
        self, src: str, dst: str, kind: str, label: str | None = None, input_nr: int | None = None
    ) -> None:
        k = (src, dst, kind, label, input_nr)
        if k not in self._edge_seen:  # lists + a seen-set: deterministic order, no duplicates
            self._edge_seen.add(k)
            self.edges.append(Edge(src, dst, kind, label, input_nr))

    def new_id(self, kind: str) -> str:
        prefix = {TENSOR: "t", SAVED: "s", CONSTANT: "k"}[kind]
        i = self.counters[kind]
        self.counters[kind] += 1
        return f"{prefix}{i}"

    def build(self) -> GraphDesc:
        opts = self.opts
        g = self.raw if self.raw is not None else walk(self.outputs, opts.walk_limit)
        p = collapse.plan(g, opts.max_nodes)
        fn_ids = {i: f"n{i}" for i in p.kept}
        fn_index = {id(g.fns[i]): i for i in p.kept}
        values = opts.show_values

        # grad_fn nodes (AccumulateGrad carries its leaf) and summaries, in walk order.
        for i in p.kept:
            fn, typ = g.fns[i], g.types[i]
            var = getattr(fn, "variable", None) if typ == "AccumulateGrad" else None
            if var is not None and is_tensor(var):
                name = self.names.name(var)
                node = self.add(
                    Node(
                        fn_ids[i],
                        LEAF,
                        typ,
                        name,
                        tensor_view(var, values=values, grad=True),
                        fn_index=i,
                    )
                )
                key = alias_key(var)
                if key is not None:
                    self.by_key.setdefault(key, node.id)
            else:
                self.add(Node(fn_ids[i], FN, typ, fn_index=i))
        for s, summ in enumerate(p.summaries):
            if summ.repeats:
                title = f"{summ.repeats} × repeated block"
                notes = [" → ".join(_squash(summ.block)), f"{summ.count} nodes folded"]
            else:
                title = f"… {summ.count} more nodes"
                notes = [", ".join(f"{t} ×{c}" for t, c in summ.type_counts(g.types)[:4])]
            self.add(Node(f"c{s}", SUMMARY, title, notes=notes, count=summ.count))
        if g.unwalked:
            self.add(
                Node("c_unwalked", SUMMARY, f"… {g.unwalked}+ nodes not walked", count=g.unwalked)
            )

        # Structure edges: input -> consumer, with hidden nodes replaced by their summary.
        def ref(i: int) -> str:
            return fn_ids[i] if i in fn_ids else f"c{p.owner[i]}"  # a hidden node's summary

        for i in range(len(g.fns)):
            for slot, (c, _nr) in enumerate(g.children[i]):
                if c is None:
                    continue
                src, dst = ref(c), ref(i)
                if src == dst:
                    continue
                if i in fn_ids and c in fn_ids:
                    self.edge(src, dst, NEXT, input_nr=slot)
                else:
                    self.edge(src, dst, FOLDED)

        # Outputs, then named intermediates, so saved tensors can link to them.
        for k, (out, root) in enumerate(zip(self.outputs, g.roots)):
            name = self.names.name(out)
            node = self.add(
                Node(
                    f"out{k}",
                    OUTPUT,
                    name or "output",
                    name,
                    tensor_view(out, values=values, grad=True),
                )
            )
            error = grad_fn_error(out) if root is None else None
            if error:
                node.notes.append(f"grad_fn raises {error}")
            key = alias_key(out)
            if key is not None:
                self.by_key.setdefault(key, node.id)
            if root is not None:
                self.edge(ref(root), node.id, PRODUCES)
        for name, t in self.names.tensors:
            fn = grad_fn_of(t)
            key = alias_key(t)
            if fn is None or key is None or key in self.by_key:
                continue
            i = fn_index.get(id(fn))
            if i is None:
                continue
            node = self.add(
                Node(
                    self.new_id(TENSOR),
                    TENSOR,
                    name,
                    name,
                    tensor_view(t, values=values, grad=True),
                )
            )
            self.by_key[key] = node.id
            self.edge(fn_ids[i], node.id, PRODUCES)

        if opts.show_saved or opts.show_attrs:
            for i in p.kept:
                self._saved(g.fns[i], fn_ids[i], fn_index, fn_ids)
        return GraphDesc(
            self.nodes,
            self.edges,
            opts,
            len(g.fns) + g.unwalked,
            len(g.fns) + g.unwalked - len(p.kept),
            {i: ref(i) for i in range(len(g.fns))},
        )

    def _saved(self, fn: Any, fid: str, fn_index: dict[int, int], fn_ids: dict[int, str]) -> None:
        opts = self.opts
        node = self.by_id[fid]
        for attr, value, state in _saved_values(fn):
            if state is not None:
                if opts.show_saved:
                    s = self.add(
                        Node(self.new_id(SAVED), SAVED, attr, tensor=TensorView(state=state))
                    )
                    self.edge(s.id, fid, SAVED_BY, attr)
                continue
            if isinstance(value, (tuple, list)) and any(is_tensor(v) for v in value):
                # e.g. index's indices (None, tensor): each tensor drawn as saved `indices[1]`
                if opts.show_saved:
                    for j, v in enumerate(value):
                        if is_tensor(v):
                            self._saved_tensor(v, f"{attr}[{j}]", fid, fn_index, fn_ids)
                continue
            if is_tensor(value):
                if opts.show_saved:
                    self._saved_tensor(value, attr, fid, fn_index, fn_ids)
            elif opts.show_attrs and value is not None:
                node.attrs.append((attr, _attr_text(value)))

    def _saved_tensor(
        self, t: Any, label: str, fid: str, fn_index: dict[int, int], fn_ids: dict[int, str]
    ) -> None:
        key = alias_key(t)
        target = self.by_key.get(key) if key is not None else None
        values = self.opts.show_values
        if target is None:
            producer = fn_index.get(id(grad_fn_of(t)))
            name = self.names.name(t)
            if producer is not None:
                # The output of a drawn node: draw that forward tensor once, next to its producer.
                n = self.add(
                    Node(
                        self.new_id(TENSOR),
                        TENSOR,
                        name or "tensor",
                        name,
                        tensor_view(t, values=values, grad=False),
                    )
                )
                self.edge(fn_ids[producer], n.id, PRODUCES)
            else:
                kind = (
                    CONSTANT
                    if self.opts.show_constants and not getattr(t, "requires_grad", False)
                    else SAVED
                )
                n = self.add(
                    Node(
                        self.new_id(kind),
                        kind,
                        name or (label if kind == SAVED else "constant"),
                        name,
                        tensor_view(t, values=values, grad=False),
                    )
                )
                base = None if name else self.names.view_of(t)
                if base:
                    n.notes.append(f"view of {base}")
            target = n.id
            if key is not None:
                self.by_key[key] = target
                self._alive.append(t)
        self.edge(target, fid, SAVED_BY, label)


def _squash(block: list[str], limit: int = 6) -> list[str]:
    return block if len(block) <= limit else block[:limit] + [f"+{len(block) - limit}"]


def describe(
    outputs: Sequence[Any], names: Names, options: Options, raw: RawGraph | None = None
) -> GraphDesc:
    """Walk the graph of `outputs` (unless already walked) and describe what to draw."""
    return _Builder(outputs, names, options, raw).build()
