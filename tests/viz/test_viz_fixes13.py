"""Session 13: what viz found drawing the graph fuzzer's session-13 programs (seeds 160000-160499 with a stepper on
their named results, nn 170000-170299) from PyTorch and from minigrad."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: parity

from parity import torch_or_skip  # noqa: E402
from test_viz_graph_fuzz import KINDS, NO_RENDERER, differences  # noqa: E402

import viz  # noqa: E402


def _mask_index_texts(torch) -> dict:
    """x[mask] with a mask made by isclose (one in-place ``|=`` inside: version 1), an index tensor and an
    index_put_: the saved indices are the index tensors themselves (seed 160319: minigrad drew a copy at v0)."""
    a = torch.tensor(np.arange(8.0, dtype=np.float32).reshape(4, 2), requires_grad=True)
    v = a * 1
    mask = torch.isclose(v * 1, v)
    idx = torch.tensor([1, 0, 1])
    y = (v[mask] * v[mask]).sum() + v[idx].sum()
    b = a * 1
    b[idx] = torch.tensor([5.0, 6.0])
    names = {"a": a, "v": v, "mask": mask, "idx": idx, "b": b}
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for k, kw in KINDS.items():
            out[k] = viz.draw([y, b], names=names, auto_names=False, **kw).source
        st = viz.BackwardStepper(y + b.sum(), names=names, show_saved=True, engine=NO_RENDERER)
        out["stepper"] = "\n\n".join(f.text for f in st.frames)
        out["first"] = st.drawing(0).source
        stale = a > 2
        y2 = a[stale] * 2
        stale.logical_not_()  # (the saved mask is now stale: reading it raises)
        out["stale"] = viz.draw([y2], names={"a": a, "stale": stale}, auto_names=False, show_attrs=True).source
    return out


def test_saved_index_tensors_are_the_index_tensors():
    """Fixed: ``_saved_indices`` gave new tensors over the index arrays (version 0, never stale); PyTorch gives the
    index tensors it saved (same object and version counter; reading one written in place since raises)."""
    torch = torch_or_skip()
    import minigrad

    theirs, mine = _mask_index_texts(torch), _mask_index_texts(minigrad)
    assert differences(mine, theirs) == []
    assert "(4, 2) bool v1" in theirs["saved"]  # (the mask, at the version isclose left it)
    for mod in (torch, minigrad):
        a = mod.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        m, i = a > 2, mod.tensor([1, 0])
        y, z = a[m], a[i]
        assert y.grad_fn._saved_indices[0] is m and z.grad_fn._saved_indices[0] is i
        m.logical_not_()
        try:
            _ = y.grad_fn._saved_indices
            raise AssertionError("no error")
        except RuntimeError as e:
            assert "[CPUBoolType [2, 2]] is at version 1; expected version 0 instead" in str(e)
