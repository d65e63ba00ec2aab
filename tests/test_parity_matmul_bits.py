"""Matrix products with PyTorch's exact bits (``minigrad/_matmul.py``: MKL's BLAS, called as PyTorch calls it).

Every comparison here is exact (``np.array_equal``), not approximate: MKL picks its kernel, so the order of
additions that decides the last bit, by shape, layout and thread count. Operands are NumPy-owned copies with
PyTorch's layouts ("N" row-major, "T" a ``.t()`` view).
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from parity import INTEL_CPU, run_both, torch_or_skip  # (the threads fixture: conftest.py)

import minigrad
from minigrad import _matmul

LAYOUTS = ("NN", "NT", "TN", "TT")
pytestmark = pytest.mark.skipif(_matmul._LIB is None, reason="MKL (the mkl package) is not installed")


def _randn(torch, *shape, seed):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


def _numpy_copy(t) -> np.ndarray:
    """A NumPy-owned copy of a torch tensor with the same strides (size-1 dims included: they can decide
    the layout PyTorch reads), at the same place within 16 bytes."""
    size = 1 + sum((d - 1) * s for d, s in zip(t.shape, t.stride()))
    dtype = t.numpy().dtype
    view = np.lib.stride_tricks.as_strided(np.zeros(size, dtype), t.shape, [dtype.itemsize * s for s in t.stride()])
    view[...] = t.numpy()
    return view


def _laid_out(torch_matrix, layout: str):
    """(the torch matrix, a NumPy-owned copy) in ``layout``: "N" row-major, "T" column-major."""
    t = torch_matrix.contiguous() if layout == "N" else torch_matrix.t().contiguous().t()
    return t, _numpy_copy(t)


def _pair(torch, m, k, n, layout, seed=0):
    a_t, a = _laid_out(_randn(torch, m, k, seed=seed), layout[0])
    b_t, b = _laid_out(_randn(torch, k, n, seed=seed + 1), layout[1])
    return a_t, b_t, a, b


# ---- mm / addmm: small and large shapes, every layout, both thread counts --------------------------------

SMALL = list(itertools.product((1, 2, 3, 4, 5, 7, 9, 16), (1, 2, 3, 5, 8, 13, 21), (1, 2, 3, 4, 5, 7, 11, 12, 13)))
LARGE = [(128, 784, 256), (128, 256, 10), (64, 1000, 100), (100, 16, 16), (16, 100, 16), (4, 577, 12),
         (5, 300, 33), (9, 300, 100), (7, 9, 300), (1, 784, 512), (300, 1, 7), (33, 200, 1)]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_mm_and_addmm_small_shapes_exact(layout, threads):
    torch = torch_or_skip()
    assert len(SMALL) > 400
    for i, (m, k, n) in enumerate(SMALL):
        a_t, b_t, a, b = _pair(torch, m, k, n, layout, seed=i)
        bias_t = _randn(torch, n, seed=i + 7)
        assert np.array_equal(_matmul.mm(a, b), torch.mm(a_t, b_t).numpy()), (m, k, n)
        got = _matmul.addmm(bias_t.numpy().copy(), a, b, 1, 1)
        assert np.array_equal(got, torch.addmm(bias_t, a_t, b_t).numpy()), (m, k, n)


@pytest.mark.parametrize("shape", LARGE)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_large_products_exact(shape, layout, threads):
    """MNIST-sized layers too (NumPy's BLAS differs there in about half the elements)."""
    torch = torch_or_skip()
    a_t, b_t, a, b = _pair(torch, *shape, layout, seed=5)
    bias_t = _randn(torch, shape[2], seed=6)
    expected = torch.mm(a_t, b_t).numpy()
    assert np.array_equal(_matmul.mm(a, b), expected)
    assert np.array_equal(_matmul.addmm(bias_t.numpy().copy(), a, b, 1, 1), torch.addmm(bias_t, a_t, b_t).numpy())
    if shape[0] * shape[1] * shape[2] > 10 ** 5 and not INTEL_CPU:   # (NumPy's BLAS has other bits here, on AMD)
        assert not np.array_equal(np.matmul(a, b), expected)


@pytest.mark.parametrize("dtype", ["float64", "complex64", "complex128"])
def test_other_blas_dtypes_exact(dtype, threads):
    torch = torch_or_skip()
    for i, (m, k, n) in enumerate([(3, 5, 7), (16, 100, 16), (64, 300, 33), (1, 50, 9), (9, 50, 1)]):
        for layout in ("NN", "NT", "TN"):
            a_t, b_t, _, _ = _pair(torch, m, k, n, layout, seed=i)
            a_t, b_t = (t.to(getattr(torch, dtype)) * (1 + 0.5j if "complex" in dtype else 1) for t in (a_t, b_t))
            a, b = (_numpy_copy(t) for t in (a_t, b_t))
            assert np.array_equal(_matmul.mm(a, b), torch.mm(a_t, b_t).numpy()), (m, k, n, layout)


@pytest.mark.parametrize("beta, alpha", [(0, 1), (0.5, 2.0), (1, -1.5), (0, 0.3), (2, 0)])
def test_addmm_beta_alpha_exact(beta, alpha):
    """addmm copies the bias into the result, then gemm scales it by β (β = 0: the bias is not read)."""
    torch = torch_or_skip()
    for m, k, n in [(4, 6, 12), (1, 8, 3), (20, 30, 1), (33, 64, 17)]:
        a_t, b_t, a, b = _pair(torch, m, k, n, "NT", seed=m)
        bias_t = _randn(torch, m, n, seed=n)
        if beta == 0:
            bias_t[0, 0] = float("nan")
        expected = torch.addmm(bias_t, a_t, b_t, beta=beta, alpha=alpha).numpy()
        assert np.array_equal(_matmul.addmm(bias_t.numpy().copy(), a, b, beta, alpha), expected, equal_nan=True)


def test_views_with_offsets_exact():
    """Slices: the kernels see where each row starts in memory and the leading dimension of the whole."""
    torch = torch_or_skip()
    for m, k, n in [(5, 7, 3), (6, 9, 5), (3, 21, 11), (8, 13, 7), (2, 5, 2), (17, 40, 20)]:
        x_t, w_t = _randn(torch, m + 3, k + 5, seed=m), _randn(torch, n + 2, k + 5, seed=n)
        x, w = np.array(x_t.numpy()), np.array(w_t.numpy())
        for rows, cols in ((slice(1, m + 1), slice(0, k)), (slice(2, m + 2), slice(1, k + 1))):
            a_t, b_t = x_t[rows, cols], w_t[1:n + 1, cols].t()
            assert np.array_equal(_matmul.mm(x[rows, cols], w[1:n + 1, cols].T), torch.mm(a_t, b_t).numpy())
            strided_t = x_t[::2, cols]   # neither row- nor column-major rows: PyTorch copies it first
            got = _matmul.mm(x[::2, cols], w[1:n + 1, cols].T)
            assert np.array_equal(got, torch.mm(strided_t, b_t).numpy())


def test_without_mkl_products_are_numpys(monkeypatch):
    """No MKL (another platform): NumPy's product, close to PyTorch's."""
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((30, 40), dtype=np.float32), rng.standard_normal((40, 20), dtype=np.float32)
    with_mkl = _matmul.mm(a, b)
    monkeypatch.setattr(_matmul, "_LIB", None)
    assert np.array_equal(_matmul.mm(a, b), np.matmul(a, b))
    np.testing.assert_allclose(_matmul.mm(a, b), with_mkl, rtol=1e-5, atol=1e-5)
    assert np.array_equal(_matmul.addmm(np.ones(20, np.float32), a, b, 1, 1), (1 + a @ b).astype(np.float32))


def test_integer_and_empty_products():
    ints = np.arange(12, dtype=np.int64).reshape(3, 4)
    assert np.array_equal(_matmul.mm(ints, ints.T), ints @ ints.T)
    assert _matmul.mm(np.zeros((0, 3), np.float32), np.ones((3, 2), np.float32)).shape == (0, 2)
    assert np.array_equal(_matmul.mm(np.ones((2, 0), np.float32), np.ones((0, 3), np.float32)), np.zeros((2, 3)))
    got = _matmul.addmm(np.full((2, 3), 2.0, np.float32), np.ones((2, 0), np.float32), np.ones((0, 3), np.float32),
                        0.5, 1)
    assert np.array_equal(got, np.ones((2, 3)))


def test_signed_zeros_like_torch():
    torch = torch_or_skip()
    neg = -torch.zeros(3, 4)
    got = _matmul.mm(np.array(neg.numpy()), np.ones((4, 5), np.float32))
    assert np.array_equal(np.signbit(got), torch.signbit(torch.mm(neg, torch.ones(4, 5))).numpy())
    outer = _matmul.mm(np.zeros((2, 1), np.float32), -np.ones((1, 3), np.float32))   # k = 1
    assert np.array_equal(np.signbit(outer), torch.signbit(torch.mm(torch.zeros(2, 1), -torch.ones(1, 3))).numpy())


# ---- mv, addmv, dot -----------------------------------------------------------------------------------

def test_mv_exact(threads):
    torch = torch_or_skip()
    for m, k in itertools.product((1, 2, 3, 4, 5, 7, 9, 33, 300), (1, 2, 3, 4, 5, 8, 9, 16, 21, 30, 500)):
        a_t, v_t = _randn(torch, m, k, seed=m), _randn(torch, 2 * k, seed=k)
        for layout in "NT":
            mat_t, mat = _laid_out(a_t, layout)
            assert np.array_equal(_matmul.mv(mat, v_t[:k].numpy()), torch.mv(mat_t, v_t[:k]).numpy()), (m, k)
            strided = np.array(v_t.numpy())[::2]   # a vector with stride 2: gemv's incx
            assert np.array_equal(_matmul.mv(mat, strided), torch.mv(mat_t, v_t[::2]).numpy()), (m, k)
            expanded = np.broadcast_to(v_t.numpy()[:1], (k,))   # stride 0 (a sum's gradient): PyTorch's own loop
            assert np.array_equal(_matmul.mv(mat, expanded), torch.mv(mat_t, v_t[:1].expand(k)).numpy()), (m, k)


@pytest.mark.parametrize("beta, alpha", [(1, 1), (0, 1), (0.5, -2.0)])
def test_addmv_exact(beta, alpha):
    torch = torch_or_skip()
    for m, k in [(5, 7), (33, 20), (1, 9), (12, 1)]:
        a_t, v_t, bias_t = _randn(torch, m, k, seed=m), _randn(torch, k, seed=k), _randn(torch, m, seed=3)
        expected = torch.addmv(bias_t, a_t, v_t, beta=beta, alpha=alpha).numpy()
        assert np.array_equal(_matmul.addmv(bias_t.numpy(), np.array(a_t.numpy()), v_t.numpy(), beta, alpha), expected)


def test_dot_exact():
    torch = torch_or_skip()
    for k in [*range(0, 40), 47, 64, 100, 255, 1000, 4096, 100000]:
        x_t, y_t = _randn(torch, 2 * k, seed=k), _randn(torch, k, seed=k + 1)
        x = np.array(x_t.numpy())
        assert np.array_equal(_matmul.dot(x[:k], np.array(y_t.numpy())), torch.dot(x_t[:k], y_t).numpy())
        assert np.array_equal(_matmul.dot(x[::2], np.array(y_t.numpy())), torch.dot(x_t[::2], y_t).numpy())
        one = x_t[:1].expand(k)   # stride 0
        assert np.array_equal(_matmul.dot(np.broadcast_to(x[:1], (k,)), y_t.numpy()), torch.dot(one, y_t).numpy())
        x64, y64 = x_t[:k].double(), y_t.double()
        assert np.array_equal(_matmul.dot(x64.numpy(), y64.numpy()), torch.dot(x64, y64).numpy())
    z_t, w_t = torch.randn(50, dtype=torch.complex64), torch.randn(50, dtype=torch.complex64)
    assert np.array_equal(_matmul.dot(z_t.numpy(), w_t.numpy()), torch.dot(z_t, w_t).numpy())
    assert np.array_equal(_matmul.dot(z_t.numpy(), w_t.numpy(), conjugate=True), torch.vdot(z_t, w_t).numpy())


# ---- bmm, baddbmm -------------------------------------------------------------------------------------

def test_bmm_exact(threads):
    torch = torch_or_skip()
    for batch, m, k, n in itertools.product((1, 2, 3), (1, 2, 4, 5, 17), (1, 3, 9, 16, 70), (1, 3, 5, 12, 40)):
        a_t, b_t = _randn(torch, batch, m, k, seed=m + k), _randn(torch, batch, k, n, seed=n + k)
        for ta, tb in itertools.product((False, True), repeat=2):   # items row- or column-major
            x_t = a_t.transpose(1, 2).contiguous().transpose(1, 2) if ta else a_t
            y_t = b_t.transpose(1, 2).contiguous().transpose(1, 2) if tb else b_t
            got = _matmul.bmm(_numpy_copy(x_t), _numpy_copy(y_t))
            assert np.array_equal(got, torch.bmm(x_t, y_t).numpy()), (batch, m, k, n, ta, tb)


@pytest.mark.parametrize("beta, alpha", [(1, 1), (0, 1), (0.5, 2.0)])
def test_baddbmm_exact(beta, alpha):
    torch = torch_or_skip()
    for batch, m, k, n in [(2, 3, 4, 5), (3, 8, 20, 12), (4, 17, 33, 9), (2, 1, 500, 1)]:
        a_t, b_t, c_t = (_randn(torch, *s, seed=i) for i, s in enumerate([(batch, m, k), (batch, k, n), (batch, m, n)]))
        expected = torch.baddbmm(c_t, a_t, b_t, beta=beta, alpha=alpha).numpy()
        got = _matmul.baddbmm(c_t.numpy(), np.array(a_t.numpy()), np.array(b_t.numpy()), beta, alpha)
        assert np.array_equal(got, expected), (batch, m, k, n)


# ---- through minigrad's API: matmul, nn.Linear forward and backward -----------------------------------

def test_matmul_ranks_through_the_api():
    torch = torch_or_skip()
    for shapes in [((5,), (5, 3)), ((4, 6), (6,)), ((6,), (6,)), ((3, 4, 5), (5, 6)), ((2, 3, 4), (2, 4, 5)),
                   ((7, 3), (3, 2))]:
        ts = [_randn(torch, *s, seed=len(s) + i) for i, s in enumerate(shapes)]
        ms = [minigrad.tensor(t.numpy().copy()) for t in ts]
        assert np.array_equal((ms[0] @ ms[1]).numpy(), (ts[0] @ ts[1]).numpy()), shapes


@pytest.mark.parametrize("batch, fin, fout", [(4, 3, 2), (10, 4, 3), (1, 5, 3), (8, 16, 4), (3, 7, 1),
                                              (16, 8, 8), (2, 30, 12), (5, 6, 13), (6, 2, 16)])
def test_linear_forward_and_grads_exact(batch, fin, fout):
    """nn.Linear is addmm(bias, x, W.t()); its weight gradient is PyTorch's (gradᵀ·x)ᵀ, not xᵀ·grad."""
    torch = torch_or_skip()
    x, w, b, g = (_randn(torch, *s, seed=i) for i, s in enumerate([(batch, fin), (fout, fin), (fout,), (batch, fout)]))
    results = []
    for lib in (minigrad, torch):
        xs, ws, bs = (lib.tensor(t.numpy().copy(), requires_grad=True) for t in (x, w, b))
        out = lib.nn.functional.linear(xs, ws, bs)
        out.backward(lib.tensor(g.numpy().copy()))
        results.append([r.detach().numpy() for r in (out, xs.grad, ws.grad, bs.grad)])
    for name, mine, theirs in zip(("out", "x.grad", "W.grad", "b.grad"), *results):
        assert np.array_equal(mine, theirs), name


AUTOGRAD_TUTORIAL = """
import torch
import torch.nn.functional as F
torch.set_printoptions(precision=10)
torch.manual_seed(0)
x = torch.ones(5)  # input tensor
y = torch.zeros(3)  # expected output
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w)+b
loss = F.binary_cross_entropy_with_logits(z, y)
loss.backward()
print(z)
print(loss)
print(w.grad)
print(b.grad)
"""

SMALL_NETWORK = """
import torch
torch.set_printoptions(precision=10)
torch.manual_seed(1)
net = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
X = torch.randn(16, 2)
Y = torch.randn(16, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for i in range(20):
    opt.zero_grad()
    loss = ((net(X) - Y) ** 2).mean()
    loss.backward()
    opt.step()
print(loss)
print(net[0].weight)
print(net[2].weight.grad)
print(net(torch.tensor([0.5, -1.0])))
"""


def test_autograd_tutorial_prints_the_same():
    mine, theirs = run_both(AUTOGRAD_TUTORIAL)
    assert mine == theirs
    assert "grad_fn=<AddBackward0>" in mine and "tensor([[" in mine


def test_small_network_training_prints_the_same():
    mine, theirs = run_both(SMALL_NETWORK)
    assert mine == theirs


# MNIST-sized products (above the old emulation's limit): whole programs print PyTorch's digits
QUICKSTART_MLP = """
import torch
from torch import nn
torch.manual_seed(0)
class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(nn.Linear(28*28, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(),
                                               nn.Linear(512, 10))
    def forward(self, x):
        return self.linear_relu_stack(self.flatten(x))
model = NeuralNetwork()
X = torch.rand(640, 1, 28, 28); y = torch.randint(0, 10, (640,))
loss_fn = nn.CrossEntropyLoss()
opt = torch.optim.SGD(model.parameters(), lr=1e-3)
for i in range(10):
    xb, yb = X[i*64:(i+1)*64], y[i*64:(i+1)*64]
    loss = loss_fn(model(xb), yb)
    loss.backward(); opt.step(); opt.zero_grad()
    print(f"loss: {loss.item():>7f}", loss.item())
print(model(X[:2]).softmax(1))
"""

TWO_LAYER_NET_MM = """
import torch
torch.manual_seed(0)
dtype = torch.float
N, D_in, H, D_out = 64, 1000, 100, 10
x = torch.randn(N, D_in, dtype=dtype)
y = torch.randn(N, D_out, dtype=dtype)
w1 = torch.randn(D_in, H, dtype=dtype, requires_grad=True)
w2 = torch.randn(H, D_out, dtype=dtype, requires_grad=True)
learning_rate = 1e-6
for t in range(500):
    y_pred = x.mm(w1).clamp(min=0).mm(w2)
    loss = (y_pred - y).pow(2).sum()
    if t % 50 == 49:
        print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        w1 -= learning_rate * w1.grad
        w2 -= learning_rate * w2.grad
        w1.grad.zero_()
        w2.grad.zero_()
x64 = x.double(); w = torch.randn(1000, 50, dtype=torch.float64, requires_grad=True)
z = (x64 @ w).tanh().sum(); z.backward(); print(z.item(), w.grad[:2, :3])
print(torch.linalg.norm(w.grad), (x.t() @ x)[:2,:2])
"""


@pytest.mark.parametrize("program", [QUICKSTART_MLP, TWO_LAYER_NET_MM], ids=["quickstart-mlp", "two-layer-mm"])
def test_mnist_sized_programs_print_the_same(program):
    mine, theirs = run_both(program)
    assert mine == theirs
    assert mine.count("\n") >= 10
