"""Regressions of differences the graph fuzzer (tests/fuzz_graphs.py: tensor family ``_Gen.s14`` and the nn family)
found in session 22b.

Each program prints what a user sees (values, bits, errors, warnings) and runs once with minigrad and once with
PyTorch (``parity.same_as_torch``); each is a short explicit form of the seed that found it.
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

PROGRAMS = {
    # fixed: scatter_reduce(include_self=False) starts amin / amax of floats from +inf / -inf, as PyTorch's kernel,
    # not from the dtype's finite extremes: an inf src stayed at finfo.max (seed 209599)
    "scatter_reduce_amin_amax_without_self_keep_inf": """
for dt in (torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int32, torch.int64):
    for r in ("amin", "amax"):
        a = torch.tensor([0.5, 1., 2., 4.]).to(dt)
        if dt.is_floating_point:
            s = torch.tensor([float("inf"), -float("inf"), 3., float("inf")], dtype=dt)
        else:
            s = torch.tensor([7, -7, 3, 9], dtype=dt)
        print(dt, r, a.scatter_reduce(0, torch.tensor([0, 1, 1, 3]), s, r, include_self=False))
x = torch.tensor([0.26], dtype=torch.float64, requires_grad=True)
v = x / torch.arange(1)
y = x.scatter_reduce(-1, torch.tensor([0]), v, "amin", include_self=False)
y.sum().backward()
print(y, x.grad)
""",
    # fixed: PyTorch's index kernel checks each index as it reads it, so an empty result (a dim taken whole of size
    # 0) checks none, where minigrad refused x[1:, 0, i] with i out of range; AdvancedIndex's own check refuses any
    # index into an indexed dim of size 0 unless the indices broadcast to nothing; an empty broadcast of indices
    # with an out-of-range one crashed (min() of an empty sequence) (seed 211158)
    "index_out_of_range_into_empty_result": """
i = torch.tensor([0, 1, 1])
cases = {"slice_empty": lambda: torch.zeros(1, 2, 1)[1:, 0, i], "slice_empty_2": lambda: torch.zeros(0, 2)[:, i * 7],
         "trailing_dim_0": lambda: torch.zeros(2, 0)[torch.tensor([[5], [1]])],
         "between": lambda: torch.zeros(2, 0, 3)[torch.tensor([5]), :, torch.tensor([9])],
         "indexed_dim_0": lambda: torch.zeros(0, 3)[torch.tensor([5])],
         "indexed_dim_0_b": lambda: torch.zeros(2, 3, 0)[torch.tensor([5]), :, torch.tensor([0])],
         "indexed_dim_0_c": lambda: torch.zeros(0, 0)[:, torch.tensor([1])],
         "empty_broadcast": lambda: torch.zeros(2, 3)[torch.tensor([], dtype=torch.long), torch.tensor([9])],
         "put_empty_broadcast": lambda: torch.zeros(2, 3).index_put(
             (torch.tensor([5]), torch.tensor([], dtype=torch.long)), torch.tensor(1.)),
         "put_indexed_dim_0": lambda: torch.zeros(0, 3).index_put((torch.tensor([0]),), torch.tensor(1.)),
         "put_trailing_dim_0": lambda: torch.zeros(2, 0).index_put((torch.tensor([5]),), torch.tensor(1.),
                                                                     accumulate=True),
         "in_range_still_checked": lambda: torch.zeros(2, 3)[1:, i * 2]}
for name, f in cases.items():
    print(name, end=": ")
    E(lambda: print(f().shape))
x = torch.zeros(1, 2, 1, requires_grad=True)
y = x[1:, 0, i]
print(y, y.grad_fn._saved_indices)
y.sum().backward()
print(x.grad)
z = x * 1
z[1:, 0, i] = torch.ones(0, 3)
print(z, z.grad_fn.name())
z.sum().backward()
print(x.grad)
""",
    # fixed: PyTorch's scalar sgn (a tensor's tail past its vector chunks) divides z by the complex |z| + 0i the
    # way c10::complex does, so |z| = inf gives nan + nanj and -1 - 0j gives -1 + 0j; minigrad multiplied each part
    # by 1/|z| (seed 212230)
    "complex_sgn_scalar_path_division": """
inf, nan = float("inf"), float("nan")
vals = [complex(inf, 0), complex(0, inf), complex(inf, -0.0), complex(-inf, 2), complex(1, -0.0), complex(-1, -0.0),
        complex(-0.0, 1), complex(-0.0, -1), complex(1e-300, -1e-300), complex(5e-324, 0), complex(1e38, 1e38),
        complex(nan, 0), complex(inf, nan), complex(3, 4)]
for dt in (torch.complex64, torch.complex128):
    for n in (1, 3, 64):
        out = []
        for v in vals:
            t = torch.full((n,), v, dtype=dt).sgn()[-1]
            out.append((t.real.item(), t.imag.item()))
        print(dt, n, out)
d = torch.tensor([0.53, 1.62], requires_grad=True)
s = torch.std(d, -1, correction=2, keepdim=True).to(torch.complex64).sgn()
print(torch.view_as_real(torch.conj_physical(s)))
""",
    # fixed (found reproducing seed 212230): PyTorch's checked conversion of a number to complex64 refuses a part
    # beyond float's range (full, fill_, masked_fill, index_fill, addcmul's value, addmm's beta, where, x[i] = v),
    # and add / sub convert alpha to every floating and complex dtype so (1e308 into float32, 1e5 into float16)
    "number_overflow_into_complex64_and_alpha": """
