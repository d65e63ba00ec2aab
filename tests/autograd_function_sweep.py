"""PyTorch's autograd.Function database (torch/testing/_internal/autograd_function_db.py) under autograd and
torch.func, torch vs minigrad.

Both libraries run the *same* Function definitions: the database's source is executed a second time with
``torch`` bound to minigrad (only OpInfo/SampleInput/make_tensor stay torch's: samples are made by torch and
converted). For every entry, sample and dtype (float64, float32) the checks are those functorch's test_ops.py
runs on this database: forward (values, dtype, grad_fn name), backward, double backward, and torch.func's
grad, vjp, jvp, jacrev, jacfwd, hessian, vmap (in_dims 0 / 1 / None, out_dims 0 / 1), vmap(grad), grad(grad),
vmap(vjp), vmap(jvp), vjp(vmap), jvp(vjp). An exception is a result too (type + message).

    python tests/autograd_function_sweep.py [-v] [NAME_SUBSTRING ...]
"""
from __future__ import annotations

import functools
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import torch_testing_db as tdb  # noqa: E402

DTYPES = ("float64", "float32")

# Checks whose results cannot match (run and printed, but counted apart), with why:
KNOWN = {
    # PyTorch runs a Function's jvp staticmethod with forward grad mode off, at every jvp level: the inner jvp's
    # tangent has no tangent at the outer level. minigrad's forward AD has a single level; a jvp nested in
    # another takes the double-vjp path, which differentiates the Function's *backward* (a different formula
    # for CubeGenVmap, a tangent at the outer level for all).
    "func.jvp(jvp)",
}


# ---------------------------------------------------------------------------------------------- the two databases
@functools.cache
def torch_db() -> dict:
    """name -> OpInfo of torch's database."""
    return {op.name: op for op in tdb.import_db("autograd_function_db")}


@functools.cache
def minigrad_db() -> dict:
    """name -> the entry's ops (dict: op, inplace_variant, ...) of the same source run with torch = minigrad."""
    tdb.import_db("autograd_function_db")   # (the stub, and torch's backends flags restored after the import)
    import torch.testing._internal.autograd_function_db as src_module

    with open(src_module.__file__) as f:
        source = f.read()
    assert source.count("\nimport torch\n") == 1
    source = source.replace("\nimport torch\n", "\nimport minigrad as torch\n")
    head, tail = source.split("\nautograd_function_db = [", 1)
    namespace = {"__name__": "minigrad_autograd_function_db"}
    exec(compile(head, src_module.__file__, "exec"), namespace)

    # The list itself: torch's OpInfo would check minigrad dtypes; a record of the keyword arguments is all we need.
    def record(name, **kwargs):
        return dict(kwargs, name=name)

    namespace["OpInfo"] = record
    namespace["all_types_and"] = lambda *a: ()
    exec(compile("autograd_function_db = [" + tail, src_module.__file__, "exec"), namespace)
    return {entry["name"]: entry for entry in namespace["autograd_function_db"]}


def libs():
    import torch

    import minigrad
    return {"torch": torch, "minigrad": minigrad}


# ------------------------------------------------------------------------------------------ results and comparing
class Err:
    def __init__(self, exc):
        self.type = type(exc).__name__
        self.msg = str(exc)

    def __repr__(self):
        return f"{self.type}: {self.msg[:300]}"


def describe(value):
    """A library-neutral picture of a result: tensors as (values, dtype, requires_grad, grad_fn name)."""
    if isinstance(value, Err):
        return value
    if hasattr(value, "detach") and hasattr(value, "dtype") and hasattr(value, "shape"):
        gf = value.grad_fn
        return ("T", tdb.to_numpy(value), str(value.dtype).split(".")[-1], bool(value.requires_grad),
                None if gf is None else type(gf).__name__)
    if isinstance(value, (tuple, list)):
        return (type(value).__name__, [describe(v) for v in value])
    if isinstance(value, np.ndarray):
        return ("ndarray", value.copy(), str(value.dtype))
    return ("py", repr(value))


