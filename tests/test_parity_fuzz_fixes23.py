"""Regressions of differences the graph fuzzer (tests/fuzz_graphs.py: tensor family ``_Gen.s14`` and the nn family)
found in session 23.

Each program prints what a user sees (values, strides, graphs, errors, warnings) and runs once with minigrad and once
with PyTorch (``parity.same_as_torch``); each is a short explicit form of the seed that found it.
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

PROGRAMS = {
    # fixed: a Scalar overload (mul(Tensor, Scalar), fmod, copysign, xlogy ...) wraps its number as a 0-dim
    # TensorIterator operand, so the shapes differ and the tensor's strides, a size-1 dim's too, order the output:
    # alpha * (a (1, 2) tensor of strides (1, 1)) kept them, and addmm's third-order graph then took the column-major
    # branch of mm_mat2_backward (one TBackward0 more); minigrad called these ops directly with C order (seed 215415)
    "scalar_overloads_keep_size_one_strides": """
for x in (torch.ones(2, 1).t(), torch.ones(1, 3, 1).permute(2, 1, 0), torch.ones(3, 1, 2).permute(1, 2, 0)):
    print([t.stride() for t in (torch.fmod(x, 2), torch.remainder(x, 2.5), torch.copysign(x, -1.),
                                torch.xlogy(x, 2.), torch.xlogy(2., x), torch.special.xlog1py(x, 2.),
                                torch.special.xlog1py(2., x), torch.add(x, 2, alpha=3), x * 2, x / 2.5)])
a = torch.tensor([[0.3], [0.7]], requires_grad=True)
v0 = torch.addmm(a[:, :1], a, a.t(), beta=0.5, alpha=2)
g1, = torch.autograd.grad(v0.pow(3).sum(), a, create_graph=True)
g2, = torch.autograd.grad((g1 * g1).sum(), a, create_graph=True)
g3, = torch.autograd.grad(g2.sum(), a, create_graph=True)
seen, names, todo = [], [], [g3.grad_fn]
while todo:
    n = todo.pop()
    if n is None or n in seen:
        continue
    seen.append(n)
    names.append(n.name())
    if n.name() == "MmBackward0":
        names.append((n._saved_self_sym_strides, n._saved_mat2_sym_strides))
    todo.extend(f for f, _ in reversed(n.next_functions))
print(len(names), names)
print(g1, g2, g3)
""",
    # fixed (found beside seed 215415): the other ops with a wrapped number or a 0-dim operand (comparisons with a
    # number, div(rounding_mode=) / floor_divide, where(c, x, number) through its condition, heaviside, zeta) order
    # their output by the tensor's strides as TensorIterator does; fill and nan_to_num write into empty_like(self)
    "number_operands_and_empty_like_results_keep_strides": """
for x in (torch.ones(2, 1).t(), torch.ones(1, 3, 1).permute(2, 1, 0), torch.ones(3, 1, 2).permute(1, 2, 0),
          torch.ones(4, 6).t()[:, ::2], torch.ones(2, 3, 4).permute(2, 0, 1)[:, :, 1:]):
    y = x * 3
    print([t.stride() for t in (x >= 2, x > y, x == 0.5, torch.div(x, 2, rounding_mode="floor"),
                                torch.div(x, y, rounding_mode="trunc"), torch.floor_divide(x, 2),
                                torch.where(x > 0, x, 2.), torch.heaviside(x, torch.tensor(1.)),
                                torch.special.zeta(x + 1, 2.), torch.special.zeta(2., x), torch.special.zeta(x + 1, y),
                                torch.fill(x, 2), torch.fill(x, torch.tensor(2.)), torch.nan_to_num(x))])
a = torch.tensor([[0.3, float("nan")]], requires_grad=True)
b = torch.nan_to_num(a.t(), nan=1.5)
c = torch.fill(a.t(), 2.)
print(b.stride(), c.stride(), b, c)
(b * torch.tensor([[2.], [3.]])).sum().backward()
print(a.grad)
""",
    # fixed: pdist's backward for p < 1 gives 0 where two rows agree in a coordinate (lttdist_calc's blendv), not
    # sign(0) · 0^(p-1) = nan, as cdist's already did (nn seed 197211)
    "pdist_backward_p_below_one_zero_difference": """
