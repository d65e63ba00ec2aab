"""torch.linalg through MKL's LAPACK (minigrad/_lapack.py): PyTorch's values bit for bit.

Each case runs one linalg function on the same input arrays in minigrad and in PyTorch and asserts the
outputs are identical (``np.array_equal``, same dtype), on several sizes (including 17 and 33, where MKL's
sequential layer and an unaligned buffer round differently), a batch, row- and column-major inputs, and
with 1 and 2 threads (MKL splits larger matrices across threads; minigrad runs MKL on its intra-op thread
count, as PyTorch does). The inputs are made with NumPy, so the products that build them (the lead's
``_matmul``) are not under test here. Gradients: whole programs printed at full precision, through
``run_both``; their backward formulas reuse the forward's LU (det, solve) and call trsm / gemm on
PyTorch's layouts (the column-major LAPACK results).

Not compared (PyTorch's own results vary, or another kernel decides them): the default lstsq driver gelsy
(PyTorch passes gelsy an uninitialized pivot array, so its results change from call to call; minigrad gives
the most frequent of them, that of a nonzero array), and the sign of a complex slogdet beyond 8 x 8
(complex64) or 4 x 4 (complex128) matrices (PyTorch's prod of the sgn tensor then multiplies in vector lanes).
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from parity import run_both, skip_on_intel_gemm_bits, torch_or_skip

import minigrad
from minigrad import _lapack

pytestmark = pytest.mark.skipif(not _lapack.available, reason="MKL (the mkl package) is not loaded")

REAL = (np.float32, np.float64)
ALL = (np.float32, np.float64, np.complex64, np.complex128)
SHAPES = ((3, 3), (17, 17), (33, 33), (2, 3, 4, 4))


def _spd(a: np.ndarray) -> np.ndarray:
    """A Hermitian positive-definite matrix made from ``a`` in float64 NumPy (the same bits for both)."""
    n = a.shape[-1]
    wide = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    return (wide @ np.conj(np.swapaxes(wide, -1, -2)) + n * np.eye(n)).astype(a.dtype)


def _triangular(a: np.ndarray) -> np.ndarray:
    return (np.triu(a) + 4 * np.eye(a.shape[-1])).astype(a.dtype)


def _symmetric(a: np.ndarray) -> np.ndarray:
    return a + np.swapaxes(a, -1, -2)


def _singular(a: np.ndarray) -> np.ndarray:
    """``a`` with its last column a copy of the first: getrf meets an exact zero pivot."""
    a = a.copy()
    a[..., -1] = a[..., 0]
    return a


# name -> (function of (lib, A, B), dtypes, what the input A is made from the random matrix)
CASES = {
    "det": (lambda L, A, B: L.linalg.det(A), ALL, None),
    "slogdet": (lambda L, A, B: tuple(L.linalg.slogdet(A)), REAL, None),
    "inv": (lambda L, A, B: L.linalg.inv(A), ALL, None),
    "solve": (lambda L, A, B: L.linalg.solve(A, B), ALL, None),
    "solve_left_false": (lambda L, A, B: L.linalg.solve(A, B.mT, left=False), ALL, None),
    "solve_vector": (lambda L, A, B: L.linalg.solve(A, B[..., 0]), ALL, None),
    "lu_factor": (lambda L, A, B: tuple(L.linalg.lu_factor(A)), ALL, None),
    "lu": (lambda L, A, B: tuple(L.linalg.lu(A)), ALL, None),
    "lu_solve": (lambda L, A, B: L.linalg.lu_solve(*L.linalg.lu_factor(A), B), ALL, None),
    "lu_solve_adjoint": (lambda L, A, B: L.linalg.lu_solve(*L.linalg.lu_factor(A), B, adjoint=True), ALL, None),
    "lu_solve_right": (lambda L, A, B: L.linalg.lu_solve(*L.linalg.lu_factor(A), B.mT, left=False), ALL, None),
    "cholesky": (lambda L, A, B: L.linalg.cholesky(A), ALL, _spd),
    "cholesky_upper": (lambda L, A, B: L.linalg.cholesky(A, upper=True), ALL, _spd),
    "cholesky_solve": (lambda L, A, B: L.cholesky_solve(B, L.linalg.cholesky(A)), ALL, _spd),
    "cholesky_inverse": (lambda L, A, B: L.cholesky_inverse(L.linalg.cholesky(A)), ALL, _spd),
    "eigh": (lambda L, A, B: tuple(L.linalg.eigh(A)), ALL, _spd),
    "eigh_upper": (lambda L, A, B: tuple(L.linalg.eigh(A, UPLO="U")), ALL, _spd),
    "eigvalsh": (lambda L, A, B: L.linalg.eigvalsh(A), ALL, _spd),
    "svd": (lambda L, A, B: tuple(L.linalg.svd(A, full_matrices=False)), ALL, None),
    "svd_full": (lambda L, A, B: tuple(L.linalg.svd(A)), ALL, None),
    "svd_tall": (lambda L, A, B: tuple(L.linalg.svd(L.cat([A, B], -1))), ALL, None),
    "svdvals": (lambda L, A, B: L.linalg.svdvals(A), ALL, None),
    "torch_svd": (lambda L, A, B: tuple(L.svd(A)), REAL, None),
    "qr": (lambda L, A, B: tuple(L.linalg.qr(A)), ALL, None),
    "qr_complete_tall": (lambda L, A, B: tuple(L.linalg.qr(L.cat([A, A], -2), mode="complete")), ALL, None),
    "qr_r_wide": (lambda L, A, B: L.linalg.qr(L.cat([A, B], -1), mode="r")[1], ALL, None),
    "geqrf": (lambda L, A, B: tuple(L.geqrf(A)), ALL, None),
    "householder_product": (lambda L, A, B: L.linalg.householder_product(*L.geqrf(A)), ALL, None),
    "ormqr": (lambda L, A, B: L.ormqr(*L.geqrf(A), B), ALL, None),
    "ormqr_transpose": (lambda L, A, B: L.ormqr(*L.geqrf(A), B, transpose=True), ALL, None),
    "solve_triangular": (lambda L, A, B: L.linalg.solve_triangular(A, B, upper=True), ALL, _triangular),
    "solve_triangular_right_unit": (lambda L, A, B: L.linalg.solve_triangular(
        A.mT, B.mT, upper=False, left=False, unitriangular=True), ALL, _triangular),
    "triangular_solve": (lambda L, A, B: tuple(L.triangular_solve(B, A)), ALL, _triangular),
    "triangular_solve_transpose": (lambda L, A, B: tuple(L.triangular_solve(
        B, A.mT, upper=False, transpose=True)), ALL, _triangular),
    "eig": (lambda L, A, B: tuple(L.linalg.eig(A)), ALL, None),
    "eigvals": (lambda L, A, B: L.linalg.eigvals(A), ALL, None),
    "lstsq_gels": (lambda L, A, B: tuple(L.linalg.lstsq(L.cat([A, A], -2), L.cat([B, B], -2), driver="gels")),
                   REAL, None),
    "lstsq_gelsd": (lambda L, A, B: tuple(L.linalg.lstsq(L.cat([A, B], -1), B, driver="gelsd")), ALL, None),
    "lstsq_gelss": (lambda L, A, B: tuple(L.linalg.lstsq(A, B, driver="gelss")), ALL, None),
    "ldl_factor": (lambda L, A, B: tuple(L.linalg.ldl_factor_ex(A)), ALL, _symmetric),
    "ldl_solve": (lambda L, A, B: L.linalg.ldl_solve(*L.linalg.ldl_factor(A), B), ALL, _symmetric),
    "ldl_hermitian": (lambda L, A, B: L.linalg.ldl_solve(*L.linalg.ldl_factor(A + A.mH, hermitian=True), B,
                                                        hermitian=True), ALL, None),
    "inv_ex_singular": (lambda L, A, B: tuple(L.linalg.inv_ex(A)), REAL, _singular),
    "solve_ex_singular": (lambda L, A, B: tuple(L.linalg.solve_ex(A, B)), REAL, _singular),
    "pinv": (lambda L, A, B: L.linalg.pinv(A), REAL, None),
    "matrix_rank": (lambda L, A, B: L.linalg.matrix_rank(A), ALL, None),
    "matrix_norm_2": (lambda L, A, B: L.linalg.matrix_norm(A, 2), ALL, None),
    "cond": (lambda L, A, B: L.linalg.cond(A), REAL, None),
}


def _tensor(lib, a: np.ndarray, column_major: bool):
    torch = torch_or_skip()
    t = minigrad.tensor(a) if lib is minigrad else torch.from_numpy(a.copy())
    return t.mT.contiguous().mT if column_major else t


def _arrays(result) -> list:
    results = result if isinstance(result, (tuple, list)) else (result,)
    out = []
    for t in results:
        if hasattr(t, "resolve_conj"):
            t = t.resolve_conj().resolve_neg()
        out.append(np.asarray(t.detach().numpy()))
    return out


def _inputs(name: str, dtype, shape, seed: int):
    make = CASES[name][2]
    rng = np.random.default_rng(seed)
    a, b = rng.standard_normal(shape), rng.standard_normal(shape[:-1] + (2,))
    if np.dtype(dtype).kind == "c":
        a, b = a + 1j * rng.standard_normal(a.shape), b + 1j * rng.standard_normal(b.shape)
    a, b = a.astype(dtype), b.astype(dtype)
    return (make(a) if make else a), b


def _compare(name: str, dtype, shape, column_major: bool, threads: int) -> None:
    torch = torch_or_skip()
    fn = CASES[name][0]
    a, b = _inputs(name, dtype, shape, seed=len(name) + shape[-1])
    saved = torch.get_num_threads(), minigrad.get_num_threads()
    torch.set_num_threads(threads)
    minigrad.set_num_threads(threads)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (the deprecated torch.triangular_solve warns)
            ours = _arrays(fn(minigrad, _tensor(minigrad, a, column_major), _tensor(minigrad, b, False)))
            theirs = _arrays(fn(torch, _tensor(torch, a, column_major), _tensor(torch, b, False)))
    finally:
        torch.set_num_threads(saved[0])
        minigrad.set_num_threads(saved[1])
    assert len(ours) == len(theirs)
    for i, (x, y) in enumerate(zip(ours, theirs)):
        assert x.dtype == y.dtype and x.shape == y.shape, (name, i, x.dtype, y.dtype, x.shape, y.shape)
        assert np.array_equal(x, y, equal_nan=True), (name, i, np.max(np.abs(x - y)))




def _wanted(dtype, shape, column_major: bool) -> bool:
    """To keep the file quick: 33 x 33 for the real types, row-major only; 17 x 17 for the real types."""
    real = np.dtype(dtype).kind == "f"
    return shape == (3, 3) or shape == (2, 3, 4, 4) or (real and (shape == (17, 17) or not column_major))


PARAMS = [(name, np.dtype(dt).name, shape, column_major)
          for name, (_, dtypes, _) in CASES.items() for dt in dtypes for shape in SHAPES
          for column_major in (False, True) if _wanted(dt, shape, column_major)]


@pytest.mark.parametrize("name,dtype,shape,column_major", PARAMS)
def test_values_bit_for_bit_one_thread(name, dtype, shape, column_major):
    _compare(name, np.dtype(dtype), shape, column_major, threads=1)


# Complex slogdet: PyTorch's sign is the product of the (contiguous) sgn tensor, whose reduction runs in
# vector lanes beyond 8 complex64 / 4 complex128 factors (not reproduced): small matrices only.
CASES["slogdet_complex"] = (lambda L, A, B: tuple(L.linalg.slogdet(A)), (np.complex64, np.complex128), None)


@pytest.mark.parametrize("column_major", [False, True], ids=["rows", "columns"])
@pytest.mark.parametrize("shape", [(3, 3), (2, 3, 4, 4)])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_slogdet_small_bit_for_bit(dtype, shape, column_major):
    _compare("slogdet_complex", np.dtype(dtype), shape, column_major, threads=1)


# Two threads: MKL splits the larger matrices across threads (a 200 x 200 getrf then has other bits).
TWO_THREADS = ("det", "inv", "solve", "lu_factor", "cholesky", "eigh", "svd", "qr", "solve_triangular", "eig")
TWO_THREADS_LARGE = ("det", "inv", "solve", "lu_factor", "cholesky", "solve_triangular")


@pytest.mark.parametrize("name,shape", [(n, (33, 33)) for n in TWO_THREADS] +
                         [(n, (200, 200)) for n in TWO_THREADS_LARGE])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_values_bit_for_bit_two_threads(name, dtype, shape):
    _compare(name, np.dtype(dtype), shape, False, threads=2)


def test_threads_matter_for_a_large_getrf():
    """The reason for the thread count: MKL's 200 x 200 getrf on 1 and on 2 threads differs in the last bits."""
    a = np.random.default_rng(0).standard_normal((200, 200)).astype(np.float32)
    saved = minigrad.get_num_threads()
    try:
        minigrad.set_num_threads(1)
        one = _lapack.getrf(a)[0]
        minigrad.set_num_threads(2)
        two = _lapack.getrf(a)[0]
    finally:
        minigrad.set_num_threads(saved)
    assert not np.array_equal(one, two)
    assert np.allclose(one, two, rtol=1e-3, atol=1e-3)


