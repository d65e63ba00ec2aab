"""ModuleInfo sweep: every nn module minigrad has, run on PyTorch's own module inputs (torch's `module_db`).

    python tests/moduleinfo_sweep.py [ModuleName ...] [--dtype float32|float64|float16|bfloat16] [--errors-only] [--ok]
        [--quiet-round]

For each ModuleInfo whose class exists in minigrad.nn, each (dtype, train/eval mode) and each ModuleInput:
construct both modules (same seed, converted constructor arguments), compare repr and the state_dicts' keys,
shapes and dtypes, copy torch's parameters and buffers into minigrad's, run the forward (same seed) and compare
the outputs (structure, dtype, shape, strides, values bit for bit or in ulps, grad_fn names), run the backward
with a seeded grad_output and compare every parameter's and input's .grad, and compare the buffers after the
forward (running stats). Error inputs: the exception type and message at construction or forward.

`run_case()` and `run_error_case()` return a list of differences (empty = match); tests/test_parity_moduleinfo.py
calls them live on a curated list of cases.
"""
from __future__ import annotations

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from torch_testing_db import convert, import_db, to_numpy  # noqa: E402

SEED = 1234
# ModuleInfo.dtypes lists what PyTorch's own tests run on CPU (float32/float64 mostly); `--dtype float16` or
# `--dtype bfloat16` runs every module in that type anyway (CPU modules accept them; PyTorch may refuse some).
_HALF_DTYPES = ("float16", "bfloat16")


def _module_infos():
    import minigrad.nn as mnn

    return [mi for mi in import_db("module_db") if hasattr(mnn, mi.module_cls.__name__)]


_INFOS = []


def module_info(name):
    """The ModuleInfo of nn class `name` (e.g. 'Conv2d')."""
    if not _INFOS:
        _INFOS.extend(_module_infos())
    for mi in _INFOS:
        if mi.module_cls.__name__ == name:
            return mi
    raise KeyError(name)


def training_flags(mi):
    """Modes torch's own test_modules.py runs: both when train and eval differ, else train only."""
    return [True, False] if mi.train_and_eval_differ else [True]


def module_inputs(mi, dtype_name, training):
    import torch

    torch.manual_seed(SEED - 1)   # (the values are random: seeded, a run is repeatable)
    return mi.module_inputs_func(mi, device="cpu", dtype=getattr(torch, dtype_name), requires_grad=True,
                                 training=training)


# ----------------------------------------------------------------------------------------------------- compare
def _flatten(value, path="out"):
    """(path, leaf) pairs of a nested output (tensors, tuples/lists, None, numbers)."""
    if isinstance(value, (tuple, list)):
        items = [(f"{path}[{i}]", v) for i, v in enumerate(value)]
        out = [(path, type(value).__name__ + f"/{len(value)}")]
        for p, v in items:
            out += _flatten(v, p)
        return out
    return [(path, value)]


def _is_tensor(x):
    return hasattr(x, "detach") and hasattr(x, "dtype") and hasattr(x, "shape")


def _ulps(a, b):
    """Largest distance in units in the last place between float arrays `a` and `b` (same dtype)."""
    if a.dtype.kind != "f":
        return 0 if np.array_equal(a, b) else float("inf")
    itype = {8: np.int64, 4: np.int32, 2: np.int16}[a.dtype.itemsize]
    ai = a.view(itype).astype(np.int64)
    bi = b.view(itype).astype(np.int64)
    # Map sign-magnitude bit patterns onto a monotonic integer line.
    top = np.int64(1) << (8 * a.dtype.itemsize - 1)
    ai = np.where(ai < 0, -(ai + top), ai)
    bi = np.where(bi < 0, -(bi + top), bi)
    both_nan = np.isnan(a) & np.isnan(b)
    d = np.where(both_nan, 0, np.abs(ai - bi))
    return int(d.max()) if d.size else 0


