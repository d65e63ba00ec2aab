"""float32 math as PyTorch's CPU kernels round it, bit for bit where that can be reproduced.

NumPy's float32 ``exp``, ``sin``, ``log10`` ... differ from PyTorch's in the last bit for 5-60% of inputs,
because the two use different approximations. PyTorch computes, for a float32 tensor (AVX-512 build):

- exp, log, log2, log10, log1p, expm1, sin, cos, tan, asin, acos, atan, tanh, erf, erfc: Intel MKL's vector
  math (high-accuracy mode). It is closed source, but almost correctly rounded, so the float64 result
  rounded once to float32 (``via_float64``) matches it for 90-100% of inputs (sqrt: MKL's float32 sqrt is
  not correctly rounded and no emulation is known here; NumPy's correctly rounded one matches 82%). MKL
  runs on every layout and length (contiguous, strided, 0-d and in-place results agree), so these are a
  function of the value alone (log: 96.7% of values match, exp 99%).
- pow (``pow_scalar_exponent``, ``pow_float32``): SLEEF's ``powf_u10`` on vector blocks (``sleef_powf``,
  step for step: exact), and on the scalar tail glibc's ``powf`` for two tensors, or ``std::pow(float,
  double)`` (pow in double, the exponent as given) for a tensor ** number.
- sigmoid, silu, softplus, mish, elu, sinh, cosh, atanh, logit ... (``cpu_kernel_vec``): SLEEF's vector
  functions on each full block of 2 x 16 floats, and the C library's scalar functions on the rest (the
  last ``n % 32`` elements of a contiguous tensor, of each inner line of a broadcast or row-strided one,
  every element of one strided along its last dim). ``two_paths`` splits a tensor the same way;
  ``sleef_expf`` and ``sleef_logf`` are SLEEF's ``expf_u10`` and ``logf_u10`` step for step (SLEEF's
  log1pf, tanhf ... are not: correctly rounded values stand in), ``glibc_expf`` is
  glibc's ``expf`` and ``libm_float`` calls glibc's other float functions (``log1pf`` ...), which are not
  correctly rounded either. The gradients of silu, mish and elu are kernels of their own here too
  (``silu_backward`` ...), with the fused multiply-adds the compiler makes of them.
- asinh, acosh: glibc's ``asinhf``/``acoshf`` on every element.
- float16 and bfloat16: the float32 computation, rounded to the half type.
"""
from __future__ import annotations

import ctypes
import ctypes.util

import numpy as np

from ._dispatch import _QUIET, _np_errstate

_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)

# PyTorch's vector loop takes 2 vectors of 16 floats (AVX-512) per step; the remainder runs scalar code.
_BLOCK = 32
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


def libm_two_paths(name: str, np64, arity: int = 1):
    """A ``cpu_kernel_vec`` op whose vector code is SLEEF's and scalar code glibc's ``<name>f``: the correctly
    rounded value stands in for SLEEF's (both are within an ulp), glibc's own function for the scalar path."""
    vector, scalar = correctly_rounded(np64), libm_float(name + "f", np64, arity)
    return for_float32(lambda *xs: two_paths(vector, scalar, *xs), np64)


def libm_op(name: str, np64):
    """An op that PyTorch computes with glibc's ``<name>f`` on every element (asinh, acosh)."""
    return for_float32(libm_float(name + "f", np64), np64)


def correctly_rounded(np64):
    """``np64`` in float64 rounded to float32: the C library's float function, up to its rare misroundings."""
    return lambda *xs: np64(*(x.astype(_F64) for x in xs)).astype(_F32)


def tanh_backward(g, y):
    """g·(1 - y²) with 1 - y² rounded once: PyTorch's compiled kernel fuses it into one multiply-add."""
    if y.dtype == _F32:  # (a float32 square is exact in float64: one rounding, at the end)
        s = np.multiply(y, y, dtype=_F64)
        s = np.subtract(1.0, s, out=s) if s.ndim else 1.0 - s  # (a 0-dim product is a NumPy scalar)
        return g * s.astype(_F32)
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
        x = d.clip(_EXPF_LOW, _EXPF_HIGH)
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


