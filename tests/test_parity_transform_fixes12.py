"""Session 12 fixes of transform differences found with ``fuzz_transforms.py`` and the hand-written programs.

Each test is one short program run with minigrad and with PyTorch (``parity.run_both``): the printed values, dtypes,
reprs and exception messages must be the same (object addresses masked).
"""
# ruff: noqa: E501  (the programs are stored as users write them: a line is one statement, not reflowed)
from __future__ import annotations

from parity import same_output


def test_func_jvp_lifts_python_numbers_to_plain_0d_tensors():
    # fixed (func seed 24278, the old KNOWN entry 771): inside torch.func.jvp a Python number given to add/sub/mul/div
    # is a plain 0-d double tensor at the transform's level, whose ZeroTensor tangent term promotes a 0-d float32
    # tangent to float64 (the primal stays float32); not in place, not for ints, not under PyTorch's dual_level,
    # not in linearize's replay, not for a vmap inside the jvp (jacfwd(jacrev(f)), hessian), where the tangent
    # is batched
    same_output(r"""
import torch
import torch.func as ft
s = torch.tensor(1.5); t1 = torch.tensor(0.3)
v = torch.tensor([1.5, 2.0]); tv = torch.tensor([0.3, 0.1])
ops = {'mul': lambda a: a * 2.5, 'rmul': lambda a: 2.5 * a, 'div': lambda a: a / 2.5, 'rdiv': lambda a: 2.5 / a,
       'add': lambda a: a + 2.5, 'sub': lambda a: a - 2.5, 'rsub': lambda a: 2.5 - a, 'tsub': lambda a: torch.sub(2.5, a),
       'tmul': lambda a: torch.mul(2.5, a), 'add_alpha': lambda a: torch.add(a, a, alpha=2.5), 'sub_alpha': lambda a: torch.sub(a, 2.5, alpha=2),
       'pow': lambda a: a ** 2.5, 'mul_int': lambda a: a * 2, 'mul_bool': lambda a: a * True, 'mul_t64': lambda a: a * torch.tensor(2.5, dtype=torch.float64),
       'where': lambda a: torch.where(a > 0, a, 2.5), 'mul_': lambda a: a.clone().mul_(2.5), 'add_': lambda a: a.clone().add_(2.5),
       'mul_c': lambda a: a * 2.5j, 'exp': lambda a: (a * 0.1).exp(),
       'half': lambda a: a.half() * 2.5, 'bf16': lambda a: a.bfloat16() + 2.5, 'complex': lambda a: torch.complex(a, a) * 2.5,
       'then_vec': lambda a: (a * 2.5) * torch.ones(2), 'square': lambda a: (a * 2.5) * a, 'neg': lambda a: -(a * 2.5)}
for k, f in ops.items():
    r = []
    for p, t in ((s, t1), (v, tv)):
        try:
            o, to = ft.jvp(f, (p,), (t,))
            r.append(f'{o.dtype}/{to.dtype} {to}')
        except Exception as e:
            r.append(type(e).__name__ + ' ' + str(e))
    for tr in ('jacfwd', 'hessian', 'jacrev', 'linearize'):
        try:
            if tr == 'jacfwd':
                o = ft.jacfwd(f)(s)
            elif tr == 'hessian':
                o = ft.hessian(lambda a: f(a).real.sum())(s)
            elif tr == 'jacrev':
                o = ft.jacrev(f)(s)
            else:
                o = ft.linearize(f, s)[1](t1)
            r.append(f'{tr} {o.dtype} {o}')
        except Exception as e:
            r.append(tr + ' ' + type(e).__name__ + ' ' + str(e)[:60])
    print(k, *r)
with torch.autograd.forward_ad.dual_level():
    d = torch.autograd.forward_ad.make_dual(s, t1)
    print(torch.autograd.forward_ad.unpack_dual(d * 2.5 + 1))
    print(torch.autograd.forward_ad.unpack_dual(ft.vmap(lambda b: b * 2.5)(d.unsqueeze(0))).tangent.dtype)
    print(torch.autograd.forward_ad.unpack_dual(ft.grad(lambda b: (b * 2.5) * b)(d)).tangent.dtype)
fs = {'grad_in': lambda a: ft.grad(lambda b: (b * 2.5) * b)(a),
      'vjp_out': lambda a: ft.vjp(lambda b: b * 2.5, a)[0],
      'grad_closure': lambda a: ft.grad(lambda b: (a * 2.5) * b)(torch.tensor(2.0)),
      'vmap_in': lambda a: ft.vmap(lambda b: b * 2.5)(a.unsqueeze(0)),
      'vmap_in2': lambda a: ft.vmap(lambda b: a * 2.5 * b)(torch.ones(1))}
for k, f in fs.items():
    o, to = ft.jvp(f, (s,), (torch.tensor(1.0),))
    print(k, o.dtype, to.dtype, to)
print(ft.jacfwd(ft.jacrev(lambda b: (b * 2.5) * b))(s).dtype, ft.jacfwd(ft.grad(lambda b: (b * 2.5) * b))(s).dtype)
# the acos(x.tanh() * 0.9) of the fuzz: a float64 tangent that then meets float32 ones
x = torch.tensor([0.3, -0.2])
print(ft.jvp(lambda a: torch.acos(a.sum().tanh() * 0.9), (x,), (torch.ones(2),)))
print(ft.jvp(lambda a: torch.acos(a.sum().tanh() * 0.9) * a, (x,), (torch.ones(2),)))
# (func seed 37) a float64 tangent reaching div's formula in jacrev's backward under hessian: the batched grad wins
F = torch.nn.functional
def chain(k):
    def f(a):
        v0 = a.norm(float('inf'), (0,))
        v1 = 2 ** v0
        v2 = F.celu(v1, 0.5)
        v3 = F.threshold(v1, 0.1, 2.0)
        v4 = torch.remainder(v2, v3.abs() + 0.5)
        v7 = torch.true_divide(v3, v4)
        return [v0, v1, v2, v3, v4, v7, v4 * v7, v7 - v4, torch.atan2(v7, v4)][k]
    return f
a0 = torch.tensor([-3.84, -2.3, 0.92])
for k in range(9):
    h = ft.hessian(lambda a: chain(k)(a).sum())(a0)
    print(k, h.dtype, h, ft.jacfwd(chain(k))(a0), ft.jvp(chain(k), (a0,), (torch.ones(3),))[1])
""")


