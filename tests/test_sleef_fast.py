"""The fast float32 kernels stay bit for bit what they emulate: SLEEF's expf, PyTorch's last-dim (log_)softmax
and nll_loss's cascade sum.

``_float_math.sleef_expf``, ``_softmax`` and ``_loss_sums.cascade_sum`` were rewritten for speed (out=
buffers, a clamp and ldexp instead of masks, transposed short rows, reductions instead of accumulations).
Two kinds of checks pin them down: against PyTorch (real SLEEF, real kernels) where minigrad is exact, and
against the plain step-by-step versions kept here as oracles, which also cover inputs PyTorch cannot be
compared on bit for bit (nan payloads).
"""
from __future__ import annotations

import numpy as np
import pytest

import minigrad
from minigrad import _float_math, _loss_sums, _softmax_cpu
from tests.parity import torch_or_skip

F32 = np.float32


def _bits(a) -> np.ndarray:
    return np.ascontiguousarray(np.asarray(a, F32)).view(np.uint32)


def _assert_bits(actual, expected) -> None:
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape and actual.dtype == expected.dtype == F32
    differ = (_bits(actual) != _bits(expected)).reshape(actual.shape)
    assert not differ.any(), f"{differ.sum()} of {differ.size} differ: {actual[differ][:3]} vs {expected[differ][:3]}"


def _assert_bits_nan_equal(actual, expected) -> None:
    """Bit for bit except that any nan equals any nan (payloads depend on NumPy's loop order)."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape
    nan = np.isnan(expected)
    assert np.array_equal(np.isnan(actual), nan)
    _assert_bits(actual[~nan], expected[~nan])


# ---- oracles: the plain versions, one NumPy step per operation ------------------------------------------

def _oracle_fma(a, b, c):
    return np.add(np.multiply(a, b, dtype=np.float64), c, dtype=np.float64).astype(F32)


def _oracle_expf(d):
    """SLEEF's expf_u10 exactly as written in SLEEF: every step, 2^q as two factors, the cut-offs as masks."""
    with np.errstate(all="ignore"):
        q = np.rint(d * _float_math._LOG2E).astype(np.int32)
        qf = q.astype(F32)
        s = _oracle_fma(qf, -_float_math._LN2_HI, d)
        s = _oracle_fma(qf, -_float_math._LN2_LO, s)
        u = _float_math._EXPF_POLY[0]
        for c in _float_math._EXPF_POLY[1:]:
            u = _oracle_fma(u, s, c)
        u = F32(1) + _oracle_fma(s * s, u, s)
        half = q >> 1
        u = u * np.ldexp(F32(1), half) * np.ldexp(F32(1), q - half)
        u = np.where(d < -104, F32(0), u)
        return np.where(d > 100, F32(np.inf), u).astype(F32)


_LN2_HI_LO = F32(0.69314718246459960938), F32(-1.904654323148236017e-09)
_LOGF_POLY = F32(0.3027294874), F32(0.3996108174), F32(0.6666694880)


def _oracle_logf(d):
    """SLEEF's logf_u10 (its AVX-512 branch) exactly as written: getexp(d·(1/0.75)) and getmant, then
    double-float steps (dfmul, dfadd2, dfdiv, dfadd) and vfixup for 0, negatives, inf and nan."""
    with np.errstate(all="ignore"):
        scaled = d * F32(1.0 / 0.75)
        e = np.where(np.isposinf(scaled), F32(128), np.frexp(scaled)[1].astype(F32) - F32(1))
        mant = np.frexp(d)[0]
        m = np.where(mant < 0.75, mant * F32(2), mant).astype(F32)
        sx = _LN2_HI_LO[0] * e
        sy = _oracle_fma(_LN2_HI_LO[1], e, _oracle_fma(_LN2_HI_LO[0], e, -sx))

        def dfadd2(x, y):
            r = x + y
            v = r - x
            return r, (x - (r - v)) + (y - v)
        nx, ny = dfadd2(F32(-1), m)
        dx, dy = dfadd2(F32(1), m)
        t = F32(1) / dx
        qx = nx * t
        u = _oracle_fma(t, nx, -qx)
        v = _oracle_fma(-dy, t, _oracle_fma(-dx, t, F32(1)))
        qy = _oracle_fma(qx, v, _oracle_fma(ny, t, u))
        x2 = qx * qx
        poly = _oracle_fma(_oracle_fma(_LOGF_POLY[0], x2, _LOGF_POLY[1]), x2, _LOGF_POLY[2])
        yx, yy = qx * F32(2), qy * F32(2)
        rx = sx + yx
        ry = (((sx - rx) + yx) + sy) + yy
        w = (x2 * qx) * poly
        hi = rx + w
        r = hi + (((rx - hi) + w) + ry)
        r = np.where(d == 0, F32(-np.inf), r)
        r = np.where((d < 0) | np.isnan(d), F32(np.nan), r)
        return np.where(np.isposinf(d), F32(np.inf), r).astype(F32)


