"""Coverage-pass ops against PyTorch: 0-dim reductions over dim 0/-1, special functions, remainders,
scans, order statistics and torch.linalg (values, gradients, grad_fn and ``_saved_*`` names, errors)."""
from __future__ import annotations

import numpy as np
import pytest
from parity import torch_or_skip

import minigrad

RNG = np.random.default_rng(7)
A = RNG.uniform(0.5, 2.0, (3, 3))
B = RNG.uniform(0.5, 2.0, (3, 3))


def _run(T, fn, *arrays):
    """(output, gradients, grad_fn name, saved names) of ``fn`` under library ``T``, in float64."""
    xs = [T.tensor(a, dtype=T.float64, requires_grad=True) for a in arrays]
    out = fn(T, *xs)
    out = out[0] if isinstance(out, tuple) else out
    node = out.grad_fn
    grads = T.autograd.grad(out, xs, T.ones_like(out), allow_unused=True) if out.requires_grad else [None] * len(xs)
    saved = sorted(a for a in dir(node) if a.startswith("_saved_")) if node is not None else []
    return (out.detach().numpy(), [None if g is None else g.numpy() for g in grads],
            None if node is None else type(node).__name__, saved)


def _check(fn, *arrays):
    torch = torch_or_skip()
    got, want = _run(minigrad, fn, *arrays), _run(torch, fn, *arrays)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-9, atol=1e-12)
    for g, w in zip(got[1], want[1]):
        assert (g is None) == (w is None)
        if g is not None:
            np.testing.assert_allclose(g, w, rtol=1e-8, atol=1e-12)
    assert got[2:] == want[2:]


# ---- 1. a 0-dim tensor accepts dim 0 and -1 -------------------------------------------------------

ZERO_DIM = {
    "sum": lambda T, t: t.sum(0), "sum_keepdim": lambda T, t: t.sum(-1, keepdim=True),
    "sum_tuple": lambda T, t: t.sum((0,)), "mean": lambda T, t: t.mean(0), "mean_neg": lambda T, t: t.mean(-1),
    "prod": lambda T, t: t.prod(0), "amax": lambda T, t: t.amax(0), "amin": lambda T, t: t.amin(-1),
    "max": lambda T, t: t.max(0), "min": lambda T, t: t.min(-1), "std_pop": lambda T, t: t.std(0, unbiased=False),
    "var_pop": lambda T, t: t.var(0, correction=0), "logsumexp": lambda T, t: t.logsumexp(0),
    "norm": lambda T, t: t.norm(dim=0), "vector_norm": lambda T, t: T.linalg.vector_norm(t, dim=-1),
    "softmax": lambda T, t: t.softmax(0), "log_softmax": lambda T, t: t.log_softmax(-1),
    "cumsum": lambda T, t: t.cumsum(0), "cumprod": lambda T, t: t.cumprod(-1), "flip": lambda T, t: t.flip(0),
    "sort": lambda T, t: t.sort(0), "topk": lambda T, t: t.topk(1, 0), "kthvalue": lambda T, t: t.kthvalue(1, 0),
    "median": lambda T, t: t.median(0),
}


@pytest.mark.parametrize("name", list(ZERO_DIM))
def test_zero_dim_reduction_over_dim_zero(name):
    _check(lambda T, t: ZERO_DIM[name](T, t * 1), np.array(2.5))


def test_zero_dim_non_differentiable_reductions():
    t = minigrad.tensor(2.5)
    assert t.argmax(0).item() == 0 and t.argmin(-1).item() == 0
    assert (t > 0).all(0).item() is True and (t > 0).any(-1).item() is True
    assert t.count_nonzero(0).item() == 1


def test_zero_dim_std_with_correction_is_nan_like_torch():
    torch = torch_or_skip()
    for T in (minigrad, torch):
        t = T.tensor(2.5, dtype=T.float64, requires_grad=True)
        with pytest.warns(UserWarning, match=r"^std\(\): degrees of freedom is <= 0"):
            out = t.std(0)
        out.backward()
        assert np.isnan(out.item()) and np.isnan(t.grad.item())


def test_zero_dim_still_rejects_dim_one():
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-1, 0\], but got 1\)"):
        minigrad.tensor(2.5).sum(1)


def test_var_of_one_element_gives_inf_times_zero_grad_not_an_exception():
    torch = torch_or_skip()
    for T in (minigrad, torch):
        x = T.tensor([1.0], dtype=T.float64, requires_grad=True)
        with pytest.warns(UserWarning):
            x.var(0).backward()
        assert np.isnan(x.grad.numpy()).all()


# ---- 2. new ops -----------------------------------------------------------------------------------

