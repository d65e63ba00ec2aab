"""Forward semantics of the elementwise, arithmetic, reduction, comparison and complex ops.

What the derivative sweep (test_op_table.py) does not see: dtypes and promotion, return types,
values at awkward points (0 ** 0, pow at base 0, NaN), and PyTorch's exceptions for bad input.
Each expectation is written out here, and compared with PyTorch itself where it is installed.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from parity import HAVE_TORCH, torch_or_skip

import minigrad

# ---- bad input: PyTorch's exception type and message --------------------------------------------

ERRORS = [
    ("add-shape", lambda T: T.ones(3) + T.ones(4), RuntimeError,
     "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0"),
    ("eq-shape", lambda T: T.ones(2, 3) == T.ones(4), RuntimeError,
     "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"),
    ("maximum-shape", lambda T: T.maximum(T.ones(3), T.ones(2)), RuntimeError,
     "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0"),
    ("clamp-no-bounds", lambda T: T.ones(3).clamp(), RuntimeError,
     "torch.clamp: At least one of 'min' or 'max' must not be None"),
    ("clamp-complex", lambda T: T.ones(2, dtype=T.complex64).clamp(0, 1), NotImplementedError,
     "clamp is not supported for complex types"),
    ("sum-bad-dim", lambda T: T.ones(2, 3).sum(2), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    ("max-bad-dim", lambda T: T.ones(2, 3).max(5), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 5)"),
    ("argmax-bad-dim", lambda T: T.ones(2, 3).argmax(-3), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got -3)"),
    ("max-empty", lambda T: T.ones(0).max(), RuntimeError,
     ("max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the "
     "'dim' argument.")),
    ("mean-int", lambda T: T.tensor([1, 2]).mean(), RuntimeError,
     ("mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. "
     "Got: Long")),
    ("var-int", lambda T: T.tensor([1, 2]).var(), RuntimeError,
     "std and var only support floating point and complex dtypes"),
    ("norm-int", lambda T: T.tensor([1, 2]).norm(), RuntimeError,
     "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long"),
    ("abs-bool", lambda T: T.tensor([True]).abs(), NotImplementedError, "\"abs_cpu\" not implemented for 'Bool'"),
    ("sign-complex", lambda T: T.ones(2, dtype=T.complex64).sign(), NotImplementedError,
     "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use torch.sgn instead."),
    ("maximum-complex", lambda T: T.maximum(T.ones(1, dtype=T.complex64), T.ones(1, dtype=T.complex64)),
     RuntimeError, "maximum not implemented for complex tensors."),
    ("where-int-cond", lambda T: T.where(T.tensor([1, 0]), T.ones(2), T.zeros(2)), RuntimeError,
     "where expected condition to be a boolean tensor, but got a tensor with dtype Long"),
    ("lerp-dtype", lambda T: T.lerp(T.ones(2), T.ones(2, dtype=T.float64), 0.5), RuntimeError,
     "expected dtype float for `end` but got dtype double"),
    ("allclose-dtype", lambda T: T.allclose(T.ones(2), T.ones(2, dtype=T.float64)), RuntimeError,
     "Float did not match Double"),
    ("allclose-shape", lambda T: T.allclose(T.ones(2), T.ones(3)), RuntimeError,
     "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"),
    ("neg-bool", lambda T: -T.tensor([True]), RuntimeError,
     ("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use "
     "the `~` or `logical_not()` operator instead.")),
    ("int-negative-power", lambda T: T.tensor([2]) ** -1, RuntimeError,
     "Integers to negative integer powers are not allowed."),
    ("sqrt_-int", lambda T: T.tensor([4]).sqrt_(), RuntimeError,
     "result type Float can't be cast to the desired output type Long"),
    ("inplace-leaf", lambda T: T.ones(2, requires_grad=True).exp_(), RuntimeError,
     "a leaf Variable that requires grad is being used in an in-place operation."),
]


@pytest.mark.parametrize("fn, exc, message", [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_bad_input_raises_pytorchs_error(fn, exc, message):
    with pytest.raises(exc) as info:
        fn(minigrad)
    assert str(info.value) == message
    if HAVE_TORCH:
        import torch
        with pytest.raises(exc) as tinfo:
            fn(torch)
        assert str(tinfo.value) == message


# ---- dtypes and promotion --------------------------------------------------------------------------

DTYPES = [
    ("exp-int", lambda T: T.tensor([1, 2]).exp(), "float32"),
    ("sqrt-int", lambda T: T.tensor([4]).sqrt(), "float32"),
    ("reciprocal-int", lambda T: T.tensor([2]).reciprocal(), "float32"),
    ("floor-int", lambda T: T.tensor([2]).floor(), "int64"),
    ("round-int", lambda T: T.tensor([2]).round(), "int64"),
    ("abs-int", lambda T: T.tensor([-2], dtype=T.int32).abs(), "int32"),
    ("sign-bool", lambda T: T.tensor([True, False]).sign(), "bool"),
    ("clamp-int-float-bound", lambda T: T.tensor([1, 5]).clamp(0.5, 2), "float32"),
    ("clamp-int-int-bound", lambda T: T.tensor([1, 5]).clamp(0, 2), "int64"),
    ("maximum-int-float", lambda T: T.maximum(T.tensor([1]), T.tensor([1.5])), "float32"),
    ("where-int-float", lambda T: T.where(T.tensor([True]), T.tensor([1]), 2.5), "float32"),
    ("where-f32-f64", lambda T: T.where(T.tensor([True]), T.ones(1), T.ones(1, dtype=T.float64)), "float64"),
    ("prod-int32", lambda T: T.tensor([1, 2], dtype=T.int32).prod(), "int64"),
    ("cumsum-int32", lambda T: T.tensor([1, 2], dtype=T.int32).cumsum(0), "int64"),
    ("max-int32", lambda T: T.tensor([1, 2], dtype=T.int32).max(), "int32"),
    ("amax-f64", lambda T: T.ones(2, 2, dtype=T.float64).amax(1), "float64"),
    ("logsumexp-int", lambda T: T.tensor([1, 2]).logsumexp(0), "float32"),
    ("argmax", lambda T: T.tensor([1.0, 3.0]).argmax(), "int64"),
    ("var-complex", lambda T: T.ones(3, dtype=T.complex64).var(), "float32"),
    ("abs-complex", lambda T: T.ones(3, dtype=T.complex128).abs(), "float64"),
    ("angle-int", lambda T: T.tensor([-1, 2]).angle(), "float32"),
    ("real-complex64", lambda T: T.ones(3, dtype=T.complex64).real, "float32"),
    ("view_as_real", lambda T: T.view_as_real(T.ones(3, dtype=T.complex128)), "float64"),
    ("all-uint8", lambda T: T.tensor([1, 2], dtype=T.uint8).all(), "uint8"),
    ("any-float", lambda T: T.tensor([0.0, 2.0]).any(), "bool"),
    ("isnan-int", lambda T: T.tensor([1]).isnan(), "bool"),
    ("eq-int-float", lambda T: T.tensor([1, 2]) == 1.0, "bool"),
    ("2-pow-int", lambda T: 2 ** T.tensor([1, 2]), "int64"),
    ("2.0-pow-int", lambda T: 2.0 ** T.tensor([1, 2]), "float32"),
    ("rdiv-int", lambda T: 1 / T.tensor([2]), "float32"),
    ("rsub-int", lambda T: 1 - T.tensor([2]), "int64"),
    ("int-pow-float", lambda T: T.tensor([2]) ** 0.5, "float32"),
]


@pytest.mark.parametrize("fn, dtype", [d[1:] for d in DTYPES], ids=[d[0] for d in DTYPES])
def test_result_dtype(fn, dtype):
    assert fn(minigrad).dtype.name == dtype
    if HAVE_TORCH:
        import torch
        assert str(fn(torch).dtype) == f"torch.{dtype}"


# ---- values at awkward points --------------------------------------------------------------------

VALUES = [
    ("0**0", lambda T: T.tensor([0.0, 2.0]) ** 0, [1.0, 1.0]),
    ("0**0.5", lambda T: T.tensor([0.0, 4.0]) ** 0.5, [0.0, 2.0]),
    ("0**-1", lambda T: T.tensor([0.0]) ** -1, [math.inf]),
    ("sqrt-negative", lambda T: T.tensor([-1.0]).sqrt(), [math.nan]),
    ("log-0", lambda T: T.tensor([0.0]).log(), [-math.inf]),
    ("round-half-even", lambda T: T.tensor([0.5, 1.5, 2.5, -0.5]).round(), [0.0, 2.0, 2.0, -0.0]),
    ("round-decimals", lambda T: T.tensor([1.2345, -2.5551]).round(decimals=2), [1.23, -2.56]),
    ("frac", lambda T: T.tensor([1.25, -1.25]).frac(), [0.25, -0.25]),
    ("clamp-nan", lambda T: T.tensor([math.nan, 3.0]).clamp(0, 1), [math.nan, 1.0]),
    ("clamp-min>max", lambda T: T.tensor([0.0, 3.0]).clamp(2, 1), [1.0, 1.0]),
    ("maximum-nan", lambda T: T.maximum(T.tensor([math.nan, 1.0]), T.tensor([0.0, 2.0])), [math.nan, 2.0]),
    ("max-nan", lambda T: T.tensor([1.0, math.nan, 3.0]).max(), [math.nan]),
    ("sgn-complex", lambda T: T.view_as_real(T.tensor([3 + 4j, 0j]).sgn()), [[0.6, 0.8], [0.0, 0.0]]),
    ("angle-real", lambda T: T.tensor([-2.0, 3.0]).angle(), [math.pi, 0.0]),
    ("logsumexp-large", lambda T: T.tensor([1000.0, 1000.0]).logsumexp(0), [1000.0 + math.log(2)]),
    ("logsumexp-inf", lambda T: T.tensor([-math.inf, -math.inf]).logsumexp(0), [-math.inf]),
    ("norm-inf", lambda T: T.tensor([-3.0, 2.0]).norm(p=math.inf), [3.0]),
    ("norm-0", lambda T: T.tensor([-3.0, 0.0, 2.0]).norm(p=0), [2.0]),
    ("lerp-ends", lambda T: T.lerp(T.tensor([1.0, 1.0]), T.tensor([3.0, 3.0]), T.tensor([0.0, 1.0])), [1.0, 3.0]),
    ("2/x", lambda T: 2 / T.tensor([4.0]), [0.5]),
    ("all-dim", lambda T: T.tensor([[1, 0], [1, 1]]).all(dim=1), [False, True]),
    ("any-dim-keepdim", lambda T: T.tensor([[0, 0], [1, 0]]).any(-1, keepdim=True), [[False], [True]]),
    ("isinf", lambda T: T.tensor([math.inf, -math.inf, 1.0, math.nan]).isinf(), [True, True, False, False]),
    ("isfinite", lambda T: T.tensor([math.inf, 1.0, math.nan]).isfinite(), [False, True, False]),
    ("argmin-dim", lambda T: T.tensor([[3.0, 1.0], [0.0, 5.0]]).argmin(1), [1, 0]),
    ("argmax-keepdim", lambda T: T.tensor([[3.0, 1.0], [0.0, 5.0]]).argmax(0, keepdim=True), [[0, 1]]),
]


@pytest.mark.parametrize("fn, expected", [v[1:] for v in VALUES], ids=[v[0] for v in VALUES])
def test_values(fn, expected):
    got = fn(minigrad)
    np.testing.assert_allclose(got.numpy().astype(float), np.asarray(expected, dtype=float), rtol=1e-6)
    if HAVE_TORCH:
        import torch
        np.testing.assert_array_equal(got.numpy(), fn(torch).numpy())


def test_var_of_one_element_warns_and_is_nan():
    with pytest.warns(UserWarning, match=r"var\(\): degrees of freedom is <= 0"):
        assert math.isnan(minigrad.tensor([1.0]).var().item())
    if HAVE_TORCH:
        import torch
        with pytest.warns(UserWarning, match=r"var\(\): degrees of freedom is <= 0"):
            assert math.isnan(torch.tensor([1.0]).var().item())


def test_pow_gradients_at_base_zero():
    """PyTorch's values: d x² = 0, d x^0 = 0, d x^0.5 = inf at 0; d 0^y / dy = 0 for y >= 0."""
    x = minigrad.tensor([0.0, 0.0, 0.0], requires_grad=True)
    (x[0] ** 2 + x[1] ** 0 + x[2] ** 0.5).backward()
    assert x.grad.tolist() == [0.0, 0.0, math.inf]
    base = minigrad.tensor([0.0, 0.0], requires_grad=True)
    y = minigrad.tensor([2.0, 0.0], requires_grad=True)
    (base ** y).sum().backward()
    assert base.grad.tolist() == [0.0, 0.0] and y.grad.tolist() == [0.0, 0.0]
    e = minigrad.tensor([1.0, 0.0], requires_grad=True)
    (0 ** e).sum().backward()
    assert e.grad.tolist() == [0.0, 0.0]


