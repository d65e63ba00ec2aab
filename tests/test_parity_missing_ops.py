"""PyTorch parity for the ops of the missing-ops pass: kron, block_diag, rot90, aminmax, tensordot, cov,
corrcoef, erfinv, nanmedian, fmax/fmin, cdist, multinomial, flip(dims=...), cartesian_prod, combinations,
bucketize/searchsorted, histc and trapezoid.

Each case is a setup and an expression run with ``T = minigrad`` and ``T = torch``. The two runs must give the
same outputs (type, dtype, shape, strides, values), the same graph below each output (every node's class name
and ``_saved_*`` names, down to the leaves), the same saved values on the output's node, the same gradients
of the inputs, the same warnings, or the same exception (type and message).
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from parity import torch_or_skip

import minigrad as mg

# ---- describing what an expression gives -----------------------------------------------------------


def _graph(fn, depth: int = 0):
    """The graph below a grad_fn: (class name, _saved_* names, children), as nested tuples."""
    if fn is None:
        return None
    if depth > 14:
        return "..."
    saved = tuple(sorted(a for a in dir(fn) if a.startswith("_saved_")))
    return (type(fn).__name__, saved, tuple(_graph(f, depth + 1) for f, _ in fn.next_functions))


def _value(v):
    """A saved value or an output as plain data: tensors as (dtype, shape, values)."""
    if hasattr(v, "grad_fn"):
        return ("tensor", str(v.dtype).replace("torch.", ""), tuple(v.shape), np.asarray(v.detach().tolist()))
    if isinstance(v, (tuple, list)):
        return tuple(_value(x) for x in v)
    return v


def _describe_tensor(t):
    fn = t.grad_fn
    saved = {}
    if fn is not None:
        for name in sorted(a for a in dir(fn) if a.startswith("_saved_")):
            saved[name] = _value(getattr(fn, name))
    # (an empty tensor's strides are left out: minigrad gives every empty tensor contiguous ones)
    return {"dtype": str(t.dtype).replace("torch.", ""), "shape": tuple(t.shape),
            "stride": t.stride() if t.numel() else None,
            "values": np.asarray(t.detach().tolist()), "requires_grad": t.requires_grad, "graph": _graph(fn),
            "saved": saved}


def _describe(out):
    if hasattr(out, "grad_fn"):
        return _describe_tensor(out)
    if isinstance(out, tuple):
        fields = tuple(f for f in ("min", "max", "values", "indices") if hasattr(out, f))
        kind = f"{type(out).__module__}.{type(out).__name__}" if type(out) is not tuple else "tuple"
        return {"type": kind, "fields": fields, "items": [_describe(o) for o in out]}
    return {"value": out}


def _tensors_of(out) -> list:
    if hasattr(out, "grad_fn"):
        return [out]
    if isinstance(out, tuple):
        return [t for o in out for t in _tensors_of(o)]
    return []


def _run(T, setup: str, expr: str, grads: bool):
    """What ``expr`` gives with ``T`` as torch (after ``setup``): its description, gradients and warnings."""
    scope = {"T": T, "np": np, "nan": float("nan"), "inf": float("inf")}
    exec(setup, scope)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = eval(expr, scope)
            result = {"out": _describe(out)}
        except Exception as e:  # noqa: BLE001  (any exception must match PyTorch's)
            return {"error": (type(e).__name__, str(e))}
    result["warnings"] = [(w.category.__name__, str(w.message)) for w in caught]
    if grads:
        inputs = [v for k, v in sorted(scope.items()) if hasattr(v, "grad_fn") and v.requires_grad and v.is_leaf]
        outs = [o for o in _tensors_of(out) if o.requires_grad]
        if outs:
            # Σ <out, w> with a fixed, uneven w per output, so each output element has its own weight.
            loss = sum((o * T.arange(1, o.numel() + 1, dtype=o.dtype).reshape(o.shape)).sum() for o in outs)
            try:
                gs = T.autograd.grad(loss, inputs, allow_unused=True)
                result["grads"] = [None if g is None else np.asarray(g.tolist()) for g in gs]
            except Exception as e:  # noqa: BLE001
                result["grads"] = (type(e).__name__, str(e))
    return result


def _close(a, b, path="") -> None:
    """Assert two descriptions are the same: structure and names exactly, values to ~float32 rounding."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and sorted(a) == sorted(b), f"{path}: keys {sorted(a)} != {sorted(b)}"
        for k in a:
            _close(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, np.ndarray):
        b = np.asarray(b)
        assert a.shape == b.shape, f"{path}: shape {a.shape} != {b.shape}"
        if a.dtype.kind in "fc" or b.dtype.kind in "fc":
            np.testing.assert_allclose(a.astype(complex), b.astype(complex), rtol=2e-6, atol=1e-6, err_msg=path)
        else:
            assert a.tolist() == b.tolist(), f"{path}: {a.tolist()} != {b.tolist()}"
    elif isinstance(a, (tuple, list)):
        assert isinstance(b, (tuple, list)) and len(a) == len(b), f"{path}: {a!r} != {b!r}"
        for i, (x, y) in enumerate(zip(a, b)):
            _close(x, y, f"{path}[{i}]")
    elif isinstance(a, float) and isinstance(b, float):
        assert a == b or (np.isnan(a) and np.isnan(b)) or abs(a - b) <= 1e-6 * max(1.0, abs(b)), f"{path}: {a} != {b}"
    else:
        assert a == b, f"{path}: {a!r} != {b!r}"


def check(setup: str, expr: str, grads: bool = True) -> dict:
    """Run ``expr`` with minigrad and with torch; assert they agree; return minigrad's description."""
    torch = torch_or_skip()
    mine, theirs = _run(mg, setup, expr, grads), _run(torch, setup, expr, grads)
    _close(mine, theirs, expr)
    return mine