def test_results_have_pytorchs_column_major_strides():
    torch = torch_or_skip()
    a = np.random.default_rng(1).standard_normal((2, 4, 4)).astype(np.float32)
    b = a[..., :3]
    for fn in (lambda L, A, B: L.linalg.inv(A), lambda L, A, B: L.linalg.cholesky(A @ A.mT + 4 * L.eye(4)),
               lambda L, A, B: L.linalg.solve(A, B), lambda L, A, B: L.linalg.solve(A, B.mT, left=False),
               lambda L, A, B: L.linalg.solve(A, B[..., 0]), lambda L, A, B: L.linalg.lu_factor(A)[0],
               lambda L, A, B: L.linalg.eigh(A + A.mT)[1], lambda L, A, B: L.linalg.svd(B)[2],
               lambda L, A, B: L.linalg.qr(B)[1], lambda L, A, B: L.linalg.eig(A)[1],
               lambda L, A, B: L.linalg.solve_triangular(A, B, upper=True)):
        ours = fn(minigrad, minigrad.tensor(a), minigrad.tensor(b))
        theirs = fn(torch, torch.from_numpy(a.copy()), torch.from_numpy(b.copy()))
        assert ours.stride() == theirs.stride()


def test_buffers_start_on_64_byte_boundaries():
    """MKL's getrs on an unaligned right-hand side rounds differently (33 x 33, 3 columns): PyTorch's are aligned."""
    x = _lapack._columns(np.ones((5, 33, 3), np.float32))
    assert x.ctypes.data % 64 == 0 and x[0].flags.f_contiguous