for dt in (torch.float32, torch.float64):
    for p in (0.3, 0.5, 1.5):
        x = torch.tensor([[1.0, 2.0, 3.0], [1.0, -2.0, 3.0], [0.5, 2.0, -3.0], [1.0, 2.0, 3.0]], dtype=dt,
                         requires_grad=True)
        y = torch.nn.functional.pdist(x, p=p)
        (y * torch.arange(1., 7., dtype=dt)).sum().backward()
        print(dt, p, y, x.grad)
""",
    # fixed: a custom Function's mark_dirty of a view whose grad_fn is regenerated lazily (after an earlier dirty
    # write through it, not read since) refused it as a leaf: the check read the stored grad_fn, not grad_fn()'s
    # regenerated one as PyTorch's is_leaf does (seed 218309)
    "mark_dirty_twice_on_a_view_not_a_leaf": """
class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g * 2
b = torch.tensor([-0.39, -1., -1.69], dtype=torch.float64, requires_grad=True)
v1 = torch.nn.functional.celu(b, 0.5)
v2 = v1.transpose(0, 0)
Double.apply(v2)
v5 = Double.apply(v2)
print(v5 is v2, v5.grad_fn.name(), v1.grad_fn.name(), v2._version, v1)
v5.sum().backward()
print(b.grad)
""",
    # fixed (found beside seed 215415): hardtanh (relu6) and the random *_like fills write into empty_like(input),
    # which keeps a size-1 dim's stride and, for a non-dense input, takes dense strides in its dim order: rand_like of
    # x.t()[:, ::2] drew in that memory order, where minigrad drew in C order
    "hardtanh_and_random_like_fill_empty_like": """
torch.manual_seed(0)
for x in (torch.ones(2, 1).t(), torch.ones(3, 1, 2).permute(1, 2, 0), torch.ones(4, 6).t()[:, ::2],
          torch.ones(2, 1, 3)[:, :, ::2].transpose(0, 2), torch.ones(2, 3)):
    for f in (torch.rand_like, torch.randn_like, lambda t: torch.randint_like(t, 10),
              lambda t: torch.nn.functional.hardtanh(t * 3), lambda t: torch.nn.functional.relu6(t * 7)):
        r = f(x)
        print(r.stride(), r)
x = torch.tensor([[-2.0, 0.5]], requires_grad=True)
y = torch.nn.functional.hardtanh(x.t())
y.backward(torch.ones(2, 1))
print(y.stride(), x.grad)
""",
    # fixed (the KNOWN size-1 stride entry's old witnesses 162 and 321 now match): rad2deg / deg2rad multiply into
    # empty_like(self), so they keep the input's strides (a size-1 dim's, a permutation's) as PyTorch's do
    "rad2deg_deg2rad_keep_the_layout": """
for x in (torch.ones(2, 1).t(), torch.ones(3, 1, 2).permute(1, 2, 0), torch.ones(4, 6).t()[:, ::2],
          torch.ones(2, 3, dtype=torch.int32).t()):
    print(x.rad2deg().stride(), x.deg2rad().stride(), x.rad2deg())
a = torch.tensor([[0.5], [1.5], [2.]], dtype=torch.float64, requires_grad=True)
y = a.t().rad2deg()
y.sum().backward()
print(y, y.stride(), a.grad)
""",
    # fixed (the KNOWN size-1 stride entry's old witness 364 now matches): a complex tensor cast to a real dtype is
    # laid out as empty_like(the complex tensor), not by the strides of its real view (two reals per element, so a
    # (1, 1) tensor got strides (2, 2))
    "complex_to_real_cast_layout": """
import warnings
warnings.simplefilter("ignore")
b = torch.tensor([[1 + 2j]], requires_grad=True)
print(b.to(torch.float64).stride(), b.to(torch.float32).stride(), b.to(torch.float16).stride(), b.real.stride())
for x in (torch.tensor([[1 + 2j, 3j]]), torch.tensor([[1 + 2j, 3j]]).t(),
          torch.ones(3, 1, 2, dtype=torch.complex64).permute(1, 2, 0),
          torch.ones(4, 6, dtype=torch.complex128).t()[:, ::2]):
    print(x.to(torch.float64).stride(), x.float().stride(), x.to(torch.int32).stride())
y = b.to(torch.float64)
(y * 2).sum().backward()
print(y, b.grad)
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    same_as_torch(PROGRAMS[name])
