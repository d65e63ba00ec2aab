"""Convolution, pooling and batch normalization against PyTorch.

Values and gradients (float64 tight, float32 to tolerance), grad_fn names and every ``_saved_*`` value,
double backward, forward AD, error messages, module reprs and state, and whole programs (LeNet from the
"Neural Networks" tutorial, a small CNN with batch norm in training and eval) run with both libraries.
The op sweep (tests/op_cases.py) checks the same ops' derivatives by central differences.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from parity import run_both, same_as_torch, to_numpy, torch_or_skip

import minigrad
import minigrad.nn as nn
import minigrad.nn.functional as F


def _arrays(*shapes, seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s).astype(dtype) for s in shapes]


def _both(arrays, grad=True):
    """The same arrays as minigrad and torch leaf tensors."""
    torch = torch_or_skip()
    mine = [minigrad.from_numpy(a.copy()).requires_grad_(grad) for a in arrays]
    theirs = [torch.from_numpy(a.copy()).requires_grad_(grad) for a in arrays]
    return mine, theirs


def _close(a, b, dtype):
    a, b = to_numpy(a), to_numpy(b)
    # float32: sums of many products round differently; the error scales with the largest value
    scale = max(1.0, float(np.abs(b).max(initial=0)))
    tol = dict(rtol=1e-10, atol=1e-12) if dtype == np.float64 else dict(rtol=1e-5, atol=3e-6 * scale)
    np.testing.assert_allclose(a, b, **tol)


def _saved(node) -> dict:
    """Every ``_saved_*`` value of a node, tensors as (dtype, values)."""
    out = {}
    for name in dir(node):
        if name.startswith("_saved_"):
            value = getattr(node, name)
            if hasattr(value, "shape"):
                value = (str(value.dtype).replace("torch.", ""), to_numpy(value).round(6).tolist())
            out[name] = value
    return out


def _edges(node) -> list:
    return [None if fn is None else type(fn).__name__ for fn, _ in node.next_functions]


def _check_graph(out, tout) -> None:
    assert type(out.grad_fn).__name__ == type(tout.grad_fn).__name__
    assert _edges(out.grad_fn) == _edges(tout.grad_fn)
    assert _saved(out.grad_fn) == _saved(tout.grad_fn)


def _run(fn, mine, theirs, dtype):
    """fn on both libraries; compare the output, the graph and the gradients of <out, v>."""
    out, tout = fn(F, *mine), fn(torch_or_skip().nn.functional, *theirs)
    _close(out, tout, dtype)
    _check_graph(out, tout)
    v = _arrays(tuple(out.shape), seed=7, dtype=dtype)[0]
    (out * minigrad.from_numpy(v)).sum().backward()
    (tout * torch_or_skip().from_numpy(v)).sum().backward()
    for a, b in zip(mine, theirs):
        if b.requires_grad:
            _close(a.grad, b.grad, dtype)
    return out, tout


# ---- convolution ---------------------------------------------------------------------------------

CONV_CASES = {
    "lenet-conv1": ((4, 3, 32, 32), (6, 3, 5, 5), True, dict()),
    "stride-pad": ((2, 3, 9, 8), (4, 3, 3, 3), True, dict(stride=2, padding=1)),
    "tuple-args": ((2, 2, 9, 7), (3, 2, 3, 2), True, dict(stride=(2, 1), padding=(1, 2), dilation=(1, 2))),
    "groups": ((2, 6, 7, 7), (4, 3, 3, 3), True, dict(groups=2, padding=1)),
    "depthwise": ((1, 4, 6, 6), (8, 1, 3, 3), False, dict(groups=4, dilation=2, padding=2)),
    "same-odd": ((2, 3, 7, 6), (5, 3, 3, 5), True, dict(padding="same")),
    "same-even": ((2, 3, 7, 6), (5, 3, 4, 2), True, dict(padding="same", dilation=(1, 3))),
    "valid": ((2, 3, 7, 6), (5, 3, 3, 3), False, dict(padding="valid", stride=[2])),
    "unbatched": ((3, 8, 8), (4, 3, 3, 3), True, dict(stride=2)),
    "1d": ((2, 3, 10), (4, 3, 3), True, dict(stride=2, padding=1, dilation=2)),
    "1d-same": ((2, 3, 10), (4, 3, 4), False, dict(padding="same")),
    "1d-unbatched": ((3, 10), (4, 3, 5), True, dict()),
}


@pytest.mark.filterwarnings("ignore:Using padding='same'")
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("case", CONV_CASES, ids=list(CONV_CASES))
def test_conv_matches_torch(case, dtype):
    x_shape, w_shape, bias, kwargs = CONV_CASES[case]
    conv = "conv1d" if len(w_shape) == 3 else "conv2d"
    arrays = _arrays(x_shape, w_shape, (w_shape[0],), dtype=dtype)
    mine, theirs = _both(arrays if bias else arrays[:2])
    out, tout = _run(lambda f, *t: getattr(f, conv)(*t, **kwargs), mine, theirs, dtype)
    node = out.grad_fn if len(x_shape) == len(w_shape) else out.grad_fn.next_functions[0][0]
    assert type(node).__name__ == "ConvolutionBackward0"
    assert node._saved_bias_sym_sizes_opt == ((w_shape[0],) if bias else (0,))


def test_conv_double_backward_matches_torch():
    """create_graph: the gradients' nodes (ConvolutionBackwardBackward0, saved values) and second derivatives."""
    torch = torch_or_skip()
    arrays = _arrays((2, 4, 6, 5), (6, 2, 3, 2), (6,), (2, 4, 6, 5), (6, 2, 3, 2), (6,), seed=3)
    results = []
    for T, (x, w, b) in ((minigrad, _both(arrays[:3])[0]), (torch, _both(arrays[:3])[1])):
        y = T.nn.functional.conv2d(x, w, b, stride=(2, 1), padding=1, groups=2)
        grads = T.autograd.grad((y * y.tanh()).sum(), (x, w, b), create_graph=True)
        names = [(type(g.grad_fn).__name__, _edges(g.grad_fn), _saved(g.grad_fn)) for g in grads]
        total = sum((g * T.from_numpy(u)).sum() for g, u in zip(grads, arrays[3:]))
        second = T.autograd.grad(total, (x, w, b))
        results.append((names, grads, second))
    (names, grads, second), (tnames, tgrads, tsecond) = results
    assert names == tnames
    assert names[0][0] == "ConvolutionBackwardBackward0"
    for a, b in zip(grads + second, tgrads + tsecond):
        _close(a, b, np.float64)


