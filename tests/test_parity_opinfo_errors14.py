"""Session 14, second wave: the leftovers of PyTorch's OpInfo ``error_inputs`` sweep (tests/opinfo_errors.py).

Each test runs the same expressions with torch and with minigrad and compares the outcome (exception type and
message, or shapes, dtypes and values): the C operators called on a non-tensor, the Python-level ``__rdiv__``,
lists as operands of the reflected operators, programs mixing real PyTorch tensors with minigrad ones (an error,
not an endless hand-over between the two ``__torch_function__``), alpha dropout of a bool tensor and
``F.rrelu`` of a bfloat16 tensor in training mode.
"""
from __future__ import annotations

import numpy as np
import pytest
from parity import torch_or_skip
from test_parity_opinfo_errors import _check

import minigrad


@pytest.mark.parametrize("name", ["__radd__", "__rmul__", "__rand__", "__ror__", "__rxor__", "__add__", "__sub__",
                                  "__mul__", "__truediv__", "__eq__", "__lt__", "__and__", "__xor__", "__iadd__",
                                  "__matmul__", "__mod__"])
def test_c_operator_on_a_non_tensor(name):
    # torch.Tensor.__radd__ is a C method of TensorBase: called on an int it is the descriptor's TypeError
    _check([f"torch.Tensor.{name}(2, torch.tensor([1, 2, 3]))", f"torch.Tensor.{name}(2, 3)",
            f"torch.Tensor.{name}(2.5, None)", f"torch.Tensor.{name}(torch.tensor([1, 2, 3]), 'a')"])


def test_rdiv_is_pytorchs_python_method():
    # PyTorch's __rdiv__ (and its alias __rtruediv__) is self.reciprocal() * other, run on whatever self is
    _check(["torch.Tensor.__rdiv__(2, torch.tensor([1., 2, 3]))", "torch.Tensor.__rdiv__(2, 3)",
            "torch.Tensor.__rtruediv__(2, torch.tensor([1., 2, 3]))",
            "torch.tensor([1., 2, 4]).__rdiv__(3)", "torch.tensor([1, 2, 4]).__rdiv__(3.)",
            "torch.tensor([1., 2, 4]).__rdiv__('a')", "torch.tensor([1., 2, 4]).__rdiv__(None)",
            "torch.Tensor.__rdiv__ is torch.Tensor.__rtruediv__"])


@pytest.mark.parametrize("op", ["&", "|", "^", "**", "%", "//", "<<", ">>"])
def test_list_operand_of_an_operator(op):
    # a list is no tensor: [1, 2, 3] & t is Python's TypeError in PyTorch (each __r*__ returns NotImplemented)
    _check([f"[1, 2, 3] {op} torch.tensor([1, 2, 3])", f"(1, 2, 3) {op} torch.tensor([1, 2, 3])",
            f"torch.tensor([1, 2, 3]) {op} [1, 2, 3]", f"torch.tensor([1, 2, 3]) {op} (1, 2, 3)",
            f"2 {op} torch.tensor([1, 2, 3])", f"torch.tensor([1, 2, 3]) {op} 2"])


def test_list_operand_of_the_functions():
    _check(["torch.bitwise_and(torch.tensor([1, 2]), [1, 2])", "torch.bitwise_or([1, 2], torch.tensor([1, 2]))",
            "torch.bitwise_left_shift(torch.tensor([1, 2]), [1, 2])", "torch.pow([1, 2], torch.tensor([1, 2]))",
            "torch.remainder([1, 2], torch.tensor([1, 2]))", "torch.floor_divide([1, 2], torch.tensor([1, 2]))",
            "torch.pow(2, torch.tensor([1, 2]))", "torch.remainder(5, torch.tensor([2, 3]))",
            "torch.bitwise_and(torch.tensor([1, 2]), 3)"])


_MIXED = ["a == b", "b == a", "a != b", "a + b", "b + a", "a * b", "b - a", "a < b", "b >= a", "a @ b", "b @ a",
          "a & b", "b / a"]


@pytest.mark.parametrize("expr", _MIXED)
def test_mixing_torch_and_minigrad_tensors_operators(expr):
    # A student's program with both `import torch` and `import minigrad`: each library's __torch_function__ used
    # to hand the call to the other one forever (RecursionError). minigrad now declines, as a tensor-like whose
    # handler returns NotImplemented does in PyTorch: Python's own outcome, the one PyTorch gives for `a op c`
    # where c is a tensor-like that declines (compared below).
    torch = torch_or_skip()

    class Declines:   # (PyTorch's reference: a tensor-like object whose __torch_function__ says NotImplemented)
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return NotImplemented

    def outcome(a, b):
        try:
            return ("ok", eval(expr, {"a": a, "b": b}))
        except TypeError as e:
            return ("TypeError", str(e).replace("Declines", "Tensor"))
    a = torch.tensor([1., 2.]) if "@" not in expr else torch.ones(2, 2)
    b = minigrad.tensor([1., 2.]) if "@" not in expr else minigrad.ones(2, 2)
    expected = outcome(a, Declines()) if expr.startswith("a") else outcome(Declines(), a)
    assert outcome(a, b) == expected, expr
    expected = outcome(b, Declines()) if expr.startswith("b") else outcome(Declines(), b)
    assert outcome(a, b) == expected, expr


