"""float32 matrix products with PyTorch's exact bits (``minigrad/_matmul.py``).

Every comparison here is exact (``np.array_equal`` on float32), not approximate: the point of
``_matmul`` is the order of additions MKL uses inside PyTorch, which decides the last bit. Products up to
``_matmul.LIMIT`` multiply-adds are emulated by default; the kernels' rules are also checked on bigger
products with the limit raised (those run NumPy's BLAS by default, for speed: benchmark W1).
Operands are NumPy-owned copies with PyTorch's layouts ("N" row-major, "T" a ``.t()`` view).
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from parity import run_both, torch_or_skip

import minigrad
from minigrad import _matmul, _reduce

LAYOUTS = ("NN", "NT", "TN", "TT")


@pytest.fixture(params=[1, 2], ids=["1-thread", "2-threads"])
def threads(request):
    """Run PyTorch (MKL) and minigrad's emulation with the same intra-op thread count."""
    torch = torch_or_skip()
    saved = torch.get_num_threads(), _reduce.THREADS[0]
    torch.set_num_threads(request.param)
    _reduce.THREADS[0] = request.param
    yield request.param
    torch.set_num_threads(saved[0])
    _reduce.THREADS[0] = saved[1]


def _randn(torch, *shape, seed):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


def _numpy_copy(t) -> np.ndarray:
    """A NumPy-owned copy of a torch tensor with the same strides (size-1 dims included: they can decide
    the layout PyTorch reads), at the same place within 16 bytes."""
    size = 1 + sum((d - 1) * s for d, s in zip(t.shape, t.stride()))
    view = np.lib.stride_tricks.as_strided(np.zeros(size, np.float32), t.shape, [4 * s for s in t.stride()])
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


# ---- mm / addmm: every small shape class, both thread counts ------------------------------------------

SMALL = [(m, k, n) for m, k, n in itertools.product((1, 2, 3, 4, 5, 7, 9, 16), (1, 2, 3, 5, 8, 13, 21),
                                                     (1, 2, 3, 4, 5, 7, 11, 12, 13))
         if m * k * n <= _matmul.LIMIT]


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


@pytest.mark.parametrize("shape", [(5, 17, 12), (6, 5, 17), (7, 5, 20), (9, 5, 17), (5, 2, 101), (11, 3, 16)])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_rows_split_between_threads(shape, layout, threads):
    """5..11 rows: with 2 threads MKL gives the m % 4 last rows to its small kernels (when big enough)."""
    torch = torch_or_skip()
    a_t, b_t, a, b = _pair(torch, *shape, layout, seed=3)
    bias_t = _randn(torch, shape[2], seed=4)
    assert np.array_equal(_matmul.mm(a, b), torch.mm(a_t, b_t).numpy())
    assert np.array_equal(_matmul.addmm(bias_t.numpy().copy(), a, b, 1, 1), torch.addmm(bias_t, a_t, b_t).numpy())


def test_views_with_offsets_exact():
    """Slices: NT's lane split follows where each row of ``a`` starts in memory."""
    torch = torch_or_skip()
    for m, k, n in [(5, 7, 3), (6, 9, 5), (3, 21, 11), (8, 13, 7), (2, 5, 2)]:
        x_t, w_t = _randn(torch, m + 3, k + 5, seed=m), _randn(torch, n + 2, k + 5, seed=n)
        x, w = np.array(x_t.numpy()), np.array(w_t.numpy())
        for rows, cols in ((slice(1, m + 1), slice(0, k)), (slice(2, m + 2), slice(1, k + 1))):
            a_t, b_t = x_t[rows, cols], w_t[1:n + 1, cols].t()
            assert np.array_equal(_matmul.mm(x[rows, cols], w[1:n + 1, cols].T), torch.mm(a_t, b_t).numpy())


# ---- the kernels' rules on bigger products (limit raised; by default these use NumPy) -------------------