def test_conv_triple_backward_matches_torch():
    """The double-backward formulas are convolutions themselves: differentiate once more."""
    torch = torch_or_skip()
    arrays = _arrays((1, 2, 5, 5), (3, 2, 3, 3), seed=4)
    outs = []
    for T, (x, w) in ((minigrad, _both(arrays)[0]), (torch, _both(arrays)[1])):
        y = T.nn.functional.conv2d(x, w, padding=1)
        gx, = T.autograd.grad(y.pow(3).sum(), x, create_graph=True)
        gw, = T.autograd.grad(gx.pow(2).sum(), w, create_graph=True)
        outs.append(T.autograd.grad(gw.sum(), (x, w)))
    for a, b in zip(*outs):
        _close(a, b, np.float64)


# ---- pooling -------------------------------------------------------------------------------------

MAX_POOL_CASES = {
    "2x2": ((2, 3, 8, 8), dict(kernel_size=2)),
    "lenet": ((4, 6, 28, 28), dict(kernel_size=2, stride=2)),
    "pad-ceil": ((2, 3, 7, 7), dict(kernel_size=3, stride=2, padding=1, ceil_mode=True)),
    "dilation": ((1, 2, 9, 8), dict(kernel_size=(3, 2), stride=(2, 1), padding=(1, 0), dilation=(2, 3))),
    "overlap": ((2, 2, 6, 6), dict(kernel_size=3, stride=1)),
    "unbatched": ((3, 7, 6), dict(kernel_size=[2], stride=[2, 1], ceil_mode=True)),
}


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("case", MAX_POOL_CASES, ids=list(MAX_POOL_CASES))
def test_max_pool2d_matches_torch(case, dtype):
    shape, kwargs = MAX_POOL_CASES[case]
    mine, theirs = _both(_arrays(shape, dtype=dtype))
    out, tout = _run(lambda f, x: f.max_pool2d(x, **kwargs), mine, theirs, dtype)
    assert type(out.grad_fn).__name__ == "MaxPool2DWithIndicesBackward0"
    values, indices = F.max_pool2d(mine[0], return_indices=True, **kwargs)
    tvalues, tindices = torch_or_skip().nn.functional.max_pool2d(theirs[0], return_indices=True, **kwargs)
    assert indices.dtype == minigrad.int64
    assert indices.tolist() == tindices.tolist()


def test_max_pool2d_ties_nan_and_all_minus_inf_windows():
    """Ties go to the first maximum, a NaN wins (the last NaN of a window), an all -inf window reports its
    first element inside the input: PyTorch's scan."""
    torch = torch_or_skip()
    nan, inf = math.nan, math.inf
    data = [[[[1.0, 1.0, 2.0, 2.0], [nan, 0.0, 2.0, 5.0], [nan, 3.0, -inf, -inf], [nan, 1.0, -inf, -inf]]]]
    for kwargs in (dict(kernel_size=2), dict(kernel_size=3, stride=1, padding=1), dict(kernel_size=2, ceil_mode=True,
                                                                                        stride=3, padding=1)):
        got = F.max_pool2d(minigrad.tensor(data), return_indices=True, **kwargs)
        want = torch.nn.functional.max_pool2d(torch.tensor(data), return_indices=True, **kwargs)
        np.testing.assert_array_equal(got[0].numpy(), want[0].numpy())
        assert got[1].tolist() == want[1].tolist()
    ints = [[[[3, 1, 3], [0, 3, 2], [1, 1, 1]]]]
    got = F.max_pool2d(minigrad.tensor(ints), 2, 1, return_indices=True)
    want = torch.nn.functional.max_pool2d(torch.tensor(ints), 2, 1, return_indices=True)
    assert (got[0].tolist(), got[1].tolist(), got[0].dtype.name) == (want[0].tolist(), want[1].tolist(), "int64")