def compare_tensor(what, t, m, strides=True, grad_fn=True):
    """Differences between torch tensor `t` and minigrad tensor `m` (dtype, shape, strides, bits, grad_fn)."""
    issues = []
    if t is None or m is None:
        if (t is None) != (m is None):
            issues.append(f"{what}: torch {'None' if t is None else 'tensor'} vs minigrad "
                          f"{'None' if m is None else 'tensor'}")
        return issues
    if str(t.dtype) != str(m.dtype):
        issues.append(f"{what}: dtype {t.dtype} vs {m.dtype}")
        return issues
    if tuple(t.shape) != tuple(m.shape):
        issues.append(f"{what}: shape {tuple(t.shape)} vs {tuple(m.shape)}")
        return issues
    if strides and t.numel() > 1 and tuple(t.stride()) != tuple(m.stride()):
        issues.append(f"{what}: strides {t.stride()} vs {m.stride()}")
    a, b = to_numpy(t), to_numpy(m)
    if not np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"):
        u = _ulps(a, b)
        scale = float(np.nanmax(np.abs(a))) if a.size else 0.0
        diff = float(np.nanmax(np.abs(a - b))) if a.dtype.kind in "fc" else float("inf")
        # Rounding-level: within a few ulps of the largest value (summation order); marked "~" so the
        # triage can tell it from wrong values.
        eps = float(np.finfo(a.dtype).eps) if a.dtype.kind in "fc" else 0.0
        mark = "~" if diff <= 64 * eps * max(scale, np.finfo(a.dtype).tiny if eps else 0) else ""
        issues.append(f"{mark}{what}: values differ, max {u} ulps (max |diff| {diff:.3g}, "
                      f"max |torch| {scale:.3g})")
    if grad_fn:
        tn = t.grad_fn.name() if t.grad_fn is not None else None
        mn = m.grad_fn.name() if m.grad_fn is not None else None
        if tn != mn:
            issues.append(f"{what}: grad_fn {tn} vs {mn}")
        if t.requires_grad != m.requires_grad:
            issues.append(f"{what}: requires_grad {t.requires_grad} vs {m.requires_grad}")
    return issues


def compare_outputs(what, t_out, m_out):
    issues = []
    tf, mf = _flatten(t_out, what), _flatten(m_out, what)
    if [p for p, _ in tf] != [p for p, _ in mf]:
        return [f"{what}: structure {[(p, _kind(v)) for p, v in tf]} vs {[(p, _kind(v)) for p, v in mf]}"]
    for (p, tv), (_, mv) in zip(tf, mf):
        if _is_tensor(tv) or _is_tensor(mv):
            if not (_is_tensor(tv) and _is_tensor(mv)):
                issues.append(f"{p}: {_kind(tv)} vs {_kind(mv)}")
            else:
                issues += compare_tensor(p, tv, mv)
        elif isinstance(tv, str):
            if tv != mv:
                issues.append(f"{p}: {tv} vs {mv}")
        elif tv != mv and not (tv is None and mv is None):
            issues.append(f"{p}: {tv!r} vs {mv!r}")
    return issues


def _kind(v):
    return "tensor" if _is_tensor(v) else type(v).__name__


def _leaf_tensors(value):
    """Tensors inside nested args/kwargs, in order."""
    if _is_tensor(value):
        return [value]
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in _leaf_tensors(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _leaf_tensors(v)]
    return []


# -------------------------------------------------------------------------------------------------------- run
def _convert_ctor(value, mg):
    """convert(), plus torch functions (an `activation=F.gelu` argument) as minigrad's of the same name."""
    if isinstance(value, (tuple, list)):
        return type(value)(_convert_ctor(v, mg) for v in value)
    if isinstance(value, dict):
        return {k: _convert_ctor(v, mg) for k, v in value.items()}
    if callable(value) and not isinstance(value, type) and not hasattr(value, "parameters") and \
            (getattr(value, "__module__", "") or "").startswith("torch"):
        name = value.__name__
        for ns in (mg.nn.functional, mg):
            if hasattr(ns, name):
                return getattr(ns, name)
    return convert(value)


def _construct(mi, ctor, torch, mg):
    """(torch module, minigrad module) built from the same constructor input with the same seed."""
    mcls = getattr(mg.nn, mi.module_cls.__name__)
    torch.manual_seed(SEED)
    tm = mi.module_cls(*ctor.args, **ctor.kwargs)
    mg.manual_seed(SEED)
    mm = mcls(*_convert_ctor(ctor.args, mg), **_convert_ctor(ctor.kwargs, mg))
    return tm, mm


def _call(mod, fwd, conv):
    args, kwargs = (convert(fwd.args), convert(fwd.kwargs)) if conv else (fwd.args, fwd.kwargs)
    return mod(*args, **kwargs), args, kwargs