# ---- gradients: whole programs, printed at full precision --------------------------------------------

PROGRAMS: dict[str, str] = {}

PROGRAMS["det"] = r'''
import torch
torch.set_printoptions(precision=10)
g = torch.Generator().manual_seed(0)
A = torch.randn(4, 4, generator=g, dtype=torch.float64, requires_grad=True)
d = torch.linalg.det(A)
d.backward()
print(d, A.grad)
B = torch.randn(2, 3, 3, generator=g, requires_grad=True)
torch.linalg.det(B).sum().backward()
print(B.grad)
'''  # fixed: the backward solves with the forward's LU (of Aᵀ for a contiguous A), as PyTorch's

PROGRAMS["det_singular"] = r'''
import torch
torch.set_printoptions(precision=10)
A = torch.tensor([[1., 2.], [2., 4.]], requires_grad=True)
torch.linalg.det(A).backward()
print(A.grad)
B = torch.tensor([[1., 2., 3.], [2., 4., 6.], [1., 0., 1.]], dtype=torch.float64, requires_grad=True)
torch.linalg.det(B).backward()
print(B.grad)
C = torch.zeros(3, 3, requires_grad=True)
torch.linalg.det(C).backward()
print(C.grad)
'''  # fixed: a zero pivot nudged to eps in the forward's LU, d = diag_embed(g·det) with +0 off the diagonal