def cases(*items):
    """pytest ids for (setup, expr) pairs: the expression itself."""
    return pytest.mark.parametrize("setup,expr", items, ids=[e for _, e in items])


# ---- inputs ----------------------------------------------------------------------------------------

A23 = "a = T.tensor([[0.5, -1.25, 2.0], [3.0, 0.75, -0.5]], dtype=T.float64, requires_grad=True)\n"
B32 = "b = T.tensor([[1.5, -2.0], [0.25, 1.0], [-0.75, 3.0]], dtype=T.float64, requires_grad=True)\n"
V3 = "v = T.tensor([1.0, -2.0, 0.5], dtype=T.float64, requires_grad=True)\n"
S0 = "s = T.tensor(1.5, dtype=T.float64, requires_grad=True)\n"
F23 = "f = T.tensor([[0.5, -1.25, 2.0], [3.0, 0.75, -0.5]], requires_grad=True)\n"
N = "n = T.tensor([[1.0, nan, 3.0, 2.0], [nan, nan, nan, nan], [4.0, 1.0, 2.0, 3.0]], requires_grad=True)\n"


# ---- kron -------------------------------------------------------------------------------------------

@cases(
    (A23 + B32, "T.kron(a, b)"),
    (A23 + V3, "T.kron(v, a)"),
    (A23 + V3, "a.kron(v)"),
    (S0 + V3, "T.kron(s, v)"),
    (S0, "T.kron(s, s * 2)"),
    (B32, "T.kron(T.tensor([[1, 2]]), b)"),
    ("", "T.kron(T.tensor([1, 2]), T.tensor([1.5]))"),
    ("", "T.kron(T.tensor([[1, 2], [3, 4]]), T.tensor([[0, 1], [1, 0]]))"),
    (A23 + B32, "T.kron(a.t(), b)"),                     # a non-contiguous input: PyTorch's view error
)
def test_kron(setup, expr):
    check(setup, expr)


# ---- block_diag ---------------------------------------------------------------------------------------

@cases(
    (A23 + B32, "T.block_diag(a, b)"),
    (A23 + V3 + S0, "T.block_diag(a, s, v)"),
    (A23 + V3 + S0, "T.block_diag(v, a, s, T.ones(0, dtype=T.float64), T.ones(2, 0, dtype=T.float64))"),
    (A23, "T.block_diag(a, T.tensor([[1, 2]]))"),
    ("", "T.block_diag(T.tensor(2.), T.tensor([1, 2]), T.ones(2, 2, dtype=T.float64))"),
    ("", "T.block_diag(T.tensor([True]), T.tensor([2]))"),
    ("", "T.block_diag()"),
    ("", "T.block_diag(T.ones(2, 2, 2))"),
    ("", "T.block_diag(T.ones(2), 3)"),
)
def test_block_diag(setup, expr):
    check(setup, expr)


# ---- rot90 -----------------------------------------------------------------------------------------------

@cases(
    *[(A23, f"T.rot90(a, {k})") for k in (-2, -1, 0, 1, 2, 3, 4, 5)],
    (A23, "a.rot90()"),
    (A23, "a.rot90(1, [1, 0])"),
    (A23, "T.rot90(a, -1, [1, -2])"),
    (A23, "a.rot90(k=3, dims=(-1, 0))"),
    ("x = T.arange(24.).reshape(2, 3, 4).requires_grad_()", "T.rot90(x, 1, [2, 0])"),
    ("", "T.rot90(T.arange(6).reshape(2, 3), 1)"),
    ("", "T.rot90(T.ones(0, 3), 1)"),
    (A23, "T.rot90(a, 1, [0])"),
    (A23, "T.rot90(a, 1, [0, 1, 2])"),
    (A23, "T.rot90(a, 1, [0, 0])"),
    (A23, "T.rot90(a, 1, [-2, 0])"),
    (A23, "T.rot90(a, 1, [0, 2])"),
    (A23, "T.rot90(a, 1, [5, 5])"),
    ("", "T.rot90(T.arange(3.), 1)"),
    ("", "T.rot90(T.tensor(1.), 1)"),
    (A23, "T.rot90(a, 1.5)"),
    (A23, "T.rot90(a, 1, 0)"),
)
def test_rot90(setup, expr):
    check(setup, expr)


# ---- aminmax ---------------------------------------------------------------------------------------------

TIES = "x = T.tensor([[1., 5, 2], [3, 3, 0]], requires_grad=True)\n"


@cases(
    (TIES, "T.aminmax(x)"),
    (TIES, "x.aminmax(dim=-1, keepdim=True)"),
    (TIES, "T.aminmax(x, dim=0)"),
    (TIES, "T.aminmax(x, dim=0).min"),                    # only one output used: the other adds nothing
    (TIES, "T.aminmax(x).max"),
    (TIES, "T.aminmax(x, keepdim=True)"),
    (S0, "T.aminmax(s, dim=0)"),
    (S0, "T.aminmax(s, dim=-1, keepdim=True)"),
    ("", "T.aminmax(T.tensor([1, 5, 2]))"),
    ("", "T.aminmax(T.tensor([True, False]))"),
    ("", "T.aminmax(T.tensor([1., nan, 2]))"),
    ("", "T.aminmax(T.ones(0, 3), dim=1)"),
    ("", "T.aminmax(T.ones(0, 3))"),
    ("", "T.aminmax(T.ones(0, 3), dim=-2)"),
    ("", "T.aminmax(T.tensor([1 + 1j]))"),
    (TIES, "T.aminmax(x, dim=2)"),
    (TIES, "T.aminmax(x, dim=(0, 1))"),
)
def test_aminmax(setup, expr):
    check(setup, expr)


def test_aminmax_repr_and_fields():
    torch = torch_or_skip()
    for T in (mg, torch):
        r = T.aminmax(T.tensor([[1.0, 5.0], [3.0, 0.0]]), dim=1)
        assert (r.min.tolist(), r.max.tolist()) == ([1.0, 0.0], [5.0, 3.0])
    assert repr(mg.aminmax(mg.tensor([2.0, 1.0]))) == repr(torch.aminmax(torch.tensor([2.0, 1.0])))


