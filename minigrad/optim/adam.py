"""Adam and AdamW (torch.optim.Adam / AdamW): bias-corrected running moments of the gradient."""
from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from .optimizer import (
    CAPTURABLE_ERROR,
    Optimizer,
    _bump,
    _check_adam_args,
    _check_fused,
    _new_step,
    _real,
    _write,
    add_scaled,
    addcdiv,
    addcmul,
    divide,
    lerp,
    scale,
    sqrt,
)


class Adam(Optimizer):
    """p ← p - lr·m̂ / (√v̂ + eps), with m, v running means of g and g² and hats their bias corrections."""

    _capturable_error = CAPTURABLE_ERROR

    _sparse_error = "Adam does not support sparse gradients, please consider SparseAdam instead"

    def __init__(self, params, lr: float = 1e-3, betas: tuple = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, amsgrad: bool = False, *, foreach=None, maximize: bool = False,
                 capturable: bool = False, differentiable: bool = False, fused=None,
                 decoupled_weight_decay: bool = False) -> None:
        if isinstance(lr, Tensor) and foreach and not capturable:   # (PyTorch's Adam / AdamW only)
            raise ValueError("lr as a Tensor is not supported for capturable=False and foreach=True")
        _check_adam_args(lr, betas, eps, weight_decay)
        if not (isinstance(betas[0], float) and isinstance(betas[1], float)):
            raise ValueError("betas must be either both floats or both Tensors")
        betas = tuple(betas)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad, maximize=maximize,
                        foreach=foreach, capturable=capturable, differentiable=differentiable, fused=fused,
                        decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)
        _check_fused(fused, foreach, differentiable)

    def _update(self, p, grad, state, group) -> None:
        lr, (beta1, beta2), eps, wd = group["lr"], group["betas"], group["eps"], group["weight_decay"]
        if not state:
            state["step"] = _new_step(0.0)
            state["exp_avg"] = Tensor._make(np.zeros_like(p._data))
            state["exp_avg_sq"] = Tensor._make(np.zeros_like(p._data))
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = Tensor._make(np.zeros_like(p._data))
        if group["maximize"]:
            grad = -grad
        state["step"]._data += 1
        _bump(state, step=1, exp_avg=1, exp_avg_sq=2)   # (+= 1; lerp_; mul_, addcmul_)
        step = float(state["step"]._data)
        param = p._data
        if wd != 0:
            if group["decoupled_weight_decay"]:
                param = scale(param, 1 - lr * wd)      # AdamW: shrink p directly
                _write(p, param)
            else:
                grad = add_scaled(grad, param, wd)                 # Adam: L2 penalty in the gradient
        param, grad = _real(param), _real(grad)  # (complex tensors: their real and imaginary parts)
        dt = param.dtype
        m, v = _real(state["exp_avg"]._data), _real(state["exp_avg_sq"]._data)
        m[...] = lerp(m, grad, 1 - beta1)                          # m ← β1·m + (1-β1)·g
        v[...] = addcmul(scale(v, beta2), grad, grad, 1 - beta2)  # v ← β2·v + (1-β2)·g²
        if group["amsgrad"]:
            vmax = _real(state["max_exp_avg_sq"]._data)
            np.maximum(vmax, v, out=vmax)
            _bump(state, max_exp_avg_sq=1)
            v = vmax
        step_size = lr / (1 - beta1 ** step)
        denom = divide(sqrt(v), (1 - beta2 ** step) ** 0.5) + dt.type(eps)
        _write(p, addcdiv(param, m, denom, -step_size))


class AdamW(Adam):
    """Adam with decoupled weight decay: p ← p·(1 - lr·wd) before the Adam step."""

    def __init__(self, params, lr: float = 1e-3, betas: tuple = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 1e-2, amsgrad: bool = False, *, maximize: bool = False, foreach=None,
                 capturable: bool = False, differentiable: bool = False, fused=None) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)
