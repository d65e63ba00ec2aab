"""gradcheck / gradgradcheck: passing checks, PyTorch's failure messages, warnings and errors."""
import warnings

import pytest

import minigrad as torch
from minigrad.autograd import Function, gradcheck, gradgradcheck
from minigrad.autograd.gradcheck import GradcheckError
from tests.parity import run_both


def _double(values):
    return torch.tensor(values, dtype=torch.float64, requires_grad=True)


class WrongMul(Function):
    """x * y whose backward doubles the gradient for x (a classic bug)."""

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y

    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return g * y * 2, g * x


def test_correct_functions_pass():
    x, y = _double([1.0, 2.0, 3.0]), _double([4.0, 5.0, 6.0])
    assert gradcheck(lambda a, b: (a * b).exp() / (b + 10), (x, y))
    assert gradcheck(lambda a, b: (a * b, a.sum()), (x, y))
    assert gradcheck(lambda a, k: a * k, (x, 3.0))             # non-tensor inputs are passed through
    assert gradcheck(lambda a: a.tanh(), x)                     # a single tensor is accepted
    m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, requires_grad=True)
    other = torch.tensor([[0.5, -1.0], [2.0, 0.0]], dtype=torch.float64).t().requires_grad_()  # strided
    assert gradcheck(lambda a, b: a.mm(b).sum(0), (m, other))


def test_mismatch_message_shows_both_jacobians():
    x, y = _double([1.0, 2.0, 3.0]), _double([4.0, 5.0, 6.0])
    with pytest.raises(GradcheckError) as info:
        gradcheck(WrongMul.apply, (x, y))
    assert str(info.value) == (
        "Jacobian mismatch for output 0 with respect to input 0,\n"
        "numerical:tensor([[4.0000, 0.0000, 0.0000],\n        [0.0000, 5.0000, 0.0000],\n"
        "        [0.0000, 0.0000, 6.0000]], dtype=torch.float64)\n"
        "analytical:tensor([[ 8.,  0.,  0.],\n        [ 0., 10.,  0.],\n        [ 0.,  0., 12.]], "
        "dtype=torch.float64)\n")
    assert isinstance(info.value, RuntimeError)
    assert info.value.mismatches == [(0, 0), (1, 1), (2, 2)]
    assert (info.value.output_idx, info.value.input_idx) == (0, 0)


def test_raise_exception_false_returns_false():
    x, y = _double([1.0, 2.0]), _double([4.0, 5.0])
    assert gradcheck(WrongMul.apply, (x, y), raise_exception=False) is False


def test_tolerances_are_used():
    class SlightlyOff(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2.01

    x = _double([1.0, 2.0])
    assert not gradcheck(SlightlyOff.apply, (x,), raise_exception=False)
    assert gradcheck(SlightlyOff.apply, (x,), atol=0.1, check_undefined_grad=False)


def test_float32_input_warns_and_no_grad_input_is_an_error():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert gradcheck(lambda a: a * 2, (torch.tensor([1.0, 2.0], requires_grad=True),), eps=1e-3, atol=1e-2)
    assert str(w[0].message).startswith("Input #0 requires gradient and is not a double precision floating point")
    with pytest.raises(ValueError, match="gradcheck expects at least one input tensor to require gradient"):
        gradcheck(lambda a: a * 2, (torch.ones(2),))


def test_backward_not_multiplied_by_grad_output():
    class Offset(Function):
        @staticmethod
        def forward(ctx, x):
            return x.sum()

        @staticmethod
        def backward(ctx, g):
            return torch.ones(2, dtype=torch.float64)   # ignores g: right at g = 1, wrong at g = 0

    with pytest.raises(GradcheckError, match="backward not multiplied by grad_output"):
        gradcheck(Offset.apply, (_double([1.0, 2.0]),))


def test_gradgradcheck_checks_second_derivatives():
    x = _double([0.5, 1.5])
    assert gradgradcheck(lambda a: (a ** 3).sum(), (x,))
    assert gradgradcheck(lambda a: a.sigmoid() * a, (x,))

    class FirstOrderOnly(Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a ** 2

        @staticmethod
        def backward(ctx, g):
            a, = ctx.saved_tensors
            return g * 2 * a.detach()   # not differentiable w.r.t. a: second derivative is lost

    assert gradcheck(FirstOrderOnly.apply, (x,))
    with pytest.raises(GradcheckError, match="Jacobian mismatch for output 0 with respect to input 0"):
        gradgradcheck(FirstOrderOnly.apply, (x,))


def test_forward_ad_check():
    x = _double([0.5, 1.5])
    assert gradcheck(lambda a: (a * a).exp().sum(0), (x,), check_forward_ad=True)


def test_fast_mode_reports_slow_mode_jacobians_on_failure():
    class Bad(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.sum()

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * x ** 2

    with pytest.raises(GradcheckError) as info:
        gradcheck(Bad.apply, (_double([1.0, 2.0]),), fast_mode=True)
    msg = str(info.value)
    assert "in fast mode. See: https://github.com/pytorch/pytorch/issues/53876" in msg
    assert msg.endswith("The max per-element difference (slow mode) is: 2.999999999860222.\n")
    assert gradcheck(lambda a: a.exp() * 3, (_double([1.0, 2.0]),), fast_mode=True)


def test_messages_match_pytorch():
    program = """
import torch
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 2 * x + 1
x = torch.tensor([[1., 2.], [3., 4.]], dtype=torch.double, requires_grad=True)
for kwargs in ({}, {"check_undefined_grad": False}):
    try:
        torch.autograd.gradcheck(Bad.apply, (x,), **kwargs)
    except RuntimeError as e:
        print(type(e).__name__, e)
print(torch.autograd.gradcheck(lambda a: a.sum(1) * 3, (x,)))
print(torch.autograd.gradgradcheck(lambda a: (a ** 3).sum(), (x,)))
try:
    torch.autograd.gradcheck(lambda a: a * 2, (torch.ones(2),))
except ValueError as e:
    print(e)
"""
    ours, theirs = run_both(program)
    assert ours == theirs