# ---- tensordot ----------------------------------------------------------------------------------------

X234 = "x = T.arange(24., dtype=T.float64).reshape(2, 3, 4).sin().requires_grad_()\n"
Y43 = "y = T.arange(12., dtype=T.float64).reshape(4, 3).cos().requires_grad_()\n"


@cases(
    (X234 + Y43, "T.tensordot(x, y, 1)"),
    (X234 + Y43, "T.tensordot(x, y, ([1, 2], [1, 0]))"),
    (X234 + Y43, "T.tensordot(x, y, [[1], [1]])"),
    (X234 + Y43, "T.tensordot(x, y, dims=0)"),
    (X234 + Y43, "T.tensordot(x, y, dims=([2], [0]))"),
    (X234 + Y43, "T.tensordot(x, y, dims=T.tensor(1))"),
    (X234 + Y43, "T.tensordot(x, y, dims=T.tensor([[2], [0]]))"),
    (X234, "T.tensordot(x, x, 3)"),                                   # a full contraction: dot
    (X234, "T.tensordot(x, x.transpose(0, 1), ([0, 1, 2], [1, 0, 2]))"),
    (A23, "T.tensordot(a, a.t().contiguous().t(), 2)"),
    ("p = T.tensor([[1., 2, 3], [4, 5, 6]], requires_grad=True).t()", "T.tensordot(p, p, 2)"),  # mul + sum
    (X234, "T.tensordot(x, T.ones(1, 5, dtype=T.float64, requires_grad=True), ([2], [0]))"),  # summed dim
    ("", "T.tensordot(T.ones(2, 1, requires_grad=True), T.ones(4, 5, requires_grad=True), ([1], [0]))"),
    (S0, "T.tensordot(s, s, 0)"),
    ("", "T.tensordot(T.ones(0, requires_grad=True), T.ones(0, requires_grad=True), 1)"),
    (X234 + Y43, "T.tensordot(x, y, dims=3)"),
    (X234 + Y43, "T.tensordot(x, y, dims=-1)"),
    (X234 + Y43, "T.tensordot(x, y, dims=1.5)"),
    (X234 + Y43, "T.tensordot(x, y, dims=([1], [0]))"),
    (X234 + Y43, "T.tensordot(x, y, dims=([1], [0, 1]))"),
    (X234 + Y43, "T.tensordot(x, y.float(), dims=1)"),
    (X234 + Y43, "T.tensordot(x, y, dims=([5], [0]))"),
    (X234 + Y43, "T.tensordot(x, y, dims=([1, 1], [1, 1]))"),
)
def test_tensordot(setup, expr):
    check(setup, expr)


# ---- cov and corrcoef ---------------------------------------------------------------------------------

C = "c = T.tensor([[1., 2, 4, 0.5], [0, 3, 1, 2], [2, 2, 1, 1]], dtype=T.float64, requires_grad=True)\n"


@cases(
    (C, "T.cov(c)"),
    (C, "c.cov(correction=0)"),
    (C, "T.cov(c, correction=4)"),                                  # degrees of freedom <= 0: a warning
    (C, "T.cov(c, correction=6)"),
    (C, "T.cov(c[0])"),
    (C, "T.cov(c, fweights=T.tensor([1, 2, 1, 3]))"),
    (C, "T.cov(c, aweights=T.tensor([0.5, 1, 2, 1], dtype=T.float64))"),
    (C, "T.cov(c, fweights=T.tensor([1, 2, 1, 3]), aweights=T.tensor([0.5, 1, 2, 1], dtype=T.float64))"),
    (C, "T.cov(c, correction=0, aweights=T.tensor([0.5, 1, 2, 1], dtype=T.float64))"),
    (F23, "T.cov(f)"),
    ("", "T.cov(T.tensor([[1, 2, 4], [3, 3, 1]]))"),
    ("", "T.cov(T.tensor(3.))"),
    ("", "T.cov(T.ones(2, 0))"),
    ("", "T.cov(T.ones(0, 3))"),
    ("", "T.cov(T.tensor([[1.], [2.]]), fweights=T.tensor([2]))"),      # one weighted observation: zeros
    ("", "T.cov(T.tensor([[1], [2]]), aweights=T.tensor([2.]))"),
    ("w = T.tensor([[1.], [2.]], requires_grad=True)", "T.cov(w, fweights=T.tensor([2]))"),
    ("", "T.cov(T.tensor([[True, False]]))"),
    ("", "T.cov(T.ones(2, 2, 2))"),
    (C, "T.cov(c, fweights=T.tensor([1., 2, 1, 1]))"),
    (C, "T.cov(c, fweights=T.tensor([1, 2]))"),
    (C, "T.cov(c, fweights=T.tensor([1, -2, 1, 1]))"),
    (C, "T.cov(c, fweights=T.tensor([[1, 2, 1, 1]]))"),
    (C, "T.cov(c, aweights=T.tensor([1, 2, 1, 1]))"),
    (C, "T.cov(c, aweights=T.tensor([0., 0, 0, 0]))"),
    (C, "T.corrcoef(c)"),
    (C, "c.corrcoef()"),
    (C, "T.corrcoef(c[1])"),
    (F23, "T.corrcoef(f)"),
    ("", "T.corrcoef(T.tensor([[1, 2, 4], [3, 3, 1]]))"),
    ("", "T.corrcoef(T.tensor([[1., 1, 1], [1, 2, 3]]))"),
    ("", "T.corrcoef(T.ones(2, 2, 2))"),
)
def test_cov_corrcoef(setup, expr):
    check(setup, expr)


