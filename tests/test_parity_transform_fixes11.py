"""Session 11 fixes found with the transform fuzzer (``fuzz_transforms.py``, seeds 20000-24800) and torch.func
programs.

Each test is one short program run with minigrad and with PyTorch (``parity.run_both``): the printed values, dtypes,
reprs and exception messages must be the same (object addresses masked).
"""
# ruff: noqa: E501  (the programs are stored as users write them: a line is one statement, not reflowed)
from __future__ import annotations

from parity import same_output


def test_frac_fmod_remainder_share_their_inputs_tangent_and_tangent_writes_check_overlap():
    # fixed (seeds 20931, 21702, 20567): frac, fmod.Scalar and remainder.Scalar return their input's tangent itself
    # (PyTorch's `result: self_t`), so an in-place op on the output writes the input's tangent; index_copy_,
    # scatter_, index_put_, put_ and copy_ then refuse a source tangent that shares the written tangent's memory
    same_output(r"""
import torch, warnings
import torch.autograd.forward_ad as fa
idx=torch.tensor([0])
with fa.dual_level():
  for n,f in [('index_copy_',lambda a,v: a.index_copy_(0, idx, v[:1])),('index_add_',lambda a,v: a.index_add_(0, idx, v[:1])),
              ('scatter_',lambda a,v: a.scatter_(0, idx, v[:1])),('scatter_add_',lambda a,v: a.scatter_add_(0, idx, v[:1])),
              ('index_put_',lambda a,v: a.index_put_((idx,), v[:1])),('setitem',lambda a,v: a.__setitem__(idx, v[:1])),('setitem2',lambda a,v: a.__setitem__(slice(0,1), v[:1])),
              ('masked_scatter_',lambda a,v: a.masked_scatter_(torch.tensor([True,False,False]), v[:1])),
              ('put_',lambda a,v: a.put_(idx, v[:1])), ('copy_', lambda a,v: a[1:].copy_(v[:2])), ('copy_same', lambda a,v: a.copy_(v)), ('scatter_reduce_', lambda a,v: a.scatter_reduce_(0, idx, v[:1], 'sum')),
              ('addcmul_', lambda a,v: a.addcmul_(v,v)), ('mul_',lambda a,v: a.mul_(v)),
              ('remainder_r', lambda a,v: a.index_copy_(0, idx, torch.remainder(a,2.)[:1])), ('fmod', lambda a,v: a.index_copy_(0, idx, torch.fmod(a,2.)[:1])),
              ('rem_t', lambda a,v: a.index_copy_(0, idx, torch.remainder(a,torch.tensor(2.))[:1])),
              ('zero_', lambda a,v: v.zero_()), ('mul_v', lambda a,v: v.mul_(3)), ('a_mul', lambda a,v: a.mul_(3))]:
    p=torch.tensor([1.5,2.5,0.3]); t=torch.tensor([1.,2.,3.])
    a=fa.make_dual(p,t); v=a.frac()
    try: f(a,v); print(n,'ok', fa.unpack_dual(a), fa.unpack_dual(v))
    except Exception as e: print(n,type(e).__name__,e, p)
""")


def test_index_copy_inside_vmap_runs_as_scatter():
    # fixed (seed 20249): PyTorch's vmap runs out-of-place index_copy as a scatter (functorch's index_copy_decomp):
    # scatter's dtype error, not index_copy's
    same_output(r"""
import torch
def E(f):
    try: r=f(); print('ok', r)
    except Exception as e: print(type(e).__name__, e)
vmap=torch.func.vmap
idx=torch.tensor([0,2,1])
s=torch.arange(12.).reshape(3,4).double(); src=torch.ones(3,4,3,dtype=torch.complex128)
E(lambda: vmap(lambda a,b: a.index_copy(-1, idx, b),in_dims=(None,0))(s[0], src))
E(lambda: vmap(lambda a,b: a.index_copy(-1, idx, b),in_dims=(0,None))(s, src[0]))
src=torch.arange(36.).reshape(3,4,3).double()
E(lambda: vmap(lambda a,b: a.index_copy(-1, idx, b),in_dims=(0,0))(torch.zeros(3,4,4).double(), src))
E(lambda: vmap(lambda a,b: a.index_copy(0, idx, b),in_dims=(0,0))(torch.zeros(3,4,4).double(), src.transpose(1,2)))
E(lambda: vmap(lambda a,b: torch.index_copy(a, 0, idx, b))(torch.zeros(3,4).double(), torch.ones(3,3).double()))
E(lambda: vmap(lambda a,i: torch.index_copy(a, 0, i, a[:2]))(torch.zeros(3,4).double(), torch.tensor([[0,1],[1,2],[3,0]])))
""")


