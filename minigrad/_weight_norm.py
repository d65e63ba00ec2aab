"""``torch._weight_norm`` and friends: w = g · v / ‖v‖, the norm taken over every dim but ``dim``.

PyTorch runs its fused kernel (one WeightNormInterfaceBackward0 node) when ``dim`` is 0 or the last dim,
and composes ordinary ops otherwise (``v * (g / norm_except_dim(v, 2, dim))``); so does minigrad.
"""
from __future__ import annotations

from . import derivatives as D
from ._tensor import Tensor


def norm_except_dim(v: Tensor, pow: float = 2, dim: int = 0) -> Tensor:
    """The ``pow``-norm of ``v`` over every dim but ``dim`` (over all of them for dim=-1), kept broadcastable.

    PyTorch's steps (at::norm, a NormBackward1 node): rows of a (v.size(0), -1) view for dim 0, columns of a
    (-1, v.size(-1)) view for the last dim, and for a middle dim the dim-0 case on ``v.transpose(0, dim)``,
    transposed back.
    """
    if not isinstance(pow, int):  # (its C++ signature takes an int)
        from ._arg_errors import must_be
        raise must_be("norm_except_dim", "pow", "int", pow, 2)
    if not (v.is_floating_point() or v.is_complex()) and (dim == -1 or v.dim() and dim in (0, v.dim() - 1)):
        # (at::norm's dtype check; a middle dim transposes first, whose dim errors come before)
        from ._ops import _legacy
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. Got "
                           f"{_legacy(v.dtype)} instead.")
    if dim == -1:
        return D.norm_all(v, p=pow)  # (C++'s v.norm(pow): a NormBackward0 node, not Python's linalg vector norm)
    shape = [1] * v.dim()
    if dim == 0:
        shape[0] = v.size(0)   # (a 0-dim v: size()'s IndexError, as PyTorch's)
        return D.norm(v.contiguous().view(v.shape[0], -1), p=pow, dim=(1,), keepdim=False).view(shape)
    if dim == v.dim() - 1:
        shape[dim] = v.shape[dim]
        return D.norm(v.contiguous().view(-1, v.shape[dim]), p=pow, dim=(0,), keepdim=False).view(shape)
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


def _weight_norm_interface(v: Tensor, g: Tensor, dim: int = 0) -> tuple[Tensor, Tensor]:
    """The fused weight norm: ``(v · g / ‖v‖, ‖v‖)`` for dim 0 or the last dim."""
    return tuple(D.weight_norm_interface(v.contiguous(), g.contiguous(), dim=dim))


def _weight_norm(v: Tensor, g: Tensor, dim: int = 0) -> Tensor:
    """``v · g / ‖v‖`` with the norm over every dim but ``dim`` (PyTorch's choice of fused or composite)."""
    if dim in (0, v.dim() - 1) and g.dtype == v.dtype:
        return _weight_norm_interface(v, g, dim)[0]
    return v * (g / norm_except_dim(v, 2, dim))
