"""ExponentialFamily: entropy via the log-normalizer (torch/distributions/exp_family.py, ported)."""
from __future__ import annotations

import minigrad as mg

from .distribution import Distribution
from .utils import Tensor

__all__ = ["ExponentialFamily"]


class ExponentialFamily(Distribution):
    """Base class of the exponential-family distributions: entropy from the log-normalizer (Bregman divergence)."""

    @property
    def _natural_params(self) -> tuple[Tensor, ...]:
        """Abstract method for natural parameters."""
        raise NotImplementedError

    def _log_normalizer(self, *natural_params):
        """Abstract method for log normalizer function."""
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self) -> float:
        """Abstract method for expected carrier measure, which is required for computing entropy."""
        raise NotImplementedError

    def entropy(self):
        """Method to compute the entropy using Bregman divergence of the log normalizer."""
        result: Tensor | float = -self._mean_carrier_measure
        nparams = [p.detach().requires_grad_() for p in self._natural_params]
        lg_normal = self._log_normalizer(*nparams)
        gradients = mg.autograd.grad(lg_normal.sum(), nparams, create_graph=True)
        result += lg_normal
        for np, g in zip(nparams, gradients):
            result -= (np * g).reshape(self._batch_shape + (-1,)).sum(-1)
        return result
