"""float32 gelu (erf form) and its gradient as PyTorch's CPU computes them on contiguous tensors: oneDNN.

``F.gelu(x)`` (approximate='none') on a contiguous float32 tensor of 2+ elements does not run ATen's
GeluKernel: ATen's ``use_mkldnn(self)`` sends it to oneDNN's eltwise primitive (``eltwise_gelu_erf``), whose
AVX-512 JIT code (``jit_uni_eltwise_injector.cpp``, oneDNN v3.x) is reproduced here step for step:

- forward: erf(x/√2) from a table of 25 quintic minimax polynomials in |x| (picked by |x|'s exponent and two
  mantissa bits), then ``x · (1 + erf) · 0.5``;
- backward: Φ(x) + x·φ(x) with Abramowitz-Stegun's erf (7.1.26) and oneDNN's own exp (a quintic on
  r = x - n·ln2), then times the incoming gradient.

Every vector instruction rounds to float32; a fused multiply-add is the float64 product plus the addend,
rounded once (``_float_math._fma``). Tails (n % 16 elements) run the same code under a mask, so the result
is a function of the value alone. The gradient takes this path whenever the input x is contiguous,
whatever the layout of the incoming gradient.

Other layouts, and 0-d or 1-element tensors, run ATen's GeluKernel (``cpu_kernel_vec``): PyTorch's own
vector erf and SLEEF's exp on blocks of 32 floats, glibc's erff/expf on the rest (``_aten``). float16 always
does (blocks of 64); bfloat16 follows float32. The tanh form never uses oneDNN: its forward is
``_float_math.gelu_tanh``, its gradient ATen's kernel here (``gelu_tanh_backward``).
"""
from __future__ import annotations

import math

import numpy as np

from . import _float_math
from ._dispatch import _QUIET, _np_errstate
from ._float_math import _fma

_F32, _U32, _I32 = np.dtype(np.float32), np.dtype(np.uint32), np.dtype(np.int32)
_SIGN = np.uint32(0x80000000)


def _bits(*words: int) -> np.ndarray:
    """float32 values from their bit patterns (oneDNN's tables are written so)."""
    return np.array(words, _U32).view(_F32)


# erf's minimax polynomials, coefficient k of polynomial i at _ERF_POLY[k][i]. Index 0 is never picked (the
# index is clamped to 1..24); 23 is erf = 1 (|x| beyond _ERF_RBOUND); 24 is erf = x (only nan reaches it).
_ERF_POLY = (
    _bits(0xa6f2cb94, 0x32827792, 0x3381cc0c, 0x34523d4a, 0x351ac44d, 0x35f36d88, 0x36ee8229, 0x37b8a3bb,
          0x3867a213, 0x3940033b, 0x3a2a5a1d, 0x3ae35863, 0x3b7828f2, 0x3c08b14b, 0x3c515ed3, 0xbb503236,
          0xbd8d8e5e, 0xbe8abcd9, 0xbf0c19a2, 0xbeccb328, 0x3e176ced, 0x3f470d99, 0x3f7abb28, 0x3f800000, 0),
    _bits(0x3f4c422a, 0x3f4c421f, 0x3f4c4207, 0x3f4c41cb, 0x3f4c413b, 0x3f4c3fad, 0x3f4c3a2f, 0x3f4c2d40,
          0x3f4c146a, 0x3f4bc341, 0x3f4ad08c, 0x3f48f8cf, 0x3f45fac7, 0x3f404e07, 0x3f3b980f, 0x3f48dff3,
          0x3f78b21b, 0x3fbb0704, 0x40019c32, 0x3fe536d6, 0x3f81331e, 0x3e6c8684, 0x3c98f936, 0, 0x3f800000),
    _bits(0xb62173f4, 0x3735e4cf, 0x37f2ff89, 0x388c23be, 0x3917535c, 0x39ab2ab0, 0x3a60fadb, 0x3af9b960,
          0x3b6e5491, 0x3c0a4ec5, 0x3ca5aa8c, 0x3d2138d9, 0x3d8737d4, 0x3ddfb660, 0x3e0f27ab, 0x3d94004b,
          0xbe0efdeb, 0xbf1d96c3, 0xbf89db58, 0xbf6d9897, 0xbef69fb8, 0xbdc4f8a8, 0xbbde6422, 0, 0),
    _bits(0xbe081a19, 0xbe084570, 0xbe08639b, 0xbe089837, 0xbe08f409, 0xbe09ab95, 0xbe0b66d0, 0xbe0e400a,
          0xbe124df8, 0xbe1bde02, 0xbe2f19c9, 0xbe4931bf, 0xbe685fbc, 0xbe89c95f, 0xbe96cbca, 0xbe8044aa,
          0xbe0550f2, 0x3dcfd6a1, 0x3e94c826, 0x3e79345f, 0x3decec91, 0x3ca46568, 0x3aa1e00a, 0, 0),
    _bits(0xba3d61db, 0x39f097a3, 0x3a5845dc, 0x3ab1fa35, 0x3b0cefb8, 0x3b653ab6, 0x3bcae527, 0x3c221712,
          0x3c6c5840, 0x3cc0a703, 0x3d1dcc19, 0x3d63656d, 0x3d955907, 0x3dbf9910, 0x3dd53f69, 0x3db7dcef,
          0x3d639ebe, 0xba6ede48, 0xbd22be69, 0xbd041cf1, 0xbc64f5ab, 0xbb097a32, 0xb8ebf380, 0, 0),
    _bits(0x3cb7d80c, 0x3c9b6050, 0x3c978d11, 0x3c92e850, 0x3c8d058b, 0x3c848454, 0x3c6cd623, 0x3c4c824b,
          0x3c2a7935, 0x3be0b390, 0x3b0651ac, 0xbb232f53, 0xbbd42fa0, 0xbc2c5366, 0xbc492c9e, 0xbc2a7aa6,
          0xbbd55d04, 0xba823a76, 0x3b102aa8, 0x3ae25a7e, 0x3a31f792, 0x38b84375, 0x3689bb5a, 0, 0),
)
_ERF_IDX_BIAS = np.int64(np.uint32(0xc21fffff).view(_I32))   # added to |x|'s bits (wrapping), then >> 21
(_ERF_RBOUND,) = _bits(0x40b15cee)                            # ≈ 5.54: erf rounds to 1 beyond