def test_cov_zeroes_a_single_weighted_observation_in_place_like_pytorch():
    torch = torch_or_skip()
    for T in (mg, torch):
        x = T.tensor([1.0, 2.0])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            T.cov(x[:1], aweights=T.tensor([2.0]))
        assert x.tolist() == [0.0, 2.0]


# ---- erfinv -------------------------------------------------------------------------------------------

E = "e = T.tensor([-0.9, -0.3, 0.0, 0.45, 0.8, 0.999], dtype=T.float64, requires_grad=True)\n"


@cases(
    (E, "T.erfinv(e)"),
    (E, "e.erfinv()"),
    (E, "T.special.erfinv(e * 0.5)"),
    (E, "T.erfinv(e.float())"),
    ("", "T.erfinv(T.tensor([-1., -0.5, 0, 0.3, 0.999, 1, 1.5, nan, -0.0]))"),
    ("", "T.erfinv(T.tensor([0, 1]))"),
    ("", "T.erfinv(T.tensor([True]))"),
    ("", "T.erfinv(T.tensor([0.5], dtype=T.float16))"),
    ("", "T.erfinv(T.tensor([0.5 + 0j]))"),
    ("", "T.erfinv(2.0)"),
    ("", "T.tensor([0.5, 0.2]).erfinv_()"),
    ("", "T.tensor([0, 1]).erfinv_()"),
    (E, "e.erfinv_()"),
    (E, "e.clone().erfinv_()"),
)
def test_erfinv(setup, expr):
    check(setup, expr)


def test_erfinv_is_accurate_to_one_ulp_of_pytorch():
    torch = torch_or_skip()
    rng = np.random.default_rng(1)
    y = np.concatenate([rng.uniform(-1, 1, 20000), 1 - 10.0 ** -rng.uniform(1, 16, 2000),
                        10.0 ** -rng.uniform(1, 300, 500)])
    mine = mg.erfinv(mg.from_numpy(y)).numpy()
    theirs = torch.erfinv(torch.from_numpy(y)).numpy()
    assert np.all(np.abs(mine - theirs) <= np.spacing(np.abs(theirs)))
    y32 = y.astype(np.float32)
    mine32, theirs32 = mg.erfinv(mg.from_numpy(y32)).numpy(), torch.erfinv(torch.from_numpy(y32)).numpy()
    finite = np.isfinite(theirs32)
    np.testing.assert_array_equal(mine32[~finite], theirs32[~finite])
    assert np.all(np.abs(mine32[finite] - theirs32[finite]) <= np.spacing(np.abs(theirs32[finite])))


# ---- nanmedian --------------------------------------------------------------------------------------

@cases(
    (N, "T.nanmedian(n)"),
    (N, "n.nanmedian(1)"),
    (N, "T.nanmedian(n, dim=-1, keepdim=True)"),
    (N, "T.nanmedian(n, 0)"),
    (N, "T.nanmedian(n[1])"),
    ("x = T.tensor([[1., 2, 2, 2, 3], [2, 2, 1, 2, 2], [nan, 2, 2, 1, 1]], requires_grad=True)", "x.nanmedian(1)"),
    ("x = T.tensor([[1., 2, 2, 2, 3], [2, 2, 1, 2, 2], [nan, 2, 2, 1, 1]], requires_grad=True)", "x.nanmedian()"),
    ("", "T.nanmedian(T.full((7, 5), nan), 0)"),             # all-NaN columns: libstdc++'s index
    ("", "T.nanmedian(T.tensor([[nan, nan], [1., 2]]), 0)"),
    ("", "T.nanmedian(T.tensor([3, 1, 2, 5]))"),
    ("", "T.nanmedian(T.tensor([3, 1, 2, 5]), 0)"),
    (S0, "T.nanmedian(s, 0)"),
    (S0, "T.nanmedian(s, -1, True)"),
    ("", "T.nanmedian(T.ones(0))"),
    ("", "T.nanmedian(T.ones(0, 3), 1)"),
    ("", "T.nanmedian(T.ones(0, 3), 0)"),
    ("", "T.nanmedian(T.ones(0, 3), -2)"),
    ("", "T.nanmedian(T.tensor([True]))"),
    ("", "T.nanmedian(T.tensor([[True]]), 0)"),
    ("", "T.nanmedian(T.tensor([[1j]]), 0)"),
    (N, "T.nanmedian(n, 2)"),
    (N, "T.nanmedian(n, None)"),
    (N, "T.nanmedian(n, keepdim=True)"),
)
def test_nanmedian(setup, expr):
    check(setup, expr)


def test_nanmedian_indices_on_random_ties_and_nans():
    torch = torch_or_skip()
    rng = np.random.default_rng(0)
    data = rng.integers(0, 4, (200, 9)).astype(np.float64)
    data[rng.random(data.shape) < 0.3] = np.nan
    data[:5] = np.nan
    for dim in (0, 1):
        mine, theirs = mg.nanmedian(mg.from_numpy(data), dim), torch.nanmedian(torch.from_numpy(data), dim)
        np.testing.assert_array_equal(mine.values.numpy(), theirs.values.numpy())
        np.testing.assert_array_equal(mine.indices.numpy(), theirs.indices.numpy())


# ---- fmax and fmin ------------------------------------------------------------------------------------

P = "p = T.tensor([1., nan, 3, nan, 2], requires_grad=True)\nq = T.tensor([2., 1, nan, nan, 2], requires_grad=True)\n"


@cases(
    (P, "T.fmax(p, q)"),
    (P, "T.fmin(p, q)"),
    (P, "p.fmax(q)"),
    (P, "q.fmin(p)"),
    (A23 + V3, "T.fmax(a, v)"),
    (A23 + V3, "T.fmin(v, a)"),
    ("", "T.fmax(T.tensor([1, 2]), T.tensor([1.5, 0.5]))"),
    ("", "T.fmin(T.tensor([1, 2]), T.tensor([3, 0], dtype=T.int8))"),
    ("", "T.fmax(T.tensor([True]), T.tensor([False]))"),
    ("", "T.fmax(T.tensor([1.]), T.tensor(2., dtype=T.float64))"),
    ("", "T.fmin(T.tensor([0., -0.]), T.tensor([-0., 0.]))"),
    ("", "T.fmax(T.tensor([1.]), 2.0)"),
    ("", "T.ones(2).fmax(2.0)"),
    ("", "T.fmax(T.tensor([1 + 1j]), T.tensor([1.]))"),
    ("", "T.fmin(T.ones(2, 3), T.ones(4))"),
)
def test_fmax_fmin(setup, expr):
    check(setup, expr)


