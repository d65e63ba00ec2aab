"""The fast paths of the user-facing wrappers in ``_ops.py`` must not change anything PyTorch shows.

Fast paths covered (each skips work the general path would do for the common case):
- ``_binary``: two tensors of one float dtype for add/sub/mul/div run with no cast (``dtype=None``);
- ``add`` / ``mul`` with a Python float on a float tensor go straight to ``Op.run_number`` (not float16
  mul/div nor complex add/sub, which PyTorch computes unlike NumPy: ``_dispatch._pytorch_operands``);
- ``_unary`` (tanh, exp, sigmoid ...): a float/complex tensor keeps its dtype;
- ``pow`` with a Python int/float exponent on a float tensor skips ``result_type``;
- ``mean()`` of a float tensor (no ``dim``, no ``dtype``); ``relu``; ``mm``;
- ``matmul`` of two matrices of one dtype goes straight to the mm op.
Each is compared with PyTorch on both sides of its conditions: dtypes, values (bit for bit where NumPy and
PyTorch compute the same way), grad_fn names, ``_saved_*`` values, gradients and error messages.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import minigrad as mg
from tests.parity import torch_or_skip

FLOATS = ["float16", "bfloat16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]


def _np(t) -> np.ndarray:
    """A minigrad or torch tensor's values as NumPy (bfloat16 through float32, which holds it exactly)."""
    if not isinstance(t, mg.Tensor):  # torch
        torch = torch_or_skip()
        t = t.detach()
        return (t.float() if t.dtype == torch.bfloat16 else t).numpy()
    a = t.detach()._data
    return a.astype(np.float32) if a.dtype.name == "bfloat16" else a


def _bits_equal(a, b) -> None:
    """Same dtype name and the same bits (nan payloads aside: every nan is the same nan here)."""
    x, y = _np(a), _np(b)
    assert x.shape == y.shape and x.dtype == y.dtype, (x.dtype, y.dtype, x.shape, y.shape)
    if x.dtype.kind == "c":  # compare the real and imaginary parts as floats
        x, y = x.reshape(-1).view(x.real.dtype), y.reshape(-1).view(y.real.dtype)
    if x.dtype.kind == "f":
        both_nan = np.isnan(x) & np.isnan(y)
        x, y = np.where(both_nan, 0, x).astype(x.dtype), np.where(both_nan, 0, y).astype(y.dtype)
    assert np.array_equal(x.reshape(-1).view(np.uint8), y.reshape(-1).view(np.uint8)), (a, b)


def _close(a, b, rtol=1e-5, atol=1e-6) -> None:
    """Same values within tolerance (nan where the other has nan); bfloat16 welcome, unlike parity.assert_close."""
    x, y = _np(a), _np(b)
    wide = np.complex128 if x.dtype.kind == "c" or y.dtype.kind == "c" else np.float64
    np.testing.assert_allclose(x.astype(wide), y.astype(wide), rtol=rtol, atol=atol, equal_nan=True)


def _pair(values, dtype: str, requires_grad=False):
    """The same data as a minigrad and a torch tensor."""
    torch = torch_or_skip()
    t = torch.tensor(values, dtype=getattr(torch, dtype), requires_grad=requires_grad)
    m = mg.tensor(values, dtype=getattr(mg, dtype), requires_grad=requires_grad)
    return m, t


def _dtype_name(t) -> str:
    return str(t.dtype).replace("torch.", "")


def _same_error(f_mg, f_torch):
    """Both raise the same exception type and message, or neither raises; returns the two results."""
    results, errors = [], []
    for f in (f_mg, f_torch):
        try:
            results.append(f())
            errors.append(None)
        except Exception as e:  # noqa: BLE001 - the point is comparing whatever is raised
            results.append(None)
            errors.append((type(e).__name__, str(e)))
    assert errors[0] == errors[1]
    return results


# Values with the cases a fast path could get wrong: signed zeros, inf, nan, subnormal-ish, large.
SPECIAL = [0.0, -0.0, 1.5, -2.25, 3.0e4, -7.0e-3, float("inf"), float("-inf"), float("nan"), 0.1]


# =============================================================================================
# _binary: two tensors of one float dtype (dtype=None); the general path for every other pair
# =============================================================================================

@pytest.mark.parametrize("dtype", FLOATS + COMPLEX)
@pytest.mark.parametrize("op", ["add", "sub", "mul", "div"])
@pytest.mark.parametrize("shapes", [((10,), (10,)), ((2, 10), (10,)), ((10,), ()), ((), (10,)), ((), ())])
def test_same_dtype_binary_matches_torch(op, dtype, shapes):
    torch = torch_or_skip()
    rng = np.random.default_rng(0)
    sa, sb = shapes
    a = np.resize(np.array(SPECIAL), sa) if sa else np.array(1.75)
    b = np.resize(rng.standard_normal(10), sb) if sb else np.array(-0.5)
    if dtype in COMPLEX:
        a, b = a + 0.5j, b - 1.25j
    ma, ta = _pair(a.tolist(), dtype, requires_grad=True)
    mb, tb = _pair(b.tolist(), dtype, requires_grad=True)
    m, t = getattr(mg, op)(ma, mb), getattr(torch, op)(ta, tb)
    assert _dtype_name(m) == _dtype_name(t)
    assert type(m.grad_fn).__name__ == type(t.grad_fn).__name__
    if dtype in COMPLEX and op in ("mul", "div"):  # complex products: NumPy and PyTorch round differently
        _close(m, t, rtol=1e-5 if dtype == "complex64" else 1e-12, atol=0)
    else:
        _bits_equal(m, t)
    if op in ("add", "sub"):
        assert m.grad_fn._saved_alpha == t.grad_fn._saved_alpha == 1
    g = np.resize(rng.standard_normal(20), m.shape) if m.dim() else np.array(0.75)
    mg_, tg = _pair(g.tolist(), dtype)
    m.backward(mg_)
    t.backward(tg)
    for x, y in ((ma, ta), (mb, tb)):
        assert x.grad.dtype is getattr(mg, _dtype_name(y.grad))
        _close(x.grad, y.grad, rtol=2e-2 if dtype in ("float16", "bfloat16") else 1e-5)


# One operand of each kind PyTorch's promotion tells apart: dims > 0, 0-dim, Python number; each category.
OPERANDS = {
    "f32": ("float32", [1.5, -2.0, 0.25]), "f64": ("float64", [0.5, 3.0, -1.0]),
    "f16": ("float16", [2.0, -0.5, 1.0]), "bf16": ("bfloat16", [1.0, 2.0, -3.0]),
    "c64": ("complex64", [1 + 1j, 2, -1j]), "i64": ("int64", [3, -2, 7]), "i32": ("int32", [1, 4, -5]),
    "u8": ("uint8", [1, 2, 3]), "i8": ("int8", [-1, 2, 5]), "b": ("bool", [True, False, True]),
    "f64_0d": ("float64", 2.5), "f32_0d": ("float32", -1.5), "i64_0d": ("int64", 4), "b_0d": ("bool", True),
    "c128_0d": ("complex128", 1 - 2j),
}
NUMBERS = {"float": 1.25, "int": 3, "bool": True, "complex": 2 + 1j, "big_int": 2**60}


def _known_divergence(op, x, y) -> bool:
    """Pairs that cannot match: PyTorch's complex32 (ComplexHalf); minigrad has no such dtype (complex64)."""
    keys = (x, y)
    return bool({"f16", "bf16"} & set(keys) and ({"complex", "c128_0d", "c64"} & set(keys)))