def test_jacrev_of_a_0d_times_a_python_number_keeps_float32():
    # fixed: vmap (jacrev's vmap of vjp_fn) turned the saved Python number of MulBackward0 into a 0-d double tensor
    # for the backward formula, which promoted minigrad's 0-d cotangent slices to float64; PyTorch's batched
    # cotangent is physically 1-d, so the number does not promote it (under a profiler or a dual level the
    # engine's cast back still makes it float32)
    same_output(r"""
import torch
import torch.func as ft
s = torch.tensor(1.5, requires_grad=True)
with torch.autograd.forward_ad.dual_level():
    for f in (lambda a: a * 2.5, lambda a: a / 2.5, lambda a: 2.5 / a, lambda a: a - 2.5):
        print(repr(torch.autograd.grad(f(s), s, torch.tensor(1.0))))
for f in (lambda a: a * 2.5, lambda a: a / 2.5, lambda a: 2.5 / a, lambda a: (a * 2.5) * a, lambda a: a * 2.5j):
    print(repr(ft.vmap(lambda g: torch.autograd.grad(f(s).real, s, g))(torch.ones(2))))
    o = f(s).real
    print(repr(ft.vmap(lambda g: torch.autograd.grad(o, s, g, retain_graph=True))(torch.ones(2))))
    print(repr(ft.jacrev(lambda a: f(a).real)(s.detach())))
    print(repr(ft.vjp(lambda a: f(a).real, s.detach())[1](torch.tensor(1.0))))
print(repr(ft.jacrev(lambda a: a * 2.5)(torch.tensor([1.5]))))
print(repr(ft.vmap(ft.grad(lambda a: (a * 2.5) * a))(torch.tensor([1.5, 2.0]))))
print(repr(ft.hessian(lambda a: (a * 2.5) * a)(torch.tensor(1.5))))
""")


