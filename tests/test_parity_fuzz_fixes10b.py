"""Regressions of differences the graph fuzzer (tests/fuzz_graphs.py, tensor family) found in session 10 (second wave).

Each program prints what a user sees (values, versions, graph node names, errors) and runs once with minigrad and
once with PyTorch (``parity.same_as_torch``); each is a short explicit form of the fuzz seed that found the bug.
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

# Helpers every program may use: the node names of a graph, depth first; which nodes a backward runs, in order.
HELPERS = """
def walk(n, out=None, depth=0):
    out = [] if out is None else out
    if n is not None and depth < 12:
        out.append(type(n).__name__)
        for m, _ in n.next_functions:
            walk(m, out, depth + 1)
    return out

def trace(root, ran):
    seen, stack = set(), [root]
    while stack:
        n = stack.pop()
        if n is None or n in seen:
            continue
        seen.add(n)
        n.register_prehook(lambda g, name=type(n).__name__: ran.append(name))
        stack.extend(m for m, _ in n.next_functions)
"""

PROGRAMS = {
    # fixed: log_ndtr's backward builds the exp factor before grad / sqrt(2 pi) (C++ evaluates the operands of *
    # right to left), so the nodes get PyTorch's sequence numbers: a second backward runs them (and frees their
    # saved tensors) in PyTorch's order, which shows when it stops at an error (seed 110041)
    "log_ndtr_double_backward_order": """
a = torch.tensor([0.13, -0.4], requires_grad=True)
v0 = torch.special.log_ndtr(a)
v1 = torch.nn.functional.hardsigmoid(v0)
G = torch.autograd.grad(v1.sum(), [a], create_graph=True)
print(walk(G[0].grad_fn), G[0])
ran = []
trace(G[0].grad_fn, ran)
try:
    (G[0] * G[0]).sum().backward()
except RuntimeError as e:
    print(e)
print(ran)
exp = G[0].grad_fn.next_functions[1][0]
try:
    print(type(exp).__name__, exp._saved_result)
except RuntimeError as e:
    print("freed", str(e)[:40])
b = torch.tensor([0.3, -1.2], dtype=torch.float64, requires_grad=True)
G = torch.autograd.grad(torch.special.log_ndtr(b).sum(), [b], create_graph=True)
ran = []
trace(G[0].grad_fn, ran)
G[0].sum().backward()
print(ran, b.grad)
# (ndtri's backward had the same order: exp factor first)
a = torch.tensor([0.13, 0.4], requires_grad=True)
G = torch.autograd.grad(torch.nn.functional.hardsigmoid(torch.special.ndtri(a)).sum(), [a], create_graph=True)
ran = []
trace(G[0].grad_fn, ran)
try:
    (G[0] * G[0]).sum().backward()
except RuntimeError as e:
    print(e)
print(walk(G[0].grad_fn), ran)
""",
    # fixed: amax/amin over all dims (dim=()) reshape the gradient to its own shape (PyTorch's
    # restore_reduced_dims), a ViewBackward0 under create_graph; a 0-dim input over dim 0 gets a (1,) gradient
    # that the engine sums back (seed 8344)
    "amax_amin_all_dims_view": """
for c in (torch.tensor(2.0, requires_grad=True), torch.tensor([2.0, 1.0, 2.0], requires_grad=True),
          torch.tensor([[2.0, 1.0]], dtype=torch.float64, requires_grad=True)):
    for f in (lambda c: torch.amin(c), lambda c: torch.amax(c, ()), lambda c: c.amin(keepdim=True),
              lambda c: c.amax(0), lambda c: c.amin(-1, keepdim=True)):
        y = f(c)
        G = torch.autograd.grad((y * y).sum(), [c], create_graph=True)
        print(tuple(c.shape), walk(G[0].grad_fn), G[0])
b = torch.tensor(0.54, requires_grad=True)
c = torch.tensor(1.13, dtype=torch.float64, requires_grad=True)
v0 = b.view(-1)
v4 = torch.hypot(torch.amin(c), v0)
G = torch.autograd.grad(torch.stack((v4, v0), -2).sum(), [b, c], create_graph=True)
print([walk(g.grad_fn) for g in G], G)
""",
    # fixed: matrix_norm(±1/±inf) whose max runs over an empty dim is 0 from a tensor PyTorch fills in place:
    # _version 1 (seed 3528)
    "matrix_norm_empty_max_version": """
for shape in [(4, 0), (0, 4), (2, 0, 3), (2, 3, 0), (0, 0), (4, 0, 2)]:
    b = torch.zeros(shape, requires_grad=True)
    for o in [float('inf'), -float('inf'), 1, -1]:
        try:
            v = torch.linalg.matrix_norm(b, o)
            print(shape, o, v, v._version, v.requires_grad, type(v.grad_fn).__name__)
        except IndexError as e:
            print(shape, o, e)
""",
    # fixed: as_strided's backward returns a view (the input's sizes and strides) of a fresh storage the gradient
    # was copied into: is_view, _version 1, the input's layout; minigrad's was a new C-order tensor (seed 4595)
    "as_strided_backward_is_view": """
def show(g):
    b = g._base
    print(g, g._version, g.stride(), g.storage_offset(), None if b is None else (b.shape, b.stride(), b._version))
y = torch.tensor([1., 2., 3., 4.], requires_grad=True)
for size, stride, off in [((2,), (2,), 1), ((2, 2), (1, 1), 0), ((3,), (1,), 0), ((1,), (1,), 3)]:
    z = y.as_strided(size, stride, off)
    for cg in (False, True):
        show(torch.autograd.grad(z.sum(), [y], retain_graph=True, create_graph=cg)[0])
x = torch.arange(6.).reshape(2, 3).t().requires_grad_()
show(torch.autograd.grad(x.as_strided((2,), (1,), 1).sum(), [x])[0])
a = torch.tensor([1., 2., 3.], requires_grad=True)
v0 = torch.moveaxis(a, 0, 0)
with torch.no_grad():
    torch.add(a, a, alpha=2, out=v0)
print(type(v0.grad_fn).__name__)
show(torch.autograd.grad(v0.sum(), [a], create_graph=True)[0])
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    same_as_torch(HELPERS + PROGRAMS[name])