def test_clamp_where_lerp_addcmul_addcdiv_promote_a_batched_0d_operand_as_1d():
    # fixed (seed 20388, and the former KNOWN entry of vmap line 272): these batching rules promote the physical
    # tensors, where a batched 0-d example is 1-d: it no longer gives way to the dimensioned tensors of its category
    same_output(r"""
import torch
from torch.func import vmap
def E(n, f):
    try: r=f(); print(n, 'ok', r.dtype, r.shape)
    except Exception as e: print(n, type(e).__name__, e)
c = torch.randn(2, dtype=torch.float32)
m = torch.randn(3, dtype=torch.float64)
mi = torch.tensor([1, 2, 3])
cb = c.expand(3, 2)
E('clamp2', lambda: vmap(lambda v0, c: torch.clamp(c, v0 - 1, v0 + 1), in_dims=(0, None))(m, c))
E('clamp2 cb', lambda: vmap(lambda v0, c: torch.clamp(c, v0 - 1, v0 + 1), in_dims=(0, 0))(m, cb))
E('clamp2 unb-min', lambda: vmap(lambda v0, c: torch.clamp(c, v0 - 1, v0 + 1), in_dims=(None, 0))(m[0], cb))
E('clamp min', lambda: vmap(lambda v0, c: torch.clamp(c, v0 - 1), in_dims=(0, None))(m, c))
E('clamp max', lambda: vmap(lambda v0, c: torch.clamp(c, max=v0), in_dims=(0, None))(m, c))
E('clamp int', lambda: vmap(lambda v0, c: torch.clamp(c, v0), in_dims=(0, None))(mi, c))
E('clamp_min', lambda: vmap(lambda v0, c: torch.clamp_min(c, v0), in_dims=(0, None))(m, c))
E('clamp_max', lambda: vmap(lambda v0, c: torch.clamp_max(c, v0), in_dims=(0, None))(m, c))
E('add', lambda: vmap(lambda v0, c: c + v0, in_dims=(0, None))(m, c))
E('maximum', lambda: vmap(lambda v0, c: torch.maximum(c, v0), in_dims=(0, None))(m, c))
E('where', lambda: vmap(lambda v0, c: torch.where(c > 0, c, v0), in_dims=(0, None))(m, c))
E('where cb', lambda: vmap(lambda v0, c: torch.where(c > 0, c, v0), in_dims=(0, 0))(m, cb))
E('where unb', lambda: vmap(lambda v0, c: torch.where(c > 0, c, v0), in_dims=(None, 0))(m[0], cb))
E('lerp', lambda: vmap(lambda v0, c: torch.lerp(c, c, v0), in_dims=(0, None))(m, c))
E('addcmul', lambda: vmap(lambda v0, c: torch.addcmul(c, c, v0), in_dims=(0, None))(m, c))
E('addcdiv', lambda: vmap(lambda v0, c: torch.addcdiv(c, v0, c), in_dims=(0, None))(m, c))
E('atan2', lambda: vmap(lambda v0, c: torch.atan2(c, v0), in_dims=(0, None))(m, c))
E('masked_fill', lambda: vmap(lambda v0, c: c.masked_fill(c > 0, v0), in_dims=(0, None))(m, c))
E('copysign', lambda: vmap(lambda v0, c: torch.copysign(c, v0), in_dims=(0, None))(m, c))
E('pow', lambda: vmap(lambda v0, c: torch.pow(c, v0), in_dims=(0, None))(m, c))
E('fmod', lambda: vmap(lambda v0, c: torch.fmod(c, v0), in_dims=(0, None))(m, c))
E('xlogy', lambda: vmap(lambda v0, c: torch.xlogy(c, v0), in_dims=(0, None))(m, c))
E('hypot', lambda: vmap(lambda v0, c: torch.hypot(c, v0), in_dims=(0, None))(m, c))
E('lerp_w', lambda: vmap(lambda v0, c: torch.lerp(c, v0, 0.5), in_dims=(0, None))(m, c))
E('where both', lambda: vmap(lambda v0, c: torch.where(c > 0, v0, v0*2), in_dims=(0, None))(m, c))
E('where_sc', lambda: vmap(lambda v0, c: torch.where(v0 > 0, c, 2.0), in_dims=(0, None))(m, c))
E('cat', lambda: vmap(lambda v0, c: torch.cat([c, v0.reshape(1)]), in_dims=(0, None))(m, c))
E('mul', lambda: vmap(lambda v0, c: torch.mul(c, v0), in_dims=(0, None))(m, c))
E('addcmul_sc', lambda: vmap(lambda v0, c: torch.addcmul(v0, c, c), in_dims=(0, None))(m, c))
from torch.func import grad
def E(n, f):
    try: r=f(); print(n, 'ok', r)
    except Exception as e: print(n, type(e).__name__, e)
torch.manual_seed(0)
c = torch.randn(3, 2, dtype=torch.float32)
m = torch.randn(3, dtype=torch.float64)
E('clamp_', lambda: vmap(lambda v0, c: c.clone().clamp_(v0 - 1, v0 + 1))(m, c))
E('clamp_ unb', lambda: vmap(lambda v0, c: c.clone().clamp_(v0 - 1, v0 + 1), in_dims=(None, 0))(m[0], c))
E('addcmul_', lambda: vmap(lambda v0, c: c.clone().addcmul_(c, v0))(m, c))
E('addcdiv_', lambda: vmap(lambda v0, c: c.clone().addcdiv_(v0, c))(m, c))
E('where grad', lambda: vmap(grad(lambda v0, c: torch.where(c > 0, c, v0).sum()))(m, c))
E('clamp grad', lambda: vmap(grad(lambda v0, c: torch.clamp(c, v0 - 1, v0 + 1).sum()))(m, c))
E('clamp value', lambda: vmap(lambda v0, c: torch.clamp(c, v0 - 0.5, v0 + 0.5))(m, c))
E('lerp same', lambda: vmap(lambda w, c: torch.lerp(c, c * 2, w))(m.float(), c))
E('clamp int input', lambda: vmap(lambda v0, c: torch.clamp(c, v0))(m, torch.tensor([[1, 2], [3, 4], [5, 6]])))
""")