PROGRAMS["slogdet"] = r'''
import torch
torch.set_printoptions(precision=10)
g = torch.Generator().manual_seed(1)
A = torch.randn(5, 5, generator=g, requires_grad=True)
s, l = torch.linalg.slogdet(A)
l.backward()
print(s, l, A.grad)
'''

PROGRAMS["inv"] = r'''
import torch
torch.set_printoptions(precision=10)
g = torch.Generator().manual_seed(2)
A = torch.randn(5, 5, generator=g, requires_grad=True)
Ai = torch.linalg.inv(A)
(Ai * torch.arange(25.).reshape(5, 5)).sum().backward()
print(Ai, A.grad)
'''  # fixed: inv is column-major, as PyTorch's, so the backward's products take PyTorch's gemm path

PROGRAMS["solve"] = r'''
import torch
torch.set_printoptions(precision=10)
g = torch.Generator().manual_seed(3)
A = torch.randn(4, 4, generator=g, dtype=torch.float64, requires_grad=True)
B = torch.randn(4, 2, generator=g, dtype=torch.float64, requires_grad=True)
X = torch.linalg.solve(A, B)
X.pow(2).sum().backward()
print(X, A.grad, B.grad)
A2 = torch.randn(3, 3, generator=g, requires_grad=True)
b2 = torch.randn(2, 3, generator=g, requires_grad=True)
Y = torch.linalg.solve(A2, b2, left=False)
Y.sum().backward()
print(Y, A2.grad, b2.grad)
'''  # fixed: gB = lu_solve(LU, pivots, gX, adjoint=True) with the forward's LU, not a new factorization

