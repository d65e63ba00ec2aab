"""Regressions of differences the graph fuzzer (tests/fuzz_graphs.py: tensor family ``_Gen.s14`` and the nn family)
found in session 25.

Each program prints what a user sees (values, strides, graphs, errors, warnings) and runs once with minigrad and once
with PyTorch (``parity.same_as_torch``); each is a short explicit form of the seed that found it.
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

PROGRAMS = {
    # fixed: coalesce adds the copies of an entry as PyTorch's kernel does: the first copied, then each next one
    # added to it in turn (axpy), ((a + b) + c); NumPy's reduceat added the rest's sum to the first, a + (b + c)
    # (a sparse embedding gradient accumulated over two backward calls, then coalesced: seed 252870)
    "sparse_coalesce_sums_left_to_right": """
w = torch.tensor([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6], [0.7, 0.8]], requires_grad=True)
i = torch.tensor([[2, 2, 0], [3, 1, 0]])
e = torch.nn.functional.embedding(i, w, padding_idx=-1, sparse=True)
(e * e * -2.3).sum().backward()
torch.nn.functional.embedding(i[:1], w, sparse=True).sum().backward()
g = w.grad
print(g._indices(), g._values(), g.is_coalesced())
c = g.coalesce()
print(c.indices(), c.values().tolist(), c.to_dense().tolist())
s = torch.sparse_coo_tensor(torch.tensor([[1, 0, 1, 1]]), torch.tensor([-0.46, 5., -0.46, 1.]), (2,))
print(s.coalesce().values().tolist())
s = torch.sparse_coo_tensor(torch.tensor([[0, 0, 0]]), torch.tensor([-0., -0., -0.]), (1,))
print(s.coalesce().values())
""",
    # fixed: the requires_grad setter and requires_grad_() test the node a tensor holds (C++'s is_leaf()), not one
    # regenerated then: a split output whose base changed in place is refused as a non-leaf, and requires_grad_()
    # on it passes; reading its grad_fn is what refuses the in-place change (seed 255075)
    "requires_grad_of_a_stale_multi_output_view": """
b = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
v2 = b * 2
v4, v5 = torch.split(v2, 1, 0)
v2[0] = b[1]
E(lambda: setattr(v4, 'requires_grad', True))
E(lambda: setattr(v4, 'requires_grad', False))
E(lambda: v4.requires_grad_(False))
E(lambda: v4.requires_grad_(True))
E(lambda: v4.is_leaf)
y = torch.ones(3, requires_grad=True).clone()
u = y[:2]
u.mul_(2)
E(lambda: setattr(u, 'requires_grad', True))
z = torch.ones(3).clone()
zz = z[:2]
zz.add_(torch.ones(2, requires_grad=True))
E(lambda: setattr(zz, 'requires_grad', False))
E(lambda: zz.requires_grad_(True))
x = torch.ones(3)
w = x[:2]
x.requires_grad_()
E(lambda: setattr(w, 'requires_grad', True))
print(w.requires_grad, w.grad_fn, w.is_leaf)
""",
    # fixed: index_put_'s checks in PyTorch's order: the number of index tensors against the dims first (a k-dim
    # mask counts once: "got 1" for a 0-dim tensor), then each mask's sizes (masked_fill's dispatch for one value,
    # then expandTensors), a mask past the last dim asking for a dim out of range; a k-dim mask lists k shapes in
    # the broadcast error (seed 256039: cov's 0-dim result given a [1, 1] mask)
    "index_put_checks": """
a = torch.tensor([1., 2., 4.], dtype=torch.float64, requires_grad=True)
v = torch.cov(a, correction=1)
E(lambda: v.index_put_((torch.tensor([[True]]),), torch.ones(1, 2)))
z = torch.tensor(2.)
for m in (torch.tensor(True), torch.tensor([[True]]), torch.tensor([[[False]]])):
    E(lambda: z.index_put_((m,), torch.ones(1)))
    E(lambda: z.index_put_((m,), torch.ones(1), accumulate=True))
