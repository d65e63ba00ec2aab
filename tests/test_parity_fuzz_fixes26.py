"""Regressions of differences the graph fuzzer (tests/fuzz_graphs.py: tensor family ``_Gen.s14`` and the nn family)
found in session 26, and of the known leftovers of earlier sessions it fixed.

Each program prints what a user sees (values, strides, graphs, errors, warnings) and runs once with minigrad and once
with PyTorch (``parity.same_as_torch``); each is a short explicit form of the seed that found it.
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

PROGRAMS = {
    # fixed: complex64 log1p of a 0-dim tensor and of strided rows: PyTorch's IMPLEMENT_COMPLEX_KERNEL maps vml's
    # vector function over contiguous rows (fused multiply-adds everywhere); other rows (a 0-dim tensor's strides
    # are 0) go through 8 KiB buffers whose last len % 8 elements come out without contractions (session 25's
    # leftover: torch.tensor(-0.30633888+0.9673121j, dtype=torch.complex64).log1p() differed in the last bit)
    "complex64_log1p_of_0_dim_and_strided_rows": """
z = torch.tensor(-0.30633888+0.9673121j, dtype=torch.complex64)
print(torch.view_as_real(z.log1p()).tolist())
b = z.expand(12).clone()
print(torch.view_as_real(b.log1p())[:, 0].tolist())          # contiguous: fused throughout
print(torch.view_as_real(b[::2].log1p())[:, 0].tolist())     # strided row of 6: all plain
print(torch.view_as_real(b.expand(2, 12)[:, ::1].t().contiguous().t().log1p()).sum().item())
print(torch.view_as_real(z.expand(3, 1).expand(3, 12).log1p())[..., 0].tolist())   # broadcast rows: 8 + 4
print(torch.view_as_real(z.expand(20).clone().reshape(4, 5)[:, ::2].log1p())[..., 0].tolist())
c = z.expand(40).clone()
c[::2].log1p_()
print(torch.view_as_real(c)[:, 0].tolist())
x = z.clone().requires_grad_()
y = x.log1p()
y.abs().backward()
print(y, x.grad)
""",
    # fixed (a sweep of complex unary kernels over layouts after the log1p fix): complex abs and angle step one
    # Vectorized at a time (SLEEF's hypot / atan2 on blocks of 8 complex64 or 4 complex128 numbers, glibc's on
    # the rest), not two: a complex128 tail of 4 to 7 was glibc's; angle of a broadcast row (expand) runs its
    # vector code too (it was glibc's on every element of a non-contiguous input); a dense permute() of any
    # dims is walked in memory order like a transpose (sgn and the float kernels of two_paths)
    "complex_abs_angle_sgn_vector_blocks_and_layouts": """
k = torch.arange(64, dtype=torch.float64)
z = torch.complex(torch.sin(k * 1.7) * 3, torch.cos(k * 0.9) * 2)
print(z[51:64].abs().tolist())
print(z[6:19].angle().tolist())
w = z.to(torch.complex64)
print(w[[1, 5, 10]].reshape(3, 1).expand(3, 13).angle().tolist())
p = w[:60].reshape(3, 4, 5).permute(2, 0, 1)
print(torch.view_as_real(p.sgn()).tolist(), p.sgn().stride())
print(z[:60].reshape(3, 4, 5).permute(2, 0, 1).abs().tolist())
x = z[6:19].clone().requires_grad_()
x.angle().sum().backward()
print(x.grad)
print(torch.tensor(-1-2j).angle(), w[1].angle().shape, w[1].abs(), w[1].sgn())
""",
    # fixed: clamp with a number bound keeps x between +0.0 and -0.0 (x < lo ? lo : x on PyTorch's vector and
    # scalar paths alike: clamp(-0.0, min=0) is -0.0, so its pow(-0.5) is -inf); a tensor bound takes the bound
    # on whole vector blocks and x on the tail, as maximum / minimum do, whose float16 / bfloat16 blocks are 32
    # (seed 263602: remainder(-2., 1.) = -0.0 clamped at 0, then pow(0.5)'s gradient)
    "clamp_keeps_signed_zeros_of_x": """
def sg(t):
    return ''.join('-' if v else '+' for v in t.double().signbit().tolist())
