"""``torch.*`` spellings of ``nn.functional`` (PyTorch exposes its ATen operators at the top level).

They take ATen's arguments, not ``F``'s: ``torch.embedding(weight, indices)`` (weight first),
``torch.batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled)``,
losses with an integer ``reduction`` (0 none, 1 mean, 2 sum; 0 by default in PyTorch's bindings), dropouts
with ``train`` required. Each maps its arguments and calls ``F``, so the nodes are ``F``'s; ``native_dropout``
has its own (NativeDropoutBackward0).
Also the ``torch.*`` names of removed solvers (``torch.solve`` ...), which only raise PyTorch's error.
"""
from __future__ import annotations

import warnings

import numpy as np

from . import _arg_errors, _ops
from . import derivatives as D
from ._tensor import Tensor
from ._warn_once import warn_once
from .nn import functional as F

_REDUCTIONS = ("none", "mean", "sum")   # ATen's Reduction enum, by value


def _reduction(value) -> str:
    return _REDUCTIONS[value] if isinstance(value, int) else value


# =============================================================================================
# Layers and normalization
# =============================================================================================

def embedding(weight, indices, padding_idx: int = -1, scale_grad_by_freq: bool = False, sparse: bool = False):
    """``F.embedding(indices, weight)``; a negative padding_idx means none."""
    return F.embedding(indices, weight, padding_idx if padding_idx >= 0 else None,
                       scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled):
    """``F.batch_norm`` with ATen's argument order."""
    return F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn_enabled):
    """``F.instance_norm`` with ATen's argument order."""
    return F.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps)


def native_layer_norm(input, normalized_shape, weight, bias, eps):
    """Layer norm's (output, mean, rstd), the statistics with the normalized dims kept as 1."""
    F.layer_norm(input.detach(), normalized_shape, None if weight is None else weight.detach(),
                 None if bias is None else bias.detach(), eps)   # (F's checks)
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    stand_in = D.absent(input.dtype.np)
    return D.native_layer_norm(input, stand_in if weight is None else weight, stand_in if bias is None else bias,
                               normalized_shape=shape, eps=eps)


def native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps):
    """Batch norm's (output, save_mean, save_invstd) (empty statistics in evaluation)."""
    if training and input.numel() == 0:   # (batch_norm_cpu's check; F.batch_norm returns a copy before it)
        raise RuntimeError(f"input tensor must have at least one element, but got input_sizes = {list(input.shape)}")
    F.batch_norm(input.detach(), None if running_mean is None else running_mean.clone(),
                 None if running_var is None else running_var.clone(), None, None, training, momentum, eps)
    stand_in = D.absent(input.dtype.np)
    return D.native_batch_norm(input, stand_in if weight is None else weight, stand_in if bias is None else bias,
                               running_mean=running_mean, running_var=running_var, training=bool(training),
                               momentum=float(momentum), eps=float(eps))


def _softmax_kernel(name: str, input, dim, half_to_float):
    """``torch._softmax`` / ``torch._log_softmax``: the kernel call under ``F.softmax``, with its parser's checks."""
    if not _arg_errors._is_index(dim):
        raise _arg_errors.must_be(name, "dim", "int", dim, 2)
    if not isinstance(half_to_float, bool):
        raise _arg_errors.must_be(name, "half_to_float", "bool", half_to_float, 3)
    _ops._wrap_dim(int(dim), input.dim())   # (the dim's error before the CPU's refusal)
    if half_to_float:   # (a float32 result from float16 input: CUDA only)
        raise RuntimeError("softmax with half to float conversion is not supported on CPU")
    return (F.softmax if name == "_softmax" else F.log_softmax)(input, int(dim))


def _softmax(input, dim, half_to_float):
    """softmax along ``dim`` (``half_to_float`` must be False on the CPU)."""
    return _softmax_kernel("_softmax", input, dim, half_to_float)


def _log_softmax(input, dim, half_to_float):
    """log_softmax along ``dim`` (``half_to_float`` must be False on the CPU)."""
    return _softmax_kernel("_log_softmax", input, dim, half_to_float)


