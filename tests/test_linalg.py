"""matmul for every rank combination, mm/bmm/mv/dot/outer and einsum, compared with PyTorch."""
from __future__ import annotations

import numpy as np
import pytest

import minigrad
from tests.parity import torch_or_skip

RNG = np.random.default_rng(1)


def _r(*shape):
    return RNG.standard_normal(shape)


def _graph(fn):
    """Node names below ``fn`` (saved names included), as nested tuples."""
    if fn is None:
        return None
    name = fn.name().replace("torch::autograd::", "")
    if name == "AccumulateGrad":
        return "leaf"
    saved = tuple(sorted(a for a in dir(fn) if a.startswith("_saved_")))
    return (name, saved, tuple(_graph(n) for n, _ in fn.next_functions))


def _run(mod, program, arrays, requires_grad):
    leaves = [mod.tensor(a, requires_grad=r) for a, r in zip(arrays, requires_grad)]
    out = program(mod, *leaves)
    graph = _graph(out.grad_fn)
    w = mod.tensor(np.linspace(-1, 2, out.numel()).reshape(tuple(out.shape)))
    diff = [t for t in leaves if t.requires_grad]
    grads = mod.autograd.grad((out * w).sum(), diff, create_graph=True)
    second = sum((g * g).sum() for g in grads)
    gg = mod.autograd.grad(second, diff, allow_unused=True) if second.requires_grad else [None] * len(diff)
    return (out.detach().numpy(), graph, [g.detach().numpy() for g in grads],
            [None if g is None else g.numpy() for g in gg])


def _compare(program, arrays, requires_grad=None, graph=True):
    torch = torch_or_skip()
    requires_grad = requires_grad or [True] * len(arrays)
    mine = _run(minigrad, program, arrays, requires_grad)
    theirs = _run(torch, program, arrays, requires_grad)
    np.testing.assert_allclose(mine[0], theirs[0], rtol=1e-10, atol=1e-12)
    if graph:
        assert mine[1] == theirs[1]
    for a, b in zip(mine[2] + mine[3], theirs[2] + theirs[3]):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


MATMUL_SHAPES = {
    "1-D @ 1-D (DotBackward0)": ((3,), (3,)),
    "2-D @ 1-D (MvBackward0)": ((2, 3), (3,)),
    "1-D @ 2-D (SqueezeBackward4 over MmBackward0)": ((3,), (3, 4)),
    "2-D @ 2-D (MmBackward0)": ((2, 3), (3, 4)),
    "3-D @ 2-D (folded: UnsafeViewBackward0 over MmBackward0)": ((5, 2, 3), (3, 4)),
    "3-D @ 1-D (folded mv)": ((5, 2, 3), (3,)),
    "4-D @ 2-D": ((2, 5, 2, 3), (3, 4)),
    "1-D @ 3-D": ((3,), (5, 3, 4)),
    "2-D @ 3-D (transposed fold, then contiguous: CloneBackward0)": ((2, 3), (5, 3, 4)),
    "3-D @ 3-D (BmmBackward0)": ((5, 2, 3), (5, 3, 4)),
    "batch of one squeezed": ((1, 2, 3), (5, 3, 4)),
    "broadcast batch dims": ((2, 1, 2, 3), (5, 3, 4)),
    "4-D @ 4-D": ((2, 5, 2, 3), (2, 5, 3, 4)),
    "4-D @ 1-D": ((2, 5, 2, 3), (3,)),
}


@pytest.mark.parametrize("name", list(MATMUL_SHAPES))
def test_matmul_graph_and_gradients_match_torch(name):
    a, b = MATMUL_SHAPES[name]
    _compare(lambda T, x, y: x @ y, [_r(*a), _r(*b)])


@pytest.mark.parametrize("name", list(MATMUL_SHAPES))
def test_matmul_with_only_the_left_operand_requiring_grad(name):
    """Without a grad on the right operand PyTorch folds (or not) by strides alone: same graph here."""
    a, b = MATMUL_SHAPES[name]
    _compare(lambda T, x, y: T.matmul(x, y), [_r(*a), _r(*b)], requires_grad=[True, False])


def test_matmul_of_a_transposed_batch_matches_torch():
    _compare(lambda T, x, y: x.transpose(0, 1) @ y, [_r(2, 5, 3), _r(3, 4)], requires_grad=[True, False])
    _compare(lambda T, x, y: x.transpose(0, 1) @ y, [_r(2, 5, 3), _r(3, 4)])


