"""torch.nn.utils.clip_grad: gradient clipping, defined here as in PyTorch (torch.nn.utils re-exports it;
``get_total_norm`` and ``clip_grads_with_norm_`` are PyTorch's ``_get_total_norm`` / ``_clip_grads_with_norm_``)."""
from __future__ import annotations

import warnings

from ..._ops import clamp, norm, stack
from ..._tensor import Tensor
from ...autograd.grad_mode import no_grad

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_"]


def _as_list(parameters) -> list:
    return [parameters] if isinstance(parameters, Tensor) else list(parameters)


@no_grad()
def _get_total_norm(tensors, norm_type: float = 2.0, error_if_nonfinite: bool = False, foreach=None) -> Tensor:
    """The norm of all the tensors together (the norm of their norms)."""
    from ..._creation import tensor
    tensors = _as_list(tensors)
    norm_type = float(norm_type)
    if not tensors:
        return tensor(0.0)
    if any(g.is_sparse for g in tensors):  # (PyTorch's norm has no sparse kernel)
        from ...sparse import _not_for_sparse
        raise _not_for_sparse("aten::linalg_vector_norm")
    total_norm = norm(stack([norm(g, p=norm_type) for g in tensors]), p=norm_type)
    if error_if_nonfinite and (total_norm.isnan() or total_norm.isinf()):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so "
                           "it cannot be clipped. To disable this error and scale the gradients by the non-finite "
                           "norm anyway, set `error_if_nonfinite=False`")
    return total_norm


@no_grad()
def _clip_grads_with_norm_(parameters, max_norm: float, total_norm: Tensor, foreach=None) -> None:
    """Scale the gradients by max_norm / total_norm when that is below 1."""
    grads = [p.grad for p in _as_list(parameters) if p.grad is not None]
    if not grads:
        return
    coef = clamp(float(max_norm) / (total_norm + 1e-6), max=1.0)  # never scales gradients up
    for g in grads:
        g.mul_(coef)


@no_grad()
def clip_grad_norm_(parameters, max_norm: float, norm_type: float = 2.0, error_if_nonfinite: bool = False,
                    foreach=None) -> Tensor:
    """Scale the gradients so that their joint norm is at most ``max_norm``; return the norm before."""
    parameters = _as_list(parameters)
    total_norm = _get_total_norm([p.grad for p in parameters if p.grad is not None], norm_type, error_if_nonfinite)
    _clip_grads_with_norm_(parameters, max_norm, total_norm)
    return total_norm


def clip_grad_norm(parameters, max_norm: float, norm_type: float = 2.0, error_if_nonfinite: bool = False,
                   foreach=None) -> Tensor:
    """Deprecated spelling of clip_grad_norm_."""
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of `torch.nn.utils.clip_grad_norm_`.",
                  FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


@no_grad()
def clip_grad_value_(parameters, clip_value: float, foreach=None) -> None:
    """Clamp every gradient entry into [-clip_value, clip_value], in place."""
    clip_value = float(clip_value)
    grads = [p.grad for p in _as_list(parameters) if p.grad is not None]
    if not grads:  # (PyTorch groups the gradients, then fails on an empty group)
        raise RuntimeError("Expected !nested_tensorlist[0].empty() to be true, but got false.  (Could this error "
                           "message be improved?  If so, please report an enhancement request to PyTorch.)")
    for g in grads:
        if foreach is False:
            g.clamp_(min=-clip_value, max=clip_value)
        else:   # (PyTorch's foreach path, the default on CPU: _foreach_clamp_min_ then _foreach_clamp_max_)
            g.clamp_min_(-clip_value).clamp_max_(clip_value)