def bilinear(input1, input2, weight, bias=None):
    """``F.bilinear``."""
    if not isinstance(weight, Tensor):
        raise _arg_errors.must_be("bilinear", "weight", "Tensor", weight, 3)
    return F.bilinear(input1, input2, weight, bias)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups: int = 1):
    """``F.conv3d``."""
    return F.conv3d(input, weight, bias, stride, padding, dilation, groups)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups: int = 1, dilation=1):
    """3-d transposed convolution of (N, C_in, D, H, W) with weight (C_in, C_out/groups, kD, kH, kW)."""
    return F._conv_transpose_nd(input, weight, bias, stride, padding, output_padding, groups, dilation, 3,
                                "conv_transpose3d")


def convolution(input, weight, bias, stride, padding, dilation, transposed: bool, output_padding, groups: int):
    """The convolution every ``F.conv*`` is: N-d by the input's dims (batched), transposed or not."""
    k = input.dim() - 2
    if transposed:
        return F._conv_transpose_nd(input, weight, bias, stride, padding, output_padding, groups, dilation, k,
                                    f"conv_transpose{k}d")
    # (F.conv*d's first check, of the bias's dtype, is not torch.convolution's: its shapes' errors come first)
    return F._conv_nd(input, weight, bias, stride, padding, dilation, groups, k, f"conv{k}d")


def max_pool1d_with_indices(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode: bool = False):
    """``F.max_pool1d_with_indices`` (an empty stride: the kernel size)."""
    return F.max_pool1d_with_indices(input, kernel_size, stride if stride not in ((), []) else None, padding, dilation,
                                     ceil_mode)


def max_pool1d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode: bool = False):
    """``torch.max_pool1d``: the C function under ``F.max_pool1d`` (no return_indices; its parser's errors)."""
    return F.max_pool1d(input, kernel_size, stride if stride not in ((), []) else None, padding, dilation, ceil_mode)


def max_pool2d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode: bool = False):
    """``torch.max_pool2d``: the C function under ``F.max_pool2d`` (no return_indices; its parser's errors)."""
    return F.max_pool2d(input, kernel_size, stride if stride not in ((), []) else None, padding, dilation, ceil_mode)


def max_pool3d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode: bool = False):
    """``torch.max_pool3d``: the C function under ``F.max_pool3d`` (no return_indices; its parser's errors)."""
    return F.max_pool3d(input, kernel_size, stride if stride not in ((), []) else None, padding, dilation, ceil_mode)


def constant_pad_nd(input, pad, value=0):
    """``F.pad(input, pad, value=value)`` (ConstantPadNdBackward0), with aten's own checks and messages (its
    ``Scalar value`` may be complex, which F.pad's ``float value`` refuses)."""
    pad = _arg_errors.int_list("constant_pad_nd", "pad", pad, 2)
    if len(pad) % 2:
        raise RuntimeError(f"Length of pad must be even but instead it equals {len(pad)}")
    if len(pad) // 2 > input.dim():   # (the missing spaces are PyTorch's)
        raise RuntimeError("Length of pad should be no more than twice the number of dimensions of the input. Pad "
                           f"length is {len(pad)}while the input has {input.dim()}dimensions.")
    if isinstance(value, (complex, np.complexfloating)):
        if input.is_complex():
            return D.constant_pad_nd(input, pad=tuple(int(p) for p in pad), value=value)
        if input.dtype.name == "bool":   # (any nonzero number is True)
            value = bool(value)
        elif value.imag != 0:
            c_name = _ops._CPP_NAMES.get(input.dtype.name, input.dtype.name)
            raise RuntimeError(f"value cannot be converted to type {c_name} without overflow")
        else:
            value = value.real
    return F.pad(input, pad, "constant", value)


# =============================================================================================
# Losses (integer reductions)
# =============================================================================================

def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=0):
    """``F.binary_cross_entropy_with_logits``."""
    return F.binary_cross_entropy_with_logits(input, target, weight, reduction=_reduction(reduction),
                                              pos_weight=pos_weight)