def _operand(key):
    torch = torch_or_skip()
    if key in NUMBERS:
        return NUMBERS[key], NUMBERS[key]
    dtype, values = OPERANDS[key]
    return mg.tensor(values, dtype=getattr(mg, dtype)), torch.tensor(values, dtype=getattr(torch, dtype))


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div"])
@pytest.mark.parametrize("left", list(OPERANDS))
def test_promotion_through_the_binary_wrappers_matches_torch(op, left):
    # Every pair of operand kinds, with the number on either side (also first in the function form, where
    # it is a wrapped number too): dtype, values and errors (bool in sub) as PyTorch's.
    for right in [*OPERANDS, *NUMBERS]:
        (ma, ta), (mb, tb) = _operand(left), _operand(right)
        for swap in (False, True):
            if swap and right not in NUMBERS:
                continue
            (mx, my), (tx, ty) = ((mb, ma), (tb, ta)) if swap else ((ma, mb), (ta, tb))
            if _known_divergence(op, *((right, left) if swap else (left, right))):
                continue
            m, t = _same_error(lambda mx=mx, my=my: getattr(mg, op)(mx, my),
                               lambda tx=tx, ty=ty: getattr(torch_or_skip(), op)(tx, ty))
            if t is None:
                continue
            assert _dtype_name(m) == _dtype_name(t), (op, left, right, swap)
            if t.dtype.is_floating_point or t.dtype.is_complex:
                _close(m, t, rtol=1e-2 if "16" in _dtype_name(t) else 1e-6)
            else:
                np.testing.assert_array_equal(_np(m), _np(t))


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div"])
def test_binary_operators_and_in_place_forms_match_torch(op):
    torch = torch_or_skip()
    sym = {"add": "+", "sub": "-", "mul": "*", "div": "/"}[op]
    ma, ta = _pair([[1.5, -2.0], [0.25, 4.0]], "float32", requires_grad=True)
    mb, tb = _pair([2.0, -0.5], "float32")
    m, t = eval(f"ma {sym} mb"), eval(f"ta {sym} tb")
    _bits_equal(m, t)
    assert type(m.grad_fn).__name__ == type(t.grad_fn).__name__
    # In place outside autograd: still written into the tensor's own array (the _run_into path).
    mc, tc = _pair([[1.0, 2.0], [3.0, 4.0]], "float32")
    before = mc._data
    with mg.no_grad():
        getattr(mc, op + "_")(mb)
    getattr(tc, op + "_")(tb)
    assert mc._data is before
    _bits_equal(mc, tc)
    # out=: not a fast path; same values, same dtype rules.
    mo, to = _pair([[0.0, 0.0], [0.0, 0.0]], "float64")
    getattr(mg, op)(mc, mb, out=mo)
    getattr(torch, op)(tc, tb, out=to)
    _bits_equal(mo, to)


def test_alpha_other_than_one_and_bool_subtraction_match_torch():
    torch = torch_or_skip()
    ma, ta = _pair([1.5, -2.0, 0.1], "float32", requires_grad=True)
    mb, tb = _pair([2.0, -0.5, 0.3], "float32", requires_grad=True)
    for alpha in (2, 0.5, -1):
        m, t = mg.add(ma, mb, alpha=alpha), torch.add(ta, tb, alpha=alpha)
        _bits_equal(m, t)
        assert m.grad_fn._saved_alpha == t.grad_fn._saved_alpha
        m, t = mg.sub(ma, 1.5, alpha=alpha), torch.sub(ta, 1.5, alpha=alpha)
        _bits_equal(m, t)
    mbool, tbool = _pair([True, False], "bool")
    _same_error(lambda: mbool - mbool, lambda: tbool - tbool)
    m, t = _same_error(lambda: mbool + mbool, lambda: tbool + tbool)
    np.testing.assert_array_equal(_np(m), _np(t))


def test_binary_fast_path_is_only_for_the_dtype_keeping_ufunc_ops(monkeypatch):
    # A table op whose forward widens the dtype still gets its result cast back (dtype is passed), and
    # an in-place op outside autograd still writes straight into its tensor (Op._run_into needs dtype).
    from minigrad import _ops
    from minigrad import derivatives as D
    from minigrad._dispatch import Op
    widen = Op("widen", "WidenBackward0", lambda a, b: (a + b).astype(np.float64), inputs=("self", "other"))
    a, b = mg.tensor([1.5, 2.0]), mg.tensor([0.25, 1.0])
    assert _ops._binary(widen, a, b).dtype is mg.float32
    calls = []
    run_into = Op._run_into
    monkeypatch.setattr(Op, "_run_into", lambda op, *args: calls.append(op is D.sub) or run_into(op, *args))
    with mg.no_grad():
        a.sub_(b)
    assert calls == [True]
    np.testing.assert_array_equal(a.numpy(), np.array([1.25, 1.0], np.float32))


@pytest.mark.parametrize("sizes", [((3,), (4,)), ((2, 3), (3, 2)), ((5, 1, 3), (4, 2))])
def test_broadcast_errors_on_the_fast_path_are_pytorchs(sizes):
    torch = torch_or_skip()
    ma, ta = _pair(np.ones(sizes[0]).tolist(), "float32", requires_grad=True)
    mb, tb = _pair(np.ones(sizes[1]).tolist(), "float32")
    for op in ("add", "sub", "mul", "div"):
        _same_error(lambda op=op: getattr(mg, op)(ma, mb), lambda op=op: getattr(torch, op)(ta, tb))


# =============================================================================================
# add / mul with a Python float (Op.run_number, straight from the wrapper)
# =============================================================================================

@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("number", [1.0001, 0.001, -0.0, 0.5, 2.0, 1e-30, 3.0e38, float("inf"), float("nan")])
def test_float_number_fast_path_is_bitwise_torch(dtype, number):
    # (float16 mul and complex add take the general path, which computes as PyTorch does: see the tests of
    # _pytorch_operands below; the results and nodes are the same.)
    torch_or_skip()
    values = [v + 0.5j for v in SPECIAL] if dtype in COMPLEX else SPECIAL
    mx, tx = _pair(values, dtype, requires_grad=True)
    for f in (lambda x: x * number, lambda x: number * x, lambda x: x + number, lambda x: number + x,
              lambda x: x.mul(number), lambda x: x.add(number)):
        m, t = f(mx), f(tx)
        _bits_equal(m, t)
        assert type(m.grad_fn).__name__ == type(t.grad_fn).__name__
        if type(t.grad_fn).__name__ == "AddBackward0":
            assert m.grad_fn._saved_alpha == t.grad_fn._saved_alpha == 1
        else:
            assert m.grad_fn._saved_self is t.grad_fn._saved_self is None  # nothing needs x itself
            _bits_equal(m.grad_fn._saved_other, t.grad_fn._saved_other)    # the number, 0-dim float64/complex
        mg_, tg = _pair([1.0] * len(values), dtype)
        mx.grad = tx.grad = None
        m.backward(mg_)
        t.backward(tg)
        _bits_equal(mx.grad, tx.grad)


def test_number_cases_off_the_fast_path_match_torch():
    torch = torch_or_skip()
    cases = [("int64", [1, -2, 3]), ("bool", [True, False, True]), ("bfloat16", [1.5, -2.0, 0.25]),
             ("float32", [1.5, -2.0, 0.25])]
    for dtype, values in cases:
        mx, tx = _pair(values, dtype)
        for number in (1.5, 2, True, 2 + 1j, 2**60):
            for f in (lambda x, n=number: x * n, lambda x, n=number: x + n,
                      lambda x, n=number: (mg if isinstance(x, mg.Tensor) else torch).add(x, n, alpha=2)):
                m, t = _same_error(lambda f=f, x=mx: f(x), lambda f=f, x=tx: f(x))
                if t is not None:
                    assert _dtype_name(m) == _dtype_name(t), (dtype, number)
                    _close(m, t, rtol=1e-2 if dtype == "bfloat16" else 1e-6)


