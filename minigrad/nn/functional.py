"""minigrad.nn.functional: activations and losses as functions (torch.nn.functional)."""

import math
import operator as _operator
import warnings

import numpy as np

from .. import _arg_errors, _creation, _dispatch, _dtypes, _meta, _ops, _ops_matrices, _strides, _vmap_batched
from .. import derivatives as _D
from .._tensor import _LEGACY_NAMES, Tensor, _user_stacklevel
from .._warn_once import warn_once as _warn_once
from ..amp.autocast_mode import ON as _AUTOCAST
from ..amp.autocast_mode import run as _autocast
from ..amp.policy import CPU as _AUTOCAST_OPS
from ..autograd import _functorch_active
from ..autograd import forward_ad as _forward_ad
from ..autograd import grad_mode as _grad_mode
from . import grad  # noqa: F401  (torch.nn.functional.grad is torch.nn.grad, as in PyTorch)

_REDUCTIONS = ("none", "mean", "sum")


def _check_reduction(reduction: str) -> str:
    """PyTorch's _Reduction.get_enum: a known reduction, or the deprecated "elementwise_mean" (warned: "mean")."""
    if reduction == "elementwise_mean":
        warnings.warn("reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.",
                      UserWarning, stacklevel=_user_stacklevel())
        return "mean"
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight=None, size_average=None, reduce=None,
                                     reduction: str = "mean", pos_weight=None) -> Tensor:
    """Sigmoid + binary cross-entropy in one numerically stable op."""
    if _AUTOCAST[0]:
        return _autocast("binary_cross_entropy_with_logits", binary_cross_entropy_with_logits, **locals())
    reduction = _reduction_enum(size_average, reduce, reduction)
    if _sizes_differ(input, target):
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    if _functorch_active() and not _vmap_batched.legacy_only():
        return _bce_with_logits_functorch(input, target, weight, pos_weight, reduction)
    _no_grad_arg(weight, "weight", "binary_cross_entropy_with_logits")
    _no_grad_arg(pos_weight, "pos_weight", "binary_cross_entropy_with_logits")
    if not input.dtype.is_floating_point:   # (PyTorch's kernel starts with log_sigmoid(input))
        raise NotImplementedError(f"\"log_sigmoid_cpu\" not implemented for '{_ops._legacy(input.dtype)}'")
    # PyTorch's kernel computes (pos_weight - 1)·target + 1, then (1 - target)·input in place in target's
    # dtype: a bool or integer target (or a bool pos_weight) fails there, a floating one sets the loss's dtype.
    if pos_weight is not None and pos_weight.dtype is _dtypes.bool_:
        _ops.sub(pos_weight, 1)
    if pos_weight is not None:   # ((pos_weight - 1)·target, then log_sigmoid(input) times that, in place)
        _broadcast_into(input, _broadcast_shape(pos_weight, target))
    if not (target.dtype.is_floating_point or target.dtype.is_complex):
        if target.dtype is _dtypes.bool_:
            raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                               "`logical_xor()` operator instead.")
        promoted = _dtypes.promote_types(target.dtype, input.dtype)
        raise RuntimeError(f"result type {_ops._legacy(promoted)} can't be cast to the desired output type "
                           f"{_ops._legacy(target.dtype)}")
    # (then its in-place product loss.mul_(weight))
    if weight is not None:
        _broadcast_into(input, _broadcast_shape(input, weight))
    return _D.binary_cross_entropy_with_logits(input, target, weight=weight, pos_weight=pos_weight,
                                              reduction=reduction)


def _bce_with_logits_functorch(input, target, weight, pos_weight, reduction: int) -> Tensor:
    """Under a torch.func transform PyTorch does not run its kernel but functorch's decomposition of it
    (PyTorchOperatorHacks.cpp): loss = (1 - y)·x + m + log(e⁻ᵐ + e⁻ˣ⁻ᵐ), m = max(-x, 0), step by step as there,
    in place where it is; its own last bits, and its graph's derivatives (signs of zeros in Hessians)."""
    # (in C++'s order of evaluation: the graph's order decides the order its backward sums the gradients in)
    max_val = input.neg().clamp_min(0)
    if pos_weight is not None:
        log_weight = pos_weight.sub(1).mul(target).add_(1)
        linear = _one_minus(target).mul(input)
        spread = max_val.neg().exp_().add(input.neg().sub(max_val).exp_()).log_()   # log(e⁻ᵐ + e⁻ˣ⁻ᵐ)
        loss = linear.add(log_weight.mul(spread.add_(max_val)))
    else:
        loss = _one_minus(target).mul(input).add_(max_val)
        loss = loss.add_(max_val.neg().exp_().add(input.neg().sub(max_val).exp_()).log_())
    if weight is not None:
        loss = loss * weight
    return loss.mean() if reduction == 1 else loss.sum() if reduction == 2 else loss


def _one_minus(target: Tensor) -> Tensor:
    """C++'s ``1 - target`` (TensorOperators.h): empty_like(target).fill_(1).sub_(target), in target's dtype."""
    return _creation.empty_like(target).fill_(1).sub_(target)


# Reduction names as PyTorch's enum (what the loss nodes save as ``_saved_reduction``).
_REDUCTION_ENUM = {"none": 0, "mean": 1, "sum": 2}


def _legacy_reduction(size_average, reduce) -> str:
    """The reduction the deprecated size_average/reduce arguments ask for, with PyTorch's warning."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    reduction = ("mean" if size_average else "sum") if reduce else "none"
    # stacklevel 4: this helper, its caller (_reduction_enum or _Loss.__init__), the loss, the user's line
    warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{reduction}' "
                  "instead.", UserWarning, stacklevel=_user_stacklevel())
    return reduction


def _reduction_enum(size_average, reduce, reduction: str) -> int:
    """The reduction as 0/1/2, honouring the deprecated size_average/reduce arguments."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    return _REDUCTION_ENUM[_check_reduction(reduction)]


# =============================================================================================
# Activations
# =============================================================================================

def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """max(x, 0)."""
    if not inplace:
        return _ops.relu(input)
    return _ops.relu_(input)


def _floats_only(input, kernel: str, complex_ok: bool = False, inplace: bool = False) -> None:
    """PyTorch's activation kernels exist for floating dtypes only: its NotImplementedError names the kernel."""
    if inplace:   # (TensorIterator refuses an expanded input before the kernel's dtype dispatch)
        _dispatch._no_internal_overlap_first(None, input)
    dt = getattr(input, "dtype", None)
    if isinstance(dt, _dtypes.dtype) and not (dt.is_floating_point or (complex_ok and dt.is_complex)):
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_LEGACY_NAMES[dt.name]}'")


_POOL_INTS = {"avg_pool2d": ("int64",), "avg_pool3d_out_frame": ("int64",),
              "max_pool2d": ("uint8", "int8", "int16", "int32", "int64"),
              "max_pool3d": ("uint8", "int8", "int16", "int32", "int64"), "max_pool1d_impl": ()}


def _pool_kernel(input, kernel: str) -> None:
    """PyTorch's pooling kernels: floating dtypes (avg_pool3d: no half types) and the integers _POOL_INTS lists."""
    dt = input.dtype
    if dt.name in _POOL_INTS[kernel] or (dt.is_floating_point and not (
            kernel == "avg_pool3d_out_frame" and dt.itemsize == 2)):
        return
    raise NotImplementedError(f"\"{kernel}\" not implemented for '{_LEGACY_NAMES[dt.name]}'")


def _scalar(value, dtype, opmath: bool = False):
    """A number argument converted as PyTorch's kernel converts it: a complex one with an imaginary part, or one
    out of the type's range, refused ("value cannot be converted"); ``opmath``: float16/bfloat16 compute in float."""
    if isinstance(value, Tensor):
        if value.dim() or value.requires_grad:   # (the public function raises the parser's error for it)
            raise TypeError("must be Number, not Tensor")
        value = value.item()  # (PyTorch's parser takes a 0-dim tensor not requiring grad for a number argument)
    if opmath and dtype in (_dtypes.float16, _dtypes.bfloat16):
        dtype = _dtypes.float32
    _ops._check_scalar_fits(value, dtype)
    return value.real if isinstance(value, complex) and not dtype.is_complex else value


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """x where x > 0, else negative_slope·x."""
    if inplace and input._requires_grad:  # (an in-place call: the leaf's refusal first)
        _dispatch._check_inplace(input, False)
    _floats_only(input, "leaky_relu_cpu", inplace=inplace)
    negative_slope = _scalar(negative_slope, input.dtype, True)
    if inplace:
        return _D.leaky_relu_inplace(input, out=input, negative_slope=negative_slope)
    return _D.leaky_relu(input, negative_slope=negative_slope)


def gelu(input: Tensor, *, approximate: str = "none") -> Tensor:  # (a C function: approximate by keyword only)
    """x·Φ(x) (Φ the standard normal CDF); approximate='tanh' uses the tanh formula."""
    if approximate not in ("none", "tanh"):
        if not isinstance(approximate, str):  # (PyTorch's parser takes a str only)
            from .._arg_errors import must_be
            raise must_be("gelu", "approximate", "str", approximate)
        raise RuntimeError("approximate argument must be either none or tanh.")
    _floats_only(input, "GeluKernelImpl")
    return _D.gelu(input, approximate=approximate)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """x·σ(x) (also called swish)."""
    if inplace and input._requires_grad:  # (an in-place call: the leaf's refusal first)
        _dispatch._check_inplace(input, False)
    _floats_only(input, "silu_cpu", complex_ok=True, inplace=inplace)
    # (out of place only: PyTorch's silu_ records a complex SiluBackward0)
    if not inplace and input.is_complex() and input.requires_grad and _grad_mode.is_grad_enabled():
        raise RuntimeError("silu does not support automatic differentiation for outputs with complex dtype.")
    return _D.silu(input, out=input if inplace else None)


def sigmoid(input: Tensor) -> Tensor:
    """1 / (1 + e^-x)."""
    return input.sigmoid()   # (as PyTorch's Python: the method, so a non-tensor fails with AttributeError)


def tanh(input: Tensor) -> Tensor:
    """Hyperbolic tangent."""
    return input.tanh()


def _softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
                  "dim=X as an argument.", UserWarning, stacklevel=stacklevel + 1)  # (+1: the overrides wrapper)
    return 0 if ndim in (0, 1, 3) else 1


def _int_dim(name: str, dim) -> int:
    """PyTorch's parser of the method's ``int dim`` (x.softmax(dim)): no float, no bool; a 0-dim integer tensor
    passes, as an int."""
    # (the usual Python int tested first, and the module imported above: an import here runs on every call)
    if type(dim) is int or _arg_errors._is_int(dim):
        return dim
    if not _arg_errors._is_index(dim):
        raise _arg_errors.must_be(name, "dim", "int", dim, 1)
    return int(dim)


def _dtype_arg(name: str, dtype) -> None:
    """PyTorch's parser of the method's keyword ``torch.dtype dtype`` (x.softmax(dim, dtype=dtype)): no string."""
    if not isinstance(dtype, _dtypes.dtype):
        from .._arg_errors import must_be
        raise must_be(name, "dtype", "torch.dtype", dtype)


def _no_integer_softmax(name: str, input: Tensor, dim: int) -> None:
    # PyTorch's kernels: one for the last dim, one for the others; neither takes integers (pass dtype=)
    if input.numel() == 0:  # (an empty input runs no kernel; autograd then refuses a complex output)
        if input.dtype.is_complex and input.requires_grad and _ops.grad_mode.is_grad_enabled():
            raise RuntimeError(f"_{name} does not support automatic differentiation for outputs with complex dtype.")
        return
    kernel = "lastdim_kernel_impl" if dim == input.dim() - 1 or input.dim() == 0 else "kernel_impl"
    raise NotImplementedError(f"\"{name}_{kernel}\" not implemented for '{_ops._legacy(input.dtype)}'")


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:
    """e^x / Σ e^x along ``dim`` (computed without overflow)."""
    if dim is None:
        dim = _softmax_dim("softmax", input.dim(), _stacklevel)
    dim = _int_dim("softmax", dim)
    if dtype is not None:
        _dtype_arg("softmax", dtype)
        input = input.to(dtype)
    wrapped = _ops._wrap_dim_of(dim, input)
    if not input.dtype.is_floating_point:
        _no_integer_softmax("softmax", input, wrapped)
    return _D.softmax(input, dim=dim)


def gumbel_softmax(logits: Tensor, tau: float = 1, hard: bool = False, eps: float = 1e-10, dim: int = -1) -> Tensor:
    """softmax((logits + g) / tau) with Gumbel noise g = -log(Exp(1)); ``hard``: one-hot forward, soft gradient."""
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=_user_stacklevel())
    gumbels = -_creation.empty_like(logits).exponential_().log()  # (drawn as PyTorch draws them)
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = _creation.zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft  # straight-through: the value of y_hard, the gradient of y_soft


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:
    """log(softmax(x)) along ``dim``, computed stably as x - max - log Σ e^(x - max)."""
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim(), _stacklevel)
    dim = _int_dim("log_softmax", dim)
    if dtype is not None:
        _dtype_arg("log_softmax", dtype)
        input = input.to(dtype)
    wrapped = _ops._wrap_dim_of(dim, input)
    if not input.dtype.is_floating_point:
        _no_integer_softmax("log_softmax", input, wrapped)
    return _D.log_softmax(input, dim=dim)


# =============================================================================================
# Layers as functions
# =============================================================================================

def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """x·Wᵀ + b (AddmmBackward0 with a bias, as PyTorch: other ranks are folded to 2-D and back)."""
    if _AUTOCAST[0]:  # (an autocast region: PyTorch's AutocastCPU kernel, see amp/autocast_mode.py)
        return _autocast("linear", linear, **locals())
    if not (isinstance(input, Tensor) and isinstance(weight, Tensor) and (bias is None or isinstance(bias, Tensor))):
        # (a list or array given to a model, a module whose weight was set to None: the binding converts nothing)
        from .._arg_errors import must_be
        for position, (arg, value) in enumerate((("input", input), ("weight", weight), ("bias", bias)), 1):
            if not isinstance(value, Tensor) and (value is not None or arg != "bias"):
                raise must_be("linear", arg, "Tensor", value, position)
    if input.dim() == 0 or weight.dim() == 0:
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are {input.dim()}D and "
                           f"{weight.dim()}D")
    if bias is None:
        return _ops.matmul(input, weight.t())
    if input.dim() == 2:
        return _addmm(bias, input, weight.t())
    if _vmap_batched.DEPTH[0] and _vmap_batched.levels_of(input, weight, bias) and not (
            input.dim() == 3 and input.is_contiguous()):
        # inside vmap, at::linear folds only a contiguous 3-d example into one addmm (seen from its errors and
        # bits); other ranks take matmul and an out-of-place add of the bias
        return _ops.matmul(input, weight.t()) + bias
    if not (input.is_contiguous() and (bias.dim() == 1 or bias.numel() == weight.shape[0])):
        # at::linear folds only a contiguous input into one addmm, with a bias of one row (PyTorch 2.13's
        # choice, seen from its graphs); others take matmul, then add the bias in place
        return _ops.matmul(input, weight.t()).add_(bias)
    lead = input.shape[:-1]
    out = _addmm(bias, input.reshape(-1, input.shape[-1]), weight.t())
    return out.view(*lead, weight.shape[0])


def _addmm(bias: Tensor, mat1: Tensor, mat2: Tensor) -> Tensor:
    # torch.addmm's checks: shapes, then the bias's dtype against the weight's ("self and mat2 ..."), then the
    # input's (e.g. a float64 batch into a float32 nn.Linear), then the bias's shape (expand's message)
    return _ops_matrices.addmm(bias, mat1, mat2)


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero each element with probability p and scale the rest by 1/(1-p) (identity when not training)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if training is not True and training is not False:  # (PyTorch's parser of _VF.dropout(input, p, training))
        from .._arg_errors import must_be
        raise must_be("dropout_" if inplace else "dropout", "train", "bool", training, 3)
    if not training or p == 0 or input.numel() == 0:
        return input
    _check_dropout_noise(input, p, feature=False)
    # The mask is a constant: y = x · mask/(1-p), so the node is PyTorch's MulBackward0.
    noise = _dropout_mask(input, input.shape, p)
    return input.mul_(noise) if inplace else _ops.mul(input, noise)


def _check_dropout_noise(input: Tensor, p: float, feature: bool, alpha: bool = False) -> None:
    """PyTorch's _dropout_impl before its noise (0 < p < 1): a feature noise needs 2 dims; bernoulli_ has no complex
    kernel; the noise, in the input's dtype, is then divided by 1 - p (a float). (Alpha dropout's first float
    step is noise.add(-1).mul_(...): a bool noise plus -1 is int64 by then, so its error names Long.)"""
    if p == 1:
        return
    if feature and input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    if input.dtype.is_complex:
        raise NotImplementedError(f"\"bernoulli_scalar_cpu_\" not implemented for '{_ops._legacy(input.dtype)}'")
    if not input.dtype.is_floating_point:
        dt = _dtypes.int64 if alpha and input.dtype is _dtypes.bool_ else input.dtype
        raise RuntimeError(f"result type Float can't be cast to the desired output type {_ops._legacy(dt)}")


def _dropout_mask(input: Tensor, shape: tuple, p: float) -> Tensor:
    """The noise as the tensor MulBackward0 saves, at PyTorch's version: bernoulli_ then div_ (2), zeros (1)."""
    if _meta.is_meta(input):   # (a meta input: a meta noise, nothing drawn)
        return _meta.mark(Tensor._make(np.zeros(() if p == 1 else tuple(shape), input._data.dtype)))
    noise = Tensor._make(_dropout_noise(input, shape, p))
    noise._version_counter[0] = 1 if p == 1 else 2
    return noise


def _dropout_noise(input: Tensor, shape: tuple, p: float) -> np.ndarray:
    """Dropout.cpp's noise: 0 or 1/(1-p), drawn as PyTorch draws it (p == 1: a zero scalar, nothing drawn)."""
    from .. import _random
    if p == 1:
        return np.zeros((), dtype=input._data.dtype)
    a = input._data
    if not a.flags.c_contiguous and shape == a.shape:
        # a permuted input (x.transpose(0, 1) ...): PyTorch's empty_like keeps its layout, so the draws follow memory
        order = sorted(range(a.ndim), key=lambda d: -a.strides[d])
        if a.transpose(order).flags.c_contiguous:
            noise = _random.dropout_noise(_random.gen(None), tuple(a.shape[d] for d in order), p, a.dtype)
            return noise.transpose(np.argsort(order))
    return _random.dropout_noise(_random.gen(None), shape, p, input._data.dtype)


# =============================================================================================
# Losses
# =============================================================================================

def mse_loss(input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean",
             weight=None) -> Tensor:
    """Mean (or sum) of (input - target)²."""
    if _AUTOCAST[0]:
        return _autocast("mse_loss", mse_loss, **locals())
    _warn_if_sizes_differ(input, target)
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    input, target = _broadcast_pair(input, target)
    if weight is not None:
        return _weighted_loss((input - target).pow(2), weight, input, reduction, "sum")
    red = _reduction_enum(None, None, reduction)   # (PyTorch's get_enum, before its kernel's dtype dispatch)
    if isinstance(input, Tensor) and isinstance(target, Tensor) and not (
            _dtypes.result_type(input, target).is_floating_point):   # (its kernel: real floats only)
        dt = _dtypes.result_type(input, target)
        raise NotImplementedError(f"\"mse_cpu\" not implemented for '{_LEGACY_NAMES[dt.name]}'")
    return _D.mse_loss(input, target, reduction=red, dtype=_common_dtype(input, target))


def l1_loss(input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean",
            weight=None) -> Tensor:
    """Mean (or sum) of |input - target| (composite, as in PyTorch: SubBackward0 → AbsBackward0 → Mean)."""
    if _AUTOCAST[0]:
        return _autocast("l1_loss", l1_loss, **locals())
    _warn_if_sizes_differ(input, target)
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    input, target = _broadcast_pair(input, target)
    if weight is not None:
        return _weighted_loss((input - target).abs(), weight, input, reduction, "sum")
    return _l1(input, target, _reduction_enum(None, None, reduction))


def _l1(input: Tensor, target: Tensor, reduction: int) -> Tensor:
    loss = (input - target).abs()
    return loss.mean() if reduction == 1 else loss.sum() if reduction == 2 else loss


def _common_dtype(input: Tensor, target: Tensor):
    """None when input and target share a dtype, else PyTorch's promoted dtype (the loss computes in it)."""
    return None if input.dtype is target.dtype else _dtypes.result_type(input, target)


def _same_dtype(input: Tensor, target: Tensor) -> None:
    """The check of the loss kernels that take no mixed dtypes (binary_cross_entropy)."""
    if target.dtype is not input.dtype:
        raise RuntimeError(f"Found dtype {_ops._legacy(target.dtype)} but expected {_ops._legacy(input.dtype)}")


def _weighted_loss(loss: Tensor, weight: Tensor, input: Tensor, reduction: str, mean: str) -> Tensor:
    """The ``weight=`` branch of mse/l1/huber_loss: elementwise loss × weight, then reduced (PyTorch's Python)."""
    if weight.shape != input.shape:
        raise ValueError("Weights and input must have the same size.")
    loss = loss * weight
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":  # mse/l1: Σ loss·w / Σ w; huber: the plain mean of loss·w
        return loss.sum() / weight.sum() if mean == "sum" else loss.mean()
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")


def _sizes_differ(input: Tensor, target: Tensor) -> bool:
    try:
        return target.shape != input.shape
    except AttributeError:  # (PyTorch's losses ask target.size() first: F.mse_loss(x, 1) names "size")
        target.size()
        input.size()
        raise


def _warn_if_sizes_differ(input: Tensor, target: Tensor) -> None:
    if _sizes_differ(input, target):
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
                      "This will likely lead to incorrect results due to broadcasting. Please ensure they have "
                      "the same size.", UserWarning, stacklevel=_user_stacklevel())


def _check_broadcast(a: Tensor, b: Tensor) -> None:
    try:
        np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        _ops._raise_broadcast_error(a.shape, b.shape)


def _broadcast_pair(input: Tensor, target: Tensor) -> tuple:
    """PyTorch's torch.broadcast_tensors(input, target) of l1/mse/smooth_l1_loss: a 0-dim operand broadcast to the
    other's shape then promotes as a dimensioned one (float16 input, 0-dim float32 target: float32)."""
    _check_broadcast(input, target)
    if input.shape == target.shape:
        return input, target
    from .._ops_shapes import broadcast_tensors
    return broadcast_tensors(input, target)


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average=None,
                         reduce=None, reduction: str = "mean") -> Tensor:
    """-(y·log x + (1-y)·log(1-x)) for probabilities x (logs clamped at -100)."""
    if _AUTOCAST[0]:
        return _autocast("binary_cross_entropy", binary_cross_entropy, **locals())
    reduction = _reduction_enum(size_average, reduce, reduction)
    if _sizes_differ(input, target):
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input size "
                         f"({input.shape}) is deprecated. Please ensure they have the same size.")
    if weight is not None:   # (PyTorch's torch.broadcast_shapes(target.size(), weight.size()), then expand)
        from .._ops_shapes import broadcast_shapes
        weight = weight.expand(broadcast_shapes(target.shape, weight.shape))
    _no_grad_arg(weight, "weight", "binary_cross_entropy")   # (autograd's refusal before the kernel's checks)
    _same_dtype(input, target)
    if not input.dtype.is_floating_point:   # (its kernel's dtype dispatch)
        raise NotImplementedError(f"\"binary_cross_entropy\" not implemented for '{_ops._legacy(input.dtype)}'")
    if input.numel():   # (its kernel checks each element's input, then its target, in order)
        x, y = input._data.ravel(), target._data.ravel()
        bad_x, bad_y = ~((x >= 0) & (x <= 1)), ~((y >= 0) & (y <= 1))   # (NaN fails both)
        first = np.flatnonzero(bad_x | bad_y)
        if first.size:
            what = "input" if bad_x[first[0]] else "target"
            raise RuntimeError(f"all elements of {what} should be between 0 and 1")
    if weight is not None and weight.shape != target.shape:   # (more dims: the kernel's loss.mul_(weight) refuses)
        raise RuntimeError(f"output with shape {list(target.shape)} doesn't match the broadcast shape "
                           f"{list(weight.shape)}")
    return _D.binary_cross_entropy(input, target, weight=weight, reduction=reduction)


def _broadcast_shape(a: Tensor, b: Tensor) -> tuple:
    """a and b's broadcast shape, or PyTorch's error naming a and b's sizes."""
    try:
        return np.broadcast_shapes(tuple(a.shape), tuple(b.shape))
    except ValueError:
        _ops._raise_broadcast_error(tuple(a.shape), tuple(b.shape))


def _broadcast_into(out: Tensor, shape: tuple) -> None:
    """An in-place op's check: the broadcast shape must be the output's."""
    if tuple(shape) != tuple(out.shape):
        raise RuntimeError(f"output with shape {list(out.shape)} doesn't match the broadcast shape {list(shape)}")


def _no_grad_arg(t, arg: str, fn: str) -> None:
    """PyTorch's error for a tensor argument its op has no derivative for (a loss's weight) requiring grad."""
    if t is not None and t.requires_grad and _grad_mode.is_grad_enabled():
        raise RuntimeError(f"The function '{fn}' is not differentiable with respect to argument '{arg}'. This input "
                           "cannot have requires_grad True.")


def _check_nll(input: Tensor, target: Tensor, weight: Tensor | None) -> None:
    """PyTorch's argument checks for nll_loss, in its order: nll_loss_nd's, then nll_loss's or nll_loss2d's."""
    shape, t_shape = input._data.shape, target._data.shape   # plain tuples: no Size per look-up
    ndim, t_ndim = len(shape), len(t_shape)
    if ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {ndim})")
    t_batch = t_shape[0] if t_ndim else 0   # PyTorch reads a 0-d target's size 0 from its empty sizes and finds 0
    if ndim != 1 and shape[0] != t_batch:
        raise ValueError(f"Expected input batch_size ({shape[0]}) to match target batch_size ({t_batch}).")
    if (ndim == 3 or ndim > 4) and t_shape[1:] != shape[2:]:   # these ranks are viewed as 4-D
        if not t_ndim:   # only an empty batch gets here: PyTorch slices the 0-d target's sizes from 1
            raise RuntimeError("ArrayRef: invalid slice, N = 1; size = 0")
        raise RuntimeError(f"Expected target size {[shape[0], *shape[2:]]}, got {list(t_shape)}")
    if ndim <= 2:   # nll_loss
        if t_ndim > 1:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        _check_nll_target_dtype(target)
        if ndim == 1 and t_ndim == 1 and t_batch != 1:   # (nll_loss's meta: after the target's dtype)
            raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: {t_batch}")
        if ndim == 2 and not t_ndim:   # only a (0, C) input gets here: PyTorch asks the 0-d target for size(0)
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        if weight is not None and (weight.dim() != 1 or weight.numel() != shape[-1]):
            raise RuntimeError(f"weight tensor should be defined either for all {shape[-1]} classes or no classes "
                               f"but got weight tensor of shape: {list(weight.shape)}")
        _check_nll_kernel(input, "nll_loss_out_frame")
        _check_nll_weight_dtype(input, weight)
        return
    # nll_loss2d (other ranks reach it viewed as 4-D, with a target that fits)
    if ndim == 4 and t_ndim != 3:
        raise RuntimeError(f"only batches of spatial targets supported (3D tensors) but got targets of dimension: "
                           f"{t_ndim}")
    _check_nll_target_dtype(target)
    if weight is not None and weight.numel() != shape[1]:   # any shape of C elements passes
        raise RuntimeError("weight tensor should be defined either for all or no classes")
    if ndim == 4 and t_shape != (shape[0], *shape[2:]):
        raise RuntimeError(f"size mismatch (got input: {list(shape)} , target: {list(t_shape)}")   # sic, no ")"
    _check_nll_kernel(input, "nll_loss2d_forward_out_frame")
    _check_nll_weight_dtype(input, weight)
    if target.dtype.name == "uint8":   # nll_loss2d's kernel takes Long targets only
        raise RuntimeError("expected scalar type Long but found Byte")


