"""torch.special's Bessel, Airy, orthogonal-polynomial and zeta functions (minigrad/_special_kernels.py) against
PyTorch: bit-exact values in float32 and float64 on grids with the special values (0, ±inf, nan, the branch
points of each approximation), result dtypes, errors, and the gradients PyTorch has (zeta in q) or has not.
"""
from __future__ import annotations

import numpy as np
import pytest
from parity import torch_or_skip

import minigrad

UNARY = ["airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0", "modified_bessel_i1",
         "modified_bessel_k0", "modified_bessel_k1", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1",
         "spherical_bessel_j0"]
POLYNOMIALS = ["chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w",
               "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
               "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
               "laguerre_polynomial_l", "legendre_polynomial_p"]
# every branch point of the approximations (|x| = 5, 8, 2, 2.09, 103.892 ...), tiny and huge values, ±0, ±inf, nan
SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, 1e-6, 1e-5, 2e-5, 0.5, -0.5, 2.0, -2.0, 5.0, -5.0, 8.0, -8.0,
           2.09, -2.09, 8.3203353, 103.892, 103.9, -103.9, 1e3, -1e3, 1e10, 700.0, -700.0]


def _grid() -> np.ndarray:
    rng = np.random.RandomState(0)
    return np.concatenate([np.linspace(-30, 30, 3001), np.linspace(-3, 3, 1201), rng.randn(500) * 10,
                           np.exp(rng.uniform(-10, 6, 300)), SPECIAL])


def _same_bits(ours: np.ndarray, theirs: np.ndarray) -> None:
    assert ours.dtype == theirs.dtype
    bad = ~((ours == theirs) | (np.isnan(ours) & np.isnan(theirs)))
    assert not bad.any(), f"{bad.sum()} values differ, e.g. {ours[bad][:3]} vs {theirs[bad][:3]}"


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", UNARY)
def test_unary_values_bit_exact(name: str, dtype: str) -> None:
    torch = torch_or_skip()
    x = _grid().astype(dtype)
    theirs = getattr(torch.special, name)(torch.from_numpy(x)).numpy()
    ours = getattr(minigrad.special, name)(minigrad.from_numpy(x)).numpy()
    _same_bits(ours, theirs)


def _polynomial_grid(name: str, dtype: str):
    xs = np.concatenate([np.linspace(-1.5, 1.5, 121), np.linspace(-0.2, 1.2, 57), [0.0, 1.0, -1.0, 0.5, 2.0, -2.0,
                        np.inf, -np.inf, 1e-3, 0.999, -0.999]])
    ns = np.array([-3, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 20, 50, 128, 129, 512, 513, 600, 2.7, -0.5,
                   np.nan, np.inf, -np.inf], dtype=np.float64)
    x, n = (a.astype(dtype) for a in np.meshgrid(xs, ns))
    if name.startswith("hermite"):   # (nan x: PyTorch's recurrence runs and gives nan)
        x = np.concatenate([x, np.full((1, x.shape[1]), np.nan, dtype)])
        n = np.concatenate([n, np.full((1, n.shape[1]), 4, dtype)])
    return x, n


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", POLYNOMIALS)
def test_polynomial_values_bit_exact(name: str, dtype: str) -> None:
    torch = torch_or_skip()
    x, n = _polynomial_grid(name, dtype)
    theirs = getattr(torch.special, name)(torch.from_numpy(x), torch.from_numpy(n)).numpy()
    ours = getattr(minigrad.special, name)(minigrad.from_numpy(x), minigrad.from_numpy(n)).numpy()
    _same_bits(ours, theirs)


@pytest.mark.parametrize("name", POLYNOMIALS)
def test_polynomial_number_arguments_and_dtypes(name: str) -> None:
    torch = torch_or_skip()
    for args in [(lambda T: T.tensor([0.25, 0.75, 3.0]), 5), (lambda T: T.tensor([1, 2, 3]), 3),
                 (lambda T: 0.3, lambda T: T.tensor([2, 3, 11])), (lambda T: T.tensor([0.5]), 2.7),
                 (lambda T: T.tensor([0.5], dtype=T.float64), lambda T: T.tensor([4])),
                 (lambda T: T.tensor([True, False]), 2)]:
        outs = []
        for T in (torch, minigrad):
            a, b = (f(T) if callable(f) else f for f in args)
            outs.append(getattr(T.special, name)(a, b))
        assert str(outs[1].dtype) == str(outs[0].dtype)
        _same_bits(outs[1].numpy(), outs[0].numpy())


