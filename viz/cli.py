"""`python -m viz SCRIPT.py --out graph.svg`: run a script and draw the graph of one of its tensors."""

from __future__ import annotations

import argparse
import runpy
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import render
from .drawing import draw
from .names import _from_namespace
from .tensors import grad_fn_of, is_tensor, shape_of


def pick_tensor(ns: dict[str, Any], name: str | None) -> tuple[str, Any]:
    """The tensor to draw: the named one, else `loss`, else the last scalar with a grad_fn, else the last with one."""
    if name:
        if name in ns:
            value = ns[name]
        else:
            try:
                value = eval(name, ns)  # an expression in the script's namespace, e.g. outputs[-1]
            except Exception as e:
                raise SystemExit(f"viz: cannot find {name!r} in the script: {e}") from None
        if not is_tensor(value):
            raise SystemExit(f"viz: {name!r} is a {type(value).__name__}, not a tensor")
        return name, value
    tensors = [(k, v) for k, v in ns.items() if not k.startswith("_") and is_tensor(v)]
    with_graph = [(k, v) for k, v in tensors if grad_fn_of(v) is not None]
    for k, v in with_graph:
        if k == "loss":
            return k, v
    scalars = [(k, v) for k, v in with_graph if shape_of(v) in ((), (1,))]
    if scalars or with_graph:
        return (scalars or with_graph)[-1]
    raise SystemExit("viz: the script left no tensor with a grad_fn; pass --tensor NAME")


def run_script(path: Path, args: Sequence[str]) -> dict[str, Any]:
    """Run a script as __main__ with its own argv and folder on sys.path; return its globals."""
    old_argv, old_path = sys.argv[:], sys.path[:]
    sys.argv = [str(path), *args]
    sys.path.insert(0, str(path.resolve().parent))
    try:
        return runpy.run_path(str(path), run_name="__main__")
    finally:
        sys.argv, sys.path[:] = old_argv, old_path


def parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m viz``."""
    p = argparse.ArgumentParser(
        prog="python -m viz",
        usage="python -m viz SCRIPT.py [options] [-- SCRIPT ARGS...]",
        description="Run a script and draw the autograd graph of one of its tensors.",
    )
    p.add_argument("script", type=Path, help="the Python script to run")
    p.add_argument(
        "-o",
        "--out",
        type=Path,
        default=Path("graph.svg"),
        help="output file; format from the suffix (.svg, .png, .pdf, .dot)",
    )
    p.add_argument(
        "-t",
        "--tensor",
        help="name (or expression) of the tensor to draw (default: loss, else the last scalar output)",
    )
    p.add_argument(
        "--engine",
        help=f"renderer: graphviz-pure (default), dot, or a path (env: {render.ENV_VAR})",
    )
    p.add_argument("--direction", choices=["backward", "forward"], default="backward")
    p.add_argument("--max-nodes", type=int, default=80)
    p.add_argument("--no-saved", action="store_true", help="hide saved tensors")
    p.add_argument("--no-values", action="store_true", help="hide value previews")
    p.add_argument("--attrs", action="store_true", help="show non-tensor saved attributes")
    p.add_argument(
        "--constants", action="store_true", help="show no-grad inputs saved by the graph"
    )
    p.add_argument("--color-grads", action="store_true", help="colour tensors by gradient norm")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `python -m viz`; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    cut = argv.index("--") if "--" in argv else len(argv)
    opts = parser().parse_args(argv[:cut])
    script_args = argv[cut + 1 :]  # everything after -- goes to the script
    if not opts.script.is_file():
        print(f"viz: no such script: {opts.script}", file=sys.stderr)
        return 2
    ns = run_script(opts.script, script_args)
    name, tensor = pick_tensor(ns, opts.tensor)
    names = [(name, tensor)] + list(_from_namespace(ns))
    d = draw(
        tensor,
        names=names,
        auto_names=False,
        direction=opts.direction,
        show_saved=not opts.no_saved,
        show_attrs=opts.attrs,
        show_values=not opts.no_values,
        show_constants=opts.constants,
        color_grads=opts.color_grads,
        max_nodes=opts.max_nodes,
        engine=opts.engine,
    )
    try:
        d.save(opts.out)
    except render.RendererNotFound as e:
        dot_path = opts.out.with_suffix(".dot")
        dot_path.write_text(d.source, encoding="utf-8")
        print(f"viz: {e}\nviz: wrote the DOT source to {dot_path}", file=sys.stderr)
        return 1
    except render.RenderError as e:
        print(f"viz: {e}", file=sys.stderr)
        return 1
    print(f"viz: drew {name} ({d.graph.total_fns} grad_fn nodes) to {opts.out}", file=sys.stderr)
    return 0
