"""Graph fuzz fixes of session 30: regressions of differences the graph fuzzer (tests/fuzz_graphs.py: tensor family
``_Gen.s14`` and the nn family) found, and the stale multi-output views left over from session 29.

Each program prints what a user sees (here: the error of each call) and runs once with minigrad and once with
PyTorch (``parity.same_as_torch``).
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

PROGRAMS = {
    # fixed (session 29's leftover): a multi-output (or no_grad) view whose base was modified in place is refused
    # when an op collects its edge, which PyTorch's VariableType does before the kernel checks its arguments: that
    # refusal comes before select's and index_select's index errors, take's bounds, stack's sizes, mv's, mm's,
    # matmul's and addmm's (linear's) shapes, scatter's dim, index and dtype checks, kthvalue's k, expand's sizes,
    # roll's shifts and dims, masked_fill's mask dtype and value rank, the bitwise ops' float refusal, polar's and
    # complex's dtypes and div's rounding_mode; PyTorch's parser errors (select(None, 0)) still come first
    "rebased_multi_output_view_refused_before_kernel_checks": """
F = torch.nn.functional
def stale(kind):
    b = torch.ones(3, 2, requires_grad=True)
    v0 = b * 1
    v = v0.unbind(0)[0] if kind == "unbind" else v0.chunk(2, 1)[0]   # (shape [2] or [3, 1])
    if kind == "no_grad":
        with torch.no_grad():
            v = v0[0]
    v0.mul_(2)
    return v
i64, f64 = torch.int64, torch.float64
calls = [lambda v: v.select(0, 5), lambda v: v.select(3, 0), lambda v: v.select(None, 9), lambda v: v.select(7, 1.5),
         lambda v: v.index_select(0, torch.tensor([7])), lambda v: v.index_select(0, torch.tensor([0.])),
         lambda v: v.take(torch.tensor([9])), lambda v: v.take(torch.tensor([0.])),
         lambda v: torch.stack([v, torch.ones(5)]), lambda v: torch.stack([v, v], 4),
         lambda v: torch.stack([torch.ones(5), v]), lambda v: torch.mv(torch.ones(3, 5), v),
         lambda v: torch.mv(v, torch.ones(5)), lambda v: torch.mv(v, torch.ones(1, dtype=f64)),
         lambda v: torch.mm(v, torch.ones(5, 2)), lambda v: torch.mm(v, torch.ones(1, 2, dtype=f64)),
         lambda v: torch.mm(v, torch.ones(1)), lambda v: F.linear(v, torch.ones(3, 5)),
         lambda v: F.linear(v, torch.ones(3, 5), torch.ones(3)), lambda v: F.linear(torch.ones(4, 5), v, torch.ones(3)),
         lambda v: F.linear(torch.ones(4, 5), torch.ones(3, 5), v), lambda v: torch.matmul(v, torch.ones(5, 2)),
         lambda v: v @ torch.ones(5), lambda v: torch.ones(5) @ v, lambda v: torch.ones(4, 2, 5) @ v,
         lambda v: v.scatter(0, torch.tensor([9]), 1.0), lambda v: v.scatter(0, torch.tensor([[[0]]]), 1.0),
         lambda v: v.scatter(0, torch.tensor([0]), torch.ones(1, dtype=f64)),
         lambda v: v.scatter(5, torch.tensor([0]), 1.),
         lambda v: v.scatter(0, torch.tensor([0.]), 1.0), lambda v: v.scatter_add(0, torch.tensor([9]), v),
         lambda v: v.scatter_add(4, torch.tensor([0]), v), lambda v: v.kthvalue(9), lambda v: v.kthvalue(1, 4),
         lambda v: v.expand(4, 5), lambda v: v.expand(1), lambda v: v.roll((1, 2), (0,)), lambda v: v.roll(1, 3),
         lambda v: v.masked_fill(torch.ones(v.shape, dtype=i64), 0.0),
         lambda v: v.masked_fill(torch.ones(v.shape, dtype=torch.bool), torch.ones(3)),
         lambda v: v.masked_fill(torch.ones(7, dtype=torch.bool), 0.0), lambda v: v & v, lambda v: v | 1,
         lambda v: v ^ torch.ones(2, dtype=i64), lambda v: v << 1, lambda v: torch.bitwise_and(v, 1),
         lambda v: torch.polar(v, torch.ones(2, dtype=f64)), lambda v: torch.complex(v, torch.ones(2, dtype=f64)),
         lambda v: torch.polar(v.double(), v), lambda v: torch.complex(v, torch.ones(9)),
         lambda v: torch.polar(v, v.long()), lambda v: torch.div(v, 2, rounding_mode="bad"),
         lambda v: torch.div(v, torch.ones(9), rounding_mode="floor"),
         lambda v: torch.div(v, 1j, rounding_mode="trunc"),
         # (and other kernels' checks: dims, sizes, ranks, dtypes, indices)
         lambda v: v.mean(dtype=i64), lambda v: v.log_softmax(4), lambda v: v.cumprod(4), lambda v: v.transpose(0, 4),
         lambda v: v.permute(4), lambda v: v.squeeze(4), lambda v: v.squeeze((0, 0)), lambda v: v.unsqueeze(4),
         lambda v: v.repeat(1, 0, -1), lambda v: v.tile(-1), lambda v: v.diagonal(0, 4), lambda v: v.diagonal(0, 0),
         lambda v: v.diag_embed(0, 4, 5), lambda v: v.unfold(4, 1, 1), lambda v: v.unfold(0, 9, 1),
         lambda v: v.split(0), lambda v: v.split([1, 9]), lambda v: v.chunk(2, 4), lambda v: v.unbind(4),
         lambda v: torch.cat([v], 4), lambda v: torch.addmv(torch.ones(3), torch.ones(3, 5), v),
         lambda v: torch.bmm(v, v), lambda v: torch.baddbmm(v, v, v), lambda v: torch.addr(v, v, torch.ones(9)),
         lambda v: torch.addbmm(v, torch.ones(2, 2, 2), torch.ones(2, 2, 2)),
         lambda v: v.index_fill(4, torch.tensor([0]), 1.), lambda v: v.index_add(0, torch.tensor([9]), v),
         lambda v: v.index_copy(0, torch.tensor([9]), v), lambda v: v.index_reduce(0, torch.tensor([9]), v, "prod"),
         lambda v: v.scatter_reduce(0, torch.tensor([9]), v, "sum"),
         lambda v: v.masked_select(torch.ones(9, dtype=torch.bool)), lambda v: v.masked_select(torch.ones(2)),
         lambda v: v.masked_scatter(torch.ones(9, dtype=torch.bool), v), lambda v: v.put(torch.tensor([9]), v[:1]),
         lambda v: v.index_put((torch.tensor([9]),), torch.ones(1)), lambda v: v[torch.tensor([9])], lambda v: v[9],
         lambda v: v.rot90(1, (0, 4)), lambda v: v.trace(), lambda v: v.tril(), lambda v: v.triu(),
         lambda v: v.renorm(2, 4, 1.), lambda v: torch.view_as_real(v), lambda v: torch.view_as_complex(v),
         lambda v: torch.gcd(v, v), lambda v: torch.ones(5).scatter_(0, torch.tensor([9]), v),
         lambda v: v.gcd_(v), lambda v: v.index_fill_(4, torch.tensor([0]), 1.), lambda v: v.put_(torch.tensor([9]), v),
         lambda v: v.unique(dim=4), lambda v: v.chunk(0), lambda v: v.chunk(2, 4),
         lambda v: torch.block_diag(v, torch.ones(2, 2, 2)), lambda v: F.embedding(torch.tensor([9]), v),
         lambda v: F.nll_loss(v, torch.tensor([9])), lambda v: F.layer_norm(v, (9,)),
         lambda v: F.layer_norm(v, (2,), torch.ones(3)), lambda v: v.as_strided((9,), (1,))]