def test_tie_gradients_are_shared():
    """max() splits the gradient evenly over ties; maximum() gives half to each side; max(dim) picks one."""
    x = minigrad.tensor([1.0, 3.0, 3.0], requires_grad=True)
    x.max().backward()
    assert x.grad.tolist() == [0.0, 0.5, 0.5]
    a, b = minigrad.tensor([2.0], requires_grad=True), minigrad.tensor([2.0], requires_grad=True)
    minigrad.maximum(a, b).backward()
    assert (a.grad.item(), b.grad.item()) == (0.5, 0.5)
    y = minigrad.tensor([[1.0, 3.0, 3.0]], requires_grad=True)
    y.max(1).values.sum().backward()
    assert y.grad.tolist() == [[0.0, 1.0, 0.0]]


def test_max_dim_return_type():
    m = minigrad.tensor([[1.0, 5.0], [7.0, 2.0]], requires_grad=True)
    out = m.max(1)
    values, indices = out
    assert out.values is values and out.indices is indices
    assert indices.tolist() == [1, 0] and values.tolist() == [5.0, 7.0]
    assert type(out).__name__ == "max" and type(out).__module__ == "torch.return_types"
    assert repr(out) == ("torch.return_types.max(\nvalues=tensor([5., 7.], grad_fn=<MaxBackward0>),\n"
                         "indices=tensor([1, 0]))")
    assert minigrad.min(m, 0).indices.tolist() == [0, 1]