def _fast_path_program(x, W):
    """One op through each fast path: matmul, mul/add by a float, tanh, ** 2, sub, relu, mean."""
    return (((x.matmul(W) * 1.5 + 0.25).tanh() ** 2 - x).relu() * x).mean()


def test_forward_ad_and_profiler_still_see_the_fast_path_ops():
    # The fast paths step aside while forward-mode AD or the profiler is on: tangents come out right,
    # the profiler records every op, and the values do not change.
    torch = torch_or_skip()
    import torch.autograd.forward_ad as tfwAD

    import minigrad.autograd.forward_ad as mfwAD
    from minigrad.autograd import profiler
    x = np.array([[0.5, -1.0], [2.0, 0.25]])
    w = [[1.0, 2.0], [-0.5, 0.75]]
    results = []
    for lib, fwAD in ((mg, mfwAD), (torch, tfwAD)):
        with fwAD.dual_level():
            p = fwAD.make_dual(lib.tensor(x), lib.ones(2, 2, dtype=lib.float64))
            y = _fast_path_program(p, lib.tensor(w, dtype=lib.float64))
            results.append((fwAD.unpack_dual(y).primal, fwAD.unpack_dual(y).tangent))
    _close(results[0][0], results[1][0], rtol=1e-12)
    _close(results[0][1], results[1][1], rtol=1e-12)

    mx, W = mg.tensor(x, requires_grad=True), mg.tensor(w, dtype=mg.float64)
    plain = _fast_path_program(mx, W)
    with profiler.profile() as prof:
        profiled = _fast_path_program(mx, W)
    _bits_equal(plain, profiled)
    names = [e.key for e in prof.key_averages()]
    for op in ("mm", "mul", "add", "tanh", "pow", "sub", "relu", "mean"):
        assert "aten::" + op in names, (op, names)


# =============================================================================================
# _unary: a float/complex tensor keeps its dtype; other dtypes compute in the default float dtype
# =============================================================================================

@pytest.mark.parametrize("name", ["tanh", "exp", "sigmoid", "log", "sqrt", "sin", "reciprocal"])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64", "complex64", "int64", "int32",
                                   "uint8", "bool"])
def test_unary_dtypes_values_and_nodes_match_torch(name, dtype):
    torch_or_skip()
    values = [1, 0, 1] if dtype == "bool" else [2, 1, 3] if dtype in ("uint8", "int64", "int32") else [0.5, 1.5, 2.0]
    if dtype == "complex64":
        values = [v + 0.5j for v in values]
    grad = dtype not in ("int64", "int32", "uint8", "bool")
    mx, tx = _pair(values, dtype, requires_grad=grad)
    m, t = _same_error(lambda: getattr(mx, name)(), lambda: getattr(tx, name)())
    if t is None:
        return
    assert _dtype_name(m) == _dtype_name(t)
    _close(m, t, rtol=1e-2 if "16" in dtype else 1e-6)
    if grad:
        assert type(m.grad_fn).__name__ == type(t.grad_fn).__name__
        for out in (m, t):
            (out.sum().abs() if dtype == "complex64" else out.sum()).backward()
        _close(mx.grad, tx.grad, rtol=5e-2 if "16" in dtype else 1e-5)
    else:
        assert m.grad_fn is None and not m.requires_grad


def test_tanh_saves_its_result_and_in_place_unary_forms_match_torch():
    torch_or_skip()
    mx, tx = _pair([0.5, -1.0, 2.0], "float32", requires_grad=True)
    m, t = mx.tanh(), tx.tanh()
    _close(m.grad_fn._saved_result, t.grad_fn._saved_result)
    assert m.grad_fn._saved_result.dtype is mg.float32
    mc, tc = _pair([0.5, -1.0, 2.0], "float64")
    mc.tanh_()
    tc.tanh_()
    _close(mc, tc, rtol=1e-15)
    mi, ti = _pair([1, 4, 9], "int64")
    _same_error(lambda: mi.sqrt_(), lambda: ti.sqrt_())
    # A Python number is not taken by the fast paths: PyTorch's TypeError.
    for name in ("tanh", "mean", "relu"):
        _same_error(lambda name=name: getattr(mg, name)(1.0), lambda name=name: getattr(torch_or_skip(), name)(1.0))
    with pytest.raises(TypeError, match=r"^tanh\(\): argument 'input' \(position 1\) must be Tensor, not float$"):
        mg.tanh(1.0)


# =============================================================================================
# pow with a Python number exponent
# =============================================================================================

@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64", "complex64", "int64", "int32",
                                   "uint8", "bool"])
@pytest.mark.parametrize("exponent", [2, 3, 0, -1, 0.5, 2.0, -2.5, True])
def test_pow_number_exponent_matches_torch(dtype, exponent):
    torch_or_skip()
    values = ([1, 0, 1] if dtype == "bool" else [2, 1, 3] if dtype in ("uint8", "int64", "int32")
              else [0.5, 1.5, -2.0] if dtype != "complex64" else [0.5 + 1j, 1.5, -2.0j])
    grad = dtype in FLOATS + COMPLEX
    mx, tx = _pair(values, dtype, requires_grad=grad)
    m, t = _same_error(lambda: mx ** exponent, lambda: tx ** exponent)
    if t is None:
        return
    assert _dtype_name(m) == _dtype_name(t)
    if dtype in ("float32", "float64") and exponent in (2, 3, 0, -1, 2.0):
        _bits_equal(m, t)
    else:
        _close(m, t, rtol=1e-2 if "16" in dtype else 1e-6)
    if grad:
        assert type(m.grad_fn).__name__ == type(t.grad_fn).__name__ == "PowBackward0"
        assert m.grad_fn._saved_exponent == t.grad_fn._saved_exponent
        assert type(m.grad_fn._saved_exponent) is type(t.grad_fn._saved_exponent)
        _bits_equal(m.grad_fn._saved_self, t.grad_fn._saved_self)
        mg_, tg = _pair([1.0, 1.0, 1.0], dtype)
        m.backward(mg_)
        t.backward(tg)
        if dtype in ("float32", "float64") and exponent in (2, 2.0):
            _bits_equal(mx.grad, tx.grad)
        else:
            _close(mx.grad, tx.grad, rtol=2e-2 if "16" in dtype else 1e-5)


def test_pow_zero_dim_and_method_forms_match_torch():
    torch = torch_or_skip()
    for dtype in ("float64", "float32", "float16"):
        mx, tx = _pair(1.5, dtype, requires_grad=True)
        for f in (lambda x: x ** 2, lambda x: x.pow(2), lambda x: 2 ** x, lambda x: x ** (x * 1.0),
                  lambda x: (mg if isinstance(x, mg.Tensor) else torch).pow(x, 0.5)):
            m, t = f(mx), f(tx)
            assert _dtype_name(m) == _dtype_name(t)
            assert type(m.grad_fn).__name__ == type(t.grad_fn).__name__
            _close(m, t, rtol=1e-3)


# =============================================================================================
# mean() and relu
# =============================================================================================

