"""PyTorch parity for NaNs in order statistics, reductions over empty dims, and argument TypeErrors.

(1) NaN: median propagates it (the dim form points at the row's first NaN), nanmedian skips it, quantile and
    nanquantile likewise; sort/argsort/topk/kthvalue/mode treat NaN as larger than every number; unique keeps
    each NaN apart. (2) Empty reduced dims: amax/argmax/max(dim)/median/mode/kthvalue ... raise PyTorch's
    IndexError / RuntimeError, the reductions with an identity (logsumexp, prod, softmax, cummax) give empty
    results. (3) flip / rot90 / roll / index_fill: what PyTorch's argument parser accepts, and its TypeErrors.

Each case is compared with real PyTorch by ``check`` (values, dtypes, graph, saved values, gradients, or the
exception's type and message); see tests/test_parity_missing_ops.py.
"""
from __future__ import annotations

import numpy as np
import pytest
from parity import torch_or_skip
from test_parity_missing_ops import cases, check

import minigrad as mg

# ---- inputs ----------------------------------------------------------------------------------------------

N = "n = T.tensor([[1.0, nan, 3.0, 2.0], [nan, nan, nan, nan], [4.0, 1.0, 2.0, 3.0]], requires_grad=True)\n"
# rows with ties, NaNs, both, an all-NaN row
M = ("m = T.tensor([[1., 2, nan], [nan, nan, nan], [3., 1, 2], [2., nan, 2], [5., 4, 1]], dtype=T.float64,"
     " requires_grad=True)\n")
V = "v = T.tensor([5., 4, nan, nan, 1, 2], requires_grad=True)\n"
F = "f = T.tensor([[1., 3, 2, 5], [4, 2, 0, 1], [0.5, -1, 7, 2]], requires_grad=True)\n"
D = "d = T.tensor([[1., 3, 2, 5], [4, 2, 0, 1], [0.5, -1, 7, 2]], dtype=T.float64, requires_grad=True)\n"
S = "s = T.tensor(2.5, requires_grad=True)\n"


# ---- (1) median, nanmedian: NaN propagates through median ------------------------------------------------

@cases(
    (N, "T.median(n)"),
    (N, "n.median()"),
    (V, "T.median(v)"),
    (M, "m.median()"),
    (N, "T.median(n[2])"),                                # no NaN: the lower middle value
    (N, "T.median(n, 1)"),
    (N, "n.median(dim=0)"),
    (N, "T.median(n, -1, keepdim=True)"),
    (V, "T.median(v, 0)"),
    (M, "m.median(1)"),
    (M, "m.median(0, True)"),
    (M, "m.nanmedian(1)"),
    (M, "m.nanmedian()"),
    (V, "T.nanmedian(v, 0)"),
    ("", "T.median(T.tensor([nan]))"),
    ("", "T.median(T.tensor([3, 1, 2]), 0)"),
    ("", "T.median(T.tensor([[1., inf, nan], [-inf, inf, 0]]), 1)"),
)
def test_median_nan(setup, expr):
    check(setup, expr)


# ---- quantile, nanquantile ---------------------------------------------------------------------------------