AVG_POOL_CASES = {
    "2x2": ((2, 3, 8, 8), dict(kernel_size=2)),
    "pad": ((2, 3, 7, 7), dict(kernel_size=3, stride=2, padding=1)),
    "no-pad-count": ((2, 3, 7, 7), dict(kernel_size=3, stride=2, padding=1, count_include_pad=False)),
    "ceil": ((1, 2, 7, 6), dict(kernel_size=(3, 2), stride=2, padding=1, ceil_mode=True)),
    "ceil-no-pad-count": ((1, 2, 7, 6), dict(kernel_size=3, stride=2, padding=1, ceil_mode=True,
                                             count_include_pad=False)),
    "divisor": ((2, 2, 6, 5), dict(kernel_size=(2, 3), stride=1, divisor_override=4)),
    "unbatched": ((3, 7, 6), dict(kernel_size=[3], stride=[2])),
}


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("case", AVG_POOL_CASES, ids=list(AVG_POOL_CASES))
def test_avg_pool2d_matches_torch(case, dtype):
    shape, kwargs = AVG_POOL_CASES[case]
    mine, theirs = _both(_arrays(shape, dtype=dtype))
    out, _ = _run(lambda f, x: f.avg_pool2d(x, **kwargs), mine, theirs, dtype)
    assert type(out.grad_fn).__name__ == "AvgPool2DBackward0"


def test_avg_pool2d_of_integers_truncates_as_torch():
    torch = torch_or_skip()
    data = [[[[-7, 1, 2, 9], [3, -5, 6, 4], [5, 9, 10, 7], [4, 7, -8, 5]]]]
    got = F.avg_pool2d(minigrad.tensor(data), 3, 1, 1)
    want = torch.nn.functional.avg_pool2d(torch.tensor(data), 3, 1, 1)
    assert (got.tolist(), got.dtype.name) == (want.tolist(), "int64")


ADAPTIVE_CASES = {
    "divisible": ((2, 3, 8, 6), (4, 3)),
    "uneven": ((2, 3, 7, 5), (3, 2)),
    "larger": ((1, 2, 3, 5), (7, 2)),
    "none": ((2, 2, 5, 7), (None, 3)),
    "int": ((2, 2, 7, 7), 5),
    "unbatched": ((3, 5, 6), (2, 4)),
    "one": ((2, 3, 5, 4), 1),
}


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("case", ADAPTIVE_CASES, ids=list(ADAPTIVE_CASES))
def test_adaptive_avg_pool2d_matches_torch(case, dtype):
    shape, size = ADAPTIVE_CASES[case]
    mine, theirs = _both(_arrays(shape, dtype=dtype))
    out, _ = _run(lambda f, x: f.adaptive_avg_pool2d(x, size), mine, theirs, dtype)
    # output size 1: PyTorch takes the mean over H and W (MeanBackward1)
    assert type(out.grad_fn).__name__ == ("MeanBackward1" if size == 1 else "AdaptiveAvgPool2DBackward0")


POOL_1D_CASES = {
    "max": lambda f, x: f.max_pool1d(x, 3, 2, 1, 2, ceil_mode=True),
    "max-indices": lambda f, x: f.max_pool1d(x, 2, return_indices=True)[0],
    "max-unbatched": lambda f, x: f.max_pool1d(x[0], [3], [1]),
    "avg": lambda f, x: f.avg_pool1d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False),
    "avg-default": lambda f, x: f.avg_pool1d(x, 2),
    "adaptive": lambda f, x: f.adaptive_avg_pool1d(x, 3),
    "adaptive-one": lambda f, x: f.adaptive_avg_pool1d(x, [1]),
}


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("case", POOL_1D_CASES, ids=list(POOL_1D_CASES))
def test_pool1d_is_pool2d_of_height_one_as_torch(case, dtype):
    """PyTorch pools 1-d inputs as unsqueeze(-2), the 2-d pooling, squeeze(-2): the same graph here."""
    mine, theirs = _both(_arrays((2, 3, 9), dtype=dtype))
    chains = []
    for node in (POOL_1D_CASES[case](F, *mine).grad_fn,
                 POOL_1D_CASES[case](torch_or_skip().nn.functional, *theirs).grad_fn):
        chains.append([])
        while node is not None:
            chains[-1].append((type(node).__name__, _saved(node)))
            node = node.next_functions[0][0] if node.next_functions else None
    assert chains[0] == chains[1]
    names = [name for name, _ in chains[0]]
    assert names[0] == "SqueezeBackward1" and "UnsqueezeBackward0" in names
    _run(POOL_1D_CASES[case], mine, theirs, dtype)


def test_empty_batches_and_uncovered_rows_match_torch():
    """Zero-sized batches flow through; input rows no window reaches get a zero gradient."""
    same_as_torch("""
import torch.nn.functional as F
w = torch.ones(2, 3, 3, 3, dtype=torch.float64, requires_grad=True)
for f in (lambda x: F.conv2d(x, w, stride=2), lambda x: F.max_pool2d(x, 2), lambda x: F.avg_pool2d(x, 3, 2),
          lambda x: F.adaptive_avg_pool2d(x, 3), lambda x: F.batch_norm(x, None, None, training=True)):
    for n in (0, 2):
        x = torch.linspace(-1, 1, n * 3 * 8 * 8, dtype=torch.float64).reshape(n, 3, 8, 8).requires_grad_()
        y = f(x)
        y.pow(2).sum().backward() if n else y.sum().backward()
        print(tuple(y.shape), type(y.grad_fn).__name__, round(x.grad[..., 7, :].abs().sum().item(), 8))
""", prelude="import torch\n")


