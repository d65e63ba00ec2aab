"""Argument errors of torch.* functions, Tensor methods and nn.functional as students mistype them (session 13).

A failed call of any torch.* function is parsed again as PyTorch's parser would have parsed it, with PyTorch's
signatures (``_arg_errors.reparse``, the table ``_parser_signatures`` generated from PyTorch): a call its parser
refuses gets the parser's TypeError (``add(): argument 'other' (position 2) must be Tensor, not str``, "missing 1
required positional arguments", "invalid combination of arguments"); a call it accepts keeps minigrad's own error.
Each call below runs with minigrad and with PyTorch and must raise the same exception type with the same message.
"""
from __future__ import annotations

import warnings

import pytest
from parity import torch_or_skip

import minigrad

CALLS = [
    # wrong types and counts for the arithmetic functions (several overloads, some hidden)
    "T.add(x, 'a')", "T.add(x, [1, 2, 3])", "T.add(x, y=1)", "T.add(x, other=1, alpha='a')", "T.add(x, x, x)",
    "T.add([1], x)", "T.add()", "T.add(x)", "T.sub(x, 'a')", "T.sub(x, x, x)", "T.mul(x, input=x)",
    "T.div(x, 'a')", "T.div(x, x, rounding_mode=1)", "T.div(x, x, 'floor')", "T.floor_divide(x, 'a')",
    "T.bitwise_and(x)", "T.bitwise_or(i, 'a')", "T.addmm(x, x)", "T.addmm(x, x, v, 2)", "T.addcmul(x, x, x, 2)",
    "T.addcmul(x, x, x, value='a')", "T.addcdiv(x, x, x, 2)", "T.addcmul(x, x)", "T.any(x, 0.5)",
    "T.bucketize(x, [1, 2])", "T.searchsorted([1, 2], x)", "T.eq(x)", "T.fmod()", "T.clamp_min(x)", "T.lerp(x)",
    "T.sum()", "T.mean()", "T.var()", "T.where()", "T.pow(x)",
    # one overload: the missing arguments by PyTorch's names, too many positional arguments
    "T.acos()", "T.exp(x, x, x)", "T.dropout(x, 0.5)", "T.layer_norm(x)", "T.maximum(x)", "T.fmax()",
    "T.exp(x, out=[1])", "T.sigmoid(x, out=1)", "T.cumsum(x, 1, out=1)",
    "T.cat()", "T.as_strided(x)", "T.tril_indices()", "T.index_copy(x)",
    # torch.conv2d is nn.functional.conv2d
    "T.conv2d(b, 1)", "T.conv2d(b)", "T.conv2d(b, w, stride=1.5)", "T.conv2d(b, w, 1)", "T.conv2d(b, w, None, 'a')",
    "F.conv2d(b, 1)", "F.conv2d(b, w, None, 1, 1, 1, 1, 1)", "F.conv2d(b, w, groups=1.5)", "F.conv2d(b, w, bias=1)",
    # one overload, its parameters' types as PyTorch's errors show them (nn.functional's C functions too)
    "F.linear(x, y, 1)", "F.linear(x, y.t(), bias=1)", "F.linear(x, [1, 2])", "F.linear(x)",
    "T.dropout(x, 'a', True)", "F.softplus(x, 'a')",
    # the factories and windows
    "T.hann_window()", "T.hann_window(4.0)", "T.hann_window('a')", "T.hann_window(4, periodic=1)",
    "T.hamming_window(4.0)", "T.kaiser_window(4, 1)", "T.tril_indices()", "T.zeros()", "T.full()",
    # the hot methods: the error built where the operation fails (the method's form; the function words its own)
    "x.add('a')", "x.mul([1])", "x.sub(None)", "x.div('a')", "x.add_('a')", "x.mul_('a')", "x.div_('a')",
    "x.add('a', alpha=2)", "T.add(x, 'a', alpha=2)", "x.pow('a')", "x.pow_('a')", "x.pow([2])", "T.pow(x, 'a')",
    "T.mul(x, [1])", "T.rsub(x, 'a')", "T.multiply(x, 'a')", "x + 'a'", "'a' * x",
    # methods whose argument must be a tensor
    "x.view_as(1)", "x.reshape_as(1)", "x.expand_as(1)", "x.type_as(1)", "v.dot(1)", "T.dot(v, 1)", "x.equal(1)",
    "T.equal(x, 1)", "x.masked_select(1)", "T.masked_select(x, 1)", "x.is_same_size(1)", "T.is_same_size(x, 1)",
    # torch.tile takes a tuple (the method also ints one by one)
    "T.tile(x, 2)", "T.tile(x, 2, 3)", "T.tile(x)", "x.tile()", "T.tile(x, (2.0,))", "x.tile('a')",
    # METH_NOARGS methods: CPython names the defining class when the call is x.name(...), the tensor's class when
    # a bound method is called
    "x.detach(1)", "x.t(0, 1)", "x.item(1)", "x.abs(dim=1)", "x.numel(abs(1), 2)", "getattr(x, 'detach')(1)",
    "(lambda f: f(1))(x.detach)", "T.Tensor.detach(x, 1)", "x.exp(x.sum(0))", "[x.relu(k) for k in range(1)]",
    "x.sum().item(1)",
    # functions with tables of their own, parsed again with the arguments as the call gave them
    "T.clamp(x, 'a')", "T.clamp(x, 0, 1, 2)", "T.clamp([1.0], 0)", "T.clip(x, 'a')", "T.clamp_()",
    "T.clamp_(x, 'a')", "T.sum(x, dim=1.0)", "T.sum(x, 0, 1, 2)", "T.mean(x, dim=0.0)", "T.mean(x, 0, True, T.float32)",
    "T.fmod(x, 'a')", "T.remainder(x, 'a')", "T.where(x > 0, x)", "T.where(x > 0, x, 'a')",
    # keyword-only options of the casts; one_hot's class count
    "x.float(1)", "x.long(1, 2)", "x.double(memory_format=1)", "F.one_hot(i, 1.5)",
    # a float where an int goes (PyTorch's split hands it to split_with_sizes)
    "T.split(x, 1.5)", "x.split(1.5)", "T.diag(x, 0.5)", "x.diag(0.5)", "T.diag(x, diagonal='a')",
    # nn.functional functions written in Python in PyTorch: the error of the C function they end in
    "F.cross_entropy(lg, [0, 1])", "F.cross_entropy(lg, tg, weight=1)", "F.cross_entropy(lg, tg, label_smoothing='a')",
    "F.nll_loss(lg, [0])", "F.embedding(i, 1)", "F.dropout([1.0])", "F.dropout(x, 'a')", "F.leaky_relu(x, 'a')",
    "F.leaky_relu(x, negative_slope='a')", "F.elu(x, 'a')", "F.celu(x, 'a')", "F.layer_norm(x, (3,), eps='a')",
    "F.layer_norm(x, 3)", "F.batch_norm(b, 1, 1)", "F.kl_div(x, 1)", "F.glu(x, 1.5)", "F.max_pool2d(b, 1.5)",
    "F.max_pool2d(b, 'a')", "F.max_pool2d(b, 2, stride=1.5)",
]