def test_inplace_op_on_a_batched_0d_example_computes_in_its_dtype():
    # fixed (seed 22951): self.op_(other) with self a batched 0-d example and other an unbatched 0-d tensor: the
    # kernel sees self as [B], so other gives way (atan2_ names ComplexFloat; mul_ computes in float32)
    same_output(r"""
import torch
from torch.func import vmap
def E(n, f):
    try: r = f(); print(n, 'ok', r.dtype)
    except Exception as e: print(n, type(e).__name__, e)
a = torch.randn(3, 2, dtype=torch.complex64)
a0 = torch.randn(3, dtype=torch.complex64)
f64 = torch.randn(3, 2, dtype=torch.float64)
E('plain', lambda: a[0].clone().atan2_(f64[0]))
E('plain0', lambda: a0[0].clone().atan2_(f64[0, 0]))
E('bb', lambda: vmap(lambda x, y: x.clone().atan2_(y))(a, f64))
E('bb0', lambda: vmap(lambda x, y: x.clone().atan2_(y))(a0, f64[:, 0]))
E('bu', lambda: vmap(lambda x, y: x.clone().atan2_(y), in_dims=(0, None))(a, f64[0]))
E('bb out', lambda: vmap(lambda x, y: torch.atan2(x, y))(a, f64))
E('add_ bb', lambda: vmap(lambda x, y: x.clone().add_(y))(a, f64))
E('f32 add_ c', lambda: vmap(lambda x, y: x.clone().add_(y))(f64.float(), a))
E('i add_ f', lambda: vmap(lambda x, y: x.clone().add_(y))(torch.ones(3, 2, dtype=torch.long), f64))
E('plain i add_ f', lambda: torch.ones(2, dtype=torch.long).add_(f64[0]))
E('f32 mul_ f64', lambda: vmap(lambda x, y: x.clone().mul_(y))(f64.float(), f64))
E('hypot_ c', lambda: vmap(lambda x, y: x.clone().hypot_(y))(a, f64))
E('plain hypot_ c', lambda: a[0].clone().hypot_(f64[0]))
E('fmod_ c', lambda: vmap(lambda x, y: x.clone().fmod_(y))(a, f64))
E('plain fmod_ c', lambda: a[0].clone().fmod_(f64[0]))
E('f16 atan2_', lambda: vmap(lambda x, y: x.clone().atan2_(y))(f64.half(), f64))
def E(n, f):
    try: r = f(); print(n, 'ok', r.dtype, r.flatten()[:2].tolist())
    except Exception as e: print(n, type(e).__name__, e)
f32 = torch.tensor([1.5, 2.5])
E('b0 f32 add_ b0 c128', lambda: vmap(lambda x, y: x.clone().add_(y))(f32, torch.tensor([1j, 2j])))
E('b0 f32 mul_ b0 f64', lambda: vmap(lambda x, y: x.clone().mul_(y))(f32 / 3, torch.tensor([1.1, 2.2], dtype=torch.float64)))
E('plain 0d f32 mul_ 0d f64', lambda: (f32[0] / 3).mul_(torch.tensor(1.1, dtype=torch.float64)))
E('b0 f32 mul_ u0 f64', lambda: vmap(lambda x: x.clone().mul_(torch.tensor(1.1, dtype=torch.float64)))(f32 / 3))
f64 = torch.tensor([1.5, 2.5], dtype=torch.float64)
c64 = torch.tensor([1 + 2j, 3 - 1j], dtype=torch.complex64)
E('b0 f64 * u0 f32', lambda: vmap(lambda x: x * torch.tensor(2., dtype=torch.float32))(f64))
E('b0 f64 + u1 f32', lambda: vmap(lambda x: x + torch.ones(2, dtype=torch.float32))(f64))
E('b0 c64 + u1 f32', lambda: vmap(lambda x: x + torch.ones(2, dtype=torch.float32))(c64))
E('b0 c64 + u0 f32', lambda: vmap(lambda x: x + torch.tensor(1., dtype=torch.float32))(c64))
E('u0 f32 + b0 c64', lambda: vmap(lambda x: torch.tensor(1., dtype=torch.float32) + x)(c64))
E('b0 c64 atan2 u0 f64', lambda: vmap(lambda x: torch.atan2(x, torch.tensor(1., dtype=torch.float64)))(c64))
E('b0 c64 atan2_ u0 f64', lambda: vmap(lambda x: x.clone().atan2_(torch.tensor(1., dtype=torch.float64)))(c64))
E('b0 f32 add_ u0 f64', lambda: vmap(lambda x: x.clone().add_(torch.tensor(1., dtype=torch.float64)))(f64.float()))
E('b0 f32 add_ u0 c128', lambda: vmap(lambda x: x.clone().add_(torch.tensor(1j, dtype=torch.complex128)))(f64.float()))
E('b0 i64 add_ u0 f64', lambda: vmap(lambda x: x.clone().add_(torch.tensor(1.5, dtype=torch.float64)))(torch.tensor([1, 2])))
E('b0 i64 + u0 f64', lambda: vmap(lambda x: x + torch.tensor(1.5, dtype=torch.float64))(torch.tensor([1, 2])))
E('b0 f64 + b0 f32', lambda: vmap(lambda x, y: x + y)(f64, f64.float()))
E('b0 f64 + u0 f32 py', lambda: vmap(lambda x: x + 2)(f64))
E('b0 f16 * u0 f64', lambda: vmap(lambda x: x * torch.tensor(2., dtype=torch.float64))(f64.half()))
E('b0 f64 mul u0 i64', lambda: vmap(lambda x: x * torch.tensor(2))(f64))
E('b0 f64 pow u0 f32', lambda: vmap(lambda x: torch.pow(x, torch.tensor(2., dtype=torch.float32)))(f64))
E('b0 f64 maximum u0 f32', lambda: vmap(lambda x: torch.maximum(x, torch.tensor(2., dtype=torch.float32)))(f64))
E('b0 f64 div u0 f32', lambda: vmap(lambda x: x / torch.tensor(2., dtype=torch.float32))(f64))
E('b0 f64 eq u0 f32', lambda: vmap(lambda x: x == torch.tensor(2., dtype=torch.float32))(f64))
E('b1 f32 add_ b0 c128', lambda: vmap(lambda x, y: x.clone().add_(y))(f64.float().reshape(2, 1).expand(2, 3), torch.tensor([1j, 2j])))
E('b1 f32 add_ u0 c128', lambda: vmap(lambda x: x.clone().add_(torch.tensor(1j)))(f64.float().reshape(2, 1).expand(2, 3)))
E('b0 f32 sub_ u0 c128', lambda: vmap(lambda x: x.clone().sub_(torch.tensor(1j)))(f64.float()))
E('b0 f32 mul_ u0 c128', lambda: vmap(lambda x: x.clone().mul_(torch.tensor(1j)))(f64.float()))
E('b0 f32 div_ u0 c128', lambda: vmap(lambda x: x.clone().div_(torch.tensor(1j)))(f64.float()))
E('b0 f32 pow_ u0 c128', lambda: vmap(lambda x: x.clone().pow_(torch.tensor(1j)))(f64.float()))
E('b0 i add_ u0 f64', lambda: vmap(lambda x: x.clone().add_(torch.tensor(1.)))(torch.tensor([1, 2])))
E('b0 f32 copysign_ u0 c', lambda: vmap(lambda x: x.clone().copysign_(torch.tensor(1j)))(f64.float()))
E('b0 i div_ u0 f', lambda: vmap(lambda x: x.clone().div_(torch.tensor(2.)))(torch.tensor([1, 2])))
E('b0 i div_ u0 i', lambda: vmap(lambda x: x.clone().div_(torch.tensor(2)))(torch.tensor([1, 2])))
""")