def _check_nll_kernel(input: Tensor, kernel: str) -> None:
    if not input.dtype.is_floating_point:   # (the kernel's dtype dispatch: floating types only)
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_ops._legacy(input.dtype)}'")


def _check_nll_target_dtype(target: Tensor) -> None:
    if target.dtype.name not in ("int64", "uint8"):
        from .._tensor import _LEGACY_NAMES
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {_LEGACY_NAMES[target.dtype.name]}")


def _check_nll_weight_dtype(input: Tensor, weight: Tensor | None) -> None:
    if weight is not None and weight.dtype != input.dtype:   # PyTorch's kernel reads both as one type
        from .._tensor import _LEGACY_NAMES
        raise RuntimeError(f"expected scalar type {_LEGACY_NAMES[input.dtype.name]} but found "
                           f"{_LEGACY_NAMES[weight.dtype.name]}")


def _int_ignore_index(name: str, ignore_index) -> None:
    """PyTorch's parser of ``int ignore_index`` (position 5 of the C loss the Python function calls): no float."""
    from .._arg_errors import _is_index, must_be
    if not _is_index(ignore_index):
        raise must_be(name, "ignore_index", "int", ignore_index, 5)


def _nll_loss_nd(input: Tensor, target: Tensor, weight, reduction: int, ignore_index: int) -> Tensor:
    """PyTorch's nll_loss_nd: 1-D/2-D inputs use nll_loss, 4-D nll_loss2d, other ranks are viewed as 4-D."""
    _check_nll(input, target, weight)
    _no_grad_arg(weight, "weight", "nll_loss_forward" if input._data.ndim <= 2 else "nll_loss2d_forward")
    t = target._data
    ndim = input._data.ndim
    n_classes = input._data.shape[0 if ndim == 1 else 1]
    # One pass for the usual case, every target a class index (read as unsigned, negatives are huge);
    # only if that fails, the exact test, which lets targets equal to ignore_index through.
    if t.size and (t.view(np.uint64) if t.dtype.kind == "i" else t).max() >= n_classes:
        bad = (t != ignore_index) & ((t < 0) | (t >= n_classes))
        if bad.any():
            _dispatch.check_rebased_inputs(input, weight)   # (the kernel's check, after VariableType's edges)
            raise IndexError(f"Target {t[bad].flat[0]} is out of bounds.")
    if ndim <= 2:
        return _D.nll_loss(input, target=target, weight=weight, reduction=reduction, ignore_index=ignore_index)[0]
    args = dict(weight=weight, reduction=reduction, ignore_index=ignore_index)
    if input.dim() == 4:
        return _D.nll_loss2d(input, target=target, **args)[0]
    n, c = input.shape[:2]
    out_size = (n,) + tuple(input.shape[2:])
    rest = int(np.prod(out_size[1:]))   # not -1: that is ambiguous when n is 0
    flat_target = Tensor._make(np.ascontiguousarray(t).reshape(n, 1, rest))
    out = _D.nll_loss2d(input.contiguous().view(n, c, 1, rest), target=flat_target, **args)[0]
    return out.view(*out_size) if reduction == 0 else out


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average=None,
             ignore_index: int = -100, reduce=None, reduction: str = "mean") -> Tensor:
    """Negative log-likelihood: -input[n, target[n]] (weighted; mean over the total weight)."""
    if _AUTOCAST[0]:
        return _autocast("nll_loss", nll_loss, **locals())
    reduction = _reduction_enum(size_average, reduce, reduction)
    if ignore_index.__class__ is not int:
        _int_ignore_index("nll_loss_nd", ignore_index)
    return _nll_loss_nd(input, target, weight, reduction, ignore_index)


def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average=None,
                  ignore_index: int = -100, reduce=None, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Tensor:
    """log_softmax + nll_loss for class indices; -Σ p·log_softmax(x) for class probabilities."""
    if _AUTOCAST[0]:
        return _autocast("cross_entropy_loss", cross_entropy, **locals())
    reduction = _reduction_enum(size_average, reduce, reduction)
    if ignore_index.__class__ is not int:
        _int_ignore_index("cross_entropy_loss", ignore_index)
    class_dim = 0 if input.dim() == 1 else 1
    if input._data.shape == target._data.shape:
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
    n_classes = input.shape[class_dim]
    if weight is not None and (weight.dim() != 1 or weight.numel() != n_classes):
        raise RuntimeError(f"cross_entropy: weight tensor should be defined either for all {n_classes} classes or no "
                           f"classes but got weight tensor of shape: {list(weight.shape)}")
    logp = log_softmax(input, class_dim)   # (before the smoothing's check: an integer input's kernel error first)
    if label_smoothing > 1.0:   # (PyTorch checks only a positive smoothing; a negative one is ignored)
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    if label_smoothing > 0.0:
        # (PyTorch's C++ scalar overloads: MulBackward1 / AddBackward1 when the target requires grad)
        target = _D.add_scalar(_D.mul_scalar(target, other=1 - label_smoothing), other=label_smoothing / n_classes)
    terms = logp * target
    if weight is not None:
        terms = terms * _class_weight(weight, input.dim(), class_dim)
    if reduction == 1:
        if input.numel() == 0:  # PyTorch: the mean of no elements is the sum filled with nan
            return terms.sum().fill_(float("nan")).neg()
        return _D.div_scalar(terms.sum().neg(), other=input.numel() // n_classes)
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
    if input.dim() == 1 and target.dim() == 1:   # PyTorch's in-place masked_fill_ of a 0-d loss by a (1,) mask
        raise RuntimeError("output with shape [] doesn't match the broadcast shape [1]")
    kept = target._data != ignore_index
    # masked_fill, not a product by 0: an ignored row's inf must give 0, and so must its gradient
    smooth = smooth.masked_fill(Tensor._make(~kept), 0.0)
    if reduction == 1:
        if weight is not None:
            from .. import _reduce  # (PyTorch's order of additions: weight.gather(...).sum())
            if weight.dim() != 1:   # (a (C, 1) weight passes nll_loss's numel check; gather refuses it)
                raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
            denom = Tensor._make(_reduce.sum(weight._data[target._data[kept]]))
        else:
            denom = Tensor._make(np.asarray(kept.sum(), dtype=np.int64))
        ret = smooth.sum() / denom
    elif reduction == 2:
        ret = smooth.sum()
    else:
        ret = smooth
    # PyTorch's C++ `(1 - ε) * nll + ret * (ε / C)`: GCC evaluates the right product first, so its node is
    # older and backward reaches it last (the stepper's order)
    smoothed = _D.mul_scalar(ret, other=label_smoothing / n_classes)
    return _D.mul_scalar(nll, other=1 - label_smoothing) + smoothed


__all__ = [
    "binary_cross_entropy", "binary_cross_entropy_with_logits", "cross_entropy", "dropout", "gelu", "l1_loss",
    "leaky_relu", "linear", "log_softmax", "mse_loss", "nll_loss", "relu", "sigmoid", "silu", "softmax", "tanh",
]


# ---- coverage pass: more activations, losses, distances, normalization, embedding, padding ----------

def softplus(input: Tensor, beta: float = 1, threshold: float = 20) -> Tensor:
    """log(1 + e^(βx))/β (x itself where βx > threshold)."""
    _floats_only(input, "softplus_cpu")
    beta, threshold = _scalar(beta, input.dtype, True), _scalar(threshold, input.dtype, True)
    return _D.softplus(input, beta=beta, threshold=threshold)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """x for x > 0, α(e^x - 1) otherwise."""
    if inplace and input._requires_grad:  # (an in-place call: the leaf's refusal first)
        _dispatch._check_inplace(input, False)
    _floats_only(input, "elu_cpu", inplace=inplace)
    alpha = _scalar(alpha, input.dtype, True)
    # (scale and input_scale are C++ defaults, the integer 1: a node shows _saved_scale=1)
    return (_D.elu_inplace if inplace else _D.elu)(input, out=input if inplace else None, alpha=alpha, scale=1,
                                                 input_scale=1)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    """scale·elu(x, α) with the self-normalizing constants."""
    if inplace:   # (torch.func's refusal to write a captured tensor names selu_, not the elu_ it runs)
        _dispatch.check_captured_write(input, "aten::selu_")
    if inplace and input._requires_grad:  # (an in-place call: the leaf's refusal first)
        _dispatch._check_inplace(input, False)
    _floats_only(input, "elu_cpu", inplace=inplace)
    return (_D.elu_inplace if inplace else _D.elu)(input, out=input if inplace else None, alpha=_SELU_ALPHA,
                                                 scale=_SELU_SCALE, input_scale=1)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """max(0, x) + min(0, α(e^(x/α) - 1))."""
    if inplace and input._requires_grad:  # (an in-place call: the leaf's refusal first)
        _dispatch._check_inplace(input, False)
    alpha = _scalar(alpha, _dtypes.float64)  # (PyTorch's celu takes 1/alpha as a double first)
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    _floats_only(input, "elu_cpu", inplace=inplace)
    return (_D.celu_inplace if inplace else _D.celu)(input, out=input if inplace else None, alpha=alpha)


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> Tensor:
    """x clipped to [min_val, max_val]."""
    if min_val > max_val:  # (Python's comparison: a complex bound is its TypeError)
        raise ValueError("min_val cannot be greater than max_val")
    return _hardtanh(input, min_val, max_val, inplace)


def _hardtanh(input: Tensor, min_val, max_val, inplace: bool) -> Tensor:
    """PyTorch's C hardtanh / hardtanh_: no check of the bounds' order (min_val > max_val clamps to max_val)."""
    min_val, max_val = _scalar(min_val, _dtypes.float64), _scalar(max_val, _dtypes.float64)  # (a 0-dim tensor too)
    for bound in (min_val, max_val):
        if type(bound) is int:
            _ops._check_scalar_int(bound)   # (the parser's OverflowError)
    if inplace and isinstance(input, Tensor) and input._requires_grad:  # (an in-place call: the leaf's refusal first)
        _dispatch._check_inplace(input, False)
    # (the bounds read as int64, truncated toward zero: -0.5 is 0)
    if isinstance(input, Tensor) and input.dtype is _dtypes.uint8 and (min_val <= -1 or max_val <= -1):
        raise RuntimeError("cannot do hardtanh on an unsigned type with negative limits")
    if isinstance(input, Tensor) and input.dtype is _dtypes.bool_:
        raise RuntimeError("Bool inputs not supported for hardtanh")
    if isinstance(input, Tensor) and input.dtype.is_complex:
        raise NotImplementedError("clamp is not supported for complex types")
    if inplace:
        return _D.hardtanh(input, out=input, min_val=min_val, max_val=max_val)
    # (PyTorch's kernel writes into empty_like(input))
    return _strides.into_empty_like(input, _D.hardtanh(input, min_val=min_val, max_val=max_val))


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    """min(max(x, 0), 6)."""
    if inplace:   # (torch.func's refusal to write a captured tensor names relu6_, not hardtanh_)
        _dispatch.check_captured_write(input, "aten::relu6_")
    return hardtanh(input, 0, 6, inplace)   # (PyTorch's relu6 passes the integers: _saved_min_val=0)


def logsigmoid(input: Tensor) -> Tensor:
    """log σ(x), computed without overflow."""
    _floats_only(input, "log_sigmoid_cpu")
    return _D.log_sigmoid(input)[0]


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    """relu6(x + 3) / 6."""
    if inplace and input._requires_grad:  # (an in-place call: the leaf's refusal first)
        _dispatch._check_inplace(input, False)
    _floats_only(input, "hardsigmoid_cpu", inplace=inplace)
    return _D.hardsigmoid(input, out=input if inplace else None)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    """x · relu6(x + 3) / 6."""
    if inplace and input._requires_grad:  # (an in-place call: the leaf's refusal first)
        _dispatch._check_inplace(input, False)
    _floats_only(input, "hardswish_cpu", inplace=inplace)
    return _D.hardswish(input, out=input if inplace else None)


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    """x · tanh(softplus(x))."""
    if inplace and input._requires_grad:  # (an in-place call: the leaf's refusal first)
        _dispatch._check_inplace(input, False)
    _floats_only(input, "mish_cpu", inplace=inplace)
    return _D.mish(input, out=input if inplace else None)


def glu(input: Tensor, dim: int = -1) -> Tensor:
    """Gated linear unit: a·σ(b), a and b the two halves of ``input`` along ``dim``."""
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    dim = _arg_errors.scalar_arg(dim, "glu", "dim", 2, "int")   # (then the parser of the C function it calls)
    d = _ops._wrap_dim(dim, input.dim())
    if input.shape[d] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {d} is size {input.shape[d]}")
    _floats_only(input, "glu_cpu")
    return _D.glu(input, dim=dim)


def softsign(input: Tensor) -> Tensor:
    """x / (1 + |x|)."""
    return input / (input.abs() + 1)


def tanhshrink(input: Tensor) -> Tensor:
    """x - tanh(x)."""
    return input - input.tanh()


def softmin(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:
    """softmax(-x) along ``dim``."""
    if dim is None:
        dim = _softmax_dim("softmin", input.dim(), _stacklevel)
    return softmax(-input, dim, _stacklevel + 1, dtype=dtype)


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """Integer class indices -> int64 rows with a single 1 (num_classes = max + 1 by default)."""
    from .._arg_errors import _is_index, must_be
    if not _is_index(num_classes):  # (F.one_hot(t, 1.5): PyTorch's parser takes no float)
        raise must_be("one_hot", "num_classes", "int", num_classes, 2)
    if tensor.dtype.name != "int64":
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    idx = tensor._data
    if _meta.is_meta(tensor):   # (no values to check: the classes counted by .item(), refused on meta)
        if num_classes == -1:
            _meta.check_item(tensor)
        return _meta.mark(Tensor._make(np.zeros(tuple(tensor.shape) + (num_classes,), np.int64)))
    if not idx.size and num_classes <= 0:
        raise RuntimeError("Can not infer total number of classes from empty tensor.")
    if idx.size and idx.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    n = int(idx.max()) + 1 if num_classes == -1 else num_classes
    if idx.size and idx.max() >= n:
        raise RuntimeError("Class values must be smaller than num_classes.")
    out = Tensor._make((idx[..., None] == np.arange(n)).astype(np.int64))
    out._version_counter[0] = 2   # (PyTorch's zeros() then scatter_(): the result's _version is 2)
    return out


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out=None) -> Tensor:
    """input / max(‖input‖_p, eps) along ``dim``."""
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    if out is not None:
        from .._ops import div
        return div(input, denom, out=out)
    return input / denom


def smooth_l1_loss(input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean",
                   beta: float = 1.0) -> Tensor:
    """0.5(x - y)²/β where |x - y| < β, |x - y| - β/2 elsewhere."""
    if _AUTOCAST[0]:
        return _autocast("smooth_l1_loss", smooth_l1_loss, **locals())
    _warn_if_sizes_differ(input, target)
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    input, target = _broadcast_pair(input, target)   # (then get_enum)
    reduction = _reduction_enum(None, None, reduction)
    beta = _arg_errors.scalar_arg(beta, "smooth_l1_loss", "beta", 4)   # (the parser of the C function it calls)
    if beta == 0.0:  # as PyTorch: plain L1
        return _l1(input, target, reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    common = _dtypes.result_type(input, target)
    if not common.is_floating_point:   # (its kernel's dtype dispatch)
        raise NotImplementedError(f"\"smooth_l1_cpu\" not implemented for '{_ops._legacy(common)}'")
    return _D.smooth_l1_loss(input, target, reduction=reduction, beta=beta, dtype=_common_dtype(input, target))


def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0,
               weight: Tensor | None = None) -> Tensor:
    """0.5(x - y)² where |x - y| < δ, δ(|x - y| - δ/2) elsewhere."""
    if _AUTOCAST[0]:
        return _autocast("huber_loss", huber_loss, **locals())
    _warn_if_sizes_differ(input, target)
    _check_broadcast(input, target)
    if weight is not None:
        if weight.shape != input.shape:
            raise ValueError("Weights and input must have the same size.")
        delta = _check_huber_delta(delta, input, target)
        return _weighted_loss(_D.huber_loss(input, target, reduction=0, delta=delta), weight, input, reduction, "mean")
    reduction = _reduction_enum(None, None, reduction)
    delta = _check_huber_delta(delta, input, target)
    return _D.huber_loss(input, target, reduction=reduction, delta=delta)


def _check_huber_delta(delta: float, input: Tensor, target: Tensor) -> float:
    """``delta`` as a number, checked by the parser and the code of PyTorch's C++ huber_loss."""
    delta = _arg_errors.scalar_arg(delta, "huber_loss", "delta", 4)
    if not delta > 0:   # (the check of PyTorch's C++ huber_loss, after the Python wrapper's)
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    common = _dtypes.result_type(input, target)
    if not common.is_floating_point:   # (its kernel's dtype dispatch)
        raise NotImplementedError(f"\"huber_cpu\" not implemented for '{_ops._legacy(common)}'")
    if not input.dtype.is_floating_point:   # (its output has the input's dtype)
        raise RuntimeError(f"result type {_ops._legacy(common)} can't be cast to the desired output type "
                           f"{_ops._legacy(input.dtype)}")
    return delta


def kl_div(input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean",
           log_target: bool = False) -> Tensor:
    """KL(target ‖ exp(input)) pointwise: target·(log target - input), reduced."""
    if _AUTOCAST[0]:
        return _autocast("kl_div", kl_div, **locals())
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    elif reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                      "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                      "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                      UserWarning, stacklevel=_user_stacklevel())
    if reduction != "batchmean":
        reduction = _check_reduction(reduction)
    if log_target is not False and log_target is not True:  # (PyTorch's parser of the C kl_div: a bool only)
        from .._arg_errors import must_be
        raise must_be("kl_div", "log_target", "bool", log_target)
    if not (input.dtype.is_floating_point or input.dtype.is_complex) or not (
            target.dtype.is_floating_point or target.dtype.is_complex):
        raise RuntimeError("kl_div: Integral inputs not supported.")
    # (GCC evaluates an operator's right operand first: its node has the lower sequence number, backward runs it last)
    if log_target:
        diff = target - input
        loss = target.exp() * diff
    else:
        prod = target * input
        loss = _ops_math().xlogy(target, target) - prod
    if reduction == "batchmean" and input.dim() != 0:
        return loss.sum() / input.shape[0]
    if reduction == "mean":
        return loss.mean()
    if reduction in ("sum", "batchmean"):
        return loss.sum()
    return loss


def _ops_math():
    from .. import _ops_math
    return _ops_math


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """Σ x1·x2 / (‖x1‖·‖x2‖) along ``dim`` (each norm at least eps)."""
    # As ATen's Distance.cpp: integers cast to the common float dtype, both expanded when the shapes differ,
    # each norm (LinalgVectorNormBackward0) cloned and clamped in place *outside* the graph, then
    # (x1 / ‖x1‖) · (x2 / ‖x2‖) summed: the clamp leaves no node, so a tiny norm's gradient flows as if unclamped.
    eps = _arg_errors.scalar_arg(eps, "cosine_similarity", "eps", 4)
    common = _dtypes.result_type(x1, x2)
    if not common.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is {_ops._legacy(common)}")
    if eps < 0:
        raise RuntimeError(f"eps must be non-negative, got: {eps:g}")
    x1, x2 = (x if x.dtype.is_floating_point or x.dtype.is_complex else x.to(common) for x in (x1, x2))
    if x1.shape != x2.shape:
        try:
            shape = np.broadcast_shapes(x1._data.shape, x2._data.shape)
        except ValueError:
            _ops._raise_broadcast_error(x1._data.shape, x2._data.shape)   # (expand_outplace's message)
        x2 = _ops.expand(x2, shape)  # (first: GCC evaluates expand_outplace's make_tuple arguments right to left,
        x1 = _ops.expand(x1, shape)  # so x2's ExpandBackward0 has the lower sequence number; backward runs it last)
    _ops._wrap_dim(dim, max(x1.dim(), 1))   # (the range check; the node saves ``dim`` as given)
    n1 = _ops.clone(_D.linalg_vector_norm(x1, ord=2, dim=(dim,), keepdim=True))
    n2 = _ops.clone(_D.linalg_vector_norm(x2, ord=2, dim=(dim,), keepdim=True))
    with _grad_mode.no_grad():
        n1.clamp_min_(eps)
        n2.clamp_min_(eps)
    q2 = x2 / n2  # (GCC evaluates the right operand of ATen's `(x1 / n1) * (x2 / n2)` first: node order)
    return ((x1 / n1) * q2).sum(dim)


def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> Tensor:
    """‖x1 - x2 + eps‖_p along the last dim."""
    # at::norm(at::sub(x1, x2).add(eps), p, -1): the graph shows NormBackward1 over AddBackward1
    p = _arg_errors.scalar_arg(p, "pairwise_distance", "p", 3)   # (its parser first)
    # (eps, a C++ double: eps=0 or False still makes an integer difference float)
    eps = float(_arg_errors.scalar_arg(eps, "pairwise_distance", "eps", 4))
    diff = x1 - x2
    dt = _dtypes.result_type(diff, eps)  # (integers: + eps makes floats)
    diff = _D.add_scalar(diff, other=eps, dtype=dt if dt is not diff.dtype else None)
    return _D.norm(diff, p=float(p), dim=(_ops._wrap_dim(-1, diff.dim()),) if diff.dim() else (), keepdim=keepdim)


def layer_norm(input: Tensor, normalized_shape, weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-5) -> Tensor:
    """(x - mean) / √(var + eps) over the last len(normalized_shape) dims, then ·weight + bias."""
    normalized_shape = _int_list("layer_norm", "normalized_shape", normalized_shape, 2)
    given = [p for p in (weight, bias) if p is not None]
    if given and given[0].dtype is not input.dtype:   # (layer_norm_cpu's mixed-type check comes first)
        _check_mixed_type(input, weight, bias)
    try:
        if not normalized_shape:   # (PyTorch's _check_layer_norm_inputs: this, the parameters, then the input)
            raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least "
                               "one element, but got normalized_shape = []")
        for t, name in ((weight, "weight"), (bias, "bias")):
            if t is not None and tuple(t.shape) != normalized_shape:
                raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of "
                                   f"shape {list(t.shape)} and normalized_shape = {list(normalized_shape)}")
        if tuple(input.shape[input.dim() - len(normalized_shape):]) != normalized_shape:
            raise RuntimeError(f"Given normalized_shape={list(normalized_shape)}, expected input with shape "
                               f"[*, {', '.join(str(s) for s in normalized_shape)}], but got input of size"
                               f"{list(input.shape)}")
        if not input.dtype.is_floating_point:   # (its kernel's dtype dispatch, even for an empty input)
            raise NotImplementedError(f"\"LayerNormKernelImpl\" not implemented for "
                                      f"'{_ops._legacy(input.dtype)}'")
    except RuntimeError:   # (native_layer_norm's checks, after VariableType collected the edges)
        _dispatch.check_rebased_inputs(input, weight, bias)
        raise
    _check_mixed_type(input, weight, bias)   # (not mixed: the kernel reads a bias of another dtype as input's)
    stand_in = _D.absent(input.dtype.np)   # (a missing weight or bias: the node shows None, as PyTorch's)
    return _D.native_layer_norm(input, stand_in if weight is None else weight, stand_in if bias is None else bias,
                               normalized_shape=tuple(normalized_shape), eps=eps)[0]


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None, max_norm=None, norm_type: float = 2.0,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """Rows of ``weight`` picked by the integer ``input``."""
    if not isinstance(input, Tensor):
        from .._arg_errors import must_be
        raise must_be("embedding", "indices", "Tensor", input, 2)
    if padding_idx is not None:   # (PyTorch's checks, in its order: "a" fails the first comparison)
        if padding_idx > 0:
            if not padding_idx < weight.size(0):
                raise AssertionError("Padding_idx must be within num_embeddings")
        elif padding_idx < 0 and not padding_idx >= -weight.size(0):
            raise AssertionError("Padding_idx must be within num_embeddings")
    if max_norm is not None:   # (before the range check: PyTorch renormalizes first, selecting each row)
        if weight.dim() != 2:
            raise RuntimeError(f"Expected 2-dimensional tensor, but got {weight.dim()}-dimensional tensor for "
                               "argument #1 'self' (while checking arguments for embedding_renorm_)")
        _embedding_indices(input, "#2", "embedding_renorm_")
        _embedding_renorm_(weight, input, max_norm, norm_type)
    from .._arg_errors import _is_int, _is_int_tensor, must_be
    if padding_idx is not None and not _is_int(padding_idx):   # (torch.embedding's parser: padding_idx=1.)
        if not _is_int_tensor(padding_idx):
            raise must_be("embedding", "padding_idx", "int", padding_idx, 3)
        padding_idx = int(padding_idx)
    _bool_flags("embedding", 4, scale_grad_by_freq=scale_grad_by_freq)   # (torch.embedding's parser: sparse=1)
    _bool_flags("embedding", 5, sparse=sparse)
    if weight.dim() != 2:
        _dispatch.check_rebased_inputs(weight)   # (the kernel's check, after VariableType collected the edge)
        raise RuntimeError("'weight' must be 2-D")
    _embedding_indices(input, "#1", "embedding")
    idx = input._data
    if idx.size and (idx.min() < 0 or idx.max() >= weight.shape[0]):   # (NumPy would wrap negative indices)
        _dispatch.check_rebased_inputs(weight)   # (the kernel's check, after VariableType collected the edge)
        raise IndexError("index out of range in self")
    if padding_idx is not None and padding_idx < 0:
        padding_idx += weight.shape[0]
    if weight.is_complex() and weight.requires_grad and _grad_mode.is_grad_enabled():   # (not in PyTorch's
        # GRADIENT_IMPLEMENTED_FOR_COMPLEX list: its forward refuses a complex result that would need a gradient)
        raise RuntimeError("embedding does not support automatic differentiation for outputs with complex dtype.")
    return _D.embedding(weight, input, padding_idx=-1 if padding_idx is None else padding_idx,
                       scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


def _embedding_indices(input: Tensor, position: str, name: str) -> None:
    if input.dtype.name not in ("int64", "int32"):
        raise RuntimeError(f"Expected tensor for argument {position} 'indices' to have one of the following scalar "
                           f"types: Long, Int; but got {_ops._tensor_type_name(input.dtype)} instead (while checking "
                           f"arguments for {name})")


def _embedding_renorm_(weight: Tensor, input: Tensor, max_norm: float, norm_type: float) -> None:
    """Rescale in place, outside autograd, each looked-up row whose norm exceeds ``max_norm`` to that norm
    (PyTorch's embedding_renorm_: row *= max_norm / (norm + 1e-7), once per distinct index, in sorted order)."""
    from ..autograd.grad_mode import no_grad
    max_norm = _arg_errors.scalar_arg(max_norm, "embedding_renorm_", "max_norm", 3)   # (its parser's)
    norm_type = _arg_errors.scalar_arg(norm_type, "embedding_renorm_", "norm_type", 4)
    data = weight._data
    with no_grad():
        for i in np.unique(input._data):
            if not -len(data) <= i < len(data):
                raise IndexError(f"select(): index {int(i)} out of range for tensor of size {list(data.shape)} at "
                                 "dimension 0")
            if not (weight.dtype.is_floating_point or weight.dtype.is_complex):   # (its at::norm of the row)
                raise RuntimeError("norm(): input dtype should be either floating point or complex. Got "
                                   f"{_ops._legacy(weight.dtype)} instead.")
            norm = float(weight[int(i)].norm(norm_type))
            if norm > max_norm:
                data[int(i)] *= data.dtype.type(max_norm / (norm + 1e-7))  # (the scale in the weight's dtype)
    weight._version_counter[0] += 1  # one in-place op on the weight, however many rows it rescaled


def pad(input: Tensor, pad, mode: str = "constant", value: float | None = None) -> Tensor:
    """Pad the last len(pad)//2 dims: pad = (left, right, top, bottom, ...) with ``value``, or by reflecting,
    replicating or wrapping around the input (mode "reflect", "replicate", "circular": see _pad_modes)."""
    pad = _int_list("pad", "pad", pad, 2)   # (PyTorch's parser first: int pads, a real value)
    value = _arg_errors.scalar_arg(value, "pad", "value", 4)
    if value is not None and not isinstance(value, (int, float, np.integer, np.floating)):
        from .._arg_errors import must_be
        raise must_be("pad", "value", "float", value, 4)
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if len(pad) % 2 != 0:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise RuntimeError("Padding length should be less than or equal to two times the input dimension but got "
                           f"padding length {len(pad)} and input of dimension {input.dim()}")
    if _AUTOCAST[0] and f"{_AUTOCAST_PADS.get(mode)}{len(pad) // 2}d" in _AUTOCAST_OPS:
        # reflection_pad1d/2d and replication_pad1d/2d/3d run in float32 (the parameter ``pad`` hides this function)
        return _autocast(f"{_AUTOCAST_PADS[mode]}{len(pad) // 2}d", _pad_function, input, pad, mode, value)
    if mode != "constant":
        return _pad_modes(input, tuple(int(p) for p in pad), mode, value)
    return _D.constant_pad_nd(input, pad=tuple(int(p) for p in pad), value=0.0 if value is None else value)



_pad_function = pad
_AUTOCAST_PADS = {"reflect": "reflection_pad", "replicate": "replication_pad"}  # (aten's names of F.pad's modes)
__all__ += [
    "celu", "cosine_similarity", "elu", "embedding", "hardsigmoid", "hardswish", "hardtanh", "huber_loss",
    "kl_div", "layer_norm", "logsigmoid", "mish", "normalize", "one_hot", "pad", "pairwise_distance", "relu6",
    "selu", "smooth_l1_loss", "softmin", "softplus", "softsign", "tanhshrink", "glu",
]


# =============================================================================================
# Convolution, pooling, normalization (the nodes and their arithmetic: derivatives.py's section of
# the same name, and _conv.py). Argument checks follow PyTorch's, in its order and with its messages.
# =============================================================================================

def _int_list(name: str, arg: str, value, position: int, one_int: bool = False) -> tuple:
    """PyTorch's parser of an ``int[]`` argument (its TypeErrors for None or float elements)."""
    from .._arg_errors import int_list
    return int_list(name, arg, value, position, one_int)


def _size_arg(value, k: int) -> tuple:
    """A size argument as PyTorch's parser keeps it: an int becomes k copies, a sequence stays as given."""
    # (operator.index, not int: a float in the list is PyTorch's parser error, raised by the wrappers, not truncated)
    return (int(value),) * k if isinstance(value, int) else tuple(map(_operator.index, value))


def _conv_param(values: tuple, name: str, k: int) -> tuple:
    """PyTorch's expand_param_if_needed: one value serves every spatial dim, else exactly k values."""
    if len(values) == 1:
        return values * k
    if len(values) != k:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {k} values to match the "
                           f"convolution dimensions, but got {name}={list(values)}")
    return values