def differences(a, b, where="out", exact_bits=False) -> list[str]:
    """Differences between two described results (torch's first)."""
    if isinstance(a, Err) or isinstance(b, Err):
        if isinstance(a, Err) and isinstance(b, Err):
            if (a.type, a.msg) != (b.type, b.msg):
                return [f"{where}: error differs\n    torch:    {a!r}\n    minigrad: {b!r}"]
            return []
        return [f"{where}: torch {short(a)} / minigrad {short(b)}"]
    if a[0] != b[0]:
        return [f"{where}: kind {a[0]} vs {b[0]}"]
    if a[0] == "T":
        out = []
        _, va, da, ra, ga = a
        _, vb, db, rb, gb = b
        if va.shape != vb.shape:
            return [f"{where}: shape {va.shape} vs {vb.shape}"]
        if da != db:
            out.append(f"{where}: dtype {da} vs {db}")
        if ra != rb:
            out.append(f"{where}: requires_grad {ra} vs {rb}")
        if ga != gb:
            out.append(f"{where}: grad_fn {ga} vs {gb}")
        if va.dtype.kind in "fc" or vb.dtype.kind in "fc":
            tol = 1e-12 if da == "float64" else 1e-5
            if not np.allclose(va, vb, rtol=tol, atol=tol, equal_nan=True):
                out.append(f"{where}: values differ (max abs {np.nanmax(np.abs(va - vb)):.3g})")
            elif exact_bits and not np.array_equal(va, vb, equal_nan=True):
                out.append(f"{where}: bits differ (max abs {np.nanmax(np.abs(va - vb)):.3g})")
        elif not np.array_equal(va, vb):
            out.append(f"{where}: values differ")
        return out
    if a[0] in ("tuple", "list"):
        if len(a[1]) != len(b[1]):
            return [f"{where}: length {len(a[1])} vs {len(b[1])}"]
        return [d for i, (x, y) in enumerate(zip(a[1], b[1])) for d in differences(x, y, f"{where}[{i}]", exact_bits)]
    if a[0] == "ndarray":
        ok = a[2] == b[2] and a[1].shape == b[1].shape and np.allclose(a[1], b[1])
        return [] if ok else [f"{where}: ndarray {a[2]}{a[1].shape} vs {b[2]}{b[1].shape}"]
    return [] if a[1] == b[1] else [f"{where}: {a[1]} vs {b[1]}"]


def short(d) -> str:
    """A one-line summary of a described result."""
    if isinstance(d, Err):
        return repr(d)
    if d[0] == "T":
        return f"tensor{list(d[1].shape)}:{d[2]}"
    if d[0] in ("tuple", "list"):
        return d[0] + "(" + ", ".join(short(x) for x in d[1]) + ")"
    return f"{d[0]}:{str(d[1])[:40]}"


def attempt(fn):
    try:
        return describe(fn())
    except Exception as exc:  # noqa: BLE001 - an error is a result to compare
        return Err(exc)


# ------------------------------------------------------------------------------------------------- the checks
def _float_outputs(lib, out):
    """The floating-point tensor outputs (functorch's normalize_op_input_output keeps those)."""
    outs = out if isinstance(out, (tuple, list)) else (out,)
    return tuple(o for o in outs if isinstance(o, lib.Tensor) and o.dtype.is_floating_point)


def make_case(name: str, dtype: str):
    """The samples of entry `name` in dtype: a list of (sample tag, {lib: (op, inplace_op, args, kwargs)})."""
    import torch
    op_t = torch_db()[name]
    entry_m = minigrad_db()[name]
    torch.manual_seed(0)
    cases = []
    for k, sample in enumerate(op_t.sample_inputs("cpu", getattr(torch, dtype), requires_grad=True)):
        args_t = (sample.input, *sample.args)
        kwargs_t = dict(sample.kwargs)
        args_m = tdb.convert(args_t)
        kwargs_m = tdb.convert(kwargs_t)
        cases.append((f"{name}[{dtype}][{k}]", {
            "torch": (op_t.op, op_t.inplace_variant, args_t, kwargs_t),
            "minigrad": (entry_m["op"], entry_m.get("inplace_variant"), args_m, kwargs_m)}))
    return cases