def _oracle_row_sums(values, factors=None):
    """PyTorch's order: left to right below 16 elements, else lane-wise vectors of 16 and a lane tree.
    ``factors`` (a, b) of values = a·b: map2_reduce_all, whose partial last vector is a fused multiply-add."""
    n = values.shape[1]
    if n < 16:
        return np.add.accumulate(values, axis=1)[:, -1]
    full = n - n % 16
    acc = np.add.accumulate(values[:, :full].reshape(values.shape[0], -1, 16), axis=1)[:, -1].copy()
    if factors is None:
        acc[:, : n - full] = acc[:, : n - full] + values[:, full:]
    else:
        acc[:, : n - full] = _oracle_fma(factors[0][:, full:], factors[1][:, full:], acc[:, : n - full])
    for shift in (8, 4, 2, 1):
        acc = acc + acc[:, np.arange(16) ^ shift]
    return acc[:, 0]


def _oracle_log_softmax(x):
    rows = x.reshape(-1, x.shape[-1])
    top = np.max(rows, axis=1, keepdims=True)
    total = _oracle_row_sums(_oracle_expf(rows - top))
    return (rows - top - _oracle_logf(total)[:, None]).reshape(x.shape)


def _oracle_softmax(x):
    rows = x.reshape(-1, x.shape[-1])
    e = _oracle_expf(rows - np.max(rows, axis=1, keepdims=True))
    return (e * (F32(1) / _oracle_row_sums(e))[:, None]).reshape(x.shape)


def _oracle_log_softmax_backward(g, y):
    g2, y2 = g.reshape(-1, g.shape[-1]), y.reshape(-1, y.shape[-1])
    return _oracle_fma(-_oracle_expf(y2), _oracle_row_sums(g2)[:, None], g2).reshape(y.shape)


def _oracle_softmax_backward(g, y):
    g2, y2 = g.reshape(-1, g.shape[-1]), y.reshape(-1, y.shape[-1])
    return ((g2 - _oracle_row_sums(g2 * y2, (g2, y2))[:, None]) * y2).reshape(y.shape)


# ---- inputs ---------------------------------------------------------------------------------------------

SPECIALS = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1e-45, -1e-45, 1e-38, -1e-38, 3.4e38, -3.4e38,
                     88.72, 88.73, 100.0, 100.00001, -87.33, -103.97, -103.98, -104.0, -104.00001, -110, 110, 1e9],
                    dtype=F32)


def _edge_grid() -> np.ndarray:
    """Every float32 near SLEEF's thresholds, subnormal results, overflow, the cut-offs, plus specials."""
    around = [np.arange(-200, 200, dtype=np.int64) + F32(t).view(np.int32)
              for t in (-104.0, -103.972, -87.3365, 88.7228, 100.0, 0.5, -0.5)]
    grid = np.concatenate(around).astype(np.int32).view(F32)
    dense = np.concatenate([np.linspace(-106, -86, 40_001), np.linspace(86, 102, 20_001)]).astype(F32)
    return np.concatenate([grid, dense, SPECIALS])


def _random_floats(n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    uniform = rng.uniform(-110, 110, n).astype(F32)
    patterns = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32).view(F32)   # nan payloads too
    return np.concatenate([uniform, patterns])


# ---- sleef_expf -----------------------------------------------------------------------------------------

def test_sleef_expf_is_the_step_by_step_computation():
    x = np.concatenate([_edge_grid(), _random_floats(500_000)])
    _assert_bits(_float_math.sleef_expf(x), _oracle_expf(x))   # nan payloads included


@pytest.mark.parametrize("layout", ["0-d", "empty", "empty 2-d", "transposed", "sliced", "reversed", "3-d"])
def test_sleef_expf_any_layout(layout):
    rng = np.random.default_rng(1)
    base = rng.uniform(-110, 110, (6, 40)).astype(F32)
    x = {"0-d": np.array(-104.0, F32), "empty": np.zeros(0, F32), "empty 2-d": np.zeros((0, 3), F32),
         "transposed": base.T, "sliced": base[::2, 3:31:3], "reversed": base[:, ::-1],
         "3-d": base.reshape(2, 3, 40)}[layout]
    result = _float_math.sleef_expf(x)
    assert type(result) is np.ndarray and result.shape == x.shape
    _assert_bits(result, _oracle_expf(x))


