"""Regression tests for the differences the viz graph fuzzer (test_viz_graph_fuzz.py) found in session 10: each
program is drawn by viz from PyTorch and from minigrad, and the texts must be the same."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: parity

from parity import torch_or_skip  # noqa: E402
from test_viz_graph_fuzz import KINDS, NO_RENDERER, differences  # noqa: E402

import viz  # noqa: E402


def _texts(ys: list, names: dict, root) -> dict:
    """viz's DOT sources of ``ys`` (each view kind) and the stepper's frames of ``root.backward()``."""
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for k, kw in KINDS.items():
            out[k] = viz.draw(ys, names=names, auto_names=False, **kw).source
        st = viz.BackwardStepper(root, names=names, show_saved=True, engine=NO_RENDERER)
        out["stepper"] = "\n\n".join(f.text for f in st.frames)
    return out


def _number_saved_twice(torch, dtype: str, op: str) -> tuple:
    """``v0 = a * 1`` (or ``/ 3``, ``* 2.5``), then create_graph: the double-backward node of ``grad * other``
    saves the number again (the graph fuzzer's tensor seed 59)."""
    z = np.array([1 + 2j, 3 - 1j, -0.5 + 0j])
    a = torch.tensor((z if "complex" in dtype else z.real).astype(dtype), requires_grad=True)
    v0 = {"mul1": lambda: a * 1, "div3": lambda: a / 3, "mul2.5": lambda: a * 2.5}[op]()
    out = (v0**3).abs().sum()
    (g,) = torch.autograd.grad(out, [a], create_graph=True)
    s = (g * g).sum().abs()
    return v0, g, s, {"a": a, "v0": v0, "g": g}


# fixed: minigrad's double-backward MulBackward0/DivBackward0 wrapped the saved number anew (viz drew two saved
# tensors); PyTorch's saves the first node's wrapped-number tensor again (one saved tensor, one data_ptr)
@pytest.mark.parametrize("dtype", ["complex128", "float32", "float64"])
@pytest.mark.parametrize("op", ["mul1", "div3", "mul2.5"])
def test_number_saved_again_under_create_graph_draws_once(dtype, op):
    torch = torch_or_skip()
    import minigrad

    def texts(mod):
        v0, g, s, names = _number_saved_twice(mod, dtype, op)
        return _texts([v0, g, s], names, s)

    theirs, mine = texts(torch), texts(minigrad)
    assert differences(mine, theirs) == []
    assert theirs["saved"].count('class="constant"') == mine["saved"].count('class="constant"')


@pytest.mark.parametrize("op", ["mul1", "div3", "mul2.5"])
def test_double_backward_node_saves_the_same_number_tensor(op):
    """The node ``grad * other`` records reads as the very tensor the first node's ``_saved_other`` gives, read
    before or after backward, as in PyTorch."""
    torch = torch_or_skip()
    import minigrad

    def shared(mod, read_first: bool):
        a = mod.tensor([1.5, -2.0], dtype=mod.float64, requires_grad=True)
        v0 = {"mul1": lambda: a * 1, "div3": lambda: a / 3, "mul2.5": lambda: a * 2.5}[op]()
        first = v0.grad_fn._saved_other if read_first else None
        (g,) = mod.autograd.grad((v0 * v0).sum(), a, create_graph=True)
        fn, todo = None, [g.grad_fn]
        while todo:  # (the node of ``grad * other`` in g's graph: the one other than v0's saving a 0-dim other)
            node = todo.pop()
            if type(node).__name__ in ("MulBackward0", "DivBackward0") and node is not v0.grad_fn:
                other = node._saved_other
                fn = node if other is not None and other.dim() == 0 else fn
            todo += [n for n, _ in node.next_functions if n is not None]
        first = v0.grad_fn._saved_other if first is None else first
        return type(fn).__name__, fn._saved_other is first, str(first.dtype), float(first)

    for read_first in (True, False):
        assert shared(minigrad, read_first) == shared(torch, read_first)
        assert shared(minigrad, read_first)[1] is True


# fixed: a one-element complex tensor was shown with str()'s 17 digits ("(1237.06554606+158.56027307999975j)"),
# a longer one with 3 significant digits
def test_one_element_complex_value_shows_three_digits():
    from viz.tensors import preview

    assert preview(np.array(1237.06554606 + 158.56027307999975j)) == "1.24e+03+159j"
    assert preview(np.array([1 + 2j], dtype=np.complex64)) == "1+2j"
    assert preview(np.array([1 + 2j, 3.5 - 1e-7j])) == "[1+2j, 3.5-1e-07j]"
    assert preview(np.array(2.5)) == "2.5" and preview(np.array([True])) == "True"