@pytest.mark.parametrize("fn,shapes", [
    (lambda T, x, y: T.mm(x, y), ((2, 3), (3, 4))),
    (lambda T, x, y: T.bmm(x, y), ((5, 2, 3), (5, 3, 4))),
    (lambda T, x, y: T.mv(x, y), ((2, 3), (3,))),
    (lambda T, x, y: T.dot(x, y), ((3,), (3,))),
    (lambda T, x, y: T.outer(x, y), ((3,), (4,))),
    (lambda T, x, y: x.matmul(y.mT), ((2, 3), (4, 3))),
], ids=["mm", "bmm", "mv", "dot", "outer (MulBackward0 over ViewBackward0)", "matmul mT"])
def test_products_match_torch(fn, shapes):
    _compare(fn, [_r(*s) for s in shapes])


LINALG_ERRORS = {
    "mm shapes": lambda T: T.mm(T.ones(2, 3), T.ones(4, 4)),
    "mm not a matrix": lambda T: T.mm(T.ones(2, 2, 3), T.ones(3, 4)),
    "matmul 2-D": lambda T: T.ones(2, 3) @ T.ones(4, 4),
    "matmul 1-D": lambda T: T.ones(2) @ T.ones(4),
    "matmul 2-D @ 1-D": lambda T: T.ones(2, 3) @ T.ones(4),
    "matmul 1-D @ 2-D": lambda T: T.ones(2) @ T.ones(4, 3),
    "matmul 3-D @ 2-D": lambda T: T.ones(5, 2, 3) @ T.ones(4, 3),
    "matmul batched": lambda T: T.ones(5, 2, 3) @ T.ones(5, 4, 4),
    "matmul batch mismatch": lambda T: T.ones(5, 2, 3) @ T.ones(4, 3, 4),
    "matmul 0-D": lambda T: T.matmul(T.tensor(1.0), T.ones(4, 3)),
    "bmm batch": lambda T: T.bmm(T.ones(5, 2, 3), T.ones(4, 3, 4)),
    "bmm inner": lambda T: T.bmm(T.ones(5, 2, 3), T.ones(5, 4, 4)),
    "bmm 2-D": lambda T: T.bmm(T.ones(2, 3), T.ones(5, 3, 4)),
    "mv sizes": lambda T: T.mv(T.ones(2, 3), T.ones(4)),
    "dot sizes": lambda T: T.dot(T.ones(3), T.ones(4)),
    "dot 2-D": lambda T: T.dot(T.ones(3, 1), T.ones(3)),
    "mm dtypes": lambda T: T.mm(T.ones(2, 3), T.ones(3, 4, dtype=T.float64)),
}


@pytest.mark.parametrize("name", list(LINALG_ERRORS))
def test_linalg_errors_match_torch(name):
    torch = torch_or_skip()
    errors = []
    for mod in (minigrad, torch):
        with pytest.raises(Exception) as info:
            LINALG_ERRORS[name](mod)
        errors.append((type(info.value), str(info.value)))
    assert errors[0] == errors[1]


EINSUM = {
    "ij,jk->ik": [(2, 3), (3, 4)], "bij,bjk->bik": [(5, 2, 3), (5, 3, 4)], "ii": [(3, 3)], "ii->i": [(3, 3)],
    "ij->ji": [(2, 3)], "ij->": [(2, 3)], "ij->j": [(2, 3)], "i,j->ij": [(2,), (3,)], "i,i->": [(3,), (3,)],
    "ij,j->i": [(2, 3), (3,)], "bhqd,bhkd->bhqk": [(2, 2, 3, 4), (2, 2, 5, 4)], "ij,ij->ij": [(2, 3), (2, 3)],
    "ij,ij->": [(2, 3), (2, 3)], "...ij,...jk->...ik": [(5, 2, 3), (5, 3, 4)], "ij": [(2, 3)], "ji": [(2, 3)],
    "ij,jk,kl->il": [(2, 3), (3, 4), (4, 5)], "ij,jk": [(2, 3), (3, 4)], "i,i": [(3,), (3,)],
    "bij,jk->bik": [(2, 2, 3), (3, 4)], "...i,...i->...": [(2, 3), (2, 3)], "iij->j": [(2, 2, 3)],
}


@pytest.mark.parametrize("equation", list(EINSUM))
def test_einsum_values_and_gradients_match_torch(equation):
    """einsum follows PyTorch's algorithm (see _einsum.py): same values, gradients and graph."""
    shapes = EINSUM[equation]
    _compare(lambda T, *xs: T.einsum(equation, *xs), [_r(*s) for s in shapes])


def test_einsum_accepts_a_list_of_operands():
    a, b = minigrad.tensor(_r(2, 3)), minigrad.tensor(_r(3, 4))
    np.testing.assert_allclose(minigrad.einsum("ij,jk", [a, b]).numpy(), a.numpy() @ b.numpy())


def test_einsum_errors():
    with pytest.raises(RuntimeError, match="number of subscripts"):
        minigrad.einsum("ijk", minigrad.ones(2, 3))
    with pytest.raises(RuntimeError, match="more operands"):
        minigrad.einsum("ij", minigrad.ones(2, 3), minigrad.ones(2, 3))
