"""Regressions of differences the graph fuzzer (tests/fuzz_graphs.py: tensor family ``_Gen.s14`` and the nn family)
found in session 27, and of the known leftovers of earlier sessions it fixed.

Each program prints what a user sees (values, strides, graphs, errors, warnings) and runs once with minigrad and once
with PyTorch (``parity.same_as_torch``); each is a short explicit form of the seed that found it.
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

PROGRAMS = {
    # fixed (session 26's leftover): the function forms of sparse arithmetic (torch.add / sub / mul / div / neg and
    # their aliases; d.mul(s) too) are the sparse kernels, as the operators and s.add(s) were: sparse results,
    # sparse + dense and a divisor that is not a number or a 0-dim dense tensor refused with PyTorch's messages
    "sparse_arithmetic_function_forms": """
s = torch.eye(3).to_sparse()
d = torch.full((3, 3), 2.)
print(torch.add(s, s, alpha=2), torch.sub(s, s.double()).dtype, torch.subtract(s, s).layout)
print(torch.mul(s, d), torch.mul(d, s).layout, d.mul(s).layout, torch.multiply(s, torch.tensor(3.)))
print(torch.div(s, 4), torch.true_divide(s, torch.tensor(2)).layout, torch.neg(s), torch.negative(s).layout)
print(torch.mul(s, 1.5).layout, s.divide(2).layout, s.subtract(s).layout)
E(lambda: torch.add(s, d))
E(lambda: torch.sub(s, 1.5))
E(lambda: torch.add(s, 1.5))
E(lambda: torch.div(s, s))
E(lambda: torch.div(d, s))
E(lambda: d.div(s))
E(lambda: torch.divide(s, d))
E(lambda: torch.sub(s.bool(), s.bool()))
E(lambda: torch.neg(s.bool()))
E(lambda: torch.sub(s, torch.eye(2).to_sparse()))
E(lambda: s + torch.eye(2).to_sparse())
x = torch.eye(3).to_sparse().requires_grad_()
w = torch.full((3, 3), 2., requires_grad=True)
y = torch.sub(torch.mul(x, w), torch.div(x, 4), alpha=3)
print(y.grad_fn.name(), [f.name() for f, _ in y.grad_fn.next_functions])
z = torch.neg(torch.add(y, x))
print(z.grad_fn.name(), z)
torch.sparse.sum(z).backward()
print(x.grad, w.grad)
""",
    # fixed (found with the function forms): sparse in-place arithmetic (add_ / sub_ / mul_ / div_, +=, *= ...)
    # takes the result's entries in self's dtype and, under autograd, its node (NumPy refused to write a sparse
    # tensor's dense values); a result that cannot be cast down a kind is refused with each kernel's message; a
    # sparse product promotes as PyTorch's (int64 * float32 is float32, not NumPy's float64)
    "sparse_in_place_arithmetic_and_product_dtypes": """
s = torch.eye(3).to_sparse()
c = torch.eye(3, dtype=torch.long).to_sparse()
a = s.clone()
print(a.add_(s), a._version, a.is_coalesced())
a = s.clone()
print(a.sub_(s, alpha=2).coalesce().values(), a.mul_(2).coalesce().values(), a.div_(4).coalesce().values(), a._version)
a = s.clone()
a += s; a *= 3; a -= s; a /= 4
print(a, a._version, s.clone().add_(s.double()).dtype, s.double().add_(s).dtype, c.clone().mul_(2))
E(lambda: s.clone().add_(torch.ones(3, 3)))
E(lambda: s.clone().add_(2))
E(lambda: s.clone().add_(torch.eye(2).to_sparse()))
for f in (lambda: c.clone().add_(s), lambda: c.clone().sub_(s), lambda: c.clone().mul_(s),
          lambda: c.clone().mul_(2.5), lambda: c.clone().div_(2), lambda: c.clone().div_(torch.tensor(2.)),
          lambda: c.clone().mul_(torch.ones(3, 3))):
    E(f)
for o in (s, torch.ones(3, 3), torch.ones(3, 3, dtype=torch.float64), s.double(), torch.ones(3, 3, dtype=torch.bool),
          torch.eye(3, dtype=torch.int32).to_sparse()):
    print((c * o).dtype, (o * c).dtype, torch.mul(s, o).dtype, torch.mul(o, s.coalesce()).dtype)
