"""Distribution: the base class (shapes, argument validation, sampling helpers, repr)."""
from __future__ import annotations

import numbers

from .._class_names import TorchNamed
from .._tensor import Size, Tensor
from ..autograd import grad_mode


class lazy_property:  # noqa: N801  (PyTorch's name)
    """A property computed on first access and then stored in the instance (probs from logits, ...)."""

    def __init__(self, wrapped) -> None:
        self.wrapped = wrapped
        self.__doc__ = wrapped.__doc__

    def __get__(self, instance, obj_type=None):
        if instance is None:
            return self
        with grad_mode.enable_grad():
            value = self.wrapped(instance)
        instance.__dict__[self.wrapped.__name__] = value
        return value


def broadcast_all(*values):
    """Numbers and tensors broadcast together (numbers become tensors of the tensors' or default dtype)."""
    from .. import _creation, _dtypes
    from .._ops_shapes import broadcast_tensors
    tensors = [v for v in values if isinstance(v, Tensor)]
    dtype = tensors[0].dtype if tensors else _dtypes.get_default_dtype()
    values = [v if isinstance(v, Tensor) else _creation.tensor(v, dtype=dtype) for v in values]
    return broadcast_tensors(*values)


class Distribution(metaclass=TorchNamed):
    """Base class: a batch of distributions with ``batch_shape`` and ``event_shape``."""

    has_rsample = False
    _validate_args = __debug__
    arg_constraints: dict = {}

    def __init__(self, batch_shape=(), event_shape=(), validate_args=None) -> None:
        self._batch_shape, self._event_shape = Size(batch_shape), Size(event_shape)
        if validate_args is not None:
            self._validate_args = validate_args
        if self._validate_args:
            for param, constraint in self.arg_constraints.items():
                if param not in self.__dict__ and isinstance(getattr(type(self), param), lazy_property):
                    continue  # a lazily computed parameter is valid when the given one is
                value = getattr(self, param)
                if not bool(constraint.check(value).all()):
                    raise ValueError(f"Expected parameter {param} ({type(value).__name__} of shape "
                                     f"{tuple(value.shape)}) of distribution {self!r} to satisfy the constraint "
                                     f"{constraint!r}, but found invalid values:\n{value}")

    @property
    def batch_shape(self) -> Size:
        """The shape over which parameters are batched."""
        return self._batch_shape

    @property
    def event_shape(self) -> Size:
        """The shape of a single sample."""
        return self._event_shape

    @property
    def stddev(self):
        """The standard deviation."""
        return self.variance.sqrt()

    def sample(self, sample_shape=()):
        """A sample (no gradient), shaped sample_shape + batch_shape + event_shape."""
        with grad_mode.no_grad():
            return self.rsample(sample_shape)

    def _extended_shape(self, sample_shape=()) -> Size:
        return Size(tuple(sample_shape) + tuple(self._batch_shape) + tuple(self._event_shape))

    def _validate_sample(self, value) -> None:
        if not isinstance(value, Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        start = len(value.size()) - len(self._event_shape)
        if value.size()[start:] != self._event_shape:
            raise ValueError(f"The right-most size of value must match event_shape: {value.size()} vs "
                             f"{self._event_shape}.")
        expected = Size(tuple(self._batch_shape) + tuple(self._event_shape))
        for i, j in zip(reversed(value.size()), reversed(expected)):
            if i != 1 and j != 1 and i != j:
                raise ValueError(f"Value is not broadcastable with batch_shape+event_shape: {value.size()} vs "
                                 f"{expected}.")
        if not bool(self.support.check(value).all()):
            raise ValueError(f"Expected value argument ({type(value).__name__} of shape {tuple(value.shape)}) to be "
                             f"within the support ({self.support!r}) of the distribution {self!r}, but found "
                             f"invalid values:\n{value}")

    def __repr__(self) -> str:
        names = [k for k in self.arg_constraints if k in self.__dict__]
        shown = ", ".join(f"{p}: {self.__dict__[p] if self.__dict__[p].numel() == 1 else self.__dict__[p].size()}"
                          for p in names)
        return f"{type(self).__name__}({shown})"


def _is_number(x) -> bool:
    return isinstance(x, numbers.Number)