def kl_div(input, target, reduction=0, *, log_target: bool = False):
    """``F.kl_div`` (1, "mean": over every element, without F's warning)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return F.kl_div(input, target, reduction=_reduction(reduction), log_target=log_target)


def cosine_embedding_loss(input1, input2, target, margin: float = 0.0, reduction=0):
    """``F.cosine_embedding_loss``."""
    return F.cosine_embedding_loss(input1, input2, target, margin, reduction=_reduction(reduction))


def hinge_embedding_loss(input, target, margin: float = 1.0, reduction=0):
    """``F.hinge_embedding_loss``."""
    return F.hinge_embedding_loss(input, target, margin, reduction=_reduction(reduction))


def margin_ranking_loss(input1, input2, target, margin: float = 0.0, reduction=0):
    """``F.margin_ranking_loss``."""
    return F.margin_ranking_loss(input1, input2, target, margin, reduction=_reduction(reduction))


def triplet_margin_loss(anchor, positive, negative, margin: float = 1.0, p: float = 2, eps: float = 1e-06,
                        swap: bool = False, reduction=0):
    """``F.triplet_margin_loss``."""
    return F.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, reduction=_reduction(reduction))


def poisson_nll_loss(input, target, log_input: bool, full: bool, eps: float, reduction):
    """``F.poisson_nll_loss`` (every argument required, as ATen's)."""
    return F.poisson_nll_loss(input, target, log_input, full, eps=eps, reduction=_reduction(reduction))


# =============================================================================================
# Dropout (train required; a bad p is a RuntimeError here, F's is a ValueError)
# =============================================================================================

def _check_p(p: float) -> None:
    if not 0 <= p <= 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout(input, p: float, train: bool):
    """``F.dropout`` with ``train`` for ``training``."""
    _check_p(p)
    return F.dropout(input, p, train)


def dropout_(input, p: float, train: bool):
    """In-place dropout."""
    _check_p(p)
    return F.dropout(input, p, train, inplace=True)


def _feature_dropout(input, p: float, train: bool, inplace: bool):
    _check_p(p)
    if input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    if not train or p == 0 or input.numel() == 0:
        return input
    # one draw per (sample, channel), broadcast over the rest (Dropout.cpp's make_feature_noise)
    noise = F._dropout_mask(input, input.shape[:2] + (1,) * (input.dim() - 2), p)
    return input.mul_(noise) if inplace else _ops.mul(input, noise)


def feature_dropout(input, p: float, train: bool):
    """Dropout of whole channels (dim 1), any number of dims after it."""
    return _feature_dropout(input, p, train, False)


def feature_dropout_(input, p: float, train: bool):
    """In-place feature_dropout."""
    return _feature_dropout(input, p, train, True)


def alpha_dropout(input, p: float, train: bool):
    """``F.alpha_dropout``."""
    _check_p(p)
    return F.alpha_dropout(input, p, train)


def alpha_dropout_(input, p: float, train: bool):
    """In-place alpha_dropout."""
    _check_p(p)
    return F.alpha_dropout(input, p, train, inplace=True)


def feature_alpha_dropout(input, p: float, train: bool):
    """``F.feature_alpha_dropout``."""
    _check_p(p)
    return F.feature_alpha_dropout(input, p, train)


def feature_alpha_dropout_(input, p: float, train: bool):
    """In-place feature_alpha_dropout."""
    _check_p(p)
    return F.feature_alpha_dropout(input, p, train, inplace=True)


def native_dropout(input, p: float, train):
    """(output, mask): output = input·mask/(1-p) with a bool mask (train None counts as True)."""
    if input.numel() == 0:
        return input, Tensor._make(np.empty_like(input._data))
    if train is None or train:
        keep = F._dropout_noise(input, input.shape, p) != 0
        scale = 0.0 if p == 1 else 1.0 / (1.0 - p)
    else:
        keep, scale = np.ones(input._data.shape, dtype=bool), 1.0
    return D.native_dropout(input, p=p, _train=train, _mask=keep, _scale=scale)


def rrelu(input, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False, generator=None):
    """``F.rrelu``."""
    return F.rrelu(input, lower, upper, training)


def rrelu_(input, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False, generator=None):
    """``F.rrelu_``."""
    return F.rrelu_(input, lower, upper, training)


def celu(input, alpha=1.0):
    """``F.celu`` without its inplace (torch.celu(x, 1., True) is one argument too many)."""
    return F.celu(input, alpha)


def selu(input):
    """``F.selu`` without its inplace."""
    return F.selu(input)


def threshold(input, threshold, value, *, out=None):
    """``F.threshold`` without its inplace, with ATen's out=."""
    if out is not None:
        return _ops._into_out("threshold", out, (input,), lambda: F.threshold(input, threshold, value))
    return F.threshold(input, threshold, value)


# =============================================================================================
# Norms kept for TorchScript (deprecated in PyTorch, with a TORCH_WARN_ONCE)
# =============================================================================================

_DEPRECATED = ("at::{0} is deprecated and it is just left for JIT compatibility. It will be removed in a future "
               "PyTorch release. Please use `{1}` instead (Triggered internally at "
               "/__w/pytorch/pytorch/aten/src/ATen/native/LinearAlgebra.cpp:{2}.)")


def frobenius_norm(input, dim, keepdim: bool = False):
    """√(Σ x²) over ``dim`` (at most 2 dims): at::norm(input, 2, dim, keepdim)."""
    warn_once("frobenius_norm", _DEPRECATED.format("frobenius_norm", "linalg.vector_norm(A, 2., dim, keepdim)", 3175))
    dim = (dim,) if isinstance(dim, int) else tuple(dim)
    if len(dim) > 2:
        raise RuntimeError(f"Expected at most 2 dimensions, but got {len(dim)} dimensions instead.")
    if not (input.is_floating_point() or input.is_complex()):   # (at::norm's checks: the dtype, repeated dims)
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. Got "
                           f"{_ops._legacy(input.dtype)} instead.")
    wrapped = tuple(_ops._wrap_dim(d, input.dim()) for d in dim)
    for i, d in enumerate(wrapped):
        if d in wrapped[:i]:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return D.norm(input, p=2.0, dim=wrapped, keepdim=bool(keepdim))