def test_int_and_bool_inputs_give_the_default_float() -> None:
    torch = torch_or_skip()
    for name in UNARY:
        for values in ([1, 2, 3], [True, False]):
            theirs = getattr(torch.special, name)(torch.tensor(values))
            ours = getattr(minigrad.special, name)(minigrad.tensor(values))
            assert str(ours.dtype) == str(theirs.dtype) == "torch.float32"
            _same_bits(ours.numpy(), theirs.numpy())


def _error(fn, *args):
    try:
        fn(*args)
    except Exception as e:  # noqa: BLE001  (the type and message are what is compared)
        return type(e).__name__, str(e)
    return None


def test_errors_match() -> None:
    torch = torch_or_skip()
    calls = [
        lambda T: T.special.bessel_j0(1.0),
        lambda T: T.special.airy_ai(T.tensor([1 + 1j])),
        lambda T: T.special.modified_bessel_k1(T.ones(2, dtype=T.float16)),
        lambda T: T.special.spherical_bessel_j0(T.ones(2, dtype=T.bfloat16)),
        lambda T: T.special.legendre_polynomial_p(T.ones(2, dtype=T.complex128), 2),
        lambda T: T.special.chebyshev_polynomial_t(2.0, 3),
        lambda T: T.special.hermite_polynomial_h(T.tensor([0.5]), "a"),
        lambda T: T.special.zeta(2.0, 3.0),
        lambda T: T.special.zeta(T.ones(2, dtype=T.float16), T.ones(2, dtype=T.float16)),
    ]
    for call in calls:
        theirs, ours = _error(call, torch), _error(call, minigrad)
        assert theirs is not None
        assert ours == theirs


def test_no_graph_is_recorded() -> None:
    torch = torch_or_skip()
    for T in (torch, minigrad):
        x = T.tensor([0.5, 1.5], requires_grad=True)
        for name in UNARY:
            y = getattr(T.special, name)(x)
            assert y.grad_fn is None and not y.requires_grad
        for name in POLYNOMIALS:
            y = getattr(T.special, name)(x, 3)
            assert y.grad_fn is None and not y.requires_grad
        e = _error(lambda T, x: T.special.bessel_j1(x).sum().backward(), T, x)
        assert e == ("RuntimeError", "element 0 of tensors does not require grad and does not have a grad_fn")


def test_zeta_values_bit_exact() -> None:
    torch = torch_or_skip()
    xs = np.array([0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 7.3, 20.0, np.nan, np.inf, -2.0])
    qs = np.concatenate([np.linspace(-5, 20, 101), [0.0, -1.0, -1.5, 1e-3, 1e5, np.nan, np.inf, -70.5, -100.25]])
    for dtype in ("float32", "float64"):
        x, q = (a.astype(dtype) for a in np.meshgrid(xs, qs))
        theirs = torch.special.zeta(torch.from_numpy(x), torch.from_numpy(q)).numpy()
        _same_bits(minigrad.special.zeta(minigrad.from_numpy(x), minigrad.from_numpy(q)).numpy(), theirs)
    for args in [(2.0, [1.0, 2.5]), ([2.0, 3.5], 1.5), ([2, 3], [1, 2])]:
        outs = []
        for T in (torch, minigrad):
            outs.append(T.special.zeta(*(T.tensor(a) if isinstance(a, list) else a for a in args)))
        assert str(outs[1].dtype) == str(outs[0].dtype)
        _same_bits(outs[1].numpy(), outs[0].numpy())


