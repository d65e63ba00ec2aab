"""torch._lowrank: randomized low-rank SVD and PCA (``torch.svd_lowrank``, ``torch.pca_lowrank``).

A port of PyTorch's torch/_lowrank.py (Halko, Martinsson and Tropp, 2009, arXiv:0909.4061): the same random
draws (one ``randn(n, q)``), the same sequence of products and QR factorizations, so that with the same seed
the results are PyTorch's; the results are built from differentiable ops (matmul, linalg.qr, linalg.svd), so
gradients flow through them with PyTorch's graph nodes. Its ``_linalg_utils`` helpers live here too.
"""
from __future__ import annotations

from . import _dtypes
from ._tensor import Tensor
from .overrides import _Public, handle_torch_function, has_torch_function

__all__ = ["svd_lowrank", "pca_lowrank"]


# ---- torch._linalg_utils ----------------------------------------------------------------------------------------

def _is_sparse(A: Tensor) -> bool:
    """Whether A is a sparse COO tensor."""
    from . import _layout
    if isinstance(A, Tensor):
        return A.layout == _layout.sparse_coo
    raise TypeError(f"expected Tensor but got {type(A)}")


def _get_floating_dtype(A: Tensor):
    """A's dtype if it is float16/32/64, else float32 (integers, bfloat16)."""
    dtype = A.dtype
    if dtype in (_dtypes.float16, _dtypes.float32, _dtypes.float64):
        return dtype
    return _dtypes.float32


def _matmul(A: Tensor | None, B: Tensor) -> Tensor:
    """A @ B, A sparse or dense (B when A is None)."""
    import minigrad
    if A is None:
        return B
    if _is_sparse(A):
        return minigrad.sparse.mm(A, B)
    return minigrad.matmul(A, B)


# ---- torch._lowrank ---------------------------------------------------------------------------------------------

def get_approximate_basis(A: Tensor, q: int, niter: int | None = 2, M: Tensor | None = None) -> Tensor:
    """Q with q orthonormal columns such that Q Q^H (A - M) approximates A - M (Halko et al., Algorithm 4.4)."""
    import minigrad
    niter = 2 if niter is None else niter
    dtype = _get_floating_dtype(A) if not A.is_complex() else A.dtype
    R = minigrad.randn(A.shape[-1], q, dtype=dtype, device=A.device)
    # Range finder with niter power iterations, re-orthonormalized after each product:
    # Q = qr((A - M) R), then niter times Q = qr((A - M)^H Q), Q = qr((A - M) Q).
    X = _matmul(A, R)
    if M is not None:
        X = X - _matmul(M, R)
    Q = minigrad.linalg.qr(X).Q
    for _ in range(niter):
        X = _matmul(A.mH, Q)
        if M is not None:
            X = X - _matmul(M.mH, Q)
        Q = minigrad.linalg.qr(X).Q
        X = _matmul(A, Q)
        if M is not None:
            X = X - _matmul(M, Q)
        Q = minigrad.linalg.qr(X).Q
    return Q


def svd_lowrank(A: Tensor, q: int | None = 6, niter: int | None = 2,
                M: Tensor | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """(U, S, V) with A - M ≈ U diag(S) V^H, of rank q (randomized: set the seed for repeatable results)."""
    tensor_ops = (A, M)
    # (as PyTorch: handed on only for a subclass or tensor-like operand, not to a mode with plain tensors)
    if not set(map(type, tensor_ops)).issubset((Tensor, type(None))) and has_torch_function(tensor_ops):
        return handle_torch_function(svd_lowrank, tensor_ops, A, q=q, niter=niter, M=M)
    return _svd_lowrank(A, q=q, niter=niter, M=M)


def _svd_lowrank(A: Tensor, q: int | None = 6, niter: int | None = 2,
                 M: Tensor | None = None) -> tuple[Tensor, Tensor, Tensor]:
    # Halko et al., Algorithm 5.1: Q spans (A - M)'s range, B = Q^H (A - M) is small (q x n), B = U_B S V^H,
    # then A - M ≈ (Q U_B) S V^H.
    import minigrad
    q = 6 if q is None else q
    m, n = A.shape[-2:]
    if M is not None:
        M = M.broadcast_to(A.size())
    # The basis is found for a tall matrix: a wide A is transposed, and U, V swapped back at the end.
    if m < n:
        A = A.mH
        if M is not None:
            M = M.mH
    Q = get_approximate_basis(A, q, niter=niter, M=M)
    B = _matmul(Q.mH, A)
    if M is not None:
        B = B - _matmul(Q.mH, M)
    U, S, Vh = minigrad.linalg.svd(B, full_matrices=False)
    V = Vh.mH
    U = Q.matmul(U)
    if m < n:
        U, V = V, U
    return U, S, V


def pca_lowrank(A: Tensor, q: int | None = None, center: bool = True,
                niter: int = 2) -> tuple[Tensor, Tensor, Tensor]:
    """PCA of the data matrix A (m samples x n features): svd_lowrank of A with its column means removed."""
    import minigrad
    if type(A) is not Tensor and has_torch_function((A,)):
        return handle_torch_function(pca_lowrank, (A,), A, q=q, center=center, niter=niter)
    (m, n) = A.shape[-2:]
    if q is None:
        q = min(6, m, n)
    elif not (q >= 0 and q <= min(m, n)):
        raise ValueError(f"q(={q}) must be non-negative integer and not greater than min(m, n)={min(m, n)}")
    if not (niter >= 0):
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    dtype = _get_floating_dtype(A)
    if not center:
        return _svd_lowrank(A, q, niter=niter, M=None)
    if _is_sparse(A):
        if len(A.shape) != 2:
            raise ValueError("pca_lowrank input is expected to be 2-dimensional tensor")
        # M = ones(m, 1) c^T, the column means c repeated on every row, kept sparse: (A - M) is never formed.
        c = minigrad.sparse.sum(A, dim=(-2,)) / m
        column_indices = c.indices()[0]
        indices = minigrad.zeros(2, len(column_indices), dtype=column_indices.dtype, device=column_indices.device)
        indices[0] = column_indices
        C_t = minigrad.sparse_coo_tensor(indices, c.values(), (n, 1), dtype=dtype, device=A.device)
        ones_m1_t = minigrad.ones(A.shape[:-2] + (1, m), dtype=dtype, device=A.device)
        M = minigrad.sparse.mm(C_t, ones_m1_t).mT
        return _svd_lowrank(A, q, niter=niter, M=M)
    C = A.mean(dim=(-2,), keepdim=True)
    return _svd_lowrank(A - C, q, niter=niter, M=None)


# Public and overridable (torch.overrides lists them), but handing themselves on as PyTorch's do (above), so
# overrides.install leaves them as they are.
svd_lowrank.__torch_public__ = _Public("torch._lowrank.svd_lowrank", True, svd_lowrank)
pca_lowrank.__torch_public__ = _Public("torch._lowrank.pca_lowrank", True, pca_lowrank)