def nuclear_norm(input, dim=None, keepdim: bool = False):
    """The sum of the singular values of the matrices over ``dim`` (the last two by default)."""
    from . import linalg
    if isinstance(dim, bool):   # nuclear_norm(input, keepdim)
        dim, keepdim = None, dim
    warn_once("nuclear_norm", _DEPRECATED.format("nuclear_norm", "linalg.matrix_norm(A, 'nuc', dim, keepdim)", 3229))
    return linalg.matrix_norm(input, "nuc", dim=(-2, -1) if dim is None else tuple(dim), keepdim=keepdim)


def native_norm(input, p=2, dim=None, keepdim: bool = False, dtype=None):
    """PyTorch has this operator for sparse tensors only: on a dense one it raises."""
    overload = "aten::native_norm" if dim is None else "aten::native_norm.ScalarOpt_dim_dtype"
    raise NotImplementedError(f"Could not run '{overload}' with arguments from the 'CPU' backend. This could be "
                              "because the operator doesn't exist for this backend, or was omitted during the "
                              "selective/custom build process (if using custom build).")


# =============================================================================================
# Recurrent cells (RNN.cpp's rnn_tanh_cell, rnn_relu_cell, lstm_cell, gru_cell: checks, then one step)
# =============================================================================================

def _weight_checks(w_ih, w_hh, gates: int) -> None:
    """The weights' first dims: gates · hidden_size, hidden_size read from w_hh (RNN.cpp's cell checks)."""
    hidden = w_hh.size(1)
    for name, w in (("weight_ih", w_ih), ("weight_hh", w_hh)):
        if w.size(0) != gates * hidden:
            raise RuntimeError(f"{name} first dim must be {gates} * hidden_size = {gates * hidden}, but got "
                               f"{w.size(0)}")


def _cell_checks(input, hx, w_ih, w_hh, label: int = 0) -> None:
    from .nn.modules.rnn import _check_hidden, _check_input
    _check_input(input, w_ih)
    _check_hidden(input, hx, w_hh.shape[1], label)