@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64", "complex64", "int64", "bool"])
def test_mean_matches_torch(dtype):
    torch_or_skip()
    rng = np.random.default_rng(1)
    values = rng.standard_normal((100, 1)).round(3).tolist()
    if dtype in ("int64", "bool"):
        values = (rng.integers(0, 2, (100, 1))).tolist()
    grad = dtype in FLOATS + COMPLEX
    mx, tx = _pair(values, dtype, requires_grad=grad)
    m, t = _same_error(lambda: mx.mean(), lambda: tx.mean())
    if t is None:
        return
    assert _dtype_name(m) == _dtype_name(t) and m.dim() == 0
    _close(m, t, rtol=1e-2 if "16" in dtype else 1e-6)
    assert type(m.grad_fn).__name__ == type(t.grad_fn).__name__ == "MeanBackward0"
    assert list(m.grad_fn._saved_self_sym_sizes) == list(t.grad_fn._saved_self_sym_sizes)
    assert m.grad_fn._saved_self_sym_numel == t.grad_fn._saved_self_sym_numel
    if dtype in COMPLEX:
        m, t = m.abs(), t.abs()
    m.backward()
    t.backward()
    _bits_equal(mx.grad, tx.grad)


def test_mean_off_the_fast_path_matches_torch():
    torch = torch_or_skip()
    mx, tx = _pair([[1.0, 2.0, 3.5], [4.0, -5.0, 0.25]], "float32", requires_grad=True)
    for kwargs in ({"dim": 0}, {"dim": -1, "keepdim": True}, {"dim": (0, 1)}, {"dtype": "float64"}, {"dim": [1]}):
        mk = {k: getattr(mg, v) if k == "dtype" else v for k, v in kwargs.items()}
        tk = {k: getattr(torch, v) if k == "dtype" else v for k, v in kwargs.items()}
        m, t = mx.mean(**mk), tx.mean(**tk)
        assert _dtype_name(m) == _dtype_name(t) and list(m.shape) == list(t.shape)
        assert type(m.grad_fn).__name__ == type(t.grad_fn).__name__
        _close(m, t)
    mi, ti = _pair([1, 2], "int64")
    _same_error(lambda: mi.mean(), lambda: ti.mean())
    _same_error(lambda: mx.mean(dim=2), lambda: tx.mean(dim=2))
    me, te = mg.zeros(0), torch.zeros(0)
    assert np.isnan(_np(me.mean())) and np.isnan(_np(te.mean()))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int64", "int32", "uint8"])
def test_relu_matches_torch(dtype):
    torch = torch_or_skip()
    values = [3, 0, 7] if dtype == "uint8" else [-2, 0, 5] if dtype.startswith("int") else [-1.5, 0.0, 2.0, -3.0]
    grad = dtype in FLOATS
    mx, tx = _pair(values, dtype, requires_grad=grad)
    for f in (lambda x: x.relu(), lambda x: (mg if isinstance(x, mg.Tensor) else torch).relu(x)):
        m, t = _same_error(lambda f=f: f(mx), lambda f=f: f(tx))
        if t is None:
            continue
        _bits_equal(m, t)
        if grad:
            assert type(m.grad_fn).__name__ == type(t.grad_fn).__name__ == "ReluBackward0"
            _bits_equal(m.grad_fn._saved_result, t.grad_fn._saved_result)
            mx.grad = tx.grad = None
            m.sum().backward()
            t.sum().backward()
            _bits_equal(mx.grad, tx.grad)


# =============================================================================================
# matmul (the 2-D @ 2-D fast path and every other rank combination) and mm
# =============================================================================================

SHAPES = {1: (3,), 2: (4, 3), 3: (2, 4, 3), 4: (2, 2, 4, 3)}


def _right_shape(rank: int) -> tuple:
    return {1: (3,), 2: (3, 5), 3: (2, 3, 5), 4: (2, 2, 3, 5)}[rank]


@pytest.mark.parametrize("r1,r2", list(itertools.product([1, 2, 3, 4], repeat=2)))
@pytest.mark.parametrize("grads", [(True, True), (True, False), (False, True)])
def test_matmul_every_rank_combination_matches_torch(r1, r2, grads):
    torch = torch_or_skip()
    rng = np.random.default_rng(r1 * 10 + r2)
    s1 = SHAPES[r1] if r1 > 1 else (3,)
    a = rng.standard_normal(s1)
    b = rng.standard_normal(_right_shape(r2))
    ma, ta = _pair(a.tolist(), "float64", requires_grad=grads[0])
    mb, tb = _pair(b.tolist(), "float64", requires_grad=grads[1])
    for f in (lambda x, y: x.matmul(y), lambda x, y: x @ y,
              lambda x, y: (mg if isinstance(x, mg.Tensor) else torch).matmul(x, y)):
        m, t = f(ma, mb), f(ta, tb)
        assert list(m.shape) == list(t.shape) and _dtype_name(m) == _dtype_name(t)
        _close(m, t, rtol=1e-12, atol=1e-12)
        assert type(m.grad_fn).__name__ == type(t.grad_fn).__name__
        g = rng.standard_normal(tuple(t.shape))
        ma.grad = mb.grad = ta.grad = tb.grad = None
        m.backward(mg.tensor(g))
        t.backward(torch.tensor(g))
        for x, y in ((ma, ta), (mb, tb)):
            if y.requires_grad:
                _close(x.grad, y.grad, rtol=1e-12, atol=1e-12)


def test_matmul_fast_path_saves_what_torch_saves():
    torch_or_skip()
    ma, ta = _pair(np.arange(6.0).reshape(2, 3).tolist(), "float32", requires_grad=True)
    mb, tb = _pair(np.arange(12.0).reshape(4, 3).tolist(), "float32", requires_grad=True)
    for x, y in (((ma, ta), (mb.t(), tb.t())), ((ma, ta), (mb.detach().t(), tb.detach().t()))):
        m, t = x[0].matmul(y[0]), x[1].matmul(y[1])
        _bits_equal(m, t)  # small integers: exact in any summation order
        assert type(m.grad_fn).__name__ == type(t.grad_fn).__name__ == "MmBackward0"
        for name in ("self_sym_sizes", "self_sym_strides", "mat2_sym_sizes", "mat2_sym_strides"):
            assert tuple(getattr(m.grad_fn, "_saved_" + name)) == tuple(getattr(t.grad_fn, "_saved_" + name)), name
        for name in ("self", "mat2"):
            mv, tv = getattr(m.grad_fn, "_saved_" + name), getattr(t.grad_fn, "_saved_" + name)
            assert (mv is None) == (tv is None), name
            if tv is not None:
                _bits_equal(mv, tv)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "int64", "int32", "uint8"])
def test_matmul_fast_path_dtypes_match_torch(dtype):
    torch_or_skip()
    a = [[1, 2, 0], [3, 1, 2]]
    b = [[2, 1], [0, 1], [1, 3]]
    ma, ta = _pair(a, dtype)
    mb, tb = _pair(b, dtype)
    m, t = _same_error(lambda: ma @ mb, lambda: ta @ tb)
    if t is not None:
        _bits_equal(m, t)  # small integers: exact


