"""The fast paths of #8 round 23 (bench/PROFILE.md).

1. ``_matmul._bmm_into`` (``torch.bmm``, ``baddbmm``, batched ``matmul``, ``einsum``, BmmBackward0's products)
   makes its MKL batch gemm call from a plan kept per layout (``_BMM_PLANS``, ``_bmm_plan``), as mm, addmm and
   addmv do since rounds 20-22: the flags, leading dimensions and the items' byte offsets depend only on the
   operands' shapes, strides and dtypes; per call only the first items' addresses are added to the offsets.
   A batch of one (a plain gemm) and items neither row- nor column-major (one addmm per item) decline the plan.
2. ``_matmul.mm``: k = 1 products have a plan too (W4's g @ W2ᵀ), not taken under vmap (mm's special case there).
3. ``derivatives._expand``: a 0-dim array that owns its data expands by ``np.ndarray(size, dtype, a, 0, zeros)``
   (sum's backward: W5), the view ``np.broadcast_to`` made; other arrays keep ``broadcast_to``.

Every result is compared with PyTorch's bytes, strides and dtype, the first call (plan made) and the second (plan
used), over layouts: row- and column-major items, expanded batches (stride 0), batches with the batch dim inside
(items with gaps between rows), every other item, read-only operands, and declining ones.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from parity import torch_or_skip

import minigrad
from minigrad import _matmul

pytestmark = pytest.mark.skipif(_matmul._LIB is None, reason="MKL (the mkl package) is not installed")


@pytest.fixture(autouse=True)
def _one_thread(one_thread):
    """(tests/conftest.py: one intra-op thread for minigrad and PyTorch)"""


# A batch (B, r, c) laid out as: "C" contiguous, "F" column-major items, "E" a batch of one expanded (stride 0),
# "G" an expanded column-major item, "P" the batch dim inside ((r, B, c) transposed: rows with gaps), "S" every
# other item, "R" read-only contiguous, "X" items neither row- nor column-major (every other column: declined).
KINDS = "CFEGPSRX"


def _strides(kind: str, b: int, r: int, c: int) -> tuple:
    """(element strides, storage size) of a (b, r, c) batch laid out as ``kind``."""
    return {"C": ((r * c, c, 1), b * r * c), "R": ((r * c, c, 1), b * r * c), "F": ((r * c, 1, r), b * r * c),
            "E": ((0, c, 1), r * c), "G": ((0, 1, r), r * c), "P": ((c, b * c, 1), b * r * c),
            "S": ((2 * r * c, c, 1), 2 * b * r * c), "X": ((2 * r * c, 2 * c, 2), 2 * b * r * c)}[kind]


def _batch(torch, values: np.ndarray, kind: str):
    """(a NumPy array, a torch tensor) with ``values`` in the layout ``kind``, both views of one storage."""
    b, r, c = values.shape
    strides, size = _strides(kind, b, r, c)
    if kind in "EG":
        values = np.broadcast_to(values[:1], values.shape)
    storage = np.zeros(size, values.dtype)
    x = np.lib.stride_tricks.as_strided(storage, values.shape, [s * values.itemsize for s in strides])
    if kind in "EG":
        x[0] = values[0]
    else:
        x[...] = values
    t = torch.from_numpy(storage).as_strided(values.shape, strides)
    if kind == "R":
        x.flags.writeable = False
    return x, t


def _values(shape, dtype, seed) -> np.ndarray:
    rng = np.random.default_rng(seed)
    v = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        v = v + 1j * rng.standard_normal(shape)
    return v.astype(dtype)


def _same(mine: np.ndarray, theirs) -> None:
    theirs = theirs.numpy()
    assert mine.dtype == theirs.dtype and mine.shape == theirs.shape and mine.strides == theirs.strides
    assert mine.tobytes() == theirs.tobytes()


# (B, m, k, n) with m·k·n >= 400 (below it PyTorch runs its own loop, not MKL): one row, one column, k = 1
# (400 and 20x20), a square-ish batch, odd sizes; a batch of one declines the plan (a plain gemm).
SHAPES = [(2, 8, 10, 5), (3, 1, 400, 1), (4, 20, 1, 20), (2, 16, 32, 16), (5, 7, 13, 9), (1, 10, 10, 10)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_bmm_bits_over_layouts(dtype):
    torch = torch_or_skip()
    for i, (b, m, k, n) in enumerate(SHAPES):
        va, vb = _values((b, m, k), dtype, i), _values((b, k, n), dtype, 100 + i)
        for ka, kb in itertools.product(KINDS, repeat=2):
            a, a_t = _batch(torch, va, ka)
            x, x_t = _batch(torch, vb, kb)
            expected = torch.bmm(a_t, x_t)
            for _ in range(2):   # the plan made, then used
                _same(_matmul.bmm(a, x), expected)


def test_bmm_complex_and_baddbmm_bits():
    torch = torch_or_skip()
    for dtype in (np.complex64, np.complex128):
        va, vb = _values((3, 9, 12), dtype, 1), _values((3, 12, 7), dtype, 2)
        for ka, kb in [("C", "C"), ("F", "E"), ("P", "G"), ("R", "S")]:
            (a, a_t), (x, x_t) = _batch(torch, va, ka), _batch(torch, vb, kb)
            for _ in range(2):
                _same(_matmul.bmm(a, x), torch.bmm(a_t, x_t))
    for dtype in (np.float32, np.float64, np.complex64):
        va, vb = _values((4, 9, 12), dtype, 3), _values((4, 12, 7), dtype, 4)
        for bias_shape in [(4, 9, 7), (9, 7), (7,), (4, 1, 7)]:
            bias = _values(bias_shape, dtype, 5)
            for beta, alpha in [(1, 1), (0.5, 2.0), (0, 1), (1, -0.25)]:
                for ka, kb in [("C", "F"), ("E", "P"), ("S", "C")]:
                    (a, a_t), (x, x_t) = _batch(torch, va, ka), _batch(torch, vb, kb)
                    expected = torch.baddbmm(torch.from_numpy(bias), a_t, x_t, beta=beta, alpha=alpha)
                    for _ in range(2):
                        _same(_matmul.baddbmm(bias, a, x, beta, alpha), expected)


def test_baddbmm_beta_zero_leaves_a_nan_bias_unread():
    torch = torch_or_skip()
    va, vb = _values((3, 8, 10), np.float32, 6), _values((3, 10, 6), np.float32, 7)
    bias = np.full((3, 8, 6), np.nan, np.float32)
    for _ in range(2):
        got = _matmul.baddbmm(bias, va, vb, 0, 1.5)
        assert not np.isnan(got).any()
        _same(got, torch.baddbmm(torch.from_numpy(bias), torch.from_numpy(va), torch.from_numpy(vb), beta=0, alpha=1.5))


def _plan(a: np.ndarray, b: np.ndarray):
    _matmul.bmm(a, b)
    return _matmul._BMM_PLANS[(a.shape, a.strides, b.shape, b.strides, a.dtype, b.dtype)]


def test_which_layouts_get_a_plan():
    torch = torch_or_skip()
    va, vb = _values((3, 8, 10), np.float32, 8), _values((3, 10, 6), np.float32, 9)
    for ka, kb in itertools.product(KINDS, repeat=2):
        a, x = _batch(torch, va, ka)[0], _batch(torch, vb, kb)[0]
        assert bool(_plan(a, x)) == ("X" not in ka + kb), (ka, kb)
    one_a, one_b = _values((1, 8, 10), np.float32, 8), _values((1, 10, 6), np.float32, 9)
    assert _plan(one_a, one_b) is False   # a batch of one: a plain gemm
    assert _plan(va.astype(np.complex64), vb.astype(np.complex64))   # every BLAS dtype


def test_a_plan_makes_no_general_call_and_a_declined_layout_does(monkeypatch):
    torch = torch_or_skip()
    va, vb = _values((3, 8, 10), np.float64, 10), _values((3, 10, 6), np.float64, 11)
    calls = []
    real_gemm, real_addmm = _matmul._gemm, _matmul._addmm_into
    monkeypatch.setattr(_matmul, "_gemm", lambda *a, **k: calls.append("gemm") or real_gemm(*a, **k))
    monkeypatch.setattr(_matmul, "_addmm_into", lambda *a, **k: calls.append("addmm") or real_addmm(*a, **k))
    a, x = _batch(torch, va, "F")[0], _batch(torch, vb, "E")[0]
    _matmul.bmm(a, x)
    assert calls == []
    a, a_t = _batch(torch, va, "X")
    _same(_matmul.bmm(a, vb), torch.bmm(a_t, torch.from_numpy(vb)))
    assert calls == ["addmm", "gemm"] * 3   # one addmm (a plain gemm) per item
    calls.clear()
    _same(_matmul.bmm(va[:1], vb[:1]), torch.bmm(torch.from_numpy(va[:1]), torch.from_numpy(vb[:1])))
    assert calls == ["gemm"]


def test_declined_and_early_cases_match_pytorch():
    torch = torch_or_skip()
    cases = [((0, 8, 10), (0, 10, 6), np.float32), ((3, 0, 10), (3, 10, 6), np.float32),
             ((3, 8, 0), (3, 0, 6), np.float64), ((3, 8, 10), (3, 10, 0), np.float32),
             ((3, 4, 5), (3, 5, 6), np.float32),   # below 400 multiply-adds: PyTorch's loop
             ((3, 8, 10), (3, 10, 6), np.float16), ((3, 8, 10), (3, 10, 6), np.int64)]
    for sa, sb, dtype in cases:
        va, vb = (_values(sa, np.float64, 12) * 4).astype(dtype), (_values(sb, np.float64, 13) * 4).astype(dtype)
        _same(_matmul.bmm(va, vb), torch.bmm(torch.from_numpy(va), torch.from_numpy(vb)))


def test_a_change_of_thread_count_goes_through_sync(monkeypatch):
    torch = torch_or_skip()
    va, vb = _values((4, 64, 96), np.float32, 14), _values((4, 96, 80), np.float32, 15)
    _matmul.bmm(va, vb)   # the plan, at one thread
    syncs = []
    real = _matmul._sync_threads
    monkeypatch.setattr(_matmul, "_sync_threads", lambda: syncs.append(1) or real())
    minigrad.set_num_threads(2)
    torch.set_num_threads(2)
    for _ in range(2):
        _same(_matmul.bmm(va, vb), torch.bmm(torch.from_numpy(va), torch.from_numpy(vb)))
    assert syncs == [1]


# ---- through the API: bmm, batched matmul, baddbmm, einsum, forward and gradients ---------------------------

PROGRAMS = {
    "bmm": lambda lib, a, b: lib.bmm(a, b),
    "bmm of transposes": lambda lib, a, b: lib.bmm(b.transpose(1, 2), a.transpose(1, 2)),
    "matmul broadcast": lambda lib, a, b: lib.matmul(a.unsqueeze(0).expand(2, -1, -1, -1), b[:1]),
    "baddbmm": lambda lib, a, b: lib.baddbmm(a[:, :, :3], a, b[:, :, :3], beta=0.5, alpha=2.0),
    "einsum": lambda lib, a, b: lib.einsum("bij,bjk->bik", a, b),
}


@pytest.mark.parametrize("name", list(PROGRAMS))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_batched_products_and_gradients_equal_pytorch(name, dtype):
    torch = torch_or_skip()
    va, vb = _values((3, 20, 20), dtype, 16), _values((3, 20, 20), dtype, 17)
    results = []
    for lib in (minigrad, torch):
        a = lib.tensor(va.copy(), requires_grad=True)
        b = lib.tensor(vb.copy(), requires_grad=True)
        out = PROGRAMS[name](lib, a, b)
        out.backward(lib.tensor(_values(tuple(out.shape), dtype, 18)))
        results.append([(t.detach().numpy(), t.stride()) for t in (out, a.grad, b.grad)])
    for (mine, ms), (theirs, ts) in zip(*results):
        assert ms == ts and mine.dtype == theirs.dtype and mine.tobytes() == theirs.tobytes(), name


def test_double_backward_through_bmm_equals_pytorch():
    torch = torch_or_skip()
    va, vb = _values((2, 12, 20), "float64", 19), _values((2, 20, 12), "float64", 20)
    results = []
    for lib in (minigrad, torch):
        a, b = lib.tensor(va.copy(), requires_grad=True), lib.tensor(vb.copy(), requires_grad=True)
        (ga,) = lib.autograd.grad(lib.bmm(a, b).pow(2).sum(), a, create_graph=True)
        ga.sum().backward()
        results.append([t.detach().numpy() for t in (ga, b.grad)])
    for mine, theirs in zip(*results):
        assert mine.tobytes() == theirs.tobytes()


# ---- 2. mm's plan for k = 1 (W4's g @ W2ᵀ in MmBackward0: (100, 1) @ (1, 16)) --------------------------------

def test_k1_products_get_a_plan_and_pytorch_bits():
    torch = torch_or_skip()
    rng = np.random.default_rng(21)
    for m, n in [(100, 16), (1, 7), (7, 1), (1, 1), (30, 30)]:
        for dtype in (np.float32, np.float64):
            a = rng.standard_normal((m, 1)).astype(dtype)
            b = rng.standard_normal((1, n)).astype(dtype)
            a[0, 0], b[0, 0] = -0.0, 2.0   # (a k = 1 gemm keeps the -0)
            for x, y in [(a, b), (np.asfortranarray(a), b), (a, np.asfortranarray(b)), (b.T, a.T),
                         (a.T.copy().T, b.T.copy().T)]:
                _matmul._MM_PLANS.clear()
                expected = torch.mm(torch.from_numpy(x), torch.from_numpy(y))
                for _ in range(2):
                    _same(_matmul.mm(x, y), expected)
                assert _matmul._MM_PLANS[(x.shape, x.strides, y.shape, y.strides, x.dtype, y.dtype)]
                bias = rng.standard_normal(y.shape[1]).astype(dtype)
                for _ in range(2):   # addmm takes mm's plan
                    expected = torch.addmm(torch.from_numpy(bias), torch.from_numpy(x), torch.from_numpy(y),
                                           beta=0.5, alpha=2.0)
                    _same(_matmul.addmm(bias, x, y, 0.5, 2.0), expected)


def test_k1_plan_is_not_taken_under_vmap(monkeypatch):
    """Under vmap PyTorch's k = 1 product is a batched one (a sum from +0: no -0); mm's special case stays."""
    torch = torch_or_skip()
    a = np.array([[-0.0], [1.5], [-2.0]], np.float32)
    b = np.array([[1.0, -0.0, 3.0]], np.float32)
    _matmul.mm(a, b)   # the plan, made outside vmap
    assert _matmul._MM_PLANS[(a.shape, a.strides, b.shape, b.strides, a.dtype, b.dtype)]
    monkeypatch.setattr(_matmul, "IN_VMAP", [1])
    _same(_matmul.mm(a, b), torch.bmm(torch.from_numpy(a)[None], torch.from_numpy(b)[None])[0])
    monkeypatch.setattr(_matmul, "IN_VMAP", [0])
    _same(_matmul.mm(a, b), torch.mm(torch.from_numpy(a), torch.from_numpy(b)))


def test_w4_style_mlp_gradients_equal_pytorch():
    """W4 (2-16-16-1 tanh MLP, MSE): its backward's (100, 1) @ (1, 16) product takes the k = 1 plan."""
    torch = torch_or_skip()
    rng = np.random.default_rng(22)
    data = {"x": rng.standard_normal((100, 2)), "y": rng.standard_normal((100, 1))}
    for i, (fi, fo) in enumerate([(2, 16), (16, 16), (16, 1)]):
        data[f"W{i}"], data[f"b{i}"] = rng.standard_normal((fi, fo)) / np.sqrt(fi), rng.standard_normal(fo) * 0.1
    for dtype in ("float32", "float64"):
        results = []
        for lib in (minigrad, torch):
            p = {k: lib.tensor(v.astype(dtype), requires_grad=k[0] in "Wb") for k, v in data.items()}
            for _ in range(2):
                h = (p["x"].matmul(p["W0"]) + p["b0"]).tanh()
                h = (h.matmul(p["W1"]) + p["b1"]).tanh()
                loss = ((h.matmul(p["W2"]) + p["b2"] - p["y"]) ** 2).mean()
                loss.backward()
            results.append([(p[k].grad.numpy().tobytes(), p[k].grad.stride()) for k in sorted(p) if k[0] in "Wb"])
        assert results[0] == results[1], dtype


