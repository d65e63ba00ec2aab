"""Regressions of differences the graph fuzzer (tests/fuzz_graphs.py: tensor family, ``_Gen.s14``, and the nn family)
found in session 20.

Each program prints what a user sees (values, layouts, graphs, saved attributes, errors) and runs once with minigrad and
once with PyTorch (``parity.same_as_torch``); each is a short explicit form of the seed that found it.
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

PROGRAMS = {
    # fixed: cumprod's create_graph backward (inputs with a zero) took narrow()s where PyTorch's cumprod_backward
    # takes x.slice(dim, k) with no end: its SliceBackward0 nodes save end None, not the dim's size (seed 190232)
    "cumprod_double_backward_slices_without_end": """
def slices(root):
    order, seen, queue = [], set(), [root]
    while queue:
        n = queue.pop(0)
        if n is None or n in seen:
            continue
        seen.add(n)
        if n.name() in ("SliceBackward0", "SliceBackwardBackward0"):
            order.append((n.name(), n._saved_dim, n._saved_start, n._saved_end, n._saved_step))
        queue += [m for m, _ in n.next_functions]
    return order
for x in (torch.tensor([[0., 0.98], [1.09, 0.88]], requires_grad=True),
          torch.tensor([[2., 0., 3.], [0.5, 0.25, 0.]], dtype=torch.float64, requires_grad=True)):
    for dim in (0, -1):
        g, = torch.autograd.grad(x.cumprod(dim).sum(), x, create_graph=True)
        g2, = torch.autograd.grad((g * g).sum(), x, create_graph=True)
        print(g.tolist(), g2.tolist())
        print(slices(g.grad_fn))
        print(slices(g2.grad_fn))
""",
    # fixed: mvlgamma took TensorIterator's layout from its input (an elementwise row) where PyTorch's composite
    # ends in a sum over the p shifts, a reduction whose result is C-ordered whatever the input's strides
    # (seed 190312); the float64 sum added the constant first and the terms the other way round, and from p = 5 on
    # (a float32 one too) not in PyTorch's sum-kernel order: the last bits differed
    "mvlgamma_result_is_c_ordered": """
b = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
for dtype in (torch.float32, torch.float64, torch.float16):
    x = b.to(dtype).t().abs() + 2
    for p in (1, 2, 3, 5, 9):
        r = torch.mvlgamma(x, p)
        print(dtype, p, r.stride(), r.is_contiguous(), r.tolist())
x = (b.double().t() + 2).requires_grad_()
r = torch.mvlgamma(x, 2)
r.sum().backward()
print(r.stride(), x.grad.stride(), x.grad.tolist())
""",
    # fixed: x[index_tensor, ...] = value checked the value's shape and dtype before autograd's refusal of the write
    # (a leaf, a view of a leaf, a view made under no_grad or by unbind); PyTorch's _index_put_impl_ refuses the
    # write first and checks shapes and dtypes in its kernel (seed 190885)
    "setitem_autograd_refusal_before_shape_and_dtype": """
a = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
i = torch.tensor([0])
c = torch.tensor([[7., 8.]], dtype=torch.float64)
def s(t, idx, v):
    t[idx] = v
for t in (a, a.t(), a[0]):
    E(lambda: s(t, (i, slice(1, None)), c))
    E(lambda: s(t, i, c))
    E(lambda: s(t, t > 2, torch.tensor([1., 2.], dtype=torch.float64)))
    E(lambda: s(t, (t > 2).to(torch.uint8), torch.tensor([1., 2.])))
with torch.no_grad():
    v = (a * 1)[0]
E(lambda: s(v, i, torch.tensor([1., 2], requires_grad=True)))
E(lambda: s(v, i, torch.tensor([1.], dtype=torch.float64, requires_grad=True)))
E(lambda: s(v, i, torch.tensor([1., 2])))
w = (a * 1).unbind(0)[0]
E(lambda: s(w, i, torch.tensor([1., 2.])))
E(lambda: s(w, i, torch.tensor([1.], dtype=torch.float64)))
with torch.no_grad():
    E(lambda: s(a, i, torch.tensor([1., 2.])))
    E(lambda: s(a, i, torch.tensor([1.], dtype=torch.float64)))
""",
    # fixed: isclose read no operand's grad_fn; PyTorch's composite records rtol * other and input - other, which
    # read them, so a view that may not be changed in place (an output of split whose base was written under
    # no_grad) is refused, unless both tolerances are 0 (input == other only) or grad mode is off; allclose runs
    # below autograd and reads none (seed 191818)
    "isclose_reads_the_operands_grad_fns": """