def _check_convolution(input: Tensor, weight: Tensor, bias, stride, padding, dilation, groups: int,
                       transposed: bool = False, output_padding=(0,)) -> None:
    """PyTorch's _convolution checks (check_shape_forward), in its order."""
    k = weight.dim() - 2
    if k <= 0:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    stride, padding, dilation, output_padding = (
        _conv_param(v, n, k) for v, n in ((stride, "stride"), (padding, "padding"), (dilation, "dilation"),
                                          (output_padding, "output_padding")))
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(p < 0 for p in output_padding):
        raise RuntimeError("negative output_padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d < 0 for d in dilation):
        raise RuntimeError("dilation should be greater than zero")
    w = list(weight.shape)
    if weight.dim() != input.dim():
        raise RuntimeError(f"Expected {weight.dim()}-dimensional input for {weight.dim()}-dimensional weight {w}, but "
                           f"got {input.dim()}-dimensional input of size {list(input.shape)} instead")
    if w[0] < groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, but got "
                           f"weight of size {w} instead")
    if w[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but "
                           f"got weight of size [{w}] instead")
    if transposed:
        _check_transposed(input, weight, bias, stride, padding, dilation, output_padding, groups)
        return
    if input.shape[1] != w[1] * groups:
        x, w, g = _vmap_batched.physical_conv(input, weight, groups)  # (inside vmap: the batch rule's shapes)
        raise RuntimeError(f"Given groups={g}, weight of size {w}, expected input{x} to have {w[1] * g} channels, "
                           f"but got {x[1]} channels instead")
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != w[0]):
        raise RuntimeError(f"Given weight of size {w}, expected bias to be 1-dimensional with {w[0]} elements, but "
                           f"got bias of size {list(bias.shape)} instead")
    padded = [n + 2 * p for n, p in zip(input.shape[2:], padding)]
    kernel = [d * (m - 1) + 1 for d, m in zip(dilation, w[2:])]
    if any(n < m for n, m in zip(padded, kernel)):
        raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel size: "
                           f"({' x '.join(map(str, kernel))}). Kernel size can't be greater than actual input size")
    if bias is not None and bias.dtype is not input.dtype:
        raise RuntimeError(f"Input type ({_c_type(input.dtype)}) and bias type ({_c_type(bias.dtype)}) should be the "
                           "same")
    _check_complex_weight_type(input, weight)
    # The remaining checks belong to the kernel PyTorch picks, and their messages differ by kernel.
    wrong_type = input.dtype is not weight.dtype
    if wrong_type and input.dtype.name == "bfloat16":   # (a bfloat16 input always takes oneDNN's kernel)
        raise _mkldnn_type_error(input, weight)
    if _uses_mkldnn(input, weight, groups) or input.dtype.name == "bfloat16":
        if wrong_type:
            raise _mkldnn_type_error(input, weight)
        if 0 in dilation:
            raise RuntimeError("non-positive dilation is not supported")
    else:
        if 0 in dilation:   # (a 1-d convolution runs as a 2-d one of height 1)
            raise RuntimeError(f"dilation should be greater than zero, but got {[1] * (2 - k) + list(dilation)}")
        if input.dtype is _dtypes.bool_:   # (the kernel's dtype list before the weight's type)
            _check_slow_conv_dtype(input.dtype, w[2:], stride, padding, dilation)
        if wrong_type:
            raise RuntimeError(f"expected scalar type {_ops._legacy(input.dtype)} but found "
                               f"{_ops._legacy(weight.dtype)}")
        if input.dtype._kind < 2:   # (integers and bool: the slow kernels' dtype lists)
            _check_slow_conv_dtype(input.dtype, w[2:], stride, padding, dilation)


def _check_complex_weight_type(input: Tensor, weight: Tensor, bias=None) -> None:
    """A complex input's convolution (PyTorch's complex_convolution) checks the weight's type (then, given, the
    bias's), naming the tensors' types as Python's error translation shows them (torch.FloatTensor;
    CPUBFloat16Type, CPUBoolType and the complex ones keep their C++ names)."""
    if not input.dtype.is_complex:
        return

    def name(d):
        return f"CPU{_ops._legacy(d)}Type" if d.name == "bfloat16" else _ops._tensor_type_name(d)
    for what, t in (("weight", weight), ("bias", bias)):
        if t is not None and t.dtype is not input.dtype:
            raise RuntimeError(f"Input type ({name(input.dtype)}) and {what} type ({name(t.dtype)}) should be the same")


def _check_slow_conv_dtype(dtype, kernel, stride, padding, dilation) -> None:
    """The dtypes of PyTorch's CPU kernels of an integer or bool convolution: a dilated one (slow_conv_dilated)
    takes int64 only; the others every integer type but not bool (a 3-d one that needs its im2col columns
    refuses bool in compute_columns3d, before its own dtype dispatch)."""
    if any(d > 1 for d in dilation):
        if dtype is not _dtypes.int64:
            raise NotImplementedError(f"\"slow_conv_dilated<>\" not implemented for '{_ops._legacy(dtype)}'")
    elif dtype is _dtypes.bool_:
        name = "slow_conv2d_cpu"
        if len(kernel) == 3:
            columns = any(m != 1 for m in kernel) or any(s != 1 for s in stride) or \
                any(p != 0 for p in padding)
            name = "compute_columns3d" if columns else "slow_conv3d_cpu"
        raise NotImplementedError(f"\"{name}\" not implemented for 'Bool'")


def _check_transposed(input: Tensor, weight: Tensor, bias, stride, padding, dilation, output_padding,
                      groups: int) -> None:
    """check_shape_forward's transposed branch, then the checks of the kernel PyTorch picks: oneDNN's, or
    slow_conv_transpose2d's (which runs a 1-d convolution as a 2-d one of height 1)."""
    w = list(weight.shape)
    if input.shape[1] != w[0]:
        # (inside vmap, a batched input's examples are more samples of the batch rule's convolution)
        x = list(input.shape) if _vmap_batched.levels(weight) else _vmap_batched.physical_conv(input, weight, 1)[0]
        raise RuntimeError(f"Given transposed=1, weight of size {w}, expected input{x} to have {w[0]} "
                           f"channels, but got {input.shape[1]} channels instead")
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != w[1] * groups):
        raise RuntimeError(f"Given transposed=1, weight of size {w}, expected bias to be 1-dimensional with "
                           f"{w[1] * groups} elements, but got bias of size {list(bias.shape)} instead")
    _check_complex_weight_type(input, weight, bias)   # (before the bias's type of check_shape_forward, here)
    if bias is not None and bias.dtype is not input.dtype:
        raise RuntimeError(f"Input type ({_c_type(input.dtype)}) and bias type ({_c_type(bias.dtype)}) should be the "
                           "same")
    k = weight.dim() - 2
    out = [(n - 1) * s - 2 * p + d * (m - 1) + o + 1
           for n, m, s, p, d, o in zip(input.shape[2:], w[2:], stride, padding, dilation, output_padding)]
    wrong_type = input.dtype is not weight.dtype
    if wrong_type and input.dtype.name == "bfloat16":   # (a bfloat16 input always takes oneDNN's kernel)
        raise _mkldnn_type_error(input, weight)
    if _uses_mkldnn(input, weight, groups) and all(o < s for o, s in zip(output_padding, stride)):
        if wrong_type:
            raise _mkldnn_type_error(input, weight)
        _check_output_padding(output_padding, stride, dilation, k)
        if 0 in dilation and k == 3:   # (oneDNN's 3-d memory descriptor refuses it first)
            raise RuntimeError("dimensions are invalid")
        if 0 in dilation:
            raise RuntimeError("could not create a primitive descriptor for the deconvolution forward propagation "
                               "primitive. Run workload with environment variable ONEDNN_VERBOSE=all to get additional "
                               "diagnostic information.")
        if any(n < 1 for n in out):
            raise RuntimeError("could not construct a memory descriptor using a format tag")
        return
    as_2d = [(1,) * (2 - k) + tuple(v) for v in (input.shape[2:], out, dilation)]
    if 0 in dilation:   # (slow_conv_transpose3d's names the depth too)
        shown = zip(("dilation_depth", "dilation_height", "dilation_width")[3 - len(as_2d[2]):], as_2d[2])
        raise RuntimeError("dilation should be greater than zero, but got " + ", ".join(f"{n}: {v}" for n, v in shown))
    _check_output_padding(output_padding, stride, dilation, k)
    if any(n < 1 for n in out):
        raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, as_2d[0]))}). Calculated output size "
                           f"per channel: ({' x '.join(map(str, as_2d[1]))}). Output size is too small")
    if input.dtype._kind < 2 and input.dtype is not _dtypes.int64:   # (its kernel: floating types and int64, first)
        raise NotImplementedError(f"\"slow_conv_transpose{3 if k == 3 else 2}d_out_cpu\" not implemented for "
                                  f"'{_ops._legacy(input.dtype)}'")
    if wrong_type:
        raise RuntimeError(f"expected scalar type {_ops._legacy(input.dtype)} but found {_ops._legacy(weight.dtype)}")


def _mkldnn_type_error(input: Tensor, weight: Tensor) -> RuntimeError:
    """oneDNN's convolution given a weight of another type (a bfloat16 tensor named by its C++ type)."""
    def name(d):
        return f"CPU{_ops._legacy(d)}Type" if d.name == "bfloat16" else f"torch.{_ops._legacy(d)}Tensor"
    return RuntimeError(f"Input type ({name(input.dtype)}) and weight type ({name(weight.dtype)}) should be the same "
                        "or input should be a MKLDNN tensor and weight is a dense tensor")


def _check_output_padding(output_padding, stride, dilation, k: int) -> None:
    """The extra output rows must fit inside one stride (or one dilation step): else they are not an output."""
    if all(o < s or o < d for o, s, d in zip(output_padding, stride, dilation)):
        return
    if k == 3:   # (PyTorch's 3-d message names depth, height and width)
        names = ("depth", "height", "width")
        got = " ".join(f"{what}_{n}: {v}" for what, values in (("output_padding", output_padding), ("stride", stride),
                                                               ("dilation", dilation)) for n, v in zip(names, values))
        raise RuntimeError(f"output padding must be smaller than either stride or dilation, but got {got}")
    o, s, d = ((pad,) * (2 - k) + tuple(v) for v, pad in ((output_padding, 0), (stride, 1), (dilation, 1)))
    raise RuntimeError(f"output padding must be smaller than either stride or dilation, but got output_padding_height: "
                       f"{o[0]} output_padding_width: {o[1]} stride_height: {s[0]} stride_width: {s[1]} "
                       f"dilation_height: {d[0]} dilation_width: {d[1]}")


def _uses_mkldnn(input: Tensor, weight: Tensor, groups: int) -> bool:
    """Whether PyTorch's CPU convolution would take its oneDNN (mkldnn) kernel (ConvParams::use_mkldnn, on a
    machine with several threads): float32 and not a small single-image problem."""
    if input.dtype.name != "float32":
        return False
    # (a 1-d convolution as a 2-d one of height 1; a 3-d one reads its first four sizes and its last two)
    shape = list(input.shape) if input.dim() >= 4 else [input.shape[0], input.shape[1], 1, *input.shape[2:]]
    kernel = weight.shape[-2:] if weight.dim() >= 4 else (1, weight.shape[-1])
    return groups > 1 or (kernel[0] > 3 and kernel[1] > 3) or shape[0] > 1 or int(np.prod(shape[:4])) > 20480


def _c_type(dtype) -> str:
    """The C++ name PyTorch prints for a dtype in some messages (float, double ...)."""
    return {"float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
            "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
            "bool": "bool", "complex64": "c10::complex<float>", "complex128": "c10::complex<double>",
            "complex32": "c10::complex<c10::Half>"}.get(dtype.name, dtype.name)


def _same_padding(input: Tensor, weight: Tensor, stride: tuple, dilation: tuple, groups: int):
    """PyTorch's convolution_same: the padding that keeps the size (its left part), padding the input's right
    side first where the total is odd (even kernels)."""
    k = weight.dim()
    if k <= 2:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if k != input.dim():
        raise RuntimeError(f"Expected {k}-dimensional input for {k}-dimensional weight{list(weight.shape)}, but got "
                           f"{input.dim()}-dimensional input of size {list(input.shape)} instead")
    dims = k - 2
    for values, name in ((stride, "stride"), (dilation, "dilation")):
        if len(values) not in (1, dims):
            raise RuntimeError(f"{name} cannot broadcast to {dims} dimensions")
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    dilation_k = dilation * dims if len(dilation) == 1 else dilation
    left, extra = [], []
    for d, m in zip(dilation_k, weight.shape[2:]):
        total = d * (m - 1)
        left.append(total // 2)
        extra.append(total - 2 * (total // 2))
    if any(extra):
        _warn_once("same padding copy",   # (PyTorch's TORCH_WARN_ONCE)
                   "Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy of "
                   "the input be created (Triggered internally at "
                   "/__w/pytorch/pytorch/aten/src/ATen/native/Convolution.cpp:1101.)")
        pad_nd = []
        for e in reversed(extra):   # F.pad's order: last dim first, (left, right) each
            pad_nd += [0, e]
        input = pad(input, pad_nd)
    return input, tuple(left)


def _check_conv_backend(input: Tensor, weight: Tensor, groups: int, transposed: bool) -> None:
    """PyTorch's kernel choice on empty tensors: a zero batch or channel count runs no kernel ("Empty"); other
    empty inputs, and an empty transposed weight, are refused (by the kernel, with its own message)."""
    shape, w = list(input.shape), list(weight.shape)
    if len(shape) == 3:   # (a 1-d convolution runs as a 2-d one of height 1)
        shape.insert(2, 1)
        w.insert(2, 1)
    if shape[0] == 0 or shape[1] == 0:
        return
    if input.numel() == 0:
        raise RuntimeError(f"Only zero batch or zero channel inputs are supported, but got input shape: {shape}")
    if transposed and weight.numel() == 0:
        if groups > 1 and input.dtype is _dtypes.float32:   # (oneDNN's deconvolution)
            raise RuntimeError("could not create a primitive descriptor for the deconvolution forward propagation "
                               "primitive. Run workload with environment variable ONEDNN_VERBOSE=all to get "
                               "additional diagnostic information.")
        w[0] //= groups   # (slow_conv_transpose, one group at a time)
        if len(w) == 5:
            raise RuntimeError("non-empty 5D (n_output_plane x n_input_plane x kernel_depth x kernel_height x "
                               f"kernel_width) tensor expected for weight, but got: {w}")
        raise RuntimeError(f"non-empty 2D or 4D weight tensor expected, but got: {w}")


def _check_bias_type(input, bias, padding) -> None:
    """PyTorch's conv1d/2d/3d check the bias's dtype before anything else (a float64 or uint8 image into a float32
    layer); their string-padding forms and torch.convolution do not."""
    if bias is not None and not isinstance(padding, str) and isinstance(input, Tensor) and isinstance(bias, Tensor) \
            and bias.dtype is not input.dtype:
        raise RuntimeError(f"Input type ({_c_type(input.dtype)}) and bias type ({_c_type(bias.dtype)}) should be the "
                           "same")


def _conv_nd(input: Tensor, weight: Tensor, bias, stride, padding, dilation, groups: int, k: int, name: str) -> Tensor:
    """conv1d / conv2d: a batch dim for unbatched input, the padding strings, checks, then the convolution op."""
    if input.dim() not in (k + 1, k + 2):
        raise RuntimeError(f"Expected {k + 1}D (unbatched) or {k + 2}D (batched) input to {name}, but got input of "
                           f"size: {list(input.shape)}")
    batched = input.dim() == k + 2
    if not batched:
        input = input.unsqueeze(0)
    stride, dilation = _size_arg(stride, k), _size_arg(dilation, k)
    output_padding = (0,) * k
    if isinstance(padding, str):
        if padding == "same":
            input, padding = _same_padding(input, weight, stride, dilation, groups)
        elif padding == "valid":
            padding = output_padding = (0,)    # what PyTorch saves for 'valid'
        else:
            raise RuntimeError(f"Invalid padding string: '{padding}'")
    else:
        padding = _size_arg(padding, k)
    _check_convolution(input, weight, bias, stride, padding, dilation, groups)
    _check_conv_backend(input, weight, groups, transposed=False)
    out = _convolution(input, weight, bias, stride, padding, dilation, False, output_padding, groups)
    return out if batched else out.squeeze(0)


def _convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    """The convolution op; complex inputs as PyTorch's conv1d..conv_transpose3d run them (complex_convolution):
    three real convolutions with Gauss's trick, on the real and imaginary parts (views of the complex tensors):
        a = conv(x_r, w_r, b_r),  b = conv(x_i, w_i),  c = conv(x_r + x_i, w_r + w_i, b_r + b_i)
        conv(x, w, b) = a - b + i·(c - a - b)
    so the graph is PyTorch's (AddBackward0 on top; each real part a SelectBackward0 of a ViewAsRealBackward0)."""
    def conv(x, w, b):
        return _D.convolution(x, w, _D.absent(w.dtype.np) if b is None else b, stride=stride, padding=padding,
                              dilation=dilation, transposed=transposed, output_padding=output_padding, groups=groups,
                              bias_sym_sizes_opt=(0,) if b is None else tuple(b.shape))
    if not input.is_complex():
        return conv(input, weight, bias)

    def complex_to_real(t):
        parts = _ops.view_as_real(t.resolve_conj())
        return parts.select(-1, 0), parts.select(-1, 1)
    i_r, i_i = complex_to_real(input)
    w_r, w_i = complex_to_real(weight)
    if bias is None:
        a, b, c = conv(i_r, w_r, None), conv(i_i, w_i, None), conv(i_r + i_i, w_r + w_i, None)
    else:
        b_r, b_i = complex_to_real(bias)
        a, b, c = conv(i_r, w_r, b_r), conv(i_i, w_i, None), conv(i_r + i_i, w_r + w_i, b_r + b_i)
    from .._ops_math import _scalar_mul

    return a - b + _scalar_mul(c - a - b, 1j)   # (C++'s i * tensor: the Scalar overload, MulBackward1)


def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0, dilation=1,
           groups: int = 1) -> Tensor:
    """1-d convolution (cross-correlation) of (N, C_in, L) with weight (C_out, C_in/groups, k), plus bias."""
    if _AUTOCAST[0]:
        return _autocast("conv1d", conv1d, **locals())
    _check_bias_type(input, bias, padding)
    return _conv_nd(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0, dilation=1,
           groups: int = 1) -> Tensor:
    """2-d convolution (cross-correlation) of (N, C_in, H, W) with weight (C_out, C_in/groups, kH, kW), plus bias."""
    if _AUTOCAST[0]:
        return _autocast("conv2d", conv2d, **locals())
    _check_bias_type(input, bias, padding)
    return _conv_nd(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


def _conv_transpose_nd(input: Tensor, weight: Tensor, bias, stride, padding, output_padding, groups: int, dilation,
                       k: int, name: str) -> Tensor:
    """conv_transpose1d / conv_transpose2d: a batch dim for unbatched input, checks, then the convolution op."""
    if isinstance(padding, str):
        raise TypeError(f"{name}(): argument 'padding' must be tuple of ints, not str")
    if input.dim() not in (k + 1, k + 2):
        raise RuntimeError(f"Expected {k + 1}D (unbatched) or {k + 2}D (batched) input to {name}, but got input of "
                           f"size: {list(input.shape)}")
    batched = input.dim() == k + 2
    if not batched:
        input = input.unsqueeze(0)
    stride, padding, output_padding, dilation = (_size_arg(v, k) for v in (stride, padding, output_padding, dilation))
    _check_convolution(input, weight, bias, stride, padding, dilation, groups, transposed=True,
                       output_padding=output_padding)
    _check_conv_backend(input, weight, groups, transposed=True)
    out = _convolution(input, weight, bias, stride, padding, dilation, True, output_padding, groups)
    return out if batched else out.squeeze(0)


def conv_transpose1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
                     output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    """1-d transposed convolution of (N, C_in, L) with weight (C_in, C_out/groups, k): the gradient of conv1d."""
    if _AUTOCAST[0]:
        return _autocast("conv_transpose1d", conv_transpose1d, **locals())
    return _conv_transpose_nd(input, weight, bias, stride, padding, output_padding, groups, dilation, 1,
                              "conv_transpose1d")


def conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
                     output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    """2-d transposed convolution of (N, C_in, H, W) with weight (C_in, C_out/groups, kH, kW)."""
    if _AUTOCAST[0]:
        return _autocast("conv_transpose2d", conv_transpose2d, **locals())
    return _conv_transpose_nd(input, weight, bias, stride, padding, output_padding, groups, dilation, 2,
                              "conv_transpose2d")


def _pool_arg(value, name: str, what: str) -> tuple:
    """A pooling size argument as saved: an int becomes (v, v); a sequence of one or two ints stays as given."""
    values = _size_arg(value, 2)
    if len(values) not in (1, 2):
        raise RuntimeError(f"{name}: {what}")
    return values


def _pool_output(size: int, kernel: int, pad_: int, stride: int, dilation: int, ceil_mode: bool) -> int:
    """PyTorch's pooling_output_shape, with its checks."""
    if stride == 0:
        raise RuntimeError("stride should not be zero")
    if pad_ < 0:
        raise RuntimeError(f"pad must be non-negative, but got pad: {pad_}")
    effective = (kernel - 1) * dilation + 1
    if pad_ > (effective // 2 if effective >= 0 else -(-effective // 2)):   # (C++'s division: toward zero)
        raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={pad_}, "
                           f"kernel_size={kernel} and dilation={dilation}")
    from .._conv import out_size
    return out_size(size, kernel, stride, pad_, dilation, ceil_mode)


def _check_pool2d(input: Tensor, kernel, stride, padding, dilation, ceil_mode: bool) -> None:
    """PyTorch's pooling_output_shape and pool2d_shape_check on the expanded sizes."""
    height, width = input.shape[-2:]
    out_h = _pool_output(height, kernel[0], padding[0], stride[0], dilation[0], ceil_mode)
    out_w = _pool_output(width, kernel[1], padding[1], stride[1], dilation[1], ceil_mode)
    if kernel[0] <= 0 or kernel[1] <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got kH: {kernel[0]} kW: {kernel[1]}")
    if stride[0] <= 0 or stride[1] <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got dH: {stride[0]} dW: {stride[1]}")
    if dilation[0] <= 0 or dilation[1] <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got dilationH: {dilation[0]} dilationW: "
                           f"{dilation[1]}")
    shape = input.shape
    valid = shape[1] != 0 and shape[2] != 0 if input.dim() >= 3 else False
    if not ((input.dim() == 3 and shape[0] != 0 and valid) or (input.dim() == 4 and valid and shape[3] != 0)):
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:"
                           f"{list(shape)}")
    if kernel[1] // 2 < padding[1] or kernel[0] // 2 < padding[0]:
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but got padW = {padding[1]}, "
                           f"padH = {padding[0]}, kW = {kernel[1]}, kH = {kernel[0]}")
    if out_w < 1 or out_h < 1:
        planes = input.shape[-3]
        raise RuntimeError(f"Given input size: ({planes}x{height}x{width}). Calculated output size: "
                           f"({planes}x{out_h}x{out_w}). Output size is too small")


def _bool_flags(name: str, position: int | None, **flags) -> None:
    """A bool flag that is no bool (ceil_mode=1): the TypeError of the parser of the C function ``name`` that
    PyTorch's pooling (embedding, batch_norm) calls; F.max_pool2d passes ceil_mode on as argument 6, avg_pool2d
    is the C function itself, whose wrapper numbers the argument as given (overrides, _arg_errors.reparse)."""
    from .._arg_errors import must_be
    for arg, value in flags.items():
        if value is not True and value is not False:
            raise must_be(name, arg, "bool", value, position)


