"""Session 14: what drawing the backward graphs of PyTorch's OpInfo samples (test_viz_opinfo.py) showed different
between PyTorch and minigrad, one test per fix; each draws a small graph with viz from both libraries (DOT text,
the stepper's frames) and compares, and checks the public attribute the drawing shows against PyTorch's."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_viz_graph_fuzz import KINDS, NO_RENDERER, differences  # noqa: E402

import viz  # noqa: E402


def _texts(lib, build) -> dict:
    """viz's texts of the graph ``build(lib)`` returns ((loss, names)): both drawings, the stepper's frames."""
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        loss, names = build(lib)
        for kind, kw in KINDS.items():
            out[kind] = viz.draw([loss], names=names, auto_names=False, **kw).source
        loss, names = build(lib)
        st = viz.BackwardStepper(loss, names=names, show_saved=True, engine=NO_RENDERER)
        out["stepper"] = "\n\n".join(f.text for f in st.frames)
        out["last"] = st.drawing(len(st.frames) - 1).source
    return out


def _same_drawings(build):
    torch = pytest.importorskip("torch")
    import minigrad

    mine, theirs = _texts(minigrad, build), _texts(torch, build)
    assert differences(mine, theirs) == []


def _leaf(lib, shape, seed=0, low=-1.0, high=1.0):
    rs = np.random.RandomState(seed)
    return lib.tensor(rs.uniform(low, high, shape), requires_grad=True)


def _both(fn):
    torch = pytest.importorskip("torch")
    import minigrad

    return fn(minigrad), fn(torch)


def test_diagflat_saves_diag_embeds_default_dims():
    """diagflat is diag_embed(input.view(-1), offset) with dim1=-2, dim2=-1 (read as uint64), not 0 and 1."""
    def dims(lib):
        y = lib.diagflat(_leaf(lib, (2, 3)), 1)
        return y.grad_fn._saved_dim1, y.grad_fn._saved_dim2, y.grad_fn._saved_offset

    mine, theirs = _both(dims)
    assert mine == theirs
    _same_drawings(lambda lib: ((lib.diagflat(x := _leaf(lib, (2, 2)), -1) ** 2).sum(), {"x": x}))


def test_combinations_mask_is_written_r_times():
    """combinations' mask (MaskedSelectBackward0's saved mask) is full() then r - 1 in-place products: version r."""
    def versions(lib):
        x = _leaf(lib, (4,))
        return [lib.combinations(x, r, rep).grad_fn.next_functions[0][0]._saved_mask._version
                for r in (1, 2, 3) for rep in (False, True)]

    mine, theirs = _both(versions)
    assert mine == theirs
    _same_drawings(lambda lib: (lib.combinations(x := _leaf(lib, (3,)), 2).prod(), {"x": x}))


def test_cumulative_trapezoid_with_x_slices_x_left_first():
    """cumulative_trapezoid(y, x): x[:-1] is sliced before x[1:] (the order backward runs the SliceBackward0s)."""
    _same_drawings(lambda lib: (lib.cumulative_trapezoid(y := _leaf(lib, (2, 3)), x := _leaf(lib, (2, 3), 1)).sum(),
                                {"y": y, "x": x}))


def test_atanh_double_backward_one_minus_is_filled_in_place():
    """atanh's formula grad / (1 - x²): C++'s ``1 - t`` is empty_like(t).fill_(1).sub_(t), a tensor at version 2."""
    def build(lib):
        x = _leaf(lib, (3,), 2, -0.9, 0.9)
        (g,) = lib.autograd.grad(lib.atanh(x).sum(), x, create_graph=True)
        return (g * g).sum(), {"x": x, "g": g}

    _same_drawings(build)


@pytest.mark.parametrize("name", ["i0e", "i1", "i1e"])
def test_bessel_double_backward_builds_right_operands_first(name):
    """special.i0e/i1/i1e's formulas: C++ builds an operator's right operand first (result * ..., sgn * result), so
    the nodes' sequence numbers, hence the order backward runs them in, are PyTorch's."""
    def build(lib):
        x = _leaf(lib, (4,), 3, -2.0, 2.0)
        (g,) = lib.autograd.grad(getattr(lib.special, name)(x).sum(), x, create_graph=True)
        return (g * g).sum(), {"x": x, "g": g}

    _same_drawings(build)


def test_bce_gradient_versions_with_weight_and_under_create_graph():
    """binary_cross_entropy(_with_logits)'s backward writes its gradients in place: the target's gradient in every
    grad mode, weight's mul_ one more write, and under create_graph the mean's div_ of the input's."""
    def versions(lib):
        F = lib.nn.functional
        out = []
        for fn, pw in ((F.binary_cross_entropy, False), (F.binary_cross_entropy_with_logits, False),
                       (F.binary_cross_entropy_with_logits, True)):
            for red in ("mean", "sum"):
                for w in (False, True):
                    x, y = _leaf(lib, (3, 2), 4, 0.1, 0.9), _leaf(lib, (3, 2), 5, 0.0, 1.0)
                    kw = dict(reduction=red, weight=lib.tensor([0.5, 2.0]) if w else None)
                    if pw:
                        kw["pos_weight"] = lib.tensor([1.5, 0.7])
                    loss = fn(x, y, **kw)
                    for cg in (True, False):
                        gx, gy = lib.autograd.grad(loss, (x, y), create_graph=cg, retain_graph=True)
                        out.append((gx._version, gy._version))
        return out

    mine, theirs = _both(versions)
    assert mine == theirs

    def build(lib):
        x, y = _leaf(lib, (3, 2), 4, 0.1, 0.9), _leaf(lib, (3, 2), 5, 0.0, 1.0)
        gx, gy = lib.autograd.grad(lib.nn.functional.binary_cross_entropy(x, y), (x, y), create_graph=True)
        return (gx * gx).sum() + (gy * gy).sum(), {"x": x, "y": y, "gx": gx, "gy": gy}

    _same_drawings(build)


def test_div_double_backward_builds_the_quotients_before_the_negation():
    """div's formula for the divisor, -grad · ((x / y) / y): the quotients first, then -grad (C++'s operand order),
    so backward runs the NegBackward0 before the DivBackward0s, as in PyTorch (cosine_similarity showed it)."""
    def build(lib):
        x, y = _leaf(lib, (3,), 6), _leaf(lib, (3,), 7, 1.0, 2.0)
        gx, gy = lib.autograd.grad((x / y).sum(), (x, y), create_graph=True)
        return (gy * gy).sum() + (gx * gx).sum(), {"x": x, "y": y, "gx": gx, "gy": gy}

    _same_drawings(build)
    _same_drawings(lambda lib: ((g := lib.autograd.grad(lib.nn.functional.cosine_similarity(
        x := _leaf(lib, (2, 3), 8), y := _leaf(lib, (2, 3), 9)).sum(), (x, y), create_graph=True))[0].sum()
        + g[1].sum(), {"x": x, "y": y}))