def two_paths(vector, scalar, *xs: np.ndarray) -> np.ndarray:
    """``cpu_kernel_vec``: ``vector`` on whole blocks of a contiguous tensor, ``scalar`` on the rest.

    PyTorch's loop runs its vector code on blocks of 32 floats and its scalar code on the remaining
    ``n % 32`` elements (in memory order), or on every element when an operand is strided.
    """
    shape = np.broadcast_shapes(*(x.shape for x in xs))
    if len(xs) == 1 and xs[0].ndim > 1 and xs[0].flags.f_contiguous and not xs[0].flags.c_contiguous:
        return two_paths(vector, scalar, xs[0].T).T  # a transpose: memory order is its transpose's C order
    n = int(np.prod(shape))
    tail = n % _BLOCK
    if n == tail:
        return scalar(*xs)
    if not all(_vector_ok(x, shape) for x in xs):
        return _by_lines(vector, scalar, shape, xs)
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


def _by_lines(vector, scalar, shape: tuple, xs: tuple) -> np.ndarray:
    """``two_paths`` of broadcast or row-strided operands: vector blocks on each inner line, scalar tails."""
    length = _line_length(shape, xs)
    if length < _BLOCK:
        return scalar(*xs)
    v = vector(*xs)
    out = np.empty(shape, v.dtype)
    out[...] = v
    start = length - length % _BLOCK
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
    # (SLEEF's log1pf is not reproduced here: its correctly rounded value stands in on the vector path)
    vec = lambda v: correctly_rounded(np.log1p)(sleef_expf(v * b)) / b
    return np.where(x * b > t, x, two_paths(vec, lambda v: _log1pf(_exp(v * b)) / b, x))


def mish(x):
    """x · tanh(log1p(e^x))."""
    vec = lambda v: v * correctly_rounded(np.tanh)(correctly_rounded(np.log1p)(sleef_expf(v)))
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
    (SLEEF's log1pf and tanhf are not reproduced: their correctly rounded values stand in, as in ``mish``.)"""
    vector = _mish_backward_with(sleef_expf, correctly_rounded(np.log1p), correctly_rounded(np.tanh))
    return two_paths(vector, _mish_backward_with(_exp, _log1pf, _tanhf), g, x)


def elu(x, alpha: float, scale: float, input_scale: float):
    """x·scale for x > 0, else expm1(x·input_scale)·(α·scale), the coefficients in float32."""
    neg, pos, inp = np.float32(alpha) * np.float32(scale), np.float32(scale), np.float32(input_scale)
    em1 = two_paths(lambda v: correctly_rounded(np.expm1)(np.minimum(v, 0) * inp),
                    lambda v: _expm1f(np.minimum(v, 0) * inp), x)
    return np.where(x > 0, x * pos, em1 * neg)


def elu_backward(g, x, alpha: float, scale: float, input_scale: float, is_result: bool):
    """PyTorch's elu_backward kernel: g·scale for x > 0, else g·input_scale·(α·scale)·e^(x·input_scale), or
    from the result y (in-place elu_) g·input_scale·(y + α·scale); the coefficients in float32. (Its vector
    code tests x > 0 and its scalar code x <= 0: they part only on nan.)"""
    neg, pos, inp = np.float32(alpha) * np.float32(scale), np.float32(scale), np.float32(input_scale)

    def kernel(exp, vector: bool):
        def run(a, b):
            negative = a * inp * (b + neg) if is_result else a * inp * neg * exp(b * inp)
            return np.where(b > 0, a * pos, negative) if vector else np.where(b <= 0, negative, a * pos)
        return run
    return two_paths(kernel(sleef_expf, True), kernel(_exp, False), g, x)


_GELU_BETA = np.float32(np.sqrt(2.0) * (2 / np.sqrt(np.pi)) * 0.5)  # √(2/π), as M_SQRT2 · M_2_SQRTPI / 2
_GELU_KAPPA = np.float32(0.044715)
_HALF = np.float32(0.5)


def gelu_tanh(x):
    """x/2 · (1 + tanh(√(2/π)(x + 0.044715x³)))."""
    inner = lambda v: _GELU_BETA * (v + _GELU_KAPPA * (v * v * v))
    t = two_paths(lambda v: correctly_rounded(np.tanh)(inner(v)), lambda v: _tanhf(inner(v)), x)
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
    """log(x / (1 - x)), inf at 1; x first clamped to [eps, 1 - eps] when eps is given."""
    if eps is not None:
        lo = np.float32(eps)
        x = np.clip(x, lo, _ONE - lo)
    # (SLEEF's logf on the vector path: its correctly rounded value stands in)
    log_ratio = two_paths(lambda v: correctly_rounded(np.log)(v / (_ONE - v)), lambda v: _logf(v / (_ONE - v)), x)
    return np.where(x == 1, np.float32(np.inf), log_ratio)


_logf = libm_float("logf", np.log)


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