# ---- 3. expand of a 0-dim array without np.broadcast_to (SumBackward0's grad.expand: bench W5) ----------------

def _expand_cases():
    f32 = np.array(1.5, np.float32)
    ro = np.array(-2.0)
    ro.flags.writeable = False
    row = np.arange(4, dtype=np.float64)
    return [(f32, (256, 256)), (f32, (3,)), (f32, ()), (f32, (0, 4)), (f32, (1, 1)), (ro, (2, 3)),
            (row[2], (2, 2)),   # (not a view: NumPy's scalar) and a 0-dim view into a row:
            (row[2:3].reshape(()), (3, 2)), (np.array(1 + 2j, np.complex64), (2, 5)),
            (np.array(7, np.int64), (4,)), (np.array(True), (2, 2)), (np.array(0.25, np.float16), (3, 1))]


def test_expand_of_0dim_equals_broadcast_to_and_keeps_writeability():
    from minigrad import derivatives
    for a, size in _expand_cases():
        a = np.asarray(a) if not isinstance(a, np.ndarray) else a
        got = derivatives._expand(a, size)
        want = np.broadcast_to(a, size)
        assert (got.shape, got.strides, got.dtype) == (want.shape, want.strides, want.dtype), (a, size)
        assert got.tobytes() == want.tobytes()
        assert got.flags.writeable == a.flags.writeable and np.shares_memory(got, a) or got.size == 0
        assert got.base is want.base or (got.base is a and want.base is a)


