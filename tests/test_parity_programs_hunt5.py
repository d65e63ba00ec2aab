"""Parity programs found by a fifth hunt for differences from PyTorch (torch.autograd, student style).

Each program runs twice through ``parity.run_both`` (``import torch`` resolving to minigrad, then to PyTorch)
and both stdouts must be identical once object addresses are masked. Every program here printed something
different from PyTorch before its fix (or guards the fix's neighbourhood):
- hooks and modes: post-accumulate-grad hooks that return a value, ``set_grad_enabled`` of a non-bool,
  ``detect_anomaly`` (not a decorator; its repr), ``requires_grad_(False)`` on a no_grad view of a tensor
  that requires grad, ``ctx.saved_tensors`` inside forward and jvp;
- engine: ``autograd.grad(y, y)`` (y's node does not run), ``x.data =`` an integer tensor, ``torch.Tensor(x)``
  (an alias of x);
- gradcheck: fast mode with PyTorch's random vectors and messages (real, complex, forward mode),
  ``check_batched_grad``, complex functions (real/imaginary parts, Wirtinger numerical Jacobian), the
  nondeterminism note, gradgradcheck's grad_outputs drawn from the global generator (also non-contiguous)
  and ``check_fwd_over_rev``, negative tolerances (``torch.allclose``'s error);
- forward AD: tangents of in-place writes into views, of ``1 - x`` (rsub), ``div``, ``cumprod``, ``pinv``,
  ``masked_select``, ``dist``, ``copysign``, ``aminmax``, ``logcumsumexp``, ``var_mean``/``std_mean``,
  ``linalg.solve``/``cholesky``/``eigh``/``slogdet``/``solve_triangular``, ``F.bilinear``, ``soft_margin_loss``;
- nodes: ``F.threshold`` (ThresholdBackward0/1), PReLU (PreluKernelBackward0), nearest upsampling
  (UpsampleNearest1D/2D/3DBackward0), jacobian of an empty output;
- float16/bfloat16: gradients of softmax/log_softmax, gelu and silu, layer norm (forward and input gradient),
  all computed in float32 and rounded once; mse_loss's backward (its 2/N in the tensors' dtype first).
Warnings are printed by the programs themselves (only stdout is compared).
"""
from __future__ import annotations

import re
import warnings

import pytest
from parity import run_both

PROGRAMS: dict[str, str] = {}