PROGRAMS["cholesky"] = r'''
import torch
torch.set_printoptions(precision=10)
g = torch.Generator().manual_seed(4)
M = torch.randn(5, 5, generator=g)
A = (M @ M.T + 5 * torch.eye(5)).requires_grad_()
L = torch.linalg.cholesky(A)
(L * torch.arange(25.).reshape(5, 5)).sum().backward()
print(L, A.grad)
'''  # fixed: L column-major, so the backward's triangular solves take PyTorch's trsm arguments

PROGRAMS["eigh"] = r'''
import torch
torch.set_printoptions(precision=10)
g = torch.Generator().manual_seed(5)
M = torch.randn(4, 4, generator=g, dtype=torch.float64)
A = (M + M.T).requires_grad_()
w, V = torch.linalg.eigh(A)
(w.sum() + (V * V).pow(2).sum()).backward()
print(w, A.grad)
'''

PROGRAMS["svd"] = r'''
import torch
torch.set_printoptions(precision=10)
g = torch.Generator().manual_seed(6)
A = torch.randn(5, 3, generator=g, requires_grad=True)
U, S, Vh = torch.linalg.svd(A, full_matrices=False)
(S.sum() + (U @ Vh).pow(2).sum()).backward()
print(S, A.grad)
A2 = torch.randn(4, 6, generator=g, dtype=torch.float64, requires_grad=True)
S2 = torch.linalg.svdvals(A2)
S2.sum().backward()
print(S2, A2.grad, torch.linalg.svdvals(A2.detach()))
'''

PROGRAMS["qr"] = r'''
import torch
torch.set_printoptions(precision=10)
g = torch.Generator().manual_seed(8)
A = torch.randn(5, 3, generator=g, requires_grad=True)
Q, R = torch.linalg.qr(A)
(Q.sum() + R.pow(2).sum()).backward()
print(Q, R, A.grad)
'''  # fixed: R column-major (the backward's solve_triangular on Rᴴ takes PyTorch's path)

PROGRAMS["lu"] = r'''
import torch
torch.set_printoptions(precision=10)
g = torch.Generator().manual_seed(9)
A = torch.randn(4, 4, generator=g, requires_grad=True)
P, L, U = torch.linalg.lu(A)
(L.sum() + U.pow(2).sum()).backward()
print(L, U, A.grad)
LU, piv = torch.linalg.lu_factor(A.detach())
B = torch.randn(4, 2, generator=g, requires_grad=True)
X = torch.linalg.lu_solve(LU, piv, B)
X.sum().backward()
print(X, B.grad)
'''

PROGRAMS["triangular_and_cholesky_solves"] = r'''
import torch
torch.set_printoptions(precision=10)
g = torch.Generator().manual_seed(10)
A = (torch.randn(4, 4, generator=g).triu() + 3 * torch.eye(4)).requires_grad_()
B = torch.randn(4, 3, generator=g, requires_grad=True)
X = torch.linalg.solve_triangular(A, B, upper=True)
X.pow(2).sum().backward()
print(X, A.grad, B.grad)
M = torch.randn(4, 4, generator=g, dtype=torch.float64)
L = torch.linalg.cholesky(M @ M.T + 4 * torch.eye(4, dtype=torch.float64)).requires_grad_()
C = torch.randn(4, 2, generator=g, dtype=torch.float64, requires_grad=True)
(torch.cholesky_solve(C, L).sum() + torch.cholesky_inverse(L).sum()).backward()
print(L.grad, C.grad)
'''