@cases(
    (F, "T.quantile(f, 0.3)"),
    (F, "T.quantile(f, 0.3, dim=1)"),
    (F, "T.quantile(f, 0.3, dim=0)"),
    (F, "T.quantile(f, 0.3, 1, True)"),
    (F, "T.quantile(f, 0.3, keepdim=True)"),
    (F, "T.quantile(f, T.tensor([0.2, 0.7]))"),
    (F, "T.quantile(f, T.tensor([0.2, 0.7]), dim=0)"),
    (F, "T.quantile(f, T.tensor([0.2, 0.7, 1.0]), dim=-1, keepdim=True)"),
    (F, "T.quantile(f, T.tensor([0.0, 0.5]), keepdim=True)"),
    (F, "T.quantile(f, T.tensor(0.4))"),
    (F, "T.quantile(f, T.tensor([]), dim=1)"),
    (F, "f.quantile(0.5, 1)"),
    (F, "f.quantile(q=0.5, dim=1, keepdim=True, interpolation='higher')"),
    (D, "T.quantile(d, T.tensor([0.25, 0.6], dtype=T.float64), dim=1)"),
    (D, "d.quantile(0.5)"),
    (S, "T.quantile(s, 0.3)"),
    (S, "T.quantile(s, 0.3, dim=0, keepdim=True)"),
    (S, "T.quantile(s, T.tensor([0.3, 0.9]), dim=-1)"),
    (N, "T.quantile(n, 0.4)"),
    (N, "T.quantile(n, 0.4, dim=1)"),
    (N, "T.quantile(n, T.tensor([0.25, 0.5]), dim=0)"),
    (N, "T.nanquantile(n, 0.4)"),
    (N, "T.nanquantile(n, 0.4, dim=1)"),
    (N, "n.nanquantile(T.tensor([0.25, 0.5]), dim=1)"),
    (N, "T.nanquantile(n, T.tensor([0.25, 0.5]), dim=0, keepdim=True)"),
    (M, "T.nanquantile(m, 0.3, dim=1, interpolation='midpoint')"),
    (V, "T.nanquantile(v, 1.0)"),
    (V, "T.nanquantile(v, 0.0)"),
    ("", "T.quantile(T.tensor([1., inf]), 0.5, interpolation='midpoint')"),
    ("", "T.quantile(T.tensor([1., 2, 3]), 0.25, interpolation='nearest')"),
    ("", "T.quantile(T.tensor([1., 2, 3, 4]), 0.5, interpolation='nearest')"),
    ("", "T.quantile(T.arange(8.), 1e-20)"),
    ("", "T.quantile(T.arange(10.).reshape(2, 5), 0.1)"),
    ("", "T.quantile(T.arange(10.).reshape(2, 5), T.tensor([0.1, 0.9]), dim=1, keepdim=True)"),
)
def test_quantile(setup, expr):
    check(setup, expr)


@pytest.mark.parametrize("interpolation", ["linear", "lower", "higher", "midpoint", "nearest"])
@pytest.mark.parametrize("q", ["0.37", "T.tensor([0.0, 0.37, 0.5, 1.0])"])
@pytest.mark.parametrize("dim", ["None", "0", "1"])
def test_quantile_interpolations(interpolation, q, dim):
    for fn in ("quantile", "nanquantile"):
        check(N + F, f"T.{fn}(n, {q}, dim={dim}, interpolation={interpolation!r})")
        check(F, f"T.{fn}(f, {q}, dim={dim}, keepdim=True, interpolation={interpolation!r})")


@cases(
    (F, "T.quantile(f, 1.5)"),
    (F, "T.quantile(f, -0.1)"),
    (F, "T.quantile(f, 1.0000001)"),
    (F, "T.quantile(f, 123456789.0)"),
    (F, "T.quantile(f, nan)"),
    (F, "T.quantile(f, T.tensor([0.1, 1.2]))"),
    (F, "T.quantile(f, T.tensor([nan]))"),
    (F, "T.quantile(f, T.tensor([[0.1]]))"),
    (F, "T.quantile(f, T.tensor([0.1], dtype=T.float64))"),
    (F, "T.quantile(f, T.tensor([1]))"),
    (F, "T.quantile(f.long(), 0.5)"),
    (F, "T.quantile(f.long(), 1.5)"),
    (F, "T.quantile(f.half(), 0.5)"),
    (F, "T.quantile(f, 0.5, interpolation='foo')"),
    (F, "T.nanquantile(f, 1.5, interpolation='foo')"),
    (F, "T.quantile(f, 0.5, dim=7)"),
    (F, "T.quantile(f, T.tensor([1.5]), dim=7)"),
    (F, "T.quantile(f, 0.5, 0, True, 'nearest')"),
    (F, "T.quantile(f, [0.5])"),
    (F, "T.quantile(f, 'a')"),
    (F, "T.quantile(f, 0.5, dim=(0,))"),
    (F, "T.quantile(f, 1)"),
    (F, "T.quantile(f, True)"),
    (S, "T.quantile(s, 0.5, dim=1)"),
    ("", "T.quantile(1.0, 0.5)"),
    ("", "T.quantile(T.ones(0), 0.5)"),
    ("", "T.quantile(T.ones(0), 1.5)"),
    ("", "T.quantile(T.ones(2, 0), 0.5, dim=0)"),
    ("", "T.nanquantile(T.ones(0), 0.5)"),
    ("", "T.nanquantile(T.tensor([1, 2]), T.tensor([0.5]))"),
)
def test_quantile_errors(setup, expr):
    check(setup, expr)