# ---- cdist --------------------------------------------------------------------------------------------

X1 = "x1 = T.tensor([[0., 0], [1, 1], [2., -1]], dtype=T.float64, requires_grad=True)\n"
X2 = "x2 = T.tensor([[0., 0], [1, 3], [1, 1], [-1, 0.5]], dtype=T.float64, requires_grad=True)\n"
BIG = "big = T.linspace(-2, 2, 60, dtype=T.float64).reshape(30, 2).sin().requires_grad_()\n"


@cases(
    *[(X1 + X2, f"T.cdist(x1, x2, p={p})") for p in (0, 0.5, 1, 1.5, 2, 3, "inf")],
    # (the mm path at a zero distance gives rounding noise times 1e15: points apart there)
    (X1 + X2, "T.cdist(x1 + 0.3, x2, compute_mode='use_mm_for_euclid_dist')"),
    (X1 + X2, "T.cdist(x1, x2, compute_mode='donot_use_mm_for_euclid_dist')"),
    (X2 + BIG, "T.cdist(big, x2)"),                                   # more than 25 rows: the mm path
    (X2 + BIG, "T.cdist(x2, big, p=1)"),
    (X2 + BIG, "T.cdist(big, x2, compute_mode='donot_use_mm_for_euclid_dist')"),
    (X2 + BIG, "T.cdist(big.reshape(2, 15, 2), x2.unsqueeze(0))"),
    (X2 + BIG, "T.cdist(big.unsqueeze(0), x2, compute_mode='use_mm_for_euclid_dist')"),
    (X1 + X2, "T.cdist((x1 + 0.3).expand(2, 3, 2), x2.expand(1, 4, 2), compute_mode='use_mm_for_euclid_dist')"),
    (X1 + X2, "T.cdist(x1, x2.expand(2, 4, 2))"),
    (X1 + X2, "T.cdist(x1.unsqueeze(1).expand(2, 2, 3, 2), x2.expand(3, 4, 2), p=3)"),
    ("", "T.cdist(T.ones(0, 2, requires_grad=True), T.ones(4, 2))"),
    ("", "T.cdist(T.ones(3, 0, requires_grad=True), T.ones(4, 0))"),
    ("", "T.cdist(T.ones(40, 0, requires_grad=True), T.ones(4, 0))"),
    (X1 + X2, "T.cdist(x1.float(), x2.float())"),
    ("", "T.cdist(T.ones(3), T.ones(4, 3))"),
    ("", "T.cdist(T.ones(2, 3), T.ones(3))"),
    ("", "T.cdist(T.ones(3, 2), T.ones(3, 3))"),
    ("", "T.cdist(T.ones(3, 2).long(), T.ones(4, 2).long())"),
    ("", "T.cdist(T.ones(3, 2), T.ones(4, 2).long())"),
    ("", "T.cdist(T.ones(3, 2), T.ones(4, 2).double())"),
    ("", "T.cdist(T.ones(3, 2), T.ones(4, 2), p=-1)"),
    ("", "T.cdist(T.ones(3, 2), T.ones(4, 2), p=nan)"),
    ("", "T.cdist(T.ones(3, 2), T.ones(4, 2), compute_mode='foo')"),
    ("", "T.cdist(T.ones(3, 2).half(), T.ones(4, 2).half())"),
    ("", "T.cdist(T.ones(2, 3, 2), T.ones(3, 4, 2))"),
)
def test_cdist(setup, expr):
    check(setup, expr)


@pytest.mark.parametrize("setup,expr,inputs", [
    (X1 + X2, "T.cdist(x1, x2, p=3)", "x1, x2"),
    (X1 + X2, "T.cdist(x1, x2)", "x1, x2"),
    (X2 + BIG, "T.cdist(big, x2)", "big, x2"),
    (X2 + BIG, "T.cdist(big.reshape(2, 15, 2), x2.expand(2, 4, 2), compute_mode='use_mm_for_euclid_dist')",
     "big, x2"),
])
def test_cdist_double_backward(setup, expr, inputs):
    """CdistBackward0's gradient has no derivative in PyTorch (it raises); the mm path's has one."""
    torch = torch_or_skip()
    results = []
    for T in (mg, torch):
        scope = {"T": T}
        exec(setup, scope)
        xs = eval(f"[{inputs}]", scope)
        out = eval(expr, scope)
        v = T.ones_like(out).requires_grad_()
        grads = T.autograd.grad(out, xs, v, create_graph=True)
        graphs = [_graph(g.grad_fn) for g in grads]
        try:
            second = T.autograd.grad(sum((g * g).sum() for g in grads), xs + [v])
            second = [np.asarray(s.tolist()) for s in second]
        except Exception as e:  # noqa: BLE001
            second = (type(e).__name__, str(e))
        results.append({"first": [np.asarray(g.tolist()) for g in grads], "graphs": graphs, "second": second})
    _close(results[0], results[1])


# ---- multinomial ----------------------------------------------------------------------------------------

