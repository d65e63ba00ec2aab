"""Generated autograd programs drawn by viz from PyTorch and from minigrad: the same DOT text, frame for frame.

``tests/fuzz_graphs.py`` writes random programs (``generate(seed)``: tensor ops, views, in-place ops, create_graph;
``generate(seed, "nn")``: torch.nn.functional layers, losses, module chains). Each program runs with each library
and viz draws what it built: every named tensor of the program as an output (saved tensors, their attributes and
constants shown) before backward, in the backward and the forward direction with a small node cap (folding);
the program's own backward (and create_graph double backward) runs, then everything is drawn again (saved values
freed, gradients shown); a second run steps through ``out.backward()`` with BackwardStepper (each frame's text and
DOT source). The texts must be identical.

A seed whose graphs the graph fuzzer finds different too is skipped: the difference is explained by its KNOWN /
NN_KNOWN lists (test_parity_graph_fuzz.py), or it is the graph fuzzer's to report. Numbers that are close (rounding
noise in the fourth digit or around zero, which the graph fuzzer compares with a tolerance) do not differ; the
values of saved tensors PyTorch leaves unwritten (UNWRITTEN) and the strides of empty ones are not compared.
Everything else fails: a viz bug, or a difference only the drawing shows (which tensors share memory, versions of
saved tensors, the order backward runs the nodes in: sequence numbers).

``python tests/viz/test_viz_graph_fuzz.py FIRST COUNT [--nn] [--svg]`` runs many seeds and prints each difference
(``--svg``: also render every PyTorch drawing through Graphviz).
"""

from __future__ import annotations

import difflib
import functools
import math
import re
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: fuzz_graphs, test_parity_graph_fuzz

import fuzz_graphs as F  # noqa: E402
from parity import torch_or_skip  # noqa: E402

import viz  # noqa: E402

NO_RENDERER = "none-such"  # the stepper tries to render its first frame; the DOT text is what is compared
MAX_FRAMES = 12  # frames whose DOT source is compared (a sample of long backward passes); texts: all
KINDS = {
    "saved": dict(show_attrs=True, show_constants=True, color_grads=True),
    "forward": dict(direction="forward", show_attrs=True, max_nodes=6),
}


def _err(e: BaseException) -> str:
    return f"{type(e).__name__}: {F._ADDR.sub('0x?', str(e))}"


def _tensors(module, ns: dict, names) -> dict:
    return {n: ns[n] for n in names if n in ns and isinstance(ns[n], module.Tensor)}


def _draw(out: dict, tag: str, tensors: dict) -> None:
    """DOT sources of the named tensors (each drawn as an output, its graph behind it), one per view kind."""
    if not tensors:
        return
    for kind, kw in KINDS.items():
        try:
            d = viz.draw(list(tensors.values()), names=tensors, auto_names=False, **kw)
            out[f"{tag}/{kind}"] = d.source
        except Exception as e:  # noqa: BLE001 - viz must draw whatever the library built
            out[f"{tag}/{kind}"] = "viz crashed: " + _err(e)


def _run_lines(module, prog, ns: dict, out: dict) -> bool:
    for i, line in enumerate(prog.lines):
        try:
            exec(line, ns)
        except Exception as e:  # noqa: BLE001 - both libraries fail alike (the graph fuzzer checks the message)
            out["error"] = f"line {i}: {_err(e)}"
            return False
    return True