def _two(values: tuple) -> tuple:
    return values * 2 if len(values) == 1 else values


def max_pool2d_with_indices(input: Tensor, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
                            return_indices: bool = True):
    """(max of each kernel_size window, flat index of that max in its H×W plane)."""
    _bool_flags("max_pool2d_with_indices", 6, ceil_mode=ceil_mode)
    kernel = _pool_arg(kernel_size, "max_pool2d", "kernel_size must either be a single int, or a tuple of two ints")
    stride = () if stride is None else _size_arg(stride, 2)
    if len(stride) not in (0, 1, 2):
        raise RuntimeError("max_pool2d: stride must either be omitted, a single int, or a tuple of two ints")
    padding = _pool_arg(padding, "max_pool2d", "padding must either be a single int, or a tuple of two ints")
    dilation = _pool_arg(dilation, "max_pool2d", "dilation must be either a single int, or a tuple of two ints")
    if input.dim() not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    _check_pool2d(input, _two(kernel), _two(stride) if stride else _two(kernel), _two(padding), _two(dilation),
                  ceil_mode)
    _pool_kernel(input, "max_pool2d")
    return _D.max_pool2d_with_indices(input, kernel_size=kernel, stride=stride, padding=padding, dilation=dilation,
                                     ceil_mode=bool(ceil_mode))


def max_pool2d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
               return_indices: bool = False):
    """The max of each kernel_size window (stride defaults to kernel_size); with return_indices, also where it was."""
    _bool_flags("max_pool2d_with_indices" if return_indices else "max_pool2d", 6, ceil_mode=ceil_mode)
    values, indices = max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return (values, indices) if return_indices else values


def avg_pool2d(input: Tensor, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
    """The mean of each kernel_size window (divided by divisor_override when given)."""
    _bool_flags("avg_pool2d", None, ceil_mode=ceil_mode, count_include_pad=count_include_pad)
    kernel = _pool_arg(kernel_size, "avg_pool2d", "kernel_size must either be a single int, or a tuple of two ints")
    stride = () if stride is None else _size_arg(stride, 2)
    if len(stride) not in (0, 1, 2):
        raise RuntimeError("avg_pool2d: stride must either be omitted, a single int, or a tuple of two ints")
    padding = _pool_arg(padding, "avg_pool2d", "padding must either be a single int, or a tuple of two ints")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    _ops._wrap_dim(-3, input.dim())   # PyTorch reads input.size(-3) first: an IndexError below 3 dims
    _check_pool2d(input, _two(kernel), _two(stride) if stride else _two(kernel), _two(padding), (1, 1), ceil_mode)
    _pool_kernel(input, "avg_pool2d")
    return _D.avg_pool2d(input, kernel_size=kernel, stride=stride, padding=padding, ceil_mode=bool(ceil_mode),
                        count_include_pad=bool(count_include_pad), divisor_override=divisor_override)


def _mean_keeping_channels_last(input: Tensor, dims: tuple) -> Tensor:
    """Adaptive average pooling to one value per channel, as PyTorch's shortcut: the mean over ``dims``, restrided
    in place (``as_strided_``: an AsStridedBackward1 node) to channels_last when the input suggests that layout."""
    from .. import _layout, _strides
    out = input.mean(dims, keepdim=True)
    want = _layout.channels_last if len(dims) == 2 else _layout.channels_last_3d
    if _strides.suggested_memory_format(input._data) is want:
        n, c = input.shape[0], input.shape[1]
        out.as_strided_((n, c, *(1,) * len(dims)), (c, 1, *(c,) * len(dims)))
    return out


def adaptive_avg_pool2d(input: Tensor, output_size) -> Tensor:
    """Average over the windows that split H and W into output_size parts (None keeps that size)."""
    if not isinstance(output_size, int):
        if input.dim() <= len(output_size):
            raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
        output_size = [n if v is None else v for v, n in zip(output_size, input.shape[-len(output_size):])]
        _int_list("adaptive_avg_pool2d", "output_size", output_size, 2)   # (a float size: its parser's error)
    size = _size_arg(output_size, 2)
    if len(size) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    if size[0] < 0 or size[1] < 0:
        raise RuntimeError("adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but "
                           f"received {{{size[0]}, {size[1]}}}")
    if size == (1, 1):   # PyTorch's shortcut: a mean over H and W (its node is MeanBackward1)
        return _mean_keeping_channels_last(input, (-1, -2))
    if input.dim() not in (3, 4):
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {list(input.shape)}")
    for d in (-2, -1):
        if input.shape[d] <= 0:
            raise RuntimeError("adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch dimensions, "
                               f"but input has sizes {list(input.shape)} with dimension {d + input.dim()} being empty")
    if not input.dtype.is_floating_point and 0 not in size:   # (an empty output runs no kernel)
        raise NotImplementedError(f"\"adaptive_avg_pool2d\" not implemented for '{_ops._legacy(input.dtype)}'")
    return _D.adaptive_avg_pool2d(input, output_size=size)


# 1-d pooling is 2-d pooling of height 1, as in PyTorch: unsqueeze(-2), pool, squeeze(-2).

def _check_dim_range(name: str, input: Tensor) -> None:
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional tensor for argument #1 "
                           f"'self' (while checking arguments for {name})")


def _check1d(name: str, values: tuple, argument: str) -> None:
    if len(values) != 1:
        raise RuntimeError(f"{name}() argument '{argument}' should contain one int (got {len(values)})")


def _pool1d_sizes(name: str, input: Tensor, sizes: dict) -> tuple:
    """PyTorch's checks of its 1-d pooling wrappers (checkDimRange, check1d), then the sizes as numbers."""
    _check_dim_range(name, input)
    for argument, values in sizes.items():
        _check1d(name, values, argument)
    return tuple(values[0] for values in sizes.values())


def max_pool1d_with_indices(input: Tensor, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
                            return_indices: bool = True):
    """(max of each window along the last dim, index of that max)."""
    _bool_flags("max_pool1d_with_indices", 6, ceil_mode=ceil_mode)
    kernel = _size_arg(kernel_size, 1)
    k, s, p, d = _pool1d_sizes("max_pool1d", input, {
        "kernel_size": kernel, "stride": kernel if stride is None else _size_arg(stride, 1),
        "padding": _size_arg(padding, 1), "dilation": _size_arg(dilation, 1)})
    values, indices = max_pool2d_with_indices(input.unsqueeze(-2), (1, k), (1, s), (0, p), (1, d), ceil_mode)
    return values.squeeze(-2), indices.squeeze(-2)


def max_pool1d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
               return_indices: bool = False):
    """The max of each kernel_size window along the last dim (stride defaults to kernel_size)."""
    _bool_flags("max_pool1d_with_indices" if return_indices else "max_pool1d", 6, ceil_mode=ceil_mode)
    if return_indices:
        return max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    shape = input.shape   # PyTorch's max_pool1d checks (check_max_pool1d), in its order
    if not ((input.dim() == 2 and shape[0] != 0 and shape[1] != 0) or
            (input.dim() == 3 and shape[1] != 0 and shape[2] != 0)):
        raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                           f"input, but got:{list(shape)}")
    kernel, padding_, dilation_ = _size_arg(kernel_size, 1), _size_arg(padding, 1), _size_arg(dilation, 1)
    stride_ = () if stride is None else _size_arg(stride, 1)
    for values, what in ((kernel, "kernel_size must be an int, list of ints or tuple of ints"),
                         (stride_, "stride must be None, an int, list of ints, or tuple of ints"),
                         (padding_, "padding must be an int, list of ints, or tuple of ints"),
                         (dilation_, "dilation must be an int, list of ints or tuple of ints")):
        if len(values) != 1 and not (values is stride_ and not values):
            raise RuntimeError(f"max_pool1d() {what} of size 1 but got size {len(values)}")
    (k,), (p,), (d,) = kernel, padding_, dilation_
    s = stride_[0] if stride_ else k
    for ok, message in ((k > 0, f"kernel_size must be greater than zero, but got {k}"),
                        (s > 0, f"stride must be greater than zero, but got {s}"),
                        (p >= 0, f"padding must be non-negative, but got {p}"),
                        (p <= k // 2, f"padding should be at most half of kernel size, but got padding={p} and "
                                      f"kernel_size={k}"),
                        (d > 0, f"dilation must be greater than zero, but got {d}")):
        if not ok:
            raise RuntimeError(f"max_pool1d() {message}")
    from .._conv import out_size
    width = out_size(shape[-1], k, s, p, d, ceil_mode)
    if width <= 0:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {width}")
    if not (input.requires_grad and _ops.grad_mode.is_grad_enabled()):   # (else: max_pool2d's kernel)
        _pool_kernel(input, "max_pool1d_impl")
    return max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)[0]


def avg_pool1d(input: Tensor, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True) -> Tensor:
    """The mean of each kernel_size window along the last dim (stride defaults to kernel_size)."""
    _bool_flags("avg_pool1d", None, ceil_mode=ceil_mode, count_include_pad=count_include_pad)
    kernel = _size_arg(kernel_size, 1)
    k, s, p = _pool1d_sizes("avg_pool1d", input, {
        "kernel_size": kernel, "stride": kernel if stride is None else _size_arg(stride, 1),
        "padding": _size_arg(padding, 1)})
    return avg_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, p), ceil_mode, count_include_pad).squeeze(-2)


def adaptive_avg_pool1d(input: Tensor, output_size) -> Tensor:
    """Average over the windows that split the last dim into output_size parts."""
    sizes = {"output_size": _int_list("adaptive_avg_pool1d", "output_size", output_size, 2, True)}
    (size,) = _pool1d_sizes("adaptive_avg_pool1d", input, sizes)
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, size)).squeeze(-2)


def _verify_batch_size(size) -> None:
    count = size[0]
    for n in size[2:]:
        count *= n
    if count == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")


def _check_mixed_type(input: Tensor, *params) -> None:
    """PyTorch's CPU mixed-type rule: parameters of another dtype than the input only as float32 with a
    bfloat16/float16 input (what autocast makes: a bfloat16 activation into a float32 BatchNorm)."""
    given = [p for p in params if p is not None]
    if not given or given[0].dtype is input.dtype:
        for p in given:   # (not a mixed type: the kernel reads every parameter as the input's type)
            if p.dtype is not input.dtype:
                raise RuntimeError(f"expected scalar type {_ops._legacy(input.dtype)} but found "
                                   f"{_ops._legacy(p.dtype)}")
        return
    if any(p.dtype is not _dtypes.float32 for p in given):
        raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
    if input.dtype not in (_dtypes.bfloat16, _dtypes.float16):
        raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")


def batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None, weight: Tensor | None = None,
               bias: Tensor | None = None, training: bool = False, momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Normalize each channel (dim 1) by the batch's mean and variance (training) or the running ones (eval).

    In training the running statistics, when given, are updated in place:
    running = (1 - momentum)·running + momentum·batch (the unbiased variance for running_var).
    """
    if training:
        _verify_batch_size(input.size())
    if training and eps <= 0.0:
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    if eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    _bool_flags("batch_norm", 6, training=training)   # (torch.batch_norm's parser: training=1)
    return _batch_norm("batch_norm", input, running_mean, running_var, weight, bias, training, momentum, eps)


def _batch_norm(name: str, input: Tensor, running_mean, running_var, weight, bias, training, momentum, eps) -> Tensor:
    """ATen's batch_norm (after F.batch_norm's Python checks; instance_norm's too, which has none of them)."""
    if momentum is None:   # (F.batch_norm's None momentum is for the modules, which pass a number)
        from .._arg_errors import must_be
        raise must_be(name, "momentum", "float", momentum, 7)
    # (PyTorch reads sizes()[1] unchecked: 0 for a 1-d input, which then fails on its dim 1 further on)
    features = 0 if input.dim() == 1 else input.shape[_ops._wrap_dim(1, input.dim())]
    if input.numel() == 0:   # PyTorch: a copy (not a view, nor a new empty tensor, so the graph goes on)
        out = input.clone()   # (weight[0] in C++: select, with select's error for an empty weight)
        out = out if weight is None else out * weight.select(0, 0)
        return out if bias is None else out + bias.select(0, 0)
    for t, arg in ((running_mean, "running_mean"), (running_var, "running_var"), (weight, "weight"), (bias, "bias")):
        if t is not None and t.numel() != features:
            raise RuntimeError(f"{arg} should contain {features} elements not {t.numel()}")
        if t is None and arg.startswith("running") and not training:
            raise RuntimeError(f"{arg} must be defined in evaluation mode")
    if (running_mean is None) != (running_var is None):
        raise ValueError("running_mean and running_var must either both be None or neither be None")
    if input.dim() == 1:
        _ops._wrap_dim(1, 1)
    if not input.dtype.is_floating_point:   # (its kernel's dtype dispatch, before the mixed-dtype rule)
        raise NotImplementedError(f"\"batch_norm\" not implemented for '{_ops._legacy(input.dtype)}'")
    # (instance_norm's repeated running statistics are not read as parameters: PyTorch takes them of any dtype)
    _check_mixed_type(input, weight, bias, *((running_mean, running_var) if name == "batch_norm" else ()))
    _no_grad_arg(running_mean, "running_mean", "native_batch_norm")
    _no_grad_arg(running_var, "running_var", "native_batch_norm")
    if training and _vmap_batched.DEPTH[0]:  # (running stats updated in place must be batched as the input is)
        _vmap_batched.check_batch_norm(input, running_mean, running_var)
    stand_in = _D.absent(input.dtype.np)
    return _D.native_batch_norm(input, stand_in if weight is None else weight, stand_in if bias is None else bias,
                               running_mean=running_mean, running_var=running_var, training=bool(training),
                               momentum=float(momentum), eps=float(eps))[0]


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero whole channels (each (H, W) plane) with probability p, scaling the rest by 1/(1-p)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if input.dim() not in (3, 4):
        warnings.warn(f"dropout2d: Received a {input.dim()}-D input to dropout2d, which is deprecated and will result "
                      "in an error in a future release. To retain the behavior and silence this warning, please use "
                      "dropout instead. Note that dropout2d exists to provide channel-wise dropout on inputs with 2 "
                      "spatial dimensions, a channel dimension, and an optional batch dimension (i.e. 3D or 4D "
                      "inputs).", UserWarning, stacklevel=_user_stacklevel())
    if input.dim() == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior "
                      "is desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior "
                      "will change in a future release to interpret the input as one without a batch dimension, i.e. "
                      "shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using "
                      "dropout1d instead.", UserWarning, stacklevel=_user_stacklevel())
    if not training or p == 0 or input.numel() == 0:
        return input
    _check_dropout_noise(input, p, feature=True)
    # one draw per (sample, channel), broadcast over the plane: y = x · mask/(1-p), a MulBackward0
    noise = _dropout_mask(input, input.shape[:2] + (1,) * (input.dim() - 2), p)
    return input.mul_(noise) if inplace else _ops.mul(input, noise)


__all__ += [
    "adaptive_avg_pool1d", "adaptive_avg_pool2d", "avg_pool1d", "avg_pool2d", "batch_norm", "conv1d", "conv2d",
    "dropout2d", "max_pool1d", "max_pool1d_with_indices", "max_pool2d", "max_pool2d_with_indices",
]


# =============================================================================================
# Transposed convolution and padding modes (the convolution node is derivatives.py's ``convolution``;
# reflection/replication padding are that file's "Recurrent layers and padding modes" rows)
# =============================================================================================

_PAD_COMBINATIONS = ("Supported combinations for non-constant padding:\n"
                     "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
                     "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
                     "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")


def _pad_modes(input: Tensor, pad: tuple, mode: str, value) -> Tensor:
    """F.pad's "reflect", "replicate" and "circular" modes (PyTorch's _pad_enum), over the last 1, 2 or 3 dims."""
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    k = len(pad) // 2
    if not (1 <= k <= 3 and input.dim() in (k + 1, k + 2)):
        raise NotImplementedError(f"Padding size {len(pad)} is not supported for {input.dim()}D input tensor.\n"
                                  + _PAD_COMBINATIONS)
    if mode == "circular":
        return _pad_circular(input, pad)
    _check_pad_shape(input, pad, mode, k)
    name = f"{'reflection' if mode == 'reflect' else 'replication'}_pad{k}d"
    if input.dtype is _dtypes.bool_:   # (their kernels have every dtype but bool)
        raise NotImplementedError(f"\"{name}\" not implemented for 'Bool'")
    return getattr(_D, name)(input, padding=pad)


def _check_pad_shape(input: Tensor, pad: tuple, mode: str, k: int) -> None:
    """The reflection/replication kernels' checks, in their order and with their messages."""
    shape = list(input.shape)
    if 0 in (shape[1:] if input.dim() == k + 2 else shape):   # (only a batch dim may be empty)
        raise RuntimeError(f"Expected {k + 1}D or {k + 2}D (batch mode) tensor with possibly 0 batch size and other "
                           f"non-zero dimensions for input, but got: {shape}")
    out = list(shape)
    for i in range(k):
        dim = input.dim() - 1 - i
        before, after = pad[2 * i], pad[2 * i + 1]
        if mode == "reflect" and (before >= shape[dim] or after >= shape[dim]):   # one reflection at most
            raise RuntimeError(f"Argument #{4 + 2 * i}: Padding size should be less than the corresponding input "
                               f"dimension, but got: padding ({before}, {after}) at dimension {dim} of input {shape}")
        out[dim] = shape[dim] + before + after
    if k == 1 and out[-1] < 1:
        raise RuntimeError(f"input (W: {shape[-1]}) is too small. Calculated output W: {out[-1]}")
    negative = [n for n in out if n < 0]
    if negative:
        raise RuntimeError(f"Trying to create tensor with negative dimension {negative[0]}: {out}")


def _pad_circular(input: Tensor, pad: tuple) -> Tensor:
    """PyTorch's _pad_circular: the input copied into the middle of a new tensor, then each padded dim's
    edges copied from the far side of that tensor (slices and copy_, so the graph is CopySlices nodes)."""
    shape = list(input.shape)
    out_shape = list(shape)
    dims = [(input.dim() - 1 - i, pad[2 * i], pad[2 * i + 1]) for i in range(len(pad) // 2)]
    for dim, before, after in dims:
        out_shape[dim] = shape[dim] + before + after
        if before > shape[dim] or after > shape[dim]:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if out_shape[dim] < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
    out = input.new_empty(out_shape)
    out_slice, in_slice = out, input
    for dim, before, after in dims:   # negative padding crops the input instead
        out_slice = out_slice.narrow(dim, max(before, 0), out_shape[dim] - max(before, 0) - max(after, 0))
        in_slice = in_slice.narrow(dim, max(-before, 0), shape[dim] - max(-before, 0) - max(-after, 0))
    out_slice.copy_(in_slice)
    for dim, before, after in dims:   # (corners are written more than once when several dims are padded)
        if before > 0:
            out.narrow(dim, 0, before).copy_(out.narrow(dim, out_shape[dim] - before - max(after, 0), before))
        if after > 0:
            out.narrow(dim, out_shape[dim] - after, after).copy_(out.narrow(dim, max(before, 0), after))
    return out


__all__ += ["conv_transpose1d", "conv_transpose2d"]


# =============================================================================================
# More layers' functions: threshold, prelu, group/instance norm, alpha and feature dropouts.
# Composites of table ops (their nodes are those ops' nodes, not PyTorch's fused kernels' ones).
# =============================================================================================

def _threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    """x where x > threshold, else value."""
    if inplace and input._requires_grad:  # (an in-place call: the leaf's refusal first)
        _dispatch._check_inplace(input, False)
    if input.dtype.is_complex or input.dtype is _dtypes.bool_:   # (its kernel: real numbers only)
        raise NotImplementedError(f"\"threshold_cpu\" not implemented for '{_ops._legacy(input.dtype)}'")
    threshold, value = _scalar(threshold, input.dtype, True), _scalar(value, input.dtype)  # (value: its own type)
    if input.dtype._kind == 1:  # (converted to an integer dtype as C++ casts: -2 into uint8 is 254)
        threshold, value = (np.array(int(v)).astype(input.dtype.np).item() for v in (threshold, value))
    if not inplace:
        return _D.threshold(input, threshold=threshold, value=value)
    return _D.threshold_inplace(input, out=input, threshold=threshold, value=value)


threshold = _threshold   # (PyTorch's name, as its own: F.threshold(x, 0.5) says "_threshold() missing 1 ...")


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """x where x > 0, else weight·x (one slope, or one per channel: dim 1)."""
    if _AUTOCAST[0]:
        return _autocast("prelu", prelu, **locals())
    if input.dtype is not weight.dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got {_ops._legacy(input.dtype)} and "
                           f"{_ops._legacy(weight.dtype)}")
    if weight.numel() != 1:
        if input.dim() == 0:  # (one slope per channel needs channels)
            raise RuntimeError("Not allow zero-dim input tensor.")
        if input.dim() < 2 or weight.numel() != input.shape[1]:
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                               f"{weight.numel()} and channel size = {input.shape[1] if input.dim() > 1 else 1}.")
    if weight.dim() > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.dim()}")
    # PyTorch views the weight with the input's rank (the slopes along dim 1), then calls _prelu_kernel
    # (no view when the ranks already agree: a (1,) weight of a 1-d input is passed as it is)
    if input.dtype._kind != 2:   # (floating types only: no integer, bool or complex kernel)
        raise NotImplementedError(f"\"prelu_cpu\" not implemented for '{_ops._legacy(input.dtype)}'")
    shape = [1] * input.dim()
    if weight.numel() != 1:
        shape[1] = weight.numel()
    return _D.prelu_kernel(input, weight if weight.dim() == input.dim() else weight.reshape(shape))


def _check_group_norm_params(input: Tensor, weight: Tensor | None, bias: Tensor | None) -> None:
    """PyTorch's _check_group_norm_inputs on weight and bias: vectors of C elements."""
    c = input.shape[1]
    for t, name in ((weight, "weight"), (bias, "bias")):
        if t is not None and (t.dim() != 1 or t.numel() != c):
            # (PyTorch's bias message prints the weight's shape, [0] when there is no weight)
            shape = [0] if weight is None else list(weight.shape)
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of channels in input, but "
                               f"got {name} of shape {shape} and input of shape {list(input.shape)}")


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None, bias: Tensor | None = None,
               eps: float = 1e-5) -> Tensor:
    """Normalize each group of channels of each sample (mean 0, variance 1), then ·weight + bias per channel."""
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.dim()}")
    n, c = input.shape[0], input.shape[1]
    # (PyTorch's _verify_batch_size on the grouped shape comes first, with the shape printed as a list)
    grouped = [n * c // num_groups, num_groups, *input.shape[2:]]
    if grouped[0] * math.prod(grouped[2:]) == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {grouped}")
    from .._arg_errors import _is_index, must_be
    if not _is_index(num_groups):   # (then torch.group_norm's parser: GroupNorm(c / 2, c) passes a float)
        raise must_be("group_norm", "num_groups", "int", num_groups, 2)
    if type(eps) is not float and isinstance(eps, Tensor) and eps.dim() == 0 and not eps.requires_grad:
        eps = float(eps)   # (its parser reads a 0-dim tensor as the float; others fail below, then its TypeError)
    if num_groups <= 0:
        raise RuntimeError(f"Expected num groups to be greater than 0, got {num_groups}")
    if c % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, but got input of "
                           f"shape {list(input.shape)} and num_groups={num_groups}")
    _check_group_norm_params(input, weight, bias)
    _check_mixed_type(input, weight, bias)
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"GroupNormKernelImpl\" not implemented for '{_ops._legacy(input.dtype)}'")
    stand_in = _D.absent(input.dtype.np)   # (a missing weight or bias: the node shows None, as PyTorch's)
    from .. import _strides
    # (PyTorch's CPU group_norm runs on input.contiguous(input.suggest_memory_format()): a CloneBackward0 first for
    # an input in neither layout)
    input = input.contiguous(memory_format=_strides.suggested_memory_format(input._data))
    return _D.native_group_norm(input, stand_in if weight is None else weight, stand_in if bias is None else bias,
                               N=n, C=c, HxW=math.prod(input.shape[2:]), group=num_groups, eps=eps)[0]


def instance_norm(input: Tensor, running_mean=None, running_var=None, weight: Tensor | None = None,
                  bias: Tensor | None = None, use_input_stats: bool = True, momentum: float = 0.1,
                  eps: float = 1e-5) -> Tensor:
    """Normalize each channel of each sample over its spatial dims, then ·weight + bias per channel."""
    if use_input_stats and math.prod(input.shape[2:]) == 1:   # (PyTorch's _verify_spatial_size)
        raise ValueError(f"Expected more than 1 spatial element when training, got input size {input.shape}")
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError("Expected running_mean and running_var to be defined when use_input_stats is false")
    n, c = input.size(0), input.size(1)   # (a 1-d input: size(1)'s IndexError, as PyTorch's)
    # (in ATen's order: the repeated weight and bias are made before the folded input's view)
    w = weight.repeat(n) if weight is not None else None
    b = bias.repeat(n) if bias is not None else None
    if running_var is None and running_mean is not None and \
            running_mean.dtype is not (input if weight is None else weight).dtype:
        # (ATen casts both statistics to the weight's dtype (or input's) before any size check: the missing
        # running_var is read as a tensor)
        raise RuntimeError("Expected a proper Tensor but got None (or an undefined Tensor in C++) for argument #0 "
                           "'self'")
    # (statistics of another dtype are updated in the input's, then copied back)
    rm = running_mean.repeat(n).to(input.dtype) if running_mean is not None else None
    rv = running_var.repeat(n).to(input.dtype) if running_var is not None else None
    # PyTorch's instance norm: batch norm of (1, N·C, ...), as input.contiguous().view(...) (a CloneBackward0 and a
    # ViewBackward0 for a non-contiguous input, never a copying reshape's _unsafe_view)
    folded = input.contiguous().view(1, n * c, *input.shape[2:])
    out = _batch_norm("instance_norm", folded, rm, rv, w, b, use_input_stats, momentum, eps)
    if running_mean is not None and use_input_stats:
        from .. import no_grad
        with no_grad():   # the per-sample running statistics averaged back into the channels'
            running_mean.copy_(rm.view(n, c).mean(0))
            running_var.copy_(rv.view(n, c).mean(0))
    return out.view(input.shape)


_SELU_ALPHA_PRIME = 1.7580993408473766   # -SELU's scale·alpha: where alpha dropout sends dropped values


def _feature_noise_shape(input: Tensor, feature: bool) -> tuple:
    return input.shape[:2] + (1,) * (input.dim() - 2) if feature else input.shape


