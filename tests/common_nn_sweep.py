"""Legacy NN test tables sweep: PyTorch's `torch.testing._internal.common_nn` entries run on both libraries.

    python tests/common_nn_sweep.py [NAME_SUBSTRING ...] [--dtype float64|float32] [--chunk I/N] [--list]
                                    [--ok] [--quiet-round] [--no-gradgrad] [--noncontig]

`module_tests`, `get_new_module_tests()` and `criterion_tests` are the tables behind test_nn.py's NewModuleTest
and CriterionTest: one dict per module configuration (module_name + constructor_args, or a `constructor` lambda,
often `wrap_functional(F.something, **options)`), with the input (input_size / input_fn) and for criteria the
target. For each entry whose module or functional minigrad has:

- torch's own NewModuleTest/CriterionTest object builds the input and target (seeded), and the torch module;
- the minigrad module is built from the same constructor: `nn`, `F`, `torch` inside the entry's lambdas are
  rebound to minigrad's (the lambda's code runs unchanged), tensors the lambdas captured are converted;
- torch's initial parameters and buffers are copied into minigrad's;
- forward (values, dtype, shape, strides, grad_fn), errors (type + message), input and parameter grads after a
  backward with a seeded grad_output, and second order (grad of out.sum() + sum(first grads) with respect to
  inputs, grad_outputs and parameters) unless the entry sets check_gradgrad=False;
- in float64 (the tables' own dtype) then float32 (floating inputs and the module cast);
- `--noncontig`: inputs and grad_outputs non-contiguous (torch's ModuleTest.test_noncontig layout).

Output: one line per difference, `entry<TAB>what`; lines whose every difference is rounding-level start with
`~` in `what` (see moduleinfo_sweep.compare_tensor). `run_entry()` returns the list of differences;
tests/test_parity_common_nn16.py calls it live on a curated list of entries.
"""
from __future__ import annotations

import os
import sys
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from moduleinfo_sweep import _convert_ctor, _flatten, _is_tensor, compare_outputs, compare_tensor  # noqa: E402
from torch_testing_db import _stub_expecttest, convert  # noqa: E402

SEED = 4321


# ------------------------------------------------------------------------------------------------------ tables
_ENTRIES: list = []


def entries():
    """[(name, kind, params)]: kind 'module' (NewModuleTest) or 'criterion' (CriterionTest), in table order."""
    if not _ENTRIES:
        import torch.backends

        _stub_expecttest()
        try:
            from torch.testing._internal import common_nn as cn
        finally:
            # (see torch_testing_db.import_db: common_utils freezes torch.backends flags at import)
            torch.backends.flags_frozen.__globals__["__allow_nonbracketed_mutation_flag"] = True
        seen = {}
        rows = [("module", p) for p in cn.module_tests + cn.get_new_module_tests()]
        rows += [("criterion", p) for p in cn.criterion_tests]
        for kind, p in rows:
            name = p.get("fullname") or (p["module_name"] + ("_" + p["desc"] if p.get("desc") else ""))
            if name in seen:    # (a few tables repeat a name: keep both, numbered)
                seen[name] += 1
                name = f"{name}#{seen[name]}"
            else:
                seen[name] = 0
            _ENTRIES.append((name, kind, p))
    return _ENTRIES


def entry(name):
    for n, kind, p in entries():
        if n == name:
            return kind, p
    raise KeyError(name)


def torch_test(kind, params):
    """torch's own test object for an entry (it builds the input, target and constructor arguments)."""
    import torch.nn as nn
    from torch.testing._internal.common_nn import CriterionTest, NewModuleTest

    p = dict(params)
    if "constructor" not in p:
        p["constructor"] = getattr(nn, p.pop("module_name"))
    p.pop("decorator", None)
    return (NewModuleTest if kind == "module" else CriterionTest)(**p)


# ------------------------------------------------------------------------------------------ torch -> minigrad
class Missing(Exception):
    """The entry needs something minigrad does not have (reported as skipped, not as a difference)."""


def _mg_namespace(obj, mg):
    """minigrad's counterpart of a torch module object (torch, torch.nn, torch.nn.functional, ...) or None."""
    name = getattr(obj, "__name__", "")
    table = {"torch": mg, "torch.nn": mg.nn, "torch.nn.functional": mg.nn.functional,
             "torch.autograd": mg.autograd, "torch.nn.init": getattr(mg.nn, "init", None)}
    return table.get(name)


