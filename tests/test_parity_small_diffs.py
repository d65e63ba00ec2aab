"""PyTorch parity for a few small differences: retains_grad after in-place view ops, detach_() on views, the
warning of float()/complex() on a tensor that requires grad, clamp with one tensor bound, the method form of
"invalid combination of arguments", digamma/trigamma/polygamma far left of zero, and half-precision
(log_)softmax bit for bit.

Most cases run the same code with ``T = minigrad`` and ``T = torch`` and compare what comes out: values bit
for bit (``tolist``), dtype, grad_fn names, ``_saved_*`` attributes, warnings, exception types and messages.
"""
from __future__ import annotations

import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import minigrad as mg
from tests.parity import torch_or_skip


def _describe(value) -> str:
    """dtype, shape, exact values, grad_fn and saved values of a tensor (or a tuple of them)."""
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(_describe(v) for v in value) + ")"
    if not hasattr(value, "grad_fn"):
        return repr(value)
    text = f"{value.dtype} {list(value.shape)} {value.detach().tolist()!r}"
    fn = value.grad_fn
    if fn is not None:
        saved = {}
        for name in sorted(a for a in dir(fn) if a.startswith("_saved_")):
            v = getattr(fn, name)
            saved[name] = f"{v.dtype} {v.tolist()!r} rg={v.requires_grad}" if hasattr(v, "grad_fn") else repr(v)
        edges = [(type(n).__name__ if n is not None else None, nr) for n, nr in fn.next_functions]
        text += f" {type(fn).__name__} {saved} {edges}"
    return text


def _run(T, setup: str, code: str) -> str:
    """What ``code`` (an expression, after ``setup``) gives with ``T`` as torch: description and warnings, or error."""
    scope = {"T": T}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(textwrap.dedent(setup), scope)
            text = _describe(eval(code, scope))
        except Exception as e:  # noqa: BLE001  (any exception must match PyTorch's)
            text = f"{type(e).__name__}: {e}"
    return text + "".join(f" [{w.category.__name__}: {w.message}]" for w in caught)


def assert_same(setup: str, code: str) -> str:
    torch = torch_or_skip()
    mine = _run(mg, setup, code)
    assert mine == _run(torch, setup, code)
    return mine


# =============================================================================================
# (a) retains_grad survives in-place view ops (t_, transpose_, unsqueeze_ ...) and grad_fn changes
# =============================================================================================

_INPLACE_VIEWS = {
    "t_": ("(2, 3)", "b.t_()"),
    "transpose_": ("(2, 3)", "b.transpose_(0, 1)"),
    "swapdims_": ("(2, 3)", "b.swapdims_(0, 1)"),
    "swapaxes_": ("(2, 3)", "b.swapaxes_(1, 0)"),
    "unsqueeze_": ("(2, 3)", "b.unsqueeze_(0)"),
    "squeeze_": ("(1, 3)", "b.squeeze_(0)"),
    "squeeze_all": ("(1, 3)", "b.squeeze_()"),
    "as_strided_": ("(2, 3)", "b.as_strided_((3, 2), (1, 3))"),
}


@pytest.mark.parametrize("name", list(_INPLACE_VIEWS))
def test_retains_grad_after_inplace_view_op(name):
    shape, op = _INPLACE_VIEWS[name]
    setup = f"""
    a = T.ones{shape}.cumsum(-1).requires_grad_()
    b = a * 2
    b.retain_grad()
    {op}
    w = T.arange(b.numel(), dtype=T.float32).reshape(b.shape)
    (b * w).sum().backward()
    """
    # PyTorch keeps the flag; the retain_grad hook stays with the node it was registered on (old shape).
    assert assert_same(setup, "(b.retains_grad, b.is_leaf, b.grad_fn.name(), b.grad, a.grad)").startswith("(True")


def test_retain_grad_again_after_inplace_view_op_is_a_no_op():
    setup = """
    a = T.arange(6.).reshape(2, 3).requires_grad_()
    b = a * 2
    b.retain_grad()
    b.t_()
    b.retain_grad()
    y = (b * T.arange(6.).reshape(3, 2)).sum()
    y.backward(retain_graph=True)
    y.backward()
    """
    assert_same(setup, "(b.retains_grad, b.grad, a.grad)")


