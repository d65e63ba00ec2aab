"""The fast paths of #8 round 17 (bench/PROFILE.md): each gives what the general path gives, and declines the rest.

- ``_float_math.tanh_backward``'s float32 kernel: y cast to float64 once, squared and subtracted in place, rounded
  once to float32 and multiplied by g in place: the bits of PyTorch's fused g·(1 - y²) and of the old formulation.
- ``derivatives._tanh_grad`` (TanhBackward0's formula): when nothing records and grad and y are C-contiguous real
  float32/float64 arrays of one shape and dtype, the kernel runs on the arrays without the op's dispatch; every
  other case (half types, complex, transposed, broadcast, 0-dim, create_graph) is ``tanh_backward(grad, y)``.
- ``_dispatch._GRADS_SHAPED_NODES``: MmBackward0 and MeanBackward0 skip the engine's fix-up when every input has the
  result's dtype (their gradients have the inputs' shapes by construction), and keep it otherwise.
"""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from parity import torch_or_skip

import minigrad
from minigrad import _float_math, derivatives
from minigrad.autograd import engine, grad_mode


def _values(shape, dtype=np.float32, seed=0, scale=1.0) -> np.ndarray:
    a = np.random.default_rng(seed).standard_normal(shape) * scale + 0.25
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


def _old_float32_kernel(g, y):
    """Round 16's float32 formulation (np.multiply(y, y, dtype=float64) ...), the reference for the new one."""
    s = np.multiply(y, y, dtype=np.float64)
    s = np.subtract(1.0, s, out=s) if s.ndim else 1.0 - s
    return g * s.astype(np.float32)


# ---- the float32 kernel -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("scale", [0.01, 1.0, 4.0, 30.0])
@pytest.mark.parametrize("shape", [(1,), (31,), (32,), (33,), (100, 16), (7, 5, 3)], ids=str)
def test_float32_kernel_matches_pytorch_bit_for_bit(shape, scale) -> None:
    torch = torch_or_skip()
    y = np.tanh(_values(shape, np.float64, 0, scale)).astype(np.float32)
    g = _values(shape, np.float32, 1, scale)
    got = _float_math.tanh_backward(g, y)
    expected = torch.ops.aten.tanh_backward(torch.from_numpy(g), torch.from_numpy(y)).numpy()
    assert got.dtype == np.float32 and got.shape == shape and got.flags.c_contiguous
    assert got.tobytes() == expected.tobytes()
    assert got.tobytes() == _old_float32_kernel(g, y).tobytes()


def test_float32_kernel_special_values_equal_the_old_formulation() -> None:
    """±0, ±1, inf, nan (two NaN payloads: g's comes out, as before: the product keeps g first), tiny values."""
    special = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-30, -1e-20, 0.9999999, 3e-4, 2.0],
                       np.float32)
    y = np.repeat(special, len(special))
    g = np.tile(special, len(special))
    g[g != g] = np.float32(np.nan)
    g.view(np.int32)[np.isnan(g)] = 0x7FC00123
    y.view(np.int32)[np.isnan(y)] = 0x7FC00456
    with np.errstate(all="ignore"):
        assert _float_math.tanh_backward(g, y).tobytes() == _old_float32_kernel(g, y).tobytes()


@pytest.mark.parametrize("case", ["0-dim", "0-dim y", "0-dim g", "broadcast g", "float64 g", "empty"])
def test_float32_kernel_other_operands_equal_the_old_formulation(case) -> None:
    y, g = _values((4, 3), seed=0) / 3, _values((4, 3), seed=1)
    if case == "0-dim":
        y, g = y[0, 0, ...], g[0, 0, ...]
    elif case == "0-dim y":
        y = y[0, 0, ...]
    elif case == "0-dim g":
        g = g[0, 0, ...]
    elif case == "broadcast g":
        g = g[:1]
    elif case == "float64 g":
        g = g.astype(np.float64)
    else:
        y, g = y[:0], g[:0]
    got, old = _float_math.tanh_backward(g, y), _old_float32_kernel(g, y)
    assert type(got) is type(old) and np.asarray(got).dtype == np.asarray(old).dtype
    assert np.asarray(got).shape == np.asarray(old).shape
    assert np.asarray(got).tobytes() == np.asarray(old).tobytes()


# ---- _tanh_grad: TanhBackward0 without the op's dispatch ---------------------------------------------------------

def _spy_op(monkeypatch) -> list:
    """Record every call of the general path (the tanh_backward op)."""
    calls = []
    op = derivatives.tanh_backward

    def spy(*args, **kwargs):
        calls.append(args)
        return op(*args, **kwargs)

    monkeypatch.setattr(derivatives, "tanh_backward", spy)
    return calls


