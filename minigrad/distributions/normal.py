"""Normal(loc, scale): the Gaussian distribution."""
from __future__ import annotations

import math

from .. import _ops, _ops_math
from .._tensor import Size
from . import constraints
from .distribution import Distribution, _is_number, broadcast_all


class Normal(Distribution):
    """N(loc, scale²); ``rsample`` is reparameterised (loc + ε·scale), so it carries gradients."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        batch_shape = Size() if _is_number(loc) and _is_number(scale) else self.loc.size()
        super().__init__(batch_shape, validate_args=validate_args)

    @property
    def mean(self):
        """loc."""
        return self.loc

    @property
    def mode(self):
        """loc."""
        return self.loc

    @property
    def stddev(self):
        """scale."""
        return self.scale

    @property
    def variance(self):
        """scale²."""
        return self.stddev.pow(2)

    def rsample(self, sample_shape=()):
        """loc + ε·scale with ε ~ N(0, 1): differentiable in loc and scale."""
        from .._creation import randn
        eps = randn(self._extended_shape(sample_shape), dtype=self.loc.dtype)
        return self.loc + eps * self.scale

    def log_prob(self, value):
        """-(x - μ)²/(2σ²) - log σ - log √(2π)."""
        if self._validate_args:
            self._validate_sample(value)
        var = self.scale ** 2
        log_scale = math.log(self.scale) if _is_number(self.scale) else self.scale.log()
        return -((value - self.loc) ** 2) / (2 * var) - log_scale - math.log(math.sqrt(2 * math.pi))

    def cdf(self, value):
        """Φ((x - μ)/σ)."""
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 * (1 + _ops_math.erf((value - self.loc) * self.scale.reciprocal() / math.sqrt(2)))

    def entropy(self):
        """½ + ½ log(2π) + log σ."""
        return 0.5 + 0.5 * math.log(2 * math.pi) + _ops.log(self.scale)
