"""Views, indexing and in-place writes through views, checked against PyTorch.

Memory sharing and version counters are checked on minigrad alone; grad_fn chains, ``_saved_*``
values, gradients and error messages are compared with real PyTorch (skipped when it is absent).
"""
from __future__ import annotations

import numpy as np
import pytest

import minigrad
from tests.parity import assert_close, torch_or_skip

RNG = np.random.default_rng(0)
A = RNG.standard_normal((3, 4, 5))
M = RNG.standard_normal((3, 4))
V = RNG.standard_normal(4)


def _name(fn) -> str:
    return fn.name().replace("torch::autograd::", "")


def _chain(fn):
    """The graph below ``fn`` as nested (name, sorted _saved_* names, children) tuples."""
    if fn is None:
        return None
    if _name(fn) == "AccumulateGrad":
        return "leaf"
    saved = tuple(sorted(a for a in dir(fn) if a.startswith("_saved_")))
    return (_name(fn), saved, tuple(_chain(n) for n, _ in fn.next_functions))


def _plain(v):
    """A saved value in comparable form: tensors by shape and dtype name."""
    if hasattr(v, "shape") and hasattr(v, "dtype"):
        return ("tensor", tuple(v.shape), str(v.dtype).replace("torch.", ""))
    if isinstance(v, (list, tuple)):
        return tuple(_plain(i) for i in v)
    return v


def _saved_values(fn) -> dict:
    return {a: _plain(getattr(fn, a)) for a in dir(fn) if a.startswith("_saved_")}


def _run(mod, program, arrays):
    """Run ``program(T, *leaves)`` with T = mod; return values, graph, saved values and leaf gradients."""
    leaves = [mod.tensor(a, requires_grad=True) for a in arrays]
    out = program(mod, *leaves)
    outs = out if isinstance(out, tuple) else (out,)
    graphs = [_chain(o.grad_fn) for o in outs]
    saved = [_saved_values(o.grad_fn) if o.grad_fn is not None else None for o in outs]
    loss = sum((o * mod.tensor(np.linspace(-1, 1, o.numel()).reshape(tuple(o.shape)))).sum() for o in outs)
    grads = mod.autograd.grad(loss, leaves, allow_unused=True)
    return [o.detach().numpy().copy() for o in outs], graphs, saved, [None if g is None else g.numpy() for g in grads]


def _compare(program, arrays):
    torch = torch_or_skip()
    mv, mg, ms, mgr = _run(minigrad, program, arrays)
    tv, tg, ts, tgr = _run(torch, program, arrays)
    for a, b in zip(mv, tv):
        np.testing.assert_allclose(a, b, rtol=1e-12)
    assert mg == tg
    assert ms == ts
    for a, b in zip(mgr, tgr):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=1e-12)


# ---- reading: tensor[index] ----------------------------------------------------------------------

GETITEM = {
    "int": lambda x: x[0], "negative int": lambda x: x[-1], "two ints": lambda x: x[0, 1],
    "three ints": lambda x: x[0, 1, 2], "slice": lambda x: x[:, 0:2], "step": lambda x: x[::2],
    "negative stop": lambda x: x[1:-1], "negative start": lambda x: x[-2:], "lone colon": lambda x: x[:],
    "ellipsis": lambda x: x[...], "colons": lambda x: x[:, :], "None": lambda x: x[None],
    "ellipsis None": lambda x: x[..., None], "ellipsis int": lambda x: x[..., 0],
    "int ellipsis int": lambda x: x[0, ..., 1], "None in middle": lambda x: x[:, None, 1],
    "list": lambda x: x[[0, 1]],
    "two lists": lambda x: x[[0, 2], [1, 3]],
    "colon list": lambda x: x[:, [0, 2]],
    "bool mask": lambda x: x[x > 0], "row mask": lambda x: x[x.sum((1, 2)) > 0],
    "2-d mask": lambda x: x[x[:, :, 0] > 0], "int list": lambda x: x[0, [1, 2]],
    "list int": lambda x: x[[1, 2], 0], "separated lists": lambda x: x[[0, 1], :, [1, 2]],
    "nested list": lambda x: x[[[0, 1], [1, 2]]], "slice list": lambda x: x[1:3, [0, 0]],
    "None list": lambda x: x[None, [0]], "ellipsis list": lambda x: x[..., [0, 1]],
    "True": lambda x: x[True], "False": lambda x: x[False], "empty slice": lambda x: x[2:1],
    "big stop": lambda x: x[1:100],
    "np.int64": lambda x: x[np.int64(1)],
    "0-dim ellipsis": lambda x: x.sum()[...],
    "0-dim None": lambda x: x.sum()[None],
}


