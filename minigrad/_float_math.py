"""float32 math as PyTorch's CPU kernels round it, bit for bit where that can be reproduced.

NumPy's float32 ``exp``, ``sin``, ``log10`` ... differ from PyTorch's in the last bit for 5-60% of inputs,
because the two use different approximations. PyTorch computes, for a float32 tensor (AVX-512 build):

- exp, log, log2, log10, sin, cos, tan, asin, acos, atan, tanh, erf, erfc: Intel MKL's vector
  math (high-accuracy mode). It is closed source, but almost correctly rounded, so the float64 result
  rounded once to float32 (``via_float64``) matches it for 90-100% of inputs (sqrt: MKL's float32 sqrt is
  not correctly rounded and no emulation is known here; NumPy's correctly rounded one matches 82%). MKL
  runs on every layout and length (contiguous, strided, 0-d and in-place results agree), so these are a
  function of the value alone (log: 96.7% of values match, exp 99%). (minigrad/_vml.py now calls MKL itself.)
- log1p, expm1: SLEEF's ``log1pf_u10`` / ``expm1f_u10`` on every element (``vml::vlog1p`` maps the vector
  function over the tensor, a partial last vector included): ``sleef_log1pf``, ``sleef_expm1f``, exact.
- pow (``pow_scalar_exponent``, ``pow_float32``): SLEEF's ``powf_u10`` on vector blocks (``sleef_powf``,
  step for step: exact), and on the scalar tail glibc's ``powf`` for two tensors, or ``std::pow(float,
  double)`` (pow in double, the exponent as given) for a tensor ** number.
- sigmoid, silu, softplus, mish, elu, sinh, cosh, atanh, exp2 ... (``cpu_kernel_vec``): SLEEF's vector
  functions on each full block of 2 x 16 floats, and the C library's scalar functions on the rest (the
  last ``n % 32`` elements of a contiguous tensor, of each inner line of a broadcast or row-strided one,
  every element of one strided along its last dim). ``two_paths`` splits a tensor the same way;
  ``sleef_expf``, ``sleef_logf``, ``sleef_log1pf``, ``sleef_tanhf``, ``sleef_expm1f``, ``sleef_exp2f``,
  ``sleef_sinhf``, ``sleef_coshf``, ``sleef_atanhf`` are SLEEF's ``*f_u10`` step for step (the ops built
  with ``libm_two_paths`` without one have the correctly rounded value standing in), ``glibc_expf`` is
  glibc's ``expf`` and ``libm_float`` calls glibc's other float functions (``log1pf`` ...), which are not
  correctly rounded either. The gradients of silu, mish and elu are kernels of their own here too
  (``silu_backward`` ...), with the fused multiply-adds the compiler makes of them.
- logit: the ratio x/(1 - x), then MKL's log of it (float64 too).
- asinh, acosh: glibc's ``asinhf``/``acoshf`` (``asinh``/``acosh`` for float64) on every element.
- float16 and bfloat16: the float32 computation, rounded to the half type.
- float64: the same split with SLEEF's double functions on blocks of 2 x 8 doubles (``sleef_exp64`` for
  sigmoid, ``sleef_exp2_64``, ``sleef_sinh64``, ``sleef_cosh64``, ``sleef_atanh64``; ``sleef_log1p64`` and
  ``sleef_expm1_64`` on every element), with emulated fused multiply-adds (``_fma64``), and glibc's double
  functions (``libm_double``) on the scalar tails. (``sleef_log64``: the log of log_softmax's row sums.)
"""
from __future__ import annotations

import ctypes
import ctypes.util
import math

import numpy as np

from . import _vml
from ._dispatch import _QUIET, _np_errstate

_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)

# PyTorch's vector loop takes 2 vectors of 16 floats (AVX-512) per step; the remainder runs scalar code.
_BLOCK = 32
_BLOCK64 = 16   # (2 vectors of 8 doubles)
# Above this many elements PyTorch splits a tensor across threads (each part has its own scalar tail);
# minigrad treats bigger tensors as one part, so up to 31 elements per extra thread may round differently.
_GRAIN = 32768
# A strided tensor runs scalar code on every element; through ctypes that costs ~0.3 us each, so beyond
# this size the correctly rounded value (the same in ~80-99% of cases) stands in for the C library's.
_CTYPES_LIMIT = 1 << 17


def _is_reduced(dtype) -> bool:
    """float16 or bfloat16 (ml_dtypes' bfloat16 has NumPy kind "V")."""
    return dtype.itemsize == 2 and dtype.kind in "fV"


def via_float64(fn):
    """``fn`` (a ufunc, or a float64 array function) computed in float64 for float32 and half inputs,
    rounded once to float32 (then to the half type): PyTorch's nearly correctly rounded value."""
    ufunc = fn if isinstance(fn, np.ufunc) else None

    def forward(x, *rest):
        dt = x.dtype
        if dt != _F32 and not _is_reduced(dt):
            return fn(x, *rest)  # float64 and complex as before; integers never reach here
        if ufunc is not None:
            r = ufunc(x, *rest, signature=(_F64,) * (1 + len(rest) + 1))
        else:
            r = fn(x.astype(_F64), *(a.astype(_F64) for a in rest))
        r = r.astype(_F32)
        return r if dt == _F32 else r.astype(dt)
    forward.__name__ = getattr(fn, "__name__", "forward")
    forward.__doc__ = f"{forward.__name__}, rounded as PyTorch's float32 kernel (see minigrad/_float_math.py)."
    return forward


def in_float32(fn, bfloat16_only: bool = False):
    """``fn`` computed in float32 for half inputs and rounded back (PyTorch's opmath type for halves);
    ``bfloat16_only``: float16 keeps NumPy's float16 arithmetic (rounded after each step, as some kernels do)."""
    def forward(x, *rest):
        if not _is_reduced(x.dtype) or (bfloat16_only and x.dtype.kind == "f"):
            return fn(x, *rest)
        return fn(x.astype(_F32), *(a.astype(_F32) if isinstance(a, np.ndarray) else a for a in rest)).astype(x.dtype)
    return forward


def for_float32(kernel, other, halves=None):
    """``kernel`` for float32, ``other`` for every other dtype; float16/bfloat16 through float32 and rounded
    back, with ``halves`` (default: ``kernel``), or by ``other`` itself when ``halves`` is False."""
    half_kernel = kernel if halves is None else halves

    def forward(x, *args, **kwargs):
        dt = x.dtype
        if dt == _F32:
            return kernel(x, *args, **kwargs)
        if _is_reduced(dt) and half_kernel is not False:
            kernel_ = half_kernel
            args = tuple(a.astype(_F32) if isinstance(a, np.ndarray) and a.dtype == dt else a for a in args)
            return kernel_(x.astype(_F32), *args, **kwargs).astype(dt)
        return other(x, *args, **kwargs)
    return forward


def libm_two_paths(name: str, np64, arity: int = 1, vector32=None, vector64=None):
    """A ``cpu_kernel_vec`` op whose vector code is SLEEF's and scalar code glibc's ``<name>f``: ``vector32``
    (SLEEF's function step for step) on the vector path, or the correctly rounded value standing in (both
    are within an ulp), glibc's own function for the scalar path. float64: ``vector64`` (SLEEF's double
    function; NumPy's value if not given) on blocks of 2 x 8 doubles, glibc's ``<name>`` on the rest."""
    vector, scalar = vector32 or correctly_rounded(np64), libm_float(name + "f", np64, arity)
    vector64, scalar64 = vector64 or np64, libm_double(name, np64, arity)
    other = lambda *xs: (two_paths(vector64, scalar64, *xs, block=_BLOCK64) if xs[0].dtype == _F64 else np64(*xs))
    return for_float32(lambda *xs: two_paths(vector, scalar, *xs), other)


def libm_op(name: str, np64):
    """An op that PyTorch computes with glibc's ``<name>f`` (``<name>`` for float64) on every element
    (asinh, acosh)."""
    scalar64 = libm_double(name, np64)
    return for_float32(libm_float(name + "f", np64), lambda x: scalar64(x) if x.dtype == _F64 else np64(x))


def or_float64(kernel64, other):
    """``kernel64`` for float64 arrays, ``other`` for the rest (further arguments passed on)."""
    return lambda x, *args, **kwargs: kernel64(x, *args, **kwargs) if x.dtype == _F64 else other(x, *args, **kwargs)


def correctly_rounded(np64):
    """``np64`` in float64 rounded to float32: the C library's float function, up to its rare misroundings."""
    return lambda *xs: np64(*(x.astype(_F64) for x in xs)).astype(_F32)


def tanh_backward(g, y):
    """g·(1 - y²) with 1 - y² rounded once: PyTorch's compiled kernel fuses it into one multiply-add."""
    if y.dtype == _F32:  # (a float32 square is exact in float64: one rounding, at the end)
        if y.ndim:
            # y cast once, then squared and subtracted in place (np.multiply(y, y, dtype=float64) casts
            # both operands through buffers); the product by g written over the rounded 1 - y²
            s = y.astype(_F64)
            s *= s
            np.subtract(1.0, s, out=s)
            r = s.astype(_F32)
            if r.shape == g.shape and g.dtype == _F32:
                return np.multiply(g, r, out=r)  # (g first, as before: with two NaNs, the first one's payload)
            return g * r
        return g * (1.0 - np.multiply(y, y, dtype=_F64)).astype(_F32)  # (0-dim: NumPy scalars, no out=)
    from ._fused import fma
    return g * fma(-y, y, 1, y.dtype)


# ---- the C library's float functions ----------------------------------------------------------------------

try:
    _LIBM = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
except OSError:  # (no C math library: the correctly rounded value stands in)
    _LIBM = None


def libm_float(name: str, np64, arity: int = 1):
    """glibc's float function ``name`` (``log1pf`` ...) elementwise, as PyTorch's scalar code calls it;
    ``np64`` rounded to float32 where there is no C library or the array is large (see _CTYPES_LIMIT)."""
    fallback = (lambda *xs: np64(*(x.astype(_F64) for x in xs)).astype(_F32))
    if _LIBM is None:
        return fallback
    c_fn = getattr(_LIBM, name)
    c_fn.restype, c_fn.argtypes = ctypes.c_float, [ctypes.c_float] * arity
    each = np.frompyfunc(c_fn, arity, 1)

    def call(*xs):
        size = max(x.size for x in xs)
        if size > _CTYPES_LIMIT or size == 0:
            return fallback(*xs)
        return np.asarray(each(*xs), dtype=_F64).astype(_F32)
    return call


# glibc's expf (2.27 and later: a 32-entry table of 2^(i/32) and a cubic, in double precision), which PyTorch's
# scalar code calls (std::exp). It is not correctly rounded: about 1 result in 1500 is the other neighbour.
_EXP2F_TABLE = np.array([   # bits of 2^(i/32), less i << 47
    0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51, 0x3fef72b83c7d517b,
    0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1, 0x3fef06fe0a31b715, 0x3feef1a7373aa9cb,
    0x3feedea64c123422, 0x3feece086061892d, 0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429,
    0x3feea47eb03a5585, 0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
    0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d, 0x3feee89f995ad3ad,
    0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069, 0x3fef5818dcfba487, 0x3fef7c97337b9b5f,
    0x3fefa4afa2a490da, 0x3fefd0765b6e4540], np.uint64)
_EXPF_32_OVER_LN2 = np.array(float.fromhex("0x1.71547652b82fep+0") * 32)
_EXPF_SHIFT = np.array(float.fromhex("0x1.8p+52"))   # adding it rounds to an integer, kept in the low bits
_EXPF_CUBIC = tuple(np.array(float.fromhex(c) / 32 ** k) for c, k in (
    ("0x1.c6af84b912394p-5", 3), ("0x1.ebfce50fac4f3p-3", 2), ("0x1.62e42ff0c52d6p-1", 1)))
_EXPF_CLAMP = np.array(-104, _F32), np.array(89, _F32)   # e^x is 0 below, inf above, as glibc returns
_U64_31, _U64_47 = np.array(31, np.uint64), np.array(47, np.uint64)


def libm_double(name: str, np64, arity: int = 1):
    """glibc's double function ``name`` elementwise (float64 arrays); ``np64`` where there is no C library or
    the array is large (see _CTYPES_LIMIT)."""
    if _LIBM is None:
        return np64
    c_fn = getattr(_LIBM, name)
    c_fn.restype, c_fn.argtypes = ctypes.c_double, [ctypes.c_double] * arity
    each = np.frompyfunc(c_fn, arity, 1)

    def call(*xs):
        size = max(x.size for x in xs)
        if size > _CTYPES_LIMIT or size == 0:
            return np64(*xs)
        return np.asarray(each(*xs), dtype=_F64)
    call.c_function = c_fn   # (for callers looping over Python floats)
    return call


def glibc_expf(x: np.ndarray) -> np.ndarray:
    """glibc's ``expf`` on float32, step for step: e^x = 2^(k/32)·2^(r/32), k = round(32x/ln2), r the rest,
    2^(r/32) ≈ 1 + c2·r + c1·r² + c0·r³. Equal to glibc 2.36's on every float but 2 (x = 0x1.04845ep+5 and
    -0x1.f8cbb2p+5, which its fused multiply-adds round the other way)."""
    token = _np_errstate.set(_QUIET)
    try:
        z = np.maximum(np.minimum(x, _EXPF_CLAMP[1]), _EXPF_CLAMP[0]).astype(_F64)   # (nan stays nan)
        z *= _EXPF_32_OVER_LN2
        kd = z + _EXPF_SHIFT
        ki = kd.view(np.uint64)                           # k in the low bits
        z -= kd - _EXPF_SHIFT                             # r, |r| <= 1/2
        scale = (_EXP2F_TABLE.take(ki & _U64_31) + (ki << _U64_47)).view(_F64)   # 2^(k/32)
        y = _EXPF_CUBIC[2] * z
        y += 1
        p = _EXPF_CUBIC[0] * z
        p += _EXPF_CUBIC[1]
        z *= z
        p *= z
        y += p
        y *= scale
        return y.astype(_F32)
    finally:
        _np_errstate.reset(token)


# ---- SLEEF's vector functions ------------------------------------------------------------------------------

def _fma(a, b, c):
    """float32 a*b + c rounded once (the product of two floats is exact in float64)."""
    return np.add(np.multiply(a, b, dtype=_F64), c, dtype=_F64).astype(_F32)


_LOG2E = np.float32(1.442695040888963407359924681001892137426645954152985934135449406931)
_LN2_HI, _LN2_LO = np.float32(0.693145751953125), np.float32(1.428606765330187045e-06)
_EXPF_POLY = tuple(np.float32(c) for c in (
    0.000198527617612853646278381, 0.00139304355252534151077271, 0.00833336077630519866943359,
    0.0416664853692054748535156, 0.166666671633720397949219, 0.5))
_EXPF_POLY64 = tuple(np.float64(c) for c in _EXPF_POLY)
_NEG_LN2_HI, _NEG_LN2_LO64 = -_LN2_HI, np.float64(-_LN2_LO)
# The same constants as 0-d arrays, for the NumPy calls below (~0.3 us less per call than a NumPy scalar)
_LOG2E_0D, _NEG_LN2_HI_0D, _NEG_LN2_LO64_0D, _ONE_F32_0D = map(np.array, (_LOG2E, _NEG_LN2_HI, _NEG_LN2_LO64,
                                                                        np.float32(1)))
_EXPF_POLY64_0D = tuple(map(np.array, _EXPF_POLY64))
# e^d rounds to 0 below -103.97 (SLEEF returns 0 below -104 anyway) and to inf above 88.73, so clamping d to
# ±110 changes no result; it keeps q small: an int32, and within ldexp's range.
_EXPF_LOW, _EXPF_HIGH = np.float32(-110), np.float32(110)
_I32 = np.dtype(np.int32)


