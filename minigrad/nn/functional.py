"""minigrad.nn.functional: activations and losses as functions (torch.nn.functional)."""
from __future__ import annotations

import warnings

import numpy as np

from .. import _ops
from .. import derivatives as D
from .._tensor import Tensor

_REDUCTIONS = ("none", "mean", "sum")


def _check_reduction(reduction: str) -> str:
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight=None, size_average=None, reduce=None,
                                     reduction: str = "mean", pos_weight=None) -> Tensor:
    """Sigmoid + binary cross-entropy in one numerically stable op."""
    if target.shape != input.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    reduction = _reduction_enum(size_average, reduce, reduction)
    return D.binary_cross_entropy_with_logits(input, target, weight=weight, pos_weight=pos_weight,
                                              reduction=reduction)


# Reduction names as PyTorch's enum (what the loss nodes save as ``_saved_reduction``).
_REDUCTION_ENUM = {"none": 0, "mean": 1, "sum": 2}


def _reduction_enum(size_average, reduce, reduction: str) -> int:
    """The reduction as 0/1/2, honouring the deprecated size_average/reduce arguments."""
    if size_average is not None or reduce is not None:
        size_average = True if size_average is None else size_average
        reduce = True if reduce is None else reduce
        reduction = ("mean" if size_average else "sum") if reduce else "none"
        warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{reduction}' "
                      "instead.", UserWarning, stacklevel=3)
    return _REDUCTION_ENUM[_check_reduction(reduction)]


# =============================================================================================
# Activations
# =============================================================================================

def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """max(x, 0)."""
    return D.relu(input, out=input) if inplace else _ops.relu(input)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """x where x > 0, else negative_slope·x."""
    return D.leaky_relu(input, out=input if inplace else None, negative_slope=negative_slope)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """x·Φ(x) (Φ the standard normal CDF); approximate='tanh' uses the tanh formula."""
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return D.gelu(input, approximate=approximate)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """x·σ(x) (also called swish)."""
    return D.silu(input, out=input if inplace else None)


def sigmoid(input: Tensor) -> Tensor:
    """1 / (1 + e^-x)."""
    return _ops.sigmoid(input)


def tanh(input: Tensor) -> Tensor:
    """Hyperbolic tangent."""
    return _ops.tanh(input)


def _softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
                  "dim=X as an argument.", UserWarning, stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:
    """e^x / Σ e^x along ``dim`` (computed without overflow)."""
    if dim is None:
        dim = _softmax_dim("softmax", input.dim(), _stacklevel)
    if dtype is not None:
        input = input.to(dtype)
    _ops._wrap_dim(dim, input.dim())
    return D.softmax(input, dim=dim)


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:
    """log(softmax(x)) along ``dim``, computed stably as x - max - log Σ e^(x - max)."""
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim(), _stacklevel)
    if dtype is not None:
        input = input.to(dtype)
    _ops._wrap_dim(dim, input.dim())
    return D.log_softmax(input, dim=dim)


# =============================================================================================
# Layers as functions
# =============================================================================================

def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """x·Wᵀ + b (AddmmBackward0 with a bias, as PyTorch: other ranks are folded to 2-D and back)."""
    if bias is None:
        return _ops.matmul(input, weight.t())
    if input.dim() == 2:
        return _addmm(bias, input, weight.t())
    lead = input.shape[:-1]
    out = _addmm(bias, input.reshape(-1, input.shape[-1]), weight.t())
    return out.view(*lead, weight.shape[0])


def _addmm(bias: Tensor, mat1: Tensor, mat2: Tensor) -> Tensor:
    (a, b), (c, d) = mat1.shape, mat2.shape
    if b != c:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a}x{b} and {c}x{d})")
    return D.addmm(bias, mat1, mat2, beta=1, alpha=1)


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero each element with probability p and scale the rest by 1/(1-p) (identity when not training)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0:
        return input
    from .._creation import _rng
    keep = _rng(None).random(input.shape) >= p
    # The mask is a constant: y = x · mask/(1-p), so the node is PyTorch's MulBackward0.
    scale = 0.0 if p == 1 else 1.0 / (1.0 - p)
    noise = Tensor._make((keep * scale).astype(input._data.dtype))
    return input.mul_(noise) if inplace else _ops.mul(input, noise)