def _in_a_pass(fn):
    """``fn()`` with grad mode off and NumPy quiet, as inside the engine's backward pass."""
    with minigrad.no_grad(), np.errstate(all="ignore"):
        from minigrad._dispatch import _QUIET, _np_errstate
        token = _np_errstate.set(_QUIET)
        try:
            return fn()
        finally:
            _np_errstate.reset(token)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("shape", [(5,), (100, 16), (2, 3, 4)], ids=str)
def test_fast_path_gives_the_ops_tensor(shape, dtype, monkeypatch) -> None:
    y = minigrad.tensor(np.tanh(_values(shape, dtype, 0)))
    g = minigrad.tensor(_values(shape, dtype, 1))
    expected = _in_a_pass(lambda: derivatives.tanh_backward(g, y))
    calls = _spy_op(monkeypatch)
    got = _in_a_pass(lambda: derivatives._tanh_grad(g, y))
    assert calls == []
    assert type(got) is minigrad.Tensor and got.grad_fn is None
    assert (got.dtype, got.shape, got.stride()) == (expected.dtype, expected.shape, expected.stride())
    assert got._data.tobytes() == expected._data.tobytes() and got._data.flags.writeable


def _declined(case):
    y = np.tanh(_values((4, 3), np.float32, 0))
    g = _values((4, 3), np.float32, 1)
    if case == "float16":
        y, g = y.astype(np.float16), g.astype(np.float16)
    elif case == "bfloat16":
        y, g = y.astype(ml_dtypes.bfloat16), g.astype(ml_dtypes.bfloat16)
    elif case == "complex64":
        y, g = y.astype(np.complex64) * (1 + 0.5j), g.astype(np.complex64)
    elif case == "transposed g":
        g = np.ascontiguousarray(g.T).T
    elif case == "transposed y":
        y = np.ascontiguousarray(y.T).T
    elif case == "0-dim":
        y, g = y[0, 0, ...], g[0, 0, ...]
    elif case == "promoted":
        g = g.astype(np.float64)
    elif case == "broadcast":
        g = g[:1]
    return minigrad.from_numpy(g), minigrad.from_numpy(y)


DECLINED = ["float16", "bfloat16", "complex64", "transposed g", "transposed y", "0-dim", "promoted", "broadcast"]


@pytest.mark.parametrize("case", DECLINED)
def test_declined_cases_take_the_op(case, monkeypatch) -> None:
    g, y = _declined(case)
    expected = _in_a_pass(lambda: derivatives.tanh_backward(g, y))
    calls = _spy_op(monkeypatch)
    got = _in_a_pass(lambda: derivatives._tanh_grad(g, y))
    assert len(calls) == 1
    assert (got.dtype, got.shape, got.stride()) == (expected.dtype, expected.shape, expected.stride())
    assert got._data.tobytes() == expected._data.tobytes()


@pytest.mark.parametrize("case", ["float32", "float64", "transposed", "sliced", "float16", "bfloat16"])
def test_tanh_gradients_match_pytorch(case) -> None:
    dtype = {"float64": np.float64, "float16": np.float16}.get(case, np.float32)

    def run(lib):
        x = lib.from_numpy(_values((6, 5), dtype, 0))
        if case == "bfloat16":
            x = x.to(lib.bfloat16)
        x.requires_grad_()
        h = x.t() if case == "transposed" else x[::2] if case == "sliced" else x
        y = h.tanh()
        w = lib.from_numpy(_values(tuple(y.shape), np.float32, 1)).to(y.dtype)
        (y * w).sum().backward()  # (complex tanh: its values differ from PyTorch's before this round too)
        return _record(x.grad)

    expected, got = _both(run)
    assert got == expected


def test_create_graph_records_tanh_backward_as_pytorch() -> None:
    def run(lib):
        x = lib.from_numpy(_values((3, 4), np.float64, 0)).requires_grad_()
        (gx,) = lib.autograd.grad(x.tanh().sum(), x, create_graph=True)
        (ggx,) = lib.autograd.grad(gx.sum(), x)
        return gx.grad_fn.name(), _record(gx.detach()), _record(ggx)

    expected, got = _both(run)
    assert got == expected
    assert got[0] == "TanhBackwardBackward0"


def test_outside_a_pass_numpy_stays_quiet_and_the_users_state_is_kept(monkeypatch) -> None:
    calls = _spy_op(monkeypatch)
    y = minigrad.tensor(np.array([1.5e38, -3e35], np.float32))  # (1 - y² overflows float32: -inf)
    g = minigrad.tensor(np.array([3e38, -3e38], np.float32))
    with minigrad.no_grad(), np.errstate(all="raise"):
        r = derivatives._tanh_grad(g, y)
        assert np.geterr()["over"] == "raise"
    assert calls == []
    assert np.isinf(r._data).all()


