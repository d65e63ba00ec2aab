"""Time viz.draw end to end (walk + DOT + render to SVG) against the issue's targets.

Run: .venv/bin/python -m bench.bench_viz [--backend torch|minigrad] [--repeat N] [--engine dot]
Targets: the one-layer network < 0.5 s; a 100-step unrolled loop < 3 s; 5,000 nodes < 5 s (by folding).
Exit status 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a file or as a module

import viz  # noqa: E402


def one_layer(T):
    rng = np.random.RandomState(0)
    x = T.tensor(np.ones(5, dtype=np.float32))
    y = T.tensor(np.zeros(3, dtype=np.float32))
    w = T.tensor(rng.randn(5, 3).astype(np.float32), requires_grad=True)
    b = T.tensor(rng.randn(3).astype(np.float32), requires_grad=True)
    z = T.matmul(x, w) + b
    return T.nn.functional.binary_cross_entropy_with_logits(z, y)


def unrolled(T, steps: int = 100):
    rng = np.random.RandomState(0)
    W = T.tensor((rng.randn(4, 4) * 0.5).astype(np.float32), requires_grad=True)
    U = T.tensor((rng.randn(3, 4) * 0.5).astype(np.float32), requires_grad=True)
    b = T.tensor(np.zeros(4, dtype=np.float32), requires_grad=True)
    h = T.tensor(np.zeros(4, dtype=np.float32))
    for _ in range(steps):
        x = T.tensor(rng.randn(3).astype(np.float32))
        h = (T.matmul(h, W) + T.matmul(x, U) + b).tanh()
    return h.sum()


def chain(T, nodes: int = 5000):
    x = T.tensor(np.ones(3, dtype=np.float32), requires_grad=True)
    y = x
    for _ in range(nodes // 2):
        y = y * 1.001 + 0.5
    return y.sum()


CASES = [
    ("one-layer network", one_layer, 0.5),
    ("100-step unrolled loop", unrolled, 3.0),
    ("5,000-node chain", chain, 5.0),
]


def time_draw(out, repeat: int, engine: str | None) -> tuple[float, int, int]:
    """Median seconds for draw(...).svg(), plus grad_fn nodes walked and nodes drawn."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        d = viz.draw(out, engine=engine, auto_names=False)
        d.svg()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), d.graph.total_fns, len(d.graph.nodes)


def main(argv: list[str] | None = None) -> int:
    """Print a table of timings; exit 1 if any target is missed."""
    p = argparse.ArgumentParser(
        prog="python -m bench.bench_viz", description=__doc__.splitlines()[0]
    )
    p.add_argument("--backend", action="append", choices=["torch", "minigrad"])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--engine", default=None, help="renderer (default graphviz-pure)")
    args = p.parse_args(argv)
    missed = 0
    print(
        f"{'backend':9} {'case':24} {'walked':>7} {'drawn':>6} {'median s':>9} {'target s':>9}  ok"
    )
    for name in args.backend or ["torch", "minigrad"]:
        try:
            T = importlib.import_module(name)
            assert (
                T.tensor(np.ones(1, dtype=np.float32), requires_grad=True).exp().grad_fn
            )  # engine present?
        except Exception as e:
            print(f"{name:9} skipped: {type(e).__name__}: {e}")
            continue
        for label, build, target in CASES:
            secs, walked, drawn = time_draw(build(T), args.repeat, args.engine)
            ok = secs < target
            missed += not ok
            print(
                f"{name:9} {label:24} {walked:7d} {drawn:6d} {secs:9.3f} {target:9.1f}  {'yes' if ok else 'NO'}"
            )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