def test_matmul_and_mm_errors_are_pytorchs():
    torch = torch_or_skip()
    pairs = {
        "f32_2x3": _pair(np.ones((2, 3)).tolist(), "float32"), "f64_3x2": _pair(np.ones((3, 2)).tolist(), "float64"),
        "f32_4x2": _pair(np.ones((4, 2)).tolist(), "float32"), "f32_3x2": _pair(np.ones((3, 2)).tolist(), "float32"),
        "i64_3x2": _pair(np.ones((3, 2), int).tolist(), "int64"), "f32_3": _pair([1.0, 2.0, 3.0], "float32"),
        "f32_0d": _pair(1.0, "float32"), "f32_2x2x3": _pair(np.ones((2, 2, 3)).tolist(), "float32"),
        "f64_3": _pair([1.0, 2.0, 3.0], "float64"), "f32_2": _pair([1.0, 2.0], "float32"),
    }
    seen_error = 0
    for (m1, t1), (m2, t2) in itertools.product(pairs.values(), repeat=2):
        for fm, ft in ((mg.matmul, torch.matmul), (mg.mm, torch.mm)):
            m, t = _same_error(lambda fm=fm, m1=m1, m2=m2: fm(m1, m2), lambda ft=ft, t1=t1, t2=t2: ft(t1, t2))
            seen_error += t is None
            if t is not None:
                assert _dtype_name(m) == _dtype_name(t) and list(m.shape) == list(t.shape)
    assert seen_error > 50  # dtype mismatches, shape mismatches, wrong ranks, 0-dim
    m1, t1 = pairs["f32_2x3"]
    _same_error(lambda: mg.matmul(m1, [[1.0]]), lambda: torch.matmul(t1, [[1.0]]))
    _same_error(lambda: mg.matmul([[1.0]], m1), lambda: torch.matmul([[1.0]], t1))
    _same_error(lambda: m1 @ 2.0, lambda: t1 @ 2.0)


# =============================================================================================
# Differences from PyTorch found while writing these tests (they were there before the fast paths),
# now fixed: each case as PyTorch shows it (repr, or exception type and message). Their siblings are
# tested in the sections after this one.
# =============================================================================================

def _outputs(program):
    """``program(lib)`` for minigrad and torch, each as its repr or its exception's type and message."""
    torch = torch_or_skip()
    out = []
    for lib in (mg, torch):
        try:
            out.append(repr(program(lib)).replace("torch.", ""))
        except Exception as e:  # noqa: BLE001
            out.append(f"{type(e).__name__}: {e}")
    return out


KNOWN = {
    "number first in the function form: a wrapped number (float32, not float64)":
        lambda lib: lib.mul(1.25, lib.tensor([1, 2])).dtype,
    "bool tensor minus a float: PyTorch refuses":
        lambda lib: (lib.tensor([True, False]) - 1.5).dtype,
    "bool tensor minus True: PyTorch's two-bools message":
        lambda lib: lib.tensor([True]) - True,
    "float16 tensor * Python float: PyTorch multiplies in float32 (inf * 1e-30 is inf)":
        lambda lib: (lib.tensor([float("inf")], dtype=lib.float16) * 1e-30).tolist(),
    "complex tensor + inf: PyTorch computes alpha * other, (1+0j) * inf = inf + nanj":
        lambda lib: (lib.tensor([1.0 + 0j]) + float("inf")).tolist(),
    "mean(dim=None): PyTorch records MeanBackward1":
        lambda lib: type(lib.tensor([1.0, 2.0], requires_grad=True).mean(dim=None).grad_fn).__name__,
    "mean(dim=[]): PyTorch reduces over every dim":
        lambda lib: lib.tensor([[1.0, 2.0]]).mean(dim=[]).shape,
    "mean(dtype=int64): PyTorch's message names the optional dtype":
        lambda lib: lib.ones(2).mean(dtype=lib.int64),
    "relu(-0.0): PyTorch keeps the sign":
        lambda lib: lib.tensor([-0.0]).relu().tolist(),
    "relu of a bool tensor: PyTorch refuses":
        lambda lib: lib.tensor([True]).relu(),
    "bfloat16 ** float: bfloat16":
        lambda lib: (lib.tensor([1.5], dtype=lib.bfloat16) ** 0.5).dtype,
    "bool ** True: bool":
        lambda lib: (lib.tensor([True]) ** True).dtype,
    "tanh of a Python float: PyTorch's TypeError names the argument":
        lambda lib: lib.tanh(1.0),
    "1-D @ 1-D of two dtypes and lengths: PyTorch reports the dtypes first":
        lambda lib: lib.matmul(lib.tensor([1.0, 2.0], dtype=lib.float64), lib.tensor([1.0, 2.0, 3.0])),
}


@pytest.mark.parametrize("case", list(KNOWN))
def test_former_differences_from_torch_now_match(case):
    mine, theirs = _outputs(KNOWN[case])
    assert mine == theirs


# =============================================================================================
# float16/bfloat16 with a scalar: PyTorch's mul/div read a 0-dim second operand in float32 ("opmath");
# add/sub cast it to the tensor's dtype (_dispatch._pytorch_operands, Op.run_number)
# =============================================================================================

def _every_bit_pattern(dtype: str):
    """Every 16-bit value of float16/bfloat16 (inf, nan, -0.0, subnormals ...) as a minigrad and a torch tensor."""
    torch = torch_or_skip()
    import ml_dtypes
    bits = np.arange(2**16, dtype=np.uint16)
    m = mg.from_numpy(bits.view(np.float16 if dtype == "float16" else ml_dtypes.bfloat16).copy())
    t = torch.from_numpy(bits.view(np.int16).copy()).view(getattr(torch, dtype))
    return m, t


# Numbers that round differently to float16/bfloat16 and to float32, overflow them, underflow them ...
SCALARS = [1e-30, 1e-8, 1.0001, 0.1, 1 / 3, 3.0e38, 1e39, -2.5e-5, 65504.0, 65520.0, 7e4, 5.96e-8, 2.0**-150,
           1 + 2**-20, float("inf"), float("-inf"), float("nan"), -0.0, 0.0, 2.0, 0.5, 3, 7, -1, 2049, 123456789,
           2**60, True]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("op", ["add", "sub", "mul", "div"])
def test_reduced_float_with_a_scalar_is_bitwise_torch(dtype, op):
    torch = torch_or_skip()
    import warnings
    sym = {"add": "+", "sub": "-", "mul": "*", "div": "/"}[op]
    mx, tx = _every_bit_pattern(dtype)
    # (how the scalar is given, the call): a number on either side, a 0-dim float64/float32 tensor second
    # (read in float32 by mul/div) or first (cast), in place.
    forms = [(None, lambda L, x, n: eval(f"x {sym} n")), (None, lambda L, x, n: eval(f"n {sym} x")),
             (None, lambda L, x, n: getattr(L, op)(x, n)), (None, lambda L, x, n: getattr(L, op)(n, x)),
             ("float64", lambda L, x, n: getattr(L, op)(x, n)), ("float32", lambda L, x, n: getattr(L, op)(x, n)),
             ("float64", lambda L, x, n: getattr(L, op)(n, x)), (None, lambda L, x, n: getattr(x.clone(), op + "_")(n))]
    for n in SCALARS:
        if op == "sub" and n is True:
            continue  # bool in a subtraction: refused (tested below)
        for i, (wrap, f) in enumerate(forms):
            if wrap is not None and n == 2**60:
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # (making a float32 tensor of 1e39 warns; not the point here)
                mn, tn = (n, n) if wrap is None else (mg.tensor(n, dtype=getattr(mg, wrap)),
                                                       torch.tensor(n, dtype=getattr(torch, wrap)))
            with warnings.catch_warnings():
                warnings.simplefilter("error")  # PyTorch rounds to float16 without a warning; so must minigrad
                m = f(mg, mx, mn)
            t = f(torch, tx, tn)
            assert _dtype_name(m) == _dtype_name(t), (n, i)
            _bits_equal(m, t)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_reduced_float_mul_and_div_by_a_number_record_and_differentiate_as_torch(dtype):
    # Off run_number (float16) or as before (bfloat16): the node saves the wrapped float64 number, and
    # backward's ``grad * other`` is computed in float32 like the forward (MulBackward0's formula).
    torch_or_skip()
    rng = np.random.default_rng(3)
    values = (rng.standard_normal(200) * 10.0 ** rng.integers(-6, 5, 200)).tolist() + [0.0, -0.0, 60000.0]
    mx, tx = _pair(values, dtype, requires_grad=True)
    g = (rng.standard_normal(len(values)) * 1000).tolist()
    for n in (0.1, 1 / 3, 1e-30, 70000.0, 3):
        for f in (lambda x, n=n: x * n, lambda x, n=n: n * x, lambda x, n=n: x / n):
            m, t = f(mx), f(tx)
            _bits_equal(m, t)
            assert type(m.grad_fn).__name__ == type(t.grad_fn).__name__
            _bits_equal(m.grad_fn._saved_other, t.grad_fn._saved_other)
            mg_, tg = _pair(g, dtype)
            mx.grad = tx.grad = None
            m.backward(mg_)
            t.backward(tg)
            _bits_equal(mx.grad, tx.grad)


