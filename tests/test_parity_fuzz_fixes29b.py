"""Graph fuzz fixes of session 29 (second helper): regressions of differences the graph fuzzer (tests/fuzz_graphs.py:
tensor family ``_Gen.s14`` and the nn family) found.

Each program prints what a user sees (here: the error of each call) and runs once with minigrad and once with
PyTorch (``parity.same_as_torch``); each is a short explicit form of the seed that found it.
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

PROGRAMS = {
    # fixed (seeds 323503, 323514): a multi-output (or no_grad) view whose base was modified in place is refused
    # when an op collects its edge, which PyTorch's VariableType does before the kernel checks its arguments: that
    # refusal comes before a bool subtraction's, a broadcast error, an input overlapping the written tensor,
    # alpha's check, cat's and dot's shape checks, gather's index bounds and index_put_'s value shape
    "rebased_multi_output_view_refused_before_kernel_checks": """
def stale(kind):
    b = torch.ones(2, 3, requires_grad=True)
    v0 = b * 1
    v1 = v0.unbind(1)[0] if kind == "unbind" else v0.chunk(2, 0)[0]
    if kind == "no_grad":
        with torch.no_grad():
            v1 = v0[0]
    if kind == "chunk_no_grad":
        with torch.no_grad():
            v0.mul_(2)
    else:
        v0.mul_(2)
    return v0, v1
m = torch.tensor([True, False])
calls = [lambda v0, v: v - m, lambda v0, v: torch.rsub(v, m, alpha=2), lambda v0, v: True - v,
         lambda v0, v: v * torch.ones(4), lambda v0, v: torch.where(m[:1], v, torch.ones(5)),
         lambda v0, v: torch.add(v, torch.ones(v.shape), alpha=1j), lambda v0, v: torch.atan2(v, torch.ones(7)),
         lambda v0, v: torch.cat([v, torch.ones(2, 2)]), lambda v0, v: torch.cat([v.view(-1), torch.ones(2)]),
         lambda v0, v: torch.dot(v.view(-1), torch.ones(9)), lambda v0, v: v.gather(0, torch.tensor([5])),
         lambda v0, v: v0.index_put_((torch.tensor([0]),), v, accumulate=True), lambda v0, v: v0.add_(v, alpha=0.5),
         lambda v0, v: v0.masked_scatter_(torch.ones(v0.shape, dtype=torch.bool), v),
         lambda v0, v: v0.__setitem__(torch.tensor([0, 1]), v.view(-1)[:1].expand(3, 3))]
for kind in ("unbind", "chunk", "chunk_no_grad", "no_grad"):
    for i, call in enumerate(calls):
        v0, v = stale(kind)
        try:
            call(v0, v)
            print(kind, i, "ok")
        except Exception as e:
            print(kind, i, type(e).__name__, e)
        with torch.no_grad():   # (grad mode off: no edges collected, the kernel's own error)
            try:
                call(v0.detach(), v.detach())
                print(kind, i, "no_grad ok")
            except Exception as e:
                print(kind, i, "no_grad", type(e).__name__, e)
""",
    # fixed (seed 324929): index_add into a self of more than one dim with alpha 1 adds the source's slices as they
    # are (complex infinities stay infinite), where a 1-d self's loop multiplies by alpha ((1+0j)·(inf+infj) is nan)
    "index_add_complex_infinities_alpha_one": """
inf = float("inf")
for dt in (torch.complex64, torch.complex128):
    for shape in ((3,), (3, 1), (3, 2), (2, 3, 2)):
        for alpha in (1, 2, 1.0, -1):
            s = torch.full(shape, complex(inf, inf), dtype=dt)
            s[0] = complex(-inf, inf)
            z = torch.zeros(shape, dtype=dt)
            z[-1] = complex(inf, -inf)
            for d in (0, -1):
                i = torch.arange(shape[d]).flip(0)
                print(dt, shape, alpha, d, z.index_add(d, i, s, alpha=alpha),
                      z.clone().index_add_(d, i, s, alpha=alpha))
a = torch.full((2, 2), complex(inf, inf), requires_grad=True)
r = torch.zeros(3, 2, dtype=torch.complex64).index_add(0, torch.tensor([0, 2]), a * 1)
print(r, r.grad_fn)
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    same_as_torch(PROGRAMS[name])
