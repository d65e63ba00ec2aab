"""minigrad.nn.functional: activations and losses as functions (torch.nn.functional)."""
from __future__ import annotations

from .. import _ops
from .. import derivatives as D
from .._tensor import Tensor

_REDUCTIONS = ("none", "mean", "sum")


def _check_reduction(reduction: str) -> str:
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight=None, size_average=None, reduce=None,
                                     reduction: str = "mean", pos_weight=None) -> Tensor:
    """Sigmoid + binary cross-entropy in one numerically stable op."""
    if target.shape != input.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    _check_reduction(reduction)
    return D.binary_cross_entropy_with_logits(input, target, weight=weight, pos_weight=pos_weight,
                                              reduction=reduction)


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """max(x, 0)."""
    return _ops.relu(input)


def sigmoid(input: Tensor) -> Tensor:
    return _ops.sigmoid(input)


def tanh(input: Tensor) -> Tensor:
    return _ops.tanh(input)
