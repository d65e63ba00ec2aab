"""torch.linalg's second wave against PyTorch: matrix_exp, eig, cond, vecdot, vander, tensorinv/tensorsolve,
LU (factor, solve, unpack), Cholesky solves, triangular_solve, Householder products; plus hand-computed values.

The gradients and double-backward graphs of the differentiable ones are swept by ``tests/op_cases.py``;
here: values, dtypes, printed return types, nodes and saved values, errors and warnings.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from parity import assert_close, same_as_torch, torch_or_skip

import minigrad

# ---- hand-computed values (no PyTorch needed) ------------------------------------------------------


def test_matrix_exp_of_known_matrices():
    t = 0.7
    rotation = minigrad.linalg.matrix_exp(minigrad.tensor([[0.0, -t], [t, 0.0]], dtype=minigrad.float64))
    np.testing.assert_allclose(rotation.numpy(), [[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]],
                               rtol=1e-15, atol=1e-15)
    nilpotent = minigrad.matrix_exp(minigrad.tensor([[0.0, 1.0], [0.0, 0.0]]))   # I + N exactly
    assert nilpotent.tolist() == [[1.0, 1.0], [0.0, 1.0]]
    diagonal = minigrad.tensor([[1.0, 0.0, 0.0], [0.0, -2.0, 0.0], [0.0, 0.0, 3.5]], dtype=minigrad.float64)
    np.testing.assert_allclose(diagonal.matrix_exp().diagonal().numpy(), np.exp([1.0, -2.0, 3.5]), rtol=1e-14)
    # a large norm (scaling and squaring) and a batch: exp(A)·exp(-A) = I
    A = minigrad.tensor(np.random.default_rng(0).standard_normal((2, 4, 4)) * 3)
    product = minigrad.linalg.matrix_exp(A) @ minigrad.linalg.matrix_exp(-A)
    np.testing.assert_allclose(product.numpy(), np.broadcast_to(np.eye(4), (2, 4, 4)), atol=1e-9)


def test_matrix_exp_gradient_of_a_diagonal_matrix():
    # d exp(A)/dA at a diagonal A, in the direction E_ij: (e^a_i - e^a_j)/(a_i - a_j) at (i, j)
    a = np.array([0.5, -1.0])
    A = minigrad.tensor(np.diag(a), requires_grad=True)
    minigrad.linalg.matrix_exp(A)[0, 1].backward()
    expected = (math.exp(a[0]) - math.exp(a[1])) / (a[0] - a[1])
    np.testing.assert_allclose(A.grad.numpy(), [[0.0, expected], [0.0, 0.0]], atol=1e-14)


def test_eig_and_lu_of_known_matrices():
    L, V = minigrad.linalg.eig(minigrad.tensor([[2.0, 0.0], [0.0, 3.0]]))
    assert L.dtype is minigrad.complex64 and L.tolist() == [2 + 0j, 3 + 0j]
    assert V.tolist() == [[1 + 0j, 0j], [0j, 1 + 0j]]
    rotation = minigrad.tensor([[0.0, -1.0], [1.0, 0.0]], dtype=minigrad.float64)
    assert sorted(minigrad.linalg.eigvals(rotation).tolist(), key=lambda z: z.imag) == [-1j, 1j]
    P, L, U = minigrad.linalg.lu(minigrad.tensor([[0.0, 1.0], [1.0, 0.0]]))
    assert P.tolist() == [[0.0, 1.0], [1.0, 0.0]] and L.tolist() == [[1.0, 0.0], [0.0, 1.0]]
    assert U.tolist() == [[1.0, 0.0], [0.0, 1.0]]
    LU, pivots = minigrad.linalg.lu_factor(minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]))
    assert pivots.tolist() == [2, 2] and pivots.dtype is minigrad.int32
    np.testing.assert_allclose(LU.numpy(), [[3.0, 4.0], [1 / 3, 2 - 4 / 3]], rtol=1e-6)


def test_small_composites_by_hand():
    assert minigrad.linalg.vander(minigrad.tensor([1, 2, 3])).tolist() == [[1, 1, 1], [1, 2, 4], [1, 3, 9]]
    assert minigrad.linalg.vander(minigrad.tensor([2.0]), N=4).tolist() == [[1.0, 2.0, 4.0, 8.0]]
    assert minigrad.linalg.cond(minigrad.tensor([[1.0, 0.0], [0.0, 4.0]])).item() == 4.0
    assert minigrad.linalg.cond(minigrad.tensor([[1.0, 0.0], [0.0, 4.0]]), -2).item() == 0.25
    assert minigrad.linalg.cond(minigrad.zeros(2, 2), 1).item() == math.inf
    assert minigrad.linalg.vecdot(minigrad.tensor([[1.0, 2.0], [3.0, 4.0]]), minigrad.tensor([1.0, -1.0])).tolist() \
        == [-1.0, -1.0]
    assert minigrad.linalg.vecdot(minigrad.tensor([1j, 2.0]), minigrad.tensor([1j, 1.0])).item() == 3 + 0j
    x = minigrad.arange(24.0).reshape(2, 3, 4)
    assert minigrad.linalg.diagonal(x, offset=1).tolist() == [[1.0, 6.0, 11.0], [13.0, 18.0, 23.0]]
    # the inverse of 2·I (as a 2x2 -> 2x2 tensor) is I/2; A X = B for A = 2·I
    A = (2 * minigrad.eye(4)).reshape(2, 2, 2, 2)
    assert minigrad.linalg.tensorinv(A).reshape(4, 4).tolist() == (0.5 * minigrad.eye(4)).tolist()
    assert minigrad.linalg.tensorsolve(A, minigrad.ones(2, 2)).tolist() == [[0.5, 0.5], [0.5, 0.5]]


def test_cholesky_and_triangular_solves_by_hand():
    L = minigrad.tensor([[2.0, 0.0], [1.0, 1.0]], dtype=minigrad.float64)          # A = LLᵀ = [[4, 2], [2, 2]]
    inverse = minigrad.cholesky_inverse(L)
    np.testing.assert_allclose(inverse.numpy(), np.linalg.inv([[4.0, 2.0], [2.0, 2.0]]), rtol=1e-15)
    x = minigrad.cholesky_solve(minigrad.tensor([[6.0], [4.0]], dtype=minigrad.float64), L)
    np.testing.assert_allclose(x.numpy(), [[1.0], [1.0]], rtol=1e-15)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        solution, coefficient = minigrad.triangular_solve(minigrad.tensor([[4.0], [2.0]]),
                                                          minigrad.tensor([[2.0, 0.0], [7.0, 1.0]]))
    assert solution.tolist() == [[2.0], [2.0]] and coefficient.tolist() == [[2.0, 0.0], [7.0, 1.0]]


def test_householder_product_of_one_reflector():
    # H = I - τ v vᵀ with v = (1, 1), τ = 1: [[0, -1], [-1, 0]]
    Q = minigrad.linalg.householder_product(minigrad.tensor([[5.0, 0.0], [1.0, 0.0]]), minigrad.tensor([1.0]))
    assert Q.tolist() == [[0.0, -1.0], [-1.0, 0.0]]


def test_geqrf_has_no_derivative():
    a, tau = minigrad.geqrf(minigrad.randn(3, 3, requires_grad=True))
    assert type(a.grad_fn).__name__ == "GeqrfBackward0"
    with pytest.raises(NotImplementedError, match="the derivative for 'geqrf' is not implemented."):
        a.sum().backward()


# ---- values against PyTorch ------------------------------------------------------------------------

def _pair(torch, array):
    return minigrad.tensor(array), torch.tensor(array)


@pytest.mark.parametrize("scale", [1e-9, 1e-5, 1e-3, 0.03, 0.3, 1.0, 3.0, 40.0])
@pytest.mark.parametrize("shape", [(3, 3), (6, 6), (2, 4, 4)])
def test_matrix_exp_float32_bits(scale, shape):
    """Every Taylor degree (1 ... 18), with and without scaling and squaring: PyTorch's float32 bits."""
    torch = torch_or_skip()
    a = (np.random.default_rng(int(scale * 1e9) % 1000).standard_normal(shape) * scale / shape[-1]).astype(np.float32)
    mine, theirs = _pair(torch, a)
    np.testing.assert_array_equal(minigrad.linalg.matrix_exp(mine).numpy(), torch.linalg.matrix_exp(theirs).numpy())


