"""Session 9 (second wave) parity fixes, each checked against real PyTorch: scatter_reduce on 0-d tensors and its
bfloat16 mean, the storage data pointer of an empty tensor, special.zeta's gradient in q for an integer x."""
import itertools

import numpy as np
import pytest

import minigrad
from tests.parity import assert_close, torch_or_skip

REDUCES = ("sum", "prod", "mean", "amax", "amin")
# (self, index, src) shapes: 0-d everything, 0-d self with a 1-d index and src, a 0-d src, 1-d with a 0-d index,
# and a plain 1-d case with repeated indices
SHAPES = {
    "0d": (2.5, 0, 1.5),
    "0d_self_1d_index": (2.5, [0], [1.5]),
    "0d_self_and_src": (2.5, [0], 1.5),
    "1d_0d_index": ([2.5], 0, [1.5]),
    "1d": ([2.5, -1.0, 3.0], [0, 2, 0, 0], [1.5, 4.0, 2.5, 0.5]),
}


def _run(mod, shape, reduce, index_dtype, include_self):
    x_value, i_value, s_value = SHAPES[shape]
    x = mod.tensor(x_value, requires_grad=True)
    src = mod.tensor(s_value, requires_grad=True)
    index = mod.tensor(i_value, dtype=getattr(mod, index_dtype))
    y = x.scatter_reduce(0, index, src, reduce, include_self=include_self)
    gx, gs = mod.autograd.grad(y.sum(), [x, src])
    return y, gx, gs


@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("index_dtype", ["int32", "int64"])
@pytest.mark.parametrize("reduce", REDUCES)
@pytest.mark.parametrize("shape", list(SHAPES))
def test_scatter_reduce_small_shapes_values_and_grads(shape, reduce, index_dtype, include_self):
    # fixed: a 0-d self or src with a 1-d index raised IndexError (forward and the prod/mean backward)
    # (a 1-d src with a 0-d index: PyTorch's sum/mean backward gives src a 0-d gradient, refused by its engine)
    torch = torch_or_skip()
    results = []
    for mod in (minigrad, torch):
        try:
            results.append(_run(mod, shape, reduce, index_dtype, include_self))
        except RuntimeError as e:
            results.append(str(e))
    mine, theirs = results
    if isinstance(theirs, str):
        assert mine == theirs
        return
    assert tuple(mine[0].shape) == tuple(theirs[0].shape)
    for a, b in zip(mine, theirs):
        assert_close(a, b, rtol=1e-6, atol=0)


@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("dtype", ["bfloat16", "float16", "int32", "int8"])
@pytest.mark.parametrize("shape", ["0d", "0d_self_1d_index", "1d"])
def test_scatter_reduce_mean_dtypes(shape, dtype, include_self):
    # fixed: bfloat16 (NumPy kind "V") took the integer floor-division path: mean(-7, 2) gave -3 (PyTorch -2.5)
    torch = torch_or_skip()
    x_value, i_value, s_value = {"0d": (-7, 0, 2), "0d_self_1d_index": (7, [0], [-2]),
                                 "1d": ([-7, 3, 5], [0, 2, 0, 0], [2, -9, 4, 1])}[shape]
    outs = []
    for mod in (minigrad, torch):
        dt = getattr(mod, dtype)
        x, src = mod.tensor(x_value, dtype=dt), mod.tensor(s_value, dtype=dt)
        index = mod.tensor(i_value, dtype=mod.int32)
        outs.append(x.scatter_reduce(0, index, src, "mean", include_self=include_self))
    assert str(outs[0].dtype) == str(outs[1].dtype)
    assert outs[0].tolist() == outs[1].tolist()


def test_scatter_reduce_bfloat16_mean_value():
    # fixed: the 0-d bfloat16 mean of -7 and 2 is -2.5, not the floor -3
    x = minigrad.tensor(-7.0, dtype=minigrad.bfloat16)
    y = x.scatter_reduce(0, minigrad.tensor(0, dtype=minigrad.int32), minigrad.tensor(2.0, dtype=minigrad.bfloat16),
                         "mean")
    assert y.item() == -2.5