def sleef_expf(d: np.ndarray) -> np.ndarray:
    """SLEEF's ``expf_u10`` (AVX-512, fused multiply-adds), step for step, on float32."""
    d = np.asarray(d, _F32)
    if d.ndim == 0:   # (a ufunc returns a number for a 0-d array, and out= below needs arrays)
        return sleef_expf(d.reshape(1)).reshape(())
    # Each fma is done as in _fma (float64 product and sum, rounded once to float32), into buffers reused
    # from step to step: ~25 NumPy calls in all (out= is passed positionally: ~50 ns less per call).
    # Warnings off: nan casts to int32 and overflows to inf are expected.
    token = _np_errstate.set(_QUIET)
    try:
        # (not d.clip: ndarray.clip runs NumPy's Python wrapper, _methods._clip; NaN passes both alike)
        x = np.maximum(d, _EXPF_LOW)
        np.minimum(x, _EXPF_HIGH, out=x)
        qf = np.multiply(x, _LOG2E_0D)
        np.rint(qf, qf)                              # e^d = 2^q · e^s, |s| <= ln2/2
        q = qf.astype(_I32)
        # s = d - q·ln2 in two parts (Cody-Waite). The first fma is exact, so float32 arithmetic gives its
        # value: q·ln2_hi fits in 24 bits (|q| < 2^8, ln2_hi has 16) and so does d - q·ln2_hi (|it| < 1/2,
        # a multiple of 2^-25 when q != 0).
        s = np.multiply(qf, _NEG_LN2_HI_0D)
        np.add(s, x, s)
        p = np.multiply(qf, _NEG_LN2_LO64_0D)
        np.add(p, s, p)
        s = p.astype(_F32)
        s64 = s.astype(_F64)
        np.multiply(s64, _EXPF_POLY64_0D[0], p)      # Horner: e^s ≈ 1 + s + s²·u(s)
        np.add(p, _EXPF_POLY64_0D[1], p)
        for c in _EXPF_POLY64_0D[2:]:
            u64 = p.astype(_F32).astype(_F64)        # (each step rounded to float32; all float64 arrays:
            np.multiply(u64, s64, p)                 # NumPy's mixed-type loops are slower)
            np.add(p, c, p)
        u = p.astype(_F32)
        np.multiply(np.multiply(s, s), u, p, dtype=_F64)
        np.add(p, s64, u)
        np.add(u, _ONE_F32_0D, u)
        # u·2^q, rounded once (as SLEEF's u·2^(q/2)·2^(q - q/2): the first product is exact)
        return np.ldexp(u, q, u)
    finally:
        _np_errstate.reset(token)


# SLEEF's logf_u10 (``Sleef_logf16_u10``, which Vectorized<float>::log() calls). It runs on row sums (a few
# hundred values), where NumPy's cost is per call: ~0.3 us with 0-d array constants, ~0.6 us with NumPy scalars.
_LOGF_POLY = tuple(np.array(c, _F64) for c in np.array([0.3027294874, 0.3996108174, 0.6666694880], _F32))
_ONE_0D, _THREE_QUARTERS_0D, _ONE64_0D = np.array(1, _F32), np.array(0.75, _F32), np.array(1.0)


def _ln2_times_exponents() -> np.ndarray:
    """e·ln2 as SLEEF's float pair (``dfmul`` of ln2's pair by e), hi + i·lo, for every exponent e of a
    float32, -150..128, at index e mod 512 (so that a negative e indexes it as it is)."""
    e = np.arange(-150, 129).astype(_F32)
    ln2_hi, ln2_lo = np.float32(0.69314718246459960938), np.float32(-1.904654323148236017e-09)
    hi = ln2_hi * e
    lo = _fma(ln2_lo, e, _fma(ln2_hi, e, -hi))   # (the inner fma is exact: the product's rounding error)
    table = np.zeros(512, np.complex64)
    table[e.astype(np.int64) % 512] = hi + 1j * lo.astype(np.complex64)
    return table


_LN2_TIMES_E = _ln2_times_exponents()


def sleef_logf(d: np.ndarray, positive: bool = False) -> np.ndarray:
    """SLEEF's ``logf_u10`` (AVX-512 code: getexp/getmant, fused multiply-adds), step for step, on float32.

    log d = e·ln2 + log m with d = m·2^e, m in [0.75, 1.5); log m = 2·atanh(x), x = (m - 1)/(m + 1), in
    double-float arithmetic (pairs hi + lo of floats): 2x + x³·p(x²). Checked against PyTorch's
    log_softmax, whose row sums go through it, on every float in [1, 16). ``positive``: the caller knows
    that every d is positive and finite, or nan (a row sum), which skips the test for 0, < 0 and inf.
    """
    d = np.asarray(d, _F32)
    token = _np_errstate.set(_QUIET)
    try:
        mant, exp = np.frexp(d)                     # d = mant·2^exp, mant in [0.5, 1)
        low = mant < _THREE_QUARTERS_0D             # getmant's [0.75, 1.5): mant·2, one exponent less
        m = np.ldexp(mant, low).astype(_F64)        # (getexp(d·(1/0.75)) picks the same e, rounding included)
        ln2_e = _LN2_TIMES_E.take(exp - low)        # e·ln2 as a pair
        sx, sy = ln2_e.real, ln2_e.imag
        # x = (m - 1)/(m + 1) as a pair qx + qy (dfdiv of dfadd2 pairs). m - 1 is exact, so its pair's low
        # part is 0, and so is m + 1 = dx + dy in float64. The fused multiply-adds are done in float64 too:
        # there a product of two floats is exact.
        n64 = m - _ONE64_0D
        d64 = m + _ONE64_0D
        t = _ONE_0D / d64.astype(_F32)              # 1/dx
        t64 = t.astype(_F64)
        n64 *= t64                                  # nx·t
        qx = n64.astype(_F32)
        n64 -= qx                                   # u = nx·t - qx (exact)
        d64 *= t64
        v = (_ONE64_0D - d64).astype(_F32).astype(_F64)   # 1 - dx·t - dy·t (exact before this rounding)
        v *= qx
        v += n64
        qy = v.astype(_F32)                         # qx·v + u, rounded once
        x2 = qx * qx
        p64 = x2.astype(_F64)                       # p(x²) by Horner, each step a fused multiply-add
        poly = (_LOGF_POLY[0] * p64 + _LOGF_POLY[1]).astype(_F32).astype(_F64)
        poly *= p64
        poly += _LOGF_POLY[2]
        poly = poly.astype(_F32)
        w = x2 * qx * poly                          # x³·p(x²)
        qx += qx                                    # e·ln2 + 2x (dfscale, dfadd)
        qy += qy
        rx = sx + qx
        ry = (((sx - rx) + qx) + sy) + qy
        sx = rx + w                                 # + x³·p(x²) (dfadd of a float), then the pair's sum
        r = sx + (((rx - sx) + w) + ry)
        if not positive and d.size and not np.max(x2) < 1:   # |x| < 0.2 unless d <= 0, inf or nan
            r = np.where(d == 0, np.float32(-np.inf), r)          # vfixup's cases
            r = np.where(d < 0, np.float32(np.nan), r)
            r = np.where(np.isposinf(d), np.float32(np.inf), r)
            r = np.where(np.isnan(d), d, r)
        return r
    finally:
        _np_errstate.reset(token)


# ---- PyTorch's vector / scalar split ---------------------------------------------------------------------

def _vector_ok(x: np.ndarray, shape) -> bool:
    """Whether PyTorch's vector loop reads this operand: contiguous at the output's shape, or one number
    (also one number expanded, all strides 0, as the gradient of a sum is: TensorIterator reads it as one)."""
    return x.size == 1 or (x.shape == shape and x.flags.c_contiguous) or not any(x.strides)


def two_paths(vector, scalar, *xs: np.ndarray, block: int = _BLOCK) -> np.ndarray:
    """``cpu_kernel_vec``: ``vector`` on whole blocks of a contiguous tensor, ``scalar`` on the rest.

    PyTorch's loop runs its vector code on blocks of 32 floats and its scalar code on the remaining
    ``n % 32`` elements (in memory order), or on every element when an operand is strided (``block``: 16
    for float64).
    """
    shape = np.broadcast_shapes(*(x.shape for x in xs))
    if len(shape) > 1 and all(x.shape == shape and not x.flags.c_contiguous for x in xs):
        # dense permutations (transposes, permute(): all of them alike): TensorIterator walks memory order,
        # their dims sorted by stride in C order
        order = sorted(range(len(shape)), key=lambda d: -xs[0].strides[d])
        moved = [x.transpose(order) for x in xs]
        if all(m.flags.c_contiguous for m in moved):
            return two_paths(vector, scalar, *moved, block=block).transpose(np.argsort(order))
    n = int(np.prod(shape))
    tail = n % block
    if n == tail:
        return scalar(*xs)
    if not all(_vector_ok(x, shape) for x in xs):
        return _by_lines(vector, scalar, shape, xs, block)
    out = np.ascontiguousarray(vector(*xs))
    if tail:
        flat = out.reshape(-1)
        flat[n - tail:] = scalar(*(x.reshape(-1)[n - tail:] if x.size == n else x for x in xs))
    return out


def _line_length(shape: tuple, xs: tuple) -> int:
    """The length of TensorIterator's inner loop when every operand is contiguous or broadcast (stride 0)
    along it: the trailing dims (of size > 1, in C order) that coalesce for every operand; 0 when an operand
    is strided there (then PyTorch's scalar loop runs on every element)."""
    dims = [d for d in range(len(shape)) if shape[d] != 1]
    if not dims:
        return 0
    strides = [np.broadcast_to(x, shape).strides for x in xs]
    last = dims[-1]
    if any(st[last] not in (0, x.itemsize) for st, x in zip(strides, xs)):
        return 0
    length, inner = shape[last], last
    for d in reversed(dims[:-1]):
        if any(st[d] != st[inner] * shape[inner] for st in strides):
            break
        length, inner = length * shape[d], d
    return length


def _by_lines(vector, scalar, shape: tuple, xs: tuple, block: int = _BLOCK) -> np.ndarray:
    """``two_paths`` of broadcast or row-strided operands: vector blocks on each inner line, scalar tails."""
    length = _line_length(shape, xs)
    if length < block:
        return scalar(*xs)
    v = vector(*xs)
    out = np.empty(shape, v.dtype)
    out[...] = v
    start = length - length % block
    if start < length:
        lines = out.reshape(-1, length)
        lines[:, start:] = scalar(*(np.broadcast_to(x, shape).reshape(-1, length)[:, start:] for x in xs))
    return out


# ---- PyTorch's float32 kernels (vector path, scalar path) -----------------------------------------------

_ONE = np.float32(1)
_exp = glibc_expf
_log1pf = libm_float("log1pf", np.log1p)
_tanhf = libm_float("tanhf", np.tanh)
_expm1f = libm_float("expm1f", np.expm1)


def sigmoid(x):
    """1 / (1 + e^-x)."""
    return two_paths(lambda v: _ONE / (_ONE + sleef_expf(-v)), lambda v: _ONE / (_ONE + _exp(-v)), x)


def silu(x):
    """x / (1 + e^-x)."""
    return two_paths(lambda v: v / (_ONE + sleef_expf(-v)), lambda v: v / (_ONE + _exp(-v)), x)


def _silu_backward_with(exp):
    def kernel(g, x):
        s = _ONE / (_ONE + exp(-x))
        return g * s * _fma(x, _ONE - s, _ONE)
    return kernel


def silu_backward(g, x):
    """PyTorch's silu_backward kernel: g·σ·(1 + x(1 - σ)), σ = 1/(1 + e^-x), with 1 + x(1 - σ) one fused
    multiply-add (the compiler contracts it, in the vector and the scalar code alike)."""
    return two_paths(_silu_backward_with(sleef_expf), _silu_backward_with(_exp), g, x)


def softplus(x, beta: float, threshold: float):
    """log1p(e^(βx)) / β, and x where βx > threshold (β and the threshold rounded to float32)."""
    b, t = np.float32(beta), np.float32(threshold)
    vec = lambda v: sleef_log1pf(sleef_expf(v * b)) / b
    return np.where(x * b > t, x, two_paths(vec, lambda v: _log1pf(_exp(v * b)) / b, x))


def mish(x):
    """x · tanh(log1p(e^x))."""
    vec = lambda v: v * sleef_tanhf(sleef_log1pf(sleef_expf(v)))
    return two_paths(vec, lambda v: v * _tanhf(_log1pf(_exp(v))), x)


def _mish_backward_with(exp, log1p, tanh):
    def kernel(g, x):
        s = _ONE / (_ONE + exp(-x))
        t = tanh(log1p(exp(x)))
        return g * _fma(x * s, _fma(-t, t, _ONE), t)
    return kernel


def mish_backward(g, x):
    """PyTorch's mish_backward kernel: g·(t + x·σ·(1 - t²)), t = tanh(log1p(e^x)), σ = 1/(1 + e^-x), with
    1 - t² and t + (x·σ)·(1 - t²) fused multiply-adds (the compiler contracts both, vector and scalar code).
    (SLEEF's log1pf and tanhf on the vector path, step for step: ``sleef_log1pf``, ``sleef_tanhf``.)"""
    vector = _mish_backward_with(sleef_expf, sleef_log1pf, sleef_tanhf)
    return two_paths(vector, _mish_backward_with(_exp, _log1pf, _tanhf), g, x)


def elu(x, alpha: float, scale: float, input_scale: float):
    """x·scale for x > 0, else expm1(x·input_scale)·(α·scale), the coefficients in x's type (float32 or
    float64: SLEEF's expm1 on vector blocks, glibc's on the rest)."""
    f = x.dtype.type
    neg, pos, inp = f(alpha) * f(scale), f(scale), f(input_scale)
    vector, scalar, block = (sleef_expm1f, _expm1f, _BLOCK) if f is np.float32 else (sleef_expm1_64, _expm1_64,
                                                                                        _BLOCK64)
    em1 = two_paths(lambda v: vector(np.minimum(v, 0) * inp), lambda v: scalar(np.minimum(v, 0) * inp), x,
                    block=block)
    return np.where(x > 0, x * pos, em1 * neg)


def elu_backward(g, x, alpha: float, scale: float, input_scale: float, is_result: bool):
    """PyTorch's elu_backward kernel: g·scale for x > 0, else g·input_scale·(α·scale)·e^(x·input_scale), or
    from the result y (in-place elu_) g·input_scale·(y + α·scale); the coefficients in x's type. (Its vector
    code tests x > 0 and its scalar code x <= 0: they part only on nan.)"""
    f = x.dtype.type   # (float32 or float64)
    neg, pos, inp = f(alpha) * f(scale), f(scale), f(input_scale)
    vector_exp, scalar_exp, block = (sleef_expf, _exp, _BLOCK) if f is np.float32 else (sleef_exp64, _exp64,
                                                                                       _BLOCK64)

    def kernel(exp, vector: bool):
        def run(a, b):
            negative = a * inp * (b + neg) if is_result else a * inp * neg * exp(b * inp)
            return np.where(b > 0, a * pos, negative) if vector else np.where(b <= 0, negative, a * pos)
        return run
    return two_paths(kernel(vector_exp, True), kernel(scalar_exp, False), g, x, block=block)


_GELU_BETA = np.float32(np.sqrt(2.0) * (2 / np.sqrt(np.pi)) * 0.5)  # √(2/π), as M_SQRT2 · M_2_SQRTPI / 2
_GELU_KAPPA = np.float32(0.044715)
_HALF = np.float32(0.5)


def gelu_tanh(x):
    """x/2 · (1 + tanh(√(2/π)(x + 0.044715x³))); the compiler fuses x + 0.044715x³ into one fma."""
    inner = lambda v: _GELU_BETA * _fma(_GELU_KAPPA, v * v * v, v)
    t = two_paths(lambda v: sleef_tanhf(inner(v)), lambda v: _tanhf(inner(v)), x)
    return _HALF * x * (_ONE + t)


