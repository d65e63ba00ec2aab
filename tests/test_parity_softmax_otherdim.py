"""float32 softmax / log_softmax over a dim that is not the last, and their gradients, bit for bit as PyTorch's
CPU kernels (``_softmax_cpu.softmax_dim`` ...): Σ over dim in order, SLEEF's exp on whole vectors of 16 inner
positions and glibc's on the rest, and for softmax's forward the split of positions across threads."""
from __future__ import annotations

import numpy as np
import pytest
from parity import torch_or_skip

import minigrad

SHAPES = [((300, 50), 0), ((4, 64, 333), 1), ((2, 1000, 3), 1), ((8, 3, 5), 1), ((3, 5), 0), ((6, 40, 17), 1),
          ((5, 2, 3, 4), 1), ((3, 7, 9, 11), 0), ((2, 3, 4), -2), ((33, 17), 0), ((9, 200, 7), 1), ((2, 5, 20, 20), 1)]


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("which", ["softmax", "log_softmax"])
def test_other_dim_bits_match_pytorch(which: str, threads: int) -> None:
    torch = torch_or_skip()
    saved = torch.get_num_threads(), minigrad.get_num_threads()
    torch.set_num_threads(threads)
    minigrad.set_num_threads(threads)
    try:
        gen = np.random.default_rng(threads)
        for shape, dim in SHAPES:
            x = (gen.standard_normal(shape) * 3).astype(np.float32)
            g = gen.standard_normal(shape).astype(np.float32)
            tx = torch.tensor(x, requires_grad=True)
            ty = getattr(tx, which)(dim)
            ty.backward(torch.tensor(g))
            mx = minigrad.tensor(x, requires_grad=True)
            my = getattr(mx, which)(dim)
            my.backward(minigrad.tensor(g))
            assert np.array_equal(my.detach().numpy(), ty.detach().numpy()), (shape, dim)
            assert np.array_equal(mx.grad.numpy(), tx.grad.numpy()), (shape, dim)
    finally:
        torch.set_num_threads(saved[0])
        minigrad.set_num_threads(saved[1])


def test_vector_positions_follow_the_thread_split() -> None:
    # 50 positions in one row: one thread takes 3 vectors and a scalar tail of 2; two threads take [0, 25) and
    # [25, 50): a vector and 9 scalars, then a vector at 25..40 and 9 scalars
    from minigrad._softmax_cpu import _softmax_vector_positions
    one = _softmax_vector_positions(1, 50, 1)[0]
    two = _softmax_vector_positions(1, 50, 2)[0]
    assert np.flatnonzero(~one).tolist() == [48, 49]
    assert np.flatnonzero(~two).tolist() == list(range(16, 25)) + list(range(41, 50))


GUMBEL = r'''
import warnings
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(3, 5, requires_grad=True)
y = F.gumbel_softmax(x, tau=0.5)
print(y, y.grad_fn.name(), y.grad_fn.next_functions[0][0].name())
(y * torch.arange(5.)).sum().backward()
print(x.grad)
x.grad = None
y = F.gumbel_softmax(x, hard=True, dim=0)  # one-hot values, the soft gradient (softmax over dim 0)
print(y, y.grad_fn.name())
(y * torch.arange(5.)).sum().backward()
print(x.grad)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    F.gumbel_softmax(x, eps=1e-5)
print([(str(m.message), m.category.__name__) for m in w])
print(torch.legacy_contiguous_format, torch.legacy_contiguous_format is torch.contiguous_format)
print(F.gumbel_softmax(torch.randn(2, 3, dtype=torch.float64)))
'''


def test_gumbel_softmax_prints_like_pytorch() -> None:
    from parity import run_both
    ours, theirs = run_both(GUMBEL)
    assert theirs, "the program printed nothing under PyTorch"
    assert ours == theirs