def test_broadcast_errors_inside_vmap_count_the_batch_dims():
    # fixed: PyTorch's batched kernels broadcast the physical tensors, so "at non-singleton dimension d" counts one
    # batch dim per vmap level an operand is batched at
    same_output(r"""
import torch
from torch.func import vmap
def E(f):
    try: f(); print('no error')
    except Exception as e: print(type(e).__name__, e)
y = torch.randn(3, 2)
E(lambda: vmap(lambda x: torch.ones(3) + x)(y))
E(lambda: vmap(lambda x: x + torch.ones(3))(y))
E(lambda: vmap(lambda x: x * torch.ones(4, 3))(y))
E(lambda: vmap(lambda x: torch.ones(4, 3).add_(x))(y))
E(lambda: vmap(lambda x, z: x + z)(y, torch.ones(3, 3)))
E(lambda: vmap(lambda x, z: x + z, in_dims=(0, 1))(y, torch.ones(3, 3)))
E(lambda: vmap(vmap(lambda x: torch.ones(3) + x))(torch.randn(2, 3, 2)))
E(lambda: vmap(vmap(lambda x, z: z + x, in_dims=(0, None)))(torch.randn(2, 3, 2), torch.ones(2, 3)))
E(lambda: vmap(lambda x: torch.where(x > 0, x, torch.ones(3)))(y))
E(lambda: vmap(lambda x: torch.maximum(x, torch.ones(3)))(y))
E(lambda: vmap(lambda x: torch.ones(3).expand_as(x))(y))
E(lambda: vmap(lambda x: torch.broadcast_tensors(x, torch.ones(3)))(y))
E(lambda: vmap(lambda x: torch.addcmul(x, x, torch.ones(3)))(y))
E(lambda: vmap(lambda x: torch.clamp(x, torch.ones(3)))(y))
E(lambda: vmap(lambda x: torch.lerp(x, torch.ones(3), 0.5))(y))
E(lambda: vmap(lambda x: torch.atan2(x, torch.ones(3)))(y))
E(lambda: vmap(lambda x: x.masked_fill(torch.ones(3, dtype=torch.bool), 1.0))(y))
E(lambda: vmap(lambda x: torch.ones(3, 1) + x.unsqueeze(0).expand(2, 2))(y))
""")