_ERF_P = np.float32(0.3275911)
_ERF_POLY = tuple(np.float32(c) for c in (1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592))


def vec_erf(x):
    """PyTorch's own vector erf (Abramowitz-Stegun 7.1.26), which its float16/bfloat16 erf and gelu use:
    sign(x)·(1 - r(t)·t·e^(-x²)), t = 1/(1 + p|x|), r a quartic."""
    a = np.abs(x)
    t = _ONE / _fma(_ERF_P, a, _ONE)
    r = _ERF_POLY[0]
    for c in _ERF_POLY[1:]:
        r = _fma(r, t, c)
    e = sleef_expf(-(x * x))
    return np.copysign(_fma(-e * t, r, _ONE), x)


_SQRT1_2 = np.float32(np.sqrt(0.5))


def gelu_half(x):
    """gelu of float16/bfloat16 values (given as float32): x/2 · (1 + erf(x/√2)) with PyTorch's vector erf."""
    return x * _HALF * (_ONE + vec_erf(x * _SQRT1_2))


def logit(x, eps=None):
    """log(x / (1 - x)), inf at 1; x first clamped to [eps, 1 - eps] when eps is given. float32 and float64,
    as measured against PyTorch: MKL's log of the ratio on a dense tensor (any length), the C library's
    log (``logf``) on every element of a strided one."""
    log = _mkl_log if _is_dense(x) else (_logf if x.dtype == _F32 else _log64)
    one = x.dtype.type(1)
    if eps is not None:
        lo = x.dtype.type(eps)
        x = np.clip(x, lo, one - lo)
    token = _np_errstate.set(_QUIET)
    try:
        log_ratio = log(x / (one - x))
    finally:
        _np_errstate.reset(token)
    return np.where(x == 1, x.dtype.type(np.inf), log_ratio)


def _is_dense(x: np.ndarray) -> bool:
    """Whether x's elements fill its memory without gaps, in some order of its dims (a transpose is dense)."""
    size = x.itemsize
    for stride, n in sorted((abs(st), n) for st, n in zip(x.strides, x.shape) if n != 1):
        if stride != size:
            return False
        size *= n
    return True


_logf = libm_float("logf", np.log)
_log64 = libm_double("log", np.log)
_mkl_log = _vml.unary("log", lambda x: correctly_rounded(np.log)(x) if x.dtype == _F32 else np.log(x))


# ---- pow (PyTorch's pow_tensor_scalar_optimized_kernel and pow_tensor_tensor_kernel) ----------------------

_F64_PAIR = (_F64, _F64, _F64)


def _pow64(x, y) -> np.ndarray:
    """x**y computed in float64, rounded once to float32."""
    return np.power(x, y, signature=_F64_PAIR).astype(_F32)


def pow_scalar_exponent(x: np.ndarray, exponent: float) -> np.ndarray:
    """float32 ``x ** exponent`` (a number other than 2, 3, -2, ±0.5, -1): the vector code calls SLEEF's
    powf with the exponent rounded to float32, the scalar code ``std::pow(float, double)``, which is pow in
    double precision with the exponent as given."""
    e32, e64 = np.float32(exponent), float(exponent)
    return two_paths(lambda v: sleef_powf(v, e32), lambda v: _pow64(v, e64), x)


_powf = libm_float("powf", np.power, 2)


def pow_float32(x, y) -> np.ndarray:
    """float32 ``x ** y`` of two tensors (or a number, as a float32, and a tensor): SLEEF's powf on the
    vector path, glibc's powf on the scalar path."""
    return two_paths(sleef_powf, _powf, np.asarray(x, _F32), np.asarray(y, _F32))


# SLEEF's powf_u10 (``Sleef_powf16_u10``, which Vectorized<float>::pow calls): e^(y·log|x|) with log|x| and
# the product as double-float pairs (hi, lo) of float32 (SLEEF's df.h, its fused multiply-add variants).

def _fms(a, b, c):
    """a·b - c, rounded once (c = a·b rounded: this is the product's exact rounding error)."""
    return (np.multiply(a, b, dtype=_F64) - c).astype(_F32)


def _dfmul_f(x, y):
    """A pair times a float: dfmul_vf2_vf2_vf."""
    s = x[0] * y
    return s, _fma(x[1], y, _fms(x[0], y, s))


def _dfmul(x, y):
    """A pair times a pair: dfmul_vf2_vf2_vf2."""
    s = x[0] * y[0]
    return s, _fma(x[0], y[1], _fma(x[1], y[0], _fms(x[0], y[0], s)))


def _dfadd(x, y):
    """dfadd_vf2_vf2_vf2 (|x| >= |y|)."""
    s = x[0] + y[0]
    return s, (((x[0] - s) + y[0]) + x[1]) + y[1]


def _dfadd2(x, y):
    """dfadd2_vf2_vf2_vf2 (any magnitudes); y[1] may be None (dfadd2_vf2_vf2_vf)."""
    s = x[0] + y[0]
    v = s - x[0]
    t = (x[0] - (s - v)) + (y[0] - v)
    return s, t + (x[1] if y[1] is None else x[1] + y[1])


_LOGKF_T = tuple(np.float32(c) for c in (0.240320354700088500976562, 0.285112679004669189453125,
                                         0.400007992982864379882812))
_LOGKF_C = (np.float32(0.66666662693023681640625), np.float32(3.69183861259614332084311e-09))
_LN2_PAIR = (np.float32(0.69314718246459960938), np.float32(-1.904654323148236017e-09))
_EXPKF_U = tuple(np.float32(c) for c in (0.00136324646882712841033936, 0.00836596917361021041870117,
                                         0.0416710823774337768554688, 0.166665524244308471679688,
                                         0.499999850988388061523438))
_NEG_L2L_0D = np.array(-1.428606765330187045e-06, _F32)
# (0-d arrays: ~0.3 us less per NumPy call than NumPy scalars, and these functions make ~170 calls)
_LOGKF_T, _LOGKF_C, _LN2_PAIR, _EXPKF_U = (tuple(map(np.array, c)) for c in (_LOGKF_T, _LOGKF_C, _LN2_PAIR, _EXPKF_U))


def _logkf(d):
    """log d as a pair, d > 0 (SLEEF's logkf): e·ln2 + 2x + x³·(c + x²·t(x²)), x = (m - 1)/(m + 1)."""
    mant, exp = np.frexp(d)
    low = mant < _THREE_QUARTERS_0D
    m = np.ldexp(mant, low)                  # getmant: [0.75, 1.5)
    e = (exp - low).astype(_F32)             # getexp(d / 0.75)
    n = _dfadd2_ff(-_ONE_0D, m)
    dd = _dfadd2_ff(_ONE_0D, m)
    t = _ONE_0D / dd[0]                         # dfdiv
    s = n[0] * t
    u = _fms(t, n[0], s)
    v = _fma(-dd[1], t, _fma(-dd[0], t, _ONE_0D))
    x = s, _fma(s, v, _fma(n[1], t, u))
    s2 = x[0] * x[0]                         # dfsqu
    x2 = s2, _fma(x[0] + x[0], x[1], _fms(x[0], x[0], s2))
    p = _fma(_fma(_LOGKF_T[0], x2[0], _LOGKF_T[1]), x2[0], _LOGKF_T[2])
    r = _dfadd(_dfmul_f(_LN2_PAIR, e), (x[0] * _TWO, x[1] * _TWO))
    return _dfadd(r, _dfmul(_dfmul(x2, x), _dfadd2(_dfmul_f(x2, p), _LOGKF_C)))


def _dfadd2_ff(x, y):
    """dfadd2_vf2_vf_vf: x + y as a pair."""
    s = x + y
    v = s - x
    return s, (x - (s - v)) + (y - v)


_TWO = np.array(2, _F32)


def _expkf(d):
    """e^d of a pair d (SLEEF's expkf), 0 below -104."""
    q = np.rint((d[0] + d[1]) * _LOG2E_0D)
    s = _dfadd2(d, (q * _NEG_LN2_HI_0D, None))
    s = _dfadd2(s, (q * _NEG_L2L_0D, None))
    hi = s[0] + s[1]                         # dfnormalize
    s = hi, (s[0] - hi) + s[1]
    u = _EXPKF_U[0]
    for c in _EXPKF_U[1:]:
        u = _fma(u, s[0], c)
    sq = s[0] * s[0]
    t = _dfadd(s, _dfmul_f((sq, _fma(s[0] + s[0], s[1], _fms(s[0], s[0], sq))), u))
    one = _ONE_0D + t[0]                        # dfadd_vf2_vf_vf2(1, t)
    r = one + (((_ONE_0D - one) + t[0]) + t[1])
    r = _sleef_ldexp(r, np.clip(q, -300, 300).astype(_I32))
    return np.where(d[0] < np.float32(-104), np.float32(0), r)


_FLT_MIN = np.float32(2.0 ** -126)


def _sleef_ldexp(x, q):
    """x·2^q as SLEEF's vldexp: x·u·u·u·u·2^(q - 4k), u = 2^k (k ≈ q/4): a subnormal result rounds twice."""
    r = np.ldexp(x, q)
    if not np.any((np.abs(r) < _FLT_MIN) & (x != 0)):   # every step exact: one rounding, as ldexp's
        return r
    m = q >> 31
    m = (((m + q) >> 6) - m) << 4
    q = q - (m << 2)
    m = np.clip(m + 127, 0, 255)
    u = (m << 23).astype(np.int32).view(_F32)
    x = x * u * u * u * u
    return x * ((q + 127) << 23).astype(np.int32).view(_F32)


def sleef_powf(x, y) -> np.ndarray:
    """SLEEF's ``powf_u10`` (AVX-512, fused multiply-adds), step for step, on float32."""
    x, y = np.asarray(x, _F32), np.asarray(y, _F32)
    token = _np_errstate.set(_QUIET)
    try:
        if np.all(x > 0) and np.all(x < np.inf) and np.all(np.abs(y) < np.inf):   # the usual case: no edge
            r = _expkf(_dfmul_f(_logkf(x), y))
            r = np.where(np.isnan(r), np.float32(np.inf), r)
            return np.where((y == 0) | (x == 1), _ONE, r).astype(_F32)
        x, y = np.broadcast_arrays(x, y)
        ax = np.abs(x)
        lg = _logkf(np.where((ax > 0) & np.isfinite(ax), ax, _ONE))
        r = _expkf(_dfmul_f(lg, y))
        r = np.where(np.isnan(r), np.float32(np.inf), r)
        yint = (np.trunc(y) == y) | (np.abs(y) > np.float32(1 << 24))
        yodd = yint & (np.abs(y) < np.float32(1 << 24)) & (np.fmod(np.trunc(np.where(yint, y, 0)), 2) != 0)
        r = r * np.where(x > 0, _ONE, np.where(yint, np.where(yodd, -_ONE, _ONE), np.float32(np.nan)))
        efx = (ax - _ONE) * np.where(np.signbit(y), -_ONE, _ONE)
        r = np.where(np.isinf(y), np.where(efx < 0, np.float32(0), np.where(efx == 0, _ONE, np.float32(np.inf))), r)
        edge = np.where(np.signbit(y) ^ (x == 0), np.float32(0), np.float32(np.inf))
        r = np.where(np.isinf(x) | (x == 0), edge * np.where(np.signbit(np.where(yodd, x, _ONE)), -_ONE, _ONE), r)
        r = np.where(np.isnan(x) | np.isnan(y), np.float32(np.nan), r)
        return np.where((y == 0) | (x == 1), _ONE, r).astype(_F32)
    finally:
        _np_errstate.reset(token)


# ---- SLEEF's log1pf (``Sleef_log1pf16_u10``, which Vectorized<float>::log1p calls) -------------------------

_LOG1PF_POLY = tuple(np.array(c, _F32) for c in (0.3027294874, 0.3996108174, 0.6666694880))
_FOUR_THIRDS = np.array(1 / 0.75, _F32)


def sleef_log1pf(d: np.ndarray) -> np.ndarray:
    """SLEEF's ``log1pf_u10`` (AVX-512 code, fused multiply-adds), step for step, on float32.

    1 + d = m'·2^e with e = getexp((1 + d)/0.75); m = d·2^-e + (2^-e - 1) (one fused multiply-add, so the
    rounding of 1 + d is not inherited); log1p d = e·ln2 + 2x + x³·p(x²), x = m/(2 + m) as a float pair.
    Checked against PyTorch's log1p on 2^16 values of each of randn·3, uniform(-1, 1), e^randn·100.
    """
    d = np.asarray(d, _F32)
    token = _np_errstate.set(_QUIET)
    try:
        _, ex = np.frexp((d + _ONE_0D) * _FOUR_THIRDS)
        ex -= 1                                        # getexp: floor(log2 |.|)
        t = np.ldexp(_ONE_0D, -ex).astype(_F32)        # 2^-e
        m = _fma(d, t, t - _ONE_0D)
        s = _dfmul_f(_LN2_PAIR, ex.astype(_F32))       # e·ln2 as a pair
        dx = _TWO + m                                  # 2 + m as a pair (dfadd_vf2_vf_vf)
        dy = (_TWO - dx) + m
        r = _ONE_0D / dx                               # x = m/(dx + dy), dfdiv
        q = m * r
        v = _fma(-dy, r, _fma(-dx, r, _ONE_0D))
        x = q, _fma(q, v, _fms(r, m, q))
        x2 = x[0] * x[0]
        p = _fma(_fma(_LOG1PF_POLY[0], x2, _LOG1PF_POLY[1]), x2, _LOG1PF_POLY[2])
        s = _dfadd(s, (x[0] * _TWO, x[1] * _TWO))      # + 2x (dfscale), then + x³·p(x²) (dfadd of a float)
        w = x2 * x[0] * p
        hi = s[0] + w
        out = hi + (((s[0] - hi) + w) + s[1])
        big = d > np.float32(2.5e38)     # ((1 + d)/0.75 overflows: there log1p d = log d, as PyTorch's gives)
        if big.any():
            out = np.where(big, sleef_logf(np.where(big, d, _ONE_0D)), out)
        out = np.where(d < -_ONE_0D, np.float32(np.nan), out)     # (nan stays nan through the arithmetic)
        out = np.where(d == -_ONE_0D, np.float32(-np.inf), out)
        return np.where(d == 0, d, out).astype(_F32, copy=False)  # (-0 stays -0)
    finally:
        _np_errstate.reset(token)


def log1p(x: np.ndarray) -> np.ndarray:
    """float32 log1p: PyTorch's vml::vlog1p maps SLEEF's log1pf over every element (a partial last vector
    included), so it depends on the value alone."""
    return sleef_log1pf(x) if x.ndim else sleef_log1pf(x.reshape(1)).reshape(())


def expm1(x: np.ndarray) -> np.ndarray:
    """float32 expm1: SLEEF's expm1f on every element (vml::vexpm1, as ``log1p``)."""
    return sleef_expm1f(x) if x.ndim else sleef_expm1f(x.reshape(1)).reshape(())


# ---- SLEEF's expm1f and tanhf (``Sleef_expm1f16_u10``, ``Sleef_tanhf16_u10``), through its expk2f ---------

_R_LN2_0D = np.array(1.442695040888963407359924681001892137426645954152985934135449406931, _F32)
_NEG_L2U_0D = np.array(-0.693145751953125, _F32)
_EXPK2F_U = tuple(np.array(c, _F32) for c in (0.1980960224e-3, 0.1394256484e-2, 0.8333456703e-2, 0.4166637361e-1))
_EXPK2F_C = np.array(0.166666659414234244790680580464, _F32), np.array(0.5, _F32)


