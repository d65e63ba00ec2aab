"""Regressions of differences the graph fuzzer (tests/fuzz_graphs.py, tensor family, seeds of ``_Gen.s13``) found in
session 13 and the second wave fixed. Each program prints what a user sees (values, versions, graph node names,
errors) and runs once with minigrad and once with PyTorch (``parity.same_as_torch``); each is a short explicit form
of the seed that found it.
"""
from __future__ import annotations

import pytest
from parity import WALK, same_as_torch

# Every program runs with warnings silenced (they go to stderr; only stdout is compared).
QUIET = """
import warnings
warnings.simplefilter("ignore")
"""

PROGRAMS = {
    # fixed: index_put_(accumulate=True) into an expanded tensor adds through the memory its rows share (PyTorch's
    # CPU kernel adds value after value into self's memory); minigrad added once per element (seed 161969)
    "index_put_accumulate_into_expanded": """
for idx in ([0, 1, 0], [1], [0, 0]):
    for acc in (True, False):
        base = torch.tensor([1., 2., 3.])
        v = torch.broadcast_to(base, (2, 3))
        v.index_put_((torch.tensor(idx),), torch.tensor([10., 20., 30.]), accumulate=acc)
        print(idx, acc, base, v, base._version)
col = torch.tensor([[1.], [2.]]).expand(2, 3)
col.index_put_((torch.tensor([1]), torch.tensor([0, 2, 2])), torch.tensor(5.), accumulate=True)
print(col, torch.index_put(torch.ones(3).expand(2, 3), (torch.tensor([0, 0]),), torch.ones(3), accumulate=True))
for idx in ((torch.tensor([[True, False, True], [False, True, False]]),),
            (torch.tensor([0, 1, 1]), torch.tensor([2, 0, 0]))):
    base = torch.tensor([1., 2., 3.])
    base.expand(2, 3).index_put_(idx, torch.tensor([10., 20., 30.]), accumulate=True)
    print(base)
c = torch.tensor([1., 2., 3.], requires_grad=True)
b = c * 1
e = b.expand(2, 3)
e.index_put_((torch.tensor([0, 1, 0]),), torch.tensor([10., 20., 30.]), accumulate=True)
print(b, e, walk(b.grad_fn))
try:   # (CopySlices' backward writes into the expanded gradient: PyTorch refuses)
    b.sum().backward()
except RuntimeError as err:
    print(err)
""",
    # fixed: LAPACK's syevd / heevd info > 0 (no convergence, a NaN matrix) was ignored: PyTorch raises its
    # linalg.eigh error, in eigh, eigvalsh and pinv(hermitian=True), naming the batch element (seed 145380)
    "eigh_convergence_error": """
nan = float('nan')
for A in (torch.full((3, 3), nan), torch.tensor([[1., nan], [nan, 2.]]), torch.full((2, 2), nan, dtype=torch.complex64),
          torch.full((3, 3), float('inf'), dtype=torch.float64)):
    for M in (A, torch.stack([torch.eye(A.shape[0], dtype=A.dtype), A])):
        for f in (torch.linalg.eigh, torch.linalg.eigvalsh, lambda m: torch.linalg.pinv(m, hermitian=True)):
            try:
                f(M)
                print('ok')
            except Exception as e:
                print(type(e).__name__, e)
""",
    # fixed: slogdet_backward solves against diag(g)ᵀ (PyTorch's formula transposes it: one more TransposeBackward0
    # under create_graph), real and complex (seed 160404)
    "slogdet_double_backward_graph": """
A = torch.tensor([[2., 0.5, 0.1], [0.3, 1.5, 0.2], [0.1, 0.2, 3.]], requires_grad=True)
s, l = torch.linalg.slogdet(A * 1)
g, = torch.autograd.grad((l * l).sum(), A, create_graph=True)
print(walk(g.grad_fn), g)
s, l = torch.linalg.slogdet(torch.complex(A, A * 0.3) * 1)
g, = torch.autograd.grad((l * l).sum() + s.real.sum(), A, create_graph=True)
print(walk(g.grad_fn), g)
s, l = torch.linalg.slogdet(torch.complex(A, A * 0.3) * 1)
g, = torch.autograd.grad(s.imag.sum(), A, create_graph=True)
nodes, queue = [], [g.grad_fn]
while queue:   # (the Scalar products of the graph: -i for the sign's phase)
    n = queue.pop(0)
    if n is not None and n not in nodes:
        nodes.append(n)
        queue += [m for m, _ in n.next_functions]
print(walk(g.grad_fn), [n._saved_other for n in nodes if type(n).__name__ == 'MulBackward1'])
""",
    # fixed: svd_backward's binary operators build their right operand first (C++ evaluates them right to left),
    # which orders the double-backward graph (seed 161016)
    "svd_double_backward_graph_order": """
A0 = torch.tensor([[2., 0.5, 0.1], [0.3, 1.5, 0.2], [0.1, 0.2, 3.], [0.4, -0.3, 0.2]], dtype=torch.float64,
                  requires_grad=True)
for A in (A0, A0[:3], A0.mT):
    for which in range(3):
        U, S, Vh = torch.linalg.svd(A * 1, full_matrices=False)
        out = [(U @ Vh).tanh().sum(), (U.sin() * S).sum(), (Vh.cos() * S.unsqueeze(-1)).sum()][which]
        g, = torch.autograd.grad(out, A0, create_graph=True)
        g2, = torch.autograd.grad((g * g).sum(), A0, create_graph=True)
        print(walk(g.grad_fn), walk(g2.grad_fn))
        print(round(g2.sum().item(), 6))
""",
    # fixed: index_reduce(prod)'s backward builds where()'s last argument first, and in it the divisor first
    # (GCC's right-to-left evaluation): the order of a triple-backward graph (seed 145346)
    "index_reduce_prod_backward_graph_order": """
a = torch.tensor([[[-1.85], [-1.14], [1.7]], [[-1.52], [1.19], [2.97]], [[0.31], [1.], [-0.55]]], requires_grad=True)
v0 = a.index_fill(1, torch.tensor([1, 2]), -1.0)
v1 = a.index_reduce(-3, torch.tensor([1]), v0.narrow(-3, 0, 1), 'prod', include_self=False)
v7 = v1.expand(2, 3, 3, 1).clone().exp()
g10, = torch.autograd.grad(v7.sum(), a, create_graph=True)
g11, = torch.autograd.grad(g10.sum(), a, create_graph=True)
g12, = torch.autograd.grad(g11.sum(), a, create_graph=True)
print(walk(g11.grad_fn), walk(g12.grad_fn), g12)
""",
    # fixed: a conj() / mH view in a view chain is regenerated as the dtype-changing views are (replayed on the root's
    # as_strided, with an as_strided on top for the plain views made from it) after a write through the chain;
    # minigrad's regenerated grad_fn was one as_strided / transpose (seed 145155)
    "conj_view_in_a_view_chain_regenerated": """
mks = (lambda v: v.mH, lambda v: v.conj(), lambda v: v[1:].conj(), lambda v: v.conj()[0],
       lambda v: v.mT.conj().unsqueeze(0), lambda v: v.narrow(1, 0, 1).conj().squeeze(1),
       lambda v: v.adjoint().diagonal())
for mk in mks:
    for wr in (lambda v: v.mul_(2), lambda v: v.add_(1j)):
        d = torch.tensor([[1+2j, 3-1j], [0.5j, 2.]], requires_grad=True)
        v0 = d * 1
        v1 = v0[..., :]
        v2 = mk(v0)
        v3 = v2[..., :1]
        wr(v3)
        for t in (v0, v1, v2, v3):
            print(walk(t.grad_fn), t.is_conj(), t._version)
        print(v0, v2, torch.autograd.grad((v2 * v2).abs().sum() + v1.abs().sum(), d)[0])
d = torch.tensor([[1+2j, 3-1j], [0.5j, 2.]], requires_grad=True)
v0 = d * 1
v4 = torch.view_as_real(v0)
v5 = v0.mH.expand_as(v0)
v5.triu_(1)
print(walk(v0.mH.grad_fn), walk(v5.grad_fn), walk(v4.grad_fn), v4)
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    same_as_torch(QUIET + WALK + PROGRAMS[name])
