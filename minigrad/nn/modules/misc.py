"""Dropout, Dropout2d and Flatten."""
from __future__ import annotations

from ..._tensor import Tensor
from .. import functional as F
from .module import Module


class _DropoutNd(Module):
    """What the dropout modules share (PyTorch's _DropoutNd): p, inplace, their checks and repr."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    """During training, zero elements with probability p and scale the rest by 1/(1-p)."""

    _torch_name = "torch.nn.modules.dropout.Dropout"   # type(obj) prints PyTorch's module path

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    """During training, zero whole channels with probability p and scale the rest by 1/(1-p)."""

    _torch_name = "torch.nn.modules.dropout.Dropout2d"   # type(obj) prints PyTorch's module path

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Flatten(Module):
    """Merge dims start_dim..end_dim (by default all but the batch dim)."""

    _torch_name = "torch.nn.modules.flatten.Flatten"   # type(obj) prints PyTorch's module path

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input: Tensor) -> Tensor:
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"