def _alpha_dropout(input: Tensor, p: float, training: bool, inplace: bool, feature: bool) -> Tensor:
    """PyTorch's _dropout_impl for alpha dropout: keep mask b ~ Bernoulli(1-p), x·a·b + α'a(b - 1 + p)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0 or input.numel() == 0:
        return input
    if p == 1:
        return input.mul_(0) if inplace else input * _ops.zeros_like(input)
    _check_dropout_noise(input, p, feature, alpha=True)
    from .. import no_grad
    with no_grad():
        noise = input.new_empty(_feature_noise_shape(input, feature)).bernoulli_(1 - p)
        a = 1.0 / np.sqrt((_SELU_ALPHA_PRIME * _SELU_ALPHA_PRIME * p + 1) * (1 - p))
        b = noise.add(-1).mul_(_SELU_ALPHA_PRIME * a).add_(_SELU_ALPHA_PRIME * a * p)
        noise.mul_(a)
    return input.mul_(noise).add_(b) if inplace else (input * noise).add_(b)


def alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:
    """Dropout that keeps a SELU network's mean and variance (dropped values go to -SELU's saturation)."""
    return _alpha_dropout(input, p, training, inplace, feature=False)


def feature_alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:
    """Alpha dropout of whole channels."""
    return _alpha_dropout(input, p, training, inplace, feature=True)


def _feature_dropout(input: Tensor, p: float, training: bool, inplace: bool, batched_dim: int, name: str) -> Tensor:
    """Zero whole channels (dim 1 of a batched input, dim 0 of an unbatched one), scaling the rest by 1/(1-p)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if name == "dropout3d" and input.dim() not in (4, 5):  # (PyTorch's dropout3d only warns, then goes on)
        warnings.warn(f"dropout3d: Received a {input.dim()}-D input to dropout3d, which is deprecated and will result "
                      "in an error in a future release. To retain the behavior and silence this warning, please use "
                      "dropout instead. Note that dropout3d exists to provide channel-wise dropout on inputs with 3 "
                      "spatial dimensions, a channel dimension, and an optional batch dimension (i.e. 4D or 5D "
                      "inputs).", UserWarning, stacklevel=_user_stacklevel())
    elif input.dim() not in (batched_dim - 1, batched_dim):
        raise RuntimeError(f"{name}: Expected {batched_dim - 1}D or {batched_dim}D input, but received a "
                           f"{input.dim()}D input. Note that {name} exists to provide channel-wise dropout on "
                           f"inputs with {batched_dim - 2} spatial dimension{'s' if batched_dim > 3 else ''}, a "
                           "channel dimension, and an optional batch dimension (i.e. "
                           f"{batched_dim - 1}D or {batched_dim}D inputs).")
    if inplace and input.dim() != batched_dim:   # (PyTorch's Python: unsqueeze_(0), feature_dropout_, squeeze_(0))
        input.unsqueeze_(0)   # (in place: a leaf that requires grad is refused here, whatever p and training)
        if training and p != 0 and input.numel():
            _check_dropout_noise(input, p, feature=True)
            input.mul_(_dropout_mask(input, _feature_noise_shape(input, True), p))
        return input.squeeze_(0)
    if not training or p == 0 or input.numel() == 0:   # (unbatched: PyTorch's unsqueeze(0) ... squeeze(0), a view)
        return input if input.dim() == batched_dim else input.unsqueeze(0).squeeze(0)
    batched = input if input.dim() == batched_dim else input.unsqueeze(0)
    _check_dropout_noise(batched, p, feature=True)   # (of the unsqueezed input: dropout3d of a 1-D one runs)
    noise = _dropout_mask(batched, _feature_noise_shape(batched, True), p)
    if inplace:
        return input.mul_(noise if input.dim() == batched_dim else noise.squeeze(0))
    out = _ops.mul(batched, noise)
    return out if input.dim() == batched_dim else out.squeeze(0)


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero whole channels of (N, C, L) or (C, L) inputs with probability p."""
    return _feature_dropout(input, p, training, inplace, 3, "dropout1d")


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero whole channels of (N, C, D, H, W) or (C, D, H, W) inputs with probability p."""
    return _feature_dropout(input, p, training, inplace, 5, "dropout3d")


__all__ += ["alpha_dropout", "dropout1d", "dropout3d", "feature_alpha_dropout", "group_norm", "instance_norm",
            "prelu", "threshold"]


from .._interpolate import nearest_source as _nearest_source  # noqa: E402  (the kernels' module owns it)


def _check_upsample_sizes(input: Tensor, sizes) -> None:
    """upsample_*'s checks that no input or output spatial size is 0 (PyTorch's message, per dim count), and
    that an empty input is one with an empty batch."""
    dims = input.dim() - 2
    if any(s <= 0 for s in input.shape[2:]) or any(s <= 0 for s in sizes):
        names = "DHW"[-dims:]
        got_in = ", ".join(f"{n}: {s}" for n, s in zip(names, input.shape[2:]))
        got_out = ", ".join(f"{n}: {s}" for n, s in zip(names, sizes))
        joiner = " and " if dims == 1 else " "   # (PyTorch's 2-D and 3-D messages have no "and")
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input ({got_in}){joiner}"
                           f"output ({got_out})")
    # Then the kernels' own check: an empty batch is fine, an empty channel dim is not.
    if input.numel() == 0 and math.prod(input.shape[1:]) == 0:
        raise RuntimeError(f"Non-empty {input.dim()}D data tensor expected but got a tensor with sizes "
                           f"{list(input.shape)}")


def _check_antialias(input: Tensor, mode: str, antialias: bool) -> None:
    """F.interpolate's antialias check (after the sizes are worked out, before the mode's op)."""
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.dim() == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a 4-D "
                         "tensor as input")


def _interp_sizes(input: Tensor, size, scale_factor, recompute_scale_factor) -> tuple:
    """F.interpolate's output sizes and scales (None when recomputed or given by size), with its ValueErrors."""
    dims = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    scales = None
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != dims:
                raise ValueError("Input and output must have the same number of spatial dimensions, but got input "
                                 f"with spatial dimensions of {list(input.shape[2:])} and output size of {size}. "
                                 "Please provide input tensor in (N, C, d1, d2, ...,dK) format and output size in "
                                 "(o1, o2, ...,oK) format.")
            if not all(isinstance(s, (int, np.integer)) for s in size):
                raise TypeError("expected size to be one of int or Tuple[int] or Tuple[int, int] or "
                                f"Tuple[int, int, int], but got size with types {[type(s) for s in size]}")
            sizes = [int(s) for s in size]
        else:   # (PyTorch passes a lone size on as it is: size=x.shape[-1] / 2 reaches the kernel's parser)
            from .._arg_errors import _is_index
            sizes = [int(size) if _is_index(size) else size] * dims
    elif scale_factor is not None:
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dims:
                raise ValueError("Input and scale_factor must have the same number of spatial dimensions, but got "
                                 f"input with spatial dimensions of {list(input.shape[2:])} and scale_factor of "
                                 f"shape {scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) "
                                 "format and scale_factor in (s1, s2, ...,sK) format.")
            scales = [float(f) for f in scale_factor]
        else:
            scales = [float(scale_factor)] * dims
        # the C++ op truncates in_size * scale; recompute_scale_factor floors in Python and drops the scales
        sizes = [int(input.shape[2 + i] * f) for i, f in enumerate(scales)]
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if recompute_scale_factor:
        sizes = [math.floor(float(input.shape[2 + i]) * f) for i, f in enumerate(scales)]
        scales = None
    return sizes, scales


def _kernel_output_size(name: str, sizes: list, input: Tensor, align_corners=None) -> None:
    """The upsample kernel's parser on the output sizes F.interpolate passes it (a lone float size, repeated):
    PyTorch's "invalid combination of arguments" for its two overloads (``name``: upsample_nearest2d ...)."""
    if all(isinstance(s, (int, np.integer)) for s in sizes):
        return
    from .._arg_errors import invalid_combination
    dims = len(sizes)
    scales = ", ".join(f"float scales{'_' + 'dhw'[3 - dims + i] if dims > 1 else ''} = None" for i in range(dims))
    corners = "" if align_corners is None else "bool align_corners, "
    args = (input, list(sizes)) + (() if align_corners is None else (align_corners,)) + (None,)
    raise invalid_combination(name, args, {}, (
        f"(Tensor input, tuple of ints output_size, {corners}tuple of floats scale_factors)",
        f"(Tensor input, tuple of ints output_size, {corners}{scales}, *, Tensor out = None)"))


def _interpolate_linear(input: Tensor, size, scale_factor, mode: str, align_corners, recompute_scale_factor,
                        antialias: bool) -> Tensor:
    """F.interpolate's "linear" / "bilinear" / "bicubic" / "trilinear" path: PyTorch's argument checks, then
    upsample_*."""
    align_corners = bool(align_corners)
    sizes, scales = _interp_sizes(input, size, scale_factor, recompute_scale_factor)
    _check_antialias(input, mode, antialias)
    wanted = {"linear": 3, "trilinear": 5}.get(mode, 4)
    if input.dim() != wanted:
        if input.dim() not in (3, 4, 5) or mode == "bicubic":   # (PyTorch has no "needs 4D" for bicubic)
            raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) "
                                      "for the modes: nearest | linear | bilinear | bicubic | trilinear | lanczos | "
                                      f"area | nearest-exact (got {mode})")
        raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs {wanted}D input")
    kernel = {"linear": "upsample_linear1d", "bilinear": "upsample_bilinear2d", "bicubic": "upsample_bicubic2d",
              "trilinear": "upsample_trilinear3d"}[mode]
    _kernel_output_size(f"_{kernel}_aa" if antialias else kernel, sizes, input, align_corners)
    _check_upsample_sizes(input, sizes)
    if antialias:   # (PyTorch's _upsample_bilinear2d_aa / _upsample_bicubic2d_aa: float32 and float64 kernels)
        if input.dtype == _dtypes.uint8:
            raise NotImplementedError("minigrad: uint8 antialiased interpolation is not implemented")
        if input.dtype not in (_dtypes.float32, _dtypes.float64):
            raise NotImplementedError('"compute_index_ranges_weights" not implemented for '
                                      f"'{_LEGACY_NAMES.get(input._data.dtype.name, input._data.dtype.name)}'")
        resize = _D.upsample_bicubic2d_aa if mode == "bicubic" else _D.upsample_bilinear2d_aa
        return resize(input, output_size=tuple(sizes), align_corners=align_corners,
                      scales_h=None if scales is None else scales[0], scales_w=None if scales is None else scales[1])
    if not input.is_floating_point():   # the kernel's dtype dispatch (uint8 bilinear has a kernel not done here)
        if mode == "bilinear" and input.dtype == _dtypes.uint8:
            raise NotImplementedError("minigrad: uint8 bilinear interpolation is not implemented")
        kernel = "upsample_bilinear2d_channels_last" if mode == "bilinear" and sizes[0] + sizes[1] <= 128 \
            else "compute_indices_weights_cubic" if mode == "bicubic" else "compute_indices_weights_linear"
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{_LEGACY_NAMES.get(input._data.dtype.name, input._data.dtype.name)}'")
    if mode == "linear":
        return _D.upsample_linear1d(input, output_size=tuple(sizes), align_corners=align_corners,
                                   scales=None if scales is None else scales[0])
    if mode == "trilinear":
        return _D.upsample_trilinear3d(input, output_size=tuple(sizes), align_corners=align_corners,
                                      **dict(zip(("scales_d", "scales_h", "scales_w"), scales or (None,) * 3)))
    resize = _D.upsample_bicubic2d if mode == "bicubic" else _D.upsample_bilinear2d
    return resize(input, output_size=tuple(sizes), align_corners=align_corners,
                  scales_h=None if scales is None else scales[0], scales_w=None if scales is None else scales[1])


def interpolate(input: Tensor, size=None, scale_factor=None, mode: str = "nearest", align_corners=None,
                recompute_scale_factor=None, antialias: bool = False) -> Tensor:
    """Resize the spatial dims (all after the first two): "nearest", "linear" (3-D), "bilinear"/"bicubic" (4-D),
    "trilinear" (5-D)."""
    if mode in ("linear", "bilinear", "bicubic", "trilinear"):
        return _interpolate_linear(input, size, scale_factor, mode, align_corners, recompute_scale_factor, antialias)
    if mode not in ("nearest", "nearest-exact", "area"):   # (an unknown mode: PyTorch's last error, after the sizes)
        _interp_sizes(input, size, scale_factor, recompute_scale_factor)
        _check_antialias(input, mode, antialias)
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for "
                                  "the modes: nearest | linear | bilinear | bicubic | trilinear | lanczos | area | "
                                  f"nearest-exact (got {mode})")
    if align_corners is not None:
        raise ValueError("align_corners option can only be set with the interpolating modes: linear | bilinear | "
                         "bicubic | trilinear")
    dims = input.dim() - 2
    sizes, scales = _interp_sizes(input, size, scale_factor, recompute_scale_factor)
    scales = scales or [None] * dims
    _check_antialias(input, mode, antialias)
    if input.dim() not in (3, 4, 5):
        raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for "
                                  "the modes: nearest | linear | bilinear | bicubic | trilinear | lanczos | area | "
                                  f"nearest-exact (got {mode})")
    if mode == "area" and 1 <= dims <= 3:  # PyTorch's "area" is adaptive average pooling to the new size
        from .._arg_errors import int_list
        int_list(f"adaptive_avg_pool{dims}d", "output_size", sizes, 2)   # (size=2.5: its parser's error)
        pool = (adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d)[dims - 1]
        return pool(input, sizes[0] if dims == 1 else tuple(int(s) for s in sizes))
    if 1 <= dims <= 3:  # PyTorch's upsample_nearest1d/2d/3d (their own nodes)
        if mode == "nearest-exact" and _vmap_batched.DEPTH[0]:   # (nearest has batch rules, nearest-exact not)
            _vmap_batched.warn_composite_fallback(f"_upsample_nearest_exact{dims}d.vec", input)
        _kernel_output_size(f"{'_upsample_nearest_exact' if mode == 'nearest-exact' else 'upsample_nearest'}{dims}d",
                            sizes, input)
        _check_upsample_sizes(input, sizes)
        if not (input.dtype.is_floating_point or input.dtype == _dtypes.uint8):   # (the kernels' dtype dispatch)
            kernel = "upsample_nearest2d_channels_last" if dims == 2 else "compute_indices_weights_nearest"
            raise NotImplementedError(f"\"{kernel}\" not implemented for '{_ops._legacy(input.dtype)}'")
        names = {1: ("scales",), 2: ("scales_h", "scales_w"), 3: ("scales_d", "scales_h", "scales_w")}[dims]
        ops = ((_D._upsample_nearest_exact1d, _D._upsample_nearest_exact2d, _D._upsample_nearest_exact3d)
               if mode == "nearest-exact" else (_D.upsample_nearest1d, _D.upsample_nearest2d, _D.upsample_nearest3d))
        return ops[dims - 1](input, output_size=tuple(int(s) for s in sizes), **dict(zip(names, scales)))
    out = input
    for i in range(dims):
        index = Tensor._make(_nearest_source(sizes[i], input.shape[2 + i], scales[i]))
        out = out.index_select(2 + i, index)
    return out


__all__ += ["interpolate"]


# ---- in-place activations (F.relu_, F.elu_ ...) and the shrinks -------------------------------------------
# The C++ defaults of these functions are integers (F.elu_(x) saves alpha=1, F.hardtanh_(x) min_val=-1).

def relu_(input: Tensor) -> Tensor:
    """In-place relu."""
    return _ops.relu_(input)


def elu_(input: Tensor, alpha: float = 1) -> Tensor:
    """In-place elu."""
    return elu(input, alpha, inplace=True)


def selu_(input: Tensor) -> Tensor:
    """In-place selu."""
    return selu(input, inplace=True)


def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    """In-place celu."""
    return celu(input, alpha, inplace=True)


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    """In-place leaky_relu."""
    return leaky_relu(input, negative_slope, inplace=True)


def hardtanh_(input: Tensor, min_val: float = -1, max_val: float = 1) -> Tensor:
    """In-place hardtanh."""
    return _hardtanh(input, min_val, max_val, inplace=True)


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:
    """In-place threshold."""
    return _threshold(input, threshold, value, inplace=True)


def _check_shrink(input: Tensor, kernel: str) -> None:
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_ops._legacy(input.dtype)}'")


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """x where |x| > lambd, else 0."""
    _check_shrink(input, "hardshrink_cpu")
    return _D.hardshrink(input, lambd=_scalar(lambd, input.dtype))


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """x - lambd above lambd, x + lambd below -lambd, else 0."""
    lambd = _scalar(lambd, _dtypes.float64)  # (PyTorch's range check takes lambd as a double first)
    _check_shrink(input, "softshrink_check")   # (PyTorch checks lambda's range in a kernel of that name)
    biggest = float(_dtypes.finfo(input.dtype).max)
    if not 0 <= lambd <= biggest:
        big = f"{biggest:.6g}"   # (C++'s default float printing)
        raise RuntimeError(f"lambda must be in range [0, {big}] for input dtype {_ops._legacy(input.dtype)}, but "
                           f"found {lambd:g}")
    return _D.softshrink(input, lambd=lambd)


__all__ += ["relu_", "elu_", "selu_", "celu_", "leaky_relu_", "hardtanh_", "threshold_", "hardshrink", "softshrink"]


# ---- margin, embedding and likelihood losses ------------------------------------------------------------
# Built from the same ops as PyTorch's C++ (or Python) versions, so they record the same graphs: ``margin - x``
# is a wrapped number minus x (SubBackward0), ``x + margin`` add.Scalar (AddBackward1) ...

def _apply_loss_reduction(loss: Tensor, reduction: int) -> Tensor:
    return loss.mean() if reduction == 1 else loss.sum() if reduction == 2 else loss


def _number_minus(number, t: Tensor) -> Tensor:
    # ATen's operator-(Scalar, Tensor): empty_like(t).fill_(number).sub_(t), in t's dtype (a 0-d float32 t stays
    # float32; an integer t takes the number truncated), recorded as SubBackward0
    return _creation.empty_like(t).fill_(number).sub_(t)


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0, size_average=None,
                        reduce=None, reduction: str = "mean") -> Tensor:
    """max(0, -y·(x1 - x2) + margin), averaged (or summed)."""
    if _AUTOCAST[0]:
        return _autocast("margin_ranking_loss", margin_ranking_loss, **locals())
    red = _reduction_enum(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError("margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} ")
    margin = _arg_errors.scalar_arg(margin, "margin_ranking_loss", "margin", 4)   # (the C function's parser)
    diff = input1 - input2   # (PyTorch's C++ evaluates the difference before -target: its bool error first)
    # (margin is aten's ``float margin``: a double scalar, so integer inputs give a float32 loss)
    prod = target.neg() * diff
    if not (prod.is_floating_point() or prod.is_complex()):
        prod = prod.to(_dtypes.get_default_dtype())
    out = _D.add_scalar(prod, other=float(margin)).clamp_min_(0)   # (C++ `+ margin`: AddBackward1)
    return _apply_loss_reduction(out, red)


def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0, size_average=None, reduce=None,
                         reduction: str = "mean") -> Tensor:
    """x where y = 1, max(0, margin - x) where y = -1."""
    if _AUTOCAST[0]:
        return _autocast("hinge_embedding_loss", hinge_embedding_loss, **locals())
    red = _reduction_enum(size_average, reduce, reduction)
    zeros = _ops.zeros_like(input)
    margin_clamp = _number_minus(margin, input).clamp_min_(0)
    output = _ops.where(target != 1, margin_clamp, zeros) + _ops.where(target != -1, input, zeros)
    return _apply_loss_reduction(output, red)


def soft_margin_loss(input: Tensor, target: Tensor, size_average=None, reduce=None,
                     reduction: str = "mean") -> Tensor:
    """log(1 + e^(-y·x)), averaged (or summed)."""
    if _AUTOCAST[0]:
        return _autocast("soft_margin_loss", soft_margin_loss, **locals())
    red = _reduction_enum(size_average, reduce, reduction)
    if target.requires_grad and _grad_mode.is_grad_enabled():
        raise RuntimeError("The function 'soft_margin_loss' is not differentiable with respect to argument 'target'. "
                           "This input cannot have requires_grad True.")
    # (ATen computes in place into a tensor of input's shape and dtype: neg_out(output, input).mul_(target).exp_())
    if input.dtype is _dtypes.bool_:   # (the negation first)
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert "
                           "a mask, use the `~` or `logical_not()` operator instead.")
    _check_broadcast(input, target)   # (then its mul_(target))
    _broadcast_into(input, _broadcast_shape(input, target))
    if input.dtype._kind == 1:   # (an integer input: PyTorch computes in place in the input's dtype, exp_ fails)
        common = _dtypes.result_type(input, target)
        common = common if common.is_floating_point else _dtypes.float32
        raise RuntimeError(f"result type {_ops._legacy(common)} can't be cast to the desired output type "
                           f"{_ops._legacy(input.dtype)}")
    return _D.soft_margin_loss(input, target=target, reduction=red)


def multi_margin_loss(input: Tensor, target: Tensor, p: int = 1, margin: float = 1.0, weight: Tensor | None = None,
                      size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """Σ_{j≠y} max(0, margin - x_y + x_j)^p / C per sample (times weight[y])."""
    if _AUTOCAST[0]:
        return _autocast("multi_margin_loss", multi_margin_loss, **locals())
    red = _reduction_enum(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    _no_grad_arg(weight, "weight", "multi_margin_loss")
    _forward_ad.refuse_before_kernel(_D.multi_margin_loss, input)   # (before the kernel's checks)
    nd = input.dim()
    if not (nd == 2 and input.size(1) != 0 or nd == 1 and input.size(0) != 0 or nd == 0):
        raise RuntimeError("Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
                           f"{list(input.shape)}")
    frames = input.size(0) if nd == 2 else 1
    if target.dim() > 1 or target.numel() != frames:
        raise RuntimeError("multi_margin_loss: target tensor should be 1-D with size equal to the number of input "
                           f"samples (batch size). Expected target size [{frames}], but got {list(target.shape)}. "
                           f"Input has shape {list(input.shape)}.")
    dim = input.size(-1) if nd else 1
    if weight is not None and weight.numel() != dim:
        raise RuntimeError(f"inconsistent weight size, expected {dim} but got {list(weight.shape)}")
    # (the kernel's dtype dispatch, float and double only, which then reads the target as int64)
    if not input.dtype.is_floating_point or input.dtype in (_dtypes.float16, _dtypes.bfloat16):
        raise NotImplementedError(f"\"multi_margin_loss_cpu_kernel\" not implemented for '{_ops._legacy(input.dtype)}'")
    if target.dtype is not _dtypes.int64 and input.numel():
        raise RuntimeError(f"expected scalar type Long but found {_ops._legacy(target.dtype)}")
    if weight is not None and weight.dtype is not input.dtype and input.numel():   # (read as the input's type)
        raise RuntimeError(f"expected scalar type {_ops._legacy(input.dtype)} but found {_ops._legacy(weight.dtype)}")
    if target.numel() and not ((target._data >= 0) & (target._data < dim)).all():
        raise RuntimeError("target out of range")
    return _D.multi_margin_loss(input, target=target, p=p, margin=margin, weight=weight, reduction=red)


def multilabel_margin_loss(input: Tensor, target: Tensor, size_average=None, reduce=None,
                           reduction: str = "mean") -> Tensor:
    """Σ over a row's targets t (entries before the first -1) and other classes d of max(0, 1 - x[t] + x[d]) / C."""
    if _AUTOCAST[0]:
        return _autocast("multilabel_margin_loss", multilabel_margin_loss, **locals())
    red = _reduction_enum(size_average, reduce, reduction)
    _forward_ad.refuse_before_kernel(_D.multilabel_margin_loss, input)   # (before the kernel's checks)
    nd = input.dim()
    if not ((nd == 2 and input.shape[1] != 0) or (nd == 1 and input.shape[0] != 0) or nd == 0):
        raise RuntimeError("Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
                           f"{list(input.shape)}")
    dim = input.shape[-1] if nd else 1
    if (target.dim() > 1 or target.numel() != dim) if nd <= 1 else (tuple(target.shape) != tuple(input.shape)):
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: {list(input.shape)}")
    if target.numel() and (int(target.min()) < -1 or int(target.max()) >= dim):
        raise RuntimeError("argument #2 'target' is out of range")
    if input.dtype not in (_dtypes.float32, _dtypes.float64):   # (its kernel: float and double only)
        raise NotImplementedError(f"\"multilabel_margin_loss_forward_out_frame\" not implemented for "
                                  f"'{_ops._legacy(input.dtype)}'")
    if target.dtype != _dtypes.int64:
        raise RuntimeError(f"expected scalar type Long but found {_ops._legacy(target.dtype)}")
    return _D.multilabel_margin_loss(input, target=target, reduction=red)[0]


def multilabel_soft_margin_loss(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average=None,
                                reduce=None, reduction: str = "mean") -> Tensor:
    """-(y·log σ(x) + (1 - y)·log σ(-x)), averaged over the classes."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.size(class_dim)  # only return N loss values
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(reduction + " is not valid")


def _plus_float(x: Tensor, eps: float) -> Tensor:
    """x + eps (AddBackward0), straight to the table op for a float x; an integer (or bool) x + a float number
    promotes to the default float dtype, as ATen's ``x + eps``."""
    return _D.add_scalar(x, other=eps) if x.is_floating_point() or x.is_complex() else x + eps


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0, size_average=None,
                          reduce=None, reduction: str = "mean") -> Tensor:
    """1 - cos(x1, x2) where y = 1, max(0, cos(x1, x2) - margin) where y = -1."""
    if _AUTOCAST[0]:
        return _autocast("cosine_embedding_loss", cosine_embedding_loss, **locals())
    red = _reduction_enum(size_average, reduce, reduction)
    targ_dim = target.dim()
    if targ_dim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if targ_dim == 1 and not (input1.dim() == 2 and input2.dim() == 2):
        raise RuntimeError("1D target tensor expects 2D input tensors, but found inputs with sizes "
                           f"{list(input1.shape)} and {list(input2.shape)}.")
    if targ_dim == 0 and not (input1.dim() == 1 and input2.dim() == 1):
        raise RuntimeError("0D target tensor expects 1D input tensors, but found inputs with sizes "
                           f"{list(input1.shape)} and {list(input2.shape)}.")
    prod_sum = (input1 * input2).sum(targ_dim)
    mag_square1 = _plus_float((input1 * input1).sum(targ_dim), 1e-12)
    mag_square2 = _plus_float((input2 * input2).sum(targ_dim), 1e-12)
    cos = prod_sum / (mag_square1 * mag_square2).sqrt_()
    zeros = _ops.zeros_like(cos)
    pos = _number_minus(1, cos)
    neg = _D.sub_scalar(cos, other=margin).clamp_min_(0)
    output = _ops.where(target == 1, pos, zeros) + _ops.where(target == -1, neg, zeros)
    return _apply_loss_reduction(output, red)


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0, p: float = 2,
                        eps: float = 1e-6, swap: bool = False, size_average=None, reduce=None,
                        reduction: str = "mean") -> Tensor:
    """max(0, margin + d(a, p) - d(a, n)) with d the pairwise distance."""
    if _AUTOCAST[0]:
        return _autocast("triplet_margin_loss", triplet_margin_loss, **locals())
    red = _reduction_enum(size_average, reduce, reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    dims = (anchor.dim(), positive.dim(), negative.dim())
    if len(set(dims)) != 1:
        raise RuntimeError("The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {dims[0]}D, positive {dims[1]}D, and negative {dims[2]}D "
                           "inputs")
    margin = _arg_errors.scalar_arg(margin, "triplet_margin_loss", "margin", 4)   # (the C function's parser)
    p = _arg_errors.scalar_arg(p, "triplet_margin_loss", "p", 5)
    eps = _arg_errors.scalar_arg(eps, "triplet_margin_loss", "eps", 6)
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = _ops.minimum(dist_neg, pairwise_distance(positive, negative, p, eps))
    output = (_D.add_scalar(dist_pos, other=margin) - dist_neg).clamp_min(0)
    return _apply_loss_reduction(output, red)


def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True, full: bool = False, size_average=None,
                     eps: float = 1e-8, reduce=None, reduction: str = "mean") -> Tensor:
    """e^x - y·x (log_input) or x - y·log(x + eps), plus Stirling's term for y > 1 when full."""
    if _AUTOCAST[0]:
        return _autocast("poisson_nll_loss", poisson_nll_loss, **locals())
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if reduction not in _REDUCTIONS:
        raise ValueError(reduction + " is not a valid value for reduction")
    if log_input:
        product = target * input  # (made first: GCC evaluates ATen's `exp(input) - target * input` right to left)
        loss = input.exp() - product
    else:
        loss = input - target * _plus_float(input, eps).log()
    if full:
        # (½·log(2πy) made first: GCC evaluates the right operand of ATen's `... + 0.5 * log(2 * pi * target)`
        # first, and the nodes' order decides in which order target's gradient sums its parts)
        half_log = (target * (2 * math.pi)).log() * 0.5
        stirling = target * target.log() - target + half_log
        loss += stirling.masked_fill(target <= 1, 0)   # (in place, as ATen's: the loss's _version is 1)
    return _apply_loss_reduction(loss, _REDUCTION_ENUM[reduction])


