"""torch.special: the special functions under their SciPy-style names (the ops live in the other modules)."""
from __future__ import annotations

import math

from . import _arg_errors, _dtypes, _ops, _ops_math
from . import derivatives as D
from ._ops import exp2, expm1, log1p, logsumexp, sigmoid
from ._ops_math import digamma, erf, erfc, erfinv, lgamma, log_softmax, logit, polygamma, sinc, softmax, xlogy
from ._tensor import Tensor

expit = sigmoid
i0 = _ops_math.i0
gammaln = lgamma
psi = digamma


def round(input, *, decimals: int = 0):  # noqa: A001  (torch.special.round)
    """torch.round with decimals=0 (RoundBackward1, as PyTorch's special.round)."""
    return _ops.round(input, decimals=decimals)


def i0e(input):
    """e^(-|x|)·I0(x), the exponentially scaled Bessel function of order 0."""
    return _ops._unary(D.special_i0e, input)


def i1(input):
    """The modified Bessel function of the first kind, order 1."""
    return _ops._unary(D.special_i1, input)


def i1e(input):
    """e^(-|x|)·I1(x)."""
    return _ops._unary(D.special_i1e, input)


def ndtr(input):
    """The standard normal CDF Φ(x), as PyTorch composes it: (1 + erf(x/√2)) · 0.5 (no node of its own)."""
    if not isinstance(input, Tensor):
        raise _ops._not_a_tensor("special_ndtr", input)
    scaled = D.mul_scalar(input, dtype=_ops._float_dtype(input), other=math.sqrt(0.5))
    return D.mul_scalar(D.add_scalar(D.erf(scaled), other=1), other=0.5)


def ndtri(input):
    """Φ⁻¹(p), the inverse of the standard normal CDF."""
    return _ops._unary(D.special_ndtri, input)


def log_ndtr(input):
    """log Φ(x), accurate far into the left tail."""
    return _ops._unary(D.special_log_ndtr, input)


def entr(input):
    """-x·log x (0 at 0, -inf below)."""
    return _ops._unary(D.special_entr, input)


def erfcx(input):
    """e^(x²)·erfc(x), the scaled complementary error function."""
    return _ops._unary(D.special_erfcx, input)


def _float_result(*operands):
    dt = _dtypes.result_type(*operands)
    return dt if dt.is_floating_point else _dtypes.get_default_dtype()


def xlog1py(input, other):
    """input · log(1 + other), 0 where input == 0 (unless other is NaN)."""
    if not isinstance(input, Tensor):
        if not isinstance(other, Tensor):
            raise _arg_errors.no_overload("special_xlog1py", input, other)
        return D.special_xlog1py_self_scalar(other, dtype=_float_result(input, other), self=input)
    if not isinstance(other, Tensor):
        return D.special_xlog1py_other_scalar(input, dtype=_float_result(input, other), other=other)
    return _ops._binary(D.special_xlog1py, input, other, promote_int_to_float=True)


def gammainc(input, other):
    """The regularized lower incomplete gamma function P(a, x) (torch.igamma)."""
    from ._igamma import igamma
    return igamma(input, other)


def gammaincc(input, other):
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x) (torch.igammac)."""
    from ._igamma import igammac
    return igammac(input, other)


def multigammaln(input, p: int):
    """The multivariate log-gamma log Γ_p(x) (torch.mvlgamma)."""
    return _ops_math.mvlgamma(input, p)


__all__ = ["digamma", "entr", "erf", "erfc", "erfcx", "erfinv", "exp2", "expit", "expm1", "gammainc", "gammaincc",
           "gammaln", "i0", "i0e", "i1", "i1e", "log1p", "log_ndtr", "log_softmax", "logit", "logsumexp",
           "multigammaln", "ndtr", "ndtri", "polygamma", "psi", "round", "sinc", "softmax", "xlog1py", "xlogy"]
