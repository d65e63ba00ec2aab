"""Sweep minigrad.optim against PyTorch's own optimizer test database (``optim_db``, common_optimizers.py).

For every OptimizerInfo whose class minigrad has, every configuration PyTorch tests on the CPU (its
``optim_inputs_func`` plus the foreach / fused / differentiable variants of ``supported_impls``), and a few dtypes,
both libraries build the same parameters (several shapes, a 0-d one, one without a gradient), take the same seeded
gradients for a few steps (a closure for LBFGS) and must agree bit for bit on:

* the parameters after every step, ``optimizer.state`` (keys in order, values, dtypes, ``step``);
* ``state_dict()`` (saved midway, loaded into a fresh optimizer that keeps stepping), ``param_groups``, repr;
* the schedulers of ``scheduler_inputs`` (lr after each step, get_last_lr(), state_dict());
* errors and warnings of ``optim_error_inputs_func`` (type, message; warnings' text and category), and the
  CUDA-only configurations run on the CPU (the same error, or the same values).

Run by hand (the test file tests/test_parity_optiminfo.py keeps a curated list):
    .venv/bin/python tests/optiminfo_sweep.py [--optim Adam,SGD] [--dtypes float32,float64,complex64] [-v]
"""
from __future__ import annotations

import argparse
import copy
import os
import sys
import traceback
import types
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import torch  # noqa: E402
from torch_testing_db import convert, import_db, to_numpy  # noqa: E402

import minigrad as mg  # noqa: E402

STEPS = 5
RELOAD_AT = 3   # after this step the optimizer is saved and replaced by a fresh one loading its state_dict
SHAPES = [(2, 3), (), (4,), (3,)]   # the last one gets no gradient
MUON_SHAPES = [(2, 3), (3, 2), (4, 4), (2, 2)]


class Mismatch(AssertionError):
    pass


