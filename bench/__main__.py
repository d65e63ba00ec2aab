"""``python -m bench``: time minigrad against hand-written NumPy and PyTorch; print, save as JSON."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from threadpoolctl import threadpool_limits

from . import harness as H
from . import workloads as W


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks selected on the command line; return a process exit code."""
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true",
                        help="few repetitions (a smoke test, not a measurement)")
    parser.add_argument("--only", action="append", metavar="W",
                        help="run only this workload (repeatable: --only W1 --only W3)")
    parser.add_argument("--json", type=Path, metavar="PATH",
                        help="where to write the results (default: bench/results/)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="cpu: process CPU time (default; robust to a busy machine); "
                             "wall: perf_counter")
    args = parser.parse_args(argv)
    clock = time.process_time if args.clock == "cpu" else time.perf_counter

    table = W.workloads()
    names = list(table) + ["W6"]
    only = [o.upper() for o in args.only] if args.only else names
    unknown = set(only) - set(names)
    if unknown:
        parser.error(f"unknown workload(s) {sorted(unknown)}; choose from {names}")

    W.single_threaded()
    meta = H.metadata()
    meta["clock"] = args.clock
    print(f"minigrad benchmarks  python {meta['python']}  numpy {meta['numpy']}  "
          f"torch {meta['torch'] or 'not installed'}  ({'quick' if args.quick else 'full'}, "
          f"{args.clock} time)", flush=True)
    if "W1" in only or "W6" in only:
        print(f"W1 cross-entropy in minigrad: {meta['cross_entropy_path']}", flush=True)

    records, w6 = [], None
    with threadpool_limits(limits=1):
        meta["blas_threads_during_run"] = 1
        for name in only:
            if name == "W6":
                print("W6 ...", flush=True)
                w6 = H.run_w6(args.quick)
                continue
            wl = table[name]
            for size in wl.sizes:
                if size == "tiny":
                    continue
                print(f"{name} {size} ...", flush=True)
                records.extend(H.run_workload(wl, size, args.quick, clock=clock))
    H.verdicts(records)

    print()
    print(H.format_table(records, w6))
    path = args.json or H.RESULTS_DIR / f"bench-{time.strftime('%Y%m%d-%H%M%S')}.json"
    H.write_json(path, {"meta": meta, "quick": args.quick, "results": records, "W6": w6})
    print(f"\nwritten to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