@pytest.mark.parametrize("case", ["scatter_add", "scatter", "gather"])
def test_zero_dim_self_with_1d_index(case):
    # fixed: PyTorch's scatter_shape_check counts a 0-d self/src as size 1 (ensure_nonempty_size)
    torch = torch_or_skip()
    outs = []
    for mod in (minigrad, torch):
        x, index, src = mod.tensor(2.5), mod.tensor([0]), mod.tensor(1.5)
        outs.append(x.gather(0, index) if case == "gather" else getattr(x, case)(0, index, src))
    assert tuple(outs[0].shape) == tuple(outs[1].shape)
    assert_close(outs[0], outs[1])


@pytest.mark.parametrize("make", ["empty0", "empty0x3", "tensor_list", "sliced"])
def test_storage_data_ptr_of_empty(make):
    # fixed: an empty storage's data_ptr() is 0 in PyTorch (a storage with bytes, even under an empty view, is not)
    torch = torch_or_skip()
    ptrs = []
    for mod in (minigrad, torch):
        t = {"empty0": (mod.empty, 0), "empty0x3": (mod.empty, 0, 3), "tensor_list": (mod.tensor, []),
             "sliced": (mod.ones, 3)}[make]
        t = t[0](*t[1:])[3:] if make == "sliced" else t[0](*t[1:])
        ptrs.append((t.untyped_storage().data_ptr() == 0, t.data_ptr() == 0, t.untyped_storage().nbytes()))
    assert ptrs[0] == ptrs[1]


def test_typed_storage_data_ptr_of_empty():
    with pytest.warns(UserWarning):
        minigrad._warn_once._WARNED.discard("TypedStorage")
        assert minigrad.empty(0).storage().data_ptr() == 0
    assert minigrad.ones(2).storage().data_ptr() != 0


@pytest.mark.parametrize("x_dtype,q_dtype", [("int64", "float64"), ("int32", "float32"), ("uint8", "float32"),
                                             ("float64", "float32"), ("float32", "float64")])
def test_zeta_grad_in_q(x_dtype, q_dtype):
    # fixed: with an integer x, dζ/dq = -x·ζ(x + 1, q) computed ζ(x + 1, q) in x's integer dtype (-2 for -2.4041)
    torch = torch_or_skip()
    outs = []
    for mod in (minigrad, torch):
        x = mod.tensor([2, 3, 5], dtype=getattr(mod, x_dtype))
        q = mod.tensor([1.0, 0.5, 2.25], dtype=getattr(mod, q_dtype), requires_grad=True)
        g, = mod.autograd.grad(mod.special.zeta(x, q).sum(), q, create_graph=True)
        gg, = mod.autograd.grad(g.sum(), q)
        outs.append((g, gg))
    for a, b in zip(outs[0], outs[1]):
        assert str(a.dtype) == str(b.dtype)
        assert_close(a, b, rtol=1e-6, atol=0)


def test_zeta_integer_x_grad_value():
    # fixed: the same, without torch: -2·ζ(3, 1) = -2·1.2020569...
    q = minigrad.tensor([1.0], dtype=minigrad.float64, requires_grad=True)
    g, = minigrad.autograd.grad(minigrad.special.zeta(minigrad.tensor([2]), q).sum(), q)
    np.testing.assert_allclose(g.tolist(), [-2 * 1.2020569031595942], rtol=1e-12)


@pytest.mark.parametrize("p,dim,maxnorm", list(itertools.product([1, 2], [0, 1], [1.0, 2.0])))
def test_renorm_complex_backward(p, dim, maxnorm):
    # checked (already matched): renorm's backward on complex input
    torch = torch_or_skip()
    outs = []
    for mod in (minigrad, torch):
        c = mod.tensor([[1 + 2j, 3 - 1j], [0.5 + 0.5j, -2 + 1j]], requires_grad=True)
        r = c.renorm(p, dim, maxnorm)
        g, = mod.autograd.grad(r.abs().sum(), c)
        outs.append((r, g))
    for a, b in zip(outs[0], outs[1]):
        assert_close(a, b, rtol=1e-5, atol=1e-7)
