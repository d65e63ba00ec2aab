"""The fast paths of #8 round 16 (bench/PROFILE.md): each gives what the general path gives, and declines the rest.

- ``derivatives._times_conj`` (MulBackward0's two formulas): when nothing records and the saved factor is a real
  float32/float64 tensor of the gradient's shape and dtype, the product is NumPy's ``np.multiply`` straight, laid
  out as ``grad * y`` lays it out; everything else (complex, half types, broadcast, promotion, create_graph, saved
  numbers) is ``grad * conj(y)`` as before.
- ``_dispatch._GRADS_FIT_OPS`` grew by neg, exp, sigmoid, relu, div and pow: their nodes skip the engine's fix-up
  when every input has the result's shape and dtype, and keep it otherwise.
"""
from __future__ import annotations

import gc

import ml_dtypes
import numpy as np
import pytest
from parity import torch_or_skip

import minigrad
from minigrad import _errstate, _meta, _zerotensor, derivatives
from minigrad.autograd import engine, grad_mode


@pytest.fixture(autouse=True)
def _no_zero_or_meta_tensor_alive(monkeypatch):
    """``_times_conj`` takes its fast path only while no ZeroTensor or meta tensor is alive: one an earlier test
    left to the collector (or kept) must not decide which path these tests see (a full run in one process did)."""
    gc.collect()
    monkeypatch.setattr(_zerotensor, "ZEROS", {})
    monkeypatch.setattr(_meta, "METAS", {})


def _values(shape, dtype=np.float32, seed=0) -> np.ndarray:
    a = np.random.default_rng(seed).standard_normal(shape) + 0.25
    if np.dtype(dtype).kind == "c":
        a = a + 1j * np.random.default_rng(seed + 100).standard_normal(shape)
    return a.astype(dtype)


def _record(t) -> tuple:
    """What must match bit for bit: dtype, shape, strides, bytes (and whether it has a grad_fn)."""
    data = t.detach().float() if str(t.dtype) == "torch.bfloat16" else t.detach()  # (exact; .numpy() refuses it)
    return str(t.dtype), tuple(t.shape), t.stride(), data.numpy().tobytes(), t.grad_fn is None


def _both(fn):
    """``fn(lib)`` for PyTorch and minigrad."""
    torch = torch_or_skip()
    return fn(torch), fn(minigrad)


# ---- _times_conj: MulBackward0's product --------------------------------------------------------------------------