@pytest.mark.parametrize("name", list(GETITEM))
def test_getitem_matches_torch(name):
    """Values, grad_fn chain (SelectBackward0 over SelectBackward0 ...), _saved_* values and gradients."""
    _compare(lambda T, x: GETITEM[name](x), [A])


def test_getitem_with_tensor_indices_matches_torch():
    _compare(lambda T, x: x[T.tensor([2, 0])], [A])
    _compare(lambda T, x: x[T.tensor(1)], [A])
    _compare(lambda T, x: x[:, T.tensor([[0, 1], [2, 3]])], [A])


def test_basic_index_chains():
    x = minigrad.randn(3, 4, requires_grad=True)
    y = x[0, 1]
    assert y.grad_fn.name() == "SelectBackward0"
    assert y.grad_fn.next_functions[0][0].name() == "SelectBackward0"
    assert x[:, 0:2].grad_fn.name() == "SliceBackward0"
    assert x[[0, 1]].grad_fn.name() == "IndexBackward0"
    assert x[...].grad_fn.name() == "AliasBackward0"
    # PyTorch saves the raw (negative) values; its int64 getters read them as unsigned
    assert x[-1].grad_fn._saved_index == 2**64 - 1
    assert x[:-1].grad_fn._saved_end == 2**64 - 1
    assert x[1:].grad_fn._saved_end == 2**63 - 1
    assert x.unsqueeze(-1).grad_fn._saved_dim == 2**64 - 1


GETITEM_ERRORS = {
    "out of range": lambda x: x[3], "out of range negative": lambda x: x[-4], "second dim": lambda x: x[0, 4],
    "too many": lambda x: x[0, 0, 0, 0], "list out of range": lambda x: x[[0, 3]],
    "mask shape": lambda x: x[x[0] > 0], "step zero": lambda x: x[::0], "negative step": lambda x: x[::-1],
    "float": lambda x: x[1.0], "0-dim int": lambda x: x.sum()[0],
    "lists that do not broadcast": lambda x: x[[0, 1], [0, 1, 2]],
}


@pytest.mark.parametrize("name", list(GETITEM_ERRORS))
def test_getitem_errors_match_torch(name):
    torch = torch_or_skip()
    errors = []
    for mod in (minigrad, torch):
        with pytest.raises(Exception) as info:
            GETITEM_ERRORS[name](mod.tensor(A))
        errors.append((type(info.value), str(info.value).split("\n")[0]))
    assert errors[0] == errors[1]


# ---- writing: tensor[index] = value -------------------------------------------------------------