x = torch.eye(3).to_sparse().requires_grad_()
E(lambda: x.add_(s))
y = x * 2
y.add_(x, alpha=3); y.mul_(torch.tensor(2.)); y.div_(4); y.sub_(x)
print(y.grad_fn.name(), y)
torch.sparse.sum(y).backward()
print(x.grad)
with torch.no_grad():
    x.add_(s)
print(x, x.requires_grad, x.grad_fn, x._version)
""",
    # fixed: std's backward fills its quotient in place (std_backward's masked_fill_, and sgn_backward's for complex
    # inputs, and std's forward-mode formula), so the gradient keeps the incoming gradient's layout through var's
    # products; an out-of-place masked_fill is C-ordered (seed 273315: a transposed gradient into std_mean's std)
    "std_and_sgn_backward_fill_in_place": """
torch.manual_seed(0)
c = torch.randn(1, 2, 3, dtype=torch.float64, requires_grad=True)
def tail(v):
    return v.mT.clone().index_select(0, torch.tensor([0, 0])).sum()
for cg in (False, True):
    v0, v1 = torch.std_mean(c, -3, unbiased=False, keepdim=True)
    print(torch.autograd.grad(tail(v0), [c], create_graph=cg)[0].stride())
    v0, v1 = torch.std_mean(c, -3, unbiased=False, keepdim=True)
    print(torch.autograd.grad(tail(v1 / (v0.abs() + 1)), [c], create_graph=cg)[0].stride())
    print(torch.autograd.grad(tail(c.std(0, keepdim=True)), [c], create_graph=cg)[0].stride())
z = torch.randn(2, 3, dtype=torch.complex128)
z[0, 1] = 0
z.requires_grad_()
g, = torch.autograd.grad(z.sgn().mT.clone().abs().sum(), z, create_graph=True)
print(g.stride(), g, g.grad_fn.name(), [f.name() for f, _ in g.grad_fn.next_functions if f is not None])
g2, = torch.autograd.grad(torch.view_as_real(z.sgn().mT.clone()).sum(), z)
print(g2.stride(), g2)
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    d = fwAD.make_dual(z.detach(), torch.randn(3, 2, dtype=torch.complex128).mT)
    out = fwAD.unpack_dual(d.sgn()).tangent
    print(out.stride(), out)
    x = torch.randn(3, 4, 2, dtype=torch.float64)
    d = fwAD.make_dual(x, torch.randn(2, 4, 3, dtype=torch.float64).permute(2, 1, 0))
    for dim in (0, 1, -1, (0, 2)):
        out = fwAD.unpack_dual(d.std(dim, keepdim=True)).tangent
        print(out.stride(), out.sum())
""",
    # fixed (a sibling of the std fix): atan2's backward zeroes 1/(x² + y²) where x² + y² is 0, not where the
    # reciprocal is infinite: a subnormal x² + y² keeps its infinite gradient, as PyTorch's
    "atan2_backward_masks_a_zero_denominator": """
for dt in (torch.float64, torch.float32):
    tiny = 1e-160 if dt is torch.float64 else 1e-22
    y = torch.tensor([tiny, 0., tiny * 1e-40, 3., -tiny], dtype=dt, requires_grad=True)
    x = torch.tensor([tiny, 0., 0., 4., 0.], dtype=dt, requires_grad=True)
    torch.atan2(y, x).sum().backward()
    print(y.grad, x.grad)
    g, = torch.autograd.grad(torch.atan2(y, x).sum(), [y], create_graph=True)
    m = g.grad_fn.next_functions[1][0]
    print(g, m.name(), m._saved_mask, m.next_functions[0][0]._saved_result)
""",
    # fixed (a sibling of the std fix): cdist's matrix-product path (_euclidean_dist_backward) fills its ratio
    # grad / result in place, so a transposed gradient keeps the ratio transposed, and its products' bits with it
    "euclidean_dist_backward_ratio_keeps_the_gradient_layout": """
