"""The change of #8 round 27 (bench/PROFILE.md): save programs.

``Op._save`` follows a program made once per mask of inputs that require grad (``Op._save_program``) instead of
walking the whole save plan per call: it must save what the plan walk saved (the same values, unset entries and
kinds of object), for every op and mask met. Parity tests compare with PyTorch what the saved entries show: pack
hooks' order, saved values and versions, anomaly mode and no_grad.
"""
from __future__ import annotations

import numpy as np
from parity import same_as_torch

import minigrad
from minigrad import _dispatch, derivatives

_OPS = [op for op in vars(derivatives).values() if isinstance(op, _dispatch.Op)]


def _value(v):
    """A saved value or gradient as plain data."""
    if isinstance(v, minigrad.Tensor):
        return ("tensor", v._data.dtype.str, v._data.shape, v._data.tobytes(), v.requires_grad, v._version,
                type(v.grad_fn).__name__)
    if isinstance(v, tuple):
        return tuple(_value(x) for x in v)
    return v


def _programs():
    """(name, function) pairs: each builds a graph, returns its root and the leaves."""
    rng = np.random.default_rng(27)

    def leaf(*shape, dtype=np.float32, grad=True):
        return minigrad.from_numpy(rng.standard_normal(shape).astype(dtype)).requires_grad_(grad)

    def w4():
        x, y = leaf(10, 2, grad=False), leaf(10, 1, grad=False)
        ps = [leaf(2, 8), leaf(8), leaf(8, 8), leaf(8), leaf(8, 1), leaf(1)]
        h = (x.matmul(ps[0]) + ps[1]).tanh()
        h = (h.matmul(ps[2]) + ps[3]).tanh()
        return ((h.matmul(ps[4]) + ps[5] - y) ** 2).mean(), ps

    def broadcast_promote():
        a, b, c = leaf(4, 1), leaf(1, 4, dtype=np.float64), leaf(4, 4)
        return ((a + b) * c - a / b).sum(), [a, b, c]

    def partly_requiring():
        a, b = leaf(3, 3), leaf(3, 3, grad=False)
        m = leaf(3, 2, grad=False)
        return ((a * b).mm(m) + b.mm(m)).exp().sum() + (b * a).pow(3).mean(), [a]

    def views_as_inputs():
        a = leaf(4, 6)
        v = a[1:3].t()
        w = a.view(6, 4)[2:4]
        return (v.tanh() * 2).sum() + (w * w.sigmoid()).sum() + (a.t()[0] + a[:, 0][:4]).sum(), [a]

    def numbers_and_int_args():
        a, b = leaf(5), leaf(5)
        return (a.clamp(-0.5, 0.5) * 3 + a.pow(2) - b.clamp_min(0.1).log()).sum() + minigrad.where(
            a > 0, a, b).sum(), [a, b]

    return [("w4", w4), ("broadcast_promote", broadcast_promote), ("partly_requiring", partly_requiring),
            ("views_as_inputs", views_as_inputs), ("numbers_and_int_args", numbers_and_int_args)]


def test_saved_tensor_hooks_see_the_saved_order_equal_pytorch():
    # pack hooks see the saved tensors in PyTorch's order; gradients computed from unpacked tensors of another
    # dtype are cast back by the engine (no _grads_fit skip under hooks)
    same_as_torch("""
x = torch.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
w = torch.tensor([[1.5, -2.0], [0.5, 3.0]], requires_grad=True)
seen = []
def pack(t):
    seen.append((tuple(t.shape), t.dtype))
    return t.double()
with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
    y = ((x * w).tanh() * x).sum()
print(seen)
y.backward()
print(x.grad.dtype, x.grad.tolist(), w.grad.dtype, w.grad.tolist())
""")


def test_saved_values_and_versions_equal_pytorch():
    same_as_torch("""
a = torch.tensor([[0.5, -1.0, 2.0]], requires_grad=True)
b = torch.tensor([[1.5], [-2.0]], dtype=torch.float64, requires_grad=True)
c = a * 1.0
y = c * b
print(y.grad_fn.name(), y.grad_fn._saved_self.tolist(), y.grad_fn._saved_other.tolist())
print(y.grad_fn.next_functions[0][0].name(), y.grad_fn.next_functions[1][0].name())
t = a.tanh()
print(t.grad_fn._saved_result.tolist(), t.grad_fn._saved_result.grad_fn.name())
m = a.t().mm(a)
print(m.grad_fn._saved_self_sym_sizes, m.grad_fn._saved_mat2_sym_strides, m.grad_fn._saved_self_sym_strides)
c.mul_(2)
E(lambda: y.sum().backward())
t.sum().backward(retain_graph=True)
print(a.grad.tolist())
E(lambda: t.grad_fn._saved_result)
m.sum().backward()
print(a.grad.tolist())
E(lambda: m.grad_fn._saved_self)
""")


