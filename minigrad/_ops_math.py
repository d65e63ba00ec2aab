"""Elementwise math beyond ``_ops.py``: trigonometric and special functions, remainders, bitwise ops.

Also a few ops along one dim (softmax, cumprod, std_mean) and the constants ``pi``, ``e``, ``inf``, ``nan``.
As in ``_ops.py``: argument checks, dtype promotion and PyTorch's error messages here, derivatives in
``derivatives.py``.
"""
from __future__ import annotations

import math

import numpy as np

from . import _dtypes, _ops
from . import derivatives as D
from ._tensor import Tensor

# =============================================================================================
# Trigonometric, hyperbolic and error functions
# =============================================================================================

def _float_unary(op):
    def fn(input):
        return _ops._unary(op, input)
    fn.__name__ = op.name
    fn.__doc__ = f"Elementwise {op.name} (integers give floats)."
    return fn


sinh, cosh = _float_unary(D.sinh), _float_unary(D.cosh)


asin, acos, atan = _float_unary(D.asin), _float_unary(D.acos), _float_unary(D.atan)


asinh, acosh, atanh = _float_unary(D.asinh), _float_unary(D.acosh), _float_unary(D.atanh)


erf, erfc = _float_unary(D.erf), _float_unary(D.erfc)


arcsin, arccos, arctan, arcsinh, arccosh, arctanh = asin, acos, atan, asinh, acosh, atanh


def atan2(input, other):
    """Elementwise angle of the point (other, input), in (-π, π]."""
    return _ops._binary(D.atan2, input, other, promote_int_to_float=True)


arctan2 = atan2


# =============================================================================================
# Special functions
# =============================================================================================

def _float_args(op, input, **args):
    dt = _ops._float_dtype(input)
    return op(input, dtype=dt if dt.np != input._data.dtype else None, **args)


def nan_to_num(input, nan: float = 0.0, posinf: float | None = None, neginf: float | None = None):
    """NaN -> ``nan``, +inf/-inf -> ``posinf``/``neginf`` (the dtype's largest/smallest by default)."""
    if not input.is_floating_point():
        return input.clone()
    info = np.finfo(input._data.dtype)
    return D.nan_to_num(input, nan=float(nan), posinf=float(info.max if posinf is None else posinf),
                        neginf=float(info.min if neginf is None else neginf))


def lgamma(input):
    """log |Γ(x)|."""
    return _float_args(D.lgamma, input)


def digamma(input):
    """ψ(x) = d log Γ(x) / dx."""
    return _float_args(D.digamma, input)


def polygamma(n: int, input):
    """ψ⁽ⁿ⁾(x), the n-th derivative of digamma."""
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return _float_args(D.polygamma, input, n=int(n))


# =============================================================================================
# Two-tensor functions: hypot, remainders, xlogy, logaddexp
# =============================================================================================

def _float_only(name, input, other):
    """hypot/logaddexp have no integer kernels in PyTorch: the promoted dtype must be floating."""
    dt = _dtypes.result_type(input, other)
    if not (dt.is_floating_point or dt.is_complex):
        raise NotImplementedError(f'"{name}_cpu" not implemented for \'{_ops._legacy(dt)}\'')


def hypot(input, other):
    """√(input² + other²), elementwise."""
    _float_only("hypot", input, other)
    return _ops._binary(D.hypot, input, other)


def fmod(input, other):
    """C-style remainder (sign of the dividend)."""
    if isinstance(other, Tensor):
        return _ops._binary(D.fmod_tensor, input, other)
    return D.fmod(input, other=other)


def remainder(input, other):
    """Python-style remainder (sign of the divisor)."""
    if not isinstance(input, Tensor):       # 2 % t: the number becomes a tensor of the result's dtype
        input = _ops._as_tensor_like(input, other)
    if isinstance(other, Tensor):
        return _ops._binary(D.remainder_tensor, input, other)
    return D.remainder(input, other=other)


def xlogy(input, other):
    """input · log(other), 0 where input == 0 (unless other is NaN)."""
    if not isinstance(input, Tensor):
        input = _ops._as_tensor_like(input, other)
    return _ops._binary(D.xlogy, input, other, promote_int_to_float=True)


def logaddexp(input, other):
    """log(e^input + e^other), without overflow."""
    _float_only("logaddexp", input, other)
    return _ops._binary(D.logaddexp, input, other)


def logaddexp2(input, other):
    """log₂(2^input + 2^other), without overflow."""
    _float_only("logaddexp2", input, other)
    return _ops._binary(D.logaddexp2, input, other)