@pytest.mark.parametrize("dtype", ["float64", "complex64", "complex128"])
def test_matrix_exp_other_dtypes_close(dtype):
    torch = torch_or_skip()
    rng = np.random.default_rng(3)
    a = rng.standard_normal((2, 5, 5)) + (1j * rng.standard_normal((2, 5, 5)) if "complex" in dtype else 0)
    for scale in (0.01, 0.5, 5.0):
        mine, theirs = _pair(torch, (a * scale).astype(dtype))
        got, want = minigrad.linalg.matrix_exp(mine), torch.linalg.matrix_exp(theirs)
        assert str(got.dtype) == str(want.dtype)
        assert_close(got, want, rtol=1e-5 if dtype == "complex64" else 1e-12, atol=1e-6)


def test_eig_values_close():
    torch = torch_or_skip()
    rng = np.random.default_rng(4)
    for a in (rng.standard_normal((4, 4)).astype(np.float32), rng.standard_normal((2, 3, 3)),
              rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3))):
        mine, theirs = _pair(torch, a)
        (L, V), (tL, tV) = minigrad.linalg.eig(mine), torch.linalg.eig(theirs)
        assert str(L.dtype) == str(tL.dtype) and str(V.dtype) == str(tV.dtype)
        # LAPACK's order and normalization (unit norm, largest component real) are the same: compare |V|
        assert_close(L, tL, rtol=1e-4, atol=1e-5)
        assert_close(V.abs(), tV.abs(), rtol=1e-4, atol=1e-5)
        assert_close(minigrad.linalg.eigvals(mine), torch.linalg.eigvals(theirs), rtol=1e-4, atol=1e-5)


