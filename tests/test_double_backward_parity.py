"""Double-backward parity with PyTorch: the graph that ``create_graph=True`` builds must be PyTorch's.

For every case of the op sweep (``tests/op_cases.py``) the first-order gradients are computed with
``create_graph=True`` in minigrad and in PyTorch, and compared on
1. the grad_fn class name of each gradient (``TanhBackwardBackward0`` ...), its ``_saved_*`` names
   and its ``requires_grad``;
2. the second-order gradients (gradient of <gradient, u> with respect to the inputs) — values.
``DIFFERENT_GRAPH`` lists the cases whose first-order gradient is built by a different (but correct)
last operation, with the reason. Plus ``.grad`` accumulation under ``create_graph`` (CopyBackwards).
"""
from __future__ import annotations

import numpy as np
import pytest
from op_cases import CASES, OpCase
from parity import torch_or_skip
from test_op_table import _arrays, _cotangent, _diff_positions, _first_grads, _np, _out_meta, _pair, _rng

import minigrad

# case id -> why minigrad's gradient ends in a different node than PyTorch's (values still compared).
# Empty: every case with PyTorch parity matches (cases with ``parity=False`` are left out above all).
DIFFERENT_GRAPH: dict[str, str] = {
    "LinalgDetBackward0": "det's gradient is det·A⁻ᴴ (a MulBackward0); PyTorch solves with A's LU instead",
    "LinalgDetBackward0-batched": "det's gradient is det·A⁻ᴴ (a MulBackward0); PyTorch solves with A's LU instead",
    # PyTorch gives these gradients a node of their own (XxxBackwardBackward0); minigrad writes them with
    # tensor ops (where/mul/...), which differentiate to the same second derivatives.
    **{case: "the gradient is built from tensor ops; PyTorch has a dedicated XxxBackwardBackward0 node"
       for case in ("SoftplusBackward0", "SoftplusBackward0-threshold", "EluBackward0", "EluBackward0-selu",
                    "CeluBackward0", "LogSigmoidBackward0", "SmoothL1LossBackward0", "SmoothL1LossBackward0-none",
                    "HuberLossBackward0", "NativeLayerNormBackward0", "GluBackward0",
                    "NativeBatchNormBackward0", "NativeBatchNormBackward0-eval")},
}

PARITY = [c for c in CASES if c.parity]


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