def test_retains_grad_moves_to_the_new_grad_fn_of_a_view():
    setup = """
    a = T.ones(2, 3, requires_grad=True)
    b = a * 2
    v = b[0]
    v.retain_grad()
    v.mul_(3)
    u = b[1]
    u.retain_grad()
    b.mul_(5)
    (v * T.arange(3.)).sum().backward(retain_graph=True)
    (u * T.arange(3.)).sum().backward()
    """
    mine = assert_same(setup, "(v.retains_grad, u.retains_grad, v.grad_fn.name(), v.grad, u.grad, a.grad)")
    assert mine.startswith("(True, True, 'AsStridedBackward0'")


def test_retains_grad_of_a_base_follows_copy_slices_and_old_graphs_stop_filling_grad():
    setup = """
    a = T.ones(2, 3, requires_grad=True)
    b = a * 2
    b.retain_grad()
    b[0].mul_(3)
    (b * T.arange(6.).reshape(2, 3)).sum().backward()
    c = T.ones(3, requires_grad=True)
    d = c * 2
    v = d[:2]
    v.retain_grad()
    y = v * 5
    v.mul_(3)
    y.sum().backward()
    """
    assert_same(setup, "(b.retains_grad, b.grad_fn.name(), b.grad, a.grad, v.retains_grad, v.grad, c.grad)")


def test_retains_grad_through_inplace_op_after_view_op_on_a_view():
    setup = """
    a = T.ones(2, 3, requires_grad=True)
    b = a * 2
    v = b[0]
    v.retain_grad()
    v.unsqueeze_(0)
    (v * 2).sum().backward()
    """
    assert_same(setup, "(v.retains_grad, v.grad_fn.name(), v.grad)")


def test_retains_grad_after_plain_inplace_then_view_op():
    setup = """
    a = T.arange(6.).reshape(2, 3).requires_grad_()
    b = a * 2
    b.retain_grad()
    b.mul_(2)
    b.t_()
    (b * T.arange(6.).reshape(3, 2)).sum().backward()
    """
    assert_same(setup, "(b.retains_grad, b.grad, a.grad)")


def test_retains_grad_stays_true_after_detach_():
    setup = """
    a = T.ones(3, requires_grad=True)
    b = a * 2
    b.retain_grad()
    b.detach_()
    """
    assert assert_same(setup, "(b.retains_grad, b.is_leaf, b.requires_grad)") == "(True, True, False)"


def test_retains_grad_follows_a_custom_function_that_marks_its_input_dirty():
    setup = """
    class Double(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    a = T.ones(3, requires_grad=True)
    b = a * 1
    b.retain_grad()
    c = Double.apply(b)
    (b * T.arange(3.)).sum().backward()
    """
    assert_same(setup, "(c is b, b.retains_grad, b.grad_fn.name(), b.grad, a.grad)")


# =============================================================================================
# (b) detach_() refuses every view, as PyTorch does
# =============================================================================================

_VIEWS = {
    "index of a plain tensor": "x = T.ones(2, 3); v = x[0]",
    "view() of a plain tensor": "x = T.ones(2, 3); v = x.view(6)",
    "unbind of a plain tensor": "x = T.ones(2, 3); v = x.unbind(0)[0]",
    "split of a plain tensor": "x = T.ones(4, 3); v = x.split(2)[0]",
    "view of a leaf": "x = T.ones(2, 3, requires_grad=True); v = x[0]",
    "view of a non-leaf": "x = T.ones(2, 3, requires_grad=True) * 2; v = x[0]",
    "view of detach()": "x = T.ones(2, 3, requires_grad=True); v = x.detach()[0]",
    "view of .data": "x = T.ones(2, 3, requires_grad=True); v = x.data[0]",
    "no_grad view": "x = T.ones(2, 3, requires_grad=True)\nwith T.no_grad():\n    v = x[0]",
    "no_grad view of a plain tensor": "x = T.ones(2, 3)\nwith T.no_grad():\n    v = x.t()",
    "view that requires grad itself": "x = T.ones(2, 3); v = x[0]; v.requires_grad_()",
    "inference view": "x = T.ones(2, 3, requires_grad=True)\nwith T.inference_mode():\n    v = x[0]",
}