def render(module, prog: F.Program) -> dict:
    """Every text viz produces for the program run with ``torch`` bound to ``module``: {what: text}."""
    out: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ns = {"torch": module, "D": prog.data}
        ok = _run_lines(module, prog, ns, out)
        _draw(out, "before", _tensors(module, ns, prog.names))
        if not ok or not prog.final:
            return out
        for line in prog.final:
            try:
                exec(line, ns)
            except Exception as e:  # noqa: BLE001
                out["final_error"] = _err(e)
                break
        extra = {f"G[{k}]": g for k, g in enumerate(ns.get("G", ())) if g is not None}
        _draw(out, "after", {**_tensors(module, ns, [*prog.names, "out", "S"]), **extra})
        # The stepper, on a fresh run: out.backward() one node at a time.
        ns = {"torch": module, "D": prog.data}
        _run_lines(module, prog, ns, {})
        try:
            exec(prog.final[0], ns)
        except Exception as e:  # noqa: BLE001 - (already compared as final_error)
            out["stepper"] = "error: " + _err(e)
            return out
        root = ns["out"]
        if not isinstance(root, module.Tensor) or root.grad_fn is None:
            return out
        named = _tensors(module, ns, prog.names)
        try:
            st = viz.BackwardStepper(root, names=named, show_saved=True, engine=NO_RENDERER)
        except Exception as e:  # noqa: BLE001 - the library's own backward error: must match too
            out["stepper"] = "error: " + _err(e)
            return out
        out["stepper"] = "\n\n".join(f.text for f in st.frames)
        n = len(st.frames)
        shown = range(n) if n <= MAX_FRAMES else sorted({0, 1, 2, n // 3, n // 2, 2 * n // 3, n - 2, n - 1})
        for k in shown:
            out[f"stepper/frame{k}"] = st.drawing(k).source
    return out


# -- comparing ------------------------------------------------------------------------------------------------------

_NUMBER = r"[-+]?(?:\d+\.?\d*(?:e[-+]?\d+)?|nan|inf)(?:[-+](?:\d+\.?\d*(?:e[-+]?\d+)?|nan|inf)j)?"
_TOKEN = re.compile(rf"(?<![\w.])(?P<num>{_NUMBER})(?![\w.])|\w+|.", re.S)
_END = {"<", ">", "\n", '"'}  # where a value preview ends (an HTML label row, an edge label, a line of text)


def _close(a: str, b: str) -> bool:
    """Two printed numbers (4 significant digits, complex 3) that differ by rounding noise only."""
    try:
        x, y = complex(a.replace("inf", "Infinity")), complex(b.replace("inf", "Infinity"))
    except ValueError:
        return False
    rtol = 1e-2 if "j" in a + b else 2e-3  # (complex values print with 3 significant digits)
    for u, v in ((x.real, y.real), (x.imag, y.imag)):
        if u == v or (math.isnan(u) and math.isnan(v)):
            continue
        if math.isinf(u) or math.isinf(v) or math.isnan(u) or math.isnan(v):
            return False
        if abs(u - v) > rtol * max(abs(u), abs(v)) and abs(u - v) > 1e-5:
            return False
    return True


def _tokens(text: str) -> list[tuple[str, bool]]:
    return [(m.group(0), m.group("num") is not None) for m in _TOKEN.finditer(text)]


def _same_but_rounding(a: str, b: str) -> bool:
    """Identical texts but for close numbers, and what they move: where a value preview is cut ("…")."""
    ta, tb = _tokens(a), _tokens(b)
    i = j = 0
    while i < len(ta) and j < len(tb):
        (x, xn), (y, yn) = ta[i], tb[j]
        if x == y or (xn and yn and _close(x, y)):
            i, j = i + 1, j + 1
            continue
        cut = (i + 1 < len(ta) and ta[i + 1][0] == "…") or (j + 1 < len(tb) and tb[j + 1][0] == "…")
        if (xn and yn and not cut) or (x[0].isalpha() and not xn) or (y[0].isalpha() and not yn):
            return False  # (different numbers, or words: "None" against a preview)
        # Past this point the two previews may differ only if one was cut short: skip both to their ends.
        ei = next((k for k in range(i, len(ta)) if ta[k][0] in _END), len(ta))
        ej = next((k for k in range(j, len(tb)) if tb[k][0] in _END), len(tb))
        if not any(t == "…" for t, _ in ta[i:ei] + tb[j:ej]):
            return False
        i, j = ei, ej
    return i == len(ta) and j == len(tb)


_COLOR = re.compile(r'(fillcolor|tooltip)="[^"]*"')


# Saved tensors PyTorch never (fully) writes: uninitialised memory, different on each run (the graph fuzzer skips
# them too), so their values are not compared: (program regex, the saved value's label).
UNWRITTEN = [
    (r"rrelu_?\([^\n]*training=False|RReLU", "noise"),  # rrelu in eval mode: an empty_like noise
    (r"ctc_loss\(", "result1"),  # ctc_loss's log_alpha past each sample's input and target lengths
]


# Differences only the drawing shows that cannot reasonably match: (regex every differing text's diff matches,
# regex the program matches, why). A seed showing one is skipped.
VIZ_KNOWN = [
    (r"^stepper:\n(  [-+]sends to input \d+ \(no grad needed\): [^\n]*\n?|  @@[^\n]*\n?)*$",
     r"(stack|cat)\((.|\n)*complex|complex(.|\n)*(stack|cat)\(",
     "stack/cat of complex and real tensors: PyTorch's formula returns the real part for a real input even where "
     "no gradient is needed (a node post hook sees it); minigrad's engine takes the real part only on edges that "
     "need a gradient"),
]


_SIZES = re.compile(r"\b(\w*)(?:_sym_sizes|size) = \(([^)]*)\)")


def _empty_layouts(line: str) -> str:
    """A label line without the saved strides (and storage offset) of tensors with no elements: PyTorch keeps
    whatever strides an empty tensor was made with (the graph fuzzer ignores them too, see its KNOWN)."""
    for prefix, dims in _SIZES.findall(line):
        if "0" in [d.strip() for d in dims.split(",")]:
            name = rf"{prefix}_sym_strides" if prefix else r"(?:stride|storage_offset)"
            line = re.sub(rf"\b({name}) = (\([^)]*\)|\d+)", r"\1 = ?", line)
    return line


def comparable(prog: F.Program, texts: dict) -> dict:
    """The texts without what cannot match: the layouts of empty saved tensors, the values of UNWRITTEN ones."""
    texts = {k: "\n".join(_empty_layouts(ln) if "= (" in ln else ln for ln in v.split("\n")) for k, v in texts.items()}
    labels = [label for rx, label in UNWRITTEN if re.search(rx, prog.source())]
    if not labels:
        return texts
    edge = re.compile(rf"^  (\w+) -> (\w+) \[[^\n]*label=<(?:{'|'.join(labels)})>", re.M)
    out = {}
    for key, text in texts.items():
        for node in {n for pair in edge.findall(text) for n in pair if n[0] in "sk"}:  # (saved, constant nodes)
            text = re.sub(rf"^(  {node} \[label=<.*?<TR><TD><FONT POINT-SIZE=\"8\">)[^<]*", r"\1?", text, flags=re.M)
        out[key] = text
    return out


def differences(mine: dict, theirs: dict) -> list[str]:
    """What differs between minigrad's texts and PyTorch's (close numbers aside), as short unified diffs."""
    out = []
    for key in sorted(set(mine) | set(theirs), key=lambda k: (k not in theirs, list(theirs).index(k) if k in theirs
                                                              else 0)):
        a, b = mine.get(key), theirs.get(key)
        if a == b:
            continue
        if a is not None and b is not None:
            # Grad colours follow the norm: close norms may land on neighbouring colours.
            a2, b2 = _COLOR.sub("", a), _COLOR.sub("", b)
            if _same_but_rounding(a2, b2):
                continue
            lines = [ln for ln in difflib.unified_diff(b.splitlines(), a.splitlines(), "torch", "minigrad",
                                                       lineterm="", n=0)][2:]
            out.append(f"{key}:\n  " + "\n  ".join(ln[:400] for ln in lines[:8]))
        else:
            out.append(f"{key}: {'missing' if a is None else (a or '')[:200]} != torch "
                       f"{'missing' if b is None else (b or '')[:200]}")
    return out


def crashes(texts: dict) -> list[str]:
    return [f"{k}: {v[:300]}" for k, v in texts.items() if v.startswith("viz crashed")]


def _known(family: str) -> list:
    from test_parity_graph_fuzz import KNOWN, NN_KNOWN

    return KNOWN + NN_KNOWN if family == "nn" else KNOWN


def rendering_errors(texts: dict, keys=None) -> list[str]:
    """Graphviz's failures on the DOT sources (those of ``keys``, default all) through viz's default renderer."""
    from viz import render as renderer

    out = []
    for key, text in texts.items():
        if text.startswith("digraph") and (keys is None or key in keys):
            try:
                svg = renderer.run(text, "svg")
                if b"</svg>" not in svg:
                    out.append(f"svg {key}: no SVG")
            except Exception as e:  # noqa: BLE001
                out.append(f"svg {key}: {_err(e)[:300]}")
    return out


def _no_strides(texts: dict) -> dict:
    """The texts without the values of saved strides (attributes ``*_sym_strides``, ``stride``)."""
    return {k: re.sub(r"\b(\w*strides?) = \([^)]*\)", r"\1 = ?", v) for k, v in texts.items()}


def check(seed: int, family: str = "tensor", svg=False) -> tuple:
    """(program, viz differences, crashes of viz on either library (and of Graphviz on PyTorch's drawings: all with
    ``svg=True``, or those named in ``svg``), the graph fuzzer's explanation or None)."""
    import torch

    import minigrad

    prog = F.generate(seed, family)
    mine, theirs = comparable(prog, render(minigrad, prog)), comparable(prog, render(torch, prog))
    diffs = differences(mine, theirs)
    broke = crashes(theirs) + crashes(mine)
    if svg:
        broke += rendering_errors(theirs, None if svg is True else svg)
    why = None
    if diffs:
        # The graph fuzzer sees a difference too: the drawing shows it (KNOWN lists it, or the graph fuzzer's own
        # test reports it). Its stride differences explain only drawings that differ in saved strides alone.
        _, graph_diffs = F.check(seed, family)
        graph_diffs = [d for d in graph_diffs if F.INEXACT not in d]
        if not differences(_no_strides(mine), _no_strides(theirs)):
            graph_diffs = [d for d in graph_diffs if "strides" in d]  # (only the drawn *_sym_strides differ)
        else:
            graph_diffs = [d for d in graph_diffs if "strides" not in d]
        if graph_diffs:
            rest = F.unexplained(prog, graph_diffs, _known(family))
            why = ("graph fuzzer finding: " + rest[0] if rest else "KNOWN: " + graph_diffs[0])[:200]
        for diff_rx, prog_rx, reason in VIZ_KNOWN:
            if why is None and re.search(prog_rx, prog.source()) and all(re.search(diff_rx, d) for d in diffs):
                why = "VIZ_KNOWN: " + reason[:100]
    return prog, diffs, broke, why


# -- the test: fixed seeds --------------------------------------------------------------------------------------------

SEEDS = range(0, 120)
NN_SEEDS = range(0, 60)
# (session 13: programs of the generator's session-13 families that run to their backward, chosen so that most of
# their kinds appear twice. Tensor seeds >= fuzz_graphs.S13_FIRST_SEED (_Gen.s13): view chains written in place,
# hooks / retain_grad on views and bases, .data / detach() writes, requires_grad_() mid-program, integer and bool
# results feeding index ops, float16 / bfloat16 stretches, where / masked_fill / clamp with scalars, errors caught.
# nn seeds >= fuzz_graphs.NN_S13_FIRST_SEED (_NNGen.op13): module and state_dict hooks, the Module API, nn.utils,
# lr schedulers, module reprs, transformer layers, losses.)
S13_SEEDS = (160022, 160023, 160027, 160031, 160042, 160059, 160071, 160074, 160081, 160082, 160093, 160094, 160121,
             160124, 160127, 160134, 160143, 160155, 160167, 160172, 160174, 160176, 160178, 160181, 160182, 160197,
             160202, 160204, 160213, 160223, 160248, 160254, 160256, 160258, 160259, 160265, 160269, 160282, 160284)
NN_S13_SEEDS = (170002, 170013, 170014, 170031, 170047, 170065, 170076, 170103, 170124, 170142, 170151, 170157,
                170228, 170236)
EXTRA = {-1: S13_SEEDS, -2: NN_S13_SEEDS}  # (the tests' ``first`` for a tuple of seeds)


@functools.cache
def _checked(family: str, first: int, count: int) -> tuple:
    """The checks of ``count`` seeds from ``first`` (a negative ``first``: the seeds of ``EXTRA[first]``)."""
    torch_or_skip()
    svg = ("before/saved", "after/saved")  # (rendered for one seed in 6: Graphviz takes its time)
    seeds = EXTRA[first] if first < 0 else range(first, first + count)
    return tuple((s, *check(s, family, svg if s % 6 == 0 else False)) for s in seeds)


_CHUNKS = ([("tensor", s, 40) for s in range(SEEDS.start, SEEDS.stop, 40)]
           + [("nn", s, 30) for s in range(NN_SEEDS.start, NN_SEEDS.stop, 30)]
           + [("tensor", -1, len(S13_SEEDS)), ("nn", -2, len(NN_S13_SEEDS))])


def _report(seed, prog, lines) -> str:
    return f"=== seed {seed}\n{prog.source()}\n--- " + "\n--- ".join(lines[:6])


@pytest.mark.parametrize("family,first,count", _CHUNKS)
def test_generated_graphs_draw_the_same(family, first, count):
    """PyTorch's and minigrad's graphs of each program give the same DOT texts and stepper frames."""
    bad = [_report(s, p, d) for s, p, d, _b, why in _checked(family, first, count) if d and why is None]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("family,first,count", _CHUNKS)
def test_viz_draws_every_generated_graph(family, first, count):
    """viz draws each program's graphs (odd saved values, empty/complex/bool tensors, errors) without crashing, and
    Graphviz renders (a sample of) PyTorch's."""
    runs = _checked(family, first, count)
    bad = [_report(s, p, b) for s, p, _d, b, _w in runs if b]
    assert not bad, "\n".join(bad)
    assert sum(1 for _s, _p, d, _b, _w in runs if not d) >= count * 3 // 4  # (mostly clean, not mostly skipped)


def test_session13_seeds_run_the_new_families():
    """Each session-13 seed's program has ops of the new families and reaches its backward lines (in PyTorch)."""
    assert min(S13_SEEDS) >= F.S13_FIRST_SEED and min(NN_S13_SEEDS) >= F.NN_S13_FIRST_SEED
    for seeds, family, tag in ((S13_SEEDS, "tensor", "s13:"), (NN_S13_SEEDS, "nn", "13")):
        for s, prog, _d, _b, _w in _checked(family, -1 if family == "tensor" else -2, len(seeds)):
            assert prog.final and any(tag in k for k in prog.ops), s


# -- odd saved values, drawn from both libraries ---------------------------------------------------------------------


def _odd_graphs(torch) -> tuple:
    """Graphs whose nodes save None, tuples with None, ints, negative dims, bool/int/complex/empty tensors, a sparse
    gradient and a big tensor: (outputs, names, a chunk of a tensor modified in place, whose grad_fn raises)."""
    rs = np.random.RandomState(0)
    a = torch.tensor(rs.randn(3, 4).astype(np.float32), requires_grad=True)
    b = torch.tensor(rs.randn(3, 4).astype(np.float32), requires_grad=True)
    c = torch.tensor((rs.randn(3) + 1j * rs.randn(3)).astype(np.complex64), requires_grad=True)
    e = torch.zeros(0, 3, requires_grad=True)
    big = torch.ones(600, 700, requires_grad=True)
    emb = torch.nn.Embedding(4, 3, sparse=True)
    with torch.no_grad():
        emb.weight.copy_(torch.arange(12.0).view(4, 3))
    idx = torch.tensor([0, 2, 2])
    ys = [
        a.clamp(min=-0.5).sum(-1),  # (max None, dim -1)
        a[:, torch.tensor([0, 2])].pow(3).softmax(-1),  # (indices (None, tensor), exponent 3)
        torch.where(a > b, a, b).split(3, -1)[0].narrow(-1, 1, 2),  # (bool condition, split_size, start)
        a.gather(1, torch.tensor([[0], [3], [1]])).masked_fill(torch.tensor([[True], [False], [True]]), 0.5),
        (c * c.conj()).real.sum() + c.abs().sum() + torch.view_as_real(c).sum() + c.angle().sum(),
        (e.exp() * 2).sum() + torch.cat([e, e]).sum(),
        (big * 2).sum(),
        emb(idx).sum(),
        a.repeat(2, 1).unsqueeze(-1).expand(6, 4, 2).mean((-1, 0)),
    ]
    names = {"a": a, "b": b, "c": c, "e": e, "big": big, "emb.weight": emb.weight}
    w = a * 1
    (stale,) = w.chunk(1, -2)
    w.sigmoid_()
    return ys, names, stale


def _odd_texts(torch) -> dict:
    ys, names, stale = _odd_graphs(torch)
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for k, kw in KINDS.items():
            out[f"before/{k}"] = viz.draw([*ys, stale], names=names, auto_names=False, **kw).source
        sum(y.sum() for y in ys).backward()
        for k, kw in KINDS.items():
            out[f"after/{k}"] = viz.draw([*ys, stale], names=names, auto_names=False, **kw).source
        ys, names, _ = _odd_graphs(torch)
        st = viz.BackwardStepper(sum(y.sum() for y in ys), names=names, show_saved=True, engine=NO_RENDERER)
        out["stepper"] = "\n\n".join(f.text for f in st.frames)
        out["stepper/last"] = st.drawing(len(st.frames) - 1).source
    return out


def test_odd_saved_values_and_gradients_draw_the_same():
    """None, tuples, ints, negative dims, bool/int/complex/empty saved tensors, a sparse gradient, a big tensor."""
    torch = torch_or_skip()
    import minigrad

    theirs, mine = _odd_texts(torch), _odd_texts(minigrad)
    assert differences(mine, theirs) == []
    assert not rendering_errors(theirs)
    after = theirs["after/saved"]
    assert "grad [[1, 1, 1], [0, 0, 0], [2, 2, 2], [0, 0, 0]]" in after  # (the sparse gradient, densified)
    assert "(0, 3) float32" in after and "(600, 700) float32" in after and "complex64" in after
    assert "grad_fn raises RuntimeError" in after  # (fixed: viz refused to draw such a tensor)


# -- the differences the fuzzing found, as small programs (each must keep drawing the same) ------------------------


def _leaf(torch, shape, seed=0, dtype=np.float32):
    return torch.tensor(np.random.RandomState(seed).randn(*shape).astype(dtype), requires_grad=True)


def _fixed_by_fuzzing(torch) -> dict:
    """name -> (outputs, names); each program's comment says what the drawing showed."""
    F_ = torch.nn.functional
    x4, x2 = _leaf(torch, (1, 3, 2, 2)), _leaf(torch, (2, 3), 1)
    y2, e = _leaf(torch, (1, 3), 2), torch.zeros(0, 3, requires_grad=True)
    torch.manual_seed(0)
    progs = {
        # fixed: pixel_shuffle/unshuffle(x, 1), channel_shuffle into one-channel groups and unfold with a 1×1
        # kernel returned their input's memory (the output was drawn as the input)
        "no_shared_memory": [F_.pixel_unshuffle(x4, 1).exp(), F_.pixel_shuffle(x4, 1).sin(),
                             F_.channel_shuffle(x4, 3).cos(), F_.unfold(x4, 1).tanh()],
        # fixed: the empty tensors' data_ptr() was not 0 (a saved empty tensor was drawn as the leaf)
        "empty_data_ptr": [(e.exp() * 2).sum(), e.square().sum()],
        # fixed: dropout's saved mask (bernoulli_, div_) is at version 2, the zeros of p=1 at 1
        "dropout_mask_version": [F_.dropout(x2, 0.5), F_.dropout(x2, 1.0), F_.dropout1d(x2[None], 0.5)],
        # fixed: CopySlices sent a gradient to a base that needs none (circular pad)
        "copyslices_no_base_grad": [F_.pad(x4, (1, 1, 1, 1), mode="circular")],
        # fixed: the order backward runs the nodes in (sequence numbers: C++ builds an operator's right operand
        # first): cosine_similarity's expands, kl_div's product, float_power's casts, diff's slices, inner's views
        "sequence_numbers": [F_.cosine_similarity(x2, y2), F_.kl_div(x2, y2.exp(), reduction="sum"),
                             F_.kl_div(x2, y2, reduction="sum", log_target=True), torch.float_power(x2.abs(), y2),
                             torch.diff(x2, 2, -1), torch.inner(x2[:1], y2)],
        # fixed: norm's backward formula writes in place as PyTorch's (versions, pow_ saving a copy) under
        # create_graph
        "norm_double_backward": list(torch.autograd.grad(
            sum(torch.linalg.vector_norm(x2, p, dim=1).sum() for p in (3.0, 1.5, 0.5, 2.0)), x2, create_graph=True)),
        # fixed: C++'s `1 - t` (empty_like(t).fill_(1).sub_(t)) is at version 2 in mish/silu/lerp's formulas
        "one_minus_version": list(torch.autograd.grad(
            (F_.mish(x2) + F_.silu(x2) + torch.lerp(x2, y2, x2.sigmoid())).sum(), x2, create_graph=True)),
    }
    return {k: (v, {"x4": x4, "x2": x2, "y2": y2, "e": e}) for k, v in progs.items()}


def _fixed_texts(torch, name: str) -> dict:
    ys, names = _fixed_by_fuzzing(torch)[name]
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for k, kw in KINDS.items():
            out[k] = viz.draw(ys, names=names, auto_names=False, **kw).source
        st = viz.BackwardStepper(sum(y.sum() for y in ys), names=names, show_saved=True, engine=NO_RENDERER)
        out["stepper"] = "\n\n".join(f.text for f in st.frames)
    return out


@pytest.mark.parametrize("name", ["no_shared_memory", "empty_data_ptr", "dropout_mask_version",
                                  "copyslices_no_base_grad", "sequence_numbers", "norm_double_backward",
                                  "one_minus_version"])
def test_fuzzing_finds_stay_fixed(name):
    torch = torch_or_skip()
    import minigrad

    assert differences(_fixed_texts(minigrad, name), _fixed_texts(torch, name)) == []


def test_viz_known_differences_still_occur():
    """Each VIZ_KNOWN entry explains the difference of its witness (fixed in minigrad: remove the entry)."""
    torch = torch_or_skip()
    import minigrad

    def stack_of_complex_and_real(mod):
        a = mod.tensor(np.array([1 + 2j, 3 - 1j], dtype=np.complex64), requires_grad=True)
        c = mod.tensor(np.array([0.5, 1.5], dtype=np.float32))
        return {"stepper": "\n\n".join(f.text for f in viz.BackwardStepper(
            mod.view_as_real(mod.stack((a, c), 0)).sum(), engine=NO_RENDERER).frames)}

    programs = ["torch.stack((a, c), 0)  # a complex"]
    witnesses = [stack_of_complex_and_real]
    for (diff_rx, prog_rx, _why), witness, program in zip(VIZ_KNOWN, witnesses, programs, strict=True):
        diffs = differences(witness(minigrad), witness(torch))
        assert diffs and re.search(prog_rx, program) and all(re.search(diff_rx, d) for d in diffs), diffs


if __name__ == "__main__":  # pragma: no cover - a manual fuzz run
    import collections

    family = "nn" if "--nn" in sys.argv else "tensor"
    argv = [a for a in sys.argv[1:] if not a.startswith("--")]
    first = int(argv[0]) if argv else 0
    count = int(argv[1]) if len(argv) > 1 else 200
    counts = collections.Counter()
    whys = collections.Counter()
    for s in range(first, first + count):
        try:
            prog, diffs, broke, why = check(s, family, svg="--svg" in sys.argv)
        except Exception as e:  # noqa: BLE001 - a crash of the harness itself is a finding too
            print(f"=== seed {s}: harness crash {_err(e)}")
            counts["unexplained"] += 1
            continue
        if broke:
            counts["with viz crashes"] += 1
            print(_report(s, prog, ["CRASH " + b for b in broke]))
        if not diffs:
            counts["clean"] += 1
        elif why is not None:
            kind = why.split(":")[0]
            counts[kind] += 1
            whys[why[:100]] += 1
            if kind != "KNOWN":
                print(f"=== seed {s}: {why}")
        else:
            counts["unexplained"] += 1
            print(_report(s, prog, diffs))
        sys.stdout.flush()
    print(f"{family}: {counts['clean']}/{count} clean, {counts['KNOWN']} explained by the graph fuzzer's KNOWN, "
          f"{counts['VIZ_KNOWN']} by VIZ_KNOWN, {counts['graph fuzzer finding']} graph fuzzer findings, "
          f"{counts['unexplained']} unexplained, "
          f"{counts['with viz crashes']} with viz crashes")
    for w, c in whys.most_common(20):
        print(f"  {c} x {w}")