def test_view_errors_name_the_overload_node():
    # fixed (seed 20574): "Output 0 of Squeeze1/Squeeze2" (SqueezeBackward1/2 lose "Backward" only; ...Backward0 all)
    same_output(r"""
import torch
def E(f):
    try: f(); print('no error')
    except Exception as e: print(type(e).__name__, e)
b = torch.randn(3, 3, 3, requires_grad=True)
def f(b, dims):
    v2, v3 = b.chunk(2, 2)
    v4 = v3.squeeze(dims)
    print(v4.grad_fn.name() if v4.grad_fn else None)
    v4.exp_()
    return v2.sum()
for dims in ((2,), 2, (0, 2), [2]):
    E(lambda: f(b, dims))
    E(lambda: torch.func.grad(f)(b.detach(), dims))
    E(lambda: f(b.detach(), dims))
x = torch.randn(3, 1, requires_grad=True)
def g(x):
    a, = x.unbind(1)
    a.mul_(2)
    return x.sum()
E(lambda: g(x.clone()))
E(lambda: torch.func.grad(g)(x.detach()))
def h(x):
    a, c = x.split(1, 0)
    a.squeeze(0).mul_(2)
    return x.sum()
E(lambda: h(torch.randn(2, 3, requires_grad=True).clone()))
E(lambda: torch.func.grad(h)(torch.randn(2, 3)))
def k(x):
    a, c = x.split(1, 0)
    a.unsqueeze(0).mul_(2)
    return x.sum()
E(lambda: k(torch.randn(2, 3, requires_grad=True).clone()))
E(lambda: torch.func.grad(k)(torch.randn(2, 3)))
def k2(x):
    a, c = x.split(1, 0)
    a.t().mul_(2)
    return x.sum()
E(lambda: k2(torch.randn(2, 3, requires_grad=True).clone()))
E(lambda: torch.func.grad(k2)(torch.randn(2, 3)))
def h2(x, view):
    a, c = x.split(1, 0)
    v = view(a)
    print(v.grad_fn.name())
    v.mul_(2)
for view in (lambda a: a.squeeze(), lambda a: a.squeeze(0), lambda a: a.squeeze((0,)), lambda a: a.view(torch.float32), lambda a: a.view(torch.int32).float(),
             lambda a: a.transpose(0, 1), lambda a: a.unflatten(1, (1, 3)), lambda a: a.narrow(1, 0, 2), lambda a: a[0], lambda a: a.diagonal(), lambda a: a.expand(2, 3),
             lambda a: a.real, lambda a: a.unbind(1)[0]):
    E(lambda: h2(torch.randn(2, 3, requires_grad=True).clone(), view))
x = torch.randn(2, 3, requires_grad=True).clone()
with torch.no_grad():
    v = x.view(1, 2, 3)
E(lambda: v.squeeze(0).mul_(2))
E(lambda: v.squeeze((0,)).mul_(2))
E(lambda: v.squeeze().mul_(2))
E(lambda: v.transpose(1, 2).mul_(2))
class MyFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)
    @staticmethod
    def backward(ctx, g):
        return g
class BackwardThing(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x[0]
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.randn(3, requires_grad=True).clone()
for F in (MyFn, BackwardThing):
    y = F.apply(x)
    try: y.mul_(2)
    except Exception as e: print(str(e)[:50])
""")


