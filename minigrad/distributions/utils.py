"""Helpers shared by the distributions (torch.distributions.utils): broadcasting, probs <-> logits, lazy_property."""
from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from functools import update_wrapper
from math import inf, nan  # noqa: F401  (re-exported: torch's modules import them from torch)
from typing import Any, Final, Generic, TypeVar, overload

import minigrad as mg

from .._class_names import TorchNamed
from .._dtypes import dtype as _dtype
from .._tensor import Size, Tensor  # noqa: F401  (re-exported)
from ..nn import functional as F

# torch.types' names for type hints
_size = Sequence[int]
_Number = (int, float, bool)
Number = int | float | bool
Device = Any
SymInt = int

euler_constant: Final[float] = 0.57721566490153286060  # Euler Mascheroni Constant

__all__ = [
    "broadcast_all",
    "logits_to_probs",
    "clamp_probs",
    "probs_to_logits",
    "lazy_property",
    "tril_matrix_to_vec",
    "vec_to_tril_matrix",
]


# FIXME: Use (*values: *Ts) -> tuple[Tensor for T in Ts] if Mapping-Type is ever added.
#   See https://github.com/python/typing/issues/1216#issuecomment-2126153831
def broadcast_all(*values: Tensor | Number) -> tuple[Tensor, ...]:
    """Numbers and tensors broadcast together (numbers become tensors of the first tensor's dtype)."""
    if not all(isinstance(v, Tensor) or isinstance(v, numbers.Number) for v in values):
        raise ValueError(
            "Input arguments must all be instances of Number, "
            "torch.Tensor or objects implementing __torch_function__."
        )
    if not all(isinstance(v, Tensor) for v in values):
        options: dict[str, Any] = dict(dtype=mg.get_default_dtype())
        for value in values:
            if isinstance(value, mg.Tensor):
                options = dict(dtype=value.dtype, device=value.device)
                break
        new_values = [
            v if isinstance(v, Tensor) else mg.tensor(v, **options) for v in values
        ]
        return mg.broadcast_tensors(*new_values)
    return mg.broadcast_tensors(*values)


def _standard_normal(
    shape: Sequence[int | SymInt],
    dtype: _dtype | None,
    device: Device | None,
) -> Tensor:
    return mg.empty(shape, dtype=dtype, device=device).normal_()


def _sum_rightmost(value: Tensor, dim: int) -> Tensor:
    """Sum out ``dim`` many rightmost dimensions of a given tensor."""
    if dim == 0:
        return value
    required_shape = value.shape[:-dim] + (-1,)
    return value.reshape(required_shape).sum(-1)


def logits_to_probs(logits: Tensor, is_binary: bool = False) -> Tensor:
    """Converts a tensor of logits into probabilities."""
    if is_binary:
        return mg.sigmoid(logits)
    return F.softmax(logits, dim=-1)


def clamp_probs(probs: Tensor) -> Tensor:
    """Clamps the probabilities to be in the open interval `(0, 1)`."""
    eps = mg.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs: Tensor, is_binary: bool = False) -> Tensor:
    """Converts a tensor of probabilities into logits."""
    ps_clamped = clamp_probs(probs)
    if is_binary:
        return mg.log(ps_clamped) - mg.log1p(-ps_clamped)
    return mg.log(ps_clamped)


T = TypeVar("T", contravariant=True)
R = TypeVar("R", covariant=True)


class lazy_property(Generic[T, R], metaclass=TorchNamed):
    """Used as a decorator for lazy loading of class attributes."""

    def __init__(self, wrapped: Callable[[T], R]) -> None:
        self.wrapped: Callable[[T], R] = wrapped
        update_wrapper(self, wrapped)

    @overload
    def __get__(
        self, instance: None, obj_type: Any = None
    ) -> _lazy_property_and_property[T, R]: ...

    @overload
    def __get__(self, instance: T, obj_type: Any = None) -> R: ...

    def __get__(
        self, instance: T | None, obj_type: Any = None
    ) -> R | _lazy_property_and_property[T, R]:
        if instance is None:
            return _lazy_property_and_property(self.wrapped)
        with mg.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


class _lazy_property_and_property(lazy_property[T, R], property):
    """We want lazy properties to look like multiple things."""

    def __init__(self, wrapped: Callable[[T], R]) -> None:
        property.__init__(self, wrapped)


def tril_matrix_to_vec(mat: Tensor, diag: int = 0) -> Tensor:
    """The lower triangle (below diagonal ``diag``) of a D x D matrix, row by row, as a vector."""
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    arange = mg.arange(n, device=mat.device)
    tril_mask = arange < arange.view(-1, 1) + (diag + 1)
    vec = mat[..., tril_mask]
    return vec


def vec_to_tril_matrix(vec: Tensor, diag: int = 0) -> Tensor:
    """A vector back into a D x D lower-triangular matrix (the inverse of tril_matrix_to_vec)."""
    # +ve root of D**2 + (1+2*diag)*D - |diag| * (diag+1) - 2*vec.shape[-1] = 0
    n = (
        -(1 + 2 * diag)
        + ((1 + 2 * diag) ** 2 + 8 * vec.shape[-1] + 4 * abs(diag) * (diag + 1)) ** 0.5
    ) / 2
    eps = mg.finfo(vec.dtype).eps
    if round(n) - n > eps:
        raise ValueError(
            f"The size of last dimension is {vec.shape[-1]} which cannot be expressed as "
            + "the lower triangular part of a square D x D matrix."
        )
    n = round(n.item()) if isinstance(n, mg.Tensor) else round(n)
    mat = vec.new_zeros(vec.shape[:-1] + mg.Size((n, n)))
    arange = mg.arange(n, device=vec.device)
    tril_mask = arange < arange.view(-1, 1) + (diag + 1)
    mat[..., tril_mask] = vec
    return mat