(_EXP_LN_FLT_MIN, _EXP_LN_FLT_MAX, _EXP_LOG2E, _EXP_LN2) = _bits(0xc2aeac50, 0x42b17218, 0x3fb8aa3b, 0x3f317218)
_EXP_POLY = _bits(0x3f7ffffb, 0x3efffee3, 0x3e2aad40, 0x3d2b9d0d, 0x3c07cfce)          # p1 .. p5
(_AS_P, _INV_SQRT2, _INV_SQRTPI) = _bits(0x3ea7ba05, 0x3f3504f3, 0x3f106eba)
_AS_POLY = _bits(0x3e827906, 0xbe91a98e, 0x3fb5f0e3, 0xbfba00e3, 0x3f87dc22)           # a1 .. a5
_ZERO, _HALF, _ONE, _TWO = (np.float32(v) for v in (0, 0.5, 1, 2))


def runs_onednn(x: np.ndarray) -> bool:
    """Whether PyTorch sends gelu (erf form) of this array to oneDNN: float32, contiguous, 2+ elements."""
    return x.dtype == _F32 and x.size > 1 and x.flags.c_contiguous


def _with_sign_of(a: np.ndarray, s: np.ndarray) -> np.ndarray:
    """a with its sign bit flipped where s's is set (``vxorps`` with s & sign mask; not copysign)."""
    return (a.view(_U32) ^ (s.view(_U32) & _SIGN)).view(_F32)


def _erf(x: np.ndarray) -> np.ndarray:
    """erf(x/√2) (the 1/√2 is folded into the polynomials), oneDNN's piecewise minimax approximation."""
    a = np.abs(x)
    idx = ((a.view(_I32).astype(np.int64) + _ERF_IDX_BIAS).astype(_I32) >> 21).clip(1, 24)
    idx[_ERF_RBOUND < a] = 23
    pol = _ERF_POLY[5][idx]
    for coeffs in _ERF_POLY[4::-1]:   # Horner, one fma a degree
        pol = _fma(pol, a, coeffs[idx])
    return _with_sign_of(pol, x)


def _exp(v: np.ndarray) -> np.ndarray:
    """oneDNN's exp: e^v = 2·2^(n-1)·p(r), n = floor(v·log2(e) + 1/2), r = v - n·ln2; 0 below ln(FLT_MIN)."""
    underflow = v < _EXP_LN_FLT_MIN
    v = np.where(v < _EXP_LN_FLT_MAX, v, _EXP_LN_FLT_MAX)   # vminps/vmaxps: nan gives the bound
    v = np.where(v > _EXP_LN_FLT_MIN, v, _EXP_LN_FLT_MIN)
    n = np.floor(v * _EXP_LOG2E + _HALF)
    r = _fma(-n, np.full_like(n, _EXP_LN2), v)
    scale = (((n - _ONE).astype(_I32) + 127).astype(_U32) << np.uint32(23)).view(_F32)
    scale[underflow] = _ZERO
    p = np.full_like(r, _EXP_POLY[4])
    for c in _EXP_POLY[3::-1]:
        p = _fma(p, r, c)
    return _fma(p, r, _ONE) * scale * _TWO