def to_minigrad(value, mg, memo=None):
    """minigrad version of a value a table entry holds: tensors converted, torch functions/classes by name,
    functions defined in the tables rebuilt with `torch`/`nn`/`F` bound to minigrad's."""
    import torch

    memo = {} if memo is None else memo
    if id(value) in memo:
        return memo[id(value)]
    if isinstance(value, torch.Tensor):
        out = convert(value, mg)
    elif isinstance(value, types.ModuleType):
        out = _mg_namespace(value, mg) or value
    elif isinstance(value, types.FunctionType) and value.__module__ == "torch.testing._internal.common_nn":
        out = _transplant(value, mg, memo)
    elif isinstance(value, type) and value.__name__ == "FunctionalModule":
        out = _functional_module(value, mg, memo)
    elif isinstance(value, type) and issubclass(value, torch.nn.Module):
        if not hasattr(mg.nn, value.__name__):
            raise Missing(f"nn.{value.__name__}")
        out = getattr(mg.nn, value.__name__)
    elif isinstance(value, (tuple, list)):
        out = type(value)(to_minigrad(v, mg, memo) for v in value)
    elif isinstance(value, dict):
        out = {k: to_minigrad(v, mg, memo) for k, v in value.items()}
    elif isinstance(value, functools_partial()):
        out = functools_partial()(to_minigrad(value.func, mg, memo), *to_minigrad(value.args, mg, memo),
                                  **to_minigrad(value.keywords, mg, memo))
    elif callable(value) and (getattr(value, "__module__", "") or "").startswith("torch") \
            and not isinstance(value, type):
        name = value.__name__
        for ns in (mg.nn.functional, mg, mg.special, mg.linalg):
            if hasattr(ns, name):
                out = getattr(ns, name)
                break
        else:
            raise Missing(f"{value.__module__}.{name}")
    else:
        out = _convert_ctor(value, mg)
    memo[id(value)] = out
    return out


def functools_partial():
    import functools

    return functools.partial


def _code_names(code):
    """Global names a code object (and the lambdas/functions nested in it) reads."""
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names |= _code_names(c)
    return names


def _transplant(fn, mg, memo):
    """`fn` with the same code, its globals and closure cells mapped to minigrad (see to_minigrad)."""
    placeholder = object()
    g = {"__builtins__": fn.__globals__["__builtins__"]}
    cells = tuple(types.CellType() for _ in fn.__code__.co_freevars) or None
    new = types.FunctionType(fn.__code__, g, fn.__name__, None, cells)
    memo[id(fn)] = new      # (before filling in: a global or cell may lead back to `fn`)
    for name in _code_names(fn.__code__):
        v = fn.__globals__.get(name, placeholder)
        if v is not placeholder:
            g[name] = to_minigrad(v, mg, memo)
    for cell, old in zip(cells or (), fn.__closure__ or ()):
        cell.cell_contents = to_minigrad(old.cell_contents, mg, memo)
    new.__defaults__ = to_minigrad(fn.__defaults__, mg, memo) if fn.__defaults__ else None
    new.__kwdefaults__ = to_minigrad(fn.__kwdefaults__, mg, memo) if fn.__kwdefaults__ else None
    memo[id(fn)] = new
    return new


def _functional_module(cls, mg, memo):
    """minigrad's version of a `wrap_functional(fn, **kwargs)` class: forward(*args) = fn(*args, **kwargs)."""
    cells = dict(zip(cls.forward.__code__.co_freevars, (c.cell_contents for c in cls.forward.__closure__)))
    fn = to_minigrad(cells["fn"], mg, memo)
    kwargs = to_minigrad(cells["kwargs"], mg, memo)

    class FunctionalModule(mg.nn.Module):
        def forward(self, *args):
            return fn(*args, **kwargs)

    return FunctionalModule