big = complex(1e308, 1)
z = lambda: torch.zeros(2, dtype=torch.complex64)
def setitem():
    t = z()
    t[0] = big
cases = {"full": lambda: torch.full((1,), complex(1, 1e39), dtype=torch.complex64),
         "full_real": lambda: torch.full((1,), 1e308, dtype=torch.complex64),
         "full_inf": lambda: print(torch.full((1,), complex(float("inf"), -float("inf")), dtype=torch.complex64)),
         "full_c128": lambda: print(torch.full((1,), 1e308, dtype=torch.complex128)),
         "fill_": lambda: z().fill_(big), "masked_fill": lambda: z().masked_fill(torch.tensor([True, False]), big),
         "index_fill": lambda: z().index_fill(0, torch.tensor([0]), big),
         "addcmul": lambda: z().addcmul(z(), z(), value=big), "setitem": setitem,
         "where": lambda: z().where(torch.tensor([True, False]), big),
         "add_number": lambda: print(z().add(big)), "pow": lambda: print(z().pow(big))}
for dt in (torch.float32, torch.float16, torch.bfloat16, torch.complex64, torch.float64):
    cases[f"add_alpha_{dt}"] = lambda dt=dt: print(torch.zeros(2, dtype=dt).add(torch.ones(2, dtype=dt), alpha=1e308))
    cases[f"add_alpha_1e5_{dt}"] = lambda dt=dt: print(torch.zeros(2, dtype=dt).add(torch.ones(2, dtype=dt),
                                                                                   alpha=1e5))
    cases[f"sub_alpha_{dt}"] = lambda dt=dt: print(torch.zeros(2, dtype=dt).sub(1., alpha=1e308))
    cases[f"add__alpha_{dt}"] = lambda dt=dt: print(torch.zeros(2, dtype=dt).add_(torch.ones(2), alpha=1e308))
cases["add_alpha_promoted"] = lambda: torch.zeros(2).add(z(), alpha=complex(1, 1e39))
for name, f in cases.items():
    print(name, end=": ")
    E(f)
""",
    # fixed: an efficient zero tensor as an empty leaf's first gradient is stolen only when it obeys the layout
    # contract: a leaf made from an empty NumPy array (strides (0, 0)) gets a copy, so a second backward adds
    # into it where minigrad kept the immutable zero tensor and refused (seed 213010)
    "empty_leaf_zerotensor_gradient_copied_when_layout_differs": """
import numpy as np
for make in (lambda: torch.tensor(np.zeros((0, 2)), dtype=torch.float32, requires_grad=True),
             lambda: torch.zeros(0, 2, requires_grad=True), lambda: torch.ones(3, 2, requires_grad=True)):
    a = make()
    y = a.abs().sgn()
    y.sum().backward(retain_graph=True)
    print(a.stride(), a.grad, a.grad.stride(), a.grad._version, a.grad._is_zerotensor())
    E(lambda: y.sum().backward(retain_graph=True))
    print(a.grad, a.grad._is_zerotensor())
""",
    # fixed: a view with a node whose base stopped requiring grad is still regenerated after an in-place write
    # (PyTorch skips only views without one), so an unbind output or a view of it written under no_grad refuses
    # to give its grad_fn, as do a custom Function's view outputs (seed 213293)
    "multi_output_view_rebase_after_base_stops_requiring_grad": """
class Id(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)
    @staticmethod
    def backward(ctx, g):
        return g
for kind in ("unbind", "custom", "narrow"):
    a = torch.ones(1, 3, 3, requires_grad=True)
    v0 = a.select(-3, 0) * 1 if kind == "custom" else a.select(-3, 0)
    v = v0.unbind(-1)[-2] if kind == "unbind" else Id.apply(v0) if kind == "custom" else v0.narrow(0, 1, 1)
    w = v.t() if v.dim() == 2 else v.unsqueeze(0)
    (v0 if kind == "custom" else a).requires_grad_(False) if kind != "custom" else v0.detach_()
    with torch.no_grad():
        w[...] = 0.5
    print(kind, end=": ")
    E(lambda: print(v.grad_fn.name()))
    E(lambda: print(w.grad_fn.name()))
    E(lambda: print(v0.grad_fn))
""",
    # fixed: hardswish's double backward divides grad * grad_output by the Scalar 3.0 (DivBackward1), where
    # minigrad recorded a tensor division (DivBackward0) (seed 214223)
    "hardswish_double_backward_divides_by_a_scalar": """
for dt in (torch.float32, torch.float64):
    b = torch.tensor([1.53, 1.19, -0.13, -3.5, 3.], dtype=dt, requires_grad=True)
    g1, = torch.autograd.grad(torch.nn.functional.hardswish(b).sum(), b, create_graph=True)
    g2, = torch.autograd.grad((g1 * g1).sum(), b, create_graph=True)
    node = g2.grad_fn
    print(node.name(), [f[0].name() if f[0] else None for f in node.next_functions])
    print(node.next_functions[0][0].next_functions[0][0].name(), g2)
    g3, = torch.autograd.grad(g2.sum(), b, allow_unused=True, materialize_grads=True)
    print(g3)
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    same_as_torch(PROGRAMS[name])