def gaussian_nll_loss(input: Tensor, target: Tensor, var, full: bool = False, eps: float = 1e-6,
                      reduction: str = "mean") -> Tensor:
    """½·(log var + (x - y)²/var) (+ ½·log 2π when full), var clamped at eps."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * _creation.ones_like(input)
    elif bool((var < 0).any()):
        raise ValueError("var has negative entry/entries")
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = var.unsqueeze(-1)
        elif input.dim() == var.dim() and sum(y for x, y in zip(input.size(), var.size()) if x != y) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction not in _REDUCTIONS:
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with _grad_mode.no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)   # (in place, as PyTorch's: the loss's _version is 1)
    return loss.mean() if reduction == "mean" else loss.sum() if reduction == "sum" else loss


__all__ += ["margin_ranking_loss", "hinge_embedding_loss", "soft_margin_loss", "multi_margin_loss",
            "multilabel_soft_margin_loss", "multilabel_margin_loss", "cosine_embedding_loss", "triplet_margin_loss",
            "poisson_nll_loss", "gaussian_nll_loss"]


# =============================================================================================
# rms_norm, pixel_shuffle / pixel_unshuffle, triplet_margin_with_distance_loss (missing-nn pass 2)
# =============================================================================================

def rms_norm(input: Tensor, normalized_shape, weight: Tensor | None = None, eps: float | None = None) -> Tensor:
    """x / √(mean(x²) + eps) over the last len(normalized_shape) dims, then ·weight."""
    shape = _int_list("rms_norm", "normalized_shape", normalized_shape, 2)
    if not shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                           "element, but got normalized_shape = []")
    if weight is not None and tuple(weight.shape) != shape:
        raise RuntimeError(f"Expected weight to be of same shape as normalized_shape, but got weight of shape "
                           f"{list(weight.shape)} and normalized_shape = {list(shape)}")
    if len(shape) > input.dim():
        raise ValueError(f"Input tensor must have at least {len(shape)} dimensions, but got {input.dim()}")
    if tuple(input.shape[input.dim() - len(shape):]) != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape "
                           f"[*{', '.join(str(s) for s in shape)}], but got input of size{list(input.shape)}")
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise NotImplementedError(f'"rms_norm" not implemented for \'{_ops._legacy(input.dtype)}\'')
    # PyTorch's CPU composite (layer_norm.cpp): in float32 for half types ("opmath"), eps (default: the
    # opmath type's machine epsilon) rounded to the input's dtype; pow, mean, add_, rsqrt, mul (·weight, still
    # in opmath), type_as. add_ takes a C++ Scalar: the in-place Scalar overload (AddBackward1).
    if input.dtype.is_complex:   # computed in the complex dtype; eps (default: its real part's epsilon) as a real
        finfo = np.finfo(input.dtype.np)
        opmath, eps = input.dtype, float(finfo.eps if eps is None else finfo.dtype.type(eps))
    else:
        opmath = _dtypes.float64 if input.dtype is _dtypes.float64 else _dtypes.float32
        eps = float(input.dtype.np.type(float(np.finfo(opmath.np).eps) if eps is None else eps))
    from .. import _layout, _strides
    fused = _strides.suggested_memory_format(input._data) is _layout.contiguous_format   # (channels_last: composite)
    if fused and not input.dtype.is_complex and weight is not None and weight.dtype != input.dtype:
        names = _ops._CPP_NAMES
        _warn_once("rms_norm dtype mismatch",   # (PyTorch's TORCH_WARN_ONCE before its composite fallback)
                   f"Mismatch dtype between input and weight: input dtype = {names[input.dtype.name]}, weight dtype = "
                   f"{names[weight.dtype.name]}, Cannot dispatch to fused implementation. (Triggered internally at "
                   "/__w/pytorch/pytorch/aten/src/ATen/native/layer_norm.cpp:346.)")
    x = input.to(opmath)
    dims = tuple(input.dim() - i - 1 for i in range(len(shape)))
    mean_square = _ops.mean(_ops.pow(x, 2), dims, keepdim=True)
    _D.add_scalar(mean_square, other=eps, out=mean_square)
    result = x.mul(_ops.rsqrt(mean_square))
    if weight is not None:
        result = result.mul(weight)
    if fused:
        result = result.contiguous()   # (C order before the cast, unless channels_last(_3d): a CloneBackward0)
    return result.type_as(input)


__all__ += ["rms_norm"]


def _check_pixel_factor(name: str, arg: str, input: Tensor, factor) -> int:
    """pixel_(un)shuffle's argument checks, in PyTorch's order and with its messages; the factor as an int."""
    factor = _arg_errors.scalar_arg(factor, name, arg, 2, "int")
    if not isinstance(factor, int) or isinstance(factor, bool):
        raise TypeError(f"{name}(): argument '{arg}' (position 2) must be int, not {type(factor).__name__}")
    if input.dim() < 3:
        raise RuntimeError(f"{name} expects input to have at least 3 dimensions, but got input with {input.dim()} "
                           "dimension(s)")
    if factor <= 0:
        raise RuntimeError(f"{name} expects a positive {arg}, but got {factor}")
    return factor


def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """(*, C·r², H, W) → (*, C, H·r, W·r) with r = upscale_factor (PixelShuffleBackward0)."""
    upscale_factor = _check_pixel_factor("pixel_shuffle", "upscale_factor", input, upscale_factor)
    channels = input.shape[-3]
    if channels % (upscale_factor * upscale_factor):
        raise RuntimeError("pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                           f"upscale_factor, but input.size(-3)={channels} is not divisible by "
                           f"{upscale_factor * upscale_factor}")
    return _D.pixel_shuffle(input, upscale_factor=upscale_factor)


def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    """(*, C, H·r, W·r) → (*, C·r², H, W) with r = downscale_factor (PixelUnshuffleBackward0)."""
    downscale_factor = _check_pixel_factor("pixel_unshuffle", "downscale_factor", input, downscale_factor)
    for what, dim in (("height", -2), ("width", -1)):
        if input.shape[dim] % downscale_factor:
            raise RuntimeError(f"pixel_unshuffle expects {what} to be divisible by downscale_factor, but "
                               f"input.size({dim})={input.shape[dim]} is not divisible by {downscale_factor}")
    return _D.pixel_unshuffle(input, downscale_factor=downscale_factor)


def triplet_margin_with_distance_loss(anchor: Tensor, positive: Tensor, negative: Tensor, *,
                                      distance_function=None, margin: float = 1.0, swap: bool = False,
                                      reduction: str = "mean") -> Tensor:
    """max(0, margin + d(a, p) - d(a, n)) with any distance d (default: pairwise_distance)."""
    # torch/nn/functional.py's Python composite, line for line, so the graph is the same
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    a_dim, p_dim, n_dim = anchor.ndim, positive.ndim, negative.ndim
    if not (a_dim == p_dim and p_dim == n_dim):
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {a_dim}D, positive {p_dim}D, and negative {n_dim}D inputs")
    if distance_function is None:
        distance_function = pairwise_distance
    dist_pos = distance_function(anchor, positive)
    dist_neg = distance_function(anchor, negative)
    if swap:   # the distance swap (Balntas et al.): the closer of a and p to n
        dist_swap = distance_function(positive, negative)
        dist_neg = _ops.minimum(dist_neg, dist_swap)
    loss = _ops.clamp_min(margin + dist_pos - dist_neg, 0)
    if reduction == "sum":
        return _ops.sum(loss)
    if reduction == "mean":
        return _ops.mean(loss)
    return loss


def adaptive_max_pool2d_with_indices(input: Tensor, output_size, return_indices: bool = False) -> tuple:
    """(max over the windows that split H and W into output_size parts, flat index of each max in its plane)."""
    if not isinstance(output_size, int):
        if input.dim() <= len(output_size):
            raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
        output_size = [n if v is None else v for v, n in zip(output_size, input.shape[-len(output_size):])]
        _int_list("adaptive_max_pool2d", "output_size", output_size, 2)   # (a float size: its parser's error)
    size = _size_arg(output_size, 2)
    if input.dim() not in (3, 4):
        raise RuntimeError(f"adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: {list(input.shape)}")
    for d in range(1, input.dim()):
        if input.shape[d] <= 0:
            raise RuntimeError("adaptive_max_pool2d(): Expected input to have non-zero size for non-batch dimensions, "
                               f"but input has sizes {list(input.shape)} with dimension {d} being empty")
    if len(size) != 2:
        raise RuntimeError("adaptive_max_pool2d(): internal error: output_size.size() must be 2")
    if min(size) < 0:
        shape = [*input.shape[:-2], *size]
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(size)}: {shape}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"adaptive_max_pool2d\" not implemented for '{_ops._legacy(input.dtype)}'")
    return tuple(_D.adaptive_max_pool2d(input, output_size=size))


def adaptive_max_pool2d(input: Tensor, output_size, return_indices: bool = False):
    """The max over the windows that split H and W into output_size parts (None keeps that size)."""
    values, indices = adaptive_max_pool2d_with_indices(input, output_size)
    return (values, indices) if return_indices else values


def adaptive_max_pool1d_with_indices(input: Tensor, output_size, return_indices: bool = False) -> tuple:
    """(max over the windows that split the last dim into output_size parts, index of each max)."""
    sizes = {"output_size": _int_list("adaptive_max_pool1d", "output_size", output_size, 2, True)}
    (size,) = _pool1d_sizes("adaptive_max_pool1d", input, sizes)
    for d in range(1, input.dim()):
        if input.shape[d] <= 0:
            raise RuntimeError("adaptive_max_pool1d(): Expected input to have non-zero size for non-batch dimensions, "
                               f"but input has sizes {list(input.shape)} with dimension {d} being empty")
    values, indices = adaptive_max_pool2d_with_indices(input.unsqueeze(-2), (1, size))
    return values.squeeze(-2), indices.squeeze(-2)


def adaptive_max_pool1d(input: Tensor, output_size, return_indices: bool = False):
    """The max over the windows that split the last dim into output_size parts."""
    values, indices = adaptive_max_pool1d_with_indices(input, output_size)
    return (values, indices) if return_indices else values


__all__ += ["pixel_shuffle", "pixel_unshuffle", "triplet_margin_with_distance_loss", "adaptive_max_pool1d",
            "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d", "adaptive_max_pool2d_with_indices"]


# =============================================================================================
# Sliding blocks (F.unfold / F.fold: im2col / col2im), and more layers' functional forms
# =============================================================================================

def _pair_args(fn: str, **values) -> list:
    """Each argument (in its order) an int as (v, v), a sequence kept (PyTorch's _pair), read by the parser of ``fn``
    (im2col, col2im: a float refused; its positions follow input's), then the C++ side's checks for two values."""
    pairs = [_arg_errors.int_list(fn, name, tuple(v) if isinstance(v, (tuple, list)) else (v, v), position)
             for position, (name, v) in enumerate(values.items(), 2)]
    for name, value in zip(values, pairs):   # (after every argument's parse)
        if len(value) != 2:
            raise RuntimeError(f"It is expected {name} equals to 2, but got size {len(value)}")
    return [tuple(int(v) for v in value) for value in pairs]


def _window_checks(order: str, kernel, dilation, padding, stride) -> None:
    """im2col / col2im's checks of the window arguments, in ``order`` (each kernel checks in its own)."""
    checks = {"k": (kernel, "kernel size should be greater than zero", "kernel", 1),
              "d": (dilation, "dilation should be greater than zero", "dilation", 1),
              "p": (padding, "padding should be non-negative", "pad", 0),
              "s": (stride, "stride should be greater than zero", "stride", 1)}
    for key in order:
        (h, w), text, label, low = checks[key]
        if h < low or w < low:
            raise RuntimeError(f"{text}, but got {label}_height: {h} {label}_width: {w}")


def _blocks(size, kernel, dilation, padding, stride) -> tuple:
    """How many sliding blocks fit along H and W (PyTorch's div_rtn: rounds toward -inf)."""
    return tuple((n + 2 * p - (d * (k - 1) + 1)) // s + 1 for n, k, d, p, s in zip(size, kernel, dilation, padding,
                                                                                   stride))


def unfold(input: Tensor, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """Every kernel_size block of a (N, C, H, W) input as a column: (N, C·kh·kw, L) (im2col)."""
    kernel, dilation, padding, stride = _pair_args("im2col", kernel_size=kernel_size, dilation=dilation,
                                                   padding=padding, stride=stride)
    _window_checks("kdps", kernel, dilation, padding, stride)
    ndim = input.dim()
    if ndim < 3:   # (PyTorch reads input.size(2) first)
        input.size(2)
    nonempty = input.shape[1] != 0 and input.shape[2] != 0 and (ndim != 3 or input.shape[0] != 0)
    if ndim not in (3, 4) or not nonempty:
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
                           f"dimensions for input, but got: {list(input.shape)}")
    size = tuple(input.shape[-2:])
    blocks = _blocks(size, kernel, dilation, padding, stride)
    if min(blocks) < 1:
        raise RuntimeError(f"Given input with spatial size {size}, kernel_size={kernel}, dilation={dilation}, "
                           f"padding={padding}, calculated shape of the array of sliding blocks as {blocks}, but its "
                           "components must be at least one.")
    if not (input.dtype.is_floating_point or input.dtype.is_complex or input.dtype == _dtypes.bool_):
        raise NotImplementedError(f"\"im2col_out_cpu\" not implemented for '{_ops._legacy(input.dtype)}'")
    return _D.im2col(input, kernel_size=kernel, dilation=dilation, padding=padding, stride=stride,
                    self_sym_argsize_minus_2=size[0], self_sym_argsize_minus_1=size[1])


def fold(input: Tensor, output_size, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """Columns of blocks (N, C·kh·kw, L) added back into a (N, C, H, W) image, overlaps summed (col2im)."""
    output_size, kernel, dilation, padding, stride = _pair_args(
        "col2im", output_size=output_size, kernel_size=kernel_size, dilation=dilation, padding=padding, stride=stride)
    _window_checks("ksdp", kernel, dilation, padding, stride)
    shape = tuple(input.shape)
    if not ((len(shape) == 2 and 0 not in shape) or (len(shape) == 3 and 0 not in shape[1:])):
        raise RuntimeError("Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
                           f"dimensions for input, but got: {list(shape)}")
    planes, length = shape[-2:]
    if planes % (kernel[0] * kernel[1]) != 0:
        raise RuntimeError("Expected size of input's dimension 1 to be divisible by the product of kernel_size, but "
                           f"got input.size(1)={planes} and kernel_size={kernel}.")
    blocks = _blocks(output_size, kernel, dilation, padding, stride)
    where = f"Given output_size={output_size}, kernel_size={kernel}, dilation={dilation}, padding={padding}, " \
            f"stride={stride}, "
    if length != blocks[0] * blocks[1]:
        raise RuntimeError(f"{where}expected size of input's dimension 2 to match the calculated number of sliding "
                           f"blocks {blocks[0]} * {blocks[1]} = {blocks[0] * blocks[1]}, but got input.size(2)="
                           f"{length}.")
    if min(blocks) < 1:
        raise RuntimeError(f"{where}calculated shape of the array of sliding blocks as {blocks}, which is too small "
                           "(non-positive)")
    if not (input.dtype.is_floating_point or input.dtype.is_complex or input.dtype == _dtypes.bool_):
        raise NotImplementedError(f"\"col2im_out_cpu\" not implemented for '{_ops._legacy(input.dtype)}'")
    return _D.col2im(input, output_size=output_size, kernel_size=kernel, dilation=dilation, padding=padding,
                    stride=stride)


__all__ += ["unfold", "fold"]


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """y[..., o] = Σ_ij x1[..., i]·W[o, i, j]·x2[..., j] + b[o] (PyTorch's _trilinear composite)."""
    if _vmap_batched.DEPTH[0]:
        _vmap_batched.warn_composite_fallback("bilinear", input1, input2, weight, bias)
    if input1.dim() != input2.dim():
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.dim()} and {input2.dim()}")
    for i in range(input1.dim() - 1):
        if input1.shape[i] != input2.shape[i]:
            raise RuntimeError(f"bilinear(): input batch dimensions do not match at dim {i}: got {input1.shape[i]} and "
                               f"{input2.shape[i]}")
    for n, x in ((1, input1), (2, input2)):
        if x.shape[-1] != weight.shape[n]:
            raise RuntimeError(f"bilinear(): input{n} size does not match weight size: got {x.shape[-1]} but "
                               f"expected {weight.shape[n]}")
    if bias is not None and bias.shape[0] != weight.shape[0]:
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got {bias.shape[0]} but expected "
                           f"{weight.shape[0]}")
    output = _D.trilinear(input1.reshape(-1, input1.shape[-1]), weight, input2.reshape(-1, input2.shape[-1]),
                         expand1=(1, 3), expand2=(0,), expand3=(1, 2), sumdim=(2, 3), unroll_dim=1)
    output = output.reshape(*input1.shape[:-1], weight.shape[0])
    return output if bias is None else output + bias