for dt in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
    for n in (1, 5, 12, 40, 100):
        a = torch.tensor([-0.0, 0.0] * n, dtype=dt)
        z = torch.zeros_like(a)
        print(dt, n, sg(a.clamp(min=0)), sg(a.clamp(max=-0.0)), sg(a.clamp(0, 0)), sg(a.clamp_min(0)), sg(a.clip(0)),
              sg(a.clamp(min=z)), sg(a.clamp(max=-z)), sg(a.clamp(z, -z)), sg(a.clamp(min=torch.tensor(0., dtype=dt))),
              sg(a.clamp_max(-z)), sg(torch.maximum(a, z)), sg(torch.minimum(a, -z)), sg(a.clone().clamp_(0)))
a = torch.tensor([-2, -0.0, 0.0, float('nan'), 3, 7], dtype=torch.float64)
print(a.clamp(min=float('nan')), a.clamp(2, 1), a.clamp(max=float('nan')), a.clamp(min=-1, max=4))
x = torch.tensor([-2.0, -1.0, 0.0, 3.0], requires_grad=True)
y = torch.remainder(x, 1.0).clamp(min=0).pow(0.5)
y.sum().backward()
print(y, x.grad)
""",
    # fixed: create_graph through the CopySlices of an in-place op on a view whose chain went through another
    # dtype (view_as_complex(x).imag: float64 again) replays the chain as PyTorch's view_fn does (AsStrided,
    # ViewAsComplex, ViewAsReal, AsStrided nodes), not one as_strided of the base (seed 264490)
    "copy_slices_double_backward_replays_a_view_through_complex": """
def walk(fn, depth=0, seen=None):
    seen = set() if seen is None else seen
    if fn is None or fn in seen:
        return
    seen.add(fn)
    print('  ' * depth + fn.name())
    for f, _ in fn.next_functions:
        walk(f, depth + 1, seen)
x = torch.tensor([0.1, 0.2, 0.3, 0.4], dtype=torch.float64, requires_grad=True)
v4 = x.sin()
v6 = torch.view_as_complex(v4.unflatten(-1, (-1, 2))).imag
v6.mul_(2)
print(v4.grad_fn.name(), v6.grad_fn.name())
g, = torch.autograd.grad(v4.sin().sum(), x, create_graph=True)
walk(g.grad_fn)
(g * g).sum().backward()
print(g, x.grad)
""",
    # fixed (session 25's leftover): index_put_ with no index tensor checks the value's dtype and that it
    # broadcasts to the whole tensor before anything else, and fills nothing into an empty tensor (a graph node
    # all the same); on a non-empty one PyTorch's kernel then fails an internal assert (KNOWN, not compared here)
    "index_put_with_an_empty_index_tuple": """
x = torch.zeros(2, 3)
for acc in (False, True):
    E(lambda: x.clone().index_put_((), torch.ones(4), accumulate=acc))
    E(lambda: x.clone().index_put_((), torch.ones(2, 1, 3), accumulate=acc))
    E(lambda: x.clone().index_put_((), torch.ones(3, dtype=torch.int64), accumulate=acc))
    E(lambda: x.clone().index_put_((), torch.ones(0), accumulate=acc))
    E(lambda: torch.zeros(0).index_put_((), torch.ones(1, 1), accumulate=acc))
E(lambda: x.clone().index_put_((), torch.tensor(5., dtype=torch.float64)))
E(lambda: x.clone().index_put_((), torch.tensor(5., dtype=torch.float64), accumulate=True))
E(lambda: x.clone().index_put_((), torch.ones(1)))
E(lambda: torch.zeros(()).index_put_((), torch.tensor(1.)))
E(lambda: torch.zeros(()).index_put_((), torch.ones(1), accumulate=True))
y = torch.zeros(0)
print(y.index_put_((), torch.ones(0)), y._version)
y = torch.zeros(0, requires_grad=True) * 1
r = y.index_put_((), torch.ones(0, requires_grad=True), accumulate=True)
print(r, r.grad_fn.name(), torch.zeros(0).index_put((), torch.ones(0)))
""",
    # fixed (session 25's leftover): sparse + sparse starts its values at zeros and adds each entry into them
    # (add_out_sparse_contiguous's axpy), so a -0.0 value of either operand comes out 0.0, with any alpha
    "sparse_add_turns_minus_zero_into_zero": """