def _outcome(module, call: str) -> str:
    x, y, v = module.ones(2, 3), module.ones(3, 2), module.ones(3)
    i = module.tensor([0, 1])
    b, w = module.ones(4, 3, 8, 8), module.ones(2, 3, 3, 3)
    lg, tg = module.zeros(4, 5), module.tensor([0, 1, 2, 3])
    names = {"T": module, "F": module.nn.functional, "x": x, "y": y, "v": v, "i": i, "b": b, "w": w, "lg": lg, "tg": tg}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = eval(call, names)
    except Exception as e:  # noqa: BLE001  (the error is what is compared)
        return f"{type(e).__name__}: {e}"
    return f"ok {result}"


@pytest.mark.parametrize("call", CALLS)
def test_argument_error_matches_torch(call: str) -> None:
    torch = torch_or_skip()
    expected = _outcome(torch, call)
    assert expected.startswith("TypeError")  # (the cases are the parser's errors)
    assert _outcome(minigrad, call) == expected


@pytest.mark.parametrize("call", ["T.add(1, x)", "T.mul(2.5, x)", "T.add(x, 1, alpha=2)", "T.clamp_min(x, 0.5)",
                                  "T.bucketize(x, T.tensor([0.5, 2.0]))", "T.any(x, 1)", "T.addmm(x, x, y)",
                                  "x.view(size=(6,)).shape", "x.reshape(shape=(6,)).shape", "x.view(3, 2).shape",
                                  "T.reshape(x, shape=(6,)).shape", "x.view(dtype=T.int32).dtype", "x.tile(2, 3).shape",
                                  "x.tile(2).shape", "T.tile(x, [2, 1]).shape", "T.hann_window(T.tensor(3))",
                                  "x.view_as(x).shape", "x.type_as(i).dtype", "F.linear(x, y.t()).shape",
                                  "F.linear(x, y.t(), T.ones(2)).shape", "T.abs(x, out=T.empty(2, 3)).shape",
                                  "T.as_strided(x, (2,), (1,), None).shape", "T.max_pool1d(T.ones(1, 4), 2).shape",
                                  "x.add(2.5)", "x.pow(2)", "x.mul(True)", "T.add(x, x, alpha=2)",
                                  # (conv2d's stride is int[2]: one int passes; a failure of another kind stays)
                                  "F.conv2d(b, w, stride=2).shape", "F.conv2d(b, w, padding=-1)",
                                  "F.conv2d(b, w, dilation=0)", "F.max_pool2d(b, 2).shape",
                                  "F.max_pool1d(T.ones(1, 4), 2, stride=None).shape", "F.cross_entropy(lg, tg)",
                                  "F.max_pool2d(T.ones(2), 2)", "F.cross_entropy(lg, tg.float())",
                                  "F.cross_entropy(lg, tg, reduction='x')",
                                  # (PyTorch's losses ask target.size() first)
                                  "T.exp(x, out=T.empty(2, 3)).shape", "T.exp(x, out=None).shape",
                                  "F.mse_loss(x, 1)", "F.l1_loss(x, 1)", "F.mse_loss([1.0], x)",
                                  "F.binary_cross_entropy(x, 1)", "F.binary_cross_entropy_with_logits(x, 1)"])
def test_accepted_calls_still_run(call: str) -> None:
    """Calls PyTorch's parser takes still run, or fail with minigrad's own error (compared with PyTorch's)."""
    torch = torch_or_skip()
    assert _outcome(minigrad, call) == _outcome(torch, call)
