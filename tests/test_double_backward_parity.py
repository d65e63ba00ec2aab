"""Double-backward parity with PyTorch: the graph that ``create_graph=True`` builds must be PyTorch's.

For every case of the op sweep (``tests/op_cases.py``) the first-order gradients are computed with
``create_graph=True`` in minigrad and in PyTorch, and compared on
1. the grad_fn class name of each gradient (``TanhBackwardBackward0`` ...), its ``_saved_*`` names
   and its ``requires_grad``;
2. the second-order gradients (gradient of <gradient, u> with respect to the inputs) — values;
3. the whole graph behind the gradients, node for node (``DEEPER_DIFFERENCES``: cases whose gradients are
   built from other, equivalent tensor ops);
4. for the ops whose gradient is a node of its own (SoftplusBackwardBackward0, ConvolutionBackwardBackward0,
   NativeBatchNormBackwardBackward0 ...): gradgradcheck in float64 and third derivatives against PyTorch.
``DIFFERENT_GRAPH`` lists the cases whose first-order gradient is built by a different (but correct)
last operation, with the reason. Plus ``.grad`` accumulation under ``create_graph`` (CopyBackwards).
"""
from __future__ import annotations

import numpy as np
import pytest
from op_cases import CASES, OpCase
from parity import torch_or_skip
from test_op_table import _arrays, _cotangent, _diff_positions, _first_grads, _np, _out_meta, _pair, _rng, _tensors

import minigrad

# case id -> why minigrad's gradient ends in a different node than PyTorch's (values still compared).
# Empty: every case with PyTorch parity matches (cases with ``parity=False`` are left out above all).
DIFFERENT_GRAPH: dict[str, str] = {}

PARITY = [c for c in CASES if c.parity and c.gradgrad]   # (no double backward: nothing to compare)


def _grad_fn_name(t) -> str | None:
    return None if t is None or t.grad_fn is None else type(t.grad_fn).__name__


def _saved_names(t) -> list:
    return [] if t is None or t.grad_fn is None else sorted(a for a in dir(t.grad_fn) if a.startswith("_saved_"))


def _both(T, case: OpCase):
    """(first-order gradients with create_graph, second-order gradients) of a case under library ``T``."""
    arrays = _arrays(case)
    shape, is_complex = _out_meta(case, arrays)
    v = _cotangent(case, shape, is_complex)
    positions = _diff_positions(case)
    _, _, diff, grads = _first_grads(T, case, arrays, v, create_graph=True)
    rng = _rng(case, "u")
    us = [np.asarray(rng.uniform(-1, 1, arrays[i].shape) + (1j * rng.uniform(-1, 1, arrays[i].shape)
                                                             if np.iscomplexobj(arrays[i]) else 0))
          for i in positions]
    terms = [_pair(T, g, u) for g, u in zip(grads, us) if g is not None and g.requires_grad]
    if terms:
        total = sum(terms[1:], terms[0])
        second = T.autograd.grad(total, diff, allow_unused=True)
    else:
        second = [None] * len(diff)
    return arrays, positions, grads, [_np(g, arrays[i]) for i, g in zip(positions, second)]


@pytest.mark.parametrize("case", PARITY, ids=[c.id for c in PARITY])
def test_double_backward_graph_matches_torch(case: OpCase):
    torch = torch_or_skip()
    arrays, positions, grads, second = _both(minigrad, case)
    _, _, tgrads, tsecond = _both(torch, case)
    got = [(_grad_fn_name(g), g is not None and g.requires_grad) for g in grads]
    want = [(_grad_fn_name(g), g is not None and g.requires_grad) for g in tgrads]
    if case.id in DIFFERENT_GRAPH:
        assert [r for _, r in got] == [r for _, r in want]
        assert got != want, f"{case.id} now matches PyTorch: remove it from DIFFERENT_GRAPH"
    else:
        assert got == want
        assert [_saved_names(g) for g in grads] == [_saved_names(g) for g in tgrads]
    for i, g, tg in zip(positions, second, tsecond):
        np.testing.assert_allclose(g, tg, rtol=1e-9, atol=1e-12, err_msg=f"d²/d input {i}")


