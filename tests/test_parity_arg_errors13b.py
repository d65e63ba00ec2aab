"""Argument errors of calls minigrad's code used to accept and PyTorch's parser refuses (session 13, second wave).

These calls do not fail in minigrad by themselves (a truthy string for a bool, a float truncated to an int), so
the reparse in the failing call's except branch never saw them: the check sits where minigrad reads the argument
(``sum``'s keepdim, ``unique``'s flags, conv's size lists, cross_entropy's ignore_index ...), and PyTorch's error
is raised there or worded by the wrappers. Each call runs with minigrad and with PyTorch and must raise the same
exception type with the same message (or give the same result, for the calls that must still run).
"""
from __future__ import annotations

import warnings

import pytest
from parity import torch_or_skip

import minigrad

CALLS = [
    # bools: PyTorch's parser takes True and False only (no int, no string, no None)
    "x.sum(dim=0, keepdim='a')", "x.sum(0, 'a')", "T.sum(x, 0, 'a')", "T.sum(x, dim=0, keepdim=1)",
    "x.mean(0, 'a')", "T.mean(x, 0, keepdim=1)", "T.var(x, 0, 1)", "x.var(0, 1)", "T.var(x, 0, unbiased=1)",
    "T.var(x, 0, True, 1)", "T.var(x, unbiased=1)", "x.std(0, 1)", "T.std(x, 0, keepdim='a')", "T.var_mean(x, 0, 1)",
    "T.nonzero(x, as_tuple=1)", "x.nonzero(as_tuple='a')", "T.nonzero(x, as_tuple=None)",
    "T.unique(x, 1)", "T.unique(x, True, 1)", "T.unique(x, True, False, 1)", "T.unique(x, sorted=1)",
    "T.unique(x, dim=0, sorted=1)", "x.unique(1)", "T.unique(x, dim=0.5)", "T.unique(x, return_inverse=None)",
    "F.dropout(x, training='a')", "F.dropout(x, 0.5, 1)", "F.dropout(x, 0.0, 0)", "F.dropout(x, training=None)",
    "F.dropout(x, 0.5, 'a', True)", "F.kl_div(x, x, log_target=1)", "F.kl_div(x, x, reduction='sum', log_target='a')",
    # (a check of PyTorch's Python code comes before the C function's parser)
    "F.kl_div(x, x, reduction='x', log_target='a')", "F.cross_entropy(lg, tg, reduction='x', ignore_index=1.5)",
    # ints, strings, dtypes, memory formats
    "F.cross_entropy(lg, tg, ignore_index=1.5)", "F.cross_entropy(lg, tg, ignore_index=True)",
    "F.cross_entropy(lg, tg, None, None, 1.5)", "F.cross_entropy(lg, tg, ignore_index=None)",
    "F.nll_loss(lg, tg, ignore_index=1.5)", "F.nll_loss(lg, tg, ignore_index=-100.0)",
    "F.gelu(x, approximate=1)", "F.gelu(x, approximate=None)", "F.gelu(x, 'tanh')",
    "F.softmax(x, 1, dtype='a')", "F.softmax(x, 1, dtype=1)", "F.log_softmax(x, 1, dtype='a')",
    "F.softmin(x, 1, dtype='a')", "x.softmax(1, dtype='a')",
    "T.clone(x, memory_format=1)", "x.clone(memory_format='a')",
    # lists of ints: a float element is no longer truncated
    "F.conv2d(b, w, stride=(1, 1.5))", "F.conv2d(b, w, stride=[1.0, 1])", "F.conv2d(b, w, padding=(1, 1.5))",
    "F.conv2d(b, w, dilation=(1, 'a'))", "F.conv1d(T.ones(1, 3, 8), T.ones(2, 3, 3), stride=(1.5,))",
    "F.conv_transpose2d(b, T.ones(3, 2, 3, 3), stride=(1, 1.5))", "F.max_pool2d(b, (2, 2.5))",
    "F.max_pool2d(b, 2, stride=(1, 1.5))", "F.avg_pool2d(b, (2, 2.5))", "F.avg_pool2d(b, 2, stride=(1, 1.5))",
    "F.normalize(x, dim=1.5)", "F.normalize(x, dim=(0, 1.5))", "x.norm(2, 1.5)", "T.norm(x, 2, 1.5)",
    "x.norm(2, (0, 1.5))", "x.norm(2, 'a')",
    # torch.permute takes the dims as one argument (the method, also one by one)
    "T.permute(x, 1, 0)", "T.permute(x, dims=1)", "T.permute(x, 1)", "T.permute(x)", "T.permute(x, (1, 'a'))",
    "T.permute(x, (1, 0), 2)", "T.permute(1, (1, 0))", "T.permute(x, dim=(1, 0))",
    # tensors, and lists of tensors (PyTorch's Python passes the tuple on)
    "T.cdist(x, 1)", "T.cdist(1, x)", "T.cdist(x, x, 'a')", "T.cdist(x, x, p=None)",
    "T.broadcast_tensors(x, 1)", "T.broadcast_tensors([x, x])", "T.broadcast_tensors(1, x)",
    "T.broadcast_tensors(x, [1])", "T.meshgrid(x, 1)", "T.meshgrid([x[0], 1])", "T.meshgrid(x[0], x, 1)",
    # a number for out= of add/sub/mul/div is a tensor to PyTorch's parser (then the cast's error)
    "T.add(x, 1, out=1)", "T.mul(x, x, out=1)", "T.div(x, x, out=1)",
    # names: boolean_dispatch's _max_pool2d; the aliases of div, mul and sub as methods
    "F.max_pool2d(b)", "F.max_pool1d(b)", "F.max_pool3d(b)", "F.max_pool2d(b, 2, 1, 0, 1, False, False, 1)",
    "F.max_pool2d(b, 2, foo=1)", "F.adaptive_max_pool2d(b)", "F.fractional_max_pool2d(b)",
    "x.true_divide('a')", "x.true_divide_('a')", "x.divide('a')", "x.divide_('a')", "x.multiply('a')",
    "x.multiply_('a')", "x.subtract('a')", "x.subtract_('a')", "x.subtract('a', alpha=2)",
    "x.true_divide(x, rounding_mode='floor')", "T.true_divide(x, x, rounding_mode='floor')",
]