def test_sleef_expf_is_quiet():
    with np.errstate(all="raise"):   # nan -> int32, overflow to inf: expected, not reported
        result = _float_math.sleef_expf(SPECIALS)
    _assert_bits(result, _oracle_expf(SPECIALS))


def test_sleef_expf_matches_pytorchs_sleef():
    """log_sigmoid's buffer is e^-|x| from PyTorch's vector code (SLEEF) on every element."""
    torch = torch_or_skip()
    torch.set_num_threads(1)
    x = np.concatenate([_edge_grid(), _random_floats(200_000, seed=2)[:200_000]])
    x = x[~np.isnan(x)]
    _, buffer = torch.ops.aten.log_sigmoid_forward(torch.tensor(x))
    _assert_bits(_float_math.sleef_expf(-np.abs(x)), buffer.numpy())


@pytest.mark.parametrize("name", ["sigmoid", "silu"])
def test_sigmoid_silu_match_pytorch_on_the_vector_path(name):
    """1 / (1 + e^-x) and x / (1 + e^-x): e^-x over the whole range, overflow and underflow included."""
    torch = torch_or_skip()
    torch.set_num_threads(1)
    x = np.concatenate([_edge_grid(), -_edge_grid(), _random_floats(100_000, seed=3)[:100_000]])
    x = x[: x.size // 32 * 32]   # whole blocks of 32: all of it is vector code in PyTorch
    fm, ft = (minigrad.sigmoid, torch.sigmoid) if name == "sigmoid" else (
        minigrad.nn.functional.silu, torch.nn.functional.silu)
    _assert_bits_nan_equal(fm(minigrad.tensor(x)).numpy(), ft(torch.tensor(x)).numpy())


# ---- sleef_logf -----------------------------------------------------------------------------------------

def test_sleef_logf_is_the_step_by_step_computation():
    """Every exponent, both halves of getmant's range, subnormals, the overflow of d·(1/0.75), specials."""
    rng = np.random.default_rng(4)
    patterns = rng.integers(0, 1 << 32, 1_000_000, dtype=np.uint64).astype(np.uint32).view(F32)
    edges = np.concatenate([np.arange(-300, 300, dtype=np.int64) + F32(t).view(np.int32)
                            for t in (1.0, 1.5, 0.75, 2.0, 2.5e38, 1e-38)]).astype(np.int32).view(F32)
    x = np.concatenate([patterns, edges, SPECIALS, np.arange(1, 5000, dtype=F32)])
    _assert_bits_nan_equal(_float_math.sleef_logf(x), _oracle_logf(x))
    with np.errstate(all="raise"):   # quiet, and any layout
        _assert_bits(_float_math.sleef_logf(np.array(3.0, F32)), _oracle_logf(np.array([3.0], F32))[0])
        assert _float_math.sleef_logf(np.zeros(0, F32)).shape == (0,)


# ---- softmax / log_softmax ------------------------------------------------------------------------------

SHAPES = [(R, n) for R in (1, 2, 3, 33) for n in (*range(1, 41), 100, 129)] + [(128, 10), (2, 1000), (4, 3, 17)]


def _rows_input(shape, kind: str, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if kind == "normal":
        return rng.standard_normal(shape).astype(F32)
    if kind == "wide":   # e^(x - max) underflows to subnormals and 0
        return rng.uniform(-120, 20, shape).astype(F32)
    x = rng.choice(np.array([0.0, -0.0, -0.0, 1.0, -np.inf, 5e-45, -88.0, -104.0], F32), shape)
    return x   # "zeros": signed zeros (sums of -0 only), -inf, subnormals


@pytest.mark.parametrize("kind", ["normal", "wide", "zeros"])
def test_softmax_kernels_are_the_step_by_step_computation(kind):
    for i, shape in enumerate(SHAPES):
        x = _rows_input(shape, kind, i)
        g = _rows_input(shape, kind, i + 1000)
        with np.errstate(all="ignore"):
            y, ly = _oracle_softmax(x), _oracle_log_softmax(x)
            _assert_bits_nan_equal(_softmax_cpu.softmax(x), y)
            _assert_bits_nan_equal(_softmax_cpu.log_softmax(x), ly)
            _assert_bits_nan_equal(_softmax_cpu.softmax_backward(g, y), _oracle_softmax_backward(g, y))
            _assert_bits_nan_equal(_softmax_cpu.log_softmax_backward(g, ly), _oracle_log_softmax_backward(g, ly))


def test_softmax_kernels_on_strided_input():
    base = np.random.default_rng(5).standard_normal((40, 24)).astype(F32)
    for x in (base.T, base[::3, ::2], base[:, ::-1][:, :9]):
        result = _softmax_cpu.log_softmax(x)
        assert result.flags.c_contiguous
        _assert_bits(result, _oracle_log_softmax(np.ascontiguousarray(x)))
        _assert_bits(_softmax_cpu.log_softmax_backward(x, result), _oracle_log_softmax_backward(x, result))


@pytest.mark.parametrize("kind", ["normal", "wide", "zeros"])
def test_softmax_and_backwards_match_pytorch(kind):
    """softmax and log_softmax, and both backwards given PyTorch's own forward result."""
    torch = torch_or_skip()
    torch.set_num_threads(1)
    for i, shape in enumerate(SHAPES):
        x = _rows_input(shape, kind, i)
        g = np.random.default_rng(i).standard_normal(shape).astype(F32)
        tx, tg = torch.tensor(x), torch.tensor(g)
        y, ly = torch.softmax(tx, -1), torch.log_softmax(tx, -1)
        # (nan == nan: rows of -inf only)
        _assert_bits_nan_equal(minigrad.softmax(minigrad.tensor(x), -1).numpy(), y.numpy())
        _assert_bits_nan_equal(minigrad.log_softmax(minigrad.tensor(x), -1).numpy(), ly.numpy())
        expected = torch._log_softmax_backward_data(tg, ly, -1, torch.float32).numpy()
        _assert_bits_nan_equal(_softmax_cpu.log_softmax_backward(g, ly.numpy()), expected)
        expected = torch._softmax_backward_data(tg, y, -1, torch.float32).numpy()
        _assert_bits_nan_equal(_softmax_cpu.softmax_backward(g, y.numpy()), expected)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_cross_entropy_matches_pytorch(seed):
    """The benchmark's shape, forward and gradient."""
    torch = torch_or_skip()
    torch.set_num_threads(1)
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal((128, 10)) * 3).astype(F32)
    target = rng.integers(0, 10, 128)
    tx, mx = torch.tensor(x, requires_grad=True), minigrad.tensor(x, requires_grad=True)
    tl = torch.nn.functional.cross_entropy(tx, torch.tensor(target))
    ml = minigrad.nn.functional.cross_entropy(mx, minigrad.tensor(target))
    tl.backward()
    ml.backward()
    _assert_bits(ml.detach().numpy(), tl.detach().numpy())
    _assert_bits(mx.grad.numpy(), tx.grad.numpy())


# ---- nll_loss's cascade sum -----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_cascade_sum_is_the_kernels_loop(dtype):
    rng = np.random.default_rng(7)
    for n in (1, 2, 15, 16, 17, 18, 33, 128, 255, 256, 257, 258, 300, 4096, 4097, 4113, 5000):
        for terms in (rng.standard_normal(n) * np.exp2(rng.integers(-30, 30, n)),
                      rng.choice([0.0, -0.0], n), -np.abs(rng.standard_normal(n))):
            terms = terms.astype(dtype)
            loop = _loss_sums._cascade_loop(terms, np.zeros(n, bool))   # sample by sample, as in C++
            fast = _loss_sums.cascade_sum(terms)
            assert type(fast) is np.ndarray and fast.shape == () and fast.dtype == dtype
            assert fast.tobytes() == np.asarray(loop).tobytes(), (n, fast, loop)


def test_nll_loss_sum_matches_pytorch():
    torch = torch_or_skip()
    torch.set_num_threads(1)
    rng = np.random.default_rng(8)
    for n in (5, 17, 300, 5000):
        x = (rng.standard_normal((n, 3)) * 1e3).astype(F32)
        t = rng.integers(0, 3, n)
        for reduction in ("sum", "mean"):
            expected = torch.nn.functional.nll_loss(torch.tensor(x), torch.tensor(t), reduction=reduction)
            actual = minigrad.nn.functional.nll_loss(minigrad.tensor(x), minigrad.tensor(t), reduction=reduction)
            _assert_bits(actual.numpy(), expected.numpy())
