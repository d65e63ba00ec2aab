"""Regressions of differences the graph fuzzer (tests/fuzz_graphs.py, tensor family) found in session 13.

Session 13 widened the tensor generator (``_Gen.s13``, seeds >= ``S13_FIRST_SEED``: chains of views written in
place and their bases read afterwards, hooks and retain_grad on views and on bases written in place, .data /
detach() writes, requires_grad_() mid-program, integer and bool results feeding index ops, float16 / bfloat16
stretches, where / masked ops with scalars, reductions over dim tuples, a student's errors caught and the program
going on). Each program prints what a user sees (values, strides, versions, graph node names, errors) and runs once
with minigrad and once with PyTorch (``parity.same_as_torch``); each is a short explicit form of the seed that
found it.
"""
from __future__ import annotations

import pytest
from parity import WALK, same_as_torch

PROGRAMS = {
    # fixed: the results of LAPACK routines (inv_ex, solve, qr ...) lay in a 64-byte aligned scratch buffer that
    # was their storage: storage_offset() 4 (and the AsStridedBackward0 of a view written in place saved it)
    # where PyTorch's fresh tensors start at 0 (seed 160036)
    "lapack_results_own_their_storage": """
A = torch.tensor([[3.0, 0.5, 0.1], [0.2, 2.0, 0.3], [0.1, 0.4, 4.0]], requires_grad=True)
for r in (torch.linalg.inv_ex(A * 1)[0], torch.linalg.inv(A), torch.linalg.solve(A, A[0]), torch.linalg.qr(A)[0],
          torch.linalg.cholesky(A @ A.mT), torch.linalg.lstsq(A, A[:, :1]).solution):
    print(r.storage_offset(), r.stride(), r.untyped_storage().nbytes())
v = torch.linalg.inv_ex(A * 1)[0].narrow(-1, 0, 1)
w = v.movedim(-1, 1)
w.mul_(2)
print(v.grad_fn._saved_storage_offset, v.grad_fn._saved_stride, w.grad_fn._saved_storage_offset)
""",
    # fixed: a sum over every dim was one lane of the reduction's accumulators: storage_offset() 7, a storage of 8
    # elements (seed 160644)
    "full_sum_owns_its_storage": """
a = torch.arange(24.).reshape(2, 3, 4).requires_grad_()
for s in (a.sum(), a.sum((0, 1, 2), keepdim=True), a.sum((0, 1)), a.mean(), torch.nansum(a)):
    print(s.storage_offset(), s.untyped_storage().nbytes(), s.stride())
v = a.sum((0, 1, 2), keepdim=True) * 1
v[0] += 1
print(walk(v.grad_fn), v.grad_fn.next_functions[1][0]._saved_storage_offset)
""",
    # fixed: isclose builds its result in place in PyTorch (close = a == b; close |= nan & nan with equal_nan;
    # close |= finite error within tolerance unless rtol == atol == 0): _version 1 or 2; minigrad's was 0
    # (seed 160094)
    "isclose_result_version": """
x = torch.tensor([1.0, 2.0, float('nan')]); y = torch.tensor([1.0, 2.5, float('nan')])
print(torch.isclose(x, y)._version, torch.isclose(x, y, equal_nan=True)._version,
      torch.isclose(x.long(), y.long())._version, torch.isclose(x > 0, y > 0)._version,
      torch.isclose(x, y, rtol=0, atol=0)._version, torch.isclose(x, y, rtol=0, atol=0, equal_nan=True)._version,
      x.to(torch.complex64).isclose(y.to(torch.complex64), equal_nan=True)._version)
print(torch.isclose(x, y, equal_nan=True))
""",
    # fixed: var_mean / std_mean take dim=None positionally beside unbiased / keepdim (their schema's dim is
    # int[1]?): an integer input then reaches the dtype check, not a TypeError of the argument parser (seed 160341)
    "var_mean_none_dim_with_unbiased": """
x = torch.tensor([[1.0, 2.0], [3.0, 5.0]])
for f in (torch.var_mean, torch.std_mean):
    for t in (x, x.long()):
        E(lambda: print(f(t, None, unbiased=False, keepdim=True)))
        E(lambda: print(f(t, None, False, True)))
        E(lambda: print(f(t, None, unbiased=False)))
""",
    # fixed: MKL's least-squares drivers refuse a matrix with a NaN as an illegal argument (info -4; gels -5), which
    # PyTorch reports as an internal assert naming the first failing matrix of a batch; minigrad returned B
    # (seed 160354)
    "lstsq_of_nan_matrix": """
A = torch.tensor([[4.5, float('nan'), 0.2], [1.0, 2.0, 3.0], [-0.6, 1.0, 4.2]])
B = torch.tensor([[1.0], [2.0], [3.0]])
for driver in (None, 'gelsy', 'gelsd', 'gelss', 'gels'):
    E(lambda: print(torch.linalg.lstsq(A, B, driver=driver).solution))
    E(lambda: print(torch.linalg.lstsq(A.double(), B.double(), driver=driver).solution))
E_ = torch.eye(3)
for a in (torch.stack([A, E_, E_]), torch.stack([E_, E_, A])):
    try:
        torch.linalg.lstsq(a, torch.ones(3, 3, 1))
    except RuntimeError as e:
        print(str(e)[-140:])
print(torch.linalg.lstsq(E_ * 2, B).solution)
""",
    # fixed: the output an in-place op on a view saved (exp_'s result) is unpacked with the view's grad_fn as
    # regenerated then (AsStridedBackward0 -> CopySlices) while the view or a later op's graph keeps that node
    # alive, else with the op's own node, as PyTorch's weak_grad_fn_; minigrad always gave the op's node, so a
    # create_graph backward built another graph (seed 160376)
    "saved_output_of_inplace_on_view": """
import gc
a = torch.tensor([[0.5, -1.0], [2.0, 0.3]], requires_grad=True)
for case in range(5):
    b = a * 1
    v = b[0]
    v.exp_()
    if case == 1: del v
    if case == 2: w = v * 2; del v
    if case == 3: v.grad_fn
    if case == 4: del v; gc.collect()
    g, = torch.autograd.grad(b.sum(), a, create_graph=True)
    print(case, walk(g.grad_fn))
    (g * g).sum().backward()
    print(a.grad); a.grad = None
b = a * 1
u = b.t()[1]
u.sigmoid_()
print(walk(b.grad_fn), u.grad_fn)
g, = torch.autograd.grad(b.sum(), a, create_graph=True)
print(walk(g.grad_fn))
""",
    # fixed: torch.where(cond) and nonzero(as_tuple=True) are the columns of nonzero()'s column-major result,
    # unbind(1) views (stride 1, offsets 0, n ...): an index saved by IndexBackward0 showed strides (2,)
    # (seed 160740)
    "where_of_condition_is_nonzero_unbind": """
m = torch.tensor([[True, False, True], [False, True, False]])
for r in (torch.where(m), m.nonzero(as_tuple=True), torch.nonzero(m, as_tuple=True), torch.where(m[0]),
          torch.where(torch.tensor(3)), torch.tensor(0.0).nonzero(as_tuple=True)):
    print([(t.shape, t.stride(), t.storage_offset(), t._base is not None, t._version) for t in r])
c = torch.arange(6.).reshape(2, 3).requires_grad_()
y = c[torch.where(m)]
print(y, [(t.stride(), t.storage_offset()) for t in y.grad_fn._saved_indices])
""",
    # fixed: clamp with one tensor bound (the other missing) laid its result out in C order: the missing bound
    # (an empty stand-in) made TensorIterator's layout rule give up; PyTorch follows the input's strides
    # (seed 160624)
    "clamp_one_tensor_bound_layout": """
a = torch.arange(6.).reshape(2, 3).t()
c = torch.full((3, 2), 2.5)
for r in (torch.clamp(a, max=c), torch.clamp(a, min=c), a.clamp(max=c), torch.clip(a, max=c),
          torch.clamp(c, max=a), torch.clamp(a, c - 1, c)):
    print(r.stride(), r)
x = a.requires_grad_()
y = torch.clamp(x, max=c)
print(walk(torch.linalg.cond(torch.tanh(y.flatten()[:3].outer(y.flatten()[-3:])) + torch.eye(3) * 3,
                             'fro').grad_fn))
""",
    # fixed: slogdet of a matrix with a NaN pivot: PyTorch's sign of the pivots is (0 < x) - (x < 0), 0 for
    # NaN, so the sign is 0 (logabsdet NaN); minigrad's was NaN (seed 160560)
    "slogdet_sign_of_nan_matrix": """
for M in (torch.tensor([[float('nan'), 1.0], [2.0, 3.0]]), torch.full((2, 2), float('nan')),
          torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor([[float('nan'), 1.0], [2.0, 3.0]]).double()):
    print(torch.linalg.slogdet(M), torch.logdet(M), torch.det(M))
""",
    # fixed: view_as_complex's backward is view_as_real(grad.contiguous().resolve_conj()): under create_graph the
    # gradient can be a conjugate view (from a .real / .imag / conj in the graph) that view_as_real refuses;
    # minigrad passed it as it was and raised (seed 161211)
    "view_as_complex_backward_resolves_conj": """
a = torch.tensor([0.3, -1.2, 0.5], requires_grad=True)
for make in (lambda t: torch.polar(t.abs() + 0.1, t), lambda t: torch.view_as_complex(torch.stack([t, t.cos()], -1)),
             lambda t: torch.complex(t, t * 0.5)):
    v5 = make(a * 1)
    v6 = v5.real * v5.imag
    g7, = torch.autograd.grad(v6.sum(), a, create_graph=True)
    g8, = torch.autograd.grad(g7.sum(), a, create_graph=True)
    print(g7, g8, walk(g8.grad_fn))
""",
    # fixed: the grad_fn a view gets back after an in-place op when its chain changes the dtype follows PyTorch's
    # ViewInfo: the dtype-changing view is replayed (on the root, or on the root as_strided as the plain view it
    # was made from), each plain view after it adds an as_strided: view_as_real(z[1]) -> ViewAsRealBackward0 over
    # AsStridedBackward0; view_as_complex(r).t() -> AsStridedBackward0 over ViewAsComplexBackward0. minigrad gave
    # AsStridedBackward0 over view_as_real(root), or replayed the plain views (seeds 160088, 141522)
    "grad_fn_of_dtype_changing_views_after_inplace": """
a = torch.tensor([[0.5, -1.0], [2.0, 0.3]], requires_grad=True)
for mk in (lambda z: torch.view_as_real(z.select(0, 1)), lambda z: torch.view_as_real(z.t()[0]),
           lambda z: torch.view_as_real(z), lambda z: torch.view_as_real(z)[0], lambda z: z.real,
           lambda z: z[1].imag, lambda z: torch.view_as_real(z[:, 1:]).select(-1, 0)):
    z = a * (1 + 0.5j)
    v = mk(z)
    v.add_(1)
    print(walk(v.grad_fn), v._version)
    g, = torch.autograd.grad(z.abs().sum(), a)
    print(g)
r0 = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]], requires_grad=True)
for mk in (lambda r: torch.view_as_complex(r).unsqueeze(0), lambda r: torch.view_as_complex(r)[1:],
           lambda r: torch.view_as_complex(r), lambda r: torch.view_as_complex(r[1:]).unsqueeze(1).t(),
           lambda r: torch.view_as_complex(r).t()):
    r = r0 * 1
    c = mk(r)
    c.mul_(2j)
    print(walk(c.grad_fn), walk(r.grad_fn))
    g, = torch.autograd.grad((r * r).sum(), r0)
    print(g)
""",
    # fixed: create_graph through the CopySlices of an in-place op on a view whose chain changes the dtype (c.imag,
    # view_as_real(c)[0]): PyTorch copies the gradient into a tensor laid out as the base (CopyBackwards) and
    # replays its view_fn on it (view_as_real, as_strided); minigrad cloned it and replayed the view's own ops
    # (CloneBackward0, SelectBackward0) (seed 160155)
    "create_graph_through_inplace_on_real_view": """
b = torch.tensor([[0.4], [-1.3]], dtype=torch.float64, requires_grad=True)
for mk in (lambda z: z.imag, lambda z: torch.view_as_real(z)[0], lambda z: torch.view_as_real(z[1:]),
           lambda z: z.real.t()):
    v9 = b * (1 + 0.5j)
    v10 = mk(v9)
    v10.clamp_(-1, 0.3)
    G = torch.autograd.grad((v9 * 2).abs().sum(), [b], create_graph=True)
    print(G[0], walk(G[0].grad_fn))
    (G[0] * G[0]).sum().backward()
    print(b.grad); b.grad = None
""",
    # fixed: PyTorch's C++ formulas are compiled by GCC, which evaluates an overloaded operator's operands right to
    # left: in angle's g·z/|z|²·i the |z|² nodes are made before g·z, in softmax's double backward
    # g·grad - Σ(y·g)·grad - g·Σ(y·grad) the last term first. The nodes' sequence numbers decide the order the
    # engine runs them in, so the order in which a gradient's two parts are added (AddBackward0's inputs) under
    # create_graph; minigrad built them left to right (seeds 160459, 143533: a third derivative through softmax;
    # 145083: sinc)
    "formula_terms_in_gcc_order": """
a = torch.tensor([0.3, -1.2], requires_grad=True)
z = torch.view_as_complex(torch.stack([a, a.cos()], -1))
for v in (z.angle(), z.abs() + z.angle()):
    g5, = torch.autograd.grad(v.sum(), a, create_graph=True)
    g6, = torch.autograd.grad(g5.sum(), a, create_graph=True)
    print(g6, walk(g6.grad_fn))
b = torch.tensor([[0.3, -1.2, 0.5]], dtype=torch.float64, requires_grad=True)
for dim in (0, 1):
    v3 = torch.softmax(b, dim=dim).exp()
    g5, = torch.autograd.grad((v3 * v3).sum(), b, create_graph=True)
    g6, = torch.autograd.grad((g5 * g5).sum(), b, create_graph=True)
    g7, = torch.autograd.grad(g6.sum(), b, create_graph=True)
    print(g7, walk(g7.grad_fn))
c = torch.tensor([0.3, -1.2, 0.0], requires_grad=True)   # (sinc's (πx cos πx - sin πx): sin πx first, seed 145083)
g, = torch.autograd.grad((c * 1).sinc().sum(), c, create_graph=True)
g2, = torch.autograd.grad((g * g).sum(), c, create_graph=True)
print(g, g2, walk(g2.grad_fn))
""",
    # fixed: narrow_copy's result is C-contiguous whatever the input's layout (PyTorch's narrow_copy_dense writes
    # into empty()); minigrad's kept a permuted input's layout (seed 145192)
    "narrow_copy_result_is_contiguous": """
b = torch.arange(24.).reshape(3, 2, 4).requires_grad_()
for v in (b.permute(2, 1, 0), b.transpose(0, 1), b[:, :, ::2], b.expand(2, 3, 2, 4)):
    print([v.narrow_copy(d, 0, 1).stride() for d in range(v.dim())], v.narrow_copy(-1, 1, 1).squeeze().stride())
v1 = b.permute(2, 1, 0).narrow_copy(1, 1, 1)
v1[0].diagonal().add_(1.5)
print(v1.stride(), v1.squeeze().stride(), walk(v1.grad_fn))
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    same_as_torch(WALK + PROGRAMS[name])
