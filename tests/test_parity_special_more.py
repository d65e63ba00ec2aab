"""PyTorch parity for the torch.special functions of the special-more pass: i0/i0e/i1/i1e, ndtr/ndtri/log_ndtr,
entr, erfcx, xlog1py (tensor and number forms) and multigammaln (torch.mvlgamma).

Each case runs the same expression with ``T = minigrad`` and ``T = torch`` and compares values (float32 and
float64), dtypes, the graph below the output (node names and ``_saved_*`` names), gradients and second
derivatives (create_graph=True, then backward through the gradient).
"""
from __future__ import annotations

import numpy as np
import pytest
from parity import assert_close, torch_or_skip

import minigrad as mg


def _graph(fn, depth: int = 0):
    """(class name, sorted _saved_* names, children) below a grad_fn."""
    if fn is None or depth > 8:
        return None
    saved = tuple(sorted(a for a in dir(fn) if a.startswith("_saved_")))
    return (type(fn).__name__, saved, tuple(_graph(f, depth + 1) for f, _ in fn.next_functions))


# name -> (function of (T, x), input values); inputs keep each function smooth where it is evaluated
REAL = [-31.0, -7.5, -2.0, -0.3, 0.2, 1.0, 4.5, 12.0, 29.0, 33.0]
UNARY = {
    "i0": (lambda T, x: T.i0(x), REAL),
    "special.i0": (lambda T, x: T.special.i0(x), REAL),
    "method.i0": (lambda T, x: x.i0(), REAL),
    "i0e": (lambda T, x: T.special.i0e(x), REAL),
    "i1": (lambda T, x: T.special.i1(x), REAL),
    "i1e": (lambda T, x: T.special.i1e(x), REAL),
    "ndtr": (lambda T, x: T.special.ndtr(x), [-9.0, -3.0, -0.5, 0.0, 0.7, 2.5, 6.0]),
    "ndtri": (lambda T, x: T.special.ndtri(x), [1e-12, 1e-4, 0.02, 0.3, 0.5, 0.8, 0.999, 0.9999999]),
    "log_ndtr": (lambda T, x: T.special.log_ndtr(x), [-40.0, -8.0, -1.5, -1.0, -0.2, 0.5, 3.0, 9.0]),
    "entr": (lambda T, x: T.special.entr(x), [1e-6, 0.1, 0.5, 1.0, 2.5, 40.0]),
    "erfcx": (lambda T, x: T.special.erfcx(x), [-5.0, -1.0, -0.1, 0.0, 0.4, 2.0, 10.0, 26.0]),
    "multigammaln": (lambda T, x: T.special.multigammaln(x, 3), [1.1, 1.7, 2.5, 6.0, 30.0]),
    "mvlgamma": (lambda T, x: T.mvlgamma(x, 2), [0.6, 1.3, 4.0, 12.0]),
    "method.mvlgamma": (lambda T, x: x.mvlgamma(p=1), [0.6, 1.3, 4.0]),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(UNARY))
def test_unary_values_grads_graph(name, dtype):
    torch = torch_or_skip()
    fn, values = UNARY[name]
    xm = mg.tensor(values, dtype=getattr(mg, dtype), requires_grad=True)
    xt = torch.tensor(values, dtype=getattr(torch, dtype), requires_grad=True)
    ym, yt = fn(mg, xm), fn(torch, xt)
    assert str(ym.dtype) == str(yt.dtype)
    tol = {"rtol": 1e-5, "atol": 1e-30} if dtype == "float32" else {"rtol": 1e-12, "atol": 1e-300}
    assert_close(ym, yt, **tol)
    assert _graph(ym.grad_fn) == _graph(yt.grad_fn)
    # first and second derivatives (the gradient's own graph is differentiated too)
    (gm,) = mg.autograd.grad(ym.sum(), xm, create_graph=True)
    (gt,) = torch.autograd.grad(yt.sum(), xt, create_graph=True)
    # float32 gradients may cancel (i1e' = i0e - i1e·(sgn + 1/x)): a 1-ulp value difference grows there
    assert_close(gm, gt, **(tol if dtype == "float64" else {"rtol": 1e-4, "atol": 1e-7}))
    (ggm,) = mg.autograd.grad(gm.sum(), xm)
    (ggt,) = torch.autograd.grad(gt.sum(), xt)
    assert_close(ggm, ggt, rtol=1e-4 if dtype == "float32" else 1e-9, atol=1e-6 if dtype == "float32" else 1e-30)


def test_saved_values_match():
    torch = torch_or_skip()
    for name in ("i0", "i0e", "i1", "i1e", "ndtri", "log_ndtr", "entr", "erfcx", "multigammaln"):
        fn, values = UNARY[name]
        ym = fn(mg, mg.tensor(values, dtype=mg.float64, requires_grad=True))
        yt = fn(torch, torch.tensor(values, dtype=torch.float64, requires_grad=True))
        for attr in (a for a in dir(yt.grad_fn) if a.startswith("_saved_")):
            vm, vt = getattr(ym.grad_fn, attr), getattr(yt.grad_fn, attr)
            if isinstance(vt, torch.Tensor):
                assert_close(vm, vt, rtol=1e-12, atol=0)
            else:
                assert vm == vt, (name, attr)