def test_lu_values_and_pivots():
    torch = torch_or_skip()
    rng = np.random.default_rng(5)
    for shape in ((4, 4), (2, 5, 3), (3, 6)):
        mine, theirs = _pair(torch, rng.standard_normal(shape).astype(np.float32))
        LU, piv, info = minigrad.linalg.lu_factor_ex(mine)
        tLU, tpiv, tinfo = torch.linalg.lu_factor_ex(theirs)
        assert_close(LU, tLU)
        np.testing.assert_array_equal(piv.numpy(), tpiv.numpy())
        assert piv.dtype is minigrad.int32 and info.dtype is minigrad.int32 and info.tolist() == tinfo.tolist()
        for got, want in zip(minigrad.linalg.lu(mine), torch.linalg.lu(theirs)):
            assert_close(got, want)
        for got, want in zip(minigrad.lu_unpack(LU, piv), torch.lu_unpack(tLU, tpiv)):
            assert_close(got, want)
    A, B = rng.standard_normal((2, 3, 3)), rng.standard_normal((2, 3, 4))
    (mA, tA), (mB, tB) = _pair(torch, A), _pair(torch, B)
    LU, piv = minigrad.linalg.lu_factor(mA)
    tLU, tpiv = torch.linalg.lu_factor(tA)
    for left in (True, False):
        for adjoint in (True, False):
            b, tb = (mB, tB) if left else (mB.mT, tB.mT)
            assert_close(minigrad.linalg.lu_solve(LU, piv, b, left=left, adjoint=adjoint),
                         torch.linalg.lu_solve(tLU, tpiv, tb, left=left, adjoint=adjoint), rtol=1e-10)


def test_householder_family_values():
    torch = torch_or_skip()
    rng = np.random.default_rng(6)
    (m, t), (c, tc) = _pair(torch, rng.standard_normal((2, 5, 3))), _pair(torch, rng.standard_normal((2, 5, 2)))
    (a, tau), (ta, ttau) = minigrad.geqrf(m), torch.geqrf(t)
    assert_close(a, ta, rtol=1e-10)
    assert_close(tau, ttau, rtol=1e-10)
    assert_close(minigrad.linalg.householder_product(a, tau), torch.linalg.householder_product(ta, ttau), rtol=1e-10)
    assert_close(a.orgqr(tau), ta.orgqr(ttau), rtol=1e-10)
    for left, transpose in ((True, False), (True, True)):
        assert_close(minigrad.ormqr(a, tau, c, left, transpose), torch.ormqr(ta, ttau, tc, left, transpose),
                     rtol=1e-10)
    assert_close(minigrad.ormqr(a, tau, c.mT, False, True), torch.ormqr(ta, ttau, tc.mT, False, True), rtol=1e-10)


# ---- printed results, nodes, saved values, errors and warnings (one program, both libraries) ----------------

