"""NAdam (torch.optim.NAdam): Adam with Nesterov momentum, whose momentum coefficient warms up over steps."""
from __future__ import annotations

import numpy as np

from .._ops import view_as_real
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
    addcdiv,
    addcmul,
    divide,
    lerp,
    scale,
    sqrt,
)


class NAdam(Optimizer):
    """Adam whose step looks ahead: p ← p - lr·[(1-μₜ)/(1-Πμ)·g + μₜ₊₁/(1-Πμ·μₜ₊₁)·m] / (√v̂ + eps)."""

    _capturable_error = CAPTURABLE_ERROR.replace("params and", "params, mu_products and")

    def __init__(self, params, lr: float = 2e-3, betas: tuple = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, momentum_decay: float = 4e-3, decoupled_weight_decay: bool = False, *,
                 foreach=None, maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        _check_adam_args(lr, betas, eps, weight_decay)
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, momentum_decay=momentum_decay,
                        decoupled_weight_decay=decoupled_weight_decay, maximize=maximize, foreach=foreach,
                        capturable=capturable, differentiable=differentiable)
        super().__init__(params, defaults)

    def _init_state(self, p, grad, state, group) -> None:
        state["step"] = _new_step(0.0)
        state["mu_product"] = _new_step(1.0)  # Π μ over the steps so far (a scalar tensor, like step)
        state["exp_avg"] = Tensor._make(np.zeros_like(p._data))
        state["exp_avg_sq"] = Tensor._make(np.zeros_like(p._data))

    def _update(self, p, grad, state, group) -> None:
        if group["differentiable"] and _recorded(p, group, complex_ok=True):
            return self._update_recorded(p, state, group)
        lr, (beta1, beta2), eps, wd = group["lr"], group["betas"], group["eps"], group["weight_decay"]
        momentum_decay = group["momentum_decay"]
        if group["maximize"]:
            grad = -grad
        state["step"]._data += 1
        _bump(state, step=1)
        step = float(state["step"]._data)
        param, grad = _real(p._data), _real(grad)  # (complex tensors: their real and imaginary parts)
        dt = param.dtype
        bias_correction2 = 1 - beta2 ** step
        if wd != 0:
            if group["decoupled_weight_decay"]:
                param = scale(param, 1 - lr * wd)               # decoupled: shrink p directly
                _write(p, param)
            else:
                grad = add_scaled(grad, param, wd)                 # L2 penalty in the gradient
        _bump(state, mu_product=1)   # (*=)
        # The momentum coefficients of this step and the next: μₜ = β1·(1 - ½·0.96^(t·ψ)).
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
        mu_product = state["mu_product"]._data
        mu_product[...] = scale(mu_product, mu)  # (PyTorch's mul_ by a number, in the μ product's dtype)
        m, v = _real(state["exp_avg"]._data), _real(state["exp_avg_sq"]._data)
        m[...] = lerp(m, grad, 1 - beta1)                             # m ← β1·m + (1-β1)·g
        v[...] = addcmul(scale(v, beta2), grad, grad, 1 - beta2)  # v ← β2·v + (1-β2)·g²
        _bump(state, exp_avg=1, exp_avg_sq=2)   # (lerp_; mul_, addcmul_: none if lerp_ refused the grad's dtype)
        denom = sqrt(divide(v, bias_correction2)) + dt.type(eps)
        prod = float(mu_product)
        param = addcdiv(param, grad, denom, -lr * (1.0 - mu) / (1.0 - prod))
        param = addcdiv(param, m, denom, (-lr * mu_next) / (1.0 - prod * mu_next))
        _write(p, param)
        p._version_counter[0] += 1   # (PyTorch's two addcdiv_ on the parameter: two versions)

    def _update_recorded(self, p, state, group) -> None:
        """differentiable=True: PyTorch's _single_tensor_nadam in tensor ops (see optimizer._recorded). Its
        differentiable branch keeps the μ product a tensor: the two step sizes are 0-dim tensors computed from it
        (``number / tensor``), multiplied into g and m before the two addcdiv_."""
        lr, (beta1, beta2), eps, wd = group["lr"], group["betas"], group["eps"], group["weight_decay"]
        grad = -p.grad if group["maximize"] else p.grad
        exp_avg, exp_avg_sq, mu_product = state["exp_avg"], state["exp_avg_sq"], state["mu_product"]
        param = p
        if p.is_complex():   # (everything from the weight decay on, as (real, imaginary) pairs)
            param, grad, exp_avg, exp_avg_sq = (view_as_real(t) for t in (p, grad, exp_avg, exp_avg_sq))
        step = state["step"].add_(1).item()
        bias_correction2 = 1 - beta2 ** step
        if wd != 0:
            if group["decoupled_weight_decay"]:
                param.mul_(1 - lr * wd)
            else:
                grad = grad.add(param, alpha=wd)
        # the momentum coefficients of this step and the next: μₜ = β1·(1 - ½·0.96^(t·ψ))
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * group["momentum_decay"])))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * group["momentum_decay"])))
        mu_product.mul_(mu)
        exp_avg.lerp_(grad, 1 - beta1)                                      # m ← β1·m + (1-β1)·g
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)        # v ← β2·v + (1-β2)·g²
        denom = exp_avg_sq.div(bias_correction2).sqrt().add(eps)
        mu_product_next = mu_product * mu_next
        grad = grad * (-lr * (1.0 - mu) / (1.0 - mu_product))
        exp_avg = exp_avg * (-lr * mu_next / (1.0 - mu_product_next))
        param.addcdiv_(grad, denom)
        param.addcdiv_(exp_avg, denom)
