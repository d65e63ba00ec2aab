"""viz on PyTorch's own OpInfo sample inputs: the backward graph of a loss of each op's outputs, drawn from PyTorch
and from minigrad, must give the same DOT texts and stepper frames.

For each (op, sample) of a curated list (ops of tests/test_parity_opinfo.py whose drawings match), the sample's
arguments are copied for each library the same way (tests/torch_testing_db.convert: same values, strides,
requires_grad, versions), the op runs (tests/opinfo_sweep.py resolves minigrad's function), and a scalar loss is
built: sum over the differentiable outputs of (output · seeded weights).sum() (the real part for complex outputs).
With ``double``, the loss is instead Σ g·g over the create_graph=True gradients g of that loss with respect to the
sample's leaves: the double-backward graph, made of the ops' backward formulas. viz draws the loss (saved tensors and
attributes shown; and in the forward direction with folding), steps through its backward with BackwardStepper
(every frame's text, a sample of the frames' DOT sources), then draws it again after backward. The texts are
compared as tests/viz/test_viz_graph_fuzz.py compares a fuzz program's (close numbers are not differences).

``python tests/viz/test_viz_opinfo.py [--double] [OP ...]`` runs the ops of test_parity_opinfo.CASES (or the named
ops), 2 samples each, and prints each difference.
"""

from __future__ import annotations

import sys
import types
import warnings
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: opinfo_sweep, torch_testing_db
sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests/viz/: test_viz_graph_fuzz

from test_viz_graph_fuzz import KINDS, MAX_FRAMES, NO_RENDERER, _err, crashes, differences  # noqa: E402

import viz  # noqa: E402


def _build(lib, fn, proc, t_args, t_kwargs, seed: int, double: bool):
    """(loss, {name: tensor}) of one sample run with library ``lib``, or None (no differentiable output)."""
    import opinfo_sweep as S
    import torch
    from torch_testing_db import convert

    # (torch's copy goes through the same conversion as minigrad's: the same versions of the leaves)
    args, kwargs = convert((t_args, t_kwargs), lib)
    leaves = S._leaves((args, kwargs))
    names = {f"in{i}": t for i, t in enumerate(leaves)}
    S._seeded(seed)
    out = fn(*args, **kwargs)
    if proc is not None:
        out = proc(out)
    outs = [t for t in S._tensors(out) if S._differentiable(t)]
    if not outs:
        return None
    gen = torch.Generator().manual_seed(seed)
    loss = None
    for o in outs:
        w = torch.randn(tuple(o.shape), dtype=getattr(torch, str(o.dtype).split(".")[-1]), generator=gen)
        term = (o * convert(w, lib)).sum()
        term = term.real if term.is_complex() else term
        loss = term if loss is None else loss + term
    if double:
        grads = lib.autograd.grad(loss, leaves, create_graph=True, allow_unused=True)
        grads = [g for g in grads if g is not None and g.requires_grad]
        if not grads:
            return None
        names.update({f"g{i}": g for i, g in enumerate(grads)})
        loss = None
        for g in grads:
            term = (g * g.conj()).real.sum() if g.is_complex() else (g * g).sum()
            loss = term if loss is None else loss + term
    return loss, names