SETITEM = {
    "row": lambda y, v: y.__setitem__(0, v), "number": lambda y, v: y.__setitem__(1, 5.0),
    "element": lambda y, v: y.__setitem__((0, 1), v[0]),
    "column": lambda y, v: y.__setitem__((slice(None), 1), v[:3]),
    "lone colon": lambda y, v: y.__setitem__(slice(None), v),
    "ellipsis": lambda y, v: y.__setitem__(Ellipsis, v),
    "ellipsis number": lambda y, v: y.__setitem__(Ellipsis, 2.0),
    "rows broadcast": lambda y, v: y.__setitem__(slice(1, 3), v),
    "None": lambda y, v: y.__setitem__(None, v), "list": lambda y, v: y.__setitem__([0, 2], v),
    "two lists": lambda y, v: y.__setitem__(([0, 2], [1, 3]), v[:2]),
    "mask number": lambda y, v: y.__setitem__(y > 0, 0.0),
    "mask tensor": lambda y, v: y.__setitem__(y > 0, v.sum()),
    "int list": lambda y, v: y.__setitem__((0, [1, 2]), v[:2]),
    "colon list": lambda y, v: y.__setitem__((slice(None), [1, 2]), v[:2]),
    "slice list": lambda y, v: y.__setitem__((slice(1, None), [1, 2]), v[:2]),
    "leading ones": lambda y, v: y.__setitem__(0, v[None]), "True": lambda y, v: y.__setitem__(True, v),
    "False": lambda y, v: y.__setitem__(False, v),
    "repeated list": lambda y, v: y.__setitem__([0, 0], v[None].expand(2, 4)),
    "through a view": lambda y, v: y[0].__setitem__(1, v[2]),
    "through t()": lambda y, v: y.t().__setitem__(1, v[:3]),
}


@pytest.mark.parametrize("name", list(SETITEM))
def test_setitem_matches_torch(name):
    """CopySlices / CopyBackwards / FillBackward3 / IndexPutBackward0 graphs and the gradients they give."""
    def program(T, x, v):
        y = x * 1
        SETITEM[name](y, v)
        return y
    _compare(program, [M, V])


SETITEM_ERRORS = {
    "value too long": lambda y, v: y.__setitem__(0, v[:2]),
    "list value mismatch": lambda y, v: y.__setitem__([0], v[:2]),
    "index out of range": lambda y, v: y.__setitem__(5, v),
    "second dim": lambda y, v: y.__setitem__((0, 9), 1.0),
}


@pytest.mark.parametrize("name", list(SETITEM_ERRORS))
def test_setitem_errors_match_torch(name):
    torch = torch_or_skip()
    errors = []
    for mod in (minigrad, torch):
        y, v = mod.tensor(M), mod.tensor(V)
        with pytest.raises(Exception) as info:
            SETITEM_ERRORS[name](y, v)
        errors.append((type(info.value), str(info.value)))
    assert errors[0] == errors[1]


def test_setitem_converts_dtype_like_torch():
    x = minigrad.zeros(2, 3)
    x[0] = minigrad.ones(3, dtype=minigrad.float64)
    x[1] = 2
    assert x.dtype is minigrad.float32 and x.tolist() == [[1, 1, 1], [2, 2, 2]]
    i = minigrad.zeros(3, dtype=minigrad.long)
    i[0] = 1.7
    assert i.tolist() == [1, 0, 0]


# ---- views share memory and the version counter ---------------------------------------------------

VIEWS = {
    "view": lambda x: x.view(12),
    "reshape": lambda x: x.reshape(4, 3),
    "t": lambda x: x.t(),
    "T": lambda x: x.T,
    "mT": lambda x: x.mT, "transpose": lambda x: x.transpose(0, 1), "permute": lambda x: x.permute(1, 0),
    "unsqueeze": lambda x: x.unsqueeze(0), "squeeze": lambda x: x.unsqueeze(0).squeeze(0),
    "select": lambda x: x[1], "slice": lambda x: x[:, 1:3],
    "narrow": lambda x: x.narrow(1, 1, 2),
    "diagonal": lambda x: x.diagonal(),
    "split": lambda x: x.split(2, 1)[1],
    "chunk": lambda x: x.chunk(2)[0], "unbind": lambda x: x.unbind(1)[2], "alias": lambda x: x[...],
    "movedim": lambda x: x.movedim(0, 1), "flatten of contiguous": lambda x: x.flatten(),
}