@pytest.mark.parametrize("call", ["torch.add(a, b)", "torch.cat([a, b])", "torch.nn.functional.relu(b)",
                                  "minigrad.add(b, a)", "minigrad.cat([b, a])", "minigrad.nn.functional.relu(a)",
                                  "minigrad.norm(a)", "torch.where(a > 0, a, b)", "minigrad.where(b > 0, b, a)"])
def test_mixing_torch_and_minigrad_tensors_functions(call):
    # torch's functions with a minigrad tensor, minigrad's with a torch tensor: a TypeError naming the other
    # library's type (PyTorch's "no implementation found" / "Multiple dispatch failed"), never a RecursionError
    torch = torch_or_skip()
    a, b = torch.tensor([1., 2.]), minigrad.tensor([1., 2.])
    with pytest.raises(TypeError) as error:
        eval(call, {"torch": torch, "minigrad": minigrad, "a": a, "b": b})
    assert "__torch_function__" in str(error.value) or "NotImplemented" in str(error.value)
    # (and each library alone is untouched afterwards)
    assert np.array_equal((b + b).numpy(), (a + a).numpy())


def test_alpha_dropout_of_integer_and_bool_tensors():
    # alpha dropout's first float step is noise.add(-1).mul_(...): a bool noise plus -1 is int64 by then
    _check([f"F.{f}({x}, 0.5, training=True)" for f in ("alpha_dropout", "feature_alpha_dropout")
            for x in ("torch.tensor([[True, False], [True, True]])", "torch.ones(2, 3, dtype=torch.int8)",
                      "torch.ones(2, 3, dtype=torch.uint8)", "torch.tensor([True, False])")]
           + ["F.dropout(torch.tensor([True, False]), 0.5, training=True)",
              "F.alpha_dropout(torch.tensor([True, False]), 0.5, training=False)"])


def test_rrelu_bfloat16_training_noise_rounded_once():
    # PyTorch draws the slope in float (bfloat16's opmath) and rounds x·r once; the saved noise is r in bfloat16
    torch = torch_or_skip()
    for seed, inplace in ((0, False), (1, False), (2, True)):
        torch.manual_seed(seed)
        x = torch.randn(4, 30).to(torch.bfloat16)
        mx = minigrad.tensor(x.float().numpy()).to(minigrad.bfloat16)
        xt, xm = x.clone().requires_grad_(), mx.clone().requires_grad_()
        torch.manual_seed(seed + 10)
        minigrad.manual_seed(seed + 10)
        if inplace:
            yt, ym = torch.nn.functional.rrelu(xt * 1, training=True, inplace=True), \
                minigrad.nn.functional.rrelu(xm * 1, training=True, inplace=True)
        else:
            yt = torch.nn.functional.rrelu(xt, lower=0.1, upper=0.4, training=True)
            ym = minigrad.nn.functional.rrelu(xm, lower=0.1, upper=0.4, training=True)
        assert str(ym.dtype) == str(yt.dtype) and type(ym.grad_fn).__name__ == type(yt.grad_fn).__name__
        assert np.array_equal(ym.detach().float().numpy(), yt.detach().float().numpy())
        if not inplace:
            assert np.array_equal(ym.grad_fn._saved_noise.float().numpy(), yt.grad_fn._saved_noise.float().numpy())
        g = torch.linspace(-1, 1, 120).reshape(4, 30).to(torch.bfloat16)
        yt.backward(g)
        ym.backward(minigrad.tensor(g.float().numpy()).to(minigrad.bfloat16))
        assert np.array_equal(xm.grad.float().numpy(), xt.grad.float().numpy())


def test_rdiv_alias_survives_torch_function_activation():
    # the first tensor-like/subclass wraps Tensor's methods: __rtruediv__ must stay the very function __rdiv__ is
    torch = torch_or_skip()
    out = []
    for T in (torch, minigrad):
        class Sub(T.Tensor):
            @classmethod
            def __torch_function__(cls, func, types, args=(), kwargs=None):
                return super().__torch_function__(func, types, args, kwargs or {})
        x = T.tensor([1., 4.]).as_subclass(Sub)
        r = 2 / x
        out.append((T.Tensor.__rdiv__ is T.Tensor.__rtruediv__, type(r).__name__, r.tolist()))
    assert out[0] == out[1]