# =============================================================================================
# Losses
# =============================================================================================

def mse_loss(input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean",
             weight=None) -> Tensor:
    """Mean (or sum) of (input - target)²."""
    if target.shape != input.shape:
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
                      "This will likely lead to incorrect results due to broadcasting. Please ensure they have "
                      "the same size.", UserWarning, stacklevel=2)
    reduction = _reduction_enum(size_average, reduce, reduction)
    _check_broadcast(input, target)
    return D.mse_loss(input, target, reduction=reduction)


def l1_loss(input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean",
            weight=None) -> Tensor:
    """Mean (or sum) of |input - target| (composite, as in PyTorch: SubBackward0 → AbsBackward0 → Mean)."""
    if target.shape != input.shape:
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
                      "This will likely lead to incorrect results due to broadcasting. Please ensure they have "
                      "the same size.", UserWarning, stacklevel=2)
    reduction = _reduction_enum(size_average, reduce, reduction)
    _check_broadcast(input, target)
    loss = (input - target).abs()
    return loss.mean() if reduction == 1 else loss.sum() if reduction == 2 else loss


def _check_broadcast(a: Tensor, b: Tensor) -> None:
    try:
        np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        _ops._raise_broadcast_error(a.shape, b.shape)


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average=None,
                         reduce=None, reduction: str = "mean") -> Tensor:
    """-(y·log x + (1-y)·log(1-x)) for probabilities x (logs clamped at -100)."""
    reduction = _reduction_enum(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input size "
                         f"({input.shape}) is deprecated. Please ensure they have the same size.")
    if weight is not None:
        weight = weight.expand(input.shape)
    if input.numel() and ((input._data < 0) | (input._data > 1) | np.isnan(input._data)).any():
        raise RuntimeError("all elements of input should be between 0 and 1")
    return D.binary_cross_entropy(input, target, weight=weight, reduction=reduction)


def _check_nll(input: Tensor, target: Tensor, weight: Tensor | None) -> None:
    """PyTorch's argument checks for nll_loss, in its order."""
    if input.dim() < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.dim()})")
    if input.dim() != 1 and input.shape[0] != (target.shape[0] if target.dim() else 1):
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target batch_size "
                         f"({target.shape[0] if target.dim() else 1}).")
    if input.dim() == 1 and target.dim() == 1 and target.shape[0] != 1:
        raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: {target.shape[0]}")
    if input.dim() <= 2 and target.dim() > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if input.dim() > 2:
        expected = [input.shape[0]] + list(input.shape[2:])
        if list(target.shape) != expected:
            raise RuntimeError(f"Expected target size {expected}, got {list(target.shape)}")
    n_classes = input.shape[0 if input.dim() == 1 else 1]
    if weight is not None and (weight.dim() != 1 or weight.numel() != n_classes):
        raise RuntimeError(f"weight tensor should be defined either for all {n_classes} classes or no classes but "
                           f"got weight tensor of shape: {list(weight.shape)}")
    if target.dtype.name not in ("int64", "uint8"):
        from .._tensor import _LEGACY_NAMES
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {_LEGACY_NAMES[target.dtype.name]}")


def _nll_loss_nd(input: Tensor, target: Tensor, weight, reduction: int, ignore_index: int) -> Tensor:
    """PyTorch's nll_loss_nd: 1-D/2-D inputs use nll_loss, 4-D nll_loss2d, other ranks are viewed as 4-D."""
    _check_nll(input, target, weight)
    t = target._data
    n_classes = input.shape[0 if input.dim() == 1 else 1]
    bad = (t != ignore_index) & ((t < 0) | (t >= n_classes))
    if bad.any():
        raise IndexError(f"Target {t[bad].flat[0]} is out of bounds.")
    args = dict(weight=weight, reduction=reduction, ignore_index=ignore_index)
    if input.dim() <= 2:
        return D.nll_loss(input, target=target, **args)[0]
    if input.dim() == 4:
        return D.nll_loss2d(input, target=target, **args)[0]
    n, c = input.shape[:2]
    out_size = (n,) + tuple(input.shape[2:])
    flat_target = Tensor._make(np.ascontiguousarray(t).reshape(n, 1, -1))
    out = D.nll_loss2d(input.contiguous().view(n, c, 1, -1), target=flat_target, **args)[0]
    return out.view(*out_size) if reduction == 0 else out


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average=None,
             ignore_index: int = -100, reduce=None, reduction: str = "mean") -> Tensor:
    """Negative log-likelihood: -input[n, target[n]] (weighted; mean over the total weight)."""
    reduction = _reduction_enum(size_average, reduce, reduction)
    return _nll_loss_nd(input, target, weight, reduction, ignore_index)


