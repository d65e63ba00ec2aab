"""Regressions of differences the graph fuzzer (tests/fuzz_graphs.py, tensor family ``_Gen.s14``) found in session 15.

Each program prints what a user sees (values, layouts, graph node names in order, warnings) and runs once with
minigrad and once with PyTorch (``parity.same_as_torch``); each is a short explicit form of the seed that found it.
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

# A helper every program may use: a graph's nodes breadth first, each with the indices of its next functions.
WALK = """
def walk(root):
    order, ids, queue = [], {}, [root]
    while queue:
        n = queue.pop(0)
        if n is None or id(n) in ids:
            continue
        ids[id(n)] = len(ids)
        order.append(n)
        queue += [m for m, _ in n.next_functions]
    return [(n.name(), [None if m is None else ids[id(m)] for m, _ in n.next_functions]) for n in order]
"""

PROGRAMS = {
    # fixed: the eigh / eig backward formulas build their operands in C++'s order (right to left): Vᴴ before
    # V * gL (eigvalsh), gA Vᴴ before the left Vᴴ of the solve, L_i before L_j in the gaps; under create_graph the
    # gradients reaching V and L were summed in the other order (AddBackward0's edges swapped, seed 181263)
    "eig_eigh_double_backward_operand_order": """
a = torch.tensor([[2.81, 0.27], [0.24, 3.15]], dtype=torch.float64, requires_grad=True)
s = a + a.mT
for loss in (lambda: torch.linalg.eigh(a)[0].sum(), lambda: torch.linalg.eigvalsh(s).pow(3).sum(),
             lambda: torch.linalg.eigvals(a).real.sum(),
             lambda: (lambda L, V: V.real.pow(2).sum() + L.real.pow(3).sum())(*torch.linalg.eig(a)),
             lambda: (lambda L, V: V.pow(2).sum() + L.pow(3).sum())(*torch.linalg.eigh(s))):
    g, = torch.autograd.grad(loss(), a, create_graph=True)
    g2, = torch.autograd.grad((g * g).sum(), a, create_graph=True)
    print(walk(g.grad_fn), walk(g2.grad_fn))
    print(torch.allclose(g2, g2.detach()))
""",
    # fixed: isclose's result is laid out as PyTorch's first step (input == other): TensorIterator's layout of the
    # two operands, not C order (seed 181362)
    "isclose_result_layout": """
a = torch.tensor([[4.06, -0.26, 0.37], [0.25, 4.53, -0.11], [0.21, -0.03, 4.21]]).unsqueeze(0)
t = a.inverse()
for x, y in ((t, a), (a, t), (t, a[0, 0]), (a.mT, a.mT)):
    r = torch.isclose(x, y)
    print(r.stride(), r, torch.isclose(x, y, equal_nan=True).stride(), torch.isclose(x, y, rtol=0, atol=0).stride())
""",
    # fixed: vector_norm of order 0 over one element per result of a complex tensor: PyTorch counts in the complex
    # dtype and copies into the real result, whose cast warns (once per process: the first warning is kept)
    "complex_vector_norm_order0_one_element_warns": """
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    v = torch.tensor([[3j], [0j], [-2 + 0j]], dtype=torch.complex128)
    print(torch.linalg.vector_norm(v, 0, 0), torch.linalg.vector_norm(torch.tensor(3j), 0, 0))
    print(torch.linalg.vector_norm(v, 0, -1), torch.norm(v, 0, -1))
print(len(w) <= 1, all("Casting complex values to real" in str(x.message) for x in w))
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    same_as_torch(WALK + PROGRAMS[name])
