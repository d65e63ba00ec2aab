"""Bernoulli(probs or logits): 1 with probability p, else 0."""
from __future__ import annotations

from .. import _ops
from .._tensor import Size
from . import constraints
from .categorical import _clamp_probs
from .distribution import Distribution, _is_number, broadcast_all, lazy_property


class Bernoulli(Distribution):
    """P(1) = probs = sigmoid(logits)."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.boolean
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            is_scalar = _is_number(probs)
            (self.probs,) = broadcast_all(probs)
        else:
            is_scalar = _is_number(logits)
            (self.logits,) = broadcast_all(logits)
        self._param = self.probs if probs is not None else self.logits
        super().__init__(Size() if is_scalar else self._param.size(), validate_args=validate_args)

    @lazy_property
    def logits(self):
        """log p - log(1 - p) (p clamped away from 0 and 1)."""
        p = _clamp_probs(self.probs)
        return _ops.log(p) - _ops.log1p(-p)

    @lazy_property
    def probs(self):
        """sigmoid of the logits."""
        return _ops.sigmoid(self.logits)

    @property
    def mean(self):
        """p."""
        return self.probs

    @property
    def variance(self):
        """p(1 - p)."""
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        """0/1 draws with probability ``probs``."""
        from .._creation import rand
        shape = self._extended_shape(sample_shape)
        probs = self.probs.detach().expand(shape)
        return (rand(shape, dtype=probs.dtype) < probs).to(probs.dtype)

    def log_prob(self, value):
        """-BCE-with-logits(logits, value)."""
        from ..nn import functional as F
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -F.binary_cross_entropy_with_logits(logits, value, reduction="none")

    def entropy(self):
        """BCE-with-logits(logits, probs)."""
        from ..nn import functional as F
        return F.binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")