@cases(
    ("", "T.multinomial(T.tensor([0.1, 0.5, 0.4]), 4)"),
    ("", "T.multinomial(T.tensor([0.1, 0.5, 0.4]), 0)"),
    ("", "T.multinomial(T.tensor([0.1, 0.5, 0.4]), -1)"),
    ("", "T.multinomial(T.ones(2, 2, 2), 1)"),
    ("", "T.multinomial(T.tensor(1.), 1)"),
    ("", "T.multinomial(T.tensor([1, 2]), 1)"),
    ("", "T.multinomial(T.ones(2, 2, 2, dtype=T.long), 0)"),
    ("", "T.multinomial(T.tensor([-1., 2]), 1)"),
    ("", "T.multinomial(T.tensor([nan, 2]), 1)"),
    ("", "T.multinomial(T.tensor([inf, 2]), 1)"),
    ("", "T.multinomial(T.tensor([0., 0]), 1)"),
    ("", "T.multinomial(T.tensor([0., 0]), 3, True)"),
    ("", "T.multinomial(T.tensor([-1., 1]), 3, False)"),
    ("", "T.multinomial(T.ones(0), 1)"),
    ("", "T.multinomial(T.ones(2, 0), 1)"),
    ("", "T.multinomial(T.ones(0, 3), 1)"),
    ("", "T.multinomial(T.tensor([1., 1 + 0j]), 1)"),
    ("", "T.multinomial(T.tensor([0.1, 0.5, 0.4]), 2.0)"),
    ("", "T.multinomial(T.tensor([0., 1, 0]), 1)"),          # only one possible outcome: values compared too
    ("", "T.multinomial(T.tensor([0., 1, 0]), 3, replacement=True)"),
    ("", "T.multinomial(T.tensor([[0., 0, 1], [1, 0, 0]]), 1)"),
)
def test_multinomial(setup, expr):
    check(setup, expr)


@pytest.mark.parametrize("replacement", [False, True])
def test_multinomial_shapes_and_support(replacement):
    torch = torch_or_skip()
    weights = [[0.0, 2.0, 1.0, 0.0, 3.0], [1.0, 1.0, 0.0, 1.0, 0.0]]
    for T in (mg, torch):
        T.manual_seed(0)
        out = T.multinomial(T.tensor(weights), 3, replacement)
        assert (out.dtype, tuple(out.shape), out.requires_grad) == (T.int64, (2, 3), False)
        rows = out.tolist()
        for row, w in zip(rows, weights):
            assert all(w[i] > 0 for i in row)               # zero weights are never drawn
            if not replacement:
                assert len(set(row)) == 3                   # no category twice
        x = T.tensor([0.2, 0.8]).multinomial(2)
        assert sorted(x.tolist()) == [0, 1]


def test_multinomial_frequencies_follow_the_weights():
    mg.manual_seed(3)
    draws = mg.multinomial(mg.tensor([1.0, 3.0, 0.0, 4.0]), 8000, replacement=True).numpy()
    np.testing.assert_allclose(np.bincount(draws, minlength=4) / 8000, [0.125, 0.375, 0.0, 0.5], atol=0.02)
    gen = mg.Generator().manual_seed(5)
    first = mg.multinomial(mg.ones(6), 6, generator=gen).tolist()
    assert first == mg.multinomial(mg.ones(6), 6, generator=mg.Generator().manual_seed(5)).tolist()


# ---- flip(dims=...) -------------------------------------------------------------------------------------

@cases(
    (A23, "T.flip(a, dims=[1])"),
    (A23, "T.flip(a, [0])"),
    (A23, "T.flip(a, (0, 1))"),
    (A23, "a.flip(dims=(0, 1))"),
    (A23, "a.flip(0)"),
    (A23, "a.flip(0, 1)"),
    (A23, "a.flip([0, 1])"),
    (A23, "T.flip(input=a, dims=[-1])"),
    (A23, "a.flip(dims=0)"),
    (A23, "T.flip(a, dims=1)"),
    (A23, "a.flip()"),
    (A23, "T.flip(a)"),
    (A23, "a.flip(0, dims=1)"),
    (A23, "a.flip(dims=[0, 0])"),
)
def test_flip_dims_keyword(setup, expr):
    check(setup, expr)


# ---- cartesian_prod and combinations ----------------------------------------------------------------

@cases(
    (V3, "T.cartesian_prod(v, v * 2)"),
    (V3, "T.cartesian_prod(v, v[:2], v)"),
    ("", "T.cartesian_prod(T.tensor([1, 2, 3]), T.tensor([4, 5]))"),
    (V3, "T.cartesian_prod(v, T.ones(0, dtype=T.float64))"),
    ("", "T.cartesian_prod(T.tensor([1., 2, 3]), T.tensor([4, 5]))"),
    ("", "T.cartesian_prod()"),
    (V3, "T.cartesian_prod(v, T.ones(2, 2))"),
    (V3, "T.cartesian_prod(v, T.tensor(2.))"),
    (V3, "T.cartesian_prod([v, v])"),
    (V3, "T.combinations(v)"),
    (V3, "T.combinations(v, 3)"),
    (V3, "T.combinations(v, 4)"),
    (V3, "T.combinations(v, 1)"),
    (V3, "T.combinations(v, 0)"),
    (V3, "T.combinations(v, 2, with_replacement=True)"),
    ("", "T.combinations(T.tensor([4, 5]), 3, True)"),
    ("", "T.combinations(T.ones(0))"),
    (V3, "T.combinations(v, -1)"),
    ("", "T.combinations(T.ones(2, 2))"),
)
def test_cartesian_prod_combinations(setup, expr):
    check(setup, expr)


def test_cartesian_prod_of_one_tensor_is_that_tensor():
    torch = torch_or_skip()
    for T in (mg, torch):
        x = T.tensor([1.0, 2.0], requires_grad=True)
        assert T.cartesian_prod(x) is x


# ---- bucketize and searchsorted ---------------------------------------------------------------------

BD = "bd = T.tensor([1., 3, 5, 7])\nvals = T.tensor([[0., 3, 6], [7, 8, 1]])\n"
SS = "ss = T.tensor([[1., 3, 5, 7], [2, 4, 6, 8]])\nq = T.tensor([[3., 6, 9], [3, 6, 9]])\n"


