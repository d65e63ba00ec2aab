"""Timing, the memory check (W6), the table and the JSON file.

Every measurement follows the same rules:
- one process, single-threaded BLAS (threadpoolctl) and one intra-op thread (``workloads.single_threaded``);
- gradients of every implementation are checked equal to the hand-written NumPy ones first;
- implementations are interleaved (each repetition runs each of them once, in a rotating order),
  so that a slow moment of the machine hits all of them alike; the median is reported;
- every workload is timed twice: with the garbage collector on (as users run) and off (``gc.disable``,
  after a ``gc.collect``), which shows what cyclic garbage collection costs.
"""
from __future__ import annotations

import gc
import json
import os
import platform
import statistics
import time
import tracemalloc
from pathlib import Path

import numpy as np

import minigrad

from . import workloads as W

RESULTS_DIR = Path(__file__).resolve().parent / "results"

# size label -> (repetitions, quick repetitions); warm-up runs are not timed.
REPS = {"W1": {"full": (60, 3)}, "W2": {"full": (40, 3)},
        "W3": {"1k": (40, 3), "10k": (12, 3), "100k": (5, 2)},
        "W4": {"full": (300, 5)}, "W5": {"full": (300, 5)}}
W6_STEPS = 50
W6_FLAT_AFTER = 10
# Allowed traced-memory growth between step 10 and step 50. One W1 step allocates ~1.5 MB (a
# leaked graph would keep ~0.5 MB of saved activations per step); what tracemalloc does show is
# ~3 KB/step of small blocks that interpreter/NumPy free lists keep (sys.getallocatedblocks stays flat).
W6_FLAT_BYTES = 256 * 1024


# ---------------------------------------------------------------------------------------------
# timing
# ---------------------------------------------------------------------------------------------
def time_interleaved(steps: dict, reps: int, warmup: int, gc_on: bool, clock=time.process_time) -> dict:
    """Median and minimum seconds per call of each zero-argument function in ``steps``.

    The default clock is the process's CPU time: everything here is single-threaded, so on an idle
    machine it equals wall time, and on a busy one it does not count time spent waiting for a core.
    """
    names = list(steps)
    for _ in range(warmup):
        for name in names:
            steps[name]()
    times: dict = {name: [] for name in names}
    gc.collect()
    was_enabled = gc.isenabled()
    if not gc_on:
        gc.disable()
    try:
        for r in range(reps):
            k = r % len(names)
            for name in names[k:] + names[:k]:
                fn = steps[name]
                t0 = clock()
                fn()
                times[name].append(clock() - t0)
    finally:
        if was_enabled:
            gc.enable()
    return {name: {"median_s": statistics.median(ts), "min_s": min(ts), "reps": len(ts)}
            for name, ts in times.items()}


def run_workload(wl: W.Workload, size_label: str, quick: bool, seed: int = 0,
                 clock=time.process_time) -> list:
    """Check gradients, then time every implementation with gc on and off; one record per gc mode."""
    W.check_grads(wl, size_label, seed)
    reps = REPS[wl.name][size_label][1 if quick else 0]
    warmup = 1 if quick else 2
    records = []
    for gc_on in (True, False):
        inputs = wl.setup(wl.sizes[size_label], np.random.default_rng(seed))
        steps = {name: make(inputs) for name, make in wl.impls.items()}
        timing = time_interleaved(steps, reps, warmup, gc_on, clock)
        records.append(_record(wl, size_label, gc_on, timing))
    return records


def _record(wl, size_label, gc_on, timing) -> dict:
    rec = {"workload": wl.name, "size": size_label, "title": wl.title, "gc": "on" if gc_on else "off",
           "target": wl.target, "times": timing}
    mg = timing["minigrad"]["median_s"]
    rec["vs_numpy"] = mg / timing["numpy"]["median_s"]
    rec["vs_torch"] = mg / timing["torch"]["median_s"] if "torch" in timing else None
    n_ops = wl.sizes[size_label] if wl.name in ("W2", "W3") else None
    rec["us_per_op"] = mg / n_ops * 1e6 if n_ops else None
    return rec


def verdicts(records: list) -> None:
    """Attach ``ok`` (True/False/None when PyTorch is missing) to each record, from the targets."""
    per_op = {(r["size"], r["gc"]): r["us_per_op"] for r in records if r["workload"] == "W3"}
    for r in records:
        vt, vn = r["vs_torch"], r["vs_numpy"]
        name = r["workload"]
        if name == "W1":
            ok = vn <= 1.15
        elif name == "W2":
            ok = r["us_per_op"] <= 8 and (vt is None or vt <= 1.6)
        elif name == "W3":
            if r["size"] != "100k":
                ok = None
            else:
                small = per_op.get(("1k", r["gc"]))
                r["growth_per_op_100k_vs_1k"] = r["us_per_op"] / small if small else None
                linear = small is None or r["us_per_op"] / small <= 1.5
                ok = linear and (vt is None or vt <= 1.2)
        elif name == "W4":
            ok = None if vt is None else vt <= 1.3
        else:  # W5
            ok = vn <= 1.2
        r["ok"] = ok