PROGRAMS["pinv_eig_lstsq"] = r'''
import torch
torch.set_printoptions(precision=10)
g = torch.Generator().manual_seed(11)
A = torch.randn(4, 3, generator=g, requires_grad=True)
torch.linalg.pinv(A).sum().backward()
print(A.grad)
E = torch.randn(4, 4, generator=g, dtype=torch.float64, requires_grad=True)
w, V = torch.linalg.eig(E)
(w.abs().sum() + V.abs().sum()).backward()
print(w, E.grad)
C = torch.randn(6, 3, generator=g, requires_grad=True)
D = torch.randn(6, 2, generator=g, requires_grad=True)
torch.linalg.lstsq(C, D, driver='gelsd').solution.sum().backward()
print(C.grad, D.grad)
'''


PROGRAMS["batched_float64"] = r'''
import torch
torch.set_printoptions(precision=10)
g = torch.Generator().manual_seed(20)
A = torch.randn(2, 3, 5, 5, generator=g, dtype=torch.float64, requires_grad=True)
B = torch.randn(3, 5, 2, generator=g, dtype=torch.float64, requires_grad=True)
X = torch.linalg.solve(A, B)
(X.sum() + torch.linalg.det(A).sum() + torch.linalg.inv(A).pow(2).sum()).backward()
print(A.grad, B.grad)
'''

PROGRAMS["larger_matrices_default_threads"] = r'''
import torch
torch.set_printoptions(precision=10)
g = torch.Generator().manual_seed(22)
A = torch.randn(120, 120, generator=g, requires_grad=True)
B = torch.randn(120, 3, generator=g, requires_grad=True)
X = torch.linalg.solve(A, B)
L = torch.linalg.cholesky(A @ A.T + 120 * torch.eye(120))
(X.sum() + L.sum() + torch.linalg.svdvals(A).sum()).backward()
print(X[:3], A.grad[:2, :5], B.grad[:3])
'''

PROGRAMS["double_backward_det_solve"] = r'''
import torch
torch.set_printoptions(precision=10)
g = torch.Generator().manual_seed(23)
A = torch.randn(3, 3, generator=g, dtype=torch.float64, requires_grad=True)
d = torch.linalg.det(A)
(gA,) = torch.autograd.grad(d, A, create_graph=True)
gA.pow(2).sum().backward()
print(d, gA, A.grad)
B = torch.randn(3, 2, generator=g, dtype=torch.float64, requires_grad=True)
X = torch.linalg.solve(A, B)
(gB,) = torch.autograd.grad(X.sum(), B, create_graph=True)
print(gB, gB.grad_fn.name())
'''

PROGRAMS["complex_decompositions"] = r'''
import torch
torch.set_printoptions(precision=10)
g = torch.Generator().manual_seed(21)
M = torch.randn(4, 4, generator=g, dtype=torch.complex128)
A = (M + M.mH).requires_grad_()
w, V = torch.linalg.eigh(A)
(w.sum() + V.abs().sum()).backward()
C = torch.randn(4, 3, generator=g, dtype=torch.complex64, requires_grad=True)
U, S, Vh = torch.linalg.svd(C, full_matrices=False)
Q, R = torch.linalg.qr(C)
(S.sum() + (R * torch.arange(9.).reshape(3, 3)).sum().real + (U @ Vh).real.sum()).backward()
print(A.grad, C.grad)
'''

PROGRAMS["lstsq_gels_residuals"] = r'''
import torch
torch.set_printoptions(precision=10)
g = torch.Generator().manual_seed(24)
A = torch.randn(6, 3, generator=g, dtype=torch.float64, requires_grad=True)
B = torch.randn(6, 2, generator=g, dtype=torch.float64, requires_grad=True)
r = torch.linalg.lstsq(A, B, driver='gels')
(r.solution.sum() + r.residuals.sum()).backward()
print(r, A.grad, B.grad)
'''


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_gradient_programs_print_pytorchs_digits(name):
    if name == "complex_decompositions":   # (the noise of a Hermitian gradient's real diagonal: zgemm's last bits)
        skip_on_intel_gemm_bits()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = run_both(PROGRAMS[name])
    assert ours == theirs