def _lp_pool(pool, max_pool, input: Tensor, norm_type: float, kernel_size, stride, ceil_mode: bool, area: int):
    """(Σ_window x^p)^(1/p), as PyTorch composes it: the mean of x^p times the window's size."""
    if norm_type == float("inf"):
        return max_pool(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if norm_type == -float("inf"):
        return -max_pool(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = pool(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:   # (by keyword, as PyTorch's: its parser's errors then name no position)
        out = pool(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (_ops.sign(out) * relu(_ops.abs(out))).mul(area).pow(1.0 / norm_type)


def lp_pool1d(input: Tensor, norm_type: float, kernel_size: int, stride=None, ceil_mode: bool = False) -> Tensor:
    """The p-norm of each kernel_size window along the last dim."""
    return _lp_pool(avg_pool1d, max_pool1d, input, norm_type, kernel_size, stride, ceil_mode, kernel_size)


def lp_pool2d(input: Tensor, norm_type: float, kernel_size, stride=None, ceil_mode: bool = False) -> Tensor:
    """The p-norm of each kernel_size window over the last two dims."""
    kw, kh = kernel_size if isinstance(kernel_size, (tuple, list)) else (kernel_size, kernel_size)
    return _lp_pool(avg_pool2d, max_pool2d, input, norm_type, kernel_size, stride, ceil_mode, kw * kh)


def local_response_norm(input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> Tensor:
    """x / (k + α·mean of x² over ``size`` neighbouring channels)^β (dim 1; PyTorch's pad + avg_pool composite)."""
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    if size <= 0:   # (the check of PyTorch's avg_pool2d / avg_pool3d on its (size, 1[, 1]) kernel)
        sizes = f"kT: {size} kH: 1" if dim > 3 else f"kH: {size}"
        raise RuntimeError(f"kernel size should be greater than zero, but got {sizes} kW: 1")
    div = input.mul(input)
    if dim == 3:
        div = pad(div.unsqueeze(1), (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.size()
        div = pad(div.view(sizes[0], 1, sizes[1], sizes[2], -1), (0, 0, 0, 0, size // 2, (size - 1) // 2))
        _pool_kernel(div, "avg_pool3d_out_frame")
        div = _D.avg_pool3d(div, kernel_size=(size, 1, 1), stride=(1, 1, 1), padding=(0, 0, 0), ceil_mode=False,
                           count_include_pad=True, divisor_override=None).squeeze(1).view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


def rrelu(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False,
          inplace: bool = False) -> Tensor:
    """x where x > 0, else x·r: r ~ U(lower, upper) per element when training, (lower + upper)/2 otherwise."""
    from .. import _random
    _vmap_batched.check_unsupported("rrelu_" if inplace else "rrelu", "rrelu_with_noise_" if inplace else
                                    "rrelu_with_noise")
    if inplace:   # (torch.func's refusal to write a captured tensor names rrelu_, not rrelu_with_noise_)
        _dispatch.check_captured_write(input, "aten::rrelu_")
    if inplace and input._requires_grad:  # (an in-place call: the leaf's refusal first)
        _dispatch._check_inplace(input, False)
    lower, upper = _scalar(lower, _dtypes.float64), _scalar(upper, _dtypes.float64)   # (the kernel's to<double>)
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    # (in eval mode PyTorch's rrelu is a leaky_relu; its training kernel has no half-precision float16 version)
    if inplace and not training:   # (leaky_relu_'s TensorIterator refuses an expanded input before its kernel)
        _dispatch._no_internal_overlap_first(None, input)
    if not input.dtype.is_floating_point or training and input.dtype is _dtypes.float16:
        kernel = "rrelu_with_noise_out_cpu" if training else "leaky_relu_cpu"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_ops._legacy(input.dtype)}'")
    noise = _creation.empty_like(input)
    if training:
        # PyTorch's kernel: one uniform_real_distribution<double> draw per element <= 0, in memory order, with the
        # bounds first rounded to the input's opmath type (float32 for bfloat16: the noise is rounded once, there)
        flat = input.detach().contiguous()._data.reshape(-1)
        opmath = np.float32 if input.dtype is _dtypes.bfloat16 else flat.dtype
        lo, hi = (float(np.asarray(v, opmath)) for v in (lower, upper))
        r = np.ones(flat.shape, opmath)
        negative = flat <= 0
        r[negative] = (_random.gen(None)._uniform_double(int(negative.sum())) * (hi - lo) + lo).astype(opmath)
        noise = Tensor._make(r.astype(flat.dtype).reshape(input.shape))
    op = _D.rrelu_with_noise_ if inplace else _D.rrelu_with_noise
    if training and opmath is not flat.dtype:
        # bfloat16: PyTorch's output is x·r in float32, rounded once; the table op's x·noise would round r first
        exact = np.where(negative, flat.astype(opmath) * r, flat).astype(flat.dtype).reshape(input.shape)
        out = op(input, noise, out=input if inplace else None, lower=lower, upper=upper, training=training)
        out._data[...] = exact
        return out
    return op(input, noise, out=input if inplace else None, lower=lower, upper=upper, training=training)


def rrelu_(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False) -> Tensor:
    """In-place rrelu."""
    return rrelu(input, lower, upper, training, inplace=True)


__all__ += ["bilinear", "lp_pool1d", "lp_pool2d", "local_response_norm", "rrelu", "rrelu_"]


def conv3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0, dilation=1,
           groups: int = 1) -> Tensor:
    """3-d convolution of (N, C_in, D, H, W) with weight (C_out, C_in/groups, kD, kH, kW), plus bias."""
    if _AUTOCAST[0]:
        return _autocast("conv3d", conv3d, **locals())
    _check_bias_type(input, bias, padding)
    return _conv_nd(input, weight, bias, stride, padding, dilation, groups, 3, "conv3d")


def conv_transpose3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
                     output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    """3-d transposed convolution of (N, C_in, D, H, W) with weight (C_in, C_out/groups, kD, kH, kW)."""
    if _AUTOCAST[0]:
        return _autocast("conv_transpose3d", conv_transpose3d, **locals())
    return _conv_transpose_nd(input, weight, bias, stride, padding, output_padding, groups, dilation, 3,
                              "conv_transpose3d")


__all__ += ["conv3d", "conv_transpose3d"]


# =============================================================================================
# Attention: scaled_dot_product_attention, multi_head_attention_forward (PyTorch's Python, op for op)
# =============================================================================================

def _check_sdpa(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None) -> None:
    # validate_sdpa_input's checks and messages (the double space in "be  at" is PyTorch's)
    if not query.dtype == key.dtype == value.dtype:
        raise RuntimeError("Expected query, key, and value to have the same dtype, but got query.dtype: "
                           f"{_c_type(query.dtype)} key.dtype: {_c_type(key.dtype)} and value.dtype: "
                           f"{_c_type(value.dtype)} instead.")
    if min(query.dim(), key.dim(), value.dim()) < 2:
        raise RuntimeError("Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: "
                           f"{query.dim()} key.dim: {key.dim()} and value.dim: {value.dim()} instead.")
    if attn_mask is not None:
        if attn_mask.dtype not in (_dtypes.bool_, _dtypes.float32, query.dtype):
            raise RuntimeError("Expected attn_mask dtype to be bool or float or to match query dtype, but got "
                               f"attn_mask.dtype: {_c_type(attn_mask.dtype)} and  query.dtype: "
                               f"{_c_type(query.dtype)} instead.")
        if query.dim() == key.dim() == value.dim() == 4:   # (the fused kernel's choice reads it; not for others)
            attn_mask.size(-2)   # (a 0-d or 1-d mask: PyTorch's IndexError from this very call)


def _heads_ok(query: Tensor, key: Tensor, value: Tensor, enable_gqa: bool) -> bool:
    """Same heads, or (grouped-query attention) key/value heads that divide the query heads."""
    hq, hk, hv = query.size(-3), key.size(-3), value.size(-3)
    return hq == hk == hv or (enable_gqa and hk == hv and hq % hk == 0)


def _use_flash_attention(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None, dropout_p: float,
                         enable_gqa: bool) -> bool:
    """PyTorch's CPU choice (sdp_utils_cpp.cpp use_flash_attention_cpp); otherwise it runs the math composite."""
    if dropout_p > 0 or not query.dim() == key.dim() == value.dim() == 4:
        return False
    (b, _, n, e), (_, _, s, _) = query.shape, key.shape
    if not (b == key.size(0) == value.size(0) and _heads_ok(query, key, value, enable_gqa)):
        return False
    if attn_mask is not None:
        wanted = (n, s) if attn_mask.dim() == 2 else (b, query.size(1), n, s)
        if attn_mask.requires_grad or attn_mask.dim() not in (2, 4) or any(
                m not in (1, w) for m, w in zip(attn_mask.shape, wanted)):
            return False
    return (e == key.size(-1) == value.size(-1) and n > 0 and s > 0
            and all(t.stride(-1) == 1 for t in (query, key, value))
            and query.dtype in (_dtypes.float32, _dtypes.float64, _dtypes.float16, _dtypes.bfloat16))


def _float_attn_mask(mask: Tensor | None, dtype) -> Tensor | None:
    """A boolean mask (True = take part) as an additive one: 0 where True, -inf where False."""
    if mask is None or mask.dtype != _dtypes.bool_:
        return mask
    return Tensor._make(np.where(mask._data, 0, -np.inf).astype(dtype.np))


def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None = None,
                                 dropout_p: float = 0.0, is_causal: bool = False, scale: float | None = None,
                                 enable_gqa: bool = False) -> Tensor:
    """softmax(q·kᵀ·scale + mask)·v, with dropout on the weights; one fused node when PyTorch's CPU kernel would run."""
    if _AUTOCAST[0]:
        return _autocast("scaled_dot_product_attention", scaled_dot_product_attention, **locals())
    _check_sdpa(query, key, value, attn_mask)
    if 0 in query.shape[:-1] or key.size(-2) == 0 or value.numel() == 0:
        # PyTorch's empty case (an empty head dim E alone is not one): zeros, tied to the inputs by a
        # zero-weighted sum (so backward reaches them)
        out = _creation.zeros(*query.shape[:-1], value.size(-1), dtype=query.dtype)
        return out + _D.mul_scalar(query.sum() + key.sum() + value.sum(), other=0)
    flash = _use_flash_attention(query, key, value, attn_mask, dropout_p, enable_gqa)
    if is_causal and attn_mask is not None and not flash:   # (the math path's check, before it reads the mask's
        # shape; the flash kernel takes both, the causal -inf over the mask)
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
    attn_mask = _float_attn_mask(attn_mask, query.dtype)
    if flash:
        return _D.sdpa_flash_cpu(query, key, value, dropout_p=dropout_p, is_causal=is_causal, attn_mask=attn_mask,
                                scale=scale)[0]
    return _sdpa_math(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)


def _sdpa_math(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None, dropout_p: float,
               is_causal: bool, scale: float | None, enable_gqa: bool) -> Tensor:
    """PyTorch's _scaled_dot_product_attention_math: q and kᵀ each scaled by √scale (for stability), matmul,
    mask added in place, _safe_softmax, dropout, matmul."""
    if scale is None:   # (1/√E; E = 0 gives inf, as PyTorch's double arithmetic does)
        scale = 1 / math.sqrt(query.size(-1)) if query.size(-1) else math.inf
    factor = math.sqrt(abs(scale))
    origin = query.dtype
    if origin in (_dtypes.float16, _dtypes.bfloat16):   # computed in float32 (ToCopyBackward0), cast back at the end
        query, key, value = (t.to(_dtypes.float32) for t in (query, key, value))
    query = _D.mul_scalar(query, other=-factor if scale < 0 else factor)
    if is_causal:
        if attn_mask is not None:
            raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when "
                               "is_causal=True")
        causal = np.tril(np.ones((query.size(-2), key.size(-2)), bool))
        attn_mask = _float_attn_mask(Tensor._make(causal), query.dtype)
    if enable_gqa:
        if query.size(-3) % key.size(-3) or query.size(-3) % value.size(-3):
            raise RuntimeError("Number of heads in key and value must divide the number of heads in ")
        if not query.size(-3) == key.size(-3) == value.size(-3):
            key = key.repeat_interleave(query.size(-3) // key.size(-3), -3)
            value = value.repeat_interleave(query.size(-3) // value.size(-3), -3)
    attn = _ops.matmul(query, _D.mul_scalar(key.transpose(-2, -1), other=factor))
    if attn_mask is not None:
        attn.add_(attn_mask)
    if attn.dtype.is_complex:   # (_safe_softmax's softmax over the last dim has no complex kernel)
        raise NotImplementedError(f"\"softmax_lastdim_kernel_impl\" not implemented for '{_ops._legacy(attn.dtype)}'")
    attn = _D.safe_softmax(attn, dim=-1)
    if dropout_p > 0.0:
        attn = dropout(attn, dropout_p, True)
    out = _ops.matmul(attn, value)
    return out if out.dtype == origin else out.to(origin)


__all__ += ["scaled_dot_product_attention"]


def _canonical_mask(mask: Tensor | None, mask_name: str, other_type, other_name: str, target_type,
                    check_other: bool = True) -> Tensor | None:
    """A bool mask as an additive float one (-inf where True, i.e. masked out); float masks pass through."""
    if mask is None:
        return None
    if mask.dtype != _dtypes.bool_ and not mask.is_floating_point():
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype != other_type:
        # (stacklevel=2 as PyTorch's: the line that called _canonical_mask, i.e. MultiheadAttention.forward, the
        # transformer layers' forward or multi_head_attention_forward, not the user's)
        warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. Use same type for both "
                      "instead.", stacklevel=2)
    if not mask.is_floating_point():
        mask = _creation.zeros_like(mask, dtype=target_type).masked_fill_(mask, float("-inf"))
    return mask


def _mha_shape_check(query: Tensor, key: Tensor, value: Tensor, key_padding_mask, attn_mask, num_heads: int) -> bool:
    """PyTorch's checks of the input ranks; True for batched (3-D) inputs."""
    if query.dim() not in (2, 3):
        raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received {query.dim()}-D "
                             "query tensor")
    batched = query.dim() == 3
    what = "batched (3-D)" if batched else "unbatched (2-D)"
    if key.dim() != query.dim() or value.dim() != query.dim():
        raise AssertionError(f"For {what} `query`, expected `key` and `value` to be {query.dim()}-D but found "
                             f"{key.dim()}-D and {value.dim()}-D tensors respectively")
    if key_padding_mask is not None and key_padding_mask.dim() != query.dim() - 1:
        raise AssertionError(f"For {what} `query`, expected `key_padding_mask` to be `None` or {query.dim() - 1}-D "
                             f"but found {key_padding_mask.dim()}-D tensor instead")
    if attn_mask is not None:
        if attn_mask.dim() not in (2, 3):
            raise AssertionError(f"For {what} `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found "
                                 f"{attn_mask.dim()}-D tensor instead")
        expected = (num_heads, query.shape[0], key.shape[0])
        if not batched and attn_mask.dim() == 3 and attn_mask.shape != expected:
            raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got {attn_mask.shape}")
    return batched


def _in_projection_packed(q: Tensor, k: Tensor, v: Tensor, w: Tensor, b: Tensor | None = None) -> list:
    """q·W_qᵀ, k·W_kᵀ, v·W_vᵀ (+ biases) with the three weights stacked in ``w``; one linear when q is k is v."""
    E = q.size(-1)
    if k is v:
        if q is k:   # self-attention: one projection, split into (3, ..., E)
            proj = linear(q, w, b).unflatten(-1, (3, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
            return [proj[0], proj[1], proj[2]]
        w_q, w_kv = w.split([E, E * 2])
        b_q, b_kv = (None, None) if b is None else b.split([E, E * 2])
        q_proj = linear(q, w_q, b_q)  # (before kv's, as PyTorch: the order of the nodes, so of backward)
        kv = linear(k, w_kv, b_kv).unflatten(-1, (2, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return [q_proj, kv[0], kv[1]]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return [linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)]


def _in_projection(q: Tensor, k: Tensor, v: Tensor, w_q: Tensor, w_k: Tensor, w_v: Tensor, b_q=None, b_k=None,
                   b_v=None) -> tuple:
    """Three separate projections (key/value dims may differ from the query's)."""
    Eq, Ek, Ev = q.size(-1), k.size(-1), v.size(-1)
    for name, t, shape in (("query weights", w_q, (Eq, Eq)), ("key weights", w_k, (Eq, Ek)),
                           ("value weights", w_v, (Eq, Ev)), ("query bias", b_q, (Eq,)),
                           ("key bias", b_k, (Eq,)), ("value bias", b_v, (Eq,))):
        if t is not None and t.shape != shape:
            raise AssertionError(f"expecting {name} shape of {shape}, but got {t.shape}")
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def multi_head_attention_forward(
        query: Tensor, key: Tensor, value: Tensor, embed_dim_to_check: int, num_heads: int,
        in_proj_weight: Tensor | None, in_proj_bias: Tensor | None, bias_k: Tensor | None, bias_v: Tensor | None,
        add_zero_attn: bool, dropout_p: float, out_proj_weight: Tensor, out_proj_bias: Tensor | None,
        training: bool = True, key_padding_mask: Tensor | None = None, need_weights: bool = True,
        attn_mask: Tensor | None = None, use_separate_proj_weight: bool = False, q_proj_weight: Tensor | None = None,
        k_proj_weight: Tensor | None = None, v_proj_weight: Tensor | None = None, static_k: Tensor | None = None,
        static_v: Tensor | None = None, average_attn_weights: bool = True, is_causal: bool = False) -> tuple:
    """Multi-head attention on (L, N, E) inputs (PyTorch's Python, op for op): returns (output, weights or None)."""
    is_batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:   # run as a batch of one
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask",
                                       None if attn_mask is None else attn_mask.dtype, "attn_mask", query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                           "method `generate_square_subsequent_mask` to create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None   # SDPA's is_causal does the masking
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if key_padding_mask is not None:
            is_causal = False   # the merged mask is no longer causal
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match value's "
                                 f"{value.shape[:2]}")
    elif key.shape != value.shape:
        raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")

    # in-projection
    if not use_separate_proj_weight:
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    else:
        for name, w in (("q", q_proj_weight), ("k", k_proj_weight), ("v", v_proj_weight)):
            if w is None:
                raise AssertionError(f"use_separate_proj_weight is True but {name}_proj_weight is None")
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = _in_projection(query, key, value, q_proj_weight, k_proj_weight, v_proj_weight, b_q, b_k, b_v)

    # the attention mask as (1 or N·heads, L, S)
    if attn_mask is not None:
        if attn_mask.dim() == 2:
            if attn_mask.shape != (tgt_len, src_len):
                raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be "
                                   f"{(tgt_len, src_len)}.")
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            if attn_mask.shape != (bsz * num_heads, tgt_len, src_len):
                raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                                   f"{(bsz * num_heads, tgt_len, src_len)}.")
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")

    # learned key/value biases: one more key position
    if bias_k is not None and bias_v is not None:
        if static_k is not None:
            raise AssertionError("bias cannot be added to static key.")
        if static_v is not None:
            raise AssertionError("bias cannot be added to static value.")
        k = _ops.cat([k, bias_k.repeat(1, bsz, 1)])
        v = _ops.cat([v, bias_v.repeat(1, bsz, 1)])
        attn_mask = None if attn_mask is None else pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else pad(key_padding_mask, (0, 1))
    elif bias_k is not None:
        raise AssertionError("bias_k is set but bias_v is None")
    elif bias_v is not None:
        raise AssertionError("bias_v is set but bias_k is None")

    # heads into the batch: (N·heads, L, head_dim)
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = _static_or(static_k, k, bsz * num_heads, head_dim, "static_k")
    v = _static_or(static_v, v, bsz * num_heads, head_dim, "static_v")

    if add_zero_attn:   # one more key position of zeros
        zeros = (bsz * num_heads, 1, head_dim)
        k = _ops.cat([k, _creation.zeros(zeros, dtype=k.dtype)], dim=1)
        v = _ops.cat([v, _creation.zeros(zeros, dtype=v.dtype)], dim=1)
        attn_mask = None if attn_mask is None else pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else pad(key_padding_mask, (0, 1))
    src_len = k.size(1)

    if key_padding_mask is not None:   # merged into the attention mask
        if key_padding_mask.shape[0] != bsz:
            raise AssertionError(f"Expected key_padded_mask.shape[0] to be {bsz}, but got {key_padding_mask.shape[0]}")
        if key_padding_mask.shape[1] != src_len:
            raise AssertionError(f"Expected key_padded_mask.shape[1] to be {src_len}, but got "
                                 f"{key_padding_mask.shape[1]}")
        key_padding_mask = key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1).reshape(
            bsz * num_heads, 1, src_len)
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    if not training:
        dropout_p = 0.0

    if need_weights:   # explicit softmax(q·kᵀ/√E + mask), to return the weights
        E = q.shape[-1]
        q_scaled = q * math.sqrt(1.0 / float(E))
        if is_causal and attn_mask is None:
            raise AssertionError("FIXME: is_causal not implemented for need_weights")
        if attn_mask is not None:
            weights = _ops_matrices.baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
        else:
            weights = _ops.bmm(q_scaled, k.transpose(-2, -1))
        weights = softmax(weights, dim=-1)
        if dropout_p > 0.0:
            weights = dropout(weights, p=dropout_p)
        out = _ops.bmm(weights, v).transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        out = linear(out, out_proj_weight, out_proj_bias)
        out = out.view(tgt_len, bsz, out.size(1))
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not is_batched:
            out, weights = out.squeeze(1), weights.squeeze(0)
        return out, weights
    # no weights wanted: scaled_dot_product_attention on (N, heads, L, head_dim)
    if attn_mask is not None:
        if attn_mask.size(0) == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    out = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = out.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    out = linear(out, out_proj_weight, out_proj_bias)
    out = out.view(tgt_len, bsz, out.size(1))
    return (out if is_batched else out.squeeze(1)), None


def _static_or(static: Tensor | None, x: Tensor, batch_heads: int, head_dim: int, name: str) -> Tensor:
    """``static`` (given keys/values, already (N·heads, S, head_dim)) or ``x`` split into heads."""
    if static is None:
        return x.view(x.shape[0], batch_heads, head_dim).transpose(0, 1)
    if static.size(0) != batch_heads:
        raise AssertionError(f"expecting {name}.size(0) of {batch_heads}, but got {static.size(0)}")
    if static.size(2) != head_dim:
        raise AssertionError(f"expecting {name}.size(2) of {head_dim}, but got {static.size(2)}")
    return static


__all__ += ["multi_head_attention_forward"]


# =============================================================================================
# channel_shuffle, pdist, max_unpool1d / max_unpool2d (missing-nn pass 4)
# =============================================================================================

def channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """Split the C channels into ``groups`` blocks and interleave them (ShuffleNet): (N, g·k, *) → (N, k·g, *)."""
    if input.dim() <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with sizes {list(input.shape)}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of groups:{groups}")
    channels = input.shape[1]
    if channels % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {channels} channels and "
                           f"{groups} groups.")
    return _D.channel_shuffle(input, groups=int(groups))


def pdist(input: Tensor, p: float = 2) -> Tensor:
    """The p-norm distance of every pair of rows i < j of an (N, M) input: N·(N-1)/2 values."""
    p = _arg_errors.scalar_arg(p, "pdist", "p", 2)
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    if not input.dtype.is_floating_point:
        raise RuntimeError("pdist only supports floating-point dtypes")
    if not p >= 0:   # (a NaN p fails too)
        raise RuntimeError("pdist only supports non-negative p values")
    _forward_ad.refuse_before_kernel(_D.pdist, input)   # (_pdist_forward's: before its dtype dispatch)
    if input.dtype not in (_dtypes.float32, _dtypes.float64):
        raise NotImplementedError(f"\"pdist\" not implemented for '{_ops._legacy(input.dtype)}'")
    return _D.pdist(input.contiguous(), p=float(p))


def _unpool_output_size(input: Tensor, kernel_size: tuple, stride: tuple, padding: tuple, output_size) -> list:
    """PyTorch's _unpool_output_size: the default (in - 1)·stride + kernel - 2·padding, or a checked output_size."""
    k = len(kernel_size)
    default = [(input.shape[-k + d] - 1) * stride[d] + kernel_size[d] - 2 * padding[d] for d in range(k)]
    if output_size is None:
        sizes = default
    else:
        if len(output_size) == k + 2:
            output_size = output_size[2:]
        if len(output_size) != k:
            raise ValueError(f"output_size should be a sequence containing {k} or {k + 2} elements, but it has a "
                             f"length of '{len(output_size)}'")
        for d in range(k):
            low, high = default[d] - stride[d], default[d] + stride[d]
            if not low < output_size[d] < high:
                raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between {low} and {high})')
        sizes = output_size
    for d in range(k):
        if sizes[d] < 0:
            raise ValueError("max_unpooling: output_size must contain non-negative spatial dimensions, but got "
                             f"output_size[{d}]={sizes[d]}")
    return [int(s) for s in sizes]


def _max_unpool2d(input: Tensor, indices: Tensor, output_size: list) -> Tensor:
    """PyTorch's max_unpool2d kernel checks, then the table op."""
    if indices.dtype != _dtypes.int64:
        raise RuntimeError(f"elements in indices should be type int64 but got: {_ops._legacy(indices.dtype)}")
    if len(output_size) != 2:
        raise RuntimeError("There should be exactly two elements (height, width) in output_size, but got "
                           f"{len(output_size)} elements.")
    if input.dim() not in (3, 4):
        raise RuntimeError(f"Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with "
                           f"{input.dim()} dimensions.")
    if tuple(input.shape) != tuple(indices.shape):
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor "
                           f"({list(input.shape)}) but got indices tensor with shape: {list(indices.shape)}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"max_unpool2d\" not implemented for '{_ops._legacy(input.dtype)}'")
    planes = output_size[0] * output_size[1]
    idx = indices._data
    bad = idx[(idx < 0) | (idx >= planes)]
    if bad.size:   # the last one (PyTorch's threads race to report one: the last is what one thread reports)
        raise RuntimeError(f"Found an invalid max index: {int(bad[-1])} (output volumes are of size "
                           f"{output_size[0]}x{output_size[1]})")
    return _D.max_unpool2d(input, indices, output_size=tuple(output_size))


def max_unpool1d(input: Tensor, indices: Tensor, kernel_size, stride=None, padding=0, output_size=None) -> Tensor:
    """max_pool1d's partial inverse: each value back at its index, zeros elsewhere (as 2-d unpooling of width 1)."""
    kernel = _size_arg(kernel_size, 1)
    strides = _size_arg(stride, 1) if stride is not None else kernel
    sizes = _unpool_output_size(input, kernel, strides, _size_arg(padding, 1), output_size)
    return _max_unpool2d(input.unsqueeze(-1), indices.unsqueeze(-1), sizes + [1]).squeeze(-1)


def max_unpool2d(input: Tensor, indices: Tensor, kernel_size, stride=None, padding=0, output_size=None) -> Tensor:
    """max_pool2d's partial inverse: each value back at its index in the (H_out, W_out) plane, zeros elsewhere."""
    if _AUTOCAST[0]:
        return _autocast("max_unpool2d", max_unpool2d, **locals())
    kernel = _size_arg(kernel_size, 2)
    strides = _size_arg(stride, 2) if stride is not None else kernel
    sizes = _unpool_output_size(input, kernel, strides, _size_arg(padding, 2), output_size)
    return _max_unpool2d(input, indices, sizes)


__all__ += ["channel_shuffle", "pdist", "max_unpool1d", "max_unpool2d"]


# ---- 3-d pooling: max_pool3d, avg_pool3d, adaptive_max_pool3d (missing-nn pass 4; kernels in _pool3d.py) ----

def _three(values: tuple) -> tuple:
    return values * 3 if len(values) == 1 else values


def _pool3d_args(name: str, kernel_size, stride, padding, verb: str) -> tuple:
    """kernel_size, stride (() when omitted) and padding as saved, with PyTorch's length checks."""
    kernel, padding = _size_arg(kernel_size, 3), _size_arg(padding, 3)
    stride = () if stride is None else _size_arg(stride, 3)
    if len(kernel) not in (1, 3):
        raise RuntimeError(f"{name}: kernel_size must {verb}a single int, or a tuple of three ints")
    if len(stride) not in (0, 1, 3):
        raise RuntimeError(f"{name}: stride must {verb}omitted, a single int, or a tuple of three ints")
    if len(padding) not in (1, 3):
        raise RuntimeError(f"{name}: padding must {verb}a single int, or a tuple of three ints")
    return kernel, stride, padding


def _check_pool3d(name: str, input: Tensor, kernel, stride, padding, dilation, ceil_mode: bool, avg: bool) -> None:
    """PyTorch's pooling_output_shape and pool3d_shape_check on the expanded sizes."""
    if input.dim() not in (4, 5):
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    sizes = input.shape[-3:]
    out = [_pool_output(n, k, p, s, d, ceil_mode) for n, k, p, s, d in zip(sizes, kernel, padding, stride, dilation)]
    if min(kernel) <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got kT: {kernel[0]} kH: {kernel[1]} "
                           f"kW: {kernel[2]}")
    if min(stride) <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got dT: {stride[0]} dH: {stride[1]} "
                           f"dW: {stride[2]}")
    if min(dilation) <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got dilationT: {dilation[0]} dilationH: "
                           f"{dilation[1]} dilationW: {dilation[2]}")
    for i in range(input.dim() == 5, input.dim()):
        if input.shape[i] <= 0:
            raise RuntimeError(f"{name}(): Expected input's non-batch dimensions to have positive length, but input "
                               f"has a shape of {list(input.shape)} and non-batch dimension {input.shape[i]} has "
                               "length zero!")
    if avg and any(n < k for n, k in zip(sizes, kernel)):
        raise RuntimeError(f"input image (T: {sizes[0]} H: {sizes[1]} W: {sizes[2]}) smaller than kernel size "
                           f"(kT: {kernel[0]} kH: {kernel[1]} kW: {kernel[2]})")
    if any(k // 2 < p for k, p in zip(kernel, padding)):
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but got kT: {kernel[0]} "
                           f"kW: {kernel[2]} kH: {kernel[1]} padT: {padding[0]} padW: {padding[2]} "
                           f"padH: {padding[1]}")
    if min(out) < 1:
        planes = input.shape[-4]
        raise RuntimeError(f"Given input size: ({planes}x{sizes[0]}x{sizes[1]}x{sizes[2]}). Calculated output size: "
                           f"({planes}x{out[0]}x{out[1]}x{out[2]}). Output size is too small")


def max_pool3d_with_indices(input: Tensor, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
                            return_indices: bool = True):
    """(max of each kernel_size window, flat index of that max in its D×H×W volume)."""
    _bool_flags("max_pool3d_with_indices", 6, ceil_mode=ceil_mode)
    kernel, stride, padding = _pool3d_args("max_pool3d", kernel_size, stride, padding, "either be ")
    dilation = _size_arg(dilation, 3)
    if len(dilation) not in (1, 3):
        raise RuntimeError("max_pool3d: dilation must be either a single int, or a tuple of three ints")
    _check_pool3d("max_pool3d_with_indices_out_cpu_template", input, _three(kernel),
                  _three(stride) if stride else _three(kernel), _three(padding), _three(dilation), ceil_mode, False)
    _pool_kernel(input, "max_pool3d")
    return tuple(_D.max_pool3d_with_indices(input, kernel_size=kernel, stride=stride, padding=padding,
                                           dilation=dilation, ceil_mode=bool(ceil_mode)))


def max_pool3d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
               return_indices: bool = False):
    """The max of each kernel_size window over the last three dims; with return_indices, also where it was."""
    if _AUTOCAST[0] and not return_indices:  # (with indices: max_pool3d_with_indices, not on the lists)
        return _autocast("max_pool3d", max_pool3d, **locals())
    _bool_flags("max_pool3d_with_indices" if return_indices else "max_pool3d", 6, ceil_mode=ceil_mode)
    values, indices = max_pool3d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return (values, indices) if return_indices else values


def avg_pool3d(input: Tensor, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int | None = None) -> Tensor:
    """The mean of each kernel_size window over the last three dims (divided by divisor_override when given)."""
    if _AUTOCAST[0]:
        return _autocast("avg_pool3d", avg_pool3d, **locals())
    _bool_flags("avg_pool3d", None, ceil_mode=ceil_mode, count_include_pad=count_include_pad)
    kernel, stride, padding = _pool3d_args("avg_pool3d", kernel_size, stride, padding, "be ")
    if input.dim() not in (4, 5):   # (PyTorch checks the rank before the divisor, the rest after)
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    _check_pool3d("avg_pool3d", input, _three(kernel), _three(stride) if stride else _three(kernel), _three(padding),
                  (1, 1, 1), ceil_mode, True)
    _pool_kernel(input, "avg_pool3d_out_frame")
    return _D.avg_pool3d(input, kernel_size=kernel, stride=stride, padding=padding, ceil_mode=bool(ceil_mode),
                        count_include_pad=bool(count_include_pad), divisor_override=divisor_override)


def adaptive_max_pool3d_with_indices(input: Tensor, output_size, return_indices: bool = False) -> tuple:
    """(max over the windows that split D, H and W into output_size parts, flat index of each max in its volume)."""
    if _AUTOCAST[0]:
        return _autocast("adaptive_max_pool3d", adaptive_max_pool3d_with_indices, **locals())
    if not isinstance(output_size, int):
        if input.dim() <= len(output_size):
            raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
        output_size = [n if v is None else v for v, n in zip(output_size, input.shape[-len(output_size):])]
        _int_list("adaptive_max_pool3d", "output_size", output_size, 2)   # (a float size: its parser's error)
    size = _size_arg(output_size, 3)
    if input.dim() not in (4, 5):
        raise RuntimeError(f"adaptive_max_pool3d(): Expected 4D or 5D tensor, but got: {list(input.shape)}")
    if len(size) != 3:
        raise RuntimeError("adaptive_max_pool3d(): internal error: output_size.size() must be 3")
    for d in range(1, input.dim()):
        if input.shape[d] <= 0:
            raise RuntimeError("adaptive_max_pool3d(): Expected input to have non-zero size for non-batch dimensions, "
                               f"but input has sizes {list(input.shape)} with dimension {d} being empty")
    if min(size) < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(size)}: {[*input.shape[:-3], *size]}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"adaptive_max_pool3d_cpu\" not implemented for '{_ops._legacy(input.dtype)}'")
    return tuple(_D.adaptive_max_pool3d(input, output_size=size))


def adaptive_max_pool3d(input: Tensor, output_size, return_indices: bool = False):
    """The max over the windows that split D, H and W into output_size parts (None keeps that size)."""
    values, indices = adaptive_max_pool3d_with_indices(input, output_size)
    return (values, indices) if return_indices else values


def adaptive_avg_pool3d(input: Tensor, output_size) -> Tensor:
    """Average over the windows that split D, H and W into output_size parts (None keeps that size)."""
    if _AUTOCAST[0]:
        return _autocast("adaptive_avg_pool3d", adaptive_avg_pool3d, **locals())
    if not isinstance(output_size, int):
        if input.dim() <= len(output_size):
            raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
        output_size = [n if v is None else v for v, n in zip(output_size, input.shape[-len(output_size):])]
        _int_list("adaptive_avg_pool3d", "output_size", output_size, 2)   # (a float size: its parser's error)
    size = _size_arg(output_size, 3)
    if len(size) != 3:
        raise RuntimeError("adaptive_avg_pool3d: output_size must be 3")
    if min(size) < 0:
        raise RuntimeError("adaptive_avg_pool3d: elements of output_size must be greater than or equal to 0 but "
                           f"received {{{size[0]}, {size[1]},{size[2]}}}")
    if size == (1, 1, 1):   # PyTorch's shortcut: a mean over D, H and W (its node is MeanBackward1)
        return _mean_keeping_channels_last(input, (-1, -2, -3))
    for d in range(1, input.dim()):
        if input.shape[d] <= 0:
            raise RuntimeError("adaptive_avg_pool3d(): Expected input to have non-zero size for non-batch dimensions, "
                               f"but input has sizes {list(input.shape)} with dimension {d} being empty")
    if input.dim() not in (4, 5):
        raise RuntimeError(f"adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got {list(input.shape)}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"adaptive_avg_pool3d_cpu\" not implemented for '{_ops._legacy(input.dtype)}'")
    return _D.adaptive_avg_pool3d(input, output_size=size)


def fractional_max_pool2d_with_indices(input: Tensor, kernel_size, output_size=None, output_ratio=None,
                                       return_indices: bool = False, _random_samples=None) -> tuple:
    """(max over pseudo-random kernel_size windows giving output_size (or output_ratio of the input), indices)."""
    if _AUTOCAST[0]:
        return _autocast("fractional_max_pool2d", fractional_max_pool2d_with_indices, **locals())
    if output_size is None and output_ratio is None:
        raise ValueError("fractional_max_pool2d requires specifying either an output_size or an output_ratio")
    if output_size is None:
        if len(output_ratio) > 2:   # (PyTorch's len(): a single float fails here too)
            raise ValueError("fractional_max_pool2d requires output_ratio to either be a single Int or tuple of Ints.")
        ratio = tuple(output_ratio)   # (as PyTorch's _pair: a 1-tuple stays one long, and [1] raises IndexError)
        output_size = [int(input.size(-2) * ratio[0]), int(input.size(-1) * ratio[1])]
    if _random_samples is None:   # (drawn before any check, as PyTorch's Python does)
        n_batch = 1 if input.dim() == 3 else input.size(0)
        _random_samples = _creation.rand(n_batch, input.size(-3), 2, dtype=input.dtype)
    return _fractional_max_pool(input, kernel_size, output_size, _random_samples, 2)


