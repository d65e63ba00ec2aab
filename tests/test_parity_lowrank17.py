"""torch.svd_lowrank / torch.pca_lowrank / torch._lowrank.get_approximate_basis against PyTorch (session 17).

Both libraries draw the same ``randn(n, q)`` after the same ``manual_seed`` (minigrad's generator is PyTorch's
mt19937), then run the same products, QR and SVD: the results agree to float precision, with the same graph
nodes, and their gradients agree too. Inputs are built from NumPy, so the only random draw is the function's.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from parity import assert_close, same_as_torch, torch_or_skip

import minigrad
import minigrad._lowrank

TOL = {np.float32: dict(rtol=1e-5, atol=1e-5), np.float64: dict(rtol=1e-10, atol=1e-10)}
GRAD_TOL = {np.float32: dict(rtol=1e-4, atol=1e-4), np.float64: dict(rtol=1e-8, atol=1e-8)}


def _pair(arr: np.ndarray, requires_grad: bool = False):
    torch = torch_or_skip()
    return (minigrad.tensor(arr, requires_grad=requires_grad), torch.tensor(arr, requires_grad=requires_grad))


def _both(fn_name: str, arr: np.ndarray, seed: int = 0, requires_grad: bool = False, m_arr=None, **kwargs):
    """Run ``<lib>.<fn_name>(A, **kwargs)`` in both libraries after ``manual_seed(seed)``: (inputs, outputs) pairs."""
    torch = torch_or_skip()
    a_mg, a_t = _pair(arr, requires_grad)
    ms = _pair(m_arr, requires_grad) if m_arr is not None else (None, None)
    minigrad.manual_seed(seed)
    out_mg = getattr(minigrad, fn_name)(a_mg, **({"M": ms[0]} if m_arr is not None else {}), **kwargs)
    torch.manual_seed(seed)
    out_t = getattr(torch, fn_name)(a_t, **({"M": ms[1]} if m_arr is not None else {}), **kwargs)
    return (a_mg, a_t, ms), out_mg, out_t


def _check_outputs(out_mg, out_t, dt) -> None:
    assert len(out_mg) == len(out_t) == 3
    for x, y in zip(out_mg, out_t):
        assert tuple(x.shape) == tuple(y.shape)
        assert str(x.dtype) == str(y.dtype)
        assert type(x.grad_fn).__name__ == type(y.grad_fn).__name__
        assert_close(x, y, **TOL[dt])


SHAPES = [((7, 4), 3, 2), ((4, 7), 3, 2), ((6, 6), 6, 1), ((2, 5, 4), 2, 0), ((3, 2, 4, 6), 3, 3), ((5, 3), 3, None)]


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize(("shape", "q", "niter"), SHAPES)
def test_svd_lowrank_values_and_nodes(dt, shape, q, niter):
    arr = np.random.default_rng(1).standard_normal(shape).astype(dt)
    _, out_mg, out_t = _both("svd_lowrank", arr, seed=3, requires_grad=True, q=q, niter=niter)
    _check_outputs(out_mg, out_t, dt)
    # (a wide A is transposed first: U comes from V^H, so U's node is TransposeBackward0 and V's the product's)
    names = [type(t.grad_fn).__name__ for t in out_mg]
    assert names[1] == "LinalgSvdBackward0"
    assert names[0 if shape[-2] < shape[-1] else 2] == "TransposeBackward0"


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize(("shape", "q", "niter"), SHAPES[:5])
def test_svd_lowrank_gradients(dt, shape, q, niter):
    rng = np.random.default_rng(2)
    arr = rng.standard_normal(shape).astype(dt)
    (a_mg, a_t, _), out_mg, out_t = _both("svd_lowrank", arr, seed=5, requires_grad=True, q=q, niter=niter)
    weights = [rng.standard_normal(tuple(t.shape)).astype(dt) for t in out_t]
    # L = <W_U, U> + <W_S, S> + <W_V, V> + |U diag(S) V^T|^2: every output contributes
    for lib, (u, s, v) in ((minigrad, out_mg), (torch_or_skip(), out_t)):
        w = [lib.tensor(x) for x in weights]
        loss = (u * w[0]).sum() + (s * w[1]).sum() + (v * w[2]).sum() + (u * s.unsqueeze(-2)).matmul(v.mT).pow(2).sum()
        loss.backward()
    assert_close(a_mg.grad, a_t.grad, **GRAD_TOL[dt])


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize(("shape", "m_shape"), [((7, 4), (7, 4)), ((7, 4), (4,)), ((4, 7), (1, 7)),
                                                ((2, 6, 5), (6, 5))])
def test_svd_lowrank_with_mean(dt, shape, m_shape):
    rng = np.random.default_rng(4)
    arr, m_arr = rng.standard_normal(shape).astype(dt), rng.standard_normal(m_shape).astype(dt)
    (a_mg, a_t, (m_mg, m_t)), out_mg, out_t = _both("svd_lowrank", arr, seed=2, requires_grad=True, m_arr=m_arr,
                                                     q=3)
    _check_outputs(out_mg, out_t, dt)
    for (u, s, v) in (out_mg, out_t):
        (s.sum() + (u * s.unsqueeze(-2)).matmul(v.mT).sum()).backward()
    assert_close(a_mg.grad, a_t.grad, **GRAD_TOL[dt])
    assert_close(m_mg.grad, m_t.grad, **GRAD_TOL[dt])


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize(("shape", "kwargs"), [((8, 5), {}), ((5, 8), {"q": 2}), ((8, 5), {"center": False, "q": 4}),
                                               ((3, 6, 4), {"niter": 1}), ((6, 3), {"q": 3, "niter": 0})])
def test_pca_lowrank(dt, shape, kwargs):
    rng = np.random.default_rng(5)
    arr = rng.standard_normal(shape).astype(dt)
    (a_mg, a_t, _), out_mg, out_t = _both("pca_lowrank", arr, seed=9, requires_grad=True, **kwargs)
    _check_outputs(out_mg, out_t, dt)
    assert out_mg[1].shape[-1] == kwargs.get("q", min(6, *shape[-2:]))
    for (_, s, v) in (out_mg, out_t):
        (s.pow(2).sum() + v.sum()).backward()
    assert_close(a_mg.grad, a_t.grad, **GRAD_TOL[dt])


def test_complex_and_integer_inputs():
    rng = np.random.default_rng(6)
    arr = (rng.standard_normal((6, 4)) + 1j * rng.standard_normal((6, 4))).astype(np.complex128)
    (a_mg, a_t, _), out_mg, out_t = _both("svd_lowrank", arr, seed=1, requires_grad=True, q=3)
    for x, y in zip(out_mg, out_t):
        assert str(x.dtype) == str(y.dtype) and type(x.grad_fn).__name__ == type(y.grad_fn).__name__
        assert_close(x, y, rtol=1e-10, atol=1e-10)
    out_mg[1].sum().backward()
    out_t[1].sum().backward()
    assert_close(a_mg.grad, a_t.grad, rtol=1e-8, atol=1e-8)
    # float16 and integer inputs: the basis is drawn in float32 (PyTorch's get_floating_dtype), so the product
    # of the input with it fails with PyTorch's error
    same_as_torch("E(lambda: torch.svd_lowrank(torch.arange(12).reshape(4, 3), q=2))\n"
                  "E(lambda: torch.pca_lowrank(torch.arange(12).reshape(4, 3), q=2))\n")


def test_get_approximate_basis():
    torch = torch_or_skip()
    import torch._lowrank as torch_lowrank
    rng = np.random.default_rng(7)
    arr, m_arr = rng.standard_normal((2, 9, 5)), rng.standard_normal((2, 9, 5))
    for niter, use_m in ((2, False), (None, True), (0, False)):
        minigrad.manual_seed(4)
        q_mg = minigrad._lowrank.get_approximate_basis(minigrad.tensor(arr), 3, niter=niter,
                                                       M=minigrad.tensor(m_arr) if use_m else None)
        torch.manual_seed(4)
        q_t = torch_lowrank.get_approximate_basis(torch.tensor(arr), 3, niter=niter,
                                                  M=torch.tensor(m_arr) if use_m else None)
        assert tuple(q_mg.shape) == tuple(q_t.shape) == (2, 9, 3)
        assert_close(q_mg, q_t, rtol=1e-10, atol=1e-10)
        # orthonormal columns: Q^H Q = I
        np.testing.assert_allclose((q_mg.mT @ q_mg).numpy(), np.broadcast_to(np.eye(3), (2, 3, 3)), atol=1e-12)


def test_argument_errors():
    same_as_torch("""