# ----------------------------------------------------------------------------------------------------- run
def _cast(value, lib, dtype_name):
    """Floating (complex) tensors inside `value` cast to `dtype_name` (its complex twin), grad flags kept."""
    if _is_tensor(value):
        if value.is_floating_point() or value.is_complex():
            target = getattr(lib, dtype_name)
            if value.is_complex():
                target = lib.complex128 if dtype_name == "float64" else lib.complex64
            if value.dtype != target:
                out = value.detach().to(target)
                out.requires_grad_(value.requires_grad)
                return out
        return value
    if isinstance(value, (tuple, list)):
        return type(value)(_cast(v, lib, dtype_name) for v in value)
    return value


def _noncontiguous(value, torch):
    """torch's ModuleTest.noncontiguize: the same values in a non-contiguous layout (every second element of a
    stack along the dim after the first one longer than 1), the requires_grad flag kept."""
    if isinstance(value, (tuple, list)):
        return type(value)(_noncontiguous(v, torch) for v in value)
    if not isinstance(value, torch.Tensor) or value.dim() == 0:
        return value
    dim = next((d + 1 for d in range(value.dim()) if value.size(d) > 1), value.dim())
    out = torch.stack([torch.zeros_like(value), value.detach()], dim).select(dim, 1).detach()
    out.requires_grad_(value.requires_grad)
    return out


def _grad_leaves(value):
    """Leaf tensors that require grad inside nested inputs, in order."""
    if _is_tensor(value):
        return [value] if value.requires_grad and value.is_leaf else []
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in _grad_leaves(v)]
    return []


def _as_args(kind, inp, target, extra):
    if kind == "criterion":
        first = tuple(inp) if isinstance(inp, tuple) else (inp,)
        return first + (target,) + tuple(extra)
    return tuple(inp) if isinstance(inp, tuple) else (inp,)


def _exc(e):
    return f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"