def test_printed_results_and_nodes_match_torch():
    same_as_torch("""
A = torch.tensor([[1., 2., 0.], [3., 1., 1.], [0., 1., 4.]], requires_grad=True)
print(torch.linalg.matrix_exp(A))
print(torch.linalg.eig(torch.tensor([[2., 0.], [0., 3.]])))
print(torch.linalg.eigvals(torch.tensor([[2., 1.], [0., 3.]], dtype=torch.float64)))
print(torch.linalg.lu_factor(A.detach()))
print(torch.linalg.lu_factor_ex(A.detach()))
print(torch.linalg.lu(A.detach()))
LU, piv = torch.linalg.lu_factor(A.detach())
print(torch.lu_unpack(LU, piv))
print(torch.linalg.vander(torch.tensor([1, 2, 3])))
print(torch.linalg.cond(torch.tensor([[1., 0.], [0., 4.]]), 'fro'))
import warnings
with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    print(torch.lu(torch.tensor([[1., 2.], [3., 4.]]), get_infos=True))
    print(torch.lu(torch.tensor([[1., 2.], [3., 4.]])))
    print(torch.triangular_solve(torch.ones(2, 1), torch.tensor([[2., 0.], [1., 4.]]), upper=False))
print(torch.geqrf(torch.tensor([[3., 0.], [4., 5.]])))
for name, out in [('matrix_exp', torch.linalg.matrix_exp(A)), ('eigvals', torch.linalg.eigvals(A)),
                  ('eig', torch.linalg.eig(A).eigenvectors), ('lu_factor', torch.linalg.lu_factor(A).LU),
                  ('lu', torch.linalg.lu(A).U), ('cond', torch.linalg.cond(A)), ('cond1', torch.linalg.cond(A, 1)),
                  ('vecdot', torch.linalg.vecdot(A, A)), ('vecdot1', torch.linalg.vecdot(A[0], A[1])),
                  ('diagonal', torch.linalg.diagonal(A)), ('vander', torch.linalg.vander(A[0])),
                  ('tensorinv', torch.linalg.tensorinv(A, ind=1)),
                  ('lu_solve', torch.linalg.lu_solve(*torch.linalg.lu_factor(A), A)),
                  ('unpack', torch.lu_unpack(*torch.linalg.lu_factor(A)).L),
                  ('cholesky_solve', torch.cholesky_solve(A, torch.linalg.cholesky(A @ A.mT))),
                  ('cholesky_inverse', torch.cholesky_inverse(torch.linalg.cholesky(A @ A.mT))),
                  ('householder', torch.linalg.householder_product(A, A[0, :2])),
                  ('ormqr', torch.ormqr(A, A[0], A))]:
    fn = out.grad_fn
    print(name, type(fn).__name__, out.dtype, sorted(a for a in dir(fn) if a.startswith('_saved_')),
          [type(n).__name__ if n is not None else None for n, _ in fn.next_functions])
P, L, U = torch.linalg.lu(A)
print(P.requires_grad, L.requires_grad, torch.linalg.lu_factor(A).pivots.requires_grad)
fn = torch.linalg.lu_solve(*torch.linalg.lu_factor(A), A, left=False, adjoint=True).grad_fn
print(fn._saved_left, fn._saved_adjoint, fn._saved_pivots)
print(torch.lu_unpack(*torch.linalg.lu_factor(A)).L.grad_fn._saved_LU_data_sym_argsize_minus_1)
""")


