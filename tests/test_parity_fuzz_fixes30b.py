"""Graph fuzz fixes of session 30 (second round): regressions of differences the graph fuzzer (tests/fuzz_graphs.py:
tensor family ``_Gen.s14`` from seed 348700, nn family from seed 274480) found.

Each program prints what a user sees and runs once with minigrad and once with PyTorch (``parity.same_as_torch``).
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

PROGRAMS = {
    # fixed (seeds 349890, 351192): trace's gradient in an is_grads_batched backward comes from the legacy vmap's
    # trace_backward_batching_rule (zeros of the input's shape, grad copied into their diagonal), a fresh batch and
    # no view (the unbatched backward's is a view of its filled flat zeros)
    "trace_is_grads_batched_not_a_view": """
for dt in (torch.float32, torch.float64, torch.complex64):
    for shape in ((2, 3), (3, 3), (1, 3), (3, 1)):
        a = torch.arange(float(shape[0] * shape[1])).reshape(shape).to(dt).requires_grad_()
        t = a.trace()
        for v in (torch.arange(1., 5.).to(dt), torch.arange(1., 13.).to(dt).view(4, 3)[:, 1]):
            g, = torch.autograd.grad(t * 2, a, v, is_grads_batched=True, retain_graph=True)
            print(g, g._is_view(), g._base is None, g.stride(), g.requires_grad)
        g, = torch.autograd.grad(t, a, torch.ones((), dtype=dt), retain_graph=True)
        print(g._is_view(), g.stride())   # (unbatched: still the view of the filled zeros)
        vv = torch.arange(1., 5.).to(dt).requires_grad_()
        g, = torch.autograd.grad(t, a, vv, is_grads_batched=True, create_graph=True)
        print(g.detach(), g._is_view(), g.stride(), g.requires_grad)
        g.abs().sum().backward()
        print(vv.grad)
a = torch.ones(2, 2, requires_grad=True)
g, = torch.autograd.grad(torch.norm(a.trace(), -2, None, True), a, torch.ones(1),
                         is_grads_batched=True)
print(g, g._is_view())
""",
    # fixed (seed 357232): a gradient of is_grads_batched that is a view (of the grad_output's batch, or of the batch
    # of the rows' storages: real of a complex gradient, a sum's expanded gradient, a transpose's) is made inside
    # PyTorch's one backward pass, a no_grad view but with create_graph: written in place with grad mode on and an
    # operand that requires grad, it is refused (and stays unchanged)
    "is_grads_batched_views_are_no_grad_views": """
a = torch.tensor([[1.3, 0.5, 2.], [0.2, 0.7, 1.1]], requires_grad=True)
w = torch.ones(3, requires_grad=True)
fs = {"sum": lambda a: a.sum(), "t": lambda a: a.t(), "exp": lambda a: a.exp(), "cplx": lambda a: (a * (1 + 2j)).abs(),
      "view": lambda a: a.view(6), "expand": lambda a: a.expand(2, 2, 3), "select": lambda a: a[0], "id": lambda a: a,
      "real": lambda a: torch.view_as_real(a * 1j), "sum0": lambda a: a.sum(0, keepdim=True)}
for k, f in fs.items():
    # (with create_graph, minigrad's rows that have a history are stacked: not a view, as PyTorch's real of the
    # complex batch is; see autograd._stack_rows)
    for create_graph in (False,) if k == "cplx" else (False, True):
        y = f(a)
        v = torch.arange(1., 3 * y.numel() + 1).reshape(3, *y.shape).to(y.dtype)
        g, = torch.autograd.grad(y, a, v, is_grads_batched=True, retain_graph=True, create_graph=create_graph)
        r = [g._is_view()]
        for fn in (lambda g: g[0].mul_(w), lambda g: g.mul_(w), lambda g: g.unfold(0, 1, 2).copy_(w.view(3, 1)),
                   lambda g: g.mul_(2)):
            try:
                fn(g)
                r.append("ok")
            except Exception as e:
                r.append(str(e)[:40])
        print(k, create_graph, r, g.detach(), g.requires_grad)