A = torch.randn(4, 3)
E(lambda: torch.svd_lowrank(torch.randn(4)))
E(lambda: torch.pca_lowrank(torch.randn(4)))
E(lambda: torch.svd_lowrank(A, q=-1))
E(lambda: torch.svd_lowrank(A, q=2.0))
E(lambda: torch.svd_lowrank(A, q=2, niter=1.5))
E(lambda: torch.pca_lowrank(A, q=4))
E(lambda: torch.pca_lowrank(A, q=-1))
E(lambda: torch.pca_lowrank(A, q=2.5))
E(lambda: torch.pca_lowrank(A, niter=-1))
E(lambda: torch.pca_lowrank(A, niter=None))
E(lambda: torch.svd_lowrank(A, q=2, M=torch.randn(2, 3)))
E(lambda: torch.svd_lowrank(A, q=2, M=torch.randn(4, 3, dtype=torch.float64)))
E(lambda: torch.svd_lowrank([[1.0, 2.0], [3.0, 4.0]]))
E(lambda: torch.pca_lowrank([[1.0, 2.0], [3.0, 4.0]]))
E(lambda: torch.svd_lowrank(A.half(), q=2))
E(lambda: torch.svd_lowrank(A.bfloat16(), q=2))
for r in (torch.svd_lowrank(A, q=5), torch.svd_lowrank(A, q=0), torch.svd_lowrank(A, q=None, niter=None),
          torch.svd_lowrank(torch.randn(0, 4, 3), q=2), torch.svd_lowrank(torch.randn(4, 0), q=2),
          torch.svd_lowrank(A, 2, 1), torch.pca_lowrank(A, 2, False, 1)):
    print([tuple(t.shape) for t in r], [t.dtype for t in r])