def test_anomaly_mode_and_no_grad_equal_pytorch():
    same_as_torch("""
x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = (x * x).sqrt()
    z = (y - x).sum()
z.backward()
print(x.grad.tolist())
with torch.no_grad():
    u = x * 2 + 1
print(u.requires_grad, u.grad_fn)
v = x.detach() * 2
print(v.requires_grad, v.grad_fn)
d = torch.tensor([2.0, 3.0, 4.0], requires_grad=True)
i = (d * 2).long() if False else (d > 2.5)
print(i.requires_grad, i.grad_fn)
""")


def _plan_walk(op, tensors, outs, args, mask):
    """``Op._save`` as it was before the round: the whole save plan walked per call."""
    saved = []
    for name, kind, index, unset, users in op.save_plan:
        if not mask & users:
            saved.append(unset)
        elif kind is _dispatch._ARG:
            value = args[name]
            saved.append(_dispatch.SavedTensor(value) if name in op.checked_args and isinstance(value, minigrad.Tensor)
                         else value)
        elif kind is _dispatch._INPUT:
            t = tensors[index]
            if isinstance(t, minigrad.Tensor):
                saved.append(_dispatch.SavedTensor(t) if t._wrapped_number is None else t._wrapped_number)
            else:
                saved.append(t)
        elif kind is _dispatch._OUTPUT:
            saved.append(_dispatch.SavedTensor(outs[index], is_output=True))
        elif kind is _dispatch._NONDIFF_OUTPUT:
            saved.append(_dispatch.SavedTensor(outs[index]))
        elif kind is _dispatch._OPTIONAL:
            t = tensors[index]
            saved.append(_dispatch.SavedTensor.undefined() if type(t._data) is _dispatch.Absent
                         else _dispatch.SavedTensor(t))
        else:
            saved.append(kind(tensors[index]))
    return tuple(saved)


def _saved_shape(value):
    """What a saved entry is: a SavedTensor by what it holds, anything else as it is."""
    if type(value) is _dispatch.SavedTensor:
        return ("SavedTensor", id(value._tensor), id(value._data), value._is_output, value._saved_version,
                value._output_nr, value._requires_grad)
    return value


def test_save_programs_save_what_the_plan_walk_saved(monkeypatch):
    checked = []
    save = _dispatch.Op._save

    def both(op, tensors, outs, args, mask):
        got = save(op, tensors, outs, args, mask)
        assert tuple(map(_saved_shape, got)) == tuple(map(_saved_shape, _plan_walk(op, tensors, outs, args, mask)))
        checked.append((op.name, mask))
        return got
    monkeypatch.setattr(_dispatch.Op, "_save", both)
    for _, program in _programs():
        root, _leaves = program()
        root.backward()
    a = minigrad.ones(2, 3, requires_grad=True)
    b = minigrad.ones(2, 3)
    w = minigrad.ones(3, 2, requires_grad=True)
    c = minigrad.ones(2, 3).requires_grad_()
    outs = [a * b, b * a, a * c, b.mm(w), a.mm(w), a.t().mm(b), a.max(dim=1)[0], minigrad.cat([a, b]),
            minigrad.nn.functional.mse_loss(a, b), minigrad.nn.functional.binary_cross_entropy(a.sigmoid(), b * 0.5),
            minigrad.nn.functional.embedding_bag(minigrad.tensor([0, 1, 1]), w, minigrad.tensor([0, 2]),
                                                 mode="sum"),
            a.clamp(min=b), a.sum(dim=0, keepdim=True), a.var(dim=1), a.pow(b), a.sub(b, alpha=2), a * 2.5]
    sum(o.sum() for o in outs).backward()
    names = {n for n, _ in checked}
    assert {"mm", "mul", "max", "cat", "mse_loss", "binary_cross_entropy", "_embedding_bag", "pow", "sub"} <= names
    assert {m for n, m in checked if n == "mm"} == {1, 2, 3}   # (every mask of the product, besides no grad)
    assert {m for n, m in checked if n == "mul"} >= {1, 2, 3}


def test_save_programs_made_once_per_mask():
    op = derivatives.mm
    op.save_programs.clear()
    a, w = minigrad.ones(2, 3), minigrad.ones(3, 2, requires_grad=True)
    for _ in range(3):
        a.mm(w)
        w.t().mm(w)
    assert sorted(op.save_programs) == [2, 3]
    template, fills = op.save_programs[2]
    # (mask 2, only mat2 requires grad: self and its strides are saved for mat2's gradient, mat2 itself is not)
    assert [op.save_plan[i][0] for i, *_ in fills] == ["mat2_sym_sizes", "mat2_sym_strides", "self", "self_sym_sizes"]
    assert template == (None, None, None, None, None, ())