def test_errors_match_torch():
    same_as_torch("""
import math
E(lambda: torch.linalg.matrix_exp(torch.randn(2, 3)))
E(lambda: torch.linalg.matrix_exp(torch.randn(3)))
E(lambda: torch.linalg.matrix_exp(torch.ones(3, 3, dtype=torch.long)))
E(lambda: torch.linalg.eig(torch.randn(2, 3)))
E(lambda: torch.linalg.eig(torch.randn(3)))
E(lambda: torch.linalg.eig(torch.ones(3, 3, dtype=torch.long)))
E(lambda: torch.linalg.eig(torch.ones(3, 3, dtype=torch.float16)))
E(lambda: torch.linalg.eigvals(torch.randn(3, 2)))
x = torch.tensor([[1., 2j], [0.5, -1j]], requires_grad=True)
E(lambda: torch.linalg.eig(x).eigenvectors.sum().abs().backward())
E(lambda: torch.linalg.cond(torch.randn(3)))
E(lambda: torch.linalg.cond(torch.eye(3), 3))
E(lambda: torch.linalg.cond(torch.eye(3), 'bad'))
E(lambda: torch.linalg.cond(torch.randn(2, 3), 1))
E(lambda: torch.linalg.cond(torch.randn(2, 3), -math.inf))
E(lambda: torch.linalg.cond(torch.randn(2, 3), 'nuc'))
E(lambda: print(torch.linalg.cond(torch.zeros(2, 0, 0))))
E(lambda: print(torch.linalg.cond(torch.zeros(3, 3), 'fro')))
E(lambda: torch.linalg.vecdot(torch.ones(3, dtype=torch.long), torch.ones(3, dtype=torch.long)))
E(lambda: torch.linalg.vecdot(torch.ones(3), torch.ones(3, dtype=torch.float64)))
E(lambda: torch.linalg.vecdot(torch.ones(3, 2), torch.ones(3), dim=0))
print(torch.linalg.vecdot(torch.ones(3, 2), torch.ones(3, 1), dim=0))
E(lambda: torch.linalg.vander(torch.tensor([1., 2.]), N=1))
E(lambda: torch.linalg.vander(torch.tensor([True])))
E(lambda: torch.linalg.vander(torch.tensor([1.], dtype=torch.float16)))
E(lambda: torch.linalg.tensorinv(torch.randn(4, 6, 8, 3), ind=0))
E(lambda: torch.linalg.tensorinv(torch.randn(4, 6, 8, 2), ind=2))
E(lambda: torch.linalg.tensorinv(torch.zeros(2, 2, 4), ind=2))
E(lambda: torch.linalg.tensorsolve(torch.randn(2, 3, 5), torch.randn(2, 3)))
E(lambda: torch.linalg.tensorsolve(torch.zeros(2, 3, 6), torch.randn(2, 3)))
E(lambda: torch.linalg.lu_factor(torch.randn(3)))
E(lambda: torch.linalg.lu(torch.randn(3)))
E(lambda: torch.linalg.lu(torch.randn(3, 3), pivot=False))
E(lambda: torch.linalg.lu_factor(torch.ones(3, 3, dtype=torch.long)))
E(lambda: torch.linalg.lu_factor(torch.tensor([[1., 2., 3.], [2., 4., 6.], [1., 0., 1.]])))
E(lambda: torch.linalg.lu_factor(torch.zeros(2, 3, 3)))
E(lambda: print(torch.linalg.lu_factor_ex(torch.zeros(3, 3)).info))
E(lambda: torch.linalg.lu_factor_ex(torch.zeros(2, 3, 3), check_errors=True))
E(lambda: torch.linalg.lu_factor_ex(torch.zeros(3)))
E(lambda: torch.linalg.lu_solve(torch.randn(3, 3), torch.ones(3, dtype=torch.int32), torch.randn(2, 2)))
E(lambda: torch.linalg.lu_solve(torch.randn(3, 3), torch.ones(3, dtype=torch.int64), torch.randn(3, 2)))
E(lambda: torch.linalg.lu_solve(torch.randn(3, 3), torch.ones(3, dtype=torch.int32), torch.randn(3, 2).double()))
E(lambda: torch.linalg.lu_solve(torch.randn(3, 4), torch.ones(3, dtype=torch.int32), torch.randn(3, 2)))
E(lambda: torch.linalg.lu_solve(torch.randn(3, 3), torch.ones(3, dtype=torch.int32), torch.randn(3)))
E(lambda: torch.lu_unpack(torch.randn(3, 3), torch.ones(3, dtype=torch.int64)))
E(lambda: torch.linalg.householder_product(torch.randn(3, 4), torch.randn(2)))
E(lambda: torch.linalg.householder_product(torch.randn(4, 3), torch.randn(4)))
E(lambda: torch.linalg.householder_product(torch.randn(4, 3), torch.randn(2, dtype=torch.float64)))
E(lambda: torch.linalg.householder_product(torch.randn(4), torch.randn(2)))
E(lambda: torch.cholesky_solve(torch.randn(3, 2), torch.randn(3, 3, dtype=torch.float64)))
E(lambda: torch.cholesky_solve(torch.randn(3), torch.randn(3, 3)))
E(lambda: torch.cholesky_solve(torch.randn(2, 2), torch.randn(3, 3)))
E(lambda: torch.cholesky_inverse(torch.randn(2, 3)))
E(lambda: torch.geqrf(torch.randn(3)))
E(lambda: torch.ormqr(torch.randn(4, 3), torch.randn(2), torch.randn(3, 2)))
E(lambda: torch.ormqr(torch.randn(4, 3), torch.randn(2), torch.randn(4, 2)))
E(lambda: torch.ormqr(torch.randn(4, 3), torch.randn(2), torch.randn(2, 4), left=False))
E(lambda: torch.ormqr(torch.randn(4, 3), torch.randn(3, dtype=torch.float64), torch.randn(4, 2)))
E(lambda: torch.ormqr(torch.randn(4, 3), torch.randn(3), torch.randn(4, 2, dtype=torch.float64)))
E(lambda: torch.ormqr(torch.randn(2, 4, 3), torch.randn(3), torch.randn(2, 4, 2)))
E(lambda: torch.ormqr(torch.randn(2, 4, 3), torch.randn(2, 3), torch.randn(4, 2)))
E(lambda: torch.geqrf(torch.randn(3, 3, requires_grad=True)).a.sum().backward())
for f in (lambda: torch.linalg.matrix_exp(torch.zeros(0, 3, 3)), lambda: torch.linalg.matrix_exp(torch.zeros(2, 0, 0)),
          lambda: torch.linalg.matrix_exp(torch.tensor([[float('nan'), 1.], [0., 1.]])),
          lambda: torch.linalg.eigvals(torch.zeros(2, 0, 0)), lambda: torch.linalg.lu_factor_ex(torch.zeros(2, 0, 0)),
          lambda: torch.linalg.lu(torch.zeros(3, 0)), lambda: torch.cholesky_inverse(torch.zeros(0, 0)),
          lambda: torch.linalg.householder_product(torch.zeros(3, 0), torch.zeros(0))):
    E(lambda: print(f()))
""")