E(lambda: z.index_put_((), torch.ones(1)))
print(z)
x = torch.zeros(2)
m2 = torch.tensor([[True, False], [False, True]])
E(lambda: x.index_put_((m2,), torch.ones(1)))
E(lambda: x.index_put_((m2, torch.tensor([0])), torch.ones(1)))
E(lambda: x.index_put_((torch.tensor([[[True]]]),), torch.ones(1)))
E(lambda: x.index_put((m2,), torch.ones(1)))
E(lambda: x.index_put_((torch.tensor(True),), torch.ones(1)))
print(x)
y = torch.zeros(2, 3)
E(lambda: y.index_put_((torch.ones(2, 3, 1, dtype=torch.bool),), torch.ones(1)))
E(lambda: y.index_put_((torch.ones(2, 3, 1, dtype=torch.bool),), torch.ones(1), accumulate=True))
E(lambda: y.index_put_((torch.ones(2, 3, 1, dtype=torch.uint8),), torch.ones(1)))
E(lambda: y.index_put_((torch.tensor([True, False, True]), torch.tensor([0.5])), torch.ones(1)))
E(lambda: y.index_put_((torch.ones(2, 3, dtype=torch.bool), torch.tensor([0])), torch.ones(1)))
E(lambda: y.index_put_((torch.ones(2, 3, dtype=torch.bool), torch.tensor([0, 1])), torch.ones(2)))
E(lambda: torch.zeros(2, 3, 4)[torch.ones(2, 3, dtype=torch.bool), torch.tensor([0, 1])])
E(lambda: y.index_put_((torch.tensor([1, 0]), torch.tensor([[True, False, True]])), torch.ones(1)))
b = torch.zeros(2, 3, requires_grad=True) * 1
E(lambda: b.index_put_((torch.ones(2, 3, 1, dtype=torch.bool),), torch.ones(1)))
""",
    # fixed: dense + α·sparse as PyTorch's add_out_dense_sparse_cpu: uncoalesced entries added one at a time in
    # their stored order (BLAS axpy: one rounding of α·v + r), not their sums; coalesced ones without dense dims
    # round the product first; so SGD's p.add_(grad, alpha=-lr) with a sparse embedding gradient (seed 253373)
    "dense_plus_sparse_entries_one_by_one": """
idx = torch.tensor([[1, 0, 1, 1, 2, 1]])
vals = torch.tensor([[0.3, -1.7], [0.66, 0.1], [1.1, 2.9], [-0.77, 1.3], [0.2, 0.4], [3.3, -0.01]])
s = torch.sparse_coo_tensor(idx, vals, (3, 2))
w = torch.tensor([[-0.33, 0.5], [-0.85, 0.25], [0.1, 0.2]])
for alpha in (1, -0.1, 0.37):
    print(w.clone().add_(s, alpha=alpha).tolist(), torch.add(w, s, alpha=alpha).tolist())
    print(w.clone().add_(s.coalesce(), alpha=alpha).tolist(), w.clone().sub_(s, alpha=alpha).tolist())
print((w + s).tolist(), (w - s).tolist())
for alpha in (1, -0.1, 0.37):   # (a strided result: the entries coalesced first, then the dense add)
    x = torch.cat([w, torch.ones(3, 1)], 1)
    x[:, :2].add_(s, alpha=alpha)
    print(x.tolist())
s1 = torch.sparse_coo_tensor(idx, vals[:, 1].clone(), (3,))
for alpha in (1, -0.1, 0.37):
    print(w[:, 1].add(s1, alpha=alpha).tolist(), w[:, 1].add(s1.coalesce(), alpha=alpha).tolist())
for maximize in (False, True):
    p = torch.nn.Parameter(w.clone())
    p.grad = s
    torch.optim.SGD([p], lr=0.1, maximize=maximize).step()
    print(p.tolist())
w = torch.tensor([[-0.33], [-0.85], [-0.42], [-0.91]], requires_grad=True)
e = torch.nn.functional.embedding(torch.tensor([[1, 0, 1], [1, 3, 2]]), w, padding_idx=-1, sparse=True)
(e * e).sum().backward()
torch.optim.SGD([w], lr=0.5).step()
print(w.tolist())
""",
    # fixed: a complex tensor's vector norm of an order other than 0, 2 and ±inf adds |z| (p = 1) or glibc's
    # pow(|z|, p) element by element from 0 (NormOneOps / NormOps in binary_kernel_reduce's loop), then takes
    # glibc's pow(total, 1/p); NumPy's pairwise sum and its vectorized pow rounded otherwise (seed 253216)
    "complex_vector_norm_orders": """
torch.manual_seed(0)
for dt in (torch.complex128, torch.complex64):
    for shape in ((3, 3), (2, 5), (4, 3, 2), (9, 4)):
        x = torch.randn(shape, dtype=dt)
        for p in (1.5, 3, 0.5, 1, -0.5):
            print(torch.linalg.vector_norm(x, p).item(), torch.linalg.vector_norm(x, p, (0, -1)).tolist(),
                  torch.linalg.vector_norm(x.mT, p, -1, keepdim=True).tolist(), torch.norm(x, p, 1).tolist())
z = torch.tensor([[1 + 2j, -0.5j], [3 - 1j, 0.25 + 0.1j]], dtype=torch.complex128, requires_grad=True)
n = torch.norm(z @ z.mT, 1.5, (0, -1))
g, = torch.autograd.grad(n, z, create_graph=True)
print(n.item(), g)
""",
    # fixed: _cdist_backward for p other than 0, 1, 2 and inf raises |diff| and the distance to p - 1 (p - 2) with
    # Vectorized's pow, SLEEF's, on every feature (the remainder too), the exponent rounded to x's dtype; NumPy's
    # own pow rounded otherwise (seed 253128: cdist(p=0.5)'s gradient for x2)
    "cdist_backward_pow": """
torch.manual_seed(0)
for dt in (torch.float32, torch.float64):
    for p in (0.5, 1.5, 3, 2.5, 0.7):
        for (n, m, k) in ((3, 3, 2), (4, 5, 7), (2, 6, 17)):
            a = torch.randn(n, k, dtype=dt, requires_grad=True)
            b = torch.randn(m, k, dtype=dt, requires_grad=True)
            d = torch.cdist(a, b, p=p)
            ga, gb = torch.autograd.grad(d, [a, b], torch.randn(d.shape, dtype=dt))
            print(dt, p, ga.tolist(), gb.tolist())
