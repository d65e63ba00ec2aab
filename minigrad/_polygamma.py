"""digamma, trigamma and polygamma as PyTorch's CPU kernels compute them, step for step.

PyTorch (aten/src/ATen/native/Math.h, from the Cephes library) computes, per element and in the input's
dtype (float16 and bfloat16 through float32):
- ψ(x) (``calc_digamma``): the reflection ψ(x) = ψ(1 - x) - π/tan(πx) for x < 0, the recurrence
  ψ(x) = ψ(x + 1) - 1/x up to x >= 10, then ln x - 1/(2x) - Σ B₂ₖ/(2k x²ᵏ) (a polynomial in 1/x²);
- ψ'(x) (``trigamma``): the reflection for x < 1/2, six recurrence steps, an asymptotic series;
- ψ⁽ⁿ⁾(x), n >= 2 (``calc_polygamma``): (-1)ⁿ⁺¹ n! ζ(n + 1, x), Hurwitz's zeta summed term by term (about
  |x| terms for negative x) and finished with an Euler-Maclaurin tail.
The elementary functions are the C library's (``log``, ``logf``, ``tan``, ``sinf``, ``pow`` ...: NumPy's own
SIMD versions round differently in the last bit), and ``a*b + c`` is fused where PyTorch's compiled kernel
fuses it. The result matches PyTorch bit for bit.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import math

import numpy as np

from ._fused import fma

# ---- the C library's elementary functions, elementwise ---------------------------------------------------

try:
    _LIBM = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
except OSError:  # (no C math library found: Python's math, rounded to float32 where needed)
    _LIBM = None


def _c_function(name: str, c_type, arity: int = 1):
    """The C function ``name`` applied elementwise, or None without a C math library."""
    if _LIBM is None:
        return None
    fn = getattr(_LIBM, name)
    fn.restype, fn.argtypes = c_type, [c_type] * arity
    return np.frompyfunc(fn, arity, 1)


def _python_math(name: str, arity: int = 1):
    """Python's ``math.name`` elementwise: the C library's double function (3x faster than through ctypes),
    but raising where C returns inf or nan (then ``_libm`` asks C itself)."""
    return np.frompyfunc(getattr(math, name), arity, 1)


_NAMES = {"log": 1, "tan": 1, "sin": 1, "pow": 2}
_DOUBLE = {n: (_python_math(n, k), _c_function(n, ctypes.c_double, k)) for n, k in _NAMES.items()}
_FLOAT = {n: (None, _c_function(n + "f", ctypes.c_float, k)) for n, k in _NAMES.items() if n != "tan"}


def _libm(name: str, dtype, *arrays) -> np.ndarray:
    """C's ``name`` (its float version for float32) of the arrays, elementwise, as ``dtype``."""
    if arrays[0].size == 0:
        return np.empty(np.broadcast_shapes(*(a.shape for a in arrays)), dtype)
    fast, exact = (_FLOAT if dtype == np.float32 else _DOUBLE)[name]
    if fast is not None:
        try:
            return np.asarray(fast(*arrays), dtype=np.float64).astype(dtype)
        except (ValueError, OverflowError):  # (log(0), sin(inf), an overflowing pow: C's inf or nan, below)
            pass
    if exact is None:  # no C library: double precision, rounded to the dtype
        with np.errstate(all="ignore"):
            arrays = [a.astype(np.float64) for a in arrays]
            return getattr(np, "power" if name == "pow" else name)(*arrays).astype(dtype)
    return np.asarray(exact(*arrays), dtype=np.float64).astype(dtype)


def _scalar_libm(name: str, value: float, single: bool) -> float:
    """One C function value: ``lgamma``/``exp`` (``lgammaf``/``expf`` when ``single``)."""
    if _LIBM is None:
        v = getattr(math, name)(value)
        return float(np.float32(v)) if single else v
    fn = getattr(_LIBM, name + ("f" if single else ""))
    c_type = ctypes.c_float if single else ctypes.c_double
    fn.restype, fn.argtypes = c_type, [c_type]
    return fn(value)


# ---- digamma -------------------------------------------------------------------------------------

_PSI_10 = 2.25175258906672110764  # ψ(10)
_DIGAMMA_A = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
              -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
              8.33333333333333333333E-2)


