"""The programs of ``fuzz_graphs.generate`` run as functions of their leaves under forward AD and ``torch.func``.

Three runners, each recording what a user observes as plain data (``fuzz_graphs._value`` form, strides left out):

* ``forward_ad``: every leaf that requires grad becomes a dual with a seeded tangent inside ``dual_level``; the op
  lines run as written (in-place ops on duals and their views included); every variable is unpacked (primal and
  tangent, ``None`` where there is none); the first exception (type and message).
* ``func``: the op lines as a function of the differentiable leaves, returning the program's last differentiable
  floating result (complex ones through ``view_as_real``); ``jvp``, ``vjp``, ``jacrev``, ``jacfwd``, ``grad``
  and ``hessian`` (the last two on its sum), each result or exception recorded.
* ``vmap``: the same lines over a leading batch dim of size 3 on each leaf (``in_dims`` 0 or None per leaf, seeded);
  the function returns every variable; outputs or the exception.
* ``nested``: the ``func`` runner's function under three seeded compositions of transforms (``NESTED``: vmap of
  grad / vjp / jvp, jacfwd and jacrev of jacrev, vmap of vmap with in_dims tuples, out_dims, chunk_size, has_aux,
  argnums tuples, linearize, the randomness flag, grad of a vmap), on an rng stream of its own.

``python tests/fuzz_transforms.py RUNNER FIRST COUNT`` runs many seeds and prints each unexplained difference.
"""
from __future__ import annotations

import functools
import re
import sys
import warnings

import fuzz_graphs as F
import numpy as np

RUNNERS = ("forward_ad", "func", "vmap", "nested")
BATCH = 3


def _v(module, x):
    """``fuzz_graphs._value`` without strides (layouts are not what these transforms are about)."""
    val = F._value(module, x)
    return _strip(val)


def _strip(val):
    if isinstance(val, tuple) and val and val[0] == "T":
        return ("T", val[1], val[2], None, val[4])
    if isinstance(val, tuple):
        return tuple(_strip(e) for e in val)
    return val


def _split(prog: F.Program) -> tuple:
    """(leaf lines, op lines) of a program."""
    n = len(prog.leaves)
    return prog.lines[:n], prog.lines[n:]


def _leaves(module, prog: F.Program) -> dict:
    """The leaves as plain tensors (no requires_grad) and which of them the program differentiates."""
    ns = {"torch": module, "D": prog.data}
    for line in _split(prog)[0]:
        exec(line, ns)
    return {n: (ns[n].detach(), ns[n].requires_grad) for n in prog.leaves}


def _tangent(module, prog: F.Program, name: str, t, salt: int):
    """A seeded tangent (or cotangent / batch member) for tensor ``t``."""
    rng = np.random.default_rng([prog.seed, salt, prog.leaves.index(name) if name in prog.leaves else 9])
    arr = np.round(rng.standard_normal(tuple(t.shape)), 2)
    if t.dtype.is_complex:
        arr = arr + 1j * np.round(rng.standard_normal(tuple(t.shape)), 2)
    return module.tensor(arr, dtype=t.dtype)


def _target(prog: F.Program):
    """The variable the transforms differentiate: the last differentiable floating result (or None)."""
    return prog.final[0].split("=", 1)[1].strip() if prog.final else None


def _run_lines(ns: dict, lines: list):
    for line in lines:
        exec(line, ns)


def record_forward_ad(module, prog: F.Program) -> dict:
    """Forward AD over the program: primal and tangent of every variable, or the first exception."""
    fa = module.autograd.forward_ad
    leaves = _leaves(module, prog)
    ns = {"torch": module, "D": prog.data}
    rec: dict = {"error": None, "tensors": {}}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with fa.dual_level():
            try:
                for n, (t, rg) in leaves.items():
                    ns[n] = fa.make_dual(t, _tangent(module, prog, n, t, 1)) if rg else t
            except Exception as e:  # noqa: BLE001 - both libraries must fail alike
                rec["error"] = ("make_dual",) + F._err(e)
            if rec["error"] is None:
                for i, line in enumerate(_split(prog)[1]):
                    try:
                        exec(line, ns)
                    except Exception as e:  # noqa: BLE001
                        rec["error"] = (i,) + F._err(e)
                        break
            for n in prog.names:
                if n in ns and F._is_tensor(module, ns[n]):
                    p, t = fa.unpack_dual(ns[n])
                    rec["tensors"][n] = (_v(module, p), None if t is None else _v(module, t))
    rec["warnings"] = _warnings(caught)
    return rec


