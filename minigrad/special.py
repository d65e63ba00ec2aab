"""torch.special: the special functions under their SciPy-style names (the ops live in the other modules)."""

import math as _math

import numpy as _np

from . import _arg_errors, _dtypes, _ops, _ops_math
from . import _special_kernels as _K
from . import derivatives as _D
from ._ops import exp2, expm1, log1p, logsumexp
from ._ops import sigmoid as _sigmoid
from ._ops_math import digamma, erf, erfc, erfinv, log_softmax, logit, polygamma, sinc, softmax, xlogy
from ._ops_math import lgamma as _lgamma
from ._tensor import Tensor

expit = _sigmoid
i0 = _ops_math.i0
gammaln = _lgamma
psi = digamma


def round(input, *, decimals: int = 0):  # noqa: A001  (torch.special.round)
    """torch.round with decimals=0 (RoundBackward1, as PyTorch's special.round)."""
    return _ops.round(input, decimals=decimals)


def _real_kernel(name: str, input, half: bool = True) -> None:
    """PyTorch's error for a dtype its kernel lacks: complex ones, and float16/bfloat16 unless ``half``."""
    if isinstance(input, Tensor) and (input.is_complex() or (not half and input.dtype in (_dtypes.float16,
                                                                                          _dtypes.bfloat16))):
        raise NotImplementedError(f'"{name}_cpu" not implemented for \'{_ops._legacy(input.dtype)}\'')


def i0e(input):
    """e^(-|x|)·I0(x), the exponentially scaled Bessel function of order 0."""
    _real_kernel("i0e", input)
    return _ops._unary(_D.special_i0e, input)


def i1(input):
    """The modified Bessel function of the first kind, order 1."""
    _real_kernel("i1", input)
    return _ops._unary(_D.special_i1, input)


def i1e(input):
    """e^(-|x|)·I1(x)."""
    _real_kernel("i1e", input)
    return _ops._unary(_D.special_i1e, input)


def ndtr(input):
    """The standard normal CDF Φ(x), as PyTorch composes it: (1 + erf(x/√2)) · 0.5 (no node of its own)."""
    if not isinstance(input, Tensor):
        raise _ops._not_a_tensor("special_ndtr", input)
    if input.dtype.is_complex:   # (the erf it calls has no complex kernel)
        raise NotImplementedError(f"\"erf_vml_cpu\" not implemented for '{_ops._legacy(input.dtype)}'")
    _ops_math._real_only(input, "erf_vml_cpu")
    scaled = _D.mul_scalar(input, dtype=_ops._float_dtype(input), other=_math.sqrt(0.5))
    return _D.mul_scalar(_D.add_scalar(_D.erf(scaled), other=1), other=0.5)


def ndtri(input):
    """Φ⁻¹(p), the inverse of the standard normal CDF."""
    _real_kernel("ndtri", input, half=False)
    return _ops._unary(_D.special_ndtri, input)


def log_ndtr(input):
    """log Φ(x), accurate far into the left tail."""
    _real_kernel("log_ndtr", input, half=False)
    return _ops._unary(_D.special_log_ndtr, input)


def entr(input):
    """-x·log x (0 at 0, -inf below)."""
    _real_kernel("entr", input)
    return _ops._unary(_D.special_entr, input)


def erfcx(input):
    """e^(x²)·erfc(x), the scaled complementary error function."""
    _real_kernel("erfcx", input, half=False)
    return _ops._unary(_D.special_erfcx, input)


def _float_result(*operands):
    dt = _dtypes.result_type(*operands)
    return dt if dt.is_floating_point else _dtypes.get_default_dtype()


_arg_errors.OVERLOADS["special_xlog1py"] = ("(Tensor input, Tensor other, *, Tensor out = None)",
                                           "(Number self, Tensor other, *, Tensor out = None)",
                                           "(Tensor input, Number other, *, Tensor out = None)")


def xlog1py(input, other):
    """input · log(1 + other), 0 where input == 0 (unless other is NaN)."""
    if not isinstance(input, Tensor):
        if not isinstance(other, Tensor):
            raise _arg_errors.no_overload("special_xlog1py", input, other)
        _real_xlog1py(input, other)
        return _D.special_xlog1py_self_scalar(other, dtype=_float_result(input, other), self=input)
    _real_xlog1py(input, other)
    if not isinstance(other, Tensor):
        return _D.special_xlog1py_other_scalar(input, dtype=_float_result(input, other), other=other)
    return _ops._binary(_D.special_xlog1py, input, other, promote_int_to_float=True)


def _real_xlog1py(input, other) -> None:
    """xlog1py's kernel has no complex form (whichever operand makes the result complex), checked after the
    broadcast."""
    _ops._no_complex_kernel("xlog1py", input, other)