def mk():
    x = torch.tensor([1., 2., 3.], requires_grad=True) * 1
    v = x.split_with_sizes([2, 1])[1]
    w = v.unsqueeze(-1)
    with torch.no_grad():
        v.add_(0.5)
    return w
plain = torch.tensor([[3.5]])
E(lambda: print(torch.isclose(mk(), mk())))
E(lambda: print(torch.isclose(mk(), plain)))
E(lambda: print(plain.isclose(mk())))
E(lambda: print(torch.isclose(mk(), mk(), rtol=0, atol=0)))
E(lambda: print(torch.isclose(mk(), plain, rtol=0, atol=0, equal_nan=True)))
E(lambda: print(torch.isclose(mk(), plain, rtol=0, atol=1e-3)))
E(lambda: print(torch.allclose(mk(), plain)))
E(lambda: print(torch.isclose(mk(), plain.double())))
E(lambda: print(torch.isclose(mk(), torch.ones(2, 2))))
with torch.no_grad():
    E(lambda: print(torch.isclose(mk(), plain)))
""",
    # fixed: a non-reentrant checkpoint's recomputation unpacked its saved inputs as a node's _saved_* attribute
    # does (an input detached in place since came back without grad, the recomputation saved nothing: "A different
    # number of tensors was saved"); PyTorch's SavedTensor.unpack() has no node to fall back on and refuses the
    # detached input, in backward and when a _saved_* attribute is read (seed 194094)
    "checkpoint_refuses_an_input_detached_in_place": """
import torch.utils.checkpoint
def f(t):
    return (t.abs() + 1).log() * t
for make in (lambda b: torch.einsum('ijk->', b), lambda b: b * 2):
    b = torch.tensor([[[0.5, 1.5]]], requires_grad=True)
    v0 = make(b)
    y = torch.utils.checkpoint.checkpoint(f, v0, use_reentrant=False)
    s = v0.sin()
    v0.detach_()
    E(lambda: (s * 2 + v0).sum().backward(retain_graph=True))
    E(lambda: y.grad_fn._saved_other)
    E(lambda: y.grad_fn._saved_self)
    E(lambda: y.sum().backward())
    print(b.grad)
b = torch.tensor([0.5, 1.5], requires_grad=True)
v0 = b * 2
y = torch.utils.checkpoint.checkpoint(f, v0, use_reentrant=False)
with torch.no_grad():
    v0.mul_(2)
E(lambda: y.sum().backward())
""",
    # fixed: the first gradient of an empty leaf always took the leaf's strides; PyTorch's AccumulateGrad keeps the
    # gradient itself when it obeys the layout contract (strides equal on the dims of size != 1, no stride 0 on a
    # size-1 dim), so a (1, 0) leaf made from NumPy (strides (0, 0)) keeps sum(-1)'s expanded gradient (1, 0), and
    # the second backward's accumulation then warns about the layout contract or not as PyTorch's (seed 195360)
    "empty_leaf_gradient_layout": """
import numpy as np
import warnings
makers = [lambda: torch.zeros(1, 0), lambda: torch.tensor(np.zeros((1, 0))), lambda: torch.zeros(2, 0, 3),
          lambda: torch.tensor(np.zeros((2, 0, 3))), lambda: torch.zeros(3, 0).t(), lambda: torch.zeros(0, 2, 1)]
paths = [lambda v: v.sum(), lambda v: (v.sum(-1, keepdim=True) * 1).sum(), lambda v: (v * 2).sum(),
         lambda v: v.t().sum() if v.dim() == 2 else v.transpose(0, 2).exp().sum(), lambda v: v.clone().sum()]
for mk in makers:
    for f in paths:
        x = mk().requires_grad_()
        f(x).backward()
        print(x.stride(), x.grad.stride(), x.grad._version, end=" | ")
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            f(x).backward()
        print(x.grad.stride(), x.grad._version, len(w))
""",
    # fixed: x[i] = v and x[i] on a 0-dim tensor refused every int with "invalid index of a 0-dim tensor"; PyTorch's
    # applySelect refuses index 0 only, and another int reaches select's bounds check (seed 195486)
    "zero_dim_int_index_errors": """
x = torch.tensor(3.)
def s(t, i, v):
    t[i] = v
for i in (0, -1, 1, 5, -2, slice(None), (0,), [-1]):
    E(lambda: x[i])
    E(lambda: s(x, i, 1.0))
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    same_as_torch(PROGRAMS[name])
