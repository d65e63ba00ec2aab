"""cross_entropy / nll_loss, the loss of benchmark W1, and its fast paths (2-D input, no weight, no
ignored target): values, gradients, graphs and errors against PyTorch, and bit for bit against the
plain NumPy computation, which the fast paths must reproduce exactly."""
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
    marks = ()
    if rank == 1 and ignore_hit and reduction == "mean":
        # The only target ignored: total weight 0, loss nan in both; PyTorch's gradient is 0, minigrad puts
        # 0/0 = nan at class 0 (where the ignored target is read from). Known, not part of the fast path.
        marks = pytest.mark.xfail(strict=True, reason="all targets ignored + mean: minigrad's grad has a nan")
    ident = f"{fn}-{rank}d-{np.dtype(dtype).name}-{'w' if weighted else 'now'}-" \
            f"{'ignored' if ignore_hit else 'noignore'}-{reduction}"
    return pytest.param(fn, rank, dtype, weighted, ignore_hit, reduction, marks=marks, id=ident)


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


# ---- bit for bit against the plain NumPy computation ------------------------------------------

def _reference(x: np.ndarray, t: np.ndarray, reduction: str):
    """cross_entropy(x, t) and its gradient for a 2-D x, computed plainly (np.max, np.sum, take/put_along_axis).

    This is what minigrad computed before its fast paths, one step at a time.
    """
    with np.errstate(all="ignore"):   # nan and inf inputs on purpose
        return _reference_quiet(x, t, reduction)


def _reference_quiet(x, t, reduction):
    shifted = x - np.max(x, axis=1, keepdims=True)
    logp = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
    w = np.ones(t.shape, x.dtype)
    losses = -np.take_along_axis(logp, t[:, None], 1)[:, 0] * w
    total = np.asarray(w.sum(), x.dtype)
    loss = {"none": losses, "mean": losses.sum() / total, "sum": losses.sum(dtype=x.dtype)}[reduction]
    coeff = -w * np.ones((), x.dtype)            # the gradient of loss.sum() is ones
    if reduction == "mean":
        coeff = coeff / total
    g_logp = np.zeros_like(logp)
    np.put_along_axis(g_logp, t[:, None], coeff[:, None], 1)
    grad = g_logp - np.exp(logp) * np.sum(g_logp, axis=1, keepdims=True)
    return np.asarray(loss, x.dtype), grad


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
def test_bitwise_equal_to_plain_numpy(dtype, reduction, n, c, special, fortran):
    x = _logits(n, c, dtype, special, seed=n + c)
    if fortran:
        x = np.asfortranarray(x)
    t = np.random.default_rng(1).integers(0, c, n)
    xt = minigrad.from_numpy(x.copy(order="A")).requires_grad_()
    loss = minigrad.nn.functional.cross_entropy(xt, minigrad.from_numpy(t), reduction=reduction)
    loss.sum().backward()
    want_loss, want_grad = _reference(x, t, reduction)
    assert loss.dtype.name == np.dtype(dtype).name
    np.testing.assert_array_equal(loss.detach().numpy(), want_loss)
    np.testing.assert_array_equal(xt.grad.numpy(), want_grad)
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