@cases(
    (BD, "T.bucketize(vals, bd)"),
    (BD, "T.bucketize(vals, bd, right=True)"),
    (BD, "T.bucketize(vals, bd, out_int32=True)"),
    (BD, "T.bucketize(3, bd)"),
    (BD, "T.bucketize(3.5, bd)"),
    (BD, "T.bucketize(vals, T.tensor([1, 3, 5]))"),
    (BD, "T.bucketize(vals.long(), bd)"),
    (BD, "T.bucketize(vals, T.tensor([5., 1, 3]))"),                 # unsorted: PyTorch's bisection
    (BD, "T.bucketize(vals, T.tensor([1., nan]))"),
    (BD, "T.bucketize(T.tensor([nan, 2.]), bd)"),
    (BD, "T.bucketize(vals.requires_grad_(), bd)"),
    (BD, "T.bucketize(vals, T.ones(2, 2))"),
    (BD, "T.bucketize(vals, T.tensor(2.))"),
    (BD, "T.bucketize(T.tensor([True]), T.tensor([False, True]))"),
    (BD, "T.bucketize(vals + 0j, bd)"),
    (SS, "T.searchsorted(ss, q)"),
    (SS, "T.searchsorted(ss, q, right=True)"),
    (SS, "T.searchsorted(ss, q, side='right')"),
    (SS, "T.searchsorted(ss, q, side='left', right=True)"),
    (SS, "T.searchsorted(ss, q, side='foo')"),
    (SS + BD, "T.searchsorted(bd, q)"),
    (SS + BD, "T.searchsorted(bd, 3.0)"),
    (SS + BD, "T.searchsorted(bd, T.tensor(3.))"),
    (SS + BD, "T.searchsorted(bd, T.tensor([3, 6]), out_int32=True)"),
    (SS, "T.searchsorted(ss, T.tensor([3., 6, 9]))"),
    (SS, "T.searchsorted(ss, T.tensor([[3., 6, 9]]))"),
    (SS, "T.searchsorted(ss, 3.0)"),
    ("", "T.searchsorted(T.tensor([7., 1, 5, 3]), T.tensor([3., 6]), sorter=T.tensor([1, 3, 2, 0]))"),
    ("", "T.searchsorted(T.tensor([7., 1, 5, 3]), T.tensor([3., 6]), sorter=T.tensor([1, 3, 2]))"),
    ("", "T.searchsorted(T.tensor([7., 1, 5, 3]), T.tensor([3., 6]), sorter=T.tensor([1, 3, 2, 5]))"),
    ("", "T.searchsorted(T.tensor([7., 1, 5, 3]), T.tensor([3., 6]), sorter=T.tensor([1., 3, 2, 0]))"),
    ("", "T.searchsorted(T.tensor(1.), T.tensor([3., 6]))"),
    ("", "T.searchsorted(T.ones(0), T.tensor([3., 6]))"),
)
def test_bucketize_searchsorted(setup, expr):
    check(setup, expr)


def test_searchsorted_random_against_pytorch():
    torch = torch_or_skip()
    rng = np.random.default_rng(2)
    seq = np.sort(rng.integers(0, 10, (4, 12)).astype(np.float64), axis=1)
    values = rng.integers(-1, 11, (4, 7)).astype(np.float64)
    for right in (False, True):
        mine = mg.searchsorted(mg.from_numpy(seq), mg.from_numpy(values), right=right).numpy()
        theirs = torch.searchsorted(torch.from_numpy(seq), torch.from_numpy(values), right=right).numpy()
        np.testing.assert_array_equal(mine, theirs)


# ---- histc (present before this pass: its errors and integer inputs) -------------------------------

@cases(
    ("", "T.histc(T.tensor([1., 2, 1, 4]), bins=4, min=0, max=3)"),
    ("", "T.histc(T.ones(2, 2), 3, 0, 2)"),
    ("", "T.histc(T.tensor([1., 2]), bins=2, min=1, max=1)"),
    ("", "T.histc(T.tensor([1., 1]), bins=2)"),
    ("", "T.histc(T.tensor([]), bins=2)"),
    ("", "T.histc(T.tensor([1., nan, 2]), bins=2, min=0, max=3)"),
    ("", "T.histc(T.tensor([1., 2], dtype=T.float16), bins=2)"),
    ("", "T.histc(T.tensor([1., 2, 1]).requires_grad_(), bins=3)"),
    ("", "T.histc(T.tensor([True]), bins=2)"),
    ("", "T.histc(T.tensor([1, 2, 1]), bins=4)"),
    ("", "T.histc(T.tensor([1., 2]), bins=0)"),
    ("", "T.histc(T.tensor([1., 2], dtype=T.float64), bins=2.5)"),
    ("", "T.histc(T.tensor([1., inf]), bins=2)"),
    ("", "T.histc(T.tensor([1., 2]), bins=2, min=-inf, max=1)"),
    ("", "T.histc(T.tensor([1., 2]), bins=2, min=0, max=nan)"),
    ("", "T.histc(T.tensor([1., nan, 2]), bins=2)"),
    ("", "T.histc(T.tensor([1., 2, 1]), bins=4, min=3, max=1)"),
    ("", "T.histc(T.tensor([1 + 1j]), bins=2)"),
    ("", "T.histc(T.tensor([1 + 1j]), bins=2, min=0, max=2)"),
)
def test_histc(setup, expr):
    check(setup, expr)


def test_histc_bins_random_data_like_pytorch():
    torch = torch_or_skip()
    x = np.random.default_rng(4).uniform(-1, 1, 20000).astype(np.float32)
    for lo, hi, bins in ((-1, 1, 7), (-0.3, 0.7, 13), (0, 0, 100)):
        mine = mg.histc(mg.from_numpy(x), bins=bins, min=lo, max=hi).numpy()
        np.testing.assert_array_equal(mine, torch.histc(torch.from_numpy(x), bins=bins, min=lo, max=hi).numpy())