for kind in ("unbind", "chunk", "no_grad"):
    for i, call in enumerate(calls):
        v = stale(kind)
        try:
            call(v)
            print(kind, i, "ok")
        except Exception as e:
            print(kind, i, type(e).__name__, e)
        with torch.no_grad():   # (grad mode off: no edges collected, the kernel's own error)
            try:
                call(v.detach())
                print(kind, i, "no_grad ok")
            except Exception as e:
                print(kind, i, "no_grad", type(e).__name__, e)
""",
    # fixed (the same leftover): linalg functions whose kernels check the matrices refuse a rebased view first;
    # the composite ones (logdet, cond, matrix_norm, matrix_power, matrix_rank) check the input's rank themselves
    "rebased_multi_output_view_refused_before_linalg_checks": """
L = torch.linalg
def stale(kind, shape):
    b = torch.ones(*shape, requires_grad=True)
    v0 = b * 1
    v = v0.unbind(0)[0]
    if kind == "no_grad":
        with torch.no_grad():
            v = v0[0]
    v0.mul_(2)
    return v
fs = [L.det, L.inv, L.inv_ex, lambda v: L.solve(v, v), L.cholesky, L.cholesky_ex, L.qr, L.eigh, L.eigvalsh, L.svd,
      L.svdvals, L.slogdet, torch.logdet, L.matrix_exp, L.cond, L.matrix_norm, lambda v: L.matrix_power(v, 2),
      L.eigvals, L.eig, L.lu_factor, L.lu, lambda v: L.lstsq(v, v), L.pinv, L.matrix_rank, torch.cholesky_inverse,
      lambda v: L.solve_triangular(v, v, upper=True), torch.det, torch.inverse, lambda v: L.cross(v, v), L.vander,
      L.diagonal, lambda v: L.householder_product(v, v), L.ldl_factor, lambda v: L.norm(v, "fro"),
      lambda v: L.solve_ex(v, v), torch.geqrf, lambda v: L.matrix_norm(v, "nuc"), lambda v: L.cond(v, 2),
      torch.pinverse, torch.svd, lambda v: L.lu_solve(v, torch.ones(2, dtype=torch.int32), v)]
