"""torch.linalg: matrix inverse, determinant, norms, cross product and solve."""
from __future__ import annotations

from . import _ops, _ops_matrices
from ._ops_matrices import det  # noqa: F401
from ._ops_matrices import inverse as inv  # noqa: F401
from ._ops_matrices import linalg_cross as cross  # noqa: F401


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    """‖x‖_ord over ``dim`` (all elements if None), the tensor seen as a flat vector."""
    return _ops.norm(x, p=ord, dim=dim, keepdim=keepdim, dtype=dtype)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    """Matrix norm over the two dims ``dim``: only the Frobenius norm here."""
    if ord != "fro":
        raise NotImplementedError(f"linalg.matrix_norm: ord={ord!r} is not supported in minigrad (only 'fro')")
    if A.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    return vector_norm(A, 2, dim=dim, keepdim=keepdim, dtype=dtype)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """Vector norm (ord a number, or None: 2-norm of the flattened tensor) or Frobenius matrix norm."""
    if isinstance(ord, str):
        return matrix_norm(A, ord, (-2, -1) if dim is None else dim, keepdim, dtype=dtype)
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype)


def solve(A, B, *, left=True):
    """X with A X = B, computed as inv(A) @ B (differentiable through the inverse)."""
    if not left:
        return _ops.matmul(B, _ops_matrices.inverse(A))
    if B.dim() == A.dim() - 1:          # a batch of vectors
        return _ops.matmul(_ops_matrices.inverse(A), B.unsqueeze(-1)).squeeze(-1)
    return _ops.matmul(_ops_matrices.inverse(A), B)
