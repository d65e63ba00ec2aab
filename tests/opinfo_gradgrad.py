"""Second-order sweep of PyTorch's OpInfo database: gradients of gradients on PyTorch's own samples.

tests/opinfo_sweep.py compares forward results and first gradients. This sweep takes every OpInfo that supports
double backward (`supports_gradgrad`) and whose function minigrad has, and for each sample in float64 (then
complex128 where the op's backward supports it):

1. first gradients: ``autograd.grad(outputs, inputs, grad_outputs=seeded, create_graph=True, allow_unused=True)``
   -- compared: errors (type + message), None-ness, values, dtype, requires_grad and the first grads' grad_fn
   names (the top nodes of the double-backward graph);
2. second gradients of a seeded weighted sum of the first grads, sum_i <w_i, g_i> (the weights passed as
   grad_outputs), w.r.t. the inputs and the first grad_outputs (``allow_unused=True``) -- compared: errors,
   None-ness, values, dtype.

Usage (from /work/main, with the venv python):
    python tests/opinfo_gradgrad.py                   # every op, float64 and complex128
    python tests/opinfo_gradgrad.py sin nn.functional.gelu --dtype float64 --chunk 1/4
One line per difference: ``op<TAB>dtype<TAB>#sample<TAB>what`` (``--show`` prints the samples' arguments).
The helpers (resolving torch callables to minigrad's, converting samples, comparing results) are opinfo_sweep's.
"""
from __future__ import annotations

import argparse
import io
import os
import signal
import sys
import types
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import opinfo_sweep as sweep  # noqa: E402  (puts the repo on sys.path, imports torch and minigrad)
import torch  # noqa: E402
from opinfo_sweep import (  # noqa: E402
    Skip,
    _differentiable,
    _err,
    _short,
    _tensors,
    compare_outputs,
    convert,
    op_label,
    rebind,
    resolve,
)

import minigrad  # noqa: E402

DTYPES = ("float64", "complex128")