def test_edge_values():
    """Zeros, infinities, NaN and the tails, where each function has its own rule."""
    torch = torch_or_skip()
    edge = [0.0, -0.0, 1e-9, -1e-9, float("inf"), float("-inf"), float("nan"), 80.0, -80.0, 700.0, 800.0]
    for dtype in ("float32", "float64"):
        xm, xt = mg.tensor(edge, dtype=getattr(mg, dtype)), torch.tensor(edge, dtype=getattr(torch, dtype))
        for name in ("i0", "i0e", "i1", "i1e", "entr", "erfcx", "log_ndtr", "ndtr"):
            f = getattr(mg.special, name)
            assert_close(f(xm), getattr(torch.special, name)(xt), rtol=1e-5 if dtype == "float32" else 1e-12,
                         atol=0)
        p = [0.0, 1.0, -0.5, 1.5, float("nan"), 1e-300 if dtype == "float64" else 1e-38, 0.5]
        assert_close(mg.special.ndtri(mg.tensor(p, dtype=getattr(mg, dtype))),
                     torch.special.ndtri(torch.tensor(p, dtype=getattr(torch, dtype))), rtol=1e-6, atol=0)


def test_i1_gradient_at_zero_is_half():
    torch = torch_or_skip()
    for name in ("i1", "i1e"):
        xm = mg.tensor([0.0, 1e-9], requires_grad=True)
        xt = torch.tensor([0.0, 1e-9], requires_grad=True)
        getattr(mg.special, name)(xm).sum().backward()
        getattr(torch.special, name)(xt).sum().backward()
        assert xm.grad.tolist() == [0.5, 0.5]
        assert_close(xm.grad, xt.grad)


def test_integer_inputs_promote():
    torch = torch_or_skip()
    for name in ("i0", "i0e", "i1", "i1e", "ndtr", "ndtri", "log_ndtr", "entr", "erfcx"):
        vm = getattr(mg.special, name)(mg.tensor([0, 1, 2]))
        vt = getattr(torch.special, name)(torch.tensor([0, 1, 2]))
        assert str(vm.dtype) == str(vt.dtype) == "torch.float32"
        assert_close(vm, vt)
    assert_close(mg.i0(mg.tensor([1, 3])), torch.i0(torch.tensor([1, 3])))
    vm, vt = mg.special.multigammaln(mg.tensor([2, 3]), 2), torch.special.multigammaln(torch.tensor([2, 3]), 2)
    assert str(vm.dtype) == str(vt.dtype) == "torch.float32"
    assert_close(vm, vt)


def test_i0_in_place():
    torch = torch_or_skip()
    am, at = mg.tensor([0.5, -2.0, 3.0]), torch.tensor([0.5, -2.0, 3.0])
    assert am.i0_() is am
    at.i0_()
    assert_close(am, at)


def test_mvlgamma_p_below_one():
    torch = torch_or_skip()
    with pytest.raises(RuntimeError) as em:
        mg.mvlgamma(mg.tensor([2.0]), 0)
    with pytest.raises(RuntimeError) as et:
        torch.mvlgamma(torch.tensor([2.0]), 0)
    assert str(em.value) == str(et.value)