def run_case(name, index, dtype_name="float64", training=True, check_repr=True, inputs=None):
    """Differences between torch and minigrad on ModuleInput `index` of module `name` (list of strings).

    `inputs`: module_inputs() made once by the caller (the input's leaf .grad is reset first)."""
    import torch

    import minigrad as mg

    mi = module_info(name)
    if inputs is None:
        mod_input = module_inputs(mi, dtype_name, training)[index]
    else:
        mod_input = inputs[index]
        for t in _leaf_tensors((mod_input.forward_input.args, mod_input.forward_input.kwargs)):
            if t.is_leaf:
                t.grad = None
    ctor, fwd = mod_input.constructor_input, mod_input.forward_input
    issues = []
    try:
        tm, mm = _construct(mi, ctor, torch, mg)
    except Exception as e:  # torch's inputs are valid: a failure is minigrad's
        return [f"construct: {type(e).__name__}: {e}"]
    if check_repr and repr(tm) != repr(mm):
        issues.append(f"repr: {repr(tm)!r} vs {repr(mm)!r}")
    tdt, mdt = getattr(torch, dtype_name), getattr(mg, dtype_name)
    tm.to(tdt)
    mm.to(mdt)
    tm.train(training)
    mm.train(training)
    if mi.is_lazy:
        # The first forward materializes the parameters (random init): run it once on both, report differences
        # in the initial values, then continue like any other module (the class has become the eager one).
        with torch.no_grad():
            torch.manual_seed(SEED)
            _call(tm, fwd, False)
        with mg.no_grad():
            mg.manual_seed(SEED)
            _call(mm, fwd, True)
        for (k, tv), (_, mv) in zip(tm.state_dict().items(), mm.state_dict().items()):
            issues += [f"lazy init {i}" for i in compare_tensor(k, tv, mv, strides=False, grad_fn=False)]
        if repr(tm) != repr(mm):
            issues.append(f"repr after lazy init: {repr(tm)!r} vs {repr(mm)!r}")
    tsd, msd = tm.state_dict(), mm.state_dict()
    tkeys = [(k, tuple(v.shape), str(v.dtype)) for k, v in tsd.items()]
    mkeys = [(k, tuple(v.shape), str(v.dtype)) for k, v in msd.items()]
    if tkeys != mkeys:
        issues.append(f"state_dict: {tkeys} vs {mkeys}")
        if [k for k, _, _ in tkeys] != [k for k, _, _ in mkeys]:
            return issues
    if not mi.is_lazy:
        for k, tv in tsd.items():  # values from the same seed: minigrad follows PyTorch's init bits in places
            d = compare_tensor(k, tv, msd[k], strides=False, grad_fn=False)
            if d:
                issues.append(f"init (seeded) {d[0]}")
    mm.load_state_dict(convert(tsd))

    # forward
    torch.manual_seed(SEED + 1)
    try:
        t_out, t_args, t_kwargs = _call(tm, fwd, False)
    except Exception as e:   # (a refusal, e.g. "not implemented for 'Half'": minigrad must raise the same)
        mg.manual_seed(SEED + 1)
        try:
            _call(mm, fwd, True)
        except Exception as me:
            if (type(me).__name__, str(me)) == (type(e).__name__, str(e)):
                return issues
            return issues + [f"forward raised {type(me).__name__}: {me} vs torch's {type(e).__name__}: {e}"]
        return issues + [f"torch forward raised {type(e).__name__}: {e} (minigrad did not)"]
    mg.manual_seed(SEED + 1)
    try:
        m_out, m_args, m_kwargs = _call(mm, fwd, True)
    except Exception as e:
        return issues + [f"forward: {type(e).__name__}: {e}"]
    issues += compare_outputs("out", t_out, m_out)
    for (k, tv), (_, mv) in zip(tm.named_buffers(), mm.named_buffers()):
        issues += compare_tensor(f"buffer {k} after forward", tv, mv, strides=False, grad_fn=False)

    # backward with a seeded grad_output on every differentiable output
    t_outs = [v for _, v in _flatten(t_out) if _is_tensor(v)]
    m_outs = [v for _, v in _flatten(m_out) if _is_tensor(v)]
    if len(t_outs) != len(m_outs):
        return issues
    pairs = [(t, m) for t, m in zip(t_outs, m_outs) if t.requires_grad and m.requires_grad]
    if not pairs:
        return issues
    g = torch.Generator().manual_seed(SEED + 2)
    grads_t = [torch.randn(t.shape, generator=g, dtype=torch.float64).to(t.dtype) for t, _ in pairs]
    grads_m = [convert(x) for x in grads_t]
    try:
        torch.autograd.backward([t for t, _ in pairs], grads_t)
    except Exception as e:
        return issues + [f"torch backward raised {type(e).__name__}: {e}"]
    try:
        mg.autograd.backward([m for _, m in pairs], grads_m)
    except Exception as e:
        return issues + [f"backward: {type(e).__name__}: {e}"]
    for (k, tp), (_, mp) in zip(tm.named_parameters(), mm.named_parameters()):
        issues += compare_tensor(f"{k}.grad", tp.grad, mp.grad, grad_fn=False)
    for i, (ta, ma) in enumerate(zip(_leaf_tensors((t_args, t_kwargs)), _leaf_tensors((m_args, m_kwargs)))):
        if ta.requires_grad and ta.is_leaf:
            issues += compare_tensor(f"input {i}.grad", ta.grad, ma.grad, grad_fn=False)
    return issues