# ---- the whole graph of the gradients, node for node -------------------------------------------------
# Beyond the last node: every node the create_graph gradients reach (name, saved names, edges, shared
# nodes). These cases still build an equivalent graph out of other tensor ops than PyTorch's formulas do
# (e.g. sqrt's gradient g/(2·√x) written as g·0.5/√x); their last node and values match (test above).
# (cdist-mm: x1's and x2's gradients each compute grad/result; PyTorch's one formula shares that node.)
DEEPER_DIFFERENCES = frozenset("""
LinalgSvdBackward0-S MulBackward0-svd-Vh MmBackward0-svd-product ViewBackward0-cdist-mm
""".split())
# (linalg second wave: the Cholesky ones go through cholesky_backward (above);
# minigrad's LAPACK results are column-major as PyTorch's (minigrad/_lapack.py), so the batched matmuls'
# reshapes of them are PyTorch's nodes too)


def _graph(grads) -> tuple:
    """The graph behind ``grads`` as plain data: nodes numbered in the order first met (depth first)."""
    numbers: dict = {}
    nodes: list = []

    def visit(node):
        if node is None:
            return None
        if id(node) not in numbers:
            numbers[id(node)] = len(numbers)
            entry = [type(node).__name__, sorted(a for a in dir(node) if a.startswith("_saved_")), None]
            nodes.append(entry)
            entry[2] = [(visit(n), nr) for n, nr in node.next_functions]
        return numbers[id(node)]

    roots = [None if g is None or g.grad_fn is None else (visit(g.grad_fn), g.output_nr) for g in grads]
    return roots, nodes


@pytest.mark.parametrize("case", PARITY, ids=[c.id for c in PARITY])
def test_whole_double_backward_graph_matches_torch(case: OpCase):
    """E.g. conv's gradients of input and weight come out of one ConvolutionBackwardBackward0, as in PyTorch."""
    torch = torch_or_skip()
    _, _, grads, _ = _both(minigrad, case)
    _, _, tgrads, _ = _both(torch, case)
    if case.id in DEEPER_DIFFERENCES:
        assert _graph(grads) != _graph(tgrads), f"{case.id} now matches PyTorch: remove it from DEEPER_DIFFERENCES"
    else:
        assert _graph(grads) == _graph(tgrads)


# ---- third derivatives through the double-backward nodes ----------------------------------------------
# PyTorch's *_double_backward formulas hold some saved values constant (batch and layer norm's statistics),
# so its third derivatives are those formulas' derivatives: minigrad's nodes use the same formulas.
THIRD_ORDER = [c for c in PARITY if c.name in (
    "SoftplusBackward0", "EluBackward0", "CeluBackward0", "LogSigmoidBackward0", "SmoothL1LossBackward0",
    "HuberLossBackward0", "GluBackward0", "NativeLayerNormBackward0", "NativeBatchNormBackward0",
    "ConvolutionBackward0", "LinalgDetBackward0")]


def _third(T, case: OpCase) -> list:
    """Gradient of <second-order gradients, w> with respect to the inputs (None where there is none)."""
    arrays = _arrays(case)
    shape, is_complex = _out_meta(case, arrays)
    v = _cotangent(case, shape, is_complex)
    positions = _diff_positions(case)
    _, _, diff, grads = _first_grads(T, case, arrays, v, create_graph=True)
    rng = _rng(case, "third")
    terms = [_pair(T, g, rng.uniform(-1, 1, g.shape)) for g in grads if g is not None and g.requires_grad]
    if not terms:
        return [None] * len(diff)
    second = T.autograd.grad(sum(terms[1:], terms[0]), diff, allow_unused=True, create_graph=True)
    terms = [_pair(T, g, rng.uniform(-1, 1, g.shape)) for g in second if g is not None and g.requires_grad]
    if not terms:
        return [None] * len(diff)
    third = T.autograd.grad(sum(terms[1:], terms[0]), diff, allow_unused=True)
    return [None if g is None else _np(g, arrays[i]) for i, g in zip(positions, third)]