POOL_DOUBLE_BACKWARD = {
    "max": lambda f, x: f.max_pool2d(x, 3, 2, 1, ceil_mode=True),
    "avg": lambda f, x: f.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False),
    "adaptive": lambda f, x: f.adaptive_avg_pool2d(x, (3, 2)),
}


@pytest.mark.parametrize("case", POOL_DOUBLE_BACKWARD, ids=list(POOL_DOUBLE_BACKWARD))
def test_pool_double_backward_matches_torch(case):
    torch = torch_or_skip()
    fn = POOL_DOUBLE_BACKWARD[case]
    x_array, u = _arrays((2, 2, 7, 6), (2, 2, 7, 6), seed=5)
    results = []
    for T, x in ((minigrad, _both([x_array])[0][0]), (torch, _both([x_array])[1][0])):
        y = fn(T.nn.functional, x)
        g, = T.autograd.grad(y.pow(2).sum(), x, create_graph=True)
        graph = (type(g.grad_fn).__name__, _edges(g.grad_fn), _saved(g.grad_fn))
        second, = T.autograd.grad((g * T.from_numpy(u)).sum(), x)
        results.append((graph, g, second))
    assert results[0][0] == results[1][0]
    assert results[0][0][0].endswith("BackwardBackward0")
    for a, b in zip(results[0][1:], results[1][1:]):
        _close(a, b, np.float64)


def test_forward_ad_matches_torch():
    program = """
import math
import torch
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD
R = lambda *s: torch.sin(torch.arange(1, 1 + math.prod(s), dtype=torch.float64) * 0.37).reshape(s)
x, w, b = R(2, 3, 6, 6), R(4, 3, 3, 3), R(4)
with fwAD.dual_level():
    dual = fwAD.make_dual(x, x.cos())
    for y in (F.conv2d(dual, fwAD.make_dual(w, w.cos()), fwAD.make_dual(b, b.cos()), padding=1),
              F.conv2d(x, fwAD.make_dual(w, w.cos()), groups=1, stride=2),
              F.max_pool2d(dual, 2), F.avg_pool2d(dual, 3, 2, 1), F.adaptive_avg_pool2d(dual, (2, 4)),
              F.batch_norm(dual, None, None, fwAD.make_dual(b[:3], b[:3].cos()), b[1:], training=True),
              F.batch_norm(dual, b[:3], b[1:].abs(), b[1:], fwAD.make_dual(b[:3], b[:3].sin()), training=False)):
        print(type(y.grad_fn).__name__, fwAD.unpack_dual(y).tangent.flatten()[:5].numpy().round(10).tolist())
"""
    mine, theirs = run_both(program)
    assert mine == theirs


# ---- batch normalization -------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("affine", [True, False], ids=["affine", "plain"])
@pytest.mark.parametrize("training", [True, False], ids=["train", "eval"])
@pytest.mark.parametrize("shape", [(5, 3), (4, 3, 6), (2, 3, 4, 5)], ids=["2d", "3d", "4d"])
def test_batch_norm_functional_matches_torch(shape, training, affine, dtype):
    torch = torch_or_skip()
    x, w, b, mean = _arrays(shape, (3,), (3,), (3,), seed=11, dtype=dtype)
    var = (np.abs(mean) + 0.5).astype(dtype)
    stats = [(minigrad.from_numpy(mean.copy()), minigrad.from_numpy(var.copy())),
             (torch.from_numpy(mean.copy()), torch.from_numpy(var.copy()))]
    mine, theirs = _both([x, w, b] if affine else [x])

    def run(f, x, *wb):
        rm, rv = stats[0] if f is F else stats[1]
        return f.batch_norm(x, rm, rv, *wb, training=training, momentum=0.3, eps=1e-3)

    _run(run, mine, theirs, dtype)
    for a, b in zip(stats[0], stats[1]):   # the running statistics (updated in training)
        _close(a, b, dtype)
    assert stats[0][0]._version == 0   # PyTorch's kernel writes them without a version bump


def test_batch_norm_node_shows_none_for_missing_tensors():
    torch = torch_or_skip()
    mine, theirs = _both(_arrays((4, 3, 2)))
    out = F.batch_norm(mine[0], None, None, training=True)
    tout = torch.nn.functional.batch_norm(theirs[0], None, None, training=True)
    _check_graph(out, tout)
    assert out.grad_fn._saved_weight is None and out.grad_fn._saved_running_mean is None
    weight = nn.Parameter(minigrad.ones(3, dtype=minigrad.float64))
    assert F.batch_norm(mine[0], None, None, weight, training=True).grad_fn._saved_weight is weight