@pytest.mark.parametrize("shape", [
    (4, 192, 12), (4, 193, 12), (4, 194, 13), (4, 385, 12), (4, 400, 12), (4, 577, 12),  # k-blocks of 192
    (100, 16, 16), (16, 100, 16), (2, 100, 16), (100, 16, 1), (16, 100, 1), (100, 2, 16),  # benchmark W4's
    (3, 784, 20), (64, 10, 5), (1, 300, 7),
])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_kernel_rules_on_bigger_products(shape, layout, monkeypatch):
    torch = torch_or_skip()
    monkeypatch.setattr(_matmul, "LIMIT", 10 ** 9)
    a_t, b_t, a, b = _pair(torch, *shape, layout, seed=5)
    bias_t = _randn(torch, shape[2], seed=6)
    assert np.array_equal(_matmul.mm(a, b), torch.mm(a_t, b_t).numpy())
    assert np.array_equal(_matmul.addmm(bias_t.numpy().copy(), a, b, 1, 1), torch.addmm(bias_t, a_t, b_t).numpy())


@pytest.mark.parametrize("shape", [(128, 784, 256), (128, 256, 10), (64, 65, 64)])
def test_benchmark_shapes_keep_numpy(shape):
    """Past the limit the product is NumPy's (BLAS speed), bit for bit."""
    rng = np.random.default_rng(0)
    m, k, n = shape
    a, b = rng.standard_normal((m, k), dtype=np.float32), rng.standard_normal((k, n), dtype=np.float32)
    assert m * k * n > _matmul.LIMIT
    assert np.array_equal(_matmul.mm(a, b), np.matmul(a, b))


def test_other_dtypes_and_empty_use_numpy():
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((4, 2))
    assert np.array_equal(_matmul.mm(a, b), np.matmul(a, b))
    assert _matmul.mm(np.zeros((0, 3), np.float32), np.ones((3, 2), np.float32)).shape == (0, 2)
    assert np.array_equal(_matmul.mm(np.ones((2, 0), np.float32), np.ones((0, 3), np.float32)), np.zeros((2, 3)))
    assert np.array_equal(_matmul.addmm(np.ones(2), a, b, 0.5, 2.0), 0.5 + 2.0 * (a @ b))


def test_signed_zeros_like_torch():
    torch = torch_or_skip()
    neg = -torch.zeros(3, 4)
    got = _matmul.mm(np.array(neg.numpy()), np.ones((4, 5), np.float32))
    assert not np.signbit(got).any() and not torch.signbit(torch.mm(neg, torch.ones(4, 5))).any()
    outer = _matmul.mm(np.zeros((2, 1), np.float32), -np.ones((1, 3), np.float32))   # k = 1: an outer product
    assert np.signbit(outer).all() and torch.signbit(torch.mm(torch.zeros(2, 1), -torch.ones(1, 3))).all()


# ---- mv, dot, bmm -------------------------------------------------------------------------------------

def test_mv_exact(threads):
    torch = torch_or_skip()
    for m, k in itertools.product((1, 2, 3, 4, 5, 7, 9, 33), (1, 2, 3, 4, 5, 8, 9, 16, 21, 30)):
        a_t, v_t = _randn(torch, m, k, seed=m), _randn(torch, k, seed=k)
        for layout in "NT":
            mat_t, mat = _laid_out(a_t, layout)
            assert np.array_equal(_matmul.mv(mat, v_t.numpy()), torch.mv(mat_t, v_t).numpy()), (m, k, layout)


def test_dot_exact():
    torch = torch_or_skip()
    for k in [*range(0, 40), 47, 64, 100, 255, 1000, 4096]:
        x_t, y_t = _randn(torch, k, seed=k), _randn(torch, k, seed=k + 1)
        assert np.array_equal(_matmul.dot(np.array(x_t.numpy()), np.array(y_t.numpy())), torch.dot(x_t, y_t).numpy())


def test_bmm_exact(threads):
    torch = torch_or_skip()
    for batch, m, k, n in itertools.product((1, 2, 3), (1, 2, 4, 5), (1, 3, 9, 16), (1, 3, 5, 12)):
        if m * k * n > _matmul.LIMIT:
            continue
        a_t, b_t = _randn(torch, batch, m, k, seed=m + k), _randn(torch, batch, k, n, seed=n + k)
        got = _matmul.bmm(np.array(a_t.numpy()), np.array(b_t.numpy()))
        assert np.array_equal(got, torch.bmm(a_t, b_t).numpy()), (batch, m, k, n)


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
