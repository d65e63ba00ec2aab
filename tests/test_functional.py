"""minigrad.nn.functional against PyTorch: values, gradients, grad_fn names, stability and errors."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad
import minigrad.nn.functional as F
from tests.parity import assert_close, torch_or_skip

RNG = np.random.default_rng(0)
X = RNG.standard_normal((4, 5)).astype(np.float32)
PROBS = RNG.random((4, 5)).astype(np.float32)
PROBS /= PROBS.sum(1, keepdims=True)
TARGET = np.array([0, 2, 1, 4])
W = RNG.standard_normal((3, 5)).astype(np.float32)
B = RNG.standard_normal(3).astype(np.float32)
SIG = (1 / (1 + np.exp(-X))).astype(np.float32)
CLASS_W = np.arange(1, 6, dtype=np.float32)


def check(fn, *arrays, consts=(), name: str | None = None, rtol: float = 1e-5, atol: float = 1e-6):
    """Run ``fn(lib, *leaves, *consts)`` with minigrad and torch; compare output, grads and grad_fn name.

    ``arrays`` become leaves that require grad, ``consts`` (class weights ...) plain tensors.
    """
    torch = torch_or_skip()
    outs = []
    for lib in (minigrad, torch):
        xs = [lib.tensor(a, requires_grad=True) for a in arrays]
        y = fn(lib, *xs, *(lib.tensor(c) for c in consts))
        weights = lib.tensor(np.linspace(0.5, 1.5, int(np.prod(y.shape)), dtype=np.float32).reshape(y.shape))
        (y * weights).sum().backward()
        outs.append((y, [x.grad for x in xs if x.requires_grad]))
    (ym, gm), (yt, gt) = outs
    assert ym.grad_fn.name() == yt.grad_fn.name()
    if name is not None:
        assert ym.grad_fn.name() == name
    assert_close(ym, yt, rtol, atol)
    for a, b in zip(gm, gt):
        assert_close(a, b, rtol, atol)
    return ym


def fn_of(lib):
    return lib.nn.functional


# ---- activations ------------------------------------------------------------------------------

@pytest.mark.parametrize("name, grad_fn", [
    ("relu", "ReluBackward0"), ("silu", "SiluBackward0"), ("sigmoid", "SigmoidBackward0"),
    ("tanh", "TanhBackward0"), ("gelu", "GeluBackward0"),
])
def test_activation_parity(name, grad_fn):
    check(lambda lib, x: getattr(fn_of(lib), name)(x), X, name=grad_fn)


def test_gelu_tanh_and_leaky_relu():
    check(lambda lib, x: fn_of(lib).gelu(x, approximate="tanh"), X, name="GeluBackward0")
    y = check(lambda lib, x: fn_of(lib).leaky_relu(x, 0.2), X, name="LeakyReluBackward0")
    assert y.grad_fn._saved_negative_slope == 0.2


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu_double_backward(approximate):
    torch = torch_or_skip()
    results = []
    for lib in (minigrad, torch):
        x = lib.tensor(X, requires_grad=True)
        (g,) = lib.autograd.grad(fn_of(lib).gelu(x, approximate=approximate).sum(), x, create_graph=True)
        g.sum().backward()
        results.append((g, x.grad))
    assert_close(results[0][0], results[1][0])
    assert_close(results[0][1], results[1][1], atol=1e-5)


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_softmax_and_log_softmax(dim):
    torch = torch_or_skip()
    y = check(lambda lib, x: fn_of(lib).softmax(x, dim), X, name="SoftmaxBackward0")
    assert y.grad_fn._saved_dim == torch.softmax(torch.ones(2, 2, requires_grad=True), dim).grad_fn._saved_dim
    check(lambda lib, x: fn_of(lib).log_softmax(x, dim), X, name="LogSoftmaxBackward0")


def test_softmax_implicit_dim_warns():
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax"):
        y = F.softmax(minigrad.tensor(X))
    np.testing.assert_allclose(y.sum(1).numpy(), np.ones(4), rtol=1e-6)


def test_softmax_double_backward():
    torch = torch_or_skip()
    results = []
    for lib in (minigrad, torch):
        x = lib.tensor(X, requires_grad=True)
        w = lib.tensor(PROBS)
        (g,) = lib.autograd.grad((fn_of(lib).log_softmax(x, 1) * w).sum(), x, create_graph=True)
        (g * g).sum().backward()
        results.append(x.grad)
    assert_close(*results)


# ---- linear and dropout -----------------------------------------------------------------------

@pytest.mark.parametrize("shape, bias, grad_fn", [
    ((4, 5), True, "AddmmBackward0"), ((4, 5), False, "MmBackward0"), ((2, 2, 5), True, "ViewBackward0"),
    ((5,), True, "ViewBackward0"), ((5,), False, "SqueezeBackward4"), ((2, 2, 5), False, "UnsafeViewBackward0"),
])
def test_linear(shape, bias, grad_fn):
    x = X.reshape(-1)[: int(np.prod(shape))].reshape(shape)
    arrays = (x, W, B) if bias else (x, W)
    check(lambda lib, *t: fn_of(lib).linear(*t), *arrays, name=grad_fn)


def test_linear_addmm_saved_names():
    x, w, b = (minigrad.tensor(a, requires_grad=True) for a in (X, W, B))
    fn = F.linear(x, w, b).grad_fn
    assert fn._saved_alpha == 1 and fn._saved_beta == 1
    assert fn._saved_mat1_sym_sizes == (4, 5) and fn._saved_mat2_sym_sizes == (5, 3)
    assert [n.name() for n, _ in fn.next_functions] == ["torch::autograd::AccumulateGrad"] * 2 + ["TBackward0"]


def test_linear_shape_error():
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(4x5 and 4x3\)"):
        F.linear(minigrad.tensor(X), minigrad.tensor(W[:, :4]), minigrad.tensor(B))


def test_dropout_training_and_eval():
    x = minigrad.ones(1000, requires_grad=True)
    minigrad.manual_seed(0)
    y = F.dropout(x, 0.25)
    assert y.grad_fn.name() == "MulBackward0"
    kept = y.detach().numpy() != 0
    np.testing.assert_allclose(y.detach().numpy()[kept], 1 / 0.75, rtol=1e-6)
    assert 0.65 < kept.mean() < 0.85
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), kept / 0.75, rtol=1e-6)
    minigrad.manual_seed(0)
    np.testing.assert_array_equal(F.dropout(x, 0.25).detach().numpy(), y.detach().numpy())  # seeded
    assert F.dropout(x, 0.25, training=False) is x
    assert (F.dropout(x, 1.0).detach().numpy() == 0).all()
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1, but got 1.5"):
        F.dropout(x, 1.5)


# ---- losses -----------------------------------------------------------------------------------

@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_regression_losses(reduction):
    y = check(lambda lib, a, b: fn_of(lib).mse_loss(a, b, reduction=reduction), X, PROBS, name="MseLossBackward0")
    assert y.grad_fn._saved_reduction == {"none": 0, "mean": 1, "sum": 2}[reduction]
    l1 = {"mean": "MeanBackward0", "sum": "SumBackward0", "none": "AbsBackward0"}[reduction]
    check(lambda lib, a, b: fn_of(lib).l1_loss(a, b, reduction=reduction), X, PROBS, name=l1)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_binary_cross_entropy(reduction):
    check(lambda lib, a, b: fn_of(lib).binary_cross_entropy(a, b, reduction=reduction), SIG, PROBS,
          name="BinaryCrossEntropyBackward0")
    check(lambda lib, a, b, w: fn_of(lib).binary_cross_entropy(a, b, weight=w, reduction=reduction),
          SIG, PROBS, consts=(CLASS_W,), name="BinaryCrossEntropyBackward0")


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_bce_with_logits(reduction):
    name = "BinaryCrossEntropyWithLogitsBackward0"
    check(lambda lib, a, b: fn_of(lib).binary_cross_entropy_with_logits(a, b, reduction=reduction), X, PROBS,
          name=name)
    check(lambda lib, a, b, w, p: fn_of(lib).binary_cross_entropy_with_logits(
        a, b, weight=w, pos_weight=p, reduction=reduction), X, PROBS, consts=(CLASS_W, CLASS_W[::-1].copy()),
        name=name)


def test_bce_clamps_log_at_minus_100():
    x = minigrad.tensor([0.0, 1.0], requires_grad=True)
    loss = F.binary_cross_entropy(x, minigrad.tensor([1.0, 0.0]), reduction="none")
    np.testing.assert_allclose(loss.detach().numpy(), [100.0, 100.0])
    loss.sum().backward()
    assert np.isfinite(x.grad.numpy()).all()


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_nll_and_cross_entropy_indices(reduction):
    ce = check(lambda lib, a: fn_of(lib).cross_entropy(a, lib.tensor(TARGET), reduction=reduction), X,
               name="NllLossBackward0")
    assert ce.grad_fn.next_functions[0][0].name() == "LogSoftmaxBackward0"
    check(lambda lib, a: fn_of(lib).nll_loss(a, lib.tensor(TARGET), reduction=reduction), X, name="NllLossBackward0")
    check(lambda lib, a, w: fn_of(lib).cross_entropy(a, lib.tensor([0, -100, 1, 4]), weight=w, reduction=reduction),
          X, consts=(CLASS_W,), name="NllLossBackward0")
    check(lambda lib, a: fn_of(lib).cross_entropy(a, lib.tensor([0, 3, 1, 4]), ignore_index=3, reduction=reduction),
          X, name="NllLossBackward0")


def test_nll_saved_attributes_match_torch():
    torch = torch_or_skip()
    fm = F.nll_loss(minigrad.tensor(X, requires_grad=True), minigrad.tensor(TARGET)).grad_fn
    ft = torch.nn.functional.nll_loss(torch.tensor(X, requires_grad=True), torch.tensor(TARGET)).grad_fn
    for attr in ("_saved_ignore_index", "_saved_reduction", "_saved_weight"):
        assert getattr(fm, attr) == getattr(ft, attr)
    assert_close(fm._saved_total_weight, ft._saved_total_weight)
    assert_close(fm._saved_target, ft._saved_target)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_probabilities(reduction):
    name = {"mean": "DivBackward1", "sum": "NegBackward0", "none": "NegBackward0"}[reduction]
    check(lambda lib, a, p: fn_of(lib).cross_entropy(a, p, reduction=reduction), X, PROBS, name=name)
    check(lambda lib, a, p, w: fn_of(lib).cross_entropy(a, p, weight=w, reduction=reduction, label_smoothing=0.1),
          X, PROBS, consts=(CLASS_W,), name=name)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_label_smoothing(reduction):
    check(lambda lib, a: fn_of(lib).cross_entropy(a, lib.tensor([0, -100, 1, 4]), label_smoothing=0.2,
                                                  reduction=reduction), X, name="AddBackward0")
    check(lambda lib, a, w: fn_of(lib).cross_entropy(a, lib.tensor(TARGET), weight=w, label_smoothing=0.2,
                                                     reduction=reduction), X, consts=(CLASS_W,), name="AddBackward0")


@pytest.mark.parametrize("shape, reduction", [((2, 4, 3), "mean"), ((2, 4, 3), "none"), ((2, 4, 3, 2), "sum"),
                                              ((2, 4, 3, 2), "none"), ((2, 4, 1, 2, 2), "mean")])
def test_cross_entropy_spatial(shape, reduction):
    x = RNG.standard_normal(shape).astype(np.float32)
    t = RNG.integers(0, shape[1], (shape[0],) + shape[2:])
    check(lambda lib, a: fn_of(lib).cross_entropy(a, lib.tensor(t), reduction=reduction), x)


def test_cross_entropy_unbatched():
    check(lambda lib, a: fn_of(lib).cross_entropy(a, lib.tensor(2)), X[0], name="NllLossBackward0")


def test_stability_at_large_logits():
    big = np.array([[1000.0, -1000.0, 0.0], [-1000.0, 1000.0, 999.0]], dtype=np.float32)
    x = minigrad.tensor(big, requires_grad=True)
    loss = F.cross_entropy(x, minigrad.tensor([1, 0]))
    loss.backward()
    assert np.isfinite(loss.item()) and np.isfinite(x.grad.numpy()).all()
    # sample 0 loses 1000 - (-1000); sample 1: 1000 - (-1000) + log(1 + e^-1)
    np.testing.assert_allclose(loss.item(), (2000 + 2000 + np.log1p(np.exp(-1))) / 2, rtol=1e-6)
    for fn in (lambda t: F.binary_cross_entropy_with_logits(t, minigrad.ones(2, 3)),
               lambda t: F.log_softmax(t, 1).sum(), lambda t: (F.softmax(t, 1) * minigrad.tensor(big)).sum()):
        x = minigrad.tensor(big, requires_grad=True)
        out = fn(x)
        out.backward()
        assert np.isfinite(out.item()) and np.isfinite(x.grad.numpy()).all()
    check(lambda lib, a: fn_of(lib).cross_entropy(a, lib.tensor([1, 0])), big)
    check(lambda lib, a: fn_of(lib).binary_cross_entropy_with_logits(a, lib.ones(2, 3)), big)


def test_nll_double_backward():
    torch = torch_or_skip()
    results = []
    for lib in (minigrad, torch):
        x = lib.tensor(X, requires_grad=True)
        (g,) = lib.autograd.grad(fn_of(lib).cross_entropy(x, lib.tensor(TARGET)), x, create_graph=True)
        (g * g).sum().backward()
        results.append(x.grad)
    assert_close(*results)


# ---- errors -----------------------------------------------------------------------------------

def _error_cases(lib):
    f = fn_of(lib)
    x = lib.tensor(X)
    return [
        lambda: f.cross_entropy(x, lib.tensor([0, 1])),
        lambda: f.cross_entropy(x, lib.tensor([0.0, 1, 2, 3])),
        lambda: f.cross_entropy(x, lib.tensor([0, 1, 2, 3], dtype=lib.int32)),
        lambda: f.cross_entropy(x, lib.tensor([0, 1, 2, 9])),
        lambda: f.nll_loss(x, lib.tensor([0, 1, -3, 1])),
        lambda: f.cross_entropy(x, lib.tensor([[0, 1, 2, 3]])),
        lambda: f.cross_entropy(x, lib.tensor(TARGET), reduction="average"),
        lambda: f.cross_entropy(x, lib.tensor(TARGET), label_smoothing=1.5),
        lambda: f.cross_entropy(x, lib.tensor(TARGET).view(4, 1)),
        lambda: f.cross_entropy(x, lib.tensor(PROBS).int()),
        lambda: f.cross_entropy(x, lib.tensor(PROBS), ignore_index=1),
        lambda: f.nll_loss(x, lib.tensor(TARGET), weight=lib.ones(3)),
        lambda: f.nll_loss(lib.tensor(1.0), lib.tensor(TARGET)),
        lambda: f.nll_loss(x[0], lib.tensor(TARGET)),
        lambda: f.nll_loss(lib.tensor(np.zeros((2, 3, 4), np.float32)), lib.tensor(np.zeros((2, 5), np.int64))),
        lambda: f.mse_loss(x, lib.tensor(np.zeros(3, np.float32))),
        lambda: f.binary_cross_entropy(lib.tensor(SIG[0]), lib.tensor(PROBS)),
        lambda: f.binary_cross_entropy(x, lib.tensor(PROBS)),
        lambda: f.binary_cross_entropy_with_logits(x, lib.tensor(PROBS[0])),
        lambda: f.softmax(x, 2),
        lambda: f.gelu(x, approximate="exact"),
    ]


@pytest.mark.parametrize("case", range(21))
def test_errors_match_torch(case):
    torch = torch_or_skip()
    caught = []
    for lib in (minigrad, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(Exception) as info:
                _error_cases(lib)[case]()
        caught.append((type(info.value), str(info.value)))
    assert caught[0] == caught[1]


def test_mse_loss_broadcast_warning():
    with pytest.warns(UserWarning, match=r"Using a target size \(torch.Size\(\[5\]\)\) that is different"):
        F.mse_loss(minigrad.tensor(X), minigrad.tensor(PROBS[0]))