def run_entry(name, dtype_name="float64", gradgrad=True, noncontig=False):
    """Differences between torch and minigrad on table entry `name` (list of strings; [] = match).

    `noncontig`: the input(s) and grad_outputs non-contiguous, as torch's ModuleTest.test_noncontig makes them.

    Raises Missing when minigrad lacks the module/functional the entry needs."""
    import torch

    import minigrad as mg

    kind, params = entry(name)   # (first: it puts the expecttest stand-in in place)
    from torch.testing._internal.common_utils import set_default_dtype
    test = torch_test(kind, params)
    memo = {}
    mcons = to_minigrad(test.constructor, mg, memo)
    default = str(test.default_dtype).removeprefix("torch.")

    # inputs, targets and constructor arguments: torch's test object makes them (seeded), then converted
    torch.manual_seed(SEED)
    with set_default_dtype(test.default_dtype):
        t_in = test._get_input()
        t_target = test._get_target() if kind == "criterion" else None
        t_cargs = test.constructor_args
        t_extra = test.extra_args if kind == "criterion" else ()
    t_in = _cast(t_in, torch, dtype_name)
    if noncontig:
        t_in = _noncontiguous(t_in, torch)
    if isinstance(t_target, torch.Tensor) and (t_target.is_floating_point() or t_target.is_complex()):
        t_target = _cast(t_target, torch, dtype_name)
    m_in, m_target = convert(t_in, mg), convert(t_target, mg)
    m_cargs, m_extra = to_minigrad(t_cargs, mg, memo), to_minigrad(t_extra, mg, memo)

    issues = []
    # construction (default dtype of the entry in both libraries, same seed)
    old_mg_default = mg.get_default_dtype()
    try:
        with set_default_dtype(test.default_dtype):
            torch.manual_seed(SEED + 1)
            try:
                tm = test.constructor(*t_cargs)
            except Exception as e:
                tm = e
            mg.set_default_dtype(getattr(mg, default))
            mg.manual_seed(SEED + 1)
            try:
                mm = mcons(*m_cargs)
            except Missing:
                raise
            except Exception as e:
                mm = e
    finally:
        mg.set_default_dtype(old_mg_default)
    if isinstance(tm, Exception) or isinstance(mm, Exception):
        if isinstance(mm, AttributeError) and "minigrad" in str(mm):
            raise Missing(str(mm))
        return _error_diff("construct", tm, mm)
    if repr(tm) != repr(mm):
        issues.append(f"repr: {repr(tm)!r} vs {repr(mm)!r}")
    tsd, msd = tm.state_dict(), mm.state_dict()
    tkeys = [(k, tuple(v.shape), str(v.dtype)) for k, v in tsd.items()]
    mkeys = [(k, tuple(v.shape), str(v.dtype)) for k, v in msd.items()]
    if tkeys != mkeys:
        issues.append(f"state_dict: {tkeys} vs {mkeys}")
        if [k for k, _, _ in tkeys] != [k for k, _, _ in mkeys]:
            return issues
    mm.load_state_dict(convert(tsd, mg))
    tm.to(getattr(torch, dtype_name))
    mm.to(getattr(mg, dtype_name))

    # forward
    t_args = _as_args(kind, t_in, t_target, t_extra)
    m_args = _as_args(kind, m_in, m_target, m_extra)
    torch.manual_seed(SEED + 2)
    try:
        t_out = tm(*t_args)
    except Exception as e:
        t_out = e
    mg.manual_seed(SEED + 2)
    try:
        m_out = mm(*m_args)
    except Exception as e:
        if isinstance(e, AttributeError) and "minigrad" in str(e) and "has no attribute" in str(e):
            raise Missing(str(e)) from None
        m_out = e
    if isinstance(t_out, Exception) or isinstance(m_out, Exception):
        return issues + _error_diff("forward", t_out, m_out)
    issues += compare_outputs("out", t_out, m_out)
    for (k, tv), (_, mv) in zip(tm.named_buffers(), mm.named_buffers()):
        issues += compare_tensor(f"buffer {k} after forward", tv, mv, strides=False, grad_fn=False)

    # backward with a seeded grad_output on every differentiable output
    t_outs = [v for _, v in _flatten(t_out) if _is_tensor(v)]
    m_outs = [v for _, v in _flatten(m_out) if _is_tensor(v)]
    if len(t_outs) != len(m_outs):
        return issues
    pairs = [(t, m) for t, m in zip(t_outs, m_outs) if t.requires_grad or m.requires_grad]
    if not pairs:
        return issues
    gen = torch.Generator().manual_seed(SEED + 3)
    go_t = [torch.randn(t.shape, generator=gen, dtype=t.dtype) for t, _ in pairs]
    if noncontig:
        go_t = _noncontiguous(go_t, torch)
    go_m = [convert(x, mg) for x in go_t]
    t_wrt = _grad_leaves(t_args) + [p for p in tm.parameters() if p.requires_grad]
    m_wrt = _grad_leaves(m_args) + [p for p in mm.parameters() if p.requires_grad]
    wrt_names = [f"input {i}" for i in range(len(_grad_leaves(t_args)))] + \
        [f"param {k}" for k, p in tm.named_parameters() if p.requires_grad]
    if len(t_wrt) != len(m_wrt):
        return issues + [f"differentiable inputs+params: {len(t_wrt)} vs {len(m_wrt)}"]
    try:
        t_g = torch.autograd.grad([t for t, _ in pairs], t_wrt, go_t, allow_unused=True, retain_graph=True)
    except Exception as e:
        t_g = e
    try:
        m_g = mg.autograd.grad([m for _, m in pairs], m_wrt, go_m, allow_unused=True, retain_graph=True)
    except Exception as e:
        m_g = e
    if isinstance(t_g, Exception) or isinstance(m_g, Exception):
        return issues + _error_diff("backward", t_g, m_g)
    for w, tg, mgr in zip(wrt_names, t_g, m_g):
        issues += _compare_grad(f"{w}.grad", tg, mgr)

    if gradgrad and test.check_gradgrad:
        issues += _second_order(pairs, go_t, t_wrt, m_wrt, wrt_names, torch, mg)
    return issues


def _compare_grad(what, t, m):
    """compare_tensor for gradients; a sparse gradient (Embedding(sparse=True)) is compared densely, its layout
    on a line of its own."""
    issues = []
    if t is not None and m is not None and str(t.layout) != str(m.layout):
        issues.append(f"{what}: layout {t.layout} vs {m.layout}")
    if t is not None and str(t.layout) != "torch.strided":
        t = t.to_dense()
    if m is not None and str(m.layout) != "torch.strided":
        m = m.to_dense()
    return issues + compare_tensor(what, t, m, grad_fn=False)


