"""The fast paths of round 5 (relu's mask, x ** 2, mean, mm without create_graph) give PyTorch's bits."""
import numpy as np
import pytest

import minigrad as mg
from minigrad import derivatives as D
from tests.parity import requires_torch, torch_or_skip

SPECIAL = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1.5, -2.25, 3.0, np.nan]
SELF = [0.0, -1.0, 1.0, 2.0, np.nan, -0.0, 5.0, -3.0, 7.0]


def _bits(t) -> bytes:
    return np.ascontiguousarray(t.detach().numpy()).tobytes()


@requires_torch
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_relu_backward_zeroes_nan_and_inf_gradients_like_torch(dtype):
    torch = torch_or_skip()
    a = mg.tensor(SELF, dtype=getattr(mg, dtype), requires_grad=True)
    b = torch.tensor(SELF, dtype=getattr(torch, dtype), requires_grad=True)
    a.relu().backward(mg.tensor(SPECIAL, dtype=getattr(mg, dtype)))
    b.relu().backward(torch.tensor(SPECIAL, dtype=getattr(torch, dtype)))
    assert _bits(a.grad) == _bits(b.grad)
    assert a.grad.dtype == getattr(mg, dtype)


@pytest.mark.parametrize("threshold", [0, 0.5, float("nan"), float("inf")])
def test_threshold_backward_forward_matches_where(threshold):
    g = np.array(SPECIAL, np.float32)
    x = np.array(SELF, np.float32)
    expected = np.where(x <= threshold, 0, g).astype(np.float32)
    got = D._threshold_backward(g, x, threshold)
    assert got.dtype == np.float32 and got.tobytes() == expected.tobytes()
    assert D._threshold_backward(np.float32(-4.0).reshape(()), np.float32(1.0).reshape(()), 0) == -4.0


@requires_torch
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_square_backward_bits_like_torch(dtype):
    torch = torch_or_skip()
    vals = [np.nan, np.inf, -np.inf, -0.0, 0.0, 6e4, -6e4, 2.5, -1e-7]
    a = mg.tensor(vals, dtype=getattr(mg, dtype), requires_grad=True)
    b = torch.tensor(vals, dtype=getattr(torch, dtype), requires_grad=True)
    (a ** 2).backward(mg.tensor(SPECIAL, dtype=getattr(mg, dtype)))
    (b ** 2).backward(torch.tensor(SPECIAL, dtype=getattr(torch, dtype)))
    assert _bits(a.grad) == _bits(b.grad)


def test_fast_paths_agree_with_the_recorded_formulas():
    # create_graph=True runs the tensor formulas; the values must be those of the NumPy shortcuts
    x = mg.tensor(np.random.default_rng(0).standard_normal((5, 3)), requires_grad=True)
    w = mg.tensor(np.random.default_rng(1).standard_normal((3, 4)), requires_grad=True)
    loss = (x.mm(w).relu() ** 2).mean()
    fast = mg.autograd.grad(loss, (x, w), retain_graph=True)
    slow = mg.autograd.grad(loss, (x, w), create_graph=True)
    for f, s in zip(fast, slow):
        assert f.grad_fn is None and s.grad_fn is not None
        assert _bits(f) == _bits(s)


@requires_torch
def test_double_backward_graph_of_square_and_mean_unchanged():
    torch = torch_or_skip()
    names = []
    for lib in (mg, torch):
        a = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
        (g,) = lib.autograd.grad((a ** 2).mean(), a, create_graph=True)
        fn = g.grad_fn
        names.append((type(fn).__name__, [type(n).__name__ for n, _ in fn.next_functions if n is not None]))
        g.sum().backward()
        names.append(a.grad.tolist())
    assert names[0] == names[2] and names[1] == names[3]
