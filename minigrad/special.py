"""torch.special: the special functions under their SciPy-style names (the ops live in the other modules)."""
from __future__ import annotations

from . import _ops
from ._ops import exp2, expm1, log1p, logsumexp, sigmoid
from ._ops_math import digamma, erf, erfc, erfinv, lgamma, log_softmax, logit, polygamma, sinc, softmax, xlogy

expit = sigmoid
gammaln = lgamma
psi = digamma


def round(input, *, decimals: int = 0):  # noqa: A001  (torch.special.round)
    """torch.round with decimals=0 (RoundBackward1, as PyTorch's special.round)."""
    return _ops.round(input, decimals=decimals)


__all__ = ["digamma", "erf", "erfc", "erfinv", "exp2", "expit", "expm1", "gammaln", "log1p", "log_softmax", "logit",
           "logsumexp", "polygamma", "psi", "round", "sinc", "softmax", "xlogy"]