@pytest.mark.parametrize("name", list(_VIEWS))
def test_detach_inplace_refuses_views(name):
    mine = assert_same(_VIEWS[name], "(v._is_view(), v.detach_())")
    assert mine.startswith("RuntimeError: Can't detach views in-place. Use detach() instead.")


def test_detach_inplace_of_a_detached_tensor_works():
    setup = "x = T.ones(2, 3, requires_grad=True) * 2; d = x.detach(); d.detach_(); x.detach_()"
    assert assert_same(setup, "(d._is_view(), d.requires_grad, x.requires_grad, x.is_leaf)") == \
        "(False, False, False, True)"


# =============================================================================================
# (c) float()/complex() on a tensor that requires grad: a UserWarning, once per process
# =============================================================================================

_SHOW = """
import warnings
warnings.simplefilter("always")
warnings.showwarning = lambda m, c, f, n, *a: print("WARN", c.__name__, repr(str(m)), f.split("/")[-1], n)
"""
_WARNING_PROGRAMS = [
    _SHOW + """
x = torch.tensor(1.5, requires_grad=True)
n = torch.tensor(2.5)
print(int(x), x.item(), bool(x), x.tolist(), f"{x:.1f}", int(x * 2), complex(n), float(n))
with torch.no_grad():
    print(float(x), complex(x))
with torch.inference_mode():
    print(float(x))
try:
    float(torch.ones(2, requires_grad=True))
except ValueError as e:
    print("ValueError", e)
print(float(x), complex(x), float(x * 2))
""",
    _SHOW + "x = torch.tensor([0.5], requires_grad=True)\nprint(complex(x), float(x), '%.2f' % x)\n",
    _SHOW + "x = torch.ones(1, requires_grad=True) * 3\nprint(torch.tensor([x[0], x[0]]), torch.tensor([[x[0]]]))\n",
]


def _run_program(program: str, module: str) -> str:
    """stdout (and stderr) of ``program`` run in a fresh interpreter with ``module`` imported as torch."""
    prelude = f"import sys, {module}\nsys.modules['torch'] = {module}\ntorch = {module}\n"
    done = subprocess.run([sys.executable, "-c", prelude + program], capture_output=True, text=True,
                          timeout=120, check=False)
    return done.stdout + done.stderr


@pytest.mark.parametrize("program", _WARNING_PROGRAMS)
def test_scalar_conversion_warning_matches_torch(program):
    torch_or_skip()
    mine = _run_program(program, "minigrad")
    assert mine == _run_program(program, "torch")
    assert mine.count("WARN UserWarning 'Converting a tensor with requires_grad=True to a scalar") == 1


def test_scalar_conversion_warning_points_at_the_caller():
    from minigrad import _warn_once
    x = mg.tensor(1.5, requires_grad=True)
    _warn_once._WARNED.discard("scalar conversion")
    try:
        with pytest.warns(UserWarning, match="Consider using tensor.detach") as record:
            float(x)
        assert record[0].filename == __file__
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert float(x) == 1.5  # (once per process, as PyTorch's TORCH_WARN_ONCE)
    finally:
        _warn_once._WARNED.add("scalar conversion")


# =============================================================================================
# (d) clamp with one tensor bound; clamp_min / clamp_max with a tensor (ClampMin/MaxBackward1)
# =============================================================================================