# ---- trapezoid ----------------------------------------------------------------------------------------

Y = "y = T.tensor([[1., 2, 4], [0, 3, 1]], dtype=T.float64, requires_grad=True)\n"
XS = "xs = T.tensor([0., 1, 3], dtype=T.float64, requires_grad=True)\n"


@cases(
    (Y, "T.trapezoid(y)"),
    (Y, "T.trapezoid(y, dim=0)"),
    (Y, "T.trapezoid(y, dx=0.5)"),
    (Y, "T.trapezoid(y, dx=3)"),
    (Y + XS, "T.trapezoid(y, xs)"),
    (Y + XS, "T.trapezoid(y, x=xs)"),
    (Y + XS, "T.trapezoid(y, xs * y)"),
    (Y + XS, "T.trapezoid(y, xs.unsqueeze(0), dim=0)"),
    (Y + XS, "T.trapezoid(y.t(), xs[:2], dim=0)"),
    (Y, "T.trapz(y, dx=2)"),
    (Y + XS, "T.trapz(y, xs)"),
    ("", "T.trapezoid(T.tensor([1, 2, 4]), T.tensor([0, 1, 3]))"),
    ("", "T.trapezoid(T.tensor([1, 2, 4]))"),
    ("", "T.trapezoid(T.tensor([1, 2, 4]), dx=2)"),
    ("", "T.trapezoid(T.ones(0, 3))"),
    ("", "T.trapezoid(T.ones(0, 3), dim=0)"),
    ("", "T.trapezoid(T.ones(3, 0), T.ones(0))"),
    ("", "T.trapezoid(T.tensor(2.))"),
    ("", "T.trapezoid(T.tensor(2.), T.tensor(1.))"),
    ("", "T.trapezoid(T.tensor([True, False]))"),
    ("", "T.trapezoid(T.tensor([1., 2]), T.tensor([True, False]))"),
    (Y, "T.trapezoid(y, dx=1j)"),
    (Y, "T.trapezoid(y, dx=True)"),
    (Y + XS, "T.trapezoid(y, xs[:2])"),
    (Y + XS, "T.trapezoid(y, xs, dx=2)"),
    (Y, "T.trapezoid(y, 2)"),
    (Y, "T.trapezoid(y, dim=2)"),
)
def test_trapezoid(setup, expr):
    check(setup, expr)


# ---- double backward (create_graph) where PyTorch's formula is differentiable --------------------------

# Cases whose gradient graph (create_graph=True) has a node that is not PyTorch's, in formulas outside this
# pass (the second derivatives are still compared):
DIFFERENT_GRAPH = {
    "T.nanmedian(n, 1)[0]": "value_selecting_backward scatters with index_put (PyTorch: scatter)",
    "T.cov(c, aweights=T.tensor([0.5, 1, 2, 1], dtype=T.float64))":
        "squeeze's gradient is a reshape (PyTorch: unsqueeze per size-1 dim); mm's gradient for a column-major "
        "input is not PyTorch's transposed product",
    "T.corrcoef(c)": "as cov",
    "T.combinations(v, 2)": "masked_select's gradient is an index_put (PyTorch: masked_scatter); stack's is an "
                            "unbind (PyTorch: one select per input)",
    "T.cartesian_prod(v, v)": "stack's gradient is an unbind (PyTorch: one select per input)",
}


@pytest.mark.parametrize("setup,expr,inputs", [
    (A23, "T.rot90(a, 1, [0, 1])", "a"),
    (TIES, "T.aminmax(x, dim=1)", "x"),
    (TIES, "T.aminmax(x)", "x"),
    (TIES, "T.aminmax(x, dim=0, keepdim=True)[1]", "x"),
    (E, "T.erfinv(e * 0.9)", "e"),
    (N, "T.nanmedian(n)", "n"),
    (N, "T.nanmedian(n, 1)[0]", "n"),
    (P, "T.fmax(p, q)", "p, q"),
    (A23 + V3, "T.fmin(a, v)", "a, v"),
    (A23 + V3 + S0, "T.block_diag(a, v, s)", "a, v, s"),
    (A23 + B32, "T.kron(a, b)", "a, b"),
    (X234 + Y43, "T.tensordot(x, y, ([1, 2], [1, 0]))", "x, y"),
    (C, "T.cov(c, aweights=T.tensor([0.5, 1, 2, 1], dtype=T.float64))", "c"),
    (C, "T.corrcoef(c)", "c"),
    (Y + XS, "T.trapezoid(y, xs)", "y, xs"),
    (Y, "T.trapezoid(y, dx=0.5)", "y"),
    (V3, "T.combinations(v, 2)", "v"),
    (V3, "T.cartesian_prod(v, v)", "v"),
])
def test_double_backward(setup, expr, inputs):
    """Gradients taken with create_graph=True: the same graphs and the same second derivatives."""
    torch = torch_or_skip()
    results = []
    for T in (mg, torch):
        scope = {"T": T, "nan": float("nan")}
        exec(setup, scope)
        xs = eval(f"[{inputs}]", scope)
        out = eval(expr, scope)
        outs = [o for o in (out if isinstance(out, tuple) else (out,)) if o.requires_grad]
        vs = [T.arange(1, o.numel() + 1, dtype=o.dtype).reshape(o.shape).sin().requires_grad_() for o in outs]
        grads = T.autograd.grad(outs, xs, vs, create_graph=True)
        total = sum((g * g.detach().cos()).sum() for g in grads)
        second = T.autograd.grad(total, xs + vs, allow_unused=True)
        graphs = [_graph(g.grad_fn) for g in grads]
        if expr in DIFFERENT_GRAPH:
            graphs = None
        results.append({"graphs": graphs, "second": [None if s is None else np.asarray(s.tolist()) for s in second]})
    _close(results[0], results[1])