def gammainc(input, other):
    """The regularized lower incomplete gamma function P(a, x) (torch.igamma)."""
    from ._igamma import igamma
    _ops_math._two_tensors("special_gammainc", input, other)   # (its parser's errors name the special function)
    return igamma(input, other)


def gammaincc(input, other):
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x) (torch.igammac)."""
    from ._igamma import igammac
    _ops_math._two_tensors("special_gammaincc", input, other)
    return igammac(input, other)


def multigammaln(input, p: int):
    """The multivariate log-gamma log Γ_p(x) (torch.mvlgamma)."""
    return _ops_math.mvlgamma(input, p)


# ---- Bessel, Airy and orthogonal polynomials (values: minigrad/_special_kernels.py) ------------------------------
# PyTorch computes these in float32 or float64 only, and records no graph: the result never requires grad.

def _kernel_dtype(name: str, *operands) -> _dtypes.dtype:
    """The dtype PyTorch's kernel runs in (integers and bool: the default float); others have no kernel."""
    dt = _dtypes.result_type(*operands)
    if not (dt.is_floating_point or dt.is_complex):
        dt = _dtypes.get_default_dtype()
    if dt not in (_dtypes.float32, _dtypes.float64):
        from ._tensor import _LEGACY_NAMES
        raise NotImplementedError(f'"{name}_cpu" not implemented for \'{_LEGACY_NAMES[dt.name]}\'')
    return dt


def _result(values, out, inputs=()):
    """The result tensor, or ``values`` copied into ``out`` (PyTorch's out= checks; these record no graph)."""
    result = Tensor._make(_np.asarray(values))   # (NumPy's arithmetic on 0-d arrays returns scalars, not arrays)
    if out is None:
        return result
    from .autograd import grad_mode
    with grad_mode.no_grad():
        return _ops._into_out("special", out, inputs, lambda: result)


def _unary_special(name: str, kernel):
    def fn(input, *, out=None):
        if not isinstance(input, Tensor):
            raise _ops._not_a_tensor(f"special_{name}", input)
        dt = _kernel_dtype(name, input)
        with _np.errstate(all="ignore"):
            return _result(kernel(_np.asarray(input._data, dtype=dt.np)), out, (input,))
    fn.__name__ = fn.__qualname__ = name
    return fn


def _scaled(kernel):
    return lambda x: kernel(x, scaled=True)


airy_ai = _unary_special("airy_ai", _K.airy_ai)
bessel_j0 = _unary_special("bessel_j0", _K.bessel_j0)
bessel_j1 = _unary_special("bessel_j1", _K.bessel_j1)
bessel_y0 = _unary_special("bessel_y0", _K.bessel_y0)
bessel_y1 = _unary_special("bessel_y1", _K.bessel_y1)
modified_bessel_i0 = _unary_special("modified_bessel_i0", _K.modified_bessel_i0)
modified_bessel_i1 = _unary_special("modified_bessel_i1", _K.modified_bessel_i1)
modified_bessel_k0 = _unary_special("modified_bessel_k0", _K.modified_bessel_k0)
modified_bessel_k1 = _unary_special("modified_bessel_k1", _K.modified_bessel_k1)
scaled_modified_bessel_k0 = _unary_special("scaled_modified_bessel_k0", _scaled(_K.modified_bessel_k0))
scaled_modified_bessel_k1 = _unary_special("scaled_modified_bessel_k1", _scaled(_K.modified_bessel_k1))
spherical_bessel_j0 = _unary_special("spherical_bessel_j0", _K.spherical_bessel_j0)

_POLY_OVERLOADS = ("(Tensor x, Tensor n, *, Tensor out = None)", "(Number x, Tensor n, *, Tensor out = None)",
                   "(Tensor x, Number n, *, Tensor out = None)")


def _one_tensor_one_number(a, b) -> bool:
    """The overloads (Tensor, Tensor), (Number, Tensor), (Tensor, Number)."""
    def number(v):  # (a complex number too: then the kernel refuses its dtype)
        return isinstance(v, (int, float, complex)) and not isinstance(v, Tensor)
    return (isinstance(a, Tensor) and (isinstance(b, Tensor) or number(b))) or (number(a) and isinstance(b, Tensor))


def _polynomial(name: str, kernel):
    _arg_errors.OVERLOADS[f"special_{name}"] = _POLY_OVERLOADS

    def fn(input, n, *, out=None):
        if not _one_tensor_one_number(input, n):
            raise _arg_errors.no_overload(f"special_{name}", input, n)
        _ops._check_broadcast(input, n)
        dt = _kernel_dtype(name, input, n)
        x = _np.asarray(input._data if isinstance(input, Tensor) else input, dtype=dt.np)
        degree = _np.asarray(n._data if isinstance(n, Tensor) else n, dtype=dt.np)  # (n in x's dtype, then int64)
        shape = _np.broadcast_shapes(x.shape, degree.shape)  # (the kernels take arrays: 0-dim ones as 1-dim)
        values = kernel(_np.atleast_1d(x), _K.degrees(_np.atleast_1d(degree)))
        return _result(_np.asarray(values).reshape(shape), out, (input, n))
    fn.__name__ = fn.__qualname__ = name
    return fn


