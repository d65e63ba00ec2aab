"""Stochastic gradient descent with momentum, dampening, Nesterov and weight decay (torch.optim.SGD)."""
from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from .optimizer import Optimizer, _bump, _check_fused, _recorded, _write, add_scaled, scale


class SGD(Optimizer):
    """p ← p - lr·g, with g optionally smoothed by momentum: buf ← μ·buf + (1 - dampening)·g."""

    _sparse_error = None
    _fused_check_once = True

    def __init__(self, params, lr: float = 1e-3, momentum: float = 0, dampening: float = 0,
                 weight_decay: float = 0, nesterov: bool = False, *, maximize: bool = False, foreach=None,
                 differentiable: bool = False, fused=None) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                        nesterov=nesterov, maximize=maximize, foreach=foreach, differentiable=differentiable,
                        fused=fused)
        super().__init__(params, defaults)
        _check_fused(fused, foreach, differentiable)

    def _check_fused_kernel(self, params) -> None:
        from .._tensor import _LEGACY_NAMES
        for p in params:
            if p.is_complex():
                name = _LEGACY_NAMES[str(p.dtype).removeprefix("torch.")]
                raise NotImplementedError(f'"fused_sgd_kernel" not implemented for \'{name}\'')

    def _update(self, p, grad, state, group) -> None:
        if group["differentiable"] and _recorded(p, group):
            return self._update_recorded(p, state, group)
        lr, momentum, dampening = group["lr"], group["momentum"], group["dampening"]
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"] != 0:
            if p.grad.is_sparse:  # (PyTorch's grad.add(param): sparse + dense)
                raise RuntimeError("add(sparse, dense) is not supported. Use add(dense, sparse) instead.")
            grad = add_scaled(grad, p._data, group["weight_decay"])  # L2 penalty: d(wd/2·|p|²)/dp = wd·p
        if p.grad.is_sparse:
            return self._update_sparse(p, state, group)
        if momentum != 0:
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = Tensor._make(np.array(grad, copy=True))      # first step: the buffer is the gradient
                state["momentum_buffer"] = buf
            else:
                buf._data[...] = add_scaled(scale(buf._data, momentum), grad, 1 - dampening)
                _bump(state, momentum_buffer=2)   # (mul_, add_)
            grad = add_scaled(grad, buf._data, momentum) if group["nesterov"] else buf._data
        _write(p, add_scaled(p._data, grad, -lr))

    def _update_sparse(self, p, state, group) -> None:
        """A sparse gradient (nn.Embedding(sparse=True)): PyTorch's update in sparse ops, the momentum buffer a sparse
        clone of the gradient (mul_ scales its values, add_ merges the gradient's entries into it) and the step
        p.add_(grad, alpha=-lr) adding the entries one by one (sparse.add_into_dense)."""
        from .. import sparse
        lr, momentum, dampening = group["lr"], group["momentum"], group["dampening"]
        grad = p.grad.detach()
        if group["maximize"]:
            grad = sparse._like(grad, -grad._vals._data)
        if momentum != 0:
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = grad._detached_copy()   # (torch.clone(grad).detach())
                state["momentum_buffer"] = buf
            else:
                vals = buf._vals._data
                buf._vals = Tensor._make(vals * vals.dtype.type(momentum))   # buf.mul_(μ)
                merged = sparse._merge(buf, grad, 1 - dampening, vals.dtype)   # buf.add_(g, alpha=1 - dampening)
                buf._idx, buf._vals, buf._coalesced, buf._dense = merged._idx, merged._vals, merged._coalesced, None
                _bump(state, momentum_buffer=2)
            grad = sparse._merge(grad, buf, momentum, grad._vals._data.dtype) if group["nesterov"] else buf
        _write(p, sparse.add_into_dense(p._data, grad, -lr, p._data.flags.c_contiguous))

    def _update_recorded(self, p, state, group) -> None:
        """differentiable=True: PyTorch's _single_tensor_sgd in tensor ops (see optimizer._recorded)."""
        lr, momentum, dampening, wd = group["lr"], group["momentum"], group["dampening"], group["weight_decay"]
        grad = -p.grad if group["maximize"] else p.grad
        if wd != 0:
            grad = grad.add(p, alpha=wd)                        # L2 penalty: g + wd·p
        if momentum != 0:
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = grad.detach().clone()                     # first step: the buffer is the gradient (no history)
                state["momentum_buffer"] = buf
            else:
                buf.mul_(momentum).add_(grad, alpha=1 - dampening)   # b ← μ·b + (1 - dampening)·g
            grad = grad.add(buf, alpha=momentum) if group["nesterov"] else buf
        p.add_(grad, alpha=-lr)                                 # p ← p - lr·g
