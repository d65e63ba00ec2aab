"""``python -m bench.icount W4``: instructions per step of a workload's minigrad version, counted by Valgrind.

Timings on a shared machine move by 2x within minutes; instruction counts do not. Cachegrind counts the
instructions of a run with ``--steps`` steps and of one with none (imports, set-up, warm-up), and the
difference divided by the steps is the cost of one step: deterministic to a few instructions when the hash
seed, the address layout (``setarch -R``) and the BLAS thread count are fixed. For A/B comparisons of Python
overhead (W2, W3, W4); the NumPy and BLAS work is counted too, but not cache misses. Needs ``valgrind``
(not a dependency of the project); about 30 s per workload.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

_ENV = {"PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def _child(name: str, steps: int) -> None:
    """Set up the workload, warm it up, then run ``steps`` steps (PyTorch is never imported)."""
    sys.modules["torch"] = None  # (workloads add a PyTorch column when it imports)
    import numpy as np

    import minigrad

    from . import workloads as W
    minigrad.set_num_threads(1)
    wl = W.workloads()[name]
    step = wl.impls["minigrad"](wl.setup(wl.sizes["full"], np.random.default_rng(0)))
    for _ in range(10 + steps):
        step()


def _instructions(name: str, steps: int, out_file: str = "/dev/null") -> int:
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={out_file}",
           sys.executable, "-m", "bench.icount", "--child", name, str(steps)]
    if shutil.which("setarch"):
        cmd = ["setarch", "-R"] + cmd  # (no address randomization: dict and set layouts repeat)
    out = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **_ENV}, check=True).stderr
    return int(re.search(r"I\s+refs:\s+([\d,]+)", out).group(1).replace(",", ""))


# Name lookups: CPython's search of a name in a type (a method cache miss walks the MRO's dicts) and in dicts. How
# often the method cache misses depends on which names and type versions collide in it, so the count moves by up to
# ~2% of W2 between two trees that differ in one unrelated line (round 31): compare the rest when judging a change
# (it leaves out real dict lookups too).
_NAME_LOOKUPS = ("_PyType_Lookup", "find_name_in_mro", "unicodekeys_lookup_unicode", "_Py_dict_lookup",
                 "_PyDict_GetItem_KnownHash")


def _top(name: str, steps: int, n: int) -> tuple[int, int, list]:
    """The per-step instructions of a workload by C function (cachegrind's files of a run with ``steps`` steps and of
    one with none, subtracted): (total, of which name lookups, the ``n`` largest functions as (instructions, name))."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        files = [os.path.join(tmp, f"cg.{k}") for k in (0, steps)]
        for k, f in zip((0, steps), files):
            _instructions(name, k, f)
        diff_file = os.path.join(tmp, "diff")
        with open(diff_file, "w") as out:
            out.write(subprocess.run(["cg_diff"] + files, capture_output=True, text=True, check=True).stdout)
        table = subprocess.run(["cg_annotate", "--threshold=0", "--auto=no", diff_file], capture_output=True,
                               text=True, check=True).stdout
    by_function: dict = {}
    for line in table.splitlines():   # ("  1,234 (12.3%)  file:function")
        m = re.match(r"\s*(-?[\d,]+)\s+\(\s*-?[\d.]+%\)\s+\S*?:?([^:\s]+)$", line)
        if m:
            by_function[m.group(2)] = by_function.get(m.group(2), 0) + int(m.group(1).replace(",", ""))
    lookups = sum(v for k, v in by_function.items() if k in _NAME_LOOKUPS)
    top = sorted(((v // steps, k) for k, v in by_function.items()), reverse=True)[:n]
    return sum(by_function.values()) // steps, lookups // steps, top


def main(argv: list[str] | None = None) -> int:
    """Print the instructions per step of each workload named on the command line."""
    parser = argparse.ArgumentParser(prog="python -m bench.icount", description=__doc__.split("\n")[0])
    parser.add_argument("workloads", nargs="*", default=["W2", "W4", "W5"])
    parser.add_argument("--steps", type=int, default=None, help="steps counted (default: 5 for W2, else 100)")
    parser.add_argument("--top", type=int, default=0, metavar="N",
                        help="also print the N C functions with the most instructions per step and the count without "
                             "name lookups (needs cg_diff and cg_annotate)")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.child[0], int(args.child[1]))
        return 0
    if not shutil.which("valgrind"):
        print("valgrind is not installed", file=sys.stderr)
        return 1
    for name in args.workloads:
        steps = args.steps or (5 if name == "W2" else 100)
        if not args.top:
            per_step = (_instructions(name, steps) - _instructions(name, 0)) // steps
            print(f"{name}: {per_step:,} instructions per step")
            continue
        per_step, lookups, top = _top(name, steps, args.top)
        print(f"{name}: {per_step:,} instructions per step, of which name lookups {lookups:,} "
              f"(without them: {per_step - lookups:,})")
        for count, function in top:
            print(f"  {count:>12,}  {function}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
