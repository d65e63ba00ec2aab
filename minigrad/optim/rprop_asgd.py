"""Rprop and ASGD (torch.optim.Rprop / torch.optim.ASGD)."""
from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from .optimizer import (
    CAPTURABLE_ERROR,
    Optimizer,
    _bump,
    _check_tensor_lr,
    _new_step,
    _real,
    _recorded,
    _write,
    add_scaled,
    addcmul,
    scale,
)


class Rprop(Optimizer):
    """Resilient backprop: a step size per element, grown (×η+) while the gradient keeps its sign and shrunk
    (×η-) when it flips; the parameter moves by its step size against the gradient's sign."""

    _capturable_error = CAPTURABLE_ERROR

    def __init__(self, params, lr: float = 1e-2, etas: tuple = (0.5, 1.2), step_sizes: tuple = (1e-6, 50), *,
                 capturable: bool = False, foreach=None, maximize: bool = False, differentiable: bool = False) -> None:
        _check_tensor_lr(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = dict(lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach, maximize=maximize,
                        differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def _init_state(self, p, grad, state, group) -> None:
        state["step"] = _new_step(0.0)
        state["prev"] = Tensor._make(np.zeros_like(p._data))
        # (complex: two independent reals, so the imaginary parts start at lr too)
        lr = complex(group["lr"], group["lr"]) if np.iscomplexobj(grad) else group["lr"]
        state["step_size"] = Tensor._make(np.full_like(grad, lr))

    def _update(self, p, grad, state, group) -> None:
        if group["differentiable"] and _recorded(p, group):
            return self._update_recorded(p, state, group)
        if group["maximize"]:
            grad = -grad
        state["step"]._data += 1
        # (+= 1; mul_ and clamp_ of the step sizes; prev: copy_ after the parameter's update, and the foreach
        # path's sign-flip zeroing too)
        _bump(state, step=1, step_size=2, prev=1 if group["foreach"] else 0)
        param, grad = _real(p._data), _real(grad)   # (a complex parameter is updated as real pairs)
        dt = param.dtype
        eta_minus, eta_plus = (dt.type(e) for e in group["etas"])
        prev, step_size = _real(state["prev"]._data), _real(state["step_size"]._data)
        sign = np.sign(grad * prev)
        factor = np.where(sign > 0, eta_plus, np.where(sign < 0, eta_minus, dt.type(1)))
        step_size[...] = np.clip(step_size * factor, *group["step_sizes"])
        grad = np.where(factor == eta_minus, dt.type(0), grad)   # after a sign flip: no move, and forget
        _write(p, addcmul(param, np.sign(grad), step_size, -1))
        prev[...] = grad
        _bump(state, prev=1)

    def _update_recorded(self, p, state, group) -> None:
        """differentiable=True: PyTorch's _single_tensor_rprop in tensor ops (see optimizer._recorded)."""
        eta_minus, eta_plus = group["etas"]
        grad = -p.grad if group["maximize"] else p.grad
        prev, step_size = state["prev"], state["step_size"]
        state["step"].add_(1)
        sign = grad.mul(prev.clone()).sign()   # (the clone: prev changes below, and mul saves it)
        sign[sign.gt(0)] = eta_plus            # same sign as last step: grow the step size
        sign[sign.lt(0)] = eta_minus           # sign flipped: shrink it
        sign[sign.eq(0)] = 1
        step_size.mul_(sign).clamp_(*group["step_sizes"])
        grad = grad.clone()
        grad[sign.eq(eta_minus)] = 0           # after a sign flip: no move, and forget the gradient
        p.addcmul_(grad.sign(), step_size, value=-1)
        prev.copy_(grad)


class ASGD(Optimizer):
    """Averaged SGD: a decaying step size eta, and ``ax`` the running average of the parameters from step t0 on."""

    _capturable_error = CAPTURABLE_ERROR.replace("params and", "params, mus, etas, and")

    def __init__(self, params, lr: float = 1e-2, lambd: float = 1e-4, alpha: float = 0.75, t0: float = 1e6,
                 weight_decay: float = 0, foreach=None, maximize: bool = False, differentiable: bool = False,
                 capturable: bool = False) -> None:
        _check_tensor_lr(lr)
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def _init_state(self, p, grad, state, group) -> None:
        state["step"] = _new_step(0.0)
        state["eta"] = _new_step(group["lr"])
        state["mu"] = _new_step(1.0)
        state["ax"] = Tensor._make(np.zeros_like(p._data))

    def _update(self, p, grad, state, group) -> None:
        if group["differentiable"] and _recorded(p, group):
            return self._update_recorded(p, state, group)
        lr, lambd = group["lr"], group["lambd"]
        if group["maximize"]:
            grad = -grad
        state["step"]._data += 1
        _bump(state, step=1)
        if group["foreach"]:   # PyTorch's _multi_tensor_asgd rounds differently: its own path
            self._foreach_update(p, grad, state, group)
            _bump(state, eta=1, mu=1, ax=1)
            return
        param, grad, ax = _real(p._data), _real(grad), _real(state["ax"]._data)   # (complex: as real pairs)
        if group["weight_decay"] != 0:
            grad = add_scaled(grad, param, group["weight_decay"])
        eta = float(state["eta"]._data)
        param = scale(param, 1 - lambd * eta)                            # decay
        param = add_scaled(param, grad, -eta)                            # SGD step
        _write(p, param)
        p._version_counter[0] += 1   # (PyTorch's mul_ then add_ on the parameter: two versions)
        _bump(state, eta=1, mu=1, ax=1)   # (add_ or copy_ of ax; copy_ / fill_ of η, μ)
        mu = state["mu"]._data
        if float(mu) != 1:
            ax[...] = ax + (param - ax) * mu                             # running average from t0 on
        else:
            ax[...] = param
        step = float(state["step"]._data)
        # (PyTorch copies torch.as_tensor(number): a number rounded to the default dtype first, which matters
        # when η and μ are float64, as after load_state_dict for float64 parameters)
        state["eta"]._data[...] = _new_step(lr / ((1 + lambd * lr * step) ** group["alpha"]))._data
        state["mu"]._data[...] = _new_step(1 / max(1, step - group["t0"]))._data

    def _update_recorded(self, p, state, group) -> None:
        """differentiable=True: PyTorch's _single_tensor_asgd in tensor ops (see optimizer._recorded)."""
        lr, lambd = group["lr"], group["lambd"]
        grad = -p.grad if group["maximize"] else p.grad
        eta, mu, ax, step_t = state["eta"], state["mu"], state["ax"], state["step"]
        step_t.add_(1)
        if group["weight_decay"] != 0:
            grad = grad.add(p, alpha=group["weight_decay"])
        eta_value = eta.item()
        p.mul_(1 - lambd * eta_value)                   # decay
        p.add_(grad, alpha=-eta_value)                  # SGD step
        if mu.item() != 1:
            ax.add_(p.sub(ax).mul_(mu))                 # running average from t0 on
        else:
            ax.copy_(p)
        step = step_t.item()
        eta.copy_(_new_step(lr / ((1 + lambd * lr * step) ** group["alpha"])))   # (copy_ of torch.as_tensor(number))
        mu.copy_(_new_step(1 / max(1, step - group["t0"])))

    @staticmethod
    def _foreach_update(p, grad, state, group) -> None:
        """_multi_tensor_asgd: p ← p - η·(g + wd·p + λ·p) (one addcmul), ax ← ax + μ·(p - ax) (always), and the
        new η computed on the float32 step tensor: lr · ((1 + λ·lr·step)^α)⁻¹ (PyTorch's ``lr / tensor``)."""
        lr, lambd = group["lr"], group["lambd"]
        param, grad, ax = _real(p._data), _real(grad), _real(state["ax"]._data)   # (complex: as real pairs)
        dt = param.dtype
        intermediate = grad
        if group["weight_decay"] != 0:
            intermediate = add_scaled(intermediate, param, group["weight_decay"])
        intermediate = add_scaled(intermediate, param, lambd)
        _write(p, addcmul(param, intermediate, state["eta"]._data.astype(dt), -1))
        ax[...] = addcmul(ax, param - ax, state["mu"]._data.astype(dt), 1)
        step = state["step"]
        state["eta"]._data[...] = (((step * (lambd * lr) + 1) ** group["alpha"]).reciprocal() * lr)._data
        state["mu"]._data[...] = 1 / max(1, float(step._data) - group["t0"])