b = torch.tensor([1.3], requires_grad=True)
v8 = b * (1 + 2j)
v9 = v8.abs().pow(2) - v8.imag
g10, = torch.autograd.grad(v9, b, torch.eye(1), retain_graph=True, is_grads_batched=True)
try:
    g10.unfold(0, 1, 2).copy_(v9)
except RuntimeError as e:
    print(e)
print(g10, g10._is_view())
""",
    # fixed (found with seed 357232): copy_, index_copy_, index_add_, scatter_add_ and lerp_ into a no_grad view, of
    # a source (or end, weight) that requires grad: PyTorch's VariableType refuses the view before the kernel checks
    # shapes, indices, memory overlap
    "inplace_into_no_grad_view_refused_before_kernel_checks": """
w = torch.ones(3, requires_grad=True)
base = torch.ones(2, 3)
with torch.no_grad():
    v = base.unsqueeze(-1)
    e = torch.ones(1).expand(3)
    u = base[0]
i = torch.tensor([0])
calls = [lambda: v.copy_(w), lambda: v[0].copy_(w), lambda: e.copy_(w), lambda: e[:2].copy_(w[:2]),
         lambda: v.copy_(w[:2]), lambda: v.index_copy_(0, i, w), lambda: v.index_add_(0, i, w),
         lambda: v.scatter_add_(0, i, w), lambda: v.lerp_(w, 0.5), lambda: v.lerp_(w[:2], w),
         lambda: v.lerp_(torch.ones(2), w), lambda: u.lerp_(torch.ones(2), w), lambda: u.index_add_(0, i.float(), w),
         lambda: u.index_copy_(0, torch.tensor([9]), w[:1]), lambda: u.scatter_add_(0, torch.tensor([9]), w),
         lambda: u.index_add_(0, i, w, alpha=1j), lambda: u.copy_(w.double()), lambda: e.index_copy_(0, i, w[:1]),
         # (operands that require no grad: the kernel's errors, or the write)
         lambda: v.copy_(torch.ones(3)), lambda: e.copy_(torch.ones(3)), lambda: u.index_add_(0, i, torch.ones(3)),
         lambda: u.lerp_(torch.ones(2), 0.5), lambda: u.scatter_add_(0, torch.tensor([9]), torch.ones(3))]
for f in calls:
    E(f)
with torch.no_grad():
    E(lambda: v.copy_(w))
print(base, w.grad)
""",
    # fixed (session 29's leftover): x.copy_(y, non_blocking=<not a bool>) by keyword: PyTorch's parser error names
    # no position then ("(position 2)" only when it came by position)
    "copy_non_blocking_by_keyword": """
x, y = torch.zeros(2), torch.ones(2)
for f in (lambda: x.copy_(y, None), lambda: x.copy_(y, non_blocking=None), lambda: x.copy_(y, True),
          lambda: x.copy_(y, non_blocking=True), lambda: x.copy_(y, True, non_blocking=True), lambda: x.copy_(y, 1),
          lambda: x.copy_(y, non_blocking=1), lambda: x.copy_(y, True, True), lambda: x.copy_(None, non_blocking=True),
          lambda: x.copy_(None, non_blocking=None), lambda: torch.Tensor.copy_(x, y, non_blocking="a"),
          lambda: x.copy_(2.5, non_blocking=False), lambda: x.copy_(y, non_blocking=False)):
    E(f)
    print(x)
""",
    # fixed (seed 356757): repeat_interleave with a tensor of repeats reads input.size(dim), which refuses any dim
    # of a 0-dim input ("Dimension specified as 1 but tensor has no dimensions") and a dim out of range of another;
    # repeats of more than one dim are refused before
    "repeat_interleave_tensor_repeats_dim_checks": """