def error_inputs(mi, dtype_name="float64", training=True):
    import torch

    if mi.module_error_inputs_func is None:
        return []
    return mi.module_error_inputs_func(mi, device="cpu", dtype=getattr(torch, dtype_name), requires_grad=True,
                                       training=training)


def run_error_case(name, index, dtype_name="float64", training=True):
    """Differences in the exception (type, message, when) of error input `index` of module `name`."""
    import torch

    import minigrad as mg

    mi = module_info(name)
    err = error_inputs(mi, dtype_name, training)[index]
    mod_input = err.module_error_input
    ctor, fwd = mod_input.constructor_input, mod_input.forward_input

    def attempt(lib_torch):
        lib = torch if lib_torch else mg
        stage = "construct"
        try:
            lib.manual_seed(SEED)
            cls = mi.module_cls if lib_torch else getattr(mg.nn, mi.module_cls.__name__)
            args, kwargs = (ctor.args, ctor.kwargs) if lib_torch else (_convert_ctor(ctor.args, mg),
                                                                       _convert_ctor(ctor.kwargs, mg))
            mod = cls(*args, **kwargs)
            mod.to(getattr(lib, dtype_name))
            mod.train(training)
            stage = "forward"
            if fwd is not None:
                _call(mod, fwd, not lib_torch)
        except Exception as e:
            return stage, type(e).__name__, str(e)
        return None, None, None

    t, m = attempt(True), attempt(False)
    if t == m:
        return []
    if t[0] is None:
        return [f"torch raised nothing, minigrad raised at {m[0]}: {m[1]}: {m[2]}"]
    if m[0] is None:
        return [f"minigrad raised nothing; torch at {t[0]}: {t[1]}: {t[2]!r}"]
    return [f"torch at {t[0]}: {t[1]}: {t[2]!r}\n      minigrad at {m[0]}: {m[1]}: {m[2]!r}"]


# --------------------------------------------------------------------------------------------------------- CLI
def main(argv):
    import torch

    dtypes = ["float64", "float32"]
    if "--dtype" in argv:
        i = argv.index("--dtype")
        dtypes = [argv[i + 1]]
        argv = argv[:i] + argv[i + 2:]
    errors_only = "--errors-only" in argv
    show_ok = "--ok" in argv
    names = [a for a in argv if not a.startswith("--")]
    infos = _module_infos()
    if names:
        infos = [mi for mi in infos if mi.module_cls.__name__ in names]
    quiet_round = "--quiet-round" in argv
    n_ok = n_bad = n_round = 0
    for mi in infos:
        name = mi.module_cls.__name__
        if not errors_only:
            for dt in dtypes:
                if getattr(torch, dt) not in mi.dtypes and dt not in _HALF_DTYPES:
                    continue
                for training in training_flags(mi):
                    n = len(module_inputs(mi, dt, training))
                    for idx in range(n):
                        key = f"{name} #{idx} {dt} {'train' if training else 'eval'}"
                        try:
                            issues = run_case(name, idx, dt, training)
                        except Exception as e:  # the sweep itself must go on
                            issues = [f"sweep crashed: {type(e).__name__}: {e}"]
                        if issues and all(s.startswith("~") for s in issues):
                            n_round += 1
                            if not quiet_round:
                                print(f"ROUND {key}: " + "; ".join(s[1:].split(" (")[0] for s in issues)[:300])
                        elif issues:
                            n_bad += 1
                            print(f"DIFF {key}")
                            for s in issues:
                                print("    " + s[:600])
                        else:
                            n_ok += 1
                            if show_ok:
                                print(f"OK   {key}")
        for idx in range(len(error_inputs(mi))):
            key = f"{name} error #{idx}"
            try:
                issues = run_error_case(name, idx)
            except Exception as e:
                issues = [f"sweep crashed: {type(e).__name__}: {e}"]
            if issues:
                n_bad += 1
                print(f"DIFF {key}")
                for s in issues:
                    print("    " + s[:600])
            else:
                n_ok += 1
                if show_ok:
                    print(f"OK   {key}")
        sys.stdout.flush()
    print(f"{n_ok} match, {n_round} differ by rounding only, {n_bad} differ")


if __name__ == "__main__":
    main(sys.argv[1:])