def _digamma(x: np.ndarray) -> np.ndarray:
    """``calc_digamma`` on a float32 or float64 array (in that precision)."""
    dt = x.dtype
    one = dt.type(1)
    neg = x < 0
    pole = neg & (x == np.trunc(x))            # ψ(-k) = nan; ψ(±0) = ∓inf
    zero = x == 0
    reflect = neg & ~pole
    # ψ(x) = ψ(1 - x) - π/tan(π r), with r the fractional part of x (in double, also for float32).
    r = np.modf(x[reflect].astype(np.float64))[0]
    cot_term = (np.pi / _libm("tan", np.float64, np.pi * r)).astype(dt)
    y = np.where(reflect, one - x, x)
    y = np.where(zero | pole, dt.type(10), y)
    result = np.zeros_like(y)
    while True:                                # ψ(y) = ψ(y + 1) - 1/y until y >= 10
        small = y < 10
        if not small.any():
            break
        result = np.where(small, result - one / y, result)
        y = np.where(small, y + one, y)
    # ln y - 1/(2y) - z·P(z), z = 1/y² (P's terms once y >= 1e17 are below the last bit). Whether P's
    # multiply-adds are fused makes no difference here: z·P(z) <= 1/100 is far below ln y's last bit.
    z = one / (y * y)
    poly = np.zeros_like(z)
    for c in _DIGAMMA_A:
        poly = poly * z + dt.type(c)
    tail = np.where(y < 1.0e17, z * poly, dt.type(0))
    out = result + _libm("log", dt, y) - dt.type(0.5) / y - tail
    out = np.where(y == 10, result + dt.type(_PSI_10), out)
    out[reflect] -= cot_term
    out[pole] = np.nan
    out[zero] = np.copysign(np.inf, -x[zero])
    return out


# ---- trigamma ------------------------------------------------------------------------------------

def _trigamma(x: np.ndarray) -> np.ndarray:
    """``trigamma`` on a float32 or float64 array (in that precision)."""
    dt = x.dtype
    f = dt.type
    pi = f(math.pi)
    left = x < f(0.5)                          # ψ'(x) = -ψ'(1 - x) + π²/sin²(πx)
    result = np.zeros_like(x)
    sin_pi_x = _libm("sin", dt, pi * x[left])
    result[left] = f(0) - (pi * pi) / (sin_pi_x * sin_pi_x)
    sign = np.where(left, f(-1), f(1))
    x = np.where(left, f(1) - x, x)
    for _ in range(6):                         # ψ'(x) = ψ'(x + 1) + 1/x²
        result = result + f(1) / (x * x)
        x = x + f(1)
    # (1 + 1/(2x) + (1/6 - (1/30 - 1/(42x²))/x²)/x²) / x, with the compiler's fused multiply-adds
    ixx = f(1) / (x * x)
    c6, c30, c42 = (f(1) / f(6), f(1) / f(30), f(1) / f(42)) if dt == np.float32 else (1 / 6, 1 / 30, 1 / 42)
    series = fma(-ixx, fma(-ixx, c42, c30, dt), c6, dt)
    series = fma(ixx, series, f(1) + f(1) / (f(2) * x), dt)
    return sign * (result + series / x)


# ---- polygamma, n >= 2: Hurwitz's zeta --------------------------------------------------------------

_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
           -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
           1.8152105401943546773e17, -7.1661652561756670113e18)
_MACHEP = 1.11022302462515654042E-16
# Terms summed one element at a time (q < -_VECTOR_LEFT), and at most this many (PyTorch's sum runs
# ~|q| steps: hours for q = -1e12 - 0.5; beyond this minigrad answers nan).
_VECTOR_LEFT = 64.0
_MAX_TERMS = 2 ** 24