# ---- sort, argsort, msort, topk, kthvalue, mode, unique with NaN and ties ---------------------------------

@cases(
    (N, "T.sort(n, descending=True)"),
    (N, "n.sort(0, True)"),
    (N, "T.sort(n, dim=-1, descending=True, stable=True)"),
    (V, "T.sort(v, descending=True)"),
    (V, "T.sort(v)"),
    (M, "m.sort(1, descending=True)"),
    (M, "T.argsort(m, 1, descending=True)"),
    (M, "T.argsort(m, 0, True)"),
    (M, "T.msort(m)"),
    ("", "T.sort(T.tensor([inf, nan, -inf, 1.]), descending=True)"),
    ("", "T.sort(T.tensor([True, True, False, True]), descending=True)"),
    ("", "T.sort(T.tensor([0, 1, 2, 1], dtype=T.uint8), descending=True)"),
    ("", "T.sort(T.tensor([-2 ** 63, 5, 0, -2 ** 63]), descending=True)"),
    ("", "T.argsort(T.tensor([[1, 1, 2, 2], [3, 1, 3, 1]]), descending=True)"),
    (M, "T.topk(m, 2)"),
    (M, "T.topk(m, 2, largest=False)"),
    (M, "T.topk(m, 1, dim=0)"),
)
def test_sort_nan(setup, expr):
    check(setup, expr)


def test_sort_ties_follow_pytorch_kernels():
    """Equal values in rows of more than 16: std::sort's order (stable=False, the default), std::stable_sort's
    (stable=True), a radix sort's (a long 1-D integer tensor, ascending), the identity (an expanded dim)."""
    torch = torch_or_skip()
    rng = np.random.default_rng(11)
    calls = ["T.sort(x)", "T.sort(x, descending=True)", "T.sort(x, 0)", "T.sort(x, stable=True)",
             "T.sort(x, dim=0, descending=True, stable=True)", "T.sort(x, stable=False)", "T.sort(x, stable=None)",
             "T.argsort(x, 1, True)", "T.argsort(x, dim=0, stable=True)", "T.msort(x)"]
    for trial in range(6):
        data = rng.integers(0, 4, (int(rng.integers(17, 70)), int(rng.integers(17, 70)))).astype(np.float32)
        if trial % 2:
            data[rng.random(data.shape) < 0.2] = np.nan
        for call in calls:
            mine = eval(call, {"T": mg, "x": mg.tensor(data)})
            theirs = eval(call, {"T": torch, "x": torch.tensor(data)})
            if isinstance(mine, tuple):
                np.testing.assert_array_equal(mine.values.numpy(), theirs.values.numpy())
                mine, theirs = mine.indices, theirs.indices
            np.testing.assert_array_equal(mine.numpy(), theirs.numpy(), err_msg=call)  # (msort: NaN == NaN)
    big = rng.integers(0, 9, 40000)
    for desc in (False, True):
        assert mg.sort(mg.tensor(big), descending=desc).indices.tolist() == \
            torch.sort(torch.tensor(big), descending=desc).indices.tolist()
    assert mg.sort(mg.ones(1, 3).expand(40, 3), 0).indices.tolist() == \
        torch.sort(torch.ones(1, 3).expand(40, 3), 0).indices.tolist()