def _detach_all(lib, args):
    return tuple(a.detach().clone() if isinstance(a, lib.Tensor) else a for a in args)


def _diff_positions(lib, args):
    return [i for i, a in enumerate(args) if isinstance(a, lib.Tensor) and a.dtype.is_floating_point]


def _randn_like(lib, t, seed):
    """The same random tensor in both libraries (drawn by NumPy)."""
    rng = np.random.default_rng(seed)
    values = rng.standard_normal(tuple(t.shape)).astype(str(t.dtype).split(".")[-1])
    return lib.tensor(values)


def _fn_of_diff(lib, op, args, kwargs, positions):
    """op as a function of its floating tensor inputs only, returning its floating outputs."""
    def fn(*diff):
        full = list(args)
        for p, d in zip(positions, diff):
            full[p] = d
        outs = _float_outputs(lib, op(*full, **kwargs))
        return outs[0] if len(outs) == 1 else outs
    return fn


def _scalar_fn(lib, fn):
    def scalar(*diff):
        out = fn(*diff)
        outs = out if isinstance(out, tuple) else (out,)
        total = outs[0].sum()
        for o in outs[1:]:
            total = total + o.sum()
        return total
    return scalar


def checks(lib, op, inplace, args, kwargs, seed=0):
    """name -> thunk, for one library."""
    func = lib.func
    checks = {}
    fresh = lambda: tuple(a.detach().clone().requires_grad_(a.requires_grad) if isinstance(a, lib.Tensor) else a
                          for a in args)

    checks["forward"] = lambda: op(*fresh(), **kwargs)

    def graph():
        """What the recorded node shows: name, next_functions, needs_input_grad, saved tensors, outputs' versions."""
        inputs = fresh()
        out = op(*inputs, **kwargs)
        outs = out if isinstance(out, (tuple, list)) else (out,)
        shown = []
        for o in outs:
            if not isinstance(o, lib.Tensor):
                shown.append(type(o).__name__)
                continue
            node = o.grad_fn
            row = [o._version, o.is_leaf, o._base is not None]
            if node is not None:
                row += [node.name(), [(type(n).__name__ if n is not None else None, nr)
                                      for n, nr in node.next_functions]]
                row += [getattr(node, "needs_input_grad", None)]
                saved = getattr(node, "saved_tensors", ())
                row += [[(tuple(t.shape), t.requires_grad) if t is not None else None for t in saved]]
            shown.append(repr(row))
        return shown, [a._version for a in inputs if isinstance(a, lib.Tensor)]
    checks["graph"] = graph

    def backward(create_graph=False, twice=False):
        inputs = fresh()
        out = op(*inputs, **kwargs)
        outs = [o for o in _float_outputs(lib, out) if o.requires_grad]
        wrt = [a for a in inputs if isinstance(a, lib.Tensor) and a.requires_grad]
        cots = [_randn_like(lib, o, seed + 1 + i) for i, o in enumerate(outs)]
        if twice:
            cots = [c.requires_grad_() for c in cots]
        grads = lib.autograd.grad(outs, wrt, cots, create_graph=create_graph or twice, allow_unused=True)
        if not twice:
            return grads
        used = [g for g in grads if g is not None]
        vs = [_randn_like(lib, g, seed + 10 + i) for i, g in enumerate(used)]
        return lib.autograd.grad(used, wrt + cots, vs, allow_unused=True)
    checks["backward"] = backward
    checks["double_backward"] = lambda: backward(twice=True)

    if inplace is not None:
        checks["inplace"] = lambda: inplace(*(a.detach().clone() if isinstance(a, lib.Tensor) else a
                                              for a in args), **kwargs)
        checks["inplace_on_leaf"] = lambda: inplace(*fresh(), **kwargs)   # (PyTorch's leaf error)

        def inplace_backward():
            inputs = fresh()
            work = [a.clone() if isinstance(a, lib.Tensor) else a for a in inputs]
            out = inplace(*work, **kwargs)
            cot = _randn_like(lib, out, seed + 130)
            grads = lib.autograd.grad(out, [a for a in inputs if isinstance(a, lib.Tensor)], cot)
            return out, grads, work[0]._version, type(work[0].grad_fn).__name__
        checks["inplace_backward"] = inplace_backward

    plain = _detach_all(lib, args)
    positions = _diff_positions(lib, plain)
    primals = tuple(plain[p] for p in positions)
    fn = _fn_of_diff(lib, op, plain, kwargs, positions)
    sfn = _scalar_fn(lib, fn)
    argnums = tuple(range(len(primals)))
    tangents = tuple(_randn_like(lib, p, seed + 20 + i) for i, p in enumerate(primals))

    def out_cotangents():
        out = fn(*primals)
        outs = out if isinstance(out, tuple) else (out,)
        cot = tuple(_randn_like(lib, o, seed + 30 + i) for i, o in enumerate(outs))
        return cot if isinstance(out, tuple) else cot[0]

    checks["func.grad"] = lambda: func.grad(sfn, argnums=argnums)(*primals)

    def vjp():
        out, vjp_fn = func.vjp(fn, *primals)
        return out, vjp_fn(out_cotangents())
    checks["func.vjp"] = vjp
    checks["func.jvp"] = lambda: func.jvp(fn, primals, tangents)
    checks["func.jacrev"] = lambda: func.jacrev(fn, argnums=argnums)(*primals)
    checks["func.jacfwd"] = lambda: func.jacfwd(fn, argnums=argnums)(*primals)
    checks["func.hessian"] = lambda: func.hessian(sfn, argnums=argnums)(*primals)
    checks["func.grad(grad)"] = lambda: func.grad(
        lambda *p: _scalar_fn(lib, func.grad(sfn, argnums=argnums))(*p), argnums=argnums)(*primals)

    # jvp(vjp): functorch's test_jvpvjp
    def jvpvjp():
        cot = out_cotangents()
        cot_t = tuple(_randn_like(lib, c, seed + 40 + i) for i, c in enumerate(cot if isinstance(cot, tuple)
                                                                                  else (cot,)))
        cot_t = cot_t if isinstance(cot, tuple) else cot_t[0]

        def push_vjp(prims, cots):
            _, vjp_fn = func.vjp(fn, *prims)
            return vjp_fn(cots)
        return func.jvp(push_vjp, (primals, cot), (tangents, cot_t))
    checks["func.jvp(vjp)"] = jvpvjp

    # vmap: every tensor argument batched (B=2) along in_dim, or not batched (None)
    B = 2
    tensor_pos = [i for i, a in enumerate(plain) if isinstance(a, lib.Tensor)]

    def batched_args(in_dims_choice):
        batched, in_dims = list(plain), [None] * len(plain)
        for i, d in zip(tensor_pos, in_dims_choice):
            if d is None:
                continue
            a = plain[i]
            if a.dtype.is_floating_point:
                slices = [a + 0.125 * j for j in range(B)]
            else:
                slices = [a for _ in range(B)]
            batched[i] = lib.stack(slices, dim=d)
            in_dims[i] = d
        return tuple(batched), tuple(in_dims)

    choices = [(0,) * len(tensor_pos), (1,) * len(tensor_pos), (-1,) * len(tensor_pos)]
    if len(tensor_pos) > 1:
        choices += [(0,) + (None,) * (len(tensor_pos) - 1), (None,) + (0,) * (len(tensor_pos) - 1)]
    for choice in choices:
        for out_dims in (0, 1):
            def run_vmap(choice=choice, out_dims=out_dims):
                bargs, in_dims = batched_args(choice)
                return func.vmap(lambda *a: op(*a, **kwargs), in_dims=in_dims, out_dims=out_dims)(*bargs)
            checks[f"func.vmap(in_dims={choice}, out_dims={out_dims})"] = run_vmap

    def batched_primals():
        return tuple(lib.stack([p + 0.125 * j for j in range(B)]) for p in primals)

    checks["func.vmap(grad)"] = lambda: func.vmap(func.grad(sfn, argnums=argnums))(*batched_primals())
    checks["func.vmap(grad(grad))"] = lambda: func.vmap(func.grad(
        lambda *p: _scalar_fn(lib, func.grad(sfn, argnums=argnums))(*p), argnums=argnums))(*batched_primals())

    def vmapvjp():
        out = fn(*primals)
        outs = out if isinstance(out, tuple) else (out,)
        cots = tuple(lib.stack([_randn_like(lib, o, seed + 50 + i + 7 * j) for j in range(B)])
                     for i, o in enumerate(outs))

        def f(prims, cot):
            _, vjp_fn = func.vjp(fn, *prims)
            return vjp_fn(cot if isinstance(out, tuple) else cot[0])
        return func.vmap(f)(batched_primals(), cots)
    checks["func.vmap(vjp)"] = vmapvjp

    def vmapjvp():
        tans = tuple(lib.stack([_randn_like(lib, p, seed + 60 + i + 7 * j) for j in range(B)])
                     for i, p in enumerate(primals))
        return func.vmap(lambda p, t: func.jvp(fn, p, t))(batched_primals(), tans)
    checks["func.vmap(jvp)"] = vmapjvp

    def vjpvmap():
        bprims = batched_primals()
        out, vjp_fn = func.vjp(func.vmap(fn), *bprims)
        outs = out if isinstance(out, tuple) else (out,)
        cot = tuple(_randn_like(lib, o, seed + 70 + i) for i, o in enumerate(outs))
        return out, vjp_fn(cot if isinstance(out, tuple) else cot[0])
    checks["func.vjp(vmap)"] = vjpvmap
    checks["func.grad(vmap)"] = lambda: func.grad(lambda *p: func.vmap(sfn)(*p).sum(), argnums=argnums)(
        *batched_primals())

    # functorch's test_vjpvjp: the vjp of a vjp_fn
    def vjpvjp():
        cot = out_cotangents()

        def push_vjp(prims, cots):
            _, vjp_fn = func.vjp(fn, *prims)
            return vjp_fn(cots)
        result, vjp_fn = func.vjp(push_vjp, primals, cot)
        cot2 = tuple(_randn_like(lib, r, seed + 80 + i) for i, r in enumerate(result))
        return result, vjp_fn(cot2)
    checks["func.vjp(vjp)"] = vjpvjp

    # functorch's test_vmapjvpvjp: vmap over jvp(vjp)
    def vmapjvpvjp():
        out = fn(*primals)
        outs = out if isinstance(out, tuple) else (out,)

        def f(prims, cots, prim_t, cot_t):
            def push_vjp(p, c):
                _, vjp_fn = func.vjp(fn, *p)
                return vjp_fn(c if isinstance(out, tuple) else c[0])
            return func.jvp(push_vjp, (prims, cots), (prim_t, cot_t))
        stack_rand = lambda ts, s: tuple(lib.stack([_randn_like(lib, t, s + i + 7 * j) for j in range(B)])
                                         for i, t in enumerate(ts))
        return func.vmap(f)(batched_primals(), stack_rand(outs, seed + 90), stack_rand(primals, seed + 100),
                            stack_rand(outs, seed + 110))
    checks["func.vmap(jvp(vjp))"] = vmapjvpvjp
    def vmapvmap():
        # inner batch at dim 1 of the outer slices, outer batch at dim 0
        bprims = tuple(lib.stack([lib.stack([p + 0.125 * j + 0.5 * i for j in range(B)], dim=1)
                                  for i in range(3)]) for p in primals)
        return func.vmap(func.vmap(fn, in_dims=1))(*bprims)
    checks["func.vmap(vmap)"] = vmapvmap

    def jvpjvp():
        tangents2 = tuple(_randn_like(lib, p, seed + 120 + i) for i, p in enumerate(primals))
        return func.jvp(lambda *p: func.jvp(fn, p, tangents)[1], primals, tangents2)
    checks["func.jvp(jvp)"] = jvpjvp
    checks["func.jacfwd(jacrev)"] = lambda: func.jacfwd(func.jacrev(sfn, argnums=argnums), argnums=argnums)(*primals)

    # forward AD with dual tensors: the jvp staticmethod
    def forward_ad():
        fwAD = lib.autograd.forward_ad
        with fwAD.dual_level():
            duals = [fwAD.make_dual(p, t) for p, t in zip(primals, tangents)]
            out = fn(*duals)
            outs = out if isinstance(out, tuple) else (out,)
            return [tuple(fwAD.unpack_dual(o)) for o in outs]
    checks["forward_ad"] = forward_ad

    if inplace is not None:  # functorch's vmap tests run the in-place variant too
        def vmap_inplace():
            bprims = batched_primals()
            result = func.vmap(lambda *a: inplace(*a, **kwargs))(*bprims)
            return result, bprims
        checks["func.vmap(inplace)"] = vmap_inplace

        def jvp_inplace():
            return func.jvp(lambda *a: inplace(*(t.clone() for t in a), **kwargs), primals, tangents)
        checks["func.jvp(inplace)"] = jvp_inplace

    if str(plain[0].dtype).endswith("float64"):
        def gradcheck(gradgrad=False):
            inputs = fresh()
            wrapped = lambda *a: _float_outputs(lib, op(*a, **kwargs))
            check = lib.autograd.gradgradcheck if gradgrad else lib.autograd.gradcheck
            return check(wrapped, inputs, raise_exception=True, check_forward_ad=False, check_batched_grad=False,
                         **({} if gradgrad else {"check_undefined_grad": False}))
        checks["gradcheck"] = gradcheck
        checks["gradgradcheck"] = lambda: gradcheck(True)
    return checks