def fractional_max_pool2d(input: Tensor, kernel_size, output_size=None, output_ratio=None,
                          return_indices: bool = False, _random_samples=None):
    """Max pooling over pseudo-random windows (Graham's fractional max pooling); with return_indices, also where."""
    values, indices = fractional_max_pool2d_with_indices(input, kernel_size, output_size, output_ratio,
                                                         return_indices, _random_samples)
    return (values, indices) if return_indices else values


def lp_pool3d(input: Tensor, norm_type: float, kernel_size, stride=None, ceil_mode: bool = False) -> Tensor:
    """The p-norm of each kernel_size window over the last three dims."""
    kd, kw, kh = kernel_size if isinstance(kernel_size, (tuple, list)) else (kernel_size,) * 3
    return _lp_pool(avg_pool3d, max_pool3d, input, norm_type, kernel_size, stride, ceil_mode, kd * kw * kh)


__all__ += ["max_pool3d", "max_pool3d_with_indices", "avg_pool3d", "adaptive_max_pool3d",
            "adaptive_max_pool3d_with_indices", "adaptive_avg_pool3d", "fractional_max_pool2d",
            "fractional_max_pool2d_with_indices", "lp_pool3d"]


# ---- affine_grid (missing-nn pass 4): the sampling grid of a batch of affine maps (AffineGridGeneratorBackward0)

def affine_grid(theta: Tensor, size: list, align_corners: bool | None = None) -> Tensor:
    """The (N, H, W, 2) (or (N, D, H, W, 3)) grid of θ applied to each output position's normalized coordinates."""
    if align_corners is None:
        warnings.warn("Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. "
                      "Please specify align_corners=True if the old behavior is desired. See the documentation of "
                      "grid_sample for details.", stacklevel=_user_stacklevel())
        align_corners = False
    if not theta.dtype.is_floating_point:
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    shape = tuple(theta.shape)
    if len(size) == 4:
        if theta.dim() != 3 or shape[-2:] != (2, 3):
            raise ValueError(f"Expected a batch of 2D affine matrices of shape Nx2x3 for size {size}. Got "
                             f"{theta.shape}.")
        spatial = size[-2:]
    elif len(size) == 5:
        if theta.dim() != 3 or shape[-2:] != (3, 4):
            raise ValueError(f"Expected a batch of 3D affine matrices of shape Nx3x4 for size {size}. Got "
                             f"{theta.shape}.")
        spatial = size[-3:]
    else:
        raise NotImplementedError("affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
                                  f"respectively. Got size {size}.")
    if align_corners and min(spatial) == 1:
        warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
                      "align_corners=True. This is not an intended use case of affine_grid. See the documentation "
                      "of affine_grid for details.", stacklevel=_user_stacklevel())
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    if shape[0] != size[0]:   # (PyTorch's kernel: a bmm of the (N, H·W, 3) base grid by θ transposed)
        k = shape[-1]
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{size[0]}, {k}] but got: "
                           f"[{shape[0]}, {k}].")
    return _D.affine_grid_generator(theta, size=tuple(int(s) for s in size), align_corners=bool(align_corners))


__all__ += ["affine_grid"]


# ---- the deprecated resizing functions (missing-nn pass 4): F.interpolate with a warning, as in PyTorch

def upsample(input: Tensor, size=None, scale_factor=None, mode: str = "nearest", align_corners=None) -> Tensor:
    """Deprecated: F.interpolate."""
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=_user_stacklevel())
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input: Tensor, size=None, scale_factor=None) -> Tensor:
    """Deprecated: F.interpolate(mode="nearest")."""
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=_user_stacklevel())
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input: Tensor, size=None, scale_factor=None) -> Tensor:
    """Deprecated: F.interpolate(mode="bilinear", align_corners=True)."""
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=_user_stacklevel())
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


__all__ += ["upsample", "upsample_nearest", "upsample_bilinear"]


# ---- embedding_bag (missing-nn pass 5): sums, means or maxima of bags of embedding rows (EmbeddingBagBackward0)

def embedding_bag(input: Tensor, weight: Tensor, offsets: Tensor | None = None, max_norm: float | None = None,
                  norm_type: float = 2, scale_grad_by_freq: bool = False, mode: str = "mean", sparse: bool = False,
                  per_sample_weights: Tensor | None = None, include_last_offset: bool = False,
                  padding_idx: int | None = None) -> Tensor:
    """One row per bag: the sum, mean or max of the ``weight`` rows its indices pick (a bag starts at each offset,
    or is a row of a 2-D ``input``)."""
    if weight.dtype == _dtypes.int64 and input.dtype.is_floating_point:
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage `embedding_bag(weight, "
                      "input, ...)` is deprecated, and should now be `embedding_bag(input, weight, ...)`.",
                      stacklevel=_user_stacklevel())
        weight, input = input, weight
    if per_sample_weights is not None and input.shape != per_sample_weights.shape:
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, then it "
                         f"must have the same shape as the input ({input.shape})")
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             "fixed length sequences. However, found offsets of type <class 'torch.Tensor'>")
        offsets = _creation.arange(0, input.numel(), input.shape[1], dtype=input.dtype)
        include_last_offset = False
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    modes = {"sum": 0, "mean": 1, "max": 2}
    if mode not in modes:
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if mode == "max" and sparse:
        raise ValueError("max mode does not support sparse weights")
    if max_norm is not None:
        _embedding_renorm_(weight, input, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
                                  "GitHub.")
    return _embedding_bag(weight, input, offsets, scale_grad_by_freq, modes[mode], sparse, per_sample_weights,
                          include_last_offset, padding_idx)[0]


def _embedding_bag(weight: Tensor, indices: Tensor, offsets: Tensor, scale_grad_by_freq: bool = False, mode: int = 0,
                   sparse: bool = False, per_sample_weights: Tensor | None = None, include_last_offset: bool = False,
                   padding_idx: int | None = None) -> tuple:
    """torch.embedding_bag: PyTorch's argument checks, then the one node. Returns (output, offset2bag, bag_size,
    max_indices), the first differentiable."""
    num_weights = weight.shape[0]
    if padding_idx is None:
        padding_idx = -1
    else:
        if not -num_weights <= padding_idx < num_weights:
            raise RuntimeError(f"padding_idx must be within the number of embeddings, -{num_weights} through "
                               f"{num_weights - 1}, but got {padding_idx}")
        padding_idx %= num_weights
    # (before _embedding_bag's checks; a weight without requires_grad or a tangent takes _embedding_bag_forward_only)
    _forward_ad.refuse_before_kernel(_D.embedding_bag, weight)
    if weight.requires_grad:
        _forward_ad.refuse_before_kernel(_D.embedding_bag, per_sample_weights)
    else:
        _forward_ad.refuse_tangents("_embedding_bag_forward_only", per_sample_weights)
    for t in (indices, offsets):   # (PyTorch names the indices for either)
        if t.dtype not in (_dtypes.int64, _dtypes.int32):
            raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                               f"Long, Int; but got {_ops._tensor_type_name(t.dtype)} instead (while checking "
                               "arguments for embedding_bag)")
    if weight.dtype not in (_dtypes.float16, _dtypes.bfloat16, _dtypes.float32, _dtypes.float64):
        raise RuntimeError("Expected tensor for argument #1 'weight' to have one of the following scalar types: "
                           f"Half, BFloat16, Float, Double; but got {_ops._tensor_type_name(weight.dtype)} instead "
                           "(while checking arguments for embedding_bag)")
    if indices.dtype != offsets.dtype:   # PyTorch promotes both to the wider type
        indices, offsets = indices.to(_dtypes.int64), offsets.to(_dtypes.int64)
    idx, off = indices._data, offsets._data
    if include_last_offset and off.shape[0] < 1:
        raise RuntimeError("include_last_offset: number of offset should be at least 1")
    if off.shape[0] and off[0] != 0:
        raise RuntimeError("offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
                           f"position 0. However, got {off[0]}\n[ torch.{_ops._legacy(offsets.dtype)}Tensor{{}} ]")
    if off.shape[0] and off[-1] > idx.shape[0]:
        raise RuntimeError(f"offsets[-1] can not be greater than input's length {idx.shape[0]} but got offsets[-1] "
                           f"of {off[-1]}")
    fbgemm = weight.dtype in (_dtypes.float32, _dtypes.float16, _dtypes.bfloat16) and mode != 2 and padding_idx < 0
    bad = np.flatnonzero((idx < 0) | (idx >= num_weights))
    if bad.size and not fbgemm:   # (the plain kernels' check, in index order)
        raise RuntimeError("embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be "
                           f"{idx[bad[0]]}")
    if bad.size:   # (fbgemm's report; for some bag layouts PyTorch's reads past the offsets and says otherwise)
        raise RuntimeError(f"Index {bad[0]} of input takes value {idx[bad[0]]} which is not in the valid range "
                           f"[0, {num_weights})")
    if fbgemm and np.any(np.diff(off) < 0):   # (PyTorch's fbgemm path checks that the bags run forwards)
        raise RuntimeError("Expected i < index_size to be true, but got false.  (Could this error message be "
                           "improved?  If so, please report an enhancement request to PyTorch.)")
    psw = _D.absent(weight.dtype.np) if per_sample_weights is None else per_sample_weights
    return _D.embedding_bag(weight, indices, offsets, psw, scale_grad_by_freq=bool(scale_grad_by_freq),
                           mode=int(mode), sparse=bool(sparse), include_last_offset=bool(include_last_offset),
                           padding_idx=int(padding_idx))


__all__ += ["embedding_bag"]


# ---- grid_sample (missing-nn pass 5): the input read at the grid's points (GridSampler2DBackward0)

def grid_sample(input: Tensor, grid: Tensor, mode: str = "bilinear", padding_mode: str = "zeros",
                align_corners: bool | None = None) -> Tensor:
    """The (N, C, H_in, W_in) input sampled at the (N, H_out, W_out, 2) grid's (x, y) points in [-1, 1] (5-D:
    (N, C, D, H, W) at the (N, D_out, H_out, W_out, 3) grid's (x, y, z))."""
    modes, paddings = {"bilinear": 0, "nearest": 1, "bicubic": 2}, {"zeros": 0, "border": 1, "reflection": 2}
    if mode not in modes:
        raise ValueError("nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', "
                         f"but got: '{mode}'")
    if padding_mode not in paddings:
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         f"'reflection', but got: '{padding_mode}'")
    if align_corners is None:
        warnings.warn("Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. "
                      "Please specify align_corners=True if the old behavior is desired. See the documentation of "
                      "grid_sample for details.", stacklevel=_user_stacklevel())
        align_corners = False
    return _grid_sampler(input, grid, modes[mode], paddings[padding_mode], bool(align_corners))


def _grid_sampler(input: Tensor, grid: Tensor, interpolation_mode: int, padding_mode: int,
                  align_corners: bool) -> Tensor:
    """torch.grid_sampler: PyTorch's checks, then the one node (grid_sampler_2d or, for 5-D inputs, _3d)."""
    if _AUTOCAST[0]:
        return _autocast("grid_sampler", _grid_sampler, **locals())
    # (grid_sampler_2d / _3d have no forward formula: refused before their kernels' checks)
    _forward_ad.refuse_before_kernel(_D.grid_sampler_2d if input.dim() == 4 else _D.grid_sampler_3d, input, grid)
    sizes, grid_sizes = list(input.shape), list(grid.shape)
    if input.shape[:1] != grid.shape[:1]:
        raise RuntimeError("grid_sampler(): expected grid and input to have same batch size, but got input with "
                           f"sizes {sizes} and grid with sizes {grid_sizes}")
    if grid.shape[-1] != input.dim() - 2:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {input.dim() - 2} in last dimension, but got "
                           f"grid with sizes {grid_sizes}")
    for d in range(2, input.dim()):
        if input.shape[d] == 0:
            raise RuntimeError("grid_sampler(): expected input to have non-empty spatial dimensions, but input has "
                               f"sizes {sizes} with dimension {d} being empty")
    expected = 4 if input.dim() == 4 else 5   # (PyTorch's 2-D kernel for 4-D inputs, its 3-D one otherwise)
    if input.dim() != expected or grid.dim() != expected:
        raise RuntimeError(f"grid_sampler(): expected {expected}D input and grid with same number of dimensions, "
                           f"but got input with sizes {sizes} and grid with sizes {grid_sizes}")
    if input.dim() == 5 and interpolation_mode == 2:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    if not input.dtype.is_floating_point:
        kernel = "grid_sampler_2d_cpu_kernel_impl" if input.dim() == 4 else "grid_sampler3d_cpu"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_ops._legacy(input.dtype)}'")
    if grid.dtype != input.dtype:
        raise RuntimeError(f"expected scalar type {_ops._legacy(input.dtype)} but found {_ops._legacy(grid.dtype)}")
    op = _D.grid_sampler_2d if input.dim() == 4 else _D.grid_sampler_3d
    return op(input, grid, interpolation_mode=int(interpolation_mode), padding_mode=int(padding_mode),
              align_corners=bool(align_corners))


_grid_sampler.__name__ = _grid_sampler.__qualname__ = "grid_sampler"  # torch.grid_sampler (not in torch.nn.functional)
__all__ += ["grid_sample"]


# ---- ctc_loss (missing-nn pass 5): connectionist temporal classification (CtcLossBackward0)

def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths, target_lengths, blank: int = 0,
             reduction: str = "mean", zero_infinity: bool = False) -> Tensor:
    """-log P(target | log_probs) summed over every alignment (blanks and repeats), per sample; then reduced."""
    if _AUTOCAST[0]:
        return _autocast("ctc_loss", ctc_loss, **locals())
    return _ctc_loss_impl(log_probs, targets, input_lengths, target_lengths, blank,
                          _REDUCTION_ENUM[_check_reduction(reduction)], zero_infinity)


def _ctc_lengths(name: str, lengths) -> tuple:
    """A lengths argument as a tuple of ints (a tensor must hold integers)."""
    if isinstance(lengths, Tensor):
        if lengths.dtype.is_floating_point or lengths.dtype.is_complex or lengths.dtype == _dtypes.bool_:
            raise RuntimeError(f"{name} must be integral")
        return tuple(int(v) for v in lengths._data.reshape(-1))
    return tuple(int(v) for v in lengths)


def _ctc_overload_error(lengths) -> str:
    """PyTorch's message when the lengths match neither overload (all tuples of ints, or all tensors); as its
    parser marks them: the lengths always in the first overload, the non-tensors in the second, and the
    trailing blank / reduction / zero_infinity in both."""
    def describe(v) -> str:
        if isinstance(v, (list, tuple)):
            inner = ", ".join(type(e).__name__ for e in v)
            return f"{type(v).__name__} of {'[' + inner + ']' if isinstance(v, list) else '(' + inner + ')'}"
        return "Tensor" if isinstance(v, Tensor) else type(v).__name__
    got = ", ".join("Tensor" if isinstance(v, Tensor) else type(v).__name__ for v in lengths)
    first = ", ".join(f"!{describe(v)}!" for v in lengths)
    second = ", ".join("Tensor" if isinstance(v, Tensor) else f"!{describe(v)}!" for v in lengths)
    tail = "int blank = 0, int reduction = at::Reduction::Mean, bool zero_infinity = False)"
    return (f"ctc_loss() received an invalid combination of arguments - got (Tensor, Tensor, {got}, int, int, bool), "
            f"but expected one of:\n * (Tensor log_probs, Tensor targets, tuple of ints input_lengths, tuple of ints "
            f"target_lengths, {tail}\n      didn't match because some of the arguments have invalid types: (Tensor, "
            f"Tensor, {first}, !int!, !int!, !bool!)\n * (Tensor log_probs, Tensor targets, Tensor input_lengths, "
            f"Tensor target_lengths, {tail}\n      didn't match because some of the arguments have invalid types: "
            f"(Tensor, Tensor, {second}, !int!, !int!, !bool!)\n")


def _ctc_loss_impl(log_probs: Tensor, targets: Tensor, input_lengths, target_lengths, blank: int, reduction: int,
                   zero_infinity: bool) -> Tensor:
    """torch.ctc_loss (the reduction as PyTorch's enum): the checks of ctc_loss_allocate_outputs, then the node."""
    lengths = (input_lengths, target_lengths)
    if any(isinstance(v, int) for v in lengths) or len({isinstance(v, Tensor) for v in lengths}) == 2:
        raise TypeError(_ctc_overload_error(lengths))   # (an int, or one Tensor and one sequence: no overload)
    il, tl = _ctc_lengths("input_lengths", input_lengths), _ctc_lengths("target_lengths", target_lengths)
    batched = log_probs.dim() == 3
    lp = log_probs if batched else log_probs.unsqueeze(1)
    tg = targets   # (unbatched: a 1-D target is the one sample's, read as concatenated targets)
    _forward_ad.refuse_before_kernel(_D.ctc_loss, lp)   # (before _ctc_loss's checks)
    if not lp.dtype.is_floating_point or lp.dtype in (_dtypes.float16, _dtypes.bfloat16):
        raise NotImplementedError(f"\"ctc_loss_cpu\" not implemented for '{_ops._legacy(lp.dtype)}'")
    steps, batch, labels = lp.shape
    where = " (while checking arguments for ctc_loss_allocate_outputs)"
    if not 0 <= blank < labels:
        raise RuntimeError("blank must be in label range")
    if len(il) != batch:
        raise RuntimeError("input_lengths must be of size batch_size")
    if len(tl) != batch:
        raise RuntimeError("target_lengths must be of size batch_size")
    for n in tl:
        if n < 0:
            raise RuntimeError(f"Expected target_lengths to have value at least 0, but got value {n}{where}")
    if tg.dim() == 1:
        if tg.shape[0] != sum(tl):
            raise RuntimeError(f"Expected tensor to have size {sum(tl)} at dimension 0, but got size {tg.shape[0]} "
                               f"for argument #2 'targets'{where}")
    else:
        if tg.shape[0] != batch:
            raise RuntimeError(f"Expected tensor to have size {batch} at dimension 0, but got size {tg.shape[0]} "
                               f"for argument #2 'targets'{where}")
        if tg.shape[1] < max(tl, default=0):
            raise RuntimeError(f"Expected tensor to have size at least {max(tl)} at dimension 1, but got size "
                               f"{tg.shape[1]} for argument #2 'targets'{where}")
    for n in il:
        if n < 0:
            raise RuntimeError(f"Expected input_lengths to have value at least 0, but got value {n}{where}")
        if n > steps:
            raise RuntimeError(f"Expected input_lengths to have value at most {steps}, but got value {n}{where}")
    if tg.dtype != _dtypes.int64:
        tg = tg.to(_dtypes.int64)
    res = _D.ctc_loss(lp, tg, input_lengths=il, target_lengths=tl, blank=int(blank),
                     zero_infinity=bool(zero_infinity))[0]
    if zero_infinity:
        res = _ops.where(res == float("inf"), _creation.zeros((), dtype=res.dtype), res)
    if reduction == 1:
        lengths = _creation.tensor(list(tl), dtype=res.dtype).clamp_min(1)
        return (res / lengths).mean()
    if reduction == 2:
        return res.sum()
    return res if batched else res.squeeze(0)


__all__ += ["ctc_loss"]


# ---- hunt 11 (nn): max_unpool3d, fractional_max_pool3d (kernels in derivatives.py / _pool3d.py) ----------------

from .._reduce import THREADS as _THREADS  # noqa: E402  (PyTorch's intra-op thread count)


def _invalid_unpool_index(indices: Tensor, volume: int):
    """The out-of-range index PyTorch's 3-d unpooling reports, or None. Its parallel_for splits the elements into
    one chunk per thread and each thread stores the last bad index it meets; the threads race, and the main thread
    (first chunk) is seen to finish last, so: the last bad index of the first chunk that has one."""
    idx = indices._data.reshape(-1)
    where = np.flatnonzero((idx < 0) | (idx >= volume))
    if not where.size:
        return None
    chunk = -(-idx.size // max(1, min(_THREADS[0], idx.size)))
    first = where[where // chunk == where[0] // chunk]
    return int(idx[first[-1]])


def max_unpool3d(input: Tensor, indices: Tensor, kernel_size, stride=None, padding=0, output_size=None) -> Tensor:
    """max_pool3d's partial inverse: each value back at its index in the (D_out, H_out, W_out) volume, else 0."""
    if _AUTOCAST[0]:
        return _autocast("max_unpool3d", max_unpool3d, **locals())
    kernel = _three(_size_arg(kernel_size, 3))
    strides = _three(_size_arg(stride, 3)) if stride is not None else kernel
    pads = _three(_size_arg(padding, 3))
    sizes = _unpool_output_size(input, kernel, strides, pads, output_size)
    # PyTorch's max_unpooling3d_shape_check, in its order
    if indices.dtype != _dtypes.int64:
        raise RuntimeError("elements in indices should be type int64")
    if input.dim() not in (4, 5):
        raise RuntimeError(f"Input to max_unpooling3d should be a 4d or 5d Tensor, but got a tensor with "
                           f"{input.dim()} dimensions.")
    if tuple(input.shape) != tuple(indices.shape):
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor "
                           f"({list(input.shape)}) but got indices tensor with shape: {list(indices.shape)}")
    for d in range(1, input.dim()):
        if input.shape[d] <= 0:
            raise RuntimeError("max_unpooling3d_forward_out_cpu(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but got {list(input.shape)} with dimension {d} being empty.")
    if min(strides) <= 0:
        raise RuntimeError(f"strides should be greater than zero, but got stride: {list(strides)}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"max_unpool3d\" not implemented for '{_ops._legacy(input.dtype)}'")
    bad = _invalid_unpool_index(indices, sizes[0] * sizes[1] * sizes[2])
    if bad is not None:
        raise RuntimeError(f"Found an invalid max index: {bad} (output volumes are of size "
                           f"{sizes[0]}x{sizes[1]}x{sizes[2]})")
    return _D.max_unpool3d(input, indices, output_size=tuple(sizes))


def _fractional_max_pool(input: Tensor, kernel_size, output_size, samples: Tensor, k: int) -> tuple:
    """fractional_max_pool2d/3d after the Python layer: PyTorch's meta checks in their order, then the table op.
    (The 3-d kernel asks out + pool - 1 < in strictly, the 2-d one only <=.)"""
    name, count = f"fractional_max_pool{k}d", {2: "Ints", 3: "three Ints"}[k]
    kernel, size = _size_arg(kernel_size, k), _size_arg(output_size, k)
    if len(kernel) != k:
        raise RuntimeError(f"{name}: kernel_size must either be a single Int or tuple of {count}")
    if len(size) != k:
        raise RuntimeError(f"{name}: output_size must either be a single Int or tuple of {count}")
    fn = f"{name}()" if k == 2 else f"{name}_out()"
    if input.dim() not in (k + 1, k + 2):
        raise RuntimeError(f"{fn}: Expected {k + 1}D or {k + 2}D tensor, but got: {list(input.shape)}")
    for d in range(1, input.dim()):
        if input.shape[d] <= 0:
            raise RuntimeError(f"{fn}: Expected input to have non-zero size for non-batch "
                               f"dimensions, but got{list(input.shape)} with dimension {d} being empty.")
    names = ("height", "width") if k == 2 else ("time", "height", "width")
    order = (0, 1) if k == 2 else (0, 2, 1)   # (the 3-d kernel checks the width before the height)
    for out, pool, n, what in (list(zip(size, kernel, input.shape[-k:], names))[j] for j in order):
        if out + pool - 1 > n or (k == 3 and out + pool - 1 == n):
            raise RuntimeError(f"{fn}: pool {what} {pool} too large relative to input {what} {n}")
    # PyTorch's fractional_max_pool_check_shape
    if samples.dtype != input.dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")
    if samples.dim() != 3:
        raise RuntimeError(f"Expect _random_samples to have 3 dimensions, got {samples.dim()}")
    batch, channels = (1, input.size(0)) if input.dim() == k + 1 else (input.size(0), input.size(1))
    if samples.size(0) < batch:
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    if samples.size(1) != channels:
        raise RuntimeError("Expect _random_samples.size(1) equals to input channel size.")
    if samples.size(2) != k:
        raise RuntimeError(f"Expect _random_samples.size(2) equals to {k}; got {samples.size(2)}.")
    if input.dtype.is_complex:   # (its kernel takes the floating types; complex samples were drawn by then)
        raise NotImplementedError(f"\"{name}_out_frame\" not implemented for '{_ops._legacy(input.dtype)}'")
    op = _D.fractional_max_pool2d if k == 2 else _D.fractional_max_pool3d
    return tuple(op(input, kernel_size=kernel, output_size=size, random_samples=samples))


def fractional_max_pool3d_with_indices(input: Tensor, kernel_size, output_size=None, output_ratio=None,
                                       return_indices: bool = False, _random_samples=None) -> tuple:
    """(max over pseudo-random kernel_size windows giving output_size (or output_ratio of the input), indices)."""
    if _AUTOCAST[0]:
        return _autocast("fractional_max_pool3d", fractional_max_pool3d_with_indices, **locals())
    if output_size is None and output_ratio is None:
        raise ValueError("fractional_max_pool3d requires specifying either an output_size or an output_ratio")
    if output_size is None:
        ratio = tuple(output_ratio) if isinstance(output_ratio, (tuple, list)) else (output_ratio,) * 3
        output_size = [int(input.size(-3) * ratio[0]), int(input.size(-2) * ratio[1]), int(input.size(-1) * ratio[2])]
    if _random_samples is None:   # (drawn before any check, as PyTorch's Python does)
        n_batch = 1 if input.dim() == 4 else input.size(0)
        _random_samples = _creation.rand(n_batch, input.size(-4), 3, dtype=input.dtype)
    return _fractional_max_pool(input, kernel_size, output_size, _random_samples, 3)


def fractional_max_pool3d(input: Tensor, kernel_size, output_size=None, output_ratio=None,
                          return_indices: bool = False, _random_samples=None):
    """3-d fractional max pooling (Graham's), over D, H and W; with return_indices, also where."""
    values, indices = fractional_max_pool3d_with_indices(input, kernel_size, output_size, output_ratio,
                                                         return_indices, _random_samples)
    return (values, indices) if return_indices else values


__all__ += ["max_unpool3d", "fractional_max_pool3d", "fractional_max_pool3d_with_indices"]


# ---- __torch_function__ (minigrad/overrides.py): every function above hands calls on tensor-likes and Tensor
# subclasses to their __torch_function__. Wrapped here, as the module is made, so that the modules' defaults
# (TransformerEncoderLayer's activation=F.relu) are the public functions themselves.
from ..overrides import install_functional as _install_functional  # noqa: E402

_install_functional(globals())

# PyTorch's max_pool2d and its kin are boolean_dispatch wrappers passing (*args, **kwargs) on to _max_pool2d (or
# max_pool2d_with_indices for return_indices=True): Python's own errors for the arguments name that function (by
# the qualified name of the function called: the one inside the public wrapper).
for _name in ("max_pool1d", "max_pool2d", "max_pool3d", "adaptive_max_pool1d", "adaptive_max_pool2d",
              "adaptive_max_pool3d", "fractional_max_pool2d", "fractional_max_pool3d"):
    globals()[_name].__wrapped__.__qualname__ = "_" + _name
