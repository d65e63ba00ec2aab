"""cross_entropy / nll_loss, the loss of benchmark W1, and its fast paths (2-D input, no weight, no
ignored target): values, gradients, graphs and errors against PyTorch, and bit for bit against the
plain NumPy computation, which the fast paths must reproduce exactly. Then the general path: ignored
targets (skipped, never multiplied by 0) and PyTorch's argument checks, types and messages."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import minigrad
from tests.parity import assert_close, torch_or_skip

N_CLASSES = 5
SHAPES = {1: (5,), 2: (6, 5), 3: (3, 5, 4), 4: (2, 5, 3, 2)}   # the classes: dim 0 of a 1-D input, else dim 1


def _inputs(rank: int, dtype, weighted: bool, ignore_hit: bool, seed: int = 0):
    """Logits, int64 targets (every other one ignored if ``ignore_hit``) and class weights or None."""
    rng = np.random.default_rng(seed)
    shape = SHAPES[rank]
    x = rng.standard_normal(shape).astype(dtype)
    t = rng.integers(0, N_CLASSES, () if rank == 1 else (shape[0], *shape[2:]))
    if ignore_hit:
        t = np.where(np.arange(t.size).reshape(t.shape) % 2 == 0, -100, t)
    w = rng.uniform(0.5, 2.0, N_CLASSES).astype(dtype) if weighted else None
    return x, t, w


def _loss_and_grad(lib, fn: str, x, t, w, **kw):
    xt = lib.tensor(x, requires_grad=True)
    loss = getattr(lib.nn.functional, fn)(xt, lib.tensor(t), weight=None if w is None else lib.tensor(w), **kw)
    (grad,) = lib.autograd.grad(loss.sum(), xt)
    return loss, grad


GRID = list(itertools.product(("cross_entropy", "nll_loss"), (1, 2, 3, 4), (np.float32, np.float64),
                              (False, True), (False, True), ("none", "mean", "sum")))


def _grid_param(fn, rank, dtype, weighted, ignore_hit, reduction):
    # rank 1 with ignore_hit: the only target is ignored (total weight 0: mean is nan, its gradient 0)
    ident = f"{fn}-{rank}d-{np.dtype(dtype).name}-{'w' if weighted else 'now'}-" \
            f"{'ignored' if ignore_hit else 'noignore'}-{reduction}"
    return pytest.param(fn, rank, dtype, weighted, ignore_hit, reduction, id=ident)


@pytest.mark.parametrize("fn, rank, dtype, weighted, ignore_hit, reduction", [_grid_param(*c) for c in GRID])
def test_values_and_gradients_match_torch(fn, rank, dtype, weighted, ignore_hit, reduction):
    torch = torch_or_skip()
    x, t, w = _inputs(rank, dtype, weighted, ignore_hit)
    (lm, gm), (lt, gt) = (_loss_and_grad(lib, fn, x, t, w, reduction=reduction) for lib in (minigrad, torch))
    assert lm.grad_fn.name() == lt.grad_fn.name()
    assert lm.dtype.name == str(lt.dtype).removeprefix("torch.") and tuple(lm.shape) == tuple(lt.shape)
    # Bit for bit where the arithmetic leaves no choice: nll's per-element losses are -w·x, its
    # unweighted gradients ±1, ±1/N or 0. Elsewhere the two libraries sum in different orders.
    if fn == "nll_loss" and reduction == "none":
        np.testing.assert_array_equal(lm.detach().numpy(), lt.detach().numpy())
    else:
        assert_close(lm, lt)
    if fn == "nll_loss" and not weighted:
        np.testing.assert_array_equal(gm.numpy(), gt.numpy())
    else:
        assert_close(gm, gt)


# ---- bit for bit against PyTorch ------------------------------------------------------------------

def _reference(x: np.ndarray, t: np.ndarray, reduction: str):
    """cross_entropy(x, t) and its gradient as PyTorch computes them (its float32 exp and its sum order)."""
    torch = torch_or_skip()
    xt = torch.from_numpy(x.copy(order="A")).requires_grad_()
    loss = torch.nn.functional.cross_entropy(xt, torch.from_numpy(t), reduction=reduction)
    loss.sum().backward()
    return loss.detach().numpy(), xt.grad.numpy()


def _logits(n: int, c: int, dtype, special: bool, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal((n, c)) * 3).astype(dtype)
    if special:  # infinities, nan, signed zeros (ties for the row max), huge values
        values = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 1e30, -1e30, -200.0], dtype)
        x.flat[rng.integers(0, x.size, x.size // 3)] = rng.choice(values, x.size // 3)
    return x


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("n, c, special, fortran", [(128, 10, False, False), (128, 10, True, False),
                                                    (7, 3, True, False), (1, 1, False, False),
                                                    (64, 10, True, True), (300, 1000, False, False),
                                                    (0, 4, False, False)])
def test_close_to_torch(dtype, reduction, n, c, special, fortran):
    x = _logits(n, c, dtype, special, seed=n + c)
    if fortran:
        x = np.asfortranarray(x)
    t = np.random.default_rng(1).integers(0, c, n)
    xt = minigrad.from_numpy(x.copy(order="A")).requires_grad_()
    loss = minigrad.nn.functional.cross_entropy(xt, minigrad.from_numpy(t), reduction=reduction)
    loss.sum().backward()
    want_loss, want_grad = _reference(x, t, reduction)
    assert loss.dtype.name == np.dtype(dtype).name
    # The last bits can differ now and then (float64 exp is NumPy's; a row's float32 log-sum-exp can round
    # the other way, which moves that whole row by an ulp or two): close values, and nan / inf / signed
    # zeros exactly where PyTorch has them.
    rtol = 2e-6 if dtype == np.float32 else 1e-14
    np.testing.assert_allclose(loss.detach().numpy(), want_loss, rtol=rtol, atol=0)
    np.testing.assert_allclose(xt.grad.numpy(), want_grad, rtol=rtol, atol=np.finfo(dtype).tiny)
    # signed zeros too (assert_array_equal takes 0.0 == -0.0)
    finite = np.isfinite(want_grad)
    np.testing.assert_array_equal(np.signbit(xt.grad.numpy()[finite]), np.signbit(want_grad[finite]))


def test_fast_and_general_paths_agree():
    """The same 2-D problem through the fast path and, with a weight of ones, through the general one."""
    x = _logits(128, 10, np.float32, special=False, seed=3)
    t = np.random.default_rng(4).integers(0, 10, 128)
    results = []
    for weight in (None, minigrad.ones(10)):
        xt = minigrad.from_numpy(x.copy()).requires_grad_()
        loss = minigrad.nn.functional.cross_entropy(xt, minigrad.from_numpy(t), weight=weight)
        loss.backward()
        results.append((loss.item(), xt.grad.numpy()))
    assert results[0][0] == results[1][0]
    np.testing.assert_array_equal(results[0][1], results[1][1])


# ---- graph, saved attributes, double backward ---------------------------------------------------

def test_w1_graph_and_saved_attributes_match_torch():
    torch = torch_or_skip()
    x = _logits(128, 10, np.float32, special=False, seed=5)
    t = np.random.default_rng(6).integers(0, 10, 128)
    nodes = []
    for lib in (minigrad, torch):
        xt = lib.tensor(x, requires_grad=True)
        nll = lib.nn.functional.cross_entropy(xt, lib.tensor(t)).grad_fn
        nodes.append((nll, nll.next_functions[0][0]))
    (nll_m, ls_m), (nll_t, ls_t) = nodes
    assert (type(nll_m).__name__, type(ls_m).__name__) == ("NllLossBackward0", "LogSoftmaxBackward0")
    assert (type(nll_t).__name__, type(ls_t).__name__) == ("NllLossBackward0", "LogSoftmaxBackward0")
    assert type(ls_m.next_functions[0][0]).__name__ == type(ls_t.next_functions[0][0]).__name__
    saved = sorted(a for a in dir(nll_m) if a.startswith("_saved_"))
    assert saved == sorted(a for a in dir(nll_t) if a.startswith("_saved_"))
    assert sorted(a for a in dir(ls_m) if a.startswith("_saved_")) == ["_saved_dim", "_saved_result"]
    for attr in ("_saved_ignore_index", "_saved_reduction", "_saved_weight"):
        assert getattr(nll_m, attr) == getattr(nll_t, attr)
    assert ls_m._saved_dim == ls_t._saved_dim
    np.testing.assert_array_equal(nll_m._saved_target.numpy(), nll_t._saved_target.numpy())
    np.testing.assert_array_equal(nll_m._saved_total_weight.numpy(), nll_t._saved_total_weight.numpy())
    assert_close(nll_m._saved_self, nll_t._saved_self)
    assert_close(ls_m._saved_result, ls_t._saved_result)


@pytest.mark.parametrize("weighted, ignore_hit", [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_double_backward_through_cross_entropy(weighted, ignore_hit, reduction):
    torch = torch_or_skip()
    x, t, w = _inputs(2, np.float64, weighted, ignore_hit, seed=8)
    v = np.random.default_rng(9).standard_normal(x.shape)
    out = []
    for lib in (minigrad, torch):
        xt = lib.tensor(x, requires_grad=True)
        loss = lib.nn.functional.cross_entropy(xt, lib.tensor(t), weight=None if w is None else lib.tensor(w),
                                               reduction=reduction)
        (g,) = lib.autograd.grad(loss.sum(), xt, create_graph=True)
        (gg,) = lib.autograd.grad((g * lib.tensor(v)).sum(), xt)
        out.append((g, gg, type(g.grad_fn).__name__))
    (gm, ggm, name_m), (gt, ggt, name_t) = out
    assert name_m == name_t == "LogSoftmaxBackwardDataBackward0"
    assert_close(gm, gt)
    assert_close(ggm, ggt)
    assert np.abs(ggm.numpy()).max() > 1e-3   # a real second derivative, not zeros


# ---- errors -------------------------------------------------------------------------------------

ERROR_CASES = {
    "2d_class_count": lambda lib, F: F.cross_entropy(lib.zeros(3, 4), lib.tensor([0, 4, 1])),
    "2d_negative": lambda lib, F: F.nll_loss(lib.zeros(3, 4), lib.tensor([0, -1, 1])),
    "2d_first_bad_reported": lambda lib, F: F.nll_loss(lib.zeros(3, 4), lib.tensor([7, -1, 1])),
    "2d_other_ignore_index": lambda lib, F: F.nll_loss(lib.zeros(3, 4), lib.tensor([0, -100, 1]), ignore_index=2),
    "2d_uint8": lambda lib, F: F.nll_loss(lib.zeros(3, 4), lib.tensor([0, 9, 1], dtype=lib.uint8)),
    "1d": lambda lib, F: F.cross_entropy(lib.zeros(4), lib.tensor(4)),
    "1d_negative": lambda lib, F: F.cross_entropy(lib.zeros(4), lib.tensor(-2)),
    "3d": lambda lib, F: F.cross_entropy(lib.zeros(2, 3, 2), lib.tensor([[0, 5], [1, 1]])),
    "4d": lambda lib, F: F.cross_entropy(lib.zeros(2, 3, 2, 2), lib.tensor([[[0, 1], [2, 3]], [[0, 0], [0, 0]]])),
}


@pytest.mark.parametrize("case", sorted(ERROR_CASES))
def test_out_of_bounds_target_errors_match_torch(case):
    torch = torch_or_skip()
    errors = []
    for lib in (minigrad, torch):
        with pytest.raises(IndexError) as info:
            ERROR_CASES[case](lib, lib.nn.functional)
        errors.append(str(info.value))
    assert errors[0] == errors[1]
    assert errors[0].startswith("Target ") and errors[0].endswith(" is out of bounds.")


@pytest.mark.parametrize("ignore_index, bad", [(4, 4), (-1, -1), (200, 200)])
def test_out_of_range_target_equal_to_ignore_index_is_allowed(ignore_index, bad):
    torch = torch_or_skip()
    x = np.random.default_rng(10).standard_normal((3, 4)).astype(np.float32)
    t = np.array([0, bad, 3])
    (lm, gm), (lt, gt) = (_loss_and_grad(lib, "cross_entropy", x, t, None, ignore_index=ignore_index)
                          for lib in (minigrad, torch))
    assert_close(lm, lt)
    assert_close(gm, gt)
    assert not gm.numpy()[1].any()   # the ignored row gets no gradient


# ---- ignored targets: skipped, never multiplied by 0 (the general path) ---------------------------

def _same_bits(mine, theirs) -> None:
    """Equal values, nan in the same places and zeros of the same sign (a nan's sign bit means nothing)."""
    a, b = mine.detach().numpy(), theirs.detach().numpy()
    assert a.shape == b.shape and a.dtype == b.dtype
    np.testing.assert_array_equal(a, b)
    numbers = ~np.isnan(a)
    np.testing.assert_array_equal(np.signbit(a[numbers]), np.signbit(b[numbers]))


def _all_ignored(rank: int):
    shape = SHAPES[rank]
    x = np.random.default_rng(rank).standard_normal(shape)
    return x, np.full(() if rank == 1 else (shape[0], *shape[2:]), -100)


@pytest.mark.parametrize("fn", ["nll_loss", "cross_entropy"])
@pytest.mark.parametrize("rank", [1, 2, 3, 4])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_all_targets_ignored_match_torch(fn, rank, weighted, reduction):
    """Total weight 0: mean is 0/0 = nan in PyTorch, but its gradient is exactly 0 everywhere."""
    torch = torch_or_skip()
    x, t = _all_ignored(rank)
    w = np.linspace(0.5, 2.0, N_CLASSES) if weighted else None
    (lm, gm), (lt, gt) = (_loss_and_grad(lib, fn, x, t, w, reduction=reduction) for lib in (minigrad, torch))
    _same_bits(lm, lt)
    _same_bits(gm, gt)
    assert np.isnan(lm.item()) if reduction == "mean" else not lm.detach().numpy().any()
    assert not gm.numpy().any() and not np.signbit(gm.numpy()).any()
    assert type(lm.grad_fn).__name__ == type(lt.grad_fn).__name__


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_all_targets_ignored_double_backward_matches_torch(reduction):
    torch = torch_or_skip()
    x, t = _all_ignored(2)
    v = np.random.default_rng(2).standard_normal(x.shape)
    out = []
    for lib in (minigrad, torch):
        xt = lib.tensor(x, requires_grad=True)
        loss = lib.nn.functional.cross_entropy(xt, lib.tensor(t), reduction=reduction)
        (g,) = lib.autograd.grad(loss.sum(), xt, create_graph=True)
        (gg,) = lib.autograd.grad((g * lib.tensor(v)).sum(), xt)
        out.append((g, gg))
    (gm, ggm), (gt, ggt) = out
    _same_bits(gm, gt)
    _same_bits(ggm, ggt)


def test_empty_batch_mean_is_nan_like_torch():
    torch = torch_or_skip()
    x, t = np.zeros((0, 3)), np.zeros(0, dtype=np.int64)
    (lm, gm), (lt, gt) = (_loss_and_grad(lib, "nll_loss", x, t, None) for lib in (minigrad, torch))
    _same_bits(lm, lt)
    assert np.isnan(lm.item()) and tuple(gm.shape) == tuple(gt.shape) == (0, 3)


def test_ignored_row_with_inf_does_not_reach_the_loss():
    """The example of the bug report: the ignored row's -inf is never read."""
    F = minigrad.nn.functional
    x = minigrad.tensor([[-float("inf"), 0.0], [0.0, -1.0]], requires_grad=True)
    loss = F.nll_loss(x, minigrad.tensor([-100, 1]))
    assert loss.item() == 1.0
    loss.backward()
    assert x.grad.tolist() == [[0.0, 0.0], [0.0, -1.0]]


INF, NAN = float("inf"), float("nan")
# Ignored rows (0 and 2) hold inf/nan, also at class 0, where the old code read ignored targets from.
NONFINITE_X = {
    1: ([INF, NAN, -INF], -100),
    2: ([[-INF, 0.0, 1.0], [0.5, -1.0, 2.0], [NAN, 3.0, INF], [1.0, 2.0, -3.0]], [-100, 1, -100, 2]),
    4: ([[[[-INF, 0.5]], [[NAN, -1.0]], [[INF, 2.0]]]], [[[-100, 1]]]),   # (1, 3, 1, 2)
}


@pytest.mark.parametrize("rank", sorted(NONFINITE_X))
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_nonfinite_logits_in_ignored_rows_match_torch_bit_for_bit(rank, weighted, reduction, dtype):
    torch = torch_or_skip()
    x, t = NONFINITE_X[rank]
    x, t = np.array(x, dtype), np.array(t)
    w = np.array([1.5, 2.0, 0.25], dtype) if weighted else None
    (lm, gm), (lt, gt) = (_loss_and_grad(lib, "nll_loss", x, t, w, reduction=reduction) for lib in (minigrad, torch))
    _same_bits(lm, lt)
    _same_bits(gm, gt)
    if rank > 1:
        assert np.isfinite(lm.detach().numpy()).all()


@pytest.mark.parametrize("label_smoothing", [0.0, 0.2])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_cross_entropy_ignored_row_with_minus_inf_matches_torch(label_smoothing, weighted, reduction):
    """log_softmax keeps a -inf logit; the ignored row must not turn it into a nan loss or gradient."""
    torch = torch_or_skip()
    x = np.array([[-INF, 0.0, 1.0], [0.5, -1.0, 2.0], [1.0, -INF, 0.0], [1.0, 2.0, -3.0]])
    t = np.array([-100, 1, -100, 2])
    w = np.array([1.5, 2.0, 0.25]) if weighted else None
    results = [_loss_and_grad(lib, "cross_entropy", x, t, w, reduction=reduction, label_smoothing=label_smoothing)
               for lib in (minigrad, torch)]
    (lm, gm), (lt, gt) = results
    assert np.isfinite(lm.detach().numpy()).all() and np.isfinite(gm.numpy()).all()
    assert_close(lm, lt, rtol=1e-12, atol=1e-12)
    assert_close(gm, gt, rtol=1e-12, atol=1e-12)
    assert not gm.numpy()[[0, 2]].any()


@pytest.mark.parametrize("rank", [1, 2, 4])
def test_nonfinite_upstream_gradient_of_ignored_targets_is_not_read(rank):
    """reduction='none': the gradient of an ignored loss element is never read, even if it is inf or nan."""
    torch = torch_or_skip()
    x, t = NONFINITE_X[rank]
    x, t = np.nan_to_num(np.array(x), nan=0.0, posinf=1.0, neginf=-1.0), np.array(t)
    first = np.arange(t.size).reshape(t.shape) == 0   # an ignored target in every case
    upstream = np.where(t != -100, 3.0, np.where(first, np.inf, np.nan))
    grads = []
    for lib in (minigrad, torch):
        xt = lib.tensor(x, requires_grad=True)
        loss = lib.nn.functional.nll_loss(xt, lib.tensor(t), weight=lib.tensor(np.array([1.5, 2.0, 0.25])),
                                          reduction="none")
        loss.backward(lib.tensor(upstream))
        grads.append(xt.grad)
    _same_bits(*grads)
    assert np.isfinite(grads[0].numpy()).all()


@pytest.mark.filterwarnings("ignore:`torch.jit.script` is deprecated")   # raised inside torch's forward AD
@pytest.mark.parametrize("rank", [1, 2, 4])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_forward_ad_skips_ignored_targets_like_torch(rank, reduction):
    torch = torch_or_skip()
    x, t = NONFINITE_X[rank]
    x = np.nan_to_num(np.array(x), nan=0.0, posinf=1.0, neginf=-1.0)
    tangent = np.where(np.isnan(np.array(NONFINITE_X[rank][0])), np.inf, 2.0)   # inf only in ignored rows
    out = []
    for lib in (minigrad, torch):
        fwad = lib.autograd.forward_ad
        with fwad.dual_level():
            dual = fwad.make_dual(lib.tensor(x), lib.tensor(tangent))
            loss = lib.nn.functional.nll_loss(dual, lib.tensor(t), weight=lib.tensor(np.array([1.5, 2.0, 0.25])),
                                              reduction=reduction)
            out.append(fwad.unpack_dual(loss))
    (pm, tm), (pt, tt) = out
    _same_bits(pm, pt)
    _same_bits(tm, tt)


# ---- shape mismatches: PyTorch's exception types and messages ------------------------------------

def _t(lib, shape, kind="long"):
    """A target: all 0 of the dtype ``kind``, or int64 all ignored / all out of bounds."""
    value = {"ignored": -100, "out_of_bounds": 5}.get(kind, 0)
    return lib.full(shape, value, dtype=getattr(lib, "long" if kind in ("ignored", "out_of_bounds") else kind))


def _w(lib, w_shape):
    """A weight of ones: of that shape (float32), or (3,) of that dtype when given a dtype's name."""
    if w_shape is None:
        return None
    return lib.ones(3, dtype=getattr(lib, w_shape)) if isinstance(w_shape, str) else lib.ones(w_shape)


SHAPE_ERROR_CASES = {
    # (input shape, target shape, target dtype, weight shape or None)
    "2d_batch": ((4, 3), (3,), "long", None),
    "2d_0d_target": ((4, 3), (), "long", None),
    "2d_one_row_0d_target": ((1, 3), (), "long", None),
    "2d_empty_0d_target": ((0, 3), (), "long", None),
    "2d_empty_0d_target_int32": ((0, 3), (), "int32", None),
    "2d_multi_target_int32": ((4, 3), (4, 1), "int32", None),
    "1d_target_size_2": ((3,), (2,), "long", None),
    "1d_int32_bad_weight": ((3,), (), "int32", (2,)),
    "2d_weight_2d": ((4, 3), (4,), "long", (3, 1)),
    "3d_0d_target": ((2, 3, 4), (), "long", None),
    "3d_empty_0d_target": ((0, 3, 4), (), "long", None),
    "3d_spatial": ((2, 3, 4), (2, 5), "int32", None),
    "3d_bad_weight": ((2, 3, 4), (2, 4), "long", (2,)),
    "3d_int32_bad_weight": ((2, 3, 4), (2, 4), "int32", (2,)),
    "3d_uint8": ((2, 3, 4), (2, 4), "uint8", None),
    "3d_uint8_bad_weight": ((2, 3, 4), (2, 4), "uint8", (2,)),
    "4d_target_2d": ((2, 3, 2, 2), (2, 2), "long", None),
    "4d_target_4d_float": ((2, 3, 2, 2), (2, 2, 2, 1), "float32", None),
    "4d_empty_0d_target": ((0, 3, 2, 2), (), "long", None),
    "4d_spatial": ((2, 3, 2, 2), (2, 2, 3), "long", None),
    "4d_spatial_uint8": ((2, 3, 2, 2), (2, 3, 2), "uint8", None),
    "4d_spatial_int32": ((2, 3, 2, 2), (2, 2, 3), "int32", None),
    "4d_spatial_bad_weight": ((2, 3, 2, 2), (2, 2, 3), "long", (4,)),
    "4d_uint8": ((2, 3, 2, 2), (2, 2, 2), "uint8", None),
    "4d_float_bad_weight": ((2, 3, 2, 2), (2, 2, 2), "float32", (2,)),
    "4d_bad_weight_0d": ((2, 3, 2, 2), (2, 2, 2), "long", ()),
    "5d_bad_weight": ((2, 3, 2, 2, 2), (2, 2, 2, 2), "long", (2,)),
    "1d_weight_dtype": ((3,), (), "long", "float64"),
    "2d_weight_dtype_ignored_targets": ((4, 3), (4,), "ignored", "float64"),
    "3d_weight_dtype_uint8": ((2, 3, 4), (2, 4), "uint8", "float64"),
    "4d_weight_dtype_out_of_bounds": ((2, 3, 2, 2), (2, 2, 2), "out_of_bounds", "float64"),
}


@pytest.mark.parametrize("fn", ["nll_loss", "cross_entropy"])
@pytest.mark.parametrize("case", sorted(SHAPE_ERROR_CASES))
def test_shape_and_argument_errors_match_torch(fn, case):
    torch = torch_or_skip()
    shape, t_shape, t_dtype, w_shape = SHAPE_ERROR_CASES[case]
    errors = []
    for lib in (minigrad, torch):
        with pytest.raises(Exception) as info:
            getattr(lib.nn.functional, fn)(lib.zeros(shape), _t(lib, t_shape, t_dtype), weight=_w(lib, w_shape))
        errors.append((type(info.value).__name__, str(info.value)))
    assert errors[0] == errors[1]


@pytest.mark.parametrize("case, error", [
    ("2d_batch", ("ValueError", "Expected input batch_size (4) to match target batch_size (3).")),
    ("2d_one_row_0d_target", ("ValueError", "Expected input batch_size (1) to match target batch_size (0).")),
    ("2d_empty_0d_target", ("IndexError", "Dimension specified as 0 but tensor has no dimensions")),
    ("4d_target_2d", ("RuntimeError", "only batches of spatial targets supported (3D tensors) but got targets of "
                                      "dimension: 2")),
    ("4d_spatial", ("RuntimeError", "size mismatch (got input: [2, 3, 2, 2] , target: [2, 2, 3]")),
    ("4d_uint8", ("RuntimeError", "expected scalar type Long but found Byte")),
    ("3d_bad_weight", ("RuntimeError", "weight tensor should be defined either for all or no classes")),
    ("3d_empty_0d_target", ("RuntimeError", "ArrayRef: invalid slice, N = 1; size = 0")),
    ("3d_weight_dtype_uint8", ("RuntimeError", "expected scalar type Float but found Double")),
])
def test_shape_error_messages(case, error):
    """The texts themselves (PyTorch 2.13's), so that the parity test above cannot pass on a shared wrong one."""
    shape, t_shape, t_dtype, w_shape = SHAPE_ERROR_CASES[case]
    with pytest.raises(Exception) as info:
        minigrad.nn.functional.nll_loss(minigrad.zeros(shape), _t(minigrad, t_shape, t_dtype),
                                        weight=_w(minigrad, w_shape))
    assert (type(info.value).__name__, str(info.value)) == error


@pytest.mark.parametrize("fn", ["nll_loss", "cross_entropy"])
@pytest.mark.parametrize("target", [1, -100])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_1d_input_with_target_of_shape_1_like_torch(fn, target, reduction):
    """PyTorch 2.13 computes the forward (a 0-d loss) but its backward raises a size mismatch."""
    torch = torch_or_skip()
    x = np.array([1.0, 2.0, 3.0])
    losses, errors = [], []
    for lib in (minigrad, torch):
        xt = lib.tensor(x, requires_grad=True)
        loss = getattr(lib.nn.functional, fn)(xt, lib.tensor([target]), weight=lib.tensor(np.array([1.5, 2.0, 0.25])),
                                              reduction=reduction)
        losses.append(loss)
        with pytest.raises(RuntimeError) as info:
            loss.backward()
        errors.append(str(info.value))
    _same_bits(*losses) if fn == "nll_loss" else assert_close(*losses, rtol=1e-12, atol=0)
    assert tuple(losses[0].shape) == ()
    assert errors[0] == errors[1] == "size mismatch (got input: [3], target: [1])"
    assert losses[0].grad_fn._saved_total_weight.item() == losses[1].grad_fn._saved_total_weight.item()


def test_1d_input_with_target_of_shape_1_and_label_smoothing_raises_like_torch():
    torch = torch_or_skip()
    errors = []
    for lib in (minigrad, torch):
        with pytest.raises(RuntimeError) as info:
            lib.nn.functional.cross_entropy(lib.zeros(3), lib.tensor([1]), label_smoothing=0.1)
        errors.append(str(info.value))
    assert errors[0] == errors[1] == "output with shape [] doesn't match the broadcast shape [1]"


@pytest.mark.parametrize("fn", ["nll_loss", "cross_entropy"])
@pytest.mark.parametrize("shape, t_shape, w_shape", [((2, 3, 4), (2, 4), (3, 1)), ((2, 3, 2, 2), (2, 2, 2), (1, 3)),
                                                     ((0, 3, 4), (0, 4), None), ((2, 3, 0), (2, 0), None)])
def test_spatial_inputs_accept_what_torch_accepts(fn, shape, t_shape, w_shape):
    """nll_loss2d takes a weight of any shape with C elements; an empty batch gives nan (mean)."""
    torch = torch_or_skip()
    x = np.random.default_rng(11).standard_normal(shape)
    t = np.random.default_rng(12).integers(0, 3, t_shape)
    w = None if w_shape is None else np.linspace(0.5, 2.0, 3).reshape(w_shape)
    (lm, gm), (lt, gt) = (_loss_and_grad(lib, fn, x, t, w) for lib in (minigrad, torch))
    assert_close(lm, lt, rtol=1e-12, atol=1e-12)
    assert_close(gm, gt, rtol=1e-12, atol=1e-12)
