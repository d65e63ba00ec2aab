"""Argument errors of functions PyTorch binds with several overloads (session 12, third wave).

PyTorch's parser, when no overload takes a call, counts the arguments given (positional and keyword): if that
number fits exactly one overload (between its required and all its parameters), the error is that overload's own
("missing 1 required positional arguments", "must be Tensor", "takes from 2 to 1 positional arguments"); if it
fits none or several, "invalid combination of arguments" and the list of overloads: ``torch.mm(x)`` fits neither
``mm(Tensor input, Tensor mat2, ...)`` form. minigrad's table is ``_arg_errors.FUNCTION_OVERLOADS``. Each call
below runs with minigrad and with PyTorch and must raise the same exception type with the same message.
"""
from __future__ import annotations

import pytest
from parity import torch_or_skip

import minigrad

CALLS = [
    # several overloads: none or two plausible -> the list
    "T.mm()", "T.mm(t)", "T.bmm(b)", "T.sort()", "T.argsort()", "T.sort(t, 'a')", "T.round()",
    "T.round(t, decimals='a')", "T.histogram()", "T.count_nonzero()", "T.count_nonzero(t, 1, 2)", "T.bernoulli()",
    "T.bernoulli(t, 'a')", "T.fill()", "T.fill(t)", "T.histogramdd()", "T.histogramdd(t)", "T.nuclear_norm()",
    "T.squeeze_copy()",
    # one plausible overload: its own error
    "T.sort(t, 1, 2, 3, 4)", "T.argsort(t, 1, 2, 3)", "T.mm(t, 1)", "T.mm(1, t)", "T.sort(5)",
    # one overload (the others hidden): the missing arguments by PyTorch's names
    "T.flip()", "T.flip(t)", "T.roll()", "T.roll(t)", "T.roll(t, 1, 'a')", "T.broadcast_to()", "T.broadcast_to(t)",
    "T.logsumexp()", "T.logsumexp(t)", "T.swapaxes()", "T.swapaxes(t)", "T.swapaxes(t, 0)", "T.swapdims(t)",
    "T.tile()", "T.tile(t)", "T.tile(T.tensor(1.0))", "T.tile(t, 2, 'a')", "T.tile(t, 'a')", "t.tile('a')",
    # the method forms (no self among the arguments; mm's out_dtype overload is no method)
    "t.sort(1, 2, 3)", "t.argsort(1, 2, 3)", "t.sort('a')", "t.argsort(stable=None)", "t.tile()", "t.mm()",
    "b.bmm()",
]


def _outcome(module, call: str) -> str:
    t = module.ones(2, 3)
    b = module.ones(2, 2, 2)
    try:
        result = eval(call, {"T": module, "t": t, "b": b})
    except Exception as e:  # noqa: BLE001  (the error is what is compared)
        return f"{type(e).__name__}: {e}"
    return f"ok {result}"


@pytest.mark.parametrize("call", CALLS)
def test_argument_error_matches_torch(call: str) -> None:
    torch = torch_or_skip()
    expected = _outcome(torch, call)
    assert expected.startswith("TypeError")  # (the cases are the parser's errors)
    assert _outcome(minigrad, call) == expected


@pytest.mark.parametrize("call", ["T.roll(t, 1)", "T.roll(t, 1, 0)", "T.logsumexp(t, 0)", "T.sort(t, stable=None)",
                                  "T.count_nonzero(t, (0, 1))", "T.round(t, decimals=1)", "T.swapaxes(t, 0, 1)",
                                  "T.tile(t, ())", "t.tile((2,))", "t.sort(stable=True, dim=0)",
                                  "T.histogramdd(t, 2)", "T.mm(t, t.t())"])
def test_accepted_calls_still_run(call: str) -> None:
    """Calls an overload takes are not refused (values compared with PyTorch's)."""
    torch = torch_or_skip()
    assert _outcome(minigrad, call) == _outcome(torch, call)
