"""Choose which grad_fn nodes to draw when a graph is over the node cap.

Repeated structure (an unrolled loop, a stack of identical layers) shows up as a periodic sequence
of depth levels; the middle repetitions of the longest such run are folded into one summary node.
Whatever is still over the cap after that is cut in walk order into a final summary node.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .walk import RawGraph, levels

MAX_PERIOD = 64  # longest repeated block (in depth levels) looked for
MAX_FOLDS = 6  # separate repeated runs folded, at most


@dataclass
class Summary:
    """One summary node standing for hidden grad_fn nodes."""

    members: list[int]
    repeats: int  # repetitions of `block` hidden (0 for a plain cut)
    block: list[str] = field(default_factory=list)  # node types of one repetition, in level order

    @property
    def count(self) -> int:
        """How many nodes the summary hides."""
        return len(self.members)

    def type_counts(self, types: list[str]) -> list[tuple[str, int]]:
        """(node type, count) of the hidden nodes, most frequent first."""
        c = Counter(types[i] for i in self.members)
        return sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))


@dataclass
class Plan:
    """Which nodes are drawn; owner[i] is the summary index of a hidden node i."""

    kept: list[int]
    summaries: list[Summary]
    owner: dict[int, int]


def _level_signatures(g: RawGraph, level: list[int]) -> list[int]:
    """A small int per level: equal ints mean the same node types with the same input types."""
    depth = max(level, default=-1) + 1
    per_level: list[list[str]] = [[] for _ in range(depth)]
    for i, t in enumerate(g.types):
        kids = ",".join(sorted(g.types[c] for c, _ in g.children[i] if c is not None))
        per_level[level[i]].append(f"{t}({kids})")
    ids: dict[tuple[str, ...], int] = {}
    return [ids.setdefault(tuple(sorted(s)), len(ids)) for s in per_level]


def _best_run(sig: list[int], taken: list[bool], keep: int) -> tuple[int, int, int] | None:
    """(start level, period, repetitions) of the periodic run that hides the most levels."""
    depth = len(sig)
    best, best_score = None, 0
    for p in range(1, min(MAX_PERIOD, depth // 3) + 1):
        a = 0
        while a + p < depth:
            if taken[a] or sig[a] != sig[a + p] or taken[a + p]:
                a += 1
                continue
            b = a
            while b + p < depth and sig[b] == sig[b + p] and not taken[b] and not taken[b + p]:
                b += 1
            reps = (b - a + p) // p  # full blocks of p levels in [a, b + p)
            hidden = (reps - 2 * keep) * p
            if reps - 2 * keep >= 1 and hidden > best_score:
                best, best_score = (a, p, reps), hidden
            a = b + 1
    return best


def plan(g: RawGraph, max_nodes: int, keep: int = 1) -> Plan:
    """Fold repeated blocks, then cut in walk order, until at most max_nodes grad_fn nodes remain."""
    n = len(g.fns)
    if n <= max_nodes:
        return Plan(list(range(n)), [], {})
    level = levels(g)
    sig = _level_signatures(g, level)
    taken = [False] * len(sig)
    by_level: list[list[int]] = [[] for _ in sig]
    for i, lv in enumerate(level):
        by_level[lv].append(i)
    summaries: list[Summary] = []
    owner: dict[int, int] = {}
    visible = n
    for _ in range(MAX_FOLDS):
        if visible <= max_nodes:
            break
        run = _best_run(sig, taken, keep)
        if run is None:
            break
        a, p, reps = run
        lo, hi = a + keep * p, a + (reps - keep) * p
        members = [i for lv in range(lo, hi) for i in by_level[lv]]
        block = [g.types[i] for lv in range(lo, lo + p) for i in by_level[lv]]
        for lv in range(a, a + reps * p):
            taken[lv] = True  # the kept ends belong to this run too; do not fold them again
        s = len(summaries)
        summaries.append(Summary(sorted(members), reps - 2 * keep, block))
        for i in members:
            owner[i] = s
        visible -= len(members)
    if visible > max_nodes:
        # Cut: keep the first nodes in walk order (nearest the outputs), hide the rest.
        room = max(max_nodes - len(summaries) - 1, 1)
        shown = [i for i in range(n) if i not in owner][:room]
        shown_set = set(shown)
        rest = [i for i in range(n) if i not in owner and i not in shown_set]
        s = len(summaries)
        summaries.append(Summary(rest, 0, []))
        for i in rest:
            owner[i] = s
    kept = [i for i in range(n) if i not in owner]
    return Plan(kept, summaries, owner)
