"""Adafactor (torch.optim.Adafactor): Adam-like steps with the second moment of a matrix kept factored.

For a matrix gradient only the running means of the squared gradient over rows (``row_var``) and over
columns (``col_var``) are kept; their outer product over the mean of ``row_var`` estimates the full second
moment (memory O(n + m), not O(n·m)). Vectors keep a plain ``variance``. Written with minigrad's tensor ops,
in PyTorch's order (its single-tensor CPU path), so the numbers round as PyTorch's.
"""
from __future__ import annotations

from .._tensor import Tensor
from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer, _new_step


class Adafactor(Optimizer):
    """p ← p - α·u/max(1, RMS(u)/d), u = g/√v̂, α = max(eps2, RMS(p))·min(lr, 1/√step)."""

    def __init__(self, params, lr: float = 1e-2, beta2_decay: float = -0.8, eps: tuple = (None, 1e-3),
                 d: float = 1.0, weight_decay: float = 0.0, *, foreach=None, maximize: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 >= beta2_decay:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not 0.0 <= eps[0]:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not 0.0 <= eps[1]:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not 1.0 <= d:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")
        defaults = dict(lr=lr, beta2_decay=beta2_decay, eps=eps, d=d, weight_decay=weight_decay, foreach=foreach,
                        maximize=maximize)
        super().__init__(params, defaults)

    @no_grad()
    def _update(self, param, grad_array, state, group) -> None:
        from .. import finfo, norm, zeros_like
        if param.is_complex():
            raise RuntimeError("Adafactor does not support complex parameters")
        grad = Tensor._make(grad_array)
        if not state:
            state["step"] = _new_step(0.0)
            if grad.dim() > 1:
                row_shape = list(grad.shape)
                row_shape[-1] = 1
                state["row_var"] = grad.new_zeros(row_shape)
                col_shape = list(grad.shape)
                col_shape[-2] = 1
                state["col_var"] = grad.new_zeros(col_shape)
            else:
                state["variance"] = zeros_like(grad)
        if group["maximize"]:
            grad = -grad
        eps1, eps2 = group["eps"]
        lr, d, weight_decay = float(group["lr"]), group["d"], group["weight_decay"]
        if eps1 is None:
            eps1 = finfo(param.dtype).eps
        state["step"] += 1
        step_float = state["step"].item()
        one_minus_beta2_t = step_float ** group["beta2_decay"]
        rho_t = min(lr, 1 / (step_float ** 0.5))                     # relative step size
        alpha = max(eps2, param.norm(2).item() / (param.numel() ** 0.5)) * rho_t   # scaled by RMS(p)
        if weight_decay != 0:
            param.mul_(1 - lr * weight_decay)
        if grad.dim() > 1:
            row_var, col_var = state["row_var"], state["col_var"]
            row_mean = norm(grad, dim=-1, keepdim=True).square_().div_(grad.size(-1))   # mean g² of each row
            row_var.lerp_(row_mean, one_minus_beta2_t)
            col_mean = norm(grad, dim=-2, keepdim=True).square_().div_(grad.size(-2))   # ... of each column
            col_var.lerp_(col_mean, one_minus_beta2_t)
            var_estimate = row_var @ col_var
            var_estimate.div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))
        else:
            state["variance"].lerp_(grad * grad, one_minus_beta2_t)
            var_estimate = state["variance"].clone()
        update = var_estimate.clamp_(min=eps1 * eps1).rsqrt_()
        update.mul_(grad)
        denom = max(1.0, update.norm(2).item() / ((update.numel() ** 0.5) * d))   # update clipping
        param.add_(update, alpha=-alpha / denom)