def test_zeta_gradients_nodes_and_errors() -> None:
    torch = torch_or_skip()
    results = []
    for T in (torch, minigrad):
        x = T.tensor([2.0, 3.0], dtype=T.float64, requires_grad=True)
        q = T.tensor([1.0, 2.5], dtype=T.float64, requires_grad=True)
        out = []
        y = T.special.zeta(x, q)
        out.append((type(y.grad_fn).__name__, y.grad_fn._saved_self.tolist(), y.grad_fn._saved_other.tolist()))
        # (x without grad here: minigrad's engine runs every formula of a node whose input needs a gradient,
        # even one autograd.grad(..., q) does not ask for, so x's unimplemented derivative would raise)
        y0 = T.special.zeta(x.detach(), q)
        (g,) = T.autograd.grad(y0.sum(), q, create_graph=True)
        out.append((g.detach().numpy().tolist(), type(g.grad_fn).__name__))
        out.append(T.autograd.grad(g.sum(), q)[0].numpy().tolist())   # d²ζ/dq² = x(x+1)·ζ(x+2, q)
        out.append(_error(lambda T, x, q: T.special.zeta(x, q).sum().backward(), T, x, q))
        y1 = T.special.zeta(2.0, q)
        out.append((type(y1.grad_fn).__name__, y1.grad_fn._saved_self))
        out.append(T.autograd.grad(y1.sum(), q)[0].numpy().tolist())
        y2 = T.special.zeta(x, 2.0)
        out.append((type(y2.grad_fn).__name__, [a for a in dir(y2.grad_fn) if a.startswith("_saved")]))
        out.append(_error(lambda T, x: T.special.zeta(x, 2.0).sum().backward(), T, x))
        results.append(out)
    assert results[1] == results[0]
    assert results[0][3] == ("NotImplementedError", "the derivative for 'zeta' is not implemented.")


def test_out_argument() -> None:
    torch = torch_or_skip()
    outs = []
    for T in (torch, minigrad):
        o = T.empty(3, dtype=T.float64)
        r = T.special.bessel_j0(T.tensor([0.5, 1.0, 7.0], dtype=T.float64), out=o)
        p = T.empty(3)
        T.special.legendre_polynomial_p(T.tensor([0.5, 0.1, 0.9]), 4, out=p)
        outs.append((r is o, o.numpy().copy(), p.numpy().copy()))
    assert outs[1][0] and outs[0][0]
    _same_bits(outs[1][1], outs[0][1])
    _same_bits(outs[1][2], outs[0][2])


def test_huge_degrees_take_the_trigonometric_form() -> None:
    # (inside (-1, 1) PyTorch skips the recurrence for large n: so does minigrad, instead of looping 10⁹ times)
    torch = torch_or_skip()
    x = np.array([0.3, -0.7, 1.0, -1.0, 0.999])
    for name in POLYNOMIALS[:4]:   # (T, U, V, W)
        theirs = getattr(torch.special, name)(torch.from_numpy(x), 10**9).numpy()
        _same_bits(getattr(minigrad.special, name)(minigrad.from_numpy(x), 10**9).numpy(), theirs)
    for name in ("shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_w"):
        theirs = getattr(torch.special, name)(torch.from_numpy(x / 2 + 0.5), 10**9).numpy()
        _same_bits(getattr(minigrad.special, name)(minigrad.from_numpy(x / 2 + 0.5), 10**9).numpy(), theirs)


def test_shapes_broadcasting_and_scalars_print_alike() -> None:
    from parity import run_both
    program = r'''
import torch
S = torch.special
x = torch.tensor(1.5)
print(S.bessel_j0(x), S.airy_ai(torch.tensor([])), S.zeta(torch.tensor(3.0), 2.0))
print(S.legendre_polynomial_p(x, torch.tensor(3)))
m = torch.arange(12.).view(3, 4).t()
print(S.modified_bessel_k1(m + 0.5), S.hermite_polynomial_h(m / 10, 3))
print(S.chebyshev_polynomial_t(torch.tensor([[0.5], [0.25]]), torch.tensor([1, 2, 3])))
print(S.zeta(torch.tensor([[2.], [3.]]), torch.tensor([1., 2., 3.])))
print(S.spherical_bessel_j0(torch.tensor([1.0, 2.0], dtype=torch.float64)).dtype)
'''
    ours, theirs = run_both(program)
    assert theirs and ours == theirs