CLAMP_SETUP = """
x = T.tensor([-2., 0.5, 3., float('nan'), 1.], requires_grad=True)
t = T.tensor([0., 1., 1., 0., 1.], requires_grad=True)
c = T.tensor([0., 1., 1., 0., 1.])
m = T.ones(2, 5, requires_grad=True)
x64 = T.tensor([-2., 0.5, 3.], dtype=T.float64)
i = T.tensor([-2, 1, 3])
"""
CLAMP_CASES = [
    "T.clamp(x, min=t)", "T.clamp(x, max=t)", "T.clamp(x, t, t + 1)", "T.clamp(x, None, t)", "T.clip(x, min=t)",
    "T.clamp(x, min=c)", "T.clamp(x, max=t[1])", "x.clamp(min=t)", "x.clip(max=t)",
    "T.clamp_min(x, t)", "T.clamp_max(x, t)", "x.clamp_min(t)", "x.clamp_max(t)", "T.clamp_min(x, c)",
    "T.clamp_max(x, t[1])", "T.clamp_min(m, t)", "T.clamp_max(t, m)", "T.clamp_min(x, 1.0)", "T.clamp_max(x, 1.0)",
    "x.clone().clamp_(min=t)", "x.clone().clamp_(max=t)", "x.clone().clamp_min_(t)", "x.clone().clamp_max_(t)",
    "x.clone().clip_(min=t)", "T.maximum(x, t)", "T.minimum(x, t)", "T.max(x, t)", "T.min(x, t)",
    "T.clamp_min(x64, c)", "T.clamp_max(c, x64[:1])", "T.clamp_min(i, c)", "T.clamp_min(i, i.flip(0))",
    "i.clone().clamp_min_(x64)", "c.clone().clamp_min_(x64[0])", "T.clamp_min(T.tensor([True, False]), "
    "T.tensor([False, True]))", "T.clamp(T.tensor([True, False]), min=T.tensor([False, True]))",
    "T.clamp_min(T.tensor([1+1j]), T.tensor([1+1j]))", "T.clamp_max(c, T.tensor([1j]))",
]


@pytest.mark.parametrize("code", CLAMP_CASES)
def test_clamp_with_tensor_bounds_matches_torch(code):
    assert_same(CLAMP_SETUP, code)


@pytest.mark.parametrize("code", [c for c in CLAMP_CASES if "T.tensor([" not in c and "i" not in c.split("(")[1][:2]
                                  and "64" not in c and "i.clone" not in c])
def test_clamp_with_tensor_bounds_gradients_match_torch(code):
    setup = CLAMP_SETUP + f"\nout = {code}\nws = T.arange(out.numel(), dtype=out.dtype).reshape(out.shape)\n" \
        "gs = T.autograd.grad((out * ws).sum(), [x, t, m], allow_unused=True, create_graph=True)\n" \
        "ggs = [T.autograd.grad(g.sum(), [x, t, m], allow_unused=True) if g is not None and g.requires_grad " \
        "else None for g in gs]"
    assert_same(setup, "(gs, [g.grad_fn.name() if g is not None and g.grad_fn else None for g in gs], ggs)")


def _clamp_tangents(T) -> str:
    import importlib
    fw = importlib.import_module(T.__name__ + ".autograd.forward_ad")
    with fw.dual_level():
        x = fw.make_dual(T.tensor([-2., 0.5, 3., 1., 1.]), T.ones(5))
        t = fw.make_dual(T.tensor([0., 1., 1., 1., 2.]), T.full((5,), 2.))
        u = fw.make_dual(T.tensor([1., 2., 0., 1., 2.]), T.full((5,), 3.))
        outs = (T.clamp_min(x, t), T.clamp_max(x, t), T.clamp(x, min=t), T.clamp(x, max=t), T.clamp(x, t, u))
        return repr([fw.unpack_dual(o).tangent.tolist() for o in outs])


def test_clamp_tensor_forward_mode_matches_torch():
    torch = torch_or_skip()
    assert _clamp_tangents(mg) == _clamp_tangents(torch)


# =============================================================================================
# (e) "invalid combination of arguments": the method form lists the overloads without self and out=
# =============================================================================================