def gelu(x: np.ndarray) -> np.ndarray:
    """x·Φ(x) on float32, as oneDNN's AVX-512 eltwise_gelu_erf forward."""
    token = _np_errstate.set(_QUIET)   # inf·0 -> nan is expected (oneDNN returns nan for ±inf)
    try:
        return x * (_erf(x) + _ONE) * _HALF
    finally:
        _np_errstate.reset(token)


def _times_gradient(d, g):
    """d·g, where a nan d comes out as it is, even for a nan g (the kernels' vmulps returns its first
    operand's nan; NumPy's multiply may return either)."""
    out = d * g
    nan = np.isnan(d)
    if nan.any():   # (np.where, not an indexed write: 0-dim operands give a NumPy scalar, which has no items)
        out = np.where(nan, d, out)
    return out


def gelu_backward(g: np.ndarray, x: np.ndarray) -> np.ndarray:
    """g·(Φ(x) + x·φ(x)) on float32, as oneDNN's AVX-512 eltwise_gelu_erf backward."""
    token = _np_errstate.set(_QUIET)
    try:
        r = x * _INV_SQRT2
        q = _exp(-(r * r))                                   # e^(-x²/2)
        t = r * _INV_SQRTPI * q                              # x·φ(x)
        w = _ONE / _fma(np.full_like(r, _AS_P), np.abs(r), _ONE)
        poly = np.full_like(r, _AS_POLY[4])
        for c in _AS_POLY[3::-1]:
            poly = _fma(poly, w, c)
        erf = _with_sign_of(_fma(-q * w, poly, _ONE), r)   # 1 - a(w)·w·e^(-r²), signed
        d = _fma(erf, np.full_like(erf, _HALF), t + _HALF)  # Φ(x) + x·φ(x)
        return _times_gradient(d, g)
    finally:
        _np_errstate.reset(token)


# ---- ATen's GeluKernel (the other layouts) ----------------------------------------------------------------

_ALPHA = np.float32(np.sqrt(0.5))                                   # M_SQRT1_2
_BETA = np.float32(2 / np.sqrt(np.pi) * np.sqrt(0.5) * 0.5)         # M_2_SQRTPI · M_SQRT1_2 / 2 = 1/√(2π)
_MINUS_HALF = np.float32(-0.5)
_erff = _float_math.libm_float("erff", np.vectorize(math.erf, otypes=[np.float64]))


def _aten_gelu_vector(x):
    return x * _HALF * (_ONE + _float_math.vec_erf(x * _ALPHA))


def _aten_gelu_scalar(x):
    return x * _HALF * (_ONE + _erff(x * _ALPHA))


def _aten_gelu_backward_vector(g, x):
    # cdf + x·pdf: the compiler fuses the Vectorized multiply and add into one fma
    cdf = _HALF * (_ONE + _float_math.vec_erf(x * _ALPHA))
    return g * _fma(x, _BETA * _float_math.sleef_expf(x * x * _MINUS_HALF), cdf)


def _aten_gelu_backward_vector_half(g, x):
    # (the float16 kernel's Vectorized<float> code, after converting the halves, is not fused)
    cdf = _HALF * (_ONE + _float_math.vec_erf(x * _ALPHA))
    return g * (cdf + x * (_BETA * _float_math.sleef_expf(x * x * _MINUS_HALF)))


def _aten_gelu_backward_scalar(g, x):
    cdf = _HALF * (_ONE + _erff(x * _ALPHA))
    return g * (cdf + x * (_BETA * _float_math.glibc_expf(x * x * _MINUS_HALF)))


def _transposed(*xs: np.ndarray) -> bool:
    """Operands laid out as a transpose (column-major), or broadcast numbers: TensorIterator then walks
    memory order, which is the C order of the transposes."""
    return xs[0].ndim > 1 and all(x.flags.f_contiguous or not any(x.strides) for x in xs) and \
        not all(x.flags.c_contiguous or not any(x.strides) for x in xs)