import torch._lowrank
print(torch._lowrank.__all__, torch.svd_lowrank.__name__, torch.pca_lowrank.__qualname__)
""")


def test_sparse_input():
    torch = torch_or_skip()
    rng = np.random.default_rng(8)
    dense = rng.standard_normal((7, 4)).astype(np.float32) * (rng.random((7, 4)) > 0.5)
    results = []
    for lib in (minigrad, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (sparse_coo_tensor's once-per-process invariants warning)
            s = lib.tensor(dense).to_sparse().requires_grad_()
        out = []
        for fn, kw in (("svd_lowrank", {"q": 2}), ("pca_lowrank", {"q": 2}),
                       ("pca_lowrank", {"q": 3, "center": False})):
            for a in (s, s.t()):
                lib.manual_seed(3)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    u, sv, v = getattr(lib, fn)(a, **kw)
                s.grad = None
                (sv.sum() + (u * sv).matmul(v.mT).pow(2).sum()).backward()
                out.append((u, sv, v, s.grad.to_dense()))
        results.append(out)
    for got, want in zip(*results):
        for x, y in zip(got, want):
            assert tuple(x.shape) == tuple(y.shape)
            assert_close(x, y, rtol=1e-4, atol=1e-4)
    same_as_torch("""
import warnings
warnings.simplefilter('ignore')
S3 = torch.randn(2, 3, 4).to_sparse()
E(lambda: torch.pca_lowrank(S3, q=2))
""")


def test_sparse_mT_mH():
    # svd_lowrank's sparse path transposes A (A.mH): a sparse result whose gradient stays on A's entries
    same_as_torch("""
torch.manual_seed(0)
D = torch.randn(4, 3) * (torch.rand(4, 3) > 0.5)
S = D.to_sparse().requires_grad_()
for f in (lambda s: s.mT, lambda s: s.mH, lambda s: s.mT.mT):
    o = f(S)
    print(o.layout, o.shape, type(o.grad_fn).__name__, o.is_coalesced(), o._indices())
    print(o.grad_fn._saved_dim0, o.grad_fn._saved_dim1, [a for a in dir(o.grad_fn) if a.startswith('_saved')])
    S.grad = None
    (o.to_dense() * torch.arange(12.).reshape(o.shape)).sum().backward()
    print(S.grad)
S3 = torch.randn(2, 3, 4).to_sparse()
print(S3.mT.shape, S3.mT.layout, S3.mT.to_dense().equal(S3.to_dense().mT))
E(lambda: torch.randn(3, 4, 2).to_sparse(2).mT)
E(lambda: torch.randn(3, 4, 2).to_sparse(1).mH)
E(lambda: torch.randn(3).to_sparse().mT)
""")


def test_torch_function_subclass():
    same_as_torch("""
class Sub(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if func in (torch.svd_lowrank, torch.pca_lowrank):
            print(func.__name__, [t.__name__ for t in types], len(args), sorted((kwargs or {}).keys()))
        return super().__torch_function__(func, types, args, kwargs)
torch.manual_seed(0)
A = torch.randn(5, 3)
s = A.as_subclass(Sub)
print([type(o).__name__ for o in torch.svd_lowrank(s, q=2)])
print([type(o).__name__ for o in torch.pca_lowrank(s, q=2)])
print([type(o).__name__ for o in torch.svd_lowrank(A, q=2, M=s)])
class Like:
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return NotImplemented
E(lambda: torch.svd_lowrank(Like()))
E(lambda: torch.pca_lowrank(Like()))
""")


def test_svd_backward_phase_check_tolerance():
    # svd_backward's check that a complex loss ignores the singular vectors' phases is PyTorch's
    # allclose(Im diag(skew(Uᴴ gU)), -Im diag(skew(Vᴴ gV)), rtol=1e-2, atol=1e-2): the rtol counts relative to the
    # V term, so large terms that cancel leave room (svd_lowrank's forward-AD OpInfo samples pass in PyTorch)
    same_as_torch("""
torch.manual_seed(0)
A = torch.randn(4, 3, dtype=torch.complex128)
W = torch.randn(4, 3, dtype=torch.complex128)
c = torch.randn(4, dtype=torch.complex128)
for eps in (0.0, 0.1, 1.0, 3.0, 10.0, 30.0):
    a = A.clone().requires_grad_()
    U, S, Vh = torch.linalg.svd(a, full_matrices=False)
    loss = 50 * (torch.outer(U[:, 0], Vh[0, :]) * W).sum().real + eps * (U[:, 0] * c).sum().real
    E(loss.backward)
    print(eps, None if a.grad is None else a.grad.abs().sum().item() > 0)
""")