@cases(
    ("x = T.tensor([3., 1, 2, 1] * 6, requires_grad=True)", "T.sort(x)"),      # the gradient follows the indices
    ("x = T.tensor([3., 1, 2, 1] * 6, requires_grad=True)", "T.sort(x, stable=True)"),
    ("x = T.tensor([3., 1, 2, 1] * 6, requires_grad=True)", "T.quantile(x, T.tensor([0.2, 0.5, 0.9]))"),
    ("x = T.tensor([3., 1, 2, 1] * 6, requires_grad=True)", "T.sort(x, 0, stable=True)"),
    ("x = T.tensor([3., 1, 2, 1] * 6, requires_grad=True)", "x.sort(0, stable=True)"),
    ("x = T.tensor([3., 1, 2, 1] * 6, requires_grad=True)", "T.sort(x, stable=1)"),
    ("x = T.tensor([3., 1, 2, 1] * 6, requires_grad=True)", "T.argsort(x, stable=None)"),
    ("x = T.tensor([3., 1, 2, 1] * 6, requires_grad=True)", "x.argsort(1, stable=False)"),
    ("x = T.tensor([3., 1, 2, 1] * 6, requires_grad=True)", "T.sort(x, stable=True, dim=None)"),
)
def test_sort_overloads(setup, expr):
    check(setup, expr)


@cases(
    (M, "T.kthvalue(m, 1)"),
    (M, "T.kthvalue(m, 3)"),
    (M, "m.kthvalue(2, 0, True)"),
    (V, "T.kthvalue(v, 6)"),
    (V, "T.kthvalue(v, 5)"),
    (N, "T.kthvalue(n, 1, 1)"),
    ("", "T.kthvalue(T.tensor([[1., 1, 2, 2], [nan, nan, 1, 1], [nan, 2, nan, 2]]), 1)"),
    ("", "T.kthvalue(T.tensor([[1., 1, 2, 2], [nan, nan, 1, 1], [nan, 2, nan, 2]]), 4)"),
    ("", "T.kthvalue(T.tensor([3, 1, 3, 3, 1, 2]), 4)"),
    (M, "T.mode(m)"),
    (M, "m.mode(0)"),
    (V, "T.mode(v)"),
    (N, "T.mode(n, 0, True)"),
    ("", "T.mode(T.tensor([[1., 1, 2, 2], [nan, nan, 1, 1], [nan, 2, nan, 2]]))"),
    ("", "T.mode(T.tensor([nan, 1., nan, 0.]))"),
)
def test_selection_nan(setup, expr):
    check(setup, expr)


def test_kthvalue_mode_ties_follow_pytorch_kernels():
    """Which of several equal (or NaN) values kthvalue and mode return: PyTorch's quickselect / std::sort."""
    torch = torch_or_skip()
    rng = np.random.default_rng(7)
    for trial in range(60):
        n = int(rng.integers(2, 60))
        data = rng.integers(0, int(rng.integers(1, 6)), (3, n)).astype(np.float32)
        if trial % 2:
            data[rng.random(data.shape) < 0.3] = np.nan
        k = int(rng.integers(1, n + 1))
        for fn, args in (("kthvalue", (k, 1)), ("mode", (1,))):
            mine = getattr(mg, fn)(mg.tensor(data), *args)
            theirs = getattr(torch, fn)(torch.tensor(data), *args)
            assert mine.indices.tolist() == theirs.indices.tolist(), (fn, data.tolist(), k)
            np.testing.assert_array_equal(mine.values.numpy(), theirs.values.numpy())


