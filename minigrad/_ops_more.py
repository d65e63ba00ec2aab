"""More user-facing operations: scans, order statistics, special functions, small linear algebra.

As in ``_ops.py``: argument checks, dtype promotion and PyTorch's error messages here, derivatives in
``derivatives.py``. Names in ``METHODS`` are also Tensor methods; all are ``minigrad.*`` functions.
"""
from __future__ import annotations

import numpy as np

from . import _dtypes, _ops, return_types
from . import derivatives as D
from ._tensor import Tensor


def _float_args(op, input, **args):
    dt = _ops._float_dtype(input)
    return op(input, dtype=dt if dt.np != input._data.dtype else None, **args)


# ---- elementwise -----------------------------------------------------------------------------

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


# ---- scans and order statistics ----------------------------------------------------------------

def cumprod(input, dim, *, dtype=None):
    """Running product along ``dim``."""
    return D.cumprod(input, dtype=_ops._int_to_long(input, dtype), dim=_ops._raw_dims(dim, input.dim())[0])


def median(input, dim=None, keepdim=False):
    """The lower median of all elements, or (values, indices) along ``dim``."""
    if dim is None:
        if input.numel() == 0:
            return Tensor._make(np.array(np.nan, input._data.dtype))
        return D.median_all(input)
    _ops._wrap_dim(dim, input.dim())
    values, indices = D.median_dim(input, dim=int(dim), keepdim=bool(keepdim))
    return return_types.make("median", values, indices)


def mode(input, dim=-1, keepdim=False):
    """(values, indices): the most frequent value along ``dim`` (the smallest among ties)."""
    _ops._wrap_dim(dim, input.dim())
    values, indices = D.mode(input, dim=int(dim), keepdim=bool(keepdim))
    return return_types.make("mode", values, indices)


# ---- shape -----------------------------------------------------------------------------------

def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Repeat each element ``repeats`` times along ``dim`` (of the flattened tensor if None)."""
    if isinstance(repeats, Tensor) and repeats.numel() == 1:
        repeats = int(repeats.item())
    if not isinstance(repeats, int):
        counts = repeats._data if isinstance(repeats, Tensor) else np.asarray(repeats)
        if dim is None:
            input, dim = input.reshape(-1), 0
        index = Tensor._make(np.repeat(np.arange(input.shape[dim]), counts).astype(np.int64))
        return input.index_select(dim, index)
    # As PyTorch: unsqueeze after ``dim``, expand, copy, view back (ViewBackward0 over CloneBackward0).
    if dim is None:
        input, dim = input.flatten(), 0
    d = _ops._wrap_dim(dim, input.dim())
    shape = list(input.shape)
    expanded = list(shape)
    expanded.insert(d + 1, repeats)
    out = input.unsqueeze(d + 1).expand(expanded).clone()
    shape[d] *= repeats
    return out.view(shape)


# ---- linear algebra --------------------------------------------------------------------------

def _check_square(A, name):
    if A.dim() < 2:
        raise RuntimeError(f"linalg.{name}: The input tensor A must have at least 2 dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"linalg.{name}: A must be batches of square matrices, but they are "
                           f"{A.shape[-2]} by {A.shape[-1]} matrices")
    if not (A.is_floating_point() or A.is_complex()):
        raise RuntimeError(f"linalg.{name}: Expected a floating point or complex tensor as input. "
                           f"Got {_ops._legacy(A.dtype)}")


def det(A):
    """Determinant of a (batch of) square matrices."""
    _check_square(A, "det")
    return D.linalg_det(A)[0]


def inverse(A):
    """Inverse of a (batch of) square matrices."""
    _check_square(A, "inv")
    lu, _ = D._lu(A._data)
    diag = np.abs(np.diagonal(lu, axis1=-2, axis2=-1)).reshape(-1, A.shape[-1])
    for row in diag:
        zero = np.nonzero(row == 0)[0]
        if zero.size:
            raise RuntimeError(f"linalg.inv: The diagonal element {zero[0] + 1} is zero, the inversion "
                               "could not be completed because the input matrix is singular.")
    return D.linalg_inv(A)


def cross(input, other, dim=None):
    """Cross product of 3-vectors along ``dim`` (the first dim of size 3 if None)."""
    if dim is None:
        sizes = [i for i, s in enumerate(np.broadcast_shapes(input.shape, other.shape)) if s == 3]
        if not sizes:
            raise RuntimeError("no dimension of size 3 in input")
        dim = sizes[0]
    return linalg_cross(input, other, dim=dim)


def linalg_cross(input, other, *, dim=-1):
    """Cross product of 3-vectors along ``dim``."""
    if input.dim() != other.dim():
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    shape = np.broadcast_shapes(input.shape, other.shape)
    d = _ops._wrap_dim(dim, len(shape))
    if input.shape[d] != 3 or other.shape[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got {input.shape[d]} "
                           f"and {other.shape[d]}")
    return _ops._binary(D.linalg_cross, input, other, dim=dim)


METHODS = [
    "nan_to_num", "lgamma", "digamma", "hypot", "fmod", "remainder", "xlogy", "logaddexp", "logaddexp2",
    "cumprod", "median", "mode", "repeat_interleave", "det", "inverse", "cross",
]
FUNCTIONS = ["polygamma"]


def _attach_methods():
    for name in METHODS:
        setattr(Tensor, name, globals()[name])
    Tensor.polygamma = lambda self, n: polygamma(n, self)


_attach_methods()