# Calls PyTorch takes: they still run, with the same result.
ACCEPTED = [
    "x.sum(0, True)", "x.mean(0, keepdim=False)", "x.var(False)", "x.var(0, True, True)", "T.var(x, 1)",
    "T.unique(x, sorted=False, return_counts=True)", "T.unique(x, True, True, dim=0)", "T.nonzero(x, as_tuple=True)",
    "F.dropout(x, training=False, inplace=True)", "F.dropout(x, 0.0, True)", "F.kl_div(x, x, log_target=True)",
    "F.cross_entropy(lg, tg, ignore_index=1)", "F.nll_loss(lg, tg, ignore_index=2)", "F.gelu(x, approximate='tanh')",
    "F.softmax(x, dim=1, dtype=T.float64)", "T.clone(x, memory_format=T.contiguous_format)",
    "F.conv2d(b, w, stride=(1, 2)).sum()", "F.conv2d(b, w, stride=(1, True)).sum()",
    "F.conv2d(b, w, stride=(1, T.tensor(2))).sum()", "F.max_pool2d(b, 2).sum()",
    "F.max_pool2d(input=b, kernel_size=2).sum()",
    "F.normalize(x, dim=(0, 1))", "F.normalize(x, dim=-1)", "x.norm(2, [0, 1])", "x.norm(1, 1)",
    "T.permute(x, (1, 0))", "T.permute(x, dims=[1, 0])", "T.permute(dims=(1, 0), input=x)", "x.permute(1, 0)",
    "x.permute((1, 0))", "T.cdist(x, x, 2)", "T.cdist(x, x, True)", "T.broadcast_tensors(x, v)",
    "T.meshgrid([v, v], indexing='ij')", "T.add(x, x, out=1.5)", "T.div(x, 2, out=2.5)",
    "T.add(x, 1, out=T.empty(2, 3))", "x.true_divide(2)", "x.multiply(2)", "x.subtract(x, alpha=2)",
    "x.divide(x, rounding_mode='floor')", "x.clone().divide_(2)", "x.clone().subtract_(1, alpha=2)",
    "T.true_divide(x, 2)", "F.max_pool2d.__name__",
]


def _outcome(module, call: str) -> str:
    x, y, v = module.ones(2, 3) + module.arange(6.0).view(2, 3), module.ones(3, 2), module.ones(3)
    b, w = module.ones(4, 3, 8, 8), module.ones(2, 3, 3, 3)
    lg, tg = module.zeros(4, 5), module.tensor([0, 1, 2, 3])
    names = {"T": module, "F": module.nn.functional, "x": x, "y": y, "v": v, "b": b, "w": w, "lg": lg, "tg": tg}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = eval(call, names)
    except Exception as e:  # noqa: BLE001  (the error is what is compared)
        return f"{type(e).__name__}: {e}"
    if isinstance(result, (tuple, list)):
        return f"ok {[_shown(r) for r in result]}"
    return f"ok {_shown(result)}"


def _shown(value) -> str:
    """A result as plain numbers (a tensor's repr names its module's dtype only for non-default ones)."""
    return repr(value.tolist()) if hasattr(value, "tolist") else repr(value)


@pytest.mark.parametrize("call", CALLS)
def test_argument_error_matches_torch(call: str) -> None:
    torch = torch_or_skip()
    expected = _outcome(torch, call)
    assert not expected.startswith("ok")  # (the cases are errors)
    assert _outcome(minigrad, call) == expected


@pytest.mark.parametrize("call", ACCEPTED)
def test_accepted_calls_still_run(call: str) -> None:
    torch = torch_or_skip()
    expected = _outcome(torch, call)
    assert expected.startswith("ok")
    assert _outcome(minigrad, call) == expected