x = torch.tensor(2.)
R = torch.repeat_interleave
for f in (lambda: R(x, torch.tensor([2]), dim=1), lambda: R(x, torch.tensor([2]), dim=0),
          lambda: R(x, torch.tensor(2), dim=-1), lambda: R(x, 2, dim=1),
          lambda: R(x, torch.tensor([2]), dim=-2), lambda: R(x, torch.tensor([2])),
          lambda: torch.repeat_interleave(torch.ones(2), torch.tensor([2, 1]), dim=1),
          lambda: torch.repeat_interleave(torch.ones(2), torch.tensor([2]), dim=-2),
          lambda: torch.repeat_interleave(torch.ones(2, 1), torch.tensor([2, 1]), dim=-2),
          lambda: x.repeat_interleave(torch.tensor([[2]]), dim=1),
          lambda: x.repeat_interleave(torch.tensor([2, 3]), dim=0)):
    E(f)
""",
    # fixed (seed 366671): x ** 2's backward with a ZeroTensor gradient (the real sgn's, then an inf x): PyTorch's
    # product with it is a ZeroTensor, so 0 where x is infinite; pow_backward's fast path for exponent 2 gave NaN
    "pow2_backward_of_zero_tensor_grad": """
b = torch.tensor([-1.78, 0.54, -0.34], requires_grad=True)
v0 = torch.divide(b, torch.arange(3), rounding_mode='trunc')
for e in (2, 3, 2.0, 0.5):
    v1 = (b - v0) ** e
    v3 = v1.sgn()[v1.sgn() > 0].sum()
    b.grad = None
    v3.backward(retain_graph=True)
    print(e, b.grad)
    b.grad = None
    v1.sgn().sum().backward(retain_graph=True)
    print(e, b.grad)
x = torch.tensor([float("inf"), -float("inf"), float("nan"), 2.], dtype=torch.float64, requires_grad=True)
g, = torch.autograd.grad((x ** 2).sgn().sum(), x)
print(g)
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    same_as_torch(PROGRAMS[name])


def test_stale_multi_output_view_refused_before_kernel_warning():
    # fixed (session 29's leftover): triangular_solve and index_reduce of a multi-output view whose base was modified
    # in place: PyTorch's VariableType refuses the view before the kernel warns (triangular_solve's deprecation,
    # index_reduce's beta) and checks shapes; a fresh warn-once state, so that the warnings would show
    from parity import fresh_warn_once
    with fresh_warn_once():
        same_as_torch("""
import warnings
def stale(kind):
    b = torch.ones(3, 2, requires_grad=True)
    v0 = b * 1
    v = v0.unbind(0)[0] if kind == "unbind" else v0.chunk(2, 1)[0]
    v0.mul_(2)
    return v
calls = [lambda v: torch.triangular_solve(v, torch.ones(2, 2)), lambda v: torch.triangular_solve(torch.ones(2, 2), v),
         lambda v: torch.triangular_solve(v, torch.eye(3)),
         lambda v: v.index_reduce(0, torch.tensor([0]), torch.ones(1), "prod"),
         lambda v: torch.ones(2).index_reduce(0, torch.tensor([0]), v[:1], "amax"),
         lambda v: v.index_reduce_(0, torch.tensor([0]), torch.ones(1), "prod")]
for f in calls:
    for kind in ("unbind", "chunk"):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            E(lambda: f(stale(kind)))
        print([str(x.message)[:40] for x in w])
# (triangular_solve's meta function checks ranks, dtypes (b and A alike) and sizes before the warning too)
for f in (lambda: torch.triangular_solve(torch.ones(2), torch.eye(2)),
          lambda: torch.triangular_solve(torch.ones(2, 2), torch.ones(2)),
          lambda: torch.triangular_solve(torch.ones(3, 2), torch.eye(2)),
          lambda: torch.triangular_solve(torch.ones(2, 2), torch.eye(2, dtype=torch.double)),
          lambda: torch.triangular_solve(torch.ones(2, 3, dtype=torch.double), torch.eye(3, dtype=torch.cfloat)[:, :1]),
          lambda: torch.triangular_solve(torch.ones(2, 2, dtype=torch.long), torch.eye(2, dtype=torch.long)),
          lambda: torch.triangular_solve(torch.ones(2, 2), torch.eye(2)),
          lambda: torch.ones(2).index_reduce(0, torch.tensor([0]), torch.ones(1), "mean")):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        E(f)
    print([str(x.message)[:40] for x in w])
""")