def _w5(lib, n=7, dtype=np.float32):
    a = lib.from_numpy(_values((n, 1), dtype, 0)).requires_grad_()
    b = lib.from_numpy(_values((1, n), dtype, 1)).requires_grad_()
    c = lib.from_numpy(_values((n, n), dtype, 2)).requires_grad_()
    ((a + b) * c).sum().backward()
    return [_record(t.grad) for t in (a, b, c)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
def test_w5_gradients_match_pytorch(dtype) -> None:
    expected, got = _both(lambda lib: _w5(lib, 9, dtype))
    assert got == expected


def _spy_general_path(monkeypatch) -> list:
    """Record every call of the general path's conj (``grad * conj(y)``)."""
    calls = []
    conj_saved = derivatives._conj_saved
    monkeypatch.setattr(derivatives, "_conj_saved", lambda y: calls.append(1) or conj_saved(y))
    return calls


def test_w5_takes_the_fast_path(monkeypatch) -> None:
    calls = _spy_general_path(monkeypatch)
    _w5(minigrad)
    assert calls == []


# Layouts of (gradient, saved factor): C order, the gradient expanded from one value (sum's), transposed, sliced,
# permuted 3-D, 1-D, 0-dim, empty.
LAYOUTS = {
    "contiguous": lambda g, y: (g, y),
    "expanded-grad": lambda g, y: (g[:1, :1].expand(g.shape), y),
    "expanded-one": lambda g, y: (minigrad.ones((), dtype=g.dtype).expand(g.shape), y),
    "transposed-grad": lambda g, y: (g.t().contiguous().t(), y),
    "transposed-factor": lambda g, y: (g, y.t().contiguous().t()),
    "both-transposed": lambda g, y: (g.t().contiguous().t(), y.t().contiguous().t()),
    "sliced": lambda g, y: (g, minigrad.from_numpy(np.repeat(y.numpy(), 2, axis=1))[:, ::2]),
    "3-d-permuted": lambda g, y: (g.reshape(2, 3, 2), y.reshape(2, 2, 3).permute(0, 2, 1)),
    "1-d": lambda g, y: (g.reshape(-1), y.reshape(-1)),
    "0-dim": lambda g, y: (g[0, 0], y[0, 0]),
    "empty": lambda g, y: (g[:0], y[:0]),
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_fast_product_is_the_general_products_tensor(layout, dtype) -> None:
    g0 = minigrad.from_numpy(_values((4, 3), dtype, 3))
    y0 = minigrad.from_numpy(_values((4, 3), dtype, 4))
    g, y = LAYOUTS[layout](g0, y0)
    prev = grad_mode.STATE.enabled
    grad_mode.STATE.enabled = False  # (as in a backward pass without create_graph)
    try:
        fast = derivatives._times_conj(g, y)
        general = g * derivatives._conj_saved(y)
    finally:
        grad_mode.STATE.enabled = prev
    assert _record(fast) == _record(general)
    assert fast._data.flags.writeable and general._data.flags.writeable
    assert (fast._data.base is None) == (general._data.base is None)  # (AccumulateGrad may take either alike)


@pytest.mark.parametrize("layout", ["transposed-grad", "transposed-factor", "both-transposed", "3-d-permuted",
                                    "sliced"])
def test_gradient_strides_match_pytorch(layout) -> None:
    # The same layouts reached through a real backward: the product's strides are TensorIterator's.
    def run(lib):
        x = lib.tensor(_values((4, 3), seed=5), requires_grad=True)
        w = lib.tensor(_values((4, 3), seed=6), requires_grad=True)
        grad = lib.tensor(_values((4, 3), seed=7))
        if layout in ("transposed-grad", "both-transposed"):
            grad = grad.t().contiguous().t()
        factor = w.t().contiguous().t() if layout in ("transposed-factor", "both-transposed") else w
        if layout == "3-d-permuted":
            grad, factor = grad.reshape(2, 3, 2), w.reshape(2, 2, 3).permute(0, 2, 1)
        if layout == "sliced":
            factor = w.repeat(1, 2)[:, ::2]
        y = (x.reshape(factor.shape) * factor) if layout != "sliced" else x * factor
        y.backward(grad)
        return [_record(x.grad), _record(w.grad)]

    expected, got = _both(run)
    assert got == expected


# (x, w) of ``x * w``, and how many of the two formulas decline: the rule is per formula (grad and the factor of
# the same shape and dtype), so x's gradient of a broadcast x (2,) * w (3, 2) is fast (w and grad are (3, 2)), w's not.
DECLINED = {
    "complex64": (lambda lib: (lib.tensor(_values((3, 2), np.complex64)),
                               lib.tensor(_values((3, 2), np.complex64, 1))), 2),
    "float16": (lambda lib: (lib.tensor(_values((3, 2), np.float16)), lib.tensor(_values((3, 2), np.float16, 1))), 2),
    "broadcast": (lambda lib: (lib.tensor(_values((2,))), lib.tensor(_values((3, 2), seed=1))), 1),
    "promotion": (lambda lib: (lib.tensor(_values((3, 2))), lib.tensor(_values((3, 2), np.float64, 1))), 1),
    "0-dim-factor": (lambda lib: (lib.tensor(_values((3, 2))), lib.tensor(_values((), seed=1))), 1),
}


@pytest.mark.parametrize("case", list(DECLINED))
def test_declined_cases_take_the_general_path_and_match_pytorch(case, monkeypatch) -> None:
    calls = _spy_general_path(monkeypatch)

    def run(lib):
        x, w = DECLINED[case][0](lib)
        x.requires_grad_()
        w.requires_grad_()
        y = x * w
        y.backward(lib.ones_like(y))
        return [_record(x.grad), _record(w.grad)]

    expected, got = _both(run)
    assert got == expected
    assert len(calls) == DECLINED[case][1]  # (the declined formulas went through grad * conj(y))


def test_bfloat16_is_declined(monkeypatch) -> None:
    calls = _spy_general_path(monkeypatch)
    x = minigrad.tensor(_values((3, 2), ml_dtypes.bfloat16), requires_grad=True)
    w = minigrad.tensor(_values((3, 2), ml_dtypes.bfloat16, 1), requires_grad=True)
    (x * w).sum().backward()
    assert len(calls) == 2
    assert x.grad.dtype == minigrad.bfloat16
    np.testing.assert_array_equal(x.grad._data, w._data)  # (sum's gradient is 1: the product is w exactly)


def test_create_graph_records_the_product_as_pytorch() -> None:
    def run(lib):
        x = lib.tensor(_values((3, 2)), requires_grad=True)
        w = lib.tensor(_values((3, 2), seed=1), requires_grad=True)
        (gx,) = lib.autograd.grad((x * w).sum(), x, create_graph=True)
        (ggw,) = lib.autograd.grad(gx.sum(), w)
        return type(gx.grad_fn).__name__, _record(gx.detach()), _record(ggw)

    expected, got = _both(run)
    assert got == expected
    assert got[0] == "MulBackward0"


def test_saved_number_takes_the_number_op() -> None:
    def run(lib):
        x = lib.tensor(_values((3, 2)), requires_grad=True)
        (x * 1.0001).sum().backward()
        return _record(x.grad)

    expected, got = _both(run)
    assert got == expected


def test_outside_a_pass_numpy_stays_quiet_and_the_users_state_is_kept() -> None:
    # node._apply called directly (no engine pass, so NumPy is not quiet yet): the overflowing product warns nothing
    x = minigrad.tensor(np.full((2, 2), 3e38, np.float32), requires_grad=True)
    w = minigrad.tensor(np.full((2, 2), 3e38, np.float32), requires_grad=True)
    node = (x * w).grad_fn
    assert _errstate.get() is not _errstate.QUIET
    with np.errstate(all="raise"):
        with minigrad.no_grad():
            gx, gw = node._apply((minigrad.from_numpy(np.full((2, 2), 3e38, np.float32)),))
        assert np.geterr()["over"] == "raise"
    assert np.isinf(gx._data).all() and np.isinf(gw._data).all()


def test_the_fast_product_reaching_a_leaf_is_taken_without_a_copy(monkeypatch) -> None:
    from minigrad.autograd import graph
    seen = []
    accumulate = graph.AccumulateGrad._accumulate

    def spy(self, new, owned, grad_enabled):   # (the engine hands on its grad mode: round 33)
        seen.append(owned)
        return accumulate(self, new, owned, grad_enabled)

    monkeypatch.setattr(graph.AccumulateGrad, "_accumulate", spy)
    x = minigrad.tensor(_values((4, 3)), requires_grad=True)
    w = minigrad.tensor(_values((4, 3), seed=1), requires_grad=True)
    (x * w).sum().backward()
    assert seen == [True, True]


# ---- grads_fit for more ops ---------------------------------------------------------------------------------------

FIT_DTYPES = [np.float16, ml_dtypes.bfloat16, np.float32, np.float64, np.complex64, np.complex128]
FIT_CASES = {
    "neg": lambda a, b: -a,
    "exp": lambda a, b: a.exp(),
    "sigmoid": lambda a, b: a.sigmoid(),
    "relu": lambda a, b: a.relu(),
    "div": lambda a, b: a / b,
    "div-none": lambda a, b: minigrad.div(a, b, rounding_mode=None),
    "div-floor": lambda a, b: minigrad.div(a, b, rounding_mode="floor"),
    "div-trunc": lambda a, b: minigrad.div(a, b, rounding_mode="trunc"),
    "pow-2": lambda a, b: a ** 2,
    "pow-2.5": lambda a, b: a ** 2.5,
    "pow-3": lambda a, b: a ** 3,
    "pow-tensor": lambda a, b: a ** b,
    "pow-of-number": lambda a, b: 2 ** a,
}
# Ops that PyTorch refuses for a dtype (relu and floor/trunc division of complex numbers, sigmoid of ...)
_REFUSED = (RuntimeError, NotImplementedError, TypeError)


def _check_fits(node, grad, create_graph: bool) -> None:
    """The node's gradients need nothing from _validate_outputs (it returns them unchanged)."""
    prev = grad_mode.STATE.enabled
    grad_mode.STATE.enabled = create_graph
    try:
        outputs = node._apply((grad,))
    finally:
        grad_mode.STATE.enabled = prev
    checked = engine._validate_outputs(node, outputs)
    assert len(outputs) == len(checked) == len(node._next_nodes)
    for g, c, (shape, dtype), nxt in zip(outputs, checked, node._input_meta, node._next_nodes):
        assert c is g
        if g is not None and nxt is not None:
            assert g._data.shape == shape and g._data.dtype == dtype


@pytest.mark.parametrize("dtype", FIT_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", list(FIT_CASES))
def test_new_fit_ops_need_no_fix_up(name, dtype) -> None:
    for create_graph in (False, True):
        a = minigrad.tensor(_values((3, 4), dtype, 0), requires_grad=True)
        b = minigrad.tensor(_values((3, 4), dtype, 1), requires_grad=True)
        try:
            y = FIT_CASES[name](a, b)
        except _REFUSED:
            return
        assert y.grad_fn._grads_fit is True
        grad = minigrad.tensor(_values((3, 4), dtype, 2), requires_grad=create_graph)
        _check_fits(y.grad_fn, grad, create_graph)


@pytest.mark.parametrize("make", [
    lambda: minigrad.tensor(_values((3,)), requires_grad=True) / minigrad.tensor(_values((2, 3), seed=1)),
    lambda: minigrad.tensor(_values((2, 3)), requires_grad=True) ** minigrad.tensor(_values((2, 3), np.float64)),
    lambda: minigrad.tensor(_values((2, 3)), requires_grad=True) ** minigrad.tensor(2.0),
    # (mm and mean became fit in round 17: tests/test_perf_round17.py)
    lambda: minigrad.tensor(_values((2, 3)), requires_grad=True).sum(),
], ids=["div-broadcast", "pow-promotion", "pow-0-dim", "sum"])
def test_other_nodes_keep_the_fix_up(make) -> None:
    assert make().grad_fn._grads_fit is False


def test_a_graph_of_new_fit_ops_with_fix_ups_matches_pytorch() -> None:
    def run(lib):
        x = lib.tensor(_values((3,)), requires_grad=True)
        y = lib.tensor(_values((2, 3), seed=1), requires_grad=True)
        z = lib.tensor(_values((2, 3), np.float64, seed=2), requires_grad=True)
        h = ((-(x * 1.5 + y)).exp().sigmoid() / y).relu() ** 2
        ((h ** y.abs()) * z + lib.div(h, y, rounding_mode="floor")).sum().backward()
        return [_record(t.grad) for t in (x, y, z)]

    expected, got = _both(run)
    assert got == expected


@pytest.mark.parametrize("name", ["exp", "sigmoid", "pow"])
def test_saved_tensor_hooks_keep_the_fix_up(name) -> None:
    """An unpack hook may return another dtype: the engine must still cast the gradient back (as PyTorch)."""
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t.double()):
            y = x.exp() if name == "exp" else x.sigmoid() if name == "sigmoid" else x ** 2.5
        y.sum().backward()
        return str(x.grad.dtype), x.grad.tolist()

    expected, got = _both(run)
    assert got == expected
    assert got[0] == "torch.float32"


# ---- mean_backward: one quotient, copied out -----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, ml_dtypes.bfloat16, np.complex64],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", [(100, 1), (3, 5, 7), (), (1,)], ids=str)
def test_mean_gradient_matches_pytorch(shape, dtype) -> None:
    # (not an empty input: PyTorch's gradient then has strides (0, 0), minigrad's (3, 1) before and after this
    # round, a leftover of empty tensors' strides)
    torch = torch_or_skip()

    def run(lib):
        def make(a):
            return lib.tensor(a.astype(np.float32)).to(lib.bfloat16) if dtype is ml_dtypes.bfloat16 else lib.tensor(a)
        x = make(_values(shape, dtype)).requires_grad_()
        g = make(_values((), dtype, 3))  # (a gradient that is not 1: the quotient is rounded)
        x.mean().backward(g)
        return _record(x.grad)

    assert run(minigrad) == run(torch)


def test_mean_gradient_of_a_loss_matches_pytorch() -> None:
    def run(lib):
        pred = lib.tensor(_values((100, 1)), requires_grad=True)
        ((pred - lib.tensor(_values((100, 1), seed=1))) ** 2).mean().backward()
        return _record(pred.grad)

    expected, got = _both(run)
    assert got == expected


def test_mean_backward_outside_a_pass_and_under_create_graph() -> None:
    # node._apply called directly (NumPy not quiet: the general path) and create_graph (recorded) give the same
    # values as the pass's one-quotient path
    x = minigrad.tensor(_values((4, 3)), requires_grad=True)
    y = x.mean()
    g = minigrad.tensor(np.float32(0.3))
    with np.errstate(all="raise"), minigrad.no_grad():
        (outside,) = y.grad_fn._apply((g,))
    (inside,) = minigrad.autograd.grad(y, x, g, retain_graph=True)
    (recorded,) = minigrad.autograd.grad(y, x, g.requires_grad_(), create_graph=True)
    assert _record(outside) == _record(inside) == _record(recorded.detach())
    assert type(recorded.grad_fn).__name__ == "DivBackward1"


def test_backward_reaches_the_engine_through_the_module_attribute(monkeypatch) -> None:
    # graph._engine_run_backward reads engine.run_backward when called (no import statement per backward)
    from minigrad.autograd import graph
    calls = []
    run_backward = engine.run_backward
    monkeypatch.setattr(engine, "run_backward", lambda *a: calls.append(1) or run_backward(*a))
    x = minigrad.tensor(_values((3,)), requires_grad=True)
    (x * x).sum().backward()
    assert graph.engine is engine and calls == [1]
