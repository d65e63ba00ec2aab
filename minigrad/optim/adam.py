"""Adam and AdamW (torch.optim.Adam / AdamW): bias-corrected running moments of the gradient."""
from __future__ import annotations

import numpy as np

from .._ops import maximum as torch_maximum
from .._ops import view_as_real
from .._tensor import Tensor
from ..autograd.grad_mode import is_grad_enabled, no_grad
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
    fused_sqrt,
    lerp,
    scale,
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
        if not (isinstance(betas[0], float) and isinstance(betas[1], float)
                or isinstance(betas[0], Tensor) and isinstance(betas[1], Tensor)):
            raise ValueError("betas must be either both floats or both Tensors")
        for i, beta in enumerate(betas):
            if isinstance(beta, Tensor):
                if not capturable and foreach:
                    raise ValueError(f"betas[{i}] as a Tensor is not supported for capturable=False and foreach=True")
                if beta.numel() != 1:
                    raise ValueError(f"Tensor betas[{i}] must be 1-element")
        # (PyTorch's _to_scalar: a 1-element Tensor with dims is kept squeezed to 0-dim; a 0-dim one as it is)
        betas = tuple(b.squeeze() if isinstance(b, Tensor) and b.dim() else b for b in betas)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad, maximize=maximize,
                        foreach=foreach, capturable=capturable, differentiable=differentiable, fused=fused,
                        decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)
        _check_fused(fused, foreach, differentiable)

    def _init_state(self, p, grad, state, group) -> None:
        state["step"] = _new_step(0.0)
        state["exp_avg"] = Tensor._make(np.zeros_like(p._data))
        state["exp_avg_sq"] = Tensor._make(np.zeros_like(p._data))
        if group["amsgrad"]:
            state["max_exp_avg_sq"] = Tensor._make(np.zeros_like(p._data))

    def _update(self, p, grad, state, group) -> None:
        lr, (beta1, beta2), eps, wd = group["lr"], group["betas"], group["eps"], group["weight_decay"]
        if group["maximize"]:
            grad = -grad
        state["step"]._data += 1
        _bump(state, step=1)
        step = float(state["step"]._data)
        if _tensor_path(p, group):
            return self._update_recorded(p, state, group)
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
        if isinstance(beta1, Tensor):
            beta1, beta2, step_size, bc2_sqrt = _tensor_beta_scalars(beta1, beta2, lr, step, dt)
        else:
            step_size, bc2_sqrt = lr / (1 - beta1 ** step), (1 - beta2 ** step) ** 0.5
        m[...] = lerp(m, grad, 1 - beta1)                          # m ← β1·m + (1-β1)·g
        v[...] = addcmul(scale(v, beta2), grad, grad, 1 - beta2)  # v ← β2·v + (1-β2)·g²
        _bump(state, exp_avg=1, exp_avg_sq=2)   # (lerp_; mul_, addcmul_: none if lerp_ refused the grad's dtype)
        if group["amsgrad"]:
            vmax = _real(state["max_exp_avg_sq"]._data)
            np.maximum(vmax, v, out=vmax)
            _bump(state, max_exp_avg_sq=1)
            v = vmax
        denom = divide(fused_sqrt(v, group.get("fused")), bc2_sqrt) + dt.type(eps)
        _write(p, addcdiv(param, m, denom, -step_size))

    def _update_recorded(self, p, state, group) -> None:
        """A differentiable step (differentiable=True): PyTorch's tensor ops themselves, in its order, which record
        the update when an operand has history (a parameter that requires grad, a gradient made with
        create_graph=True, hyper-parameters given as tensors that require grad). With weight decay the decayed
        gradient g + wd·p carries p's history, so exp_avg ends with LerpBackward0 and exp_avg_sq with
        AddcmulBackward0; then the write into a leaf parameter is refused, as PyTorch's. The bias corrections are
        tensors here (PyTorch's capturable/differentiable branch: computed from the float32 step tensor, the step
        size folded into the denominator), so the bits are that branch's. Tensor lr, betas and weight decay take
        PyTorch's differentiable branches: a weight decay that requires grad is added by addcmul_ into the
        gradient itself, a β2 that requires grad makes v a lerp towards g², β1 is cast to the parameter's dtype."""
        lr, (beta1, beta2), eps, wd = group["lr"], group["betas"], group["eps"], group["weight_decay"]
        grad = -p.grad if group["maximize"] else p.grad
        if wd != 0:
            if group["decoupled_weight_decay"]:
                p.mul_(1 - lr * wd)                    # AdamW: shrink p directly
            elif isinstance(wd, Tensor) and wd.requires_grad:
                grad = grad.addcmul_(p.clone(), wd)    # (PyTorch's: in place, into the gradient itself)
            else:
                grad = grad.add(p, alpha=wd)           # Adam: L2 penalty in the gradient
        exp_avg, exp_avg_sq, step = state["exp_avg"], state["exp_avg_sq"], state["step"]
        max_exp_avg_sq, param = state.get("max_exp_avg_sq"), p
        if p.is_complex():   # (after the weight decay: the rest runs on (real, imaginary) pairs, in place)
            grad, exp_avg, exp_avg_sq, param = (view_as_real(t) for t in (grad, exp_avg, exp_avg_sq, p))
            if group["amsgrad"]:
                max_exp_avg_sq = view_as_real(max_exp_avg_sq)
        device_beta1 = beta1.to(dtype=param.dtype) if isinstance(beta1, Tensor) else beta1
        exp_avg.lerp_(grad, 1 - device_beta1)                                 # m ← β1·m + (1-β1)·g
        if isinstance(beta2, Tensor) and beta2.requires_grad:
            exp_avg_sq.lerp_(grad.square(), weight=1 - beta2)                 # v ← β2·v + (1-β2)·g², as a lerp
        else:
            exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)      # v ← β2·v + (1-β2)·g²
        # (a beta that requires grad is raised to a copy of the step: pow saves its exponent, which changes)
        bias_correction1 = 1 - beta1 ** (step.clone() if _requires_grad(beta1) else step)
        bias_correction2 = 1 - beta2 ** (step.clone() if _requires_grad(beta2) else step)
        step_size_neg = (lr / bias_correction1).neg()                        # -lr / (1 - β1^t)
        bc2_sqrt = bias_correction2.sqrt()                                    # √(1 - β2^t)
        if group["amsgrad"]:
            # (PyTorch's differentiable branch: the maximum of a clone, copied back into the state)
            max_exp_avg_sq.copy_(torch_maximum(max_exp_avg_sq.clone(), exp_avg_sq))
            exp_avg_sq = max_exp_avg_sq
        # p ← p + m / (√v / (√bc2 · (-step size)) + eps / (-step size))  =  p - step size · m / (√v / √bc2 + eps)
        denom = (exp_avg_sq.sqrt() / (bc2_sqrt * step_size_neg)).add_(eps / step_size_neg)
        param.addcdiv_(exp_avg.clone(), denom)