_WARNING_PROGRAM = """
import json, warnings
import {module} as T
A = T.tensor([[2.0, 0.0], [1.0, 3.0]])
B = T.ones(2, 1)
messages = []
for call in (lambda: T.triangular_solve(B, A), lambda: T.lu(A), lambda: T.lu_solve(B, *T.linalg.lu_factor(A)),
             lambda: T.triangular_solve(B, A)):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    messages.append([str(w.message) for w in caught if issubclass(w.category, UserWarning)])
print(json.dumps(messages))
"""


def test_deprecation_warnings_match_torch():
    """Each deprecated function warns once per process (PyTorch's TORCH_WARN_ONCE): fresh processes for both."""
    import json
    import subprocess
    import sys
    torch_or_skip()
    runs = [json.loads(subprocess.run([sys.executable, "-c", _WARNING_PROGRAM.format(module=module)], check=True,
                                      capture_output=True, text=True).stdout) for module in ("minigrad", "torch")]
    assert runs[0] == runs[1]
    assert [len(m) for m in runs[0]] == [1, 1, 1, 0]


def test_legacy_lu_and_solvers_match_torch():
    torch = torch_or_skip()
    rng = np.random.default_rng(7)
    A, B = rng.standard_normal((2, 3, 3)), rng.standard_normal((2, 3, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        (mA, tA), (mB, tB) = _pair(torch, A), _pair(torch, B)
        LU, piv = minigrad.lu(mA)
        tLU, tpiv = torch.lu(tA)
        assert_close(LU, tLU, rtol=1e-12)
        np.testing.assert_array_equal(piv.numpy(), tpiv.numpy())
        assert repr(minigrad.lu(mA, get_infos=True)[2]) == repr(torch.lu(tA, get_infos=True)[2])
        assert_close(minigrad.lu_solve(mB, LU, piv), torch.lu_solve(tB, tLU, tpiv), rtol=1e-10)
        assert_close(mB.lu_solve(LU, piv), tB.lu_solve(tLU, tpiv), rtol=1e-10)
        for upper in (True, False):
            for transpose in (True, False):
                got = minigrad.triangular_solve(mB, mA, upper, transpose, unitriangular=not upper)
                want = torch.triangular_solve(tB, tA, upper, transpose, unitriangular=not upper)
                assert_close(got.solution, want.solution, rtol=1e-10)
                assert_close(got.cloned_coefficient, want.cloned_coefficient)
    spd = A @ np.swapaxes(A, -1, -2) + 3 * np.eye(3)
    (ms, ts) = _pair(torch, spd)
    for upper in (True, False):
        L, tL = minigrad.linalg.cholesky(ms, upper=upper), torch.linalg.cholesky(ts, upper=upper)
        assert_close(minigrad.cholesky_solve(mB, L, upper), torch.cholesky_solve(tB, tL, upper), rtol=1e-10)
        assert_close(L.cholesky_inverse(upper), tL.cholesky_inverse(upper), rtol=1e-10)


def test_cond_tensorinv_tensorsolve_values():
    torch = torch_or_skip()
    rng = np.random.default_rng(8)
    a = rng.standard_normal((2, 4, 4))
    mine, theirs = _pair(torch, a)
    for p in (None, 2, -2, 1, -1, math.inf, -math.inf, "fro", "nuc"):
        assert_close(minigrad.linalg.cond(mine, p), torch.linalg.cond(theirs, p), rtol=1e-10)
    assert_close(minigrad.linalg.cond(minigrad.tensor(a[:, :3])), torch.linalg.cond(torch.tensor(a[:, :3])),
                 rtol=1e-10)
    t = rng.standard_normal((4, 6, 8, 3))
    mine, theirs = _pair(torch, t)
    assert_close(minigrad.linalg.tensorinv(mine, ind=2), torch.linalg.tensorinv(theirs, ind=2), rtol=1e-8)
    s, b = rng.standard_normal((6, 2, 3)), rng.standard_normal((2, 3))
    assert_close(minigrad.linalg.tensorsolve(minigrad.tensor(s), minigrad.tensor(b), dims=(0,)),
                 torch.linalg.tensorsolve(torch.tensor(s), torch.tensor(b), dims=(0,)), rtol=1e-10)
    x = rng.standard_normal((2, 3))
    for N in (None, 2, 5):
        got = minigrad.linalg.vander(minigrad.tensor(x), N=N)
        want = torch.linalg.vander(torch.tensor(x), N=N)
        np.testing.assert_array_equal(got.numpy(), want.numpy())   # (cumulative products: the same bits)


def test_ldl_factor_and_solve_match_torch():
    """Bunch-Kaufman pivots (1x1 and 2x2 blocks) exactly as LAPACK chooses them; symmetric and Hermitian."""
    torch = torch_or_skip()
    rng = np.random.default_rng(9)
    for trial in range(30):
        n = 1 + trial % 6
        for kind in ("real", "symmetric", "hermitian"):
            x = rng.standard_normal((2, n, n)) + (1j * rng.standard_normal((2, n, n)) if kind != "real" else 0)
            x = np.round(x) if trial % 3 == 0 else x   # (ties and zero pivots)
            a = x + (np.conj(np.swapaxes(x, -1, -2)) if kind == "hermitian" else np.swapaxes(x, -1, -2))
            hermitian = kind == "hermitian"
            got = minigrad.linalg.ldl_factor_ex(minigrad.tensor(a), hermitian=hermitian)
            want = torch.linalg.ldl_factor_ex(torch.tensor(a), hermitian=hermitian)
            np.testing.assert_array_equal(got.pivots.numpy(), want.pivots.numpy())
            np.testing.assert_array_equal(got.info.numpy(), want.info.numpy())
            if want.info.any():
                continue
            assert_close(got.LD, want.LD, rtol=1e-10, atol=1e-10)
            b = rng.standard_normal((2, n, 3))
            assert_close(minigrad.linalg.ldl_solve(got.LD, got.pivots, minigrad.tensor(b).to(got.LD.dtype),
                                                   hermitian=hermitian),
                         torch.linalg.ldl_solve(want.LD, want.pivots, torch.tensor(b).to(want.LD.dtype),
                                                hermitian=hermitian), rtol=1e-8, atol=1e-8)


def test_ldl_printed_and_errors_match_torch():
    same_as_torch("""
A = torch.tensor([[0., 1., 2.], [1., 0., 3.], [2., 3., 0.]], dtype=torch.float64)
print(torch.linalg.ldl_factor_ex(A))
print(torch.linalg.ldl_factor(A))
LD, piv = torch.linalg.ldl_factor(A)
print(torch.allclose(torch.linalg.ldl_solve(LD, piv, torch.eye(3, dtype=torch.float64)) @ A, torch.eye(3).double()))
x = torch.randn(3, 3, requires_grad=True)
out = torch.linalg.ldl_factor(x + x.mT).LD
print(type(out.grad_fn).__name__, out.grad_fn.name(), [type(n).__name__ for n, _ in out.grad_fn.next_functions])
E(lambda: out.sum().backward())
y = torch.ones(3, 1, requires_grad=True)
E(lambda: torch.linalg.ldl_solve(LD.float(), piv, y).sum().backward())
E(lambda: torch.linalg.ldl_factor(torch.randn(2, 3)))
E(lambda: torch.linalg.ldl_factor(torch.randn(3)))
E(lambda: torch.linalg.ldl_factor(torch.ones(3, 3, dtype=torch.long)))
E(lambda: torch.linalg.ldl_factor(torch.zeros(3, 3)))
E(lambda: torch.linalg.ldl_factor_ex(torch.zeros(3, 3), check_errors=True))
E(lambda: print(torch.linalg.ldl_factor_ex(torch.zeros(3, 3))))
E(lambda: torch.linalg.ldl_solve(torch.eye(3), torch.ones(3, dtype=torch.int32), torch.ones(3)))
E(lambda: torch.linalg.ldl_solve(torch.eye(3), torch.ones(3, dtype=torch.int32), torch.ones(2, 1)))
""")


def test_solve_ex_of_singular_matrices_matches_torch():
    """LAPACK carries on through a zero pivot: infs and nans where PyTorch has them; other batch items solved."""
    same_as_torch("""
A = torch.tensor([[1., 2.], [2., 4.]])
print(torch.linalg.solve_ex(torch.tensor([[2., 0.], [0., 4.]]), torch.tensor([1., 1.])))
print(torch.linalg.solve_ex(A, torch.ones(2)))
E(lambda: torch.linalg.solve_ex(A, torch.ones(2), check_errors=True))
print(torch.linalg.solve_ex(torch.stack([A, torch.eye(2)]), torch.ones(2, 2, 1)))
print(torch.linalg.solve_ex(torch.stack([torch.eye(2), A]), torch.ones(2)))
print(torch.linalg.solve_ex(A, torch.ones(3, 2), left=False))
""")


def test_matrix_exp_forward_mode_matches_torch():
    torch = torch_or_skip()
    rng = np.random.default_rng(10)
    a, t = rng.standard_normal((2, 3, 3)), rng.standard_normal((2, 3, 3))
    tangents = []
    for T in (minigrad, torch):
        fwAD = T.autograd.forward_ad
        with fwAD.dual_level():
            y = T.linalg.matrix_exp(fwAD.make_dual(T.tensor(a), T.tensor(t)))
            tangents.append(fwAD.unpack_dual(y).tangent.numpy())
    np.testing.assert_allclose(tangents[0], tangents[1], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("n", [2, 5, 8, 16])
def test_lu_factor_float32_bits(n):
    """Unblocked right-looking LU scaled by the pivot's reciprocal: MKL's float32 bits for these sizes."""
    torch = torch_or_skip()
    a = np.random.default_rng(n).standard_normal((4, n, n)).astype(np.float32)
    mine, theirs = _pair(torch, a)
    np.testing.assert_array_equal(minigrad.linalg.lu_factor(mine).LU.numpy(), torch.linalg.lu_factor(theirs).LU.numpy())


def _tangent_of(T, fn, pairs):
    """The forward-mode derivative of fn at the arrays of ``pairs`` (value, tangent or None), as NumPy."""
    fwAD = T.autograd.forward_ad
    with fwAD.dual_level():
        inputs = [T.tensor(a) if t is None else fwAD.make_dual(T.tensor(a), T.tensor(t)) for a, t in pairs]
        return fwAD.unpack_dual(fn(T, *inputs)).tangent.numpy()


def _normal(seed: int, shape: tuple) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape)


_TRIANGLE = np.tril(np.random.default_rng(11).standard_normal((3, 3))) + 3 * np.eye(3)
_FORWARD_CASES = {
    "eigenvalues": (lambda T, a: T.linalg.eig(a).eigenvalues, [(np.random.default_rng(12).standard_normal((3, 3)),
                                                                np.random.default_rng(13).standard_normal((3, 3)))]),
    "eigenvectors": (lambda T, a: T.linalg.eig(a).eigenvectors,
                     [(np.random.default_rng(14).standard_normal((2, 3, 3)) * (1 + 1j),
                       np.random.default_rng(15).standard_normal((2, 3, 3)) * (1 - 2j))]),
    "cholesky_solve": (lambda T, b, f: T.cholesky_solve(b, f, True),
                       [(np.ones((3, 2)), np.random.default_rng(16).standard_normal((3, 2))),
                        (_TRIANGLE.T, np.triu(np.random.default_rng(17).standard_normal((3, 3))))]),
    "triangular_solve": (lambda T, b, a: T.triangular_solve(b, a, upper=False).solution,
                         [(np.ones((3, 2)), None),
                          (_TRIANGLE, np.tril(np.random.default_rng(18).standard_normal((3, 3))))]),
    "lu_factor": (lambda T, a: T.linalg.lu_factor(a).LU, [(np.random.default_rng(20).standard_normal((2, 3, 3)),
                                                           np.random.default_rng(21).standard_normal((2, 3, 3)))]),
    "lu-U": (lambda T, a: T.linalg.lu(a).U, [(np.random.default_rng(22).standard_normal((3, 3)) * (1 + 1j),
                                              np.random.default_rng(23).standard_normal((3, 3)) * (2 - 1j))]),
    "lu_solve": (lambda T, a, b: T.linalg.lu_solve(*T.linalg.lu_factor(a), b, left=False, adjoint=True),
                 [(_normal(24, (3, 3)), _normal(25, (3, 3))), (_normal(26, (2, 3)), _normal(27, (2, 3)))]),
    "householder_product": (lambda T, a, tau: T.linalg.householder_product(a, tau),
                            [(_normal(28, (2, 4, 3)) * (1 + 1j), _normal(29, (2, 4, 3)) * (1 - 2j)),
                             (_normal(30, (2, 2)) * (0.5 + 0.1j), _normal(31, (2, 2)) * 1j)]),
}


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", list(_FORWARD_CASES))
def test_forward_mode_matches_torch(name):
    torch = torch_or_skip()
    fn, pairs = _FORWARD_CASES[name]
    np.testing.assert_allclose(_tangent_of(minigrad, fn, pairs), _tangent_of(torch, fn, pairs), rtol=1e-10,
                               atol=1e-12)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", ["cholesky_inverse", "triangular_solve_transposed"])
def test_forward_mode_against_finite_differences(name):
    """Where PyTorch 2.13's own forward-mode formulas disagree with its finite differences, minigrad follows the
    finite differences (cholesky_inverse_jvp; triangular_solve's jvp uses dA·X even with transpose=True, and
    the whole of dA where only a triangle of A is read)."""
    fn = {"cholesky_inverse": lambda T, f: T.cholesky_inverse(f),
          "triangular_solve_transposed": lambda T, f: T.triangular_solve(T.ones(3, 2, dtype=f.dtype), f, False,
                                                                         True).solution}[name]
    direction = np.tril(np.random.default_rng(19).standard_normal((3, 3)))
    eps = 1e-6
    with minigrad.no_grad():
        numeric = (fn(minigrad, minigrad.tensor(_TRIANGLE + eps * direction))
                   - fn(minigrad, minigrad.tensor(_TRIANGLE - eps * direction))).numpy() / (2 * eps)
    np.testing.assert_allclose(_tangent_of(minigrad, fn, [(_TRIANGLE, direction)]), numeric, rtol=1e-7, atol=1e-8)