def _aten(vector, scalar, half: bool, *xs: np.ndarray) -> np.ndarray:
    """``cpu_kernel_vec`` on float32 values: blocks of 32 floats, or of 64 for a float16/bfloat16 tensor
    (two Vectorized<Half> of 32), the scalar code on the rest."""
    if _transposed(*xs):
        return _aten(vector, scalar, half, *(x.T for x in xs)).T
    token = _np_errstate.set(_QUIET)
    try:
        out = _float_math.two_paths(vector, scalar, *xs)
        n = out.size
        if half and n % 64 > n % 32 and all(x.flags.c_contiguous and x.size == n for x in xs):
            start = n - n % 64   # (two_paths ran the vector code on one block of 32 of this tail)
            out.reshape(-1)[start:] = scalar(*(x.reshape(-1)[start:] for x in xs))
        return out
    finally:
        _np_errstate.reset(token)


def _is_half(dtype) -> bool:
    """float16/bfloat16 (computed in float32, rounded once at the end) rather than float32."""
    return dtype != _F32


def gelu_erf(x: np.ndarray) -> np.ndarray:
    """PyTorch's ``gelu(x)`` (erf form) for float32, float16, bfloat16: oneDNN's kernel or ATen's, by layout."""
    half = _is_half(x.dtype)
    x32 = x.astype(_F32) if half else x
    if runs_onednn(x32) and x.dtype != np.float16:   # (ATen's use_mkldnn: float32 and bfloat16 only)
        out = gelu(x32)
    else:
        out = _aten(_aten_gelu_vector, _aten_gelu_scalar, half, x32)
    return out.astype(x.dtype) if half else out


def gelu_erf_backward(g: np.ndarray, x: np.ndarray) -> np.ndarray:
    """PyTorch's ``gelu_backward(g, x)`` (erf form): oneDNN's kernel when x is contiguous, else ATen's."""
    half = _is_half(x.dtype)
    g32, x32 = (g.astype(_F32), x.astype(_F32)) if half else (g, x)
    if runs_onednn(x32) and x.dtype != np.float16:
        out = gelu_backward(np.ascontiguousarray(np.broadcast_to(g32, x.shape)), x32)
    else:
        vector = _aten_gelu_backward_vector_half if half else _aten_gelu_backward_vector
        out = _aten(vector, _aten_gelu_backward_scalar, half, g32, x32)
    return out.astype(x.dtype) if half else out


# ---- ATen's GeluBackwardKernel, tanh form (every layout: oneDNN is only used for the erf form) ------------

_TANH_BETA = np.float32(np.sqrt(2.0) * (2 / np.sqrt(np.pi)) * 0.5)   # √(2/π), as M_SQRT2 · M_2_SQRTPI / 2
_TANH_KAPPA = np.float32(0.044715)
_TANH_3KAPPA = np.float32(3) * _TANH_KAPPA                           # (3 · κ folded in float32 first)


def _tanh_derivative_with(tanh):
    def derivative(x):
        # the compiler fuses x + κx³, 1 - t² and 1 + 3κx² into fmas (not the final sum)
        t = tanh(_TANH_BETA * _fma(_TANH_KAPPA, x * x * x, x))
        tanh_derivative = _fma(-t, t, _ONE)
        inner_derivative = _TANH_BETA * _fma(_TANH_3KAPPA, x * x, _ONE)
        return _HALF * (_ONE + t) + _HALF * x * tanh_derivative * inner_derivative
    return derivative


_tanh_derivative_vector = _tanh_derivative_with(_float_math.sleef_tanhf)
_tanh_derivative_scalar = _tanh_derivative_with(_float_math._tanhf)
_ALL_ONES_NAN = np.array(0xffffffff, _U32).view(_F32)


def _tanh_backward_vector(g, x):
    """SLEEF's tanhf on the vector blocks, whose tanh of a nan is all ones (its bits or-ed with a mask)."""
    d = _tanh_derivative_vector(x)
    d[np.isnan(x)] = _ALL_ONES_NAN
    return _times_gradient(d, g)


def _tanh_backward_scalar(g, x):
    """glibc's tanhf on the scalar tail."""
    return _times_gradient(_tanh_derivative_scalar(x), g)


def gelu_tanh_backward(g: np.ndarray, x: np.ndarray) -> np.ndarray:
    """PyTorch's float32 ``gelu_backward(g, x, approximate='tanh')``: ATen's kernel on every layout."""
    return _aten(_tanh_backward_vector, _tanh_backward_scalar, False, g, x)