# ---- edge cases: empty, 1 x 1, rectangular, singular, rank-deficient --------------------------------------

EDGES = {
    "lu_factor_empty": lambda L: tuple(L.linalg.lu_factor(L.zeros(0, 0))),
    "lu_factor_ex_no_columns": lambda L: tuple(L.linalg.lu_factor_ex(L.ones(3, 0))),
    "lu_factor_wide": lambda L: tuple(L.linalg.lu_factor(L.arange(12.).reshape(3, 4) + L.eye(3, 4))),
    "lu_tall": lambda L: tuple(L.linalg.lu(L.arange(12.).reshape(4, 3) + L.eye(4, 3))),
    "det_empty_batch": lambda L: L.linalg.det(L.zeros(2, 0, 0)),
    "det_one_by_one": lambda L: L.linalg.det(L.tensor([[3.]])),
    "inv_empty": lambda L: L.linalg.inv(L.zeros(0, 0)),  # fixed: singular_pivot of an empty matrix
    "solve_no_columns": lambda L: L.linalg.solve(L.eye(3), L.zeros(3, 0)),
    "cholesky_ex_not_positive_definite": lambda L: tuple(L.linalg.cholesky_ex(
        L.tensor([[[1., 2.], [2., 1.]], [[2., 0.], [0., 3.]]]))),
    "eigh_empty": lambda L: tuple(L.linalg.eigh(L.zeros(0, 0))),
    "svd_no_columns": lambda L: tuple(L.linalg.svd(L.zeros(3, 0))),  # fixed: identity U, as PyTorch's
    "svd_no_rows": lambda L: tuple(L.linalg.svd(L.zeros(0, 3), full_matrices=False)),
    "qr_wide_complete": lambda L: tuple(L.linalg.qr(L.arange(12.).reshape(3, 4) + L.eye(3, 4), mode="complete")),
    "qr_no_columns": lambda L: tuple(L.linalg.qr(L.zeros(3, 0))),
    "lstsq_vector": lambda L: tuple(L.linalg.lstsq(L.arange(12.).reshape(4, 3) + L.eye(4, 3), L.arange(4.),
                                                   driver="gelsd")),
    "lstsq_wide_gelss": lambda L: tuple(L.linalg.lstsq(L.arange(12.).reshape(3, 4) + L.eye(3, 4),
                                                       L.arange(6.).reshape(3, 2), driver="gelss")),
    "lstsq_rank_deficient": lambda L: tuple(L.linalg.lstsq(L.ones(4, 3), L.arange(4.).reshape(4, 1),
                                                           driver="gelsd")),
    "eig_complex_pair": lambda L: tuple(L.linalg.eig(L.tensor([[0., -1.], [1., 0.]]))),
    "householder_product_short_tau": lambda L: L.linalg.householder_product(L.arange(12.).reshape(4, 3),
                                                                             L.tensor([1., 0.5])),
    "solve_triangular_one_row": lambda L: L.linalg.solve_triangular(
        L.eye(3) * 2 + L.ones(3, 3).triu(), L.arange(3.).reshape(1, 3), upper=True, left=False),
    "solve_triangular_broadcast": lambda L: L.linalg.solve_triangular(
        L.eye(3) * 2 + L.ones(3, 3).triu(), L.arange(18.).reshape(2, 3, 3), upper=True),
    "pinv_hermitian_singular": lambda L: L.linalg.pinv(L.eye(3) * L.tensor([1., 0., 2.]), hermitian=True),
}


@pytest.mark.parametrize("name", sorted(EDGES))
def test_edge_cases_bit_for_bit(name):
    torch = torch_or_skip()
    ours, theirs = _arrays(EDGES[name](minigrad)), _arrays(EDGES[name](torch))
    assert [(x.shape, x.dtype) for x in ours] == [(y.shape, y.dtype) for y in theirs]
    assert all(np.array_equal(x, y, equal_nan=True) for x, y in zip(ours, theirs))