torch.manual_seed(0)
a = torch.randn(4, 30, 7, requires_grad=True)
b = torch.randn(4, 33, 7, requires_grad=True)
d = torch.cdist(a, b, compute_mode='use_mm_for_euclid_dist')
ga, gb = torch.autograd.grad((d.mT.clone() * torch.randn(4, 33, 30)).sum(), [a, b])
print(ga.sum().item(), gb.sum().item(), ga[0, :2].tolist(), gb[1, :2].tolist())
x = torch.randn(5, 3, dtype=torch.float64, requires_grad=True)
y = torch.randn(6, 3, dtype=torch.float64, requires_grad=True)
y.data[1] = x.data[2]
d = torch.cdist(x, y, compute_mode='use_mm_for_euclid_dist')
g = torch.autograd.grad(d.t().clone().pow(2).sum(), [x, y], create_graph=True)
print(g[0].stride(), g[0], g[1], g[0].grad_fn.name())
""",
    # fixed: a NotImplemented node (floor_divide, remainder of a number ...) raises whenever the engine runs it,
    # also when no input's gradient is wanted: backward(inputs=v) runs v's own node (after v's retain_grad filled
    # v.grad), where the formulas were only called for wanted inputs (seed 276184)
    "not_implemented_node_raises_when_it_runs": """
a = torch.tensor(1.5, requires_grad=True)
for make in (lambda: (2 ** a) // torch.tensor(2), lambda: (2 ** a) // 2, lambda: 7 % (2 ** a)):
    w = make()
    w.retain_grad()
    E(lambda: torch.autograd.backward([(w / 3).sum()], retain_graph=True, inputs=w))
    print(w.grad, a.grad)
    w = make()
    E(lambda: torch.autograd.backward([(w / 3).sum()], retain_graph=True, inputs=w))
    print(w.grad, a.grad)
    E(lambda: print(torch.autograd.grad((w / 3).sum(), w)))
    E(lambda: (w * 2).sum().backward())
    print(a.grad)
""",
    # fixed (reducing seed 275866): the backward of an inf-norm makes its right operand (grad / count) * mask
    # before self.sgn(), as C++ evaluates sgn() * (...), so create_graph's nodes get PyTorch's sequence numbers
    "inf_norm_backward_node_order": """
b = torch.tensor([0.3, -1.2, 0.7], requires_grad=True)
v6 = torch.linalg.vector_norm(torch.special.ndtr(b), float('inf'))
v9 = torch.linalg.vector_norm(v6, float('-inf'), None, True)
g10, = torch.autograd.grad(v9.sum(), b, create_graph=True)
g11, = torch.autograd.grad((g10 * g10).sum(), b, create_graph=True)
seen, order = set(), []
def coll(n):
    if n is None or n in seen:
        return
    seen.add(n)
    order.append(n)
    for f, _ in n.next_functions:
        coll(f)
coll(g11.grad_fn)
nodes = sorted((n for n in order if 'Accumulate' not in n.name()), key=lambda n: n._sequence_nr())
print([(n.name(), n._sequence_nr() - nodes[0]._sequence_nr()) for n in nodes], g11)
x = torch.tensor([[1., -3.], [3., 2.]], requires_grad=True)
g, = torch.autograd.grad(x.norm(float('inf'), dim=1).sum(), x, create_graph=True)
print(g, [f.name() for f, _ in g.grad_fn.next_functions if f is not None])
""",
    # fixed: sort's out= resized by the structured kernel takes the input's strides (its meta function's: the
    # input's when dense, infer_dense_strides otherwise; msort and stable sort too), not C order (seed 272208)
    "sort_out_resized_takes_the_input_strides": """
import warnings
warnings.simplefilter('ignore')
x = torch.arange(9.).reshape(3, 1, 3).permute(2, 1, 0)
z = torch.arange(24.).reshape(4, 6)[:, ::2]
w = torch.arange(24.).reshape(2, 3, 4).permute(1, 2, 0)
for src in (x, z, z.t(), w, w[:, 1:], torch.ones(4, 1, 3).expand(4, 2, 3)):
    for n in (0, 1, src.numel()):
        v, i = torch.ones(n), torch.empty(0, dtype=torch.long)
        torch.sort(src, -1, out=(v, i))
        print(src.stride(), v.stride(), i.stride(), v.tolist() == torch.sort(src, -1)[0].tolist())
        v, i = torch.ones(n), torch.empty(n, dtype=torch.long)
        torch.sort(src, stable=True, dim=0, descending=True, out=(v, i))
        print(v.stride(), i.stride())
        v = torch.ones(n)
        torch.msort(src, out=v)
        print(v.stride())
v, i = torch.ones(2, 3), torch.empty(2, 3, dtype=torch.long)
torch.sort(z.t(), out=(v, i))
print(v.stride(), i.stride(), v)
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    same_as_torch(PROGRAMS[name])