BN_PROGRAM = """
import torch
import torch.nn as nn
torch.set_printoptions(precision=4)
torch.set_default_dtype(torch.float64)   # the printed numbers agree to every digit shown
try:
    for bn, shape in ((nn.BatchNorm1d(3), (6, 3)), (nn.BatchNorm1d(3, momentum=None), (4, 3, 5)),
                      (nn.BatchNorm2d(3, affine=False), (2, 3, 4, 4)), (nn.BatchNorm2d(3, bias=False), (2, 3, 4, 4)),
                      (nn.BatchNorm2d(3, track_running_stats=False), (2, 3, 4, 4)),
                      (nn.BatchNorm3d(2), (2, 2, 3, 2, 2)), (nn.BatchNorm1d(3).double(), (5, 3))):
        print(bn, type(bn))
        print([name for name, _ in bn.named_parameters()], [name for name, _ in bn.named_buffers()],
              list(bn.state_dict()))
        n = 1
        for s in shape:
            n *= s
        for step in range(3):
            x = torch.sin(torch.arange(n) * (0.7 + step))
            x = x.reshape(shape) * (step + 1) + step
            y = bn(x)
            print(step, type(y.grad_fn).__name__, y.flatten()[:4], bn.running_mean, bn.running_var,
                  bn.num_batches_tracked)
        bn.eval()
        y = bn(x)
        print("eval", y.flatten()[:4], y.requires_grad, bn.num_batches_tracked)
        y.sum().backward() if y.requires_grad else None
        print([None if p is None else (p.grad.numpy().round(6) + 0).tolist() for p in (bn.weight, bn.bias)])
        bn.reset_running_stats()
        print(bn.running_mean, bn.num_batches_tracked)
finally:
    torch.set_default_dtype(torch.float32)
"""


def test_batch_norm_modules_match_torch():
    """Running statistics over several steps (momentum, cumulative average, unbiased variance), eval mode,
    parameters, buffers, state_dict keys and reprs."""
    mine, theirs = run_both(BN_PROGRAM)
    assert mine == theirs
    assert "num_batches_tracked" in mine


# ---- errors, reprs, modules -------------------------------------------------------------------------