ARG_SETUP = "import numpy as np; x = T.ones(2, 3); t = T.ones(3)"
METHOD_FORM_CASES = [
    "x.sum(keepdim=True)", "T.sum(x, keepdim=True)", "x.mean(keepdim=True)", "x.prod(dim=None)", "x.prod(dim=[0])",
    "x.prod(keepdim=True)", "T.prod(x, dim=None)", "x.max(dim=None)", "x.max(keepdim=True)", "x.min(dim=None)",
    "x.min(keepdim=True)", "T.max(x, dim=None)",
    "x.clamp(min=t, max=1.0)", "x.clamp_(min=t, max=1.0)", "x.clip(min=t, max=1.0)", "x.clip_(min=t, max=1.0)",
    "T.clamp(x, min=t, max=1.0)", "T.clip(x, min=t, max=1.0)", "T.clamp(1.0, min=0)",
    "x.eq('a')", "x.ne(None)", "x.lt(None)", "x.le([1])", "x.gt('a')", "x.ge(None)", "T.eq(x, 'a')",
    "x.sort(dim=None)", "x.argsort(dim=None)", "T.sort(x, dim=None)",
    "x.clamp_min('a')", "T.clamp_min(x, 'a')", "x.clamp_max_(None)", "T.clamp(x, min='a')", "x.clamp(max=[1])",
    "T.clamp(x, min=np.array(0.5))", "x.clamp(max=np.ones(1))", "x.le(np.ones(1))", "T.sum(np.ones(1))",
]


@pytest.mark.parametrize("code", METHOD_FORM_CASES)
def test_invalid_combination_method_form_matches_torch(code):
    assert assert_same(ARG_SETUP, code).startswith("TypeError: ")


def test_method_form_drops_number_first_overloads():
    from minigrad import _arg_errors
    error = _arg_errors.invalid_combination("remainder", (mg.ones(1), "a"), {}, _arg_errors.OVERLOADS["remainder"])
    assert str(_arg_errors.for_method(error, "remainder")) == (
        "remainder() received an invalid combination of arguments - got (str), but expected one of:\n"
        " * (Tensor other)\n      didn't match because some of the arguments have invalid types: (!str!)\n"
        " * (Number other)\n      didn't match because some of the arguments have invalid types: (!str!)\n")


# =============================================================================================
# (f) digamma, trigamma, polygamma: PyTorch's algorithms (reflection on the left), bit for bit
# =============================================================================================

def _gamma_points(dtype) -> np.ndarray:
    rng = np.random.default_rng(0)
    pts = [0.0, -0.0, 0.5, 1.0, 1e-30, -1e-30, 2.5, 9.999, 10.0, 10.5, 1e5, 1e17, 3e38, -0.5, -1.0, -1.5, -2.25,
           -9.75, -20.25, -9999.75, -1e5 - 0.5, -1e5 - 0.25, -123456.75, -1e6 - 0.25, -4194304.5, -8388607.5,
           -1e7 - 0.5, -1e30, -2.0 ** 60, float("inf"), float("-inf"), float("nan")]
    pts += list(rng.uniform(-30, 30, 200)) + list(-(10 ** rng.uniform(0, 7, 100)))
    if dtype == np.float64:
        pts += [-1e12 - 0.5, -2.0 ** 52 - 0.5 + 1, 1e300]
    return np.array(pts, dtype=dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [0, 1])
def test_digamma_trigamma_match_torch_bit_for_bit(dtype, n):
    torch = torch_or_skip()
    x = _gamma_points(np.dtype(dtype))
    mine = mg.polygamma(n, mg.tensor(x)).numpy()
    theirs = torch.polygamma(n, torch.tensor(x)).numpy()
    np.testing.assert_array_equal(mine, theirs)
    if n == 0:
        np.testing.assert_array_equal(mg.digamma(mg.tensor(x)).numpy(), torch.digamma(torch.tensor(x)).numpy())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [2, 3, 4, 7])