def run_case(tag: str, per_lib: dict, exact_bits=False, only=None) -> list[tuple[str, list[str]]]:
    """[(check name, differences)] for one sample."""
    results = {}
    for lib_name, lib in libs().items():
        op, inplace, args, kwargs = per_lib[lib_name]
        thunks = checks(lib, op, inplace, args, kwargs)
        results[lib_name] = {k: attempt(v) for k, v in thunks.items() if only is None or k in only}
    out = []
    for key, t_res in results["torch"].items():
        out.append((key, differences(t_res, results["minigrad"][key], key, exact_bits)))
    return out


def all_cases(names=None, dtypes=DTYPES):
    for name in torch_db():
        if names and not any(n in name for n in names):
            continue
        for dtype in dtypes:
            yield from make_case(name, dtype)


def main(argv):
    verbose = "-v" in argv
    names = [a for a in argv if not a.startswith("-")]
    n_checks = n_bad = n_known = 0
    for tag, per_lib in all_cases(names):
        for key, diffs in run_case(tag, per_lib):
            n_checks += 1
            if diffs and key in KNOWN:
                n_known += 1
                if verbose:
                    print(f"KNOWN {tag} {key}: {diffs[0]}")
            elif diffs:
                n_bad += 1
                print(f"DIFF {tag} {key}")
                for d in diffs[:6]:
                    print("   ", d)
            elif verbose:
                print(f"ok   {tag} {key}")
    print(f"{n_checks} checks, {n_bad} differ, {n_known} known differences (KNOWN)")
    return 1 if n_bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