# ---- comparing values -------------------------------------------------------------------------------------
def _bits(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    return a.view(np.uint8) if a.size else a


def ulps(a: np.ndarray, b: np.ndarray) -> float:
    """Largest distance in units in the last place between two float (or complex) arrays of one dtype."""
    if np.iscomplexobj(a):
        return max(ulps(a.real, b.real), ulps(a.imag, b.imag))
    if a.dtype == np.float64:
        it = np.int64
    elif a.dtype == np.float32:
        it = np.int32
    elif a.dtype == np.float16:
        it = np.int16
    else:
        return float("nan")
    def key(x):
        i = np.ascontiguousarray(x).view(it).astype(np.int64)
        return np.where(i < 0, np.iinfo(it).min - i, i)
    if a.size == 0:
        return 0.0
    return float(np.max(np.abs(key(a) - key(b))))


def compare(t, m, path: str = "") -> None:
    """Raise Mismatch where torch object `t` and minigrad object `m` differ (tensors bit for bit)."""
    if isinstance(t, torch.Tensor):
        if not isinstance(m, mg.Tensor):
            raise Mismatch(f"{path}: torch Tensor, minigrad {type(m).__name__} {m!r}")
        if str(t.dtype) != str(m.dtype).replace("minigrad", "torch"):
            raise Mismatch(f"{path}: dtype {t.dtype} vs {m.dtype}")
        if tuple(t.shape) != tuple(m.shape):
            raise Mismatch(f"{path}: shape {tuple(t.shape)} vs {tuple(m.shape)}")
        if t.is_sparse or m.is_sparse:
            t, m = t.to_dense(), m.to_dense()
        a, b = to_numpy(t), to_numpy(m)
        if a.dtype.kind in "fc" and a.size:   # (NaNs match NaNs whatever their sign and payload bits)
            nan_a, nan_b = np.isnan(a), np.isnan(b)
            if np.array_equal(nan_a, nan_b) and nan_a.any():
                a, b = np.where(nan_a, 0, a).astype(a.dtype), np.where(nan_b, 0, b).astype(b.dtype)
        if not np.array_equal(_bits(a), _bits(b)):
            raise Mismatch(f"{path}: values differ by {ulps(a, b)} ulp (max |diff| "
                           f"{np.max(np.abs(a.astype(np.complex128) - b.astype(np.complex128)))})")
        if t.requires_grad != m.requires_grad:
            raise Mismatch(f"{path}: requires_grad {t.requires_grad} vs {m.requires_grad}")
        return
    if isinstance(t, dict):
        if not isinstance(m, dict):
            raise Mismatch(f"{path}: dict vs {type(m).__name__}")
        if list(t.keys()) != list(m.keys()):
            raise Mismatch(f"{path}: keys {list(t.keys())} vs {list(m.keys())}")
        for k in t:
            compare(t[k], m[k], f"{path}[{k!r}]")
        return
    if isinstance(t, (list, tuple)):
        if type(t).__name__ != type(m).__name__ or len(t) != len(m):
            raise Mismatch(f"{path}: {type(t).__name__}[{len(t)}] vs {type(m).__name__}"
                           f"[{len(m) if hasattr(m, '__len__') else '-'}]")
        for i, (x, y) in enumerate(zip(t, m)):
            compare(x, y, f"{path}[{i}]")
        return
    if isinstance(t, torch.dtype):
        if str(t) != str(m).replace("minigrad", "torch"):
            raise Mismatch(f"{path}: {t} vs {m}")
        return
    if type(t) is not type(m):
        raise Mismatch(f"{path}: {type(t).__name__} {t!r} vs {type(m).__name__} {m!r}")
    if isinstance(t, float) and t != t and m != m:
        return
    if t != m:
        raise Mismatch(f"{path}: {t!r} vs {m!r}")


# ---- running the same program in both libraries ---------------------------------------------------------------
def _lib_dtype(lib, dtype: str):
    return getattr(lib, dtype)


def make_params(dtype: str, shapes, requires_grad: bool = True):
    """The same parameters in both libraries: (torch list, minigrad list)."""
    g = torch.Generator().manual_seed(0)
    tp = []
    for shape in shapes:
        tp.append(torch.randn(shape, generator=g, dtype=getattr(torch, dtype)).requires_grad_(requires_grad))
    mp = [convert(p.detach(), mg).requires_grad_(requires_grad) for p in tp]
    return tp, mp


def set_grads(tp, mp, step: int, sparse: bool = False) -> None:
    g = torch.Generator().manual_seed(100 + step)
    for i, (a, b) in enumerate(zip(tp, mp)):
        if i == len(tp) - 1 and len(tp) > 1:   # the last parameter never gets a gradient
            a.grad, b.grad = None, None
            continue
        grad = torch.randn(a.shape, generator=g, dtype=a.dtype)
        if sparse:
            if grad.dim() == 0:
                a.grad, b.grad = None, None
                continue
            grad = grad.to_sparse()
            a.grad = grad
            b.grad = convert(grad.to_dense(), mg).to_sparse()
        else:
            a.grad = grad
            b.grad = convert(grad, mg)


def closure_for(lib, params):
    """A loss whose gradient LBFGS can follow: sum over parameters of Σ w·|p|² + Σ p (real or complex)."""
    def closure():
        for p in params:
            p.grad = None
        loss = 0
        for i, p in enumerate(params[:-1]):
            r = lib.view_as_real(p) if p.is_complex() else p
            loss = loss + ((r * r) * (0.5 + i)).sum() + (r * 0.25).sum()
        loss.backward()
        return loss
    return closure


def run_both(fn_torch, fn_mg):
    """Run both; return ((value or exception), warnings) per library."""
    out = []
    for fn in (fn_torch, fn_mg):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                value = fn()
            except Exception as e:  # noqa: BLE001
                value = e
        out.append((value, [(x.category.__name__, str(x.message)) for x in w]))
    return out


def compare_outcomes(a, b, what: str) -> bool:
    """Same exception (type, message) or both fine; same warnings. Returns whether both raised."""
    (va, wa), (vb, wb) = a, b
    ea, eb = isinstance(va, Exception), isinstance(vb, Exception)
    if ea or eb:
        if not (ea and eb):
            raise Mismatch(f"{what}: torch {'raised ' + repr(va) if ea else 'ok'}, minigrad "
                           f"{'raised ' + repr(vb) if eb else 'ok'}"
                           + ("\n" + "".join(traceback.format_exception(vb))[-1500:] if eb else ""))
        if type(va).__name__ != type(vb).__name__ or str(va) != str(vb):
            raise Mismatch(f"{what}: torch {type(va).__name__}({va}) vs minigrad {type(vb).__name__}({vb})")
    if wa != wb:
        raise Mismatch(f"{what}: warnings {wa} vs {wb}")
    return ea


def _cls(info):
    return getattr(mg.optim, info.optim_cls.__name__, None)


def run_config(info, kwargs: dict, dtype: str, steps: int = STEPS, reload_at: int = RELOAD_AT) -> None:
    """One optimizer configuration: steps, state, state_dict round trip, param_groups, repr."""
    name = info.optim_cls.__name__
    tcls, mcls = info.optim_cls, _cls(info)
    differentiable = bool(kwargs.get("differentiable"))
    shapes = MUON_SHAPES if name == "Muon" else SHAPES
    # (a differentiable step runs in grad mode: its in-place update of a leaf requiring grad is refused, in both)
    tp, mp = make_params(dtype, shapes, requires_grad=not differentiable)
    tk, mk = copy.deepcopy(kwargs), convert(kwargs, mg)
    res = run_both(lambda: tcls(tp, **tk), lambda: mcls(mp, **mk))
    if compare_outcomes(*res, "constructor"):
        return
    topt, mopt = res[0][0], res[1][0]
    compare(topt.defaults, mopt.defaults, "defaults")
    compare(topt.param_groups, mopt.param_groups, "param_groups")
    compare(topt.state_dict(), mopt.state_dict(), "state_dict before any step")
    if repr(topt) != repr(mopt):
        raise Mismatch(f"repr:\n{topt!r}\nvs\n{mopt!r}")
    sparse = info.only_supports_sparse_grads
    for step in range(1, steps + 1):
        if info.step_requires_closure:
            res = run_both(lambda o=topt: o.step(closure_for(torch, tp)), lambda o=mopt: o.step(closure_for(mg, mp)))
        else:
            set_grads(tp, mp, step, sparse)
            res = run_both(topt.step, mopt.step)
        if compare_outcomes(*res, f"step {step}"):
            return
        if info.step_requires_closure:
            compare(res[0][0], res[1][0], f"step {step} loss")
        compare(tp, mp, f"params after step {step}")
        compare([topt.state.get(p) for p in tp], [mopt.state.get(p) for p in mp], f"state after step {step}")
        if step == reload_at:
            tsd, msd = topt.state_dict(), mopt.state_dict()
            compare(tsd, msd, f"state_dict after step {step}")
            tsd, msd = copy.deepcopy(tsd), copy.deepcopy(msd)
            topt, mopt = tcls(tp, **copy.deepcopy(kwargs)), mcls(mp, **convert(kwargs, mg))
            res = run_both(lambda o=topt, sd=tsd: o.load_state_dict(sd), lambda o=mopt, sd=msd: o.load_state_dict(sd))
            if compare_outcomes(*res, "load_state_dict"):
                return
            compare(topt.param_groups, mopt.param_groups, "param_groups after load")
            compare([topt.state.get(p) for p in tp], [mopt.state.get(p) for p in mp], "state after load")
            if repr(topt) != repr(mopt):
                raise Mismatch(f"repr after load:\n{topt!r}\nvs\n{mopt!r}")
    compare(topt.state_dict(), mopt.state_dict(), "final state_dict")


def _minigrad_lambda(fn):
    """A copy of a scheduler_inputs lambda whose scheduler names resolve to minigrad's classes."""
    g = dict(fn.__globals__)
    for name in list(g):
        obj = g[name]
        if isinstance(obj, type) and getattr(obj, "__module__", "").startswith("torch.optim.lr_scheduler"):
            g[name] = getattr(mg.optim.lr_scheduler, name)
    return types.FunctionType(fn.__code__, g, fn.__name__, fn.__defaults__, fn.__closure__)


def run_schedulers(info, kwargs: dict, sched_fns, dtype: str = "float32", steps: int = 6) -> None:
    """An optimizer driven by the schedulers of one scheduler_inputs entry: lrs, get_last_lr(), state_dict()."""
    tcls, mcls = info.optim_cls, _cls(info)
    shapes = MUON_SHAPES if info.optim_cls.__name__ == "Muon" else SHAPES
    tp, mp = make_params(dtype, shapes)
    topt, mopt = tcls(tp, **copy.deepcopy(kwargs)), mcls(mp, **convert(kwargs, mg))
    res = run_both(lambda: [f(topt) for f in sched_fns], lambda: [_minigrad_lambda(f)(mopt) for f in sched_fns])
    if compare_outcomes(*res, "scheduler constructors"):
        return
    tsch, msch = res[0][0], res[1][0]
    compare(topt.param_groups, mopt.param_groups, "param_groups after scheduler constructors")
    for step in range(1, steps + 1):
        set_grads(tp, mp, step)
        if info.step_requires_closure:
            topt.step(closure_for(torch, tp)), mopt.step(closure_for(mg, mp))
        else:
            topt.step(), mopt.step()
        for i, (ts, ms) in enumerate(zip(tsch, msch)):
            res = run_both(lambda s=ts: _scheduler_step(s), lambda s=ms: _scheduler_step(s))
            if compare_outcomes(*res, f"scheduler {i} step {step}"):
                return
            compare(ts.get_last_lr(), ms.get_last_lr(), f"scheduler {i} get_last_lr() after step {step}")
            compare(ts.state_dict(), ms.state_dict(), f"scheduler {i} state_dict after step {step}")
        compare(topt.param_groups, mopt.param_groups, f"param_groups after step {step}")
        compare(tp, mp, f"params after step {step}")


def _scheduler_step(scheduler):
    """One scheduler step; ReduceLROnPlateau gets a metric that never improves (it cuts the lr after `patience`)."""
    return scheduler.step(1.0) if type(scheduler).__name__ == "ReduceLROnPlateau" else scheduler.step()


def _convert_param(x, memo=None):
    """Parameters of an error input in minigrad (one tensor given twice stays one tensor)."""
    memo = {} if memo is None else memo
    if isinstance(x, torch.Tensor):
        if id(x) not in memo:
            memo[id(x)] = _convert_tensor(x)
        return memo[id(x)]
    if isinstance(x, (list, tuple)):
        return type(x)(_convert_param(v, memo) for v in x)
    if isinstance(x, dict):
        return {k: _convert_param(v, memo) for k, v in x.items()}
    return x


def _convert_tensor(x):
    if x.is_sparse:
        return convert(x.to_dense(), mg).to_sparse()
    m = convert(x.detach(), mg).requires_grad_(x.requires_grad)
    if isinstance(x, torch.nn.Parameter):
        m = mg.nn.Parameter(m, requires_grad=x.requires_grad)
    if x.grad is not None:
        m.grad = convert(x.grad, mg)
    return m


def run_error_input(info, err) -> None:
    """An ErrorOptimizerInput: the constructor (or the step) fails, or warns, as PyTorch's."""
    tcls, mcls = info.optim_cls, _cls(info)
    oi = err.optimizer_error_input
    tparams, mparams = oi.params, _convert_param(oi.params)
    tk, mk = oi.kwargs, convert(oi.kwargs, mg)
    res = run_both(lambda: tcls(tparams, **tk), lambda: mcls(mparams, **mk))
    if compare_outcomes(*res, f"constructor ({oi.desc})"):
        return
    res = run_both(lambda: res[0][0].step(), lambda: res[1][0].step())
    compare_outcomes(*res, f"step ({oi.desc})")


# ---- the case lists -----------------------------------------------------------------------------------------
def optim_infos(names=None):
    out = []
    for info in import_db("optim_db"):
        name = info.optim_cls.__name__
        if _cls(info) is None or names and name not in names:
            continue
        out.append(info)
    return out


def config_inputs(info, dtype: str):
    """Every configuration PyTorch tests on the CPU, with the foreach / fused / differentiable variants."""
    from torch.testing._internal.common_optimizers import _get_optim_inputs_including_global_cliquey_kwargs
    inputs = _get_optim_inputs_including_global_cliquey_kwargs("cpu", getattr(torch, dtype), info)
    if dtype == "float16":   # (as optim_inputs_func does for float16: a larger eps)
        for oi in inputs:
            if "eps" in info.optim_cls.__init__.__code__.co_varnames:
                oi.kwargs.setdefault("eps", 0.1)
    return inputs


def cuda_only_inputs(info, dtype: str):
    """The configurations PyTorch tests on CUDA only (capturable ...), to be run on the CPU."""
    cpu = {oi.desc for oi in info.optim_inputs_func("cpu", getattr(torch, dtype))}
    try:
        cuda = info.optim_inputs_func("cuda", getattr(torch, dtype))
    except Exception:  # noqa: BLE001
        return []
    return [oi for oi in cuda if oi.desc not in cpu]


def dtypes_for(info, dtypes):
    return [d for d in dtypes if not (d.startswith("complex") and (not info.supports_complex
                                                                    or info.only_supports_sparse_grads))]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--optim", default="")
    ap.add_argument("--dtypes", default="float32,float64,complex64")
    ap.add_argument("--only", default="configs,cuda,schedulers,errors")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args(argv)
    names = set(args.optim.split(",")) if args.optim else None
    only = set(args.only.split(","))
    total = failed = 0

    def attempt(label, fn):
        nonlocal total, failed
        total += 1
        try:
            fn()
            if args.v:
                print("ok  ", label)
        except Mismatch as e:
            failed += 1
            print("FAIL", label, "\n    ", str(e).replace("\n", "\n     "))
        except Exception as e:  # noqa: BLE001  (a crash of the harness itself, or of a library outside a step)
            failed += 1
            print("CRASH", label, type(e).__name__, str(e)[:300])
            if args.v:
                traceback.print_exc()

    for info in optim_infos(names):
        name = info.optim_cls.__name__
        for dtype in dtypes_for(info, args.dtypes.split(",")):
            if "configs" in only:
                for i, oi in enumerate(config_inputs(info, dtype)):
                    attempt(f"{name} {dtype} config {i} ({oi.desc}) {oi.kwargs}",
                            lambda oi=oi, info=info, dtype=dtype: run_config(info, oi.kwargs, dtype))
            if "cuda" in only:
                for i, oi in enumerate(cuda_only_inputs(info, dtype)):
                    attempt(f"{name} {dtype} cuda-config {i} ({oi.desc}) {oi.kwargs}",
                            lambda oi=oi, info=info, dtype=dtype: run_config(info, oi.kwargs, dtype))
        if "schedulers" in only and not info.only_supports_sparse_grads:
            base = info.optim_inputs_func("cpu", torch.float32)[0].kwargs
            for i, fns in enumerate(info.scheduler_inputs):
                attempt(f"{name} schedulers {i}", lambda fns=fns, info=info, base=base: run_schedulers(info, base, fns))
        if "errors" in only and info.optim_error_inputs_func is not None:
            for i, err in enumerate(info.optim_error_inputs_func("cpu", torch.float32)):
                attempt(f"{name} error {i} ({err.optimizer_error_input.desc})",
                        lambda err=err, info=info: run_error_input(info, err))
    print(f"{total - failed}/{total} match")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