ERRORS = """
import torch.nn.functional as F
import torch.nn as nn
x = torch.randn(1, 3, 8, 8)
w = torch.randn(6, 3, 3, 3)
E(lambda: F.conv2d(torch.randn(1, 1, 32, 32), torch.randn(6, 3, 5, 5)))
E(lambda: nn.Conv2d(3, 6, 5)(torch.randn(1, 1, 32, 32)))
E(lambda: F.conv2d(torch.randn(1, 6, 32, 32), torch.randn(6, 3, 5, 5), groups=3))
E(lambda: F.conv2d(torch.randn(1, 6, 32, 32), torch.randn(6, 3, 5, 5), groups=4))
E(lambda: F.conv2d(torch.randn(1, 6, 32, 32), torch.randn(6, 3, 5, 5), groups=7))
E(lambda: F.conv2d(torch.randn(32, 32), w))
E(lambda: F.conv2d(torch.randn(1, 1, 1, 32, 32), w))
E(lambda: F.conv1d(torch.randn(3, 8, 8), w))
E(lambda: F.conv2d(torch.randn(1, 3, 2, 2), w))
E(lambda: F.conv2d(torch.randn(1, 3, 2, 2), w, padding=1, dilation=2))
E(lambda: F.conv2d(x, w, stride=2, padding='same'))
E(lambda: F.conv2d(x, w, padding='foo'))
E(lambda: F.conv2d(x, w, stride=0))
E(lambda: F.conv2d(x, w, padding=-1))
E(lambda: F.conv2d(x, w, torch.randn(5)))
E(lambda: F.conv2d(x, w, torch.randn(6, 1)))
E(lambda: F.conv2d(x, w, dilation=0))
E(lambda: F.conv2d(torch.randn(2, 3, 8, 8), w, dilation=0))
E(lambda: F.conv1d(torch.randn(1, 3, 8), w[..., 0], dilation=0))
E(lambda: F.conv2d(x, w, dilation=-1))
E(lambda: F.conv2d(x, w, stride=(1, 1, 1)))
E(lambda: F.conv2d(x, w, padding=(1, 1, 1)))
E(lambda: F.conv2d(x, w.double()))
E(lambda: F.conv2d(torch.randn(2, 3, 8, 8), w.double()))
E(lambda: F.conv2d(torch.randn(1, 3, 8, 8), torch.randn(6, 3, 5, 5).double()))
E(lambda: F.conv2d(torch.randn(1, 6, 8, 8), w.double(), groups=2))
E(lambda: F.conv2d(x, w, torch.randn(6).double()))
E(lambda: F.conv2d(x.double(), w.double(), torch.randn(6)))
E(lambda: F.conv2d(x, torch.randn(6, 3, 3)))
E(lambda: F.conv2d(x, w, groups=0))
E(lambda: F.conv2d(x, w, groups=0, padding='same'))
E(lambda: F.conv2d(x, torch.randn(6, 3, 3), padding='same'))
E(lambda: F.conv2d(torch.randn(1, 3, 8, 8), torch.randn(0, 3, 3, 3)))
E(lambda: nn.Conv2d(3, 6, 5, groups=2))
E(lambda: nn.Conv2d(4, 6, 5, groups=4))
E(lambda: nn.Conv2d(4, 6, 5, groups=0))
E(lambda: nn.Conv2d(4, 6, 5, padding='same', stride=2))
y = torch.randn(1, 3, 7, 7)
E(lambda: F.max_pool2d(y, 3, padding=2))
E(lambda: F.max_pool2d(y, 8))
E(lambda: F.max_pool2d(torch.randn(7, 7), 2))
E(lambda: F.max_pool2d(torch.randn(1, 1, 1, 7, 7), 2))
E(lambda: F.max_pool2d(y, 2, stride=0))
E(lambda: F.max_pool2d(y, 0))
E(lambda: F.max_pool2d(y, (2, 2, 2)))
E(lambda: F.max_pool2d(y, 2, stride=(1, 1, 1)))
E(lambda: F.max_pool2d(y, 2, padding=(1, 1, 1)))
E(lambda: F.max_pool2d(y, 2, dilation=(1, 1, 1)))
E(lambda: F.max_pool2d(y, 2, dilation=0))
E(lambda: F.max_pool2d(y, 2, padding=-1))
E(lambda: F.max_pool2d(y, -2, stride=1))
E(lambda: F.max_pool2d(torch.randn(1, 0, 7, 7), 2))
E(lambda: F.max_pool2d(y.requires_grad_(), 3, padding=2))
E(lambda: nn.MaxPool2d(2)(torch.randn(7, 7)))
E(lambda: F.avg_pool2d(y, 3, padding=2))
E(lambda: F.avg_pool2d(y, 8))
E(lambda: F.avg_pool2d(torch.randn(7, 7), 2))
E(lambda: F.avg_pool2d(torch.randn(7), 2))
E(lambda: F.avg_pool2d(torch.randn(1, 1, 1, 7, 7), 2))
E(lambda: F.avg_pool2d(y, 2, divisor_override=0))
E(lambda: F.avg_pool2d(y, 2, stride=0))
E(lambda: F.avg_pool2d(y, (2, 2, 2)))
E(lambda: F.adaptive_avg_pool2d(torch.randn(7, 7), 2))
E(lambda: print(F.adaptive_avg_pool2d(torch.ones(7, 7), 1)))
E(lambda: F.adaptive_avg_pool2d(y, (2, 2, 2)))
E(lambda: F.adaptive_avg_pool2d(y, (None, 2, 2)))
E(lambda: F.adaptive_avg_pool2d(y, (-1, 2)))
E(lambda: F.adaptive_avg_pool2d(torch.randn(1, 3, 0, 7), 2))
E(lambda: F.adaptive_avg_pool2d(torch.arange(16).view(1, 4, 4), 3))
x1 = torch.randn(2, 3, 8)
E(lambda: F.max_pool1d(torch.randn(8), 2))
E(lambda: F.max_pool1d(torch.randn(1, 2, 3, 8), 2))
E(lambda: F.max_pool1d(torch.randn(2, 0, 8), 2))
E(lambda: F.max_pool1d(x1, 9))
E(lambda: F.max_pool1d(x1, 3, padding=2))
E(lambda: F.max_pool1d(x1, 0))
E(lambda: F.max_pool1d(x1, 2, stride=0))
E(lambda: F.max_pool1d(x1, (2, 2)))
E(lambda: F.max_pool1d(x1, 2, stride=(1, 1)))
E(lambda: F.max_pool1d(x1, 2, dilation=0))
E(lambda: F.max_pool1d(x1, 2, padding=-1))
E(lambda: F.max_pool1d(x1.requires_grad_(), 9))
E(lambda: F.max_pool1d(torch.randn(8), 2, return_indices=True))
E(lambda: F.max_pool1d(x1, (2, 2), return_indices=True))
E(lambda: F.max_pool1d(x1, 9, return_indices=True))
E(lambda: F.avg_pool1d(torch.randn(8), 2))
E(lambda: F.avg_pool1d(torch.randn(1, 2, 3, 8), 2))
E(lambda: F.avg_pool1d(x1, 9))
E(lambda: F.avg_pool1d(x1, 3, padding=2))
E(lambda: F.avg_pool1d(x1, (2, 2)))
E(lambda: F.avg_pool1d(x1, 2, stride=(1, 1)))
E(lambda: F.adaptive_avg_pool1d(torch.randn(8), 2))
E(lambda: F.adaptive_avg_pool1d(x1, (2, 2)))
E(lambda: F.adaptive_avg_pool1d(torch.randn(1, 2, 3, 8), 2))
E(lambda: F.batch_norm(torch.randn(4, 3), None, None, training=False))
E(lambda: F.batch_norm(torch.randn(4, 3), torch.zeros(3), None, training=False))
E(lambda: F.batch_norm(torch.randn(1, 3), None, None, training=True))
E(lambda: F.batch_norm(torch.randn(1, 3, 1, 1), None, None, training=True))
E(lambda: F.batch_norm(torch.randn(4, 3), torch.zeros(4), torch.ones(4), training=True))
E(lambda: F.batch_norm(torch.randn(4, 3), torch.zeros(3), torch.ones(4), training=True))
E(lambda: F.batch_norm(torch.randn(4, 3), torch.zeros(3), torch.ones(3), weight=torch.ones(4), training=True))
E(lambda: F.batch_norm(torch.randn(4, 3), torch.zeros(3), torch.ones(3), bias=torch.ones(4), training=True))
E(lambda: F.batch_norm(torch.randn(4, 3), None, None, training=True, eps=0.0))
E(lambda: F.batch_norm(torch.randn(4, 3), torch.zeros(3), torch.ones(3), eps=-1.0))
E(lambda: F.batch_norm(torch.randn(4), None, None, training=True))
E(lambda: nn.BatchNorm1d(3)(torch.randn(4, 3, 2, 2)))
E(lambda: nn.BatchNorm2d(3)(torch.randn(4, 3, 2)))
E(lambda: nn.BatchNorm3d(3)(torch.randn(4, 3, 2)))
E(lambda: nn.BatchNorm1d(3)(torch.randn(1, 3)))
E(lambda: nn.BatchNorm1d(3)(torch.randn(4, 5)))
E(lambda: print(nn.BatchNorm1d(3).eval()(torch.ones(1, 3))))
E(lambda: nn.BatchNorm1d(3)(torch.randn(4, 3).double()))
E(lambda: F.dropout2d(torch.randn(2, 3, 4, 4), 1.5))
E(lambda: nn.Dropout2d(-0.1))
"""