@pytest.mark.parametrize("case", THIRD_ORDER, ids=[c.id for c in THIRD_ORDER])
def test_gradgradcheck_through_the_double_backward_nodes(case: OpCase):
    """float64 first and second derivatives against finite differences (minigrad's gradcheck, gradgradcheck)."""
    tensors = _tensors(minigrad, case, _arrays(case))
    diff = [t for t in tensors if t.requires_grad]

    def f(*inputs):
        it = iter(inputs)
        return case.fn(minigrad, *[next(it) if t.requires_grad else t for t in tensors])

    assert minigrad.autograd.gradcheck(f, diff, eps=1e-6, atol=1e-5)
    assert minigrad.autograd.gradgradcheck(f, diff, eps=1e-6, atol=1e-5)


@pytest.mark.parametrize("case", THIRD_ORDER, ids=[c.id for c in THIRD_ORDER])
def test_third_derivatives_match_torch(case: OpCase):
    torch = torch_or_skip()
    got, want = _third(minigrad, case), _third(torch, case)
    assert [g is None for g in got] == [w is None for w in want]
    for g, w in zip(got, want):
        if g is not None:
            np.testing.assert_allclose(g, w, rtol=1e-9, atol=1e-12)


# ---- .grad accumulation under create_graph ---------------------------------------------------------

def _accumulate(T):
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward(create_graph=True)
    first = x.grad
    y.backward(create_graph=True)
    return x, first


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
def test_first_accumulated_grad_is_a_copy():
    """PyTorch copies the arriving gradient into a fresh tensor (CopyBackwards), then adds (AddBackward0)."""
    torch = torch_or_skip()
    for T in (minigrad, torch):
        x, first = _accumulate(T)
        assert type(first.grad_fn).__name__ == "CopyBackwards"
        assert first.grad_fn.name() == "torch::autograd::CopyBackwards"
        assert first.grad_fn.next_functions[0] == (None, 0)
        assert type(first.grad_fn.next_functions[1][0]).__name__ == "AddBackward0"
        assert type(x.grad.grad_fn).__name__ == "AddBackward0"
        assert x.grad.grad_fn.next_functions[0][0] is first.grad_fn
        assert x.grad is not first
        np.testing.assert_allclose(first.detach().numpy(), [2.0, 4.0])
        np.testing.assert_allclose(x.grad.detach().numpy(), [4.0, 8.0])


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
def test_accumulated_grad_never_aliases_the_gradient():
    """A seed gradient that is itself a leaf is copied too (its AccumulateGrad is the copy's input)."""
    torch = torch_or_skip()
    for T in (minigrad, torch):
        w = T.tensor([1.0, 2.0], requires_grad=True)
        seed = T.ones(2, requires_grad=True)
        w.backward(seed, create_graph=True)
        assert w.grad is not seed
        assert type(w.grad.grad_fn).__name__ == "CopyBackwards"
        assert type(w.grad.grad_fn.next_functions[1][0]).__name__ == "AccumulateGrad"
        w.grad.sum().backward()
        np.testing.assert_allclose(seed.grad.numpy(), [1.0, 1.0])
        # a gradient without history stays without history (PyTorch: no grad_fn, requires_grad False)
        z = T.tensor([1.0, 2.0], requires_grad=True)
        (z * 2).sum().backward(create_graph=True)
        assert z.grad.grad_fn is None and not z.grad.requires_grad


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
def test_second_order_through_accumulated_grad():
    torch = torch_or_skip()
    out = []
    for T in (minigrad, torch):
        x = T.tensor([1.0, 2.0], requires_grad=True)
        (x ** 3).sum().backward(create_graph=True)
        g = x.grad
        x.grad = None
        g.sum().backward()
        out.append(x.grad.numpy())
    np.testing.assert_allclose(out[0], [6.0, 12.0])
    np.testing.assert_allclose(out[0], out[1])
