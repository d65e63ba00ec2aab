"""torch.distributions (a subset): Normal, Categorical and Bernoulli with log_prob, entropy and sampling.

The formulas are PyTorch's, written with minigrad ops, so log_prob & co. record the same graph; sampling
draws what PyTorch draws (the same calls on the same generator: the same numbers after the same seed).
"""
from . import constraints  # noqa: F401
from .bernoulli import Bernoulli  # noqa: F401
from .categorical import Categorical  # noqa: F401
from .distribution import Distribution  # noqa: F401
from .normal import Normal  # noqa: F401