def test_max_min_median_of_all_elements_read_tangents_evenly():
    # fixed (forward_ad/func seed 26006): PyTorch's forward formula of max()/min()/median()/nanmedian() is
    # evenly_read_jvp, sum(mask * (t / count)) with mask = (x == result): a NaN result matches nothing, so its
    # tangent is NaN (the backward shares the gradient among the NaNs); a non-finite tangent elsewhere gives NaN
    same_output(r"""
import torch
import warnings
warnings.simplefilter('ignore')
from torch.func import jvp, jacfwd
fa = torch.autograd.forward_ad
x = torch.tensor([float('nan'), 1.0, float('nan')], dtype=torch.float64); t = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
for f in (torch.max, torch.min, torch.median, torch.nanmedian, torch.amax, lambda v: v.max(0).values, lambda v: torch.nanmedian(v, 0).values):
    print(jvp(f, (x,), (t,)))
x0 = torch.tensor(float('nan'), dtype=torch.float64)
print(jvp(torch.nanmedian, (x0,), (torch.tensor(0.5, dtype=torch.float64),)), jvp(torch.max, (x0,), (torch.tensor(0.5, dtype=torch.float64),)))
print(jvp(torch.nanmedian, (torch.tensor([float('nan'), float('nan')]),), (torch.tensor([0.5, 1.0]),)))
a = torch.tensor([-0.89], dtype=torch.float64)
print(jvp(lambda v: v.var((0,), correction=2).nanmedian(), (a,), (torch.tensor([0.7], dtype=torch.float64),)))
torch.manual_seed(0)
y = torch.tensor([0.3, 0.7, 0.7, 0.1, 0.7, 0.1, 0.7])
for i in range(4):
    ty = torch.randn(7)
    print([jvp(f, (y,), (ty,))[1].item().hex() for f in (torch.max, torch.min, torch.median, torch.nanmedian)])
print(jacfwd(torch.max)(y), jacfwd(torch.median)(y))
print(jvp(torch.max, (y,), (torch.tensor([1.0, float('inf'), 2.0, 3.0, 4.0, 1.0, 1.0]),)))
yr = torch.tensor([1.0, 5.0, 5.0], requires_grad=True)
with fa.dual_level():
    d = fa.make_dual(yr, torch.tensor([0.1, 0.2, 0.4]))
    for m in (d.max(), d.min(), d.median(), d.nanmedian()):
        print(m.grad_fn.name(), fa.unpack_dual(m))
""")


