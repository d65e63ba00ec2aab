"""Regressions of differences the graph fuzzer (tests/fuzz_graphs.py, tensor family) found in session 11.

Session 11 widened the tensor generator (``_Gen.s11``: torch.linalg in graphs, einsum strings, advanced indexing,
dtype chains, memory formats, autograd.grad / backward(inputs=) mid-program, detach, grad-mode blocks). Each
program prints what a user sees (values, strides, graph node names, saved tensors, errors) and runs once with
minigrad and once with PyTorch (``parity.same_as_torch``); each is a short explicit form of the seed that found it.
"""
from __future__ import annotations

import pytest
from parity import WALK, same_as_torch

PROGRAMS = {
    # fixed: an in-place op whose self needs no gradient leaves _saved_self unset when only self's own formula
    # reads it (v.copysign_(w), v.hypot_(w) with only w requiring grad); minigrad saved self, then at version 1,
    # so reading it raised the "modified by an inplace operation" error (seed 122040). mul_ still saves it (w's
    # formula reads it): a clone, as PyTorch's original_self.
    "inplace_self_saved_only_when_needed": """
w = torch.tensor([1., -2., 0.5], requires_grad=True)
for op in ('copysign_', 'hypot_', 'mul_', 'atan2_', 'div_', 'xlogy_'):
    v = torch.tensor([3., 4., -1.5]) * 2
    getattr(v, op)(w)
    fn = v.grad_fn
    print(op, type(fn).__name__, [(a, getattr(fn, a)) for a in sorted(dir(fn)) if a.startswith('_saved_')])
    v.sum().backward()
    print(w.grad)
    w.grad = None
""",
    # fixed: linalg.matrix_rank's result has _version 1 (PyTorch counts the singular values with sum(out=))
    # (seed 121153)
    "matrix_rank_version": """
A = torch.tensor([[2., 0.5, 1.], [0.5, 3., 0.], [1., 0., 1.5]], requires_grad=True)
for r in (torch.linalg.matrix_rank(A), torch.linalg.matrix_rank(A, hermitian=True),
          torch.linalg.matrix_rank(A, atol=0.1, rtol=0.2), torch.linalg.matrix_rank(A.expand(2, 3, 3), tol=1.0)):
    print(r, r._version, r.dtype, r.requires_grad)
""",
    # fixed: einsum's pairwise contraction swaps its operands when every right-only output dim comes before the
    # left-only ones (PyTorch's swap_lo_ro in sumproduct_pair): the bmm's inputs, the result's strides and the
    # permute's saved dims follow (seed 121183)
    "einsum_swap_lo_ro": """
a = torch.arange(1., 28.).reshape(3, 3, 3).requires_grad_()
b = (torch.arange(36.).reshape(4, 3, 3) / 7).requires_grad_()
x = torch.arange(6.).reshape(2, 3).requires_grad_()
y = torch.arange(12.).reshape(3, 4).requires_grad_()
for eq, ops in [('abc,dba->dcb', (a, b)), ('abc,dba->cdb', (a, b)), ('abc,dba->bdc', (a, b)), ('ab,bc->ca', (x, y)),
                ('ab,bc->ac', (x, y)), ('ij,kj->ki', (x, x * 2)), ('i,j->ji', (x[0], y[0]))]:
    r = torch.einsum(eq, *ops)
    print(eq, r.shape, r.stride(), walk(r.grad_fn))
    queue = [r.grad_fn]
    while queue:   # (the bmm's saved operands: which one is on the left)
        n = queue.pop(0)
        if type(n).__name__ == 'BmmBackward0':
            print(n._saved_self.shape, n._saved_self.stride(), n._saved_mat2.shape, n._saved_mat2.stride())
            break
        queue += [m for m, _ in n.next_functions if m is not None]
    r.backward(torch.arange(float(r.numel())).reshape(r.shape))
    print([(t.grad.sum().item(), t.grad.stride()) for t in (a, b, x, y) if t.grad is not None])
    a.grad = b.grad = x.grad = y.grad = None
""",
    # fixed: index_put_ (x[idx] = x) and scatter_ whose source is the tensor written itself: PyTorch's
    # assert_no_overlap refuses the full overlap too (unless the tensor is not dense); minigrad allowed it as it
    # does for elementwise ops (x += x) (seeds 121371, 121543); the same tensor is a full overlap whatever its layout
    "index_put_scatter_self_source": """
for make in (lambda: torch.tensor([[1., 2.], [3., 4.]]), lambda: torch.tensor([[1., 2.], [3., 4.]]).t(),
             lambda: torch.arange(8.).reshape(2, 4)[:, ::2]):
    x = make()
    E(lambda: x.index_put_((torch.tensor([0, 1]),), x, accumulate=True))
    E(lambda: x.index_put_((torch.tensor([1, 0]),), x))
    E(lambda: x.__setitem__(torch.tensor([1, 0]), x))
    E(lambda: x.scatter_(0, torch.tensor([[1, 0], [0, 1]]), x))
    E(lambda: x.index_add_(0, torch.tensor([0, 1]), x))
    print(x)
x = torch.tensor([[1., 2.], [3., 4.]])
x.index_put_((torch.tensor([1, 0]),), x.clone())
x += x
print(x)
""",
    # fixed: the SVD (svd, svdvals, matrix_norm 2/-2/'nuc', cond, pinv, matrix_rank, torch.svd) of a matrix with NaN
    # or inf raises PyTorch's LinAlgError, and linalg.eig its RuntimeError; minigrad returned NaNs (seed 121430)
    "svd_eig_nonfinite_errors": """
A = torch.tensor([[1., float('nan')], [0., 2.]])
B = torch.stack([torch.eye(2), A.nan_to_num(posinf=float('inf'), nan=float('inf'))])
for M in (A, B):
    for f in (torch.linalg.svd, torch.linalg.svdvals, torch.svd, torch.linalg.pinv, torch.linalg.matrix_rank,
              torch.linalg.cond, lambda m: torch.linalg.matrix_norm(m, 2), lambda m: torch.linalg.norm(m, 'nuc'),
              lambda m: torch.linalg.matrix_norm(m, -2), torch.linalg.eig):
        E(lambda: f(M))
print(torch.linalg.eigvals(A), torch.linalg.pinv(A, hermitian=True).shape, torch.linalg.matrix_norm(A))
E(lambda: torch.linalg.eigvals(A.clone().requires_grad_()))
print(torch.linalg.svdvals(torch.zeros(0, 2, 2)).shape, torch.linalg.svdvals(torch.zeros(2, 0)))
""",
    # fixed: cond(A, 'nuc') is Σσ·Σ1/σ from one svdvals (PyTorch's graph: Mul(Sum, Sum(Reciprocal)), one
    # LinalgSvdBackward0); minigrad multiplied the nuclear norms of A and inv(A) (seeds 121574, 121650)
    "cond_nuc": """
A = torch.tensor([[2., 0.3, 0.1], [0.1, 3., -0.5], [0.4, 0.2, 1.]], dtype=torch.float64, requires_grad=True)
r = torch.linalg.cond(A, 'nuc')
print(r, walk(r.grad_fn))
g, = torch.autograd.grad(r, A, create_graph=True)
print(g, walk(g.grad_fn)[:12])
print(torch.linalg.cond(torch.tensor([[1., 2.], [2., 4.]]), 'nuc'), torch.linalg.cond(torch.zeros(2, 2), 'nuc'))
print(torch.linalg.cond(torch.tensor([[1., 2.], [3., 4.]], dtype=torch.complex64), 'nuc'))
E(lambda: torch.linalg.cond(torch.ones(2, 3), 'nuc'))
""",
    # fixed: create_graph through cholesky, qr, eigh and svd builds PyTorch's graph: 0.5 * X in their formulas is
    # a Scalar product (MulBackward1), the eigen/singular value gaps get their diagonal filled in place, qr's
    # syminvadj halves its diagonal in place and eigh's gA takes gL on its diagonal in place (CopySlices nodes),
    # wide qr's tril(X - Xᵀ, -1) for real X (seeds 121205, 121567, 121537)
    "linalg_double_backward_graphs": """
c = torch.tensor([[3.1, 0.2, -0.4], [0.3, 2.6, 0.5], [-0.2, 0.1, 4.2]], dtype=torch.float64)
w = torch.tensor([[0.5, -1.0, 2.0, 0.25], [1.5, 0.2, -0.3, 1.0]], dtype=torch.float64)
fns = {
    'cholesky': lambda A: torch.linalg.cholesky(A @ A.mT),
    'cholesky_upper': lambda A: torch.linalg.cholesky(A @ A.mT, upper=True),
    'cholesky_inverse': lambda A: torch.cholesky_inverse(torch.linalg.cholesky(A @ A.mT)),
    'qr': lambda A: torch.linalg.qr(A)[1], 'qr_q': lambda A: (lambda Q, R: Q.sum() * R + Q.mean())(*torch.linalg.qr(A)),
    'eigh': lambda A: torch.linalg.eigh(A + A.mT)[1].pow(2), 'eigh_both': lambda A: (lambda L, V: L * V.pow(2))(
        *torch.linalg.eigh(A + A.mT)),
    'svd': lambda A: (lambda U, S, Vh: (U @ Vh) * S.sum())(*torch.linalg.svd(A, full_matrices=False)),
}
for name, f in fns.items():
    for X in (c, c[:2], w):
        A = X.clone().requires_grad_()
        if name.startswith(('cholesky', 'eigh')) and X.shape[0] != X.shape[1]:
            continue
        y = f(A)
        g, = torch.autograd.grad((y * torch.arange(1., y.numel() + 1).reshape(y.shape)).sum(), A, create_graph=True)
        print(name, tuple(X.shape), walk(g.grad_fn))
        (g * g).sum().backward()
        print(g.detach().round(decimals=8), A.grad.round(decimals=6))
""",
    # fixed: x[index] = value through advanced indices is index_put_, which converts nothing: a value of another
    # dtype is refused (one bool mask with a one-element value goes through masked_fill_, which converts), and the
    # value must expand to the indexed shape, not merely broadcast with it (seeds 122038, 122067)
    "setitem_advanced_dtype_and_shape": """
for idx in ("[0]", "[[0]]", "[torch.tensor([0])]", "[torch.tensor([True, False])]", "[..., [0]]", "[0, [0]]", "[1:]",
            "[[0, 1], :1]"):
    for value in ("torch.tensor([5., 6.])", "torch.tensor(5)", "torch.tensor([[5.], [6.]], dtype=torch.float64)",
                  "7", "torch.tensor(2.5, dtype=torch.float64)"):
        z = torch.ones(2, 2)
        E(lambda: exec("z" + idx + " = " + value))
        print(idx, value, z.tolist())
a = torch.tensor([1., 2., 3.], requires_grad=True)
v = a * 2
E(lambda: v.__setitem__([1], a.double()))
v[[1]] = a[:1] * 3
v.sum().backward()
print(v, a.grad)
""",
    # fixed: a broadcast elementwise result takes TensorIterator's layout from its inputs' strides, size-1 dims
    # included, also when every input is C-contiguous for NumPy (einsum's aligned operands of a 3-operand outer
    # product); minigrad kept C order (seed 121929)
    "broadcast_layout_from_size1_strides": """
x = torch.arange(8.).reshape(2, 4)
z = torch.arange(4.).reshape(1, 4)
xa = x.unsqueeze(2).unsqueeze(3).unsqueeze(4).permute(4, 0, 1, 3, 2)
za = z.unsqueeze(2).unsqueeze(3).unsqueeze(4).permute(1, 2, 3, 0, 4)
print(xa.stride(), za.stride(), (xa * za).stride(), (za + xa).stride(), torch.maximum(xa, za).stride())
print(torch.einsum('ab,cd,ef->cfabe', x, z, z).stride(), torch.einsum('ab,d,ef->fabe', x, z[0], z).stride())
print((x.unsqueeze(1) * torch.ones(3, 1)).stride())
print((torch.ones(3, 1, 4).transpose(0, 1) * torch.ones(2, 1, 1)).stride())
w = x.clone().requires_grad_()
r = torch.einsum('ab,cd,ef->cfabe', w, z, z * 2)
r.backward(torch.arange(float(r.numel())).reshape(r.shape))
print(r.sum(), w.grad, w.grad.stride())
""",
    # fixed: det's backward for 1 x 1 matrices is the incoming gradient itself, expanded (PyTorch's shortcut: exact
    # also for a zero matrix, where minigrad's eps-nudged solve gave 0), and under create_graph a singular matrix
    # takes the SVD form instead of a solve that fails (seeds 121537, 121880)
    "det_backward_1x1_and_singular": """
w = torch.tensor([3.1, 4.3], requires_grad=True)
for v in (2.45, 0.0):
    A = torch.tensor([[[v]], [[0.7]]], requires_grad=True)
    (torch.linalg.det(A) * w).sum().backward()
    print(A.grad, A.grad.stride())
    g, = torch.autograd.grad((torch.linalg.det(A) * w).sum(), A, create_graph=True)
    print(g, g.stride(), walk(g.grad_fn))
for c in ([[1., 2.], [2., 4.]], [[2., 0.5], [0.3, 1.]], [[[1., 2.], [2., 4.]], [[0., 3.], [0., 1.]]]):
    A = torch.tensor(c, dtype=torch.float64, requires_grad=True)
    g, = torch.autograd.grad(torch.linalg.det(A).sum(), A, create_graph=True)
    print(g, walk(g.grad_fn))
    (g * g).sum().backward()
    print(A.grad)
""",
    # fixed: torch.autograd.grad / backward(inputs=) of one output whose node no input lies below: PyTorch's engine
    # still runs that node's tensor hooks (register_hook, retain_grad) before skipping it; minigrad skipped them.
    # With several outputs (a GraphRoot) such outputs' nodes are not visited at all (seed 122401)
    "grad_root_hooks_without_path_to_inputs": """
x = torch.tensor([1., 2.], requires_grad=True)
w = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.retain_grad()
print(torch.autograd.grad(y, x, torch.ones_like(y), retain_graph=True), y.grad)
y.grad = None
E(lambda: torch.autograd.grad(y, w, torch.ones_like(y), retain_graph=True))
print(y.grad)
y.grad = None
print(torch.autograd.grad(y, w, torch.ones_like(y), allow_unused=True, retain_graph=True), y.grad)
h = y.register_hook(lambda g: g + 1)
print(torch.autograd.grad([y], [w.detach().requires_grad_()], grad_outputs=[torch.full_like(y, 2.0)],
                          retain_graph=True, allow_unused=True), y.grad)
h.remove()
z = y * w
z.retain_grad()
q = x.sum()
q.retain_grad()
print(torch.autograd.grad([q, z.sum()], [w], retain_graph=True), q.grad, z.grad)
z.sum().backward(inputs=[w], retain_graph=True)
print(w.grad, x.grad, y.grad, z.grad)
""",
    # fixed: addcdiv's tensor1 gradient value/t2 is computed as ATen's Scalar / Tensor operator does,
    # empty_like(t2).fill_(value).div_(t2): under create_graph its DivBackward0 saves that filled tensor, not a
    # 0-dim wrapped value (seed 122537)
    "addcdiv_double_backward_scalar_over_tensor": """
a = torch.tensor([[1., -2.], [0.5, 3.]], dtype=torch.float64, requires_grad=True)
for value in (1, 0.5, -2):
    t2 = (a.abs() + 1).t()
    r = torch.addcdiv(a, a * 3, t2, value=value)
    g, = torch.autograd.grad(r.sum(), a, create_graph=True)
    queue = [g.grad_fn]
    while queue:
        n = queue.pop(0)
        if type(n).__name__ == 'DivBackward0':
            print(n._saved_self, n._saved_self.stride(), n._saved_other)
        queue += [m for m, _ in n.next_functions if m is not None]
    (g * g).sum().backward()
    print(g, a.grad)
    a.grad = None
""",
    # fixed: x[mask] = value (one bool mask, a one-element value) on an expanded tensor warns twice in PyTorch:
    # index_put_'s deprecation and then masked_fill_'s, to which index_put_ hands the write; minigrad warned
    # once (seed 122914)
    "expanded_mask_setitem_warnings": """
import warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    v = torch.ones(3).expand(2, 3)
    v[torch.tensor([[True, False, True], [False, False, True]])] = torch.tensor(-1.0)
    v = torch.ones(3).expand(2, 3)
    v[torch.tensor([True, False])] = 5.
    v = torch.ones(3).expand(2, 3)
    v[torch.tensor([0])] = torch.tensor(-1.0)
    v = torch.ones(3).expand(2, 3)
    v.index_put_((torch.tensor([[True, False, True], [False, False, True]]),), torch.tensor(-1.0))
    r = torch.ones(3).expand(2, 3).index_put((torch.tensor([[True, False, True], [False, False, True]]),),
                                             torch.tensor(2.0))
    v = torch.ones(3).expand(2, 3)
    v.index_put_((torch.tensor([1]),), torch.tensor(-2.0), accumulate=True)
print([str(w.message)[:40] for w in caught], r, r.stride())
""",
    # fixed: linalg.vector_norm / norm / matrix_norm of something that is not a tensor: PyTorch's argument parser's
    # TypeError (seed 122742: the None that autograd.grad returned for an unused input)
    "linalg_norms_of_non_tensors": """
for f in (torch.linalg.vector_norm, torch.linalg.norm, torch.linalg.matrix_norm):
    for x in (None, [1., 2.], 3):
        E(lambda: f(x))
print(torch.linalg.vector_norm(torch.tensor([3., 4.])), torch.linalg.norm(torch.tensor([3., 4.])))
""",
    # fixed: a node that receives no gradient at all (the norm of order 0 has none) still unpacks its saved tensors
    # when the engine reaches it, as PyTorch's nodes do first thing: a saved result changed in place raises its
    # error; minigrad skipped such nodes (seed 122813)
    "node_without_gradient_still_unpacks": """
a = torch.tensor([1.5, 2.], dtype=torch.float64, requires_grad=True)
b = torch.tensor([0.5, -1.], dtype=torch.float64, requires_grad=True)
v4 = torch.float_power(a, b)
v5 = v4 * 2
v4[...] = torch.tensor([1., 1.], dtype=torch.float64)
for p in (0, 2):
    E(lambda: torch.norm(v5, p, None, True).sum().backward(retain_graph=True))
x = torch.tensor([1.5, 2.], requires_grad=True)
y = x.exp()
n = torch.norm(y * 1, 0)
print(torch.autograd.grad(n, x, allow_unused=True), n.grad_fn.next_functions)
y.add_(1)
E(lambda: torch.norm(y * 1, 0).backward())
E(lambda: n.backward())
""",
    # fixed: elu_double_backward multiplies by input_scale as a Scalar (PyTorch's MulBackward1): a third-order
    # graph through elu/celu/selu showed a MulBackward0 (seed 122994)
    "elu_double_backward_scalar": """
for f in (lambda x: torch.nn.functional.celu(x, 0.5), torch.nn.functional.elu, torch.nn.functional.selu,
          lambda x: torch.nn.functional.elu(x * 1, inplace=True)):
    x = torch.tensor([[-1.5, 0.3], [2.0, -0.2]], dtype=torch.float64, requires_grad=True)
    y = f(x)
    g, = torch.autograd.grad((y * y.detach()).sum(), x, create_graph=True)
    h, = torch.autograd.grad((x * g).sum(), x, create_graph=True)
    (h * h).sum().backward()
    print(walk(h.grad_fn), h, x.grad)
""",
    # fixed: matrix_norm(A, ±2, keepdim=True) keeps the dim in amax/amin and unsqueezes once (PyTorch's graph:
    # Permute, Unsqueeze, Amax); minigrad reduced without keepdim and unsqueezed twice (seed 123523)
    "matrix_norm_2_keepdim_graph": """
for shape in ((3, 3), (2, 3, 4), (0, 2, 2)):
    for o in (2, -2, 'nuc'):
        for dim in ((-2, -1), (0, -1)):
            A = torch.ones(shape).cumsum(-1).requires_grad_()
            try:
                r = torch.linalg.matrix_norm(A, o, dim=dim, keepdim=True)
            except IndexError as e:   # (amin over an empty dim)
                print(shape, o, dim, e)
                continue
            print(shape, o, dim, r.shape, r.stride(), walk(r.grad_fn))
            queue = [r.grad_fn]
            while queue:   # (the reduction's saved dim and keepdim)
                n = queue.pop(0)
                if n is None:
                    continue
                if type(n).__name__ in ('AmaxBackward0', 'AminBackward0', 'SumBackward1'):
                    print(n._saved_dim, n._saved_keepdim)
                queue += [m for m, _ in n.next_functions if m is not None]
""",
    # fixed: solve_triangular's backward is one formula for A and B (PyTorch's linalg_solve_triangular_backward):
    # gB is solved once and gA reuses it; minigrad solved it once per input, so under create_graph a graph where
    # A and B share a leaf had two LinalgSolveTriangularBackward0 nodes (seeds 122297, 122741, 123718, 123826)
    "solve_triangular_joint_backward": """
b = torch.tensor([[0.5, -1.2], [2.0, 0.3]], requires_grad=True)
for upper, left, unit in ((False, True, False), (True, True, True), (True, False, False)):
    A = torch.tanh(b.flatten()[:2].outer(b.flatten()[-2:])) + torch.tensor([[2.45, 0.1], [0.3, 1.7]])
    B = b.flatten()[:2].reshape(2, 1) if left else b.flatten()[:2].reshape(1, 2)
    X = torch.linalg.solve_triangular(A.triu() if upper else A.tril(), B, upper=upper, left=left, unitriangular=unit)
    g, = torch.autograd.grad(X.sum(), [b], create_graph=True)
    print(g, walk(g.grad_fn))
    (g * g).sum().backward()
    print(b.grad)
    b.grad = None
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    same_as_torch(WALK + PROGRAMS[name])