chebyshev_polynomial_t = _polynomial("chebyshev_polynomial_t", lambda x, n: _K.chebyshev("t", x, n))
chebyshev_polynomial_u = _polynomial("chebyshev_polynomial_u", lambda x, n: _K.chebyshev("u", x, n))
chebyshev_polynomial_v = _polynomial("chebyshev_polynomial_v", lambda x, n: _K.chebyshev("v", x, n))
chebyshev_polynomial_w = _polynomial("chebyshev_polynomial_w", lambda x, n: _K.chebyshev("w", x, n))
shifted_chebyshev_polynomial_t = _polynomial("shifted_chebyshev_polynomial_t",
                                             lambda x, n: _K.chebyshev("t", x, n, shifted=True))
shifted_chebyshev_polynomial_u = _polynomial("shifted_chebyshev_polynomial_u",
                                             lambda x, n: _K.chebyshev("u", x, n, shifted=True))
shifted_chebyshev_polynomial_v = _polynomial("shifted_chebyshev_polynomial_v",
                                             lambda x, n: _K.chebyshev("v", x, n, shifted=True))
shifted_chebyshev_polynomial_w = _polynomial("shifted_chebyshev_polynomial_w",
                                             lambda x, n: _K.chebyshev("w", x, n, shifted=True))
hermite_polynomial_h = _polynomial("hermite_polynomial_h", lambda x, n: _K.hermite(x, n, physicists=True))
hermite_polynomial_he = _polynomial("hermite_polynomial_he", lambda x, n: _K.hermite(x, n, physicists=False))
laguerre_polynomial_l = _polynomial("laguerre_polynomial_l", _K.laguerre)
legendre_polynomial_p = _polynomial("legendre_polynomial_p", _K.legendre)

_arg_errors.OVERLOADS["special_zeta"] = ("(Tensor input, Tensor other, *, Tensor out = None)",
                                         "(Number self, Tensor other, *, Tensor out = None)",
                                         "(Tensor input, Number other, *, Tensor out = None)")


def zeta(input, other, *, out=None):
    """Hurwitz's zeta function ζ(x, q) = Σₖ (q + k)⁻ˣ (differentiable in q only, as PyTorch's)."""
    if not _one_tensor_one_number(input, other):
        raise _arg_errors.no_overload("special_zeta", input, other)
    if not isinstance(input, Tensor):
        return _D.special_zeta_self_scalar(other, dtype=_kernel_dtype("zeta", input, other), self=input, out=out)
    if not isinstance(other, Tensor):
        op = _D.NOT_IMPLEMENTED["special_zeta_other_scalar"]
        return op(input, dtype=_kernel_dtype("zeta", input, other), other=other, out=out)
    if out is None:   # (no forward formula: PyTorch refuses a tangent before its kernel's checks)
        from .autograd import forward_ad
        forward_ad.refuse_before_kernel(_D.special_zeta, input, other)
    _ops._check_broadcast(input, other)  # (the shapes before the dtypes)
    _kernel_dtype("zeta", input, other)
    return _ops._binary(_D.special_zeta, input, other, promote_int_to_float=True, out=out)


_NEW = ["airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "chebyshev_polynomial_t",
        "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w", "hermite_polynomial_h",
        "hermite_polynomial_he", "laguerre_polynomial_l", "legendre_polynomial_p", "modified_bessel_i0",
        "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1", "scaled_modified_bessel_k0",
        "scaled_modified_bessel_k1", "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u",
        "shifted_chebyshev_polynomial_v", "shifted_chebyshev_polynomial_w", "spherical_bessel_j0", "zeta"]

__all__ = ["digamma", "entr", "erf", "erfc", "erfcx", "erfinv", "exp2", "expit", "expm1", "gammainc", "gammaincc",
           "gammaln", "i0", "i0e", "i1", "i1e", "log1p", "log_ndtr", "log_softmax", "logit", "logsumexp",
           "multigammaln", "ndtr", "ndtri", "polygamma", "psi", "round", "sinc", "softmax", "xlog1py", "xlogy", *_NEW]


# PyTorch's names for the functions (``torch.special.X.__name__`` is "special_X": see _c_names.py)
from ._c_names import rename_namespace as _rename_namespace  # noqa: E402

_rename_namespace(globals(), "special")
