"""RAdam (torch.optim.RAdam): Adam whose adaptive step is switched on, and rectified, once its variance is tame."""
from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from .optimizer import (
    CAPTURABLE_ERROR,
    Optimizer,
    _bump,
    _check_adam_args,
    _new_step,
    _real,
    _recorded,
    _write,
    add_scaled,
    addcmul,
    divide,
    lerp,
    scale,
    sqrt,
)


class RAdam(Optimizer):
    """p ← p - lr·m̂·r·√(1-β2ᵗ)/(√v + eps) when ρₜ > 5 (r the rectification), else p ← p - lr·m̂ (SGD with momentum)."""

    _capturable_error = CAPTURABLE_ERROR

    def __init__(self, params, lr: float = 1e-3, betas: tuple = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, decoupled_weight_decay: bool = False, *, foreach=None,
                 maximize: bool = False, capturable: bool = False, differentiable: bool = False) -> None:
        _check_adam_args(lr, betas, eps, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, maximize=maximize, foreach=foreach,
                        capturable=capturable, decoupled_weight_decay=decoupled_weight_decay,
                        differentiable=differentiable)
        super().__init__(params, defaults)

    def _init_state(self, p, grad, state, group) -> None:
        state["step"] = _new_step(0.0)
        state["exp_avg"] = Tensor._make(np.zeros_like(p._data))
        state["exp_avg_sq"] = Tensor._make(np.zeros_like(p._data))

    def _update(self, p, grad, state, group) -> None:
        if group["differentiable"] and _recorded(p, group):
            return self._update_recorded(p, state, group)
        lr, (beta1, beta2), eps, wd = group["lr"], group["betas"], group["eps"], group["weight_decay"]
        if group["maximize"]:
            grad = -grad
        state["step"]._data += 1
        _bump(state, step=1)
        step = float(state["step"]._data)
        param, grad = _real(p._data), _real(grad)  # (complex tensors: their real and imaginary parts)
        dt = param.dtype
        if wd != 0:
            if group["decoupled_weight_decay"]:
                param = scale(param, 1 - lr * wd)
                _write(p, param)
            else:
                grad = add_scaled(grad, param, wd)
        m, v = _real(state["exp_avg"]._data), _real(state["exp_avg_sq"]._data)
        m[...] = lerp(m, grad, 1 - beta1)                             # m ← β1·m + (1-β1)·g
        v[...] = addcmul(scale(v, beta2), grad, grad, 1 - beta2)  # v ← β2·v + (1-β2)·g²
        _bump(state, exp_avg=1, exp_avg_sq=2)   # (lerp_; mul_, addcmul_: none if lerp_ refused the grad's dtype)
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        m_hat = divide(m, bias_correction1)
        # ρ: the length of the simple moving average that the running v approximates (ρ∞ in the limit).
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
        if rho_t > 5.0:
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            # PyTorch's ``number / tensor`` is ``tensor.reciprocal() * number``: the same roundings here.
            adaptive_lr = scale(np.reciprocal(sqrt(v) + dt.type(eps)), bias_correction2 ** 0.5)
            update = scale(scale(m_hat, lr) * adaptive_lr, rect)
        else:
            update = scale(m_hat, lr)
        _write(p, param - update)

    def _update_recorded(self, p, state, group) -> None:
        """differentiable=True: PyTorch's _single_tensor_radam in tensor ops (see optimizer._recorded)."""
        lr, (beta1, beta2), eps, wd = group["lr"], group["betas"], group["eps"], group["weight_decay"]
        grad = -p.grad if group["maximize"] else p.grad
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        step = state["step"].add_(1).item()
        if wd != 0:
            if group["decoupled_weight_decay"]:
                p.mul_(1 - lr * wd)
            else:
                grad = grad.add(p, alpha=wd)
        exp_avg.lerp_(grad, 1 - beta1)                                      # m ← β1·m + (1-β1)·g
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)        # v ← β2·v + (1-β2)·g²
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        bias_corrected_exp_avg = exp_avg / bias_correction1
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
        if rho_t > 5.0:
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            adaptive_lr = (bias_correction2 ** 0.5) / exp_avg_sq.sqrt().add(eps)   # √(1-β2ᵗ) / (√v + eps)
            p.add_(bias_corrected_exp_avg * lr * adaptive_lr * rect, alpha=-1.0)
        else:
            p.add_(bias_corrected_exp_avg * lr, alpha=-1.0)                 # SGD with momentum, early on