def _expk2f(a):
    """e^a as a float pair (SLEEF's expk2f of the pair (a, 0)): 2^q·e^s, e^s by a polynomial in pairs."""
    q = np.rint(a * _R_LN2_0D)
    s = _dfadd2_ff(a, q * _NEG_L2U_0D)                      # a - q·ln2 (two parts)
    s = _dfadd2(s, (q * _NEG_L2L_0D, None))
    u = _EXPK2F_U[0]
    for c in _EXPK2F_U[1:]:
        u = _fma(u, s[0], c)
    t = _dfadd2(_dfmul_f(s, u), (_EXPK2F_C[0], None))
    t = _dfadd2(_dfmul(s, t), (_EXPK2F_C[1], None))
    sq = s[0] * s[0]                                         # dfsqu
    t = _dfadd2(s, _dfmul((sq, _fma(s[0] + s[0], s[1], _fms(s[0], s[0], sq))), t))
    hi = _ONE_0D + t[0]                                      # dfadd_vf2_vf_vf2(1, t)
    t = hi, ((_ONE_0D - hi) + t[0]) + t[1]
    qi = q.astype(_I32)                                      # vldexp2: two power-of-2 products
    half = qi >> 1
    scale = [np.ldexp(np.ldexp(part, half), qi - half).astype(_F32, copy=False) for part in t]
    low = a < np.float32(-104)
    return tuple(np.where(low, np.float32(0), part) for part in scale)


def sleef_expm1f(a: np.ndarray) -> np.ndarray:
    """SLEEF's ``expm1f_u10`` (AVX-512, fused multiply-adds), step for step, on float32: e^a - 1 in pairs."""
    a = np.asarray(a, _F32)
    token = _np_errstate.set(_QUIET)
    try:
        x = np.clip(a, np.float32(-20), np.float32(90))      # (beyond: -1 or inf below; keeps q small)
        hi, lo = _dfadd2(_expk2f(x), (-_ONE_0D, None))
        r = hi + lo
        r = np.where(a > np.float32(88.72283172607421875), np.float32(np.inf), r)
        r = np.where(a < np.float32(-16.635532333438687426013570), -_ONE_0D, r)
        r = np.where(np.isnan(a), a, r)
        return np.where(a == 0, a, r).astype(_F32, copy=False)   # (-0 stays -0)
    finally:
        _np_errstate.reset(token)


def sleef_tanhf(x: np.ndarray) -> np.ndarray:
    """SLEEF's ``tanhf_u10`` (AVX-512, fused multiply-adds), step for step, on float32:
    (d - 1/d)/(d + 1/d), d = e^|x| as a pair; 1 beyond |x| = 8.66."""
    x = np.asarray(x, _F32)
    token = _np_errstate.set(_QUIET)
    try:
        y = np.minimum(np.abs(x), np.float32(9))
        d = _expk2f(y)
        r = _ONE_0D / d[0]                                   # dfrec
        e = r, r * _fma(-d[1], r, _fma(-d[0], r, _ONE_0D))
        n, m = _dfadd(d, (-e[0], -e[1])), _dfadd(d, e)
        t = _ONE_0D / m[0]                                   # dfdiv
        s = n[0] * t
        v = _fma(-m[1], t, _fma(-m[0], t, _ONE_0D))
        q = s, _fma(s, v, _fma(n[1], t, _fms(t, n[0], s)))
        out = q[0] + q[1]
        out = np.where(np.abs(x) > np.float32(8.664339742), _ONE_0D, out)
        out = np.copysign(out, x)
        return np.where(np.isnan(x) | (x == 0), x, out).astype(_F32, copy=False)
    finally:
        _np_errstate.reset(token)


# ---- SLEEF's double functions (``Sleef_*d8_u10``, which Vectorized<double> calls) --------------------------
# Their fused multiply-adds are emulated in float64: the product split exactly into p + e (Veltkamp/Dekker),
# then p + c summed exactly (TwoSum) and the three parts rounded as s + (t + e). That last sum can in principle
# round differently from one hardware fma (when s + (t + e) lies within 2^-100 of a halfway point); no input
# checked against PyTorch has shown it.

_SPLIT64 = np.array(134217729.0)   # 2^27 + 1
# That costs ~0.5 us per element and function; beyond this many elements NumPy's value (the same for ~75-99%
# of inputs) stands in, as for the C library's functions beyond _CTYPES_LIMIT.
_SLEEF64_LIMIT = 1 << 17


_SPLIT_SAFE = 2.0 ** 995   # (beyond, 2^27·a overflows in the split: the factors are scaled first)


def _fma64(a, b, c):
    """a·b + c in float64, rounded (practically) once."""
    if np.any(np.abs(a) > _SPLIT_SAFE) or np.any(np.abs(b) > _SPLIT_SAFE):
        a, ea = np.frexp(a)
        b, eb = np.frexp(b)
        p, e = _two_product(a, b)
        p, e = np.ldexp(p, ea + eb), np.ldexp(e, ea + eb)   # (exact unless the product overflows)
    else:
        p, e = _two_product(a, b)
    s = p + c
    v = s - p
    t = ((p - (s - v)) + (c - v)) + e
    # (an exact zero keeps p + c's sign, as the fused result does: -0·x + -0 is -0, where s + t would give +0;
    # an infinite p + c is the fused result too, where its error terms are nan: inf·1 + 1 is inf;
    # a nan keeps s + t's bits)
    return np.where((t == 0) | np.isinf(s), s, s + t)[()]


def _two_product(a, b):
    """a·b as p + e exactly: p the rounded product, e its error (Veltkamp's split, Dekker's product)."""
    p = a * b
    t = _SPLIT64 * a
    ah = t - (t - a)
    al = a - ah
    t = _SPLIT64 * b
    bh = t - (t - b)
    bl = b - bh
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _poly4_64(x, x2, c3, c2, c1, c0):
    """SLEEF's POLY4 (Estrin's scheme): (c3·x + c2)·x² + (c1·x + c0), each a fused multiply-add."""
    return _fma64(x2, _fma64(x, c3, c2), _fma64(x, c1, c0))


_R_LN2_64 = np.array(1.442695040888963407359924681001892137426645954152985934135449406931)
_NEG_L2U_64 = np.array(-.69314718055966295651160180568695068359375)
_NEG_L2L_64 = np.array(-.28235290563031577122588448175013436025525412068e-12)
_EXP64_POLY = tuple(np.array(c) for c in (
    +0.2081276378237164457e-8, +0.2511210703042288022e-7, +0.2755762628169491192e-6, +0.2755723402025388239e-5,
    +0.2480158687479686264e-4, +0.1984126989855865850e-3, +0.1388888888914497797e-2, +0.8333333333314938210e-2,
    +0.4166666666666602598e-1, +0.1666666666666669072e+0))


def _ldexp2_64(x, q):
    """SLEEF's vldexp2: x·2^(q >> 1)·2^(q - (q >> 1)), two roundings at most."""
    half = q >> 1
    return np.ldexp(np.ldexp(x, half), q - half)


def sleef_exp64(d: np.ndarray) -> np.ndarray:
    """SLEEF's ``exp_u10`` for double (AVX-512, fused multiply-adds), step for step: e^d = 2^q·e^s,
    |s| <= ln2/2, e^s by a degree-13 polynomial (Estrin's scheme, then three Horner steps)."""
    d = np.asarray(d, _F64)
    if d.size > _SLEEF64_LIMIT:
        return np.exp(d)
    token = _np_errstate.set(_QUIET)
    try:
        x = np.clip(d, -1100.0, 1100.0)               # (beyond: 0 or inf below; keeps q an integer)
        u = np.rint(x * _R_LN2_64)
        q = u.astype(np.int64)
        s = _fma64(u, _NEG_L2L_64, _fma64(u, _NEG_L2U_64, x))
        s2 = s * s
        s4 = s2 * s2
        c = _EXP64_POLY
        p = _fma64(s4, _poly4_64(s, s2, *c[2:6]), _poly4_64(s, s2, *c[6:10]))
        p = _fma64(s4 * s4, _fma64(s, c[0], c[1]), p)
        for k in (0.5, 1.0, 1.0):
            p = _fma64(p, s, k)
        r = _ldexp2_64(p, q)
        r = np.where(d > 709.78271114955742909217217426, np.inf, r)
        r = np.where(d < -1000, 0.0, r)
        return np.where(np.isnan(d), d, r)
    finally:
        _np_errstate.reset(token)


_exp64 = libm_double("exp", np.exp)


def sigmoid64(x: np.ndarray) -> np.ndarray:
    """float64 sigmoid, 1/(1 + e^-x): SLEEF's exp on blocks of 2 x 8 doubles, glibc's on the rest."""
    token = _np_errstate.set(_QUIET)
    try:
        return two_paths(lambda v: 1.0 / (1.0 + sleef_exp64(-v)), lambda v: 1.0 / (1.0 + _exp64(-v)), x,
                         block=_BLOCK64)
    finally:
        _np_errstate.reset(token)


def _poly10_64(x, x2, x4, c):
    """SLEEF's POLY10 (Estrin's scheme) with the coefficients ``c`` from the highest power down."""
    p = _fma64(x4, _poly4_64(x, x2, *c[2:6]), _poly4_64(x, x2, *c[6:10]))
    return _fma64(x4 * x4, _fma64(x, c[0], c[1]), p)


_EXP2_64_POLY = tuple(np.array(c) for c in (
    +0.4434359082926529454e-9, +0.7073164598085707425e-8, +0.1017819260921760451e-6, +0.1321543872511327615e-5,
    +0.1525273353517584730e-4, +0.1540353045101147808e-3, +0.1333355814670499073e-2, +0.9618129107597600536e-2,
    +0.5550410866482046596e-1, +0.2402265069591012214e+0))
_LN2_64 = np.array(+0.6931471805599452862e+0)


def sleef_exp2_64(d: np.ndarray) -> np.ndarray:
    """SLEEF's ``exp2_u10`` for double, step for step: 2^d = 2^q·2^s, q = rint(d), 2^s by a polynomial."""
    d = np.asarray(d, _F64)
    if d.size > _SLEEF64_LIMIT:
        return np.exp2(d)
    token = _np_errstate.set(_QUIET)
    try:
        x = np.clip(d, -2100.0, 1100.0)
        u = np.rint(x)
        s = x - u
        s2 = s * s
        p = _fma64(_fma64(_poly10_64(s, s2, s2 * s2, _EXP2_64_POLY), s, _LN2_64), s, 1.0)
        r = _ldexp2_64(p, u.astype(np.int64))
        r = np.where(d >= 1024, np.inf, r)
        r = np.where(d < -2000, 0.0, r)
        return np.where(np.isnan(d), d, r)
    finally:
        _np_errstate.reset(token)


# double-double arithmetic (SLEEF's dd.h, its fused multiply-add variants): pairs (hi, lo) of float64

def _ddadd2_d(x, y):
    """ddadd2_vd2_vd2_vd: a pair plus a double, any magnitudes."""
    s = x[0] + y
    v = s - x[0]
    return s, ((x[0] - (s - v)) + (y - v)) + x[1]


def _ddadd_d_dd(x, y):
    """ddadd_vd2_vd_vd2 (|x| >= |y|)."""
    s = x + y[0]
    return s, ((x - s) + y[0]) + y[1]


def _ddadd(x, y):
    """ddadd_vd2_vd2_vd2 (|x| >= |y|)."""
    s = x[0] + y[0]
    return s, (((x[0] - s) + y[0]) + x[1]) + y[1]


def _ddsub(x, y):
    """ddsub_vd2_vd2_vd2 (|x| >= |y|)."""
    s = x[0] - y[0]
    return s, (((x[0] - s) - y[0]) + x[1]) - y[1]


def _ddmul_d(x, y):
    """ddmul_vd2_vd2_vd: a pair times a double."""
    s = x[0] * y
    return s, _fma64(x[1], y, _fma64(x[0], y, -s))


def _ddmul(x, y):
    """ddmul_vd2_vd2_vd2: a pair times a pair."""
    s = x[0] * y[0]
    return s, _fma64(x[0], y[1], _fma64(x[1], y[0], _fma64(x[0], y[0], -s)))


def _ddsqu(x):
    """ddsqu_vd2_vd2: a pair squared."""
    s = x[0] * x[0]
    return s, _fma64(x[0] + x[0], x[1], _fma64(x[0], x[0], -s))


def _ddrec(d):
    """ddrec_vd2_vd2: 1/d as a pair."""
    s = 1.0 / d[0]
    return s, s * _fma64(-d[1], s, _fma64(-d[0], s, 1.0))


_EXPK2_64_POLY = tuple(np.array(c) for c in (
    +0.1602472219709932072e-9, +0.2092255183563157007e-8, +0.2505230023782644465e-7, +0.2755724800902135303e-6,
    +0.2755731892386044373e-5, +0.2480158735605815065e-4, +0.1984126984148071858e-3, +0.1388888888886763255e-2,
    +0.8333333333333347095e-2, +0.4166666666666669905e-1))
_SIXTH_64 = np.array(+0.1666666666666666574e+0)


def _expk2_64(a):
    """e^a as a pair (SLEEF's expk2 of the pair (a, 0)); ``a`` already clamped to a finite range."""
    dq = np.rint(a * _R_LN2_64)
    s = _ddadd2_d((a, np.zeros_like(a)), dq * _NEG_L2U_64)
    s = _ddadd2_d(s, dq * _NEG_L2L_64)
    s2 = _ddsqu(s)
    s4 = _ddsqu(s2)
    u = _poly10_64(s[0], s2[0], s4[0], _EXPK2_64_POLY)
    t = _ddadd_d_dd(0.5, _ddmul_d(s, _SIXTH_64))
    t = _ddadd_d_dd(1.0, _ddmul(t, s))
    t = _ddadd_d_dd(1.0, _ddmul(t, s))
    t = _ddadd(t, _ddmul_d(s4, u))
    q = dq.astype(np.int64)
    low = a < -1000
    return tuple(np.where(low, 0.0, _ldexp2_64(part, q)) for part in t)


def sleef_expm1_64(a: np.ndarray) -> np.ndarray:
    """SLEEF's ``expm1_u10`` for double, step for step: e^a - 1 in double-double."""
    a = np.asarray(a, _F64)
    if a.size > _SLEEF64_LIMIT:
        return np.expm1(a)
    token = _np_errstate.set(_QUIET)
    try:
        hi, lo = _ddadd2_d(_expk2_64(np.clip(a, -40.0, 720.0)), -1.0)
        r = hi + lo
        r = np.where(a > 709.782712893383996732223, np.inf, r)
        r = np.where(a < -36.736800569677101399113302437, -1.0, r)
        r = np.where(np.isnan(a), a, r)
        return np.where(a == 0, a, r)   # (-0 stays -0)
    finally:
        _np_errstate.reset(token)


def _sinh_cosh_64(x, sign: int):
    """SLEEF's ``sinh_u10`` (sign -1) or ``cosh_u10`` (sign 1) for double: (d ± 1/d)/2, d = e^|x| a pair."""
    x = np.asarray(x, _F64)
    if x.size > _SLEEF64_LIMIT:
        return np.sinh(x) if sign < 0 else np.cosh(x)
    token = _np_errstate.set(_QUIET)
    try:
        d = _expk2_64(np.minimum(np.abs(x), 720.0))
        d = _ddsub(d, _ddrec(d)) if sign < 0 else _ddadd(d, _ddrec(d))
        y = (d[0] + d[1]) * 0.5
        y = np.where((np.abs(x) > 710) | np.isnan(y), np.inf, y)
        if sign < 0:
            y = np.copysign(y, x)
        return np.where(np.isnan(x), x, y)
    finally:
        _np_errstate.reset(token)


def sleef_sinh64(x: np.ndarray) -> np.ndarray:
    """SLEEF's ``sinh_u10`` for double, step for step."""
    return _sinh_cosh_64(x, -1)


def sleef_cosh64(x: np.ndarray) -> np.ndarray:
    """SLEEF's ``cosh_u10`` for double, step for step."""
    return _sinh_cosh_64(x, 1)