def _function(module, prog: F.Program, leaves: dict, args: list, body: str):
    """``f(*args)``: the op lines with ``args`` bound to the given leaves, the others closed over."""
    ops = _split(prog)[1]

    def f(*xs):
        ns = {"torch": module, "D": prog.data}
        ns.update({n: t for n, (t, _) in leaves.items()})
        ns.update(zip(args, xs))
        _run_lines(ns, ops)
        return eval(body, ns)
    return f


# Warnings PyTorch gives once per process (TORCH_WARN_ONCE): which seed shows them depends on the order seeds run.
_ONCE = ("torch.jit", "is in beta and the API may change")


def _warnings(caught) -> list:
    """The warnings a user sees (PyTorch's own lazy ``torch.jit`` notice and once-per-process warnings left out)."""
    return sorted({(w.category.__name__, str(w.message)) for w in caught
                   if not any(s in str(w.message) for s in _ONCE)})


def _attempt(module, fn):
    try:
        return ("ok", _v(module, fn()))
    except Exception as e:  # noqa: BLE001 - both libraries must fail alike
        return ("error",) + F._err(e)


def record_func(module, prog: F.Program) -> dict:
    """``torch.func`` transforms of the program as a function of its differentiable leaves."""
    tf = module.func
    leaves = _leaves(module, prog)
    args = [n for n, (t, rg) in leaves.items() if rg]
    target = _target(prog)
    rec: dict = {}
    if not args or target is None:
        return rec
    # out = (expr).sum()  /  out = expr: expr may be y, y.abs(), torch.view_as_real(y)
    expr = target[1:-7] if target.endswith(").sum()") else target
    f = _function(module, prog, leaves, args, expr)
    fs = _function(module, prog, leaves, args, f"({expr}).sum()")
    primals = [leaves[n][0] for n in args]
    tangents = [_tangent(module, prog, n, leaves[n][0], 2) for n in args]
    argnums = tuple(range(len(args)))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rec["jvp"] = _attempt(module, lambda: tf.jvp(f, tuple(primals), tuple(tangents)))

        def vjp():
            out, fn = tf.vjp(f, *primals)
            return out, fn(_tangent(module, prog, "out", out, 3))
        rec["vjp"] = _attempt(module, vjp)
        rec["jacrev"] = _attempt(module, lambda: tf.jacrev(f, argnums=argnums)(*primals))
        rec["jacfwd"] = _attempt(module, lambda: tf.jacfwd(f, argnums=argnums)(*primals))
        rec["grad"] = _attempt(module, lambda: tf.grad(fs, argnums=argnums)(*primals))
        rec["hessian"] = _attempt(module, lambda: tf.hessian(fs)(*primals))
    rec["warnings"] = _warnings(caught)
    return rec


