"""Sweep PyTorch's OpInfo database (op_db) through forward-mode AD: tangents of minigrad vs PyTorch.

For every OpInfo whose function minigrad has, each of PyTorch's sample inputs (float64, then complex128 where the
op supports it) runs inside ``forward_ad.dual_level()`` with its floating inputs that require grad made dual
(seeded tangents, the same values on both sides); a second case makes only the first of them dual. Every output
is ``unpack_dual``-ed: primal and tangent are compared (values, dtype, shape, strides, None-ness), and so are
errors (type + message: "Trying to use forward AD with X that does not support it", ...). The in-place variant
runs on a non-dual self with dual arguments, then on a dual self. For ops with ``supports_fwgrad_bwgrad``, the
output tangents are back-propagated (seeded grad_outputs) to the primals and tangents that require grad, and
those grads are compared (reverse over forward, as PyTorch's gradgrad-style checks).

Usage (from /work/main, with the venv python):
    python tests/opinfo_fwdad.py                        # every op, float64 + complex128
    python tests/opinfo_fwdad.py sin mul --exact --dtype float64 --sample 3 --show
    python tests/opinfo_fwdad.py --chunk 2/8            # the 2nd of 8 slices of the ops
One line per difference: ``op<TAB>dtype<TAB>#sample<TAB>what differs``. Values are compared with a relative
tolerance (``--rtol``, default 1e-9: tangents are sums of products whose rounding order may differ); ``--rtol 0``
asks for bit equality.
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import opinfo_sweep as sw  # noqa: E402 - (puts the repo on sys.path, imports torch and minigrad)
import torch  # noqa: E402
from opinfo_sweep import _err, _fresh, _short, _tensors, compare_outputs, op_label, select_ops  # noqa: E402
from torch_testing_db import convert, to_numpy  # noqa: E402

import minigrad  # noqa: E402

DTYPES = ("float64", "complex128")
RTOL = [1e-9]


def _close(mine, theirs) -> bool:
    """Values equal up to RTOL (relative to the largest magnitude of torch's tensor), NaNs where NaNs."""
    try:
        a, b = to_numpy(mine), to_numpy(theirs)
    except Exception:  # noqa: BLE001 - compare_outputs reports it
        return False
    if RTOL[0] == 0 or a.shape != b.shape or a.size == 0:
        return False
    with np.errstate(all="ignore"):
        finite = np.isfinite(b)
        scale = float(np.max(np.abs(b[finite]))) if finite.any() else 0.0
        return bool(np.allclose(a, b, rtol=RTOL[0], atol=RTOL[0] * scale, equal_nan=True))


def compare_tensor(mine, theirs, path):
    """compare_outputs of two tensors (or None), values within RTOL counting as equal."""
    if theirs is None or mine is None:
        if (theirs is None) != (mine is None):
            return [f"{path}: {'None' if mine is None else 'tensor'} vs {'None' if theirs is None else 'tensor'}"]
        return []
    if not isinstance(theirs, torch.Tensor) or not isinstance(mine, minigrad.Tensor):
        return compare_outputs(mine, theirs, path, grad_fn=False)
    if theirs._is_zerotensor() and minigrad._is_zerotensor(mine):  # (both lazy: compare them as plain zeros)
        mine = mine.clone()
    if theirs._is_zerotensor():  # (PyTorch's lazy all-zero gradient: its values, laid out as minigrad's)
        theirs = torch.zeros_strided(mine.shape, mine.stride(), dtype=theirs.dtype) if hasattr(
            torch, "zeros_strided") else torch.empty_strided(mine.shape, mine.stride(), dtype=theirs.dtype).zero_()
    sw._VALUES[0] = not _close(mine, theirs)
    try:
        return compare_outputs(mine, theirs, path, grad_fn=False)
    finally:
        sw._VALUES[0] = True


def _replace(x, table):
    """`x` (nested tuples/lists/dicts) with each tensor whose id is in `table` replaced by table[id]."""
    if id(x) in table:
        return table[id(x)]
    if isinstance(x, tuple) and not hasattr(x, "_fields"):
        return tuple(_replace(v, table) for v in x)
    if isinstance(x, list):
        return [_replace(v, table) for v in x]
    if isinstance(x, dict):
        return {k: _replace(v, table) for k, v in x.items()}
    return x


def _float_like(t):
    return t.dtype.is_floating_point or t.dtype.is_complex


def _run(lib, fn, args, kwargs, dual_ids, tangents, back_grads, seed):
    """One side: inside a dual level make `args`' tensors at positions `dual_ids` dual, call `fn`, unpack.

    Returns dict(err=exception or None, outs=[(primal, tangent)] per output tensor, grads=[...] or None,
    back_err=...). `back_grads` (a function of the output tangents' list -> grad_outputs, or None) turns on the
    backward through the tangents, whose .grad are collected from the primals then the tangents.
    """
    fwAD = lib.autograd.forward_ad
    res = {"err": None, "outs": None, "grads": None, "back_err": None}
    flat = _tensors((args, kwargs))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with fwAD.dual_level():
            try:
                table = {}
                for i, tan in zip(dual_ids, tangents):
                    if id(flat[i]) not in table:
                        table[id(flat[i])] = fwAD.make_dual(flat[i], tan)
                a, k = _replace((args, kwargs), table)
                sw._seeded(seed)
                out = fn(*a, **k)
                res["outs"] = [tuple(fwAD.unpack_dual(o)) if isinstance(o, lib.Tensor) else (o, None)
                               for o in _tensors(out)]
                res["self"] = tuple(fwAD.unpack_dual(a[0])) if a and isinstance(a[0], lib.Tensor) else None
                res["out_is_self"] = bool(a) and out is a[0]
            except sw._Timeout:
                raise
            except Exception as e:  # noqa: BLE001 - the error is what we compare
                res["err"] = e
                return res
            if back_grads is not None:
                tans = [t for _, t in res["outs"] if t is not None and t.requires_grad]
                leaves = [flat[i] for i in dual_ids if flat[i].requires_grad] + [t for t in tangents
                                                                                   if t.requires_grad]
                for t in leaves:
                    t.grad = None
                if tans:
                    try:
                        lib.autograd.backward(tans, back_grads(tans))
                    except sw._Timeout:
                        raise
                    except Exception as e:  # noqa: BLE001
                        res["back_err"] = e
                    res["grads"] = [t.grad for t in leaves]
                res["n_back"] = len(tans)
    return res


def _compare_runs(m, t, what, report):
    """Report the differences between minigrad's run `m` and torch's `t` (prefixing each line with `what`)."""
    if t["err"] is not None or m["err"] is not None:
        if t["err"] is None:
            report(f"{what}: minigrad raised {_short(_err(m['err']))}")
        elif m["err"] is None:
            report(f"{what}: no error; torch raised {_short(_err(t['err']))}")
        elif _err(t["err"]) != _err(m["err"]):
            report(f"{what}: error {_short(_err(m['err']))} vs {_short(_err(t['err']))}")
        return False
    if len(m["outs"]) != len(t["outs"]):
        report(f"{what}: {len(m['outs'])} output tensors vs {len(t['outs'])}")
        return False
    for i, ((mp, mt), (tp, tt)) in enumerate(zip(m["outs"], t["outs"])):
        for d in compare_tensor(mp, tp, f"out[{i}].primal") + compare_tensor(mt, tt, f"out[{i}].tangent"):
            report(f"{what}: {d}")
    return True


def _compare_back(m, t, what, report):
    if t.get("n_back") != m.get("n_back"):
        report(f"{what}: {m.get('n_back')} tangents requiring grad vs {t.get('n_back')}")
        return
    te, me = t["back_err"], m["back_err"]
    if te is not None or me is not None:
        if te is None:
            report(f"{what}: minigrad raised {_short(_err(me))}")
        elif me is None:
            report(f"{what}: no error; torch raised {_short(_err(te))}")
        elif _err(te) != _err(me):
            report(f"{what}: error {_short(_err(me))} vs {_short(_err(te))}")
        return
    for i, (mg, tg) in enumerate(zip(m["grads"] or [], t["grads"] or [])):
        for d in compare_tensor(mg, tg, f"grad[{i}]"):
            report(f"{what}: {d}")


def _tangents(t_flat, ids, seed, requires_grad):
    gen = torch.Generator().manual_seed(seed)
    t_tans = [torch.randn(t_flat[i].shape, dtype=t_flat[i].dtype, generator=gen) for i in ids]
    m_tans = [convert(x) for x in t_tans]
    if requires_grad:
        for x in t_tans + m_tans:
            x.requires_grad_(True)
    return t_tans, m_tans


def _grad_outputs(seed, mg):
    """grad_outputs for the backward through the tangents: seeded randn of each tangent's shape and dtype."""
    def make(tans):
        gen = torch.Generator().manual_seed(seed)
        gs = [torch.randn(x.shape, dtype=getattr(torch, str(x.dtype).split(".")[-1]), generator=gen) for x in tans]
        return [convert(g) for g in gs] if mg else gs
    return make


def run_sample(op, fns, sample, idx, report, bwd):
    seed = 2000 + idx
    t_args = (sample.input, *sample.args)
    t_kwargs = dict(sample.kwargs)
    t_ref = _fresh((t_args, t_kwargs))
    if "op" in fns:
        t_flat = _tensors((t_args, t_kwargs))
        ids = [i for i, x in enumerate(t_flat) if x.requires_grad and _float_like(x)]
        if ids:
            for case, chosen in (("all", ids), ("first", ids[:1])):
                if case == "first" and len(ids) == 1:
                    continue
                do_back = bwd and case == "all"
                t_a, t_k = (t_args, t_kwargs)
                m_a, m_k = convert((t_args, t_kwargs))
                t_tans, m_tans = _tangents(t_flat, chosen, seed, do_back)
                t_res = _run(torch, op.op, t_a, t_k, chosen, t_tans, _grad_outputs(seed + 1, False)
                             if do_back else None, seed)
                m_res = _run(minigrad, fns["op"], m_a, m_k, chosen, m_tans, _grad_outputs(seed + 1, True)
                             if do_back else None, seed)
                ok = _compare_runs(m_res, t_res, f"fwd[{case}]", report)
                if ok and do_back:
                    _compare_back(m_res, t_res, "bwd-of-tangent", report)
    if "inplace" in fns:
        # self non-dual, dual arguments; then self dual too
        for case in ("args", "self+args"):
            t_a, t_k = _fresh((t_ref[0], t_ref[1]))
            if not t_a or not isinstance(t_a[0], torch.Tensor) or not _float_like(t_a[0]):
                return
            m_a, m_k = convert((t_a, t_k))
            t_flat = _tensors((t_a, t_k))
            ids = [i for i, x in enumerate(t_flat) if _float_like(x) and (case != "args" or x is not t_a[0])]
            if case == "args" and not ids:
                continue
            t_tans, m_tans = _tangents(t_flat, ids, seed, False)
            t_res = _run(torch, op.inplace_variant, t_a, t_k, ids, t_tans, None, seed)
            m_res = _run(minigrad, fns["inplace"], m_a, m_k, ids, m_tans, None, seed)
            if _compare_runs(m_res, t_res, f"inplace[{case}]", report):
                if m_res["out_is_self"] != t_res["out_is_self"]:
                    report(f"inplace[{case}]: returns self {m_res['out_is_self']} vs {t_res['out_is_self']}")
                (mp, mt), (tp, tt) = m_res["self"], t_res["self"]
                for d in compare_tensor(mp, tp, "self.primal") + compare_tensor(mt, tt, "self.tangent"):
                    report(f"inplace[{case}]: {d}")


def sweep_op(op, dtypes, out, only_sample=None, show=False, max_samples=None):
    label = op_label(op)
    fns, _ = sw.resolve_variants(op)
    fns.pop("method", None)
    if not fns or not op.supports_autograd:
        return 0, 0
    supported = {str(d).removeprefix("torch.") for d in op.supported_dtypes("cpu")}
    n_run = n_diff = 0
    for dtype_name in dtypes:
        if dtype_name not in supported:
            continue
        torch.manual_seed(0)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                samples = list(op.sample_inputs("cpu", getattr(torch, dtype_name), requires_grad=True))
        except Exception as e:  # noqa: BLE001
            print(f"{label}\t{dtype_name}\t-\tsample_inputs raised {_short(_err(e))}", file=out)
            continue
        for idx, sample in enumerate(samples):
            if max_samples is not None and idx >= max_samples:
                break
            if only_sample is not None and idx != only_sample:
                continue
            if show:
                print(f"{label} {dtype_name} #{idx}: {sample.summary() if hasattr(sample, 'summary') else sample}",
                      file=out)

            def report(what, _idx=idx, _dt=dtype_name):
                nonlocal n_diff
                n_diff += 1
                print(f"{label}\t{_dt}\t#{_idx}\t{what}", file=out, flush=True)

            signal.signal(signal.SIGALRM, sw._alarm)
            signal.alarm(sw.SAMPLE_TIMEOUT)
            try:
                run_sample(op, fns, sample, idx, report, op.supports_fwgrad_bwgrad)
            except sw._Timeout:
                report(f"timeout after {sw.SAMPLE_TIMEOUT}s")
            except Exception as e:  # noqa: BLE001 - a crash of the sweep itself is a finding too
                report(f"sweep crashed: {_short(_err(e))}")
            finally:
                signal.alarm(0)
            n_run += 1
    return n_run, n_diff


def sweep_lines(label, dtype_name, max_samples=None, only_sample=None):
    """(samples run, difference lines) of one op and dtype, as the CLI prints them (for tests)."""
    import io
    buf = io.StringIO()
    n_run, _ = sweep_op(sw.op_by_label(label), [dtype_name], buf, only_sample, False, max_samples)
    return n_run, buf.getvalue().splitlines()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("names", nargs="*", help="op name prefixes (OpInfo name[.variant_test_name])")
    p.add_argument("--exact", action="store_true", help="names are exact, not prefixes")
    p.add_argument("--dtype", action="append", help=f"dtype(s) to run (default: {', '.join(DTYPES)})")
    p.add_argument("--sample", type=int, default=None, help="run only this sample index")
    p.add_argument("--max-samples", type=int, default=None)
    p.add_argument("--show", action="store_true", help="print each sample's arguments")
    p.add_argument("--chunk", default=None, help="I/N: run only the I-th of N slices of the selected ops (1-based)")
    p.add_argument("--rtol", type=float, default=RTOL[0], help="relative tolerance of values (0: bit-equal)")
    a = p.parse_args(argv)
    RTOL[0] = a.rtol
    ops = select_ops(a.names, a.exact)
    if a.chunk:
        i, n = (int(x) for x in a.chunk.split("/"))
        ops = ops[i - 1::n]
    total_run = total_diff = 0
    for op in ops:
        n_run, n_diff = sweep_op(op, a.dtype or list(DTYPES), sys.stdout, a.sample, a.show, a.max_samples)
        if n_run:
            print(f"# {op_label(op)}: {n_run} samples, {n_diff} differences", file=sys.stderr, flush=True)
        total_run += n_run
        total_diff += n_diff
    print(f"# {len(ops)} ops, {total_run} samples, {total_diff} differences", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