@pytest.mark.parametrize("name", list(VIEWS))
def test_views_share_memory_and_version(name):
    base = minigrad.tensor(M)
    view = VIEWS[name](base)
    assert view._is_view() and view._base is base
    before = base._version
    view.mul_(2)  # writing through the view changes the base and bumps the shared counter
    assert base._version == view._version == before + 1
    changed = base.numpy() != M
    assert changed.any()
    base.add_(1)
    assert view._version == base._version


def test_view_of_view_points_at_the_root():
    base = minigrad.tensor(M)
    v = base[1:].t()[0]
    assert v._base is base


COPIES = {
    "flip": lambda x: x.flip(0), "repeat": lambda x: x.repeat(1, 1), "index": lambda x: x[[0, 1]],
    "gather": lambda x: x.gather(0, minigrad.tensor([[0, 1, 2, 0]])), "cat": lambda x: minigrad.cat([x]),
    "clone": lambda x: x.clone(), "reshape of non-contiguous": lambda x: x.t().reshape(12),
    "contiguous of transpose": lambda x: x.t().contiguous(),
    "index_select": lambda x: x.index_select(0, minigrad.tensor([0])),
}


@pytest.mark.parametrize("name", list(COPIES))
def test_copies_do_not_share_memory(name):
    base = minigrad.tensor(M)
    out = COPIES[name](base)
    assert not out._is_view()
    out.add_(1)
    np.testing.assert_array_equal(base.numpy(), M)


def test_view_created_in_no_grad_requires_grad_like_torch():
    x = minigrad.randn(3, requires_grad=True)
    with minigrad.no_grad():
        v = x[:2]
    assert v.requires_grad and v.is_leaf and v._base is x


# ---- in-place changes through views: gradients and graphs -------------------------------------------

def _inplace_on_row(T, x, v):
    y = x * 1
    y[0].mul_(v)
    return y


def _inplace_on_columns(T, x, v):
    y = x * 1
    y[:, 1:3].add_(v[:2])
    return y


def _exp_of_row(T, x, v):
    y = x * 1
    y[1].exp_()
    return y * v


def _flat_view(T, x, v):
    y = x * 1
    y.view(-1)[2:5].mul_(3)
    return y


def _diagonal_zero(T, x, v):
    y = x * 1
    y.diagonal().zero_()
    return y


def _view_used_after(T, x, v):
    y = x * 1
    w = y[1]
    w.mul_(v)
    return w * 2, y


def _base_changed_then_view(T, x, v):
    y = x * 1
    w = y[1]
    y.mul_(2)
    return w, y


def _two_views(T, x, v):
    y = x * 1
    a = y[:, 0]
    b = y[1]
    a.mul_(3)
    b.add_(v)
    return a, b, y


def _masked_fill_inplace(T, x, v):
    y = x * 1
    y.masked_fill_(y > 0, v.sum())
    return y


@pytest.mark.parametrize("program", [_inplace_on_row, _inplace_on_columns, _exp_of_row, _flat_view, _diagonal_zero,
                                     _view_used_after, _base_changed_then_view, _two_views, _masked_fill_inplace],
                         ids=lambda f: f.__name__.strip("_"))
def test_inplace_through_views_matches_torch(program):
    """CopySlices on the base, AsStridedBackward0 for views read afterwards, and the gradients."""
    _compare(program, [M, V])


def test_inplace_through_view_double_backward():
    x = minigrad.tensor(M, requires_grad=True)
    y = x * 1
    y[1].mul_(x[0])
    (g,) = minigrad.autograd.grad(y.pow(2).sum(), x, create_graph=True)
    (gg,) = minigrad.autograd.grad(g.sum(), x)
    torch = torch_or_skip()
    tx = torch.tensor(M, requires_grad=True)
    ty = tx * 1
    ty[1].mul_(tx[0])
    (tg,) = torch.autograd.grad(ty.pow(2).sum(), tx, create_graph=True)
    (tgg,) = torch.autograd.grad(tg.sum(), tx)
    assert_close(g, tg, rtol=1e-12)
    assert_close(gg, tgg, rtol=1e-12)