def test_a_saved_input_detached_in_place_is_refused():
    # fixed (seed 21990): a non-leaf input saved for backward and later detach_()ed: PyTorch's SavedVariable finds
    # no grad_fn for it and refuses (plain backward, torch.func.grad and vjp alike)
    same_output(r"""
import torch
from torch.func import grad, vjp
def E(f):
    try: r = f(); print('ok', r)
    except Exception as e: print(type(e).__name__, e)
def f(a):
    v0 = torch.special.erfcx(a)
    v3 = torch.cos(v0)
    v0.detach_()
    return v3.sum()
a = torch.tensor([0.5, 1.0], dtype=torch.float64)
E(lambda: f(a.clone().requires_grad_()).backward())
E(lambda: grad(f)(a))
E(lambda: vjp(f, a)[1](torch.tensor(1., dtype=torch.float64)))
def g(a):
    v0 = a * 2
    v3 = v0.exp()
    v0.detach_()
    return v3.sum()
E(lambda: g(a.clone().requires_grad_()).backward())
E(lambda: grad(g)(a))
def h(a):
    v0 = a * 2
    v3 = v0.sin()
    v0.detach_()
    return v3.sum()
E(lambda: h(a.clone().requires_grad_()).backward())
E(lambda: grad(h)(a))
""")