PROGRAMS['h_post_accumulate'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

w = torch.tensor([1., 2., 3.], requires_grad=True)
def hook(p):
    print('post', p.grad)
    p.grad.mul_(0.5)
    return None
h = w.register_post_accumulate_grad_hook(hook)
(w * w).sum().backward()
print(w.grad)
(w * w).sum().backward()
print(w.grad)
h.remove()
(w).sum().backward()
print(w.grad)
def bad(p):
    return p * 2
w.register_post_accumulate_grad_hook(bad)
E(lambda: w.sum().backward())
'''

PROGRAMS['h_data_semantics'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

x = torch.tensor([1., 2.], requires_grad=True)
y = x ** 2
x.data.mul_(10)
y.sum().backward()
print(x.grad, x, x._version)
d = x.data
print(d.requires_grad, d.is_leaf, d._version)
x.data = torch.tensor([5., 6., 7.])
print(x)
E(lambda: setattr(x, 'data', torch.tensor([1, 2])))
print(x.dtype)
x.data = torch.tensor([1., 2.], dtype=torch.float64)
print(x)
'''

PROGRAMS['g_set_grad_enabled_forms'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

x = torch.ones(2, requires_grad=True)
torch.set_grad_enabled(False)
print((x * 2).requires_grad)
torch.set_grad_enabled(True)
print((x * 2).requires_grad)
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
@torch.set_grad_enabled(False)
def f(x):
    return x * 2
print(f(x).requires_grad)
E(lambda: torch.set_grad_enabled())
E(lambda: torch.set_grad_enabled('yes'))
m = torch.set_grad_enabled(False)
print(torch.is_grad_enabled())
torch.set_grad_enabled(True)
print(type(m).__name__)
'''

PROGRAMS['gc_gradcheck_basic'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

from torch.autograd import gradcheck, gradgradcheck
torch.manual_seed(0)
x = torch.randn(3, dtype=torch.float64, requires_grad=True)
print(gradcheck(torch.sin, (x,)))
print(gradcheck(lambda a: (a * a).sum(), x))
print(gradgradcheck(torch.tanh, (x,)))
print(gradcheck(torch.sin, (x,), fast_mode=True))
y = torch.randn(3, requires_grad=True)
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    E(lambda: gradcheck(lambda a: a * a, (y,)))
    print([str(m.message)[:80] for m in w])
'''

PROGRAMS['gc_gradcheck_failures'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

from torch.autograd import gradcheck
torch.manual_seed(0)
class Wrong(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 3
x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
E(lambda: gradcheck(Wrong.apply, (x,)))
print(gradcheck(Wrong.apply, (x,), raise_exception=False))
E(lambda: gradcheck(Wrong.apply, (x,), fast_mode=True))
E(lambda: gradcheck(lambda a: a.detach() * 2, (x,)))
E(lambda: gradcheck(lambda a: a * 2, (x.detach(),)))
'''

PROGRAMS['gc_fast_mode_failures_more'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

from torch.autograd import gradcheck
torch.manual_seed(0)
class Wrong(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y, x + y
    @staticmethod
    def backward(ctx, g1, g2):
        x, y = ctx.saved_tensors
        return g1 * y + g2, g1 * x * 1.01 + g2
a = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
b = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
E(lambda: gradcheck(Wrong.apply, (a, b), fast_mode=True))
E(lambda: gradcheck(Wrong.apply, (a, b), fast_mode=True, atol=1e-1, rtol=1e-1))
E(lambda: gradcheck(Wrong.apply, (a, b.detach()), fast_mode=True))
E(lambda: gradcheck(lambda x, y: (x * y).sum(), (a, b), fast_mode=True))
E(lambda: gradcheck(lambda x, y: x.exp() * 2, (a, b), fast_mode=True))
E(lambda: gradcheck(lambda x: x.abs() * 1.001 if False else torch.where(x > 0, x, x * 0), (a,), fast_mode=True))
print(torch.randn(2))
'''

PROGRAMS['gc_gradgradcheck_seeded'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

from torch.autograd import gradgradcheck
torch.manual_seed(3)
x = torch.randn(2, 2, dtype=torch.float64, requires_grad=True)
print(gradgradcheck(lambda a: a.pow(3).sum(1), (x,)))
print(torch.rand(3))
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a ** 2
    @staticmethod
    def backward(ctx, g):
        a, = ctx.saved_tensors
        return g * a * 2.5
E(lambda: gradgradcheck(F.apply, (x,)))
print(torch.rand(2))
'''

PROGRAMS['fw_views_inplace'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

import torch.autograd.forward_ad as fwAD
x = torch.zeros(4)
with fwAD.dual_level():
    d = fwAD.make_dual(torch.arange(4.), torch.ones(4))
    v = d[1:3]
    print(fwAD.unpack_dual(v).tangent)
    x[1:3] = v * 2
    print(fwAD.unpack_dual(x).tangent)
    y = torch.zeros(2)
    y.copy_(d[:2])
    print(fwAD.unpack_dual(y).tangent)
    w = d.clone()
    w.mul_(3)
    print(fwAD.unpack_dual(w).tangent)
    r = d.view(2, 2).t()
    print(fwAD.unpack_dual(r).tangent)
'''

PROGRAMS['fw_jvp_functional'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

from torch.func import jvp, vjp, grad, jacrev, jacfwd
def f(x):
    return x.sin() * x
x = torch.tensor([0.1, 0.2, 0.3])
print(jvp(f, (x,), (torch.ones(3),)))
out, fn = vjp(f, x)
print(out, fn(torch.ones(3)))
print(grad(lambda a: f(a).sum())(x))
print(jacrev(f)(x))
print(jacfwd(f)(x))
'''

PROGRAMS['s_tensor_from_tensor_warning'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

import warnings
x = torch.tensor([1., 2.], requires_grad=True)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    y = torch.tensor(x)
    print(y, y.requires_grad)
    print([str(m.message) for m in w])
    z = torch.as_tensor(x)
    print(z is x)
    q = torch.Tensor(x)
    print(q.requires_grad, q is x)
'''

PROGRAMS['gc_options'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

from torch.autograd import gradcheck
x = torch.tensor([0.3, 0.7], dtype=torch.float64, requires_grad=True)
print(gradcheck(torch.sigmoid, (x,), check_forward_ad=True))
print(gradcheck(torch.sigmoid, (x,), check_batched_grad=True))
print(gradcheck(torch.sigmoid, (x,), check_backward_ad=False, check_forward_ad=True))
print(gradcheck(torch.sigmoid, (x,), check_grad_dtypes=True))
print(gradcheck(lambda a: (a, a.argmax()), (x,)))
print(gradcheck(lambda a: a.detach().argmax(), (x,)) if False else '')
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2
    @staticmethod
    def backward(ctx, g):
        return torch.ones_like(g) * 2
E(lambda: gradcheck(F.apply, (x,)))
class G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2
    @staticmethod
    def backward(ctx, g):
        return (g * 2).float()
E(lambda: gradcheck(G.apply, (x,), check_grad_dtypes=True))
print(gradcheck(G.apply, (x,)))
'''

PROGRAMS['fn_jacobian_scalar_and_shapes'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

from torch.autograd.functional import jacobian
x = torch.ones(2, 3)
j = jacobian(lambda t: t.sum(0), x)
print(j.shape)
j = jacobian(lambda t: t.t(), x)
print(j.shape, j[0, 1])
j = jacobian(lambda t: (t ** 2).mean(), torch.tensor(3.))
print(j, j.shape)
j = jacobian(lambda t: t * 2, torch.tensor(3.))
print(j)
E(lambda: jacobian(lambda t: t.exp(), torch.zeros(0)))
'''

PROGRAMS['fw_many_unary'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F
x = torch.tensor([0.3, -0.6, 0.9, 0.1], dtype=torch.float64)
t = torch.tensor([1.0, 2.0, -1.0, 0.5], dtype=torch.float64)
ops = {
 'asin': torch.asin, 'acos': torch.acos, 'atan': torch.atan, 'sinh': torch.sinh, 'cosh': torch.cosh,
 'asinh': torch.asinh, 'atanh': torch.atanh, 'erf': torch.erf, 'erfc': torch.erfc, 'erfinv': torch.erfinv,
 'exp2': torch.exp2, 'expm1': torch.expm1, 'log1p': torch.log1p, 'log2': lambda a: torch.log2(a.abs()),
 'log10': lambda a: torch.log10(a.abs()), 'lgamma': torch.lgamma, 'digamma': torch.digamma,
 'sigmoid': torch.sigmoid, 'logsigmoid': F.logsigmoid, 'softplus': F.softplus, 'gelu': F.gelu,
 'gelu_tanh': lambda a: F.gelu(a, approximate='tanh'), 'silu': F.silu, 'mish': F.mish, 'elu': F.elu,
 'selu': F.selu, 'celu': F.celu, 'leaky': F.leaky_relu, 'hardtanh': F.hardtanh, 'hardswish': F.hardswish,
 'hardsigmoid': F.hardsigmoid, 'softsign': F.softsign, 'tanhshrink': F.tanhshrink, 'relu6': F.relu6,
 'sinc': torch.sinc, 'deg2rad': torch.deg2rad, 'frac': torch.frac, 'sgn': torch.sgn, 'square': torch.square,
 'clamp': lambda a: a.clamp(-0.5, 0.5), 'pow3': lambda a: a.pow(3), 'rpow': lambda a: 2 ** a,
 'xlogy': lambda a: torch.xlogy(a, a.abs() + 1), 'logit': lambda a: torch.logit(a.abs()),
 'nan_to_num': torch.nan_to_num, 'i0': torch.special.i0, 'ndtr': torch.special.ndtr,
 'polygamma1': lambda a: torch.polygamma(1, a.abs() + 1), 'mvlgamma': lambda a: torch.mvlgamma(a.abs() + 2, 2),
}
with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    for name, f in ops.items():
        try:
            print(name, fwAD.unpack_dual(f(d)).tangent)
        except Exception as e:
            print(name, type(e).__name__, str(e)[:80])
'''

PROGRAMS['fw_many_reductions_shapes'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

import torch.autograd.forward_ad as fwAD
x = torch.tensor([[0.3, -0.6, 0.9], [0.1, 2.0, -1.5]], dtype=torch.float64)
t = torch.tensor([[1.0, 2.0, -1.0], [0.5, 0.0, 3.0]], dtype=torch.float64)
ops = {
 'sum1': lambda a: a.sum(1), 'mean0': lambda a: a.mean(0), 'var': lambda a: a.var(1), 'std': lambda a: a.std(),
 'prod': lambda a: a.prod(1), 'amax': lambda a: a.amax(1), 'amin': lambda a: a.amin(0), 'max1': lambda a: a.max(1).values,
 'min': lambda a: a.min(), 'norm1': lambda a: a.norm(p=1), 'norm_inf': lambda a: a.norm(p=float('inf')),
 'logsumexp': lambda a: a.logsumexp(1), 'softmax': lambda a: a.softmax(1), 'log_softmax': lambda a: a.log_softmax(0),
 'cumsum': lambda a: a.cumsum(1), 'cumprod': lambda a: a.cumprod(1), 'cummax': lambda a: a.cummax(1).values,
 'sort': lambda a: a.sort(1).values, 'topk': lambda a: a.topk(2).values, 'median': lambda a: a.median(1).values,
 'kthvalue': lambda a: a.kthvalue(2, 1).values, 'mm': lambda a: a @ a.t(), 'outer': lambda a: torch.outer(a[0], a[1]),
 'trace': lambda a: (a @ a.t()).trace(), 'det': lambda a: (a @ a.t()).det(), 'inv': lambda a: (a @ a.t()).inverse(),
 'diag': lambda a: a.diagonal(), 'tril': lambda a: a.tril(), 'flip': lambda a: a.flip(1), 'roll': lambda a: a.roll(1, 1),
 'gather': lambda a: a.gather(1, torch.tensor([[2, 0], [1, 1]])), 'index_select': lambda a: a.index_select(1, torch.tensor([2, 0])),
 'masked_select': lambda a: a.masked_select(a > 0), 'where': lambda a: torch.where(a > 0, a, a * a),
 'cat': lambda a: torch.cat([a, a * 2], 1), 'stack': lambda a: torch.stack([a, a.exp()]), 'repeat': lambda a: a.repeat(1, 2),
 'expand': lambda a: a[:, :1].expand(2, 3), 'pad': lambda a: torch.nn.functional.pad(a, (1, 1)),
 'normalize': lambda a: torch.nn.functional.normalize(a, dim=1), 'layer_norm': lambda a: torch.nn.functional.layer_norm(a, (3,)),
 'dist': lambda a: torch.dist(a[0], a[1]), 'cdist': lambda a: torch.cdist(a, a * 2), 'cosine': lambda a: torch.nn.functional.cosine_similarity(a[0], a[1], 0),
 'atan2': lambda a: torch.atan2(a, a.flip(0)), 'hypot': lambda a: torch.hypot(a, a.flip(1)), 'fmod': lambda a: torch.fmod(a, 0.7),
 'remainder': lambda a: torch.remainder(a, 0.7), 'maximum': lambda a: torch.maximum(a, a.flip(1)), 'lerp': lambda a: torch.lerp(a, a.flip(0), 0.3),
 'addcmul': lambda a: torch.addcmul(a, a, a, value=0.5), 'addcdiv': lambda a: torch.addcdiv(a, a, a.abs() + 1),
 'einsum': lambda a: torch.einsum('ij,kj->ik', a, a), 'bmm': lambda a: torch.bmm(a[None], a.t()[None]),
 'linalg_norm': lambda a: torch.linalg.norm(a), 'matrix_norm': lambda a: torch.linalg.matrix_norm(a), 'pinv': lambda a: torch.linalg.pinv(a),
}
with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    for name, f in ops.items():
        try:
            print(name, fwAD.unpack_dual(f(d)).tangent)
        except Exception as e:
            print(name, type(e).__name__, str(e)[:80])
'''

PROGRAMS['fw_cumprod_zeros_pinv_div'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

import torch.autograd.forward_ad as fwAD
x = torch.tensor([[2., 0., 3., 0., 5.], [1., 2., 0., 4., 0.5]], dtype=torch.float64)
t = torch.tensor([[1., 2., 3., 4., 5.], [0.5, -1., 2., 1., 1.]], dtype=torch.float64)
with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    print(fwAD.unpack_dual(d.cumprod(1)).tangent)
    print(fwAD.unpack_dual(d.cumprod(0)).tangent)
    print(fwAD.unpack_dual(d[0, 1].cumprod(0)).tangent)
    print(fwAD.unpack_dual(d[0, 0].cumprod(0)).tangent)
    print(fwAD.unpack_dual(torch.linalg.pinv(d)).tangent)
    print(fwAD.unpack_dual(torch.linalg.pinv(d.t())).tangent)
    print(fwAD.unpack_dual(d / (d + 1)).tangent)
    print(fwAD.unpack_dual(d / 3).tangent)
    print(fwAD.unpack_dual(3 / (d + 1)).tangent)
    print(fwAD.unpack_dual(torch.div(d, d + 1, rounding_mode=None)).tangent)
    print(fwAD.unpack_dual(d.masked_select(d > 1)).tangent)
    print(fwAD.unpack_dual(torch.dist(d[0], d[1], 3)).tangent)
y = torch.tensor([0.3, -0.6, 0.9], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(y, torch.tensor([1., 2., -1.]))
    print(fwAD.unpack_dual(torch.nn.functional.softsign(d)).tangent)
    print(fwAD.unpack_dual(d / d.exp()).tangent)
'''

PROGRAMS['dd_piecewise_second_derivs'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

import torch.nn.functional as F
x = torch.tensor([-1.5, -0.5, 0.0, 0.5, 2.0], requires_grad=True)
fns = {'relu': torch.relu, 'abs': torch.abs, 'clamp': lambda a: a.clamp(-1, 1), 'leaky': lambda a: F.leaky_relu(a, 0.1),
       'hardtanh': F.hardtanh, 'relu6': F.relu6, 'sign': torch.sign, 'round': torch.round, 'max0': lambda a: torch.maximum(a, torch.zeros(5)),
       'where': lambda a: torch.where(a > 0, a * a, -a), 'elu': F.elu, 'softplus': F.softplus, 'hardswish': F.hardswish,
       'threshold': lambda a: F.threshold(a, 0.1, 20.), 'floor': torch.floor, 'sqrt_abs': lambda a: a.abs().sqrt(),
       'max_all': lambda a: a.max(), 'sort': lambda a: a.sort().values * torch.arange(5.), 'cummax': lambda a: a.cummax(0).values}
for name, f in fns.items():
    try:
        g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
        print(name, g, g.requires_grad, g.grad_fn.name() if g.grad_fn else None)
        if g.requires_grad:
            gg, = torch.autograd.grad(g.sum(), x, allow_unused=True)
            print('  ', gg)
    except Exception as e:
        print(name, type(e).__name__, e)
'''

PROGRAMS['threshold_node_and_inplace'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

import torch.nn.functional as F
x = torch.tensor([-1.5, 0.05, 0.1, 0.5, float('nan')], requires_grad=True)
y = F.threshold(x, 0.1, 20.)
print(y, y.grad_fn._saved_threshold, y.grad_fn._saved_self)
print([a for a in dir(y.grad_fn) if a.startswith('_saved')])
y.sum().backward(); print(x.grad)
z = x * 1
F.threshold(z, 0.1, 20., inplace=True); print(z, z.grad_fn._saved_self, z._version)
z.sum().backward(); print(x.grad)
z = x * 1
F.threshold_(z, 0.1, 20.); print(z.grad_fn.name())
w = x * 1; y = F.threshold(w, 0.1, 20.); w.add_(1)
E(lambda: y.sum().backward())
m = torch.nn.Threshold(0.1, 20., inplace=True)
print(m, m(x * 1))
E(lambda: F.threshold(x, 0.1, 2., inplace=True))
g, = torch.autograd.grad(F.threshold(x, 0.1, 20.).sum(), x, create_graph=True); print(g)
print(F.threshold(torch.tensor([1, 2, 3]), 1, 0), F.threshold(torch.tensor([1., 2.], dtype=torch.float64), 1.5, 7))
print(F.threshold(torch.tensor([1., 2.]), 1.5, 0.1), F.threshold(torch.tensor([1., 2.], dtype=torch.float16), 1.5, 0.1))
'''

PROGRAMS['gc_complex'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

from torch.autograd import gradcheck, gradgradcheck
z = torch.tensor([1 + 2j, -0.5 + 0.3j], dtype=torch.complex128, requires_grad=True)
print(gradcheck(lambda a: a * a, (z,)))
print(gradcheck(lambda a: a.abs(), (z,)))
print(gradcheck(lambda a: a.conj() * 2, (z,), fast_mode=True))
print(gradcheck(lambda a: a.real + a.imag, (z,), fast_mode=True))
print(gradgradcheck(lambda a: a.exp(), (z,)))
class Wrong(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2
    @staticmethod
    def backward(ctx, g):
        return g.conj() * 2
E(lambda: gradcheck(Wrong.apply, (z,)))
E(lambda: gradcheck(Wrong.apply, (z,), fast_mode=True))
x = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
E(lambda: gradcheck(lambda a: Wrong.apply(a * (1 + 1j)), (x,)))
'''

PROGRAMS['gc_complex_more'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

from torch.autograd import gradcheck, gradgradcheck
torch.manual_seed(0)
z = torch.randn(3, dtype=torch.complex128, requires_grad=True)
x = torch.randn(3, dtype=torch.float64, requires_grad=True)
for f in [lambda a: a.abs(), lambda a: a.angle(), lambda a: (a * a.conj()).real, lambda a: a.exp(), lambda a: a.sin() * a,
          lambda a: torch.view_as_real(a), lambda a: a.sum(), lambda a: a.pow(2).sum()]:
    print(gradcheck(f, (z,)), gradcheck(f, (z,), fast_mode=True))
for f in [lambda a: a * (1 + 2j), lambda a: torch.polar(a.abs() + 1, a), lambda a: torch.complex(a, a * 2)]:
    print(gradcheck(f, (x,)), gradcheck(f, (x,), fast_mode=True))
print(gradgradcheck(lambda a: (a * a).abs(), (z,)))
class BadAbs(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a.abs()
    @staticmethod
    def backward(ctx, g):
        a, = ctx.saved_tensors
        return g * a.conj() / a.abs()
E(lambda: gradcheck(BadAbs.apply, (z,)))
class BadMix(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * (1 + 1j)
    @staticmethod
    def backward(ctx, g):
        return (g * (1 + 1j)).real
E(lambda: gradcheck(BadMix.apply, (x,)))
print(torch.randn(2))
'''

PROGRAMS['gc_undefined_and_reentrant'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

from torch.autograd import gradcheck
x = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
class NoUndef(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2, a * 3
    @staticmethod
    def backward(ctx, g1, g2):
        return g1 * 2 + g2 * 3
E(lambda: gradcheck(NoUndef.apply, (x,)))
class Undef(NoUndef):
    @staticmethod
    def forward(ctx, a):
        ctx.set_materialize_grads(False)
        return a * 2, a * 3
E(lambda: gradcheck(Undef.apply, (x,)))
calls = [0]
class NonDet(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2
    @staticmethod
    def backward(ctx, g):
        calls[0] += 1
        return g * 2 + calls[0] * 1e-9
E(lambda: gradcheck(NonDet.apply, (x,)))
E(lambda: gradcheck(NonDet.apply, (x,), nondet_tol=1e-6))
class IgnoresGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2
    @staticmethod
    def backward(ctx, g):
        return torch.full_like(g, 2.0)
E(lambda: gradcheck(IgnoresGrad.apply, (x,)))
'''

PROGRAMS['grad_implicit_nonscalar_list'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

x = torch.ones(2, requires_grad=True)
y = x * 2
E(lambda: torch.autograd.grad([y.sum(), y], x, grad_outputs=[None, None]))
E(lambda: torch.autograd.grad([y.sum(), y], x, grad_outputs=[None, torch.ones(2)], retain_graph=True))
E(lambda: torch.autograd.backward([y.sum(), y]))
E(lambda: torch.autograd.grad(y.sum(), x, grad_outputs=[None], retain_graph=True))
z = torch.ones(1, requires_grad=True) * 2
E(lambda: z.backward())
print(torch.autograd.grad(z, z))
E(lambda: torch.autograd.grad(torch.ones(2, 1, requires_grad=True).sum(1), x))
'''

PROGRAMS['en_grad_wrt_root_and_intermediates'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

x = torch.tensor([1., 2.], requires_grad=True)
y = x.exp()
print(torch.autograd.grad(y.sum(), y.sum()) if False else '')
s = y.sum()
print(torch.autograd.grad(s, s))
print(torch.autograd.grad(s, s))
s.backward()
print(x.grad)
z = x.sin()
l = (z * z).sum()
print(torch.autograd.grad(l, z))
z.sum().backward()
print(x.grad)
q = x.cos()
print(torch.autograd.grad(q, q, torch.ones(2)))
print(torch.autograd.grad(q, q, torch.ones(2)))
q.sum().backward()
print(x.grad)
print(torch.autograd.grad([q, q.sum()], [q], [torch.ones(2), None]) if False else '')
h = x * 2
h.register_hook(lambda g: print('hook on root input', g))
print(torch.autograd.grad(h, h, torch.tensor([1., 3.])))
'''

PROGRAMS['fw_missing_jvps'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F
x = torch.tensor([[2.0, 0.5, -0.3], [0.4, 1.5, 0.2], [-0.1, 0.3, 1.8]], dtype=torch.float64)
t = torch.tensor([[1.0, 0.0, 0.5], [0.2, -1.0, 0.3], [0.0, 0.4, 1.0]], dtype=torch.float64)
spd = lambda a: a @ a.mT + torch.eye(3, dtype=torch.float64)
ops = {
 'as_strided': lambda a: a.as_strided((2, 2), (1, 3)), 'aminmax': lambda a: torch.aminmax(a, dim=1).max, 'copysign': lambda a: torch.copysign(a, -a.flip(0)),
 'logcumsumexp': lambda a: a.logcumsumexp(1), 'std_mean': lambda a: torch.std_mean(a, 1)[0], 'var_mean': lambda a: torch.var_mean(a, 0)[1],
 'solve': lambda a: torch.linalg.solve(a, torch.ones(3, dtype=torch.float64)), 'cholesky': lambda a: torch.linalg.cholesky(spd(a)),
 'eigh': lambda a: torch.linalg.eigh(spd(a)).eigenvalues, 'slogdet': lambda a: torch.linalg.slogdet(a).logabsdet, 'solve_tri': lambda a: torch.linalg.solve_triangular(a.triu(), a, upper=True), 'cdist': lambda a: torch.cdist(a, a.flip(0)),
 'soft_margin': lambda a: F.soft_margin_loss(a, torch.ones(3, 3, dtype=torch.float64)), 'multi_margin': lambda a: F.multi_margin_loss(a, torch.tensor([0, 1, 2])),
 'hardshrink': lambda a: F.hardshrink(a), 'softshrink': lambda a: F.softshrink(a), 'trilinear': lambda a: F.bilinear(a, a, torch.ones(2, 3, 3, dtype=torch.float64)),
 'cholesky_old': lambda a: torch.cholesky(spd(a)), 'inv_ex': lambda a: torch.linalg.inv_ex(a).inverse, 'det': lambda a: torch.linalg.det(a),
 'logdet': lambda a: spd(a).logdet(), 'matrix_power': lambda a: torch.linalg.matrix_power(a, 3),
 'rrelu_eval': lambda a: F.rrelu(a, training=False), 'smooth_l1': lambda a: F.smooth_l1_loss(a, torch.zeros(3, 3, dtype=torch.float64)),
 'huber': lambda a: F.huber_loss(a, torch.zeros(3, 3, dtype=torch.float64)),
}
with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    for name, f in ops.items():
        try:
            print(name, fwAD.unpack_dual(f(d)).tangent)
        except Exception as e:
            print(name, type(e).__name__, str(e)[:70])
'''

PROGRAMS['fw_linalg_more'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

import torch.autograd.forward_ad as fwAD
torch.manual_seed(0)
A = torch.randn(3, 3, dtype=torch.float64)
T = torch.randn(3, 3, dtype=torch.float64)
B = torch.randn(3, 2, dtype=torch.float64)
with fwAD.dual_level():
    d = fwAD.make_dual(A, T)
    S = d @ d.mT + torch.eye(3, dtype=torch.float64)
    L = torch.linalg.cholesky(S)
    print(fwAD.unpack_dual(L).tangent)
    print(fwAD.unpack_dual(torch.linalg.cholesky(S, upper=True)).tangent)
    w, V = torch.linalg.eigh(S)
    print(fwAD.unpack_dual(w).tangent)
    print(fwAD.unpack_dual(V).tangent.abs())
    print(fwAD.unpack_dual(torch.linalg.solve(d, B)).tangent)
    print(fwAD.unpack_dual(torch.linalg.solve(d, B.mT, left=False)).tangent)
    print(fwAD.unpack_dual(torch.linalg.solve_triangular(d.tril(), B, upper=False)).tangent)
    print(fwAD.unpack_dual(torch.linalg.solve_triangular(d.triu(), B, upper=True, unitriangular=True)).tangent)
    print(fwAD.unpack_dual(torch.linalg.slogdet(d).logabsdet), fwAD.unpack_dual(torch.linalg.slogdet(d).sign).tangent)
    print(fwAD.unpack_dual(S.logdet()).tangent, fwAD.unpack_dual(torch.logdet(S)).tangent)
    print(fwAD.unpack_dual(torch.linalg.eigvalsh(S)).tangent)
    x = fwAD.make_dual(torch.tensor([[1., 4.], [3., 2.]], dtype=torch.float64), torch.tensor([[1., 0.], [0., -1.]], dtype=torch.float64))
    print(fwAD.unpack_dual(torch.aminmax(x).max), fwAD.unpack_dual(torch.aminmax(x).min).tangent)
    print(fwAD.unpack_dual(torch.aminmax(x, dim=0, keepdim=True).min).tangent)
    print(fwAD.unpack_dual(torch.std_mean(x, dim=1, keepdim=True)[0]).tangent, fwAD.unpack_dual(torch.var_mean(x)[1]).tangent)
    print(fwAD.unpack_dual(torch.copysign(x, -1.)).tangent, fwAD.unpack_dual(x.logcumsumexp(0)).tangent)
'''

PROGRAMS['an_set_detect_anomaly_forms'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

r = torch.autograd.set_detect_anomaly(True)
print(type(r).__name__, torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(False, check_nan=False)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
torch.set_anomaly_enabled(True) if hasattr(torch, 'set_anomaly_enabled') else None
print(torch.is_anomaly_enabled())
torch.set_anomaly_enabled(False) if hasattr(torch, 'set_anomaly_enabled') else None
try:
    @torch.autograd.detect_anomaly()
    def f(x):
        return torch.is_anomaly_enabled()
    print(f(1))
except TypeError as e:
    print('TypeError', e)
print(torch.is_anomaly_enabled())
E(lambda: torch.autograd.detect_anomaly(True))
E(lambda: torch.autograd.set_detect_anomaly())
'''

PROGRAMS['fw_nn_functional_sweep'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 3, 4, 4, dtype=torch.float64)
t = torch.randn(2, 3, 4, 4, dtype=torch.float64)
v = torch.randn(4, 5, dtype=torch.float64)
vt = torch.randn(4, 5, dtype=torch.float64)
tgt = torch.tensor([0, 4, 2, 1])
ops4 = {'conv2d': lambda a: F.conv2d(a, torch.ones(2, 3, 2, 2, dtype=torch.float64)), 'max_pool': lambda a: F.max_pool2d(a, 2),
        'avg_pool': lambda a: F.avg_pool2d(a, 2), 'adaptive_max': lambda a: F.adaptive_max_pool2d(a, 2), 'adaptive_avg': lambda a: F.adaptive_avg_pool2d(a, 3),
        'batch_norm': lambda a: F.batch_norm(a, None, None, training=True), 'instance_norm': lambda a: F.instance_norm(a),
        'group_norm': lambda a: F.group_norm(a, 3), 'interp_nearest': lambda a: F.interpolate(a, scale_factor=2), 'interp_bilinear': lambda a: F.interpolate(a, size=(5, 5), mode='bilinear'),
        'pad_reflect': lambda a: F.pad(a, (1, 1, 1, 1), mode='reflect'), 'pad_replicate': lambda a: F.pad(a, (1, 0, 0, 1), mode='replicate'),
        'pixel_shuffle': lambda a: F.pixel_shuffle(a[:, :1].repeat(1, 4, 1, 1), 2), 'unfold': lambda a: F.unfold(a, 2), 'dropout2d_eval': lambda a: F.dropout2d(a, training=False),
        'conv_transpose': lambda a: F.conv_transpose2d(a, torch.ones(3, 2, 2, 2, dtype=torch.float64)), 'max_pool_stride': lambda a: F.max_pool2d(a, 3, 1, 1),
        'lp_pool': lambda a: F.lp_pool2d(a, 2, 2), 'local_response': lambda a: F.local_response_norm(a, 2)}
ops2 = {'cross_entropy': lambda a: F.cross_entropy(a, tgt), 'ce_smooth': lambda a: F.cross_entropy(a, tgt, label_smoothing=0.1), 'nll': lambda a: F.nll_loss(a.log_softmax(1), tgt),
        'mse': lambda a: F.mse_loss(a, torch.zeros(4, 5, dtype=torch.float64)), 'l1': lambda a: F.l1_loss(a, torch.ones(4, 5, dtype=torch.float64)),
        'bce': lambda a: F.binary_cross_entropy(a.sigmoid(), torch.ones(4, 5, dtype=torch.float64) * 0.3), 'bce_logits': lambda a: F.binary_cross_entropy_with_logits(a, torch.ones(4, 5, dtype=torch.float64) * 0.3),
        'kl': lambda a: F.kl_div(a.log_softmax(1), torch.full((4, 5), 0.2, dtype=torch.float64), reduction='batchmean'), 'poisson': lambda a: F.poisson_nll_loss(a, torch.ones(4, 5, dtype=torch.float64)),
        'gaussian_nll': lambda a: F.gaussian_nll_loss(a, torch.zeros(4, 5, dtype=torch.float64), a.exp()), 'hinge': lambda a: F.hinge_embedding_loss(a, torch.ones(4, 5, dtype=torch.float64)),
        'cosine_emb': lambda a: F.cosine_embedding_loss(a, a.flip(0), torch.ones(4, dtype=torch.float64)), 'triplet': lambda a: F.triplet_margin_loss(a, a * 2, a.flip(0)),
        'margin_rank': lambda a: F.margin_ranking_loss(a[0], a[1], torch.ones(5, dtype=torch.float64)), 'multilabel_soft': lambda a: F.multilabel_soft_margin_loss(a, torch.ones(4, 5, dtype=torch.float64)),
        'embedding': lambda a: F.embedding(torch.tensor([1, 3]), a), 'linear': lambda a: F.linear(a, a), 'bilinear': lambda a: F.bilinear(a, a, torch.ones(2, 5, 5, dtype=torch.float64)),
        'glu': lambda a: F.glu(a[:, :4]), 'normalize': lambda a: F.normalize(a, dim=0), 'layer_norm_w': lambda a: F.layer_norm(a, (5,), a[0], a[1]),
        'softmin': lambda a: F.softmin(a, 0), 'gumbel_like': lambda a: F.softmax(a / 0.5, -1), 'one_minus': lambda a: 1 - a.sigmoid(), 'prelu': lambda a: F.prelu(a, torch.tensor([0.1], dtype=torch.float64)),
        'rms_norm': lambda a: F.rms_norm(a, (5,)) if hasattr(F, 'rms_norm') else a, 'dropout_eval': lambda a: F.dropout(a, 0.5, training=False), 'alpha_dropout_eval': lambda a: F.alpha_dropout(a, 0.5, training=False)}
with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    for name, f in ops4.items():
        try:
            r = fwAD.unpack_dual(f(d)).tangent
            print(name, None if r is None else (tuple(r.shape), round(r.abs().sum().item(), 4), round(r.abs().max().item(), 4)))
        except Exception as e:
            print(name, type(e).__name__, str(e)[:60])
    d2 = fwAD.make_dual(v, vt)
    for name, f in ops2.items():
        try:
            r = fwAD.unpack_dual(f(d2)).tangent
            print(name, None if r is None else (tuple(r.shape), round(r.abs().sum().item(), 4)))
        except Exception as e:
            print(name, type(e).__name__, str(e)[:60])
'''

PROGRAMS['fw_rsub_scalar_constants'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

import torch.autograd.forward_ad as fwAD
x = torch.tensor([0.5, 1.0])
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.tensor([1., 2.]))
    for f in [lambda a: 1 - a, lambda a: 2 - a * 3, lambda a: torch.rsub(a, 2), lambda a: torch.rsub(a, 2, alpha=3), lambda a: 5 + a,
              lambda a: a - 1, lambda a: torch.sub(a, 1, alpha=2), lambda a: torch.add(a, 1, alpha=4), lambda a: 3 / a, lambda a: 2 ** a,
              lambda a: 1 - a.sigmoid(), lambda a: -a + 1, lambda a: torch.rsub(a, torch.ones(2)), lambda a: 1 - a.double(), lambda a: 1.5 - a.half()]:
        print(fwAD.unpack_dual(f(d)))
    sig = d.sigmoid()
    print(fwAD.unpack_dual(sig * (1 - sig)).tangent)
'''

PROGRAMS['gc_forward_ad_failures'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

from torch.autograd import gradcheck
x = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
class WrongJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_forward(a)
        return a * a
    @staticmethod
    def backward(ctx, g):
        return g * 2 * g.new_tensor([0.5, 1.5])
    @staticmethod
    def jvp(ctx, t):
        a, = ctx.saved_tensors
        return t * 3 * a
E(lambda: gradcheck(WrongJvp.apply, (x,), check_forward_ad=True))
E(lambda: gradcheck(WrongJvp.apply, (x,), check_forward_ad=True, check_backward_ad=False))
E(lambda: gradcheck(WrongJvp.apply, (x,), check_forward_ad=True, check_backward_ad=False, fast_mode=True))
class NoJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
E(lambda: gradcheck(NoJvp.apply, (x,), check_forward_ad=True))
print(gradcheck(lambda a: a.exp().sum(), (x,), check_forward_ad=True, check_batched_grad=True))
'''

PROGRAMS['gc_fast_forward_multi'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

from torch.autograd import gradcheck
torch.manual_seed(0)
a = torch.randn(2, 2, dtype=torch.float64, requires_grad=True)
b = torch.randn(3, dtype=torch.float64)
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_forward(x, y)
        ctx.save_for_backward(x, y)
        return x.sum() * y, x * 2
    @staticmethod
    def backward(ctx, g1, g2):
        x, y = ctx.saved_tensors
        return (g1 * y).sum() * torch.ones_like(x) + g2 * 2, g1 * x.sum()
    @staticmethod
    def jvp(ctx, tx, ty):
        x, y = ctx.saved_tensors
        return tx.sum() * y * 1.1 + x.sum() * ty, tx * 2
print(gradcheck(Two.apply, (a, b)))
E(lambda: gradcheck(Two.apply, (a, b), check_forward_ad=True))
E(lambda: gradcheck(Two.apply, (a, b), check_forward_ad=True, fast_mode=True))
print(gradcheck(lambda x, y: (x.exp().sum() * y, x.sin()), (a, b), check_forward_ad=True, fast_mode=True))
print(torch.randn(2))
'''

PROGRAMS['ggc_options'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

from torch.autograd import gradgradcheck
torch.manual_seed(0)
x = torch.randn(3, dtype=torch.float64, requires_grad=True)
print(gradgradcheck(torch.sin, (x,), check_fwd_over_rev=True))
print(gradgradcheck(torch.sin, (x,), check_fwd_over_rev=True, check_rev_over_rev=False, check_undefined_grad=False))
E(lambda: gradgradcheck(torch.sin, (x,), check_fwd_over_rev=False, check_rev_over_rev=False))
print(gradgradcheck(torch.sin, (x,), check_batched_grad=True))
print(gradgradcheck(torch.sin, (x,), gen_non_contig_grad_outputs=True))
print(gradgradcheck(lambda a: (a * a).sum(), (x,), fast_mode=True))
print(gradgradcheck(torch.tanh, (x,), (torch.ones(3, dtype=torch.float64, requires_grad=True),)))
E(lambda: gradgradcheck(torch.tanh, (x,), (torch.ones(3, dtype=torch.float64),)))
print(torch.rand(2))
'''

PROGRAMS['nn_module_output_nodes'] = r'''
import torch
import torch.nn as nn
torch.manual_seed(0)
x4 = torch.randn(2, 4, 6, 6, requires_grad=True)
x3 = torch.randn(2, 4, 6, requires_grad=True)
x2 = torch.randn(3, 4, requires_grad=True)
mods = [(nn.PReLU(), x2), (nn.PReLU(4), x4), (nn.Upsample(scale_factor=2), x4), (nn.Upsample(scale_factor=2), x3),
        (nn.Upsample(size=(3, 3)), x4), (nn.Upsample(scale_factor=2, mode='bilinear'), x4),
        (nn.InstanceNorm2d(4), x4), (nn.LayerNorm(4), x2), (nn.BatchNorm1d(4), x2), (nn.BatchNorm2d(4), x4), (nn.LocalResponseNorm(2), x4),
        (nn.Softmax2d(), x4), (nn.Hardshrink(), x2), (nn.Softshrink(), x2), (nn.Tanhshrink(), x2), (nn.Threshold(0.1, 0.), x2), (nn.RReLU(), x2),
        (nn.GLU(), x2), (nn.LogSigmoid(), x2), (nn.Softsign(), x2), (nn.Mish(), x2), (nn.SiLU(), x2), (nn.Hardswish(), x2), (nn.Hardsigmoid(), x2),
        (nn.CELU(), x2), (nn.SELU(), x2), (nn.ELU(), x2), (nn.GELU(), x2), (nn.GELU('tanh'), x2), (nn.ReLU6(), x2), (nn.LeakyReLU(), x2),
        (nn.Softplus(), x2), (nn.Softmin(1), x2), (nn.LogSoftmax(1), x2), (nn.Flatten(), x4), (nn.Unflatten(1, (2, 2)), x2), (nn.Identity(), x2),
        (nn.Dropout(0.5).eval(), x2), (nn.AlphaDropout(0.5).eval(), x2), (nn.MaxPool1d(2), x3), (nn.AvgPool1d(2), x3), (nn.AdaptiveAvgPool1d(2), x3),
        (nn.AdaptiveMaxPool1d(2), x3), (nn.AdaptiveMaxPool2d(2), x4), (nn.LPPool2d(2, 2), x4), (nn.ZeroPad2d(1), x4), (nn.ReflectionPad2d(1), x4),
        (nn.ReplicationPad2d(1), x4), (nn.ConstantPad1d(1, 0.5), x3), (nn.CircularPad2d(1), x4), (nn.PixelShuffle(2), x4), (nn.PixelUnshuffle(2), x4),
        (nn.Fold((4, 4), 2), torch.randn(1, 8, 9, requires_grad=True)), (nn.Unfold(2), x4), (nn.CosineSimilarity(), x2),
        (nn.Conv1d(4, 2, 3), x3), (nn.ConvTranspose1d(4, 2, 3), x3), (nn.Conv2d(4, 2, 3, padding='same'), x4), (nn.Bilinear(4, 4, 2), x2),
        (nn.Embedding(5, 3), torch.tensor([1, 2]))]
for m, x in mods:
    try:
        out = m(x) if not isinstance(m, (nn.Bilinear, nn.CosineSimilarity)) else m(x, x)
        print(type(m).__name__, out.grad_fn.name() if out.grad_fn else None, tuple(out.shape))
    except Exception as e:
        print(type(m).__name__, type(e).__name__, str(e)[:60])
'''

PROGRAMS['prelu_and_nearest_grads'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x4 = torch.randn(2, 4, 3, 3, requires_grad=True)
for m, x in [(nn.PReLU(), torch.randn(3, 4, requires_grad=True)), (nn.PReLU(4), x4), (nn.PReLU(), x4)]:
    y = m(x)
    fn = y.grad_fn
    print(y.flatten()[:4], fn.name(), [a for a in dir(fn) if a.startswith('_saved')], fn._saved_weight.shape,
          [n.name() for n, _ in fn.next_functions])
    g = torch.autograd.grad(y.sum(), [x, m.weight], create_graph=True)
    print([t.grad_fn.name() for t in g], g[1])
    gg = torch.autograd.grad(g[0].pow(2).sum() + g[1].sum() * 3, [x, m.weight])
    print(gg[0].flatten()[:6], gg[1])
print(nn.PReLU()(torch.tensor(2., requires_grad=True)))
print(torch.prelu(torch.tensor([-1., 0., float('nan')], requires_grad=True), torch.tensor([0.5])))
for x, kw in [(torch.randn(1, 2, 3, requires_grad=True), dict(scale_factor=2)), (torch.randn(1, 2, 3, 3, requires_grad=True), dict(size=(5, 4))),
              (torch.randn(1, 1, 2, 2, 2, requires_grad=True), dict(scale_factor=(2, 1, 3))), (torch.randn(2, 3, 5, 4, requires_grad=True), dict(scale_factor=0.5)),
              (torch.randn(1, 2, 4, 4, requires_grad=True), dict(scale_factor=2.5, recompute_scale_factor=True))]:
    y = F.interpolate(x, **kw)
    fn = y.grad_fn
    print(tuple(y.shape), fn.name(), {a: getattr(fn, a) for a in dir(fn) if a.startswith('_saved')})
    w = torch.randn(y.shape)
    g, = torch.autograd.grad((y * y * w).sum(), x, create_graph=True)
    print(g.grad_fn.name(), g.flatten()[:6])
print(nn.Upsample(scale_factor=2)(torch.arange(4.).reshape(1, 1, 2, 2).requires_grad_()))
'''

PROGRAMS['nearest_double_backward'] = r'''
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(1, 2, 4, 4, requires_grad=True)
y = F.interpolate(x, scale_factor=1.5)
g, = torch.autograd.grad(y.pow(3).sum(), x, create_graph=True)
print(g.grad_fn.name(), [n.name() for n, _ in g.grad_fn.next_functions])
gg, = torch.autograd.grad(g.sum(), x)
print(gg)
h = F.interpolate(torch.ones(1, 1, 2, 2, dtype=torch.float16, requires_grad=True), scale_factor=3)
h.sum().backward()
print(h.grad_fn.name())
'''

PROGRAMS['cf_ctx_edge_cases'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

class SaveTwice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x)
        ctx.save_for_backward(y)
        return x * y
    @staticmethod
    def backward(ctx, g):
        saved = ctx.saved_tensors
        print('saved count', len(saved))
        return g, g
a = torch.ones(2, requires_grad=True)
b = torch.full((2,), 2., requires_grad=True)
SaveTwice.apply(a, b).sum().backward()
class SavedInForward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        print(len(ctx.saved_tensors))
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: SavedInForward.apply(a))
class ListArg(torch.autograd.Function):
    @staticmethod
    def forward(ctx, xs):
        return xs[0] * 2
    @staticmethod
    def backward(ctx, g):
        return None
r = ListArg.apply([a, b])
print(r.requires_grad, r.grad_fn)
class MarkInput(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_non_differentiable(x)
        return x
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: MarkInput.apply(a * 1).requires_grad)
class DirtyNotReturned(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g
E(lambda: DirtyNotReturned.apply(a.clone()))
'''

PROGRAMS['cf_saved_tensors_in_forward_and_jvp'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

import torch.autograd.forward_ad as fwAD
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        print('in fwd', len(ctx.saved_tensors))
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
    @staticmethod
    def jvp(ctx, t):
        print('in jvp', len(ctx.saved_tensors))
        return t * 2
class G(F):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x)
        ctx.save_for_backward(x, x)
        return x * x
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., 3.]), torch.tensor([1., 1.]))
    print(fwAD.unpack_dual(F.apply(d)).tangent)
    x = torch.tensor([1., 2.], requires_grad=True)
    d2 = fwAD.make_dual(x, torch.tensor([1., 1.]))
    y = F.apply(d2)
    print(fwAD.unpack_dual(y).tangent)
    print(fwAD.unpack_dual(G.apply(d2)).tangent)
print(len(y.grad_fn.saved_tensors))
y = F.apply(torch.tensor([1., 2.]))
'''

PROGRAMS['gc_misc_errors'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

from torch.autograd import gradcheck
x = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
E(lambda: gradcheck(lambda a: (a * 2).detach(), (x,), fast_mode=True))
E(lambda: gradcheck(lambda a: (a * 2).detach() * 0, (x,), fast_mode=True))
E(lambda: gradcheck(lambda a: torch.zeros(2, dtype=torch.float64), (x,)))
E(lambda: gradcheck(lambda a: a.sum().item(), (x,)))
E(lambda: gradcheck(lambda a: (a, 3), (x,)))
E(lambda: gradcheck(lambda a: a * 2, (x,), atol=-1))
E(lambda: gradcheck(lambda a: a.clone().requires_grad_(False), (x,)))
y = torch.tensor([1, 2])
E(lambda: gradcheck(lambda a, b: a * b, (x, y)))
E(lambda: gradcheck(lambda a: a * 2, []))
E(lambda: gradcheck(lambda a: a * 2, x.detach().requires_grad_().view(2, 1).expand(2, 2)))
E(lambda: gradcheck(lambda a: torch.cat([a, a.detach()]), (x,)))
E(lambda: gradcheck(lambda a: a[0] if a.sum() > 0 else a, (x,)))
E(lambda: gradcheck(lambda a: a.float() * 2, (x,)))
'''

PROGRAMS['allclose_negative_tolerances'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

from torch.autograd import gradcheck
for kw in [dict(atol=-1), dict(rtol=-1), dict(atol=-0.5, rtol=-1), dict(rtol=-1e-10), dict(atol=0, rtol=0)]:
    E(lambda: torch.isclose(torch.ones(2), torch.ones(2), **kw))
    E(lambda: torch.allclose(torch.ones(2), torch.ones(2), **kw))
x = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
E(lambda: gradcheck(torch.sin, (x,), atol=-1e-5))
E(lambda: gradcheck(torch.sin, (x,), rtol=-1, fast_mode=True))
'''

PROGRAMS['half_grads_chain'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

torch.manual_seed(0)
for dt in [torch.float16, torch.bfloat16]:
    x = torch.randn(6, dtype=dt, requires_grad=True)
    y = (x.sin() * x.exp() + x.tanh() / (x.abs() + 1)).sum()
    y.backward()
    print(y, x.grad)
    x.grad = None
    z = torch.nn.functional.softmax(x, 0) @ torch.arange(6.).to(dt)
    z.backward()
    print(z, x.grad)
    x.grad = None
    (x.sigmoid() * x).mean().backward()
    print(x.grad)
'''

PROGRAMS['half_softmax_backward_bits'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

torch.manual_seed(0)
for dt in [torch.float16, torch.bfloat16]:
    for shape, dim in [((6,), 0), ((3, 5), 1), ((3, 5), 0), ((2, 40), 1), ((4, 3, 7), 1), ((20,), 0)]:
        x = torch.randn(shape, dtype=dt, requires_grad=True)
        w = torch.randn(shape).to(dt)
        for f in (torch.softmax, torch.log_softmax):
            x.grad = None
            (f(x, dim) * w).sum().backward()
            print(x.grad.flatten()[:8])
'''

PROGRAMS['half_losses_grads'] = r'''
import torch
import torch.nn.functional as F
torch.manual_seed(0)
for dt in [torch.float16, torch.bfloat16]:
    x = torch.randn(4, 5, dtype=dt, requires_grad=True)
    t = torch.tensor([0, 3, 4, 1])
    for name, f in [('ce', lambda a: F.cross_entropy(a, t)), ('nll', lambda a: F.nll_loss(F.log_softmax(a, 1), t)),
                    ('l1', lambda a: F.l1_loss(a, torch.ones(4, 5, dtype=dt))),
                    ('bce_logits', lambda a: F.binary_cross_entropy_with_logits(a, torch.full((4, 5), 0.3, dtype=dt))),
                    ('smooth_l1', lambda a: F.smooth_l1_loss(a, torch.zeros(4, 5, dtype=dt))), ('softmax_sum', lambda a: (F.softmax(a, 1) ** 2).sum()),
                    ('gelu', lambda a: F.gelu(a).sum()), ('silu', lambda a: F.silu(a).sum())]:
        x.grad = None
        try:
            l = f(x)
            l.backward()
            print(name, l, x.grad[0])
        except Exception as e:
            print(name, type(e).__name__, str(e)[:60])
'''

PROGRAMS['requires_grad_setter_on_views'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

x = torch.ones(4)
v = x[:2]
v.requires_grad_()
print(v.requires_grad, v.is_leaf, x.requires_grad)
(v * 2).sum().backward()
print(v.grad, x.grad)
base = torch.ones(4, requires_grad=True)
w = base[:2]
E(lambda: w.requires_grad_(False))
with torch.no_grad():
    nv = base[:2]
print(nv.requires_grad, nv.is_leaf)
E(lambda: nv.requires_grad_(False))
print(nv.requires_grad)
'''

PROGRAMS['legacy_constructor_of_a_tensor_is_an_alias'] = r'''
import torch
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, e)

x = torch.tensor([1., 2.], requires_grad=True)
q = torch.Tensor(x)
print(q, q.is_leaf, q.grad_fn.name(), q._base is x, q._is_view(), q.data_ptr() == x.data_ptr(), q._version)
(q * 2).sum().backward()
print(x.grad)
print(torch.FloatTensor(x), x.new(x))
with torch.no_grad():
    r = torch.Tensor(x)
print(r, r.requires_grad, r.is_leaf)
print(torch.Tensor(torch.tensor([1, 2])), torch.DoubleTensor(torch.ones(2, dtype=torch.float64, requires_grad=True)))
E(lambda: torch.DoubleTensor(x))
print(type(torch.Tensor(torch.nn.Parameter(torch.ones(1)))).__name__)
'''

PROGRAMS['half_mse_backward'] = r'''
import torch
import torch.nn.functional as F
torch.manual_seed(0)
for dt in [torch.float16, torch.bfloat16, torch.float32, torch.float64]:
    x = torch.randn(4, 5, dtype=dt, requires_grad=True)
    y = torch.randn(4, 5, dtype=dt)
    for red in ['mean', 'sum', 'none']:
        x.grad = None
        l = F.mse_loss(x, y, reduction=red)
        (l if red != 'none' else l.sum()).backward()
        print(dt, red, x.grad[0], x.grad[3])
'''

PROGRAMS['half_layer_norm'] = r'''
import torch
import torch.nn.functional as F
torch.manual_seed(0)
for dt in [torch.float16, torch.bfloat16]:
    for shape, ns in [((4, 5), (5,)), ((3, 40), (40,)), ((2, 3, 8), (3, 8))]:
        x = (torch.randn(shape) * 3 + 1).to(dt).requires_grad_()
        for wb in [False, True]:
            w = torch.randn(ns).to(dt).requires_grad_() if wb else None
            b = torch.randn(ns).to(dt).requires_grad_() if wb else None
            y = F.layer_norm(x, ns, w, b)
            print(y.flatten()[:6], y.grad_fn._saved_result1.flatten()[:3], y.grad_fn._saved_result2.flatten()[:3])
            x.grad = None
            (y * torch.arange(y.numel()).reshape(y.shape).to(dt) / 10).sum().backward()
            print(x.grad.flatten()[:6])
    m = torch.nn.LayerNorm(5).to(dt)
    print(m(torch.randn(2, 5).to(dt)))
'''


def _mask(text: str) -> str:
    return re.sub(r"0x[0-9a-fA-F]+", "0xADDR", text)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # warnings go to stderr; only stdout is compared
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