XLOG1PY = {
    "tensor-tensor": (lambda T, x, y: T.special.xlog1py(x, y), True, True),
    "number-self": (lambda T, x, y: T.special.xlog1py(2.5, y), False, True),
    "number-other": (lambda T, x, y: T.special.xlog1py(x, 0.75), True, False),
    "number-other-below-minus-one": (lambda T, x, y: T.special.xlog1py(x, -1.5), True, False),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("form", list(XLOG1PY))
def test_xlog1py(form, dtype):
    torch = torch_or_skip()
    fn, x_used, y_used = XLOG1PY[form]
    xs, ys = [0.0, 0.5, -1.25, 2.0], [0.3, -0.5, 4.0, -1.0]
    xm, ym_ = mg.tensor(xs, dtype=getattr(mg, dtype), requires_grad=True), mg.tensor(ys, dtype=getattr(mg, dtype),
                                                                                     requires_grad=True)
    xt, yt_ = (torch.tensor(xs, dtype=getattr(torch, dtype), requires_grad=True),
               torch.tensor(ys, dtype=getattr(torch, dtype), requires_grad=True))
    om, ot = fn(mg, xm, ym_), fn(torch, xt, yt_)
    assert str(om.dtype) == str(ot.dtype)
    assert_close(om, ot)
    assert _graph(om.grad_fn) == _graph(ot.grad_fn)
    for attr in ("_saved_self", "_saved_other"):
        vm, vt = getattr(om.grad_fn, attr), getattr(ot.grad_fn, attr)
        assert_close(vm, vt) if isinstance(vt, torch.Tensor) else (assert_number(vm, vt))
    # gradients where they are finite (y = -1 gives inf/nan in both)
    ins_m = [t for t, used in ((xm, x_used), (ym_, y_used)) if used]
    ins_t = [t for t, used in ((xt, x_used), (yt_, y_used)) if used]
    keep = [0, 1, 2]
    gm = mg.autograd.grad(om[keep].sum(), ins_m, create_graph=True)
    gt = torch.autograd.grad(ot[keep].sum(), ins_t, create_graph=True)
    for a, b in zip(gm, gt):
        assert_close(a, b)
    assert [g.requires_grad for g in gm] == [g.requires_grad for g in gt]
    if not all(g.requires_grad for g in gt):    # x-gradient of xlog1py(x, c) is the constant log1p(c)
        return
    ggm = mg.autograd.grad(sum(g[keep].sum() for g in gm), ins_m, allow_unused=True)
    ggt = torch.autograd.grad(sum(g[keep].sum() for g in gt), ins_t, allow_unused=True)
    for a, b in zip(ggm, ggt):
        assert (a is None) == (b is None)
        if a is not None:
            assert_close(a, b)


def assert_number(vm, vt):
    assert vm == vt and type(vm) is type(vt)


def test_xlog1py_zero_times_log_of_nonpositive():
    """x == 0 gives 0 (even where log1p(y) is -inf or NaN), except y NaN; the x-gradient there is 0 too."""
    torch = torch_or_skip()
    xs, ys = [0.0, 0.0, 0.0, 1.0], [-1.0, -3.0, float("nan"), -3.0]
    xm, xt = mg.tensor(xs, requires_grad=True), torch.tensor(xs, requires_grad=True)
    om, ot = mg.special.xlog1py(xm, mg.tensor(ys)), torch.special.xlog1py(xt, torch.tensor(ys))
    assert_close(om, ot)
    om[:2].sum().backward()
    ot[:2].sum().backward()
    assert_close(xm.grad, xt.grad)
    assert xm.grad.tolist()[:2] == [0.0, 0.0]


def test_xlog1py_integer_promotion():
    torch = torch_or_skip()
    cases = [lambda T: T.special.xlog1py(T.tensor([1, 2]), T.tensor([3, 4])),
             lambda T: T.special.xlog1py(T.tensor([1, 2]), 3),
             lambda T: T.special.xlog1py(2, T.tensor([1, 2])),
             lambda T: T.special.xlog1py(T.tensor([1.0, 2.0], dtype=T.float64), T.tensor([1, 2]))]
    for case in cases:
        vm, vt = case(mg), case(torch)
        assert str(vm.dtype) == str(vt.dtype)
        assert_close(vm, vt)


def test_float32_within_a_few_ulp():
    """Float32 values over a wide grid: the Bessel functions, erfcx and log_ndtr bit for bit PyTorch's (its Cephes
    Chebyshev kernels, themselves up to ~13 ulp off near |x| = 8 for i1; the Faddeeva package), ndtr within 4 ulp
    of PyTorch's float64 value rounded and near PyTorch's float32 value."""
    torch = torch_or_skip()
    grid = np.concatenate([np.linspace(-40, 40, 401), np.geomspace(1e-6, 90, 50)]).astype(np.float32)
    for name in ("i0", "i0e", "i1", "i1e", "erfcx", "log_ndtr", "ndtr"):
        a = getattr(mg.special, name)(mg.tensor(grid)).numpy()
        b = getattr(torch.special, name)(torch.tensor(grid)).numpy()
        finite = np.isfinite(b) & (b != 0)
        assert np.array_equal(np.isfinite(a), np.isfinite(b)), name
        ulp = np.abs(a[finite] - b[finite]) / np.spacing(np.abs(b[finite]))
        assert ulp.max() <= 16, (name, float(ulp.max()))
        if name.startswith("i") or name in ("erfcx", "log_ndtr"):
            # PyTorch's kernels step for step (erfcx's continued fraction beyond 50 within an ulp only)
            same = grid <= 50 if name == "erfcx" else np.ones(grid.shape, bool)
            assert np.array_equal(a[same], b[same], equal_nan=True), name
            continue
        with np.errstate(over="ignore"):
            exact = getattr(torch.special, name)(torch.tensor(grid, dtype=torch.float64)).numpy().astype(np.float32)
        if name == "erfcx":     # x < 0: e^(x²) with x² rounded to float32 first, in PyTorch's kernel and here
            finite &= grid >= 0
        if name == "log_ndtr":      # x/√2 rounded to float32 first (steep erfc after it), as PyTorch
            finite &= np.abs(grid) < 3
        if name == "ndtr":          # PyTorch's composite (1 + erf(x/√2))·0.5 cancels for x < 0: same ops here
            continue
        ulp = np.abs(a[finite] - exact[finite]) / np.spacing(np.abs(exact[finite]))
        assert ulp.max() <= 4, (name, float(ulp.max()))