def test_reduced_float_rule_is_only_for_a_scalar_second_operand():
    # A 0-dim tensor of the same dtype, an int tensor promoted to float16 by a 0-dim float16 tensor, a
    # 1-element broadcast tensor: PyTorch's results, which are NumPy's half arithmetic.
    torch = torch_or_skip()
    mx, tx = _every_bit_pattern("float16")
    mi, ti = _pair([2049, -3, 70000, 0], "int64")
    for op in ("mul", "div", "add"):
        for a, b in ((mx, mg.tensor(0.1, dtype=mg.float16)), (mx, mg.tensor([0.1], dtype=mg.float16)),
                     (mi, mg.tensor(0.1, dtype=mg.float16)), (mg.tensor(3.0, dtype=mg.float16), 1e-30)):
            ta = tx if a is mx else ti if a is mi else torch.tensor(3.0, dtype=torch.float16)
            tb = b if not isinstance(b, mg.Tensor) else torch.tensor(b.tolist(), dtype=torch.float16)
            m, t = getattr(mg, op)(a, b), getattr(torch, op)(ta, tb)
            assert _dtype_name(m) == _dtype_name(t)
            _bits_equal(m, t)


# =============================================================================================
# complex add/sub: PyTorch computes self + alpha * other with a complex product, even for alpha = 1
# =============================================================================================

def _complex_grid(dtype: str):
    """Every pair of parts from {0, -0, ±inf, nan, 1, -2.5}: 49 numbers, and the 49² pairs of them."""
    real = np.float32 if dtype == "complex64" else np.float64
    parts = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -2.5], real)
    z = np.empty(49, dtype)
    z.real, z.imag = np.repeat(parts, 7), np.tile(parts, 7)
    return np.repeat(z, 49), np.tile(z, 49)


def _complex_pair(values: np.ndarray, dtype: str, requires_grad=False):
    torch = torch_or_skip()
    m = mg.from_numpy(values.copy())
    m.requires_grad_(requires_grad)
    return m, torch.from_numpy(values.copy()).requires_grad_(requires_grad)


@pytest.mark.parametrize("dtype", COMPLEX)
def test_complex_add_and_sub_are_bitwise_torch(dtype):
    torch = torch_or_skip()
    a, b = _complex_grid(dtype)
    forms = {"a + b": lambda L, x, y: x + y, "a - b": lambda L, x, y: x - y, "rsub": lambda L, x, y: L.rsub(x, y),
             "alpha 2": lambda L, x, y: L.add(x, y, alpha=2), "sub alpha 2": lambda L, x, y: L.sub(x, y, alpha=2),
             "sub alpha -1.5": lambda L, x, y: L.sub(x, y, alpha=-1.5),
             "rsub alpha 3": lambda L, x, y: L.rsub(x, y, alpha=3),
             "add_": lambda L, x, y: x.detach().clone().add_(y), "sub_": lambda L, x, y: x.detach().clone().sub_(y),
             "a + b[7] (0-dim)": lambda L, x, y: x + y[7], "a - b[7] (0-dim)": lambda L, x, y: x - y[7]}
    for name, f in forms.items():
        for grad in (False, True):
            (ma, ta), (mb, tb) = _complex_pair(a, dtype, grad), _complex_pair(b, dtype)
            m, t = f(mg, ma, mb), f(torch, ta, tb)
            _bits_equal(m, t)
            assert (m.grad_fn is None) == (t.grad_fn is None), name
    numbers = [float("inf"), float("-inf"), float("nan"), -0.0, 1.5, complex(-0.0, -2.0), complex(np.inf, 0), 3]
    for n in numbers:
        for f in (lambda L, x, n=n: x + n, lambda L, x, n=n: n + x, lambda L, x, n=n: x - n,
                  lambda L, x, n=n: n - x, lambda L, x, n=n: L.add(n, x), lambda L, x, n=n: L.sub(n, x),
                  lambda L, x, n=n: L.add(x, n, alpha=2), lambda L, x, n=n: x.detach().clone().add_(n),
                  lambda L, x, n=n: x.detach().clone().sub_(n), lambda L, x, n=n: x * n, lambda L, x, n=n: n * x):
            (ma, ta) = _complex_pair(a, dtype, True)
            m, t = f(mg, ma), f(torch, ta)
            assert _dtype_name(m) == _dtype_name(t)
            _bits_equal(m, t)


# =============================================================================================
# Errors and dtypes of the front end: bool in sub, a number first, unary functions of numbers
# =============================================================================================

def test_sub_refuses_bool_operands_like_torch():
    torch = torch_or_skip()
    forms = [lambda L, x, y: x - y, lambda L, x, y: y - x, lambda L, x, y: L.sub(x, y), lambda L, x, y: L.sub(y, x),
             lambda L, x, y: L.subtract(x, y, alpha=2), lambda L, x, y: x.clone().sub_(y), lambda L, x, y: L.rsub(x, y)]
    others = [lambda L: True, lambda L: False, lambda L: 1.5, lambda L: 2, lambda L: 1j,
              lambda L: L.tensor([True, False]), lambda L: L.tensor(True), lambda L: L.tensor([1.0, 2.0]),
              lambda L: L.tensor([1, 2]), lambda L: L.tensor(1.5)]
    for other in others:
        for f in forms:
            for left in (lambda L: L.tensor([True, False]), lambda L: L.tensor([1.5, 2.0])):
                m, t = _same_error(lambda f=f, o=other, le=left: f(mg, le(mg), o(mg)),
                                   lambda f=f, o=other, le=left: f(torch, le(torch), o(torch)))
                if t is not None:
                    assert _dtype_name(m) == _dtype_name(t)
                    np.testing.assert_array_equal(_np(m), _np(t))
    with pytest.raises(RuntimeError, match="with a bool tensor is not supported"):
        mg.tensor([True]) - 1.5


