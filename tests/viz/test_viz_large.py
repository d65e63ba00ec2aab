"""Large graphs: iterative walk, folding repeated structure into counted summary nodes, time limits."""

from __future__ import annotations

import time

import numpy as np
from vizhelpers import parse_svg

import viz
from viz.collapse import plan
from viz.graph import FN, SUMMARY
from viz.walk import levels, walk


def rnn(B, steps: int):
    rng = np.random.RandomState(0)
    W = B.tensor(rng.randn(4, 4) * 0.5, requires_grad=True)
    U = B.tensor(rng.randn(3, 4) * 0.5, requires_grad=True)
    bias = B.tensor(np.zeros(4), requires_grad=True)
    xs = [B.tensor(rng.randn(3)) for _ in range(steps)]
    h = B.tensor(np.zeros(4))
    for t in range(steps):
        h = (B.mod.matmul(h, W) + B.mod.matmul(xs[t], U) + bias).tanh()
    return h.sum()


def chain(B, n_ops: int):
    x = B.tensor(np.ones(3), requires_grad=True)
    y = x
    for _ in range(n_ops // 2):
        y = y * 1.001 + 0.5
    return y.sum()


def test_unrolled_loop_folds_into_counted_summary(backend):
    loss = rnn(backend, 100)
    t0 = time.perf_counter()
    d = viz.draw(loss)
    svg = d.svg()
    elapsed = time.perf_counter() - t0
    (summary,) = d.graph.by_kind(SUMMARY)
    assert summary.title == "97 × repeated block"  # the first and last repetitions stay drawn
    drawn_fns = len(d.graph.by_kind(FN)) + len(d.graph.by_kind("leaf"))
    assert drawn_fns + summary.count == d.graph.total_fns
    assert d.graph.hidden_fns == summary.count
    assert f"{summary.count} nodes folded" in summary.notes
    g = parse_svg(svg)
    assert g.kinds()["summary"] == 1
    assert "97 × repeated block" in g.text(summary.id)
    assert elapsed < 3.0, elapsed


def test_5000_nodes_collapse_fast(backend):
    loss = chain(backend, 5000)
    t0 = time.perf_counter()
    d = viz.draw(loss)
    d.svg()
    elapsed = time.perf_counter() - t0
    assert d.graph.total_fns >= 5000
    assert len(d.graph.by_kind(FN)) <= 80
    assert sum(n.count for n in d.graph.by_kind(SUMMARY)) == d.graph.hidden_fns
    assert elapsed < 5.0, elapsed


def test_no_repetition_is_cut_with_count(torch_backend):
    torch = torch_backend.mod
    x = torch.ones(3, requires_grad=True)
    ops = [torch.sin, torch.cos, torch.exp, torch.tanh, torch.sigmoid, torch.abs, torch.neg]
    parts = []
    for k in range(60):  # branches of different lengths: nothing periodic to fold
        y = x
        for j in range(k % 7 + 1):
            y = ops[(j * k) % 7](y)
        parts.append(y.sum() * float(k + 1))
    out = torch.stack(parts).sum()
    d = viz.draw(out, max_nodes=40)
    fns = [n for n in d.graph.nodes if n.kind in (FN, "leaf")]
    assert len(fns) <= 40
    summaries = d.graph.by_kind(SUMMARY)
    assert summaries and sum(s.count for s in summaries) == d.graph.total_fns - len(fns)


def test_walk_is_iterative_and_deep():
    import pytest

    torch = pytest.importorskip("torch", reason="PyTorch not installed")
    x = torch.ones(1, requires_grad=True)
    y = x
    for _ in range(20000):
        y = y + 1.0
    g = walk([y])
    assert len(g) == 20001
    lv = levels(g)
    assert max(lv) == 20000
    p = plan(g, 50)
    assert len(p.kept) <= 50 and p.summaries[0].repeats > 0


def test_plan_periodic_unit():
    # A synthetic chain A->B->A->B... -> leaf
    from viz.walk import RawGraph

    g = RawGraph()
    n = 41
    for i in range(n):
        g.fns.append(object())
        g.types.append("Leaf" if i == n - 1 else ("A" if i % 2 == 0 else "B"))
        g.children.append([] if i == n - 1 else [(i + 1, 0)])
    g.roots = [0]
    p = plan(g, 10)
    assert len(p.summaries) == 1
    s = p.summaries[0]
    assert s.block in (["A", "B"], ["B", "A"]) and s.repeats * 2 == s.count
    assert len(p.kept) + s.count == n


def test_layout_limits_reach_the_renderer(torch_backend):
    loss = rnn(torch_backend, 12)
    d = viz.draw(loss, max_nodes=1000, show_saved=False, layout={"ranksep": 0.5})
    assert len(d.graph.nodes) > 80
    head = d.source.splitlines()[1]
    assert "mclimit=" in head and "nslimit1=" in head and 'ranksep="0.5"' in head
    small = viz.draw(rnn(torch_backend, 2))
    assert "mclimit" not in small.source