def _grad(lib, outputs, inputs, grad_outputs, create_graph):
    """(grads, None) or (None, exception) of lib.autograd.grad (allow_unused)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return lib.autograd.grad(outputs, inputs, grad_outputs=grad_outputs, create_graph=create_graph,
                                     allow_unused=True), None
    except sweep._Timeout:
        raise
    except Exception as e:  # noqa: BLE001 - the exception is what we compare
        return None, e


def _compare_errors(stage, t_err, m_err):
    """Difference lines when either side raised (None when neither did)."""
    if t_err is None and m_err is None:
        return None
    if t_err is None:
        return [f"{stage}: minigrad raised {_short(_err(m_err))}"]
    if m_err is None:
        return [f"{stage}: no error; torch raised {_short(_err(t_err))}"]
    if _err(t_err) != _err(m_err):
        return [f"{stage}: error {_short(_err(m_err))} vs {_short(_err(t_err))}"]
    return []


def _compare_grads(stage, m_grads, t_grads, grad_fn):
    diffs = []
    for i, (m, t) in enumerate(zip(m_grads, t_grads)):
        if (m is None) != (t is None):
            diffs.append(f"{stage}[{i}]: {'None' if m is None else 'tensor'} vs {'None' if t is None else 'tensor'}")
        elif t is not None:
            if t._is_zerotensor():  # (torch's lazy zeros, e.g. d/dx of abs's sgn(x): they print as zeros)
                t = torch.zeros_like(t)
            diffs += compare_outputs(m, t, f"{stage}[{i}]", grad_fn=grad_fn)
    return diffs


def _seeded_like(tensors, gen, requires_grad):
    """Seeded standard-normal tensors shaped as `tensors` (torch's, and the same values for minigrad)."""
    out = [torch.randn(t.shape, dtype=t.dtype, generator=gen) for t in tensors]
    if requires_grad:
        out = [g.requires_grad_() for g in out]
    return out, [convert(g) for g in out]


def _processed(proc, out, lib_name):
    if proc is None:
        return out
    if lib_name == "minigrad" and isinstance(proc, types.FunctionType):
        try:
            proc = rebind(proc)
        except Exception:  # noqa: BLE001 - no re-binding possible: torch's function on minigrad values
            pass
    return proc(out)


def gradgrad_sample(op, fn, sample, idx):
    """Difference lines of one sample: first grads (create_graph) then second grads."""
    seed = 2000 + idx
    t_args = (sample.input, *sample.args)
    t_kwargs = dict(sample.kwargs)
    m_args, m_kwargs = convert(t_args), convert(t_kwargs)
    t_inputs = [t for t in _tensors((t_args, t_kwargs)) if t.requires_grad]
    m_inputs = [t for t in _tensors((m_args, m_kwargs)) if t.requires_grad]
    if not t_inputs:
        return []
    sweep._seeded(seed)
    t_out, t_err = sweep._call(op.op, t_args, t_kwargs)
    sweep._seeded(seed)
    m_out, m_err = sweep._call(fn, m_args, m_kwargs)
    d = _compare_errors("forward", t_err, m_err)
    if d is not None:
        return d
    try:
        t_o = _processed(sample.output_process_fn_grad, t_out, "torch")
    except Exception as e:  # noqa: BLE001
        return [f"torch output_process_fn_grad raised {_short(_err(e))}"]
    try:
        m_o = _processed(sample.output_process_fn_grad, m_out, "minigrad")
    except Exception as e:  # noqa: BLE001
        return [f"output_process_fn_grad raised {_short(_err(e))}"]
    t_all, m_all = _tensors(t_o), _tensors(m_o)
    if len(m_all) != len(t_all):
        return [f"forward: {len(m_all)} output tensors vs {len(t_all)}"]
    keep = [_differentiable(t) for t in t_all]
    t_outs = [t for t, k in zip(t_all, keep) if k]
    m_outs = [m for m, k in zip(m_all, keep) if k]
    if not t_outs:
        return []
    # 1. first gradients, recorded (create_graph) so that they can be differentiated again
    gen = torch.Generator().manual_seed(seed)
    t_go, m_go = _seeded_like(t_outs, gen, requires_grad=True)
    t_g1, t_err = _grad(torch, t_outs, t_inputs, t_go, True)
    m_g1, m_err = _grad(minigrad, m_outs, m_inputs, m_go, True)
    d = _compare_errors("grad", t_err, m_err)
    if d is not None:
        return d
    diffs = _compare_grads("grad", m_g1, t_g1, grad_fn=True)
    # 2. second gradients of sum_i <w_i, g_i> over the first grads that are part of a graph (torch's choice)
    pick = [i for i, g in enumerate(t_g1) if g is not None and g.requires_grad]
    if not pick:
        return diffs
    if any(m_g1[i] is None for i in pick):
        return diffs + ["gradgrad: not run (a first grad is None in minigrad)"]
    t_g1p, m_g1p = [t_g1[i] for i in pick], [m_g1[i] for i in pick]
    t_w, m_w = _seeded_like(t_g1p, gen, requires_grad=False)
    t_g2, t_err = _grad(torch, t_g1p, t_inputs + t_go, t_w, False)
    m_g2, m_err = _grad(minigrad, m_g1p, m_inputs + m_go, m_w, False)
    d = _compare_errors("gradgrad", t_err, m_err)
    if d is not None:
        return diffs + d
    return diffs + _compare_grads("gradgrad", m_g2, t_g2, grad_fn=False)


def gradgrad_op(op, dtypes, out, max_samples=None, only_sample=None, show=False):
    """Run one OpInfo over the dtypes; write difference lines to `out`; return (samples run, differences)."""
    if not (op.supports_autograd and op.supports_gradgrad) or op.op is None:
        return 0, 0
    try:
        fn = resolve(op.op)
    except Skip:
        return 0, 0
    except Exception:  # noqa: BLE001
        return 0, 0
    label = op_label(op)
    backward = {str(d).removeprefix("torch.") for d in op.supported_backward_dtypes("cpu")}
    n_run = n_diff = 0
    for dtype_name in dtypes:
        if dtype_name not in backward:
            continue
        torch.manual_seed(0)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                samples = op.sample_inputs("cpu", getattr(torch, dtype_name), requires_grad=True)
        except Exception as e:  # noqa: BLE001
            print(f"{label}\t{dtype_name}\t-\tsample_inputs raised {_short(_err(e))}", file=out)
            continue
        for idx, sample in sweep._enumerate_safely(samples, max_samples):
            if only_sample is not None and idx != only_sample:
                continue
            if show:
                print(f"{label} {dtype_name} #{idx}: {sample.summary() if hasattr(sample, 'summary') else sample}",
                      file=out)
            signal.signal(signal.SIGALRM, sweep._alarm)
            signal.alarm(sweep.SAMPLE_TIMEOUT)
            try:
                diffs = gradgrad_sample(op, fn, sample, idx)
            except sweep._Timeout:
                diffs = [f"timeout after {sweep.SAMPLE_TIMEOUT}s"]
            except Exception as e:  # noqa: BLE001 - a crash of the sweep itself is a finding too
                diffs = [f"sweep crashed: {_short(_err(e))}"]
            finally:
                signal.alarm(0)
            for d in diffs:
                print(f"{label}\t{dtype_name}\t#{idx}\t{d}", file=out, flush=True)
            n_diff += len(diffs)
            n_run += 1
    return n_run, n_diff


def gradgrad_lines(label, dtype_name, max_samples=None, only_sample=None):
    """(samples run, difference lines) of one op and dtype: what the CLI prints, as a list (for tests)."""
    buf = io.StringIO()
    n_run, _ = gradgrad_op(sweep.op_by_label(label), [dtype_name], buf, max_samples, only_sample)
    return n_run, buf.getvalue().splitlines()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("names", nargs="*", help="op name prefixes (OpInfo name[.variant_test_name])")
    p.add_argument("--exact", action="store_true", help="names are exact, not prefixes")
    p.add_argument("--dtype", action="append", help=f"dtype(s) to run (default: {', '.join(DTYPES)})")
    p.add_argument("--max-samples", type=int, default=None)
    p.add_argument("--sample", type=int, default=None, help="run only this sample index")
    p.add_argument("--show", action="store_true", help="print each sample's arguments")
    p.add_argument("--chunk", default=None, help="I/N: run only the I-th of N slices of the selected ops (1-based)")
    a = p.parse_args(argv)
    ops = sweep.select_ops(a.names, a.exact)
    if a.chunk:
        i, n = (int(x) for x in a.chunk.split("/"))
        ops = ops[i - 1::n]
    total_run = total_diff = n_ops = 0
    for op in ops:
        n_run, n_diff = gradgrad_op(op, a.dtype or list(DTYPES), sys.stdout, a.max_samples, a.sample, a.show)
        if n_run:
            n_ops += 1
            print(f"# {op_label(op)}: {n_run} samples, {n_diff} differences", file=sys.stderr, flush=True)
        total_run += n_run
        total_diff += n_diff
    print(f"# {n_ops} ops run, {total_run} samples, {total_diff} differences", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
