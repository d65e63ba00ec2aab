"""Generated programs under forward AD, ``torch.func`` transforms and ``vmap``: minigrad against PyTorch.

``fuzz_transforms.py`` turns each ``fuzz_graphs.generate(seed)`` program into functions of its leaves and records
tangents (forward AD), jvp/vjp/jacrev/jacfwd/grad/hessian results (``torch.func``) and batched outputs (``vmap``),
with exceptions (type and message) where a library raises. The fixed seeds below must show no difference beyond
``KNOWN``. A bigger run: ``python tests/fuzz_transforms.py forward_ad 0 500``.
"""
from __future__ import annotations

import functools
import re

import fuzz_graphs as F
import fuzz_transforms as T
import pytest
from parity import torch_or_skip

# Per runner: (difference regex, program regex or None, scope, witness seed, why it cannot reasonably match).
KNOWN: dict = {
    "forward_ad": [
        (r"\.tangent: values differ, max abs (0\.0|nan): .* != torch .*inf", None, "line", 54,
         "PyTorch's missing tangents are ZeroTensors (an integer operand's): their products are 0 even with inf "
         "(x / arange: the tangent is t / 0 = inf); minigrad's formulas get materialized zeros, 0 * inf = nan"),
        (r"\.tangent: values differ, max abs (0\.0|nan)", r"torch\.arange\(", "line", 217,
         "the ZeroTensor entry above, where a later op picks between the inf/nan and a real tangent "
         "(minimum of x / arange and arange: nan where PyTorch keeps its nan, 0 where minigrad's zero wins)"),
        (r"\.tangent: dtype/shape \('float32', .* != torch \('float64'", r"torch\.sub\(\w+, torch\.arange\(\d+\), "
         r"alpha=0\.5\)", "seed", 353,
         "a PyTorch quirk: sub(x, integer y, alpha=0.5) gives float32 x a float64 tangent (its ZeroTensor for y "
         "times the double alpha promotes to float64); minigrad keeps x's dtype, as the primal does"),
        (r"(sum|mean)\(\) received an invalid combination of arguments - got \(Tensor, keepdim=bool\)", None,
         "seed", 447, "torch.sum(x, keepdim=False) without dim: see test_parity_graph_fuzz.py's KNOWN entry"),
        (r"ufunc 'logaddexp' not supported for the input types", r"logcumsumexp", "seed", 930,
         "complex logcumsumexp is not implemented (minigrad's kernel is NumPy's logaddexp, which has no complex "
         "loop; PyTorch's scans log1p(exp(min - max)) + max by real part): a gap to fill, not a design choice"),
        (r"tangent: set != torch None", r"torch\.copysign", "seed", 355,
         "copysign(x, y) where only y has a tangent: PyTorch's generated code only checks the inputs its jvp "
         "formula reads (x), so the result has none; minigrad's elementwise jvp adds y's zero term"),
        (r"tangent: values differ, max abs nan: .*0\.0.* != torch .*nan", r"\.std\(|std_mean\(", "seed", 570,
         "std / std_mean over no elements: PyTorch's tangent is nan there (0/0), minigrad's reduction jvp sums "
         "an empty product to 0"),
    ],
    "func": [
        (r"^(jvp|jacfwd|hessian)(\[\d+\])*: values differ, max abs (0\.0|nan)", r"torch\.arange", "line", 54,
         "the forward_ad entry on ZeroTensors: jvp and jacfwd compute tangents the same way"),
        (r"^(jacfwd|hessian)", r"(?m)^[abcd][.\[].*(_\(|\] [-+*/]=)", "seed", 86,
         "jacfwd (and hessian, jacfwd of jacrev) of a function that writes an input in place: PyTorch's jacfwd "
         "is one call on batched tangents, so the primal is written once; minigrad's vmap calls the function "
         "once per basis vector, each call writing the same captured primal again (see the vmap entry)"),
        (r"Tensor must have a last dimension with stride 1", None, "seed", 287,
         "strides of empty tensors: see test_parity_graph_fuzz.py's KNOWN entry (view_as_real of an empty result)"),
        (r"SmallVector unable to grow", None, "line", 148,
         "a PyTorch bug: hessian of a function that calls t_() and squeeze_() on a 0-d result crashes inside "
         "functorch (a size computed as -1); minigrad raises the error the other transforms raise"),
        (r"There is a performance drop because we have not yet implemented the batching rule", None, "line", 58,
         "see the vmap entry: PyTorch's warning for ops without a batching rule (jacfwd/hessian use vmap)"),
        (r"minigrad's vmap loops over the mapped dimension, which has size 0", None, "seed", 26,
         "jacfwd/hessian of a function of an empty tensor: minigrad's vmap is a loop over slices and cannot run "
         "the function zero times (PyTorch's batched tensors run it once, with a batch of 0)"),
    ],
    "vmap": [
        (r"(sum|mean)\(\) received an invalid combination of arguments - got \(Tensor, keepdim=bool\)", None,
         "seed", 447, "torch.sum(x, keepdim=False) without dim: see test_parity_graph_fuzz.py's KNOWN entry"),
        (r"note: an unbatched input was written in place", None, "seed", 106,
         "an in-place op on an input with in_dim None: PyTorch's vmap runs the function once, on batched tensors, "
         "so the input is written once (or the write raises when the value is batched); minigrad's vmap calls "
         "the function once per slice, so the write happens once per slice and later slices see it"),
        (r"There is a performance drop because we have not yet implemented the batching rule", None, "line", 47,
         "PyTorch's warning for ops without a batching rule (its slow fallback): which ops have rules is an "
         "implementation detail of functorch that minigrad's loop does not model (only detach_ warns)"),
        (r"^vmap\[\d+\]: values differ", r"\.as_strided\(", "seed", 173,
         "as_strided inside vmap: each of minigrad's slices is a view of the stacked input, so the storage offset "
         "counts from the whole batch's storage (every slice reads the same elements); PyTorch's batching rule "
         "applies sizes, strides and offset to each example"),
        (r"Subtraction, the `-` operator, with a bool tensor is not supported", None, "line", 186,
         "a PyTorch quirk: batched x - bool_tensor is computed by the batching rule without sub's bool check "
         "(unbatched, both libraries raise)"),
        (r"^vmap\[\d+\]: dtype/shape \('float32'.* != torch \('float64'", None, "line", 572,
         "type promotion with a batched 0-d tensor: PyTorch's batching rules promote the physical tensors, where "
         "the 0-d float64 is 1-d and so outranks an n-d float32; minigrad's slice stays 0-d"),

        (r"vmap: \('error', '\w+Error', .*(reduction dim|Dimension|cannot reshape tensor of 0 elements)", None,
         "line", 144,
         "errors that name a dimension inside vmap: PyTorch's kernels see the physical tensor, batch dim "
         "included, and count it in the message (dim 1 for the user's dim 0); minigrad's slices have no batch dim"),
    ],
}

SEEDS = {"forward_ad": range(0, 600), "func": range(0, 150), "vmap": range(0, 300)}


@functools.cache
def _check(runner: str, seed: int) -> tuple:
    return T.check(runner, seed)


@pytest.mark.parametrize("runner", T.RUNNERS)
def test_generated_programs_match_torch(runner):
    torch_or_skip()
    bad = {}
    for seed in SEEDS[runner]:
        prog, diffs = _check(runner, seed)
        rest = F.unexplained(prog, diffs, KNOWN[runner])
        if rest:
            bad[seed] = rest[:3]
    assert not bad, bad


@pytest.mark.parametrize("runner,entry", [(r, e) for r in T.RUNNERS for e in KNOWN[r]],
                         ids=lambda x: x if isinstance(x, str) else f"seed{x[3]}")
def test_known_entry_still_shows(runner, entry):
    """Each KNOWN entry's witness seed still shows its difference (a fixed one must leave the list)."""
    torch_or_skip()
    rx, prog_rx, _, seed, _ = entry
    prog, diffs = _check(runner, seed)
    assert prog_rx is None or re.search(prog_rx, prog.source())
    assert any(re.search(rx, d) for d in diffs), diffs
