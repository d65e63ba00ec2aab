"""Adamax and Adadelta (torch.optim.Adamax / Adadelta): Adam's infinity-norm variant, and Zeiler's
unit-correcting running averages."""
from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from .optimizer import (
    CAPTURABLE_ERROR,
    Optimizer,
    _bump,
    _check_adam_args,
    _check_tensor_lr,
    _real,
    _recorded,
    _write,
    add_scaled,
    addcdiv,
    addcmul,
    lerp,
    scale,
    sqrt,
)


def _new_state(p, *names) -> dict:
    state = {"step": Tensor._make(np.array(0.0, dtype=np.float32))}
    for name in names:
        state[name] = Tensor._make(np.zeros_like(p._data))
    return state


class Adamax(Optimizer):
    """m ← β1·m + (1-β1)·g;  u ← max(β2·u, |g| + eps);  p ← p - lr/(1-β1^t) · m/u."""

    _capturable_error = CAPTURABLE_ERROR

    def __init__(self, params, lr: float = 2e-3, betas: tuple = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, foreach=None, *, maximize: bool = False,
                 differentiable: bool = False, capturable: bool = False) -> None:
        _check_adam_args(lr, betas, eps, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def _init_state(self, p, grad, state, group) -> None:
        state.update(_new_state(p, "exp_avg", "exp_inf"))

    def _update(self, p, grad, state, group) -> None:
        if group["differentiable"] and _recorded(p, group):
            return self._update_recorded(p, state, group)
        (beta1, beta2), eps = group["betas"], group["eps"]
        if group["maximize"]:
            grad = -grad
        state["step"]._data += 1
        _bump(state, step=1)   # (+= 1)
        if group["weight_decay"] != 0:
            grad = add_scaled(grad, p._data, group["weight_decay"])
        param, grad = _real(p._data), _real(grad)   # (a complex parameter is updated as real pairs)
        dt = param.dtype
        m, u = _real(state["exp_avg"]._data), _real(state["exp_inf"]._data)
        m[...] = lerp(m, grad, 1 - beta1)
        np.maximum(scale(u, beta2), np.abs(grad) + dt.type(eps), out=u)   # the infinity norm's running max
        _bump(state, exp_avg=1, exp_inf=2)   # (lerp_; mul_, maximum(out=): none if lerp_ refused the grad's dtype)
        clr = group["lr"] / (1 - beta1 ** float(state["step"]._data))
        _write(p, addcdiv(param, m, u, -clr))

    def _update_recorded(self, p, state, group) -> None:
        """differentiable=True: PyTorch's _single_tensor_adamax in tensor ops (see optimizer._recorded). Its
        differentiable branch takes the running max as the amax of the two candidates stacked, copied back."""
        from .._ops import amax, cat
        (beta1, beta2), eps = group["betas"], group["eps"]
        grad = -p.grad if group["maximize"] else p.grad
        exp_avg, exp_inf, step = state["exp_avg"], state["exp_inf"], state["step"]
        step.add_(1)
        if group["weight_decay"] != 0:
            grad = grad.add(p, alpha=group["weight_decay"])
        exp_avg.lerp_(grad, 1 - beta1)                                      # m ← β1·m + (1-β1)·g
        norm_buf = cat([exp_inf.mul_(beta2).unsqueeze(0), grad.abs().add_(eps).unsqueeze_(0)], 0)
        exp_inf.copy_(amax(norm_buf, 0, keepdim=False))                    # u ← max(β2·u, |g| + eps)
        clr = group["lr"] / (1 - beta1 ** step.item())
        p.addcdiv_(exp_avg, exp_inf, value=-clr)                            # p ← p - lr/(1-β1ᵗ) · m/u


class Adadelta(Optimizer):
    """v ← ρ·v + (1-ρ)·g²;  Δ = √(a + eps)/√(v + eps) · g;  a ← ρ·a + (1-ρ)·Δ²;  p ← p - lr·Δ."""

    _capturable_error = CAPTURABLE_ERROR.replace(", 'xla'", "")   # (its check leaves XLA out)

    def __init__(self, params, lr: float = 1.0, rho: float = 0.9, eps: float = 1e-6, weight_decay: float = 0,
                 foreach=None, *, capturable: bool = False, maximize: bool = False,
                 differentiable: bool = False) -> None:
        _check_tensor_lr(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize, capturable=capturable,
                        foreach=foreach, differentiable=differentiable)
        super().__init__(params, defaults)

    def _init_state(self, p, grad, state, group) -> None:
        state.update(_new_state(p, "square_avg", "acc_delta"))

    def _update(self, p, grad, state, group) -> None:
        if group["differentiable"] and _recorded(p, group):
            return self._update_recorded(p, state, group)
        dt = _real(p._data).dtype
        rho, eps = group["rho"], dt.type(group["eps"])
        state["step"]._data += 1
        _bump(state, step=1, square_avg=2, acc_delta=2)   # (+= 1; mul_, addcmul_ each)
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"] != 0:
            grad = add_scaled(grad, p._data, group["weight_decay"])
        grad = _real(grad)   # (complex: the statistics as real pairs; the step itself is a complex add)
        v, acc = _real(state["square_avg"]._data), _real(state["acc_delta"]._data)
        v[...] = addcmul(scale(v, rho), grad, grad, 1 - rho)
        # (in the state's dtype, delta.div_(std).mul_(grad) rounded into it: a module converted after a step)
        delta = (sqrt(acc + acc.dtype.type(eps)) / sqrt(v + v.dtype.type(eps)) * grad).astype(acc.dtype, copy=False)
        acc[...] = addcmul(scale(acc, rho), delta, delta, 1 - rho)
        if np.iscomplexobj(p._data):
            delta = delta.view(p._data.dtype).reshape(p._data.shape)
        _write(p, add_scaled(p._data, delta, -group["lr"]))

    def _update_recorded(self, p, state, group) -> None:
        """differentiable=True: PyTorch's _single_tensor_adadelta in tensor ops (see optimizer._recorded)."""
        rho, eps = group["rho"], group["eps"]
        square_avg, acc_delta = state["square_avg"], state["acc_delta"]
        state["step"].add_(1)
        grad = -p.grad if group["maximize"] else p.grad
        if group["weight_decay"] != 0:
            grad = grad.add(p, alpha=group["weight_decay"])
        square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)            # v ← ρ·v + (1-ρ)·g²
        std = square_avg.add(eps).sqrt_()
        delta = acc_delta.add(eps).sqrt_().clone()   # (the clone: sqrt_'s result is saved by its node)
        delta.div_(std).mul_(grad)                                          # Δ = √(a + eps)/√(v + eps) · g
        acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)           # a ← ρ·a + (1-ρ)·Δ²
        p.add_(delta, alpha=-group["lr"])