def test_expand_of_0dim_tensors_and_sum_gradients_equal_pytorch():
    torch = torch_or_skip()
    for dtype in ("float32", "float64", "float16", "bfloat16", "complex64", "int64", "bool"):
        for size in [(3,), (2, 3), (0, 4), (), (1, 1), (4, 1, 2)]:
            x_t = torch.tensor(1.5).to(getattr(torch, dtype))
            x = minigrad.tensor(1.5).to(getattr(minigrad, dtype))
            y, y_t = x.expand(size), x_t.expand(size)
            assert y.shape == y_t.shape and y.stride() == y_t.stride() and y.dtype == getattr(minigrad, dtype)
            mine, theirs = (y.float(), y_t.float()) if dtype == "bfloat16" else (y, y_t)
            assert mine.numpy().tobytes() == theirs.numpy().tobytes(), (dtype, size)
    x, x_t = minigrad.tensor(3.0), torch.tensor(3.0)
    x.expand(4).fill_(7.0)   # (a view: writes its base, as PyTorch's expand)
    x_t.expand(4).fill_(7.0)
    assert x.item() == x_t.item() == 7.0
    for dtype in ("float32", "float64", "float16"):   # SumBackward0 (W5)
        results = []
        for lib in (minigrad, torch):
            a = lib.tensor(_values((6, 1), dtype, 30), requires_grad=True)
            b = lib.tensor(_values((1, 5), dtype, 31), requires_grad=True)
            c = lib.tensor(_values((6, 5), dtype, 32), requires_grad=True)
            ((a + b) * c).sum().backward()
            (c * 2).sum(dim=(0, 1)).backward()
            results.append([(t.grad.numpy().tobytes(), t.grad.stride()) for t in (a, b, c)])
        assert results[0] == results[1], dtype


def test_expand_of_other_ranks_keeps_broadcast_to(monkeypatch):
    """Arrays of 1+ dims take np.broadcast_to (and PyTorch's strides for kept size-1 dims) as before."""
    from minigrad import derivatives
    calls = []
    real = np.broadcast_to
    monkeypatch.setattr(derivatives.np, "broadcast_to", lambda *a, **k: calls.append(1) or real(*a, **k))
    derivatives._expand(np.array(2.0), (3, 3))
    assert calls == []
    derivatives._expand(np.ones((1, 3)), (4, 3))
    derivatives._expand(np.arange(3.0)[1:2].reshape(()), (2,))   # (a 0-dim view)
    assert calls == [1, 1]