def _poly7_64(x, x2, x4, c):
    """SLEEF's POLY7 (Estrin's scheme) with the coefficients ``c`` from the highest power down."""
    return _fma64(x4, _fma64(x2, c[0], _fma64(x, c[1], c[2])), _poly4_64(x, x2, *c[3:7]))


def _dddiv(n, d):
    """dddiv_vd2_vd2_vd2: a pair over a pair."""
    t = 1.0 / d[0]
    s = n[0] * t
    u = _fma64(t, n[0], -s)
    v = _fma64(-d[1], t, _fma64(-d[0], t, 1.0))
    return s, _fma64(s, v, _fma64(n[1], t, u))


def _ddadd2_dd_d(x, y):
    """ddadd2_vd2_vd_vd: x + y as a pair, any magnitudes."""
    s = x + y
    v = s - x
    return s, (x - (s - v)) + (y - v)


_LN2_PAIR64 = (np.array(0.693147180559945286226764), np.array(2.319046813846299558417771e-17))
_LOG1P64_POLY = tuple(np.array(c) for c in (
    0.1532076988502701353e+0, 0.1525629051003428716e+0, 0.1818605932937785996e+0, 0.2222214519839380009e+0,
    0.2857142932794299317e+0, 0.3999999999635251990e+0, 0.6666666666667333541e+0))


def sleef_log1p64(d: np.ndarray) -> np.ndarray:
    """SLEEF's ``log1p_u10`` for double (AVX-512 code), step for step: as ``sleef_log1pf``, in double-double."""
    d = np.asarray(d, _F64)
    if d.size > _SLEEF64_LIMIT:
        return np.log1p(d)
    token = _np_errstate.set(_QUIET)
    try:
        _, ex = np.frexp((d + 1.0) * (1.0 / 0.75))
        ex -= 1                                        # getexp
        t = np.ldexp(1.0, -ex)
        m = _fma64(d, t, t - 1.0)
        s = _ddmul_d(_LN2_PAIR64, ex.astype(_F64))
        dx = 2.0 + m
        x = _dddiv((m, np.zeros_like(m)), (dx, (2.0 - dx) + m))
        x2 = x[0] * x[0]
        x4 = x2 * x2
        p = _poly7_64(x2, x4, x4 * x4, _LOG1P64_POLY)
        s = _ddadd(s, (x[0] * 2.0, x[1] * 2.0))
        w = x2 * x[0] * p
        hi = s[0] + w
        r = hi + (((s[0] - hi) + w) + s[1])
        big = (d > 1e308) & np.isinf((d + 1.0) * (1.0 / 0.75))   # (overflows: log d, nearly always the same
                                                                    # value, stands in)
        r = np.where(big, np.log(np.where(big, d, 1.0)), r)
        r = np.where((d < -1) | np.isnan(d), np.nan, r)
        r = np.where(d == -1, -np.inf, r)
        return np.where(d == 0, d, r)   # (-0 stays -0)
    finally:
        _np_errstate.reset(token)


def _ddadd2_pair(x, y):
    """ddadd2_vd2_vd2_vd2: a pair plus a pair, any magnitudes."""
    s = x[0] + y[0]
    v = s - x[0]
    return s, ((x[0] - (s - v)) + (y[0] - v)) + (x[1] + y[1])


def _ddsqrt(d):
    """ddsqrt_vd2_vd2: √d as a pair, one Newton step on the hardware square root: (d + t²)/(2t)."""
    t = np.sqrt(d[0] + d[1])
    tt = t * t
    r = 1.0 / t
    p = _ddmul(_ddadd2_pair(d, (tt, _fma64(t, t, -tt))), (r, r * _fma64(-t, r, 1.0)))
    return p[0] * 0.5, p[1] * 0.5