def test_number_first_in_the_function_forms_is_a_wrapped_number():
    torch = torch_or_skip()
    for name in ("add", "sub", "mul", "div", "true_divide", "divide", "multiply", "subtract"):
        for number in (1.25, 3, True, 2 + 1j):
            for dtype, values in (("int64", [1, 2]), ("uint8", [1, 2]), ("bool", [True, False]),
                                  ("float32", [1.5, 0.0]), ("float64", [1.5, -2.0]), ("complex64", [1 + 1j, 2])):
                mx, tx = _pair(values, dtype)
                fm, ft = getattr(mg, name), getattr(torch, name)
                m, t = _same_error(lambda f=fm, n=number, x=mx: f(n, x), lambda f=ft, n=number, x=tx: f(n, x))
                if t is not None:
                    assert _dtype_name(m) == _dtype_name(t), (name, number, dtype)
                    _close(m, t)
        m, t = getattr(mg, name)(1.5, 2), getattr(torch, name)(1.5, 2)  # two numbers: a 0-dim default-float result
        assert _dtype_name(m) == _dtype_name(t) and m.dim() == t.dim() == 0
    # The graph: the number has no edge and is saved as PyTorch saves it.
    mx, tx = _pair([1.0, 2.0], "float32", requires_grad=True)
    for f in (lambda L, x: L.mul(1.25, x), lambda L, x: L.div(2, x), lambda L, x: L.add(3, x, alpha=2)):
        m, t = f(mg, mx), f(torch, tx)
        assert type(m.grad_fn).__name__ == type(t.grad_fn).__name__
        assert [n is None for n, _ in m.grad_fn.next_functions] == [n is None for n, _ in t.grad_fn.next_functions]
        if hasattr(t.grad_fn, "_saved_self"):
            _bits_equal(m.grad_fn._saved_self, t.grad_fn._saved_self)
        mx.grad = tx.grad = None
        m.sum().backward()
        t.sum().backward()
        _bits_equal(mx.grad, tx.grad)


UNARY = ["exp", "log", "sigmoid", "tanh", "reciprocal", "sqrt", "rsqrt", "exp2", "expm1", "log2", "log10", "log1p",
         "sin", "cos", "tan", "angle", "sinh", "cosh", "asin", "acos", "atan", "asinh", "acosh", "atanh", "erf", "erfc"]


@pytest.mark.parametrize("name", [*UNARY, "relu", "sum", "mean"])
def test_tensor_functions_refuse_python_numbers_like_torch(name):
    torch = torch_or_skip()
    import torch.nn.functional as F

    import minigrad.nn.functional as MF
    for value in (1.0, 2, True, [1.0, 2.0]):
        _same_error(lambda v=value: getattr(mg, name)(v), lambda v=value: getattr(torch, name)(v))
    if name == "relu":
        _same_error(lambda: MF.relu(1.0), lambda: F.relu(1.0))
    t = torch.tensor([0.5, 0.25])
    m = mg.tensor([0.5, 0.25])
    _close(getattr(mg, name)(m), getattr(torch, name)(t))  # and a tensor still works


# =============================================================================================
# sum / mean: dim=None and dim=[] reduce every dim through the dim overload (SumBackward1, MeanBackward1)
# =============================================================================================

REDUCTION_CALLS = {
    "x.mean()": lambda L, x: x.mean(), "x.mean(dim=None)": lambda L, x: x.mean(dim=None),
    "x.mean(None, True)": lambda L, x: x.mean(None, True), "x.mean(dim=[])": lambda L, x: x.mean(dim=[]),
    "x.mean(dim=(), keepdim=True)": lambda L, x: x.mean(dim=(), keepdim=True),
    "L.mean(x, None)": lambda L, x: L.mean(x, None),
    "x.mean(dim=None, dtype=float64)": lambda L, x: x.mean(dim=None, dtype=L.float64),
    "x.mean(dtype=int64)": lambda L, x: x.mean(dtype=L.int64),
    "x.mean(0, dtype=int32)": lambda L, x: x.mean(0, dtype=L.int32),
    "x.mean(dtype=bool)": lambda L, x: x.mean(dtype=L.bool), "int.mean()": lambda L, x: L.tensor([1, 2]).mean(),
    "int.mean(dim=None)": lambda L, x: L.tensor([1, 2]).mean(dim=None),
    "0-dim mean(dim=None)": lambda L, x: x.sum().mean(dim=None),
    "0-dim mean(dim=[])": lambda L, x: x.sum().mean(dim=[]),
    "x.sum()": lambda L, x: x.sum(), "x.sum(dim=None)": lambda L, x: x.sum(dim=None),
    "x.sum(None, True)": lambda L, x: x.sum(None, True), "x.sum(dim=[])": lambda L, x: x.sum(dim=[]),
    "x.sum(dim=[], keepdim=True)": lambda L, x: x.sum(dim=[], keepdim=True),
    "0-dim sum(dim=())": lambda L, x: x.sum().sum(dim=()), "x.sum(dtype=int64)": lambda L, x: x.sum(dtype=L.int64),
    "x.sum(0, dtype=int64)": lambda L, x: x.sum(0, dtype=L.int64),
    "detached sum(dtype=int64)": lambda L, x: x.detach().sum(dtype=L.int64),
    "int.sum(dim=[])": lambda L, x: L.tensor([[1, 2]]).sum(dim=[]),
    "half.mean(dim=None)": lambda L, x: x.half().mean(dim=None),
}


@pytest.mark.parametrize("call", list(REDUCTION_CALLS))
def test_sum_and_mean_dim_forms_match_torch(call):
    torch = torch_or_skip()
    mx, tx = _pair([[1.0, 2.0, 3.0], [4.0, 5.0, 6.5]], "float32", requires_grad=True)
    m, t = _same_error(lambda: REDUCTION_CALLS[call](mg, mx), lambda: REDUCTION_CALLS[call](torch, tx))
    if t is None:
        return
    assert _dtype_name(m) == _dtype_name(t) and list(m.shape) == list(t.shape)
    _close(m, t)
    assert type(m.grad_fn).__name__ == type(t.grad_fn).__name__
    if t.grad_fn is not None:
        names = [a for a in dir(t.grad_fn) if a.startswith("_saved_")]
        assert [a for a in dir(m.grad_fn) if a.startswith("_saved_")] == names
        for a in names:
            assert getattr(m.grad_fn, a) == getattr(t.grad_fn, a), a
        m.sum().backward()
        t.sum().backward()
        _bits_equal(mx.grad, tx.grad)


# =============================================================================================
# relu: x < 0 ? 0 : x (-0.0 and nan kept), bool refused; pow's dtypes and errors; dot's order of checks
# =============================================================================================

@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64", "int64", "int8", "uint8", "bool",
                                   "complex64"])
def test_relu_forms_keep_the_sign_of_zero_and_refuse_bool_like_torch(dtype):
    torch = torch_or_skip()
    import torch.nn.functional as F

    import minigrad.nn.functional as MF
    values = {"bool": [True, False], "uint8": [3, 0, 255], "complex64": [1 + 1j]}.get(
        dtype, [-3, 0, 5, 127] if dtype.startswith("int") else
        [-0.0, 0.0, float("nan"), -1.0, 2.0, float("-inf"), float("inf"), -1e-40] * 5)
    forms = [lambda L, F, x: L.relu(x), lambda L, F, x: x.relu(), lambda L, F, x: F.relu(x),
             lambda L, F, x: x.clone().relu_(), lambda L, F, x: F.relu(x.clone(), inplace=True),
             lambda L, F, x: L.nn.ReLU()(x), lambda L, F, x: x[::2].relu()]
    for f in forms:
        mx, tx = _pair(values, dtype)
        m, t = _same_error(lambda f=f, x=mx: f(mg, MF, x), lambda f=f, x=tx: f(torch, F, x))
        if t is not None:
            _bits_equal(m, t)
    if dtype in ("float32", "float64", "float16"):
        mx, tx = _pair(values, dtype, requires_grad=True)
        m, t = mx.relu(), tx.relu()
        _bits_equal(m.grad_fn._saved_result, t.grad_fn._saved_result)
        m.sum().backward()
        t.sum().backward()
        _bits_equal(mx.grad, tx.grad)


