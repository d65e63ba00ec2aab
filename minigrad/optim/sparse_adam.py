"""SparseAdam (torch.optim.SparseAdam): Adam whose moments move only at the entries of a sparse gradient."""
from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from ..autograd.grad_mode import no_grad
from .optimizer import Optimizer, _check_tensor_lr, _write


class SparseAdam(Optimizer):
    """Adam for sparse gradients (nn.Embedding(sparse=True)): m, v and p change only where g has entries."""

    _sparse_error = None

    def __init__(self, params, lr: float = 1e-3, betas: tuple = (0.9, 0.999), eps: float = 1e-8,
                 maximize: bool = False) -> None:
        _check_tensor_lr(lr)
        if not 0.0 < lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, maximize=maximize))
        sparse = [[i, j] for i, g in enumerate(self.param_groups) for j, p in enumerate(g["params"]) if p.is_sparse]
        if sparse:
            raise ValueError(f"Sparse params at indices {sparse}: SparseAdam requires dense parameter tensors")
        complex_ = [[i, j] for i, g in enumerate(self.param_groups) for j, p in enumerate(g["params"])
                    if p.is_complex()]
        if complex_:
            raise ValueError(f"Complex params at indices {complex_}: SparseAdam does not support complex parameters")

    def _update(self, p, grad, state, group) -> None:
        g = p.grad
        if not g.is_sparse:
            raise RuntimeError("SparseAdam does not support dense gradients, please consider Adam instead")
        if not state:
            state["step"] = 0
            state["exp_avg"] = Tensor._make(np.zeros_like(p._data))
            state["exp_avg_sq"] = Tensor._make(np.zeros_like(p._data))
        state["step"] += 1
        lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
        g = g.coalesce()  # one entry per row: the moments are read and written once per entry
        where = tuple(g._indices()._data)
        values = -g._values()._data if group["maximize"] else g._values()._data
        m, v = state["exp_avg"]._data, state["exp_avg_sq"]._data
        # old ← β·old + (1 - β)·new, written as old += (1 - β)·(new - old), at the entries only; PyTorch's tensor
        # ops on the values (their rounding: float16/bfloat16 compute with the numbers in float32)
        with no_grad():
            grad_values, old_m, old_v = (Tensor._make(a) for a in (values, m[where], v[where]))
            m_update = grad_values.sub(old_m).mul_(1 - beta1)
            v_update = grad_values.pow(2).sub_(old_v).mul_(1 - beta2)
            m[where] += m_update._data
            v[where] += v_update._data
            numer = m_update.add_(old_m)
            denom = v_update.add_(old_v).sqrt_().add_(eps)
            step = state["step"]
            step_size = lr * (1 - beta2 ** step) ** 0.5 / (1 - beta1 ** step)
            update = (numer.div_(denom) * -step_size)._data   # (-step_size · (numer / denom))
        param = p._data.copy()
        param[where] += update
        _write(p, param)