OPS = {
    "cumprod": (lambda T, x: x.cumprod(1), [A]),
    "cumprod_dim0": (lambda T, x: T.cumprod(x, 0), [A]),
    "hypot": (lambda T, x, y: T.hypot(x, y), [A, B]),
    "fmod": (lambda T, x, y: T.fmod(x, y), [A, B]),
    "fmod_scalar": (lambda T, x: x.fmod(0.7), [A]),
    "remainder": (lambda T, x, y: T.remainder(x - 1, y), [A, B]),
    "remainder_op": (lambda T, x, y: x % y, [A, B]),
    "remainder_scalar": (lambda T, x: x.remainder(0.7), [A]),
    "lgamma": (lambda T, x: x.lgamma(), [A - 1]),
    "digamma": (lambda T, x: T.digamma(x), [A - 1.2]),
    "digamma_large": (lambda T, x: x.digamma(), [A * 30]),
    "xlogy": (lambda T, x, y: T.xlogy(x, y), [A - 1, B]),
    "xlogy_zero": (lambda T, x, y: T.xlogy(x, y), [np.array([0.0, 1.0, 2.0]), np.array([0.5, 2.0, 3.0])]),
    "logaddexp": (lambda T, x, y: T.logaddexp(x, y), [A, B]),
    "logaddexp2": (lambda T, x, y: x.logaddexp2(y), [A, B]),
    "nan_to_num": (lambda T, x: x.log().nan_to_num(), [A - 1]),
    "nan_to_num_args": (lambda T, x: T.nan_to_num(x.log(), nan=1.0, neginf=-5.0), [A - 1]),
    "median": (lambda T, x: x.median(), [A]),
    "median_even": (lambda T, x: x.median(), [RNG.uniform(size=(2, 2))]),
    "median_dim": (lambda T, x: x.median(1), [A]),
    "median_keepdim": (lambda T, x: T.median(x, 0, keepdim=True), [RNG.uniform(size=(4, 3))]),
    "mode": (lambda T, x: x.mode(1), [np.array([[1.0, 2, 2, 3], [4, 4, 1, 1]])]),
    "repeat_interleave": (lambda T, x: x.repeat_interleave(2), [A]),
    "repeat_interleave_dim": (lambda T, x: x.repeat_interleave(3, dim=1), [A]),
    "repeat_interleave_tensor": (lambda T, x: x.repeat_interleave(T.tensor([1, 0, 2]), dim=0), [A]),
    "cross": (lambda T, x, y: T.cross(x, y, dim=1), [A, B]),
    "linalg_cross": (lambda T, x, y: T.linalg.cross(x, y), [A, B]),
    "det": (lambda T, x: x.det(), [A]),
    "linalg_det_batched": (lambda T, x: T.linalg.det(x), [RNG.uniform(size=(2, 3, 3))]),
    "inverse": (lambda T, x: x.inverse(), [A]),
    "linalg_inv": (lambda T, x: T.linalg.inv(x), [A]),
    "linalg_norm": (lambda T, x: T.linalg.norm(x), [A]),
    "linalg_norm_ord1_dim": (lambda T, x: T.linalg.norm(x, 1, dim=1), [A]),
    "matrix_norm": (lambda T, x: T.linalg.matrix_norm(x), [A]),
    "vector_norm_3": (lambda T, x: T.linalg.vector_norm(x, 3), [A]),
    "square": (lambda T, x: x.square(), [A]),
    "polygamma2": (lambda T, x: T.polygamma(2, x), [A + 20]),
}


@pytest.mark.parametrize("name", list(OPS))
def test_op_matches_torch(name):
    fn, arrays = OPS[name]
    _check(fn, *arrays)


def test_linalg_solve_values_and_gradients():
    torch = torch_or_skip()
    got, want = _run(minigrad, lambda T, a, b: T.linalg.solve(a, b), A, B), \
        _run(torch, lambda T, a, b: T.linalg.solve(a, b), A, B)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-9)
    for g, w in zip(got[1], want[1]):
        np.testing.assert_allclose(g, w, rtol=1e-8)


def test_digamma_and_trigamma_known_values():
    x = minigrad.tensor([1.0, 0.5], dtype=minigrad.float64)
    np.testing.assert_allclose(x.digamma().numpy(), [-0.5772156649015329, -1.9635100260214235], rtol=1e-14)
    # PyTorch's trigamma (ported in _polygamma.py) sums a short series: ~5e-10 from pi^2/6 and pi^2/2.
    np.testing.assert_allclose(minigrad.polygamma(1, x).numpy(), [np.pi ** 2 / 6, np.pi ** 2 / 2], rtol=1e-9)


def test_lgamma_and_digamma_poles_match_torch():
    torch = torch_or_skip()
    x = np.array([0.0, -1.0, 2.5])
    for name in ("lgamma", "digamma"):
        got = getattr(minigrad.tensor(x), name)().numpy()
        want = getattr(torch.tensor(x), name)().numpy()
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_errors_match_torch():
    torch = torch_or_skip()
    cases = [
        lambda T: T.linalg.inv(T.ones(3, 3)),
        lambda T: T.det(T.ones(2, 3)),
        lambda T: T.linalg.cross(T.ones(2, 2), T.ones(2, 2)),
        lambda T: T.polygamma(-1, T.ones(2)),
    ]
    for case in cases:
        with pytest.raises(RuntimeError) as want:
            case(torch)
        with pytest.raises(RuntimeError) as got:
            case(minigrad)
        assert str(got.value) == str(want.value)


def test_integer_inputs_promote_like_torch():
    torch = torch_or_skip()
    for fn in (lambda T: T.hypot(T.tensor([3.0, 5.0]), T.tensor([4, 12])), lambda T: T.tensor([1, 2]).lgamma(),
               lambda T: T.tensor([1, 2, 3]).cumprod(0), lambda T: T.tensor([7, -7]) % 3,
               lambda T: T.tensor([7, -7]).fmod(3), lambda T: T.xlogy(T.tensor([1]), T.tensor([2]))):
        got, want = fn(minigrad), fn(torch)
        assert str(got.dtype) == str(want.dtype)
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)


def test_integer_hypot_and_logaddexp_raise_like_torch():
    torch = torch_or_skip()
    for name in ("hypot", "logaddexp"):
        with pytest.raises(NotImplementedError) as want:
            getattr(torch, name)(torch.tensor([1]), torch.tensor([2]))
        with pytest.raises(NotImplementedError) as got:
            getattr(minigrad, name)(minigrad.tensor([1]), minigrad.tensor([2]))
        assert str(got.value) == str(want.value)