def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average=None,
                  ignore_index: int = -100, reduce=None, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Tensor:
    """log_softmax + nll_loss for class indices; -Σ p·log_softmax(x) for class probabilities."""
    reduction = _reduction_enum(size_average, reduce, reduction)
    class_dim = 0 if input.dim() == 1 else 1
    if input.shape == target.shape:
        return _cross_entropy_probs(input, target, weight, reduction, ignore_index, label_smoothing, class_dim)
    if label_smoothing > 0.0:
        if label_smoothing > 1.0:
            raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
        return _cross_entropy_smoothed(input, target, weight, reduction, ignore_index, label_smoothing, class_dim)
    return _nll_loss_nd(log_softmax(input, class_dim), target, weight, reduction, ignore_index)


def _class_weight(weight: Tensor, ndim: int, class_dim: int) -> Tensor:
    """weight of shape (C,) viewed to broadcast along the class dimension."""
    shape = [1] * ndim
    shape[class_dim] = weight.shape[0]
    return weight.view(*shape)


def _cross_entropy_probs(input, target, weight, reduction, ignore_index, label_smoothing, class_dim):
    if not target.is_floating_point():
        from .._tensor import _LEGACY_NAMES
        raise RuntimeError("Expected floating point type for target with class probabilities, got "
                           f"{_LEGACY_NAMES[target.dtype.name]}")
    if ignore_index >= 0:
        raise RuntimeError("ignore_index is not supported for floating point target")
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    n_classes = input.shape[class_dim]
    logp = log_softmax(input, class_dim)
    if label_smoothing > 0.0:
        target = target * (1 - label_smoothing) + label_smoothing / n_classes
    terms = logp * target
    if weight is not None:
        terms = terms * _class_weight(weight, input.dim(), class_dim)
    if reduction == 1:
        return D.div_scalar(terms.sum().neg(), other=input.numel() // n_classes)
    if reduction == 2:
        return terms.sum().neg()
    return terms.sum(class_dim).neg()


def _cross_entropy_smoothed(input, target, weight, reduction, ignore_index, label_smoothing, class_dim):
    # (1 - ε)·nll + ε/C · Σ_c -log p_c   (ignored targets contribute nothing to either part)
    n_classes = input.shape[class_dim]
    logp = log_softmax(input, class_dim)
    nll = _nll_loss_nd(logp, target, weight, reduction, ignore_index)
    if weight is not None:
        smooth = (logp * _class_weight(weight, input.dim(), class_dim)).sum(class_dim).neg()
    else:
        smooth = logp.sum(class_dim).neg()
    kept = target._data != ignore_index
    smooth = smooth * Tensor._make(kept.astype(smooth._data.dtype))
    if reduction == 1:
        if weight is not None:
            denom = Tensor._make(weight._data[target._data[kept]].sum(dtype=weight._data.dtype))
        else:
            denom = Tensor._make(np.asarray(kept.sum(), dtype=np.int64))
        ret = smooth.sum() / denom
    elif reduction == 2:
        ret = smooth.sum()
    else:
        ret = smooth
    return D.mul_scalar(nll, other=1 - label_smoothing) + D.mul_scalar(ret, other=label_smoothing / n_classes)


__all__ = [
    "binary_cross_entropy", "binary_cross_entropy_with_logits", "cross_entropy", "dropout", "gelu", "l1_loss",
    "leaky_relu", "linear", "log_softmax", "mse_loss", "nll_loss", "relu", "sigmoid", "silu", "softmax", "tanh",
]