# ---------------------------------------------------------------------------------------------
# W6: memory over 50 W1 steps, and the graph is freed without the garbage collector
# ---------------------------------------------------------------------------------------------
def run_w6(quick: bool, seed: int = 0) -> dict:
    """Traced memory after each W1 step (gc on, then gc off) and whether each step's graph died."""
    wl = W.workloads()["W1"]
    steps_n = 20 if quick else W6_STEPS
    out = {"workload": "W6", "title": f"{steps_n} W1 steps: memory and graph freeing", "steps": steps_n,
           "target": f"flat after step {W6_FLAT_AFTER}; graph freed with gc off"}
    for gc_on in (True, False):
        inputs = wl.setup(wl.sizes["full"], np.random.default_rng(seed))
        probes: list = []
        step = W.w1_lib(minigrad)(inputs, probes=probes)
        step()  # first step allocates the .grad-free steady state (AccumulateGrad caches, etc.)
        gc.collect()
        if not gc_on:
            gc.disable()
        tracemalloc.start()
        mem, alive = [], 0
        try:
            for _ in range(steps_n):
                step()
                mem.append(tracemalloc.get_traced_memory()[0])
                alive += sum(ref() is not None for ref in probes)
                probes.clear()
        finally:
            tracemalloc.stop()
            gc.enable()
        cyclic = gc.collect()  # unreachable objects left behind with gc off (0: no cycles)
        growth = mem[-1] - mem[W6_FLAT_AFTER - 1]
        out["gc_" + ("on" if gc_on else "off")] = {
            "bytes_after_step": mem, "growth_after_step_10": growth,
            "graphs_alive_after_step": alive, "gc_collect_found": cyclic,
            "ok": growth <= W6_FLAT_BYTES and alive == 0}
    out["ok"] = out["gc_on"]["ok"] and out["gc_off"]["ok"]
    return out


# ---------------------------------------------------------------------------------------------
# output
# ---------------------------------------------------------------------------------------------
def _fmt_t(s: float | None) -> str:
    if s is None:
        return "-"
    if s >= 1:
        return f"{s:.2f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.2f} ms"
    return f"{s * 1e6:.1f} us"


def _fmt_x(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}x"


def format_table(records: list, w6: dict | None) -> str:
    """A Markdown table (also readable in a terminal)."""
    head = ["workload", "size", "gc", "minigrad", "numpy", "torch", "mg/numpy", "mg/torch", "us/op",
            "target", "ok"]
    rows = [head, ["---"] * len(head)]
    for r in records:
        t = r["times"]
        rows.append([r["workload"], r["size"], r["gc"], _fmt_t(t["minigrad"]["median_s"]),
                     _fmt_t(t["numpy"]["median_s"]), _fmt_t(t.get("torch", {}).get("median_s")),
                     _fmt_x(r["vs_numpy"]), _fmt_x(r["vs_torch"]),
                     "-" if r["us_per_op"] is None else f"{r['us_per_op']:.2f}", r["target"],
                     {True: "yes", False: "NO", None: "-"}[r.get("ok")]])
    if w6 is not None:
        for mode in ("on", "off"):
            m = w6[f"gc_{mode}"]
            rows.append(["W6", f"{w6['steps']} steps", mode,
                         f"+{m['growth_after_step_10'] / 1024:.1f} KiB after step {W6_FLAT_AFTER}",
                         "-", "-", "-", "-", "-",
                         f"graphs alive: {m['graphs_alive_after_step']}, gc found: {m['gc_collect_found']}",
                         "yes" if m["ok"] else "NO"])
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = []
    for row in rows:
        if row[0] == "---":
            row = ["-" * w for w in widths]
        lines.append("| " + " | ".join(c.ljust(w) for c, w in zip(row, widths)) + " |")
    return "\n".join(lines)


def metadata() -> dict:
    torch = W.optional_torch()
    from threadpoolctl import threadpool_info
    return {
        "date": time.strftime("%Y-%m-%d %H:%M:%S"), "python": platform.python_version(),
        "machine": platform.machine(), "processor": platform.processor() or platform.machine(),
        "numpy": np.__version__, "torch": None if torch is None else torch.__version__,
        "blas": [{k: i.get(k) for k in ("internal_api", "version", "num_threads")} for i in threadpool_info()],
        "cross_entropy_path": W.cross_entropy_path(),
        "load_average": os.getloadavg(),  # other processes on the machine make every number noisier
    }


def write_json(path: Path, payload: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(payload, indent=1))
    return path