def render(lib, fn, proc, t_args, t_kwargs, seed: int, double: bool) -> dict | None:
    """Every text viz produces for the sample's loss built with ``lib``: {what: text}."""
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        built = _build(lib, fn, proc, t_args, t_kwargs, seed, double)
        if built is None:
            return None
        loss, names = built
        for kind, kw in KINDS.items():
            try:
                out[kind] = viz.draw([loss], names=names, auto_names=False, **kw).source
            except Exception as e:  # noqa: BLE001 - viz must draw whatever the library built
                out[kind] = "viz crashed: " + _err(e)
        loss, names = _build(lib, fn, proc, t_args, t_kwargs, seed, double)  # (a fresh graph for the stepper)
        try:
            st = viz.BackwardStepper(loss, names=names, show_saved=True, engine=NO_RENDERER)
        except Exception as e:  # noqa: BLE001 - the library's own backward error: must match too
            out["stepper"] = "error: " + _err(e)
            return out
        out["stepper"] = "\n\n".join(f.text for f in st.frames)
        n = len(st.frames)
        shown = range(n) if n <= MAX_FRAMES else sorted({0, 1, 2, n // 3, n // 2, 2 * n // 3, n - 2, n - 1})
        for k in shown:
            out[f"stepper/frame{k}"] = st.drawing(k).source
        try:  # after backward: gradients shown, saved values freed
            out["after"] = viz.draw([loss], names=names, auto_names=False, **KINDS["saved"]).source
        except Exception as e:  # noqa: BLE001
            out["after"] = "viz crashed: " + _err(e)
    return out


def check(label: str, dtype: str = "float64", samples=(0,), double: bool = False) -> list[tuple[int, list[str]]]:
    """[(sample index, differences and viz crashes)] of the op's samples (those with a differentiable output)."""
    import opinfo_sweep as S
    import torch

    import minigrad

    op = S.op_by_label(label)
    fns, _ = S.resolve_variants(op)
    assert "op" in fns and op.supports_autograd, label
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sample_list = op.sample_inputs("cpu", getattr(torch, dtype), requires_grad=True)
    results = []
    for idx, sample in S._enumerate_safely(sample_list, max(samples) + 1):
        if idx not in samples:
            continue
        t_args, t_kwargs = (sample.input, *sample.args), dict(sample.kwargs)
        proc = sample.output_process_fn_grad
        m_proc = S.rebind(proc) if isinstance(proc, types.FunctionType) else proc
        theirs = render(torch, op.op, proc, t_args, t_kwargs, 1000 + idx, double)
        mine = render(minigrad, fns["op"], m_proc, t_args, t_kwargs, 1000 + idx, double)
        if theirs is None and mine is None:
            continue
        if theirs is None or mine is None:
            results.append((idx, [f"a loss only in {'minigrad' if theirs is None else 'torch'}"]))
            continue
        results.append((idx, differences(mine, theirs) + crashes(mine) + crashes(theirs)))
    return results


# (op, samples) whose first-order graphs draw the same: unary, binary with broadcasting, reductions, views and
# index ops, shape ops over lists, linalg, nn.functional layers and losses, special functions
CASES = [
    ("abs", (0,)), ("add", (0, 1)), ("addmm.decomposed", (0,)), ("amax", (0,)), ("as_strided", (0,)),
    ("atan", (0,)), ("block_diag", (0,)), ("bmm", (0,)), ("cat", (1,)), ("chunk", (0,)), ("clamp", (0,)),
    ("combinations", (0, 1)), ("cross", (0,)), ("cummax", (0,)), ("cumulative_trapezoid", (0, 1)), ("diag_embed", (0,)),
    ("diagflat", (0, 1)), ("diff", (0,)), ("dist", (0,)), ("einsum", (0,)), ("expand", (0,)), ("flip", (0,)),
    ("float_power", (0,)), ("gather", (0,)), ("index_add", (0,)), ("index_put", (0,)), ("kron", (0,)),
    ("linalg.det", (0,)), ("linalg.inv", (0,)), ("linalg.multi_dot", (0,)), ("log_softmax", (0,)),
    ("masked_scatter", (0,)), ("max.binary", (0,)), ("median", (0,)), ("nn.functional.bilinear", (0,)),
    ("nn.functional.binary_cross_entropy", (0,)), ("nn.functional.cosine_similarity", (0,)),
    ("nn.functional.embedding", (0,)), ("nn.functional.glu", (0,)), ("nn.functional.interpolate.bilinear", (0,)),
    ("nn.functional.kl_div", (0,)), ("nn.functional.linear", (0,)), ("nn.functional.local_response_norm", (0,)),
    ("nn.functional.mish", (0,)), ("nn.functional.nll_loss", (0,)), ("nn.functional.normalize", (0,)),
    ("nn.functional.pad.circular", (0,)), ("nn.functional.prelu", (0,)), ("nn.functional.unfold", (0,)),
    ("polar", (0,)), ("pow", (0,)), ("prod", (0,)), ("repeat", (0,)), ("scatter_reduce.prod", (0,)),
    ("softmax", (0,)), ("special.i1", (0,)), ("split", (0,)), ("stack", (0,)),
    ("take_along_dim", (0,)), ("topk", (0,)), ("unbind", (0,)), ("unfold", (0,)), ("view_as_complex", (0,)),
    ("where", (0,)), ("xlogy", (0,)),
]
# double backward (create_graph=True): the backward formulas' own graphs
DOUBLE = [
    ("atanh", (0,)), ("cumulative_trapezoid", (0,)), ("exp", (0,)), ("mul", (0,)), ("linalg.inv", (0,)),
    ("nn.functional.mish", (0,)), ("nn.functional.silu", (0,)), ("nn.functional.softplus", (0,)),
    ("log_softmax", (0,)), ("sin", (0,)), ("tanh", (0,)), ("div.no_rounding_mode", (0,)),
    ("pow", (0,)), ("softmax", (0,)), ("nn.functional.cosine_similarity", (0,)), ("special.i1e", (0,)),
    ("nn.functional.binary_cross_entropy", (0,)), ("nn.functional.binary_cross_entropy_with_logits", (0,)),
]


@pytest.mark.parametrize("label,samples", CASES, ids=[c[0] for c in CASES])
def test_opinfo_backward_graph_draws_the_same(label, samples):
    pytest.importorskip("torch")
    results = check(label, samples=samples)
    assert results and all(not d for _i, d in results), "\n".join(f"#{i}:\n" + "\n".join(d) for i, d in results)


@pytest.mark.parametrize("label,samples", DOUBLE, ids=[c[0] for c in DOUBLE])
def test_opinfo_double_backward_graph_draws_the_same(label, samples):
    pytest.importorskip("torch")
    results = check(label, samples=samples, double=True)
    assert results and all(not d for _i, d in results), "\n".join(f"#{i}:\n" + "\n".join(d) for i, d in results)


if __name__ == "__main__":  # pragma: no cover - a manual sweep
    double = "--double" in sys.argv
    labels = [a for a in sys.argv[1:] if not a.startswith("--")]
    if not labels:
        from test_parity_opinfo import CASES as PARITY_CASES

        labels = [c for c, d in PARITY_CASES if d == "float64"]
    import opinfo_sweep as S

    for lab in labels:
        op = S.op_by_label(lab)
        if "op" not in S.resolve_variants(op)[0] or not op.supports_autograd:
            continue
        try:
            res = check(lab, samples=(0, 1), double=double)
        except Exception as e:  # noqa: BLE001 - a crash of the harness is a finding too
            print(f"### {lab}: harness crash {_err(e)[:300]}")
            continue
        for i, d in res:
            print(f"### {lab} #{i}\n" + "\n".join(x[:1500] for x in d) if d else f"ok {lab} #{i}", flush=True)