nan, inf = float('nan'), float('inf')
for dt in (torch.float32, torch.float64):
    a = torch.sparse_coo_tensor(torch.tensor([[0, 1, 3]]), torch.tensor([-0.0, 2.0, -0.0], dtype=dt), (5,))
    b = torch.sparse_coo_tensor(torch.tensor([[1, 2, 3, 4]]), torch.tensor([-0.0, -0.0, 0.0, nan], dtype=dt), (5,))
    for alpha in (1, 2, -1, 0, 0.5):
        print(dt, alpha, [str(v) for v in a.add(b, alpha=alpha).coalesce().values().tolist()])
    c = torch.sparse_coo_tensor(torch.tensor([[0, 1]]), torch.tensor([[-0.0, 1.0], [2.0, -0.0]], dtype=dt), (3, 2))
    d = torch.sparse_coo_tensor(torch.tensor([[1, 2]]), torch.tensor([[-0.0, -0.0], [-0.0, inf]], dtype=dt), (3, 2))
    print([str(v) for v in (c + d).coalesce().values().reshape(-1).tolist()],
          [str(v) for v in c.add(d, alpha=0).coalesce().values().reshape(-1).tolist()],
          [str(v) for v in (a - b).coalesce().values().tolist()])
""",
    # fixed (session 25's leftover): mish's gradient in an is_grads_batched backward is its kernel's
    # (PyTorch's batch rule runs mish_backward on the rows: the same bits as one backward), not the
    # infinitely differentiable formula that only a recording (create_graph) backward uses
    "mish_backward_under_is_grads_batched": """
torch.manual_seed(0)
for n in (5, 17, 40, 70):
    for dt in (torch.float32, torch.float64, torch.bfloat16):
        x = (torch.randn(n) * 3).to(dt).requires_grad_()
        y = torch.nn.functional.mish(x)
        g, = torch.autograd.grad(y, x, torch.eye(n, dtype=dt), is_grads_batched=True, retain_graph=True)
        g1, = torch.autograd.grad(y, x, torch.ones(n, dtype=dt))
        print(n, dt, g.diagonal().tolist() == g1.tolist(), g.diagonal()[:4].tolist(), g.sum().item())
""",
    # fixed: an is_grads_batched backward through the CopySlices of an in-place op on a view of an empty base
    # raises PyTorch's legacy vmap error: its new_empty_strided gives the batch dim the base's storage size, 0, as
    # stride, and its as_strided refuses batch dims not at the front in memory (seed 268342)
    "is_grads_batched_copy_slices_of_an_empty_base": """
def prog(shape, einsum):
    b = torch.zeros(shape, dtype=torch.float64, requires_grad=True)
    v0 = b * 1
    v0.narrow(0, 0, 1).div_(2)
    out = torch.einsum('ab,ab->', v0, b) if einsum else v0.sum()
    return torch.autograd.grad(out, b, torch.eye(1, dtype=out.dtype).reshape(1), is_grads_batched=True)[0]
for shape in ((3, 0), (1, 0), (2, 3), (3, 1)):
    for einsum in (False, True):
        E(lambda: print(prog(shape, einsum).shape))
b = torch.zeros(3, 0, requires_grad=True)
v0 = b * 1
v0.narrow(0, 0, 1).div_(2)
print(torch.autograd.grad(v0.sum(), b)[0].shape)
""",
    # fixed: torch.result_type with an operand that is neither a tensor nor a number lists its four overloads
    # (it tried to make a tensor of it); promote_types / can_cast name their argument that is not a dtype
    # (seed 262041: result_type(g4, True) of an unused input's None gradient)
    "result_type_promote_types_can_cast_argument_errors": """
import numpy as np
E(lambda: torch.result_type(None, True))
E(lambda: torch.result_type(torch.ones(1), None))
E(lambda: torch.result_type('a', torch.ones(1)))
E(lambda: torch.result_type(torch.ones(1), [1]))
print(torch.result_type(1, 2.5), torch.result_type(torch.ones(1, dtype=torch.float16), np.bool_(True)))
E(lambda: torch.promote_types(None, torch.float16))
E(lambda: torch.promote_types(torch.int64, 1))
print(torch.promote_types(type1=torch.int32, type2=torch.float16))
E(lambda: torch.can_cast(None, torch.int64))
E(lambda: torch.can_cast(torch.int64, 'a'))
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    same_as_torch(PROGRAMS[name])
