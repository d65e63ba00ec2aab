"""Matrices: triangles, diagonals, trace, determinant, inverse, cross product.

``minigrad.linalg`` (torch.linalg) re-exports det/inv/cross from here. As in ``_ops.py``: argument checks
and PyTorch's error messages here, derivatives in ``derivatives.py``.
"""
from __future__ import annotations

import numpy as np

from . import _dtypes, _ops
from . import derivatives as D
from ._tensor import Tensor

# =============================================================================================
# Triangles, diagonals and trace
# =============================================================================================

def _check_2d(input, name):
    if input.dim() < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")


def tril(input, diagonal=0):
    """The lower triangle (entries on and below the ``diagonal``-th diagonal), zeros elsewhere."""
    _check_2d(input, "tril")
    return D.tril(input, diagonal=int(diagonal))


def triu(input, diagonal=0):
    """The upper triangle (entries on and above the ``diagonal``-th diagonal), zeros elsewhere."""
    _check_2d(input, "triu")
    return D.triu(input, diagonal=int(diagonal))


def trace(input):
    """Sum of the main diagonal of a matrix."""
    if input.dim() != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.dim()}")
    dt = _dtypes.int64 if input.dtype._kind < 2 else None
    return D.trace(input, dtype=dt)


def diag(input, diagonal=0):
    """A vector's square diagonal matrix, or a matrix's diagonal as a vector."""
    if input.dim() == 1:
        return D.diag_embed(input, offset=int(diagonal), dim1=0, dim2=1)
    if input.dim() == 2:
        return D.diagonal_copy(input, offset=int(diagonal), dim1=0, dim2=1)
    raise RuntimeError("diag(): Supports 1D or 2D tensors. Got " + f"{input.dim()}D")


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Each last-dim vector of ``input`` on the diagonal of a matrix (only dim1=-2, dim2=-1)."""
    if (dim1, dim2) != (-2, -1):
        raise NotImplementedError("diag_embed supports dim1=-2, dim2=-1 only")
    return D.diag_embed(input, offset=int(offset), dim1=dim1, dim2=dim2)


def tril_indices(row, col, offset=0, *, dtype=None, **kwargs):
    """Indices (2, n) of the lower triangle of a row x col matrix."""
    return Tensor._make(np.stack(np.tril_indices(row, offset, col)).astype((dtype or _dtypes.int64).np))


def triu_indices(row, col, offset=0, *, dtype=None, **kwargs):
    """Indices (2, n) of the upper triangle of a row x col matrix."""
    return Tensor._make(np.stack(np.triu_indices(row, offset, col)).astype((dtype or _dtypes.int64).np))


# =============================================================================================
# Determinant, inverse, cross product
# =============================================================================================

class _LinAlgError(RuntimeError):
    """A matrix has no inverse, factorization or solution (PyTorch's torch.linalg.LinAlgError)."""


def batch_prefix(failed, shape) -> str:
    """PyTorch's "(Batch element k): " for the first failing matrix of a batch (nothing for one matrix)."""
    if not shape:
        return ""
    return f"(Batch element {int(np.flatnonzero(np.asarray(failed).reshape(-1))[0])}): "


def singular_pivot(A) -> np.ndarray:
    """For each matrix of A, the 1-based index of the first zero pivot of its LU factorization (0: none)."""
    lu, _ = D._lu(A._data)
    zero = np.diagonal(lu, axis1=-2, axis2=-1) == 0
    return np.where(zero.any(-1), zero.argmax(-1) + 1, 0).astype(np.int32)


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
    info = singular_pivot(A)
    if info.any():
        raise _LinAlgError(f"linalg.inv: {batch_prefix(info, info.shape)}The diagonal element "
                           f"{info.reshape(-1)[np.flatnonzero(info)[0]]} is zero, the inversion could not be "
                           "completed because the input matrix is singular.")
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


# =============================================================================================
# Tensor methods and minigrad.* names
# =============================================================================================

# Tensor methods that are also minigrad.* functions.
# =============================================================================================
# Products with an added term
# =============================================================================================

def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """beta·input + alpha·(mat1 @ mat2), input broadcast to the product's shape (AddmmBackward0)."""
    for name, m in (("mat1", mat1), ("mat2", mat2)):
        if m.dim() != 2:
            raise RuntimeError(f"{name} must be a matrix, got {m.dim()}-D tensor")
    (a, b), (c, d) = mat1.shape, mat2.shape
    if b != c:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a}x{b} and {c}x{d})")
    for x, y, names in ((input, mat2, "self and mat2"), (mat1, mat2, "mat1 and mat2")):
        if x.dtype is not y.dtype:
            raise RuntimeError(f"{names} must have the same dtype, but got {_ops._legacy(x.dtype)} and "
                               f"{_ops._legacy(y.dtype)}")
    sizes = input.shape
    if len(sizes) > 2:
        raise RuntimeError(f"expand({input._legacy_type_name()}{{{list(sizes)}}}, size=[{a}, {d}]): the number of "
                           f"sizes provided (2) must be greater or equal to the number of dimensions in the tensor "
                           f"({len(sizes)})")
    for i in range(1, len(sizes) + 1):
        if sizes[-i] != (a, d)[-i] and sizes[-i] != 1:
            raise RuntimeError(f"The expanded size of the tensor ({(a, d)[-i]}) must match the existing size "
                               f"({sizes[-i]}) at non-singleton dimension {2 - i}.  Target sizes: [{a}, {d}].  "
                               f"Tensor sizes: {list(sizes)}")
    return D.addmm(input, mat1, mat2, beta=beta, alpha=alpha)


METHODS = [
    "tril", "triu", "trace", "diag", "diag_embed", "det", "inverse", "cross", "addmm",
]
# minigrad.* functions only.
FUNCTIONS = [
    "tril_indices", "triu_indices",
]


def _attach_methods():
    for name in METHODS:
        setattr(Tensor, name, globals()[name])


_attach_methods()