def _requires_grad(x) -> bool:
    return isinstance(x, Tensor) and x.requires_grad


def _tensor_path(p, group) -> bool:
    """Whether a step goes through tensor ops (PyTorch's differentiable=True step, run in grad mode)."""
    return group["differentiable"] and is_grad_enabled()


def _tensor_beta_scalars(beta1: Tensor, beta2: Tensor, lr, step: float, dt: np.dtype) -> tuple:
    """The numbers Adam's update uses when its betas are 0-dim Tensors, rounded as PyTorch's tensor arithmetic
    rounds them: β1 is first cast to the parameter's dtype (its lerp weight 1 - β1 is computed there); β2 stays
    in its own dtype (float32 for torch.tensor(0.999)), and so do 1 - β2 (addcmul's value), the bias corrections
    1 - β^step, √(1 - β2^step) and the step size lr / (1 - β1^step). Those are computed with the tensor ops
    themselves (pow by a number, ``number / tensor``), as PyTorch's update does. Returns (β1, β2, step size,
    √ bias correction 2) as NumPy scalars: the helpers cast each to the parameter's dtype, as PyTorch's kernels
    cast the numbers they get."""
    with no_grad():
        bc1, bc2 = 1 - beta1 ** step, 1 - beta2 ** step
        step_size = lr / bc1
        return dt.type(beta1._data[()]), beta2._data[()], step_size._data[()], (bc2 ** 0.5)._data[()]


class AdamW(Adam):
    """Adam with decoupled weight decay: p ← p·(1 - lr·wd) before the Adam step."""

    def __init__(self, params, lr: float = 1e-3, betas: tuple = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 1e-2, amsgrad: bool = False, *, maximize: bool = False, foreach=None,
                 capturable: bool = False, differentiable: bool = False, fused=None) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)