for kind in ("unbind", "no_grad"):
    for shape in ((3, 2), (2, 2, 3)):
        for i, f in enumerate(fs):
            try:
                f(stale(kind, shape))
                print(kind, shape, i, "ok")
            except Exception as e:
                print(kind, shape, i, type(e).__name__, e)
""",
    # fixed (seed 337092): repeat_interleave with a tensor of counts takes a conjugate (or negative) view's bit off
    # before its index_select and puts it back on the result, as PyTorch's: a conjugate view, ConjBackward0
    "repeat_interleave_of_conjugate_and_negative_views": """
d = torch.tensor([[1+2j, 3-1j], [0.5j, 2.]], requires_grad=True)
for v0 in (d.mH, d.conj(), d.conj().imag, torch.tensor([[1., 2.], [3., 4.]], requires_grad=True).t()):
    for r in (torch.tensor([1, 2]), torch.tensor([2]), torch.tensor(1), 2):
        for dim in (0, 1, None):
            try:
                v2 = torch.repeat_interleave(v0, r, dim=dim)
            except Exception as e:
                print(type(e).__name__, e)
                continue
            print(v2.grad_fn.name(), v2._is_view(), v2.is_conj(), v2.is_neg(), v2.stride(),
                  [f.name() if f else None for f, _ in v2.grad_fn.next_functions], v2)
            g, = torch.autograd.grad(v2.abs().sum(), d if v0.is_complex() else v0, allow_unused=True)
            print(g)
""",
    # fixed (seed 328068): copy_ of something that is no tensor nor number (a None gradient of autograd.grad with
    # allow_unused) is PyTorch's parser error, naming its parameter other; so is a non_blocking that is no bool
    "copy_parser_errors": """
x = torch.ones(2, requires_grad=True)
g, = torch.autograd.grad(x.sum(), [torch.ones(1, requires_grad=True)], allow_unused=True)
for f in [lambda y: y.copy_(g), lambda y: y.copy_(None, True), lambda y: y.copy_([1., 2.]), lambda y: y.copy_("a"),
          lambda y: y.copy_(y, 1), lambda y: y.copy_(torch.ones(2), src=y), lambda y: y.copy_(other=torch.ones(2) * 2),
          lambda y: y.copy_(True), lambda y: y.copy_(2.5), lambda y: y.copy_(torch.ones(2) * 3, False)]:
    y = x * 1
    try:
        print(f(y), y._version)
    except Exception as e:
        print(type(e).__name__, e, y._version)
""",
    # fixed (seed 329335): a custom Function's mark_dirty resets the modified input's .grad (PyTorch's set_history
    # for a modified input), so a retained gradient starts anew from the next backward; only when the Function
    # is recorded (an input requires grad), also for an input that did not require grad itself
    "mark_dirty_resets_grad": """
class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x, y * 1
    @staticmethod
    def backward(ctx, g, h):
        return g * 2, h
c = torch.tensor([[1., 2.], [3., 5.]], requires_grad=True)
w = torch.ones(2, requires_grad=True)
v = c.var(0, unbiased=False)
v.retain_grad()
torch.autograd.backward([v.mean()], retain_graph=True, inputs=v)
print(v.grad)
out, _ = Double.apply(v, w)
print(out is v, v.grad, v.retains_grad, v.grad_fn.name())
(v * torch.tensor([3., 4.])).sum().backward()
print(v.grad, c.grad)
x = torch.ones(3)
x.grad = torch.full((3,), 7.)
Double.apply(x, w)
print(x.grad, x.requires_grad, x.is_leaf)
with torch.no_grad():
    u = c * 1
u.grad = torch.ones(2, 2)
Double.apply(u, torch.ones(2))   # (not recorded: its .grad stays)
print(u.grad)
""",
    # fixed (seed 330818): cdist with infinite or NaN coordinates: p=2 in float64 adds its last features' squares
    # with a fused multiply-add, whose emulation (_float_math._fma64) gave NaN for an infinite square (inf, as a
    # fused one gives); p=0 counts min(ceil(|diff|), 1), so a NaN difference makes the distance NaN
    "cdist_infinite_and_nan_coordinates": """
inf, nan = float("inf"), float("nan")
x = torch.tensor([[inf, 1., 2.], [0., -inf, 3.], [1., 1., 1.], [1e300, 2., 1.]], dtype=torch.float64)
y = torch.tensor([[inf, 1., 2.], [0., 1., 3.], [nan, 1., 1.], [2., 1e300, 0.]], dtype=torch.float64)
for p in (2.0, 1.0, 0., 3., inf):
    for dt in (torch.float64, torch.float32):
        for n in (1, 2, 3):
            print(p, dt, n, torch.cdist(x[:, :n].to(dt), y[:, :n].to(dt), p=p))
print(torch.cdist(x, y, compute_mode="donot_use_mm_for_euclid_dist"))
a = x[:, :3].clone().requires_grad_()
r = torch.cdist(a, y, p=0.)
r.sum().backward()
print(r, a.grad)
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    same_as_torch(PROGRAMS[name])
