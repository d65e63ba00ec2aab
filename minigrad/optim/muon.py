"""Muon (torch.optim.Muon): momentum, then the update orthogonalized by a Newton–Schulz iteration (2-D only).

A port of PyTorch's ``torch/optim/_muon.py`` written with minigrad's tensor ops in PyTorch's order (the
iteration runs in bfloat16, as there). The update of a weight matrix W with gradient G:
B ← lerp(B, G, 1 - μ); U = lerp(G, B, μ) (Nesterov) or B; O = NS(U); W ← W·(1 - lr·λ) - lr'·O with
lr' = lr·√max(1, A/B) ("original") or 0.2·lr·√max(A, B) ("match_rms_adamw").
"""
from __future__ import annotations

import math

from .. import _creation
from .._ops_matrices import addmm
from .._tensor import Tensor
from ..autograd.grad_mode import enable_grad, no_grad
from .optimizer import Optimizer

__all__ = ["Muon"]

EPS = 1e-7
DEFAULT_A = 3.4445
DEFAULT_B = -4.7750
DEFAULT_C = 2.0315
DEFAULT_NS_STEPS = 5


def _zeropower_via_newtonschulz(grad: Tensor, ns_coefficients: tuple, ns_steps: int, eps: float) -> Tensor:
    """An approximate orthogonalization U S' Vᵀ of G = U S Vᵀ (S' ≈ 1): quintic Newton–Schulz steps in bfloat16."""
    if ns_steps >= 100:
        raise ValueError("Number of steps must be less than 100 for computational efficiency")
    if len(grad.shape) != 2:
        raise ValueError("Input tensor gradient must be a 2D matrix")
    if len(ns_coefficients) != 3:
        raise ValueError("Coefficients must be a tuple of exactly 3 values")
    a, b, c = ns_coefficients
    ortho_grad = grad.bfloat16()
    if grad.size(0) > grad.size(1):
        ortho_grad = ortho_grad.T
    ortho_grad.div_(ortho_grad.norm().clamp(min=eps))   # spectral norm at most 1
    for _ in range(ns_steps):
        gram_matrix = ortho_grad @ ortho_grad.T
        gram_update = addmm(gram_matrix, gram_matrix, gram_matrix, beta=b, alpha=c)
        ortho_grad = addmm(ortho_grad, gram_update, ortho_grad, beta=a)
    if grad.size(0) > grad.size(1):
        ortho_grad = ortho_grad.T
    return ortho_grad


def _adjust_lr(lr: float, adjust_lr_fn: str | None, param_shape) -> float:
    """The learning rate scaled for a (A, B) matrix so updates of every shape have a comparable RMS."""
    A, B = param_shape[:2]
    if adjust_lr_fn is None or adjust_lr_fn == "original":
        adjusted_ratio = math.sqrt(max(1, A / B))
    elif adjust_lr_fn == "match_rms_adamw":
        adjusted_ratio = 0.2 * math.sqrt(max(A, B))
    else:
        adjusted_ratio = 1.0
    return lr * adjusted_ratio


def _scalar(x):
    """A number given as a 0-dim Tensor, as PyTorch reads a Tensor alpha (its value as a Python number)."""
    return x.item() if isinstance(x, Tensor) else x


class Muon(Optimizer):
    """Momentum orthogonalized by Newton–Schulz, with decoupled weight decay, for 2-D parameters."""

    _torch_name = "torch.optim.Muon"

    def __init__(self, params, lr: float = 1e-3, weight_decay: float = 0.1, momentum: float = 0.95,
                 nesterov: bool = True, ns_coefficients: tuple = (DEFAULT_A, DEFAULT_B, DEFAULT_C), eps: float = EPS,
                 ns_steps: int = DEFAULT_NS_STEPS, adjust_lr_fn: str | None = None) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 <= momentum:
            raise ValueError(f"momentum should be >= 0 but is: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight decay should be >= 0 but is: {weight_decay}")
        if adjust_lr_fn is not None and adjust_lr_fn not in ["original", "match_rms_adamw"]:
            raise ValueError(f"Adjust learning rate function {adjust_lr_fn} is not supported")
        defaults = {"lr": lr, "weight_decay": weight_decay, "momentum": momentum, "nesterov": nesterov,
                    "ns_coefficients": ns_coefficients, "eps": eps, "ns_steps": ns_steps,
                    "adjust_lr_fn": adjust_lr_fn}
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                if p.ndim != 2:
                    raise ValueError(f"Muon only supports 2D parameters whereas we found a parameter with size: "
                                     f"{p.size()}")

    def step(self, closure=None):
        """Update every 2-D parameter that has a gradient once."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        with no_grad():
            for group in self.param_groups:
                params, grads, bufs = [], [], []
                for p in group["params"]:   # PyTorch's _init_group: every check and buffer first
                    if p.grad is None:
                        continue
                    if p.is_complex():
                        raise RuntimeError("Muon does not support complex parameters")
                    if p.grad.is_sparse:
                        raise RuntimeError("Muon does not support sparse gradients")
                    params.append(p)
                    grads.append(p.grad)
                    state = self.state[p]
                    if "momentum_buffer" not in state:
                        state["momentum_buffer"] = _creation.zeros_like(p.grad)
                    bufs.append(state["momentum_buffer"])
                # (a Tensor lr stays one, as PyTorch's: 1 - lr·wd and the adjusted lr are computed in its dtype)
                lr = group["lr"].squeeze() if isinstance(group["lr"], Tensor) else group["lr"]
                momentum, weight_decay = group["momentum"], group["weight_decay"]
                for param, grad, buf in zip(params, grads, bufs):
                    if grad.ndim != 2:
                        raise ValueError("Param gradient must be a 2D matrix")
                    buf.lerp_(grad, 1 - momentum)
                    update = grad.lerp(buf, momentum) if group["nesterov"] else buf
                    update = _zeropower_via_newtonschulz(update, group["ns_coefficients"], group["ns_steps"],
                                                         group["eps"])
                    adjusted_lr = _adjust_lr(lr, group["adjust_lr_fn"], param.shape)
                    param.mul_(1 - lr * weight_decay)
                    param.add_(update, alpha=-_scalar(adjusted_lr))
        return loss
