"""Iterative walk of an autograd graph into plain lists (no recursion, so deep graphs never overflow)."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .tensors import grad_fn_of, node_type

# Beyond this many grad_fn nodes the walk stops; the rest is counted as "not walked".
WALK_LIMIT = 200_000


@dataclass
class RawGraph:
    """grad_fn nodes in breadth-first order from the outputs, and their inputs by index."""

    fns: list[Any] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    # Per node: one (child index or None, input_nr) per entry of node.next_functions.
    children: list[list[tuple[int | None, int]]] = field(default_factory=list)
    roots: list[int | None] = field(default_factory=list)  # per output: index of its grad_fn
    unwalked: int = 0  # nodes seen but not walked because of WALK_LIMIT

    def __len__(self) -> int:
        return len(self.fns)


def walk(outputs: Sequence[Any], limit: int = WALK_LIMIT) -> RawGraph:
    """Collect every grad_fn reachable from the outputs, breadth first, in next_functions order."""
    g = RawGraph()
    index: dict[
        int, int
    ] = {}  # id(fn) -> position; g.fns keeps the objects alive so ids stay unique
    queue: deque[int] = deque()

    def visit(fn: Any) -> int | None:
        if fn is None:
            return None
        i = index.get(id(fn))
        if i is None:
            if len(g.fns) >= limit:
                g.unwalked += 1
                return None
            i = index[id(fn)] = len(g.fns)
            g.fns.append(fn)
            g.types.append(node_type(fn))
            g.children.append([])
            queue.append(i)
        return i

    for out in outputs:
        g.roots.append(visit(grad_fn_of(out)))
    while queue:
        i = queue.popleft()
        g.children[i] = [(visit(fn), nr) for fn, nr in _edges(g.fns[i])]
    return g


def _edges(fn: Any) -> list[tuple[Any, int]]:
    """A node's (input node, input_nr) pairs; an unreadable edge counts as 'no gradient needed'."""
    try:
        nexts = list(getattr(fn, "next_functions", ()) or ())
    except Exception:  # an exotic node whose next_functions cannot be read: drawn without inputs
        return []
    out = []
    for item in nexts:
        try:
            child, nr = item
            out.append((child, int(nr)))
        except Exception:
            out.append((None, 0))
    return out


def levels(g: RawGraph) -> list[int]:
    """Longest-path depth of each node from the outputs: a chain (an unrolled loop) gets one node per level."""
    n = len(g.fns)
    indeg = [0] * n
    for kids in g.children:
        for c, _ in kids:
            if c is not None:
                indeg[c] += 1
    level = [0] * n
    ready = deque(i for i in range(n) if indeg[i] == 0)
    while ready:
        i = ready.popleft()
        for c, _ in g.children[i]:
            if c is None:
                continue
            if level[i] + 1 > level[c]:
                level[c] = level[i] + 1
            indeg[c] -= 1
            if indeg[c] == 0:
                ready.append(c)
    return level