def _second_order(pairs, go_t, t_wrt, m_wrt, wrt_names, torch, mg):
    """torch's NewModuleTest second-order check: grads with create_graph, then the grad of
    sum(out) + sum(first grads) with respect to inputs, grad_outputs and parameters."""
    gt = [g.detach().clone().requires_grad_(True) for g in go_t]
    gm = [convert(g, mg) for g in gt]

    def run(lib, outs, wrt, gos):
        first = lib.autograd.grad(outs, wrt, gos, create_graph=True, allow_unused=True)
        total = sum((o.sum().abs() if o.is_complex() else o.sum()) for o in outs)
        total = total + sum((g.sum().abs() if g.is_complex() else g.sum()) for g in first if g is not None)
        return lib.autograd.grad(total, list(wrt) + list(gos), allow_unused=True)

    try:
        t_gg = run(torch, [t for t, _ in pairs], t_wrt, gt)
    except Exception as e:
        t_gg = e
    try:
        m_gg = run(mg, [m for _, m in pairs], m_wrt, gm)
    except Exception as e:
        m_gg = e
    if isinstance(t_gg, Exception) or isinstance(m_gg, Exception):
        return _error_diff("second order", t_gg, m_gg)
    names = wrt_names + [f"grad_output {i}" for i in range(len(gt))]
    issues = []
    for w, tg, mgr in zip(names, t_gg, m_gg):
        issues += _compare_grad(f"gradgrad {w}", tg, mgr)
    return issues


def _error_diff(stage, t, m):
    """Differences when at least one library raised at `stage`."""
    t_exc, m_exc = isinstance(t, Exception), isinstance(m, Exception)
    if t_exc and m_exc:
        if type(t).__name__ == type(m).__name__ and str(t) == str(m):
            return []
        return [f"{stage} error: torch {_exc(t)!r} vs minigrad {_exc(m)!r}"]
    if t_exc:
        return [f"{stage}: torch raised {_exc(t)!r}, minigrad did not"]
    return [f"{stage}: minigrad raised {_exc(m)!r}"]


# --------------------------------------------------------------------------------------------------------- CLI
def main(argv):
    dtypes = ["float64", "float32"]
    if "--dtype" in argv:
        i = argv.index("--dtype")
        dtypes = [argv[i + 1]]
        argv = argv[:i] + argv[i + 2:]
    chunk = None
    if "--chunk" in argv:
        i = argv.index("--chunk")
        chunk = tuple(int(x) for x in argv[i + 1].split("/"))
        argv = argv[:i] + argv[i + 2:]
    show_ok, quiet_round = "--ok" in argv, "--quiet-round" in argv
    gradgrad = "--no-gradgrad" not in argv
    noncontig = "--noncontig" in argv
    words = [a for a in argv if not a.startswith("--")]
    rows = [(n, k) for n, k, _ in entries() if not words or any(w in n for w in words)]
    if chunk:
        i, n = chunk
        rows = rows[i::n]
    if "--list" in argv:
        for n, k in rows:
            print(f"{n}\t{k}")
        return
    n_ok = n_bad = n_round = n_missing = 0
    for name, _ in rows:
        for dt in dtypes:
            key = f"{name} {dt}"
            try:
                issues = run_entry(name, dt, gradgrad, noncontig)
            except Missing as e:
                n_missing += 1
                print(f"{key}\tSKIP missing {e}")
                break
            except Exception as e:  # the sweep itself must go on
                issues = [f"sweep crashed: {_exc(e)}"]
            rounding = [s for s in issues if s.startswith("~")]
            real = [s for s in issues if not s.startswith("~")]
            if real:
                n_bad += 1
                for s in real:
                    print(f"{key}\t{s[:600]}")
            elif rounding:
                n_round += 1
            else:
                n_ok += 1
                if show_ok:
                    print(f"{key}\tOK")
            if rounding and not quiet_round:
                # rounding-level differences (summation order): one line naming what differs
                print(f"{key}\t~rounding: " + ", ".join(s[1:].split(":")[0] for s in rounding))
            sys.stdout.flush()
    print(f"# {n_ok} match, {n_round} differ by rounding only, {n_bad} differ, {n_missing} entries skipped "
          f"(missing in minigrad)")


if __name__ == "__main__":
    main(sys.argv[1:])
