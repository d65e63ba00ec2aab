"""Graph fuzz fixes of session 29: regressions of differences the graph fuzzer (tests/fuzz_graphs.py: tensor family
``_Gen.s14`` and the nn family) found.

Each program prints what a user sees (values, dtypes, strides, graphs) and runs once with minigrad and once with
PyTorch (``parity.same_as_torch``); each is a short explicit form of the seed that found it.
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

PROGRAMS = {
    # fixed (seeds 308654, 308832): lerp is a TensorIterator op, so its result takes the layout of its inputs'
    # strides (lerp(x.t(), x, w) is transposed), not NumPy's C order; binary_cross_entropy writes into
    # empty_like(input) and soft_margin_loss into neg_out(input)'s result, which also orders their sums (float32
    # values) and their backward kernels' grad_input layouts
    "lerp_and_pointwise_losses_layout": """
F = torch.nn.functional
base = torch.arange(24.).reshape(2, 3, 4) / 30 + 0.1
layouts = [lambda b: b.permute(2, 0, 1), lambda b: b[:, ::2].transpose(0, 2), lambda b: b.permute(2, 0, 1).contiguous(),
           lambda b: b[:1].expand(2, 3, 4).permute(2, 0, 1), lambda b: b[:, :1].transpose(0, 1)]
ops = [lambda x, y: torch.lerp(x, y, 0.3), lambda x, y: torch.lerp(x, y, y * 0 + 0.6),
       lambda x, y: torch.lerp(x, y, torch.tensor(0.7, dtype=torch.float64)),
       lambda x, y: F.binary_cross_entropy(x, y, reduction="none"),
       lambda x, y: F.binary_cross_entropy(x, y, weight=y, reduction="none"),
       lambda x, y: F.binary_cross_entropy(x, y, reduction="sum"),
       lambda x, y: F.soft_margin_loss(x, y, reduction="none"), lambda x, y: F.soft_margin_loss(x, y)]
for op in ops:
    for fx in layouts:
        for fy in layouts:
            x = fx(base).detach().requires_grad_()
            y = fy(base.flip(0)).detach()
            if x.shape != y.shape:
                continue
            r = op(x, y)
            gr, = torch.autograd.grad(r, x, torch.ones_like(r) if r.dim() else None, create_graph=True)
            gg, = torch.autograd.grad(gr.sum(), x) if gr.requires_grad else (gr,)
            print(r.stride(), gr.stride(), gg.stride(), r.sum().item())
""",
    # fixed (seeds 308417, 320270): advanced indexing's layout comes from TensorIterator's operands, and PyTorch's index
    # operand is the index reshaped with size-1 dims for the dims before and after it (reshape_indexer): their
    # strides, not 0, order a size-1 dim of the result (v[None, :, idx, None, :] of a permuted v)
    "index_result_layout_size_one_dims": """
v = torch.arange(9.).reshape(3, 3, 1).movedim(0, 2)
i = torch.tensor([-1, -1, -1])
print(v[None, :, i, None, :].stride(), v.unsqueeze(0).unsqueeze(3)[:, :, i].stride(), v[None, :, i].stride())
print(v[:, i, None, :].stride(), v[None, :, torch.tensor([[0], [0]]), None].stride())
x = torch.arange(24.).reshape(2, 3, 4).permute(2, 0, 1)[:, :1]
for idx in ((slice(None), torch.tensor([0, 0])), (torch.tensor([[1], [2]]), slice(None), torch.tensor([0, 1, 2])),
            (None, torch.tensor([3, 1]), torch.tensor([[0], [0]]))):
    print(x[idx].shape, x[idx].stride())
# (seed 320270: separated index tensors, whose dims PyTorch's transposeToFront moves first, self's with them)
w = torch.arange(6.).reshape(2, 3, 1).expand(2, 2, 3, 3)
for idx in ((None, slice(None), torch.tensor([[1, 0]]), slice(None), torch.tensor([2])),
            (torch.tensor([1]), slice(None), torch.tensor([0, 2])),
            (slice(None), torch.tensor(0), slice(None), [1, 1])):
    print(w[idx].shape, w[idx].stride(), w.transpose(0, 1)[idx].stride(), w.mT[idx].stride())
""",
    # fixed (seed 308548): clamp(x, lo, hi)'s bounds take their gradients from one formula, lo's first, run before
    # x's (derivatives.yaml's "min, max" entry sorts before "self"): under create_graph that order numbers their
    # where nodes, which decides the order a later backward runs them in, so the sums it builds
    "clamp_tensor_bounds_backward_order": """
a = torch.tensor([[0.5, 2.5, -1.], [3., 1.2, 0.1]], requires_grad=True)
v1 = a.exp()
cases = [lambda: torch.clamp(a * 1, v1 - 1, v1 + 1), lambda: torch.clamp(a.detach(), v1 - 1, v1 + 1),
         lambda: torch.clamp(a * 1, v1.detach() - 1, v1 + 1), lambda: torch.clamp(a * 1, min=v1 - 1),
         lambda: torch.clamp(a * 1, max=v1 + 1), lambda: torch.clamp(a * 1, v1 + 1, v1 - 1)]
for f in cases:
    v4 = f()
    base = v4.grad_fn._sequence_nr()
    g, = torch.autograd.grad((v4 * v4).sum(), a, create_graph=True)
    seen, stack, out = set(), [g.grad_fn], []
    while stack:
        n = stack.pop()
        if n is None or n in seen:
            continue
        seen.add(n)
        if n.name() == "WhereBackward0":
            out.append((n._sequence_nr() - base, n._saved_condition.flatten().tolist()))
        stack.extend(f for f, _ in n.next_functions)
    print(sorted(out), g)
    h, = torch.autograd.grad(g.sum(), a, create_graph=True)
    print(h, [f.name() if f else None for f, _ in h.grad_fn.next_functions])
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    same_as_torch(PROGRAMS[name])