def sleef_hypot64(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """SLEEF's ``hypot_u05`` for double (PyTorch's complex128 ``abs`` on vectors), step for step:
    max·√(1 + (min/max)²) in double-double; min = 0 gives max, an infinite part inf, a NaN part NaN."""
    x, y = np.abs(x), np.abs(y)
    lo, hi = np.minimum(x, y), np.maximum(x, y)
    tiny = hi < np.finfo(np.float64).tiny     # subnormal: both scaled by 2^54 before dividing
    n, d = np.where(tiny, lo * 2.0 ** 54, lo), np.where(tiny, hi * 2.0 ** 54, hi)
    with np.errstate(all="ignore"):
        t = _dddiv((n, np.zeros_like(n)), (d, np.zeros_like(d)))
        t = _ddmul_d(_ddsqrt(_ddadd2_d(_ddsqu(t), 1.0)), hi)
        out = t[0] + t[1]
    out = np.where(np.isnan(out), np.inf, out)
    out = np.where(lo == 0, hi, out)
    out = np.where(np.isnan(x) | np.isnan(y), np.nan, out)
    return np.where((x == np.inf) | (y == np.inf), np.inf, out)


def sleef_log64(d: np.ndarray, positive: bool = False) -> np.ndarray:
    """SLEEF's ``log_u10`` for double (AVX-512 code: getexp/getmant), step for step: as ``sleef_logf``, in
    double-double; p(x²) is log1p's polynomial. Checked against PyTorch's float64 log_softmax (its row sums go
    through it). ``positive``: every d is positive and finite, or nan (a row sum), so skip the special cases."""
    d = np.asarray(d, _F64)
    if d.size > _SLEEF64_LIMIT:
        return np.log(d)
    token = _np_errstate.set(_QUIET)
    try:
        mant, ex = np.frexp(d)                         # d = mant·2^ex, mant in [0.5, 1)
        low = mant < 0.75                              # getmant's [0.75, 1.5): mant·2, one exponent less
        m = np.ldexp(mant, low)
        x = _dddiv((m - 1.0, np.zeros_like(m)), _ddadd2_dd_d(1.0, m))   # (m - 1 is exact)
        x2 = x[0] * x[0]
        x4 = x2 * x2
        p = _poly7_64(x2, x4, x4 * x4, _LOG1P64_POLY)
        s = _ddmul_d(_LN2_PAIR64, (ex - low).astype(_F64))   # e·ln2 + 2x + x³·p(x²)
        s = _ddadd(s, (x[0] * 2.0, x[1] * 2.0))
        w = x2 * x[0] * p
        hi = s[0] + w
        r = hi + (((s[0] - hi) + w) + s[1])
        if not positive:                               # vfixup's cases
            r = np.where(d == 0, -np.inf, r)
            r = np.where(d < 0, np.nan, r)
            r = np.where(np.isposinf(d), np.inf, r)
            r = np.where(np.isnan(d), d, r)
        return r
    finally:
        _np_errstate.reset(token)


# SLEEF's erf_u10 for double (gelu's vector code), with its Estrin polynomials and expk

def _coefficients(*values) -> tuple:
    return tuple(np.array(v) for v in values)


_ERF64_LOW = _coefficients(   # |x| <= 2.5: erf = 1 - 1/(1 + x·p(x))^16 (Abramowitz and Stegun)
    -0.2083271002525222097e-14, +0.7151909970790897009e-13, -0.1162238220110999364e-11, +0.1186474230821585259e-10,
    -0.8499973178354613440e-10, +0.4507647462598841629e-9, -0.1808044474288848915e-8, +0.5435081826716212389e-8,
    -0.1143939895758628484e-7, +0.1215442362680889243e-7, +0.1669878756181250355e-7, -0.9808074602255194288e-7,
    +0.1389000557865837204e-6, +0.2945514529987331866e-6, -0.1842918273003998283e-5, +0.3417987836115362136e-5,
    +0.3860236356493129101e-5, -0.3309403072749947546e-4, +0.1060862922597579532e-3, +0.2323253155213076174e-3,
    +0.1490149719145544729e-3)
_ERF64_HIGH = _coefficients(   # |x| > 2.5: erf = 1 - e^p(x)
    -0.4024015130752621932e-18, +0.3847193332817048172e-16, -0.1749316241455644088e-14, +0.5029618322872872715e-13,
    -0.1025221466851463164e-11, +0.1573695559331945583e-10, -0.1884658558040203709e-9, +0.1798167853032159309e-8,
    -0.1380745342355033142e-7, +0.8525705726469103499e-7, -0.4160448058101303405e-6, +0.1517272660008588485e-5,
    -0.3341634127317201697e-5, -0.2515023395879724513e-5, +0.6539731269664907554e-4, -0.3551065097428388658e-3,
    +0.1210736097958368864e-2, -0.2605566912579998680e-2, +0.1252823202436093193e-2, +0.1820191395263313222e-1,
    -0.1021557155453465954e+0)
_ERF64_LOW_PAIRS = ((0.0092877958392275604405, 7.9287559463961107493e-19),
                    (0.042275531758784692937, 1.3785226620501016138e-19),
                    (0.07052369794346953491, 9.5846628070792092842e-19))
_ERF64_HIGH_PAIRS = ((-0.63691044383641748361, -2.4249477526539431839e-17),
                     (-1.1282926061803961737, -6.2970338860410996505e-17),
                     (-1.2261313785184804967e-05, -5.5329707514490107044e-22))
_EXPK64_POLY = _coefficients(
    2.51069683420950419527139e-08, 2.76286166770270649116855e-07, 2.75572496725023574143864e-06,
    2.48014973989819794114153e-05, 0.000198412698809069797676111, 0.0013888888939977128960529,
    0.00833333333332371417601081, 0.0416666666665409524128449, 0.166666666666666740681535, 0.500000000000000999200722)


def _poly8_64(x, x2, x4, c):
    return _fma64(x4, _poly4_64(x, x2, *c[0:4]), _poly4_64(x, x2, *c[4:8]))


def _poly21_64(x, x2, x4, x8, x16, c):
    """SLEEF's POLY21 (Estrin's scheme) with the coefficients ``c`` from the highest power down."""
    p5 = _fma64(x4, c[0], _poly4_64(x, x2, *c[1:5]))
    p16 = _fma64(x8, _poly8_64(x, x2, x4, c[5:13]), _poly8_64(x, x2, x4, c[13:21]))
    return _fma64(x16, p5, p16)


def _ddmla(x, y, z):
    """ddmla_vd2_vd_vd2_vd2: the pair z plus the pair y times the double x."""
    return _ddadd(z, _ddmul_d(y, x))


def _expk64(d):
    """e^d of a pair d, as one double (SLEEF's expk)."""
    dq = np.rint((d[0] + d[1]) * _R_LN2_64)
    s = _ddadd2_d(d, dq * _NEG_L2U_64)
    s = _ddadd2_d(s, dq * _NEG_L2L_64)
    hi = s[0] + s[1]
    s = hi, (s[0] - hi) + s[1]                         # ddnormalize
    s2 = s[0] * s[0]
    s4 = s2 * s2
    u = _fma64(s4 * s4, _fma64(s[0], _EXPK64_POLY[0], _EXPK64_POLY[1]), _poly8_64(s[0], s2, s4, _EXPK64_POLY[2:]))
    t = _ddadd(_ddadd_d_dd(1.0, s), _ddmul_d(_ddsqu(s), u))
    return np.where(d[0] < -1000, 0.0, _ldexp2_64(t[0] + t[1], dq.astype(np.int64)))


def sleef_erf64(a: np.ndarray) -> np.ndarray:
    """SLEEF's ``erf_u10`` for double (AVX-512, fused multiply-adds), step for step."""
    a = np.asarray(a, _F64)
    if a.size > _SLEEF64_LIMIT:
        return _erf64(a)
    token = _np_errstate.set(_QUIET)
    try:
        x = np.abs(a)
        x2 = x * x
        x4 = x2 * x2
        x8 = x4 * x4
        low = x <= 2.5
        c = tuple(np.where(low, lo, hi) for lo, hi in zip(_ERF64_LOW, _ERF64_HIGH))
        t = _poly21_64(x, x2, x4, x8, x8 * x8, c)
        pairs = [(np.where(low, lo[0], hi[0]), np.where(low, lo[1], hi[1]))
                 for lo, hi in zip(_ERF64_LOW_PAIRS, _ERF64_HIGH_PAIRS)]
        t2 = _ddmla(x2, _ddmla(x, (t, np.zeros_like(t)), pairs[0]), _ddmla(x, pairs[1], pairs[2]))   # poly4dd
        s2 = _ddadd_d_dd(1.0, _ddmul_d(t2, x))         # low: 1/(1 + x·p)^16
        for _ in range(4):
            s2 = _ddsqu(s2)
        s2 = _ddrec(s2)
        t2 = np.where(low, s2[0], _expk64(t2)), np.where(low, s2[1], 0.0)   # high: e^p
        t2 = _ddadd2_d(t2, -1.0)
        z = -(t2[0] + t2[1])
        z = np.where(x < 1e-8, x * 1.12837916709551262756245475959, z)
        z = np.where((x >= 6) | np.isinf(a), 1.0, z)
        z = np.where(a == 0, 0.0, z)
        return np.copysign(z, a)
    finally:
        _np_errstate.reset(token)


_erf64 = libm_double("erf", np.vectorize(math.erf, otypes=[_F64]))
_GELU64_ALPHA = np.array(np.sqrt(0.5))                                   # M_SQRT1_2
_GELU64_BETA = np.array(2 / np.sqrt(np.pi) * np.sqrt(0.5) * 0.5)         # M_2_SQRTPI · M_SQRT1_2 · 0.5


def gelu64(x: np.ndarray) -> np.ndarray:
    """float64 gelu (erf form), x·0.5·(1 + erf(x/√2)): SLEEF's erf on blocks of 2 x 8 doubles, glibc's on the rest."""
    return two_paths(lambda v: v * 0.5 * (1.0 + sleef_erf64(v * _GELU64_ALPHA)),
                     lambda v: v * 0.5 * (1.0 + _erf64(v * _GELU64_ALPHA)), x, block=_BLOCK64)


def _gelu_backward64_with(erf, exp, fused: bool):
    def kernel(g, x):
        cdf = 0.5 * (1.0 + erf(x * _GELU64_ALPHA))
        pdf = _GELU64_BETA * exp(x * x * -0.5)
        if not fused:
            return g * (cdf + x * pdf)
        inner = _fma64(x, pdf, cdf)
        bad = np.isnan(inner)
        if bad.any():   # (infinite operands: the emulated fma's nan stands for the plain value)
            inner = np.where(bad, cdf + x * pdf, inner)
        return g * inner
    return kernel


def gelu_backward64(g: np.ndarray, x: np.ndarray) -> np.ndarray:
    """float64 gelu's gradient, g·(Φ(x) + x·φ(x)): the vector code (SLEEF's erf and exp) fuses x·φ + Φ into one
    multiply-add, the scalar code (glibc's) does not."""
    token = _np_errstate.set(_QUIET)
    try:
        return two_paths(_gelu_backward64_with(sleef_erf64, sleef_exp64, True),
                         _gelu_backward64_with(_erf64, _exp64, False), g, x, block=_BLOCK64)
    finally:
        _np_errstate.reset(token)


_GELU64_TANH_BETA = np.array(np.sqrt(2.0) * (2 / np.sqrt(np.pi)) * 0.5)   # M_SQRT2 · M_2_SQRTPI · 0.5
_GELU64_KAPPA = np.array(0.044715)


def _gelu_tanh64_with(tanh):
    def kernel(x):
        inner = _GELU64_TANH_BETA * _fma64(_GELU64_KAPPA, x * x * x, x)   # (x + κx³ fused, both paths)
        bad = np.isnan(inner) & ~np.isnan(x)
        if bad.any():   # (infinite x: the emulated fma's nan stands for the plain value)
            inner = np.where(bad, _GELU64_TANH_BETA * (x + _GELU64_KAPPA * (x * x * x)), inner)
        return 0.5 * x * (1.0 + tanh(inner))
    return kernel


def gelu_tanh64(x: np.ndarray) -> np.ndarray:
    """float64 gelu (tanh form), x/2 · (1 + tanh(√(2/π)(x + 0.044715x³))): SLEEF's tanh on blocks of 2 x 8
    doubles, glibc's on the rest."""
    token = _np_errstate.set(_QUIET)
    try:
        return two_paths(_gelu_tanh64_with(sleef_tanh64), _gelu_tanh64_with(_tanh64), x, block=_BLOCK64)
    finally:
        _np_errstate.reset(token)


_GELU64_TANH_3KAPPA = np.array(3.0 * 0.044715)   # (scalar_t(3) * kKappa, folded in double first)


def _gelu_tanh_backward64_with(tanh):
    def kernel(g, x):
        # the compiler fuses x + κx³, 1 - t² and 1 + 3κx² into fmas (not the final sum), as in the float32 kernel
        inner = _fma64(_GELU64_KAPPA, x * x * x, x)
        t = tanh(_GELU64_TANH_BETA * inner)
        tanh_derivative = _fma64(-t, t, 1.0)
        inner_derivative = _GELU64_TANH_BETA * _fma64(_GELU64_TANH_3KAPPA, x * x, 1.0)
        d = 0.5 * (1.0 + t) + 0.5 * x * tanh_derivative * inner_derivative
        bad = np.isnan(d) & ~np.isnan(x)
        if bad.any():   # (infinite x: the emulated fma's nan stands for the plain value)
            t = tanh(_GELU64_TANH_BETA * (x + _GELU64_KAPPA * (x * x * x)))
            plain = 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * _GELU64_TANH_BETA * (1.0 + _GELU64_TANH_3KAPPA * x * x)
            d = np.where(bad, plain, d)
        return g * d
    return kernel


def gelu_tanh_backward64(g: np.ndarray, x: np.ndarray) -> np.ndarray:
    """float64 gelu's gradient (tanh form), g·(½(1 + t) + ½x(1 - t²)·√(2/π)(1 + 3κx²)), t = tanh(√(2/π)(x + κx³)):
    SLEEF's tanh on blocks of 2 x 8 doubles, glibc's on the rest."""
    token = _np_errstate.set(_QUIET)
    try:
        return two_paths(_gelu_tanh_backward64_with(sleef_tanh64), _gelu_tanh_backward64_with(_tanh64), g, x,
                         block=_BLOCK64)
    finally:
        _np_errstate.reset(token)


_LOGK2_64_POLY = tuple(np.array(c) for c in (
    0.13860436390467167910856, 0.131699838841615374240845, 0.153914168346271945653214, 0.181816523941564611721589,
    0.22222224632662035403996, 0.285714285511134091777308, 0.400000000000914013309483))


def _logk2_64(d):
    """log of a positive pair as a pair (SLEEF's logk2)."""
    _, e = np.frexp(d[0] * (1.0 / 0.75))
    e -= 1
    m = _ldexp2_64(d[0], -e), _ldexp2_64(d[1], -e)
    x = _dddiv(_ddadd2_d(m, -1.0), _ddadd2_d(m, 1.0))
    x2 = _ddsqu(x)
    x4 = x2[0] * x2[0]
    t = _fma64(_poly7_64(x2[0], x4, x4 * x4, _LOGK2_64_POLY), x2[0], 0.666666666666664853302393)
    s = _ddmul_d(_LN2_PAIR64, e.astype(_F64))
    s = _ddadd(s, (x[0] * 2.0, x[1] * 2.0))
    return _ddadd(s, _ddmul_d(_ddmul(x2, x), t))


def sleef_atanh64(x: np.ndarray) -> np.ndarray:
    """SLEEF's ``atanh_u10`` for double, step for step: log((1 + |x|)/(1 - |x|))/2 in double-double."""
    x = np.asarray(x, _F64)
    if x.size > _SLEEF64_LIMIT:
        return np.arctanh(x)
    token = _np_errstate.set(_QUIET)
    try:
        y = np.abs(x)
        inside = np.where(y < 1, y, 0.5)
        d = _logk2_64(_dddiv(_ddadd2_dd_d(1.0, inside), _ddadd2_dd_d(1.0, -inside)))
        r = np.where(y > 1, np.nan, np.where(y == 1, np.inf, (d[0] + d[1]) * 0.5))
        r = np.copysign(r, x)
        return np.where(np.isinf(x) | np.isnan(x), np.nan, r)
    finally:
        _np_errstate.reset(token)


# ---- SLEEF's exp2f, sinhf, coshf (float32 vector code of exp2, sinh, cosh) ----------------------------------

_EXP2F_POLY = tuple(np.array(c, _F32) for c in (0.1535920892e-3, 0.1339262701e-2, 0.9618384764e-2,
                                                0.5550347269e-1, 0.2402264476e+0, 0.6931471825e+0))


def sleef_exp2f(d: np.ndarray) -> np.ndarray:
    """SLEEF's ``exp2f_u10`` (fused multiply-adds), step for step: 2^q·2^s, q = rint(d), 2^s by Horner."""
    d = np.asarray(d, _F32)
    token = _np_errstate.set(_QUIET)
    try:
        x = np.clip(d, np.float32(-160), np.float32(140))
        u = np.rint(x)
        s = x - u
        p = _EXP2F_POLY[0]
        for c in _EXP2F_POLY[1:]:
            p = _fma(p, s, c)
        p = _fma(p, s, _ONE_0D)
        q = u.astype(_I32)
        half = q >> 1
        r = np.ldexp(np.ldexp(p, half).astype(_F32), q - half).astype(_F32)
        r = np.where(d >= 128, np.float32(np.inf), r)
        r = np.where(d < -150, np.float32(0), r)
        return np.where(np.isnan(d), d, r)
    finally:
        _np_errstate.reset(token)


def _sinh_cosh_f(x, sign: int):
    """SLEEF's ``sinhf_u10`` (sign -1) or ``coshf_u10`` (sign 1): (d ± 1/d)/2, d = e^|x| as a float pair."""
    x = np.asarray(x, _F32)
    token = _np_errstate.set(_QUIET)
    try:
        d = _expk2f(np.minimum(np.abs(x), np.float32(90)))
        r = _ONE_0D / d[0]                                  # dfrec
        e = r, r * _fma(-d[1], r, _fma(-d[0], r, _ONE_0D))
        if sign < 0:                                        # dfsub
            s = d[0] - e[0]
            d = s, (((d[0] - s) - e[0]) + d[1]) - e[1]
        else:
            d = _dfadd(d, e)
        y = (d[0] + d[1]) * np.float32(0.5)
        y = np.where((np.abs(x) > np.float32(89)) | np.isnan(y), np.float32(np.inf), y)
        if sign < 0:
            y = np.copysign(y, x)
        return np.where(np.isnan(x), x, y)
    finally:
        _np_errstate.reset(token)


def sleef_sinhf(x: np.ndarray) -> np.ndarray:
    """SLEEF's ``sinhf_u10``, step for step."""
    return _sinh_cosh_f(x, -1)


def sleef_coshf(x: np.ndarray) -> np.ndarray:
    """SLEEF's ``coshf_u10``, step for step."""
    return _sinh_cosh_f(x, 1)


# ---- SLEEF's atanhf, through its logk2f ---------------------------------------------------------------------

_LOGK2F_POLY = tuple(np.array(c, _F32) for c in (0.2392828464508056640625, 0.28518211841583251953125,
                                                 0.400005877017974853515625, 0.666666686534881591796875))


def _dfdiv(n, d):
    """dfdiv_vf2_vf2_vf2: a float pair over a float pair."""
    t = _ONE_0D / d[0]
    s = n[0] * t
    v = _fma(-d[1], t, _fma(-d[0], t, _ONE_0D))
    return s, _fma(s, v, _fma(n[1], t, _fms(t, n[0], s)))


def _logk2f(d):
    """log of a positive float pair as a pair (SLEEF's logk2f): e·ln2 + 2x + x³·t(x²), x = (m - 1)/(m + 1)."""
    _, e = np.frexp(d[0] * _FOUR_THIRDS)
    e -= 1                                                   # getexp
    m = np.ldexp(d[0], -e).astype(_F32), np.ldexp(d[1], -e).astype(_F32)
    x = _dfdiv(_dfadd2(m, (-_ONE_0D, None)), _dfadd2(m, (_ONE_0D, None)))
    sq = x[0] * x[0]                                         # dfsqu
    x2 = sq, _fma(x[0] + x[0], x[1], _fms(x[0], x[0], sq))
    t = _LOGK2F_POLY[0]
    for c in _LOGK2F_POLY[1:]:
        t = _fma(t, x2[0], c)
    s = _dfadd(_dfmul_f(_LN2_PAIR, e.astype(_F32)), (x[0] * _TWO, x[1] * _TWO))
    return _dfadd(s, _dfmul_f(_dfmul(x2, x), t))


def sleef_atanhf(x: np.ndarray) -> np.ndarray:
    """SLEEF's ``atanhf_u10``, step for step: log((1 + |x|)/(1 - |x|))/2 in float pairs."""
    x = np.asarray(x, _F32)
    token = _np_errstate.set(_QUIET)
    try:
        y = np.abs(x)
        inside = np.where(y < 1, y, np.float32(0.5))
        d = _logk2f(_dfdiv(_dfadd2_ff(_ONE_0D, inside), _dfadd2_ff(_ONE_0D, -inside)))
        r = np.where(y > 1, np.float32(np.nan), np.where(y == 1, np.float32(np.inf), (d[0] + d[1]) * np.float32(0.5)))
        r = np.copysign(np.where(np.isinf(x), np.float32(np.nan), r), x)
        return np.where(np.isnan(x), x, r)
    finally:
        _np_errstate.reset(token)


# ---- float64 activations (SLEEF's exp / log1p on vector blocks, glibc's on the tails) ----------------------

_log1p64 = libm_double("log1p", np.log1p)
_expm1_64 = libm_double("expm1", np.expm1)


def silu64(x: np.ndarray) -> np.ndarray:
    """float64 silu, x/(1 + e^-x)."""
    token = _np_errstate.set(_QUIET)
    try:
        return two_paths(lambda v: v / (1.0 + sleef_exp64(-v)), lambda v: v / (1.0 + _exp64(-v)), x, block=_BLOCK64)
    finally:
        _np_errstate.reset(token)


def _silu_backward64_with(exp):
    def kernel(g, x):
        s = 1.0 / (1.0 + exp(-x))
        return g * s * _fma64(x, 1.0 - s, 1.0)
    return kernel


def silu_backward64(g, x):
    """float64 silu_backward: g·σ·(1 + x(1 - σ)), the last factor one fused multiply-add (as ``silu_backward``)."""
    token = _np_errstate.set(_QUIET)
    try:
        return two_paths(_silu_backward64_with(sleef_exp64), _silu_backward64_with(_exp64), g, x, block=_BLOCK64)
    finally:
        _np_errstate.reset(token)


def softplus64(x, beta: float, threshold: float):
    """float64 softplus: log1p(e^(βx))/β, x where βx > threshold."""
    token = _np_errstate.set(_QUIET)
    try:
        soft = two_paths(lambda v: sleef_log1p64(sleef_exp64(v * beta)) / beta,
                         lambda v: _log1p64(_exp64(v * beta)) / beta, x, block=_BLOCK64)
        return np.where(x * beta > threshold, x, soft)
    finally:
        _np_errstate.reset(token)


def softplus_backward64(g, x, beta: float, threshold: float):
    """float64 softplus_backward: g·z/(z + 1), z = e^(βx); g where βx > threshold."""
    token = _np_errstate.set(_QUIET)
    try:
        z = two_paths(lambda _, v: sleef_exp64(v * beta), lambda _, v: _exp64(v * beta), g, x, block=_BLOCK64)
        return np.where(x * beta > threshold, g, g * z / (z + 1.0))
    finally:
        _np_errstate.reset(token)


def log_sigmoid64(x):
    """float64 log_sigmoid and its buffer e^-|x|: PyTorch's vector code on every element."""
    token = _np_errstate.set(_QUIET)
    try:
        buffer = sleef_exp64(-np.abs(x))
        return np.minimum(x, 0.0) - sleef_log1p64(buffer), buffer
    finally:
        _np_errstate.reset(token)


def _ddadd2(x, y):
    """ddadd2_vd2_vd2_vd2: a pair plus a pair, any magnitudes."""
    s = x[0] + y[0]
    v = s - x[0]
    return s, ((x[0] - (s - v)) + (y[0] - v)) + (x[1] + y[1])


def sleef_tanh64(x: np.ndarray) -> np.ndarray:
    """SLEEF's ``tanh_u10`` for double, step for step: (d - 1/d)/(d + 1/d), d = e^|x| a pair; 1 beyond 18.7."""
    x = np.asarray(x, _F64)
    if x.size > _SLEEF64_LIMIT:
        return np.tanh(x)
    token = _np_errstate.set(_QUIET)
    try:
        d = _expk2_64(np.minimum(np.abs(x), 20.0))
        e = _ddrec(d)
        d = _dddiv(_ddadd2(d, (-e[0], -e[1])), _ddadd2(d, e))
        y = d[0] + d[1]
        y = np.where((np.abs(x) > 18.714973875) | np.isnan(y), 1.0, y)
        return np.where(np.isnan(x), x, np.copysign(y, x))
    finally:
        _np_errstate.reset(token)


_tanh64 = libm_double("tanh", np.tanh)


def mish64(x: np.ndarray) -> np.ndarray:
    """float64 mish, x·tanh(log1p(e^x)): SLEEF's functions on vector blocks, glibc's on the rest."""
    token = _np_errstate.set(_QUIET)
    try:
        return two_paths(lambda v: v * sleef_tanh64(sleef_log1p64(sleef_exp64(v))),
                         lambda v: v * _tanh64(_log1p64(_exp64(v))), x, block=_BLOCK64)
    finally:
        _np_errstate.reset(token)


def _mish_backward64_with(exp, log1p, tanh):
    def kernel(g, x):
        s = 1.0 / (1.0 + exp(-x))
        t = tanh(log1p(exp(x)))
        return g * _fma64(x * s, _fma64(-t, t, 1.0), t)
    return kernel


def mish_backward64(g, x):
    """float64 mish_backward: g·(t + x·σ·(1 - t²)) with the fused multiply-adds of ``mish_backward``."""
    token = _np_errstate.set(_QUIET)
    try:
        return two_paths(_mish_backward64_with(sleef_exp64, sleef_log1p64, sleef_tanh64),
                         _mish_backward64_with(_exp64, _log1p64, _tanh64), g, x, block=_BLOCK64)
    finally:
        _np_errstate.reset(token)


# ---- logaddexp (PyTorch's BinaryOpsKernel: SLEEF on vector blocks, glibc on the rest) -----------------------

def _logaddexp_with(exp, log1p):
    def kernel(a, b):
        r = np.maximum(a, b) + log1p(exp(-np.abs(a - b)))
        return np.where((a == b) & np.isinf(a), a, r)
    return kernel


def logaddexp(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """log(e^a + e^b) as PyTorch's kernel rounds it for float32 and float64: max(a, b) + log1p(e^-|a - b|)
    (a itself where a = b = ±inf); NumPy's logaddexp for other types."""
    dt = np.result_type(a, b)
    if dt.kind == "c":
        return complex_logaddexp(np.asarray(a, dt), np.asarray(b, dt))
    if dt not in (_F32, _F64):
        return np.logaddexp(a, b)
    a, b = np.asarray(a, dt), np.asarray(b, dt)
    if dt == _F32:
        vector, scalar, block = _logaddexp_with(sleef_expf, sleef_log1pf), _logaddexp_with(_exp, _log1pf), _BLOCK
    else:
        vector, scalar, block = (_logaddexp_with(sleef_exp64, sleef_log1p64), _logaddexp_with(_exp64, _log1p64),
                                 _BLOCK64)
    token = _np_errstate.set(_QUIET)
    try:
        out = np.asarray(two_paths(vector, scalar, a, b, block=block))
        return out.reshape(np.broadcast_shapes(a.shape, b.shape))
    finally:
        _np_errstate.reset(token)


def complex_logaddexp(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """PyTorch's _log_add_exp_helper for complex x, y: with min/max by real part, log1p(e^(min - max)) + max; min
    where both real parts are -inf, log(e^min + e^max) where both are +inf, nan + nan·i if either is nan."""
    x, y = np.broadcast_arrays(x, y)
    with np.errstate(all="ignore"):
        x_nan, y_nan = np.isnan(x.real) | np.isnan(x.imag), np.isnan(y.real) | np.isnan(y.imag)
        x_min = x.real < y.real
        lo, hi = np.where(x_min, x, y), np.where(x_min, y, x)
        lo, hi = np.where(y_nan, y, np.where(x_nan, x, lo)), np.where(y_nan, y, np.where(x_nan, x, hi))
        out = np.log1p(np.exp(lo - hi)) + hi
        same_inf = ~np.isfinite(lo.real) & (lo.real == hi.real)
        out = np.where(same_inf & (lo.real < 0), lo, out)
        out = np.where(same_inf & (lo.real > 0), np.log(np.exp(lo) + np.exp(hi)), out)
        out = np.where(np.isnan(lo.real) | np.isnan(lo.imag), np.array(complex(np.nan, np.nan), x.dtype), out)
    return out.astype(x.dtype, copy=False)


def _logaddexp2_with(exp2, log1p, fma, inv_ln2):
    def kernel(a, b):
        m, t = np.maximum(a, b), log1p(exp2(-np.abs(a - b)))
        r = fma(t, inv_ln2, m)
        bad = np.isnan(r)
        if bad.any():   # (an infinite max: the emulated fused multiply-add gives nan there)
            r = np.where(bad, m + t * inv_ln2, r)
        return np.where((a == b) & np.isinf(a), a, r)
    return kernel


_exp2f, _exp2_64 = libm_float("exp2f", np.exp2), libm_double("exp2", np.exp2)


def logaddexp2(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """log2(2^a + 2^b) as PyTorch's kernel rounds it for float32 and float64: max(a, b) + log1p(2^-|a - b|)·(1/ln2)
    with the product fused into the sum (both paths), SLEEF's exp2 and log1p on vector blocks and glibc's on the
    rest (a itself where a = b = ±inf); NumPy's logaddexp2 for other types."""
    dt = np.result_type(a, b)
    if dt not in (_F32, _F64):
        return np.logaddexp2(a, b)
    a, b = np.asarray(a, dt), np.asarray(b, dt)
    inv_ln2 = dt.type(1.0 / np.log(2.0))
    if dt == _F32:
        vector = _logaddexp2_with(sleef_exp2f, sleef_log1pf, _fma, inv_ln2)
        scalar, block = _logaddexp2_with(_exp2f, _log1pf, _fma, inv_ln2), _BLOCK
    else:
        vector = _logaddexp2_with(sleef_exp2_64, sleef_log1p64, _fma64, inv_ln2)
        scalar, block = _logaddexp2_with(_exp2_64, _log1p64, _fma64, inv_ln2), _BLOCK64
    token = _np_errstate.set(_QUIET)
    try:
        out = np.asarray(two_paths(vector, scalar, a, b, block=block))
        return out.reshape(np.broadcast_shapes(a.shape, b.shape))
    finally:
        _np_errstate.reset(token)


# ---- SLEEF's lgamma_u10 for double (PyTorch's lgamma: vml::vlgamma maps it over every element) -------------


def _ddmul_dd(x, y):
    """ddmul_vd2_vd_vd: the product of two doubles as a pair."""
    s = x * y
    return s, _fma64(x, y, -s)


def _ddnorm(x):
    """ddnormalize_vd2_vd2."""
    s = x[0] + x[1]
    return s, (x[0] - s) + x[1]


def _ddadd2_d_dd(x, y):
    """ddadd2_vd2_vd_vd2: a double plus a pair, any magnitudes."""
    s = x + y[0]
    v = s - x
    return s, ((x - (s - v)) + (y[0] - v)) + y[1]


def _sel(o, a, b):
    return np.where(o, a, b)


def _selp(o, a, b):
    """vsel of pairs."""
    return np.where(o, a[0], b[0]), np.where(o, a[1], b[1])


_SINPI_U = ((9.94480387626843774090208e-16, -2.02461120785182399295868e-14),
            (-3.89796226062932799164047e-13, 6.948218305801794613277840e-12),
            (1.150115825399960352669010e-10, -1.75724749952853179952664e-09),
            (-2.46113695010446974953590e-08, 3.133616889668683928784220e-07),
            (3.590860448590527540050620e-06, -3.65762041821615519203610e-05),
            (-0.000325991886927389905997954, 0.0024903945701927185027435600))


def _sinpik(d):
    """sin(πd) as a pair (SLEEF's sinpik)."""
    u = d * 4.0
    q = np.trunc(u).astype(np.int64)
    q = (q + np.where(q < 0, 0, 1)) & ~1
    o = (q & 2) == 2
    s = u - q
    t = s
    s = s * s
    s2 = _ddmul_dd(t, t)
    u = _sel(o, *_SINPI_U[0])
    for a, b in _SINPI_U[1:]:
        u = _fma64(u, s, _sel(o, a, b))
    x = _ddadd2_d_dd(u * s, _selp(o, (0.0158543442438155018914259, -1.04693272280631521908845e-18),
                                  (-0.0807455121882807852484731, 3.61852475067037104849987e-18)))
    x = _ddadd2(_ddmul(s2, x), _selp(o, (-0.308425137534042437259529, -1.95698492133633550338345e-17),
                                     (0.785398163397448278999491, 3.06287113727155002607105e-17)))
    x = _ddmul(x, _selp(o, s2, (t, np.zeros_like(t))))
    x = _selp(o, _ddadd2_d(x, 1.0), x)
    neg = (q & 4) == 4
    return np.where(neg, -x[0], x[0]), np.where(neg, -x[1], x[1])


_GAMMA_U = [(-156.801412704022726379848862, +0.2947916772827614196e+2, +0.7074816000864609279e-7),
 (+1.120804464289911606838558160000, +0.1281459691827820109e+3, +0.4009244333008730443e-6),
 (+13.39798545514258921833306020000, +0.2617544025784515043e+3, +0.1040114641628246946e-5),
 (-0.116546276599463200848033357000, +0.3287022855685790432e+3, +0.1508349150733329167e-5),
 (-1.391801093265337481495562410000, +0.2818145867730348186e+3, +0.1288143074933901020e-5),
 (+0.015056113040026424412918973400, +0.1728670414673559605e+3, +0.4744167749884993937e-6),
 (+0.179540117061234856098844714000, +0.7748735764030416817e+2, -0.6554816306542489902e-7),
 (-0.002481743600264997730942489280, +0.2512856643080930752e+2, -0.3189252471452599844e-6),
 (-0.029527880945699120504851034100, +0.5766792106140076868e+1, +0.1358883821470355377e-6),
 (+0.000540164767892604515196325186, +0.7270275473996180571e+0, -0.4343931277157336040e-6),
 (+0.006403362833808069794787256200, +0.8396709124579147809e-1, +0.9724785897406779555e-6),
 (-0.000162516262783915816896611252, -0.8211558669746804595e-1, -0.2036886057225966011e-5),
 (-0.001914438498565477526465972390, +0.6828831828341884458e-1, +0.4373363141819725815e-5),
 (+7.20489541602001055898311517e-05, -0.7712481339961671511e-1, -0.9439951268304008677e-5),
 (+0.000839498720672087279971000786, +0.8337492023017314957e-1, +0.2050727030376389804e-4),
 (-5.17179090826059219329394422e-05, -0.9094964931456242518e-1, -0.4492620183431184018e-4),
 (-0.000592166437353693882857342347, +0.1000996313575929358e+0, +0.9945751236071875931e-4),
 (+6.97281375836585777403743539e-05, -0.1113342861544207724e+0, -0.2231547599034983196e-3),
 (+0.000784039221720066627493314301, +0.1255096673213020875e+0, +0.5096695247101967622e-3),
 (-0.000229472093621399176949318732, -0.1440498967843054368e+0, -0.1192753911667886971e-2),
 (-0.002681327160493827160473958490, +0.1695571770041949811e+0, +0.2890510330742210310e-2),
 (+0.003472222222222222222175164840, -0.2073855510284092762e+0, -0.7385551028674461858e-2),
 (+0.083333333333333333335592087900, +0.2705808084277815939e+0, +0.2058080842778455335e-1)]


def _gammak(a):
    """SLEEF's gammak: (log part, factor) pairs with Γ(a) = e^clc · factor, by shifting a up to where the
    asymptotic series (or one of two polynomials) holds, and the reflection formula below 0.5."""
    zero = np.zeros_like(a)
    one = np.ones_like(a)
    otiny = np.abs(a) < 1e-306
    oref = a < 0.5
    x = _selp(otiny, (zero, zero), _selp(oref, _ddadd2_dd_d(one, -a), (a, zero)))
    o0 = (0.5 <= x[0]) & (x[0] <= 1.1)
    o2 = 2.3 <= x[0]
    y = _ddnorm(_ddmul(_ddadd2_d(x, 1.0), x))
    for k in (2.0, 3.0, 4.0):
        y = _ddnorm(_ddmul(_ddadd2_d(x, k), y))
    o = o2 & (x[0] <= 7)
    clln = _selp(o, y, (one, zero))
    x = _selp(o, _ddadd2_d(x, 5.0), x)
    t = np.where(o2, 1.0 / x[0], _ddnorm(_ddadd2_d(x, np.where(o0, -1.0, -2.0)))[0])
    def pick(c): return np.where(o2, c[0], np.where(o0, c[1], c[2]))
    u = pick(_GAMMA_U[0])
    for c in _GAMMA_U[1:]:
        u = _fma64(u, t, pick(c))
    y = _ddmul(_ddadd2_d(x, -0.5), _logk2_64(x))
    y = _ddadd2(y, (-x[0], -x[1]))
    y = _ddadd2(y, (0.91893853320467278056, -3.8782941580672414498e-17))
    z = _ddadd2_d(_ddmul_dd(u, t), np.where(o0, -0.4006856343865314862e+0, -0.6735230105319810201e-1))
    z = _ddadd2_d(_ddmul_d(z, t), np.where(o0, +0.8224670334241132030e+0, +0.3224670334241132030e+0))
    z = _ddadd2_d(_ddmul_d(z, t), np.where(o0, -0.5772156649015328655e+0, +0.4227843350984671345e+0))
    z = _ddmul_d(z, t)
    clc = _selp(o2, y, z)
    clld = _selp(o2, _ddadd2_d(_ddmul_dd(u, t), 1.0), (one, zero))
    y = clln
    log_pi = (1.1447298858494001639 + zero, 1.026595116270782638e-17 + zero)
    clc = _selp(otiny, (83.1776616671934334590333 + zero, 3.67103459631568507221878e-15 + zero),   # log 2^120
                _selp(oref, _ddadd2(log_pi, (-clc[0], -clc[1])), clc))
    clln = _selp(otiny, (one, zero), _selp(oref, clln, clld))
    x = (zero, zero)
    if oref.any():
        tt = a - 2.0 ** 28 * np.trunc(a * (1.0 / 2 ** 28))
        x = _ddmul(clld, _sinpik(tt))
    clld = _selp(otiny, (a * (2.0 ** 60 * 2.0 ** 60), zero), _selp(oref, x, y))
    return clc, _dddiv(clln, clld)


def sleef_lgamma64(a: np.ndarray) -> np.ndarray:
    """SLEEF's ``lgamma_u10`` for double, step for step (PyTorch's lgamma kernel runs it on every element)."""
    a = np.asarray(a, _F64)
    if a.size > _SLEEF64_LIMIT:
        return np.vectorize(_lgamma_py, otypes=[_F64])(a)
    token = _np_errstate.set(_QUIET)
    try:
        clc, b = _gammak(a)
        s = np.where(b[0] < 0, -1.0, 1.0)   # ddabs
        y = _ddadd2(clc, _logk2_64((np.abs(b[0]), b[1] * s)))
        r = y[0] + y[1]
        isint = (a == np.trunc(a))
        bad = np.isinf(a) | ((a <= 0) & isint) | (np.isfinite(a) & np.isnan(r))
        return np.where(bad, np.inf, r)
    finally:
        _np_errstate.reset(token)


def _lgamma_py(x: float) -> float:
    try:
        return math.lgamma(x)
    except ValueError:   # (the poles)
        return math.inf


# ---- SLEEF's lgammaf_u10 for float (PyTorch's float32 lgamma: vml::vlgamma maps it over every element) -----
# The same method as the double version above (gammak, then log|Γ| = clc + log|factor|), with float pairs and
# fewer terms; each step is float32 arithmetic as SLEEF's AVX-512 code does it (fused multiply-adds).


def _f32(c):
    return np.array(c, _F32)


def _f32_pair(d):
    """vcast_vf2_d: a double constant as a float pair (hi, the rest)."""
    hi = np.float32(d)
    return _f32(hi), _f32(d - float(hi))


def _dfmul_ff(x, y):
    """dfmul_vf2_vf_vf: the product of two floats as a pair."""
    s = x * y
    return s, _fms(x, y, s)


def _dfnorm(x):
    """dfnormalize_vf2_vf2."""
    s = x[0] + x[1]
    return s, (x[0] - s) + x[1]


def _selp32(o, a, b):
    return np.where(o, a[0], b[0]), np.where(o, a[1], b[1])


def _trunc_i32(x):
    """vtruncate_vi2_vf: toward zero, INT_MIN where out of range (as cvttps2dq)."""
    ok = np.abs(x) < 2.0 ** 31
    return np.where(ok, np.trunc(np.where(ok, x, 0)), -2.0 ** 31).astype(np.int64)


_SINPIF_U = tuple((_f32(a), _f32(b)) for a, b in ((-0.2430611801e-7, +0.3093842054e-6),
                                                  (+0.3590577080e-5, -0.3657307388e-4),
                                                  (-0.3259917721e-3, +0.2490393585e-2)))
_SINPIF_X1 = (_f32(0.015854343771934509277), _f32(4.4940051354032242811e-10)), \
    (_f32(-0.080745510756969451904), _f32(-1.3373665339076936258e-09))
_SINPIF_X2 = (_f32(-0.30842512845993041992), _f32(-9.0728339030733922277e-09)), \
    (_f32(0.78539818525314331055), _f32(-2.1857338617566484855e-08))


def _sinpifk(d):
    """sin(πd) as a float pair (SLEEF's sinpifk): a quarter-period index q and a polynomial in the rest."""
    u = d * _f32(4)
    q = _trunc_i32(u)
    q = (q + np.where(q < 0, 0, 1)) & ~1
    o = (q & 2) == 2
    s = u - q.astype(_F32)
    t = s
    s = s * s
    s2 = _dfmul_ff(t, t)
    u = np.where(o, *_SINPIF_U[0])
    for a, b in _SINPIF_U[1:]:
        u = _fma(u, s, np.where(o, a, b))
    x = _dfadd2((u * s, np.zeros_like(s)), _selp32(o, *_SINPIF_X1))
    x = _dfadd2(_dfmul(s2, x), _selp32(o, *_SINPIF_X2))
    x = _dfmul(x, _selp32(o, s2, (t, np.zeros_like(t))))
    x = _selp32(o, _dfadd2(x, (_ONE_0D, None)), x)
    neg = (q & 4) == 4
    return np.where(neg, -x[0], x[0]), np.where(neg, -x[1], x[1])


# Coefficients of gammafk's polynomial in t: (x ≥ 2.3: the asymptotic series in 1/x; 0.5 ≤ x ≤ 1.2; else)
_GAMMAF_U = tuple(tuple(_f32(c) for c in cs) for cs in (
    (+0.000839498720672087279971000786, +0.9435157776e+0, +0.1102489550e-3),
    (-5.17179090826059219329394422e-05, +0.8670063615e+0, +0.8160019934e-4),
    (-0.000592166437353693882857342347, +0.4826702476e+0, +0.1528468856e-3),
    (+6.97281375836585777403743539e-05, -0.8855129778e-1, -0.2355068718e-3),
    (+0.000784039221720066627493314301, +0.1013825238e+0, +0.4962242092e-3),
    (-0.000229472093621399176949318732, -0.1493408978e+0, -0.1193488017e-2),
    (-0.002681327160493827160473958490, +0.1697509140e+0, +0.2891599433e-2),
    (+0.003472222222222222222175164840, -0.2072454542e+0, -0.7385451812e-2),
    (+0.083333333333333333335592087900, +0.2705872357e+0, +0.2058077045e-1)))
_GAMMAF_Z = tuple((_f32(a), _f32(b)) for a, b in (
    (-0.400686534596170958447352690395e+0, -0.673523028297382446749257758235e-1),
    (+0.822466960142643054450325495997e+0, +0.322467033928981157743538726901e+0),
    (-0.577215665946766039837398973297e+0, +0.422784335087484338986941629852e+0)))
_HALF_LOG_2PI_F = _f32_pair(0.91893853320467278056)
_LOG_PI_F = _f32_pair(1.1447298858494001639)
_LOG_2_60_F = _f32_pair(41.58883083359671856503)


def _gammafk(a):
    """SLEEF's gammafk: (clc, factor) pairs with Γ(a) = e^clc · factor (reflection below 0.5, a shift up by
    3 for 2.3 ≤ x ≤ 7, then Stirling's series in 1/x or a polynomial near 1 or 2)."""
    zero = np.zeros_like(a)
    one = np.ones_like(a)
    otiny = np.abs(a) < _f32(1e-30)
    oref = a < _f32(0.5)
    x = _selp32(otiny, (zero, zero), _selp32(oref, _dfadd2_ff(_ONE_0D, -a), (a, zero)))
    o0 = (_f32(0.5) <= x[0]) & (x[0] <= _f32(1.2))
    o2 = _f32(2.3) <= x[0]
    y = _dfnorm(_dfmul(_dfadd2(x, (_ONE_0D, None)), x))
    y = _dfnorm(_dfmul(_dfadd2(x, (_f32(2), None)), y))
    o = o2 & (x[0] <= _f32(7))
    clln = _selp32(o, y, (one, zero))
    x = _selp32(o, _dfadd2(x, (_f32(3), None)), x)
    t = np.where(o2, _ONE_0D / x[0], _dfnorm(_dfadd2(x, (np.where(o0, _f32(-1), _f32(-2)), None)))[0])
    def pick(c): return np.where(o2, c[0], np.where(o0, c[1], c[2]))
    u = pick(_GAMMAF_U[0])
    for c in _GAMMAF_U[1:]:
        u = _fma(u, t, pick(c))
    y = _dfmul(_dfadd2(x, (_f32(-0.5), None)), _logk2f(x))
    y = _dfadd2(y, (-x[0], -x[1]))
    y = _dfadd2(y, _HALF_LOG_2PI_F)
    z = _dfadd2(_dfmul_ff(u, t), (np.where(o0, *_GAMMAF_Z[0]), None))
    z = _dfadd2(_dfmul_f(z, t), (np.where(o0, *_GAMMAF_Z[1]), None))
    z = _dfadd2(_dfmul_f(z, t), (np.where(o0, *_GAMMAF_Z[2]), None))
    z = _dfmul_f(z, t)
    clc = _selp32(o2, y, z)
    clld = _selp32(o2, _dfadd2(_dfmul_ff(u, t), (_ONE_0D, None)), (one, zero))
    y = clln
    clc = _selp32(otiny, (_LOG_2_60_F[0] + zero, _LOG_2_60_F[1] + zero),
                  _selp32(oref, _dfadd2((_LOG_PI_F[0] + zero, _LOG_PI_F[1] + zero), (-clc[0], -clc[1])), clc))
    clln = _selp32(otiny, (one, zero), _selp32(oref, clln, clld))
    x = (zero, zero)
    if oref.any():   # (SLEEF skips the sine when no lane reflects)
        tt = a - _f32(4096) * _trunc_i32(a * _f32(1 / 4096)).astype(_F32)
        x = _dfmul(clld, _sinpifk(tt))
    clld = _selp32(otiny, (a * _f32(2.0 ** 60), zero), _selp32(oref, x, y))
    return clc, _dfdiv(clln, clld)


def sleef_lgammaf(a: np.ndarray) -> np.ndarray:
    """SLEEF's ``lgammaf_u10`` (its xlgammaf_u1) for float32, step for step: PyTorch's float32 lgamma kernel
    runs it on every element (vec::map pads the last partial vector, so no element takes glibc's lgammaf)."""
    a = np.asarray(a, _F32)
    token = _np_errstate.set(_QUIET)
    try:
        clc, b = _gammafk(a)
        s = np.where(b[0] < 0, _f32(-1), _f32(1))    # dfabs
        y = _dfadd2(clc, _logk2f((np.abs(b[0]), b[1] * s)))
        r = y[0] + y[1]
        isint = a == np.trunc(a)
        bad = np.isinf(a) | ((a <= 0) & isint) | (np.isfinite(a) & np.isnan(r))
        return np.where(bad, _f32(np.inf), r)
    finally:
        _np_errstate.reset(token)


# ---- SLEEF's atan2_u10 for double (atan2's vector code) ----------------------------------------------------

_ATAN2_64_POLY = _coefficients(
    1.06298484191448746607415e-05, -0.000125620649967286867384336, 0.00070557664296393412389774,
    -0.00251865614498713360352999, 0.00646262899036991172313504, -0.0128281333663399031014274,
    0.0208024799924145797902497, -0.0289002344784740315686289, 0.0359785005035104590853656,
    -0.041848579703592507506027, 0.0470843011653283988193763, -0.0524914210588448421068719,
    0.0587946590969581003860434, -0.0666620884778795497194182, 0.0769225330296203768654095,
    -0.0909090442773387574781907, 0.111111108376896236538123, -0.142857142756268568062339,
    0.199999999997977351284817, -0.333333333333317605173818)
_HALF_PI_PAIR = (np.array(1.570796326794896557998982), np.array(6.12323399573676603586882e-17))


def _xor_sign(r, s):
    """SLEEF's vmulsign: r with its sign flipped where s's sign bit is set."""
    return np.where(np.signbit(s), -r, r)


def _visinf2(d, m):
    """SLEEF's visinf2: m with d's sign bit or-ed in where d is infinite, else 0."""
    return np.where(np.isinf(d), np.where(np.signbit(d), -np.abs(m), m), 0.0)


def sleef_atan2_64(y: np.ndarray, x: np.ndarray) -> np.ndarray:
    """SLEEF's ``atan2_u10`` for double (atan2k_u1 in double-double), step for step."""
    y, x = np.broadcast_arrays(np.asarray(y, _F64), np.asarray(x, _F64))
    if x.size > _SLEEF64_LIMIT:
        return np.arctan2(y, x)
    token = _np_errstate.set(_QUIET)
    try:
        tiny = np.abs(x) < 5.5626846462680083984e-309   # (scaled up together)
        x = np.where(tiny, x * 2.0 ** 53, x)
        y = np.where(tiny, y * 2.0 ** 53, y)
        ay, ax = np.abs(y), np.abs(x)
        q = np.where(x < 0, -2, 0)                       # quadrant, in quarter turns
        p = ax < ay
        q = np.where(p, q + 1, q)
        zero = np.zeros_like(x)
        s = _dddiv((np.where(p, -ax, ay), zero), (np.where(p, ay, ax), zero))   # the ratio below 1
        t = _ddsqu(s)
        hi = t[0] + t[1]
        t = hi, (t[0] - hi) + t[1]                       # ddnormalize
        tx = t[0]
        t2 = tx * tx
        t4 = t2 * t2
        c = _ATAN2_64_POLY
        u = _fma64(t4 * t4, _poly8_64(tx, t2, t4, c[0:8]), _poly8_64(tx, t2, t4, c[8:16]))
        for k in c[16:]:
            u = _fma64(u, tx, k)
        t = _ddadd(s, _ddmul_d(_ddmul(s, t), u))
        t = _ddadd(_ddmul_d(_HALF_PI_PAIR, q.astype(_F64)), t)
        r = _xor_sign(t[0] + t[1], x)
        r = np.where(np.isinf(x) | (x == 0), np.pi / 2 - _visinf2(x, _xor_sign(np.pi / 2, x)), r)
        r = np.where(np.isinf(y), np.pi / 2 - _visinf2(x, _xor_sign(np.pi / 4, x)), r)
        r = np.where(y == 0, np.where(np.signbit(x), np.pi, 0.0), r)
        return np.where(np.isnan(x) | np.isnan(y), np.nan, _xor_sign(r, y))
    finally:
        _np_errstate.reset(token)



# ---- SLEEF's atan2f_u10 (``Sleef_atan2f16_u10``, which Vectorized<float>::atan2 calls) -------------------------

_ATAN2F_POLY = tuple(np.array(c, _F32) for c in (
    -0.00176397908944636583328247, 0.0107900900766253471374512, -0.0309564601629972457885742,
    0.0577365085482597351074219, -0.0838950723409652709960938, 0.109463557600975036621094,
    -0.142626821994781494140625, 0.199983194470405578613281))
_ATAN2F_THIRD = np.array(-0.333332866430282592773438, _F32)
_HALF_PI_PAIR32 = (np.array(1.5707963705062866211, _F32), np.array(-4.3711388286737928865e-08, _F32))


def sleef_atan2f(y: np.ndarray, x: np.ndarray) -> np.ndarray:
    """SLEEF's ``atan2f_u10`` (atan2kf_u1 in float pairs, fused multiply-adds), step for step, on float32.

    atan2 = q·π/2 + atan(s), s = min(|x|, |y|)/max(...) (negated when |x| < |y|), the series in s² = t:
    s·(1 + t·(-1/3 + t·u(t))).
    """
    y, x = np.broadcast_arrays(np.asarray(y, _F32), np.asarray(x, _F32))
    token = _np_errstate.set(_QUIET)
    try:
        tiny = np.abs(x) < np.float32(2.9387372783541830947e-39)   # (scaled up together)
        x = np.where(tiny, x * np.float32(1 << 24), x)
        y = np.where(tiny, y * np.float32(1 << 24), y)
        ay, ax = np.abs(y), np.abs(x)
        q = np.where(x < 0, -2, 0)                       # quadrant, in quarter turns
        p = ax < ay
        q = np.where(p, q + 1, q)
        zero = np.zeros_like(x)
        s = _dfdiv((np.where(p, -ax, ay), zero), (np.where(p, ay, ax), zero))   # the ratio below 1
        sq = s[0] * s[0]                                 # dfsqu, then dfnormalize
        t = sq, _fma(s[0] + s[0], s[1], _fms(s[0], s[0], sq))
        hi = t[0] + t[1]
        t = hi, (t[0] - hi) + t[1]
        u = _ATAN2F_POLY[0]
        for c in _ATAN2F_POLY[1:]:
            u = _fma(u, t[0], c)
        ut = u * t[0]
        third = _ATAN2F_THIRD + ut                       # dfadd_vf2_vf_vf(-1/3, u·t)
        t = _dfmul(t, (third, (_ATAN2F_THIRD - third) + ut))
        one = _ONE_0D + t[0]                             # dfadd_vf2_vf_vf2(1, t)
        t = _dfmul(s, (one, ((_ONE_0D - one) + t[0]) + t[1]))
        t = _dfadd(_dfmul_f(_HALF_PI_PAIR32, q.astype(_F32)), t)
        r = _xor_sign(t[0] + t[1], x)
        half_pi, quarter_pi = np.float32(np.pi / 2), np.float32(np.pi / 4)
        r = np.where(np.isinf(x) | (x == 0), half_pi - _visinf2(x, _xor_sign(half_pi, x)).astype(_F32), r)
        r = np.where(np.isinf(y), half_pi - _visinf2(x, _xor_sign(quarter_pi, x)).astype(_F32), r)
        r = np.where(y == 0, np.where(np.signbit(x), np.float32(np.pi), np.float32(0)), r)
        return np.where(np.isnan(x) | np.isnan(y), np.float32(np.nan), _xor_sign(r, y)).astype(_F32)
    finally:
        _np_errstate.reset(token)

# ---- SLEEF's pow_u10 for double (pow's vector code) -----------------------------------------------------------


_LOGK64_POLY = _coefficients(0.116255524079935043668677, 0.103239680901072952701192, 0.117754809412463995466069,
    0.13332981086846273921509, 0.153846227114512262845736, 0.181818180850050775676507, 0.222222222230083560345903,
    0.285714285714249172087875, 0.400000000000000077715612)
_LOGK64_C = (np.array(0.666666666666666629659233), np.array(3.80554962542412056336616e-17))


def _logk64(d):
    """log d as a pair (SLEEF's logk: getexp/getmant, then a double-double series), d > 0 finite."""
    mant, ex = np.frexp(d)
    low = mant < 0.75
    m = np.ldexp(mant, low)
    e = (ex - low).astype(_F64)
    x = _dddiv(_ddadd2_dd_d(-1.0, m), _ddadd2_dd_d(1.0, m))
    x2 = _ddsqu(x)
    x4 = x2[0] * x2[0]
    x8 = x4 * x4
    c = _LOGK64_POLY
    t = _fma64(x8 * x8, c[0], _poly8_64(x2[0], x4, x8, c[1:9]))
    s = _ddmul_d(_LN2_PAIR64, e)
    s = _ddadd(s, (x[0] * 2.0, x[1] * 2.0))
    x = _ddmul(x2, x)
    s = _ddadd(s, _ddmul(x, _LOGK64_C))
    x = _ddmul(x2, x)
    return _ddadd(s, _ddmul_d(x, t))


def sleef_pow64(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """SLEEF's ``pow_u10`` for double, step for step: e^(y·log|x|) in double-double, then its special cases."""
    x, y = np.broadcast_arrays(np.asarray(x, _F64), np.asarray(y, _F64))
    if x.size > _SLEEF64_LIMIT:
        return np.power(x, y)
    token = _np_errstate.set(_QUIET)
    try:
        yisint = (y == np.trunc(y)) | (np.abs(y) >= 2.0 ** 53)
        yisodd = yisint & (np.abs(np.fmod(y, 2.0)) == 1)
        ax = np.abs(x)
        d = _ddmul_d(_logk64(np.where((ax == 0) | np.isinf(ax), 1.0, ax)), y)   # (0 and inf: below)
        r = _expk64(d)
        r = np.where(d[0] > 709.78271114955742909217217426, np.inf, r)
        r = r * np.where(x > 0, 1.0, np.where(yisint, np.where(yisodd, -1.0, 1.0), np.nan))
        efx = _xor_sign(ax - 1, y)
        r = np.where(np.isinf(y), np.where(efx < 0, 0.0, np.where(efx == 0, 1.0, np.inf)), r)
        r = np.where(np.isinf(x) | (x == 0),
                     _xor_sign(np.where(np.signbit(y) ^ (x == 0), 0.0, np.inf), np.where(yisodd, x, 1.0)), r)
        r = np.where(np.isnan(x) | np.isnan(y), np.nan, r)
        return np.where((y == 0) | (x == 1), 1.0, r)
    finally:
        _np_errstate.reset(token)


_pow64_glibc = libm_double("pow", np.power, 2)


def pow_float64(x, y) -> np.ndarray:
    """float64 ``x ** y`` (tensors, or a number and a tensor): SLEEF's pow on blocks of 2 x 8 doubles, glibc's on
    the rest."""
    x, y = np.asarray(x, _F64), np.asarray(y, _F64)
    return two_paths(sleef_pow64, _pow64_glibc, x, y, block=_BLOCK64)
