"""Parity with PyTorch for F.cosine_similarity's graph (ATen's Distance.cpp) and Tensor.view(dtype)."""
from __future__ import annotations

import numpy as np
import pytest

import minigrad
from tests.parity import torch_or_skip


def _graph(mod, fn, depth=0) -> list:
    """Every node below ``fn`` (depth first), with its saved attributes; saved tensors as raw bytes."""
    if fn is None:
        return [(depth, None)]
    saved = []
    for name in sorted(a for a in dir(fn) if a.startswith("_saved_")):
        v = getattr(fn, name)
        if isinstance(v, mod.Tensor):
            v = (tuple(v.shape), str(v.dtype), v.detach().numpy().tobytes())
        saved.append((name, v))
    rows = [(depth, type(fn).__name__, tuple(saved))]
    for child, _ in fn.next_functions:
        rows += _graph(mod, child, depth + 1)
    return rows


COSINE_CASES = [
    ((3, 4), (3, 4), 1, 1e-8),
    ((2, 3, 4), (1, 3, 4), -1, 1e-3),   # broadcasting: both inputs expanded, dim saved as given (-1)
    ((5,), (5,), 0, 1e-8),
    ((3, 4), (4,), 1, 1e-8),
    ((3, 4), (3, 1), 0, 0.5),
    ((2, 3), (2, 3), 0, 1e-8),          # with a column of tiny values: the clamp leaves no node
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("s1,s2,dim,eps", COSINE_CASES)
def test_cosine_similarity_graph_values_and_grads(s1, s2, dim, eps, dtype):
    torch = torch_or_skip()
    rng = np.random.default_rng(7)
    a, b = rng.standard_normal(s1).astype(dtype), rng.standard_normal(s2).astype(dtype)
    if s1 == (2, 3):
        a[:, 0] = 1e-10
    got = []
    for mod in (torch, minigrad):
        x, y = mod.tensor(a, requires_grad=True), mod.tensor(b, requires_grad=True)
        r = mod.nn.functional.cosine_similarity(x, y, dim, eps)
        graph = _graph(mod, r.grad_fn)
        r.sum().backward()
        got.append((r.detach().numpy().tobytes(), graph, x.grad.numpy().tobytes(), y.grad.numpy().tobytes()))
    t, m = got
    assert m[1] == t[1]
    assert [row[1] for row in m[1][:3]] == ["SumBackward1", "MulBackward0", "DivBackward0"]
    assert m[0] == t[0] and m[2] == t[2] and m[3] == t[3]    # bit-identical values and gradients


def test_cosine_similarity_module_graph_matches():
    torch = torch_or_skip()
    a = np.random.default_rng(3).standard_normal((4, 3)).astype("float32")
    graphs = []
    for mod in (torch, minigrad):
        x = mod.tensor(a, requires_grad=True)
        graphs.append(_graph(mod, mod.nn.CosineSimilarity(dim=0)(x, x * 2).grad_fn))
    assert graphs[0] == graphs[1]
    assert "LinalgVectorNormBackward0" in [row[1] for row in graphs[1] if len(row) > 1]


def _outcome(f):
    try:
        r = f()
    except Exception as e:  # noqa: BLE001 - the exception itself is what is compared
        return type(e).__name__, str(e)
    return "ok", tuple(r.shape), str(r.dtype), r.tolist()


COSINE_CALLS = [
    lambda t: t.nn.functional.cosine_similarity(t.ones(3, 4), t.ones(3, 5)),
    lambda t: t.nn.functional.cosine_similarity(t.ones(3, 4), t.ones(2, 4)),
    lambda t: t.nn.functional.cosine_similarity(t.ones(3, 4), t.ones(3, 4), dim=2),
    lambda t: t.nn.functional.cosine_similarity(t.ones(3, 4), t.ones(3, 4), dim=-3),
    lambda t: t.nn.functional.cosine_similarity(t.ones(3, 4, dtype=t.int64), t.ones(3, 4, dtype=t.int64)),
    lambda t: t.nn.functional.cosine_similarity(t.ones(3, 4, dtype=t.bool), t.ones(3, 4, dtype=t.bool)),
    lambda t: t.nn.functional.cosine_similarity(t.ones(3, 4, dtype=t.int64), t.ones(3, 4)),
    lambda t: t.nn.functional.cosine_similarity(t.ones(3, 4, dtype=t.float64), t.ones(3, 4)),
    lambda t: t.nn.functional.cosine_similarity(t.tensor(2.0), t.tensor(3.0), dim=0),
    lambda t: t.nn.functional.cosine_similarity(t.zeros(3, 4), t.ones(3, 4)),
    lambda t: t.nn.functional.cosine_similarity(t.ones(0, 4), t.ones(0, 4)),
]


@pytest.mark.parametrize("i", range(len(COSINE_CALLS)))
def test_cosine_similarity_errors_and_dtypes(i):
    torch = torch_or_skip()
    assert _outcome(lambda: COSINE_CALLS[i](minigrad)) == _outcome(lambda: COSINE_CALLS[i](torch))


def test_cosine_similarity_int_common_dtype_error_text():
    with pytest.raises(RuntimeError, match="expected common dtype to be floating point, yet common dtype is Long"):
        minigrad.nn.functional.cosine_similarity(minigrad.ones(2, dtype=minigrad.int64),
                                                 minigrad.ones(2, dtype=minigrad.int64), dim=0)


# ---------------------------------------------------------------------------------------------
# Tensor.view(dtype)
# ---------------------------------------------------------------------------------------------

def _view_outcome(t, f):
    try:
        r = f(t)
    except Exception as e:  # noqa: BLE001
        return type(e).__name__, str(e)
    return (tuple(r.shape), str(r.dtype), r.stride(), r.storage_offset(), r.requires_grad, r.grad_fn is None,
            r._base is None, r.is_leaf, (r.view(t.int16) if r.dtype == t.bfloat16 else r).numpy().tobytes())


VIEW_CALLS = [
    lambda t: t.arange(8.0).reshape(2, 4).view(t.int32),
    lambda t: t.arange(8.0).reshape(2, 4).view(t.int64),
    lambda t: t.arange(8.0).reshape(2, 4).view(t.float16),
    lambda t: t.arange(8.0).reshape(2, 4).view(t.bfloat16),
    lambda t: t.arange(8.0).reshape(2, 4).view(t.uint8)[0, :4],
    lambda t: t.arange(8.0).reshape(2, 4).view(t.bool),
    lambda t: t.arange(8.0).reshape(2, 4).view(t.complex64),
    lambda t: t.arange(8.0).reshape(2, 4).view(dtype=t.int32),
    lambda t: t.arange(8.0).reshape(2, 4)[:, :3].view(t.float64),      # size(-1) not divisible
    lambda t: t.arange(8.0).reshape(2, 4)[:, 1:3].view(t.float64),     # storage offset not divisible
    lambda t: t.arange(8.0).reshape(2, 4).t().view(t.float64),         # last stride not 1
    lambda t: t.arange(8.0).reshape(2, 4).t().view(t.int16),
    lambda t: t.arange(8.0).reshape(2, 4).t().view(t.int32),           # same item size: any strides
    lambda t: t.tensor(1.0).view(t.int32),
    lambda t: t.tensor(1.0).view(t.int16),                             # 0-dim, different size
    lambda t: t.ones(2, 0).view(t.float64),                            # stride(0) not divisible
    lambda t: t.ones(0, 4).view(t.float64),
    lambda t: t.ones(2, 3)[:, 1:].view(t.int16),
    lambda t: t.ones(2, 4)[:, ::2].view(t.int16),
    lambda t: t.arange(12.0).reshape(3, 4)[:, 1:2].view(t.int16),      # size-1 last dim, strided rows
    lambda t: t.arange(12.0).reshape(3, 4)[:, None, :2].view(t.float64),
    lambda t: t.arange(6, dtype=t.int8).view(t.bool),
    lambda t: t.tensor([1, 2]).view(t.float32),
    lambda t: t.tensor([1.0, 2.0], requires_grad=True).view(t.int32),
    lambda t: t.tensor([1.0, 2.0], requires_grad=True).view(t.float32),   # not differentiable, even same dtype
    lambda t: t.tensor([1.0, 2.0], requires_grad=True).mul(1).view(t.float16),
    lambda t: t.tensor([1 + 2j], requires_grad=True).view(t.float32),
]


@pytest.mark.parametrize("i", range(len(VIEW_CALLS)))
def test_view_dtype_matches_torch(i):
    torch = torch_or_skip()
    assert _view_outcome(minigrad, VIEW_CALLS[i]) == _view_outcome(torch, VIEW_CALLS[i])


def test_view_dtype_error_text():
    with pytest.raises(RuntimeError, match=r"self.size\(-1\) must be divisible by 2 to view Float as Double "
                                           r"\(different element sizes\), but got 3"):
        minigrad.ones(3).view(minigrad.float64)


@pytest.mark.parametrize("mod_name", ["torch", "minigrad"])
def test_view_dtype_shares_memory_and_version_counter(mod_name):
    t = torch_or_skip() if mod_name == "torch" else minigrad
    y = t.zeros(3)
    z = y.view(t.int32)
    z[1] = 1065353216                   # the bits of 1.0f
    assert y.tolist() == [0.0, 1.0, 0.0] and (y._version, z._version) == (1, 1)
    y.add_(1)
    assert z.tolist() == [1065353216, 1073741824, 1065353216] and z._version == 2
    assert not z._is_view() and z._base is None


@pytest.mark.parametrize("mod_name", ["torch", "minigrad"])
def test_view_dtype_write_invalidates_saved_tensor(mod_name):
    t = torch_or_skip() if mod_name == "torch" else minigrad
    b = t.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = b.exp()
    y.view(t.float32).zero_()           # the shared version counter notices the write
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()