@cases(  # (on tensors without grad: minigrad's unique records no Unique2Backward0)
    (N, "T.unique(n.detach())"),
    (N, "T.unique(n.detach(), return_inverse=True, return_counts=True)"),
    (N, "n.detach().unique(sorted=False, return_counts=True)"),
    ("", "T.unique(T.tensor([[2., nan, 1.], [nan, 2., 2.]]), return_inverse=True)"),
)
def test_unique_nan(setup, expr):
    check(setup, expr, grads=False)


# ---- (2) reductions over an empty dim -------------------------------------------------------------------

E = "e = T.ones(2, 0, 3, requires_grad=True)\n"


@cases(
    *[(E, f"T.{fn}(e)") for fn in ("amax", "amin", "argmax", "argmin")],
    *[(E, f"T.{fn}(e, 1)") for fn in ("amax", "amin", "argmax", "argmin", "max", "min", "median", "nanmedian",
                                       "mode", "logsumexp", "prod", "cummax", "cummin")],
    *[(E, f"e.{fn}(-2, True)") for fn in ("amax", "amin", "argmax", "argmin", "max", "min", "median", "mode",
                                          "logsumexp", "prod")],
    *[(E, f"T.{fn}(e, 0)") for fn in ("amax", "argmin", "max", "median", "mode", "logsumexp", "prod")],
    (E, "e.amax((0, 1))"),
    (E, "e.amax((2, 1))"),
    (E, "e.amin((0, 2))"),
    (E, "e.amax((1, 1))"),
    (E, "e.amax((0, 0))"),
    (E, "e.amax((1, 5))"),
    (E, "e.amax(None)"),
    (E, "e.amax(())"),
    (E, "e.amin(-2)"),
    (E, "e.argmax(None, True)"),
    (E, "e.argmin(5)"),
    (E, "e.max()"),
    (E, "e.min()"),
    (E, "T.median(e)"),
    (E, "T.nanmedian(e)"),
    (E, "T.kthvalue(e, 1, 1)"),
    (E, "T.kthvalue(e, 0, -2)"),
    (E, "T.kthvalue(e, 1, 0)"),
    (E, "T.topk(e, 0, 1)"),
    (E, "T.topk(e, 1, 1)"),
    (E, "T.aminmax(e, dim=1)"),
    (E, "T.logsumexp(e, ())"),
    (E, "T.logsumexp(e, (), True)"),
    (E, "T.logsumexp(e, (0, 1))"),
    (E, "T.softmax(e, 1)"),
    (E, "T.log_softmax(e, 1)"),
    (E, "T.nn.functional.softmax(e, 1)"),
    (E, "T.nn.functional.log_softmax(e, -2)"),
    (E, "T.nn.functional.softmin(e, 1)"),
    (E, "T.linalg.vector_norm(e, inf, 1)"),
    (E, "T.linalg.vector_norm(e, -inf)"),
    (E, "T.linalg.vector_norm(e, -inf, 0)"),
    (E, "e.norm(inf, -2)"),
    (E, "e.norm(inf)"),
    ("", "T.ones(0).argmax(-1)"),
    ("", "T.ones(0).amax(0)"),
    ("", "T.ones(0, dtype=T.int64).amax(0)"),
    ("", "T.ones(0, dtype=T.bool).amin(0)"),
    ("", "T.ones(0).logsumexp(())"),
    ("", "T.ones(0).mode()"),
    ("", "T.ones(0, 2).cummin(0)"),
)
def test_empty_reductions(setup, expr):
    check(setup, expr)


# ---- (3) argument parsing: flip, rot90, roll, index_fill ---------------------------------------------------

A = "a = T.arange(6.).reshape(2, 3).requires_grad_()\n"
I0 = "i = T.tensor([0])\n"


