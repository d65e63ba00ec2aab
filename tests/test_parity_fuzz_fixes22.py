"""Regressions of differences the graph fuzzer (tests/fuzz_graphs.py: tensor family ``_Gen.s14`` and the nn family)
found in session 22.

Each program prints what a user sees (values, bits, errors, warnings) and runs once with minigrad and once with
PyTorch (``parity.same_as_torch``); each is a short explicit form of the seed that found it.
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

PROGRAMS = {
    # fixed: cumprod_backward without grad mode writes its masked parts with where(), as PyTorch's: cumprod(x,
    # dtype=float64) of a float32 x with zeros gets a float64 gradient, cast to x's dtype, where masked_scatter_
    # into float32 zeros refused the float64 values (seed 205201)
    "cumprod_dtype_backward_with_zeros": """
for dt, odt in ((torch.float32, torch.float64), (torch.float64, torch.float32), (torch.float32, None),
                (torch.float16, torch.float32), (torch.complex64, torch.complex128)):
    x = torch.tensor([[0., -4.61, 1.39, 2.5], [1.5, 0., 3.25, 0.], [0.75, 2., -1.5, 0.]], dtype=dt,
                     requires_grad=True)
    for d in (0, 1, -1):
        y = torch.cumprod(x, d, dtype=odt)
        g = torch.arange(1., 13.).reshape(3, 4).div(7).to(y.dtype)
        gx, = torch.autograd.grad(y, x, g)
        print(dt, odt, d, gx.dtype, gx.stride(), gx.tolist())
""",
    # fixed: an in-place op on a view made after its base changed shape in place (unsqueeze_, t_ ...) replays the
    # view on the base as it is now: view_as_real of an unsqueeze_d complex result written in place records
    # CopySlices, where minigrad looked for the float view's elements in the complex base by address and refused
    # (seed 205203)
    "inplace_view_as_real_after_base_unsqueeze_": """
c = torch.tensor([[1.5 - 1j, -0.25 + 2j], [3 + 0.5j, -1 - 1j], [0.5j, 2.]], requires_grad=True)
w = c * 1
w.unsqueeze_(0)
r = torch.view_as_real(w)
m = r.movedim(-3, -3)
m.mul_(2)
print(w.grad_fn.name(), r.grad_fn.name(), m.grad_fn.name(), m._base is w, w._version)
w.abs().sum().backward()
print(c.grad)
x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
y = x * 1
y.t_()
v = y[1:]
v.mul_(3)
y.sum().backward()
print(y, x.grad, v.grad_fn.name())
""",
    # fixed: PyTorch's VariableType collects the inputs' edges before the kernel checks its arguments, so an op on a
    # split output whose base was modified in place refuses the view (view_rebase_error) before the kernel's own
    # error (an empty reduced dim, k out of range, a view's size); argmax / argmin and no_grad keep their errors
    # (seed 206913)
    "rebased_multi_output_view_refused_before_argument_errors": """
ops = {"aminmax": lambda t: t.aminmax(dim=-1), "aminmax_all": lambda t: t.aminmax(), "amax": lambda t: t.amax(-1),
       "amin": lambda t: t.amin((0, 1)), "max": lambda t: t.max(-1), "min_all": lambda t: t.min(),
       "argmax": lambda t: t.argmax(-1), "argmin": lambda t: t.argmin(), "median": lambda t: t.median(-1),
       "nanmedian": lambda t: t.nanmedian(-1), "kthvalue": lambda t: t.kthvalue(1, -1), "mode": lambda t: t.mode(-1),
       "topk": lambda t: t.topk(1, -1), "view": lambda t: t.view(3, 5), "reshape": lambda t: t.reshape(3, 5),
       "sum": lambda t: t.sum(-1)}
for grad in (True, False):
    for name, f in ops.items():
        a = torch.ones(3, 2, requires_grad=True)
        v0 = a * 1
        v2, v3 = torch.split_with_sizes(v0, [2, 0], -1)
        v0.select(0, -1).mul_(2)
        with torch.set_grad_enabled(grad):
            print(grad, name, end=": ")
            E(lambda: f(v3))
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    same_as_torch(PROGRAMS[name])