def test_saved_view_modified_in_place_is_an_error_like_torch():
    torch = torch_or_skip()
    errors = []
    for mod in (minigrad, torch):
        x = mod.tensor(M, requires_grad=True)
        y = x * 1
        y[1].mul_(y[0])  # y[0] is saved by the mul, then the base it views is changed
        with pytest.raises(RuntimeError) as info:
            mod.autograd.grad(y.sum(), x)
        errors.append(str(info.value).replace("Float", "Double"))
    assert errors[0] == errors[1]


def test_copyslices_names():
    x = minigrad.randn(3, requires_grad=True)
    y = x * 1
    y[0] = 2
    assert type(y.grad_fn).__name__ == "CopySlices"
    assert y.grad_fn.name() == "torch::autograd::CopySlices"
    assert "grad_fn=<CopySlices>" in repr(y)
    z = (x * 1).copy_(x)
    assert z.grad_fn.name() == "torch::autograd::CopyBackwards" and "grad_fn=<CopyBackwards>" in repr(z)


# ---- PyTorch's errors for in-place changes it cannot track --------------------------------------------

INPLACE_ERRORS = {
    "leaf": "x = T.randn(4, requires_grad=True)\nx.mul_(2)",
    "view of leaf": "x = T.randn(4, requires_grad=True)\nx[0].mul_(2)",
    "setitem on leaf": "x = T.randn(4, requires_grad=True)\nx[0] = 1",
    "split output": "x = T.randn(4, requires_grad=True).clone()\na, b = x.split(2)\na.mul_(2)",
    "split of leaf": "x = T.randn(4, requires_grad=True)\na, b = x.split(2)\na.mul_(2)",
    "unbind output": "x = T.randn(4, requires_grad=True).clone()\nx.unbind()[1].mul_(2)",
    "view of split output": "x = T.randn(4, requires_grad=True).clone()\nx.split(2)[0][0].mul_(2)",
    "split output after base changed": "x = T.randn(4, requires_grad=True).clone()\na, b = x.split(2)\n"
                                       "x.mul_(2)\na.grad_fn",
    "no_grad view": "x = T.randn(4, requires_grad=True) * 1\nwith T.no_grad():\n    v = x[:2]\nv.mul_(2)",
    "no_grad view of plain tensor": "y = T.randn(2, requires_grad=True)\nz = T.randn(4)\nwith T.no_grad():\n"
                                    "    v = z[:2]\nv.mul_(y)",
    "no_grad view after base changed": "x = T.randn(4, requires_grad=True) * 1\nwith T.no_grad():\n    v = x[:2]\n"
                                       "x.mul_(2)\nv.grad_fn",
}


@pytest.mark.parametrize("name", list(INPLACE_ERRORS))
def test_inplace_errors_match_torch(name):
    torch = torch_or_skip()
    errors = []
    for mod in (minigrad, torch):
        with pytest.raises(RuntimeError) as info:
            exec(INPLACE_ERRORS[name], {"T": mod})
        errors.append(str(info.value))
    assert errors[0] == errors[1]


def test_invalid_view_prints_like_torch():
    torch = torch_or_skip()
    reprs = []
    for mod in (minigrad, torch):
        mod.manual_seed(0)
        w = mod.tensor([1.0, 2.0, 3.0], requires_grad=True)
        with mod.no_grad():
            v = w[:2]
            w.add_(1)
        reprs.append(repr(v))
    assert reprs[0] == reprs[1] == "tensor([2., 3.], grad_fn=<Invalid>)"


def test_inplace_allowed_in_no_grad_and_tracked_afterwards():
    x = minigrad.tensor(M, requires_grad=True)
    y = x * 1
    a = y[:2]
    with minigrad.no_grad():
        a.mul_(2)
    assert a.grad_fn.name() == "AsStridedBackward0"
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.ones_like(M))
