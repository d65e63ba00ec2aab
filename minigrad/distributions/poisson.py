"""Poisson: a port of torch/distributions/poisson.py (the same formulas, on minigrad ops)."""
from __future__ import annotations

import minigrad as mg

from . import constraints
from .exp_family import ExponentialFamily
from .utils import Number, Tensor, _Number, broadcast_all

__all__ = ["Poisson"]


class Poisson(ExponentialFamily):
    """Creates a Poisson distribution parameterized by `rate`, the rate parameter."""

    arg_constraints = {"rate": constraints.nonnegative}
    support = constraints.nonnegative_integer

    @property
    def mean(self) -> Tensor:
        return self.rate

    @property
    def mode(self) -> Tensor:
        return self.rate.floor()

    @property
    def variance(self) -> Tensor:
        return self.rate

    def __init__(
        self,
        rate: Tensor | Number,
        validate_args: bool | None = None,
    ) -> None:
        (self.rate,) = broadcast_all(rate)
        if isinstance(rate, _Number):
            batch_shape = ()
        else:
            batch_shape = self.rate.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Poisson, _instance)
        batch_shape = mg.Size(batch_shape)
        new.rate = self.rate.expand(batch_shape)
        super(Poisson, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def sample(self, sample_shape= ()):
        shape = self._extended_shape(sample_shape)
        with mg.no_grad():
            return mg.poisson(self.rate.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        rate, value = broadcast_all(self.rate, value)
        return value.xlogy(rate) - rate - (value + 1).lgamma()

    @property
    def _natural_params(self) -> tuple[Tensor]:
        return (mg.log(self.rate),)

    def _log_normalizer(self, x):
        return mg.exp(x)