@pytest.mark.filterwarnings("ignore:Using padding='same'")
def test_errors_match_torch():
    same_as_torch(ERRORS)


def test_set_valued_messages():
    # PyTorch prints these choices as a Python set, whose order is the hash order: compare the words only.
    with pytest.raises(ValueError, match=r"padding_mode must be one of \{.*'circular'.*\}, but got padding_mode='x'"):
        nn.Conv2d(3, 6, 5, padding_mode="x")
    with pytest.raises(ValueError, match=r"Invalid padding string 'bad', should be one of \{.*'valid'.*\}"):
        nn.Conv2d(3, 6, 5, padding="bad")


MODULES = """
import torch.nn as nn
for m in (nn.Conv2d(3, 6, 5), nn.Conv2d(3, 6, (5, 3), stride=2, padding=1, dilation=2, groups=3, bias=False),
          nn.Conv2d(3, 6, 5, padding=(0, 0)), nn.Conv2d(3, 6, 5, padding='valid'), nn.Conv2d(4, 8, 3, padding='same'),
          nn.Conv2d(3, 6, 5, padding_mode='circular'), nn.Conv1d(3, 6, 5, padding='same'), nn.Conv1d(3, 6, 5, stride=2),
          nn.MaxPool2d(2), nn.MaxPool2d(2, 2),
          nn.MaxPool2d((2, 3), stride=1, padding=1, dilation=2, return_indices=True, ceil_mode=True), nn.AvgPool2d(2),
          nn.AvgPool2d(3, 2, 1, True, False, 4), nn.AdaptiveAvgPool2d((5, 7)),
          nn.AdaptiveAvgPool2d(1), nn.AdaptiveAvgPool2d((None, 7)), nn.BatchNorm2d(6), nn.MaxPool1d(2),
          nn.MaxPool1d(3, 2, 1, 2, True, True), nn.AvgPool1d(2), nn.AvgPool1d(3, 2, 1, True, False),
          nn.AdaptiveAvgPool1d(5),
          nn.BatchNorm1d(3, eps=1e-3, momentum=None, affine=False, track_running_stats=False), nn.Dropout2d(0.3),
          nn.Flatten()):
    print(m, type(m))
    print({k: v for k, v in vars(m).items() if not k.startswith('_') or k == '_reversed_padding_repeated_twice'})
    print([(name, tuple(p.shape)) for name, p in m.named_parameters()])
print(nn.Sequential(nn.Conv2d(1, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten()))
"""


def test_module_reprs_and_attributes_match_torch():
    same_as_torch(MODULES, prelude="import torch\n")


@pytest.mark.parametrize("make", [lambda: nn.Conv2d(3, 6, 5), lambda: nn.Conv2d(8, 16, 3, groups=4),
                                  lambda: nn.Conv1d(4, 12, 7)], ids=["conv2d", "groups", "conv1d"])
def test_conv_init_is_kaiming_uniform_a_sqrt5(make):
    """weight ~ U(±1/√fan_in) (kaiming_uniform_ with a=√5), bias ~ U(±1/√fan_in), fan_in = C_in/groups·Πkernel."""
    minigrad.manual_seed(0)
    m = make()
    fan_in = m.weight.shape[1] * math.prod(m.weight.shape[2:])
    bound = 1 / math.sqrt(fan_in)
    w, b = m.weight.detach().numpy(), m.bias.detach().numpy()
    assert m.weight.requires_grad and isinstance(m.weight, nn.Parameter)
    assert np.abs(w).max() <= bound and np.abs(b).max() <= bound
    assert np.abs(w).max() > 0.9 * bound and abs(w.std() - bound / math.sqrt(3)) < 0.15 * bound


def test_dropout2d_zeroes_whole_channels():
    minigrad.manual_seed(0)
    x = minigrad.ones(8, 16, 3, 3, requires_grad=True)
    y = F.dropout2d(x, 0.25)
    planes = y.detach().numpy().reshape(8, 16, 9)
    assert set(np.unique(planes)) <= {0.0, np.float32(1 / 0.75)}
    assert (planes.min(axis=-1) == planes.max(axis=-1)).all()   # one decision per (sample, channel)
    assert 0 < (planes[..., 0] == 0).sum() < 8 * 16
    assert type(y.grad_fn).__name__ == "MulBackward0"
    assert F.dropout2d(x, 0.5, training=False) is x
    layer = nn.Dropout2d(0.5).eval()
    assert layer(x) is x


def test_dropout2d_warnings_match_torch():
    program = """
import warnings
import torch.nn.functional as F
for shape in ((2, 3, 4), (2, 3), (2, 3, 4, 4)):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        y = F.dropout2d(torch.ones(shape), 0.0)
    print(shape, tuple(y.shape), [str(w.message) for w in caught])
"""
    same_as_torch(program, prelude="import torch\n")


# ---- programs ------------------------------------------------------------------------------------