def test_w4_style_mlp_gradients_match_pytorch() -> None:
    def run(lib):
        ps = [lib.from_numpy(_values(s, np.float32, i, 0.5)).requires_grad_()
              for i, s in enumerate([(2, 16), (16,), (16, 16), (16,), (16, 1), (1,)])]
        x = lib.from_numpy(_values((100, 2), np.float32, 9))
        t = lib.from_numpy(_values((100, 1), np.float32, 10))
        h = (x @ ps[0] + ps[1]).tanh()
        h = (h @ ps[2] + ps[3]).tanh()
        ((h @ ps[4] + ps[5] - t) ** 2).mean().backward()
        return [_record(p.grad) for p in ps]

    expected, got = _both(run)
    assert got == expected


def test_tanh_gradient_reaching_a_leaf_is_taken_without_a_copy(monkeypatch) -> None:
    from minigrad.autograd import graph
    seen = []
    accumulate = graph.AccumulateGrad._accumulate

    def spy(self, new, owned, grad_enabled):   # (the engine hands on its grad mode: round 33)
        seen.append(owned)
        return accumulate(self, new, owned, grad_enabled)

    monkeypatch.setattr(graph.AccumulateGrad, "_accumulate", spy)
    x = minigrad.tensor(_values((4, 3)), requires_grad=True)
    x.tanh().sum().backward()
    assert seen == [True]


# ---- MmBackward0 and MeanBackward0 fit -----------------------------------------------------------------------------

FIT_DTYPES = [np.float16, ml_dtypes.bfloat16, np.float32, np.float64, np.complex64, np.complex128]
SHAPED_CASES = {
    "mm": (lambda a, b: a.mm(b), (3, 5)),
    "matmul": (lambda a, b: a @ b, (3, 5)),
    "mm-transposed": (lambda a, b: b.t().mm(a.t()), (5, 3)),   # (column-major inputs: nn.Linear's W.t())
    "mean": (lambda a, b: a.mean(), ()),
    "mean-of-product": (lambda a, b: (a @ b).mean(), ()),
}


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
@pytest.mark.parametrize("name", list(SHAPED_CASES))
def test_mm_and_mean_need_no_fix_up(name, dtype) -> None:
    make, grad_shape = SHAPED_CASES[name]
    for create_graph in (False, True):
        a = minigrad.tensor(_values((3, 4), dtype, 0), requires_grad=True)
        b = minigrad.tensor(_values((4, 5), dtype, 1), requires_grad=True)
        y = make(a, b)
        assert y.grad_fn._grads_fit is True
        grad = minigrad.tensor(_values(grad_shape, dtype, 2), requires_grad=create_graph)
        _check_fits(y.grad_fn, grad, create_graph)


def test_mean_with_a_dtype_keeps_the_fix_up_and_matches_pytorch() -> None:
    x = minigrad.tensor(_values((3, 4)), requires_grad=True)
    assert x.mean(dtype=minigrad.float64).grad_fn._grads_fit is False
    assert x.mean(dtype=minigrad.float32).grad_fn._grads_fit is True

    def run(lib):
        x = lib.from_numpy(_values((3, 4), np.float32, 0)).requires_grad_()
        (x.mean(dtype=lib.float64) * 3).backward()
        return _record(x.grad)

    expected, got = _both(run)
    assert got == expected


def test_saved_tensor_hooks_keep_the_fix_up() -> None:
    """An unpack hook may return another dtype: the engine must still cast the gradient back (as PyTorch)."""
    def run(lib):
        x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        w = lib.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t.double()):
            y = x.mean()
            z = x.mm(w)  # (PyTorch's mm backward then refuses float64 times float32: not run here)
        if minigrad is lib:
            assert y.grad_fn._grads_fit is False and z.grad_fn._grads_fit is False
        y.backward()
        return str(x.grad.dtype), x.grad.tolist()

    expected, got = _both(run)
    assert got == expected


def test_a_gradient_edge_root_still_gets_the_fix_up() -> None:
    """A hand-made GradientEdge root with a gradient of another shape: every node is validated (grads_checked)."""
    def run(lib):
        a = lib.from_numpy(_values((3, 4), np.float32, 0)).requires_grad_()
        b = lib.from_numpy(_values((4, 2), np.float32, 1)).requires_grad_()
        y = a.mm(b).tanh().mean()
        edge = lib.autograd.graph.get_gradient_edge(y)
        lib.autograd.backward(edge, lib.tensor(2.0))
        return [_record(t.grad) for t in (a, b)]

    expected, got = _both(run)
    assert got == expected
