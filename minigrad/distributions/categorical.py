"""Categorical(probs or logits): one of K classes."""
from __future__ import annotations

from .. import _dtypes, _ops
from .._tensor import Size
from . import constraints
from .distribution import Distribution, lazy_property


def _clamp_probs(probs):
    eps = _dtypes.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


class Categorical(Distribution):
    """P(k) = probs[k] (probs normalised to sum to 1, or softmax of the logits)."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = probs / probs.sum(-1, keepdim=True)
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)  # normalised
        self._param = self.probs if probs is not None else self.logits
        self._num_events = self._param.size()[-1]
        batch_shape = self._param.size()[:-1] if self._param.dim() > 1 else Size()
        super().__init__(batch_shape, validate_args=validate_args)

    @lazy_property
    def logits(self):
        """log of the (clamped) probabilities."""
        return _ops.log(_clamp_probs(self.probs))

    @lazy_property
    def probs(self):
        """softmax of the logits."""
        from ..nn import functional as F
        return F.softmax(self.logits, dim=-1)

    @property
    def param_shape(self) -> Size:
        """The shape of probs / logits."""
        return self._param.size()

    @property
    def support(self):
        """The integers 0 .. K-1."""
        return constraints.integer_interval(0, self._num_events - 1)

    @property
    def mean(self):
        """Undefined: nan."""
        from .._creation import full
        return full(self._extended_shape(), float("nan"), dtype=self.probs.dtype)

    @property
    def variance(self):
        """Undefined: nan."""
        return self.mean

    def sample(self, sample_shape=()):
        """Class indices drawn with probabilities ``probs`` (as PyTorch: one multinomial draw per sample)."""
        from .._creation import multinomial
        shape = Size(sample_shape)
        probs_2d = self.probs.detach().reshape(-1, self._num_events)
        samples_2d = multinomial(probs_2d, shape.numel(), True).T
        return samples_2d.reshape(self._extended_shape(shape))

    def log_prob(self, value):
        """log probs[value] (value: class indices)."""
        from .._ops_shapes import broadcast_tensors
        if self._validate_args:
            self._validate_sample(value)
        value = value.long().unsqueeze(-1)
        value, log_pmf = broadcast_tensors(value, self.logits)
        value = value[..., :1]
        return log_pmf.gather(-1, value).squeeze(-1)

    def entropy(self):
        """-Σ p log p."""
        min_real = _dtypes.finfo(self.logits.dtype).min
        logits = _ops.clamp(self.logits, min=min_real)
        p_log_p = logits * self.probs
        return -p_log_p.sum(-1)
