"""RMSprop (torch.optim.RMSprop): divide the gradient by a running root mean square of past gradients."""
from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from .optimizer import (
    CAPTURABLE_ERROR,
    Optimizer,
    _bump,
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


class RMSprop(Optimizer):
    """v ← α·v + (1-α)·g²;  p ← p - lr·g / (√v + eps) (centered: v - ḡ², momentum: a buffer of the steps)."""

    _capturable_error = CAPTURABLE_ERROR

    def __init__(self, params, lr: float = 1e-2, alpha: float = 0.99, eps: float = 1e-8, weight_decay: float = 0,
                 momentum: float = 0, centered: bool = False, capturable: bool = False, foreach=None,
                 maximize: bool = False, differentiable: bool = False) -> None:
        _check_tensor_lr(lr)
        for name, value in (("learning rate", lr), ("epsilon value", eps), ("momentum value", momentum),
                            ("weight_decay value", weight_decay), ("alpha value", alpha)):
            if not 0.0 <= value:
                raise ValueError(f"Invalid {name}: {value}")
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, capturable=capturable, foreach=foreach, maximize=maximize,
                        differentiable=differentiable)
        super().__init__(params, defaults)

    def _init_state(self, p, grad, state, group) -> None:
        state["step"] = Tensor._make(np.array(0.0, dtype=np.float32))
        state["square_avg"] = Tensor._make(np.zeros_like(p._data))
        if group["momentum"] > 0:
            state["momentum_buffer"] = Tensor._make(np.zeros_like(p._data))
        if group["centered"]:
            state["grad_avg"] = Tensor._make(np.zeros_like(p._data))

    def _update(self, p, grad, state, group) -> None:
        if group["differentiable"] and _recorded(p, group):
            return self._update_recorded(p, state, group)
        lr, alpha, momentum = group["lr"], group["alpha"], group["momentum"]
        if group["maximize"]:
            grad = -grad
        state["step"]._data += 1
        _bump(state, step=1, square_avg=2)   # (+= 1; mul_, addcmul_)
        if group["weight_decay"] != 0:
            grad = add_scaled(grad, p._data, group["weight_decay"])
        param, grad = _real(p._data), _real(grad)   # (a complex parameter is updated as real pairs)
        sq = _real(state["square_avg"]._data)
        sq[...] = addcmul(scale(sq, alpha), grad, grad, 1 - alpha)   # v ← α·v + (1-α)·g²
        if group["centered"]:
            g_avg = _real(state["grad_avg"]._data)
            g_avg[...] = lerp(g_avg, grad, 1 - alpha)                   # ḡ ← α·ḡ + (1-α)·g
            _bump(state, grad_avg=1)   # (lerp_: none if it refused the grad's dtype)
            avg = sqrt(addcmul(sq, g_avg, g_avg, -1))                # √(v - ḡ²): a variance estimate
        else:
            avg = sqrt(sq)
        avg = avg + avg.dtype.type(group["eps"])   # (in the state's dtype: a module converted after a step)
        if momentum > 0:
            buf = _real(state["momentum_buffer"]._data)
            buf[...] = addcdiv(scale(buf, momentum), grad, avg, 1)  # b ← μ·b + g / avg
            _bump(state, momentum_buffer=2)   # (mul_, addcdiv_)
            _write(p, add_scaled(param, buf, -lr))
        else:
            _write(p, addcdiv(param, grad, avg, -lr))

    def _update_recorded(self, p, state, group) -> None:
        """differentiable=True: PyTorch's _single_tensor_rmsprop in tensor ops (see optimizer._recorded)."""
        lr, alpha, eps, momentum = group["lr"], group["alpha"], group["eps"], group["momentum"]
        grad = -p.grad if group["maximize"] else p.grad
        square_avg = state["square_avg"]
        state["step"].add_(1)
        if group["weight_decay"] != 0:
            grad = grad.add(p, alpha=group["weight_decay"])
        square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)            # v ← α·v + (1-α)·g²
        if group["centered"]:
            grad_avg = state["grad_avg"]
            grad_avg.lerp_(grad, 1 - alpha)                                     # ḡ ← α·ḡ + (1-α)·g
            avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()      # √(v - ḡ²)
        else:
            avg = square_avg.sqrt()
        avg = avg.add(eps)   # (not add_: the sqrt's result is saved by its node)
        if momentum > 0:
            buf = state["momentum_buffer"]
            buf.mul_(momentum).addcdiv_(grad, avg)                              # b ← μ·b + g / avg
            p.add_(buf, alpha=-lr)
        else:
            p.addcdiv_(grad, avg, value=-lr)                                    # p ← p - lr·g / avg