def test_softmax_backward_of_a_0d_input_inside_vmap_is_zero():
    # fixed (seed 22534): PyTorch's vmap rule for (log_)softmax's backward: "If the original input was a scalar, the
    # grad is 0" (jacrev of sqrt(log_softmax(0-d)) is 0, not inf - inf = nan)
    same_output(r"""
import torch
import torch.nn.functional as F
from torch.func import jacrev, vjp, grad, jacfwd
def E(f):
    try: r = f(); print('ok', r)
    except Exception as e: print(type(e).__name__, e)
b = torch.tensor(0.23)
E(lambda: torch.autograd.grad(F.log_softmax(b.requires_grad_(), 0, dtype=torch.float64).sqrt(), b))
b = torch.tensor(0.23)
E(lambda: torch.autograd.grad(F.log_softmax(b.requires_grad_(), 0), b, torch.tensor(float('inf'))))
b = torch.tensor(0.23)
E(lambda: torch.autograd.grad(F.log_softmax(b.requires_grad_(), 0), b, torch.tensor(float('nan'))))
b = torch.tensor([0.23])
E(lambda: torch.autograd.grad(F.log_softmax(b.requires_grad_(), 0), b, torch.tensor([float('inf')])))
b = torch.tensor(0.23)
E(lambda: torch.autograd.grad(F.softmax(b.requires_grad_(), 0), b, torch.tensor(float('inf'))))
E(lambda: jacrev(lambda b: F.log_softmax(b, 0, dtype=torch.float64).sqrt())(torch.tensor(0.23)))
E(lambda: jacfwd(lambda b: F.log_softmax(b, 0, dtype=torch.float64).sqrt())(torch.tensor(0.23)))
E(lambda: grad(lambda b: F.log_softmax(b, 0, dtype=torch.float64).sqrt())(torch.tensor(0.23)))
E(lambda: jacrev(lambda b: F.log_softmax(b, 0).sqrt())(torch.tensor(0.23)))
E(lambda: jacrev(lambda b: F.log_softmax(b, 0).sqrt())(torch.tensor([0.23])))
E(lambda: jacrev(lambda b: F.softmax(b, 0).log().sqrt())(torch.tensor(0.23)))
E(lambda: jacrev(lambda b: torch.log_softmax(b, 0).sqrt())(torch.tensor(0.23, dtype=torch.float64)))
""")


def test_random_ops_with_a_generator_inside_vmap():
    # fixed: randomness='error' refuses random ops given generator= too; 'same' restores that generator per slice
    same_output(r"""
import torch
from torch.func import vmap
def E(n, f):
    try:
        r = f(); print(n, 'ok', r.shape)
    except Exception as e:
        print(n, type(e).__name__, str(e)[:90])
x = torch.ones(3, 4)
g = torch.Generator().manual_seed(0)
E('gen', lambda: vmap(lambda v: v * torch.rand(4, generator=g))(x))
E('gen same', lambda: vmap(lambda v: v * torch.rand(4, generator=g), randomness='same')(x))
E('gen diff', lambda: vmap(lambda v: v * torch.rand(4, generator=g), randomness='different')(x))
E('normal_', lambda: vmap(lambda v: v.normal_())(x.clone()))
E('randperm', lambda: vmap(lambda v: torch.randperm(4).float() + v)(x))
E('randperm same', lambda: vmap(lambda v: torch.randperm(4).float() + v, randomness='same')(x))
E('uniform_ same', lambda: vmap(lambda v: v.clone().uniform_(), randomness='same')(x))
E('uniform_ diff', lambda: vmap(lambda v: v.clone().uniform_(), randomness='different')(x))
E('randint', lambda: vmap(lambda v: torch.randint(5, (4,)) + v)(x))
E('multinomial', lambda: vmap(lambda v: torch.multinomial(v, 2))(x))
E('multinomial same', lambda: vmap(lambda v: torch.multinomial(v, 2), randomness='same')(x))
E('rand_like', lambda: vmap(lambda v: torch.rand_like(v), randomness='same')(x))
E('randn_like diff', lambda: vmap(lambda v: torch.randn_like(v), randomness='different')(x))
g.manual_seed(3)
print(vmap(lambda v: v * torch.rand(4, generator=g), randomness='same')(x))
print(torch.rand(2, generator=g))
g.manual_seed(3)
print(vmap(lambda v: v * torch.rand(4, generator=g), randomness='different')(x))
print(torch.rand(2, generator=g))
""")


