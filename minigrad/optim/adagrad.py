"""Adagrad (torch.optim.Adagrad): per-coordinate steps shrinking with the sum of past squared gradients."""
from __future__ import annotations

import numpy as np

from .. import _meta
from .._tensor import Tensor
from .optimizer import (
    Optimizer,
    _bump,
    _check_fused,
    _check_tensor_lr,
    _new_step,
    _real,
    _recorded,
    _write,
    add_scaled,
    addcdiv,
    addcmul,
    fused_sqrt,
)


class Adagrad(Optimizer):
    """s ← s + g²;  p ← p - clr·g / (√s + eps), with clr = lr / (1 + (step - 1)·lr_decay)."""

    _sparse_error = None
    _fused_check_once = True

    def __init__(self, params, lr: float = 1e-2, lr_decay: float = 0, weight_decay: float = 0,
                 initial_accumulator_value: float = 0, eps: float = 1e-10, foreach=None, *, maximize: bool = False,
                 differentiable: bool = False, fused=None) -> None:
        _check_tensor_lr(lr)
        for name, value in (("learning rate", lr), ("lr_decay value", lr_decay),
                            ("weight_decay value", weight_decay),
                            ("initial_accumulator_value value", initial_accumulator_value), ("epsilon value", eps)):
            if not 0.0 <= value:
                raise ValueError(f"Invalid {name}: {value}")
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach, maximize=maximize,
                        differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        _check_fused(fused, foreach, differentiable)
        # Unlike the other optimizers, Adagrad makes its state up front (so it is listed before any step).
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p] = self._new_state(p, initial_accumulator_value)

    @staticmethod
    def _new_state(p, value: float) -> dict:
        # (a complex parameter's sum starts at value + value·i, as PyTorch's)
        fill = complex(value, value) if np.iscomplexobj(p._data) else value
        if _meta.METAS and _meta.is_meta(p):   # (a meta parameter's sum: a meta tensor, nothing filled)
            return {"step": _new_step(0.0), "sum": _meta.mark(Tensor._make(_meta.clone(p._data)))}
        return {"step": _new_step(0.0), "sum": Tensor._make(np.full_like(p._data, fill))}

    def _init_state(self, p, grad, state, group) -> None:
        # (a group added later with add_param_group: made at its first step, from the defaults)
        state.update(self._new_state(p, self.defaults["initial_accumulator_value"]))

    def _check_fused_kernel(self, params) -> None:
        if any(p.is_complex() or p.grad.is_sparse for p in params):
            raise RuntimeError("`fused` does not support sparse grad or complex param")

    def _update(self, p, grad, state, group) -> None:
        if group["differentiable"] and _recorded(p, group):
            return self._update_recorded(p, state, group)
        state["step"]._data += 1
        _bump(state, step=1, sum=1)   # (+= 1; addcmul_)
        step = float(state["step"]._data)
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"] != 0:
            if p.grad.is_sparse:
                raise RuntimeError("weight_decay option is not compatible with sparse gradients")
            grad = add_scaled(grad, p._data, group["weight_decay"])
        clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        param, grad, total = _real(p._data), _real(grad), _real(state["sum"]._data)   # (complex: as real pairs)
        total[...] = addcmul(total, grad, grad, 1)                     # s ← s + g²
        std = fused_sqrt(total, group.get("fused")) + total.dtype.type(group["eps"])   # (in the state's dtype)
        _write(p, addcdiv(param, grad, std, -clr))

    def _update_recorded(self, p, state, group) -> None:
        """differentiable=True: PyTorch's _single_tensor_adagrad in tensor ops (see optimizer._recorded)."""
        state_sum = state["sum"]
        step = state["step"].add_(1).item()
        grad = -p.grad if group["maximize"] else p.grad
        if group["weight_decay"] != 0:
            grad = grad.add(p, alpha=group["weight_decay"])
        clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        state_sum.addcmul_(grad, grad, value=1)                 # s ← s + g²
        std = state_sum.sqrt() + group["eps"]
        p.addcdiv_(grad, std, value=-clr)                       # p ← p - clr·g / (√s + eps)