def test_unfold_size_error_names_the_physical_dim_under_vmap():
    # fixed (vmap seed 26282): PyTorch's batching rule unfolds the physical tensor (batch dims first), so its error
    # names the logical dim plus one per vmap level the tensor is batched at
    same_output(r"""
import torch
from torch.func import vmap
def E(f):
    try:
        print(f().shape)
    except Exception as e:
        print(type(e).__name__, e)
x = torch.randn(3, 4, 1)
for f in [lambda v: v.unfold(1, 2, 1), lambda v: v.unfold(-1, 2, 1), lambda v: v.unfold(0, 9, 1), lambda v: v.unfold(1, 1, 0), lambda v: v.unfold(0, 2, 1)]:
    E(lambda: vmap(f)(x))
    E(lambda: vmap(f, in_dims=1)(x.transpose(0, 1).contiguous()))
E(lambda: vmap(lambda v: v.unfold(0, 2, 1))(torch.randn(3)))
E(lambda: vmap(vmap(lambda v: v.unfold(0, 9, 1)))(torch.randn(2, 3, 4)))
E(lambda: vmap(lambda v, w: w.unfold(0, 9, 1), in_dims=(0, None))(torch.randn(2, 3, 4), torch.randn(3)))
E(lambda: torch.randn(3, 1).unfold(1, 2, 1))
# (vmap seed 26507) cat's and stack's size errors: the physical dim, the physical sizes
E(lambda: vmap(lambda x, y: torch.cat([x, y], -1))(torch.randn(3, 1, 2), torch.randn(3, 2, 2)))
E(lambda: vmap(lambda x, y: torch.cat([x, y], 0), in_dims=(0, None))(torch.randn(3, 1, 2), torch.randn(2, 3)))
E(lambda: vmap(lambda x, y: torch.cat([x, y], 0), in_dims=(None, 0))(torch.randn(1, 2), torch.randn(3, 2, 3)))
E(lambda: vmap(lambda x, y, z: torch.cat([x, y], 1), in_dims=(None, None, 0))(torch.randn(1, 2), torch.randn(2, 3), torch.randn(3)))
E(lambda: vmap(vmap(lambda x, y: torch.cat([x, y], 0)))(torch.randn(2, 3, 1, 2), torch.randn(2, 3, 2, 3)))
E(lambda: vmap(lambda x, y: torch.stack([x, y], 0))(torch.randn(3, 1, 2), torch.randn(3, 2, 2)))
E(lambda: vmap(lambda x, y: torch.stack([x, y], 0), in_dims=(0, None))(torch.randn(3, 1, 2), torch.randn(2, 2)))
E(lambda: vmap(lambda x, y: torch.stack([x, y], 1), in_dims=(1, 0))(torch.randn(1, 3, 2), torch.randn(3, 2, 2)))
E(lambda: vmap(vmap(lambda x, y: torch.stack([x, y], 0)))(torch.randn(2, 3, 1, 2), torch.randn(2, 3, 2, 3)))
E(lambda: vmap(lambda x, y, z: torch.stack([x, y]), in_dims=(None, None, 0))(torch.randn(1, 2), torch.randn(2, 3), torch.randn(3)))
Y = torch.randn(4, 3)
E(lambda: vmap(lambda x: vmap(lambda y: torch.stack([x, y]))(Y))(torch.randn(2, 5)))
E(lambda: torch.stack([torch.randn(2), torch.randn(3)]))
""")


def test_add_sub_alpha_tangent_rounds_the_product_on_its_own():
    # fixed (found writing the jvp program above): PyTorch's forward formula of add/sub(x, y, alpha=<float>) with
    # both tangents is x_t ± maybe_multiply(y_t, alpha), two roundings; minigrad applied the add kernel itself
    # (x_t + alpha·y_t in one go), which differs in the last bit
    same_output(r"""
import torch
fa = torch.autograd.forward_ad
torch.manual_seed(0)
for dt in (torch.float32, torch.float64):
    a = torch.randn(5).to(dt); b = torch.randn(5).to(dt); ta = torch.randn(5).to(dt); tb = torch.randn(5).to(dt)
    with fa.dual_level():
        x = fa.make_dual(a, ta); y = fa.make_dual(b, tb)
        for alpha in (2.5, 0.3, -1.7, 1.0, 2):
            for f in (torch.add, torch.sub):
                o = f(x, y, alpha=alpha)
                print(dt, alpha, [v.hex() for v in fa.unpack_dual(o).tangent.double().tolist()])
        o = x.clone(); o.add_(y, alpha=0.3); print([v.hex() for v in fa.unpack_dual(o).tangent.double().tolist()])
        o = x.clone(); o.sub_(y, alpha=0.3); print([v.hex() for v in fa.unpack_dual(o).tangent.double().tolist()])
        o = torch.add(x, b, alpha=0.3); print([v.hex() for v in fa.unpack_dual(o).tangent.double().tolist()])
        o = torch.add(a, y, alpha=0.3); print([v.hex() for v in fa.unpack_dual(o).tangent.double().tolist()])
s = torch.tensor(0.3)
print(torch.func.jvp(lambda v: torch.add(v, v, alpha=2.5), (s,), (torch.tensor(0.7),)))
print(torch.func.jvp(lambda v: torch.sub(v * 3, v, alpha=0.1), (torch.tensor([0.3, 0.2]),), (torch.tensor([0.7, 0.1]),)))
""")