@cases(
    (A, "T.flip(a, 0)"),
    (A, "T.flip(a, 0, 1)"),
    (A, "T.flip(a, 0.5)"),
    (A, "T.flip(a, None)"),
    (A, "T.flip(a, [0.5])"),
    (A, "T.flip(a, (1,))"),
    (A, "T.flip(a, [])"),
    (A, "T.flip(a)"),
    (A, "T.flip(a, dims=0)"),
    (A, "T.flip(a, dims=[1, 0])"),
    ("", "T.flip(1.5, (0,))"),
    (A, "a.flip(0)"),
    (A, "a.flip(0, 1)"),
    (A, "a.flip([0, 1])"),
    (A, "a.flip(0.5)"),
    (A, "a.flip([0.5])"),
    (A, "a.flip(None)"),
    (A, "a.flip(0, 0)"),
    (A, "a.flip()"),
    (A, "T.fliplr(a)"),
    (A, "T.flipud(a)"),
)
def test_flip_arguments(setup, expr):
    check(setup, expr)


@cases(
    (A, "T.rot90(a, 1, (0, 1))"),
    (A, "T.rot90(a, 1, [1, 0])"),
    (A, "T.rot90(a, 1, 0, 1)"),
    (A, "T.rot90(a, 1, 1)"),
    (A, "T.rot90(a, 1.5)"),
    (A, "T.rot90(a, 1, (0.5, 1))"),
    (A, "T.rot90(a, None)"),
    (A, "T.rot90(a, 1, None)"),
    (A, "T.rot90(a, k=2, dims=(1, 0))"),
    ("", "T.rot90(1.5)"),
    (A, "a.rot90(1, (0, 1))"),
    (A, "a.rot90(1, 0, 1)"),
    (A, "a.rot90(1.5)"),
    (A, "a.rot90(True)"),
    (A, "a.rot90(1, (0.5, 1))"),
    (A, "a.rot90(1, 'ab')"),
    (A, "a.rot90(1, 1)"),
    (A, "a.rot90(-1)"),
)
def test_rot90_arguments(setup, expr):
    check(setup, expr)


@cases(
    (A, "T.roll(a, 1, 0)"),
    (A, "T.roll(a, (1, 2), (0, 1))"),
    (A, "T.roll(a, 1.5)"),
    (A, "T.roll(a, 1, 0.5)"),
    (A, "T.roll(a, [1.5])"),
    (A, "T.roll(a, 1, [0.5])"),
    (A, "a.roll(None)"),
    (A, "a.roll(1.5)"),
    (A, "a.roll(1, 0.5)"),
    (A, "a.roll((1, 2), 0)"),
)
def test_roll_arguments(setup, expr):
    check(setup, expr)


@cases(
    (I0, "T.index_fill(1.5, 0, i, 1.0)"),
    (A, "T.index_fill(a, 0, [0], 1.0)"),
    (A + I0, "T.index_fill(a, 0.5, i, 1.0)"),
    (A + I0, "T.index_fill(a, 'a', i, 1.0)"),
    (A + I0, "T.index_fill(a, 0, i, 'a')"),
    (A + I0, "T.index_fill(a, 0, i, None)"),
    (A + I0, "T.index_fill(a, 0, i)"),
    (A + I0, "T.index_fill(a, 0, i, T.tensor(2.))"),
    (A + I0, "T.index_fill(a, 0, i, True)"),
    (A + I0, "T.index_fill(a, dim=0, index=i, value=-1)"),
    (A + I0, "a.index_fill(0.5, i, 1.0)"),
    (A + I0, "a.index_fill(0, i, None)"),
    (A + I0, "a.index_fill(dim=0, index=i, value=1.0)"),
    (A, "a.index_fill(0, [0], 1.0)"),
    (A, "a.detach().index_fill_(0, [0], 1.0)"),
    (A + I0, "a.detach().index_fill_(0.5, i, 1.0)"),
    (A + I0, "a.detach().index_fill_(0, i, 2)"),
)
def test_index_fill_arguments(setup, expr):
    check(setup, expr)