POW_DTYPES = ["float16", "bfloat16", "float32", "float64", "complex64", "int64", "int32", "int16", "int8", "uint8",
              "bool"]
POW_EXPONENTS = [2, 3, 0, -1, -2, 0.5, 2.0, -2.5, 1.0, True, False, 2**40, 70000, 128, 65520.0, 1e39, 3e38,
                 float("inf"), float("nan")]


@pytest.mark.parametrize("dtype", POW_DTYPES)
def test_pow_dtypes_values_and_errors_match_torch(dtype):
    # Values within rounding: PyTorch's float pow is not the C library's (1 ulp apart); dtypes and errors exact.
    torch = torch_or_skip()
    values = {"bool": [True, False], "uint8": [2, 0, 3], "complex64": [1 + 1j, 2]}.get(
        dtype, [2, 0, -3] if dtype.startswith("int") else [1.5, 0.0, -2.0])
    forms = [lambda L, x, e: x ** e, lambda L, x, e: L.pow(x, e), lambda L, x, e: x.clone().pow_(e),
             lambda L, x, e: e ** x, lambda L, x, e: L.pow(e, x), lambda L, x, e: x ** L.tensor(e),
             lambda L, x, e: L.tensor(e) ** x, lambda L, x, e: x ** x]
    for e in POW_EXPONENTS:
        for i, f in enumerate(forms):
            mx, tx = _pair(values, dtype)
            m, t = _same_error(lambda f=f, x=mx, e=e: f(mg, x, e), lambda f=f, x=tx, e=e: f(torch, x, e))
            if t is None:
                continue
            assert _dtype_name(m) == _dtype_name(t), (e, i)
            if t.dtype.is_floating_point or t.dtype.is_complex:
                _close(m, t, rtol=1e-2 if "16" in dtype else 1e-6)
            else:
                np.testing.assert_array_equal(_np(m), _np(t))


def test_integer_pow_with_negative_exponents_matches_torch():
    # NumPy refuses negative integer powers; PyTorch gives 1 for a base of 1, ±1 for -1, 0 otherwise.
    torch = torch_or_skip()
    for dtype in ("int64", "int32", "int8", "uint8"):
        base = [0, 1, 2, 3] if dtype == "uint8" else [0, 1, -1, 2, -2, 5]
        exps = [0, 1, 2, 9] if dtype == "uint8" else [-1, -2, -3, 0, 2, 7]
        mb, tb = _pair([b for b in base for _ in exps], dtype)
        me, te = _pair(exps * len(base), dtype)
        pairs = [(mb ** me, tb ** te), (mb ** me[0], tb ** te[0]), (mb.pow(me[1]), tb.pow(te[1]))]
        pairs += [(b ** me, b ** te) for b in (*base, -1, 300)]  # a number base is cast to the dtype (wrapping)
        for m, t in pairs:
            assert _dtype_name(m) == _dtype_name(t)
            np.testing.assert_array_equal(_np(m), _np(t))
    _same_error(lambda: (-1) ** mg.tensor([1, 2], dtype=mg.uint8),
                lambda: (-1) ** torch.tensor([1, 2], dtype=torch.uint8))
    _same_error(lambda: mg.tensor([True]) ** mg.tensor([True]), lambda: torch.tensor([True]) ** torch.tensor([True]))


def test_dot_and_matmul_check_dtypes_before_sizes():
    torch = torch_or_skip()
    for f in (lambda L: L.dot(L.ones(2, dtype=L.float64), L.ones(3)),
              lambda L: L.matmul(L.ones(2, dtype=L.int64), L.ones(3)),
              lambda L: L.ones(2, dtype=L.float64) @ L.ones(3), lambda L: L.dot(L.ones(2), L.ones(3)),
              lambda L: L.mv(L.ones(2, 3, dtype=L.float64), L.ones(4))):
        _same_error(lambda f=f: f(mg), lambda f=f: f(torch))
    with pytest.raises(RuntimeError, match="^dot : expected both vectors to have same dtype, but found Double and"):
        mg.dot(mg.ones(2, dtype=mg.float64), mg.ones(3))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_reduced_float_rounded_division_is_bitwise_torch(dtype):
    # floor: c10::div_floor_floating with every step rounded to the dtype, or in float32 for a scalar second
    # operand (as mul/div); trunc: true division rounded, then truncated.
    torch = torch_or_skip()
    mx, tx = _every_bit_pattern(dtype)
    perm = np.random.default_rng(5).permutation(2**16)
    my, ty = mx[mg.from_numpy(perm)], tx[torch.from_numpy(perm)]
    for mode in ("floor", "trunc"):
        _bits_equal(mg.div(mx, my, rounding_mode=mode), torch.div(tx, ty, rounding_mode=mode))
        for n in (0.1, 1 / 3, -2.5e-5, 1.0001, 3, -1, 7e4, 1e-30):
            for f in (lambda L, x, n=n, m=mode: L.div(x, n, rounding_mode=m),
                      lambda L, x, n=n, m=mode: L.div(n, x, rounding_mode=m),
                      lambda L, x, n=n, m=mode: L.div(x, L.tensor(n, dtype=L.float64), rounding_mode=m)):
                _bits_equal(f(mg, mx), f(torch, tx))
    _bits_equal(mx // 0.1, tx // 0.1)
    _bits_equal(mg.floor_divide(1.25, mx), torch.floor_divide(1.25, tx))


def test_rounded_division_dtypes_and_errors_match_torch():
    torch = torch_or_skip()
    rng = np.random.default_rng(1)
    operands = {"int64": rng.integers(-1000, 1000, 50).tolist(), "int32": rng.integers(-1000, 1000, 50).tolist(),
                "uint8": rng.integers(0, 200, 50).tolist(), "float32": (rng.standard_normal(50) * 100).tolist(),
                "bool": [True, False] * 25, "complex64": [1 + 1j] * 50}
    others = [0.1, 3, -7, 1e-30, True, 0, 2 + 1j, lambda L: L.arange(1, 51), lambda L: L.zeros(50, dtype=L.int64),
              lambda L: L.tensor(0.3)]
    for dtype, values in operands.items():
        for other in others:
            for mode in ("floor", "trunc"):
                for first in (False, True):
                    def call(L, values=values, dtype=dtype, other=other, mode=mode, first=first):
                        x = L.tensor(values, dtype=getattr(L, dtype))
                        o = other(L) if callable(other) else other
                        return L.div(o, x, rounding_mode=mode) if first else L.div(x, o, rounding_mode=mode)
                    m, t = _same_error(lambda call=call: call(mg), lambda call=call: call(torch))
                    if t is not None:
                        assert _dtype_name(m) == _dtype_name(t), (dtype, other, mode, first)
                        _bits_equal(m, t)
    _same_error(lambda: mg.div(mg.ones(2), 2, rounding_mode="round"),
                lambda: torch.div(torch.ones(2), 2, rounding_mode="round"))


def test_maximum_and_minimum_take_tensors_only_like_torch():
    torch = torch_or_skip()
    for name in ("maximum", "minimum"):
        for call in (lambda L, f: getattr(L, f)(L.ones(2), 2.0), lambda L, f: getattr(L, f)(1, L.ones(2)),
                     lambda L, f: getattr(L.ones(2), f)(3), lambda L, f: getattr(L.ones(2), f)([1.0]),
                     lambda L, f: getattr(L, f)(L.ones(2), L.tensor(2)),
                     lambda L, f: getattr(L.ones(2), f)(L.zeros(2))):
            m, t = _same_error(lambda call=call, f=name: call(mg, f), lambda call=call, f=name: call(torch, f))
            if t is not None:
                _bits_equal(m, t)