# =============================================================================================
# Bitwise (integers and bools; no gradients)
# =============================================================================================

def _bitwise(np_fn, name):
    def fn(input, other):
        a = input if isinstance(input, Tensor) else _ops._wrap_scalar(input)
        if a.dtype.is_floating_point or a.dtype.is_complex or getattr(other, "dtype", _dtypes.int64)._kind > 1 \
                or isinstance(other, (float, complex)):
            raise NotImplementedError(f'"{name}_cpu" not implemented for '
                               f"'{_ops._legacy(a.dtype if a.dtype._kind > 1 else other.dtype)}'")
        dt = _dtypes.result_type(a, other)
        b = other._data if isinstance(other, Tensor) else other
        return Tensor._make(np.asarray(np_fn(a._data, b)).astype(dt.np, copy=False))
    fn.__name__ = name
    fn.__doc__ = f"Elementwise {name.replace('_', ' ')} of integer or bool tensors."
    return fn


bitwise_and = _bitwise(np.bitwise_and, "bitwise_and")


bitwise_or = _bitwise(np.bitwise_or, "bitwise_or")


bitwise_xor = _bitwise(np.bitwise_xor, "bitwise_xor")


bitwise_left_shift = _bitwise(np.left_shift, "lshift")


bitwise_right_shift = _bitwise(np.right_shift, "rshift")


def bitwise_not(input):
    """~x for integer and bool tensors."""
    if input.dtype.is_floating_point or input.dtype.is_complex:
        raise NotImplementedError(f"\"bitwise_not_cpu\" not implemented for '{_ops._legacy(input.dtype)}'")
    return Tensor._make(np.invert(input._data))


# =============================================================================================
# Along one dim: softmax, running product, (std|var, mean) in one node
# =============================================================================================

def softmax(input, dim, dtype=None):
    """e^x / Σ e^x along ``dim`` (as torch.nn.functional.softmax)."""
    from .nn import functional as F
    return F.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim, dtype=None):
    """log(softmax(x)) along ``dim`` (as torch.nn.functional.log_softmax)."""
    from .nn import functional as F
    return F.log_softmax(input, dim, dtype=dtype)


def cumprod(input, dim, *, dtype=None):
    """Running product along ``dim``."""
    return D.cumprod(input, dtype=_ops._int_to_long(input, dtype), dim=_ops._raw_dims(dim, input.dim())[0])


def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """(std, mean) over ``dim``, recorded as one node (StdMeanBackward0)."""
    return D.std_mean(input, **_ops._var_args(input, dim, unbiased, keepdim, correction, "std_mean"))


def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """(var, mean) over ``dim``, recorded as one node (VarMeanBackward0)."""
    return D.var_mean(input, **_ops._var_args(input, dim, unbiased, keepdim, correction, "var_mean"))


# torch.pi, torch.e, torch.inf, torch.nan
pi = math.pi
e = math.e
inf = math.inf
nan = math.nan


def _softmax_method(name):
    def method(self, dim=None, dtype=None):
        if dim is None:
            raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')
        return globals()[name](self, dim, dtype=dtype)
    method.__name__ = name
    return method


# =============================================================================================
# Tensor methods and minigrad.* names
# =============================================================================================

# Tensor methods that are also minigrad.* functions.
METHODS = [
    "sinh", "cosh", "asin", "acos", "atan", "asinh", "acosh", "atanh", "erf", "erfc", "atan2", "arcsin", "arccos",
    "arctan", "arcsinh", "arccosh", "arctanh", "arctan2", "nan_to_num", "lgamma", "digamma", "hypot", "fmod",
    "remainder", "xlogy", "logaddexp", "logaddexp2", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not",
    "bitwise_left_shift", "bitwise_right_shift", "cumprod",
]
# minigrad.* functions only.
FUNCTIONS = [
    "polygamma", "softmax", "log_softmax", "std_mean", "var_mean", "pi", "e", "inf", "nan",
]


def _attach_methods():
    for name in METHODS:
        setattr(Tensor, name, globals()[name])
    # torch.softmax(x, dim) is also x.softmax(dim), where dim is required too
    Tensor.softmax = _softmax_method("softmax")
    Tensor.log_softmax = _softmax_method("log_softmax")
    Tensor.polygamma = lambda self, n: polygamma(n, self)
    Tensor.__lshift__ = lambda self, other: bitwise_left_shift(self, other)
    Tensor.__rshift__ = lambda self, other: bitwise_right_shift(self, other)


_attach_methods()