def record_vmap(module, prog: F.Program) -> dict:
    """``torch.func.vmap`` of the program over a leading batch dim (in_dims 0/None per leaf, seeded)."""
    leaves = _leaves(module, prog)
    names = list(leaves)
    rng = np.random.default_rng([prog.seed, 4])
    in_dims = tuple(int(d) if d == 0 else None for d in rng.choice([0, -1], len(names)))
    if all(d is None for d in in_dims):
        in_dims = (0,) + in_dims[1:]
    batched = []
    for n, d in zip(names, in_dims):
        t = leaves[n][0]
        if d is None:
            batched.append(t)
            continue
        members = [t] + [_tangent(module, prog, n, t, 10 + k) for k in range(BATCH - 1)]
        batched.append(module.stack(members))
    outs = [n for n in prog.names if n not in leaves] + names
    body = "(" + "".join(f"{n}, " for n in outs) + ")"
    f = _function(module, prog, {}, names, body)
    rec: dict = {"in_dims": in_dims}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        before = [None if d == 0 else _v(module, t) for t, d in zip(batched, in_dims)]
        rec["vmap"] = _attempt(module, lambda: module.func.vmap(f, in_dims=in_dims)(*batched))
        # (an unbatched input written in place: the values it is left with, compared in ``compare``)
        rec["_written"] = [(n, b[4], F._value(module, t)[4]) for n, t, b in zip(names, batched, before)
                           if b is not None and (F._value(module, t)[1:3] != b[1:3] or
                                                 not np.array_equal(F._value(module, t)[4], b[4], equal_nan=True))]
    rec["warnings"] = _warnings(caught)
    return rec


# The compositions the ``nested`` runner picks from (seeded per program, on its own rng stream).
NESTED = ("vmap_grad", "vmap_vjp", "vmap_jvp", "jacfwd_jacrev", "jacrev_jacrev", "vmap_vmap", "vmap_out_dims",
          "vmap_chunk", "jacrev_chunk", "grad_aux", "grad_argnums", "linearize", "vmap_random", "grad_vmap")


# A PyTorch bug: linearize traces the jvp with make_fx, and a forward formula that scales an input's missing tangent
# (a ZeroTensor) by a number, maybe_multiply(other_t, alpha), segfaults there (linearize(lambda x: torch.add(x, y,
# alpha=2), x) with y a plain tensor; sub_, rsub, index_add and addcmul / addcdiv's value, addmm / addmv / addr /
# baddbmm's beta and alpha too; ldexp(x, e) with e a plain tensor, whatever its dtype): the nested runner skips
# linearize on programs passing such a number or calling ldexp.
_LINEARIZE_SEGFAULT = re.compile(r"\b(alpha|beta|value)=|\bldexp\(")