def test_max_dim_repr_matches_torch():
    torch = torch_or_skip()
    data = [[1.0, 5.0], [7.0, 2.0]]
    assert repr(minigrad.tensor(data, requires_grad=True).max(1, keepdim=True)) == \
        repr(torch.tensor(data, requires_grad=True).max(1, keepdim=True))


def test_complex_gradient_convention():
    """For a real loss L(z), z.grad = ∂L/∂Re z + i ∂L/∂Im z (PyTorch's convention)."""
    z = minigrad.tensor([1 + 2j, -3 + 0.5j], requires_grad=True)
    (z.abs() ** 2).sum().backward()
    np.testing.assert_allclose(z.grad.numpy(), 2 * np.array([1 + 2j, -3 + 0.5j]))
    w = minigrad.tensor([1 + 2j, -3 + 0.5j], requires_grad=True)
    (w.real * 3 + w.imag * 5).sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), [3 + 5j, 3 + 5j])


def test_real_and_imag_are_views():
    z = minigrad.tensor([1 + 2j, 3 - 1j])
    r = z.real
    assert r._is_view() and minigrad.imag(z)._is_view()
    r.mul_(10)
    assert z.tolist() == [10 + 2j, 30 - 1j]


def test_comparison_and_logic():
    a = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert (a > minigrad.tensor([2.0, 2.0])).tolist() == [[False, False], [True, True]]
    assert minigrad.equal(a, a.clone()) and not minigrad.equal(a, minigrad.ones(3))
    assert minigrad.allclose(a, a + 1e-9) and not minigrad.allclose(a, a + 1e-3)
    assert minigrad.allclose(minigrad.tensor([math.nan]), minigrad.tensor([math.nan]), equal_nan=True)
    assert minigrad.isclose(a, a + 1e-3, atol=1e-2).all().item() is True