def test_polygamma_matches_torch_bit_for_bit(dtype, n):
    torch = torch_or_skip()
    x = _gamma_points(np.dtype(dtype))
    x = x[~(x < -2e5)]  # (the series takes ~|x| steps there: one such value below)
    mine = mg.polygamma(n, mg.tensor(x)).numpy()
    theirs = torch.polygamma(n, torch.tensor(x)).numpy()
    np.testing.assert_array_equal(mine, theirs)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_polygamma_series_a_million_steps_left_matches_torch(dtype):
    torch = torch_or_skip()
    x = np.array([-1e6 - 0.25, -262144.5], dtype=dtype)
    np.testing.assert_array_equal(mg.polygamma(2, mg.tensor(x)).numpy(), torch.polygamma(2, torch.tensor(x)).numpy())


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_polygamma_half_precision_matches_torch(dtype, n):
    torch = torch_or_skip()
    x = np.array([0.5, 1.0, 2.5, 9.75, 10.0, 40.0, -0.5, -1.5, -2.25, -9.75, -100.5, 0.0, -3.0], dtype=np.float32)
    mine = mg.polygamma(n, mg.tensor(x).to(getattr(mg, dtype))).to(mg.float32).numpy()
    theirs = torch.polygamma(n, torch.tensor(x).to(getattr(torch, dtype))).float().numpy()
    np.testing.assert_array_equal(mine, theirs)


def test_digamma_gradient_far_left_is_finite_like_torch():
    torch = torch_or_skip()
    for value in (-1e5 - 0.5, -1e7 - 0.5, -123456.75):
        x = mg.tensor(value, dtype=mg.float64, requires_grad=True)
        mg.digamma(x).backward()
        y = torch.tensor(value, dtype=torch.float64, requires_grad=True)
        torch.digamma(y).backward()
        assert x.grad.item() == y.grad.item()


# =============================================================================================
# (g) float16/bfloat16 log_softmax and softmax: PyTorch's float32 steps and roundings, bit for bit
# =============================================================================================

_SOFTMAX_SHAPES = [((4, 7), 1), ((3, 33), -1), ((16, 128), 1), ((5, 300), 1), ((1000,), 0), ((7,), 0),
                   ((2, 5, 9), 1), ((2, 3, 40), 0), ((40, 3), 0), ((8, 17, 5), 1), ((6, 4, 1), 1), ((), 0)]


@pytest.mark.parametrize("fn", ["log_softmax", "softmax"])
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("shape,dim", _SOFTMAX_SHAPES)
def test_half_precision_softmax_bit_for_bit(fn, dtype, shape, dim):
    # (PyTorch's softmax over another dim than the last rounds differently where its threads split the
    # columns: minigrad follows its own thread count, set to one here as PyTorch's. The float32 exp and log
    # are NumPy's, which differ from PyTorch's vectorized ones in the last float32 bit now and then: rarely
    # visible after rounding.)
    torch = torch_or_skip()
    rng = np.random.default_rng(abs(hash((shape, dim))) % 2**32)
    threads, mg_threads = torch.get_num_threads(), mg.get_num_threads()
    torch.set_num_threads(1)
    mg.set_num_threads(1)
    try:
        for scale in (1.0, 10.0, 100.0):
            x = torch.tensor(rng.standard_normal(shape).astype(np.float32) * scale).to(getattr(torch, dtype))
            theirs = getattr(torch, fn)(x, dim)
            mine = getattr(mg, fn)(mg.tensor(x.float().numpy()).to(getattr(mg, dtype)), dim)
            assert str(mine.dtype) == str(theirs.dtype)
            np.testing.assert_array_equal(mine.to(mg.float32).numpy(), theirs.float().numpy())
    finally:
        torch.set_num_threads(threads)
        mg.set_num_threads(mg_threads)


def test_bfloat16_log_softmax_rounds_the_sum_and_its_log_over_the_last_dim():
    # Σ e^(x - max) and its log are rounded to bfloat16 first (PyTorch's kernel keeps them in the input's
    # dtype): -0.2421875 here, where float32 all the way and one rounding would give -0.240234375.
    x = mg.tensor([[1.3984375, 5.1875, 3.796875, -2.796875, -5.09375]]).to(mg.bfloat16)
    assert mg.log_softmax(x, 1).tolist() == [[-4.03125, -0.2421875, -1.6328125, -8.25, -10.5]]
    assert mg.log_softmax(x.to(mg.float32), 1).to(mg.bfloat16).tolist()[0][1] == -0.240234375