def record_nested(module, prog: F.Program) -> dict:
    """Compositions of ``torch.func`` transforms over the program as a function of its differentiable leaves
    (vmap of grad / vjp / jvp, jacfwd of jacrev, vmap of vmap with in_dims tuples and None, out_dims, chunk_size,
    has_aux, argnums tuples, linearize, vmap's randomness flag): three of them per program, picked by a seeded
    rng of its own, each result or exception recorded."""
    tf = module.func
    leaves = _leaves(module, prog)
    args = [n for n, (t, rg) in leaves.items() if rg]
    target = _target(prog)
    rec: dict = {}
    if not args or target is None:
        return rec
    expr = target[1:-7] if target.endswith(").sum()") else target
    f = _function(module, prog, leaves, args, expr)
    fs = _function(module, prog, leaves, args, f"({expr}).sum()")
    primals = [leaves[n][0] for n in args]
    rng = np.random.default_rng([prog.seed, 7])
    picks = [NESTED[i] for i in rng.choice(len(NESTED), 3, replace=False)]
    in_dims = tuple(int(d) if d == 0 else None for d in rng.choice([0, 0, -1], len(args)))
    if all(d is None for d in in_dims):
        in_dims = (0,) + in_dims[1:]
    chunk = int(rng.integers(1, 4))
    argnums = tuple(int(i) for i in rng.permutation(len(args))[:max(1, len(args) - 1)])

    def batch(k: int, salt: int) -> list:
        """The primals with a leading batch of ``k`` where in_dims is 0 (members: seeded tangents)."""
        return [p if d is None else module.stack([p] + [_tangent(module, prog, n, p, salt + j) for j in range(k - 1)])
                for n, p, d in zip(args, primals, in_dims)]

    def run(name: str):
        if name == "vmap_grad":
            return tf.vmap(tf.grad(fs, argnums=tuple(range(len(args)))), in_dims=in_dims)(*batch(BATCH, 20))
        if name == "vmap_vjp":
            out = f(*primals)
            cot = module.stack([_tangent(module, prog, "out", out, 30 + j) for j in range(BATCH)])
            return tf.vmap(lambda c: tf.vjp(f, *primals)[1](c))(cot)
        if name == "vmap_jvp":
            tans = [module.stack([_tangent(module, prog, n, p, 40 + j) for j in range(BATCH)])
                    for n, p in zip(args, primals)]
            return tf.vmap(lambda *ts: tf.jvp(f, tuple(primals), ts))(*tans)
        if name == "jacfwd_jacrev":
            return tf.jacfwd(tf.jacrev(fs))(*primals)
        if name == "jacrev_jacrev":
            return tf.jacrev(tf.jacrev(fs))(*primals)
        if name == "vmap_vmap":
            inner = tf.vmap(f, in_dims=in_dims)
            outer_dims = tuple(None if d is None else 1 for d in in_dims)
            xs = [p if d is None else module.stack([b, b * 0.5], 1)
                  for p, b, d in zip(primals, batch(BATCH, 50), in_dims)]
            return tf.vmap(inner, in_dims=outer_dims)(*xs)
        if name == "vmap_out_dims":
            g = (lambda *xs: (f(*xs), fs(*xs)))
            return tf.vmap(g, in_dims=in_dims, out_dims=(-1, 0))(*batch(BATCH, 60))
        if name == "vmap_chunk":
            return tf.vmap(f, in_dims=in_dims, chunk_size=chunk)(*batch(BATCH, 70))
        if name == "jacrev_chunk":
            return tf.jacrev(f, argnums=tuple(range(len(args))), chunk_size=chunk)(*primals)
        if name == "grad_aux":
            return tf.grad(lambda *xs: (fs(*xs), f(*xs).detach()), has_aux=True)(*primals)
        if name == "grad_argnums":
            return tf.grad_and_value(fs, argnums=argnums)(*primals)
        if name == "linearize":
            out, jvp_fn = tf.linearize(f, *primals)
            return out, jvp_fn(*[_tangent(module, prog, n, p, 80) for n, p in zip(args, primals)])
        if name == "vmap_random":
            module.manual_seed(0)
            return tf.vmap(lambda *xs: f(*xs) + module.rand(()) * 0, in_dims=in_dims,
                           randomness=("error", "same")[chunk % 2])(*batch(BATCH, 90))
        # grad_vmap: grad of the sum of a vmapped function (the batch itself differentiated)
        return tf.grad(lambda *xs: tf.vmap(f, in_dims=in_dims)(*xs).sum(), argnums=tuple(range(len(args))))(
            *batch(BATCH, 100))

    def values() -> list:
        return [F._value(module, t)[4] for t, _ in leaves.values()]

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for name in picks:
            if name == "linearize" and _LINEARIZE_SEGFAULT.search(prog.source()):
                rec[name] = ("skipped",)
                continue
            before = values()
            rec[name] = _attempt(module, functools.partial(run, name))
            if "vmap" in name:
                # (an unbatched input written in place under vmap: PyTorch's function runs once, minigrad's loop
                # once per slice; the values it is left with, compared in ``compare``)
                rec.setdefault("_written", []).extend(
                    (name, b, a) for b, a in zip(before, values()) if not np.array_equal(a, b, equal_nan=True))
    rec["warnings"] = _warnings(caught)
    return rec


RECORD = {"forward_ad": record_forward_ad, "func": record_func, "vmap": record_vmap, "nested": record_nested}


