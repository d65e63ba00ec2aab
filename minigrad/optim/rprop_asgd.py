"""Rprop and ASGD (torch.optim.Rprop / torch.optim.ASGD)."""
from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from .optimizer import Optimizer, _new_step, _write, add_scaled, addcmul


class Rprop(Optimizer):
    """Resilient backprop: a step size per element, grown (×η+) while the gradient keeps its sign and shrunk
    (×η-) when it flips; the parameter moves by its step size against the gradient's sign."""

    def __init__(self, params, lr: float = 1e-2, etas: tuple = (0.5, 1.2), step_sizes: tuple = (1e-6, 50), *,
                 capturable: bool = False, foreach=None, maximize: bool = False, differentiable: bool = False) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = dict(lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach, maximize=maximize,
                        differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def _update(self, p, grad, state, group) -> None:
        dt = p._data.dtype
        if not state:
            state["step"] = _new_step(0.0)
            state["prev"] = Tensor._make(np.zeros_like(p._data))
            state["step_size"] = Tensor._make(np.full_like(grad, group["lr"]))
        if group["maximize"]:
            grad = -grad
        state["step"]._data += 1
        eta_minus, eta_plus = (dt.type(e) for e in group["etas"])
        prev, step_size = state["prev"]._data, state["step_size"]._data
        sign = np.sign(grad * prev)
        factor = np.where(sign > 0, eta_plus, np.where(sign < 0, eta_minus, dt.type(1)))
        step_size[...] = np.clip(step_size * factor, *group["step_sizes"])
        grad = np.where(factor == eta_minus, dt.type(0), grad)   # after a sign flip: no move, and forget
        _write(p, addcmul(p._data, np.sign(grad), step_size, -1))
        prev[...] = grad


class ASGD(Optimizer):
    """Averaged SGD: a decaying step size eta, and ``ax`` the running average of the parameters from step t0 on."""

    def __init__(self, params, lr: float = 1e-2, lambd: float = 1e-4, alpha: float = 0.75, t0: float = 1e6,
                 weight_decay: float = 0, foreach=None, maximize: bool = False, differentiable: bool = False,
                 capturable: bool = False) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def _update(self, p, grad, state, group) -> None:
        lr, lambd = group["lr"], group["lambd"]
        if not state:
            state["step"] = _new_step(0.0)
            state["eta"] = _new_step(lr)
            state["mu"] = _new_step(1.0)
            state["ax"] = Tensor._make(np.zeros_like(p._data))
        if group["maximize"]:
            grad = -grad
        state["step"]._data += 1
        if group["weight_decay"] != 0:
            grad = add_scaled(grad, p._data, group["weight_decay"])
        dt = p._data.dtype
        eta = float(state["eta"]._data)
        param = p._data * dt.type(1 - lambd * eta)                     # decay
        param = add_scaled(param, grad, -eta)                            # SGD step
        _write(p, param)
        ax, mu = state["ax"]._data, state["mu"]._data
        if float(mu) != 1:
            ax[...] = ax + (p._data - ax) * mu                           # running average from t0 on
        else:
            ax[...] = p._data
        step = float(state["step"]._data)
        state["eta"]._data[...] = lr / ((1 + lambd * lr * step) ** group["alpha"])
        state["mu"]._data[...] = 1 / max(1, step - group["t0"])