def test_addcdiv_tangent_is_pytorchs_formula():
    # fixed (seed 23765): addcdiv's tangent is PyTorch's `self_t + t1_t / t2 * value - t2_t * (t1 / t2) / t2 * value`,
    # each quotient in its operands' dtype (float32 quotients beside a float64 self)
    same_output(r"""
import torch
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    for dts in [(torch.float64, torch.float32, torch.float32), (torch.float32,)*3]:
        s = fwAD.make_dual(torch.tensor([1.3, -0.7, 2.1], dtype=dts[0]), torch.tensor([0.3, 0.2, -1.1], dtype=dts[0]))
        t1 = fwAD.make_dual(torch.tensor([0.37, 1.1, -2.3], dtype=dts[1]), torch.tensor([1.7, -0.3, 0.9], dtype=dts[1]))
        t2 = fwAD.make_dual(torch.tensor([1.9, -0.6, 3.3], dtype=dts[2]), torch.tensor([0.1, 0.7, -0.4], dtype=dts[2]))
        for v in (1, 0.3, 2):
            print(fwAD.unpack_dual(torch.addcdiv(s, t1, t2, value=v)).tangent.tolist())
        print(fwAD.unpack_dual(torch.addcdiv(s, t1.detach(), t2, value=0.5)).tangent.tolist())
        print(fwAD.unpack_dual(torch.addcdiv(s.detach(), t1, t2.detach())).tangent.tolist())
        print(fwAD.unpack_dual(s.clone().addcdiv_(t1, t2, value=0.7)).tangent.tolist())
""")


def test_vjp_fn_repr_and_flag_parsing():
    # fixed: vjp's function prints as PyTorch's (_vjp_with_argnums.<locals>.wrapper) and parses retain_graph and
    # create_graph as torch.autograd.grad does (vjp_fn(ct, ct) is a TypeError); grad(create_graph=<tensor>) too
    same_output(r"""
import torch
def E(f):
    try: f(); print('no error')
    except Exception as e: print(type(e).__name__, e)
x = torch.ones(3, requires_grad=True)
E(lambda: torch.autograd.grad((x * 2).sum(), x, retain_graph=torch.ones(3)))
E(lambda: torch.autograd.grad((x * 2).sum(), x, retain_graph=torch.ones(1)))
E(lambda: torch.autograd.grad((x * 2).sum(), x, retain_graph=torch.tensor(1.5)))
E(lambda: torch.autograd.grad((x * 2).sum(), x, retain_graph='a'))
E(lambda: torch.autograd.grad((x * 2).sum(), x, retain_graph=2))
E(lambda: torch.autograd.grad((x * 2).sum(), x, create_graph=torch.ones(3)))
E(lambda: (x * 2).sum().backward(retain_graph=torch.ones(3)))
from torch.func import vjp
out, fn = vjp(lambda v: (v * 3).sin(), torch.tensor([0.5, 1.0]))
print(fn)
E(lambda: fn(torch.ones(2), torch.ones(2)))
E(lambda: fn(torch.ones(2), create_graph=torch.ones(2)))
print(fn(torch.ones(2), retain_graph=False, create_graph=False))
""")


def test_inplace_op_whose_operand_is_self_reads_the_written_primal():
    # fixed (seed 23516): x.mul_(x) (or x.mul_(x.float()) of a float32 x, the same tensor) under forward AD:
    # PyTorch's in-place formula reads a copy of self's old value for self, but the operand that is self as
    # written: mul_'s tangent is t·x_old + t·x_new, pow_'s, atan2_'s ... likewise
    same_output(r"""
import torch
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    for name in ('mul_', 'add_', 'sub_', 'div_', 'pow_', 'atan2_', 'hypot_', 'copysign_', 'fmod_', 'addcmul_', 'addcdiv_', 'lerp_', 'maximum', 'xlogy_', 'mul_s'):
        b = fwAD.make_dual(torch.tensor([2.0, 3.0]), torch.tensor([1.0, 0.5]))
        try:
            if name == 'addcmul_': b.addcmul_(b, b)
            elif name == 'addcdiv_': b.addcdiv_(b, b)
            elif name == 'lerp_': b.lerp_(b, 0.3)
            elif name == 'maximum': b = torch.maximum(b, b)
            elif name == 'mul_s': b.mul_(b[0])
            else: getattr(b, name)(b)
            print(name, fwAD.unpack_dual(b).primal.tolist(), fwAD.unpack_dual(b).tangent.tolist())
        except Exception as e:
            print(name, type(e).__name__, e)
    for name in ('mul_', 'div_', 'pow_', 'sub_'):
        b = fwAD.make_dual(torch.tensor([[2.0], [3.0]], dtype=torch.float64), torch.tensor([[1.0], [0.5]], dtype=torch.float64))
        v0 = b.double()            # (the same tensor: .double() of a float64 tensor is itself)
        getattr(b, name)(v0)
        v1 = b.view_as(b)          # (a view: another tensor on the same memory)
        getattr(b, name)(v1)
        print(name, v0 is b, fwAD.unpack_dual(b).primal.flatten().tolist(), fwAD.unpack_dual(b).tangent.flatten().tolist())
""")