def compare(mine: dict, theirs: dict, loose: bool) -> list:
    """Every difference between two records of the same runner."""
    F.LOOSE[0] = loose
    out: list = []
    if isinstance(mine.get("_written"), list):   # (the values written: per pick (nested), per input (vmap))
        a, b = mine["_written"], theirs.get("_written", [])
        if len(a) != len(b) or any(n != m or x.shape != y.shape or not np.allclose(x, y, rtol=1e-4, atol=1e-5,
                                                                                      equal_nan=True)
                                   for (n, _, x), (m, _, y) in zip(a, b)):
            out.append("note: an unbatched input was written in place")
    elif theirs.get("_written") or mine.get("_written"):
        out.append("note: an unbatched input was written in place")
    for key in sorted(k for k in set(mine) | set(theirs) if not k.startswith("_")):
        if key not in mine or key not in theirs:
            out.append(f"{key}: missing in {'minigrad' if key not in mine else 'torch'}")
            continue
        a, b = mine[key], theirs[key]
        if key == "tensors":
            for n in sorted(set(a) | set(b)):
                if n not in a or n not in b:
                    out.append(f"tensors.{n}: missing in {'minigrad' if n not in a else 'torch'}")
                    continue
                (pa, ta), (pb, tb) = a[n], b[n]
                F._diff_values(f"{n}.primal", pa, pb, out)
                if (ta is None) != (tb is None):
                    out.append(f"{n}.tangent: {'None' if ta is None else 'set'} != torch "
                               f"{'None' if tb is None else 'set'}")
                elif ta is not None:
                    F._diff_values(f"{n}.tangent", ta, tb, out)
        elif isinstance(a, tuple) and a and a[0] in ("ok", "error") and isinstance(b, tuple) and b:
            if a[0] != b[0] or a[0] == "error":
                if a != b:
                    out.append(f"{key}: {a[:3] if a[0] == 'error' else 'ok'} != torch "
                               f"{b[:3] if b[0] == 'error' else 'ok'}")
            else:
                F._diff_values(key, a[1], b[1], out)
        elif a != b:
            out.append(f"{key}: {a!r} != torch {b!r}")
    return out


def check(runner: str, seed: int) -> tuple:
    """(program, differences) of a seed under one runner."""
    return check_program(runner, F.generate(seed))


def check_program(runner: str, prog: F.Program) -> tuple:
    """(program, differences) of a given program under one runner (a stored witness, say)."""
    import torch
    from parity import fresh_warn_once

    import minigrad
    loose = "float32" in prog.source() or "complex64" in prog.source()
    with fresh_warn_once():   # (each library as in a fresh process: once-per-process warnings given)
        return prog, compare(RECORD[runner](minigrad, prog), RECORD[runner](torch, prog), loose)


def dump_program(prog: F.Program) -> dict:
    """A program as plain Python literals (for a witness that must survive changes to the generator)."""
    data = {k: (str(v.dtype), v.tolist()) if isinstance(v, np.ndarray) else v.item() if isinstance(v, np.generic)
            else v for k, v in prog.data.items()}
    return {"seed": prog.seed, "lines": list(prog.lines), "data": data, "names": list(prog.names),
            "leaves": list(prog.leaves), "final": list(prog.final), "double": prog.double}


def load_program(d: dict) -> F.Program:
    """The inverse of ``dump_program``."""
    data = {k: np.array(v[1], dtype=v[0]) if isinstance(v, tuple) else v for k, v in d["data"].items()}
    return F.Program(seed=d["seed"], lines=list(d["lines"]), data=data, names=list(d["names"]),
                     leaves=list(d["leaves"]), final=list(d["final"]), double=d["double"])


if __name__ == "__main__":  # pragma: no cover - a manual fuzz run
    from test_parity_transform_fuzz import KNOWN
    runner = sys.argv[1]
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    bad = explained = 0
    for s in range(first, first + count):
        try:
            prog, diffs = check(runner, s)
        except Exception as e:  # noqa: BLE001 - a crash of the harness itself is a finding too
            print(f"=== seed {s}: harness crash {type(e).__name__}: {e}")
            bad += 1
            continue
        rest = F.unexplained(prog, diffs, KNOWN[runner])
        if rest:
            bad += 1
            print(f"=== seed {s}\n{prog.source()}\n--- " + "\n--- ".join(d[:600] for d in rest[:6]))
        elif diffs:
            explained += 1
    print(f"{runner}: {count - bad - explained}/{count} clean, {explained} explained by KNOWN, {bad} unexplained")