def test_inplace_variants_bump_version_and_match_out_of_place():
    for name in ["abs", "sqrt", "exp", "log", "sin", "cos", "tan", "tanh", "sigmoid", "relu", "floor", "ceil",
                 "trunc", "frac", "round", "reciprocal", "rsqrt", "log1p", "expm1", "sign", "square"]:
        x = minigrad.tensor([0.3, 1.7, 2.2])
        expected = getattr(x, name)()
        before = x._version
        assert getattr(x, name + "_")() is x
        assert x._version == before + 1
        np.testing.assert_allclose(x.numpy(), expected.numpy(), err_msg=name)
    x = minigrad.tensor([-1.0, 0.5, 2.0])
    x.clamp_(0, 1)
    assert x.tolist() == [0.0, 0.5, 1.0]


def test_reflected_operators_graph():
    """2 - x, 2 / x, 2 ** x: PyTorch's nodes (and edges)."""
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    assert type((2 - x).grad_fn).__name__ == "RsubBackward1"
    node = (2 / x).grad_fn
    assert type(node).__name__ == "MulBackward0"
    assert type(node.next_functions[0][0]).__name__ == "ReciprocalBackward0" and node.next_functions[1][0] is None
    p = (2 ** x).grad_fn
    assert type(p).__name__ == "PowBackward2" and p._saved_self == 2 and len(p.next_functions) == 1
    c = x.clamp(min=minigrad.tensor(0.0, requires_grad=True))
    assert [n is None for n, _ in c.grad_fn.next_functions] == [False, False, True]


def test_saved_values():
    m = minigrad.ones(3, 4, requires_grad=True)
    assert m.var().grad_fn._saved_correction is None
    assert m.var(1).grad_fn._saved_correction == 1
    assert m.std(0, unbiased=False).grad_fn._saved_correction == 0
    assert m.amax().grad_fn._saved_dim == ()
    assert m.norm().grad_fn._saved_ord == 2 and m.norm(p=1).grad_fn._saved_ord == 1
    c = m.clamp(min=0)
    assert c.grad_fn._saved_min == 0 and c.grad_fn._saved_max is None