def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One Elman step: tanh(x·W_ihᵀ + b_ih + h·W_hhᵀ + b_hh)."""
    from .nn.modules.rnn import _simple_cell
    _weight_checks(w_ih, w_hh, 1)   # (the weights first, then the input and hidden state)
    _cell_checks(input, hx, w_ih, w_hh)
    return _simple_cell("tanh")(input, hx, (w_ih, w_hh, b_ih, b_hh, None))


def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One Elman step with relu."""
    from .nn.modules.rnn import _simple_cell
    _weight_checks(w_ih, w_hh, 1)
    _cell_checks(input, hx, w_ih, w_hh)
    return _simple_cell("relu")(input, hx, (w_ih, w_hh, b_ih, b_hh, None))


def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One LSTM step: (h, c) → (h', c')."""
    from .nn.modules.rnn import _check_hidden, _check_input, _lstm_cell
    if not isinstance(hx, (list, tuple)):
        raise _arg_errors.must_be("lstm_cell", "hx", "tuple of Tensors", hx, 2)
    if len(hx) != 2:
        raise RuntimeError("lstm_cell expects two hidden states")
    _check_input(input, w_ih)
    _weight_checks(w_ih, w_hh, 4)   # (lstm_cell: the input, the weights, then the hidden states)
    _check_hidden(input, hx[0], w_hh.shape[1], 0)
    _check_hidden(input, hx[1], w_hh.shape[1], 1)
    return _lstm_cell(input, tuple(hx), (w_ih, w_hh, b_ih, b_hh, None))


def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One GRU step."""
    from .nn.modules.rnn import _gru_cell
    _cell_checks(input, hx, w_ih, w_hh)
    _weight_checks(w_ih, w_hh, 3)   # (gru_cell: the input and hidden state, then the weights)
    return _gru_cell(input, hx, (w_ih, w_hh, b_ih, b_hh, None))


# =============================================================================================
# Removed solvers: the names stay, raising PyTorch's error (its _linalg_utils.py)
# =============================================================================================

_REMOVED_SINCE = "This function was deprecated since version 1.9 and is now removed."
_SOLVE = (f"{_REMOVED_SINCE} `torch.solve` is deprecated in favor of `torch.linalg.solve`. `torch.linalg.solve` has "
          "its arguments reversed and does not return the LU factorization.\n\nTo get the LU factorization see "
          "`torch.lu`, which can be used with `torch.lu_solve` or `torch.lu_unpack`.\nX = torch.solve(B, A).solution "
          "should be replaced with:\nX = torch.linalg.solve(A, B)")
_EIG = (f"{_REMOVED_SINCE} `torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` rather than real "
        "tensors mimicking complex tensors.\n\nL, _ = torch.eig(A) should be replaced with:\nL_complex = "
        "torch.linalg.eigvals(A)\n\nand\n\nL, V = torch.eig(A, eigenvectors=True) should be replaced with:\n"
        "L_complex, V_complex = torch.linalg.eig(A)")
_SYMEIG = (f"{_REMOVED_SINCE} The default behavior has changed from using the upper triangular portion of the matrix "
           "by default to using the lower triangular portion.\n\nL, _ = torch.symeig(A, upper=upper) should be "
           "replaced with:\nL = torch.linalg.eigvalsh(A, UPLO='U' if upper else 'L')\n\nand\n\nL, V = "
           "torch.symeig(A, eigenvectors=True) should be replaced with:\nL, V = torch.linalg.eigh(A, UPLO='U' if "
           "upper else 'L')")
_LSTSQ = (f"{_REMOVED_SINCE} `torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n`torch.linalg.lstsq` has "
          "reversed arguments and does not return the QR decomposition in the returned tuple (although it returns "
          "other information about the problem).\n\nTo get the QR decomposition consider using `torch.linalg.qr`."
          "\n\nThe returned solution in `torch.lstsq` stored the residuals of the solution in the last m - n columns "
          "of the returned value whenever m > n. In torch.linalg.lstsq, the residuals are in the field 'residuals' of "
          "the returned named tuple.\n\nThe unpacking of the solution, as in\nX, _ = torch.lstsq(B, A).solution"
          "[:A.size(1)]\nshould be replaced with:\nX = torch.linalg.lstsq(A, B).solution")
_MATRIX_RANK = (f"{_REMOVED_SINCE}\nPlease use the `torch.linalg.matrix_rank` function instead. The parameter "
                "'symmetric' was renamed in `torch.linalg.matrix_rank()` to 'hermitian'.")