a = torch.tensor([[1., 2.], [1., 3.]], requires_grad=True)
print(torch.autograd.grad(torch.cdist(a, a.detach(), p=0.5).sum(), a))
""",
    # fixed (beside seed 253373): SGD with momentum keeps a sparse gradient's momentum buffer sparse, as PyTorch's
    # torch.clone(grad), then buf.mul_(momentum).add_(grad, alpha=1 - dampening) merging entries (an axpy for a
    # matched entry: one rounding); the step adds the buffer's entries one by one
    "sgd_momentum_sparse_buffer": """
for kw in (dict(momentum=0.9), dict(momentum=0.9, nesterov=True), dict(momentum=0.5, dampening=0.3),
           dict(momentum=0.9, maximize=True), dict(maximize=True)):
    w = torch.tensor([[-0.33, 0.5], [-0.85, 0.25], [0.1, 0.2]], requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1, **kw)
    for step in range(3):
        e = torch.nn.functional.embedding(torch.tensor([[1, 0, 1], [1, 2, 1]])[:, step % 2:], w, sparse=True)
        opt.zero_grad()
        (e * e * 1.3).sum().backward()
        opt.step()
        print(kw, w.tolist())
        b = opt.state[w].get('momentum_buffer')
        if b is not None:
            print(b.is_sparse, b._version, b.is_coalesced(), b._indices().tolist(), b._values().tolist())
a = torch.sparse_coo_tensor(torch.tensor([[0, 2, 3]]), torch.tensor([0.3, -1.7, 0.66]), (4,))
b = torch.sparse_coo_tensor(torch.tensor([[0, 1, 3]]), torch.tensor([1.1, 2.9, -0.77]), (4,))
print(a.add(b, alpha=0.37)._values().tolist(), (a - b)._values().tolist())
""",
    # fixed: var_mean / std_mean without degrees of freedom (correction >= the reduced count) take the mean from
    # the same Welford pass as PyTorch's kernel (the statistic inf or nan), not NumPy's mean (seed 254130)
    "var_mean_without_degrees_of_freedom": """
torch.manual_seed(0)
for dt in (torch.float64, torch.float32, torch.complex128):
    for shape in ((2, 3, 5), (2, 33), (4, 1, 2)):
        x = torch.randn(shape, dtype=dt)
        for corr in (1, 2, 3):
            s, m = torch.std_mean(x, -1, correction=corr)
            v, m2 = torch.var_mean(x, 0, correction=corr, keepdim=True)
            print(s.tolist(), m.tolist(), v.tolist(), m2.tolist(), m2.stride())
""",
    # fixed: a dim out of range or repeated is the kernel's error, after VariableType has collected the input's
    # edges: an unbind output's view written in place under no_grad is refused first (nansum over (-1, -1): seed
    # 259406), by reductions over dim lists, prod / cumsum / cummax / logcumsumexp, sort, softmax, flip, aminmax,
    # median / nanmedian / mode / kthvalue / max; not by count_nonzero, argmax, all / any (no autograd kernel)
    "dim_errors_after_rebased_view_refusal": """
fns = [lambda v: torch.nansum(v, (-1, -1)), lambda v: torch.sum(v, (0, 0)), lambda v: v.sum(3),
       lambda v: v.amax((0, 0)), lambda v: v.amin(2), lambda v: torch.aminmax(v, dim=4),
       lambda v: v.mean((0, -1)), lambda v: v.var((0, 0)), lambda v: v.std(5), lambda v: v.norm(2, (0, 0)),
       lambda v: torch.linalg.vector_norm(v, 2, (0, 0)), lambda v: v.logsumexp((0, 0)), lambda v: v.nanmean((0, 0)),
       lambda v: torch.var_mean(v, (0, 0)), lambda v: v.count_nonzero((0, 0)), lambda v: v.prod(3),
       lambda v: v.median(3), lambda v: v.nanmedian(3), lambda v: v.cumsum(3), lambda v: v.argmax(3),
       lambda v: v.max(3), lambda v: v.sort(3), lambda v: v.softmax(3), lambda v: v.mode(3), lambda v: v.kthvalue(1, 3),
       lambda v: v.logcumsumexp(3), lambda v: v.cummax(3), lambda v: v.flip(0, 0), lambda v: v.all((0, 0)),
       lambda v: v.any(3), lambda v: torch.quantile(v, 0.5, 3), lambda v: torch.std_mean(v, 3),
       lambda v: torch.linalg.matrix_norm(v.unsqueeze(0), dim=(0, 0))]
for f in fns:
    c = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
    v7 = c * 1
    v8 = v7.unbind(0)[1]
    v9 = v8.narrow(0, 0, 2)
    with torch.no_grad():
        v9.mul_(2)
    E(lambda: f(v9))
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    same_as_torch(PROGRAMS[name])