LENET = """
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, input):
        c1 = F.relu(self.conv1(input))
        s2 = F.max_pool2d(c1, (2, 2))
        c3 = F.relu(self.conv2(s2))
        s4 = F.max_pool2d(c3, 2)
        s4 = torch.flatten(s4, 1)
        f5 = F.relu(self.fc1(s4))
        f6 = F.relu(self.fc2(f5))
        return self.fc3(f6)


net = Net().double()   # float64: the printed numbers agree to every digit shown (float32 is checked above)
print(net)
params = list(net.parameters())
print(len(params), [tuple(p.size()) for p in params])
with torch.no_grad():   # fixed weights: the same numbers in both libraries
    for i, p in enumerate(params):
        n = p.numel()
        p.copy_((torch.sin(torch.arange(n, dtype=torch.float64) * (0.37 + i)) * 0.3).reshape(p.shape))
input = torch.cos(torch.arange(32 * 32, dtype=torch.float64) * 0.05).reshape(1, 1, 32, 32)
out = net(input)
print(tuple(out.shape), type(out.grad_fn).__name__, out.detach().numpy().round(4).tolist())
target = torch.arange(10, dtype=torch.float64).view(1, -1) / 10
criterion = nn.MSELoss()
loss = criterion(out, target)
print(f"{loss.item():.5f}")
fn, chain = loss.grad_fn, []
while fn is not None and len(chain) < 14:
    chain.append(type(fn).__name__)
    fn = next((f for f, _ in fn.next_functions if f is not None and type(f).__name__ != "AccumulateGrad"), None)
print(chain)
nodes, conv = [out.grad_fn], None
while conv is None:   # the first convolution node met walking back from the output
    node = nodes.pop()
    conv = node if type(node).__name__ == "ConvolutionBackward0" else None
    nodes += [f for f, _ in node.next_functions if f is not None]
print({k: getattr(conv, k) for k in dir(conv) if k.startswith('_saved_') and k[7:] not in ('input', 'weight')})
net.zero_grad()
print('conv1.bias.grad before backward', net.conv1.bias.grad)
loss.backward()
print('conv1.bias.grad after backward', net.conv1.bias.grad.numpy().round(5).tolist())
print(net.conv2.weight.grad.shape, f"{net.conv2.weight.grad.abs().sum().item():.4f}")
optimizer = torch.optim.SGD(net.parameters(), lr=0.001)
for step in range(3):
    optimizer.zero_grad()
    loss = criterion(net(input), target)
    loss.backward()
    optimizer.step()
    print(step, f"{loss.item():.5f}")
"""


def test_lenet_tutorial_program_matches_torch():
    """The "Neural Networks" tutorial's LeNet: shapes, graph, saved values, loss, gradients, SGD steps."""
    mine, theirs = run_both(LENET)
    assert mine == theirs
    assert "ConvolutionBackward0" in mine and "MaxPool2DWithIndicesBackward0" in mine


CNN = """
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(8, 16, 3, padding='same', groups=2), nn.BatchNorm2d(16), nn.ReLU(), nn.AvgPool2d(2),
    nn.Dropout2d(0.25), nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(), nn.Linear(16, 4)).double()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_((torch.cos(torch.arange(p.numel(), dtype=torch.float64) * (0.9 + i)) * 0.4).reshape(p.shape))
x = torch.sin(torch.arange(6 * 3 * 12 * 12, dtype=torch.float64) * 0.013).reshape(6, 3, 12, 12)
y = torch.tensor([0, 1, 2, 3, 0, 1])
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
model.eval()   # dropout off (its masks come from the library's own random numbers)
print(f"{F.cross_entropy(model(x), y).item():.4f}")
for m in model:
    if isinstance(m, nn.Dropout2d):
        m.p = 0.0
model.train()
for step in range(4):
    optimizer.zero_grad()
    out = model(x)
    loss = F.cross_entropy(out, y)
    loss.backward()
    optimizer.step()
    print(step, f"{loss.item():.4f}", model[1].running_mean[:3].numpy().round(4).tolist(),
          model[1].num_batches_tracked.item(), f"{model[0].weight.grad.abs().sum().item():.4f}")
model.eval()
with torch.no_grad():
    print(model(x).argmax(1).tolist(), f"{model(x).abs().sum().item():.3f}")
print(sorted(model.state_dict())[:8])
"""


def test_cnn_with_batch_norm_training_matches_torch():
    mine, theirs = run_both(CNN)
    assert mine == theirs


def test_lenet_step_gives_every_parameter_a_gradient():
    """A LeNet forward + backward on 4 images of 3×32×32 ("Training a classifier"); speed is for bench/, not tests."""
    minigrad.manual_seed(0)
    net = nn.Sequential(nn.Conv2d(3, 6, 5), nn.ReLU(), nn.MaxPool2d(2, 2), nn.Conv2d(6, 16, 5), nn.ReLU(),
                        nn.MaxPool2d(2, 2), nn.Flatten(), nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84),
                        nn.ReLU(), nn.Linear(84, 10))
    x, target = minigrad.randn(4, 3, 32, 32), minigrad.tensor([1, 2, 3, 4])
    net.zero_grad()
    F.cross_entropy(net(x), target).backward()
    for name, p in net.named_parameters():
        assert p.grad is not None and p.grad.shape == p.shape, name
        assert bool(p.grad.abs().sum() > 0), name
    assert net[0].weight.grad.shape == (6, 3, 5, 5)