def _zeta(x: float, q: np.ndarray, scalar_dtype, acc) -> np.ndarray:
    """ζ(x, q) = Σₖ (q + k)⁻ˣ for one integer x >= 3, elementwise in q (PyTorch's ``zeta``).

    ``acc`` is the accumulation dtype (float64 for float32 and float64 inputs, float32 for half precision);
    the first term is C's ``pow`` of the input dtype (``powf`` for float32 and half precision).
    """
    out = np.full(q.shape, np.nan, dtype=acc)
    a = q.astype(acc)
    pole = (a <= 0) & (a == np.floor(a))
    out[pole] = np.inf
    first = np.float32 if scalar_dtype != np.float64 else np.float64
    s = _libm("pow", first, q.astype(first), np.full(q.shape, -x, first)).astype(acc)
    machep = acc(_MACHEP)
    b = np.zeros_like(a)
    todo = ~pole
    far = todo & (a < -_VECTOR_LEFT)
    for k in np.flatnonzero(far):               # ~|q| terms: summed in chunks, one element at a time
        out.flat[k] = _zeta_far(x, a.flat[k], s.flat[k], acc)
    todo &= ~far
    i = 0
    while True:                                 # s += (q + i)⁻ˣ until the term is below s's last bit
        running = todo & ((i < 9) | (a <= 9))
        if not running.any():
            break
        i += 1
        a = np.where(running, a + acc(1), a)
        b = np.where(running, _libm("pow", acc, a, np.full(a.shape, -x, acc)), b)
        s = np.where(running, s + b, s)
        done = running & (-machep * s < b) & (b < machep * s)
        out[done] = s[done]
        todo &= ~done
    # Euler-Maclaurin tail: s + b·w/(x-1) - b/2 + Σ B₂ⱼ terms, stopped when a term is below s's last bit.
    w = a
    s = s + b * w / acc(x - 1)
    s = s - acc(0.5) * b
    term_a, k = np.ones_like(a), acc(0)
    for coefficient in _ZETA_A:
        if not todo.any():
            break
        term_a = term_a * (acc(x) + k)
        b = b / w
        t = term_a * b / acc(coefficient)
        s = np.where(todo, s + t, s)
        done = todo & (np.abs(t / s) < machep)
        out[done] = s[done]
        todo &= ~done
        k = k + acc(1)
        term_a = term_a * (acc(x) + k)
        b = b / w
        k = k + acc(1)
    out[todo] = s[todo]
    return out


def _zeta_far(x: float, q, s, acc):
    """ζ(x, q) for one q far left of zero: its ~|q| terms summed in order (a cumulative sum per chunk)."""
    n_terms = max(9, math.floor(9 - q) + 1)   # the sum stops once i >= 9 and q + i > 9
    if n_terms > _MAX_TERMS:
        return acc(np.nan)
    machep, start = acc(_MACHEP), 1
    while start <= n_terms:
        stop = min(n_terms, start + 2 ** 20 - 1)
        a = q + np.arange(start, stop + 1, dtype=acc)          # (exact: q + i needs no more bits than q)
        b = _libm("pow", acc, a, np.full(a.shape, -x, acc))
        sums = np.cumsum(np.concatenate(([s], b)))[1:]          # s + b₁, (s + b₁) + b₂ ...: in order
        hit = np.flatnonzero((-machep * sums < b) & (b < machep * sums))
        if hit.size:
            return sums[hit[0]]
        s, last_a, last_b, start = sums[-1], a[-1], b[-1], stop + 1
    return _zeta_tail(x, s, last_a, last_b, acc)


def _zeta_tail(x: float, s, w, b, acc):
    """The Euler-Maclaurin tail of ``_zeta`` for one element."""
    machep = acc(_MACHEP)
    s = s + b * w / acc(x - 1)
    s = s - acc(0.5) * b
    term_a, k = acc(1), acc(0)
    for coefficient in _ZETA_A:
        term_a = term_a * (acc(x) + k)
        b = b / w
        t = term_a * b / acc(coefficient)
        s = s + t
        if abs(t / s) < machep:
            return s
        k = k + acc(1)
        term_a = term_a * (acc(x) + k)
        b = b / w
        k = k + acc(1)
    return s


# ---- the entry point ------------------------------------------------------------------------------

def polygamma(n: int, a: np.ndarray) -> np.ndarray:
    """ψ⁽ⁿ⁾ of a floating array, in its dtype, as PyTorch computes it."""
    dtype = a.dtype
    half = dtype not in (np.float32, np.float64)  # float16/bfloat16: computed in float32, then rounded
    x = np.asarray(a, dtype=np.float32 if half else dtype)
    with np.errstate(all="ignore"):
        if n == 0:
            out = _digamma(x)
        elif n == 1:
            out = _trigamma(x)
        else:
            acc = np.float32 if half else np.float64
            zeta = _zeta(float(n + 1), x, x.dtype if not half else np.float16, acc)
            single = x.dtype == np.float32
            factorial = _scalar_libm("exp", _scalar_libm("lgamma", float(n) + 1.0, single), single)
            sign = 1.0 if n % 2 else -1.0
            if single:   # (±1 · n!) · ζ in float, ζ rounded to the input's dtype first
                out = (np.float32(sign) * np.float32(factorial)) * zeta.astype(dtype).astype(np.float32)
            else:
                out = (sign * factorial) * zeta
        return np.asarray(out).astype(dtype)