def solve(input, A, *, out=None):
    """Removed from PyTorch (use torch.linalg.solve(A, B)): raises its error."""
    raise RuntimeError(_SOLVE)


def eig(self, eigenvectors: bool = False, *, e=None, v=None):
    """Removed from PyTorch (use torch.linalg.eig): raises its error."""
    raise RuntimeError(_EIG)


def symeig(input, eigenvectors: bool = False, upper: bool = True, *, out=None):
    """Removed from PyTorch (use torch.linalg.eigh): raises its error."""
    raise RuntimeError(_SYMEIG)


def lstsq(input, A, *, out=None):
    """Removed from PyTorch (use torch.linalg.lstsq(A, B)): raises its error."""
    raise RuntimeError(_LSTSQ)


def matrix_rank(input, tol=None, symmetric: bool = False, *, out=None):
    """Removed from PyTorch (use torch.linalg.matrix_rank): raises its error."""
    raise RuntimeError(_MATRIX_RANK)


def _removed_method(message: str, name: str):
    def method(self, *args, **kwargs):
        raise RuntimeError(message)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = "Removed from PyTorch: raises its error."
    return method


Tensor.solve, Tensor.eig = _removed_method(_SOLVE, "solve"), _removed_method(_EIG, "eig")
Tensor.symeig, Tensor.lstsq = _removed_method(_SYMEIG, "symeig"), _removed_method(_LSTSQ, "lstsq")


FUNCTIONS = [
    "embedding", "batch_norm", "instance_norm", "native_layer_norm", "native_batch_norm", "bilinear", "conv3d",
    "conv_transpose3d", "convolution", "max_pool1d", "max_pool2d", "max_pool3d", "max_pool1d_with_indices",
    "constant_pad_nd", "_softmax", "_log_softmax",
    "binary_cross_entropy_with_logits", "kl_div",
    "cosine_embedding_loss", "hinge_embedding_loss", "margin_ranking_loss", "triplet_margin_loss", "poisson_nll_loss",
    "dropout", "dropout_", "feature_dropout", "feature_dropout_", "alpha_dropout", "alpha_dropout_",
    "feature_alpha_dropout", "feature_alpha_dropout_", "native_dropout", "rrelu", "rrelu_", "frobenius_norm",
    "nuclear_norm", "native_norm", "rnn_tanh_cell", "rnn_relu_cell", "lstm_cell", "gru_cell",
    "solve", "eig", "symeig", "lstsq", "matrix_rank", "celu", "selu", "threshold",
]

# torch.embedding(3, indices) ...: PyTorch's "must be Tensor" TypeErrors for the first (and second) argument
_arg_errors.TENSOR_FIRST.update(dict.fromkeys((
    "native_dropout", "dropout_", "feature_dropout", "feature_dropout_", "alpha_dropout", "alpha_dropout_",
    "feature_alpha_dropout", "feature_alpha_dropout_", "frobenius_norm", "nuclear_norm", "rrelu", "rrelu_",
    "native_layer_norm", "native_batch_norm", "batch_norm", "instance_norm", "conv_transpose3d", "convolution",
    "constant_pad_nd", "kl_div", "binary_cross_entropy_with_logits", "hinge_embedding_loss", "poisson_nll_loss",
    "_softmax", "_log_softmax")))
_arg_errors.TENSOR_FIRST.update({"embedding": ("embedding", "weight"), "bilinear": ("bilinear", "input1"),
                                 "cosine_embedding_loss": ("cosine_embedding_loss", "input1"),
                                 "margin_ranking_loss": ("margin_ranking_loss", "input1"),
                                 "triplet_margin_loss": ("triplet_margin_loss", "anchor")})
_arg_errors.TENSOR_SECOND.update({"embedding": "indices", "kl_div": "target",
                                  "binary_cross_entropy_with_logits": "target", "hinge_embedding_loss": "target",
                                  "poisson_nll_loss": "target", "bilinear": "input2",
                                  "cosine_embedding_loss": "input2", "margin_ranking_loss": "input2",
                                  "triplet_margin_loss": "positive"})
